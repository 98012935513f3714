// cabledyn: the static residual, tangent and potential energy of a line, assembled into
// band storage.
// Spec "Static equilibrium": R(q) = f_int(q) - f_ext(q) = 0 on the free DOFs, external loads
// the submerged weight, the seabed reaction, end-connection springs, a steady current,
// prescribed nodal loads; "Buoyancy and wetting"; "Seabed contact"; "End connections".
// The held DOFs (both end positions; a Rigid end's two transverse tangent components) are
// handled by the solvers in band storage (`LineDofs` below).
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/line/element_loads.hpp"
#include "cabledyn/line/element_residual.hpp"
#include "cabledyn/line/end_spring.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/linalg/band_matrix.hpp"
#include "cabledyn/seabed/contact.hpp"

namespace cabledyn {

/// A steady current: the fluid velocity at a point [m/s] (uniform or a depth profile).
struct SteadyCurrent {
  std::function<Vec3<double>(const Vec3<double>&)> velocity;

  /// A uniform current.
  static SteadyCurrent uniform(const Vec3<double>& U) {
    return {[U](const Vec3<double>&) { return U; }};
  }
};

/// The loads and settings of one static evaluation.
struct StaticLoadCase {
  std::optional<double> seabed_z;    ///< flat seabed elevation (none: no seabed)
  SeabedParams seabed;               ///< kBot (cBot unused in statics)
  double load_factor = 1;            ///< scales the weight and the seabed stiffness (continuation)
  double compression_ratio = 0;      ///< EI = 0 elements: stiffness ratio of the compressed branch (negative: each element's own law)
  const SteadyCurrent* current = nullptr;      ///< steady current (none: still water)
  const VecX<double>* frozen_drag = nullptr;   ///< drag held constant (a frozen f_ext vector)
  const VecX<double>* constant_load = nullptr; ///< an extra constant f_ext (e.g. EI = 0 wetting recovery)
  double drag_factor = 1;            ///< scales the current drag (drag brought in by load steps)
  bool hermite_wetting = true;       ///< Hermite: exact buoyancy recovery above the surface
  double surface_z = 0;              ///< still-water level
};

/// The product d l_trib of a node's contact: the sum over its elements of d_e L0_e / 2 (the
/// nodal stiffness kBot d l_trib of spec "Seabed contact" with the diameters of both sides).
inline double node_contact_width_length(const Line& line, std::size_t i) {
  double a = 0;
  if (i > 0) a += 0.5 * line.type(i - 1).d * line.L0(i - 1);
  if (i + 1 < line.n_nodes()) a += 0.5 * line.type(i).d * line.L0(i);
  return a;
}

namespace detail {
template <int N>
std::array<Eigen::Index, N> element_dof_indices(const Line& line, std::size_t e) {
  std::array<Eigen::Index, N> idx{};
  for (int i = 0; i < N; ++i) idx[static_cast<std::size_t>(i)] = static_cast<Eigen::Index>(line.dof(e, 0)) + i;
  return idx;
}
}  // namespace detail

/// Nodal fluid velocities of a steady current at the positions in q.
inline std::vector<Vec3<double>> current_at_nodes(const Line& line, const SteadyCurrent& c,
                                                  const VecX<double>& q) {
  std::vector<Vec3<double>> u(line.n_nodes());
  for (std::size_t i = 0; i < line.n_nodes(); ++i) u[i] = c.velocity(line.r(q, i));
  return u;
}

/// The drag of a steady current on the line at rest (spec "Static equilibrium": the element
/// fluid velocity is the mean of the current at its two nodes), as an f_ext vector with its
/// position Jacobian (the current's own gradient left out, as for waves).
template <class T, class Band>
void line_current_drag(const Line& line, const SteadyCurrent& c, const VecX<T>& q, VecX<T>& f,
                       Band* J = nullptr, double jacobian_sign = 1.0) {
  VecX<double> qv(q.size());
  for (Eigen::Index i = 0; i < q.size(); ++i) qv(i) = value_of(q(i));
  const auto un = current_at_nodes(line, c, qv);
  f.setZero(q.size());
  for (std::size_t e = 0; e < line.n_elements(); ++e) {
    const Vec3<T> ua = un[e].cast<T>(), ub = un[e + 1].cast<T>();
    const auto mc = line.morison(e);
    if (line.hermite()) {
      const Vec<T, 12> qe = line.element_dofs<T, 12>(q, e), ve = Vec<T, 12>::Zero();
      const Vec3<T> um = T(0.5) * (ua + ub);
      Vec<T, 12> fe;
      Mat<T, 12> Jq;
      hermite_drag<T>(qe, ve, {um, um, um}, mc, line.L0(e), fe, J ? &Jq : nullptr);
      f.template segment<12>(static_cast<Eigen::Index>(line.dof(e, 0))) += fe;
      if (J) J->add_block(detail::element_dof_indices<12>(line, e), Mat<T, 12>(T(jacobian_sign) * Jq));
    } else {
      const Vec<T, 6> qe = line.element_dofs<T, 6>(q, e), ve = Vec<T, 6>::Zero();
      Vec<T, 6> fe;
      Mat<T, 6> Jq;
      tension_drag<T>(qe, ve, ua, ub, mc, fe, J ? &Jq : nullptr);
      f.template segment<6>(static_cast<Eigen::Index>(line.dof(e, 0))) += fe;
      if (J) J->add_block(detail::element_dof_indices<6>(line, e), Mat<T, 6>(T(jacobian_sign) * Jq));
    }
  }
}

/// The buoyancy recovery of an EI = 0 line above the still surface (spec "Buoyancy and
/// wetting"): -(1 - f) 1/2 rho A g L0 on each end node of every element, f the wetted
/// fraction of its chord. The statics hold it constant and iterate (fixed point).
inline VecX<double> tension_wetting_recovery(const Line& line, const VecX<double>& q, double surface_z = 0) {
  VecX<double> f = VecX<double>::Zero(q.size());
  const auto& env = line.environment();
  for (std::size_t e = 0; e < line.n_elements(); ++e) {
    const double rgA = env.rho_w * env.g * kPi * line.type(e).d * line.type(e).d / 4;
    Vec<double, 6> fe;
    tension_wetting_load<double>(line.element_dofs<double, 6>(q, e), rgA, line.L0(e), surface_z, fe);
    f.segment<6>(static_cast<Eigen::Index>(line.dof(e, 0))) += fe;
  }
  return f;
}

/// Static residual R = f_int - f_ext of a line at state q (every DOF, held ones included) and,
/// when K is given (a BandMatrix or SymmetricBandMatrix sized for the line, zeroed by the
/// caller), the tangent dR/dq. Templated on T so that the tests differentiate it with duals.
template <class T, class Band = BandMatrix<T>>
void line_static_residual(const Line& line, const StaticLoadCase& lc, const VecX<T>& q, VecX<T>& R,
                          Band* K = nullptr) {
  R.setZero(static_cast<Eigen::Index>(line.dofs()));
  const double lf = lc.load_factor;
  const auto& env = line.environment();
  ElementSea<T> sea;  // EI = 0: at rest, no drag, the wetting held apart (a constant load)
  sea.drag = false;
  sea.wetting = false;
  ElementSea<T> hsea;  // Hermite: at rest, no drag, the buoyancy lost above the surface
  hsea.drag = false;
  hsea.wetting = lc.hermite_wetting;
  hsea.surface_z = lc.surface_z;
  HermiteBlockSum<T> blocks;
  // Elements: internal force and consistent weight.
  for (std::size_t e = 0; e < line.n_elements(); ++e) {
    const double w = lf * line.w(e);
    if (line.hermite()) {
      // The element residual at rest (line/element_residual.hpp): internal force, weight and
      // the buoyancy lost above the surface (exact crossings), all scaled by the load factor;
      // the current's drag is added below.
      const Vec<T, 12> qe = line.element_dofs<T, 12>(q, e);
      const double d = line.type(e).d;
      const double rgA = lf * env.rho_w * env.g * kPi * d * d / 4;
      Vec<T, 12> fe;
      Mat<double, 12> Jwet;
      if (K) blocks.set_zero();
      const bool wet = hermite_element_residual<T>(line.hermite_element(e), ElementLoads<double>{w, rgA, {}}, qe,
                                                   Vec<T, 12>::Zero().eval(), hsea, fe, K ? &blocks : nullptr, 1.0,
                                                   0.0, K ? &Jwet : nullptr);
      R.template segment<12>(static_cast<Eigen::Index>(line.dof(e, 0))) += fe;
      if (K) {
        Mat<T, 12> Ke = Mat<T, 12>::Zero();
        blocks.template add_to<LayoutRM>(Ke);
        K->add_block(detail::element_dof_indices<12>(line, e), Ke);
        if (wet) K->add_block(detail::element_dof_indices<12>(line, e), Mat<T, 12>(-Jwet.cast<T>()));
      }
    } else {
      // The element residual at rest (line/element_residual.hpp): internal force and weight;
      // the current's drag and the buoyancy lost above the surface are added below.
      const Vec<T, 6> qe = line.element_dofs<T, 6>(q, e);
      Mat<T, 6> Ke;
      R.template segment<6>(static_cast<Eigen::Index>(line.dof(e, 0))) +=
          tension_element_residual<T, double>(line.tension_element(e), ElementLoads<double>{w, 0.0, {}}, qe,
                                              nullptr, sea, lc.compression_ratio, K ? &Ke : nullptr, nullptr);
      if (K) K->add_block(detail::element_dof_indices<6>(line, e), Ke);
    }
  }
  // Seabed: nodal penalty contact on r_z, stiffness kBot d l_trib scaled by the load factor.
  if (lc.seabed_z) {
    SeabedParams sp = lc.seabed;
    sp.kBot *= lf;
    for (std::size_t i = 0; i < line.n_nodes(); ++i) {
      const auto c = seabed_contact<T>(q(static_cast<Eigen::Index>(line.dof(i, 2))), T(0), *lc.seabed_z,
                                       node_contact_width_length(line, i), 1.0, sp);
      const auto iz = static_cast<Eigen::Index>(line.dof(i, 2));
      R(iz) -= c.f;
      if (K) K->add(iz, iz, -c.df_dz);
    }
  }
  // Hermite end springs.
  if (line.hermite()) {
    for (int end = 0; end < 2; ++end) {
      const LineEnd& E = line.end(end);
      if (E.rotation != EndRotation::spring) continue;
      const std::size_t n = line.end_node(end);
      const Vec3<T> mv = line.m(q, n);
      Vec3<T> g;
      Mat3<T> H;
      end_spring<T>(mv, E.direction.cast<T>(), E.stiffness, &g, K ? &H : nullptr);
      const auto i0 = static_cast<Eigen::Index>(line.dof(n, 3));
      R.template segment<3>(i0) += g;
      if (K) K->add_block(std::array<Eigen::Index, 3>{i0, i0 + 1, i0 + 2}, H);
    }
  }
  // Current drag: live (with its Jacobian) or frozen.
  if (lc.frozen_drag) {
    R -= lc.frozen_drag->cast<T>();
  } else if (lc.current) {
    VecX<T> fd;
    line_current_drag<T, Band>(line, *lc.current, q, fd, K, -lc.drag_factor);
    R -= T(lc.drag_factor) * fd;
  }
  if (lc.constant_load) R -= lc.constant_load->cast<T>();
}

/// Total potential energy of the line at q [J]: strain energy, weight potential, seabed
/// penalty potential, the potential of the buoyancy lost above the surface (Hermite), end
/// springs, minus the work of the constant loads (frozen drag, constant load) at q. The
/// energy whose gradient is line_static_residual (without a live current).
inline double line_potential_energy(const Line& line, const StaticLoadCase& lc, const VecX<double>& q) {
  double E = 0;
  const double lf = lc.load_factor;
  for (std::size_t e = 0; e < line.n_elements(); ++e) {
    const double w = lf * line.w(e);
    if (line.hermite()) {
      const Vec<double, 12> qe = line.element_dofs<double, 12>(q, e);
      E += line.hermite_element(e).energy(qe) + hermite_weight_potential<double>(w, line.L0(e), qe);
    } else {
      const Vec<double, 6> qe = line.element_dofs<double, 6>(q, e);
      const auto& el = line.tension_element(e);
      E += (lc.compression_ratio >= 0 ? el.energy(qe, lc.compression_ratio) : el.energy(qe)) +
           tension_weight_potential<double>(w, line.L0(e), qe);
    }
  }
  if (lc.seabed_z) {
    SeabedParams sp = lc.seabed;
    sp.kBot *= lf;
    for (std::size_t i = 0; i < line.n_nodes(); ++i)
      E += seabed_contact<double>(q(static_cast<Eigen::Index>(line.dof(i, 2))), 0.0, *lc.seabed_z,
                                  node_contact_width_length(line, i), 1.0, sp)
               .energy;
  }
  if (line.hermite() && lc.hermite_wetting) {
    const auto& env = line.environment();
    for (std::size_t e = 0; e < line.n_elements(); ++e) {
      const Vec<double, 12> qe = line.element_dofs<double, 12>(q, e);
      if (!element_may_cross(qe, line.L0(e), lc.surface_z)) continue;
      const double rgA = lf * env.rho_w * env.g * kPi * line.type(e).d * line.type(e).d / 4;
      Vec<double, 12> fe;
      E += hermite_wetting_load(qe, rgA, line.L0(e), lc.surface_z, fe);
    }
  }
  if (line.hermite()) {
    for (int end = 0; end < 2; ++end) {
      const LineEnd& Ed = line.end(end);
      if (Ed.rotation != EndRotation::spring) continue;
      E += end_spring<double>(line.m(q, line.end_node(end)), Ed.direction, Ed.stiffness);
    }
  }
  if (lc.frozen_drag) E -= lc.frozen_drag->dot(q);
  if (lc.constant_load) E -= lc.constant_load->dot(q);
  return E;
}

}  // namespace cabledyn
