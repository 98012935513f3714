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

namespace cabledyn {

/// How a point moves (deck POINTS Attachment column).
enum class PointKind {
  fixed,    ///< held at its position (an anchor): Fixed
  coupled,  ///< position prescribed by the host or a motion (a fairlead): Coupled / Vessel
  free,     ///< three DOFs moved by its lines, weight and buoyancy: Free / Connect
  body,     ///< fixed on a body at an offset in body axes: Body<N>
};

/// A point (deck POINTS row). Parameters in T.
template <class T>
struct PointModel {
  std::string name = "point";
  PointKind kind = PointKind::fixed;
  Vec3<T> r = Vec3<T>::Zero();  ///< held position, or the initial position of a free point [m]
  T mass = T(0);                ///< [kg] (a clump weight)
  T volume = T(0);              ///< displaced volume [m^3] (a buoy)
  double CdA = 0;               ///< drag area [m^2]: drag 1/2 rho CdA |u_r| u_r
  double Ca = 0;                ///< added-mass coefficient: added mass Ca rho V (isotropic)
  Vec3<T> v = Vec3<T>::Zero();  ///< velocity of a held point [m/s] (coupled: set by the host each step)
  Vec3<T> a = Vec3<T>::Zero();  ///< acceleration of a held point [m/s^2]
  Vec3<T> load = Vec3<T>::Zero();  ///< constant external force on a free point [N] (a host's load)
  int body = -1;                   ///< PointKind::body: the body (0-based); r is then the offset in body axes
};

/// The one state value of a system: time and the positions, velocities and accelerations of
/// its free DOFs (in the system's numbering). Copy it whole to commit, roll back or restart.
///
/// A free body's six DOFs are (position of its reference point, rotation vector theta): its
/// orientation is exp([theta]_x) R with R its entry in `R`, its velocities (v, omega) and
/// accelerations (a, alpha) are in world axes. commit() folds theta into R and zeroes it, so
/// theta is the increment of the current step (spec "Rigid-body time integration").
template <class T>
struct SystemState {
  T t = T(0);
  VecX<T> q, v, a;
  std::vector<Mat3<T>> R;  ///< one orientation per body (held bodies' entries unused)
};

/// A line of the system: its load model and the points at its ends.
template <class T>
struct SystemLine {
  LineModel<T> model;
  int point[2] = {-1, -1};  ///< End A, End B point index
  /// A clamped end (spec "Cables clamped to bodies and rods"; MooringSystem::clamp_end): its
  /// tangent m held on the ray of d = R d0, R the orientation of the object at that end.
  bool clamped[2] = {false, false};
  /// A spring end (MooringSystem::spring_end): the rotational spring U = 1/2 k theta^2 of stiffness
  /// spring_k [N m/rad] between m and d = R d0 (0: none).
  double spring_k[2] = {0, 0};
  Vec3<T> clamp_dir[2] = {Vec3<T>::Zero(), Vec3<T>::Zero()};  ///< d0, unit, in the object's axes (clamp or spring)
};

/// The prescribed kinematics of a system's held points (fixed and coupled) at one time: the
/// inputs a stepper interpolates over a step.
template <class T>
struct HeldKinematics {
  std::vector<Vec3<T>> r, v, a;  ///< one entry per point (free points' entries unused)
  std::vector<Vec3<T>> br, bv, bw, ba, balpha;  ///< per body: position, velocity, angular velocity, accelerations
  std::vector<Mat3<T>> bR;                      ///< per body: orientation

  /// Copies `o` (of the same sizes) into this one without allocating.
  void assign(const HeldKinematics& o) {
    for (std::size_t p = 0; p < r.size(); ++p) r[p] = o.r[p], v[p] = o.v[p], a[p] = o.a[p];
    for (std::size_t b = 0; b < br.size(); ++b) {
      br[b] = o.br[b], bv[b] = o.bv[b], bw[b] = o.bw[b], ba[b] = o.ba[b], balpha[b] = o.balpha[b];
      bR[b] = o.bR[b];
    }
  }
  /// The linear blend (1 - w) x + w y into this one, orientations on their geodesic (the
  /// prescribed configuration of the generalised-alpha configuration blend: spec "Time
  /// integration", q_alpha with w = 1 - alpha_f). Allocates nothing.
  void blend(const HeldKinematics& x, const HeldKinematics& y, const T& w) {
    const T s = T(1) - w;
    // A value the same at both ends (an anchor) stays exactly what it is.
    auto lerp = [&](const Vec3<T>& u0, const Vec3<T>& u1) -> Vec3<T> { return u0 == u1 ? u0 : Vec3<T>(s * u0 + w * u1); };
    for (std::size_t p = 0; p < r.size(); ++p) r[p] = lerp(x.r[p], y.r[p]), v[p] = lerp(x.v[p], y.v[p]), a[p] = lerp(x.a[p], y.a[p]);
    for (std::size_t b = 0; b < br.size(); ++b) {
      br[b] = lerp(x.br[b], y.br[b]), bv[b] = lerp(x.bv[b], y.bv[b]), bw[b] = lerp(x.bw[b], y.bw[b]);
      ba[b] = lerp(x.ba[b], y.ba[b]), balpha[b] = lerp(x.balpha[b], y.balpha[b]);
      bR[b] = x.bR[b] == y.bR[b] ? x.bR[b] : so3_interpolate<T>(x.bR[b], y.bR[b], w);
    }
  }
  /// The kinematics a fraction tau of a step of dt from x (at its start) to y (at its end)
  /// into this one (spec "Adaptive step subdivision": the quintic end trajectory): positions,
  /// velocities and accelerations of points and body origins on the quintic Hermite
  /// trajectory through both ends' values (C2 across the sub-steps), orientations on their
  /// geodesic with the angular velocities and accelerations linear. At tau = 0 and 1 the
  /// ends' values, exactly; a point or body at rest over the step (the same position, no
  /// velocity, no acceleration; the same orientation) exactly where it is.
  void interpolate(const HeldKinematics& x, const HeldKinematics& y, const T& tau, const T& dt) {
    if (value_of(tau) == 0) return assign(x);
    if (value_of(tau) == 1) return assign(y);
    const T s = T(1) - tau;
    // A held point or body at rest over the step (an anchor) stays exactly where it is.
    auto at_rest = [](const Vec3<T>& r0, const Vec3<T>& v0, const Vec3<T>& a0, const Vec3<T>& r1, const Vec3<T>& v1,
                      const Vec3<T>& a1) {
      return r0 == r1 && v0.isZero(0) && v1.isZero(0) && a0.isZero(0) && a1.isZero(0);
    };
    for (std::size_t p = 0; p < r.size(); ++p) {
      if (at_rest(x.r[p], x.v[p], x.a[p], y.r[p], y.v[p], y.a[p])) {
        r[p] = x.r[p], v[p] = x.v[p], a[p] = x.a[p];
        continue;
      }
      quintic_hermite(x.r[p], x.v[p], x.a[p], y.r[p], y.v[p], y.a[p], dt, tau, r[p], v[p], a[p]);
    }
    for (std::size_t b = 0; b < br.size(); ++b) {
      if (at_rest(x.br[b], x.bv[b], x.ba[b], y.br[b], y.bv[b], y.ba[b]))
        br[b] = x.br[b], bv[b] = x.bv[b], ba[b] = x.ba[b];
      else
        quintic_hermite(x.br[b], x.bv[b], x.ba[b], y.br[b], y.bv[b], y.ba[b], dt, tau, br[b], bv[b], ba[b]);
      bw[b] = s * x.bw[b] + tau * y.bw[b];
      balpha[b] = s * x.balpha[b] + tau * y.balpha[b];
      bR[b] = x.bR[b] == y.bR[b] ? x.bR[b] : so3_interpolate<T>(x.bR[b], y.bR[b], tau);
    }
  }
};

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
  void hold_fluid(const Field& field, const State& s, double t) {
    require_numbered();
    fluid_tmp_u_.resize(fluid_sites_);
    fluid_tmp_a_.resize(fluid_sites_);
    fluid_tmp_p_.resize(fluid_sites_);
    auto put = [&](std::size_t site, const Vec3<T>& x) {
      Eigen::Vector3d xd;
      for (int c = 0; c < 3; ++c) xd(c) = static_cast<double>(value_of(x(c)));
      const auto smp = field.sample(xd, t);
      if (!smp.u.allFinite() || !smp.a.allFinite() || !std::isfinite(smp.p_dyn))
        throw InputError(name_, "fluid sample at (" + to_text(xd(0)) + ", " + to_text(xd(1)) + ", " + to_text(xd(2)) + ")",
                         "non-finite", "finite");
      fluid_tmp_u_[site] = smp.u;
      fluid_tmp_a_[site] = smp.a;
      fluid_tmp_p_[site] = smp.p_dyn;
    };
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const auto& m = lines_[l].model;
      line_gather(s, static_cast<int>(l), 0, wx_[l]);
      for (std::size_t i = 0; i < m.n_nodes(); ++i) put(fluid_line_site_[l] + i, m.node(wx_[l], i));
    }
    for (std::size_t p = 0; p < points_.size(); ++p) put(fluid_point_site_ + p, point_position(s, static_cast<int>(p)));
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      Vec3<T> rb;
      Mat3<T> Rb;
      body_pose(s, static_cast<int>(b), rb, Rb);
      std::size_t site = fluid_body_site_[b];
      for_each_body_fluid_site<T>(bodies_[b], rb, Rb, [&](const Vec3<T>& arm) { put(site++, Vec3<T>(rb + arm)); });
    }
    fluid_u_.swap(fluid_tmp_u_);
    fluid_a_.swap(fluid_tmp_a_);
    fluid_p_.swap(fluid_tmp_p_);
  }
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
                      const std::vector<double>& p) {
    require_numbered();
    if (u.size() != a.size() || u.size() != p.size() || (!u.empty() && u.size() != fluid_sites_))
      throw InputError(name_, "held fluid sites", u.size(), std::to_string(fluid_sites_) + " (or none)");
    for (std::size_t i = 0; i < u.size(); ++i)
      if (!u[i].allFinite() || !a[i].allFinite() || !std::isfinite(p[i]))
        throw InputError(name_, "held fluid", "non-finite", "finite");
    fluid_u_ = u;
    fluid_a_ = a;
    fluid_p_ = p;
  }
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
  T point_footprint(int p) const {
    using std::cbrt;
    const auto& P = points_[static_cast<std::size_t>(p)];
    const T V = value_of(P.volume) > 0 ? P.volume : T(P.mass / T(7850));
    if (!(value_of(V) > 0)) return T(0);
    const T c = cbrt(V);
    return c * c;
  }

  /// The seabed contact of free point p at height z moving with vz: the line law with the
  /// stiffness kBot A and damping cBot A over its footprint A (zero clear of the bed or
  /// without a footprint or a seabed).
  NodalContact<T> point_contact(int p, const T& z, const T& vz) const {
    if (!seabed_.z) return NodalContact<T>{};
    const T A = point_footprint(p);
    if (!(value_of(A) > 0)) return NodalContact<T>{};
    return seabed_contact<T, T>(z, vz, *seabed_.z, A, T(1), seabed_.params);
  }

  /// Adds a point; returns its index. Throws InputError for a non-finite position or a
  /// negative mass or volume.
  int add_point(PointModel<T> p) {
    const std::string obj = "Point " + std::to_string(points_.size() + 1) + " (" + p.name + ")";
    if (!is_finite(p.r(0)) || !is_finite(p.r(1)) || !is_finite(p.r(2)))
      throw InputError(obj, "position", "non-finite", "finite");
    if (!(value_of(p.mass) >= 0 && is_finite(p.mass))) throw InputError(obj, "mass", value_of(p.mass), ">= 0");
    if (!(value_of(p.volume) >= 0 && is_finite(p.volume)))
      throw InputError(obj, "volume", value_of(p.volume), ">= 0");
    if (!(p.CdA >= 0) || !(p.Ca >= 0)) throw InputError(obj, "CdA / Ca", std::min(p.CdA, p.Ca), ">= 0");
    points_.push_back(std::move(p));
    numbered_ = false;
    return static_cast<int>(points_.size()) - 1;
  }

  /// Adds a body; returns its index. Throws InputError for a non-finite pose, an orientation
  /// that is not a rotation, a negative mass, inertia or volume, a free body without mass
  /// or inertia, or a direction joint (BodyModel::joint) that is held or carries a mass,
  /// volume, drag, rods or lumps.
  int add_body(BodyModel<T> b) {
    const std::string obj = "Body " + std::to_string(bodies_.size() + 1) + " (" + b.name + ")";
    for (int c = 0; c < 3; ++c)
      if (!is_finite(b.r(c))) throw InputError(obj, "position", "non-finite", "finite");
    const double orth = static_cast<double>(value_of((b.R.transpose() * b.R - Mat3<T>::Identity()).cwiseAbs().maxCoeff()));
    if (!(orth < 1e-9) || !(value_of(b.R.determinant()) > 0))
      throw InputError(obj, "orientation |R^T R - I|", orth, "< 1e-9 with det R = 1 (a rotation)");
    if (!(value_of(b.mass) >= 0 && is_finite(b.mass))) throw InputError(obj, "mass", value_of(b.mass), ">= 0");
    if (!(value_of(b.volume) >= 0 && is_finite(b.volume))) throw InputError(obj, "volume", value_of(b.volume), ">= 0");
    for (int c = 0; c < 3; ++c) {
      if (!(value_of(b.inertia(c)) >= 0 && is_finite(b.inertia(c))))
        throw InputError(obj, "moment of inertia " + std::to_string(c + 1), value_of(b.inertia(c)), ">= 0");
      if (!(b.Ca(c) >= 0)) throw InputError(obj, "Ca", b.Ca(c), ">= 0");
    }
    for (int c = 0; c < 6; ++c)
      if (!(b.CdA(c) >= 0)) throw InputError(obj, "CdA", b.CdA(c), ">= 0");
    for (const auto& rod : b.rods) {
      const std::string ro = obj + " rod (" + rod.name + ")";
      if (!(value_of(rod.d) > 0)) throw InputError(ro, "diameter", value_of(rod.d), "> 0");
      if (!(value_of(rod.rho_A) >= 0)) throw InputError(ro, "mass per metre", value_of(rod.rho_A), ">= 0");
      if (!(value_of(Vec3<T>(rod.b - rod.a).squaredNorm()) > 0))
        throw InputError(ro, "length", 0.0, "> 0 (a zero-length rod is a point)");
      if (!(rod.Cd >= 0 && rod.Ca >= 0 && rod.CdEnd >= 0 && rod.CaEnd >= 0))
        throw InputError(ro, "Cd / Ca / CdEnd / CaEnd", std::min({rod.Cd, rod.Ca, rod.CdEnd, rod.CaEnd}), ">= 0");
      if (rod.segments < 1) throw InputError(ro, "NumSegs", rod.segments, ">= 1");
    }
    if (b.joint) {
      if (b.kind != BodyKind::free && b.kind != BodyKind::pinned)
        throw InputError(obj, "attachment of a direction joint", "held or coupled", "Free or Pinned (a joint turns)");
      if (b.host_pin) throw InputError(obj, "attachment of a direction joint", "CoupledPinned", "Free or Pinned");
      const bool bare = value_of(b.mass) == 0 && value_of(b.volume) == 0 && b.rods.empty() && b.lumps.empty() &&
                        b.CdA.isZero() && value_of(b.inertia.squaredNorm()) == 0 && value_of(b.force.squaredNorm()) == 0 &&
                        value_of(b.moment.squaredNorm()) == 0;
      if (!bare)
        throw InputError(obj, "mass, volume, inertia, drag, load, rods or lumps of a direction joint", "nonzero",
                         "none (a joint is a zero-length rod: its inertia is its lines')");
    }
    if (b.parent >= 0) {
      // A body pinned on another (spec: a rod pinned to a body): on an earlier body that is
      // free, held or coupled (not itself pinned: no chains), its pin placed on it.
      if (b.kind != BodyKind::pinned || b.host_pin || b.joint)
        throw InputError(obj, "attachment on a parent body", b.joint ? "a direction joint" : "not Pinned",
                         "a pinned body (a Body<N>Pinned rod)");
      if (b.parent >= static_cast<int>(bodies_.size()))
        throw InputError(obj, "parent body", b.parent + 1, "an earlier body (1.." + std::to_string(bodies_.size()) + ")");
      const auto& P = bodies_[static_cast<std::size_t>(b.parent)];
      if (P.kind == BodyKind::pinned && P.host_pin)
        throw NotImplementedError(obj, "parent body " + std::to_string(b.parent + 1) + " (" + P.name + ")",
                                  "CoupledPinned", "rods pinned to a CoupledPinned body");
      if (P.kind == BodyKind::pinned || P.joint)
        throw InputError(obj, "parent body " + std::to_string(b.parent + 1) + " (" + P.name + ")",
                         P.joint ? "a direction joint" : "pinned", "free, fixed or coupled (no chains of pins)");
      for (int c = 0; c < 3; ++c)
        if (!is_finite(b.pin(c))) throw InputError(obj, "pin on the parent body", "non-finite", "finite");
      // The pin where the parent's pose puts it: a reference point given otherwise is refused
      // (zero: not given).
      const Vec3<T> at = P.r + P.R * b.pin;
      const double off = static_cast<double>(value_of(Vec3<T>(b.r - at).norm()));
      if (value_of(b.r.squaredNorm()) != 0 && !(off <= 1e-9 * (1 + static_cast<double>(value_of(at.norm())))))
        throw InputError(obj, "reference point of a body pinned on body " + std::to_string(b.parent + 1) +
                                  " (off the pin on its pose by)",
                         off, "0 (r is the pin: leave it zero or give the parent's r + R pin)");
      b.r = at;
    }
    if ((b.kind == BodyKind::free || b.kind == BodyKind::pinned) && !b.joint) {
      // The rigid mass with its rods and points: a free body needs a mass and inertia about
      // every axis through its centre of gravity (its 6 x 6 mass matrix positive definite),
      // a pinned one inertia about every axis through its pin.
      const RigidMass<T> rm = body_rigid_mass(b);
      const double m = static_cast<double>(value_of(rm.m));
      if (b.kind == BodyKind::free && !(m > 0))
        throw InputError(obj, "mass of a free body (rods and points included)", m,
                         "> 0 (a massless body has no equation of motion)");
      Mat3<double> J;
      Vec3<double> h;
      for (int i = 0; i < 3; ++i) {
        h(i) = static_cast<double>(value_of(rm.h(i)));
        for (int j = 0; j < 3; ++j) J(i, j) = static_cast<double>(value_of(rm.J(i, j)));
      }
      if (b.kind == BodyKind::free) J -= (h.squaredNorm() * Mat3<double>::Identity() - h * h.transpose()) / m;
      const Vec3<double> ev = Eigen::SelfAdjointEigenSolver<Mat3<double>>(J).eigenvalues();
      if (!(ev(0) > 1e-12 * ev(2) && ev(2) > 0))
        throw InputError(obj,
                         std::string("smallest principal moment of inertia about its ") +
                             (b.kind == BodyKind::free ? "centre of gravity" : "pin") + " (rods and points included)",
                         ev(0), "> 0 (a body that turns about an axis without inertia has no equation of motion)");
    }
    bodies_.push_back(std::move(b));
    numbered_ = false;
    return static_cast<int>(bodies_.size()) - 1;
  }
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
  std::string component_name(int c) const {
    require_numbered();
    std::vector<int> ls;
    for (std::size_t l = 0; l < lines_.size(); ++l)
      if (line_comp_[l] == c) ls.push_back(static_cast<int>(l));
    bool objects = false;
    for (Index d : comp_dofs_.at(static_cast<std::size_t>(c))) objects = objects || d >= n_line_dofs_;
    std::string n;
    if (ls.size() == 1) {
      n = "Line " + std::to_string(ls[0] + 1) + " (" + lines_[static_cast<std::size_t>(ls[0])].model.name() + ")";
    } else {
      n = "Lines ";
      for (std::size_t k = 0; k < ls.size(); ++k) n += (k ? ", " : "") + std::to_string(ls[k] + 1);
    }
    if (ls.empty()) n = name_ + " component " + std::to_string(c + 1);
    return objects ? n + " with their points and bodies" : n;
  }
  /// True when component c has a finite-EI line.
  bool component_has_finite_ei(int c) const {
    require_numbered();
    for (std::size_t l = 0; l < lines_.size(); ++l)
      if (line_comp_[l] == c && lines_[l].model.hermite()) return true;
    return false;
  }
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
  Index body_row(int b, int i) const {
    const Index d = body_dof_[static_cast<std::size_t>(b)];
    if (d < 0) return -1;
    if (body_ndof(b) == 6) return d + i;
    return i < 3 ? -1 : d + i - 3;
  }

  /// The pose of body b in state s: its reference point and orientation.
  void body_pose(const State& s, int b, Vec3<T>& r, Mat3<T>& R) const {
    pose_of(b, s.q, s.R, r, R);
  }
  /// The velocity (which = 1: v, omega) or acceleration (2: a, alpha) of body b in state s.
  Vec6<T> body_motion(const State& s, int b, int which) const { return motion_at(b, s.q, s.v, &s.a, s.R, which); }
  /// Folds every free or pinned body's rotation increment into its orientation and zeroes it
  /// (the state describes the same configuration). Steppers call it on each committed state.
  void commit(State& s) const {
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const Index d = body_row(static_cast<int>(b), 3);
      if (d < 0 || !live_body(b)) continue;
      const Vec3<T> th = s.q.template segment<3>(d);
      if (th.squaredNorm() == T(0)) continue;
      Mat3<T> R = so3_exp<T>(th) * s.R[b];
      // Re-orthonormalise against drift over many steps (one Newton-Schulz step).
      R = T(1.5) * R - T(0.5) * R * R.transpose() * R;
      s.R[b] = R;
      s.q.template segment<3>(d).setZero();
    }
  }

  /// Sets coupled body b's pose and motion (the host's input for the end of the next step).
  /// Throws InputError for a body that is not coupled, a non-finite value or an R that is
  /// not a rotation. A CoupledPinned body (host_pin) takes the position, velocity and
  /// acceleration of its pin and ignores the orientation and the angular parts: it turns
  /// freely about the pin.
  void set_coupled_body(int b, const Vec3<T>& r, const Mat3<T>& R, const Vec6<T>& vel, const Vec6<T>& acc = Vec6<T>::Zero()) {
    auto& B = bodies_.at(static_cast<std::size_t>(b));
    auto obj = [&] { return "Body " + std::to_string(b + 1) + " (" + B.name + ")"; };
    const bool pin = B.kind == BodyKind::pinned && B.host_pin;
    if (B.kind != BodyKind::coupled && !pin)
      throw InputError(obj(), "attachment", "not Coupled", "a Coupled or CoupledPinned body");
    if (pin) {
      bool finite = true;
      for (int c = 0; c < 3; ++c) finite = finite && is_finite(r(c)) && is_finite(vel(c)) && is_finite(acc(c));
      if (!finite) throw InputError(obj(), "coupled pin kinematics", "non-finite", "finite");
      B.r = r;
      B.v = vel.template head<3>();
      B.a = acc.template head<3>();
      return;
    }
    bool finite = true;
    for (int c = 0; c < 3; ++c) finite = finite && is_finite(r(c));
    for (int c = 0; c < 6; ++c) finite = finite && is_finite(vel(c)) && is_finite(acc(c));
    for (int i = 0; i < 9; ++i) finite = finite && is_finite(R(i));
    if (!finite) throw InputError(obj(), "coupled kinematics", "non-finite", "finite");
    const double orth = static_cast<double>(value_of((R.transpose() * R - Mat3<T>::Identity()).cwiseAbs().maxCoeff()));
    if (!(orth < 1e-9)) throw InputError(obj(), "orientation |R^T R - I|", orth, "< 1e-9 (a rotation)");
    B.r = r;
    B.R = R;
    B.v = vel.template head<3>();
    B.w = vel.template tail<3>();
    B.a = acc.template head<3>();
    B.alpha = acc.template tail<3>();
  }

  /// The load the lines exert on body b in state s, about its reference point in world axes
  /// (force, moment) [N, N m]: the sum of the dynamic end loads (dynamic = true, the
  /// coupled load of the spec) or static end forces at its points, with their lever moments.
  Vec6<T> body_line_load(const State& s, int b, bool dynamic) const {
    Vec3<T> rb;
    Mat3<T> Rb;
    body_pose(s, b, rb, Rb);
    Vec6<T> F = Vec6<T>::Zero();
    for (std::size_t l = 0; l < lines_.size(); ++l)
      for (int e = 0; e < 2; ++e) {
        const auto& P = points_[static_cast<std::size_t>(lines_[l].point[e])];
        if (P.kind != PointKind::body || P.body != b) continue;
        const Vec3<T> f = dynamic ? line_end_force_dynamic(s, static_cast<int>(l), e) : line_end_force(s, static_cast<int>(l), e);
        F.template head<3>() += f;
        F.template tail<3>() += Vec3<T>(Rb * P.r).cross(f) + line_end_moment(s, static_cast<int>(l), e, dynamic);
      }
    return F;
  }

  /// The moment line l exerts at its end `end` on the object there in state s [N m] (spec
  /// "Cables clamped to bodies and rods"): at a clamped end the connection moment m x t, t
  /// the load of the line on its end tangent (minus its static residual there, or minus its
  /// dynamic residual and inertia); at a spring end m x dU/dm; zero at an end pinned in bending.
  Vec3<T> line_end_moment(const State& s, int l, int end, bool dynamic) const {
    const auto li = static_cast<std::size_t>(l);
    const auto& L = lines_[li];
    if (L.spring_k[end] > 0) {
      const Vec3<T> m = s.q.template segment<3>(clamp_dof(li, end));
      Vec3<T> g;
      end_spring<T>(m, clamp_direction(s, l, end), L.spring_k[end], &g, nullptr, "system end spring");
      return m.cross(g);
    }
    if (!L.clamped[end]) return Vec3<T>::Zero();
    const Index k = static_cast<Index>(3 * tangent_slot(L.model, end));
    if (!dynamic) {
      VecX<T> x, Rl;
      line_gather(s, l, 0, x);
      line_static<Router>(l, x, Rl, nullptr, -1);
      return Vec3<T>(x.template segment<3>(k)).cross(Vec3<T>(-Rl.template segment<3>(k)));
    }
    line_gather(s, l, 0, wx_[li]);
    line_gather(s, l, 1, wv_[li]);
    line_gather(s, l, 2, wr_[li]);
    Vec3<T> t;
    L.model.end_load(wx_[li], wv_[li], wr_[li], line_fluid(li), end, &t);
    return Vec3<T>(wx_[li].template segment<3>(k)).cross(t);
  }

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
  Vec6<T> coupled_reaction(const State& s, int b) const {
    require_numbered();
    const auto& B = bodies_.at(static_cast<std::size_t>(b));
    const bool pin = B.kind == BodyKind::pinned && B.host_pin;
    if (!(B.kind == BodyKind::coupled || pin))
      throw InputError("Body " + std::to_string(b + 1) + " (" + B.name + ")", "attachment", "not coupled",
                       "a Coupled or CoupledPinned body");
    Vec3<T> rb;
    Mat3<T> Rb;
    body_pose(s, b, rb, Rb);
    const Vec6<T> vel = motion_of(b, s.v, 1), acc = motion_of(b, s.a, 2);
    const Vec3<T> w = vel.template tail<3>();
    const Mat6<T> M = body_mass_at(b, rb, Rb);
    const Vec6<T> own = body_velocity_terms<T>(B, Rb, w) -
                        body_external_load<T>(B, rb, Rb, Vec3<T>(vel.template head<3>()), w, env_, seabed_.z, seabed_.params,
                                              current_, true, body_fluid(b));
    const Vec6<T> Ma = mul6<T>(M, acc);
    Vec6<T> F = body_line_load(s, b, true);
    for (int k = 0; k < 6; ++k) {
      const T o = own(k) + Ma(k);
      F(k) = F(k) - o;
    }
    // The bodies pinned on it: each passes its net load less its inertia at its pin, its
    // angular acceleration solved again for the current pin acceleration (as a CoupledPinned
    // body's: the moment residual f_M left by the committed alpha moves the force by
    // -M_tr M_rr^-1 f_M).
    for (std::size_t c = 0; c < bodies_.size(); ++c)
      if (on_parent(static_cast<int>(c)) && bodies_[c].parent == b) {
        Vec6<T> f = -pinned_residual(s, static_cast<int>(c));
        Vec3<T> rc;
        Mat3<T> Rc;
        body_pose(s, static_cast<int>(c), rc, Rc);
        resolve_pin_moment(body_mass_at(static_cast<int>(c), rc, Rc), f);
        const Vec3<T> fp = f.template head<3>();
        F.template head<3>() += fp;
        F.template tail<3>() += pin_arm(static_cast<int>(c), s.q, s.R).cross(fp);
      }
    if (pin) resolve_pin_moment(M, F);
    return F;
  }

  // The load F (force, moment about the pin) a pinned body passes at its pin with its angular
  // acceleration solved again for the current pin acceleration (spec: the rotation solves
  // M_rr alpha = M - M_rt a_p - omega x (I_p omega)): the moment F_M left by the committed
  // alpha is M_rr dalpha, the force takes -M_tr dalpha, the moment is zero (M the body's mass
  // matrix, rods and added mass included; lines' end-node inertia is not in it). Scalar
  // loops: a dual's parameters and state may carry derivative parts of different sizes.
  static void resolve_pin_moment(const Mat6<T>& M, Vec6<T>& F) {
    Mat3<T> Mrr, Mtr;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) Mrr(i, j) = M(3 + i, 3 + j), Mtr(i, j) = M(i, 3 + j);
    const Mat3<T> Mi = Mrr.inverse();
    Vec3<T> da;
    for (int i = 0; i < 3; ++i) {
      T x = Mi(i, 0) * F(3);
      for (int j = 1; j < 3; ++j) {
        const T p = Mi(i, j) * F(3 + j);
        x = x + p;
      }
      da(i) = x;
    }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const T p = Mtr(i, j) * da(j);
        F(i) = F(i) - p;
      }
    F.template tail<3>().setZero();
  }

  /// The residual six-vector (force, moment about its pin) of body b pinned on a parent in
  /// state s: M a + its velocity terms - its external load (it carries no lines); its force
  /// is what its pin exerts on it, its moment zero at a converged state.
  Vec6<T> pinned_residual(const State& s, int b) const {
    const auto& B = bodies_[static_cast<std::size_t>(b)];
    Vec3<T> rb;
    Mat3<T> Rb;
    body_pose(s, b, rb, Rb);
    const Vec6<T> vel = body_motion(s, b, 1), acc = body_motion(s, b, 2);
    const Vec3<T> w = vel.template tail<3>();
    const Mat6<T> M = body_mass_at(b, rb, Rb);
    return Vec6<T>(mul6<T>(M, acc) + body_velocity_terms<T>(B, Rb, w) -
                   body_external_load<T>(B, rb, Rb, Vec3<T>(vel.template head<3>()), w, env_, seabed_.z, seabed_.params,
                                         current_, true, body_fluid(b)));
  }

  /// The force a Coupled point exerts on the host in state s [N] (spec "Tension and coupled
  /// loads": the reaction -(M a + r) at its prescribed DOFs): its lines' dynamic end loads, its
  /// weight and buoyancy, constant force and drag 1/2 rho CdA |u| u on u = U - v, less its
  /// inertia (m + Ca rho V) a. (MoorDyn's coupled point force leaves the inertia out.) A point
  /// of no mass, volume, drag or force returns its lines' load. Throws InputError for another
  /// point.
  Vec3<T> coupled_point_reaction(const State& s, int p) const {
    using std::sqrt;
    require_numbered();
    const auto& P = points_.at(static_cast<std::size_t>(p));
    if (P.kind != PointKind::coupled)
      throw InputError("Point " + std::to_string(p + 1) + " (" + P.name + ")", "attachment", "not Coupled",
                       "a Coupled point");
    Vec3<T> F = Vec3<T>::Zero();
    for (std::size_t l = 0; l < lines_.size(); ++l)
      for (int e = 0; e < 2; ++e)
        if (lines_[l].point[e] == p) F += line_end_force_dynamic(s, static_cast<int>(l), e);
    F += point_static_load(p);  // adds exact zeros for a bare point
    if (holds_fluid()) F += point_fluid_inertia(p);
    if (P.CdA > 0) {
      const Vec3<T> ur = point_fluid_velocity(p).template cast<T>() - P.v;
      const T un = sqrt(ur.squaredNorm());
      const T k = T(0.5 * env_.rho_w * P.CdA);
      F += k * un * ur;
    }
    F -= point_mass(p) * P.a;
    return F;
  }

  /// Adds a line from point a (End A) to point b (End B); returns its index.
  int add_line(LineModel<T> model, int a, int b) {
    const std::string obj = "Line " + std::to_string(lines_.size() + 1) + " (" + model.name() + ")";
    for (int p : {a, b})
      if (p < 0 || p >= static_cast<int>(points_.size()))
        throw InputError(obj, "end point", p + 1, "an existing point (1.." + std::to_string(points_.size()) + ")");
    if (a == b) throw InputError(obj, "end points", a + 1, "two different points");
    SystemLine<T> L{std::move(model), {a, b}};
    lines_.push_back(std::move(L));
    numbered_ = false;
    return static_cast<int>(lines_.size()) - 1;
  }

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
  void clamp_end(int l, int end, const Vec3<T>& d0) {
    auto& L = lines_.at(static_cast<std::size_t>(l));
    const Vec3<T> d = connection_direction(l, end, d0, "clamped end");
    L.clamped[end] = true;
    L.spring_k[end] = 0;
    L.clamp_dir[end] = d;
  }
  /// Connects end `end` of finite-EI line l to its object by an isotropic rotational spring
  /// (spec "End connections (Hermite lines)": U = 1/2 k theta^2, theta the angle between the end
  /// tangent m and d = R d0, R and d0 as for clamp_end; the magnitude of m free). The tangent
  /// stays three DOFs of the line; the spring's gradient loads them and its moment -(m x dU/dm)
  /// the object, with their Jacobian (exact: the spring is invariant under a rotation of both
  /// m and d). Throws InputError as clamp_end does, and for k not > 0 and finite.
  void spring_end(int l, int end, const Vec3<T>& d0, double k) {
    auto& L = lines_.at(static_cast<std::size_t>(l));
    const Vec3<T> d = connection_direction(l, end, d0, "spring end");
    if (!(k > 0 && std::isfinite(k)))
      throw InputError("Line " + std::to_string(l + 1) + " (" + L.model.name() + ")" + (end == 0 ? " End A" : " End B"),
                       "rotational stiffness", k, "> 0 and finite (N m/rad)");
    L.clamped[end] = false;
    L.spring_k[end] = k;
    L.clamp_dir[end] = d;
  }
  /// Releases a clamped or spring end (pinned in bending again).
  void unclamp_end(int l, int end) {
    auto& L = lines_.at(static_cast<std::size_t>(l));
    L.clamped[end] = false;
    L.spring_k[end] = 0;
  }

  /// The direction d = R d0 of line l's clamped end `end` in state s (world axes).
  Vec3<T> clamp_direction(const State& s, int l, int end) const {
    const auto& L = lines_[static_cast<std::size_t>(l)];
    const auto& P = points_[static_cast<std::size_t>(L.point[end])];
    if (P.kind != PointKind::body) return L.clamp_dir[end];
    Vec3<T> rb;
    Mat3<T> Rb;
    body_pose(s, P.body, rb, Rb);
    return Rb * L.clamp_dir[end];
  }

  /// Node i's tangent m on Hermite line l in state s (a clamped end's lambda d).
  Vec3<T> node_tangent(const State& s, int l, std::size_t i) const {
    const auto& L = lines_.at(static_cast<std::size_t>(l));
    const Index d = tangent_dof(l, i);
    const int e = clamped_end_of(L, i);
    if (e < 0) return s.q.template segment<3>(d);
    return s.q(d) * clamp_direction(s, l, e);
  }
  /// Sets node i's tangent on Hermite line l in state s to m (a clamped end: its projection
  /// on the ray of d, lambda = max(d . m, 1e-3 |m|), the other two values zero).
  void set_node_tangent(State& s, int l, std::size_t i, const Vec3<T>& m) const {
    const auto& L = lines_.at(static_cast<std::size_t>(l));
    const Index d = tangent_dof(l, i);
    const int e = clamped_end_of(L, i);
    if (e < 0) {
      s.q.template segment<3>(d) = m;
      return;
    }
    const T lam = m.dot(clamp_direction(s, l, e));
    const T floor = T(1e-3) * sqrt_or_zero(T(m.squaredNorm()));
    s.q(d) = value_of(lam) > value_of(floor) ? lam : floor;
    s.q(d + 1) = T(0);
    s.q(d + 2) = T(0);
  }

  std::size_t n_points() const { return points_.size(); }
  std::size_t n_lines() const { return lines_.size(); }
  /// True when the system has a line: the stepper then takes a backtracking line search
  /// (SystemStepperOptions::LineSearch::automatic; spec "Time integration": the Hermite path
  /// halves a step until the residual decreases, and the EI = 0 march settles a snap with its
  /// line search, as the single-line march does; an update that lowers the residual is not
  /// touched).
  bool wants_line_search() const { return !lines_.empty(); }
  /// True when the system has a finite-EI line: the stepper then starts a step on the previous
  /// step's factorised tangent (SystemStepperOptions::FactorReuse::automatic), as the
  /// single-line march does on a Hermite line. An EI = 0 system factorises fresh (measured on
  /// the OC4 chain at N = 160: reuse there saved factorisations, not time).
  bool wants_factor_reuse() const { return has_finite_ei_lines(); }
  /// True when the stepper starts each step from the Newmark predictor, q + dt v + dt^2 (1/2 -
  /// beta) a: the system (the active component, set_active_component) has lines and none of
  /// finite EI (spec "Newton iteration": an EI = 0 step starts from it). Otherwise a step
  /// starts from the constant-acceleration predictor when the committed state balances over
  /// the translational rows (translational_dof) and from the Newmark predictor when it does
  /// not, as the single-line march starts a Hermite step; a component with lines of both kinds
  /// takes the Hermite rule for all its DOFs, and one without lines (bodies alone: the spec
  /// names no other) the same rule.
  bool wants_newmark_predictor() const {
    bool lines = false;
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      if (!live_line(l)) continue;
      if (lines_[l].model.hermite()) return false;
      lines = true;
    }
    return lines;
  }
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
  double update_limit(const State& s, const VecX<T>& dq, double* per_component = nullptr) const {
    double a = 1;
    if (per_component) std::fill(per_component, per_component + n_components(), 1.0);
    if (!seabed_.z) return a;
    const double zf = *seabed_.z, delta = seabed_.params.delta;
    // The fraction f of the update of DOF d's component.
    auto cut = [&](Index d, double f) {
      a = std::min(a, f);
      if (per_component) {
        double& c = per_component[dof_component_[static_cast<std::size_t>(d)]];
        c = std::min(c, f);
      }
    };
    auto limit = [&](Index d) {
      const double z = static_cast<double>(value_of(s.q(d + 2))), dz = static_cast<double>(value_of(dq(d + 2)));
      cut(d, contact_entry_fraction(z, dz, zf, delta));
    };
    for (std::size_t l = 0; l < lines_.size(); ++l)
      for (std::size_t i = 0; i < lines_[l].model.n_nodes() && live_line(l); ++i) {
        const Index d = node_dof(static_cast<int>(l), i);
        if (d >= 0) limit(d);
      }
    for (std::size_t p = 0; p < points_.size(); ++p) {
      const Index d = point_dof_[p];
      if (d >= 0 && live_point(p) && value_of(point_footprint(static_cast<int>(p))) > 0) limit(d);
    }
    // A body's contact point (BodyModel::point_contact) and its rods' seabed stations
    // (rod_seabed_stations), each carried by the update of its body's pose: the poses at q and
    // at q + dq (pose_of: a pinned body's about its pin, on its parent's), a station fixed in
    // the body turning with it.
    bool bodies = false;
    for (std::size_t b = 0; b < bodies_.size(); ++b)
      bodies = bodies || (body_dof_[b] >= 0 && live_body(b) && !bodies_[b].joint &&
                          (bodies_[b].point_contact || !bodies_[b].rods.empty()));
    if (!bodies) return a;
    wlim_ = s.q;  // sized by renumber(): no allocation
    wlim_ += dq;
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const auto& B = bodies_[b];
      if (body_dof_[b] < 0 || B.joint || !live_body(b)) continue;
      auto limit_z = [&](const T& z0, const T& z1) {
        const double z = static_cast<double>(value_of(z0));
        cut(body_dof_[b], contact_entry_fraction(z, static_cast<double>(value_of(z1)) - z, zf, delta));
      };
      Vec3<T> r0, r1;
      Mat3<T> R0, R1;
      pose_of(static_cast<int>(b), s.q, s.R, r0, R0);
      pose_of(static_cast<int>(b), wlim_, s.R, r1, R1);
      if (B.point_contact) limit_z(r0(2), r1(2));
      const Mat3<T> turn = R1 * R0.transpose();
      for (const auto& rod : B.rods)
        rod_seabed_stations<T>(rod, Vec3<T>(R0 * rod.a), Vec3<T>(R0 * rod.b), [&](const Vec3<T>& p, const T&) {
          limit_z(T(r0(2) + p(2)), T(r1(2) + (turn * p)(2)));
        });
    }
    return a;
  }
  /// True when an EI = 0 element of a line in state s has a node above the still water: the
  /// buoyancy it loses is lumped on its nodes, a load without a potential, so
  /// potential_energy is not the energy of the static residual there (the statics then take
  /// the force imbalance as their merit).
  bool nonpotential_loads(const State& s) const {
    if (!current_.isZero() || current_field_) return true;  // the current's drag
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      if (lines_[l].model.hermite()) continue;
      line_gather(s, static_cast<int>(l), 0, wx_[l]);
      if (lines_[l].model.nonpotential_wetting(wx_[l])) return true;
    }
    return false;
  }
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
  void renumber() {
    block_offset_.clear();
    Index off = 0;
    for (const auto& L : lines_) {
      block_offset_.push_back(off);
      off += 3 * static_cast<Index>(L.model.n_slots() - 2);
    }
    n_line_dofs_ = off;
    point_dof_.assign(points_.size(), -1);
    std::vector<int> attached(points_.size(), 0);
    for (const auto& L : lines_) ++attached[static_cast<std::size_t>(L.point[0])], ++attached[static_cast<std::size_t>(L.point[1])];
    for (std::size_t p = 0; p < points_.size(); ++p) {
      if (points_[p].kind != PointKind::free) continue;
      if (attached[p] == 0)
        throw InputError("Point " + std::to_string(p + 1) + " (" + points_[p].name + ")", "lines attached", 0,
                         ">= 1 (a free point must be held by a line)");
      point_dof_[p] = off;
      off += 3;
    }
    n_pos_dofs_ = off;
    body_dof_.assign(bodies_.size(), -1);
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (points_[p].kind == PointKind::body && (points_[p].body < 0 || points_[p].body >= static_cast<int>(bodies_.size())))
        throw InputError("Point " + std::to_string(p + 1) + " (" + points_[p].name + ")", "body", points_[p].body + 1,
                         "an existing body (1.." + std::to_string(bodies_.size()) + ")");
    // A body pinned on a parent carries no lines yet (their end blocks would reach the
    // parent's DOFs through the pin).
    for (std::size_t l = 0; l < lines_.size(); ++l)
      for (int e = 0; e < 2; ++e) {
        const auto& P = points_[static_cast<std::size_t>(lines_[l].point[e])];
        if (P.kind == PointKind::body && P.body < static_cast<int>(bodies_.size()) && on_parent(P.body))
          throw NotImplementedError("Line " + std::to_string(l + 1) + " (" + lines_[l].model.name() + ")" +
                                        (e == 0 ? " End A" : " End B"),
                                    "attachment", "body " + std::to_string(P.body + 1) + " (" +
                                                      bodies_[static_cast<std::size_t>(P.body)].name + ")",
                                    "lines on a body pinned to another body (a Body<N>Pinned rod's ends)");
      }
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const int nd = body_ndof(static_cast<int>(b));
      if (nd == 0) continue;
      body_dof_[b] = off;
      off += nd;
    }
    n_dofs_ = off;
    number_components();
    // A direction joint's roll scale: the bending stiffness EI / l0 of the end elements of the
    // lines clamped to it, and its springs; a joint without them has no rotational equation.
    joint_k_.assign(bodies_.size(), 0.0);
    joint_m_.assign(bodies_.size(), 0.0);
    for (std::size_t l = 0; l < lines_.size(); ++l)
      for (int e = 0; e < 2; ++e) {
        const auto& L = lines_[l];
        const auto& P = points_[static_cast<std::size_t>(L.point[e])];
        if (P.kind != PointKind::body || !bodies_[static_cast<std::size_t>(P.body)].joint) continue;
        if (!L.clamped[e] && !(L.spring_k[e] > 0)) continue;
        // Along the joint's axis, or the roll is no longer free of load.
        const Vec3<T> d0 = L.clamp_dir[e];
        if (!(std::fabs(static_cast<double>(value_of(d0(2)))) > 1 - 1e-12))
          throw InputError("Line " + std::to_string(l + 1) + " (" + L.model.name() + ")" + (e == 0 ? " End A" : " End B"),
                           "clamp or spring direction at direction joint " + bodies_[static_cast<std::size_t>(P.body)].name +
                               " (body axes)",
                           "(" + to_text(static_cast<double>(value_of(d0(0)))) + ", " +
                               to_text(static_cast<double>(value_of(d0(1)))) + ", " +
                               to_text(static_cast<double>(value_of(d0(2)))) + ")",
                           "+-z (the joint's axis: its lines join along it)");
        joint_k_[static_cast<std::size_t>(P.body)] += L.model.end_bending_stiffness(e) + L.spring_k[e];
        // The end tangent's own inertia in the consistent mass (at least 1e-9 of the stiffness in s^2).
        joint_m_[static_cast<std::size_t>(P.body)] += L.model.end_tangent_inertia(e);
      }
    for (std::size_t b = 0; b < bodies_.size(); ++b)
      if (bodies_[b].joint) joint_m_[b] = std::max(joint_m_[b], 1e-9 * joint_k_[b]);
    for (std::size_t b = 0; b < bodies_.size(); ++b)
      if (bodies_[b].joint && !(joint_k_[b] > 0))
        throw InputError("Body " + std::to_string(b + 1) + " (" + bodies_[b].name + ")",
                         "finite-EI line ends clamped or on springs at a direction joint", 0,
                         ">= 1 (the bending of its lines sets a joint's direction)");
    // The held fluid's sites: every line node, every point, every body's reference point and
    // its lumps.
    std::size_t site = 0;
    fluid_line_site_.clear();
    for (const auto& L : lines_) fluid_line_site_.push_back(site), site += L.model.n_nodes();
    fluid_point_site_ = site;
    site += points_.size();
    fluid_body_site_.clear();
    for (const auto& B : bodies_) fluid_body_site_.push_back(site), site += body_fluid_sites(B);
    fluid_sites_ = site;
    fluid_u_.clear();
    fluid_a_.clear();
    fluid_p_.clear();
    wx_.assign(lines_.size(), VecX<T>());
    if (tensile_) set_tensile_safety(true, tensile_eps_);  // the audit's scratch for the lines as now
    wv_ = wx_;
    wr_ = wx_;
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const Index n = lines_[l].model.size();
      wx_[l].setZero(n);
      wv_[l].setZero(n);
      wr_[l].setZero(n);
    }
    wlim_.setZero(n_dofs_);
    held_mass_.assign(lines_.size(), {});
    for (std::size_t l = 0; l < lines_.size(); ++l)
      if (lines_[l].model.hermite()) held_mass_[l].resize(lines_[l].model.n_elements());
    mass_held_ = false;
    policies_.resize(*this);
    // The translational DOFs (translational_dof): line nodes' positions, points, body
    // translations.
    translational_.assign(static_cast<std::size_t>(n_dofs_), 0);
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const auto& M = lines_[l].model;
      const std::size_t sb = M.position_slot(M.n_nodes() - 1);
      for (std::size_t i = 1; i + 1 < M.n_nodes(); ++i) {
        const Index d = interior_dof(l, M.position_slot(i), sb);
        for (int k = 0; k < 3; ++k) translational_[static_cast<std::size_t>(d + k)] = 1;
      }
    }
    for (Index d = n_line_dofs_; d < n_pos_dofs_; ++d) translational_[static_cast<std::size_t>(d)] = 1;
    for (std::size_t b = 0; b < bodies_.size(); ++b)
      for (int k = 0; k < 3; ++k) {
        const Index d = body_row(static_cast<int>(b), k);
        if (d >= 0) translational_[static_cast<std::size_t>(d)] = 1;
      }
    numbered_ = true;
  }

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
  bool hold_inertia(const State& s) const {
    require_numbered();
    bool any = false;
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      if (!lines_[l].model.hermite() || !live_line(l)) continue;
      line_gather(s, static_cast<int>(l), 0, wx_[l]);
      lines_[l].model.hermite_masses(wx_[l], held_mass_[l]);
      any = true;
    }
    mass_held_ = any;
    return any;
  }
  /// Ends a hold_inertia(): inertia() evaluates every line's mass at the configuration again.
  void release_inertia() const { mass_held_ = false; }

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
  Index tangent_dof(int l, std::size_t i) const {
    const auto& L = lines_.at(static_cast<std::size_t>(l));
    if (!L.model.hermite())
      throw InputError("Line " + std::to_string(l + 1) + " (" + L.model.name() + ")", "node tangent", "requested",
                       "a finite-EI line (an EI = 0 node has no tangent DOF)");
    return slot_dof(l, L.model.position_slot(i) + 1);
  }
  /// The global DOF of slot k (three values) of line l's node vector (LineModel: slot
  /// position_slot(i) is node i's position, the next one a Hermite node's tangent); -1 for
  /// an end position that is not three DOFs of its own.
  Index slot_dof(int l, std::size_t k) const {
    require_numbered();
    const auto li = static_cast<std::size_t>(l);
    const auto& L = lines_[li];
    const std::size_t sb = L.model.position_slot(L.model.n_nodes() - 1);
    if (k == 0) return point_dof_[static_cast<std::size_t>(L.point[0])];
    if (k == sb) return point_dof_[static_cast<std::size_t>(L.point[1])];
    return interior_dof(li, k, sb);
  }

  /// The Jacobian of this system's numbering (workspaces sized once).
  BorderedJacobian<T> make_jacobian() const { return make_jacobian(-1); }
  /// The Jacobian of component c alone (-1: the whole system's): its lines' bands and its
  /// objects' border, in the order of component_dofs(c), its entries added by the system's
  /// DOF indices (BorderedJacobian::set_global_map; another component's are dropped).
  BorderedJacobian<T> make_jacobian(int c) const {
    require_numbered();
    if (c < -1 || c >= n_components_)
      throw InputError(name_, "component", c, "in [-1, " + std::to_string(n_components_) + ")");
    // The object DOFs of c, numbered among themselves.
    std::vector<Index> obj(static_cast<std::size_t>(n_dofs_ - n_line_dofs_), -1);
    Index n_obj = 0;
    for (Index d = n_line_dofs_; d < n_dofs_; ++d)
      if (c < 0 || dof_component_[static_cast<std::size_t>(d)] == c)
        obj[static_cast<std::size_t>(d - n_line_dofs_)] = n_obj++;
    std::vector<BorderedBlockShape> blocks;
    std::vector<int> block_of(lines_.size(), -1);
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      if (c >= 0 && line_comp_[l] != c) continue;
      block_of[l] = static_cast<int>(blocks.size());
      BorderedBlockShape s;
      s.name = "Line " + std::to_string(l + 1) + " (" + lines_[l].model.name() + ")";
      s.size = 3 * static_cast<Index>(lines_[l].model.n_slots() - 2);
      s.half_bandwidth = lines_[l].model.half_bandwidth();
      for (int end = 0; end < 2; ++end) {
        const auto& P = points_[static_cast<std::size_t>(lines_[l].point[end])];
        Index d = point_dof_[static_cast<std::size_t>(lines_[l].point[end])];
        int k = 3;
        if (P.kind == PointKind::body) d = body_dof_[static_cast<std::size_t>(P.body)], k = body_ndof(P.body);
        if (d >= 0)
          for (int i = 0; i < k; ++i) {
            const Index o = obj[static_cast<std::size_t>(d - n_line_dofs_ + i)];
            if (std::find(s.coupled.begin(), s.coupled.end(), o) == s.coupled.end()) s.coupled.push_back(o);
          }
      }
      blocks.push_back(std::move(s));
    }
    if (c < 0) return BorderedJacobian<T>(std::move(blocks), n_obj, name_);
    BorderedJacobian<T> J(std::move(blocks), n_obj, component_name(c));
    auto map = std::make_shared<std::vector<Index>>(static_cast<std::size_t>(n_dofs_), Index(-1));
    const auto& dofs = comp_dofs_[static_cast<std::size_t>(c)];
    for (std::size_t k = 0; k < dofs.size(); ++k) (*map)[static_cast<std::size_t>(dofs[k])] = static_cast<Index>(k);
    J.set_global_map(std::move(map), std::move(block_of));
    return J;
  }

  /// A first state: free points where the deck puts them, every line's interior nodes evenly
  /// on the chord between its end points, a Hermite line's tangents the chord over its
  /// unstretched length (the static solve seeds them better).
  SystemState<T> initial_state() {
    if (!numbered_) renumber();
    SystemState<T> s;
    s.q = VecX<T>::Zero(n_dofs_);
    s.v = VecX<T>::Zero(n_dofs_);
    s.a = VecX<T>::Zero(n_dofs_);
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (point_dof_[p] >= 0) s.q.template segment<3>(point_dof_[p]) = points_[p].r;
    s.R.resize(bodies_.size());
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      s.R[b] = bodies_[b].R;
      if (body_ndof(static_cast<int>(b)) == 6) s.q.template segment<3>(body_dof_[b]) = bodies_[b].r;
    }
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const auto& L = lines_[l];
      const Vec3<T> a = point_position(s, L.point[0]), b = point_position(s, L.point[1]);
      const std::size_t n = L.model.n_nodes();
      for (std::size_t i = 1; i + 1 < n; ++i)
        s.q.template segment<3>(node_dof(static_cast<int>(l), i)) = a + (b - a) * T(double(i) / double(n - 1));
      if (L.model.hermite()) {
        const Vec3<T> m = (b - a) / L.model.length();
        for (std::size_t i = 0; i < n; ++i) set_node_tangent(s, static_cast<int>(l), i, m);
      }
    }
    return s;
  }

  /// Position of point p in state s.
  Vec3<T> point_position(const SystemState<T>& s, int p) const { return point_motion(s, p, 0); }
  /// Position (which = 0), velocity (1) or acceleration (2) of point p in state s: a free
  /// point's from s.q, s.v or s.a, a held point's r, v or a, a point on a body from the body's
  /// motion (body_point_motion).
  Vec3<T> point_motion(const SystemState<T>& s, int p, int which) const {
    const Index d = point_dof(p);
    const auto& P = points_[static_cast<std::size_t>(p)];
    if (P.kind == PointKind::body) return body_point_motion(s, P, which);
    if (d >= 0) return (which == 0 ? s.q : which == 1 ? s.v : s.a).template segment<3>(d);
    return which == 0 ? P.r : which == 1 ? P.v : P.a;
  }

  /// The mass matrix of body b at pose (rb, Rb): its structural and added mass (the added mass
  /// of its submerged fraction phi at the centre of buoyancy), rods and points included.
  Mat6<T> body_mass_at(int b, const Vec3<T>& rb, const Mat3<T>& Rb) const {
    const auto& B = bodies_[static_cast<std::size_t>(b)];
    const Vec3<T> cb = Rb * B.cb;
    const T phi = body_immersion<T>(B, T(rb(2) + cb(2)), env_).phi;
    return body_mass_matrix<T>(B, rb, Rb, phi, env_);
  }

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
  void get_held(Held& h) const {
    h.r.resize(points_.size());
    h.v.resize(points_.size());
    h.a.resize(points_.size());
    for (std::size_t p = 0; p < points_.size(); ++p) h.r[p] = points_[p].r, h.v[p] = points_[p].v, h.a[p] = points_[p].a;
    const std::size_t nb = bodies_.size();
    h.br.resize(nb), h.bv.resize(nb), h.bw.resize(nb), h.ba.resize(nb), h.balpha.resize(nb), h.bR.resize(nb);
    for (std::size_t b = 0; b < nb; ++b) {
      const auto& B = bodies_[b];
      h.br[b] = B.r, h.bR[b] = B.R, h.bv[b] = B.v, h.bw[b] = B.w, h.ba[b] = B.a, h.balpha[b] = B.alpha;
    }
  }
  /// Sets the held points' kinematics (free points' entries are ignored).
  void set_held(const Held& h) {
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (points_[p].kind == PointKind::fixed || points_[p].kind == PointKind::coupled)
        points_[p].r = h.r[p], points_[p].v = h.v[p], points_[p].a = h.a[p];
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      auto& B = bodies_[b];
      if (B.kind == BodyKind::free) continue;
      B.r = h.br[b], B.R = h.bR[b], B.v = h.bv[b], B.w = h.bw[b], B.a = h.ba[b], B.alpha = h.balpha[b];
    }
  }
  /// Sets coupled point p's position, velocity and acceleration (the host's input for the
  /// end of the next step). Throws InputError for a point that is not coupled or a
  /// non-finite value.
  void set_coupled(int p, const Vec3<T>& r, const Vec3<T>& v, const Vec3<T>& a = Vec3<T>::Zero()) {
    auto& P = points_.at(static_cast<std::size_t>(p));
    auto obj = [&] { return "Point " + std::to_string(p + 1) + " (" + P.name + ")"; };  // built on error only
    if (P.kind != PointKind::coupled) throw InputError(obj(), "attachment", "not Coupled", "a Coupled point");
    for (int c = 0; c < 3; ++c)
      if (!is_finite(r(c)) || !is_finite(v(c)) || !is_finite(a(c)))
        throw InputError(obj(), "coupled kinematics", "non-finite", "finite");
    P.r = r;
    P.v = v;
    P.a = a;
  }

  /// Throws SolveError for a non-finite DOF of state s, and NotImplementedError for a point
  /// with a volume above the still water (its buoyancy is taken whole). Lines may reach above
  /// the surface (they lose their buoyancy there: LineModel), and so may rods (their
  /// wetted-segment buoyancy is in their body's loads).
  void check_state(const State& s) const {
    auto check = [&](Index i) {
      if (!is_finite(s.q(i)) || !is_finite(s.v(i)))
        throw SolveError(name_, describe_dof(i) + " position or velocity", "non-finite", "finite");
    };
    if (active_ >= 0 && s.q.size() == n_dofs_) {
      for (Index i : comp_dofs_[static_cast<std::size_t>(active_)]) check(i);
    } else {
      for (Index i = 0; i < s.q.size(); ++i) check(i);
    }
    tensile_check(s, false);
    // A point with a volume above the still water: its buoyancy rho V g is taken whole, so its
    // partial immersion is not modelled (lines lose their buoyancy above it: LineModel).
    for (std::size_t p = 0; p < points_.size(); ++p) {
      if (!(value_of(points_[p].volume) > 0) || points_[p].kind == PointKind::body || !live_point(p)) continue;
      const double z = static_cast<double>(value_of(point_position(s, static_cast<int>(p))(2)));
      if (z > 0)
        throw NotImplementedError("Point " + std::to_string(p + 1) + " (" + points_[p].name + ")",
                                  "height above the still water", z,
                                  "<= 0 for a point with a volume (its buoyancy at the surface is not modelled yet)");
    }
  }

  /// The tensile audit of the finite-EI lines (deck tensile_safety; spec "Constitutive laws",
  /// Tensile audit, statics/tensile_audit.hpp): with it on, check_state (so a converged step of
  /// the stepper: the step is then subdivided, and fails by name at the finest level) and
  /// solve_statics (with the static band, capped at a thousandth of the peak tension) reject a
  /// state in which a line's three-element mean axial force falls below -eps EA_bar. Double
  /// only (NotImplementedError in another scalar type); eps > 0 (InputError).
  void set_tensile_safety(bool on, double eps = 2e-6) {
    if (!(eps > 0 && std::isfinite(eps))) throw InputError(name_, "tensile_strain_tolerance", eps, "> 0");
    if constexpr (!std::is_same_v<T, double>) {
      if (on) throw NotImplementedError(name_, "tensile_safety", "True", "in double (the audit is double only)");
    }
    tensile_ = on;
    tensile_eps_ = eps;
    std::size_t ne = 0;
    for (const auto& L : lines_) ne = std::max(ne, L.model.n_elements());
    audit_work_.reserve(ne);
  }
  bool tensile_safety() const { return tensile_; }
  double tensile_strain_tolerance() const { return tensile_eps_; }
  /// Throws SolveError naming the line and element whose three-element mean axial force is
  /// below its band (static_band: the statics' band) when tensile_safety is on; returns
  /// otherwise. Allocates nothing after set_tensile_safety (the lines as then).
  void tensile_check(const State& s, bool static_band) const {
    if constexpr (std::is_same_v<T, double>) {
      if (!tensile_) return;
      for (std::size_t l = 0; l < lines_.size(); ++l) {
        const auto& m = lines_[l].model;
        if (!m.hermite() || !live_line(l)) continue;
        line_gather(s, static_cast<int>(l), 0, wx_[l]);
        if (const auto ev = tensile_audit(m, wx_[l], tensile_eps_, static_band, &audit_work_))
          throw SolveError("Line " + std::to_string(l + 1) + " (" + m.name() + ") element " + std::to_string(ev->element + 1),
                           "tensile_safety: three-element mean axial force [N]", ev->force,
                           ">= -" + to_text(ev->threshold) + " N");
      }
    } else {
      (void)s;
      (void)static_band;
    }
  }

  /// What DOF i moves, e.g. "Line 2 (riser) node 5" or "Point 3 (buoy)" (nodes counted from 1
  /// at End A).
  std::string describe_dof(Index i) const {
    require_numbered();
    for (std::size_t b = 0; b < bodies_.size(); ++b)
      if (body_dof_[b] >= 0 && i >= body_dof_[b] && i < body_dof_[b] + body_ndof(static_cast<int>(b)))
        return "Body " + std::to_string(b + 1) + " (" + bodies_[b].name + ") " +
               (i < body_row(static_cast<int>(b), 3) ? "position" : "rotation");
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (point_dof_[p] >= 0 && i >= point_dof_[p] && i < point_dof_[p] + 3)
        return "Point " + std::to_string(p + 1) + " (" + points_[p].name + ")";
    for (std::size_t l = lines_.size(); l-- > 0;)
      if (i >= block_offset_[l] && i < n_line_dofs_) {
        // The slot of local DOF j: the slots skip End A's position (slot 0) and End B's (sb).
        const auto& M = lines_[l].model;
        const std::size_t per = M.n_slots() / M.n_nodes(), sb = M.position_slot(M.n_nodes() - 1);
        std::size_t k = static_cast<std::size_t>((i - block_offset_[l]) / 3) + 1;
        if (k >= sb) ++k;
        return "Line " + std::to_string(l + 1) + " (" + M.name() + ") node " + std::to_string(k / per + 1) +
               (k % per == 1 ? " tangent" : "");
      }
    return "DOF " + std::to_string(i);
  }

  /// The force scale of state s [N]: the largest of 1 N, every line's weight, every point's
  /// weight, buoyancy and load, and every line's end force (the scale of the Newton tests).
  double force_scale(const State& s) const {
    double scale = 1;
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      if (!live_line(l)) continue;
      scale = std::max(scale, std::fabs(static_cast<double>(value_of(lines_[l].model.weight()))));
      for (int e = 0; e < 2; ++e) {
        const Vec3<T> f = line_end_force(s, static_cast<int>(l), e);
        for (int c = 0; c < 3; ++c) scale = std::max(scale, std::fabs(static_cast<double>(value_of(f(c)))));
      }
    }
    for (std::size_t p = 0; p < points_.size(); ++p) {
      if (!live_point(p)) continue;
      const Vec3<T> f = point_static_load(static_cast<int>(p));
      for (int c = 0; c < 3; ++c) scale = std::max(scale, std::fabs(static_cast<double>(value_of(f(c)))));
    }
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      if (!live_body(b)) continue;
      const auto& B = bodies_[b];
      scale = std::max(scale, std::fabs(static_cast<double>(value_of(body_rigid_mass(B).m))) * env_.g);
      scale = std::max(scale, std::fabs(static_cast<double>(value_of(B.volume))) * env_.g * env_.rho_w);
      for (int c = 0; c < 3; ++c) scale = std::max(scale, std::fabs(static_cast<double>(value_of(B.force(c)))));
    }
    return scale;
  }

  /// Node positions (which = 0), velocities (1) or accelerations (2) of line l in state s: the
  /// free DOFs from s.q, s.v or s.a, a held end from its point's r, v or a, an end on a body
  /// from the body's motion.
  void line_gather(const State& s, int l, int which, VecX<T>& x) const {
    const VecX<T>& free = which == 0 ? s.q : which == 1 ? s.v : s.a;
    const auto li = static_cast<std::size_t>(l);
    const auto& L = lines_[li];
    const auto n = static_cast<Index>(L.model.n_slots()), sb = static_cast<Index>(L.model.position_slot(L.model.n_nodes() - 1));
    x.resize(L.model.size());
    // The line's block holds its slots but the two end positions, in order: slots 1 .. sb - 1,
    // then sb + 1 .. n - 1 (a Hermite line's End B tangent).
    const Index off = block_offset_[li];
    x.segment(3, 3 * (sb - 1)) = free.segment(off, 3 * (sb - 1));
    x.segment(3 * (sb + 1), 3 * (n - sb - 1)) = free.segment(off + 3 * (sb - 1), 3 * (n - sb - 1));
    for (int e = 0; e < 2; ++e) {
      const Index k = e == 0 ? 0 : sb, d = point_dof_[static_cast<std::size_t>(L.point[e])];
      x.template segment<3>(3 * k) = d >= 0 ? Vec3<T>(free.template segment<3>(d)) : point_motion(s, L.point[e], which);
    }
    // A clamped end's tangent m = lambda d (d = R d0 turning with its object): its velocity
    // lambda' d + lambda w x d and acceleration lambda'' d + 2 lambda' w x d + lambda (alpha x d
    // + w x (w x d)).
    for (int e = 0; e < 2; ++e) {
      if (!L.clamped[e]) continue;
      const Index k = 3 * (e == 0 ? 1 : n - 1), d = clamp_dof(li, e);
      const Vec3<T> dir = clamp_direction(s, l, e);
      if (which == 0) {
        x.template segment<3>(k) = s.q(d) * dir;
        continue;
      }
      const Vec3<T> w = clamp_spin(s, L, e, 1), wd = w.cross(dir);
      if (which == 1) {
        x.template segment<3>(k) = s.v(d) * dir + s.q(d) * wd;
      } else {
        const Vec3<T> al = clamp_spin(s, L, e, 2);
        x.template segment<3>(k) = s.a(d) * dir + (T(2) * s.v(d)) * wd + s.q(d) * Vec3<T>(al.cross(dir) + w.cross(wd));
      }
    }
  }

  /// The position (which = 0), velocity (1) or acceleration (2) of a point fixed on a body,
  /// in state s: r + rho, v + w x rho, a + alpha x rho + w x (w x rho), rho = R offset.
  Vec3<T> body_point_motion(const State& s, const PointModel<T>& P, int which) const {
    Vec3<T> rb;
    Mat3<T> Rb;
    body_pose(s, P.body, rb, Rb);
    const Vec3<T> rho = Rb * P.r;
    if (which == 0) return rb + rho;
    const Vec6<T> m = body_motion(s, P.body, 1);
    const Vec3<T> w = m.template tail<3>();
    if (which == 1) return Vec3<T>(m.template head<3>() + w.cross(rho));
    const Vec6<T> acc = body_motion(s, P.body, 2);
    return Vec3<T>(acc.template head<3>() + Vec3<T>(acc.template tail<3>()).cross(rho) + w.cross(Vec3<T>(w.cross(rho))));
  }

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
  void dynamic_residual(const SystemState<T>& s, VecX<T>& R, BorderedJacobian<T>* J, const T& wq, const T& wv) const {
    using std::sqrt;
    require_numbered();
    zero_rows(R);
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      if (!live_line(l)) continue;
      const int li = static_cast<int>(l);
      line_gather(s, li, 0, wx_[l]);
      line_gather(s, li, 1, wv_[l]);
      Router route = router(s, li, J, wq);
      lines_[l].model.dynamic_residual(wx_[l], wv_[l], line_fluid(l), wr_[l], J ? &route : nullptr, wq, wv);
      scatter(route, wr_[l], R);
    }
    add_end_springs(s, R, J, wq);
    add_joint_rolls(s, s.q, R, J, wq);
    for (std::size_t p = 0; p < points_.size(); ++p) {
      const Index d = point_dof_[p];
      if (d < 0 || !live_point(p)) continue;
      const auto& P = points_[p];
      R.template segment<3>(d) -= point_static_load(static_cast<int>(p));
      const auto c = point_contact(static_cast<int>(p), s.q(d + 2), s.v(d + 2));
      R(d + 2) -= c.f;
      if (J && (value_of(c.df_dz) != 0 || value_of(c.df_dvz) != 0)) J->add(d + 2, d + 2, -(wq * c.df_dz + wv * c.df_dvz));
      if (holds_fluid()) R.template segment<3>(d) -= point_fluid_inertia(static_cast<int>(p));
      if (P.CdA > 0) {
        const Vec3<T> ur = point_fluid_velocity(static_cast<int>(p)).template cast<T>() - Vec3<T>(s.v.template segment<3>(d));
        const T un = sqrt(ur.squaredNorm());
        const T k = T(0.5 * env_.rho_w * P.CdA);
        R.template segment<3>(d) -= k * un * ur;
        if (J && value_of(un) > 0) {
          // d(-k |u| u)/dv = k (|u| I + u u^T / |u|) (u = U - v).
          J->add3(d, d, Mat3<T>(wv * k * (un * Mat3<T>::Identity() + ur * ur.transpose() / un)));
        }
      }
    }
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const int bi = static_cast<int>(b);
      if (body_dof_[b] < 0 || bodies_[b].joint || !live_body(b)) continue;  // a joint has no loads of its own
      auto own = [&](const VecX<T>& q, const VecX<T>& v) {
        Vec3<T> rb;
        Mat3<T> Rb;
        pose_of(bi, q, s.R, rb, Rb);
        const Vec6<T> m = motion_at(bi, q, v, nullptr, s.R, 1);
        const Vec3<T> vb = m.template head<3>(), w = m.template tail<3>();
        Vec6<T> f = body_velocity_terms<T>(bodies_[b], Rb, w) -
                    body_external_load<T>(bodies_[b], rb, Rb, vb, w, env_, seabed_.z, seabed_.params, current_, true,
                                          body_fluid(bi));
        // A body pinned on a parent: its pin's centripetal acceleration, a velocity term.
        if (on_parent(bi)) f += pin_velocity_terms(bi, q, v, s.R, body_mass_at(bi, rb, Rb));
        return f;
      };
      add_body_rows(bi, own(s.q, s.v), R, pin_arm(bi, s.q, s.R));
      if (J) body_own_tangent(s, bi, own, J, wq, wv);
    }
  }

  /// Inertia M(q) a on the free DOFs (Ma overwritten): the lines' (structural and added
  /// mass, their held ends' accelerations included) and the points' (m + Ca rho V) a, the
  /// bodies' body_mass_matrix (alpha, a). With J (not zeroed here) adds wm M + wq d(M a)/dq.
  void inertia(const SystemState<T>& s, VecX<T>& Ma, BorderedJacobian<T>* J, const T& wm, const T& wq) const {
    require_numbered();
    zero_rows(Ma);
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      if (!live_line(l)) continue;
      const int li = static_cast<int>(l);
      line_gather(s, li, 0, wx_[l]);
      line_gather(s, li, 2, wv_[l]);
      Router route = router(s, li, J, wq);
      if (mass_held_ && lines_[l].model.hermite())
        lines_[l].model.held_inertia(held_mass_[l], wv_[l], wr_[l], J ? &route : nullptr, wm);
      else
        lines_[l].model.inertia(wx_[l], wv_[l], wr_[l], J ? &route : nullptr, wm, wq);
      scatter(route, wr_[l], Ma);
    }
    add_joint_rolls(s, s.a, Ma, J, wm, true);  // the roll's inertia
    for (std::size_t p = 0; p < points_.size(); ++p) {
      const Index d = point_dof_[p];
      if (d < 0 || !live_point(p)) continue;
      const T m = point_mass(static_cast<int>(p));
      Ma.template segment<3>(d) += m * s.a.template segment<3>(d);
      if (J) J->add3(d, d, Mat3<T>(wm * m * Mat3<T>::Identity()));
    }
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const int bi = static_cast<int>(b);
      if (body_dof_[b] < 0 || bodies_[b].joint || !live_body(b)) continue;  // a joint has no mass of its own
      auto mass = [&](const VecX<T>& q) {
        Vec3<T> rb;
        Mat3<T> Rb;
        pose_of(bi, q, s.R, rb, Rb);
        return body_mass_at(bi, rb, Rb);
      };
      const Mat6<T> M = mass(s.q);
      // A pinned body: its pin's acceleration (on a parent: a_p + alpha_p x rho, the centripetal
      // term among the velocity terms).
      const Vec6<T> acc = motion_at(bi, s.q, s.v, &s.a, s.R, 2, false);
      if (on_parent(bi)) {
        add_body_rows(bi, mul6<T>(M, acc), Ma, pin_arm(bi, s.q, s.R));
        if (J) pinned_inertia_tangent(s, bi, M, mass, J, wm, wq);
        continue;
      }
      add_body_rows(bi, mul6<T>(M, acc), Ma);
      if (J) {
        for (int i = 0; i < 6; ++i)
          for (int j = 0; j < 6; ++j) {
            const Index ri = body_row(bi, i), cj = body_row(bi, j);
            if (ri >= 0 && cj >= 0) J->add(ri, cj, wm * M(i, j));
          }
        // d(M a)/dq: M turns with the body and its added mass changes with the immersion.
        auto Mq = [&](const VecX<T>& q, const VecX<T>&) { return mul6<T>(mass(q), acc); };
        body_own_tangent(s, bi, Mq, J, wq, T(0));
      }
    }
  }

  /// Mass of point p with its added mass, m + Ca rho V [kg].
  T point_mass(int p) const {
    const auto& P = points_[static_cast<std::size_t>(p)];
    return P.mass + T(P.Ca * env_.rho_w) * P.volume;
  }

  /// Kinetic energy [J]: every line's 1/2 v^T M(x) v over all its nodes (held ends
  /// included, added mass included), every free point's 1/2 (m + Ca rho V) |v|^2 and every
  /// free body's 1/2 (v, w)^T M (v, w) (a direction joint: 1/2 m (d . w)^2 of its roll row).
  T kinetic_energy(const SystemState<T>& s) const {
    T E = T(0);
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const int li = static_cast<int>(l);
      line_gather(s, li, 0, wx_[l]);
      line_gather(s, li, 1, wv_[l]);
      lines_[l].model.template inertia<Router>(wx_[l], wv_[l], wr_[l], nullptr, T(0), T(0));
      E += T(0.5) * wv_[l].dot(wr_[l]);
    }
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (point_dof_[p] >= 0)
        E += T(0.5) * point_mass(static_cast<int>(p)) * s.v.template segment<3>(point_dof_[p]).squaredNorm();
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      if (body_dof_[b] < 0) continue;
      Vec3<T> rb;
      Mat3<T> Rb;
      body_pose(s, static_cast<int>(b), rb, Rb);
      const Vec6<T> vb = body_motion(s, static_cast<int>(b), 1);
      E += T(0.5) * vb.dot(mul6<T>(body_mass_at(static_cast<int>(b), rb, Rb), vb));
    }
    return E + joint_roll_energy(s, s.v, true);  // a joint's roll inertia (add_joint_rolls)
  }

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
                       double compression_ratio = -1) const {
    require_numbered();
    R.setZero(n_dofs_);
    if (J) J->set_zero();
    VecX<T> x, Rl;
    const Vec3<double>* U = static_current();
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const int li = static_cast<int>(l);
      line_gather(s, li, 0, x);
      Router route = router(s, li, J, T(1));
      line_static(li, x, Rl, J ? &route : nullptr, compression_ratio);
      scatter(route, Rl, R);
    }
    add_end_springs(s, R, J, T(1));
    add_joint_rolls(s, s.q, R, J, T(1));
    for (std::size_t p = 0; p < points_.size(); ++p) {
      const Index d = point_dof_[p];
      if (d < 0) continue;
      R.template segment<3>(d) -= point_static_load(static_cast<int>(p));
      if ((U || current_field_) && points_[p].CdA > 0) {
        // The current's drag on the point at rest, 1/2 rho CdA |U| U: the uniform current, or
        // the field at the point's position.
        const Vec3<double> Up = U ? *U : current_field_(value3(Vec3<T>(s.q.template segment<3>(d))));
        const Vec3<T> f = (0.5 * env_.rho_w * points_[p].CdA * Up.norm()) * Up.template cast<T>();
        R.template segment<3>(d) -= f;
      }
      const auto c = point_contact(static_cast<int>(p), s.q(d + 2), T(0));
      R(d + 2) -= c.f;
      if (J && value_of(c.df_dz) != 0) J->add(d + 2, d + 2, -c.df_dz);
    }
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const int bi = static_cast<int>(b);
      if (body_dof_[b] < 0 || bodies_[b].joint) continue;  // a joint has no loads of its own
      auto own = [&](const VecX<T>& q, const VecX<T>&) {
        Vec3<T> rb;
        Mat3<T> Rb;
        pose_of(bi, q, s.R, rb, Rb);
        const Vec3<T> z3 = Vec3<T>::Zero();
        // With a current, the loads at rest include its drag (the dynamic loads at zero
        // velocity: the seabed damper then acts on vz = 0, nothing). A current field is
        // sampled at the reference point, the lumps and the rods' stations and ends at this
        // pose (BodyFluid's sites), as a held fluid at rest: no acceleration, no pressure.
        if (current_field_) {
          const auto& B = bodies_[b];
          const std::size_t n = body_fluid_sites(B);
          field_u_.resize(n);
          field_a_.assign(n, Vec3<double>::Zero());
          field_p_.assign(n, 0.0);
          std::size_t site = 0;
          for_each_body_fluid_site<T>(B, rb, Rb, [&](const Vec3<T>& arm) { field_u_[site++] = current_field_(value3(Vec3<T>(rb + arm))); });
          return Vec6<T>(-body_external_load<T>(B, rb, Rb, z3, z3, env_, seabed_.z, seabed_.params, current_, true,
                                                BodyFluid{field_u_.data(), field_a_.data(), field_p_.data()}));
        }
        return Vec6<T>(
            -body_external_load<T>(bodies_[b], rb, Rb, z3, z3, env_, seabed_.z, seabed_.params, current_, U != nullptr));
      };
      add_body_rows(bi, own(s.q, s.v), R, pin_arm(bi, s.q, s.R));
      if (J) body_own_tangent(s, bi, own, J, T(1), T(0));
    }
  }

  /// Total potential energy of the system in state s [J]: every line's, the points' weight
  /// and buoyancy potential (m - rho V) g z and the potential -F . r of their constant loads,
  /// and the bodies' (body_potential_energy; a constant moment's potential is taken as
  /// -M . theta of the rotation increment) (the energy whose gradient is static_residual).
  T potential_energy(const SystemState<T>& s, double compression_ratio = -1) const {
    T E = T(0);
    VecX<T> x;
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      line_gather(s, static_cast<int>(l), 0, x);
      E += lines_[l].model.potential_energy(x, compression_ratio);
      for (int e = 0; e < 2; ++e)
        if (lines_[l].spring_k[e] > 0)
          E += end_spring<T>(Vec3<T>(s.q.template segment<3>(clamp_dof(l, e))), clamp_direction(s, static_cast<int>(l), e),
                             lines_[l].spring_k[e]);
    }
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (point_dof_[p] >= 0) {
        const Vec3<T> r = point_position(s, static_cast<int>(p));
        E -= point_static_load(static_cast<int>(p)).dot(r);
        E += point_contact(static_cast<int>(p), r(2), T(0)).energy;
      }
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      const Index d = body_dof_[b];
      if (d < 0) continue;
      Vec3<T> rb;
      Mat3<T> Rb;
      body_pose(s, static_cast<int>(b), rb, Rb);
      E += body_potential_energy<T>(bodies_[b], rb, Rb, env_, seabed_.z, seabed_.params);
      E -= bodies_[b].moment.dot(Vec3<T>(s.q.template segment<3>(body_row(static_cast<int>(b), 3))));
    }
    return E + joint_roll_energy(s, s.q);  // a joint's roll row (add_joint_rolls)
  }

  /// The static force line l exerts on the object at its end (0: End A, 1: End B) in state s
  /// [N]: minus the line's residual at its end node, i.e. the end element's tension along
  /// the chord plus the end node's share of weight and seabed reaction (spec "Tension and
  /// coupled loads").
  Vec3<T> line_end_force(const SystemState<T>& s, int l, int end) const {
    VecX<T> x, Rl;
    line_gather(s, l, 0, x);
    const auto& L = lines_[static_cast<std::size_t>(l)];
    line_static<Router>(l, x, Rl, nullptr, -1);
    const std::size_t k = L.model.position_slot(end == 0 ? 0 : L.model.n_nodes() - 1);
    return -Rl.template segment<3>(static_cast<Index>(3 * k));
  }

  /// The dynamic force line l exerts on the object at its end in state s [N]: minus the line's
  /// dynamic residual and inertia at its end node, -(f_int + f_damp - f_ext + (M a))_end, the
  /// held ends' kinematics those the system holds (spec "Tension and coupled loads": the
  /// coupled load of a line end). Without `inertia`, -(f_int + f_damp - f_ext)_end: the
  /// line-end force that FairTen and AnchTen report (the end element and the end node's share
  /// of weight, contact and fluid loads; DECK_FORMAT.md, "Outputs"), as the single-line march's.
  Vec3<T> line_end_force_dynamic(const SystemState<T>& s, int l, int end, bool inertia = true) const {
    const auto li = static_cast<std::size_t>(l);
    line_gather(s, l, 0, wx_[li]);
    line_gather(s, l, 1, wv_[li]);
    if (inertia) line_gather(s, l, 2, wr_[li]);
    return lines_[li].model.end_load(wx_[li], wv_[li], wr_[li], line_fluid(li), end, nullptr, inertia);
  }

  /// The net non-inertial force on every node of line l in state s, -r(q, v) in the line's
  /// node-vector layout (f of its node vector's slots: internal and damping forces, weight and
  /// buoyancy, seabed contact, Morison drag and Froude-Krylov with the held fluid), its end
  /// nodes' rows the line-end forces (line_end_force_dynamic without inertia: what the end
  /// element and the end node's loads exert on the end object), as the single-line route's node
  /// force channels (spec "Tension and coupled loads").
  void line_node_forces(const SystemState<T>& s, int l, VecX<T>& f) const {
    const auto li = static_cast<std::size_t>(l);
    const auto& m = lines_.at(li).model;
    line_gather(s, l, 0, wx_[li]);
    line_gather(s, l, 1, wv_[li]);
    m.dynamic_residual(wx_[li], wv_[li], line_fluid(li), f, static_cast<Router*>(nullptr), T(0), T(0));
    f = -f;
    for (int e = 0; e < 2; ++e)
      f.template segment<3>(3 * static_cast<Index>(m.position_slot(e == 0 ? 0 : m.n_nodes() - 1))) =
          line_end_force_dynamic(s, l, e, false);
  }

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
  Vec3<T> connection_direction(int l, int end, const Vec3<T>& d0, const char* what) const {
    const auto& L = lines_.at(static_cast<std::size_t>(l));
    const std::string obj = "Line " + std::to_string(l + 1) + " (" + L.model.name() + ")" + (end == 0 ? " End A" : " End B");
    if (end != 0 && end != 1) throw InputError(obj, "end", end, "0 (End A) or 1 (End B)");
    if (!L.model.hermite())
      throw InputError(obj, what, "an EI = 0 line", "a finite-EI line (an EI = 0 node has no tangent to connect)");
    const auto& P = points_[static_cast<std::size_t>(L.point[end])];
    if (P.kind == PointKind::free)
      throw InputError(obj, what, "on Point " + std::to_string(L.point[end] + 1) + " (" + P.name + "), a free point",
                       "a body point, rod end or held point (a free point has no orientation to connect to)");
    const T n = sqrt_or_zero(T(d0.squaredNorm()));
    if (!(value_of(n) > 0) || !is_finite(n)) throw InputError(obj, "connection direction |d0|", value_of(n), "> 0 and finite");
    return d0 / n;
  }

  // Adds the rotational end springs (spec "End connections (Hermite lines)") to R and, with J,
  // wq times their tangent: on the end tangent m (three DOFs of the line) the gradient g =
  // dU/dm and its Hessian H; on the rotation rows of the end's body the moment -(m x g), with
  // dg/dtheta = (H [m]_x - [g]_x) J_l (the spring is invariant under one rotation of m and d).
  void add_end_springs(const State& s, VecX<T>& R, BorderedJacobian<T>* J, const T& wq) const {
    for (std::size_t l = 0; l < lines_.size(); ++l)
      for (int e = 0; e < 2; ++e) {
        const auto& L = lines_[l];
        if (!(L.spring_k[e] > 0) || !live_line(l)) continue;
        const Index dm = clamp_dof(l, e);
        const Vec3<T> m = s.q.template segment<3>(dm), d = clamp_direction(s, static_cast<int>(l), e);
        Vec3<T> g;
        Mat3<T> H;
        end_spring<T>(m, d, L.spring_k[e], &g, &H, "system end spring");
        R.template segment<3>(dm) += g;
        const auto& P = points_[static_cast<std::size_t>(L.point[e])];
        const Index rd = P.kind == PointKind::body ? body_row(P.body, 3) : Index(-1);
        if (rd >= 0) R.template segment<3>(rd) -= m.cross(g);
        if (!J) continue;
        J->add3(dm, dm, Mat3<T>(wq * H));
        if (rd < 0) continue;
        const Mat3<T> Jl = so3_left_jacobian<T>(Vec3<T>(s.q.template segment<3>(rd)));
        const Mat3<T> Sm = skew<T>(m), Sg = skew<T>(g);
        const Mat3<T> Gt = (H * Sm - Sg) * Jl;  // dg/dtheta
        J->add3(dm, rd, Mat3<T>(wq * Gt));
        J->add3(rd, dm, Mat3<T>(wq * (Sg - Sm * H)));
        J->add3(rd, rd, Mat3<T>(-wq * Sm * Gt));
      }
  }

  // A direction joint (BodyModel::joint) turns about its axis d with no load: the lines clamped
  // to it load it with moments m x g normal to m, which lies along d, so that turn moves
  // nothing and has no equation. It is held at zero: the rotation rows get k (d . x) d, x the
  // rotation increment theta (k the joint's roll stiffness scale, sum EI / l0 of its lines' end
  // elements) or, for the inertia, the angular acceleration (k the roll inertia scale, sum
  // rho A l0^3 / 105 of their end tangents), with w k d d^T in J, d the axis at the step's
  // reference orientation (renumber()). The row is zero wherever the turn is, so it leaves
  // every other equation and the solution as they are.
  void add_joint_rolls(const State& s, const VecX<T>& x, VecX<T>& R, BorderedJacobian<T>* J, const T& w,
                       bool inertia = false) const {
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      if (!bodies_[b].joint || !live_body(b)) continue;
      const Index rd = body_row(static_cast<int>(b), 3);
      if (rd < 0) continue;
      const Vec3<T> d = (s.R.empty() ? bodies_[b].R : s.R[b]).col(2);
      const T k = T(inertia ? joint_m_[b] : joint_k_[b]);
      const T c = k * d.dot(Vec3<T>(x.template segment<3>(rd)));
      R.template segment<3>(rd) += c * d;
      if (J) J->add3(rd, rd, Mat3<T>((w * k) * d * d.transpose()));
    }
  }
  // A joint's roll energy 1/2 k (d . x)^2 (x: theta; or omega for the kinetic energy, k then
  // the roll inertia scale).
  T joint_roll_energy(const State& s, const VecX<T>& x, bool inertia = false) const {
    T E = T(0);
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      if (!bodies_[b].joint) continue;
      const Index rd = body_row(static_cast<int>(b), 3);
      if (rd < 0) continue;
      const Vec3<T> d = (s.R.empty() ? bodies_[b].R : s.R[b]).col(2);
      const T c = d.dot(Vec3<T>(x.template segment<3>(rd)));
      E += T(0.5 * (inertia ? joint_m_[b] : joint_k_[b])) * c * c;
    }
    return E;
  }

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

  Router router(const State& s, int l, BorderedJacobian<T>* J, const T& wq) const {
    Router r;
    r.sys = this;
    r.line = l;
    r.J = J;
    const auto& L = lines_[static_cast<std::size_t>(l)];
    r.n = L.model.n_slots();
    r.sb = L.model.position_slot(L.model.n_nodes() - 1);
    r.wq = wq;
    for (int e = 0; e < 2; ++e) {
      const auto& P = points_[static_cast<std::size_t>(L.point[e])];
      const Index rd = P.kind == PointKind::body ? body_row(P.body, 3) : Index(-1);
      if (L.clamped[e]) {
        EndLink& t = r.tang[e];
        r.ts[e] = tangent_slot(L.model, e);
        t.kind = 3;
        t.dof = clamp_dof(static_cast<std::size_t>(l), e);
        t.d = clamp_direction(s, l, e);
        if (rd >= 0) {
          t.rdof = rd;
          t.S = skew<T>(Vec3<T>(s.q(t.dof) * t.d));
          t.Jl = so3_left_jacobian<T>(Vec3<T>(s.q.template segment<3>(rd)));
          t.G = -t.S * t.Jl;
        }
      }
      EndLink& k = r.ends[e];
      if (P.kind == PointKind::body) {
        if (rd < 0) continue;
        const Vec3<T> th = s.q.template segment<3>(rd);
        const Vec3<T> rho = so3_exp<T>(th) * s.R[static_cast<std::size_t>(P.body)] * P.r;
        k.kind = 2;
        k.dof = body_row(P.body, 0);
        k.rdof = rd;
        k.S = skew<T>(rho);
        k.G = -k.S * so3_left_jacobian<T>(th);
      } else if (point_dof_[static_cast<std::size_t>(L.point[e])] >= 0) {
        k.kind = 1;
        k.dof = point_dof_[static_cast<std::size_t>(L.point[e])];
      }
    }
    return r;
  }

  // Adds a line's slot vector into the free DOFs: an end on a free body as its force and
  // lever moment (on a pinned body the moment alone: its pin takes the force), with the
  // moment's turn with the body (d(rho x f)/dtheta = [f]_x [rho]_x J_l, times the router's
  // wq) into the Jacobian. A clamped end's tangent row g_m gives lambda's row d . g_m and
  // the connection moment m x g_m (spec "Cables clamped to bodies and rods"), with their turn
  // (d(d . g)/dtheta = (d x g)^T J_l, d(m x g)/dtheta = [g]_x [m]_x J_l, d(m x g)/dlambda =
  // d x g); its two held values take a zero residual and a unit diagonal.
  void scatter(const Router& route, const VecX<T>& Rl, VecX<T>& R) const {
    const auto n = static_cast<Index>(route.n), sb = static_cast<Index>(route.sb);
    // The interior slots, contiguous in the line's block (line_gather's layout).
    const Index off = block_offset_[static_cast<std::size_t>(route.line)];
    R.segment(off, 3 * (sb - 1)) += Rl.segment(3, 3 * (sb - 1));
    R.segment(off + 3 * (sb - 1), 3 * (n - sb - 1)) += Rl.segment(3 * (sb + 1), 3 * (n - sb - 1));
    for (int e = 0; e < 2; ++e) {
      const EndLink& k = route.ends[e];
      if (k.kind == 0) continue;
      const Vec3<T> f = Rl.template segment<3>(static_cast<Index>(3 * (e == 0 ? 0 : sb)));
      if (k.dof >= 0) R.template segment<3>(k.dof) += f;
      if (k.kind == 2) {
        R.template segment<3>(k.rdof) += k.S * f;
        if (route.J) route.J->add3(k.rdof, k.rdof, Mat3<T>(route.wq * skew<T>(f) * (-k.G)));
      }
    }
    for (int e = 0; e < 2; ++e) {
      const EndLink& k = route.tang[e];
      if (k.kind != 3) continue;
      const Vec3<T> g = Rl.template segment<3>(static_cast<Index>(3 * route.ts[e]));
      // The block holds only this line's rows: the copy above is replaced.
      R.template segment<3>(k.dof) = Vec3<T>(k.d.dot(g), T(0), T(0));
      if (k.rdof >= 0) {
        R.template segment<3>(k.rdof) += k.S * g;
        if (route.J) {
          route.J->add3(k.rdof, k.rdof, Mat3<T>(route.wq * skew<T>(g) * (-k.G)));
          const Vec3<T> dg = k.d.cross(g), row = k.Jl.transpose() * dg;
          for (int c = 0; c < 3; ++c) {
            route.J->add(k.dof, k.rdof + c, route.wq * row(c));
            route.J->add(k.rdof + c, k.dof, route.wq * dg(c));
          }
        }
      }
      if (route.J) {
        route.J->add(k.dof + 1, k.dof + 1, T(1));
        route.J->add(k.dof + 2, k.dof + 2, T(1));
      }
    }
  }

  // The pose of body b from the DOF vector q and the reference orientations Rs (a state's R;
  // empty: the bodies' own): a body pinned on a parent has its pin on the parent's pose.
  void pose_of(int b, const VecX<T>& q, const std::vector<Mat3<T>>& Rs, Vec3<T>& r, Mat3<T>& R) const {
    const auto& B = bodies_[static_cast<std::size_t>(b)];
    const Index d = body_dof_[static_cast<std::size_t>(b)];
    if (d < 0) {
      r = B.r;
      R = B.R;
      return;
    }
    const Index rd = body_row(b, 3);
    R = so3_exp<T>(Vec3<T>(q.template segment<3>(rd))) * (Rs.empty() ? B.R : Rs[static_cast<std::size_t>(b)]);
    if (body_ndof(b) == 6) {
      r = q.template segment<3>(d);
    } else if (on_parent(b)) {
      Vec3<T> rp;
      Mat3<T> Rp;
      pose_of(B.parent, q, Rs, rp, Rp);
      r = rp + Rp * B.pin;
    } else {
      r = B.r;
    }
  }
  // dof_component_ and n_components_ from the numbering (renumber): a union-find over the
  // lines, the free points and the bodies with DOFs.
  void number_components() {
    const std::size_t nl = lines_.size(), np = points_.size(), nb = bodies_.size();
    std::vector<std::size_t> up(nl + np + nb);
    for (std::size_t i = 0; i < up.size(); ++i) up[i] = i;
    auto find = [&](std::size_t i) {
      while (up[i] != i) i = up[i] = up[up[i]];
      return i;
    };
    auto join = [&](std::size_t a, std::size_t b) { up[find(a)] = find(b); };
    auto body_node = [&](int b) { return nl + np + static_cast<std::size_t>(b); };
    for (std::size_t l = 0; l < nl; ++l)
      for (int e = 0; e < 2; ++e) {
        const auto pi = static_cast<std::size_t>(lines_[l].point[e]);
        const auto& P = points_[pi];
        if (point_dof_[pi] >= 0) join(l, nl + pi);
        if (P.kind == PointKind::body && body_dof_[static_cast<std::size_t>(P.body)] >= 0) join(l, body_node(P.body));
      }
    for (std::size_t b = 0; b < nb; ++b)
      if (body_dof_[b] >= 0 && on_parent(static_cast<int>(b)) &&
          body_dof_[static_cast<std::size_t>(bodies_[b].parent)] >= 0)
        join(body_node(static_cast<int>(b)), body_node(bodies_[b].parent));
    dof_component_.assign(static_cast<std::size_t>(n_dofs_), -1);
    std::vector<int> id(up.size(), -1);
    n_components_ = 0;
    auto mark = [&](std::size_t node, Index d0, Index n) {
      int& c = id[find(node)];
      if (c < 0) c = n_components_++;
      for (Index d = d0; d < d0 + n; ++d) dof_component_[static_cast<std::size_t>(d)] = c;
    };
    for (std::size_t l = 0; l < nl; ++l)
      mark(l, block_offset_[l], 3 * static_cast<Index>(lines_[l].model.n_slots() - 2));
    for (std::size_t p = 0; p < np; ++p)
      if (point_dof_[p] >= 0) mark(nl + p, point_dof_[p], 3);
    for (std::size_t b = 0; b < nb; ++b)
      if (body_dof_[b] >= 0) mark(body_node(static_cast<int>(b)), body_dof_[b], body_ndof(static_cast<int>(b)));
    // Each line's, free point's and free body's component, each held point's (the one of the
    // lines ending on it: -2 when lines of several components do, -1 when none does) and
    // each component's DOFs in ascending order.
    line_comp_.assign(nl, -1);
    for (std::size_t l = 0; l < nl; ++l) line_comp_[l] = id[find(l)];
    point_comp_.assign(np, -1);
    for (std::size_t p = 0; p < np; ++p)
      if (point_dof_[p] >= 0) point_comp_[p] = id[find(nl + p)];
    for (std::size_t l = 0; l < nl; ++l)
      for (int e = 0; e < 2; ++e) {
        const auto pi = static_cast<std::size_t>(lines_[l].point[e]);
        if (point_dof_[pi] >= 0) continue;
        int& c = point_comp_[pi];
        c = c == -1 || c == line_comp_[l] ? line_comp_[l] : -2;
      }
    body_comp_.assign(nb, -1);
    for (std::size_t b = 0; b < nb; ++b)
      if (body_dof_[b] >= 0) body_comp_[b] = id[find(body_node(static_cast<int>(b)))];
    comp_dofs_.assign(static_cast<std::size_t>(n_components_), {});
    for (Index d = 0; d < n_dofs_; ++d)
      comp_dofs_[static_cast<std::size_t>(dof_component_[static_cast<std::size_t>(d)])].push_back(d);
    active_ = -1;
  }
  // Whether line l, point p, body b is evaluated under set_active_component (a held point:
  // when a line of the active component ends on it).
  bool live_line(std::size_t l) const { return active_ < 0 || line_comp_[l] == active_; }
  bool live_point(std::size_t p) const {
    return active_ < 0 || point_comp_[p] == active_ || (point_dof_[p] < 0 && point_comp_[p] == -2);
  }
  bool live_body(std::size_t b) const { return active_ < 0 || body_comp_[b] == active_; }
  // R.setZero(n) (R resized), or only the active component's rows of R (of the system's size).
  void zero_rows(VecX<T>& R) const {
    if (active_ < 0 || R.size() != n_dofs_) {
      R.setZero(n_dofs_);
      return;
    }
    for (Index d : comp_dofs_[static_cast<std::size_t>(active_)]) R(d) = T(0);
  }
  // True when body b is pinned on a parent body (BodyModel::parent).
  bool on_parent(int b) const {
    const auto& B = bodies_[static_cast<std::size_t>(b)];
    return B.kind == BodyKind::pinned && B.parent >= 0;
  }
  // The arm R_p p from the parent's reference point to the pin of body b (zero for a body not
  // pinned on a parent), in the configuration q.
  Vec3<T> pin_arm(int b, const VecX<T>& q, const std::vector<Mat3<T>>& Rs) const {
    if (!on_parent(b)) return Vec3<T>::Zero();
    const auto& B = bodies_[static_cast<std::size_t>(b)];
    Vec3<T> rp;
    Mat3<T> Rp;
    pose_of(B.parent, q, Rs, rp, Rp);
    return Rp * B.pin;
  }
  // The velocity (which = 1) or acceleration (2) six-vector of body b in the configuration
  // (q, v, a): motion_of, and for a body pinned on a parent its pin's motion on the parent
  // (spec "Attached objects and line ends": v_p + w_p x rho, a_p + alpha_p x rho + w_p x
  // (w_p x rho), rho = R_p p; centripetal = false leaves the last term out, for the velocity
  // terms to take it). a may be null for which = 1.
  Vec6<T> motion_at(int b, const VecX<T>& q, const VecX<T>& v, const VecX<T>* a, const std::vector<Mat3<T>>& Rs,
                    int which, bool centripetal = true) const {
    Vec6<T> m = motion_of(b, which == 1 ? v : *a, which);
    if (!on_parent(b)) return m;
    const int p = bodies_[static_cast<std::size_t>(b)].parent;
    const Vec3<T> rho = pin_arm(b, q, Rs);
    const Vec6<T> vp = motion_of(p, v, 1);
    const Vec3<T> wp = vp.template tail<3>();
    if (which == 1) {
      m.template head<3>() = vp.template head<3>() + wp.cross(rho);
      return m;
    }
    const Vec6<T> ap = motion_of(p, *a, 2);
    m.template head<3>() = ap.template head<3>() + Vec3<T>(ap.template tail<3>()).cross(rho);
    if (centripetal) m.template head<3>() += wp.cross(Vec3<T>(wp.cross(rho)));
    return m;
  }
  // The velocity terms of a body pinned on a parent that its parent's turn gives it: its mass
  // matrix times the pin's centripetal acceleration (w_p x (w_p x rho), 0) (zero for another
  // body).
  Vec6<T> pin_velocity_terms(int b, const VecX<T>& q, const VecX<T>& v, const std::vector<Mat3<T>>& Rs,
                             const Mat6<T>& M) const {
    if (!on_parent(b)) return Vec6<T>::Zero();
    const Vec3<T> rho = pin_arm(b, q, Rs);
    const Vec3<T> wp = motion_of(bodies_[static_cast<std::size_t>(b)].parent, v, 1).template tail<3>();
    Vec6<T> c = Vec6<T>::Zero();
    c.template head<3>() = wp.cross(Vec3<T>(wp.cross(rho)));
    return mul6<T>(M, c);
  }
  template <class S>
  using Vec12 = Eigen::Matrix<S, 12, 1>;
  // (f, F, rho x F), F = f's force: body b's rows and those its pin passes to its parent.
  static Vec12<T> spread_vector(const Vec3<T>& rho, const Vec6<T>& f) {
    Vec12<T> g;
    g.template head<6>() = f;
    const Vec3<T> F = f.template head<3>();
    g.template segment<3>(6) = F;
    g.template tail<3>() = rho.cross(F);
    return g;
  }
  // The row of entry i of spread_vector (-1: none): body b's rows, then its parent's.
  Index spread_row(int b, int i) const {
    if (i < 6) return body_row(b, i);
    return on_parent(b) ? body_row(bodies_[static_cast<std::size_t>(b)].parent, i - 6) : Index(-1);
  }
  // The velocity (which = 1) or acceleration (2) six-vector of body b from the DOF vector x:
  // a held body's, or a pinned body's pin motion with its angular one.
  Vec6<T> motion_of(int b, const VecX<T>& x, int which) const {
    const auto& B = bodies_[static_cast<std::size_t>(b)];
    const int nd = body_ndof(b);
    Vec6<T> m;
    if (nd == 6) return x.template segment<6>(body_dof_[static_cast<std::size_t>(b)]);
    m.template head<3>() = which == 1 ? B.v : B.a;
    if (nd == 3) m.template tail<3>() = x.template segment<3>(body_dof_[static_cast<std::size_t>(b)]);
    else m.template tail<3>() = which == 1 ? B.w : B.alpha;
    return m;
  }
  // Adds body b's six rows (force, moment) to the rows it has DOFs for; a body pinned on a
  // parent passes its force rows to its parent's with the lever rho, its pin arm (spec:
  // G_b^T (M X - F); spread_vector, spread_row).
  void add_body_rows(int b, const Vec6<T>& f, VecX<T>& R, const Vec3<T>& rho = Vec3<T>::Zero()) const {
    if (on_parent(b)) {
      const Vec12<T> g = spread_vector(rho, f);
      for (int i = 0; i < 12; ++i) {
        const Index r = spread_row(b, i);
        if (r >= 0) R(r) += g(i);
      }
      return;
    }
    for (int i = 0; i < 6; ++i) {
      const Index r = body_row(b, i);
      if (r >= 0) R(r) += f(i);
    }
  }

  // Adds wq d(own)/dq + wv d(own)/dv of body b's own rows (own(q, v) a Vec6) to J by central
  // differences over its position and velocity DOFs (spec "Rigid-body time integration": the
  // objects' own part of the junction Jacobian by finite differences).
  template <class F>
  void body_own_tangent(const State& s, int b, F&& own, BorderedJacobian<T>* J, const T& wq, const T& wv) const {
    VecX<T>& q = fdq_;
    VecX<T>& v = fdv_;
    q = s.q;
    v = s.v;
    if (!on_parent(b)) {
      const Index d = body_dof_[static_cast<std::size_t>(b)];
      const int nd = body_ndof(b);
      for (int which = 0; which < 2; ++which) {
        const T& w = which == 0 ? wq : wv;
        if (value_of(w) == 0) continue;
        VecX<T>& x = which == 0 ? q : v;
        for (int k = 0; k < nd; ++k) {
          const bool position = which == 0 && nd == 6 && k < 3;
          const double scale = position ? std::max(1.0, std::fabs(static_cast<double>(value_of(x(d + k))))) : 1.0;
          const double h = 1e-6 * scale;
          const T keep = x(d + k);
          x(d + k) = keep + T(h);
          const Vec6<T> fp = own(q, v);
          x(d + k) = keep - T(h);
          const Vec6<T> fm = own(q, v);
          x(d + k) = keep;
          const Vec6<T> col = (fp - fm) / T(2 * h);
          for (int i = 0; i < 6; ++i) {
            const Index r = body_row(b, i);
            if (r >= 0 && (value_of(col(i)) != 0 || is_dual_v<T>)) J->add(r, d + k, w * col(i));
          }
        }
      }
      return;
    }
    // A body pinned on a parent: the parent's DOFs' columns too, and the parent's rows its
    // pin passes the force to (spread_vector, the arm turning with the parent).
    const int p = bodies_[static_cast<std::size_t>(b)].parent;
    const Index cols[2] = {body_dof_[static_cast<std::size_t>(b)], body_dof_[static_cast<std::size_t>(p)]};
    const int ncols[2] = {body_ndof(b), body_ndof(p)};
    for (int which = 0; which < 2; ++which) {
      const T& w = which == 0 ? wq : wv;
      if (value_of(w) == 0) continue;
      VecX<T>& x = which == 0 ? q : v;
      for (int c = 0; c < 2; ++c) {
        if (cols[c] < 0) continue;
        for (int k = 0; k < ncols[c]; ++k) {
          const Index j = cols[c] + k;
          const bool position = which == 0 && ncols[c] == 6 && k < 3;
          const double scale = position ? std::max(1.0, std::fabs(static_cast<double>(value_of(x(j))))) : 1.0;
          const double h = 1e-6 * scale;
          const T keep = x(j);
          x(j) = keep + T(h);
          const Vec12<T> gp = spread_vector(pin_arm(b, q, s.R), own(q, v));
          x(j) = keep - T(h);
          const Vec12<T> gm = spread_vector(pin_arm(b, q, s.R), own(q, v));
          x(j) = keep;
          const Vec12<T> col = (gp - gm) / T(2 * h);
          for (int i = 0; i < 12; ++i) {
            const Index r = spread_row(b, i);
            if (r >= 0 && (value_of(col(i)) != 0 || is_dual_v<T>)) J->add(r, j, w * col(i));
          }
        }
      }
    }
  }

  // The inertia tangent wm d(M a)/da + wq d(M a)/dq of a body pinned on a parent (M its mass
  // matrix in state s, mass(q) the matrix at q): M a = M (a_p + alpha_p x rho, alpha) takes
  // M[:, 3:6] on its rotation's accelerations, M[:, 0:3] on the parent's translation and
  // -M[:, 0:3] [rho]_x on the parent's rotation; the whole spread to its rows and its parent's
  // (spread_vector); the turn of M, rho and the pin acceleration with q by central differences.
  template <class MassAt>
  void pinned_inertia_tangent(const State& s, int b, const Mat6<T>& M, MassAt&& mass, BorderedJacobian<T>* J,
                              const T& wm, const T& wq) const {
    const int p = bodies_[static_cast<std::size_t>(b)].parent;
    const Vec3<T> rho = pin_arm(b, s.q, s.R);
    auto column = [&](Index j, const Vec6<T>& c) {
      const Vec12<T> g = spread_vector(rho, c);
      for (int i = 0; i < 12; ++i) {
        const Index r = spread_row(b, i);
        if (r >= 0) J->add(r, j, wm * g(i));
      }
    };
    for (int k = 0; k < 3; ++k) column(body_row(b, 3 + k), Vec6<T>(M.col(3 + k)));
    const Mat3<T> S = skew<T>(rho);
    for (int k = 0; k < 3; ++k) {
      const Index jt = body_row(p, k), jr = body_row(p, 3 + k);
      if (jt >= 0) column(jt, Vec6<T>(M.col(k)));
      if (jr >= 0) {
        Vec6<T> c = Vec6<T>::Zero();  // -M[:, 0:3] [rho]_x e_k
        for (int i = 0; i < 3; ++i) c -= M.col(i) * S(i, k);
        column(jr, c);
      }
    }
    auto Mq = [&](const VecX<T>& q, const VecX<T>&) {
      return mul6<T>(mass(q), motion_at(b, q, s.v, &s.a, s.R, 2, false));
    };
    body_own_tangent(s, b, Mq, J, wq, T(0));
  }

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
  void line_static(int l, const VecX<T>& x, VecX<T>& Rl, Sink* sink, double compression_ratio) const {
    const auto& m = lines_[static_cast<std::size_t>(l)].model;
    if (!current_field_) return m.static_residual(x, Rl, sink, compression_ratio, static_current());
    auto& u = wu_;  // one line at a time: its storage kept from call to call
    u.resize(m.n_nodes());
    for (std::size_t i = 0; i < m.n_nodes(); ++i) {
      const Vec3<T> r = m.node(x, i);
      u[i] = current_field_(Vec3<double>(static_cast<double>(value_of(r(0))), static_cast<double>(value_of(r(1))),
                                         static_cast<double>(value_of(r(2)))));
    }
    LineStaticLoads L;
    L.compression_ratio = compression_ratio;
    L.node_current = u.data();
    m.static_residual(x, Rl, sink, L);
  }
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
  mutable std::vector<Vec3<double>> field_u_, field_a_;  // a body's current-field samples (statics)
  mutable std::vector<double> field_p_;                  // their (zero) dynamic pressure
  std::vector<double> joint_k_, joint_m_;      // per body: a direction joint's roll scales [N m/rad], [kg m^2] (renumber())
};

}  // namespace cabledyn

#include "cabledyn/system/body_substeps.hpp"  // the estimate the member forwards to
