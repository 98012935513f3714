// cabledyn: a deck's mooring system driven by a host: the object behind the C API.
// Spec "Attached objects and line ends" and "Tension and coupled loads" (a host prescribes
// the coupled points' motion and reads back the loads of the lines on them), "Static
// equilibrium" (the initialisation with the coupled points where the host puts them),
// "Time integration" (generalised-alpha, rhoInf from the deck).
//
// The pattern of mooring host coupling: create from a deck; the number of coupled DOFs (6
// per Coupled / Vessel body, in BODIES order: x y z and roll pitch yaw [rad] of R = Rx Ry Rz
// (R = Rz Ry Rx with bodyAngles orcaflex: deck_body_rotation),
// their velocities the reference point's and the angular velocity in world axes, their loads
// force and moment about the reference point; then 3 per Coupled / Vessel / Turbine<J>
// point, in POINTS order by turbine: MoorDyn's order of coupled objects, MoorDyn-F's by
// turbine); init with the coupled positions and
// velocities (the statics); step from t to t + dt with the coupled states at t + dt,
// returning the forces of the lines on the coupled points; queries; save and load of
// everything committed (a bit-for-bit restart).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cabledyn/dynamics/staggered_stepper.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/io/deck_sea.hpp"
#include "cabledyn/io/system_model.hpp"
#include "cabledyn/system/component_steppers.hpp"

namespace cabledyn::io {

/// A deck's mooring system stepped by a host.
class SystemSimulation {
 public:
  using Stepper = SystemStepper<MooringSystem<double>>;

  /// Reads the deck at `path` (free points allowed) and builds its system. Throws InputError
  /// (NotImplementedError for what the system route does not model).
  static std::unique_ptr<SystemSimulation> from_file(const std::string& path) {
    ReadOptions ro;
    ro.accept_unsupported = true;
    return std::make_unique<SystemSimulation>(read_deck(path, ro));
  }

  explicit SystemSimulation(const Deck& deck) : deck_(deck), model_(build_deck_system(deck_)) {
    opt_.rho_inf = deck_.options.rhoInf;
    // The deck's Newton settings (spec "Newton iteration"): dynamic_solver's relative
    // tolerance (of the system's force scale), iterations and backtracks, and modified_newton.
    // Its absolute tolerance has no counterpart: the system's floor is the round-off of G.
    opt_.tol = deck_.options.dynamic_solver.rel_tol;
    opt_.max_iterations = deck_.options.dynamic_solver.max_iterations;
    opt_.max_backtracks = deck_.options.dynamic_solver.max_backtracks;
    opt_.modified_newton = deck_.options.modified_newton;
    const auto& o = deck_.options;
    if (o.line_of("dynamic_solver") > 0 && o.dynamic_solver.abs_tol != DynamicSolverSettings{}.abs_tol)
      solver_notes_.push_back(deck_.file + ":" + std::to_string(o.line_of("dynamic_solver")) +
                              ": dynamic_solver's absolute tolerance does not apply to the system route (its Newton "
                              "test is the relative tolerance of the system's force scale, or the round-off floor of "
                              "the residual above it); its relative tolerance, iterations and backtracks do");
    // alpha_force_blend: the force blend (default) or the configuration blend.
    opt_.force_blend = o.alpha_force_blend;
    // The EI = 0 lines' march policies (systems.md, "The EI = 0 lines' march policies"): the
    // release cap of the force blend, and the sub-steps as the deck sets them (ei0_substeps,
    // ei0_substep_max, ei0_substep_angle): False
    // alpha_force_blend turns the sub-steps off unless the deck sets them.
    model_.system.set_march_policies(o.alpha_force_blend, o.ei0_substeps && (o.alpha_force_blend || o.line_of("ei0_substeps") > 0),
                                     o.ei0_substep_max, o.ei0_substep_angle);
    // tensile_safety: the finite-EI lines audited in the statics and at each converged step
    // (MooringSystem::set_tensile_safety).
    model_.system.set_tensile_safety(o.tensile_safety, o.tensile_strain_tolerance);
    // recovery_max_substeps: a failed step is halved while its pieces are at least 1 /
    // recovery_max_substeps of it.
    opt_.max_subdivisions = static_cast<int>(std::floor(std::log2(static_cast<double>(o.recovery_max_substeps))));
    // Waves (spec "Time integration": the fields sampled for the end of each step at the
    // committed positions, held over it): the deck's sea, its current the system's uniform
    // one. Without waves the system's uniform current is the whole sea.
    // The bodies' poses as built: the staggered scheme holds its bodies after the statics, and
    // a second initialize starts from these again.
    bool staggerable = false;
    for (std::size_t b = 0; b < model_.system.n_bodies(); ++b) {
      const auto& B = model_.system.body(static_cast<int>(b));
      built_.push_back({B.r, B.R});
      staggerable = staggerable || staggered_flag(B) != 0;
    }
    if (deck_.options.body_scheme_staggered && !staggerable)
      solver_notes_.push_back(deck_.file + ":" + std::to_string(deck_.options.line_of("bodyScheme")) +
                              ": bodyScheme staggered has no body to step (no free body or rod pinned at a "
                              "held pin): the run is monolithic");
    DeckSea sea = build_deck_sea(deck_, model_.system.environment());
    // A current field (a depth profile) comes with the deck's sea in the march too.
    if (sea.has_waves || model_.system.has_current_field()) field_ = std::move(sea.field);
  }
  // The stepper refers to the system: neither copied nor moved.
  SystemSimulation(const SystemSimulation&) = delete;
  SystemSimulation& operator=(const SystemSimulation&) = delete;

  const Deck& deck() const { return deck_; }
  const DeckSystem& model() const { return model_; }
  MooringSystem<double>& system() { return model_.system; }
  const MooringSystem<double>& system() const { return model_.system; }
  /// The stepper's options (the deck's rhoInf, dynamic_solver, modified_newton and alpha_force_blend).
  const SystemStepperOptions& stepper_options() const { return opt_; }
  /// What of the deck's solver options the system route does not apply: dynamic_solver's
  /// absolute tolerance (the driver's summary lists them).
  const std::vector<std::string>& solver_notes() const { return solver_notes_; }
  /// The notes a host (the C API) gets: the deck's reading notes, the solver notes, the
  /// deck's prescribed motion (motionFile, fairleadMotion, vesselRef), which a host replaces:
  /// it moves the coupled objects itself, and its nModes (the driver's).
  std::vector<std::string> host_notes() const {
    std::vector<std::string> n = deck_.notes;
    n.insert(n.end(), solver_notes_.begin(), solver_notes_.end());
    const auto& o = deck_.options;
    const std::pair<const char*, bool> motion[] = {{"motionFile", o.motionFile.has_value()},
                                                  {"fairleadMotion", o.fairleadMotion.has_value()},
                                                  {"vesselRef", o.vesselRef.has_value()}};
    for (const auto& [k, given] : motion)
      if (given)
        n.push_back(deck_.file + ":" + std::to_string(o.line_of(k)) + ": " + k +
                    " does not apply to a host's run: the host moves the coupled objects (cabledyn_step)");
    if (o.nModes > 0)
      n.push_back(deck_.file + ":" + std::to_string(o.line_of("nModes")) +
                  ": nModes does not apply to a host's run (the driver's system route writes the modes; "
                  "system_modal_analysis gives them to a C++ host)");
    return n;
  }
  /// Number of coupled DOFs, in MoorDyn's order: 6 per Coupled / Vessel / CoupledPinned body,
  /// then 6 per Coupled / Vessel rod (End A and roll, pitch, yaw of its axes, z along the rod)
  /// and 3 per CoupledPinned rod (End A), then 3 per Coupled / Vessel point. A CoupledPinned
  /// body reads the position, velocity and acceleration of its pin from its first three
  /// entries and ignores the other three (it turns freely about the pin: MoorDyn counts six
  /// entries for it too); its force entries are the pin reaction and zero moments.
  int coupled_dofs() const { return 3 * static_cast<int>(model_.coupled.size()) + body_entries(); }
  /// The coupled entries of the bodies (and rods) before the points'.
  int body_entries() const {
    int n = 0;
    for (int w : model_.coupled_width) n += w;
    return n;
  }
  bool initialized() const { return stepper_ != nullptr || split_ != nullptr; }
  /// Whether the connected components of the system are stepped apart (true, the default),
  /// each with a stepper of its own (system/component_steppers.hpp: one line's iterations,
  /// halvings and sub-steps are not every line's; on snapping multi-line decks about twice as
  /// fast), or as one system (false; docs/systems.md, "Components stepped apart"). Applies
  /// from the next initialize; a staggered run (bodyScheme staggered) and a system of one
  /// component step as one system either way.
  void set_split_components(bool on) { split_on_ = on; }
  bool split_components() const { return split_on_; }
  /// The components stepped apart (null when the run steps as one system).
  const ComponentSteppers<double>* components() const { return split_.get(); }
  /// The deck's waves as the system sees them (null without waves).
  const FluidField* wave_field() const { return field_.get(); }
  /// omega dt_sub of bodySubstep accuracy (spec "Rigid-body time integration").
  static constexpr double kBodySubstep = 0.28;
  /// The sub-steps of the last step (bodySubstep accuracy; 1 without free bodies or with
  /// bodySubstep none; with bodyScheme staggered its sub-steps, omega dt <= 0.4) and the most
  /// of any step so far.
  int last_substeps() const { return last_substeps_; }
  int max_substeps() const { return max_substeps_; }
  double time() const { return initialized() ? static_cast<double>(cur().t) : 0.0; }
  const SystemState<double>& state() const {
    require_init("state");
    return cur();
  }
  const SystemStaticResult& statics() const { return statics_; }
  /// The system as its statics solved it, and its static state (a copy taken at
  /// initialisation, before the march moves the held objects and before the staggered scheme
  /// holds its bodies): what the static outputs and the modes read. Before an initialisation
  /// succeeds, the system as built (and no state).
  const MooringSystem<double>& static_system() const { return static_system_ ? *static_system_ : model_.system; }
  const SystemState<double>& static_state() const {
    require_init("static_state");
    return static_state_;
  }
  /// True when body b (system index) is stepped by the staggered scheme (bodyScheme
  /// staggered: a free body or a rod pinned at a held pin, held by the system over each line
  /// step).
  bool staggered_body(int b) const {
    return b >= 0 && static_cast<std::size_t>(b) < stag_.flag.size() && stag_.flag[static_cast<std::size_t>(b)] != 0;
  }
  /// True when the staggered scheme steps bodies of the run (bodyScheme staggered with a free
  /// body or a rod pinned at a held pin).
  bool staggered() const { return staggered_ != nullptr; }
  const SystemStepperStatistics& stepper_statistics() const {
    require_init("stepper_statistics");
    return split_ ? split_->statistics() : stepper_->statistics();
  }

  /// The statics with the coupled points at x (3 per point) moving with v, then the stepper's
  /// initial state. Throws InputError for a non-finite input, SolveError from the statics.
  void initialize(const double* x, const double* v) {
    // Nothing is kept unless every stage succeeds: a failed init leaves it uninitialised.
    staggered_.reset();
    stepper_.reset();
    split_.reset();
    unstagger();  // a second initialize: the staggered bodies free again
    set_coupled(x, v, nullptr);
    state_ = model_.system.initial_state();
    model_.system.release_fluid();
    static_system_.reset();
    statics_ = solve_statics(model_.system, state_);
    auto copy = std::make_unique<MooringSystem<double>>(model_.system);
    static_state_ = state_;
    try {
      // bodyScheme staggered (spec "Rigid-body time integration"): its bodies held over each
      // line step from here on.
      if (deck_.options.body_scheme_staggered) stag_ = stagger_bodies(model_.system, state_);
      if (field_) model_.system.hold_fluid(*field_, state_, 0.0);  // the initial acceleration's
      // Components stepped apart: two or more with DOFs, no staggered bodies.
      int stepped = 0;
      for (int c = 0; c < model_.system.n_components(); ++c) stepped += !model_.system.component_dofs(c).empty();
      if (split_on_ && stag_.index.empty() && stepped > 1) {
        auto split = std::make_unique<ComponentSteppers<double>>(model_.system, opt_);
        split->initialize(state_);
        split_ = std::move(split);
      } else {
        auto stepper = std::make_unique<Stepper>(model_.system, opt_);
        std::unique_ptr<Staggered> stag;
        if (!stag_.index.empty()) {
          stag = std::make_unique<Staggered>(model_.system, *stepper, stag_);
          stag->initialize(state_);
        } else {
          stepper->initialize(state_);
        }
        stepper_ = std::move(stepper);
        staggered_ = std::move(stag);
      }
    } catch (...) {
      unstagger();
      throw;
    }
    static_system_ = std::move(copy);
    last_v_.assign(v, v + coupled_dofs());
  }

  /// Steps from time() to t + dt (t must equal time()) with the coupled points at x, v at
  /// t + dt (their accelerations by the difference of v over the step); writes the forces of
  /// the lines on the coupled points at t + dt into f (3 per point). On a SolveError nothing
  /// is committed.
  void step(const double* x, const double* v, double t, double dt, double* f) {
    require_init("step");
    if (!(std::fabs(t - time()) <= 1e-9 * std::max(1.0, std::fabs(t))))
      throw InputError("step", "t", t, "the time of the committed state, " + cabledyn::to_text(time()) + " s");
    if (!(dt > 0) || !std::isfinite(dt)) throw InputError("step", "dt", dt, "> 0");
    // The whole step (the body-frequency estimate and the coupled forces too) under the
    // stepper's floating-point mode (core/fp_env.hpp).
    const SubnormalFlush flush(opt_.flush_subnormals);
    for (int i = 0; i < coupled_dofs(); ++i) acc_[static_cast<std::size_t>(i)] = (v[i] - last_v_[static_cast<std::size_t>(i)]) / dt;
    set_coupled(x, v, acc_.data());
    // bodySubstep accuracy (spec "Rigid-body time integration"): equal sub-steps with
    // omega dt_sub <= 0.28 for the stiffest body-mooring frequency of the committed state.
    int n = 1;
    if (deck_.options.body_substep_accuracy && !staggered_) {
      const double omega = model_.system.body_frequency_estimate(cur());
      n = std::max(1, static_cast<int>(std::ceil(omega * dt / kBodySubstep - 1e-12)));
    }
    if (field_) {
      // The fluid of t + dt at the committed positions; the previous one back if the step fails.
      model_.system.hold_fluid(*field_, cur(), t + dt);
      try {
        advance(dt, n);
      } catch (...) {
        model_.system.revert_fluid();
        throw;
      }
    } else {
      advance(dt, n);
    }
    if (staggered_) n = staggered_->last_substeps();
    last_substeps_ = n;
    max_substeps_ = std::max(max_substeps_, n);
    for (int i = 0; i < coupled_dofs(); ++i) last_v_[static_cast<std::size_t>(i)] = v[i];
    coupled_forces(f);
  }

  /// The loads on the host of the coupled objects in the committed state: the force and
  /// moment about the reference point of each coupled body (6 per body: its lines' loads and
  /// its own less its inertia, MooringSystem::coupled_reaction; a CoupledPinned body's moment
  /// zero), then each coupled point's (3 per point: its lines' force and its own weight,
  /// buoyancy, drag and force less its inertia, MooringSystem::coupled_point_reaction).
  void coupled_forces(double* f) const {
    require_init("coupled_forces");
    std::size_t o = 0;
    for (std::size_t c = 0; c < model_.coupled_bodies.size(); ++c) {
      const Vec6<double> F = coupled_body_load(model_.coupled_bodies[c]);
      const int w = model_.coupled_width[c];
      for (int k = 0; k < w; ++k) f[o + static_cast<std::size_t>(k)] = F(k);
      o += static_cast<std::size_t>(w);
    }
    for (std::size_t c = 0; c < model_.coupled.size(); ++c) {
      const Vec3<double> F = model_.system.coupled_point_reaction(cur(), model_.coupled[c]);
      for (int k = 0; k < 3; ++k) f[o + 3 * c + static_cast<std::size_t>(k)] = F(k);
    }
  }

  /// The pose of body `id` (deck ID) in the committed state: its reference point and
  /// orientation.
  void body_pose(int id, Vec3<double>& r, Mat3<double>& R) const {
    require_init("body_pose");
    model_.system.body_pose(cur(), body_index(id), r, R);
  }
  /// The velocity (which = 1: v, omega) or acceleration (2: a, alpha) of body `id`.
  Vec6<double> body_motion(int id, int which) const {
    require_init("body_motion");
    return model_.system.body_motion(cur(), body_index(id), which);
  }
  /// The load of the lines on body `id` about its reference point (force, moment); for a
  /// Coupled or CoupledPinned body its load on the host (MooringSystem::coupled_reaction: its
  /// own loads and inertia included; a CoupledPinned body's moment zero).
  Vec6<double> body_load(int id) const {
    require_init("body_load");
    return coupled_body_load(body_index(id));
  }

  /// Position of the point with deck ID `id` in the committed state.
  Vec3<double> point_position(int id) const {
    require_init("point_position");
    return model_.system.point_position(cur(), point_index(id));
  }
  /// The force of the lines attached to the point with deck ID `id` on it [N].
  /// The net force of the lines on system point p (a rod end's point included) [N].
  Vec3<double> point_force_at(int p) const {
    require_init("point_force_at");
    if (p < 0 || p >= static_cast<int>(model_.system.n_points()))
      throw InputError("point_force_at", "system point", p, "in [0, " + std::to_string(model_.system.n_points()) + ")");
    return point_force_index(p);
  }
  Vec3<double> point_force(int id) const {
    require_init("point_force");
    return point_force_index(point_index(id));
  }
  /// The force line `id` (deck ID) exerts on the point at its End A (end 0: the point written
  /// first in LINES) or End B (end 1) [N]: the line-end force of FairTen / AnchTen, the end
  /// element and the end node's share of weight, contact and fluid loads, without the end
  /// node's inertia (DECK_FORMAT.md, "Outputs"; the coupled forces step() returns include it:
  /// spec "Tension and coupled loads").
  Vec3<double> line_end_force(int id, int end) const {
    require_init("line_end_force");
    if (end != 0 && end != 1) throw InputError("line_end_force", "end", end, "0 (End A) or 1 (End B)");
    return model_.system.line_end_force_dynamic(cur(), line_index(id), end, false);
  }

  /// Number of nodes of line `id` (deck ID): its elements + 1.
  int line_nodes(int id) const { return static_cast<int>(model_.system.line(line_index(id)).model.n_nodes()); }
  /// Position [m] of node i of line `id` (0 at End A .. line_nodes(id) - 1 at End B) and, on a
  /// finite-EI line, its tangent m = dr/ds (unit when unstretched; null: not wanted; an EI = 0
  /// line's is the mean of its elements' chords over their unstretched lengths). InputError for
  /// a node out of range.
  Vec3<double> line_node_position(int id, int i, Vec3<double>* tangent = nullptr) const {
    require_init("line_node_position");
    const int l = line_index(id);
    const auto& sys = model_.system;
    const auto& m = sys.line(l).model;
    if (i < 0 || i >= static_cast<int>(m.n_nodes()))
      throw InputError("line " + std::to_string(id), "node", i, "in [0, " + std::to_string(m.n_nodes() - 1) + "]");
    VecX<double> x;
    sys.line_gather(cur(), l, 0, x);
    const auto n = static_cast<std::size_t>(i);
    if (tangent) {
      if (m.hermite()) {
        *tangent = x.segment<3>(static_cast<Eigen::Index>(3 * m.position_slot(n) + 3));
      } else {
        Vec3<double> t = Vec3<double>::Zero();
        int k = 0;
        if (n > 0) t += (m.node(x, n) - m.node(x, n - 1)) / m.L0(n - 1), ++k;
        if (n + 1 < m.n_nodes()) t += (m.node(x, n + 1) - m.node(x, n)) / m.L0(n), ++k;
        *tangent = t / k;
      }
    }
    return m.node(x, n);
  }

  /// System line index of the line with deck ID `id` (InputError for an unknown ID).
  int line_index(int id) const {
    for (std::size_t l = 0; l < model_.line_id.size(); ++l)
      if (model_.line_id[l] == id) return static_cast<int>(l);
    throw InputError(deck_.file, "line ID", id, "a line of LINES");
  }

  /// Everything committed, in memory: save() writes it to a file, load() reads it back into
  /// restore().
  struct Checkpoint {
    SystemStepperSnapshot<MooringSystem<double>> stepper;  ///< the run as one system's
    ComponentSteppers<double>::Snapshot parts;             ///< the components' (stepped apart)
    std::vector<double> last_v;
    std::vector<Vec3<double>> fluid_u, fluid_a;
    std::vector<double> fluid_p;
    std::vector<Vec6<double>> rates;  ///< the staggered scheme's acceleration rates (empty: monolithic)
  };
  /// A copy of everything committed: restore() continues from it bit for bit (the stepper's
  /// snapshot carries the factor its next step would reuse).
  Checkpoint checkpoint() const {
    require_init("checkpoint");
    Checkpoint c{{}, {}, last_v_, model_.system.held_fluid_velocity(), model_.system.held_fluid_acceleration(),
                 model_.system.held_fluid_pressure(), {}};
    if (split_) c.parts = split_->snapshot();
    else c.stepper = stepper_->snapshot();
    if (staggered_) c.rates = staggered_->acceleration_rates();
    return c;
  }
  /// Returns to a checkpoint of this simulation.
  void restore(const Checkpoint& c) {
    require_init("restore");
    if (staggered_) staggered_->restore(c.stepper, c.rates);
    else if (split_) split_->restore(c.parts);
    else stepper_->restore(c.stepper);
    model_.system.set_held_fluid(c.fluid_u, c.fluid_a, c.fluid_p);
    last_v_ = c.last_v;
  }

  /// Writes everything committed to `path` (binary): a later load() continues bit for bit.
  /// Throws InputError naming the file when it cannot be written.
  void save(const std::string& path) const {
    require_init("save");
    const Checkpoint c = checkpoint();
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) throw InputError(path, "state file", "cannot be opened for writing", "a writable path");
    f.write(kMagic, 8);
    // The steppers' snapshots: one (the run as one system) or one per component stepped apart.
    const std::uint64_t parts = split_ ? c.parts.size() : 1;
    f.write(reinterpret_cast<const char*>(&parts), sizeof parts);
    if (split_)
      for (const auto& p : c.parts) write_snapshot(f, p);
    else
      write_snapshot(f, c.stepper);
    f.write(reinterpret_cast<const char*>(c.last_v.data()), static_cast<std::streamsize>(sizeof(double) * c.last_v.size()));
    const auto& fu = c.fluid_u;
    const auto& fa = c.fluid_a;
    const std::uint64_t nf = fu.size();  // the held fluid of the last step (0: none)
    f.write(reinterpret_cast<const char*>(&nf), sizeof nf);
    for (const auto* h : {&fu, &fa})
      for (const auto& x : *h) f.write(reinterpret_cast<const char*>(x.data()), sizeof(double) * 3);
    f.write(reinterpret_cast<const char*>(c.fluid_p.data()), static_cast<std::streamsize>(sizeof(double) * c.fluid_p.size()));
    const std::uint64_t nr = c.rates.size();  // the staggered scheme's acceleration rates (0: none)
    f.write(reinterpret_cast<const char*>(&nr), sizeof nr);
    for (const auto& x : c.rates) f.write(reinterpret_cast<const char*>(x.data()), sizeof(double) * 6);
    if (!f) throw InputError(path, "state file", "write failed", "a complete write");
  }

  /// Restores what save() wrote (on a simulation of the same deck, initialised). Throws
  /// InputError naming the file for another deck's or a truncated file; nothing is changed
  /// then.
  void load(const std::string& path) {
    require_init("load");
    std::ifstream f(path, std::ios::binary);
    if (!f) throw InputError(path, "state file", "cannot be opened", "a file written by save()");
    char magic[8];
    f.read(magic, 8);
    if (!f || std::memcmp(magic, kMagic, 8) != 0) throw InputError(path, "state file", "not a cabledyn system state", kMagic);
    Checkpoint c = checkpoint();
    std::uint64_t parts = 0;
    f.read(reinterpret_cast<char*>(&parts), sizeof parts);
    const std::uint64_t want_parts = split_ ? c.parts.size() : 1;
    if (f && parts != want_parts)
      throw InputError(path, "state file stepped components", static_cast<double>(parts),
                       std::to_string(want_parts) + " (this run's: " +
                           (split_ ? "its components stepped apart" : "the system stepped as one") + ")");
    if (split_) {
      for (std::size_t k = 0; k < c.parts.size(); ++k)
        read_snapshot(f, path, c.parts[k], [&] { return split_->make_factor_storage(k); });
    } else {
      read_snapshot(f, path, c.stepper, [&] { return stepper_->make_factor_storage(); });
    }
    std::vector<double> lv(last_v_.size());
    f.read(reinterpret_cast<char*>(lv.data()), static_cast<std::streamsize>(sizeof(double) * lv.size()));
    std::uint64_t nf = 0;
    f.read(reinterpret_cast<char*>(&nf), sizeof nf);
    const std::uint64_t want = field_ ? model_.system.fluid_sites() : 0;
    if (f && nf != want)
      throw InputError(path, "state file held-fluid sites", static_cast<double>(nf),
                       std::to_string(want) + " (this deck's)");
    std::vector<Vec3<double>> fu(nf), fa(nf);
    for (auto* h : {&fu, &fa})
      for (auto& x : *h) f.read(reinterpret_cast<char*>(x.data()), sizeof(double) * 3);
    std::vector<double> fp(nf);
    f.read(reinterpret_cast<char*>(fp.data()), static_cast<std::streamsize>(sizeof(double) * fp.size()));
    std::uint64_t nr = 0;
    f.read(reinterpret_cast<char*>(&nr), sizeof nr);
    const std::uint64_t want_r = staggered_ ? staggered_->acceleration_rates().size() : 0;
    if (f && nr != want_r)
      throw InputError(path, "state file staggered bodies", static_cast<double>(nr),
                       std::to_string(want_r) + " (this run's body scheme)");
    std::vector<Vec6<double>> rates(nr);
    for (auto& x : rates) f.read(reinterpret_cast<char*>(x.data()), sizeof(double) * 6);
    if (!f) throw InputError(path, "state file", "truncated", "a complete state");
    c.last_v = std::move(lv);
    c.fluid_u = std::move(fu), c.fluid_a = std::move(fa), c.fluid_p = std::move(fp);
    c.rates = std::move(rates);
    // A factor that cannot be factorised again (a corrupt file) is refused by the stepper's
    // restore before anything changes; named here with the file.
    try {
      restore(c);
    } catch (const InputError& e) {
      throw InputError(path, "state file", e.what(), "a state of this deck's run");
    }
  }

 private:
  static constexpr char kMagic[9] = "CDYNSYS8";

  // One stepper snapshot in a state file: its DOFs and held points, t, q, v, a, r0, (M a)0,
  // the factor reuse's back-off and running mean, the factor (its assembled matrix), the held
  // kinematics and the orientations.
  template <class Snap>
  static void write_snapshot(std::ofstream& f, const Snap& snap) {
    const std::uint64_t n = static_cast<std::uint64_t>(snap.state.q.size()), np = snap.held.r.size();
    f.write(reinterpret_cast<const char*>(&n), sizeof n);
    f.write(reinterpret_cast<const char*>(&np), sizeof np);
    const double t = snap.state.t;
    f.write(reinterpret_cast<const char*>(&t), sizeof t);
    for (const VecX<double>* v : {&snap.state.q, &snap.state.v, &snap.state.a, &snap.r0, &snap.Ma0})
      f.write(reinterpret_cast<const char*>(v->data()), static_cast<std::streamsize>(sizeof(double) * n));
    f.write(reinterpret_cast<const char*>(snap.reuse.data()), sizeof(int) * snap.reuse.size());
    f.write(reinterpret_cast<const char*>(&snap.ahead), sizeof snap.ahead);
    const std::uint8_t has_factor = snap.has_factor && snap.factor ? 1 : 0;
    f.write(reinterpret_cast<const char*>(&has_factor), sizeof has_factor);
    if (has_factor) {
      f.write(reinterpret_cast<const char*>(&snap.factor_dt), sizeof snap.factor_dt);
      f.write(reinterpret_cast<const char*>(&snap.factor_floor), sizeof snap.factor_floor);
      snap.factor->visit_assembled([&](const double* p, std::size_t k) {
        f.write(reinterpret_cast<const char*>(p), static_cast<std::streamsize>(sizeof(double) * k));
      });
    }
    for (const auto* h : {&snap.held.r, &snap.held.v, &snap.held.a, &snap.held.br, &snap.held.bv, &snap.held.bw,
                          &snap.held.ba, &snap.held.balpha})
      for (const auto& x : *h) f.write(reinterpret_cast<const char*>(x.data()), sizeof(double) * 3);
    for (const auto* R : {&snap.held.bR, &snap.state.R})
      for (const auto& x : *R) f.write(reinterpret_cast<const char*>(x.data()), sizeof(double) * 9);
  }
  // Reads what write_snapshot wrote into snap (a snapshot of this run's stepper: its sizes
  // are checked against it); make_storage gives a factor's storage when snap has none.
  template <class Snap, class Storage>
  static void read_snapshot(std::ifstream& f, const std::string& path, Snap& snap, Storage&& make_storage) {
    std::uint64_t n = 0, np = 0;
    f.read(reinterpret_cast<char*>(&n), sizeof n);
    f.read(reinterpret_cast<char*>(&np), sizeof np);
    if (!f || n != static_cast<std::uint64_t>(snap.state.q.size()) || np != snap.held.r.size())
      throw InputError(path, "state file DOFs", static_cast<double>(n),
                       std::to_string(snap.state.q.size()) + " (a state of this deck's system)");
    double t = 0;
    f.read(reinterpret_cast<char*>(&t), sizeof t);
    snap.state.t = t;
    for (VecX<double>* v : {&snap.state.q, &snap.state.v, &snap.state.a, &snap.r0, &snap.Ma0})
      f.read(reinterpret_cast<char*>(v->data()), static_cast<std::streamsize>(sizeof(double) * n));
    f.read(reinterpret_cast<char*>(snap.reuse.data()), sizeof(int) * snap.reuse.size());
    f.read(reinterpret_cast<char*>(&snap.ahead), sizeof snap.ahead);
    std::uint8_t has_factor = 0;
    f.read(reinterpret_cast<char*>(&has_factor), sizeof has_factor);
    if (f && has_factor > 1) throw InputError(path, "state file factor flag", has_factor, "0 or 1");
    snap.has_factor = has_factor == 1;
    if (snap.has_factor) {
      f.read(reinterpret_cast<char*>(&snap.factor_dt), sizeof snap.factor_dt);
      f.read(reinterpret_cast<char*>(&snap.factor_floor), sizeof snap.factor_floor);
      if (f && !(std::isfinite(snap.factor_dt) && snap.factor_dt > 0))
        throw InputError(path, "state file factor dt", snap.factor_dt, "finite and > 0");
      if (f && !(std::isfinite(snap.factor_floor) && snap.factor_floor >= 0))
        throw InputError(path, "state file factor floor", snap.factor_floor, "finite and >= 0");
      // The snapshot's own copy of the storage (a checkpoint's factor is shared with it).
      snap.factor = make_storage();
      snap.factor->visit_assembled([&](double* p, std::size_t k) {
        f.read(reinterpret_cast<char*>(p), static_cast<std::streamsize>(sizeof(double) * k));
      });
    } else {
      snap.factor.reset();
    }
    for (auto* h : {&snap.held.r, &snap.held.v, &snap.held.a, &snap.held.br, &snap.held.bv, &snap.held.bw,
                    &snap.held.ba, &snap.held.balpha})
      for (auto& x : *h) f.read(reinterpret_cast<char*>(x.data()), sizeof(double) * 3);
    for (auto* R : {&snap.held.bR, &snap.state.R})
      for (auto& x : *R) f.read(reinterpret_cast<char*>(x.data()), sizeof(double) * 9);
  }

  // The committed state of the whole system.
  const SystemState<double>& cur() const { return split_ ? split_->state() : stepper_->state(); }
  void require_init(const char* what) const {
    if (!initialized()) throw InputError(what, "simulation", "not initialised", "init first");
  }
  int point_index(int id) const {
    const auto it = model_.point_index.find(id);
    if (it == model_.point_index.end()) throw InputError(deck_.file, "point ID", id, "a point of POINTS");
    return it->second;
  }
  int body_index(int id) const {  // BODIES rows only (the bodies of rods follow them, unnamed)
    if (id < 1 || id > static_cast<int>(deck_.bodies.size()))
      throw InputError(deck_.file, "body ID", id, "a body of BODIES (1.." + std::to_string(deck_.bodies.size()) + ")");
    return id - 1;
  }
  // A coupled body's reaction on the host (MooringSystem::coupled_reaction); another body's
  // lines' load.
  Vec6<double> coupled_body_load(int b) const {
    const auto& B = model_.system.body(b);
    if ((B.kind == BodyKind::coupled && !staggered_body(b)) || B.host_pin)
      return model_.system.coupled_reaction(cur(), b);
    return model_.system.body_line_load(cur(), b, true);
  }
  // The net line-end force of the lines on system point p (without their end nodes' inertia:
  // MoorDyn's point force, the driver's Point channels).
  Vec3<double> point_force_index(int p) const {
    Vec3<double> F = Vec3<double>::Zero();
    const auto& sys = model_.system;
    for (std::size_t l = 0; l < sys.n_lines(); ++l)
      for (int e = 0; e < 2; ++e)
        if (sys.line(static_cast<int>(l)).point[e] == p)
          F += sys.line_end_force_dynamic(cur(), static_cast<int>(l), e, false);
    return F;
  }
  // Returns the staggered bodies to their kinds and poses as built (free or pinned; nothing to
  // do without them).
  void unstagger() {
    if (stag_.index.empty()) return;
    for (int b : stag_.index) {
      auto& B = model_.system.body(b);
      const auto& o = built_[static_cast<std::size_t>(b)];
      B.kind = stag_.flag[static_cast<std::size_t>(b)] == 1 ? BodyKind::free : BodyKind::pinned;
      B.r = o.r, B.R = o.R;
      B.v.setZero(), B.w.setZero(), B.a.setZero(), B.alpha.setZero();
    }
    stag_ = {};
    model_.system.renumber();
  }
  // One step of the scheme: the monolithic stepper's in n sub-steps, or the staggered one's.
  void advance(double dt, int n) {
    if (staggered_) staggered_->step(dt);
    else if (split_)
      split_->step(dt, n);
    else stepper_->step(dt, n);
  }
  void set_coupled(const double* x, const double* v, const double* a) {
    acc_.resize(static_cast<std::size_t>(coupled_dofs()));
    std::size_t o = 0;
    for (std::size_t c = 0; c < model_.coupled_bodies.size(); ++c) {
      const int w = model_.coupled_width[c];  // 3: a CoupledPinned rod's End A
      const double* xb = x + o;
      Vec6<double> vel = Vec6<double>::Zero(), acc = Vec6<double>::Zero();
      for (int k = 0; k < w; ++k) {
        vel(k) = v[o + static_cast<std::size_t>(k)];
        if (a) acc(k) = a[o + static_cast<std::size_t>(k)];
      }
      const Mat3<double> R =
          w == 6 ? deck_body_rotation(deck_.options, xb[3], xb[4], xb[5]) : Mat3<double>(Mat3<double>::Identity());
      model_.system.set_coupled_body(model_.coupled_bodies[c], Vec3<double>(xb[0], xb[1], xb[2]), R, vel, acc);
      o += static_cast<std::size_t>(w);
    }
    for (std::size_t c = 0; c < model_.coupled.size(); ++c) {
      const std::size_t i = o + 3 * c;
      const Vec3<double> r(x[i], x[i + 1], x[i + 2]), u(v[i], v[i + 1], v[i + 2]);
      const Vec3<double> w = a ? Vec3<double>(a[i], a[i + 1], a[i + 2]) : Vec3<double>::Zero();
      model_.system.set_coupled(model_.coupled[c], r, u, w);
    }
  }

  Deck deck_;
  DeckSystem model_;
  SystemStepperOptions opt_;
  std::vector<std::string> solver_notes_;
  SystemState<double> state_;
  SystemStaticResult statics_;
  std::unique_ptr<Stepper> stepper_;
  std::unique_ptr<ComponentSteppers<double>> split_;  // the components stepped apart (or stepper_)
  bool split_on_ = true;
  using Staggered = StaggeredStepper<MooringSystem<double>>;
  std::unique_ptr<Staggered> staggered_;  // bodyScheme staggered: steps with stepper_
  StaggeredBodies stag_;
  std::unique_ptr<MooringSystem<double>> static_system_;  // the system as its statics solved it
  SystemState<double> static_state_;
  struct BuiltBody {
    Vec3<double> r;
    Mat3<double> R;
  };
  std::vector<BuiltBody> built_;
  std::vector<double> last_v_, acc_;
  std::unique_ptr<FluidField> field_;  // the deck's waves (null: none)
  int last_substeps_ = 1, max_substeps_ = 1;
};

}  // namespace cabledyn::io
