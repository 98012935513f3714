// cabledyn: the bookkeeping of the line march: prescribed end kinematics and their quintic
// (C2) interpolation, the held fluid field, the options, the committed state (one value
// copied whole), the run statistics and the coupled end reaction.
// Spec "Prescribed motion", "Adaptive step subdivision" (the quintic end trajectory), "Time
// integration" (the fluid fields held over the step; the committed force of the force
// blend), "Tension and coupled loads" (the condensed end reaction).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/quintic.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/linalg/band_lu.hpp"
#include "cabledyn/sea/fluid_field.hpp"
#include "cabledyn/seabed/contact.hpp"

namespace cabledyn {

/// Prescribed kinematics of a held line end at one time.
struct EndMotion {
  Vec3<double> x = Vec3<double>::Zero();  ///< position [m]
  Vec3<double> v = Vec3<double>::Zero();  ///< velocity [m/s]
  Vec3<double> a = Vec3<double>::Zero();  ///< acceleration [m/s^2]
};
using EndMotions = std::array<EndMotion, 2>;

/// The quintic smoothstep r(t) = u^3 (10 - 15 u + 6 u^2), u = t / T_r, that brings a motion in
/// over T_r (0 before t = 0, 1 after T_r; r, r' and r'' continuous), with its rates.
struct SmoothStep {
  double r = 1, rd = 0, rdd = 0;  ///< r [-], dr/dt [1/s], d2r/dt2 [1/s^2]
};
inline SmoothStep quintic_smoothstep(double t, double T_r) {
  SmoothStep s;
  if (t < T_r) {
    const double u = std::max(t, 0.0) / T_r;
    s.r = u * u * u * (10 - 15 * u + 6 * u * u);
    s.rd = 30 * u * u * (1 - u) * (1 - u) / T_r;
    s.rdd = 60 * u * (1 - u) * (1 - 2 * u) / (T_r * T_r);
  }
  return s;
}

/// Quintic (C2) trajectory between the interval-start and target kinematics at tau in [0, 1]
/// (spec "Adaptive step subdivision").
inline EndMotions quintic_end_motions(const EndMotions& a, const EndMotions& b, double dt, double tau) {
  EndMotions m;
  for (int e = 0; e < 2; ++e)
    quintic_hermite(a[e].x, a[e].v, a[e].a, b[e].x, b[e].v, b[e].a, dt, tau, m[e].x, m[e].v, m[e].a);
  return m;
}

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
  /// A step runs with subnormal results flushed to zero (core/fp_env.hpp); the caller's mode
  /// is restored on return.
  bool flush_subnormals = true;

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

/// The committed state of a line's march without the factorised tangent: one value, copied
/// whole by its defaulted assignment (rollback to the step start, the plain step kept while
/// its sub-steps are solved), so a field added here cannot escape a rollback. Assigned into
/// storage of the same size it allocates nothing.
struct LineMarchState {
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
};

/// The committed state of a line's march (a snapshot is a copy of it): the march state and
/// the factorised tangent of the last step, a cache that a rollback drops (the next attempt
/// factorises fresh; the path stays a function of the committed state, so a restart from a
/// snapshot repeats it).
struct LineDynamicState : LineMarchState {
  BandLU<double> factor;  ///< the reusable factorised tangent
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
