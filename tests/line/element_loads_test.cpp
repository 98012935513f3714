// Distributed loads of a Hermite element: the drag with its effective (blended) Jacobian that
// the implicit march assembles in one scatter, against the separate Jacobians and duals.
#include <catch2/catch.hpp>

#include <random>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/line/element_loads.hpp"

using namespace cabledyn;

namespace {
template <class S>
using V12 = Eigen::Matrix<S, 12, 1>;

MorisonCoefficients coeffs() {
  MorisonCoefficients c;
  c.d = 0.12;
  c.Cdn = 1.2;
  c.Cdt = 0.008;
  c.Can = 1.0;
  c.Cat = 0.25;
  c.rho = 1025.0;
  return c;
}

// A curved, stretched element of length ~L0 with a random perturbation.
V12<double> element_state(double L0, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  V12<double> q;
  q << 0.1, -0.2, -5.0, 0.9, 0.1, -0.4, 0.9 * L0, 0.3, -5.0 - 0.3 * L0, 0.8, -0.2, -0.3;
  for (int i = 0; i < 12; ++i) q(i) += 0.05 * u(rng);
  return q;
}
}  // namespace

TEMPLATE_TEST_CASE("Hermite drag with the blended Jacobian equals the separate Jacobians and duals",
                   "[line][drag]", double, long double) {
  using T = TestType;
  const auto c = coeffs();
  const double L0 = 2.5, cq = -0.6, cv = -21.0;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double tol = std::is_same_v<T, double> ? 2e-12 : 1e-15;
  const std::array<std::array<bool, 3>, 3> dries = {{{false, false, false}, {true, false, false}, {false, true, true}}};
  for (int trial = 0; trial < 6; ++trial)
    for (const auto& dry : dries) {
      INFO("trial " << trial << ", dry " << dry[0] << dry[1] << dry[2]);
      const V12<T> q = element_state(L0, rng).cast<T>();
      V12<T> v;
      for (int i = 0; i < 12; ++i) v(i) = T(0.9 * u(rng));
      const std::array<Vec3<T>, 3> uf = {Vec3<T>(T(0.4), T(-0.1), T(0.05)), Vec3<T>(T(0.5), T(0), T(0)),
                                         Vec3<T>(T(0.3), T(0.2), T(-0.1))};
      V12<T> f, fb, fb_only;
      Eigen::Matrix<T, 12, 12> Dq, Dv;
      hermite_drag<T>(q, v, uf, c, L0, f, &Dq, &Dv, dry);
      Eigen::Matrix<T, 12, 12> J = Eigen::Matrix<T, 12, 12>::Identity();  // accumulates onto J
      hermite_drag_blended<T>(q, v, uf, c, L0, fb, &J, cq, cv, dry);
      hermite_drag_blended<T>(q, v, uf, c, L0, fb_only, nullptr, cq, cv, dry);
      const Eigen::Matrix<T, 12, 12> Jref =
          Eigen::Matrix<T, 12, 12>::Identity() + T(cq) * Dq + T(cv) * Dv;
      const T fscale = f.cwiseAbs().maxCoeff();
      CHECK(static_cast<double>((fb - f).cwiseAbs().maxCoeff() / fscale) <= tol);
      CHECK((fb_only - fb).cwiseAbs().maxCoeff() == 0);
      const T jscale = (Jref - Eigen::Matrix<T, 12, 12>::Identity()).cwiseAbs().maxCoeff();
      CHECK(static_cast<double>((J - Jref).cwiseAbs().maxCoeff() / jscale) <= tol);
      // Duals: along v(x) = v0 + (cv/cq)(x - q0), the total derivative of f is (J - I)/cq.
      auto along = [&](const auto& x) {
        using S = typename std::decay_t<decltype(x)>::Scalar;
        const V12<S> xs(x);
        const V12<S> vs = v.template cast<S>() + S(cv / cq) * (xs - q.template cast<S>());
        std::array<Vec3<S>, 3> ufs;
        for (int g = 0; g < 3; ++g) ufs[static_cast<std::size_t>(g)] = uf[static_cast<std::size_t>(g)].template cast<S>();
        V12<S> out;
        hermite_drag_blended<S>(xs, vs, ufs, c, L0, out, nullptr, cq, cv, dry);
        return out;
      };
      const Eigen::Matrix<T, 12, 12> Jtot = (J - Eigen::Matrix<T, 12, 12>::Identity()) / T(cq);
      const auto chk = check_jacobian(along, q, Jtot);
      INFO(chk.log());
      CHECK(chk.vs_dual.ok(std::is_same_v<T, double> ? 1e-12 : 1e-15));
      CHECK(chk.vs_fd.ok(1e-7));
    }
}
