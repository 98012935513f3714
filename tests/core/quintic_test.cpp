// The quintic Hermite interpolant of given position, velocity and acceleration at both ends
// of an interval (spec "Prescribed motion", "Adaptive step subdivision").
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff/dual.hpp"
#include "cabledyn/core.hpp"

using namespace cabledyn;

namespace {

// A quintic in t and its derivatives (dyadic coefficients: exact in every type).
template <class S>
S p5(S t) {
  return S(0.25) + t * (S(-1.25) + t * (S(0.75) + t * (S(2.125) + t * (S(-0.875) + t * S(0.25)))));
}
template <class S>
S d5(S t) {
  return S(-1.25) + t * (S(1.5) + t * (S(6.375) + t * (S(-3.5) + t * S(1.25))));
}
template <class S>
S dd5(S t) {
  return S(1.5) + t * (S(12.75) + t * (S(-10.5) + t * S(5)));
}

}  // namespace

TEMPLATE_TEST_CASE("quintic_hermite reproduces a quintic on an interval", "[core][quintic]", double, long double) {
  using S = TestType;
  const S t0 = S(0.4), h = S(0.75);
  const S x0 = p5(t0), v0 = d5(t0), a0 = dd5(t0), x1 = p5(t0 + h), v1 = d5(t0 + h), a1 = dd5(t0 + h);
  for (int k = 0; k <= 8; ++k) {
    const S s = S(k) / S(8), t = t0 + s * h;
    S x, v, a;
    quintic_hermite(x0, v0, a0, x1, v1, a1, h, s, x, v, a);
    const S tol = S(64) * std::numeric_limits<S>::epsilon();
    CHECK(std::fabs(x - p5(t)) <= tol);
    CHECK(std::fabs(v - d5(t)) <= tol * S(8));
    CHECK(std::fabs(a - dd5(t)) <= tol * S(64));
  }
  S x, v, a;
  quintic_hermite(x0, v0, a0, x1, v1, a1, h, S(0), x, v, a);
  CHECK(x == x0);  // the start exactly
}

TEST_CASE("quintic_hermite: vector-valued; its velocity and acceleration are the derivatives of its position in "
          "duals",
          "[core][quintic][autodiff]") {
  // A trajectory that is not a quintic: sin on one axis, exp on another.
  const double h = 0.5;
  auto at = [](double t) { return Vec3<double>(std::sin(t), std::exp(-t), 2 * t); };
  auto vel = [](double t) { return Vec3<double>(std::cos(t), -std::exp(-t), 2); };
  auto acc = [](double t) { return Vec3<double>(-std::sin(t), std::exp(-t), 0); };
  using D = Dual<double, 1>;
  const double s = 0.37;
  Vec3<D> x0, v0, a0, x1, v1, a1, x, v, a;
  for (int c = 0; c < 3; ++c) {
    x0(c) = D(at(0)(c)), v0(c) = D(vel(0)(c)), a0(c) = D(acc(0)(c));
    x1(c) = D(at(h)(c)), v1(c) = D(vel(h)(c)), a1(c) = D(acc(h)(c));
  }
  quintic_hermite(x0, v0, a0, x1, v1, a1, D(h), make_variable<D>(s, 1, 0), x, v, a);
  for (int c = 0; c < 3; ++c) {
    // d x / ds = h v, d v / ds = h a.
    CHECK(x(c).derivatives()(0) == Approx(h * value_of(v(c))).epsilon(1e-12).margin(1e-12));
    CHECK(v(c).derivatives()(0) == Approx(h * value_of(a(c))).epsilon(1e-12).margin(1e-12));
    // Close to the trajectory it interpolates: the error of a quintic Hermite interpolant is
    // h^6 max|x^(6)| s^3 (1 - s)^3 / 720.
    CHECK(std::fabs(value_of(x(c)) - at(s * h)(c)) <= std::pow(h, 6) / 720 * 0.02);
  }
}
