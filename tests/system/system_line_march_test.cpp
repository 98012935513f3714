// The retired single-line march's guarantees (its tests line_dynamics_test.cpp,
// line_dynamics_energy_test.cpp, ei0_substeps_test.cpp) asserted on the system route: one line
// between points of a MooringSystem marched by SystemStepper. A taut EI = 0 string oscillates at
// f = 1/(2l) sqrt(T/m); a pinned finite-EI beam at the Euler-Bernoulli frequency; a surged
// suspended line's fairlead tension converges at second order in dt with the default force
// blend, and a cable of small EI follows the EI = 0 line; the release cap keeps a rattling slack
// cable's total energy bounded (without it the force blend pumps it); the EI = 0 sub-steps move
// a hard-swung chain at a large step toward the fine-step reference; a catenary at rest stays at
// its static equilibrium (EI = 0 and finite EI), and bad stepper input is named. The bounds
// are the single-line tests'; the system route's figures (2026-12-07) are given at each check.
// They replaced the single-line march's own tests when it was retired (2026-12-07); the release
// cap with a dashpot keeps its energy bound too.
#include <catch2/catch.hpp>

#include "support/crossings.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/system.hpp"
#include "support/motions.hpp"
#include "support/system_builders.hpp"

using namespace cabledyn;

namespace {

// The OC3 line type of line_dynamics_test.cpp (d 0.09 m, 77.7066 kg/m, EA 384.243 MN, Cdn 1.6,
// Cdt 0.1, Can 1.0), of length L in segs elements, bending stiffness EI, axial damping BA.
test_support::SectionNumbers slp_oc3(double L, int segs, double EI, double BA = 0) {
  return {L, segs, 384.243e6, EI, 77.7066, 0.09, BA, 1.6, 0.1, 1.0, 0.0};
}

// One line from point A (End A) to point B (End B), A coupled or fixed, B fixed; numbered.
MooringSystem<double> slp_one_line(const Environment& env, const SeabedModel& bed, const test_support::SectionNumbers& n,
                                   const Vec3<double>& A, const Vec3<double>& B, bool a_coupled,
                                   const std::string& name = "line", bool pack = true) {
  MooringSystem<double> sys(env, name);
  sys.set_seabed(bed);
  const int pa = test_support::add_point(sys, a_coupled ? PointKind::coupled : PointKind::fixed, A);
  const int pb = test_support::add_point(sys, PointKind::fixed, B);
  LineModel<double> model(name, {test_support::system_section<double>(n)}, env, bed);
  model.set_pack_elements(pack);  // runs of equal Hermite elements evaluated packed (the default)
  sys.add_line(std::move(model), pa, pb);
  sys.renumber();
  return sys;
}

// The fairlead tension (FairTen: the line-end force without the end node's inertia) of line 0
// at end `end`.
double slp_tension(const MooringSystem<double>& sys, const SystemState<double>& s, int end) {
  return sys.line_end_force_dynamic(s, 0, end, false).norm();
}

// The sway of ei0_substeps_test.cpp: A sin(w t) along y, ramped in by (1 - cos(pi t / T)) / 2
// over one period, with its exact velocity and acceleration.
struct SlpKinematics {
  Vec3<double> x, v, a;
};
SlpKinematics slp_sway(const Vec3<double>& origin, double t, double A, double T) {
  const double w = 2 * kPi / T;
  const bool on = t < T;
  const double r = on ? 0.5 * (1 - std::cos(kPi * t / T)) : 1.0;
  const double r1 = on ? 0.5 * kPi / T * std::sin(kPi * t / T) : 0.0;
  const double r2 = on ? 0.5 * (kPi / T) * (kPi / T) * std::cos(kPi * t / T) : 0.0;
  const double sn = std::sin(w * t), cs = std::cos(w * t);
  SlpKinematics k;
  k.x = origin + Vec3<double>(0, A * r * sn, 0);
  k.v = Vec3<double>(0, A * (r1 * sn + r * w * cs), 0);
  k.a = Vec3<double>(0, A * (r2 * sn + 2 * r1 * w * cs - r * w * w * sn), 0);
  return k;
}

// The 20-element chain of ei0_substeps_test.cpp: 110 m from an anchor at 45 m depth (End A,
// fixed) to a fairlead 95 m away (End B, coupled) in 50 m of water, no seabed contact (as
// there: DynamicOptions without seabed_z).
const Vec3<double> kSlpSwayAnchor(0, 0, -45), kSlpSwayFair(95, 0, -5);
MooringSystem<double> slp_sway_system() {
  Environment env;
  env.depth = 50;
  MooringSystem<double> sys(env, "chain");
  const int pa = test_support::add_point(sys, PointKind::fixed, kSlpSwayAnchor);
  const int pf = test_support::add_point(sys, PointKind::coupled, kSlpSwayFair);
  const test_support::SectionNumbers chain{110, 20, 5e8, 0, 60, 0.08, 0, 1.2, 0.2, 1.0, 0};
  sys.add_line(LineModel<double>("chain", {test_support::system_section<double>(chain)}, env, SeabedModel{}), pa, pf);
  sys.renumber();
  return sys;
}

struct SlpSwayRun {
  std::vector<double> T;  // the fairlead tension every `every` steps
  SystemStepperStatistics stats;
};

// The chain swayed by A at period T, marched at dt to t_end with the release cap on and the
// EI = 0 sub-steps on or off (rho_inf 0.4: DynamicOptions' default, as the single-line test).
SlpSwayRun slp_sway_run(bool substeps, double dt, double t_end, int every, double A, double T) {
  auto sys = slp_sway_system();
  sys.set_march_policies(true, substeps);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  SystemStepperOptions so;
  so.rho_inf = 0.4;
  SystemStepper<MooringSystem<double>> st(sys, so);
  st.initialize(s);
  SlpSwayRun out;
  const long n = std::lround(t_end / dt);
  for (long k = 1; k <= n; ++k) {
    const SlpKinematics m = slp_sway(kSlpSwayFair, static_cast<double>(k) * dt, A, T);
    sys.set_coupled(1, m.x, m.v, m.a);
    st.step(dt);
    if (k % every == 0) out.T.push_back(slp_tension(sys, st.state(), 1));
  }
  out.stats = st.statistics();
  return out;
}

double slp_max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

// The free swing of line 0 from state s at rho_inf = 1 (no numerical damping), `steps`
// steps of dt: the mean period of the vertical motion of its middle node (of n elements)
// from its up-crossings (at least min_crossings), and the stepper's statistics.
struct Swing {
  double period = 0;
  SystemStepperStatistics stats;
};
Swing slp_swing(MooringSystem<double>& sys, const SystemState<double>& s, int n, double dt, int steps, std::size_t min_crossings) {
  SystemStepperOptions so;
  so.rho_inf = 1.0;
  SystemStepper<MooringSystem<double>> st(sys, so);
  st.initialize(s);
  const Eigen::Index mid = sys.node_dof(0, static_cast<std::size_t>(n / 2)) + 1;
  std::vector<double> ts, ys;
  for (int k = 0; k < steps; ++k) {
    st.step(dt);
    ts.push_back(st.state().t);
    ys.push_back(st.state().q(mid));
  }
  const auto c = test_support::upcrossings(ts, ys);
  REQUIRE(c.size() >= min_crossings);
  return Swing{test_support::mean_period(c), st.statistics()};
}

}  // namespace

TEST_CASE("slp: a taut EI = 0 string between two fixed points oscillates at f = 1/(2l) sqrt(T/m)",
          "[system][dynamics][string]") {
  // Neutrally buoyant, no hydrodynamic coefficients: a string in vacuum, weightless.
  Environment env;
  const double d = 0.09, EA = 384.243e6, L = 100.0, eps = 1e-3, l = L * (1 + eps);
  const int N = 40;
  test_support::SectionNumbers n;
  n.length = L;
  n.segs = N;
  n.EA = EA;
  n.EI = 0;
  n.d = d;
  n.rho_A = env.rho_w * kPi * d * d / 4;
  auto sys = slp_one_line(env, SeabedModel{}, n, {0, 0, -50}, {l, 0, -50}, false, "string");
  const double T = EA * eps, m_per_l = n.rho_A * L / l;  // mass per stretched metre
  const double f1 = 1 / (2 * l) * std::sqrt(T / m_per_l);
  // Mode 1 shape, small amplitude, at rest.
  auto s = sys.initial_state();
  for (std::size_t i = 1; i < static_cast<std::size_t>(N); ++i) {
    const double x = double(i) / N;
    s.q.segment<3>(sys.node_dof(0, i)) = Vec3<double>(x * l, 0.02 * std::sin(kPi * x), -50);
  }
  const double period = 1 / f1;
  const Swing sw = slp_swing(sys, s, N, period / 200, 1000, 4);
  const double measured = sw.period;
  const auto& stats = sw.stats;
  // The single-line test's tolerance (the same element model and scheme): linear elements with
  // consistent mass raise omega_1 by (pi/N)^2/24 (2.6e-4); the trapezoidal rule (rho_inf = 1)
  // lengthens the period by (omega dt)^2/12 (8e-5); the crossing interpolation is below 1e-5.
  const double rel = std::fabs(measured * f1 - 1);
  INFO("measured period " << measured << " analytic " << period << " relative error " << rel << "; "
                          << stats.subdivisions << " subdivided steps");
  CHECK(rel < 5e-4);  // system route: 2.1e-4
  CHECK(stats.release_caps == 0);  // a taut string: nothing releases
  CHECK(stats.substepped == 0);
}

TEST_CASE("slp: a finite-EI beam pinned between two fixed points oscillates at the Euler-Bernoulli frequency",
          "[system][dynamics][hermite][beam]") {
  Environment env;
  const double L = 20.0, d = 0.09, EI = 2e5, A = 0.01;
  const int N = 16;
  // Weightless in water, no added mass; a soft EA keeps the stretch of the deflected beam (the
  // geometric stiffening) below 1e-6 of the bending stiffness at this amplitude.
  test_support::SectionNumbers n;
  n.length = L;
  n.segs = N;
  n.EA = 1e6;
  n.EI = EI;
  n.d = d;
  n.rho_A = env.rho_w * kPi * d * d / 4;
  auto sys = slp_one_line(env, SeabedModel{}, n, {0, 0, -50}, {L, 0, -50}, false, "beam");
  REQUIRE(sys.line(0).model.hermite());
  // Fixed points without END CONNECTIONS: the ends pinned (their tangents free).
  const double f1 = std::pow(kPi / L, 2) * std::sqrt(EI / n.rho_A) / (2 * kPi);
  auto s = sys.initial_state();
  for (std::size_t i = 0; i <= static_cast<std::size_t>(N); ++i) {
    const double x = L * double(i) / N;
    if (i > 0 && i < static_cast<std::size_t>(N))
      s.q.segment<3>(sys.node_dof(0, i)) = Vec3<double>(x, A * std::sin(kPi * x / L), -50);
    sys.set_node_tangent(s, 0, i, Vec3<double>(1, A * kPi / L * std::cos(kPi * x / L), 0));
  }
  const Swing sw = slp_swing(sys, s, N, 1 / f1 / 200, 800, 3);
  const double measured = sw.period;
  // The single-line test's tolerance: cubic-Hermite elements converge at h^4 (below 1e-6 on 16
  // elements); the trapezoidal rule's period error (omega dt)^2/12 = 8e-5; the axial tension the
  // deflection induces (EA (pi A / 2L)^2 = 0.6 N) raises f1 by 6e-5.
  const double rel = std::fabs(measured * f1 - 1);
  INFO("measured period " << measured << " analytic " << 1 / f1 << " relative error " << rel << "; "
                          << sw.stats.subdivisions << " subdivided steps");
  CHECK(rel < 2e-4);  // system route: 3.6e-5
  CHECK(sw.stats.subdivisions == 0);  // no step beyond the step check's bounds
}

TEST_CASE("slp: harmonic surge of a suspended line through SystemStepper: the fairlead tension converges at second "
          "order in dt; a cable of small EI follows the EI = 0 line",
          "[system][dynamics][surge]") {
  // The single-line test's case: a suspended 420 m OC3 line (both ends in mid-water, no
  // seabed), its coupled fairlead surged 2 m / 20 s with a quintic ramp over the first period;
  // the tension compared at t = 10 s. Axial damping BA = 2e7 N s keeps the axial modes the start
  // excites small. The default force blend and EI = 0 policies; rho_inf 0.4 (DynamicOptions'
  // default); Newton to 1e-10 so that its error stays far below the 0.6 N of the finest
  // difference.
  const Vec3<double> fair(0, 0, -50), anchor(380, 0, -120);
  auto run = [&](double EI, double dt) {
    Environment env;
    auto sys = slp_one_line(env, SeabedModel{}, slp_oc3(420.0, 30, EI, 2e7), fair, anchor, true, "span");
    auto s = sys.initial_state();
    solve_statics(sys, s);
    SystemStepperOptions so;
    so.rho_inf = 0.4;
    so.tol = 1e-10;
    SystemStepper<MooringSystem<double>> st(sys, so);
    st.initialize(s);
    const int n = static_cast<int>(std::lround(10.0 / dt));
    for (int k = 1; k <= n; ++k) {
      const EndMotion m = test_support::ramped_surge(k * dt, fair, 2, 20, 20);
      sys.set_coupled(0, m.x, m.v, m.a);
      st.step(dt);
    }
    INFO("EI " << EI << " dt " << dt << ": " << st.statistics().subdivisions << " subdivided steps, "
               << st.statistics().substepped << " sub-stepped");
    CHECK(st.statistics().subdivisions == 0);
    return slp_tension(sys, st.state(), 0);
  };
  // Single-line route observed: differences 10.7, 2.55, 0.63 N between successive halvings
  // (orders 2.07, 2.02); its bounds kept. System route: orders 1.88, 1.97; the finite-EI cable
  // 2.8e-4 above the EI = 0 line.
  std::vector<double> T;
  for (double dt : {0.2, 0.1, 0.05, 0.025}) T.push_back(run(0, dt));
  const double e1 = std::fabs(T[0] - T[1]), e2 = std::fabs(T[1] - T[2]), e3 = std::fabs(T[2] - T[3]);
  const double o1 = std::log2(e1 / e2), o2 = std::log2(e2 / e3);
  INFO("tensions " << T[0] << " " << T[1] << " " << T[2] << " " << T[3] << "; orders " << o1 << " " << o2);
  CHECK(T[3] > 1e5);  // the line is loaded (an order of zero differences would pass nothing)
  CHECK(o1 > 1.8);
  CHECK(o2 > 1.8);
  CHECK(o2 < 2.3);
  // The finite-EI cable with a small EI follows the EI = 0 line (bending and the Hermite mesh
  // made 3e-4 of the difference on the single-line route).
  const double Th = run(1e3, 0.05);
  INFO("EI = 0 " << T[2] << " finite EI " << Th);
  CHECK(Th == Approx(T[2]).epsilon(1e-3));
}

namespace {

// The spec's light, axially stiff cable (80 kg/m, EA 8e8 N, dashpot BA) of 20 m between two
// fixed points 16 m apart, released in vacuum from a V stretched by 2e-4, marched for 10 s at
// dt with the release cap on or off (the sub-steps off: every step as given, as the spec's
// release-cap figures; rho_inf 0.4): the largest rise of the total energy (kinetic plus
// potential: strain and weight) above its start, whether the march failed (a pumped rattle
// that outran it), the capped element-steps and |E0|.
struct Rattle {
  double rise = 0, E0 = 0;
  bool failed = false;
  long caps = 0;
};
Rattle slp_rattle(double BA, double dt, bool cap) {
  Environment env;
  env.rho_w = 0;
  test_support::SectionNumbers n;
  n.length = 20;
  n.segs = 10;
  n.EA = 8e8;
  n.rho_A = 80;
  n.d = 0.1;
  n.BA = BA;
  auto sys = slp_one_line(env, SeabedModel{}, n, {0, 0, 0}, {16, 0, 0}, false, "slack");
  auto s0 = sys.initial_state();
  const double Ls = 20 * (1 + 2e-4), h = std::sqrt(Ls * Ls / 4 - 64);
  for (std::size_t i = 1; i < 10; ++i) {
    const double sa = double(i) / 10 * Ls;
    s0.q.segment<3>(sys.node_dof(0, i)) =
        sa <= Ls / 2 ? Vec3<double>(8 * sa / (Ls / 2), 0, -h * sa / (Ls / 2))
                     : Vec3<double>(8 + 8 * (sa - Ls / 2) / (Ls / 2), 0, -h * (1 - (sa - Ls / 2) / (Ls / 2)));
  }
  auto energy = [&](const SystemState<double>& s) { return sys.kinetic_energy(s) + sys.potential_energy(s); };
  Rattle r;
  r.E0 = energy(s0);
  sys.set_march_policies(cap, false);
  SystemStepperOptions so;
  so.rho_inf = 0.4;
  SystemStepper<MooringSystem<double>> st(sys, so);
  st.initialize(s0);
  double Emax = r.E0;
  try {
    for (int k = 0; k < static_cast<int>(10 / dt); ++k) {
      st.step(dt);
      Emax = std::max(Emax, energy(st.state()));
    }
  } catch (const SolveError&) {
    r.failed = true;
  }
  r.rise = Emax - r.E0;
  r.caps = st.statistics().release_caps;
  r.E0 = std::fabs(r.E0);
  return r;
}

}  // namespace

TEST_CASE("slp: the release cap keeps a rattling slack cable's total energy bounded in the system march",
          "[system][dynamics][release_cap]") {
  // The rattling cable of slp_rattle without a dashpot: it falls, goes slack and snaps taut
  // again and again. The system stepper has no created-energy counter (the single-line
  // statistic); the total energy is its witness.
  for (double dt : {0.005, 0.02}) {  // omega dt of a segment's axial mode: 8 and 32
    const Rattle plain = slp_rattle(0, dt, false), capped = slp_rattle(0, dt, true);
    INFO("dt " << dt << ": largest total-energy rise without the cap " << plain.rise << " J"
               << (plain.failed ? " (the march then failed)" : "") << ", with it " << capped.rise << " J; |E0| "
               << capped.E0 << " J; capped element-steps " << capped.caps);
    // Single-line route: without the cap the force blend pumps the rattle (total-energy rise
    // above 10 |E0|), with it the rise stays below 0.2 |E0|; bounds kept. Without the cap the
    // system march may instead stop at a step it cannot follow: that counts as pumped.
    // System route: without the cap 5.0e7 J (dt 0.005) and 2.9e6 J (dt 0.02) against |E0| =
    // 4.7e4 J; with it 329 J and 358 J; 209 and 76 capped element-steps.
    CHECK((plain.failed || plain.rise > 10 * plain.E0));
    CHECK_FALSE(capped.failed);
    CHECK(capped.rise < 0.2 * capped.E0);
    CHECK(capped.caps > 50);
  }
}

TEST_CASE("slp: the release cap with axial damping: the dashpot share is capped as well", "[system][dynamics][release_cap]") {
  // The same rattling cable with a dashpot (BA 3e4 and 1e5 N s: dashpot tensions of the order
  // of the elastic ones as the segments release). The dashpot dissipates, so a rise of the
  // total energy above its start is energy the blended elastic and dashpot forces created (and
  // the scheme's transient: the undamped cable's rises by 329 J with the cap, above); the cap
  // (spec "Release cap": the dashpot weight phi and the slack-start budget W_d) halves it.
  // Observed: without the cap 336 J (BA 3e4, dt 5 ms) and 3255 J (BA 1e5, dt 20 ms), with it
  // 206 J and 1646 J, |E0| 4.7e4 J; 46 and 26 capped element-steps. (The single-line march,
  // before it was retired, counted the created energy per element and step alone: 135 J ->
  // 0.009 J and 1157 J -> 6.6 J.)
  for (const auto& [BA, dt] : {std::pair{3e4, 0.005}, std::pair{1e5, 0.02}}) {
    const Rattle plain = slp_rattle(BA, dt, false), capped = slp_rattle(BA, dt, true);
    INFO("BA " << BA << " dt " << dt << ": largest total-energy rise without the cap " << plain.rise << " J"
               << (plain.failed ? " (the march then failed)" : "") << ", with it " << capped.rise << " J; |E0| "
               << capped.E0 << " J; capped element-steps " << capped.caps);
    CHECK_FALSE(plain.failed);  // the dashpot keeps the uncapped march going
    CHECK_FALSE(capped.failed);
    CHECK(plain.rise > 100.0);
    CHECK(capped.rise < 0.7 * plain.rise);
    CHECK(capped.rise < 0.05 * capped.E0);
    CHECK(capped.caps > 20);
  }
}

TEST_CASE("slp: EI = 0 sub-steps in the system march: a hard-swung chain at a large step moves toward the fine-step "
          "reference",
          "[system][dynamics][policies]") {
  // ei0_substeps_test.cpp's case through SystemStepper: the fairlead swayed 12 m at 5 s, dt =
  // 0.2 s, up to 7.2 s (the first snap; later slack phases make the response so sensitive that
  // a dt / 8 march differs from the reference by about 8 % of the peak).
  const double A = 12, T = 5, dt = 0.2, t_end = 7.2;
  const SlpSwayRun ref = slp_sway_run(false, dt / 32, t_end, 32, A, T);  // dt / 32 taken as given
  const SlpSwayRun plain = slp_sway_run(false, dt, t_end, 1, A, T);
  const SlpSwayRun sub = slp_sway_run(true, dt, t_end, 1, A, T);
  REQUIRE(ref.T.size() == plain.T.size());
  REQUIRE(sub.T.size() == plain.T.size());
  const double e_plain = slp_max_abs_diff(plain.T, ref.T), e_sub = slp_max_abs_diff(sub.T, ref.T);
  const auto& ss = sub.stats;
  INFO("plain error " << e_plain << " N, sub-stepped error " << e_sub << " N, peak "
                      << *std::max_element(ref.T.begin(), ref.T.end()) << " N; plain largest turn "
                      << plain.stats.largest_turn_deg << " deg, sub-stepped " << ss.largest_turn_deg << " deg; "
                      << ss.substepped << " of " << ss.steps << " steps sub-stepped, largest count "
                      << ss.largest_substeps << ", kept plain " << ss.kept_plain);
  // The single-line test's assertions, on the system stepper's statistics.
  CHECK(plain.stats.largest_turn_deg > 2.0);  // the plain march turns segments by degrees
  CHECK(plain.stats.substepped == 0);
  CHECK(ss.substepped > 0);
  CHECK(ss.largest_substeps >= 4);
  CHECK(ss.largest_turn_deg < plain.stats.largest_turn_deg);
  CHECK(e_sub < 0.5 * e_plain);  // system route: 2.6 kN against 9.0 kN (peak 156 kN)
}

TEST_CASE("slp: a catenary at rest stays at its static equilibrium in the system march (EI = 0 and finite EI); "
          "bad stepper input is named",
          "[system][dynamics][errors]") {
  // The OC3 line (902.2 m, 40 elements) from a fairlead 70 m down to an anchor on the 320 m
  // seabed (kBot 1e5).
  Environment env;
  env.depth = 320;
  SeabedModel bed;
  bed.z = -320;
  bed.params.kBot = 1e5;
  const Vec3<double> fair(5.2, 0, -70), anchor(853.87, 0, -320);
  for (double EI : {0.0, 1e3}) {
    auto sys = slp_one_line(env, bed, slp_oc3(902.2, 40, EI), fair, anchor, true, "OC3");
    auto s = sys.initial_state();
    const auto res = solve_statics(sys, s);
    const double T0 = sys.line_end_force(s, 0, 0).norm();
    SystemStepper<MooringSystem<double>> st(sys);
    st.initialize(s);
    double worst = 0;
    for (int k = 0; k < 100; ++k) {
      st.step(0.05);
      worst = std::max(worst, std::fabs(slp_tension(sys, st.state(), 0) - T0) / T0);
    }
    // The system statics converge to 1e-10 of their force scale (SystemStaticOptions::tol): the
    // fairlead tension stays within 1e-9 of the static value, no start-up transient (the
    // single-line bound, whose statics converged only to 1e-8).
    INFO("EI " << EI << ": static residual " << res.residual << " N of " << res.scale
               << " N; worst relative fairlead tension change " << worst);
    CHECK(worst < 1e-9);
  }
  // Named errors: a spectral radius outside [0, 1], a step that is not positive; the state stays.
  auto sys = slp_one_line(env, bed, slp_oc3(902.2, 10, 0), fair, anchor, true, "OC3");
  auto s = sys.initial_state();
  solve_statics(sys, s);
  SystemStepperOptions bad;
  bad.rho_inf = 1.2;
  CHECK_THROWS_WITH(SystemStepper<MooringSystem<double>>(sys, bad), Catch::Contains("rhoInf = 1.2 (limit: in [0, 1])"));
  SystemStepper<MooringSystem<double>> st(sys);
  st.initialize(s);
  CHECK_THROWS_WITH(st.step(0.0), "InputError: stepper: dt = 0 (limit: > 0)");
  CHECK_THROWS_AS(st.step(-0.1), InputError);
  CHECK(st.state().t == 0);
  CHECK(st.state().q == s.q);
}

TEST_CASE("slp: a slow sway is taken as given with the EI = 0 sub-steps on, bit for bit", "[system][dynamics][policies]") {
  // ei0_substeps_test.cpp's slow case: 0.5 m at 20 s, dt 0.05 s, over 30 s; no segment turns
  // fast enough to ask for sub-steps, so the march with them on is the march without them.
  const SlpSwayRun on = slp_sway_run(true, 0.05, 30, 1, 0.5, 20), off = slp_sway_run(false, 0.05, 30, 1, 0.5, 20);
  CHECK(on.stats.substepped == 0);
  REQUIRE(on.T.size() == off.T.size());
  CHECK(on.T == off.T);
}

TEST_CASE("slp: packed Hermite elements march as the one-at-a-time evaluation through SystemStepper",
          "[system][dynamics][pack]") {
  // packed_elements_test.cpp's surge through the system march: a suspended 420 m cable (EI 1e4
  // N m^2, 30 equal elements: one packed run) surged 2 m / 20 s; the fairlead tension of the
  // packed march and of the one-at-a-time march agree to round-off at every step.
  const Vec3<double> fair(0, 0, -50), anchor(380, 0, -120);
  auto run = [&](bool pack) {
    Environment env;
    auto sys = slp_one_line(env, SeabedModel{}, slp_oc3(420.0, 30, 1e4, 2e7), fair, anchor, true, "span", pack);
    auto s = sys.initial_state();
    solve_statics(sys, s);
    SystemStepper<MooringSystem<double>> st(sys);
    st.initialize(s);
    std::vector<double> T;
    for (int k = 1; k <= 100; ++k) {
      const EndMotion m = test_support::ramped_surge(k * 0.1, fair, 2, 20, 20);
      sys.set_coupled(0, m.x, m.v, m.a);
      st.step(0.1);
      T.push_back(slp_tension(sys, st.state(), 0));
    }
    return T;
  };
  const std::vector<double> packed = run(true), single = run(false);
  REQUIRE(packed.size() == single.size());
  double worst = 0;
  for (std::size_t k = 0; k < packed.size(); ++k) worst = std::max(worst, std::fabs(packed[k] / single[k] - 1));
  INFO("largest relative difference of the fairlead tension " << worst);
  CHECK(worst < 1e-7);  // the single-line test's bound
}
