// cabledyn: the quintic Hermite interpolant of a trajectory given by its position, velocity
// and acceleration at both ends of an interval (C2 where intervals join).
// Spec "Prescribed motion" (motion tables of given kinematics), "Adaptive step subdivision"
// (the quintic end trajectory over sub-steps).
#pragma once

namespace cabledyn {

/// The quintic whose value, first and second derivative are (x0, v0, a0) at s = 0 and (x1,
/// v1, a1) at s = 1 (s = (t - t0) / h in [0, 1], the derivatives in time over an interval of
/// length h): writes x(t), v(t), a(t) at s, as the quintic Hermite basis on [0, 1] weighs the
/// six data. V is a scalar or a vector (Vec3) of S. At s = 0 it returns x0 exactly; the
/// velocity and acceleration at the ends are those given up to round-off (a caller needing
/// them exactly copies them there). The arithmetic is fixed: runs repeat bit for bit.
template <class S, class V>
void quintic_hermite(const V& x0, const V& v0, const V& a0, const V& x1, const V& v1, const V& a1, const S& h, const S& s,
                     V& x, V& v, V& a) {
  const S t = s, t2 = t * t, t3 = t2 * t, t4 = t3 * t, t5 = t4 * t;
  // Basis functions of the value, first and second derivative data at both ends ...
  const S h0 = S(1) - S(10) * t3 + S(15) * t4 - S(6) * t5, h1 = t - S(6) * t3 + S(8) * t4 - S(3) * t5,
          h2 = S(0.5) * t2 - S(1.5) * t3 + S(1.5) * t4 - S(0.5) * t5, h3 = S(10) * t3 - S(15) * t4 + S(6) * t5,
          h4 = S(-4) * t3 + S(7) * t4 - S(3) * t5, h5 = S(0.5) * t3 - t4 + S(0.5) * t5;
  // ... their first derivatives in s ...
  const S d0 = S(-30) * t2 + S(60) * t3 - S(30) * t4, d1 = S(1) - S(18) * t2 + S(32) * t3 - S(15) * t4,
          d2 = t - S(4.5) * t2 + S(6) * t3 - S(2.5) * t4, d3 = S(30) * t2 - S(60) * t3 + S(30) * t4,
          d4 = S(-12) * t2 + S(28) * t3 - S(15) * t4, d5 = S(1.5) * t2 - S(4) * t3 + S(2.5) * t4;
  // ... and their second derivatives.
  const S s0 = S(-60) * t + S(180) * t2 - S(120) * t3, s1 = S(-36) * t + S(96) * t2 - S(60) * t3,
          s2 = S(1) - S(9) * t + S(18) * t2 - S(10) * t3, s3 = S(60) * t - S(180) * t2 + S(120) * t3,
          s4 = S(-24) * t + S(84) * t2 - S(60) * t3, s5 = S(3) * t - S(12) * t2 + S(10) * t3;
  x = h0 * x0 + h1 * h * v0 + h2 * h * h * a0 + h3 * x1 + h4 * h * v1 + h5 * h * h * a1;
  v = (d0 * x0 + d1 * h * v0 + d2 * h * h * a0 + d3 * x1 + d4 * h * v1 + d5 * h * h * a1) / h;
  a = (s0 * x0 + s1 * h * v0 + s2 * h * h * a0 + s3 * x1 + s4 * h * v1 + s5 * h * h * a1) / (h * h);
}

}  // namespace cabledyn
