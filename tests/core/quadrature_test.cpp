// Gauss-Legendre rules of order 1..6 (spec "The cubic-Hermite bending element", Quadrature).
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff/dual.hpp"
#include "cabledyn/core/quadrature.hpp"

using namespace cabledyn;

namespace {
template <class T>
T ipow(T x, int k) {
  T r(1);
  for (int i = 0; i < k; ++i) r *= x;
  return r;
}
long double factorial(int n) {
  long double f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}
}  // namespace

TEMPLATE_TEST_CASE("Gauss-Legendre n points integrate degree 2n-1 exactly, not 2n", "[core][quadrature]",
                   double, long double) {
  using T = TestType;
  const T eps = std::numeric_limits<T>::epsilon();
  for (int n = 1; n <= kMaxGaussOrder; ++n) {
    const GaussRule<T> rule = gauss_legendre<T>(n);
    REQUIRE(rule.n == n);
    for (int k = 0; k <= 2 * n - 1; ++k) {
      const T q = rule.integrate([k](T x) { return ipow(x, k); });
      const T exact = T(1) / T(k + 1);
      INFO("n = " << n << ", degree " << k);
      CHECK(std::fabs(q - exact) <= 4 * eps * exact);
    }
    // Degree 2n: the remainder of the rule on [0, 1] for x^(2n) is
    // (n!)^4 / ((2n + 1) ((2n)!)^2) (Abramowitz & Stegun 25.4.30 mapped to [0, 1]).
    const T q = rule.integrate([n](T x) { return ipow(x, 2 * n); });
    const T exact = T(1) / T(2 * n + 1);
    const long double remainder =
        std::pow(factorial(n), 4) / ((2 * n + 1) * factorial(2 * n) * factorial(2 * n));
    INFO("n = " << n << ", degree " << 2 * n);
    CHECK(exact - q > 0);
    CHECK(std::fabs((exact - q) - T(remainder)) <= 64 * eps);
    CHECK(std::fabs(exact - q) > 1e3 * eps);
  }
}

TEST_CASE("Gauss-Legendre nodes are roots of P_n to long double precision", "[core][quadrature]") {
  for (int n = 1; n <= kMaxGaussOrder; ++n) {
    const auto rule = gauss_legendre<long double>(n);
    long double wsum = 0;
    for (int i = 0; i < n; ++i) {
      const long double x = 2 * rule.xi[i] - 1;  // to [-1, 1]
      long double p0 = 1, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const long double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      CHECK(std::fabs(p1) < 8 * std::numeric_limits<long double>::epsilon());
      // Symmetry about 1/2.
      CHECK(std::fabs(rule.xi[i] + rule.xi[n - 1 - i] - 1) <= 2 * std::numeric_limits<long double>::epsilon());
      CHECK(rule.w[i] == rule.w[n - 1 - i]);
      wsum += rule.w[i];
    }
    CHECK(std::fabs(wsum - 1) <= 4 * std::numeric_limits<long double>::epsilon());
  }
}

TEST_CASE("Gauss-Legendre rule on [a, b] and for duals", "[core][quadrature]") {
  const auto rule = gauss_legendre<double>(4, 2.0, 5.0);
  // integral_2^5 x^7 dx = (5^8 - 2^8) / 8
  const double q = rule.integrate([](double x) { return std::pow(x, 7); });
  CHECK(q == Approx((std::pow(5.0, 8) - std::pow(2.0, 8)) / 8).epsilon(1e-14));

  // The rule in a dual type differentiates the integral with respect to a parameter.
  using D = Dual<double, 1>;
  const D p(1.5, 1, 0);
  const auto rd = gauss_legendre<D>(3);
  const D I = rd.integrate([&](const D& x) { return D(p * x * x * x); });  // p / 4
  CHECK(I.value() == Approx(1.5 / 4).epsilon(1e-15));
  CHECK(I.derivatives()(0) == Approx(0.25).epsilon(1e-15));
}

TEST_CASE("Gauss-Legendre order outside 1..6 is a named error", "[core][quadrature][errors]") {
  CHECK_THROWS_AS(gauss_legendre<double>(0), InputError);
  CHECK_THROWS_AS(gauss_legendre<double>(7), InputError);
  try {
    gauss_legendre<double>(7);
  } catch (const InputError& e) {
    CHECK(e.object() == "Gauss-Legendre rule");
    CHECK(e.quantity() == "order");
    CHECK(e.value() == "7");
    CHECK(e.limit() == "in [1, 6]");
    CHECK(std::string(e.what()) == "InputError: Gauss-Legendre rule: order = 7 (limit: in [1, 6])");
  }
}

TEMPLATE_TEST_CASE("The ten-point Gauss-Legendre rule integrates degree 19 exactly, not 20; its nodes are roots of P_10",
                   "[core][quadrature]", double, long double) {
  using T = TestType;
  const T eps = std::numeric_limits<T>::epsilon();
  const int n = kGaussOrder10;
  const GaussRule<T, kGaussOrder10> rule = gauss_legendre<T, kGaussOrder10>(n);
  REQUIRE(rule.n == n);
  for (int k = 0; k <= 2 * n - 1; ++k) {
    const T q = rule.integrate([k](T x) { return ipow(x, k); });
    const T exact = T(1) / T(k + 1);
    INFO("degree " << k);
    CHECK(std::fabs(q - exact) <= 8 * eps * exact);
  }
  const T q = rule.integrate([n](T x) { return ipow(x, 2 * n); });
  const long double remainder = std::pow(factorial(n), 4) / ((2 * n + 1) * factorial(2 * n) * factorial(2 * n));
  CHECK(std::fabs((T(1) / T(2 * n + 1) - q) - T(remainder)) <= 64 * eps);
  T wsum = 0;
  for (int i = 0; i < n; ++i) {
    const long double x = 2 * static_cast<long double>(rule.xi[static_cast<std::size_t>(i)]) - 1;
    long double p0 = 1, p1 = x;
    for (int k = 2; k <= n; ++k) {
      const long double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
      p0 = p1;
      p1 = p2;
    }
    CHECK(std::fabs(p1) < 32 * eps);
    wsum += rule.w[static_cast<std::size_t>(i)];
  }
  CHECK(std::fabs(wsum - 1) <= 8 * eps);
  // Orders 7..9 are not tabulated; 10 needs a rule that can hold it.
  CHECK_THROWS_AS((gauss_legendre<T, kGaussOrder10>(8)), InputError);
  CHECK_THROWS_AS(gauss_legendre<T>(10), InputError);
}
