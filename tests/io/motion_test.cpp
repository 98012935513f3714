// The motionFile in its three layouts (MoorDyn's coupled-DOF table t x y z per coupled point,
// t id x y z, t id x y z vx vy vz ax ay az), any sampling: its tracks against a deck, the C2
// interpolation (exact at the samples with given kinematics, the not-a-knot spline exact for
// cubics, observed orders 4, 3, 2 for position, velocity and acceleration), the coverage and
// layout errors; the harmonic fairleadMotion (its velocity and acceleration are the time
// derivatives of its position: central differences converge to them at second order) and the
// path of a file a deck names.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

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
