// Dynamics: one generalised-alpha step (SystemStepper) of a 100-element EI = 0 chain and of a
// 100-element Hermite cable, each a one-line MooringSystem, under a 2 m / 10 s fairlead surge
// (dt = 0.05 s), beside one band LU factorisation of the same size measured in the same run
// (the baseline).
//   BM_step_tension/100, BM_step_hermite/100: time per step (wall time per simulated second
//   = 20 steps); BM_band_factor_*: one factorisation; BM_band_solve_hermite[_templated]: one
//   solve with the factors; BM_band_multiply_hermite: one band matrix-vector product (the
//   mass times the acceleration of every residual).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>

#include "cabledyn/dynamics.hpp"
#include "cabledyn/linalg.hpp"
#include "cabledyn/statics.hpp"
#include "cabledyn/system.hpp"
#include "oc3_case.hpp"

using namespace cabledyn;

namespace {

void run_steps(benchmark::State& state, double EI, bool reuse = true, bool modified = false) {
  oc3::OneLine c(oc3::type(EI), 100, 0);
  SystemStepperOptions o;
  o.reuse_factor = reuse ? SystemStepperOptions::FactorReuse::automatic : SystemStepperOptions::FactorReuse::off;
  o.modified_newton = modified;
  SystemStepper<MooringSystem<double>> st(c.sys, o);
  st.initialize(c.s0);
  const double dt = 0.05;
  long k = 0;
  for (auto _ : state) {
    ++k;
    c.surge_to(k * dt);
    st.step(dt);
    benchmark::DoNotOptimize(st.state().q.data());
  }
  const auto& stats = st.statistics();
  state.counters["iterations_per_step"] = double(stats.newton_iterations) / double(k);
  state.counters["factorizations_per_step"] = double(stats.factorizations) / double(k);
  state.counters["steps_per_second"] = benchmark::Counter(double(k), benchmark::Counter::kIsRate);
}

void BM_step_tension(benchmark::State& state) { run_steps(state, 0.0, false); }
BENCHMARK(BM_step_tension)->Arg(100)->Unit(benchmark::kMicrosecond);

void BM_step_hermite(benchmark::State& state) { run_steps(state, 1e4); }
void BM_step_hermite_noreuse(benchmark::State& state) { run_steps(state, 1e4, false); }
BENCHMARK(BM_step_hermite_noreuse)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_step_hermite)->Arg(100)->Unit(benchmark::kMicrosecond);
void BM_step_hermite_modified(benchmark::State& state) { run_steps(state, 1e4, true, true); }
void BM_step_hermite_modified_noreuse(benchmark::State& state) { run_steps(state, 1e4, false, true); }
BENCHMARK(BM_step_hermite_modified)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_step_hermite_modified_noreuse)->Arg(100)->Unit(benchmark::kMicrosecond);

// One evaluation of the system's dynamic force r(q, v) (MooringSystem::dynamic_residual),
// without (BM_force_*) and with (BM_force_tangent_*) its Jacobian wq dr/dq + wv dr/dv in the
// bordered band storage, at a state of the surge run.
void force_eval(benchmark::State& state, double EI, bool tangent) {
  oc3::OneLine c(oc3::type(EI), 100, 0);
  SystemStepper<MooringSystem<double>> st(c.sys, SystemStepperOptions{});
  st.initialize(c.s0);
  for (int k = 1; k <= 40; ++k) {
    c.surge_to(k * 0.05);
    st.step(0.05);
  }
  VecX<double> r(c.sys.dofs());
  auto J = c.sys.make_jacobian();
  for (auto _ : state) {
    if (tangent) J.set_zero();
    c.sys.dynamic_residual(st.state(), r, tangent ? &J : nullptr, 0.6, 20.0);
    benchmark::DoNotOptimize(r.data());
  }
}
void BM_force_tension(benchmark::State& state) { force_eval(state, 0.0, false); }
void BM_force_tangent_tension(benchmark::State& state) { force_eval(state, 0.0, true); }
void BM_force_hermite(benchmark::State& state) { force_eval(state, 1e4, false); }
void BM_force_tangent_hermite(benchmark::State& state) { force_eval(state, 1e4, true); }
BENCHMARK(BM_force_tension)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_force_tangent_tension)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_force_hermite)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_force_tangent_hermite)->Arg(100)->Unit(benchmark::kMicrosecond);

BandMatrix<double> band_test_matrix(Eigen::Index n, Eigen::Index kd) {
  BandMatrix<double> A(n, kd, kd);
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = std::max<Eigen::Index>(0, j - kd); i <= std::min<Eigen::Index>(n - 1, j + kd); ++i)
      A.at(i, j) = (i == j ? 4.0 * kd : -1.0 / (1 + std::abs(i - j)));
  return A;
}

void band_factor(benchmark::State& state, Eigen::Index n, Eigen::Index kd, Backend backend = Backend::automatic) {
  const BandMatrix<double> A = band_test_matrix(n, kd);
  BandLU<double> lu(n, kd, kd, backend);
  for (auto _ : state) {
    lu.factor(A);
    benchmark::DoNotOptimize(lu.factors());
  }
}

// One solve with the factors (a Newton iteration's), and one band matrix-vector product (the
// mass times the acceleration in every residual), on the Hermite line's size.
void band_solve(benchmark::State& state, Backend backend) {
  const Eigen::Index n = 606, kd = 11;
  const BandMatrix<double> A = band_test_matrix(n, kd);
  BandLU<double> lu(n, kd, kd, backend);
  lu.factor(A);
  const VecX<double> b = VecX<double>::LinSpaced(n, -1.0, 1.0);
  VecX<double> x(n);
  for (auto _ : state) {
    x = b;
    lu.solve(x);
    benchmark::DoNotOptimize(x.data());
  }
}
void BM_band_solve_hermite_templated(benchmark::State& state) { band_solve(state, Backend::templated); }
void BM_band_solve_hermite(benchmark::State& state) { band_solve(state, Backend::automatic); }
BENCHMARK(BM_band_solve_hermite_templated)->Arg(606)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_band_solve_hermite)->Arg(606)->Unit(benchmark::kMicrosecond);

void BM_band_multiply_hermite(benchmark::State& state) {
  const Eigen::Index n = 606, kd = 11;
  const BandMatrix<double> A = band_test_matrix(n, kd);
  const VecX<double> x = VecX<double>::LinSpaced(n, -1.0, 1.0);
  VecX<double> y(n);
  for (auto _ : state) {
    A.multiply(x, y);
    benchmark::DoNotOptimize(y.data());
  }
}
BENCHMARK(BM_band_multiply_hermite)->Arg(606)->Unit(benchmark::kMicrosecond);
void BM_band_factor_tension(benchmark::State& state) { band_factor(state, 303, 5); }
BENCHMARK(BM_band_factor_tension)->Arg(303)->Unit(benchmark::kMicrosecond);
void BM_band_factor_hermite(benchmark::State& state) { band_factor(state, 606, 11); }
void BM_band_factor_hermite_templated(benchmark::State& state) { band_factor(state, 606, 11, Backend::templated); }
BENCHMARK(BM_band_factor_hermite_templated)->Arg(606)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_band_factor_hermite)->Arg(606)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
