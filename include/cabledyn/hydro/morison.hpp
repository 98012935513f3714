// cabledyn: Morison hydrodynamics per unit length of a line: drag, added mass, and the
// Froude-Krylov plus fluid-inertia force, with their exact derivatives.
// Spec "Hydrodynamic loads" (Drag; Added mass and fluid inertia); EQUATIONS.md section 6:
//   u_r = u_f - v, u_rt = (u_r . t) t, u_rn = u_r - u_rt,
//   f_d = 1/2 rho d Cdn |u_rn| u_rn + 1/2 rho pi d Cdt |u_rt| u_rt,
//   m_a = rho A [Can (I - t t^T) + Cat t t^T],
//   f_i = rho A [(1 + Can) udot_fn + (1 + Cat) udot_ft],  A = pi d^2 / 4.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// Hydrodynamic coefficients of a line type (MoorDyn names).
struct MorisonCoefficients {
  double d = 0;      ///< hydrodynamic diameter [m]
  double Cdn = 0;    ///< normal drag coefficient [-]
  double Cdt = 0;    ///< tangential drag coefficient (on pi d) [-]
  double Can = 0;    ///< normal added-mass coefficient [-]
  double Cat = 0;    ///< tangential added-mass coefficient [-]
  double rho = kRhoWater;  ///< water density [kg/m^3]

  /// Cross-section area pi d^2 / 4 [m^2].
  double area() const { return kPi * d * d / 4; }

  void validate(const std::string& object) const {
    auto nonneg = [&](double v, const char* name) {
      if (!(std::isfinite(v) && v >= 0)) throw InputError(object, name, v, ">= 0");
    };
    nonneg(d, "Diam");
    nonneg(Cdn, "Cdn");
    nonneg(Cdt, "Cdt");
    nonneg(Can, "Can");
    nonneg(Cat, "Cat");
    nonneg(rho, "rhoW");
  }
};

/// Morison drag per unit length [N/m] for relative velocity u_r = u_f - v and unit tangent t;
/// spec "Drag". Optionally J_ur = df/du_r (so df/dv = -J_ur) and J_t = df/dt (t treated as an
/// independent 3-vector, evaluated at a unit t; chain it through t(q)).
template <class T>
Vec3<T> morison_drag(const Vec3<T>& u_r, const Vec3<T>& t, const MorisonCoefficients& c,
                     Mat3<T>* J_ur = nullptr, Mat3<T>* J_t = nullptr) {
  using std::sqrt;
  const T cn = T(0.5 * c.rho * c.d * c.Cdn);
  const T ct = T(0.5 * c.rho * kPi * c.d * c.Cdt);
  const T ut = u_r.dot(t);
  const Vec3<T> tau = ut * t;
  const Vec3<T> nrm = u_r - tau;
  const T n_tau = sqrt(tau.squaredNorm());
  const T n2 = nrm.squaredNorm();
  const T n_n = sqrt_or_zero(n2);
  const Vec3<T> f = cn * n_n * nrm + ct * n_tau * tau;
  if (J_ur || J_t) {
    // With G(x) = d(|x| x)/dx = |x| I + x x^T/|x| (zero at x = 0), J_ur = cn G(n)(I - t t^T)
    // + ct G(tau) t t^T and J_t = (ct G(tau) - cn G(n)) (u.t I + t u^T) (d tau/dt; dn/dt =
    // -dtau/dt). Expanded with n . t = 0 and |t| = 1 (G(n) t = |n| t, G(tau) = |u.t| (I + t t^T)),
    // products of 3x3 matrices become rank-one terms.
    const Mat3<T> I = Mat3<T>::Identity();
    const Mat3<T> tt = t * t.transpose();
    const T aut = n_tau;  // |u.t| for a unit t
    // n n^T/|n|, zero at n = 0 (lane by lane for a pack: x/inf = 0).
    Mat3<T> nn;
    if constexpr (is_pack_v<T>)
      nn = (nrm * nrm.transpose()) / select_positive(n_n, n_n, T(std::numeric_limits<double>::infinity()));
    else
      nn = value_of(n_n) > 0 ? Mat3<T>((nrm * nrm.transpose()) / n_n) : Mat3<T>::Zero();
    if (J_ur) *J_ur = cn * (n_n * (I - tt) + nn) + (T(2) * (ct * aut)) * tt;  // plain products for duals (2 x is exact)
    if (J_t) {
      // ct G(tau) dtau = ct |ut| (ut (I + t t^T) + 2 t u^T);
      // cn G(n) dtau = cn (|n| ut I + |n| t u^T + ut n n^T/|n|).
      const Mat3<T> tu = t * u_r.transpose();
      *J_t = (ct * aut) * (ut * (I + tt) + T(2) * tu) - cn * (n_n * ut * I + n_n * tu + ut * nn);
    }
  }
  return f;
}

/// Added-mass matrix per unit length rho A [Can (I - t t^T) + Cat t t^T] [kg/m]; spec
/// "Added mass and fluid inertia".
template <class T>
Mat3<T> added_mass(const Vec3<T>& t, const MorisonCoefficients& c) {
  const T rA = T(c.rho * c.area());
  const Mat3<T> tt = t * t.transpose();
  return rA * (T(c.Can) * (Mat3<T>::Identity() - tt) + T(c.Cat) * tt);
}

/// d(m_a(t) a)/dt for a fixed acceleration a: rho A (Cat - Can) [(t.a) I + t a^T].
template <class T>
Mat3<T> added_mass_times_jacobian(const Vec3<T>& t, const Vec3<T>& a, const MorisonCoefficients& c) {
  const T k = T(c.rho * c.area() * (c.Cat - c.Can));
  return k * (t.dot(a) * Mat3<T>::Identity() + t * a.transpose());
}

/// Froude-Krylov plus fluid-inertia force per unit length [N/m] for the local fluid
/// acceleration udot_f; J_t = df/dt when given. Spec "Added mass and fluid inertia".
template <class T>
Vec3<T> fluid_inertia(const Vec3<T>& udot_f, const Vec3<T>& t, const MorisonCoefficients& c,
                      Mat3<T>* J_t = nullptr) {
  const T rA = T(c.rho * c.area());
  const T at = udot_f.dot(t);
  const Vec3<T> aft = at * t;
  const Vec3<T> afn = udot_f - aft;
  if (J_t) *J_t = rA * T(c.Cat - c.Can) * (at * Mat3<T>::Identity() + t * udot_f.transpose());
  return rA * (T(1 + c.Can) * afn + T(1 + c.Cat) * aft);
}

/// Submerged weight per unstretched metre w = (rho_A - rho A) g [N/m], positive down; spec
/// "Buoyancy and wetting". P is double, or a dual when rho_A and d are design parameters.
template <class P = double>
P submerged_weight(const P& rho_A, const P& d, double rho, double g) {
  return (rho_A - P(rho) * P(kPi) * d * d / P(4)) * P(g);
}

/// Dry mass per metre from an EQUIVALENT BUOYANCY row: rho_A = w/g + rho A.
inline double mass_from_submerged_weight(double w, double d, double rho, double g) {
  return w / g + rho * kPi * d * d / 4;
}

}  // namespace cabledyn
