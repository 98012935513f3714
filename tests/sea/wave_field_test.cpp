// A sea state as one FluidField: waves (ramped) plus a current (not ramped), the ramp rate in
// the acceleration (duals), dispatch over the wave models, named errors. Spec "Waves" (rampTime)
// and "Currents".
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/sea/irregular.hpp"
#include "cabledyn/sea/wave_field.hpp"
#include "support/constants.hpp"

using namespace cabledyn;

namespace {
using cabledyn::test_support::g;
}

TEST_CASE("wave field: the fluid velocity is the current plus the waves", "[sea][wave_field]") {
  const LinearSea airy = LinearSea::regular(2.0, 8.0, 0.5, 40.0, g);
  const Current cur = Current::uniform(Eigen::Vector3d(0.3, -0.1, 0));
  const WaveField f(airy, cur, Ramp{}, 1000.0);
  const FluidField& base = f;
  for (const double t : {0.0, 3.3}) {
    const Eigen::Vector3d x(4, 1, -6);
    const auto k = airy.kinematics<double>(x, t);
    const FluidSample s = base.sample(x, t);
    CHECK((s.u - (k.u + Eigen::Vector3d(0.3, -0.1, 0))).norm() < 1e-15);
    CHECK(s.a == k.a);
    CHECK(s.eta == k.eta);
    CHECK(s.p_dyn == 1000.0 * k.pd);
    CHECK(s.wet);
    CHECK(base.elevation(4, 1, t) == k.eta);
    CHECK((base.current(x) - Eigen::Vector3d(0.3, -0.1, 0)).norm() == 0);
    CHECK(base.velocity(x, t) == s.u);
    CHECK(base.acceleration(x, t) == s.a);
    CHECK(base.dynamic_pressure(x, t) == s.p_dyn);
  }
  // above the surface: no waves, the current held
  const double eta = f.elevation(0, 0, 0);
  const FluidSample air = f.sample(Eigen::Vector3d(0, 0, eta + 0.2), 0.0);
  CHECK_FALSE(air.wet);
  CHECK((air.u - Eigen::Vector3d(0.3, -0.1, 0)).norm() == 0);
  CHECK(air.a.norm() == 0);
  // no waves: still water with the current
  const WaveField calm(std::monostate{}, cur);
  CHECK(calm.sample(Eigen::Vector3d(0, 0, -1), 5.0).u == Eigen::Vector3d(0.3, -0.1, 0));
  CHECK(calm.elevation(0, 0, 5.0) == 0);
  CHECK_FALSE(calm.sample(Eigen::Vector3d(0, 0, 1), 5.0).wet);
  // a stream wave through the same interface
  const StreamWave sw(3.0, 9.0, 0.0, 20.0, g);
  const WaveField fs(sw);
  CHECK(fs.sample(Eigen::Vector3d(2, 0, -5), 1.0).u == sw.kinematics<double>(Eigen::Vector3d(2, 0, -5), 1.0).u);
}

TEST_CASE("wave field: the ramp scales the waves, not the current, and adds its rate",
          "[sea][wave_field][ramp][autodiff]") {
  const Ramp ramp{12.0};
  const Current cur = Current::profile({-30.0, 0.0}, {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(0.5, 0, 0)});
  for (const bool stream : {false, true}) {
    const WaveField f = stream ? WaveField(StreamWave(3.0, 8.0, 0.2, 30.0, g), cur, ramp)
                               : WaveField(LinearSea::regular(3.0, 8.0, 0.2, 30.0, g, {.wheeler = false}), cur, ramp);
    const WaveField full = stream ? WaveField(StreamWave(3.0, 8.0, 0.2, 30.0, g), cur)
                                  : WaveField(LinearSea::regular(3.0, 8.0, 0.2, 30.0, g, {.wheeler = false}), cur);
    const Eigen::Vector3d x(3, 2, -8);
    // before the ramp: the current only
    const FluidSample s0 = f.sample(x, 0.0);
    CHECK((s0.u - cur.velocity(x)).norm() == 0);
    CHECK(s0.eta == 0);
    CHECK(s0.a.norm() == 0);
    // half way: half the waves
    const FluidSample sh = f.sample(x, 6.0), sf = full.sample(x, 6.0);
    CHECK(std::fabs(sh.eta - 0.5 * sf.eta) < 1e-14);
    CHECK(((sh.u - cur.velocity(x)) - 0.5 * (sf.u - cur.velocity(x))).norm() < 1e-14);
    // after it: the full sea
    CHECK((f.sample(x, 20.0).u - full.sample(x, 20.0).u).norm() == 0);
    // the acceleration is the time derivative of the velocity, ramp rate included (duals)
    using D = Dual<double, 1>;
    for (const double t : {2.0, 6.0, 11.0}) {
      const auto k = f.kinematics(Vec3<D>(D(3), D(2), D(-8)), D(t, 1, 0));
      const FluidSample s = f.sample(x, t);
      for (int i = 0; i < 3; ++i) CHECK(std::fabs(k.u(i).derivatives()(0) - s.a(i)) <= 1e-13 * (s.a.norm() + 1));
      CHECK(std::fabs(f.surface(D(3), D(2), D(t, 1, 0)).derivatives()(0) -
                      (f.elevation(3, 2, t + 1e-6) - f.elevation(3, 2, t - 1e-6)) / 2e-6) < 1e-7);
    }
  }
}

TEMPLATE_TEST_CASE("wave field: scalar-generic kinematics (double, long double, duals)",
                   "[sea][wave_field][autodiff]", double, long double) {
  using V = TestType;
  using D = Dual<V, 1>;
  const Current cur = Current::seastate(SeaStateCurrent{0.8, 0.3, 20.0, 0.2, 1.2, 0.1, -0.5}, 40.0);
  SpectralTrain tr;
  tr.Hs = 3;
  tr.Tp = 9;
  tr.components = 30;
  const WaveField f(LinearSea(synthesize_train(tr, 5, g), 40.0, g, {.wheeler = false}), cur, Ramp{25.0});
  for (const V t : {V(4), V(18), V(60)}) {
    const Vec3<V> x(V(7), V(-2), V(-13));
    const auto k = f.kinematics(x, t);
    const FluidSample s = f.sample(x.template cast<double>(), static_cast<double>(t));
    CHECK((k.u.template cast<double>() - s.u).norm() <= 1e-14 * (s.u.norm() + 1));
    const auto kd = f.kinematics(Vec3<D>(D(x(0)), D(x(1)), D(x(2))), D(t, 1, 0));
    for (int i = 0; i < 3; ++i) CHECK(std::fabs(kd.u(i).derivatives()(0) - k.a(i)) <= V(1e-13) * (k.a.norm() + 1));
  }
}

TEST_CASE("wave field: bad input fails with a named error", "[sea][wave_field][errors]") {
  const LinearSea airy = LinearSea::regular(2.0, 8.0, 0.0, 40.0, g);
  CHECK_THROWS_AS(WaveField(airy, Current::none(), Ramp{-1.0}), InputError);
  CHECK_THROWS_AS(WaveField(airy, Current::none(), Ramp{}, -1.0), InputError);
  SeaStateCurrent p;
  p.ss_speed = 1;
  CHECK_THROWS_AS(WaveField(airy, Current::seastate(p, 50.0)), InputError);  // depth 50 vs 40
  CHECK_NOTHROW(WaveField(airy, Current::seastate(p, 40.0)));
  Environment env;
  CHECK(wave_depth(env) == kDeepWater);
  env.depth = 75.0;
  CHECK(wave_depth(env) == 75.0);
}
