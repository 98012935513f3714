// Output channels: the grammar of DECK_FORMAT.md "Outputs" (case-insensitive), the canonical
// spelling, and the strings outside the grammar.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cabledyn/io/channel.hpp"

using namespace cabledyn::io;

TEST_CASE("channels in the grammar", "[channel]") {
  struct Case {
    const char* text;
    OutputChannel c;
    const char* canonical;
  };
  const std::vector<Case> cases = {
      {"FairTen1", {ChannelKind::FairTen, 1, 0, 0, 0}, "FairTen1"},
      {"FAIRTEN12", {ChannelKind::FairTen, 12, 0, 0, 0}, "FairTen12"},
      {"anchten3", {ChannelKind::AnchTen, 3, 0, 0, 0}, "AnchTen3"},
      {"FairIncl2", {ChannelKind::FairIncl, 2, 0, 0, 0}, "FairIncl2"},
      {"AnchIncl7", {ChannelKind::AnchIncl, 7, 0, 0, 0}, "AnchIncl7"},
      {"Ten1N5", {ChannelKind::Ten, 1, 5, 0, 0}, "Ten1N5"},
      {"Curv1N383", {ChannelKind::Curv, 1, 383, 0, 0}, "Curv1N383"},
      {"BENDMOM2N1", {ChannelKind::BendMom, 2, 1, 0, 0}, "BendMom2N1"},
      {"L1N41px", {ChannelKind::NodePosition, 1, 41, 0, 0}, "L1N41px"},
      {"l3n2PY", {ChannelKind::NodePosition, 3, 2, 0, 1}, "L3N2py"},
      {"L10N100pz", {ChannelKind::NodePosition, 10, 100, 0, 2}, "L10N100pz"},
      {"Point2px", {ChannelKind::PointPosition, 0, 0, 2, 0}, "Point2px"},
      {"POINT4PZ", {ChannelKind::PointPosition, 0, 0, 4, 2}, "Point4pz"},
      {"Point9Fy", {ChannelKind::PointForce, 0, 0, 9, 1}, "Point9Fy"},
      {"point9fz", {ChannelKind::PointForce, 0, 0, 9, 2}, "Point9Fz"},
      {"FairTen007", {ChannelKind::FairTen, 7, 0, 0, 0}, "FairTen7"},
      {"Ten999999999N999999999", {ChannelKind::Ten, 999999999, 999999999, 0, 0}, "Ten999999999N999999999"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const auto p = parse_channel(c.text);
    REQUIRE(p.has_value());
    CHECK(*p == c.c);
    CHECK(p->name() == c.canonical);
    CHECK(parse_channel(p->name()) == p);  // the canonical spelling reads back
  }
  CHECK(parse_channel("Ten1N5")->on_node());
  CHECK(parse_channel("Ten1N5")->on_line());
  CHECK_FALSE(parse_channel("FairTen1")->on_node());
  CHECK(parse_channel("FairTen1")->on_line());
  CHECK_FALSE(parse_channel("Point1Fx")->on_line());
}

TEST_CASE("strings outside the channel grammar", "[channel]") {
  for (const char* bad :
       {"", "FairTen", "FairTen0", "FairTen1x", "FairTen-1", "FairTen+1", "FairTension1", "Ten1", "Ten1N", "Ten1N0",
        "Ten0N1", "Ten1X5", "Curv1N2x", "L1N2p", "L1N2pw", "L1N2", "L1N2pxx", "LN2px", "L1px", "Point1", "Point1p",
        "Point1pxx", "Point1Mx", "Point1vx", "Point0px", "Pointpx", "Con1px", "Line1N2px", "Body1px", "Ten1N1000000000",
        "FairTen1234567890", "Tension1", "TenA1", "AnchTen1 ", " FairTen1", "FairTen1\x01"}) {
    INFO("'" << bad << "'");
    CHECK_FALSE(parse_channel(bad).has_value());
  }
}
