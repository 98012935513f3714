// cabledyn: the mass matrix of a line: consistent structural mass plus the Morison added
// mass of the wetted part, assembled into band storage.
// Spec "The EI = 0 tension element" and "The cubic-Hermite bending element" (consistent
// mass), "Added mass and fluid inertia" (m_a = rho A [Can (I - t t^T) + Cat t t^T]; EI = 0: at
// the current configuration with its configuration derivative; Hermite: the consistent added
// mass integral N^T m_a N ds, evaluated at the start of a step and held over it), "Buoyancy
// and wetting" (added mass acts on the wetted part only).
#pragma once

#include <array>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/quadrature.hpp"
#include "cabledyn/elements/hermite_shape.hpp"
#include "cabledyn/hydro/morison.hpp"
#include "cabledyn/line/element_loads.hpp"
#include "cabledyn/line/line.hpp"

namespace cabledyn {

/// Added mass of an EI = 0 element at chord direction e: the consistent linear-shape matrix
/// L0/6 [[2 m_a, m_a], [m_a, 2 m_a]] with m_a = f rho A [Can (I - e e^T) + Cat e e^T], f the
/// wetted fraction of the chord.
template <class T>
Mat<T, 6> tension_added_mass(const Vec<T, 6>& q, const MorisonCoefficients& c, double L0, double surface_z) {
  using std::sqrt;
  const Vec3<T> d = q.template segment<3>(3) - q.template segment<3>(0);
  const Vec3<T> e = d / T(sqrt(d.squaredNorm()));
  const T f = wetted_fraction(q(2), q(5), surface_z);
  const Mat3<T> ma = f * added_mass<T>(e, c);
  Mat<T, 6> M;
  const T s = T(L0 / 6.0);
  M.template block<3, 3>(0, 0) = T(2) * s * ma;
  M.template block<3, 3>(3, 3) = T(2) * s * ma;
  M.template block<3, 3>(0, 3) = s * ma;
  M.template block<3, 3>(3, 0) = s * ma;
  return M;
}

/// d(M_a(q) a)/dq of an EI = 0 element for a fixed element acceleration a (the configuration
/// derivative of the added mass the EI = 0 march carries in its tangent), through the chord
/// direction (the wetted fraction is held).
template <class T>
Mat<T, 6> tension_added_mass_jacobian(const Vec<T, 6>& q, const Vec<T, 6>& a, const MorisonCoefficients& c,
                                      double L0, double surface_z) {
  using std::sqrt;
  const Vec3<T> d = q.template segment<3>(3) - q.template segment<3>(0);
  const T l = sqrt(d.squaredNorm());
  const Vec3<T> e = d / l;
  const T f = wetted_fraction(q(2), q(5), surface_z);
  const Mat3<T> P = (Mat3<T>::Identity() - e * e.transpose()) / l;  // de/dd
  const T s = T(L0 / 6.0);
  const Vec3<T> ga = T(2) * a.template segment<3>(0) + a.template segment<3>(3);
  const Vec3<T> gb = a.template segment<3>(0) + T(2) * a.template segment<3>(3);
  // d(m_a(e) g)/dd = (dm_a g / de) P.
  const Mat3<T> Ja = f * s * added_mass_times_jacobian<T>(e, ga, c) * P;
  const Mat3<T> Jb = f * s * added_mass_times_jacobian<T>(e, gb, c) * P;
  Mat<T, 6> J;
  J.template block<3, 3>(0, 0) = -Ja;
  J.template block<3, 3>(0, 3) = Ja;
  J.template block<3, 3>(3, 0) = -Jb;
  J.template block<3, 3>(3, 3) = Jb;
  return J;
}

/// Consistent added mass of a Hermite element, integral N^T m_a(t(xi)) N ds on the four-point
/// rule; Gauss points above the surface carry none.
template <class T>
Mat<T, 12> hermite_added_mass(const Vec<T, 12>& q, const MorisonCoefficients& c, double L0, double surface_z) {
  using std::sqrt;
  Mat<T, 12> M = Mat<T, 12>::Zero();
  const auto rule = gauss_legendre<double>(4);
  for (int g = 0; g < rule.n; ++g) {
    const auto s = hermite_shape(rule.xi[g]);
    const auto N = hermite_block_weights(s.H, 0, L0);
    const auto A = hermite_block_weights(s.dH, 1, L0);
    const Vec3<T> a = hermite_combine<LayoutRM>(std::array<T, 4>{T(A[0]), T(A[1]), T(A[2]), T(A[3])}, q);
    const Vec3<T> x = hermite_combine<LayoutRM>(std::array<T, 4>{T(N[0]), T(N[1]), T(N[2]), T(N[3])}, q);
    Mat3<T> ma = added_mass<T>(Vec3<T>(a / T(sqrt(a.squaredNorm()))), c);
    if constexpr (is_pack_v<T>) {
      ma *= select_positive(T(x(2) - T(surface_z)), T(0), T(1));  // a dry lane adds zeros
    } else {
      if (value_of(x(2)) > surface_z) continue;
    }
    for (int k = 0; k < 4; ++k)
      for (int l = 0; l < 4; ++l)
        M.template block<3, 3>(3 * k, 3 * l) += T(rule.w[g] * L0 * N[k] * N[l]) * ma;
  }
  return M;
}

}  // namespace cabledyn
