// cabledyn: compensated (doubled-precision) sums, dot products and band products
// (internals of the eigensolver; not part of the API).
// Spec "Modal analysis": the returned omega^2 is the Rayleigh quotient of the shape summed
// in extended precision. The sums here are the error-free transformations of Knuth (TwoSum)
// and Dekker / Veltkamp (TwoProduct; an FMA where the hardware has one) accumulated as in
// Ogita, Rump and Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26 (2005),
// Algorithm 5.3 (Dot2): the result is as accurate as if computed in twice the working
// precision and then rounded, |res - x.y| <= eps |x.y| + gamma_n^2 sum |x_i y_i|. For
// double that is 106 bits, for the x87 long double 128 bits: at least the 113 bits of
// __float128 for the short sums used here (tests/linalg/band_eigen_test.cpp compares them).
// Needs IEEE round-to-nearest arithmetic: not valid under -ffast-math.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

#include <Eigen/Core>

#include "cabledyn/linalg/band_matrix.hpp"

namespace cabledyn::detail {

/// s + e = a + b exactly, s = fl(a + b) (Knuth's TwoSum, no branch).
template <class T>
inline void two_sum(T a, T b, T& s, T& e) {
  s = a + b;
  const T z = s - a;
  e = (a - (s - z)) + (b - z);
}

/// p + e = a b exactly, p = fl(a b): an FMA for float and double where the hardware has
/// one (then the compiler may also contract, which the split below would not survive),
/// otherwise Veltkamp's split into halves of ceil(digits / 2) bits and Dekker's product.
template <class T>
inline void two_prod(T a, T b, T& p, T& e) {
  p = a * b;
#if defined(__FMA__) || defined(__FP_FAST_FMA)
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    e = std::fma(a, b, -p);
    return;
  }
#endif
  constexpr int half = (std::numeric_limits<T>::digits + 1) / 2;
  const T factor = static_cast<T>(static_cast<unsigned long long>(1) << half) + T(1);
  const T ca = factor * a, cb = factor * b;
  const T ah = ca - (ca - a), al = a - ah;
  const T bh = cb - (cb - b), bl = b - bh;
  e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

/// A sum carried as hi + lo (Dot2's accumulator): add() and add_product() are error-free up
/// to the plain summation of the (tiny) error terms in lo.
template <class T>
struct CompensatedSum {
  T hi = T(0);
  T lo = T(0);

  void add(T x) {
    T s, e;
    two_sum(hi, x, s, e);
    hi = s;
    lo += e;
  }
  void add_product(T a, T b) {
    T p, e, s, t;
    two_prod(a, b, p, e);
    two_sum(hi, p, s, t);
    hi = s;
    lo += t + e;
  }
  /// The sum rounded to T.
  T value() const { return hi + lo; }
};

/// y = A x for a symmetric band matrix, every row summed as a compensated dot product and
/// kept unrounded as y_hi + y_lo (each row within gamma_m^2 sum_j |a_ij x_j| of exact, m the
/// row's 2 kd + 1 terms). x, y_hi, y_lo of length n.
template <class T>
void compensated_band_multiply(const SymmetricBandMatrix<T>& A, const T* x, T* y_hi, T* y_lo) {
  using Index = Eigen::Index;
  const Index n = A.rows(), kd = A.kd(), ld = A.ldab();
  for (Index i = 0; i < n; ++i) y_hi[i] = y_lo[i] = T(0);
  const T* ab = A.data();
  auto accumulate = [&](Index i, T a, T xj) {
    T p, e, s, t;
    two_prod(a, xj, p, e);
    two_sum(y_hi[i], p, s, t);
    y_hi[i] = s;
    y_lo[i] += t + e;
  };
  for (Index j = 0; j < n; ++j) {
    const T* col = ab + j * ld;  // col[r] = A(j + r, j)
    const Index m = std::min(kd, n - 1 - j);
    accumulate(j, col[0], x[j]);
    for (Index r = 1; r <= m; ++r) {
      accumulate(j + r, col[r], x[j]);  // A(j + r, j) x_j in row j + r
      accumulate(j, col[r], x[j + r]);  // A(j, j + r) x_{j+r} in row j
    }
  }
}

/// sum_i x_i (y_hi_i + y_lo_i), compensated, returned unrounded.
template <class T>
CompensatedSum<T> compensated_dot(Eigen::Index n, const T* x, const T* y_hi, const T* y_lo) {
  CompensatedSum<T> s;
  T tail = T(0);
  for (Eigen::Index i = 0; i < n; ++i) {
    s.add_product(x[i], y_hi[i]);
    tail += x[i] * y_lo[i];
  }
  s.lo += tail;
  return s;
}

}  // namespace cabledyn::detail
