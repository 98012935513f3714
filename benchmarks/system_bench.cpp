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

using namespace cabledyn;

namespace {

const Vec3<double> kFair{5.2, 0, -70}, kAnchor{853.87, 0, -320};

LineType oc3() {
  LineType t;
  t.name = "OC3";
  t.d = 0.09;
  t.rho_A = 77.7066;
  t.EA = 384.243e6;
  t.BA = -0.8;
  t.Cdn = 1.6;
  t.Cdt = 0.1;
  t.Can = 1.0;
  return t;
}

Environment env320() {
  Environment e;
  e.depth = 320;
  return e;
}

// The fairlead's surge at step k, ramped in over 10 s.
EndMotion surge(long k, double dt) {
  const double t = k * dt, A = 2, w = 2 * kPi / 10;
  const double r = std::min(1.0, t / 10), r1 = t < 10 ? 0.1 : 0.0;
  const double sn = std::sin(w * t), cs = std::cos(w * t);
  EndMotion m;
  m.x = kFair;
  m.x(0) += A * r * sn;
  m.v(0) = A * (r1 * sn + r * w * cs);
  m.a(0) = A * (2 * r1 * w * cs - r * w * w * sn);
  return m;
}

// The line of type t in n elements as a one-line MooringSystem stepped by the SystemStepper
// (factor reuse as asked), time per step.
void system_steps(benchmark::State& state, const LineType& t, int n, SystemStepperOptions::FactorReuse reuse) {
  const Environment env = env320();
  SeabedModel bed;
  bed.z = -320;
  bed.params.kBot = 1e5;
  bed.params.cBot = 1e4;
  MooringSystem<double> sys(env, t.name);
  PointModel<double> f, a;
  f.kind = PointKind::coupled;
  f.r = kFair;
  a.kind = PointKind::fixed;
  a.r = kAnchor;
  const int pf = sys.add_point(f), pa = sys.add_point(a);
  sys.add_line(LineModel<double>::from_line(Line(t.name, {{t, 902.2, n}}, LineEnd{kFair}, LineEnd{kAnchor}, env), bed), pf, pa);
  sys.renumber();
  auto s = sys.initial_state();
  solve_statics(sys, s);
  SystemStepperOptions o;
  o.rho_inf = 0.8;
  o.reuse_factor = reuse;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(s);
  long k = 0;
  for (auto _ : state) {
    const EndMotion m = surge(++k, 0.05);
    sys.set_coupled(pf, m.x, m.v, m.a);
    st.step(0.05);
    benchmark::DoNotOptimize(st.state().q.data());
  }
  state.counters["newton_per_step"] = double(st.statistics().newton_iterations) / double(k);
  state.counters["factor_per_step"] = double(st.statistics().factorizations) / double(k);
}

// The OC3 line with bending: EI 1e5 N m^2.
LineType oc3_cable() {
  LineType t = oc3();
  t.name = "cable";
  t.EI = 1e5;
  return t;
}

// The OC3 chain with fresh factors every step (the baseline) and on the previous step's factor.
void BM_system_step_oc3(benchmark::State& state) {
  system_steps(state, oc3(), 100,
               state.range(0) ? SystemStepperOptions::FactorReuse::on : SystemStepperOptions::FactorReuse::off);
}
BENCHMARK(BM_system_step_oc3)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_system_step_cable(benchmark::State& state) {
  system_steps(state, oc3_cable(), 50,
               state.range(0) ? SystemStepperOptions::FactorReuse::automatic : SystemStepperOptions::FactorReuse::off);
}
BENCHMARK(BM_system_step_cable)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
