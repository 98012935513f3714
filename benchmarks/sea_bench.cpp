// Sea-state benchmarks: kinematics of a 200-component irregular sea at 1,000 points, with and
// without the early-stopping sums (spec "Waves"), side by side in one run; the elevation sum
// alone as the baseline; the same through the FluidField interface into a HeldField; a
// stream-function wave; a 1800-component sea from an elevation history. Report: ns per point
// (counter ns_per_point, printed with Google Benchmark's suffixes: 6.5k = 6500 ns).
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "cabledyn/sea.hpp"

using namespace cabledyn;

namespace {

constexpr double kDepth = 200;
constexpr int kPoints = 1000;

// JONSWAP Hs = 6 m, Tp = 12 s, gamma 3.3, 200 components, WaveSeed 1, 200 m deep, Wheeler on.
const LinearSea& sea() {
  static const LinearSea s = [] {
    SpectralTrain tr;
    tr.Hs = 6;
    tr.Tp = 12;
    return LinearSea(synthesize_train(tr, 1), kDepth, kGravity);
  }();
  return s;
}

// 1000 points along a line in the vertical plane: z from -1 m to the bed (range(0) = 0) or
// over the lower half of the water column (range(0) = 1), x from 0 to 500 m.
std::vector<Eigen::Vector3d> points(int lower_half) {
  std::vector<Eigen::Vector3d> p;
  const double top = lower_half ? -kDepth / 2 : -1.0;
  for (int i = 0; i < kPoints; ++i) {
    const double s = (i + 0.5) / kPoints;
    p.emplace_back(500 * s, 10.0, top + s * (-kDepth + 1 - top));
  }
  return p;
}

void set_counters(benchmark::State& state) {
  state.counters["ns_per_point"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * kPoints * 1e-9, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_irregular_kinematics(benchmark::State& state, bool early_stop) {
  LinearSea s = sea();
  s.set_early_stop(early_stop);
  const auto pts = points(static_cast<int>(state.range(0)));
  double t = 100;
  long terms = 0;
  for (auto _ : state) {
    for (const auto& x : pts) {
      const auto k = s.kinematics<double>(x, t);
      benchmark::DoNotOptimize(k.u.data());
      terms += k.terms;
    }
    t += 0.1;
  }
  set_counters(state);
  state.counters["terms_per_point"] = static_cast<double>(terms) / (static_cast<double>(state.iterations()) * kPoints);
}

void BM_irregular_kinematics_early_stop(benchmark::State& state) { BM_irregular_kinematics(state, true); }
void BM_irregular_kinematics_full(benchmark::State& state) { BM_irregular_kinematics(state, false); }
BENCHMARK(BM_irregular_kinematics_early_stop)->Arg(0)->Arg(1);
BENCHMARK(BM_irregular_kinematics_full)->Arg(0)->Arg(1);

// A sea reduced from an elevation history (spec "Waves": WaveKinMod 1, components up to
// WvHiCOff = 0.5 Hz): 3600 s of the JONSWAP sea above sampled at 0.25 s -> 1800 components,
// more than kinematics() caches, so skipped components save their cos, sin and exp.
const LinearSea& history_sea() {
  static const LinearSea s = [] {
    std::vector<double> eta(14400);
    for (std::size_t n = 0; n < eta.size(); ++n) eta[n] = sea().elevation(0.0, 0.0, 0.25 * static_cast<double>(n));
    return LinearSea(components_from_history(eta, 0.25, 0.0, 0.5), kDepth, kGravity);
  }();
  return s;
}

void BM_history_kinematics(benchmark::State& state, bool early_stop) {
  LinearSea s = history_sea();
  s.set_early_stop(early_stop);
  const auto pts = points(static_cast<int>(state.range(0)));
  double t = 100;
  long terms = 0;
  for (auto _ : state) {
    for (const auto& x : pts) {
      const auto k = s.kinematics<double>(x, t);
      benchmark::DoNotOptimize(k.u.data());
      terms += k.terms;
    }
    t += 0.1;
  }
  set_counters(state);
  state.counters["terms_per_point"] = static_cast<double>(terms) / (static_cast<double>(state.iterations()) * kPoints);
}
void BM_history_kinematics_early_stop(benchmark::State& state) { BM_history_kinematics(state, true); }
void BM_history_kinematics_full(benchmark::State& state) { BM_history_kinematics(state, false); }
BENCHMARK(BM_history_kinematics_early_stop)->Arg(0)->Arg(1);
BENCHMARK(BM_history_kinematics_full)->Arg(0)->Arg(1);

// Baseline: the elevation sum alone (every component, one cos each).
void BM_irregular_elevation(benchmark::State& state) {
  const auto pts = points(0);
  double t = 100;
  for (auto _ : state) {
    for (const auto& x : pts) benchmark::DoNotOptimize(sea().elevation(x(0), x(1), t));
    t += 0.1;
  }
  set_counters(state);
}
BENCHMARK(BM_irregular_elevation);

// Through the FluidField interface into a HeldField (virtual call, current added).
void BM_irregular_held_field(benchmark::State& state) {
  const WaveField f(sea(), Current::uniform(Eigen::Vector3d(0.5, 0, 0)));
  const auto pts = points(0);
  HeldField held(pts.size());
  double t = 100;
  for (auto _ : state) {
    held.sample(f, pts, t);
    benchmark::DoNotOptimize(held[0].u.data());
    t += 0.1;
  }
  set_counters(state);
}
BENCHMARK(BM_irregular_held_field);

// A stream-function wave (N = 20), H = 12 m, T = 12 s, in 50 m.
void BM_stream_kinematics(benchmark::State& state) {
  static const StreamWave w(12.0, 12.0, 0.0, 50.0, kGravity);
  std::vector<Eigen::Vector3d> pts;
  for (int i = 0; i < kPoints; ++i) pts.emplace_back(0.3 * i, 0.0, -1 - 0.045 * i);
  double t = 10;
  for (auto _ : state) {
    for (const auto& x : pts) benchmark::DoNotOptimize(w.kinematics<double>(x, t).u.data());
    t += 0.1;
  }
  set_counters(state);
}
BENCHMARK(BM_stream_kinematics);

// Solving a stream-function wave (setup cost).
void BM_stream_solve(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(StreamWave(12.0, 12.0, 0.0, 50.0, kGravity).celerity());
}
BENCHMARK(BM_stream_solve)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
