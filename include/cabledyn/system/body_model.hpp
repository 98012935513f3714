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
// A rod at the surface takes its wetted-segment buoyancy, and the wet fraction of each
// station in its drag and added mass.
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
#include "cabledyn/core/quadrature.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/seabed/contact.hpp"

namespace cabledyn {

/// How a body moves (deck BODIES Attachment column).
enum class BodyKind {
  fixed,    ///< held at its deck pose: Fixed
  coupled,  ///< pose prescribed by the host or a motion: Coupled / Vessel
  free,     ///< six DOFs moved by its lines and loads: Free
  pinned,   ///< three rotational DOFs about its reference point, held there (Pinned rod),
            ///< moved by the host (CoupledPinned body, BodyModel::host_pin) or by a parent
            ///< body (Body<N>Pinned rod, BodyModel::parent)
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

/// The linear hydrostatic restoring of a surface-piercing hull (spec "Attached objects and
/// line ends": C33, C44, C55; deck BODY HYDROSTATICS): the heave force -C33 (z - z0) at the
/// reference point and the moment -C44 tau_1 h_1 - C55 tau_2 h_2, tau the tilt rotation vector
/// of the body axis `up` (body axes; vertical at the reference pose) from the vertical, h_1 the
/// horizontal direction of the body x axis, h_2 = e_z x h_1 (so independent of the heading).
/// A body with restoring keeps the submerged fraction phi = 1. HydrostaticRestoring::about
/// takes a pose as the reference (the deck pose, spec "static equilibrium": "the hydrostatic
/// restoring keeps the deck pose as its reference").
template <class T>
struct HydrostaticRestoring {
  T C33 = T(0);  ///< heave stiffness [N/m]
  T C44 = T(0);  ///< roll stiffness about h_1 [N m/rad]
  T C55 = T(0);  ///< pitch stiffness about h_2 [N m/rad]
  T z0 = T(0);   ///< reference height of the reference point [m]
  Vec3<T> up = Vec3<T>::UnitZ();  ///< the body axis (unit, body axes) vertical at the reference pose
  bool any() const { return value_of(C33) != 0 || value_of(C44) != 0 || value_of(C55) != 0; }
  /// The restoring C33, C44, C55 about the pose (r, R).
  static HydrostaticRestoring about(const Vec3<T>& r, const Mat3<T>& R, const T& C33, const T& C44, const T& C55) {
    HydrostaticRestoring h;
    h.C33 = C33;
    h.C44 = C44;
    h.C55 = C55;
    h.z0 = r(2);
    h.up = R.transpose() * Vec3<T>::UnitZ();
    return h;
  }
};

/// A rigid body (deck BODIES row). Parameters in T; offsets in body axes.
template <class T>
struct BodyModel {
  std::string name = "body";
  BodyKind kind = BodyKind::free;
  /// A pinned body whose pin (its reference point) the host moves: MoorDyn's CoupledPinned
  /// (spec "Attached objects and line ends"); it turns freely about the pin, and the host
  /// receives the pin reaction (MooringSystem::coupled_reaction).
  bool host_pin = false;
  /// A pinned body on another body (MoorDyn's Body<N>Pinned rod; spec "Attached objects and
  /// line ends", a rod pinned to a body): its pin, its reference point, is the point `pin`
  /// (in the parent's body axes, from the parent's reference point) of body `parent`, which
  /// moves it; the pin passes its force to the parent and no moment. MooringSystem::add_body
  /// sets r to the pin on the parent's pose (a given r elsewhere is refused). -1: the pin is
  /// held at r, or moved by the host (host_pin).
  int parent = -1;
  Vec3<T> pin = Vec3<T>::Zero();
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
  /// Linear hydrostatic restoring (none by default); with it phi = 1 at any elevation.
  HydrostaticRestoring<T> restoring;
  /// The fluid inertia phi rho V (I + R diag(Ca) R^T) du/dt of a held fluid acceleration at
  /// the reference point (spec "Attached objects and line ends"; bodyHydro moordyn: false,
  /// as MoorDyn, which leaves it out).
  bool fluid_inertia = true;
  Vec3<T> force = Vec3<T>::Zero();   ///< constant external force at the reference point [N]
  Vec3<T> moment = Vec3<T>::Zero();  ///< constant external moment [N m]
  std::vector<RodPart<T>> rods;      ///< rods fixed to the body (a free or pinned rod: the only part)
  /// Points with mass, volume, drag or a constant force fixed on the body (MoorDyn's Body<N>
  /// points with M, V, CdA, Ca, Fx Fy Fz): lumped at their offsets in body axes, the force in
  /// global axes (its direction fixed as the body turns, as a point's).
  struct Lump {
    Vec3<T> p = Vec3<T>::Zero();
    T mass = T(0), volume = T(0);
    double CdA = 0, Ca = 0;
    Vec3<T> force = Vec3<T>::Zero();
  };
  std::vector<Lump> lumps;
  /// A direction joint (spec "Attached objects and line ends": a zero-length rod that joins the
  /// tangents of the finite-EI lines clamped to it, MoorDyn's rod of NumSegs 0): no mass,
  /// volume, drag, contact, rods or lumps of its own. Its axis is its body z axis; the lines
  /// clamped along it turn it, and its turn about the axis, which moves nothing, carries no
  /// equation (MooringSystem holds it at zero). Free (its position a DOF) or pinned.
  bool joint = false;
  /// The seabed contact over 1 m^2 at the reference point (spec "Attached objects and line
  /// ends"). A rod's carrier body (a free, fixed, coupled or pinned rod) has none: its rod's
  /// stations bear on the bed (rod_seabed_stations).
  bool point_contact = true;
};

/// Visits the seabed contact stations of a rod (spec "Attached objects and line ends": max(20,
/// NumSegs) + 1 stations along the axis, each bearing kBot d dl on the bed, dl the station's
/// share of the length, half at the ends): visit(p, dl) with p the station's arm from the
/// body's reference point in world axes. A zero-length rod has none.
template <class T, class F>
void rod_seabed_stations(const RodPart<T>& rod, const Vec3<T>& pa, const Vec3<T>& pb, F&& visit) {
  using std::sqrt;
  const T L = sqrt(Vec3<T>(pb - pa).squaredNorm());
  if (!(value_of(L) > 0)) return;
  const int n = std::max(20, rod.segments);
  for (int j = 0; j <= n; ++j) {
    const T f = T(static_cast<double>(j) / n);
    const Vec3<T> p = pa + f * (pb - pa);
    visit(p, T(L * ((j == 0 || j == n) ? 0.5 / n : 1.0 / n)));
  }
}

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
    // Every product evaluated: with T a dual, a parameter's empty derivative part meets a
    // state's only between evaluated values (Eigen resizes an evaluated empty part, not an
    // expression's).
    const T mr = rod.rho_A * L;
    const T r2 = rod.d * rod.d / 4.0;
    const Mat3<T> qq = q * q.transpose();
    out.m += mr;
    out.h += mr * c;
    // A line mass from a to b: mr (|c|^2 I - c c^T) + mr L^2 / 12 (I - q q^T); the section:
    // mr r^2 / 4 (I - q q^T) + mr r^2 / 2 q q^T.
    const T L2 = L * L / 12.0, s2 = r2 / 4.0, c2 = c.squaredNorm();
    const T kt = mr * T(L2 + s2), ka = mr * r2 / 2.0;
    const Mat3<T> cc = c2 * I - c * c.transpose();
    out.J += mr * cc + kt * (I - qq) + ka * qq;
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
  if (B.wetting == BodyWetting::full || B.restoring.any() || !(value_of(B.volume) > 0)) {
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

/// The wetted part of a circular section of radius r whose waterline lies h above its centre
/// along the in-section up-slope direction (spec "Attached objects and line ends"): the wet
/// area A_w = r^2 acos(-h/r) + h sqrt(r^2 - h^2) (pi r^2 for h >= r, 0 for h <= -r) and the
/// offset of its centroid along the up-slope direction, -2/3 (r^2 - h^2)^(3/2) / A_w.
template <class T>
void rod_section_wet(const T& r, const T& h, T& Aw, T& yc) {
  using std::acos;
  using std::sqrt;
  if (!(value_of(h) < value_of(r))) {
    Aw = r * r * std::numbers::pi;
    yc = T(0);
    return;
  }
  if (!(value_of(h) > -value_of(r))) {
    Aw = T(0);
    yc = T(0);
    return;
  }
  const T c2 = r * r - h * h;
  const T c = sqrt(c2);
  Aw = r * r * acos(-h / r) + h * c;
  const T m = c2 * c;
  yc = (m * (-2.0 / 3.0)) / Aw;
}

/// A quadrature station of a rod's wetted part: distance s from End A along the axis [m],
/// weight w [m], the wet area A_w of its section [m^2] and its centroid's offset yc along the
/// in-section up-slope direction [m].
template <class T>
struct RodWetStation {
  T s, w, Aw, yc;
};


/// Visits the quadrature stations of the wetted part of a rod (spec "Attached objects and
/// line ends": the wetted-segment buoyancy) of radius r and length L, End A at height za, unit
/// axis q (world axes), under the still-water level eta: the axis splits into fully wet,
/// partially wet and dry parts where the section's waterline h_w = (eta - z) / sin(phi)
/// crosses -r and r (phi the axis angle to the vertical); the fully wet part takes two Gauss
/// points, the partially wet part ten in theta, h_w = r sin(theta) (the area is smooth in
/// theta), the dry part none. A horizontal rod's sections are all alike (two points); a
/// vertical rod's sections are wet or dry, split where the axis crosses eta.
template <class T, class F>
void rod_wet_stations(const T& za, const Vec3<T>& q, const T& L, const T& r, double eta, F&& visit) {
  using std::asin;
  using std::sqrt;
  const double qz = static_cast<double>(value_of(q(2)));
  const T s2 = q(0) * q(0) + q(1) * q(1);  // sin^2(phi), accurate near the vertical
  const double sphi = std::sqrt(std::max(static_cast<double>(value_of(s2)), 0.0));
  static const GaussRule<double> g2 = gauss_legendre<double>(2);
  static const GaussRule<double, kGaussOrder10> g10 = gauss_legendre<double, kGaussOrder10>(kGaussOrder10);
  auto gauss2 = [&](const T& a, const T& b, const T& Aw, const T& yc) {
    if (!(value_of(b) > value_of(a))) return;
    const T len = b - a;
    for (int i = 0; i < 2; ++i) visit(RodWetStation<T>{T(a + len * g2.xi[i]), T(len * g2.w[i]), Aw, yc});
  };
  const T A = r * r * std::numbers::pi;
  auto clip = [&](const T& s) {
    const double v = static_cast<double>(value_of(s));
    return v < 0 ? T(0) : v > static_cast<double>(value_of(L)) ? L : s;
  };
  if (sphi < 1e-12) {  // vertical: a section is wet below eta, split where the axis crosses it
    const T s0 = clip(T((T(eta) - za) / q(2)));
    if (qz > 0) gauss2(T(0), s0, A, T(0));
    else gauss2(s0, L, A, T(0));
    return;
  }
  const T sp = sqrt(s2);
  if (std::fabs(qz) < 1e-12) {  // horizontal: the sections alike, each at its own h(s) (a dual's tilt)
    for (int i = 0; i < 2; ++i) {
      const T st = L * g2.xi[i];
      T Aw, yc;
      rod_section_wet<T>(r, T((T(eta) - za - st * q(2)) / sp), Aw, yc);
      if (value_of(Aw) > 0) visit(RodWetStation<T>{st, T(L * g2.w[i]), Aw, yc});
    }
    return;
  }
  // s where the section's waterline is at h: s(h) = (eta - za - h sin(phi)) / q_z.
  auto s_of = [&](const T& h) { return T((T(eta) - za - h * sp) / q(2)); };
  // Fully wet: h_w >= r; partially: -r < h_w < r. h_w falls along the axis when q_z > 0.
  const T s_r = clip(s_of(r)), s_mr = clip(s_of(T(-r)));
  if (qz > 0) gauss2(T(0), s_r, A, T(0));
  else gauss2(s_r, L, A, T(0));
  const T a = qz > 0 ? s_r : s_mr, b = qz > 0 ? s_mr : s_r;
  if (!(value_of(b) > value_of(a))) return;
  auto theta_of = [&](const T& s) {
    T h = (T(eta) - za - s * q(2)) / sp / r;
    const double hv = static_cast<double>(value_of(h));
    if (hv >= 1) return T(std::numbers::pi / 2);
    if (hv <= -1) return T(-std::numbers::pi / 2);
    return T(asin(h));
  };
  // An end of the partly wet part that is not clipped lies where h_w = +-r exactly.
  const bool a_free = qz > 0 ? value_of(a) == value_of(s_of(r)) : value_of(a) == value_of(s_of(T(-r)));
  const bool b_free = qz > 0 ? value_of(b) == value_of(s_of(T(-r))) : value_of(b) == value_of(s_of(r));
  const T ta = a_free ? T(qz > 0 ? std::numbers::pi / 2 : -std::numbers::pi / 2) : theta_of(a);
  const T tb = b_free ? T(qz > 0 ? -std::numbers::pi / 2 : std::numbers::pi / 2) : theta_of(b);
  const T span = tb - ta;
  const T aspan = value_of(span) < 0 ? T(-span) : span;
  for (int k = 0; k < kGaussOrder10; ++k) {
    using std::cos;
    using std::sin;
    const T th = ta + span * g10.xi[static_cast<std::size_t>(k)];
    const T h = r * sin(th);
    const T s = s_of(h);
    const T aq = qz > 0 ? T(q(2)) : T(-q(2));
    const T ds = (r * sp * cos(th)) / aq;  // |ds/dtheta|
    T Aw, yc;
    rod_section_wet<T>(r, h, Aw, yc);
    const T w = aspan * g10.w[static_cast<std::size_t>(k)] * ds;
    visit(RodWetStation<T>{s, w, Aw, yc});
  }
}

/// A rod of a body at the body's pose (reference point r, orientation R), world axes: the arms
/// pa, pb of its ends from the reference point, unit axis q, length L, radius, the in-section
/// up-slope direction u (e_z less its axial part, normalised; e_x for a vertical rod), the
/// height of End A, and whether the whole cylinder lies below the still water (z = 0), where
/// its loads take the closed forms of a submerged cylinder.
template <class T>
struct RodAxis {
  Vec3<T> pa, pb, q, u;
  T L, radius, za;
  T sin_phi;              ///< sine of the axis angle to the vertical
  bool vertical = false;  ///< sin(phi) below 1e-12: sections wet or dry, no up-slope direction
  bool submerged = true;
};

template <class T>
RodAxis<T> rod_axis(const RodPart<T>& rod, const Vec3<T>& r, const Mat3<T>& R) {
  using std::sqrt;
  RodAxis<T> ax;
  ax.pa = R * rod.a;
  ax.pb = R * rod.b;
  const Vec3<T> ab = ax.pb - ax.pa;
  ax.L = sqrt(ab.squaredNorm());
  ax.q = ab / ax.L;
  ax.radius = rod.d / 2.0;
  ax.za = r(2) + ax.pa(2);
  const T s2 = ax.q(0) * ax.q(0) + ax.q(1) * ax.q(1);  // sin^2(phi), accurate near the vertical
  const double sphi = std::sqrt(std::max(static_cast<double>(value_of(s2)), 0.0));
  ax.vertical = sphi < 1e-12;
  if (ax.vertical) {
    ax.sin_phi = T(0);
    ax.u = Vec3<T>(T(1), T(0), T(0));
  } else {
    ax.sin_phi = sqrt(s2);
    ax.u = Vec3<T>(T(-ax.q(2) * ax.q(0)), T(-ax.q(2) * ax.q(1)), s2) / ax.sin_phi;
  }
  const double top = std::max(static_cast<double>(value_of(ax.za)), static_cast<double>(value_of(T(r(2) + ax.pb(2))))) +
                     static_cast<double>(value_of(ax.radius)) * sphi;
  ax.submerged = top <= 0;
  return ax;
}

/// The wet fraction A_w / A of rod section at world height z (spec: the drag, added mass and
/// fluid inertia of a station scale with it).
template <class T>
T rod_wet_fraction(const RodAxis<T>& ax, const T& z) {
  if (ax.submerged) return T(1);
  if (ax.vertical) return value_of(z) < 0 ? T(1) : T(0);
  T Aw, yc;
  rod_section_wet<T>(ax.radius, T(-z / ax.sin_phi), Aw, yc);
  const T A = ax.radius * ax.radius * std::numbers::pi;
  return Aw / A;
}

/// Whether the rod is vertical (to 1e-12) and its axis crosses the still water (z = 0) between
/// its ends.
template <class T>
bool rod_vertical_through_surface(const RodAxis<T>& ax) {
  if (ax.submerged || !ax.vertical) return false;
  const double za = static_cast<double>(value_of(ax.za)), zb = za + static_cast<double>(value_of(T(ax.pb(2) - ax.pa(2))));
  return std::min(za, zb) < 0 && std::max(za, zb) > 0;
}

/// The 6 x 6 mass matrix of body B at pose (r, R) about its reference point (world axes),
/// with the added mass rho phi V R diag(Ca) R^T of the translational block: [[m I, -m [c]_x],
/// [m [c]_x, I_G - m [c]_x^2]], c = R cg, I_G = R diag(inertia) R^T.
template <class T>
Mat6<T> body_mass_matrix(const BodyModel<T>& B, const Vec3<T>& r, const Mat3<T>& R, const T& phi, const Environment& env) {
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
  // Rods: the side added mass rho A Ca (I - q q^T) per metre integrated along the axis, and
  // rho CaEnd V_end q q^T at each end, V_end = 2/3 pi r^3, assembled about the reference point
  // (spec "Attached objects and line ends"); a rod at the surface takes the wet fraction of
  // each section (its wet stations) and of each end.
  for (const auto& rod : B.rods) {
    if (rod.Ca == 0 && rod.CaEnd == 0) continue;
    const RodAxis<T> ax = rod_axis(rod, r, R);
    const T L = ax.L;
    if (!(value_of(L) > 0)) continue;
    const Vec3<T> q = ax.q;
    const Vec3<T> pa = ax.pa, pb = ax.pb, c = (pa + pb) / 2.0;
    const Mat3<T> qq = q * q.transpose();
    const T A = rod.d * rod.d * (std::numbers::pi / 4);
    const T rr = rod.d / 2.0;
    if (rod.Ca != 0 && ax.submerged) {
      const T mside = A * (env.rho_w * rod.Ca);
      const Mat3<T> M3 = (mside * L) * (Mat3<T>::Identity() - qq);
      add_point_mass6<T>(M, M3, c);  // the uniform part about the centre
      const Mat3<T> Q = skew<T>(q);
      const T L3 = L * L * L / 12.0;
      M.template block<3, 3>(3, 3) -= (mside * L3) * (Q * (Mat3<T>::Identity() - qq) * Q);
    } else if (rod.Ca != 0) {
      const Mat3<T> P = Mat3<T>::Identity() - qq;
      rod_wet_stations<T>(ax.za, q, L, ax.radius, 0.0, [&](const RodWetStation<T>& st) {
        const T m = st.Aw * st.w * (env.rho_w * rod.Ca);
        add_point_mass6<T>(M, Mat3<T>(m * P), Vec3<T>(pa + st.s * q));
      });
    }
    if (rod.CaEnd != 0) {
      const T Vend = rr * rr * rr * (2.0 / 3.0 * std::numbers::pi);
      const Mat3<T> Me = (Vend * (env.rho_w * rod.CaEnd)) * qq;
      if (ax.submerged) {
        add_point_mass6<T>(M, Me, pa);
        add_point_mass6<T>(M, Me, pb);
      } else {
        add_point_mass6<T>(M, Mat3<T>(rod_wet_fraction(ax, ax.za) * Me), pa);
        add_point_mass6<T>(M, Mat3<T>(rod_wet_fraction(ax, T(r(2) + pb(2))) * Me), pb);
      }
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

/// The first moment P = sum_i f_i p_i of the vertical loads on body B at pose (r, R) about its
/// reference point (world axes; f_i the upward force, p_i its point from the reference
/// point): the weight -m g at the centre of gravity (rods and lumps included), the buoyancy
/// of its submerged fraction at its centre of buoyancy, its lumps' and its rods' wet
/// buoyancy (a submerged rod's at its centre, a rod at the surface at its wet stations'
/// centroids). Spec "Rigid-body time integration": |P| = |W d_g - B d_b| is a pinned rod's
/// swing stiffness about its pin (its reference point), whatever its pose.
/// Visits the buoyancy of a rod at axis ax (spec "Attached objects and line ends": the
/// wetted-segment buoyancy): visit(p, fz), the upward force fz [N] at its point p (from the
/// body's reference point): a submerged rod's rho g A L at its centre; a rod at the surface
/// rho g A_w per metre at each wet station's centroid (rod_wet_stations, still water).
template <class T, class F>
void rod_buoyancy(const RodPart<T>& rod, const RodAxis<T>& ax, const Environment& env, F&& visit) {
  if (ax.submerged) {
    const T A = rod.d * rod.d * (std::numbers::pi / 4);  // evaluated: a dual parameter meets a dual state
    const T V = A * ax.L;
    visit(Vec3<T>((ax.pa + ax.pb) / 2.0), T(V * (env.rho_w * env.g)));
    return;
  }
  rod_wet_stations<T>(ax.za, ax.q, ax.L, ax.radius, 0.0, [&](const RodWetStation<T>& st) {
    visit(Vec3<T>(ax.pa + st.s * ax.q + st.yc * ax.u), T(st.Aw * st.w * (env.rho_w * env.g)));
  });
}

template <class T>
Vec3<T> body_vertical_first_moment(const BodyModel<T>& B, const Vec3<T>& r, const Mat3<T>& R, const Environment& env) {
  const RigidMass<T> rm = body_rigid_mass(B);
  const Vec3<T> b = R * B.cb;
  const auto imm = body_immersion<T>(B, T(r(2) + b(2)), env);
  const T rg = T(env.rho_w * env.g);
  Vec3<T> P = Vec3<T>(R * rm.h) * T(-env.g) + b * (imm.phi * B.volume * rg);
  for (const auto& k : B.lumps) P += Vec3<T>(R * k.p) * (k.volume * rg);
  for (const auto& rod : B.rods)
    rod_buoyancy<T>(rod, rod_axis(rod, r, R), env, [&](const Vec3<T>& p, const T& fz) { P += p * fz; });
  return P;
}

/// The fluid a body's loads see (MooringSystem::hold_fluid): the velocity u, local
/// acceleration a and dynamic pressure p (p + rho g z) at its reference point ([0]), at each
/// lump ([1 + k]) and then, rod by rod, at the rod's drag stations (its NumSegs segment
/// midpoints) and its two ends (rod_fluid_sites); u null: none held.
struct BodyFluid {
  const Vec3<double>* u = nullptr;
  const Vec3<double>* a = nullptr;
  const double* p = nullptr;
};

/// The held-fluid sites of a rod: its drag stations (the midpoints of its NumSegs segments)
/// and its two ends.
template <class T>
int rod_fluid_sites(const RodPart<T>& rod) {
  return std::max(1, rod.segments) + 2;
}

/// The held-fluid sites of body B: its reference point, its lumps, its rods' stations and ends.
template <class T>
std::size_t body_fluid_sites(const BodyModel<T>& B) {
  std::size_t n = 1 + B.lumps.size();
  for (const auto& rod : B.rods) n += static_cast<std::size_t>(rod_fluid_sites(rod));
  return n;
}

/// The arm (from the body's reference point) of drag station i of a rod of n segments at axis
/// ax: the segment's midpoint.
template <class T>
Vec3<T> rod_station(const RodAxis<T>& ax, int i, int n) {
  return Vec3<T>(ax.pa + (ax.pb - ax.pa) * ((i + 0.5) / n));
}

/// Visits body B's held-fluid sites at pose (r, R) in BodyFluid's order, visit(arm) with each
/// site's arm from the reference point: the reference point, the lumps, then rod by rod its
/// drag stations and its ends (what MooringSystem::hold_fluid samples and the statics'
/// current field takes).
template <class T, class F>
void for_each_body_fluid_site(const BodyModel<T>& B, const Vec3<T>& r, const Mat3<T>& R, F&& visit) {
  visit(Vec3<T>(Vec3<T>::Zero()));
  for (const auto& k : B.lumps) visit(Vec3<T>(R * k.p));
  for (const auto& rod : B.rods) {
    const RodAxis<T> ax = rod_axis<T>(rod, r, R);
    const int n = std::max(1, rod.segments);
    for (int i = 0; i < n; ++i) visit(rod_station(ax, i, n));
    visit(Vec3<T>(ax.pa));
    visit(Vec3<T>(ax.pb));
  }
}

/// The tilt of a body with hydrostatic restoring H at orientation R (spec "Attached objects
/// and line ends"): tau1 = tau . h_1, tau2 = tau . h_2 with tau the rotation vector that turns
/// e_z onto the axis a = R H.up (angle atan2(|e_z x a|, a_z) about e_z x a), and h_1, h_2.
template <class T>
struct BodyTilt {
  T tau1 = T(0), tau2 = T(0);
  Vec3<T> h1 = Vec3<T>::UnitX(), h2 = Vec3<T>::UnitY();
};

template <class T>
BodyTilt<T> body_tilt(const HydrostaticRestoring<T>& H, const Mat3<T>& R) {
  using std::atan2;
  using std::sqrt;
  BodyTilt<T> out;
  const Vec3<T> a = R * H.up;
  const Vec3<T> c(T(-a(1)), a(0), T(0));  // e_z x a
  const T s2 = c(0) * c(0) + c(1) * c(1);
  // theta / sin(theta): its series 1 + s^2 / 6 near the upright pose, where sqrt's derivative fails.
  T f;
  if (value_of(s2) > 1e-16) {
    const T s = sqrt(s2);
    f = atan2(s, a(2)) / s;
  } else {
    f = T(1) + s2 / 6.0;
  }
  const Vec3<T> x = R.col(0);
  const T hx2 = x(0) * x(0) + x(1) * x(1);
  if (value_of(hx2) > 1e-24) {  // else the body x axis is vertical: h_1 = e_x
    const T hn = sqrt(hx2);
    out.h1 = Vec3<T>(T(x(0) / hn), T(x(1) / hn), T(0));
    out.h2 = Vec3<T>(T(-out.h1(1)), out.h1(0), T(0));
  }
  out.tau1 = f * c.dot(out.h1);
  out.tau2 = f * c.dot(out.h2);
  return out;
}

/// The hydrostatic restoring load (force, moment) about the reference point of a body with
/// restoring H at pose (r, R): (0, 0, -C33 (z - z0)) and -C44 tau1 h1 - C55 tau2 h2.
template <class T>
Vec6<T> hydrostatic_restoring_load(const HydrostaticRestoring<T>& H, const Vec3<T>& r, const Mat3<T>& R) {
  Vec6<T> F = Vec6<T>::Zero();
  F(2) = -H.C33 * (r(2) - H.z0);
  const BodyTilt<T> t = body_tilt<T>(H, R);
  F.template tail<3>() = Vec3<T>(t.h1 * T(-H.C44 * t.tau1) + t.h2 * T(-H.C55 * t.tau2));
  return F;
}

/// Its potential 1/2 C33 (z - z0)^2 + 1/2 (C44 tau1^2 + C55 tau2^2): exact for C44 = C55 (the
/// moment -C tau is the gradient of C theta^2 / 2), to second order in the tilt otherwise.
template <class T>
T hydrostatic_restoring_energy(const HydrostaticRestoring<T>& H, const Vec3<T>& r, const Mat3<T>& R) {
  const BodyTilt<T> t = body_tilt<T>(H, R);
  const T dz = r(2) - H.z0;
  return (H.C33 * dz * dz + H.C44 * t.tau1 * t.tau1 + H.C55 * t.tau2 * t.tau2) * 0.5;
}

/// The external load on body B at pose (r, R) moving with (v, w), about its reference point
/// in world axes: weight at the centre of gravity, buoyancy rho g phi V at the centre of
/// buoyancy, the hydrostatic restoring (hydrostatic_restoring_load), the constant load, seabed contact over 1 m^2 at the reference point (kBot, cBot
/// per m^2; not on a rod's carrier, BodyModel::point_contact) and at each rod's stations
/// (rod_seabed_stations: kBot d dl, cBot d dl), and (dynamic = true) the drag 1/2 rho phi R diag(CdA) R^T |u| u on the relative
/// velocity u = U - v and -w (MoorDyn's rotational drag). With a held fluid (dynamic, held.u
/// not null) the drag is on the fluid's velocity at the reference point (a lump's at the
/// lump) in place of the current U, and the fluid inertia phi rho V (I + R diag(Ca) R^T) du/dt
/// acts at the reference point (B.fluid_inertia) and rho V_k (1 + Ca_k) du/dt at each lump
/// (spec "Attached objects and line ends": the lumped Morison terms). A rod's stations take the
/// held fluid at their sites: the drag on the relative velocity there, the fluid inertia
/// rho A f (1 + Ca)(I - q q^T) du/dt per metre (f the still-water wet fraction), and at each
/// wet end the axial drag, the axial fluid inertia rho CaEnd V_end q q^T du/dt and the dynamic
/// pressure -p_dyn A n_e on the end cap (n_e its outward normal; spec "Attached objects and
/// line ends": the end terms that carry the axial Froude-Krylov force; the waterline of a
/// surface-piercing rod is the still water, so eta* = 0).
template <class T>
Vec6<T> body_external_load(const BodyModel<T>& B, const Vec3<T>& r, const Mat3<T>& R, const Vec3<T>& v,
                           const Vec3<T>& w, const Environment& env, const std::optional<double>& seabed_z,
                           const SeabedParams& bed, const Vec3<double>& current, bool dynamic,
                           const BodyFluid& held = {}) {
  using std::sqrt;
  const BodyFluid* fluid = dynamic && held.u ? &held : nullptr;
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
  if (B.restoring.any()) F += hydrostatic_restoring_load<T>(B.restoring, r, R);
  for (std::size_t ki = 0; ki < B.lumps.size(); ++ki) {
    // A lumped point: its buoyancy at its offset and (dynamic) its drag on its own relative
    // velocity, and its fluid inertia in a held fluid.
    const auto& k = B.lumps[ki];
    const Vec3<T> p = R * k.p;
    Vec3<T> f(T(0), T(0), k.volume * (env.rho_w * env.g));
    f += k.force;
    if (fluid) f += (k.volume * (env.rho_w * (1 + k.Ca))) * fluid->a[1 + ki].template cast<T>();
    if (dynamic && k.CdA > 0) {
      const Vec3<T> u = (fluid ? fluid->u[1 + ki] : current).template cast<T>() - v - w.cross(p);
      const T u2 = u.squaredNorm() + 1e-300;
      const T un = sqrt(u2);
      const T kd = un * (0.5 * env.rho_w * k.CdA);
      f += kd * u;
    }
    F.template head<3>() += f;
    F.template tail<3>() += p.cross(f);
  }
  for (const auto& rod : B.rods) {
    // Buoyancy (rod_buoyancy): of a submerged cylinder at its centre, of a rod at the surface
    // at each wet station's centroid.
    const RodAxis<T> ax = rod_axis(rod, r, R);
    // A vertical rod through the surface: its sections are wet or dry, so the restoring of its
    // waterplane (second moment pi r^4 / 4) at a dual's tilt is added as the couple
    // rho g (pi r^4 / 4) q_up x e_z, q_up the axis upwards (zero at the vertical, its
    // derivative the restoring).
    if (rod_vertical_through_surface(ax)) {
      const T Iwp = ax.radius * ax.radius * ax.radius * ax.radius * (std::numbers::pi / 4);
      const Vec3<T> ez(T(0), T(0), T(1));
      const Vec3<T> up = value_of(ax.q(2)) > 0 ? Vec3<T>(ax.q) : Vec3<T>(-ax.q);  // the axis line, upwards
      F.template tail<3>() += Vec3<T>(Iwp * (env.rho_w * env.g) * up.cross(ez));
    }
    rod_buoyancy<T>(rod, ax, env, [&](const Vec3<T>& p, const T& fz) {
      const Vec3<T> Fr(T(0), T(0), fz);
      F.template head<3>() += Fr;
      F.template tail<3>() += p.cross(Fr);
    });
  }
  if (seabed_z && !B.joint && B.point_contact) {
    const auto k = seabed_contact<T, T>(r(2), dynamic ? v(2) : T(0), *seabed_z, T(1), T(1), bed);
    F(2) += k.f;
  }
  if (seabed_z && !B.joint) {
    // The rods' stations on the bed, each moving with v + w x p.
    for (const auto& rod : B.rods)
      rod_seabed_stations<T>(rod, Vec3<T>(R * rod.a), Vec3<T>(R * rod.b), [&](const Vec3<T>& p, const T& dl) {
        const T vz = dynamic ? T(v(2) + w.cross(p)(2)) : T(0);
        const auto k = seabed_contact<T, T>(T(r(2) + p(2)), vz, *seabed_z, rod.d, dl, bed);
        const Vec3<T> f(T(0), T(0), k.f);
        F.template head<3>() += f;
        F.template tail<3>() += p.cross(f);
      });
  }
  if (fluid && B.fluid_inertia) {
    // phi rho V (I + R diag(Ca) R^T) du/dt at the reference point.
    const Vec3<T> ad = fluid->a[0].template cast<T>();
    const Vec3<T> at = R.transpose() * ad;
    Vec3<T> ct;
    for (int k = 0; k < 3; ++k) ct(k) = at(k) * B.Ca(k);
    F.template head<3>() += (pv * env.rho_w) * Vec3<T>(ad + R * ct);
  }
  if (dynamic && B.CdA.squaredNorm() > 0) {
    const Vec3<T> u = (fluid ? fluid->u[0] : current).template cast<T>() - v;
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
    // each station (v + w x p): the current's, or the held fluid's at its site with the fluid
    // inertia and the end caps' dynamic pressure.
    std::size_t site = 1 + B.lumps.size();  // the first rod's first site
    for (const auto& rod : B.rods) {
      const std::size_t base = site;
      const int n = std::max(1, rod.segments);
      site += static_cast<std::size_t>(rod_fluid_sites(rod));
      if (!fluid && rod.Cd == 0 && rod.CdEnd == 0) continue;
      const RodAxis<T> ax = rod_axis(rod, r, R);
      const Vec3<T> pa = ax.pa, pb = ax.pb;
      const T L = ax.L;
      if (!(value_of(L) > 0)) continue;
      const Vec3<T> q = ax.q;
      // The relative velocity at the point p of site k.
      auto rel = [&](const Vec3<T>& p, std::size_t k) {
        const Vec3<double>& U = fluid ? fluid->u[k] : current;
        return Vec3<T>(U.template cast<T>() - v - w.cross(p));
      };
      const T A = rod.d * rod.d * (std::numbers::pi / 4);
      const T dl = L / double(n);
      const T kd = rod.d * dl * (0.5 * env.rho_w * rod.Cd);
      const T ki = A * dl * (env.rho_w * (1 + rod.Ca));  // the side's fluid inertia per station
      for (int i = 0; i < n; ++i) {
        const Vec3<T> p = rod_station(ax, i, n);
        const std::size_t k = base + static_cast<std::size_t>(i);
        const T f = ax.submerged ? T(1) : rod_wet_fraction(ax, T(r(2) + p(2)));  // the wet part of the section
        Vec3<T> force = Vec3<T>::Zero();
        if (rod.Cd != 0) {
          const Vec3<T> u = rel(p, k);
          const T uq = u.dot(q);
          const Vec3<T> un = u - uq * q;
          const T u2 = un.squaredNorm() + 1e-300;
          const T mag = sqrt(u2);
          force += (kd * mag * f) * un;
        }
        if (fluid) {
          const Vec3<T> da = fluid->a[k].template cast<T>();
          force += (ki * f) * Vec3<T>(da - da.dot(q) * q);
        }
        F.template head<3>() += force;
        F.template tail<3>() += p.cross(force);
      }
      const T kq0 = A * (0.5 * env.rho_w * rod.CdEnd);
      const T Vend = ax.radius * ax.radius * ax.radius * (2.0 / 3.0 * std::numbers::pi);
      for (int e = 0; e < 2; ++e) {
        const Vec3<T>& p = e == 0 ? pa : pb;
        const std::size_t k = base + static_cast<std::size_t>(n + e);
        const T f = ax.submerged ? T(1) : rod_wet_fraction(ax, T(r(2) + p(2)));  // a wet end only
        T fq = T(0);  // the axial force on the end
        if (rod.CdEnd != 0) {
          const T uq = rel(p, k).dot(q);
          const T au = uq * (value_of(uq) < 0 ? -1.0 : 1.0);
          fq += ((kq0 * au) * f) * uq;  // the order of the still-water form
        }
        if (fluid) {
          const T aq = q.dot(fluid->a[k].template cast<T>());
          fq += (Vend * (env.rho_w * rod.CaEnd)) * aq * f;
          // The dynamic pressure on the cap, outward normal -q at End A and +q at End B.
          const T pf = A * fluid->p[k] * f;
          fq += e == 0 ? pf : T(-pf);
        }
        const Vec3<T> force = fq * q;
        F.template head<3>() += force;
        F.template tail<3>() += p.cross(force);
      }
    }
  }
  return F;
}

/// The potential energy of body B at pose (r, R) [J]: weight m g z_G, the buoyancy potential
/// of body_immersion, the restoring's (hydrostatic_restoring_energy), the constant force's -F . r and the seabed penalty's (at the reference
/// point and at the rods' stations).
template <class T>
T body_potential_energy(const BodyModel<T>& B, const Vec3<T>& r, const Mat3<T>& R, const Environment& env,
                        const std::optional<double>& seabed_z, const SeabedParams& bed) {
  using std::sqrt;
  const RigidMass<T> rm = body_rigid_mass(B);
  const Vec3<T> h = R * rm.h, b = R * B.cb;
  const T mz = rm.m * r(2) + h(2);
  T E = mz * env.g;
  for (const auto& rod : B.rods) {
    // -rho g times the integral of z over the wet volume (the still water at z = 0).
    const RodAxis<T> ax = rod_axis(rod, r, R);
    if (ax.submerged) {
      const T A = rod.d * rod.d * (std::numbers::pi / 4);  // evaluated: a dual parameter meets a dual state
      const T V = A * ax.L;
      const T zc = r(2) + (ax.pa(2) + ax.pb(2)) / 2.0;
      E -= V * zc * (env.rho_w * env.g);
      continue;
    }
    if (rod_vertical_through_surface(ax)) {  // the waterplane couple's potential rho g I_wp (1 - |q_z|)
      const T Iwp = ax.radius * ax.radius * ax.radius * ax.radius * (std::numbers::pi / 4);
      const T tilt = value_of(ax.q(2)) > 0 ? T(T(1) - ax.q(2)) : T(T(1) + ax.q(2));
      E += Iwp * tilt * (env.rho_w * env.g);
    }
    rod_wet_stations<T>(ax.za, ax.q, ax.L, ax.radius, 0.0, [&](const RodWetStation<T>& st) {
      const T zc = ax.za + st.s * ax.q(2) + st.yc * ax.u(2);
      const T dV = st.Aw * st.w;
      E -= dV * zc * (env.rho_w * env.g);
    });
  }
  for (const auto& k : B.lumps) {
    const Vec3<T> xp = r + Vec3<T>(R * k.p);
    E -= k.volume * xp(2) * (env.rho_w * env.g);
    E -= k.force.dot(xp);  // a constant force's potential
  }
  E += body_immersion<T>(B, T(r(2) + b(2)), env).energy;
  if (B.restoring.any()) E += hydrostatic_restoring_energy<T>(B.restoring, r, R);
  E -= B.force.dot(r);
  if (seabed_z && !B.joint && B.point_contact) E += seabed_contact<T, T>(r(2), T(0), *seabed_z, T(1), T(1), bed).energy;
  if (seabed_z && !B.joint)
    for (const auto& rod : B.rods)
      rod_seabed_stations<T>(rod, Vec3<T>(R * rod.a), Vec3<T>(R * rod.b), [&](const Vec3<T>& p, const T& dl) {
        E += seabed_contact<T, T>(T(r(2) + p(2)), T(0), *seabed_z, rod.d, dl, bed).energy;
      });
  return E;
}

}  // namespace cabledyn
