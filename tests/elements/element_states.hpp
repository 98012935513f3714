// Element states shared by the element tests: stretched, bent, nearly straight, strongly
// curved and random configurations of a Hermite element, and rotations.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"

namespace cabledyn::test {

using Vec12 = Eigen::Matrix<double, 12, 1>;

/// A rotation from axis-angle.
inline Eigen::Matrix3d rotation(const Eigen::Vector3d& axis, double angle) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

/// Hermite DOFs [r1, m1, r2, m2] of a circular arc of radius R through the origin, tangent
/// along +x at node 1, turning about +z, spanning the unstretched length L0 with stretch
/// factor (1 + eps) (|m| = 1 + eps).
inline Vec12 arc_state(double L0, double R, double eps = 0.0) {
  const double th = L0 * (1 + eps) / R;
  Vec12 q;
  q << 0, 0, 0, 1 + eps, 0, 0, R * std::sin(th), R * (1 - std::cos(th)), 0,
      (1 + eps) * std::cos(th), (1 + eps) * std::sin(th), 0;
  return q;
}

/// A straight element along direction t stretched by eps, built in scalar S (straight to
/// the round-off of S).
template <class S = double>
Eigen::Matrix<S, 12, 1> straight_state(double L0, double eps, const Eigen::Vector3d& t_in) {
  using V3 = Eigen::Matrix<S, 3, 1>;
  const V3 t = t_in.cast<S>().normalized();
  const S stretch = S(1) + S(eps);
  Eigen::Matrix<S, 12, 1> q;
  q.template segment<3>(0) = V3(S(0.3), S(-0.2), S(1.0));
  q.template segment<3>(3) = stretch * t;
  q.template segment<3>(6) = q.template segment<3>(0) + (S(L0) * stretch) * t;
  q.template segment<3>(9) = stretch * t;
  return q;
}

/// Rotate every 3-block of an element vector by Rm and translate the position blocks by c.
inline Vec12 transform(const Vec12& q, const Eigen::Matrix3d& Rm, const Eigen::Vector3d& c) {
  Vec12 out;
  for (int k = 0; k < 4; ++k) {
    out.segment<3>(3 * k) = Rm * q.segment<3>(3 * k);
    if (k % 2 == 0) out.segment<3>(3 * k) += c;
  }
  return out;
}

/// Named states for the derivative checks.
struct NamedState {
  std::string name;
  Vec12 q;
};

inline std::vector<NamedState> hermite_states(double L0) {
  std::vector<NamedState> s;
  s.push_back({"stretched straight", straight_state(L0, 0.013, Eigen::Vector3d(0.3, -0.5, 0.8))});
  s.push_back({"compressed straight", straight_state(L0, -0.02, Eigen::Vector3d(1, 0.2, 0))});
  // Bent: an arc, tilted out of plane and perturbed.
  {
    Vec12 q = transform(arc_state(L0, 3.0 * L0, 0.004), rotation(Eigen::Vector3d(1, 1, 0), 0.7),
                        Eigen::Vector3d(1, 2, -3));
    q(4) += 0.03;
    q(11) -= 0.05;
    s.push_back({"bent", q});
  }
  // Nearly straight: curvature of order 1e-7 / L0.
  {
    Vec12 q = straight_state(L0, 0.001, Eigen::Vector3d(0, 0, 1));
    q(3) += 1e-7;
    q(10) -= 2e-7;
    s.push_back({"nearly straight", q});
  }
  // Strongly curved: L0 kappa = 1.6 (a 92 degree turn over the element).
  s.push_back({"strongly curved", transform(arc_state(L0, L0 / 1.6, -0.01),
                                            rotation(Eigen::Vector3d(0.2, 1, 0.4), 2.1),
                                            Eigen::Vector3d(-4, 0, 7))});
  // Random states about a straight element (fixed seed).
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 3; ++i) {
    Vec12 q = straight_state(L0, 0.0, Eigen::Vector3d(1, 0.1 * i, -0.3));
    for (int j = 0; j < 12; ++j) q(j) += (j % 6 < 3 ? 0.15 * L0 : 0.25) * u(rng);
    s.push_back({"random " + std::to_string(i), q});
  }
  return s;
}

}  // namespace cabledyn::test
