// cabledyn: the implicit generalised-alpha march of one line (EI = 0 or cubic-Hermite).
// Spec "Time integration" (the scheme, the force and configuration blends, the predictors,
// Newton iterations and their convergence rules, modified Newton, the reuse of a factorised
// tangent, adaptive step subdivision, the release cap of the force blend), "Added mass and
// fluid inertia", "Seabed contact" (normal law and damping in the march), "Prescribed
// motion", "Tension and coupled loads", "Linear algebra" (band storage, workspaces sized once:
// a step allocates nothing on the heap).
//
// State: q, v, a of every DOF (the held end DOFs carry the prescribed kinematics) and the
// committed force r_n = r(q_n, v_n) of the force blend, where
//   r(q, v) = f_int(q) + f_damping(q, v) - f_ext(q, v)
// (f_ext: submerged weight, seabed contact and damping, Morison drag and Froude-Krylov with
// the fluid field held over the step, the buoyancy lost above the surface), so that the
// equation of motion is M a + r = 0 on the free DOFs, M the structural plus added mass.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cabledyn/core/pack.hpp"
#include "cabledyn/dynamics/generalized_alpha.hpp"
#include "cabledyn/line/element_loads.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/line/line_constraints.hpp"
#include "cabledyn/line/line_mass.hpp"
#include "cabledyn/line/line_statics_model.hpp"
#include "cabledyn/linalg/band_lu.hpp"
#include "cabledyn/sea/fluid_field.hpp"
#include "cabledyn/seabed/contact.hpp"
#include "cabledyn/statics/tensile_audit.hpp"

namespace cabledyn {

namespace detail {
/// Two Hermite elements of a line that one pack evaluation may share: equal element
/// parameters, submerged weight and Morison coefficients.
inline bool equal_elements(const Line& line, std::size_t a, std::size_t b) {
  const auto& p = line.hermite_element(a).params();
  const auto& o = line.hermite_element(b).params();
  const auto ma = line.morison(a), mb = line.morison(b);
  return p.L0 == o.L0 && p.EA == o.EA && p.EI == o.EI && p.BA == o.BA && p.rho_A == o.rho_A &&
         p.axial_order == o.axial_order && p.bending_order == o.bending_order && line.w(a) == line.w(b) &&
         ma.d == mb.d && ma.Cdn == mb.Cdn && ma.Cdt == mb.Cdt && ma.Can == mb.Can && ma.Cat == mb.Cat &&
         ma.rho == mb.rho;
}
}  // namespace detail

/// Prescribed kinematics of a held line end at one time.
struct EndMotion {
  Vec3<double> x = Vec3<double>::Zero();  ///< position [m]
  Vec3<double> v = Vec3<double>::Zero();  ///< velocity [m/s]
  Vec3<double> a = Vec3<double>::Zero();  ///< acceleration [m/s^2]
};
using EndMotions = std::array<EndMotion, 2>;

/// The fluid field of a step, sampled per node (velocity and local acceleration) and held
/// over the step (spec "Time integration": the fluid fields are held over the step).
struct HeldFluid {
  std::vector<Vec3<double>> u;     ///< fluid velocity at each node [m/s]
  std::vector<Vec3<double>> udot;  ///< local fluid acceleration at each node [m/s^2]
};

/// Options of the march (deck OPTIONS names in brackets).
struct DynamicOptions {
  double rho_inf = 0.4;           ///< spectral radius at infinite frequency [rhoInf]
  bool force_blend = true;        ///< [alpha_force_blend]
  double rel_tol = 1e-8;          ///< [dynamic_solver rel]
  double abs_tol = 1e-14;         ///< [dynamic_solver abs]
  int max_iterations = 30;        ///< [dynamic_solver max_iter]
  int max_backtracks = 12;        ///< [dynamic_solver backtracks]
  bool modified_newton = false;   ///< [modified_newton]
  bool reuse_factor = true;       ///< Hermite: start from the previous step's factorised tangent
  int max_substeps = 1024;        ///< [recovery_max_substeps] 4 ... 65536
  bool release_cap = true;        ///< EI = 0, force blend: cap the blended force of a releasing element
  std::optional<double> seabed_z; ///< flat seabed (none: no seabed)
  SeabedParams seabed;            ///< kBot, cBot
  double surface_z = 0;           ///< still-water level
  bool tensile_safety = false;    ///< Hermite: a step whose element-mean force is compressed fails (error mode)
  /// Hermite: evaluate runs of kPackLanes equal, wholly submerged elements at once on SIMD
  /// packs (core/pack.hpp); off: one element at a time. Each lane repeats the one-element
  /// arithmetic, so the two agree to round-off.
  bool pack_elements = true;
  double tensile_strain_tolerance = 2e-6;  ///< [tensile_strain_tolerance]
  /// [ei0_substeps] auto (true, the spec's default) / off: EI = 0 rotation- and snap-resolved
  /// sub-steps. The deck rule "False alpha_force_blend turns it off unless the deck sets it"
  /// is the driver's; a library user who clears force_blend sets this as wanted.
  bool ei0_substeps = true;
  int ei0_substep_max = 16;       ///< [ei0_substep_max] 4 ... 65536
  double ei0_substep_angle = 1.0; ///< [ei0_substep_angle] chord turn per step that triggers them [deg], in (0, 90]

  void validate(const std::string& object) const {
    if (!(rho_inf >= 0 && rho_inf <= 1)) throw InputError(object, "rhoInf", rho_inf, "in [0, 1]");
    if (!(rel_tol > 0)) throw InputError(object, "dynamic_solver relative tolerance", rel_tol, "> 0");
    if (!(abs_tol >= 0)) throw InputError(object, "dynamic_solver absolute tolerance", abs_tol, ">= 0");
    if (max_iterations < 1) throw InputError(object, "dynamic_solver max_iter", max_iterations, ">= 1");
    if (max_backtracks < 0) throw InputError(object, "dynamic_solver backtracks", max_backtracks, ">= 0");
    if (max_substeps < 4 || max_substeps > 65536)
      throw InputError(object, "recovery_max_substeps", max_substeps, "in [4, 65536]");
    if (ei0_substep_max < 4 || ei0_substep_max > 65536)
      throw InputError(object, "ei0_substep_max", ei0_substep_max, "in [4, 65536]");
    if (!(ei0_substep_angle > 0 && ei0_substep_angle <= 90))
      throw InputError(object, "ei0_substep_angle", ei0_substep_angle, "in (0, 90] deg");
    seabed.validate(object);
  }
};

/// The committed state of a line's march (a snapshot is a copy of it).
struct LineDynamicState {
  double t = 0;
  VecX<double> q, v, a;   ///< positions (and tangents), velocities, accelerations
  VecX<double> r;         ///< committed force r(q_n, v_n) with the last held fluid field
  double initial_tension = 0;  ///< EI = 0: the largest element tension of the initial state [N]
  // Factor reuse across steps (Hermite): part of the state so a restart repeats it.
  bool have_factor = false;              ///< `factor` holds the last step's tangent
  int reuse_skip = 0;                    ///< steps left that factorise fresh
  int reuse_streak = 0;                  ///< length of the current back-off (1, 2, 4, ... 32)
  int last_fresh_factorizations = 0;     ///< factorisations of the last fresh step
  double newton_rate = 0;                ///< c of n_{k+1} = c n_k^2 (tolerance units) on the last fresh step; 0: unknown
  /// How often a tangent evaluated ahead with a trial would be factorised, after a fresh
  /// factorisation [0] and on the reused factor [1]: a running mean (weight 1/5 on the last
  /// outcome) that decides whether the march evaluates ahead (above 3/4).
  std::array<double, 2> ahead_use{1.0, 1.0};
  BandLU<double> factor;                 ///< the reusable factorised tangent
};

/// Counters of the march for the run summary.
struct StepStatistics {
  long steps = 0;
  long subdivided_intervals = 0;
  int largest_subdivision = 1;
  long newton_iterations = 0;
  long factorizations = 0;
  long force_evaluations = 0;    ///< the march's evaluations of r(q, v) without its Jacobians
  long tangent_evaluations = 0;  ///< the march's evaluations of r(q, v) with its Jacobians
                                 ///< (outputs such as end_force() and force() not counted)
  long unused_tangents = 0;  ///< tangent evaluations made ahead with a trial and then not factorised
  long release_caps = 0;   ///< committed element steps whose blended force the release cap limited
  // EI = 0 rotation- and snap-resolved sub-steps (spec "Rotation- and snap-resolved sub-steps").
  long ei0_substepped = 0;       ///< steps solved again in sub-steps
  int ei0_largest_count = 0;     ///< the largest sub-step count used
  long ei0_capped = 0;           ///< steps whose turn asked for more than ei0_substep_max
  long ei0_kept_plain = 0;       ///< steps that kept the plain step (a sub-step did not converge)
  double largest_turn_deg = 0;   ///< EI = 0: largest chord turn of a taut segment in one solver step [deg]
  /// EI = 0, force blend: energy the element forces (elastic and dashpot) created over the
  /// run [J], the sum over committed steps and elements of max(0, W - (U_n - U_{n+1})), W the
  /// work of the element's blended force on its nodes (spec "Release cap"). On an undamped
  /// line it is round-off with the cap. With a dashpot it also counts the step-by-step
  /// exchange of the generalised-alpha dashpot with the algorithmic state (dissipative over
  /// the run, not every step), so there it measures, but does not bound, the creation.
  double created_energy = 0;
};

/// The coupled end reaction -(M a + f_int - f_ext) at a held node and its derivatives with
/// respect to the node's prescribed position, velocity and acceleration, the free DOFs
/// statically condensed (spec "Tension and coupled loads").
struct EndReaction {
  Vec3<double> force;   ///< force the line exerts on the support [N]
  Mat3<double> J_x;     ///< d force / d x_c: -(K_cc - K_cf K_ff^-1 K_fc)
  Mat3<double> J_v;     ///< d force / d v_c: -Psi^T C Psi, Psi the quasi-static shape
  Mat3<double> J_a;     ///< d force / d a_c: -(M_cc - M_cf M_ff^-1 M_fc)
};

/// The generalised-alpha march of one line.
/// A class template with one defaulted, unused parameter; use it as `LineDynamics`, its only
/// instance. Its member bodies are then compiled only in the files that use them, which
/// keeps the headers that include this one cheap to compile.
template <class Unused = void>
class BasicLineDynamics {
  static constexpr int kLanes = kPackLanes<double>;  // elements per pack (SIMD width)
  using Pk = Pack<double, kLanes>;

 public:
  BasicLineDynamics(const Line& line, DynamicOptions opt = {})
      : line_(line),
        opt_(opt),
        ga_(GeneralizedAlpha<double>::from_rho_inf(opt.rho_inf)),
        cons_(line),
        n_(static_cast<Eigen::Index>(line.dofs())),
        kd_(line.half_bandwidth()),
        S_(n_, kd_, kd_),
        M_(n_, kd_, kd_),
        M_struct_(n_, kd_, kd_),
        lu_(n_, kd_, kd_, Backend::templated) {
    opt_.validate(line.name() + " dynamics");
    for (auto* v : {&G_, &r1_, &qt_, &qt2_, &dq_, &a1_, &v1_, &am_, &qa_, &va_, &Ma_, &q0_, &v0_, &a0_, &rtrial_, &rhs_})
      v->setZero(n_);
    rhs_mat_.setZero(n_, 1);
    still_.u.assign(line.n_nodes(), Vec3<double>::Zero());
    still_.udot.assign(line.n_nodes(), Vec3<double>::Zero());
    for (std::size_t e = 0; e < line.n_elements(); ++e) {
      kmax_ = std::max(kmax_, line.type(e).EA / line.L0(e));
      wmax_ = std::max(wmax_, std::fabs(line.w(e)) * line.L0(e));
    }
    for (int end = 0; end < 2; ++end)
      for (int k = 0; k < 3; ++k)
        end_pos_[static_cast<std::size_t>(3 * end + k)] = static_cast<Eigen::Index>(line.dof(line.end_node(end), k));
    held_x_.setZero(n_);
    held_v_.setZero(n_);
    held_a_.setZero(n_);
    kept_.assign(line.n_elements(), 0.0);
    if (!line.hermite()) cap_start_.resize(line.n_elements());
    audit_work_.assign(line.n_elements(), 0.0);
    // Runs of kLanes Hermite elements with equal element parameters, weight and Morison
    // coefficients share one pack evaluation.
    pack_run_.assign(line.n_elements(), 0);
    for (std::size_t e = 0; line.hermite() && e + kLanes <= line.n_elements(); ++e) {
      bool same = true;
      for (std::size_t l = 1; l < kLanes && same; ++l) same = detail::equal_elements(line, e, e + l);
      pack_run_[e] = same;
    }
    // The structural consistent mass is constant: assembled once (the added mass is added
    // per step, Hermite, or per residual, EI = 0).
    M_struct_.set_zero();
    line_mass<double>(line_, VecX<double>::Zero(n_), M_struct_, false, opt_.surface_z);
    // The step-start and plain-step copies of the state, sized here (a step allocates nothing).
    for (LineDynamicState* st : {&start_, &plain_})
      for (VecX<double>* v : {&st->q, &st->v, &st->a, &st->r}) v->setZero(n_);
  }

  const Line& line() const { return line_; }
  const DynamicOptions& options() const { return opt_; }
  const LineDynamicState& state() const { return s_; }
  const StepStatistics& statistics() const { return stats_; }

  /// Start the march at t0 from positions q0 (a static equilibrium), the ends at rest or
  /// moving with `ends`: v = 0 on the free DOFs, the held DOFs at the prescribed kinematics,
  /// and the initial acceleration M_ff a_f = f_f - M_fp a_p (spec "Prescribed motion": an
  /// accelerated fairlead loads the adjacent free DOFs through the consistent mass).
  void initialize(double t0, const VecX<double>& q0, const EndMotions& ends, const HeldFluid* fluid = nullptr) {
    if (q0.size() != n_) throw InputError(line_.name(), "initial state size", q0.size(), "line DOFs");
    s_ = LineDynamicState{};
    s_.factor = BandLU<double>(n_, kd_, kd_, Backend::templated);
    s_.t = t0;
    s_.q = q0;
    s_.v = VecX<double>::Zero(n_);
    s_.a = VecX<double>::Zero(n_);
    set_ends(s_.q, s_.v, s_.a, ends);
    cons_.apply_rigid(line_, s_.q);
    fluid_ = fluid ? fluid : &still_;
    check_fluid(*fluid_);
    s_.r = VecX<double>::Zero(n_);
    if (!line_.hermite())
      for (std::size_t e = 0; e < line_.n_elements(); ++e)
        s_.initial_tension = std::max(s_.initial_tension, segment_tension(s_.q, e));
    evaluate(s_.q, s_.v, s_.r, nullptr, 0, 0);
    solve_initial_acceleration();
  }

  /// Advance to t + dt with the held ends on their target kinematics at t + dt. Throws
  /// SolveError (naming the line, the time and the finest subdivision) when the step cannot
  /// converge; the committed state is then unchanged (positions, velocities, accelerations,
  /// forces, time; the cached factorised tangent may be dropped, and the next step then
  /// factorises fresh).
  void step(double dt, const EndMotions& target, const HeldFluid* fluid = nullptr) {
    if (!(dt > 0 && std::isfinite(dt))) throw InputError(line_.name(), "dt", dt, "> 0");
    if (s_.q.size() != n_) throw InputError(line_.name(), "state", "uninitialised", "initialize() first");
    fluid_ = fluid ? fluid : &still_;
    check_fluid(*fluid_);
    // r_n (spec "Time integration"): EI = 0, evaluated afresh at the committed state with the
    // step's held fluid (both shares of the force blend see the held field); Hermite, the
    // previous step's converged force, reused (it is part of the committed state, so a restart
    // reuses it too).
    if (!line_.hermite() || !opt_.force_blend) {
      evaluate(s_.q, s_.v, s_.r, nullptr, 0, 0);
      ++stats_.force_evaluations;
    }
    copy_march_state(start_, s_);  // the step-start state, without the factor (a cache)
    factor_swapped_ = false;
    const LineDynamicState& start = start_;
    const double created0 = stats_.created_energy, turn0 = stats_.largest_turn_deg;
    const long caps0 = stats_.release_caps;
    if (try_step(dt, target)) {
      if (!line_.hermite() && opt_.ei0_substeps) resolve_turn(dt, target, created0, turn0, caps0);
      ++stats_.steps;
      return;
    }
    // Adaptive step subdivision: 4, 16, 64, ... substeps on the quintic trajectory.
    const EndMotions from = current_ends();
    for (int n = 4; n <= opt_.max_substeps; n *= 4) {
      rollback();
      bool ok = true;
      for (int k = 1; k <= n && ok; ++k) {
        const double tau = double(k) / n;
        const EndMotions mid = k == n ? target : quintic(from, target, dt, tau);
        ok = try_step(dt / n, mid);  // each commit leaves r(q, v) with the held fluid in s_.r
      }
      if (ok) {
        ++stats_.steps;
        ++stats_.subdivided_intervals;
        stats_.largest_subdivision = std::max(stats_.largest_subdivision, n);
        return;
      }
    }
    rollback();
    throw SolveError(line_.name() + " at t = " + to_text(start.t + dt),
                     "generalised-alpha step (subdivided down to " + std::to_string(opt_.max_substeps) + " substeps)",
                     "no convergence", "a converged step");
  }

  /// Restore a snapshot (a copy of state()): a restart repeats the run bit for bit.
  void restore(const LineDynamicState& snapshot) {
    if (snapshot.q.size() != n_) throw InputError(line_.name(), "snapshot size", snapshot.q.size(), "line DOFs");
    s_ = snapshot;
  }

  /// Force the line exerts on a held end's support [N]: the line-end force, the end element's
  /// internal force plus the end node's share of the external loads (FairTen / AnchTen).
  Vec3<double> end_force(int end) {
    VecX<double>& f = rtrial_;
    eval_parts(s_.q, s_.v, f, /*inertia*/ false);
    return -f.segment<3>(static_cast<Eigen::Index>(line_.dof(line_.end_node(end), 0)));
  }

  /// The coupled reaction -(M a + f_int - f_ext) at a held end with its condensed derivatives.
  EndReaction coupled_reaction(int end) {
    const std::size_t node = line_.end_node(end);
    const auto c0 = static_cast<Eigen::Index>(line_.dof(node, 0));
    // Matrices at the committed state (dense copies: a diagnostic, not in the step).
    assemble_mass(s_.q);
    const MatX<double> M = M_.to_dense();
    BandMatrix<double> Kb(n_, kd_, kd_), Cb(n_, kd_, kd_);
    VecX<double> r(n_);
    evaluate_split(s_.q, s_.v, r, Kb, Cb);
    const MatX<double> K = Kb.to_dense(), C = Cb.to_dense();
    EndReaction out;
    out.force = -(M * s_.a + r).segment<3>(c0);
    // Free DOFs: not held.
    std::vector<Eigen::Index> f;
    for (Eigen::Index i = 0; i < n_; ++i)
      if (!cons_.held(i)) f.push_back(i);
    const Eigen::Index nf = static_cast<Eigen::Index>(f.size());
    auto sub = [&](const MatX<double>& A, const std::vector<Eigen::Index>& rows, const std::vector<Eigen::Index>& cols) {
      MatX<double> B(rows.size(), cols.size());
      for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t j = 0; j < cols.size(); ++j) B(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = A(rows[i], cols[j]);
      return B;
    };
    const std::vector<Eigen::Index> c = {c0, c0 + 1, c0 + 2};
    const MatX<double> Kff = sub(K, f, f), Kfc = sub(K, f, c), Kcf = sub(K, c, f), Kcc = sub(K, c, c);
    const MatX<double> Mff = sub(M, f, f), Mfc = sub(M, f, c), Mcf = sub(M, c, f), Mcc = sub(M, c, c);
    (void)nf;
    const MatX<double> X = Kff.fullPivLu().solve(Kfc);
    out.J_x = -(Kcc - Kcf * X);
    MatX<double> Psi(f.size() + 3, 3);
    // Psi = [I; -Kff^-1 Kfc] over (c, f).
    std::vector<Eigen::Index> cf = c;
    cf.insert(cf.end(), f.begin(), f.end());
    Psi.topRows(3).setIdentity();
    Psi.bottomRows(f.size()) = -X;
    const MatX<double> Ccf = sub(C, cf, cf);
    out.J_v = -(Psi.transpose() * Ccf * Psi);
    out.J_a = -(Mcc - Mcf * Mff.fullPivLu().solve(Mfc));
    return out;
  }

  /// The committed state's force residual r(q, v) (for outputs).
  void residual_force(VecX<double>& r) { evaluate(s_.q, s_.v, r, nullptr, 0, 0); }

  /// The force r(q, v) = f_int + f_damping - f_ext the march evaluates, with the held fluid
  /// of the last step, and when S is given S += wq dr/dq + wv dr/dv in band storage (the
  /// line's half-bandwidth). For kernel benchmarks and tangent checks.
  void force(const VecX<double>& q, const VecX<double>& v, VecX<double>& r, BandMatrix<double>* S = nullptr,
             double wq = 1, double wv = 0) {
    if (q.size() != n_ || v.size() != n_ || r.size() != n_)
      throw InputError(line_.name(), "force: vector size", q.size(), "line DOFs");
    if (S && (S->rows() != n_ || S->kl() != kd_ || S->ku() != kd_))
      throw InputError(line_.name(), "force: band matrix size", S->rows(), "line DOFs and half-bandwidth");
    evaluate(q, v, r, S, wq, wv);
  }

 private:
  // ---- the committed state ------------------------------------------------------------
  // Copy of the march state without the factorised tangent (a cache of the last tangent,
  // which a rollback discards: the next attempt factorises fresh; the path stays a function
  // of the committed state, so a restart repeats it).
  static void copy_march_state(LineDynamicState& dst, const LineDynamicState& src) {
    dst.t = src.t;
    dst.q = src.q;  // copy-assigned into storage of the same size: no allocation
    dst.v = src.v;
    dst.a = src.a;
    dst.r = src.r;
    dst.initial_tension = src.initial_tension;
    dst.have_factor = src.have_factor;
    dst.reuse_skip = src.reuse_skip;
    dst.reuse_streak = src.reuse_streak;
    dst.last_fresh_factorizations = src.last_fresh_factorizations;
    dst.newton_rate = src.newton_rate;
    dst.ahead_use = src.ahead_use;
  }
  // Back to the step-start state (full rollback: positions, velocities, accelerations, the
  // committed force and the reuse bookkeeping); the factor is dropped unless untouched.
  void rollback() {
    copy_march_state(s_, start_);
    if (factor_swapped_) s_.have_factor = false;
  }

  // ---- EI = 0 rotation- and snap-resolved sub-steps --------------------------------------
  // Elastic tension of segment e at q [N] (0 when slack).
  double segment_tension(const VecX<double>& q, std::size_t e) const {
    const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
    return std::max(line_.tension_element(e).tension<double>(Vec<double, 6>(q.segment<6>(i0))), 0.0);
  }
  // The trigger of the spec: the largest chord turn [deg] over [q0, q1] of a segment that ends
  // above 1e-3 T_max, and whether a segment slack at q0 ends above T_max/4 while the axial wave
  // crosses it more than once in dt (dt c / l0 > 1, c = sqrt(EA / rho_A)); T_max the largest
  // step-start tension, at least 1e-3 of the line's initial tension.
  struct Turn {
    double theta = 0;
    bool snap = false;
  };
  Turn measure_turn(const VecX<double>& q0, const VecX<double>& q1, double dt) const {
    double Tmax = 1e-3 * s_.initial_tension;
    for (std::size_t e = 0; e < line_.n_elements(); ++e) Tmax = std::max(Tmax, segment_tension(q0, e));
    Turn out;
    for (std::size_t e = 0; e < line_.n_elements(); ++e) {
      const double T1 = segment_tension(q1, e);
      if (!(T1 > 1e-3 * Tmax)) continue;
      const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
      const Vec3<double> d0 = q0.segment<3>(i0 + 3) - q0.segment<3>(i0), d1 = q1.segment<3>(i0 + 3) - q1.segment<3>(i0);
      out.theta = std::max(out.theta, std::atan2(d0.cross(d1).norm(), d0.dot(d1)) * 180.0 / kPi);
      const auto& p = line_.tension_element(e).params();
      const double c = std::sqrt(p.EA / line_.type(e).rho_A);
      if (segment_tension(q0, e) <= 0 && T1 > 0.25 * Tmax && dt * c / p.L0 > 1) out.snap = true;
    }
    return out;
  }
  // Re-solve the interval from the step-start state in n equal sub-steps, the held ends on the
  // quintic trajectory of the recovery and the last sub-step on the target.
  bool solve_substeps(int n, double dt, const EndMotions& from, const EndMotions& target) {
    rollback();
    for (int k = 1; k <= n; ++k) {
      const EndMotions mid = k == n ? target : quintic(from, target, dt, double(k) / n);
      if (!try_step(dt / n, mid)) return false;
    }
    return true;
  }
  // After a converged plain EI = 0 step (spec "Rotation- and snap-resolved sub-steps"): when
  // a segment turned by more than ei0_substep_angle, or snapped taut while the axial wave is
  // not resolved, solve the interval again in n = max(4, ceil(theta/theta_s)) sub-steps (at
  // most ei0_substep_max); measure the sub-stepped interval again and solve once more when
  // its turn needs more sub-steps; keep the plain step when a sub-step does not converge.
  // The decision uses only the committed state, the step inputs and the initial tension.
  // The statistics count the sub-steps as the solver steps they are (created energy, largest
  // turn), or the plain step when it is kept.
  void resolve_turn(double dt, const EndMotions& target, double created0, double turn0, long caps0) {
    const Turn turn = measure_turn(start_.q, s_.q, dt);
    const double ts = opt_.ei0_substep_angle;
    if (!(turn.theta > ts || turn.snap)) return;
    bool capped = false;
    auto count = [&](double theta) {
      const double want = std::ceil(theta / ts);
      capped = capped || want > opt_.ei0_substep_max;
      return std::clamp(static_cast<int>(std::min(want, 1e9)), 4, opt_.ei0_substep_max);
    };
    copy_march_state(plain_, s_);
    const double plain_created = stats_.created_energy, plain_turn = stats_.largest_turn_deg;
    const long plain_caps = stats_.release_caps;
    const EndMotions from = ends_of(start_);
    stats_.created_energy = created0;
    stats_.largest_turn_deg = turn0;
    stats_.release_caps = caps0;
    int n = count(turn.theta);
    bool ok = solve_substeps(n, dt, from, target);
    if (ok) {
      const int n2 = count(measure_turn(start_.q, s_.q, dt).theta);
      if (n2 > n) {
        n = n2;
        stats_.created_energy = created0;
        stats_.largest_turn_deg = turn0;
        stats_.release_caps = caps0;
        ok = solve_substeps(n, dt, from, target);
      }
    }
    if (capped) ++stats_.ei0_capped;
    if (!ok) {
      copy_march_state(s_, plain_);
      if (factor_swapped_) s_.have_factor = false;
      stats_.created_energy = plain_created;
      stats_.largest_turn_deg = plain_turn;
      stats_.release_caps = plain_caps;
      ++stats_.ei0_kept_plain;
      return;
    }
    ++stats_.ei0_substepped;
    stats_.ei0_largest_count = std::max(stats_.ei0_largest_count, n);
  }

  // ---- ends ---------------------------------------------------------------------------
  void set_ends(VecX<double>& q, VecX<double>& v, VecX<double>& a, const EndMotions& ends) const {
    for (int end = 0; end < 2; ++end) {
      const auto i0 = static_cast<Eigen::Index>(line_.dof(line_.end_node(end), 0));
      q.segment<3>(i0) = ends[end].x;
      v.segment<3>(i0) = ends[end].v;
      a.segment<3>(i0) = ends[end].a;
    }
  }
  EndMotions current_ends() const { return ends_of(s_); }
  EndMotions ends_of(const LineDynamicState& st) const {
    EndMotions m;
    for (int end = 0; end < 2; ++end) {
      const auto i0 = static_cast<Eigen::Index>(line_.dof(line_.end_node(end), 0));
      m[end].x = st.q.segment<3>(i0);
      m[end].v = st.v.segment<3>(i0);
      m[end].a = st.a.segment<3>(i0);
    }
    return m;
  }
  /// Quintic (C2) trajectory between the interval-start and target kinematics at tau in [0, 1]
  /// (spec "Adaptive step subdivision").
  static EndMotions quintic(const EndMotions& a, const EndMotions& b, double dt, double tau) {
    EndMotions m;
    const double t = tau, t2 = t * t, t3 = t2 * t, t4 = t3 * t, t5 = t4 * t;
    // Quintic Hermite basis on [0, 1] for value, first and second derivative at both ends.
    const double h0 = 1 - 10 * t3 + 15 * t4 - 6 * t5, h1 = t - 6 * t3 + 8 * t4 - 3 * t5,
                 h2 = 0.5 * t2 - 1.5 * t3 + 1.5 * t4 - 0.5 * t5, h3 = 10 * t3 - 15 * t4 + 6 * t5,
                 h4 = -4 * t3 + 7 * t4 - 3 * t5, h5 = 0.5 * t3 - t4 + 0.5 * t5;
    const double d0 = -30 * t2 + 60 * t3 - 30 * t4, d1 = 1 - 18 * t2 + 32 * t3 - 15 * t4,
                 d2 = t - 4.5 * t2 + 6 * t3 - 2.5 * t4, d3 = 30 * t2 - 60 * t3 + 30 * t4,
                 d4 = -12 * t2 + 28 * t3 - 15 * t4, d5 = 1.5 * t2 - 4 * t3 + 2.5 * t4;
    const double s0 = -60 * t + 180 * t2 - 120 * t3, s1 = -36 * t + 96 * t2 - 60 * t3,
                 s2 = 1 - 9 * t + 18 * t2 - 10 * t3, s3 = 60 * t - 180 * t2 + 120 * t3,
                 s4 = -24 * t + 84 * t2 - 60 * t3, s5 = 3 * t - 12 * t2 + 10 * t3;
    for (int e = 0; e < 2; ++e) {
      const auto& A = a[e];
      const auto& B = b[e];
      m[e].x = h0 * A.x + h1 * dt * A.v + h2 * dt * dt * A.a + h3 * B.x + h4 * dt * B.v + h5 * dt * dt * B.a;
      m[e].v = (d0 * A.x + d1 * dt * A.v + d2 * dt * dt * A.a + d3 * B.x + d4 * dt * B.v + d5 * dt * dt * B.a) / dt;
      m[e].a = (s0 * A.x + s1 * dt * A.v + s2 * dt * dt * A.a + s3 * B.x + s4 * dt * B.v + s5 * dt * dt * B.a) / (dt * dt);
    }
    return m;
  }

  void check_fluid(const HeldFluid& f) const {
    if (f.u.size() != line_.n_nodes() || f.udot.size() != line_.n_nodes())
      throw InputError(line_.name(), "held fluid samples", f.u.size(), "one per node");
  }

  // ---- mass -----------------------------------------------------------------------------
  // M = the cached structural mass + the added mass of the wetted part at q.
  void assemble_mass(const VecX<double>& q) {
    scaled_copy(M_, M_struct_, 1.0);  // the band rows (no allocation)
    for (std::size_t e = 0; e < line_.n_elements(); ++e) {
      if (line_.hermite() && opt_.pack_elements && pack_run_[e] && hermite_added_mass_pack(e, q)) {
        e += kLanes - 1;
        continue;
      }
      const auto mc = line_.morison(e);
      const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
      if (line_.hermite())
        add_block(M_, line_.dof(e, 0), 12,
                  hermite_added_mass<double>(q.segment<12>(i0), mc, line_.L0(e), opt_.surface_z));
      else
        add_block(M_, line_.dof(e, 0), 6,
                  tension_added_mass<double>(q.segment<6>(i0), mc, line_.L0(e), opt_.surface_z));
    }
  }

  // The added mass of kLanes equal elements from e0 on a pack, added in element order; false
  // (nothing done) when one of them may reach the surface.
  bool hermite_added_mass_pack(std::size_t e0, const VecX<double>& q) {
    std::array<Eigen::Index, kLanes> i0{};
    Vec<Pk, 12> qe;
    if (!gather_submerged(e0, q, i0, qe)) return false;
    const Mat<Pk, 12> Ma = hermite_added_mass<Pk>(qe, line_.morison(e0), line_.L0(e0), opt_.surface_z);
    for (int l = 0; l < kLanes; ++l) add_block(M_, static_cast<std::size_t>(i0[static_cast<std::size_t>(l)]), 12, Ma, l);
    return true;
  }

  // ---- the force r(q, v) and its Jacobians ------------------------------------------------
  // r = f_int + f_damping - f_ext. When S is given, S += wq dr/dq + wv dr/dv.
  void evaluate(const VecX<double>& q, const VecX<double>& v, VecX<double>& r, BandMatrix<double>* S, double wq,
                double wv) {
    r.setZero();
    if (line_.hermite()) {
      // Runs of kPackLanes equal, wholly submerged elements in one pass on packs; the rest
      // (and every element with pack_elements off) one at a time. The order of the additions
      // into r and S is the element order either way.
      const std::size_t ne = line_.n_elements();
      for (std::size_t e = 0; e < ne;) {
        if (opt_.pack_elements && pack_run_[e] && hermite_pack(e, q, v, r, S, wq, wv)) {
          e += kLanes;
        } else {
          hermite_one(e, q, v, r, S, wq, wv);
          ++e;
        }
      }
    }
    for (std::size_t e = 0; !line_.hermite() && e < line_.n_elements(); ++e) {  // EI = 0 elements
      const ElementLoadData ld = load_data(e);
      const double w = ld.w, L0 = ld.L0, rgA = ld.rgA;
      const auto& mc = ld.mc;
      const Vec3<double>& ua = fluid_->u[e];
      const Vec3<double>& ub = fluid_->u[e + 1];
      const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
      const Vec<double, 6> qe = q.segment<6>(i0), ve = v.segment<6>(i0);
      const auto& el = line_.tension_element(e);
      Vec<double, 6> f, fd;
      Mat<double, 6> K, Jq, Jv;
      el.internal_force<double>(qe, f, S ? &K : nullptr);
      if (el.params().BA > 0) {
        el.damping_force<double>(qe, ve, fd, S ? &Jq : nullptr, S ? &Jv : nullptr);
        f += fd;
        if (S) K += Jq;
      } else if (S) {
        Jv.setZero();
      }
      Vec<double, 6> fw;
      tension_weight_load<double>(w, L0, fw);
      f -= fw;
      // Wetted fraction: drag, added mass and fluid inertia on the wetted part; recovery load.
      double fa = 0, fb = 0;
      const double frac = wetted_fraction(qe(2), qe(5), opt_.surface_z, &fa, &fb);
      if (frac > 0) {
        Mat<double, 6> Dq, Dv;
        tension_drag<double>(qe, ve, ua, ub, mc, fd, S ? &Dq : nullptr, S ? &Dv : nullptr);
        // Scaled by the wetted fraction (its derivative in z added).
        f -= frac * fd;
        if (S) {
          K -= frac * Dq;
          for (int k = 0; k < 6; ++k) {
            K(k, 2) -= fd(k) * fa;
            K(k, 5) -= fd(k) * fb;
          }
          Jv -= frac * Dv;
        }
        const Vec3<double> udm = 0.5 * (fluid_->udot[e] + fluid_->udot[e + 1]);
        if (udm.squaredNorm() > 0) {
          const Vec3<double> d = qe.segment<3>(3) - qe.segment<3>(0);
          const double l = d.norm();
          const Vec3<double> t = d / l;
          Mat3<double> Jt;
          const Vec3<double> fi = fluid_inertia<double>(udm, t, mc, &Jt);
          f.segment<3>(0) -= 0.5 * frac * L0 * fi;
          f.segment<3>(3) -= 0.5 * frac * L0 * fi;
          if (S) {
            const Mat3<double> h = 0.5 * frac * L0 * Jt * (Mat3<double>::Identity() - t * t.transpose()) / l;
            K.block<3, 3>(0, 0) += h;
            K.block<3, 3>(0, 3) -= h;
            K.block<3, 3>(3, 0) += h;
            K.block<3, 3>(3, 3) -= h;
            // The wetted fraction's derivative in the end heights.
            for (int k = 0; k < 6; ++k) {
              K(k, 2) -= 0.5 * L0 * fi(k % 3) * fa;
              K(k, 5) -= 0.5 * L0 * fi(k % 3) * fb;
            }
          }
        }
      }
      if (frac < 1) {
        Vec<double, 6> fwet;
        Mat<double, 6> Jwet;
        tension_wetting_load<double>(qe, rgA, L0, opt_.surface_z, fwet, S ? &Jwet : nullptr);
        f -= fwet;
        if (S) K -= Jwet;
      }
      r.segment<6>(i0) += f;
      if (S) add_block(*S, line_.dof(e, 0), 6, Mat<double, 6>(wq * K + wv * Jv));
    }
    // Seabed: normal penalty contact and damping at the nodes.
    if (opt_.seabed_z) {
      for (std::size_t i = 0; i < line_.n_nodes(); ++i) {
        const auto iz = static_cast<Eigen::Index>(line_.dof(i, 2));
        const auto c = seabed_contact<double>(q(iz), v(iz), *opt_.seabed_z, node_contact_width_length(line_, i), 1.0,
                                              opt_.seabed);
        r(iz) -= c.f;
        if (S) S->add(iz, iz, -wq * c.df_dz - wv * c.df_dvz);
      }
    }
  }

  // The load data of element e: submerged weight per metre, unstretched length, Morison
  // coefficients, and rho_w g A (the buoyancy per metre that the surface takes away).
  struct ElementLoadData {
    double w, L0, rgA;
    MorisonCoefficients mc;
  };
  ElementLoadData load_data(std::size_t e) const {
    const auto& env = line_.environment();
    const double d = line_.type(e).d;
    return {line_.w(e), line_.L0(e), env.rho_w * env.g * kPi * d * d / 4, line_.morison(e)};
  }

  // Froude-Krylov + fluid inertia of a Hermite element at its wetted drag points (t from r'):
  // f -= w_g N_k fi and, with R, J_kl -= wq w_g N_k A_l d(fi)/da (spec "Added mass and fluid
  // inertia"); T = double or a pack of elements.
  template <class T>
  static void fluid_inertia_terms(const Vec<T, 12>& qe, const Vec3<T>& udm, const MorisonCoefficients& mc, double L0,
                                  double wq, Vec<T, 12>& f, HermiteBlockSum<T>* R, const std::array<bool, 3>& dry) {
    const auto& pts = detail::drag_points();
    for (std::size_t g = 0; g < 3; ++g) {
      if (dry[g]) continue;
      const auto& p = pts[g];
      const std::array<double, 4> N = p.N(L0), A = p.A(L0);
      const Vec3<T> a = T(A[0]) * qe.template segment<3>(0) + T(A[1]) * qe.template segment<3>(3) +
                        T(A[2]) * qe.template segment<3>(6) + T(A[3]) * qe.template segment<3>(9);
      const T na = a.norm();
      const Vec3<T> t = a / na;
      Mat3<T> Jt;
      const Vec3<T> fi = fluid_inertia<T>(udm, t, mc, &Jt);
      const double wg = p.w * L0;
      for (int k = 0; k < 4; ++k) f.template segment<3>(3 * k) -= T(wg * N[static_cast<std::size_t>(k)]) * fi;
      if (R) R->add(N, A, Mat3<T>((T(-wq * wg) / na) * Jt * (Mat3<T>::Identity() - t * t.transpose())));
    }
  }

  // Gathers kLanes consecutive Hermite elements from e0 into one pack (their first DOFs in
  // i0); false when one of them may reach the surface (the caller then takes them one at a
  // time).
  bool gather_submerged(std::size_t e0, const VecX<double>& q, std::array<Eigen::Index, kLanes>& i0,
                        Vec<Pk, 12>& qe) const {
    const double L0 = line_.L0(e0);
    for (int l = 0; l < kLanes; ++l) {
      const auto i = static_cast<Eigen::Index>(line_.dof(e0 + static_cast<std::size_t>(l), 0));
      i0[static_cast<std::size_t>(l)] = i;
      if (element_may_cross(q.segment<12>(i), L0, opt_.surface_z)) return false;
    }
    for (int l = 0; l < kLanes; ++l)
      for (int k = 0; k < 12; ++k) qe(k).set(l, q(i0[static_cast<std::size_t>(l)] + k));
    return true;
  }

  // One Hermite element's force onto r and, with S, its effective tangent onto S.
  void hermite_one(std::size_t e, const VecX<double>& q, const VecX<double>& v, VecX<double>& r,
                   BandMatrix<double>* S, double wq, double wv) {
    const ElementLoadData ld = load_data(e);
    const double w = ld.w, L0 = ld.L0, rgA = ld.rgA;
    const auto& mc = ld.mc;
    const Vec3<double>& ua = fluid_->u[e];
    const Vec3<double>& ub = fluid_->u[e + 1];
    // One pass per element: J = wq dr_e/dq + wv dr_e/dv accumulated directly, in the
    // component-major block form of every point term (HermiteBlockSum), scattered once.
    const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
    const Vec<double, 12> qe = q.segment<12>(i0), ve = v.segment<12>(i0);
    const auto& el = line_.hermite_element(e);
    Vec<double, 12> f, fd;
    HermiteBlockSum<double>* R = S ? &blocks_ : nullptr;
    if (R) R->set_zero();
    el.damped_force_blocks<double>(qe, ve, f, R, wq, wv);  // internal + axial damping
    Vec<double, 12> fw;
    hermite_weight_load<double>(w, L0, fw);
    f -= fw;
    // Drag and Froude-Krylov on the wetted Gauss points, element-mean fluid kinematics.
    const Vec3<double> um = 0.5 * (ua + ub), udm = 0.5 * (fluid_->udot[e] + fluid_->udot[e + 1]);
    std::array<bool, 3> dry{};
    const auto& pts = detail::drag_points();
    for (std::size_t g = 0; g < 3; ++g) {
      const auto N = pts[g].N(L0);
      const double z = N[0] * qe(2) + N[1] * qe(5) + N[2] * qe(8) + N[3] * qe(11);
      dry[g] = z > opt_.surface_z;
    }
    hermite_drag_blocks<double>(qe, ve, {um, um, um}, mc, L0, fd, R, -wq, -wv, dry);
    f -= fd;
    if (udm.squaredNorm() > 0) fluid_inertia_terms<double>(qe, udm, mc, L0, wq, f, R, dry);
    // Buoyancy lost above the surface (exact crossings).
    if (element_may_cross(qe, L0, opt_.surface_z)) {
      Vec<double, 12> fwet;
      Mat<double, 12> Jwet;
      hermite_wetting_load(qe, rgA, L0, opt_.surface_z, fwet, S ? &Jwet : nullptr);
      f -= fwet;
      if (S) add_block(*S, line_.dof(e, 0), 12, Mat<double, 12>(-wq * Jwet));
    }
    r.segment<12>(i0) += f;
    if (S) add_blocks(*S, line_.dof(e, 0), *R);
  }

  // kLanes consecutive Hermite elements from e0 on packs (pack_run_[e0]: equal parameters)
  // when none of them may reach the surface; returns false, having done nothing, otherwise.
  // The same terms in the same order as hermite_one, lane by lane; the lanes' results are
  // added into r and S in element order.
  bool hermite_pack(std::size_t e0, const VecX<double>& q, const VecX<double>& v, VecX<double>& r,
                    BandMatrix<double>* S, double wq, double wv) {
    const double w = line_.w(e0), L0 = line_.L0(e0);
    std::array<Eigen::Index, kLanes> i0{};
    Vec<Pk, 12> qe, ve, f, fd;
    if (!gather_submerged(e0, q, i0, qe)) return false;
    Vec3<Pk> um, udm;
    bool inertia = false;
    for (int l = 0; l < kLanes; ++l) {
      const auto i = i0[static_cast<std::size_t>(l)];
      const std::size_t e = e0 + static_cast<std::size_t>(l);
      for (int k = 0; k < 12; ++k) ve(k).set(l, v(i + k));
      const Vec3<double> ul = 0.5 * (fluid_->u[e] + fluid_->u[e + 1]);
      const Vec3<double> al = 0.5 * (fluid_->udot[e] + fluid_->udot[e + 1]);
      inertia = inertia || al.squaredNorm() > 0;
      for (int c = 0; c < 3; ++c) {
        um(c).set(l, ul(c));
        udm(c).set(l, al(c));
      }
    }
    const auto& el = line_.hermite_element(e0);
    const auto mc = line_.morison(e0);
    HermiteBlockSum<Pk>* R = S ? &pack_blocks_ : nullptr;
    if (R) R->set_zero();
    try {
      el.damped_force_blocks<Pk>(qe, ve, f, R, wq, wv);
    } catch (const DomainError&) {
      return false;  // one element at a time names the element whose state is outside the model
    }
    Vec<double, 12> fw;
    hermite_weight_load<double>(w, L0, fw);
    for (int k = 0; k < 12; ++k) f(k) -= Pk(fw(k));
    hermite_drag_blocks<Pk>(qe, ve, {um, um, um}, mc, L0, fd, R, -wq, -wv);
    f -= fd;
    // A lane without fluid acceleration adds exact zeros (fi = 0, J_t = 0).
    if (inertia) fluid_inertia_terms<Pk>(qe, udm, mc, L0, wq, f, R, {false, false, false});
    for (int l = 0; l < kLanes; ++l) {
      const auto i = i0[static_cast<std::size_t>(l)];
      for (int k = 0; k < 12; ++k) r(i + k) += f(k)[l];
      if (S) add_blocks(*S, static_cast<std::size_t>(i), pack_blocks_, l);
    }
    return true;
  }

  // r with the stiffness and damping Jacobians in separate matrices (coupled reaction).
  void evaluate_split(const VecX<double>& q, const VecX<double>& v, VecX<double>& r, BandMatrix<double>& K,
                      BandMatrix<double>& C) {
    K.set_zero();
    C.set_zero();
    evaluate(q, v, r, &K, 1.0, 0.0);
    VecX<double> tmp(n_);
    evaluate(q, v, tmp, &C, 0.0, 1.0);
  }

  // Residual parts for the end force: f_int - f_ext at (q, v) (no inertia).
  void eval_parts(const VecX<double>& q, const VecX<double>& v, VecX<double>& f, bool) {
    evaluate(q, v, f, nullptr, 0, 0);
  }

  // Element block into band storage (indices are within the band by construction: an
  // element spans 2 node blocks, exactly the half-bandwidth).
  // (B of a pack: its lane `ln`.)
  template <int N, class T>
  static void add_block(BandMatrix<double>& S, std::size_t first, int, const Mat<T, N>& B, int ln = 0) {
    const auto i0 = static_cast<Eigen::Index>(first);
    double* data = S.data();
    for (int j = 0; j < N; ++j) {
      double* col = data + S.offset(i0, i0 + j);  // col[i] = S(i0 + i, i0 + j)
      for (int i = 0; i < N; ++i) col[i] += lane(B(i, j), ln);
    }
  }

  // Component-major element blocks into band storage: S(i0 + 3k + i, i0 + 3l + j) += R(k + 4l, i + 3j).
  // (Blocks of a pack: its lane `ln`.)
  template <class T>
  static void add_blocks(BandMatrix<double>& S, std::size_t first, HermiteBlockSum<T>& blocks, int ln = 0) {
    const auto i0 = static_cast<Eigen::Index>(first);
    const auto& R = blocks.matrix();
    double* data = S.data();
    for (int l = 0; l < 4; ++l)
      for (int j = 0; j < 3; ++j) {
        double* col = data + S.offset(i0, i0 + 3 * l + j);  // col[i] = S(i0 + i, i0 + 3l + j)
        for (int k = 0; k < 4; ++k)
          for (int i = 0; i < 3; ++i) col[3 * k + i] += lane(R(k + 4 * l, i + 3 * j), ln);
      }
  }

  // S = c M over the band rows of the storage (same layout; the fill rows of both stay zero).
  static void scaled_copy(BandMatrix<double>& S, const BandMatrix<double>& M, double c) {
    const Eigen::Index ld = S.ldab(), kl = S.kl(), rows = ld - kl;
    for (Eigen::Index j = 0; j < S.rows(); ++j)
      Eigen::Map<VecX<double>>(S.data() + j * ld + kl, rows) = c * Eigen::Map<const VecX<double>>(M.data() + j * ld + kl, rows);
  }

  // ---- initial acceleration -------------------------------------------------------------
  void solve_initial_acceleration() {
    assemble_mass(s_.q);
    // rhs = -(r + M a_p) on the free rows; held rows carry the prescribed a.
    VecX<double>& rhs = rhs_;
    M_.multiply(s_.a, Ma_);  // a holds only the prescribed entries now
    rhs = -(s_.r + Ma_);
    scaled_copy(S_, M_, 1.0);
    cons_.reduce_residual(rhs);
    cons_.reduce_matrix(S_);
    if (!lu_.factor(S_).ok()) throw lu_.result().error(line_.name() + " mass matrix");
    rhs_mat_.col(0) = rhs;
    lu_.solve(rhs_mat_);
    VecX<double> af = rhs_mat_.col(0);
    cons_.expand(af);
    for (Eigen::Index i = 0; i < n_; ++i)
      if (!cons_.held(i)) s_.a(i) = af(i);
    s_.have_factor = false;
  }

  // ---- one step -------------------------------------------------------------------------
  // Scaled residual norm (Hermite: tangent rows over the tributary length).
  double residual_norm(const VecX<double>& G) const {
    double m = 0;
    const int nd = line_.node_dofs();
    for (std::size_t i = 0; i < line_.n_nodes(); ++i) {
      const double trib = std::max(line_.tributary(i), 1e-300);
      for (int c = 0; c < nd; ++c) {
        const auto k = static_cast<Eigen::Index>(line_.dof(i, c));
        if (cons_.held(k)) continue;
        m = std::max(m, std::fabs(G(k)) / (c < 3 ? 1.0 : trib));
      }
    }
    return m;
  }

  // G(q1): the generalised-alpha residual with the ends at their target; optionally the
  // effective tangent in S_. Returns false when the state is outside the model (a zero-length
  // element), which the line searches treat as a failed trial.
  bool residual(const VecX<double>& q1, double dt, bool tangent) {
    const auto& g = ga_;
    ++(tangent ? stats_.tangent_evaluations : stats_.force_evaluations);
    a1_ = g.acceleration(q1, s_.q, s_.v, s_.a, dt);
    v1_ = g.velocity(a1_, s_.v, s_.a, dt);
    // The held end positions carry the prescribed kinematics exactly.
    for (const Eigen::Index i : end_pos_) {
      a1_(i) = held_a_(i);
      v1_(i) = held_v_(i);
    }
    am_ = (1 - g.alpha_m) * a1_ + g.alpha_m * s_.a;
    const double wq = 1 - g.alpha_f, wv = (1 - g.alpha_f) * g.damping_weight(dt);
    try {
      // Inertia: Hermite, the mass held at the step start; EI = 0, the added mass at q_alpha
      // (with its configuration derivative in the tangent, below).
      if (!line_.hermite() || !opt_.force_blend) qa_ = (1 - g.alpha_f) * q1 + g.alpha_f * s_.q;
      if (!line_.hermite()) assemble_mass(qa_);
      // The tangent starts as the scaled mass (one pass over the band storage; the element
      // blocks are then added onto it).
      if (tangent) scaled_copy(S_, M_, g.mass_weight(dt));
      if (opt_.force_blend) {
        evaluate(q1, v1_, r1_, tangent ? &S_ : nullptr, wq, wv);
        G_ = (1 - g.alpha_f) * r1_ + g.alpha_f * s_.r;
        if (!line_.hermite() && opt_.release_cap) release_cap(q1, dt, tangent);
      } else {
        va_ = (1 - g.alpha_f) * v1_ + g.alpha_f * s_.v;
        evaluate(qa_, va_, r1_, tangent ? &S_ : nullptr, wq, wv);
        G_ = r1_;
      }
      if (!line_.hermite() && tangent) add_added_mass_jacobian(qa_, am_, (1 - g.alpha_f));
      M_.multiply(am_, Ma_);
      G_ += Ma_;
      if (tangent) cons_.reduce_matrix(S_);
    } catch (const DomainError&) {
      return false;
    }
    cons_.reduce_residual(G_);
    return G_.allFinite();
  }

  void add_added_mass_jacobian(const VecX<double>& qa, const VecX<double>& am, double w) {
    for (std::size_t e = 0; e < line_.n_elements(); ++e) {
      const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
      const Mat<double, 6> J = tension_added_mass_jacobian<double>(qa.segment<6>(i0), am.segment<6>(i0), line_.morison(e),
                                                                  line_.L0(e), opt_.surface_z);
      add_block(S_, line_.dof(e, 0), 6, Mat<double, 6>(w * J));
    }
  }

  // Release cap of the force blend (spec "Release cap"). An element keeps alpha_f (T_n +
  // T_d,n) along t_n over the step (T_d the dashpot tension). For an element taut at t_n that
  // shortens along t_n (p = l_n - t_n . d_{n+1} > 0) and ends below alpha_f/(1 - alpha_f) T_n,
  // the kept force alpha_f (T_n + phi T_d,n) is replaced by N/p when smaller, with
  // N = max(W_n + (1 - alpha_f)(T^_{n+1} + phi T_d,n+1) p_{n+1}, 0), W_n = 1/2 T_n e_n,
  // T^_{n+1} = T_n max(e_{n+1}, 0)/e_n, p_{n+1} = l_{n+1} - t_{n+1} . d_n, and phi the dashpot
  // weight (1 at or below l_0, falling linearly to 0 at l_0 + c e_n, c = alpha_f/(1 - alpha_f)).
  // A damped element slack at t_n keeps alpha_f T_d,n with the budget of its own one-step
  // dissipation W_d = |T_d,n| |ldot_n| dt: replaced by (W_d + N_d)/|p| when smaller,
  // N_d = max((1 - alpha_f) T_d,n+1 p_{n+1}, 0) (a compressive T_d,n capped alike when p < 0).
  // The residual and the tangent take the difference (T_d,n+1 depends on q_{n+1} through
  // v_{n+1}: the factor gamma/(beta dt)).
  // The step-start quantities of the release cap, constant over the (sub)step: filled once
  // per Newton solve (preallocated, no heap).
  struct CapStart {
    Vec3<double> dn, tn;  // chord and its direction at t_n
    double ln, en, Tn;    // length, elongation, elastic tension at t_n
    double ldn, Tdn;      // elongation rate and dashpot tension at t_n
  };
  void prepare_release_cap() {
    for (std::size_t e = 0; e < line_.n_elements(); ++e) {
      const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
      const auto& el = line_.tension_element(e);
      const double L0 = el.params().L0, EA = el.params().EA, cd = el.params().BA / L0;
      CapStart& c = cap_start_[e];
      c.dn = s_.q.segment<3>(i0 + 3) - s_.q.segment<3>(i0);
      c.ln = c.dn.norm();
      c.en = c.ln - L0;
      c.tn = c.dn / c.ln;
      c.Tn = c.en > 0 ? EA * c.en / L0 : 0.0;
      c.ldn = c.tn.dot(s_.v.segment<3>(i0 + 3) - s_.v.segment<3>(i0));
      c.Tdn = cd * c.ldn;
    }
  }
  void release_cap(const VecX<double>& q1, double dt, bool tangent) {
    caps_last_ = 0;
    const double af = ga_.alpha_f, c = af / (1 - af), gv = ga_.damping_weight(dt);
    const Mat3<double> I = Mat3<double>::Identity();
    for (std::size_t e = 0; e < line_.n_elements(); ++e) {
      const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
      const auto& el = line_.tension_element(e);
      const double L0 = el.params().L0, cd = el.params().BA / L0;
      const CapStart& cs = cap_start_[e];
      const Vec3<double>& dn = cs.dn;
      const Vec3<double>& tn = cs.tn;
      const double ln = cs.ln, en = cs.en, Tn = cs.Tn, ldn = cs.ldn, Tdn = cs.Tdn;
      kept_[e] = af * (Tn + Tdn);
      const Vec3<double> d1 = q1.segment<3>(i0 + 3) - q1.segment<3>(i0);
      const double l1 = d1.norm();
      if (!(l1 > 0)) continue;
      const Vec3<double> t1 = d1 / l1;
      const Vec3<double> dv1 = v1_.segment<3>(i0 + 3) - v1_.segment<3>(i0);
      const double e1 = l1 - L0, Td1 = cd * t1.dot(dv1);
      const double p = ln - tn.dot(d1), p1 = l1 - t1.dot(dn);
      const Mat3<double> P1 = I - t1 * t1.transpose();
      const Vec3<double> dp = -tn, dl1 = t1, dp1 = t1 - P1 * dn / l1;
      const Vec3<double> dTd1 = cd * (P1 * dv1 / l1 + gv * t1);
      Vec3<double> dF = Vec3<double>::Zero(), dK = Vec3<double>::Zero();
      double F = 0, K = 0;
      if (en > 0) {
        if (!(p > 0)) continue;
        const double That = Tn * std::max(e1, 0.0) / en;
        if (That >= c * Tn) continue;  // ends above c T_n: phi = 0 and the elastic cap does not act
        const double phi = e1 <= 0 ? 1.0 : 1.0 - e1 / (c * en);
        const Vec3<double> dphi = e1 > 0 ? Vec3<double>(-dl1 / (c * en)) : Vec3<double>::Zero();
        const double Wn = 0.5 * Tn * en;
        const double Nraw = Wn + (1 - af) * (That + phi * Td1) * p1;
        const double N = std::max(Nraw, 0.0);
        K = af * (Tn + phi * Tdn);
        F = N / p;
        if (!(F < K)) continue;
        if (Nraw > 0) {
          const Vec3<double> dThat = e1 > 0 ? Vec3<double>(Tn / en * dl1) : Vec3<double>::Zero();
          const Vec3<double> dN = (1 - af) * (dThat * p1 + That * dp1 + (dphi * Td1 + phi * dTd1) * p1 + phi * Td1 * dp1);
          dF = dN / p - F / p * dp;
        } else {
          dF = -F / p * dp;
        }
        dK = af * Tdn * dphi;
        kept_[e] = F + af * (1 - phi) * Tdn;
      } else {
        if (cd == 0 || Tdn == 0) continue;
        const double sgn = Tdn > 0 ? 1.0 : -1.0;
        if (!(sgn * p > 0)) continue;
        const double Wd = std::fabs(Tdn) * std::fabs(ldn) * dt;
        const double Nraw = (1 - af) * sgn * Td1 * p1;
        const double Nd = std::max(Nraw, 0.0);
        const double ap = std::fabs(p);
        const double Fm = (Wd + Nd) / ap;  // capped magnitude
        if (!(Fm < af * std::fabs(Tdn))) continue;
        F = sgn * Fm;
        K = af * Tdn;
        const Vec3<double> dNd = Nraw > 0 ? Vec3<double>((1 - af) * sgn * (dTd1 * p1 + Td1 * dp1)) : Vec3<double>::Zero();
        dF = sgn * (dNd / ap - Fm / ap * (sgn * dp));
        kept_[e] = F;
      }
      ++caps_last_;
      // Replace the kept force K t_n by F t_n: node b gets (F - K) t_n, node a minus.
      const Vec3<double> df = (F - K) * tn;
      G_.segment<3>(i0) -= df;
      G_.segment<3>(i0 + 3) += df;
      if (tangent) {
        const Mat3<double> B = tn * (dF - dK).transpose();  // d(df)/dd1
        double* data = S_.data();
        for (int j = 0; j < 3; ++j)
          for (int i = 0; i < 3; ++i) {
            // rows a: -B, rows b: +B; columns: d1 = r_b - r_a.
            data[S_.offset(i0 + i, i0 + 3 + j)] -= B(i, j);
            data[S_.offset(i0 + i, i0 + j)] += B(i, j);
            data[S_.offset(i0 + 3 + i, i0 + 3 + j)] += B(i, j);
            data[S_.offset(i0 + 3 + i, i0 + j)] -= B(i, j);
          }
      }
    }
  }

  // The Newton iteration of one (sub)step to the ends' target; commits on success.
  bool try_step(double dt, const EndMotions& target) {
    const auto& g = ga_;
    for (int end = 0; end < 2; ++end)
      for (int k = 0; k < 3; ++k) {
        const Eigen::Index i = end_pos_[static_cast<std::size_t>(3 * end + k)];
        held_x_(i) = target[end].x(k);
        held_v_(i) = target[end].v(k);
        held_a_(i) = target[end].a(k);
      }
    if (line_.hermite()) assemble_mass(s_.q);  // consistent mass held over the step
    if (!line_.hermite() && opt_.force_blend && opt_.release_cap) prepare_release_cap();
    // Predictor: EI = 0 Newmark; Hermite with the force blend the constant-acceleration
    // predictor when the committed acceleration balances the committed force
    // (||M a_n + r_n|| <= 1/2 ||M a_n|| over the translational free DOFs), a failed attempt
    // re-solved from the Newmark predictor.
    bool ca = false;
    if (line_.hermite() && opt_.force_blend) {
      M_.multiply(s_.a, Ma_);
      double num = 0, den = 0;
      for (std::size_t i = 0; i < line_.n_nodes(); ++i)
        for (int c = 0; c < 3; ++c) {
          const auto k = static_cast<Eigen::Index>(line_.dof(i, c));
          if (cons_.held(k)) continue;
          num = std::max(num, std::fabs(Ma_(k) + s_.r(k)));
          den = std::max(den, std::fabs(Ma_(k)));
        }
      ca = num <= 0.5 * den;
    }
    for (int attempt = 0; attempt < (ca ? 2 : 1); ++attempt) {
      const bool use_ca = ca && attempt == 0;
      qt_ = s_.q + dt * s_.v + (use_ca ? 0.5 * dt * dt : dt * dt * (0.5 - g.beta)) * s_.a;
      apply_held(qt_);
      if (newton(qt_, dt, use_ca) && geometry_ok(qt_)) {
        commit(qt_, dt);
        return true;
      }
    }
    return false;
  }

  // Hermite: a converged step that changes an element chord by more than 20 % of its length,
  // turns a nodal tangent by more than 15 deg, or shrinks |m| below 0.01 is subdivided.
  bool geometry_ok(const VecX<double>& q1) const {
    if (!line_.hermite()) return true;
    const double cos15 = std::cos(15.0 * kPi / 180.0);
    for (std::size_t e = 0; e < line_.n_elements(); ++e) {
      const Vec3<double> c0 = line_.r(s_.q, e + 1) - line_.r(s_.q, e), c1 = line_.r(q1, e + 1) - line_.r(q1, e);
      if ((c1 - c0).norm() > 0.2 * line_.L0(e)) return false;
    }
    for (std::size_t i = 0; i < line_.n_nodes(); ++i) {
      const Vec3<double> m0 = line_.m(s_.q, i), m1 = line_.m(q1, i);
      const double n1 = m1.norm();
      if (n1 < 0.01) return false;
      if (m0.dot(m1) < cos15 * m0.norm() * n1) return false;
    }
    // tensile_safety in error mode: a step that ends in element-mean compression is rejected
    // (spec "Tensile audit"; it is then subdivided, and fails by name at the finest level).
    if (opt_.tensile_safety && tensile_audit(line_, q1, opt_.tensile_strain_tolerance, false, &audit_work_)) return false;
    return true;
  }

  void apply_held(VecX<double>& q) const {
    for (const Eigen::Index i : end_pos_) q(i) = held_x_(i);
    cons_.apply_rigid(line_, q);
  }

  // Newton iteration on q_{n+1} (spec "Newton iteration"): EI = 0 with an Armijo search on
  // 1/2 ||G||^2, Hermite with a backtracking search on the scaled norm; modified Newton and
  // the reuse of the previous step's factor under the quarter-contraction rule; with the
  // Hermite force blend one correction beyond the tolerance with the last factorisation.
  bool newton(VecX<double>& q, double dt, bool ca_branch) {
    tangent_ready_ = false;
    if (!residual(q, dt, false)) return false;
    double xref = 0;
    for (Eigen::Index i = 0; i < n_; ++i) xref = std::max(xref, std::fabs(q(i)));
    double scale = std::max({1.0, wmax_, G_.cwiseAbs().maxCoeff(), Ma_.cwiseAbs().maxCoeff()});
    if (line_.hermite())
      scale = std::max(scale, 16 * std::numeric_limits<double>::epsilon() * kmax_ * xref / opt_.rel_tol);
    const double tol = opt_.rel_tol * scale;
    double norm = residual_norm(G_), prev = std::numeric_limits<double>::infinity();
    bool have = false;       // lu_ holds a usable factor
    bool reusing = false;    // still on the previous step's factor
    int reuse_iters = 0, factorizations = 0;
    const bool try_reuse = line_.hermite() && opt_.reuse_factor && ca_branch && s_.have_factor && s_.reuse_skip == 0;
    const BandLU<double>* fac = &lu_;
    if (try_reuse) {
      fac = &s_.factor;  // the previous step's factor, used in place
      have = reusing = true;
    }
    bool extra = false;
    int pending = -1;  // the ahead_use entry the next iteration's need for a fresh tangent updates
    for (int it = 0; it < opt_.max_iterations; ++it) {
      ++stats_.newton_iterations;
      const bool conv = norm <= tol || norm <= opt_.abs_tol;
      if (conv && !(reusing && norm > 0.3 * tol)) {
        if (line_.hermite() && opt_.force_blend && have && !extra) {
          extra = true;  // one correction beyond the tolerance, then accept
        } else {
          record_ahead(pending, false);
          return finish(factorizations, try_reuse);
        }
      }
      const bool contracted = norm <= 0.25 * prev;
      bool use_old = false;
      if (reusing && reuse_iters < 3 && (it == 0 || contracted)) {
        use_old = true;
        ++reuse_iters;
      } else {
        reusing = false;
        use_old = extra || (opt_.modified_newton && have && contracted);
      }
      record_ahead(pending, !use_old);
      pending = -1;
      if (!use_old) {
        if (tangent_ready_) --stats_.unused_tangents;  // the tangent evaluated ahead is factorised
        else if (!residual(q, dt, true)) return false;
        tangent_ready_ = false;
        if (!lu_.factor(S_).ok()) return false;
        fac = &lu_;
        ++stats_.factorizations;
        ++factorizations;
        have = true;
      }
      rhs_mat_.col(0) = -G_;
      fac->solve(rhs_mat_);
      dq_ = rhs_mat_.col(0);
      cons_.expand(dq_);
      if (extra) {
        q += dq_;
        apply_held(q);
        if (!residual(q, dt, false)) return false;
        return finish(factorizations, try_reuse);
      }
      double alpha = 1;
      bool accepted = false;
      const double phi = 0.5 * G_.squaredNorm();
      tangent_ready_ = false;
      // A fresh Newton step contracts quadratically, n_{k+1} ~ c n_k^2 in units of the
      // tolerance, c measured on the last fresh full step. A trial predicted to converge needs
      // no new tangent (the iteration ends, or the extra correction reuses this factor).
      const double nrel = norm / tol;
      const bool fresh = !use_old;
      const bool expect_converged = fresh && s_.newton_rate > 0 && s_.newton_rate * nrel * nrel < 0.5;
      // On the last iteration the reused factor may take, the next one factorises fresh
      // unless the trial converges (predicted from the last contraction): its tangent is
      // then evaluated with the trial's residual.
      const double rho = std::isfinite(prev) ? norm / prev : 1.0;
      const bool spec_reuse = reusing && reuse_iters >= 3 && rho * norm > 0.3 * tol;
      // Whether the tangent at the trial is expected to be needed; evaluated ahead only where
      // that expectation has held at least 3 times in 4 lately (a tangent evaluation costs
      // about four force evaluations: evaluating ahead in vain wastes three, evaluating
      // again at the same iterate costs one).
      const int path = reusing ? 1 : 0;
      const bool want = !opt_.modified_newton && (reusing ? spec_reuse : !expect_converged);
      for (int ls = 0; ls <= opt_.max_backtracks; ++ls, alpha *= 0.5) {
        qt2_ = q + alpha * dq_;
        apply_held(qt2_);
        // The full step usually succeeds: evaluate its tangent in the same pass, so that the
        // next iteration need not evaluate again (the factor lives in lu_, S_ is free). This
        // changes when the tangent is evaluated; the iterates only through the round-off floor
        // of near_tolerance (it reads the last tangent evaluated). The rate and the means it
        // decides from are part of the state, so a restart repeats the decisions. A tangent
        // evaluated ahead counts as unused until it is factorised.
        const bool spec = ls == 0 && want && s_.ahead_use[static_cast<std::size_t>(path)] > 0.75;
        if (spec) ++stats_.unused_tangents;
        if (!residual(qt2_, dt, spec)) continue;
        const double nt = residual_norm(G_);
        const bool ok = line_.hermite() ? (nt < norm || nt <= opt_.abs_tol)
                                        : 0.5 * G_.squaredNorm() <= (1 - 2e-4 * alpha) * phi;
        if (ls == 0 && want) {
          if (ok) pending = path;
          else record_ahead(path, false);
        }
        if (ok) {
          if (fresh && ls == 0 && nrel > 0) s_.newton_rate = (nt / tol) / (nrel * nrel);
          q = qt2_;
          prev = norm;
          norm = nt;
          accepted = true;
          tangent_ready_ = spec;
          break;
        }
      }
      if (!accepted) {
        tangent_ready_ = false;
        if (!residual(q, dt, false)) return false;
        norm = residual_norm(G_);
        if (reusing) {  // a step that fails on the reused factor is re-solved on a fresh one
          reusing = false;
          prev = std::numeric_limits<double>::infinity();
          continue;
        }
        return near_tolerance(norm, scale, q) && finish(factorizations, try_reuse);
      }
    }
    return near_tolerance(norm, scale, q) && finish(factorizations, try_reuse);
  }

  // One outcome of the expectation that the tangent at an accepted trial is needed.
  void record_ahead(int path, bool needed) {
    if (path < 0) return;
    double& u = s_.ahead_use[static_cast<std::size_t>(path)];
    u = 0.8 * u + (needed ? 0.2 : 0.0);
  }

  // Near-tolerance acceptance (spec): within twice the relative tolerance (never looser than
  // sqrt(eps)); or below 1e-4 of the scale and within the round-off floor eps max|q| ||A||.
  bool near_tolerance(double norm, double scale, const VecX<double>& q) const {
    const double loose = std::max(opt_.rel_tol, std::min(2 * opt_.rel_tol, std::sqrt(std::numeric_limits<double>::epsilon())));
    if (norm <= loose * scale) return true;
    const double floor = std::numeric_limits<double>::epsilon() * q.cwiseAbs().maxCoeff() * S_.norm_inf();
    return norm <= 1e-4 * scale && norm <= floor;
  }

  // Bookkeeping of the cross-step factor reuse: a step on the reused factor that needed as
  // many factorisations as the last fresh step saved nothing, so the following steps
  // factorise fresh for 1, 2, 4, ... up to 32 steps.
  bool finish(int factorizations, bool tried_reuse) {
    if (line_.hermite() && opt_.reuse_factor) {
      if (s_.reuse_skip > 0) --s_.reuse_skip;
      if (tried_reuse) {
        if (factorizations >= std::max(1, s_.last_fresh_factorizations)) {
          s_.reuse_streak = std::min(s_.reuse_streak == 0 ? 1 : 2 * s_.reuse_streak, 32);
          s_.reuse_skip = s_.reuse_streak;
        } else {
          s_.reuse_streak = 0;
        }
      } else if (factorizations > 0) {
        s_.last_fresh_factorizations = factorizations;
      }
      save_factor_ = factorizations > 0;
    }
    return true;
  }

  // Energy created by the elastic element forces over the committed step (EI = 0, force
  // blend): W - (U_n - U_{n+1}) per element, W the work of alpha_f (kept) along t_n plus
  // (1 - alpha_f) T_{n+1} t_{n+1} on the relative displacement of the ends.
  void account_created_energy(const VecX<double>& q1) {
    if (line_.hermite() || !opt_.force_blend) return;
    const double af = ga_.alpha_f;
    for (std::size_t e = 0; e < line_.n_elements(); ++e) {
      const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
      const auto& el = line_.tension_element(e);
      const Vec<double, 6> qn = s_.q.segment<6>(i0), qe = q1.segment<6>(i0);
      const Vec3<double> dn = qn.segment<3>(3) - qn.segment<3>(0), d1 = qe.segment<3>(3) - qe.segment<3>(0);
      const double cd = el.params().BA / el.params().L0;
      const double Tdn = cd * dn.normalized().dot(s_.v.segment<3>(i0 + 3) - s_.v.segment<3>(i0));
      const double Td1 = cd * d1.normalized().dot(v1_.segment<3>(i0 + 3) - v1_.segment<3>(i0));
      const double kept = opt_.release_cap ? kept_[e] : af * (std::max(el.tension(qn), 0.0) + Tdn);
      const Vec3<double> Fb = kept * dn.normalized() + (1 - af) * (el.tension(qe) + Td1) * d1.normalized();
      const double W = -Fb.dot(d1 - dn);  // work of the element's pull on its nodes
      const double created = W - (el.energy(qn) - el.energy(qe));
      if (created > 0) stats_.created_energy += created;
    }
  }

  void commit(const VecX<double>& q1, double dt) {
    account_created_energy(q1);
    // The last residual of the iteration was evaluated at q1: its capped elements are this
    // step's.
    if (!line_.hermite() && opt_.force_blend && opt_.release_cap) stats_.release_caps += caps_last_;
    if (!line_.hermite()) stats_.largest_turn_deg = std::max(stats_.largest_turn_deg, measure_turn(s_.q, q1, dt).theta);
    const auto& g = ga_;
    a1_ = g.acceleration(q1, s_.q, s_.v, s_.a, dt);
    v1_ = g.velocity(a1_, s_.v, s_.a, dt);
    for (const Eigen::Index i : end_pos_) {
      a1_(i) = held_a_(i);
      v1_(i) = held_v_(i);
    }
    s_.q = q1;
    s_.v = v1_;
    s_.a = a1_;
    s_.t += dt;
    // r_{n+1} = r(q_{n+1}, v_{n+1}): with the force blend the last residual of the Newton
    // iteration was evaluated at exactly this state (newton() ends on a residual at q), so
    // r1_ holds it; the configuration blend evaluates it here.
    if (opt_.force_blend)
      s_.r = r1_;
    else {
      evaluate(s_.q, s_.v, s_.r, nullptr, 0, 0);
      ++stats_.force_evaluations;
    }
    if (save_factor_) {
      std::swap(s_.factor, lu_);  // O(1); lu_ keeps storage of the same size as scratch
      s_.have_factor = true;
      factor_swapped_ = true;
    }
    save_factor_ = false;
  }

  const Line& line_;
  DynamicOptions opt_;
  GeneralizedAlpha<double> ga_;
  LineConstraints cons_;
  Eigen::Index n_;
  Eigen::Index kd_;
  BandMatrix<double> S_, M_, M_struct_;
  // The effective tangent is factorised by the templated band LU (the DGBTRF/DGBTRS
  // algorithm; its block updates make it faster than the reference LAPACK at these widths).
  BandLU<double> lu_;
  LineDynamicState s_;
  StepStatistics stats_;
  HeldFluid still_;
  const HeldFluid* fluid_ = nullptr;
  LineDynamicState start_;
  LineDynamicState plain_;  // EI = 0: the plain step's result while its sub-steps are solved
  VecX<double> G_, r1_, qt_, qt2_, dq_, a1_, v1_, am_, qa_, va_, Ma_, q0_, v0_, a0_, rtrial_, rhs_;
  VecX<double> held_x_, held_v_, held_a_;
  std::array<Eigen::Index, 6> end_pos_{};
  MatX<double> rhs_mat_;
  double kmax_ = 0, wmax_ = 0;
  bool save_factor_ = false;
  bool factor_swapped_ = false;  // s_.factor replaced since the step began
  HermiteBlockSum<double> blocks_;  // Hermite: one element's effective tangent (component-major)
  HermiteBlockSum<Pk> pack_blocks_;  // Hermite: kLanes elements' effective tangents
  std::vector<char> pack_run_;     // Hermite: elements e .. e + kLanes - 1 exist and are equal
  long caps_last_ = 0;           // EI = 0: elements the release cap limited in the last residual
  bool tangent_ready_ = false;  // S_ holds the tangent at the current iterate
  std::vector<double> kept_;    // EI = 0: the kept (possibly capped) force of each element
  std::vector<CapStart> cap_start_;  // EI = 0: the release cap's step-start quantities
  mutable std::vector<double> audit_work_;  // tensile audit scratch
};

using LineDynamics = BasicLineDynamics<>;

}  // namespace cabledyn

namespace cabledyn {

/// Sample a fluid field at the nodes of a line at time t (spec "Time integration": the host
/// samples the fields for the end of the step, t_{n+1}, at the committed node positions, and
/// every load evaluation of the step uses them). `out` keeps its storage (no allocation once
/// sized).
inline void sample_fluid(const FluidField& field, const Line& line, const VecX<double>& q, double t, HeldFluid& out) {
  out.u.resize(line.n_nodes());
  out.udot.resize(line.n_nodes());
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    const FluidSample s = field.sample(line.r(q, i), t);
    out.u[i] = s.u;
    out.udot[i] = s.a;
  }
}

}  // namespace cabledyn
