// Test support: prescribed end motions of the dynamic tests.
#pragma once

#include <cmath>

#include "cabledyn/core/environment.hpp"
#include "cabledyn/dynamics/end_motion.hpp"

namespace cabledyn::test_support {

/// A surge A sin(2 pi t / period) along x about `origin`, brought in over `ramp` seconds by the
/// quintic smoothstep (quintic_smoothstep), with its exact velocity and acceleration.
inline EndMotion ramped_surge(double t, const Vec3<double>& origin, double A, double period, double ramp) {
  const double w = 2 * kPi / period;
  const SmoothStep r = quintic_smoothstep(t, ramp);
  const double sn = std::sin(w * t), co = std::cos(w * t);
  EndMotion e;
  e.x = origin + Vec3<double>(A * r.r * sn, 0, 0);
  e.v = Vec3<double>(A * (r.rd * sn + r.r * w * co), 0, 0);
  e.a = Vec3<double>(A * (r.rdd * sn + 2 * r.rd * w * co - r.r * w * w * sn), 0, 0);
  return e;
}

}  // namespace cabledyn::test_support
