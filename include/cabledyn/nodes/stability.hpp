// cabledyn: exact stability analysis of the spring-damper node and of two nodes anchored on
// each other in a converged coupling group (spec spring-damper-node.md, "Stability
// Conditions"). Every function is a template over the scalar T, so that the radius can be
// differentiated by duals with respect to the constants (d rho / d c, ...).
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/nodes/spring_damper.hpp"

namespace cabledyn {

/// The constants of one node that the analysis needs, in the scalar T.
template <class T>
struct SpringDamperConstants {
  T stiffness;         ///< k [N/m]
  T damping;           ///< c [N s/m]
  T mass;              ///< m [kg]
  T rest_length = T(0);///< l0 [m] (enters only the affine part of the pair's step)
};

/// The constants of a parameter set, converted to T.
template <class T>
SpringDamperConstants<T> constants_of(const SpringDamperParams& p) {
  return {T(p.stiffness), T(p.damping), T(p.mass), T(p.rest_length)};
}

namespace detail {
template <class T>
void require_constants(const SpringDamperConstants<T>& c, const T& dt, const char* object) {
  using std::isfinite;
  if (!(isfinite(value_of(c.mass)) && value_of(c.mass) > 0))
    throw InputError(object, "mass", value_of(c.mass), "> 0");
  if (!isfinite(value_of(c.stiffness)))
    throw InputError(object, "stiffness", value_of(c.stiffness), "finite");
  if (!isfinite(value_of(c.damping)))
    throw InputError(object, "damping", value_of(c.damping), "finite");
  require_timestep(dt, object);
}
}  // namespace detail

// ---- spectral radius of small real matrices ------------------------------------------

/// Spectral radius of a real 2x2 matrix from its trace and determinant: complex pair
/// radius sqrt(det), real pair (|tr| + sqrt(tr^2 - 4 det)) / 2. Differentiable by duals
/// away from a double eigenvalue.
template <class T>
T spectral_radius(const Mat<T, 2>& A) {
  using std::abs;
  using std::sqrt;
  const T tr = A(0, 0) + A(1, 1);
  const T det = A(0, 0) * A(1, 1) - A(0, 1) * A(1, 0);
  const T disc = tr * tr - T(4) * det;
  if (value_of(disc) < 0) return T(sqrt(det));
  if (value_of(disc) == 0) return T(abs(tr) * T(0.5));
  return T((abs(tr) + sqrt(disc)) * T(0.5));
}

/// Spectral radius of a real 3x3 matrix. The characteristic polynomial
/// p(l) = l^3 - c2 l^2 + c1 l - c0 has a real root r, found by bisection in the value type
/// and refined by one Newton step in T (which carries the dual derivative
/// dr = -dp / p'(r)); the other two roots solve l^2 + (r - c2) l + (c1 + r (r - c2)) = 0,
/// whose constant term is their squared modulus when they are complex.
template <class T>
T spectral_radius(const Mat3<T>& A) {
  using std::abs;
  using std::sqrt;
  using V = value_type_t<T>;
  const T c2 = A.trace();
  const T c1 = A(0, 0) * A(1, 1) - A(0, 1) * A(1, 0) + A(0, 0) * A(2, 2) - A(0, 2) * A(2, 0) +
               A(1, 1) * A(2, 2) - A(1, 2) * A(2, 1);
  const T c0 = A.determinant();
  const V a2 = value_of(c2), a1 = value_of(c1), a0 = value_of(c0);
  auto p = [&](V l) { return ((l - a2) * l + a1) * l - a0; };
  // Cauchy bound: every root lies in [-B, B]; p(-B) < 0 < p(B).
  const V B = V(1) + std::max({abs(a2), abs(a1), abs(a0)});
  V lo = -B, hi = B;
  for (int i = 0; i < 400 && hi - lo > 0; ++i) {
    const V mid = lo + (hi - lo) / V(2);
    if (mid <= lo || mid >= hi) break;
    (p(mid) < 0 ? lo : hi) = mid;
  }
  const V rv = abs(p(lo)) <= abs(p(hi)) ? lo : hi;
  T r = T(rv);
  const T dp = (T(3) * r - T(2) * c2) * r + c1;
  if (value_of(dp) != 0) r = T(r - (((r - c2) * r + c1) * r - c0) / dp);
  const T b = r - c2;           // the quadratic factor l^2 + b l + q
  const T q = c1 + r * b;
  const T disc = b * b - T(4) * q;
  T rho2;
  if (value_of(disc) < 0) {
    rho2 = T(sqrt(q));
  } else if (value_of(disc) == 0) {
    rho2 = T(abs(b) * T(0.5));
  } else {
    rho2 = T((abs(b) + sqrt(disc)) * T(0.5));
  }
  const T rho1 = T(abs(r));
  return value_of(rho1) >= value_of(rho2) ? rho1 : rho2;
}

// ---- one node, fixed or prescribed anchor ---------------------------------------------

/// The step matrix of one node on (x - a - l0, v) with the anchor held: spec "Stability
/// Conditions", one node: [[1 - k dt^2/m, dt (1 - c dt/m)], [-k dt/m, 1 - c dt/m]], whose
/// trace is 2 - (k dt^2 + c dt)/m and determinant 1 - c dt/m.
template <class T>
Mat<T, 2> single_node_step_matrix(const SpringDamperConstants<T>& n, const T& dt) {
  detail::require_constants(n, dt, "single-node stability analysis");
  const T a = n.stiffness * dt / n.mass;  // k dt / m
  const T d = T(1) - n.damping * dt / n.mass;
  Mat<T, 2> A;
  A << T(1) - a * dt, dt * d, -a, d;
  return A;
}

/// Spectral radius of the single-node step (growth per step of the slowest-decaying mode).
template <class T>
T single_node_spectral_radius(const SpringDamperConstants<T>& n, const T& dt) {
  return spectral_radius(single_node_step_matrix(n, dt));
}

/// The Jury conditions of spec "Stability Conditions": the step is strictly stable
/// (radius < 1) exactly when k > 0, c > 0 and k dt^2 + 2 c dt < 4 m. Undamped (c = 0) the
/// radius is exactly 1 inside the bound (symplectic Euler conserves a modified energy).
template <class T>
bool single_node_is_stable(const SpringDamperConstants<T>& n, const T& dt) {
  detail::require_constants(n, dt, "single-node stability analysis");
  const auto k = value_of(n.stiffness), c = value_of(n.damping), m = value_of(n.mass);
  const auto h = value_of(dt);
  return k > 0 && c > 0 && k * h * h + 2 * c * h < 4 * m;
}

/// The single-node bound expressed as the largest stable timestep [s]: the positive root of
/// k dt^2 + 2 c dt = 4 m, i.e. 2 sqrt(m/k) undamped (omega dt < 2); damping tightens it.
template <class T>
T single_node_critical_timestep(const SpringDamperConstants<T>& n) {
  using std::sqrt;
  if (!(value_of(n.stiffness) > 0))
    throw InputError("single-node stability analysis", "stiffness", value_of(n.stiffness), "> 0");
  if (!(value_of(n.mass) > 0))
    throw InputError("single-node stability analysis", "mass", value_of(n.mass), "> 0");
  const T c = n.damping, k = n.stiffness, m = n.mass;
  return T((sqrt(c * c + T(4) * k * m) - c) / k);
}

// ---- two nodes anchored on each other, converged coupling group -------------------------

/// The converged step of an anchored pair as the affine map z+ = M z + f on
/// z = (x_a - x_b, v_a, v_b); spec "Stability Conditions", two nodes.
template <class T>
struct AnchoredPairStep {
  Mat3<T> matrix;  ///< M: the linear part (independent of the rest lengths)
  Vec3<T> offset;  ///< f: the rest lengths' contribution; zero when l0_b = -l0_a at rest
};

/// Product (k_a dt^2/m_a)(k_b dt^2/m_b): the Gauss-Seidel contraction per sweep of the
/// coupling iteration (the converged step exists and the iteration converges when < 1).
template <class T>
T anchored_pair_contraction(const SpringDamperConstants<T>& a, const SpringDamperConstants<T>& b,
                            const T& dt) {
  detail::require_constants(a, dt, "anchored-pair analysis");
  detail::require_constants(b, dt, "anchored-pair analysis");
  return T((a.stiffness * dt * dt / a.mass) * (b.stiffness * dt * dt / b.mass));
}

/// The converged step of nodes a and b anchored on each other (a's anchor is b's position
/// and vice versa), each reading its own position at the old time and its partner's at the
/// new time. With alpha = k_a dt^2/m_a and beta = k_b dt^2/m_b the two velocity updates
///   v_a+ - alpha v_b+ = (1 - c_a dt/m_a) v_a - k_a dt/m_a (e - l0_a)
///   v_b+ - beta v_a+  = (1 - c_b dt/m_b) v_b + k_b dt/m_b (e + l0_b),   e = x_a - x_b,
/// are solved together, and e+ = e + dt (v_a+ - v_b+). None when alpha beta is within 1e-6
/// of 1 (the updates are singular there).
template <class T>
std::optional<AnchoredPairStep<T>> anchored_pair_step(const SpringDamperConstants<T>& a,
                                                      const SpringDamperConstants<T>& b,
                                                      const T& dt) {
  using std::abs;
  const T alpha = a.stiffness * dt * dt / a.mass;
  const T beta = b.stiffness * dt * dt / b.mass;
  const T det = T(1) - anchored_pair_contraction(a, b, dt);
  if (abs(value_of(det)) <= 1e-6) return std::nullopt;
  // R z + r0: the right-hand sides of the two velocity updates.
  Mat<T, 2, 3> R;
  R << -a.stiffness * dt / a.mass, T(1) - a.damping * dt / a.mass, T(0),
      b.stiffness * dt / b.mass, T(0), T(1) - b.damping * dt / b.mass;
  const Vec2<T> r0(a.stiffness * dt * a.rest_length / a.mass,
                   b.stiffness * dt * b.rest_length / b.mass);
  Mat<T, 2> Vinv;  // inverse of [[1, -alpha], [-beta, 1]]
  Vinv << T(1) / det, alpha / det, beta / det, T(1) / det;
  const Mat<T, 2, 3> VR = Vinv * R;
  const Vec2<T> Vr0 = Vinv * r0;
  AnchoredPairStep<T> out;
  out.matrix.row(0) = dt * (VR.row(0) - VR.row(1));
  out.matrix(0, 0) += T(1);
  out.matrix.template bottomRows<2>() = VR;
  out.offset(0) = dt * (Vr0(0) - Vr0(1));
  out.offset.template tail<2>() = Vr0;
  return out;
}

/// The linear part M of the anchored pair's converged step (none near alpha beta = 1).
template <class T>
std::optional<Mat3<T>> anchored_pair_step_matrix(const SpringDamperConstants<T>& a,
                                                 const SpringDamperConstants<T>& b, const T& dt) {
  auto s = anchored_pair_step(a, b, dt);
  if (!s) return std::nullopt;
  return s->matrix;
}

/// Spectral radius of the anchored pair's converged step: its growth per step (the common
/// translation, an eigenvalue of exactly 1, is outside the map). None near alpha beta = 1.
template <class T>
std::optional<T> anchored_pair_spectral_radius(const SpringDamperConstants<T>& a,
                                               const SpringDamperConstants<T>& b, const T& dt) {
  auto M = anchored_pair_step_matrix(a, b, dt);
  if (!M) return std::nullopt;
  return spectral_radius(*M);
}

/// Growth per step of the common velocity S = v_a + v_b of an equal pair (same k, c, m):
/// S+ = (m - c dt) / (m - k dt^2) S (spec "Stability Conditions", closed form). Throws
/// DomainError where m = k dt^2.
template <class T>
T equal_pair_growth_factor(const SpringDamperConstants<T>& n, const T& dt) {
  detail::require_constants(n, dt, "equal-pair analysis");
  const T den = n.mass - n.stiffness * dt * dt;
  if (value_of(den) == 0)
    throw DomainError("equal-pair analysis", "m - k dt^2", value_of(den), "!= 0");
  return T((n.mass - n.damping * dt) / den);
}

/// The damping range in which an equal, converged pair is stable (spec "Stability
/// Conditions"): k dt <= c <= (2 m - k dt^2) / dt [N s/m]. Empty (first > second) exactly
/// when k dt^2 > m, where the coupling iteration does not converge either.
template <class T>
std::pair<T, T> equal_pair_damping_range(const T& stiffness, const T& mass, const T& dt) {
  detail::require_timestep(dt, "equal-pair analysis");
  return {T(stiffness * dt), T((T(2) * mass - stiffness * dt * dt) / dt)};
}

}  // namespace cabledyn
