// The dispersion relation omega^2 = g k tanh(k h): limits, tabulated roots, the residual at
// round-off, the dual derivative, named errors. Spec "Waves"; EQUATIONS.md section 7.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/sea/dispersion.hpp"

using namespace cabledyn;

TEMPLATE_TEST_CASE("dispersion: the residual of x tanh x = nu is at round-off", "[sea][dispersion]",
                   double, long double) {
  using V = TestType;
  const V eps = std::numeric_limits<V>::epsilon();
  for (int e = -12; e <= 6; ++e) {
    for (const V mant : {V(1), V(2.5), V(7.3)}) {
      const V nu = mant * std::pow(V(10), V(e));
      const V x = dispersion_kh(nu);
      // |x tanh x - nu| within a few ulp of nu (tanh and the product round once or twice)
      CHECK(std::fabs(x * std::tanh(x) - nu) <= 6 * eps * nu);
    }
  }
}

TEMPLATE_TEST_CASE("dispersion: deep- and shallow-water limits", "[sea][dispersion]", double,
                   long double) {
  using V = TestType;
  const V eps = std::numeric_limits<V>::epsilon();
  // Deep water: tanh(kh) = 1 to far below eps once kh > 40, so kh = nu.
  for (const V nu : {V(40), V(123.5), V(1e4)}) CHECK(std::fabs(dispersion_kh(nu) / nu - 1) <= 4 * eps);
  // Shallow water: inverting x tanh x = x^2 - x^4/3 + 2 x^6/15 - 17 x^8/315 + ... gives
  // (kh)^2 = nu + nu^2/3 + 4 nu^3/45 + 16 nu^4/945 + O(nu^5), and kh / sqrt(nu) -> 1.
  for (const V nu : {V(1e-4), V(1e-5), V(1e-6)}) {
    const V x = dispersion_kh(nu);
    const V series = std::sqrt(nu + nu * nu / 3 + 4 * nu * nu * nu / 45 + 16 * nu * nu * nu * nu / 945);
    CHECK(std::fabs(x / series - 1) <= 8 * eps);
  }
  CHECK(std::fabs(dispersion_kh(V(1e-12)) / std::sqrt(V(1e-12)) - 1) < 1e-12);
  // k itself: deep water omega^2 / g; shallow water omega / sqrt(g h).
  const double g = 9.80665;
  CHECK(wave_number(V(2), kDeepWater, g) == V(4) / V(g));
  const V w = V(1e-4), nu = w * w * 10 / V(g);
  const V k_sh = wave_number(w, 10.0, g);
  CHECK(std::fabs(k_sh / (w / std::sqrt(V(g) * 10)) - 1) < nu / 5);  // leading order, kh ~ 1e-4
  CHECK(std::fabs(k_sh / (w / std::sqrt(V(g) * 10) * (1 + nu / 6)) - 1) < 1e-14);
}

TEMPLATE_TEST_CASE("dispersion: tabulated roots of x tanh x = nu", "[sea][dispersion]", double,
                   long double) {
  using V = TestType;
  // Roots computed independently with `bc -l` (scale = 45) by 60 Newton steps on
  // x tanh x - nu with tanh x = (e^{2x} - 1)/(e^{2x} + 1); the root for nu = 1,
  // 1.19967864025773..., is the classic value of the intermediate-depth wave with
  // omega^2 h / g = 1.
  struct Row {
    long double nu, kh;
  };
  const Row rows[] = {
      {0.0001L, 0.010000166669722255951916299210597727886640908L},
      {0.01L, 0.100166972559055507099131958872051492594897876L},
      {0.1L, 0.321595904691210399705914373385563258429173998L},
      {1.0L, 1.199678640257733833916369848641141944261458789L},
      {2.0L, 2.065338138974704728076874277074633117167536109L},
      {5.0L, 5.000453608183909866434346617948343876848490000L},
      {10.0L, 10.000000041223069135055236903843314024146863773L},
  };
  const V tol = std::is_same_v<V, double> ? V(2e-15) : V(2e-18);
  for (const auto& r : rows) {
    const V x = dispersion_kh(static_cast<V>(r.nu));
    INFO("nu = " << static_cast<double>(r.nu));
    CHECK(std::fabs(x / static_cast<V>(r.kh) - 1) <= tol);
  }
}

TEST_CASE("dispersion: dk/domega by duals equals the closed form and long-double differences",
          "[sea][dispersion][autodiff]") {
  const double g = 9.80665;
  for (const double h : {3.0, 50.0, 400.0}) {
    for (const double w : {0.2, 0.7, 2.5}) {
      const double k = wave_number(w, h, g);
      // d/domega of omega^2 = g k tanh(kh): 2 omega = g (tanh kh + kh sech^2 kh) dk/domega
      const double dk = 2 * w / (g * (std::tanh(k * h) + k * h / (std::cosh(k * h) * std::cosh(k * h))));
      auto f = [h, g](const auto& v) {
        using T = typename std::decay_t<decltype(v)>::Scalar;
        return T(wave_number(T(v(0)), h, g));
      };
      Eigen::Matrix<double, 1, 1> x;
      x << w;
      Eigen::Matrix<double, 1, 1> gc;
      gc << dk;
      const auto chk = check_gradient(f, x, gc);
      INFO(chk.log());
      CHECK(chk.ok(1e-13, 1e-9));
      // the dual's value is the plain value bit for bit
      using D = Dual<double, 1>;
      CHECK(wave_number(D(w, 1, 0), h, g).value() == k);
    }
  }
}

TEST_CASE("dispersion: bad input fails with a named error", "[sea][dispersion][errors]") {
  const double g = 9.80665;
  CHECK_THROWS_AS(wave_number(0.0, 10.0, g), InputError);
  CHECK_THROWS_AS(wave_number(-1.0, 10.0, g), InputError);
  CHECK_THROWS_AS(wave_number(1.0, 0.0, g), InputError);
  CHECK_THROWS_AS(wave_number(1.0, -5.0, g), InputError);
  CHECK_THROWS_AS(wave_number(1.0, 10.0, 0.0), InputError);
  CHECK_THROWS_AS(wave_number(std::nan(""), 10.0, g), InputError);
  CHECK_THROWS_AS(dispersion_kh(0.0), InputError);
  try {
    wave_number(1.0, -5.0, g);
  } catch (const InputError& e) {
    CHECK(e.quantity() == "depth");
    CHECK(e.value() == "-5");
    CHECK(e.limit() == "> 0");
  }
}
