// cabledyn: node recovery. One job: the tension, curvature and bend moment at the nodes of a
// line from nodal equilibrium (spec "Node tension, curvature and bend moment": recovery from
// the element end forces; "Tension and coupled loads": the tensions of the end nodes are the
// line-end forces), at the line's static or committed dynamic state. docs/driver.md.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/line/line_model.hpp"

namespace cabledyn::io {

/// Node quantities recovered from nodal equilibrium (spec "Node tension, curvature and bend
/// moment").
struct NodeRecovery {
  std::vector<double> tension, curvature, moment;
};

/// Node recovery of a line at the state q (its node vector; v its velocities, null: at rest)
/// with the end forces fA, fB (the end nodes' tensions), from the line's load model (its
/// elements, weights and seabed: LineModel, line/line_model.hpp).
/// EI = 0: a node's tension is the mean of its two elements' (damping included).
template <class Unused = void>
NodeRecovery recover_nodes_at(const LineModel<double>& model, const VecX<double>& q, const VecX<double>* vel,
                              const Vec3<double>& fA, const Vec3<double>& fB) {
  NodeRecovery r;
  const std::size_t nn = model.n_nodes(), ne = model.n_elements();
  r.tension.assign(nn, 0);
  r.curvature.assign(nn, 0);
  r.moment.assign(nn, 0);
  if (!model.hermite()) {
    // Segment tension: the mean of the two adjacent element tensions (damping included).
    const VecX<double> v = vel ? *vel : VecX<double>::Zero(q.size());
    std::vector<double> te(ne);
    for (std::size_t e = 0; e < ne; ++e)
      te[e] = model.element(e).tension_with_damping<double>(q.segment<6>(static_cast<Eigen::Index>(3 * e)),
                                                            v.segment<6>(static_cast<Eigen::Index>(3 * e)));
    for (std::size_t i = 1; i + 1 < nn; ++i) r.tension[i] = 0.5 * (te[i - 1] + te[i]);
    r.tension[0] = fA.norm();
    r.tension[nn - 1] = fB.norm();
    return r;
  }
  // Hermite: element end forces g_e = f_int - f_ext with the element's own loads (the model's
  // hermite_element_forces: internal force less the consistent weight; and the seabed
  // reaction of its end nodes spread over the node's tributary length); the section forces
  // and tangent conjugates at the nodes.
  std::vector<Vec3<double>> Fm(nn, Vec3<double>::Zero()), Fp(nn, Vec3<double>::Zero()), mm(nn, Vec3<double>::Zero()),
      mp(nn, Vec3<double>::Zero());
  std::vector<double> reaction(nn, 0.0);
  for (std::size_t i = 0; i < nn; ++i)
    reaction[i] = model.seabed_reaction(i, model.node(q, i)(2), 0.0).f_elastic;
  auto tangent = [&](std::size_t i) { return Vec3<double>(q.segment<3>(static_cast<Eigen::Index>(6 * i + 3))); };
  for (std::size_t e = 0; e < ne; ++e) {
    Vec<double, 12> g = model.hermite_element_forces(q, e);
    // Seabed: the part of each end node's reaction over this element's half, as a uniform
    // upward load on that half.
    const double L0 = model.L0(e);
    for (int side = 0; side < 2; ++side) {
      const std::size_t node = e + static_cast<std::size_t>(side);
      if (reaction[node] == 0) continue;
      const double q_per = reaction[node] / std::max(model.tributary(node), 1e-300);  // [N/m]
      const double a = side == 0 ? 0.0 : 0.5, b = side == 0 ? 0.5 : 1.0;
      const auto Ib = cabledyn::detail::hermite_shape_integrals(b), Ia = cabledyn::detail::hermite_shape_integrals(a);
      const double sc[4] = {1.0, L0, 1.0, L0};
      for (int k2 = 0; k2 < 4; ++k2) g(3 * k2 + 2) -= q_per * L0 * sc[k2] * (Ib[k2] - Ia[k2]);
    }
    Fp[e] = -g.segment<3>(0);
    mp[e] = -g.segment<3>(3);
    Fm[e + 1] = g.segment<3>(6);
    mm[e + 1] = g.segment<3>(9);
  }
  double wmax = 0;
  for (std::size_t e = 0; e < ne; ++e) wmax = std::max(wmax, std::fabs(model.w(e)) * model.L0(e) * model.L0(e) / 12);
  for (std::size_t i = 0; i < nn; ++i) {
    const Vec3<double> t = tangent(i).normalized();
    const bool left = i > 0, right = i + 1 < nn;
    const Vec3<double> F = left && right ? Vec3<double>(0.5 * (Fm[i] + Fp[i])) : left ? Fm[i] : Fp[i];
    const Vec3<double> m = left && right ? Vec3<double>(0.5 * (mm[i] + mp[i])) : left ? mm[i] : mp[i];
    r.tension[i] = i == 0 ? fA.norm() : i + 1 == nn ? fB.norm() : F.dot(t);
    // Bend moment: the normal part of the conjugate; curvature = M / EI on the side of the
    // larger curvature, or the geometric trace where EI is below the recovery's error.
    const Vec3<double> mn = m - m.dot(t) * t;
    r.moment[i] = mn.norm();
    double kappa = 0;
    for (int side = 0; side < 2; ++side) {
      if ((side == 0 && !left) || (side == 1 && !right)) continue;
      const std::size_t e = side == 0 ? i - 1 : i;
      const double EI = model.hermite_element(e).params().EI;
      const double xi = side == 0 ? 1.0 : 0.0;
      if (EI < wmax * 1.0 || EI == 0) {
        kappa = std::max(kappa, model.hermite_element(e).curvature_at<double>(
                                    Vec<double, 12>(q.segment<12>(static_cast<Eigen::Index>(6 * e))), xi));
      } else {
        const Vec3<double>& ms = side == 0 ? mm[i] : mp[i];
        kappa = std::max(kappa, (ms - ms.dot(t) * t).norm() / EI);
      }
    }
    r.curvature[i] = kappa;
  }
  return r;
}

}  // namespace cabledyn::io
