// A deck's mooring system (io/system_model.hpp): points and lines as written, Free points
// with their mass, volume, drag and force, the deck's seabed; its statics balance every free
// point; Turbine<J> points and the bodyAngles convention; what the system route does not model
// is refused by name.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "cabledyn/io/system_model.hpp"
#include "cabledyn/io/system_simulation.hpp"
#include "support/system_builders.hpp"
#include "support/system_decks.hpp"

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
  // A uniform current: the system's, its drag in the statics pushes the buoy downstream.
  auto dc = build_deck_system(ds_parse("uniform current 0.5 0.4 0"));
  CHECK(dc.system.current() == Vec3<double>(0.5, 0.4, 0));
  auto sc = dc.system.initial_state();
  const auto rc = solve_statics(dc.system, sc);
  CHECK(rc.residual <= std::max(1e-10 * rc.scale, rc.floor));
  const Vec3<double> shift = dc.system.point_position(sc, 2) - sys.point_position(s, 2);
  INFO("buoy shift in the current " << shift.transpose());
  CHECK(shift(0) > 0.1);
  CHECK(shift(1) > 0.1);
}

TEST_CASE("A deck's finite-EI lines join the system as cubic-Hermite cables", "[system][io][hermite]") {
  std::string herm = ds_deck;
  herm.replace(herm.find("5e8         -0.8       0.0"), 26, "5e8         -0.8       2e5");
  herm.replace(herm.find("%EXTRA%"), 7, "3   bending_quadrature_order");
  ReadOptions ro;
  ro.accept_unsupported = true;
  auto ds = build_deck_system(parse_deck(herm, "h.dat", ro));
  auto& sys = ds.system;
  for (int l = 0; l < 3; ++l) {
    CHECK(sys.line(l).model.hermite());
    CHECK(sys.line(l).model.hermite_element(0).params().bending_order == 3);
    CHECK(sys.line(l).model.hermite_element(0).params().EI == 2e5);
  }
  auto s = sys.initial_state();
  const auto res = solve_statics(sys, s);
  CHECK(res.residual <= std::max(1e-10 * res.scale, res.floor));
  for (int p : {1, 2}) {
    Vec3<double> f = sys.point_static_load(p);
    for (int l = 0; l < 3; ++l)
      for (int e = 0; e < 2; ++e)
        if (sys.line(l).point[e] == p) f += sys.line_end_force(s, l, e);
    CHECK(f.norm() <= 1e-9 * res.scale);
  }
  // The bending stiffness changes the equilibrium (the buoy's height) by a little.
  auto flat = build_deck_system(ds_parse());
  auto sf = flat.system.initial_state();
  solve_statics(flat.system, sf);
  const double dz = sys.point_position(s, 2)(2) - flat.system.point_position(sf, 2)(2);
  INFO("buoy height change by EI " << dz << " m");
  CHECK(std::fabs(dz) > 1e-6);
  CHECK(std::fabs(dz) < 1.0);
}

TEST_CASE("The system route refuses by name what it does not model", "[system][io]") {
  CHECK_NOTHROW(build_deck_system(ds_parse("airy waves 2 8 0")));  // waves: system_waves_test.cpp
  // A profile current: the statics take it at the line nodes (tests/io/system_route_channels_test.cpp).
  CHECK(build_deck_system(ds_parse("profile current -300 0 0 0 0 0.5 0 0")).system.has_current_field());
  // END CONNECTIONS in a system: a Rigid row clamps (a held point's direction in world axes),
  // a stiffness makes a spring end, a Rigid row on a free point is refused (no orientation).
  std::string herm = ds_deck;
  herm.replace(herm.find("5e8         -0.8       0.0"), 26, "5e8         -0.8       1e4");
  herm.replace(herm.find("%EXTRA%"), 7, "");
  auto with_row = [&](const std::string& row) {
    std::string t = herm;
    t.replace(t.find("--------------------- need this line"), 0,
              "--------------------- END CONNECTIONS ----------------------\nLineID End Stiffness EzX EzY EzZ\n" + row +
                  "\n");
    ReadOptions ro;
    ro.accept_unsupported = true;
    return parse_deck(t, "h.dat", ro);
  };
  const auto rigid = build_deck_system(with_row("1 A Rigid 0 0 -2"));
  CHECK(rigid.system.line(0).clamped[0]);
  CHECK(rigid.system.line(0).clamp_dir[0] == Vec3<double>(0, 0, -1));
  CHECK_FALSE(rigid.system.line(0).clamped[1]);
  const auto spring = build_deck_system(with_row("1 A 2e5 0 0 -1"));
  CHECK(spring.system.line(0).spring_k[0] == 2e5);
  CHECK_FALSE(spring.system.line(0).clamped[0]);
  CHECK_THROWS_WITH(build_deck_system(with_row("1 B Rigid 0 0 -1")),
                    Catch::Contains("h.dat:") && Catch::Contains("END CONNECTIONS") && Catch::Contains("free point"));
  // The refusal names what the system route lacks (the bathymetry of line 3 of the options),
  // not the free points it models, though they come first in the deck.
  try {
    build_deck_system(ds_parse("bathy.txt   SeafloorFile"));
    FAIL("a bathymetry was accepted");
  } catch (const NotImplementedError& e) {
    CHECK(e.feature() == "bathymetry (SeafloorFile)");
    CHECK_THAT(e.what(), !Catch::Contains(kFreePointsFeature));
  }
  // Without accept_unsupported the reader still refuses free points (a caller that does not model them).
  CHECK_THROWS_WITH(parse_deck(std::string(ds_deck).replace(std::string(ds_deck).find("%EXTRA%"), 7, ""), "x.dat"),
                    Catch::Contains(kFreePointsFeature));
}

namespace {



Deck ds_body(const std::string& extra = "", const std::string& cda = "0", const std::string& a1 = "100 0 -150 0 0 0 0") {
  const std::string text = test_support::moored_float_deck(extra, cda, a1);
  ReadOptions ro;
  ro.accept_unsupported = true;
  return parse_deck(text, "body.dat", ro);
}

}  // namespace

TEST_CASE("A deck's free body and its points become a mooring system whose statics balance the body",
          "[system][io][bodies]") {
  const Deck d = ds_body();
  REQUIRE(d.bodies.size() == 1);
  CHECK(d.bodies[0].cg[0] == 0.3);
  CHECK(d.bodies[0].cg[2] == -5);
  CHECK(d.bodies[0].inertia[1] == 2.2e6);
  CHECK(d.bodies[0].angles[2] == 30);
  for (double c : d.bodies[0].Ca) CHECK(c == 0.8);
  auto ds = build_deck_system(d);
  auto& sys = ds.system;
  REQUIRE(sys.n_bodies() == 1);
  CHECK(sys.dofs() == 3 * 3 * 11 + 6);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  Vec3<double> rb;
  Mat3<double> Rb;
  sys.body_pose(s, 0, rb, Rb);
  // The balance written here: weight at the centre of gravity, the buoyancy of the fully
  // submerged body at its reference point, the lines at their fairleads in body axes turned
  // by the deck's yaw and the static tilt.
  const Environment env = d.environment();
  Vec3<double> F(0, 0, (env.rho_w * 250 - 2e5) * env.g), M = Vec3<double>(Rb * Vec3<double>(0.3, 0, -5)).cross(Vec3<double>(0, 0, -2e5 * env.g));
  const double tension = test_support::add_end_a_loads(sys, s, 3, rb, F, M);
  INFO("net force " << F.transpose() << " N, moment " << M.transpose() << " N m of tension " << tension << " N");
  CHECK(F.norm() <= 1e-6 * tension);
  CHECK(M.norm() <= 1e-6 * tension * 3);
  // The deck's yaw of 30 deg puts the fairleads 30 deg off their anchors: the lines turn the
  // body back to yaw 0.
  CHECK(std::fabs(angles_xyz(Rb)(2)) * 180 / kPi < 1e-3);
  // bodyWetting: the equivalent sphere (default) and moordyn (phi = 1) agree for a body deep
  // under the surface.
  CHECK(sys.body(0).wetting == BodyWetting::sphere);
  CHECK(build_deck_system(ds_body("moordyn bodyWetting")).system.body(0).wetting == BodyWetting::full);
}

TEST_CASE("A Body<N>Pinned rod is a rod pinned to its body: its pin on the body, hanging in the statics, the body "
          "balanced with its weight at the pin",
          "[system][io][bodies][rods]") {
  const std::string rods = R"(---------------------- ROD TYPES ------------------------------------
TypeName      Diam     Mass/m    Cd     Ca      CdEnd    CaEnd
can           0.8      900       1.0    1.0     0.5      0.6
---------------------- RODS ----------------------------------------
ID   RodType  Attachment   Xa   Ya   Za    Xb   Yb   Zb    NumSegs  RodOutputs
1    can      Body1Pinned  2    0    -3    6    0    -12   8        p
2    can      Body1Pinned  0    1    -3    0    1    -3    0        -
)";
  auto deck_text = [&](const std::string& lines_extra, const std::string& attach) {
    std::string text = test_support::moored_float_deck();
    std::string r = rods;
    r.replace(r.find("Body1Pinned  2"), 11, attach);
    text.replace(text.find("--------------------- POINTS"), 0, r);
    text.replace(text.find("--------------------- OPTIONS"), 0, lines_extra);
    return text;
  };
  ReadOptions ro;
  ro.accept_unsupported = true;
  const Deck d = parse_deck(deck_text("", "Body1Pinned"), "pinned.dat", ro);
  REQUIRE(d.rods.size() == 2);
  CHECK(d.rods[0].attachment == RodAttachment::body_pinned);
  CHECK(d.rods[0].body == 1);
  auto ds = build_deck_system(d);
  auto& sys = ds.system;
  // The float, then rod 1 pinned on it; rod 2 (zero length) a point on the float.
  REQUIRE(sys.n_bodies() == 2);
  const auto& C = sys.body(1);
  CHECK(C.kind == BodyKind::pinned);
  CHECK(C.parent == 0);
  CHECK(C.pin == Vec3<double>(2, 0, -3));
  CHECK(sys.body_ndof(1) == 3);
  const Mat3<double> R0 = sys.body(0).R;  // the deck's yaw of 30 deg
  CHECK((C.r - (sys.body(0).r + R0 * Vec3<double>(2, 0, -3))).norm() < 1e-12);
  CHECK((C.R.col(2) - R0 * Vec3<double>(4, 0, -9).normalized()).norm() < 1e-12);
  REQUIRE(ds.rods[1].point >= 0);
  CHECK(sys.point(ds.rods[1].point).kind == PointKind::body);
  CHECK(sys.point(ds.rods[1].point).body == 0);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  Vec3<double> rb, rc;
  Mat3<double> Rb, Rc;
  sys.body_pose(s, 0, rb, Rb);
  sys.body_pose(s, 1, rc, Rc);
  // The rod (900 kg/m in 515 kg/m of displaced water) hangs from its pin.
  CHECK((Rc.col(2) - Vec3<double>(0, 0, -1)).norm() < 1e-8);
  CHECK((rc - (rb + Rb * Vec3<double>(2, 0, -3))).norm() < 1e-12);
  // The float's balance written here: its weight and buoyancy, its lines, and the rod's
  // weight less buoyancy at the pin.
  const Environment env = d.environment();
  const double wr = (900 - env.rho_w * kPi * 0.16) * std::sqrt(97.0) * env.g;  // its length |(4, 0, -9)|
  const Vec3<double> Fr(0, 0, -wr);
  Vec3<double> F = Vec3<double>(0, 0, (env.rho_w * 250 - 2e5) * env.g) + Fr;
  Vec3<double> M = Vec3<double>(Rb * Vec3<double>(0.3, 0, -5)).cross(Vec3<double>(0, 0, -2e5 * env.g)) + (rc - rb).cross(Fr);
  const double tension = test_support::add_end_a_loads(sys, s, 3, rb, F, M);
  INFO("net force " << F.transpose() << " N, moment " << M.transpose() << " N m of tension " << tension << " N");
  CHECK(F.norm() <= 1e-6 * tension);
  CHECK(M.norm() <= 1e-6 * tension * 3);
  // Not modelled yet, refused by name: a line on the pinned rod; a body that is not there.
  const std::string on_rod = "4    wire       R1B      4        158       12       -\n";
  CHECK_THROWS_WITH(build_deck_system(parse_deck(deck_text(on_rod, "Body1Pinned"), "pinned.dat", ro)),
                    Catch::Contains("pinned.dat:") && Catch::Contains("LINES line 4") && Catch::Contains("R1B") &&
                        Catch::Contains("lines on a rod pinned to a body"));
  CHECK_THROWS_WITH(build_deck_system(parse_deck(deck_text("", "Body7Pinned"), "pinned.dat", ro)),
                    Catch::Contains("Body7Pinned") && Catch::Contains("a body of BODIES (1..1)"));
  // On a CoupledPinned body: not implemented, named with the RODS row.
  std::string cp = deck_text("", "Body1Pinned");
  cp.replace(cp.find("1       Free      0      0    -20"), 17, "1       CoupledPinned");
  CHECK_THROWS_AS(build_deck_system(parse_deck(cp, "pinned.dat", ro)), NotImplementedError);
  CHECK_THROWS_WITH(build_deck_system(parse_deck(cp, "pinned.dat", ro)),
                    Catch::Contains("pinned.dat:") && Catch::Contains("RODS rod 1") &&
                        Catch::Contains("rods pinned to a CoupledPinned body"));
}

TEST_CASE("BODIES rows and Body points: malformed or unmodelled input is refused by name", "[system][io][bodies]") {
  ReadOptions ro;
  ro.accept_unsupported = true;
  // A CdA field of 4 values, a point on a body that does not exist, a Body point with mass.
  CHECK_THROWS_WITH(ds_body("", "1|2|3|4"), Catch::Contains("BODIES column 13 (CdA*)") && Catch::Contains("1|2|3|4"));
  CHECK_THROWS_WITH(build_deck_system(ds_body("", "0", "100 0 -150 0 0 0 0\n7     Body2     0 0 0 0 0 0 0")),
                    Catch::Contains("Body2") && Catch::Contains("a body of BODIES"));
  // A Body point with mass: lumped on the body (its rigid mass grows by it).
  const auto lumped = build_deck_system(ds_body("", "0", "100 0 -150 0 0 0 0\n7     Body1     1 0 0 50 0.1 0 0"));
  CHECK(lumped.system.body(0).lumps.size() == 1);
  CHECK(body_rigid_mass(lumped.system.body(0)).m == Approx(2e5 + 50));
  // Without accept_unsupported the reader refuses bodies by name.
  CHECK_THROWS_WITH(parse_deck(test_support::moored_float_deck(), "x.dat"), Catch::Contains(kBodiesFeature));
  // bodyScheme takes monolithic or staggered (tests/system/system_staggered_test.cpp); another
  // value is refused by name.
  CHECK(ds_body("staggered bodyScheme").options.body_scheme_staggered);
  CHECK_THROWS_WITH(ds_body("leapfrog bodyScheme"), Catch::Contains("bodyScheme") && Catch::Contains("leapfrog"));
}

TEST_CASE("RODS rows: pinned, free, fixed, on a body and zero-length rods become the system's bodies and points",
          "[system][io][rods]") {
  const char* text = R"(--------------------- MoorDyn Input File ------------------------------------
Rods of every kind the system route models (tests/system)
--------------------- LINE TYPES ---------------------------------------
TypeName   Diam     Mass/m     EA          BA/-zeta   EI       Cd    Ca    CdAx  CaAx
wire       0.08     40         2e8         0          0.0      1.2   1.0   0.2   0.0
---------------------- ROD TYPES ------------------------------------
TypeName      Diam     Mass/m    Cd     Ca      CdEnd    CaEnd
can           1.0      900       0.8    1.0     0.6      0.6
conn          0.1      25        1.1    1.0     1.1      1.0
---------------------------- BODIES -----------------------------------------------------
ID   Attachment  X0     Y0    Z0     r0      p0     y0     Mass  CG*   I*      Volume   CdA*   Ca
1    Free        0      0     -20    0       0      0      1e4   0     1e5     40       0      0
---------------------- RODS ----------------------------------------
ID   RodType  Attachment  Xa    Ya    Za    Xb    Yb    Zb   NumSegs  RodOutputs
1    can      Pinned      200   0     -60   200   0     -75  6        -
2    can      Body1       0     0     0     0     0     -10  4        -
3    conn     Free        -150  0     -90   -150  0     -90  0        -
4    can      Fixed       0     150   -100  0     150   -90  3        -
--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z         Mass    Vol     CdA    Ca
1     Fixed     -300       0          -150      0       0       0      0
2     Body1     2          0          0         0       0       0      0
--------------------- LINES --------------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
1    wire       R1B      R2B      200       20       -
2    wire       2        R3A      152       15       -
3    wire       R3A      1        160       15       -
4    wire       R4B      R2A      160       15       -
--------------------- OPTIONS ------------------------------------------
--------------------- need this line ------------------------------------
)";
  ReadOptions ro;
  ro.accept_unsupported = true;
  const Deck d = parse_deck(text, "rods.dat", ro);
  REQUIRE(d.rods.size() == 4);
  REQUIRE(d.rod_types.size() == 2);
  CHECK(d.rods[0].attachment == RodAttachment::pinned);
  CHECK(d.rods[1].body == 1);
  CHECK(d.find_line(1)->rod_a == 1);
  CHECK(d.find_line(1)->rod_end_b == 'B');
  // A finite-EI line on a rod end: clamped along the rod's axis as MoorDyn cantilevers it, the
  // line continuing the rod outward (in the axes of the rod's body); on a zero-length rod
  // (MoorDyn joins its lines' tangents there) refused by name.
  {
    std::string t = text;
    t.replace(t.find("wire       0.08"), 0, "cable      0.08     40         2e8         0          5e3      1.2   1.0   0.2   0.0\n");
    const std::string l1 = "1    wire       R1B", l4 = "4    wire       R4B";
    t.replace(t.find(l1), l1.size(), "1    cable      R1B");
    t.replace(t.find(l4), l4.size(), "4    cable      R4B");
    const auto cl = build_deck_system(parse_deck(t, "rods.dat", ro));
    const auto& L1 = cl.system.line(0);
    const auto& L4 = cl.system.line(3);
    CHECK((L1.clamped[0] && L1.clamped[1] && L4.clamped[0] && L4.clamped[1]));
    CHECK_FALSE(cl.system.line(1).clamped[0]);
    CHECK(L1.clamp_dir[0] == Vec3<double>(0, 0, 1));   // End A on rod 1's End B: along its axis (its body's z)
    CHECK(L1.clamp_dir[1] == Vec3<double>(0, 0, 1));   // End B on rod 2's End B: against its axis (0, 0, -1)
    CHECK(L4.clamp_dir[0] == Vec3<double>(0, 0, 1));   // End A on rod 4's End B
    CHECK(L4.clamp_dir[1] == Vec3<double>(0, 0, -1));  // End B on rod 2's End A: along its axis
    // An END CONNECTIONS direction at a standalone rod's end is read in world axes (as the rod is
    // written), not in the rod body's internal axes: rod 1 points down (0, 0, -1).
    {
      std::string te = t;
      te.replace(te.find("--------------------- need this line"), 0,
                 "--------------------- END CONNECTIONS ----------------------\nLineID End Stiffness EzX EzY EzZ\n"
                 "1 A 3e4 1 0 0\n");
      const auto ec = build_deck_system(parse_deck(te, "rods.dat", ro));
      const Vec3<double> world = ec.system.body(ec.system.point(ec.system.line(0).point[0]).body).R * ec.system.line(0).clamp_dir[0];
      CHECK((world - Vec3<double>(1, 0, 0)).norm() < 1e-12);
      CHECK(ec.system.line(0).spring_k[0] == 3e4);
    }
    // A finite-EI line on a zero-length rod makes the rod a direction joint (MoorDyn turns it
    // to join its lines' tangents): line 2 ends on Free rod 3's End A, clamped along its axis,
    // which starts along line 2's chord and turns to line 2's end tangent in the statics (the
    // only clamped line there: the joint balances its moment to zero).
    // (Line 2 a stiffer 170 m cable, its end's bending length some elements long; lines 1 and
    // 4 EI = 0 wires again.)
    t = text;
    t.replace(t.find("wire       0.08"), 0, "stiff      0.08     40         2e8         0          5e5      1.2   1.0   0.2   0.0\n");
    t.replace(t.find("2    wire       2        R3A      152       15"), 46, "2    stiff      2        R3A      170       34");
    auto jd = build_deck_system(parse_deck(t, "rods.dat", ro));
    const auto& J3 = jd.rods[2];
    REQUIRE(J3.body >= 0);
    REQUIRE(J3.point >= 0);
    CHECK(jd.system.body(J3.body).joint);
    CHECK(jd.system.body(J3.body).kind == BodyKind::free);
    CHECK(jd.system.line(1).point[1] == J3.point);
    CHECK(jd.system.line(2).point[0] == J3.point);  // the EI = 0 line 3 on the same point
    CHECK(jd.system.line(1).clamped[1]);
    CHECK(jd.system.line(1).clamp_dir[1] == Vec3<double>(0, 0, 1));
    {
      const Vec3<double> x2 = jd.system.body(0).r + jd.system.body(0).R * Vec3<double>(2, 0, 0);
      const Vec3<double> chord = (Vec3<double>(-150, 0, -90) - x2).normalized();
      CHECK((jd.system.body(J3.body).R.col(2) - chord).norm() < 1e-12);  // arriving along line 2
      auto sj = jd.system.initial_state();
      SystemStaticOptions unaudited_joint;  // the deck's unstable equilibrium (below), checked unaudited
      unaudited_joint.audit = false;
      CHECK_THROWS_WITH(solve_statics(jd.system, sj), Catch::Contains("unstable equilibrium"));
      solve_statics(jd.system, sj, unaudited_joint);
      Vec3<double> rj;
      Mat3<double> Rj;
      jd.system.body_pose(sj, J3.body, rj, Rj);
      const Vec3<double> m = jd.system.node_tangent(sj, 1, jd.system.line(1).model.n_nodes() - 1);
      INFO("joint axis " << Rj.col(2).transpose() << ", line 2's end tangent " << m.normalized().transpose());
      CHECK(Rj.col(2).dot(m.normalized()) > 1 - 1e-12);
      CHECK(jd.system.line_end_moment(sj, 1, 1, false).norm() <= 1e-6 * jd.system.line_end_force(sj, 1, 1).norm());
    }
    // An END CONNECTIONS direction there would be ambiguous: refused by name; Pinned leaves the
    // joint without a clamped line: refused by name.
    for (const char* row : {"2 B Rigid 1 0 0\n", "2 B Pinned 0 0 0\n"}) {
      std::string te = t;
      te.replace(te.find("--------------------- need this line"), 0,
                 std::string("--------------------- END CONNECTIONS ----------------------\nLineID End Stiffness EzX EzY EzZ\n") +
                     row);
      try {
        build_deck_system(parse_deck(te, "rods.dat", ro));
        FAIL("accepted: " << row);
      } catch (const InputError& e) {
        CHECK_THAT(e.what(), Catch::Contains("rods.dat") && Catch::Contains("rod 3"));
      }
    }
    // On a body, a zero-length rod joining a cable is not modelled yet: refused by name.
    std::string tb = t;
    tb.replace(tb.find("3    conn     Free "), 18, "3    conn     Body1 ");
    CHECK_THROWS_WITH(build_deck_system(parse_deck(tb, "rods.dat", ro)),
                      Catch::Contains("RODS rod 3") && Catch::Contains("direction joint"));
  }
  auto ds = build_deck_system(d);
  auto& sys = ds.system;
  // Bodies: the deck's body (with rod 2), then rod 1 (pinned) and rod 4 (fixed); rod 3 is a
  // point.
  REQUIRE(sys.n_bodies() == 3);
  CHECK(sys.body(0).rods.size() == 1);
  CHECK(sys.body(1).kind == BodyKind::pinned);
  CHECK(sys.body(2).kind == BodyKind::fixed);
  CHECK(sys.body_ndof(1) == 3);
  // The pinned rod hangs along -z from its pin: its End B is 15 m below.
  auto s = sys.initial_state();
  const int r1b = ds.rod_point.at({1, 'B'});
  CHECK((sys.point_position(s, r1b) - Vec3<double>(200, 0, -75)).norm() < 1e-12);
  CHECK((sys.point_position(s, ds.rod_point.at({4, 'B'})) - Vec3<double>(0, 150, -90)).norm() < 1e-12);
  // The equilibrium the statics find is unstable (two negative eigenvalues of its tangent;
  // marched from it, the free body turns over after 8 s): the audit refuses it by name and
  // leaves s as it was; the balance below is checked on the unaudited equilibrium.
  const auto s_deck = s;
  CHECK_THROWS_WITH(solve_statics(sys, s), Catch::Contains("unstable equilibrium") &&
                                              Catch::Contains("points, bodies and rods 2"));
  CHECK(s.q == s_deck.q);
  SystemStaticOptions unaudited;
  unaudited.audit = false;
  const auto res = solve_statics(sys, s, unaudited);
  INFO("statics residual " << res.residual << " N of " << res.scale);
  // The pinned rod balances its moment about the pin: weight less buoyancy at its centre, the
  // line at its End B.
  const Environment env = d.environment();
  Vec3<double> r;
  Mat3<double> R;
  sys.body_pose(s, 1, r, R);
  const Vec3<double> tip = sys.point_position(s, r1b), centre = (r + tip) / 2;
  const double w = (900 - env.rho_w * 3.14159265358979323846 / 4) * 15 * env.g;
  Vec3<double> M = (centre - r).cross(Vec3<double>(0, 0, -w));
  for (std::size_t l = 0; l < sys.n_lines(); ++l)
    for (int e = 0; e < 2; ++e)
      if (sys.line(static_cast<int>(l)).point[e] == r1b) M += (tip - r).cross(sys.line_end_force(s, static_cast<int>(l), e));
  INFO("moment about the pin " << M.transpose() << " N m; the rod turned to " << (tip - r).transpose());
  CHECK(M.norm() <= 1e-6 * w * 15);
  CHECK((tip - Vec3<double>(200, 0, -75)).norm() > 0.1);  // the line pulled it over
  // Without accept_unsupported the reader refuses rods by name.
  CHECK_THROWS_WITH(parse_deck(text, "x.dat"), Catch::Contains(kRodsFeature));
  // A zero-length rod is a point at End A: free for a Free rod, held for a Pinned one (its
  // End A is the pin).
  auto rod3_kind = [](const DeckSystem& x) {
    for (std::size_t p = 0; p < x.system.n_points(); ++p)
      if (x.system.point(static_cast<int>(p)).name == "rod 3") return x.system.point(static_cast<int>(p)).kind;
    FAIL("no point of rod 3");
    return PointKind::body;
  };
  CHECK(rod3_kind(ds) == PointKind::free);
  std::string pinned = text;
  pinned.replace(pinned.find("3    conn     Free "), 18, "3    conn     Pinned");
  CHECK(rod3_kind(build_deck_system(parse_deck(pinned, "rods.dat", ro))) == PointKind::fixed);
}

TEST_CASE("A deck's finite-EI line on a Fixed rod's end is a cantilever (MoorDyn's BeamCantilevered, stiffer)",
          "[system][io][rods][clamped]") {
  // The beam continues the rod from its End B; in air above the still water (its dry weight
  // w = 100 g per metre). Linear beam theory: the tip w L^4 / (8 EI) down.
  const char* text = R"(--------------------- MoorDyn Input File ------------------------------------
A cantilever off a fixed rod (tests/system)
----------------------- LINE TYPES ------------------------------------------
TypeName   Diam    Mass/m     EA         BA/-zeta    EI         Cd     Ca     CdAx    CaAx
beam      0.05     100.0      1.5e11     -1.0        1e9        0.0    0.0    0.1     0.0
---------------------- ROD TYPES ------------------------------------
TypeName      Diam     Mass/m    Cd     Ca      CdEnd    CaEnd
cantilever    0.25     100.0     0.0    0.0     0.0      0.0
---------------------- RODS ----------------------------------------
ID   RodType   Attachment  Xa    Ya    Za    Xb    Yb    Zb   NumSegs  RodOutputs
1    cantilever Fixed      -10.0 0     10.0  0.0   0     10.0 1         -
---------------------- POINT PROPERTIES --------------------------------
ID    Type      X       Y       Z       Mass   Volume  CdA    Ca
1     Free      10      0.0     9.9     0      0       0      0
---------------------- LINES ----------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
1     beam       R1B      1         10        19      -
---------------------- OPTIONS -----------------------------------------
10            WtrDpth              water depth (m)
------------------------- need this line --------------------------------------
)";
  ReadOptions ro;
  ro.accept_unsupported = true;
  auto ds = build_deck_system(parse_deck(text, "beam.dat", ro));
  auto& sys = ds.system;
  REQUIRE(sys.line(0).clamped[0]);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const Vec3<double> tip = sys.point_position(s, sys.line(0).point[1]);
  const double w = 100 * 9.80665, delta = w * 1e4 / (8 * 1e9);
  INFO("tip " << tip.transpose() << "; beam theory " << delta << " m down");
  CHECK(std::fabs((10 - tip(2)) / delta - 1) < 1e-5);
  CHECK(std::fabs(tip(1)) < 1e-12);
}

TEST_CASE("A zero-length Coupled or CoupledPinned rod is a coupled point: its 6 or 3 entries move it, its load is the "
          "lines' load there",
          "[system][io][rods]") {
  // The same line from an anchor to (40, 0, -10): on a Coupled point, on a zero-length Coupled
  // rod (6 coupled entries, the angles turning nothing) and on a zero-length CoupledPinned rod
  // (3 entries), all surged alike: the same forces, the rod's moment zero.
  const std::string head = R"(--------------------- MoorDyn Input File ------------------------------------
A chain to a host-driven end (tests/system)
--------------------- LINE TYPES ---------------------------------------
TypeName   Diam     Mass/m     EA          BA/-zeta   EI       Cd    Ca    CdAx  CaAx
chain      0.1      150        5e8         -0.8       0.0      1.2   1.0   0.2   0.0
---------------------- ROD TYPES ------------------------------------
TypeName      Diam     Mass/m    Cd     Ca      CdEnd    CaEnd
conn          0.1      25        1.1    1.0     1.1      1.0
)";
  const std::string tail = R"(--------------------- OPTIONS ------------------------------------------
200          WtrDpth
0.6          rhoInf
--------------------- need this line ------------------------------------
)";
  const std::string on_point = head + R"(--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z         Mass    Vol     CdA    Ca
1     Fixed     -400       0          -200      0       0       0      0
2     Coupled   40         0          -10       0       0       0      0
--------------------- LINES --------------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
1    chain      1        2        470       30       -
)" + tail;
  auto on_rod = [&](const std::string& kind) {
    return head + R"(---------------------- RODS ----------------------------------------
ID   RodType  Attachment  Xa    Ya    Za    Xb    Yb    Zb   NumSegs  RodOutputs
1    conn     )" + kind + R"(     40    0     -10   40    0     -10  0        -
--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z         Mass    Vol     CdA    Ca
1     Fixed     -400       0          -200      0       0       0      0
--------------------- LINES --------------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
1    chain      1        R1A      470       30       -
)" + tail;
  };
  ReadOptions ro;
  ro.accept_unsupported = true;
  SystemSimulation pt(parse_deck(on_point, "point.dat", ro)), rod(parse_deck(on_rod("Coupled"), "rod.dat", ro)),
      pin(parse_deck(on_rod("CoupledPinned"), "pin.dat", ro));
  REQUIRE(pt.coupled_dofs() == 3);
  REQUIRE(rod.coupled_dofs() == 6);
  REQUIRE(pin.coupled_dofs() == 3);
  REQUIRE(rod.model().coupled_width == std::vector<int>{6});
  REQUIRE(pin.model().coupled_width == std::vector<int>{3});
  CHECK(rod.model().coupled_deck_pose.at(0) == (Vec6<double>() << 40, 0, -10, 0, 0, 0).finished());
  const std::vector<double> xr{40, 0, -10, 0, 0, 0}, xp{40, 0, -10};
  std::vector<double> v6(6, 0.0), v3(3, 0.0);
  pt.initialize(xp.data(), v3.data());
  rod.initialize(xr.data(), v6.data());
  pin.initialize(xp.data(), v3.data());
  std::vector<double> fp(3), fr(6), fq(3);
  double worst = 0, moment = 0, peak = 0;
  const double dt = 0.1;
  for (int k = 1; k <= 40; ++k) {
    const double t = k * dt, w = 2 * kPi / 8;
    const double x = 40 + 2 * std::sin(w * t), u = 2 * w * std::cos(w * t);
    std::vector<double> x3{x, 0, -10}, u3{u, 0, 0}, x6{x, 0, -10, 0.1, -0.2, 0.3}, u6{u, 0, 0, 0, 0, 0};
    pt.step(x3.data(), u3.data(), pt.time(), dt, fp.data());
    rod.step(x6.data(), u6.data(), rod.time(), dt, fr.data());
    pin.step(x3.data(), u3.data(), pin.time(), dt, fq.data());
    for (int c = 0; c < 3; ++c) {
      worst = std::max({worst, std::fabs(fr[static_cast<std::size_t>(c)] - fp[static_cast<std::size_t>(c)]),
                        std::fabs(fq[static_cast<std::size_t>(c)] - fp[static_cast<std::size_t>(c)])});
      moment = std::max(moment, std::fabs(fr[3 + static_cast<std::size_t>(c)]));
      peak = std::max(peak, std::fabs(fp[static_cast<std::size_t>(c)]));
    }
  }
  INFO("largest force difference " << worst << " N of " << peak << " N; largest moment " << moment << " N m");
  CHECK(peak > 1e5);
  CHECK(worst <= 1e-9 * peak);
  CHECK(moment <= 1e-9 * peak);
  // The rod's point is where the host put it; its line-end force is the point deck's.
  CHECK(rod.line_end_force(1, 1).norm() == Approx(pt.line_end_force(1, 1).norm()).epsilon(1e-12));
  // A finite-EI line on a zero-length coupled rod stays refused by name.
  std::string herm = on_rod("Coupled");
  const std::string ei0 = "chain      0.1      150        5e8         -0.8       0.0";
  herm.replace(herm.find(ei0), ei0.size(), "chain      0.1      150        5e8         -0.8       1e4");
  CHECK_THROWS_AS(build_deck_system(parse_deck(herm, "herm.dat", ro)), NotImplementedError);
}

TEST_CASE("Turbine<J> points are coupled points of host turbine J: their X Y Z from its TURBINES row, their entries "
          "after turbine 1's (MoorDyn-F's order)",
          "[system][io][turbines]") {
  // Two moorings of a farm: one on turbine 1 (a Coupled point, at the origin) and one on
  // turbine 2 (a Turbine2 point 40 m from its reference at x = 1000 m), written before it in
  // POINTS. The same farm written with both as Coupled points at their global positions moves
  // alike, bit for bit, its coupled entries in POINTS order (turbine 2's first).
  const std::string head = R"(--------------------- MoorDyn Input File ------------------------------------
Two turbines' moorings (tests/system)
--------------------- LINE TYPES ---------------------------------------
TypeName   Diam     Mass/m     EA          BA/-zeta   EI       Cd    Ca    CdAx  CaAx
chain      0.1      150        5e8         -0.8       0.0      1.2   1.0   0.2   0.0
--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z         Mass    Vol     CdA    Ca
1     Fixed     -400       0          -200      0       0       0      0
)";
  const std::string tail = R"(3     Coupled   40         0          -10       0       0       0      0
4     Fixed     600        0          -200      0       0       0      0
--------------------- LINES --------------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
1    chain      1        3        470       30       -
2    chain      4        2        470       30       -
--------------------- OPTIONS ------------------------------------------
200          WtrDpth
0.6          rhoInf
%EXTRA%
--------------------- need this line ------------------------------------
)";
  const std::string turbines = "---------------------- TURBINES ----------------------\nID X Y\n(-) (m) (m)\n2 1000 0\n";
  auto farm_text = [&](const std::string& type, const std::string& rows, const std::string& extra) {
    std::string t = head + "2     " + type + "  40         0          -10       0       0       0      0\n" + tail;
    t.replace(t.find("%EXTRA%"), 7, extra);
    return rows + t;
  };
  ReadOptions ro;
  ro.accept_unsupported = true;
  const Deck farm = parse_deck(farm_text("Turbine2", turbines, ""), "farm.dat", ro);
  std::string global_text = farm_text("Coupled ", "", "");
  global_text.replace(global_text.find("2     Coupled   40  "), 20, "2     Coupled   1040");
  const Deck global = parse_deck(global_text, "global.dat", ro);
  const auto* p2 = farm.find_point(2);
  REQUIRE(p2);
  CHECK(p2->type == PointType::turbine);
  CHECK(p2->turbine() == 2);
  CHECK(p2->r == std::array<double, 3>{1040, 0, -10});
  CHECK(farm.coupled_point_ids() == std::vector<int>{3, 2});
  CHECK(global.coupled_point_ids() == std::vector<int>{2, 3});
  SystemSimulation a(farm), b(global);
  REQUIRE(a.coupled_dofs() == 6);
  REQUIRE(b.coupled_dofs() == 6);
  // Turbine 1 surges, turbine 2 sways: entries (turbine 1, turbine 2) on the farm deck,
  // (point 2, point 3) on the global one.
  auto motion = [](double t, int turbine, bool rate) {
    const double w = 2 * kPi / 8, amp = turbine == 1 ? 2.0 : 1.5;
    const double s = rate ? amp * w * std::cos(w * t) : amp * std::sin(w * t);
    const double base = turbine == 1 ? 40 : 1040;
    if (turbine == 1) return std::array<double, 3>{rate ? s : base + s, 0, rate ? 0 : -10.0};
    return std::array<double, 3>{rate ? 0 : base, s, rate ? 0 : -10.0};
  };
  auto pack = [&](double t, bool rate, bool farm_order) {
    const auto m1 = motion(t, 1, rate), m2 = motion(t, 2, rate);
    const auto& f = farm_order ? m1 : m2;
    const auto& g = farm_order ? m2 : m1;
    return std::vector<double>{f[0], f[1], f[2], g[0], g[1], g[2]};
  };
  a.initialize(pack(0, false, true).data(), pack(0, true, true).data());
  b.initialize(pack(0, false, false).data(), pack(0, true, false).data());
  std::vector<double> fa(6), fb(6);
  double peak = 0;
  bool same = true;
  for (int k = 1; k <= 30; ++k) {
    const double t = k * 0.1;
    a.step(pack(t, false, true).data(), pack(t, true, true).data(), a.time(), 0.1, fa.data());
    b.step(pack(t, false, false).data(), pack(t, true, false).data(), b.time(), 0.1, fb.data());
    for (int c = 0; c < 3; ++c) {
      same = same && fa[static_cast<std::size_t>(c)] == fb[3 + static_cast<std::size_t>(c)] &&
             fa[3 + static_cast<std::size_t>(c)] == fb[static_cast<std::size_t>(c)];
      peak = std::max(peak, std::fabs(fa[3 + static_cast<std::size_t>(c)]));
    }
  }
  CHECK(peak > 1e5);
  CHECK(same);
  CHECK(a.line_end_force(2, 1) == b.line_end_force(2, 1));
  // Turbine 1 needs no row (MoorDyn-F's one-turbine coupling: at the origin); any other does,
  // once; the one vessel of vesselRef carries turbine 1's points only.
  std::string one = farm_text("Turbine1", "", "");
  one.replace(one.find("4     Fixed     600 "), 20, "4     Fixed     -360");
  CHECK(parse_deck(one, "one.dat", ro).find_point(2)->r == std::array<double, 3>{40, 0, -10});
  CHECK_THROWS_WITH(parse_deck(farm_text("Turbine2", "", ""), "no_row.dat", ro),
                    Catch::Contains("POINTS column 2 (Type)") && Catch::Contains("Turbine2") &&
                        Catch::Contains("a TURBINES row `2 X Y`"));
  CHECK_THROWS_WITH(parse_deck(farm_text("Turbine2", turbines + "2 5 5\n", ""), "twice.dat", ro),
                    Catch::Contains("TURBINES column 1 (ID)") && Catch::Contains("one row per turbine"));
  CHECK_THROWS_WITH(parse_deck(farm_text("Turbine2", turbines, "0 0 -10 vesselRef"), "vessel.dat", ro),
                    Catch::Contains("vesselRef") && Catch::Contains("points of turbine 1 only"));
  // Turbine 1 away from the origin with a Coupled point on the deck: ambiguous (MoorDyn-F
  // would place the Coupled point relative to it too), refused; a row no point uses is noted.
  CHECK_THROWS_WITH(parse_deck(farm_text("Turbine2", turbines + "1 100 0\n", ""), "t1.dat", ro),
                    Catch::Contains("TURBINES column 2 (X)") && Catch::Contains("0 0 for turbine 1"));
  CHECK_NOTHROW(parse_deck(farm_text("Turbine2", turbines + "1 0 0\n", ""), "t1_origin.dat", ro));
  const Deck spare = parse_deck(farm_text("Turbine2", turbines + "3 50 50\n", ""), "spare.dat", ro);
  bool noted = false;
  for (const auto& n : spare.notes) noted = noted || n.find("TURBINES row of turbine 3") != std::string::npos;
  CHECK(noted);
  // Without accept_unsupported the reader names the feature (the system route models it).
  CHECK_THROWS_WITH(parse_deck(farm_text("Turbine2", turbines, ""), "strict.dat"), Catch::Contains(kTurbinePointsFeature));
}

TEST_CASE("bodyAngles orcaflex: a Coupled body's deck and host angles in the OrcaFlex vessel convention R = Rz Ry Rx",
          "[system][io][bodies]") {
  // The angles of the two conventions round-trip, and their rates give the angular velocity
  // (against central differences of the orientation).
  const Vec3<double> ang(0.2, -0.35, 1.1), rate(0.05, -0.02, 0.07);
  CHECK((angles_zyx(Mat3<double>(rotation_zyx(ang(0), ang(1), ang(2)))) - ang).norm() < 1e-15);
  Options orca;
  orca.body_angles_orcaflex = true;
  const Options md;
  for (const Options* o : std::vector<const Options*>{&orca, &md}) {
    const auto w = deck_body_angular_velocity(*o, {ang(0), ang(1), ang(2)}, {rate(0), rate(1), rate(2)});
    const double h = 1e-5;
    const Vec3<double> ap = ang + h * rate, am = ang - h * rate;
    const Mat3<double> Rp = deck_body_rotation(*o, ap(0), ap(1), ap(2)), Rm = deck_body_rotation(*o, am(0), am(1), am(2));
    const Vec3<double> fd = so3_log(Mat3<double>(Rp * Rm.transpose())) / (2 * h);
    CHECK((Vec3<double>(w[0], w[1], w[2]) - fd).norm() < 1e-9);
    CHECK((deck_body_angles(*o, deck_body_rotation(*o, ang(0), ang(1), ang(2))) - ang).norm() < 1e-15);
  }
  // A Coupled body moored by three lines, its deck angles (10, -20, 30) deg in the OrcaFlex
  // convention, against the same body with the MoorDyn angles of the same orientation: the same
  // pose, and, driven through the same turns (each host given its own convention's angles),
  // the same loads.
  const double deg = kPi / 180;
  const Vec3<double> a0(10 * deg, -20 * deg, 30 * deg);
  const Vec3<double> m0 = angles_xyz(Mat3<double>(rotation_zyx(a0(0), a0(1), a0(2))));
  auto deck = [&](const Vec3<double>& a, const std::string& option) {
    std::string text = test_support::moored_float_deck(option);
    const std::string row = "1       Free      0      0    -20    0       0      30 ";
    std::ostringstream r;
    r.precision(17);
    r << "1       Coupled   0      0    -20    " << a(0) / deg << " " << a(1) / deg << " " << a(2) / deg << " ";
    text.replace(text.find(row), row.size(), r.str());
    ReadOptions ro;
    ro.accept_unsupported = true;
    return parse_deck(text, "angles.dat", ro);
  };
  SystemSimulation o(deck(a0, "orcaflex bodyAngles")), m(deck(m0, ""));
  REQUIRE(o.coupled_dofs() == 6);
  CHECK((o.model().system.body(0).R - m.model().system.body(0).R).cwiseAbs().maxCoeff() < 1e-15);
  CHECK((Vec3<double>(o.model().coupled_deck_pose[0].tail<3>()) - a0).norm() < 1e-14);
  CHECK_THROWS_WITH(deck(a0, "euler bodyAngles"), Catch::Contains("bodyAngles") && Catch::Contains("orcaflex"));
  auto entries = [&](double t, bool orcaflex) {
    const Vec3<double> a = a0 + Vec3<double>(0.05 * std::sin(0.8 * t), 0.03 * std::sin(0.5 * t), 0);
    const Mat3<double> R = rotation_zyx(a(0), a(1), a(2));
    const Vec3<double> e = orcaflex ? a : angles_xyz(R);
    return std::vector<double>{0, 0, -20, e(0), e(1), e(2)};
  };
  auto velocity = [&](double t) {  // the angular velocity in world axes (either convention)
    const Vec3<double> a = a0 + Vec3<double>(0.05 * std::sin(0.8 * t), 0.03 * std::sin(0.5 * t), 0);
    const auto w = deck_body_angular_velocity(orca, {a(0), a(1), a(2)}, {0.04 * std::cos(0.8 * t), 0.015 * std::cos(0.5 * t), 0});
    return std::vector<double>{0, 0, 0, w[0], w[1], w[2]};
  };
  o.initialize(entries(0, true).data(), velocity(0).data());
  m.initialize(entries(0, false).data(), velocity(0).data());
  std::vector<double> fo(6), fm(6);
  double worst = 0, peak = 0;
  for (int k = 1; k <= 20; ++k) {
    const double t = 0.2 * k;
    o.step(entries(t, true).data(), velocity(t).data(), o.time(), 0.2, fo.data());
    m.step(entries(t, false).data(), velocity(t).data(), m.time(), 0.2, fm.data());
    for (std::size_t c = 0; c < 6; ++c) {
      worst = std::max(worst, std::fabs(fo[c] - fm[c]));
      peak = std::max(peak, std::fabs(fm[c]));
    }
  }
  INFO("largest load difference " << worst << " of " << peak);
  CHECK(peak > 1e5);
  CHECK(worst <= 1e-12 * peak);
  // The pose reads back in each deck's convention.
  Vec3<double> r;
  Mat3<double> R;
  o.body_pose(1, r, R);
  CHECK((deck_body_angles(o.deck().options, R) - Vec3<double>(entries(4.0, true)[3], entries(4.0, true)[4], entries(4.0, true)[5])).norm() < 1e-12);
}

TEST_CASE("A Body point's constant force (MoorDyn's 12-column POINTS row) acts on its body at the point",
          "[system][io][bodies]") {
  // 50 kN along +x and 20 kN down at the point (1, 0, 0) of the body (global directions): the
  // statics balance it with the weight, the buoyancy and the lines, its moment about the
  // reference point with the point's arm turned by the body.
  const Deck d = ds_body("", "0", "100 0 -150 0 0 0 0\n7     Body1     1 0 0 0 0 5e4 0 -2e4 0 0");
  auto ds = build_deck_system(d);
  auto& sys = ds.system;
  REQUIRE(sys.body(0).lumps.size() == 1);
  CHECK(sys.body(0).lumps[0].force == Vec3<double>(5e4, 0, -2e4));
  CHECK(body_rigid_mass(sys.body(0)).m == Approx(2e5));  // a force, no mass
  auto s = sys.initial_state();
  solve_statics(sys, s);
  Vec3<double> rb;
  Mat3<double> Rb;
  sys.body_pose(s, 0, rb, Rb);
  const Environment env = d.environment();
  const Vec3<double> Fp(5e4, 0, -2e4), arm = Rb * Vec3<double>(1, 0, 0);
  Vec3<double> F = Vec3<double>(0, 0, (env.rho_w * 250 - 2e5) * env.g) + Fp;
  Vec3<double> M = Vec3<double>(Rb * Vec3<double>(0.3, 0, -5)).cross(Vec3<double>(0, 0, -2e5 * env.g)) + arm.cross(Fp);
  const double tension = test_support::add_end_a_loads(sys, s, 3, rb, F, M);
  INFO("net force " << F.transpose() << " N, moment " << M.transpose() << " N m of tension " << tension << " N");
  CHECK(F.norm() <= 1e-6 * tension);
  CHECK(M.norm() <= 1e-6 * tension * 3);
  // The body moved: the force is carried (against the same deck without it).
  auto plain = build_deck_system(ds_body());
  auto sp = plain.system.initial_state();
  solve_statics(plain.system, sp);
  Vec3<double> rp;
  Mat3<double> Rp;
  plain.system.body_pose(sp, 0, rp, Rp);
  CHECK((rb - rp).norm() > 0.1);
}
