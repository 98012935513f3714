// Uses the installed headers: integrates x^5 on [0, 1] with the 3-point rule and
// differentiates a function by duals; exits non-zero on a wrong answer.
#include <cabledyn/cabledyn.hpp>

#include <cmath>
#include <cstdio>

int main() {
  const auto rule = cabledyn::gauss_legendre<double>(3);
  const double I = rule.integrate([](double x) { return x * x * x * x * x; });
  Eigen::Vector2d x(0.3, -1.2);
  const auto g = cabledyn::gradient([](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::Scalar;
    return T(v(0) * v(0) * v(1));
  }, x);
  const bool ok = std::fabs(I - 1.0 / 6.0) < 1e-15 && std::fabs(g(0) - 2 * 0.3 * -1.2) < 1e-15 &&
                  std::fabs(g(1) - 0.09) < 1e-15;
  std::printf("cabledyn %s consumer: integral %.17g, gradient (%g, %g): %s\n", cabledyn::kVersion,
              I, g(0), g(1), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
