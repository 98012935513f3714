// cabledyn: the isotropic rotational end spring of a Hermite line end.
// Spec "End connections (Hermite lines)": potential U = 1/2 k theta^2 with theta the angle
// between the end tangent m and the reference direction d0; only the direction of m is
// restrained, its magnitude is free.
//
// With a = m . d, p = m - a d (d unit), b = |p|, n = p / b, k_ = d x n, r = |m|:
//   theta = atan2(b, a),  dtheta/dm = (a n - b d) / r^2,
//   d2theta/dm2 = (b^2 - a^2)(n d^T + d n^T)/r^4 + (a/b) k_ k_^T / r^2 - 2ab (n n^T - d d^T)/r^4,
//   dU/dm = k theta dtheta/dm,  d2U/dm2 = k (dtheta dtheta^T + theta d2theta).
// At theta = 0 (b = 0) U is smooth: dU/dm = 0, d2U/dm2 = k (I - d d^T) / r^2.
#pragma once

#include <cmath>
#include <string>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// Energy of the rotational end spring of stiffness k [N m/rad] between the tangent m and the
/// unit reference direction d; gradient and Hessian in m when requested.
template <class T>
T end_spring(const Vec3<T>& m, const Vec3<T>& d, double k, Vec3<T>* grad = nullptr,
             Mat3<T>* hess = nullptr, const char* object = "end connection") {
  using std::atan2;
  using std::sqrt;
  const T r2 = m.squaredNorm();
  if (!(value_of(r2) > 0)) throw DomainError(object, "|m|^2", value_of(r2), "> 0");
  const T a = m.dot(d);
  const Vec3<T> p = m - a * d;
  const T b2 = p.squaredNorm();
  const T b = value_of(b2) > 0 ? T(sqrt(b2)) : T(0);
  const T theta = atan2(b, a);
  const T U = T(0.5 * k) * theta * theta;
  if (!grad && !hess) return U;
  if (!(value_of(b) > 1e-12 * std::sqrt(value_of(r2)))) {
    // Aligned (theta = 0, or theta = pi where the spring is singular).
    if (value_of(a) < 0) throw DomainError(object, "end bend angle [rad]", value_of(theta), "< pi");
    if (grad) grad->setZero();
    if (hess) *hess = T(k) * (Mat3<T>::Identity() - d * d.transpose()) / r2;
    return U;
  }
  const Vec3<T> n = p / b;
  const Vec3<T> dtheta = (a * n - b * d) / r2;
  if (grad) *grad = (T(k) * theta) * dtheta;
  if (hess) {
    const Vec3<T> kk = d.cross(n);
    const T r4 = r2 * r2;
    const Mat3<T> nd = n * d.transpose();
    const Mat3<T> d2theta = ((b * b - a * a) / r4) * (nd + nd.transpose()) + (a / b / r2) * (kk * kk.transpose()) -
                            (T(2) * a * b / r4) * (n * n.transpose() - d * d.transpose());
    *hess = T(k) * (dtheta * dtheta.transpose() + theta * d2theta);
  }
  return U;
}

}  // namespace cabledyn
