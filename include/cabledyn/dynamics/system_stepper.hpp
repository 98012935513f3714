// cabledyn: the generalised-alpha stepper of any system.
// Spec "Time integration" (the scheme, the force blend, the Newmark updates, the predictor,
// Newton iterations and their convergence test, adaptive step subdivision, prescribed motion
// held at its values over the step); EQUATIONS.md section 10.
//
// Systems supply, steppers step (ARCHITECTURE.md, "The solver half"). The stepper knows a
// system only through this interface (MooringSystem is one):
//   using Scalar, State (t, q, v, a), Jacobian (set_zero, solve), Held (prescribed inputs);
//   dofs(), make_jacobian(), force_scale(State);
//   dynamic_residual(State, r, Jacobian*, wq, wv): r(q, v) = f_int + f_damp - f_ext and
//       J += wq dr/dq + wv dr/dv;
//   inertia(State, Ma, Jacobian*, wm, wq): M(q) a and J += wm M + wq d(M a)/dq;
//   get_held(Held&), set_held(const Held&): the prescribed kinematics (the caller sets those of
//       t + dt before step(dt); the stepper keeps those of t and interpolates sub-steps with
//       Held::interpolate(x, y, tau, dt), a fraction tau of the step of dt from x to y, and
//       copies with Held::assign; optionally Held::shift_accelerations(x, y, shift) -> bool:
//       the inertia force then takes the prescribed accelerations of a (sub-)step's ends at
//       the scheme's time t + (alpha_m - alpha_f) dt, the forces the given ones);
//   check_state(State): throws for a state outside the model;
//   commit(State&): normalises a committed state (a body's rotation increment folded into its
//       orientation), the configuration unchanged;
// and, optionally, the policies of its lines (MooringSystem: the EI = 0 lines'):
//   prepare_blend(State): at the start of each attempt, from the committed state;
//   correct_blend(State1, dt, params, G, Jacobian*): corrects the blended residual G at the
//       trial state and its tangent (the release cap, spec "Release cap"); returns a count;
//   substeps_start(State0), then substeps_wanted(State1, dt): after a converged step, the
//       number of equal sub-steps the interval from State0 to State1 should be solved in again
//       (1: none; spec "Rotation- and snap-resolved sub-steps"); the stepper re-solves it,
//       measures again once, and keeps the plain step when a sub-step fails;
//   wants_newmark_predictor() -> bool, translational_dof(i) -> bool: the predictor (spec
//       "Newton iteration"; read once at initialize; constant_acceleration_predictor below; without them the
//       constant-acceleration predictor);
//   geometry_start(State0), then step_rejection(State1) -> const char*: a converged iterate
//       the system rejects against the attempt's start (nullptr: none; MooringSystem: a
//       finite-EI step beyond the chord, turn and tangent bounds of spec "Adaptive step
//       subdivision"), halved as a failed attempt;
//   hold_inertia(State) -> bool, release_inertia(): masses held over an attempt (MooringSystem:
//       a Hermite line's consistent mass, spec "Added mass and fluid inertia"), held at the
//       committed state at the start of each attempt and released at its end; true: the
//       committed inertia force (M a)0 is evaluated again with the held mass.
// A state's held DOFs are the system's prescribed kinematics: when the stepper calls a hook
// with a state, the system holds the kinematics of that state's time.
// The equation of motion M a + r = 0 is stepped with the force blend, inertia forces and
// forces alike blended between the step's ends,
//   (1 - alpha_m) M(q1) a1 + alpha_m (M a)0 + (1 - alpha_f) r(q1, v1) + alpha_f r0 = 0,
// ((M a)0 and r0 those of the committed state), Newton on q1 with S = (1 - alpha_m)[M/(beta
// dt^2) + d(M a1)/dq] + (1 - alpha_f)[dr/dq + gamma/(beta dt) dr/dv]. Blending the inertia
// force, not the acceleration, keeps the scheme second order where the mass matrix turns
// with the configuration (a rigid body's R I R^T: M(q1) times blended accelerations errs by
// (M1 - M0) a0 per step, a first-order error; spec "Rigid-body time integration", alpha_m =
// alpha_f at rho_inf = 1: the trapezoidal rule); converged when ||G||_inf <= tol s (s the system's force scale at
// initialisation). A step whose Newton fails is subdivided in halves (the prescribed
// kinematics interpolated by the system, MooringSystem on the quintic trajectory of spec
// "Adaptive step subdivision") up to max_subdivisions levels; the committed State is one
// value, copied whole, so a failed attempt leaves nothing behind. A step allocates nothing.
// With force_blend false (the configuration blend, spec "Time integration": False
// alpha_force_blend) the forces are evaluated at the blended state instead,
//   (1 - alpha_m) M(q1) a1 + alpha_m (M a)0 + r(q_alpha, v_alpha) = 0,
// q_alpha = (1 - alpha_f) q1 + alpha_f q0 and v_alpha alike (a body's rotation increment
// blended, so its orientation lies on the geodesic), with the prescribed kinematics blended
// linearly (System::Held::blend, orientations on their geodesic); the tangent takes the same
// weights. The release cap (prepare_blend, correct_blend) is a policy of the force blend and
// is not applied.
#pragma once

#include <limits>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/fp_env.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/dynamics/generalized_alpha.hpp"

namespace cabledyn {

/// Options of the system stepper (deck OPTIONS names in brackets where they exist).
struct SystemStepperOptions {
  /// The backtracking line search of a Newton iteration (spec "Time integration": the Hermite
  /// path halves a step until the residual decreases): automatic asks the system
  /// (System::wants_line_search(), a MooringSystem with a finite-EI line), off when the system
  /// does not say.
  enum class LineSearch { automatic, on, off };
  double rho_inf = 0.8;      ///< spectral radius at infinite frequency [rhoInf]
  double tol = 1e-8;         ///< ||G||_inf / s of the Newton test (or, above it, G's round-off floor 8 eps max|q| max|S_ii|)
  /// Newton iterations per attempt (each evaluation of the residual counts) and halvings of
  /// one Newton update by the line search: the spec's deck defaults (spec "Newton iteration":
  /// 30 iterations, 12 backtracks; with 25 and 8 a snap of the OC4 chain at N = 20 failed
  /// after 6 halvings of its step).
  int max_iterations = 30;
  int max_subdivisions = 10;  ///< halvings of a failed step (2^10 sub-steps at most: recovery_max_substeps 1024, the deck default)
  LineSearch line_search = LineSearch::automatic;
  int max_backtracks = 12;
  /// The line search (and the seabed's update limit) per connected component of the system
  /// (System::dof_components(): lines between held points apart, each searched on its own
  /// residual); false: on the whole system's ||G||_2 (one line's rise halves every line's
  /// update, one line's landing cuts every line's: the march of a line then depends on the
  /// lines beside it, and a turned twin of a system of several snapping lines parted from it).
  bool search_components = true;
  /// [modified_newton] Reuse the factorised tangent within an attempt while each iterate
  /// reduces ||G||_inf to at most a quarter of the previous one; rebuild it at the iterate
  /// otherwise (spec "Newton iteration"). The convergence test is unchanged. An iterate on the
  /// reused factor evaluates the residual alone (no tangent), so a step's converged iterate
  /// costs no tangent either.
  bool modified_newton = false;
  /// [alpha_force_blend] The force blend (true, the default) or the configuration blend
  /// (false: the forces at q_alpha, v_alpha; see the header). The inertia force is blended
  /// alike in both. The committed state is the same in both (r0 the force at the state), so a
  /// snapshot of one restores into the other.
  bool force_blend = true;
  /// Cross-step factor reuse (spec "Newton iteration": a Hermite step starts from the
  /// previous step's factorised tangent): a step of the same dt as the last factorisation
  /// starts on that factor, for at most three iterations while each reduces ||G||_inf fourfold,
  /// and converges on it only to 0.3 of the Newton test; otherwise the tangent at the iterate
  /// is factorised and the step goes on as usual. A step that tried it and needed as many
  /// factorisations as the last fresh step did backs off for 1, 2, 4 ... 32 steps; an
  /// attempt that tried it and failed is tried once more at the same dt on fresh factors
  /// before it is halved. automatic asks the system (System::wants_factor_reuse(): a
  /// MooringSystem with a finite-EI line),
  /// off when the system does not say; automatic is the default. The factor is part of a snapshot (and
  /// of a SystemSimulation's state file), so a restored run reuses it as the run that goes on
  /// does: restarts repeat the run bit for bit.
  enum class FactorReuse { automatic, on, off };
  FactorReuse reuse_factor = FactorReuse::automatic;
  /// A step runs with subnormal results flushed to zero (core/fp_env.hpp: a motion settling
  /// toward rest otherwise runs on slow subnormal arithmetic); the caller's mode is restored
  /// on return.
  bool flush_subnormals = true;
};

/// Counters of a run.
struct SystemStepperStatistics {
  long steps = 0;               ///< committed steps (sub-steps included)
  long newton_iterations = 0;   ///< residual evaluations of the Newton iterations (a tangent re-evaluated at the same iterate for a fresh factorisation not counted)
  long factorizations = 0;      ///< factorised tangents of the Newton iterations (and the initial acceleration's mass)
  long reused_steps = 0;        ///< committed steps that started on the previous step's factor (FactorReuse)
  long subdivisions = 0;        ///< failed attempts that were halved
  long backtracks = 0;          ///< Newton updates halved by the line search
  long release_caps = 0;        ///< capped elements in the committed steps (System::correct_blend)
  long substepped = 0;          ///< steps solved again in sub-steps (System::substeps_wanted)
  long kept_plain = 0;          ///< of those, kept as the plain step (a sub-step failed)
  long newmark_resolves = 0;    ///< failed attempts from the constant-acceleration predictor solved again from the Newmark predictor
  int largest_substeps = 0;     ///< the most sub-steps one step was solved in
  /// The largest chord turn [deg] of a taut segment of an EI = 0 line in one committed solver
  /// step (System::turn_end; a re-solved step counts its sub-steps, not its plain step)
  double largest_turn_deg = 0;
};

/// Everything a stepper commits: the state, the force r(q, v) of the force blend at it, and
/// the prescribed kinematics of its time. Restoring it repeats the run bit for bit.
template <class System>
struct SystemStepperSnapshot {
  typename System::State state;
  VecX<typename System::Scalar> r0;
  typename System::Held held;
  VecX<typename System::Scalar> Ma0;  ///< the inertia force M a at the state
  /// The cross-step factor reuse's back-off (SystemStepperOptions::reuse_factor): steps left
  /// to skip, the present streak, the factorisations of the last fresh step.
  std::array<int, 3> reuse{0, 0, 0};
  /// How often lately the tangent was needed after a fresh update (SystemStepper's
  /// residual-first evaluation): part of the committed state, so a restart evaluates alike.
  double ahead = 1;
  /// The factorised tangent the next step would start from (reuse_factor on), with the dt it
  /// was formed for and the round-off floor of its Newton test: a restored stepper starts on
  /// it as the run that goes on does. has_factor false: none (save(), a partitioned scheme's
  /// rollback point within a step, leaves it out; the restored stepper factorises fresh).
  /// A factor whose matrix is assembled but not factorised (a state file's) is factorised
  /// again on restore: the factorisation is deterministic, the same factors bit for bit.
  std::shared_ptr<typename System::Jacobian> factor;
  bool has_factor = false;
  typename System::Scalar factor_dt{};
  double factor_floor = 0;
};

/// The generalised-alpha stepper of a system.
template <class System>
class SystemStepper {
 public:
  using T = typename System::Scalar;
  using State = typename System::State;
  using Held = typename System::Held;
  using Index = Eigen::Index;
  using Jacobian = typename System::Jacobian;

  SystemStepper(System& sys, SystemStepperOptions opt = {})
      : sys_(sys), opt_(opt), ga_(GeneralizedAlpha<T>::from_rho_inf(T(opt.rho_inf))),
        J_{sys.make_jacobian(), sys.make_jacobian()} {
    if (!(opt_.tol > 0)) throw InputError("stepper", "tol", opt_.tol, "> 0");
    if (opt_.max_iterations < 1) throw InputError("stepper", "max_iterations", opt_.max_iterations, ">= 1");
    if (opt_.max_subdivisions < 0) throw InputError("stepper", "max_subdivisions", opt_.max_subdivisions, ">= 0");
    if (opt_.max_backtracks < 0) throw InputError("stepper", "max_backtracks", opt_.max_backtracks, ">= 0");
    line_search_ = opt_.line_search == SystemStepperOptions::LineSearch::on;
    if constexpr (requires { sys.wants_line_search(); })
      if (opt_.line_search == SystemStepperOptions::LineSearch::automatic) line_search_ = sys.wants_line_search();
    if constexpr (!requires(Held& h) { h.blend(h, h, T(0)); })
      if (!opt_.force_blend)
        throw InputError("stepper", "force_blend", "false", "true (the system's prescribed kinematics have no blend())");
    reuse_ = opt_.reuse_factor == SystemStepperOptions::FactorReuse::on;
    if constexpr (requires { sys.wants_factor_reuse(); })
      if (opt_.reuse_factor == SystemStepperOptions::FactorReuse::automatic) reuse_ = sys.wants_factor_reuse();
  }

  /// Starts from state s (q, v given; the prescribed kinematics those the system holds): the
  /// initial acceleration solves M a0 = -r(q0, v0) - (M a)(a = 0) (the inertia of the
  /// prescribed accelerations in the balance). Sizes every workspace.
  void initialize(const State& s) {
    const Index n = sys_.dofs();
    if (s.q.size() != n || s.v.size() != n)
      throw InputError("stepper", "state size", s.q.size(), "== " + std::to_string(n) + " DOFs");
    sys_.check_state(s);
    x_ = s;
    x_.a.setZero(n);
    trial_ = x_;
    base_ = x_;
    plain_ = x_;
    plain_r0_.setZero(n);
    plain_Ma0_.setZero(n);
    r0_.setZero(n);
    Ma0_.setZero(n);
    base_Ma0_.setZero(n);
    r_.setZero(n);
    Ma_.setZero(n);
    G_.setZero(n);
    dG_.setZero(n);
    if constexpr (requires { sys_.blends_mass(); }) blend_mass_ = sys_.blends_mass();
    dq_.setZero(n);
    base_r0_.setZero(n);
    sys_.get_held(h0_);
    sys_.get_held(h1_);
    sys_.get_held(hs0_);
    sys_.get_held(hs1_);
    sys_.get_held(ha_);
    sys_.get_held(hi0_);
    sys_.get_held(hi1_);
    xa_ = x_;
    scale_ = sys_.force_scale(s);
    // The line search and the seabed's update limit per connected component of the system
    // (System::dof_components(): its tangent is block-diagonal over them, so each component's
    // update is a Newton update of its own): lines between held points are searched apart,
    // and one line's halving or landing does not cut
    // another's update. Sized here; a step allocates nothing.
    comp_.clear();
    std::size_t nc = 0;
    if constexpr (requires { sys_.dof_components(); }) {
      if (opt_.search_components && sys_.n_components() > 1) {
        comp_ = sys_.dof_components();
        nc = static_cast<std::size_t>(sys_.n_components());
      }
    }
    g2c_.assign(nc, 0.0);
    g2c_prev_.assign(nc, 0.0);
    lim_c_.assign(nc, 1.0);
    back_c_.assign(nc, 0);
    halve_c_.assign(nc, 0);
    rejected_.reserve(480);  // a rejection's reason, kept without allocating in a step
    // The predictor's rule (constant_acceleration_predictor): the system's answers, once.
    predictor_rule_ = newmark_only_ = false;
    balance_rows_.assign(static_cast<std::size_t>(n), 1);
    if constexpr (requires { sys_.wants_newmark_predictor(); }) {
      predictor_rule_ = true;
      newmark_only_ = sys_.wants_newmark_predictor();
      if constexpr (requires { sys_.translational_dof(Index(0)); })
        for (Index i = 0; i < n; ++i) balance_rows_[static_cast<std::size_t>(i)] = sys_.translational_dof(i) ? 1 : 0;
    }
    // M a0 = -r(q0, v0) - (M a)(a = 0): the inertia of the prescribed accelerations (held line
    // ends, a pin the host or a parent body moves) is part of the balance.
    work().set_zero();
    sys_.inertia(x_, Ma_, &work(), T(1), T(0));
    sys_.dynamic_residual(x_, r0_, nullptr, T(0), T(0));
    x_.a = -(r0_ + Ma_);
    work().solve(x_.a);
    have_factor_ = false;  // the mass's factors, not a tangent's
    ahead_ = 1;
    reuse_state_ = {0, 0, 0};
    ++stats_.factorizations;
    Ma0_ = -r0_;  // the whole inertia force, (M a)(a0) = -r0
    initialized_ = true;
  }

  /// Advances by dt to t + dt. The system's prescribed kinematics must be those of t + dt
  /// (set_coupled / set_held) when called. Throws SolveError naming the time when a step
  /// still fails after max_subdivisions halvings; the committed state is then unchanged and
  /// the system's prescribed kinematics are restored to those of t.
  /// With substeps > 1 the step is divided into that many equal sub-steps (each committed in
  /// turn, the prescribed kinematics interpolated between t and t + dt as for a subdivided
  /// step; spec "Rigid-body time integration": the accuracy sub-steps of bodySubstep); a
  /// failure returns to the state at t.
  void step(const T& dt, int substeps = 1) {
    if (!initialized_) throw InputError("stepper", "state", "not initialised", "initialize() first");
    if (!(value_of(dt) > 0) || !is_finite(dt)) throw InputError("stepper", "dt", value_of(dt), "> 0");
    if (substeps < 1) throw InputError("stepper", "substeps", substeps, ">= 1");
    const SubnormalFlush flush(opt_.flush_subnormals);
    sys_.get_held(h1_);
    dt_ = dt;
    base_ = x_;
    base_r0_ = r0_;
    base_Ma0_ = Ma0_;
    base_reuse_ = reuse_state_;
    base_ahead_ = ahead_;
    caps_before_ = stats_.release_caps;
    turn_before_ = stats_.largest_turn_deg;
    try {
      if (substeps == 1) {
        advance(dt, 0, T(0), T(1));
        if constexpr (requires { sys_.substeps_wanted(x_, dt); }) resolve_in_substeps(dt);
      } else {
        const T h = dt / T(substeps);
        for (int k = 0; k < substeps; ++k)
          advance(h, 0, T(k) / T(substeps), k + 1 == substeps ? T(1) : T(k + 1) / T(substeps));
      }
    } catch (...) {
      x_ = base_;
      r0_ = base_r0_;
      Ma0_ = base_Ma0_;
      reuse_state_ = base_reuse_;
      ahead_ = base_ahead_;
      have_factor_ = false;
      stats_.largest_turn_deg = turn_before_;
      sys_.set_held(h0_);
      throw;
    }
    sys_.set_held(h1_);
    h0_.assign(h1_);
  }

  const State& state() const { return x_; }
  const SystemStepperStatistics& statistics() const { return stats_; }

  /// A copy of everything committed (a restart point), with the factor the next step would
  /// start from (SystemStepperOptions::reuse_factor, when on): a stepper restored from it
  /// takes the steps the run that goes on takes, bit for bit. Allocates (a restart point, not
  /// a step's).
  SystemStepperSnapshot<System> snapshot() const {
    SystemStepperSnapshot<System> s{x_, r0_, h0_, Ma0_, reuse_state_, ahead_, nullptr, false, T(0), 0.0};
    if (reuse_ && have_factor_) {
      s.factor = std::make_shared<Jacobian>(fac());
      s.has_factor = true;
      s.factor_dt = factor_dt_;
      s.factor_floor = fac_floor_;
    }
    return s;
  }
  /// A Jacobian shaped as this stepper's (a state file reads a saved factor's matrix into it).
  std::shared_ptr<Jacobian> make_factor_storage() const { return std::make_shared<Jacobian>(J_[0]); }
  /// Returns to a snapshot of this stepper (or of one built on an equal system): the next
  /// steps repeat those that followed it bit for bit. The system's prescribed kinematics are
  /// set to the snapshot's. Throws InputError for a snapshot of another size.
  void restore(const SystemStepperSnapshot<System>& s) {
    if (!initialized_) throw InputError("stepper", "state", "not initialised", "initialize() before restore()");
    bool held_size = true;
    if constexpr (requires { s.held.r.size(); }) held_size = s.held.r.size() == h0_.r.size();
    if (s.state.q.size() != x_.q.size() || s.r0.size() != r0_.size() || s.Ma0.size() != Ma0_.size() || !held_size)
      throw InputError("stepper", "snapshot size", s.state.q.size(), "== " + std::to_string(x_.q.size()) + " DOFs");
    // The factor first, checked and factorised on a copy: a snapshot whose factor is of another
    // system's shape, whose dt or floor is not sane or whose matrix cannot be factorised (a
    // corrupt state file) is refused with nothing changed. (A partitioned scheme's rollback,
    // save() then restore(), carries none: nothing is copied there.)
    std::optional<Jacobian> F;
    if (reuse_ && s.has_factor && s.factor) {
      const double fdt = static_cast<double>(value_of(s.factor_dt));
      if (!(std::isfinite(fdt) && fdt > 0)) throw InputError("stepper", "snapshot factor dt", fdt, "finite and > 0");
      if (!(std::isfinite(s.factor_floor) && s.factor_floor >= 0))
        throw InputError("stepper", "snapshot factor floor", s.factor_floor, "finite and >= 0");
      if constexpr (requires(const Jacobian& a) { a.same_shape(a); })
        if (!fac().same_shape(*s.factor))
          throw InputError("stepper", "snapshot factor", "of another system's shape", "a factor of this stepper's system");
      F.emplace(*s.factor);
      if constexpr (requires { F->factored(); }) {
        if (!F->factored()) {
          const SubnormalFlush flush(opt_.flush_subnormals);  // as the step that formed it
          try {
            F->factor();
          } catch (const SolveError& e) {
            throw InputError("stepper", "snapshot factor", e.what(), "a factorisable matrix (the saved run's)");
          }
        }
      }
    }
    x_ = s.state;
    r0_ = s.r0;
    Ma0_ = s.Ma0;
    h0_.assign(s.held);
    sys_.set_held(h0_);
    // The back-off as saved (clamped: a state file's values are not trusted to be sane).
    reuse_state_ = {std::clamp(s.reuse[0], 0, 32), std::clamp(s.reuse[1], 0, 32), std::max(s.reuse[2], 0)};
    ahead_ = std::isfinite(s.ahead) ? std::clamp(s.ahead, 0.0, 1.0) : 1.0;
    have_factor_ = false;  // without a factor in the snapshot the next step factorises fresh
    if (F) {
      fac() = std::move(*F);
      factor_dt_ = s.factor_dt;
      fac_floor_ = s.factor_floor;
      have_factor_ = true;
    }
  }
  /// Copies everything committed into s (a snapshot of this stepper taken before, so of the
  /// same sizes) without allocating: a partitioned scheme's rollback point within a step.
  void save(SystemStepperSnapshot<System>& s) const {
    s.state = x_;
    s.r0 = r0_;
    s.Ma0 = Ma0_;
    s.held.assign(h0_);
    s.reuse = reuse_state_;
    s.ahead = ahead_;
    s.has_factor = false;  // the stepper keeps its own; a restore from s factorises fresh
  }
  /// Takes the prescribed kinematics the system now holds as those of the committed state
  /// and evaluates its force r and inertia force M a of the force blend again with them: a
  /// partitioned scheme that corrects, after a step, the motion of objects it prescribed for
  /// the step (the staggered body scheme: spec "Rigid-body time integration", the
  /// end-of-step acceleration of a body) continues from the corrected state. The free DOFs'
  /// q, v and a are unchanged. Allocates nothing.
  void recommit_held() {
    if (!initialized_) throw InputError("stepper", "state", "not initialised", "initialize() first");
    sys_.get_held(h0_);
    sys_.inertia(x_, Ma0_, nullptr, T(0), T(0));
    sys_.dynamic_residual(x_, r0_, nullptr, T(0), T(0));
  }
  const GeneralizedAlpha<T>& params() const { return ga_; }
  double force_scale() const { return scale_; }

 private:
  // The system's sub-step policy after a converged plain step: solve the interval again from
  // the step start in n equal sub-steps (the prescribed kinematics interpolated), measure the
  // sub-stepped interval again and solve once more when it wants more; keep the plain step
  // when a sub-step fails.
  void resolve_in_substeps(const T& dt) {
    // The hooks read each state with the prescribed kinematics of its time.
    sys_.set_held(h0_);
    sys_.substeps_start(base_);
    sys_.set_held(h1_);
    int n = sys_.substeps_wanted(x_, dt);
    if (n <= 1) return;
    plain_ = x_;
    plain_r0_ = r0_;
    plain_Ma0_ = Ma0_;
    const auto plain_reuse = reuse_state_;
    const double plain_ahead = ahead_;
    const long caps_plain = stats_.release_caps;
    const double turn_plain = stats_.largest_turn_deg;
    auto solve = [&](int k) {
      x_ = base_;
      r0_ = base_r0_;
      Ma0_ = base_Ma0_;
      reuse_state_ = base_reuse_;
      ahead_ = base_ahead_;
      stats_.release_caps = caps_before_;
      stats_.largest_turn_deg = turn_before_;
      try {
        const T h = dt / T(k);
        for (int i = 0; i < k; ++i) advance(h, 0, T(i) / T(k), i + 1 == k ? T(1) : T(i + 1) / T(k));
        return true;
      } catch (const SolveError&) {
        return false;
      }
    };
    bool ok = solve(n);
    if (ok) {
      sys_.set_held(h1_);
      const int n2 = sys_.substeps_wanted(x_, dt);
      if (n2 > n) ok = solve(n = n2);
    }
    ++stats_.substepped;
    if (!ok) {
      x_ = plain_;
      r0_ = plain_r0_;
      Ma0_ = plain_Ma0_;
      reuse_state_ = plain_reuse;
      ahead_ = plain_ahead;
      have_factor_ = false;  // the sub-steps' factor is of another dt anyway
      stats_.release_caps = caps_plain;
      stats_.largest_turn_deg = turn_plain;
      ++stats_.kept_plain;
      return;
    }
    stats_.largest_substeps = std::max(stats_.largest_substeps, n);
  }

  // Steps from the committed state (at fraction tau0 of the whole step) by dt, subdividing
  // on failure.
  void advance(const T& dt, int depth, const T& tau0, const T& tau1) {
    rejected_.clear();
    if (attempt(dt, tau0, tau1, true)) return;
    // An attempt that started on the previous step's factor is tried once more on fresh ones.
    if (tried_reuse_) {
      have_factor_ = false;
      rejected_.clear();
      if (attempt(dt, tau0, tau1, true)) return;
    }
    // A failed attempt from the constant-acceleration predictor is solved again from the
    // Newmark predictor (spec "Newton iteration").
    if (used_ca_) {
      ++stats_.newmark_resolves;
      have_factor_ = false;  // fac() holds the failed attempt's tangent, at this dt
      rejected_.clear();
      if (attempt(dt, tau0, tau1, false)) return;
    }
    if (depth >= opt_.max_subdivisions) {
      // A converged iterate the system rejected (check_state: a tensile audit, a point above
      // the surface) is named: it, not the Newton iterations, stopped the step.
      if (!rejected_.empty())
        throw SolveError(sys_.name(), "the converged state of the step at t = " +
                                          to_text(static_cast<double>(value_of(x_.t))) + " s with dt = " +
                                          to_text(static_cast<double>(value_of(dt))) + " s",
                         "rejected (" + rejected_ + ")", "a state check_state accepts (after " + std::to_string(depth) + " halvings)");
      throw SolveError(sys_.name(), "Newton iterations of the step at t = " + to_text(static_cast<double>(value_of(x_.t))) +
                                        " s with dt = " + to_text(static_cast<double>(value_of(dt))) + " s",
                       opt_.max_iterations, "convergence (after " + std::to_string(depth) + " halvings)");
    }
    ++stats_.subdivisions;
    const T half = T(0.5) * dt, mid = T(0.5) * (tau0 + tau1);
    advance(half, depth + 1, tau0, mid);
    advance(half, depth + 1, mid, tau1);
  }

  // True when a step starts from the constant-acceleration predictor (spec "Newton iteration"):
  // with the force blend, for a system that does not ask for the Newmark predictor
  // (System::wants_newmark_predictor(): a MooringSystem without finite-EI lines), when the
  // committed acceleration balances the committed force over the translational rows
  // (System::translational_dof), ||M a_n + r_n||_inf <= 1/2 ||M a_n||_inf (a ringing
  // under-resolved mode otherwise keeps its extrapolated acceleration; the zero guess damps
  // it). A system without these hooks takes it always. The test reads only the committed
  // state (M a_n the inertia force held for the attempt), so a restart repeats it.
  // The system's answers are read once, at initialize (predictor_rule_, newmark_only_,
  // balance_rows_).
  bool constant_acceleration_predictor() const {
    if (!opt_.force_blend || newmark_only_) return false;
    if (!predictor_rule_) return true;
    double num = 0, den = 0;
    for (Index i = 0; i < x_.q.size(); ++i) {
      if (!balance_rows_[static_cast<std::size_t>(i)]) continue;
      num = std::max(num, std::fabs(static_cast<double>(value_of(Ma0_(i) + r0_(i)))));
      den = std::max(den, std::fabs(static_cast<double>(value_of(Ma0_(i)))));
    }
    return num <= 0.5 * den;
  }

  // One attempt from the committed state (from the constant-acceleration predictor where
  // constant_acceleration_predictor() and allow_ca); commits and returns true on convergence.
  bool attempt(const T& dt, const T& tau0, const T& tau1, bool allow_ca) {
    const auto& g = ga_;
    // Prescribed kinematics at the ends of this (sub-)step and the acceleration blend.
    hs0_.interpolate(h0_, h1_, tau0, dt_);
    hs1_.interpolate(h0_, h1_, tau1, dt_);
    // The prescribed accelerations of the inertia force at the (sub-)step's ends, moved to
    // t + (alpha_m - alpha_f) dt (Held::shift_accelerations), where the scheme's own
    // accelerations are: a system without the hook, or at rho_inf = 1, takes them as given.
    shifted_ = false;
    if constexpr (requires { hi1_.shift_accelerations(hs0_, hs1_, T(0)); }) {
      const T shift = g.alpha_m - g.alpha_f;
      if (value_of(shift) != 0) {
        hi0_.assign(hs0_);
        hi1_.assign(hs1_);
        shifted_ = hi0_.shift_accelerations(hs0_, hs1_, shift);
        hi1_.shift_accelerations(hs0_, hs1_, shift);
      }
    }
    const Held& inertia0 = shifted_ ? hi0_ : hs0_;
    const Held& inertia1 = shifted_ ? hi1_ : hs1_;
    // The bodies' mass blend (System::blend_mass): M0 and A0 of the committed state, with the
    // inertia's prescribed kinematics.
    if constexpr (requires { sys_.blend_mass_start(x_); }) {
      if (blend_mass_) {
        sys_.set_held(inertia0);
        sys_.blend_mass_start(x_);
        sys_.set_held(hs0_);
      }
    }

    // The trial starts as a copy of the committed state, so whatever else the state holds, a
    // body's orientation, is the committed one; its q is the predictor's (below).
    trial_ = x_;
    trial_.t = x_.t + dt;
    const T wm = g.mass_weight(dt), wv = (T(1) - g.alpha_f) * g.damping_weight(dt), wq = T(1) - g.alpha_f;
    if constexpr (requires { sys_.prepare_blend(x_); }) {
      if (opt_.force_blend) {
        sys_.set_held(hs0_);  // the committed state's own prescribed kinematics
        sys_.prepare_blend(x_);
      }
    }
    // A system that holds masses over a step (MooringSystem: a Hermite line's consistent mass,
    // spec "Added mass and fluid inertia") holds them at the committed state for this attempt,
    // and the committed inertia force of the blend is that mass's: M(q0) a0.
    struct ReleaseInertia {
      System& s;
      bool on;
      ~ReleaseInertia() {
        if constexpr (requires { s.release_inertia(); })
          if (on) s.release_inertia();
      }
    } release{sys_, false};
    // The chord-turn statistic's and the step check's step start, read with the start's
    // prescribed kinematics.
    if constexpr (requires { sys_.turn_start(x_); }) {
      sys_.set_held(hs0_);
      sys_.turn_start(x_);
    }
    if constexpr (requires { sys_.geometry_start(x_); }) {
      sys_.set_held(hs0_);
      sys_.geometry_start(x_);
    }
    if constexpr (requires { sys_.hold_inertia(x_); }) {
      sys_.set_held(hs0_);
      release.on = true;
      if (sys_.hold_inertia(x_)) {
        if (shifted_) sys_.set_held(inertia0);
        sys_.inertia(x_, Ma0_, nullptr, T(0), T(0));
        if (shifted_) sys_.set_held(hs0_);
      }
    }
    // Predictor (spec "Newton iteration"): constant acceleration, q + dt v + dt^2/2 a, when
    // the system takes it (constant_acceleration_predictor) and allow_ca; otherwise Newmark's,
    // q + dt v + dt^2 (1/2 - beta) a (the acceleration guess zero).
    used_ca_ = allow_ca && constant_acceleration_predictor();
    trial_.q = x_.q + dt * x_.v + (used_ca_ ? T(0.5) * dt * dt : dt * dt * (T(0.5) - g.beta)) * x_.a;
    // The configuration blend: the blended state starts as the committed one (its body
    // orientations), the prescribed kinematics at alpha blended between the (sub-)step's ends.
    if (!opt_.force_blend) {
      xa_ = x_;
      xa_.t = x_.t + (T(1) - g.alpha_f) * dt;
      if constexpr (requires { ha_.blend(hs0_, hs1_, T(0)); }) ha_.blend(hs0_, hs1_, T(1) - g.alpha_f);
    }
    long caps = 0;
    double gprev = std::numeric_limits<double>::infinity();
    double g2prev = std::numeric_limits<double>::infinity();  // ||G||_2 of the iterate before, for the line search
    int backtracks = 0;
    const bool per_comp = !comp_.empty();
    if (per_comp) {
      std::fill(g2c_prev_.begin(), g2c_prev_.end(), std::numeric_limits<double>::infinity());
      std::fill(back_c_.begin(), back_c_.end(), 0);
      std::fill(lim_c_.begin(), lim_c_.end(), 1.0);
    }
    bool limited = false;  // the last update stopped a node in the seabed blend: taken whole
    // The factor of the last factorisation lives in fac(), the tangent is assembled into
    // work(): a new tangent does not overwrite the factor until it is factorised itself.
    // Cross-step reuse: a step of the dt of the last factorisation starts on its factor.
    const bool try_reuse = reuse_ && have_factor_ && reuse_state_[0] == 0 && value_of(dt) == value_of(factor_dt_);
    tried_reuse_ = try_reuse;
    bool factored = try_reuse;  // fac() holds a factorisation usable in this attempt
    bool reusing = try_reuse;   // still on the previous step's factor
    int reuse_iters = 0, factorizations = 0;
    // The blended residual G at trial_ (with the tangent into work() when `tangent`).
    auto evaluate = [&](bool tangent) {
      Jacobian* J = tangent ? &work() : nullptr;
      if (tangent) work().set_zero();
      sys_.set_held(inertia1);
      sys_.inertia(trial_, Ma_, J, wm, T(1) - g.alpha_m);
      if constexpr (requires { sys_.blend_mass(trial_, g.alpha_m, g.alpha_f, wm, dG_, J); })
        if (blend_mass_) sys_.blend_mass(trial_, g.alpha_m, g.alpha_f, wm, dG_, J);
      if (shifted_) sys_.set_held(hs1_);
      if (!opt_.force_blend) {
        // The configuration blend: r at (q_alpha, v_alpha), d/dq1 of it with the same weights.
        xa_.q = (T(1) - g.alpha_f) * trial_.q + g.alpha_f * x_.q;
        xa_.v = (T(1) - g.alpha_f) * trial_.v + g.alpha_f * x_.v;
        xa_.a = (T(1) - g.alpha_m) * trial_.a + g.alpha_m * x_.a;
        sys_.set_held(ha_);
        sys_.dynamic_residual(xa_, r_, J, wq, wv);
        sys_.set_held(hs1_);
        G_ = (T(1) - g.alpha_m) * Ma_ + g.alpha_m * Ma0_ + r_;
        if (blend_mass_) G_ += dG_;
        return;
      }
      sys_.dynamic_residual(trial_, r_, J, wq, wv);
      G_ = (T(1) - g.alpha_m) * Ma_ + g.alpha_m * Ma0_ + (T(1) - g.alpha_f) * r_ + g.alpha_f * r0_;
      if (blend_mass_) G_ += dG_;
      if constexpr (requires { sys_.correct_blend(trial_, dt, g, G_, J); }) caps = sys_.correct_blend(trial_, dt, g, G_, J);
    };
    // The round-off floor of G: its inertia differences positions of size |q| through
    // a = (q - q*) / (beta dt^2), and its forces difference them through the stiffness, so each
    // row carries about eps |q| |S_ii| (large coordinates, a small dt, a light body). Measured
    // at the tangent of the iterate being tested (the last fresh one on a kept factor), not
    // the predictor's alone: the stiffness of an iterate can be orders above it (a node entering
    // the seabed's contact blend, whose damping force turns over 1e-6 m: at 1880 m depth one
    // ulp of z then moves the residual by 1e-2 N). A non-finite evaluation sets no floor.
    auto set_floor = [&] {
      double qmax = 1;
      for (Index i = 0; i < trial_.q.size(); ++i) qmax = std::max(qmax, std::fabs(static_cast<double>(value_of(trial_.q(i)))));
      const double floor = 8 * static_cast<double>(epsilon<T>()) * qmax * work().max_abs_diagonal();
      target_ = std::isfinite(floor) ? std::max(opt_.tol * scale_, floor) : opt_.tol * scale_;
      work_floor_ = target_;
    };
    for (int it = 0; it < opt_.max_iterations; ++it) {
      trial_.a = g.acceleration(trial_.q, x_.q, x_.v, x_.a, dt);
      trial_.v = g.velocity(trial_.a, x_.v, x_.a, dt);
      // Inertia force and forces at q1, v1, a1; on a reused factor the residual alone.
      const bool reuse = factored && (reusing || opt_.modified_newton);
      // After a fresh update the iterate usually passes the test when the steps converge in one
      // or two updates (a cable moving smoothly): its tangent, evaluated with the residual,
      // would go unused. Where the tangent was needed at such iterates less than half the time
      // lately (ahead_), the residual comes alone first and the tangent only when the iterate
      // fails the test without the round-off floor (then both again: one residual more). An
      // iterate is accepted alike either way (the lone residual passes only below tol s).
      const bool lazy = !reuse && it > 0 && ahead_ < 0.5;
      evaluate(!reuse && !lazy);
      ++stats_.newton_iterations;
      double gn = 0, g2 = 0;  // ||G||_inf (the Newton test), ||G||_2^2 (the line search)
      bool finite = true;
      auto measure = [&] {
        gn = g2 = 0;
        finite = true;
        if (per_comp) std::fill(g2c_.begin(), g2c_.end(), 0.0);
        for (Index i = 0; i < G_.size(); ++i) {
          const double v = std::fabs(static_cast<double>(value_of(G_(i))));
          finite = finite && std::isfinite(v);
          gn = std::max(gn, v);
          g2 += v * v;
          if (per_comp)
            g2c_[static_cast<std::size_t>(comp_[static_cast<std::size_t>(i)])] +=
                std::isfinite(v) ? v * v : std::numeric_limits<double>::infinity();
        }
      };
      measure();
      if (!reuse && it > 0) {
        const bool passed = finite && gn <= opt_.tol * scale_;
        ahead_ = 0.8 * ahead_ + (passed ? 0.0 : 0.2);
        if (lazy && !passed) {
          evaluate(true);
          measure();
        }
      }
      const bool tangent_here = !reuse && !(lazy && finite && gn <= opt_.tol * scale_);
      // A non-finite residual after an update (a collapsed element) is an increase for the
      // line search; otherwise the attempt fails.
      bool can_halve = backtracks < opt_.max_backtracks;
      if (per_comp && !finite) {
        can_halve = true;  // every component whose residual is not finite may still halve
        for (std::size_t c = 0; c < g2c_.size(); ++c)
          if (!std::isfinite(g2c_[c]) && back_c_[c] >= opt_.max_backtracks) can_halve = false;
      }
      if (!finite && !((reusing && it > 0) || (line_search_ && it > 0 && can_halve))) return false;
      if (!finite) gn = g2 = std::numeric_limits<double>::infinity();
      // On the previous step's factor the test takes the floor of that factor's tangent.
      if (it == 0) target_ = reusing ? std::max(opt_.tol * scale_, fac_floor_) : opt_.tol * scale_;
      if (tangent_here && finite) set_floor();
      // On the previous step's factor the iterate must reach 0.3 of the test (its updates
      // contract about tenfold: the next one would have been below the test anyway).
      if (finite && gn <= (reusing ? 0.3 : 1.0) * target_ && it > 0) {
        try {
          sys_.check_state(trial_);
        } catch (const SolveError& e) {
          rejected_.assign(e.what(), std::min<std::size_t>(std::strlen(e.what()), rejected_.capacity()));
          return false;
        }
        if constexpr (requires { sys_.step_rejection(trial_); }) {
          if (const char* why = sys_.step_rejection(trial_)) {
            rejected_.assign(why, std::min<std::size_t>(std::strlen(why), rejected_.capacity()));
            return false;
          }
        }
        if constexpr (requires { sys_.turn_end(trial_, dt); })
          stats_.largest_turn_deg = std::max(stats_.largest_turn_deg, sys_.turn_end(trial_, dt));
        x_ = trial_;  // whole-value commit (no allocation: equal sizes)
        sys_.commit(x_);
        if (opt_.force_blend) {
          r0_ = r_;
        } else {
          // The configuration blend reads no r0, but the committed state carries it as the
          // force blend does (a snapshot restored into a force-blend stepper, recommit_held):
          // the force at the committed state, with its prescribed kinematics (hs1_, held now).
          sys_.dynamic_residual(x_, r0_, nullptr, T(0), T(0));
        }
        Ma0_ = Ma_;
        ++stats_.steps;
        stats_.release_caps += caps;
        reuse_bookkeeping(try_reuse, factorizations);
        return true;
      }
      // An update on the previous step's factor that did not lower the residual is undone,
      // and the step goes on from the iterate before it with a fresh tangent.
      if (reusing && it > 0 && !(gn < gprev)) {
        trial_.q -= dq_;
        reusing = false;
        factored = false;
        limited = false;
        gprev = g2prev = std::numeric_limits<double>::infinity();
        if (per_comp) std::fill(g2c_prev_.begin(), g2c_prev_.end(), std::numeric_limits<double>::infinity());
        continue;
      }
      // Line search: an update that raised the residual is halved (a node cycling on and off
      // the seabed's penalty, a snap of a finite-EI line), up to max_backtracks times. The
      // residual is measured by its 2-norm here, which a turn of the frame leaves as it is (the
      // rows of a node or a body turn with it); the largest row would decide for a turned twin
      // of the system otherwise than for the system (docs/robustness.md, case 311's twin).
      // Per component, each whose ||G_c||_2 rose halves its own part of the update (an update
      // stopped in the seabed blend is taken whole there); the others keep theirs.
      if (line_search_ && per_comp && it > 0) {
        bool any = false;
        for (std::size_t c = 0; c < g2c_.size(); ++c) {
          halve_c_[c] = lim_c_[c] >= 1 && back_c_[c] < opt_.max_backtracks && g2c_[c] > g2c_prev_[c] &&
                        g2c_[c] > target_ * target_;
          if (halve_c_[c]) ++back_c_[c], ++stats_.backtracks, any = true;
        }
        if (any) {
          for (Index i = 0; i < dq_.size(); ++i)
            if (halve_c_[static_cast<std::size_t>(comp_[static_cast<std::size_t>(i)])]) {
              dq_(i) *= T(0.5);
              trial_.q(i) -= dq_(i);
            }
          continue;
        }
      } else if (line_search_ && g2 > g2prev && backtracks < opt_.max_backtracks && !limited) {
        dq_ *= T(0.5);
        trial_.q -= dq_;
        ++backtracks;
        ++stats_.backtracks;
        continue;
      }
      // Modified Newton: the factor of an earlier iterate while the residual falls to a
      // quarter or less at each iterate; otherwise the tangent at this iterate, factorised.
      // The previous step's factor: at most three iterations, each contracting fourfold.
      bool keep;
      if (reusing) {
        keep = reuse_iters < 3 && (it == 0 || gn <= 0.25 * gprev);
        if (keep) ++reuse_iters;
        else reusing = false;
      } else {
        keep = reuse && gn <= 0.25 * gprev;
      }
      gprev = gn;
      g2prev = g2;
      backtracks = 0;
      if (per_comp) {
        g2c_prev_ = g2c_;  // equal sizes: no allocation
        std::fill(back_c_.begin(), back_c_.end(), 0);
        std::fill(lim_c_.begin(), lim_c_.end(), 1.0);
      }
      limited = false;
      try {
        if (!keep) {
          if (reuse) {
            evaluate(true);  // the same iterate, its tangent now
            set_floor();
          }
          work().factor();
          if (reuse_) w_ = 1 - w_;  // the new factor is fac() now (one Jacobian without reuse)
          fac_floor_ = work_floor_;
          ++stats_.factorizations;
          ++factorizations;
          factored = true;
          have_factor_ = true;
          factor_dt_ = dt;
        }
        dq_ = -G_;
        fac().solve_factored(dq_);
      } catch (const SolveError&) {
        return false;
      }
      // An update that would carry a node from outside the seabed beyond its contact blend
      // stops it in the blend (System::update_limit), and is taken whole: the line search
      // would pull the node back out, where the next update limits it again.
      if constexpr (requires { sys_.update_limit(trial_, dq_, lim_c_.data()); }) {
        if (per_comp) {
          sys_.update_limit(trial_, dq_, lim_c_.data());
          for (Index i = 0; i < dq_.size(); ++i) {
            const double lim = lim_c_[static_cast<std::size_t>(comp_[static_cast<std::size_t>(i)])];
            if (lim < 1) dq_(i) *= T(lim), limited = true;
          }
        }
      }
      if constexpr (requires { sys_.update_limit(trial_, dq_); }) {
        if (!per_comp) {
          const double lim = sys_.update_limit(trial_, dq_);
          if (lim < 1) {
            dq_ *= T(lim);
            limited = true;
          }
        }
      }
      trial_.q += dq_;
    }
    return false;
  }

  System& sys_;
  SystemStepperOptions opt_;
  GeneralizedAlpha<T> ga_;
  // The cross-step reuse's back-off after a committed step (SystemStepperOptions::reuse_factor):
  // a step that tried the previous factor and needed as many factorisations as the last fresh
  // step saved nothing, so the following steps factorise fresh for 1, 2, 4 ... 32 steps.
  void reuse_bookkeeping(bool tried, int factorizations) {
    if (!reuse_) return;
    auto& [skip, streak, last_fresh] = reuse_state_;
    if (skip > 0) --skip;
    if (tried) {
      ++stats_.reused_steps;
      if (factorizations >= std::max(1, last_fresh)) {
        streak = std::min(streak == 0 ? 1 : 2 * streak, 32);
        skip = streak;
      } else {
        streak = 0;
      }
    } else if (factorizations > 0) {
      last_fresh = factorizations;
    }
  }
  Jacobian& work() { return J_[w_]; }
  Jacobian& fac() { return J_[reuse_ ? 1 - w_ : w_]; }
  const Jacobian& fac() const { return J_[reuse_ ? 1 - w_ : w_]; }

  // The tangent being assembled (work) and the last factor (fac): two Jacobians with the
  // cross-step reuse (a new tangent must not overwrite the factor a next step may start
  // from), one without (J_[1] unused: the factor stays where the tangent was assembled, as
  // before the reuse, and no second matrix shares the cache).
  typename System::Jacobian J_[2];
  int w_ = 0;
  bool reuse_ = false;        // cross-step factor reuse on (SystemStepperOptions::reuse_factor)
  bool have_factor_ = false;  // fac() holds the factor of a tangent of dt factor_dt_
  T factor_dt_ = T(0);
  std::array<int, 3> reuse_state_{0, 0, 0};  // skip, streak, last fresh step's factorisations
  // How often lately the tangent was needed at an iterate after a fresh update (a running mean
  // of 0 / 1, weight 0.2): below 0.5 the residual is evaluated alone first there. Part of the
  // snapshot, so a restored run evaluates as the one that goes on.
  mutable double ahead_ = 1;
  bool tried_reuse_ = false;   // the last attempt started on the previous step's factor
  bool used_ca_ = false;       // the last attempt started from the constant-acceleration predictor
  bool predictor_rule_ = false;      // the system has the predictor hooks (wants_newmark_predictor)
  bool newmark_only_ = false;        // ... and asks for the Newmark predictor at every step
  std::vector<char> balance_rows_;   // the rows of the balance test (translational_dof; all without it)
  double fac_floor_ = 0;       // the Newton test with the floor of fac()'s tangent
  double work_floor_ = 0;      // the same of the tangent in work()
  std::array<int, 3> base_reuse_{0, 0, 0};  // the back-off at the step start (a failed step restores it)
  double base_ahead_ = 1;
  State x_, trial_, base_, plain_;
  VecX<T> r0_, r_, Ma_, G_, dq_, base_r0_, Ma0_, base_Ma0_, plain_r0_, plain_Ma0_;
  long caps_before_ = 0;  // the release-cap count at the step start (a re-solved step counts its own)
  double turn_before_ = 0;  // the largest chord turn at the step start (likewise)
  Held h0_, h1_, hs0_, hs1_, ha_;  // ha_: the configuration blend's prescribed kinematics at alpha
  Held hi0_, hi1_;                 // the inertia's prescribed kinematics (accelerations shifted)
  bool shifted_ = false;           // this attempt's inertia takes hi0_, hi1_
  bool blend_mass_ = false;        // the system blends its bodies' masses (System::blends_mass)
  VecX<T> dG_;                     // their correction of the residual
  State xa_;                        // the configuration blend's state at alpha
  T dt_ = T(0);  // the whole step's dt (the prescribed kinematics' interval)
  double scale_ = 1;
  double target_ = 0;  // the Newton test of the attempt: tol s, or the round-off floor above it
  std::string rejected_;  // why check_state rejected the last attempt's converged iterate (empty: it did not)
  bool initialized_ = false;
  bool line_search_ = false;
  // Per connected component (empty: one component): each DOF's, and the attempt's ||G_c||_2^2
  // now and at the iterate before, the update limit, halvings of the update, halve now.
  std::vector<int> comp_;
  std::vector<double> g2c_, g2c_prev_, lim_c_;
  std::vector<int> back_c_;
  std::vector<char> halve_c_;
  SystemStepperStatistics stats_;
};

}  // namespace cabledyn
