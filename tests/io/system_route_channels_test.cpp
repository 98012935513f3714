// The driver's channels and files against references of their own: on a finite-EI cable and a
// chain between held points the node tension, curvature and bend moment at the static state
// are those the library's single-line statics and node recovery give (io/node_recovery.hpp);
// the modes those of the single-line modal analysis; on a surged chain, a pitching vessel, a
// landing touchdown and a snapping polyester line the dynamic channels follow a march of a
// quarter of the step. (Until 2026-12-07 these took the driver's single-line route as their
// reference.)
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>
#include <tuple>

#include "cabledyn/io/deck_sea.hpp"
#include "cabledyn/io/node_recovery.hpp"
#include "cabledyn/modal.hpp"
#include "cabledyn/statics.hpp"
#include "cabledyn/io/system_runner.hpp"
#include "cabledyn/system.hpp"
#include "support/series_gap.hpp"

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

// The library's single-line statics of deck line `id` between its points' deck positions,
// built as the deck describes it (sections, End A at the fairlead, the seabed, the deck's
// steady current) and solved by TensionStatics or HermiteStatics, with its node recovery
// (io/node_recovery.hpp): an independent reference for the driver's static channels.
struct LineReference {
  std::unique_ptr<Line> line;
  StaticProblem problem;
  StaticResult statics;
  io::NodeRecovery nodes;
  bool swapped = false;  // End A of `line` is the deck's End B
};
LineReference line_reference(const io::Deck& deck, int id) {
  const io::LineRecord& rec = *deck.find_line(id);
  const Environment env = deck.environment();
  LineEnd ends[2];
  for (int e = 0; e < 2; ++e) {
    const auto& r = deck.find_point(e == 0 ? rec.fairlead() : rec.anchor())->r;
    ends[e].position = Vec3<double>(r[0], r[1], r[2]);
  }
  LineOptions lo;
  lo.axial_order = deck.options.axial_quadrature_order;
  lo.bending_order = deck.options.bending_quadrature_order;
  for (int written = 0; written < 2; ++written) {  // END CONNECTIONS rows, on the reference line's ends
    const auto* ec = deck.end_connection(id, written);
    if (!ec) continue;
    const int e = deck.oriented_end(id, written);
    ends[e].direction = Vec3<double>(ec->direction[0], ec->direction[1], ec->direction[2]);
    ends[e].stiffness = ec->stiffness;
    ends[e].rotation = ec->kind == io::EndConnectionKind::rigid    ? EndRotation::rigid
                       : ec->kind == io::EndConnectionKind::spring ? EndRotation::spring
                                                                   : EndRotation::free;
  }
  LineReference ref;
  ref.swapped = rec.swapped;
  ref.line = std::make_unique<Line>("line " + std::to_string(id), deck.line_sections(id), ends[0], ends[1], env, lo);
  if (env.depth) ref.problem.seabed_z = -*env.depth;
  ref.problem.seabed.kBot = deck.options.kBot;
  ref.problem.seabed.cBot = deck.options.cBot;
  const io::DeckSea sea = io::build_deck_sea(deck, env);
  if (sea.has_current) ref.problem.current = sea.steady;
  ref.statics = ref.line->hermite() ? HermiteStatics(*ref.line, ref.problem).solve()
                                    : TensionStatics(*ref.line, ref.problem).solve();
  const LineModel<double> model =
      LineModel<double>::elements_of(*ref.line, SeabedModel{ref.problem.seabed_z, ref.problem.seabed});
  ref.nodes = io::recover_nodes_at(model, ref.statics.q, nullptr, ref.statics.end_force[0], ref.statics.end_force[1]);
  return ref;
}

// The channel rows of deck `text` through the driver at its dtM divided by `factor`, written
// every `dt_out` (the original dtM): a finer march of the same deck, the reference of its
// dynamic channels.
std::vector<std::vector<double>> finer_rows(std::string text, double dtm, int factor, double dt_out,
                                            const std::filesystem::path& root) {
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  // Before the OUTPUTS header line (its dashes vary from deck to deck).
  const auto word = text.find(" OUTPUTS ");
  REQUIRE(word != std::string::npos);
  const auto at = text.rfind('\n', word) + 1;
  std::ostringstream row;
  row << std::setprecision(17) << dt_out << " dtOut\n";
  text.insert(at, row.str());
  io::RunSettings s = src_settings(root);
  s.static_only = false;
  s.dtm = dtm / factor;
  s.plots = false;
  io::SystemRunner r(io::parse_deck(text, "finer.dat", ro), s);
  r.run();
  return r.channel_rows();
}

// The gap of column k of rows b from rows a (test_support::series_gap: largest and rms
// difference, a's peak and range).
test_support::SeriesGap column_gap(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b,
                                   std::size_t k) {
  return test_support::series_gap(a.size(), [&](std::size_t r) { return a[r][k]; }, [&](std::size_t r) { return b[r][k]; });
}

}  // namespace

TEST_CASE("The driver's node tension, curvature and bend moment at the static state are the single-line statics' "
          "node recovery",
          "[io][system][driver]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_system_route_channels";
  fs::create_directories(dir);
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  const io::Deck deck = io::parse_deck(src_deck, "src.dat", ro);
  io::SystemRunner sys(deck, src_settings(dir / "system"));
  sys.run();
  REQUIRE(!sys.channel_rows().empty());
  const auto& b = sys.channel_rows()[0];
  REQUIRE(b.size() == 9);
  CHECK(b[5] > 1e-3);  // the cable bends above its touchdown (1/m; observed 5.7e-3)
  CHECK(b[4] < 1e-4);  // and lies straight on the seabed at node 30
  CHECK(b[6] > 100);   // N m (observed 285)
  CHECK(b[8] == 0.0);  // an EI = 0 line: no curvature
  // The cable's static curvature is drawn (a statics-only run: no tension figure).
  CHECK(fs::exists(dir / "system.curvature.svg"));
  CHECK_FALSE(fs::exists(dir / "system.tension.svg"));
  // <root>.static.out's node table (line, node, arc length, position, the node recovery's
  // tension (the end nodes' the line-end forces), curvature and bend moment) against the
  // library's single-line statics of each line and their node recovery.
  std::ifstream f(dir / "system.static.out");
  std::string header, row;
  std::getline(f, header);
  std::vector<std::vector<double>> tb;
  while (std::getline(f, row) && !row.empty()) {
    std::istringstream r(row);
    std::vector<double> v;
    double x = 0;
    while (r >> x) v.push_back(x);
    tb.push_back(v);
  }
  REQUIRE(tb.size() == 61 + 31);
  const LineReference ref[2] = {line_reference(deck, 1), line_reference(deck, 2)};
  double kmax = 0, mmax = 0;
  for (const auto& r : tb) kmax = std::max(kmax, r.at(7)), mmax = std::max(mmax, std::fabs(r.at(8)));
  for (std::size_t i = 0; i < tb.size(); ++i) {
    REQUIRE(tb[i].size() == 9);
    INFO("static.out row " << i + 2);
    const int l = static_cast<int>(tb[i][0]) - 1;
    REQUIRE((l == 0 || l == 1));
    const LineReference& L = ref[l];
    REQUIRE_FALSE(L.swapped);  // both lines between fixed points: End A as written
    const auto node = static_cast<std::size_t>(tb[i][1] - deck.first_node_number());
    REQUIRE(node < L.line->n_nodes());
    const Vec3<double> x = L.line->r(L.statics.q, node);
    for (int c = 0; c < 3; ++c) CHECK(tb[i][3 + c] == Approx(x(c)).margin(1e-5));  // m
    CHECK(tb[i][6] == Approx(L.nodes.tension[node]).epsilon(1e-7));                // N
    CHECK(tb[i][7] == Approx(L.nodes.curvature[node]).margin(1e-5 * kmax));
    CHECK(tb[i][8] == Approx(L.nodes.moment[node]).margin(1e-5 * mmax));
  }
  fs::remove_all(dir);
}

TEST_CASE("The system route applies the deck's EI = 0 sub-step and Newton options and notes those it does not "
          "apply",
          "[io][system][driver]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_system_route_options";
  fs::create_directories(dir);
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  // The policies a system runner set: (release cap, sub-steps, their count, their angle).
  auto policies = [](const io::SystemRunner& r) {
    const auto& m = r.simulation().system();
    return std::make_tuple(m.release_cap(), m.ei0_substeps(), m.ei0_substep_max(), m.ei0_substep_angle());
  };
  // The defaults: the release cap and the sub-steps on, 16 at most, above 1 degree.
  {
    const io::SystemRunner d(io::parse_deck(src_deck, "src.dat", ro), src_settings(dir / "default"));
    CHECK(policies(d) == std::make_tuple(true, true, 16, 1.0));
    // recovery_max_substeps 1024: a failed step halved down to 1/1024 of it; no tensile audit.
    CHECK(d.simulation().stepper_options().max_subdivisions == 10);
    CHECK_FALSE(d.simulation().system().tensile_safety());
  }
  std::string src = src_deck;
  const std::string at = "0.1          dtM\n";
  src.replace(src.find(at), at.size(),
              at + "32           ei0_substep_max\n2.5          ei0_substep_angle\noff          ei0_substeps\n"
                   "True         modified_newton\n"
                   "dynamic_solver 1e-9 1e-12 40 8\nFalse alpha_force_blend\n20 recovery_max_substeps\n"
                   "True tensile_safety\n3e-6 tensile_strain_tolerance\n");
  io::SystemRunner sys(io::parse_deck(src, "src.dat", ro), src_settings(dir / "system"));
  // False alpha_force_blend: the configuration blend, without the force blend's release cap.
  CHECK(policies(sys) == std::make_tuple(false, false, 32, 2.5));
  const SystemStepperOptions& so = sys.simulation().stepper_options();
  CHECK_FALSE(so.force_blend);
  CHECK(so.modified_newton);
  CHECK(so.tol == 1e-9);
  CHECK(so.max_iterations == 40);
  CHECK(so.max_backtracks == 8);
  CHECK(so.max_subdivisions == 4);  // 16 <= 20 < 32: pieces of 1/16 of a step at the finest
  CHECK(sys.simulation().system().tensile_safety());
  CHECK(sys.simulation().system().tensile_strain_tolerance() == 3e-6);
  int ei0 = 0, newton = 0, abs_tol = 0, blend = 0;
  for (const auto& n : sys.notes()) {
    if (n.find("does not apply to the system route") == std::string::npos) continue;
    if (n.find("ei0_substep") != std::string::npos) ++ei0;
    if (n.find("modified_newton") != std::string::npos) ++newton;
    if (n.find("dynamic_solver's absolute tolerance") != std::string::npos) ++abs_tol;
    if (n.find("alpha_force_blend") != std::string::npos) ++blend;
  }
  CHECK(ei0 == 0);
  CHECK(newton == 0);
  CHECK(abs_tol == 1);
  CHECK(blend == 0);  // the system route applies it
  fs::remove_all(dir);
}

namespace {

const char* surged_deck = R"(--------------------- MoorDyn Input File ------------------------------------
A chain from a fixed anchor to a surged coupled fairlead: node acceleration and force channels
--------------------- LINE TYPES ---------------------------------------
TypeName   Diam     Mass/m     EA          BA/-zeta   EI       Cd    Ca    CdAx  CaAx
chain      0.1      150        5e8         -0.8       0.0      1.2   1.0   0.2   0.0
--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z         Mass    Vol     CdA    Ca
1     Fixed     -250       0          -100      0       0       0      0
2     Coupled   0          0          -10       0       0       0      0
--------------------- LINES --------------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
1    chain      1        2        290       29       -
--------------------- OPTIONS ------------------------------------------
100          WtrDpth
3e6          kBot
3e5          cBot
0.05         dtM
8.0          TMax
surge 3 6 fairleadMotion
--------------------- OUTPUTS ------------------------------------------
FairTen1
L1N20ax
L1N20az
L1N20fx
L1N20fz
L1N29fx
L1N29fz
L1N29ax
--------------------- need this line ------------------------------------
)";

}  // namespace

TEST_CASE("The driver's node acceleration and force channels on a surged chain follow a march of a quarter of "
          "the step",
          "[io][system][driver]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_system_route_node_channels";
  fs::create_directories(dir);
  io::RunSettings b_set = src_settings(dir / "system");
  b_set.static_only = false;
  b_set.keep_history = true;
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  io::SystemRunner sys(io::parse_deck(surged_deck, "surged.dat", ro), b_set);
  sys.run();
  const auto A = finer_rows(surged_deck, 0.05, 4, 0.05, dir / "finer");
  const auto& B = sys.channel_rows();
  REQUIRE(A.size() == B.size());
  REQUIRE(A.size() > 100);
  const std::size_t nc = A[0].size();
  REQUIRE(nc == 8);
  for (std::size_t k = 0; k < nc; ++k) {
    const test_support::SeriesGap g = column_gap(A, B, k);
    INFO("channel " << k << ": peak " << g.peak << ", largest difference " << g.worst << ", rms " << g.rms);
    CHECK(g.peak > 0);
    // Observed (largest / rms, of the peak): FairTen and the fairlead node's force 2.3-2.9 % /
    // 0.44-0.53 %, its acceleration 2.3 % / 1.3 %; the touchdown node 20's acceleration and
    // net force, which land and lift with the bed contact, 11-30 % / 2.3-5.5 %.
    const bool touchdown = k >= 1 && k <= 4;
    CHECK(g.worst <= (touchdown ? 0.45 : 0.04) * g.peak);
    CHECK(g.rms <= (touchdown ? 0.08 : 0.02) * g.peak);
  }
  // The end node's force is the line's end load: its magnitude is FairTen.
  for (const auto& r : B) CHECK(std::hypot(r[5], r[6]) == Approx(r[0]).epsilon(1e-12));
  // .nodes.out: a column per node coordinate, named by the deck's node numbers, a row per
  // output time; the nodes' positions follow the finer march's within a few centimetres.
  auto table = [](const fs::path& p) {
    std::ifstream f(p);
    std::string line, name;
    std::getline(f, line);
    std::vector<std::string> head;
    std::istringstream h(line);
    while (h >> name) head.push_back(name);
    std::vector<std::vector<double>> rows;
    while (std::getline(f, line)) {
      std::istringstream r(line);
      std::vector<double> v;
      double x = 0;
      while (r >> x) v.push_back(x);
      if (!v.empty()) rows.push_back(v);
    }
    return std::make_pair(head, rows);
  };
  const auto [ha, ra] = table(dir / "finer.nodes.out");
  const auto [hb, rb] = table(dir / "system.nodes.out");
  REQUIRE(ha.size() == 1 + 3 * 30);
  REQUIRE(hb.size() == ha.size());
  REQUIRE(ra.size() == rb.size());
  REQUIRE(ra.size() == A.size());
  double worst = 0, moved = 0;
  for (std::size_t j = 1; j < ha.size(); ++j) {
    const auto it = std::find(hb.begin(), hb.end(), ha[j]);
    REQUIRE(it != hb.end());
    const auto jb = static_cast<std::size_t>(it - hb.begin());
    for (std::size_t r = 0; r < ra.size(); ++r) {
      REQUIRE(ra[r].size() == ha.size());
      REQUIRE(rb[r].size() == hb.size());
      worst = std::max(worst, std::fabs(ra[r][j] - rb[r][jb]));
      moved = std::max(moved, std::fabs(rb[r][jb] - rb[0][jb]));
    }
  }
  INFO(".nodes.out: the positions differ from the finer march's by " << worst << " m at most; the nodes move " << moved
                                                                       << " m");
  CHECK(moved > 2.5);  // the fairlead's 3 m surge
  CHECK(worst <= 0.02);  // observed 1.2 cm
  fs::remove_all(dir);
}

TEST_CASE("The system route's restart check repeats the rest of a run bit for bit", "[io][system][driver]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_system_route_restart";
  fs::create_directories(dir);
  io::RunSettings set = src_settings(dir / "r");
  set.static_only = false;
  set.restart_check = 3.0;
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  // The surged chain's node acceleration and force channels (computed again in the second
  // pass, not read from a cache of the first) over the 100 steps after t = 3 s.
  io::SystemRunner sys(io::parse_deck(surged_deck, "surged.dat", ro), set);
  sys.run();
  bool checked = false;
  for (const auto& n : sys.notes())
    checked = checked || n.find("restored to its state at t = 3 s repeated the 100 steps after it bit for bit") !=
                             std::string::npos;
  CHECK(checked);
  fs::remove_all(dir);
}

TEST_CASE("A depth-profile current in the driver: the lazy-wave cable's statics are the single-line statics' in "
          "the profile; a free point with drag under it is refused",
          "[io][system][driver][current]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_system_route_profile";
  fs::create_directories(dir);
  const std::string path = (fs::path(CABLEDYN_SOURCE_DIR) / "tests" / "io" / "decks" / "lazy_wave_cable.dat").string();
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  const io::Deck deck = io::read_deck(path, ro);
  REQUIRE(deck.options.current.model == io::CurrentModel::profile);
  io::SystemRunner sys(deck, src_settings(dir / "system"));
  REQUIRE(sys.simulation().system().has_current_field());
  sys.run();
  const auto& b = sys.channel_rows()[0];
  // The system statics solve the line in the deck's depth profile first (its line statics),
  // so their polish starts at the balance: FairTen1 (the first channel) is the single-line
  // statics' fairlead force in the same profile (observed 7965.91 N both).
  // (The CableDyn dialect: FairTen is the fairlead end, End A of the reference line.)
  const LineReference ref = line_reference(deck, 1);
  REQUIRE(deck.dialect == io::Dialect::cabledyn);
  REQUIRE(deck.outputs.at(0).channel.name() == "FairTen1");
  REQUIRE(deck.outputs.at(1).channel.name() == "AnchTen1");
  INFO("FairTen1 " << b[0] << " N, AnchTen1 " << b[1] << " N; single-line statics " << ref.statics.end_force[0].norm()
                   << " N, " << ref.statics.end_force[1].norm() << " N");
  CHECK(b[0] == Approx(ref.statics.end_force[0].norm()).epsilon(1e-9));
  CHECK(b[1] == Approx(ref.statics.end_force[1].norm()).epsilon(1e-9));
  // Without the current the fairlead tension differs by far more than that: the current acts.
  std::string still;
  {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    still = ss.str();
  }
  const auto at = still.find("\nprofile current");  // the option row (a comment names it too)
  REQUIRE(at != std::string::npos);
  still.replace(at, still.find('\n', at + 1) - at, "");
  io::SystemRunner calm(io::parse_deck(still, "calm.dat", ro), src_settings(dir / "calm"));
  calm.run();
  INFO("fairlead tension with the current " << b[0] << " N, without " << calm.channel_rows()[0][0] << " N");
  CHECK(std::fabs(calm.channel_rows()[0][0] - b[0]) > 0.05 * b[0]);  // observed 7351 against 7966 N
  fs::remove_all(dir);
}

TEST_CASE("The driver writes MoorDyn's per-line files: the static row the single-line statics', every row a "
          "finer march's",
          "[io][system][driver]") {
  // The surged chain with every line-file flag: <root>_Line1.out with MoorDyn's columns (nodes
  // from End A as written); its static row to the single-line statics' positions and segment
  // tensions, every row within a per cent of a march of a quarter of the step; the flag D is
  // noted as not written.
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_system_route_line_files";
  fs::create_directories(dir);
  std::string deck = surged_deck;
  const std::string row = "1    chain      1        2        290       29       -";
  REQUIRE(deck.find(row) != std::string::npos);
  deck.replace(deck.find(row), row.size(), "1    chain      1        2        290       29       pKvUVtsdbD");
  io::RunSettings b_set = src_settings(dir / "system");
  b_set.static_only = false;
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  (void)finer_rows(deck, 0.05, 4, 0.05, dir / "finer");
  b_set.restart_check = 4.0;  // the line files' rows repeat bit for bit after a restart too
  io::SystemRunner sys(io::parse_deck(deck, "surged.dat", ro), b_set);
  sys.run();
  int noted = 0, restarted = 0;
  for (const auto& n : sys.notes()) restarted += n.find("restart check") != std::string::npos;
  CHECK(restarted == 1);
  for (const auto& n : sys.notes()) noted += n.find("output flags D") != std::string::npos;
  CHECK(noted == 1);
  auto table = [](const fs::path& p) {
    std::ifstream f(p);
    std::string line, name;
    std::getline(f, line);
    std::vector<std::string> head;
    std::istringstream h(line);
    while (h >> name) head.push_back(name);
    std::vector<std::vector<double>> rows;
    while (std::getline(f, line)) {
      std::istringstream r(line);
      std::vector<double> v;
      double x = 0;
      while (r >> x) v.push_back(x);
      if (!v.empty()) rows.push_back(v);
    }
    return std::make_pair(head, rows);
  };
  REQUIRE(fs::exists(dir / "system_Line1.out"));
  const auto [ha, ra] = table(dir / "finer_Line1.out");
  const auto [hb, rb] = table(dir / "system_Line1.out");
  CHECK(hb == ha);
  REQUIRE(ha.size() == 1 + 30 * 3 * 5 + 30 + 29 * 3);  // Time; p v U V b; K; t s d
  REQUIRE(rb.size() == ra.size());
  REQUIRE(ra.size() > 100);
  // Per column, against the peak of its quantity along the line (px, vz, Te, ... over every
  // node or segment): the static rows of the two runs equal (the same statics).
  auto quantity = [](const std::string& h) { return h.substr(h.find_first_not_of("NodeSg0123456789")); };
  std::map<std::string, double> peaks;
  for (std::size_t c = 1; c < ha.size(); ++c)
    for (const auto& r : ra) peaks[quantity(ha[c])] = std::max(peaks[quantity(ha[c])], std::fabs(r[c]));
  double worst_static = 0;
  std::string at_static;
  for (std::size_t c = 1; c < ha.size(); ++c) {
    const double peak = peaks[quantity(ha[c])];
    const double ds = std::fabs(ra[0][c] - rb[0][c]) / std::max(peak, 1e-300);
    if (peak > 0 && ds > worst_static) worst_static = ds, at_static = ha[c];
    if (peak == 0)
      for (std::size_t r = 0; r < rb.size(); ++r) CHECK(rb[r][c] == 0.0);  // U, V and b off the bed
  }
  // Each quantity's largest difference from the finer march, of its peak: positions and the
  // segment tension within the scheme's error at this dt (observed px 1.9e-5, pz 1.2e-4, Te
  // 3.0e-2, vx 1.2e-2, vz 9.2e-2); the seabed force, strain and strain rate jump as nodes land
  // at different steps (reported, not bounded).
  std::map<std::string, double> wq;
  for (std::size_t c = 1; c < ha.size(); ++c) {
    const double peak = peaks[quantity(ha[c])];
    for (std::size_t r = 0; r < ra.size(); ++r)
      if (peak > 0) wq[quantity(ha[c])] = std::max(wq[quantity(ha[c])], std::fabs(ra[r][c] - rb[r][c]) / peak);
  }
  std::ostringstream seen;
  for (const auto& [k, v] : wq) seen << k << " " << v << "; ";
  INFO("static row: largest difference " << worst_static << " of the peak (" << at_static
                                         << "); all rows, per quantity: " << seen.str());
  CHECK(worst_static <= 1e-12);
  const std::map<std::string, double> bound{{"px", 1e-3}, {"pz", 1e-3}, {"Te", 0.06}, {"vx", 0.03}, {"vz", 0.15}};
  for (const auto& [k, b] : bound) {
    REQUIRE(wq.count(k) == 1);
    CHECK(wq.at(k) <= b);
  }
  // The static row against the library's single-line statics: node positions (p) and segment
  // tensions (t).
  const LineReference ref = line_reference(io::parse_deck(deck, "surged.dat", ro), 1);
  // The file counts nodes from End A as written (the anchor); the reference line runs from the
  // fairlead (its ends swapped: End A Fixed, End B Coupled).
  REQUIRE(ref.swapped);
  auto col = [&](const std::string& name) {
    const auto it = std::find(hb.begin(), hb.end(), name);
    REQUIRE(it != hb.end());
    return rb[0][static_cast<std::size_t>(it - hb.begin())];
  };
  const std::size_t nn = ref.line->n_nodes();
  REQUIRE(nn == 30);
  for (std::size_t j = 0; j < nn; ++j) {
    const Vec3<double> x = ref.line->r(ref.statics.q, nn - 1 - j);
    INFO("node " << j);
    CHECK(col("Node" + std::to_string(j) + "px") == Approx(x(0)).margin(1e-5));
    CHECK(col("Node" + std::to_string(j) + "pz") == Approx(x(2)).margin(1e-5));
  }
  // The figures: the tension history, no curvature of an EI = 0 line.
  CHECK(fs::exists(dir / "system.tension.svg"));
  CHECK_FALSE(fs::exists(dir / "system.curvature.svg"));
  // The summary's per-line statics and extremes.
  std::ifstream sf(dir / "system.summary.txt");
  const std::string summary((std::istreambuf_iterator<char>(sf)), std::istreambuf_iterator<char>());
  CHECK_THAT(summary, Catch::Contains("  static: FairTen ") && Catch::Contains("  dynamic: FairTen min "));
  fs::remove_all(dir);
}

TEST_CASE("The driver's modal analysis (nModes) writes the single-line modal analysis' frequencies", "[io][system][modal]") {
  // The surged chain's line between its anchor and its held fairlead: the system's modes are
  // the line's, as the library's single-line modal analysis about its single-line statics
  // finds them.
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_system_route_modes";
  fs::create_directories(dir);
  std::string deck = surged_deck;
  const std::string at = "0.05         dtM\n";
  REQUIRE(deck.find(at) != std::string::npos);
  deck.replace(deck.find(at), at.size(), at + "4            nModes\n");
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  io::SystemRunner sys(io::parse_deck(deck, "surged.dat", ro), src_settings(dir / "system"));
  sys.run();
  // The frequency table of a modes file: the rows after its "Mode Frequency" header.
  auto frequencies = [](const fs::path& p) {
    std::ifstream f(p);
    std::string line;
    std::vector<double> v;
    while (std::getline(f, line) && line.rfind("Mode Frequency", 0) != 0) {
    }
    while (std::getline(f, line) && line.rfind("Shape", 0) != 0) {
      std::istringstream r(line);
      int j = 0;
      double fr = 0;
      if (r >> j >> fr) v.push_back(fr);
    }
    return v;
  };
  REQUIRE(fs::exists(dir / "system.modes.out"));
  const auto fb = frequencies(dir / "system.modes.out");
  REQUIRE(fb.size() == 4);
  const LineReference ref = line_reference(io::parse_deck(deck, "surged.dat", ro), 1);
  ModalOptions mo;
  mo.n_modes = 4;
  const ModalResult<double> ma = modal_analysis<double>(*ref.line, ref.problem, ref.statics, mo);
  for (std::size_t j = 0; j < 4; ++j) {
    INFO("mode " << j + 1 << ": single-line " << ma.frequency(static_cast<int>(j)) << " Hz, system " << fb[j] << " Hz");
    CHECK(fb[j] == Approx(ma.frequency(static_cast<int>(j))).epsilon(1e-6));
  }
  // More modes than the system's free DOFs: refused by name before anything is solved.
  std::string many = deck;
  many.replace(many.find("4            nModes"), 19, "500          nModes");
  try {
    io::SystemRunner bad(io::parse_deck(many, "surged.dat", ro), src_settings(dir / "bad"));
    FAIL("500 modes of an 84-DOF system were accepted");
  } catch (const InputError& e) {
    CHECK_THAT(e.what(), Catch::Contains("nModes") && Catch::Contains("500") && Catch::Contains("free DOFs"));
  }
  CHECK_FALSE(fs::exists(dir / "bad.static.out"));
  fs::remove_all(dir);
}

TEST_CASE("Free points, bodies and rods under a depth-profile current: the statics take the field at their positions",
          "[io][system][current]") {
  // A buoy with a drag area on a drag-free tether in a sheared current u(z) = 0.5 + 0.002 z:
  // at the equilibrium its drag is the field's at its own position, and it balances the
  // tether's pull with its net buoyancy; a constant field gives the uniform current's
  // equilibrium; a body's drag area, lumps and a rod's drag stations and ends take the field
  // too.
  Environment env;
  env.depth = 100;
  auto make = [&](bool body) {
    MooringSystem<double> sys(env, "profile");
    PointModel<double> a, f;
    a.kind = PointKind::fixed;
    a.r = Vec3<double>(0, 0, -100);
    int pf = -1;
    if (!body) {
      f.kind = PointKind::free;
      f.r = Vec3<double>(0, 0, -50);
      f.volume = 2;
      f.CdA = 1.5;
      f.name = "buoy";
      pf = sys.add_point(f);
    } else {
      BodyModel<double> b;
      b.name = "can";
      b.kind = BodyKind::free;
      b.r = Vec3<double>(0, 0, -50);
      b.mass = 500;
      b.inertia = Vec3<double>(400, 400, 300);
      b.volume = 2;
      b.CdA << 1.5, 1.5, 1.0, 0, 0, 0;
      BodyModel<double>::Lump k;
      k.p = Vec3<double>(0, 0, 1.0);
      k.volume = 0.2;
      k.CdA = 0.5;
      b.lumps.push_back(k);
      const int bi = sys.add_body(b);
      f.kind = PointKind::body;
      f.body = bi;
      f.r = Vec3<double>(0, 0, -1);  // the tether's hang-off, in the body's axes
      pf = sys.add_point(f);
    }
    const int pa = sys.add_point(a);
    SectionModel<double> sec;
    sec.length = 50;
    sec.segments = 5;
    sec.EA = 1e8;
    sec.rho_A = 5;
    sec.d = 0.05;
    sys.add_line(LineModel<double>("tether", {sec}, env, SeabedModel{}), pa, pf);
    sys.renumber();
    return sys;
  };
  auto shear = [](const Vec3<double>& x) { return Vec3<double>(0.5 + 0.002 * x(2), 0, 0); };
  {
    auto sys = make(false);
    sys.set_current_field(shear);
    CHECK_THROWS_AS(sys.set_current(Vec3<double>(0.1, 0, 0)), InputError);
    auto s = sys.initial_state();
    const auto res = solve_statics(sys, s);
    const Vec3<double> xp = sys.point_position(s, 0);
    const Vec3<double> U = shear(xp);
    const Vec3<double> drag = 0.5 * env.rho_w * 1.5 * U.norm() * U;
    const Vec3<double> f = sys.point_static_load(0) + drag + sys.line_end_force(s, 0, 1);
    INFO("buoy at " << xp.transpose() << ", drag " << drag.transpose() << " N, imbalance " << f.norm() << " N");
    CHECK(f.norm() <= 1e-6 * res.scale);
    CHECK(xp(0) > 0.1);  // carried downstream (observed 0.32 m)
    // A constant field and the uniform current: the same equilibrium.
    auto sa = make(false);
    sa.set_current_field([](const Vec3<double>&) { return Vec3<double>(0.4, 0.1, 0); });
    auto s1 = sa.initial_state();
    solve_statics(sa, s1);
    auto sb = make(false);
    sb.set_current(Vec3<double>(0.4, 0.1, 0));
    auto s2 = sb.initial_state();
    solve_statics(sb, s2);
    CHECK((sa.point_position(s1, 0) - sb.point_position(s2, 0)).norm() <= 1e-8);
  }
  {
    auto sa = make(true);
    sa.set_current_field([](const Vec3<double>&) { return Vec3<double>(0.4, 0.1, 0); });
    auto s1 = sa.initial_state();
    solve_statics(sa, s1);
    auto sb = make(true);
    sb.set_current(Vec3<double>(0.4, 0.1, 0));
    auto s2 = sb.initial_state();
    solve_statics(sb, s2);
    Vec3<double> r1, r2;
    Mat3<double> R1, R2;
    sa.body_pose(s1, 0, r1, R1);
    sb.body_pose(s2, 0, r2, R2);
    INFO("body at " << r1.transpose() << " (field), " << r2.transpose() << " (uniform)");
    CHECK(r1(0) > 0.2);  // observed 0.52 m
    CHECK((r1 - r2).norm() <= 1e-7);
    CHECK((R1 - R2).cwiseAbs().maxCoeff() <= 1e-7);
    // In the shear (0.40 m/s at the body's depth, 0.3 at the anchor) the body is carried
    // downstream less far than under the constant 0.4 m/s plus the 0.1 m/s cross-flow, and
    // straight downstream.
    auto sc = make(true);
    sc.set_current_field(shear);
    auto s3 = sc.initial_state();
    solve_statics(sc, s3);
    Vec3<double> r3;
    Mat3<double> R3;
    sc.body_pose(s3, 0, r3, R3);
    INFO("body in the shear at " << r3.transpose());
    CHECK(r3(0) > 0.2);
    CHECK(r3(0) < r1(0));
    CHECK(std::fabs(r3(1)) <= 1e-9);
    // A rod with drag on the body: its stations and ends take the field at their positions;
    // a constant field gives the uniform current's equilibrium, and the shear carries the
    // body further than without the rod's drag.
    auto with_rod = [&] {
      auto sr = make(true);
      RodPart<double> rod;
      rod.name = "spar";
      rod.a = Vec3<double>(0, 0, 0);
      rod.b = Vec3<double>(0, 0, 2);
      rod.d = 0.5;
      rod.rho_A = 10;
      rod.Cd = 1.0;
      rod.CdEnd = 0.8;
      rod.segments = 4;
      sr.body(0).rods.push_back(rod);
      sr.renumber();
      return sr;
    };
    auto fa = with_rod(), ua = with_rod(), fs = with_rod();
    fa.set_current_field([](const Vec3<double>&) { return Vec3<double>(0.4, 0.1, 0.05); });
    ua.set_current(Vec3<double>(0.4, 0.1, 0.05));
    fs.set_current_field(shear);
    auto s4 = fa.initial_state(), s5 = ua.initial_state(), s6 = fs.initial_state();
    solve_statics(fa, s4);
    solve_statics(ua, s5);
    solve_statics(fs, s6);
    Vec3<double> r4, r5, r6;
    Mat3<double> R4, R5, R6;
    fa.body_pose(s4, 0, r4, R4);
    ua.body_pose(s5, 0, r5, R5);
    fs.body_pose(s6, 0, r6, R6);
    INFO("body with its rod at " << r4.transpose() << " (constant field), " << r5.transpose() << " (uniform), "
                                 << r6.transpose() << " (shear; without the rod " << r3.transpose() << ")");
    CHECK((r4 - r5).norm() <= 1e-7);
    CHECK((R4 - R5).cwiseAbs().maxCoeff() <= 1e-7);
    CHECK(r6(0) > r3(0) + 1e-3);
  }
}

namespace {

/// A chain from a Fixed anchor to a vessel's Coupled fairlead; `options` completes OPTIONS.
std::string vessel_chain(const std::string& options) {
  return std::string(R"(--------------------- MoorDyn Input File ------------------------------------
A chain from a fixed anchor to the fairlead of a prescribed vessel (vesselRef)
--------------------- LINE TYPES ---------------------------------------
TypeName   Diam     Mass/m     EA          BA/-zeta   EI       Cd    Ca    CdAx  CaAx
chain      0.1      150        5e8         -0.8       0.0      1.2   1.0   0.2   0.0
--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z         Mass    Vol     CdA    Ca
1     Fixed     -250       0          -100      0       0       0      0
2     Coupled   0          0          -10       0       0       0      0
--------------------- LINES --------------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
1    chain      1        2        290       29       -
--------------------- OPTIONS ------------------------------------------
100          WtrDpth
3e6          kBot
3e5          cBot
)") + options + R"(--------------------- OUTPUTS ------------------------------------------
FairTen1
Point2px
Point2py
Point2pz
--------------------- need this line ------------------------------------
)";
}

}  // namespace

TEST_CASE("A prescribed vessel: yawed about the anchor it turns the catenary rigidly; pitching, it heaves the "
          "fairlead as the OrcaFlex convention says, the march following a finer one",
          "[io][system][driver][vessel]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_system_route_vessel";
  fs::create_directories(dir);
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  // The vessel's reference point above the anchor, its motionFile holding it yawed 30 degrees:
  // the statics are the unyawed catenary turned 30 degrees about the anchor's vertical.
  const double yaw = 30 * kPi / 180;
  {
    std::ofstream m(dir / "yawed.dat");
    m << "t x y z roll pitch yaw\n0 -250 0 -10 0 0 " << std::setprecision(17) << yaw << "\n1 -250 0 -10 0 0 " << yaw << "\n";
  }
  io::RunSettings plain_set = src_settings(dir / "plain");
  io::SystemRunner plain(io::parse_deck(vessel_chain("0.1 dtM\n1.0 TMax\n"), "plain.dat", ro), plain_set);
  plain.run();
  const double T0 = plain.channel_rows()[0][0];
  const std::string yawed_deck = vessel_chain("0.1 dtM\n1.0 TMax\n-250 vesselRef 0 -10\n" + (dir / "yawed.dat").string() + " motionFile\n");
  {
    io::RunSettings s = src_settings(dir / "yawed");
    s.static_only = false;
    io::SystemRunner r(io::parse_deck(yawed_deck, "yawed.dat", ro), s);
    r.run();
    const auto& rows = r.channel_rows();
    REQUIRE(rows.size() == 11);
    CHECK(rows[0][1] == Approx(-250 + 250 * std::cos(yaw)).epsilon(1e-14));
    CHECK(rows[0][2] == Approx(250 * std::sin(yaw)).epsilon(1e-14));
    CHECK(rows[0][3] == Approx(-10).epsilon(1e-14));
    CHECK(rows[0][0] == Approx(T0).epsilon(1e-7));         // statics invariant under the turn
    CHECK(rows.back()[0] == Approx(T0).epsilon(1e-5));     // and at rest through the march
  }
  // Pitching 5 degrees about a reference point 20 m behind the fairlead (period 10 s): the
  // fairlead heaves by -20 sin(pitch) (the OrcaFlex convention: positive pitch puts the bow
  // down), and the fairlead tension follows a march of a quarter of the step.
  const std::string pitch_deck = vessel_chain("0.05 dtM\n16.0 TMax\n-20 vesselRef 0 -10\npitch 5 10 fairleadMotion\n");
  io::RunSettings b_set = src_settings(dir / "pitch_system");
  b_set.static_only = false;
  io::SystemRunner sys(io::parse_deck(pitch_deck, "pitch.dat", ro), b_set);
  sys.run();
  const auto A = finer_rows(pitch_deck, 0.05, 4, 0.05, dir / "pitch_finer");
  const auto& B = sys.channel_rows();
  REQUIRE(A.size() == B.size());
  REQUIRE(A.size() == 321);
  const test_support::SeriesGap g = column_gap(A, B, 0);
  const double peak = g.peak, lo = g.lo, worst = g.worst;
  double heave = 0;
  for (std::size_t r = 0; r < A.size(); ++r) {
    const double t = 0.05 * static_cast<double>(r);
    heave = std::max(heave, std::fabs(A[r][3] + 10));
    if (t >= 10) {  // after the ramp (one period)
      const double th = 5 * kPi / 180 * std::sin(2 * kPi * t / 10);
      for (const auto* row : {&A[r], &B[r]}) {
        CHECK((*row)[1] == Approx(-20 + 20 * std::cos(th)).margin(1e-9));
        CHECK((*row)[2] == Approx(0).margin(1e-12));
        CHECK((*row)[3] == Approx(-10 - 20 * std::sin(th)).margin(1e-9));
      }
    }
  }
  INFO("FairTen " << lo << " .. " << peak << " N; the finer march's differs by " << worst << " N at most");
  CHECK(heave == Approx(20 * std::sin(5 * kPi / 180)).epsilon(0.02));
  CHECK(peak - lo > 0.05 * peak);    // the pitch loads the line
  CHECK(worst <= 0.2 * (peak - lo));  // observed 0.14 of the range (4.4 kN, 1.8 % of the peak)
  fs::remove_all(dir);
}

TEST_CASE("Touchdown nodes landing within a step: the march converges without cycling across the seabed blend",
          "[io][system][driver][seabed]") {
  // The OC4 chain of the speed issue at 40 elements (kBot 3e6 Pa/m, cBot 3e5 Pa s/m) under a
  // 5 m, 10 s fairlead surge for 30 s at dtM 0.1: its touchdown nodes land and lift every
  // period. A Newton update from outside the floor does not see the contact, and the damper
  // turns on across the 1e-6 m blend: without the update limit (contact_entry_fraction, the
  // limited update taken whole) the iterations cycled across it (measured: 9544 Newton
  // iterations with 217 subdivided steps; with it 2488 / 13; with the Newton test's round-off
  // floor measured at each tangent 1964 / 0; the single-line march, before it was retired,
  // 4162 / 46 and 1920 / 0).
  const char* deck = R"(--------------------- MoorDyn Input File ------------------------------------
OC4-DeepCwind line 2 at 40 elements, fairlead surge
--------------------- LINE TYPES ---------------------------------------
TypeName   Diam     Mass/m     EA          BA/-zeta   EI       Cd    Ca    CdAx  CaAx
chain      0.0766   113.35     7.536e8     -1.0       0.0      2.0   0.8   0.4   0.25
--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z         Mass    Vol     CdA    Ca
1     Fixed     -837.6     0          -200      0       0       0      0
2     Coupled   -40.868    0          -14       0       0       0      0
--------------------- LINES --------------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
1    chain      1        2        835.35    40       -
--------------------- OPTIONS ------------------------------------------
200          WtrDpth
1025         rhoW
9.80665      g
3e6          kBot
3e5          cBot
0.1          dtM
30           TMax
surge 5 10 fairleadMotion
--------------------- OUTPUTS ------------------------------------------
FairTen1
--------------------- need this line ------------------------------------
)";
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_touchdown_landing";
  fs::create_directories(dir);
  io::RunSettings b_set = src_settings(dir / "system");
  b_set.static_only = false;
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  io::SystemRunner sys(io::parse_deck(deck, "oc4.dat", ro), b_set);
  sys.run();
  const auto& ss = sys.simulation().stepper_statistics();
  INFO("system: " << ss.newton_iterations << " Newton iterations, " << ss.subdivisions << " subdivided");
  CHECK(ss.newton_iterations <= 2300);
  CHECK(ss.subdivisions <= 3);
  // The tension follows a march of a quarter of the step (observed: rms 0.51 % of the peak).
  const auto A = finer_rows(deck, 0.1, 4, 0.1, dir / "finer");
  const auto& B = sys.channel_rows();
  REQUIRE(A.size() == B.size());
  const test_support::SeriesGap g = column_gap(A, B, 0);
  INFO("FairTen1 peak " << g.peak << " N; from the finer march: rms " << g.rms << " N, largest " << g.worst << " N");
  CHECK(g.rms <= 0.01 * g.peak);
  fs::remove_all(dir);
}

TEST_CASE("A polyester line snapping at 1880 m depth: the system march converges where a node enters the seabed "
          "blend", "[io][system][driver][seabed]") {
  // Campaign case 322 (tests/io/decks/campaign): a slack polyester line heaved 9 m at 5.2 s
  // from a vessel at 1880 m depth, its tension from 0.4 kN to 700 kN at the snaps. A node
  // that lands within a step ends in the seabed's 1e-6 m contact blend, where the damper's
  // force turns with z: the residual's stiffness there is ~5e10 N/m, so one ulp of z at 1880 m
  // (2.3e-13 m) moves it by ~1e-2 N. The round-off floor of the Newton test was measured at
  // the predictor only (no contact blend there), 1e-3 N: the iterates stalled at 5e-3 N and
  // the march stopped at t = 11.65 s after 6 halvings. With the floor measured at each
  // tangent it runs (measured: 1501 Newton iterations, no subdivided step).
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "cabledyn_snap_on_blend";
  fs::create_directories(dir);
  const std::string path = (fs::path(CABLEDYN_SOURCE_DIR) / "tests" / "io" / "decks" / "campaign" / "case_0322.dat").string();
  io::RunSettings b_set = src_settings(dir / "system");
  b_set.static_only = false;
  io::ReadOptions ro;
  ro.accept_unsupported = true;
  io::SystemRunner sys(io::read_deck(path, ro), b_set);
  REQUIRE_NOTHROW(sys.run());
  const auto& ss = sys.simulation().stepper_statistics();
  INFO("system: " << ss.newton_iterations << " Newton iterations, " << ss.subdivisions << " subdivided");
  CHECK(ss.newton_iterations <= 2000);
  CHECK(ss.subdivisions <= 2);
  // The first snap (t = 7.27 s, before the chaotic slack-taut cycles) peaks at a march of a
  // quarter of the step's FairTen within 2 % (measured 1.3 %; the single-line
  // march, before it was retired, within 0.06 %).
  std::string text;
  {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    text = ss.str();
  }
  const double dtm = *sys.deck().options.dtM;
  const auto A = finer_rows(text, dtm, 4, dtm, dir / "finer");
  const auto& B = sys.channel_rows();
  REQUIRE(A.size() == B.size());
  double pa = 0, pb = 0;
  REQUIRE(sys.times().size() == B.size());
  for (std::size_t r = 0; r < A.size() && sys.times()[r] < 8.0; ++r) {
    pa = std::max(pa, A[r][0]);
    pb = std::max(pb, B[r][0]);
  }
  CHECK(pa > 5e5);
  INFO("first snap: " << pb << " N, finer march " << pa << " N");
  CHECK(std::fabs(pb - pa) <= 0.02 * pa);
  fs::remove_all(dir);
}
