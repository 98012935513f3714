// The EI = 0 lines' march policies in the system stepper (spec "Release cap", "Rotation- and
// snap-resolved sub-steps"): a chain surged slack and taut (the OC4 line of the speed issue)
// marches through SystemStepper with them (opt-in) within a few per cent of the single-line
// march at the snaps (four times closer than without them); without the line search its
// Newton stops at a snap, named, with it (a system with lines asks for it) the march runs; the
// march with the policies restarts bit for bit; bad settings are named errors.
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/dynamics.hpp"
#include "cabledyn/statics.hpp"
#include "support/motions.hpp"
#include "support/system_builders.hpp"

using namespace cabledyn;

namespace {

// OC4-DeepCwind line 2, 20 elements, from its fairlead to its anchor on a 200 m seabed.
const test_support::SectionNumbers kChain{835.35, 20, 7.536e8, 0, 113.35, 0.0766, -1.0, 2.0, 0.4, 0.8, 0.25};
const Vec3<double> kFair(-40.868, 0, -14), kAnchor(-837.6, 0, -200);

// The fairlead's surge: 5 m at a 10 s period, brought in over the first period.
EndMotion surge(double t) { return test_support::ramped_surge(t, kFair, 5, 10, 10); }

MooringSystem<double> chain_system() {
  Environment env;
  env.depth = 200;
  SeabedModel bed;
  bed.z = -200;
  bed.params.kBot = 3e6;
  bed.params.cBot = 3e5;
  MooringSystem<double> sys(env, "surged chain");
  PointModel<double> f, a;
  f.kind = PointKind::coupled;
  f.r = kFair;
  a.kind = PointKind::fixed;
  a.r = kAnchor;
  const int pf = sys.add_point(f), pa = sys.add_point(a);
  sys.add_line(LineModel<double>("chain", {test_support::system_section<double>(kChain)}, env, bed), pf, pa);
  sys.renumber();
  return sys;
}

constexpr double kDt = 0.1;

// The fairlead tension of the system march against the single-line march's over 25 s (two
// slack-and-snap cycles at full amplitude), the system's EI = 0 policies on or off (the line
// search on either way).
struct Comparison {
  double worst = 0, rms = 0, Tmax = 0;
  SystemStepperStatistics stats;
};
Comparison compare_with_single_line(bool policies) {
  const int steps = 250;
  Environment env;
  env.depth = 200;
  LineEnd ea, eb;
  ea.position = kFair;
  eb.position = kAnchor;
  Line line("chain", {{test_support::line_type_of(kChain), kChain.length, kChain.segs}}, ea, eb, env);
  StaticProblem prob;
  prob.seabed_z = -200;
  prob.seabed.kBot = 3e6;
  prob.seabed.cBot = 3e5;
  const auto st0 = TensionStatics(line, prob).solve();
  DynamicOptions dopt;
  dopt.seabed_z = -200;
  dopt.seabed = prob.seabed;
  LineDynamics dyn(line, dopt);
  EndMotions e;
  e[0].x = kFair;
  e[1].x = kAnchor;
  dyn.initialize(0, st0.q, e);
  auto sys = chain_system();
  if (policies) sys.set_march_policies(true, true);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  SystemStepperOptions so;
  so.rho_inf = dopt.rho_inf;
  so.line_search = SystemStepperOptions::LineSearch::on;
  SystemStepper<MooringSystem<double>> st(sys, so);
  st.initialize(s);
  Comparison c;
  double sq = 0;
  for (int k = 1; k <= steps; ++k) {
    const EndMotion m = surge(k * kDt);
    e[0] = m;
    dyn.step(kDt, e);
    sys.set_coupled(0, m.x, m.v, m.a);
    st.step(kDt);
    const double T1 = dyn.coupled_reaction(0).force.norm(), T2 = sys.line_end_force_dynamic(st.state(), 0, 0).norm();
    c.worst = std::max(c.worst, std::fabs(T1 - T2));
    sq += (T1 - T2) * (T1 - T2);
    c.Tmax = std::max(c.Tmax, T1);
  }
  c.rms = std::sqrt(sq / steps);
  c.stats = st.statistics();
  return c;
}

}  // namespace

TEST_CASE("A chain surged slack and taut: with the release cap and sub-steps the system stepper follows the "
          "single-line march",
          "[system][dynamics][policies]") {
  const Comparison on = compare_with_single_line(true), off = compare_with_single_line(false);
  const auto& ss = on.stats;
  INFO("policies on: largest fairlead tension difference " << on.worst << " N, rms " << on.rms << " N, of " << on.Tmax
                                                           << " N; release caps " << ss.release_caps
                                                           << ", sub-stepped steps " << ss.substepped << " (up to "
                                                           << ss.largest_substeps << "), kept plain " << ss.kept_plain
                                                           << "; policies off: " << off.worst << " N, rms " << off.rms
                                                           << " N");
  CHECK(on.Tmax > 1.5e6);  // the snaps: well above the 0.9 MN static tension
  CHECK(ss.release_caps > 0);
  CHECK(ss.substepped > 0);
  // The two steppers differ where a step is re-solved in sub-steps (the single-line march
  // moves the fairlead on a quintic over them, the system stepper linearly) and in their
  // Newton details, so the snap peaks differ by a few per cent. Observed: 3.5 % at most, 0.5 %
  // rms; without the policies 13.5 % and 1.9 %.
  CHECK(on.worst <= 0.05 * on.Tmax);
  CHECK(on.rms <= 0.01 * on.Tmax);
  CHECK(off.stats.release_caps == 0);
  CHECK(off.stats.substepped == 0);
  CHECK(off.rms >= 2 * on.rms);
  CHECK(off.worst >= 2 * on.worst);
}

TEST_CASE("A system of EI = 0 lines without its line search: its Newton stops at a snap, named; with it, it runs",
          "[system][dynamics][policies]") {
  auto sys = chain_system();
  CHECK(sys.wants_line_search());  // a system with lines asks for the line search
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const auto s0 = s;
  SystemStepperOptions so;
  so.rho_inf = 0.4;
  {
    // The line search on (automatic), the policies off (the default): 40 s of surge run.
    SystemStepper<MooringSystem<double>> st(sys, so);
    st.initialize(s0);
    for (int k = 1; k <= 400; ++k) {
      const EndMotion m = surge(k * kDt);
      sys.set_coupled(0, m.x, m.v, m.a);
      st.step(kDt);
    }
    CHECK(st.statistics().backtracks > 0);
    CHECK(st.statistics().release_caps == 0);
    CHECK(st.statistics().substepped == 0);
  }
  so.line_search = SystemStepperOptions::LineSearch::off;
  sys.set_coupled(0, kFair, Vec3<double>::Zero());  // back to t = 0
  SystemStepper<MooringSystem<double>> st(sys, so);
  st.initialize(s0);
  bool stopped = false;
  double t_stop = 0;
  for (int k = 1; k <= 400 && !stopped; ++k) {
    const EndMotion m = surge(k * kDt);
    sys.set_coupled(0, m.x, m.v, m.a);
    try {
      st.step(kDt);
    } catch (const SolveError& err) {
      stopped = true;
      t_stop = k * kDt;
      CHECK_THAT(err.what(), Catch::Contains("Newton iterations of the step at t ="));
    }
  }
  INFO("the march stopped at t = " << t_stop << " s");
  CHECK(stopped);
}

TEST_CASE("The system march with its policies restarts bit for bit; bad policy settings are named",
          "[system][dynamics][policies]") {
  auto sys = chain_system();
  auto s = sys.initial_state();
  solve_statics(sys, s);
  sys.set_march_policies(true, true);
  SystemStepper<MooringSystem<double>> st(sys, SystemStepperOptions{});
  st.initialize(s);
  auto march = [&](int k0, int k1) {
    for (int k = k0; k <= k1; ++k) {
      const EndMotion m = surge(k * kDt);
      sys.set_coupled(0, m.x, m.v, m.a);
      st.step(kDt);
    }
  };
  march(1, 120);
  const auto snap = st.snapshot();
  const auto stats0 = st.statistics();
  march(121, 200);
  const VecX<double> q1 = st.state().q, v1 = st.state().v;
  const long sub1 = st.statistics().substepped - stats0.substepped;
  st.restore(snap);
  march(121, 200);
  INFO("after the restart: |dq| " << (st.state().q - q1).cwiseAbs().maxCoeff() << ", |dv| "
                                  << (st.state().v - v1).cwiseAbs().maxCoeff());
  CHECK((st.state().q - q1).cwiseAbs().maxCoeff() == 0);
  CHECK((st.state().v - v1).cwiseAbs().maxCoeff() == 0);
  CHECK(sub1 > 0);  // the repeated stretch holds re-solved steps
  CHECK_THROWS_AS(sys.set_march_policies(true, true, 3), InputError);
  CHECK_THROWS_AS(sys.set_march_policies(true, true, 16, 0.0), InputError);
  CHECK_THROWS_AS(sys.set_march_policies(true, true, 16, 91.0), InputError);
  // The policies are double: turning them on in another scalar is refused, not ignored.
  MooringSystem<long double> sl(Environment{}, "long double");
  CHECK_THROWS_AS(sl.set_march_policies(true, false), NotImplementedError);
  CHECK_THROWS_AS(sl.set_march_policies(false, true), NotImplementedError);
  sl.set_march_policies(false, false);
}
