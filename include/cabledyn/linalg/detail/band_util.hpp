// cabledyn: internals shared by the band factorisations (not part of the API).
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>

#include <Eigen/Core>

#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn::detail {

/// Throws InputError(object, quantity, value, limit) unless `ok`. Unlike detail::require it
/// builds no std::string unless it throws, so checks in factor / solve / assembly paths
/// allocate nothing.
template <class V>
void check_arg(bool ok, const char* object, const char* quantity, const V& value,
               const char* limit) {
  if (!ok) throw InputError(object, quantity, value, limit);
}

/// |x| of the value of x, for pivot choices (a branch on a dual compares values only).
template <class T>
value_type_t<T> abs_value(const T& x) {
  using std::abs;
  return abs(value_of(x));
}

/// True when every one of the `len` values at p is finite (a dual: its value). For plain
/// floats a vectorised sum of x * 0 (0 for finite x, NaN for Inf or NaN): one fast pass,
/// no early exit needed.
template <class T>
bool all_finite(const T* p, Eigen::Index len) {
  if constexpr (std::is_floating_point_v<T>) {
    using std::isfinite;
    return isfinite((Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>(p, len) * T(0)).sum());
  } else {
    for (Eigen::Index k = 0; k < len; ++k)
      if (!is_finite(p[k])) return false;
    return true;
  }
}

/// out[j] = largest |value| of column j of an ld x n column-major array.
template <class T>
void column_max_abs(const T* p, Eigen::Index ld, Eigen::Index n, value_type_t<T>* out) {
  if constexpr (std::is_floating_point_v<T>) {
    using Array = Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic>;
    Eigen::Map<Eigen::Array<T, 1, Eigen::Dynamic>>(out, n) =
        Eigen::Map<const Array>(p, ld, n).abs().colwise().maxCoeff();
  } else {
    for (Eigen::Index j = 0; j < n; ++j) {
      value_type_t<T> m = 0;
      for (Eigen::Index i = 0; i < ld; ++i) m = std::max(m, abs_value(p[i + j * ld]));
      out[j] = m;
    }
  }
}

}  // namespace cabledyn::detail
