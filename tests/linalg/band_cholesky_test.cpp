// Banded Cholesky against Eigen's dense LLT; a matrix that is not positive definite is a
// result with the failing pivot (the first leading block that is not definite), which a
// shift then cures; duals; no allocation once sized.
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include "support/alloc_counter.hpp"

#include <catch2/catch.hpp>

#include <array>

#include "band_fixtures.hpp"
#include "cabledyn/autodiff/dual.hpp"
#include "cabledyn/linalg/band_cholesky.hpp"

using namespace cabledyn;
using fixtures::Index;

namespace {
template <class T>
std::vector<Backend> backends() {
  std::vector<Backend> b{Backend::templated};
  if (kLapackAvailable && std::is_same_v<T, double>) b.push_back(Backend::lapack);
  return b;
}

// First j whose leading (j+1) x (j+1) block is not positive definite (smallest eigenvalue
// <= 0), by dense eigenvalues; -1 if none.
template <class T>
Index first_indefinite_leading_block(const MatX<T>& D) {
  for (Index k = 1; k <= D.rows(); ++k)
    if (fixtures::eigen_count_below(MatX<T>(D.topLeftCorner(k, k)), 0.0L) > 0) return k - 1;
  return -1;
}
}  // namespace

TEMPLATE_TEST_CASE("Band Cholesky solves like dense LLT", "[linalg][band_cholesky]", double,
                   long double) {
  using T = TestType;
  for (Backend backend : backends<T>()) {
    for (const auto& [n, kd] : std::array<std::array<Index, 2>, 7>{
             {{1, 0}, {9, 0}, {40, 1}, {60, 5}, {120, 11}, {8, 11}, {90, 13}}}) {
      CAPTURE(n, kd, backend == Backend::lapack);
      const auto S = fixtures::random_spd<T>(n, kd, 200 + n + kd);
      const MatX<T> D = S.to_dense();
      BandCholesky<T> ch(S, backend);
      REQUIRE(ch.factor(S).ok());
      // L L^T reproduces A, and L equals the dense Cholesky factor.
      MatX<T> L = MatX<T>::Zero(n, n);
      for (Index j = 0; j < n; ++j)
        for (Index i = j; i <= std::min(n - 1, j + kd); ++i)
          L(i, j) = ch.factors()[(i - j) + j * (kd + 1)];
      const T an = D.cwiseAbs().maxCoeff();
      CHECK((L * L.transpose() - D).cwiseAbs().maxCoeff() <= 4 * (kd + 2) * fixtures::eps<T>() * an);
      const MatX<T> Ld = D.llt().matrixL();
      CHECK((L - Ld).cwiseAbs().maxCoeff() <=
            64 * fixtures::condition_inf(D) * fixtures::eps<T>() * Ld.cwiseAbs().maxCoeff());
      const MatX<T> B = fixtures::Random(3 + n).matrix<T>(n, 2);
      MatX<T> X = B;
      ch.solve(X);
      CHECK(fixtures::backward_error(D, X, B) <= 8 * fixtures::eps<T>());
    }
  }
}

TEMPLATE_TEST_CASE("Not positive definite is a result naming the failing pivot",
                   "[linalg][band_cholesky]", double, long double) {
  using T = TestType;
  for (Backend backend : backends<T>()) {
    for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
      // Random symmetric matrices with a diagonal lift: definite for a while, then not.
      const auto S = fixtures::random_symmetric<T>(40, 4, seed, 1.5);
      const MatX<T> D = S.to_dense();
      const Index expected = first_indefinite_leading_block(D);
      REQUIRE(expected >= 0);
      BandCholesky<T> ch(S, backend);
      FactorResult r;
      REQUIRE_NOTHROW(r = ch.factor(S));
      CHECK(r.status == FactorStatus::not_positive_definite);
      CHECK(r.index == expected);
      CHECK(r.value <= 0);
      VecX<T> b = VecX<T>::Ones(40);
      CHECK_THROWS_AS(ch.solve(b), SolveError);
      // Shift past the smallest eigenvalue and retry, as the static solver does.
      Eigen::SelfAdjointEigenSolver<MatX<T>> es(D);
      const T lmin = es.eigenvalues()(0);
      CHECK(ch.factor(S, -lmin - T(1e-3)).status == FactorStatus::not_positive_definite);
      REQUIRE(ch.factor(S, -lmin + T(1e-3)).ok());
      ch.solve(b);
      const MatX<T> Dshift = D + (-lmin + T(1e-3)) * MatX<T>::Identity(40, 40);
      CHECK(fixtures::backward_error(Dshift, MatX<T>(b), MatX<T>(VecX<T>::Ones(40))) <=
            8 * fixtures::eps<T>());
    }
    // Zero and negative leading pivots, and NaN entries.
    SymmetricBandMatrix<T> Z(3, 1);
    Z.add(1, 1, T(1));
    Z.add(2, 2, T(1));
    BandCholesky<T> cz(Z, backend);
    FactorResult r = cz.factor(Z);
    CHECK(r.status == FactorStatus::not_positive_definite);
    CHECK(r.index == 0);
    CHECK(r.value == 0);
    Z.add(0, 0, T(1));
    Z.add(2, 2, T(-3));
    r = cz.factor(Z);
    CHECK(r.index == 2);
    CHECK(r.value == -2);
    Z.at(2, 1) = std::numeric_limits<T>::quiet_NaN();
    r = cz.factor(Z);
    CHECK(r.status == FactorStatus::not_finite);
    CHECK(r.index == 1);
    CHECK(std::string(r.error("static solver").what()).find("not finite") != std::string::npos);
  }
}

TEST_CASE("Band Cholesky differentiates through duals", "[linalg][band_cholesky][dual]") {
  using D = Dual<double, 1>;
  const Index n = 30, kd = 4;
  const auto A0 = fixtures::random_spd<double>(n, kd, 41);
  const auto A1 = fixtures::random_symmetric<double>(n, kd, 42);
  const VecX<double> b0 = fixtures::Random(43).vector<double>(n);
  SymmetricBandMatrix<D> A(n, kd);
  for (Index j = 0; j < n; ++j)
    for (Index i = j; i <= std::min(n - 1, j + kd); ++i) {
      A.at(i, j) = D(A0(i, j), 1, 0);
      A.at(i, j).derivatives()(0) = A1(i, j);
    }
  VecX<D> b(n);
  for (Index i = 0; i < n; ++i) b(i) = D(b0(i), VecX<double>::Zero(1));
  BandCholesky<D> ch(A);
  REQUIRE(ch.factor(A).ok());
  ch.solve(b);
  BandCholesky<double> c0(A0);
  REQUIRE(c0.factor(A0).ok());
  VecX<double> x = b0, dx(n);
  c0.solve(x);
  A1.multiply(x, dx);
  dx = -dx;
  c0.solve(dx);
  double e = 0;
  for (Index i = 0; i < n; ++i) e = std::max(e, std::abs(b(i).derivatives()(0) - dx(i)));
  CHECK(e <= 1e-11 * dx.cwiseAbs().maxCoeff());
}

TEMPLATE_TEST_CASE("Band Cholesky factors and solves again without allocating",
                   "[linalg][band_cholesky][alloc]", double, long double) {
  using T = TestType;
  const auto S = fixtures::random_spd<T>(120, 11, 5);
  const auto N = fixtures::random_symmetric<T>(120, 11, 6);
  for (Backend backend : backends<T>()) {
    BandCholesky<T> ch(S, backend);
    MatX<T> B = fixtures::Random(8).matrix<T>(120, 2);
    test_support::AllocationCounter count;
    {
      test_support::EigenMallocGuard no_eigen_malloc;
      for (int k = 0; k < 5; ++k) {
        REQUIRE(ch.factor(S).ok());
        ch.solve(B);
        REQUIRE_FALSE(ch.factor(N).ok());  // the failure path allocates nothing either
      }
    }
    CHECK(count.allocations() == 0);
  }
}
