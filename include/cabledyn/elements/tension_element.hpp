// cabledyn: the geometrically exact EI = 0 tension element (3 DOFs per node, layout [r]).
// Spec "The EI = 0 tension element" and "Axial damping"; EQUATIONS.md section 2.
// Residual convention: R = f_int - f_ext, with f_int = dU/dq the force the element needs
// from its nodes (the element pulls node b toward a with T e: f_int_b = +T e).
#pragma once

#include <cmath>
#include <string>

#include "cabledyn/core/dof_layout.hpp"
#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/elements/element_params.hpp"

namespace cabledyn {

/// Kinematics of a tension element: chord d = r_b - r_a, length l, direction e, strain.
template <class T>
struct TensionKinematics {
  Vec3<T> d;  ///< chord r_b - r_a [m]
  T l;        ///< chord length [m]
  Vec3<T> e;  ///< unit chord direction
  T eps;      ///< strain l/L0 - 1
};

/// The EI = 0 element: strain, tension, internal force, exact tangent, consistent mass and
/// Kelvin-Voigt axial damping. A small value type; every member is a pure function of its
/// arguments and the parameters. P is the parameter scalar (double, or the dual T of the
/// state for design sensitivities); the state scalar T of every member must hold a P.
template <class P = double>
class BasicTensionElement {
 public:
  using Layout = LayoutR;
  static constexpr int kDofs = LayoutR::kElementDofs;  // 6
  template <class T>
  using Vec = ElementVec<T, LayoutR>;
  template <class T>
  using Mat = ElementMat<T, LayoutR>;

  explicit BasicTensionElement(const BasicTensionElementParams<P>& p, std::string name = "tension element")
      : p_(p), name_(std::move(name)) {
    p_.validate(name_);
  }

  const BasicTensionElementParams<P>& params() const { return p_; }
  const std::string& name() const { return name_; }

  /// Chord, length, direction and strain eps = l/L0 - 1 (spec "The EI = 0 tension
  /// element"). Throws DomainError for a zero-length chord.
  template <class T>
  TensionKinematics<T> kinematics(const Vec<T>& q) const {
    using std::sqrt;
    TensionKinematics<T> k;
    k.d = q.template segment<3>(3) - q.template segment<3>(0);
    const T l2 = k.d.squaredNorm();
    if (!(value_of(l2) > 0)) throw DomainError(name_, "chord length", value_of(l2), "> 0");
    k.l = sqrt(l2);
    k.e = k.d / k.l;
    k.eps = k.l / T(p_.L0) - T(1);
    return k;
  }

  /// True when the element is slack (tension-only and eps < 0): zero elastic force and
  /// zero material stiffness.
  template <class T>
  bool slack(const T& eps) const {
    return p_.tension_only && value_of(eps) < 0;
  }

  /// Elastic tension T = EA eps [N] (0 when slack).
  template <class T>
  T tension(const Vec<T>& q) const {
    const auto k = kinematics(q);
    return slack(k.eps) ? T(0) : T(T(p_.EA) * k.eps);
  }

  /// Stiffness ratio of the compressed branch: 0 tension-only, 1 two-sided.
  double compression_ratio() const { return p_.tension_only ? 0.0 : 1.0; }

  /// Strain energy U = 1/2 EA L0 eps^2 [J] (0 when slack).
  template <class T>
  T energy(const Vec<T>& q) const {
    return energy(q, compression_ratio());
  }

  /// Strain energy with the compressed branch carrying r EA (spec "EI = 0 path": the
  /// tension-only stages give the compressed branch a stiffness r EA, r -> 0).
  template <class T>
  T energy(const Vec<T>& q, double r) const {
    const auto k = kinematics(q);
    const P ea = value_of(k.eps) < 0 ? P(r * p_.EA) : p_.EA;
    if (value_of(ea) == 0) return T(0);
    // Each product stored as a plain T (a dual whose derivative part is empty widens only when
    // it meets a plain dual, not an expression); the order of the products is kept.
    const T h = T(0.5) * T(ea);
    const T hl = h * T(p_.L0);
    const T he = hl * k.eps;
    return T(he * k.eps);
  }

  /// Internal force f = dU/dq (f_a = -T e, f_b = T e) and, when K is given, the exact
  /// tangent K = [[k, -k], [-k, k]], k = EA/L0 e e^T + T/l (I - e e^T) (material plus
  /// geometric stiffness; zero when slack). Spec "The EI = 0 tension element".
  template <class T>
  void internal_force(const Vec<T>& q, Vec<T>& f, Mat<T>* K = nullptr) const {
    internal_force(q, f, K, compression_ratio());
  }

  /// Internal force and tangent with the compressed branch carrying r EA (r = 0:
  /// tension-only, r = 1: two-sided).
  template <class T>
  void internal_force(const Vec<T>& q, Vec<T>& f, Mat<T>* K, double r) const {
    const auto k = kinematics(q);
    const P ea = value_of(k.eps) < 0 ? P(r * p_.EA) : p_.EA;
    if (value_of(ea) == 0) {
      f.setZero();
      if (K) K->setZero();
      return;
    }
    const T ten = T(ea) * k.eps;
    const Vec3<T> fb = ten * k.e;
    f.template segment<3>(0) = -fb;
    f.template segment<3>(3) = fb;
    if (K) {
      const Mat3<T> ee = k.e * k.e.transpose();
      const Mat3<T> kb = (T(ea) / T(p_.L0)) * ee + (ten / k.l) * (Mat3<T>::Identity() - ee);
      set_pair_blocks(*K, kb);
    }
  }

  /// Kelvin-Voigt axial damping force (spec "Axial damping", MoorDyn sign):
  /// T_d = BA (e . (v_b - v_a)) / L0 along e, f_a = -T_d e, f_b = T_d e, added to f_int.
  /// Active on a slack element too. J_q = df/dq, J_v = df/dv when given.
  template <class T>
  CABLEDYN_ALWAYS_INLINE void damping_force(const Vec<T>& q, const Vec<T>& v, Vec<T>& f, Mat<T>* J_q = nullptr,
                     Mat<T>* J_v = nullptr) const {
    const auto k = kinematics(q);
    const Vec3<T> dv = v.template segment<3>(3) - v.template segment<3>(0);
    const T c = T(p_.BA) / T(p_.L0);
    const T rate = k.e.dot(dv);  // elongation rate [m/s]
    const Vec3<T> fb = (c * rate) * k.e;
    f.template segment<3>(0) = -fb;
    f.template segment<3>(3) = fb;
    if (J_v) set_pair_blocks(*J_v, Mat3<T>(c * k.e * k.e.transpose()));
    if (J_q) {
      // d(rate e)/dd = [e dv^T Pe + rate Pe] / l, Pe = I - e e^T, de/dd = Pe / l.
      const Mat3<T> Pe = Mat3<T>::Identity() - k.e * k.e.transpose();
      const Mat3<T> jb = (c / k.l) * (k.e * (Pe * dv).transpose() + rate * Pe);
      set_pair_blocks(*J_q, jb);
    }
  }

  /// Total elastic-plus-damping axial force along e at the element [N] (the reported
  /// tension includes the damping share; spec "Axial damping").
  template <class T>
  T tension_with_damping(const Vec<T>& q, const Vec<T>& v) const {
    const auto k = kinematics(q);
    const Vec3<T> dv = v.template segment<3>(3) - v.template segment<3>(0);
    const T el = slack(k.eps) ? T(0) : T(T(p_.EA) * k.eps);
    return el + (T(p_.BA) / T(p_.L0)) * k.e.dot(dv);
  }

  /// Consistent mass M = rho_A L0 / 6 [[2I, I], [I, 2I]] [kg] (spec "The EI = 0 tension
  /// element").
  template <class T = P>
  Mat<T> mass() const {
    Mat<T> M = Mat<T>::Zero();
    const T m = T(p_.rho_A) * T(p_.L0) / T(6);
    for (int i = 0; i < 3; ++i) {
      M(i, i) = M(i + 3, i + 3) = T(2) * m;
      M(i, i + 3) = M(i + 3, i) = m;
    }
    return M;
  }

  /// Kinetic energy 1/2 rho_A integral |v(s)|^2 ds of the linear velocity field [J] (the
  /// independent check of the consistent mass).
  template <class T>
  T kinetic_energy(const Vec<T>& v) const {
    const Vec3<T> va = v.template segment<3>(0), vb = v.template segment<3>(3);
    const T m = T(p_.rho_A) * T(p_.L0);  // plain duals (see energy)
    const T m6 = m / T(6);
    const T s = va.squaredNorm() + va.dot(vb) + vb.squaredNorm();
    return T(m6 * s);
  }

 private:
  template <class T>
  static void set_pair_blocks(Mat<T>& K, const Mat3<T>& k) {
    K.template block<3, 3>(0, 0) = k;
    K.template block<3, 3>(3, 3) = k;
    K.template block<3, 3>(0, 3) = -k;
    K.template block<3, 3>(3, 0) = -k;
  }

  BasicTensionElementParams<P> p_;
  std::string name_;
};

/// The EI = 0 element with double parameters.
using TensionElement = BasicTensionElement<double>;

}  // namespace cabledyn
