// Demonstrates the autodiff harness: checks a closed-form gradient and Hessian of a small
// elastic energy (an EI = 0 bar between two points) against duals and long-double central
// differences, and prints the report a user would read for their own law.
#include <cmath>
#include <cstdio>

#include "cabledyn/cabledyn.hpp"

int main() {
  using namespace cabledyn;
  const double EA = 1.0e6, L0 = 2.0;
  // Strain energy of a bar from the origin to x: U = 1/2 EA L0 (|x|/L0 - 1)^2.
  auto U = [&](const auto& x) {
    using T = typename std::decay_t<decltype(x)>::Scalar;
    using std::sqrt;
    const T l = sqrt(x(0) * x(0) + x(1) * x(1) + x(2) * x(2));
    const T eps = l / T(L0) - T(1);
    return T(T(0.5 * EA * L0) * eps * eps);
  };
  const Eigen::Vector3d x(1.5, 0.9, -1.1);
  const double l = x.norm(), T = EA * (l / L0 - 1);
  const Eigen::Vector3d e = x / l;
  const Eigen::Vector3d f = T * e;  // closed-form force
  const Eigen::Matrix3d K = EA / L0 * e * e.transpose() + T / l * (Eigen::Matrix3d::Identity() - e * e.transpose());
  const auto cg = check_gradient(U, x, f);
  const auto ch = check_hessian(U, x, K);
  std::printf("cabledyn %s tangent check of an EI = 0 bar (EA = %g N, L0 = %g m)\n", kVersion, EA, L0);
  std::printf("%s\n%s\n", cg.log().c_str(), ch.log().c_str());
  const bool ok = cg.ok(1e-13, 1e-9) && ch.ok(1e-13, 1e-9);
  std::printf("%s\n", ok ? "all derivatives agree" : "DERIVATIVE MISMATCH");
  return ok ? 0 : 1;
}
