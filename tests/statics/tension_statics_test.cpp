// Static equilibrium of EI = 0 lines: convergence to the analytic catenary under mesh
// refinement (grounded and suspended), a slack line, a hairpin fold, the buoyancy recovery
// above the surface, named failures.
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/statics.hpp"

using namespace cabledyn;

namespace {

// OC3-Hywind line (Jonkman 2010): 902.2 m, depth 320 m, anchor radius 853.87 m, fairlead
// radius 5.2 m at 70 m depth.
LineType oc3() {
  LineType t;
  t.name = "OC3 chain";
  t.d = 0.09;
  t.rho_A = 77.7066;
  t.EA = 384.243e6;
  t.Cdn = 1.6;
  t.Cdt = 0.1;
  t.Can = 1.0;
  return t;
}

LineEnd end_at(double x, double y, double z) {
  LineEnd e;
  e.position = Vec3<double>(x, y, z);
  return e;
}

struct Errors {
  double position, tension;
};

// Solve the OC3 line on N elements (End A the fairlead) and compare with the catenary.
Errors oc3_errors(int N, StaticResult* out = nullptr) {
  Environment env;
  env.depth = 320.0;
  const Line line("OC3 line", {{oc3(), 902.2, N}}, end_at(5.2, 0, -70), end_at(853.87, 0, -320), env);
  StaticProblem prob;
  prob.seabed_z = -320.0;
  prob.seabed.kBot = 1e8;  // penetration w / (kBot d) = 8e-5 m: a stiff bed
  TensionStatics solver(line, prob);
  const auto res = solver.solve();
  if (out) *out = res;
  const double w = oc3().submerged_weight(env);
  const CatenaryLine<long double> cat({{902.2, w, 384.243e6}}, Vec3<long double>(853.87L, 0, -320),
                                      Vec3<long double>(5.2L, 0, -70), -320.0);
  double ep = 0;
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    const Vec3<double> x = cat.position(902.2L - line.s_node(i)).cast<double>();
    ep = std::max(ep, (line.r(res.q, i) - x).norm());
  }
  const double Tf = static_cast<double>(cat.solution().fairlead_tension());
  return {ep, std::fabs(res.end_force[0].norm() - Tf) / Tf};
}

}  // namespace

TEST_CASE("EI = 0 statics converge to the analytic catenary (grounded OC3 line)", "[statics][tension]") {
  // Observed: node positions and fairlead tension converge at second order in the element
  // length (ratios about 4 per halving).
  std::vector<Errors> e;
  StaticResult r80;
  for (int N : {10, 20, 40, 80}) e.push_back(oc3_errors(N, N == 80 ? &r80 : nullptr));
  for (std::size_t k = 0; k + 1 < e.size(); ++k) {
    const double op = std::log2(e[k].position / e[k + 1].position);
    const double ot = std::log2(e[k].tension / e[k + 1].tension);
    INFO("refinement " << k << ": position error " << e[k + 1].position << " m (order " << op
                       << "), fairlead tension error " << e[k + 1].tension << " (order " << ot << ")");
    CHECK(op > 1.3);
    CHECK(ot > 1.3);
    if (k + 2 == e.size()) {  // the finest pair: second order
      CHECK(op > 1.8);
      CHECK(ot > 1.8);
    }
  }
  CHECK(e.back().position < 0.05);
  CHECK(e.back().tension < 1e-4);
  CHECK(r80.residual <= std::max(1e-8 * r80.scale, r80.floor));
  // The fairlead force points down and toward the anchor.
  CHECK(r80.end_force[0](0) > 0);
  CHECK(r80.end_force[0](2) < 0);
}

TEST_CASE("EI = 0 statics: a suspended line matches the suspended catenary", "[statics][tension]") {
  // No seabed: both ends in mid-water, a sagging span.
  const Line line("span", {{oc3(), 420.0, 40}}, end_at(0, 0, -50), end_at(380, 30, -120));
  TensionStatics solver(line);
  const auto res = solver.solve();
  const double w = oc3().submerged_weight(line.environment());
  const CatenaryLine<double> cat({{420.0, w, 384.243e6}}, Vec3<double>(380, 30, -120), Vec3<double>(0, 0, -50));
  double ep = 0;
  for (std::size_t i = 0; i < line.n_nodes(); ++i)
    ep = std::max(ep, (line.r(res.q, i) - cat.position(420.0 - line.s_node(i))).norm());
  CHECK(ep < 0.05);
  // 40 elements of 10.5 m: the end forces within 5e-4 (second order in the element length,
  // measured on the grounded OC3 line above).
  CHECK(res.end_force[0].norm() == Approx(cat.fairlead_force().norm()).epsilon(5e-4));
  CHECK(res.end_force[1].norm() == Approx(cat.anchor_force().norm()).epsilon(5e-4));
}

TEST_CASE("EI = 0 statics: a slack line longer than span plus rise", "[statics][tension]") {
  // 300 m of chain from an anchor on a 100 m seabed to a fairlead 60 m above it, 150 m away:
  // longer than span + rise (210 m). The excess lies slack on the bed; the fairlead holds the
  // hanging leg: tension ~ w times its length.
  Environment env;
  env.depth = 100.0;
  const Line line("slack", {{oc3(), 300.0, 60}}, end_at(150, 0, -40), end_at(0, 0, -100), env);
  StaticProblem prob;
  prob.seabed_z = -100.0;
  prob.seabed.kBot = 1e8;
  TensionStatics solver(line, prob);
  const auto res = solver.solve();
  const double w = oc3().submerged_weight(env);
  // The hanging leg is vertical and 60 m long to within one element (5 m): the fairlead
  // carries its weight.
  CHECK(-res.end_force[0](2) >= w * (60.0 - 5.0));
  CHECK(-res.end_force[0](2) <= w * (60.0 + 2.5));
  CHECK(std::hypot(res.end_force[0](0), res.end_force[0](1)) < 0.02 * w * 60.0);
  bool slack_note = false;
  for (const auto& n : res.notes) slack_note = slack_note || n.find("slack") != std::string::npos;
  CHECK(slack_note);
}

TEST_CASE("EI = 0 statics: a current toward the anchor folds the grounded run (hairpin)", "[statics][tension]") {
  Environment env;
  env.depth = 100.0;
  // 320 m from an anchor on a 100 m bed to a fairlead 70 m above it and 265 m away (a little
  // longer than span + rise): a 3 m/s current toward the anchor drives the frictionless
  // grounded run past the anchor, where it folds back with zero tension at the fold.
  const Line line("hairpin", {{oc3(), 320.0, 64}}, end_at(265, 0, -30), end_at(0, 0, -100), env);
  StaticProblem prob;
  prob.seabed_z = -100.0;
  prob.seabed.kBot = 1e7;
  prob.current = SteadyCurrent::uniform(Vec3<double>(-3.0, 0.0, 0.0));
  TensionStatics solver(line, prob);
  const auto res = solver.solve();
  CHECK(res.residual <= std::max(1e-8 * res.scale, res.floor));
  bool fold = false;
  for (const auto& n : res.notes) fold = fold || n.find("hairpin") != std::string::npos;
  INFO("route " << res.route);
  CHECK(fold);
  // Grounded nodes lie beyond the anchor (x < 0).
  double xmin = 0;
  for (std::size_t i = 0; i < line.n_nodes(); ++i) xmin = std::min(xmin, line.r(res.q, i)(0));
  CHECK(xmin < -5.0);
  // The fold carries no tension: the element at the fold is slack.
  bool slack = false;
  for (const auto& n : res.notes) slack = slack || n.find("slack") != std::string::npos;
  CHECK(slack);
}

TEST_CASE("EI = 0 statics: buoyancy lost above the surface by fixed point", "[statics][tension]") {
  // A chain hung from 5 m above the surface: its dry part weighs its dry weight.
  const Line line("hang", {{oc3(), 120.0, 60}}, end_at(0, 0, 5), end_at(60, 0, -90));
  TensionStatics solver(line);
  const auto res = solver.solve();
  // Vertical balance: the end forces carry the dry weight above the surface and the
  // submerged weight below.
  const auto& env = line.environment();
  double dry = 0;
  for (std::size_t e = 0; e < line.n_elements(); ++e) {
    const double za = line.r(res.q, e)(2), zb = line.r(res.q, e + 1)(2);
    const double f = za <= 0 && zb <= 0 ? 1.0 : (za >= 0 && zb >= 0 ? 0.0 : std::max(-za, -zb) / std::fabs(za - zb));
    dry += (1 - f) * line.L0(e);
  }
  const double wsub = oc3().submerged_weight(env), wdry = oc3().rho_A * env.g;
  const double total = wsub * (120.0 - dry) + wdry * dry;
  CHECK(-(res.end_force[0](2) + res.end_force[1](2)) == Approx(total).epsilon(1e-6));
  CHECK(dry > 3.0);
}

TEST_CASE("EI = 0 statics: named errors", "[statics][tension][errors]") {
  Environment env;
  env.depth = 100.0;
  const Line deep("deep", {{oc3(), 300.0, 30}}, end_at(100, 0, -150), end_at(0, 0, -150), env);
  StaticProblem prob;
  prob.seabed_z = -100.0;
  CHECK_THROWS_AS(TensionStatics(deep, prob), InputError);
  LineType h = oc3();
  h.EI = 1e4;
  const Line cable("cable", {{h, 300.0, 30}}, end_at(100, 0, -50), end_at(0, 0, -100), env);
  CHECK_THROWS_WITH(TensionStatics(cable, prob), Catch::Contains("cable: element kind = Hermite"));
  // A line that cannot reach: the chord beyond what EA allows.
  const Line shortl("short", {{oc3(), 100.0, 10}}, end_at(0, 0, -10), end_at(5000, 0, -10));
  CHECK_THROWS_WITH(TensionStatics(shortl), Catch::Contains("short: chord between the ends = 5000"));
}
