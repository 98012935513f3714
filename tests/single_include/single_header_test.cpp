// Compiled against single_include/cabledyn/cabledyn.hpp only (not include/).
#include <catch2/catch.hpp>

#include <cabledyn/cabledyn.hpp>

#ifdef CABLEDYN_SINGLE_INCLUDE
TEST_CASE("the single header is the amalgamation", "[single_include]") {
  CHECK(std::string(cabledyn::kVersion) == CABLEDYN_VERSION_STRING);
}
#else
#error "this test must see the generated single header"
#endif

TEST_CASE("the single header carries the core and autodiff modules", "[single_include]") {
  const auto rule = cabledyn::gauss_legendre<long double>(5);
  const long double I = rule.integrate([](long double x) { return x * x * x * x * x * x * x * x * x; });
  CHECK(std::fabs(I - 0.1L) < 8 * std::numeric_limits<long double>::epsilon());
  const Eigen::Vector2d v(3.0, 4.0);
  const auto g = cabledyn::gradient([](const auto& x) {
    using T = typename std::decay_t<decltype(x)>::Scalar;
    using std::sqrt;
    return T(sqrt(x(0) * x(0) + x(1) * x(1)));
  }, v);
  CHECK(g(0) == Approx(0.6).epsilon(1e-15));
  CHECK(g(1) == Approx(0.8).epsilon(1e-15));
}
