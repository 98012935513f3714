// The staggered body scheme (spec "Rigid-body time integration", bodyScheme staggered): a
// moored body's first acceleration is the monolithic scheme's; released off balance it
// converges at second order and agrees with the monolithic scheme; a pinned rod swings with the
// compound pendulum's period and keeps its amplitude; a rod pinned on a staggered body stays in
// the line step; two bodies joined by a line are swept; a step allocates nothing; a deck's body in waves through
// SystemSimulation (bodyScheme staggered) follows the monolithic scheme and restarts bit for bit.
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include <catch2/catch.hpp>

#include "support/crossings.hpp"

#include <cmath>
#include <cstdio>

#include "cabledyn/core/so3.hpp"
#include "cabledyn/dynamics/staggered_stepper.hpp"
#include "cabledyn/io/system_simulation.hpp"
#include "cabledyn/system.hpp"
#include "support/alloc_counter.hpp"
#include "support/system_builders.hpp"

using namespace cabledyn;

namespace {

constexpr double st_pi = 3.14159265358979323846;

// The float of the system tests moored by its three lines (EI = 0, no damping, no drag).
MooringSystem<double> st_moored() {
  MooringSystem<double> sys(Environment{}, "moored float");
  sys.add_body(test_support::float_body<double>());
  test_support::add_float_lines(sys, {0.0, 0.0, 0.0}, {10, 4, 10}, 0.0, 0.0, 0.0, 0.0);
  sys.renumber();
  return sys;
}

// The body's pose after `steps` staggered steps of dt from its static balance under a step
// load of 5e4 N in x (lines at rho_inf 1); sub-steps per `substep`.
struct StaggeredRun {
  Vec3<double> r;
  Mat3<double> R;
  int substeps = 1;
};
StaggeredRun st_released(double dt, int steps, double substep) {
  auto sys = st_moored();
  auto s = sys.initial_state();
  solve_statics(sys, s);
  sys.body(0).force = Vec3<double>(5e4, 0, 0);
  const StaggeredBodies sb = stagger_bodies(sys, s);
  SystemStepperOptions o;
  o.rho_inf = 1.0;
  o.tol = 1e-11;
  SystemStepper<MooringSystem<double>> inner(sys, o);
  StaggeredOptions so;
  so.substep = substep;
  StaggeredStepper<MooringSystem<double>> st(sys, inner, sb, so);
  st.initialize(s);
  StaggeredRun out;
  for (int k = 0; k < steps; ++k) {
    st.step(dt);
    out.substeps = std::max(out.substeps, st.last_substeps());
  }
  sys.body_pose(st.state(), 0, out.r, out.R);
  return out;
}

// The same with the monolithic scheme.
StaggeredRun mono_released(double dt, int steps) {
  auto sys = st_moored();
  auto s = sys.initial_state();
  solve_statics(sys, s);
  sys.body(0).force = Vec3<double>(5e4, 0, 0);
  SystemStepperOptions o;
  o.rho_inf = 1.0;
  o.tol = 1e-11;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(s);
  for (int k = 0; k < steps; ++k) st.step(dt);
  StaggeredRun out;
  sys.body_pose(st.state(), 0, out.r, out.R);
  return out;
}

}  // namespace

TEST_CASE("The staggered scheme holds the free bodies and keeps the state of the lines", "[system][staggered]") {
  auto sys = st_moored();
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const Eigen::Index npos = sys.position_dofs();
  const VecX<double> q = s.q;
  Vec3<double> r;
  Mat3<double> R;
  sys.body_pose(s, 0, r, R);
  const StaggeredBodies sb = stagger_bodies(sys, s);
  REQUIRE(sb.index == std::vector<int>{0});
  CHECK(sb.flag[0] == 1);
  CHECK(sys.body(0).kind == BodyKind::coupled);
  CHECK(sys.dofs() == npos);
  CHECK(s.q.size() == npos);
  CHECK((s.q - q.head(npos)).cwiseAbs().maxCoeff() == 0.0);
  Vec3<double> r2;
  Mat3<double> R2;
  sys.body_pose(s, 0, r2, R2);
  CHECK((r2 - r).norm() == 0.0);
  CHECK((R2 - R).norm() == 0.0);
}

TEST_CASE("A moored body released off balance: the staggered scheme starts from the monolithic scheme's "
          "acceleration, converges at second order and agrees with it",
          "[system][staggered][dynamics]") {
  // The first acceleration: the body's equation of motion with its lines' end-node inertia
  // (the monolithic stepper solves the whole system at once).
  {
    auto sys = st_moored();
    auto s = sys.initial_state();
    solve_statics(sys, s);
    sys.body(0).force = Vec3<double>(5e4, 0, 0);
    sys.body(0).moment = Vec3<double>(0, 0, 2e5);
    SystemStepper<MooringSystem<double>> mono(sys);
    mono.initialize(s);
    const Vec6<double> am = mono.state().a.segment<6>(sys.body_dof(0));
    const StaggeredBodies sb = stagger_bodies(sys, s);
    SystemStepper<MooringSystem<double>> inner(sys);
    StaggeredStepper<MooringSystem<double>> st(sys, inner, sb);
    st.initialize(s);
    Vec6<double> as;
    as << sys.body(0).a, sys.body(0).alpha;
    INFO("first acceleration: monolithic " << am.transpose() << ", staggered " << as.transpose());
    CHECK(am.norm() > 0.05);
    CHECK((as - am).cwiseAbs().maxCoeff() <= 1e-9 * am.cwiseAbs().maxCoeff());
  }
  // Observed order over dt, dt / 2, dt / 4 (no sub-steps), 4 s of the transient.
  const double T = 4.0;
  const StaggeredRun a = st_released(0.04, 100, 0), b = st_released(0.02, 200, 0), c = st_released(0.01, 400, 0);
  const double e1 = (a.r - b.r).norm(), e2 = (b.r - c.r).norm();
  const double o_pos = std::log2(e1 / e2);
  const double e1r = so3_log(Mat3<double>(a.R * b.R.transpose())).norm(),
               e2r = so3_log(Mat3<double>(b.R * c.R.transpose())).norm();
  const double o_rot = std::log2(e1r / e2r);
  // The monolithic scheme at the finest step, and the staggered scheme with its sub-steps at
  // a step 25 times longer.
  const StaggeredRun m = mono_released(0.005, 800);
  const StaggeredRun d = st_released(0.1, 40, 0.4);
  Vec3<double> r0;
  {
    auto sys = st_moored();
    auto s = sys.initial_state();
    solve_statics(sys, s);
    Mat3<double> R0;
    sys.body_pose(s, 0, r0, R0);
  }
  const double moved = (m.r - r0).norm();
  INFO("displacement " << moved << " m at t = " << T << " s; staggered differences " << e1 << ", " << e2
                       << " m (order " << o_pos << "), rotation " << e1r << ", " << e2r << " rad (order " << o_rot
                       << "); against the monolithic scheme: dt 0.01 " << (c.r - m.r).norm() << " m, dt 0.1 with "
                       << d.substeps << " sub-steps " << (d.r - m.r).norm() << " m");
  CHECK(moved > 0.02);
  CHECK(o_pos > 1.8);
  CHECK(o_pos < 2.3);
  CHECK(o_rot > 1.7);
  CHECK((c.r - m.r).norm() <= 1e-5 * moved);
  CHECK(d.substeps >= 2);
  CHECK((d.r - m.r).norm() <= 1e-3 * moved);
}

TEST_CASE("A rod pinned at a held pin swings by the staggered scheme with the compound pendulum's period",
          "[system][staggered][rods][dynamics]") {
  const double L = 10, d = 0.2, mu = 100, Ca = 1.0, th0 = 0.02;
  Environment env;
  MooringSystem<double> sys(env, "pendulum");
  BodyModel<double> B;
  B.name = "pinned rod";
  B.kind = BodyKind::pinned;
  B.r = Vec3<double>(0, 0, -20);
  B.R = so3_exp(Vec3<double>(0, th0, 0)) * rotation_xyz(st_pi, 0.0, 0.0);
  RodPart<double> rod;
  rod.b = Vec3<double>(0, 0, L);
  rod.d = d;
  rod.rho_A = mu;
  rod.Ca = Ca;
  rod.CaEnd = 0.6;
  rod.segments = 8;
  B.rods.push_back(rod);
  sys.add_body(B);
  sys.renumber();
  const double A = st_pi * d * d / 4, rA = env.rho_w * A;
  const double I_pin = mu * (L * L * L / 3 + d * d / 4 * L / 4) + rA * Ca * L * L * L / 3;
  const double k = (mu - rA) * env.g * L * L / 2;
  const double T_exact = 2 * st_pi * std::sqrt(I_pin / k);
  auto s = sys.initial_state();
  const StaggeredBodies sb = stagger_bodies(sys, s);
  REQUIRE(sb.flag[0] == 2);
  REQUIRE(sys.dofs() == 0);
  // The estimate is the swing's own frequency (no lines): sqrt(|W d_g - B d_b| / I_pin), the
  // first moment of its weight and buoyancy over its inertia about the pin.
  const double omega = sys.body_frequency_estimate(s, &sb.flag);
  CHECK(omega == Approx(std::sqrt(k / I_pin)).epsilon(1e-12));
  SystemStepper<MooringSystem<double>> inner(sys);
  StaggeredStepper<MooringSystem<double>> st(sys, inner, sb);
  st.initialize(s);
  const double dt = T_exact / 50;
  std::vector<double> x;
  int most = 0;
  for (int k2 = 0; k2 < 500; ++k2) {
    st.step(dt);
    most = std::max(most, st.last_substeps());
    Vec3<double> r;
    Mat3<double> R;
    sys.body_pose(st.state(), 0, r, R);
    CHECK((r - B.r).norm() == 0.0);  // the pin stays
    x.push_back(Vec3<double>(R * Vec3<double>(0, 0, L))(0));
  }
  const std::vector<double> up = test_support::upcrossings(x, dt);
  REQUIRE(up.size() >= 5);
  const double T_march = test_support::mean_period(up);
  double amp = 0;
  for (double v : x) amp = std::max(amp, std::fabs(v));
  INFO("pendulum period: staggered " << T_march << " s, analytic " << T_exact << " s (" << (T_march - T_exact) / T_exact
                                     << "); amplitude " << amp
                                     << " m; sub-steps " << most);
  CHECK(most == 1);  // omega dt = 2 pi / 50 < 0.4
  // The central difference's period error, -(omega dt)^2 / 24 = -6.6e-4 at 50 steps a period
  // (the amplitude's own lengthening th0^2 / 16 = 2.5e-5).
  const double err = (T_march - T_exact) / T_exact, cd = -std::pow(2 * st_pi / 50, 2) / 24;
  CHECK(err == Approx(cd).epsilon(0.1));
  CHECK(amp == Approx(L * std::sin(th0)).epsilon(1e-5));  // no numerical damping
}

TEST_CASE("A rod pinned on a staggered body stays in the line step; the float and its rod follow the monolithic "
          "scheme",
          "[system][staggered][rods][dynamics]") {
  auto build = [] {
    auto sys = st_moored();
    BodyModel<double> P;
    P.name = "hanging rod";
    P.kind = BodyKind::pinned;
    P.parent = 0;
    P.pin = Vec3<double>(0, 0, -6);
    P.R = so3_exp(Vec3<double>(0.1, 0, 0)) * rotation_xyz(st_pi, 0.0, 0.0);
    RodPart<double> rod;
    rod.b = Vec3<double>(0, 0, 4);
    rod.d = 0.3;
    rod.rho_A = 200;
    rod.Ca = 1.0;
    rod.segments = 4;
    P.rods.push_back(rod);
    sys.add_body(P);
    sys.renumber();
    return sys;
  };
  SystemStepperOptions o;
  o.rho_inf = 1.0;
  o.tol = 1e-11;
  auto sm = build();
  auto s = sm.initial_state();
  solve_statics(sm, s);
  const auto s0 = s;
  Vec3<double> r0;
  Mat3<double> R0;
  sm.body_pose(s0, 0, r0, R0);
  sm.body(0).force = Vec3<double>(5e4, 0, 2e4);
  SystemStepper<MooringSystem<double>> mono(sm, o);
  mono.initialize(s);
  for (int k = 0; k < 1200; ++k) mono.step(0.0025);
  Vec3<double> rm, pm;
  Mat3<double> Rm, Pm;
  sm.body_pose(mono.state(), 0, rm, Rm);
  sm.body_pose(mono.state(), 1, pm, Pm);
  // The staggered scheme at dt: the float's and the rod's differences from the monolithic run.
  auto staggered = [&](double dt) {
    auto ss = build();
    auto st0 = s0;
    const StaggeredBodies sb = stagger_bodies(ss, st0);
    REQUIRE(sb.index == std::vector<int>{0});
    CHECK(sb.flag[1] == 0);
    CHECK(ss.body(1).kind == BodyKind::pinned);
    CHECK(ss.dofs() == ss.position_dofs() + 3);  // the rod's rotation stays a DOF of the line step
    ss.body(0).force = Vec3<double>(5e4, 0, 2e4);
    SystemStepper<MooringSystem<double>> inner(ss, o);
    StaggeredStepper<MooringSystem<double>> stag(ss, inner, sb);
    stag.initialize(st0);
    const int n = static_cast<int>(std::lround(3.0 / dt));
    for (int k = 0; k < n; ++k) stag.step(dt);
    Vec3<double> rs, ps;
    Mat3<double> Rs, Ps;
    ss.body_pose(stag.state(), 0, rs, Rs);
    ss.body_pose(stag.state(), 1, ps, Ps);
    return std::pair<double, double>((rs - rm).norm(), so3_log(Mat3<double>(Ps * Pm.transpose())).norm());
  };
  const auto [d1, a1] = staggered(0.01);
  const auto [d2, a2] = staggered(0.005);
  Mat3<double> P0;
  Vec3<double> p0;
  sm.body_pose(s0, 1, p0, P0);
  const double swing = so3_log(Mat3<double>(Pm * P0.transpose())).norm();
  INFO("after 3 s: float moved " << (rm - r0).norm() << " m, rod turned " << swing << " rad; staggered against "
                                 << "monolithic at dt 0.01 / 0.005 s: float " << d1 << " / " << d2 << " m, rod " << a1
                                 << " / " << a2 << " rad");
  CHECK((rm - r0).norm() > 0.1);
  CHECK(swing > 0.01);
  CHECK(d1 <= 1e-4 * (rm - r0).norm());
  CHECK(a1 <= 1e-4 * swing);
  CHECK(a2 <= a1 / 3);  // converging at about second order
}

TEST_CASE("A staggered step allocates nothing", "[system][staggered][dynamics]") {
  auto sys = st_moored();
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const StaggeredBodies sb = stagger_bodies(sys, s);
  SystemStepper<MooringSystem<double>> inner(sys);
  StaggeredStepper<MooringSystem<double>> st(sys, inner, sb);
  st.initialize(s);
  st.step(0.1);
  sys.body(0).force = Vec3<double>(1e4, 0, 0);
  test_support::AllocationCounter count;
  {
    test_support::EigenMallocGuard guard;
    for (int k = 0; k < 5; ++k) st.step(0.1);
  }
  CHECK(count.allocations() == 0);
}

namespace {

// A submerged buoyant body moored by three lines in an Airy wave (tests/system), with the
// body scheme as given.
const char* st_deck = R"(--------------------- MoorDyn Input File ------------------------------------
A submerged buoyant body moored by three lines in waves (tests/system)
--------------------- LINE TYPES ---------------------------------------
TypeName   Diam     Mass/m     EA          BA/-zeta   EI       Cd    Ca    CdAx  CaAx
(-)        (m)      (kg/m)     (N)         (N-s/-)    (N-m^2)  (-)   (-)   (-)   (-)
wire       0.1      80         5e8         0          0.0      1.2   1.0   0.2   0.0
---------------------------- BODIES -----------------------------------------------------
ID   Attachment  X0     Y0    Z0     r0      p0     y0     Mass  CG*      I*               Volume   CdA*   Ca
(#)     (-)      (m)    (m)   (m)   (deg)   (deg)  (deg)   (kg)  (m)      (kg-m^2)         (m^3)    (m^2)  (-)
1       Free      0      0    -20    0       0      30      2e5   0.3|0|-5 2e6|2.2e6|8e5    250      20     0.8
--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z         Mass    Vol     CdA    Ca
(-)   (-)       (m)        (m)        (m)       (kg)    (m^3)   (m^2)  (-)
1     Body1     3          0          -2        0       0       0      0
2     Body1     -1.5       2.598      -2        0       0       0      0
3     Body1     -1.5       -2.598     -2        0       0       0      0
4     Fixed     100        0          -150      0       0       0      0
5     Fixed     -50        86.6       -150      0       0       0      0
6     Fixed     -50        -86.6      -150      0       0       0      0
--------------------- LINES --------------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
(-)  (-)        (-)      (-)      (m)       (-)      (-)
1    wire       1        4        158       12       -
2    wire       2        5        158       12       -
3    wire       3        6        158       12       -
--------------------- OPTIONS ------------------------------------------
airy waves 4 8 0
0.05 dtM
SCHEME bodyScheme
--------------------- need this line ------------------------------------
)";

io::Deck st_deck_with(const std::string& scheme) {
  std::string t = st_deck;
  t.replace(t.find("SCHEME"), 6, scheme);
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  return io::parse_deck(t, "body_waves.dat", ro);
}

// The body's x and the force of its lines in x over steps from..to of dt.
std::vector<double> st_deck_run(io::SystemSimulation& sim, int from, int to, double dt) {
  std::vector<double> out;
  for (int k = from; k <= to; ++k) {
    sim.step(nullptr, nullptr, sim.time(), dt, nullptr);
    Vec3<double> r;
    Mat3<double> R;
    sim.body_pose(1, r, R);
    out.push_back(r(0));
    out.push_back(sim.body_load(1)(0));
  }
  return out;
}

}  // namespace

TEST_CASE("bodyScheme staggered: a deck's body in waves through SystemSimulation follows the monolithic scheme and "
          "restarts bit for bit",
          "[system][staggered][io]") {
  io::SystemSimulation stag(st_deck_with("staggered")), mono(st_deck_with("monolithic"));
  REQUIRE(stag.deck().options.body_scheme_staggered);
  REQUIRE(!mono.deck().options.body_scheme_staggered);
  stag.initialize(nullptr, nullptr);
  mono.initialize(nullptr, nullptr);
  CHECK(stag.staggered_body(0));
  CHECK(!mono.staggered_body(0));
  CHECK(stag.body_kind(0) == BodyKind::free);
  const double dt = 0.05;
  const auto a = st_deck_run(stag, 1, 200, dt), b = st_deck_run(mono, 1, 200, dt);
  double xr = 0, fr = 0, dx = 0, df = 0;
  for (std::size_t i = 0; i < a.size(); i += 2) {
    xr = std::max(xr, std::fabs(b[i] - b[0])), fr = std::max(fr, std::fabs(b[i + 1] - b[1]));
    dx = std::max(dx, std::fabs(a[i] - b[i])), df = std::max(df, std::fabs(a[i + 1] - b[i + 1]));
  }
  INFO("10 s in waves: body surge range " << xr << " m, difference " << dx << " m; line force range " << fr
                                          << " N, difference " << df << " N; staggered sub-steps up to "
                                          << stag.max_substeps());
  CHECK(xr > 0.05);
  CHECK(dx <= 3e-3 * xr);
  CHECK(df <= 2e-2 * fr);
  // Save, run on, load, run again: bit for bit, in this simulation and in a fresh one.
  const std::string path = std::string(CABLEDYN_SOURCE_DIR) + "/tests/system/staggered_waves.test_state";
  stag.save(path);
  const auto c = st_deck_run(stag, 201, 240, dt);
  stag.load(path);
  const auto d = st_deck_run(stag, 201, 240, dt);
  CHECK(c == d);
  {
    io::SystemSimulation fresh(st_deck_with("staggered"));
    fresh.initialize(nullptr, nullptr);
    fresh.load(path);
    CHECK(st_deck_run(fresh, 201, 240, dt) == c);
  }
  std::remove(path.c_str());
  // The static outputs read the system as its statics solved it: the body free there, at its
  // static pose (the march has moved the held one).
  CHECK(stag.static_system().body(0).kind == BodyKind::free);
  CHECK(stag.static_system().dofs() == mono.system().dofs());
  Vec3<double> rs, rm;
  Mat3<double> Rs, Rm;
  stag.static_system().body_pose(stag.static_state(), 0, rs, Rs);
  mono.static_system().body_pose(mono.static_state(), 0, rm, Rm);
  CHECK((rs - rm).norm() == 0.0);
  // A second initialize starts again from the deck's free body.
  stag.initialize(nullptr, nullptr);
  CHECK(stag.time() == 0.0);
  CHECK(stag.staggered_body(0));
  const auto e = st_deck_run(stag, 1, 20, dt);
  CHECK(std::vector<double>(e.begin(), e.end()) == std::vector<double>(a.begin(), a.begin() + 40));
  // Another scheme is refused by name.
  CHECK_THROWS_WITH(st_deck_with("explicit"), Catch::Contains("bodyScheme") && Catch::Contains("explicit"));
}

TEST_CASE("Two bodies joined by a line: the staggered scheme sweeps their accelerations and follows the monolithic "
          "scheme",
          "[system][staggered][dynamics]") {
  // Two floats 60 m apart, each moored by three lines to anchors 100 m out and 150 m down,
  // joined by a 56 m line between their facing fairleads; a step load on the first.
  auto build = [] {
    MooringSystem<double> sys(Environment{}, "two floats");
    SectionModel<double> leg;
    leg.length = 158;
    leg.segments = 10;
    leg.EA = 5e8;
    leg.rho_A = 80;
    leg.d = 0.1;
    for (int b = 0; b < 2; ++b) {
      BodyModel<double> B = test_support::float_body<double>();
      B.name = b == 0 ? "float A" : "float B";
      B.r(0) = 60.0 * b;
      sys.add_body(B);
      for (int i = 0; i < 3; ++i) {
        const double th = 2 * st_pi * i / 3 + (b == 0 ? st_pi / 3 : 0.0);  // the facing sides left free
        PointModel<double> f;
        f.kind = PointKind::body;
        f.body = b;
        f.r = Vec3<double>(3 * std::cos(th), 3 * std::sin(th), -2);
        PointModel<double> a;
        a.kind = PointKind::fixed;
        a.r = Vec3<double>(60.0 * b + 100 * std::cos(th), 100 * std::sin(th), -150);
        sys.add_line(LineModel<double>("leg", {leg}, sys.environment()), sys.add_point(f), sys.add_point(a));
      }
    }
    PointModel<double> fa, fb;
    fa.kind = fb.kind = PointKind::body;
    fa.body = 0;
    fb.body = 1;
    fa.r = Vec3<double>(3, 0, -2);
    fb.r = Vec3<double>(-3, 0, -2);
    SectionModel<double> link = leg;
    link.length = 56;
    link.segments = 6;
    sys.add_line(LineModel<double>("link", {link}, sys.environment()), sys.add_point(fa), sys.add_point(fb));
    sys.renumber();
    return sys;
  };
  SystemStepperOptions o;
  o.rho_inf = 1.0;
  o.tol = 1e-11;
  auto sm = build();
  auto s = sm.initial_state();
  solve_statics(sm, s);
  const auto s0 = s;
  Vec3<double> rA0, rB0;
  Mat3<double> R0;
  sm.body_pose(s0, 0, rA0, R0);
  sm.body_pose(s0, 1, rB0, R0);
  sm.body(0).force = Vec3<double>(-1e5, 0, 0);
  SystemStepper<MooringSystem<double>> mono(sm, o);
  mono.initialize(s);
  for (int k = 0; k < 600; ++k) mono.step(0.005);
  auto ss = build();
  auto st0 = s0;
  const StaggeredBodies sb = stagger_bodies(ss, st0);
  REQUIRE(sb.index.size() == 2);
  ss.body(0).force = Vec3<double>(-1e5, 0, 0);
  SystemStepper<MooringSystem<double>> inner(ss, o);
  StaggeredStepper<MooringSystem<double>> stag(ss, inner, sb);
  stag.initialize(st0);
  for (int k = 0; k < 300; ++k) stag.step(0.01);
  Vec3<double> rAm, rBm, rAs, rBs;
  Mat3<double> R;
  sm.body_pose(mono.state(), 0, rAm, R);
  sm.body_pose(mono.state(), 1, rBm, R);
  ss.body_pose(stag.state(), 0, rAs, R);
  ss.body_pose(stag.state(), 1, rBs, R);
  INFO("after 3 s: float A moved " << (rAm - rA0).norm() << " m, float B " << (rBm - rB0).norm()
                                   << " m; staggered against monolithic: " << (rAs - rAm).norm() << ", "
                                   << (rBs - rBm).norm() << " m; body Newton iterations " << stag.body_iterations());
  CHECK((rAm - rA0).norm() > 0.1);
  CHECK((rBm - rB0).norm() > 0.01);  // pulled through the link
  CHECK((rAs - rAm).norm() <= 1e-4 * (rAm - rA0).norm());
  CHECK((rBs - rBm).norm() <= 1e-4 * (rAm - rA0).norm());
}
