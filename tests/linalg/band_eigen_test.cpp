// The banded generalised eigensolver: the lowest eigenpairs of random definite pencils
// against the dense long-double solution, repeated eigenvalues with independent shapes, a
// semidefinite and an indefinite K, the templated path against LAPACK dsbgvx, the
// compensated products against __float128, the Sturm check, named errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include <Eigen/Dense>

#include "band_fixtures.hpp"
#include "cabledyn/linalg.hpp"

using namespace cabledyn;
using Index = Eigen::Index;
using LD = long double;

namespace {

// Dense generalised eigenvalues of (K, M) in long double, ascending.
template <class T>
VecX<LD> dense_eigenvalues(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M) {
  const MatX<LD> Kd = K.to_dense().template cast<LD>(), Md = M.to_dense().template cast<LD>();
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX<LD>> g(Kd, Md, Eigen::EigenvaluesOnly);
  return g.eigenvalues();
}

// Largest |phi^T M phi - I| of the returned shapes.
template <class T>
LD orthonormality_error(const BandEigenResult<T>& r, const SymmetricBandMatrix<T>& M) {
  const MatX<LD> V = r.vectors.template cast<LD>();
  const MatX<LD> G = V.transpose() * M.to_dense().template cast<LD>() * V;
  return (G - MatX<LD>::Identity(G.rows(), G.cols())).cwiseAbs().maxCoeff();
}

// K and M of a string of n interior nodes with `copies` uncoupled, interleaved components
// (DOF c + copies i): K = tension / h tridiag(-1, 2, -1), consistent mass rho h / 6
// tridiag(1, 4, 1); eigenvalues (6 / h^2) (1 - cos t_j) / (2 + cos t_j), t_j = j pi / (n + 1),
// each `copies` times, shapes sin(i t_j).
template <class T>
void interleaved_string(Index n, Index copies, SymmetricBandMatrix<T>& K, SymmetricBandMatrix<T>& M) {
  K = SymmetricBandMatrix<T>(n * copies, copies);
  M = SymmetricBandMatrix<T>(n * copies, copies);
  const T h = T(1) / T(n + 1);
  for (Index i = 0; i < n; ++i)
    for (Index c = 0; c < copies; ++c) {
      const Index a = c + copies * i;
      K.at(a, a) = T(2) / h;
      M.at(a, a) = T(4) * h / T(6);
      if (i + 1 < n) {
        K.at(a + copies, a) = T(-1) / h;
        M.at(a + copies, a) = h / T(6);
      }
    }
}

template <class T>
T string_eigenvalue(Index n, Index j) {
  using std::cos;
  using std::sin;
  const T h = T(1) / T(n + 1), t = T(j) * T(kPiLD) / T(n + 1);
  return T(6) / (h * h) * (T(2) * sin(t / 2) * sin(t / 2)) / (T(2) + cos(t));  // 1 - cos t = 2 sin^2(t/2)
}

}  // namespace

TEMPLATE_TEST_CASE("Band eigen: random definite pencils equal the dense long-double solution", "[linalg][eigen]",
                   double, long double) {
  using T = TestType;
  const T eps = std::numeric_limits<T>::epsilon();
  for (Index kd : {1, 3, 7}) {
    const Index n = 90;
    const auto K = fixtures::random_spd<T>(n, kd, 100 + static_cast<std::uint64_t>(kd));
    const auto M = fixtures::random_spd<T>(n, kd, 200 + static_cast<std::uint64_t>(kd));
    const VecX<LD> ref = dense_eigenvalues(K, M);
    BandEigenOptions opt;
    opt.backend = Backend::templated;
    for (Index k : {1, 6, 15}) {
      const BandEigenResult<T> r = band_generalized_eigen(K, M, k, opt);
      INFO("kd " << kd << " nModes " << k);
      REQUIRE(r.eigenvalues.size() == k);
      CHECK_FALSE(r.lapack);
      for (Index j = 0; j < k; ++j) {
        // The dense long-double reference carries ~eps_LD cond(M) of its own.
        CHECK(std::abs(LD(r.eigenvalues(j)) - ref(j)) <= (64 * LD(eps) + 1024 * std::numeric_limits<LD>::epsilon()) * ref(j));
        CHECK(r.residuals(j) <= 16 * eps);
      }
      CHECK(orthonormality_error(r, M) <= 256 * LD(eps));
      CHECK(r.sturm_checks >= 1);
    }
  }
}

TEMPLATE_TEST_CASE("Band eigen: repeated eigenvalues give independent M-orthonormal shapes", "[linalg][eigen]",
                   double, long double) {
  using T = TestType;
  const T eps = std::numeric_limits<T>::epsilon();
  const Index n = 40, copies = 3, k = 12;  // 4 frequencies, each three times
  SymmetricBandMatrix<T> K, M;
  interleaved_string<T>(n, copies, K, M);
  for (Backend b : {Backend::templated, Backend::automatic}) {
    if (b == Backend::automatic && !(kLapackAvailable && std::is_same_v<T, double>)) continue;
    BandEigenOptions opt;
    opt.backend = b;
    const BandEigenResult<T> r = band_generalized_eigen(K, M, k, opt);
    INFO("backend " << (r.lapack ? "LAPACK" : "templated"));
    CHECK(orthonormality_error(r, M) <= 256 * LD(eps));
    for (Index j = 0; j < k; ++j) {
      const T exact = string_eigenvalue<T>(n, j / copies + 1);
      CHECK(std::abs(r.eigenvalues(j) - exact) <= 64 * eps * exact);
    }
    // Each triple spans the eigenspace {sin(i t) e_c}: its M-orthogonal projector equals the
    // exact one (a rank-3 projector: independent shapes).
    const MatX<T> Md = M.to_dense();
    for (Index f = 0; f < k / copies; ++f) {
      MatX<T> E = MatX<T>::Zero(n * copies, copies);
      for (Index i = 0; i < n; ++i)
        for (Index c = 0; c < copies; ++c)
          E(c + copies * i, c) = std::sin(T(i + 1) * T(f + 1) * T(kPiLD) / T(n + 1));
      const MatX<T> G = E.transpose() * Md * E;
      const MatX<T> Pexact = E * G.inverse() * E.transpose() * Md;
      const MatX<T> V = r.vectors.middleCols(copies * f, copies);
      const MatX<T> P = V * V.transpose() * Md;
      INFO("frequency " << f + 1);
      CHECK((P - Pexact).cwiseAbs().maxCoeff() <= 1e3 * eps);
      CHECK(std::abs(P.trace() - T(copies)) <= 1e3 * eps);
    }
  }
}

TEMPLATE_TEST_CASE("Band eigen: a semidefinite K and an indefinite K", "[linalg][eigen]", double, long double) {
  using T = TestType;
  const T eps = std::numeric_limits<T>::epsilon();
  // A free-free string (Neumann ends): a rigid-body mode lambda = 0, then
  // (6 / h^2)(1 - cos t_j)/(2 + cos t_j), t_j = j pi / (n - 1).
  const Index n = 50;
  SymmetricBandMatrix<T> K(n, 1), M(n, 1);
  const T h = T(1) / T(n - 1);
  for (Index e = 0; e + 1 < n; ++e) {
    K.add(e, e, T(1) / h);
    K.add(e + 1, e + 1, T(1) / h);
    K.add(e + 1, e, T(-1) / h);
    M.add(e, e, T(2) * h / T(6));
    M.add(e + 1, e + 1, T(2) * h / T(6));
    M.add(e + 1, e, h / T(6));
  }
  BandEigenOptions opt;
  opt.backend = Backend::templated;
  const BandEigenResult<T> r = band_generalized_eigen(K, M, 5, opt);
  CHECK(r.shift < 0);  // K itself is singular: the shift-invert moved below zero
  CHECK(std::abs(r.eigenvalues(0)) <= 64 * eps * r.eigenvalues(1));
  for (Index j = 1; j < 5; ++j) {
    const T t = T(j) * T(kPiLD) / T(n - 1);
    const T exact = T(6) / (h * h) * (T(2) * std::sin(t / 2) * std::sin(t / 2)) / (T(2) + std::cos(t));
    CHECK(std::abs(r.eigenvalues(j) - exact) <= 64 * eps * exact);
  }
  // Shift K by -3 M: eigenvalues lambda - 3, the lowest negative.
  SymmetricBandMatrix<T> Kneg = K;
  for (Index i = 0; i < n * 2; ++i) Kneg.data()[i] -= T(3) * M.data()[i];
  const BandEigenResult<T> s = band_generalized_eigen(Kneg, M, 5, opt);
  for (Index j = 0; j < 5; ++j) CHECK(std::abs(s.eigenvalues(j) - (r.eigenvalues(j) - T(3))) <= 1e3 * eps * r.eigenvalues(4));
  CHECK(s.eigenvalues(0) == Approx(-3.0).epsilon(1e-12));
  CHECK(s.shift < T(-3));
}

TEST_CASE("Band eigen: the templated path equals LAPACK dsbgvx to round-off", "[linalg][eigen][lapack]") {
  if (!kLapackAvailable) {
    WARN("built without LAPACK: nothing to compare");
    return;
  }
  const double eps = std::numeric_limits<double>::epsilon();
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const Index n = 150, kd = 5, k = 10;
    const auto K = fixtures::random_spd<double>(n, kd, 300 + seed);
    const auto M = fixtures::random_spd<double>(n, kd, 400 + seed);
    BandEigenOptions t, l;
    t.backend = Backend::templated;
    l.backend = Backend::lapack;
    const auto rt = band_generalized_eigen(K, M, k, t);
    const auto rl = band_generalized_eigen(K, M, k, l);
    CHECK(rl.lapack);
    CHECK_FALSE(rt.lapack);
    for (Index j = 0; j < k; ++j) {
      INFO("seed " << seed << " mode " << j);
      CHECK(std::abs(rt.eigenvalues(j) - rl.eigenvalues(j)) <= 8 * eps * rl.eigenvalues(j));
      // Same shape up to its sign.
      const double sgn = rt.vectors.col(j).dot(rl.vectors.col(j)) < 0 ? -1.0 : 1.0;
      CHECK((rt.vectors.col(j) - sgn * rl.vectors.col(j)).cwiseAbs().maxCoeff() <=
            1e4 * eps * rl.vectors.col(j).cwiseAbs().maxCoeff());
    }
  }
}

TEST_CASE("Compensated products are as accurate as __float128", "[linalg][eigen][compensated]") {
#if defined(__SIZEOF_FLOAT128__)
  using Q = __float128;
  // Ill-conditioned dot products: half the terms a random pair (x_i, y_i), the other half
  // (x_i, -y_i (1 + 2^-(30 + t/4) r_i)) with the same x_i: conditions 5e9 ... 6e13, where the
  // naive double sum is off by up to 1e-2.
  fixtures::Random rnd(77);
  for (int trial = 0; trial < 40; ++trial) {
    const Index n = 200;
    VecX<double> x(n), y(n);
    for (Index i = 0; i < n / 2; ++i) {
      x(i) = std::ldexp(rnd(), static_cast<int>(20 * rnd()));
      y(i) = std::ldexp(rnd(), static_cast<int>(20 * rnd()));
      x(i + n / 2) = x(i);
      y(i + n / 2) = -y(i) * (1 + std::ldexp(rnd(), -30 - trial / 4));
    }
    VecX<double> zero = VecX<double>::Zero(n);
    const double comp = detail::compensated_dot(n, x.data(), y.data(), zero.data()).value();
    Q exact = 0, abs_sum = 0;
    for (Index i = 0; i < n; ++i) {
      exact += Q(x(i)) * Q(y(i));
      abs_sum += Q(std::fabs(x(i) * y(i)));
    }
    double naive = 0;
    for (Index i = 0; i < n; ++i) naive += x(i) * y(i);
    const double q = static_cast<double>(exact);
    const double cond = static_cast<double>(abs_sum / (exact < 0 ? -exact : exact));
    INFO("trial " << trial << " condition " << cond << " naive error " << std::fabs(naive - q) / std::fabs(q));
    // The products are exact in __float128 (106 bits), so `exact` carries n 2^-113 cond: the
    // compensated sum rounds to the same double (within one ulp) for cond up to ~1e18.
    CHECK(std::fabs(comp - q) <= std::numeric_limits<double>::epsilon() * std::fabs(q));
    if (trial == 0) CHECK(std::fabs(naive - q) > 1e3 * std::numeric_limits<double>::epsilon() * std::fabs(q));
  }
  // long double: 128-bit compensated against 113-bit __float128 (products of 64-bit
  // mantissas are not exact in __float128 then; the condition here runs from 4e6 to 6e12).
  for (int trial = 0; trial < 20; ++trial) {
    const Index n = 100;
    VecX<LD> x(n), y(n), zero = VecX<LD>::Zero(n);
    for (Index i = 0; i < n / 2; ++i) {
      x(i) = std::ldexp(LD(rnd()), static_cast<int>(10 * rnd()));
      y(i) = std::ldexp(LD(rnd()), static_cast<int>(10 * rnd()));
      x(i + n / 2) = x(i);
      y(i + n / 2) = -y(i) * (1 + std::ldexp(LD(rnd()), -20 - trial));
    }
    const LD comp = detail::compensated_dot(n, x.data(), y.data(), zero.data()).value();
    Q exact = 0;
    for (Index i = 0; i < n; ++i) exact += Q(x(i)) * Q(y(i));
    INFO("long double trial " << trial);
    CHECK(std::fabs(comp - LD(exact)) <= 2 * std::numeric_limits<LD>::epsilon() * std::fabs(LD(exact)));
  }
  // A band quadratic form with cancellation: x^T K x for a stiff second-difference K and a
  // smooth x (the Rayleigh quotient of a long, stiff line's lowest mode).
  const Index n = 3000;
  SymmetricBandMatrix<double> K(n, 2);
  for (Index i = 0; i < n; ++i) {
    K.at(i, i) = 2.0 * 3.3e9 + (i % 3 == 0 ? 0.7 : 0.0);
    if (i + 1 < n) K.at(i + 1, i) = -3.3e9 * (1 + 1e-3 * std::sin(double(i)));
    if (i + 2 < n) K.at(i + 2, i) = 1.1 * std::cos(double(i));
  }
  for (Index i = 0; i + 1 < n; ++i) K.at(i, i) = -K(i + 1, i) - (i > 0 ? K(i, i - 1) : -3.3e9);
  VecX<double> x(n), hi(n), lo(n);
  for (Index i = 0; i < n; ++i) x(i) = std::sin(kPi * double(i + 1) / double(n + 1));
  detail::compensated_band_multiply(K, x.data(), hi.data(), lo.data());
  const double comp = detail::compensated_dot(n, x.data(), hi.data(), lo.data()).value();
  Q exact = 0;
  const MatX<double> Kd = K.to_dense();
  for (Index i = 0; i < n; ++i)
    for (Index j = std::max<Index>(0, i - 2); j <= std::min<Index>(n - 1, i + 2); ++j)
      exact += Q(Kd(i, j)) * Q(x(i)) * Q(x(j));
  VecX<double> y(n);
  K.multiply(x, y);
  const double naive = x.dot(y);
  INFO("compensated " << comp << " float128 " << static_cast<double>(exact) << " naive " << naive);
  CHECK(std::fabs(comp - static_cast<double>(exact)) <= 2 * std::numeric_limits<double>::epsilon() *
                                                            std::fabs(static_cast<double>(exact)));
  CHECK(std::fabs(naive - static_cast<double>(exact)) > 1e-12 * std::fabs(static_cast<double>(exact)));
#else
  WARN("no __float128 on this compiler/target: the comparison is skipped");
#endif
}

TEMPLATE_TEST_CASE("Band eigen: Sturm counts of K - sigma M", "[linalg][eigen]", double, long double) {
  using T = TestType;
  const Index n = 60;
  SymmetricBandMatrix<T> K, M;
  interleaved_string<T>(n, 2, K, M);  // every eigenvalue twice
  for (Index j = 1; j <= 10; ++j) {
    const T lo = string_eigenvalue<T>(n, j), hi = string_eigenvalue<T>(n, j + 1);
    CHECK(count_eigenvalues_below(K, M, T(0.5) * (lo + hi)) == 2 * j);
    CHECK(count_eigenvalues_below(K, M, lo * T(1 - 1e-9)) == 2 * (j - 1));
  }
  CHECK(count_eigenvalues_below(K, M, T(-1)) == 0);
  // The solver's own check passes on its result and counts what it checked.
  BandEigenOptions opt;
  opt.backend = Backend::templated;
  const auto r = band_generalized_eigen(K, M, 7, opt);
  CHECK(r.sturm_checks == 4);  // clusters {1, 1}, {2, 2}, {3, 3}, {4}
  CHECK(r.attempts == 1);
  CHECK_THROWS_AS(count_eigenvalues_below(K, SymmetricBandMatrix<T>(n, 1), T(0)), InputError);
}

TEST_CASE("Band eigen: bad input gives named errors", "[linalg][eigen][errors]") {
  const auto K = fixtures::random_spd<double>(20, 2, 1);
  const auto M = fixtures::random_spd<double>(20, 2, 2);
  CHECK_THROWS_WITH(BandGeneralizedEigen<double>(20, 2, 0),
                    "InputError: BandGeneralizedEigen: nModes = 0 (limit: in [1, n = 20])");
  CHECK_THROWS_WITH(BandGeneralizedEigen<double>(20, 2, 21),
                    "InputError: BandGeneralizedEigen: nModes = 21 (limit: in [1, n = 20])");
  BandEigenOptions bad;
  bad.subspace = 3;
  CHECK_THROWS_AS(BandGeneralizedEigen<double>(20, 2, 5, bad), InputError);
  BandEigenOptions lap;
  lap.backend = Backend::lapack;
  CHECK_THROWS_AS(BandGeneralizedEigen<long double>(20, 2, 5, lap), InputError);
  BandGeneralizedEigen<double> solver(20, 2, 5);
  const auto K3 = fixtures::random_spd<double>(20, 3, 1);
  CHECK_THROWS_WITH(solver.compute(K3, M),
                    "InputError: BandGeneralizedEigen::compute: K shape (n) = 20 (limit: n = 20, kd = 2 as sized)");
  auto Knan = K;
  Knan.at(7, 6) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(solver.compute(Knan, M),
                    "InputError: BandGeneralizedEigen::compute: K entry (7, 6) = nan (limit: finite)");
  auto Mneg = M;
  Mneg.at(4, 4) = -1.0;
  CHECK_THROWS_AS(solver.compute(K, Mneg), InputError);
  try {
    solver.compute(K, Mneg);
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("the mass matrix must be positive definite") != std::string::npos);
  }
  // The same input gives the same result, bit for bit (fixed seed).
  const auto a = band_generalized_eigen(K, M, 5);
  const auto b = band_generalized_eigen(K, M, 5);
  CHECK(a.eigenvalues == b.eigenvalues);
  CHECK(a.vectors == b.vectors);
}
