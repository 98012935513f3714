// cabledyn: the start-up ramp of the waves.
// Spec "Waves": the optional rampTime T_r multiplies every wave amplitude by
// r(t) = 1/2 [1 - cos(pi t / T_r)] for t < T_r; the fluid acceleration then includes the
// ramp rate, r udot + rdot u. The current is not ramped (EQUATIONS.md section 7).
#pragma once

#include <cmath>

#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// The start-up ramp r(t) of the wave amplitudes. T_r = 0 (the default) is no ramp: r = 1
/// at every t. With T_r > 0: r = 0 for t <= 0 (the statics and the initial state see no
/// waves), 1/2 (1 - cos(pi t / T_r)) for 0 < t < T_r, 1 after. r and its rate are continuous.
struct Ramp {
  double T_r = 0;  ///< rampTime [s], >= 0

  /// Throws InputError unless T_r is finite and >= 0.
  void validate() const {
    if (!(std::isfinite(T_r) && T_r >= 0)) throw InputError("wave ramp", "rampTime", T_r, ">= 0");
  }

  /// r(t) [-]; spec "Waves" (rampTime).
  template <class T>
  T factor(const T& t) const {
    using std::cos;
    if (T_r <= 0) return T(1);
    const auto tv = value_of(t);
    if (tv <= 0) return T(0);
    if (tv >= T_r) return T(1);
    return T(T(0.5) * (T(1) - cos(T(kPi / T_r) * t)));
  }

  /// dr/dt [1/s]; spec "Waves" (the ramp rate in the acceleration).
  template <class T>
  T rate(const T& t) const {
    using std::sin;
    if (T_r <= 0) return T(0);
    const auto tv = value_of(t);
    if (tv <= 0 || tv >= T_r) return T(0);
    return T(T(0.5 * kPi / T_r) * sin(T(kPi / T_r) * t));
  }
};

}  // namespace cabledyn
