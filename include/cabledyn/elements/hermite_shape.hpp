// cabledyn: cubic-Hermite shape functions and the centreline of a Hermite element.
// Spec "The cubic-Hermite bending element": r(xi) = H1 r1 + H2 L0 m1 + H3 r2 + H4 L0 m2,
// H1 = 1 - 3xi^2 + 2xi^3, H2 = xi - 2xi^2 + xi^3, H3 = 3xi^2 - 2xi^3, H4 = -xi^2 + xi^3
// (EQUATIONS.md section 3), with xi = (s - s_e)/L0 and r' = dr/ds = (1/L0) dr/dxi.
#pragma once

#include <array>

#include "cabledyn/core/dof_layout.hpp"
#include "cabledyn/core/eigen.hpp"

namespace cabledyn {

/// Values and xi-derivatives of the four cubic-Hermite shape functions at one xi.
/// Index k: 0 -> r1, 1 -> m1 (times L0), 2 -> r2, 3 -> m2 (times L0).
template <class T>
struct HermiteShape {
  std::array<T, 4> H;    ///< H_k(xi)
  std::array<T, 4> dH;   ///< dH_k/dxi
  std::array<T, 4> d2H;  ///< d2H_k/dxi2
  /// Third derivatives are constant: (12, 6, -12, 6).
  static constexpr std::array<double, 4> d3H{12.0, 6.0, -12.0, 6.0};
};

/// Shape functions and their first two derivatives at xi; spec "The cubic-Hermite bending
/// element".
template <class T>
HermiteShape<T> hermite_shape(const T& xi) {
  const T x2 = xi * xi, x3 = x2 * xi;
  HermiteShape<T> s;
  s.H = {T(1) - T(3) * x2 + T(2) * x3, xi - T(2) * x2 + x3, T(3) * x2 - T(2) * x3, x3 - x2};
  s.dH = {T(6) * (x2 - xi), T(1) - T(4) * xi + T(3) * x2, T(6) * (xi - x2), T(3) * x2 - T(2) * xi};
  s.d2H = {T(12) * xi - T(6), T(6) * xi - T(4), T(6) - T(12) * xi, T(6) * xi - T(2)};
  return s;
}

/// Offset, inside the element vector of layout L, of the 3-vector block k of the Hermite
/// interpolation (0: r1, 1: m1, 2: r2, 3: m2).
template <class L>
constexpr int hermite_block_offset(int k) {
  static_assert(L::kHasTangent, "a Hermite element needs a layout with a tangent block");
  return (k / 2) * L::kNodeDofs + (k % 2 == 0 ? L::kR : L::kM);
}

/// Weights that turn the four blocks into d^order r / ds^order: c_k with
/// d^n r/ds^n = sum_k c_k q_k, for the shape derivatives dnH (n = 0, 1, 2, 3).
template <class T>
std::array<T, 4> hermite_block_weights(const std::array<T, 4>& dnH, int n, double L0) {
  // r = H1 r1 + H2 L0 m1 + H3 r2 + H4 L0 m2, and d/ds = (1/L0) d/dxi.
  long double scale = 1;
  for (int i = 0; i < n; ++i) scale /= L0;
  const long double scale_m = scale * L0;
  return {dnH[0] * T(scale), dnH[1] * T(scale_m), dnH[2] * T(scale), dnH[3] * T(scale_m)};
}

/// sum_k c_k q_k for the four blocks of an element vector q of layout L.
template <class L, class T, class Q>
Vec3<T> hermite_combine(const std::array<T, 4>& c, const Q& q) {
  Vec3<T> r = c[0] * q.template segment<3>(hermite_block_offset<L>(0));
  for (int k = 1; k < 4; ++k) r += c[k] * q.template segment<3>(hermite_block_offset<L>(k));
  return r;
}

/// A Hermite element matrix written as a sum of shape-weighted 3x3 blocks,
/// J = sum_p (c_p d_p^T) (x) H_p, i.e. J_{(k,i),(l,j)} = sum_p c_p[k] d_p[l] H_p(i, j) with k, l
/// the four Hermite blocks and i, j the Cartesian components. This is the form of every
/// element Jacobian chained through the fixed shape maps q -> r, r', r'' at a point (spec "The
/// cubic-Hermite bending element": the Hessian of the density chained to the DOFs; "Drag" on
/// Hermite elements). The terms are recorded as the columns c_p d_p^T of Phi (16 x P) and
/// the rows H_p of H (P x 9); the sum is the product R = Phi H, held component-major,
/// R(k + 4 l, i + 3 j), formed with the 16 rows of a column in registers (the 3x3 blocks of
/// the element layout are three entries long and do not vectorise).
template <class T>
class HermiteBlockSum {
 public:
  static constexpr int kTerms = 28;  ///< terms recorded before they are folded into R

  void set_zero() {
    n_ = 0;
    zero_ = true;  // R is zero: the first flush assigns instead of adding
  }

  /// J += (c d^T) (x) H.
  template <class S>
  void add(const std::array<S, 4>& c, const std::array<S, 4>& d, const Mat3<T>& H) {
    if (n_ == kTerms) flush();
    for (int l = 0; l < 4; ++l)
      for (int k = 0; k < 4; ++k)
        Phi_(k + 4 * l, n_) = T(c[static_cast<std::size_t>(k)] * d[static_cast<std::size_t>(l)]);
    const T* h = H.data();  // column-major: h[i + 3 j] = H(i, j)
    for (int j = 0; j < 9; ++j) H_(n_, j) = h[j];
    ++n_;
  }

  /// The sum, R(k + 4 l, i + 3 j) = J(3 k + i, 3 l + j) in the [r1, m1, r2, m2] order.
  const Eigen::Matrix<T, 16, 9>& matrix() {
    flush();
    return R_;
  }

  /// J added onto an element matrix of layout L (the blocks at hermite_block_offset<L>).
  template <class L, class M>
  void add_to(M& J) {
    flush();
    for (int l = 0; l < 4; ++l)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 4; ++k)
          for (int i = 0; i < 3; ++i)
            J(hermite_block_offset<L>(k) + i, hermite_block_offset<L>(l) + j) += R_(k + 4 * l, i + 3 * j);
  }

 private:
  void flush() {
    if (n_ == 0) {
      if (zero_) R_.setZero();
    } else {
      // A column of R in two halves of 8 rows: 8 accumulators stay in registers (16 do not,
      // with the operands, in the 16 AVX registers: one spills and its chain runs through
      // memory).
      for (int j = 0; j < 9; ++j)
        for (int h = 0; h < 16; h += 8) {
          // R + t_0 + t_1 + ..., or t_0 + t_1 + ... when R is zero.
          T acc[8];
          const T h0 = H_(0, j);
          for (int r = 0; r < 8; ++r) {
            if (zero_) acc[r] = T(Phi_(h + r, 0) * h0);
            else acc[r] = T(R_(h + r, j) + Phi_(h + r, 0) * h0);
          }
          for (int p = 1; p < n_; ++p) {
            const T hp = H_(p, j);
            for (int r = 0; r < 8; ++r) acc[r] += T(Phi_(h + r, p) * hp);
          }
          for (int r = 0; r < 8; ++r) R_(h + r, j) = acc[r];
        }
    }
    zero_ = false;
    n_ = 0;
  }

  Eigen::Matrix<T, 16, kTerms> Phi_;
  Eigen::Matrix<T, kTerms, 9> H_;
  Eigen::Matrix<T, 16, 9> R_;
  int n_ = 0;
  bool zero_ = true;
};

/// Centreline r(xi), r'(xi) and r''(xi) (derivatives per unstretched arc length) of a
/// Hermite element with DOFs q (layout L) and unstretched length L0.
template <class T, class L = LayoutRM>
struct HermiteCentreline {
  Vec3<T> r, r1, r2;
};

template <class L = LayoutRM, class T, class Q>
HermiteCentreline<T, L> hermite_centreline(const Q& q, double L0, const T& xi) {
  const HermiteShape<T> s = hermite_shape(xi);
  HermiteCentreline<T, L> c;
  c.r = hermite_combine<L>(hermite_block_weights(s.H, 0, L0), q);
  c.r1 = hermite_combine<L>(hermite_block_weights(s.dH, 1, L0), q);
  c.r2 = hermite_combine<L>(hermite_block_weights(s.d2H, 2, L0), q);
  return c;
}

/// r''' (constant over the element).
template <class L = LayoutRM, class Q>
Vec3<typename Q::Scalar> hermite_third_derivative(const Q& q, double L0) {
  using T = typename Q::Scalar;
  const std::array<T, 4> d3{T(12), T(6), T(-12), T(6)};
  return hermite_combine<L>(hermite_block_weights(d3, 3, L0), q);
}

}  // namespace cabledyn
