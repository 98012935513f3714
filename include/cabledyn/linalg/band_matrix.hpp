// cabledyn: band matrices in LAPACK band storage, with assembly and in-band Dirichlet rows.
// Spec "Linear algebra": every global operator is stored in LAPACK band form with
// Dirichlet conditions applied in band; the half-bandwidth of a line is that of its DOF
// layout (core/dof_layout.hpp: 2 * kNodeDofs - 1), never a hard-coded number.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "cabledyn/core/dof_layout.hpp"
#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/pack.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/linalg/detail/band_util.hpp"

namespace cabledyn {

/// Global DOF indices of the two-node element `element` of a line numbered node by node in
/// layout L (element e joins nodes e and e + 1), for `add_block`.
template <DofLayout L>
std::array<Eigen::Index, L::kElementDofs> element_dofs(std::size_t element) {
  std::array<Eigen::Index, L::kElementDofs> dofs{};
  for (int i = 0; i < L::kElementDofs; ++i)
    dofs[static_cast<std::size_t>(i)] = static_cast<Eigen::Index>(L::element_index(element, i));
  return dofs;
}

/// General band matrix of order n with kl sub- and ku super-diagonals, in the storage of
/// LAPACK's DGBTRF: column-major, leading dimension ldab = 2 kl + ku + 1, entry A(i, j)
/// (0-based) at data()[(kl + ku + i - j) + j ldab]. The first kl rows of each column are the
/// fill-in space LU needs; assembly never writes them (they stay zero), so data() can be
/// handed to DGBSV/DGBTRF as it is.
template <class T>
class BandMatrix {
 public:
  using Index = Eigen::Index;
  using Scalar = T;

  BandMatrix() = default;
  /// Zero n x n matrix with kl sub- and ku super-diagonals. Throws InputError for n < 0,
  /// kl < 0 or ku < 0.
  BandMatrix(Index n, Index kl, Index ku) : n_(n), kl_(kl), ku_(ku) {
    detail::check_arg(n >= 0, "BandMatrix", "n", n, ">= 0");
    detail::check_arg(kl >= 0, "BandMatrix", "kl", kl, ">= 0");
    detail::check_arg(ku >= 0, "BandMatrix", "ku", ku, ">= 0");
    ldab_ = 2 * kl + ku + 1;
    ab_.assign(static_cast<std::size_t>(ldab_ * n), T(0));
  }

  /// The matrix of a line of `nodes` nodes in layout L: n = L::line_dofs(nodes),
  /// kl = ku = L::half_bandwidth().
  template <DofLayout L>
  static BandMatrix for_line(std::size_t nodes) {
    return BandMatrix(static_cast<Index>(L::line_dofs(nodes)), L::half_bandwidth(),
                      L::half_bandwidth());
  }

  /// Packs the band of a dense matrix (reference path, tests). Throws InputError when an
  /// entry outside the band is nonzero.
  template <class Derived>
  static BandMatrix from_dense(const Eigen::MatrixBase<Derived>& M, Index kl, Index ku) {
    detail::check_arg(M.rows() == M.cols(), "BandMatrix", "dense columns", M.cols(),
                    "== rows");
    BandMatrix A(M.rows(), kl, ku);
    for (Index j = 0; j < A.n_; ++j)
      for (Index i = 0; i < A.n_; ++i) {
        if (A.in_band(i, j)) {
          A.at(i, j) = M(i, j);
        } else if (value_of(M(i, j)) != 0) {
          throw InputError("BandMatrix::from_dense", "entry (" + std::to_string(i) + ", " +
                                                         std::to_string(j) + ")",
                           value_of(M(i, j)), "0 outside the band");
        }
      }
    return A;
  }

  Index rows() const noexcept { return n_; }
  Index cols() const noexcept { return n_; }
  Index kl() const noexcept { return kl_; }
  Index ku() const noexcept { return ku_; }
  /// Leading dimension of the storage, 2 kl + ku + 1.
  Index ldab() const noexcept { return ldab_; }
  /// Storage row of the diagonal, kl + ku.
  Index diagonal_row() const noexcept { return kl_ + ku_; }
  T* data() noexcept { return ab_.data(); }
  const T* data() const noexcept { return ab_.data(); }

  /// True when (i, j) lies inside the matrix and its band.
  bool in_band(Index i, Index j) const noexcept {
    return i >= 0 && j >= 0 && i < n_ && j < n_ && i - j <= kl_ && j - i <= ku_;
  }

  /// A(i, j); zero outside the band. Throws InputError outside the matrix.
  T operator()(Index i, Index j) const {
    check_index(i, j);
    return in_band(i, j) ? ab_[offset(i, j)] : T(0);
  }

  /// Reference to the stored A(i, j). Throws InputError outside the band.
  T& at(Index i, Index j) {
    check_band(i, j);
    return ab_[offset(i, j)];
  }

  /// A(i, j) += v. Throws InputError outside the band.
  void add(Index i, Index j, const T& v) { at(i, j) += v; }

  /// A(dofs[a], dofs[b]) += block(a, b) for every a, b whose indices are both >= 0 (a
  /// negative index skips that row and column: a DOF the system does not carry). `dofs` is
  /// any indexable range of integers (std::array, std::vector, an Eigen integer vector).
  template <class Dofs, class Derived>
  void add_block(const Dofs& dofs, const Eigen::MatrixBase<Derived>& block) {
    const Index m = static_cast<Index>(std::size(dofs));
    detail::check_arg(block.rows() == m && block.cols() == m, "BandMatrix::add_block",
                    "block size", block.rows(), "== number of dofs");
    for (Index b = 0; b < m; ++b) {
      const Index j = static_cast<Index>(dofs[static_cast<std::size_t>(b)]);
      if (j < 0) continue;
      for (Index a = 0; a < m; ++a) {
        const Index i = static_cast<Index>(dofs[static_cast<std::size_t>(a)]);
        if (i < 0) continue;
        at(i, j) += block(a, b);
      }
    }
  }

  /// Sets every entry to zero (keeps the size).
  void set_zero() { std::fill(ab_.begin(), ab_.end(), T(0)); }

  /// y = A x (x and y of length n, distinct).
  void multiply(const Eigen::Ref<const VecX<T>>& x, Eigen::Ref<VecX<T>> y) const {
    detail::check_arg(x.size() == n_ && y.size() == n_, "BandMatrix::multiply", "vector size",
                    x.size() == n_ ? y.size() : x.size(), "== n");
    y.setZero();
    Index jb = 0;
    if (kl_ >= 3) {
      // Four columns per pass over y (an entry just outside the band is read from the zero
      // fill rows, and adds an exact 0; double: the four terms summed in pairs, then onto y),
      // while a partial sum is stored once per four columns, at the alignment it is next
      // read at (a pass per column reloads each store one entry over, which stalls the loads).
      const Index kv = kl_ + ku_;
      for (; jb + 4 <= n_; jb += 4) {
        const T* a0 = ab_.data() + kv - jb + jb * ldab_;  // a0[i] = A(i, jb)
        const T* a1 = a0 + ldab_ - 1;
        const T* a2 = a1 + ldab_ - 1;
        const T* a3 = a2 + ldab_ - 1;
        const T x0 = x(jb), x1 = x(jb + 1), x2 = x(jb + 2), x3 = x(jb + 3);
        const Index i0 = std::max<Index>(0, jb - ku_);
        Index i1 = std::min<Index>(n_ - 1, jb + 3 + kl_);
        // A whole number of 4-entry runs (kl >= 6: the at most 3 extra rows read zero fill
        // rows), so that no partial run is reloaded as part of a whole one by the next pass.
        if (kl_ >= 6) i1 = std::min<Index>(n_ - 1, i0 + (i1 - i0 + 4) / 4 * 4 - 1);
        T* yp = y.data();
        Index i = i0;
        if constexpr (std::is_same_v<T, double>) {
          // Whole 4-entry runs on packs: y + ((a0 x0 + a1 x1) + (a2 x2 + a3 x3)), so that the
          // chain through y from pass to pass is one addition.
          using V = Pack<double, 4>;
          auto ld = [](const double* p) {
            V v;
            std::memcpy(&v, p, sizeof(V));
            return v;
          };
          const V v0(x0), v1(x1), v2(x2), v3(x3);
          for (; i + 3 <= i1; i += 4) {
            const V s = ld(yp + i) + ((ld(a0 + i) * v0 + ld(a1 + i) * v1) + (ld(a2 + i) * v2 + ld(a3 + i) * v3));
            std::memcpy(yp + i, &s, sizeof(V));
          }
        }
        for (; i <= i1; ++i) {
          T s = yp[i];
          s += a0[i] * x0;
          s += a1[i] * x1;
          s += a2[i] * x2;
          s += a3[i] * x3;
          yp[i] = s;
        }
      }
    }
    for (Index j = jb; j < n_; ++j) {
      const Index i0 = std::max<Index>(0, j - ku_), i1 = std::min<Index>(n_ - 1, j + kl_);
      const T* col = ab_.data() + offset(0, j);  // col[i] = A(i, j) for i in [i0, i1]
      const T xj = x(j);
      for (Index i = i0; i <= i1; ++i) y(i) += col[i] * xj;
    }
  }

  /// Infinity norm, the largest row sum of |A(i, j)|, as a plain value.
  /// Allocates nothing.
  value_type_t<T> norm_inf() const {
    using std::abs;
    value_type_t<T> norm = 0;
    for (Index i = 0; i < n_; ++i) {
      value_type_t<T> row = 0;
      for (Index j = std::max<Index>(0, i - kl_); j <= std::min<Index>(n_ - 1, i + ku_); ++j)
        row += abs(value_of(ab_[offset(i, j)]));
      norm = std::max(norm, row);
    }
    return norm;
  }

  /// Holds DOF i in place (a prescribed DOF whose increment is zero, spec "Linear
  /// algebra": Dirichlet in band): zeroes row i and column i inside the band and sets
  /// A(i, i) = diag. With diag > 0 the held DOFs add only positive eigenvalues, so the
  /// inertia of the result is that of the free DOFs plus the held count.
  void hold(Index i, const T& diag = T(1)) {
    check_index(i, i);
    for (Index j = std::max<Index>(0, i - kl_); j <= std::min<Index>(n_ - 1, i + ku_); ++j)
      ab_[offset(i, j)] = T(0);
    for (Index k = std::max<Index>(0, i - ku_); k <= std::min<Index>(n_ - 1, i + kl_); ++k)
      ab_[offset(k, i)] = T(0);
    ab_[offset(i, i)] = diag;
  }

  /// Holds DOF i at `value` in the system A x = rhs: moves the known column into the
  /// right-hand side (rhs(k) -= A(k, i) value for every other row k), then hold(i, diag)
  /// and rhs(i) = diag value, so that x(i) = value and the other rows are unchanged.
  void hold(Index i, const T& value, Eigen::Ref<VecX<T>> rhs, const T& diag = T(1)) {
    check_index(i, i);
    detail::check_arg(rhs.size() == n_, "BandMatrix::hold", "rhs size", rhs.size(), "== n");
    for (Index k = std::max<Index>(0, i - ku_); k <= std::min<Index>(n_ - 1, i + kl_); ++k)
      if (k != i) rhs(k) -= ab_[offset(k, i)] * value;
    hold(i, diag);
    rhs(i) = diag * value;
  }

  /// The dense matrix (tests, small reference problems).
  MatX<T> to_dense() const {
    MatX<T> M = MatX<T>::Zero(n_, n_);
    for (Index j = 0; j < n_; ++j)
      for (Index i = std::max<Index>(0, j - ku_); i <= std::min<Index>(n_ - 1, j + kl_); ++i)
        M(i, j) = ab_[offset(i, j)];
    return M;
  }

  /// Storage offset of A(i, j) (no check).
  std::size_t offset(Index i, Index j) const noexcept {
    return static_cast<std::size_t>(kl_ + ku_ + i - j + j * ldab_);
  }

 private:
  void check_index(Index i, Index j) const {
    if (i < 0 || i >= n_) throw InputError("BandMatrix", "row", i, "in [0, n)");
    if (j < 0 || j >= n_) throw InputError("BandMatrix", "column", j, "in [0, n)");
  }
  void check_band(Index i, Index j) const {
    check_index(i, j);
    if (i - j > kl_ || j - i > ku_)
      throw InputError("BandMatrix", "offset j - i of entry (" + std::to_string(i) + ", " +
                                         std::to_string(j) + ")",
                       j - i, "in [-kl, ku] = [" + std::to_string(-kl_) + ", " +
                                  std::to_string(ku_) + "]");
  }

  Index n_ = 0, kl_ = 0, ku_ = 0, ldab_ = 1;
  std::vector<T> ab_;
};

/// Symmetric band matrix of order n with kd sub-diagonals, in the lower storage of
/// LAPACK's DPBTRF (uplo = 'L'): column-major, ldab = kd + 1, A(i, j) for i >= j at
/// data()[(i - j) + j ldab]. Only the lower triangle is stored; A(j, i) is A(i, j).
template <class T>
class SymmetricBandMatrix {
 public:
  using Index = Eigen::Index;
  using Scalar = T;

  SymmetricBandMatrix() = default;
  /// Zero n x n matrix with kd sub- (and super-) diagonals.
  SymmetricBandMatrix(Index n, Index kd) : n_(n), kd_(kd) {
    detail::check_arg(n >= 0, "SymmetricBandMatrix", "n", n, ">= 0");
    detail::check_arg(kd >= 0, "SymmetricBandMatrix", "kd", kd, ">= 0");
    ldab_ = kd + 1;
    ab_.assign(static_cast<std::size_t>(ldab_ * n), T(0));
  }

  /// The matrix of a line of `nodes` nodes in layout L: kd = L::half_bandwidth().
  template <DofLayout L>
  static SymmetricBandMatrix for_line(std::size_t nodes) {
    return SymmetricBandMatrix(static_cast<Index>(L::line_dofs(nodes)), L::half_bandwidth());
  }

  /// Packs the lower band of a dense symmetric matrix. Throws InputError when an entry
  /// outside the band is nonzero or the matrix is not symmetric.
  template <class Derived>
  static SymmetricBandMatrix from_dense(const Eigen::MatrixBase<Derived>& M, Index kd) {
    detail::check_arg(M.rows() == M.cols(), "SymmetricBandMatrix", "dense columns", M.cols(),
                    "== rows");
    SymmetricBandMatrix A(M.rows(), kd);
    for (Index j = 0; j < A.n_; ++j)
      for (Index i = j; i < A.n_; ++i) {
        const std::string entry = "entry (" + std::to_string(i) + ", " + std::to_string(j) + ")";
        if (value_of(M(i, j)) != value_of(M(j, i)))
          throw InputError("SymmetricBandMatrix::from_dense", entry, value_of(M(i, j)),
                           "== its transpose " + to_text(value_of(M(j, i))));
        if (i - j <= kd)
          A.ab_[A.offset(i, j)] = M(i, j);
        else if (value_of(M(i, j)) != 0)
          throw InputError("SymmetricBandMatrix::from_dense", entry, value_of(M(i, j)),
                           "0 outside the band");
      }
    return A;
  }

  Index rows() const noexcept { return n_; }
  Index cols() const noexcept { return n_; }
  /// Number of sub-diagonals (= super-diagonals).
  Index kd() const noexcept { return kd_; }
  /// Leading dimension of the storage, kd + 1.
  Index ldab() const noexcept { return ldab_; }
  T* data() noexcept { return ab_.data(); }
  const T* data() const noexcept { return ab_.data(); }

  /// True when (i, j) lies inside the matrix and its band (either triangle).
  bool in_band(Index i, Index j) const noexcept {
    return i >= 0 && j >= 0 && i < n_ && j < n_ && (i > j ? i - j : j - i) <= kd_;
  }

  /// A(i, j) = A(j, i); zero outside the band. Throws InputError outside the matrix.
  T operator()(Index i, Index j) const {
    check_index(i, j);
    return in_band(i, j) ? ab_[offset(std::max(i, j), std::min(i, j))] : T(0);
  }

  /// Reference to the stored A(max(i, j), min(i, j)). Throws InputError outside the band.
  T& at(Index i, Index j) {
    check_band(i, j);
    return ab_[offset(std::max(i, j), std::min(i, j))];
  }

  /// A(i, j) += v and, for i != j, A(j, i) += v (the matrix stays symmetric).
  void add(Index i, Index j, const T& v) { at(i, j) += v; }

  /// A(dofs[a], dofs[b]) += block(a, b) for the symmetric `block`; negative indices skip
  /// their row and column. Reads only the entries with dofs[a] >= dofs[b] (the lower
  /// triangle in global numbering), so the block must be symmetric.
  template <class Dofs, class Derived>
  void add_block(const Dofs& dofs, const Eigen::MatrixBase<Derived>& block) {
    const Index m = static_cast<Index>(std::size(dofs));
    detail::check_arg(block.rows() == m && block.cols() == m,
                    "SymmetricBandMatrix::add_block", "block size", block.rows(),
                    "== number of dofs");
    for (Index b = 0; b < m; ++b) {
      const Index j = static_cast<Index>(dofs[static_cast<std::size_t>(b)]);
      if (j < 0) continue;
      for (Index a = 0; a < m; ++a) {
        const Index i = static_cast<Index>(dofs[static_cast<std::size_t>(a)]);
        if (i < j) continue;  // negative i too
        check_band(i, j);
        ab_[offset(i, j)] += block(a, b);
      }
    }
  }

  void set_zero() { std::fill(ab_.begin(), ab_.end(), T(0)); }

  /// y = A x.
  void multiply(const Eigen::Ref<const VecX<T>>& x, Eigen::Ref<VecX<T>> y) const {
    detail::check_arg(x.size() == n_ && y.size() == n_, "SymmetricBandMatrix::multiply",
                    "vector size", x.size() == n_ ? y.size() : x.size(), "== n");
    y.setZero();
    for (Index j = 0; j < n_; ++j) {
      const T* col = ab_.data() + static_cast<std::size_t>(j * ldab_);  // col[r] = A(j + r, j)
      const Index m = std::min<Index>(kd_, n_ - 1 - j);
      const T xj = x(j);
      T s = col[0] * xj;
      for (Index r = 1; r <= m; ++r) {
        y(j + r) += col[r] * xj;
        s += col[r] * x(j + r);
      }
      y(j) += s;
    }
  }

  /// Infinity norm (largest row sum of |A|).
  /// Allocates nothing.
  value_type_t<T> norm_inf() const {
    using std::abs;
    value_type_t<T> norm = 0;
    for (Index i = 0; i < n_; ++i) {
      value_type_t<T> row = 0;
      for (Index j = std::max<Index>(0, i - kd_); j <= std::min<Index>(n_ - 1, i + kd_); ++j)
        row += abs(value_of(ab_[offset(std::max(i, j), std::min(i, j))]));
      norm = std::max(norm, row);
    }
    return norm;
  }

  /// Holds DOF i in place: zeroes row and column i in the band, A(i, i) = diag (see
  /// BandMatrix::hold; the matrix stays symmetric).
  void hold(Index i, const T& diag = T(1)) {
    check_index(i, i);
    for (Index k = std::max<Index>(0, i - kd_); k <= std::min<Index>(n_ - 1, i + kd_); ++k)
      ab_[offset(std::max(i, k), std::min(i, k))] = T(0);
    ab_[offset(i, i)] = diag;
  }

  /// Holds DOF i at `value` in A x = rhs, keeping symmetry: rhs(k) -= A(k, i) value for the
  /// other rows, then hold(i, diag) and rhs(i) = diag value.
  void hold(Index i, const T& value, Eigen::Ref<VecX<T>> rhs, const T& diag = T(1)) {
    check_index(i, i);
    detail::check_arg(rhs.size() == n_, "SymmetricBandMatrix::hold", "rhs size", rhs.size(),
                    "== n");
    for (Index k = std::max<Index>(0, i - kd_); k <= std::min<Index>(n_ - 1, i + kd_); ++k)
      if (k != i) rhs(k) -= ab_[offset(std::max(i, k), std::min(i, k))] * value;
    hold(i, diag);
    rhs(i) = diag * value;
  }

  /// The dense symmetric matrix.
  MatX<T> to_dense() const {
    MatX<T> M = MatX<T>::Zero(n_, n_);
    for (Index j = 0; j < n_; ++j)
      for (Index i = j; i <= std::min<Index>(n_ - 1, j + kd_); ++i)
        M(i, j) = M(j, i) = ab_[offset(i, j)];
    return M;
  }

  /// Storage offset of A(i, j), i >= j (no check).
  std::size_t offset(Index i, Index j) const noexcept {
    return static_cast<std::size_t>(i - j + j * ldab_);
  }

 private:
  void check_index(Index i, Index j) const {
    if (i < 0 || i >= n_) throw InputError("SymmetricBandMatrix", "row", i, "in [0, n)");
    if (j < 0 || j >= n_) throw InputError("SymmetricBandMatrix", "column", j, "in [0, n)");
  }
  void check_band(Index i, Index j) const {
    check_index(i, j);
    if ((i > j ? i - j : j - i) > kd_)
      throw InputError("SymmetricBandMatrix", "offset |i - j| of entry (" + std::to_string(i) +
                                                  ", " + std::to_string(j) + ")",
                       i > j ? i - j : j - i, "<= kd = " + std::to_string(kd_));
  }

  Index n_ = 0, kd_ = 0, ldab_ = 1;
  std::vector<T> ab_;
};

}  // namespace cabledyn
