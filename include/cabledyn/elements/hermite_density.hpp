// cabledyn: the axial and bending energy densities of the cubic-Hermite element and their
// closed-form first and second derivatives with respect to (a, b) = (r', r'').
// Spec "The cubic-Hermite bending element": W = 1/2 EA (|a| - 1)^2 + 1/2 EI |a x b|^2/|a|^6
// (EQUATIONS.md section 3); "The gradient and Hessian of the energy density with respect to
// (a, b) are written in closed form and chained to the DOFs".
#pragma once

#include <cmath>
#include <string>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// Derivatives of an energy density W(a, b): value, gradient blocks and Hessian blocks.
/// Haa = d2W/da2, Hab = d2W/(da db) (rows a, columns b), Hbb = d2W/db2.
template <class T>
struct DensityDerivatives {
  T W;
  Vec3<T> Wa, Wb;
  Mat3<T> Haa, Hab, Hbb;
};

/// How much of a density to evaluate.
enum class DensityOrder { kValue = 0, kGradient = 1, kHessian = 2 };

namespace detail {
template <class T>
void throw_zero_tangent(const T& a2, const char* object) {
  throw DomainError(object, "|r'|^2", min_lane(a2), "> 0 (a zero-length tangent has no direction)");
}
}  // namespace detail

/// Axial density 1/2 EA (|a| - 1)^2 [J/m] and its derivatives in a (b does not enter).
/// dW/da = EA (|a| - 1) a/|a|; d2W/da2 = EA [t t^T + (|a| - 1)/|a| (I - t t^T)], t = a/|a|.
template <class T>
void axial_density(const Vec3<T>& a, double EA, DensityOrder order, DensityDerivatives<T>& d,
                   const char* object = "Hermite element") {
  using std::sqrt;
  const T a2 = a.squaredNorm();
  if (!all_positive(a2)) detail::throw_zero_tangent(a2, object);
  const T alpha = sqrt(a2);
  const T eps = alpha - T(1);
  d.W = T(0.5 * EA) * eps * eps;
  if (order == DensityOrder::kValue) return;
  const T inv = T(1) / alpha;  // one division (a pack's divisions are slow and unpipelined)
  const Vec3<T> t = a * inv;
  d.Wa = (T(EA) * eps) * t;
  if (order == DensityOrder::kGradient) return;
  const Mat3<T> tt = t * t.transpose();
  d.Haa = T(EA) * tt + (T(EA) * eps * inv) * (Mat3<T>::Identity() - tt);
}

/// Bending density 1/2 EI |a x b|^2 / |a|^6 [J/m] and its derivatives.
/// With C = |a x b|^2 = |a|^2 |b|^2 - (a.b)^2 and g = |a|^-6:
/// C_a = 2|b|^2 a - 2(a.b) b, C_b = 2|a|^2 b - 2(a.b) a,
/// C_aa = 2|b|^2 I - 2 b b^T, C_bb = 2|a|^2 I - 2 a a^T, C_ab = 4 a b^T - 2 b a^T - 2(a.b) I,
/// g_a = -6 |a|^-8 a, g_aa = -6 |a|^-8 I + 48 |a|^-10 a a^T.
template <class T>
void bending_density(const Vec3<T>& a, const Vec3<T>& b, double EI, DensityOrder order,
                     DensityDerivatives<T>& d, const char* object = "Hermite element") {
  const T a2 = a.squaredNorm();
  if (!all_positive(a2)) detail::throw_zero_tangent(a2, object);
  const T b2 = b.squaredNorm();
  const T ab = a.dot(b);
  const T C = a2 * b2 - ab * ab;
  const T inv2 = T(1) / a2;
  const T g = inv2 * inv2 * inv2;  // |a|^-6
  const T h = T(0.5 * EI);
  d.W = h * C * g;
  if (order == DensityOrder::kValue) return;
  const Vec3<T> Ca = T(2) * b2 * a - T(2) * ab * b;
  const Vec3<T> Cb = T(2) * a2 * b - T(2) * ab * a;
  const T g8 = g * inv2;  // |a|^-8
  d.Wa = h * (g * Ca - T(6) * C * g8 * a);
  d.Wb = h * g * Cb;
  if (order == DensityOrder::kGradient) return;
  const Mat3<T> I = Mat3<T>::Identity();
  const Mat3<T> aa = a * a.transpose();
  const Mat3<T> Caa = T(2) * b2 * I - T(2) * b * b.transpose();
  const Mat3<T> Cbb = T(2) * a2 * I - T(2) * aa;
  const Mat3<T> Cab = T(4) * a * b.transpose() - T(2) * b * a.transpose() - T(2) * ab * I;
  const Mat3<T> Caga = Ca * a.transpose();
  d.Haa = h * (g * Caa - T(6) * g8 * (Caga + Caga.transpose()) - T(6) * C * g8 * I +
               T(48) * C * g8 * inv2 * aa);
  d.Hab = h * (g * Cab - T(6) * g8 * a * Cb.transpose());
  d.Hbb = h * g * Cbb;
}

/// Curvature |a x b| / |a|^3 [1/m]; spec "Kinematics and discretisation".
template <class T>
T curvature(const Vec3<T>& a, const Vec3<T>& b) {
  using std::sqrt;
  const T a2 = a.squaredNorm();
  if (!(value_of(a2) > 0)) detail::throw_zero_tangent(a2, "curvature");
  const T c2 = a.cross(b).squaredNorm();
  // sqrt at zero has an infinite derivative; the straight state has kappa = 0 exactly.
  if (!(value_of(c2) > 0)) return T(0);
  return sqrt(c2) / (a2 * sqrt(a2));
}

}  // namespace cabledyn
