// Rods in mooring systems (rigid cylinders as parts of bodies): a pinned rod's mass matrix
// about its pin against the cylinder's; a pinned rod swings with the analytic small-angle
// period of a compound pendulum in water (weight less buoyancy, structural and added mass);
// a rod on a body moves with it and carries its lines; a free body carrying a rod balances
// the rod's weight and buoyancy; a free rod moored at its two ends conserves energy at
// rho_inf = 1.
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include <catch2/catch.hpp>

#include "support/crossings.hpp"

#include <cmath>

#include "cabledyn/core/so3.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/statics/tension_statics.hpp"
#include "cabledyn/system.hpp"

using namespace cabledyn;

namespace {

constexpr double sr_pi = 3.14159265358979323846;

RodPart<double> sr_rod(double L, double d, double mu, double Ca, double Cd = 0) {
  RodPart<double> r;
  r.name = "rod";
  r.a = Vec3<double>::Zero();
  r.b = Vec3<double>(0, 0, L);
  r.d = d;
  r.rho_A = mu;
  r.Ca = Ca;
  r.CaEnd = 0.6;
  r.Cd = Cd;
  r.CdEnd = Cd > 0 ? 0.5 : 0.0;
  r.segments = 8;
  return r;
}

SectionModel<double> sr_wire(double length, int segs) {
  SectionModel<double> s;
  s.length = length;
  s.segments = segs;
  s.EA = 2e8;
  s.rho_A = 40;
  s.d = 0.08;
  return s;
}

}  // namespace

TEST_CASE("A pinned rod: its mass matrix about the pin, and its swing with the compound pendulum's period",
          "[system][rods][dynamics]") {
  const double L = 10, d = 0.2, mu = 100, Ca = 1.0, th0 = 0.02;
  Environment env;
  MooringSystem<double> sys(env, "pendulum");
  BodyModel<double> B;
  B.name = "pinned rod";
  B.kind = BodyKind::pinned;
  B.r = Vec3<double>(0, 0, -20);
  // Hanging down (the rod's z axis turned to -z), tilted th0 about y.
  B.R = so3_exp(Vec3<double>(0, th0, 0)) * rotation_xyz(sr_pi, 0.0, 0.0);
  B.rods.push_back(sr_rod(L, d, mu, Ca));
  sys.add_body(B);
  sys.renumber();
  REQUIRE(sys.dofs() == 3);
  const double A = sr_pi * d * d / 4, rA = env.rho_w * A;
  const double I_pin = mu * (L * L * L / 3 + d * d / 4 * L / 4) + rA * Ca * L * L * L / 3;
  const double k = (mu - rA) * env.g * L * L / 2;
  // The mass matrix about the pin, upright: the rotational block across the axis.
  {
    MooringSystem<double> up(env, "upright");
    BodyModel<double> U = B;
    U.R = Mat3<double>::Identity();
    up.add_body(U);
    up.renumber();
    auto su = up.initial_state();
    su.a.setZero();
    su.a(0) = 1.0;  // unit angular acceleration about x
    VecX<double> Ma;
    up.inertia(su, Ma, nullptr, 0.0, 0.0);
    INFO("M about the pin: " << Ma.transpose() << " against I_pin " << I_pin);
    CHECK(Ma(0) == Approx(I_pin).epsilon(1e-12));
    CHECK(std::fabs(Ma(1)) < 1e-9 * I_pin);
    CHECK(std::fabs(Ma(2)) < 1e-9 * I_pin);
  }
  const double T_exact = 2 * sr_pi * std::sqrt(I_pin / k);
  auto s = sys.initial_state();
  SystemStepperOptions o;
  o.rho_inf = 1.0;
  o.tol = 1e-10;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(s);
  const double dt = T_exact / 200;
  std::vector<double> x;
  for (int k2 = 0; k2 < 2000; ++k2) {
    st.step(dt);
    Vec3<double> r;
    Mat3<double> R;
    sys.body_pose(st.state(), 0, r, R);
    x.push_back(Vec3<double>(R * Vec3<double>(0, 0, L))(0));  // the tip's x
  }
  const std::vector<double> up = test_support::upcrossings(x, dt);
  REQUIRE(up.size() >= 5);
  const double T_march = test_support::mean_period(up);
  INFO("pendulum period: march " << T_march << " s, analytic " << T_exact << " s over " << up.size() - 1 << " cycles");
  CHECK(T_march == Approx(T_exact).epsilon(5e-4));
  // It swings in the x-z plane about y, with its amplitude (no drag, rho_inf = 1).
  double amp = 0;
  for (double v : x) amp = std::max(amp, std::fabs(v));
  CHECK(amp == Approx(L * std::sin(th0)).epsilon(1e-3));
}

TEST_CASE("A rod on a body moves with it and carries its lines; a free body with a rod balances the rod",
          "[system][rods][statics]") {
  Environment env;
  // A coupled body with a rod hanging from it; a line from the rod's far end to an anchor.
  MooringSystem<double> sys(env, "rod on a body");
  BodyModel<double> B;
  B.name = "platform";
  B.kind = BodyKind::coupled;
  B.r = Vec3<double>(0, 0, -5);
  RodPart<double> rod = sr_rod(12, 0.5, 300, 1.0);
  rod.a = Vec3<double>(2, 0, 0);
  rod.b = Vec3<double>(2, 0, -12);
  B.rods.push_back(rod);
  const int body = sys.add_body(B);
  PointModel<double> end, anchor;
  end.kind = PointKind::body;
  end.body = body;
  end.r = rod.b;
  anchor.kind = PointKind::fixed;
  anchor.r = Vec3<double>(150, 0, -100);
  sys.add_line(LineModel<double>("line", {sr_wire(160, 20)}, env), sys.add_point(end), sys.add_point(anchor));
  sys.renumber();
  auto s = sys.initial_state();
  solve_statics(sys, s);
  SystemStepper<MooringSystem<double>> st(sys);
  st.initialize(s);
  double err = 0, moment = 0;
  for (int k = 1; k <= 20; ++k) {
    const double t = 0.1 * k;
    const Vec3<double> r(1.5 * std::sin(0.5 * t), 0.2 * t, -5 + 0.3 * std::sin(t));
    const Mat3<double> R = rotation_xyz(0.05 * std::sin(t), 0.08 * std::sin(0.7 * t), 0.1 * t);
    Vec6<double> vel;
    vel << 0.75 * std::cos(0.5 * t), 0.2, 0.3 * std::cos(t), 0, 0, 0.1;  // approximate: the positions are what is checked
    sys.set_coupled_body(body, r, R, vel);
    st.step(0.1);
    VecX<double> x;
    sys.line_gather(st.state(), 0, 0, x);
    err = std::max(err, (Vec3<double>(x.head<3>()) - (r + R * rod.b)).norm());
    // The line's load on the body acts at the rod's end: its moment about the reference point.
    const Vec6<double> F = sys.body_line_load(st.state(), body, true);
    const Vec3<double> f = sys.line_end_force_dynamic(st.state(), 0, 0);
    moment = std::max(moment, (Vec3<double>(F.tail<3>()) - Vec3<double>(R * rod.b).cross(f)).norm() / f.norm());
  }
  CHECK(err < 1e-12);
  CHECK(moment < 1e-12);

  // A free body with a rod hanging from it, moored by three lines, one at the rod's end: the
  // balance written here with the rod's weight and buoyancy at its centre.
  MooringSystem<double> fs(env, "free body with a rod");
  BodyModel<double> F;
  F.name = "float";
  F.kind = BodyKind::free;
  F.r = Vec3<double>(0, 0, -20);
  F.mass = 5e4;
  F.inertia = Vec3<double>(4e5, 4e5, 2e5);
  F.volume = 120;
  RodPart<double> keel = sr_rod(8, 0.6, 400, 1.0);
  keel.a = Vec3<double>(0, 0, 0);
  keel.b = Vec3<double>(0.5, 0, -8);
  F.rods.push_back(keel);
  const int fb = fs.add_body(F);
  const Vec3<double> offs[3] = {keel.b, Vec3<double>(-3, 3, 0), Vec3<double>(-3, -3, 0)};
  const Vec3<double> anchors[3] = {Vec3<double>(100, 0, -150), Vec3<double>(-60, 80, -150), Vec3<double>(-60, -80, -150)};
  for (int i = 0; i < 3; ++i) {
    PointModel<double> p, a;
    p.kind = PointKind::body;
    p.body = fb;
    p.r = offs[i];
    a.kind = PointKind::fixed;
    a.r = anchors[i];
    fs.add_line(LineModel<double>("leg " + std::to_string(i + 1), {sr_wire(150, 15)}, env), fs.add_point(p), fs.add_point(a));
  }
  fs.renumber();
  auto sf = fs.initial_state();
  solve_statics(fs, sf);
  Vec3<double> rb;
  Mat3<double> Rb;
  fs.body_pose(sf, fb, rb, Rb);
  const double Lk = (keel.b - keel.a).norm(), Ak = sr_pi * 0.36 / 4;
  const Vec3<double> ck = Rb * (keel.a + keel.b) / 2;
  const Vec3<double> Wb(0, 0, (env.rho_w * 120 - 5e4) * env.g), Wk(0, 0, (env.rho_w * Ak - 400) * Lk * env.g);
  Vec3<double> net = Wb + Wk, mom = ck.cross(Wk);
  double tension = 0;
  for (int l = 0; l < 3; ++l) {
    const Vec3<double> f = fs.line_end_force(sf, l, 0);
    net += f;
    mom += Vec3<double>(Rb * offs[l]).cross(f);
    tension = std::max(tension, f.norm());
  }
  INFO("net force " << net.transpose() << " N, moment " << mom.transpose() << " N m, tension " << tension << " N");
  CHECK(tension > 1e4);
  CHECK(net.norm() <= 1e-6 * tension);
  CHECK(mom.norm() <= 1e-6 * tension * 8);
}

TEST_CASE("A free rod moored at its two ends conserves energy at rho_inf = 1", "[system][rods][dynamics]") {
  Environment env;
  MooringSystem<double> sys(env, "free rod");
  BodyModel<double> B;
  B.name = "spar";
  B.kind = BodyKind::free;
  B.r = Vec3<double>(0, 0, -30);
  B.R = rotation_xyz(0.0, sr_pi / 2, 0.0);  // the rod's axis along x
  // No added mass: an added mass that turns with the rod (across its axis only) carries the
  // fluid's momentum, whose rate (the Munk terms) the model leaves out, as MoorDyn does: the
  // body's energy is then not a conserved quantity of the model.
  B.rods.push_back(sr_rod(20, 1.0, 600, 0.0));
  B.rods[0].CaEnd = 0;
  const int b = sys.add_body(B);
  for (int e = 0; e < 2; ++e) {
    PointModel<double> p, a;
    p.kind = PointKind::body;
    p.body = b;
    p.r = e == 0 ? B.rods[0].a : B.rods[0].b;
    a.kind = PointKind::fixed;
    a.r = Vec3<double>(e == 0 ? -80 : 100, e == 0 ? 30 : -30, -120);
    sys.add_line(LineModel<double>("leg", {sr_wire(126, 12)}, env), sys.add_point(p), sys.add_point(a));
  }
  sys.renumber();
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const Eigen::Index d = sys.body_dof(b);
  s.v.segment<3>(d) = Vec3<double>(0.2, 0.1, -0.05);
  s.v.segment<3>(d + 3) = Vec3<double>(0.01, -0.02, 0.03);
  const double K0 = sys.kinetic_energy(s), E0 = K0 + sys.potential_energy(s);
  SystemStepperOptions o;
  o.rho_inf = 1.0;
  o.tol = 1e-10;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(s);
  double drift = 0;
  for (int k = 0; k < 500; ++k) {
    st.step(0.02);
    drift = std::max(drift, std::fabs(sys.kinetic_energy(st.state()) + sys.potential_energy(st.state()) - E0));
  }
  INFO("free rod: energy drift / initial kinetic energy " << drift / K0);
  CHECK(drift / K0 < 5e-3);
}

TEST_CASE("A buoyant free rod rises with the acceleration of its net buoyancy over its mass and added mass",
          "[system][rods][dynamics]") {
  // MoorDyn's rod_tests/AddedMass.txt: a 2 m rod of 0.5 m diameter and 100 kg/m, Ca = 1, no
  // drag, 10 m under water, no lines. Rising across its axis it carries rho A Ca per metre of
  // added mass: a = (rho A - mu) g / (mu + rho A Ca), constant while it is submerged.
  Environment env;
  MooringSystem<double> sys(env, "rising rod");
  BodyModel<double> B;
  B.name = "floatRod";
  B.kind = BodyKind::free;
  B.r = Vec3<double>(0, -1, -10);
  B.R = rotation_xyz(-sr_pi / 2, 0.0, 0.0);  // the rod's z axis along +y
  RodPart<double> rod = sr_rod(2, 0.5, 100, 1.0);
  rod.CaEnd = 0;
  B.rods.push_back(rod);
  sys.add_body(B);
  sys.renumber();
  auto s = sys.initial_state();
  // No line holds it: not an unknown of the statics, it keeps its deck pose.
  const auto res = solve_statics(sys, s);
  REQUIRE(res.notes.size() == 1);
  CHECK_THAT(res.notes[0], Catch::Contains("without lines kept their pose"));
  CHECK((Vec3<double>(s.q.head<3>()) - B.r).norm() == 0.0);
  const double A = sr_pi * 0.25 / 4, rA = env.rho_w * A;
  const double acc = (rA - 100) * env.g / (100 + rA * 1.0);
  SystemStepperOptions o;
  o.rho_inf = 0.5;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(s);
  double err = 0;
  for (int k = 1; k <= 40; ++k) {
    st.step(0.05);
    const double t = 0.05 * k, z = st.state().q(2);
    err = std::max(err, std::fabs(z - (-10 + 0.5 * acc * t * t)));
  }
  Vec3<double> r;
  Mat3<double> R;
  sys.body_pose(st.state(), 0, r, R);
  INFO("rise: acceleration " << acc << " m/s^2, largest height error " << err << " m; the rod at " << r.transpose());
  CHECK(err < 1e-9);
  CHECK(std::fabs(r(1) + 1) < 1e-9);                                     // no sway
  CHECK((R * Vec3<double>(0, 0, 1) - Vec3<double>(0, 1, 0)).norm() < 1e-9);  // no turn
  // At t = 2.34 s it would reach z = -1, as MoorDyn's deck says ("~2.3 seconds").
  CHECK(std::sqrt(2 * 9 / acc) == Approx(2.34).margin(0.01));
}
