// The deck reader: the reference decks of ../shared/decks read unchanged (or are refused by
// name where they ask for what the library does not implement), the parsed numbers of a few,
// the test decks of tests/io/decks, the lexical rules of DECK_FORMAT.md, the round trip
// through to_text, and one check per error path that the message names file, line and field.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "deck_fixtures.hpp"

using namespace cabledyn;
using namespace cabledyn::io;
using namespace deck_fixtures;

namespace {

std::string base_name(const std::string& path) { return fs::path(path).filename().string(); }

/// The reference decks that ask for something the library does not implement: the line and
/// field of the refusal.
const std::map<std::string, Expected>& refused_reference_decks() {
  static const std::map<std::string, Expected> m = {
      {"ve_polyester_dynamic_waves.dat", {12, "LINE TYPES column 4 (EA)", "1.424e8|2.50e8", "viscoelastic"}},
  };
  return m;
}

}  // namespace

TEST_CASE("every reference deck reads unchanged or is refused by name", "[deck]") {
  const auto decks = shared_decks();
  if (decks.empty()) {
    WARN("../shared/decks is absent (CABLEDYN_SHARED_DIR = " << CABLEDYN_SHARED_DIR
                                                             << "): the reference decks are not tested");
    return;
  }
  for (const auto& path : decks) {
    const std::string name = base_name(path);
    INFO(name);
    const auto it = refused_reference_decks().find(name);
    if (it != refused_reference_decks().end()) {
      require_error(read_text(path), path, it->second);
      continue;
    }
    try {
      const Deck d = read_deck(path);
      CHECK(!d.lines.empty());
      CHECK(!d.outputs.empty());
      CHECK(d.notes.empty());
    } catch (const InputError& e) {
      // A deck added later may ask for a feature not implemented yet: it must say so.
      INFO(e.what());
      CHECK(e.limit().find("not implemented") != std::string::npos);
    }
  }
}

TEST_CASE("reference decks: the parsed numbers", "[deck]") {
  const std::string dir = shared_decks_dir();
  if (dir.empty()) {
    WARN("../shared/decks is absent: the reference deck numbers are not tested");
    return;
  }
  SECTION("chain_catenary_r3_100m.dat") {
    const Deck d = read_deck(dir + "/chain_catenary_r3_100m.dat");
    REQUIRE(d.line_types.size() == 1);
    const LineType& t = d.line_types[0].type;
    CHECK(t.name == "chainR3");
    CHECK(t.d == 0.2466);
    CHECK(t.rho_A == 373.5);
    CHECK(t.EA == 1.607e9);
    CHECK(t.BA == -1.0);
    CHECK(t.EI == 0.0);
    CHECK(t.Cdn == 1.37);
    CHECK(t.Cdt == 0.64);
    CHECK(t.Can == 1.0);
    CHECK(t.Cat == 0.0);
    CHECK(d.line_types[0].line == 9);
    REQUIRE(d.points.size() == 2);
    CHECK(d.points[0].type == PointType::fixed);
    CHECK(d.points[0].r == std::array<double, 3>{500.0, 0.0, -100.0});
    CHECK(d.points[1].type == PointType::coupled);
    REQUIRE(d.lines.size() == 1);
    CHECK(d.lines[0].node_a == 2);
    CHECK(d.lines[0].node_b == 1);
    CHECK_FALSE(d.lines[0].swapped);  // End A is already the fairlead
    CHECK(d.lines[0].fairlead() == 2);
    CHECK(d.lines[0].line == 18);
    REQUIRE(d.sections.size() == 1);
    CHECK(d.sections[0].length == 550.0);
    CHECK(d.sections[0].segments == 55);
    CHECK(d.segments(1) == 55);
    CHECK_FALSE(d.hermite(1));
    const Options& o = d.options;
    CHECK(o.g == 9.80665);
    CHECK(o.rhoW == 1025.0);
    CHECK(o.WtrDpth == 100.0);
    CHECK(o.kBot == 1e5);
    CHECK(o.cBot == 1e4);
    CHECK(o.rhoInf == 0.4);
    CHECK_FALSE(o.dynamic());
    CHECK(o.line_of("cBot") == 28);
    CHECK(o.current.model == CurrentModel::none);
    CHECK(o.waves.kind == WaveKind::none);
    REQUIRE(d.outputs.size() == 4);
    CHECK(d.outputs[0].channel.name() == "FairTen1");
    CHECK(d.outputs[3].channel.kind == ChannelKind::AnchIncl);
    CHECK(d.outputs[3].line == 42);
    CHECK(d.title.rfind("CableDyn driver deck -- single R3", 0) == 0);
  }
  SECTION("composite_chain_poly_chain.dat: three sections End A to End B") {
    const Deck d = read_deck(dir + "/composite_chain_poly_chain.dat");
    const auto s = d.sections_of(1);
    REQUIRE(s.size() == 3);
    CHECK(s[0].type == "chain");
    CHECK(s[0].length == 100.0);
    CHECK(s[1].type == "polyester");
    CHECK(s[1].segments == 40);
    CHECK(s[2].length == 250.0);
    CHECK(d.segments(1) == 77);
    const auto ls = d.line_sections(1);
    REQUIRE(ls.size() == 3);
    CHECK(ls[1].type.EA == 1.42e8);
    CHECK(ls[1].type.rho_A == 22.42);
    CHECK(d.options.kBot == 3.0e6);
    CHECK(d.options.WtrDpth == 200.0);
    CHECK(d.points[1].r == std::array<double, 3>{58.0, 0.0, -14.0});
  }
  SECTION("dynamic_chain_waves.dat: dtM, TMax and the Airy wave (values before the keyword)") {
    const Deck d = read_deck(dir + "/dynamic_chain_waves.dat");
    const Options& o = d.options;
    CHECK(o.dtM == 0.05);
    CHECK(o.TMax == 10.0);
    CHECK(o.dynamic());
    CHECK(o.steps() == 200);
    CHECK(o.waves.kind == WaveKind::airy);
    CHECK(o.waves.H == 2.0);
    CHECK(o.waves.T == 8.0);
    CHECK(o.waves.dir_deg == 0.0);
    CHECK(o.line_of("waves") == 32);
    CHECK(o.dynamic_solver == DynamicSolverSettings{});
  }
  SECTION("chain_modes.dat: nModes") {
    const Deck d = read_deck(dir + "/chain_modes.dat");
    CHECK(d.options.nModes == 12);
    CHECK_FALSE(d.options.dynamic());
  }
  SECTION("wd0050_chain.dat: point channels") {
    const Deck d = read_deck(dir + "/wd0050_chain.dat");
    REQUIRE(d.outputs.size() == 7);
    CHECK(d.outputs[4].channel.kind == ChannelKind::PointPosition);
    CHECK(d.outputs[4].channel.point == 2);
    CHECK(d.outputs[6].channel.component == 2);
  }
  SECTION("lozon_gomex80_power_cable.dat: a Hermite cable with the tensile audit") {
    const Deck d = read_deck(dir + "/lozon_gomex80_power_cable.dat");
    CHECK(d.options.tensile_safety);
    CHECK(d.options.line_of("tensile_safety") == 37);
    CHECK(d.hermite(1));
    CHECK(d.segments(1) == 448 + 320 + 256);
    CHECK(d.line_types[1].type.EI == 1.99e4);
    CHECK(d.line_types[1].type.d == 0.290);
    CHECK(d.options.TMax == 0.0);  // TMax = 0: statics through the dynamic initialiser
    CHECK(d.options.dynamic());
    CHECK(d.options.steps() == 0);
    CHECK(d.points[0].type == PointType::coupled);
    CHECK(d.points[1].r == std::array<double, 3>{125.0, 0.0, -80.0});
    REQUIRE(d.outputs.size() == 6);
    CHECK(d.outputs[4].channel == *parse_channel("Curv1N383"));
    CHECK(d.outputs[5].channel.kind == ChannelKind::BendMom);
  }
  SECTION("ve_polyester_dynamic_waves.dat: BA_s|BA_d needs the viscoelastic EA (as in MoorDyn)") {
    const std::string text = replace_all(read_text(dir + "/ve_polyester_dynamic_waves.dat"), "1.424e8|2.50e8", "1.424e8");
    require_error(text, "ve.dat", {12, "LINE TYPES column 5 (BA/-zeta)", "4.0e9|1.1e7", "needs a viscoelastic EA"});
    const Deck d = parse_deck(replace_all(text, "4.0e9|1.1e7", "4.0e9"), "ve.dat");
    CHECK(d.line_types[0].type.EA == 1.424e8);
    CHECK(d.options.waves.kind == WaveKind::airy);
    CHECK(d.options.waves.T == 10.0);
  }
}

TEST_CASE("test decks: the parsed numbers", "[deck]") {
  SECTION("three_line_chain.dat") {
    const Deck d = read_deck(own_deck("three_line_chain.dat"));
    CHECK(d.points.size() == 6);
    REQUIRE(d.lines.size() == 3);
    for (const auto& l : d.lines) CHECK_FALSE(l.swapped);
    CHECK(d.lines[0].outputs == "pt");
    CHECK(d.line_types[0].type.EA == 384.243e6);
    CHECK(d.find_point(5)->r == std::array<double, 3>{-2.6, 4.5033, -70.0});
    const Options& o = d.options;
    CHECK(o.steps() == 400);
    CHECK(o.rhoInf == 0.6);
    CHECK(o.dynamic_solver == DynamicSolverSettings{1e-9, 1e-12, 40, 10});
    CHECK(o.modified_newton);
    CHECK(o.nModes == 6);
    REQUIRE(o.fairleadMotion.has_value());
    CHECK(*o.fairleadMotion == FairleadMotion{MotionMode::surge, 5.0, 10.0, 0.0});
    CHECK(o.waves.kind == WaveKind::jonswap);
    CHECK(o.waves.H == 6.0);
    CHECK(o.waves.T == 12.0);
    CHECK(o.waves.gamma == 3.3);
    CHECK(o.waves.dir_deg == 30.0);
    CHECK(o.waves.beta() == Approx(kPi / 6).epsilon(1e-15));
    CHECK(o.current.model == CurrentModel::uniform);
    CHECK(o.current.velocity == std::array<double, 3>{0.5, 0.1, 0.0});
    CHECK(o.WaveSeed == 7);
    CHECK(o.rampTime == 10.0);
    REQUIRE(d.outputs.size() == 10);
    CHECK(d.outputs[5].channel == *parse_channel("Ten1N21"));
    CHECK(d.outputs[6].channel == *parse_channel("L1N41px"));
    CHECK(d.outputs[9].channel == *parse_channel("Point4Fx"));
    CHECK(d.notes.empty());
  }
  SECTION("moordyn_stock.dat: MoorDyn order, 7-column LINES, ignored keywords, swapped ends") {
    const Deck d = read_deck(own_deck("moordyn_stock.dat"));
    const LineType& t = d.line_types[0].type;
    CHECK(t.Cdn == 2.3);  // Cd
    CHECK(t.Can == 1.0);  // Ca
    CHECK(t.Cdt == 1.0);  // CdAx
    CHECK(t.Cat == 0.5);  // CaAx
    REQUIRE(d.lines.size() == 1);
    const LineRecord& l = d.lines[0];
    CHECK(l.stock_form);
    CHECK(l.node_a == 1);
    CHECK(l.node_b == 2);
    CHECK(l.swapped);  // a Fixed End A and a Vessel End B: End A becomes the fairlead
    CHECK(l.fairlead() == 2);
    CHECK(l.anchor() == 1);
    CHECK(l.outputs == "p");
    REQUIRE(d.sections.size() == 1);
    CHECK(d.sections[0].type == "Chain");
    CHECK(d.sections[0].length == 520.0);
    CHECK(d.sections[0].segments == 20);
    CHECK(d.sections[0].line == l.line);
    const Options& o = d.options;
    CHECK(o.kBot == 3e6);
    CHECK(o.cBot == 3e5);
    CHECK(o.dtM == 0.002);
    CHECK_FALSE(o.dynamic());
    CHECK(o.dtOut == 0.1);
    CHECK(o.WriteUnits);  // MoorDyn's default
    CHECK(d.dialect == Dialect::moordyn);
    REQUIRE(o.ignored.size() == 6);
    CHECK(o.ignored[0].keyword == "WriteLog");
    CHECK(o.ignored[5].keyword == "tScheme");
    CHECK(o.ignored[5].value == "RK4");
    REQUIRE(d.notes.size() == 8);
    CHECK(d.notes[1].find("moordyn_stock.dat:23: dtIC = 0.5 accepted and ignored") != std::string::npos);
    CHECK(d.notes[6].find("dtM without TMax") != std::string::npos);
    CHECK(d.notes[7].find("MoorDyn deck (7-column LINES): node channels count from 0") != std::string::npos);
    CHECK(d.outputs[2].channel.name() == "Point2px");  // POINT2PX, case-folded
  }
  SECTION("lazy_wave_cable.dat: Hermite cable, EQUIVALENT BUOYANCY, END CONNECTIONS, sea state") {
    const Deck d = read_deck(own_deck("lazy_wave_cable.dat"));
    CHECK(d.hermite(1));
    CHECK(d.segments(1) == 64);
    const LineType& buoy = d.find_line_type("buoy")->type;
    CHECK(buoy.d == 0.30);
    // rho_A = w / g + rhoW pi d^2 / 4 gives back the submerged weight of the row.
    CHECK(submerged_weight(buoy.rho_A, buoy.d, 1025.0, 9.80665) == Approx(-250.0).epsilon(1e-14));
    CHECK(buoy.rho_A == Approx(1025.0 * kPi * 0.09 / 4 - 250.0 / 9.80665).epsilon(1e-15));
    CHECK(d.find_line_type("bare")->type.rho_A == 36.70);
    REQUIRE(d.end_connections.size() == 2);
    const auto* a = d.end_connection(1, 0);
    REQUIRE(a != nullptr);
    CHECK(a->kind == EndConnectionKind::rigid);
    CHECK(a->direction == std::array<double, 3>{0.3, 0.0, -1.0});
    CHECK(d.end_connection(1, 1)->kind == EndConnectionKind::pinned);  // 11 columns, torsion free
    const Options& o = d.options;
    CHECK_FALSE(o.alpha_force_blend);
    CHECK(o.axial_quadrature_order == 3);
    CHECK(o.bending_quadrature_order == 5);
    CHECK(o.recovery_max_substeps == 512);
    REQUIRE(o.current.model == CurrentModel::profile);
    REQUIRE(o.current.profile.size() == 3);
    CHECK(o.current.profile[0] == CurrentLevel{-80.0, {0.2, 0.0, 0.0}});
    CHECK(o.current.profile[2] == CurrentLevel{0.0, {0.8, 0.1, 0.0}});
    CHECK(o.waves.kind == WaveKind::jonswap);
    CHECK(o.waves.spreading == 8.0);
    CHECK(o.waves.gamma == 2.0);
    REQUIRE(o.wavetrains.size() == 1);
    CHECK(o.wavetrains[0].kind == WaveKind::pierson_moskowitz);
    CHECK(o.wavetrains[0].dir_deg == 45.0);
    CHECK(o.wavetrains[0].seed_offset == 1);
    CHECK(o.WaveSeed == 42);
    CHECK(o.WaveComponents == 150);
    CHECK(o.WaveDirections == 11);
    CHECK(d.outputs[2].channel == *parse_channel("Curv1N40"));
    CHECK(d.lines[0].outputs == "pK");
  }
}

namespace {

/// A small valid deck for the lexical and error tests (line numbers in the comments).
const char* const kBase =
    "--------------------- CableDyn Input File ----------------------\n"  // 1
    "error-path deck\n"                                                      // 2
    "--------------------- LINE TYPES ----------------------\n"             // 3
    "TypeName Diam MassDenInAir EA BA/-zeta EI Cd_n Cd_t Ca_n Ca_t\n"        // 4
    "(-) (m) (kg/m) (N) (N-s/-) (N-m^2) (-) (-) (-) (-)\n"                   // 5
    "chain 0.09 77.7 3.8e8 -0.8 0 1.6 0.1 1.0 0.0\n"                         // 6
    "cable 0.16 36.7 4.7e8 0 2e4 1.2 0.1 1.0 0.0\n"                          // 7
    "--------------------- POINTS ----------------------\n"                 // 8
    "ID Type X Y Z Mass Vol CdA Ca\n"                                        // 9
    "1 Fixed 400 0 -50 0 0 0 0\n"                                            // 10
    "2 Coupled 0 0 0 0 0 0 0\n"                                              // 11
    "3 Fixed 0 400 -50 0 0 0 0\n"                                            // 12
    "--------------------- LINES ----------------------\n"                  // 13
    "ID NodeA NodeB Outputs\n"                                               // 14
    "1 2 1 -\n"                                                              // 15
    "2 2 3 -\n"                                                              // 16
    "--------------------- SECTIONS ----------------------\n"               // 17
    "LineID LineType Length NumSegs\n"                                       // 18
    "1 chain 410 41\n"                                                       // 19
    "2 cable 420 42\n"                                                       // 20
    "--------------------- END CONNECTIONS ----------------------\n"        // 21
    "LineID End Stiffness EzX EzY EzZ\n"                                     // 22
    "2 A 1e5 0 0.1 -1\n"                                                     // 23
    "--------------------- OPTIONS ----------------------\n"                // 24
    "50 WtrDpth\n"                                                           // 25
    "0.05 dtM\n"                                                             // 26
    "10 TMax\n"                                                              // 27
    "--------------------- OUTPUTS ----------------------\n"                // 28
    "FairTen1\n"                                                             // 29
    "Curv2N43\n"                                                             // 30
    "--------------------- need this line ----------------------\n";        // 31

/// kBase with record `line` (1-based) replaced by `text` (several records with '\n'; "" deletes it).
std::string edit(int line, const std::string& text) {
  auto lines = split_lines(kBase);
  REQUIRE(line >= 1);
  REQUIRE(line <= static_cast<int>(lines.size()));
  if (text.empty()) {
    lines.erase(lines.begin() + (line - 1));
  } else {
    lines[static_cast<std::size_t>(line - 1)] = text;
  }
  return join_lines(lines);
}

std::string append(const std::string& text) { return std::string(kBase) + text; }

}  // namespace

TEST_CASE("the error-path base deck is valid", "[deck]") {
  const Deck d = parse_deck(kBase, "err.dat");
  CHECK(d.lines.size() == 2);
  CHECK(d.hermite(2));
  CHECK_FALSE(d.hermite(1));
  CHECK(d.end_connection(2, 0)->kind == EndConnectionKind::spring);
  CHECK(d.end_connection(2, 0)->stiffness == 1e5);
  CHECK(d.outputs[1].channel.node == 43);
}

TEST_CASE("lexical rules", "[deck]") {
  SECTION("comments: # ! % anywhere, -- at the start of a record or after white space") {
    std::string t = edit(6, "chain 0.09 77.7 3.8e8 -0.8 0 1.6 0.1 1.0 0.0 # Ca_t ! more % and more");
    t = replace_all(t, "1 chain 410 41\n", "1 chain 410 41 -- a note\n-- a whole-line remark\n# --- a commented dash rule\n");
    t = replace_all(t, "50 WtrDpth\n", "50 WtrDpth ! depth\n");
    const Deck d = parse_deck(t, "c.dat");
    CHECK(d.sections[0].segments == 41);
    CHECK(d.line_types[0].type.Cat == 0.0);
    CHECK(d.options.WtrDpth == 50.0);
    // `--` glued to a token is not a comment: the token is then a bad number.
    require_error(edit(19, "1 chain 410 41--x"), "c.dat", {19, "SECTIONS column 4 (NumSegs)", "41--x", "integer"});
    // A negative number is one token.
    CHECK(parse_deck(edit(6, "chain 0.09 77.7 3.8e8 -.8 0 1.6 0.1 1.0 0.0"), "c.dat").line_types[0].type.BA == -0.8);
  }
  SECTION("section names: case-folded, dashes and spaces collapsed, aliases") {
    std::string t = edit(3, "----------- line   dictionary -------");
    t = replace_all(t, "--------------------- POINTS ----------------------", "-------Connection Properties-------");
    t = replace_all(t, "--------------------- LINES ----------------------", "--- LINE PROPERTIES ---");
    t = replace_all(t, "--------------------- OPTIONS ----------------------", "---------- SOLVER OPTIONS");
    const Deck d = parse_deck(t, "s.dat");
    CHECK(d.line_types.size() == 2);
    CHECK(d.points.size() == 3);
    CHECK(io::detail::header_name("----  Line   Types ---") == "LINE TYPES");
    CHECK(io::detail::header_name("--\tend\tconnections--") == "END CONNECTIONS");
  }
  SECTION("closing records: END, a plain dash rule, NEED, INPUT FILE; free text skipped") {
    std::string t = replace_all(kBase, "Curv2N43\n", "Curv2N43\nEND\nfree text 1 2 3 that is not a channel\n");
    t = replace_all(t, "3 Fixed 0 400 -50 0 0 0 0\n",
                    "3 Fixed 0 400 -50 0 0 0 0\n-------------------------------\nnotes 1 2 3 after a plain rule\n");
    t = replace_all(t, "2 cable 420 42\n", "2 cable 420 42\n---- MoorDyn input file ----\nbanner text 5 6\n");
    const Deck d = parse_deck(t, "e.dat");
    CHECK(d.points.size() == 3);
    CHECK(d.outputs.size() == 2);
    CHECK(d.title == "error-path deck");
  }
  SECTION("header and units rows (no numeric token) are skipped anywhere in a table") {
    const Deck d = parse_deck(replace_all(kBase, "1 chain 410 41\n", "1 chain 410 41\n(-) (-) (m) (-)\nmore header words\n"),
                              "h.dat");
    CHECK(d.sections.size() == 2);
  }
  SECTION("quoted tokens") {
    std::string t = replace_all(kBase, "FairTen1\n", "\"FairTen1\"\n");
    t = replace_all(t, "10 TMax\n", "10 TMax\n\"my motion # file.dat\" motionFile\n");
    const Deck d = parse_deck(t, "q.dat");
    CHECK(d.outputs[0].channel.name() == "FairTen1");
    CHECK(d.options.motionFile == "my motion # file.dat");
    require_error(replace_all(kBase, "FairTen1\n", "\"FairTen1\n"), "q.dat", {29, "column 1", "\"FairTen1", "closing quote"});
    require_error(replace_all(kBase, "FairTen1\n", "\"Fair\"Ten1\n"), "q.dat", {29, "column 1", "\"Fair\"Ten1", "white space"});
  }
  SECTION("CRLF line ends, tabs and a UTF-8 byte-order mark") {
    std::string t = "\xEF\xBB\xBF" + replace_all(kBase, "\n", "\r\n");
    t = replace_all(t, "1 chain 410 41", "1\tchain\t410\t41");
    const Deck d = parse_deck(t, "crlf.dat");
    CHECK(d == parse_deck(kBase, "lf.dat"));
    CHECK(d.title == "error-path deck");
  }
  SECTION("numbers: one finite token; a leading + accepted") {
    CHECK(parse_deck(edit(25, "+50 WtrDpth"), "n.dat").options.WtrDpth == 50.0);
    CHECK(parse_deck(edit(25, "5.0e+1 WtrDpth"), "n.dat").options.WtrDpth == 50.0);
    for (const char* bad : {"1,5", "0x10", "inf", "nan", "1e999", "++5", "5m", "1.2.3"})
      require_error(edit(19, std::string("1 chain ") + bad + " 41"), "n.dat", {19, "SECTIONS column 3 (Length)", bad, ""});
    CHECK(io::detail::looks_numeric("-.5"));
    CHECK(io::detail::looks_numeric("+1"));
    CHECK_FALSE(io::detail::looks_numeric("(-)"));
    CHECK_FALSE(io::detail::looks_numeric("-"));
    CHECK_FALSE(io::detail::looks_numeric("nan"));
  }
  SECTION("section order is free; the last option row wins") {
    auto lines = split_lines(kBase);
    // Move OPTIONS (24..27) and OUTPUTS (28..30) before LINE TYPES.
    std::vector<std::string> moved(lines.begin(), lines.begin() + 2);
    moved.insert(moved.end(), lines.begin() + 23, lines.begin() + 30);
    moved.insert(moved.end(), lines.begin() + 2, lines.begin() + 23);
    moved.push_back(lines[30]);
    const Deck d = parse_deck(join_lines(moved), "o.dat");
    CHECK(d == parse_deck(kBase, "b.dat"));
    const Deck e = parse_deck(replace_all(kBase, "10 TMax\n", "10 TMax\n80 WtrDpth\n20 TMax\n"), "w.dat");
    CHECK(e.options.WtrDpth == 80.0);
    CHECK(e.options.TMax == 20.0);
    CHECK(e.options.line_of("TMax") == 29);
    CHECK(e.options.line_of("WtrDpth") == 28);
  }
}

TEST_CASE("swapped lines: the fairlead end first", "[deck]") {
  // End A Fixed, End B Coupled: the driver's End A is point 2, the sections reverse.
  std::string t = replace_all(kBase, "1 2 1 -\n", "1 1 2 -\n");
  t = replace_all(t, "1 chain 410 41\n", "1 chain 400 40\n1 cable 10 2\n");
  const Deck d = parse_deck(t, "sw.dat");
  const LineRecord& l = *d.find_line(1);
  CHECK(l.swapped);
  CHECK(l.fairlead() == 2);
  CHECK(l.anchor() == 1);
  const auto as_written = d.sections_of(1);
  REQUIRE(as_written.size() == 2);
  CHECK(as_written[0].type == "chain");
  const auto oriented = d.line_sections(1);
  REQUIRE(oriented.size() == 2);
  CHECK(oriented[0].type.name == "cable");
  CHECK(oriented[0].length == 10.0);
  CHECK(oriented[1].segments == 40);
  CHECK(d.segments(1) == 42);
  CHECK(d.oriented_node(1, 1) == 43);  // node 1 as written is the anchor node
  CHECK(d.oriented_node(1, 43) == 1);
  CHECK(d.oriented_end(1, 0) == 1);
  CHECK(d.oriented_node(2, 5) == 5);  // line 2 is not swapped
  CHECK(d.oriented_end(2, 1) == 1);
  // Both ends held or both moving: no swap.
  CHECK_FALSE(parse_deck(kBase, "b.dat").find_line(1)->swapped);
  CHECK_FALSE(parse_deck(replace_all(kBase, "2 2 3 -\n", "2 3 1 -\n"), "b.dat").find_line(2)->swapped);
}

namespace {

/// A deck that sets every option away from its default, for the round trip.
std::string full_deck(const std::string& current, const std::string& waves, const std::string& motion) {
  std::string t = std::string(kBase);
  t = replace_all(t, "--------------------- POINTS", "--------------------- EQUIVALENT BUOYANCY ---\ncable 0.2 -30\n--------------------- POINTS");
  t = replace_all(t, "2 Coupled 0 0 0 0 0 0 0\n", "2 Vessel 0 0 0\n4 Coupled 10 10 -5 0 0 0 0\n");
  t = replace_all(t, "2 2 3 -\n", "2 2 3 ptK\n3 4 3 -\n");
  t = replace_all(t, "2 cable 420 42\n", "2 cable 420 42\n3 cable 30 3\n3 chain 390 39\n");
  t = replace_all(t, "2 A 1e5 0 0.1 -1\n", "2 A 1e5 0 0.1 -1\n2 B Rigid 1 0 0.5\n3 A Pinned\n");
  t = replace_all(t, "10 TMax\n",
                  "10 TMax\n9.81 g\n1020 rhoW\n2e6 kBot\n2e5 cBot\ndynamic_solver 1e-7 1e-10 20 6 0.7\n"
                  "True modified_newton\nFalse alpha_force_blend\n2 axial_quadrature_order\n6 bending_quadrature_order\n"
                  "8 nModes\n4096 recovery_max_substeps\n" +
                      motion + "\n" + current + "\n" + waves +
                      "\n33 WaveSeed\n12.5 rampTime\n64 WaveComponents\n5 WaveDirections\n14 StreamOrder\n"
                      "RK2 tScheme\n1 dtIC\n0.5 dtOut\n1 WriteLog\n");
  t = replace_all(t, "Curv2N43\n", "Curv2N43\nBendMom2N1\nTen3N43\nL3N1py\nPoint4pz\nPoint2Fy\nAnchIncl3\n");
  return t;
}

}  // namespace

TEST_CASE("round trip: a deck read and written back reads equal", "[deck]") {
  std::vector<std::pair<std::string, std::string>> texts;  // name, text
  for (const auto& p : own_decks()) texts.emplace_back(base_name(p), read_text(p));
  for (const auto& p : shared_decks()) {
    if (refused_reference_decks().count(base_name(p))) continue;
    texts.emplace_back(base_name(p), read_text(p));
  }
  if (shared_decks().empty()) WARN("../shared/decks is absent: the round trip runs on the test decks only");
  texts.emplace_back("base", kBase);
  const std::vector<std::string> currents = {"none current", "uniform current 0.3 -0.2 0.05",
                                             "profile -50 0 0 0 -10 0.4 0.1 0 0 0.6 0.1 0 current",
                                             "seastate current 1.0 10 20 0.5 20 0.2 30"};
  const std::vector<std::string> waves = {
      "none waves", "airy waves 2 8 45", "stream 8 12 -30 waves",
      "jonswap waves 6 12 3.3 10 4\njonswap wavetrain 2 16 1 90 0 5\npm wavetrain 1 20 180",
      "pm waves 3 9 0 2", "torsethaugen waves 5 11 10",
      "ochi waves 3 14 2 2 8 1 20 4\nochi wavetrain 1 12 1 0 5 2 0 0 -3"};
  const std::vector<std::string> motions = {"heave fairleadMotion 3 12 90", "none fairleadMotion",
                                            "\"runs/my motion.dat\" motionFile"};
  for (std::size_t i = 0; i < currents.size(); ++i)
    for (std::size_t j = 0; j < waves.size(); ++j)
      texts.emplace_back("full " + std::to_string(i) + "," + std::to_string(j),
                         full_deck(currents[i], waves[j], motions[(i + j) % motions.size()]));
  for (const auto& [name, text] : texts) {
    DYNAMIC_SECTION(name) {
      const Deck d = parse_deck(text, name);
      const std::string written = to_text(d);
      const Deck back = parse_deck(written, name + " written");
      INFO(written);
      CHECK(first_difference(d, back) == "");
      CHECK(d == back);
      CHECK(to_text(back) == written);  // the canonical text is a fixed point
      CHECK(back.title == d.title);
    }
  }
}

TEST_CASE("deck equality sees every record", "[deck]") {
  const Deck a = parse_deck(full_deck("uniform current 0.3 -0.2 0.05", "jonswap waves 6 12 3.3 10 4\npm wavetrain 1 20 180",
                                      "heave fairleadMotion 3 12 90"),
                            "a.dat");
  CHECK(a == a);
  const std::vector<std::pair<const char*, void (*)(Deck&)>> edits = {
      {"title", [](Deck& d) { d.title.push_back('x'); }},
      {"LINE TYPES", [](Deck& d) { d.line_types[1].type.Cat = 0.5; }},
      {"EQUIVALENT BUOYANCY", [](Deck& d) { d.buoyancy[0].w = -31; }},
      {"POINTS", [](Deck& d) { d.points[0].r[2] = -51; }},
      {"LINES", [](Deck& d) { d.lines[1].outputs.resize(1); }},
      {"SECTIONS", [](Deck& d) { d.sections[2].segments = 4; }},
      {"END CONNECTIONS", [](Deck& d) { d.end_connections[0].direction[1] = 0.2; }},
      {"OUTPUTS", [](Deck& d) { d.outputs[0].channel.line = 2; }},
      {"OPTIONS", [](Deck& d) { d.options.kBot = 1; }},
      {"OPTIONS", [](Deck& d) { d.options.TMax.reset(); }},
      {"OPTIONS: waves", [](Deck& d) { d.options.wavetrains[0].seed_offset = 3; }},
      {"OPTIONS: current", [](Deck& d) { d.options.current.velocity[2] = 0; }},
      {"OPTIONS: ignored", [](Deck& d) { d.options.ignored[0].value.push_back('5'); }},
      {"OPTIONS", [](Deck& d) { d.options.fairleadMotion->phase_deg = 0; }},
  };
  for (const auto& [what, f] : edits) {
    Deck b = a;
    f(b);
    INFO(what);
    CHECK_FALSE(a == b);
    CHECK(first_difference(a, b).rfind(what, 0) == 0);
  }
  // Source lines, the file name and the notes are provenance, not content.
  Deck c = a;
  c.file = "other.dat";
  c.points[0].line = 99;
  c.notes.clear();
  c.options.source.clear();
  CHECK(a == c);
}

TEST_CASE("every error path names the file, the line and the field", "[deck][errors]") {
  struct Case {
    const char* name;
    std::string text;
    Expected x;
  };
  const std::string chain = "chain 0.09 77.7 3.8e8 -0.8 0 1.6 0.1 1.0 0.0";
  const std::vector<Case> cases = {
      // Lexical.
      {"unknown section", edit(8, "------ PONTS ------"), {8, "section", "PONTS", "known section"}},
      {"unterminated quote", edit(29, "\"FairTen1"), {29, "column 1", "\"FairTen1", "closing quote"}},
      // LINE TYPES.
      {"missing column", edit(6, "chain 0.09 77.7 3.8e8 -0.8 0 1.6 0.1 1.0"), {6, "LINE TYPES column 10 (Ca_t)", "missing", "Name Diam"}},
      {"extra column", edit(6, chain + " 7"), {6, "LINE TYPES column 11", "7", "no extra column"}},
      {"bad number", edit(6, "chain 0.09 77.7 3.8e8x -0.8 0 1.6 0.1 1.0 0.0"), {6, "LINE TYPES column 4 (EA)", "3.8e8x", "finite number"}},
      {"non-finite number", edit(6, "chain 1e999 77.7 3.8e8 -0.8 0 1.6 0.1 1.0 0.0"), {6, "LINE TYPES column 2 (Diam)", "1e999", "finite"}},
      {"zero diameter", edit(6, "chain 0 77.7 3.8e8 -0.8 0 1.6 0.1 1.0 0.0"), {6, "LINE TYPES column 2 (Diam)", "0", "> 0"}},
      {"negative mass", edit(6, "chain 0.09 -77.7 3.8e8 -0.8 0 1.6 0.1 1.0 0.0"), {6, "column 3 (MassDenInAir)", "-77.7", ">= 0"}},
      {"negative EI", edit(6, "chain 0.09 77.7 3.8e8 -0.8 -1 1.6 0.1 1.0 0.0"), {6, "column 6 (EI)", "-1", ">= 0"}},
      {"negative drag", edit(6, "chain 0.09 77.7 3.8e8 -0.8 0 1.6 -0.1 1.0 0.0"), {6, "column 8 (Cd_t)", "-0.1", ">= 0"}},
      {"duplicate line type", edit(7, chain), {7, "LINE TYPES column 1 (Name)", "chain", "unique"}},
      {"viscoelastic EA", edit(6, "chain 0.09 77.7 3e8|4e8 -0.8 0 1.6 0.1 1.0 0.0"), {6, "column 4 (EA)", "3e8|4e8", "not implemented"}},
      {"Syrope EA", edit(6, "chain 0.09 77.7 SYROPE:wc.dat|0.1|2 -0.8 0 1.6 0.1 1.0 0.0"), {6, "column 4 (EA)", "SYROPE", "not implemented"}},
      {"torsion columns", edit(7, "cable 0.16 36.7 4.7e8 0 2e4 0 5e3 0 0 1.2 0.1 1.0 0.0"), {7, "column 8 (GJ)", "5e3", "not implemented: torsion"}},
      {"VIV", "", {0, "", "", ""}},
      // POINTS.
      {"duplicate point", edit(12, "2 Fixed 0 400 -50 0 0 0 0"), {12, "POINTS column 1 (ID)", "2", "unique"}},
      {"bad point id", edit(12, "3.5 Fixed 0 400 -50 0 0 0 0"), {12, "POINTS column 1 (ID)", "3.5", "integer"}},
      {"point missing column", edit(12, "3 Fixed 0 400 -50 0 0"), {12, "POINTS column 8 (CdA)", "missing", "ID Type X Y Z"}},
      {"unknown point type", edit(11, "2 Floating 0 0 0 0 0 0 0"), {11, "POINTS column 2 (Type)", "Floating", "Fixed (Fix, Anchor), Coupled"}},
      {"free point", edit(11, "2 Free 0 0 0 0 0 0 0"), {11, "POINTS column 2 (Type)", "Free", "not implemented"}},
      {"body point", edit(11, "2 Body1 0 0 0 0 0 0 0"), {11, "POINTS column 2 (Type)", "Body1", "not implemented: points on bodies"}},
      {"rod point", edit(11, "2 Rod1A 0 0 0 0 0 0 0"), {11, "POINTS column 2 (Type)", "Rod1A", "Body<N> or Turbine<J>"}},
      {"turbine point without its row", edit(11, "2 Turbine2 0 0 0 0 0 0 0"), {11, "POINTS column 2 (Type)", "Turbine2", "a TURBINES row `2 X Y`"}},
      {"coupled point mass", edit(11, "2 Coupled 0 0 0 500 0 0 0"), {11, "POINTS column 6 (Mass)", "500", "not implemented"}},
      // LINES.
      {"unknown point id", edit(15, "1 2 9 -"), {15, "LINES column 3 (NodeB)", "9", "point ID of POINTS"}},
      {"same point at both ends", edit(15, "1 2 2 -"), {15, "LINES column 3 (NodeB)", "2", "other than NodeA"}},
      {"duplicate line id", edit(16, "1 2 3 -"), {16, "LINES column 1 (ID)", "1", "unique"}},
      {"LINES column count", edit(16, "2 cable 2 3 420"), {16, "LINES column 6", "missing", "ID NodeA NodeB"}},
      {"rod end", edit(15, "1 R1A 1 -"), {15, "LINES column 2 (NodeA)", "R1A", "not implemented: lines attached to rods"}},
      {"bad point reference", edit(15, "1 X2 1 -"), {15, "LINES column 2 (NodeA)", "X2", "a point ID (or P<n>"}},
      {"no lines", "", {0, "", "", ""}},
      {"a line with no sections", edit(20, ""), {16, "SECTIONS of line 2", "none", "at least one SECTIONS row"}},
      // SECTIONS.
      {"unknown line type", edit(19, "1 chian 410 41"), {19, "SECTIONS column 2 (LineType)", "chian", "line type of LINE TYPES"}},
      {"zero length", edit(19, "1 chain 0 41"), {19, "SECTIONS column 3 (Length)", "0", "> 0"}},
      {"negative length", edit(19, "1 chain -410 41"), {19, "SECTIONS column 3 (Length)", "-410", "> 0"}},
      {"zero NumSegs", edit(19, "1 chain 410 0"), {19, "SECTIONS column 4 (NumSegs)", "0", "[1, 1000000]"}},
      {"fractional NumSegs", edit(19, "1 chain 410 41.5"), {19, "SECTIONS column 4 (NumSegs)", "41.5", "integer"}},
      {"section of an unknown line", edit(20, "3 cable 420 42"), {20, "SECTIONS column 1 (LineID)", "3", "line ID of LINES"}},
      {"SECTIONS missing column", edit(20, "2 cable 420"), {20, "SECTIONS column 4 (NumSegs)", "missing", "LineID LineType"}},
      {"too many elements", edit(20, "2 cable 420 1000000\n2 cable 1 1"), {21, "SECTIONS column 4 (NumSegs)", "1", "at most 1000000"}},
      // END CONNECTIONS.
      {"bad stiffness", edit(23, "2 A Stiff 0 0.1 -1"), {23, "END CONNECTIONS column 3 (Stiffness)", "Stiff", "Pinned"}},
      {"negative stiffness", edit(23, "2 A -5 0 0.1 -1"), {23, "END CONNECTIONS column 3 (Stiffness)", "-5", ">= 0"}},
      {"bad end", edit(23, "2 C 1e5 0 0.1 -1"), {23, "END CONNECTIONS column 2 (End)", "C", "A or B"}},
      {"zero direction", edit(23, "2 A 1e5 0 0 0"), {23, "END CONNECTIONS column 4 (EzX)", "0 0 0", "non-zero direction"}},
      {"missing direction", edit(23, "2 A Rigid"), {23, "END CONNECTIONS column 4 (EzX)", "missing", "direction"}},
      {"connection on an EI = 0 line", edit(23, "1 A Rigid 1 0 0"), {23, "END CONNECTIONS column 3 (Stiffness)", "Rigid", "EI = 0"}},
      {"connection of an unknown line", edit(23, "5 A Pinned 0 0 0"), {23, "END CONNECTIONS column 1 (LineID)", "5", "line ID"}},
      {"duplicate end connection", edit(23, "2 A 1e5 0 0.1 -1\n2 A Pinned 0 0 0"), {24, "END CONNECTIONS column 2 (End)", "A", "one row per line end"}},
      {"torsional restraint", edit(23, "2 A 1e5 0 0.1 -1 5e3 1 0 0 0"), {23, "column 7 (TorsStiffness)", "5e3", "not implemented"}},
      {"pretwist", edit(23, "2 A 1e5 0 0.1 -1 Free 1 0 0 30"), {23, "column 11 (Pretwist)", "30", "not implemented"}},
      // EQUIVALENT BUOYANCY.
      {"buoyancy of an unknown type", append("---- EQUIVALENT BUOYANCY ----\nrope 0.1 -10\n"), {33, "EQUIVALENT BUOYANCY column 1 (LineType)", "rope", "line type"}},
      {"buoyancy beyond the displaced mass", append("---- EQUIVALENT BUOYANCY ----\ncable 0.1 -1000\n"), {33, "column 3 (SubmergedWeightPerMetre)", "-1000", "non-negative dry mass"}},
      // OPTIONS.
      {"unknown option", edit(25, "50 WtrDepht"), {25, "OPTIONS keyword", "WtrDepht", "known option"}},
      {"missing keyword", edit(25, "50 60"), {25, "OPTIONS keyword", "50", "value keyword"}},
      {"bad option value", edit(25, "-50 WtrDpth"), {25, "WtrDpth", "-50", "> 0"}},
      {"bathymetry file", edit(25, "bathy.txt WtrDpth"), {25, "WtrDpth", "bathy.txt", "bathymetry files are not implemented"}},
      {"two values", edit(25, "50 60 WtrDpth"), {25, "WtrDpth", "60", "one value"}},
      {"rhoInf out of range", edit(25, "1.5 rhoInf"), {25, "rhoInf", "1.5", "[0, 1]"}},
      {"dtM zero", edit(26, "0 dtM"), {26, "dtM", "0", "> 0"}},
      {"TMax not a multiple of dtM", edit(27, "10.01 TMax"), {27, "TMax", "10.01", "multiple of dtM"}},
      {"TMax without dtM", edit(26, ""), {26, "dtM", "absent", "with TMax"}},
      {"bad boolean", edit(25, "maybe modified_newton"), {25, "modified_newton", "maybe", "True or False"}},
      {"quadrature order", edit(25, "7 axial_quadrature_order"), {25, "axial_quadrature_order", "7", "[1, 6]"}},
      {"nModes", edit(25, "1001 nModes"), {25, "nModes", "1001", "[0, 1000]"}},
      {"dynamic_solver count", edit(25, "dynamic_solver 1e-8 1e-14 30"), {25, "dynamic_solver", "30", "more values"}},
      {"dynamic_solver max_iter", edit(25, "dynamic_solver 1e-8 1e-14 0 12"), {25, "dynamic_solver max_iter", "0", "[1, 1000000]"}},
      {"values on both sides", edit(25, "airy 2 waves 8 0"), {25, "waves", "8", "one side of the keyword"}},
      {"unknown wave model", edit(25, "cnoidal waves 2 8 0"), {25, "waves model", "cnoidal", "airy"}},
      {"wave period", edit(25, "airy waves 2 0 0"), {25, "waves T", "0", "> 0"}},
      {"JONSWAP gamma", edit(25, "jonswap waves 6 12 0.5 0"), {25, "waves gamma", "0.5", ">= 1"}},
      {"stream waves without WtrDpth", edit(25, "stream waves 2 8 0"), {25, "waves", "stream", "finite WtrDpth"}},
      {"wavetrain on a regular wave", edit(25, "50 WtrDpth\nairy waves 1 5 0\njonswap wavetrain 2 8 3.3 0"), {27, "wavetrain", "regular", "spectral model"}},
      {"wavetrain model", edit(25, "airy wavetrain 2 8 0"), {25, "wavetrain", "airy", "spectral model"}},
      {"WaveSeed", edit(25, "0 WaveSeed"), {25, "WaveSeed", "0", "[1, 2147483646]"}},
      {"seed offset out of range", edit(25, "50 WtrDpth\n2147483646 WaveSeed\njonswap wavetrain 2 8 3.3 0"), {27, "WaveSeed + seed offset", "2147483647", "[1, 2147483646]"}},
      {"uniform current", edit(25, "uniform current 0.5 0"), {25, "current", "0", "more values"}},
      {"profile current order", edit(25, "profile current -10 0 0 0 -20 1 0 0"), {25, "current profile z", "-20", "strictly increasing"}},
      {"profile current groups", edit(25, "profile current -10 0 0 0 -5 1 0 0 1"), {25, "current profile", "1", "groups of four"}},
      {"seastate current without WtrDpth", edit(25, "seastate current 1 0 20 0 0 0 0"), {25, "current", "seastate", "finite WtrDpth"}},
      {"fairleadMotion mode", edit(25, "50 WtrDpth\nroll fairleadMotion 3 10"), {26, "fairleadMotion mode", "roll", "surge, sway or heave"}},
      {"motionFile and fairleadMotion", edit(25, "50 WtrDpth\nsurge fairleadMotion 5 10\nm.dat motionFile"), {27, "fairleadMotion", "motionFile", "one of"}},
      {"fairleadMotion without a coupled point", "", {0, "", "", ""}},
      {"unimplemented option", edit(25, "True adaptive_mesh"), {25, "adaptive_mesh", "True", "not implemented"}},
      {"tensile_strain_tolerance", edit(25, "0 tensile_strain_tolerance"), {25, "tensile_strain_tolerance", "0", "> 0"}},
      {"friction", edit(25, "0.5 frictionMu"), {25, "frictionMu", "0.5", "seabed friction"}},
      {"WaterKin", edit(25, "SEASTATE WaterKin"), {25, "WaterKin", "SEASTATE", "not implemented"}},
      {"sequenced statics", edit(25, "sequenced cable_statics"), {25, "cable_statics", "sequenced", "not implemented"}},
      {"substeps", edit(25, "3 ei0_substep_max"), {25, "ei0_substep_max", "3", "[4, 65536]"}},
      {"substep angle", edit(25, "0 ei0_substep_angle"), {25, "ei0_substep_angle", "0", "(0, 90]"}},
      {"substeps value", edit(25, "sometimes ei0_substeps"), {25, "ei0_substeps", "sometimes", "True or False"}},
      // OUTPUTS.
      {"channel of an unknown line", edit(29, "FairTen3"), {29, "OUTPUTS channel", "FairTen3", "no line 3"}},
      {"node beyond the line", edit(30, "Curv2N44"), {30, "OUTPUTS channel", "Curv2N44", "[1, 43]"}},
      {"channel of an unknown point", edit(30, "Point9px"), {30, "OUTPUTS channel", "Point9px", "no point 9"}},
      {"node 0 in a CableDyn deck", edit(30, "Curv2N0"), {30, "OUTPUTS channel", "Curv2N0", "nodes count from 1"}},
      {"rod channel without rods", edit(30, "Rod1N2PX"), {30, "OUTPUTS channel", "Rod1N2PX", "no RODS rows"}},
      // Sections of later issues.
      {"BODIES", append("---------- BODIES ----------\nID Attachment X0\n1 coupled 0 0 0 0 0 0 0 0 0 0 0 0\n"), {34, "section BODIES row", "1", "not implemented: bodies"}},
      {"RODS", append("---------- RODS ----------\n1 Can Body1 0 0 2 0 0 15 8 p\n"), {33, "section RODS row", "1", "not implemented: rods"}},
      {"FAILURE", append("---------- FAILURE ----------\n1 5 1,2 0 1200e3\n"), {33, "section FAILURE row", "1", "not implemented: line failure"}},
      {"ATTACHMENTS", append("---------- ATTACHMENTS ----------\n2 100 500 0.2 0.5 1\n"), {33, "section ATTACHMENTS row", "2", "not implemented: discrete attachments"}},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.name) {
      if (std::string(c.name) == "VIV") {
        // MoorDyn order (header names CdAx/CaAx) with a VIV lift coefficient.
        const std::string t = replace_all(edit(4, "Name Diam Mass EA BA EI Cd Ca CdAx CaAx Cl"),
                                          chain, "chain 0.09 77.7 3.8e8 -0.8 0 1.6 1.0 0.1 0.0 0.8");
        require_error(replace_all(t, "cable 0.16 36.7 4.7e8 0 2e4 1.2 0.1 1.0 0.0", "cable 0.16 36.7 4.7e8 0 2e4 1.2 1.0 0.1 0.0"),
                      "err.dat", {6, "LINE TYPES column 11 (Cl)", "0.8", "vortex-induced vibration"});
      } else if (std::string(c.name) == "no lines") {
        require_error(replace_all(replace_all(kBase, "1 2 1 -\n", ""), "2 2 3 -\n", ""), "err.dat",
                      {29, "LINES", "none", "at least one line"});
      } else if (std::string(c.name) == "fairleadMotion without a coupled point") {
        require_error(replace_all(edit(11, "2 Fixed 0 0 0 0 0 0 0"), "10 TMax\n", "10 TMax\nsurge fairleadMotion 5 10\n"),
                      "err.dat", {28, "fairleadMotion", "no Coupled/Vessel point", "Coupled or Vessel point"});
      } else {
        require_error(c.text, "err.dat", c.x);
      }
    }
  }
}

TEST_CASE("read_deck names a file it cannot open", "[deck][errors]") {
  try {
    (void)read_deck("/nonexistent/deck.dat");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.object() == "/nonexistent/deck.dat");
    CHECK(e.value() == "cannot be opened");
  }
}
