// Dynamics: one generalised-alpha step of a 100-element EI = 0 chain and of a 100-element
// Hermite cable under a 2 m / 10 s fairlead surge (dt = 0.05 s), beside one band LU
// factorisation of the same size measured in the same run (the baseline).
//   BM_step_tension/100, BM_step_hermite/100: time per step (wall time per simulated second
//   = 20 steps); BM_band_factor_*: one factorisation; BM_band_solve_hermite[_templated]: one
//   solve with the factors; BM_band_multiply_hermite: one band matrix-vector product (the
//   mass times the acceleration of every residual).
#include <benchmark/benchmark.h>

#include <cmath>

#include "cabledyn/dynamics.hpp"
#include "cabledyn/linalg.hpp"
#include "cabledyn/statics.hpp"

using namespace cabledyn;

namespace {

struct Case {
  Vec3<double> fair{5.2, 0, -70}, anchor{853.87, 0, -320};
  Line line;
  VecX<double> q0;
  DynamicOptions opt;
  static LineType type(double EI) {
    LineType t;
    t.name = "OC3";
    t.d = 0.09;
    t.rho_A = 77.7066;
    t.EA = 384.243e6;
    t.EI = EI;
    t.BA = -0.8;
    t.Cdn = 1.6;
    t.Cdt = 0.1;
    t.Can = 1.0;
    return t;
  }
  static Environment env() {
    Environment e;
    e.depth = 320;
    return e;
  }
  explicit Case(double EI)
      : line("OC3", {{type(EI), 902.2, 100}}, LineEnd{fair, EndRotation::free, 0, {}},
             LineEnd{anchor, EndRotation::free, 0, {}}, env()) {
    StaticProblem p;
    p.seabed_z = -320;
    p.seabed.kBot = 1e5;
    if (line.hermite()) {
      HermiteStatics s(line, p);
      q0 = s.solve().q;
    } else {
      TensionStatics s(line, p);
      q0 = s.solve().q;
    }
    opt.seabed_z = -320;
    opt.seabed.kBot = 1e5;
  }
};

void run_steps(benchmark::State& state, double EI, bool reuse = true, bool modified = false) {
  Case c(EI);
  c.opt.reuse_factor = reuse;
  c.opt.modified_newton = modified;
  LineDynamics dyn(c.line, c.opt);
  EndMotions e;
  e[0].x = c.fair;
  e[1].x = c.anchor;
  dyn.initialize(0, c.q0, e);
  const double dt = 0.05, A = 2, w = 2 * kPi / 10;
  long k = 0;
  for (auto _ : state) {
    ++k;
    const double t = k * dt;
    // Ramped in linearly over 10 s (the benchmark runs long past it), with the velocity and
    // acceleration of that motion.
    const double r = std::min(1.0, t / 10), r1 = t < 10 ? 0.1 : 0.0;
    const double sn = std::sin(w * t), cs = std::cos(w * t);
    e[0].x(0) = c.fair(0) + A * r * sn;
    e[0].v(0) = A * (r1 * sn + r * w * cs);
    e[0].a(0) = A * (2 * r1 * w * cs - r * w * w * sn);
    dyn.step(dt, e);
    benchmark::DoNotOptimize(dyn.state().q.data());
  }
  state.counters["iterations_per_step"] = double(dyn.statistics().newton_iterations) / double(k);
  state.counters["factorizations_per_step"] = double(dyn.statistics().factorizations) / double(k);
  state.counters["force_evals_per_step"] = double(dyn.statistics().force_evaluations) / double(k);
  state.counters["tangent_evals_per_step"] = double(dyn.statistics().tangent_evaluations) / double(k);
  state.counters["unused_tangents_per_step"] = double(dyn.statistics().unused_tangents) / double(k);
  state.counters["steps_per_second"] = benchmark::Counter(double(k), benchmark::Counter::kIsRate);
}

void BM_step_tension(benchmark::State& state) { run_steps(state, 0.0); }
BENCHMARK(BM_step_tension)->Arg(100)->Unit(benchmark::kMicrosecond);

void BM_step_hermite(benchmark::State& state) { run_steps(state, 1e4); }
void BM_step_hermite_noreuse(benchmark::State& state) { run_steps(state, 1e4, false); }
BENCHMARK(BM_step_hermite_noreuse)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_step_hermite)->Arg(100)->Unit(benchmark::kMicrosecond);
void BM_step_hermite_modified(benchmark::State& state) { run_steps(state, 1e4, true, true); }
void BM_step_hermite_modified_noreuse(benchmark::State& state) { run_steps(state, 1e4, false, true); }
BENCHMARK(BM_step_hermite_modified)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_step_hermite_modified_noreuse)->Arg(100)->Unit(benchmark::kMicrosecond);

// One evaluation of the line force r(q, v) of the march, without (BM_force_*) and with
// (BM_force_tangent_*) its effective Jacobian in band storage, at a state of the surge run.
void force_eval(benchmark::State& state, double EI, bool tangent) {
  Case c(EI);
  LineDynamics dyn(c.line, c.opt);
  EndMotions e;
  e[0].x = c.fair;
  e[1].x = c.anchor;
  dyn.initialize(0, c.q0, e);
  for (int k = 1; k <= 40; ++k) {
    const double t = k * 0.05;
    e[0].x(0) = c.fair(0) + 2 * std::sin(0.2 * kPi * t);
    e[0].v(0) = 2 * 0.2 * kPi * std::cos(0.2 * kPi * t);
    dyn.step(0.05, e);
  }
  const auto n = static_cast<Eigen::Index>(c.line.dofs());
  VecX<double> r(n);
  BandMatrix<double> S(n, c.line.half_bandwidth(), c.line.half_bandwidth());
  for (auto _ : state) {
    if (tangent) S.set_zero();
    dyn.force(dyn.state().q, dyn.state().v, r, tangent ? &S : nullptr, 0.6, 20.0);
    benchmark::DoNotOptimize(r.data());
    benchmark::DoNotOptimize(S.data());
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
