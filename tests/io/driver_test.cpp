// The cabledyn driver: the default deck runs end to end (short TMax) and its outputs parse;
// a static run of a one-line deck equals the library's solvers called directly; the
// reference decks of ../shared/decks run unchanged where their features exist and are
// refused by name where they do not; MoorDyn's channels mean what MoorDyn means (End B's
// force for FairTen, nodes from 0, the state's velocities and accelerations, the net node
// force); dtOut, WriteUnits, --tmax / --dtm, motion tables of any sampling, per-line output
// files. Every deck runs as one mooring system (io::SystemRunner).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <type_traits>

#include "cabledyn/io/system_runner.hpp"

using namespace cabledyn;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

fs::path scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("cabledyn_driver_test_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Rows of a tab-separated .out file after its title line: header tokens and numeric rows.
struct OutFile {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
};
OutFile read_out(const fs::path& p) {
  std::ifstream f(p);
  OutFile o;
  std::string line;
  std::getline(f, line);  // title
  std::getline(f, line);
  std::stringstream hs(line);
  for (std::string tok; std::getline(hs, tok, '\t');) o.header.push_back(tok);
  while (std::getline(f, line)) {
    if (!line.empty() && line[0] == '(') continue;  // the units row (WriteUnits)
    std::stringstream rs(line);
    std::vector<double> r;
    for (std::string tok; std::getline(rs, tok, '\t');) r.push_back(std::stod(tok));
    o.rows.push_back(r);
  }
  return o;
}

io::RunSettings quiet(const fs::path& root) {
  io::RunSettings s;
  s.root = root.string();
  s.log = nullptr;
  s.progress = false;
  return s;
}

}  // namespace

TEST_CASE("The default deck runs end to end and its outputs parse", "[io][driver]") {
  std::string text = slurp(fs::path(CABLEDYN_SOURCE_DIR) / "examples" / "decks" / "default.dat");
  REQUIRE(!text.empty());
  // A short run: 2 s instead of 60 s.
  const auto pos = text.find("60.0         TMax");
  REQUIRE(pos != std::string::npos);
  text.replace(pos, 4, " 2.0");
  const io::Deck deck = io::parse_deck(text, "default.dat");
  const fs::path dir = scratch("default");
  io::SystemRunner run(deck, quiet(dir / "default"));
  run.run();
  const OutFile out = read_out(dir / "default.out");
  REQUIRE(out.header.size() == 11);
  CHECK(out.header[0] == "Time(s)");
  CHECK(out.header[1] == "FairTen1");
  CHECK(out.rows.size() == 41);  // t = 0, 0.05, ..., 2
  CHECK(out.rows.back()[0] == Approx(2.0));
  for (const auto& r : out.rows) {
    REQUIRE(r.size() == 11);
    for (double v : r) CHECK(std::isfinite(v));
  }
  // At t = 0 the fairlead tensions are the static ones (the surge is ramped from rest): line
  // 1's, from the library's EI = 0 statics called directly (the fairlead End A).
  LineEnd a, b;
  a.position = Vec3<double>(5.2, 0, -70);
  b.position = Vec3<double>(853.87, 0, -320);
  Environment env;
  env.depth = 320;
  const Line line("direct", {{deck.line_types[0].type, 902.2, 40}}, a, b, env);
  StaticProblem prob;
  prob.seabed_z = -320;
  prob.seabed.kBot = 1e5;
  const auto direct = TensionStatics(line, prob).solve();
  CHECK(out.rows[0][1] == Approx(direct.end_force[0].norm()).epsilon(1e-6));
  // Point4Fx: the force line 1 exerts on its fairlead point along x, equal to the end force.
  CHECK(out.rows[0][10] == Approx(direct.end_force[0](0)).epsilon(1e-6));
  for (const char* f : {"default.static.out", "default.nodes.out", "default.summary.txt", "default.profile.svg",
                        "default.tension.svg"})
    CHECK(fs::exists(dir / f));
  const std::string svg = slurp(dir / "default.tension.svg");
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(svg.find("polyline") != std::string::npos);
  // The static file holds one row per node of each line plus the header, then the points
  // after a blank line.
  const std::string st = slurp(dir / "default.static.out");
  const std::string nodes = st.substr(0, st.find("\n\n") == std::string::npos ? st.size() : st.find("\n\n") + 1);
  CHECK(std::count(nodes.begin(), nodes.end(), '\n') == 1 + 3 * 41);
}

TEST_CASE("A static one-line deck equals the library's static solve", "[io][driver]") {
  const std::string text = R"(--------------------- CableDyn Input File ------------------------------------
one chain, static
--------------------- LINE TYPES ---------------------------------------
TypeName   Diam     MassDenInAir   EA          BA/-zeta   EI       Cd_n  Cd_t  Ca_n  Ca_t
chain      0.09     77.7066        384.243e6   0.0        0.0      1.6   0.1   1.0   0.0
--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z
1     Fixed     853.87     0.0        -320.0
2     Coupled   5.2        0.0        -70.0
--------------------- LINES --------------------------------------------
ID    NodeA   NodeB   Outputs
1     1       2       -
--------------------- SECTIONS -----------------------------------------
LineID   LineType   Length   NumSegs
1        chain      902.2    30
--------------------- OPTIONS ------------------------------------------
320.0        WtrDpth
1.0e5        kBot
--------------------- OUTPUTS ------------------------------------------
FairTen1
AnchTen1
--------------------- need this line -----------------------------------
)";
  const io::Deck deck = io::parse_deck(text, "one.dat");
  const fs::path dir = scratch("one");
  io::SystemRunner run(deck, quiet(dir / "one"));
  run.run();
  // Direct: End A the fairlead (the deck writes the anchor first; the reader swaps).
  LineType t = deck.line_types[0].type;
  LineEnd a, b;
  a.position = Vec3<double>(5.2, 0, -70);
  b.position = Vec3<double>(853.87, 0, -320);
  Environment env;
  env.depth = 320;
  const Line line("direct", {{t, 902.2, 30}}, a, b, env);
  StaticProblem prob;
  prob.seabed_z = -320;
  prob.seabed.kBot = 1e5;
  TensionStatics solver(line, prob);
  const auto direct = solver.solve();
  const OutFile out = read_out(dir / "one.out");
  REQUIRE(out.rows.size() == 1);
  CHECK(out.rows[0][1] == Approx(direct.end_force[0].norm()).epsilon(1e-9));  // 10 digits written
  CHECK(out.rows[0][2] == Approx(direct.end_force[1].norm()).epsilon(1e-9));
  // And within the mesh error of the analytic catenary (30 elements: 2e-4).
  const CatenaryLine<double> cat({{902.2, t.submerged_weight(env), t.EA}}, b.position, a.position, -320.0);
  CHECK(out.rows[0][1] == Approx(cat.fairlead_force().norm()).epsilon(2e-3));
}

TEST_CASE("Reference decks run unchanged, or are refused by name", "[io][driver][shared]") {
  const fs::path shared = fs::path(CABLEDYN_SHARED_DIR) / "decks";
  if (!fs::exists(shared)) {
    WARN("skipped: " << shared.string() << " is absent (the reference decks live outside the project)");
    return;
  }
  const fs::path dir = scratch("shared");
  const std::map<std::string, std::string> refused = {
      {"ve_polyester_dynamic_waves.dat", "viscoelastic"}};
  int ran = 0;
  for (const auto& entry : fs::directory_iterator(shared)) {
    if (entry.path().extension() != ".dat") continue;
    const std::string name = entry.path().filename().string();
    INFO(name);
    const auto it = refused.find(name);
    if (it != refused.end()) {
      CHECK_THROWS_WITH(io::SystemRunner(io::read_deck(entry.path().string()), quiet(dir / "x")).run(),
                        Catch::Contains(it->second));
      continue;
    }
    const io::Deck deck = io::read_deck(entry.path().string());
    io::SystemRunner run(deck, quiet(dir / entry.path().stem()));
    CHECK_NOTHROW(run.run());
    const auto& st = run.simulation().statics();
    CHECK(st.residual <= std::max(1e-6 * st.scale, st.floor * 10));
    ++ran;
  }
  CHECK(ran >= 7);
  CHECK(fs::exists(dir / "chain_modes.modes.out"));
  CHECK(fs::exists(dir / "lazy_wave_modes.modes.out"));  // a Hermite lazy wave under the tensile audit
}

TEST_CASE("A motionFile drives the fairlead: the march follows the file's surge", "[io][driver][motion]") {
  // One chain; the fairlead (point 2) surges 1 m over 2 s on a smooth quintic in the file.
  const fs::path dir = scratch("motion");
  const double dt = 0.1, T = 2.0;
  {
    std::ofstream m(dir / "motion.dat");
    m << "# t id x y z vx vy vz ax ay az\n";
    for (int k = 0; k <= 20; ++k) {
      const double t = k * dt, u = t / T;
      const double x = 5.2 + u * u * u * (10 - 15 * u + 6 * u * u);
      const double v = 30 * u * u * (1 - u) * (1 - u) / T, a = 60 * u * (1 - u) * (1 - 2 * u) / (T * T);
      m << t << " 2 " << x << " 0 -70 " << v << " 0 0 " << a << " 0 0\n";
    }
  }
  {
    std::ofstream d(dir / "surge.dat");
    d << R"(--------------------- CableDyn Input File ------------------------------------
chain with a motionFile
--------------------- LINE TYPES ---------------------------------------
TypeName   Diam     MassDenInAir   EA          BA/-zeta   EI       Cd_n  Cd_t  Ca_n  Ca_t
chain      0.09     77.7066        384.243e6   -0.8       0.0      1.6   0.1   1.0   0.0
--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z
1     Fixed     853.87     0.0        -320.0
2     Coupled   5.2        0.0        -70.0
--------------------- LINES --------------------------------------------
ID    NodeA   NodeB   Outputs
1     2       1       -
--------------------- SECTIONS -----------------------------------------
LineID   LineType   Length   NumSegs
1        chain      902.2    20
--------------------- OPTIONS ------------------------------------------
320.0        WtrDpth
0.1          dtM
2.0          TMax
motion.dat   motionFile
--------------------- OUTPUTS ------------------------------------------
Point2px
FairTen1
--------------------- need this line -----------------------------------
)";
  }
  const io::Deck deck = io::read_deck((dir / "surge.dat").string());
  io::SystemRunner run(deck, quiet(dir / "surge"));
  run.run();
  const OutFile out = read_out(dir / "surge.out");
  REQUIRE(out.rows.size() == 21);
  CHECK(out.rows.front()[1] == Approx(5.2));
  CHECK(out.rows[10][1] == Approx(5.7).epsilon(1e-12));  // u = 1/2 of the quintic
  CHECK(out.rows.back()[1] == Approx(6.2));
  // Moved 1 m toward the anchor the fairlead tension falls (the line slackens).
  CHECK(out.rows.back()[2] < out.rows.front()[2]);
}

namespace {

/// A MoorDyn deck: one chain from a Coupled point 2 (End A) to a Fixed point 1 (End B).
std::string coupled_first(const std::string& options, const std::string& outputs) {
  return "--------------------- MoorDyn Input File ---------------------\nchain, coupled end first\n"
         "----------------------- LINE TYPES -----------------------\n"
         "TypeName Diam Mass/m EA BA/-zeta EI Cd Ca CdAx CaAx\n"
         "chain 0.09 77.7 3.8e8 -0.8 0 1.6 1.0 0.1 0.0\n"
         "---------------------- POINTS -----------------------\n"
         "1 Fixed 400 0 -100 0 0 0 0\n2 Coupled 5 0 -10 0 0 0 0\n"
         "---------------------- LINES -----------------------\n"
         "1 chain 2 1 440 20 p,t,s,d\n"
         "---------------------- OPTIONS -----------------------\n"
         "100 WtrDpth\n3e6 kBot\n3e5 cBot\n" + options +
         "---------------------- OUTPUTS -----------------------\n" + outputs +
         "\n---------------------- need this line -----------------------\n";
}

template <class Runner>
double column(const Runner& run, const std::string& name, std::size_t row) {
  const std::vector<std::string> n = run.channel_names();
  const auto it = std::find(n.begin(), n.end(), name);
  REQUIRE(it != n.end());
  return run.channel_rows()[row][static_cast<std::size_t>(it - n.begin())];
}

}  // namespace

TEST_CASE("MoorDyn decks: FairTen is End B's force, nodes count from 0, points feel their lines", "[io][driver][moordyn]") {
  const fs::path dir = scratch("moordyn_channels");
  const std::string outputs = "FairTen1 AnchTen1 L1NBT L1NAT L1N20T L1N0T L1N0px L1N20px L1N0fx L1N0fz Point2Fx Point2Fz "
                              "Point2T Point1Fz L1NBfz L1N10fz L1N10vx";
  io::SystemRunner run(io::parse_deck(coupled_first("", outputs), "m.dat"), quiet(dir / "m"));
  run.run();
  const std::size_t r = 0;
  // End B is point 1, the anchor: MoorDyn's FairTen1 reads its force.
  CHECK(column(run, "FairTen1", r) == column(run, "L1NBT", r));
  CHECK(column(run, "FairTen1", r) == column(run, "L1N20T", r));
  CHECK(column(run, "AnchTen1", r) == column(run, "L1NAT", r));
  CHECK(column(run, "AnchTen1", r) == column(run, "L1N0T", r));
  CHECK(column(run, "FairTen1", r) < column(run, "AnchTen1", r));  // the anchor end carries less
  CHECK(column(run, "L1N0px", r) == 5.0);    // node 0: End A, point 2
  CHECK(column(run, "L1N20px", r) == 400.0);  // node N: End B, point 1
  // The net force on an end node is the force the line exerts on its point.
  CHECK(column(run, "L1N0fx", r) == column(run, "Point2Fx", r));
  CHECK(column(run, "L1N0fz", r) == column(run, "Point2Fz", r));
  CHECK(column(run, "Point2T", r) == Approx(std::hypot(column(run, "Point2Fx", r), column(run, "Point2Fz", r))).epsilon(1e-14));
  CHECK(column(run, "Point2Fz", r) < 0);  // the line pulls its top point down
  CHECK(column(run, "Point1Fz", r) == column(run, "L1NBfz", r));
  // Inside the line, at rest: no net force (the statics' polish leaves its round-off
  // residual), no velocity.
  CHECK(std::fabs(column(run, "L1N10fz", r)) <= 1e-10 * column(run, "AnchTen1", r));
  CHECK(column(run, "L1N10vx", r) == 0.0);
  // The same deck read as a CableDyn deck: FairTen is the fairlead end (the Coupled point).
  io::SystemRunner cd(io::parse_deck(coupled_first("cabledyn dialect\n", "FairTen1 AnchTen1 L1N1px"), "c.dat"), quiet(dir / "c"));
  cd.run();
  CHECK(cd.channel_rows()[0][0] == Approx(column(run, "AnchTen1", r)).epsilon(1e-12));
  CHECK(cd.channel_rows()[0][1] == Approx(column(run, "FairTen1", r)).epsilon(1e-12));
  CHECK(cd.channel_rows()[0][2] == 5.0);  // node 1: End A in CableDyn numbering
}

TEST_CASE("MoorDyn decks: --tmax, dtOut, WriteUnits and the state's velocities and accelerations", "[io][driver][moordyn]") {
  const fs::path dir = scratch("moordyn_march");
  const std::string outputs = "L1N5px L1N5vx L1N5ax L1N5pz L1N5vz L1N5az Point2px Point2vx Point2ax L1N5fx";
  const io::Deck deck = io::parse_deck(coupled_first("0.01 dtM\nsurge fairleadMotion 2 4\n", outputs), "m.dat");
  CHECK_FALSE(deck.options.dynamic());  // a MoorDyn deck: no TMax
  io::RunSettings s = quiet(dir / "m");
  s.tmax = 4.0;
  io::SystemRunner run(deck, s);
  run.run();
  const auto& t = run.times();
  REQUIRE(t.size() == 401);
  // The velocity and acceleration channels are the time derivatives of the position channels
  // (central differences, error O(dt^2) of the motion's scale).
  double ev = 0, ea = 0, vmax = 0, amax = 0;
  for (std::size_t k = 1; k + 1 < t.size(); ++k)
    for (int c : {0, 3}) {
      const double v = column(run, c ? "L1N5vz" : "L1N5vx", k), a = column(run, c ? "L1N5az" : "L1N5ax", k);
      const double xm = column(run, c ? "L1N5pz" : "L1N5px", k - 1), xp = column(run, c ? "L1N5pz" : "L1N5px", k + 1);
      const double vm = column(run, c ? "L1N5vz" : "L1N5vx", k - 1), vp = column(run, c ? "L1N5vz" : "L1N5vx", k + 1);
      ev = std::max(ev, std::fabs((xp - xm) / 0.02 - v));
      ea = std::max(ea, std::fabs((vp - vm) / 0.02 - a));
      vmax = std::max(vmax, std::fabs(v));
      amax = std::max(amax, std::fabs(a));
    }
  CHECK(vmax > 0.1);
  CHECK(ev < 0.01 * vmax);
  CHECK(ea < 0.05 * amax);
  // A point's velocity and acceleration are its prescribed motion's (ramped over one period);
  // its acceleration is the change of its velocity over the step, as a host's through the C
  // API (docs/driver.md).
  for (std::size_t k : {100u, 250u, 400u}) {
    const io::PointKinematics h = io::harmonic_motion(*deck.options.fairleadMotion, t[k]);
    if (t[k] >= 4.0) {
      CHECK(column(run, "Point2vx", k) == Approx(h.v[0]).margin(1e-12));
      CHECK(column(run, "Point2ax", k) ==
            Approx((column(run, "Point2vx", k) - column(run, "Point2vx", k - 1)) / 0.01).margin(1e-9));
      CHECK(column(run, "Point2px", k) == Approx(5.0 + h.x[0]).margin(1e-12));
    }
  }
  // The interior node's net force is its mass times acceleration: it moves with the line.
  double fmax = 0;
  for (std::size_t k = 0; k < t.size(); ++k) fmax = std::max(fmax, std::fabs(column(run, "L1N5fx", k)));
  CHECK(fmax > 0);
  const std::string summary = slurp(dir / "m.summary.txt");
  CHECK(summary.find("run: 400 steps of dtM = 0.01 s to t = 4 s (run length from --tmax)") != std::string::npos);
  // WriteUnits (MoorDyn's default): a units row under the header.
  const std::string out = slurp(dir / "m.out");
  CHECK(out.find("Time(s)\tL1N5px") != std::string::npos);
  CHECK(out.find("\n(s)\t(m)\t(m/s)\t(m/s^2)") != std::string::npos);
  // dtOut 0.05 at dtM 0.01: every fifth step, and the last one.
  io::RunSettings d = quiet(dir / "d");
  d.tmax = 0.2;
  io::SystemRunner dec(io::parse_deck(coupled_first("0.01 dtM\n0.05 dtOut\n", "FairTen1"), "d.dat"), d);
  dec.run();
  REQUIRE(dec.times().size() == 5);
  for (std::size_t k = 0; k < 5; ++k) CHECK(dec.times()[k] == Approx(0.05 * k).margin(1e-12));
  // --tmax must be a multiple of dtM; --dtm replaces dtM.
  io::RunSettings bad = quiet(dir / "b");
  bad.tmax = 0.205;
  CHECK_THROWS_WITH(io::SystemRunner(io::parse_deck(coupled_first("0.01 dtM\n", "FairTen1"), "b.dat"), bad),
                    Catch::Contains("a multiple of dtM = 0.01"));
  bad.dtm = 0.005;
  CHECK_NOTHROW(io::SystemRunner(io::parse_deck(coupled_first("0.01 dtM\n", "FairTen1"), "b.dat"), bad));
}

TEST_CASE("A MoorDyn motion table of any sampling drives the coupled point", "[io][driver][motion]") {
  // t x y z of the one coupled point, every 0.25 s (dtM 0.05): a cubic surge from x = 5.5,
  // half a metre from the deck's x = 5, which the statics take as the start.
  const fs::path dir = scratch("moordyn_motion");
  {
    std::ofstream m(dir / "surge.csv");
    m << std::setprecision(17) << "Time,x,y,z\n";
    for (int k = 0; k <= 12; ++k) {
      const double t = 0.25 * k, u = t / 3.0;
      m << t << "," << 5.5 + 2 * u * u * u << ",0,-10\n";
    }
  }
  io::RunSettings s = quiet(dir / "m");
  s.tmax = 3.0;
  s.motion_file = (dir / "surge.csv").string();
  io::SystemRunner run(io::parse_deck(coupled_first("0.05 dtM\n", "Point2px Point2vx Point2ax FairTen1"), "m.dat"), s);
  run.run();
  const auto& t = run.times();
  REQUIRE(t.size() == 61);
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double u = t[k] / 3.0;
    CHECK(column(run, "Point2px", k) == Approx(5.5 + 2 * u * u * u).margin(1e-9));  // a cubic: exact
    CHECK(column(run, "Point2vx", k) == Approx(2 * u * u).margin(1e-9));
    // The change of velocity over the step (the exact acceleration is 4 u / 3).
    const double um = k ? (t[k] - 0.05) / 3.0 : u;
    CHECK(column(run, "Point2ax", k) == Approx(k ? 2 * (u * u - um * um) / 0.05 : 0.0).margin(1e-9));
  }
  // The statics held point 2 at the table's start (static.out's End A, MoorDyn's node 0, at
  // x = 5.5): FairTen1 (End B) at t = 0 is the static one (static.out's node 20, 10 digits).
  std::map<int, std::vector<double>> st;
  {
    std::ifstream f(dir / "m.static.out");
    std::string row;
    std::getline(f, row);
    while (std::getline(f, row) && !row.empty()) {
      std::stringstream rs(row);
      std::vector<double> r;
      for (std::string tok; std::getline(rs, tok, '\t');) r.push_back(std::stod(tok));
      st[static_cast<int>(r.at(1))] = r;
    }
  }
  REQUIRE(st.count(0) == 1);
  REQUIRE(st.count(20) == 1);
  CHECK(st[0].at(3) == Approx(5.5).margin(1e-9));
  CHECK(column(run, "FairTen1", 0) == Approx(st[20].at(6)).epsilon(1e-9));
  bool noted = false;
  for (const auto& n : run.notes()) noted = noted || n.find("point 2 starts at the motionFile's t = 0 position") != std::string::npos;
  CHECK(noted);
  // A table that ends before the run is refused up front.
  s.tmax = 3.5;
  CHECK_THROWS_WITH(io::SystemRunner(io::parse_deck(coupled_first("0.05 dtM\n", "FairTen1"), "m.dat"), s),
                    Catch::Contains(">= the run length 3.5 s"));
}

TEST_CASE("Line output flags write MoorDyn's per-line file; a deck without OUTPUTS writes its .out", "[io][driver]") {
  const fs::path dir = scratch("line_file");
  io::RunSettings s = quiet(dir / "m");
  s.tmax = 0.1;
  io::SystemRunner run(io::parse_deck(coupled_first("0.05 dtM\n", ""), "m.dat"), s);
  run.run();
  CHECK(fs::exists(dir / "m.out"));
  CHECK(fs::exists(dir / "m.nodes.out"));
  std::ifstream f(dir / "m_Line1.out");
  std::string header;
  std::getline(f, header);
  CHECK(header.rfind("Time\tNode0px\tNode0py\tNode0pz\tNode1px", 0) == 0);
  CHECK(header.find("\tSeg1Te\t") != std::string::npos);
  CHECK(header.find("\tSeg20St\tSeg1dSt") != std::string::npos);
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(f, line);) {
    std::stringstream rs(line);
    std::vector<double> r;
    for (std::string tok; std::getline(rs, tok, '\t');) r.push_back(std::stod(tok));
    rows.push_back(r);
  }
  REQUIRE(rows.size() == 3);
  const std::size_t nn = 21, ne = 20;
  REQUIRE(rows[0].size() == 1 + 3 * nn + 3 * ne);
  // Positions: End A first (point 2 at x = 5), End B last (point 1 at x = 400).
  CHECK(rows[0][1] == 5.0);
  CHECK(rows[0][1 + 3 * (nn - 1)] == 400.0);
  // Segment tension and strain: T = EA eps for the (undamped, static) first row.
  for (std::size_t e = 0; e < ne; ++e) {
    const double T = rows[0][1 + 3 * nn + e], eps = rows[0][1 + 3 * nn + ne + e];
    CHECK(T == Approx(3.8e8 * eps).epsilon(1e-9));
    CHECK(rows[0][1 + 3 * nn + 2 * ne + e] == 0.0);  // strain rate at rest
  }
}
