// cabledyn: the generalised-alpha stepper of one line (EI = 0 or cubic-Hermite): predictor,
// Newton iteration, the reuse of a factorised tangent, adaptive step subdivision and the
// single commit of a step.
// Spec "Time integration" (the scheme, the force and configuration blends, the predictors,
// Newton iterations and their convergence rules, modified Newton, the reuse of a factorised
// tangent, adaptive step subdivision), "Prescribed motion", "Tension and coupled loads",
// "Linear algebra" (band storage, workspaces sized once: a step allocates nothing on the
// heap).
//
// One job per header (docs/index.md, "The solver half"):
//   line_march_types.hpp  the bookkeeping: options, the committed state (one value, copied
//                         whole), statistics, end kinematics, the held fluid
//   line_load_model.hpp   the model: r(q, v) and its Jacobians, the mass M(q)
//   release_cap.hpp       policy of the EI = 0 force blend (spec "Release cap")
//   ei0_substeps.hpp      policy: when EI = 0 steps are re-solved in sub-steps
//   line_dynamics.hpp     this stepper
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

#include "cabledyn/core/fp_env.hpp"
#include "cabledyn/dynamics/band_scatter.hpp"
#include "cabledyn/dynamics/ei0_substeps.hpp"
#include "cabledyn/dynamics/generalized_alpha.hpp"
#include "cabledyn/dynamics/hermite_step_check.hpp"
#include "cabledyn/dynamics/line_load_model.hpp"
#include "cabledyn/dynamics/line_march_types.hpp"
#include "cabledyn/dynamics/release_cap.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/line/line_constraints.hpp"
#include "cabledyn/linalg/band_lu.hpp"
#include "cabledyn/statics/tensile_audit.hpp"

namespace cabledyn {

/// The generalised-alpha march of one line, stepping the line's load model (LineLoadModel)
/// with the release cap and the EI = 0 sub-steps as its policies.
/// The template parameter defers the instantiation of the member bodies to the files that use
/// the class (compile time); the march is double (`LineDynamics`): long double and duals
/// march through the system route (system/, SystemStepper).
template <class Real = double>
class BasicLineDynamics {
  static_assert(std::is_same_v<Real, double>, "the line march runs in double; long double and duals: the system route");

 public:
  BasicLineDynamics(const Line& line, DynamicOptions opt = {})
      : line_(line),
        opt_(validated(opt, line)),
        ga_(GeneralizedAlpha<double>::from_rho_inf(opt.rho_inf)),
        cons_(line),
        n_(static_cast<Eigen::Index>(line.dofs())),
        kd_(line.half_bandwidth()),
        model_(line, opt_),
        cap_(line.n_elements()),
        S_(n_, kd_, kd_),
        lu_(n_, kd_, kd_, Backend::templated) {
    for (auto* v : {&G_, &r1_, &qt_, &qt2_, &dq_, &a1_, &v1_, &am_, &qa_, &va_, &Ma_, &rtrial_, &rhs_}) v->setZero(n_);
    rhs_mat_.setZero(n_, 1);
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
    audit_work_.assign(line.n_elements(), 0.0);
    // The step-start and plain-step copies of the state, sized here (a step allocates nothing).
    for (LineDynamicState* st : {&start_, &plain_})
      for (VecX<double>* v : {&st->q, &st->v, &st->a, &st->r}) v->setZero(n_);
  }
  BasicLineDynamics(const BasicLineDynamics&) = delete;  // holds the line by reference
  BasicLineDynamics& operator=(const BasicLineDynamics&) = delete;

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
    model_.hold_fluid(fluid);
    s_.r = VecX<double>::Zero(n_);
    if (!line_.hermite())
      for (std::size_t e = 0; e < line_.n_elements(); ++e)
        s_.initial_tension = std::max(s_.initial_tension, segment_tension(model_.model(), s_.q, e));
    model_.evaluate(s_.q, s_.v, s_.r, nullptr, 0, 0);
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
    const SubnormalFlush flush(opt_.flush_subnormals);
    model_.hold_fluid(fluid);
    // r_n (spec "Time integration"): EI = 0, evaluated afresh at the committed state with the
    // step's held fluid (both shares of the force blend see the held field); Hermite, the
    // previous step's converged force, reused (it is part of the committed state, so a restart
    // reuses it too).
    if (!line_.hermite() || !opt_.force_blend) {
      model_.evaluate(s_.q, s_.v, s_.r, nullptr, 0, 0);
      ++stats_.force_evaluations;
    }
    march_part(start_) = s_;  // the step-start state, without the factor (a cache)
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
        const EndMotions mid = k == n ? target : quintic_end_motions(from, target, dt, tau);
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
    model_.evaluate(s_.q, s_.v, f, nullptr, 0, 0);
    return -f.segment<3>(static_cast<Eigen::Index>(line_.dof(line_.end_node(end), 0)));
  }

  /// The coupled reaction -(M a + f_int - f_ext) at a held end with its condensed derivatives.
  EndReaction coupled_reaction(int end) {
    const std::size_t node = line_.end_node(end);
    const auto c0 = static_cast<Eigen::Index>(line_.dof(node, 0));
    // Matrices at the committed state (dense copies: a diagnostic, not in the step).
    model_.assemble_mass(s_.q);
    const MatX<double> M = model_.mass().to_dense();
    BandMatrix<double> Kb(n_, kd_, kd_), Cb(n_, kd_, kd_);
    VecX<double> r(n_);
    model_.evaluate_split(s_.q, s_.v, r, Kb, Cb);
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
  void residual_force(VecX<double>& r) { model_.evaluate(s_.q, s_.v, r, nullptr, 0, 0); }

  /// The force r(q, v) = f_int + f_damping - f_ext the march evaluates, with the held fluid
  /// of the last step, and when S is given S += wq dr/dq + wv dr/dv in band storage (the
  /// line's half-bandwidth). For kernel benchmarks and tangent checks.
  void force(const VecX<double>& q, const VecX<double>& v, VecX<double>& r, BandMatrix<double>* S = nullptr,
             double wq = 1, double wv = 0) {
    if (q.size() != n_ || v.size() != n_ || r.size() != n_)
      throw InputError(line_.name(), "force: vector size", q.size(), "line DOFs");
    if (S && (S->rows() != n_ || S->kl() != kd_ || S->ku() != kd_))
      throw InputError(line_.name(), "force: band matrix size", S->rows(), "line DOFs and half-bandwidth");
    model_.evaluate(q, v, r, S, wq, wv);
  }

 private:
  static DynamicOptions validated(const DynamicOptions& opt, const Line& line) {
    opt.validate(line.name() + " dynamics");
    return opt;
  }

  // ---- the committed state ------------------------------------------------------------
  // The march state without the factorised tangent (a cache of the last tangent, which a
  // rollback discards: the next attempt factorises fresh; the path stays a function of the
  // committed state, so a restart repeats it): assigned whole, into storage of the same size
  // (no allocation).
  static LineMarchState& march_part(LineDynamicState& s) { return s; }
  // Back to the step-start state (full rollback: positions, velocities, accelerations, the
  // committed force and the reuse bookkeeping); the factor is dropped unless untouched.
  void rollback() {
    march_part(s_) = start_;
    if (factor_swapped_) s_.have_factor = false;
  }

  // ---- EI = 0 rotation- and snap-resolved sub-steps --------------------------------------
  // Re-solve the interval from the step-start state in n equal sub-steps, the held ends on the
  // quintic trajectory of the recovery and the last sub-step on the target.
  bool solve_substeps(int n, double dt, const EndMotions& from, const EndMotions& target) {
    rollback();
    for (int k = 1; k <= n; ++k) {
      const EndMotions mid = k == n ? target : quintic_end_motions(from, target, dt, double(k) / n);
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
    const ChordTurn turn = measure_chord_turn(model_.model(), start_.q, s_.q, dt, s_.initial_tension);
    const double ts = opt_.ei0_substep_angle;
    if (!(turn.theta > ts || turn.snap)) return;
    bool capped = false;
    auto count = [&](double theta) { return ei0_substep_count(theta, ts, opt_.ei0_substep_max, capped); };
    march_part(plain_) = s_;
    const double plain_created = stats_.created_energy, plain_turn = stats_.largest_turn_deg;
    const long plain_caps = stats_.release_caps;
    const EndMotions from = ends_of(start_);
    stats_.created_energy = created0;
    stats_.largest_turn_deg = turn0;
    stats_.release_caps = caps0;
    int n = count(turn.theta);
    bool ok = solve_substeps(n, dt, from, target);
    if (ok) {
      const int n2 = count(measure_chord_turn(model_.model(), start_.q, s_.q, dt, s_.initial_tension).theta);
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
      march_part(s_) = plain_;
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
  // ---- initial acceleration -------------------------------------------------------------
  void solve_initial_acceleration() {
    model_.assemble_mass(s_.q);
    // rhs = -(r + M a_p) on the free rows; held rows carry the prescribed a.
    VecX<double>& rhs = rhs_;
    model_.mass().multiply(s_.a, Ma_);  // a holds only the prescribed entries now
    rhs = -(s_.r + Ma_);
    detail::copy_band_scaled(S_, model_.mass(), 1.0);
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
      if (!line_.hermite()) model_.assemble_mass(qa_);
      // The tangent starts as the scaled mass (one pass over the band storage; the element
      // blocks are then added onto it).
      if (tangent) detail::copy_band_scaled(S_, model_.mass(), g.mass_weight(dt));
      if (opt_.force_blend) {
        model_.evaluate(q1, v1_, r1_, tangent ? &S_ : nullptr, wq, wv);
        G_ = (1 - g.alpha_f) * r1_ + g.alpha_f * s_.r;
        if (!line_.hermite() && opt_.release_cap) {
          detail::BandMarchSink sink{&S_};
          caps_last_ = cap_.apply(model_.model(), g, q1, v1_, dt, G_, tangent ? &sink : nullptr);
        }
      } else {
        va_ = (1 - g.alpha_f) * v1_ + g.alpha_f * s_.v;
        model_.evaluate(qa_, va_, r1_, tangent ? &S_ : nullptr, wq, wv);
        G_ = r1_;
      }
      if (!line_.hermite() && tangent) model_.add_added_mass_jacobian(S_, qa_, am_, (1 - g.alpha_f));
      model_.mass().multiply(am_, Ma_);
      G_ += Ma_;
      if (tangent) cons_.reduce_matrix(S_);
    } catch (const DomainError&) {
      return false;
    }
    cons_.reduce_residual(G_);
    return G_.allFinite();
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
    if (line_.hermite()) model_.assemble_mass(s_.q);  // consistent mass held over the step
    if (!line_.hermite() && opt_.force_blend && opt_.release_cap) cap_.prepare(model_.model(), s_.q, s_.v);
    // Predictor: EI = 0 Newmark; Hermite with the force blend the constant-acceleration
    // predictor when the committed acceleration balances the committed force
    // (||M a_n + r_n|| <= 1/2 ||M a_n|| over the translational free DOFs), a failed attempt
    // re-solved from the Newmark predictor.
    bool ca = false;
    if (line_.hermite() && opt_.force_blend) {
      model_.mass().multiply(s_.a, Ma_);
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

  // Hermite: a converged step beyond the chord, turn and tangent bounds is subdivided
  // (hermite_step_check.hpp).
  bool geometry_ok(const VecX<double>& q1) const {
    if (!line_.hermite()) return true;
    if (hermite_step_rejection(
            line_.n_nodes(), [&](std::size_t i) { return line_.r(s_.q, i); }, [&](std::size_t i) { return line_.r(q1, i); },
            [&](std::size_t i) { return line_.m(s_.q, i); }, [&](std::size_t i) { return line_.m(q1, i); },
            [&](std::size_t e) { return line_.L0(e); }))
      return false;
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
      // An update that would carry a node from outside the seabed beyond its contact blend
      // stops it in the blend (contact_entry_fraction); that update is taken whole (from the
      // blend the next linearisation sees the contact).
      const double lim = model_.model().contact_step_limit(q, dq_);
      const bool limited = lim < 1;
      if (limited) dq_ *= lim;
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
        const bool ok = (limited && ls == 0) ||
                        (line_.hermite() ? (nt < norm || nt <= opt_.abs_tol)
                                         : 0.5 * G_.squaredNorm() <= (1 - 2e-4 * alpha) * phi);
        if (ls == 0 && want) {
          if (ok) pending = path;
          else record_ahead(path, false);
        }
        if (ok) {
          if (fresh && ls == 0 && nrel > 0 && !limited) s_.newton_rate = (nt / tol) / (nrel * nrel);
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

  void commit(const VecX<double>& q1, double dt) {
    if (!line_.hermite() && opt_.force_blend)
      cap_.add_created_energy(model_.model(), ga_, opt_.release_cap, s_.q, s_.v, q1, v1_, stats_.created_energy);
    // The last residual of the iteration was evaluated at q1: its capped elements are this
    // step's.
    if (!line_.hermite() && opt_.force_blend && opt_.release_cap) stats_.release_caps += caps_last_;
    if (!line_.hermite())
      stats_.largest_turn_deg =
          std::max(stats_.largest_turn_deg, measure_chord_turn(model_.model(), s_.q, q1, dt, s_.initial_tension).theta);
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
      model_.evaluate(s_.q, s_.v, s_.r, nullptr, 0, 0);
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
  LineLoadModel model_;  // r(q, v), its Jacobians and the mass
  ReleaseCap cap_;       // EI = 0, force blend: the release cap's step-start quantities and kept forces
  BandMatrix<double> S_;
  // The effective tangent is factorised by the templated band LU (the DGBTRF/DGBTRS
  // algorithm; its block updates make it faster than the reference LAPACK at these widths).
  BandLU<double> lu_;
  LineDynamicState s_;
  StepStatistics stats_;
  LineDynamicState start_;
  LineDynamicState plain_;  // EI = 0: the plain step's result while its sub-steps are solved
  VecX<double> G_, r1_, qt_, qt2_, dq_, a1_, v1_, am_, qa_, va_, Ma_, rtrial_, rhs_;
  VecX<double> held_x_, held_v_, held_a_;
  std::array<Eigen::Index, 6> end_pos_{};
  MatX<double> rhs_mat_;
  double kmax_ = 0, wmax_ = 0;
  bool save_factor_ = false;
  bool factor_swapped_ = false;  // s_.factor replaced since the step began
  long caps_last_ = 0;           // EI = 0: elements the release cap limited in the last residual
  bool tangent_ready_ = false;  // S_ holds the tangent at the current iterate
  mutable std::vector<double> audit_work_;  // tensile audit scratch
};

using LineDynamics = BasicLineDynamics<>;

}  // namespace cabledyn
