// cabledyn: the quintic Hermite interpolant of a trajectory given by its position, velocity
// and acceleration at both ends of an interval (C2 where intervals join).
// Spec "Prescribed motion" (motion tables of given kinematics), "Adaptive step subdivision"
// (the quintic end trajectory over sub-steps).
#pragma once

namespace cabledyn {

/// The quintic p(s) = x0 + sum_k c_k s^k (s = (t - t0) / h in [0, 1]) whose value, first and
/// second derivative are (x0, v0, a0) at s = 0 and (x1, v1, a1) at s = 1 (in time, over an
/// interval of length h): writes x(t), v(t), a(t) at s. V is a scalar or a vector (Vec3) of S.
/// At s = 0 it returns x0 exactly; the velocity and acceleration at the ends are those given
/// up to round-off (a caller needing them exactly copies them there).
template <class S, class V>
void quintic_hermite(const V& x0, const V& v0, const V& a0, const V& x1, const V& v1, const V& a1, const S& h, const S& s,
                     V& x, V& v, V& a) {
  const V p1 = h * v0, q1 = h * v1, p2 = (h * h) * a0, q2 = (h * h) * a1, dx = x1 - x0;
  const V c2 = p2 / S(2);
  const V c3 = S(10) * dx - S(6) * p1 - S(4) * q1 - (S(3) * p2 - q2) / S(2);
  const V c4 = S(-15) * dx + S(8) * p1 + S(7) * q1 + (S(3) * p2 - S(2) * q2) / S(2);
  const V c5 = S(6) * dx - S(3) * (p1 + q1) - (p2 - q2) / S(2);
  x = x0 + s * (p1 + s * (c2 + s * (c3 + s * (c4 + s * c5))));
  v = (p1 + s * (S(2) * c2 + s * (S(3) * c3 + s * (S(4) * c4 + (s * S(5)) * c5)))) / h;
  a = (S(2) * c2 + s * (S(6) * c3 + s * (S(12) * c4 + (s * S(20)) * c5))) / (h * h);
}

}  // namespace cabledyn
