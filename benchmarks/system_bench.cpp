// Systems: one generalised-alpha step of the OC3 chain (100 EI = 0 elements, 902.2 m, 320 m
// depth) under a 2 m / 10 s fairlead surge (dt = 0.05 s) as a one-line MooringSystem through
// the SystemStepper (full Newton on the bordered Jacobian), beside the same step of the
// single-line march LineDynamics (the baseline, measured in the same run). The same line
// with bending (EI 1e5 N m^2, 50 cubic-Hermite elements) through the SystemStepper with the
// previous step's factor reused (SystemStepperOptions::reuse_factor automatic, opt-in: on for a
// finite-EI line) and without (the baseline), and through LineDynamics.
//   BM_system_step_oc3/100 vs BM_line_step_oc3/100: time per step; counters: Newton
//   iterations per step.
//   BM_system_step_cable/1 (reuse) vs BM_system_step_cable/0 (fresh) vs BM_line_step_cable:
//   time per step; counters: Newton iterations and factorisations per step.
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

// The single-line march of a line of type t in n elements (EI = 0: the tension statics'
// equilibrium, else the Hermite statics') under the surge, time per step.
void line_steps(benchmark::State& state, const LineType& t, int n) {
  Line line(t.name, {{t, 902.2, n}}, LineEnd{kFair, EndRotation::free, 0, {}}, LineEnd{kAnchor, EndRotation::free, 0, {}},
            env320());
  StaticProblem p;
  p.seabed_z = -320;
  p.seabed.kBot = 1e5;
  const VecX<double> q0 = t.EI > 0 ? HermiteStatics(line, p).solve().q : TensionStatics(line, p).solve().q;
  DynamicOptions o;
  o.seabed_z = -320;
  o.seabed.kBot = 1e5;
  o.seabed.cBot = 1e4;
  o.rho_inf = 0.8;
  LineDynamics dyn(line, o);
  EndMotions e;
  e[0].x = kFair;
  e[1].x = kAnchor;
  dyn.initialize(0, q0, e);
  long k = 0;
  for (auto _ : state) {
    e[0] = surge(++k, 0.05);
    dyn.step(0.05, e);
    benchmark::DoNotOptimize(dyn.state().q.data());
  }
  state.counters["newton_per_step"] = double(dyn.statistics().newton_iterations) / double(k);
  state.counters["factor_per_step"] = double(dyn.statistics().factorizations) / double(k);
}

// The same line as a one-line MooringSystem stepped by the SystemStepper (factor reuse as
// asked), time per step.
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

void BM_line_step_oc3(benchmark::State& state) { line_steps(state, oc3(), static_cast<int>(state.range(0))); }
BENCHMARK(BM_line_step_oc3)->Arg(100)->Unit(benchmark::kMicrosecond);

void BM_system_step_oc3(benchmark::State& state) {
  system_steps(state, oc3(), static_cast<int>(state.range(0)), SystemStepperOptions::FactorReuse::off);
}
BENCHMARK(BM_system_step_oc3)->Arg(100)->Unit(benchmark::kMicrosecond);

void BM_line_step_cable(benchmark::State& state) { line_steps(state, oc3_cable(), 50); }
BENCHMARK(BM_line_step_cable)->Unit(benchmark::kMicrosecond);

void BM_system_step_cable(benchmark::State& state) {
  system_steps(state, oc3_cable(), 50,
               state.range(0) ? SystemStepperOptions::FactorReuse::automatic : SystemStepperOptions::FactorReuse::off);
}
BENCHMARK(BM_system_step_cable)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
