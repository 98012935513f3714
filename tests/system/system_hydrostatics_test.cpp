// The linear hydrostatic restoring C33, C44, C55 of a body (spec "Attached objects and line
// ends"; system/body_model.hpp HydrostaticRestoring): the tilt vector and the moment in closed
// form at any heading, the moment as the gradient of its potential; a constant heave force and a
// roll or pitch moment on a yawed body give the static offsets F / C33, M / C44, M / C55
// exactly; the heave, roll and pitch periods are 2 pi sqrt(m / C) at rho_inf = 1 and the energy
// is conserved; the deck's BODY HYDROSTATICS rows reach the system, whose statics balance them,
// and bad rows are refused by name.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/core/so3.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/io/system_model.hpp"
#include "cabledyn/system.hpp"
#include "support/crossings.hpp"
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include "support/system_builders.hpp"
#include "support/system_decks.hpp"

using namespace cabledyn;

namespace {

constexpr double shy_pi = 3.14159265358979323846;

// A neutrally buoyant body at the surface (centres of gravity and buoyancy at its reference
// point, so weight and buoyancy cancel at any pose) with restoring C33, C44, C55 about its
// deck pose, yawed by psi; no lines, no drag, no added mass unless given.
BodyModel<double> shy_hull(double psi, double C33, double C44, double C55, double Ca = 0) {
  const Environment env;
  BodyModel<double> B;
  B.name = "hull";
  B.r = Vec3<double>(5, -3, 0);
  B.R = rotation_xyz(0.0, 0.0, psi);
  B.mass = 4e6;
  B.volume = 4e6 / env.rho_w;
  B.inertia = Vec3<double>(3e9, 5e9, 6e9);
  B.Ca = Vec3<double>(Ca, Ca, Ca);
  B.restoring = HydrostaticRestoring<double>::about(B.r, B.R, C33, C44, C55);
  return B;
}

}  // namespace

TEST_CASE(
    "Hydrostatic restoring: the tilt and moment in closed form at any heading; the moment is the gradient of the "
    "potential",
    "[system][bodies][hydrostatics]") {
  const double C33 = 3e6, C44 = 2e9, C55 = 7e9;
  for (double psi : {0.0, 0.7, -2.4}) {
    const auto H =
        HydrostaticRestoring<double>::about(Vec3<double>(1, 2, -4), rotation_xyz(0.0, 0.0, psi), C33, C44, C55);
    const Vec3<double> h1(std::cos(psi), std::sin(psi), 0), h2(-std::sin(psi), std::cos(psi), 0);
    const Vec3<double> r(1, 2, -4.25);
    // A roll phi about the body x axis (R = Rz(psi) Rx(phi)): tau = phi h1, moment -C44 phi h1;
    // a pitch theta about its y axis: tau = theta h2, moment -C55 theta h2 (exact, any angle).
    for (double ang : {1e-9, 0.05, 0.6}) {
      const Vec6<double> Fr =
          hydrostatic_restoring_load(H, r, Mat3<double>(rotation_xyz(0.0, 0.0, psi) * rotation_xyz(ang, 0.0, 0.0)));
      const Vec6<double> Fp =
          hydrostatic_restoring_load(H, r, Mat3<double>(rotation_xyz(0.0, 0.0, psi) * rotation_xyz(0.0, ang, 0.0)));
      CHECK(Fr(2) == Approx(0.25 * C33).epsilon(1e-14));
      CHECK((Vec3<double>(Fr.tail<3>()) + C44 * ang * h1).norm() <= 1e-12 * C44 * ang);
      CHECK((Vec3<double>(Fp.tail<3>()) + C55 * ang * h2).norm() <= 1e-12 * C55 * ang);
    }
    // At the reference pose: no load.
    CHECK(hydrostatic_restoring_load(H, Vec3<double>(0, 0, -4), rotation_xyz(0.0, 0.0, psi)).norm() == 0);
  }
  // A tilt theta about any horizontal axis n of a body with C44 = C55 = C: the moment -C theta n,
  // the negative gradient of C theta^2 / 2 (central differences of the potential under a
  // rotation exp(d) R of the body).
  const double C = 4e9;
  const Vec3<double> o = Vec3<double>::Zero();
  const auto H = HydrostaticRestoring<double>::about(o, Mat3<double>(Mat3<double>::Identity()), 0.0, C, C);
  const Vec3<double> n = Vec3<double>(0.6, -0.8, 0);
  for (double theta : {0.02, 0.9, 2.5}) {
    const Mat3<double> R = so3_exp<double>(Vec3<double>(theta * n)) * rotation_xyz(0.0, 0.0, 1.1);
    const Vec6<double> F = hydrostatic_restoring_load(H, o, R);
    CHECK((Vec3<double>(F.tail<3>()) + C * theta * n).norm() <= 1e-12 * C * theta);
    CHECK(hydrostatic_restoring_energy(H, o, R) == Approx(0.5 * C * theta * theta).epsilon(1e-13));
    const double h = 1e-6;
    for (int k = 0; k < 3; ++k) {
      const Mat3<double> Rp = so3_exp<double>(Vec3<double>(h * Vec3<double>::Unit(k))) * R,
                         Rm = so3_exp<double>(Vec3<double>(-h * Vec3<double>::Unit(k))) * R;
      const double dE = (hydrostatic_restoring_energy(H, o, Rp) - hydrostatic_restoring_energy(H, o, Rm)) / (2 * h);
      CHECK(-dE == Approx(F(3 + k)).margin(1e-6 * C));
    }
  }
  // Through the upright pose the moment's derivative is exact (the series branch): a dual tilt.
  using D = Dual<double>;
  const auto Hd = HydrostaticRestoring<D>::about(Vec3<D>::Zero(), Mat3<D>(Mat3<D>::Identity()), D(0), D(C44), D(C55));
  Vec3<D> th = Vec3<D>::Zero();
  for (int k = 0; k < 3; ++k) th(k) = D(0.0, Vec3<double>::Unit(k));
  const Vec6<D> Fd = hydrostatic_restoring_load<D>(Hd, Vec3<D>::Zero(), Mat3<D>(so3_exp<D>(th)));
  CHECK(Fd(3).derivatives()(0) == Approx(-C44).epsilon(1e-14));
  CHECK(Fd(4).derivatives()(1) == Approx(-C55).epsilon(1e-14));
  CHECK(Fd(3).derivatives()(1) == 0);
  CHECK(std::isfinite(Fd(5).derivatives()(2)));
}

TEST_CASE("A yawed hull balances a constant force and moment at the heave, heel and trim F / C33, M / C44, M / C55",
          "[system][bodies][hydrostatics][statics]") {
  const double C33 = 2.5e6, C44 = 1.5e9, C55 = 4e9, psi = 0.7;
  const Vec3<double> h1(std::cos(psi), std::sin(psi), 0), h2(-std::sin(psi), std::cos(psi), 0);
  // The static residual at the predicted pose (the restoring about the deck pose, the body
  // moved by the offsets; weight and buoyancy cancel at any pose) vanishes: a line-less body is
  // not an unknown of solve_statics, so the balance is checked on the residual itself, and with
  // the offsets 1 % off it does not.
  for (int axis = 0; axis < 2; ++axis)
    for (double off : {1.0, 1.01}) {
      Environment env;
      MooringSystem<double> sys(env, "hull");
      BodyModel<double> B = shy_hull(psi, C33, C44, C55);
      B.force = Vec3<double>(0, 0, -3e5);
      const double Mag = axis == 0 ? 2e8 : -3e8;
      const Vec3<double> h = axis == 0 ? h1 : h2;
      B.moment = Mag * h;
      const double tilt = off * Mag / (axis == 0 ? C44 : C55);
      B.r(2) = off * -3e5 / C33;
      B.R = so3_exp<double>(Vec3<double>(tilt * h)) * B.R;
      sys.add_body(B);
      sys.renumber();
      const auto s = sys.initial_state();
      VecX<double> R(sys.dofs());
      sys.static_residual(s, R, nullptr);
      const Eigen::Index d = sys.body_dof(0);
      INFO("axis " << axis << ", offsets x " << off << ": residual " << R.segment<6>(d).transpose());
      if (off == 1.0) {
        CHECK(R.segment<3>(d).norm() <= 1e-9 * 3e5);
        CHECK(R.segment<3>(d + 3).norm() <= 1e-9 * std::fabs(Mag));
      } else {
        CHECK(std::fabs(R(d + 2)) == Approx(0.01 * 3e5).epsilon(1e-6));
        CHECK(R.segment<3>(d + 3).norm() == Approx(0.01 * std::fabs(Mag)).epsilon(1e-3));
      }
    }
}

TEST_CASE("A hull's heave, roll and pitch periods are 2 pi sqrt(m / C); its energy is conserved at rho_inf = 1",
          "[system][bodies][hydrostatics][dynamics]") {
  const Environment env;
  const double C33 = 2.5e6, C44 = 1.5e9, C55 = 4e9, psi = -0.4, Ca = 0.5;
  MooringSystem<double> sys(env, "hull");
  sys.add_body(shy_hull(psi, C33, C44, C55, Ca));
  sys.renumber();
  const auto& B = sys.body(0);
  // Heave with the added mass rho V Ca (phi = 1 with restoring); roll and pitch about the body
  // axes (no rotational added mass).
  const double Th = 2 * shy_pi * std::sqrt((4e6 * (1 + Ca)) / C33), Tr = 2 * shy_pi * std::sqrt(3e9 / C44),
               Tp = 2 * shy_pi * std::sqrt(5e9 / C55);
  auto s = sys.initial_state();
  const Eigen::Index d = sys.body_dof(0);
  s.q(d + 2) = 0.2;                                                           // heave 0.2 m
  s.v.segment<3>(d + 3) = Mat3<double>(B.R) * Vec3<double>(0.004, 0.003, 0);  // roll and pitch rates
  const double E0 = sys.kinetic_energy(s) + sys.potential_energy(s);
  SystemStepperOptions o;
  o.rho_inf = 1.0;
  o.tol = 1e-12;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(s);
  const double dt = 0.02, T_end = 6 * Th;
  std::vector<double> z, roll, pitch;
  double drift = 0;
  const int steps = static_cast<int>(std::lround(T_end / dt));
  for (int k = 0; k < steps; ++k) {
    st.step(dt);
    Vec3<double> rb;
    Mat3<double> Rb;
    sys.body_pose(st.state(), 0, rb, Rb);
    const Vec3<double> tilt = Mat3<double>(B.R).transpose() * so3_log(Mat3<double>(Rb * B.R.transpose()));  // body axes
    z.push_back(rb(2));
    roll.push_back(tilt(0));
    pitch.push_back(tilt(1));
    drift = std::max(drift, std::fabs(sys.kinetic_energy(st.state()) + sys.potential_energy(st.state()) - E0));
  }
  const double Ph = test_support::mean_period(test_support::upcrossings(z, dt));
  const double Pr = test_support::mean_period(test_support::upcrossings(roll, dt));
  const double Pp = test_support::mean_period(test_support::upcrossings(pitch, dt));
  INFO("heave " << Ph << " s against " << Th << ", roll " << Pr << " against " << Tr << ", pitch " << Pp << " against "
                << Tp << "; energy drift " << drift << " J of " << E0);
  CHECK(Ph == Approx(Th).epsilon(2e-4));
  CHECK(Pr == Approx(Tr).epsilon(2e-4));
  CHECK(Pp == Approx(Tp).epsilon(2e-4));
  CHECK(drift <= 1e-5 * E0);
}

TEST_CASE("BODY HYDROSTATICS rows reach the deck's system, whose statics balance them; bad rows are refused by name",
          "[system][io][bodies][hydrostatics]") {
  using namespace cabledyn::io;
  ReadOptions ro;
  ro.accept_unsupported = true;
  auto deck = [&](const std::string& rows) {
    const std::string sec =
        "\n--------------------- BODY HYDROSTATICS ---------------------\nBodyID C33 C44 C55\n(-) (N/m) "
        "(N-m/rad) (N-m/rad)\n" +
        rows + "\n--------------------- OPTIONS ----------------------------\n";
    return parse_deck(test_support::moored_float_deck(sec), "hydro.dat", ro);
  };
  const Deck d = deck("1  4e5  3e7  5e7");
  REQUIRE(d.body_hydrostatics.size() == 1);
  auto ds = build_deck_system(d);
  auto& sys = ds.system;
  const auto& H = sys.body(0).restoring;
  CHECK(H.C33 == 4e5);
  CHECK(H.C44 == 3e7);
  CHECK(H.C55 == 5e7);
  CHECK(H.z0 == -20);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  Vec3<double> rb;
  Mat3<double> Rb;
  sys.body_pose(s, 0, rb, Rb);
  // The balance written here: weight at the centre of gravity, buoyancy (phi = 1) at the
  // reference point (BODIES rows have no centre of buoyancy), the lines at their fairleads, and the
  // restoring -C33 (z - z0) and -C44 tau1 h1 - C55 tau2 h2.
  const Environment env = d.environment();
  const Vec3<double> W(0, 0, -2e5 * env.g), Fb(0, 0, env.rho_w * env.g * 250);
  Vec3<double> F = W + Fb + Vec3<double>(0, 0, -4e5 * (rb(2) + 20));
  Vec3<double> M = Vec3<double>(Rb * Vec3<double>(0.3, 0, -5)).cross(W);
  const BodyTilt<double> t = body_tilt(H, Rb);
  M -= 3e7 * t.tau1 * t.h1 + 5e7 * t.tau2 * t.h2;
  const double tension = test_support::add_end_a_loads(sys, s, 3, rb, F, M);
  INFO("heave " << rb(2) + 20 << " m, tilt " << t.tau1 << " / " << t.tau2 << " rad; net force " << F.transpose()
                << " N, moment " << M.transpose() << " N m of tension " << tension << " N");
  CHECK(std::fabs(rb(2) + 20) > 1e-3);  // the restoring carries a share of the load
  CHECK(F.norm() <= 1e-6 * tension);
  CHECK(M.norm() <= 1e-6 * tension * 3);
  // Without the rows: no restoring, and a different heave.
  auto plain = build_deck_system(parse_deck(test_support::moored_float_deck(), "plain.dat", ro));
  CHECK(!plain.system.body(0).restoring.any());
  // Refused by name: a body that does not exist, a second row, a negative stiffness, a
  // missing column.
  CHECK_THROWS_WITH(deck("2  4e5  3e7  5e7"), Catch::Contains("BODY HYDROSTATICS column 1 (BodyID)") &&
                                                  Catch::Contains("a body of BODIES (1..1)"));
  CHECK_THROWS_WITH(deck("1  4e5  3e7  5e7\n1  1 1 1"), Catch::Contains("one row per body"));
  CHECK_THROWS_WITH(deck("1  4e5  -3e7  5e7"),
                    Catch::Contains("BODY HYDROSTATICS column 3 (C44)") && Catch::Contains("-3e7"));
  CHECK_THROWS_WITH(deck("1  4e5  3e7"),
                    Catch::Contains("BODY HYDROSTATICS column 4 (C55)") && Catch::Contains("missing"));
  // On a prescribed body (the library refuses it too).
  BodyModel<double> held = shy_hull(0, 1e6, 0, 0);
  held.kind = BodyKind::coupled;
  MooringSystem<double> hs(Environment{}, "held");
  CHECK_THROWS_WITH(hs.add_body(held),
                    Catch::Contains("hydrostatic restoring") && Catch::Contains("a Free or Pinned body"));
  BodyModel<double> neg = shy_hull(0, 1e6, -1, 0);
  CHECK_THROWS_WITH(hs.add_body(neg), Catch::Contains("hydrostatic C44") && Catch::Contains(">= 0"));
}
