// cabledyn: the hooks a stepper asks a mooring system: the predictor rule, the seabed-entry limit on a
// Newton update, the hold of the Hermite lines' consistent mass over a step, the force scale
// of the Newton tests, the checks of a converged state (finite, points below the surface,
// the tensile audit) and whether its loads have a potential.
// Spec "Newton iteration" (the predictors; the force scale), "Seabed contact" (the
// update stops in the contact blend), "Added mass and fluid inertia" (the Hermite consistent
// mass held over a step), "Constitutive laws" (tensile audit).
//
// Member definitions of MooringSystem (system/mooring_system.hpp declares the class and
// documents each member; this file is one of its parts, included at its end).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "cabledyn/system/mooring_system.hpp"

namespace cabledyn {

template <class T>
inline bool MooringSystem<T>::wants_newmark_predictor() const {
  bool lines = false;
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    if (!live_line(l)) continue;
    if (lines_[l].model.hermite()) return false;
    lines = true;
  }
  return lines;
}

template <class T>
inline double MooringSystem<T>::update_limit(const State& s, const VecX<T>& dq, double* per_component) const {
  double a = 1;
  if (per_component) std::fill(per_component, per_component + n_components(), 1.0);
  if (!seabed_.z) return a;
  const double zf = *seabed_.z, delta = seabed_.params.delta;
  // The fraction f of the update of DOF d's component.
  auto cut = [&](Index d, double f) {
    a = std::min(a, f);
    if (per_component) {
      double& c = per_component[dof_component_[static_cast<std::size_t>(d)]];
      c = std::min(c, f);
    }
  };
  auto limit = [&](Index d) {
    const double z = static_cast<double>(value_of(s.q(d + 2))), dz = static_cast<double>(value_of(dq(d + 2)));
    cut(d, contact_entry_fraction(z, dz, zf, delta));
  };
  for (std::size_t l = 0; l < lines_.size(); ++l)
    for (std::size_t i = 0; i < lines_[l].model.n_nodes() && live_line(l); ++i) {
      const Index d = node_dof(static_cast<int>(l), i);
      if (d >= 0) limit(d);
    }
  for (std::size_t p = 0; p < points_.size(); ++p) {
    const Index d = point_dof_[p];
    if (d >= 0 && live_point(p) && value_of(point_footprint(static_cast<int>(p))) > 0) limit(d);
  }
  // A body's contact point (BodyModel::point_contact) and its rods' seabed stations
  // (rod_seabed_stations), each carried by the update of its body's pose: the poses at q and
  // at q + dq (pose_of: a pinned body's about its pin, on its parent's), a station fixed in
  // the body turning with it.
  bool bodies = false;
  for (std::size_t b = 0; b < bodies_.size(); ++b)
    bodies = bodies || (body_dof_[b] >= 0 && live_body(b) && !bodies_[b].joint &&
                        (bodies_[b].point_contact || !bodies_[b].rods.empty()));
  if (!bodies) return a;
  wlim_ = s.q;  // sized by renumber(): no allocation
  wlim_ += dq;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const auto& B = bodies_[b];
    if (body_dof_[b] < 0 || B.joint || !live_body(b)) continue;
    auto limit_z = [&](const T& z0, const T& z1) {
      const double z = static_cast<double>(value_of(z0));
      cut(body_dof_[b], contact_entry_fraction(z, static_cast<double>(value_of(z1)) - z, zf, delta));
    };
    Vec3<T> r0, r1;
    Mat3<T> R0, R1;
    pose_of(static_cast<int>(b), s.q, s.R, r0, R0);
    pose_of(static_cast<int>(b), wlim_, s.R, r1, R1);
    if (B.point_contact) limit_z(r0(2), r1(2));
    const Mat3<T> turn = R1 * R0.transpose();
    for (const auto& rod : B.rods)
      rod_seabed_stations<T>(rod, Vec3<T>(R0 * rod.a), Vec3<T>(R0 * rod.b),
                             [&](const Vec3<T>& p, const T&) { limit_z(T(r0(2) + p(2)), T(r1(2) + (turn * p)(2))); });
  }
  return a;
}

template <class T>
inline bool MooringSystem<T>::nonpotential_loads(const State& s) const {
  if (!current_.isZero() || current_field_) return true;  // the current's drag
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    if (lines_[l].model.hermite()) continue;
    line_gather(s, static_cast<int>(l), 0, wx_[l]);
    if (lines_[l].model.nonpotential_wetting(wx_[l])) return true;
  }
  return false;
}

template <class T>
inline bool MooringSystem<T>::blends_mass() const {
  for (std::size_t b = 0; b < bodies_.size(); ++b)
    if (body_dof_[b] >= 0 && !bodies_[b].joint && live_body(b)) return true;
  return false;
}

template <class T>
inline void MooringSystem<T>::blend_mass_start(const State& s) const {
  require_numbered();
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const int bi = static_cast<int>(b);
    if (body_dof_[b] < 0 || bodies_[b].joint || !live_body(b)) continue;
    blend_M0_[b] = mass_of(bi, s.q, s.R);
    blend_A0_[b] = motion_at(bi, s.q, s.v, &s.a, s.R, 2, false);
  }
}

template <class T>
inline void MooringSystem<T>::blend_mass(const State& s, const T& alpha_m, const T& alpha_f, const T& wm, VecX<T>& dG,
                                         BorderedJacobian<T>* J) const {
  zero_rows(dG);
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const int bi = static_cast<int>(b);
    if (body_dof_[b] < 0 || bodies_[b].joint || !live_body(b)) continue;
    auto mass = [&](const VecX<T>& q) { return mass_of(bi, q, s.R); };  // for pinned_inertia_tangent
    const Mat6<T> M1 = mass(s.q);
    const Vec6<T> A1 = motion_at(bi, s.q, s.v, &s.a, s.R, 2, false);
    const Vec6<T>& A0 = blend_A0_[b];
    const Mat6<T> dM = M1 - blend_M0_[b];
    // w = alpha_m A0 - alpha_f ((1 - alpha_m) A1 + alpha_m A0).
    Vec6<T> w;
    for (int k = 0; k < 6; ++k) w(k) = alpha_m * A0(k) - alpha_f * ((T(1) - alpha_m) * A1(k) + alpha_m * A0(k));
    add_body_rows(bi, mul6<T>(dM, w), dG, pin_arm(bi, s.q, s.R));
    if (!J) continue;
    // d/dq1: (M1 - M0) dw/dq1 = -alpha_f (1 - alpha_m) dA1/dq1, the mass weight's columns. The
    // turn of M1 at fixed w, of the order of |A| against the mass weight's 1 / (beta dt^2), is
    // left out of the tangent (its central differences cost twelve mass evaluations per body
    // and iteration; without them the Newton iterations are the same, 18 000 on a moored body
    // in waves over 6000 steps).
    const T wa = T(0) - alpha_f * wm;
    if (on_parent(bi)) {
      pinned_inertia_tangent(s, bi, dM, mass, J, wa, T(0));
      continue;
    }
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) {
        const Index ri = body_row(bi, i), cj = body_row(bi, j);
        if (ri >= 0 && cj >= 0) J->add(ri, cj, wa * dM(i, j));
      }
  }
}

template <class T>
inline bool MooringSystem<T>::hold_inertia(const State& s) const {
  require_numbered();
  bool any = false;
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    if (!lines_[l].model.hermite() || !live_line(l)) continue;
    line_gather(s, static_cast<int>(l), 0, wx_[l]);
    lines_[l].model.hermite_masses(wx_[l], held_mass_[l]);
    any = true;
  }
  mass_held_ = any;
  return any;
}

template <class T>
inline void MooringSystem<T>::check_state(const State& s) const {
  auto check = [&](Index i) {
    if (!is_finite(s.q(i)) || !is_finite(s.v(i)))
      throw SolveError(name_, describe_dof(i) + " position or velocity", "non-finite", "finite");
  };
  if (active_ >= 0 && s.q.size() == n_dofs_) {
    for (Index i : comp_dofs_[static_cast<std::size_t>(active_)]) check(i);
  } else {
    for (Index i = 0; i < s.q.size(); ++i) check(i);
  }
  tensile_check(s, false);
  // A point with a volume above the still water: its buoyancy rho V g is taken whole, so its
  // partial immersion is not modelled (lines lose their buoyancy above it: LineModel).
  for (std::size_t p = 0; p < points_.size(); ++p) {
    if (!(value_of(points_[p].volume) > 0) || points_[p].kind == PointKind::body || !live_point(p)) continue;
    const double z = static_cast<double>(value_of(point_position(s, static_cast<int>(p))(2)));
    if (z > 0)
      throw NotImplementedError("Point " + std::to_string(p + 1) + " (" + points_[p].name + ")",
                                "height above the still water", z,
                                "<= 0 for a point with a volume (its buoyancy at the surface is not modelled yet)");
  }
}

template <class T>
inline void MooringSystem<T>::set_tensile_safety(bool on, double eps) {
  if (!(eps > 0 && std::isfinite(eps))) throw InputError(name_, "tensile_strain_tolerance", eps, "> 0");
  if constexpr (!std::is_same_v<T, double>) {
    if (on) throw NotImplementedError(name_, "tensile_safety", "True", "in double (the audit is double only)");
  }
  tensile_ = on;
  tensile_eps_ = eps;
  std::size_t ne = 0;
  for (const auto& L : lines_) ne = std::max(ne, L.model.n_elements());
  audit_work_.reserve(ne);
}

template <class T>
inline void MooringSystem<T>::tensile_check(const State& s, bool static_band) const {
  if constexpr (std::is_same_v<T, double>) {
    if (!tensile_) return;
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const auto& m = lines_[l].model;
      if (!m.hermite() || !live_line(l)) continue;
      line_gather(s, static_cast<int>(l), 0, wx_[l]);
      if (const auto ev = tensile_audit(m, wx_[l], tensile_eps_, static_band, &audit_work_))
        throw SolveError(
            "Line " + std::to_string(l + 1) + " (" + m.name() + ") element " + std::to_string(ev->element + 1),
            "tensile_safety: three-element mean axial force [N]", ev->force, ">= -" + to_text(ev->threshold) + " N");
    }
  } else {
    (void)s;
    (void)static_band;
  }
}

template <class T>
inline double MooringSystem<T>::force_scale(const State& s) const {
  double scale = 1;
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    if (!live_line(l)) continue;
    scale = std::max(scale, std::fabs(static_cast<double>(value_of(lines_[l].model.weight()))));
    for (int e = 0; e < 2; ++e) {
      const Vec3<T> f = line_end_force(s, static_cast<int>(l), e);
      for (int c = 0; c < 3; ++c) scale = std::max(scale, std::fabs(static_cast<double>(value_of(f(c)))));
    }
  }
  for (std::size_t p = 0; p < points_.size(); ++p) {
    if (!live_point(p)) continue;
    const Vec3<T> f = point_static_load(static_cast<int>(p));
    for (int c = 0; c < 3; ++c) scale = std::max(scale, std::fabs(static_cast<double>(value_of(f(c)))));
  }
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    if (!live_body(b)) continue;
    const auto& B = bodies_[b];
    scale = std::max(scale, std::fabs(static_cast<double>(value_of(body_rigid_mass(B).m))) * env_.g);
    scale = std::max(scale, std::fabs(static_cast<double>(value_of(B.volume))) * env_.g * env_.rho_w);
    for (int c = 0; c < 3; ++c) scale = std::max(scale, std::fabs(static_cast<double>(value_of(B.force(c)))));
  }
  return scale;
}

}  // namespace cabledyn
