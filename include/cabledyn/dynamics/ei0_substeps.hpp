// cabledyn: the trigger of the EI = 0 rotation- and snap-resolved sub-steps, a policy of an
// EI = 0 line's march (the system stepper re-solves the interval, SystemMarchPolicies;
// this header decides when and in how many sub-steps, from the line's LineModel and node
// vectors).
// Spec "Rotation- and snap-resolved sub-steps".
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <sstream>
#include <string>

#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/eigen.hpp"
#include "cabledyn/line/line_model.hpp"

namespace cabledyn {

/// Elastic tension of EI = 0 segment e of the line `m` at its node vector q [N] (0 when slack).
inline double segment_tension(const LineModel<double>& m, const VecX<double>& q, std::size_t e) {
  const auto i0 = static_cast<Eigen::Index>(3 * e);
  return std::max(m.element(e).tension<double>(Vec<double, 6>(q.segment<6>(i0))), 0.0);
}

/// What one solver step did to the segments of an EI = 0 line.
struct ChordTurn {
  double theta = 0;   ///< largest chord turn of a taut segment [deg]
  bool snap = false;  ///< a segment snapped taut while the axial wave is not resolved
};

/// The trigger of the spec: the largest chord turn [deg] over [q0, q1] of a segment that ends
/// above 1e-3 T_max, and whether a segment slack at q0 ends above T_max/4 while the axial wave
/// crosses it more than once in dt (dt c / l0 > 1, c = sqrt(EA / rho_A)); T_max the largest
/// step-start tension, at least 1e-3 of the line's initial tension.
inline ChordTurn measure_chord_turn(const LineModel<double>& m, const VecX<double>& q0, const VecX<double>& q1,
                                    double dt, double initial_tension) {
  if (m.hermite()) throw InputError(m.name() + " chord turn", "line model", "a Hermite line", "an EI = 0 line");
  double Tmax = 1e-3 * initial_tension;
  for (std::size_t e = 0; e < m.n_elements(); ++e) Tmax = std::max(Tmax, segment_tension(m, q0, e));
  ChordTurn out;
  for (std::size_t e = 0; e < m.n_elements(); ++e) {
    const double T1 = segment_tension(m, q1, e);
    if (!(T1 > 1e-3 * Tmax)) continue;
    const auto i0 = static_cast<Eigen::Index>(3 * e);
    const Vec3<double> d0 = q0.segment<3>(i0 + 3) - q0.segment<3>(i0), d1 = q1.segment<3>(i0 + 3) - q1.segment<3>(i0);
    out.theta = std::max(out.theta, std::atan2(d0.cross(d1).norm(), d0.dot(d1)) * 180.0 / kPi);
    const auto& p = m.element(e).params();
    const double c = std::sqrt(p.EA / p.rho_A);
    if (segment_tension(m, q0, e) <= 0 && T1 > 0.25 * Tmax && dt * c / p.L0 > 1) out.snap = true;
  }
  return out;
}

/// The sub-step count for a turn theta [deg]: max(4, ceil(theta / angle)), at most max_count;
/// `capped` is set when the turn asked for more.
inline int ei0_substep_count(double theta, double angle, int max_count, bool& capped) {
  const double want = std::ceil(theta / angle);
  capped = capped || want > max_count;
  return std::clamp(static_cast<int>(std::min(want, 1e9)), 4, max_count);
}

/// The note on the largest chord turn of a taut segment in one solver step (both routes'
/// summaries): above 1 deg, or with the sub-steps on above 1.1 times the larger of 1 deg and
/// their angle (a turn the sub-steps allowed), the tension statistics err in proportion with
/// the turn and snap peaks come out low; nullopt below that.
inline std::optional<std::string> chord_turn_note(double turn_deg, bool substeps_on, double substep_angle) {
  const double limit = substeps_on ? 1.1 * std::max(1.0, substep_angle) : 1.0;
  if (!(turn_deg > limit)) return std::nullopt;
  std::ostringstream o;
  o.precision(10);  // as the summaries (OutputFile)
  o << "a taut segment turned by " << turn_deg << " deg in one solver step (above " << limit
    << " deg): tension means and standard deviations err in proportion with the turn, and snap peaks come out low at "
       "several degrees per step; confirm at a smaller dtM";
  return o.str();
}

/// The note on steps that kept the plain step because a sub-step did not converge (both
/// routes' summaries).
inline std::string kept_plain_note(long steps) {
  return std::to_string(steps) + " step(s) kept the plain step (a sub-step did not converge): snap peaks there are not "
                                 "resolved and a tension may jump in one step; confirm at a smaller dtM";
}

}  // namespace cabledyn
