// Systems: one generalised-alpha step of the OC3 chain (100 EI = 0 elements, 902.2 m, 320 m
// depth) under a 2 m / 10 s fairlead surge (dt = 0.05 s) as a one-line MooringSystem through
// the SystemStepper, with a fresh factorisation every step (the baseline, measured in the same
// run) and on the previous step's factor; the same line with bending (EI 1e5 N m^2, 50
// cubic-Hermite elements) alike (reuse_factor automatic: on for a finite-EI line).
//   BM_system_step_oc3/1 vs /0, BM_system_step_cable/1 vs /0: time per step; counters: Newton
//   iterations and factorisations per step.
#include <benchmark/benchmark.h>

#include <cmath>

#include "cabledyn/dynamics.hpp"
#include "cabledyn/statics.hpp"
#include "cabledyn/system.hpp"
#include "oc3_case.hpp"

using namespace cabledyn;

namespace {

// The line of type t in n elements as a one-line MooringSystem stepped by the SystemStepper
// (factor reuse as asked), time per step.
void system_steps(benchmark::State& state, const LineType& t, int n, SystemStepperOptions::FactorReuse reuse) {
  oc3::OneLine c(t, n, 1e4);
  SystemStepperOptions o;
  o.rho_inf = 0.8;
  o.reuse_factor = reuse;
  SystemStepper<MooringSystem<double>> st(c.sys, o);
  st.initialize(c.s0);
  long k = 0;
  for (auto _ : state) {
    c.surge_to(double(++k) * 0.05);
    st.step(0.05);
    benchmark::DoNotOptimize(st.state().q.data());
  }
  state.counters["newton_per_step"] = double(st.statistics().newton_iterations) / double(k);
  state.counters["factor_per_step"] = double(st.statistics().factorizations) / double(k);
}

// The OC3 chain with fresh factors every step (the baseline) and on the previous step's factor.
void BM_system_step_oc3(benchmark::State& state) {
  system_steps(state, oc3::type(0), 100,
               state.range(0) ? SystemStepperOptions::FactorReuse::on : SystemStepperOptions::FactorReuse::off);
}
BENCHMARK(BM_system_step_oc3)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_system_step_cable(benchmark::State& state) {
  system_steps(state, oc3::type(1e5, "cable"), 50,
               state.range(0) ? SystemStepperOptions::FactorReuse::automatic : SystemStepperOptions::FactorReuse::off);
}
BENCHMARK(BM_system_step_cable)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
