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

}  // namespace cabledyn
