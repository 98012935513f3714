// cabledyn: the linear dispersion relation omega^2 = g k tanh(k h).
// Spec "Waves": the wavenumber solves the dispersion relation by monotone bisection in k h
// to a relative interval of 1e-15 (EQUATIONS.md section 7).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// Water depth that stands for deep water (no seabed under the waves): the depth ratios of
/// the kinematics become exp(k z') and the dispersion relation omega^2 = g k.
inline constexpr double kDeepWater = std::numeric_limits<double>::infinity();

/// Relative width of the final bisection interval of the dispersion solver in the floating
/// type V: 1e-15 (the spec) in double, 2 eps in a finer type (long double).
template <class V>
constexpr V dispersion_tolerance() {
  return std::min(V(1e-15), V(2) * std::numeric_limits<V>::epsilon());
}

/// Solves x tanh(x) = nu for x = k h > 0 (nu = omega^2 h / g > 0) by monotone bisection on
/// the bracket [max(nu, sqrt(nu)), nu / tanh(max(nu, sqrt(nu)))], which holds the root
/// because x tanh x is increasing, below x^2 and below x. Stops when the interval is
/// narrower than dispersion_tolerance<V>() relative to its lower end, or when it cannot be
/// halved any more; returns the midpoint. Spec "Waves" [-].
template <class V>
V dispersion_kh(V nu) {
  static_assert(std::is_floating_point_v<V>, "dispersion_kh works in a floating type");
  using std::sqrt;
  using std::tanh;
  if (!(std::isfinite(nu) && nu > 0)) throw InputError("dispersion relation", "omega^2 h / g", nu, "> 0, finite");
  V lo = std::max(nu, sqrt(nu));
  V hi = nu / tanh(lo);
  const V tol = dispersion_tolerance<V>();
  while (hi - lo > tol * lo) {
    const V mid = lo + (hi - lo) / 2;
    if (!(mid > lo && mid < hi)) break;  // the interval holds adjacent floats
    if (mid * tanh(mid) < nu)
      lo = mid;
    else
      hi = mid;
  }
  return lo + (hi - lo) / 2;
}

/// Wavenumber k [1/m] of a linear wave of angular frequency `omega` [rad/s] in water of
/// depth `depth` [m] (kDeepWater for deep water) under gravity `g` [m/s^2]: the root of
/// omega^2 = g k tanh(k h) (spec "Waves", EQUATIONS.md section 7).
///
/// The value comes from the bisection in the floating type beneath T. For a dual T the
/// derivatives follow the implicit-function theorem, dk = d(omega^2 h / g) / f'(k h) / h with
/// f(x) = x tanh x, so dk/domega = 2 omega / (g (tanh kh + kh sech^2 kh)) is exact while the
/// value is bit for bit the one of the plain type.
/// Throws InputError for omega <= 0, depth <= 0 or g <= 0.
template <class T>
T wave_number(const T& omega, double depth, double g) {
  using V = value_type_t<T>;
  using std::cosh;
  using std::tanh;
  const V w = value_of(omega);
  if (!(std::isfinite(static_cast<double>(w)) && w > 0))
    throw InputError("dispersion relation", "omega", w, "> 0");
  if (!(depth > 0)) throw InputError("dispersion relation", "depth", depth, "> 0");
  if (!(std::isfinite(g) && g > 0)) throw InputError("dispersion relation", "g", g, "> 0");
  if (std::isinf(depth)) return T(omega * omega / T(g));  // deep water: omega^2 = g k
  const V h = static_cast<V>(depth);
  const V gv = static_cast<V>(g);
  const V nu0 = w * w * h / gv;
  const V x0 = dispersion_kh<V>(nu0);
  if constexpr (is_dual_v<T>) {
    // x = x0 + (nu - nu0) / f'(x0): value x0 exactly, derivative d nu / f'(x0).
    const V th = tanh(x0);
    const V ch = cosh(x0);
    const V fprime = th + x0 / (ch * ch);
    const T nu = omega * omega * T(h) / T(gv);  // same operations as nu0: equal values
    return T((T(x0) + (nu - T(nu0)) / T(fprime)) / T(h));
  } else {
    return T(x0 / h);
  }
}

}  // namespace cabledyn
