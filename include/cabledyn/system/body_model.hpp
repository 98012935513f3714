// cabledyn: a rigid body of a mooring system (Rigid6), its mass matrix and its own loads.
// Spec "Attached objects and line ends" (Rigid6 bodies: diagonal inertia about the centre of
// gravity, the mass matrix about the reference point with the centre-of-gravity offset c,
// its velocity terms; weight at the centre of gravity, buoyancy rho g phi V at the centre of
// buoyancy with the equivalent-sphere submerged fraction phi; lumped drag on the relative
// velocity and isotropic translational added mass rho phi V Ca at the reference point, scaled
// by phi; seabed contact over a 1 m^2 reference area), "Rigid-body time integration" (the
// Newton-Euler equations about the reference point).
//
// Everything here is in the world frame about the body's reference point: a six-vector is
// (force, moment) or (v, omega), a 6 x 6 matrix maps (a, alpha) to (force, moment). The
// orientation R maps body axes to world axes. Templated over T (state and parameters).
#pragma once

#include <cmath>
#include <numbers>
#include <optional>
#include <string>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/seabed/contact.hpp"

namespace cabledyn {

/// How a body moves (deck BODIES Attachment column).
enum class BodyKind {
  fixed,    ///< held at its deck pose: Fixed
  coupled,  ///< pose prescribed by the host or a motion: Coupled / Vessel
  free,     ///< six DOFs moved by its lines and loads: Free
};

/// The submerged fraction phi of a body's buoyancy (deck option bodyWetting).
enum class BodyWetting {
  sphere,  ///< the equivalent sphere of volume V at the centre of buoyancy (spec default)
  full,    ///< phi = 1 at any elevation (bodyWetting moordyn, as MoorDyn)
};

/// A rigid body (deck BODIES row). Parameters in T; offsets in body axes.
template <class T>
struct BodyModel {
  std::string name = "body";
  BodyKind kind = BodyKind::free;
  Vec3<T> r = Vec3<T>::Zero();  ///< reference point: held position, or the initial one of a free body [m]
  Mat3<T> R = Mat3<T>::Identity();  ///< orientation (body axes to world): held, or initial
  Vec3<T> v = Vec3<T>::Zero();      ///< held body: velocity of the reference point [m/s]
  Vec3<T> w = Vec3<T>::Zero();      ///< held body: angular velocity [rad/s]
  Vec3<T> a = Vec3<T>::Zero();      ///< held body: acceleration of the reference point [m/s^2]
  Vec3<T> alpha = Vec3<T>::Zero();  ///< held body: angular acceleration [rad/s^2]
  T mass = T(0);                    ///< [kg]
  Vec3<T> cg = Vec3<T>::Zero();     ///< centre of gravity from the reference point [m]
  Vec3<T> inertia = Vec3<T>::Zero();  ///< principal moments of inertia about the centre of gravity [kg m^2]
  T volume = T(0);                  ///< displaced volume [m^3]
  Vec3<T> cb = Vec3<T>::Zero();     ///< centre of buoyancy from the reference point [m]
  Vec6<double> CdA = Vec6<double>::Zero();  ///< drag areas along the body axes: 3 translational [m^2], 3 rotational [m^5]
  Vec3<double> Ca = Vec3<double>::Zero();   ///< translational added-mass coefficients along the body axes
  BodyWetting wetting = BodyWetting::sphere;
  Vec3<T> force = Vec3<T>::Zero();   ///< constant external force at the reference point [N]
  Vec3<T> moment = Vec3<T>::Zero();  ///< constant external moment [N m]
};

/// The submerged fraction of a body and its buoyancy potential.
template <class T>
struct BodyImmersion {
  T phi = T(1);     ///< submerged fraction
  T energy = T(0);  ///< potential of the buoyancy rho g V int phi dh [J] (its gradient in z_b is -rho g phi V)
};

/// The submerged fraction of a body whose centre of buoyancy is at height zb (still water at
/// z = 0): the equivalent sphere r_e = (3V / 4 pi)^(1/3) immersed to h = min(2 r_e, max(0,
/// r_e - zb)), phi = h^2 (3 r_e - h) / (4 r_e^3) (spec "Attached objects and line ends"); with
/// BodyWetting::full or no volume, phi = 1. The potential is rho g V (r_e h^3 - h^4 / 4) /
/// (4 r_e^3) in the surface band and -rho g V zb when fully submerged (continuous).
template <class T>
BodyImmersion<T> body_immersion(const BodyModel<T>& B, const T& zb, const Environment& env) {
  using std::cbrt;
  // Intermediate results are named T values: a chain of constant duals (no derivative
  // directions) met with a seeded one cannot be made coherent by Eigen's AutoDiff.
  BodyImmersion<T> out;
  const T W = B.volume * (env.rho_w * env.g);
  if (B.wetting == BodyWetting::full || !(value_of(B.volume) > 0)) {
    out.energy = -W * zb;
    return out;
  }
  const T V34 = B.volume * (3.0 / (4 * std::numbers::pi));
  const T re = cbrt(V34);
  const T h = re - zb;
  if (value_of(h) >= value_of(T(2) * re)) {
    out.energy = -W * zb;
    return out;
  }
  const T re2 = re * re;
  const T re3 = re2 * re;
  if (!(value_of(h) > 0)) {
    out.phi = T(0);
    out.energy = W * re;  // the fully dry potential, continuous with the band
    return out;
  }
  const T h2 = h * h;
  const T h3 = h2 * h;
  const T den = re3 * 4.0;
  const T arm = re * 3.0 - h;
  out.phi = h2 * arm / den;
  const T cube = re * h3 - h3 * h * 0.25;
  out.energy = W * cube / den;
  return out;
}

/// The 6 x 6 mass matrix of body B at orientation R about its reference point (world axes),
/// with the added mass rho phi V R diag(Ca) R^T of the translational block: [[m I, -m [c]_x],
/// [m [c]_x, I_G - m [c]_x^2]], c = R cg, I_G = R diag(inertia) R^T.
template <class T>
Mat6<T> body_mass_matrix(const BodyModel<T>& B, const Mat3<T>& R, const T& phi, const Environment& env) {
  const Vec3<T> c = R * B.cg;
  const Mat3<T> C = skew<T>(c);
  const Mat3<T> IG = R * B.inertia.asDiagonal() * R.transpose();
  Mat6<T> M = Mat6<T>::Zero();
  M.template block<3, 3>(0, 0) = B.mass * Mat3<T>::Identity();
  M.template block<3, 3>(0, 3) = -B.mass * C;
  M.template block<3, 3>(3, 0) = B.mass * C;
  M.template block<3, 3>(3, 3) = IG - B.mass * C * C;
  if (value_of(B.volume) > 0 && B.Ca.squaredNorm() > 0) {
    const Vec3<T> ca = B.Ca.template cast<T>();
    const T pv = phi * B.volume;
    const T ma = pv * env.rho_w;
    M.template block<3, 3>(0, 0) += ma * (R * ca.asDiagonal() * R.transpose());
  }
  return M;
}

/// M x for a 6 x 6 M, by plain loops (Eigen's GEMV kernel scales by a constant dual, which
/// AutoDiff cannot make coherent with seeded entries).
template <class T>
Vec6<T> mul6(const Mat6<T>& M, const Vec6<T>& x) {
  Vec6<T> y;
  for (int i = 0; i < 6; ++i) {
    T s = M(i, 0) * x(0);
    for (int j = 1; j < 6; ++j) {
      const T p = M(i, j) * x(j);  // evaluated: a product of unseeded duals added to a seeded sum
      s += p;
    }
    y(i) = s;
  }
  return y;
}

/// The velocity terms of the Newton-Euler equations about the reference point (moved to the
/// left side: M x + gyro = F): (m w x (w x c), m c x (w x (w x c)) + w x (I_G w)).
template <class T>
Vec6<T> body_velocity_terms(const BodyModel<T>& B, const Mat3<T>& R, const Vec3<T>& w) {
  const Vec3<T> c = R * B.cg;
  const Mat3<T> IG = R * B.inertia.asDiagonal() * R.transpose();
  const Vec3<T> wwc = w.cross(Vec3<T>(w.cross(c)));
  Vec6<T> g;
  g.template head<3>() = B.mass * wwc;
  g.template tail<3>() = B.mass * c.cross(wwc) + w.cross(Vec3<T>(IG * w));
  return g;
}

/// The external load on body B at pose (r, R) moving with (v, w), about its reference point
/// in world axes: weight at the centre of gravity, buoyancy rho g phi V at the centre of
/// buoyancy, the constant load, seabed contact over 1 m^2 at the reference point (kBot, cBot
/// per m^2), and (dynamic = true) the drag 1/2 rho phi R diag(CdA) R^T |u| u on the relative
/// velocity u = U - v and -w (MoorDyn's rotational drag).
template <class T>
Vec6<T> body_external_load(const BodyModel<T>& B, const Vec3<T>& r, const Mat3<T>& R, const Vec3<T>& v,
                           const Vec3<T>& w, const Environment& env, const std::optional<double>& seabed_z,
                           const SeabedParams& bed, const Vec3<double>& current, bool dynamic) {
  using std::sqrt;
  const Vec3<T> c = R * B.cg, b = R * B.cb;
  const auto imm = body_immersion<T>(B, T(r(2) + b(2)), env);
  Vec6<T> F = Vec6<T>::Zero();
  const T mg = B.mass * env.g;
  const T pv = imm.phi * B.volume;
  const T fb = pv * (env.rho_w * env.g);
  const Vec3<T> Wg(T(0), T(0), -mg);
  const Vec3<T> Fb(T(0), T(0), fb);
  F.template head<3>() = Wg + Fb + B.force;
  F.template tail<3>() = c.cross(Wg) + b.cross(Fb) + B.moment;
  if (seabed_z) {
    const auto k = seabed_contact<T, T>(r(2), dynamic ? v(2) : T(0), *seabed_z, T(1), T(1), bed);
    F(2) += k.f;
  }
  if (dynamic && B.CdA.squaredNorm() > 0) {
    const Vec3<T> u = current.template cast<T>() - v;
    const Vec3<T> ut = R.transpose() * u, wt = R.transpose() * w;
    Vec3<T> ft, mt;
    const T u2 = u.squaredNorm() + 1e-300, w2 = w.squaredNorm() + 1e-300;
    const T un = sqrt(u2), wn = sqrt(w2);
    const T pu = imm.phi * un, pw = imm.phi * wn;
    for (int k = 0; k < 3; ++k) {
      const T fk = pu * ut(k), mk = pw * wt(k);
      ft(k) = fk * (0.5 * env.rho_w * B.CdA(k));
      mt(k) = mk * (-0.5 * env.rho_w * B.CdA(3 + k));
    }
    F.template head<3>() += R * ft;
    F.template tail<3>() += R * mt;
  }
  return F;
}

/// The potential energy of body B at pose (r, R) [J]: weight m g z_G, the buoyancy potential
/// of body_immersion, the constant force's -F . r and the seabed penalty's.
template <class T>
T body_potential_energy(const BodyModel<T>& B, const Vec3<T>& r, const Mat3<T>& R, const Environment& env,
                        const std::optional<double>& seabed_z, const SeabedParams& bed) {
  const Vec3<T> c = R * B.cg, b = R * B.cb;
  const T mg = B.mass * env.g;
  const T zg = r(2) + c(2);
  T E = mg * zg;
  E += body_immersion<T>(B, T(r(2) + b(2)), env).energy;
  E -= B.force.dot(r);
  if (seabed_z) E += seabed_contact<T, T>(r(2), T(0), *seabed_z, T(1), T(1), bed).energy;
  return E;
}

}  // namespace cabledyn
