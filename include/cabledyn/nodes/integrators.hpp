// cabledyn: generic one-step integrators over any node with a continuous right-hand side.
// Spec spring-damper-node.md, "Implementation Mapping": `derivatives` is for the framework's
// integrators (integrate_node), `implicit_residual` for its backward-Euler step
// (implicit_euler_step); both take the injected parameters by the same rule as `step`.
//
// A node N qualifies (concept OdeNode) when it names `Scalar`, `State` (a fixed-size Eigen
// column vector) and `Inputs`, and `node.derivatives(state, inputs)` returns the State
// derivative. The inputs are either a value (held over the step) or a callable
// `inputs(t) -> Inputs` sampled at the stage times, which the higher-order schemes need to
// keep their order under a time-dependent boundary input.
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <string>
#include <type_traits>

#include <Eigen/Core>
#include <Eigen/LU>

#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// A node with a continuous right-hand side: `derivatives(state, inputs) -> State`.
template <class N>
concept OdeNode = requires(const N& n, const typename N::State& s, const typename N::Inputs& u) {
  typename N::Scalar;
  requires N::State::ColsAtCompileTime == 1;
  requires N::State::SizeAtCompileTime > 0;
  { n.derivatives(s, u) } -> std::convertible_to<typename N::State>;
};

/// A node with a backward-Euler residual `implicit_residual(x_new, x_old, u_new, dt)`.
template <class N>
concept ImplicitNode = OdeNode<N> && requires(const N& n, const typename N::State& s,
                                              const typename N::Inputs& u,
                                              const typename N::Scalar& dt) {
  { n.implicit_residual(s, s, u, dt) } -> std::convertible_to<typename N::State>;
};

/// Marker for "no injected parameters": the node's own constants are used.
struct NoParams {};

/// Inputs given as a value, or as a function of time returning the Inputs.
template <class U, class N>
concept InputSource =
    std::is_convertible_v<const U&, typename N::Inputs> ||
    (std::is_invocable_v<const U&, const typename N::Scalar&> &&
     std::is_convertible_v<std::invoke_result_t<const U&, const typename N::Scalar&>,
                           typename N::Inputs>);

/// Options of the Newton solve of the backward-Euler step.
struct NewtonOptions {
  int max_iterations = 25;  ///< Newton iterations before SolveError
  /// Converged when max |dx| <= tolerance * max(1, max |x|); 0 picks 64 eps of the scalar.
  double tolerance = 0;
};

namespace detail {

template <class N, class U>
typename N::Inputs inputs_at(const U& u, const typename N::Scalar& t) {
  if constexpr (std::is_convertible_v<const U&, typename N::Inputs>) {
    return typename N::Inputs(u);
  } else {
    return typename N::Inputs(u(t));
  }
}

template <class N, class P>
typename N::State rhs(const N& node, const typename N::State& s, const typename N::Inputs& u,
                      const P& params) {
  if constexpr (std::is_same_v<P, NoParams>) {
    return typename N::State(node.derivatives(s, u));
  } else {
    return typename N::State(node.derivatives(s, u, params));
  }
}

template <class N, class P>
typename N::State residual(const N& node, const typename N::State& x_new,
                           const typename N::State& x_old, const typename N::Inputs& u,
                           const typename N::Scalar& dt, const P& params) {
  if constexpr (std::is_same_v<P, NoParams>) {
    return typename N::State(node.implicit_residual(x_new, x_old, u, dt));
  } else {
    return typename N::State(node.implicit_residual(x_new, x_old, u, dt, params));
  }
}

template <class N, class P>
concept HasImplicitJacobian =
    requires(const N& n, const typename N::State& s, const typename N::Inputs& u,
             const typename N::Scalar& dt, const P& p) {
      { n.implicit_jacobian(s, s, u, dt) };
    } &&
    (std::is_same_v<P, NoParams> ||
     requires(const N& n, const typename N::State& s, const typename N::Inputs& u,
              const typename N::Scalar& dt, const P& p) {
       { n.implicit_jacobian(s, s, u, dt, p) };
     });

/// Name of a node for an error message: node.object() or node.name() when it has one.
template <class N>
std::string node_object(const N& node) {
  if constexpr (requires { { node.object() } -> std::convertible_to<std::string>; }) {
    return node.object();
  } else if constexpr (requires { { node.name() } -> std::convertible_to<std::string>; }) {
    return "node '" + std::string(node.name()) + "'";
  } else {
    return "node";
  }
}

template <class V>
auto max_abs_value(const V& v) {
  using std::abs;
  value_type_t<typename V::Scalar> m = 0;
  for (Eigen::Index i = 0; i < v.size(); ++i) m = std::max(m, abs(value_of(v(i))));
  return m;
}

}  // namespace detail

/// Explicit (forward) Euler step of dt: x + dt f(x, u(t)). Order 1.
template <OdeNode N, class U, class P = NoParams>
  requires InputSource<U, N>
typename N::State explicit_euler_step(const N& node, const typename N::State& s, const U& inputs,
                                      const typename N::Scalar& t, const typename N::Scalar& dt,
                                      const P& params = P{}) {
  using State = typename N::State;
  const State k1 = detail::rhs(node, s, detail::inputs_at<N>(inputs, t), params);
  return State(s + dt * k1);
}

/// Heun's method (explicit trapezoidal rule): order 2.
template <OdeNode N, class U, class P = NoParams>
  requires InputSource<U, N>
typename N::State heun_step(const N& node, const typename N::State& s, const U& inputs,
                            const typename N::Scalar& t, const typename N::Scalar& dt,
                            const P& params = P{}) {
  using State = typename N::State;
  using T = typename N::Scalar;
  const State k1 = detail::rhs(node, s, detail::inputs_at<N>(inputs, t), params);
  const State x1 = s + dt * k1;
  const State k2 = detail::rhs(node, x1, detail::inputs_at<N>(inputs, T(t + dt)), params);
  return State(s + (dt * T(0.5)) * (k1 + k2));
}

/// Classical fourth-order Runge-Kutta step: order 4.
template <OdeNode N, class U, class P = NoParams>
  requires InputSource<U, N>
typename N::State rk4_step(const N& node, const typename N::State& s, const U& inputs,
                           const typename N::Scalar& t, const typename N::Scalar& dt,
                           const P& params = P{}) {
  using State = typename N::State;
  using T = typename N::Scalar;
  const T h2 = dt * T(0.5);
  const auto u0 = detail::inputs_at<N>(inputs, t);
  const auto uh = detail::inputs_at<N>(inputs, T(t + h2));
  const auto u1 = detail::inputs_at<N>(inputs, T(t + dt));
  const State k1 = detail::rhs(node, s, u0, params);
  const State x2 = s + h2 * k1;
  const State k2 = detail::rhs(node, x2, uh, params);
  const State x3 = s + h2 * k2;
  const State k3 = detail::rhs(node, x3, uh, params);
  const State x4 = s + dt * k3;
  const State k4 = detail::rhs(node, x4, u1, params);
  return State(s + (dt / T(6)) * (k1 + T(2) * k2 + T(2) * k3 + k4));
}

/// Backward-Euler step of dt: solves implicit_residual(x+, x, u(t + dt), dt) = 0 by Newton
/// from x+ = x. The Jacobian is the node's `implicit_jacobian` when it has one, else central
/// differences of the residual (step eps^(1/3) max(|x_i|, 1)). Order 1, A-stable.
/// Throws SolveError naming the node when Newton does not converge or meets a non-finite
/// residual or update.
template <ImplicitNode N, class U, class P = NoParams>
  requires InputSource<U, N>
typename N::State backward_euler_step(const N& node, const typename N::State& s, const U& inputs,
                                      const typename N::Scalar& t, const typename N::Scalar& dt,
                                      const P& params = P{}, const NewtonOptions& opt = {}) {
  using State = typename N::State;
  using T = typename N::Scalar;
  using V = value_type_t<T>;
  constexpr int n = State::SizeAtCompileTime;
  using Jac = Eigen::Matrix<T, n, n>;
  using std::cbrt;
  using std::isfinite;
  if (opt.max_iterations < 1)
    throw InputError(detail::node_object(node), "Newton max_iterations", opt.max_iterations,
                     ">= 1");
  const V tol = opt.tolerance > 0 ? static_cast<V>(opt.tolerance) : tolerance<T>(64);
  const auto u1 = detail::inputs_at<N>(inputs, T(t + dt));
  State x = s;
  V last = 0;
  for (int it = 0; it < opt.max_iterations; ++it) {
    const State R = detail::residual(node, x, s, u1, dt, params);
    Jac J;
    if constexpr (detail::HasImplicitJacobian<N, P>) {
      if constexpr (std::is_same_v<P, NoParams>)
        J = node.implicit_jacobian(x, s, u1, dt);
      else
        J = node.implicit_jacobian(x, s, u1, dt, params);
    } else {
      const V rel = cbrt(epsilon<T>());
      for (int j = 0; j < n; ++j) {
        using std::abs;
        const V h = rel * std::max<V>(abs(value_of(x(j))), V(1));
        State xp = x, xm = x;
        xp(j) += T(h);
        xm(j) -= T(h);
        J.col(j) = (detail::residual(node, xp, s, u1, dt, params) -
                    detail::residual(node, xm, s, u1, dt, params)) /
                   T(2 * h);
      }
    }
    const State dx = J.partialPivLu().solve(-R);
    last = detail::max_abs_value(dx);
    if (!isfinite(last) || !isfinite(detail::max_abs_value(R)))
      throw SolveError(detail::node_object(node), "backward-Euler Newton update", last,
                       "finite (singular or non-finite residual Jacobian)");
    x += dx;
    if (last <= tol * std::max<V>(V(1), detail::max_abs_value(x))) return x;
  }
  throw SolveError(detail::node_object(node), "backward-Euler Newton update", last,
                   "<= tolerance within " + std::to_string(opt.max_iterations) + " iterations");
}

}  // namespace cabledyn
