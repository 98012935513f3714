// A deck's mooring system (io/system_model.hpp): points and lines as written, Free points
// with their mass, volume, drag and force, the deck's seabed; its statics balance every free
// point; what the system route does not model is refused by name.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "cabledyn/io/system_model.hpp"

using namespace cabledyn;
using namespace cabledyn::io;

namespace {

const char* ds_deck = R"(--------------------- MoorDyn Input File ------------------------------------
A clump weight and a buoy on a line between an anchor and a fairlead (tests/system)
--------------------- LINE TYPES ---------------------------------------
TypeName   Diam     Mass/m     EA          BA/-zeta   EI       Cd    Ca    CdAx  CaAx
(-)        (m)      (kg/m)     (N)         (N-s/-)    (N-m^2)  (-)   (-)   (-)   (-)
chain      0.1      150        5e8         -0.8       0.0      1.2   1.0   0.2   0.0
--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z         Mass    Vol     CdA    Ca
(-)   (-)       (m)        (m)        (m)       (kg)    (m^3)   (m^2)  (-)
1     Fixed     -500       0          -250      0       0       0      0
2     Connect   -300       0          -240      20000   2.5     1.0    1.0
3     Free      -120       0          -120      4000    20      2.0    0.8
4     Vessel    0          0          -15       0       0       0      0
--------------------- LINES --------------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
(-)  (-)        (-)      (-)      (m)       (-)      (-)
1    chain      4        3        160       20       -
2    chain      3        2        220       20       -
3    chain      1        2        230       20       -
--------------------- OPTIONS ------------------------------------------
300          WtrDpth
3e6          kBot
3e5          cBot
%EXTRA%
--------------------- need this line ------------------------------------
)";

Deck ds_parse(const std::string& extra = "") {
  std::string text = ds_deck;
  text.replace(text.find("%EXTRA%"), 7, extra);
  ReadOptions ro;
  ro.accept_unsupported = true;
  return parse_deck(text, "ds.dat", ro);
}

}  // namespace

TEST_CASE("A deck's free points, clump weight and buoy become a mooring system and balance", "[system][io]") {
  const Deck deck = ds_parse();
  REQUIRE(has_free_points(deck));
  auto ds = build_deck_system(deck);
  auto& sys = ds.system;
  REQUIRE(sys.n_points() == 4);
  REQUIRE(sys.n_lines() == 3);
  CHECK(ds.coupled == std::vector<int>{3});
  CHECK(sys.point(1).kind == PointKind::free);
  CHECK(sys.point(1).mass == 20000);
  CHECK(sys.point(2).volume == 20);
  CHECK(sys.point(2).CdA == 2.0);
  // Lines as written: line 1 from the vessel point (End A) to the buoy.
  CHECK(sys.line(0).point[0] == ds.point_index.at(4));
  CHECK(sys.line(0).point[1] == ds.point_index.at(3));
  CHECK(sys.line(2).model.seabed().z == Approx(-300));
  CHECK(sys.line(2).model.seabed().params.kBot == 3e6);
  auto s = sys.initial_state();
  const auto res = solve_statics(sys, s);
  CHECK(res.residual <= std::max(1e-10 * res.scale, res.floor));
  // Each free point: its lines' forces balance its weight and buoyancy.
  for (int p : {1, 2}) {
    Vec3<double> f = sys.point_static_load(p);
    for (int l = 0; l < 3; ++l)
      for (int e = 0; e < 2; ++e)
        if (sys.line(l).point[e] == p) f += sys.line_end_force(s, l, e);
    CHECK(f.norm() <= 1e-9 * res.scale);
  }
  // The buoy floats above the clump, which sinks toward the seabed.
  CHECK(sys.point_position(s, 2)(2) > sys.point_position(s, 1)(2));
}

TEST_CASE("The system route refuses by name what it does not model", "[system][io]") {
  CHECK_THROWS_WITH(build_deck_system(ds_parse("airy waves 2 8 0")),
                    Catch::Contains("ds.dat:") && Catch::Contains("waves in a system with free points"));
  CHECK_THROWS_WITH(build_deck_system(ds_parse("uniform current 0.5 0 0")),
                    Catch::Contains("current in a system with free points"));
  CHECK_THROWS_AS(build_deck_system(ds_parse("uniform current 0.5 0 0")), NotImplementedError);
  std::string herm = ds_deck;
  herm.replace(herm.find("5e8         -0.8       0.0"), 26, "5e8         -0.8       1e4");
  herm.replace(herm.find("%EXTRA%"), 7, "");
  ReadOptions ro;
  ro.accept_unsupported = true;
  CHECK_THROWS_WITH(build_deck_system(parse_deck(herm, "h.dat", ro)),
                    Catch::Contains("h.dat:") && Catch::Contains("finite-EI lines in a system"));
  // Without accept_unsupported the reader still refuses free points (the single-line driver).
  CHECK_THROWS_WITH(parse_deck(std::string(ds_deck).replace(std::string(ds_deck).find("%EXTRA%"), 7, ""), "x.dat"),
                    Catch::Contains(kFreePointsFeature));
}
