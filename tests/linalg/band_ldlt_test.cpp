// Banded LDL^T: the inertia (negative pivot count) equals the dense eigenvalue count, within
// the stated perturbation bound; spectrum slicing of K - sigma M; zero pivots and NaN give
// named results; no allocation once sized.
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include "support/alloc_counter.hpp"

#include <catch2/catch.hpp>

#include <array>

#include "band_fixtures.hpp"
#include "cabledyn/autodiff/dual.hpp"
#include "cabledyn/linalg/band_ldlt.hpp"

using namespace cabledyn;
using fixtures::Index;

TEMPLATE_TEST_CASE("LDL^T inertia equals the dense eigenvalue count",
                   "[linalg][band_ldlt]", double, long double) {
  using T = TestType;
  int exact = 0, cases = 0;
  for (const auto& [n, kd] :
       std::array<std::array<Index, 2>, 5>{{{30, 1}, {60, 3}, {80, 5}, {120, 11}, {90, 13}}}) {
    for (double lift : {0.0, 1.0, 2.5}) {
      for (std::uint64_t seed = 0; seed < 4; ++seed) {
        CAPTURE(n, kd, lift, seed);
        // Indefinite: entries in [-1, 1] plus lift I (some eigenvalues of either sign).
        const auto S = fixtures::random_symmetric<T>(n, kd, 1000 * seed + 10 * n + kd, lift);
        const MatX<T> D = S.to_dense();
        BandLDLT<T> ldlt(S);
        REQUIRE(ldlt.factor(S).ok());
        const Inertia in = ldlt.inertia();
        const long double delta = ldlt.perturbation_bound();
        CHECK(in.negative + in.positive == n);
        // The certificate: the count is that of a matrix within delta of A.
        const VecX<long double> lambda = fixtures::eigenvalues(D);
        CHECK(in.negative >= fixtures::count_below(lambda, -delta));
        CHECK(in.negative <= fixtures::count_below(lambda, delta));
        ++cases;
        if (fixtures::count_below(lambda, -delta) == fixtures::count_below(lambda, delta)) {
          ++exact;
          CHECK(in.negative == fixtures::count_below(lambda, 0.0L));
        }
      }
    }
  }
  // The bound is tight enough to decide the count on nearly all random matrices.
  CHECK(exact >= cases - 3);
}

TEMPLATE_TEST_CASE("LDL^T of a stiffness K - sigma M counts the modes below sigma",
                   "[linalg][band_ldlt]", double, long double) {
  using T = TestType;
  // The Sturm count of the modal analysis: neg(K - sigma M) = #{omega^2 < sigma}.
  const Index nodes = 40;
  const auto K = fixtures::stiff_cable<T>(nodes);
  const Index n = K.rows();
  SymmetricBandMatrix<T> M(n, K.kd());
  for (Index i = 0; i < n; ++i) M.add(i, i, T(1 + 0.5 * std::sin(0.3 * i)));
  const MatX<T> Kd = K.to_dense(), Md = M.to_dense();
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX<long double>> ges(
      Kd.template cast<long double>(), Md.template cast<long double>(), Eigen::EigenvaluesOnly);
  const VecX<long double> w2 = ges.eigenvalues();
  BandLDLT<T> ldlt(K);
  SymmetricBandMatrix<T> A(n, K.kd());
  // Shifts between consecutive eigenvalues, from the lowest modes to the axial ones.
  for (Index k : {Index(0), Index(1), Index(5), Index(40), Index(80), n - 10, n - 2}) {
    const long double sigma = 0.5L * (w2(k) + w2(k + 1));
    CAPTURE(k, sigma);
    for (Index j = 0; j < n; ++j)
      for (Index i = j; i <= std::min(n - 1, j + K.kd()); ++i)
        A.at(i, j) = K(i, j) - T(sigma) * M(i, j);
    REQUIRE(ldlt.factor(A).ok());
    // Count exact unless an eigenvalue of K - sigma M lies within the bound.
    CHECK(ldlt.negative_count() == k + 1);
    CHECK(ldlt.perturbation_bound() < 1e-3 * std::abs(static_cast<double>(w2(k + 1) - sigma)));
  }
  // The shift argument does the same without rebuilding: neg(K + s I) = #{lambda(K) < -s}.
  const VecX<long double> lam = fixtures::eigenvalues(Kd);
  const long double s = -0.5L * (lam(3) + lam(4));
  REQUIRE(ldlt.factor(K, T(s)).ok());
  CHECK(ldlt.negative_count() == 4);
}

TEMPLATE_TEST_CASE("LDL^T zero pivots and NaN are named results", "[linalg][band_ldlt]",
                   double, long double) {
  using T = TestType;
  // [[0, 1], [1, 0]]: nonsingular (inertia 1, 1), but LDL^T without pivoting meets d_0 = 0.
  SymmetricBandMatrix<T> A(2, 1);
  A.add(1, 0, T(1));
  BandLDLT<T> ldlt(A);
  FactorResult r = ldlt.factor(A);
  CHECK(r.status == FactorStatus::zero_pivot);
  CHECK(r.index == 0);
  CHECK_THROWS_AS(ldlt.inertia(), SolveError);
  // A shift moves it off the zero pivot: neg(A + 0.5 I) = 1 (eigenvalues -0.5, 1.5).
  REQUIRE(ldlt.factor(A, T(0.5)).ok());
  CHECK(ldlt.negative_count() == 1);
  // A tiny pivot: the factorisation goes through with element growth l = 1e13, which the
  // bound shows (about 1e13 eps instead of a few eps); it is still below the eigenvalues
  // +-1 of A, so the count (1 negative) stays certified, and is right.
  A.add(0, 0, T(1e-13));
  REQUIRE(ldlt.factor(A).ok());
  CHECK(ldlt.perturbation_bound() > 1e12 * fixtures::eps<T>());
  CHECK(ldlt.perturbation_bound() < 1);
  CHECK(ldlt.negative_count() == 1);
  A.at(1, 1) = std::numeric_limits<T>::quiet_NaN();
  r = ldlt.factor(A);
  CHECK(r.status == FactorStatus::not_finite);
  CHECK(r.index == 1);
}

TEMPLATE_TEST_CASE("LDL^T solves a definite system", "[linalg][band_ldlt]", double,
                   long double) {
  using T = TestType;
  const auto S = fixtures::random_spd<T>(70, 6, 12);
  BandLDLT<T> ldlt(S);
  REQUIRE(ldlt.factor(S).ok());
  CHECK(ldlt.negative_count() == 0);
  const MatX<T> B = fixtures::Random(13).matrix<T>(70, 2);
  MatX<T> X = B;
  ldlt.solve(X);
  CHECK(fixtures::backward_error(S.to_dense(), X, B) <= 16 * fixtures::eps<T>());
}

TEST_CASE("LDL^T runs on duals", "[linalg][band_ldlt][dual]") {
  using D = Dual<double, 1>;
  const auto S0 = fixtures::random_symmetric<double>(25, 3, 77, 1.0);
  SymmetricBandMatrix<D> S(25, 3);
  for (Index j = 0; j < 25; ++j)
    for (Index i = j; i <= std::min<Index>(24, j + 3); ++i) S.at(i, j) = D(S0(i, j), 1, 0);
  BandLDLT<D> ldlt(S);
  BandLDLT<double> l0(S0);
  REQUIRE(ldlt.factor(S).ok());
  REQUIRE(l0.factor(S0).ok());
  CHECK(ldlt.negative_count() == l0.negative_count());
  // d(det)/dp / det = trace(A^-1 dA/dp) = sum_j d'_j / d_j (all entries move with p).
  double sum = 0;
  for (Index j = 0; j < 25; ++j) sum += ldlt.pivot(j).derivatives()(0) / ldlt.pivot(j).value();
  MatX<double> ones = MatX<double>::Zero(25, 25);
  for (Index j = 0; j < 25; ++j)
    for (Index i = std::max<Index>(0, j - 3); i <= std::min<Index>(24, j + 3); ++i)
      ones(i, j) = 1;
  const double trace = S0.to_dense().partialPivLu().solve(ones).trace();
  CHECK(sum == Approx(trace).epsilon(1e-10));
}

TEMPLATE_TEST_CASE("LDL^T factors again without allocating", "[linalg][band_ldlt][alloc]",
                   double, long double) {
  using T = TestType;
  const auto S = fixtures::random_symmetric<T>(120, 11, 3, 2.0);
  BandLDLT<T> ldlt(S);
  MatX<T> B = fixtures::Random(4).matrix<T>(120, 2);
  test_support::AllocationCounter count;
  {
    test_support::EigenMallocGuard no_eigen_malloc;
    for (int k = 0; k < 5; ++k) {
      REQUIRE(ldlt.factor(S).ok());
      ldlt.solve(B);
    }
  }
  CHECK(count.allocations() == 0);
}
