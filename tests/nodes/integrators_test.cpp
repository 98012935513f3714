// Generic integrators over any node with `derivatives`: observed orders on a dt-halving
// ladder against a manufactured exact solution (odeint habit), injected parameters, the
// backward-Euler Newton with the node's Jacobian and with differences, on a linear and a
// nonlinear node, and its named failure.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <string>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/nodes/integrators.hpp"
#include "cabledyn/nodes/order_study.hpp"
#include "cabledyn/nodes/spring_damper.hpp"

using namespace cabledyn;

namespace {

// x*(t) = sin(2t) + 0.3 cos(5t) with its first two derivatives.
template <class T>
std::array<T, 3> manufactured(const T& t) {
  using std::cos;
  using std::sin;
  return {T(sin(T(2) * t) + T(0.3) * cos(T(5) * t)),
          T(T(2) * cos(T(2) * t) - T(1.5) * sin(T(5) * t)),
          T(-T(4) * sin(T(2) * t) - T(7.5) * cos(T(5) * t))};
}

// A node without implicit_jacobian (the generic Newton then differences the residual):
// the spring-damper node seen through its continuous right-hand side only.
template <class T>
struct RhsOnly {
  using Scalar = T;
  using State = Vec2<T>;
  using Inputs = Vec<T, 1>;
  SpringDamperNode<T> inner;
  State derivatives(const State& s, const Inputs& u) const { return inner.derivatives(s, u); }
  State implicit_residual(const State& xn, const State& xo, const Inputs& u, const T& dt) const {
    return State(xn - xo - dt * derivatives(xn, u));
  }
  std::string name() const { return "rhs-only"; }
};

// A nonlinear node: the Duffing oscillator x'' = -x - 2 x^3 - 0.1 x' + u.
template <class T>
struct Duffing {
  using Scalar = T;
  using State = Vec2<T>;
  using Inputs = Vec<T, 1>;
  State derivatives(const State& s, const Inputs& u) const {
    return State(s(1), -s(0) - T(2) * s(0) * s(0) * s(0) - T(0.1) * s(1) + u(0));
  }
  State implicit_residual(const State& xn, const State& xo, const Inputs& u, const T& dt) const {
    return State(xn - xo - dt * derivatives(xn, u));
  }
};

// A node whose backward-Euler residual has no root: x+^2 + 1 = 0.
template <class T>
struct NoRoot {
  using Scalar = T;
  using State = Vec<T, 1>;
  using Inputs = Vec<T, 1>;
  State derivatives(const State& s, const Inputs&) const { return s; }
  State implicit_residual(const State& xn, const State&, const Inputs&, const T&) const {
    return State(xn(0) * xn(0) + T(1));
  }
  std::string object() const { return "node 'no-root'"; }
};

template <class T, class Stepper>
OrderStudy study(const std::string& name, const Stepper& stepper, double lo, double hi,
                 std::vector<int> ladder = {100, 200, 400, 800}) {
  const SpringDamperParams p{100.0, 1.0, 1.0, 1.0, 0.0, 0.0};
  using N = SpringDamperNode<T>;
  auto exact = [](const T& t) {
    const auto m = manufactured(t);
    return typename N::State(m[0], m[1]);
  };
  // The anchor as a function of time, so that multi-stage schemes sample it.
  auto anchor = [p](const T& t) {
    const auto m = manufactured(t);
    return N::inputs(spring_damper_mms_anchor<T>(p, m[0], m[1], m[2]));
  };
  const N node(p, name);
  auto step = [&](const typename N::State& s, const typename N::Inputs&, const T& t, const T& dt) {
    return stepper(node, s, anchor, t, dt);
  };
  OrderStudyOptions opt;
  opt.ladder = std::move(ladder);
  opt.min_order = lo;
  opt.max_order = hi;
  return temporal_order_study<typename N::State>(node.object(), 0, step, exact, anchor, opt);
}

}  // namespace

TEMPLATE_TEST_CASE("the manufactured anchor makes x* exact for the governing equation",
                   "[nodes][integrators][mms]", double, long double) {
  using T = TestType;
  const SpringDamperParams p{100.0, 1.0, 1.0, 1.0, 0.0, 0.0};
  for (double tt : {0.0, 0.3, 0.77}) {
    const auto m = manufactured(T(tt));
    const T a = spring_damper_mms_anchor<T>(p, m[0], m[1], m[2]);
    const T resid = T(p.mass) * m[2] + T(p.damping) * m[1] + T(p.stiffness) * (m[0] - a - T(p.rest_length));
    CHECK(std::fabs(resid) <= T(200) * epsilon<T>());
  }
  SpringDamperParams slack = p;
  slack.stiffness = 0;
  CHECK_THROWS_AS(spring_damper_mms_anchor<T>(slack, T(0), T(0), T(0)), InputError);
}

TEMPLATE_TEST_CASE("observed orders: explicit Euler 1, Heun 2, RK4 4, backward Euler 1",
                   "[nodes][integrators][order]", double, long double) {
  using T = TestType;
  auto euler = [](const auto& n, const auto& s, const auto& u, const T& t, const T& dt) {
    return explicit_euler_step(n, s, u, t, dt);
  };
  auto heun = [](const auto& n, const auto& s, const auto& u, const T& t, const T& dt) {
    return heun_step(n, s, u, t, dt);
  };
  auto rk4 = [](const auto& n, const auto& s, const auto& u, const T& t, const T& dt) {
    return rk4_step(n, s, u, t, dt);
  };
  auto be = [](const auto& n, const auto& s, const auto& u, const T& t, const T& dt) {
    return backward_euler_step(n, s, u, t, dt);
  };
  // Explicit Euler is unstable at 100 steps (|1 + i omega dt| > 1 amplifies but converges);
  // its ladder starts at 200.
  const auto e = study<T>("euler", euler, 0.9, 1.1, {200, 400, 800, 1600});
  const auto h = study<T>("heun", heun, 1.9, 2.1);
  const auto r = study<T>("rk4", rk4, 3.8, 4.2, {50, 100, 200, 400});
  const auto b = study<T>("backward-euler", be, 0.9, 1.1);
  INFO(e.message);
  INFO(h.message);
  INFO(r.message);
  INFO(b.message);
  CHECK(e.passed);
  CHECK(h.passed);
  CHECK(r.passed);
  CHECK(b.passed);
  // Each error falls level by level.
  for (const auto* s : {&e, &h, &r, &b})
    for (const auto& f : s->errors)
      for (std::size_t l = 1; l < f.size(); ++l) CHECK(f[l] < f[l - 1]);
}

TEMPLATE_TEST_CASE("integrators take constant or time-dependent inputs and injected parameters",
                   "[nodes][integrators]", double, long double) {
  using T = TestType;
  using N = SpringDamperNode<T>;
  const N node(SpringDamperParams{80.0, 0.5, 2.0, 0.3, 0.0, 0.0});
  const typename N::State s(T(0.1), T(-0.2));
  const auto u = N::inputs(T(0.4));
  auto constant = [&](const T&) { return u; };
  const T t = T(0.25), dt = T(0.02);
  CHECK(rk4_step(node, s, u, t, dt) == rk4_step(node, s, constant, t, dt));
  CHECK(heun_step(node, s, u, t, dt) == heun_step(node, s, constant, t, dt));
  CHECK(explicit_euler_step(node, s, u, t, dt) == explicit_euler_step(node, s, constant, t, dt));
  CHECK(backward_euler_step(node, s, u, t, dt) == backward_euler_step(node, s, constant, t, dt));

  SpringDamperOverrides o;
  o.stiffness = 120.0;
  o.damping = 2.0;
  SpringDamperParams mp = node.params();
  mp.stiffness = 120.0;
  mp.damping = 2.0;
  const N merged_node(mp);
  CHECK(rk4_step(node, s, u, t, dt, o) == rk4_step(merged_node, s, u, t, dt));
  CHECK(heun_step(node, s, u, t, dt, o) == heun_step(merged_node, s, u, t, dt));
  CHECK(explicit_euler_step(node, s, u, t, dt, o) == explicit_euler_step(merged_node, s, u, t, dt));
  CHECK(backward_euler_step(node, s, u, t, dt, o) == backward_euler_step(merged_node, s, u, t, dt));
  CHECK(rk4_step(node, s, u, t, dt, o) != rk4_step(node, s, u, t, dt));
}

TEMPLATE_TEST_CASE("backward Euler: closed form, differenced Jacobian, nonlinear node, failure",
                   "[nodes][integrators][newton]", double, long double) {
  using T = TestType;
  using N = SpringDamperNode<T>;
  const SpringDamperParams p{300.0, 4.0, 1.5, 0.5, 0.0, 0.0};
  const N node(p);
  const typename N::State s(T(0.2), T(1.1));
  const T a = T(-0.3), dt = T(0.05);
  // Closed form of the linear 2x2 backward-Euler system.
  const T k = T(p.stiffness), c = T(p.damping), m = T(p.mass), l0 = T(p.rest_length);
  Mat<T, 2> A;
  A << T(1), -dt, k * dt / m, T(1) + c * dt / m;
  const Vec2<T> X = A.partialPivLu().solve(Vec2<T>(s(0), s(1) + dt * k * (a + l0) / m));
  const auto be = backward_euler_step(node, s, N::inputs(a), T(0), dt);
  CHECK((be - X).cwiseAbs().maxCoeff() <= T(64) * epsilon<T>());
  // The same through central differences of the residual (no implicit_jacobian).
  const RhsOnly<T> rhs_only{node};
  const auto be_fd = backward_euler_step(rhs_only, s, N::inputs(a), T(0), dt);
  CHECK((be_fd - X).cwiseAbs().maxCoeff() <= T(64) * epsilon<T>());

  // Nonlinear: the converged step zeroes the residual, and the scheme is first order
  // against an RK4 reference at a fine step.
  const Duffing<T> duff;
  const Vec2<T> y0(T(1.2), T(-0.5));
  auto forcing = [](const T& t) {
    using std::sin;
    return Vec<T, 1>(T(0.5) * sin(T(1.3) * t));
  };
  const auto y1 = backward_euler_step(duff, y0, forcing, T(0), T(0.1));
  const auto R = duff.implicit_residual(y1, y0, forcing(T(0.1)), T(0.1));
  CHECK(R.cwiseAbs().maxCoeff() <= T(64) * epsilon<T>() * T(10));
  auto integrate = [&](auto stepper, int n) {
    Vec2<T> y = y0;
    const T h = T(2) / T(n);
    for (int i = 0; i < n; ++i) y = stepper(y, T(i) * h, h);
    return y;
  };
  const Vec2<T> ref = integrate(
      [&](const Vec2<T>& y, const T& t, const T& h) { return Vec2<T>(rk4_step(duff, y, forcing, t, h)); },
      4000);
  auto be_err = [&](int n) {
    return (integrate([&](const Vec2<T>& y, const T& t, const T& h) {
              return Vec2<T>(backward_euler_step(duff, y, forcing, t, h));
            }, n) - ref).cwiseAbs().maxCoeff();
  };
  const T order = std::log2(static_cast<double>(be_err(200) / be_err(400)));
  INFO("backward Euler on the Duffing node: observed order " << order);
  CHECK(order > T(0.9));
  CHECK(order < T(1.1));

  // No root: SolveError naming the node.
  const NoRoot<T> bad;
  CHECK_THROWS_AS(backward_euler_step(bad, Vec<T, 1>(T(0.5)), Vec<T, 1>(T(0)), T(0), T(0.1)),
                  SolveError);
  CHECK_THROWS_WITH(backward_euler_step(bad, Vec<T, 1>(T(0.5)), Vec<T, 1>(T(0)), T(0), T(0.1)),
                    Catch::Contains("node 'no-root'"));
  NewtonOptions zero;
  zero.max_iterations = 0;
  CHECK_THROWS_AS(backward_euler_step(node, s, N::inputs(a), T(0), dt, NoParams{}, zero), InputError);
}

TEMPLATE_TEST_CASE("integrators run on dual states: d x1 / d v0 of RK4 equals a difference",
                   "[nodes][integrators][autodiff]", double, long double) {
  using T = TestType;
  using D = Dual<T, 1>;
  const SpringDamperParams p{50.0, 0.7, 1.0, 0.0, 0.0, 0.0};
  const SpringDamperNode<D> nd(p);
  const SpringDamperNode<T> nt(p);
  const T dt = T(0.05), v0 = T(0.8);
  const auto sd = rk4_step(nd, Vec2<D>(D(T(0.1)), D(v0, 1, 0)), SpringDamperNode<D>::inputs(D(T(0))),
                           D(T(0)), D(dt));
  const T h = T(1e-5);
  auto x1 = [&](const T& v) {
    return rk4_step(nt, Vec2<T>(T(0.1), v), SpringDamperNode<T>::inputs(T(0)), T(0), dt)(0);
  };
  const T fd = (x1(v0 + h) - x1(v0 - h)) / (T(2) * h);
  CHECK(std::fabs(sd(0).derivatives()(0) - fd) <= T(1e-8));
  // The same through backward Euler.
  const auto bd = backward_euler_step(nd, Vec2<D>(D(T(0.1)), D(v0, 1, 0)),
                                      SpringDamperNode<D>::inputs(D(T(0))), D(T(0)), D(dt));
  auto bx1 = [&](const T& v) {
    return backward_euler_step(nt, Vec2<T>(T(0.1), v), SpringDamperNode<T>::inputs(T(0)), T(0), dt)(0);
  };
  CHECK(std::fabs(bd(0).derivatives()(0) - (bx1(v0 + h) - bx1(v0 - h)) / (T(2) * h)) <= T(1e-8));
}
