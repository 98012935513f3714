// The start-up ramp r(t) = 1/2 (1 - cos(pi t / T_r)) and its rate. Spec "Waves" (rampTime).
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/sea/ramp.hpp"

using namespace cabledyn;

TEMPLATE_TEST_CASE("ramp: values, continuity and rate by duals", "[sea][ramp]", double, long double) {
  using V = TestType;
  const Ramp none{};
  CHECK(none.factor(V(-3)) == V(1));
  CHECK(none.factor(V(7)) == V(1));
  CHECK(none.rate(V(7)) == V(0));
  const Ramp r{20.0};
  CHECK(r.factor(V(-1)) == V(0));
  CHECK(r.factor(V(0)) == V(0));
  CHECK(r.factor(V(20)) == V(1));
  CHECK(r.factor(V(35)) == V(1));
  CHECK(std::fabs(r.factor(V(10)) - V(0.5)) < 1e-15);
  CHECK(std::fabs(r.factor(V(5)) - V(0.5) * (1 - std::cos(V(kPi) / 4))) < 1e-15);
  // continuous value and rate at both ends of the ramp
  const V d = V(1e-7);
  CHECK(r.factor(d) < 1e-15);
  CHECK(std::fabs(r.factor(V(20) - d) - 1) < 1e-15);
  CHECK(std::fabs(r.rate(d)) < 1e-8);
  CHECK(std::fabs(r.rate(V(20) - d)) < 1e-8);
  // the rate is dr/dt (duals)
  using D = Dual<V, 1>;
  for (const V t : {V(0.5), V(4), V(10), V(17.3)}) {
    const D f = r.factor(D(t, 1, 0));
    CHECK(std::fabs(f.derivatives()(0) - r.rate(t)) < 1e-15);
    CHECK(f.value() == r.factor(t));
  }
}

TEST_CASE("ramp: a negative or non-finite rampTime is a named error", "[sea][ramp][errors]") {
  CHECK_THROWS_AS(Ramp{-1.0}.validate(), InputError);
  CHECK_THROWS_AS(Ramp{std::nan("")}.validate(), InputError);
  CHECK_NOTHROW(Ramp{0.0}.validate());
}
