// Banded LU with partial pivoting against Eigen's dense LU, for several band widths and
// scalar types; singular and non-finite matrices give named results; duals carry the
// derivative of the solution; factor and solve allocate nothing once sized; the double
// solve's block tables keep the backward error on badly conditioned diagonal blocks.
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include "support/alloc_counter.hpp"

#include <catch2/catch.hpp>

#include <array>

#include "band_fixtures.hpp"
#include "cabledyn/autodiff/dual.hpp"
#include "cabledyn/linalg/band_lu.hpp"

using namespace cabledyn;
using fixtures::Index;

namespace {

// Rebuilds P^-1 L U from the DGBTRF factors: U, then for j = n-2..0 apply L_j and the swap
// of step j. The result must be A (up to rounding).
template <class T>
MatX<T> reconstruct(const BandLU<T>& lu) {
  const Index n = lu.rows(), kl = lu.kl(), kv = lu.kl() + lu.ku(), ld = lu.ldab();
  const T* f = lu.factors();
  MatX<T> M = MatX<T>::Zero(n, n);
  for (Index j = 0; j < n; ++j)
    for (Index i = std::max<Index>(0, j - kv); i <= j; ++i) M(i, j) = f[kv + i - j + j * ld];
  for (Index j = n - 2; j >= 0; --j) {
    for (Index p = 1; p <= std::min(kl, n - 1 - j); ++p)
      M.row(j + p) += f[kv + p + j * ld] * M.row(j);
    if (lu.pivot(j) != j) M.row(j).swap(M.row(lu.pivot(j)));
  }
  return M;
}

template <class T>
std::vector<Backend> lu_backends() {
  std::vector<Backend> b{Backend::templated};
  if (kLapackAvailable && std::is_same_v<T, double>) b.push_back(Backend::lapack);
  return b;
}

}  // namespace

TEMPLATE_TEST_CASE("Band LU solves like dense LU for many band widths", "[linalg][band_lu]",
                   double, long double) {
  using T = TestType;
  const std::array<std::array<Index, 3>, 12> shapes{{{1, 0, 0},
                                                     {7, 0, 0},
                                                     {40, 1, 1},
                                                     {40, 0, 3},
                                                     {40, 3, 0},
                                                     {60, 2, 5},
                                                     {60, 5, 2},
                                                     {61, 5, 5},
                                                     {120, 11, 11},
                                                     {7, 11, 11},
                                                     {90, 13, 13},
                                                     {50, 1, 13}}};
  for (Backend backend : lu_backends<T>()) {
    for (const auto& [n, kl, ku] : shapes) {
      CAPTURE(n, kl, ku, backend == Backend::lapack);
      const auto A = fixtures::random_band<T>(n, kl, ku, 100 + n + 7 * kl + 13 * ku);
      const MatX<T> D = A.to_dense();
      BandLU<T> lu(A, backend);
      REQUIRE(lu.factor(A).ok());
      // The factors reproduce A: ||P^-1 L U - A|| small against ||A||.
      const MatX<T> R = reconstruct(lu);
      const T an = D.cwiseAbs().maxCoeff();
      CHECK((R - D).cwiseAbs().maxCoeff() <= 8 * (kl + 1) * fixtures::eps<T>() * an * 4);
      // Three right-hand sides at once against dense partial-pivoting LU.
      const MatX<T> B = fixtures::Random(5 + n).matrix<T>(n, 3);
      MatX<T> X = B;
      lu.solve(X);
      const MatX<T> Xd = D.partialPivLu().solve(B);
      const long double kappa = fixtures::condition_inf(D);
      CAPTURE(kappa);
      CHECK(fixtures::backward_error(D, X, B) <= 16 * fixtures::eps<T>());
      CHECK((X - Xd).cwiseAbs().maxCoeff() <=
            4 * (kl + ku + 1) * kappa * fixtures::eps<T>() * Xd.cwiseAbs().maxCoeff());
      // A vector and a column block bind too, and give the same numbers.
      VecX<T> x = B.col(1);
      lu.solve(x);
      CHECK(x == X.col(1));
      MatX<T> wide = MatX<T>::Zero(n, 5);
      wide.middleCols(1, 3) = B;
      lu.solve(wide.middleCols(1, 3));
      CHECK(wide.middleCols(1, 3) == X);
    }
  }
}

TEMPLATE_TEST_CASE("Partial pivoting swaps rows when the diagonal is small",
                   "[linalg][band_lu]", double, long double) {
  using T = TestType;
  // Zero diagonal: LU without pivoting fails at the first step; with pivoting it is exact.
  BandMatrix<T> A(4, 1, 1);
  for (Index i = 0; i + 1 < 4; ++i) {
    A.at(i, i + 1) = T(1);
    A.at(i + 1, i) = T(2);
  }
  for (Backend backend : lu_backends<T>()) {
    BandLU<T> lu(A, backend);
    REQUIRE(lu.factor(A).ok());
    CHECK(lu.pivot(0) == 1);
    VecX<T> b(4);
    b << T(1), T(2), T(3), T(4);
    const VecX<T> ref = A.to_dense().partialPivLu().solve(b);
    lu.solve(b);
    CHECK((b - ref).cwiseAbs().maxCoeff() <= 8 * fixtures::eps<T>());
  }
}

TEMPLATE_TEST_CASE("Singular and non-finite matrices give named results, never NaN",
                   "[linalg][band_lu]", double, long double) {
  using T = TestType;
  for (Backend backend : lu_backends<T>()) {
    // A zero column: exactly singular at that column.
    auto A = fixtures::random_band<T>(20, 2, 3, 9, 4.0);
    for (Index i = 4; i <= 9; ++i) A.at(i, 7) = T(0);
    BandLU<T> lu(A, backend);
    FactorResult r = lu.factor(A);
    CHECK(r.status == FactorStatus::singular);
    CHECK(r.index == 7);
    VecX<T> b = VecX<T>::Ones(20);
    CHECK_THROWS_AS(lu.solve(b), SolveError);
    CHECK(b == VecX<T>::Ones(20));  // untouched

    // A free-floating spring chain (no support): singular up to rounding, the last pivot
    // is a rounding residue, caught by the n eps test rather than left to give garbage.
    BandMatrix<T> K(30, 1, 1);
    for (Index e = 0; e + 1 < 30; ++e) {
      const T k = T(1e9 * (1.0 + 0.37 * std::sin(1.0 + e)));
      K.add(e, e, k);
      K.add(e + 1, e + 1, k);
      K.add(e, e + 1, -k);
      K.add(e + 1, e, -k);
    }
    BandLU<T> lk(K, backend);
    r = lk.factor(K);
    CHECK(r.status == FactorStatus::singular);
    CHECK(r.index == 29);
    VecX<T> b30 = VecX<T>::Ones(30);
    try {
      lk.solve(b30);
      FAIL("solve on singular factors must throw");
    } catch (const SolveError& e) {
      CHECK(std::string(e.what()).find("singular: pivot 29") != std::string::npos);
    }
    // Held at one end, the same chain is regular.
    K.hold(0, T(1e9));
    CHECK(lk.factor(K).ok());

    // Inf / NaN entries: not_finite at their column.
    auto N = fixtures::random_band<T>(10, 1, 2, 4, 3.0);
    N.at(3, 5) = std::numeric_limits<T>::quiet_NaN();
    BandLU<T> ln(N, backend);
    r = ln.factor(N);
    CHECK(r.status == FactorStatus::not_finite);
    CHECK(r.index == 5);
    N.at(3, 5) = std::numeric_limits<T>::infinity();
    CHECK(ln.factor(N).status == FactorStatus::not_finite);
    // A NaN right-hand side is refused after the solve with a named error.
    N.at(3, 5) = T(0.5);
    REQUIRE(ln.factor(N).ok());
    VecX<T> bn = VecX<T>::Ones(10);
    bn(2) = std::numeric_limits<T>::quiet_NaN();
    CHECK_THROWS_AS(ln.solve(bn), SolveError);
  }
  BandLU<T> unused(5, 1, 1);
  VecX<T> b = VecX<T>::Ones(5);
  CHECK_THROWS_AS(unused.solve(b), SolveError);  // not factored
  CHECK_THROWS_AS(unused.factor(BandMatrix<T>(5, 2, 1)), InputError);  // shape mismatch
  if (!std::is_same_v<T, double> || !kLapackAvailable)
    CHECK_THROWS_AS(BandLU<T>(5, 1, 1, Backend::lapack), InputError);
}

TEST_CASE("Band LU differentiates through duals", "[linalg][band_lu][dual]") {
  // A(p) x = b(p) with A(p) = A0 + p0 A1 and b(p) = b0 + p1 b1: the dual solution's
  // derivatives are dx/dp0 = -A^-1 A1 x and dx/dp1 = A^-1 b1 (implicit differentiation).
  using D = Dual<double, 2>;
  const Index n = 48, kl = 5, ku = 3;
  const auto A0 = fixtures::random_band<double>(n, kl, ku, 31);
  const auto A1 = fixtures::random_band<double>(n, kl, ku, 32);
  const VecX<double> b0 = fixtures::Random(33).vector<double>(n);
  const VecX<double> b1 = fixtures::Random(34).vector<double>(n);
  BandMatrix<D> A(n, kl, ku);
  VecX<D> b(n);
  for (Index j = 0; j < n; ++j)
    for (Index i = std::max<Index>(0, j - ku); i <= std::min(n - 1, j + kl); ++i) {
      A.at(i, j) = D(A0(i, j), 2, 0);
      A.at(i, j).derivatives() << A1(i, j), 0.0;
    }
  for (Index i = 0; i < n; ++i) {
    b(i) = D(b0(i));
    b(i).derivatives() << 0.0, b1(i);
  }
  BandLU<D> lu(A);
  REQUIRE(lu.factor(A).ok());
  lu.solve(b);

  BandLU<double> lu0(A0);
  REQUIRE(lu0.factor(A0).ok());
  VecX<double> x = b0;
  lu0.solve(x);
  VecX<double> dx0(n), dx1 = b1;
  A1.multiply(x, dx0);
  dx0 = -dx0;
  lu0.solve(dx0);
  lu0.solve(dx1);
  double e0 = 0, e1 = 0, ex = 0;
  for (Index i = 0; i < n; ++i) {
    ex = std::max(ex, std::abs(b(i).value() - x(i)));
    e0 = std::max(e0, std::abs(b(i).derivatives()(0) - dx0(i)));
    e1 = std::max(e1, std::abs(b(i).derivatives()(1) - dx1(i)));
  }
  CHECK(ex <= 1e-13 * x.cwiseAbs().maxCoeff());
  CHECK(e0 <= 1e-11 * dx0.cwiseAbs().maxCoeff());
  CHECK(e1 <= 1e-12 * dx1.cwiseAbs().maxCoeff());
}

TEMPLATE_TEST_CASE("Band LU factors and solves again without allocating",
                   "[linalg][band_lu][alloc]", double, long double) {
  using T = TestType;
  const auto A = fixtures::random_band<T>(150, 11, 11, 77);
  for (Backend backend : lu_backends<T>()) {
    BandLU<T> lu(A, backend);
    MatX<T> B = fixtures::Random(78).matrix<T>(150, 2);
    VecX<T> b = B.col(0);
    {
      test_support::AllocationCounter probe;  // the counter sees an allocation
      std::vector<double> v(10);
      v[3] = 1.0;
      CHECK(probe.allocations() == 1);
      CHECK(v[3] == 1.0);
    }
    test_support::AllocationCounter count;
    {
      test_support::EigenMallocGuard no_eigen_malloc;
      for (int k = 0; k < 5; ++k) {
        REQUIRE(lu.factor(A).ok());
        lu.solve(B);
        lu.solve(b);
      }
    }
    CHECK(count.allocations() == 0);
    CHECK(count.deallocations() == 0);
  }
}

TEST_CASE("The double solve's block tables keep the substitution's backward error", "[linalg][band_lu]") {
  // The columns of each aligned group of four nearly equal (1e-7 apart), so that the pivots
  // after the group's first are small whatever the row swaps: badly conditioned 4 x 4
  // diagonal blocks in U: a product with the inverse
  // of such a block would lose the backward stability; the tables (Linv forward, U's unit
  // upper columns and reciprocal pivots backward) must not.
  for (const auto& [n, kl, ku] : std::array<std::array<Index, 3>, 3>{{{120, 11, 11}, {90, 13, 13}, {61, 5, 5}}}) {
    CAPTURE(n, kl, ku);
    BandMatrix<double> A = fixtures::random_band<double>(n, kl, ku, 4242 + n);
    for (Index j = 0; j < n; ++j) {
      const Index b = j / 4 * 4;
      if (b == j) continue;
      for (Index i = std::max<Index>(0, j - ku); i <= std::min<Index>(n - 1, j + kl); ++i)
        A.at(i, j) = (i <= b + kl ? A.at(i, b) : 0.0) + 1e-7 * A.at(i, j);
    }
    const MatX<double> D = A.to_dense();
    BandLU<double> lu(A, Backend::templated);
    REQUIRE(lu.factor(A).ok());
    std::vector<int> ipiv(static_cast<std::size_t>(n));
    for (Index j = 0; j < n; ++j) ipiv[static_cast<std::size_t>(j)] = static_cast<int>(lu.pivot(j));
    std::vector<double> tables(static_cast<std::size_t>(n / 4 * 32));
    detail::block_tables(n, kl, ku, lu.factors(), lu.ldab(), tables.data());
    // Reciprocal pivots in the tables, and the worst condition of a diagonal U block.
    const Index kv = kl + ku;
    auto U = [&](Index i, Index j) { return lu.factors()[kv + i - j + j * lu.ldab()]; };
    double worst_block = 0;
    for (Index k = 0; 4 * k + 3 < n; ++k) {
      Mat<double, 4> Ub = Mat<double, 4>::Zero();
      for (int c = 0; c < 4; ++c) {
        CHECK(std::abs(tables[static_cast<std::size_t>(32 * k + 16 + c)] * U(4 * k + c, 4 * k + c) - 1) <=
              2 * fixtures::eps<double>());
        for (int r = 0; r <= c; ++r) Ub(r, c) = U(4 * k + r, 4 * k + c);
      }
      worst_block = std::max(worst_block, static_cast<double>(fixtures::condition_inf(MatX<double>(Ub))));
    }
    const MatX<double> B = fixtures::Random(77 + n).matrix<double>(n, 2);
    MatX<double> Xt = B, Xs = B, Xl = B;
    detail::gbtrs(n, kl, ku, 2, lu.factors(), lu.ldab(), ipiv.data(), Xt.data(), n, tables.data());
    detail::gbtrs(n, kl, ku, 2, lu.factors(), lu.ldab(), ipiv.data(), Xs.data(), n);
    lu.solve(Xl);
    const double et = static_cast<double>(fixtures::backward_error(D, Xt, B));
    const double es = static_cast<double>(fixtures::backward_error(D, Xs, B));
    CAPTURE(et / fixtures::eps<double>(), es / fixtures::eps<double>(), worst_block, fixtures::condition_inf(D));
    CHECK(worst_block > 1e6);  // the case the tables must survive
    CHECK(et <= 8 * fixtures::eps<double>());
    CHECK(es <= 8 * fixtures::eps<double>());
    CHECK(Xl == Xt);  // BandLU::solve takes the tables
  }
}
