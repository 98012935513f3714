// Element kernels: residual-plus-tangent in closed form beside the nested-dual evaluation of
// the same Hessian (BM_<kernel>_closed / BM_<kernel>_dual, measured in one run).
#include <benchmark/benchmark.h>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/elements.hpp"

using namespace cabledyn;

namespace {

using V12 = Eigen::Matrix<double, 12, 1>;
using V6 = Eigen::Matrix<double, 6, 1>;

HermiteElement<> hermite() {
  HermiteElementParams p;
  p.L0 = 2.0;
  p.EA = 5.0e8;
  p.EI = 2.0e4;
  p.rho_A = 30.0;
  return HermiteElement<>(p);  // 4 + 4 Gauss points (defaults)
}

V12 bent_state() {
  V12 q;
  q << 0.1, -0.2, 0.3, 0.98, 0.17, 0.05, 1.9, 0.55, 0.35, 0.85, 0.52, 0.02;
  return q;
}

void BM_hermite_tangent_closed(benchmark::State& state) {
  const auto e = hermite();
  V12 q = bent_state(), f;
  Eigen::Matrix<double, 12, 12> K;
  for (auto _ : state) {
    benchmark::DoNotOptimize(q.data());
    e.internal_force<double>(q, f, &K);
    benchmark::DoNotOptimize(f.data());
    benchmark::DoNotOptimize(K.data());
  }
}
BENCHMARK(BM_hermite_tangent_closed);

void BM_hermite_tangent_dual(benchmark::State& state) {
  const auto e = hermite();
  V12 q = bent_state();
  auto U = [&](const auto& x) {
    using T = typename std::decay_t<decltype(x)>::Scalar;
    return e.energy<T>(Eigen::Matrix<T, 12, 1>(x));
  };
  for (auto _ : state) {
    benchmark::DoNotOptimize(q.data());
    auto H = hessian(U, q);
    benchmark::DoNotOptimize(H.data());
  }
}
BENCHMARK(BM_hermite_tangent_dual);

void BM_hermite_residual_closed(benchmark::State& state) {
  const auto e = hermite();
  V12 q = bent_state(), f;
  for (auto _ : state) {
    benchmark::DoNotOptimize(q.data());
    e.internal_force<double>(q, f);
    benchmark::DoNotOptimize(f.data());
  }
}
BENCHMARK(BM_hermite_residual_closed);

void BM_tension_tangent_closed(benchmark::State& state) {
  TensionElementParams p;
  p.L0 = 2.0;
  p.EA = 5.0e8;
  const TensionElement e(p);
  V6 q, f;
  q << 0.1, -0.2, 0.3, 1.9, 0.55, 0.35;
  Eigen::Matrix<double, 6, 6> K;
  for (auto _ : state) {
    benchmark::DoNotOptimize(q.data());
    e.internal_force<double>(q, f, &K);
    benchmark::DoNotOptimize(f.data());
    benchmark::DoNotOptimize(K.data());
  }
}
BENCHMARK(BM_tension_tangent_closed);

void BM_tension_tangent_dual(benchmark::State& state) {
  TensionElementParams p;
  p.L0 = 2.0;
  p.EA = 5.0e8;
  const TensionElement e(p);
  V6 q;
  q << 0.1, -0.2, 0.3, 1.9, 0.55, 0.35;
  auto U = [&](const auto& x) {
    using T = typename std::decay_t<decltype(x)>::Scalar;
    return e.energy<T>(Eigen::Matrix<T, 6, 1>(x));
  };
  for (auto _ : state) {
    benchmark::DoNotOptimize(q.data());
    auto H = hessian(U, q);
    benchmark::DoNotOptimize(H.data());
  }
}
BENCHMARK(BM_tension_tangent_dual);

}  // namespace

BENCHMARK_MAIN();
