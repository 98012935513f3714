// cabledyn: the load model of a mooring system: the static residual, the dynamic force r(q, v) and
// the inertia M a with their tangents into the bordered Jacobian; each line's load model
// (LineModel) routed onto the system's DOFs (Router: free points, bodies, clamped
// tangents), the free points' loads and seabed contact, the bodies' own loads and their
// tangents, the end springs and direction joints' rolls.
// Spec "Static equilibrium" (R = f_int - f_ext on every free DOF), "Time integration"
// (M a + r = 0), "Attached objects and line ends" (a free point's weight, buoyancy, drag and
// added mass; a body's loads and the lines' end loads with their lever moments), "Seabed
// contact" (a point's footprint), "End connections (Hermite lines)", "Direction joints".
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
T MooringSystem<T>::point_footprint(int p) const {
  using std::cbrt;
  const auto& P = points_[static_cast<std::size_t>(p)];
  const T V = value_of(P.volume) > 0 ? P.volume : T(P.mass / T(7850));
  if (!(value_of(V) > 0)) return T(0);
  const T c = cbrt(V);
  return c * c;
}

template <class T>
inline NodalContact<T> MooringSystem<T>::point_contact(int p, const T& z, const T& vz) const {
  if (!seabed_.z) return NodalContact<T>{};
  const T A = point_footprint(p);
  if (!(value_of(A) > 0)) return NodalContact<T>{};
  return seabed_contact<T, T>(z, vz, *seabed_.z, A, T(1), seabed_.params);
}

template <class T>
inline void MooringSystem<T>::dynamic_residual(const SystemState<T>& s, VecX<T>& R, BorderedJacobian<T>* J, const T& wq,
                                               const T& wv) const {
  using std::sqrt;
  require_numbered();
  zero_rows(R);
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    if (!live_line(l)) continue;
    const int li = static_cast<int>(l);
    line_gather(s, li, 0, wx_[l]);
    line_gather(s, li, 1, wv_[l]);
    Router route = router(s, li, J, wq);
    lines_[l].model.dynamic_residual(wx_[l], wv_[l], line_fluid(l), wr_[l], J ? &route : nullptr, wq, wv);
    scatter(route, wr_[l], R);
  }
  add_end_springs(s, R, J, wq);
  add_joint_rolls(s, s.q, R, J, wq);
  for (std::size_t p = 0; p < points_.size(); ++p) {
    const Index d = point_dof_[p];
    if (d < 0 || !live_point(p)) continue;
    const auto& P = points_[p];
    R.template segment<3>(d) -= point_static_load(static_cast<int>(p));
    const auto c = point_contact(static_cast<int>(p), s.q(d + 2), s.v(d + 2));
    R(d + 2) -= c.f;
    if (J && (value_of(c.df_dz) != 0 || value_of(c.df_dvz) != 0)) J->add(d + 2, d + 2, -(wq * c.df_dz + wv * c.df_dvz));
    if (holds_fluid()) R.template segment<3>(d) -= point_fluid_inertia(static_cast<int>(p));
    if (P.CdA > 0) {
      const Vec3<T> ur =
          point_fluid_velocity(static_cast<int>(p)).template cast<T>() - Vec3<T>(s.v.template segment<3>(d));
      const T un = sqrt(ur.squaredNorm());
      const T k = T(0.5 * env_.rho_w * P.CdA);
      R.template segment<3>(d) -= k * un * ur;
      if (J && value_of(un) > 0) {
        // d(-k |u| u)/dv = k (|u| I + u u^T / |u|) (u = U - v).
        J->add3(d, d, Mat3<T>(wv * k * (un * Mat3<T>::Identity() + ur * ur.transpose() / un)));
      }
    }
  }
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const int bi = static_cast<int>(b);
    if (body_dof_[b] < 0 || bodies_[b].joint || !live_body(b)) continue;  // a joint has no loads of its own
    auto own = [&](const VecX<T>& q, const VecX<T>& v) {
      Vec3<T> rb;
      Mat3<T> Rb;
      pose_of(bi, q, s.R, rb, Rb);
      const Vec6<T> m = motion_at(bi, q, v, nullptr, s.R, 1);
      const Vec3<T> vb = m.template head<3>(), w = m.template tail<3>();
      Vec6<T> f = body_velocity_terms<T>(bodies_[b], Rb, w) - body_external_load<T>(bodies_[b], rb, Rb, vb, w, env_,
                                                                                    seabed_.z, seabed_.params, current_,
                                                                                    true, body_fluid(bi));
      // A body pinned on a parent: its pin's centripetal acceleration, a velocity term.
      if (on_parent(bi)) f += pin_velocity_terms(bi, q, v, s.R, body_mass_at(bi, rb, Rb));
      return f;
    };
    add_body_rows(bi, own(s.q, s.v), R, pin_arm(bi, s.q, s.R));
    if (J) body_own_tangent(s, bi, own, J, wq, wv);
  }
}

template <class T>
inline void MooringSystem<T>::inertia(const SystemState<T>& s, VecX<T>& Ma, BorderedJacobian<T>* J, const T& wm,
                                      const T& wq) const {
  require_numbered();
  zero_rows(Ma);
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    if (!live_line(l)) continue;
    const int li = static_cast<int>(l);
    line_gather(s, li, 0, wx_[l]);
    line_gather(s, li, 2, wv_[l]);
    Router route = router(s, li, J, wq);
    if (mass_held_ && lines_[l].model.hermite())
      lines_[l].model.held_inertia(held_mass_[l], wv_[l], wr_[l], J ? &route : nullptr, wm);
    else
      lines_[l].model.inertia(wx_[l], wv_[l], wr_[l], J ? &route : nullptr, wm, wq);
    scatter(route, wr_[l], Ma);
  }
  add_joint_rolls(s, s.a, Ma, J, wm, true);  // the roll's inertia
  for (std::size_t p = 0; p < points_.size(); ++p) {
    const Index d = point_dof_[p];
    if (d < 0 || !live_point(p)) continue;
    const T m = point_mass(static_cast<int>(p));
    Ma.template segment<3>(d) += m * s.a.template segment<3>(d);
    if (J) J->add3(d, d, Mat3<T>(wm * m * Mat3<T>::Identity()));
  }
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const int bi = static_cast<int>(b);
    if (body_dof_[b] < 0 || bodies_[b].joint || !live_body(b)) continue;  // a joint has no mass of its own
    auto mass = [&](const VecX<T>& q) { return mass_of(bi, q, s.R); };
    const Mat6<T> M = mass(s.q);
    // A pinned body: its pin's acceleration (on a parent: a_p + alpha_p x rho, the centripetal
    // term among the velocity terms).
    const Vec6<T> acc = motion_at(bi, s.q, s.v, &s.a, s.R, 2, false);
    if (on_parent(bi)) {
      add_body_rows(bi, mul6<T>(M, acc), Ma, pin_arm(bi, s.q, s.R));
      if (J) pinned_inertia_tangent(s, bi, M, mass, J, wm, wq);
      continue;
    }
    add_body_rows(bi, mul6<T>(M, acc), Ma);
    if (J) {
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) {
          const Index ri = body_row(bi, i), cj = body_row(bi, j);
          if (ri >= 0 && cj >= 0) J->add(ri, cj, wm * M(i, j));
        }
      // d(M a)/dq: M turns with the body and its added mass changes with the immersion.
      auto Mq = [&](const VecX<T>& q, const VecX<T>&) { return mul6<T>(mass(q), acc); };
      body_own_tangent(s, bi, Mq, J, wq, T(0));
    }
  }
}

template <class T>
inline void MooringSystem<T>::static_residual(const SystemState<T>& s, VecX<T>& R, BorderedJacobian<T>* J,
                                              double compression_ratio) const {
  require_numbered();
  R.setZero(n_dofs_);
  if (J) J->set_zero();
  VecX<T> x, Rl;
  const Vec3<double>* U = static_current();
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    const int li = static_cast<int>(l);
    line_gather(s, li, 0, x);
    Router route = router(s, li, J, T(1));
    line_static(li, x, Rl, J ? &route : nullptr, compression_ratio);
    scatter(route, Rl, R);
  }
  add_end_springs(s, R, J, T(1));
  add_joint_rolls(s, s.q, R, J, T(1));
  for (std::size_t p = 0; p < points_.size(); ++p) {
    const Index d = point_dof_[p];
    if (d < 0) continue;
    R.template segment<3>(d) -= point_static_load(static_cast<int>(p));
    if ((U || current_field_) && points_[p].CdA > 0) {
      // The current's drag on the point at rest, 1/2 rho CdA |U| U: the uniform current, or
      // the field at the point's position.
      const Vec3<double> Up = U ? *U : current_field_(value3(Vec3<T>(s.q.template segment<3>(d))));
      const Vec3<T> f = (0.5 * env_.rho_w * points_[p].CdA * Up.norm()) * Up.template cast<T>();
      R.template segment<3>(d) -= f;
    }
    const auto c = point_contact(static_cast<int>(p), s.q(d + 2), T(0));
    R(d + 2) -= c.f;
    if (J && value_of(c.df_dz) != 0) J->add(d + 2, d + 2, -c.df_dz);
  }
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const int bi = static_cast<int>(b);
    if (body_dof_[b] < 0 || bodies_[b].joint) continue;  // a joint has no loads of its own
    auto own = [&](const VecX<T>& q, const VecX<T>&) {
      Vec3<T> rb;
      Mat3<T> Rb;
      pose_of(bi, q, s.R, rb, Rb);
      const Vec3<T> z3 = Vec3<T>::Zero();
      // With a current, the loads at rest include its drag (the dynamic loads at zero
      // velocity: the seabed damper then acts on vz = 0, nothing). A current field is
      // sampled at the reference point, the lumps and the rods' stations and ends at this
      // pose (BodyFluid's sites), as a held fluid at rest: no acceleration, no pressure.
      if (current_field_) {
        const auto& B = bodies_[b];
        const std::size_t n = body_fluid_sites(B);
        field_u_.resize(n);
        field_a_.assign(n, Vec3<double>::Zero());
        field_p_.assign(n, 0.0);
        std::size_t site = 0;
        for_each_body_fluid_site<T>(
            B, rb, Rb, [&](const Vec3<T>& arm) { field_u_[site++] = current_field_(value3(Vec3<T>(rb + arm))); });
        return Vec6<T>(-body_external_load<T>(B, rb, Rb, z3, z3, env_, seabed_.z, seabed_.params, current_, true,
                                              BodyFluid{field_u_.data(), field_a_.data(), field_p_.data()}));
      }
      return Vec6<T>(
          -body_external_load<T>(bodies_[b], rb, Rb, z3, z3, env_, seabed_.z, seabed_.params, current_, U != nullptr));
    };
    add_body_rows(bi, own(s.q, s.v), R, pin_arm(bi, s.q, s.R));
    if (J) body_own_tangent(s, bi, own, J, T(1), T(0));
  }
}

template <class T>
inline void MooringSystem<T>::add_end_springs(const State& s, VecX<T>& R, BorderedJacobian<T>* J, const T& wq) const {
  for (std::size_t l = 0; l < lines_.size(); ++l)
    for (int e = 0; e < 2; ++e) {
      const auto& L = lines_[l];
      if (!(L.spring_k[e] > 0) || !live_line(l)) continue;
      const Index dm = clamp_dof(l, e);
      const Vec3<T> m = s.q.template segment<3>(dm), d = clamp_direction(s, static_cast<int>(l), e);
      Vec3<T> g;
      Mat3<T> H;
      end_spring<T>(m, d, L.spring_k[e], &g, &H, "system end spring");
      R.template segment<3>(dm) += g;
      const auto& P = points_[static_cast<std::size_t>(L.point[e])];
      const Index rd = P.kind == PointKind::body ? body_row(P.body, 3) : Index(-1);
      if (rd >= 0) R.template segment<3>(rd) -= m.cross(g);
      if (!J) continue;
      J->add3(dm, dm, Mat3<T>(wq * H));
      if (rd < 0) continue;
      const Mat3<T> Jl = so3_left_jacobian<T>(Vec3<T>(s.q.template segment<3>(rd)));
      const Mat3<T> Sm = skew<T>(m), Sg = skew<T>(g);
      const Mat3<T> Gt = (H * Sm - Sg) * Jl;  // dg/dtheta
      J->add3(dm, rd, Mat3<T>(wq * Gt));
      J->add3(rd, dm, Mat3<T>(wq * (Sg - Sm * H)));
      J->add3(rd, rd, Mat3<T>(-wq * Sm * Gt));
    }
}

template <class T>
inline void MooringSystem<T>::add_joint_rolls(const State& s, const VecX<T>& x, VecX<T>& R, BorderedJacobian<T>* J,
                                              const T& w, bool inertia) const {
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    if (!bodies_[b].joint || !live_body(b)) continue;
    const Index rd = body_row(static_cast<int>(b), 3);
    if (rd < 0) continue;
    const Vec3<T> d = (s.R.empty() ? bodies_[b].R : s.R[b]).col(2);
    const T k = T(inertia ? joint_m_[b] : joint_k_[b]);
    const T c = k * d.dot(Vec3<T>(x.template segment<3>(rd)));
    R.template segment<3>(rd) += c * d;
    if (J) J->add3(rd, rd, Mat3<T>((w * k) * d * d.transpose()));
  }
}

template <class T>
inline auto MooringSystem<T>::router(const State& s, int l, BorderedJacobian<T>* J, const T& wq) const -> Router {
  Router r;
  r.sys = this;
  r.line = l;
  r.J = J;
  const auto& L = lines_[static_cast<std::size_t>(l)];
  r.n = L.model.n_slots();
  r.sb = L.model.position_slot(L.model.n_nodes() - 1);
  r.wq = wq;
  for (int e = 0; e < 2; ++e) {
    const auto& P = points_[static_cast<std::size_t>(L.point[e])];
    const Index rd = P.kind == PointKind::body ? body_row(P.body, 3) : Index(-1);
    if (L.clamped[e]) {
      EndLink& t = r.tang[e];
      r.ts[e] = tangent_slot(L.model, e);
      t.kind = 3;
      t.dof = clamp_dof(static_cast<std::size_t>(l), e);
      t.d = clamp_direction(s, l, e);
      if (rd >= 0) {
        t.rdof = rd;
        t.S = skew<T>(Vec3<T>(s.q(t.dof) * t.d));
        t.Jl = so3_left_jacobian<T>(Vec3<T>(s.q.template segment<3>(rd)));
        t.G = -t.S * t.Jl;
      }
    }
    EndLink& k = r.ends[e];
    if (P.kind == PointKind::body) {
      if (rd < 0) continue;
      const Vec3<T> th = s.q.template segment<3>(rd);
      const Vec3<T> rho = so3_exp<T>(th) * s.R[static_cast<std::size_t>(P.body)] * P.r;
      k.kind = 2;
      k.dof = body_row(P.body, 0);
      k.rdof = rd;
      k.S = skew<T>(rho);
      k.G = -k.S * so3_left_jacobian<T>(th);
    } else if (point_dof_[static_cast<std::size_t>(L.point[e])] >= 0) {
      k.kind = 1;
      k.dof = point_dof_[static_cast<std::size_t>(L.point[e])];
    }
  }
  return r;
}

template <class T>
inline void MooringSystem<T>::scatter(const Router& route, const VecX<T>& Rl, VecX<T>& R) const {
  const auto n = static_cast<Index>(route.n), sb = static_cast<Index>(route.sb);
  // The interior slots, contiguous in the line's block (line_gather's layout).
  const Index off = block_offset_[static_cast<std::size_t>(route.line)];
  R.segment(off, 3 * (sb - 1)) += Rl.segment(3, 3 * (sb - 1));
  R.segment(off + 3 * (sb - 1), 3 * (n - sb - 1)) += Rl.segment(3 * (sb + 1), 3 * (n - sb - 1));
  for (int e = 0; e < 2; ++e) {
    const EndLink& k = route.ends[e];
    if (k.kind == 0) continue;
    const Vec3<T> f = Rl.template segment<3>(static_cast<Index>(3 * (e == 0 ? 0 : sb)));
    if (k.dof >= 0) R.template segment<3>(k.dof) += f;
    if (k.kind == 2) {
      R.template segment<3>(k.rdof) += k.S * f;
      if (route.J) route.J->add3(k.rdof, k.rdof, Mat3<T>(route.wq * skew<T>(f) * (-k.G)));
    }
  }
  for (int e = 0; e < 2; ++e) {
    const EndLink& k = route.tang[e];
    if (k.kind != 3) continue;
    const Vec3<T> g = Rl.template segment<3>(static_cast<Index>(3 * route.ts[e]));
    // The block holds only this line's rows: the copy above is replaced.
    R.template segment<3>(k.dof) = Vec3<T>(k.d.dot(g), T(0), T(0));
    if (k.rdof >= 0) {
      R.template segment<3>(k.rdof) += k.S * g;
      if (route.J) {
        route.J->add3(k.rdof, k.rdof, Mat3<T>(route.wq * skew<T>(g) * (-k.G)));
        const Vec3<T> dg = k.d.cross(g), row = k.Jl.transpose() * dg;
        for (int c = 0; c < 3; ++c) {
          route.J->add(k.dof, k.rdof + c, route.wq * row(c));
          route.J->add(k.rdof + c, k.dof, route.wq * dg(c));
        }
      }
    }
    if (route.J) {
      route.J->add(k.dof + 1, k.dof + 1, T(1));
      route.J->add(k.dof + 2, k.dof + 2, T(1));
    }
  }
}

template <class T>
inline void MooringSystem<T>::zero_rows(VecX<T>& R) const {
  if (active_ < 0 || R.size() != n_dofs_) {
    R.setZero(n_dofs_);
    return;
  }
  for (Index d : comp_dofs_[static_cast<std::size_t>(active_)]) R(d) = T(0);
}

template <class T>
inline auto MooringSystem<T>::spread_vector(const Vec3<T>& rho, const Vec6<T>& f) -> Vec12<T> {
  Vec12<T> g;
  g.template head<6>() = f;
  const Vec3<T> F = f.template head<3>();
  g.template segment<3>(6) = F;
  g.template tail<3>() = rho.cross(F);
  return g;
}

template <class T>
inline void MooringSystem<T>::add_body_rows(int b, const Vec6<T>& f, VecX<T>& R, const Vec3<T>& rho) const {
  if (on_parent(b)) {
    const Vec12<T> g = spread_vector(rho, f);
    for (int i = 0; i < 12; ++i) {
      const Index r = spread_row(b, i);
      if (r >= 0) R(r) += g(i);
    }
    return;
  }
  for (int i = 0; i < 6; ++i) {
    const Index r = body_row(b, i);
    if (r >= 0) R(r) += f(i);
  }
}

template <class T>
template <class F>
inline void MooringSystem<T>::body_own_tangent(const State& s, int b, F&& own, BorderedJacobian<T>* J, const T& wq,
                                               const T& wv) const {
  VecX<T>& q = fdq_;
  VecX<T>& v = fdv_;
  q = s.q;
  v = s.v;
  if (!on_parent(b)) {
    const Index d = body_dof_[static_cast<std::size_t>(b)];
    const int nd = body_ndof(b);
    for (int which = 0; which < 2; ++which) {
      const T& w = which == 0 ? wq : wv;
      if (value_of(w) == 0) continue;
      VecX<T>& x = which == 0 ? q : v;
      for (int k = 0; k < nd; ++k) {
        const bool position = which == 0 && nd == 6 && k < 3;
        const double scale = position ? std::max(1.0, std::fabs(static_cast<double>(value_of(x(d + k))))) : 1.0;
        const double h = 1e-6 * scale;
        const T keep = x(d + k);
        x(d + k) = keep + T(h);
        const Vec6<T> fp = own(q, v);
        x(d + k) = keep - T(h);
        const Vec6<T> fm = own(q, v);
        x(d + k) = keep;
        const Vec6<T> col = (fp - fm) / T(2 * h);
        for (int i = 0; i < 6; ++i) {
          const Index r = body_row(b, i);
          if (r >= 0 && (value_of(col(i)) != 0 || is_dual_v<T>)) J->add(r, d + k, w * col(i));
        }
      }
    }
    return;
  }
  // A body pinned on a parent: the parent's DOFs' columns too, and the parent's rows its
  // pin passes the force to (spread_vector, the arm turning with the parent).
  const int p = bodies_[static_cast<std::size_t>(b)].parent;
  const Index cols[2] = {body_dof_[static_cast<std::size_t>(b)], body_dof_[static_cast<std::size_t>(p)]};
  const int ncols[2] = {body_ndof(b), body_ndof(p)};
  for (int which = 0; which < 2; ++which) {
    const T& w = which == 0 ? wq : wv;
    if (value_of(w) == 0) continue;
    VecX<T>& x = which == 0 ? q : v;
    for (int c = 0; c < 2; ++c) {
      if (cols[c] < 0) continue;
      for (int k = 0; k < ncols[c]; ++k) {
        const Index j = cols[c] + k;
        const bool position = which == 0 && ncols[c] == 6 && k < 3;
        const double scale = position ? std::max(1.0, std::fabs(static_cast<double>(value_of(x(j))))) : 1.0;
        const double h = 1e-6 * scale;
        const T keep = x(j);
        x(j) = keep + T(h);
        const Vec12<T> gp = spread_vector(pin_arm(b, q, s.R), own(q, v));
        x(j) = keep - T(h);
        const Vec12<T> gm = spread_vector(pin_arm(b, q, s.R), own(q, v));
        x(j) = keep;
        const Vec12<T> col = (gp - gm) / T(2 * h);
        for (int i = 0; i < 12; ++i) {
          const Index r = spread_row(b, i);
          if (r >= 0 && (value_of(col(i)) != 0 || is_dual_v<T>)) J->add(r, j, w * col(i));
        }
      }
    }
  }
}

template <class T>
template <class MassAt>
inline void MooringSystem<T>::pinned_inertia_tangent(const State& s, int b, const Mat6<T>& M, MassAt&& mass,
                                                     BorderedJacobian<T>* J, const T& wm, const T& wq) const {
  const int p = bodies_[static_cast<std::size_t>(b)].parent;
  const Vec3<T> rho = pin_arm(b, s.q, s.R);
  auto column = [&](Index j, const Vec6<T>& c) {
    const Vec12<T> g = spread_vector(rho, c);
    for (int i = 0; i < 12; ++i) {
      const Index r = spread_row(b, i);
      if (r >= 0) J->add(r, j, wm * g(i));
    }
  };
  for (int k = 0; k < 3; ++k) column(body_row(b, 3 + k), Vec6<T>(M.col(3 + k)));
  const Mat3<T> S = skew<T>(rho);
  for (int k = 0; k < 3; ++k) {
    const Index jt = body_row(p, k), jr = body_row(p, 3 + k);
    if (jt >= 0) column(jt, Vec6<T>(M.col(k)));
    if (jr >= 0) {
      Vec6<T> c = Vec6<T>::Zero();  // -M[:, 0:3] [rho]_x e_k
      for (int i = 0; i < 3; ++i) c -= M.col(i) * S(i, k);
      column(jr, c);
    }
  }
  auto Mq = [&](const VecX<T>& q, const VecX<T>&) {
    return mul6<T>(mass(q), motion_at(b, q, s.v, &s.a, s.R, 2, false));
  };
  body_own_tangent(s, b, Mq, J, wq, T(0));
}

template <class T>
template <class Sink>
inline void MooringSystem<T>::line_static(int l, const VecX<T>& x, VecX<T>& Rl, Sink* sink,
                                          double compression_ratio) const {
  const auto& m = lines_[static_cast<std::size_t>(l)].model;
  if (!current_field_) return m.static_residual(x, Rl, sink, compression_ratio, static_current());
  auto& u = wu_;  // one line at a time: its storage kept from call to call
  u.resize(m.n_nodes());
  for (std::size_t i = 0; i < m.n_nodes(); ++i) {
    const Vec3<T> r = m.node(x, i);
    u[i] = current_field_(Vec3<double>(static_cast<double>(value_of(r(0))), static_cast<double>(value_of(r(1))),
                                       static_cast<double>(value_of(r(2)))));
  }
  LineStaticLoads L;
  L.compression_ratio = compression_ratio;
  L.node_current = u.data();
  m.static_residual(x, Rl, sink, L);
}

}  // namespace cabledyn
