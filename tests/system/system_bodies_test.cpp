// Rigid bodies in mooring systems: the SO(3) maps; a body moored by three lines balances
// (net force and moment of its lines, weight and buoyancy summed in the test, each line's end
// force against the standalone line statics); its static tangent against duals; design
// sensitivities through the static solve against central differences; under a step load it
// comes to rest at the static offset and its surge period is the linearised one; a torque-free
// spinning body conserves energy and angular momentum; a moored body conserves energy at
// rho_inf = 1; a step allocates nothing.
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include <catch2/catch.hpp>

#include "support/crossings.hpp"

#include <cmath>

#include <Eigen/Eigenvalues>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/core/so3.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/statics/tension_statics.hpp"
#include "cabledyn/system.hpp"
#include "support/alloc_counter.hpp"
#include "support/system_builders.hpp"

using namespace cabledyn;

namespace {

constexpr double sb_pi = 3.14159265358979323846;

// A submerged buoyant body (reference point 20 m down, centre of gravity 5 m below it) moored
// by three lines from fairleads on a 3 m radius to anchors 100 m out and 150 m down.
template <class T>
MooringSystem<T> sb_moored_body(double EA = 5e8, double BA = 0, double CdA = 0, double line_Cd = 0,
                                double length = 158.0) {
  Environment env;
  MooringSystem<T> sys(env, "moored body");
  BodyModel<T> B = test_support::float_body<T>();
  B.CdA << CdA, CdA, CdA, 0, 0, 0;
  sys.add_body(B);
  for (int i = 0; i < 3; ++i) {
    const double th = 2 * sb_pi * i / 3 + 0.2;
    PointModel<T> f;
    f.name = "fairlead";
    f.kind = PointKind::body;
    f.body = 0;
    f.r = Vec3<T>(T(3 * std::cos(th)), T(3 * std::sin(th)), T(-2));
    const int pf = sys.add_point(f);
    PointModel<T> a;
    a.name = "anchor";
    a.kind = PointKind::fixed;
    a.r = Vec3<T>(T(100 * std::cos(th)), T(100 * std::sin(th)), T(-150));
    const int pa = sys.add_point(a);
    SectionModel<T> s;
    s.length = T(length);
    s.segments = 12;
    s.EA = T(EA);
    s.BA = T(BA);
    s.rho_A = T(80);
    s.d = T(0.1);
    s.Cdn = line_Cd;
    s.Cdt = line_Cd / 4;
    s.Can = line_Cd > 0 ? 1.0 : 0.0;
    sys.add_line(LineModel<T>("line " + std::to_string(i + 1), {s}, env), pf, pa);
  }
  sys.renumber();
  return sys;
}

}  // namespace

TEST_CASE("SO(3): exp and log are inverse, the left Jacobian is the derivative of exp, the deck angles round-trip",
          "[system][bodies][so3]") {
  for (const Vec3<double>& th : {Vec3<double>(0.3, -0.2, 0.5), Vec3<double>(1e-9, 2e-9, -1e-9), Vec3<double>(0, 0, 3.1),
                                Vec3<double>(1.5, -2.0, 1.0)}) {
    const Mat3<double> R = so3_exp(th);
    CHECK((R.transpose() * R - Mat3<double>::Identity()).cwiseAbs().maxCoeff() < 1e-14);
    Vec3<double> back = so3_log(R);
    if (th.norm() > sb_pi) back = back.normalized() * (back.norm() - 2 * sb_pi);  // the principal angle
    CHECK((so3_exp(back) - R).cwiseAbs().maxCoeff() < 1e-13);
    if (th.norm() <= sb_pi) CHECK((back - th).norm() < 1e-12 * std::max(1.0, th.norm()));
    // exp(th + d) = exp(J_l d) exp(th): compare with duals.
    using D = Dual<double>;
    Vec3<D> td;
    for (int k = 0; k < 3; ++k) td(k) = D(th(k), Vec3<double>::Unit(k));
    const Mat3<D> Rd = so3_exp<D>(td);
    const Mat3<double> Jl = so3_left_jacobian(th);
    for (int k = 0; k < 3; ++k) {
      Mat3<double> dR;
      for (int i = 0; i < 9; ++i) dR(i) = Rd(i).derivatives()(k);
      const Mat3<double> expected = skew<double>(Vec3<double>(Jl.col(k))) * R;
      CHECK((dR - expected).cwiseAbs().maxCoeff() < 1e-12);
    }
  }
  const Mat3<double> R = rotation_xyz(0.2, -0.4, 1.1);
  const Vec3<double> ang = angles_xyz(R);
  CHECK(ang(0) == Approx(0.2).epsilon(1e-13));
  CHECK(ang(1) == Approx(-0.4).epsilon(1e-13));
  CHECK(ang(2) == Approx(1.1).epsilon(1e-13));
  // The geodesic: halfway twice is the whole way.
  const Mat3<double> Ra = rotation_xyz(0.1, 0.2, 0.3), Rb = rotation_xyz(-0.5, 0.4, 1.0);
  const Mat3<double> Rh = so3_interpolate(Ra, Rb, 0.5);
  CHECK((so3_interpolate(Ra, Rh, 2.0) - Rb).cwiseAbs().maxCoeff() < 1e-13);
  // The shortest rotation between two unit vectors: it carries a onto b, turns about a x b (so a
  // vector normal to both stays), and a reversal is a half turn about a normal of a.
  const Vec3<double> a = Vec3<double>(0.3, -0.5, 0.8).normalized();
  for (const Vec3<double>& b : {Vec3<double>(Vec3<double>(-0.2, 0.9, 0.1).normalized()), a, Vec3<double>(-a),
                                Vec3<double>(0, 0, -1)}) {
    const Vec3<double> from = b == Vec3<double>(0, 0, -1) ? Vec3<double>(0, 0, 1) : a;
    const Mat3<double> Q = so3_between<double>(from, b);
    CHECK((Q.transpose() * Q - Mat3<double>::Identity()).cwiseAbs().maxCoeff() < 1e-15);
    CHECK(Q.determinant() == Approx(1).epsilon(1e-15));
    CHECK((Q * from - b).norm() < 1e-15);
    const Vec3<double> n = from.cross(b);
    if (n.norm() > 1e-9) CHECK((Q * n - n).norm() < 1e-15);
  }
  // z onto -z: the half turn about x, diag(1, -1, -1) (the rods hanging straight down).
  const Mat3<double> down = so3_between<double>(Vec3<double>(0, 0, 1), Vec3<double>(0, 0, -1));
  CHECK(down == Mat3<double>(Vec3<double>(1, -1, -1).asDiagonal()));
  CHECK(angles_xyz(down)(0) == Approx(sb_pi).epsilon(1e-15));  // +180 degrees, not -180
}

TEST_CASE("A body moored by three lines balances its lines, weight and buoyancy; each line matches its own statics",
          "[system][bodies][statics]") {
  auto sys = sb_moored_body<double>();
  auto s = sys.initial_state();
  const auto res = solve_statics(sys, s);
  INFO("statics: " << res.point_iterations << " balance iterations, " << res.iterations << " Newton, residual "
                   << res.residual << " N of " << res.scale);
  Vec3<double> rb;
  Mat3<double> Rb;
  sys.body_pose(s, 0, rb, Rb);
  const Environment env;
  const auto& B = sys.body(0);
  // The balance written here: weight at the centre of gravity, buoyancy (fully submerged) at
  // the centre of buoyancy, each line's end force at its fairlead.
  Vec3<double> F(0, 0, env.rho_w * env.g * 250 - 2e5 * env.g);
  Vec3<double> M = Vec3<double>(Rb * B.cg).cross(Vec3<double>(0, 0, -2e5 * env.g)) +
                   Vec3<double>(Rb * B.cb).cross(Vec3<double>(0, 0, env.rho_w * env.g * 250));
  double tension = 0, line_err = 0;
  for (int l = 0; l < 3; ++l) {
    const int pf = sys.line(l).point[0], pa = sys.line(l).point[1];
    const Vec3<double> f = sys.line_end_force(s, l, 0);
    F += f;
    M += Vec3<double>(Rb * sys.point(pf).r).cross(f);
    tension = std::max(tension, f.norm());
    // The line alone between its two ends (the single-line statics).
    const Vec3<double> top = sys.point_position(s, pf), bottom = sys.point_position(s, pa);
    const Line line = sys.line(l).model.value_line(top, bottom);
    const StaticResult r = TensionStatics(line, StaticProblem{}).solve();
    const Vec3<double> f_alone = r.end_force[0];
    line_err = std::max(line_err, (f_alone - f).norm());
  }
  INFO("net force " << F.transpose() << " N, net moment " << M.transpose() << " N m, tension " << tension
                    << " N, line statics difference " << line_err << " N; pose " << rb.transpose());
  CHECK(tension > 1e5);
  CHECK(F.norm() <= 1e-4 * tension);
  CHECK(M.norm() <= 1e-4 * tension * 5);
  CHECK(line_err <= 1e-4 * tension);
  // The centre of gravity offset tilts the body: it is not at its deck pose.
  CHECK(so3_log(Mat3<double>(Rb)).norm() > 1e-4);
}

TEST_CASE("The static and dynamic tangents of a system with a body are the derivatives of its forces",
          "[system][bodies][autodiff]") {
  using D = Dual<double>;
  auto sys = sb_moored_body<double>(5e8, 2e6, 3.0, 1.2);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const Eigen::Index n = sys.dofs(), d = sys.body_dof(0);
  // A turned body (a rotation increment on top of its orientation), moving.
  s.q.segment<3>(d + 3) = Vec3<double>(0.05, -0.03, 0.08);
  s.q.segment<3>(d) += Vec3<double>(0.4, -0.2, 0.1);
  for (Eigen::Index i = 0; i < n; ++i) {
    s.v(i) = 0.2 * std::sin(0.7 * double(i));
    s.a(i) = 0.3 * std::cos(1.3 * double(i));
  }
  auto sysd = sb_moored_body<D>(5e8, 2e6, 3.0, 1.2);
  SystemState<D> sd;
  sd.q.resize(n), sd.v.resize(n), sd.a.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    sd.q(i) = D(s.q(i), VecX<double>::Unit(2 * n, i));
    sd.v(i) = D(s.v(i), VecX<double>::Unit(2 * n, n + i));
    sd.a(i) = D(s.a(i));
  }
  sd.R = {s.R[0].cast<D>()};
  auto part = [&](const VecX<D>& f, int block) {
    MatX<double> J = MatX<double>::Zero(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
      if (f(i).derivatives().size()) J.row(i) = f(i).derivatives().segment(block * n, n).transpose();
    return J;
  };
  auto close = [](const MatX<double>& A, const MatX<double>& B, double tol) {
    const double scale = std::max(B.cwiseAbs().maxCoeff(), 1e-300);
    INFO("max error " << (A - B).cwiseAbs().maxCoeff() << " of " << scale);
    CHECK((A - B).cwiseAbs().maxCoeff() <= tol * scale);
  };
  // Statics (v = 0): the lines' blocks through the body map exactly, its own loads by central
  // differences.
  {
    auto J = sys.make_jacobian();
    VecX<double> R;
    SystemState<double> s0 = s;
    s0.v.setZero();
    sys.static_residual(s0, R, &J);
    VecX<D> Rd;
    sysd.static_residual(sd, Rd, nullptr);
    close(J.to_dense(), part(Rd, 0), 1e-8);
  }
  // Dynamics, at a committed state (the rotation increment folded: the velocity map of a body
  // point is exact there): dr/dq (the lever arms' turn with the angular velocity left out, a
  // small term), dr/dv and the mass matrix.
  sys.commit(s);
  for (Eigen::Index i = 0; i < n; ++i) sd.q(i) = D(s.q(i), VecX<double>::Unit(2 * n, i));
  sd.R = {s.R[0].cast<D>()};
  VecX<D> rd, Mad;
  sysd.dynamic_residual(sd, rd, nullptr, D(0), D(0));
  sysd.inertia(sd, Mad, nullptr, D(0), D(0));
  auto assembled = [&](double wq, double wv, double wm, bool inertia) {
    auto J = sys.make_jacobian();
    J.set_zero();
    VecX<double> r;
    if (inertia) sys.inertia(s, r, &J, wm, wq);
    else sys.dynamic_residual(s, r, &J, wq, wv);
    return MatX<double>(J.to_dense());
  };
  close(assembled(1, 0, 0, false), part(rd, 0), 1e-3);
  close(assembled(0, 1, 0, false), part(rd, 1), 1e-7);
  MatX<double> M = MatX<double>::Zero(n, n);
  {
    // M from duals seeded in a.
    SystemState<D> sa = sd;
    for (Eigen::Index i = 0; i < n; ++i) sa.q(i) = D(s.q(i)), sa.v(i) = D(s.v(i)), sa.a(i) = D(s.a(i), VecX<double>::Unit(2 * n, i));  // the system's constants carry 2 n directions
    VecX<D> Ma;
    sysd.inertia(sa, Ma, nullptr, D(0), D(0));
    for (Eigen::Index i = 0; i < n; ++i)
      if (Ma(i).derivatives().size()) M.row(i) = Ma(i).derivatives().head(n).transpose();
  }
  close(assembled(0, 0, 1, true), M, 1e-12);
  close(assembled(1, 0, 0, true), part(Mad, 0), 1e-3);
}

TEST_CASE("Design sensitivities of a moored body through the static solve agree with central differences",
          "[system][bodies][autodiff][statics]") {
  using D = Dual<double>;
  // d(fairlead tension of line 1) / d(EA) and / d(line length), and d(body heave) / d(EA).
  auto solve = [](double EA, double length) {
    auto sys = sb_moored_body<double>(EA, 0, 0, 0, length);
    auto s = sys.initial_state();
    solve_statics(sys, s);
    Vec3<double> r;
    Mat3<double> R;
    sys.body_pose(s, 0, r, R);
    return std::pair<double, double>(sys.line_end_force(s, 0, 0).norm(), r(2));
  };
  auto sysd = sb_moored_body<D>(5e8, 0, 0, 0, 158.0);
  for (int l = 0; l < 3; ++l) {
    auto& sec = sysd.line(l).model.sections()[0];
    sec.EA = D(5e8, VecX<double>::Unit(2, 0));
    sec.length = D(158.0, VecX<double>::Unit(2, 1));
    sysd.line(l).model.rebuild();
  }
  auto sd = sysd.initial_state();
  solve_statics(sysd, sd);
  const D ten = Vec3<D>(sysd.line_end_force(sd, 0, 0)).norm();
  Vec3<D> rb;
  Mat3<D> Rb;
  sysd.body_pose(sd, 0, rb, Rb);
  // The length step: 1 cm (at 1e-4 m the statics' round-off moved the difference quotient of
  // dT/dL = -627 N/m by 2e-6 of it in an -O1 build, past the 1e-6 check; at 1 cm the round-off
  // is divided by 100 and the quotient's truncation, h^2 T'''(L) / 6, stays far below 1e-6).
  const double hE = 5e8 * 1e-4, hL = 1e-2;
  const auto pE = solve(5e8 + hE, 158), mE = solve(5e8 - hE, 158), pL = solve(5e8, 158 + hL), mL = solve(5e8, 158 - hL);
  const double dT_dEA = (pE.first - mE.first) / (2 * hE), dT_dL = (pL.first - mL.first) / (2 * hL);
  const double dz_dEA = (pE.second - mE.second) / (2 * hE);
  INFO("dT/dEA dual " << ten.derivatives()(0) << " central " << dT_dEA << "; dT/dL dual " << ten.derivatives()(1)
                      << " central " << dT_dL << "; dz/dEA dual " << rb(2).derivatives()(0) << " central " << dz_dEA);
  // The tension of these buoyancy-held taut lines hardly depends on EA (4.7e-8 N per N: 2.4 mN
  // over the difference step): its central difference carries the statics' round-off floor
  // (1e-5 N), so it is checked to 1e-2.
  CHECK(ten.derivatives()(0) == Approx(dT_dEA).epsilon(1e-2));
  CHECK(ten.derivatives()(1) == Approx(dT_dL).epsilon(1e-6));
  CHECK(rb(2).derivatives()(0) == Approx(dz_dEA).epsilon(1e-6));
}

TEST_CASE("A moored body hit by a step load comes to rest at the static offset; its surge period is the linearised one",
          "[system][bodies][dynamics]") {
  const double F = 5e4;
  auto sys = sb_moored_body<double>(5e8, 3e7, 20.0, 1.2);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  Vec3<double> r0;
  Mat3<double> R0;
  sys.body_pose(s, 0, r0, R0);
  sys.body(0).force = Vec3<double>(F, 0, 0);
  SystemStepperOptions o;
  o.rho_inf = 0.0;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(s);
  // 300 s in 1 s steps, then 40 steps of 20 s: at rho_inf = 0 the large steps annihilate what
  // is left of the slow yaw and pitch swings, which quadratic drag alone damps only as 1 / t.
  for (int k = 0; k < 300; ++k) st.step(1.0);
  for (int k = 0; k < 40; ++k) st.step(20.0);
  s = st.state();
  auto sys_load = sb_moored_body<double>(5e8, 3e7, 20.0, 1.2);
  sys_load.body(0).force = Vec3<double>(F, 0, 0);
  auto ss = sys_load.initial_state();
  solve_statics(sys_load, ss);
  double tension = 0, diff = 0;
  for (int l = 0; l < 3; ++l) {
    const Vec3<double> fs = sys_load.line_end_force(ss, l, 0), fd = sys.line_end_force(s, l, 0);
    tension = std::max(tension, fs.norm());
    diff = std::max(diff, (fs - fd).norm());
  }
  Vec3<double> rs, rd;
  Mat3<double> Rs, Rd;
  sys_load.body_pose(ss, 0, rs, Rs);
  sys.body_pose(s, 0, rd, Rd);
  INFO("static offset " << (rs - r0).transpose() << " m; end-force difference " << diff << " N of " << tension
                        << " N; pose difference " << (rs - rd).norm() << " m, " << so3_log(Mat3<double>(Rs * Rd.transpose())).norm()
                        << " rad; " << st.statistics().steps << " steps, " << st.statistics().newton_iterations << " Newton");
  CHECK((rs - r0)(0) > 0.05);
  CHECK(diff <= 1e-6 * tension);
  CHECK((rs - rd).norm() <= 1e-5 * (rs - r0).norm());

  // Undamped: the surge period against the linearised eigenproblem (K, M of the system).
  auto und = sb_moored_body<double>();
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
  const Eigen::Index ix = und.body_dof(0);
  double best = 0;
  VecX<double> phi;
  double omega = 0;
  for (Eigen::Index k = 0; k < K.rows(); ++k) {
    const VecX<double> p = eig.eigenvectors().col(k);
    const double share = p(ix) * p(ix) * M(ix, ix) / p.dot(M * p);  // the body's share of the modal mass
    if (share > best) best = share, phi = p, omega = std::sqrt(eig.eigenvalues()(k));
  }
  const double T_lin = 2 * sb_pi / omega;
  const VecX<double> Mphi = M * phi, q_eq = su.q;
  const double dt = T_lin / 200;
  und.body(0).force = Vec3<double>(200.0, 0, 0);
  SystemStepperOptions ou;
  ou.rho_inf = 1.0;
  ou.tol = 1e-10;
  SystemStepper<MooringSystem<double>> su_st(und, ou);
  su_st.initialize(su);
  std::vector<double> x;
  for (int k = 0; k < 2000; ++k) {
    su_st.step(dt);
    x.push_back(Mphi.dot(su_st.state().q - q_eq));
  }
  double mean = 0;
  for (double v : x) mean += v / double(x.size());
  const std::vector<double> up = test_support::upcrossings(x, dt, mean);
  REQUIRE(up.size() >= 5);
  const double T_march = test_support::mean_period(up);
  INFO("surge period: linearised " << T_lin << " s, march " << T_march << " s over " << up.size() - 1
                                   << " cycles; mode share of the body's x " << best);
  CHECK(best > 0.3);
  CHECK(T_march == Approx(T_lin).epsilon(1e-2));
}

TEST_CASE("A torque-free spinning body conserves energy and angular momentum; a moored body conserves energy at "
          "rho_inf = 1",
          "[system][bodies][dynamics]") {
  // Neutrally buoyant, centre of gravity at the reference point, no lines: a free top.
  Environment env;
  MooringSystem<double> top(env, "top");
  BodyModel<double> B;
  B.name = "top";
  B.r = Vec3<double>(0, 0, -50);
  B.mass = 1000;
  B.volume = 1000 / env.rho_w;
  B.inertia = Vec3<double>(100, 200, 300);
  top.add_body(B);
  top.renumber();
  auto s = top.initial_state();
  const Eigen::Index d = top.body_dof(0);
  s.v.segment<3>(d + 3) = Vec3<double>(2.0, 0.05, 0.1);  // about the axis of least inertia (stable)
  auto angular_momentum = [&](const SystemState<double>& x) {
    Vec3<double> r;
    Mat3<double> R;
    top.body_pose(x, 0, r, R);
    return Vec3<double>(R * B.inertia.asDiagonal() * R.transpose() * Vec3<double>(x.v.segment<3>(d + 3)));
  };
  const double E0 = top.kinetic_energy(s);
  const Vec3<double> L0 = angular_momentum(s);
  // Over 10 s at dt and dt / 2: the energy and angular momentum errors of the trapezoidal
  // level (rho_inf = 1) fall as dt^2.
  auto run = [&](double dt, double& dE, double& dL, Mat3<double>& R_end) {
    SystemStepperOptions o;
    o.rho_inf = 1.0;
    o.tol = 1e-12;
    SystemStepper<MooringSystem<double>> st(top, o);
    st.initialize(s);
    dE = dL = 0;
    const int steps = static_cast<int>(std::lround(10.0 / dt));
    for (int k = 0; k < steps; ++k) {
      st.step(dt);
      dE = std::max(dE, std::fabs(top.kinetic_energy(st.state()) - E0) / E0);
      dL = std::max(dL, (angular_momentum(st.state()) - L0).norm() / L0.norm());
    }
    R_end = st.state().R[0];
  };
  double dE1, dL1, dE2, dL2;
  Mat3<double> R1, R2;
  run(0.01, dE1, dL1, R1);
  run(0.005, dE2, dL2, R2);
  INFO("free top over 10 s: energy drift " << dE1 << " / " << dE2 << ", angular momentum drift " << dL1 << " / " << dL2
                                            << " at dt 0.01 / 0.005 s; orientation difference "
                                            << so3_log(Mat3<double>(R1 * R2.transpose())).norm() << " rad");
  CHECK(dE1 < 5e-3);
  CHECK(dE1 / dE2 > 3.5);
  CHECK(dL1 / dL2 > 3.5);
  CHECK(so3_log(R2).norm() > 1.0);  // it turned
  CHECK(so3_log(Mat3<double>(R1 * R2.transpose())).norm() < 0.05);

  // The moored body, undamped and without drag, released moving.
  auto sys = sb_moored_body<double>();
  auto sm = sys.initial_state();
  solve_statics(sys, sm);
  const Eigen::Index db = sys.body_dof(0);
  sm.v.segment<3>(db) = Vec3<double>(0.3, -0.1, 0.05);
  sm.v.segment<3>(db + 3) = Vec3<double>(0.02, 0.01, -0.03);
  const double K0 = sys.kinetic_energy(sm), Et0 = K0 + sys.potential_energy(sm);
  SystemStepperOptions om;
  om.rho_inf = 1.0;
  om.tol = 1e-10;
  SystemStepper<MooringSystem<double>> sm_st(sys, om);
  sm_st.initialize(sm);
  double drift = 0;
  for (int k = 0; k < 1000; ++k) {
    sm_st.step(0.02);
    drift = std::max(drift, std::fabs(sys.kinetic_energy(sm_st.state()) + sys.potential_energy(sm_st.state()) - Et0));
  }
  INFO("moored body: energy drift / initial kinetic energy " << drift / K0);
  CHECK(drift / K0 < 5e-3);
}

TEST_CASE("A step of a system with a body allocates nothing", "[system][bodies][dynamics]") {
  auto sys = sb_moored_body<double>(5e8, 1e6, 5.0, 1.2);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  SystemStepper<MooringSystem<double>> st(sys);
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

TEST_CASE("A moored body marches in long double and agrees with double", "[system][bodies][dynamics]") {
  auto run = [](auto zero) {
    using T = decltype(zero);
    auto sys = sb_moored_body<T>(5e8, 1e6, 5.0, 1.2);
    auto s = sys.initial_state();
    solve_statics(sys, s);
    sys.body(0).force = Vec3<T>(T(2e4), T(0), T(5e3));
    SystemStepper<MooringSystem<T>> st(sys);
    st.initialize(s);
    for (int k = 0; k < 20; ++k) st.step(T(0.1));
    Vec3<T> r;
    Mat3<T> R;
    sys.body_pose(st.state(), 0, r, R);
    return std::pair<Vec3<double>, double>(r.template cast<double>(), static_cast<double>(so3_log<T>(R).norm()));
  };
  const auto d = run(0.0);
  const auto l = run(0.0L);
  INFO("double " << d.first.transpose() << ", long double " << l.first.transpose());
  CHECK((d.first - l.first).norm() < 1e-7);
  CHECK(std::fabs(d.second - l.second) < 1e-9);
  CHECK(d.first(0) > 0.01);  // it moved
}

TEST_CASE("A floating body half the weight of its displacement settles with its centre of buoyancy at the waterline",
          "[system][bodies][dynamics]") {
  // The equivalent sphere (spec "Attached objects and line ends"): phi = h^2 (3 r_e - h) / (4
  // r_e^3) with h = r_e - z_b is 1/2 at z_b = 0, so a body of mass rho V / 2 floats with its
  // centre of buoyancy on the still water; its heave stiffness there is rho g V dphi/dh =
  // rho g V 3 / (4 r_e), its heave period 2 pi sqrt((m + rho phi V Ca) / k).
  Environment env;
  MooringSystem<double> sys(env, "float");
  BodyModel<double> B;
  B.name = "float";
  B.kind = BodyKind::free;
  B.volume = 20;
  B.mass = env.rho_w * B.volume / 2;
  B.inertia = Vec3<double>(1e5, 1e5, 1e5);
  B.Ca = Vec3<double>(0.5, 0.5, 0.5);
  B.r = Vec3<double>(0, 0, -0.3);
  const int b = sys.add_body(B);
  sys.renumber();
  const double re = std::cbrt(3 * B.volume / (4 * sb_pi));
  const double k = env.rho_w * env.g * B.volume * 3 / (4 * re);
  const double T_heave = 2 * sb_pi * std::sqrt((B.mass + env.rho_w * 0.5 * B.volume * 0.5) / k);
  // Undamped from z = -0.3 m (small against r_e = 1.68 m): the heave period.
  auto s = sys.initial_state();
  SystemStepperOptions o;
  o.rho_inf = 1.0;
  o.tol = 1e-10;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(s);
  const double dt = T_heave / 200;
  std::vector<double> z;
  for (int i = 0; i < 1000; ++i) {
    st.step(dt);
    z.push_back(st.state().q(sys.body_dof(b) + 2));
  }
  const std::vector<double> up = test_support::upcrossings(z, dt);
  REQUIRE(up.size() >= 3);
  const double T_march = test_support::mean_period(up);
  double zmax = -1e9, zmin = 1e9;
  for (double v : z) zmax = std::max(zmax, v), zmin = std::min(zmin, v);
  INFO("heave period: march " << T_march << " s, small-amplitude " << T_heave << " s; z in [" << zmin << ", " << zmax << "]");
  // The stiffness falls off away from the waterline (the sphere narrows): a 0.3 m heave runs a
  // little slower than the linear period, and swings about z = 0 nearly symmetrically.
  CHECK(T_march == Approx(T_heave).epsilon(2e-2));
  CHECK(T_march >= T_heave * 0.999);
  CHECK(zmax == Approx(0.3).margin(0.02));
  // Damped (drag, rho_inf = 0 and long steps): it comes to rest at z = 0.
  BodyModel<double> D = B;
  D.CdA << 5, 5, 5, 0, 0, 0;
  MooringSystem<double> sd(env, "damped float");
  sd.add_body(D);
  sd.renumber();
  auto sdd = sd.initial_state();
  SystemStepperOptions od;
  od.rho_inf = 0.0;
  SystemStepper<MooringSystem<double>> std_(sd, od);
  std_.initialize(sdd);
  for (int i = 0; i < 200; ++i) std_.step(i < 100 ? 0.5 : 10.0);
  INFO("rest height " << std_.state().q(2));
  CHECK(std::fabs(std_.state().q(2)) < 1e-6);
}

TEST_CASE("A Coupled body's load on its host is its lines' load plus its own weight and buoyancy less its inertia",
          "[system][bodies]") {
  // spec "Tension and coupled loads": the reaction -(M a + r) at the prescribed DOFs. The body
  // of sb_moored_body held (Coupled) at its deck pose, accelerated along x at a = 0.7 m/s^2
  // and turning about z at alpha = 0.1 rad/s^2 (at rest): over its lines' load its own adds
  // rho g V - m g vertically at the centre of buoyancy and the centre of gravity, less
  // (m + rho V Ca) a and the rotational inertia about the reference point (CG offset c).
  auto sys = sb_moored_body<double>();
  sys.body(0).kind = BodyKind::coupled;
  sys.renumber();
  const Environment env;
  const auto& B = sys.body(0);
  const double a = 0.7, al = 0.1, m = 2e5, V = 250, rg = env.rho_w * env.g;
  Vec6<double> acc;
  acc << a, 0, 0, 0, 0, al;
  sys.set_coupled_body(0, B.r, B.R, Vec6<double>::Zero(), acc);
  const auto s = sys.initial_state();
  const Vec6<double> F = sys.coupled_reaction(s, 0), Fl = sys.body_line_load(s, 0, true);
  const Vec3<double> c(0.3, 0, -5), cb(0, 0, 1);
  const Vec3<double> W(0, 0, -m * env.g), Bf(0, 0, rg * V);
  // Inertia about the reference point: m (a + alpha x c) + added mass, and J alpha + m c x a.
  const Vec3<double> av(a, 0, 0), alv(0, 0, al);
  const Vec3<double> fin = m * (av + alv.cross(c)) + env.rho_w * V * 0.8 * av;
  const Mat3<double> J = Vec3<double>(2e6, 2.2e6, 8e5).asDiagonal().toDenseMatrix() +
                         m * (c.squaredNorm() * Mat3<double>::Identity() - c * c.transpose());
  const Vec3<double> min = J * alv + m * c.cross(av);
  const Vec3<double> df = W + Bf - fin, dm = c.cross(W) + cb.cross(Bf) - min;
  for (int k = 0; k < 3; ++k) {
    CHECK(F(k) - Fl(k) == Approx(df(k)).margin(1e-9 * m * env.g));
    CHECK(F(3 + k) - Fl(3 + k) == Approx(dm(k)).margin(1e-9 * m * env.g));
  }
  CHECK_THROWS_WITH(sb_moored_body<double>().coupled_reaction(s, 0), Catch::Contains("not coupled"));
}

TEST_CASE("A Coupled body's load on its host is minus its equation of motion as a free body in the same motion",
          "[system][bodies]") {
  // The body of sb_moored_body with drag, moving (v, w) and accelerating (a, alpha): held as a
  // Coupled body, coupled_reaction; the same body free in the same state, the rows of its
  // equation M a + r of dynamic_residual and inertia (lines scattered through its DOFs). The
  // two must be opposite: velocity terms, drag, added mass and the lines' end loads alike.
  auto freesys = sb_moored_body<double>(5e8, 2e6, 3.0, 1.2);
  auto heldsys = sb_moored_body<double>(5e8, 2e6, 3.0, 1.2);
  heldsys.body(0).kind = BodyKind::coupled;
  heldsys.renumber();
  Vec6<double> vel, acc;
  vel << 0.4, -0.2, 0.1, 0.02, -0.03, 0.05;
  acc << 0.7, 0.1, -0.2, 0.01, 0.02, -0.04;
  const auto& B = heldsys.body(0);
  heldsys.set_coupled_body(0, B.r, B.R, vel, acc);
  auto sf = freesys.initial_state();
  const Eigen::Index d = freesys.body_dof(0);
  sf.v.segment<6>(d) = vel;
  sf.a.segment<6>(d) = acc;
  auto sh = heldsys.initial_state();
  // The line nodes: the same (at rest, the deck's straight seeds) in both.
  VecX<double> R, Ma;
  freesys.dynamic_residual(sf, R, nullptr, 1.0, 1.0);
  freesys.inertia(sf, Ma, nullptr, 1.0, 1.0);
  const Vec6<double> F = heldsys.coupled_reaction(sh, 0);
  for (int k = 0; k < 6; ++k) CHECK(-(R(d + k) + Ma(d + k)) == Approx(F(k)).epsilon(1e-10).margin(1e-6));
  CHECK(F.head<3>().norm() > 1e4);
}

TEST_CASE("bodySubstep's frequency estimate takes a body's seabed contact", "[system][bodies]") {
  // A free body resting on the seabed, no lines: its heave spring is the contact's kBot over
  // 1 m^2, the estimate sqrt(kBot / m) (no added mass: Ca = 0).
  Environment env;
  env.depth = 50;
  MooringSystem<double> sys(env, "grounded body");
  SeabedModel bed;
  bed.z = -50;
  bed.params.kBot = 4e6;
  sys.set_seabed(bed);
  BodyModel<double> B;
  B.kind = BodyKind::free;
  B.r = Vec3<double>(0, 0, -50.02);  // 2 cm into the bed, past the contact's blend
  B.mass = 1e4;
  B.inertia = Vec3<double>(1e4, 1e4, 1e4);
  sys.add_body(B);
  sys.renumber();
  auto s = sys.initial_state();
  CHECK(sys.body_frequency_estimate(s) == Approx(std::sqrt(4e6 / 1e4)).epsilon(1e-9));
  s.q(sys.body_dof(0) + 2) = -40;  // clear of the bed: no spring
  CHECK(sys.body_frequency_estimate(s) == 0.0);
}
