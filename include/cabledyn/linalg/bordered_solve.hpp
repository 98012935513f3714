// cabledyn: the bordered solve by Sherman-Morrison on a band factorisation.
// Spec "Condensed torsion", Residual and tangent: the tangent B + grad(Theta) grad(Theta)^T / C
// carries a rank-one term that is not banded. Each Newton step solves it on the band
// factorisation of B with two right-hand sides, B y = -R and B z = grad(Theta),
//     x = y - z (grad(Theta) . y) / (C + grad(Theta) . z),
// accepts x on a backward-error test, and falls back on iterative refinement (and, in the
// caller, on a shifted factorisation). Statics and stability: the inertia of the bordered
// matrix follows from that of B and the sign of 1 + grad(Theta)^T B^-1 grad(Theta) / C.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/linalg/detail/band_util.hpp"

namespace cabledyn {

/// Acceptance of a bordered solve.
struct BorderedOptions {
  /// Accept x when its normwise backward error is at most this; 0 means 64 eps of T.
  double tolerance = 0;
  /// Refinement steps allowed after the plain Sherman-Morrison solution (a step that does
  /// not lower the backward error is undone and ends the refinement; it still counts).
  int max_refinements = 4;
};

/// How a bordered solve ended.
enum class BorderedStatus {
  ok,               ///< backward error within the tolerance
  singular_update,  ///< c + v.z is zero to working precision: B + u v^T / c is singular
  not_accepted,     ///< still above the tolerance after refinement: shift and refactor
};

/// Outcome of BorderedSolver::solve. backward_error is the normwise backward error of the
/// returned x, ||rhs - K x||_inf / (||K||_inf ||x||_inf + ||rhs||_inf) with ||K||_inf
/// bounded by ||B||_inf + ||u||_inf ||v||_1 / |c|; initial_backward_error that of the plain
/// Sherman-Morrison x; denominator is c + v.z, z = B^-1 u.
struct BorderedResult {
  BorderedStatus status = BorderedStatus::not_accepted;
  long double backward_error = 0;
  long double initial_backward_error = 0;
  int refinements = 0;
  long double denominator = 0;
  bool ok() const noexcept { return status == BorderedStatus::ok; }
};

/// Negative eigenvalue count of K = B + g g^T / C from that of B (spec "Condensed torsion",
/// Statics and stability: neg(K) = neg(B) - [1 + g^T B^-1 g / C < 0] for C > 0). By
/// Haynsworth's inertia additivity on [[B, g], [g^T, -C]], for C of either sign:
/// neg(K) = neg(B) + [C + g^T B^-1 g > 0] - [C > 0]. `g_dot_z` is g^T B^-1 g (z of the
/// symmetric bordered solve); B and K are assumed nonsingular.
template <class T>
Eigen::Index bordered_negative_count(Eigen::Index negative_B, const T& C, const T& g_dot_z) {
  const auto c = value_of(C);
  const auto s = c + value_of(g_dot_z);
  return negative_B + (s > 0 ? 1 : 0) - (c > 0 ? 1 : 0);
}

/// Solves (B + u v^T / c) x = rhs by Sherman-Morrison on a factorisation of the band matrix
/// B (BandLU, BandCholesky, BandLDLT: anything with solve(Eigen::Ref<MatX<T>>)), with
/// iterative refinement when the backward error is too large. Workspaces are sized once at
/// construction; solve() allocates nothing.
template <class T>
class BorderedSolver {
 public:
  using Index = Eigen::Index;
  using Real = value_type_t<T>;

  BorderedSolver() = default;
  explicit BorderedSolver(Index n) : n_(n) {
    detail::check_arg(n >= 0, "BorderedSolver", "n", n, ">= 0");
    work_.assign(static_cast<std::size_t>(5 * n), T(0));
  }

  Index rows() const noexcept { return n_; }

  /// Symmetric border of the spec: (B + g g^T / C) x = rhs.
  template <class Matrix, class Factor>
  BorderedResult solve(const Matrix& B, const Factor& F, const Eigen::Ref<const VecX<T>>& g,
                       const T& C, const Eigen::Ref<const VecX<T>>& rhs, Eigen::Ref<VecX<T>> x,
                       const BorderedOptions& options = {}) {
    return solve(B, F, g, g, C, rhs, x, options);
  }

  /// General rank-one border: (B + u v^T / c) x = rhs. B is the matrix F factorised (used
  /// for the residual); x and rhs must not overlap. On singular_update x is left untouched;
  /// on not_accepted x holds the iterate of smallest backward error.
  template <class Matrix, class Factor>
  BorderedResult solve(const Matrix& B, const Factor& F, const Eigen::Ref<const VecX<T>>& u,
                       const Eigen::Ref<const VecX<T>>& v, const T& c,
                       const Eigen::Ref<const VecX<T>>& rhs, Eigen::Ref<VecX<T>> x,
                       const BorderedOptions& options = {}) {
    using std::abs;
    const Index n = n_;
    detail::check_arg(B.rows() == n, "BorderedSolver::solve", "matrix rows", B.rows(),
                    "== n as sized");
    detail::check_arg(u.size() == n && v.size() == n && rhs.size() == n && x.size() == n,
                    "BorderedSolver::solve", "vector size (smallest)",
                    std::min({u.size(), v.size(), rhs.size(), x.size()}), "== n");
    if (!(value_of(c) != 0) || !is_finite(c))
      throw InputError("BorderedSolver::solve", "c", value_of(c), "finite, != 0");

    Eigen::Map<MatX<T>> W(work_.data(), n, 2);  // [y, z]
    Eigen::Map<VecX<T>> r(work_.data() + 2 * n, n), t(work_.data() + 3 * n, n),
        d(work_.data() + 4 * n, n);
    W.col(0) = rhs;
    W.col(1) = u;
    F.solve(W);  // two right-hand sides, one pass over the factors
    auto y = W.col(0);
    auto z = W.col(1);

    BorderedResult res;
    const T vz = dot(v, z);
    const T den = c + vz;
    res.denominator = static_cast<long double>(value_of(den));
    Real scale = abs(value_of(c));
    for (Index i = 0; i < n; ++i) scale += abs(value_of(v(i))) * abs(value_of(z(i)));
    if (!(abs(value_of(den)) > static_cast<Real>(std::max<Index>(n, 1)) * epsilon<T>() * scale)) {
      res.status = BorderedStatus::singular_update;
      return res;
    }
    vz_ = vz;

    // Norm bound of K = B + u v^T / c.
    Real unorm = 0, vnorm1 = 0, rhsnorm = 0;
    for (Index i = 0; i < n; ++i) {
      unorm = std::max(unorm, abs(value_of(u(i))));
      vnorm1 += abs(value_of(v(i)));
      rhsnorm = std::max(rhsnorm, abs(value_of(rhs(i))));
    }
    const Real knorm = static_cast<Real>(B.norm_inf()) + unorm * vnorm1 / abs(value_of(c));

    // x = y - z (v . y) / den
    const T sy = dot(v, y) / den;
    for (Index i = 0; i < n; ++i) x(i) = y(i) - z(i) * sy;

    // Residual r = rhs - B x - u (v . x) / c; returns the backward error of x.
    auto backward_error = [&]() -> Real {
      B.multiply(x, t);
      const T sx = dot(v, x) / c;
      Real rn = 0, xn = 0;
      for (Index i = 0; i < n; ++i) {
        r(i) = rhs(i) - t(i) - u(i) * sx;
        rn = std::max(rn, abs(value_of(r(i))));
        xn = std::max(xn, abs(value_of(x(i))));
      }
      const Real denom = knorm * xn + rhsnorm;
      return denom > 0 ? rn / denom : rn;
    };

    const Real tol = options.tolerance > 0 ? static_cast<Real>(options.tolerance)
                                           : Real(64) * epsilon<T>();
    Real eta = backward_error();
    res.initial_backward_error = static_cast<long double>(eta);
    while (!(eta <= tol) && res.refinements < options.max_refinements) {
      // Correction d = K^-1 r by the same formula, reusing z.
      d = r;
      F.solve(d);
      const T sd = dot(v, d) / den;
      for (Index i = 0; i < n; ++i) d(i) -= z(i) * sd;
      x += d;
      ++res.refinements;
      const Real eta_new = backward_error();
      if (!(eta_new < eta)) {  // no progress: keep the better iterate and stop
        x -= d;
        break;
      }
      eta = eta_new;
    }
    res.backward_error = static_cast<long double>(eta);
    res.status = eta <= tol ? BorderedStatus::ok : BorderedStatus::not_accepted;
    return res;
  }

  /// v . z of the last successful solve, z = B^-1 u (g^T B^-1 g for the symmetric border,
  /// the input of bordered_negative_count).
  const T& v_dot_z() const noexcept { return vz_; }

 private:
  template <class A, class Bv>
  static T dot(const A& a, const Bv& b) {
    T s = T(0);
    for (Index i = 0; i < a.size(); ++i) s += a(i) * b(i);
    return s;
  }
  Index n_ = 0;
  std::vector<T> work_;
  T vz_ = T(0);
};

}  // namespace cabledyn
