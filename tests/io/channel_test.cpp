// Output channels: the CableDyn words and MoorDyn v2's channel grammar (DECK_FORMAT.md
// "Outputs", MoorDyn's OUTPUTS: lines, nodes, points, rods, bodies; position, velocity,
// acceleration, force, tension), case-insensitive, the canonical spelling, and the strings
// outside the grammar.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cabledyn/io/channel.hpp"

using namespace cabledyn::io;

namespace {

OutputChannel chan(ChannelKind kind, int line, int node, int point, int component, NodeRef ref = NodeRef::number) {
  OutputChannel c;
  c.kind = kind;
  c.line = line;
  c.node = node;
  c.point = point;
  c.component = component;
  c.node_ref = ref;
  return c;
}

}  // namespace

TEST_CASE("channels in the grammar", "[channel]") {
  using K = ChannelKind;
  struct Case {
    const char* text;
    OutputChannel c;
    const char* canonical;
  };
  const std::vector<Case> cases = {
      // CableDyn words.
      {"FairTen1", chan(K::FairTen, 1, 0, 0, 0), "FairTen1"},
      {"FAIRTEN12", chan(K::FairTen, 12, 0, 0, 0), "FairTen12"},
      {"anchten3", chan(K::AnchTen, 3, 0, 0, 0), "AnchTen3"},
      {"FairIncl2", chan(K::FairIncl, 2, 0, 0, 0), "FairIncl2"},
      {"AnchIncl7", chan(K::AnchIncl, 7, 0, 0, 0), "AnchIncl7"},
      {"Ten1N5", chan(K::Ten, 1, 5, 0, 0), "Ten1N5"},
      {"Ten1N0", chan(K::Ten, 1, 0, 0, 0), "Ten1N0"},  // node 0: valid in a MoorDyn deck
      {"Curv1N383", chan(K::Curv, 1, 383, 0, 0), "Curv1N383"},
      {"BENDMOM2N1", chan(K::BendMom, 2, 1, 0, 0), "BendMom2N1"},
      {"FairTen007", chan(K::FairTen, 7, 0, 0, 0), "FairTen7"},
      {"Ten999999999N999999999", chan(K::Ten, 999999999, 999999999, 0, 0), "Ten999999999N999999999"},
      // MoorDyn's line and node channels.
      {"L1N41px", chan(K::NodePosition, 1, 41, 0, 0), "L1N41px"},
      {"l3n2PY", chan(K::NodePosition, 3, 2, 0, 1), "L3N2py"},
      {"L10N100pz", chan(K::NodePosition, 10, 100, 0, 2), "L10N100pz"},
      {"Line2N11pX", chan(K::NodePosition, 2, 11, 0, 0), "L2N11px"},
      {"L2N11T", chan(K::Ten, 2, 11, 0, 0), "Ten2N11"},
      {"L2N11Ten", chan(K::Ten, 2, 11, 0, 0), "Ten2N11"},
      {"L2NAT", chan(K::Ten, 2, 0, 0, 0, NodeRef::end_a), "L2NAT"},
      {"L2NBT", chan(K::Ten, 2, 0, 0, 0, NodeRef::end_b), "L2NBT"},
      {"L2TenA", chan(K::Ten, 2, 0, 0, 0, NodeRef::end_a), "L2NAT"},
      {"L2TB", chan(K::Ten, 2, 0, 0, 0, NodeRef::end_b), "L2NBT"},
      {"L2NBpx", chan(K::NodePosition, 2, 0, 0, 0, NodeRef::end_b), "L2NBpx"},
      {"L2px", chan(K::NodePosition, 2, 0, 0, 0, NodeRef::end_a), "L2NApx"},  // no node: End A
      {"L2N11vx", chan(K::NodeVelocity, 2, 11, 0, 0), "L2N11vx"},
      {"L2N11ay", chan(K::NodeAcceleration, 2, 11, 0, 1), "L2N11ay"},
      {"L2N11fz", chan(K::NodeForce, 2, 11, 0, 2), "L2N11fz"},
      {"L2N0FX", chan(K::NodeForce, 2, 0, 0, 0), "L2N0fx"},
      // Points.
      {"Point2px", chan(K::PointPosition, 0, 0, 2, 0), "Point2px"},
      {"POINT4PZ", chan(K::PointPosition, 0, 0, 4, 2), "Point4pz"},
      {"Point9Fy", chan(K::PointForce, 0, 0, 9, 1), "Point9Fy"},
      {"point9fz", chan(K::PointForce, 0, 0, 9, 2), "Point9Fz"},
      {"P4Fx", chan(K::PointForce, 0, 0, 4, 0), "Point4Fx"},
      {"Point4T", chan(K::PointTension, 0, 0, 4, 0), "Point4T"},
      {"P4Ten", chan(K::PointTension, 0, 0, 4, 0), "Point4T"},
      {"Point4vx", chan(K::PointVelocity, 0, 0, 4, 0), "Point4vx"},
      {"P4az", chan(K::PointAcceleration, 0, 0, 4, 2), "Point4az"},
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
  CHECK(parse_channel("L1N5vx")->vector());
  CHECK_FALSE(parse_channel("FairTen1")->on_node());
  CHECK(parse_channel("FairTen1")->on_line());
  CHECK_FALSE(parse_channel("Point1Fx")->on_line());
  CHECK(parse_channel("Point1Fx")->on_point());
  CHECK_FALSE(parse_channel("Point1T")->vector());
}

TEST_CASE("rod and body channels are parsed so that the reader can refuse them by feature", "[channel]") {
  const auto r = parse_channel("R1N3PX");
  REQUIRE(r.has_value());
  CHECK(r->kind == ChannelKind::Rod);
  CHECK(r->object == 1);
  CHECK(r->quantity == "N3PX");
  CHECK(r->name() == "Rod1N3PX");
  CHECK(parse_channel(r->name()) == r);
  const auto b = parse_channel("BODY1RY");
  REQUIRE(b.has_value());
  CHECK(b->kind == ChannelKind::Body);
  CHECK(b->object == 1);
  CHECK(b->quantity == "RY");
  CHECK(parse_channel("Body12Fz")->object == 12);
}

TEST_CASE("strings outside the channel grammar", "[channel]") {
  for (const char* bad :
       {"", "FairTen", "FairTen0", "FairTen1x", "FairTen-1", "FairTen+1", "FairTension1", "Ten1", "Ten1N", "Ten0N1",
        "Ten1X5", "Curv1N2x", "L1N2p", "L1N2pw", "L1N2", "L1N2pxx", "LN2px", "L0N1px", "Point1", "Point1p",
        "Point1pxx", "Point1Mx", "Point0px", "Pointpx", "Con1px", "Con8px", "L1Nax", "Ten1N1000000000",
        "FairTen1234567890", "Tension1", "TenA1", "AnchTen1 ", " FairTen1", "FairTen1\x01", "Body1", "R1", "Body1p-x",
        "X1px", "L1N2T3"}) {
    INFO("'" << bad << "'");
    CHECK_FALSE(parse_channel(bad).has_value());
  }
}
