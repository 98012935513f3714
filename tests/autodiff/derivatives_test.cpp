// Gradient, Hessian and Jacobian helpers and the tangent checkers, on functions with known
// derivatives; the checkers must catch a deliberately wrong derivative.
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/math.hpp"

using namespace cabledyn;

namespace {

// atan2(y, x): gradient (-y, x) / r^2; Hessian [[2xy, y^2 - x^2], [y^2 - x^2, -2xy]] / r^4.
struct Angle {
  template <class V>
  typename V::Scalar operator()(const V& v) const {
    using std::atan2;
    return atan2(v(1), v(0));
  }
};

// A 12-variable energy with a closed-form gradient and Hessian:
// E(q) = 1/2 q^T A q + exp(s |q|^2) + sum_i log(1 + q_i^2) + sum_i q_i^2 q_{i+1}.
struct Energy12 {
  Eigen::Matrix<double, 12, 12> A;
  double s = 0.05;
  Energy12() {
    A.setZero();
    for (int i = 0; i < 12; ++i) {
      A(i, i) = 4.0 + 0.1 * i;
      if (i + 1 < 12) A(i, i + 1) = A(i + 1, i) = -1.0 + 0.05 * i;
    }
  }
  template <class V>
  typename V::Scalar operator()(const V& q) const {
    using T = typename V::Scalar;
    using std::exp;
    using std::log;
    T e = T(0);
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) e += T(0.5 * A(i, j)) * q(i) * q(j);
    T qq = T(0);
    for (int i = 0; i < 12; ++i) qq += q(i) * q(i);
    e += exp(T(s) * qq);
    for (int i = 0; i < 12; ++i) e += log(T(1) + q(i) * q(i));
    for (int i = 0; i + 1 < 12; ++i) e += q(i) * q(i) * q(i + 1);
    return e;
  }
  Eigen::Matrix<double, 12, 1> grad(const Eigen::Matrix<double, 12, 1>& q) const {
    const double ex = std::exp(s * q.squaredNorm());
    Eigen::Matrix<double, 12, 1> g = A * q + 2 * s * ex * q;
    for (int i = 0; i < 12; ++i) g(i) += 2 * q(i) / (1 + q(i) * q(i));
    for (int i = 0; i + 1 < 12; ++i) {
      g(i) += 2 * q(i) * q(i + 1);
      g(i + 1) += q(i) * q(i);
    }
    return g;
  }
  Eigen::Matrix<double, 12, 12> hess(const Eigen::Matrix<double, 12, 1>& q) const {
    const double ex = std::exp(s * q.squaredNorm());
    Eigen::Matrix<double, 12, 12> H = A + 2 * s * ex * Eigen::Matrix<double, 12, 12>::Identity() +
                                      4 * s * s * ex * q * q.transpose();
    for (int i = 0; i < 12; ++i) {
      const double d = 1 + q(i) * q(i);
      H(i, i) += 2 * (1 - q(i) * q(i)) / (d * d);
    }
    for (int i = 0; i + 1 < 12; ++i) {
      H(i, i) += 2 * q(i + 1);
      H(i, i + 1) += 2 * q(i);
      H(i + 1, i) += 2 * q(i);
    }
    return H;
  }
};

Eigen::Matrix<double, 12, 1> sample_q() {
  Eigen::Matrix<double, 12, 1> q;
  for (int i = 0; i < 12; ++i) q(i) = std::sin(1.7 * i + 0.3) * (1.0 + 0.2 * i);
  return q;
}

}  // namespace

TEMPLATE_TEST_CASE("atan2: dual gradient and Hessian equal the closed form", "[autodiff]", double,
                   long double) {
  using T = TestType;
  for (const auto& p : {std::pair<T, T>{T(0.7), T(-1.3)}, {T(-2.0), T(0.25)}, {T(1e-3), T(2e-3)}}) {
    Eigen::Matrix<T, 2, 1> v(p.first, p.second);
    const T x = v(0), y = v(1), r2 = x * x + y * y;
    Eigen::Matrix<T, 2, 1> g_exact(-y / r2, x / r2);
    Eigen::Matrix<T, 2, 2> H_exact;
    H_exact << 2 * x * y, y * y - x * x, y * y - x * x, -2 * x * y;
    H_exact /= r2 * r2;
    const auto g = gradient(Angle{}, v);
    const auto H = hessian(Angle{}, v);
    const T tol = 16 * std::numeric_limits<T>::epsilon();
    CHECK((g - g_exact).norm() <= tol * g_exact.norm());
    CHECK((H - H_exact).norm() <= tol * H_exact.norm());
    const auto chk = check_hessian(Angle{}, v, H_exact);
    INFO(chk.log());
    CHECK(chk.ok(1e-12, 1e-9));
  }
}

TEST_CASE("sqrt near zero: exact derivatives, and a named error at zero", "[autodiff]") {
  auto norm = [](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::Scalar;
    return positive_sqrt<T>(v(0) * v(0) + v(1) * v(1), "chord", "length^2");
  };
  for (double scale : {1.0, 1e-4, 1e-8}) {
    Eigen::Vector2d v(0.6 * scale, -0.8 * scale);
    const Eigen::Vector2d g_exact(0.6, -0.8);
    const auto chk = check_gradient(norm, v, g_exact);
    INFO(chk.log());
    CHECK(chk.ok(1e-14, 1e-9));
    // Hessian (I - e e^T) / r: grows as 1/r but stays exact.
    Eigen::Matrix2d H_exact = (Eigen::Matrix2d::Identity() - g_exact * g_exact.transpose()) / scale;
    const auto chk2 = check_hessian(norm, v, H_exact);
    INFO(chk2.log());
    CHECK(chk2.ok(1e-13, 1e-8));
  }
  Eigen::Vector2d zero(0.0, 0.0);
  CHECK_THROWS_AS(gradient(norm, zero), DomainError);
  CHECK_THROWS_WITH(gradient(norm, zero), "DomainError: chord: length^2 = 0 (limit: > 0)");
}

TEST_CASE("12-variable energy: closed form agrees with duals and long-double differences",
          "[autodiff]") {
  const Energy12 E;
  const auto q = sample_q();
  const auto cg = check_gradient(E, q, E.grad(q));
  INFO(cg.log());
  CHECK(cg.ok(1e-14, 1e-10));
  const auto ch = check_hessian(E, q, E.hess(q));
  INFO(ch.log());
  CHECK(ch.ok(1e-14, 1e-10));
  // Dynamic-size input gives the same results as fixed-size.
  const Eigen::VectorXd qd = q;
  CHECK((hessian(E, qd) - hessian(E, q)).norm() == 0);
  CHECK((gradient(E, qd) - E.grad(q)).norm() <= 1e-13 * E.grad(q).norm());
  // value_gradient returns the value too.
  const auto vg = value_gradient(E, q);
  CHECK(vg.value == Approx(E(q)).epsilon(1e-15));
}

TEST_CASE("The checker reports a deliberately wrong derivative", "[autodiff]") {
  const Energy12 E;
  const auto q = sample_q();
  auto H = E.hess(q);
  H(3, 7) += 1e-6 * H.cwiseAbs().maxCoeff();  // one wrong entry, 1e-6 of the scale
  const auto ch = check_hessian(E, q, H);
  CHECK_FALSE(ch.ok(1e-10, 1e-8));
  CHECK(ch.vs_dual.worst_row == 3);
  CHECK(ch.vs_dual.worst_col == 7);
  CHECK(ch.vs_dual.max_rel_error == Approx(1e-6).epsilon(1e-6));
  CHECK(ch.vs_fd.worst_row == 3);
  CHECK(ch.vs_fd.worst_col == 7);

  auto g = E.grad(q);
  g(5) = -g(5);  // a sign error
  const auto cg = check_gradient(E, q, g);
  CHECK_FALSE(cg.ok(1e-6, 1e-6));
  CHECK(cg.vs_dual.worst_row == 5);

  // A NaN in the closed form is a failure, never a pass.
  auto gn = E.grad(q);
  gn(0) = std::nan("");
  CHECK_FALSE(check_gradient(E, q, gn).ok(1e300, 1e300));
}

TEST_CASE("Jacobian checker and Taylor slope test", "[autodiff]") {
  auto F = [](const auto& x) {
    using T = typename std::decay_t<decltype(x)>::Scalar;
    using std::cosh;
    using std::sin;
    Eigen::Matrix<T, 3, 1> y;
    y << x(0) * x(1), sin(x(2)), x(0) + cosh(x(1));
    return y;
  };
  const Eigen::Vector3d x(0.4, -1.1, 2.3);
  Eigen::Matrix3d J;
  J << x(1), x(0), 0, 0, 0, std::cos(x(2)), 1, std::sinh(x(1)), 0;
  const auto cj = check_jacobian(F, x, J);
  INFO(cj.log());
  CHECK(cj.ok(1e-15, 1e-10));

  const Eigen::Vector3d w(0.3, 0.5, -0.7);
  auto Fv = [&](const Eigen::Matrix<long double, Eigen::Dynamic, 1>& xl) {
    Eigen::Matrix<long double, 3, 1> xx = xl;
    return Eigen::Matrix<long double, Eigen::Dynamic, 1>(F(xx));
  };
  const auto rem = taylor_remainders(Fv, x, w, J * w, 0.1L, 6);
  for (long double r : slope_ratios(rem)) CHECK(std::fabs(static_cast<double>(r) - 4.0) < 0.3);
  Eigen::Matrix3d Jbad = J;
  Jbad(1, 2) *= 1.1;
  const auto rem_bad = taylor_remainders(Fv, x, w, Jbad * w, 0.1L, 9);
  const auto qb = slope_ratios(rem_bad);
  CHECK(std::fabs(static_cast<double>(qb.back()) - 2.0) < 0.1);  // first order: wrong
}

TEST_CASE("Extra dual functions: asinh, acosh, atanh, log1p, expm1, cbrt, atan", "[autodiff]") {
  auto f = [](const auto& x) {
    using std::acosh;
    using std::asinh;
    using std::atan;
    using std::atanh;
    using std::cbrt;
    using std::expm1;
    using std::log1p;
    using T = typename std::decay_t<decltype(x)>::Scalar;
    return T(asinh(x(0)) + acosh(x(1)) + atanh(x(2)) + log1p(x(0) * x(2)) + expm1(x(1) / T(3)) +
             cbrt(x(1)) + atan(x(0) * x(1)));
  };
  const Eigen::Vector3d x(0.7, 1.9, -0.35);
  const double a = x(0), b = x(1), c = x(2);
  Eigen::Vector3d g;
  g(0) = 1 / std::sqrt(1 + a * a) + c / (1 + a * c) + b / (1 + a * a * b * b);
  g(1) = 1 / std::sqrt(b * b - 1) + std::exp(b / 3) / 3 + 1 / (3 * std::cbrt(b * b)) +
         a / (1 + a * a * b * b);
  g(2) = 1 / (1 - c * c) + a / (1 + a * c);
  const auto chk = check_gradient(f, x, g);
  INFO(chk.log());
  CHECK(chk.ok(1e-15, 1e-10));
  // Second derivatives of the same through nested duals agree with differences.
  const auto H = hessian(f, x);
  const auto chH = check_hessian(f, x, H);
  INFO(chH.log());
  CHECK(chH.vs_fd.ok(1e-9));
}
