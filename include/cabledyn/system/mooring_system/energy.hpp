// cabledyn: the energies of a mooring system: the kinetic energy of its lines, points and bodies
// and the potential energy whose gradient is the static residual (the statics' merit and the
// energy checks of the march).
// Spec "Static equilibrium" (the potential energy of a conservative system), "Time
// integration" (energy conservation at rho_inf = 1).
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
T MooringSystem<T>::kinetic_energy(const SystemState<T>& s) const {
  T E = T(0);
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    const int li = static_cast<int>(l);
    line_gather(s, li, 0, wx_[l]);
    line_gather(s, li, 1, wv_[l]);
    lines_[l].model.template inertia<Router>(wx_[l], wv_[l], wr_[l], nullptr, T(0), T(0));
    E += T(0.5) * wv_[l].dot(wr_[l]);
  }
  for (std::size_t p = 0; p < points_.size(); ++p)
    if (point_dof_[p] >= 0)
      E += T(0.5) * point_mass(static_cast<int>(p)) * s.v.template segment<3>(point_dof_[p]).squaredNorm();
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    if (body_dof_[b] < 0) continue;
    Vec3<T> rb;
    Mat3<T> Rb;
    body_pose(s, static_cast<int>(b), rb, Rb);
    const Vec6<T> vb = body_motion(s, static_cast<int>(b), 1);
    E += T(0.5) * vb.dot(mul6<T>(body_mass_at(static_cast<int>(b), rb, Rb), vb));
  }
  return E + joint_roll_energy(s, s.v, true);  // a joint's roll inertia (add_joint_rolls)
}

template <class T>
T MooringSystem<T>::potential_energy(const SystemState<T>& s, double compression_ratio) const {
  T E = T(0);
  VecX<T> x;
  for (std::size_t l = 0; l < lines_.size(); ++l) {
    line_gather(s, static_cast<int>(l), 0, x);
    E += lines_[l].model.potential_energy(x, compression_ratio);
    for (int e = 0; e < 2; ++e)
      if (lines_[l].spring_k[e] > 0)
        E += end_spring<T>(Vec3<T>(s.q.template segment<3>(clamp_dof(l, e))),
                           clamp_direction(s, static_cast<int>(l), e), lines_[l].spring_k[e]);
  }
  for (std::size_t p = 0; p < points_.size(); ++p)
    if (point_dof_[p] >= 0) {
      const Vec3<T> r = point_position(s, static_cast<int>(p));
      E -= point_static_load(static_cast<int>(p)).dot(r);
      E += point_contact(static_cast<int>(p), r(2), T(0)).energy;
    }
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const Index d = body_dof_[b];
    if (d < 0) continue;
    Vec3<T> rb;
    Mat3<T> Rb;
    body_pose(s, static_cast<int>(b), rb, Rb);
    E += body_potential_energy<T>(bodies_[b], rb, Rb, env_, seabed_.z, seabed_.params);
    E -= bodies_[b].moment.dot(Vec3<T>(s.q.template segment<3>(body_row(static_cast<int>(b), 3))));
  }
  return E + joint_roll_energy(s, s.q);  // a joint's roll row (add_joint_rolls)
}

template <class T>
T MooringSystem<T>::joint_roll_energy(const State& s, const VecX<T>& x, bool inertia) const {
  T E = T(0);
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    if (!bodies_[b].joint) continue;
    const Index rd = body_row(static_cast<int>(b), 3);
    if (rd < 0) continue;
    const Vec3<T> d = (s.R.empty() ? bodies_[b].R : s.R[b]).col(2);
    const T c = d.dot(Vec3<T>(x.template segment<3>(rd)));
    E += T(0.5 * (inertia ? joint_m_[b] : joint_k_[b])) * c * c;
  }
  return E;
}

}  // namespace cabledyn
