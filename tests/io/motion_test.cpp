// The motionFile (rows t id x y z vx vy vz ax ay az on the dtM grid), its tracks against a
// deck, the harmonic fairleadMotion (its velocity and acceleration are the time derivatives
// of its position: central differences converge to them at second order) and the path of a
// file a deck names.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "deck_fixtures.hpp"

using namespace cabledyn;
using namespace cabledyn::io;
using namespace deck_fixtures;

namespace {

/// A dynamic deck (dtM 0.5, TMax 1: steps 0, 1, 2) with Fixed point 1, Coupled 2, Vessel 3.
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

}  // namespace

TEST_CASE("motionFile rows", "[motion]") {
  const MotionTable m = parse_motion(
      "# t id x y z vx vy vz ax ay az\n"
      "t id x y z vx vy vz ax ay az\n"
      "(s) (-) (m) (m) (m) (m/s) (m/s) (m/s) (m/s2) (m/s2) (m/s2)\n"
      "0.0 2 5.2 0 -70 0.1 0 0 0 0 0   ! first row\n"
      "\n"
      "0.5 2 5.25 0 -70 0.1 0 0 0 0 0 0  -- a zero roll column\n",
      "m.dat");
  REQUIRE(m.rows.size() == 2);
  CHECK(m.rows[0].line == 4);
  CHECK(m.rows[0].id == 2);
  CHECK(m.rows[0].k.x == std::array<double, 3>{5.2, 0.0, -70.0});
  CHECK(m.rows[0].k.v == std::array<double, 3>{0.1, 0.0, 0.0});
  CHECK(m.rows[1].t == 0.5);
  CHECK(m.rows[1].line == 6);
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
  expect("0 2 1 2 3 4 5 6 7 8\n", 1, "motionFile column 11 (az)", "missing", "t id x y z");
  expect("# header\n0 2 1 2 3 4 5x 6 7 8 9\n", 2, "motionFile column 7 (vy)", "5x", "finite number");
  expect("-1 2 1 2 3 4 5 6 7 8 9\n", 1, "motionFile column 1 (t)", "-1", ">= 0");
  expect("0 2.5 1 2 3 4 5 6 7 8 9\n", 1, "motionFile column 2 (id)", "2.5", "point ID");
  expect("0 2 1 2 3 4 5 6 7 8 9 0.1\n", 1, "motionFile column 12 (extra)", "0.1", "roll column");
  expect("0 2 1 2 3 4 5 6 7 8 nan\n", 1, "motionFile column 11 (az)", "nan", "finite number");
  try {
    (void)read_motion("/nonexistent/motion.dat");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.quantity() == "motionFile");
  }
}

TEST_CASE("motion tracks on the dtM grid", "[motion]") {
  const Deck d = motion_deck();
  REQUIRE(d.options.steps() == 2);
  SECTION("one row per step per point, rows beyond TMax ignored") {
    const std::string text = row(0, 2, 0) + row(0, 3, 1) + row(0.5, 2, 0.5) + row(0.5, 3, 1.5) + row(1.0, 2, 1.0) +
                             row(1.0, 3, 2.0) + row(1.5, 2, 1.5);
    const auto tracks = motion_tracks(parse_motion(text, "m.dat"), d);
    REQUIRE(tracks.size() == 2);
    REQUIRE(tracks.at(2).size() == 3);
    CHECK(tracks.at(2)[2].x[0] == 1.0);
    CHECK(tracks.at(3)[1].x[0] == 1.5);
    CHECK(tracks.at(3)[1].a[2] == -0.01);
  }
  const auto expect = [&](const std::string& text, int line, const std::string& quantity, const std::string& limit) {
    try {
      (void)motion_tracks(parse_motion(text, "m.dat"), d);
      FAIL("no error");
    } catch (const InputError& e) {
      INFO(e.what());
      CHECK(e.object() == "m.dat:" + std::to_string(line));
      CHECK(e.quantity() == quantity);
      CHECK(e.limit().find(limit) != std::string::npos);
    }
  };
  SECTION("errors") {
    expect(row(0, 1, 0), 1, "motionFile column 2 (id)", "Coupled or Vessel point");  // a Fixed point
    expect(row(0, 9, 0), 1, "motionFile column 2 (id)", "Coupled or Vessel point");  // no such point
    expect(row(0, 2, 0) + row(0.25, 2, 0), 2, "motionFile column 1 (t)", "multiple of dtM = 0.5");
    expect(row(0, 2, 0) + row(1.0, 2, 0), 2, "motionFile column 1 (t)", "t = 0.5");        // a missing step
    expect(row(0.5, 2, 0), 1, "motionFile column 1 (t)", "t = 0");                          // no t = 0
    expect(row(0, 2, 0) + row(0.5, 2, 0), 2, "motionFile rows of point 2", "one per step");  // short of TMax
  }
  SECTION("a static deck has no motion") {
    const Deck s = parse_deck("---- LINE TYPES ----\nc 0.1 50 1e8 -1 0 1 0.1 1 0\n---- POINTS ----\n1 Fixed 9 0 -5\n"
                              "2 Coupled 0 0 0\n---- LINES ----\n1 2 1\n---- SECTIONS ----\n1 c 10 2\n",
                              "s.dat");
    CHECK_THROWS_AS(motion_tracks(parse_motion(row(0, 2, 0), "m.dat"), s), InputError);
  }
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
