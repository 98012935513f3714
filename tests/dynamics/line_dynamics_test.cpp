// The implicit march of a line: a catenary at rest stays at its static equilibrium (EI = 0 and
// Hermite), a taut string and a pinned beam oscillate at their analytic frequencies, a
// harmonic surge converges at second order in dt and the two element kinds agree, restart
// from a snapshot is bit for bit, named errors leave the state unchanged.
#include <catch2/catch.hpp>

#include "support/crossings.hpp"

#include <cmath>

#include "cabledyn/dynamics.hpp"
#include "cabledyn/statics.hpp"
#include "support/motions.hpp"

using namespace cabledyn;

namespace {

LineType oc3(double EI) {
  LineType t;
  t.name = "OC3";
  t.d = 0.09;
  t.rho_A = 77.7066;
  t.EA = 384.243e6;
  t.EI = EI;
  t.Cdn = 1.6;
  t.Cdt = 0.1;
  t.Can = 1.0;
  return t;
}

LineEnd at(const Vec3<double>& p) {
  LineEnd e;
  e.position = p;
  return e;
}

EndMotions fixed_ends(const Line& l) {
  EndMotions m;
  m[0].x = l.end(0).position;
  m[1].x = l.end(1).position;
  return m;
}

struct Oc3Case {
  Environment env;
  StaticProblem prob;
  DynamicOptions opt;
  Vec3<double> fair{5.2, 0, -70}, anchor{853.87, 0, -320};
  Oc3Case() {
    env.depth = 320;
    prob.seabed_z = -320;
    prob.seabed.kBot = 1e5;
    opt.seabed_z = -320;
    opt.seabed.kBot = 1e5;
  }
};

StaticResult solve_static(Line& line, const StaticProblem& prob) {
  if (line.hermite()) {
    HermiteStatics s(line, prob);
    return s.solve();
  }
  TensionStatics s(line, prob);
  return s.solve();
}

using test_support::upcrossings;  // support/crossings.hpp

}  // namespace

TEST_CASE("A catenary at rest stays at its static equilibrium (EI = 0 and Hermite)", "[dynamics][line]") {
  for (double EI : {0.0, 1e3}) {
    Oc3Case c;
    Line line("OC3", {{oc3(EI), 902.2, 40}}, at(c.fair), at(c.anchor), c.env);
    const auto st = solve_static(line, c.prob);
    LineDynamics dyn(line, c.opt);
    dyn.initialize(0, st.q, fixed_ends(line));
    const double T0 = st.end_force[0].norm();
    double worst = 0;
    for (int k = 0; k < 100; ++k) {
      dyn.step(0.05, fixed_ends(line));
      worst = std::max(worst, std::fabs(dyn.end_force(0).norm() - T0) / T0);
    }
    // The static solve converged to 1e-8 of its force scale (EI = 0) or 1e-6 scaled (Hermite):
    // the fairlead tension stays within 1e-9 of the static value, no start-up transient.
    INFO("EI " << EI << " worst relative fairlead tension change " << worst);
    CHECK(worst < 1e-9);
  }
}

TEST_CASE("A taut EI = 0 string oscillates at f = 1/(2l) sqrt(T/m)", "[dynamics][line][string]") {
  // Neutrally buoyant, no hydrodynamic coefficients: a string in vacuum, weightless.
  LineType t = oc3(0);
  t.Cdn = t.Cdt = t.Can = t.Cat = 0;
  t.rho_A = 1025.0 * kPi * t.d * t.d / 4;
  const double L = 100.0, eps = 1e-3, l = L * (1 + eps);
  const int N = 40;
  Line line("string", {{t, L, N}}, at({0, 0, -50}), at({l, 0, -50}));
  const double T = t.EA * eps, m_per_l = t.rho_A * L / l;  // mass per stretched metre
  const double f1 = 1 / (2 * l) * std::sqrt(T / m_per_l);
  // Mode 1 shape, small amplitude.
  VecX<double> q = VecX<double>::Zero(static_cast<Eigen::Index>(line.dofs()));
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    const double s = line.s_node(i) / L;
    q.segment<3>(3 * static_cast<Eigen::Index>(i)) = Vec3<double>(s * l, 0.02 * std::sin(kPi * s), -50);
  }
  DynamicOptions o;
  o.rho_inf = 1.0;
  LineDynamics dyn(line, o);
  dyn.initialize(0, q, fixed_ends(line));
  const double period = 1 / f1, dt = period / 200;
  std::vector<double> ts, ys;
  for (int k = 0; k < 1000; ++k) {
    dyn.step(dt, fixed_ends(line));
    ts.push_back(dyn.state().t);
    ys.push_back(dyn.state().q(3 * (N / 2) + 1));
  }
  const auto c = upcrossings(ts, ys);
  REQUIRE(c.size() >= 4);
  const double measured = (c.back() - c.front()) / double(c.size() - 1);
  // Tolerance from the mesh and the step: linear elements with consistent mass raise omega_1
  // by (pi/N)^2/24 (2.6e-4); the trapezoidal rule (rho_inf = 1) lengthens the period by
  // (omega dt)^2/12 (8e-5); the zero-crossing interpolation over 1000 steps is below 1e-5.
  const double rel = std::fabs(measured * f1 - 1);
  INFO("measured period " << measured << " analytic " << period << " relative error " << rel);
  CHECK(rel < 5e-4);
}

TEST_CASE("A pinned Hermite beam oscillates at the Euler-Bernoulli frequency", "[dynamics][line][beam]") {
  LineType t = oc3(2e5);
  t.Cdn = t.Cdt = t.Can = t.Cat = 0;
  t.rho_A = 1025.0 * kPi * t.d * t.d / 4;  // weightless in water, no added mass
  // A soft EA keeps the stretch of the deflected beam (the geometric stiffening) below 1e-6
  // of the bending stiffness at this amplitude.
  t.EA = 1e6;
  const double L = 20.0;
  Line line("beam", {{t, L, 16}}, at({0, 0, -50}), at({L, 0, -50}));
  // f1 = (pi/L)^2 sqrt(EI/m) / (2 pi) for a pinned-pinned beam.
  const double f1 = std::pow(kPi / L, 2) * std::sqrt(t.EI / t.rho_A) / (2 * kPi);
  VecX<double> q = VecX<double>::Zero(static_cast<Eigen::Index>(line.dofs()));
  const double A = 0.01;
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    const double s = line.s_node(i);
    q.segment<3>(6 * static_cast<Eigen::Index>(i)) = Vec3<double>(s, A * std::sin(kPi * s / L), -50);
    q.segment<3>(6 * static_cast<Eigen::Index>(i) + 3) = Vec3<double>(1, A * kPi / L * std::cos(kPi * s / L), 0);
  }
  DynamicOptions o;
  o.rho_inf = 1.0;
  LineDynamics dyn(line, o);
  dyn.initialize(0, q, fixed_ends(line));
  const double dt = 1 / f1 / 200;
  std::vector<double> ts, ys;
  for (int k = 0; k < 800; ++k) {
    dyn.step(dt, fixed_ends(line));
    ts.push_back(dyn.state().t);
    ys.push_back(dyn.state().q(6 * 8 + 1));
  }
  const auto c = upcrossings(ts, ys);
  REQUIRE(c.size() >= 3);
  const double measured = (c.back() - c.front()) / double(c.size() - 1);
  // Tolerance: cubic-Hermite elements converge at h^4 (below 1e-6 on 16 elements); the
  // trapezoidal rule's period error (omega dt)^2/12 = 8e-5; the axial tension the deflection
  // induces (EA (pi A / 2L)^2 = 0.6 N) raises f1 by 6e-5.
  const double rel = std::fabs(measured * f1 - 1);
  INFO("measured period " << measured << " analytic " << 1 / f1 << " relative error " << rel);
  CHECK(rel < 2e-4);
}

TEST_CASE("Harmonic surge: the fairlead tension converges at second order in dt; EI = 0 and Hermite agree",
          "[dynamics][line][surge]") {
  // A suspended 420 m line (both ends in mid-water), its fairlead surged 2 m / 20 s with a
  // quintic ramp over the first period; the tension compared at t = 10 s. Axial damping
  // BA = 2e7 N s keeps the axial modes the start excites small.
  LineType t = oc3(0);
  t.BA = 2e7;
  const Vec3<double> fair(0, 0, -50), anchor(380, 0, -120);
  auto motion = [&](double tt) { return test_support::ramped_surge(tt, fair, 2, 20, 20); };
  auto run = [&](double EI, double dt) {
    LineType tt = t;
    tt.EI = EI;
    Line line("span", {{tt, 420.0, 30}}, at(fair), at(anchor));
    const auto st = solve_static(line, StaticProblem{});
    LineDynamics dyn(line, DynamicOptions{});
    EndMotions e = fixed_ends(line);
    dyn.initialize(0, st.q, e);
    const int n = static_cast<int>(std::lround(10.0 / dt));
    for (int k = 1; k <= n; ++k) {
      e[0] = motion(k * dt);
      dyn.step(dt, e);
    }
    // Every tangent the march evaluated was factorised or counted as unused (made ahead
    // with a trial that converged or was rejected).
    const auto& s = dyn.statistics();
    INFO("EI " << EI << " dt " << dt << ": " << s.tangent_evaluations << " tangents, " << s.factorizations
               << " factorisations, " << s.unused_tangents << " unused");
    CHECK(s.tangent_evaluations == s.factorizations + s.unused_tangents);
    return dyn.end_force(0).norm();
  };
  // Observed: differences 10.7, 2.55, 0.63 N between successive halvings (orders 2.07, 2.02).
  std::vector<double> T;
  for (double dt : {0.2, 0.1, 0.05, 0.025}) T.push_back(run(0, dt));
  const double e1 = std::fabs(T[0] - T[1]), e2 = std::fabs(T[1] - T[2]), e3 = std::fabs(T[2] - T[3]);
  const double o1 = std::log2(e1 / e2), o2 = std::log2(e2 / e3);
  INFO("tensions " << T[0] << " " << T[1] << " " << T[2] << " " << T[3] << "; orders " << o1 << " " << o2);
  CHECK(o1 > 1.8);
  CHECK(o2 > 1.8);
  CHECK(o2 < 2.3);
  // The Hermite cable with a small EI follows the EI = 0 line (bending and the Hermite mesh
  // make 3e-4 of the difference).
  const double Th = run(1e3, 0.05);
  INFO("EI = 0 " << T[2] << " Hermite " << Th);
  CHECK(Th == Approx(T[2]).epsilon(1e-3));
}

TEST_CASE("Restart from a snapshot reproduces the uninterrupted run bit for bit", "[dynamics][line][restart]") {
  for (double EI : {0.0, 1e3}) {
    Oc3Case c;
    Line line("OC3", {{oc3(EI), 902.2, 20}}, at(c.fair), at(c.anchor), c.env);
    const auto st = solve_static(line, c.prob);
    LineDynamics dyn(line, c.opt);
    EndMotions e = fixed_ends(line);
    dyn.initialize(0, st.q, e);
    auto drive = [&](LineDynamics& d, int k0, int k1) {
      for (int k = k0; k < k1; ++k) {
        const double t = (k + 1) * 0.1;
        EndMotions m = fixed_ends(line);
        m[0].x(0) += 2 * std::sin(0.5 * t) * std::min(1.0, t / 5);
        d.step(0.1, m);
      }
    };
    drive(dyn, 0, 30);
    const LineDynamicState snap = dyn.state();
    drive(dyn, 30, 60);
    const VecX<double> q_ref = dyn.state().q, v_ref = dyn.state().v;
    dyn.restore(snap);
    drive(dyn, 30, 60);
    CHECK((dyn.state().q - q_ref).cwiseAbs().maxCoeff() == 0);
    CHECK((dyn.state().v - v_ref).cwiseAbs().maxCoeff() == 0);
    // A second object restored from the snapshot reproduces it too.
    LineDynamics dyn2(line, c.opt);
    dyn2.initialize(0, st.q, e);
    dyn2.restore(snap);
    drive(dyn2, 30, 60);
    CHECK((dyn2.state().q - q_ref).cwiseAbs().maxCoeff() == 0);
  }
}

TEST_CASE("Dynamics bad input gives named errors and leaves the state unchanged", "[dynamics][line][errors]") {
  Oc3Case c;
  Line line("OC3", {{oc3(0), 902.2, 10}}, at(c.fair), at(c.anchor), c.env);
  const auto st = solve_static(line, c.prob);
  DynamicOptions bad = c.opt;
  bad.rho_inf = 1.2;
  CHECK_THROWS_WITH(LineDynamics(line, bad), Catch::Contains("rhoInf = 1.2 (limit: in [0, 1])"));
  LineDynamics dyn(line, c.opt);
  dyn.initialize(0, st.q, fixed_ends(line));
  CHECK_THROWS_WITH(dyn.step(0.0, fixed_ends(line)), "InputError: OC3: dt = 0 (limit: > 0)");
  CHECK_THROWS_AS(dyn.step(-0.1, fixed_ends(line)), InputError);
  // A step that cannot converge at the finest subdivision: the fairlead jumps 2 km in one
  // step with 1 Newton iteration and 4 substeps allowed.
  DynamicOptions tight = c.opt;
  tight.max_iterations = 1;
  tight.max_substeps = 4;
  LineDynamics d2(line, tight);
  d2.initialize(0, st.q, fixed_ends(line));
  const LineDynamicState before = d2.state();
  EndMotions far = fixed_ends(line);
  far[0].x(0) -= 2000;
  CHECK_THROWS_AS(d2.step(0.1, far), SolveError);
  CHECK_THROWS_WITH(d2.step(0.1, far), Catch::Contains("OC3 at t = 0.1"));
  CHECK((d2.state().q - before.q).cwiseAbs().maxCoeff() == 0);
  CHECK(d2.state().t == before.t);
}
