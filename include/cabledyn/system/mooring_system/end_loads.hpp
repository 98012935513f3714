// cabledyn: the loads the lines of a mooring system exert on its objects: a line's static and
// dynamic end forces and node forces, the moments of clamped and spring ends, a body's line
// load, and the reactions a Coupled point or body (or CoupledPinned one) returns to its host.
// Spec "Tension and coupled loads" (the reaction -(M a + r) at the prescribed DOFs),
// "Attached objects and line ends" (a CoupledPinned node's force), "Cables clamped to bodies
// and rods" (the connection moment m x g_m).
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
inline Vec6<T> MooringSystem<T>::body_line_load(const State& s, int b, bool dynamic) const {
  Vec3<T> rb;
  Mat3<T> Rb;
  body_pose(s, b, rb, Rb);
  Vec6<T> F = Vec6<T>::Zero();
  for (std::size_t l = 0; l < lines_.size(); ++l)
    for (int e = 0; e < 2; ++e) {
      const auto& P = points_[static_cast<std::size_t>(lines_[l].point[e])];
      if (P.kind != PointKind::body || P.body != b) continue;
      const Vec3<T> f =
          dynamic ? line_end_force_dynamic(s, static_cast<int>(l), e) : line_end_force(s, static_cast<int>(l), e);
      F.template head<3>() += f;
      F.template tail<3>() += Vec3<T>(Rb * P.r).cross(f) + line_end_moment(s, static_cast<int>(l), e, dynamic);
    }
  return F;
}

template <class T>
inline Vec3<T> MooringSystem<T>::line_end_moment(const State& s, int l, int end, bool dynamic) const {
  const auto li = static_cast<std::size_t>(l);
  const auto& L = lines_[li];
  if (L.spring_k[end] > 0) {
    const Vec3<T> m = s.q.template segment<3>(clamp_dof(li, end));
    Vec3<T> g;
    end_spring<T>(m, clamp_direction(s, l, end), L.spring_k[end], &g, nullptr, "system end spring");
    return m.cross(g);
  }
  if (!L.clamped[end]) return Vec3<T>::Zero();
  const Index k = static_cast<Index>(3 * tangent_slot(L.model, end));
  if (!dynamic) {
    VecX<T> x, Rl;
    line_gather(s, l, 0, x);
    line_static<Router>(l, x, Rl, nullptr, -1);
    return Vec3<T>(x.template segment<3>(k)).cross(Vec3<T>(-Rl.template segment<3>(k)));
  }
  line_gather(s, l, 0, wx_[li]);
  line_gather(s, l, 1, wv_[li]);
  line_gather(s, l, 2, wr_[li]);
  Vec3<T> t;
  L.model.end_load(wx_[li], wv_[li], wr_[li], line_fluid(li), end, &t);
  return Vec3<T>(wx_[li].template segment<3>(k)).cross(t);
}

template <class T>
inline Vec6<T> MooringSystem<T>::coupled_reaction(const State& s, int b) const {
  require_numbered();
  const auto& B = bodies_.at(static_cast<std::size_t>(b));
  const bool pin = B.kind == BodyKind::pinned && B.host_pin;
  if (!(B.kind == BodyKind::coupled || pin))
    throw InputError("Body " + std::to_string(b + 1) + " (" + B.name + ")", "attachment", "not coupled",
                     "a Coupled or CoupledPinned body");
  Vec3<T> rb;
  Mat3<T> Rb;
  body_pose(s, b, rb, Rb);
  const Vec6<T> vel = motion_of(b, s.v, 1), acc = motion_of(b, s.a, 2);
  const Vec3<T> w = vel.template tail<3>();
  const Mat6<T> M = body_mass_at(b, rb, Rb);
  const Vec6<T> own = body_velocity_terms<T>(B, Rb, w) -
                      body_external_load<T>(B, rb, Rb, Vec3<T>(vel.template head<3>()), w, env_, seabed_.z,
                                            seabed_.params, current_, true, body_fluid(b));
  const Vec6<T> Ma = mul6<T>(M, acc);
  Vec6<T> F = body_line_load(s, b, true);
  for (int k = 0; k < 6; ++k) {
    const T o = own(k) + Ma(k);
    F(k) = F(k) - o;
  }
  // The bodies pinned on it: each passes its net load less its inertia at its pin, its
  // angular acceleration solved again for the current pin acceleration (as a CoupledPinned
  // body's: the moment residual f_M left by the committed alpha moves the force by
  // -M_tr M_rr^-1 f_M).
  for (std::size_t c = 0; c < bodies_.size(); ++c)
    if (on_parent(static_cast<int>(c)) && bodies_[c].parent == b) {
      Vec6<T> f = -pinned_residual(s, static_cast<int>(c));
      Vec3<T> rc;
      Mat3<T> Rc;
      body_pose(s, static_cast<int>(c), rc, Rc);
      resolve_pin_moment(body_mass_at(static_cast<int>(c), rc, Rc), f);
      const Vec3<T> fp = f.template head<3>();
      F.template head<3>() += fp;
      F.template tail<3>() += pin_arm(static_cast<int>(c), s.q, s.R).cross(fp);
    }
  if (pin) resolve_pin_moment(M, F);
  return F;
}

template <class T>
inline Vec6<T> MooringSystem<T>::body_net_load(const State& s, int b) const {
  require_numbered();
  const auto& B = bodies_.at(static_cast<std::size_t>(b));
  if (B.kind == BodyKind::coupled || (B.kind == BodyKind::pinned && B.host_pin)) return coupled_reaction(s, b);
  Vec3<T> rb;
  Mat3<T> Rb;
  body_pose(s, b, rb, Rb);
  const Vec6<T> vel = body_motion(s, b, 1);
  return Vec6<T>(body_line_load(s, b, true) + body_external_load<T>(B, rb, Rb, Vec3<T>(vel.template head<3>()),
                                                                     Vec3<T>(vel.template tail<3>()), env_, seabed_.z,
                                                                     seabed_.params, current_, true, body_fluid(b)));
}

template <class T>
inline void MooringSystem<T>::resolve_pin_moment(const Mat6<T>& M, Vec6<T>& F) {
  Mat3<T> Mrr, Mtr;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) Mrr(i, j) = M(3 + i, 3 + j), Mtr(i, j) = M(i, 3 + j);
  const Mat3<T> Mi = Mrr.inverse();
  Vec3<T> da;
  for (int i = 0; i < 3; ++i) {
    T x = Mi(i, 0) * F(3);
    for (int j = 1; j < 3; ++j) {
      const T p = Mi(i, j) * F(3 + j);
      x = x + p;
    }
    da(i) = x;
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const T p = Mtr(i, j) * da(j);
      F(i) = F(i) - p;
    }
  F.template tail<3>().setZero();
}

template <class T>
inline Vec6<T> MooringSystem<T>::pinned_residual(const State& s, int b) const {
  const auto& B = bodies_[static_cast<std::size_t>(b)];
  Vec3<T> rb;
  Mat3<T> Rb;
  body_pose(s, b, rb, Rb);
  const Vec6<T> vel = body_motion(s, b, 1), acc = body_motion(s, b, 2);
  const Vec3<T> w = vel.template tail<3>();
  const Mat6<T> M = body_mass_at(b, rb, Rb);
  return Vec6<T>(mul6<T>(M, acc) + body_velocity_terms<T>(B, Rb, w) -
                 body_external_load<T>(B, rb, Rb, Vec3<T>(vel.template head<3>()), w, env_, seabed_.z, seabed_.params,
                                       current_, true, body_fluid(b)));
}

template <class T>
inline Vec3<T> MooringSystem<T>::coupled_point_reaction(const State& s, int p) const {
  using std::sqrt;
  require_numbered();
  const auto& P = points_.at(static_cast<std::size_t>(p));
  if (P.kind != PointKind::coupled)
    throw InputError("Point " + std::to_string(p + 1) + " (" + P.name + ")", "attachment", "not Coupled",
                     "a Coupled point");
  Vec3<T> F = Vec3<T>::Zero();
  for (std::size_t l = 0; l < lines_.size(); ++l)
    for (int e = 0; e < 2; ++e)
      if (lines_[l].point[e] == p) F += line_end_force_dynamic(s, static_cast<int>(l), e);
  F += point_static_load(p);  // adds exact zeros for a bare point
  if (holds_fluid()) F += point_fluid_inertia(p);
  if (P.CdA > 0) {
    const Vec3<T> ur = point_fluid_velocity(p).template cast<T>() - P.v;
    const T un = sqrt(ur.squaredNorm());
    const T k = T(0.5 * env_.rho_w * P.CdA);
    F += k * un * ur;
  }
  F -= point_mass(p) * P.a;
  return F;
}

template <class T>
inline Vec3<T> MooringSystem<T>::line_end_force(const SystemState<T>& s, int l, int end) const {
  VecX<T> x, Rl;
  line_gather(s, l, 0, x);
  const auto& L = lines_[static_cast<std::size_t>(l)];
  line_static<Router>(l, x, Rl, nullptr, -1);
  const std::size_t k = L.model.position_slot(end == 0 ? 0 : L.model.n_nodes() - 1);
  return -Rl.template segment<3>(static_cast<Index>(3 * k));
}

template <class T>
inline Vec3<T> MooringSystem<T>::line_end_force_dynamic(const SystemState<T>& s, int l, int end, bool inertia) const {
  const auto li = static_cast<std::size_t>(l);
  line_gather(s, l, 0, wx_[li]);
  line_gather(s, l, 1, wv_[li]);
  if (inertia) line_gather(s, l, 2, wr_[li]);
  return lines_[li].model.end_load(wx_[li], wv_[li], wr_[li], line_fluid(li), end, nullptr, inertia);
}

template <class T>
inline void MooringSystem<T>::line_node_forces(const SystemState<T>& s, int l, VecX<T>& f) const {
  const auto li = static_cast<std::size_t>(l);
  const auto& m = lines_.at(li).model;
  line_gather(s, l, 0, wx_[li]);
  line_gather(s, l, 1, wv_[li]);
  m.dynamic_residual(wx_[li], wv_[li], line_fluid(li), f, static_cast<Router*>(nullptr), T(0), T(0));
  f = -f;
  for (int e = 0; e < 2; ++e)
    f.template segment<3>(3 * static_cast<Index>(m.position_slot(e == 0 ? 0 : m.n_nodes() - 1))) =
        line_end_force_dynamic(s, l, e, false);
}

}  // namespace cabledyn
