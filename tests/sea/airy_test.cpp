// Linear (Airy) waves: the textbook field, continuity, the linearised free-surface
// conditions, the bed condition, Wheeler stretching, deep water, accelerations as time
// derivatives of the velocity (duals), named errors. Spec "Waves"; EQUATIONS.md section 7.
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/sea/airy.hpp"
#include "support/constants.hpp"

using namespace cabledyn;

namespace {

using cabledyn::test_support::g;

// Independent textbook Airy field (Dean & Dalrymple 1991) of one component in long double,
// written with cosh / sinh directly, at the (already stretched) elevation zp.
struct Textbook {
  long double eta, uh, uz, ah, az, pd;
};
Textbook textbook(const WaveComponent& c, double h, long double x, long double y, long double zp,
                  long double t) {
  const long double k = c.k, w = c.omega, a = c.a;
  const long double th = k * (x * std::cos((long double)c.beta) + y * std::sin((long double)c.beta)) - w * t + c.phase;
  const long double ch = std::cosh(k * (zp + h)) / std::sinh(k * h);
  const long double sh = std::sinh(k * (zp + h)) / std::sinh(k * h);
  const long double cc = std::cosh(k * (zp + h)) / std::cosh(k * h);
  return {a * std::cos(th),         a * w * ch * std::cos(th),     a * w * sh * std::sin(th),
          a * w * w * ch * std::sin(th), -a * w * w * sh * std::cos(th), g * a * cc * std::cos(th)};
}

// A three-component sea with different headings and phases, 30 m deep.
std::vector<WaveComponent> three_components() {
  return {{0.6, 0.55, 0.3, 0.2}, {0.35, 0.9, 2.1, -0.7}, {0.2, 1.4, 4.0, 1.1}};
}

}  // namespace

TEMPLATE_TEST_CASE("airy: a regular wave matches the textbook field", "[sea][airy]", double,
                   long double) {
  using V = TestType;
  const double h = 40;
  const LinearSea sea = LinearSea::regular(3.0, 9.0, 0.4, h, g, {.wheeler = false, .early_stop = false});
  const WaveComponent& c = sea.components()[0];
  CHECK(c.a == 1.5);
  CHECK(std::fabs(c.omega * c.omega - g * c.k * std::tanh(c.k * h)) < 1e-14 * c.omega * c.omega);
  const long double U = c.a * c.omega * std::cosh(c.k * h) / std::sinh(c.k * h);  // velocity scale
  // the components' constants are doubles (parameters), so a long double evaluation agrees
  // with the long double textbook to double precision
  const V tol = V(4e-15);
  for (const double x : {0.0, 13.0, -41.5}) {
    for (const double z : {-40.0, -25.0, -3.0, 0.0}) {
      for (const double t : {0.0, 2.3, 7.7}) {
        const auto kin = sea.kinematics(Vec3<V>(V(x), V(2 * x), V(z)), V(t));
        const auto ref = textbook(c, h, x, 2 * x, z, t);
        if (z > value_of(kin.eta)) {
          CHECK_FALSE(kin.wet);
          continue;
        }
        INFO("x " << x << " z " << z << " t " << t);
        CHECK(std::fabs(kin.eta - V(ref.eta)) <= tol * c.a);
        CHECK(std::fabs(kin.u(0) - V(ref.uh * std::cos(0.4L))) <= tol * U);
        CHECK(std::fabs(kin.u(1) - V(ref.uh * std::sin(0.4L))) <= tol * U);
        CHECK(std::fabs(kin.u(2) - V(ref.uz)) <= tol * U);
        CHECK(std::fabs(kin.a(0) - V(ref.ah * std::cos(0.4L))) <= tol * U * c.omega);
        CHECK(std::fabs(kin.a(2) - V(ref.az)) <= tol * U * c.omega);
        CHECK(std::fabs(kin.pd - V(ref.pd)) <= tol * g * c.a);
      }
    }
  }
  // crest at the origin at t = 0; periodic in T
  CHECK(std::fabs(sea.elevation(V(0), V(0), V(0)) - V(1.5)) <= tol);
  CHECK(std::fabs(sea.elevation(V(5), V(1), V(9.0 + 1.2)) - sea.elevation(V(5), V(1), V(1.2))) <= 16 * tol);
}

TEMPLATE_TEST_CASE("airy: continuity and the linearised free-surface and bed conditions",
                   "[sea][airy]", double, long double) {
  using V = TestType;
  const double h = 30;
  LinearSea sea(three_components(), h, g, {.wheeler = false, .early_stop = false});
  const V eps = std::numeric_limits<double>::epsilon();  // double constants (parameters)
  double U = 0;  // velocity scale
  for (const auto& c : sea.components()) U += c.a * c.omega / std::tanh(c.k * h);
  const double kmax = sea.components().back().k;
  for (const V t : {V(0.4), V(3.1)}) {
    for (const V x : {V(-7), V(12.5)}) {
      // continuity by central differences in x, y, z (step 1e-3 m: truncation (k dx)^2 ~ 1e-6)
      for (const V z : {V(-29), V(-12), V(-1.5)}) {
        const V d = V(1e-3);
        auto u = [&](V xx, V yy, V zz) { return sea.kinematics(Vec3<V>(xx, yy, zz), t).u; };
        const V div = (u(x + d, 3, z)(0) - u(x - d, 3, z)(0) + u(x, 3 + d, z)(1) - u(x, 3 - d, z)(1) +
                       u(x, 3, z + d)(2) - u(x, 3, z - d)(2)) / (2 * d);
        CHECK(std::fabs(div) <= 1e-6 * kmax * U);
        // and exactly with duals in x
        using D = Dual<V, 3>;
        const auto kd = sea.kinematics(Vec3<D>(D(x, 3, 0), D(V(3), 3, 1), D(z, 3, 2)), D(t));
        const V div_d = kd.u(0).derivatives()(0) + kd.u(1).derivatives()(1) + kd.u(2).derivatives()(2);
        CHECK(std::fabs(div_d) <= 64 * eps * kmax * U);
      }
      // kinematic: w = d eta / dt at z = 0; dynamic: p_dyn = rho g eta at z = 0
      using D1 = Dual<V, 1>;
      const D1 eta_t = sea.elevation(D1(x), D1(V(3)), D1(t, 1, 0));
      const auto k0 = sea.kinematics(Vec3<V>(x, 3, 0), t);
      if (k0.wet) {
        CHECK(std::fabs(k0.u(2) - eta_t.derivatives()(0)) <= 32 * eps * U);
        CHECK(std::fabs(k0.pd - V(g) * k0.eta) <= 32 * eps * g);
      }
      // bed: u_z = 0 exactly, stretched or not
      CHECK(sea.kinematics(Vec3<V>(x, 3, V(-h)), t).u(2) == 0);
      sea.set_wheeler(true);
      CHECK(sea.kinematics(Vec3<V>(x, 3, V(-h)), t).u(2) == 0);
      sea.set_wheeler(false);
    }
  }
}

TEMPLATE_TEST_CASE("airy: Wheeler stretching maps [-h, eta] onto [-h, 0]", "[sea][airy][wheeler]",
                   double, long double) {
  using V = TestType;
  const double h = 20;
  const LinearSea sea = LinearSea::regular(4.0, 7.0, 0.0, h, g);
  const WaveComponent& c = sea.components()[0];
  const V eps = std::numeric_limits<V>::epsilon();  // the mapping itself is in V
  for (const V t : {V(0), V(1.1), V(3.5)}) {  // crest, flank, trough region at x = 0
    const V eta = sea.elevation(V(0), V(0), t);
    CHECK(sea.stretched_z(V(-h), eta) == V(-h));
    CHECK(std::fabs(sea.stretched_z(eta, eta)) <= 4 * eps * h);
    // linear in between: the midpoint maps to the midpoint
    CHECK(std::fabs(sea.stretched_z((eta - V(h)) / 2, eta) + V(h) / 2) <= 8 * eps * h);
    // the kinematics at z are the textbook ones at z'
    for (const V s : {V(0.0), V(0.3), V(0.9), V(1.0)}) {
      const V z = -V(h) + s * (eta + V(h));
      const auto kin = sea.kinematics(Vec3<V>(0, 0, z), t);
      REQUIRE(kin.wet);
      const auto ref = textbook(c, h, 0, 0, static_cast<long double>(sea.stretched_z(z, eta)), t);
      const double U = c.a * c.omega / std::tanh(c.k * h);
      CHECK(std::fabs(kin.u(0) - V(ref.uh)) <= 1e-14 * U);
      CHECK(std::fabs(kin.u(2) - V(ref.uz)) <= 1e-14 * U);
      CHECK(std::fabs(kin.a(2) - V(ref.az)) <= 1e-14 * U * c.omega);
      CHECK(std::fabs(kin.pd - V(ref.pd)) <= 1e-14 * g * c.a);
    }
    // above the instantaneous surface: no kinematics
    const auto air = sea.kinematics(Vec3<V>(0, 0, eta + V(0.01)), t);
    CHECK_FALSE(air.wet);
    CHECK(air.u.norm() == 0);
    CHECK(air.a.norm() == 0);
    CHECK(air.pd == 0);
    CHECK(air.eta == eta);
  }
}

TEST_CASE("airy: a trough at the bed fails closed under stretching", "[sea][airy][errors]") {
  // a = 1.5 m over h = 1 m: the trough at x = 0, t = T/2 is below the bed
  const LinearSea sea = LinearSea::regular(3.0, 8.0, 0.0, 1.0, g);
  CHECK_NOTHROW(sea.kinematics<double>(Eigen::Vector3d(0, 0, -0.9), 0.0));
  CHECK_THROWS_AS(sea.kinematics<double>(Eigen::Vector3d(0, 0, -0.9), 4.0), DomainError);
  CHECK_THROWS_AS(sea.stretched_z(-0.9, -1.5), DomainError);
  try {
    sea.stretched_z(-0.9, -1.5);
  } catch (const DomainError& e) {
    CHECK(e.object() == "Wheeler stretching");
    CHECK(e.quantity() == "h + eta");
    CHECK(e.value() == "-0.5");
  }
  // the state fails closed even at a point in the air above that trough
  CHECK_THROWS_AS(sea.kinematics<double>(Eigen::Vector3d(0, 0, -0.5), 4.0), DomainError);
  // without stretching the linear field is still defined
  const LinearSea plain = LinearSea::regular(3.0, 8.0, 0.0, 1.0, g, {.wheeler = false});
  CHECK_NOTHROW(plain.kinematics<double>(Eigen::Vector3d(0, 0, -1.6), 4.0));
}

TEMPLATE_TEST_CASE("airy: deep water is the limit of large depth", "[sea][airy]", double, long double) {
  using V = TestType;
  const LinearSea deep = LinearSea::regular(2.0, 6.0, 1.0, kDeepWater, g, {.wheeler = false});
  const LinearSea far = LinearSea::regular(2.0, 6.0, 1.0, 2000.0, g, {.wheeler = false});
  const WaveComponent& c = deep.components()[0];
  CHECK(c.k == c.omega * c.omega / g);
  for (const V z : {V(-80), V(-10), V(0)}) {
    const auto kd = deep.kinematics(Vec3<V>(3, 4, z), V(1.7));
    const auto kf = far.kinematics(Vec3<V>(3, 4, z), V(1.7));
    const V e = std::exp(V(c.k) * z);
    const V th = V(c.k) * (3 * std::cos(V(1)) + 4 * std::sin(V(1))) - V(c.omega) * V(1.7);
    CHECK(std::fabs(kd.u(2) - V(c.a * c.omega) * e * std::sin(th)) <= 1e-14 * c.a * c.omega);
    CHECK(std::fabs(kd.pd - V(g * c.a) * e * std::cos(th)) <= 1e-14 * g * c.a);
    CHECK((kd.u - kf.u).norm() <= 1e-12 * c.a * c.omega);
    CHECK((kd.a - kf.a).norm() <= 1e-12 * c.a * c.omega * c.omega);
  }
}

TEMPLATE_TEST_CASE("airy: the accelerations are the time derivatives of the velocities (duals)",
                   "[sea][airy][autodiff]", double, long double) {
  using V = TestType;
  using D = Dual<V, 1>;
  const V eps = std::numeric_limits<double>::epsilon();  // double constants (parameters)
  const Ramp ramp{15.0};
  int checked = 0, compared = 0;
  for (const bool wheeler : {false, true}) {
    const LinearSea sea(three_components(), 30.0, g, {.wheeler = wheeler});
    const LinearSea plain(three_components(), 30.0, g, {.wheeler = false});
    for (const V t : {V(2.5), V(9.0), V(40.0)}) {  // inside the ramp and after it
      for (const V z : {V(-25), V(-4), V(-1.2)}) {  // below every trough (sum a = 1.15 m)
        const Vec3<V> x(V(6), V(-2), z);
        const auto k = sea.kinematics(x, t, ramp);
        REQUIRE(k.wet);
        // at the point's own stretched elevation z' (held fixed), d/dt of the velocity
        const V zp = sea.stretched_z(z, k.eta);
        const auto kd = plain.kinematics(Vec3<D>(D(x(0)), D(x(1)), D(zp)), D(t, 1, 0), ramp);
        const V scale = k.a.norm() + k.u.norm();
        ++checked;
        if (!kd.wet) continue;  // z' above the unstretched surface (near a trough): no reference
        ++compared;
        for (int i = 0; i < 3; ++i) {
          CHECK(std::fabs(kd.u(i).value() - k.u(i)) <= 64 * eps * scale);
          CHECK(std::fabs(kd.u(i).derivatives()(0) - k.a(i)) <= 64 * eps * scale);
        }
        if (!wheeler) {  // without stretching z' = z: exactly du/dt at the point
          const auto kz = sea.kinematics(Vec3<D>(D(x(0)), D(x(1)), D(z)), D(t, 1, 0), ramp);
          for (int i = 0; i < 3; ++i) CHECK(std::fabs(kz.u(i).derivatives()(0) - k.a(i)) <= 64 * eps * scale);
        }
      }
    }
  }
  CHECK(compared >= checked - 2);
}

TEST_CASE("airy: bad input fails with a named error", "[sea][airy][errors]") {
  CHECK_THROWS_AS(LinearSea::regular(0.0, 8.0, 0.0, 20.0, g), InputError);
  CHECK_THROWS_AS(LinearSea::regular(-1.0, 8.0, 0.0, 20.0, g), InputError);
  CHECK_THROWS_AS(LinearSea::regular(2.0, 0.0, 0.0, 20.0, g), InputError);
  CHECK_THROWS_AS(LinearSea::regular(2.0, -8.0, 0.0, 20.0, g), InputError);
  CHECK_THROWS_AS(LinearSea::regular(2.0, 8.0, 0.0, 0.0, g), InputError);
  CHECK_THROWS_AS(LinearSea::regular(2.0, 8.0, 0.0, -20.0, g), InputError);
  CHECK_THROWS_AS(LinearSea({{-0.1, 1.0, 0.0, 0.0}}, 20.0, g), InputError);
  CHECK_THROWS_AS(LinearSea({{0.1, 0.0, 0.0, 0.0}}, 20.0, g), InputError);
  try {
    LinearSea::regular(2.0, -8.0, 0.0, 20.0, g);
  } catch (const InputError& e) {
    CHECK(e.object() == "Airy wave");
    CHECK(e.quantity() == "T");
    CHECK(e.value() == "-8");
  }
}
