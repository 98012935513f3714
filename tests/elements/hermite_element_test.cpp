// Cubic-Hermite element: closed-form gradient and Hessian against nested duals and
// long-double central differences at every quadrature order; damping Jacobians; mass.
#include <catch2/catch.hpp>

#include <Eigen/Eigenvalues>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/elements/hermite_element.hpp"
#include "elements/element_states.hpp"

using namespace cabledyn;
using cabledyn::test::hermite_states;
using cabledyn::test::Vec12;

namespace {

template <class S>
using V12 = Eigen::Matrix<S, 12, 1>;

// The element energy as a functor of the 12 DOFs, for any scalar.
struct EnergyOf {
  const HermiteElement<>* e;
  template <class V>
  typename V::Scalar operator()(const V& q) const {
    using T = typename V::Scalar;
    return e->energy<T>(V12<T>(q));
  }
};

HermiteElementParams params(int pa, int pb, double EA = 2.0e3, double EI = 35.0) {
  HermiteElementParams p;
  p.L0 = 1.7;
  p.EA = EA;
  p.EI = EI;
  p.BA = 120.0;
  p.rho_A = 3.5;
  p.axial_order = pa;
  p.bending_order = pb;
  return p;
}

}  // namespace

TEMPLATE_TEST_CASE("Hermite element: closed-form force and tangent equal nested duals at every order",
                   "[elements][hermite]", double, long double) {
  using T = TestType;
  const std::vector<std::pair<int, int>> orders = {{1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5},
                                                   {6, 6}, {2, 5}, {6, 1}, {4, 3}};
  // Against duals: 1e-12 of the matrix scale in double (the bound); long double is
  // held to 1e-15. Against long-double central differences: 1e-8.
  const double tol_dual = std::is_same_v<T, double> ? 1e-12 : 1e-15;
  for (const auto& [pa, pb] : orders) {
    for (const auto& [EA, EI] : {std::pair{2.0e3, 35.0}, std::pair{4.0e8, 1.2e4}}) {
      const HermiteElement<> e(params(pa, pb, EA, EI));
      for (const auto& st : hermite_states(e.params().L0)) {
        INFO("orders " << pa << "/" << pb << ", EA " << EA << ", EI " << EI << ", state "
                       << st.name);
        const V12<T> q = st.q.cast<T>();
        V12<T> f;
        Eigen::Matrix<T, 12, 12> K;
        e.internal_force<T>(q, f, &K);
        // Symmetry is exact by construction (mirrored blocks).
        CHECK((K - K.transpose()).cwiseAbs().maxCoeff() == 0);
        const auto cg = check_gradient(EnergyOf{&e}, q, f);
        INFO(cg.log());
        CHECK(cg.vs_dual.ok(tol_dual));
        CHECK(cg.vs_fd.ok(1e-8));
        const auto ch = check_hessian(EnergyOf{&e}, q, K);
        INFO(ch.log());
        CHECK(ch.vs_dual.ok(tol_dual));
        CHECK(ch.vs_fd.ok(1e-8));
        // The force alone (no tangent requested) is the same force.
        V12<T> f2;
        e.internal_force<T>(q, f2);
        CHECK((f2 - f).cwiseAbs().maxCoeff() == 0);
      }
    }
  }
}

TEST_CASE("Hermite element: bending part alone agrees with duals (EA tiny)", "[elements][hermite]") {
  // With EA far below EI / L0^2 the check sees the bending terms at full scale.
  const HermiteElement<> e(params(4, 4, 1e-6, 50.0));
  for (const auto& st : hermite_states(e.params().L0)) {
    INFO(st.name);
    Vec12 f;
    Eigen::Matrix<double, 12, 12> K;
    e.internal_force<double>(st.q, f, &K);
    const auto ch = check_hessian(EnergyOf{&e}, st.q, K);
    INFO(ch.log());
    CHECK(ch.vs_dual.ok(1e-12));
    CHECK(ch.vs_fd.ok(1e-8));
  }
}

TEMPLATE_TEST_CASE("Hermite element: axial damping force and its exact Jacobians",
                   "[elements][hermite][damping]", double, long double) {
  using T = TestType;
  const HermiteElement<> e(params(4, 4));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const auto& st : hermite_states(e.params().L0)) {
    Vec12 v;
    for (int i = 0; i < 12; ++i) v(i) = 0.7 * u(rng);
    INFO(st.name);
    const V12<T> q = st.q.cast<T>(), vt = v.cast<T>();
    V12<T> f;
    Eigen::Matrix<T, 12, 12> Jq, Jv;
    e.damping_force<T>(q, vt, f, &Jq, &Jv);
    auto of_q = [&](const auto& x) {
      using S = typename std::decay_t<decltype(x)>::Scalar;
      V12<S> out;
      e.damping_force<S>(V12<S>(x), vt.template cast<S>(), out);
      return out;
    };
    auto of_v = [&](const auto& x) {
      using S = typename std::decay_t<decltype(x)>::Scalar;
      V12<S> out;
      e.damping_force<S>(q.template cast<S>(), V12<S>(x), out);
      return out;
    };
    const double tol = std::is_same_v<T, double> ? 1e-12 : 1e-15;
    const auto cq = check_jacobian(of_q, q, Jq);
    INFO(cq.log());
    CHECK(cq.vs_dual.ok(tol));
    CHECK(cq.vs_fd.ok(1e-8));
    const auto cv = check_jacobian(of_v, vt, Jv);
    INFO(cv.log());
    CHECK(cv.vs_dual.ok(tol));
    CHECK(cv.vs_fd.ok(1e-8));
    // Dissipation: the damping force does non-negative work on the velocity.
    CHECK(static_cast<double>(f.dot(vt)) >= -1e-12 * static_cast<double>(f.norm() * vt.norm()));
  }
}

TEST_CASE("Hermite element: damping of a uniformly stretching straight element", "[elements][hermite][damping]") {
  // r(s) = (1 + eps) s t, v(s) = epsdot s t: resultant BA epsdot along t at every section,
  // so f = BA epsdot (-t, 0, t, 0) exactly.
  const HermiteElement<> e(params(3, 4));
  const double L0 = e.params().L0, epsdot = 0.37;
  const Eigen::Vector3d t = Eigen::Vector3d(0.2, -0.6, 0.77).normalized();
  const Vec12 q = test::straight_state(L0, 0.01, t);
  Vec12 v = Vec12::Zero();
  v.segment<3>(3) = epsdot * t;
  v.segment<3>(6) = epsdot * L0 * t;
  v.segment<3>(9) = epsdot * t;
  Vec12 f;
  e.damping_force<double>(q, v, f);
  const double fd = e.params().BA * epsdot;
  CHECK((f.segment<3>(0) + fd * t).norm() <= 1e-13 * fd);
  CHECK((f.segment<3>(6) - fd * t).norm() <= 1e-13 * fd);
  CHECK(f.segment<3>(3).norm() <= 1e-13 * fd * L0);
  CHECK(f.segment<3>(9).norm() <= 1e-13 * fd * L0);
}

TEMPLATE_TEST_CASE("Hermite element: consistent mass is the Hessian of the kinetic energy",
                   "[elements][hermite][mass]", double, long double) {
  using T = TestType;
  const HermiteElement<> e(params(4, 4));
  const auto M = e.mass<T>();
  auto KE = [&](const auto& v) {
    using S = typename std::decay_t<decltype(v)>::Scalar;
    return e.kinetic_energy<S>(V12<S>(v));
  };
  V12<T> v0 = V12<T>::Zero();
  const auto H = hessian(KE, v0);
  const T scale = M.cwiseAbs().maxCoeff();
  CHECK((H - M).cwiseAbs().maxCoeff() <= 64 * std::numeric_limits<T>::epsilon() * scale);
  // A rigid translation u carries the total mass rho_A L0: u^T M u = rho_A L0 |u|^2.
  V12<T> u = V12<T>::Zero();
  const Eigen::Matrix<T, 3, 1> du(T(0.3), T(-1.2), T(0.5));
  u.template segment<3>(0) = du;
  u.template segment<3>(6) = du;
  const T mass = T(e.params().rho_A) * T(e.params().L0);
  CHECK(std::fabs(u.dot(M * u) - mass * du.squaredNorm()) <=
        32 * std::numeric_limits<T>::epsilon() * mass * du.squaredNorm());
  // Block-diagonal per Cartesian component: no coupling between x, y and z.
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j)
      if (i % 3 != j % 3) CHECK(M(i, j) == 0);
  // Symmetric positive definite.
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 12, 12>> es(M.template cast<double>());
  CHECK(es.eigenvalues().minCoeff() > 0);
}

TEST_CASE("Hermite element with the [r, m, phi] layout leaves the twist DOFs alone",
          "[elements][hermite][layout]") {
  // Same element in the 7-DOF layout: the 12 [r, m] rows/columns equal the 6-DOF kernel's,
  // the twist rows/columns are zero (torsion adds its own terms).
  const HermiteElement<LayoutRM> e6(params(4, 4));
  const HermiteElement<LayoutRMPhi> e7(params(4, 4));
  const Vec12 q6 = hermite_states(e6.params().L0)[2].q;
  Eigen::Matrix<double, 14, 1> q7;
  q7 << q6.segment<6>(0), 0.4, q6.segment<6>(6), -0.9;
  Vec12 f6;
  Eigen::Matrix<double, 12, 12> K6;
  Eigen::Matrix<double, 14, 1> f7;
  Eigen::Matrix<double, 14, 14> K7;
  e6.internal_force<double>(q6, f6, &K6);
  e7.internal_force<double>(q7, f7, &K7);
  const int map[12] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12};
  for (int i = 0; i < 12; ++i) {
    CHECK(f7(map[i]) == f6(i));
    for (int j = 0; j < 12; ++j) CHECK(K7(map[i], map[j]) == K6(i, j));
  }
  CHECK(f7(6) == 0);
  CHECK(f7(13) == 0);
  CHECK(K7.row(6).cwiseAbs().maxCoeff() == 0);
  CHECK(K7.col(13).cwiseAbs().maxCoeff() == 0);
  CHECK(e7.energy(q7) == e6.energy(q6));
  CHECK(e7.mass().trace() == Approx(e6.mass().trace()).epsilon(1e-15));
}

TEMPLATE_TEST_CASE("Hermite element: the march's one-pass force and effective tangent (damped_force)",
                   "[elements][hermite][damping]", double, long double) {
  // damped_force returns f = dU/dq + f_d(q, v) and J = wq (K + df_d/dq) + wv df_d/dv in one
  // pass. Checked (1) against internal_force + damping_force combined, and (2) with duals:
  // along the path v(x) = v0 + (wv/wq)(x - q0), J/wq is the total derivative of f.
  using T = TestType;
  const double wq = 0.55, wv = 17.0;
  const std::vector<std::pair<int, int>> orders = {{4, 4}, {3, 3}, {2, 5}, {6, 1}};
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double tol = std::is_same_v<T, double> ? 2e-12 : 1e-15;
  for (const auto& [pa, pb] : orders)
    for (const double EI : {35.0, 0.0}) {
      HermiteElementParams p = params(pa, pb, 4.0e5, EI);
      for (const double BA : {120.0, 0.0}) {
        p.BA = BA;
        const HermiteElement<> e(p);
        for (const auto& st : hermite_states(p.L0)) {
          INFO("orders " << pa << "/" << pb << ", EI " << EI << ", BA " << BA << ", state " << st.name);
          Vec12 v0;
          for (int i = 0; i < 12; ++i) v0(i) = 0.8 * u(rng);
          const V12<T> q = st.q.cast<T>(), v = v0.cast<T>();
          V12<T> f, fi, fd = V12<T>::Zero(), f_only;
          Eigen::Matrix<T, 12, 12> J, K, Jq = Eigen::Matrix<T, 12, 12>::Zero(), Jv = Jq;
          e.template damped_force<T>(q, v, f, &J, wq, wv);
          e.template damped_force<T>(q, v, f_only, nullptr, wq, wv);
          e.template internal_force<T>(q, fi, &K);
          if (BA > 0) e.template damping_force<T>(q, v, fd, &Jq, &Jv);
          const Eigen::Matrix<T, 12, 12> Jref = T(wq) * (K + Jq) + T(wv) * Jv;
          const T fscale = fi.cwiseAbs().maxCoeff() + fd.cwiseAbs().maxCoeff();
          CHECK(static_cast<double>((f - fi - fd).cwiseAbs().maxCoeff() / fscale) <= tol);
          CHECK(static_cast<double>((J - Jref).cwiseAbs().maxCoeff() / Jref.cwiseAbs().maxCoeff()) <= tol);
          CHECK((f_only - f).cwiseAbs().maxCoeff() == 0);  // the force does not depend on J
          auto along = [&](const auto& x) {
            using S = typename std::decay_t<decltype(x)>::Scalar;
            const V12<S> xs(x);
            const V12<S> vs = v.template cast<S>() + S(wv / wq) * (xs - q.template cast<S>());
            V12<S> out;
            e.template damped_force<S>(xs, vs, out, nullptr, wq, wv);
            return out;
          };
          const auto chk = check_jacobian(along, q, Eigen::Matrix<T, 12, 12>(J / T(wq)));
          INFO(chk.log());
          CHECK(chk.vs_dual.ok(std::is_same_v<T, double> ? 1e-12 : 1e-15));
          CHECK(chk.vs_fd.ok(1e-7));
        }
      }
    }
}

TEMPLATE_TEST_CASE("HermiteBlockSum: the component-major sum of (c d^T) (x) H terms equals the explicit matrix",
                   "[elements][hermite][blocks]", double, long double) {
  // Random terms, more than kTerms of them (so the recorded terms are folded into the sum
  // part-way), against the 12x12 matrix built block by block; and added onto the [r, m, phi]
  // layout, whose twist rows and columns stay untouched.
  using T = TestType;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const int terms : {0, 1, 7, HermiteBlockSum<T>::kTerms, HermiteBlockSum<T>::kTerms + 9}) {
    INFO(terms << " terms");
    HermiteBlockSum<T> R;
    R.set_zero();
    Eigen::Matrix<T, 12, 12> ref = Eigen::Matrix<T, 12, 12>::Zero();
    for (int p = 0; p < terms; ++p) {
      std::array<T, 4> c, d;
      for (int k = 0; k < 4; ++k) {
        c[static_cast<std::size_t>(k)] = T(u(rng));
        d[static_cast<std::size_t>(k)] = T(u(rng));
      }
      Mat3<T> H;
      for (int i = 0; i < 9; ++i) H.data()[i] = T(u(rng));
      R.add(c, d, H);
      for (int k = 0; k < 4; ++k)
        for (int l = 0; l < 4; ++l)
          ref.template block<3, 3>(3 * k, 3 * l) += (c[static_cast<std::size_t>(k)] * d[static_cast<std::size_t>(l)]) * H;
    }
    Eigen::Matrix<T, 12, 12> J = Eigen::Matrix<T, 12, 12>::Zero();
    R.template add_to<LayoutRM>(J);
    const double tol = std::is_same_v<T, double> ? 1e-14 : 1e-17;
    CHECK(static_cast<double>((J - ref).cwiseAbs().maxCoeff()) <= tol * std::max(1, terms));
    const auto& C = R.matrix();
    for (int k = 0; k < 4; ++k)
      for (int l = 0; l < 4; ++l)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) CHECK(C(k + 4 * l, i + 3 * j) == J(3 * k + i, 3 * l + j));
    Eigen::Matrix<T, 14, 14> J7 = Eigen::Matrix<T, 14, 14>::Constant(T(2));
    R.template add_to<LayoutRMPhi>(J7);
    const int map[12] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12};
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) CHECK(J7(map[i], map[j]) == J(i, j) + T(2));
    for (int i = 0; i < 14; ++i) {
      CHECK(J7(6, i) == T(2));
      CHECK(J7(i, 13) == T(2));
    }
  }
}
