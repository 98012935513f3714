// Core benchmarks: quadrature, dual numbers, and the Morison drag on a settled (subnormal)
// relative velocity with and without SubnormalFlush (core/fp_env.hpp). Pairs BM_<kernel>_closed / BM_<kernel>_dual
// in one run so the ratio is measured on the same machine at the same time.
#include <benchmark/benchmark.h>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/core.hpp"
#include "cabledyn/hydro/morison.hpp"

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

// The drag and its tangent at a relative velocity of 1e-160 m/s (a sway decayed toward rest:
// |u| u is subnormal), in the caller's mode (plain) and under the marches' flush; the pair's
// ratio is the cost of subnormal arithmetic on this machine.
void drag_at_rest(benchmark::State& state, bool flush) {
  const SubnormalFlush mode(flush);
  MorisonCoefficients c;
  c.d = 0.1;
  c.Cdn = 1.2;
  c.Cdt = 0.008;
  Vec3<double> u(3e-160, -2e-160, 1e-161), t(0.6, 0, 0.8);
  Mat3<double> Ju, Jt;
  for (auto _ : state) {
    benchmark::DoNotOptimize(u);
    const Vec3<double> f = morison_drag<double>(u, t, c, &Ju, &Jt);
    benchmark::DoNotOptimize(f);
    benchmark::DoNotOptimize(Ju);
  }
}
void BM_drag_subnormal_plain(benchmark::State& state) { drag_at_rest(state, false); }
BENCHMARK(BM_drag_subnormal_plain);
void BM_drag_subnormal_flushed(benchmark::State& state) { drag_at_rest(state, true); }
BENCHMARK(BM_drag_subnormal_flushed);

}  // namespace

BENCHMARK_MAIN();
