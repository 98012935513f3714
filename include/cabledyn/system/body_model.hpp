// cabledyn: a rigid body of a mooring system (Rigid6), its mass matrix and its own loads.
// Spec "Attached objects and line ends" (Rigid6 bodies: diagonal inertia about the centre of
// gravity, the mass matrix about the reference point with the centre-of-gravity offset c,
// its velocity terms; weight at the centre of gravity, buoyancy rho g phi V at the centre of
// buoyancy with the equivalent-sphere submerged fraction phi; lumped drag on the relative
// velocity and isotropic translational added mass rho phi V Ca at the reference point, scaled
// by phi; seabed contact over a 1 m^2 reference area), "Rigid-body time integration" (the
// Newton-Euler equations about the reference point).
//
// Rods (spec "Attached objects and line ends": rigid cylinders; a rod fixed to a body moves
// with it, its mass and loads added to the body's; a pinned rod turns about its End A) are
// RodParts of a body: a free rod is a body of no mass of its own carrying one rod, a pinned rod
// a pinned one (three rotational DOFs about the pin), a rod on a body one more part of it.
// Rods are fully submerged here (their wetted-segment buoyancy at the surface is not in yet).
//
// Everything here is in the world frame about the body's reference point: a six-vector is
// (force, moment) or (v, omega), a 6 x 6 matrix maps (a, alpha) to (force, moment). The
// orientation R maps body axes to world axes. Templated over T (state and parameters).
#pragma once

#include <cmath>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

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
  pinned,   ///< three rotational DOFs about its reference point, held there (Pinned rod) or
            ///< moved by the host (CoupledPinned body, BodyModel::host_pin)
};

/// A rigid cylinder on a body (deck ROD TYPES and RODS): its ends in body axes from the
/// reference point, diameter, mass per metre, Morison coefficients (Cd, Ca on the sides;
/// CdEnd, CaEnd on the end caps) and the drag stations (NumSegs). Parameters in T.
template <class T>
struct RodPart {
  std::string name = "rod";
  Vec3<T> a = Vec3<T>::Zero();  ///< End A in body axes [m]
  Vec3<T> b = Vec3<T>::Zero();  ///< End B in body axes [m]
  T d = T(0);                   ///< diameter [m]
  T rho_A = T(0);               ///< mass per metre [kg/m]
  double Cd = 0, Ca = 0, CdEnd = 0, CaEnd = 0;
  int segments = 1;             ///< drag stations: the midpoints of NumSegs segments
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
  /// A pinned body whose pin (its reference point) the host moves: MoorDyn's CoupledPinned
  /// (spec "Attached objects and line ends"); it turns freely about the pin, and the host
  /// receives the pin reaction (MooringSystem::pin_reaction).
  bool host_pin = false;
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
  std::vector<RodPart<T>> rods;      ///< rods fixed to the body (a free or pinned rod: the only part)
  /// Points with mass, volume or drag fixed on the body (MoorDyn's Body<N> points with M, V,
  /// CdA, Ca): lumped at their offsets in body axes.
  struct Lump {
    Vec3<T> p = Vec3<T>::Zero();
    T mass = T(0), volume = T(0);
    double CdA = 0, Ca = 0;
  };
  std::vector<Lump> lumps;
};

/// The rigid mass of a body with its rods, in body axes about the reference point: the mass,
/// its first moment h = m c and the inertia tensor J (spec: the rod's mass enters the body
/// mass matrix as T^T M_c T).
template <class T>
struct RigidMass {
  T m = T(0);
  Vec3<T> h = Vec3<T>::Zero();
  Mat3<T> J = Mat3<T>::Zero();
};

template <class T>
RigidMass<T> body_rigid_mass(const BodyModel<T>& B) {
  using std::sqrt;
  RigidMass<T> out;
  const Mat3<T> I = Mat3<T>::Identity();
  out.m = B.mass;
  out.h = B.mass * B.cg;
  // I_G + m (|c|^2 I - c c^T) (parallel axes).
  out.J = Mat3<T>(B.inertia.asDiagonal()) + B.mass * (B.cg.squaredNorm() * I - B.cg * B.cg.transpose());
  for (const auto& k : B.lumps) {
    out.m += k.mass;
    out.h += k.mass * k.p;
    out.J += k.mass * (k.p.squaredNorm() * I - k.p * k.p.transpose());
  }
  for (const auto& rod : B.rods) {
    const Vec3<T> ab = rod.b - rod.a;
    const T L = sqrt(ab.squaredNorm());
    if (!(value_of(L) > 0)) continue;
    const Vec3<T> q = ab / L, c = (rod.a + rod.b) / 2.0;
    const T mr = rod.rho_A * L;
    const T r2 = rod.d * rod.d / 4.0;
    const Mat3<T> qq = q * q.transpose();
    out.m += mr;
    out.h += mr * c;
    // A line mass from a to b: mr (|c|^2 I - c c^T) + mr L^2 / 12 (I - q q^T); the section:
    // mr r^2 / 4 (I - q q^T) + mr r^2 / 2 q q^T.
    out.J += mr * (c.squaredNorm() * I - c * c.transpose()) + (mr * (L * L / 12.0 + r2 / 4.0)) * (I - qq) +
             (mr * r2 / 2.0) * qq;
  }
  return out;
}

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

/// Adds a point mass matrix M3 (3 x 3, world axes) at the arm p from the reference point to
/// the 6 x 6 matrix M about the reference point: [[M3, -M3 [p]_x], [[p]_x M3, -[p]_x M3 [p]_x]].
template <class T>
void add_point_mass6(Mat6<T>& M, const Mat3<T>& M3, const Vec3<T>& p) {
  const Mat3<T> P = skew<T>(p);
  M.template block<3, 3>(0, 0) += M3;
  M.template block<3, 3>(0, 3) -= M3 * P;
  M.template block<3, 3>(3, 0) += P * M3;
  M.template block<3, 3>(3, 3) -= P * M3 * P;
}

/// The 6 x 6 mass matrix of body B at orientation R about its reference point (world axes),
/// with the added mass rho phi V R diag(Ca) R^T of the translational block: [[m I, -m [c]_x],
/// [m [c]_x, I_G - m [c]_x^2]], c = R cg, I_G = R diag(inertia) R^T.
template <class T>
Mat6<T> body_mass_matrix(const BodyModel<T>& B, const Mat3<T>& R, const T& phi, const Environment& env) {
  using std::sqrt;
  const RigidMass<T> rm = body_rigid_mass(B);
  const Mat3<T> H = skew<T>(Vec3<T>(R * rm.h));
  Mat6<T> M = Mat6<T>::Zero();
  M.template block<3, 3>(0, 0) = rm.m * Mat3<T>::Identity();
  M.template block<3, 3>(0, 3) = -H;
  M.template block<3, 3>(3, 0) = H;
  M.template block<3, 3>(3, 3) = R * rm.J * R.transpose();
  if (value_of(B.volume) > 0 && B.Ca.squaredNorm() > 0) {
    const Vec3<T> ca = B.Ca.template cast<T>();
    const T pv = phi * B.volume;
    const T ma = pv * env.rho_w;
    M.template block<3, 3>(0, 0) += ma * (R * ca.asDiagonal() * R.transpose());
  }
  for (const auto& k : B.lumps) {
    if (k.Ca == 0 || !(value_of(k.volume) > 0)) continue;
    const T ma = k.volume * (env.rho_w * k.Ca);
    add_point_mass6<T>(M, Mat3<T>(ma * Mat3<T>::Identity()), Vec3<T>(R * k.p));
  }
  // Rods (fully submerged): the side added mass rho A Ca (I - q q^T) per metre integrated
  // along the axis, and rho CaEnd V_end q q^T at each end, V_end = 2/3 pi r^3, assembled
  // about the reference point (spec "Attached objects and line ends").
  for (const auto& rod : B.rods) {
    const Vec3<T> ab = R * Vec3<T>(rod.b - rod.a);
    const T L = sqrt(ab.squaredNorm());
    if (!(value_of(L) > 0) || (rod.Ca == 0 && rod.CaEnd == 0)) continue;
    const Vec3<T> q = ab / L;
    const Vec3<T> pa = R * rod.a, pb = R * rod.b, c = (pa + pb) / 2.0;
    const Mat3<T> qq = q * q.transpose();
    const T A = rod.d * rod.d * (std::numbers::pi / 4);
    const T r = rod.d / 2.0;
    if (rod.Ca != 0) {
      const T mside = A * (env.rho_w * rod.Ca);
      const Mat3<T> M3 = (mside * L) * (Mat3<T>::Identity() - qq);
      add_point_mass6<T>(M, M3, c);  // the uniform part about the centre
      const Mat3<T> Q = skew<T>(q);
      const T L3 = L * L * L / 12.0;
      M.template block<3, 3>(3, 3) -= (mside * L3) * (Q * (Mat3<T>::Identity() - qq) * Q);
    }
    if (rod.CaEnd != 0) {
      const T Vend = r * r * r * (2.0 / 3.0 * std::numbers::pi);
      const Mat3<T> Me = (Vend * (env.rho_w * rod.CaEnd)) * qq;
      add_point_mass6<T>(M, Me, pa);
      add_point_mass6<T>(M, Me, pb);
    }
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
  // With h = m c the first moment and J the inertia about the reference point (world axes):
  // (w x (w x h), w x (J w)); w x (J w) = w x (I_G w) + m c x (w x (w x c)).
  const RigidMass<T> rm = body_rigid_mass(B);
  const Vec3<T> h = R * rm.h;
  const Mat3<T> J = R * rm.J * R.transpose();
  Vec6<T> g;
  g.template head<3>() = w.cross(Vec3<T>(w.cross(h)));
  g.template tail<3>() = w.cross(Vec3<T>(J * w));
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
  const RigidMass<T> rm = body_rigid_mass(B);
  const Vec3<T> h = R * rm.h, b = R * B.cb;
  const auto imm = body_immersion<T>(B, T(r(2) + b(2)), env);
  Vec6<T> F = Vec6<T>::Zero();
  const T mg = rm.m * env.g;
  const T pv = imm.phi * B.volume;
  const T fb = pv * (env.rho_w * env.g);
  const Vec3<T> Wg(T(0), T(0), -mg);
  const Vec3<T> Fb(T(0), T(0), fb);
  const Vec3<T> gvec(T(0), T(0), T(-env.g));
  F.template head<3>() = Wg + Fb + B.force;
  F.template tail<3>() = h.cross(gvec) + b.cross(Fb) + B.moment;  // the weight m g at c = h / m
  for (const auto& k : B.lumps) {
    // A lumped point: its buoyancy at its offset and (dynamic) its drag on its own relative
    // velocity.
    const Vec3<T> p = R * k.p;
    Vec3<T> f(T(0), T(0), k.volume * (env.rho_w * env.g));
    if (dynamic && k.CdA > 0) {
      const Vec3<T> u = current.template cast<T>() - v - w.cross(p);
      const T u2 = u.squaredNorm() + 1e-300;
      const T un = sqrt(u2);
      const T kd = un * (0.5 * env.rho_w * k.CdA);
      f += kd * u;
    }
    F.template head<3>() += f;
    F.template tail<3>() += p.cross(f);
  }
  for (const auto& rod : B.rods) {
    // Buoyancy of the submerged cylinder, rho g A L, at its centre.
    const Vec3<T> pa = R * rod.a, pb = R * rod.b, c = (pa + pb) / 2.0;
    const T L = sqrt(Vec3<T>(pb - pa).squaredNorm());
    const T V = rod.d * rod.d * (std::numbers::pi / 4) * L;
    const Vec3<T> Fr(T(0), T(0), V * (env.rho_w * env.g));
    F.template head<3>() += Fr;
    F.template tail<3>() += c.cross(Fr);
  }
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
  if (dynamic) {
    // Rods: side drag 1/2 rho d Cd |u_n| u_n per metre at the midpoints of their segments
    // and end-cap drag 1/2 rho CdEnd A |u_q| u_q q at each end, on the relative velocity of
    // each station (v + w x p).
    for (const auto& rod : B.rods) {
      if (rod.Cd == 0 && rod.CdEnd == 0) continue;
      const Vec3<T> pa = R * rod.a, pb = R * rod.b;
      const T L = sqrt(Vec3<T>(pb - pa).squaredNorm());
      if (!(value_of(L) > 0)) continue;
      const Vec3<T> q = (pb - pa) / L;
      const Vec3<double> U = current;
      auto rel = [&](const Vec3<T>& p) { return Vec3<T>(U.template cast<T>() - v - w.cross(p)); };
      if (rod.Cd != 0) {
        const int n = std::max(1, rod.segments);
        const T dl = L / double(n);
        const T k = rod.d * dl * (0.5 * env.rho_w * rod.Cd);
        for (int i = 0; i < n; ++i) {
          const Vec3<T> p = pa + (pb - pa) * ((i + 0.5) / n);
          const Vec3<T> u = rel(p);
          const T uq = u.dot(q);
          const Vec3<T> un = u - uq * q;
          const T u2 = un.squaredNorm() + 1e-300;
          const T mag = sqrt(u2);
          const T km = k * mag;
          const Vec3<T> f = km * un;
          F.template head<3>() += f;
          F.template tail<3>() += p.cross(f);
        }
      }
      if (rod.CdEnd != 0) {
        const T A = rod.d * rod.d * (std::numbers::pi / 4);
        const T k = A * (0.5 * env.rho_w * rod.CdEnd);
        for (const Vec3<T>* p : {&pa, &pb}) {
          const T uq = rel(*p).dot(q);
          const T au = uq * (value_of(uq) < 0 ? -1.0 : 1.0);
          const T kq = k * au;
          const Vec3<T> f = (kq * uq) * q;
          F.template head<3>() += f;
          F.template tail<3>() += p->cross(f);
        }
      }
    }
  }
  return F;
}

/// The potential energy of body B at pose (r, R) [J]: weight m g z_G, the buoyancy potential
/// of body_immersion, the constant force's -F . r and the seabed penalty's.
template <class T>
T body_potential_energy(const BodyModel<T>& B, const Vec3<T>& r, const Mat3<T>& R, const Environment& env,
                        const std::optional<double>& seabed_z, const SeabedParams& bed) {
  using std::sqrt;
  const RigidMass<T> rm = body_rigid_mass(B);
  const Vec3<T> h = R * rm.h, b = R * B.cb;
  const T mz = rm.m * r(2) + h(2);
  T E = mz * env.g;
  for (const auto& rod : B.rods) {
    const Vec3<T> pa = R * rod.a, pb = R * rod.b;
    const T L = sqrt(Vec3<T>(pb - pa).squaredNorm());
    const T V = rod.d * rod.d * (std::numbers::pi / 4) * L;
    const T zc = r(2) + (pa(2) + pb(2)) / 2.0;
    E -= V * zc * (env.rho_w * env.g);
  }
  for (const auto& k : B.lumps) {
    const T zp = r(2) + Vec3<T>(R * k.p)(2);
    E -= k.volume * zp * (env.rho_w * env.g);
  }
  E += body_immersion<T>(B, T(r(2) + b(2)), env).energy;
  E -= B.force.dot(r);
  if (seabed_z) E += seabed_contact<T, T>(r(2), T(0), *seabed_z, T(1), T(1), bed).energy;
  return E;
}

}  // namespace cabledyn
