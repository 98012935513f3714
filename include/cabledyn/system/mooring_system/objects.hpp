// cabledyn: the objects of a mooring system and its held inputs: adding points, bodies and lines
// with their named checks, the clamped and spring ends of finite-EI lines, the coupled
// points' and bodies' kinematics a host sets, the held kinematics a stepper interpolates, the
// first state.
// Spec "Attached objects and line ends", "Bodies" (a free body's mass and inertia),
// "Cables clamped to bodies and rods", "End connections (Hermite lines)", "Prescribed
// motion".
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
inline int MooringSystem<T>::add_point(PointModel<T> p) {
  const std::string obj = "Point " + std::to_string(points_.size() + 1) + " (" + p.name + ")";
  if (!is_finite(p.r(0)) || !is_finite(p.r(1)) || !is_finite(p.r(2)))
    throw InputError(obj, "position", "non-finite", "finite");
  if (!(value_of(p.mass) >= 0 && is_finite(p.mass))) throw InputError(obj, "mass", value_of(p.mass), ">= 0");
  if (!(value_of(p.volume) >= 0 && is_finite(p.volume))) throw InputError(obj, "volume", value_of(p.volume), ">= 0");
  if (!(p.CdA >= 0) || !(p.Ca >= 0)) throw InputError(obj, "CdA / Ca", std::min(p.CdA, p.Ca), ">= 0");
  points_.push_back(std::move(p));
  numbered_ = false;
  return static_cast<int>(points_.size()) - 1;
}

template <class T>
inline int MooringSystem<T>::add_body(BodyModel<T> b) {
  const std::string obj = "Body " + std::to_string(bodies_.size() + 1) + " (" + b.name + ")";
  for (int c = 0; c < 3; ++c)
    if (!is_finite(b.r(c))) throw InputError(obj, "position", "non-finite", "finite");
  const double orth =
      static_cast<double>(value_of((b.R.transpose() * b.R - Mat3<T>::Identity()).cwiseAbs().maxCoeff()));
  if (!(orth < 1e-9) || !(value_of(b.R.determinant()) > 0))
    throw InputError(obj, "orientation |R^T R - I|", orth, "< 1e-9 with det R = 1 (a rotation)");
  if (!(value_of(b.mass) >= 0 && is_finite(b.mass))) throw InputError(obj, "mass", value_of(b.mass), ">= 0");
  if (!(value_of(b.volume) >= 0 && is_finite(b.volume))) throw InputError(obj, "volume", value_of(b.volume), ">= 0");
  for (int c = 0; c < 3; ++c) {
    if (!(value_of(b.inertia(c)) >= 0 && is_finite(b.inertia(c))))
      throw InputError(obj, "moment of inertia " + std::to_string(c + 1), value_of(b.inertia(c)), ">= 0");
    if (!(b.Ca(c) >= 0)) throw InputError(obj, "Ca", b.Ca(c), ">= 0");
  }
  for (int c = 0; c < 6; ++c)
    if (!(b.CdA(c) >= 0)) throw InputError(obj, "CdA", b.CdA(c), ">= 0");
  for (std::size_t k = 0; k < b.lumps.size(); ++k)
    for (int c = 0; c < 3; ++c)
      if (!is_finite(b.lumps[k].force(c)) || !is_finite(b.lumps[k].p(c)))
        throw InputError(obj + " point " + std::to_string(k + 1), "offset / force", "non-finite", "finite");
  for (const auto& rod : b.rods) {
    const std::string ro = obj + " rod (" + rod.name + ")";
    if (!(value_of(rod.d) > 0)) throw InputError(ro, "diameter", value_of(rod.d), "> 0");
    if (!(value_of(rod.rho_A) >= 0)) throw InputError(ro, "mass per metre", value_of(rod.rho_A), ">= 0");
    if (!(value_of(Vec3<T>(rod.b - rod.a).squaredNorm()) > 0))
      throw InputError(ro, "length", 0.0, "> 0 (a zero-length rod is a point)");
    if (!(rod.Cd >= 0 && rod.Ca >= 0 && rod.CdEnd >= 0 && rod.CaEnd >= 0))
      throw InputError(ro, "Cd / Ca / CdEnd / CaEnd", std::min({rod.Cd, rod.Ca, rod.CdEnd, rod.CaEnd}), ">= 0");
    if (rod.segments < 1) throw InputError(ro, "NumSegs", rod.segments, ">= 1");
  }
  if (b.restoring.any() || value_of(b.restoring.up.squaredNorm()) != 1) {
    const auto& H = b.restoring;
    const double c[3] = {static_cast<double>(value_of(H.C33)), static_cast<double>(value_of(H.C44)),
                         static_cast<double>(value_of(H.C55))};
    const char* names[3] = {"hydrostatic C33", "hydrostatic C44", "hydrostatic C55"};
    for (int k = 0; k < 3; ++k)
      if (!(c[k] >= 0 && std::isfinite(c[k]))) throw InputError(obj, names[k], c[k], ">= 0 and finite");
    const double un = static_cast<double>(value_of(H.up.norm()));
    if (!(std::fabs(un - 1) < 1e-9) || !is_finite(H.z0))
      throw InputError(obj, "hydrostatic reference (|up|, z0)", un, "|up| = 1 and a finite z0 (HydrostaticRestoring::about)");
    if (H.any() && (b.kind == BodyKind::fixed || b.kind == BodyKind::coupled || b.joint))
      throw InputError(obj, "hydrostatic restoring", b.joint ? "on a direction joint" : "on a prescribed body",
                       "a Free or Pinned body (a prescribed body's restoring moves nothing; its host carries it)");
  }
  if (b.joint) {
    if (b.kind != BodyKind::free && b.kind != BodyKind::pinned)
      throw InputError(obj, "attachment of a direction joint", "held or coupled", "Free or Pinned (a joint turns)");
    if (b.host_pin) throw InputError(obj, "attachment of a direction joint", "CoupledPinned", "Free or Pinned");
    const bool bare = value_of(b.mass) == 0 && value_of(b.volume) == 0 && b.rods.empty() && b.lumps.empty() &&
                      b.CdA.isZero() && value_of(b.inertia.squaredNorm()) == 0 &&
                      value_of(b.force.squaredNorm()) == 0 && value_of(b.moment.squaredNorm()) == 0;
    if (!bare)
      throw InputError(obj, "mass, volume, inertia, drag, load, rods or lumps of a direction joint", "nonzero",
                       "none (a joint is a zero-length rod: its inertia is its lines')");
  }
  if (b.parent >= 0) {
    // A body pinned on another (spec: a rod pinned to a body): on an earlier body that is
    // free, held or coupled (not itself pinned: no chains), its pin placed on it.
    if (b.kind != BodyKind::pinned || b.host_pin || b.joint)
      throw InputError(obj, "attachment on a parent body", b.joint ? "a direction joint" : "not Pinned",
                       "a pinned body (a Body<N>Pinned rod)");
    if (b.parent >= static_cast<int>(bodies_.size()))
      throw InputError(obj, "parent body", b.parent + 1, "an earlier body (1.." + std::to_string(bodies_.size()) + ")");
    const auto& P = bodies_[static_cast<std::size_t>(b.parent)];
    if (P.kind == BodyKind::pinned && P.host_pin)
      throw NotImplementedError(obj, "parent body " + std::to_string(b.parent + 1) + " (" + P.name + ")",
                                "CoupledPinned", "rods pinned to a CoupledPinned body");
    if (P.kind == BodyKind::pinned || P.joint)
      throw InputError(obj, "parent body " + std::to_string(b.parent + 1) + " (" + P.name + ")",
                       P.joint ? "a direction joint" : "pinned", "free, fixed or coupled (no chains of pins)");
    for (int c = 0; c < 3; ++c)
      if (!is_finite(b.pin(c))) throw InputError(obj, "pin on the parent body", "non-finite", "finite");
    // The pin where the parent's pose puts it: a reference point given otherwise is refused
    // (zero: not given).
    const Vec3<T> at = P.r + P.R * b.pin;
    const double off = static_cast<double>(value_of(Vec3<T>(b.r - at).norm()));
    if (value_of(b.r.squaredNorm()) != 0 && !(off <= 1e-9 * (1 + static_cast<double>(value_of(at.norm())))))
      throw InputError(
          obj,
          "reference point of a body pinned on body " + std::to_string(b.parent + 1) + " (off the pin on its pose by)",
          off, "0 (r is the pin: leave it zero or give the parent's r + R pin)");
    b.r = at;
  }
  if ((b.kind == BodyKind::free || b.kind == BodyKind::pinned) && !b.joint) {
    // The rigid mass with its rods and points: a free body needs a mass and inertia about
    // every axis through its centre of gravity (its 6 x 6 mass matrix positive definite),
    // a pinned one inertia about every axis through its pin.
    const RigidMass<T> rm = body_rigid_mass(b);
    const double m = static_cast<double>(value_of(rm.m));
    if (b.kind == BodyKind::free && !(m > 0))
      throw InputError(obj, "mass of a free body (rods and points included)", m,
                       "> 0 (a massless body has no equation of motion)");
    Mat3<double> J;
    Vec3<double> h;
    for (int i = 0; i < 3; ++i) {
      h(i) = static_cast<double>(value_of(rm.h(i)));
      for (int j = 0; j < 3; ++j) J(i, j) = static_cast<double>(value_of(rm.J(i, j)));
    }
    if (b.kind == BodyKind::free) J -= (h.squaredNorm() * Mat3<double>::Identity() - h * h.transpose()) / m;
    const Vec3<double> ev = Eigen::SelfAdjointEigenSolver<Mat3<double>>(J).eigenvalues();
    if (!(ev(0) > 1e-12 * ev(2) && ev(2) > 0))
      throw InputError(obj,
                       std::string("smallest principal moment of inertia about its ") +
                           (b.kind == BodyKind::free ? "centre of gravity" : "pin") + " (rods and points included)",
                       ev(0), "> 0 (a body that turns about an axis without inertia has no equation of motion)");
  }
  bodies_.push_back(std::move(b));
  numbered_ = false;
  return static_cast<int>(bodies_.size()) - 1;
}

template <class T>
inline void MooringSystem<T>::set_coupled_body(int b, const Vec3<T>& r, const Mat3<T>& R, const Vec6<T>& vel,
                                               const Vec6<T>& acc) {
  auto& B = bodies_.at(static_cast<std::size_t>(b));
  auto obj = [&] { return "Body " + std::to_string(b + 1) + " (" + B.name + ")"; };
  const bool pin = B.kind == BodyKind::pinned && B.host_pin;
  if (B.kind != BodyKind::coupled && !pin)
    throw InputError(obj(), "attachment", "not Coupled", "a Coupled or CoupledPinned body");
  if (pin) {
    bool finite = true;
    for (int c = 0; c < 3; ++c) finite = finite && is_finite(r(c)) && is_finite(vel(c)) && is_finite(acc(c));
    if (!finite) throw InputError(obj(), "coupled pin kinematics", "non-finite", "finite");
    B.r = r;
    B.v = vel.template head<3>();
    B.a = acc.template head<3>();
    return;
  }
  bool finite = true;
  for (int c = 0; c < 3; ++c) finite = finite && is_finite(r(c));
  for (int c = 0; c < 6; ++c) finite = finite && is_finite(vel(c)) && is_finite(acc(c));
  for (int i = 0; i < 9; ++i) finite = finite && is_finite(R(i));
  if (!finite) throw InputError(obj(), "coupled kinematics", "non-finite", "finite");
  const double orth = static_cast<double>(value_of((R.transpose() * R - Mat3<T>::Identity()).cwiseAbs().maxCoeff()));
  if (!(orth < 1e-9)) throw InputError(obj(), "orientation |R^T R - I|", orth, "< 1e-9 (a rotation)");
  B.r = r;
  B.R = R;
  B.v = vel.template head<3>();
  B.w = vel.template tail<3>();
  B.a = acc.template head<3>();
  B.alpha = acc.template tail<3>();
}

template <class T>
inline int MooringSystem<T>::add_line(LineModel<T> model, int a, int b) {
  const std::string obj = "Line " + std::to_string(lines_.size() + 1) + " (" + model.name() + ")";
  for (int p : {a, b})
    if (p < 0 || p >= static_cast<int>(points_.size()))
      throw InputError(obj, "end point", p + 1, "an existing point (1.." + std::to_string(points_.size()) + ")");
  if (a == b) throw InputError(obj, "end points", a + 1, "two different points");
  SystemLine<T> L{std::move(model), {a, b}};
  lines_.push_back(std::move(L));
  numbered_ = false;
  return static_cast<int>(lines_.size()) - 1;
}

template <class T>
inline void MooringSystem<T>::clamp_end(int l, int end, const Vec3<T>& d0) {
  auto& L = lines_.at(static_cast<std::size_t>(l));
  const Vec3<T> d = connection_direction(l, end, d0, "clamped end");
  L.clamped[end] = true;
  L.spring_k[end] = 0;
  L.clamp_dir[end] = d;
}

template <class T>
inline void MooringSystem<T>::spring_end(int l, int end, const Vec3<T>& d0, double k) {
  auto& L = lines_.at(static_cast<std::size_t>(l));
  const Vec3<T> d = connection_direction(l, end, d0, "spring end");
  if (!(k > 0 && std::isfinite(k)))
    throw InputError("Line " + std::to_string(l + 1) + " (" + L.model.name() + ")" + (end == 0 ? " End A" : " End B"),
                     "rotational stiffness", k, "> 0 and finite (N m/rad)");
  L.clamped[end] = false;
  L.spring_k[end] = k;
  L.clamp_dir[end] = d;
}

template <class T>
inline SystemState<T> MooringSystem<T>::initial_state() {
  if (!numbered_) renumber();
  SystemState<T> s;
  s.q = VecX<T>::Zero(n_dofs_);
  s.v = VecX<T>::Zero(n_dofs_);
  s.a = VecX<T>::Zero(n_dofs_);
  for (std::size_t p = 0; p < points_.size(); ++p)
    if (point_dof_[p] >= 0) s.q.template segment<3>(point_dof_[p]) = points_[p].r;
  s.R.resize(bodies_.size());
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    s.R[b] = bodies_[b].R;
    if (body_ndof(static_cast<int>(b)) == 6) s.q.template segment<3>(body_dof_[b]) = bodies_[b].r;
  }
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    const auto& L = lines_[l];
    const Vec3<T> a = point_position(s, L.point[0]), b = point_position(s, L.point[1]);
    const std::size_t n = L.model.n_nodes();
    for (std::size_t i = 1; i + 1 < n; ++i)
      s.q.template segment<3>(node_dof(static_cast<int>(l), i)) = a + (b - a) * T(double(i) / double(n - 1));
    if (L.model.hermite()) {
      const Vec3<T> m = (b - a) / L.model.length();
      for (std::size_t i = 0; i < n; ++i) set_node_tangent(s, static_cast<int>(l), i, m);
    }
  }
  return s;
}

template <class T>
inline void MooringSystem<T>::get_held(Held& h) const {
  h.r.resize(points_.size());
  h.v.resize(points_.size());
  h.a.resize(points_.size());
  for (std::size_t p = 0; p < points_.size(); ++p) h.r[p] = points_[p].r, h.v[p] = points_[p].v, h.a[p] = points_[p].a;
  const std::size_t nb = bodies_.size();
  h.br.resize(nb), h.bv.resize(nb), h.bw.resize(nb), h.ba.resize(nb), h.balpha.resize(nb), h.bR.resize(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    const auto& B = bodies_[b];
    h.br[b] = B.r, h.bR[b] = B.R, h.bv[b] = B.v, h.bw[b] = B.w, h.ba[b] = B.a, h.balpha[b] = B.alpha;
  }
}

template <class T>
inline void MooringSystem<T>::set_held(const Held& h) {
  for (std::size_t p = 0; p < points_.size(); ++p)
    if (points_[p].kind == PointKind::fixed || points_[p].kind == PointKind::coupled)
      points_[p].r = h.r[p], points_[p].v = h.v[p], points_[p].a = h.a[p];
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    auto& B = bodies_[b];
    if (B.kind == BodyKind::free) continue;
    B.r = h.br[b], B.R = h.bR[b], B.v = h.bv[b], B.w = h.bw[b], B.a = h.ba[b], B.alpha = h.balpha[b];
  }
}

template <class T>
inline void MooringSystem<T>::set_coupled(int p, const Vec3<T>& r, const Vec3<T>& v, const Vec3<T>& a) {
  auto& P = points_.at(static_cast<std::size_t>(p));
  auto obj = [&] { return "Point " + std::to_string(p + 1) + " (" + P.name + ")"; };  // built on error only
  if (P.kind != PointKind::coupled) throw InputError(obj(), "attachment", "not Coupled", "a Coupled point");
  for (int c = 0; c < 3; ++c)
    if (!is_finite(r(c)) || !is_finite(v(c)) || !is_finite(a(c)))
      throw InputError(obj(), "coupled kinematics", "non-finite", "finite");
  P.r = r;
  P.v = v;
  P.a = a;
}

template <class T>
inline Vec3<T> MooringSystem<T>::connection_direction(int l, int end, const Vec3<T>& d0, const char* what) const {
  const auto& L = lines_.at(static_cast<std::size_t>(l));
  const std::string obj =
      "Line " + std::to_string(l + 1) + " (" + L.model.name() + ")" + (end == 0 ? " End A" : " End B");
  if (end != 0 && end != 1) throw InputError(obj, "end", end, "0 (End A) or 1 (End B)");
  if (!L.model.hermite())
    throw InputError(obj, what, "an EI = 0 line", "a finite-EI line (an EI = 0 node has no tangent to connect)");
  const auto& P = points_[static_cast<std::size_t>(L.point[end])];
  if (P.kind == PointKind::free)
    throw InputError(obj, what, "on Point " + std::to_string(L.point[end] + 1) + " (" + P.name + "), a free point",
                     "a body point, rod end or held point (a free point has no orientation to connect to)");
  const T n = sqrt_or_zero(T(d0.squaredNorm()));
  if (!(value_of(n) > 0) || !is_finite(n))
    throw InputError(obj, "connection direction |d0|", value_of(n), "> 0 and finite");
  return d0 / n;
}

}  // namespace cabledyn
