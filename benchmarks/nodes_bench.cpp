// Nodes benchmarks: the spring-damper node's own step is the baseline; the same step through
// the graph (type erasure, edge gathering), a converged anchored pair (Gauss-Seidel and
// Jacobi), the generic integrators, and the stability analysis (single node, pair, pair with
// duals). Report figures as ratios against BM_node_step measured in the same run.
#include <benchmark/benchmark.h>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/nodes.hpp"

using namespace cabledyn;

namespace {

using N = SpringDamperNode<double>;
const SpringDamperParams kParams{1000, 15, 0.5, 1.0, 0.3, 0.1};

void BM_node_step(benchmark::State& state) {
  const N node(kParams);
  N::State s = node.initial_state();
  const auto u = N::inputs(0.0);
  for (auto _ : state) {
    s = node.step(s, u, 0.01);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_node_step);

void BM_node_rk4_step(benchmark::State& state) {
  const N node(kParams);
  N::State s = node.initial_state();
  const auto u = N::inputs(0.0);
  for (auto _ : state) {
    s = rk4_step(node, s, u, 0.0, 0.01);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_node_rk4_step);

void BM_node_backward_euler_step(benchmark::State& state) {
  const N node(kParams);
  N::State s = node.initial_state();
  const auto u = N::inputs(0.0);
  for (auto _ : state) {
    s = backward_euler_step(node, s, u, 0.0, 0.01);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_node_backward_euler_step);

void BM_graph_single_node_step(benchmark::State& state) {
  Graph<double> g(0.01);
  g.add_node("a", N(kParams));
  g.compile(WarningSink{});
  for (auto _ : state) {
    g.step();
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_graph_single_node_step);

// The neutral pair c = k dt (g = 1): the common velocity persists, so every step needs the
// same number of passes (about 7 to 1e-12) instead of settling at rest.
void pair_step(benchmark::State& state, CouplingScheme scheme) {
  Graph<double> g(0.01);
  SpringDamperParams p = kParams;
  p.damping = 10.0;
  SpringDamperParams q = p;
  q.rest_length = -1.0;
  q.initial_position = -0.7;
  const auto a = g.add_node("a", N(p));
  const auto b = g.add_node("b", N(q));
  g.connect(a, "position", b, "anchor_position");
  g.connect(b, "position", a, "anchor_position");
  CouplingOptions o;
  o.scheme = scheme;
  o.tolerance = 1e-12;
  o.max_iterations = 200;
  const auto gid = g.add_coupling_group({a, b}, o);
  g.compile(WarningSink{});
  for (auto _ : state) {
    g.step();
    benchmark::ClobberMemory();
  }
  state.counters["passes"] = g.report(gid).iterations;
}
void BM_graph_pair_gauss_seidel_step(benchmark::State& state) {
  pair_step(state, CouplingScheme::gauss_seidel);
}
BENCHMARK(BM_graph_pair_gauss_seidel_step);
void BM_graph_pair_jacobi_step(benchmark::State& state) { pair_step(state, CouplingScheme::jacobi); }
BENCHMARK(BM_graph_pair_jacobi_step);

void BM_single_node_spectral_radius(benchmark::State& state) {
  auto n = constants_of<double>(kParams);
  for (auto _ : state) {
    benchmark::DoNotOptimize(n);
    benchmark::DoNotOptimize(single_node_spectral_radius(n, 0.01));
  }
}
BENCHMARK(BM_single_node_spectral_radius);

void BM_pair_spectral_radius(benchmark::State& state) {
  auto n = constants_of<double>(kParams);
  for (auto _ : state) {
    benchmark::DoNotOptimize(n);
    benchmark::DoNotOptimize(anchored_pair_spectral_radius(n, n, 0.01));
  }
}
BENCHMARK(BM_pair_spectral_radius);

void BM_pair_spectral_radius_dual(benchmark::State& state) {
  using D = Dual<double, 1>;
  SpringDamperConstants<D> n{D(1000.0), D(15.0, 1, 0), D(0.5)};
  for (auto _ : state) {
    benchmark::DoNotOptimize(n);
    benchmark::DoNotOptimize(anchored_pair_spectral_radius(n, n, D(0.01)));
  }
}
BENCHMARK(BM_pair_spectral_radius_dual);

}  // namespace

BENCHMARK_MAIN();
