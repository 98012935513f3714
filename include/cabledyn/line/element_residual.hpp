// cabledyn: the whole residual of one EI = 0 element, r_e = f_int + f_damp - f_ext, with its
// Jacobians: the one element load model that the march, the system route, the statics and
// the modal analysis call (each with its own sea and switches), so an element's physics is
// written once.
// Spec "The EI = 0 tension element" (internal force and tangent, the compressed branch of
// the tension-only stages), "Axial damping", "Buoyancy and wetting" (consistent submerged
// weight; the wetted fraction of the chord; the buoyancy lost above the surface), "Morison
// drag" (on the wetted fraction, relative velocity, the fraction's height derivative in the
// tangent), "Added mass and fluid inertia" (Froude-Krylov with the element-mean fluid
// acceleration).
#pragma once

#include <cmath>
#include <limits>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/elements/tension_element.hpp"
#include "cabledyn/hydro/morison.hpp"
#include "cabledyn/line/element_loads.hpp"

namespace cabledyn {

/// The sea one element sees, and which of its loads a caller wants in the residual.
/// T is the state scalar (double, long double, a dual).
template <class T>
struct ElementSea {
  Vec3<T> ua = Vec3<T>::Zero();             ///< fluid velocity at End A's node [m/s]
  Vec3<T> ub = Vec3<T>::Zero();             ///< fluid velocity at End B's node [m/s]
  Vec3<double> udot = Vec3<double>::Zero(); ///< element-mean fluid acceleration [m/s^2] (Froude-Krylov; 0: none)
  double surface_z = std::numeric_limits<double>::infinity();  ///< the surface (infinite: wholly wetted)
  bool drag = true;     ///< Morison drag (the statics bring a current's drag in by continuation instead)
  bool wetting = true;  ///< the buoyancy lost above the surface, with its tangent (the EI = 0 statics hold it as a constant load)
};

/// The fixed load data of an EI = 0 element besides its stiffness: the submerged weight per
/// unstretched metre w (P: double, or a dual design parameter), rho_w g A (the buoyancy per
/// metre the surface takes away) and the Morison coefficients.
template <class P = double>
struct TensionElementLoads {
  P w = P(0);
  double rho_g_A = 0;
  MorisonCoefficients morison;
};

/// r_e = f_int + f_damp - f_ext of an EI = 0 element at (qe, ve) in the sea `sea`, and, when
/// K (C) is given, K = d r_e / d qe (C = d r_e / d ve). ve null: the element at rest (no
/// damping, the drag of the fluid alone, C untouched). compression_ratio >= 0 gives the
/// compressed branch r EA (spec "EI = 0 path": the tension-only stages); negative: the
/// element's own law. Terms, in this order: the internal force, the axial damping (when BA is
/// not an exact double 0), minus the consistent weight, minus the drag and the fluid
/// inertia on the wetted fraction f of the chord (with f's height derivative), minus the
/// buoyancy lost above the surface when f < 1.
/// Scalar products are stored in plain T before they meet another term: a dual whose
/// derivative part is empty (nothing seeded) widens only when it meets a plain dual, not an
/// expression (Eigen's AutoDiffScalar).
template <class T, class P>
Vec<T, 6> tension_element_residual(const BasicTensionElement<P>& el, const TensionElementLoads<P>& ld,
                                   const Vec<T, 6>& qe, const Vec<T, 6>* ve, const ElementSea<T>& sea,
                                   double compression_ratio, Mat<T, 6>* K, Mat<T, 6>* C) {
  Vec<T, 6> f, fd;
  Mat<T, 6> Jq;
  if (compression_ratio >= 0)
    el.template internal_force<T>(qe, f, K, compression_ratio);
  else
    el.template internal_force<T>(qe, f, K);
  if (ve && (is_dual_v<P> || value_of(el.params().BA) > 0)) {
    el.template damping_force<T>(qe, *ve, fd, K ? &Jq : nullptr, C);
    f += fd;
    if (K) *K += Jq;
  } else if (C) {
    C->setZero();
  }
  Vec<T, 6> fw;
  tension_weight_load<T, P>(ld.w, el.params().L0, fw);
  f -= fw;
  // The wetted fraction of the chord carries the drag and the fluid inertia.
  T fa = T(0), fb = T(0);
  const T frac = wetted_fraction<T>(qe(2), qe(5), sea.surface_z, &fa, &fb);
  if (value_of(frac) > 0) {
    if (sea.drag) {
      const Vec<T, 6> vz = Vec<T, 6>::Zero();
      Mat<T, 6> Dq, Dv;
      tension_drag<T>(qe, ve ? *ve : vz, sea.ua, sea.ub, ld.morison, fd, K ? &Dq : nullptr, C ? &Dv : nullptr);
      f -= frac * fd;
      if (K) {
        *K -= frac * Dq;
        for (int k = 0; k < 6; ++k) {  // the wetted fraction's derivative in the end heights
          const T da = fd(k) * fa, db = fd(k) * fb;
          (*K)(k, 2) -= da;
          (*K)(k, 5) -= db;
        }
      }
      if (C) *C -= frac * Dv;
    }
    if (sea.udot.squaredNorm() > 0) {
      const Vec3<T> d = qe.template segment<3>(3) - qe.template segment<3>(0);
      const T l = d.norm();
      const Vec3<T> t = d / l;
      Mat3<T> Jt;
      const Vec3<T> fi = fluid_inertia<T>(sea.udot.template cast<T>(), t, ld.morison, K ? &Jt : nullptr);
      const T hl = T(0.5) * T(el.params().L0);  // half the element's unstretched length
      const T c = hl * frac;                    // (equal bits to 0.5 frac L0: 0.5 x is exact)
      f.template segment<3>(0) -= c * fi;
      f.template segment<3>(3) -= c * fi;
      if (K) {
        const Mat3<T> h = c * Jt * (Mat3<T>::Identity() - t * t.transpose()) / l;
        K->template block<3, 3>(0, 0) += h;
        K->template block<3, 3>(0, 3) -= h;
        K->template block<3, 3>(3, 0) += h;
        K->template block<3, 3>(3, 3) -= h;
        for (int k = 0; k < 6; ++k) {  // the wetted fraction's derivative in the end heights
          const T g = hl * fi(k % 3);
          const T da = g * fa, db = g * fb;
          (*K)(k, 2) -= da;
          (*K)(k, 5) -= db;
        }
      }
    }
  }
  if (sea.wetting && value_of(frac) < 1) {
    Vec<T, 6> fwet;
    Mat<T, 6> Jwet;
    tension_wetting_load<T, P>(qe, ld.rho_g_A, el.params().L0, sea.surface_z, fwet, K ? &Jwet : nullptr);
    f -= fwet;
    if (K) *K -= Jwet;
  }
  return f;
}

}  // namespace cabledyn
