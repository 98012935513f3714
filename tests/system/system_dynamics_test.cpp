// Dynamics of mooring systems through the generalised-alpha system stepper: the dynamic
// tangents (dr/dq, dr/dv, M, d(M a)/dq) against duals; a point hung on two lines conserves
// energy at rho_inf = 1 without drag or damping and loses it at rho_inf = 0.5; a buoy moored
// by three lines, hit by a step load, comes to rest at the offset the static solve predicts,
// and its surge period matches the system's linearised stiffness and mass; the same march
// in long double; no heap allocation in a step; a failed step leaves the state unchanged.
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include <catch2/catch.hpp>

#include "support/crossings.hpp"

#include <cmath>

#include <Eigen/Eigenvalues>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/system.hpp"
#include "support/alloc_counter.hpp"
#include "support/system_builders.hpp"

using namespace cabledyn;

namespace {

struct SdLine {
  double length;
  int segs;
  double EA, rho_A, d, BA, Cdn, Cdt, Can, Cat;
  int a, b;
};
struct SdPoint {
  const char* name;
  PointKind kind;
  double x, y, z, m, V, CdA, Ca;
};

template <class T>
MooringSystem<T> sd_build(const std::vector<SdPoint>& pts, const std::vector<SdLine>& lines,
                          std::optional<double> seabed = std::nullopt) {
  Environment env;
  SeabedModel bed;
  if (seabed) {
    env.depth = -*seabed;
    bed.z = *seabed;
    bed.params.kBot = 3e6;
    bed.params.cBot = 3e5;
  }
  MooringSystem<T> sys(env, "dynamic system");
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
  for (const auto& L : lines) {
    const SectionModel<T> s =
        test_support::system_section<T>({L.length, L.segs, L.EA, 0, L.rho_A, L.d, L.BA, L.Cdn, L.Cdt, L.Can, L.Cat});
    sys.add_line(LineModel<T>("line " + std::to_string(++k), {s}, env, bed), L.a, L.b);
  }
  sys.renumber();
  return sys;
}

// A buoy moored by three taut lines to anchors 80 m out and 100 m down.
std::vector<SdPoint> sd_buoy_points(double CdA) {
  std::vector<SdPoint> p{{"buoy", PointKind::free, 0, 0, -50, 5000, 15, CdA, 1.0}};
  for (int i = 0; i < 3; ++i) {
    const double th = 2 * kPi * i / 3;
    p.push_back({"anchor", PointKind::fixed, 80 * std::cos(th), 80 * std::sin(th), -150, 0, 0, 0, 0});
  }
  return p;
}
std::vector<SdLine> sd_buoy_lines(double BA, double Cd) {
  std::vector<SdLine> l;
  for (int i = 0; i < 3; ++i) l.push_back({128.5, 16, 5e7, 10, 0.1, BA, Cd, Cd / 4, Cd > 0 ? 1.0 : 0.0, 0, 0, i + 1});
  return l;
}

// The buoy's x over a march with the point load F_x applied at t = 0.
template <class T>
std::vector<double> sd_step_response(MooringSystem<T>& sys, SystemState<T>& s, double F, double dt, int steps,
                                     double rho_inf, SystemStepperStatistics* stats = nullptr) {
  sys.point(0).load = Vec3<T>(T(F), T(0), T(0));
  SystemStepperOptions o;
  o.rho_inf = rho_inf;
  SystemStepper<MooringSystem<T>> st(sys, o);
  st.initialize(s);
  std::vector<double> x;
  for (int k = 0; k < steps; ++k) {
    st.step(T(dt));
    x.push_back(static_cast<double>(st.state().q(sys.point_dof(0))));
  }
  s = st.state();
  if (stats) *stats = st.statistics();
  return x;
}

}  // namespace

TEST_CASE("The system's dynamic tangents are the derivatives of its forces and inertia", "[system][dynamics][autodiff]") {
  const std::vector<SdPoint> pts{{"anchor", PointKind::fixed, -150, 0, -100, 0, 0, 0, 0},
                                 {"clump", PointKind::free, 0, 10, -70, 3000, 0.4, 1.5, 0.8},
                                 {"fairlead", PointKind::coupled, 40, 0, -10, 0, 0, 0, 0}};
  const std::vector<SdLine> lines{{175, 8, 4e8, 120, 0.09, -0.5, 1.2, 0.3, 1.0, 0.2, 0, 1},
                                  {75, 5, 2e7, 30, 0.15, 3e5, 1.0, 0.2, 0.9, 0.1, 1, 2}};
  auto sys = sd_build<double>(pts, lines, -100.0);
  sys.set_current(Vec3<double>(0.4, -0.2, 0.05));
  sys.set_coupled(2, Vec3<double>(40, 0, -10), Vec3<double>(0.3, 0.1, -0.2), Vec3<double>(0.05, 0, 0.1));
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const Eigen::Index n = sys.dofs();
  for (Eigen::Index i = 0; i < n; ++i) {
    s.v(i) = 0.3 * std::sin(0.9 * double(i)) - (i % 3 == 2 ? 0.2 : 0.0);  // sinking: the seabed damper acts
    s.a(i) = 0.5 * std::cos(1.7 * double(i));
  }
  int grounded = 0;
  for (std::size_t i = 1; i + 1 < sys.line(0).model.n_nodes(); ++i) grounded += s.q(sys.node_dof(0, i) + 2) < -100;
  CHECK(grounded > 0);

  using D = Dual<double>;
  auto sysd = sd_build<D>(pts, lines, -100.0);
  sysd.set_current(Vec3<double>(0.4, -0.2, 0.05));
  sysd.set_coupled(2, Vec3<D>(D(40), D(0), D(-10)), Vec3<D>(D(0.3), D(0.1), D(-0.2)), Vec3<D>(D(0.05), D(0), D(0.1)));
  const SystemState<D> sd = test_support::seeded_dual_state<D>(s);  // q, then v, then a
  VecX<D> rd, Mad;
  sysd.dynamic_residual(sd, rd, nullptr, D(0), D(0));
  sysd.inertia(sd, Mad, nullptr, D(0), D(0));
  auto part = [&](const VecX<D>& f, int block) { return test_support::dual_block(f, n, block); };
  auto close = [&](int kind, double wq, double wv, double wm, const MatX<double>& B) {
    const double e = test_support::relative_difference(test_support::assembled_tangent(sys, s, kind, wq, wv, wm), B);
    INFO("relative error " << e);
    CHECK(e <= 1e-10);
  };
  close(1, 1, 0, 0, part(rd, 0));    // dr/dq
  close(1, 0, 1, 0, part(rd, 1));    // dr/dv
  close(2, 0, 0, 1, part(Mad, 2));   // M
  close(2, 1, 0, 0, part(Mad, 0));   // d(M a)/dq (added mass turning with the chord)
  CHECK(part(rd, 1).cwiseAbs().maxCoeff() > 0);
  CHECK(part(Mad, 0).cwiseAbs().maxCoeff() > 0);
}

TEST_CASE("A point hung on two lines conserves energy at rho_inf = 1 without drag or damping",
          "[system][dynamics]") {
  const std::vector<SdPoint> pts{{"left", PointKind::fixed, -50, 0, -10, 0, 0, 0, 0},
                                 {"mass", PointKind::free, 0, 0, -40, 2000, 0, 0, 0},
                                 {"right", PointKind::fixed, 50, 0, -10, 0, 0, 0, 0}};
  const std::vector<SdLine> lines{{60, 10, 1e7, 20, 0.05, 0, 0, 0, 0, 0, 0, 1},
                                  {60, 10, 1e7, 20, 0.05, 0, 0, 0, 0, 0, 1, 2}};
  auto run = [&](double rho_inf) {
    auto sys = sd_build<double>(pts, lines);
    auto s = sys.initial_state();
    solve_statics(sys, s);
    s.v.segment<3>(sys.point_dof(1)) = Vec3<double>(1.0, 0.5, 0.3);
    return test_support::energy_drift(sys, s, rho_inf, 0.01, 1000);
  };
  const double conserved = run(1.0), dissipated = run(0.5);
  INFO("energy drift / initial kinetic energy: rho_inf 1: " << conserved << ", rho_inf 0.5: " << dissipated);
  CHECK(conserved < 2e-3);
  CHECK(dissipated > 10 * conserved);
}

TEST_CASE("A moored buoy hit by a step load comes to rest at the static offset; its surge period is the linearised one",
          "[system][dynamics]") {
  const double F = 2e4;
  // Damped: heavy axial damping in the lines, drag on the buoy, and rho_inf = 0 with 1 s
  // steps, which also damps the lines' string modes (0.2 Hz, left to quadratic drag alone they
  // ring for minutes): at rest to 1e-8 m within 250 s.
  auto sys = sd_build<double>(sd_buoy_points(2.0), sd_buoy_lines(2e7, 1.2));
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const SystemState<double> s_start = s;
  SystemStepperStatistics stats;
  sd_step_response(sys, s, F, 1.0, 300, 0.0, &stats);
  // The static solve with the load.
  auto sys_load = sd_build<double>(sd_buoy_points(2.0), sd_buoy_lines(2e7, 1.2));
  sys_load.point(0).load = Vec3<double>(F, 0, 0);
  auto s_static = sys_load.initial_state();
  solve_statics(sys_load, s_static);
  double tension_scale = 0, diff = 0;
  for (int l = 0; l < 3; ++l) {
    const Vec3<double> fs = sys_load.line_end_force(s_static, l, 0), fd = sys.line_end_force(s, l, 0);
    tension_scale = std::max(tension_scale, fs.norm());
    diff = std::max(diff, (fs - fd).norm());
  }
  const Vec3<double> offset = sys_load.point_position(s_static, 0) - sys.point_position(s_start, 0);
  INFO("static offset " << offset.transpose() << " m; end-force difference " << diff << " N of " << tension_scale
                        << " N; " << stats.steps << " steps, " << stats.newton_iterations << " Newton iterations");
  CHECK(offset(0) > 0.01);
  CHECK(diff <= 1e-6 * tension_scale);
  CHECK((sys.point_position(s, 0) - sys_load.point_position(s_static, 0)).norm() <= 1e-6 * offset.norm());

  // Undamped: the surge period from zero crossings against the linearised eigenproblem.
  auto und = sd_build<double>(sd_buoy_points(0.0), sd_buoy_lines(0.0, 0.0));
  auto su = und.initial_state();
  solve_statics(und, su);
  auto J = und.make_jacobian();
  J.set_zero();
  VecX<double> r;
  und.dynamic_residual(su, r, &J, 1.0, 0.0);
  const MatX<double> K = J.to_dense();
  J.set_zero();
  und.inertia(su, r, &J, 1.0, 0.0);
  const MatX<double> M = J.to_dense();
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX<double>> eig(0.5 * (K + K.transpose()), 0.5 * (M + M.transpose()));
  REQUIRE(eig.info() == Eigen::Success);
  const Eigen::Index ix = und.point_dof(0);
  double best = 0, omega = 0;
  for (Eigen::Index k = 0; k < K.rows(); ++k) {
    const VecX<double> phi = eig.eigenvectors().col(k);
    const double part = phi(ix) * phi(ix) * und.point_mass(0) / phi.dot(M * phi);
    if (part > best) best = part, omega = std::sqrt(eig.eigenvalues()(k));
  }
  CHECK(best > 0.5);  // a surge mode dominated by the buoy
  const double T_lin = 2 * kPi / omega;
  // The march's surge modal coordinate eta = phi^T M (q - q_eq) under a small step load (the
  // buoy's response also carries the lines' string modes near 2 s; the modal coordinate
  // separates them in the linear regime).
  VecX<double> phi;
  best = 0;
  for (Eigen::Index k = 0; k < K.rows(); ++k) {
    const VecX<double> p = eig.eigenvectors().col(k);
    const double part = p(ix) * p(ix) * und.point_mass(0) / p.dot(M * p);
    if (part > best) best = part, phi = p;
  }
  const VecX<double> Mphi = M * phi, q_eq = su.q;
  const double dt = T_lin / 400;
  und.point(0).load = Vec3<double>(100.0, 0, 0);
  SystemStepperOptions o;
  o.rho_inf = 1.0;
  o.tol = 1e-10;
  SystemStepper<MooringSystem<double>> st(und, o);
  st.initialize(su);
  std::vector<double> x;
  for (int k = 0; k < 4000; ++k) {
    st.step(dt);
    x.push_back(Mphi.dot(st.state().q - q_eq));
  }
  double mean = 0;
  for (double v : x) mean += v / double(x.size());
  const std::vector<double> up = test_support::upcrossings(x, dt, mean);
  REQUIRE(up.size() >= 5);
  const double T_march = test_support::mean_period(up);
  INFO("surge period: linearised " << T_lin << " s, march " << T_march << " s over " << up.size() - 1 << " cycles");
  CHECK(T_march == Approx(T_lin).epsilon(1e-3));
}

TEST_CASE("The system march runs in long double and agrees with double", "[system][dynamics]") {
  auto sysd = sd_build<double>(sd_buoy_points(2.0), sd_buoy_lines(2e7, 1.2));
  auto sd = sysd.initial_state();
  solve_statics(sysd, sd);
  const auto xd = sd_step_response(sysd, sd, 2e4, 0.02, 100, 0.8);
  auto sysl = sd_build<long double>(sd_buoy_points(2.0), sd_buoy_lines(2e7, 1.2));
  auto sl = sysl.initial_state();
  solve_statics(sysl, sl);
  const auto xl = sd_step_response(sysl, sl, 2e4, 0.02, 100, 0.8);
  double err = 0, range = 0;
  for (std::size_t k = 0; k < xd.size(); ++k) {
    err = std::max(err, std::fabs(xd[k] - xl[k]));
    range = std::max(range, std::fabs(xd[k] - xd[0]));
  }
  INFO("max |x_double - x_long_double| " << err << " m over a motion of " << range << " m");
  CHECK(range > 0.01);
  CHECK(err <= 1e-6 * range);
}

TEST_CASE("A system step allocates nothing; a failed step leaves the state unchanged and names the time",
          "[system][dynamics]") {
  const std::vector<SdPoint> pts{{"anchor", PointKind::fixed, -150, 0, -100, 0, 0, 0, 0},
                                 {"clump", PointKind::free, 0, 10, -70, 3000, 0.4, 1.5, 0.8},
                                 {"fairlead", PointKind::coupled, 40, 0, -10, 0, 0, 0, 0}};
  const std::vector<SdLine> lines{{175, 8, 4e8, 120, 0.09, -0.5, 1.2, 0.3, 1.0, 0.2, 0, 1},
                                  {75, 5, 2e7, 30, 0.15, 3e5, 1.0, 0.2, 0.9, 0.1, 1, 2}};
  auto sys = sd_build<double>(pts, lines, -100.0);
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
  // Two lines between held points: two components, each searched apart (its residual's
  // 2-norm, its update limit), and the chord-turn statistic: nothing allocated either.
  {
    const std::vector<SdPoint> pts2{{"anchor A", PointKind::fixed, -150, 0, -100, 0, 0, 0, 0},
                                    {"fairlead A", PointKind::coupled, 40, 0, -10, 0, 0, 0, 0},
                                    {"anchor B", PointKind::fixed, 0, -150, -100, 0, 0, 0, 0},
                                    {"fairlead B", PointKind::coupled, 0, 40, -10, 0, 0, 0, 0}};
    const std::vector<SdLine> lines2{{230, 10, 4e8, 120, 0.09, -0.5, 1.2, 0.3, 1.0, 0.2, 0, 1},
                                     {230, 10, 4e8, 120, 0.09, -0.5, 1.2, 0.3, 1.0, 0.2, 2, 3}};
    auto sys2 = sd_build<double>(pts2, lines2, -100.0);
    REQUIRE(sys2.n_components() == 2);
    SeabedModel bed;  // the system's seabed too: the update limit is measured in each step
    bed.z = -100;
    bed.params.kBot = 3e6;
    bed.params.cBot = 3e5;
    sys2.set_seabed(bed);
    auto s2 = sys2.initial_state();
    solve_statics(sys2, s2);
    SystemStepper<MooringSystem<double>> st2(sys2);
    st2.initialize(s2);
    test_support::surge_steps(sys2, st2, 1, fair0, 1, 1);
    test_support::AllocationCounter count2;
    {
      test_support::EigenMallocGuard guard;
      test_support::surge_steps(sys2, st2, 1, fair0, 2, 40);
    }
    CHECK(count2.allocations() == 0);
    CHECK(st2.statistics().largest_turn_deg > 0);
  }
  // A fairlead jump no step can follow: Newton fails at every halving.
  const auto before = st.state();
  SystemStepperOptions o;
  o.max_iterations = 2;
  o.max_subdivisions = 2;
  SystemStepper<MooringSystem<double>> st2(sys, o);
  st2.initialize(before);
  sys.set_coupled(2, Vec3<double>(90, 0, -10), Vec3<double>(0, 0, 0));
  CHECK_THROWS_WITH(st2.step(0.05), Catch::Contains("dynamic system") && Catch::Contains("t = 2") &&
                                        Catch::Contains("after 2 halvings"));
  CHECK(st2.state().q == before.q);
  CHECK(st2.state().t == before.t);
  CHECK(sys.point(2).r(0) == Approx(40 + 2 * std::sin(1.2)));  // the kinematics of t restored
}
