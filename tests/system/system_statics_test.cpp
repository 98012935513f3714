// Statics of mooring systems: a bridle joined at a free point, a clump weight and a buoy on a
// line, each against an independent solution written here (the analytic elastic catenary of
// every line and a Newton balance of the free point, the way MoorPy balances a system);
// exact design sensitivities from duals through the whole static solve against central
// differences; the same solve in long double; named errors.
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/statics/catenary.hpp"
#include "cabledyn/system.hpp"

using namespace cabledyn;

namespace {

// A line type: chain-like or polyester-like.
template <class T>
SectionModel<T> ss_section(double length, int segs, double EA, double rho_A, double d) {
  SectionModel<T> s;
  s.type_name = "type";
  s.length = T(length);
  s.segments = segs;
  s.EA = T(EA);
  s.rho_A = T(rho_A);
  s.d = T(d);
  return s;
}

template <class T>
PointModel<T> ss_point(const char* name, PointKind k, double x, double y, double z, double m = 0, double V = 0) {
  PointModel<T> p;
  p.name = name;
  p.kind = k;
  p.r = Vec3<T>(T(x), T(y), T(z));
  p.mass = T(m);
  p.volume = T(V);
  return p;
}

// One line of the test systems: its sections' data and its end points.
struct SsLine {
  double length;
  int segs;
  double EA, rho_A, d;
  int a, b;
};
struct SsPoint {
  const char* name;
  PointKind kind;
  double x, y, z, m, V;
};

template <class T>
MooringSystem<T> ss_build(const std::vector<SsPoint>& pts, const std::vector<SsLine>& lines) {
  Environment env;  // no seabed: every line hangs suspended
  MooringSystem<T> sys(env, "test system");
  for (const auto& p : pts) sys.add_point(ss_point<T>(p.name, p.kind, p.x, p.y, p.z, p.m, p.V));
  int k = 0;
  for (const auto& L : lines) {
    LineModel<T> m("line " + std::to_string(++k), {ss_section<T>(L.length, L.segs, L.EA, L.rho_A, L.d)}, env);
    sys.add_line(std::move(m), L.a, L.b);
  }
  sys.renumber();
  return sys;
}

double ss_w(const SsLine& L) {
  const Environment env;
  return (L.rho_A - env.rho_w * kPi * L.d * L.d / 4) * env.g;
}

// The force an analytic elastic catenary line exerts on its end at P, the other end at Q.
Vec3<double> ss_catenary_force_on(const SsLine& L, const Vec3<double>& P, const Vec3<double>& Q) {
  const std::vector<CatenarySegment> seg{{L.length, ss_w(L), L.EA}};
  if (P(2) <= Q(2)) {
    const CatenaryLine<double> c(seg, P, Q);  // P the lower end (s = 0)
    return c.anchor_force();
  }
  const CatenaryLine<double> c(seg, Q, P);
  return c.fairlead_force();
}

// The hand solution: the free point's position where the catenary forces of its lines and its
// own weight and buoyancy balance (Newton with a central-difference Jacobian).
Vec3<double> ss_hand_balance(const std::vector<SsPoint>& pts, const std::vector<SsLine>& lines, int free_point,
                             Vec3<double> P) {
  const Environment env;
  auto pos = [&](int i, const Vec3<double>& Pf) {
    return i == free_point ? Pf : Vec3<double>(pts[i].x, pts[i].y, pts[i].z);
  };
  auto F = [&](const Vec3<double>& Pf) {
    Vec3<double> f(0, 0, (env.rho_w * pts[free_point].V - pts[free_point].m) * env.g);
    for (const auto& L : lines) {
      if (L.a == free_point) f += ss_catenary_force_on(L, Pf, pos(L.b, Pf));
      if (L.b == free_point) f += ss_catenary_force_on(L, Pf, pos(L.a, Pf));
    }
    return f;
  };
  for (int it = 0; it < 50; ++it) {
    const Vec3<double> f = F(P);
    if (f.norm() < 1e-7) break;
    Mat3<double> Jm;
    for (int c = 0; c < 3; ++c) {
      Vec3<double> h = Vec3<double>::Zero();
      h(c) = 1e-5;
      Jm.col(c) = (F(P + h) - F(P - h)) / 2e-5;
    }
    P -= Jm.lu().solve(f);
  }
  REQUIRE(F(P).norm() < 1e-6);
  return P;
}

// Compares a system's static solution with the hand solution at its one free point.
void ss_check_against_hand(const std::vector<SsPoint>& pts, const std::vector<SsLine>& lines, int free_point,
                           double tol) {
  auto sys = ss_build<double>(pts, lines);
  auto s = sys.initial_state();
  const auto res = solve_statics(sys, s);
  CHECK(res.residual <= std::max(1e-10 * res.scale, res.floor));
  const Vec3<double> P_fe = sys.point_position(s, free_point);
  const Vec3<double> P_hand = ss_hand_balance(pts, lines, free_point, P_fe);
  double Lmax = 0;
  for (const auto& L : lines) Lmax = std::max(Lmax, L.length);
  INFO("FE point " << P_fe.transpose() << ", hand " << P_hand.transpose());
  CHECK((P_fe - P_hand).norm() <= tol * Lmax);
  // Every line's force on every point against the catenary at the hand solution.
  for (std::size_t l = 0; l < lines.size(); ++l) {
    const auto& L = lines[l];
    auto at = [&](int i) { return i == free_point ? P_hand : Vec3<double>(pts[i].x, pts[i].y, pts[i].z); };
    const Vec3<double> fa = ss_catenary_force_on(L, at(L.a), at(L.b));
    const Vec3<double> fb = ss_catenary_force_on(L, at(L.b), at(L.a));
    const double scale = std::max(fa.norm(), fb.norm());
    INFO("line " << l + 1 << ": FE end A " << sys.line_end_force(s, static_cast<int>(l), 0).transpose()
                 << ", catenary " << fa.transpose());
    CHECK((sys.line_end_force(s, static_cast<int>(l), 0) - fa).norm() <= tol * scale);
    CHECK((sys.line_end_force(s, static_cast<int>(l), 1) - fb).norm() <= tol * scale);
  }
  // The free point balances to the solver's tolerance.
  Vec3<double> sum = sys.point_static_load(free_point);
  for (std::size_t l = 0; l < lines.size(); ++l)
    for (int e = 0; e < 2; ++e)
      if (lines[l].a == free_point && e == 0) sum += sys.line_end_force(s, static_cast<int>(l), 0);
      else if (lines[l].b == free_point && e == 1) sum += sys.line_end_force(s, static_cast<int>(l), 1);
  CHECK(sum.norm() <= 1e-9 * res.scale);
}

// Chain: d 0.1 m, 150 kg/m, EA 5e8 N; polyester-like: d 0.2 m, 40 kg/m, EA 3e7 N.
constexpr double kChainRho = 150, kChainD = 0.1, kChainEA = 5e8;
constexpr double kPolyRho = 40, kPolyD = 0.2, kPolyEA = 3e7;

std::vector<SsPoint> ss_bridle_points() {
  return {{"anchor", PointKind::fixed, -400, 0, -200, 0, 0},
          {"bridle", PointKind::free, -10, 0, -60, 0, 0},
          {"fairlead 1", PointKind::coupled, 40, 15, -10, 0, 0},
          {"fairlead 2", PointKind::coupled, 40, -15, -10, 0, 0}};
}
std::vector<SsLine> ss_bridle_lines(int n_main = 80, int n_leg = 30) {
  return {{470, n_main, kChainEA, kChainRho, kChainD, 0, 1},
          {75, n_leg, kPolyEA, kPolyRho, kPolyD, 1, 2},
          {75, n_leg, kPolyEA, kPolyRho, kPolyD, 1, 3}};
}

}  // namespace

TEST_CASE("A two-line bridle joined at a free point matches the catenary balance", "[system][statics]") {
  ss_check_against_hand(ss_bridle_points(), ss_bridle_lines(), 1, 1e-4);
}

TEST_CASE("A clump weight on a line matches the catenary balance", "[system][statics]") {
  const std::vector<SsPoint> pts{{"anchor", PointKind::fixed, -500, 0, -250, 0, 0},
                                 {"clump", PointKind::free, -250, 0, -200, 20000, 2.5},
                                 {"fairlead", PointKind::coupled, 0, 0, -15, 0, 0}};
  const std::vector<SsLine> lines{{320, 80, kChainEA, kChainRho, kChainD, 0, 1},
                                  {300, 80, kChainEA, kChainRho, kChainD, 1, 2}};
  ss_check_against_hand(pts, lines, 1, 1e-4);
}

TEST_CASE("A buoy on a line matches the catenary balance", "[system][statics]") {
  // Net buoyancy (1025 * 20 - 4000) g = 162 kN lifts the middle of the line into a lazy wave.
  const std::vector<SsPoint> pts{{"anchor", PointKind::fixed, -400, 0, -300, 0, 0},
                                 {"buoy", PointKind::free, -200, 0, -150, 4000, 20},
                                 {"fairlead", PointKind::coupled, 0, 0, -20, 0, 0}};
  const std::vector<SsLine> lines{{260, 80, kPolyEA, kChainRho, kChainD, 0, 1},
                                  {280, 80, kPolyEA, kChainRho, kChainD, 1, 2}};
  ss_check_against_hand(pts, lines, 1, 1e-4);
}

TEST_CASE("Dual sensitivities of a fairlead tension through the system statics match central differences",
          "[system][statics][autodiff]") {
  using D = Dual<double, 2>;
  const auto pts = ss_bridle_points();
  const auto lines = ss_bridle_lines(40, 15);
  // Direction 0: EA of the main line; direction 1: the anchor's x.
  auto sysd = ss_build<D>(pts, lines);
  {
    auto& sec = sysd.line(0).model.sections()[0];
    sec.EA = D(kChainEA, 2, 0);
    sysd.line(0).model.rebuild();
    sysd.point(0).r(0) = D(-400, 2, 1);
  }
  auto sd = sysd.initial_state();
  solve_statics(sysd, sd);
  const D T1 = sysd.line_end_force(sd, 1, 1).norm();  // leg 1 at fairlead 1 (FairTen)

  auto tension = [&](double EA, double ax) {
    auto sys = ss_build<double>(pts, lines);
    sys.line(0).model.sections()[0].EA = EA;
    sys.line(0).model.rebuild();
    sys.point(0).r(0) = ax;
    auto s = sys.initial_state();
    SystemStaticOptions o;
    o.tol = 1e-14;
    solve_statics(sys, s, o);
    return sys.line_end_force(s, 1, 1).norm();
  };
  const double T0 = tension(kChainEA, -400);
  CHECK(T1.value() == Approx(T0).epsilon(1e-12));
  const double hE = 1e-4 * kChainEA, hx = 1e-3;
  const double dT_dEA = (tension(kChainEA + hE, -400) - tension(kChainEA - hE, -400)) / (2 * hE);
  const double dT_dx = (tension(kChainEA, -400 + hx) - tension(kChainEA, -400 - hx)) / (2 * hx);
  INFO("d FairTen / d EA: dual " << T1.derivatives()(0) << ", central " << dT_dEA);
  INFO("d FairTen / d anchor x: dual " << T1.derivatives()(1) << ", central " << dT_dx);
  CHECK(T1.derivatives()(0) == Approx(dT_dEA).epsilon(1e-6));
  CHECK(T1.derivatives()(1) == Approx(dT_dx).epsilon(1e-6));
  // Both derivatives are real effects, not zero.
  CHECK(std::fabs(T1.derivatives()(0)) * kChainEA > 1e-4 * T0);
  CHECK(std::fabs(T1.derivatives()(1)) > 1.0);
}

TEST_CASE("The system statics runs in long double and agrees with double", "[system][statics]") {
  const auto pts = ss_bridle_points();
  const auto lines = ss_bridle_lines(40, 15);
  auto sl = ss_build<long double>(pts, lines);
  auto s_l = sl.initial_state();
  SystemStaticOptions o;
  o.tol = 1e-16;
  const auto rl = solve_statics(sl, s_l, o);
  CHECK(rl.residual <= std::max(1e-16 * rl.scale, rl.floor));
  CHECK(rl.floor < 1e-7);  // the long double floor is 2000 times below double's
  auto sd = ss_build<double>(pts, lines);
  auto s_d = sd.initial_state();
  solve_statics(sd, s_d);
  const Vec3<long double> Pl = sl.point_position(s_l, 1);
  const Vec3<double> Pd = sd.point_position(s_d, 1);
  for (int c = 0; c < 3; ++c) CHECK(static_cast<double>(Pl(c)) == Approx(Pd(c)).margin(1e-8));
}

TEST_CASE("System statics: named errors on bad input", "[system][statics]") {
  Environment env;
  MooringSystem<double> sys(env, "bad system");
  CHECK_THROWS_WITH(sys.add_point(ss_point<double>("p", PointKind::free, 0, 0, 0, -1)),
                    Catch::Contains("Point 1 (p)") && Catch::Contains("mass = -1"));
  const int a = sys.add_point(ss_point<double>("anchor", PointKind::fixed, 0, 0, -100));
  const int b = sys.add_point(ss_point<double>("float", PointKind::free, 10, 0, -50));
  sys.add_point(ss_point<double>("lonely", PointKind::free, 20, 0, -50));
  LineModel<double> m("l1", {ss_section<double>(60, 5, kChainEA, kChainRho, kChainD)}, env);
  CHECK_THROWS_WITH(sys.add_line(m, a, 7), Catch::Contains("Line 1 (l1)") && Catch::Contains("end point = 8"));
  sys.add_line(m, a, b);
  CHECK_THROWS_WITH(sys.renumber(), Catch::Contains("Point 3 (lonely)") && Catch::Contains("lines attached = 0"));
}

namespace {
// A submerged buoy body (10 t, 20 m^3: 103 kN net lift) tethered by two vertical lines from
// body points at x = +-1 m to anchors 45.05 m below them; its centre of gravity zg above
// (zg > 0) or below its reference point, its centre of buoyancy at it. Upright is an
// equilibrium either way (by symmetry), with roll stiffness -m g zg from the weight: stable
// for zg < 0, unstable for zg > 0 (the tethers, at the reference height on the roll axis,
// give the roll nothing).
MooringSystem<double> ss_tethered_buoy(double zg) {
  Environment env;
  MooringSystem<double> sys(env, "tethered buoy");
  BodyModel<double> B;
  B.name = "buoy";
  B.kind = BodyKind::free;
  B.r = Vec3<double>(0, 0, -50);
  B.mass = 1e4;
  B.cg = Vec3<double>(0, 0, zg);
  B.inertia = Vec3<double>(1e5, 1e5, 1e5);
  B.volume = 20;
  sys.add_body(B);
  for (double x : {-1.0, 1.0}) {
    PointModel<double> f = ss_point<double>("tether top", PointKind::body, x, 0, 0);
    f.body = 0;
    const int pf = sys.add_point(f);
    const int pa = sys.add_point(ss_point<double>("anchor", PointKind::fixed, x, 0, -95.05));
    sys.add_line(LineModel<double>("tether", {ss_section<double>(45, 6, 1e8, 50, 0.1)}, env), pf, pa);
  }
  sys.renumber();
  return sys;
}
}  // namespace

TEST_CASE("System statics audits the equilibrium: an unstable one is refused by name, s untouched",
          "[system][statics][audit]") {
  // Stable (CG below the reference point): solved, audited, no negative eigenvalue; the
  // tethers' tension is the net lift.
  {
    auto sys = ss_tethered_buoy(-2);
    auto s = sys.initial_state();
    solve_statics(sys, s);
    const SystemStability st = system_stability(sys, s);
    CHECK(st.negative == 0);
    const double lift = (20 * sys.environment().rho_w - 1e4) * sys.environment().g;
    CHECK(sys.line_end_force(s, 0, 0).norm() + sys.line_end_force(s, 1, 0).norm() == Approx(lift).epsilon(1e-8));
  }
  // Unstable (CG 2 m above): the same upright equilibrium, one negative eigenvalue per tilt
  // axis the tethers do not hold (roll about x) in the objects' Schur complement; the solve
  // refuses it and leaves s as it was.
  auto sys = ss_tethered_buoy(2);
  auto s = sys.initial_state();
  const auto s0 = s;
  CHECK_THROWS_WITH(solve_statics(sys, s), Catch::Contains("tethered buoy") && Catch::Contains("unstable equilibrium") &&
                                              Catch::Contains("points, bodies and rods 1") && Catch::Contains("= 1"));
  CHECK(s.q == s0.q);
  SystemStaticOptions opt;
  opt.audit = false;  // the equilibrium itself, unaudited
  solve_statics(sys, s, opt);
  const SystemStability st = system_stability(sys, s);
  CHECK(st.object_negative == 1);
  CHECK(st.negative == 1);
  for (auto n : st.line_negative) CHECK(n == 0);
  // The uniform current held for the tangent is restored.
  sys.set_current(Vec3<double>(0.5, 0, 0));
  (void)system_stability(sys, s);
  CHECK(sys.current()(0) == 0.5);
}
