// The spring-damper node: defaults, the semi-implicit Euler step, the continuous right-hand
// side, the backward-Euler residual and its Jacobian (against duals and long-double
// differences), the spring force, injected parameters and the named errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/nodes/spring_damper.hpp"

using namespace cabledyn;

namespace {
// A non-trivial parameter set (every constant differs from its default).
SpringDamperParams sample_params() {
  return SpringDamperParams{250.0, 3.5, 2.0, 0.75, 0.2, -0.4};
}
}  // namespace

// Every member compiles for the dual scalars (Sophus habit).
template class cabledyn::SpringDamperNode<Dual<double, 2>>;
template class cabledyn::SpringDamperNode<Dual<long double, 1>>;

TEMPLATE_TEST_CASE("SpringDamperNode defaults follow the spec", "[nodes][spring_damper]", double,
                   long double) {
  using N = SpringDamperNode<TestType>;
  const N node;
  CHECK(node.params().stiffness == 100.0);
  CHECK(node.params().damping == 1.0);
  CHECK(node.params().mass == 1.0);
  CHECK(node.params().rest_length == 1.0);
  CHECK(node.params().initial_position == 0.0);
  CHECK(node.params().initial_velocity == 0.0);
  CHECK(node.default_inputs()(0) == TestType(0));
  CHECK(N::kStateFields[0] == "position");
  CHECK(N::kStateFields[1] == "velocity");
  CHECK(N::kInputFields[0] == "anchor_position");
  CHECK(N::kFluxFields[0] == "spring_force");
  CHECK(N::kDeclaredTemporalOrder == 1.0);
  const auto s0 = N(sample_params()).initial_state();
  CHECK(s0(0) == TestType(0.2));
  CHECK(s0(1) == TestType(-0.4));
}

TEMPLATE_TEST_CASE("step is semi-implicit Euler: velocity first, position with the new velocity",
                   "[nodes][spring_damper]", double, long double) {
  using T = TestType;
  using N = SpringDamperNode<T>;
  const auto p = sample_params();
  const N node(p);
  const typename N::State s(T(1.3), T(0.7));
  const auto u = N::inputs(T(-0.25));
  const T dt = T(0.01);
  const auto s1 = node.step(s, u, dt);
  // Hand-evaluated in long double from the same (double-rounded) inputs:
  // F = -250 (1.3 + 0.25 - 0.75) - 3.5 * 0.7 = -202.45 N.
  const long double x0 = static_cast<long double>(s(0)), v0 = static_cast<long double>(s(1));
  const long double h = static_cast<long double>(dt);
  const long double F = -250.0L * (x0 + 0.25L - 0.75L) - 3.5L * v0;
  const long double v1 = v0 + F / 2.0L * h;
  const long double x1 = x0 + v1 * h;
  const T tol = T(8) * epsilon<T>();
  CHECK(std::fabs(static_cast<long double>(s1(1)) - v1) <= tol * 2);
  CHECK(std::fabs(static_cast<long double>(s1(0)) - x1) <= tol * 2);
  // The position used the new velocity, not the old one (explicit Euler would give 1.307).
  CHECK(std::fabs(static_cast<long double>(s1(0)) - (x0 + v0 * h)) > 1e-3L);
  // spring_force is the same force the step uses.
  CHECK(std::fabs(static_cast<long double>(node.spring_force(s, u)) - F) <= 1e3L * tol);
  CHECK(node.boundary_fluxes(s, u)(0) == node.spring_force(s, u));
  // At rest at x = a + l0 the force vanishes and the node stays put.
  const typename N::State rest(T(-0.25 + 0.75), T(0));
  CHECK(node.spring_force(rest, u) == T(0));
  CHECK(node.step(rest, u, dt) == rest);
}

TEMPLATE_TEST_CASE("derivatives and the backward-Euler residual", "[nodes][spring_damper]", double,
                   long double) {
  using T = TestType;
  using N = SpringDamperNode<T>;
  const auto p = sample_params();
  const N node(p);
  const typename N::State s(T(1.3), T(0.7));
  const auto u = N::inputs(T(-0.25));
  const auto f = node.derivatives(s, u);
  CHECK(f(0) == T(0.7));
  CHECK(f(1) == node.spring_force(s, u) / T(2));

  // Backward Euler in closed form: (x+, v+) solves [1, -dt; k dt/m, 1 + c dt/m] X = b.
  const T dt = T(0.02), k = T(p.stiffness), c = T(p.damping), m = T(p.mass);
  const T a = T(-0.1), l0 = T(p.rest_length);
  Mat<T, 2> A;
  A << T(1), -dt, k * dt / m, T(1) + c * dt / m;
  const Vec2<T> b(s(0), s(1) + dt * k * (a + l0) / m);
  const Vec2<T> X = A.partialPivLu().solve(b);
  const auto R = node.implicit_residual(X, s, N::inputs(a), dt);
  CHECK(R.cwiseAbs().maxCoeff() <= T(16) * epsilon<T>() * T(10));
  // The residual is x+ - x - dt f(x+): nonzero at the old state.
  const auto R0 = node.implicit_residual(s, s, N::inputs(a), dt);
  CHECK(R0(0) == -dt * s(1));
}

TEMPLATE_TEST_CASE("implicit_jacobian equals duals and long-double differences",
                   "[nodes][spring_damper][autodiff]", double, long double) {
  using T = TestType;
  const auto p = sample_params();
  const Vec2<T> x(T(0.9), T(-1.1));
  const Vec2<T> x_old(T(1.0), T(0.5));
  const T dt = T(0.03);
  const Mat<T, 2> J = SpringDamperNode<T>(p).implicit_jacobian(x, x_old, SpringDamperNode<T>::inputs(T(0.1)), dt);
  auto residual = [&](const auto& y) {
    using S = typename std::decay_t<decltype(y)>::Scalar;
    const SpringDamperNode<S> n(p);
    const Vec2<S> xo(S(value_of(x_old(0))), S(value_of(x_old(1))));
    return Vec2<S>(n.implicit_residual(Vec2<S>(y(0), y(1)), xo, SpringDamperNode<S>::inputs(S(0.1)),
                                       S(value_of(dt))));
  };
  const auto check = check_jacobian(residual, x, J);
  INFO(check.log());
  CHECK(check.ok(16 * epsilon<T>(), 1e-9));
}

TEMPLATE_TEST_CASE("injected parameters win over the node's own, per call",
                   "[nodes][spring_damper]", double, long double) {
  using T = TestType;
  using N = SpringDamperNode<T>;
  const N node(sample_params());
  SpringDamperOverrides o;
  o.stiffness = 40.0;
  o.mass = 0.5;
  o.initial_velocity = 3.0;
  SpringDamperParams merged_p = sample_params();
  merged_p.stiffness = 40.0;
  merged_p.mass = 0.5;
  merged_p.initial_velocity = 3.0;
  const N reference(merged_p);
  const typename N::State s(T(0.3), T(-0.2));
  const auto u = N::inputs(T(0.05));
  const T dt = T(0.01);
  CHECK(node.step(s, u, dt, o) == reference.step(s, u, dt));
  CHECK(node.derivatives(s, u, o) == reference.derivatives(s, u));
  CHECK(node.implicit_residual(s, s, u, dt, o) == reference.implicit_residual(s, s, u, dt));
  CHECK(node.spring_force(s, u, o) == reference.spring_force(s, u));
  CHECK(node.initial_state(o) == reference.initial_state());
  // Not sticky: without the overrides the node's own constants are back.
  CHECK(node.step(s, u, dt) != reference.step(s, u, dt));
  CHECK(node.params().stiffness == 250.0);
  CHECK(merged(node.params(), {}).stiffness == 250.0);
}

TEMPLATE_TEST_CASE("bad parameters and timesteps are named errors", "[nodes][spring_damper][errors]",
                   double, long double) {
  using T = TestType;
  using N = SpringDamperNode<T>;
  SpringDamperParams p;
  p.mass = 0.0;
  try {
    N bad(p, "bob");
    FAIL("mass = 0 was accepted");
  } catch (const InputError& e) {
    CHECK(e.object() == "SpringDamperNode 'bob'");
    CHECK(e.quantity() == "mass");
    CHECK(e.value() == "0");
    CHECK(e.limit() == "> 0");
  }
  p.mass = -1.0;
  CHECK_THROWS_AS(N(p), InputError);
  p.mass = 1.0;
  p.stiffness = std::nan("");
  CHECK_THROWS_AS(N(p), InputError);
  p.stiffness = -5.0;
  CHECK_THROWS_AS(N(p), InputError);
  p.stiffness = 5.0;
  p.damping = -0.1;
  CHECK_THROWS_AS(N(p), InputError);

  const N node({}, "eve");
  const typename N::State s(T(0), T(0));
  SpringDamperOverrides o;
  o.mass = 0.0;
  try {
    (void)node.step(s, N::inputs(T(0)), T(0.01), o);
    FAIL("injected mass = 0 was accepted");
  } catch (const InputError& e) {
    CHECK(e.object() == "SpringDamperNode 'eve'");
    CHECK(e.quantity() == "mass");
  }
  CHECK_THROWS_AS(node.derivatives(s, N::inputs(T(0)), o), InputError);
  CHECK_THROWS_AS(node.step(s, N::inputs(T(0)), T(0)), InputError);
  CHECK_THROWS_AS(node.step(s, N::inputs(T(0)), T(-0.01)), InputError);
  CHECK_THROWS_WITH(node.step(s, N::inputs(T(0)), T(std::nan(""))),
                    Catch::Contains("SpringDamperNode 'eve': dt"));
}

TEMPLATE_TEST_CASE("duals through the step: d(x+, v+)/d(x, v) is the step matrix of the spec",
                   "[nodes][spring_damper][autodiff]", double, long double) {
  using T = TestType;
  using D = Dual<T, 2>;
  const auto p = sample_params();
  const SpringDamperNode<D> node(p);
  const typename SpringDamperNode<D>::State s(D(T(0.4), 2, 0), D(T(-0.3), 2, 1));
  const T dt = T(0.015);
  const auto s1 = node.step(s, SpringDamperNode<D>::inputs(D(T(0.2))), D(dt));
  const T k = T(p.stiffness), c = T(p.damping), m = T(p.mass);
  const T tol = T(16) * epsilon<T>();
  CHECK(std::fabs(s1(0).derivatives()(0) - (T(1) - k * dt * dt / m)) <= tol);
  CHECK(std::fabs(s1(0).derivatives()(1) - dt * (T(1) - c * dt / m)) <= tol);
  CHECK(std::fabs(s1(1).derivatives()(0) - (-k * dt / m)) <= tol);
  CHECK(std::fabs(s1(1).derivatives()(1) - (T(1) - c * dt / m)) <= tol);
}
