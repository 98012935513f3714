// The C API (capi/include/cabledyn_c.h): a host drives the coupled points of a deck with
// free points; its forces equal those of the C++ SystemSimulation bit for bit; save and load
// restart bit for bit; every failure is a status with a message naming the object, never an
// exception across the boundary.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "cabledyn/io/system_runner.hpp"
#include "cabledyn/io/system_simulation.hpp"
#include "cabledyn_c.h"
#include "support/crossings.hpp"

namespace {

const std::string ca_deck = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/bridle.dat";

// The platform's motion: surge 2 m at 8 s, both fairleads.
void ca_motion(double t, const std::vector<double>& x0, std::vector<double>& x, std::vector<double>& v) {
  const double w = 2 * 3.141592653589793 / 8, a = 2.0 * (1 - std::cos(0.25 * w * std::min(t, 4.0)));
  for (std::size_t c = 0; c < x0.size() / 3; ++c) {
    x[3 * c] = x0[3 * c] + a * std::sin(w * t);
    x[3 * c + 1] = x0[3 * c + 1];
    x[3 * c + 2] = x0[3 * c + 2];
    v[3 * c] = a * w * std::cos(w * t);
    v[3 * c + 1] = v[3 * c + 2] = 0;
  }
}

}  // namespace

TEST_CASE("A host drives a deck with free points through the C API, as the C++ API does, bit for bit", "[capi]") {
  cabledyn_system* s = nullptr;
  REQUIRE(cabledyn_create(ca_deck.c_str(), &s) == CABLEDYN_OK);
  int n = 0;
  REQUIRE(cabledyn_coupled_dofs(s, &n) == CABLEDYN_OK);
  REQUIRE(n == 6);
  const std::vector<double> x0{40, 15, -10, 40, -15, -10};
  std::vector<double> x = x0, v(6, 0.0), f(6), fc(6);
  REQUIRE(cabledyn_init(s, x.data(), v.data()) == CABLEDYN_OK);

  auto cpp = cabledyn::io::SystemSimulation::from_file(ca_deck);
  cpp->initialize(x.data(), v.data());
  double t = 0;
  const double dt = 0.05;
  std::vector<double> f_mid;
  for (int k = 1; k <= 100; ++k) {
    ca_motion(k * dt, x0, x, v);
    double tc = t;
    REQUIRE(cabledyn_step(s, x.data(), v.data(), f.data(), &t, dt) == CABLEDYN_OK);
    cpp->step(x.data(), v.data(), tc, dt, fc.data());
    REQUIRE(std::memcmp(f.data(), fc.data(), sizeof(double) * 6) == 0);
    if (k == 50) REQUIRE(cabledyn_save(s, (ca_deck + ".test_state").c_str()) == CABLEDYN_OK);
  }
  CHECK(t == Approx(5.0));
  // The platform pulls: the fairlead forces point toward the anchor side and down.
  CHECK(f[0] < 0);
  CHECK(f[2] < 0);
  double r[3];
  REQUIRE(cabledyn_point_position(s, 3, r) == CABLEDYN_OK);
  CHECK(r[2] < -10);
  const std::vector<double> f_end = f;
  // Load the state of step 50 and repeat: bit for bit.
  REQUIRE(cabledyn_load(s, (ca_deck + ".test_state").c_str()) == CABLEDYN_OK);
  t = 2.5;
  for (int k = 51; k <= 100; ++k) {
    ca_motion(k * dt, x0, x, v);
    REQUIRE(cabledyn_step(s, x.data(), v.data(), f.data(), &t, dt) == CABLEDYN_OK);
  }
  CHECK(std::memcmp(f.data(), f_end.data(), sizeof(double) * 6) == 0);
  // The line-end and point queries agree with each other (one line on each fairlead), and with
  // the coupled forces up to the end nodes' inertia, which the coupled load includes and the
  // line-end force (FairTen's) does not.
  double fa[3], fb[3], fp[3];
  REQUIRE(cabledyn_line_end_force(s, 3, 1, fa) == CABLEDYN_OK);
  REQUIRE(cabledyn_point_force(s, 4, fp) == CABLEDYN_OK);
  for (int c = 0; c < 3; ++c) CHECK(fa[c] == fp[c]);
  REQUIRE(cabledyn_line_end_force(s, 4, 1, fb) == CABLEDYN_OK);
  double gap = 0;
  for (int c = 0; c < 3; ++c) {
    CHECK(std::fabs(fp[c] - f[c]) <= 0.02 * std::fabs(f[2]));
    CHECK(std::fabs(fb[c] - f[3 + c]) <= 0.02 * std::fabs(f[5]));
    gap = std::max(gap, std::fabs(fp[c] - f[c]));
  }
  CHECK(gap > 0);
  std::remove((ca_deck + ".test_state").c_str());
  cabledyn_close(s);
}

TEST_CASE("The C API returns statuses and named messages, never exceptions", "[capi]") {
  cabledyn_system* s = nullptr;
  CHECK(cabledyn_create("/nonexistent/deck.dat", &s) == CABLEDYN_INPUT_ERROR);
  CHECK(s == nullptr);
  CHECK_THAT(std::string(cabledyn_last_error(nullptr)), Catch::Contains("/nonexistent/deck.dat"));
  CHECK(cabledyn_create(nullptr, &s) == CABLEDYN_INPUT_ERROR);
  REQUIRE(cabledyn_create(ca_deck.c_str(), &s) == CABLEDYN_OK);
  double f[6] = {0}, t = 0;
  const double x[6] = {40, 15, -10, 40, -15, -10}, v[6] = {0};
  CHECK(cabledyn_step(s, x, v, f, &t, 0.05) == CABLEDYN_INPUT_ERROR);  // before init
  CHECK_THAT(std::string(cabledyn_last_error(s)), Catch::Contains("not initialised"));
  REQUIRE(cabledyn_init(s, x, v) == CABLEDYN_OK);
  CHECK(cabledyn_step(s, x, v, f, &t, -1.0) == CABLEDYN_INPUT_ERROR);
  CHECK_THAT(std::string(cabledyn_last_error(s)), Catch::Contains("dt = -1"));
  double r[3];
  CHECK(cabledyn_point_position(s, 99, r) == CABLEDYN_INPUT_ERROR);
  CHECK_THAT(std::string(cabledyn_last_error(s)), Catch::Contains("point ID = 99"));
  CHECK(cabledyn_load(s, ca_deck.c_str()) == CABLEDYN_INPUT_ERROR);  // not a state file
  CHECK_THAT(std::string(cabledyn_last_error(s)), Catch::Contains("not a cabledyn system state"));
  CHECK(cabledyn_step(s, x, v, f, &t, 0.05) == CABLEDYN_OK);  // nothing lost
  CHECK(cabledyn_close(s) == CABLEDYN_OK);
  CHECK(cabledyn_close(nullptr) == CABLEDYN_OK);
}

TEST_CASE("A host's notes: the deck's ignored options and its prescribed motion, which the host replaces",
          "[capi]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_capi_notes";
  fs::create_directories(dir);
  std::ifstream in(ca_deck);
  std::string deck((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string at = "0.05         dtM\n";
  REQUIRE(deck.find(at) != std::string::npos);
  // A vessel carries both fairleads and heaves; the deck asks for RK4 and a configuration blend.
  deck.replace(deck.find(at), at.size(),
               at + "rk4          tScheme\n0 0 -10      vesselRef\nheave 1 10   fairleadMotion\n"
                    "False        alpha_force_blend\n2            nModes\n");
  const std::string path = (dir / "noted.dat").string();
  std::ofstream(path) << deck;
  cabledyn_system* s = nullptr;
  REQUIRE(cabledyn_create(path.c_str(), &s) == CABLEDYN_OK);
  int n = -1;
  REQUIRE(cabledyn_note_count(s, &n) == CABLEDYN_OK);
  std::vector<std::string> notes;
  for (int i = 0; i < n; ++i) {
    const char* t = nullptr;
    REQUIRE(cabledyn_note(s, i, &t) == CABLEDYN_OK);
    notes.emplace_back(t);
  }
  auto count = [&](const char* a, const char* b) {
    int c = 0;
    for (const auto& x : notes) c += x.find(a) != std::string::npos && x.find(b) != std::string::npos;
    return c;
  };
  CHECK(count("vesselRef", "does not apply to a host's run") == 1);
  CHECK(count("fairleadMotion", "does not apply to a host's run") == 1);
  CHECK(count("motionFile", "does not apply") == 0);  // the deck has none
  CHECK(count("tScheme", "ignored") == 1);
  CHECK(count("alpha_force_blend", "does not apply") == 0);  // the configuration blend applies
  CHECK(count("nModes", "does not apply to a host's run") == 1);
  const char* t = nullptr;
  CHECK(cabledyn_note(s, n, &t) == CABLEDYN_INPUT_ERROR);
  CHECK_THAT(std::string(cabledyn_last_error(s)), Catch::Contains("cabledyn_note") && Catch::Contains("i = "));
  CHECK(cabledyn_note_count(s, nullptr) == CABLEDYN_INPUT_ERROR);
  CHECK(cabledyn_close(s) == CABLEDYN_OK);
  // The bridle deck itself: no motion, nothing of the host's run to note.
  REQUIRE(cabledyn_create(ca_deck.c_str(), &s) == CABLEDYN_OK);
  REQUIRE(cabledyn_note_count(s, &n) == CABLEDYN_OK);
  for (int i = 0; i < n; ++i) {
    REQUIRE(cabledyn_note(s, i, &t) == CABLEDYN_OK);
    CHECK(std::string(t).find("host's run") == std::string::npos);
  }
  CHECK(cabledyn_close(s) == CABLEDYN_OK);
  fs::remove_all(dir);
}

TEST_CASE("The same deck through the driver's system route and through the C API: the same forces, bit for bit",
          "[capi][driver]") {
  namespace fs = std::filesystem;
  const std::string deck_path = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/bridle_driver.dat";
  const fs::path dir = fs::temp_directory_path() / "cabledyn_capi_driver_test";
  fs::create_directories(dir);
  cabledyn::io::ReadOptions ro;
  ro.accept_unsupported = true;
  const cabledyn::io::Deck deck = cabledyn::io::read_deck(deck_path, ro);
  cabledyn::io::RunSettings set;
  set.root = (dir / "bridle").string();
  set.log = nullptr;
  set.progress = false;
  cabledyn::io::SystemRunner run(deck, set);
  run.run();
  REQUIRE(run.times().size() == 101);
  CHECK(fs::exists(dir / "bridle.out"));
  CHECK(fs::exists(dir / "bridle.summary.txt"));

  // The host: the deck's fairlead motion, point by point, through the C API.
  cabledyn_system* s = nullptr;
  REQUIRE(cabledyn_create(deck_path.c_str(), &s) == CABLEDYN_OK);
  std::vector<double> x(6), v(6), f(6);
  auto kin = [&](double t) {
    for (int c = 0; c < 2; ++c) {
      const auto m = cabledyn::io::prescribed_point_motion(deck, nullptr, 4 + c, t, true);
      for (int i = 0; i < 3; ++i) x[3 * c + i] = m.x(i), v[3 * c + i] = m.v(i);
    }
  };
  kin(0.0);
  REQUIRE(cabledyn_init(s, x.data(), v.data()) == CABLEDYN_OK);
  const int fair3 = deck.tension_end(3, true), anch3 = deck.tension_end(3, false), fair4 = deck.tension_end(4, true);
  double t = 0;
  double moved = 0;
  for (std::size_t k = 0; k < run.times().size(); ++k) {
    if (k > 0) {
      kin(run.times()[k]);
      REQUIRE(cabledyn_step(s, x.data(), v.data(), f.data(), &t, 0.05) == CABLEDYN_OK);
    }
    double a[3], b[3], c4[3], p3[3], p4[3];
    cabledyn_line_end_force(s, 3, fair3, a);
    cabledyn_line_end_force(s, 3, anch3, b);
    cabledyn_line_end_force(s, 4, fair4, c4);
    cabledyn_point_position(s, 3, p3);
    cabledyn_point_force(s, 4, p4);
    const auto& row = run.channel_rows()[k];
    CHECK(row[0] == std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]));
    CHECK(row[1] == std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]));
    CHECK(row[2] == std::sqrt(c4[0] * c4[0] + c4[1] * c4[1] + c4[2] * c4[2]));
    CHECK(row[3] == p3[2]);
    CHECK(row[4] == p4[0]);
    moved = std::max(moved, std::fabs(row[0] - run.channel_rows()[0][0]));
  }
  CHECK(moved > 1e3);  // the surge changes the leg's tension by kilonewtons
  cabledyn_close(s);
  fs::remove_all(dir);
}

TEST_CASE("A coupled body: the driver's system route and a host through the C API give the same loads, bit for bit; "
          "save and load restart bit for bit",
          "[capi][driver][bodies]") {
  namespace fs = std::filesystem;
  const std::string deck_path = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/coupled_body.dat";
  const fs::path dir = fs::temp_directory_path() / "cabledyn_capi_body_test";
  fs::create_directories(dir);
  cabledyn::io::ReadOptions ro;
  ro.accept_unsupported = true;
  const cabledyn::io::Deck deck = cabledyn::io::read_deck(deck_path, ro);
  cabledyn::io::RunSettings set;
  set.root = (dir / "body").string();
  set.log = nullptr;
  set.progress = false;
  cabledyn::io::SystemRunner run(deck, set);
  run.run();
  REQUIRE(run.times().size() == 41);

  cabledyn_system* s = nullptr;
  REQUIRE(cabledyn_create(deck_path.c_str(), &s) == CABLEDYN_OK);
  int n = 0, np = -1, nb = -1;
  REQUIRE(cabledyn_coupled_dofs(s, &n) == CABLEDYN_OK);
  REQUIRE(cabledyn_coupled_objects(s, &np, &nb) == CABLEDYN_OK);
  CHECK(n == 6);
  CHECK(np == 0);
  CHECK(nb == 1);
  std::vector<double> x0(6), x(6), v(6), f(6);
  REQUIRE(cabledyn_coupled_deck_positions(s, x0.data()) == CABLEDYN_OK);
  CHECK(x0[5] == Approx(10 * 3.14159265358979323846 / 180));
  auto kin = [&](double t) {
    cabledyn::EndMotion m;
    m.x = cabledyn::Vec3<double>(x0[0], x0[1], x0[2]);
    cabledyn::io::add_harmonic_motion(deck, t, m);
    for (int i = 0; i < 3; ++i) x[i] = m.x(i), v[i] = m.v(i), x[3 + i] = x0[3 + i], v[3 + i] = 0;
  };
  kin(0.0);
  REQUIRE(cabledyn_init(s, x.data(), v.data()) == CABLEDYN_OK);
  const int fair1 = deck.tension_end(1, true), fair3 = deck.tension_end(3, true);
  double t = 0, moved = 0;
  const fs::path state = dir / "state.bin";
  std::vector<double> f_saved;
  for (std::size_t k = 0; k < run.times().size(); ++k) {
    if (k > 0) {
      kin(run.times()[k]);
      REQUIRE(cabledyn_step(s, x.data(), v.data(), f.data(), &t, 0.1) == CABLEDYN_OK);
    }
    if (k == 20) REQUIRE(cabledyn_save(s, state.string().c_str()) == CABLEDYN_OK);
    if (k == 30) f_saved = f;
    double a[3], b[3], load[6], pose[6], p7[3];
    cabledyn_line_end_force(s, 1, fair1, a);
    cabledyn_line_end_force(s, 3, fair3, b);
    cabledyn_body_load(s, 1, load);
    cabledyn_body_pose(s, 1, pose);
    cabledyn_point_position(s, 7, p7);
    const auto& row = run.channel_rows()[k];
    CHECK(row[0] == std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]));
    CHECK(row[1] == std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]));
    CHECK(row[2] == load[0]);
    CHECK(row[3] == load[5]);
    CHECK(row[4] == pose[0]);
    CHECK(row[5] == pose[4] * 180 / 3.14159265358979323846);
    CHECK(row[6] == p7[2]);
    if (k > 0) CHECK(f[0] == load[0]);  // the step's returned load is the body's
    moved = std::max(moved, std::fabs(row[2] - run.channel_rows()[0][2]));
  }
  CHECK(moved > 1e3);
  // The body's net line load balances nothing here (a coupled body): its yaw moment comes from
  // the turned fairleads.
  CHECK(std::fabs(run.channel_rows()[0][3]) > 1.0);
  // Restart: load the state of step 20 and repeat steps 21..30.
  REQUIRE(cabledyn_load(s, state.string().c_str()) == CABLEDYN_OK);
  t = run.times()[20];
  for (std::size_t k = 21; k <= 30; ++k) {
    kin(run.times()[k]);
    REQUIRE(cabledyn_step(s, x.data(), v.data(), f.data(), &t, 0.1) == CABLEDYN_OK);
  }
  for (int i = 0; i < 6; ++i) CHECK(f[static_cast<std::size_t>(i)] == f_saved[static_cast<std::size_t>(i)]);
  cabledyn_close(s);
  fs::remove_all(dir);
}

TEST_CASE("Coupled DOFs in MoorDyn's order: bodies first, then points", "[capi][bodies]") {
  const std::string deck_path = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/body_and_point.dat";
  cabledyn_system* s = nullptr;
  REQUIRE(cabledyn_create(deck_path.c_str(), &s) == CABLEDYN_OK);
  int n = 0, np = 0, nb = 0;
  cabledyn_coupled_dofs(s, &n);
  cabledyn_coupled_objects(s, &np, &nb);
  CHECK(n == 9);
  CHECK(np == 1);
  CHECK(nb == 1);
  std::vector<double> x(9), v(9, 0.0), f(9);
  REQUIRE(cabledyn_coupled_deck_positions(s, x.data()) == CABLEDYN_OK);
  CHECK(x[5] == Approx(10 * 3.14159265358979323846 / 180));  // the body's yaw
  CHECK(x[6] == 180);                                          // the point's x
  CHECK(x[8] == -110);
  REQUIRE(cabledyn_init(s, x.data(), v.data()) == CABLEDYN_OK);
  double t = 0;
  x[0] += 0.01;
  x[6] += 0.01;
  REQUIRE(cabledyn_step(s, x.data(), v.data(), f.data(), &t, 0.1) == CABLEDYN_OK);
  double load[6], p7[3];
  cabledyn_body_load(s, 1, load);
  cabledyn_point_force(s, 7, p7);
  for (int k = 0; k < 6; ++k) CHECK(f[static_cast<std::size_t>(k)] == load[k]);
  // The point's coupled load is its line's end force less the end node's inertia.
  for (int k = 0; k < 3; ++k) CHECK(std::fabs(f[6 + static_cast<std::size_t>(k)] - p7[k]) <= 0.02 * std::fabs(p7[2]));
  double r[3];
  cabledyn_point_position(s, 7, r);
  CHECK(r[0] == 180.01);
  cabledyn_close(s);
}

TEST_CASE("System campaign findings: a failed init leaves the handle uninitialised; an edge-of-slack line statics is retried",
          "[capi][robustness]") {
  // Seed 0: the buoy lifts line 1 above the still water and rises out of it (lines lose their
  // buoyancy above the surface; a point's buoyancy there is not modelled). init is refused by
  // name and the handle stays usable and uninitialised (it crashed the driver's summary
  // before).
  const std::string lifted = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/buoy_lifts_line.dat";
  cabledyn_system* s = nullptr;
  REQUIRE(cabledyn_create(lifted.c_str(), &s) == CABLEDYN_OK);
  const double x[3] = {0, 0, -6.131}, v[3] = {0, 0, 0};
  double xs[3];
  std::memcpy(xs, x, sizeof x);
  {
    cabledyn::io::ReadOptions ro;
    ro.accept_unsupported = true;
    const auto d = cabledyn::io::read_deck(lifted, ro);
    for (int i = 0; i < 3; ++i) xs[i] = d.find_point(3)->r[static_cast<std::size_t>(i)];
  }
  CHECK(cabledyn_init(s, xs, v) == CABLEDYN_NOT_IMPLEMENTED);
  CHECK_THAT(std::string(cabledyn_last_error(s)), Catch::Contains("Point 2 (deck point 2)") && Catch::Contains("above the still water"));
  double f[3], t = 0, r[3];
  CHECK(cabledyn_step(s, xs, v, f, &t, 0.05) == CABLEDYN_INPUT_ERROR);
  CHECK(cabledyn_point_position(s, 2, r) == CABLEDYN_INPUT_ERROR);
  cabledyn_close(s);
  // Seed 2: the central difference of the point balance meets a buoy position where line 1's
  // statics has no solution; it is retried one-sided and the statics converge.
  const std::string edge = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/edge_of_slack.dat";
  auto sim = cabledyn::io::SystemSimulation::from_file(edge);
  for (int i = 0; i < 3; ++i) xs[i] = sim->deck().find_point(3)->r[static_cast<std::size_t>(i)];
  REQUIRE_NOTHROW(sim->initialize(xs, v));
  CHECK(sim->statics().residual <= 1e-8 * sim->statics().scale);
}

TEST_CASE("A CoupledPinned body: a pendulum on an accelerating cart swings about atan(-a/g) with the physical "
          "pendulum's period, and the host feels its weight and m a",
          "[capi][bodies]") {
  // tests/capi/decks/pinned_cart.dat: a massless CoupledPinned body, a 10 m rod of 5 t/m and
  // 2 m diameter hanging from the pin, in a vacuum. The host accelerates the pin along y at
  // a = 0.5 m/s^2 from rest. Exact: the equilibrium angle atan(-a/g) about x; the period of
  // a rod pendulum 2 pi sqrt(I_pin / (m g_eff l_c)) in g_eff = sqrt(g^2 + a^2), I_pin =
  // m (L^2 / 3 + d^2 / 16), l_c = L / 2, lengthened by 1 + theta0^2 / 16 at the amplitude
  // theta0; over whole periods the pin force averages -m (0, a, g) (momentum).
  const std::string deck_path = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/pinned_cart.dat";
  cabledyn_system* s = nullptr;
  REQUIRE(cabledyn_create(deck_path.c_str(), &s) == CABLEDYN_OK);
  int n = 0, np = 0, nb = 0;
  cabledyn_coupled_dofs(s, &n);
  cabledyn_coupled_objects(s, &np, &nb);
  REQUIRE(n == 6);  // MoorDyn's count: six entries, the rotations ignored
  CHECK(nb == 1);
  std::vector<double> x(6), v(6, 0.0), f(6);
  REQUIRE(cabledyn_coupled_deck_positions(s, x.data()) == CABLEDYN_OK);
  CHECK(x[2] == -5);
  REQUIRE(cabledyn_init(s, x.data(), v.data()) == CABLEDYN_OK);
  const double a = 0.5, g = 9.80665, dt = 0.01, m = 5e3 * 10, L = 10, d = 2;
  double t = 0;
  std::vector<double> roll, Fy, Fz;
  for (int k = 1; k <= 3000; ++k) {
    const double tk = k * dt;
    x[1] = 0.5 * a * tk * tk;
    v[1] = a * tk;
    x[3] = 0.3;  // ignored: the body turns freely about its pin
    REQUIRE(cabledyn_step(s, x.data(), v.data(), f.data(), &t, dt) == CABLEDYN_OK);
    double r6[6], load[6];
    REQUIRE(cabledyn_body_pose(s, 1, r6) == CABLEDYN_OK);
    REQUIRE(cabledyn_body_load(s, 1, load) == CABLEDYN_OK);
    for (int c = 0; c < 6; ++c) REQUIRE(load[c] == f[static_cast<std::size_t>(c)]);
    REQUIRE(f[3] == 0);
    REQUIRE(f[4] == 0);
    REQUIRE(f[5] == 0);
    REQUIRE(r6[1] == Approx(x[1]).epsilon(1e-12));  // the pin follows the host
    roll.push_back(r6[3]);
    Fy.push_back(f[1]);
    Fz.push_back(f[2]);
  }
  cabledyn_close(s);
  const double theta_e = std::atan(-a / g);
  const std::vector<double> c = cabledyn::test_support::upcrossings(roll, dt, theta_e);
  REQUIRE(c.size() >= 5);
  // Samples over whole periods (sample i at (i + 1) dt).
  double sr = 0, sy = 0, sz = 0;
  int count = 0;
  for (std::size_t i = 0; i < roll.size(); ++i) {
    const double ti = static_cast<double>(i) * dt;
    if (ti < c.front() || ti >= c.back()) continue;
    sr += roll[i], sy += Fy[i], sz += Fz[i], ++count;
  }
  const double g_eff = std::sqrt(g * g + a * a);
  const double T0 = 2 * 3.141592653589793 * std::sqrt((L * L / 3 + d * d / 16) / (g_eff * L / 2));
  const double T = T0 * (1 + theta_e * theta_e / 16);
  CHECK(cabledyn::test_support::mean_period(c) == Approx(T).epsilon(1e-4));
  CHECK(sr / count == Approx(theta_e).epsilon(1e-4));
  CHECK(sy / count == Approx(-m * a).epsilon(1e-4));
  CHECK(sz / count == Approx(-m * g).epsilon(1e-6));
}

TEST_CASE("A Coupled rod is a Coupled body carrying the rod: the same loads on the host, bit for bit", "[capi][bodies]") {
  // tests/capi/decks/coupled_rod.dat (RODS Coupled) and coupled_body_rod.dat (a Coupled body at
  // the rod's End A, the rod on it, the line on a body point at the rod's top): six entries
  // each (End A, roll pitch yaw), the same deck positions, the same loads at every step.
  const std::string dir = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/";
  cabledyn_system *r = nullptr, *b = nullptr;
  REQUIRE(cabledyn_create((dir + "coupled_rod.dat").c_str(), &r) == CABLEDYN_OK);
  REQUIRE(cabledyn_create((dir + "coupled_body_rod.dat").c_str(), &b) == CABLEDYN_OK);
  int nr = 0, nb = 0;
  cabledyn_coupled_dofs(r, &nr);
  cabledyn_coupled_dofs(b, &nb);
  REQUIRE(nr == 6);
  REQUIRE(nb == 6);
  std::vector<double> xr(6), xb(6), v(6, 0.0), fr(6), fb(6);
  cabledyn_coupled_deck_positions(r, xr.data());
  cabledyn_coupled_deck_positions(b, xb.data());
  CHECK(xr == xb);
  CHECK(xr[2] == -30);
  REQUIRE(cabledyn_init(r, xr.data(), v.data()) == CABLEDYN_OK);
  REQUIRE(cabledyn_init(b, xb.data(), v.data()) == CABLEDYN_OK);
  double tr = 0, tb = 0, fmax = 0;
  const double dt = 0.05, w = 2 * 3.141592653589793 / 6;
  for (int k = 1; k <= 80; ++k) {
    const double t = k * dt;
    std::vector<double> x = xr;
    x[0] += 2 * std::sin(w * t);
    x[3] = 0.05 * std::sin(w * t);
    v[0] = 2 * w * std::cos(w * t);
    v[3] = 0.05 * w * std::cos(w * t);
    REQUIRE(cabledyn_step(r, x.data(), v.data(), fr.data(), &tr, dt) == CABLEDYN_OK);
    REQUIRE(cabledyn_step(b, x.data(), v.data(), fb.data(), &tb, dt) == CABLEDYN_OK);
    REQUIRE(std::memcmp(fr.data(), fb.data(), sizeof(double) * 6) == 0);
    fmax = std::max(fmax, std::hypot(fr[0], fr[2]));
  }
  CHECK(fmax > 1e5);  // the post's weight less buoyancy, drag, inertia and the chain: a real load
  cabledyn_close(r);
  cabledyn_close(b);
}

TEST_CASE("A CoupledPinned rod takes three coupled entries and swings on its host's pin like the CoupledPinned body",
          "[capi][bodies]") {
  // tests/capi/decks/pinned_rod_cart.dat: the pinned_cart.dat pendulum as a RODS CoupledPinned
  // row (MoorDyn counts three entries for it: its End A). The pin force averages -m (0, a, g)
  // over whole periods and swings with the physical pendulum's period.
  const std::string deck_path = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/pinned_rod_cart.dat";
  cabledyn_system* s = nullptr;
  REQUIRE(cabledyn_create(deck_path.c_str(), &s) == CABLEDYN_OK);
  int n = 0;
  cabledyn_coupled_dofs(s, &n);
  REQUIRE(n == 3);
  std::vector<double> x(3), v(3, 0.0), f(3);
  REQUIRE(cabledyn_coupled_deck_positions(s, x.data()) == CABLEDYN_OK);
  CHECK(x[2] == -5);
  REQUIRE(cabledyn_init(s, x.data(), v.data()) == CABLEDYN_OK);
  const double a = 0.5, g = 9.80665, dt = 0.01, m = 5e3 * 10, L = 10, d = 2;
  double t = 0;
  std::vector<double> Fy, Fz;
  for (int k = 1; k <= 3000; ++k) {
    const double tk = k * dt;
    x[1] = 0.5 * a * tk * tk;
    v[1] = a * tk;
    REQUIRE(cabledyn_step(s, x.data(), v.data(), f.data(), &t, dt) == CABLEDYN_OK);
    Fy.push_back(f[1]);
    Fz.push_back(f[2]);
  }
  cabledyn_close(s);
  const std::vector<double> c = cabledyn::test_support::upcrossings(Fy, dt, -m * a);
  REQUIRE(c.size() >= 5);
  double sy = 0, sz = 0;
  int count = 0;
  for (std::size_t i = 0; i < Fy.size(); ++i) {
    const double ti = static_cast<double>(i) * dt;
    if (ti < c.front() || ti >= c.back()) continue;
    sy += Fy[i], sz += Fz[i], ++count;
  }
  const double theta_e = std::atan(a / g), g_eff = std::sqrt(g * g + a * a);
  const double T0 = 2 * 3.141592653589793 * std::sqrt((L * L / 3 + d * d / 16) / (g_eff * L / 2));
  CHECK(cabledyn::test_support::mean_period(c) == Approx(T0 * (1 + theta_e * theta_e / 16)).epsilon(1e-4));
  CHECK(sy / count == Approx(-m * a).epsilon(1e-4));
  CHECK(sz / count == Approx(-m * g).epsilon(1e-5));
}

TEST_CASE("A Coupled point with mass, volume and drag: its load on the host adds its weight, buoyancy and drag "
          "less its inertia",
          "[capi]") {
  // tests/capi/decks/bridle_heavy_fairlead.dat: the bridle of bridle.dat, fairlead 4 with 2 t,
  // 0.5 m^3, CdA 1.5 m^2, Ca 0.8 (a deck the retired single-line route refused). The host's load on
  // point 5 (bare) is its lines' coupled load, their line-end forces (cabledyn_point_force)
  // less the end nodes' inertia; on point 4 the same load of its lines, which mirror point 5's
  // (the deck and the surge are symmetric about y = 0, and a coupled point's own terms do not
  // move the lines), + (0, 0, (rho V - m) g) + 1/2 rho CdA |u| u (u = -v, still water)
  // - (m + Ca rho V) a, a the change of v over the step.
  const std::string deck_path = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/bridle_heavy_fairlead.dat";
  cabledyn_system* s = nullptr;
  REQUIRE(cabledyn_create(deck_path.c_str(), &s) == CABLEDYN_OK);
  const std::vector<double> x0{40, 15, -10, 40, -15, -10};
  std::vector<double> x = x0, v(6, 0.0), vprev(6, 0.0), f(6);
  REQUIRE(cabledyn_init(s, x.data(), v.data()) == CABLEDYN_OK);
  const double rho = 1025, g = 9.80665, m = 2000, V = 0.5, CdA = 1.5, Ca = 0.8, dt = 0.05;
  double t = 0, worst = 0, inertia = 0;
  for (int k = 1; k <= 60; ++k) {
    vprev = v;
    ca_motion(k * dt, x0, x, v);
    REQUIRE(cabledyn_step(s, x.data(), v.data(), f.data(), &t, dt) == CABLEDYN_OK);
    double f4[3], f5[3];
    cabledyn_point_force(s, 4, f4);
    cabledyn_point_force(s, 5, f5);
    const cabledyn::Vec3<double> u(-v[0], -v[1], -v[2]), acc((v[0] - vprev[0]) / dt, (v[1] - vprev[1]) / dt,
                                                              (v[2] - vprev[2]) / dt);
    const cabledyn::Vec3<double> own =
        cabledyn::Vec3<double>(0, 0, (rho * V - m) * g) + 0.5 * rho * CdA * u.norm() * u - (m + Ca * rho * V) * acc;
    const double mirror[3] = {f[3], -f[4], f[5]};  // point 5's coupled lines' load, mirrored to point 4
    for (int c = 0; c < 3; ++c) {
      CHECK(f[static_cast<std::size_t>(c)] == Approx(mirror[c] + own(c)).margin(1e-7 * std::fabs(f5[0])));
      // The line-end force and the coupled load differ by the end nodes' inertia alone: a
      // fraction of the load.
      CHECK(std::fabs(f[3 + static_cast<std::size_t>(c)] - f5[c]) <= 0.05 * std::fabs(f5[0]) + 1e-9);
      inertia = std::max(inertia, std::fabs(f[3 + static_cast<std::size_t>(c)] - f5[c]));
    }
    // Point 4's line-end force mirrors point 5's too.
    CHECK(f4[0] == Approx(f5[0]).epsilon(1e-7));
    CHECK(f4[1] == Approx(-f5[1]).epsilon(1e-7));
    worst = std::max(worst, std::fabs(own(0)));
    CHECK(std::fabs(own(2)) > 1e4);  // the fairlead's weight less buoyancy
  }
  CHECK(worst > 100);   // its inertia and drag are felt in surge
  CHECK(inertia > 1);   // N: the end nodes' inertia is in the coupled load, not in the line-end force
  cabledyn_close(s);
}

TEST_CASE("A motionFile moves a Coupled body in the driver: its DOFs interpolated, its angle rates turned into the "
          "angular velocity; the same loads as a host giving the exact motion",
          "[capi][driver][bodies][motion]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_capi_body_motion_test";
  fs::create_directories(dir);
  // The coupled body deck with a motion table instead of its harmonic surge: surge, heave and
  // yaw cubic in time (the not-a-knot spline reproduces them), roll held at 0.1 rad.
  const std::string src = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/coupled_body.dat";
  std::ifstream in(src, std::ios::binary);
  REQUIRE(in);
  const std::string text0((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string text = text0;
  const std::string harmonic = "surge 2 8 fairleadMotion";
  REQUIRE(text.find(harmonic) != std::string::npos);
  text.replace(text.find(harmonic), harmonic.size(), "body_motion.csv motionFile");
  const double yaw0 = 10 * 3.14159265358979323846 / 180, roll = 0.1;
  auto pose = [&](double t, double* x, double* xd) {  // x y z roll pitch yaw and their rates
    x[0] = 0.3 * t * t - 0.05 * t * t * t, xd[0] = 0.6 * t - 0.15 * t * t;
    x[1] = 0, xd[1] = 0;
    x[2] = 0.02 * t * t * t, xd[2] = 0.06 * t * t;
    x[3] = roll, xd[3] = 0;
    x[4] = 0, xd[4] = 0;
    x[5] = yaw0 + 0.004 * t * t * t, xd[5] = 0.012 * t * t;
  };
  {
    std::FILE* fp = std::fopen((dir / "coupled_body_motion.dat").string().c_str(), "wb");
    REQUIRE(fp);
    std::fputs(text.c_str(), fp);
    std::fclose(fp);
    fp = std::fopen((dir / "body_motion.csv").string().c_str(), "wb");
    REQUIRE(fp);
    std::fputs("t,x,y,z,roll,pitch,yaw\n", fp);
    for (int i = 0; i <= 40; ++i) {
      double x[6], xd[6];
      pose(0.1 * i, x, xd);
      std::fprintf(fp, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", 0.1 * i, x[0], x[1], x[2], x[3], x[4], x[5]);
    }
    std::fclose(fp);
  }
  const std::string deck_path = (dir / "coupled_body_motion.dat").string();
  cabledyn::io::ReadOptions ro;
  ro.accept_unsupported = true;
  const cabledyn::io::Deck deck = cabledyn::io::read_deck(deck_path, ro);
  cabledyn::io::RunSettings set;
  set.root = (dir / "body").string();
  set.log = nullptr;
  set.progress = false;
  cabledyn::io::SystemRunner run(deck, set);
  run.run();
  REQUIRE(run.times().size() == 41);

  // The host: the exact motion; the angular velocity in world axes from the rotation matrix
  // (omega^ = R' R^T by central differences), independent of the driver's formula.
  auto rotation = [](const double* a) {
    using M = Eigen::Matrix3d;
    const M Rx = Eigen::AngleAxisd(a[3], Eigen::Vector3d::UnitX()).toRotationMatrix();
    const M Ry = Eigen::AngleAxisd(a[4], Eigen::Vector3d::UnitY()).toRotationMatrix();
    const M Rz = Eigen::AngleAxisd(a[5], Eigen::Vector3d::UnitZ()).toRotationMatrix();
    return M(Rx * Ry * Rz);
  };
  std::vector<double> x(6), v(6), f(6);
  auto kin = [&](double t) {
    double p[6], pd[6], pp[6], pm[6];
    pose(t, p, pd);
    const double h = 1e-6;
    pose(t + h, pp, pd);
    pose(t - h, pm, pd);
    pose(t, p, pd);
    const Eigen::Matrix3d W = (rotation(pp) - rotation(pm)) / (2 * h) * rotation(p).transpose();
    for (int i = 0; i < 3; ++i) x[i] = p[i], v[i] = pd[i], x[3 + i] = p[3 + i];
    v[3] = W(2, 1), v[4] = W(0, 2), v[5] = W(1, 0);
  };
  cabledyn_system* s = nullptr;
  REQUIRE(cabledyn_create(deck_path.c_str(), &s) == CABLEDYN_OK);
  kin(0.0);
  REQUIRE(cabledyn_init(s, x.data(), v.data()) == CABLEDYN_OK);
  const int fair1 = deck.tension_end(1, true);
  double t = 0, worst = 0, scale = 0, yawed = 0;
  for (std::size_t k = 0; k < run.times().size(); ++k) {
    if (k > 0) {
      kin(run.times()[k]);
      REQUIRE(cabledyn_step(s, x.data(), v.data(), f.data(), &t, 0.1) == CABLEDYN_OK);
    }
    double a[3], load[6], bp[6];
    cabledyn_line_end_force(s, 1, fair1, a);
    cabledyn_body_load(s, 1, load);
    cabledyn_body_pose(s, 1, bp);
    const auto& row = run.channel_rows()[k];
    const double ten = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    worst = std::max({worst, std::fabs(row[0] - ten), std::fabs(row[2] - load[0]), std::fabs(row[3] - load[5])});
    scale = std::max({scale, ten, std::fabs(load[0]), std::fabs(load[5])});
    CHECK(row[4] == Approx(bp[0]).margin(1e-9));  // Body1Px follows the table
    yawed = std::max(yawed, std::fabs(bp[5] - yaw0));
  }
  INFO("largest difference " << worst << " of " << scale);
  CHECK(worst <= 1e-7 * scale);
  CHECK(yawed == Approx(0.004 * 64).epsilon(1e-9));  // the body turned by the table's yaw
  cabledyn_close(s);

  // A table of another length is refused, naming the count it needs.
  {
    std::FILE* fp = std::fopen((dir / "body_motion.csv").string().c_str(), "wb");
    std::fputs("0 0 0 0\n4 0 0 0\n", fp);
    std::fclose(fp);
  }
  try {
    cabledyn::io::SystemRunner bad(cabledyn::io::read_deck(deck_path, ro), set);
    FAIL("a 4-value motion table was accepted for 6 coupled DOFs");
  } catch (const cabledyn::InputError& e) {
    CHECK(std::string(e.what()).find("7: t and the 6 coupled DOFs") != std::string::npos);
  }
  // A yaw wrapped at +-pi (3.1 then -3.1 rad) is refused: its spline would spin the body.
  {
    std::FILE* fp = std::fopen((dir / "body_motion.csv").string().c_str(), "wb");
    std::fputs("0 0 0 0 0 0 3.1\n2 0 0 0 0 0 -3.1\n4 0 0 0 0 0 -3.0\n", fp);
    std::fclose(fp);
  }
  try {
    cabledyn::io::SystemRunner bad(cabledyn::io::read_deck(deck_path, ro), set);
    FAIL("a wrapped yaw was accepted");
  } catch (const cabledyn::InputError& e) {
    CHECK(std::string(e.what()).find("unwrap") != std::string::npos);
  }
  fs::remove_all(dir);
}

TEST_CASE("bodySubstep accuracy: a free body's step is divided into equal sub-steps with omega dt <= 0.28 for the "
          "stiffest body-mooring frequency; the result is the run at the sub-step bit for bit",
          "[capi][bodies][substep]") {
  const std::string path = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/tethered_buoy.dat";
  cabledyn::io::ReadOptions ro;
  ro.accept_unsupported = true;
  const cabledyn::io::Deck deck = cabledyn::io::read_deck(path, ro);
  REQUIRE(deck.options.body_substep_accuracy);  // the default
  cabledyn::io::SystemSimulation a(deck);
  a.initialize(nullptr, nullptr);
  // The tether is vertical (its chord along z exactly): heave sqrt(k_a / m), k_a = EA / L0.
  const double omega = std::sqrt(2e7 / 78.5 / 2e4);
  CHECK(a.system().body_frequency_estimate(a.state()) == Approx(omega).epsilon(1e-12));
  const double dt = 0.5;
  const int n = static_cast<int>(std::ceil(omega * dt / 0.28));
  REQUIRE(n == 7);
  a.step(nullptr, nullptr, 0.0, dt, nullptr);
  CHECK(a.last_substeps() == n);
  // bodySubstep none: one step of dt.
  cabledyn::io::Deck dn = deck;
  dn.options.body_substep_accuracy = false;
  cabledyn::io::SystemSimulation b(dn);
  b.initialize(nullptr, nullptr);
  b.step(nullptr, nullptr, 0.0, dt, nullptr);
  CHECK(b.last_substeps() == 1);
  // The stepper's n equal sub-steps are n steps of dt / n bit for bit: the buoy released
  // with a heave velocity of 0.4 m/s from its equilibrium.
  using Sys = cabledyn::MooringSystem<double>;
  auto m1 = cabledyn::io::build_deck_system(deck), m2 = cabledyn::io::build_deck_system(deck);
  auto s1 = m1.system.initial_state();
  cabledyn::solve_statics(m1.system, s1);
  auto s2 = s1;
  const Eigen::Index heave = m1.system.body_dof(0) + 2;
  REQUIRE(heave >= 2);
  s1.v(heave) = s2.v(heave) = 0.4;
  cabledyn::SystemStepperOptions opt;
  opt.rho_inf = 0.8;
  cabledyn::SystemStepper<Sys> st1(m1.system, opt), st2(m2.system, opt);
  st1.initialize(s1);
  st2.initialize(s2);
  st1.step(dt, n);
  for (int k = 0; k < n; ++k) st2.step(dt / n);
  CHECK(st1.state().t == st2.state().t);
  for (Eigen::Index i = 0; i < s1.q.size(); ++i) {
    CHECK(st1.state().q(i) == st2.state().q(i));
    CHECK(st1.state().v(i) == st2.state().v(i));
  }
  CHECK(std::fabs(st1.state().q(heave) - s1.q(heave)) > 0.02);  // the buoy moved
  CHECK(st1.statistics().steps == n);
}

TEST_CASE("A deck of finite-EI lines: the driver's system route and the C API give the same forces and nodes, bit "
          "for bit; save and load restart bit for bit",
          "[capi][driver][hermite]") {
  namespace fs = std::filesystem;
  const std::string deck_path = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/arch_riser.dat";
  const fs::path dir = fs::temp_directory_path() / "cabledyn_capi_hermite_test";
  fs::create_directories(dir);
  cabledyn::io::ReadOptions ro;
  ro.accept_unsupported = true;
  const cabledyn::io::Deck deck = cabledyn::io::read_deck(deck_path, ro);
  cabledyn::io::RunSettings set;
  set.root = (dir / "arch").string();
  set.log = nullptr;
  set.progress = false;
  cabledyn::io::SystemRunner run(deck, set);
  run.run();
  REQUIRE(run.times().size() == 61);

  cabledyn_system* s = nullptr;
  REQUIRE(cabledyn_create(deck_path.c_str(), &s) == CABLEDYN_OK);
  std::vector<double> x(3), v(3), f(3);
  auto kin = [&](double t) {
    const auto m = cabledyn::io::prescribed_point_motion(deck, nullptr, 1, t, true);
    for (int i = 0; i < 3; ++i) x[static_cast<std::size_t>(i)] = m.x(i), v[static_cast<std::size_t>(i)] = m.v(i);
  };
  kin(0.0);
  REQUIRE(cabledyn_init(s, x.data(), v.data()) == CABLEDYN_OK);
  int n1 = 0;
  REQUIRE(cabledyn_line_nodes(s, 1, &n1) == CABLEDYN_OK);
  CHECK(n1 == 29);
  double r[3], tg[3];
  CHECK(cabledyn_line_node_position(s, 1, 29, r, tg) == CABLEDYN_INPUT_ERROR);
  CHECK_THAT(std::string(cabledyn_last_error(s)), Catch::Contains("node = 29"));
  // The riser's hang-off node is the coupled point; its tangent is the line's DOF, of about
  // unit length (stretched by T / EA).
  REQUIRE(cabledyn_line_node_position(s, 1, 0, r, tg) == CABLEDYN_OK);
  CHECK(r[0] == x[0]);
  CHECK(r[2] == x[2]);
  const double tn = std::sqrt(tg[0] * tg[0] + tg[1] * tg[1] + tg[2] * tg[2]);
  CHECK(tn == Approx(1).margin(1e-3));
  CHECK(tn > 1);
  const int fair1 = deck.tension_end(1, true), anch3 = deck.tension_end(3, false);
  double t = 0, moved = 0;
  const fs::path state = dir / "state.bin";
  double saved[4] = {0, 0, 0, 0};
  for (std::size_t k = 0; k < run.times().size(); ++k) {
    if (k > 0) {
      kin(run.times()[k]);
      REQUIRE(cabledyn_step(s, x.data(), v.data(), f.data(), &t, 0.1) == CABLEDYN_OK);
    }
    if (k == 30) REQUIRE(cabledyn_save(s, state.string().c_str()) == CABLEDYN_OK);
    double a[3], b[3], p2[3], n14[3], n10[3];
    cabledyn_line_end_force(s, 1, fair1, a);
    cabledyn_line_end_force(s, 3, anch3, b);
    cabledyn_point_position(s, 2, p2);
    cabledyn_line_node_position(s, 1, 14, n14, nullptr);
    cabledyn_line_node_position(s, 3, 10, n10, nullptr);
    const auto& row = run.channel_rows()[k];
    CHECK(row[0] == std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]));
    CHECK(row[1] == std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]));
    CHECK(row[2] == p2[2]);
    CHECK(row[3] == n14[0]);
    CHECK(row[4] == n10[2]);
    if (k == 45) saved[0] = row[0], saved[1] = row[1], saved[2] = row[3], saved[3] = f[0];
    moved = std::max(moved, std::fabs(row[0] - run.channel_rows()[0][0]));
  }
  CHECK(moved > 50);  // the surge moves the riser's tension (observed: by 158 N: the buoy follows)
  REQUIRE(cabledyn_load(s, state.string().c_str()) == CABLEDYN_OK);
  t = run.times()[30];
  for (std::size_t k = 31; k <= 45; ++k) {
    kin(run.times()[k]);
    REQUIRE(cabledyn_step(s, x.data(), v.data(), f.data(), &t, 0.1) == CABLEDYN_OK);
  }
  double a[3], b[3], n14[3];
  cabledyn_line_end_force(s, 1, fair1, a);
  cabledyn_line_end_force(s, 3, anch3, b);
  cabledyn_line_node_position(s, 1, 14, n14, nullptr);
  CHECK(std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]) == saved[0]);
  CHECK(std::sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]) == saved[1]);
  CHECK(n14[0] == saved[2]);
  CHECK(f[0] == saved[3]);
  // The state file carries the factor the next step reuses (the reuse is on for finite-EI
  // lines): a corrupt factor is refused by name and nothing changes.
  std::string bytes;
  {
    std::ifstream in(state, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::uint64_t parts = 0, ndof = 0;
  std::memcpy(&parts, bytes.data() + 8, sizeof parts);
  REQUIRE(parts == 1);  // one stepper (one component)
  std::memcpy(&ndof, bytes.data() + 16, sizeof ndof);
  // magic, the steppers' count, n, np, t, q v a r0 Ma0, the back-off (3 int), the
  // residual-first mean, the flag
  const std::size_t flag_at = 8 + 8 + 8 + 8 + 8 + 40 * ndof + 12 + 8, dt_at = flag_at + 1, matrix_at = dt_at + 16;
  REQUIRE(bytes.size() > matrix_at + 8 * 400);
  REQUIRE(bytes[flag_at] == 1);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto corrupt = [&](std::size_t at, int count, const char* name) {
    std::string b = bytes;
    for (int i = 0; i < count; ++i) std::memcpy(b.data() + at + 8 * static_cast<std::size_t>(i), &nan, sizeof nan);
    const fs::path bad = dir / name;
    std::ofstream(bad, std::ios::binary) << b;
    return bad.string();
  };
  double before[3];
  cabledyn_line_end_force(s, 1, fair1, before);
  CHECK(cabledyn_load(s, corrupt(dt_at, 1, "bad_dt.bin").c_str()) == CABLEDYN_INPUT_ERROR);
  CHECK_THAT(std::string(cabledyn_last_error(s)), Catch::Contains("factor dt"));
  CHECK(cabledyn_load(s, corrupt(matrix_at, 400, "bad_matrix.bin").c_str()) == CABLEDYN_INPUT_ERROR);
  CHECK_THAT(std::string(cabledyn_last_error(s)), Catch::Contains("snapshot factor") && Catch::Contains("bad_matrix.bin"));
  double after[3];
  cabledyn_line_end_force(s, 1, fair1, after);
  for (int i = 0; i < 3; ++i) CHECK(after[i] == before[i]);
  REQUIRE(cabledyn_load(s, state.string().c_str()) == CABLEDYN_OK);  // the good file still loads
  cabledyn_close(s);
  fs::remove_all(dir);
}

TEST_CASE("Rod channels in the driver's system route: a pinned rod swinging as a pendulum", "[capi][driver][rods]") {
  // tests/capi/decks/pinned_rod_swing.dat: a 10 m rod pinned at End A (0, 0, -5), released at
  // 10 degrees from the vertical toward +x in a vacuum. MoorDyn's rod outputs: End A's
  // position and velocity, the axis's roll -phi sin(beta) and pitch phi cos(beta) (phi the
  // angle from +z, beta the axis heading), the angular velocity in deg/s, node positions and
  // velocities along the axis, TenA (no line: 0), Sub (submerged: 1).
  namespace fs = std::filesystem;
  const std::string deck_path = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/pinned_rod_swing.dat";
  const fs::path dir = fs::temp_directory_path() / "cabledyn_capi_rod_channels_test";
  fs::create_directories(dir);
  cabledyn::io::ReadOptions ro;
  ro.accept_unsupported = true;
  const cabledyn::io::Deck deck = cabledyn::io::read_deck(deck_path, ro);
  cabledyn::io::RunSettings set;
  set.root = (dir / "rod").string();
  set.log = nullptr;
  set.progress = false;
  cabledyn::io::SystemRunner run(deck, set);
  run.run();
  const auto& rows = run.channel_rows();
  const double dt = 0.01, L = 10, deg = 180 / 3.141592653589793;
  REQUIRE(rows.size() == 601);
  // Columns: PX PZ RX RY RVY VX N4PX N4PZ N4VX N2PX TenA Sub.
  std::vector<double> theta;  // the signed tilt of End B toward +x [rad]
  for (const auto& r : rows) theta.push_back(std::atan2(r[6] - r[0], -(r[7] - r[1])));
  CHECK(theta[0] == Approx(10 / deg).epsilon(1e-12));
  double lo = 0, hi = 0, rate_err = 0, rate_max = 0, vel_err = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const auto& r = rows[k];
    CHECK(r[0] == 0.0);
    CHECK(r[1] == -5.0);
    CHECK(std::fabs(r[2]) < 1e-12);                                   // roll: the axis stays in the x-z plane
    CHECK(std::fabs(r[3]) == Approx(180 - std::fabs(theta[k]) * deg).epsilon(1e-12));  // pitch: phi cos(beta)
    if (std::fabs(theta[k]) > 1e-6) CHECK((r[3] > 0) == (theta[k] > 0));
    CHECK(r[5] == 0.0);                                               // the pin does not move
    CHECK(std::hypot(r[6] - r[0], r[7] - r[1]) == Approx(L).epsilon(1e-12));
    CHECK(r[9] == Approx(0.5 * r[6]).margin(1e-12));                  // node 2 of 4: mid-rod
    CHECK(r[10] == 0.0);
    CHECK(r[11] == 1.0);
    lo = std::min(lo, theta[k]);
    hi = std::max(hi, theta[k]);
    if (k > 0 && k + 1 < rows.size()) {
      // Rotation about +y by alpha carries End B (0, 0, -L) to (-L sin alpha, 0, -L cos alpha):
      // omega_y = -d theta / dt; End B's x velocity is d(N4PX)/dt (central differences, O(dt^2)).
      const double dth = (theta[k + 1] - theta[k - 1]) / (2 * dt);
      rate_err = std::max(rate_err, std::fabs(r[4] + dth * deg));
      rate_max = std::max(rate_max, std::fabs(r[4]));
      vel_err = std::max(vel_err, std::fabs(r[8] - (rows[k + 1][6] - rows[k - 1][6]) / (2 * dt)));
    }
  }
  INFO("tilt range " << lo * deg << " .. " << hi * deg << " deg; rate error " << rate_err << " of " << rate_max
                     << " deg/s; End B velocity error " << vel_err << " m/s");
  CHECK(lo * deg < -9.9);  // it swings through to the other side
  CHECK(rate_err < 2e-3 * rate_max);
  CHECK(vel_err < 2e-3 * rate_max / deg * L);
  // Named refusals: a node beyond NumSegs, a node's force, another rod.
  std::ifstream in(deck_path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& channel) {
    std::string t = text;
    t.replace(t.find("Rod1Sub\nEND"), 7, channel);
    const auto d = cabledyn::io::parse_deck(t, "swing.dat", ro);
    cabledyn::io::SystemRunner r(d, set);
  };
  CHECK_THROWS_WITH(bad("Rod1N5PX"), Catch::Contains("node = 5") && Catch::Contains("NumSegs"));
  CHECK_THROWS_WITH(bad("Rod1N2FX"), Catch::Contains("Rod1N2FX") && Catch::Contains("a channel of a rod of RODS"));
  CHECK_THROWS_WITH(bad("Rod2PX"), Catch::Contains("a channel of a rod of RODS"));
  CHECK_THROWS_WITH(bad("Rod1RZ"), Catch::Contains("a channel of a rod of RODS"));
  CHECK_NOTHROW(bad("Rod1TenB"));
  // The net load on the rod about End A, its inertia (and the pin's reaction) excluded
  // (MoorDyn's Rod F6net): in a vacuum its weight mu L g at the mid-point, Fz = -mu L g and
  // My = x_c mu L g, x_c the mid-point's x from the pin; Fx, Mx and Mz zero.
  {
    std::string t = text;
    t.replace(t.find("Rod1Sub\nEND"), 7, "Rod1Sub\nRod1FX\nRod1FZ\nRod1MX\nRod1MY\nRod1MZ\nEND");
    t.replace(t.find("6        TMax"), 13, "1        TMax");
    cabledyn::io::SystemRunner r(cabledyn::io::parse_deck(t, "swing_f.dat", ro), set);
    r.run();
    const double W = 5e3 * L * 9.80665;
    double worst = 0;
    for (const auto& row : r.channel_rows()) {
      REQUIRE(row.size() == 17);
      const double xc = 0.5 * (row[6] - row[0]);
      worst = std::max({worst, std::fabs(row[12]) / W, std::fabs(row[14]) / (L * W), std::fabs(row[16]) / (L * W),
                        std::fabs(row[13] + W) / W, std::fabs(row[15] - xc * W) / (L * W)});
    }
    INFO("largest departure from the hand load " << worst);
    CHECK(worst < 1e-12);
  }
  fs::remove_all(dir);
}

TEST_CASE("Point velocity and acceleration channels of a point on a body move with the body", "[capi][driver][bodies]") {
  // tests/capi/decks/coupled_body.dat with Point1 (on Body1) channels: its velocity and
  // acceleration are the body's motion at the point (they read zeros before: a body point
  // holds no motion of its own), against central differences of its position.
  namespace fs = std::filesystem;
  const std::string deck_path = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/coupled_body.dat";
  std::ifstream in(deck_path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.replace(text.find("Point7pz\n"), 9, "Point7pz\nPoint1px\nPoint1vx\nPoint1ax\n");
  cabledyn::io::ReadOptions ro;
  ro.accept_unsupported = true;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_capi_body_point_test";
  fs::create_directories(dir);
  cabledyn::io::RunSettings set;
  set.root = (dir / "bp").string();
  set.log = nullptr;
  set.progress = false;
  cabledyn::io::SystemRunner run(cabledyn::io::parse_deck(text, "coupled_body.dat", ro), set);
  run.run();
  const auto& rows = run.channel_rows();
  const double dt = 0.1;
  REQUIRE(rows.size() == 41);
  double vmax = 0, verr = 0, aerr = 0, amax = 0;
  for (std::size_t k = 1; k + 1 < rows.size(); ++k) {
    const double vd = (rows[k + 1][7] - rows[k - 1][7]) / (2 * dt), ad = (rows[k + 1][8] - rows[k - 1][8]) / (2 * dt);
    vmax = std::max(vmax, std::fabs(rows[k][8]));
    amax = std::max(amax, std::fabs(rows[k][9]));
    verr = std::max(verr, std::fabs(rows[k][8] - vd));
    aerr = std::max(aerr, std::fabs(rows[k][9] - ad));
  }
  INFO("velocity " << vmax << " m/s (error " << verr << "), acceleration " << amax << " m/s^2 (error " << aerr << ")");
  CHECK(vmax > 0.5);  // the surge of 2 m over 8 s
  CHECK(verr < 0.02 * vmax);
  CHECK(aerr < 0.05 * amax);
  fs::remove_all(dir);
}

TEST_CASE("A deck whose finite-EI cables join at a zero-length rod: the rod turns with the cable (a direction joint) "
          "and its channels follow it",
          "[capi][driver][hermite][joint]") {
  // tests/capi/decks/joined_riser.dat: a riser from a surging hang-off to zero-length rod 1, a
  // buoyancy section from it to zero-length rod 2, a chain from there to a fixed point. Rod 1
  // is a direction joint: its point is line 1's End B and line 2's End A, its axis (Rod1RY, the
  // pitch phi cos(beta) of the axis) the cables' common tangent there, between the chords of the
  // elements on either side; at rest its two lines' loads balance (TenA = TenB).
  namespace fs = std::filesystem;
  const std::string deck_path = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/joined_riser.dat";
  const fs::path dir = fs::temp_directory_path() / "cabledyn_capi_joint_test";
  fs::create_directories(dir);
  cabledyn::io::ReadOptions ro;
  ro.accept_unsupported = true;
  const cabledyn::io::Deck deck = cabledyn::io::read_deck(deck_path, ro);
  cabledyn::io::RunSettings set;
  set.root = (dir / "joined").string();
  set.log = nullptr;
  set.progress = false;
  cabledyn::io::SystemRunner run(deck, set);
  run.run();
  REQUIRE(run.times().size() == 61);
  // Channels: 0 FairTen1, 1 Rod1PX, 2 Rod1PZ, 3 Rod1RX, 4 Rod1RY, 5 Rod1TenA, 6 Rod1TenB,
  // 7 L1N35pz, 8 L1N34px, 9 L1N34pz, 10 L2N1px, 11 L2N1pz, 12 Rod2RY.
  const auto& rows = run.channel_rows();
  const double deg = 180 / 3.14159265358979323846;
  double worst = 0, tilt_lo = 1e9, tilt_hi = -1e9;
  for (const auto& r : rows) {
    CHECK(r[2] == r[7]);  // the joint's point is line 1's End B
    CHECK(std::fabs(r[3]) < 1e-9);  // the axis stays in the x-z plane
    // The axis (heading beta = pi: -x) q = (-sin phi, 0, cos phi), phi = -RY; the chords of the
    // elements either side of the joint.
    const double phi = -r[4] / deg;
    const double qx = -std::sin(phi), qz = std::cos(phi);
    auto angle = [](double ax, double az, double bx, double bz) {
      return std::atan2(ax * bz - az * bx, ax * bx + az * bz);
    };
    const double c1x = r[1] - r[8], c1z = r[2] - r[9], c2x = r[10] - r[1], c2z = r[11] - r[2];
    const double a1 = angle(c1x, c1z, qx, qz), a2 = angle(qx, qz, c2x, c2z);
    worst = std::max(worst, -a1 * a2);  // q between the chords: both turns of one sign
    CHECK(std::fabs(a1) < 0.1);
    CHECK(std::fabs(a2) < 0.1);
    tilt_lo = std::min(tilt_lo, r[4]);
    tilt_hi = std::max(tilt_hi, r[4]);
  }
  INFO("largest -a1 a2 " << worst << " rad^2; Rod1RY in [" << tilt_lo << ", " << tilt_hi << "] deg");
  CHECK(worst <= 0);
  CHECK(tilt_hi - tilt_lo > 0.01);  // the surge turns it
  CHECK(rows[0][5] == Approx(rows[0][6]).epsilon(1e-8));  // at rest: its two lines' loads balance
  fs::remove_all(dir);
}

TEST_CASE(
    "A system of three components stepped apart: its state file restarts bit for bit and is refused by a "
    "run stepped as one system; the driver's runner steps it so on request, its restart check passes and its "
    "summary gives each line's component's march",
    "[capi][components]") {
  namespace fs = std::filesystem;
  const std::string deck = std::string(CABLEDYN_SOURCE_DIR) + "/tests/capi/decks/three_components.dat";
  const std::string state = deck + ".test_state";
  const std::vector<double> x0{-20, 0, -10, 10, 17, -10, 10, -17, -10}, v0(9, 0.0);
  std::vector<double> x = x0, v = v0, f(9);
  auto sim = cabledyn::io::SystemSimulation::from_file(deck);
  REQUIRE(sim->coupled_dofs() == 9);
  CHECK(sim->split_components());  // stepped apart by default
  sim->initialize(x.data(), v.data());
  REQUIRE(sim->components() != nullptr);
  CHECK(sim->components()->size() == 3);
  CHECK(sim->components()->view(2).name() == "Lines 3, 4 with their points and bodies");
  const double dt = 0.05;
  for (int k = 1; k <= 60; ++k) {
    ca_motion(k * dt, x0, x, v);
    sim->step(x.data(), v.data(), (k - 1) * dt, dt, f.data());
    if (k == 30) sim->save(state);
  }
  const std::vector<double> f_end = f;
  CHECK(sim->stepper_statistics().steps >= 3 * 60);  // each component's steps, summed
  sim->load(state);
  CHECK(sim->time() == Approx(1.5));
  for (int k = 31; k <= 60; ++k) {
    ca_motion(k * dt, x0, x, v);
    sim->step(x.data(), v.data(), (k - 1) * dt, dt, f.data());
  }
  CHECK(std::memcmp(f.data(), f_end.data(), sizeof(double) * 9) == 0);
  // The C API steps components apart too (its default): loaded from the file, it repeats the
  // second half bit for bit.
  cabledyn_system* s = nullptr;
  REQUIRE(cabledyn_create(deck.c_str(), &s) == CABLEDYN_OK);
  REQUIRE(cabledyn_init(s, x0.data(), v0.data()) == CABLEDYN_OK);
  REQUIRE(cabledyn_load(s, state.c_str()) == CABLEDYN_OK);
  double t = 1.5;
  std::vector<double> fc(9);
  for (int k = 31; k <= 60; ++k) {
    ca_motion(k * dt, x0, x, v);
    REQUIRE(cabledyn_step(s, x.data(), v.data(), fc.data(), &t, dt) == CABLEDYN_OK);
  }
  CHECK(std::memcmp(fc.data(), f_end.data(), sizeof(double) * 9) == 0);
  cabledyn_close(s);
  // The same deck stepped as one system refuses the file by name, and goes on; its forces
  // agree with the components' within the Newton tests at the end.
  auto mono = cabledyn::io::SystemSimulation::from_file(deck);
  mono->set_split_components(false);
  mono->initialize(x0.data(), v0.data());
  CHECK(mono->components() == nullptr);
  CHECK_THROWS_WITH(mono->load(state), Catch::Contains("stepped components") && Catch::Contains("stepped as one"));
  std::vector<double> fm(9);
  x = x0;
  for (int k = 1; k <= 60; ++k) {
    ca_motion(k * dt, x0, x, v);
    mono->step(x.data(), v.data(), (k - 1) * dt, dt, fm.data());
  }
  for (std::size_t i = 0; i < 9; ++i) CHECK(fm[i] == Approx(f_end[i]).epsilon(1e-5).margin(1e-3));
  std::remove(state.c_str());

  // The driver's runner with split_components: a restart check repeats every output bit for
  // bit, and the summary gives each line's component's march.
  const fs::path dir = fs::temp_directory_path() / "cabledyn_capi_components";
  fs::create_directories(dir);
  cabledyn::io::ReadOptions ro;
  ro.accept_unsupported = true;
  cabledyn::io::RunSettings set;
  set.root = (dir / "three").string();
  set.log = nullptr;
  set.progress = false;
  set.split_components = true;
  set.restart_check = 1.0;
  cabledyn::io::SystemRunner run(cabledyn::io::read_deck(deck, ro), set);
  run.run();
  std::ifstream in(set.root + ".summary.txt");
  const std::string summary((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(summary, Catch::Contains("(summed over the 3 components stepped apart)"));
  CHECK_THAT(summary, Catch::Contains("march (component 3 of 3: Lines 3, 4 with their points and bodies)"));
  CHECK_THAT(summary, Catch::Contains("restart check"));
  fs::remove_all(dir);
}
