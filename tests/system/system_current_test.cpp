// A uniform steady current in a mooring system: the statics with its drag on lines (EI = 0
// and finite EI), points and bodies at rest; a line between held ends is the single-line
// statics' equilibrium in the same current; the static tangent with the drag against duals;
// a buoy in the current balances against lines solved one by one in the test; the statics is
// at rest in the dynamics (the drag at zero velocity is the same load).
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/statics.hpp"
#include "cabledyn/system.hpp"
#include "support/system_builders.hpp"

using namespace cabledyn;

namespace {

const Vec3<double> sc_U(0.3, 0.9, 0.05);

// A section of length L in elements segs (drag 1.2 / 0.3, added mass 1).
test_support::SectionNumbers sc_numbers(double L, int segs, double EI, double EA = 5e8, double rho_A = 100,
                                        double d = 0.12) {
  return {L, segs, EA, EI, rho_A, d, 0, 1.2, 0.3, 1.0, 0};
}

template <class T>
SectionModel<T> sc_section(double L, int segs, double EI, double EA = 5e8, double rho_A = 100, double d = 0.12) {
  return test_support::system_section<T>(sc_numbers(L, segs, EI, EA, rho_A, d));
}

LineType sc_type(double EI, double EA = 5e8, double rho_A = 100, double d = 0.12) {
  return test_support::line_type_of(sc_numbers(0, 1, EI, EA, rho_A, d));
}

LineEnd sc_at(const Vec3<double>& p) { return test_support::held_end(p); }

// The static problem of a line on the flat bed fb in the current.
StaticProblem sc_problem(const test_support::FlatBed& fb) {
  StaticProblem prob;
  prob.seabed_z = fb.bed.z;
  prob.seabed = fb.bed.params;
  prob.current = SteadyCurrent::uniform(sc_U);
  return prob;
}

}  // namespace

TEST_CASE("A line between held ends in a current is the single-line statics' equilibrium", "[system][current][statics]") {
  for (double EI : {0.0, 4e4}) {
    const test_support::FlatBed fb(120, 3e6, 1e4);
    const Environment& env = fb.env;
    const SeabedModel& bed = fb.bed;
    MooringSystem<double> sys(env, "line in a current");
    sys.set_seabed(bed);
    sys.set_current(sc_U);
    const Vec3<double> fair(0, 0, -10), anchor(-260, 0, -120);
    const int f = test_support::add_point(sys, PointKind::fixed, fair), a = test_support::add_point(sys, PointKind::fixed, anchor);
    sys.add_line(LineModel<double>("line", {sc_section<double>(300, 40, EI)}, env, bed), f, a);
    sys.renumber();
    auto s = sys.initial_state();
    solve_statics(sys, s);
    Line line("single", {{sc_type(EI), 300.0, 40}}, sc_at(fair), sc_at(anchor), env);
    const StaticProblem prob = sc_problem(fb);
    const StaticResult r = EI > 0 ? HermiteStatics(line, prob).solve() : TensionStatics(line, prob).solve();
    const int nd = EI > 0 ? 6 : 3;
    double dx = 0;
    auto s2 = s;
    for (std::size_t i = 1; i < 40; ++i)
      for (int c = 0; c < 3; ++c) {
        dx = std::max(dx, std::fabs(s.q(sys.node_dof(0, i) + c) - r.q(nd * static_cast<Eigen::Index>(i) + c)));
        s2.q(sys.node_dof(0, i) + c) = r.q(nd * static_cast<Eigen::Index>(i) + c);
      }
    if (EI > 0)
      for (std::size_t i = 0; i <= 40; ++i)
        s2.q.segment<3>(sys.tangent_dof(0, i)) = r.q.segment<3>(6 * static_cast<Eigen::Index>(i) + 3);
    VecX<double> R;
    sys.static_residual(s2, R, nullptr);
    INFO("EI " << EI << ": position difference " << dx << " m, residual at the single-line solution "
               << R.cwiseAbs().maxCoeff() << " N of " << r.scale);
    CHECK(R.cwiseAbs().maxCoeff() <= 1e-7 * r.scale);
    CHECK(dx < 1e-5);
    // The current pushes the line sideways: its middle is well off the x-z plane.
    CHECK(s.q(sys.node_dof(0, 20) + 1) > 1.0);
    CHECK((sys.line_end_force(s, 0, 0) - r.end_force[0]).norm() <= 1e-6 * r.end_force[0].norm());
  }
}

TEST_CASE("The static tangent with a current's drag is the derivative of the residual", "[system][current][autodiff]") {
  auto build = [](auto tag) {
    using T = decltype(tag);
    const test_support::FlatBed fb(100, 3e6, 1e4);
    const Environment& env = fb.env;
    const SeabedModel& bed = fb.bed;
    MooringSystem<T> sys(env, "current tangent");
    sys.set_seabed(bed);
    sys.set_current(sc_U);
    const int a = test_support::add_point(sys, PointKind::fixed, Vec3<double>(-150, 0, -100));
    const int b = test_support::add_point(sys, PointKind::free, Vec3<double>(0, 10, -70), 3000, 0.4, 1.5);
    const int c = test_support::add_point(sys, PointKind::fixed, Vec3<double>(40, 0, -10));
    sys.add_line(LineModel<T>("chain", {sc_section<T>(175, 8, 0)}, env, bed), a, b);
    sys.add_line(LineModel<T>("cable", {sc_section<T>(75, 10, 3e4)}, env, bed), b, c);
    sys.renumber();
    return sys;
  };
  auto sys = build(0.0);
  auto s = sys.initial_state();
  const Eigen::Index n = sys.dofs();
  for (Eigen::Index i = 0; i < n; ++i) s.q(i) += 0.5 * std::sin(1.1 * double(i));
  using D = Dual<double>;
  auto sysd = build(D(0));
  SystemState<D> sd;
  sd.q.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) sd.q(i) = D(s.q(i), VecX<double>::Unit(n, i));
  auto J = sys.make_jacobian();
  VecX<double> R;
  sys.static_residual(s, R, &J);
  VecX<D> Rd;
  sysd.static_residual(sd, Rd, nullptr);
  MatX<double> Jd = MatX<double>::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    CHECK(Rd(i).value() == Approx(R(i)).margin(1e-9 * std::max(1.0, std::fabs(R(i)))));
    if (Rd(i).derivatives().size()) Jd.row(i) = Rd(i).derivatives().transpose();
  }
  const MatX<double> Ja = J.to_dense();
  INFO("max error " << (Ja - Jd).cwiseAbs().maxCoeff() << " of " << Jd.cwiseAbs().maxCoeff());
  CHECK((Ja - Jd).cwiseAbs().maxCoeff() <= 1e-10 * Jd.cwiseAbs().maxCoeff());
  // The drag is in the residual: without the current the residual differs by it.
  auto still = build(0.0);
  still.set_current(Vec3<double>::Zero());
  VecX<double> R0;
  still.static_residual(s, R0, nullptr);
  CHECK((R - R0).cwiseAbs().maxCoeff() > 10);
}

TEST_CASE("A buoy in a current balances against lines solved one by one; the statics stays at rest in the march",
          "[system][current][statics][dynamics]") {
  const test_support::FlatBed fb(150, 3e6, 1e4);
  const Environment& env = fb.env;
  const SeabedModel& bed = fb.bed;
  MooringSystem<double> sys(env, "buoy in a current");
  sys.set_seabed(bed);
  sys.set_current(sc_U);
  const double m = 4000, V = 12, CdA = 6;
  const Vec3<double> a1(-200, 0, -150), a2(150, 80, -150), fl(20, 0, -10);
  const int p1 = test_support::add_point(sys, PointKind::fixed, a1), p2 = test_support::add_point(sys, PointKind::fixed, a2);
  const int buoy = test_support::add_point(sys, PointKind::free, Vec3<double>(0, 0, -60), m, V, CdA);
  const int pf = test_support::add_point(sys, PointKind::fixed, fl);
  sys.add_line(LineModel<double>("chain 1", {sc_section<double>(230, 30, 0)}, env, bed), p1, buoy);
  sys.add_line(LineModel<double>("chain 2", {sc_section<double>(200, 30, 0)}, env, bed), p2, buoy);
  sys.add_line(LineModel<double>("riser", {sc_section<double>(65, 30, 2e4, 3e8, 60, 0.2)}, env, bed), buoy, pf);
  sys.renumber();
  auto s = sys.initial_state();
  const auto res = solve_statics(sys, s);
  const Vec3<double> p = s.q.segment<3>(sys.point_dof(buoy));
  INFO("buoy at " << p.transpose() << "; " << res.iterations << " polish iterations");
  // Independent balance: each line alone between its ends in the current.
  const StaticProblem prob = sc_problem(fb);
  Vec3<double> F(0, 0, (env.rho_w * V - m) * env.g);
  F += 0.5 * env.rho_w * CdA * sc_U.norm() * sc_U;
  double scale = 0;
  for (const auto& [anchor, L] : {std::pair{a1, 230.0}, std::pair{a2, 200.0}}) {
    Line l("chain", {{sc_type(0), L, 30}}, sc_at(p), sc_at(anchor), env);
    const auto r = TensionStatics(l, prob).solve();
    F += r.end_force[0];
    scale = std::max(scale, r.end_force[0].norm());
  }
  Line riser("riser", {{sc_type(2e4, 3e8, 60, 0.2), 65.0, 30}}, sc_at(fl), sc_at(p), env);
  const auto rr = HermiteStatics(riser, prob).solve();
  F += rr.end_force[1];
  scale = std::max(scale, rr.end_force[1].norm());
  INFO("imbalance " << F.transpose() << " N of " << scale);
  CHECK(F.norm() <= 1e-6 * scale);
  CHECK(p(1) > 1.0);  // pushed along the current's y
  // The march from the equilibrium in the same current stays there.
  SystemStepperOptions o;
  o.rho_inf = 0.8;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(s);
  double vmax = 0;
  for (int k = 0; k < 20; ++k) {
    st.step(0.1);
    vmax = std::max(vmax, st.state().v.cwiseAbs().maxCoeff());
  }
  INFO("largest velocity over 2 s " << vmax << " m/s");
  CHECK(vmax < 1e-4);  // a drag the statics and the march saw differently would move it by cm/s
}
