// Rods pinned to bodies (MoorDyn's Body<N>Pinned; spec "Attached objects and line ends", the
// reduced coordinates of a rod pinned to a body): the tangents against duals; on a held body
// the rod swings as on a held pin, bit for bit; on a moving coupled body as a CoupledPinned
// rod whose pin the host moves the same way (to second order), and the body's load on its host
// takes the pin force; a CoupledPinned rod converges at second order at any rho_inf; on a free cart it swings with the period of the pendulum on a free cart (the reduced
// mass), conserving the horizontal momentum and the energy; a moored body's statics turn the
// rod to hang and balance it as a rod fixed there; what the system does not model is refused.
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include <catch2/catch.hpp>

#include "support/crossings.hpp"

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/core/so3.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/system.hpp"
#include "support/alloc_counter.hpp"
#include "support/system_builders.hpp"

using namespace cabledyn;

namespace {

constexpr double pb_pi = 3.14159265358979323846;

template <class T>
RodPart<T> pb_rod(double L, double d, double mu, double Ca = 0, double Cd = 0) {
  RodPart<T> r;
  r.name = "rod";
  r.a = Vec3<T>::Zero();
  r.b = Vec3<T>(T(0), T(0), T(L));
  r.d = T(d);
  r.rho_A = T(mu);
  r.Ca = Ca;
  r.CaEnd = Ca > 0 ? 0.6 : 0.0;
  r.Cd = Cd;
  r.CdEnd = Cd > 0 ? 0.5 : 0.0;
  r.segments = 8;
  return r;
}

// A rod of length L pinned at `pin` (parent axes) on body `parent`, hanging along the parent's
// -z turned by th about y.
template <class T>
BodyModel<T> pb_child(int parent, const Vec3<double>& pin, const Mat3<double>& parent_R, double L, double d, double mu,
                      double th, double Ca = 0, double Cd = 0) {
  BodyModel<T> C;
  C.name = "pinned rod";
  C.kind = BodyKind::pinned;
  C.parent = parent;
  C.pin = pin.cast<T>();
  C.R = (parent_R * so3_exp(Vec3<double>(0, th, 0)) * rotation_xyz(pb_pi, 0.0, 0.0)).cast<T>();
  C.rods.push_back(pb_rod<T>(L, d, mu, Ca, Cd));
  return C;
}

// The moored float of the system tests with a rod pinned 2 m off its reference point.
template <class T>
MooringSystem<T> pb_moored(double th, double Cd = 0) {
  Environment env;
  MooringSystem<T> sys(env, "moored float with a pinned rod");
  BodyModel<T> B = test_support::float_body<T>();
  B.CdA << 2.0, 2.0, 2.0, 0, 0, 0;
  sys.add_body(B);
  test_support::add_float_lines<T>(sys, {0, 0, 0}, {12, 4, 12}, 2e6, 1.2, 0.3, 1.0);
  sys.add_body(pb_child<T>(0, Vec3<double>(2, 0, -3), Mat3<double>::Identity(), 12, 0.8, 900, th, 1.0, Cd));
  sys.renumber();
  return sys;
}

// The total momentum (M v)[0:3] of the bodies in state s.
Vec3<double> pb_momentum(const MooringSystem<double>& sys, const SystemState<double>& s) {
  Vec3<double> P = Vec3<double>::Zero();
  for (int b = 0; b < static_cast<int>(sys.n_bodies()); ++b) {
    Vec3<double> r;
    Mat3<double> R;
    sys.body_pose(s, b, r, R);
    const Vec6<double> v = sys.body_motion(s, b, 1);
    P += (sys.body_mass_at(b, r, R) * v).head<3>();
  }
  return P;
}

}  // namespace

TEST_CASE("A rod pinned to a body: its tangents are the derivatives of its forces and inertia",
          "[system][rods][pinned][autodiff]") {
  using D = Dual<double>;
  auto sys = pb_moored<double>(0.3, 1.1);
  auto s = sys.initial_state();
  const Eigen::Index n = sys.dofs(), d = sys.body_dof(0), dc = sys.body_dof(1);
  REQUIRE(sys.body_ndof(1) == 3);
  REQUIRE(dc == d + 6);
  // The float turned and moved off its start, the rod turned, everything moving.
  for (Eigen::Index i = 0; i < d; ++i) s.q(i) += 0.4 * std::sin(1.3 * double(i));
  s.q.segment<3>(d) += Vec3<double>(0.4, -0.2, 0.1);
  s.q.segment<3>(d + 3) = Vec3<double>(0.05, -0.03, 0.08);
  s.q.segment<3>(dc) = Vec3<double>(-0.1, 0.2, 0.05);
  for (Eigen::Index i = 0; i < n; ++i) {
    s.v(i) = 0.2 * std::sin(0.7 * double(i));
    s.a(i) = 0.3 * std::cos(1.3 * double(i));
  }
  auto sysd = pb_moored<D>(0.3, 1.1);
  using test_support::assembled_tangent;
  using test_support::dual_block;
  auto close = [](const char* what, const MatX<double>& A, const MatX<double>& B, double tol) {
    const double e = test_support::relative_difference(A, B);
    INFO(what << ": max error " << e << " of the largest entry");
    CHECK(e <= tol);
  };
  {
    // Statics: the rod's moment about its pin, its force at the pin on the float.
    SystemState<double> s0 = s;
    s0.v.setZero();
    VecX<D> Rd;
    sysd.static_residual(test_support::seeded_dual_state<D>(s0), Rd, nullptr);
    close("static dR/dq", assembled_tangent(sys, s0, 0, 1, 0, 0), dual_block(Rd, n, 0), 1e-8);
  }
  sys.commit(s);
  // The rod's rows and columns (its moment about the pin; the float's rows it reaches and
  // the float's columns its pin motion depends on), with everything moving.
  auto rod_part = [&](const MatX<double>& A) {
    MatX<double> B = MatX<double>::Zero(9, 9);
    B.bottomRows(3) = A.block(dc, d, 3, 9);
    B.rightCols(3) = A.block(d, dc, 9, 3);
    return B;
  };
  {
    VecX<D> rd, Ma;
    const SystemState<D> sd = test_support::seeded_dual_state<D>(s);
    sysd.dynamic_residual(sd, rd, nullptr, D(0), D(0));
    sysd.inertia(sd, Ma, nullptr, D(0), D(0));
    close("rod's dr/dq", rod_part(assembled_tangent(sys, s, 1, 1, 0, 0)), rod_part(dual_block(rd, n, 0)), 1e-6);
    close("dr/dv", assembled_tangent(sys, s, 1, 0, 1, 0), dual_block(rd, n, 1), 1e-7);
    close("M", assembled_tangent(sys, s, 2, 0, 0, 1), dual_block(Ma, n, 2), 1e-12);
    close("rod's d(M a)/dq", rod_part(assembled_tangent(sys, s, 2, 1, 0, 0)), rod_part(dual_block(Ma, n, 0)), 1e-6);
    // The float's rows take the rod's pin force: d(force row)/d(rod alpha) is the rod's
    // M[0:3, 3:6] (the float's mass matrix has no rod columns of its own).
    CHECK(assembled_tangent(sys, s, 2, 0, 0, 1).block(d, dc, 3, 3).cwiseAbs().maxCoeff() > 1e3);
  }
  // The whole tangent with the float not turning (the lines' lever arms then do not turn
  // with its angular velocity, and their end accelerations not with its angular
  // acceleration: the terms the tangent leaves out).
  {
    SystemState<double> x = s;
    x.v.segment<3>(d + 3).setZero();
    x.a.segment<3>(d + 3).setZero();
    const SystemState<D> xd = test_support::seeded_dual_state<D>(x);
    VecX<D> rd, Ma;
    sysd.dynamic_residual(xd, rd, nullptr, D(0), D(0));
    sysd.inertia(xd, Ma, nullptr, D(0), D(0));
    close("dr/dq, float not turning", assembled_tangent(sys, x, 1, 1, 0, 0), dual_block(rd, n, 0), 1e-6);
    close("d(M a)/dq, float not turning", assembled_tangent(sys, x, 2, 1, 0, 0), dual_block(Ma, n, 0), 1e-6);
  }
}

TEST_CASE("A rod pinned to a held body swings as on a held pin; on a moving Coupled body as a CoupledPinned rod moved "
          "the same way",
          "[system][rods][pinned][dynamics]") {
  Environment env;
  const double L = 10, dd = 0.3, mu = 200, th0 = 0.15;
  const Vec3<double> pin(1.5, -0.5, -2);
  const Mat3<double> Rp = rotation_xyz(0.1, -0.05, 0.3);
  const Vec3<double> rp(3, 2, -15);
  SystemStepperOptions o;
  o.rho_inf = 0.8;
  o.tol = 1e-12;
  const double dt = 0.02;
  const int steps = 300;
  // System a: a body of `kind` at (rp, Rp) with the rod pinned on it; system b: the same rod
  // pinned at the world pin (held, or moved by the host: host_pin).
  auto pair = [&](BodyKind kind, bool host_pin) {
    std::pair<MooringSystem<double>, MooringSystem<double>> ab{MooringSystem<double>(env, "on a body"),
                                                               MooringSystem<double>(env, "on a pin")};
    BodyModel<double> P;
    P.name = "parent";
    P.kind = kind;
    P.r = rp;
    P.R = Rp;
    ab.first.add_body(P);
    ab.first.add_body(pb_child<double>(0, pin, Rp, L, dd, mu, th0, 1.0, 1.2));
    BodyModel<double> C = pb_child<double>(0, pin, Rp, L, dd, mu, th0, 1.0, 1.2);
    C.parent = -1;
    C.host_pin = host_pin;
    C.r = rp + Rp * pin;
    ab.second.add_body(C);
    ab.first.renumber();
    ab.second.renumber();
    return ab;
  };
  // Held: a Fixed parent against a Pinned rod at the world pin.
  {
    auto ab = pair(BodyKind::fixed, false);
    auto& a = ab.first;
    auto& b = ab.second;
    CHECK(a.body(1).r == b.body(0).r);
    SystemStepper<MooringSystem<double>> sa(a, o), sb(b, o);
    sa.initialize(a.initial_state());
    sb.initialize(b.initial_state());
    for (int k = 0; k < steps; ++k) {
      sa.step(dt);
      sb.step(dt);
    }
    INFO("rod orientation on a held body against a held pin after 6 s");
    CHECK((sa.state().R[1] - sb.state().R[0]).cwiseAbs().maxCoeff() == 0.0);
    CHECK(so3_log(sb.state().R[0]).norm() > 0.1);
  }
  // Moving: a Coupled parent turning and translating against a CoupledPinned rod whose pin
  // the host moves along the same path (r_p + R_p p, its velocity and acceleration).
  {
    auto ab = pair(BodyKind::coupled, true);
    auto& a = ab.first;
    auto& b = ab.second;
    // The parent's motion: surge and heave with a yaw and roll oscillation.
    auto motion = [&](double t, Vec3<double>& r, Mat3<double>& R, Vec6<double>& v, Vec6<double>& acc) {
      const double w1 = 0.9, w2 = 1.3, A1 = 1.2, A2 = 0.08;
      r = rp + Vec3<double>(A1 * std::sin(w1 * t), 0, 0.5 * A1 * std::sin(w1 * t));
      v.head<3>() = Vec3<double>(A1 * w1 * std::cos(w1 * t), 0, 0.5 * A1 * w1 * std::cos(w1 * t));
      acc.head<3>() = Vec3<double>(-A1 * w1 * w1 * std::sin(w1 * t), 0, -0.5 * A1 * w1 * w1 * std::sin(w1 * t));
      // A rotation about a fixed world axis e: R = exp(phi e) Rp, omega = phi' e, alpha = phi'' e.
      const Vec3<double> e = Vec3<double>(1, 0, 2).normalized();
      const double phi = A2 * std::sin(w2 * t), dphi = A2 * w2 * std::cos(w2 * t), ddphi = -A2 * w2 * w2 * std::sin(w2 * t);
      R = so3_exp(Vec3<double>(phi * e)) * Rp;
      v.tail<3>() = dphi * e;
      acc.tail<3>() = ddphi * e;
    };
    auto pin_of = [&](const Vec3<double>& r, const Mat3<double>& R, const Vec6<double>& v, const Vec6<double>& acc,
                      Vec6<double>& pv, Vec6<double>& pa) {
      const Vec3<double> rho = R * pin, w = v.tail<3>(), al = acc.tail<3>();
      pv.setZero();
      pa.setZero();
      pv.head<3>() = v.head<3>() + w.cross(rho);
      pa.head<3>() = acc.head<3>() + al.cross(rho) + w.cross(Vec3<double>(w.cross(rho)));
      return Vec3<double>(r + rho);
    };
    auto drive = [&](double t) {
      Vec3<double> r;
      Mat3<double> R;
      Vec6<double> v, acc, pv, pa;
      motion(t, r, R, v, acc);
      a.set_coupled_body(0, r, R, v, acc);
      b.set_coupled_body(0, pin_of(r, R, v, acc, pv, pa), Mat3<double>::Identity(), pv, pa);
    };
    // The two formulations differ within a step only in where the pin's centripetal
    // acceleration w_p x (w_p x rho) goes: a velocity term of the rod on the body (in the force
    // blend), a part of the CoupledPinned rod's prescribed pin acceleration (in the inertia
    // blend, taken at the scheme's time, and in the bodies' mass blend, SystemStepper). Both
    // are second order; they differ by O(dt^2) at any rho_inf (before the mass blend, at
    // rho_inf = 1 they were the same equations, and at rho_inf = 0.8 they differed at first
    // order).
    auto compare = [&](double rho_inf, double h, double& dR, double& dF, double& dM) {
      SystemStepperOptions oc = o;
      oc.rho_inf = rho_inf;
      drive(0);
      SystemStepper<MooringSystem<double>> sa(a, oc), sb(b, oc);
      sa.initialize(a.initial_state());
      sb.initialize(b.initial_state());
      dR = dF = dM = 0;
      double Fmax = 0;
      const int n = static_cast<int>(std::lround(steps * dt / h));
      for (int k = 1; k <= n; ++k) {
        drive(k * h);
        sa.step(h);
        sb.step(h);
        dR = std::max(dR, (sa.state().R[1] - sb.state().R[0]).cwiseAbs().maxCoeff());
        // The parent's load on its host (no lines, no mass of its own) is the rod's pin
        // force, with its moment about the parent's reference point and no other.
        Vec3<double> r;
        Mat3<double> R;
        a.body_pose(sa.state(), 0, r, R);
        const Vec6<double> Fa = a.coupled_reaction(sa.state(), 0);
        const Vec6<double> Fb = b.coupled_reaction(sb.state(), 0);
        dF = std::max(dF, (Fa.head<3>() - Fb.head<3>()).norm());
        dM = std::max(dM, (Fa.tail<3>() - Vec3<double>(R * pin).cross(Vec3<double>(Fa.head<3>()))).norm());
        Fmax = std::max(Fmax, Fb.head<3>().norm());
      }
      dF /= Fmax;
      dM /= Fmax * L;
    };
    double dR, dF, dM, dR1, dF1, dM1, dR2, dF2, dM2;
    compare(1.0, dt, dR, dF, dM);
    compare(0.8, dt, dR1, dF1, dM1);
    compare(0.8, dt / 2, dR2, dF2, dM2);
    INFO("rod on a coupled body against a CoupledPinned rod over 6 s: orientation " << dR << ", pin force " << dF
                                                                                   << " of its largest at rho_inf 1; "
                                                                                   << dR1 << " / " << dR2 << ", "
                                                                                   << dF1 << " / " << dF2
                                                                                   << " at rho_inf 0.8, dt " << dt
                                                                                   << " / " << dt / 2);
    double dRh, dFh, dMh;
    compare(1.0, dt / 2, dRh, dFh, dMh);
    INFO("at rho_inf 1, dt / 2: " << dRh << ", " << dFh);
    CHECK(dR < 3e-4);
    CHECK(dF < 1e-5);
    CHECK(dR / dRh > 3.5);
    CHECK(dR1 < 3e-4);
    CHECK(dF1 < 1e-5);
    CHECK(dR1 / dR2 > 3.5);
    CHECK(dF1 / dF2 > 1.7);  // the reaction reads the scheme's accelerations: first order at rho_inf < 1
    CHECK(std::max({dM, dM1, dM2, dMh}) < 1e-13);
  }
}

TEST_CASE("A rod pinned to a free cart swings with the period of the pendulum on a free cart, conserving momentum and "
          "energy",
          "[system][rods][pinned][dynamics]") {
  // Above the water (no buoyancy, added mass or drag): a cart of mass mb held up by a constant
  // force equal to the weight of cart and rod, turning stiffly (a large inertia), with a rod of
  // mass m hanging from a pin at its reference point. Small swings: omega^2 = m g l / (I -
  // m^2 l^2 / (m + mb)), l = L/2 from the pin to the rod's centre, I = m (L^2/3 + r^2/4) about
  // the pin (Lagrange on x and theta).
  Environment env;
  const double L = 8, dd = 0.2, mu = 150, m = mu * L, mb = 1.5 * m, th0 = 0.01;
  auto cart = [&](double th, const Vec3<double>& pin, double inertia) {
    MooringSystem<double> sys(env, "pendulum on a cart");
    BodyModel<double> B;
    B.name = "cart";
    B.kind = BodyKind::free;
    B.r = Vec3<double>(0, 0, 30);
    B.mass = mb;
    B.inertia = Vec3<double>(inertia, inertia, inertia);
    B.force = Vec3<double>(0, 0, (m + mb) * env.g);
    sys.add_body(B);
    sys.add_body(pb_child<double>(0, pin, Mat3<double>::Identity(), L, dd, mu, th));
    sys.renumber();
    return sys;
  };
  const double l = L / 2, I = m * (L * L / 3 + dd * dd / 16);
  const double w_cart = std::sqrt(m * env.g * l / (I - m * m * l * l / (m + mb)));
  const double w_pin = std::sqrt(m * env.g * l / I);
  auto sys = cart(th0, Vec3<double>::Zero(), 1e12);
  {
    // The rod's mass matrix about its pin.
    Vec3<double> r;
    Mat3<double> R;
    auto s = sys.initial_state();
    sys.body_pose(s, 1, r, R);
    const Mat6<double> M = sys.body_mass_at(1, r, R);
    const Vec3<double> y = R.transpose() * Vec3<double>(0, 1, 0);
    CHECK(y.dot(M.bottomRightCorner<3, 3>() * y) == Approx(I).epsilon(1e-12));
  }
  const double T = 2 * pb_pi / w_cart, dt = T / 200;
  SystemStepperOptions o;
  o.rho_inf = 1.0;
  o.tol = 1e-12;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(sys.initial_state());
  std::vector<double> x, xc;
  for (int k = 0; k < 2000; ++k) {
    st.step(dt);
    Vec3<double> r;
    Mat3<double> R;
    sys.body_pose(st.state(), 1, r, R);
    x.push_back(Vec3<double>(R * Vec3<double>(0, 0, L))(0));
    sys.body_pose(st.state(), 0, r, R);
    xc.push_back(r(0));
  }
  const std::vector<double> up = test_support::upcrossings(x, dt);
  REQUIRE(up.size() >= 5);
  const double T_march = test_support::mean_period(up);
  INFO("pendulum on a free cart: period " << T_march << " s, analytic " << T << " s (on a held pin "
                                          << 2 * pb_pi / w_pin << " s)");
  CHECK(T_march == Approx(T).epsilon(5e-4));
  // The cart moves against the rod about the centre of mass m l sin(th0) / (m + mb), which
  // stays: from 0 to twice that.
  double amp = 0;
  for (double v : xc) amp = std::max(amp, std::fabs(v));
  CHECK(amp == Approx(2 * m * l * std::sin(th0) / (m + mb)).epsilon(2e-3));

  // A large swing with the pin off the cart's reference point, the cart free to turn: the
  // horizontal momentum (no horizontal load) and the energy are conserved to the trapezoidal
  // level: their drifts fall as dt^2 (the mass matrix turns with the rod, so neither is an
  // exact invariant of the scheme).
  auto big = cart(1.0, Vec3<double>(1.0, 0.5, -0.5), 2e4);
  const auto s0 = big.initial_state();
  const double E0 = big.kinetic_energy(s0) + big.potential_energy(s0);
  auto run = [&](double h, double& dE, double& dP, bool force_blend = true) {
    SystemStepperOptions ob = o;
    ob.force_blend = force_blend;
    SystemStepper<MooringSystem<double>> sb(big, ob);
    sb.initialize(s0);
    dE = dP = 0;
    double K = 0;
    for (int k = 0; k < static_cast<int>(std::lround(12.0 / h)); ++k) {
      sb.step(h);
      const auto& s = sb.state();
      K = std::max(K, big.kinetic_energy(s));
      dE = std::max(dE, std::fabs(big.kinetic_energy(s) + big.potential_energy(s) - E0));
      dP = std::max(dP, pb_momentum(big, s).head<2>().norm());
    }
    dE /= K;
    dP /= std::sqrt(2 * K * (m + mb));
  };
  double dE1, dP1, dE2, dP2;
  run(0.01, dE1, dP1);
  run(0.005, dE2, dP2);
  INFO("large swing over 12 s: energy drift " << dE1 << " / " << dE2 << " of the largest kinetic energy, horizontal "
                                              << "momentum " << dP1 << " / " << dP2 << " of sqrt(2 K M)");
  CHECK(dE1 < 2e-3);
  CHECK(dE1 / dE2 > 3.5);
  CHECK(dP1 < 1e-4);
  CHECK(dP1 / dP2 > 3.5);
  // The configuration blend (False alpha_force_blend): the forces at the blended state, the
  // bodies' orientations on the geodesic between the step's ends; second order too.
  double cE1, cP1, cE2, cP2;
  run(0.01, cE1, cP1, false);
  run(0.005, cE2, cP2, false);
  INFO("configuration blend: energy drift " << cE1 << " / " << cE2 << ", momentum " << cP1 << " / " << cP2);
  CHECK(cE1 < 2e-3);
  CHECK(cE1 / cE2 > 3.5);
  CHECK(cP1 < 1e-4);
  CHECK(cP1 / cP2 > 3.5);
}

TEST_CASE("A moored body's statics hang its pinned rod and balance it as a rod fixed there; a step allocates nothing",
          "[system][rods][pinned][statics]") {
  auto sys = pb_moored<double>(0.4);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  Vec3<double> rb, rc;
  Mat3<double> Rb, Rc;
  sys.body_pose(s, 0, rb, Rb);
  sys.body_pose(s, 1, rc, Rc);
  // The rod (900 kg/m, heavier than the 515 kg/m of water it displaces) hangs straight down from its pin.
  const Vec3<double> axis = Rc * Vec3<double>(0, 0, 1);
  INFO("rod axis " << axis.transpose());
  CHECK((axis - Vec3<double>(0, 0, -1)).norm() < 1e-8);
  CHECK((rc - (rb + Rb * Vec3<double>(2, 0, -3))).norm() < 1e-12);
  // The same float with the rod fixed to it along the hanging axis: the same pose.
  Environment env;
  MooringSystem<double> fixed(env, "moored float with a fixed rod");
  BodyModel<double> B = test_support::float_body<double>();
  B.CdA << 2.0, 2.0, 2.0, 0, 0, 0;
  RodPart<double> rod = pb_rod<double>(12, 0.8, 900, 1.0);
  rod.a = Rb.transpose() * (rc - rb);
  rod.b = rod.a + Rb.transpose() * Vec3<double>(0, 0, -12);
  B.rods.push_back(rod);
  fixed.add_body(B);
  test_support::add_float_lines<double>(fixed, {0, 0, 0}, {12, 4, 12}, 2e6, 1.2, 0.3, 1.0);
  auto sf = fixed.initial_state();
  solve_statics(fixed, sf);
  Vec3<double> rf;
  Mat3<double> Rf;
  fixed.body_pose(sf, 0, rf, Rf);
  INFO("float: pinned rod " << rb.transpose() << ", fixed rod " << rf.transpose());
  CHECK((rb - rf).norm() < 1e-6);
  CHECK(so3_log(Mat3<double>(Rb * Rf.transpose())).norm() < 1e-7);
  // A dynamic step from the statics allocates nothing, and the rest stays at rest.
  SystemStepperOptions o;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(s);
  st.step(0.05);
  test_support::AllocationCounter count;
  for (int k = 0; k < 5; ++k) st.step(0.05);
  CHECK(count.allocations() == 0);
  CHECK(st.state().v.cwiseAbs().maxCoeff() < 1e-5);
}

TEST_CASE("A pinned rod's first angular acceleration takes its pin's acceleration; a free body's frequency estimate "
          "takes its pinned rod's waterplane and mass; a loose body keeps its pinned rod in the statics",
          "[system][rods][pinned]") {
  Environment env;
  // A CoupledPinned rod hanging in air (above the water), its pin accelerated along x at the
  // start: alpha_y = m l a / I_pin (its lower end lags), I_pin = m (L^2/3 + r^2/4).
  {
    const double L = 6, dd = 0.3, mu = 50, a = 1.7, m = mu * L;
    MooringSystem<double> sys(env, "accelerated pin");
    BodyModel<double> C = pb_child<double>(0, Vec3<double>::Zero(), Mat3<double>::Identity(), L, dd, mu, 0.0);
    C.parent = -1;
    C.host_pin = true;
    C.r = Vec3<double>(0, 0, 20);
    sys.add_body(C);
    sys.renumber();
    Vec6<double> acc = Vec6<double>::Zero();
    acc(0) = a;
    sys.set_coupled_body(0, C.r, Mat3<double>::Identity(), Vec6<double>::Zero(), acc);
    SystemStepper<MooringSystem<double>> st(sys, SystemStepperOptions{});
    st.initialize(sys.initial_state());
    const Vec3<double> alpha = sys.body_motion(st.state(), 0, 2).tail<3>();
    INFO("first angular acceleration " << alpha.transpose());
    CHECK(alpha(1) == Approx(m * (L / 2) * a / (m * (L * L / 3 + dd * dd / 16))).epsilon(1e-12));
    CHECK(std::fabs(alpha(0)) + std::fabs(alpha(2)) < 1e-12);
  }
  // A free body in air with a vertical rod pinned below it through the still water: the heave
  // estimate is sqrt(rho g pi r^2 / (m_b + M_c,zz)), M_c the rod's mass matrix (its added mass
  // included).
  {
    MooringSystem<double> sys(env, "estimate");
    BodyModel<double> B;
    B.name = "float";
    B.r = Vec3<double>(0, 0, 4);
    B.mass = 3000;
    B.inertia = Vec3<double>(1e5, 1e5, 1e5);
    sys.add_body(B);
    sys.add_body(pb_child<double>(0, Vec3<double>::Zero(), Mat3<double>::Identity(), 10, 1.0, 200, 0.0, 1.0));
    sys.renumber();
    const auto s = sys.initial_state();
    Vec3<double> rc;
    Mat3<double> Rc;
    sys.body_pose(s, 1, rc, Rc);
    const double k = env.rho_w * env.g * kPi * 0.25;
    const double w = std::sqrt(k / (3000 + sys.body_mass_at(1, rc, Rc)(2, 2)));
    CHECK(sys.body_frequency_estimate(s) == Approx(w).epsilon(1e-12));
    // A loose body (no lines) keeps its deck pose in the statics, its pinned rod with it.
    auto sl = sys.initial_state();
    sl.q.segment<3>(sys.body_dof(1)) = Vec3<double>(0.2, -0.1, 0.3);  // the rod turned off its deck pose
    solve_statics(sys, sl);
    Vec3<double> rb;
    Mat3<double> Rb;
    sys.body_pose(sl, 0, rb, Rb);
    sys.body_pose(sl, 1, rc, Rc);
    CHECK((rb - B.r).norm() == 0.0);
    CHECK((rc - rb).norm() == 0.0);
    CHECK(so3_log(Mat3<double>(Rc * sys.body(1).R.transpose())).norm() == Approx(Vec3<double>(0.2, -0.1, 0.3).norm()).epsilon(1e-12));
    CHECK(sys.body(0).kind == BodyKind::free);
    CHECK(sys.body(1).kind == BodyKind::pinned);
  }
}

TEST_CASE("Pins the system does not model are refused by name", "[system][rods][pinned]") {
  Environment env;
  MooringSystem<double> sys(env, "refusals");
  BodyModel<double> P = test_support::float_body<double>();
  sys.add_body(P);
  BodyModel<double> C = pb_child<double>(0, Vec3<double>(1, 0, 0), Mat3<double>::Identity(), 5, 0.2, 100, 0.0);
  // A chain: a rod pinned on a pinned rod.
  sys.add_body(C);
  BodyModel<double> C2 = C;
  C2.parent = 1;
  CHECK_THROWS_WITH(sys.add_body(C2), Catch::Contains("parent body 2") && Catch::Contains("no chains of pins"));
  // On a CoupledPinned body: not modelled yet.
  {
    MooringSystem<double> cp(env, "on a CoupledPinned body");
    BodyModel<double> H = pb_child<double>(0, Vec3<double>::Zero(), Mat3<double>::Identity(), 5, 0.2, 100, 0.0);
    H.parent = -1;
    H.host_pin = true;
    cp.add_body(H);
    CHECK_THROWS_AS(cp.add_body(C), NotImplementedError);
  }
  // A reference point that is not the pin on the parent's pose.
  BodyModel<double> C5 = C;
  C5.r = Vec3<double>(5, 0, -20);
  CHECK_THROWS_WITH(sys.add_body(C5), Catch::Contains("reference point of a body pinned on body 1"));
  // A parent not yet added; a child that is not pinned.
  BodyModel<double> C3 = C;
  C3.parent = 5;
  CHECK_THROWS_WITH(sys.add_body(C3), Catch::Contains("an earlier body"));
  BodyModel<double> C4 = C;
  C4.kind = BodyKind::free;
  CHECK_THROWS_WITH(sys.add_body(C4), Catch::Contains("attachment on a parent body"));
  // A line on the pinned rod.
  PointModel<double> end;
  end.kind = PointKind::body;
  end.body = 1;
  end.r = Vec3<double>(0, 0, 5);
  PointModel<double> anchor;
  anchor.kind = PointKind::fixed;
  anchor.r = Vec3<double>(60, 0, -100);
  SectionModel<double> sec = test_support::system_section<double>({100, 5, 5e8, 0, 80, 0.1, 0, 0, 0, 0, 0});
  sys.add_line(LineModel<double>("on the rod", {sec}, env), sys.add_point(end), sys.add_point(anchor));
  CHECK_THROWS_AS(sys.renumber(), NotImplementedError);
  CHECK_THROWS_WITH(sys.renumber(), Catch::Contains("Line 1") && Catch::Contains("body pinned to another body"));
}

TEST_CASE("A rod on a moving pin converges at second order at any rho_inf: the prescribed accelerations at the "
          "scheme's own time, the mass blended at the force's",
          "[system][rods][pinned][dynamics]") {
  // A CoupledPinned rod (its pin moved by the host) surged 1.2 m at 0.9 rad/s and heaved half
  // that, over 6 s from rest at a 0.15 rad tilt, at dt 0.04 ... 0.005 s against dt 0.000625 s.
  // The scheme's accelerations approximate the true ones at t + (alpha_m - alpha_f) dt; with
  // the true prescribed pin acceleration in the inertia blend the orientation error fell at
  // first order: 1.5e-3, 8.0e-4, 4.0e-4, 2.0e-4 rad at rho_inf 0.8 and 6.4e-3, 3.2e-3, 1.6e-3,
  // 7.5e-4 at 0.4. Moved to that time (SystemStepper, HeldKinematics::shift_accelerations)
  // the errors were 5 to 20 times smaller, still of first order in the end: the turn of the
  // mass matrix within the step, (alpha_m - alpha_f) dt (dM/dt) a, which the bodies' mass
  // blend (MooringSystem::blend_mass) removes (docs/systems.md, "Dynamics").
  Environment env;
  auto pend = test_support::pinned_pendulum(10, 0.3, 200, 1.0, 0.15, env);
  pend.body.host_pin = true;
  const Vec3<double> r0 = pend.body.r;
  auto run = [&](double rho_inf, double dt) {
    MooringSystem<double> sys(env, "pin");
    sys.add_body(pend.body);
    sys.renumber();
    auto drive = [&](double t) {
      const double w = 0.9, A = 1.2;
      const Vec3<double> dir(1, 0, 0.5);
      Vec6<double> v = Vec6<double>::Zero(), a = Vec6<double>::Zero();
      v.head<3>() = A * w * std::cos(w * t) * dir;
      a.head<3>() = -A * w * w * std::sin(w * t) * dir;
      sys.set_coupled_body(0, Vec3<double>(r0 + A * std::sin(w * t) * dir), Mat3<double>::Identity(), v, a);
    };
    drive(0);
    SystemStepperOptions o;
    o.rho_inf = rho_inf;
    o.tol = 1e-12;
    SystemStepper<MooringSystem<double>> st(sys, o);
    st.initialize(sys.initial_state());
    const int n = static_cast<int>(std::lround(6.0 / dt));
    for (int k = 1; k <= n; ++k) {
      drive(k * dt);
      st.step(dt);
    }
    return Mat3<double>(st.state().R[0]);
  };
  // Observed: rho_inf 1: 2.4e-4, 6.0e-5, 1.5e-5, 3.7e-6 rad; 0.8: 2.6e-4, 6.5e-5, 1.6e-5,
  // 4.0e-6; 0.4: 4.1e-4, 1.0e-4, 2.6e-5, 6.3e-6 (order 2.0 throughout).
  const std::vector<double> dts{0.04, 0.02, 0.01, 0.005};
  for (const auto& [rho, bound] : std::vector<std::pair<double, std::vector<double>>>{
           {1.0, {3.6e-4, 9e-5, 2.3e-5, 5.5e-6}}, {0.8, {3.9e-4, 9.7e-5, 2.4e-5, 6e-6}}, {0.4, {6.2e-4, 1.5e-4, 3.9e-5, 9.5e-6}}}) {
    const Mat3<double> ref = run(rho, 0.000625);
    std::vector<double> err;
    for (double dt : dts) err.push_back(so3_log(Mat3<double>(run(rho, dt) * ref.transpose())).norm());
    INFO("rho_inf " << rho << ": orientation errors " << err[0] << " " << err[1] << " " << err[2] << " " << err[3]
                    << " rad; orders " << std::log2(err[0] / err[1]) << " " << std::log2(err[1] / err[2]) << " "
                    << std::log2(err[2] / err[3]));
    for (std::size_t k = 0; k < dts.size(); ++k) CHECK(err[k] < bound[k]);
    CHECK(std::log2(err[0] / err[1]) > 1.9);
    CHECK(std::log2(err[2] / err[3]) > 1.9);
  }
}
