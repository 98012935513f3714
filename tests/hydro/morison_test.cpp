// Morison drag, added mass and fluid inertia per unit length: closed-form values and exact
// Jacobians against duals and long-double differences.
#include <catch2/catch.hpp>

#include <random>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/hydro/morison.hpp"

using namespace cabledyn;

namespace {
MorisonCoefficients coeffs() {
  MorisonCoefficients c;
  c.d = 0.12;
  c.Cdn = 1.2;
  c.Cdt = 0.008;
  c.Can = 1.0;
  c.Cat = 0.25;
  c.rho = 1025.0;
  return c;
}
}  // namespace

TEST_CASE("Morison drag: pure normal and pure tangential flow", "[hydro][drag]") {
  const auto c = coeffs();
  const Vec3<double> t(0, 0, 1);
  const Vec3<double> un(0.8, -0.6, 0), ut(0, 0, -1.5);
  const double cn = 0.5 * c.rho * c.d * c.Cdn, ct = 0.5 * c.rho * kPi * c.d * c.Cdt;
  CHECK((morison_drag<double>(un, t, c) - cn * 1.0 * un).norm() < 1e-12);
  CHECK((morison_drag<double>(ut, t, c) - ct * 1.5 * ut).norm() < 1e-12);
  // Superposition of the two parts, independent of the sign of t.
  const Vec3<double> f = morison_drag<double>(un + ut, t, c);
  CHECK((f - cn * un - ct * 1.5 * ut).norm() < 1e-12);
  CHECK((morison_drag<double>(un + ut, Vec3<double>(-t), c) - f).norm() < 1e-12);
  // Zero relative velocity: zero force and zero Jacobians (|u| u is C1).
  Mat3<double> Ju, Jt;
  CHECK(morison_drag<double>(Vec3<double>::Zero(), t, c, &Ju, &Jt).norm() == 0);
  CHECK(Ju.norm() == 0);
  CHECK(Jt.norm() == 0);
}

TEMPLATE_TEST_CASE("Morison drag, added mass and inertia: exact Jacobians", "[hydro][drag]", double,
                   long double) {
  using T = TestType;
  const auto c = coeffs();
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 8; ++i) {
    Vec3<T> ur(T(u(rng)), T(u(rng)), T(u(rng))), t(T(u(rng)), T(u(rng)), T(u(rng)));
    t.normalize();
    ur *= T(2);
    Mat3<T> Ju, Jt;
    morison_drag<T>(ur, t, c, &Ju, &Jt);
    auto of_u = [&](const auto& x) {
      using S = typename std::decay_t<decltype(x)>::Scalar;
      return morison_drag<S>(Vec3<S>(x), t.template cast<S>(), c);
    };
    auto of_t = [&](const auto& x) {
      using S = typename std::decay_t<decltype(x)>::Scalar;
      return morison_drag<S>(ur.template cast<S>(), Vec3<S>(x), c);
    };
    const double tol = std::is_same_v<T, double> ? 1e-14 : 1e-17;
    const auto cu = check_jacobian(of_u, ur, Ju);
    INFO(cu.log());
    CHECK(cu.ok(tol, 1e-9));
    const auto ctj = check_jacobian(of_t, t, Jt);
    INFO(ctj.log());
    CHECK(ctj.ok(tol, 1e-9));
    // Added mass times a fixed acceleration, and the fluid inertia, in t.
    const Vec3<T> a(T(0.3), T(-1.1), T(0.7));
    auto ma_of_t = [&](const auto& x) {
      using S = typename std::decay_t<decltype(x)>::Scalar;
      return Vec3<S>(added_mass<S>(Vec3<S>(x), c) * a.template cast<S>());
    };
    const auto cm = check_jacobian(ma_of_t, t, added_mass_times_jacobian<T>(t, a, c));
    INFO(cm.log());
    CHECK(cm.ok(tol, 1e-9));
    Mat3<T> Ji;
    fluid_inertia<T>(a, t, c, &Ji);
    auto fi_of_t = [&](const auto& x) {
      using S = typename std::decay_t<decltype(x)>::Scalar;
      return fluid_inertia<S>(a.template cast<S>(), Vec3<S>(x), c);
    };
    const auto ci = check_jacobian(fi_of_t, t, Ji);
    INFO(ci.log());
    CHECK(ci.ok(tol, 1e-9));
  }
}

TEST_CASE("Added mass and Froude-Krylov: values", "[hydro][added_mass]") {
  const auto c = coeffs();
  const double rA = c.rho * c.area();
  const Vec3<double> t(1, 0, 0);
  const Mat3<double> ma = added_mass<double>(t, c);
  CHECK(ma(0, 0) == Approx(rA * c.Cat));
  CHECK(ma(1, 1) == Approx(rA * c.Can));
  CHECK(ma(2, 2) == Approx(rA * c.Can));
  CHECK(ma(0, 1) == 0);
  const Vec3<double> adot(2.0, 3.0, 0.0);
  const Vec3<double> fi = fluid_inertia<double>(adot, t, c);
  CHECK(fi(0) == Approx(rA * (1 + c.Cat) * 2.0));
  CHECK(fi(1) == Approx(rA * (1 + c.Can) * 3.0));
  // Submerged weight and its inverse (EQUIVALENT BUOYANCY).
  const double w = submerged_weight(77.7066, 0.09, 1025.0, 9.80665);
  CHECK(w == Approx(698.094).epsilon(1e-6));
  CHECK(mass_from_submerged_weight(w, 0.09, 1025.0, 9.80665) == Approx(77.7066).epsilon(1e-14));
  MorisonCoefficients bad = c;
  bad.Cdn = -1;
  CHECK_THROWS_WITH(bad.validate("LineType chain"), "InputError: LineType chain: Cdn = -1 (limit: >= 0)");
}
