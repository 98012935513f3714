// The exact stability analysis (spec spring-damper-node.md, "Stability Conditions"), part 1:
// spectral radii against independent references; the single-node step matrix against the node and
// its bound from both sides; the singular band of the pair's step; d radius / d c by duals
// against long-double differences. Part 2, against the graph: stability_pair_test.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <algorithm>
#include <complex>
#include <random>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/nodes/spring_damper.hpp"
#include "cabledyn/nodes/stability.hpp"

using namespace cabledyn;

namespace {

// Independent references for the spectral radius (Eigen's EigenSolver would cost ~15 s of
// compile time per instantiation): the quadratic formula in complex arithmetic for 2x2, and
// the Durand-Kerner (Weierstrass) iteration on the characteristic polynomial, whose
// coefficients come from the Faddeev-LeVerrier traces, for 3x3. Both in long double.
template <class T>
long double reference_radius(const Mat<T, 2>& A) {
  using C = std::complex<long double>;
  const long double tr = static_cast<long double>(A.trace());
  const long double det = static_cast<long double>(A(0, 0)) * static_cast<long double>(A(1, 1)) -
                          static_cast<long double>(A(0, 1)) * static_cast<long double>(A(1, 0));
  const C root = std::sqrt(C(tr * tr - 4 * det, 0));
  return std::max(std::abs((tr + root) / 2.0L), std::abs((tr - root) / 2.0L));
}
template <class T>
long double reference_radius(const Mat3<T>& A) {
  using C = std::complex<long double>;
  const Mat3<long double> L = A.template cast<long double>();
  const long double t1 = L.trace(), t2 = (L * L).trace(), t3 = (L * L * L).trace();
  const long double c2 = t1, c1 = (t1 * t1 - t2) / 2, c0 = (t1 * t1 * t1 - 3 * t1 * t2 + 2 * t3) / 6;
  auto p = [&](C z) { return ((z - c2) * z + c1) * z - c0; };
  C r[3] = {C(1, 0), C(0.4L, 0.9L), C(0.4L, 0.9L) * C(0.4L, 0.9L)};
  for (int it = 0; it < 500; ++it)
    for (int i = 0; i < 3; ++i) r[i] -= p(r[i]) / ((r[i] - r[(i + 1) % 3]) * (r[i] - r[(i + 2) % 3]));
  return std::max({std::abs(r[0]), std::abs(r[1]), std::abs(r[2])});
}

template <class T>
SpringDamperConstants<T> node_constants(double k, double c, double m, double l0 = 0) {
  return {T(k), T(c), T(m), T(l0)};
}


}  // namespace

// The analysis types compile for duals.
template struct cabledyn::AnchoredPairStep<Dual<double, 1>>;
template struct cabledyn::SpringDamperConstants<Dual<long double, 1>>;

TEMPLATE_TEST_CASE("spectral radius of 2x2 and 3x3 matrices equals independent references",
                   "[nodes][stability]", double, long double) {
  using T = TestType;
  std::mt19937 rng(20261002);
  std::uniform_real_distribution<double> U(-1.5, 1.5);
  int complex2 = 0, complex3 = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Mat<T, 2> A2;
    Mat3<T> A3;
    for (int i = 0; i < 4; ++i) A2(i / 2, i % 2) = T(U(rng));
    for (int i = 0; i < 9; ++i) A3(i / 3, i % 3) = T(U(rng));
    const T r2 = spectral_radius(A2), e2 = T(reference_radius(A2));
    const T r3 = spectral_radius(A3), e3 = T(reference_radius(A3));
    const T tr2 = A2.trace();
    complex2 += tr2 * tr2 < T(4) * A2.determinant();
    // A real cubic has a complex pair when its discriminant is negative.
    {
      const Mat3<T> S = A3 * A3;
      const T b = -A3.trace(), c = (A3.trace() * A3.trace() - S.trace()) / T(2), d = -A3.determinant();
      const T disc = T(18) * b * c * d - T(4) * b * b * b * d + b * b * c * c - T(4) * c * c * c -
                     T(27) * d * d;
      complex3 += disc < T(0);
    }
    CHECK(std::fabs(r2 - e2) <= T(1e3) * epsilon<T>() * std::max<T>(T(1), e2));
    CHECK(std::fabs(r3 - e3) <= T(1e4) * epsilon<T>() * std::max<T>(T(1), e3));
  }
  // Both branches (complex and real dominant pair) were exercised.
  CHECK(complex2 > 20);
  CHECK(complex3 > 20);
  // A rotation by 0.3 rad scaled by 0.9 and a defective (Jordan) block.
  Mat<T, 2> R;
  R << T(0.9) * std::cos(T(0.3)), -T(0.9) * std::sin(T(0.3)), T(0.9) * std::sin(T(0.3)),
      T(0.9) * std::cos(T(0.3));
  CHECK(std::fabs(spectral_radius(R) - T(0.9)) <= T(8) * epsilon<T>());
  Mat3<T> J;
  J << T(-1.1), T(1), T(0), T(0), T(-1.1), T(0), T(0), T(0), T(0.5);
  CHECK(std::fabs(spectral_radius(J) - T(1.1)) <= T(1e-6));
}

TEMPLATE_TEST_CASE("single-node step matrix: trace, determinant and the node itself",
                   "[nodes][stability]", double, long double) {
  using T = TestType;
  const T k = T(250), c = T(3), m = T(2), dt = T(0.02);
  const auto A = single_node_step_matrix(node_constants<T>(250, 3, 2), dt);
  const T tol = T(32) * epsilon<T>();
  CHECK(std::fabs(A.trace() - (T(2) - (k * dt * dt + c * dt) / m)) <= tol);
  CHECK(std::fabs(A.determinant() - (T(1) - c * dt / m)) <= tol);
  // The matrix maps (x - a - l0, v) as the node's own step does, anchor held.
  const SpringDamperNode<T> node(SpringDamperParams{250, 3, 2, 0.4, 0, 0});
  const T a = T(0.3);
  const Vec2<T> s(T(1.1), T(-0.6));
  const auto s1 = node.step(s, SpringDamperNode<T>::inputs(a), dt);
  const Vec2<T> y1 = A * Vec2<T>(s(0) - a - T(0.4), s(1));
  CHECK(std::fabs(s1(0) - a - T(0.4) - y1(0)) <= T(64) * epsilon<T>());
  CHECK(std::fabs(s1(1) - y1(1)) <= T(64) * epsilon<T>());
}

TEMPLATE_TEST_CASE("single node: radius < 1 just inside k dt^2 + 2 c dt = 4 m, > 1 just outside",
                   "[nodes][stability]", double, long double) {
  using T = TestType;
  struct Case {
    double k, c, m;
  };
  for (const Case cs : {Case{100, 1, 1}, Case{1000, 2, 0.5}, Case{6000, 150, 1}, Case{1e6, 1e4, 3},
                        Case{0.01, 0.002, 0.1}, Case{400, 0, 1}, Case{1e5, 0, 2}}) {
    const auto n = node_constants<T>(cs.k, cs.c, cs.m);
    const T dt_c = single_node_critical_timestep(n);
    // It is the root of the bound.
    CHECK(std::fabs(n.stiffness * dt_c * dt_c + T(2) * n.damping * dt_c - T(4) * n.mass) <=
          T(64) * epsilon<T>() * n.mass);
    for (double eps : {1e-6, 1e-3}) {
      const T inside = dt_c * T(1 - eps), outside = dt_c * T(1 + eps);
      const T r_in = single_node_spectral_radius(n, inside);
      const T r_out = single_node_spectral_radius(n, outside);
      INFO("k = " << cs.k << ", c = " << cs.c << ", m = " << cs.m << ", eps = " << eps
                  << ": radius inside " << r_in << ", outside " << r_out);
      if (cs.c > 0) {
        CHECK(r_in < T(1));
        CHECK(single_node_is_stable(n, inside));
      } else {
        // Undamped, the eigenvalues are a conjugate pair on the unit circle (det = 1).
        CHECK(std::fabs(r_in - T(1)) <= T(8) * epsilon<T>());
        CHECK_FALSE(single_node_is_stable(n, inside));
      }
      CHECK(r_out > T(1) + T(eps));  // at the boundary the eigenvalue leaves through -1
      CHECK_FALSE(single_node_is_stable(n, outside));
    }
    if (cs.c == 0) CHECK(std::fabs(dt_c - T(2) * std::sqrt(n.mass / n.stiffness)) <= T(64) * epsilon<T>() * dt_c);
  }
  // The node itself: 5% outside it grows as the radius says, 5% inside it decays.
  const SpringDamperParams p{1000, 2, 0.5, 0, 0, 0};
  const SpringDamperNode<T> node(p);
  const auto n = constants_of<T>(p);
  const T dt_c = single_node_critical_timestep(n);
  for (double f : {0.95, 1.05}) {
    const T dt = dt_c * T(f);
    Vec2<T> s(T(1e-3), T(0));
    for (int i = 0; i < 200; ++i) s = node.step(s, SpringDamperNode<T>::inputs(T(0)), dt);
    const Vec2<T> s0 = s;
    // The growth per step, (|s| / |s0|)^(1/n): inside, a complex pair whose bounded phase
    // factor K costs ~ln(K)/n; outside, a real eigenvalue below -1 (n short of overflow).
    const int n_steps = f < 1 ? 3000 : 300;
    for (int i = 0; i < n_steps; ++i) s = node.step(s, SpringDamperNode<T>::inputs(T(0)), dt);
    const T measured = std::pow(s.norm() / s0.norm(), T(1) / T(n_steps));
    const T rho = single_node_spectral_radius(n, dt);
    INFO("dt / dt_crit = " << f << ": measured growth " << measured << ", radius " << rho);
    CHECK(std::fabs(measured - rho) <= T(1e-3));
    CHECK((f < 1 ? measured < T(1) : measured > T(1)));
  }
}

TEMPLATE_TEST_CASE("anchored_pair_step: none within 1e-6 of alpha beta = 1; bad input named",
                   "[nodes][stability]", double, long double) {
  using T = TestType;
  // k dt^2 / m = 1 for both: alpha beta = 1 exactly.
  const auto n = node_constants<T>(10000, 1, 1);
  CHECK_FALSE(anchored_pair_step(n, n, T(0.01)).has_value());
  CHECK_FALSE(anchored_pair_spectral_radius(n, n, T(0.01)).has_value());
  CHECK_FALSE(anchored_pair_step(n, node_constants<T>(10000 * (1 + 0.9e-6), 1, 1), T(0.01)).has_value());
  CHECK(anchored_pair_step(n, node_constants<T>(10000 * (1 + 1.1e-6), 1, 1), T(0.01)).has_value());
  CHECK(anchored_pair_step(n, node_constants<T>(10000 * (1 - 1.1e-6), 1, 1), T(0.01)).has_value());
  // m = k dt^2 exactly (4 * 0.5^2 = 1): the closed form has no value.
  CHECK_THROWS_AS(equal_pair_growth_factor(node_constants<T>(4, 1, 1), T(0.5)), DomainError);
  CHECK_THROWS_AS(single_node_step_matrix(node_constants<T>(1, 1, 0), T(0.01)), InputError);
  CHECK_THROWS_AS(single_node_step_matrix(node_constants<T>(1, 1, 1), T(0)), InputError);
  CHECK_THROWS_AS(anchored_pair_step(node_constants<T>(1, 1, -1), n, T(0.01)), InputError);
  CHECK_THROWS_AS(single_node_critical_timestep(node_constants<T>(0, 1, 1)), InputError);
}

TEMPLATE_TEST_CASE("d radius / d c by duals equals a long-double central difference",
                   "[nodes][stability][autodiff]", double, long double) {
  using T = TestType;
  using D = Dual<T, 1>;
  auto fd = [](auto f, long double c) {
    const long double h = 1e-6L * std::max(1.0L, std::fabs(c));
    return (f(c + h) - f(c - h)) / (2 * h);
  };
  // Single node: complex pair (radius sqrt(1 - c dt/m)) and real pair (overdamped).
  for (const auto& [k, c, m, dt] : {std::array<double, 4>{100, 1, 1, 0.01},
                                     std::array<double, 4>{100, 30, 1, 0.01}}) {
    const D r = single_node_spectral_radius(
        SpringDamperConstants<D>{D(T(k)), D(T(c), 1, 0), D(T(m))}, D(T(dt)));
    const long double ref = fd([&](long double cc) {
      return single_node_spectral_radius(SpringDamperConstants<long double>{k, cc, m, 0}, static_cast<long double>(dt));
    }, c);
    INFO("single node c = " << c << ": dual " << r.derivatives()(0) << ", difference " << ref);
    CHECK(std::fabs(static_cast<long double>(r.derivatives()(0)) - ref) <= 1e-7L * std::max(1.0L, std::fabs(ref)));
  }
  // Equal pair: d g / d c = -dt / (m - k dt^2), and the radius |g| follows it.
  {
    const D c(T(2), 1, 0);
    const SpringDamperConstants<D> n{D(T(1000)), c, D(T(0.5))};
    const D g = equal_pair_growth_factor(n, D(T(0.01)));
    CHECK(std::fabs(g.derivatives()(0) - (-T(0.01) / (T(0.5) - T(1000) * T(0.0001)))) <= T(64) * epsilon<T>());
    const auto r = anchored_pair_spectral_radius(n, n, D(T(0.01)));
    REQUIRE(r.has_value());
    CHECK(std::fabs(r->derivatives()(0) - g.derivatives()(0)) <= T(1e-8));
  }
  // Unequal pair: d radius / d c_b.
  for (double cb : {9.0, 3.0}) {
    const auto ca = node_constants<D>(2000, 1.0, 0.7);
    const SpringDamperConstants<D> nb{D(T(500)), D(T(cb), 1, 0), D(T(1.3))};
    const auto r = anchored_pair_spectral_radius(ca, nb, D(T(0.01)));
    REQUIRE(r.has_value());
    const long double ref = fd([&](long double cc) {
      return *anchored_pair_spectral_radius(node_constants<long double>(2000, 1.0, 0.7),
                                            SpringDamperConstants<long double>{500, cc, 1.3L, 0}, 0.01L);
    }, cb);
    INFO("unequal pair c_b = " << cb << ": dual " << r->derivatives()(0) << ", difference " << ref);
    CHECK(std::fabs(static_cast<long double>(r->derivatives()(0)) - ref) <=
          1e-6L * std::max(1.0L, std::fabs(ref)));
  }
}
