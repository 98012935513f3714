// MoorDyn decks read as MoorDyn v2 reads them: the LINE TYPES column rules for every header
// style of the stock suite (never a coefficient in another column than MoorDyn's), the
// MoorDyn dialect (node channels from 0, FairTen at End B, kBot/cBot 3e6/3e5, the seabed at the
// deepest point), MoorDyn's point types and point references, several channels per OUTPUTS
// row, unknown channels and line output letters dropped with a note, MoorDyn's options
// accepted, and requests for features that are not implemented recorded and refused by
// name. The decks of tests/io/decks/moordyn (written in each MoorDyn style) are read, run
// and written back.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "cabledyn/io/system_runner.hpp"
#include "deck_fixtures.hpp"

using namespace cabledyn;
using namespace cabledyn::io;
using namespace deck_fixtures;

namespace {

/// A MoorDyn deck with one LINE TYPES section: `header` (its names row, "" for none) over one
/// data row whose coefficient columns are `coefficients`.
std::string line_type_deck(const std::string& header, const std::string& coefficients) {
  std::string t = "--------------------- MoorDyn Input File ---------------------\nheader variant\n"
                  "---------------------- LINE TYPES ----------------------\n";
  if (!header.empty()) t += header + "\n(name) (m) (kg/m) (N) (N-s/-) (N-m^2) (-) (-) (-) (-)\n";
  t += "chain 0.1 50 1e8 -1 0 " + coefficients + "\n";
  t += "---------------------- POINTS ----------------------\n1 Fixed 100 0 -50 0 0 0 0\n2 Vessel 0 0 -5 0 0 0 0\n"
       "---------------------- LINES ----------------------\n1 chain 1 2 120 10 -\n"
       "---------------------- OPTIONS ----------------------\n50 WtrDpth\n"
       "---------------------- need this line ----------------------\n";
  return t;
}

std::string moordyn_deck(const char* name) {
  return (std::filesystem::path(CABLEDYN_SOURCE_DIR) / "tests" / "io" / "decks" / "moordyn" / name).string();
}

}  // namespace

TEST_CASE("LINE TYPES: no header style puts a coefficient in another column than MoorDyn reads it", "[deck][moordyn]") {
  // The values 1.1 2.2 3.3 4.4 in columns 7-10: MoorDyn v2 reads them as Cd Ca CdAx CaAx
  // (Cdn Can Cdt Cat) whatever the header says.
  const std::string v = "1.1 2.2 3.3 4.4";
  struct Variant {
    const char* name;
    std::string header;
    bool note;  // a note that the header is not read
  };
  const std::string base = "TypeName Diam Mass/m EA BA/-zeta EI ";
  const std::vector<Variant> positional = {
      {"MoorDyn v2", base + "Cd Ca CdAx CaAx", false},
      {"MoorDyn v2, lower case", base + "cd ca cdax caax", false},
      {"MoorDyn v1 order Can Cat Cdn Cdt (eleven stock decks)", "LineType Diam MassDenInAir EA BA/-zeta EI Can Cat Cdn Cdt", true},
      {"CableDyn names in MoorDyn's positions", base + "Cd_n Ca_n Cd_t Ca_t", false},
      {"no header row", "", false},
      {"unknown names", base + "C1 C2 C3 C4", true},
      {"a units row only", "", false},
      {"too few names", "Name Diam Mass EA", true},
  };
  for (const auto& var : positional) {
    INFO(var.name);
    std::string text = line_type_deck(var.header, v);
    if (std::string(var.name) == "a units row only")
      text = replace_all(text, "chain 0.1 50", "(name) (m) (kg/m) (N) (N-s/-) (N-m^2) (-) (-) (-) (-)\nchain 0.1 50");
    const Deck d = parse_deck(text, "h.dat");
    const LineType& t = d.line_types[0].type;
    CHECK(t.Cdn == 1.1);
    CHECK(t.Can == 2.2);
    CHECK(t.Cdt == 3.3);
    CHECK(t.Cat == 4.4);
    bool noted = false;
    for (const auto& n : d.notes) noted = noted || n.find("LINE TYPES") != std::string::npos;
    CHECK(noted == var.note);
  }
  SECTION("the v1 note says what was read") {
    const Deck d = parse_deck(line_type_deck("LineType Diam MassDenInAir EA BA/-zeta EI Can Cat Cdn Cdt", v), "h.dat");
    CHECK(d.notes[0].find("h.dat:4: LINE TYPES header names columns 7-10 Can Cat Cdn Cdt (MoorDyn v1's order); MoorDyn "
                          "v2 reads the values by position") == 0);
  }
  SECTION("MoorDyn's optional columns: Cl (11), Cl dF cF (13); 12 values is MoorDyn's error too") {
    const Deck d11 = parse_deck(line_type_deck(base + "Cd Ca CdAx CaAx Cl", v + " 0"), "h.dat");
    CHECK(d11.line_types[0].type.Cat == 4.4);
    const Deck d13 = parse_deck(line_type_deck(base + "Cd Ca CdAx CaAx Cl dF cF", v + " 0 0.08 0.18"), "h.dat");
    CHECK(d13.line_types[0].type.Cdt == 3.3);
    require_error(line_type_deck(base + "Cd Ca CdAx CaAx Cl dF", v + " 0 0.08"), "h.dat",
                  {6, "LINE TYPES column 13 (cF)", "missing", "10, 11 or 13 values"});
    require_error(line_type_deck(base + "Cd Ca CdAx CaAx Cl", v + " 0.7"), "h.dat",
                  {6, "LINE TYPES column 11 (Cl)", "0.7", "not implemented: vortex-induced vibration"});
  }
  SECTION("CableDyn's order only where the header names it exactly") {
    const Deck d = parse_deck(line_type_deck(base + "Cd_n Cd_t Ca_n Ca_t", v), "h.dat");
    const LineType& t = d.line_types[0].type;
    CHECK(t.Cdn == 1.1);
    CHECK(t.Cdt == 2.2);
    CHECK(t.Can == 3.3);
    CHECK(t.Cat == 4.4);
    CHECK(d.notes.size() == 1);  // the MoorDyn-deck note only
    // CableDyn's header promises 10 (or 14) values.
    require_error(line_type_deck(base + "Cd_n Cd_t Ca_n Ca_t", v + " 0 0.08 0.18"), "h.dat",
                  {6, "LINE TYPES column 11", "0", "no extra column"});
  }
  SECTION("a header that contradicts the positions MoorDyn reads is an error, never a swap") {
    for (const std::string& h : {base + "Cd CdAx Ca CaAx", base + "Cd_t Cd_n Ca_n Ca_t", base + "Ca Cd CdAx CaAx",
                                base + "Cd Ca CaAx CdAx", base + "Cd Ca CdAx CaAx dF"}) {
      INFO(h);
      require_error(line_type_deck(h, v + (h.back() == 'F' ? " 0" : "")), "h.dat",
                    {4, "LINE TYPES header", "", "where MoorDyn reads"});
    }
  }
  SECTION("14 values: CableDyn's torsion order, under its header or none") {
    const std::string t14 = "0 0 0 0 " + v;
    for (const std::string& h : {std::string(), base + "GAs GJ Irt Irn Cd_n Cd_t Ca_n Ca_t", base + "Cd_n Cd_t Ca_n Ca_t"}) {
      INFO(h);
      const Deck d = parse_deck(line_type_deck(h, t14), "h.dat");
      CHECK(d.line_types[0].type.Cdt == 2.2);  // Cd_t
      CHECK(d.line_types[0].type.Can == 3.3);  // Ca_n
    }
    require_error(line_type_deck(base + "Cd Ca CdAx CaAx", t14), "h.dat", {6, "LINE TYPES column 14", "4.4", "no extra column"});
  }
  SECTION("EA, BA and EI in MoorDyn's other forms are refused by feature") {
    const auto refused = [&](const std::string& ea, const std::string& ba, const std::string& ei, const std::string& feature) {
      std::string t = replace_all(line_type_deck(base + "Cd Ca CdAx CaAx", v), "chain 0.1 50 1e8 -1 0",
                                  "chain 0.1 50 " + ea + " " + ba + " " + ei);
      try {
        (void)parse_deck(t, "h.dat");
        FAIL("no error");
      } catch (const NotImplementedError& e) {
        INFO(e.what());
        CHECK(e.feature().find(feature) == 0);
      }
    };
    refused("1e8|2e8", "-1", "0", "viscoelastic EA (Es|Ed");
    refused("1e8|2e8", "4e9|1e7", "0", "viscoelastic EA (Es|Ed");  // BA_s|BA_d with it
    refused("1e8|0.2|0.4", "-1", "0", "load-dependent viscoelastic EA");
    refused("SYROPE:wc.dat|1.5e8|23", "-1", "0", "the Syrope polyester model");
    refused("ea_curve.dat", "-1", "0", "a nonlinear EA curve from a file");
    refused("1e8", "ba_curve.dat", "0", "a nonlinear BA curve");
    refused("1e8", "-1", "ei_curve.dat", "a nonlinear EI curve");
    // BA_s|BA_d with a plain EA is MoorDyn's error too.
    require_error(replace_all(line_type_deck(base + "Cd Ca CdAx CaAx", v), "1e8 -1 0", "1e8 4e9|1e7 0"), "h.dat",
                  {6, "LINE TYPES column 5 (BA/-zeta)", "4e9|1e7", "needs a viscoelastic EA"});
  }
}

TEST_CASE("the MoorDyn dialect: defaults, the seabed, node numbering and the FairTen end", "[deck][moordyn]") {
  const std::string stock = line_type_deck("", "1.2 1 0.2 0");
  SECTION("7-column LINES: MoorDyn's kBot and cBot, the note, and a WtrDpth the reader keeps") {
    const Deck d = parse_deck(stock, "m.dat");
    CHECK(d.dialect == Dialect::moordyn);
    CHECK(d.options.kBot == 3e6);
    CHECK(d.options.cBot == 3e5);
    CHECK(d.options.WtrDpth == 50.0);
    CHECK(d.options.WriteUnits);
    CHECK(d.first_node_number() == 0);
  }
  SECTION("no WtrDpth: the seabed at the deepest point (MoorDyn's rule), noted") {
    const Deck d = parse_deck(replace_all(stock, "50 WtrDpth\n", ""), "m.dat");
    CHECK(d.options.WtrDpth == 50.0);
    bool noted = false;
    for (const auto& n : d.notes) noted = noted || n.find("the seabed is at the deepest point, point 1") != std::string::npos;
    CHECK(noted);
    // A point below the given seabed lowers it; `none` keeps no seabed.
    CHECK(parse_deck(replace_all(stock, "50 WtrDpth", "30 WtrDpth"), "m.dat").options.WtrDpth == 50.0);
    CHECK_FALSE(parse_deck(replace_all(stock, "50 WtrDpth", "none WtrDpth"), "m.dat").options.WtrDpth.has_value());
    CHECK(parse_deck(replace_all(stock, "50 WtrDpth", "0 WtrDpth"), "m.dat").options.WtrDpth == 50.0);
  }
  SECTION("the dialect option overrides the LINES form; mixed forms need it") {
    const Deck c = parse_deck(replace_all(stock, "50 WtrDpth", "50 WtrDpth\ncabledyn dialect"), "m.dat");
    CHECK(c.dialect == Dialect::cabledyn);
    CHECK(c.options.kBot == 1e5);
    const std::string mixed = replace_all(stock, "1 chain 1 2 120 10 -\n", "1 chain 1 2 120 10 -\n2 2 1\n") +
                              "---- SECTIONS ----\n2 chain 120 10\n";
    require_error(mixed, "m.dat", {9, "LINES", "both forms", "dialect moordyn"});
    CHECK(parse_deck(mixed + "---- OPTIONS ----\nmoordyn dialect\n", "m.dat").dialect == Dialect::moordyn);
  }
  SECTION("node channels count from 0 at End A; the line's last node is N") {
    const std::string t = replace_all(stock, "---------------------- need", "---- OUTPUTS ----\nL1N0px L1N10pz Ten1N10\n---- need");
    const Deck d = parse_deck(t, "m.dat");
    REQUIRE(d.outputs.size() == 3);
    CHECK(d.channel_node(d.outputs[0].channel) == 1);   // End A
    CHECK(d.channel_node(d.outputs[1].channel) == 11);  // End B
    require_error(replace_all(t, "Ten1N10", "Ten1N11"), "m.dat", {13, "OUTPUTS channel", "Ten1N11", "[0, 10]"});
    // FairTen: End B; AnchTen: End A (as written), in a MoorDyn deck.
    CHECK(d.tension_end(1, true) == 1);
    CHECK(d.tension_end(1, false) == 0);
  }
}

TEST_CASE("MoorDyn's points, references, outputs, flags and options", "[deck][moordyn]") {
  SECTION("the v1-header deck: 12-column points, P/C/Con references, quoted channel lists") {
    const Deck d = read_deck(moordyn_deck("v1_header_cable.dat"));
    CHECK(d.points.size() == 4);
    CHECK(d.points[3].type == PointType::coupled);  // Fairlead
    CHECK(d.points[1].type == PointType::vessel);   // vessel (lower case)
    CHECK(d.lines[0].node_a == 1);                  // P1
    CHECK(d.lines[1].node_b == 4);                  // Con4
    CHECK(d.lines[1].outputs == "pK");
    const LineType& poly = d.find_line_type("poly")->type;
    CHECK(poly.Cdn == 1.0);  // by position, as MoorDyn v2 reads it
    CHECK(poly.Cdt == 1.6);
    REQUIRE(d.outputs.size() == 7);
    CHECK(d.outputs[3].channel.kind == ChannelKind::NodePosition);
    CHECK(d.outputs[4].text == "L2N22pz");
    CHECK(d.options.g == 9.81);
    CHECK(d.options.rhoW == 1025.0);
    CHECK(d.options.ignored.size() == 3);  // ICDfac, ICthresh, ICTmax
  }
  SECTION("the v2 deck: several channels per row, commas, an unknown channel dropped, letters") {
    const Deck d = read_deck(moordyn_deck("v2_three_chains.dat"));
    REQUIRE(d.outputs.size() == 16);
    CHECK(d.outputs[3].text == "AnchTen1");
    CHECK(d.outputs[5].channel == *parse_channel("AnchTen3"));
    CHECK(d.outputs[8].channel.node_ref == NodeRef::end_b);
    CHECK(d.outputs[15].channel.kind == ChannelKind::PointVelocity);
    int dropped = 0, letters = 0, ignored_ic = 0;
    for (const auto& n : d.notes) {
      dropped += n.find("OUTPUTS channel Con4px is not a channel and is dropped") != std::string::npos;
      letters += n.find("line output flags pT: T ignored") != std::string::npos;
      ignored_ic += n.find("fileIC = semi.ic accepted and ignored") != std::string::npos;
    }
    CHECK(dropped == 1);
    CHECK(letters == 1);
    CHECK(ignored_ic == 1);
    CHECK(d.options.dtOut == 0.05);
    CHECK(d.find_line(1)->outputs == "p,t");
  }
  SECTION("g = 0 and rhoW = 0 are accepted; EQUIVALENT BUOYANCY needs gravity") {
    const std::string t = line_type_deck("", "1.2 1 0.2 0");
    CHECK(parse_deck(replace_all(t, "50 WtrDpth", "50 WtrDpth\n0 g\n0 rho"), "g.dat").options.g == 0.0);
    require_error(replace_all(t, "50 WtrDpth", "50 WtrDpth\n0 g") + "---- EQUIVALENT BUOYANCY ----\nchain 0.1 10\n", "g.dat",
                  {15, "EQUIVALENT BUOYANCY column 1 (LineType)", "chain", "g > 0"});
  }
  SECTION("every MoorDyn v2 option is accepted: implemented, ignored with a note, or refused by feature") {
    const std::vector<std::string> keys = {"dtM", "dt", "CFL", "writeLog", "tScheme", "g", "gravity", "rho", "WtrDnsty",
                                           "WtrDpth", "kBot", "kb", "cBot", "cb", "dtIC", "ICdt", "TmaxIC", "ICTmax",
                                           "CdScaleIC", "ICDfac", "threshIC", "ICthresh", "genDynamicIC", "ICgenDynamic",
                                           "fileIC", "ICfile", "WaveKin", "dtWave", "Currents", "UnifyCurrentGrid",
                                           "WriteUnits", "FrictionCoefficient", "FricDamp", "StatDynFricScale", "dtOut",
                                           "SeafloorFile", "disableOutput", "disableOutTime"};
    for (const auto& k : keys) {
      INFO(k);
      CHECK(io::detail::find_option(k) != nullptr);
    }
  }
}

TEST_CASE("requests for features that are not implemented: read whole, listed, refused by name", "[deck][moordyn]") {
  const std::string path = moordyn_deck("objects_and_friction.dat");
  try {
    (void)read_deck(path);
    FAIL("no error");
  } catch (const NotImplementedError& e) {
    INFO(e.what());
    CHECK(e.object() == path + ":8");
    CHECK(e.feature() == "rods (ROD TYPES, RODS)");
    const std::string lim = e.limit();
    for (const char* f : {"bodies (BODIES) (line 11)", "points on bodies (Body<N>) (line 18)",
                          "free points (Free/Connect) (line 19)", "lines attached to rods (R<n>A, R<n>B) (line 24)",
                          "seabed friction (line 28)"})
      CHECK(lim.find(f) != std::string::npos);
  }
  ReadOptions ro;
  ro.accept_unsupported = true;
  const Deck d = read_deck(path, ro);
  std::vector<std::string> features;
  for (const auto& u : d.unsupported) features.push_back(u.feature);
  CHECK(features == std::vector<std::string>{"rods (ROD TYPES, RODS)", "bodies (BODIES)", "rods (ROD TYPES, RODS)",
                                             "points on bodies (Body<N>)", "free points (Free/Connect)",
                                             "lines attached to rods (R<n>A, R<n>B)", "seabed friction"});
  // The Body1PX channel is a body channel of the system (checked, not refused).
  CHECK(d.find_point(3)->type == PointType::free);
  CHECK(d.find_point(2)->attached == 1);
  CHECK(d.find_line(3)->node_a == 0);  // a rod end
  // Nothing that cannot run is written or run.
  CHECK_THROWS_AS(to_text(d), NotImplementedError);
  io::RunSettings s;
  s.log = nullptr;
  CHECK_THROWS_AS(SystemRunner(d, s), NotImplementedError);
  CHECK_THROWS_WITH(SystemRunner(d, s), Catch::Contains("seabed friction"));  // what the system does not model
}

TEST_CASE("the MoorDyn-style decks of the project read, run, and write back equal", "[deck][moordyn][driver]") {
  namespace fs = std::filesystem;
  const fs::path out = fs::temp_directory_path() / "cabledyn_moordyn_corpus";
  fs::remove_all(out);
  fs::create_directories(out);
  for (const char* name : {"v2_three_chains.dat", "v1_header_cable.dat", "viv_columns_deepest_seabed.dat"}) {
    INFO(name);
    const Deck d = read_deck(moordyn_deck(name));
    CHECK(d.dialect == Dialect::moordyn);
    const Deck back = parse_deck(to_text(d), "written");
    CHECK(first_difference(d, back) == "");
    io::RunSettings s;
    s.root = (out / fs::path(name).stem()).string();
    s.log = nullptr;
    s.progress = false;
    s.tmax = 0.5;  // MoorDyn decks carry no TMax
    SystemRunner run(d, s);
    run.run();
    REQUIRE(!run.times().empty());
    CHECK(run.times().back() == Approx(0.5));
    for (const auto& row : run.channel_rows())
      for (double v : row) CHECK(std::isfinite(v));
    bool said = false;
    for (const auto& n : run.notes()) said = said || n.find("MoorDyn deck") != std::string::npos;
    CHECK(said);
  }
}
