// cabledyn: the records of a mooring system: its points (PointKind, PointModel), lines
// (SystemLine), its one state value (SystemState) and the prescribed kinematics of its held
// points and bodies over a step (HeldKinematics).
// Spec "Attached objects and line ends" (fixed, coupled, free and body points), "Time
// integration" (one state value; the prescribed configuration of the force and configuration
// blends), "Adaptive step subdivision" (the quintic end trajectory over sub-steps).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/quintic.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/core/so3.hpp"
#include "cabledyn/line/line_model.hpp"

namespace cabledyn {

/// How a point moves (deck POINTS Attachment column).
enum class PointKind {
  fixed,    ///< held at its position (an anchor): Fixed
  coupled,  ///< position prescribed by the host or a motion (a fairlead): Coupled / Vessel
  free,     ///< three DOFs moved by its lines, weight and buoyancy: Free / Connect
  body,     ///< fixed on a body at an offset in body axes: Body<N>
};

/// A point (deck POINTS row). Parameters in T.
template <class T>
struct PointModel {
  std::string name = "point";
  PointKind kind = PointKind::fixed;
  Vec3<T> r = Vec3<T>::Zero();     ///< held position, or the initial position of a free point [m]
  T mass = T(0);                   ///< [kg] (a clump weight)
  T volume = T(0);                 ///< displaced volume [m^3] (a buoy)
  double CdA = 0;                  ///< drag area [m^2]: drag 1/2 rho CdA |u_r| u_r
  double Ca = 0;                   ///< added-mass coefficient: added mass Ca rho V (isotropic)
  Vec3<T> v = Vec3<T>::Zero();     ///< velocity of a held point [m/s] (coupled: set by the host each step)
  Vec3<T> a = Vec3<T>::Zero();     ///< acceleration of a held point [m/s^2]
  Vec3<T> load = Vec3<T>::Zero();  ///< constant external force on a free point [N] (a host's load)
  int body = -1;                   ///< PointKind::body: the body (0-based); r is then the offset in body axes
};

/// The one state value of a system: time and the positions, velocities and accelerations of
/// its free DOFs (in the system's numbering). Copy it whole to commit, roll back or restart.
///
/// A free body's six DOFs are (position of its reference point, rotation vector theta): its
/// orientation is exp([theta]_x) R with R its entry in `R`, its velocities (v, omega) and
/// accelerations (a, alpha) are in world axes. commit() folds theta into R and zeroes it, so
/// theta is the increment of the current step (spec "Rigid-body time integration").
template <class T>
struct SystemState {
  T t = T(0);
  VecX<T> q, v, a;
  std::vector<Mat3<T>> R;  ///< one orientation per body (held bodies' entries unused)
};

/// A line of the system: its load model and the points at its ends.
template <class T>
struct SystemLine {
  LineModel<T> model;
  int point[2] = {-1, -1};  ///< End A, End B point index
  /// A clamped end (spec "Cables clamped to bodies and rods"; MooringSystem::clamp_end): its
  /// tangent m held on the ray of d = R d0, R the orientation of the object at that end.
  bool clamped[2] = {false, false};
  /// A spring end (MooringSystem::spring_end): the rotational spring U = 1/2 k theta^2 of stiffness
  /// spring_k [N m/rad] between m and d = R d0 (0: none).
  double spring_k[2] = {0, 0};
  Vec3<T> clamp_dir[2] = {Vec3<T>::Zero(), Vec3<T>::Zero()};  ///< d0, unit, in the object's axes (clamp or spring)
};

/// The prescribed kinematics of a system's held points (fixed and coupled) at one time: the
/// inputs a stepper interpolates over a step.
template <class T>
struct HeldKinematics {
  std::vector<Vec3<T>> r, v, a;                 ///< one entry per point (free points' entries unused)
  std::vector<Vec3<T>> br, bv, bw, ba, balpha;  ///< per body: position, velocity, angular velocity, accelerations
  std::vector<Mat3<T>> bR;                      ///< per body: orientation

  /// Copies `o` (of the same sizes) into this one without allocating.
  void assign(const HeldKinematics& o) {
    for (std::size_t p = 0; p < r.size(); ++p) r[p] = o.r[p], v[p] = o.v[p], a[p] = o.a[p];
    for (std::size_t b = 0; b < br.size(); ++b) {
      br[b] = o.br[b], bv[b] = o.bv[b], bw[b] = o.bw[b], ba[b] = o.ba[b], balpha[b] = o.balpha[b];
      bR[b] = o.bR[b];
    }
  }
  /// The linear blend (1 - w) x + w y into this one, orientations on their geodesic (the
  /// prescribed configuration of the generalised-alpha configuration blend: spec "Time
  /// integration", q_alpha with w = 1 - alpha_f). Allocates nothing.
  void blend(const HeldKinematics& x, const HeldKinematics& y, const T& w) {
    const T s = T(1) - w;
    // A value the same at both ends (an anchor) stays exactly what it is.
    auto lerp = [&](const Vec3<T>& u0, const Vec3<T>& u1) -> Vec3<T> {
      return u0 == u1 ? u0 : Vec3<T>(s * u0 + w * u1);
    };
    for (std::size_t p = 0; p < r.size(); ++p)
      r[p] = lerp(x.r[p], y.r[p]), v[p] = lerp(x.v[p], y.v[p]), a[p] = lerp(x.a[p], y.a[p]);
    for (std::size_t b = 0; b < br.size(); ++b) {
      br[b] = lerp(x.br[b], y.br[b]), bv[b] = lerp(x.bv[b], y.bv[b]), bw[b] = lerp(x.bw[b], y.bw[b]);
      ba[b] = lerp(x.ba[b], y.ba[b]), balpha[b] = lerp(x.balpha[b], y.balpha[b]);
      bR[b] = x.bR[b] == y.bR[b] ? x.bR[b] : so3_interpolate<T>(x.bR[b], y.bR[b], w);
    }
  }
  /// The accelerations of the generalised-alpha inertia (spec "Time integration": the
  /// scheme's accelerations a_n approximate the true ones at t_n + (alpha_m - alpha_f) dt, so
  /// the blend (1 - alpha_m) a_1 + alpha_m a_0 of the inertia force meets the forces at
  /// t_(n+1-alpha_f)): this one's accelerations (a copy of x or y, the step's ends) moved by
  /// shift (y - x), shift = alpha_m - alpha_f, the linear extrapolation to t + shift dt of
  /// the prescribed accelerations of points and bodies. With the true prescribed accelerations
  /// in the blend, a rod on a moving pin converged at first order at rho_inf < 1. An
  /// acceleration the same at both ends stays exactly what it is; returns whether any moved.
  /// Allocates nothing.
  bool shift_accelerations(const HeldKinematics& x, const HeldKinematics& y, const T& shift) {
    bool any = false;
    auto moved = [&](Vec3<T>& u, const Vec3<T>& u0, const Vec3<T>& u1) {
      if (u0 == u1) return;
      u = Vec3<T>(u + shift * Vec3<T>(u1 - u0));
      any = true;
    };
    for (std::size_t p = 0; p < a.size(); ++p) moved(a[p], x.a[p], y.a[p]);
    for (std::size_t b = 0; b < ba.size(); ++b) moved(ba[b], x.ba[b], y.ba[b]), moved(balpha[b], x.balpha[b], y.balpha[b]);
    return any;
  }

  /// The kinematics a fraction tau of a step of dt from x (at its start) to y (at its end)
  /// into this one (spec "Adaptive step subdivision": the quintic end trajectory): positions,
  /// velocities and accelerations of points and body origins on the quintic Hermite
  /// trajectory through both ends' values (C2 across the sub-steps), orientations on their
  /// geodesic with the angular velocities and accelerations linear. At tau = 0 and 1 the
  /// ends' values, exactly; a point or body at rest over the step (the same position, no
  /// velocity, no acceleration; the same orientation) exactly where it is.
  void interpolate(const HeldKinematics& x, const HeldKinematics& y, const T& tau, const T& dt) {
    if (value_of(tau) == 0) return assign(x);
    if (value_of(tau) == 1) return assign(y);
    const T s = T(1) - tau;
    // A held point or body at rest over the step (an anchor) stays exactly where it is.
    auto at_rest = [](const Vec3<T>& r0, const Vec3<T>& v0, const Vec3<T>& a0, const Vec3<T>& r1, const Vec3<T>& v1,
                      const Vec3<T>& a1) {
      return r0 == r1 && v0.isZero(0) && v1.isZero(0) && a0.isZero(0) && a1.isZero(0);
    };
    for (std::size_t p = 0; p < r.size(); ++p) {
      if (at_rest(x.r[p], x.v[p], x.a[p], y.r[p], y.v[p], y.a[p])) {
        r[p] = x.r[p], v[p] = x.v[p], a[p] = x.a[p];
        continue;
      }
      quintic_hermite(x.r[p], x.v[p], x.a[p], y.r[p], y.v[p], y.a[p], dt, tau, r[p], v[p], a[p]);
    }
    for (std::size_t b = 0; b < br.size(); ++b) {
      if (at_rest(x.br[b], x.bv[b], x.ba[b], y.br[b], y.bv[b], y.ba[b]))
        br[b] = x.br[b], bv[b] = x.bv[b], ba[b] = x.ba[b];
      else
        quintic_hermite(x.br[b], x.bv[b], x.ba[b], y.br[b], y.bv[b], y.ba[b], dt, tau, br[b], bv[b], ba[b]);
      bw[b] = s * x.bw[b] + tau * y.bw[b];
      balpha[b] = s * x.balpha[b] + tau * y.balpha[b];
      bR[b] = x.bR[b] == y.bR[b] ? x.bR[b] : so3_interpolate<T>(x.bR[b], y.bR[b], tau);
    }
  }
};

}  // namespace cabledyn
