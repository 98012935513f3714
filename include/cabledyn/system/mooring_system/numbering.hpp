// cabledyn: the DOF numbering of a mooring system: each line's interior slots as one band block,
// then the free points' and the bodies' DOFs as the border; the connected components of
// the DOFs; the bordered Jacobian of the system or of one component; names of DOFs and
// components for errors.
// Spec "Linear algebra" (band blocks bordered by the objects' DOFs), "Attached objects
// and line ends" (a free point must be held by a line), "Direction joints" (a joint's roll
// scale).
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
inline std::string MooringSystem<T>::component_name(int c) const {
  require_numbered();
  std::vector<int> ls;
  for (std::size_t l = 0; l < lines_.size(); ++l)
    if (line_comp_[l] == c) ls.push_back(static_cast<int>(l));
  bool objects = false;
  for (Index d : comp_dofs_.at(static_cast<std::size_t>(c))) objects = objects || d >= n_line_dofs_;
  std::string n;
  if (ls.size() == 1) {
    n = "Line " + std::to_string(ls[0] + 1) + " (" + lines_[static_cast<std::size_t>(ls[0])].model.name() + ")";
  } else {
    n = "Lines ";
    for (std::size_t k = 0; k < ls.size(); ++k) n += (k ? ", " : "") + std::to_string(ls[k] + 1);
  }
  if (ls.empty()) n = name_ + " component " + std::to_string(c + 1);
  return objects ? n + " with their points and bodies" : n;
}

template <class T>
inline bool MooringSystem<T>::component_has_finite_ei(int c) const {
  require_numbered();
  for (std::size_t l = 0; l < lines_.size(); ++l)
    if (line_comp_[l] == c && lines_[l].model.hermite()) return true;
  return false;
}

template <class T>
inline auto MooringSystem<T>::body_row(int b, int i) const -> Index {
  const Index d = body_dof_[static_cast<std::size_t>(b)];
  if (d < 0) return -1;
  if (body_ndof(b) == 6) return d + i;
  return i < 3 ? -1 : d + i - 3;
}

template <class T>
inline void MooringSystem<T>::renumber() {
  block_offset_.clear();
  Index off = 0;
  for (const auto& L : lines_) {
    block_offset_.push_back(off);
    off += 3 * static_cast<Index>(L.model.n_slots() - 2);
  }
  n_line_dofs_ = off;
  point_dof_.assign(points_.size(), -1);
  std::vector<int> attached(points_.size(), 0);
  for (const auto& L : lines_)
    ++attached[static_cast<std::size_t>(L.point[0])], ++attached[static_cast<std::size_t>(L.point[1])];
  for (std::size_t p = 0; p < points_.size(); ++p) {
    if (points_[p].kind != PointKind::free) continue;
    if (attached[p] == 0)
      throw InputError("Point " + std::to_string(p + 1) + " (" + points_[p].name + ")", "lines attached", 0,
                       ">= 1 (a free point must be held by a line)");
    point_dof_[p] = off;
    off += 3;
  }
  n_pos_dofs_ = off;
  body_dof_.assign(bodies_.size(), -1);
  for (std::size_t p = 0; p < points_.size(); ++p)
    if (points_[p].kind == PointKind::body &&
        (points_[p].body < 0 || points_[p].body >= static_cast<int>(bodies_.size())))
      throw InputError("Point " + std::to_string(p + 1) + " (" + points_[p].name + ")", "body", points_[p].body + 1,
                       "an existing body (1.." + std::to_string(bodies_.size()) + ")");
  // A body pinned on a parent carries no lines yet (their end blocks would reach the
  // parent's DOFs through the pin).
  for (std::size_t l = 0; l < lines_.size(); ++l)
    for (int e = 0; e < 2; ++e) {
      const auto& P = points_[static_cast<std::size_t>(lines_[l].point[e])];
      if (P.kind == PointKind::body && P.body < static_cast<int>(bodies_.size()) && on_parent(P.body))
        throw NotImplementedError(
            "Line " + std::to_string(l + 1) + " (" + lines_[l].model.name() + ")" + (e == 0 ? " End A" : " End B"),
            "attachment",
            "body " + std::to_string(P.body + 1) + " (" + bodies_[static_cast<std::size_t>(P.body)].name + ")",
            "lines on a body pinned to another body (a Body<N>Pinned rod's ends)");
    }
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const int nd = body_ndof(static_cast<int>(b));
    if (nd == 0) continue;
    body_dof_[b] = off;
    off += nd;
  }
  n_dofs_ = off;
  number_components();
  // A direction joint's roll scale: the bending stiffness EI / l0 of the end elements of the
  // lines clamped to it, and its springs; a joint without them has no rotational equation.
  joint_k_.assign(bodies_.size(), 0.0);
  joint_m_.assign(bodies_.size(), 0.0);
  for (std::size_t l = 0; l < lines_.size(); ++l)
    for (int e = 0; e < 2; ++e) {
      const auto& L = lines_[l];
      const auto& P = points_[static_cast<std::size_t>(L.point[e])];
      if (P.kind != PointKind::body || !bodies_[static_cast<std::size_t>(P.body)].joint) continue;
      if (!L.clamped[e] && !(L.spring_k[e] > 0)) continue;
      // Along the joint's axis, or the roll is no longer free of load.
      const Vec3<T> d0 = L.clamp_dir[e];
      if (!(std::fabs(static_cast<double>(value_of(d0(2)))) > 1 - 1e-12))
        throw InputError("Line " + std::to_string(l + 1) + " (" + L.model.name() + ")" + (e == 0 ? " End A" : " End B"),
                         "clamp or spring direction at direction joint " +
                             bodies_[static_cast<std::size_t>(P.body)].name + " (body axes)",
                         "(" + to_text(static_cast<double>(value_of(d0(0)))) + ", " +
                             to_text(static_cast<double>(value_of(d0(1)))) + ", " +
                             to_text(static_cast<double>(value_of(d0(2)))) + ")",
                         "+-z (the joint's axis: its lines join along it)");
      joint_k_[static_cast<std::size_t>(P.body)] += L.model.end_bending_stiffness(e) + L.spring_k[e];
      // The end tangent's own inertia in the consistent mass (at least 1e-9 of the stiffness in s^2).
      joint_m_[static_cast<std::size_t>(P.body)] += L.model.end_tangent_inertia(e);
    }
  for (std::size_t b = 0; b < bodies_.size(); ++b)
    if (bodies_[b].joint) joint_m_[b] = std::max(joint_m_[b], 1e-9 * joint_k_[b]);
  for (std::size_t b = 0; b < bodies_.size(); ++b)
    if (bodies_[b].joint && !(joint_k_[b] > 0))
      throw InputError("Body " + std::to_string(b + 1) + " (" + bodies_[b].name + ")",
                       "finite-EI line ends clamped or on springs at a direction joint", 0,
                       ">= 1 (the bending of its lines sets a joint's direction)");
  // The held fluid's sites: every line node, every point, every body's reference point and
  // its lumps.
  std::size_t site = 0;
  fluid_line_site_.clear();
  for (const auto& L : lines_) fluid_line_site_.push_back(site), site += L.model.n_nodes();
  fluid_point_site_ = site;
  site += points_.size();
  fluid_body_site_.clear();
  for (const auto& B : bodies_) fluid_body_site_.push_back(site), site += body_fluid_sites(B);
  fluid_sites_ = site;
  fluid_u_.clear();
  fluid_a_.clear();
  fluid_p_.clear();
  wx_.assign(lines_.size(), VecX<T>());
  if (tensile_) set_tensile_safety(true, tensile_eps_);  // the audit's scratch for the lines as now
  wv_ = wx_;
  wr_ = wx_;
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    const Index n = lines_[l].model.size();
    wx_[l].setZero(n);
    wv_[l].setZero(n);
    wr_[l].setZero(n);
  }
  wlim_.setZero(n_dofs_);
  blend_M0_.assign(bodies_.size(), Mat6<T>::Zero());  // the mass blend's (blend_mass_start)
  blend_A0_.assign(bodies_.size(), Vec6<T>::Zero());
  held_mass_.assign(lines_.size(), {});
  for (std::size_t l = 0; l < lines_.size(); ++l)
    if (lines_[l].model.hermite()) held_mass_[l].resize(lines_[l].model.n_elements());
  mass_held_ = false;
  policies_.resize(*this);
  // The translational DOFs (translational_dof): line nodes' positions, points, body
  // translations.
  translational_.assign(static_cast<std::size_t>(n_dofs_), 0);
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    const auto& M = lines_[l].model;
    const std::size_t sb = M.position_slot(M.n_nodes() - 1);
    for (std::size_t i = 1; i + 1 < M.n_nodes(); ++i) {
      const Index d = interior_dof(l, M.position_slot(i), sb);
      for (int k = 0; k < 3; ++k) translational_[static_cast<std::size_t>(d + k)] = 1;
    }
  }
  for (Index d = n_line_dofs_; d < n_pos_dofs_; ++d) translational_[static_cast<std::size_t>(d)] = 1;
  for (std::size_t b = 0; b < bodies_.size(); ++b)
    for (int k = 0; k < 3; ++k) {
      const Index d = body_row(static_cast<int>(b), k);
      if (d >= 0) translational_[static_cast<std::size_t>(d)] = 1;
    }
  numbered_ = true;
}

template <class T>
inline auto MooringSystem<T>::tangent_dof(int l, std::size_t i) const -> Index {
  const auto& L = lines_.at(static_cast<std::size_t>(l));
  if (!L.model.hermite())
    throw InputError("Line " + std::to_string(l + 1) + " (" + L.model.name() + ")", "node tangent", "requested",
                     "a finite-EI line (an EI = 0 node has no tangent DOF)");
  return slot_dof(l, L.model.position_slot(i) + 1);
}

template <class T>
inline auto MooringSystem<T>::slot_dof(int l, std::size_t k) const -> Index {
  require_numbered();
  const auto li = static_cast<std::size_t>(l);
  const auto& L = lines_[li];
  const std::size_t sb = L.model.position_slot(L.model.n_nodes() - 1);
  if (k == 0) return point_dof_[static_cast<std::size_t>(L.point[0])];
  if (k == sb) return point_dof_[static_cast<std::size_t>(L.point[1])];
  return interior_dof(li, k, sb);
}

template <class T>
inline BorderedJacobian<T> MooringSystem<T>::make_jacobian(int c) const {
  require_numbered();
  if (c < -1 || c >= n_components_)
    throw InputError(name_, "component", c, "in [-1, " + std::to_string(n_components_) + ")");
  // The object DOFs of c, numbered among themselves.
  std::vector<Index> obj(static_cast<std::size_t>(n_dofs_ - n_line_dofs_), -1);
  Index n_obj = 0;
  for (Index d = n_line_dofs_; d < n_dofs_; ++d)
    if (c < 0 || dof_component_[static_cast<std::size_t>(d)] == c)
      obj[static_cast<std::size_t>(d - n_line_dofs_)] = n_obj++;
  std::vector<BorderedBlockShape> blocks;
  std::vector<int> block_of(lines_.size(), -1);
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    if (c >= 0 && line_comp_[l] != c) continue;
    block_of[l] = static_cast<int>(blocks.size());
    BorderedBlockShape s;
    s.name = "Line " + std::to_string(l + 1) + " (" + lines_[l].model.name() + ")";
    s.size = 3 * static_cast<Index>(lines_[l].model.n_slots() - 2);
    s.half_bandwidth = lines_[l].model.half_bandwidth();
    for (int end = 0; end < 2; ++end) {
      const auto& P = points_[static_cast<std::size_t>(lines_[l].point[end])];
      Index d = point_dof_[static_cast<std::size_t>(lines_[l].point[end])];
      int k = 3;
      if (P.kind == PointKind::body) d = body_dof_[static_cast<std::size_t>(P.body)], k = body_ndof(P.body);
      if (d >= 0)
        for (int i = 0; i < k; ++i) {
          const Index o = obj[static_cast<std::size_t>(d - n_line_dofs_ + i)];
          if (std::find(s.coupled.begin(), s.coupled.end(), o) == s.coupled.end()) s.coupled.push_back(o);
        }
    }
    blocks.push_back(std::move(s));
  }
  if (c < 0) return BorderedJacobian<T>(std::move(blocks), n_obj, name_);
  BorderedJacobian<T> J(std::move(blocks), n_obj, component_name(c));
  auto map = std::make_shared<std::vector<Index>>(static_cast<std::size_t>(n_dofs_), Index(-1));
  const auto& dofs = comp_dofs_[static_cast<std::size_t>(c)];
  for (std::size_t k = 0; k < dofs.size(); ++k) (*map)[static_cast<std::size_t>(dofs[k])] = static_cast<Index>(k);
  J.set_global_map(std::move(map), std::move(block_of));
  return J;
}

template <class T>
inline std::string MooringSystem<T>::describe_dof(Index i) const {
  require_numbered();
  for (std::size_t b = 0; b < bodies_.size(); ++b)
    if (body_dof_[b] >= 0 && i >= body_dof_[b] && i < body_dof_[b] + body_ndof(static_cast<int>(b)))
      return "Body " + std::to_string(b + 1) + " (" + bodies_[b].name + ") " +
             (i < body_row(static_cast<int>(b), 3) ? "position" : "rotation");
  for (std::size_t p = 0; p < points_.size(); ++p)
    if (point_dof_[p] >= 0 && i >= point_dof_[p] && i < point_dof_[p] + 3)
      return "Point " + std::to_string(p + 1) + " (" + points_[p].name + ")";
  for (std::size_t l = lines_.size(); l-- > 0;)
    if (i >= block_offset_[l] && i < n_line_dofs_) {
      // The slot of local DOF j: the slots skip End A's position (slot 0) and End B's (sb).
      const auto& M = lines_[l].model;
      const std::size_t per = M.n_slots() / M.n_nodes(), sb = M.position_slot(M.n_nodes() - 1);
      std::size_t k = static_cast<std::size_t>((i - block_offset_[l]) / 3) + 1;
      if (k >= sb) ++k;
      return "Line " + std::to_string(l + 1) + " (" + M.name() + ") node " + std::to_string(k / per + 1) +
             (k % per == 1 ? " tangent" : "");
    }
  return "DOF " + std::to_string(i);
}

template <class T>
inline void MooringSystem<T>::number_components() {
  const std::size_t nl = lines_.size(), np = points_.size(), nb = bodies_.size();
  std::vector<std::size_t> up(nl + np + nb);
  for (std::size_t i = 0; i < up.size(); ++i) up[i] = i;
  auto find = [&](std::size_t i) {
    while (up[i] != i) i = up[i] = up[up[i]];
    return i;
  };
  auto join = [&](std::size_t a, std::size_t b) { up[find(a)] = find(b); };
  auto body_node = [&](int b) { return nl + np + static_cast<std::size_t>(b); };
  for (std::size_t l = 0; l < nl; ++l)
    for (int e = 0; e < 2; ++e) {
      const auto pi = static_cast<std::size_t>(lines_[l].point[e]);
      const auto& P = points_[pi];
      if (point_dof_[pi] >= 0) join(l, nl + pi);
      if (P.kind == PointKind::body && body_dof_[static_cast<std::size_t>(P.body)] >= 0) join(l, body_node(P.body));
    }
  for (std::size_t b = 0; b < nb; ++b)
    if (body_dof_[b] >= 0 && on_parent(static_cast<int>(b)) &&
        body_dof_[static_cast<std::size_t>(bodies_[b].parent)] >= 0)
      join(body_node(static_cast<int>(b)), body_node(bodies_[b].parent));
  dof_component_.assign(static_cast<std::size_t>(n_dofs_), -1);
  std::vector<int> id(up.size(), -1);
  n_components_ = 0;
  auto mark = [&](std::size_t node, Index d0, Index n) {
    int& c = id[find(node)];
    if (c < 0) c = n_components_++;
    for (Index d = d0; d < d0 + n; ++d) dof_component_[static_cast<std::size_t>(d)] = c;
  };
  for (std::size_t l = 0; l < nl; ++l) mark(l, block_offset_[l], 3 * static_cast<Index>(lines_[l].model.n_slots() - 2));
  for (std::size_t p = 0; p < np; ++p)
    if (point_dof_[p] >= 0) mark(nl + p, point_dof_[p], 3);
  for (std::size_t b = 0; b < nb; ++b)
    if (body_dof_[b] >= 0) mark(body_node(static_cast<int>(b)), body_dof_[b], body_ndof(static_cast<int>(b)));
  // Each line's, free point's and free body's component, each held point's (the one of the
  // lines ending on it: -2 when lines of several components do, -1 when none does) and
  // each component's DOFs in ascending order.
  line_comp_.assign(nl, -1);
  for (std::size_t l = 0; l < nl; ++l) line_comp_[l] = id[find(l)];
  point_comp_.assign(np, -1);
  for (std::size_t p = 0; p < np; ++p)
    if (point_dof_[p] >= 0) point_comp_[p] = id[find(nl + p)];
  for (std::size_t l = 0; l < nl; ++l)
    for (int e = 0; e < 2; ++e) {
      const auto pi = static_cast<std::size_t>(lines_[l].point[e]);
      if (point_dof_[pi] >= 0) continue;
      int& c = point_comp_[pi];
      c = c == -1 || c == line_comp_[l] ? line_comp_[l] : -2;
    }
  body_comp_.assign(nb, -1);
  for (std::size_t b = 0; b < nb; ++b)
    if (body_dof_[b] >= 0) body_comp_[b] = id[find(body_node(static_cast<int>(b)))];
  comp_dofs_.assign(static_cast<std::size_t>(n_components_), {});
  for (Index d = 0; d < n_dofs_; ++d)
    comp_dofs_[static_cast<std::size_t>(dof_component_[static_cast<std::size_t>(d)])].push_back(d);
  active_ = -1;
}

}  // namespace cabledyn
