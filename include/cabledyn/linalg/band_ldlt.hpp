// cabledyn: banded LDL^T without pivoting, and the inertia of a symmetric band matrix.
// Spec "Condensed torsion", Statics and stability: each converged stage is tested for
// stability by the inertia of K on the free DOFs, the negative eigenvalues of B counted by
// a banded L D L^T factorisation.
//
// Pivoting. Symmetric pivoting (Bunch-Kaufman) would widen the band, so the factorisation
// takes the diagonal in order, as a Sturm count does. By Sylvester's law the number of
// negative d_j is the number of negative eigenvalues of L D L^T. Rounding makes the
// computed factors exact for A + E with |E| <= gamma |L| |D| |L^T| entrywise (Higham,
// Accuracy and Stability of Numerical Algorithms, 2nd ed., Thm 9.3 and sec. 10.4:
// gamma = k u / (1 - k u), k = kd + 3 counting the reciprocal and the band's kd + 1 terms).
// Cauchy-Schwarz bounds each entry of |L||D||L^T| by max_i m_i, m_i = sum_k l_ik^2 |d_k|,
// and each row has at most 2 kd + 1 of them, so
//     ||E||_2 <= delta = gamma (2 kd + 1) max_i m_i      (perturbation_bound()).
// The count is then exact for A whenever no eigenvalue of A lies in [-delta, delta]
// (Weyl), and in general it lies between #{lambda < -delta} and #{lambda < delta}.
// delta is small (a few eps ||A||) when the pivots do not grow, e.g. for a definite or
// diagonally dominant matrix, or a stiffness matrix a little past a bifurcation; a tiny
// pivot makes max m_i, and so delta, large: then shift the matrix (factor(A, shift) counts
// the eigenvalues below -shift) to move away from the near-zero eigenvalue.
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

namespace cabledyn {

/// Inertia of a symmetric matrix: how many eigenvalues are negative, and how many positive.
struct Inertia {
  Eigen::Index negative = 0;
  Eigen::Index positive = 0;
};

/// Banded A + shift I = L D L^T without pivoting, for any scalar T; the inertia of the
/// matrix is the sign count of D (see the file comment for when it is reliable). Sized
/// once; factor() and solve() then allocate nothing. factor() returns `zero_pivot` (index
/// and value of the first d_j that is exactly zero) or `not_finite` (an Inf or NaN entry, or
/// a pivot that overflowed), never a NaN inertia.
template <class T>
class BandLDLT {
 public:
  using Index = Eigen::Index;
  using Real = value_type_t<T>;

  BandLDLT() = default;
  BandLDLT(Index n, Index kd) : n_(n), kd_(kd), ldab_(kd + 1) {
    detail::check_arg(n >= 0 && kd >= 0, "BandLDLT", "n, kd (smallest)", std::min(n, kd),
                    ">= 0");
    f_.assign(static_cast<std::size_t>(ldab_ * n), T(0));
    m_.assign(static_cast<std::size_t>(n), Real(0));
  }
  explicit BandLDLT(const SymmetricBandMatrix<T>& A) : BandLDLT(A.rows(), A.kd()) {}

  Index rows() const noexcept { return n_; }
  Index kd() const noexcept { return kd_; }
  const FactorResult& result() const noexcept { return result_; }
  /// Factors in lower band storage: d_j on the diagonal row, l_ij below it.
  const T* factors() const noexcept { return f_.data(); }
  /// d_j.
  T pivot(Index j) const { return f_[static_cast<std::size_t>(j * ldab_)]; }

  /// Factorises A + shift I (A untouched).
  FactorResult factor(const SymmetricBandMatrix<T>& A, const T& shift = T(0)) {
    using std::abs;
    if (A.rows() != n_ || A.kd() != kd_)
      throw InputError("BandLDLT::factor", "matrix shape (n)", A.rows(),
                       "n = " + std::to_string(n_) + ", kd = " + std::to_string(kd_) +
                           " as sized");
    inertia_ = {};
    delta_ = 0;
    const T* src = A.data();
    std::copy(src, src + n_ * ldab_, f_.begin());
    if (!detail::all_finite(src, n_ * ldab_)) {
      for (Index j = 0; j < n_; ++j)
        for (Index r = 0; r <= std::min(kd_, n_ - 1 - j); ++r)
          if (!is_finite(src[r + j * ldab_])) {
            result_ = {FactorStatus::not_finite, j,
                       static_cast<long double>(value_of(src[r + j * ldab_]))};
            return result_;
          }
    }
    T* __restrict ab = f_.data();
    for (Index j = 0; j < n_; ++j) ab[j * ldab_] += shift;
    for (Index j = 0; j < n_; ++j) {
      T* __restrict col = ab + j * ldab_;
      const T d = col[0];
      if (!is_finite(d) || value_of(d) == 0) {
        result_ = {is_finite(d) ? FactorStatus::zero_pivot : FactorStatus::not_finite, j,
                   static_cast<long double>(value_of(d))};
        return result_;
      }
      if (value_of(d) < 0)
        ++inertia_.negative;
      else
        ++inertia_.positive;
      const Index kn = std::min(kd_, n_ - 1 - j);
      if (kn == 0) continue;
      const T r = T(1) / d;
      // col[1..kn] holds the column below the pivot, c_i = a_ij; l_i = c_i / d and the
      // trailing block loses l c^T.
      for (Index c = 1; c <= kn; ++c) {
        const T cc = col[c];
        T* __restrict dst = ab + (j + c) * ldab_;  // dst[q - c] = A(j+q, j+c)
        for (Index q = c; q <= kn; ++q) dst[q - c] -= (col[q] * r) * cc;
      }
      for (Index p = 1; p <= kn; ++p) col[p] *= r;
    }
    // Backward-error bound delta (file comment).
    std::fill(m_.begin(), m_.end(), Real(0));
    for (Index k = 0; k < n_; ++k) {
      const T* col = ab + k * ldab_;
      const Real dk = abs(value_of(col[0]));
      m_[static_cast<std::size_t>(k)] += dk;
      for (Index p = 1; p <= std::min(kd_, n_ - 1 - k); ++p) {
        const Real l = value_of(col[p]);
        m_[static_cast<std::size_t>(k + p)] += l * l * dk;
      }
    }
    const Real u = epsilon<T>() / 2;
    const Real k = static_cast<Real>(kd_ + 3);
    const Real gamma = k * u / (1 - k * u);
    const Real mmax = n_ > 0 ? *std::max_element(m_.begin(), m_.end()) : Real(0);
    delta_ = gamma * static_cast<Real>(2 * kd_ + 1) * mmax;
    if (!std::isfinite(delta_)) {
      result_ = {FactorStatus::not_finite, -1, static_cast<long double>(delta_)};
      return result_;
    }
    result_ = {FactorStatus::ok, -1, 0};
    return result_;
  }

  /// Signs of D: the inertia of A + shift I up to the bound below. Throws SolveError on
  /// failed factors.
  Inertia inertia() const {
    if (!result_.ok()) throw result_.error("BandLDLT::inertia");
    return inertia_;
  }
  /// Number of negative pivots (negative eigenvalues of A + shift I).
  Index negative_count() const { return inertia().negative; }

  /// delta: the computed factors are exact for a matrix within delta of A + shift I in the
  /// 2-norm, so the inertia is exact when no eigenvalue lies within delta of zero.
  Real perturbation_bound() const noexcept { return delta_; }

  /// Solves (A + shift I) X = B in place (no pivoting: accurate when the pivots do not
  /// grow, i.e. when perturbation_bound() is small against the smallest |eigenvalue|).
  void solve(Eigen::Ref<MatX<T>> B) const {
    if (!result_.ok()) throw result_.error("BandLDLT::solve");
    detail::check_arg(B.rows() == n_, "BandLDLT::solve", "rhs rows", B.rows(), "== n");
    const T* __restrict ab = f_.data();
    for (Index c = 0; c < B.cols(); ++c) {
      T* __restrict x = B.data() + c * B.outerStride();
      for (Index j = 0; j < n_; ++j) {  // L y = b
        const T xj = x[j];
        const T* __restrict col = ab + j * ldab_;
        for (Index p = 1; p <= std::min(kd_, n_ - 1 - j); ++p) x[j + p] -= col[p] * xj;
      }
      for (Index j = 0; j < n_; ++j) x[j] /= ab[j * ldab_];  // D z = y
      for (Index j = n_ - 1; j >= 0; --j) {                   // L^T x = z
        const T* __restrict col = ab + j * ldab_;
        T s = x[j];
        for (Index p = std::min(kd_, n_ - 1 - j); p >= 1; --p) s -= col[p] * x[j + p];
        x[j] = s;
      }
      for (Index i = 0; i < n_; ++i)
        if (!is_finite(x[i]))
          throw SolveError("BandLDLT::solve", "solution entry " + std::to_string(i),
                           value_of(x[i]), "finite (check the right-hand side)");
    }
  }

 private:
  Index n_ = 0, kd_ = 0, ldab_ = 1;
  std::vector<T> f_;
  std::vector<Real> m_;
  Inertia inertia_{};
  Real delta_ = 0;
  FactorResult result_{};
};

}  // namespace cabledyn
