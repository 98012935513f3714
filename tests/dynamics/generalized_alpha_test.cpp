// The generalised-alpha scheme: spectral radius at omega dt -> infinity, second-order
// accuracy on a dt ladder, energy conservation at rho_inf = 1, the force and configuration
// blends on a linear system, named errors.
#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Eigenvalues>

#include "cabledyn/dynamics/generalized_alpha.hpp"

using namespace cabledyn;

TEMPLATE_TEST_CASE("Generalised-alpha: spectral radius rho_inf at omega dt -> infinity", "[dynamics][alpha]",
                   double, long double) {
  using T = TestType;
  for (double rho : {0.0, 0.2, 0.4, 0.8, 1.0}) {
    const auto g = GeneralizedAlpha<T>::from_rho_inf(T(rho));
    // Second-order condition and the parameter relations.
    CHECK(std::fabs(static_cast<double>(g.gamma - (T(0.5) - g.alpha_m + g.alpha_f))) < 1e-15);
    const Mat3<double> A = generalized_alpha_amplification<T>(g, T(1e7)).template cast<double>();
    const double r = Eigen::EigenSolver<Mat3<double>>(A).eigenvalues().cwiseAbs().maxCoeff();
    INFO("rho_inf " << rho);
    // The scheme's double eigenvalue -rho_inf at infinity makes rho(omega dt) approach rho_inf
    // slowly (observed 1.6e-3 at omega dt = 1e4, 1.6e-5 at 1e7).
    CHECK(r == Approx(rho).margin(1e-4));
    const Mat3<double> A4 = generalized_alpha_amplification<T>(g, T(1e4)).template cast<double>();
    const double r4 = Eigen::EigenSolver<Mat3<double>>(A4).eigenvalues().cwiseAbs().maxCoeff();
    if (rho < 1) CHECK(std::fabs(r - rho) < std::fabs(r4 - rho));
    // At small omega dt the scheme is nearly undamped (|lambda| -> 1).
    const Mat3<double> A0 = generalized_alpha_amplification<T>(g, T(1e-3)).template cast<double>();
    const double r0 = Eigen::EigenSolver<Mat3<double>>(A0).eigenvalues().cwiseAbs().maxCoeff();
    CHECK(r0 == Approx(1.0).margin(1e-6));
  }
}

TEMPLATE_TEST_CASE("Generalised-alpha: second-order accuracy on an oscillator (dt ladder)", "[dynamics][alpha]",
                   double, long double) {
  using T = TestType;
  // q'' + 2 zeta w q' + w^2 q = 0, q(0) = 1, v(0) = 0; exact solution at t = 2.
  const T w = T(3.0), zeta = T(0.05), tf = T(2.0);
  const T wd = w * std::sqrt(T(1) - zeta * zeta);
  const T exact = std::exp(-zeta * w * tf) * (std::cos(wd * tf) + zeta * w / wd * std::sin(wd * tf));
  for (bool blend : {true, false}) {
    std::vector<double> err;
    for (int n : {50, 100, 200, 400}) {
      Mat<T, 1> M;
      M << T(1);
      DenseGeneralizedAlpha<T, 1> ga(
          M,
          [&](const Vec<T, 1>& q, const Vec<T, 1>& v, Vec<T, 1>& r, Mat<T, 1>& Kq, Mat<T, 1>& Kv) {
            r(0) = w * w * q(0) + T(2) * zeta * w * v(0);
            Kq(0, 0) = w * w;
            Kv(0, 0) = T(2) * zeta * w;
          },
          T(0.4), blend);
      ga.initialize(Vec<T, 1>(T(1)), Vec<T, 1>(T(0)));
      const T dt = tf / T(n);
      for (int k = 0; k < n; ++k) ga.step(dt);
      err.push_back(std::fabs(static_cast<double>(ga.q()(0) - exact)));
    }
    // Observed orders 2.13, 2.06, 2.03 on the 50..400 ladder (both blends coincide for a
    // linear system): second order, the finest pair within 0.05 of 2.
    for (std::size_t k = 0; k + 1 < err.size(); ++k) {
      const double order = std::log2(err[k] / err[k + 1]);
      INFO("blend " << blend << " error " << err[k + 1] << " order " << order);
      CHECK(order == Approx(2.0).margin(k + 2 == err.size() ? 0.05 : 0.2));
    }
  }
}

TEMPLATE_TEST_CASE("Generalised-alpha at rho_inf = 1 conserves the energy of an undamped linear system",
                   "[dynamics][alpha]", double, long double) {
  using T = TestType;
  // Two coupled masses on springs.
  Mat<T, 2> M, K;
  M << T(2), T(0), T(0), T(1);
  K << T(30), T(-10), T(-10), T(10);
  DenseGeneralizedAlpha<T, 2> ga(
      M,
      [&](const Vec<T, 2>& q, const Vec<T, 2>&, Vec<T, 2>& r, Mat<T, 2>& Kq, Mat<T, 2>& Kv) {
        r = K * q;
        Kq = K;
        Kv.setZero();
      },
      T(1.0));
  ga.initialize(Vec<T, 2>(T(0.3), T(-0.2)), Vec<T, 2>(T(0.1), T(0.5)));
  auto energy = [&] { return T(0.5) * ga.v().dot(M * ga.v()) + T(0.5) * ga.q().dot(K * ga.q()); };
  const T E0 = energy();
  T worst = 0;
  for (int k = 0; k < 2000; ++k) {
    ga.step(T(0.37));  // omega dt ~ 1.6: far from resolved, still exactly conservative
    worst = std::max(worst, std::fabs(energy() - E0));
  }
  CHECK(static_cast<double>(worst / E0) < 1e3 * std::numeric_limits<T>::epsilon());
}

TEST_CASE("Generalised-alpha bad input gives named errors", "[dynamics][alpha][errors]") {
  CHECK_THROWS_WITH(GeneralizedAlpha<double>::from_rho_inf(1.5),
                    "InputError: generalised-alpha: rhoInf = 1.5 (limit: in [0, 1])");
  CHECK_THROWS_AS(GeneralizedAlpha<double>::from_rho_inf(-0.1), InputError);
  Mat<double, 1> M;
  M << 1;
  DenseGeneralizedAlpha<double, 1> ga(
      M, [](const Vec<double, 1>& q, const Vec<double, 1>&, Vec<double, 1>& r, Mat<double, 1>& Kq, Mat<double, 1>& Kv) {
        r = q;
        Kq(0, 0) = 1;
        Kv(0, 0) = 0;
      },
      0.5);
  ga.initialize(Vec<double, 1>(1.0), Vec<double, 1>(0.0));
  CHECK_THROWS_WITH(ga.step(0.0), "InputError: generalised-alpha: dt = 0 (limit: > 0)");
}
