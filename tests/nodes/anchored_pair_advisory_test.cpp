// The compile-time advisory (spec spring-damper-node.md, "The compile-time warning",
// MADD-ANO-098): compile() warns about two spring-damper nodes anchored on each other in a
// coupling group whose converged step grows, and stays quiet on every excluded case. Each
// excluded case is built from the same warning graph by one change, and the unchanged graph
// is shown to warn, so that a quiet result is the exclusion's doing.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cabledyn/nodes/graph.hpp"
#include "cabledyn/nodes/spring_damper.hpp"
#include "cabledyn/nodes/stability.hpp"

using namespace cabledyn;

namespace {

// A subclass: the advisory does not judge it (it could override the step).
template <class T>
struct DerivedNode : SpringDamperNode<T> {
  using SpringDamperNode<T>::SpringDamperNode;
};

enum class Change {
  none,
  no_group,
  one_iteration,
  one_way,
  transform,
  identity_transform,  // the built-in identity still counts as no transform: warns
  additive,
  second_writer,
  different_timesteps,
  k_dt2_ge_m,
  subclass,
  stable_damping,
  boundary_damping,  // c = k dt exactly: factor 1, not a growth
  live_destabilised,  // stable constants (c = 15), live values c = 2: warns
  live_stabilised,    // unstable constants (c = 2), live values c = 15: quiet
  jacobi,            // Jacobi passes reach the same fixed point: warns
};

template <class T>
struct Built {
  Graph<T> graph{0.01};
  std::vector<Advisory> sunk;
  CompileReport report;
};

// The spec's example: k = 1000, c = 2, m = 0.5, dt = 0.01 (g = 1.2), unless changed.
template <class T>
void build(Built<T>& out, Change change) {
  auto& g = out.graph;
  SpringDamperParams p{1000, 2, 0.5, 1.0, 0.3, 0.2};
  if (change == Change::k_dt2_ge_m) p = SpringDamperParams{6000, 2, 0.5, 1.0, 0.3, 0.2};
  if (change == Change::stable_damping) p.damping = 15;
  if (change == Change::boundary_damping) p.damping = 10;  // k dt = 10
  if (change == Change::live_destabilised) p.damping = 15;
  SpringDamperParams q = p;
  q.rest_length = -1.0;
  q.initial_position = -0.4;
  NodeId a, b;
  if (change == Change::subclass) {
    a = g.add_node("left", DerivedNode<T>(p, "left"));
  } else {
    a = g.add_node("left", SpringDamperNode<T>(p, "left"));
  }
  b = g.add_node("right", SpringDamperNode<T>(q, "right"),
                 change == Change::different_timesteps ? std::optional<double>(0.02) : std::nullopt);
  EdgeOptions<T> ab;
  if (change == Change::transform) ab.transform = EdgeTransform<T>::custom("id", [](const T& x) { return x; });
  if (change == Change::identity_transform) ab.transform = EdgeTransform<T>::identity();
  if (change == Change::additive) ab.additive = true;
  g.connect(a, "position", b, "anchor_position", ab);
  if (change != Change::one_way) g.connect(b, "position", a, "anchor_position");
  if (change == Change::second_writer) {
    const auto c = g.add_node("third", SpringDamperNode<T>());
    g.connect(c, "position", a, "anchor_position", {std::nullopt, true});
  }
  if (change != Change::no_group) {
    CouplingOptions o;
    o.name = "pair group";
    o.max_iterations = change == Change::one_iteration ? 1 : 30;
    if (change == Change::jacobi) o.scheme = CouplingScheme::jacobi;
    g.add_coupling_group({a, b}, o);
  }
  if (change == Change::live_destabilised) {
    g.template params<SpringDamperNode<T>>(a).damping = 2.0;
    g.template params<SpringDamperNode<T>>(b).damping = 2.0;
  }
  if (change == Change::live_stabilised) {
    g.template params<SpringDamperNode<T>>(a).damping = 15.0;
    g.template params<SpringDamperNode<T>>(b).damping = 15.0;
  }
  out.report = g.compile(collect_into(out.sunk));
}

template <class T>
std::size_t count(Change change) {
  Built<T> b;
  build(b, change);
  REQUIRE(b.sunk.size() == b.report.advisories.size());
  return b.report.advisories.size();
}

}  // namespace

TEMPLATE_TEST_CASE("compile() warns about an anchored pair whose converged step grows",
                   "[nodes][advisory]", double, long double) {
  using T = TestType;
  Built<T> b;
  build(b, Change::none);
  REQUIRE(b.report.advisories.size() == 1);
  REQUIRE(b.sunk.size() == 1);
  REQUIRE(b.graph.advisories().size() == 1);
  const Advisory& a = b.sunk[0];
  CHECK(a.code == kAnchoredPairAdvisory);
  CHECK(a.nodes == std::vector<std::string>{"left", "right"});
  CHECK(a.group == "pair group");
  CHECK(a.growth_factor == Approx(1.2).epsilon(1e-12));
  CHECK(a.spectral_radius == Approx(1.2).epsilon(1e-12));
  // The message names both nodes, their constants, the factor and the admissible range.
  for (const char* s : {"'left'", "'right'", "k = 1000 N/m", "c = 2 N s/m", "m = 0.5 kg",
                        "g = (m - c dt)/(m - k dt^2) = 1.2", "k dt <= c <= (2m - k dt^2)/dt",
                        "10 <= c <= 90 N s/m", "0.14 < 4m = 2", "MADD-ANO-098", "dt = 0.01 s"}) {
    INFO(a.message);
    CHECK(a.message.find(s) != std::string::npos);
  }
  // A warning, never a refusal: the graph runs, and grows by 1.2 per step as announced.
  const auto l = NodeId{0}, r = NodeId{1};
  const T S0 = b.graph.value(l, "velocity") + b.graph.value(r, "velocity");
  b.graph.step();
  const T S1 = b.graph.value(l, "velocity") + b.graph.value(r, "velocity");
  CHECK(S1 / S0 == Approx(1.2).epsilon(1e-9));
  // The built-in identity transform and Jacobi passes still match the pattern.
  CHECK(count<T>(Change::identity_transform) == 1);
  CHECK(count<T>(Change::jacobi) == 1);
}

TEMPLATE_TEST_CASE("the advisory on the past-the-upper-limit side: g = -1.25, and unequal pairs",
                   "[nodes][advisory]", double, long double) {
  using T = TestType;
  {
    Graph<T> g(0.01);
    const SpringDamperParams p{6000, 150, 1, 0.5, 0.1, 0.3};
    SpringDamperParams q = p;
    q.rest_length = -0.5;
    const auto a = g.add_node("a", SpringDamperNode<T>(p));
    const auto b = g.add_node("b", SpringDamperNode<T>(q));
    g.connect(a, "position", b, "anchor_position");
    g.connect(b, "position", a, "anchor_position");
    g.add_coupling_group({a, b}, {});
    const auto rep = g.compile(WarningSink{});
    REQUIRE(rep.advisories.size() == 1);
    CHECK(rep.advisories[0].growth_factor == Approx(-1.25).epsilon(1e-12));
    CHECK(rep.advisories[0].spectral_radius == Approx(1.25).epsilon(1e-12));
    CHECK(rep.advisories[0].message.find("3.6 < 4m = 4") != std::string::npos);
  }
  {
    Graph<T> g(0.01);
    const SpringDamperParams p{1500, 1, 0.5, 0.8, 0.3, 0.9}, q{900, 2, 0.8, -0.8, -0.7, 0.4};
    const auto a = g.add_node("a", SpringDamperNode<T>(p));
    const auto b = g.add_node("b", SpringDamperNode<T>(q));
    g.connect(b, "position", a, "anchor_position");
    g.connect(a, "position", b, "anchor_position");
    g.add_coupling_group({b, a}, {});
    const auto rep = g.compile(WarningSink{});
    REQUIRE(rep.advisories.size() == 1);
    const auto rho = anchored_pair_spectral_radius(constants_of<double>(p), constants_of<double>(q), 0.01);
    REQUIRE(rho.has_value());
    CHECK(rep.advisories[0].spectral_radius == Approx(*rho).epsilon(1e-14));
    CHECK(rep.advisories[0].growth_factor == rep.advisories[0].spectral_radius);
    CHECK(rep.advisories[0].nodes == std::vector<std::string>{"a", "b"});
    CHECK(rep.advisories[0].message.find("with 'a''s k and m") != std::string::npos);
  }
}

TEMPLATE_TEST_CASE("the advisory stays quiet on every excluded case", "[nodes][advisory]", double,
                   long double) {
  using T = TestType;
  REQUIRE(count<T>(Change::none) == 1);
  struct Excluded {
    Change change;
    const char* what;
  };
  for (const auto& [change, what] :
       {Excluded{Change::no_group, "no coupling group"},
        Excluded{Change::one_iteration, "max_iterations 1"},
        Excluded{Change::one_way, "one-way anchor"},
        Excluded{Change::transform, "a (user) transform"},
        Excluded{Change::additive, "an additive edge"},
        Excluded{Change::second_writer, "a second writer of the anchor"},
        Excluded{Change::different_timesteps, "different timesteps"},
        Excluded{Change::k_dt2_ge_m, "k dt^2 >= m (the iteration diverges)"},
        Excluded{Change::subclass, "a subclass of the node"},
        Excluded{Change::stable_damping, "c inside [k dt, (2m - k dt^2)/dt]"},
        Excluded{Change::boundary_damping, "c = k dt exactly (factor 1)"},
        Excluded{Change::live_stabilised, "live parameters that stabilise"}}) {
    INFO(what);
    CHECK(count<T>(change) == 0);
  }
  // The k dt^2 >= m case has a converged step that grows (g = 0.48 / -0.1 = -4.8): its quiet
  // is the exclusion's doing, not the radius's. (The iteration diverges, so that step is not
  // the one that runs.)
  const auto n = SpringDamperConstants<double>{6000, 2, 0.5};
  CHECK(anchored_pair_contraction(n, n, 0.01) >= 1.0);
  CHECK(*anchored_pair_spectral_radius(n, n, 0.01) > 4.0);
  // Live values are judged: constructed stable (c = 15), made unstable live (c = 2).
  CHECK(count<T>(Change::live_destabilised) == 1);
}

TEMPLATE_TEST_CASE("two pairs in one group give two warnings; later values are not judged",
                   "[nodes][advisory]", double, long double) {
  using T = TestType;
  Graph<T> g(0.01);
  const SpringDamperParams p{1000, 2, 0.5, 1, 0, 0.1};
  std::vector<NodeId> ids;
  for (const char* name : {"a1", "b1", "a2", "b2"}) ids.push_back(g.add_node(name, SpringDamperNode<T>(p)));
  g.connect(ids[0], "position", ids[1], "anchor_position");
  g.connect(ids[1], "position", ids[0], "anchor_position");
  g.connect(ids[2], "position", ids[3], "anchor_position");
  g.connect(ids[3], "position", ids[2], "anchor_position");
  g.add_coupling_group(ids, {});
  const auto rep = g.compile(WarningSink{});
  REQUIRE(rep.advisories.size() == 2);
  CHECK(rep.advisories[0].nodes == std::vector<std::string>{"a1", "b1"});
  CHECK(rep.advisories[1].nodes == std::vector<std::string>{"a2", "b2"});
  // A value supplied after compile is not judged until the next compile.
  for (auto id : ids) g.template params<SpringDamperNode<T>>(id).damping = 15.0;
  CHECK(g.advisories().size() == 2);
  CHECK(g.compile(WarningSink{}).advisories.empty());
}
