// cabledyn: the Jacobian of a mooring system, line bands bordered by object DOFs, and its
// solve by block elimination.
// Spec "Linear algebra" (band storage of each line, workspaces sized once), "Attached objects
// and line ends" (lines joined at points and bodies: the line bands couple only through the
// DOFs of the objects at their ends).
//
// DOFs are numbered block by block: the interior DOFs of line 0, of line 1, ..., then the
// object DOFs (free points, bodies) last. The matrix is
//     [ A_1           U_1 ]
//     [      A_2      U_2 ]
//     [ V_1  V_2  ... D   ]
// with A_b the band of block b, U_b / V_b its coupling to the few object DOFs it touches
// (a line touches the objects at its two ends: at most 12 columns), D dense. The solve
// eliminates the blocks: Z_b = A_b^-1 U_b, y_b = A_b^-1 r_b, the Schur complement
// S = D - sum V_b Z_b solves for the object DOFs, then x_b = y_b - Z_b x_o. Each A_b is
// factored once per solve with the templated band LU, so any scalar T works.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/linalg/band_lu.hpp"
#include "cabledyn/linalg/band_matrix.hpp"

namespace cabledyn {

/// One band block of a bordered Jacobian: its size, half-bandwidth, the object DOFs it
/// couples to and a name for errors (the line's).
struct BorderedBlockShape {
  std::string name;
  Eigen::Index size = 0;
  Eigen::Index half_bandwidth = 0;
  std::vector<Eigen::Index> coupled;  ///< object DOF indices (0-based among the object DOFs)
};

/// Factors the dense matrix S in place by Gaussian elimination with partial pivoting on the
/// values (any scalar T): LAPACK's getrf form, U on and above the diagonal, the multipliers
/// of L below it (rows swapped whole), piv[k] the row swapped with row k at step k. piv is
/// resized to S.rows(). Throws SolveError naming `object` when a pivot is zero.
template <class T>
void dense_lu_in_place(MatX<T>& S, std::vector<Eigen::Index>& piv, const std::string& object) {
  using std::fabs;
  const Eigen::Index n = S.rows();
  piv.resize(static_cast<std::size_t>(n));
  for (Eigen::Index k = 0; k < n; ++k) {
    Eigen::Index p = k;
    auto best = fabs(value_of(S(k, k)));
    for (Eigen::Index i = k + 1; i < n; ++i)
      if (fabs(value_of(S(i, k))) > best) {
        best = fabs(value_of(S(i, k)));
        p = i;
      }
    if (!(best > 0) || !std::isfinite(static_cast<double>(best)))
      throw SolveError(object, "pivot of object DOF " + std::to_string(k), static_cast<double>(best),
                       "nonzero and finite (the objects' Schur complement is singular: an object held by nothing?)");
    piv[static_cast<std::size_t>(k)] = p;
    if (p != k) S.row(p).swap(S.row(k));
    for (Eigen::Index i = k + 1; i < n; ++i) {
      const T m = S(i, k) / S(k, k);
      S(i, k) = m;
      if (value_of(m) == 0 && !is_dual_v<T>) continue;
      for (Eigen::Index j = k + 1; j < n; ++j) S(i, j) -= m * S(k, j);
    }
  }
}

/// Solves S x = b in place with the factors of dense_lu_in_place (b in, x out): the row
/// swaps, the forward elimination with L, the back substitution with U; the same operations,
/// in the same order, as eliminating b along with the factorisation.
template <class T>
void dense_lu_solve(const MatX<T>& LU, const std::vector<Eigen::Index>& piv, Eigen::Ref<VecX<T>> b) {
  const Eigen::Index n = LU.rows();
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::Index p = piv[static_cast<std::size_t>(k)];
    if (p != k) std::swap(b(p), b(k));
  }
  for (Eigen::Index k = 0; k < n; ++k)
    for (Eigen::Index i = k + 1; i < n; ++i) {
      const T& m = LU(i, k);
      if (value_of(m) == 0 && !is_dual_v<T>) continue;
      b(i) -= m * b(k);
    }
  for (Eigen::Index k = n - 1; k >= 0; --k) {
    T s = b(k);
    for (Eigen::Index j = k + 1; j < n; ++j) s -= LU(k, j) * b(j);
    b(k) = s / LU(k, k);
  }
}

/// Solves the dense system S x = b in place (S overwritten by its factors; piv a workspace
/// of S.rows() entries). Throws SolveError naming `object` when a pivot is zero.
template <class T>
void dense_solve_in_place(MatX<T>& S, Eigen::Ref<VecX<T>> b, std::vector<Eigen::Index>& piv,
                          const std::string& object) {
  dense_lu_in_place<T>(S, piv, object);
  dense_lu_solve<T>(S, piv, b);
}

/// The bordered Jacobian: band blocks, their borders and the dense object block. Workspaces
/// are sized at construction; set_zero / add / solve allocate nothing.
template <class T>
class BorderedJacobian {
 public:
  using Index = Eigen::Index;

  BorderedJacobian(std::vector<BorderedBlockShape> blocks, Index n_objects, std::string name = "system")
      : shapes_(std::move(blocks)), n_obj_(n_objects), name_(std::move(name)) {
    Index off = 0;
    for (std::size_t b = 0; b < shapes_.size(); ++b) {
      const auto& s = shapes_[b];
      offset_.push_back(off);
      const Index kb = std::max<Index>(0, std::min<Index>(s.half_bandwidth, std::max<Index>(0, s.size - 1)));
      band_.emplace_back(std::max<Index>(s.size, 1), kb, kb);
      // The templated band LU (the DGBTRF algorithm with block updates: faster than the
      // reference LAPACK at a line's band widths).
      lu_.emplace_back(std::max<Index>(s.size, 1), kb, kb, Backend::templated);
      const Index k = static_cast<Index>(s.coupled.size());
      U_.emplace_back(MatX<T>::Zero(s.size, k));
      V_.emplace_back(MatX<T>::Zero(k, s.size));
      Z_.emplace_back(MatX<T>::Zero(s.size, k));
      for (Index c : s.coupled)
        if (c < 0 || c >= n_obj_) throw InputError(name_, s.name + " coupled object DOF", c, "in [0, " + std::to_string(n_obj_) + ")");
      for (Index i = 0; i < s.size; ++i) owner_.push_back(static_cast<int>(b));
      off += s.size;
    }
    n_lines_ = off;
    D_ = MatX<T>::Zero(n_obj_, n_obj_);
    S_ = MatX<T>::Zero(n_obj_, n_obj_);
    xo_ = VecX<T>::Zero(n_obj_);
    piv_.resize(static_cast<std::size_t>(n_obj_));  // sized here: factor() allocates nothing
  }

  /// Total DOFs (block DOFs then object DOFs).
  Index size() const { return n_lines_ + n_obj_; }
  /// First global index of the object DOFs.
  Index object_offset() const { return n_lines_; }
  /// First global index of block b.
  Index block_offset(std::size_t b) const { return offset_[b]; }
  std::size_t n_blocks() const { return shapes_.size(); }
  /// DOFs of block b.
  Index block_size(std::size_t b) const { return shapes_[b].size; }
  /// The assembled band of block b (block-local indices; meaningful before factor()).
  const BandMatrix<T>& block(std::size_t b) const { return band_[b]; }
  /// The name of block b (its line's).
  const std::string& block_name(std::size_t b) const { return shapes_[b].name; }
  /// The object DOFs block b couples to (0-based among the object DOFs).
  const std::vector<Index>& block_coupled(std::size_t b) const { return shapes_[b].coupled; }
  /// Block b's border columns U_b (its rows x block_coupled(b)) and rows V_b (block_coupled(b)
  /// x its columns), as assembled.
  const MatX<T>& block_columns(std::size_t b) const { return U_[b]; }
  const MatX<T>& block_rows(std::size_t b) const { return V_[b]; }
  /// The number of object DOFs and their dense block D, as assembled.
  Index n_objects() const { return n_obj_; }
  const MatX<T>& object_block() const { return D_; }

  void set_zero() {
    factored_ = false;
    for (auto& B : band_) B.set_zero();
    for (auto& U : U_) U.setZero();
    for (auto& V : V_) V.setZero();
    D_.setZero();
  }

  /// Makes this the Jacobian of a part of a larger system (a connected component of a
  /// MooringSystem: MooringSystem::make_jacobian(c)) whose entries are added by the larger
  /// system's indices: add and add3 map them by `global` (the larger system's DOF -> this
  /// matrix's, -1: a DOF of another part, whose entries are dropped), add3_local maps the block
  /// by `blocks` (the larger system's line block -> this matrix's, -1: dropped). The map is
  /// shared by copies. Throws InputError for a map that does not fit this matrix.
  void set_global_map(std::shared_ptr<const std::vector<Index>> global, std::vector<int> blocks) {
    if (!global) throw InputError(name_, "global DOF map", "null", "a map");
    for (Index g : *global)
      if (g < -1 || g >= size())
        throw InputError(name_, "global DOF map entry", g, "in [-1, " + std::to_string(size()) + ")");
    for (int b : blocks)
      if (b < -1 || b >= static_cast<int>(shapes_.size()))
        throw InputError(name_, "global block map entry", b, "in [-1, " + std::to_string(shapes_.size()) + ")");
    gmap_ = std::move(global);
    bmap_ = std::move(blocks);
  }

  /// J(i, j) += v, global indices (the larger system's with set_global_map). Throws
  /// InputError for an entry the structure has no room for (two different blocks, or an
  /// object a block was not declared to touch).
  void add(Index i, Index j, const T& v) {
    if (gmap_) {
      i = (*gmap_)[static_cast<std::size_t>(i)];
      j = (*gmap_)[static_cast<std::size_t>(j)];
      if (i < 0 || j < 0) return;
    }
    const bool io = i >= n_lines_, jo = j >= n_lines_;
    if (io && jo) {
      D_(i - n_lines_, j - n_lines_) += v;
    } else if (!io && !jo) {
      const int b = owner_[static_cast<std::size_t>(i)];
      if (owner_[static_cast<std::size_t>(j)] != b)
        throw InputError(name_, "Jacobian entry between blocks", std::to_string(i) + ", " + std::to_string(j),
                         "within one block");
      band_[static_cast<std::size_t>(b)].add(i - offset_[static_cast<std::size_t>(b)],
                                             j - offset_[static_cast<std::size_t>(b)], v);
    } else if (!io) {
      const auto b = static_cast<std::size_t>(owner_[static_cast<std::size_t>(i)]);
      U_[b](i - offset_[b], column(b, j - n_lines_)) += v;
    } else {
      const auto b = static_cast<std::size_t>(owner_[static_cast<std::size_t>(j)]);
      V_[b](column(b, i - n_lines_), j - offset_[b]) += v;
    }
  }

  /// The largest |J(i, i)| of the assembled matrix (the scale of the round-off of the residual
  /// it is the Jacobian of: SystemStepper's convergence floor).
  double max_abs_diagonal() const {
    double m = 0;
    for (std::size_t b = 0; b < band_.size(); ++b)
      for (Index i = 0; i < shapes_[b].size; ++i)
        m = std::max(m, std::fabs(static_cast<double>(value_of(band_[b](i, i)))));
    for (Index i = 0; i < n_obj_; ++i) m = std::max(m, std::fabs(static_cast<double>(value_of(D_(i, i)))));
    return m;
  }

  /// Adds a 3 x 3 block at rows i0.., columns j0...
  /// Adds the 3 x 3 block B at rows i0.., columns j0.. of line block b, indices local to the
  /// block, that lies in the block's band by construction (a line's element blocks between
  /// its interior slots): written straight into the band storage, checked only in builds
  /// without NDEBUG (the hot path of a system's assembly).
  void add3_local(std::size_t b, Index i0, Index j0, const Mat3<T>& B) {
    if (!bmap_.empty()) {
      const int k = bmap_[b];
      if (k < 0) return;
      b = static_cast<std::size_t>(k);
    }
    auto& K = band_[b];
#ifndef NDEBUG
    for (Index c = 0; c < 3; ++c)
      for (Index a = 0; a < 3; ++a) (void)K.at(i0 + a, j0 + c);  // InputError outside the band
#endif
    T* data = K.data();
    for (Index c = 0; c < 3; ++c) {
      T* col = data + K.offset(i0, j0 + c);  // col[a] = K(i0 + a, j0 + c)
      for (Index a = 0; a < 3; ++a) col[a] += B(a, c);
    }
  }

  void add3(Index i0, Index j0, const Mat3<T>& B) {
    for (int a = 0; a < 3; ++a)
      for (int c = 0; c < 3; ++c)
        if (!(value_of(B(a, c)) == 0) || is_dual_v<T>) add(i0 + a, j0 + c, B(a, c));
  }

  /// Factors the assembled matrix: each band block's LU, Z_b = A_b^-1 U_b, the objects' Schur
  /// complement S = D - sum V_b Z_b and its LU. solve_factored then solves with these
  /// factors as often as wanted (a modified Newton iteration reuses them), until set_zero.
  /// Throws SolveError naming the block (line) whose band is singular, or the system when the
  /// objects' Schur complement is; the matrix is then not factored.
  void factor() {
    factored_ = false;
    S_ = D_;
    for (std::size_t b = 0; b < shapes_.size(); ++b) {
      const Index n = shapes_[b].size;
      if (n == 0) continue;
      const auto res = lu_[b].factor(band_[b]);
      if (!res.ok()) throw res.error(shapes_[b].name);
      if (Z_[b].cols() > 0) {
        Z_[b] = U_[b];
        lu_[b].solve(Z_[b]);
        // S -= V Z on the coupled object DOFs.
        const auto& cpl = shapes_[b].coupled;
        for (std::size_t a = 0; a < cpl.size(); ++a)
          for (std::size_t c = 0; c < cpl.size(); ++c) {
            T s = T(0);
            for (Index k = 0; k < n; ++k) s += V_[b](static_cast<Index>(a), k) * Z_[b](k, static_cast<Index>(c));
            S_(cpl[a], cpl[c]) -= s;
          }
      }
    }
    if (n_obj_ > 0) dense_lu_in_place<T>(S_, piv_, name_);
    factored_ = true;
  }

  /// Whether factor() has run since the last set_zero().
  bool factored() const { return factored_; }

  /// Whether o has this matrix's structure: the same blocks (sizes, band widths, coupled
  /// object DOFs) and object DOFs (a factor restored from a snapshot must fit this system).
  bool same_shape(const BorderedJacobian& o) const {
    if (n_obj_ != o.n_obj_ || shapes_.size() != o.shapes_.size()) return false;
    for (std::size_t b = 0; b < shapes_.size(); ++b)
      if (shapes_[b].size != o.shapes_[b].size || shapes_[b].half_bandwidth != o.shapes_[b].half_bandwidth ||
          shapes_[b].coupled != o.shapes_[b].coupled)
        return false;
    return true;
  }

  /// The assembled matrix's storage (each line block's band, its borders, the object block)
  /// as contiguous arrays f(pointer, count): a state file writes them and reads them back
  /// (the non-const form, which marks the matrix not factorised: factor() then gives the
  /// factors of the saved run bit for bit, the factorisation being deterministic).
  template <class F>
  void visit_assembled(F&& f) const {
    visit_arrays(*this, f);
  }
  template <class F>
  void visit_assembled(F&& f) {
    factored_ = false;
    visit_arrays(*this, f);
  }

  /// Solves J x = r in place (r in, x out) with the factors of the last factor(): y_b = A_b^-1
  /// r_b, the objects' x_o = S^-1 (r_o - sum V_b y_b), x_b = y_b - Z_b x_o. Allocates nothing.
  void solve_factored(Eigen::Ref<VecX<T>> r) {
    if (r.size() != size()) throw InputError(name_, "right-hand side size", r.size(), "== " + std::to_string(size()));
    if (!factored_) throw InputError(name_, "factorisation", "none", "factor() after the last set_zero()");
    for (std::size_t b = 0; b < shapes_.size(); ++b) {
      const Index n = shapes_[b].size;
      if (n == 0) continue;
      auto rb = r.segment(offset_[b], n);
      lu_[b].solve(rb);
      // r_o -= V y on the coupled object DOFs.
      const auto& cpl = shapes_[b].coupled;
      for (std::size_t a = 0; a < cpl.size(); ++a) {
        T ro = T(0);
        for (Index k = 0; k < n; ++k) ro += V_[b](static_cast<Index>(a), k) * rb(k);
        r(n_lines_ + cpl[a]) -= ro;
      }
    }
    if (n_obj_ > 0) {
      xo_ = r.segment(n_lines_, n_obj_);
      dense_lu_solve<T>(S_, piv_, xo_);
      r.segment(n_lines_, n_obj_) = xo_;
      for (std::size_t b = 0; b < shapes_.size(); ++b) {
        const auto& cpl = shapes_[b].coupled;
        for (std::size_t c = 0; c < cpl.size(); ++c)
          r.segment(offset_[b], shapes_[b].size) -= Z_[b].col(static_cast<Index>(c)) * xo_(cpl[c]);
      }
    }
  }

  /// Solves J x = r in place (r in, x out): factor() then solve_factored(r). Throws
  /// SolveError naming the block (line) whose band is singular, or the system when the
  /// objects' Schur complement is.
  void solve(Eigen::Ref<VecX<T>> r) {
    factor();
    solve_factored(r);
  }

  /// The assembled matrix as a dense one (tests).
  MatX<T> to_dense() const {
    MatX<T> J = MatX<T>::Zero(size(), size());
    for (std::size_t b = 0; b < shapes_.size(); ++b) {
      const Index n = shapes_[b].size, o = offset_[b];
      if (n == 0) continue;
      J.block(o, o, n, n) = band_[b].to_dense();
      const auto& cpl = shapes_[b].coupled;
      for (std::size_t c = 0; c < cpl.size(); ++c) {
        J.block(o, n_lines_ + cpl[c], n, 1) = U_[b].col(static_cast<Index>(c));
        J.block(n_lines_ + cpl[c], o, 1, n) = V_[b].row(static_cast<Index>(c));
      }
    }
    J.block(n_lines_, n_lines_, n_obj_, n_obj_) = D_;
    return J;
  }

 private:
  Index column(std::size_t b, Index obj) const {
    const auto& c = shapes_[b].coupled;
    for (std::size_t k = 0; k < c.size(); ++k)
      if (c[k] == obj) return static_cast<Index>(k);
    throw InputError(name_, shapes_[b].name + " coupling to object DOF", obj, "declared at setup");
  }

  // visit_assembled's arrays, of a const or a non-const matrix.
  template <class Self, class F>
  static void visit_arrays(Self& J, F& f) {
    for (auto& B : J.band_) f(B.data(), static_cast<std::size_t>(B.ldab() * B.rows()));
    for (auto& X : J.U_) f(X.data(), static_cast<std::size_t>(X.size()));
    for (auto& X : J.V_) f(X.data(), static_cast<std::size_t>(X.size()));
    f(J.D_.data(), static_cast<std::size_t>(J.D_.size()));
  }

  std::vector<BorderedBlockShape> shapes_;
  Index n_obj_ = 0, n_lines_ = 0;
  std::string name_;
  std::vector<Index> offset_;
  std::vector<int> owner_;
  std::vector<BandMatrix<T>> band_;
  std::vector<BandLU<T>> lu_;
  std::vector<MatX<T>> U_, V_, Z_;
  MatX<T> D_, S_;
  VecX<T> xo_;
  std::vector<Index> piv_;
  bool factored_ = false;
  std::shared_ptr<const std::vector<Index>> gmap_;  // set_global_map (null: none)
  std::vector<int> bmap_;
};

}  // namespace cabledyn
