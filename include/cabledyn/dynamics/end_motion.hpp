// cabledyn: the prescribed kinematics of a held point at one time (EndMotion) and the quintic
// smoothstep that brings a prescribed motion in over a ramp.
// Spec "Prescribed motion" (the motion of a held end; the ramp r(t) with r, r' and r''
// continuous).
#pragma once

#include <algorithm>
#include <array>

#include "cabledyn/core/eigen.hpp"

namespace cabledyn {

/// Prescribed kinematics of a held point (a line end, a coupled point) at one time.
struct EndMotion {
  Vec3<double> x = Vec3<double>::Zero();  ///< position [m]
  Vec3<double> v = Vec3<double>::Zero();  ///< velocity [m/s]
  Vec3<double> a = Vec3<double>::Zero();  ///< acceleration [m/s^2]
};
/// The kinematics of a line's two ends (End A, End B).
using EndMotions = std::array<EndMotion, 2>;

/// The quintic smoothstep r(t) = u^3 (10 - 15 u + 6 u^2), u = t / T_r, that brings a motion in
/// over T_r (0 before t = 0, 1 after T_r; r, r' and r'' continuous), with its rates.
struct SmoothStep {
  double r = 1, rd = 0, rdd = 0;  ///< r [-], dr/dt [1/s], d2r/dt2 [1/s^2]
};
inline SmoothStep quintic_smoothstep(double t, double T_r) {
  SmoothStep s;
  if (t < T_r) {
    const double u = std::max(t, 0.0) / T_r;
    s.r = u * u * u * (10 - 15 * u + 6 * u * u);
    s.rd = 30 * u * u * (1 - u) * (1 - u) / T_r;
    s.rdd = 60 * u * (1 - u) * (1 - 2 * u) / (T_r * T_r);
  }
  return s;
}

}  // namespace cabledyn
