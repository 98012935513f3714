// cabledyn: the bodies' sub-step estimate (a heuristic of the system's steppers).
// Spec "Rigid-body time integration": the accuracy sub-steps of bodySubstep (omega dt_sub <=
// 0.28) and the staggered scheme's (omega dt_sub <= 0.4) take omega from an estimate of the
// stiffest body-mooring frequency. Included at the end of system/mooring_system.hpp, whose
// MooringSystem::body_frequency_estimate forwards here; it reads the system's public API.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Eigenvalues>

#include "cabledyn/system/mooring_system.hpp"

namespace cabledyn {

/// An estimate of the stiffest body-mooring frequency [rad/s] of the free bodies in state s
/// (spec "Rigid-body time integration": the accuracy sub-steps of bodySubstep). Each line
/// with an end on a free body acts there as the directional spring
/// k_a t t^T + (T/L)(I - t t^T) (t the chord direction from that end to the other, L the
/// chord length, k_a = 1 / sum l0/EA, T the end load's magnitude), carried to the
/// reference point (translation: its diagonal; rotation: the diagonal of [a]^T K [a], a the
/// arm); the estimate is the largest sqrt(K_ii / M_ii) over the six DOFs of every free body,
/// M the body's mass matrix (structural and added mass, rods included). A rod whose axis
/// crosses the still water adds its waterplane rho g pi d^2 / (4 |t_z|) at the crossing (the
/// spec bounds the crossings within the coming step; this takes the present ones); a body's
/// hydrostatic restoring adds C33, C44 and C55 (BodyModel::restoring). The body's own seabed contact (1 m^2 at its reference point) and its rods' seabed stations
/// (kBot d dl, those of a rod pinned on it included) add their local stiffness in heave, and
/// at their arms in roll and pitch. 0 without free bodies. Allocates nothing once the dynamic workspaces exist.
/// With `bodies` (one flag per body), the flagged bodies are estimated whatever their kind
/// (the staggered scheme's, which it holds over each line step), and no other: flag 1 as
/// a free body, flag 2 as a rod pinned at its reference point (its rotations alone, with
/// its own swing about the pin). With a coming step dt > 0 (the staggered scheme, whose
/// position update is explicit), a flagged body's seabed contact and its rods' waterplanes
/// count when they can act within the step: the body's reference point within its reach
/// dt |v| + dt^2/2 (|a| + g) of the bed (then kBot over 1 m^2), a rod whose span of heights,
/// widened by its radius and that reach (its ends' reach, with the turn), takes in the still
/// water (then rho g min(pi r^2 / |t_z|, d L) at its end nearer the surface).
template <class T>
double body_frequency_estimate(const MooringSystem<T>& sys, const SystemState<T>& s, const std::vector<char>* bodies,
                               double dt) {
  const Environment& env = sys.environment();
  const SeabedModel& bed = sys.seabed();
  auto V3 = [](const Vec3<T>& v) { return MooringSystem<T>::value3(v); };
  double omega = 0;
  for (std::size_t b = 0; b < sys.n_bodies(); ++b) {
    if (bodies ? !(*bodies)[b] : sys.body(static_cast<int>(b)).kind != BodyKind::free) continue;
    const int bi = static_cast<int>(b);
    Vec3<T> rb;
    Mat3<T> Rb;
    sys.body_pose(s, bi, rb, Rb);
    Vec6<double> K = Vec6<double>::Zero();
    // The reach of a flagged body's point at arm p within the coming step (0: none).
    const bool ahead = bodies && dt > 0;
    const Vec6<T> vel = ahead ? sys.body_motion(s, bi, 1) : Vec6<T>(Vec6<T>::Zero()),
                  acc = ahead ? sys.body_motion(s, bi, 2) : Vec6<T>(Vec6<T>::Zero());
    auto reach = [&](const Vec3<double>& p) {
      if (!ahead) return 0.0;
      const Vec3<double> w = V3(Vec3<T>(vel.template tail<3>())), al = V3(Vec3<T>(acc.template tail<3>()));
      const double vp = (V3(Vec3<T>(vel.template head<3>())) + w.cross(p)).norm();
      const double ap = V3(Vec3<T>(acc.template head<3>())).norm() + al.cross(p).norm() + w.squaredNorm() * p.norm() + env.g;
      return dt * vp + 0.5 * dt * dt * ap;
    };
    for (std::size_t l = 0; l < sys.n_lines(); ++l)
      for (int end = 0; end < 2; ++end) {
        const auto& P = sys.point(sys.line(static_cast<int>(l)).point[end]);
        if (P.kind != PointKind::body || P.body != bi) continue;
        const Vec3<double> xe = V3(sys.point_position(s, sys.line(static_cast<int>(l)).point[end]));
        const Vec3<double> xo = V3(sys.point_position(s, sys.line(static_cast<int>(l)).point[1 - end]));
        const Vec3<double> chord = xo - xe;
        const double L = chord.norm();
        if (!(L > 0)) continue;
        const Vec3<double> t = chord / L;
        const double ka = 1.0 / static_cast<double>(value_of(sys.line(static_cast<int>(l)).model.axial_compliance()));
        const double ten = V3(sys.line_end_force_dynamic(s, static_cast<int>(l), end)).norm();
        const Mat3<double> Ks = ka * t * t.transpose() + (ten / L) * (Mat3<double>::Identity() - t * t.transpose());
        const Mat3<double> A = skew<double>(Vec3<double>(xe - V3(rb)));
        const Mat3<double> Kr = A.transpose() * Ks * A;
        for (int i = 0; i < 3; ++i) K(i) += Ks(i, i), K(3 + i) += Kr(i, i);
      }
    // A rod whose axis crosses the still water (z = 0): its waterplane, the spring
    // rho g pi d^2 / (4 |t_z|) at the crossing point c (heave; k c_y^2 and k c_x^2 in roll
    // and pitch, c from the reference point): the body's own rods (at rb, Rb), and those of
    // a rod pinned on it (at its pose rc, Rc, carried here through the pin).
    // A waterplane spring k at arm c: heave, and k c_y^2, k c_x^2 in roll and pitch.
    auto waterplane = [&](double k, const Vec3<double>& c) {
      K(2) += k;
      K(3) += k * c(1) * c(1);
      K(4) += k * c(0) * c(0);
    };
    auto waterplanes = [&](const BodyModel<T>& B, const Vec3<T>& rc, const Mat3<T>& Rc) {
      const Vec3<double> offset = V3(Vec3<T>(rc - rb));
      for (const auto& rod : B.rods) {
        const RodAxis<T> ax = rod_axis<T>(rod, rc, Rc);  // End A (from rc), unit axis q, length L
        const double za = static_cast<double>(value_of(ax.za)), qz = static_cast<double>(value_of(ax.q(2))),
                     L = static_cast<double>(value_of(ax.L));
        const double zb = za + L * qz;
        const double r = static_cast<double>(value_of(ax.radius));
        if ((za < 0) == (zb < 0) || za == zb) {
          if (!ahead) continue;
          // Not crossing now: within the step's reach of the surface?
          const Vec3<double> pa = offset + V3(ax.pa), pb = pa + L * V3(ax.q);
          const bool a_near = std::fabs(za) <= std::fabs(zb);
          const Vec3<double> c = a_near ? pa : pb;
          const double gap = std::min(std::fabs(za), std::fabs(zb)) - r;
          if (gap > std::max(reach(pa), reach(pb))) continue;
          waterplane(env.rho_w * env.g * std::min(kPi * r * r / std::max(std::fabs(qz), 1e-300), 2 * r * L), c);
          continue;
        }
        const Vec3<double> c = offset + V3(ax.pa) + (-za / qz) * V3(ax.q);  // the crossing, from rb
        waterplane(env.rho_w * env.g * kPi * r * r / std::fabs(qz), c);
      }
    };
    waterplanes(sys.body(bi), rb, Rb);
    // Its hydrostatic restoring: C33 in heave, C44 h_1 h_1^T + C55 h_2 h_2^T in roll and pitch.
    if (const auto& H = sys.body(bi).restoring; H.any()) {
      const BodyTilt<T> t = body_tilt<T>(H, Rb);
      const Vec3<double> h1 = V3(t.h1), h2 = V3(t.h2);
      const double c44 = static_cast<double>(value_of(H.C44)), c55 = static_cast<double>(value_of(H.C55));
      K(2) += static_cast<double>(value_of(H.C33));
      K(3) += c44 * h1(0) * h1(0) + c55 * h2(0) * h2(0);
      K(4) += c44 * h1(1) * h1(1) + c55 * h2(1) * h2(1);
    }
    // Seabed contact of stiffness kBot * width_length at the arm p from the reference point,
    // of a station of half-height `radius` (0 for the reference point's 1 m^2): its local
    // stiffness in heave, and k p_y^2, k p_x^2 in roll and pitch; counted at kBot * width_length
    // when within the step's reach (plus the radius) of the bed.
    auto contact = [&](const Vec3<double>& p, double width_length, double radius) {
      const double z = static_cast<double>(value_of(rb(2))) + p(2);
      const auto c = seabed_contact<double, double>(z, 0.0, *bed.z, 1.0, width_length, bed.params);
      const bool near = ahead && z - *bed.z <= reach(p) + radius;
      const double k = near ? std::max(std::fabs(c.df_dz), bed.params.kBot * width_length) : std::fabs(c.df_dz);
      K(2) += k;
      K(3) += k * p(1) * p(1);
      K(4) += k * p(0) * p(0);
    };
    // The seabed stations of the rods of body B at pose (rc, Rc) (kBot d dl each).
    auto rod_stations = [&](const BodyModel<T>& B, const Vec3<T>& rc, const Mat3<T>& Rc) {
      if (!bed.z || B.joint) return;
      const Vec3<double> offset = V3(Vec3<T>(rc - rb));
      for (const auto& rod : B.rods)
        rod_seabed_stations<T>(rod, Vec3<T>(Rc * rod.a), Vec3<T>(Rc * rod.b), [&](const Vec3<T>& p, const T& dl) {
          contact(offset + V3(p), static_cast<double>(value_of(rod.d * dl)), 0.5 * static_cast<double>(value_of(rod.d)));
        });
    };
    // A rod pinned on it: its waterplane, its seabed stations and its mass in the translations
    // (the pin passes them; its swing about the pin is not estimated).
    Vec3<double> m_pinned = Vec3<double>::Zero();
    for (std::size_t c = 0; c < sys.n_bodies(); ++c) {
      if (!(sys.body(static_cast<int>(c)).kind == BodyKind::pinned && sys.body(static_cast<int>(c)).parent == bi)) continue;
      Vec3<T> rc;
      Mat3<T> Rc;
      sys.body_pose(s, static_cast<int>(c), rc, Rc);
      const Mat6<T> Mc = sys.body_mass_at(static_cast<int>(c), rc, Rc);
      for (int i = 0; i < 3; ++i) m_pinned(i) += static_cast<double>(value_of(Mc(i, i)));
      waterplanes(sys.body(static_cast<int>(c)), rc, Rc);
      rod_stations(sys.body(static_cast<int>(c)), rc, Rc);
    }
    // The body's own seabed contact at its reference point (body_external_load: kBot over
    // 1 m^2) and at its rods' stations.
    if (bed.z && sys.body(bi).point_contact && !sys.body(bi).joint) contact(Vec3<double>::Zero(), 1.0, 0.0);
    rod_stations(sys.body(bi), rb, Rb);
    const Mat6<T> Mb = sys.body_mass_at(bi, rb, Rb);
    const bool swing = bodies && (*bodies)[b] == 2;
    double w2 = 0;  // the largest K_ii / M_ii of the body
    for (int i = swing ? 3 : 0; i < 6; ++i) {
      const double m = static_cast<double>(value_of(Mb(i, i))) + (i < 3 ? m_pinned(i) : 0.0);
      if (m > 0 && K(i) > 0) w2 = std::max(w2, K(i) / m);
    }
    // A rod pinned at a held pin (flag 2, the staggered scheme's) turns about its reference
    // point, the pin, alone; its own swing there adds to omega^2 (spec "Rigid-body time
    // integration"): the stiffness |P| = |W d_g - B d_b|, the first moment of its weight and
    // wet buoyancy about the pin (its value at the bottom of the swing, whatever the pose),
    // over the smaller rotational inertia about the pin across its (first) rod's axis.
    if (swing) {
      const double P = V3(body_vertical_first_moment<T>(sys.body(bi), rb, Rb, env)).norm();
      Mat3<double> J;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) J(i, j) = static_cast<double>(value_of(Mb(3 + i, 3 + j)));
      double I = 0;
      if (!sys.body(bi).rods.empty()) {
        const Vec3<double> q = V3(rod_axis<T>(sys.body(bi).rods.front(), rb, Rb).q);
        const Vec3<double> e1 = q.unitOrthogonal(), e2 = q.cross(e1);
        const double a11 = e1.dot(J * e1), a22 = e2.dot(J * e2), a12 = e1.dot(J * e2);
        I = 0.5 * (a11 + a22) - std::sqrt(0.25 * (a11 - a22) * (a11 - a22) + a12 * a12);
      } else {
        I = Eigen::SelfAdjointEigenSolver<Mat3<double>>(J, Eigen::EigenvaluesOnly).eigenvalues()(1);
      }
      if (I > 0) w2 += P / I;
    }
    omega = std::max(omega, std::sqrt(w2));
  }
  return omega;
}

}  // namespace cabledyn
