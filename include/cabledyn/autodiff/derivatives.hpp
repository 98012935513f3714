// cabledyn: gradients, Hessians and Jacobians of scalar-generic functors by duals.
// For tests and for users checking their own laws: the library's kernels carry closed-form
// derivatives, and these helpers give the independent reference (ARCHITECTURE.md).
//
// A functor is anything callable as f(x) for x an Eigen column vector of any scalar T
// (double, long double, duals), returning T (scalar functions) or a column vector of T
// (vector functions); a generic lambda `[](const auto& x) { ... }` is the usual form.
//
// The functor must return the plain scalar T, not an AutoDiffScalar expression: a lambda
// that returns `a * b` by `auto` hands back an expression whose operands are temporaries
// that died at the return. The helpers refuse such a functor at compile time; write
// `return T(a * b);` or give the lambda a return type.
#pragma once

#include <type_traits>

#include <Eigen/Core>

#include "cabledyn/autodiff/dual.hpp"

namespace cabledyn {

namespace detail {
template <class Derived>
using plain_vec_t =
    Eigen::Matrix<typename Derived::Scalar, Derived::SizeAtCompileTime, 1>;
}  // namespace detail

/// Value and gradient of a scalar functor by first-order duals.
template <class Derived>
struct ValueGradient {
  typename Derived::Scalar value;
  detail::plain_vec_t<Derived> gradient;
};

/// f(x) and its gradient df/dx by first-order duals.
template <class F, class Derived>
ValueGradient<Derived> value_gradient(F&& f, const Eigen::MatrixBase<Derived>& x) {
  using S = typename Derived::Scalar;
  constexpr int N = Derived::SizeAtCompileTime;
  using D = Dual<S, N>;
  const int n = static_cast<int>(x.size());
  Eigen::Matrix<D, N, 1> xd(n);
  for (int i = 0; i < n; ++i) xd(i) = D(x(i), n, i);
  static_assert(std::is_same_v<std::decay_t<decltype(f(xd))>, D>,
                "cabledyn::gradient: the functor must return its scalar type T, not an expression");
  const D y = f(xd);
  ValueGradient<Derived> out{y.value(), detail::plain_vec_t<Derived>::Zero(n)};
  // A result that does not depend on x may carry an empty derivative vector.
  if (y.derivatives().size() == n) out.gradient = y.derivatives();
  return out;
}

/// Gradient df/dx of a scalar functor by first-order duals.
template <class F, class Derived>
detail::plain_vec_t<Derived> gradient(F&& f, const Eigen::MatrixBase<Derived>& x) {
  return value_gradient(std::forward<F>(f), x).gradient;
}

/// Hessian d2f/dx2 of a scalar functor by nested (second-order) duals.
template <class F, class Derived>
Eigen::Matrix<typename Derived::Scalar, Derived::SizeAtCompileTime, Derived::SizeAtCompileTime>
hessian(F&& f, const Eigen::MatrixBase<Derived>& x) {
  using S = typename Derived::Scalar;
  constexpr int N = Derived::SizeAtCompileTime;
  using D1 = Dual<S, N>;
  using D2 = Dual2<S, N>;
  using InnerVec = Eigen::Matrix<D1, N, 1>;
  const int n = static_cast<int>(x.size());
  Eigen::Matrix<D2, N, 1> xd(n);
  for (int i = 0; i < n; ++i) {
    InnerVec der(n);
    for (int j = 0; j < n; ++j)
      der(j) = D1(S(i == j ? 1 : 0), Eigen::Matrix<S, N, 1>::Zero(n));
    xd(i) = D2(D1(x(i), n, i), der);
  }
  static_assert(std::is_same_v<std::decay_t<decltype(f(xd))>, D2>,
                "cabledyn::hessian: the functor must return its scalar type T, not an expression");
  const D2 y = f(xd);
  Eigen::Matrix<S, N, N> H = Eigen::Matrix<S, N, N>::Zero(n, n);
  if (y.derivatives().size() != n) return H;
  for (int i = 0; i < n; ++i) {
    const auto& row = y.derivatives()(i).derivatives();
    if (row.size() == n) H.row(i) = row.transpose();
  }
  return H;
}

/// Jacobian dF/dx (rows: outputs, columns: inputs) of a vector functor by first-order duals.
template <class F, class Derived>
Eigen::Matrix<typename Derived::Scalar, Eigen::Dynamic, Eigen::Dynamic> jacobian(
    F&& f, const Eigen::MatrixBase<Derived>& x) {
  using S = typename Derived::Scalar;
  constexpr int N = Derived::SizeAtCompileTime;
  using D = Dual<S, N>;
  const int n = static_cast<int>(x.size());
  Eigen::Matrix<D, N, 1> xd(n);
  for (int i = 0; i < n; ++i) xd(i) = D(x(i), n, i);
  using R = std::decay_t<decltype(f(xd))>;
  static_assert(std::is_same_v<typename R::Scalar, D> && R::ColsAtCompileTime == 1,
                "cabledyn::jacobian: the functor must return a column vector of T");
  const R y = f(xd);
  const int m = static_cast<int>(y.size());
  Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> J =
      Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>::Zero(m, n);
  for (int i = 0; i < m; ++i) {
    const D yi = y(i);
    if (yi.derivatives().size() == n) J.row(i) = yi.derivatives().transpose();
  }
  return J;
}

}  // namespace cabledyn
