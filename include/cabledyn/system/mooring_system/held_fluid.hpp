// cabledyn: the fluid a mooring system holds over a step: the fluid field sampled at every line
// node, point, body reference point, lump and rod station at the start of a step, and
// restored on a restart.
// Spec "Time integration" (the fields are sampled once per step and held), "Waves",
// "Currents".
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
template <class Field>
inline void MooringSystem<T>::hold_fluid(const Field& field, const State& s, double t) {
  require_numbered();
  fluid_tmp_u_.resize(fluid_sites_);
  fluid_tmp_a_.resize(fluid_sites_);
  fluid_tmp_p_.resize(fluid_sites_);
  auto put = [&](std::size_t site, const Vec3<T>& x) {
    Eigen::Vector3d xd;
    for (int c = 0; c < 3; ++c) xd(c) = static_cast<double>(value_of(x(c)));
    const auto smp = field.sample(xd, t);
    if (!smp.u.allFinite() || !smp.a.allFinite() || !std::isfinite(smp.p_dyn))
      throw InputError(name_,
                       "fluid sample at (" + to_text(xd(0)) + ", " + to_text(xd(1)) + ", " + to_text(xd(2)) + ")",
                       "non-finite", "finite");
    fluid_tmp_u_[site] = smp.u;
    fluid_tmp_a_[site] = smp.a;
    fluid_tmp_p_[site] = smp.p_dyn;
  };
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    const auto& m = lines_[l].model;
    line_gather(s, static_cast<int>(l), 0, wx_[l]);
    for (std::size_t i = 0; i < m.n_nodes(); ++i) put(fluid_line_site_[l] + i, m.node(wx_[l], i));
  }
  for (std::size_t p = 0; p < points_.size(); ++p) put(fluid_point_site_ + p, point_position(s, static_cast<int>(p)));
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    Vec3<T> rb;
    Mat3<T> Rb;
    body_pose(s, static_cast<int>(b), rb, Rb);
    std::size_t site = fluid_body_site_[b];
    for_each_body_fluid_site<T>(bodies_[b], rb, Rb, [&](const Vec3<T>& arm) { put(site++, Vec3<T>(rb + arm)); });
  }
  fluid_u_.swap(fluid_tmp_u_);
  fluid_a_.swap(fluid_tmp_a_);
  fluid_p_.swap(fluid_tmp_p_);
}

template <class T>
inline void MooringSystem<T>::set_held_fluid(const std::vector<Vec3<double>>& u, const std::vector<Vec3<double>>& a,
                                             const std::vector<double>& p) {
  require_numbered();
  if (u.size() != a.size() || u.size() != p.size() || (!u.empty() && u.size() != fluid_sites_))
    throw InputError(name_, "held fluid sites", u.size(), std::to_string(fluid_sites_) + " (or none)");
  for (std::size_t i = 0; i < u.size(); ++i)
    if (!u[i].allFinite() || !a[i].allFinite() || !std::isfinite(p[i]))
      throw InputError(name_, "held fluid", "non-finite", "finite");
  fluid_u_ = u;
  fluid_a_ = a;
  fluid_p_ = p;
}

}  // namespace cabledyn
