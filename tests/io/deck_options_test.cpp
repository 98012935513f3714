// OPTIONS: the defaults of DECK_FORMAT.md "Main options and defaults", the row forms (value
// first, keyword first, model rows with their parameters on either side), the last row wins,
// every typed keyword parsed, every MoorDyn keyword ignored with a note, every keyword of an
// unimplemented feature accepted at its default and refused otherwise, and the cross checks.
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "deck_fixtures.hpp"

using namespace cabledyn;
using namespace cabledyn::io;
using namespace deck_fixtures;

namespace {

/// A one-line deck with the given OPTIONS rows (line numbers: the first row is line 12).
std::string with_options(const std::string& rows) {
  return "--------------------- LINE TYPES ------------\n"  // 1
         "chain 0.09 77.7 3.8e8 -0.8 0 1.6 0.1 1.0 0.0\n"  // 2
         "--------------------- POINTS ------------\n"      // 3
         "1 Fixed 400 0 -50\n"                              // 4
         "2 Coupled 0 0 0\n"                                // 5
         "--------------------- LINES ------------\n"       // 6
         "1 2 1\n"                                          // 7
         "--------------------- SECTIONS ------------\n"    // 8
         "1 chain 410 41\n"                                 // 9
         "--------------------- OUTPUTS ------------\n"     // 10
         "--------------------- OPTIONS ------------\n"     // 11
         + rows + "\n";
}

Options options(const std::string& rows) { return parse_deck(with_options(rows), "opt.dat").options; }

std::vector<std::string> split_bar(std::string_view s) {
  std::vector<std::string> out;
  while (true) {
    const auto bar = s.find('|');
    out.emplace_back(s.substr(0, bar));
    if (bar == std::string_view::npos) return out;
    s.remove_prefix(bar + 1);
  }
}

}  // namespace

TEST_CASE("option defaults are DECK_FORMAT.md's", "[deck][options]") {
  const Deck d = parse_deck(with_options(""), "opt.dat");
  const Options& o = d.options;
  CHECK(o.g == 9.80665);
  CHECK(o.rhoW == 1025.0);
  CHECK_FALSE(o.WtrDpth.has_value());  // no seabed
  CHECK(o.kBot == 1e5);
  CHECK(o.cBot == 1e4);
  CHECK_FALSE(o.dtM.has_value());
  CHECK_FALSE(o.TMax.has_value());
  CHECK_FALSE(o.dynamic());  // static only
  CHECK(o.steps() == 0);
  CHECK(o.rhoInf == 0.4);
  CHECK(o.dynamic_solver == DynamicSolverSettings{1e-8, 1e-14, 30, 12});
  CHECK_FALSE(o.modified_newton);
  CHECK(o.alpha_force_blend);
  CHECK(o.axial_quadrature_order == 4);
  CHECK(o.bending_quadrature_order == 4);
  CHECK(o.nModes == 0);
  CHECK(o.recovery_max_substeps == 1024);
  CHECK_FALSE(o.tensile_safety);
  CHECK(o.tensile_strain_tolerance == 2e-6);
  CHECK_FALSE(o.motionFile.has_value());
  CHECK_FALSE(o.fairleadMotion.has_value());
  CHECK(o.current.model == CurrentModel::none);
  CHECK(o.waves.kind == WaveKind::none);
  CHECK(o.wavetrains.empty());
  CHECK(o.WaveSeed == 1);
  CHECK(o.rampTime == 0.0);
  CHECK(o.WaveComponents == 200);
  CHECK(o.WaveDirections == 9);
  CHECK(o.StreamOrder == 20);
  CHECK(o.ignored.empty());
  CHECK(o == Options{});
  const Environment env = d.environment();
  CHECK(env.g == 9.80665);
  CHECK(env.rho_w == 1025.0);
  CHECK_FALSE(env.depth.has_value());
  CHECK(options("50 WtrDpth").environment().seabed_z() == -50.0);
}

TEST_CASE("option rows: value first, keyword first, model rows, aliases, last row wins", "[deck][options]") {
  SECTION("value first and keyword first; descriptions ignored") {
    CHECK(options("0.05 dtM - step").dtM == 0.05);
    CHECK(options("dtM 0.05 - step").dtM == 0.05);
    CHECK(options("0.05 dtM step 7 of 9").dtM == 0.05);  // after a one-value keyword: description
    CHECK(options("0.6 rhoInf {0<=rhoInf<=1}").rhoInf == 0.6);
  }
  SECTION("keywords are case-insensitive; MoorDyn aliases") {
    const Options o = options("9.81 GRAVITY\n1000 rho\n3e6 kb\n3e5 CB\n80 depth\nTrue MODIFIED_NEWTON");
    CHECK(o.g == 9.81);
    CHECK(o.rhoW == 1000.0);
    CHECK(o.kBot == 3e6);
    CHECK(o.cBot == 3e5);
    CHECK(o.WtrDpth == 80.0);
    CHECK(o.modified_newton);
    CHECK(o.source.at("g") == 12);
    CHECK(o.source.at("modified_newton") == 17);
  }
  SECTION("model rows: parameters before or after the keyword, or the keyword first") {
    const Options a = options("airy waves 2 8 15");
    CHECK(a.waves == options("airy 2 8 15 waves").waves);
    CHECK(a.waves == options("waves airy 2 8 15 - regular wave").waves);
    CHECK(a.waves.kind == WaveKind::airy);
    CHECK(a.waves.H == 2.0);
    CHECK(a.waves.T == 8.0);
    CHECK(a.waves.dir_deg == 15.0);
    const Options c = options("uniform current 1 -0.5 0");
    CHECK(c.current == options("uniform 1 -0.5 0 current").current);
    CHECK(c.current == options("current uniform 1 -0.5 0").current);
    CHECK(c.current.velocity == std::array<double, 3>{1.0, -0.5, 0.0});
    CHECK(options("1e-7 1e-12 25 4 dynamic_solver").dynamic_solver == DynamicSolverSettings{1e-7, 1e-12, 25, 4});
  }
  SECTION("the last row wins, across dynamic_solver's rhoInf") {
    CHECK(options("0.3 rhoInf\ndynamic_solver 1e-8 1e-14 30 12 0.9").rhoInf == 0.9);
    const Options o = options("dynamic_solver 1e-8 1e-14 30 12 0.9\n0.3 rhoInf");
    CHECK(o.rhoInf == 0.3);
    CHECK(o.line_of("rhoInf") == 13);
    CHECK(options("50 WtrDpth\nnone WtrDpth").WtrDpth == std::nullopt);
    CHECK(options("surge fairleadMotion 1 5\nnone fairleadMotion").fairleadMotion == std::nullopt);
    CHECK(options("airy waves 1 5 0\nnone waves").waves.kind == WaveKind::none);
  }
}

TEST_CASE("every typed keyword is parsed", "[deck][options]") {
  // A valid row for each typed keyword and the value it must set.
  const std::map<std::string, std::pair<std::string, bool (*)(const Options&)>> rows = {
      {"dialect", {"moordyn dialect", [](const Options& o) { return o.dialect == Dialect::moordyn; }}},
      {"dtOut", {"0.5 dtOut", [](const Options& o) { return o.dtOut == 0.5; }}},
      {"WriteUnits", {"1 WriteUnits", [](const Options& o) { return o.WriteUnits; }}},
      {"WaveStretching", {"none WaveStretching", [](const Options& o) { return o.wave_stretching == WaveStretching::none; }}},
      {"g", {"9.7 g", [](const Options& o) { return o.g == 9.7; }}},
      {"rhoW", {"1000 rhoW", [](const Options& o) { return o.rhoW == 1000.0; }}},
      {"WtrDpth", {"120 WtrDpth", [](const Options& o) { return o.WtrDpth == 120.0; }}},
      {"kBot", {"0 kBot", [](const Options& o) { return o.kBot == 0.0; }}},
      {"cBot", {"5 cBot", [](const Options& o) { return o.cBot == 5.0; }}},
      {"dtM", {"0.01 dtM", [](const Options& o) { return o.dtM == 0.01; }}},
      {"TMax", {"0.01 dtM\n0 TMax", [](const Options& o) { return o.TMax == 0.0 && o.dynamic() && o.steps() == 0; }}},
      {"rhoInf", {"1 rhoInf", [](const Options& o) { return o.rhoInf == 1.0; }}},
      {"bodyWetting", {"moordyn bodyWetting", [](const Options& o) { return o.body_wetting_full; }}},
      {"bodyAngles", {"orcaflex bodyAngles", [](const Options& o) { return o.body_angles_orcaflex; }}},
      {"bodySubstep", {"none bodySubstep", [](const Options& o) { return !o.body_substep_accuracy; }}},
      {"bodyScheme", {"staggered bodyScheme", [](const Options& o) { return o.body_scheme_staggered; }}},
      {"bodyHydro", {"moordyn bodyHydro", [](const Options& o) { return !o.body_fluid_inertia; }}},
      {"dynamic_solver", {"dynamic_solver 1e-6 0 1 0", [](const Options& o) {
                            return o.dynamic_solver == DynamicSolverSettings{1e-6, 0.0, 1, 0};
                          }}},
      {"modified_newton", {"yes modified_newton", [](const Options& o) { return o.modified_newton; }}},
      {"alpha_force_blend", {"0 alpha_force_blend", [](const Options& o) { return !o.alpha_force_blend; }}},
      {"axial_quadrature_order", {"1 axial_quadrature_order", [](const Options& o) { return o.axial_quadrature_order == 1; }}},
      {"bending_quadrature_order", {"6 bending_quadrature_order", [](const Options& o) { return o.bending_quadrature_order == 6; }}},
      {"nModes", {"1000 nModes", [](const Options& o) { return o.nModes == 1000; }}},
      {"recovery_max_substeps", {"4 recovery_max_substeps", [](const Options& o) { return o.recovery_max_substeps == 4; }}},
      {"tensile_safety", {"True tensile_safety", [](const Options& o) { return o.tensile_safety; }}},
      {"tensile_strain_tolerance", {"1e-5 tensile_strain_tolerance", [](const Options& o) { return o.tensile_strain_tolerance == 1e-5; }}},
      {"ei0_substeps", {"off ei0_substeps", [](const Options& o) { return !o.ei0_substeps; }}},
      {"ei0_substep_max", {"64 ei0_substep_max", [](const Options& o) { return o.ei0_substep_max == 64; }}},
      {"ei0_substep_angle", {"2.5 ei0_substep_angle", [](const Options& o) { return o.ei0_substep_angle == 2.5; }}},
      {"motionFile", {"motion.dat motionFile", [](const Options& o) { return o.motionFile == "motion.dat"; }}},
      {"fairleadMotion", {"heave fairleadMotion 3 12 90", [](const Options& o) {
                            return o.fairleadMotion == FairleadMotion{MotionMode::heave, 3.0, 12.0, 90.0};
                          }}},
      {"vesselRef", {"10 vesselRef 0 -5\npitch fairleadMotion 2 8", [](const Options& o) {
                       return o.vesselRef == std::array<double, 3>{10, 0, -5} &&
                              o.fairleadMotion == FairleadMotion{MotionMode::pitch, 2.0, 8.0, 0.0};
                     }}},
      {"current", {"seastate current 1 10 20 0.5 20 0.2 30\n100 WtrDpth", [](const Options& o) {
                     return o.current.model == CurrentModel::seastate &&
                            o.current.seastate == SeaStateCurrentDeck{1, 10, 20, 0.5, 20, 0.2, 30};
                   }}},
      {"waves", {"torsethaugen waves 5 11 10 2", [](const Options& o) {
                   return o.waves.kind == WaveKind::torsethaugen && o.waves.H == 5 && o.waves.T == 11 &&
                          o.waves.dir_deg == 10 && o.waves.spreading == 2;
                 }}},
      {"wavetrain", {"jonswap wavetrain 2 16 1 90\nissc wavetrain 1 20 180 0 7", [](const Options& o) {
                       return o.wavetrains.size() == 2 && o.wavetrains[0].seed_offset == 1 &&
                              o.wavetrains[0].gamma == 1.0 && o.wavetrains[1].seed_offset == 7 &&
                              o.wavetrains[1].kind == WaveKind::pierson_moskowitz && o.waves.kind == WaveKind::none;
                     }}},
      {"WaveSeed", {"2147483646 WaveSeed", [](const Options& o) { return o.WaveSeed == 2147483646; }}},
      {"rampTime", {"25 rampTime", [](const Options& o) { return o.rampTime == 25.0; }}},
      {"WaveComponents", {"1 WaveComponents", [](const Options& o) { return o.WaveComponents == 1; }}},
      {"WaveDirections", {"15 WaveDirections", [](const Options& o) { return o.WaveDirections == 15; }}},
      {"StreamOrder", {"100 StreamOrder", [](const Options& o) { return o.StreamOrder == 100; }}},
  };
  for (const io::detail::OptionSpec& s : io::detail::kOptionSpecs) {
    if (s.role != io::detail::OptionRole::typed) continue;
    const std::string name = io::detail::canonical(s);
    INFO(name);
    const auto it = rows.find(name);
    REQUIRE(it != rows.end());  // every typed keyword has a row here
    const Options o = options(it->second.first);
    CHECK(it->second.second(o));
    CHECK(o.line_of(name) >= 12);
  }
}

TEST_CASE("wave models and spectral trains", "[deck][options]") {
  const Options o = options("ochi waves 3 14 2 2 8 1 20 4\nochi-hubble wavetrain 1 12 1 0 5 2 0");
  CHECK(o.waves.kind == WaveKind::ochi_hubble);
  CHECK(o.waves.ochi == OchiHubbleDeck{3, 14, 2, 2, 8, 1});
  CHECK(o.waves.dir_deg == 20.0);
  CHECK(o.waves.spreading == 4.0);
  CHECK(o.waves.spectral());
  CHECK(o.wavetrains[0].ochi.Hs2 == 0.0);
  CHECK(o.wavetrains[0].line == 13);
  // JONSWAP as height, period and direction: gamma 3.3.
  const Options j = options("jonswap waves 6 12 30\njonswap wavetrain 2 16 90");
  CHECK(j.waves.gamma == 3.3);
  CHECK(j.waves.dir_deg == 30.0);
  CHECK(j.waves.spreading == 0.0);
  CHECK(j.wavetrains[0].gamma == 3.3);
  CHECK(j.wavetrains[0].seed_offset == 1);
  CHECK(j.waves == options("jonswap waves 6 12 3.3 30 0").waves);
  const Options p = options("pierson-moskowitz waves 3 9 -90");
  CHECK(p.waves.kind == WaveKind::pierson_moskowitz);
  CHECK(p.waves.beta() == Approx(-kPi / 2).epsilon(1e-15));
  const Options s = options("80 WtrDpth\nstream waves 8 12 0\n14 StreamOrder");
  CHECK(s.waves.kind == WaveKind::stream);
  CHECK_FALSE(s.waves.spectral());
  CHECK(s.StreamOrder == 14);
}

TEST_CASE("MoorDyn keywords the implicit solver does not need are ignored with a note", "[deck][options]") {
  int count = 0;
  for (const io::detail::OptionSpec& s : io::detail::kOptionSpecs) {
    if (s.role != io::detail::OptionRole::ignored) continue;
    for (const std::string& name : split_bar(s.names)) {
      INFO(name);
      const Deck d = parse_deck(with_options("1 " + name + " - a MoorDyn setting"), "opt.dat");
      REQUIRE(d.options.ignored.size() == 1);
      CHECK(d.options.ignored[0].keyword == io::detail::canonical(s));
      CHECK(d.options.ignored[0].value == "1");
      CHECK(d.options.ignored[0].line == 12);
      REQUIRE(d.notes.size() == 1);
      CHECK(d.notes[0].rfind("opt.dat:12: " + io::detail::canonical(s) + " = 1 accepted and ignored: ", 0) == 0);
      ++count;
    }
  }
  CHECK(count >= 7);  // at least dtIC, TmaxIC, CdScaleIC, threshIC, tScheme, WriteLog, fileIC
  for (const char* kw : {"dtIC", "TmaxIC", "CdScaleIC", "threshIC", "tScheme", "WriteLog", "fileIC", "ICfile",
                         "genDynamicIC"})
    CHECK(io::detail::find_option(kw)->role == io::detail::OptionRole::ignored);
}

TEST_CASE("options of unimplemented features: accepted at their default, refused otherwise", "[deck][options]") {
  for (const io::detail::OptionSpec& s : io::detail::kOptionSpecs) {
    if (s.role != io::detail::OptionRole::default_only) continue;
    const std::string name = io::detail::canonical(s);
    for (const std::string& alias : split_bar(s.names)) {
      for (const std::string& value : split_bar(s.defaults)) {
        INFO(alias << " = " << value);
        const std::string row = s.multi ? value + " " + value + " " + value + " " + alias : value + " " + alias;
        const Deck d = parse_deck(with_options(row), "opt.dat");
        CHECK(d.options == Options{});  // asks for nothing, changes nothing
        CHECK(d.notes.empty());
      }
      INFO(alias);
      require_error(with_options("12345 " + alias), "opt.dat", {12, name, "12345", "not implemented"});
    }
  }
  require_error(with_options("True adaptive_mesh - refine where curvature is high"), "opt.dat",
                {12, "adaptive_mesh", "True", "not implemented: adaptive mesh refinement"});
  // vesselRef: three numbers, before or after the keyword (a deck with a Coupled point).
  CHECK(options("0 0 1 vesselRef").vesselRef == std::array<double, 3>{0, 0, 1});
  CHECK(options("vesselRef 5 -2 -10").vesselRef == std::array<double, 3>{5, -2, -10});
  CHECK_THROWS_WITH(options("1 2 vesselRef"), Catch::Contains("vesselRef"));
  CHECK(options("none frictionMu\n0 WaterKin\nFalse adaptive_mesh\n16 ei0_substep_max") == Options{});
  // ei0_substeps: auto (the default) or off, with its count and angle.
  CHECK(Options{}.ei0_substeps);
  CHECK_FALSE(options("off ei0_substeps").ei0_substeps);
  CHECK_FALSE(options("False ei0_substeps").ei0_substeps);
  CHECK(options("auto ei0_substeps").ei0_substeps);
  CHECK(options("32 ei0_substep_max").ei0_substep_max == 32);
  CHECK(options("0.5 ei0_substep_angle").ei0_substep_angle == 0.5);
}

TEST_CASE("option values out of range name the keyword", "[deck][options]") {
  const std::vector<std::pair<std::string, Expected>> bad = {
      {"-1 g", {12, "g", "-1", ">= 0"}},
      {"-1 rhoW", {12, "rhoW", "-1", ">= 0"}},
      {"-1 kBot", {12, "kBot", "-1", ">= 0"}},
      {"-1 cBot", {12, "cBot", "-1", ">= 0"}},
      {"-1 TMax", {12, "TMax", "-1", ">= 0"}},
      {"-0.1 rhoInf", {12, "rhoInf", "-0.1", "[0, 1]"}},
      {"dynamic_solver 0 1e-14 30 12", {12, "dynamic_solver rel", "0", "> 0"}},
      {"dynamic_solver 1e-8 -1 30 12", {12, "dynamic_solver abs", "-1", ">= 0"}},
      {"dynamic_solver 1e-8 1e-14 30 -1", {12, "dynamic_solver backtracks", "-1", "[0, 1000]"}},
      {"dynamic_solver 1e-8 1e-14 30 12 2", {12, "dynamic_solver rhoInf", "2", "[0, 1]"}},
      {"dynamic_solver 1e-8 1e-14 30 12 0.4 5", {12, "dynamic_solver", "5", "at most 5 values"}},
      {"0 bending_quadrature_order", {12, "bending_quadrature_order", "0", "[1, 6]"}},
      {"3 recovery_max_substeps", {12, "recovery_max_substeps", "3", "[4, 65536]"}},
      {"-1 nModes", {12, "nModes", "-1", "[0, 1000]"}},
      {"0 WaveComponents", {12, "WaveComponents", "0", "[1, 1000000]"}},
      {"0 WaveDirections", {12, "WaveDirections", "0", "[1, 100000]"}},
      {"101 StreamOrder", {12, "StreamOrder", "101", "[1, 100]"}},
      {"-1 rampTime", {12, "rampTime", "-1", ">= 0"}},
      {"surge fairleadMotion -1 10", {12, "fairleadMotion amplitude", "-1", ">= 0"}},
      {"surge fairleadMotion 1 0", {12, "fairleadMotion period", "0", "> 0"}},
      {"surge fairleadMotion 1", {12, "fairleadMotion", "1", "more values"}},
      {"jonswap waves 6 12", {12, "waves", "12", "more values"}},
      {"jonswap waves 6 12 3.3 0 -1", {12, "waves spreading s", "-1", ">= 0"}},
      {"jonswap waves 6 12 3.3 0 1 2", {12, "waves", "2", "at most 6 values"}},
      {"ochi waves 0 14 2 0 8 1 20", {12, "waves Hs1 + Hs2", "0", "> 0"}},
      {"ochi waves 3 14 0 2 8 1 20", {12, "waves lambda1", "0", "> 0"}},
      {"airy waves 0 8 0", {12, "waves H", "0", "> 0"}},
      {"none waves 5", {12, "waves", "5", "at most 1 values"}},
      {"seastate current -1 0 20 0 0 0 0", {12, "CurrSSV0", "-1", ">= 0"}},
      {"seastate current 1 0 0 0 0 0 0", {12, "CurrNSRef", "0", "> 0"}},
      {"eddy current 1 0 0", {12, "current model", "eddy", "none, uniform, profile or seastate"}},
      {"profile current 0 1 0 0", {12, "current", "0", "more values"}},
      {"1 WaveSeed\njonswap wavetrain 2 8 3.3 0 0 -1", {13, "WaveSeed + seed offset", "0", "[1, 2147483646]"}},
      {"0.05 dtM\n0.125 TMax", {13, "TMax", "0.125", "multiple of dtM = 0.05"}},
      {"1e-300 dtM\n1e300 TMax", {13, "TMax", "1e300", "<= 1e+09 (the plausibility limit)"}},
      {"1e-9 dtM\n100 TMax", {13, "TMax / dtM", "1e+11", "<= 2147483647 steps"}},
  };
  for (const auto& [rows, x] : bad) {
    INFO(rows);
    require_error(with_options(rows), "opt.dat", x);
  }
  // TMax a multiple of dtM up to round-off: 0.3 / 0.1 = 2.9999999999999996.
  const Options o = options("0.1 dtM\n0.3 TMax");
  CHECK(o.steps() == 3);
}
