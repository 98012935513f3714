// cabledyn: the finite-EI step check of the march (spec "Adaptive step subdivision"): a
// converged Hermite step that changes an element's chord by more than 20 % of its length,
// turns a nodal tangent by more than 15 deg, or shrinks a nodal tangent below |m| = 0.01 (a
// singular parametrisation) is subdivided. The system's march policies
// (SystemMarchPolicies::step_rejection) read a line's nodes through its layout and call it.
#pragma once

#include <cmath>
#include <cstddef>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/environment.hpp"

namespace cabledyn {

/// Why a Hermite step of a line of n_nodes nodes must be subdivided, or nullptr: r0(i), r1(i)
/// node i's position at the step's start and end, m0(i), m1(i) its tangent, L0(e) element
/// e's unstretched length (each returning double values). A non-finite end tangent rejects.
template <class R0, class R1, class M0, class M1, class Len>
const char* hermite_step_rejection(std::size_t n_nodes, R0&& r0, R1&& r1, M0&& m0, M1&& m1, Len&& L0) {
  for (std::size_t e = 0; e + 1 < n_nodes; ++e) {
    const Vec3<double> c0 = r0(e + 1) - r0(e), c1 = r1(e + 1) - r1(e);
    if ((c1 - c0).norm() > 0.2 * L0(e))
      return "a finite-EI element's chord changed by more than 20 % of its length in the step";
  }
  const double cos15 = std::cos(15.0 * kPi / 180.0);
  for (std::size_t i = 0; i < n_nodes; ++i) {
    const Vec3<double> a = m0(i), b = m1(i);
    const double nb = b.norm();
    if (!(nb >= 0.01)) return "a finite-EI node's tangent shrank below |m| = 0.01 in the step";
    if (a.dot(b) < cos15 * a.norm() * nb) return "a finite-EI node's tangent turned by more than 15 deg in the step";
  }
  return nullptr;
}

}  // namespace cabledyn
