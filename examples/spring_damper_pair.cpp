// Two spring-damper nodes anchored on each other in a Gauss-Seidel coupling group (spec
// spring-damper-node.md, "Stability Conditions"): a stable pair and an unstable one. For each,
// compile() prints its advisory (if any), and the run prints the measured growth per step of
// the pair's common velocity next to the closed form (m - c dt)/(m - k dt^2) and the spectral
// radius of the converged step.
//
//   spring_damper_pair            the two cases of the spec (c = 15 and c = 2)
//   spring_damper_pair k c m dt   one equal pair of your own
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include <cabledyn/nodes.hpp>

namespace {

using cabledyn::CouplingOptions;
using cabledyn::Graph;
using cabledyn::SpringDamperNode;
using cabledyn::SpringDamperParams;

void run_pair(const char* title, double k, double c, double m, double dt) {
  std::printf("== %s: k = %g N/m, c = %g N s/m, m = %g kg, dt = %g s ==\n", title, k, c, m, dt);
  Graph<double> graph(dt);
  const SpringDamperParams pa{k, c, m, 1.0, 0.5, 0.2};
  const SpringDamperParams pb{k, c, m, -1.0, -0.5, 0.1};  // one spring: rest lengths +l0, -l0
  const auto a = graph.add_node("a", SpringDamperNode<double>(pa, "a"));
  const auto b = graph.add_node("b", SpringDamperNode<double>(pb, "b"));
  graph.connect(a, "position", b, "anchor_position");
  graph.connect(b, "position", a, "anchor_position");
  CouplingOptions group;
  group.name = "pair";
  group.max_iterations = 200;
  group.tolerance = 1e-12;
  graph.add_coupling_group({a, b}, group);

  std::vector<cabledyn::Advisory> advisories;
  graph.compile([&](const cabledyn::Advisory& adv) {
    advisories.push_back(adv);
    std::printf("advisory [%s]: %s\n", adv.code.c_str(), adv.message.c_str());
  });
  if (advisories.empty()) std::printf("advisory: none (the converged step does not grow)\n");

  const auto n = cabledyn::constants_of<double>(pa);
  const double g = cabledyn::equal_pair_growth_factor(n, dt);
  const auto rho = cabledyn::anchored_pair_spectral_radius(n, n, dt);
  std::printf("single node: k dt^2 + 2 c dt = %g vs 4 m = %g (radius %.6f)\n",
              k * dt * dt + 2 * c * dt, 4 * m, cabledyn::single_node_spectral_radius(n, dt));
  std::printf("closed form g = (m - c dt)/(m - k dt^2) = %.6f; converged-step radius %s\n", g,
              rho ? std::to_string(*rho).c_str() : "(none: k dt^2 / m too close to 1)");
  std::printf("%6s %16s %14s %12s\n", "step", "v_a + v_b", "growth", "GS passes");
  double S = graph.value(a, "velocity") + graph.value(b, "velocity");
  for (int i = 1; i <= 10; ++i) {
    graph.step();
    const double S1 = graph.value(a, "velocity") + graph.value(b, "velocity");
    std::printf("%6d %16.8e %14.10f %12d\n", i, S1, S1 / S, graph.report(cabledyn::GroupId{0}).iterations);
    S = S1;
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc == 5) {
      run_pair("your pair", std::atof(argv[1]), std::atof(argv[2]), std::atof(argv[3]),
               std::atof(argv[4]));
      return 0;
    }
    if (argc != 1) {
      std::fprintf(stderr, "usage: %s [k c m dt]\n", argv[0]);
      return 2;
    }
    // Stable: k dt = 10 <= c = 15 <= (2m - k dt^2)/dt = 90.
    run_pair("stable pair", 1000, 15, 0.5, 0.01);
    // Unstable although each node alone is far inside its bound (0.14 against 4m = 2).
    run_pair("unstable pair", 1000, 2, 0.5, 0.01);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
