// The motionFile in its three layouts (MoorDyn's coupled-DOF table t x y z per coupled point,
// t id x y z, t id x y z vx vy vz ax ay az), any sampling: its tracks against a deck, the C2
// interpolation (exact at the samples with given kinematics, the not-a-knot spline exact for
// cubics, observed orders 4, 3, 2 for position, velocity and acceleration), the coverage and
// layout errors; the harmonic fairleadMotion (its velocity and acceleration are the time
// derivatives of its position: central differences converge to them at second order) and the
// path of a file a deck names; the prescribed vessel (vesselRef): its orientation in the
// OrcaFlex convention, its angular velocity and acceleration (against duals), the kinematics
// of the points it carries (against differences), its motionFile layout and harmonic
// rotations, and the requests refused by name.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "cabledyn/autodiff/dual.hpp"
#include "deck_fixtures.hpp"

using namespace cabledyn;
using namespace cabledyn::io;
using namespace deck_fixtures;

namespace {

/// A dynamic deck (dtM 0.5, TMax 1) with Fixed point 1, Coupled 2, Vessel 3.
Deck motion_deck() {
  return parse_deck(
      "---- LINE TYPES ----\nchain 0.09 77.7 3.8e8 -0.8 0 1.6 0.1 1.0 0.0\n"
      "---- POINTS ----\n1 Fixed 400 0 -50\n2 Coupled 0 0 0\n3 Vessel 0 10 0\n"
      "---- LINES ----\n1 2 1\n2 3 1\n---- SECTIONS ----\n1 chain 410 41\n2 chain 410 41\n"
      "---- OPTIONS ----\n0.5 dtM\n1 TMax\nmotion.dat motionFile\n",
      "decks/run/m.dat");
}

std::string row(double t, int id, double x) {
  return std::to_string(t) + " " + std::to_string(id) + " " + std::to_string(x) + " 0 -70  0.1 0 0  0 0 -0.01\n";
}

/// Expects an InputError from motion_tracks(parse_motion(text)) naming m.dat:line.
void expect_error(const std::string& text, const Deck& d, int line, const std::string& quantity, const std::string& limit) {
  try {
    (void)motion_tracks(parse_motion(text, "m.dat"), d, 1.0);
    FAIL("no error");
  } catch (const InputError& e) {
    INFO(e.what());
    CHECK(e.object() == "m.dat:" + std::to_string(line));
    CHECK(e.quantity().find(quantity) != std::string::npos);
    CHECK(e.limit().find(limit) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("motionFile rows", "[motion]") {
  const MotionTable m = parse_motion(
      "# t id x y z vx vy vz ax ay az\n"
      "t id x y z vx vy vz ax ay az\n"
      "(s) (-) (m) (m) (m) (m/s) (m/s) (m/s) (m/s2) (m/s2) (m/s2)\n"
      "0.0 2 5.2 0 -70 0.1 0 0 0 0 0   ! first row\n"
      "\n"
      "0.5,2,5.25,0,-70,0.1,0,0,0,0,0  -- commas separate too\n",
      "m.dat");
  REQUIRE(m.rows.size() == 2);
  CHECK(m.rows[0].line == 4);
  CHECK(m.rows[0].values == std::vector<double>{0.0, 2, 5.2, 0, -70, 0.1, 0, 0, 0, 0, 0});
  CHECK(m.rows[1].values[2] == 5.25);
  CHECK(m.rows[1].line == 6);
  // A CSV with a quoted header, as MoorDyn's own test motions are written.
  const MotionTable c = parse_motion("\"Time\",\"X\",\"Y\",\"Z\"\n0,1360.0,0,-18\n1,1360.0064,0,-18\n", "c.csv");
  REQUIRE(c.rows.size() == 2);
  CHECK(c.rows[1].values[1] == 1360.0064);
}

TEST_CASE("motionFile errors name the file, line and column", "[motion][errors]") {
  const auto expect = [](const std::string& text, int line, const std::string& quantity, const std::string& value,
                         const std::string& limit) {
    try {
      (void)parse_motion(text, "m.dat");
      FAIL("no error");
    } catch (const InputError& e) {
      INFO(e.what());
      CHECK(e.object() == "m.dat:" + std::to_string(line));
      CHECK(e.quantity() == quantity);
      CHECK(e.value() == value);
      CHECK(e.limit().find(limit) != std::string::npos);
    }
  };
  expect("# header\n0 2 1 2 3 4 5x 6 7 8 9\n", 2, "motionFile column 7", "5x", "finite number");
  expect("0 2 1 2 3 4 5 6 7 8 nan\n", 1, "motionFile column 11", "nan", "finite number");
  expect("0 2 1 2 3\n0.5 2 1 2\n", 2, "motionFile row", "4 values", "as many values as the first row (line 1): 5");
  expect("", 1, "motionFile", "no numeric row", "at least one row");
  expect("# only a header\nt x y z\n", 2, "motionFile", "no numeric row", "at least one row");
  for (const char* path : {"/nonexistent/motion.dat", "/tmp"}) {
    try {
      (void)read_motion(path);
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK(e.quantity() == "motionFile");
      CHECK(e.object() == path);
    }
  }
}

TEST_CASE("motion tracks: the three layouts", "[motion]") {
  const Deck d = motion_deck();
  SECTION("t id x y z vx vy vz ax ay az on the dtM grid: the samples exactly, rows beyond TMax kept") {
    const std::string text = row(0, 2, 0) + row(0, 3, 1) + row(0.5, 2, 0.5) + row(0.5, 3, 1.5) + row(1.0, 2, 1.0) +
                             row(1.0, 3, 2.0) + row(1.5, 2, 1.5) + row(1.5, 3, 2.5);
    const MotionTracks m = motion_tracks(parse_motion(text, "m.dat"), d, 1.0);
    CHECK(m.layout == MotionLayout::id_kinematics);
    REQUIRE(m.tracks.size() == 2);
    CHECK(m.find(2)->at(1.0).x[0] == 1.0);
    CHECK(m.find(3)->at(0.5).x[0] == 1.5);
    CHECK(m.find(3)->at(0.5).a[2] == -0.01);
    CHECK(m.find(1) == nullptr);
  }
  SECTION("MoorDyn's coupled-DOF table: t x y z per coupled point, POINTS order, any sampling") {
    // Points 2 and 3 on x = t^3 and y = 10 + t^2 / 2, sampled every 0.3 s (off the dtM grid).
    std::string text = "Time x2 y2 z2 x3 y3 z3\n";
    for (int k = 0; k <= 5; ++k) {
      const double t = 0.3 * k;
      text += std::to_string(t) + " " + std::to_string(t * t * t) + " 0 0 0 " + std::to_string(10 + t * t / 2) + " 0\n";
    }
    const MotionTracks m = motion_tracks(parse_motion(text, "m.dat"), d, 1.0);
    CHECK(m.layout == MotionLayout::moordyn);
    const PointKinematics k2 = m.find(2)->at(0.7), k3 = m.find(3)->at(0.7);
    // The not-a-knot spline reproduces a cubic: position, velocity, acceleration.
    CHECK(k2.x[0] == Approx(0.343).margin(1e-12));
    CHECK(k2.v[0] == Approx(3 * 0.49).margin(1e-11));
    CHECK(k2.a[0] == Approx(6 * 0.7).margin(1e-10));
    CHECK(k3.x[1] == Approx(10 + 0.49 / 2).margin(1e-12));
    CHECK(k3.v[1] == Approx(0.7).margin(1e-11));
    CHECK(k3.a[1] == Approx(1.0).margin(1e-10));
  }
  SECTION("t x y z roll pitch yaw per point, the rotations 0") {
    const std::string text = "0 0 0 0 0 0 0 0 10 0 0 0 0\n1 1 0 0 0 0 0 0 10 0 0 0 0\n";
    const MotionTracks m = motion_tracks(parse_motion(text, "m.dat"), d, 1.0);
    CHECK(m.layout == MotionLayout::moordyn6);
    CHECK(m.find(2)->at(0.25).x[0] == Approx(0.25).epsilon(1e-15));  // two samples: linear
    CHECK(m.find(2)->at(0.25).v[0] == Approx(1.0).epsilon(1e-15));
    CHECK(m.find(3)->at(0.5).x[1] == 10.0);
    expect_error("0 0 0 0 0 0 0 0 10 0 0 0 0\n1 1 0 0 0.1 0 0 0 10 0 0 0 0\n", d, 2, "motionFile column 5",
                 "point 2 has no rotation");
  }
  SECTION("t id x y z: positions of the listed points; the others held") {
    const std::string text = "0 3 0 10 0\n0.4 3 0.4 10 0\n1.2 3 1.2 10 0\n";
    const MotionTracks m = motion_tracks(parse_motion(text, "m.dat"), d, 1.0);
    CHECK(m.layout == MotionLayout::id_positions);
    CHECK(m.find(2) == nullptr);
    CHECK(m.find(3)->at(0.9).x[0] == Approx(0.9).epsilon(1e-14));  // three samples: the parabola (a line here)
  }
}

TEST_CASE("motion tracks: errors name the motionFile line", "[motion][errors]") {
  const Deck d = motion_deck();
  expect_error(row(0, 1, 0) + row(1, 1, 0), d, 1, "motionFile column 2 (id)", "Coupled or Vessel point");  // Fixed
  expect_error(row(0, 9, 0), d, 1, "motionFile column 2 (id)", "Coupled or Vessel point of the deck (2, 3)");
  expect_error(row(0, 2, 0) + row(0.5, 2, 0) + row(0.5, 2, 0), d, 3, "motionFile column 1 (t)", "times increase");
  expect_error(row(0.5, 2, 0) + row(1, 2, 0), d, 1, "first time", "<= 0");
  expect_error(row(0, 2, 0) + row(0.5, 2, 0), d, 2, "last time", ">= the run length 1 s");
  expect_error("0 1 2 3 4 5\n", d, 1, "motionFile row", "7 (t x y z per coupled point, points 2, 3");
  const Deck s = parse_deck("---- LINE TYPES ----\nc 0.1 50 1e8 -1 0 1 0.1 1 0\n---- POINTS ----\n1 Fixed 9 0 -5\n"
                            "2 Fixed 0 0 0\n---- LINES ----\n1 2 1\n---- SECTIONS ----\n1 c 10 2\n",
                            "s.dat");
  expect_error("0 0 0 0\n", s, 1, "motionFile", "a Coupled or Vessel point");
}

TEST_CASE("motion tracks: C2 interpolation of sampled positions converges at orders 4, 3, 2", "[motion]") {
  // x(t) = cos(t) sampled on an uneven grid over [0, 3]: the not-a-knot spline's position,
  // velocity and acceleration errors fall by 16, 8 and 4 when the sampling halves.
  const Deck d = motion_deck();
  double prev[3] = {0, 0, 0};
  for (int n : {20, 40, 80}) {
    std::string text;
    char buf[128];
    for (int i = 0; i <= n; ++i) {
      const double t = i == n ? 3.0 : 3.0 * (i + (i % 2 ? 0.3 : 0.0)) / n;
      std::snprintf(buf, sizeof buf, "%.17g 2 %.17g 0 0\n", t, std::cos(t));
      text += buf;
    }
    const MotionTracks m = motion_tracks(parse_motion(text, "m.dat"), d, 1.0);
    double err[3] = {0, 0, 0};
    for (int k = 0; k <= 600; ++k) {
      const double t = 3.0 * k / 600;
      const PointKinematics q = m.find(2)->at(t);
      err[0] = std::max(err[0], std::fabs(q.x[0] - std::cos(t)));
      err[1] = std::max(err[1], std::fabs(q.v[0] + std::sin(t)));
      err[2] = std::max(err[2], std::fabs(q.a[0] + std::cos(t)));
    }
    if (prev[0] > 0) {
      CHECK(std::log2(prev[0] / err[0]) == Approx(4).margin(0.25));
      CHECK(std::log2(prev[1] / err[1]) == Approx(3).margin(0.25));
      CHECK(std::log2(prev[2] / err[2]) == Approx(2).margin(0.25));
    }
    for (int c = 0; c < 3; ++c) prev[c] = err[c];
  }
  CHECK(prev[0] < 2e-7);
}

TEST_CASE("motion tracks: quintic Hermite through given kinematics is C2 and exact at the samples", "[motion]") {
  std::vector<double> t;
  std::vector<PointKinematics> k;
  for (int i = 0; i <= 10; ++i) {
    PointKinematics p;
    const double ti = 0.3 * i;
    p.x[0] = std::sin(ti);
    p.v[0] = std::cos(ti);
    p.a[0] = -std::sin(ti);
    t.push_back(ti);
    k.push_back(p);
  }
  const MotionTrack tr(t, k);
  for (int i = 0; i <= 10; ++i) {
    CHECK(tr.at(t[i]).x[0] == k[i].x[0]);
    CHECK(tr.at(t[i]).a[0] == Approx(k[i].a[0]).margin(1e-14));
  }
  // Continuity of x, v, a across a sample from both sides.
  const double eps = 1e-9;
  const auto lo = tr.at(0.9 - eps), hi = tr.at(0.9 + eps);
  CHECK(std::fabs(lo.a[0] - hi.a[0]) < 1e-6);
  CHECK(std::fabs(lo.v[0] - hi.v[0]) < 1e-8);
  double e = 0;
  for (int j = 0; j <= 300; ++j) {
    const double s = 0.01 * j;
    e = std::max(e, std::fabs(tr.at(s).x[0] - std::sin(s)));
  }
  CHECK(e < 1e-6);
}

TEST_CASE("harmonic fairlead motion", "[motion]") {
  const FairleadMotion f{MotionMode::surge, 5.0, 10.0, 0.0};
  const double w = 2 * kPi / 10.0;
  SECTION("x = A sin(w t + phase) along the mode's axis") {
    const auto k0 = harmonic_motion(f, 0.0);
    CHECK(k0.x == std::array<double, 3>{0.0, 0.0, 0.0});
    CHECK(k0.v[0] == Approx(5.0 * w).epsilon(1e-15));
    const auto k = harmonic_motion(f, 2.5);  // a quarter period: the crest
    CHECK(k.x[0] == Approx(5.0).epsilon(1e-15));
    CHECK(k.a[0] == Approx(-5.0 * w * w).epsilon(1e-15));
    CHECK(std::fabs(k.v[0]) < 1e-14);
    const auto h = harmonic_motion(FairleadMotion{MotionMode::heave, 3.0, 12.0, 90.0}, 0.0);
    CHECK(h.x[2] == Approx(3.0).epsilon(1e-15));  // phase 90 deg starts at the crest
    CHECK(h.x[0] == 0.0);
    CHECK(harmonic_motion(FairleadMotion{MotionMode::sway, 1.0, 4.0, 0.0}, 1.0).x[1] == Approx(1.0).epsilon(1e-15));
  }
  SECTION("v and a are the time derivatives: central differences converge at second order") {
    const FairleadMotion g{MotionMode::heave, 2.0, 7.0, 30.0};
    const double t = 1.3;
    double err_prev = 0, order = 0;
    for (double h : {0.02, 0.01}) {
      const auto p = harmonic_motion(g, t + h), m = harmonic_motion(g, t - h), c = harmonic_motion(g, t);
      const double dv = std::fabs((p.x[2] - m.x[2]) / (2 * h) - c.v[2]);
      const double da = std::fabs((p.v[2] - m.v[2]) / (2 * h) - c.a[2]);
      const double err = std::max(dv, da);
      if (err_prev > 0) order = std::log2(err_prev / err);
      err_prev = err;
    }
    CHECK(err_prev < 1e-4);
    CHECK(order == Approx(2.0).margin(0.05));  // observed order 2 of the central difference
  }
}

TEST_CASE("files a deck names are relative to its folder", "[motion]") {
  const Deck d = motion_deck();
  CHECK(deck_relative_path(d, *d.options.motionFile) == "decks/run/motion.dat");
  CHECK(deck_relative_path(d, "/abs/motion.dat") == "/abs/motion.dat");
  CHECK(deck_relative_path(parse_deck(read_text(own_deck("moordyn_stock.dat")), "stock.dat"), "m.dat") == "m.dat");
}

namespace {

/// A dynamic deck: two cables (EI > 0) from a vessel's Coupled points 2 and 3 to anchors,
/// the vessel's reference point at (0, 0, -10); `options` appended to the OPTIONS.
Deck vessel_deck(const std::string& options, const std::string& extra = "") {
  return parse_deck(
      "---- LINE TYPES ----\ncable 0.09 77.7 3.8e8 -0.8 1e4 1.6 0.1 1.0 0.0\n"
      "---- POINTS ----\n1 Fixed 400 0 -100\n2 Coupled 20 0 -10\n3 Vessel 0 -20 -10\n4 Fixed 0 -400 -100\n"
      "---- LINES ----\n1 2 1\n2 3 4\n---- SECTIONS ----\n1 cable 410 20\n2 cable 410 20\n" + extra +
          "---- OPTIONS ----\n100 WtrDpth\n0.5 dtM\n20 TMax\n0 vesselRef 0 -10\n" + options,
      "decks/run/v.dat");
}

Vec3<double> v3(const std::array<double, 3>& a) { return Vec3<double>(a[0], a[1], a[2]); }

}  // namespace

TEST_CASE("vessel orientation: the OrcaFlex convention R = Rz(yaw) Ry(pitch) Rx(roll)", "[motion][vessel]") {
  const double r = 0.3, p = -0.2, y = 1.1;
  const Mat3<double> R = rotation_zyx(r, p, y);
  // The product of the three elementary turns about the global axes, applied x first.
  const Mat3<double> ref = so3_exp(Vec3<double>(0, 0, y)) * so3_exp(Vec3<double>(0, p, 0)) * so3_exp(Vec3<double>(r, 0, 0));
  CHECK((R - ref).cwiseAbs().maxCoeff() < 1e-15);
  CHECK((R * R.transpose() - Mat3<double>::Identity()).cwiseAbs().maxCoeff() < 1e-15);
  // Yaw 90 degrees turns the bow (x) onto y; pitch 90 degrees turns it down onto -z; roll 90
  // degrees turns the port side (y) up onto z.
  CHECK((rotation_zyx(0.0, 0.0, kPi / 2) * Vec3<double>::UnitX() - Vec3<double>::UnitY()).norm() < 1e-15);
  CHECK((rotation_zyx(0.0, kPi / 2, 0.0) * Vec3<double>::UnitX() + Vec3<double>::UnitZ()).norm() < 1e-15);
  CHECK((rotation_zyx(kPi / 2, 0.0, 0.0) * Vec3<double>::UnitY() - Vec3<double>::UnitZ()).norm() < 1e-15);
  // Not MoorDyn's body convention Rx Ry Rz: the two differ once two angles are nonzero.
  CHECK((rotation_xyz(r, p, y) - R).cwiseAbs().maxCoeff() > 0.05);
}

TEST_CASE("vessel angular velocity and acceleration are the exact rates of R (duals)", "[motion][vessel]") {
  // Angles as functions of a dual time t; w from skew(w) = R' R^T, alpha from the dual rate of w.
  using D = Dual<double, 1>;
  const double t0 = 0.7;
  const D t(t0, 1, 0);
  auto angles = [](const D& s) {  // roll, pitch, yaw and their first and second rates
    using std::cos;
    using std::sin;
    Vec3<D> a(0.3 * sin(1.1 * s), -0.2 + 0.4 * cos(0.8 * s), 1.0 + 0.5 * s * s);
    Vec3<D> ad(0.33 * cos(1.1 * s), -0.32 * sin(0.8 * s), D(1.0) * s);
    Vec3<D> add(-0.363 * sin(1.1 * s), -0.256 * cos(0.8 * s), D(1.0));
    return std::array<Vec3<D>, 3>{a, ad, add};
  };
  const auto A = angles(t);
  const Mat3<D> R = rotation_zyx(A[0](0), A[0](1), A[0](2));
  Mat3<double> Rv, Rd;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Rv(i, j) = R(i, j).value(), Rd(i, j) = R(i, j).derivatives()(0);
  const Mat3<double> W = Rd * Rv.transpose();
  Vec3<D> w, alpha;
  rates_zyx(A[0], A[1], A[2], w, alpha);
  CHECK(std::fabs(W(2, 1) - w(0).value()) < 1e-14);
  CHECK(std::fabs(W(0, 2) - w(1).value()) < 1e-14);
  CHECK(std::fabs(W(1, 0) - w(2).value()) < 1e-14);
  CHECK((W + W.transpose()).cwiseAbs().maxCoeff() < 1e-14);  // skew: R stays a rotation
  for (int c = 0; c < 3; ++c) CHECK(std::fabs(w(c).derivatives()(0) - alpha(c).value()) < 1e-14);
  CHECK(alpha.norm().value() > 0.3);  // every term of alpha exercised
}

TEST_CASE("vessel: the points it carries move with it (differences converge to the kinematics)", "[motion][vessel]") {
  // A vessel track from a table: surge 1 m and yaw, pitch and roll of a few degrees.
  std::string text = "t x y z roll pitch yaw\n";
  for (int k = 0; k <= 40; ++k) {
    const double t = 0.5 * k;
    text += std::to_string(t) + " " + std::to_string(std::sin(0.3 * t)) + " 0 " + std::to_string(-10 + 0.2 * std::cos(0.5 * t)) +
            " " + std::to_string(0.05 * std::sin(0.4 * t)) + " " + std::to_string(0.03 * t / 20) + " " +
            std::to_string(0.2 * std::sin(0.2 * t)) + "\n";
  }
  const Deck d = vessel_deck("motion.dat motionFile\n");
  REQUIRE(d.options.vesselRef);
  const MotionTracks m = motion_tracks(parse_motion(text, "m.dat"), d, 20.0);
  REQUIRE(m.vessel);
  CHECK(m.tracks.empty());
  // Point 3 (offset (0, -20, 0) from the reference point) at t: x = r + R p.
  const double t = 7.3;
  const EndMotion k = prescribed_point_motion(d, &m, 3, t, true);
  const VesselKinematics V = m.vessel->at(t);
  CHECK((k.x - (V.r + V.R * Vec3<double>(0, -20, 0))).norm() < 1e-13);
  const auto ang = m.vessel->angles.at(t);
  CHECK((V.R - rotation_zyx(ang.x[0], ang.x[1], ang.x[2])).cwiseAbs().maxCoeff() < 1e-15);
  // The distance between two carried points is constant: a rigid vessel.
  const double d0 = (prescribed_point_motion(d, &m, 2, 0.0, true).x - prescribed_point_motion(d, &m, 3, 0.0, true).x).norm();
  for (double s : {3.0, 11.2, 19.9})
    CHECK((prescribed_point_motion(d, &m, 2, s, true).x - prescribed_point_motion(d, &m, 3, s, true).x).norm() ==
          Approx(d0).epsilon(1e-13));
  // v and a: central differences of x and v converge to them at second order.
  double prev = 0, order = 0;
  for (double h : {0.02, 0.01}) {
    const EndMotion p = prescribed_point_motion(d, &m, 3, t + h, true), q = prescribed_point_motion(d, &m, 3, t - h, true);
    const double err = std::max(((p.x - q.x) / (2 * h) - k.v).norm(), ((p.v - q.v) / (2 * h) - k.a).norm());
    if (prev > 0) order = std::log2(prev / err);
    prev = err;
  }
  CHECK(k.v.norm() > 0.1);
  CHECK(prev < 1e-4);
  CHECK(order == Approx(2.0).margin(0.1));
  // A Fixed point is not carried.
  CHECK((prescribed_point_motion(d, &m, 1, t, true).x - Vec3<double>(400, 0, -100)).norm() == 0.0);
}

TEST_CASE("vessel: harmonic rotations about the reference point, ramped from rest", "[motion][vessel]") {
  // Yaw 10 degrees, period 20 s: point 2 (20 m ahead of the reference point) swings on a circle.
  const Deck d = vessel_deck("yaw fairleadMotion 10 20\n");
  const Vec3<double> ref(0, 0, -10);
  CHECK((prescribed_point_motion(d, nullptr, 2, 0.0, true).x - Vec3<double>(20, 0, -10)).norm() < 1e-15);
  for (double t : {25.0, 27.5, 31.0}) {  // after the ramp (one period)
    const EndMotion k = prescribed_point_motion(d, nullptr, 2, t, true);
    const double psi = 10 * kPi / 180 * std::sin(2 * kPi * t / 20);
    CHECK((k.x - (ref + 20 * Vec3<double>(std::cos(psi), std::sin(psi), 0))).norm() < 1e-12);
    CHECK((k.x - ref).norm() == Approx(20).epsilon(1e-14));
    CHECK(std::fabs((k.x - ref).dot(k.v)) < 1e-10);  // the velocity is tangent to the circle
  }
  // A static run holds the vessel at its reference pose.
  CHECK((prescribed_point_motion(d, nullptr, 2, 27.5, false).x - Vec3<double>(20, 0, -10)).norm() == 0.0);
  // Surge with a vessel translates every point as without one.
  const Deck s = vessel_deck("surge fairleadMotion 2 10\n");
  for (double t : {3.0, 14.0}) {
    const EndMotion k = prescribed_point_motion(s, nullptr, 3, t, true);
    EndMotion plain;
    plain.x = Vec3<double>(0, -20, -10);
    add_harmonic_motion(s, t, plain);
    CHECK((k.x - plain.x).norm() < 1e-14);
    CHECK((k.v - plain.v).norm() < 1e-14);
    CHECK((k.a - plain.a).norm() < 1e-14);
  }
}

TEST_CASE("vessel: the deck round trip and the requests refused by name", "[motion][vessel][errors]") {
  const Deck d = vessel_deck("pitch fairleadMotion 3 12 45\n");
  CHECK(v3(*d.options.vesselRef) == Vec3<double>(0, 0, -10));
  CHECK(d.options.fairleadMotion->mode == MotionMode::pitch);
  const Deck back = parse_deck(to_text(d), "back.dat");
  CHECK(back.options.vesselRef == d.options.vesselRef);
  CHECK(back.options.fairleadMotion == d.options.fairleadMotion);
  // A rotation without a vessel.
  CHECK_THROWS_WITH(parse_deck("---- LINE TYPES ----\nchain 0.09 77.7 3.8e8 -0.8 0 1.6 0.1 1.0 0.0\n"
                               "---- POINTS ----\n1 Fixed 400 0 -100\n2 Coupled 20 0 -10\n---- LINES ----\n1 2 1\n"
                               "---- SECTIONS ----\n1 chain 410 20\n---- OPTIONS ----\n100 WtrDpth\nroll fairleadMotion 2 10\n",
                               "r.dat"),
                    Catch::Contains("fairleadMotion mode") && Catch::Contains("roll") && Catch::Contains("vesselRef"));
  // A vessel without a point to carry; a vessel reference of two values.
  CHECK_THROWS_WITH(parse_deck("---- LINE TYPES ----\nchain 0.09 77.7 3.8e8 -0.8 0 1.6 0.1 1.0 0.0\n"
                               "---- POINTS ----\n1 Fixed 400 0 -100\n2 Free 20 0 -10\n---- LINES ----\n1 2 1\n"
                               "---- SECTIONS ----\n1 chain 410 20\n---- OPTIONS ----\n100 WtrDpth\n0 vesselRef 0 -10\n",
                               "n.dat", ReadOptions{.accept_unsupported = true}),
                    Catch::Contains("vesselRef") && Catch::Contains("no Coupled/Vessel point"));
  CHECK_THROWS_WITH(vessel_deck("1 vesselRef 2\n"), Catch::Contains("vesselRef"));
  // The vessel's motionFile layout: 7 values per row; angles continuous.
  const Deck m = vessel_deck("motion.dat motionFile\n");
  CHECK_THROWS_WITH(motion_tracks(parse_motion("0 0 0 -10 0 0\n20 0 0 -10 0 0\n", "m.dat"), m, 20.0),
                    Catch::Contains("m.dat:1") && Catch::Contains("7: t x y z roll pitch yaw"));
  CHECK_THROWS_WITH(motion_tracks(parse_motion("0 0 0 -10 0 0 3.1\n20 0 0 -10 0 0 -3.1\n", "m.dat"), m, 20.0),
                    Catch::Contains("m.dat:2") && Catch::Contains("unwrap"));
  CHECK_THROWS_WITH(motion_tracks(parse_motion("0 0 0 -10 0 0 0\n10 0 0 -10 0 0 0\n", "m.dat"), m, 20.0),
                    Catch::Contains("vessel last time") && Catch::Contains(">= the run length 20"));
  CHECK_NOTHROW(check_vessel(m));
  // A Rigid end at a point the vessel turns: refused (its direction does not turn with it).
  const Deck rigid = vessel_deck("motion.dat motionFile\n",
                                 "---- END CONNECTIONS ----\nLineID End Stiffness EzX EzY EzZ\n1 A Rigid 1 0 0\n");
  CHECK_THROWS_AS(check_vessel(rigid), NotImplementedError);
  CHECK_THROWS_WITH(check_vessel(rigid), Catch::Contains("END CONNECTIONS line 1") && Catch::Contains("vessel point 2"));
  // ... but allowed while the vessel only translates.
  CHECK_NOTHROW(check_vessel(vessel_deck("heave fairleadMotion 1 10\n",
                                         "---- END CONNECTIONS ----\nLineID End Stiffness EzX EzY EzZ\n1 A Rigid 1 0 0\n")));
}
