// cabledyn: scalar traits.
// Every kernel is a template over the scalar type T; the same source compiles for double,
// long double and forward-mode duals (Eigen::AutoDiffScalar, nested for second order).
// These traits let a kernel ask what T is without knowing it.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

namespace Eigen {
template <typename DerivativeType>
class AutoDiffScalar;
}  // namespace Eigen

/// Forces the inlining of a small kernel piece that a hot element loop calls (GCC, Clang;
/// a plain inline elsewhere): a term split out of a kernel so that it is written once must not
/// cost a call where the kernel ran it inline.
#if defined(__GNUC__) || defined(__clang__)
#define CABLEDYN_ALWAYS_INLINE [[gnu::always_inline]] inline
#else
#define CABLEDYN_ALWAYS_INLINE inline
#endif

namespace cabledyn {

/// Traits of a scalar type: the underlying floating type, whether it is a dual number and
/// how deeply it is nested (0 for a plain float, 1 for a first-order dual, 2 for a dual of
/// duals, ...).
template <class T, class = void>
struct scalar_traits {
  using value_type = T;
  static constexpr bool is_dual = false;
  static constexpr int depth = 0;
};

template <class Der>
struct scalar_traits<Eigen::AutoDiffScalar<Der>> {
  using derivative_type = std::remove_cv_t<std::remove_reference_t<Der>>;
  using inner_type = typename derivative_type::Scalar;
  using value_type = typename scalar_traits<inner_type>::value_type;
  static constexpr bool is_dual = true;
  static constexpr int depth = 1 + scalar_traits<inner_type>::depth;
};

/// The plain floating type beneath T (double for a dual of double, recursively).
template <class T>
using value_type_t = typename scalar_traits<std::remove_cv_t<T>>::value_type;

/// True when T is a (possibly nested) dual number.
template <class T>
inline constexpr bool is_dual_v = scalar_traits<std::remove_cv_t<T>>::is_dual;

/// Nesting depth of a dual type (0 for double / long double).
template <class T>
inline constexpr int dual_depth_v = scalar_traits<std::remove_cv_t<T>>::depth;

/// Concept: a scalar the kernels accept (a floating type or a dual of one).
template <class T>
concept Scalar = std::is_floating_point_v<value_type_t<T>>;

/// The value of x with every derivative part stripped (x itself for a plain float).
template <class T>
constexpr value_type_t<T> value_of(const T& x) {
  if constexpr (is_dual_v<T>) {
    return value_of(x.value());
  } else {
    return static_cast<value_type_t<T>>(x);
  }
}

/// Machine epsilon of the floating type beneath T.
template <class T>
constexpr value_type_t<T> epsilon() {
  return std::numeric_limits<value_type_t<T>>::epsilon();
}

/// A relative tolerance that suits T: `factor` times its epsilon.
template <class T>
constexpr value_type_t<T> tolerance(value_type_t<T> factor = 64) {
  return factor * epsilon<T>();
}

/// True when the value of x is finite (every dual is judged by its value).
template <class T>
bool is_finite(const T& x) {
  using std::isfinite;
  return isfinite(value_of(x));
}

// ---- lane-aware branches (a Pack has no single value; see core/pack.hpp) -------------------

/// True when T is a Pack (core/pack.hpp): N lanes evaluated at once.
template <class T>
inline constexpr bool is_pack_v = false;

/// Lane l of a pack (x itself for a scalar or a dual).
template <class T>
decltype(auto) lane(const T& x, int l) {
  if constexpr (is_pack_v<T>) {
    return x[l];
  } else {
    (void)l;
    return (x);
  }
}

/// The smallest lane of a pack (x itself for a scalar, its value for a dual).
template <class T>
value_type_t<T> min_lane(const T& x) {
  if constexpr (is_pack_v<T>) {
    value_type_t<T> m = x[0];
    for (int i = 1; i < T::kLanes; ++i) m = x[i] < m ? x[i] : m;
    return m;
  } else {
    return value_of(x);
  }
}

/// True when every lane of x is > 0 (the value of x for a scalar or a dual; NaN is not).
template <class T>
bool all_positive(const T& x) {
  if constexpr (is_pack_v<T>) {
    for (int i = 0; i < T::kLanes; ++i)
      if (!(x[i] > 0)) return false;
    return true;
  } else {
    return value_of(x) > 0;
  }
}

/// Lane by lane: a where c > 0, else b (for a scalar or a dual, the branch on c's value).
template <class T>
T select_positive(const T& c, const T& a, const T& b) {
  if constexpr (is_pack_v<T>) {
    T r;
    for (int i = 0; i < T::kLanes; ++i) r.set(i, c[i] > 0 ? a[i] : b[i]);
    return r;
  } else {
    return value_of(c) > 0 ? a : b;
  }
}

/// sqrt(x) where x > 0, else 0: the derivative of a dual stays finite at 0 (a pack takes the
/// lane-wise sqrt, exact 0 at 0).
template <class T>
T sqrt_or_zero(const T& x) {
  using std::sqrt;
  if constexpr (is_pack_v<T>) {
    return select_positive(x, T(sqrt(x)), T(0));
  } else {
    return value_of(x) > 0 ? T(sqrt(x)) : T(0);
  }
}

}  // namespace cabledyn
