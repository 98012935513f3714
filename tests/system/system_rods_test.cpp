// Rods in mooring systems (rigid cylinders as parts of bodies): a pinned rod's mass matrix
// about its pin against the cylinder's; a pinned rod swings with the analytic small-angle
// period of a compound pendulum in water (weight less buoyancy, structural and added mass);
// a rod on a body moves with it and carries its lines; a free body carrying a rod balances
// the rod's weight and buoyancy; a free rod moored at its two ends conserves energy at
// rho_inf = 1; a free rod on the seabed bears its weight evenly on its stations and settles there.
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include <catch2/catch.hpp>

#include "support/crossings.hpp"

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/core/so3.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/statics/tension_statics.hpp"
#include "cabledyn/system.hpp"
#include "support/system_builders.hpp"

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
  const test_support::PinnedPendulum pp = test_support::pinned_pendulum(L, d, mu, Ca, th0, env);
  const BodyModel<double>& B = pp.body;
  sys.add_body(B);
  sys.renumber();
  REQUIRE(sys.dofs() == 3);
  const double I_pin = pp.I_pin;
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
  const double T_exact = pp.period();
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
  CHECK(fs.n_components() == 1);  // the body joins its three legs (MooringSystem::dof_components)
  for (const int c : fs.dof_components()) CHECK(c == 0);
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

namespace {

// A fixed body of no mass of its own carrying one rod of radius rr from End A at a (world,
// the body at the origin) along the unit axis q, length L: its only load is the rod's
// buoyancy.
BodyModel<double> sr_bare_rod(const Vec3<double>& a, const Vec3<double>& q, double L, double rr) {
  BodyModel<double> B;
  B.kind = BodyKind::fixed;
  RodPart<double> rod = sr_rod(L, 2 * rr, 0.0, 1.0);
  rod.a = a;
  rod.b = a + L * q;
  B.rods.push_back(rod);
  return B;
}

Vec6<double> sr_hydrostatic(const BodyModel<double>& B, const Vec3<double>& r, const Mat3<double>& R) {
  const Environment env;
  return body_external_load<double>(B, r, R, Vec3<double>::Zero(), Vec3<double>::Zero(), env, std::nullopt,
                                    SeabedParams{}, Vec3<double>::Zero(), false);
}

}  // namespace

TEST_CASE("A surface-piercing rod: its buoyancy is the displaced volume of the cut cylinder at the volume's "
          "centroid, continuous through the surface, with the exact waterplane restoring",
          "[system][rods]") {
  const Environment env;
  const double rg = env.rho_w * env.g, rr = 1.0, L = 20;
  SECTION("tilted 25 deg, the surface cutting the side only: V = pi r^2 l, the centroid in closed form") {
    // l: the axis length below the surface. Wet where s < l - y tan(phi) (y the in-section
    // up-slope coordinate): V = pi r^2 l, s_B = l / 2 + tan^2(phi) r^2 / (8 l), y_B = -tan(phi)
    // r^2 / (4 l).
    const double phi = 25 * sr_pi / 180;
    const Vec3<double> q(std::sin(phi), 0, std::cos(phi)), a(3, -2, -12);
    const Vec3<double> u(-std::cos(phi), 0, std::sin(phi));  // in-section up-slope
    const double l = 12 / std::cos(phi), tp = std::tan(phi);
    const BodyModel<double> B = sr_bare_rod(a, q, L, rr);
    const Vec3<double> r0(0.5, 1.0, 0.0);  // the reference point (not on the rod)
    BodyModel<double> Bs = B;
    for (auto& rod : Bs.rods) rod.a -= r0, rod.b -= r0;
    const Vec6<double> F = sr_hydrostatic(Bs, r0, Mat3<double>::Identity());
    const double V = sr_pi * rr * rr * l;
    const Vec3<double> cB = a + (l / 2 + tp * tp * rr * rr / (8 * l)) * q - tp * rr * rr / (4 * l) * u;
    const Vec3<double> Fz(0, 0, rg * V);
    const Vec3<double> M = (cB - r0).cross(Fz);
    CHECK(F(2) == Approx(rg * V).epsilon(1e-12));
    CHECK(std::abs(F(0)) + std::abs(F(1)) == 0);
    for (int k = 0; k < 3; ++k) CHECK(F(3 + k) == Approx(M(k)).epsilon(1e-11).margin(1e-9 * rg * V));
  }
  SECTION("vertical and horizontal rods") {
    // Vertical, 7.5 m below the surface: V = pi r^2 7.5 at its middle.
    const BodyModel<double> Bv = sr_bare_rod(Vec3<double>(0, 0, -7.5), Vec3<double>(0, 0, 1), L, rr);
    const Vec6<double> Fv = sr_hydrostatic(Bv, Vec3<double>::Zero(), Mat3<double>::Identity());
    CHECK(Fv(2) == Approx(rg * sr_pi * rr * rr * 7.5).epsilon(1e-13));
    // Horizontal along y, its axis 0.3 m below the surface: the circular segment below h =
    // 0.3 above the centre, at the segment's centroid below the axis.
    const double h = 0.3;
    const BodyModel<double> Bh = sr_bare_rod(Vec3<double>(0, -10, -h), Vec3<double>(0, 1, 0), L, rr);
    const Vec6<double> Fh = sr_hydrostatic(Bh, Vec3<double>::Zero(), Mat3<double>::Identity());
    const double Aw = rr * rr * std::acos(-h / rr) + h * std::sqrt(rr * rr - h * h);
    const double yc = -2.0 / 3.0 * std::pow(rr * rr - h * h, 1.5) / Aw;
    CHECK(Fh(2) == Approx(rg * Aw * L).epsilon(1e-13));
    // Its moment about the origin (the middle of the axis at y = 0, x = 0): none about x, y.
    CHECK(std::abs(Fh(3)) <= 1e-9 * Fh(2));
    CHECK(std::abs(Fh(4)) <= 1e-9 * Fh(2));
    (void)yc;
  }
  SECTION("continuous as the top rim reaches the surface, and the potential's gradient is the load") {
    const double phi = 10 * sr_pi / 180;
    const Vec3<double> q(0, std::sin(phi), std::cos(phi));
    // The top rim of End B at z = L cos(phi) + zA + r sin(phi): just below and just above 0.
    const double zA0 = -(L * std::cos(phi) + rr * std::sin(phi));
    const Vec6<double> below = sr_hydrostatic(sr_bare_rod(Vec3<double>(0, 0, zA0 - 1e-9), q, L, rr), Vec3<double>::Zero(),
                                              Mat3<double>::Identity());
    const Vec6<double> above = sr_hydrostatic(sr_bare_rod(Vec3<double>(0, 0, zA0 + 1e-9), q, L, rr), Vec3<double>::Zero(),
                                              Mat3<double>::Identity());
    for (int k = 0; k < 6; ++k) CHECK(above(k) == Approx(below(k)).epsilon(1e-9).margin(1e-6));
    // A piercing pose: E(r, R) of body_potential_energy; dE/dz = -Fz, dE/dtheta = -M.
    const BodyModel<double> B = sr_bare_rod(Vec3<double>(0, 0, -9), q, L, rr);
    const Vec3<double> r0(0.4, -0.2, 0.1);
    const Mat3<double> R0 = rotation_xyz(0.05, -0.03, 0.2);
    auto E = [&](const Vec3<double>& r, const Mat3<double>& R) {
      return body_potential_energy<double>(B, r, R, env, std::nullopt, SeabedParams{});
    };
    const Vec6<double> F = sr_hydrostatic(B, r0, R0);
    const double h = 1e-5;
    for (int k = 0; k < 3; ++k) {
      Vec3<double> e = Vec3<double>::Zero();
      e(k) = h;
      const double dEdx = (E(r0 + e, R0) - E(r0 - e, R0)) / (2 * h);
      const double dEdt = (E(r0, so3_exp<double>(e) * R0) - E(r0, so3_exp<double>(Vec3<double>(-e)) * R0)) / (2 * h);
      CHECK(-dEdx == Approx(F(k)).margin(1e-6 * F(2)));
      CHECK(-dEdt == Approx(F(3 + k)).margin(1e-6 * F(2) * L));
    }
  }
  SECTION("a vertical rod tilted about its waterline point: the restoring rho g (I_wp + V z_B)") {
    // l = 12 m below the surface, tilted by +-theta about the point of its axis at the
    // surface (the moment about that point): C44 = rho g pi r^2 (r^2 / 4 - l^2 / 2), the
    // waterplane's second moment pi d^4 / 64 = pi r^4 / 4.
    const double l = 12;
    const BodyModel<double> B = sr_bare_rod(Vec3<double>(0, 0, -l), Vec3<double>(0, 0, 1), L, rr);
    const double th = 1e-4;
    const Vec6<double> Fp = sr_hydrostatic(B, Vec3<double>::Zero(), so3_exp<double>(Vec3<double>(th, 0, 0)));
    const Vec6<double> Fm = sr_hydrostatic(B, Vec3<double>::Zero(), so3_exp<double>(Vec3<double>(-th, 0, 0)));
    const double C44 = rg * sr_pi * rr * rr * (rr * rr / 4 - l * l / 2);
    CHECK(-(Fp(3) - Fm(3)) / (2 * th) == Approx(C44).epsilon(1e-6));
  }
}

TEST_CASE("A ballasted spar (a free vertical rod piercing the surface) heaves about its draft with the period of "
          "its waterplane stiffness and its wet mass",
          "[system][rods][dynamics]") {
  // Rod 20 m, d = 2 m, 500 kg/m, on a free body with 28 642 kg of ballast 0.5 m above End A
  // (GM > 0): the draft l = m / (rho pi r^2) = 12 m. Heave stiffness rho g pi r^2 (exact: the
  // wet length changes, the section does not), mass m plus the wet bottom end's added mass
  // rho CaEnd 2/3 pi r^3 (the dry top end carries none).
  const Environment env;
  const double rr = 1, L = 20, mu = 500, l = 12;
  const double m = env.rho_w * sr_pi * rr * rr * l;
  MooringSystem<double> sys(env, "spar");
  BodyModel<double> B;
  B.name = "spar";
  B.kind = BodyKind::free;
  B.rods.push_back(sr_rod(L, 2 * rr, mu, 1.0));
  B.mass = m - mu * L;
  B.cg = Vec3<double>(0, 0, 0.5);
  B.inertia = Vec3<double>(1e3, 1e3, 1e3);
  B.r = Vec3<double>(0, 0, -l - 1);  // 1 m below its equilibrium, at rest
  const int b = sys.add_body(B);
  sys.renumber();
  const double k = env.rho_w * env.g * sr_pi * rr * rr;
  const double ma = env.rho_w * 0.6 * (2.0 / 3.0) * sr_pi * rr * rr * rr;
  const double T = 2 * sr_pi * std::sqrt((m + ma) / k);
  SystemStepperOptions o;
  o.rho_inf = 1.0;
  o.tol = 1e-10;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(sys.initial_state());
  // bodySubstep's frequency estimate: the waterplane over the heave mass, 2 pi / T.
  CHECK(sys.body_frequency_estimate(st.state()) == Approx(2 * sr_pi / T).epsilon(1e-9));
  const double dt = T / 400;
  std::vector<double> z;
  double tilt = 0;
  for (int i = 0; i < 1600; ++i) {
    st.step(dt);
    z.push_back(st.state().q(sys.body_dof(b) + 2) + l);
    Vec3<double> r;
    Mat3<double> R;
    sys.body_pose(st.state(), b, r, R);
    tilt = std::max(tilt, std::acos(std::min(1.0, R(2, 2))));
  }
  const std::vector<double> up = test_support::upcrossings(z, dt);
  REQUIRE(up.size() >= 3);
  double zmax = -1e9, zmin = 1e9;
  for (double v : z) zmax = std::max(zmax, v), zmin = std::min(zmin, v);
  INFO("period " << test_support::mean_period(up) << " s against " << T << " s; heave in [" << zmin << ", " << zmax
                 << "]; tilt " << tilt);
  CHECK(test_support::mean_period(up) == Approx(T).epsilon(1e-4));
  CHECK(zmax == Approx(1.0).epsilon(1e-4));  // symmetric about the draft: the stiffness is linear
  CHECK(zmin == Approx(-1.0).epsilon(1e-4));
  CHECK(tilt < 1e-9);
}

TEST_CASE("A free body without inertia about an axis through its centre of gravity is refused by name", "[system][rods]") {
  // Two point masses on a line (MoorDyn's orbitalBody deck, body 1): no inertia about that
  // line, though every diagonal entry of the inertia about the reference point is positive.
  MooringSystem<double> sys(Environment{}, "degenerate");
  BodyModel<double> B;
  B.name = "dumbbell";
  B.kind = BodyKind::free;
  for (double z : {-2.0, 2.0}) {
    BodyModel<double>::Lump k;
    k.p = Vec3<double>(0, -10, z);
    k.mass = 20;
    B.lumps.push_back(k);
  }
  CHECK_THROWS_WITH(sys.add_body(B), Catch::Contains("Body 1 (dumbbell)") &&
                                         Catch::Contains("smallest principal moment of inertia about its centre of gravity"));
  // With a rod along the line (its section inertia about its axis) it is a body.
  B.rods.push_back(sr_rod(4, 1, 10, 0));
  B.rods.back().a = Vec3<double>(0, -10, -2);
  B.rods.back().b = Vec3<double>(0, -10, 2);
  CHECK_NOTHROW(sys.add_body(B));
}

namespace {

// sr_bare_rod in duals of one variable (the parameters plain, the pose seeded by the caller).
BodyModel<Dual<double, 1>> sr_bare_rod_dual(const Vec3<double>& a, const Vec3<double>& q, double L, double rr) {
  using D = Dual<double, 1>;
  const BodyModel<double> B = sr_bare_rod(a, q, L, rr);
  BodyModel<D> out;
  out.kind = B.kind;
  for (const auto& r : B.rods) {
    RodPart<D> p;
    p.name = r.name;
    p.a = r.a.cast<D>();
    p.b = r.b.cast<D>();
    p.d = D(r.d);
    p.rho_A = D(r.rho_A);
    p.Ca = r.Ca, p.CaEnd = r.CaEnd, p.Cd = r.Cd, p.CdEnd = r.CdEnd;
    p.segments = r.segments;
    out.rods.push_back(p);
  }
  return out;
}

}  // namespace

TEST_CASE("A surface-piercing rod seen from its other end, and the tilt derivative of exactly vertical and "
          "horizontal rods in duals",
          "[system][rods]") {
  const Environment env;
  const double rg = env.rho_w * env.g, rr = 1.0, L = 20;
  // The 25 deg rod of the closed-form test described from its dry End B down (q_z < 0): the
  // same cylinder, the same load.
  const double phi = 25 * sr_pi / 180;
  const Vec3<double> q(std::sin(phi), 0, std::cos(phi)), a(3, -2, -12);
  const Vec6<double> up = sr_hydrostatic(sr_bare_rod(a, q, L, rr), Vec3<double>::Zero(), Mat3<double>::Identity());
  const Vec6<double> down =
      sr_hydrostatic(sr_bare_rod(Vec3<double>(a + L * q), Vec3<double>(-q), L, rr), Vec3<double>::Zero(), Mat3<double>::Identity());
  for (int k = 0; k < 6; ++k) CHECK(down(k) == Approx(up(k)).epsilon(1e-12).margin(1e-9 * up(2)));
  // Exactly vertical through the surface, 12 m under, tilted by a dual theta about x at the
  // waterline point: dM_x/dtheta = -rho g pi r^2 (r^2 / 4 - l^2 / 2), upwards and downwards.
  using D = Dual<double, 1>;
  const double l = 12;
  const double C44 = rg * sr_pi * rr * rr * (rr * rr / 4 - l * l / 2);
  for (int dir : {1, -1}) {
    const Vec3<double> qa(0, 0, dir);
    const Vec3<double> aa = dir > 0 ? Vec3<double>(0, 0, -l) : Vec3<double>(0, 0, L - l);
    const BodyModel<D> Bd = sr_bare_rod_dual(aa, qa, L, rr);
    const D th(0.0, Eigen::Matrix<double, 1, 1>(1.0));
    const Mat3<D> R = so3_exp<D>(Vec3<D>(th, D(0), D(0)));
    const Vec6<D> F = body_external_load<D>(Bd, Vec3<D>::Zero(), R, Vec3<D>::Zero(), Vec3<D>::Zero(), env, std::nullopt,
                                            SeabedParams{}, Vec3<double>::Zero(), false);
    INFO("direction " << dir);
    CHECK(F(2).value() == Approx(rg * sr_pi * rr * rr * l).epsilon(1e-12));
    CHECK(-F(3).derivatives()(0) == Approx(C44).epsilon(1e-9));
  }
  // Exactly horizontal, its axis 0.3 m under: the pitch derivative of the load in duals against
  // central differences of the general branch at +-1e-5 rad.
  const double h = 0.3;
  const Vec3<double> ah(-10, 0, -h), qh(1, 0, 0);
  const BodyModel<D> Bh = sr_bare_rod_dual(ah, qh, L, rr);
  const D th(0.0, Eigen::Matrix<double, 1, 1>(1.0));
  const Vec6<D> Fd = body_external_load<D>(Bh, Vec3<D>::Zero(), so3_exp<D>(Vec3<D>(D(0), th, D(0))), Vec3<D>::Zero(),
                                           Vec3<D>::Zero(), env, std::nullopt, SeabedParams{}, Vec3<double>::Zero(), false);
  const double e = 1e-5;
  const BodyModel<double> B = sr_bare_rod(ah, qh, L, rr);
  const Vec6<double> Fp = sr_hydrostatic(B, Vec3<double>::Zero(), so3_exp<double>(Vec3<double>(0, e, 0)));
  const Vec6<double> Fm = sr_hydrostatic(B, Vec3<double>::Zero(), so3_exp<double>(Vec3<double>(0, -e, 0)));
  for (int k = 0; k < 6; ++k)
    CHECK(Fd(k).derivatives()(0) == Approx((Fp(k) - Fm(k)) / (2 * e)).epsilon(1e-5).margin(1e-6 * rg * L));
}

// A free body carrying one level rod of length L, diameter d and mass mu per metre, its z
// axis along +x, as the deck builds a rod's carrier (no contact point of its own).
BodyModel<double> sr_bed_rod(const std::string& name, double L, double d, double mu) {
  BodyModel<double> B;
  B.name = name;
  B.kind = BodyKind::free;
  B.point_contact = false;
  B.R = rotation_xyz(0.0, sr_pi / 2, 0.0);  // the rod's z axis along +x
  B.rods.push_back(sr_rod(L, d, mu, 1.0));
  return B;
}

TEST_CASE("A free rod on the seabed: its stations bear its submerged weight evenly, and it settles there",
          "[system][rods][seabed]") {
  // A 10 m rod of 0.4 m diameter and 300 kg/m lying flat on a flat bed 50 m down (spec
  // "Attached objects and line ends": max(20, NumSegs) + 1 stations of kBot d dl). Each
  // station carries the submerged weight of its share dl, so the axis sinks to
  // g = w / (kBot d) + delta / 2 below the bed (the C1 penalty law beyond its blend), w the
  // submerged weight per metre; its carrier body has no contact of its own.
  Environment env;
  env.depth = 50;
  SeabedModel bed;
  bed.z = -50;
  bed.params.kBot = 3e5;
  bed.params.cBot = 3e4;
  const double L = 10, d = 0.4, mu = 300;
  const double w = (mu - env.rho_w * sr_pi * d * d / 4) * env.g;
  const double g = w / (bed.params.kBot * d) + bed.params.delta / 2;
  BodyModel<double> B = sr_bed_rod("grounded rod", L, d, mu);
  B.rods[0].CaEnd = 0;
  // At the analytic rest pose the rod's loads balance: weight, buoyancy and the stations'.
  const Vec3<double> rest(-L / 2, 0, -50 - g);
  const Vec6<double> F = body_external_load<double>(B, rest, B.R, Vec3<double>::Zero(), Vec3<double>::Zero(), env,
                                                    bed.z, bed.params, Vec3<double>::Zero(), false);
  INFO("load at the rest pose " << F.transpose() << " (weight " << w * L << " N)");
  CHECK(F.norm() <= 1e-9 * w * L);
  // Tilted, the stations under the lower end push it up: the contact's moment levels it.
  const Mat3<double> tilt = rotation_xyz(0.0, sr_pi / 2 + 1e-3, 0.0);
  const Vec6<double> Ft = body_external_load<double>(B, rest, tilt, Vec3<double>::Zero(), Vec3<double>::Zero(), env,
                                                     bed.z, bed.params, Vec3<double>::Zero(), false);
  // The rod turned about y by +1e-3 from +x: End B (x = +L/2 from the centre) dips; the
  // restoring moment about the centre turns it back (-y), about End A it is positive.
  const Vec3<double> centre_arm = tilt * Vec3<double>(0, 0, L / 2);
  const double My_centre = Ft(4) - centre_arm.cross(Vec3<double>(Ft.head<3>()))(1);
  CHECK(My_centre < 0);
  // Released 0.2 m above its rest, it falls and settles at it, level.
  B.r = rest + Vec3<double>(0, 0, 0.2);
  MooringSystem<double> sys(env, "grounded rod");
  sys.set_seabed(bed);
  sys.add_body(B);
  sys.renumber();
  SystemStepperOptions o;
  o.rho_inf = 0.5;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(sys.initial_state());
  for (int k = 0; k < 600; ++k) st.step(0.05);
  Vec3<double> r;
  Mat3<double> R;
  sys.body_pose(st.state(), 0, r, R);
  INFO("settled at " << r.transpose() << " (rest z " << rest(2) << "), axis " << (R * Vec3<double>(0, 0, 1)).transpose());
  CHECK(std::fabs(r(2) - rest(2)) < 1e-6);
  CHECK((R * Vec3<double>(0, 0, 1) - Vec3<double>(1, 0, 0)).norm() < 1e-6);
}

TEST_CASE("A Newton update that would carry a rod's seabed station beyond the contact blend stops it in the blend",
          "[system][rods][seabed]") {
  // The rod of the test above, level 0.3 m above the bed (spec "Seabed contact": the update
  // limit of contact_entry_fraction, which the line nodes and points had): an update that
  // lowers it by 1 m is cut to the fraction that brings its stations to the middle of the
  // blend, (delta / 2 + 0.3) / 1; one that turns it about y by 0.1 rad, so that End B (10 m
  // from End A, the reference point) dips by 10 sin 0.1, is cut by that station, at its exact
  // turned position. An update that keeps every station above the bed is whole.
  Environment env;
  env.depth = 50;
  SeabedModel bed;
  bed.z = -50;
  bed.params.kBot = 3e5;
  bed.params.cBot = 3e4;
  const double L = 10, d = 0.4, mu = 300, h = 0.3, delta = bed.params.delta;
  BodyModel<double> B = sr_bed_rod("rod above the bed", L, d, mu);
  B.r = Vec3<double>(-L / 2, 0, -50 + h);
  MooringSystem<double> sys(env, "rod above the bed");
  sys.set_seabed(bed);
  sys.add_body(B);
  sys.renumber();
  const auto s = sys.initial_state();
  VecX<double> dq = VecX<double>::Zero(sys.dofs());
  dq(sys.body_row(0, 2)) = -1.0;
  CHECK(sys.update_limit(s, dq) == Approx((0.5 * delta + h) / 1.0).epsilon(1e-12));
  dq.setZero();
  dq(sys.body_row(0, 4)) = 0.1;  // about world y: +x turns toward -z
  CHECK(sys.update_limit(s, dq) == Approx((0.5 * delta + h) / (L * std::sin(0.1))).epsilon(1e-9));
  dq.setZero();
  dq(sys.body_row(0, 2)) = -0.2;
  CHECK(sys.update_limit(s, dq) == 1.0);
}
