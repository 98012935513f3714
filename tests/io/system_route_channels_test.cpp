// The node tension, curvature and bend moment channels of the driver's system route: on a
// deck both routes can run (a finite-EI cable and a chain between held points), the system
// route's values at the static state agree with the single-line route's, which recovers them
// from the same element model on the same equilibrium.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>

#include "cabledyn/io/driver.hpp"
#include "cabledyn/io/system_runner.hpp"

using namespace cabledyn;

namespace {

const char* src_deck = R"(--------------------- MoorDyn Input File ------------------------------------
A finite-EI cable and a chain between held points, node tension / curvature / moment channels
--------------------- LINE TYPES ---------------------------------------
TypeName   Diam     Mass/m     EA          BA/-zeta   EI       Cd    Ca    CdAx  CaAx
cable      0.2      80         6e8         -0.5       5e4      1.2   1.0   0.1   0.0
chain      0.1      150        5e8         -0.8       0.0      1.2   1.0   0.2   0.0
--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z         Mass    Vol     CdA    Ca
1     Fixed     0          0          -10       0       0       0      0
2     Fixed     -250       0          -100      0       0       0      0
3     Fixed     0          20         -10       0       0       0      0
4     Fixed     -240       60         -100      0       0       0      0
--------------------- LINES --------------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
1    cable      2        1        300       60       -
2    chain      3        4        290       30       -
--------------------- OPTIONS ------------------------------------------
100          WtrDpth
3e6          kBot
3e5          cBot
0.1          dtM
1.0          TMax
--------------------- OUTPUTS ------------------------------------------
FairTen1
AnchTen1
L1N5T
L1N30T
Curv1N30
Curv1N50
BendMom1N50
L2N10T
Curv2N10
--------------------- need this line ------------------------------------
)";

io::RunSettings src_settings(const std::filesystem::path& root) {
  io::RunSettings s;
  s.root = root.string();
  s.log = nullptr;
  s.progress = false;
  s.static_only = true;
  return s;
}

}  // namespace

TEST_CASE("The system route's node tension, curvature and bend moment channels are the single-line route's",
          "[io][system][driver]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_system_route_channels";
  fs::create_directories(dir);
  const io::Deck deck = io::parse_deck(src_deck, "src.dat");
  io::DeckRunner single(deck, src_settings(dir / "single"));
  single.run();
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  io::SystemRunner sys(io::parse_deck(src_deck, "src.dat", ro), src_settings(dir / "system"));
  sys.run();
  REQUIRE(!single.channel_rows().empty());
  REQUIRE(!sys.channel_rows().empty());
  const auto& a = single.channel_rows()[0];
  const auto& b = sys.channel_rows()[0];
  REQUIRE(a.size() == 9);
  REQUIRE(b.size() == 9);
  for (std::size_t k = 0; k < a.size(); ++k) {
    INFO("channel " << k << ": single-line " << a[k] << ", system " << b[k]);
    // The two routes' static solutions agree to their 1e-8 tolerance; the curvatures to what
    // that leaves of a difference of near-equal end moments.
    CHECK(b[k] == Approx(a[k]).epsilon(k == 4 || k == 5 || k == 6 ? 1e-5 : 1e-7));
  }
  CHECK(a[5] > 1e-3);  // the cable bends above its touchdown (1/m; observed 5.7e-3)
  CHECK(a[4] < 1e-4);  // and lies straight on the seabed at node 30
  CHECK(a[6] > 100);   // N m (observed 285)
  CHECK(b[8] == 0.0);  // an EI = 0 line: no curvature
  fs::remove_all(dir);
}

TEST_CASE("The system route applies the deck's EI = 0 sub-step options and notes the single-line march's "
          "solver options it does not apply",
          "[io][system][driver]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_system_route_options";
  fs::create_directories(dir);
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  {
    // The defaults: the release cap and the sub-steps on, 16 at most, above 1 degree.
    io::SystemRunner sys(io::parse_deck(src_deck, "src.dat", ro), src_settings(dir / "default"));
    const auto& m = sys.simulation().system();
    CHECK(m.release_cap());
    CHECK(m.ei0_substeps());
    CHECK(m.ei0_substep_max() == 16);
    CHECK(m.ei0_substep_angle() == 1.0);
  }
  std::string src = src_deck;
  const std::string at = "0.1          dtM\n";
  src.replace(src.find(at), at.size(),
              at + "32           ei0_substep_max\n2.5          ei0_substep_angle\noff          ei0_substeps\n"
                   "True         modified_newton\n");
  io::SystemRunner sys(io::parse_deck(src, "src.dat", ro), src_settings(dir / "system"));
  const auto& m = sys.simulation().system();
  CHECK(m.release_cap());
  CHECK_FALSE(m.ei0_substeps());
  CHECK(m.ei0_substep_max() == 32);
  CHECK(m.ei0_substep_angle() == 2.5);
  int ei0 = 0, newton = 0;
  for (const auto& n : sys.notes()) {
    if (n.find("does not apply to the system route") == std::string::npos) continue;
    if (n.find("ei0_substep") != std::string::npos) ++ei0;
    if (n.find("modified_newton") != std::string::npos) ++newton;
  }
  CHECK(ei0 == 0);
  CHECK(newton == 1);
  fs::remove_all(dir);
}
