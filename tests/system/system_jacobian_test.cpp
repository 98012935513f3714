// The system tangent and its bordered solve: the assembled dR/dq equals the dual derivative
// of the system residual (lines, free points, seabed contact), and the block elimination
// solves what the dense matrix solves; a structural error is named.
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/system.hpp"

using namespace cabledyn;

namespace {

template <class T>
MooringSystem<T> sj_system() {
  Environment env;
  env.depth = 100;
  SeabedModel bed;
  bed.z = -100;
  bed.params.kBot = 3e6;
  MooringSystem<T> sys(env, "jacobian system");
  auto pt = [&](const char* n, PointKind k, double x, double y, double z, double m) {
    PointModel<T> p;
    p.name = n;
    p.kind = k;
    p.r = Vec3<T>(T(x), T(y), T(z));
    p.mass = T(m);
    return sys.add_point(p);
  };
  const int a1 = pt("anchor 1", PointKind::fixed, -200, 0, -100, 0);
  const int a2 = pt("anchor 2", PointKind::fixed, 100, 170, -100, 0);
  const int hub = pt("hub", PointKind::free, 0, 0, -70, 3000);
  const int clump = pt("clump", PointKind::free, 20, 0, -40, 500);
  const int fl = pt("fairlead", PointKind::coupled, 30, 0, -10, 0);
  auto line = [&](const char* n, double L, int segs, int a, int b) {
    SectionModel<T> s;
    s.length = T(L);
    s.segments = segs;
    s.EA = T(4e8);
    s.rho_A = T(120);
    s.d = T(0.09);
    sys.add_line(LineModel<T>(n, {s}, env, bed), a, b);
  };
  line("ground 1", 230, 6, a1, hub);
  line("ground 2", 215, 5, a2, hub);
  line("riser", 40, 4, hub, clump);
  line("top", 35, 1, clump, fl);  // one element: no interior DOFs, two objects coupled directly
  sys.renumber();
  return sys;
}

}  // namespace

TEST_CASE("The system tangent is the derivative of the system residual", "[system][autodiff]") {
  auto sys = sj_system<double>();
  auto s = sys.initial_state();
  // Perturb the chord placement so that elements stretch and nodes touch the seabed.
  for (Eigen::Index i = 0; i < s.q.size(); ++i) s.q(i) += 0.7 * std::sin(1.3 * double(i));
  for (std::size_t l = 0; l < sys.n_lines(); ++l)
    for (std::size_t i = 1; i + 1 < sys.line(static_cast<int>(l)).model.n_nodes(); ++i)
      s.q(sys.node_dof(static_cast<int>(l), i) + 2) -= 35.5;
  const Eigen::Index n = sys.dofs();
  auto J = sys.make_jacobian();
  VecX<double> R;
  sys.static_residual(s, R, &J);
  const MatX<double> Jd = J.to_dense();

  using D = Dual<double>;
  auto sysd = sj_system<D>();
  SystemState<D> sd;
  sd.q.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) sd.q(i) = D(s.q(i), VecX<double>::Unit(n, i));
  VecX<D> Rd;
  sysd.static_residual(sd, Rd, nullptr);
  double scale = 0, err = 0;
  int contacts = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    CHECK(Rd(i).value() == Approx(R(i)).margin(1e-9 * std::max(1.0, std::fabs(R(i)))));
    for (Eigen::Index j = 0; j < n; ++j) {
      const double dj = Rd(i).derivatives().size() ? Rd(i).derivatives()(j) : 0.0;
      scale = std::max(scale, std::fabs(dj));
      err = std::max(err, std::fabs(dj - Jd(i, j)));
    }
  }
  for (std::size_t l = 0; l < sys.n_lines(); ++l)
    for (std::size_t i = 1; i + 1 < sys.line(static_cast<int>(l)).model.n_nodes(); ++i)
      contacts += s.q(sys.node_dof(static_cast<int>(l), i) + 2) < -100;
  CHECK(contacts > 0);  // the seabed's share is tested too
  CHECK(err <= 1e-12 * scale);
}

TEST_CASE("The bordered block solve equals the dense solve", "[system][linalg]") {
  auto sys = sj_system<double>();
  auto s = sys.initial_state();
  solve_statics(sys, s);
  auto J = sys.make_jacobian();
  VecX<double> R;
  // Line "ground 2" lies slack on the seabed at the equilibrium: give the compressed branch
  // a stiffness (the tension-only stages' r EA) so that its band is nonsingular.
  sys.static_residual(s, R, &J, 1e-3);
  for (Eigen::Index i = 0; i < R.size(); ++i) R(i) = 1e3 * std::cos(0.7 * double(i));
  const MatX<double> Jd = J.to_dense();
  VecX<double> x = R;
  J.solve(x);
  const VecX<double> xd = Jd.fullPivLu().solve(R);
  CHECK((Jd * x - R).norm() <= 1e-9 * R.norm());
  CHECK((x - xd).norm() <= 1e-8 * xd.norm());
  CHECK(J.factored());  // solve() keeps its factors
}

TEST_CASE("The bordered Jacobian's factors solve again: the same result as a fresh solve, bit for bit",
          "[system][linalg]") {
  auto sys = sj_system<double>();
  auto s = sys.initial_state();
  solve_statics(sys, s);
  auto J = sys.make_jacobian();
  VecX<double> R;
  sys.static_residual(s, R, &J, 1e-3);
  const MatX<double> Jd = J.to_dense();
  VecX<double> b1 = R, b2 = R;
  for (Eigen::Index i = 0; i < R.size(); ++i) {
    b1(i) = 1e3 * std::cos(0.7 * double(i));
    b2(i) = 1e2 * std::sin(1.3 * double(i) + 0.2);
  }
  auto J2 = J;  // the same matrix, for a fresh solve of b2
  CHECK_THROWS_WITH(J.solve_factored(b1), Catch::Contains("factor() after the last set_zero()"));
  J.factor();
  REQUIRE(J.factored());
  VecX<double> x1 = b1, x2 = b2, y2 = b2;
  J.solve_factored(x1);
  J.solve_factored(x2);
  J2.solve(y2);
  CHECK(x2 == y2);  // bit for bit
  VecX<double> x1again = b1;
  J.solve_factored(x1again);
  CHECK(x1again == x1);
  CHECK((Jd * x2 - b2).norm() <= 1e-9 * b2.norm());
  J.set_zero();
  CHECK_FALSE(J.factored());
}

TEST_CASE("The bordered Jacobian names an entry its structure has no room for", "[system][linalg]") {
  std::vector<BorderedBlockShape> blocks(2);
  blocks[0].name = "Line 1 (a)";
  blocks[0].size = 6;
  blocks[0].half_bandwidth = 5;
  blocks[0].coupled = {0, 1, 2};
  blocks[1].name = "Line 2 (b)";
  blocks[1].size = 6;
  blocks[1].half_bandwidth = 5;
  BorderedJacobian<double> J(blocks, 3, "sys");
  CHECK_THROWS_WITH(J.add(1, 7, 1.0), Catch::Contains("sys") && Catch::Contains("between blocks"));
  CHECK_THROWS_WITH(J.add(7, 12, 1.0), Catch::Contains("Line 2 (b) coupling to object DOF"));
  J.add(0, 12, 2.0);
  CHECK(J.to_dense()(0, 12) == 2.0);
}

TEST_CASE("A point beside a slack grounded line: the polish's tangent is singular, the continuation settles it and "
          "the notes say so",
          "[system][statics]") {
  // "ground 2" lies slack on the frictionless seabed: its grounded nodes have no horizontal
  // stiffness and the polish's tangent is singular. The pseudo-transient continuation's mass
  // makes the step regular and settles it; without it (ptc_iterations 0) the point balance's
  // state is kept, as it is within 1e-4 of the force scale.
  {
    auto sys = sj_system<double>();
    auto s = sys.initial_state();
    SystemStaticOptions opt;
    opt.ptc_iterations = 0;
    const auto res = solve_statics(sys, s, opt);
    REQUIRE(res.notes.size() == 1);
    CHECK_THAT(res.notes[0], Catch::Contains("Line 2 (ground 2)") && Catch::Contains("point balance is kept"));
    CHECK(res.residual <= 1e-8 * res.scale);
  }
  auto sys = sj_system<double>();
  auto s = sys.initial_state();
  const auto res = solve_statics(sys, s);
  REQUIRE(res.notes.size() == 1);
  CHECK_THAT(res.notes[0], Catch::Contains("Line 2 (ground 2)") && Catch::Contains("pseudo-transient continuation converged"));
  CHECK(res.point_iterations > 0);
  CHECK(res.residual <= std::max(1e-10 * res.scale, res.floor));
  // The hub balances: its lines' end forces against its weight.
  Vec3<double> f = sys.point_static_load(2);
  for (int l = 0; l < 3; ++l)
    for (int e = 0; e < 2; ++e)
      if (sys.line(l).point[e] == 2) f += sys.line_end_force(s, l, e);
  CHECK(f.norm() <= 1e-8 * res.scale);
  // Every element of ground 2 is slack; the others are taut.
  int slack = 0;
  for (std::size_t e = 0; e < sys.line(1).model.n_elements(); ++e) slack += sys.line_tension(s, 1, e) <= 0;
  CHECK(slack == 5);
  for (std::size_t e = 0; e < sys.line(0).model.n_elements(); ++e) CHECK(sys.line_tension(s, 0, e) > 0);
}

TEST_CASE("A clump on the seabed rests at the penetration of its footprint; its contact is in the tangent",
          "[system][statics][seabed]") {
  Environment env;
  env.depth = 100;
  SeabedModel bed;
  bed.z = -100;
  bed.params.kBot = 1e5;
  bed.params.cBot = 1e4;
  MooringSystem<double> sys(env, "clump on the bed");
  sys.set_seabed(bed);
  PointModel<double> a, c;
  a.kind = PointKind::fixed;
  a.r = Vec3<double>(-50, 0, -100);
  c.kind = PointKind::free;
  c.r = Vec3<double>(0, 0, -99);
  c.mass = 50000;  // declared by its mass alone: a cube of solid steel, 3.436 m^2
  const int pa = sys.add_point(a), pc = sys.add_point(c);
  SectionModel<double> s;
  s.length = 60;  // slack over the 50 m chord: it lies on the bed and pulls nothing
  s.segments = 10;
  s.EA = 1e7;
  s.rho_A = 10;
  s.d = 0.1;
  sys.add_line(LineModel<double>("slack", {s}, env, bed), pa, pc);
  sys.renumber();
  CHECK(sys.point_footprint(pc) == Approx(std::pow(50000.0 / 7850, 2.0 / 3)));
  CHECK(sys.point_footprint(pc) == Approx(3.436).epsilon(1e-3));
  auto st = sys.initial_state();
  const auto res = solve_statics(sys, st);
  // The clump's weight and its line-end node's share of the line's weight on the footprint
  // and that node's contact width d L0 / 2: g = W / (kBot (A + d L0/2)) + delta / 2.
  const double w = (10 - env.rho_w * kPi * 0.01 / 4) * env.g, L0 = 6.0;
  const double W = 50000 * env.g + w * L0 / 2;
  const double pen = W / (1e5 * (sys.point_footprint(pc) + 0.1 * L0 / 2)) + 0.5e-6;
  const double z = sys.point_position(st, pc)(2);
  INFO("penetration " << -100 - z << " m, analytic " << pen << " m; " << res.point_iterations << " point iterations");
  CHECK(-100 - z == Approx(pen).epsilon(1e-6));
  // The spec's 50 t clump presses its footprint 1.43 m in by its weight alone; the line's end
  // node shares the support here.
  CHECK(50000 * env.g / (1e5 * sys.point_footprint(pc)) == Approx(1.427).epsilon(1e-3));
  CHECK(-100 - z < 1.427);
  // The contact's stiffness and damping in the dynamic tangent, against duals.
  SystemState<double> s1 = st;
  s1.v(sys.point_dof(pc) + 2) = -0.2;  // sinking: the damper acts
  auto J = sys.make_jacobian();
  J.set_zero();
  VecX<double> R;
  sys.dynamic_residual(s1, R, &J, 1.0, 0.0);
  const MatX<double> Jq = J.to_dense();
  J.set_zero();
  sys.dynamic_residual(s1, R, &J, 0.0, 1.0);
  const MatX<double> Jv = J.to_dense();
  const Eigen::Index iz = sys.point_dof(pc) + 2;
  using D = Dual<double, 2>;
  MooringSystem<D> sd(env, "clump on the bed");
  SeabedModel bd = bed;
  sd.set_seabed(bd);
  PointModel<D> ad, cd;
  ad.kind = PointKind::fixed;
  ad.r = Vec3<D>(D(-50), D(0), D(-100));
  cd.kind = PointKind::free;
  cd.mass = D(50000);
  sd.add_point(ad);
  sd.add_point(cd);
  SectionModel<D> sdx;
  sdx.length = D(60);
  sdx.segments = 10;
  sdx.EA = D(1e7);
  sdx.rho_A = D(10);
  sdx.d = D(0.1);
  sd.add_line(LineModel<D>("slack", {sdx}, env, bed), 0, 1);
  sd.renumber();
  SystemState<D> x;
  x.q = s1.q.cast<D>();
  x.v = s1.v.cast<D>();
  x.q(iz) = D(s1.q(iz), 2, 0);
  x.v(iz) = D(s1.v(iz), 2, 1);
  VecX<D> Rd;
  sd.dynamic_residual(x, Rd, nullptr, D(0), D(0));
  CHECK(Rd(iz).derivatives()(0) == Approx(Jq(iz, iz)).epsilon(1e-12));
  CHECK(Rd(iz).derivatives()(1) == Approx(Jv(iz, iz)).epsilon(1e-12));
  CHECK(Jv(iz, iz) > 0);  // the damper resists the sinking
}
