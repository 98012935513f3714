#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/core/so3.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/system.hpp"
#include "support/alloc_counter.hpp"
#include "support/system_builders.hpp"

// Finite-EI lines clamped to bodies and held points (spec "Cables clamped to bodies and
// rods"): a cantilever on a turned fixed body and on a fixed point deflects as the beam
// theory says; a pinned body balances the connection moment of a clamped beam against a
// counterweight at the angle statics predicts by hand; the static and dynamic tangents
// against duals; a free body with clamped cables conserves energy at rho_inf = 1; a step
// allocates nothing; named refusals.

using namespace cabledyn;

namespace {

// A 10 m beam of 10 elements, EI = 1e9 N m^2, EA = 1e10 N, 100 kg/m, 0.05 m: submerged weight
// w = (100 - 1025 pi 0.05^2 / 4) g per metre.
test_support::SectionNumbers cl_beam() { return {10, 10, 1e10, 1e9, 100, 0.05, 0, 0, 0, 0, 0}; }
double cl_w() { return (100 - 1025 * kPi * 0.05 * 0.05 / 4) * 9.80665; }

// A beam clamped at `root` along world direction d (through a fixed body turned by Rb, or,
// with Rb null, a Fixed point), its tip a free massless point.
MooringSystem<double> cl_cantilever(const Vec3<double>& root, const Vec3<double>& d, const Mat3<double>* Rb,
                                    double spring = 0) {
  Environment env;
  MooringSystem<double> sys(env, "cantilever");
  int a = 0;
  Vec3<double> d0 = d;
  if (Rb) {
    BodyModel<double> B;
    B.name = "fixed body";
    B.kind = BodyKind::fixed;
    B.r = root - *Rb * Vec3<double>(1, 0, 0);
    B.R = *Rb;
    B.mass = 1;
    B.inertia = Vec3<double>(1, 1, 1);
    sys.add_body(B);
    PointModel<double> p;
    p.name = "root";
    p.kind = PointKind::body;
    p.body = 0;
    p.r = Vec3<double>(1, 0, 0);
    a = sys.add_point(p);
    d0 = Rb->transpose() * d;  // body axes
  } else {
    a = test_support::add_point<double>(sys, PointKind::fixed, root);
  }
  const int b = test_support::add_point<double>(sys, PointKind::free, root + 10 * d);
  sys.add_line(LineModel<double>("beam", {test_support::system_section<double>(cl_beam())}, env), a, b);
  if (spring > 0) sys.spring_end(0, 0, d0, spring);
  else sys.clamp_end(0, 0, d0);
  sys.renumber();
  return sys;
}

}  // namespace

TEST_CASE("A clamped cantilever deflects as the beam theory says, on a turned body and on a fixed point",
          "[system][hermite][clamped][statics]") {
  const double w = cl_w(), L = 10, EI = 1e9;
  const double delta = w * L * L * L * L / (8 * EI), slope = w * L * L * L / (6 * EI);
  const double c = std::cos(kPi / 6), s6 = std::sin(kPi / 6);
  const Vec3<double> root(3, -2, -40), d(c, s6, 0);
  const Mat3<double> Rb = so3_exp<double>(Vec3<double>(0, 0, kPi / 6)) * so3_exp<double>(Vec3<double>(0.3, 0, 0));
  for (int k = 0; k < 2; ++k) {
    auto sys = cl_cantilever(root, d, k == 0 ? &Rb : nullptr);
    auto st = sys.initial_state();
    const auto res = solve_statics(sys, st);
    const Vec3<double> tip = sys.point_position(st, 1);
    const Vec3<double> m = sys.node_tangent(st, 0, 10);
    const Vec3<double> m0 = sys.node_tangent(st, 0, 0);
    // Linear beam theory: the tip w L^4 / (8 EI) down, its slope w L^3 / (6 EI); cubic Hermite
    // elements with consistent loads are nodally exact there, and the geometric nonlinearity
    // is of the order (w L^3 / EI)^2 ~ 1e-6.
    INFO((k == 0 ? "on a body" : "on a point") << ": tip " << tip.transpose() << ", " << res.iterations
                                               << " Newton iterations");
    CHECK(std::fabs((root(2) - tip(2)) / delta - 1) < 1e-6);  // observed 9e-9
    CHECK(std::fabs(-m(2) / m.head<2>().norm() / slope - 1) < 1e-6);  // observed 2e-9
    CHECK(std::fabs((tip - root).head<2>().normalized().dot(d.head<2>()) - 1) < 1e-12);  // in the clamp's plane
    CHECK(m0.normalized().dot(d) > 1 - 1e-14);  // the clamp holds the root tangent on d
    CHECK(st.q(sys.tangent_dof(0, 0) + 1) == 0);  // the held values of the clamped slot
    CHECK(st.q(sys.tangent_dof(0, 0) + 2) == 0);
    if (k == 0) {
      // The load on the body: the beam's weight at the root and its moment w L^2 / 2 there
      // (the connection moment), about the body's reference point.
      const Vec6<double> F = sys.body_line_load(st, 0, false);
      const Vec3<double> rb = root - Rb * Vec3<double>(1, 0, 0);
      const Vec3<double> M = F.tail<3>() - (root - rb).cross(Vec3<double>(F.head<3>()));
      const Vec3<double> expect = -(w * L * L / 2) * d.cross(Vec3<double>(0, 0, 1));
      INFO("root moment " << M.transpose() << ", expected " << expect.transpose());
      CHECK((F.head<3>() - Vec3<double>(0, 0, -w * L)).norm() < 1e-6 * w * L);
      CHECK((M - expect).norm() < 1e-3 * expect.norm());  // the beam's own deflection
    }
  }
}

TEST_CASE("A cantilever on a rotational end spring tilts by its root moment over k", "[system][hermite][clamped][statics]") {
  // Linear theory: the tip w L^4 / (8 EI) + (w L^2 / 2) / k L down.
  const double w = cl_w(), L = 10, EI = 1e9, k = 1e9;
  const double delta = w * L * L * L * L / (8 * EI) + w * L * L * L / (2 * k);
  const Vec3<double> root(3, -2, -40), d(std::cos(0.4), std::sin(0.4), 0);
  const Mat3<double> Rb = so3_exp<double>(Vec3<double>(0.2, -0.1, 0.7));
  for (int c = 0; c < 2; ++c) {
    auto sys = cl_cantilever(root, d, c == 0 ? &Rb : nullptr, k);
    CHECK(sys.line(0).spring_k[0] == k);
    CHECK_FALSE(sys.line(0).clamped[0]);
    auto st = sys.initial_state();
    solve_statics(sys, st);
    const Vec3<double> tip = sys.point_position(st, 1), m0 = sys.node_tangent(st, 0, 0);
    INFO((c == 0 ? "on a body" : "on a point") << ": tip " << tip.transpose() << "; theory " << delta << " m down");
    CHECK(std::fabs((root(2) - tip(2)) / delta - 1) < 1e-5);
    // The root turns by M / k = w L^2 / (2 k).
    CHECK(std::fabs(std::atan2(-m0(2), m0.head<2>().norm()) / (w * L * L / (2 * k)) - 1) < 1e-4);
    if (c == 0) {
      const Vec6<double> F = sys.body_line_load(st, 0, false);
      const Vec3<double> rb = root - Rb * Vec3<double>(1, 0, 0);
      const Vec3<double> M = F.tail<3>() - (root - rb).cross(Vec3<double>(F.head<3>()));
      const Vec3<double> expect = -(w * L * L / 2) * d.cross(Vec3<double>(0, 0, 1));
      CHECK((M - expect).norm() < 1e-3 * expect.norm());
    }
  }
}

TEST_CASE("A pinned body balances a clamped beam's connection moment against a counterweight",
          "[system][hermite][clamped][statics]") {
  // A body pinned at P carries a beam clamped along its x axis at the pin and a counterweight
  // W_b at (-c, 0, -h) in body axes; two light taut lines at (0, +-2, 0) hold its yaw. Pitch
  // theta (x axis down by theta) balances the beam's moment w L^2 / 2 cos(theta) (the beam
  // rigid to 1e-4) against W_b (c cos(theta) + h sin(theta)): with W_b c = W_b h = w L^2 / 4,
  // tan(theta) = 1. A beam pinned in bending would leave theta = -45 degrees.
  Environment env;
  MooringSystem<double> sys(env, "pinned beam");
  const double w = cl_w(), L = 10, Mb = w * L * L / 2, Wb = 1000 * env.g, arm = Mb / 2 / Wb;
  const Vec3<double> P(0, 0, -50);
  BodyModel<double> B;
  B.name = "pin";
  B.kind = BodyKind::pinned;
  B.r = P;
  B.mass = 1000;
  B.cg = Vec3<double>(-arm, 0, -arm);
  B.inertia = Vec3<double>(100, 100, 100);
  sys.add_body(B);
  auto body_point = [&](const char* name, const Vec3<double>& r) {
    PointModel<double> p;
    p.name = name;
    p.kind = PointKind::body;
    p.body = 0;
    p.r = r;
    return sys.add_point(p);
  };
  const int root = body_point("root", Vec3<double>::Zero());
  const int tip = test_support::add_point<double>(sys, PointKind::free, P + Vec3<double>(10, 0, 0));
  sys.add_line(LineModel<double>("beam", {test_support::system_section<double>(cl_beam())}, env), root, tip);
  sys.clamp_end(0, 0, Vec3<double>(1, 0, 0));
  for (int side : {1, -1}) {
    const int a = body_point("side", Vec3<double>(0, 2.0 * side, 0));
    const int b = test_support::add_point<double>(sys, PointKind::fixed, P + Vec3<double>(0, 30.0 * side, 0));
    sys.add_line(LineModel<double>("guy", {test_support::system_section<double>({27.9, 4, 1e6, 0, 1, 0.0353, 0, 0, 0, 0, 0})},
                                   env),
                 a, b);
  }
  sys.renumber();
  auto st = sys.initial_state();
  solve_statics(sys, st);
  Vec3<double> rb;
  Mat3<double> Rb;
  sys.body_pose(st, 0, rb, Rb);
  const double theta = std::atan2(-Rb(2, 0), Rb(0, 0));
  INFO("pitch " << theta * 180 / kPi << " deg; body x axis " << Rb.col(0).transpose());
  CHECK(std::fabs(theta - kPi / 4) < 2e-4);  // observed 6.8e-5: the beam's own deflection
  CHECK(std::fabs(Rb(1, 0)) < 1e-9);  // no yaw
  VecX<double> R;
  sys.static_residual(st, R, nullptr);
  CHECK(R.cwiseAbs().maxCoeff() <= 1e-6 * Mb);
}

namespace {

// A free float moored by a clamped 12-element cable (End A on the body), a cable of `segs2`
// elements clamped at its anchor (End B, a Fixed point) and an EI = 0 line; drag and damping
// optional.
template <class T>
MooringSystem<T> cl_float(bool dissipation, int segs2, bool springs = false) {
  Environment env;
  MooringSystem<T> sys(env, "clamped float");
  sys.add_body(test_support::float_body<T>());
  // Without dissipation, no added mass either: a configuration-dependent added mass is not
  // Lagrangian.
  const double on = dissipation ? 1 : 0;
  test_support::add_float_lines(sys, {2e7, 5e6, 0}, {12, segs2, 10}, 2e6 * on, 1.2 * on, 0.3 * on, 1.0 * on);
  const double th0 = 0.2, th1 = 2 * kPi / 3 + 0.2;
  // Line 1 leaves the body along its chord, line 2 arrives at its anchor along its chord.
  const Vec3<T> d1(T(97 * std::cos(th0)), T(97 * std::sin(th0)), T(-128)), d2(T(22 * std::cos(th1)), T(22 * std::sin(th1)), T(-18));
  if (springs) {
    // Springs about directions off the chords by a few degrees (a load on them at rest).
    sys.spring_end(0, 0, Vec3<T>(d1 + Vec3<T>(T(5), T(-4), T(3))), 4e6);
    sys.spring_end(1, 1, Vec3<T>(d2 + Vec3<T>(T(-1), T(1.5), T(1))), 2e6);
  } else {
    sys.clamp_end(0, 0, d1);
    sys.clamp_end(1, 1, d2);
  }
  sys.renumber();
  return sys;
}

// The energy drift of the float (without dissipation) set moving from its statics, rho_inf,
// dt 0.02, 400 steps; clamped ends (pinned with `pinned`) or springs.
double cl_float_drift(double rho_inf, bool springs, bool pinned = false) {
  auto sys = cl_float<double>(false, 3, springs);
  if (pinned) sys.unclamp_end(0, 0), sys.unclamp_end(1, 1);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const Eigen::Index d = sys.body_dof(0);
  s.v.segment<3>(d) = Vec3<double>(0.3, -0.2, 0.1);
  s.v.segment<3>(d + 3) = Vec3<double>(0.02, 0.03, -0.04);
  return test_support::energy_drift(sys, s, rho_inf, 0.02, 400);
}

}  // namespace

TEST_CASE("Clamped cable ends on a free body and a fixed point: the system tangents against duals",
          "[system][hermite][clamped][autodiff]") {
  auto sys = cl_float<double>(true, 1);
  auto s = sys.initial_state();
  test_support::perturb_body_state(sys, s);
  for (const auto& [l, i] : {std::pair<int, std::size_t>{0, 0}, {1, 1}}) s.q(sys.tangent_dof(l, i)) = 1.02;  // lambda > 0
  bool held_ok = false;
  const auto e = test_support::clamped_tangent_errors(sys, cl_float<Dual<double>>(true, 1), s, {{0, 0}, {1, 1}}, held_ok);
  INFO("statics " << e[0] << ", dynamics dr/dq " << e[1] << ", dr/dv " << e[2]);
  CHECK(held_ok);  // the held values: a unit diagonal alone in the tangent
  CHECK(e[0] <= 1e-8);  // the body's own loads by central differences
  // dr/dv exact; dr/dq without the turn of the lever arms and of a clamped tangent's velocity
  // with the angular velocity (as for a body's end positions).
  CHECK(e[1] <= 1e-3);
  CHECK(e[2] <= 1e-7);
}

TEST_CASE("A free body with clamped cables conserves energy at rho_inf = 1", "[system][hermite][clamped][dynamics]") {
  // No drag, damping or added mass (a Hermite line's added mass at the current configuration
  // is not Lagrangian). The same march with the two ends pinned in bending is the reference:
  // the clamps' connection moments do no work of their own.
  const double conserved = cl_float_drift(1.0, false), pinned = cl_float_drift(1.0, false, true),
               dissipated = cl_float_drift(0.5, false);
  // Observed: 0.0232 clamped, 0.0236 pinned, 0.146 at rho_inf 0.5 (dt 0.02; halving dt: 0.0055
  // and 0.0024 clamped, 0.0064 and 0.0016 pinned).
  INFO("energy drift / initial kinetic energy: rho_inf 1: " << conserved << " (pinned ends: " << pinned
                                                             << "), rho_inf 0.5: " << dissipated);
  CHECK(conserved < 0.03);
  CHECK(conserved < 1.2 * pinned);
  CHECK(dissipated > 5 * conserved);
}

TEST_CASE("A step of a system with clamped ends allocates nothing", "[system][hermite][clamped][dynamics]") {
  auto sys = cl_float<double>(true, 3);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  s.v.segment<3>(sys.body_dof(0)) = Vec3<double>(0.3, -0.2, 0.1);
  SystemStepper<MooringSystem<double>> st(sys);
  st.initialize(s);
  st.step(0.05);  // the first step settles every workspace
  test_support::AllocationCounter count;
  {
    test_support::EigenMallocGuard guard;
    for (int k = 0; k < 20; ++k) st.step(0.05);
  }
  CHECK(count.allocations() == 0);
  CHECK(st.state().t == Approx(1.05));
}

TEST_CASE("Clamped ends: named refusals", "[system][hermite][clamped]") {
  Environment env;
  MooringSystem<double> sys(env, "refusals");
  const int a = test_support::add_point<double>(sys, PointKind::fixed, Vec3<double>(0, 0, -50));
  const int b = test_support::add_point<double>(sys, PointKind::free, Vec3<double>(10, 0, -40));
  sys.add_line(LineModel<double>("chain", {test_support::system_section<double>({20, 4, 1e8, 0, 50, 0.1, 0, 0, 0, 0, 0})}, env),
               a, b);
  sys.add_line(LineModel<double>("cable", {test_support::system_section<double>({20, 4, 1e8, 1e4, 50, 0.1, 0, 0, 0, 0, 0})}, env),
               a, b);
  CHECK_THROWS_WITH(sys.clamp_end(0, 0, Vec3<double>(1, 0, 0)),
                    Catch::Contains("Line 1 (chain) End A") && Catch::Contains("EI = 0"));
  CHECK_THROWS_WITH(sys.clamp_end(1, 1, Vec3<double>(1, 0, 0)),
                    Catch::Contains("Line 2 (cable) End B") && Catch::Contains("free point"));
  CHECK_THROWS_WITH(sys.clamp_end(1, 0, Vec3<double>(0, 0, 0)),
                    Catch::Contains("Line 2 (cable) End A") && Catch::Contains("connection direction"));
  CHECK_FALSE(sys.line(1).clamped[0]);  // nothing committed
  sys.clamp_end(1, 0, Vec3<double>(0, 0, 2));
  CHECK(sys.line(1).clamp_dir[0](2) == 1);
  CHECK_THROWS_WITH(sys.spring_end(1, 0, Vec3<double>(0, 0, 1), -5),
                    Catch::Contains("Line 2 (cable) End A") && Catch::Contains("rotational stiffness"));
  CHECK(sys.line(1).clamped[0]);  // unchanged
  sys.spring_end(1, 0, Vec3<double>(0, 0, 1), 5e3);
  CHECK_FALSE(sys.line(1).clamped[0]);
  sys.unclamp_end(1, 0);
  CHECK(sys.line(1).spring_k[0] == 0);
}

TEST_CASE("Rotational end springs on a free body and a fixed point: the system tangents against duals",
          "[system][hermite][clamped][autodiff]") {
  auto sys = cl_float<double>(true, 1, true);
  auto s = sys.initial_state();
  const Eigen::Index n = sys.dofs();
  test_support::perturb_body_state(sys, s);
  using D = Dual<double>;
  auto sysd = cl_float<D>(true, 1, true);
  {
    SystemState<double> s0 = s;
    s0.v.setZero();
    const auto sd = test_support::seeded_dual_state<D>(s0);
    VecX<D> Rd;
    sysd.static_residual(sd, Rd, nullptr);
    const double e = test_support::relative_difference(test_support::assembled_tangent(sys, s0, 0, 1, 0, 0),
                                                       test_support::dual_block(Rd, n, 0));
    INFO("statics: " << e);
    CHECK(e <= 1e-8);
    // The energy's gradient is the static residual (the springs' potential included).
    VecX<double> R;
    sys.static_residual(s0, R, nullptr);
    for (const auto& [l, i] : {std::pair<int, std::size_t>{0, 0}, {1, 1}}) {
      const Eigen::Index k = sys.tangent_dof(l, i);
      for (int c = 0; c < 3; ++c) {
        auto sp = s0, sm = s0;
        sp.q(k + c) += 1e-6, sm.q(k + c) -= 1e-6;
        const double g = (sys.potential_energy(sp) - sys.potential_energy(sm)) / 2e-6;
        CHECK(g == Approx(R(k + c)).epsilon(1e-5).margin(1e-3));
      }
    }
  }
  sys.commit(s);
  const auto sd = test_support::seeded_dual_state<D>(s);
  VecX<D> rd;
  sysd.dynamic_residual(sd, rd, nullptr, D(0), D(0));
  for (int which = 0; which < 2; ++which) {
    const double e = test_support::relative_difference(
        test_support::assembled_tangent(sys, s, 1, which == 0 ? 1 : 0, which == 0 ? 0 : 1, 0), test_support::dual_block(rd, n, which));
    INFO("dynamics " << which << ": " << e);
    CHECK(e <= (which == 0 ? 1e-3 : 1e-7));
  }
}

TEST_CASE("A free body on rotational end springs conserves energy at rho_inf = 1", "[system][hermite][clamped][dynamics]") {
  const double conserved = cl_float_drift(1.0, true), dissipated = cl_float_drift(0.5, true);
  INFO("energy drift / initial kinetic energy: rho_inf 1: " << conserved << ", rho_inf 0.5: " << dissipated);
  CHECK(conserved < 0.03);
  CHECK(dissipated > 5 * conserved);
}
