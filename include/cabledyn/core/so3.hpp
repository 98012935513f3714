// cabledyn: rotations on SO(3): the exponential and logarithm maps, the left Jacobian, the
// geodesic between two orientations and the deck's Euler angles.
// Spec "Attached objects and line ends" (the orientation of a body is advanced on SO(3)),
// "Rigid-body time integration" (R_{n+1} = exp([dtheta]_x) R_n, the orientation at the alpha
// level on the geodesic between R_n and R_{n+1}).
//
// Templated over T; the small-angle branches are series in theta^2, so a dual at theta = 0
// keeps finite derivatives (no sqrt of zero is differentiated).
#pragma once

#include <array>

#include <cmath>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

namespace detail {
// The coefficients a = sin t / t, b = (1 - cos t) / t^2, c = (t - sin t) / t^3 of the
// Rodrigues formulas, from t^2 (series below 1e-6 rad^2: truncation below 1e-19).
template <class T>
void so3_coefficients(const T& t2, T& a, T& b, T& c) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  // Plain-double constants: an operation between two constant duals (no derivative
  // directions) would leave an expression that cannot be made coherent with a seeded one.
  if (value_of(t2) < 1e-6) {
    a = 1.0 - t2 / 6.0 + t2 * t2 / 120.0;
    b = 0.5 - t2 / 24.0 + t2 * t2 / 720.0;
    c = 1.0 / 6.0 - t2 / 120.0 + t2 * t2 / 5040.0;
  } else {
    const T t = sqrt(t2);
    const T s = sin(t), co = cos(t);
    a = s / t;
    b = (1.0 - co) / t2;
    c = (t - s) / (t2 * t);
  }
}
}  // namespace detail

/// exp([theta]_x): the rotation by |theta| about theta (Rodrigues).
template <class T>
Mat3<T> so3_exp(const Vec3<T>& theta) {
  T a, b, c;
  detail::so3_coefficients(T(theta.squaredNorm()), a, b, c);
  const Mat3<T> K = skew(theta);
  return Mat3<T>(Mat3<T>::Identity() + a * K + b * K * K);
}

/// The left Jacobian of SO(3): exp([theta + d]_x) = exp([J_l(theta) d]_x) exp([theta]_x) to
/// first order in d, J_l = I + b [theta]_x + c [theta]_x^2.
template <class T>
Mat3<T> so3_left_jacobian(const Vec3<T>& theta) {
  T a, b, c;
  detail::so3_coefficients(T(theta.squaredNorm()), a, b, c);
  const Mat3<T> K = skew(theta);
  return Mat3<T>(Mat3<T>::Identity() + b * K + c * K * K);
}

/// log(R): the rotation vector theta, |theta| <= pi, with exp([theta]_x) = R.
template <class T>
Vec3<T> so3_log(const Mat3<T>& R) {
  using std::acos;
  using std::atan2;
  using std::sqrt;
  const Vec3<T> w(R(2, 1) - R(1, 2), R(0, 2) - R(2, 0), R(1, 0) - R(0, 1));  // 2 sin t u
  T ct = (R.trace() - 1.0) / 2.0;
  if (value_of(ct) > 1) ct = T(1);
  if (value_of(ct) < -1) ct = T(-1);
  const T s2 = w.squaredNorm() / 4.0;  // sin^2 t
  if (value_of(ct) > 0 && value_of(s2) < 1e-12) {
    // theta = (t / sin t) w / 2, t / sin t = asin(s) / s = 1 + s^2 / 6 + ... (exact to 1e-24).
    return Vec3<T>(w * T((1.0 + s2 / 6.0) / 2.0));
  }
  if (value_of(ct) > -0.99) {
    const T s = sqrt(s2);
    return Vec3<T>(w * T(atan2(s, ct) / (2.0 * s)));
  }
  const T t = acos(ct);
  // Near pi: the axis from the symmetric part, R + R^T = 2 cos t I + 2 (1 - cos t) u u^T.
  const Mat3<T> S = (R + R.transpose()) / T(2) - ct * Mat3<T>::Identity();
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (value_of(S(i, i)) > value_of(S(k, k))) k = i;
  Vec3<T> u = S.col(k) / sqrt(S(k, k) * (T(1) - ct));
  u /= sqrt(u.squaredNorm());
  if (value_of(u.dot(w)) < 0) u = -u;
  return Vec3<T>(u * t);
}

/// The orientation a fraction tau along the geodesic from Ra to Rb: exp(tau log(Rb Ra^T)) Ra.
template <class T>
Mat3<T> so3_interpolate(const Mat3<T>& Ra, const Mat3<T>& Rb, const T& tau) {
  const Vec3<T> th = so3_log<T>(Mat3<T>(Rb * Ra.transpose()));
  return Mat3<T>(so3_exp<T>(Vec3<T>(tau * th)) * Ra);
}

/// The shortest rotation R with R a = b (a, b unit vectors): about a x b by the angle between
/// them; for b = -a the half turn 2 n n^T - I about the unit normal n to a nearest the
/// coordinate axis least aligned with a (for a = +-z: about x).
template <class T>
Mat3<T> so3_between(const Vec3<T>& a, const Vec3<T>& b) {
  using std::atan2;
  using std::fabs;
  const Vec3<T> c = a.cross(b);
  const T s = sqrt_or_zero(T(c.squaredNorm())), co = a.dot(b);
  if (value_of(s) > 1e-14) return so3_exp<T>(Vec3<T>(c * (atan2(s, co) / s)));
  if (value_of(co) > 0) return Mat3<T>::Identity();
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (fabs(value_of(a(i))) < fabs(value_of(a(k)))) k = i;
  Vec3<T> n = -a(k) * a;
  n(k) += T(1);
  n /= sqrt_or_zero(T(n.squaredNorm()));
  return T(2) * n * n.transpose() - Mat3<T>::Identity();
}

/// The elementary turns Rx(roll), Ry(pitch), Rz(yaw) about the coordinate axes (radians).
template <class T>
std::array<Mat3<T>, 3> elementary_rotations(const T& roll, const T& pitch, const T& yaw) {
  using std::cos;
  using std::sin;
  std::array<Mat3<T>, 3> R;
  const T c1 = cos(roll), s1 = sin(roll), c2 = cos(pitch), s2 = sin(pitch), c3 = cos(yaw), s3 = sin(yaw);
  R[0] << T(1), T(0), T(0), T(0), c1, -s1, T(0), s1, c1;
  R[1] << c2, T(0), s2, T(0), T(1), T(0), -s2, T(0), c2;
  R[2] << c3, -s3, T(0), s3, c3, T(0), T(0), T(0), T(1);
  return R;
}

/// The orientation of MoorDyn's body and rod angles (deck BODIES r0 p0 y0, in radians): R =
/// Rx(roll) Ry(pitch) Rz(yaw), the body axes turned about x, then the new y, then the new z.
template <class T>
Mat3<T> rotation_xyz(const T& roll, const T& pitch, const T& yaw) {
  const auto R = elementary_rotations(roll, pitch, yaw);
  return Mat3<T>(R[0] * R[1] * R[2]);
}

/// The angles (roll, pitch, yaw) of rotation_xyz that give R, pitch in [-pi/2, pi/2] (at
/// pitch = +-pi/2 the roll is taken as 0).
template <class T>
Vec3<T> angles_xyz(const Mat3<T>& R) {
  using std::asin;
  using std::atan2;
  // R(0, 2) = sin(pitch); R(1, 2) = -sin(roll) cos(pitch); R(2, 2) = cos(roll) cos(pitch);
  // R(0, 0) = cos(pitch) cos(yaw); R(0, 1) = -cos(pitch) sin(yaw).
  T sp = R(0, 2);
  if (value_of(sp) > 1) sp = T(1);
  if (value_of(sp) < -1) sp = T(-1);
  const T pitch = asin(sp);
  if (std::fabs(static_cast<double>(value_of(sp))) > 1 - 1e-12) {
    // Gimbal lock: roll and yaw turn about one axis; put it all in yaw.
    const T yaw = atan2(R(1, 0), R(1, 1));
    return Vec3<T>(T(0), pitch, yaw);
  }
  // 0 - x, not -x: an exact zero gives +0, so a half turn reads +180 degrees, not -180.
  return Vec3<T>(atan2(T(0) - R(1, 2), R(2, 2)), pitch, atan2(T(0) - R(0, 1), R(0, 0)));
}

/// The orientation of a prescribed vessel from its Euler angles in the OrcaFlex vessel
/// convention (spec "Prescribed vessel motion"; EQUATIONS.md 12): R = Rz(yaw) Ry(pitch)
/// Rx(roll), from vessel to global axes: the vessel turned about the global z, then the new y,
/// then the new x. Angles in radians.
template <class T>
Mat3<T> rotation_zyx(const T& roll, const T& pitch, const T& yaw) {
  const auto R = elementary_rotations(roll, pitch, yaw);
  return Mat3<T>(R[2] * R[1] * R[0]);
}

/// The angles (roll, pitch, yaw) of rotation_zyx that give R, pitch in [-pi/2, pi/2] (at
/// pitch = +-pi/2 the roll is taken as 0).
template <class T>
Vec3<T> angles_zyx(const Mat3<T>& R) {
  using std::asin;
  using std::atan2;
  // R(2, 0) = -sin(pitch); R(2, 1) = cos(pitch) sin(roll); R(2, 2) = cos(pitch) cos(roll);
  // R(1, 0) = cos(pitch) sin(yaw); R(0, 0) = cos(pitch) cos(yaw).
  T sp = T(0) - R(2, 0);
  if (value_of(sp) > 1) sp = T(1);
  if (value_of(sp) < -1) sp = T(-1);
  const T pitch = asin(sp);
  if (std::fabs(static_cast<double>(value_of(sp))) > 1 - 1e-12) {
    // Gimbal lock: roll and yaw turn about one axis; put it all in yaw.
    const T yaw = atan2(T(0) - R(0, 1), R(1, 1));
    return Vec3<T>(T(0), pitch, yaw);
  }
  return Vec3<T>(atan2(R(2, 1), R(2, 2)), pitch, atan2(R(1, 0), R(0, 0)));
}

/// The angular velocity w and acceleration alpha, in global axes, of R = rotation_zyx(ang)
/// with angle rates angd and second rates angdd (spec "Prescribed vessel motion": alpha is
/// the exact time derivative of w): w = yaw' e_z + pitch' Rz e_y + roll' Rz Ry e_x, and, with
/// w_zy = yaw' e_z + pitch' Rz e_y the rate of Rz Ry,
/// alpha = yaw'' e_z + pitch'' Rz e_y + pitch' (yaw' e_z) x (Rz e_y)
///       + roll'' Rz Ry e_x + roll' w_zy x (Rz Ry e_x).
template <class T>
void rates_zyx(const Vec3<T>& ang, const Vec3<T>& angd, const Vec3<T>& angdd, Vec3<T>& w, Vec3<T>& alpha) {
  using std::cos;
  using std::sin;
  const T cp = cos(ang(1)), sp = sin(ang(1)), cy = cos(ang(2)), sy = sin(ang(2));
  const Vec3<T> ez(T(0), T(0), T(1));
  const Vec3<T> ey1(-sy, cy, T(0));               // Rz e_y
  const Vec3<T> ex2(cy * cp, sy * cp, T(0) - sp);  // Rz Ry e_x
  const Vec3<T> wz = angd(2) * ez, wzy = wz + angd(1) * ey1;
  w = wzy + angd(0) * ex2;
  alpha = angdd(2) * ez + angdd(1) * ey1 + angd(1) * wz.cross(ey1) + angdd(0) * ex2 + angd(0) * wzy.cross(ex2);
}

}  // namespace cabledyn
