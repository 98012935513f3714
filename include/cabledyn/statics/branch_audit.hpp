// cabledyn: the geometric part of the physical-branch audit of a finite-EI line's static
// state: no fold, no self-contact.
// Spec "Hermite path", Physical-branch audit: the converged state must be clear of
// self-contact (no two non-adjacent elements closer than their diameters) and unfolded
// (an element with max(L0 kappa) > 0.7 is an unresolved fold). The stability part (the
// inertia of the static tangent) is the caller's: the single-line statics factor their
// band (statics/hermite_statics.hpp), the system statics the bordered tangent
// (system/system_audit.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/line/line_model.hpp"

namespace cabledyn {

/// The shortest distance between the segments p1-q1 and p2-q2 [m] (the closest points'
/// parameters clamped to the segments; a degenerate segment is its point).
inline double segment_distance(const Vec3<double>& p1, const Vec3<double>& q1, const Vec3<double>& p2,
                               const Vec3<double>& q2) {
  const Vec3<double> d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s, t;
  if (a <= 1e-300 && e <= 1e-300) return r.norm();
  if (a <= 1e-300) {
    s = 0;
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= 1e-300) {
      t = 0;
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2), den = a * e - b * b;
      s = den > 0 ? std::clamp((b * f - c * e) / den, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  return (p1 + s * d1 - (p2 + t * d2)).norm();
}

/// The fold limit of the audit: max(L0 kappa) of an element (spec "Hermite path").
inline constexpr double kFoldLimit = 0.7;

/// Audits the static state x (the model's node vector) of a finite-EI line (spec "Hermite
/// path", Physical-branch audit): every element's max(L0 kappa) <= kFoldLimit, and no two
/// non-adjacent element chords closer than their mean diameter (elements closer along the
/// line than half a turn of that radius, pi (d_i + d_j) / 2, cannot touch without a fold,
/// which the fold test catches, and are not compared). Throws SolveError naming `name`, the
/// element(s), the value and the limit. An EI = 0 line (no bending, no fold) is not audited.
template <class T>
void audit_fold_and_contact(const LineModel<T>& m, const VecX<T>& x, const std::string& name) {
  if (!m.hermite()) return;
  const std::size_t ne = m.n_elements();
  VecX<double> xv(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) xv(i) = static_cast<double>(value_of(x(i)));
  for (std::size_t e = 0; e < ne; ++e) {
    const Vec<double, 12> qe = xv.segment<12>(static_cast<Eigen::Index>(6 * e));
    const double fold = static_cast<double>(value_of(m.L0(e))) * m.hermite_element(e).peak_curvature(qe).value;
    if (fold > kFoldLimit)
      throw SolveError(name + " element " + std::to_string(e + 1), "L0 kappa (unresolved fold)", fold,
                       "<= 0.7 (adaptive refinement: later issue)");
  }
  std::vector<double> s(ne + 1, 0.0);  // unstretched arc length of each node
  for (std::size_t e = 0; e < ne; ++e) s[e + 1] = s[e] + static_cast<double>(value_of(m.L0(e)));
  auto r = [&](std::size_t i) { return Vec3<double>(xv.segment<3>(static_cast<Eigen::Index>(3 * m.position_slot(i)))); };
  for (std::size_t i = 0; i < ne; ++i)
    for (std::size_t j = i + 2; j < ne; ++j) {
      const double clear =
          0.5 * (static_cast<double>(value_of(m.diameter(i))) + static_cast<double>(value_of(m.diameter(j))));
      if (s[j] - s[i + 1] < kPi * clear) continue;
      const double dist = segment_distance(r(i), r(i + 1), r(j), r(j + 1));
      if (dist < clear)
        throw SolveError(name + " elements " + std::to_string(i + 1) + " and " + std::to_string(j + 1),
                         "distance (self-contact)", dist, ">= " + to_text(clear) + " m");
    }
}

}  // namespace cabledyn
