// cabledyn: the held DOFs of a line, applied in band storage without renumbering.
// Spec "Linear algebra" (Dirichlet conditions applied in-band), "End connections (Hermite
// lines)" (a Rigid end is an exact two-coordinate constraint keeping m on the ray of d0),
// "Attached objects and line ends" (fixed and prescribed end positions).
//
// A Rigid end's tangent block is expressed in the basis (d0, b1, b2) of Line::rigid_basis:
// K <- Q^T K Q and R <- Q^T R on that block (the block of one node, so the band is kept),
// then the b1 and b2 components are held.
#pragma once

#include <array>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/line/line.hpp"

namespace cabledyn {

/// Held DOFs and Rigid-end bases of a line.
class LineConstraints {
 public:
  explicit LineConstraints(const Line& line) : n_(static_cast<Eigen::Index>(line.dofs())) {
    held_.assign(static_cast<std::size_t>(n_), false);
    for (int end = 0; end < 2; ++end) {
      const std::size_t node = line.end_node(end);
      for (int c = 0; c < 3; ++c) held_[line.dof(node, c)] = true;
      if (line.hermite() && line.end(end).rotation == EndRotation::rigid) {
        Rigid r;
        r.i0 = static_cast<Eigen::Index>(line.dof(node, 3));
        r.Q = line.rigid_basis(end);
        r.end = end;
        held_[static_cast<std::size_t>(r.i0 + 1)] = true;
        held_[static_cast<std::size_t>(r.i0 + 2)] = true;
        rigid_.push_back(r);
      }
    }
  }

  /// True when DOF i is held.
  bool held(Eigen::Index i) const { return held_[static_cast<std::size_t>(i)]; }
  const std::vector<bool>& held_mask() const { return held_; }

  /// Put the held values into q: the end positions, and a Rigid end's tangent on the ray of
  /// d0 (its magnitude, the axial stretch, kept; at least a small positive value).
  void apply_to_state(const Line& line, VecX<double>& q) const {
    for (int end = 0; end < 2; ++end)
      q.segment<3>(static_cast<Eigen::Index>(line.dof(line.end_node(end), 0))) = line.end(end).position;
    for (const auto& r : rigid_) {
      const Vec3<double> d = r.Q.col(0);
      const double a = std::max(q.segment<3>(r.i0).dot(d), 1e-3);
      q.segment<3>(r.i0) = a * d;
    }
  }

  /// Project a Rigid end's tangent onto the ray of d0 (the end positions untouched).
  void apply_rigid(const Line&, VecX<double>& q) const {
    for (const auto& r : rigid_) {
      const Vec3<double> d = r.Q.col(0);
      const double a = std::max(q.segment<3>(r.i0).dot(d), 1e-3);
      q.segment<3>(r.i0) = a * d;
    }
  }

  /// Residual in solver coordinates with the held rows zeroed.
  template <class T>
  void reduce_residual(VecX<T>& R) const {
    for (const auto& r : rigid_) {
      const Vec3<T> loc = r.Q.cast<T>().transpose() * R.template segment<3>(r.i0);
      R.template segment<3>(r.i0) = loc;
    }
    for (Eigen::Index i = 0; i < n_; ++i)
      if (held_[static_cast<std::size_t>(i)]) R(i) = T(0);
  }

  /// A band matrix (BandMatrix or SymmetricBandMatrix) in solver coordinates with the held
  /// rows and columns replaced by identity rows (diagonal `diag`).
  template <class Band>
  void reduce_matrix(Band& K, double diag = 1.0) const {
    using T = std::decay_t<decltype(K(0, 0))>;
    for (const auto& r : rigid_) transform_block(K, r);
    for (Eigen::Index i = 0; i < n_; ++i)
      if (held_[static_cast<std::size_t>(i)]) K.hold(i, T(diag));
  }

  /// A solver-coordinate increment back to global coordinates (held entries stay zero).
  template <class T>
  void expand(VecX<T>& dq) const {
    for (Eigen::Index i = 0; i < n_; ++i)
      if (held_[static_cast<std::size_t>(i)]) dq(i) = T(0);
    for (const auto& r : rigid_) {
      const Vec3<T> g = r.Q.cast<T>() * dq.template segment<3>(r.i0);
      dq.template segment<3>(r.i0) = g;
    }
  }

  /// Largest |R_i| over the free DOFs of a reduced residual.
  template <class T>
  double free_norm_inf(const VecX<T>& R) const {
    double m = 0;
    for (Eigen::Index i = 0; i < n_; ++i)
      if (!held_[static_cast<std::size_t>(i)]) m = std::max(m, std::fabs(static_cast<double>(value_of(R(i)))));
    return m;
  }

 private:
  struct Rigid {
    Eigen::Index i0 = 0;
    Mat3<double> Q;
    int end = 0;
  };

  template <class Band>
  static void transform_block(Band& K, const Rigid& r) {
    using T = std::decay_t<decltype(K(0, 0))>;
    const Eigen::Index n = K.rows();
    const Mat3<T> Q = r.Q.cast<T>();
    Eigen::Index wl, wu;
    if constexpr (is_symmetric_band<Band>()) {
      wl = wu = K.kd();
    } else {
      wl = K.kl();
      wu = K.ku();
    }
    const Eigen::Index lo = std::max<Eigen::Index>(0, r.i0 - std::max(wl, wu)),
                       hi = std::min<Eigen::Index>(n - 1, r.i0 + 2 + std::max(wl, wu));
    // Rows (and, for a symmetric store, the mirrored columns): K[idx, j] <- Q^T K[idx, j].
    for (Eigen::Index j = lo; j <= hi; ++j) {
      if (j >= r.i0 && j < r.i0 + 3) continue;
      Vec3<T> v;
      bool any = false;
      for (int a = 0; a < 3; ++a) {
        v(a) = in_band(K, r.i0 + a, j) ? K(r.i0 + a, j) : T(0);
        any = any || in_band(K, r.i0 + a, j);
      }
      if (!any) continue;
      const Vec3<T> w = Q.transpose() * v;
      for (int a = 0; a < 3; ++a)
        if (in_band(K, r.i0 + a, j)) K.at(r.i0 + a, j) = w(a);
      if constexpr (!is_symmetric_band<Band>()) {
        Vec3<T> c;
        for (int a = 0; a < 3; ++a) c(a) = in_band(K, j, r.i0 + a) ? K(j, r.i0 + a) : T(0);
        const Vec3<T> cw = Q.transpose() * c;
        for (int a = 0; a < 3; ++a)
          if (in_band(K, j, r.i0 + a)) K.at(j, r.i0 + a) = cw(a);
      }
    }
    Mat3<T> D;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) D(a, b) = K(r.i0 + a, r.i0 + b);
    const Mat3<T> Dn = Q.transpose() * D * Q;
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        if constexpr (is_symmetric_band<Band>()) {
          if (a < b) continue;
        }
        K.at(r.i0 + a, r.i0 + b) = Dn(a, b);
      }
  }

  template <class Band>
  static constexpr bool is_symmetric_band() {
    return requires(const Band& b) { b.kd(); };
  }

  template <class Band>
  static bool in_band(const Band& K, Eigen::Index i, Eigen::Index j) {
    return K.in_band(i, j);
  }

  Eigen::Index n_;
  std::vector<bool> held_;
  std::vector<Rigid> rigid_;
};

}  // namespace cabledyn
