#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/core/so3.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/system.hpp"
#include "support/alloc_counter.hpp"
#include "support/system_builders.hpp"

// Direction joints (BodyModel::joint: a zero-length rod that joins the tangents of the
// finite-EI lines clamped to it, spec "Attached objects and line ends" and "Cables clamped to
// bodies and rods"): a cable through a free joint hangs as the continuous cable (a hinge
// there would not); a pinned joint holds its position and turns; the tangents against duals;
// energy at rho_inf = 1; a step allocates nothing; named refusals.

using namespace cabledyn;

namespace {

// The cable: EI = 2e6 N m^2 (its bending length sqrt(EI / T) is some metres at its tension),
// 2 m elements, 100 kg/m, 0.12 m.
test_support::SectionNumbers jt_cable(double length) {
  return {length, static_cast<int>(length / 2 + 0.5), 1e8, 2e6, 100, 0.12, 0, 0, 0, 0, 0};
}

const Vec3<double> kJtA(0, 0, -60), kJtB(80, 0, -30);

// A 100 m cable from kJtA to kJtB, its ends pinned in bending: one line (joint < 0), or two
// lines of 40 m and 60 m joined at a zero-length rod: a direction joint (joint = 1, its kind
// `kind`: free or pinned), or a free point with the lines pinned in bending there (joint = 0).
template <class T>
MooringSystem<T> jt_cable_system(int joint, BodyKind kind = BodyKind::free) {
  Environment env;
  MooringSystem<T> sys(env, "joined cable");
  const int a = test_support::add_point<T>(sys, PointKind::fixed, kJtA);
  const int b = test_support::add_point<T>(sys, PointKind::fixed, kJtB);
  if (joint < 0) {
    sys.add_line(LineModel<T>("cable", {test_support::system_section<T>(jt_cable(100))}, env), a, b);
    sys.renumber();
    return sys;
  }
  const Vec3<double> x0 = kJtA + 0.4 * (kJtB - kJtA) + Vec3<double>(0, 0, -8);  // near its place
  int j = -1;
  if (joint == 1) {
    BodyModel<T> J;
    J.name = "rod 2";
    J.kind = kind;
    J.joint = true;
    J.r = x0;
    J.R = so3_exp<T>(Vec3<T>(T(0), T(kPi / 2 - 0.1), T(0)));  // its z axis near the chord's
    const int bj = sys.add_body(J);
    PointModel<T> p;
    p.name = "rod 2";
    p.kind = PointKind::body;
    p.body = bj;
    j = sys.add_point(p);
  } else {
    j = test_support::add_point<T>(sys, PointKind::free, x0);
  }
  sys.add_line(LineModel<T>("cable 1", {test_support::system_section<T>(jt_cable(40))}, env), a, j);
  sys.add_line(LineModel<T>("cable 2", {test_support::system_section<T>(jt_cable(60))}, env), j, b);
  if (joint == 1) {
    // Both along the joint's axis, along the arc length: line 1 arrives, line 2 leaves.
    sys.clamp_end(0, 1, Vec3<T>(T(0), T(0), T(1)));
    sys.clamp_end(1, 0, Vec3<T>(T(0), T(0), T(1)));
  }
  sys.renumber();
  return sys;
}

}  // namespace

TEST_CASE("A cable through a direction joint hangs as the continuous cable; through a hinge it does not",
          "[system][hermite][joint][statics]") {
  auto one = jt_cable_system<double>(-1);
  auto s1 = one.initial_state();
  solve_statics(one, s1);
  const Vec3<double> node20 = s1.q.segment<3>(one.node_dof(0, 20));
  const Vec3<double> t20 = one.node_tangent(s1, 0, 20).normalized();

  auto jn = jt_cable_system<double>(1);
  auto sj = jn.initial_state();
  const auto res = solve_statics(jn, sj);
  Vec3<double> rj;
  Mat3<double> Rj;
  jn.body_pose(sj, 0, rj, Rj);
  const Vec3<double> m1 = jn.node_tangent(sj, 0, 20), m2 = jn.node_tangent(sj, 1, 0);
  // The joint's moments balance: the lines' connection moments sum to zero.
  const Vec3<double> M = jn.line_end_moment(sj, 0, 1, false) + jn.line_end_moment(sj, 1, 0, false);
  const double T1 = jn.line_end_force(sj, 0, 1).norm();
  INFO("joint at " << rj.transpose() << " (one line's node 20 at " << node20.transpose() << "), axis "
                   << Rj.col(2).transpose() << " (tangent " << t20.transpose() << "), moment sum " << M.transpose()
                   << " N m, " << res.iterations << " Newton iterations; |dr| " << (rj - node20).norm()
                   << " m, 1 - cos " << 1 - Rj.col(2).dot(t20));
  CHECK(M.norm() <= 1e-6 * T1 * 2);  // per 2 m element
  CHECK(m1.normalized().dot(Rj.col(2)) > 1 - 1e-14);  // both tangents on the axis
  CHECK(m2.normalized().dot(Rj.col(2)) > 1 - 1e-14);
  // The continuous cable's node: the two meshes differ only in the joint's free stretch of
  // each side (observed: 3.9e-7 m in position, 6e-16 in direction).
  CHECK((rj - node20).norm() < 1e-5);
  CHECK(Rj.col(2).dot(t20) > 1 - 1e-12);

  // A hinge (a free point, both lines pinned in bending there) carries no moment: the cable
  // kinks there and hangs elsewhere.
  auto hinge = jt_cable_system<double>(0);
  auto sh = hinge.initial_state();
  solve_statics(hinge, sh);
  const Vec3<double> rh = hinge.point_position(sh, 2);
  const double kink = std::acos(hinge.node_tangent(sh, 0, 20).normalized().dot(hinge.node_tangent(sh, 1, 0).normalized()));
  INFO("hinge at " << rh.transpose() << ", kink " << kink << " rad");
  CHECK((rh - node20).norm() > 100 * (rj - node20).norm());
  CHECK(kink > 1e-3);

  // A pinned joint at the continuous cable's node 20 holds its place and turns to its tangent.
  auto pin = jt_cable_system<double>(1, BodyKind::pinned);
  pin.body(0).r = node20;
  pin.renumber();
  auto sp = pin.initial_state();
  solve_statics(pin, sp);
  Vec3<double> rp;
  Mat3<double> Rp;
  pin.body_pose(sp, 0, rp, Rp);
  CHECK(pin.body_ndof(0) == 3);
  CHECK((rp - node20).norm() == 0);
  CHECK(Rp.col(2).dot(t20) > 1 - 1e-6);
}

TEST_CASE("A direction joint: the system tangents against duals", "[system][hermite][joint][autodiff]") {
  auto sys = jt_cable_system<double>(1);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const Eigen::Index n = sys.dofs(), d = sys.body_dof(0);
  for (Eigen::Index i = 0; i < d; ++i)
    if (i % 3 == 0) s.q(i) += 0.05 * std::sin(1.3 * double(i));  // off balance (not the held values)
  s.q.segment<3>(d) += Vec3<double>(0.3, -0.2, 0.1);
  s.q.segment<3>(d + 3) = Vec3<double>(0.04, -0.03, 0.02);  // a turn, with a share about the axis
  for (Eigen::Index i = 0; i < n; ++i) s.v(i) = 0.1 * std::sin(0.7 * double(i));
  bool held_ok = false;
  const auto e = test_support::clamped_tangent_errors(sys, jt_cable_system<Dual<double>>(1), s, {{0, 20}, {1, 0}}, held_ok);
  INFO("statics " << e[0] << ", dynamics dr/dq " << e[1] << ", dr/dv " << e[2]);
  CHECK(held_ok);
  // Observed 3.7e-16, 3.7e-16 and 0 (a joint has no loads of its own, and no lever arms).
  CHECK(e[0] <= 1e-10);
  CHECK(e[1] <= 1e-6);
  CHECK(e[2] <= 1e-7);
  // The roll row: zero residual about the axis at theta = 0, the roll scale on its diagonal.
  VecX<double> R;
  sys.static_residual(s, R, nullptr);
  Vec3<double> r;
  Mat3<double> Rj;
  sys.body_pose(s, 0, r, Rj);
  CHECK(std::fabs(Rj.col(2).dot(Vec3<double>(R.segment<3>(d + 3)))) <= 1e-9 * R.segment<3>(d + 3).norm() + 1e-12);
}

TEST_CASE("A direction joint conserves energy at rho_inf = 1, and a step allocates nothing",
          "[system][hermite][joint][dynamics]") {
  auto drift = [](double rho_inf) {
    auto sys = jt_cable_system<double>(1);
    auto s = sys.initial_state();
    solve_statics(sys, s);
    const Eigen::Index d = sys.body_dof(0);
    s.v.segment<3>(d) = Vec3<double>(0.5, 0.3, -0.4);
    return test_support::energy_drift(sys, s, rho_inf, 0.02, 300);
  };
  const double conserved = drift(1.0), dissipated = drift(0.5);
  INFO("energy drift / initial kinetic energy: rho_inf 1: " << conserved << ", rho_inf 0.5: " << dissipated);
  CHECK(conserved < 0.03);
  CHECK(dissipated > 3 * conserved);

  auto sys = jt_cable_system<double>(1);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  s.v.segment<3>(sys.body_dof(0)) = Vec3<double>(0.5, 0.3, -0.4);
  SystemStepper<MooringSystem<double>> st(sys);
  st.initialize(s);
  st.step(0.05);
  st.step(0.05);
  test_support::AllocationCounter count;
  {
    test_support::EigenMallocGuard guard;
    for (int k = 0; k < 5; ++k) st.step(0.05);
  }
  CHECK(count.allocations() == 0);
  // The turn about the axis stays zero: the joint's axis moved, its roll did not.
  Vec3<double> r;
  Mat3<double> R0, R1;
  sys.body_pose(s, 0, r, R0);
  sys.body_pose(st.state(), 0, r, R1);
  const Vec3<double> th = so3_log<double>(Mat3<double>(R1 * R0.transpose()));
  INFO("turn " << th.transpose());
  CHECK(th.norm() > 1e-4);
  CHECK(std::fabs(th.dot(R0.col(2))) <= 1e-3 * th.norm());
}

TEST_CASE("Direction joints: named refusals", "[system][hermite][joint]") {
  Environment env;
  MooringSystem<double> sys(env, "refusals");
  BodyModel<double> J;
  J.name = "rod 9";
  J.joint = true;
  J.mass = 1;
  CHECK_THROWS_WITH(sys.add_body(J), Catch::Contains("rod 9") && Catch::Contains("direction joint"));
  J.mass = 0;
  J.kind = BodyKind::fixed;
  CHECK_THROWS_WITH(sys.add_body(J), Catch::Contains("attachment of a direction joint"));
  CHECK(sys.n_bodies() == 0);  // nothing committed
  // A joint no clamped or spring end holds: no rotational equation.
  auto hinge = jt_cable_system<double>(1);
  hinge.unclamp_end(0, 1);
  hinge.unclamp_end(1, 0);
  CHECK_THROWS_WITH(hinge.renumber(), Catch::Contains("rod 2") && Catch::Contains("direction joint"));
  // A clamp or spring off the joint's axis would load the turn about it, which the joint holds:
  // refused by name, not held silently.
  auto off = jt_cable_system<double>(1);
  off.clamp_end(1, 0, Vec3<double>(1, 0, 0));
  CHECK_THROWS_WITH(off.renumber(), Catch::Contains("Line 2 (cable 2) End A") && Catch::Contains("rod 2") &&
                                        Catch::Contains("+-z"));
  off.unclamp_end(1, 0);
  off.spring_end(1, 0, Vec3<double>(0, 0.6, 0.8), 1e5);
  CHECK_THROWS_WITH(off.renumber(), Catch::Contains("Line 2 (cable 2) End A"));
  off.unclamp_end(1, 0);
  off.clamp_end(1, 0, Vec3<double>(0, 0, 1));
  CHECK_NOTHROW(off.renumber());
}

TEST_CASE("A body turning neutrally about its lines' axis: the polish's singular tangent, then the pseudo-transient "
          "continuation",
          "[system][hermite][clamped][statics]") {
  // A light body with a 2 m rod along x between two cables clamped along its axis: no load has a
  // moment about x, so the polish's tangent is singular there (MoorDyn's riser decks); the
  // continuation's mass leaves that turn as it is.
  Environment env;
  MooringSystem<double> sys(env, "neutral body");
  BodyModel<double> B;
  B.name = "light body";
  B.kind = BodyKind::free;
  B.r = Vec3<double>(0, 0, -40);
  B.R = so3_exp<double>(Vec3<double>(0.3, 0, 0));  // turned about x at the deck pose
  B.mass = 30;
  B.inertia = Vec3<double>(0.1, 0.1, 0.1);
  const int b = sys.add_body(B);
  int end[2];
  for (int k = 0; k < 2; ++k) {
    PointModel<double> p;
    p.name = k == 0 ? "rod end A" : "rod end B";
    p.kind = PointKind::body;
    p.body = b;
    p.r = Vec3<double>(k == 0 ? -1 : 1, 0, 0);
    end[k] = sys.add_point(p);
  }
  const int a0 = test_support::add_point<double>(sys, PointKind::fixed, Vec3<double>(-50, 0, -45));
  const int a1 = test_support::add_point<double>(sys, PointKind::fixed, Vec3<double>(50, 0, -45));
  sys.add_line(LineModel<double>("left", {test_support::system_section<double>(jt_cable(50))}, env), a0, end[0]);
  sys.add_line(LineModel<double>("right", {test_support::system_section<double>(jt_cable(50))}, env), end[1], a1);
  sys.clamp_end(0, 1, Vec3<double>(1, 0, 0));  // arriving along +x (body axes)
  sys.clamp_end(1, 0, Vec3<double>(1, 0, 0));  // leaving along +x
  sys.renumber();
  auto s = sys.initial_state();
  // The point balance cut short (as when a clamped line's statics refuses its mesh there): the
  // polish starts from the lines solved between the deck poses.
  SystemStaticOptions opt;
  opt.max_point_iterations = 0;
  const auto res = solve_statics(sys, s, opt);
  bool ptc = false;
  for (const auto& n : res.notes) ptc = ptc || n.find("pseudo-transient continuation converged") != std::string::npos;
  Vec3<double> r;
  Mat3<double> R;
  sys.body_pose(s, b, r, R);
  const Vec3<double> turn = so3_log<double>(Mat3<double>(R * B.R.transpose()));
  INFO("residual " << res.residual << " N of " << res.scale << "; body at " << r.transpose() << ", turned by "
                   << turn.transpose());
  CHECK(ptc);
  CHECK(res.residual <= 1e-10 * res.scale);
  CHECK(std::fabs(r(0)) < 1e-8);  // symmetric
  CHECK(std::fabs(turn(0)) < 1e-9);  // the neutral turn not taken
  VecX<double> Rs;
  sys.static_residual(s, Rs, nullptr);
  CHECK(Rs.cwiseAbs().maxCoeff() == Approx(res.residual));
}
