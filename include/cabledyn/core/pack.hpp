// cabledyn: Pack<S, N>, a scalar that holds N independent lanes of S (a SIMD vector), so that
// a kernel written once as a template over T evaluates N elements at a time (the march packs
// runs of equal Hermite elements; LineModel::set_pack_elements). Arithmetic, sqrt and abs
// act lane by lane with the operations of the scalar kernel, so each lane is the scalar
// result to round-off (Eigen may associate a double reduction differently, and the compiler
// may contract multiply-adds differently in vector and scalar code).
//
// A data-dependent branch cannot be taken on a pack: value_of(Pack) does not compile, so
// every branch of a kernel instantiated on packs is written with the lane-aware helpers of
// core/scalar.hpp (all_positive, min_lane, select_positive, sqrt_or_zero), which reduce to
// the plain branch for double, long double and duals.
//
// With GCC or Clang the lanes are a vector extension (one AVX register for 4 doubles when the
// target has AVX: build with -march=native or -mavx2 to get it); other compilers get a plain
// array.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

#include <Eigen/Core>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// N lanes of the floating type S; the lanes never interact except in the reductions
/// (min_lane, all_positive) that a caller asks for by name.
template <class S, int N>
struct Pack {
  static_assert(std::is_floating_point_v<S> && N >= 1, "Pack holds floating lanes");
#if defined(__GNUC__)
  typedef S V __attribute__((vector_size(sizeof(S) * N)));  // the alias form drops the attribute
#endif
  static constexpr int kLanes = N;

#if defined(__GNUC__)
  V v;
  Pack() = default;
  // Implicit broadcast, as a double literal converts to T. x - 0 is x exactly (also for -0),
  // so the compiler emits the broadcast alone (0 + x would cost an addition: -0 + 0 = +0).
  Pack(S x) : v(x - V{}) {}  // NOLINT
  Pack(int x) : Pack(S(x)) {}  // NOLINT
  static Pack from(const V& x) {
    Pack p;
    p.v = x;
    return p;
  }
  S operator[](int i) const { return v[i]; }
  void set(int i, S x) { v[i] = x; }
  friend Pack operator+(const Pack& a, const Pack& b) { return from(a.v + b.v); }
  friend Pack operator-(const Pack& a, const Pack& b) { return from(a.v - b.v); }
  friend Pack operator*(const Pack& a, const Pack& b) { return from(a.v * b.v); }
  friend Pack operator/(const Pack& a, const Pack& b) { return from(a.v / b.v); }
  friend Pack operator-(const Pack& a) { return from(-a.v); }
#else
  S v[N];
  Pack() = default;
  Pack(S x) { for (int i = 0; i < N; ++i) v[i] = x; }  // NOLINT
  Pack(int x) : Pack(S(x)) {}  // NOLINT
  S operator[](int i) const { return v[i]; }
  void set(int i, S x) { v[i] = x; }
  template <class F>
  static Pack map2(const Pack& a, const Pack& b, F f) {
    Pack r;
    for (int i = 0; i < N; ++i) r.v[i] = f(a.v[i], b.v[i]);
    return r;
  }
  friend Pack operator+(const Pack& a, const Pack& b) { return map2(a, b, [](S x, S y) { return x + y; }); }
  friend Pack operator-(const Pack& a, const Pack& b) { return map2(a, b, [](S x, S y) { return x - y; }); }
  friend Pack operator*(const Pack& a, const Pack& b) { return map2(a, b, [](S x, S y) { return x * y; }); }
  friend Pack operator/(const Pack& a, const Pack& b) { return map2(a, b, [](S x, S y) { return x / y; }); }
  friend Pack operator-(const Pack& a) { return map2(a, a, [](S x, S) { return -x; }); }
#endif
  Pack& operator+=(const Pack& b) { return *this = *this + b; }
  Pack& operator-=(const Pack& b) { return *this = *this - b; }
  Pack& operator*=(const Pack& b) { return *this = *this * b; }
  Pack& operator/=(const Pack& b) { return *this = *this / b; }
  friend Pack operator+(const Pack& a) { return a; }
};

/// The lanes of S a pack holds by default: one SIMD register of the target (4 doubles with
/// AVX, 2 with SSE2 or without a known vector unit; twice as many floats).
template <class S>
inline constexpr int kPackLanes =
#if defined(__AVX__)
    32 / static_cast<int>(sizeof(S));
#else
    16 / static_cast<int>(sizeof(S));
#endif

/// Lane-wise square root (the correctly rounded IEEE sqrt of each lane).
template <class S, int N>
Pack<S, N> sqrt(const Pack<S, N>& x) {
  Pack<S, N> r;
#if defined(__AVX__)
  if constexpr (std::is_same_v<S, double> && N % 4 == 0) {
    for (int i = 0; i < N; i += 4) {
      const __m256d s = _mm256_sqrt_pd(_mm256_loadu_pd(reinterpret_cast<const double*>(&x.v) + i));
      _mm256_storeu_pd(reinterpret_cast<double*>(&r.v) + i, s);
    }
    return r;
  }
#endif
#if defined(__SSE2__)
  if constexpr (std::is_same_v<S, double> && N % 2 == 0) {
    for (int i = 0; i < N; i += 2) {
      const __m128d s = _mm_sqrt_pd(_mm_loadu_pd(reinterpret_cast<const double*>(&x.v) + i));
      _mm_storeu_pd(reinterpret_cast<double*>(&r.v) + i, s);
    }
    return r;
  }
#endif
  for (int i = 0; i < N; ++i) r.set(i, std::sqrt(x[i]));
  return r;
}

/// Lane-wise |x|.
template <class S, int N>
Pack<S, N> abs(const Pack<S, N>& x) {
  Pack<S, N> r;
  for (int i = 0; i < N; ++i) r.set(i, std::fabs(x[i]));
  return r;
}

/// The lanes of a pack are plain S: its traits name S as the value type.
template <class S, int N>
struct scalar_traits<Pack<S, N>> {
  using value_type = S;
  static constexpr bool is_dual = false;
  static constexpr int depth = 0;
};

template <class S, int N>
inline constexpr bool is_pack_v<Pack<S, N>> = true;

}  // namespace cabledyn

namespace Eigen {
/// Eigen sees a pack as a real, non-vectorised scalar (the pack is the vector).
template <class S, int N>
struct NumTraits<cabledyn::Pack<S, N>> {
  using P = cabledyn::Pack<S, N>;
  using Real = P;
  using NonInteger = P;
  using Nested = P;
  using Literal = P;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 0,
    ReadCost = N,
    AddCost = N,
    MulCost = N
  };
  static P epsilon() { return P(std::numeric_limits<S>::epsilon()); }
  static P dummy_precision() { return P(NumTraits<S>::dummy_precision()); }
  static P highest() { return P(std::numeric_limits<S>::max()); }
  static P lowest() { return P(std::numeric_limits<S>::lowest()); }
  static P infinity() { return P(std::numeric_limits<S>::infinity()); }
  static P quiet_NaN() { return P(std::numeric_limits<S>::quiet_NaN()); }
  static int digits10() { return std::numeric_limits<S>::digits10; }
  static int digits() { return std::numeric_limits<S>::digits; }
};
}  // namespace Eigen
