// Finite-EI (cubic-Hermite) lines in mooring systems: the system's static and dynamic
// tangents of a Hermite line against duals; a Hermite line between held ends is the
// single-line Hermite statics' equilibrium; a bridle of two finite-EI lines joined at a free
// clump weight balances against lines solved one by one in the test; a point hung on two
// finite-EI lines conserves energy at rho_inf = 1; the system march of a finite-EI line on
// reused factors follows the fresh march and restarts bit for bit; named refusals.
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/dynamics.hpp"
#include "cabledyn/statics.hpp"
#include "cabledyn/system.hpp"
#include "support/alloc_counter.hpp"
#include "support/motions.hpp"
#include "support/system_builders.hpp"

using namespace cabledyn;

namespace {

struct ShLine {
  double length;
  int segs;
  double EA, EI, rho_A, d, BA, Cdn, Cdt, Can, Cat;
  int a, b;
};
struct ShPoint {
  const char* name;
  PointKind kind;
  double x, y, z, m, V, CdA, Ca;
};

test_support::SectionNumbers sh_numbers(const ShLine& L) {
  return {L.length, L.segs, L.EA, L.EI, L.rho_A, L.d, L.BA, L.Cdn, L.Cdt, L.Can, L.Cat};
}

template <class T>
MooringSystem<T> sh_build(const std::vector<ShPoint>& pts, const std::vector<ShLine>& lines,
                          std::optional<double> seabed = std::nullopt, double cBot = 3e5) {
  Environment env;
  SeabedModel bed;
  if (seabed) {
    env.depth = -*seabed;
    bed.z = *seabed;
    bed.params.kBot = 3e6;
    bed.params.cBot = cBot;
  }
  MooringSystem<T> sys(env, "hermite system");
  sys.set_seabed(bed);
  for (const auto& p : pts) {
    PointModel<T> m;
    m.name = p.name;
    m.kind = p.kind;
    m.r = Vec3<T>(T(p.x), T(p.y), T(p.z));
    m.mass = T(p.m);
    m.volume = T(p.V);
    m.CdA = p.CdA;
    m.Ca = p.Ca;
    sys.add_point(m);
  }
  int k = 0;
  for (const auto& L : lines)
    sys.add_line(LineModel<T>("line " + std::to_string(++k), {test_support::system_section<T>(sh_numbers(L))}, env, bed),
                 L.a, L.b);
  sys.renumber();
  return sys;
}

LineType sh_type(const ShLine& L) { return test_support::line_type_of(sh_numbers(L)); }

LineEnd sh_at(const Vec3<double>& p) { return test_support::held_end(p); }

// An anchor on the seabed, a clump and a coupled fairlead; a 30-element finite-EI line from
// the anchor to the clump and an EI = 0 line on to the fairlead.
std::vector<ShPoint> sh_clump_points() {
  return {{"anchor", PointKind::fixed, -150, 0, -100, 0, 0, 0, 0},
          {"clump", PointKind::free, 0, 10, -70, 3000, 0.4, 1.5, 0.8},
          {"fairlead", PointKind::coupled, 40, 0, -10, 0, 0, 0, 0}};
}
std::vector<ShLine> sh_clump_lines() {
  return {{175, 30, 4e8, 3e5, 120, 0.09, -0.5, 1.2, 0.3, 1.0, 0.2, 0, 1},
          {75, 5, 2e7, 0, 30, 0.15, 3e5, 1.0, 0.2, 0.9, 0.1, 1, 2}};
}

}  // namespace

TEST_CASE("A finite-EI line's system tangents are the derivatives of its forces", "[system][hermite][autodiff]") {
  const std::vector<ShPoint> pts = sh_clump_points();
  const std::vector<ShLine> lines = sh_clump_lines();
  auto sys = sh_build<double>(pts, lines, -100.0);
  CHECK(sys.line(0).model.hermite());
  CHECK_FALSE(sys.line(1).model.hermite());
  sys.set_current(Vec3<double>(0.4, -0.2, 0.05));
  sys.set_coupled(2, Vec3<double>(40, 0, -10), Vec3<double>(0.3, 0.1, -0.2), Vec3<double>(0.05, 0, 0.1));
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const Eigen::Index n = sys.dofs();
  // 29 interior nodes of 6 DOFs and two end tangents on the Hermite line, 4 interior nodes on
  // the EI = 0 line, the clump's 3.
  CHECK(n == 6 * 29 + 6 + 3 * 4 + 3);
  CHECK(sys.describe_dof(sys.tangent_dof(0, 0)) == "Line 1 (line 1) node 1 tangent");
  CHECK(sys.describe_dof(sys.node_dof(0, 3) + 1) == "Line 1 (line 1) node 4");
  CHECK(sys.describe_dof(sys.tangent_dof(0, 30) + 2) == "Line 1 (line 1) node 31 tangent");
  int grounded = 0;
  for (std::size_t i = 1; i + 1 < sys.line(0).model.n_nodes(); ++i) grounded += s.q(sys.node_dof(0, i) + 2) < -100;
  CHECK(grounded > 0);
  for (Eigen::Index i = 0; i < n; ++i) {
    s.v(i) = 0.3 * std::sin(0.9 * double(i)) - 0.1;  // sinking: the seabed damper acts
    s.a(i) = 0.5 * std::cos(1.7 * double(i));
  }

  using D = Dual<double>;
  auto sysd = sh_build<D>(pts, lines, -100.0);
  sysd.set_current(Vec3<double>(0.4, -0.2, 0.05));
  sysd.set_coupled(2, Vec3<D>(D(40), D(0), D(-10)), Vec3<D>(D(0.3), D(0.1), D(-0.2)), Vec3<D>(D(0.05), D(0), D(0.1)));
  const SystemState<D> sd = test_support::seeded_dual_state<D>(s);  // q, then v, then a
  VecX<D> rd, Mad, Rs;
  sysd.dynamic_residual(sd, rd, nullptr, D(0), D(0));
  sysd.inertia(sd, Mad, nullptr, D(0), D(0));
  sysd.static_residual(sd, Rs, nullptr);
  auto part = [&](const VecX<D>& f, int block) { return test_support::dual_block(f, n, block); };
  auto assembled = [&](int kind, double wq, double wv, double wm) {
    return test_support::assembled_tangent(sys, s, kind, wq, wv, wm);
  };
  auto close = [](const MatX<double>& A, const MatX<double>& B) {
    const double e = test_support::relative_difference(A, B);
    INFO("relative error " << e);
    CHECK(e <= 1e-10);
  };
  close(assembled(0, 1, 0, 0), part(Rs, 0));  // static dR/dq
  close(assembled(1, 1, 0, 0), part(rd, 0));  // dr/dq
  close(assembled(1, 0, 1, 0), part(rd, 1));  // dr/dv
  close(assembled(2, 0, 0, 1), part(Mad, 2)); // M
  // d(M a)/dq: the Hermite line's added-mass configuration derivative is left out of the
  // tangent (line_model.hpp); every other entry is exact.
  const MatX<double> dMa = assembled(2, 1, 0, 0) - part(Mad, 0);
  const auto h0 = sys.tangent_dof(0, 0), h1 = sys.tangent_dof(0, 30) + 3;  // the Hermite line's block
  // The EI = 0 line's interior block (the clump's rows carry the Hermite line's end node).
  CHECK(dMa.block(h1, h1, 12, 12).cwiseAbs().maxCoeff() <= 1e-10 * part(Mad, 0).cwiseAbs().maxCoeff());
  CHECK(part(Mad, 0).block(h1, h1, 12, 12).cwiseAbs().maxCoeff() > 0);
  CHECK(h0 == 0);
}

TEST_CASE("A finite-EI line between held ends is the single-line Hermite equilibrium", "[system][hermite][statics]") {
  // Written from the anchor (End A below End B): the system seeds it seen from End B.
  const ShLine cable{340, 34, 5e8, 1e5, 100, 0.1, 0, 0, 0, 0, 0, 0, 1};
  const std::vector<ShPoint> pts{{"anchor", PointKind::fixed, -300, 0, -100, 0, 0, 0, 0},
                                 {"fairlead", PointKind::fixed, 0, 0, -20, 0, 0, 0, 0}};
  auto sys = sh_build<double>(pts, {cable}, -100.0);
  auto s = sys.initial_state();
  const auto res = solve_statics(sys, s);
  INFO("system statics: " << res.iterations << " polish iterations");

  // The single line, fairlead first, solved alone.
  Environment env;
  env.depth = 100;
  Line line("single", {{sh_type(cable), cable.length, cable.segs}}, sh_at({0, 0, -20}), sh_at({-300, 0, -100}), env);
  StaticProblem prob;
  prob.seabed_z = -100;
  prob.seabed.kBot = 3e6;
  const StaticResult r = HermiteStatics(line, prob).solve();
  const std::size_t n = line.n_nodes();
  // The system's residual at the single-line solution (mapped: node i of the system is node
  // n - 1 - i of the single line, its tangent reversed): the two load models agree.
  auto s2 = s;
  double dx = 0, dm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto j = static_cast<Eigen::Index>(6 * (n - 1 - i));
    for (int c = 0; c < 3; ++c) {
      if (i > 0 && i + 1 < n) {
        dx = std::max(dx, std::fabs(s.q(sys.node_dof(0, i) + c) - r.q(j + c)));
        s2.q(sys.node_dof(0, i) + c) = r.q(j + c);
      }
      dm = std::max(dm, std::fabs(s.q(sys.tangent_dof(0, i) + c) + r.q(j + 3 + c)));
      s2.q(sys.tangent_dof(0, i) + c) = -r.q(j + 3 + c);
    }
  }
  VecX<double> R;
  sys.static_residual(s2, R, nullptr);
  INFO("position difference " << dx << " m, tangent difference " << dm << ", residual " << R.cwiseAbs().maxCoeff()
                              << " N of scale " << r.scale);
  CHECK(R.cwiseAbs().maxCoeff() <= 1e-7 * r.scale);
  CHECK(dx < 1e-6);
  CHECK(dm < 1e-8);
  // The end force on the fairlead: the single line's End A force.
  const Vec3<double> f = sys.line_end_force(s, 0, 1);
  CHECK((f - r.end_force[0]).norm() <= 1e-6 * r.end_force[0].norm());
  // The grounded part lies on the bed, the bending boundary layer lifts the touchdown.
  CHECK(s.q(sys.node_dof(0, 3) + 2) < -99.9);
}

TEST_CASE("A bridle of two finite-EI lines joined at a clump weight balances", "[system][hermite][statics]") {
  // Two bridle legs (finite EI) from held fairleads to a free clump, an EI = 0 chain from the
  // clump to the anchor on the seabed.
  const double mclump = 2000;
  const std::vector<ShPoint> pts{{"fair 1", PointKind::fixed, -15, 8, -5, 0, 0, 0, 0},
                                 {"fair 2", PointKind::fixed, -15, -8, -5, 0, 0, 0, 0},
                                 {"clump", PointKind::free, -55, 0, -35, mclump, 0, 0, 0},
                                 {"anchor", PointKind::fixed, -420, 0, -150, 0, 0, 0, 0}};
  const ShLine leg{50, 10, 1e8, 5e4, 60, 0.08, 0, 0, 0, 0, 0, 0, 2};
  ShLine leg2 = leg;
  leg2.a = 1;
  const ShLine chain{420, 20, 7.5e8, 0, 145, 0.15, 0, 0, 0, 0, 0, 2, 3};
  auto sys = sh_build<double>(pts, {leg, leg2, chain}, -150.0);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const Vec3<double> p = s.q.segment<3>(sys.point_dof(2));
  INFO("clump at " << p.transpose());
  CHECK(std::fabs(p(1)) < 1e-9);  // symmetric

  // Independent balance: each line solved alone between its fairlead (or anchor) and the
  // clump's position, their end forces on the clump summed with its weight.
  Environment env;
  env.depth = 150;
  StaticProblem prob;
  prob.seabed_z = -150;
  prob.seabed.kBot = 3e6;
  Vec3<double> F(0, 0, -mclump * env.g);
  double scale = 0;
  for (int k = 0; k < 2; ++k) {
    Line l("leg", {{sh_type(leg), leg.length, leg.segs}}, sh_at({-15, k == 0 ? 8.0 : -8.0, -5}), sh_at(p), env);
    const auto r = HermiteStatics(l, prob).solve();
    F += r.end_force[1];
    scale = std::max(scale, r.end_force[1].norm());
  }
  Line c("chain", {{sh_type(chain), chain.length, chain.segs}}, sh_at(p), sh_at({-420, 0, -150}), env);
  const auto rc = TensionStatics(c, prob).solve();
  F += rc.end_force[0];
  scale = std::max(scale, rc.end_force[0].norm());
  INFO("imbalance " << F.transpose() << " N of " << scale);
  CHECK(F.norm() <= 1e-4 * scale);
  CHECK(F.norm() <= 1e-6 * scale);  // observed: the lines' own tolerance
}

TEST_CASE("A point hung on two finite-EI lines conserves energy at rho_inf = 1", "[system][hermite][dynamics]") {
  const std::vector<ShPoint> pts{{"left", PointKind::fixed, -50, 0, -10, 0, 0, 0, 0},
                                 {"mass", PointKind::free, 0, 0, -40, 2000, 0, 0, 0},
                                 {"right", PointKind::fixed, 50, 0, -10, 0, 0, 0, 0}};
  const std::vector<ShLine> lines{{60, 10, 1e7, 2e4, 20, 0.05, 0, 0, 0, 0, 0, 0, 1},
                                  {60, 10, 1e7, 2e4, 20, 0.05, 0, 0, 0, 0, 0, 1, 2}};
  auto run = [&](double rho_inf) {
    auto sys = sh_build<double>(pts, lines);
    auto s = sys.initial_state();
    solve_statics(sys, s);
    s.v.segment<3>(sys.point_dof(1)) = Vec3<double>(1.0, 0.5, 0.3);
    return test_support::energy_drift(sys, s, rho_inf, 0.01, 500);
  };
  const double conserved = run(1.0), dissipated = run(0.5);
  INFO("energy drift / initial kinetic energy: rho_inf 1: " << conserved << ", rho_inf 0.5: " << dissipated);
  CHECK(conserved < 5e-3);
  CHECK(dissipated > 10 * conserved);
}

TEST_CASE("The system march of a finite-EI line on reused factors: the fresh march within the Newton test; a "
          "snapshot restarts it bit for bit",
          "[system][hermite][dynamics]") {
  // A cable from a surging fairlead to an anchor on the seabed, drag and added mass on (the
  // consistent mass held over a step, spec "Added mass and fluid inertia":
  // MooringSystem::hold_inertia) and no seabed damping. (Its order of accuracy and its
  // agreement with the EI = 0 line: system_line_march_test.cpp; before the single-line march
  // was retired this march agreed with it to 0.006 N of 246 kN.)
  const ShLine cable{330, 30, 4e8, 1e5, 100, 0.1, 0, 1.2, 0.3, 1.0, 0.5, 0, 1};
  const Vec3<double> fair(0, 0, -10), anchor(300, 0, -100);
  auto motion = [&](double t) { return test_support::ramped_surge(t, fair, 2, 10, 5); };
  const double dt = 0.05, tend = 12;
  const int steps = static_cast<int>(std::lround(tend / dt));
  // The system: the fairlead a coupled point.
  const std::vector<ShPoint> pts{{"fairlead", PointKind::coupled, fair(0), fair(1), fair(2), 0, 0, 0, 0},
                                 {"anchor", PointKind::fixed, anchor(0), anchor(1), anchor(2), 0, 0, 0, 0}};
  auto sys = sh_build<double>(pts, {cable}, -100.0, 0.0);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  SystemStepperOptions so;
  so.rho_inf = 0.6;
  // The previous step's factor reused (the default, automatic: on, the system has a
  // finite-EI line).
  SystemStepperOptions so_reuse = so;
  CHECK(so_reuse.reuse_factor == SystemStepperOptions::FactorReuse::automatic);
  SystemStepper<MooringSystem<double>> st(sys, so_reuse);
  st.initialize(s);
  // The same stepper on a copy of the system that never takes a snapshot: a snapshot carries
  // the factor and leaves the run as it is.
  auto sys_plain = sys;
  SystemStepper<MooringSystem<double>> plain(sys_plain, so_reuse);
  plain.initialize(s);
  // The same system stepped with a fresh factorisation every step (a copy of the system: its
  // own coupled kinematics).
  auto sys_fresh = sys;
  SystemStepperOptions sf = so;
  sf.reuse_factor = SystemStepperOptions::FactorReuse::off;
  SystemStepper<MooringSystem<double>> fresh(sys_fresh, sf);
  fresh.initialize(s);
  long snapshot_changed = 0;
  double Tmax = 0, reuse_gap = 0;
  std::vector<double> second_half;
  std::optional<SystemStepperSnapshot<MooringSystem<double>>> snap;
  for (int k = 1; k <= steps; ++k) {
    const EndMotion m = motion(k * dt);
    sys.set_coupled(0, m.x, m.v, m.a);
    st.step(dt);
    sys_fresh.set_coupled(0, m.x, m.v, m.a);
    fresh.step(dt);
    sys_plain.set_coupled(0, m.x, m.v, m.a);
    plain.step(dt);
    if (!(plain.state().q == st.state().q)) ++snapshot_changed;
    const double T2 = sys.line_end_force_dynamic(st.state(), 0, 0).norm();
    reuse_gap = std::max(reuse_gap, std::fabs(T2 - sys_fresh.line_end_force_dynamic(fresh.state(), 0, 0).norm()));
    Tmax = std::max(Tmax, T2);
    if (snap) second_half.push_back(T2);
    if (k == steps / 2) {
      snap = st.snapshot();  // with the factor the next step reuses
      CHECK(snap->has_factor);
    }
  }
  CHECK(snapshot_changed == 0);
  INFO("largest fairlead tension " << Tmax << " N; reuse against fresh " << reuse_gap << " N");
  CHECK(Tmax > 1e5);
  CHECK(st.statistics().subdivisions == 0);
  // Cross-step factor reuse: the same march within the Newton test, on fewer factorisations.
  const auto& sr = st.statistics();
  const auto& sn = fresh.statistics();
  INFO("factorisations " << sr.factorizations << " (reused " << sr.reused_steps << " of " << sr.steps
                         << " steps) against " << sn.factorizations << "; Newton iterations " << sr.newton_iterations
                         << " against " << sn.newton_iterations);
  CHECK(reuse_gap <= 1e-6 * Tmax);
  CHECK(sn.reused_steps == 0);
  CHECK(sr.reused_steps >= sr.steps / 2);
  CHECK(sr.factorizations <= 0.8 * static_cast<double>(sn.factorizations));
  // A restart from the snapshot repeats the second half bit for bit.
  st.restore(*snap);
  for (int k = steps / 2 + 1; k <= steps; ++k) {
    const EndMotion m = motion(k * dt);
    sys.set_coupled(0, m.x, m.v, m.a);
    st.step(dt);
    CHECK(sys.line_end_force_dynamic(st.state(), 0, 0).norm() == second_half[static_cast<std::size_t>(k - steps / 2 - 1)]);
  }
  // A snapshot whose factor is not sane is refused by name, with nothing changed.
  auto bad = st.snapshot();
  REQUIRE(bad.has_factor);
  bad.factor_dt = std::numeric_limits<double>::quiet_NaN();
  const VecX<double> q_end = st.state().q;
  const double t_end = st.state().t;
  CHECK_THROWS_WITH(st.restore(bad), Catch::Contains("snapshot factor dt"));
  bad = st.snapshot();
  bad.factor->visit_assembled([](double* p, std::size_t k) { std::fill(p, p + k, std::numeric_limits<double>::quiet_NaN()); });
  CHECK_THROWS_WITH(st.restore(bad), Catch::Contains("snapshot factor") && Catch::Contains("a factorisable matrix"));
  CHECK(st.state().q == q_end);
  CHECK(st.state().t == t_end);
}

TEST_CASE("Finite-EI lines in a system: named refusals", "[system][hermite]") {
  Environment env;
  using D = Dual<double>;
  SectionModel<D> s;
  s.length = D(60);
  s.segments = 5;
  s.EA = D(1e8, VecX<double>::Unit(1, 0));  // a seeded design parameter
  s.EI = 1e4;
  s.rho_A = D(50);
  s.d = D(0.1);
  CHECK_THROWS_AS(LineModel<D>("cable", {s}, env), NotImplementedError);
  CHECK_THROWS_WITH(LineModel<D>("cable", {s}, env), Catch::Contains("cable section 1"));
  s.EA = D(1e8);  // unseeded: the state may still carry derivatives
  CHECK_NOTHROW(LineModel<D>("cable", {s}, env));
  SectionModel<double> b;
  b.length = 60;
  b.segments = 5;
  b.EA = 1e8;
  b.EI = -1;
  b.rho_A = 50;
  b.d = 0.1;
  CHECK_THROWS_AS(LineModel<double>("cable", {b}, env), InputError);
  MooringSystem<double> sys(env);
  PointModel<double> p;
  const int a = sys.add_point(p);
  p.r = Vec3<double>(50, 0, -10);
  const int c = sys.add_point(p);
  b.EI = 0;
  sys.add_line(LineModel<double>("chain", {b}, env), a, c);
  sys.renumber();
  CHECK_THROWS_WITH(sys.tangent_dof(0, 1), Catch::Contains("Line 1 (chain)") && Catch::Contains("node tangent"));
}

TEST_CASE("Finite-EI lines on a free body, one of a single element: the system tangents against duals",
          "[system][hermite][bodies][autodiff]") {
  // A body moored by a 12-element cable and a one-element cable (both finite EI) and an EI = 0
  // line: the cable ends' blocks through the body map (force and lever moment against the
  // tangent DOFs), End B's tangent slot of a one-element line.
  auto build = [](auto tag) {
    using T = decltype(tag);
    Environment env;
    MooringSystem<T> sys(env, "body with cables");
    sys.add_body(test_support::float_body<T>());
    test_support::add_float_lines(sys, {2e5, 5e4, 0}, {12, 1, 10}, 2e6, 1.2, 0.3, 1.0);
    sys.renumber();
    return sys;
  };
  auto sys = build(0.0);
  CHECK(sys.line(1).model.n_slots() == 4);
  CHECK(sys.tangent_dof(1, 1) == sys.tangent_dof(1, 0) + 3);  // the one-element line's block: two tangents
  auto s = sys.initial_state();
  const Eigen::Index n = sys.dofs(), d = sys.body_dof(0);
  test_support::perturb_body_state(sys, s);
  using D = Dual<double>;
  auto sysd = build(D(0));
  SystemState<D> sd;
  sd.q.resize(n), sd.v.resize(n), sd.a.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    sd.q(i) = D(s.q(i), VecX<double>::Unit(2 * n, i));
    sd.v(i) = D(s.v(i), VecX<double>::Unit(2 * n, n + i));
    sd.a(i) = D(0);
  }
  sd.R = {s.R[0].cast<D>()};
  auto part = [&](const VecX<D>& f, int block) {
    MatX<double> J = MatX<double>::Zero(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
      if (f(i).derivatives().size()) J.row(i) = f(i).derivatives().segment(block * n, n).transpose();
    return J;
  };
  auto close = [](const MatX<double>& A, const MatX<double>& B) {
    const double scale = std::max(B.cwiseAbs().maxCoeff(), 1e-300);
    Eigen::Index ii = 0, jj = 0;
    (A - B).cwiseAbs().maxCoeff(&ii, &jj);
    INFO("max error " << (A - B).cwiseAbs().maxCoeff() << " of " << scale << " at (" << ii << ", " << jj << ")");
    CHECK((A - B).cwiseAbs().maxCoeff() <= 1e-8 * scale);  // the body's own loads by central differences
  };
  {
    auto J = sys.make_jacobian();
    VecX<double> R;
    SystemState<double> s0 = s;
    s0.v.setZero();
    sys.static_residual(s0, R, &J);
    SystemState<D> sd0 = sd;
    for (Eigen::Index i = 0; i < n; ++i) sd0.v(i) = D(0);
    VecX<D> Rd;
    sysd.static_residual(sd0, Rd, nullptr);
    INFO("statics; body DOFs from " << d);
    close(J.to_dense(), part(Rd, 0));
  }
  // Dynamics at a committed state (the rotation increment folded), as the body tests do: dr/dv
  // of the lines' rows exactly; dr/dq with the turn of the lever arms with the angular
  // velocity left out (a small term: 1e-4 of the scale here, through the cable ends' damping
  // and drag too).
  sys.commit(s);
  for (Eigen::Index i = 0; i < n; ++i) sd.q(i) = D(s.q(i), VecX<double>::Unit(2 * n, i));
  sd.R = {s.R[0].cast<D>()};
  for (int which = 0; which < 2; ++which) {
    auto J = sys.make_jacobian();
    J.set_zero();
    VecX<double> r;
    sys.dynamic_residual(s, r, &J, which == 0 ? 1.0 : 0.0, which == 0 ? 0.0 : 1.0);
    VecX<D> rd;
    sysd.dynamic_residual(sd, rd, nullptr, D(0), D(0));
    INFO("dynamics " << which << "; body DOFs from " << d);
    const MatX<double> A = J.to_dense(), B = part(rd, which);
    if (which == 1) close(A.topRows(d), B.topRows(d));  // dr/dv of the lines' rows: exact
    const double tol = which == 0 ? 1e-3 : 1e-7;
    CHECK((A - B).cwiseAbs().maxCoeff() <= tol * B.cwiseAbs().maxCoeff());
  }
}

TEST_CASE("The system's step check rejects a finite-EI step beyond the spec's chord, turn and tangent bounds; "
          "its translational DOFs and predictor choice",
          "[system][hermite][dynamics]") {
  auto sys = sh_build<double>(sh_clump_points(), sh_clump_lines(), -100.0);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  // The predictor's hooks: a finite-EI line asks for the balance test; its tangents and the
  // EI = 0 line's nodes and the clump: translational or not.
  CHECK_FALSE(sys.wants_newmark_predictor());
  CHECK(sys.translational_dof(sys.node_dof(0, 5) + 2));
  CHECK_FALSE(sys.translational_dof(sys.tangent_dof(0, 5)));
  CHECK_FALSE(sys.translational_dof(sys.tangent_dof(0, 0) + 1));
  CHECK(sys.translational_dof(sys.node_dof(1, 2)));
  CHECK(sys.translational_dof(sys.point_dof(1) + 1));
  sys.geometry_start(s);
  CHECK(sys.step_rejection(s) == nullptr);
  const double L0 = static_cast<double>(sys.line(0).model.L0(4));
  auto moved = [&](int l, std::size_t i, double by) {
    auto s1 = s;
    s1.q(sys.node_dof(l, i) + 1) += by;
    return sys.step_rejection(s1);
  };
  CHECK(moved(0, 5, 0.19 * L0) == nullptr);
  const char* chord = moved(0, 5, 0.21 * L0);
  REQUIRE(chord != nullptr);
  CHECK_THAT(std::string(chord), Catch::Contains("chord changed by more than 20 %"));
  // The EI = 0 line is not checked (its sub-steps are its policy).
  CHECK(moved(1, 2, 3.0) == nullptr);
  const Vec3<double> m = sys.node_tangent(s, 0, 5);
  const Vec3<double> axis = m.unitOrthogonal();
  auto turned = [&](double deg) {
    auto s1 = s;
    sys.set_node_tangent(s1, 0, 5, Eigen::AngleAxisd(deg * kPi / 180, axis) * m);
    return sys.step_rejection(s1);
  };
  CHECK(turned(14.0) == nullptr);
  const char* turn = turned(16.0);
  REQUIRE(turn != nullptr);
  CHECK_THAT(std::string(turn), Catch::Contains("turned by more than 15 deg"));
  auto s1 = s;
  sys.set_node_tangent(s1, 0, 5, (0.009 / m.norm()) * m);
  const char* shrank = sys.step_rejection(s1);
  REQUIRE(shrank != nullptr);
  CHECK_THAT(std::string(shrank), Catch::Contains("shrank below |m| = 0.01"));
  sys.set_node_tangent(s1, 0, 5, (0.011 / m.norm()) * m);
  CHECK(sys.step_rejection(s1) == nullptr);
}

TEST_CASE("A step of a system with a finite-EI line allocates nothing", "[system][hermite][dynamics]") {
  const std::vector<ShPoint> pts = sh_clump_points();
  const std::vector<ShLine> lines = sh_clump_lines();
  auto sys = sh_build<double>(pts, lines, -100.0);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  SystemStepper<MooringSystem<double>> st(sys);
  st.initialize(s);
  const Vec3<double> fair0(40, 0, -10);
  test_support::surge_steps(sys, st, 2, fair0, 1, 1);  // the first step settles every workspace
  test_support::AllocationCounter count;
  {
    test_support::EigenMallocGuard guard;
    test_support::surge_steps(sys, st, 2, fair0, 2, 40);
  }
  CHECK(count.allocations() == 0);
  CHECK(st.state().t == Approx(2.0));
}

TEST_CASE("tensile_safety in a system: a compressed finite-EI line is rejected by name in the statics' check and "
          "the march, the audit the single-line one",
          "[system][hermite][tensile]") {
  const ShLine cable{340, 34, 5e8, 1e5, 100, 0.1, 0, 0, 0, 0, 0, 0, 1};
  const Vec3<double> a(-300, 0, -100), f0(0, 0, -20);
  const std::vector<ShPoint> pts{{"anchor", PointKind::fixed, a(0), a(1), a(2), 0, 0, 0, 0},
                                 {"fairlead", PointKind::coupled, f0(0), f0(1), f0(2), 0, 0, 0, 0}};
  auto sys = sh_build<double>(pts, {cable}, -100.0);
  CHECK_THROWS_AS(sys.set_tensile_safety(true, 0.0), InputError);
  CHECK_FALSE(sys.tensile_safety());
  sys.set_tensile_safety(true);
  auto s = sys.initial_state();
  REQUIRE_NOTHROW(solve_statics(sys, s));  // a hanging cable in tension passes (the statics' band)
  CHECK(sys.tensile_safety());
  CHECK_NOTHROW(sys.check_state(s));
  // The fairlead held 1 % of the chord nearer the anchor, the interior as it was: its elements
  // end in compression (the static strain is 2e-4).
  const Vec3<double> f1 = a + 0.99 * (f0 - a);
  sys.set_coupled(1, f1, Vec3<double>::Zero());
  try {
    sys.check_state(s);
    FAIL("a compressed cable passed the audit");
  } catch (const SolveError& e) {
    CHECK_THAT(e.what(), Catch::Contains("Line 1") && Catch::Contains("element") &&
                             Catch::Contains("tensile_safety: three-element mean axial force"));
  }
  // The audit of the system's line model is the single-line audit of the same node vector.
  VecX<double> x;
  sys.line_gather(s, 0, 0, x);
  Environment env;
  env.depth = 100;
  Line line("single", {{sh_type(cable), cable.length, cable.segs}}, sh_at(a), sh_at(f1), env);
  REQUIRE(line.dof(1, 0) == 6);
  REQUIRE(static_cast<Eigen::Index>(line.dofs()) == x.size());
  const auto e1 = tensile_audit(line, x, 2e-6, false), e2 = tensile_audit(sys.line(0).model, x, 2e-6, false);
  REQUIRE(e1.has_value());
  REQUIRE(e2.has_value());
  CHECK(e2->element == e1->element);
  CHECK(e2->force == e1->force);
  CHECK(e2->threshold == e1->threshold);
  CHECK(e1->force < -1e5);  // about 1 % of EA 5e8
  sys.set_tensile_safety(false);
  CHECK_NOTHROW(sys.check_state(s));
  // The march: the fairlead driven 4 m toward the anchor in 0.2 s compresses the cable; with
  // the audit each converged step is rejected down to the finest subdivision, and the error
  // names the audit; without it the step runs.
  sys.set_coupled(1, f0, Vec3<double>::Zero());
  auto march = [&](bool audit) {
    sys.set_tensile_safety(audit);
    sys.set_coupled(1, f0, Vec3<double>::Zero());
    SystemStepperOptions so;
    so.max_subdivisions = 3;
    SystemStepper<MooringSystem<double>> st(sys, so);
    st.initialize(s);
    const Vec3<double> u = (a - f0).normalized();
    sys.set_coupled(1, f0 + 4.0 * u, 20.0 * u);
    st.step(0.2);
  };
  CHECK_NOTHROW(march(false));
  try {
    march(true);
    FAIL("the compressed step was accepted");
  } catch (const SolveError& e) {
    CHECK_THAT(e.what(), Catch::Contains("rejected") && Catch::Contains("tensile_safety") &&
                             Catch::Contains("after 3 halvings"));
  }
  // In long double the audit is refused by name.
  auto sl = sh_build<long double>(pts, {cable}, -100.0);
  CHECK_THROWS_AS(sl.set_tensile_safety(true), NotImplementedError);
}
