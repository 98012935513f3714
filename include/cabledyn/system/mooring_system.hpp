// cabledyn: a mooring system: lines joined at points, its DOF numbering and its state.
// Spec "Attached objects and line ends" (fixed, coupled and free points; a line end takes the
// position of the object it is attached to; a free point carries its mass, volume and the
// forces of its lines), "Tension and coupled loads" (the force a line exerts on its end
// object), "Static equilibrium" (R = f_int - f_ext on every free DOF), "Cables clamped to
// bodies and rods" (a clamped end's tangent on the ray of its object's direction, the
// connection moment m x g_m: clamp_end).
//
// The system owns the lines (LineModel) and points, numbers the free DOFs (each line's
// interior nodes as one band block, then the free points' DOFs as the border: see
// bordered_jacobian.hpp) and defines one state value (SystemState: t, q, v, a of the free
// DOFs, a struct copied whole: commit, rollback and restart cannot miss a field). Held
// points (fixed, coupled) are not DOFs: their positions are parameters of the system.
//
// Templated over T for the state and the parameters alike: a MooringSystem of duals, its
// EA, lengths or anchor positions seeded, gives exact design sensitivities of its static
// solution (system_statics.hpp).
//
// This header declares the class and documents its members; their definitions live in
// parts with one job each (system/mooring_system/, included at the end):
//   types.hpp        the records: points, lines, the state value, the held kinematics
//   objects.hpp      adding points, bodies and lines (their checks), end connections, the
//                    coupled inputs a host sets, the first state
//   numbering.hpp    the DOF numbering, its components, the bordered Jacobian, DOF names
//   held_fluid.hpp   the fluid field held over a step
//   kinematics.hpp   node vectors, point and body motions, clamped tangents, commit
//   loads.hpp        the load model: static residual, dynamic force, inertia, tangents
//   end_loads.hpp    end forces and moments, a body's line load, coupled reactions
//   energy.hpp       kinetic and potential energy
//   march_hooks.hpp  what a stepper asks: predictor rule, update limit, held mass, force
//                    scale, state checks
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/quintic.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/core/so3.hpp"
#include "cabledyn/dynamics/ei0_substeps.hpp"
#include "cabledyn/dynamics/generalized_alpha.hpp"
#include "cabledyn/dynamics/release_cap.hpp"
#include "cabledyn/line/end_spring.hpp"
#include "cabledyn/line/line_model.hpp"
#include "cabledyn/statics/tensile_audit.hpp"
#include "cabledyn/system/body_model.hpp"
#include "cabledyn/system/bordered_jacobian.hpp"
#include "cabledyn/system/march_policies.hpp"
#include "cabledyn/system/mooring_system/types.hpp"

namespace cabledyn {

/// A mooring system of lines (EI = 0 or cubic Hermite), points, bodies and rods.
template <class T>
class MooringSystem;
template <class T>
double body_frequency_estimate(const MooringSystem<T>& sys, const SystemState<T>& s,
                               const std::vector<char>* bodies = nullptr, double dt = 0);

template <class T>
class MooringSystem {
  friend class SystemMarchPolicies<T>;  // reads the lines, their routes and the active component

 public:
  using Index = Eigen::Index;
  using Scalar = T;
  using State = SystemState<T>;
  using Jacobian = BorderedJacobian<T>;
  using Held = HeldKinematics<T>;

  explicit MooringSystem(Environment env = {}, std::string name = "mooring system")
      : env_(env), name_(std::move(name)) {
    env_.validate();
  }

  const std::string& name() const { return name_; }
  const Environment& environment() const { return env_; }
  /// A uniform steady current [m/s]: drag on lines, points, bodies and rods in the statics
  /// (at rest) and the dynamics (on the relative velocity).
  void set_current(const Vec3<double>& U) {
    if (!U.allFinite()) throw InputError(name_, "current", "non-finite", "finite");
    if (current_field_ && !U.isZero()) throw InputError(name_, "uniform current", "with a current field", "one of them");
    current_ = U;
  }
  const Vec3<double>& current() const { return current_; }
  /// A steady current that varies in space, u(x) [m/s] (a depth profile; spec "Currents"),
  /// for the statics: each line node, free point, and free body's reference point, lumps and
  /// rod stations and ends takes it at its position in the iterate (live, as the single-line
  /// statics take it; its change with position is left out of the lines' and points'
  /// tangents, a body's central differences include it). In the march the current comes with
  /// the held fluid (hold_fluid, from a field that carries it). A uniform current with it is
  /// refused (InputError).
  void set_current_field(std::function<Vec3<double>(const Vec3<double>&)> u) {
    if (u && !current_.isZero()) throw InputError(name_, "current field", "with a uniform current", "one of them");
    current_field_ = std::move(u);
  }
  bool has_current_field() const { return static_cast<bool>(current_field_); }
  /// The current field of set_current_field (empty: none).
  const std::function<Vec3<double>(const Vec3<double>&)>& current_field() const { return current_field_; }

  /// Holds the fluid of `field` for the next step (spec "Time integration": the fields are
  /// sampled for the end of the step, t, at the committed positions of state s, and every
  /// load evaluation of the step uses them): its velocity, local acceleration and dynamic
  /// pressure at every line node, point, body reference point, lump on a body and rod station
  /// and end (BodyFluid). From then on the dynamic loads take the held fluid in place of the
  /// uniform current (the statics keep the current: the field's steady current should equal
  /// it). Field: any type with `sample(x, t)` returning `.u`, `.a` and `.p_dyn`
  /// (sea/fluid_field.hpp's FluidField). Throws InputError for a non-finite sample; the held
  /// fluid is then unchanged.
  template <class Field>
  void hold_fluid(const Field& field, const State& s, double t);
  /// Returns to the fluid held before the last hold_fluid (a failed step's rollback: the
  /// staging keeps it, so nothing is copied). Only right after a hold_fluid that returned.
  void revert_fluid() {
    fluid_u_.swap(fluid_tmp_u_);
    fluid_a_.swap(fluid_tmp_a_);
    fluid_p_.swap(fluid_tmp_p_);
  }
  /// Drops the held fluid: the dynamic loads take the uniform current again.
  void release_fluid() {
    fluid_u_.clear();
    fluid_a_.clear();
    fluid_p_.clear();
  }
  /// True while a fluid is held (hold_fluid).
  bool holds_fluid() const { return !fluid_u_.empty(); }
  /// Number of held-fluid sites (line nodes, points, bodies and their lumps).
  std::size_t fluid_sites() const {
    require_numbered();
    return fluid_sites_;
  }
  /// The fluid velocity at node i of line l [m/s]: the held fluid's, or without one the
  /// uniform current.
  Vec3<double> line_node_fluid_velocity(int l, std::size_t i) const {
    require_numbered();
    if (fluid_u_.empty()) return current_;
    return fluid_u_.at(fluid_line_site_.at(static_cast<std::size_t>(l)) + i);
  }
  /// The held fluid's velocity, local acceleration and dynamic pressure per site (empty: none
  /// held).
  const std::vector<Vec3<double>>& held_fluid_velocity() const { return fluid_u_; }
  const std::vector<Vec3<double>>& held_fluid_acceleration() const { return fluid_a_; }
  const std::vector<double>& held_fluid_pressure() const { return fluid_p_; }
  /// Restores a held fluid (a restart; empty vectors: none). Throws InputError for another
  /// number of sites or a non-finite value.
  void set_held_fluid(const std::vector<Vec3<double>>& u, const std::vector<Vec3<double>>& a,
                      const std::vector<double>& p);
  /// The seabed the points see (the lines carry their own, LineModel::seabed()).
  void set_seabed(const SeabedModel& bed) {
    bed.params.validate(name_ + " seabed");
    seabed_ = bed;
  }
  const SeabedModel& seabed() const { return seabed_; }

  /// The seabed footprint of point p [m^2] (spec "Seabed contact", Free and Connect points):
  /// the face area of a cube of its volume, V^(2/3); a point declared by its mass alone takes
  /// the volume of solid steel of that mass (rho_s = 7850 kg/m^3); a point with neither has
  /// none.
  T point_footprint(int p) const;

  /// The seabed contact of free point p at height z moving with vz: the line law with the
  /// stiffness kBot A and damping cBot A over its footprint A (zero clear of the bed or
  /// without a footprint or a seabed).
  NodalContact<T> point_contact(int p, const T& z, const T& vz) const;

  /// Adds a point; returns its index. Throws InputError for a non-finite position or a
  /// negative mass or volume.
  int add_point(PointModel<T> p);

  /// Adds a body; returns its index. Throws InputError for a non-finite pose, an orientation
  /// that is not a rotation, a negative mass, inertia or volume, a free body without mass
  /// or inertia, or a direction joint (BodyModel::joint) that is held or carries a mass,
  /// volume, drag, rods or lumps.
  int add_body(BodyModel<T> b);
  std::size_t n_bodies() const { return bodies_.size(); }
  const BodyModel<T>& body(int b) const { return bodies_.at(static_cast<std::size_t>(b)); }
  /// A body, to edit (a held pose, a dual seed). Renumber() after changing a kind.
  BodyModel<T>& body(int b) { return bodies_.at(static_cast<std::size_t>(b)); }
  /// First global DOF of body b (-1 when it is held): a free body's (position, rotation
  /// increment), a pinned body's (rotation increment).
  Index body_dof(int b) const {
    require_numbered();
    return body_dof_[static_cast<std::size_t>(b)];
  }
  /// Number of line DOFs: the objects' (points', then bodies') DOFs follow them.
  Index line_dofs() const {
    require_numbered();
    return n_line_dofs_;
  }
  /// Number of line and point DOFs: the bodies' DOFs follow them.
  Index position_dofs() const {
    require_numbered();
    return n_pos_dofs_;
  }
  /// The connected components of the system's DOFs: two DOFs share one when a chain of
  /// lines, free points and bodies joins them (a line's DOFs, the free points and bodies its
  /// ends are on, a pinned body's parent), so the tangent is block-diagonal over them (a line
  /// between held points is a component of its own). dof_components()[i] is DOF i's, numbered
  /// 0 .. n_components() - 1 in the order of their first DOF.
  const std::vector<int>& dof_components() const {
    require_numbered();
    return dof_component_;
  }
  int n_components() const {
    require_numbered();
    return n_components_;
  }
  /// The DOFs of component c, ascending (its lines' blocks, then its objects': the order of
  /// make_jacobian(c)); empty for a component without DOFs (a one-element EI = 0 line between
  /// held points).
  const std::vector<Index>& component_dofs(int c) const {
    require_numbered();
    return comp_dofs_.at(static_cast<std::size_t>(c));
  }
  /// The component of line l (every line has one, with or without DOFs).
  int line_component(int l) const {
    require_numbered();
    return line_comp_.at(static_cast<std::size_t>(l));
  }
  /// The component of body b (-1: a held body, which has no DOFs).
  int body_component(int b) const {
    require_numbered();
    return body_comp_.at(static_cast<std::size_t>(b));
  }
  /// A name for component c's errors: its lines, e.g. "Line 2 (riser)" or "Lines 1, 3, 4"
  /// (with its free points and bodies, "Lines 1, 2 with their points and bodies").
  std::string component_name(int c) const;
  /// True when component c has a finite-EI line.
  bool component_has_finite_ei(int c) const;
  /// Restricts the stepper's evaluations (dynamic_residual, inertia, force_scale,
  /// check_state, commit, update_limit and the march policies' hooks) to component c (-1: the
  /// whole system, the default): they then evaluate, write and check only c's lines, free
  /// points and bodies (and the held points c's lines end on), and zero only c's rows of the
  /// vectors they overwrite. ComponentView sets it around each call (system/component_view.hpp):
  /// components are stepped apart, each as a system of its own. Not for concurrent use.
  void set_active_component(int c) const {
    if (c < -1 || c >= n_components_)
      throw InputError(name_, "active component", c, "in [-1, " + std::to_string(n_components_) + ")");
    active_ = c;
  }
  int active_component() const { return active_; }
  /// DOFs of body b: 6 (free), 3 (pinned) or 0 (held).
  int body_ndof(int b) const {
    const auto k = bodies_[static_cast<std::size_t>(b)].kind;
    return k == BodyKind::free ? 6 : k == BodyKind::pinned ? 3 : 0;
  }
  /// The global DOF of row i (0..5: force, moment) of body b's equations, -1 when the body
  /// has none there (a held body; a pinned body's force rows: the pin takes the force).
  Index body_row(int b, int i) const;

  /// The pose of body b in state s: its reference point and orientation.
  void body_pose(const State& s, int b, Vec3<T>& r, Mat3<T>& R) const {
    pose_of(b, s.q, s.R, r, R);
  }
  /// The velocity (which = 1: v, omega) or acceleration (2: a, alpha) of body b in state s.
  Vec6<T> body_motion(const State& s, int b, int which) const { return motion_at(b, s.q, s.v, &s.a, s.R, which); }
  /// Folds every free or pinned body's rotation increment into its orientation and zeroes it
  /// (the state describes the same configuration). Steppers call it on each committed state.
  void commit(State& s) const;

  /// Sets coupled body b's pose and motion (the host's input for the end of the next step).
  /// Throws InputError for a body that is not coupled, a non-finite value or an R that is
  /// not a rotation. A CoupledPinned body (host_pin) takes the position, velocity and
  /// acceleration of its pin and ignores the orientation and the angular parts: it turns
  /// freely about the pin.
  void set_coupled_body(int b, const Vec3<T>& r, const Mat3<T>& R, const Vec6<T>& vel, const Vec6<T>& acc = Vec6<T>::Zero());

  /// The load the lines exert on body b in state s, about its reference point in world axes
  /// (force, moment) [N, N m]: the sum of the dynamic end loads (dynamic = true, the
  /// coupled load of the spec) or static end forces at its points, with their lever moments.
  Vec6<T> body_line_load(const State& s, int b, bool dynamic) const;

  /// The moment line l exerts at its end `end` on the object there in state s [N m] (spec
  /// "Cables clamped to bodies and rods"): at a clamped end the connection moment m x t, t
  /// the load of the line on its end tangent (minus its static residual there, or minus its
  /// dynamic residual and inertia); at a spring end m x dU/dm; zero at an end pinned in bending.
  Vec3<T> line_end_moment(const State& s, int l, int end, bool dynamic) const;

  /// The load a Coupled body, or a CoupledPinned one (host_pin), exerts on the host in state
  /// s, about its reference point in world axes (force, moment) [N, N m] (spec "Tension and
  /// coupled loads": the reaction -(M a + r) at the prescribed DOFs; "Attached objects and line
  /// ends": a CoupledPinned node receives F - (m + m_a) a_p - m (alpha x c + omega x (omega x
  /// c)) and no moment): the lines' dynamic end loads and the body's own loads (weight,
  /// buoyancy, drag, its rods and points) less its inertia, the mass matrix (rods, added mass
  /// and points included) times (a, alpha) plus the velocity terms. A CoupledPinned body's
  /// moment is zero (it turns freely about its pin): its angular acceleration is solved again
  /// for the current pin acceleration, and the force takes the inertia of that alpha. For a body of no mass, volume, drag,
  /// rods or points it is its lines' load. Throws InputError for another body.
  Vec6<T> coupled_reaction(const State& s, int b) const;

  /// The net load on body b in state s about its reference point in world axes, its inertia
  /// excluded (MoorDyn's Rod Fx ... Mz, its F6net; spec "Attached objects and line ends"): its
  /// lines' dynamic end loads with their lever moments plus its own loads (weight, buoyancy,
  /// restoring, drag, fluid inertia, seabed contact); a Coupled or CoupledPinned body's is its
  /// load on the host, coupled_reaction (MoorDyn's too: F6net less M a). The loads that bodies
  /// pinned on b pass at their pins are left out. Allocates nothing.
  Vec6<T> body_net_load(const State& s, int b) const;

  // The load F (force, moment about the pin) a pinned body passes at its pin with its angular
  // acceleration solved again for the current pin acceleration (spec: the rotation solves
  // M_rr alpha = M - M_rt a_p - omega x (I_p omega)): the moment F_M left by the committed
  // alpha is M_rr dalpha, the force takes -M_tr dalpha, the moment is zero (M the body's mass
  // matrix, rods and added mass included; lines' end-node inertia is not in it). Scalar
  // loops: a dual's parameters and state may carry derivative parts of different sizes.
  static void resolve_pin_moment(const Mat6<T>& M, Vec6<T>& F);

  /// The residual six-vector (force, moment about its pin) of body b pinned on a parent in
  /// state s: M a + its velocity terms - its external load (it carries no lines); its force
  /// is what its pin exerts on it, its moment zero at a converged state.
  Vec6<T> pinned_residual(const State& s, int b) const;

  /// The force a Coupled point exerts on the host in state s [N] (spec "Tension and coupled
  /// loads": the reaction -(M a + r) at its prescribed DOFs): its lines' dynamic end loads, its
  /// weight and buoyancy, constant force and drag 1/2 rho CdA |u| u on u = U - v, less its
  /// inertia (m + Ca rho V) a. (MoorDyn's coupled point force leaves the inertia out.) A point
  /// of no mass, volume, drag or force returns its lines' load. Throws InputError for another
  /// point.
  Vec3<T> coupled_point_reaction(const State& s, int p) const;

  /// Adds a line from point a (End A) to point b (End B); returns its index.
  int add_line(LineModel<T> model, int a, int b);

  /// Clamps end `end` (0: End A, 1: End B) of finite-EI line l to the object it is attached
  /// to (spec "Cables clamped to bodies and rods": a Rigid end connection on a body point or
  /// a rod end): the end tangent m stays on the ray of d = R d0, R the orientation of the
  /// point's body (a point on a body: d0 in body axes) or the identity (a Fixed or Coupled
  /// point: d0 in world axes, held). d0 points along the line's arc length, from End A toward
  /// End B (at End B out of the line). Only the direction is prescribed: the magnitude of m,
  /// the axial stretch, stays free. The line returns to a body its end force and the
  /// connection moment m x g_m, g_m the constraint force on the tangent.
  ///
  /// The end's tangent slot then holds (lambda, 0, 0): m = lambda d, the other two values
  /// held at zero (rows of their own with a unit diagonal; their residual is zero). Throws
  /// InputError for an EI = 0 line, a free point (it has no orientation) or a d0 that is zero
  /// or not finite; the line is unchanged then.
  void clamp_end(int l, int end, const Vec3<T>& d0);
  /// Connects end `end` of finite-EI line l to its object by an isotropic rotational spring
  /// (spec "End connections (Hermite lines)": U = 1/2 k theta^2, theta the angle between the end
  /// tangent m and d = R d0, R and d0 as for clamp_end; the magnitude of m free). The tangent
  /// stays three DOFs of the line; the spring's gradient loads them and its moment -(m x dU/dm)
  /// the object, with their Jacobian (exact: the spring is invariant under a rotation of both
  /// m and d). Throws InputError as clamp_end does, and for k not > 0 and finite.
  void spring_end(int l, int end, const Vec3<T>& d0, double k);
  /// Releases a clamped or spring end (pinned in bending again).
  void unclamp_end(int l, int end) {
    auto& L = lines_.at(static_cast<std::size_t>(l));
    L.clamped[end] = false;
    L.spring_k[end] = 0;
  }

  /// The direction d = R d0 of line l's clamped end `end` in state s (world axes).
  Vec3<T> clamp_direction(const State& s, int l, int end) const;

  /// Node i's tangent m on Hermite line l in state s (a clamped end's lambda d).
  Vec3<T> node_tangent(const State& s, int l, std::size_t i) const;
  /// Sets node i's tangent on Hermite line l in state s to m (a clamped end: its projection
  /// on the ray of d, lambda = max(d . m, 1e-3 |m|), the other two values zero).
  void set_node_tangent(State& s, int l, std::size_t i, const Vec3<T>& m) const;

  std::size_t n_points() const { return points_.size(); }
  std::size_t n_lines() const { return lines_.size(); }
  /// True when the system has a line: the stepper then takes a backtracking line search
  /// (SystemStepperOptions::LineSearch::automatic; spec "Time integration": the Hermite path
  /// halves a step until the residual decreases, and the EI = 0 march settles a snap with its
  /// line search; an update that lowers the residual is not
  /// touched).
  bool wants_line_search() const { return !lines_.empty(); }
  /// True when the system has a finite-EI line: the stepper then starts a step on the previous
  /// step's factorised tangent (SystemStepperOptions::FactorReuse::automatic). An EI = 0 system factorises fresh (measured on
  /// the OC4 chain at N = 160: reuse there saved factorisations, not time).
  bool wants_factor_reuse() const { return has_finite_ei_lines(); }
  /// True when the stepper starts each step from the Newmark predictor, q + dt v + dt^2 (1/2 -
  /// beta) a: the system (the active component, set_active_component) has lines and none of
  /// finite EI (spec "Newton iteration": an EI = 0 step starts from it). Otherwise a step
  /// starts from the constant-acceleration predictor when the committed state balances over
  /// the translational rows (translational_dof) and from the Newmark predictor when it does
  /// not (spec "Newton iteration": the Hermite path); a component with lines of both kinds
  /// takes the Hermite rule for all its DOFs, and one without lines (bodies alone: the spec
  /// names no other) the same rule.
  bool wants_newmark_predictor() const;
  /// True when DOF i is a position coordinate (a line node's, a free point's, a body's
  /// translation); false for a Hermite node's tangent and a body's rotation. The rows of the
  /// balance test of the Hermite predictor (wants_newmark_predictor).
  bool translational_dof(Index i) const {
    require_numbered();
    return translational_[static_cast<std::size_t>(i)] != 0;
  }
  /// SystemStepper hook on each Newton update dq from state s: the largest fraction in (0, 1]
  /// of it that takes no line node, free point, body contact point or rod seabed station
  /// from outside the seabed beyond its contact blend (contact_entry_fraction: it stops in the
  /// blend, where the tangent sees the contact; spec "Seabed contact"). With `per_component`
  /// (n_components() values) each component's own fraction goes there too (1 where none of
  /// its nodes, points, contact points or stations is cut).
  double update_limit(const State& s, const VecX<T>& dq, double* per_component = nullptr) const;
  /// True when an EI = 0 element of a line in state s has a node above the still water: the
  /// buoyancy it loses is lumped on its nodes, a load without a potential, so
  /// potential_energy is not the energy of the static residual there (the statics then take
  /// the force imbalance as their merit).
  bool nonpotential_loads(const State& s) const;
  /// True when a line end is clamped (clamp_end) or on a rotational spring (spring_end).
  bool has_end_connections() const {
    for (const auto& L : lines_)
      if (L.clamped[0] || L.clamped[1] || L.spring_k[0] > 0 || L.spring_k[1] > 0) return true;
    return false;
  }
  /// True when a line is a finite-EI (Hermite) cable.
  bool has_finite_ei_lines() const {
    for (const auto& L : lines_)
      if (L.model.hermite()) return true;
    return false;
  }
  const PointModel<T>& point(int p) const { return points_.at(static_cast<std::size_t>(p)); }
  /// A point, to edit (a held position, a dual seed). Renumber() after changing a kind.
  PointModel<T>& point(int p) { return points_.at(static_cast<std::size_t>(p)); }
  const SystemLine<T>& line(int l) const { return lines_.at(static_cast<std::size_t>(l)); }
  /// A line, to edit its model's sections (call model.rebuild() after).
  SystemLine<T>& line(int l) { return lines_.at(static_cast<std::size_t>(l)); }

  /// Numbers the free DOFs: each line's interior nodes as one block, then the free points.
  /// Throws InputError for a free point no line holds. Called by the members that need it.
  void renumber();

  /// The march policies of the lines (system/march_policies.hpp, SystemMarchPolicies: the EI
  /// = 0 lines' release cap and sub-steps, spec "Release cap", "Rotation- and snap-resolved
  /// sub-steps"; on by default in double). Throws InputError for a count outside [4, 65536]
  /// or an angle outside (0, 90], NotImplementedError for turning a policy on in a scalar T
  /// other than double.
  void set_march_policies(bool release_cap, bool ei0_substeps, int max_count = 16, double angle = 1.0) {
    policies_.set(name_, release_cap, ei0_substeps, max_count, angle);
  }
  bool release_cap() const { return policies_.release_cap(); }
  bool ei0_substeps() const { return policies_.ei0_substeps(); }
  int ei0_substep_max() const { return policies_.ei0_substep_max(); }
  double ei0_substep_angle() const { return policies_.ei0_substep_angle(); }

  /// SystemStepper hook, at the start of each attempt: every Hermite line's consistent mass
  /// (structural plus added) evaluated at the committed state s and held for inertia() until
  /// release_inertia() (spec "Added mass and fluid inertia": the Hermite path evaluates the
  /// consistent added mass at the start of each step and holds it over the step; the EI = 0
  /// path assembles it at the current configuration, as without a hold). Returns whether a
  /// line holds one (the stepper then evaluates the committed inertia force with it).
  bool hold_inertia(const State& s) const;
  /// Ends a hold_inertia(): inertia() evaluates every line's mass at the configuration again.
  void release_inertia() const { mass_held_ = false; }

  /// SystemStepper hooks of the bodies' mass blend (spec "Time integration": second order
  /// where the mass matrix turns with the configuration). The stepper's inertia blend
  /// (1 - alpha_m) M(q1) A1 + alpha_m M(q0) A0 meets M(t) A(t) at t_(n+1-alpha_f) only up to
  /// (alpha_m - alpha_f) dt (dM/dt) A; a body's rows take M_f A_m instead, M_f = (1 - alpha_f)
  /// M1 + alpha_f M0 and A_m = (1 - alpha_m) A1 + alpha_m A0 (A the acceleration of its
  /// reference point and its angular acceleration, prescribed parts included; for a body pinned
  /// on a parent, a_p + alpha_p x rho, the centripetal w_p x (w_p x rho) being among its
  /// velocity terms, as in inertia()): the stepper adds
  /// dG = (M1 - M0)(alpha_m A0 - alpha_f A_m) to its residual. blends_mass(): whether a body
  /// has DOFs (else the hooks do nothing); blend_mass_start(s0): M0 and A0 of every such body
  /// at the committed state (with the inertia's prescribed kinematics held), once per attempt;
  /// blend_mass(s1, ...): dG at the trial state into dG (zeroed first) and, with J, its tangent
  /// -alpha_f wm (M1 - M0) on the acceleration's columns (wm = (1 - alpha_m) / (beta dt^2), the
  /// stepper's mass weight; the turn of M1 at fixed w is left out). A body pinned on a moving
  /// parent passes dG at its pin with the lever of the trial state (the turn of the lever
  /// within the step is left out). Allocate nothing after the first call.
  bool blends_mass() const;
  void blend_mass_start(const State& s0) const;
  void blend_mass(const State& s1, const T& alpha_m, const T& alpha_f, const T& wm, VecX<T>& dG,
                  BorderedJacobian<T>* J) const;

  // The SystemStepper hooks of the march policies and the finite-EI step check
  // (system/march_policies.hpp documents each).
  void prepare_blend(const State& s) const { policies_.prepare_blend(*this, s); }
  long correct_blend(const State& s1, const T& dt, const GeneralizedAlpha<T>& ga, VecX<T>& G,
                     BorderedJacobian<T>* J) const {
    return policies_.correct_blend(*this, s1, dt, ga, G, J);
  }
  void substeps_start(const State& s0) const { policies_.substeps_start(*this, s0); }
  int substeps_wanted(const State& s1, const T& dt) const { return policies_.substeps_wanted(*this, s1, dt); }
  void turn_start(const State& s0) const { policies_.turn_start(*this, s0); }
  double turn_end(const State& s1, const T& dt) const { return policies_.turn_end(*this, s1, dt); }
  void geometry_start(const State& s0) const { policies_.geometry_start(*this, s0); }
  const char* step_rejection(const State& s1) const { return policies_.step_rejection(*this, s1); }

  /// Number of free DOFs.
  Index dofs() const {
    require_numbered();
    return n_dofs_;
  }
  /// First global DOF of point p (-1 when it is held).
  Index point_dof(int p) const {
    require_numbered();
    return point_dof_[static_cast<std::size_t>(p)];
  }
  /// First global DOF of node i's position on line l (-1 when it is not three DOFs of its
  /// own: an end on a held point or on a body).
  Index node_dof(int l, std::size_t i) const {
    return slot_dof(l, lines_[static_cast<std::size_t>(l)].model.position_slot(i));
  }
  /// First global DOF of node i's tangent m on Hermite line l (a line DOF: a finite-EI end on
  /// a point is pinned in bending, its tangent free). Throws InputError on an EI = 0 line.
  Index tangent_dof(int l, std::size_t i) const;
  /// The global DOF of slot k (three values) of line l's node vector (LineModel: slot
  /// position_slot(i) is node i's position, the next one a Hermite node's tangent); -1 for
  /// an end position that is not three DOFs of its own.
  Index slot_dof(int l, std::size_t k) const;

  /// The Jacobian of this system's numbering (workspaces sized once).
  BorderedJacobian<T> make_jacobian() const { return make_jacobian(-1); }
  /// The Jacobian of component c alone (-1: the whole system's): its lines' bands and its
  /// objects' border, in the order of component_dofs(c), its entries added by the system's
  /// DOF indices (BorderedJacobian::set_global_map; another component's are dropped).
  BorderedJacobian<T> make_jacobian(int c) const;

  /// A first state: free points where the deck puts them, every line's interior nodes evenly
  /// on the chord between its end points, a Hermite line's tangents the chord over its
  /// unstretched length (the static solve seeds them better).
  SystemState<T> initial_state();

  /// Position of point p in state s.
  Vec3<T> point_position(const SystemState<T>& s, int p) const { return point_motion(s, p, 0); }
  /// Position (which = 0), velocity (1) or acceleration (2) of point p in state s: a free
  /// point's from s.q, s.v or s.a, a held point's r, v or a, a point on a body from the body's
  /// motion (body_point_motion).
  Vec3<T> point_motion(const SystemState<T>& s, int p, int which) const;

  /// The mass matrix of body b at pose (rb, Rb): its structural and added mass (the added mass
  /// of its submerged fraction phi at the centre of buoyancy), rods and points included.
  Mat6<T> body_mass_at(int b, const Vec3<T>& rb, const Mat3<T>& Rb) const;

  /// The values of a vector of T (double).
  static Vec3<double> value3(const Vec3<T>& v) {
    return Vec3<double>(static_cast<double>(value_of(v(0))), static_cast<double>(value_of(v(1))),
                        static_cast<double>(value_of(v(2))));
  }

  /// The stiffest body-mooring frequency estimate [rad/s] of bodySubstep and of the staggered
  /// scheme's sub-steps: cabledyn::body_frequency_estimate (system/body_substeps.hpp).
  double body_frequency_estimate(const SystemState<T>& s, const std::vector<char>* bodies = nullptr,
                                 double dt = 0) const {
    return cabledyn::body_frequency_estimate(*this, s, bodies, dt);
  }

  /// The held points' kinematics (into h, whose vectors keep their storage once sized).
  void get_held(Held& h) const;
  /// Sets the held points' kinematics (free points' entries are ignored).
  void set_held(const Held& h);
  /// Sets coupled point p's position, velocity and acceleration (the host's input for the
  /// end of the next step). Throws InputError for a point that is not coupled or a
  /// non-finite value.
  void set_coupled(int p, const Vec3<T>& r, const Vec3<T>& v, const Vec3<T>& a = Vec3<T>::Zero());

  /// Throws SolveError for a non-finite DOF of state s, and NotImplementedError for a point
  /// with a volume above the still water (its buoyancy is taken whole). Lines may reach above
  /// the surface (they lose their buoyancy there: LineModel), and so may rods (their
  /// wetted-segment buoyancy is in their body's loads).
  void check_state(const State& s) const;

  /// The tensile audit of the finite-EI lines (deck tensile_safety; spec "Constitutive laws",
  /// Tensile audit, statics/tensile_audit.hpp): with it on, check_state (so a converged step of
  /// the stepper: the step is then subdivided, and fails by name at the finest level) and
  /// solve_statics (with the static band, capped at a thousandth of the peak tension) reject a
  /// state in which a line's three-element mean axial force falls below -eps EA_bar. Double
  /// only (NotImplementedError in another scalar type); eps > 0 (InputError).
  void set_tensile_safety(bool on, double eps = 2e-6);
  bool tensile_safety() const { return tensile_; }
  double tensile_strain_tolerance() const { return tensile_eps_; }
  /// Throws SolveError naming the line and element whose three-element mean axial force is
  /// below its band (static_band: the statics' band) when tensile_safety is on; returns
  /// otherwise. Allocates nothing after set_tensile_safety (the lines as then).
  void tensile_check(const State& s, bool static_band) const;

  /// What DOF i moves, e.g. "Line 2 (riser) node 5" or "Point 3 (buoy)" (nodes counted from 1
  /// at End A).
  std::string describe_dof(Index i) const;

  /// The force scale of state s [N]: the largest of 1 N, every line's weight, every point's
  /// weight, buoyancy and load, and every line's end force (the scale of the Newton tests).
  double force_scale(const State& s) const;

  /// Node positions (which = 0), velocities (1) or accelerations (2) of line l in state s: the
  /// free DOFs from s.q, s.v or s.a, a held end from its point's r, v or a, an end on a body
  /// from the body's motion.
  void line_gather(const State& s, int l, int which, VecX<T>& x) const;

  /// The position (which = 0), velocity (1) or acceleration (2) of a point fixed on a body,
  /// in state s: r + rho, v + w x rho, a + alpha x rho + w x (w x rho), rho = R offset.
  Vec3<T> body_point_motion(const State& s, const PointModel<T>& P, int which) const;

  /// Number of line ends on point p.
  int line_count(int p) const {
    int n = 0;
    for (const auto& L : lines_) n += (L.point[0] == p) + (L.point[1] == p);
    return n;
  }

  /// Dynamic force r(q, v) = f_int + f_damp - f_ext on the free DOFs (spec "Time
  /// integration": M a + r = 0): every line's (LineModel::dynamic_residual) and, on a free
  /// point, minus its weight and buoyancy, its constant load, its seabed contact
  /// (point_contact) and its drag 1/2 rho CdA |u_r| u_r, u_r = U - v; on a free body, its
  /// velocity terms minus its external load (body_velocity_terms, body_external_load) and the
  /// lines' end loads with their lever moments. With J (not zeroed here) adds wq dr/dq + wv
  /// dr/dv (a body's own part by central differences, as the spec's junction Jacobian; the
  /// turn of the lever arms with the body's angular velocity is left out of the tangent).
  void dynamic_residual(const SystemState<T>& s, VecX<T>& R, BorderedJacobian<T>* J, const T& wq, const T& wv) const;

  /// Inertia M(q) a on the free DOFs (Ma overwritten): the lines' (structural and added
  /// mass, their held ends' accelerations included) and the points' (m + Ca rho V) a, the
  /// bodies' body_mass_matrix (alpha, a). With J (not zeroed here) adds wm M + wq d(M a)/dq.
  void inertia(const SystemState<T>& s, VecX<T>& Ma, BorderedJacobian<T>* J, const T& wm, const T& wq) const;

  /// Mass of point p with its added mass, m + Ca rho V [kg].
  T point_mass(int p) const {
    const auto& P = points_[static_cast<std::size_t>(p)];
    return P.mass + T(P.Ca * env_.rho_w) * P.volume;
  }

  /// Kinetic energy [J]: every line's 1/2 v^T M(x) v over all its nodes (held ends
  /// included, added mass included), every free point's 1/2 (m + Ca rho V) |v|^2 and every
  /// free body's 1/2 (v, w)^T M (v, w) (a direction joint: 1/2 m (d . w)^2 of its roll row).
  T kinetic_energy(const SystemState<T>& s) const;

  /// The external static load on point p: its weight and buoyancy, (0, 0, (rho V - m) g),
  /// plus its constant load [N].
  Vec3<T> point_static_load(int p) const {
    const auto& P = points_[static_cast<std::size_t>(p)];
    return Vec3<T>(T(0), T(0), (T(env_.rho_w) * P.volume - P.mass) * T(env_.g)) + P.load;
  }

  /// Static residual R = f_int - f_ext on the free DOFs (spec "Static equilibrium"; with a
  /// current, its drag on the lines, points, bodies and rods at rest) and, with
  /// J (from make_jacobian(), zeroed here), its tangent dR/dq. compression_ratio >= 0 gives
  /// every element's compressed branch r EA (the tension-only stages of the statics). A free
  /// body's rows are its net force and moment about its reference point (the lines' end
  /// forces with their lever moments, weight, buoyancy, constant load, seabed contact).
  void static_residual(const SystemState<T>& s, VecX<T>& R, BorderedJacobian<T>* J,
                       double compression_ratio = -1) const;

  /// Total potential energy of the system in state s [J]: every line's, the points' weight
  /// and buoyancy potential (m - rho V) g z and the potential -F . r of their constant loads,
  /// and the bodies' (body_potential_energy; a constant moment's potential is taken as
  /// -M . theta of the rotation increment) (the energy whose gradient is static_residual).
  T potential_energy(const SystemState<T>& s, double compression_ratio = -1) const;

  /// The static force line l exerts on the object at its end (0: End A, 1: End B) in state s
  /// [N]: minus the line's residual at its end node, i.e. the end element's tension along
  /// the chord plus the end node's share of weight and seabed reaction (spec "Tension and
  /// coupled loads").
  Vec3<T> line_end_force(const SystemState<T>& s, int l, int end) const;

  /// The dynamic force line l exerts on the object at its end in state s [N]: minus the line's
  /// dynamic residual and inertia at its end node, -(f_int + f_damp - f_ext + (M a))_end, the
  /// held ends' kinematics those the system holds (spec "Tension and coupled loads": the
  /// coupled load of a line end). Without `inertia`, -(f_int + f_damp - f_ext)_end: the
  /// line-end force that FairTen and AnchTen report (the end element and the end node's share
  /// of weight, contact and fluid loads; DECK_FORMAT.md, "Outputs").
  Vec3<T> line_end_force_dynamic(const SystemState<T>& s, int l, int end, bool inertia = true) const;

  /// The net non-inertial force on every node of line l in state s, -r(q, v) in the line's
  /// node-vector layout (f of its node vector's slots: internal and damping forces, weight and
  /// buoyancy, seabed contact, Morison drag and Froude-Krylov with the held fluid), its end
  /// nodes' rows the line-end forces (line_end_force_dynamic without inertia: what the end
  /// element and the end node's loads exert on the end object), the driver's node
  /// force channels (spec "Tension and coupled loads").
  void line_node_forces(const SystemState<T>& s, int l, VecX<T>& f) const;

  /// Elastic tension of element e of line l in state s [N].
  T line_tension(const SystemState<T>& s, int l, std::size_t e) const {
    VecX<T> x;
    line_gather(s, l, 0, x);
    return lines_[static_cast<std::size_t>(l)].model.tension(x, e);
  }

 private:
  // How a line's end node enters the system: not at all (a held point or body), as three DOFs
  // of its own (a free point) or through a free body's six, r_end = r + rho with rho = R p
  // (rows: force and rho x force; columns: dr_end = dr - [rho]_x J_l(theta) dtheta); a
  // clamped end's tangent m = lambda d, d = R d0, through lambda and the body's rotation
  // (rows: d . force and m x force; columns: dm = d dlambda - [m]_x J_l(theta) dtheta).
  // (The matrices are set only for the kinds that read them: a Router is made for every line
  // at every evaluation, so nothing else is initialised.)
  struct EndLink {
    int kind = 0;      // 0 held, 1 own DOFs, 2 body, 3 clamped tangent
    Index dof = -1;    // kind 1: the node's DOFs; kind 2: the body's translation DOFs (-1: pinned); kind 3: lambda
    Index rdof = -1;   // kind 2, 3: the body's rotation DOFs (-1: none, a held object)
    Mat3<T> S;         // kind 2, 3 with rdof: [rho]_x or [m]_x
    Mat3<T> G;         // kind 2, 3 with rdof: -S J_l(theta)
    Mat3<T> Jl;        // kind 3 with rdof: J_l(theta)
    Vec3<T> d;         // kind 3: the clamp direction
  };

  // Line l's DOF of interior slot k (k not 0, not End B's position slot sb).
  Index interior_dof(std::size_t l, std::size_t k, std::size_t sb) const {
    return block_offset_[l] + 3 * static_cast<Index>(k < sb ? k - 1 : k - 2);  // Router::local
  }
  // The unit direction of a clamp or spring of line l's end `end` (InputError naming the end:
  // an EI = 0 line, a free point, a zero or non-finite d0).
  Vec3<T> connection_direction(int l, int end, const Vec3<T>& d0, const char* what) const;

  // Adds the rotational end springs (spec "End connections (Hermite lines)") to R and, with J,
  // wq times their tangent: on the end tangent m (three DOFs of the line) the gradient g =
  // dU/dm and its Hessian H; on the rotation rows of the end's body the moment -(m x g), with
  // dg/dtheta = (H [m]_x - [g]_x) J_l (the spring is invariant under one rotation of m and d).
  void add_end_springs(const State& s, VecX<T>& R, BorderedJacobian<T>* J, const T& wq) const;

  // A direction joint (BodyModel::joint) turns about its axis d with no load: the lines clamped
  // to it load it with moments m x g normal to m, which lies along d, so that turn moves
  // nothing and has no equation. It is held at zero: the rotation rows get k (d . x) d, x the
  // rotation increment theta (k the joint's roll stiffness scale, sum EI / l0 of its lines' end
  // elements) or, for the inertia, the angular acceleration (k the roll inertia scale, sum
  // rho A l0^3 / 105 of their end tangents), with w k d d^T in J, d the axis at the step's
  // reference orientation (renumber()). The row is zero wherever the turn is, so it leaves
  // every other equation and the solution as they are.
  void add_joint_rolls(const State& s, const VecX<T>& x, VecX<T>& R, BorderedJacobian<T>* J, const T& w,
                       bool inertia = false) const;
  // A joint's roll energy 1/2 k (d . x)^2 (x: theta; or omega for the kinetic energy, k then
  // the roll inertia scale).
  T joint_roll_energy(const State& s, const VecX<T>& x, bool inertia = false) const;

  // The tangent slot of line end e (End A: slot 1; End B: the last slot).
  static std::size_t tangent_slot(const LineModel<T>& m, int e) { return e == 0 ? 1 : m.n_slots() - 1; }
  // The DOF of a clamped end's lambda (its tangent slot's first value).
  Index clamp_dof(std::size_t l, int e) const {
    const auto& m = lines_[l].model;
    return interior_dof(l, tangent_slot(m, e), m.position_slot(m.n_nodes() - 1));
  }
  // The end (0, 1) whose clamped tangent node i carries, or -1.
  static int clamped_end_of(const SystemLine<T>& L, std::size_t i) {
    if (i == 0 && L.clamped[0]) return 0;
    if (i + 1 == L.model.n_nodes() && L.clamped[1]) return 1;
    return -1;
  }
  // The angular velocity (which = 1) or acceleration (2) of the object at line end e (zero
  // for a point that is not on a body).
  Vec3<T> clamp_spin(const State& s, const SystemLine<T>& L, int e, int which) const {
    const auto& P = points_[static_cast<std::size_t>(L.point[e])];
    if (P.kind != PointKind::body) return Vec3<T>::Zero();
    return body_motion(s, P.body, which).template tail<3>();
  }

  // Routes a line's slot blocks to the system Jacobian; blocks with a held end position are
  // dropped, blocks of an end on a free or pinned body are mapped onto the body's DOFs, blocks
  // of a clamped end's tangent onto its lambda and its body's rotation.
  struct Router {
    const MooringSystem* sys = nullptr;
    int line = 0;
    BorderedJacobian<T>* J = nullptr;
    std::size_t n = 0;   // slots
    std::size_t sb = 0;  // End B's position slot
    std::size_t ts[2] = {std::size_t(-1), std::size_t(-1)};  // clamped ends' tangent slots
    EndLink ends[2], tang[2];
    T wq = T(1);
    bool special(std::size_t i) const { return i == 0 || i == sb || i == ts[0] || i == ts[1]; }
    // The first row of interior slot i within the line's block.
    Index local(std::size_t i) const { return 3 * static_cast<Index>(i < sb ? i - 1 : i - 2); }
    // The link of slot i: a stored end's, or an interior slot's own DOFs (into `own`).
    const EndLink& link(std::size_t i, EndLink& own) const {
      if (i == 0) return ends[0];
      if (i == sb) return ends[1];
      if (i == ts[0]) return tang[0];
      if (i == ts[1]) return tang[1];
      own.kind = 1;
      own.dof = sys->interior_dof(static_cast<std::size_t>(line), i, sb);
      return own;
    }
    void add(std::size_t i, std::size_t j, const Mat3<T>& B) {
      // The interior blocks (most of them) on the short path; the end blocks out of line.
      if (special(i) || special(j)) return add_end(i, j, B);
      // Block `line` of the Jacobian is the line's interior slots, in order.
      J->add3_local(static_cast<std::size_t>(line), local(i), local(j), B);
    }
    void add_end(std::size_t i, std::size_t j, const Mat3<T>& B) {
      EndLink oa, ob;
      const EndLink& a = link(i, oa);
      const EndLink& b = link(j, ob);
      if (a.kind == 0 || b.kind == 0) return;
      if (a.kind == 1 && b.kind == 1) return J->add3(a.dof, b.dof, B);
      // Rows: force (own, translation or lambda DOFs), moment S force (rotation DOFs);
      // columns: own (a lambda column: B d), rotation (B G).
      for (int ra = 0; ra < 2; ++ra)
        for (int cb = 0; cb < 2; ++cb) {
          const Index row = ra == 0 ? a.dof : a.rdof, col = cb == 0 ? b.dof : b.rdof;
          if (row < 0 || col < 0) continue;
          if ((ra == 1 && a.kind < 2) || (cb == 1 && b.kind < 2)) continue;
          Mat3<T> X = B;
          if (ra == 1) X = a.S * X;
          if (cb == 1) X = X * b.G;
          const bool lr = ra == 0 && a.kind == 3, lc = cb == 0 && b.kind == 3;
          if (!lr && !lc) {
            J->add3(row, col, X);
          } else if (lr && lc) {
            J->add(row, col, a.d.dot(X * b.d));
          } else if (lr) {
            const Vec3<T> rv = X.transpose() * a.d;
            for (int c = 0; c < 3; ++c) J->add(row, col + c, rv(c));
          } else {
            const Vec3<T> cv = X * b.d;
            for (int c = 0; c < 3; ++c) J->add(row + c, col, cv(c));
          }
        }
    }
  };

  Router router(const State& s, int l, BorderedJacobian<T>* J, const T& wq) const;

  // Adds a line's slot vector into the free DOFs: an end on a free body as its force and
  // lever moment (on a pinned body the moment alone: its pin takes the force), with the
  // moment's turn with the body (d(rho x f)/dtheta = [f]_x [rho]_x J_l, times the router's
  // wq) into the Jacobian. A clamped end's tangent row g_m gives lambda's row d . g_m and
  // the connection moment m x g_m (spec "Cables clamped to bodies and rods"), with their turn
  // (d(d . g)/dtheta = (d x g)^T J_l, d(m x g)/dtheta = [g]_x [m]_x J_l, d(m x g)/dlambda =
  // d x g); its two held values take a zero residual and a unit diagonal.
  void scatter(const Router& route, const VecX<T>& Rl, VecX<T>& R) const;

  // The pose of body b from the DOF vector q and the reference orientations Rs (a state's R;
  // empty: the bodies' own): a body pinned on a parent has its pin on the parent's pose.
  void pose_of(int b, const VecX<T>& q, const std::vector<Mat3<T>>& Rs, Vec3<T>& r, Mat3<T>& R) const;
  // Body b's mass matrix (body_mass_at) at its pose from q and Rs (pose_of).
  Mat6<T> mass_of(int b, const VecX<T>& q, const std::vector<Mat3<T>>& Rs) const {
    Vec3<T> r;
    Mat3<T> R;
    pose_of(b, q, Rs, r, R);
    return body_mass_at(b, r, R);
  }
  // dof_component_ and n_components_ from the numbering (renumber): a union-find over the
  // lines, the free points and the bodies with DOFs.
  void number_components();
  // Whether line l, point p, body b is evaluated under set_active_component (a held point:
  // when a line of the active component ends on it).
  bool live_line(std::size_t l) const { return active_ < 0 || line_comp_[l] == active_; }
  bool live_point(std::size_t p) const {
    return active_ < 0 || point_comp_[p] == active_ || (point_dof_[p] < 0 && point_comp_[p] == -2);
  }
  bool live_body(std::size_t b) const { return active_ < 0 || body_comp_[b] == active_; }
  // R.setZero(n) (R resized), or only the active component's rows of R (of the system's size).
  void zero_rows(VecX<T>& R) const;
  // True when body b is pinned on a parent body (BodyModel::parent).
  bool on_parent(int b) const {
    const auto& B = bodies_[static_cast<std::size_t>(b)];
    return B.kind == BodyKind::pinned && B.parent >= 0;
  }
  // The arm R_p p from the parent's reference point to the pin of body b (zero for a body not
  // pinned on a parent), in the configuration q.
  Vec3<T> pin_arm(int b, const VecX<T>& q, const std::vector<Mat3<T>>& Rs) const;
  // The velocity (which = 1) or acceleration (2) six-vector of body b in the configuration
  // (q, v, a): motion_of, and for a body pinned on a parent its pin's motion on the parent
  // (spec "Attached objects and line ends": v_p + w_p x rho, a_p + alpha_p x rho + w_p x
  // (w_p x rho), rho = R_p p; centripetal = false leaves the last term out, for the velocity
  // terms to take it). a may be null for which = 1.
  Vec6<T> motion_at(int b, const VecX<T>& q, const VecX<T>& v, const VecX<T>* a, const std::vector<Mat3<T>>& Rs,
                    int which, bool centripetal = true) const;
  // The velocity terms of a body pinned on a parent that its parent's turn gives it: its mass
  // matrix times the pin's centripetal acceleration (w_p x (w_p x rho), 0) (zero for another
  // body).
  Vec6<T> pin_velocity_terms(int b, const VecX<T>& q, const VecX<T>& v, const std::vector<Mat3<T>>& Rs,
                             const Mat6<T>& M) const;
  template <class S>
  using Vec12 = Eigen::Matrix<S, 12, 1>;
  // (f, F, rho x F), F = f's force: body b's rows and those its pin passes to its parent.
  static Vec12<T> spread_vector(const Vec3<T>& rho, const Vec6<T>& f);
  // The row of entry i of spread_vector (-1: none): body b's rows, then its parent's.
  Index spread_row(int b, int i) const {
    if (i < 6) return body_row(b, i);
    return on_parent(b) ? body_row(bodies_[static_cast<std::size_t>(b)].parent, i - 6) : Index(-1);
  }
  // The velocity (which = 1) or acceleration (2) six-vector of body b from the DOF vector x:
  // a held body's, or a pinned body's pin motion with its angular one.
  Vec6<T> motion_of(int b, const VecX<T>& x, int which) const;
  // Adds body b's six rows (force, moment) to the rows it has DOFs for; a body pinned on a
  // parent passes its force rows to its parent's with the lever rho, its pin arm (spec:
  // G_b^T (M X - F); spread_vector, spread_row).
  void add_body_rows(int b, const Vec6<T>& f, VecX<T>& R, const Vec3<T>& rho = Vec3<T>::Zero()) const;

  // Adds wq d(own)/dq + wv d(own)/dv of body b's own rows (own(q, v) a Vec6) to J by central
  // differences over its position and velocity DOFs (spec "Rigid-body time integration": the
  // objects' own part of the junction Jacobian by finite differences).
  template <class F>
  void body_own_tangent(const State& s, int b, F&& own, BorderedJacobian<T>* J, const T& wq, const T& wv) const;

  // The inertia tangent wm d(M a)/da + wq d(M a)/dq of a body pinned on a parent (M its mass
  // matrix in state s, mass(q) the matrix at q): M a = M (a_p + alpha_p x rho, alpha) takes
  // M[:, 3:6] on its rotation's accelerations, M[:, 0:3] on the parent's translation and
  // -M[:, 0:3] [rho]_x on the parent's rotation; the whole spread to its rows and its parent's
  // (spread_vector); the turn of M, rho and the pin acceleration with q by central differences.
  template <class MassAt>
  void pinned_inertia_tangent(const State& s, int b, const Mat6<T>& M, MassAt&& mass, BorderedJacobian<T>* J,
                              const T& wm, const T& wq) const;

  // The fluid of line l's dynamic loads: the held fluid at its nodes, or the uniform current.
  LineFluid line_fluid(std::size_t l) const {
    if (fluid_u_.empty()) return LineFluid{current_, nullptr, nullptr};
    return LineFluid{current_, fluid_u_.data() + fluid_line_site_[l], fluid_a_.data() + fluid_line_site_[l]};
  }
  // The fluid velocity at point p: the held fluid's, or the uniform current.
  const Vec3<double>& point_fluid_velocity(int p) const {
    return fluid_u_.empty() ? current_ : fluid_u_[fluid_point_site_ + static_cast<std::size_t>(p)];
  }
  // The fluid inertia rho V (1 + Ca) du/dt of point p in the held fluid (spec "Attached objects
  // and line ends": the lumped Morison terms of a point).
  Vec3<T> point_fluid_inertia(int p) const {
    const auto& P = points_[static_cast<std::size_t>(p)];
    return (P.volume * (env_.rho_w * (1 + P.Ca))) * fluid_a_[fluid_point_site_ + static_cast<std::size_t>(p)].template cast<T>();
  }
  // The held fluid of body b (u null: none held).
  BodyFluid body_fluid(int b) const {
    if (fluid_u_.empty()) return BodyFluid{};
    const std::size_t o = fluid_body_site_[static_cast<std::size_t>(b)];
    return BodyFluid{fluid_u_.data() + o, fluid_a_.data() + o, fluid_p_.data() + o};
  }

  // The current of the statics (null: still water).
  const Vec3<double>* static_current() const { return current_.isZero() ? nullptr : &current_; }
  // Line l's static residual at its node vector x: the uniform current, or the current field
  // at its nodes' positions.
  template <class Sink>
  void line_static(int l, const VecX<T>& x, VecX<T>& Rl, Sink* sink, double compression_ratio) const;
  // A current field acts on the lines, free points and bodies, not yet on a rod's drag
  // stations (set_current_field).
  void require_numbered() const {
    if (!numbered_) throw InputError(name_, "DOF numbering", "stale", "renumber() after adding points or lines");
  }

  Environment env_;
  SeabedModel seabed_;
  std::string name_;
  std::vector<PointModel<T>> points_;
  std::vector<SystemLine<T>> lines_;
  std::vector<BodyModel<T>> bodies_;
  bool numbered_ = false;
  std::vector<Index> block_offset_, point_dof_, body_dof_;
  std::vector<int> dof_component_;  // the connected component of each DOF (number_components)
  std::vector<char> translational_;  // 1 for a position coordinate (translational_dof)
  int n_components_ = 0;
  std::vector<int> line_comp_, point_comp_, body_comp_;  // each line's, point's, body's (number_components)
  std::vector<std::vector<Index>> comp_dofs_;            // each component's DOFs, ascending
  mutable int active_ = -1;                              // set_active_component (-1: all)
  Index n_line_dofs_ = 0, n_pos_dofs_ = 0, n_dofs_ = 0;
  Vec3<double> current_ = Vec3<double>::Zero();
  std::function<Vec3<double>(const Vec3<double>&)> current_field_;  // a steady current varying in space (statics)
  mutable std::vector<Vec3<double>> wu_;                            // the current field at a line's nodes
  // The held fluid (hold_fluid): velocity and local acceleration per site (empty: the uniform
  // current), and the sites' layout (renumber()).
  std::vector<Vec3<double>> fluid_u_, fluid_a_;
  std::vector<std::size_t> fluid_line_site_, fluid_body_site_;
  std::size_t fluid_point_site_ = 0, fluid_sites_ = 0;
  std::vector<Vec3<double>> fluid_tmp_u_, fluid_tmp_a_;  // hold_fluid's staging; after it, the previous fluid
  std::vector<double> fluid_p_, fluid_tmp_p_;             // the dynamic pressure per site, and its staging
  mutable std::vector<VecX<T>> wx_, wv_, wr_;  // per-line workspaces, sized by renumber()
  // Each Hermite line's element masses held over a step's attempt (hold_inertia), sized by
  // renumber(); mass_held_: inertia() reads them.
  mutable std::vector<std::vector<Mat<T, 12>>> held_mass_;
  mutable VecX<T> wlim_;  // update_limit's q + dq, sized by renumber()
  mutable bool mass_held_ = false;
  bool tensile_ = false;                        // tensile_safety: check_state audits the finite-EI lines
  double tensile_eps_ = 2e-6;                   // its strain tolerance
  mutable std::vector<double> audit_work_;      // the audit's scratch, reserved by set_tensile_safety
  SystemMarchPolicies<T> policies_;  // the lines' march policies and the finite-EI step check
  mutable VecX<T> fdq_, fdv_;                  // finite-difference copies of the state (bodies)
  mutable std::vector<Mat6<T>> blend_M0_;      // blend_mass_start: each body's M0 and A0
  mutable std::vector<Vec6<T>> blend_A0_;
  mutable std::vector<Vec3<double>> field_u_, field_a_;  // a body's current-field samples (statics)
  mutable std::vector<double> field_p_;                  // their (zero) dynamic pressure
  std::vector<double> joint_k_, joint_m_;      // per body: a direction joint's roll scales [N m/rad], [kg m^2] (renumber())
};

}  // namespace cabledyn

#include "cabledyn/system/body_substeps.hpp"  // the estimate the member forwards to

// The member definitions, one part per job (docs/index.md, "The solver half").
#include "cabledyn/system/mooring_system/objects.hpp"
#include "cabledyn/system/mooring_system/numbering.hpp"
#include "cabledyn/system/mooring_system/held_fluid.hpp"
#include "cabledyn/system/mooring_system/kinematics.hpp"
#include "cabledyn/system/mooring_system/loads.hpp"
#include "cabledyn/system/mooring_system/end_loads.hpp"
#include "cabledyn/system/mooring_system/energy.hpp"
#include "cabledyn/system/mooring_system/march_hooks.hpp"
