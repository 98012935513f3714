// Modal analysis benchmarks (issue #9): the lowest 10 modes of the OC3 mooring line as a
// cubic-Hermite cable (EI = 1e4 N m^2) of N elements at its static equilibrium on the seabed
// (HermiteStatics, solved once per size; n = 6 N free DOFs, kd = 11):
//   BM_modal_eigen_templated/N   BandGeneralizedEigen, shift-invert subspace estimates
//   BM_modal_eigen_lapack/N      BandGeneralizedEigen, dsbgvx estimates (LAPACK builds)
//   BM_modal_analysis/N          modal_analysis: assembly + templated eigensolver + shapes
// Counters: peak_bytes, the largest heap in use during one solve above what was in use before
// it (workspaces, result); alloc_bytes, everything allocated in one solve. Both grow linearly
// with N. Run with --benchmark_repetitions=3 on a shared machine and compare CPU times.
#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>

#include "cabledyn/modal.hpp"
#include "cabledyn/statics.hpp"

// ---- heap accounting: every operator new of this program ----------------------------------
namespace {
std::atomic<long long> g_live{0}, g_peak{0}, g_total{0};
void* counted_alloc(std::size_t n) {
  void* p = std::malloc(n + 16);
  if (!p) throw std::bad_alloc();
  *static_cast<std::size_t*>(p) = n;
  const long long live = g_live += static_cast<long long>(n);
  g_total += static_cast<long long>(n);
  long long peak = g_peak.load();
  while (live > peak && !g_peak.compare_exchange_weak(peak, live)) {
  }
  return static_cast<char*>(p) + 16;
}
void counted_free(void* p) noexcept {
  if (!p) return;
  char* base = static_cast<char*>(p) - 16;
  g_live -= static_cast<long long>(*reinterpret_cast<std::size_t*>(base));
  std::free(base);
}
}  // namespace

void* operator new(std::size_t n) { return counted_alloc(n); }
void* operator new[](std::size_t n) { return counted_alloc(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_free(p); }

using namespace cabledyn;

namespace {

struct Case {
  std::unique_ptr<Line> line;
  StaticProblem prob;
  VecX<double> q;
  ModalSystem<double> sys;
};

// The OC3 line (Jonkman 2010) as a Hermite cable of N elements at its static equilibrium.
const Case& oc3_cable(int N) {
  static std::map<int, Case> cache;
  auto it = cache.find(N);
  if (it != cache.end()) return it->second;
  LineType t;
  t.name = "OC3 cable";
  t.d = 0.09;
  t.rho_A = 77.7066;
  t.EA = 384.243e6;
  t.EI = 1e4;
  t.Cdn = 1.6;
  t.Cdt = 0.1;
  t.Can = 1.0;
  LineEnd fair, anchor;
  fair.position = Vec3<double>(5.2, 0, -70);
  anchor.position = Vec3<double>(853.87, 0, -320);
  Case c;
  c.line = std::make_unique<Line>("OC3 cable", std::vector<LineSection>{{t, 902.2, N}}, fair, anchor);
  c.prob.seabed_z = -320.0;
  c.prob.seabed.kBot = 1e8;
  HermiteStatics statics(*c.line, c.prob);
  c.q = statics.solve().q;
  c.sys = modal_system<double>(*c.line, c.prob, c.q);
  return cache.emplace(N, std::move(c)).first->second;
}

template <class F>
void measure(benchmark::State& state, F&& solve) {
  long long peak = 0, total = 0;
  for (auto _ : state) {
    const long long live0 = g_live.load(), total0 = g_total.load();
    g_peak = live0;
    auto r = solve();
    benchmark::DoNotOptimize(r);
    peak = g_peak.load() - live0;
    total = g_total.load() - total0;
  }
  state.counters["peak_bytes"] = benchmark::Counter(static_cast<double>(peak));
  state.counters["alloc_bytes"] = benchmark::Counter(static_cast<double>(total));
}

void BM_modal_eigen_templated(benchmark::State& state) {
  const Case& c = oc3_cable(static_cast<int>(state.range(0)));
  BandEigenOptions opt;
  opt.backend = Backend::templated;
  measure(state, [&] { return band_generalized_eigen(c.sys.K, c.sys.M, 10, opt); });
  state.counters["n"] = static_cast<double>(c.sys.K.rows());
}

void BM_modal_eigen_lapack(benchmark::State& state) {
  if (!kLapackAvailable) {
    state.SkipWithError("built without LAPACK");
    return;
  }
  const Case& c = oc3_cable(static_cast<int>(state.range(0)));
  BandEigenOptions opt;
  opt.backend = Backend::lapack;
  measure(state, [&] { return band_generalized_eigen(c.sys.K, c.sys.M, 10, opt); });
  state.counters["n"] = static_cast<double>(c.sys.K.rows());
}

void BM_modal_analysis(benchmark::State& state) {
  const Case& c = oc3_cable(static_cast<int>(state.range(0)));
  ModalOptions opt;
  opt.n_modes = 10;
  opt.eigen.backend = Backend::templated;
  measure(state, [&] { return modal_analysis(*c.line, c.prob, c.q, opt); });
}

}  // namespace

BENCHMARK(BM_modal_eigen_templated)->Arg(250)->Arg(500)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_modal_eigen_lapack)->Arg(250)->Arg(500)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_modal_analysis)->Arg(1000)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
