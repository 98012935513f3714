// cabledyn: banded Cholesky (the DPBTRF/DPBTRS algorithm), templated on T.
// Spec "Linear algebra": the Hermite static energy minimisation uses the banded Cholesky
// factorisation DPBTRF/DPBTRS, whose success is the positive-definiteness test of its
// shifted tangent. A failure is therefore a result (status not_positive_definite with the
// failing pivot), not an exception: the solver raises the shift and factors again.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/linalg/band_matrix.hpp"
#include "cabledyn/linalg/detail/band_util.hpp"
#include "cabledyn/linalg/factor_result.hpp"
#include "cabledyn/linalg/lapack.hpp"

namespace cabledyn {
namespace detail {

/// Unblocked band Cholesky A = L L^T in DPBTRF lower storage (LAPACK's DPBTF2, uplo 'L',
/// 0-based): column j holds A(j..j+kd, j), overwritten by L. Returns the first j whose pivot
/// a_jj - sum_k l_jk^2 is not > 0 (NaN included), or -1; the pivot value goes to `bad`.
template <class T>
Eigen::Index pbtrf_lower(Eigen::Index n, Eigen::Index kd, T* __restrict ab, Eigen::Index ldab,
                         T& bad) {
  using Index = Eigen::Index;
  using std::sqrt;
  for (Index j = 0; j < n; ++j) {
    T* __restrict col = ab + j * ldab;
    if (!(value_of(col[0]) > 0)) {
      bad = col[0];
      return j;
    }
    col[0] = sqrt(col[0]);
    const Index kn = std::min(kd, n - 1 - j);
    if (kn == 0) continue;
    const T r = T(1) / col[0];
    for (Index p = 1; p <= kn; ++p) col[p] *= r;
    // Symmetric rank-one update of the trailing kn x kn lower triangle.
    const T* __restrict l = col + 1;
    for (Index c = 0; c < kn; ++c) {
      T* __restrict dst = ab + (j + 1 + c) * ldab;  // dst[r - c] = A(j+1+r, j+1+c)
      const T lc = l[c];
      for (Index r = c; r < kn; ++r) dst[r - c] -= l[r] * lc;
    }
  }
  return -1;
}

/// Solves L L^T X = B with the factor of pbtrf_lower (LAPACK's DPBTRS, uplo 'L').
template <class T>
void pbtrs_lower(Eigen::Index n, Eigen::Index kd, Eigen::Index nrhs, const T* __restrict ab,
                 Eigen::Index ldab, T* __restrict b, Eigen::Index ldb) {
  using Index = Eigen::Index;
  for (Index c = 0; c < nrhs; ++c) {
    T* __restrict x = b + c * ldb;
    for (Index j = 0; j < n; ++j) {  // L y = b
      const T* __restrict col = ab + j * ldab;
      x[j] /= col[0];
      const T xj = x[j];
      const Index kn = std::min(kd, n - 1 - j);
      for (Index p = 1; p <= kn; ++p) x[j + p] -= col[p] * xj;
    }
    for (Index j = n - 1; j >= 0; --j) {  // L^T x = y
      const T* __restrict col = ab + j * ldab;
      const Index kn = std::min(kd, n - 1 - j);
      T s = x[j];
      for (Index p = kn; p >= 1; --p) s -= col[p] * x[j + p];
      x[j] = s / col[0];
    }
  }
}

/// Copies a symmetric band (with an optional diagonal shift) into factor storage; returns
/// false, with the first offending entry in (bi, bj, bv), when an entry is Inf or NaN.
template <class T>
bool copy_symmetric_band(const SymmetricBandMatrix<T>& A, const T& shift, std::vector<T>& dst,
                         Eigen::Index& bi, Eigen::Index& bj, long double& bv) {
  using Index = Eigen::Index;
  const Index n = A.rows(), kd = A.kd(), ld = A.ldab();
  const T* src = A.data();
  std::copy(src, src + n * ld, dst.begin());
  const bool finite = all_finite(src, n * ld);
  if (!finite) {
    for (Index j = 0; j < n; ++j)
      for (Index i = j; i <= std::min(n - 1, j + kd); ++i)
        if (!is_finite(src[(i - j) + j * ld])) {
          bi = i;
          bj = j;
          bv = static_cast<long double>(value_of(src[(i - j) + j * ld]));
          return false;
        }
  }
  if (value_of(shift) != 0 || is_dual_v<T>)
    for (Index j = 0; j < n; ++j) dst[static_cast<std::size_t>(j * ld)] += shift;
  return true;
}

}  // namespace detail

/// Banded Cholesky factorisation A + shift I = L L^T of a symmetric band matrix (spec
/// "Linear algebra": DPBTRF/DPBTRS), for any scalar T. Sized once; factor() and solve()
/// then allocate nothing. factor() returns `not_positive_definite` with the 0-based index j
/// and value of the first pivot that is not > 0 (the leading (j+1) x (j+1) block of
/// A + shift I is not positive definite), `not_finite` for an Inf or NaN entry; it never
/// throws on such a matrix. For T = double with CABLEDYN_WITH_LAPACK: DPBTRF/DPBTRS.
template <class T>
class BandCholesky {
 public:
  using Index = Eigen::Index;

  BandCholesky() = default;
  /// Workspaces for n x n symmetric matrices with kd sub-diagonals.
  BandCholesky(Index n, Index kd, Backend backend = Backend::automatic)
      : n_(n), kd_(kd), ldab_(kd + 1) {
    detail::check_arg(n >= 0 && kd >= 0, "BandCholesky", "n, kd (smallest)", std::min(n, kd),
                    ">= 0");
    detail::require_lapack_int(ldab_ * std::max<Index>(n, 1), "BandCholesky", "ldab n");
    lapack_ = detail::use_lapack<T>(backend, "BandCholesky");
    l_.assign(static_cast<std::size_t>(ldab_ * n), T(0));
  }
  explicit BandCholesky(const SymmetricBandMatrix<T>& A, Backend backend = Backend::automatic)
      : BandCholesky(A.rows(), A.kd(), backend) {}

  Index rows() const noexcept { return n_; }
  Index kd() const noexcept { return kd_; }
  bool uses_lapack() const noexcept { return lapack_; }
  const FactorResult& result() const noexcept { return result_; }
  /// The factor L in DPBTRF lower storage.
  const T* factors() const noexcept { return l_.data(); }

  /// Factorises A + shift I (A untouched; shift 0 by default).
  FactorResult factor(const SymmetricBandMatrix<T>& A, const T& shift = T(0)) {
    if (A.rows() != n_ || A.kd() != kd_)
      throw InputError("BandCholesky::factor", "matrix shape (n)", A.rows(),
                       "n = " + std::to_string(n_) + ", kd = " + std::to_string(kd_) +
                           " as sized");
    Index bi = -1, bj = -1;
    long double bv = 0;
    if (!detail::copy_symmetric_band(A, shift, l_, bi, bj, bv)) {
      result_ = {FactorStatus::not_finite, bj, bv};
      return result_;
    }
    Index info = -1;
    T bad = T(0);
#ifdef CABLEDYN_WITH_LAPACK
    if constexpr (std::is_same_v<T, double>) {
      if (lapack_) {
        const int n = static_cast<int>(n_), kd = static_cast<int>(kd_),
                  ldab = static_cast<int>(ldab_);
        int inf = 0;
        const char uplo = 'L';
        if (n > 0) dpbtrf_(&uplo, &n, &kd, l_.data(), &ldab, &inf, 1);
        if (inf > 0) {
          info = inf - 1;
          bad = pivot_after_lapack_failure(info);
        }
      }
    }
#endif
    if (!lapack_) info = detail::pbtrf_lower(n_, kd_, l_.data(), ldab_, bad);
    if (info >= 0) {
      result_ = {is_finite(bad) ? FactorStatus::not_positive_definite : FactorStatus::not_finite,
                 info, static_cast<long double>(value_of(bad))};
      return result_;
    }
    result_ = {FactorStatus::ok, -1, 0};
    return result_;
  }

  /// Solves (A + shift I) X = B in place (columns of B contiguous). Throws SolveError on
  /// failed factors and on a non-finite solution.
  void solve(Eigen::Ref<MatX<T>> B) const {
    if (!result_.ok()) throw result_.error("BandCholesky::solve");
    detail::check_arg(B.rows() == n_, "BandCholesky::solve", "rhs rows", B.rows(), "== n");
    if (n_ == 0 || B.cols() == 0) return;
#ifdef CABLEDYN_WITH_LAPACK
    if constexpr (std::is_same_v<T, double>) {
      if (lapack_) {
        detail::require_lapack_int(B.cols(), "BandCholesky::solve", "nrhs");
        detail::require_lapack_int(B.outerStride(), "BandCholesky::solve", "ldb");
        const int n = static_cast<int>(n_), kd = static_cast<int>(kd_),
                  ldab = static_cast<int>(ldab_), nrhs = static_cast<int>(B.cols()),
                  ldb = static_cast<int>(B.outerStride());
        int info = 0;
        const char uplo = 'L';
        dpbtrs_(&uplo, &n, &kd, &nrhs, l_.data(), &ldab, B.data(), &ldb, &info, 1);
        check_solution(B);
        return;
      }
    }
#endif
    detail::pbtrs_lower(n_, kd_, B.cols(), l_.data(), ldab_, B.data(), B.outerStride());
    check_solution(B);
  }

 private:
  // DPBTRF leaves the failing diagonal entry as a_jj - sum l_jk^2 (not square-rooted) in
  // the unblocked path; the blocked path (kd > block size) may leave it mid-update, so
  // the value reported is the one LAPACK left in place.
  T pivot_after_lapack_failure(Index j) const { return l_[static_cast<std::size_t>(j * ldab_)]; }

  void check_solution(const Eigen::Ref<MatX<T>>& B) const {
    for (Index c = 0; c < B.cols(); ++c)
      for (Index i = 0; i < n_; ++i)
        if (!is_finite(B(i, c)))
          throw SolveError("BandCholesky::solve", "solution entry " + std::to_string(i),
                           value_of(B(i, c)), "finite (check the right-hand side)");
  }

  Index n_ = 0, kd_ = 0, ldab_ = 1;
  bool lapack_ = false;
  std::vector<T> l_;
  FactorResult result_{};
};

}  // namespace cabledyn
