// EI = 0 tension element: force and tangent against duals and long-double differences,
// tension-only switch from both sides, damping Jacobians, consistent mass, invariance,
// bad input.
#include <catch2/catch.hpp>

#include <random>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/elements/hermite_element.hpp"
#include "cabledyn/elements/tension_element.hpp"
#include "elements/element_states.hpp"

using namespace cabledyn;

namespace {
template <class S>
using V6 = Eigen::Matrix<S, 6, 1>;

TensionElementParams tension_params(bool tension_only = true) {
  TensionElementParams p;
  p.L0 = 3.2;
  p.EA = 7.5e5;
  p.BA = 2.0e3;
  p.rho_A = 45.0;
  p.tension_only = tension_only;
  return p;
}

struct TensionEnergyOf {
  const TensionElement* e;
  template <class V>
  typename V::Scalar operator()(const V& q) const {
    using T = typename V::Scalar;
    return e->energy<T>(V6<T>(q));
  }
};

// States with strain well away from the slack switch at eps = 0.
std::vector<V6<double>> states(double L0, double sign) {
  std::vector<V6<double>> out;
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 6; ++i) {
    Eigen::Vector3d d(u(rng), u(rng), u(rng));
    d.normalize();
    const double eps = sign * (0.002 + 0.05 * std::fabs(u(rng)));
    V6<double> q;
    q.segment<3>(0) = Eigen::Vector3d(u(rng), u(rng), u(rng)) * 10.0;
    q.segment<3>(3) = q.segment<3>(0) + L0 * (1 + eps) * d;
    out.push_back(q);
  }
  return out;
}
}  // namespace

TEMPLATE_TEST_CASE("Tension element: force and tangent equal duals, taut and two-sided compressed",
                   "[elements][tension]", double, long double) {
  using T = TestType;
  const double tol = std::is_same_v<T, double> ? 1e-13 : 1e-16;
  for (bool tension_only : {true, false}) {
    const TensionElement e(tension_params(tension_only));
    for (double sign : {1.0, -1.0}) {
      if (tension_only && sign < 0) continue;  // slack: tested below
      for (const auto& qd : states(e.params().L0, sign)) {
        const V6<T> q = qd.cast<T>();
        V6<T> f;
        Eigen::Matrix<T, 6, 6> K;
        e.internal_force<T>(q, f, &K);
        const auto cg = check_gradient(TensionEnergyOf{&e}, q, f);
        INFO(cg.log());
        CHECK(cg.vs_dual.ok(tol));
        CHECK(cg.vs_fd.ok(1e-9));
        const auto ch = check_hessian(TensionEnergyOf{&e}, q, K);
        INFO(ch.log());
        CHECK(ch.vs_dual.ok(tol));
        CHECK(ch.vs_fd.ok(1e-9));
        // T = EA eps and the end forces are +-T e.
        const auto k = e.kinematics(q);
        CHECK(std::fabs(e.tension(q) - T(e.params().EA) * k.eps) <= 4 * std::numeric_limits<T>::epsilon() * T(e.params().EA) * std::fabs(k.eps));
        CHECK((f.template segment<3>(3) - e.tension(q) * k.e).norm() <= 8 * std::numeric_limits<T>::epsilon() * std::fabs(e.tension(q)));
      }
    }
  }
}

TEST_CASE("Tension-only switch: slack gives zero force and zero stiffness, consistently",
          "[elements][tension]") {
  const TensionElement e(tension_params(true));
  for (const auto& q : states(e.params().L0, -1.0)) {
    V6<double> f;
    Eigen::Matrix<double, 6, 6> K;
    e.internal_force<double>(q, f, &K);
    CHECK(f.norm() == 0);
    CHECK(K.norm() == 0);
    CHECK(e.energy(q) == 0);
    CHECK(e.tension(q) == 0);
    // The duals agree on the slack side as well (zero everywhere).
    CHECK(hessian(TensionEnergyOf{&e}, q).norm() == 0);
  }
  // Either side of eps = 0: the force is continuous (zero at the switch), the material
  // stiffness jumps from 0 to EA/L0 e e^T as the spec says.
  V6<double> q = V6<double>::Zero();
  const double L0 = e.params().L0;
  for (double eps : {-1e-9, 1e-9}) {
    q.segment<3>(3) = Eigen::Vector3d(L0 * (1 + eps), 0, 0);
    V6<double> f;
    Eigen::Matrix<double, 6, 6> K;
    e.internal_force<double>(q, f, &K);
    CHECK(f.segment<3>(3).norm() <= e.params().EA * 1e-9 * 1.01);
    if (eps > 0) CHECK(K(3, 3) == Approx(e.params().EA / L0).epsilon(1e-8));
    if (eps < 0) CHECK(K(3, 3) == 0);
  }
}

TEMPLATE_TEST_CASE("Tension element: Kelvin-Voigt damping and its position and velocity Jacobians",
                   "[elements][tension][damping]", double, long double) {
  using T = TestType;
  const TensionElement e(tension_params(true));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (double sign : {1.0, -1.0}) {  // damping stays active on a slack element
    for (const auto& qd : states(e.params().L0, sign)) {
      V6<double> vd;
      for (int i = 0; i < 6; ++i) vd(i) = u(rng);
      const V6<T> q = qd.cast<T>(), v = vd.cast<T>();
      V6<T> f;
      Eigen::Matrix<T, 6, 6> Jq, Jv;
      e.damping_force<T>(q, v, f, &Jq, &Jv);
      auto of_q = [&](const auto& x) {
        using S = typename std::decay_t<decltype(x)>::Scalar;
        V6<S> out;
        e.damping_force<S>(V6<S>(x), v.template cast<S>(), out);
        return out;
      };
      auto of_v = [&](const auto& x) {
        using S = typename std::decay_t<decltype(x)>::Scalar;
        V6<S> out;
        e.damping_force<S>(q.template cast<S>(), V6<S>(x), out);
        return out;
      };
      const double tol = std::is_same_v<T, double> ? 1e-13 : 1e-16;
      const auto cq = check_jacobian(of_q, q, Jq);
      INFO(cq.log());
      CHECK(cq.vs_dual.ok(tol));
      CHECK(cq.vs_fd.ok(1e-9));
      const auto cv = check_jacobian(of_v, v, Jv);
      INFO(cv.log());
      CHECK(cv.vs_dual.ok(tol));
      CHECK(cv.vs_fd.ok(1e-9));
      // MoorDyn sign: T_d = BA (e . (v_b - v_a)) / L0 along e, dissipative.
      const auto k = e.kinematics(q);
      const T Td = T(e.params().BA) / T(e.params().L0) *
                   k.e.dot(v.template segment<3>(3) - v.template segment<3>(0));
      CHECK((f.template segment<3>(3) - Td * k.e).norm() <= 16 * std::numeric_limits<T>::epsilon() * (std::fabs(Td) + 1));
      CHECK(f.dot(v) >= T(0));
      CHECK(e.tension_with_damping(q, v) == Approx(static_cast<double>(e.tension(q) + Td)).epsilon(1e-12));
    }
  }
}

TEMPLATE_TEST_CASE("Tension element: consistent mass and total mass", "[elements][tension][mass]",
                   double, long double) {
  using T = TestType;
  const TensionElement e(tension_params());
  const auto M = e.mass<T>();
  auto KE = [&](const auto& v) {
    using S = typename std::decay_t<decltype(v)>::Scalar;
    return e.kinetic_energy<S>(V6<S>(v));
  };
  const auto H = hessian(KE, V6<T>::Zero().eval());
  CHECK((H - M).cwiseAbs().maxCoeff() <= 8 * std::numeric_limits<T>::epsilon() * M.cwiseAbs().maxCoeff());
  V6<T> u;
  u << T(1), T(0), T(0), T(1), T(0), T(0);
  const T mass = T(e.params().rho_A) * T(e.params().L0);
  CHECK(std::fabs(u.dot(M * u) - mass) <= 8 * std::numeric_limits<T>::epsilon() * mass);
}

TEST_CASE("Tension element: invariance under rigid motion; agreement with a straight Hermite element",
          "[elements][tension]") {
  const TensionElement e(tension_params(false));
  const Eigen::Matrix3d R = test::rotation(Eigen::Vector3d(1, 2, 3), 0.77);
  const Eigen::Vector3d c(5, -6, 7);
  for (const auto& q : states(e.params().L0, 1.0)) {
    V6<double> q2;
    q2.segment<3>(0) = R * q.segment<3>(0) + c;
    q2.segment<3>(3) = R * q.segment<3>(3) + c;
    CHECK(e.energy(q2) == Approx(e.energy(q)).epsilon(1e-12));
    V6<double> f1, f2;
    e.internal_force<double>(q, f1);
    e.internal_force<double>(q2, f2);
    CHECK((f2.segment<3>(3) - R * f1.segment<3>(3)).norm() <= 1e-9 * f1.norm());
  }
  // A straight, uniformly stretched Hermite element with the same EA carries the same end
  // forces.
  HermiteElementParams hp;
  hp.L0 = e.params().L0;
  hp.EA = e.params().EA;
  hp.EI = 0;
  const HermiteElement<> h(hp);
  const Eigen::Vector3d t = Eigen::Vector3d(0.4, 0.1, -0.9).normalized();
  const auto qh = test::straight_state(hp.L0, 0.01, t);
  Eigen::Matrix<double, 12, 1> fh;
  h.internal_force<double>(qh, fh);
  V6<double> qt, ft;
  qt << qh.segment<3>(0), qh.segment<3>(6);
  e.internal_force<double>(qt, ft);
  CHECK((fh.segment<3>(0) - ft.segment<3>(0)).norm() <= 1e-9 * ft.norm());
  CHECK((fh.segment<3>(6) - ft.segment<3>(3)).norm() <= 1e-9 * ft.norm());
}

TEST_CASE("Tension element bad input gives named errors", "[elements][tension][errors]") {
  auto make = [](auto mutate) {
    TensionElementParams p = tension_params();
    mutate(p);
    return TensionElement(p, "line 1 segment 3");
  };
  CHECK_THROWS_WITH(make([](auto& p) { p.L0 = 0; }), "InputError: line 1 segment 3: L0 = 0 (limit: > 0)");
  CHECK_THROWS_WITH(make([](auto& p) { p.EA = -5; }), "InputError: line 1 segment 3: EA = -5 (limit: > 0)");
  CHECK_THROWS_WITH(make([](auto& p) { p.BA = -1; }), "InputError: line 1 segment 3: BA = -1 (limit: >= 0)");
  CHECK_THROWS_AS(make([](auto& p) { p.rho_A = std::nan(""); }), InputError);
  const TensionElement e(tension_params(), "line 1 segment 3");
  V6<double> q = V6<double>::Zero(), f;
  CHECK_THROWS_WITH(e.internal_force<double>(q, f), "DomainError: line 1 segment 3: chord length = 0 (limit: > 0)");
}
