// The node graph: a graph reproduces the node's own steps exactly; forward edges read the new
// value and backward edges the previous step's (lagged); transforms, additive and replacing
// writers, flux edges, multi-rate nodes, live parameters, reset, rollback on errors, coupling
// groups that must converge, the named errors, and no heap allocation in a step.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "cabledyn/nodes/graph.hpp"
#include "cabledyn/nodes/spring_damper.hpp"

#include "support/alloc_counter.hpp"

using namespace cabledyn;

namespace {

SpringDamperParams params(double k, double c, double m, double l0, double x0, double v0) {
  return SpringDamperParams{k, c, m, l0, x0, v0};
}

template <class T>
using Node = SpringDamperNode<T>;
template <class T>
using State = typename Node<T>::State;

}  // namespace

TEMPLATE_TEST_CASE("a node in a graph steps exactly as the node itself", "[nodes][graph]", double,
                   long double) {
  using T = TestType;
  const auto p = params(150, 0.8, 1.2, 0.5, 0.1, -0.3);
  Graph<T> g(0.01);
  const auto id = g.add_node("mass", Node<T>(p));
  auto fn = [](const T& t) {
    using std::sin;
    return T(T(0.1) * sin(T(3) * t));
  };
  g.set_input_function(id, "anchor_position", fn);
  g.compile(WarningSink{});
  const Node<T> node(p);
  State<T> s = node.initial_state();
  for (int n = 0; n < 50; ++n) {
    s = node.step(s, Node<T>::inputs(fn(T(static_cast<double>(n) * 0.01))), T(0.01));
    g.step();
    REQUIRE(g.value(id, "position") == s(0));
    REQUIRE(g.value(id, "velocity") == s(1));
  }
  CHECK(g.time() == Approx(0.5).epsilon(1e-15));
  CHECK(g.steps_taken() == 50);
  // The flux reads the current state and the last inputs.
  CHECK(g.value(id, "spring_force") ==
        node.spring_force(s, Node<T>::inputs(fn(T(49 * 0.01)))));
  CHECK(g.value(id, "anchor_position") == fn(T(49 * 0.01)));
  // A constant base input instead of the function.
  g.set_input(id, "anchor_position", T(0.25));
  g.step();
  s = node.step(s, Node<T>::inputs(T(0.25)), T(0.01));
  CHECK(g.value(id, "position") == s(0));
}

TEMPLATE_TEST_CASE("schedule: forward edges read the new value, backward edges the previous step's",
                   "[nodes][graph]", double, long double) {
  using T = TestType;
  const auto pa = params(200, 1.0, 1.0, 0.0, 0.5, 0.0), pb = params(90, 0.4, 0.7, 0.3, -0.2, 0.1);
  const Node<T> na(pa), nb(pb);
  const T dt = T(0.01);
  for (bool leader_first : {true, false}) {
    Graph<T> g(0.01);
    NodeId a, b;
    if (leader_first) {
      a = g.add_node("leader", na);
      b = g.add_node("follower", nb);
    } else {
      b = g.add_node("follower", nb);
      a = g.add_node("leader", na);
    }
    g.connect(a, "position", b, "anchor_position");
    const auto report = g.compile(WarningSink{});
    REQUIRE(report.schedule.size() == 2);
    CHECK(report.schedule[0] == (leader_first ? "leader" : "follower"));
    State<T> sa = na.initial_state(), sb = nb.initial_state();
    for (int n = 0; n < 30; ++n) {
      const State<T> sa_new = na.step(sa, Node<T>::inputs(T(0)), dt);
      // The follower reads the leader's new position when the leader runs first.
      sb = nb.step(sb, Node<T>::inputs(leader_first ? sa_new(0) : sa(0)), dt);
      sa = sa_new;
      g.step();
    }
    CHECK(g.value(a, "position") == sa(0));
    CHECK(g.value(b, "position") == sb(0));
    CHECK(g.value(b, "velocity") == sb(1));
  }
}

TEMPLATE_TEST_CASE("an anchored pair without a group is lagged; one Gauss-Seidel pass is the same",
                   "[nodes][graph][coupling]", double, long double) {
  using T = TestType;
  const auto pa = params(300, 0.5, 1.0, 1.0, 0.4, 0.0), pb = params(300, 0.5, 1.0, -1.0, -0.4, 0.2);
  const Node<T> na(pa), nb(pb);
  const T dt = T(0.01);
  State<T> sa = na.initial_state(), sb = nb.initial_state();
  for (int n = 0; n < 40; ++n) {
    sa = na.step(sa, Node<T>::inputs(sb(0)), dt);  // b's previous position (lagged)
    sb = nb.step(sb, Node<T>::inputs(sa(0)), dt);  // a's new position
  }
  for (int variant = 0; variant < 2; ++variant) {
    Graph<T> g(0.01);
    const auto a = g.add_node("a", na);
    const auto b = g.add_node("b", nb);
    g.connect(a, "position", b, "anchor_position");
    g.connect(b, "position", a, "anchor_position");
    if (variant == 1) {
      CouplingOptions o;
      o.max_iterations = 1;
      g.add_coupling_group({a, b}, o);
    }
    g.compile(WarningSink{});
    g.run(40);
    INFO("variant " << variant);
    CHECK(g.value(a, "position") == sa(0));
    CHECK(g.value(b, "position") == sb(0));
    CHECK(g.value(b, "velocity") == sb(1));
    if (variant == 1) {
      CHECK(g.report(GroupId{0}).iterations == 1);
      CHECK_FALSE(g.report(GroupId{0}).converged);
    }
  }
}

TEMPLATE_TEST_CASE("transforms, additive and replacing writers, flux edges", "[nodes][graph]",
                   double, long double) {
  using T = TestType;
  const auto p = params(120, 0.6, 0.9, 0.2, 0.3, 0.0);
  const Node<T> n(p);
  const T dt = T(0.01);
  Graph<T> g(0.01);
  const auto a = g.add_node("a", n);
  const auto c = g.add_node("c", Node<T>(params(60, 0.2, 1.5, 0.0, -0.6, 0.1)));
  const auto b1 = g.add_node("scaled", n);
  const auto b2 = g.add_node("custom", n);
  const auto b3 = g.add_node("additive", n);
  const auto b4 = g.add_node("replace+add", n);
  const auto b5 = g.add_node("flux", n);
  const auto b6 = g.add_node("identity", n);
  g.connect(a, "position", b1, "anchor_position", {EdgeTransform<T>::scale(2.0)});
  g.connect(a, "position", b2, "anchor_position",
            {EdgeTransform<T>::custom("plus one", [](const T& x) { return T(x + T(1)); })});
  g.set_input(b3, "anchor_position", T(0.5));
  g.connect(a, "position", b3, "anchor_position", {std::nullopt, true});
  g.connect(c, "position", b3, "anchor_position", {std::nullopt, true});
  g.connect(c, "position", b4, "anchor_position", {std::nullopt, true});  // added after the replace
  g.connect(a, "position", b4, "anchor_position");
  g.connect(a, "spring_force", b5, "anchor_position", {EdgeTransform<T>::scale(1e-3)});
  g.connect(a, "position", b6, "anchor_position", {EdgeTransform<T>::identity()});
  g.compile(WarningSink{});
  const Node<T> nc(params(60, 0.2, 1.5, 0.0, -0.6, 0.1));
  State<T> sa = n.initial_state(), sc = nc.initial_state();
  std::vector<State<T>> sb(6, n.initial_state());
  for (int k = 0; k < 25; ++k) {
    sa = n.step(sa, Node<T>::inputs(T(0)), dt);
    sc = nc.step(sc, Node<T>::inputs(T(0)), dt);
    const T force = n.spring_force(sa, Node<T>::inputs(T(0)));
    const T anchors[6] = {T(2.0) * sa(0), sa(0) + T(1), T(0.5) + sa(0) + sc(0), sa(0) + sc(0),
                          T(1e-3) * force, sa(0)};
    for (std::size_t i = 0; i < 6; ++i) sb[i] = n.step(sb[i], Node<T>::inputs(anchors[i]), dt);
    g.step();
  }
  const NodeId bs[6] = {b1, b2, b3, b4, b5, b6};
  for (std::size_t i = 0; i < 6; ++i) {
    INFO("node " << g.name(bs[i]));
    CHECK(g.value(bs[i], "position") == sb[i](0));
    CHECK(g.value(bs[i], "velocity") == sb[i](1));
  }
  CHECK(g.edges()[0].options.transform->name == "scale(2)");
  CHECK_FALSE(g.edges()[0].is_identity());
  CHECK(g.edges().back().is_identity());
}

TEMPLATE_TEST_CASE("multi-rate nodes, live parameters, reset", "[nodes][graph]", double,
                   long double) {
  using T = TestType;
  const auto p = params(80, 0.3, 1.0, 0.0, 0.2, 0.0);
  const Node<T> n(p);
  Graph<T> g(0.01);
  const auto fast = g.add_node("fast", n);
  const auto slow = g.add_node("slow", n, 0.02);
  g.compile(WarningSink{});
  // Live parameters: a stiffer fast node from now on.
  g.template params<Node<T>>(fast).stiffness = 160.0;
  g.run(10);
  auto stiff = p;
  stiff.stiffness = 160.0;
  const Node<T> n_stiff(stiff);
  State<T> s_fast = n.initial_state(), s_slow = n.initial_state();
  for (int k = 0; k < 10; ++k) s_fast = n_stiff.step(s_fast, Node<T>::inputs(T(0)), T(0.01));
  for (int k = 0; k < 5; ++k) s_slow = n.step(s_slow, Node<T>::inputs(T(0)), T(0.02));
  CHECK(g.value(fast, "position") == s_fast(0));
  CHECK(g.value(slow, "position") == s_slow(0));
  CHECK(g.timestep(slow) == 0.02);
  // reset() takes the live initial values.
  g.template params<Node<T>>(slow).initial_position = -0.7;
  g.reset();
  CHECK(g.time() == 0.0);
  CHECK(g.value(slow, "position") == T(-0.7));
  CHECK(g.value(fast, "position") == T(0.2));
  g.set_state(fast, "velocity", T(3));
  CHECK(g.value(fast, "velocity") == T(3));
  // A timestep that is not a multiple of dt.
  Graph<T> bad(0.01);
  bad.add_node("odd", n, 0.015);
  CHECK_THROWS_AS(bad.compile(WarningSink{}), InputError);
  CHECK_THROWS_WITH(bad.compile(WarningSink{}), Catch::Contains("node 'odd': timestep"));
}

TEMPLATE_TEST_CASE("a failing step rolls every state back", "[nodes][graph][errors]", double,
                   long double) {
  using T = TestType;
  const Node<T> n(params(100, 1, 1, 0, 0.3, 0));
  Graph<T> g(0.01);
  const auto a = g.add_node("a", n);
  const auto b = g.add_node("b", n);
  g.compile(WarningSink{});
  g.run(3);
  const T xa = g.value(a, "position"), xb = g.value(b, "position");
  g.template params<Node<T>>(b).mass = -1.0;  // supplied after compile: caught at the step
  CHECK_THROWS_AS(g.step(), InputError);
  CHECK_THROWS_WITH(g.step(), Catch::Contains("mass"));
  CHECK(g.value(a, "position") == xa);  // a had stepped before b failed: rolled back
  CHECK(g.value(b, "position") == xb);
  CHECK(g.steps_taken() == 3);
  g.template params<Node<T>>(b).mass.reset();
  g.step();
  CHECK(g.steps_taken() == 4);

  // A coupling group that must converge and cannot (k dt^2 / m = 2: the passes diverge).
  const auto pd = params(20000, 1, 1, 0, 0.1, 0);
  for (bool require : {true, false}) {
    Graph<T> h(0.01);
    const auto x = h.add_node("x", Node<T>(pd));
    auto pd2 = pd;
    pd2.initial_position = -0.1;
    const auto y = h.add_node("y", Node<T>(pd2));
    h.connect(x, "position", y, "anchor_position");
    h.connect(y, "position", x, "anchor_position");
    CouplingOptions o;
    o.name = "stiff pair";
    o.max_iterations = 10;
    o.require_convergence = require;
    const auto gid = h.add_coupling_group({x, y}, o);
    h.compile(WarningSink{});
    if (require) {
      CHECK_THROWS_AS(h.step(), SolveError);
      CHECK_THROWS_WITH(h.step(), Catch::Contains("coupling group 'stiff pair'"));
      CHECK(h.value(x, "position") == T(0.1));
      CHECK(h.steps_taken() == 0);
    } else {
      h.step();
      CHECK(h.report(gid).iterations == 10);
      CHECK_FALSE(h.report(gid).converged);
      CHECK(h.report(gid).increment > 0.5);  // relative: the passes grow 4x each
    }
  }
}

TEMPLATE_TEST_CASE("graph construction errors are named", "[nodes][graph][errors]", double,
                   long double) {
  using T = TestType;
  const Node<T> n;
  CHECK_THROWS_AS(Graph<T>(0.0), InputError);
  CHECK_THROWS_AS(Graph<T>(std::nan("")), InputError);
  Graph<T> g(0.01);
  const auto a = g.add_node("a", n);
  const auto b = g.add_node("b", n);
  const auto c = g.add_node("c", n);
  CHECK_THROWS_AS(g.add_node("a", n), InputError);
  CHECK_THROWS_AS(g.add_node("", n), InputError);
  CHECK_THROWS_AS(g.add_node("z", n, -1.0), InputError);
  CHECK_THROWS_WITH(g.field(a, "speed"), Catch::Contains("node 'a': field = speed"));
  CHECK_THROWS_AS(g.connect(a, "position", b, "velocity"), InputError);         // not an input
  CHECK_THROWS_AS(g.connect(a, "anchor_position", b, "anchor_position"), InputError);  // source
  CHECK_THROWS_AS(g.connect(a, "position", NodeId{7}, "anchor_position"), InputError);
  CHECK_THROWS_AS(g.value(a, "position"), InputError);  // not compiled
  CHECK_THROWS_AS(g.step(), InputError);
  CHECK_THROWS_AS(g.template params<SpringDamperNode<T>>(NodeId{9}), InputError);
  CouplingOptions zero;
  zero.max_iterations = 0;
  CHECK_THROWS_AS(g.add_coupling_group({a, b}, zero), InputError);
  CouplingOptions tol;
  tol.tolerance = 0;
  CHECK_THROWS_AS(g.add_coupling_group({a, b}, tol), InputError);
  CHECK_THROWS_AS(g.add_coupling_group({}, {}), InputError);
  CHECK_THROWS_AS(g.add_coupling_group({a, a}, {}), InputError);
  g.add_coupling_group({a, b}, {});
  CHECK_THROWS_AS(g.add_coupling_group({b, c}, {}), InputError);
  // Two replacing writers of one input: refused at compile, naming the node and the input.
  g.connect(a, "position", c, "anchor_position");
  g.connect(b, "position", c, "anchor_position");
  try {
    g.compile(WarningSink{});
    FAIL("two replacing writers were accepted");
  } catch (const InputError& e) {
    CHECK(e.object() == "node 'c'");
    CHECK(e.quantity() == "replacing writers of anchor_position");
    CHECK(e.value() == "2");
  }
  CHECK_FALSE(g.compiled());
}

TEMPLATE_TEST_CASE("a graph step allocates nothing", "[nodes][graph][allocation]", double,
                   long double) {
  using T = TestType;
  Graph<T> g(0.01);
  const auto a = g.add_node("a", Node<T>(params(300, 20, 1, 1, 0.3, 0)));
  const auto b = g.add_node("b", Node<T>(params(300, 20, 1, -1, -0.3, 0.5)));
  const auto c = g.add_node("c", Node<T>());
  const auto d = g.add_node("d", Node<T>(), 0.02);
  g.connect(a, "position", b, "anchor_position");
  g.connect(b, "position", a, "anchor_position");
  g.connect(a, "spring_force", c, "anchor_position", {EdgeTransform<T>::scale(1e-2)});
  g.connect(b, "position", c, "anchor_position", {std::nullopt, true});
  g.connect(c, "position", d, "anchor_position",
            {EdgeTransform<T>::custom("half", [](const T& x) { return T(0.5) * x; })});
  g.set_input_function(a, "anchor_position", [](const T& t) { return T(0.1) * t; });
  CouplingOptions o;
  o.scheme = CouplingScheme::jacobi;
  g.add_coupling_group({a, b}, o);
  g.compile(WarningSink{});
  g.step();
  cabledyn::test_support::AllocationCounter count;
  g.run(100);
  CHECK(count.allocations() == 0);
  CHECK(std::isfinite(g.value(d, "position")));
}
