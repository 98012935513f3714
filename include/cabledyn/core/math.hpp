// cabledyn: small scalar-generic math helpers shared by the kernels.
#pragma once

#include <cmath>
#include <string>

#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// sqrt(x) for x > 0; throws DomainError naming `object` and `quantity` when x <= 0, where
/// the derivative 1/(2 sqrt(x)) would be infinite (STYLE.md: guard sqrt at zero).
template <class T>
T positive_sqrt(const T& x, const std::string& object, const char* quantity) {
  using std::sqrt;
  if (!(value_of(x) > 0)) throw DomainError(object, quantity, value_of(x), "> 0");
  return sqrt(x);
}

/// x^2.
template <class T>
T square(const T& x) {
  return x * x;
}

}  // namespace cabledyn
