// cabledyn: distributed loads of one element: consistent submerged weight, Morison drag
// with exact position and velocity Jacobians, and the buoyancy lost above a still surface
// (EI = 0: wetted fraction; Hermite: exact crossing-based recovery).
// Spec "Buoyancy and wetting", "Hydrodynamic loads" (drag on the EI = 0 chord; on Hermite
// elements over the deformed length at three Gauss points), "The cubic-Hermite bending
// element" (consistent loads).
//
// Every function returns the EXTERNAL load f_ext of the element (positive along the axes) and
// the Jacobians of f_ext; the residual is R = f_int - f_ext.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "cabledyn/core/dof_layout.hpp"
#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/quadrature.hpp"
#include "cabledyn/core/roots.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/elements/hermite_shape.hpp"
#include "cabledyn/hydro/morison.hpp"

namespace cabledyn {

// ---- consistent submerged weight -------------------------------------------------------

/// Consistent weight load of an EI = 0 element (w per unstretched metre, down): -w L0/2 on
/// each node's z. w and L0 are double, or the dual T when they are design parameters.
template <class T, class P = double>
void tension_weight_load(const P& w, const P& L0, Vec<T, 6>& f) {
  // w L0 first: a dual w without derivative parts takes L0's (Eigen's duals cannot widen the
  // empty derivatives of an expression); -0.5 x is exact, so the bits equal (-0.5 w) L0.
  const P wl = w * L0;
  f.setZero();
  f(2) = f(5) = T(P(-0.5) * wl);
}

/// Consistent weight load of a Hermite element: -w L0/2 on each r_z, -w L0^2/12 on m1_z,
/// +w L0^2/12 on m2_z (spec "Buoyancy and wetting"; integral of N^T (0, 0, -w)).
template <class T>
void hermite_weight_load(double w, double L0, Vec<T, 12>& f) {
  f.setZero();
  f(2) = f(8) = T(-0.5 * w * L0);
  f(5) = T(-w * L0 * L0 / 12);
  f(11) = T(w * L0 * L0 / 12);
}

/// Weight potential of an EI = 0 element: w L0 (z_a + z_b)/2 (w, L0 double or the dual T).
template <class T, class P = double>
T tension_weight_potential(const P& w, const P& L0, const Vec<T, 6>& q) {
  const P wl = w * L0;  // see tension_weight_load
  return T(P(0.5) * wl) * (q(2) + q(5));
}

/// Weight potential of a Hermite element: w integral z ds = w L0 [(z1 + z2)/2 + L0 (m1z - m2z)/12].
template <class T>
T hermite_weight_potential(double w, double L0, const Vec<T, 12>& q) {
  return T(w * L0) * (T(0.5) * (q(2) + q(8)) + T(L0 / 12) * (q(5) - q(11)));
}

// ---- Morison drag on an element -------------------------------------------------------------

/// Drag on an EI = 0 element (spec "Drag"): relative velocity of the element, u_r = mean
/// fluid velocity of the two nodes minus the mean node velocity, tangent the chord e, over the
/// deformed length l; half of l f_d on each node. J_q = d f_ext / dq, J_v = d f_ext / dv.
template <class T>
void tension_drag(const Vec<T, 6>& q, const Vec<T, 6>& v, const Vec3<T>& uf_a, const Vec3<T>& uf_b,
                  const MorisonCoefficients& c, Vec<T, 6>& f, Mat<T, 6>* J_q = nullptr,
                  Mat<T, 6>* J_v = nullptr) {
  using std::sqrt;
  const Vec3<T> d = q.template segment<3>(3) - q.template segment<3>(0);
  const T l = sqrt(d.squaredNorm());
  const Vec3<T> e = d / l;
  const Vec3<T> ur = T(0.5) * (uf_a + uf_b) - T(0.5) * (v.template segment<3>(0) + v.template segment<3>(3));
  Mat3<T> Ju = Mat3<T>::Zero(), Jt = Mat3<T>::Zero();
  const bool jac = J_q || J_v;
  const Vec3<T> fd = morison_drag<T>(ur, e, c, jac ? &Ju : nullptr, jac ? &Jt : nullptr);
  const Vec3<T> half = (T(0.5) * l) * fd;
  f.template segment<3>(0) = half;
  f.template segment<3>(3) = half;
  if (J_q) {
    // d(l f_d)/dd = f_d e^T + J_t (I - e e^T); d/dr_a = -d/dd, d/dr_b = d/dd.
    const Mat3<T> dF = fd * e.transpose() + Jt * (Mat3<T>::Identity() - e * e.transpose());
    const Mat3<T> h = T(0.5) * dF;
    J_q->template block<3, 3>(0, 0) = -h;
    J_q->template block<3, 3>(3, 0) = -h;
    J_q->template block<3, 3>(0, 3) = h;
    J_q->template block<3, 3>(3, 3) = h;
  }
  if (J_v) {
    // u_r = ... - (v_a + v_b)/2: d(l f_d / 2)/dv_k = -l J_u / 4.
    const Mat3<T> h = T(-0.25) * l * Ju;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) J_v->template block<3, 3>(3 * i, 3 * j) = h;
  }
}

namespace detail {
/// Shape functions at the three Gauss points of the distributed hydrodynamic loads, with the
/// rule's weights (computed once).
struct DragPoint {
  std::array<double, 4> H, dH;
  double xi, w;
  /// Block weights of r (N) and of r' = dr/ds (A) for an element of length L0 (the
  /// hermite_block_weights of H and dH).
  std::array<double, 4> N(double L0) const { return {H[0], H[1] * L0, H[2], H[3] * L0}; }
  std::array<double, 4> A(double L0) const { return {dH[0] / L0, dH[1], dH[2] / L0, dH[3]}; }
};
inline const std::array<DragPoint, 3>& drag_points() {
  static const std::array<DragPoint, 3> pts = [] {
    std::array<DragPoint, 3> p{};
    const auto rule = gauss_legendre<double>(3);
    for (int g = 0; g < 3; ++g) {
      const auto s = hermite_shape(rule.xi[g]);
      p[static_cast<std::size_t>(g)] = {s.H, s.dH, rule.xi[g], rule.w[g]};
    }
    return p;
  }();
  return pts;
}
}  // namespace detail

/// Drag on a Hermite element integrated over the deformed length at three Gauss points
/// (spec "Buoyancy and wetting": "the hydrodynamic loads are integrated over the deformed
/// element length at three Gauss points"). uf[g] is the fluid velocity at Gauss point g;
/// a point above the surface (dry[g]) carries none.
template <class T>
void hermite_drag(const Vec<T, 12>& q, const Vec<T, 12>& v, const std::array<Vec3<T>, 3>& uf,
                  const MorisonCoefficients& c, double L0, Vec<T, 12>& f, Mat<T, 12>* J_q = nullptr,
                  Mat<T, 12>* J_v = nullptr, const std::array<bool, 3>& dry = {false, false, false}) {
  using std::sqrt;
  f.setZero();
  if (J_q) J_q->setZero();
  if (J_v) J_v->setZero();
  const auto rule = gauss_legendre<double>(3);
  for (int g = 0; g < 3; ++g) {
    if (dry[static_cast<std::size_t>(g)]) continue;
    const auto s = hermite_shape(rule.xi[g]);
    const auto N = hermite_block_weights(s.H, 0, L0);
    const auto A = hermite_block_weights(s.dH, 1, L0);
    const Vec3<T> a = hermite_combine<LayoutRM>(std::array<T, 4>{T(A[0]), T(A[1]), T(A[2]), T(A[3])}, q);
    const Vec3<T> rd = hermite_combine<LayoutRM>(std::array<T, 4>{T(N[0]), T(N[1]), T(N[2]), T(N[3])}, v);
    const T na = sqrt(a.squaredNorm());
    const Vec3<T> t = a * (T(1) / na);
    const Vec3<T> ur = uf[static_cast<std::size_t>(g)] - rd;
    Mat3<T> Ju = Mat3<T>::Zero(), Jt = Mat3<T>::Zero();
    const bool jac = J_q || J_v;
    const Vec3<T> fd = morison_drag<T>(ur, t, c, jac ? &Ju : nullptr, jac ? &Jt : nullptr);
    const T wg = T(rule.w[g] * L0);
    const Vec3<T> load = (wg * na) * fd;  // per Gauss point, before the shape function
    Mat3<T> dload_da = Mat3<T>::Zero(), dload_dv = Mat3<T>::Zero();
    if (J_q) dload_da = wg * (Jt * (Mat3<T>::Identity() - t * t.transpose()) + fd * t.transpose());
    if (J_v) dload_dv = -(wg * na) * Ju;
    for (int k = 0; k < 4; ++k) {
      f.template segment<3>(3 * k) += T(N[k]) * load;
      for (int l = 0; l < 4; ++l) {
        if (J_q) J_q->template block<3, 3>(3 * k, 3 * l) += T(N[k] * A[l]) * dload_da;
        if (J_v) J_v->template block<3, 3>(3 * k, 3 * l) += T(N[k] * N[l]) * dload_dv;
      }
    }
  }
}

/// Hermite drag (as hermite_drag_blended below) with the Jacobian added onto R in
/// component-major block form (HermiteBlockSum; R is not cleared): the terms
/// (N A^T) (x) cq D_a and (N N^T) (x) cv D_v at each wetted Gauss point.
template <class T>
void hermite_drag_blocks(const Vec<T, 12>& q, const Vec<T, 12>& v, const std::array<Vec3<T>, 3>& uf,
                         const MorisonCoefficients& c, double L0, Vec<T, 12>& f, HermiteBlockSum<T>* R,
                         double cq, double cv, const std::array<bool, 3>& dry = {false, false, false}) {
  using std::sqrt;
  f.setZero();
  const auto& pts = detail::drag_points();
  for (int g = 0; g < 3; ++g) {
    if (dry[static_cast<std::size_t>(g)]) continue;
    const auto& s = pts[static_cast<std::size_t>(g)];
    const std::array<double, 4> N = s.N(L0), A = s.A(L0);
    const Vec3<T> a = hermite_combine<LayoutRM>(std::array<T, 4>{T(A[0]), T(A[1]), T(A[2]), T(A[3])}, q);
    const Vec3<T> rd = hermite_combine<LayoutRM>(std::array<T, 4>{T(N[0]), T(N[1]), T(N[2]), T(N[3])}, v);
    const T na = sqrt(a.squaredNorm());
    const Vec3<T> t = a * (T(1) / na);
    const Vec3<T> ur = uf[static_cast<std::size_t>(g)] - rd;
    Mat3<T> Ju, Jt;
    const Vec3<T> fd = morison_drag<T>(ur, t, c, R ? &Ju : nullptr, R ? &Jt : nullptr);
    const T wg = T(s.w * L0);
    const Vec3<T> load = (wg * na) * fd;
    for (int k = 0; k < 4; ++k) f.template segment<3>(3 * k) += T(N[k]) * load;
    if (!R) continue;
    // d load/d a = wg (J_t (I - t t^T) + f t^T) = wg (J_t + (f - J_t t) t^T) (d|a|/da = t).
    R->add(N, A, Mat3<T>((T(cq) * wg) * (Jt + (fd - Jt * t) * t.transpose())));
    R->add(N, N, Mat3<T>(T(-cv) * (wg * na) * Ju));  // T(-cv): a plain dual (see element_residual.hpp)
  }
}

/// Hermite drag as hermite_drag, with the Jacobians accumulated as one effective matrix:
/// J += cq dF/dq + cv dF/dv (F the drag load f), the implicit march's weighting. At each
/// Gauss point the two 3x3 point derivatives D_a = d load/d a and D_v = d load/d r_dot enter
/// once: J_kl += N_k (A_l cq D_a + N_l cv D_v). Equal to hermite_drag combined (tested).
template <class T>
void hermite_drag_blended(const Vec<T, 12>& q, const Vec<T, 12>& v, const std::array<Vec3<T>, 3>& uf,
                          const MorisonCoefficients& c, double L0, Vec<T, 12>& f, Mat<T, 12>* J, double cq,
                          double cv, const std::array<bool, 3>& dry = {false, false, false}) {
  if (!J) {
    hermite_drag_blocks<T>(q, v, uf, c, L0, f, nullptr, cq, cv, dry);
    return;
  }
  HermiteBlockSum<T> R;
  R.set_zero();
  hermite_drag_blocks<T>(q, v, uf, c, L0, f, &R, cq, cv, dry);
  R.template add_to<LayoutRM>(*J);
}

// ---- buoyancy lost above the surface ----------------------------------------------------------

/// Wetted fraction of an EI = 0 element's chord below the surface z = eta (linear
/// interpolation), and its derivatives with respect to the two nodal heights.
template <class T>
T wetted_fraction(const T& za, const T& zb, double eta, T* df_dza = nullptr, T* df_dzb = nullptr) {
  const T a = za - T(eta), b = zb - T(eta);
  if (df_dza) *df_dza = T(0);
  if (df_dzb) *df_dzb = T(0);
  if (value_of(a) <= 0 && value_of(b) <= 0) return T(1);
  if (value_of(a) >= 0 && value_of(b) >= 0) return T(0);
  // One node below: the fraction is the below part, -z_low / (z_high - z_low).
  const T den = b - a;
  // Negations and den^2 stored as plain T (duals: see element_residual.hpp).
  const T den2 = den * den, na = -a, nb = -b;
  if (value_of(a) < 0) {  // a below, b above: f = -a / (b - a)
    if (df_dza) *df_dza = nb / den2;
    if (df_dzb) *df_dzb = a / den2;
    return T(na / den);
  }
  // b below, a above: f = b / (b - a)
  if (df_dza) *df_dza = b / den2;
  if (df_dzb) *df_dzb = na / den2;
  return T(b / den);
}

/// Buoyancy-recovery load of an EI = 0 element (spec "Buoyancy and wetting"):
/// -(1 - f) 1/2 rho A g L0 on each end node's z, with its z Jacobian.
/// L0 is double, or the dual T when it is a design parameter.
template <class T, class P = double>
void tension_wetting_load(const Vec<T, 6>& q, double rho_g_A, const P& L0, double eta, Vec<T, 6>& f,
                          Mat<T, 6>* J_q = nullptr) {
  T fa, fb;
  const T frac = wetted_fraction(q(2), q(5), eta, &fa, &fb);
  const T c = T(P(0.5 * rho_g_A) * L0);
  const T dry = T(1) - frac;  // plain: see tension_element_residual (element_residual.hpp)
  f.setZero();
  const T fz = dry * c;
  f(2) = f(5) = -fz;
  if (J_q) {
    J_q->setZero();
    // d f_z / dz = c df.
    (*J_q)(2, 2) = (*J_q)(5, 2) = c * fa;
    (*J_q)(2, 5) = (*J_q)(5, 5) = c * fb;
  }
}

/// False when a Hermite element lies wholly below z = eta (|H2|, |H4| <= 4/27 on [0, 1]).
inline bool element_may_cross(const Vec<double, 12>& qe, double L0, double eta) {
  const double zmax = std::max(qe(2), qe(8)) + L0 * (std::fabs(qe(5)) + std::fabs(qe(11))) * 4.0 / 27.0;
  return zmax > eta;
}

namespace detail {
/// Antiderivatives of the cubic-Hermite shape functions (without the L0 factor of the
/// tangent shapes): int_0^x H_k.
inline std::array<double, 4> hermite_shape_integrals(double x) {
  const double x2 = x * x, x3 = x2 * x, x4 = x3 * x;
  return {x - x3 + 0.5 * x4, 0.5 * x2 - 2.0 / 3.0 * x3 + 0.25 * x4, x3 - 0.5 * x4, 0.25 * x4 - x3 / 3.0};
}
}  // namespace detail

/// Crossings of the cubic z(xi) = eta on (0, 1), ascending (at most three).
inline int cubic_crossings(const std::array<double, 4>& zc, double eta, std::array<double, 3>& roots) {
  // z(xi) = sum_k zc[k] H_k(xi) (zc holds z1, L0 m1z, z2, L0 m2z).
  auto z = [&](double x) {
    const auto s = hermite_shape(x);
    return zc[0] * s.H[0] + zc[1] * s.H[1] + zc[2] * s.H[2] + zc[3] * s.H[3] - eta;
  };
  // Monotone pieces between the roots of z'(xi), a quadratic.
  const double c2 = 3 * (2 * zc[0] + zc[1] - 2 * zc[2] + zc[3]);
  const double c1 = 2 * (-3 * zc[0] - 2 * zc[1] + 3 * zc[2] - zc[3]);
  const double c0 = zc[1];
  std::array<double, 4> cuts{};
  int ncut = 0;
  cuts[ncut++] = 0.0;
  if (std::fabs(c2) > 1e-300) {
    const double disc = c1 * c1 - 4 * c2 * c0;
    if (disc > 0) {
      const double sq = std::sqrt(disc);
      const double qq = -0.5 * (c1 + (c1 >= 0 ? sq : -sq));
      double r1 = qq / c2, r2 = qq != 0 ? c0 / qq : r1;
      if (r1 > r2) std::swap(r1, r2);
      if (r1 > 0 && r1 < 1) cuts[ncut++] = r1;
      if (r2 > 0 && r2 < 1 && r2 != r1) cuts[ncut++] = r2;
    }
  } else if (std::fabs(c1) > 1e-300) {
    const double r1 = -c0 / c1;
    if (r1 > 0 && r1 < 1) cuts[ncut++] = r1;
  }
  int n = 0;
  double xa = cuts[0], za = z(xa);
  for (int i = 1; i <= ncut; ++i) {
    const double xb = i < ncut ? cuts[i] : 1.0;
    const double zb = z(xb);
    if ((za < 0 && zb > 0) || (za > 0 && zb < 0)) {
      const auto res = brent_root<double>(z, xa, xb, za, zb, "waterline crossing");
      roots[n++] = res.x;
    }
    xa = xb;
    za = zb;
  }
  return n;
}

/// Buoyancy-recovery load of a Hermite element on a still surface z = eta (spec "Buoyancy
/// and wetting"): the waterline crossings of the cubic centreline height are located and
/// rho g A is integrated in closed form against the shape functions over the dry intervals;
/// the tangent is the exact rate at which the crossings move. Returns the potential
/// rho g A L0 integral max(z - eta, 0) dxi. Loads act on the z rows only.
inline double hermite_wetting_load(const Vec<double, 12>& q, double rho_g_A, double L0, double eta,
                                   Vec<double, 12>& f, Mat<double, 12>* J_q = nullptr) {
  f.setZero();
  if (J_q) J_q->setZero();
  const std::array<double, 4> zc{q(2), L0 * q(5), q(8), L0 * q(11)};
  const int rows[4] = {2, 5, 8, 11};
  const double scale[4] = {1.0, L0, 1.0, L0};
  std::array<double, 3> roots{};
  const int nr = cubic_crossings(zc, eta, roots);
  // Dry intervals: between consecutive breakpoints where z > eta at the midpoint.
  std::array<double, 5> bp{};
  int nb = 0;
  bp[nb++] = 0;
  for (int i = 0; i < nr; ++i) bp[nb++] = roots[i];
  bp[nb++] = 1;
  double potential = 0;
  std::array<double, 4> integral{0, 0, 0, 0};
  for (int i = 0; i + 1 < nb; ++i) {
    const double a = bp[i], b = bp[i + 1];
    const auto s = hermite_shape(0.5 * (a + b));
    const double zm = zc[0] * s.H[0] + zc[1] * s.H[1] + zc[2] * s.H[2] + zc[3] * s.H[3] - eta;
    if (zm <= 0) continue;
    const auto Ib = detail::hermite_shape_integrals(b), Ia = detail::hermite_shape_integrals(a);
    for (int k = 0; k < 4; ++k) integral[k] += Ib[k] - Ia[k];
    for (int k = 0; k < 4; ++k) potential += zc[k] * (Ib[k] - Ia[k]);
    potential -= eta * (b - a);
  }
  for (int k = 0; k < 4; ++k) f(rows[k]) = -rho_g_A * L0 * scale[k] * integral[k];
  if (J_q) {
    for (int i = 0; i < nr; ++i) {
      const double xc = roots[i];
      const auto s = hermite_shape(xc);
      const double dz = zc[0] * s.dH[0] + zc[1] * s.dH[1] + zc[2] * s.dH[2] + zc[3] * s.dH[3];
      if (dz == 0) continue;
      for (int k = 0; k < 4; ++k)
        for (int l = 0; l < 4; ++l)
          (*J_q)(rows[k], rows[l]) -= rho_g_A * L0 * scale[k] * scale[l] * s.H[k] * s.H[l] / std::fabs(dz);
    }
  }
  return rho_g_A * L0 * potential;
}

}  // namespace cabledyn
