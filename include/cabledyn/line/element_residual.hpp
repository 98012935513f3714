// cabledyn: the whole residual of one element, r_e = f_int + f_damp - f_ext, with its
// Jacobians: the one element load model that the march, the system route, the statics, the
// modal analysis and the node recovery call (each with its own sea and switches), so an
// element's physics is written once. EI = 0 elements: tension_element_residual; cubic-Hermite
// elements: hermite_element_residual (scalar, dual, or a SIMD pack of equal elements).
// Spec "The EI = 0 tension element" (internal force and tangent, the compressed branch of
// the tension-only stages), "The cubic-Hermite element" (internal force, effective tangent),
// "Axial damping", "Buoyancy and wetting" (consistent submerged weight; the wetted fraction
// of the chord; the buoyancy lost above the surface, exact crossings on Hermite elements),
// "Morison drag" (on the wetted part, relative velocity, the fraction's height derivative in
// the tangent; Hermite: three Gauss points over the deformed length, the dry ones skipped),
// "Added mass and fluid inertia" (Froude-Krylov with the element-mean fluid acceleration).
#pragma once

#include <array>
#include <cmath>
#include <limits>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/elements/hermite_shape.hpp"
#include "cabledyn/elements/tension_element.hpp"
#include "cabledyn/hydro/morison.hpp"
#include "cabledyn/line/element_loads.hpp"

namespace cabledyn {

/// The sea one element sees, and which of its loads a caller wants in the residual.
/// T is the state scalar (double, long double, a dual; for Hermite elements also a Pack of
/// elements, core/pack.hpp). A Hermite element takes the mean of ua and ub along its length.
template <class T>
struct ElementSea {
  Vec3<T> ua = Vec3<T>::Zero();             ///< fluid velocity at End A's node [m/s]
  Vec3<T> ub = Vec3<T>::Zero();             ///< fluid velocity at End B's node [m/s]
  Vec3<T> udot = Vec3<T>::Zero();           ///< element-mean fluid acceleration [m/s^2] (Froude-Krylov; 0: none)
  double surface_z = std::numeric_limits<double>::infinity();  ///< the surface (infinite: wholly wetted)
  bool drag = true;     ///< Morison drag (the statics bring a current's drag in by continuation instead)
  bool wetting = true;  ///< the buoyancy lost above the surface, with its tangent (the EI = 0 statics hold it as a constant load)
};

namespace detail {
/// True when a component of u is not zero (in any lane of a pack; the value of a dual).
template <class T>
bool any_nonzero(const Vec3<T>& u) {
  constexpr int lanes = [] {
    if constexpr (is_pack_v<T>) return T::kLanes;
    else return 1;
  }();
  for (int c = 0; c < 3; ++c)
    for (int l = 0; l < lanes; ++l)
      if (value_of(lane(u(c), l)) != 0) return true;
  return false;
}
}  // namespace detail

/// The fixed load data of an element besides its stiffness: the submerged weight per
/// unstretched metre w (P: double, or a dual design parameter; double for Hermite elements), rho_w g A (the buoyancy per
/// metre the surface takes away) and the Morison coefficients.
template <class P = double>
struct ElementLoads {
  P w = P(0);
  double rho_g_A = 0;
  MorisonCoefficients morison;
};

/// f -= the Morison drag on the wetted fraction `frac` of an EI = 0 element's chord (spec
/// "Drag": the relative velocity to the fluid velocities sea.ua, sea.ub at its nodes; ve null:
/// the element at rest), and, when given, K -= its position derivative with the fraction's
/// derivatives fa, fb in the end heights, C -= its velocity derivative. The one drag term of
/// tension_element_residual, and the drag a static solve freezes (LineModel::current_drag).
template <class T>
CABLEDYN_ALWAYS_INLINE void subtract_tension_drag(const Vec<T, 6>& qe, const Vec<T, 6>* ve, const ElementSea<T>& sea,
                           const MorisonCoefficients& mc, const T& frac, const T& fa, const T& fb, Vec<T, 6>& f,
                           Mat<T, 6>* K, Mat<T, 6>* C) {
  const Vec<T, 6> vz = Vec<T, 6>::Zero();
  Vec<T, 6> fd;
  Mat<T, 6> Dq, Dv;
  tension_drag<T>(qe, ve ? *ve : vz, sea.ua, sea.ub, mc, fd, K ? &Dq : nullptr, C ? &Dv : nullptr);
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

/// r_e = f_int + f_damp - f_ext of an EI = 0 element at (qe, ve) in the sea `sea`, and, when
/// K (C) is given, K = d r_e / d qe (C = d r_e / d ve). ve null: the element at rest (no
/// damping; the drag of the fluid on the element at rest, its velocity Jacobian still in C). compression_ratio >= 0 gives the
/// compressed branch r EA (spec "EI = 0 path": the tension-only stages); negative: the
/// element's own law. Terms, in this order: the internal force, the axial damping (when BA is
/// not an exact double 0), minus the consistent weight, minus the drag and the fluid
/// inertia on the wetted fraction f of the chord (with f's height derivative), minus the
/// buoyancy lost above the surface when f < 1.
/// Scalar products are stored in plain T before they meet another term: a dual whose
/// derivative part is empty (nothing seeded) widens only when it meets a plain dual, not an
/// expression (Eigen's AutoDiffScalar).
template <class T, class P>
Vec<T, 6> tension_element_residual(const BasicTensionElement<P>& el, const ElementLoads<P>& ld,
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
    if (sea.drag) subtract_tension_drag<T>(qe, ve, sea, ld.morison, frac, fa, fb, f, K, C);
    if (detail::any_nonzero(sea.udot)) {
      const Vec3<T> d = qe.template segment<3>(3) - qe.template segment<3>(0);
      const T l = d.norm();
      const Vec3<T> t = d / l;
      Mat3<T> Jt;
      const Vec3<T> fi = fluid_inertia<T>(sea.udot, t, ld.morison, K ? &Jt : nullptr);
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

namespace detail {
/// Froude-Krylov and fluid inertia of a Hermite element at its wetted drag points, t from r'
/// (spec "Added mass and fluid inertia"): f -= w_g N_k fi and, with R,
/// R_kl += -wq w_g N_k A_l d(fi)/da. T is a scalar or a pack of elements.
template <class T>
void hermite_fluid_inertia(const Vec<T, 12>& qe, const Vec3<T>& udm, const MorisonCoefficients& mc, double L0,
                           double wq, Vec<T, 12>& f, HermiteBlockSum<T>* R, const std::array<bool, 3>& dry) {
  const auto& pts = drag_points();
  for (std::size_t g = 0; g < 3; ++g) {
    if (dry[g]) continue;
    const auto& p = pts[g];
    const std::array<double, 4> N = p.N(L0), A = p.A(L0);
    const Vec3<T> a = T(A[0]) * qe.template segment<3>(0) + T(A[1]) * qe.template segment<3>(3) +
                      T(A[2]) * qe.template segment<3>(6) + T(A[3]) * qe.template segment<3>(9);
    const T na = a.norm();
    const Vec3<T> t = a / na;
    Mat3<T> Jt;
    const Vec3<T> fi = fluid_inertia<T>(udm, t, mc, &Jt);
    const double wg = p.w * L0;
    for (int k = 0; k < 4; ++k) f.template segment<3>(3 * k) -= T(wg * N[static_cast<std::size_t>(k)]) * fi;
    if (R) R->add(N, A, Mat3<T>((T(-wq * wg) / na) * Jt * (Mat3<T>::Identity() - t * t.transpose())));
  }
}
}  // namespace detail

/// The drag points of a Hermite element above the surface z = surface_z (they carry no drag
/// and no fluid inertia; a pack of elements: none, its caller keeps the lanes below it).
template <class T>
std::array<bool, 3> hermite_dry_points(const Vec<T, 12>& qe, double L0, double surface_z) {
  std::array<bool, 3> dry{};
  if constexpr (!is_pack_v<T>) {
    const auto& pts = detail::drag_points();
    for (std::size_t g = 0; g < 3; ++g) {
      const auto N = pts[g].N(L0);
      const double z = N[0] * value_of(qe(2)) + N[1] * value_of(qe(5)) + N[2] * value_of(qe(8)) +
                       N[3] * value_of(qe(11));
      dry[g] = z > surface_z;
    }
  }
  return dry;
}

/// f -= the Morison drag of a Hermite element at its wetted drag points (spec "Drag": the
/// element-mean relative velocity to the mean of sea.ua and sea.ub) and, with R, R +=
/// -(wq d/dq + wv d/dv) of it. The one drag term of hermite_element_residual, and the drag a
/// static solve freezes (LineModel::current_drag).
template <class T>
void subtract_hermite_drag(const Vec<T, 12>& qe, const Vec<T, 12>& ve, const ElementSea<T>& sea,
                           const MorisonCoefficients& mc, double L0, Vec<T, 12>& f, HermiteBlockSum<T>* R, double wq,
                           double wv, const std::array<bool, 3>& dry) {
  const Vec3<T> um = T(0.5) * (sea.ua + sea.ub);
  Vec<T, 12> fd;
  hermite_drag_blocks<T>(qe, ve, {um, um, um}, mc, L0, fd, R, -wq, -wv, dry);
  f -= fd;
}

/// r_e = f_int + f_damp - f_ext of a cubic-Hermite element at (qe, ve) in the sea `sea`
/// (into f), and, when R is given, wq d r_e/dq + wv d r_e/dv added onto R in component-major
/// block form (HermiteBlockSum; R is not cleared), except the tangent of the buoyancy lost
/// above the surface: that one (d f_wet/dq, the load's, exact crossings, double) goes to
/// K_wet, and the function returns true when it did (the element may reach the surface).
/// Terms, in this order: internal force and axial damping (one pass, the element's
/// damped_force_blocks), minus the consistent weight, minus the drag of the element-mean
/// relative velocity at the wetted Gauss points, minus Froude-Krylov and fluid inertia there,
/// minus the buoyancy lost above the surface. The statics pass ve = 0 (wq = 1, wv = 0).
/// T a dual: an element that may reach the surface with the wetting on is refused
/// (NotImplementedError: the exact-crossing kernel is double, a dual's derivative part would
/// silently miss it). T = a Pack of kLanes elements (the march's runs of equal elements): the caller guarantees
/// that none of them reaches the surface (element_may_cross), the element and the load data
/// are the lanes' common ones.
template <class T, class Element>
bool hermite_element_residual(const Element& el, const ElementLoads<double>& ld, const Vec<T, 12>& qe,
                              const Vec<T, 12>& ve, const ElementSea<T>& sea, Vec<T, 12>& f, HermiteBlockSum<T>* R,
                              double wq, double wv, Mat<double, 12>* K_wet) {
  const double L0 = el.params().L0;
  el.template damped_force_blocks<T>(qe, ve, f, R, wq, wv);
  Vec<double, 12> fw;
  hermite_weight_load<double>(ld.w, L0, fw);
  for (int k = 0; k < 12; ++k) f(k) -= T(fw(k));
  // The Gauss points above the surface carry no drag and no fluid inertia.
  const std::array<bool, 3> dry = hermite_dry_points<T>(qe, L0, sea.surface_z);
  if (sea.drag) subtract_hermite_drag<T>(qe, ve, sea, ld.morison, L0, f, R, wq, wv, dry);
  if (detail::any_nonzero(sea.udot)) detail::hermite_fluid_inertia<T>(qe, sea.udot, ld.morison, L0, wq, f, R, dry);
  if constexpr (!is_pack_v<T>) {
    if (sea.wetting) {
      Vec<double, 12> qv;
      for (int k = 0; k < 12; ++k) qv(k) = static_cast<double>(value_of(qe(k)));
      if (element_may_cross(qv, L0, sea.surface_z)) {
        if (R && !K_wet)  // the tangent would silently miss the wetting
          throw InputError("hermite_element_residual", "K_wet", "null", "given with R when the wetting is on");
        if constexpr (is_dual_v<T>)  // the exact-crossing kernel is double: a dual would miss its derivative
          throw NotImplementedError("Hermite element at the surface", "scalar", "a dual",
                                    "the buoyancy lost above the surface in duals (its tangent: K_wet, double)");
        Vec<double, 12> fwet;
        hermite_wetting_load(qv, ld.rho_g_A, L0, sea.surface_z, fwet, K_wet);
        for (int k = 0; k < 12; ++k) f(k) -= T(fwet(k));
        return K_wet != nullptr;
      }
    }
  }
  return false;
}

}  // namespace cabledyn
