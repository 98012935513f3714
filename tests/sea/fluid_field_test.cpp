// The FluidField interface: still water, a steady current, the held field (all-or-nothing
// sampling), and evaluations that allocate nothing. Spec "Currents" (the host samples and
// holds the field over a step) and "Time integration" (held fluid fields).
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>
#include <vector>

#include "cabledyn/sea.hpp"
#include "support/constants.hpp"

// Count every allocation through operator new (std containers use it; the sea code uses no
// dynamic Eigen types when it evaluates). The replacement pairs malloc with free; GCC's
// heuristic sees free() on memory from operator new once it inlines them, hence the pragma.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
namespace {
std::atomic<long> g_news{0};
}  // namespace
// Every unaligned form is replaced, so that each allocation pairs malloc with free (under
// AddressSanitizer too; the aligned forms keep the library's own pairs).
void* operator new(std::size_t n) {
  ++g_news;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  ++g_news;
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

using namespace cabledyn;

namespace {
using cabledyn::test_support::g;
}

TEST_CASE("fluid field: still water and a steady current", "[sea][fluid_field]") {
  const StillWater still;
  const FluidField& f = still;
  const FluidSample s = f.sample(Eigen::Vector3d(1, 2, -3), 5.0);
  CHECK(s.u.norm() == 0);
  CHECK(s.a.norm() == 0);
  CHECK(s.eta == 0);
  CHECK(s.p_dyn == 0);
  CHECK(s.wet);
  CHECK_FALSE(f.sample(Eigen::Vector3d(1, 2, 0.5), 5.0).wet);
  CHECK(f.elevation(3, 4, 1) == 0);
  CHECK(f.current(Eigen::Vector3d(0, 0, -1)).norm() == 0);

  const CurrentField cur(Current::profile({-50.0, 0.0}, {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(1.0, 0.5, 0)}));
  const FluidField& fc = cur;
  const FluidSample c = fc.sample(Eigen::Vector3d(0, 0, -10), 2.0);
  CHECK((c.u - Eigen::Vector3d(0.8, 0.4, 0)).norm() < 1e-15);
  CHECK(c.a.norm() == 0);
  CHECK((fc.velocity(Eigen::Vector3d(0, 0, -10), 2.0) - c.u).norm() == 0);
  CHECK((fc.current(Eigen::Vector3d(0, 0, -10)) - c.u).norm() == 0);
  CHECK(std::fabs(fc.current_gradient(Eigen::Vector3d(0, 0, -10))(0, 2) - 1.0 / 50) < 1e-17);
}

TEST_CASE("fluid field: a held field samples all points or none", "[sea][fluid_field][held]") {
  // a regular wave whose trough falls below the bed at x = L/2 (a = 1.5 m over 1 m): sampling
  // there fails, and the held step must survive it
  const WaveField ok(LinearSea::regular(0.5, 8.0, 0.0, 1.0, g));
  const WaveField bad(LinearSea::regular(3.0, 8.0, 0.0, 1.0, g));
  std::vector<Eigen::Vector3d> pts = {{0, 0, -0.5}, {5, 0, -0.9}, {10, 0, -0.2}};
  HeldField held(3);
  held.sample(ok, pts, 1.0);
  CHECK(held.time() == 1.0);
  for (std::size_t i = 0; i < 3; ++i) {
    const FluidSample s = ok.sample(pts[i], 1.0);
    CHECK(held[i].u == s.u);
    CHECK(held[i].a == s.a);
    CHECK(held[i].eta == s.eta);
    CHECK(held[i].p_dyn == s.p_dyn);
  }
  const std::vector<FluidSample> before = held.samples();
  const double Lbad = 2 * kPi / std::get<LinearSea>(bad.waves()).components()[0].k;
  pts[2] = Eigen::Vector3d(Lbad / 2, 0, -0.95);  // under the trough at t = 0
  CHECK_THROWS_AS(held.sample(bad, pts, 0.0), DomainError);
  CHECK(held.time() == 1.0);
  for (std::size_t i = 0; i < 3; ++i) CHECK(held[i].u == before[i].u);
  // sampling from a DOF vector through a functor
  Eigen::VectorXd q(9);
  q << 0, 0, -0.5, 5, 0, -0.9, 10, 0, -0.2;
  held.sample_with(ok, [&](std::size_t i) { return Eigen::Vector3d(q.segment<3>(3 * static_cast<Eigen::Index>(i))); }, 2.0);
  CHECK(held[1].u == ok.sample(Eigen::Vector3d(5, 0, -0.9), 2.0).u);
  // a host sets its own samples
  FluidSample s;
  s.u = Eigen::Vector3d(1, 2, 3);
  held.set(2, s);
  held.set_time(3.0);
  CHECK(held[2].u == s.u);
  CHECK(held.time() == 3.0);
  CHECK_THROWS_AS(held.set(3, s), InputError);
  CHECK_THROWS_AS(held.sample(ok, std::vector<Eigen::Vector3d>(2), 0.0), InputError);
}

TEST_CASE("fluid field: sampling allocates nothing", "[sea][fluid_field][alloc]") {
  SpectralTrain tr;
  tr.Hs = 5;
  tr.Tp = 11;
  tr.s = 6;
  tr.components = 40;
  tr.directions = 5;
  const WaveField irregular(LinearSea(synthesize_train(tr, 1, g), 120.0, g),
                            Current::profile({-120.0, 0.0}, {Eigen::Vector3d(0.1, 0, 0), Eigen::Vector3d(0.6, 0.2, 0)}),
                            Ramp{10.0});
  const WaveField stream(StreamWave(4.0, 9.0, 0.3, 30.0, g),
                         Current::seastate(SeaStateCurrent{0.5, 0.0, 20.0, 0.2, 1.0, 0.0, 0.0}, 30.0));
  const StillWater still;
  std::vector<Eigen::Vector3d> pts;
  for (int i = 0; i < 50; ++i) pts.emplace_back(3.0 * i, -1.0 * i, -0.5 * i - 1);
  HeldField held(pts.size());
  const long before = g_news.load();
  double acc = 0;
  for (const FluidField* f : {static_cast<const FluidField*>(&irregular), static_cast<const FluidField*>(&stream),
                              static_cast<const FluidField*>(&still)}) {
    for (const double t : {0.0, 4.5, 30.0}) {
      held.sample(*f, pts, t);
      acc += held[7].u(0) + f->elevation(1, 2, t) + f->current_gradient(pts[3]).norm();
    }
  }
  const auto k = std::get<LinearSea>(irregular.waves()).kinematics<double>(pts[5], 12.0);
  acc += k.u(0);
  CHECK(g_news.load() == before);
  CHECK(std::isfinite(acc));
  // the counter does count
  std::vector<double> v(3);
  CHECK(g_news.load() > before);
}
