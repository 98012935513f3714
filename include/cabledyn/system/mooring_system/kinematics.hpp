// cabledyn: where the parts of a mooring system are and how they move in a state: line node
// vectors gathered from the free DOFs and the held points, points on bodies, body poses
// and motions (a pinned body's about its pin on its parent), clamped end tangents, the
// commit of the bodies' rotation increments, a body's mass matrix at a pose.
// Spec "Rigid-body time integration" (the rotation increment on SO(3), folded at each
// commit), "Attached objects and line ends" (a line end takes its object's motion), "Cables
// clamped to bodies and rods" (m = lambda d, d turning with its object).
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
inline void MooringSystem<T>::commit(State& s) const {
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const Index d = body_row(static_cast<int>(b), 3);
    if (d < 0 || !live_body(b)) continue;
    const Vec3<T> th = s.q.template segment<3>(d);
    if (th.squaredNorm() == T(0)) continue;
    Mat3<T> R = so3_exp<T>(th) * s.R[b];
    // Re-orthonormalise against drift over many steps (one Newton-Schulz step).
    R = T(1.5) * R - T(0.5) * R * R.transpose() * R;
    s.R[b] = R;
    s.q.template segment<3>(d).setZero();
  }
}

template <class T>
inline Vec3<T> MooringSystem<T>::clamp_direction(const State& s, int l, int end) const {
  const auto& L = lines_[static_cast<std::size_t>(l)];
  const auto& P = points_[static_cast<std::size_t>(L.point[end])];
  if (P.kind != PointKind::body) return L.clamp_dir[end];
  Vec3<T> rb;
  Mat3<T> Rb;
  body_pose(s, P.body, rb, Rb);
  return Rb * L.clamp_dir[end];
}

template <class T>
inline Vec3<T> MooringSystem<T>::node_tangent(const State& s, int l, std::size_t i) const {
  const auto& L = lines_.at(static_cast<std::size_t>(l));
  const Index d = tangent_dof(l, i);
  const int e = clamped_end_of(L, i);
  if (e < 0) return s.q.template segment<3>(d);
  return s.q(d) * clamp_direction(s, l, e);
}

template <class T>
inline void MooringSystem<T>::set_node_tangent(State& s, int l, std::size_t i, const Vec3<T>& m) const {
  const auto& L = lines_.at(static_cast<std::size_t>(l));
  const Index d = tangent_dof(l, i);
  const int e = clamped_end_of(L, i);
  if (e < 0) {
    s.q.template segment<3>(d) = m;
    return;
  }
  const T lam = m.dot(clamp_direction(s, l, e));
  const T floor = T(1e-3) * sqrt_or_zero(T(m.squaredNorm()));
  s.q(d) = value_of(lam) > value_of(floor) ? lam : floor;
  s.q(d + 1) = T(0);
  s.q(d + 2) = T(0);
}

template <class T>
inline Vec3<T> MooringSystem<T>::point_motion(const SystemState<T>& s, int p, int which) const {
  const Index d = point_dof(p);
  const auto& P = points_[static_cast<std::size_t>(p)];
  if (P.kind == PointKind::body) return body_point_motion(s, P, which);
  if (d >= 0) return (which == 0 ? s.q : which == 1 ? s.v : s.a).template segment<3>(d);
  return which == 0 ? P.r : which == 1 ? P.v : P.a;
}

template <class T>
inline Mat6<T> MooringSystem<T>::body_mass_at(int b, const Vec3<T>& rb, const Mat3<T>& Rb) const {
  const auto& B = bodies_[static_cast<std::size_t>(b)];
  const Vec3<T> cb = Rb * B.cb;
  const T phi = body_immersion<T>(B, T(rb(2) + cb(2)), env_).phi;
  return body_mass_matrix<T>(B, rb, Rb, phi, env_);
}

template <class T>
inline void MooringSystem<T>::line_gather(const State& s, int l, int which, VecX<T>& x) const {
  const VecX<T>& free = which == 0 ? s.q : which == 1 ? s.v : s.a;
  const auto li = static_cast<std::size_t>(l);
  const auto& L = lines_[li];
  const auto n = static_cast<Index>(L.model.n_slots()),
             sb = static_cast<Index>(L.model.position_slot(L.model.n_nodes() - 1));
  x.resize(L.model.size());
  // The line's block holds its slots but the two end positions, in order: slots 1 .. sb - 1,
  // then sb + 1 .. n - 1 (a Hermite line's End B tangent).
  const Index off = block_offset_[li];
  x.segment(3, 3 * (sb - 1)) = free.segment(off, 3 * (sb - 1));
  x.segment(3 * (sb + 1), 3 * (n - sb - 1)) = free.segment(off + 3 * (sb - 1), 3 * (n - sb - 1));
  for (int e = 0; e < 2; ++e) {
    const Index k = e == 0 ? 0 : sb, d = point_dof_[static_cast<std::size_t>(L.point[e])];
    x.template segment<3>(3 * k) = d >= 0 ? Vec3<T>(free.template segment<3>(d)) : point_motion(s, L.point[e], which);
  }
  // A clamped end's tangent m = lambda d (d = R d0 turning with its object): its velocity
  // lambda' d + lambda w x d and acceleration lambda'' d + 2 lambda' w x d + lambda (alpha x d
  // + w x (w x d)).
  for (int e = 0; e < 2; ++e) {
    if (!L.clamped[e]) continue;
    const Index k = 3 * (e == 0 ? 1 : n - 1), d = clamp_dof(li, e);
    const Vec3<T> dir = clamp_direction(s, l, e);
    if (which == 0) {
      x.template segment<3>(k) = s.q(d) * dir;
      continue;
    }
    const Vec3<T> w = clamp_spin(s, L, e, 1), wd = w.cross(dir);
    if (which == 1) {
      x.template segment<3>(k) = s.v(d) * dir + s.q(d) * wd;
    } else {
      const Vec3<T> al = clamp_spin(s, L, e, 2);
      x.template segment<3>(k) = s.a(d) * dir + (T(2) * s.v(d)) * wd + s.q(d) * Vec3<T>(al.cross(dir) + w.cross(wd));
    }
  }
}

template <class T>
inline Vec3<T> MooringSystem<T>::body_point_motion(const State& s, const PointModel<T>& P, int which) const {
  Vec3<T> rb;
  Mat3<T> Rb;
  body_pose(s, P.body, rb, Rb);
  const Vec3<T> rho = Rb * P.r;
  if (which == 0) return rb + rho;
  const Vec6<T> m = body_motion(s, P.body, 1);
  const Vec3<T> w = m.template tail<3>();
  if (which == 1) return Vec3<T>(m.template head<3>() + w.cross(rho));
  const Vec6<T> acc = body_motion(s, P.body, 2);
  return Vec3<T>(acc.template head<3>() + Vec3<T>(acc.template tail<3>()).cross(rho) + w.cross(Vec3<T>(w.cross(rho))));
}

template <class T>
inline void MooringSystem<T>::pose_of(int b, const VecX<T>& q, const std::vector<Mat3<T>>& Rs, Vec3<T>& r,
                                      Mat3<T>& R) const {
  const auto& B = bodies_[static_cast<std::size_t>(b)];
  const Index d = body_dof_[static_cast<std::size_t>(b)];
  if (d < 0) {
    r = B.r;
    R = B.R;
    return;
  }
  const Index rd = body_row(b, 3);
  R = so3_exp<T>(Vec3<T>(q.template segment<3>(rd))) * (Rs.empty() ? B.R : Rs[static_cast<std::size_t>(b)]);
  if (body_ndof(b) == 6) {
    r = q.template segment<3>(d);
  } else if (on_parent(b)) {
    Vec3<T> rp;
    Mat3<T> Rp;
    pose_of(B.parent, q, Rs, rp, Rp);
    r = rp + Rp * B.pin;
  } else {
    r = B.r;
  }
}

template <class T>
inline Vec3<T> MooringSystem<T>::pin_arm(int b, const VecX<T>& q, const std::vector<Mat3<T>>& Rs) const {
  if (!on_parent(b)) return Vec3<T>::Zero();
  const auto& B = bodies_[static_cast<std::size_t>(b)];
  Vec3<T> rp;
  Mat3<T> Rp;
  pose_of(B.parent, q, Rs, rp, Rp);
  return Rp * B.pin;
}

template <class T>
inline Vec6<T> MooringSystem<T>::motion_at(int b, const VecX<T>& q, const VecX<T>& v, const VecX<T>* a,
                                           const std::vector<Mat3<T>>& Rs, int which, bool centripetal) const {
  Vec6<T> m = motion_of(b, which == 1 ? v : *a, which);
  if (!on_parent(b)) return m;
  const int p = bodies_[static_cast<std::size_t>(b)].parent;
  const Vec3<T> rho = pin_arm(b, q, Rs);
  const Vec6<T> vp = motion_of(p, v, 1);
  const Vec3<T> wp = vp.template tail<3>();
  if (which == 1) {
    m.template head<3>() = vp.template head<3>() + wp.cross(rho);
    return m;
  }
  const Vec6<T> ap = motion_of(p, *a, 2);
  m.template head<3>() = ap.template head<3>() + Vec3<T>(ap.template tail<3>()).cross(rho);
  if (centripetal) m.template head<3>() += wp.cross(Vec3<T>(wp.cross(rho)));
  return m;
}

template <class T>
inline Vec6<T> MooringSystem<T>::pin_velocity_terms(int b, const VecX<T>& q, const VecX<T>& v,
                                                    const std::vector<Mat3<T>>& Rs, const Mat6<T>& M) const {
  if (!on_parent(b)) return Vec6<T>::Zero();
  const Vec3<T> rho = pin_arm(b, q, Rs);
  const Vec3<T> wp = motion_of(bodies_[static_cast<std::size_t>(b)].parent, v, 1).template tail<3>();
  Vec6<T> c = Vec6<T>::Zero();
  c.template head<3>() = wp.cross(Vec3<T>(wp.cross(rho)));
  return mul6<T>(M, c);
}

template <class T>
inline Vec6<T> MooringSystem<T>::motion_of(int b, const VecX<T>& x, int which) const {
  const auto& B = bodies_[static_cast<std::size_t>(b)];
  const int nd = body_ndof(b);
  Vec6<T> m;
  if (nd == 6) return x.template segment<6>(body_dof_[static_cast<std::size_t>(b)]);
  m.template head<3>() = which == 1 ? B.v : B.a;
  if (nd == 3)
    m.template tail<3>() = x.template segment<3>(body_dof_[static_cast<std::size_t>(b)]);
  else
    m.template tail<3>() = which == 1 ? B.w : B.alpha;
  return m;
}

}  // namespace cabledyn
