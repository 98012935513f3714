// cabledyn: tangent checkers, shipped so that users verify their own laws the way the
// library verifies its own (STYLE.md, after Ceres' manifold_test_utils).
//
// Each checker compares a closed-form derivative (gradient, Hessian or Jacobian) with two
// independent references: dual numbers of the same functor, and central differences in
// long double. The error is reported as the worst entry relative to the scale of the
// reference matrix (its largest magnitude), with the entry's index and both values.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "cabledyn/autodiff/derivatives.hpp"

namespace cabledyn {

/// Result of comparing a closed-form derivative with one reference.
struct CheckResult {
  double max_rel_error = 0;    ///< max |closed - reference| / scale
  Eigen::Index worst_row = -1; ///< row of the worst entry (-1: none)
  Eigen::Index worst_col = -1; ///< column of the worst entry
  double closed = 0;           ///< closed-form value at the worst entry
  double reference = 0;        ///< reference value at the worst entry
  double scale = 0;            ///< largest magnitude of the reference
  std::string log;             ///< one line a person can read

  /// True when the error is finite and within `tol`.
  bool ok(double tol) const { return std::isfinite(max_rel_error) && max_rel_error <= tol; }
};

/// Results of one closed form against both references.
struct TangentCheck {
  CheckResult vs_dual;  ///< against dual numbers of the functor
  CheckResult vs_fd;    ///< against central differences in long double
  bool ok(double tol_dual, double tol_fd) const {
    return vs_dual.ok(tol_dual) && vs_fd.ok(tol_fd);
  }
  std::string log() const { return vs_dual.log + "\n" + vs_fd.log; }
};

/// Options of the checkers.
struct CheckOptions {
  /// Relative finite-difference step: h_i = step * max(|x_i|, x_scale). 0 picks
  /// eps_ld^(1/3) for first differences (balancing truncation and round-off).
  long double step = 0;
  /// Magnitude below which a coordinate counts as zero for the step size; 0 takes the
  /// largest |x_j| of the point (1 at the origin), the scale of the problem.
  long double x_scale = 0;
  /// Scale floor: the reference scale is max(largest |entry|, scale_floor).
  double scale_floor = std::numeric_limits<double>::min();
};

/// Compare two matrices entrywise relative to the scale of `reference`.
template <class A, class B>
CheckResult compare_matrices(const Eigen::MatrixBase<A>& closed, const Eigen::MatrixBase<B>& reference,
                             const std::string& what, double scale_floor = std::numeric_limits<double>::min()) {
  CheckResult r;
  if (closed.rows() != reference.rows() || closed.cols() != reference.cols()) {
    r.max_rel_error = std::numeric_limits<double>::infinity();
    r.log = what + ": shape mismatch " + std::to_string(closed.rows()) + "x" +
            std::to_string(closed.cols()) + " vs " + std::to_string(reference.rows()) + "x" +
            std::to_string(reference.cols());
    return r;
  }
  long double scale = 0;
  for (Eigen::Index j = 0; j < reference.cols(); ++j)
    for (Eigen::Index i = 0; i < reference.rows(); ++i)
      scale = std::max(scale, std::fabs(static_cast<long double>(reference(i, j))));
  scale = std::max(scale, static_cast<long double>(scale_floor));
  r.scale = static_cast<double>(scale);
  for (Eigen::Index j = 0; j < reference.cols(); ++j) {
    for (Eigen::Index i = 0; i < reference.rows(); ++i) {
      const long double c = static_cast<long double>(closed(i, j));
      const long double f = static_cast<long double>(reference(i, j));
      long double e = std::fabs(c - f) / scale;
      if (!std::isfinite(static_cast<double>(c)) || !std::isfinite(static_cast<double>(f)))
        e = std::numeric_limits<long double>::infinity();
      if (r.worst_row < 0 || e > r.max_rel_error || std::isnan(static_cast<double>(e))) {
        r.max_rel_error = static_cast<double>(e);
        r.worst_row = i;
        r.worst_col = j;
        r.closed = static_cast<double>(c);
        r.reference = static_cast<double>(f);
      }
    }
  }
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%s: max rel error %.3e at (%ld, %ld): closed %.17g reference %.17g (scale %.6g)",
                what.c_str(), r.max_rel_error, static_cast<long>(r.worst_row),
                static_cast<long>(r.worst_col), r.closed, r.reference, r.scale);
  r.log = buf;
  return r;
}

namespace detail {
inline long double fd_step(const CheckOptions& o, long double xi, long double x_scale,
                           long double rel_default) {
  const long double rel = o.step > 0 ? o.step : rel_default;
  return rel * std::max(std::fabs(xi), x_scale);
}
template <class V>
long double fd_scale(const CheckOptions& o, const V& x) {
  if (o.x_scale > 0) return o.x_scale;
  long double m = 0;
  for (Eigen::Index i = 0; i < x.size(); ++i) m = std::max(m, std::fabs(static_cast<long double>(x(i))));
  return m > 0 ? m : 1.0L;
}
inline long double cbrt_eps_ld() { return std::cbrt(std::numeric_limits<long double>::epsilon()); }
}  // namespace detail

/// Central-difference gradient of a scalar functor, evaluated in long double.
template <class F, class Derived>
Eigen::Matrix<long double, Eigen::Dynamic, 1> fd_gradient(F&& f, const Eigen::MatrixBase<Derived>& x,
                                                         const CheckOptions& o = {}) {
  using VL = Eigen::Matrix<long double, Derived::SizeAtCompileTime, 1>;
  const Eigen::Index n = x.size();
  VL xl = x.template cast<long double>();
  Eigen::Matrix<long double, Eigen::Dynamic, 1> g(n);
  const long double xs = detail::fd_scale(o, xl);
  for (Eigen::Index i = 0; i < n; ++i) {
    const long double h = detail::fd_step(o, xl(i), xs, detail::cbrt_eps_ld());
    VL xp = xl, xm = xl;
    xp(i) += h;
    xm(i) -= h;
    const long double hp = xp(i) - xl(i), hm = xl(i) - xm(i);  // exact steps taken
    g(i) = (static_cast<long double>(f(xp)) - static_cast<long double>(f(xm))) / (hp + hm);
  }
  return g;
}

/// Central-difference Jacobian of a vector functor, evaluated in long double.
template <class F, class Derived>
Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic> fd_jacobian(
    F&& f, const Eigen::MatrixBase<Derived>& x, const CheckOptions& o = {}) {
  using VL = Eigen::Matrix<long double, Derived::SizeAtCompileTime, 1>;
  const Eigen::Index n = x.size();
  VL xl = x.template cast<long double>();
  Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic> J;
  const long double xs = detail::fd_scale(o, xl);
  for (Eigen::Index i = 0; i < n; ++i) {
    const long double h = detail::fd_step(o, xl(i), xs, detail::cbrt_eps_ld());
    VL xp = xl, xm = xl;
    xp(i) += h;
    xm(i) -= h;
    const long double hp = xp(i) - xl(i), hm = xl(i) - xm(i);
    const Eigen::Matrix<long double, Eigen::Dynamic, 1> fp = f(xp);
    const Eigen::Matrix<long double, Eigen::Dynamic, 1> fm = f(xm);
    if (i == 0) J.resize(fp.size(), n);
    J.col(i) = (fp - fm) / (hp + hm);
  }
  return J;
}

/// Check a closed-form gradient g_closed of the scalar functor f at x.
template <class F, class DX, class DG>
TangentCheck check_gradient(F&& f, const Eigen::MatrixBase<DX>& x, const Eigen::MatrixBase<DG>& g_closed,
                            const CheckOptions& o = {}) {
  TangentCheck t;
  const auto g_dual = gradient(f, x);
  t.vs_dual = compare_matrices(g_closed, g_dual, "gradient vs duals", o.scale_floor);
  const auto g_fd = fd_gradient(f, x, o);
  t.vs_fd = compare_matrices(g_closed, g_fd, "gradient vs long-double central differences",
                             o.scale_floor);
  return t;
}

/// Check a closed-form Hessian H_closed of the scalar functor f at x: against nested duals,
/// and against central differences (in long double) of the first-order dual gradient.
template <class F, class DX, class DH>
TangentCheck check_hessian(F&& f, const Eigen::MatrixBase<DX>& x, const Eigen::MatrixBase<DH>& H_closed,
                           const CheckOptions& o = {}) {
  TangentCheck t;
  const auto H_dual = hessian(f, x);
  t.vs_dual = compare_matrices(H_closed, H_dual, "Hessian vs nested duals", o.scale_floor);
  auto grad_ld = [&f](const auto& xl) -> Eigen::Matrix<long double, Eigen::Dynamic, 1> {
    return gradient(f, xl);
  };
  const auto H_fd = fd_jacobian(grad_ld, x, o);
  t.vs_fd = compare_matrices(H_closed, H_fd,
                             "Hessian vs long-double central differences of the gradient",
                             o.scale_floor);
  return t;
}

/// Check a closed-form Jacobian J_closed (rows: outputs) of the vector functor f at x.
template <class F, class DX, class DJ>
TangentCheck check_jacobian(F&& f, const Eigen::MatrixBase<DX>& x, const Eigen::MatrixBase<DJ>& J_closed,
                            const CheckOptions& o = {}) {
  TangentCheck t;
  const auto J_dual = jacobian(f, x);
  t.vs_dual = compare_matrices(J_closed, J_dual, "Jacobian vs duals", o.scale_floor);
  auto f_ld = [&f](const auto& xl) -> Eigen::Matrix<long double, Eigen::Dynamic, 1> { return f(xl); };
  const auto J_fd = fd_jacobian(f_ld, x, o);
  t.vs_fd = compare_matrices(J_closed, J_fd, "Jacobian vs long-double central differences",
                             o.scale_floor);
  return t;
}

/// Taylor (slope) test of a closed-form derivative: for a direction w and steps
/// h_k = h0 / 2^k, the remainders |f(x + h w) - f(x) - h J w| of a correct J fall as h^2,
/// i.e. by 4 per halving. Returns the remainders; `slope_ratios` turns them into ratios.
/// `f` returns a vector (use a one-element vector for a scalar); `Jw` is J times w.
template <class F, class DX, class DW, class DJw>
std::vector<long double> taylor_remainders(F&& f, const Eigen::MatrixBase<DX>& x,
                                           const Eigen::MatrixBase<DW>& w,
                                           const Eigen::MatrixBase<DJw>& Jw, long double h0,
                                           int levels = 6) {
  using VL = Eigen::Matrix<long double, Eigen::Dynamic, 1>;
  const VL xl = x.template cast<long double>();
  const VL wl = w.template cast<long double>();
  const VL jw = Jw.template cast<long double>();
  const VL f0 = f(xl);
  std::vector<long double> rem;
  long double h = h0;
  for (int k = 0; k < levels; ++k, h /= 2) {
    const VL xh = xl + h * wl;
    const VL fh = f(xh);
    rem.push_back((fh - f0 - h * jw).norm());
  }
  return rem;
}

/// Ratios r_k / r_{k+1} of successive Taylor remainders (4 for a correct derivative).
inline std::vector<long double> slope_ratios(const std::vector<long double>& rem) {
  std::vector<long double> q;
  for (std::size_t k = 0; k + 1 < rem.size(); ++k)
    q.push_back(rem[k + 1] > 0 ? rem[k] / rem[k + 1] : std::numeric_limits<long double>::infinity());
  return q;
}

}  // namespace cabledyn
