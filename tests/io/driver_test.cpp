// The cabledyn driver: the default deck runs end to end (short TMax) and its outputs parse;
// a static run of a one-line deck equals the library's solvers called directly; the
// reference decks of ../shared/decks run unchanged where their features exist and are
// refused by name where they do not.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>

#include "cabledyn/io/driver.hpp"

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
  io::DeckRunner run(deck, quiet(dir / "default"));
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
  // At t = 0 the fairlead tensions are the static ones (the surge is ramped from rest).
  CHECK(out.rows[0][1] == Approx(run.lines()[0].statics.end_force[0].norm()).epsilon(1e-6));
  // Point4Fx: the force line 1 exerts on its fairlead point along x, equal to the end force.
  CHECK(out.rows[0][10] == Approx(run.lines()[0].statics.end_force[0](0)).epsilon(1e-6));
  for (const char* f : {"default.static.out", "default.nodes.out", "default.summary.txt", "default.profile.svg",
                        "default.tension.svg"})
    CHECK(fs::exists(dir / f));
  const std::string svg = slurp(dir / "default.tension.svg");
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(svg.find("polyline") != std::string::npos);
  // The static file holds one row per node of each line plus the header.
  const std::string st = slurp(dir / "default.static.out");
  CHECK(std::count(st.begin(), st.end(), '\n') == 1 + 3 * 41);
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
  io::DeckRunner run(deck, quiet(dir / "one"));
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
      CHECK_THROWS_WITH(io::DeckRunner(io::read_deck(entry.path().string()), quiet(dir / "x")).run(),
                        Catch::Contains(it->second));
      continue;
    }
    const io::Deck deck = io::read_deck(entry.path().string());
    io::DeckRunner run(deck, quiet(dir / entry.path().stem()));
    CHECK_NOTHROW(run.run());
    for (const auto& L : run.lines()) CHECK(L.statics.residual <= std::max(1e-6 * L.statics.scale, L.statics.floor * 10));
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
  io::DeckRunner run(deck, quiet(dir / "surge"));
  run.run();
  const OutFile out = read_out(dir / "surge.out");
  REQUIRE(out.rows.size() == 21);
  CHECK(out.rows.front()[1] == Approx(5.2));
  CHECK(out.rows[10][1] == Approx(5.7).epsilon(1e-12));  // u = 1/2 of the quintic
  CHECK(out.rows.back()[1] == Approx(6.2));
  // Moved 1 m toward the anchor the fairlead tension falls (the line slackens).
  CHECK(out.rows.back()[2] < out.rows.front()[2]);
}
