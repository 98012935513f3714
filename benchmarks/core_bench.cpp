// Core benchmarks: quadrature and dual numbers. Pairs BM_<kernel>_closed / BM_<kernel>_dual
// in one run so the ratio is measured on the same machine at the same time.
#include <benchmark/benchmark.h>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/core.hpp"

using namespace cabledyn;

namespace {

// A smooth integrand of the kind the element kernels integrate.
template <class T>
T integrand(const T& x, const T& p) {
  using std::sqrt;
  return sqrt(T(1) + p * x * x) * x;
}

void BM_quadrature_gauss4(benchmark::State& state) {
  const auto rule = gauss_legendre<double>(4);
  double p = 0.3;
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    const double I = rule.integrate([&](double x) { return integrand(x, p); });
    benchmark::DoNotOptimize(I);
  }
}
BENCHMARK(BM_quadrature_gauss4);

void BM_quadrature_gauss4_long_double(benchmark::State& state) {
  const auto rule = gauss_legendre<long double>(4);
  long double p = 0.3L;
  for (auto _ : state) {
    benchmark::DoNotOptimize(p);
    const long double I = rule.integrate([&](long double x) { return integrand(x, p); });
    benchmark::DoNotOptimize(I);
  }
}
BENCHMARK(BM_quadrature_gauss4_long_double);

// The 12-variable quadratic-plus-exponential energy of the autodiff tests.
template <class V>
typename V::Scalar energy12(const V& q) {
  using T = typename V::Scalar;
  using std::exp;
  T qq = T(0), e = T(0);
  for (int i = 0; i < 12; ++i) qq += q(i) * q(i);
  for (int i = 0; i + 1 < 12; ++i) e += q(i) * q(i) * q(i + 1);
  return e + exp(T(0.05) * qq);
}

Eigen::Matrix<double, 12, 12> energy12_hessian_closed(const Eigen::Matrix<double, 12, 1>& q) {
  const double ex = std::exp(0.05 * q.squaredNorm());
  Eigen::Matrix<double, 12, 12> H =
      0.1 * ex * Eigen::Matrix<double, 12, 12>::Identity() + 0.01 * ex * q * q.transpose();
  for (int i = 0; i + 1 < 12; ++i) {
    H(i, i) += 2 * q(i + 1);
    H(i, i + 1) += 2 * q(i);
    H(i + 1, i) += 2 * q(i);
  }
  return H;
}

void BM_energy12_hessian_closed(benchmark::State& state) {
  Eigen::Matrix<double, 12, 1> q;
  for (int i = 0; i < 12; ++i) q(i) = std::sin(1.0 + i);
  for (auto _ : state) {
    benchmark::DoNotOptimize(q.data());
    auto H = energy12_hessian_closed(q);
    benchmark::DoNotOptimize(H.data());
  }
}
BENCHMARK(BM_energy12_hessian_closed);

void BM_energy12_hessian_dual(benchmark::State& state) {
  Eigen::Matrix<double, 12, 1> q;
  for (int i = 0; i < 12; ++i) q(i) = std::sin(1.0 + i);
  for (auto _ : state) {
    benchmark::DoNotOptimize(q.data());
    auto H = hessian([](const auto& x) { return energy12(x); }, q);
    benchmark::DoNotOptimize(H.data());
  }
}
BENCHMARK(BM_energy12_hessian_dual);

void BM_dual12_gradient(benchmark::State& state) {
  Eigen::Matrix<double, 12, 1> q;
  for (int i = 0; i < 12; ++i) q(i) = std::sin(1.0 + i);
  for (auto _ : state) {
    benchmark::DoNotOptimize(q.data());
    auto g = gradient([](const auto& x) { return energy12(x); }, q);
    benchmark::DoNotOptimize(g.data());
  }
}
BENCHMARK(BM_dual12_gradient);

}  // namespace

BENCHMARK_MAIN();
