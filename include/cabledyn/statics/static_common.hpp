// cabledyn: shared pieces of the static solvers: the problem and options, the result, the
// force scale, seeds from the analytic catenary, and the band Newton step.
// Spec "Static equilibrium".
#pragma once

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/line/line_constraints.hpp"
#include "cabledyn/line/line_statics_model.hpp"
#include "cabledyn/linalg/band_lu.hpp"
#include "cabledyn/statics/catenary.hpp"

namespace cabledyn {

/// What a static solve sees: the seabed, a steady current, the still-water level.
struct StaticProblem {
  std::optional<double> seabed_z;         ///< flat seabed (none: no seabed)
  SeabedParams seabed;                    ///< kBot [Pa/m]
  std::optional<SteadyCurrent> current;   ///< steady current (none: still water)
  double surface_z = 0;                   ///< still-water level [m]
};

/// Options of the static solvers.
struct StaticOptions {
  double tol = 1e-8;        ///< ||R||_inf / s (spec "Convergence")
  double abs_tol = 1e-14;   ///< ||R||_inf [N]
  int max_iterations = 200; ///< per Newton / stage
  bool verbose = false;     ///< print each iteration to stderr
  bool tensile_safety = false;            ///< [tensile_safety] reject element-mean compression (Hermite)
  double tensile_strain_tolerance = 2e-6; ///< [tensile_strain_tolerance]
};

/// A converged static equilibrium.
struct StaticResult {
  VecX<double> q;                   ///< the state (positions; Hermite: and tangents)
  double residual = 0;              ///< ||R||_inf on the free DOFs [N]
  double scale = 0;                 ///< force scale s of the convergence test [N]
  double floor = 0;                 ///< round-off floor of the nodal forces [N]
  int iterations = 0;               ///< Newton iterations of the accepted route
  std::string route;                ///< the seed and stage that converged
  std::vector<std::string> notes;   ///< notes for the run summary
  Vec3<double> end_force[2];        ///< force the line exerts on End A / End B [N]
};

namespace detail {

/// Throws InputError when the line cannot reach between its held ends: the chord would need
/// a strain above 1 (the same admissibility limit as the analytic catenary).
inline void check_reach(const Line& line) {
  const double chord = (line.end(1).position - line.end(0).position).norm();
  if (!(chord < 2 * line.length()))
    throw InputError(line.name(), "chord between the ends", chord,
                     "< " + to_text(2 * line.length()) +
                         " m (the line stretched to strain 1; a longer chord is beyond what EA allows)");
}

/// Force scale s: the largest of the infinity norms of the external load, the seabed
/// reaction and the current drag (spec "Convergence"), at least 1 N.
inline double static_force_scale(const LineModel<double>& model, const Line& line, const StaticLoadCase& lc,
                                 const VecX<double>& q) {
  double s = 1.0;
  for (std::size_t e = 0; e < line.n_elements(); ++e) s = std::max(s, std::fabs(line.w(e)) * line.L0(e) / 2);
  if (lc.seabed_z) {
    for (std::size_t i = 0; i < line.n_nodes(); ++i) {
      const auto c = seabed_contact<double>(q(static_cast<Eigen::Index>(line.dof(i, 2))), 0.0, *lc.seabed_z,
                                            node_contact_width_length(line, i), 1.0, lc.seabed);
      s = std::max(s, std::fabs(c.f));
    }
  }
  if (lc.current) {
    VecX<double> fd;
    line_current_drag(model, line, *lc.current, q, fd, lc.surface_z);
    s = std::max(s, fd.cwiseAbs().maxCoeff());
  }
  if (lc.constant_load && lc.constant_load->size() > 0) s = std::max(s, lc.constant_load->cwiseAbs().maxCoeff());
  return s;
}

/// Round-off floor of the nodal forces: 16 eps max(EA/L0) max(|q|, L0) (spec "Convergence"),
/// with the nodal seabed stiffness kBot d l_trib counted among the stiffnesses when it is the
/// larger (a stiff bed rounds the contact forces the same way).
inline double roundoff_floor(const Line& line, const VecX<double>& q, double kBot = 0) {
  double k = 0, L = 0;
  for (std::size_t e = 0; e < line.n_elements(); ++e) {
    k = std::max(k, line.type(e).EA / line.L0(e));
    L = std::max(L, line.L0(e));
  }
  for (std::size_t i = 0; i < line.n_nodes(); ++i) k = std::max(k, kBot * node_contact_width_length(line, i));
  return 16 * std::numeric_limits<double>::epsilon() * k * std::max(q.cwiseAbs().maxCoeff(), L);
}

/// The catenary seed of a line: the multi-segment extensible catenary (signed weight) from
/// the lower end to the upper end, through both held end positions. Returns the node
/// positions and tangents (m = dr/ds); throws when no catenary exists.
inline VecX<double> catenary_seed(const Line& line, const StaticProblem& prob, bool allow_grounded,
                                  double seabed_offset = 0) {
  const Vec3<double> pA = line.end(0).position, pB = line.end(1).position;
  const bool B_lower = pB(2) <= pA(2);
  const Vec3<double> anchor = B_lower ? pB : pA, fair = B_lower ? pA : pB;
  std::vector<CatenarySegment> segs;
  const auto& secs = line.sections();
  for (std::size_t k = 0; k < secs.size(); ++k) {
    const auto& sec = B_lower ? secs[secs.size() - 1 - k] : secs[k];
    segs.push_back({sec.length, sec.type.submerged_weight(line.environment()), sec.type.EA});
  }
  std::optional<double> floor;
  if (allow_grounded && prob.seabed_z) floor = *prob.seabed_z - seabed_offset;
  Vec3<double> a = anchor;
  if (floor && CatenaryLine<double>::is_grounded(anchor, prob.seabed_z)) a(2) = *floor;
  const CatenaryLine<double> cat(segs, a, fair, floor, line.name() + " catenary seed");
  VecX<double> q = VecX<double>::Zero(static_cast<Eigen::Index>(line.dofs()));
  const double L = line.length();
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    const double s_cat = B_lower ? L - line.s_node(i) : line.s_node(i);
    q.segment<3>(static_cast<Eigen::Index>(line.dof(i, 0))) = cat.position(s_cat);
    if (line.hermite()) {
      // m = dr/ds (arc length from End A): the catenary tangent with its stretch.
      const auto p = cat.catenary().at(cat.solution(), s_cat);
      const double EA = line.type(std::min(i, line.n_elements() - 1)).EA;
      Vec3<double> dr;
      if (p.grounded || p.tension == 0) {
        dr = (1 + p.H / EA) * cat.horizontal();
        if (p.tension == 0) dr = cat.horizontal();
      } else {
        const double f = 1 / p.tension + 1 / EA;
        dr = f * (p.H * cat.horizontal() + Vec3<double>(0, 0, p.V));
      }
      q.segment<3>(static_cast<Eigen::Index>(line.dof(i, 3))) = B_lower ? Vec3<double>(-dr) : dr;
    }
  }
  return q;
}

/// A straight seed between the ends with the line's unstretched length spread over the
/// chord (a taut or, if the line is longer, a compressed straight line).
inline VecX<double> straight_seed(const Line& line) {
  const Vec3<double> pA = line.end(0).position, pB = line.end(1).position;
  VecX<double> q = VecX<double>::Zero(static_cast<Eigen::Index>(line.dofs()));
  const double L = line.length();
  const Vec3<double> d = pB - pA;
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    const double f = line.s_node(i) / L;
    q.segment<3>(static_cast<Eigen::Index>(line.dof(i, 0))) = pA + f * d;
    if (line.hermite()) q.segment<3>(static_cast<Eigen::Index>(line.dof(i, 3))) = d / L;
  }
  return q;
}

/// A two-leg polyline of the line's length that never compresses it: both legs meet at the
/// point below the chord's midpoint at the depth that makes the path the line's length
/// (lifted onto a seabed).
inline VecX<double> polyline_seed(const Line& line, const StaticProblem& prob) {
  const Vec3<double> pA = line.end(0).position, pB = line.end(1).position;
  const double L = line.length();
  const Vec3<double> mid = 0.5 * (pA + pB);
  const double half = 0.5 * (pB - pA).norm();
  const double drop = L > 2 * half ? std::sqrt(std::max(0.0, 0.25 * L * L - half * half)) : 0.0;
  Vec3<double> P = mid - Vec3<double>(0, 0, drop);
  if (prob.seabed_z) P(2) = std::max(P(2), *prob.seabed_z);
  const double l1 = (P - pA).norm(), l2 = (pB - P).norm(), tot = l1 + l2;
  VecX<double> q = VecX<double>::Zero(static_cast<Eigen::Index>(line.dofs()));
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    const double u = line.s_node(i) / L * tot;
    Vec3<double> x, t;
    if (u <= l1) {
      x = pA + (l1 > 0 ? u / l1 : 0.0) * (P - pA);
      t = (P - pA) / std::max(l1, 1e-300);
    } else {
      x = P + (l2 > 0 ? (u - l1) / l2 : 0.0) * (pB - P);
      t = (pB - P) / std::max(l2, 1e-300);
    }
    q.segment<3>(static_cast<Eigen::Index>(line.dof(i, 0))) = x;
    if (line.hermite()) q.segment<3>(static_cast<Eigen::Index>(line.dof(i, 3))) = t * (tot / L);
  }
  return q;
}

/// Lift seed nodes deeper below a flat seabed than their static penetration onto it.
inline void lift_onto_seabed(const Line& line, const StaticProblem& prob, VecX<double>& q) {
  if (!prob.seabed_z) return;
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    double wl = 0;
    if (i > 0) wl += 0.5 * line.w(i - 1) * line.L0(i - 1);
    if (i + 1 < line.n_nodes()) wl += 0.5 * line.w(i) * line.L0(i);
    const double kn = prob.seabed.kBot * node_contact_width_length(line, i);
    const double pen = kn > 0 ? std::max(wl, 0.0) / kn : 0.0;
    auto& z = q(static_cast<Eigen::Index>(line.dof(i, 2)));
    if (z < *prob.seabed_z - pen) z = *prob.seabed_z - pen;
  }
}

/// End forces (force the line exerts on each held end) from the full residual.
inline void end_forces_from_residual(const Line& line, const VecX<double>& R, StaticResult& res) {
  for (int end = 0; end < 2; ++end)
    res.end_force[end] = -R.segment<3>(static_cast<Eigen::Index>(line.dof(line.end_node(end), 0)));
}

}  // namespace detail
}  // namespace cabledyn
