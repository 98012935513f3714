// The EI = 0 element residual (line/element_residual.hpp), the one element load model of the
// march, the system route and the statics: its position and velocity Jacobians against duals
// and central differences (a partly wetted, damped element in a current with fluid
// acceleration), the term-by-term sum, and a design parameter (EA) as a dual against central
// differences.
#include <catch2/catch.hpp>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/elements/hermite_element.hpp"
#include "cabledyn/line/element_residual.hpp"

using namespace cabledyn;

namespace {
MorisonCoefficients er_coeffs() {
  MorisonCoefficients c;
  c.d = 0.09;
  c.Cdn = 1.1;
  c.Cdt = 0.05;
  c.Can = 0.9;
  c.Cat = 0.3;
  c.rho = 1025.0;
  return c;
}

template <class P>
BasicTensionElement<P> er_element(const P& EA, double BA, bool tension_only = true) {
  BasicTensionElementParams<P> p;
  p.L0 = P(6.0);
  p.EA = EA;
  p.BA = P(BA);
  p.rho_A = P(14.0);
  p.tension_only = tension_only;
  return BasicTensionElement<P>(p, "test element");
}

template <class S>
ElementSea<S> er_sea(double surface_z) {
  ElementSea<S> sea;
  sea.ua = Vec3<S>(S(0.6), S(-0.2), S(0.05));
  sea.ub = Vec3<S>(S(0.4), S(0.1), S(-0.02));
  sea.udot = Vec3<S>(S(0.3), S(-0.5), S(0.2));
  sea.surface_z = surface_z;
  return sea;
}

// A stretched element whose End B is 0.8 m above the surface z = 0 (partly wetted).
Vec<double, 6> er_state() {
  Vec<double, 6> q;
  q << 0.2, -0.1, -5.1, 3.1, 0.4, 0.8;
  return q;
}
Vec<double, 6> er_velocity() {
  Vec<double, 6> v;
  v << 0.3, -0.7, 0.2, -0.4, 0.9, -0.6;
  return v;
}
}  // namespace

TEST_CASE("EI = 0 element residual: position and velocity Jacobians equal duals (partly wetted, damped, current, "
          "fluid acceleration)",
          "[line][element_residual]") {
  const ElementLoads<double> ld{120.0, 1025.0 * 9.81 * kPi * 0.09 * 0.09 / 4, er_coeffs()};
  const auto el = er_element<double>(2e4, 3e3);
  const Vec<double, 6> q0 = er_state(), v0 = er_velocity();
  const auto sea = er_sea<double>(0.0);
  Mat<double, 6> K, C;
  const Vec<double, 6> r = tension_element_residual<double, double>(el, ld, q0, &v0, sea, -1, &K, &C);
  REQUIRE(r.allFinite());
  auto of_q = [&](const auto& x) {
    using S = typename std::decay_t<decltype(x)>::Scalar;
    const Vec<S, 6> vs = v0.cast<S>();
    return tension_element_residual<S, double>(el, ld, Vec<S, 6>(x), &vs, er_sea<S>(0.0), -1, nullptr, nullptr);
  };
  auto of_v = [&](const auto& x) {
    using S = typename std::decay_t<decltype(x)>::Scalar;
    const Vec<S, 6> vs(x);
    return tension_element_residual<S, double>(el, ld, Vec<S, 6>(q0.cast<S>()), &vs, er_sea<S>(0.0), -1, nullptr,
                                               nullptr);
  };
  const auto cq = check_jacobian(of_q, q0, K);
  INFO(cq.log());
  CHECK(cq.ok(1e-12, 1e-7));
  const auto cv = check_jacobian(of_v, v0, C);
  INFO(cv.log());
  CHECK(cv.ok(1e-12, 1e-7));
  // The fraction's height derivative is in K: it is not the wholly wetted K.
  Mat<double, 6> Kw, Cw;
  tension_element_residual<double, double>(el, ld, q0, &v0, er_sea<double>(1e9), -1, &Kw, &Cw);
  CHECK((K - Kw).cwiseAbs().maxCoeff() > 1e-3 * Kw.cwiseAbs().maxCoeff());
}

TEST_CASE("EI = 0 element residual: the sum of its terms; at rest without drag it is f_int - weight bit for bit",
          "[line][element_residual]") {
  const ElementLoads<double> ld{120.0, 1025.0 * 9.81 * kPi * 0.09 * 0.09 / 4, er_coeffs()};
  const auto el = er_element<double>(2e4, 3e3);
  const Vec<double, 6> q0 = er_state(), v0 = er_velocity();
  // Wholly wetted (surface far above): f_int + f_damp - weight - drag - fluid inertia.
  const auto sea = er_sea<double>(100.0);
  const Vec<double, 6> r = tension_element_residual<double, double>(el, ld, q0, &v0, sea, -1, nullptr, nullptr);
  Vec<double, 6> fi, fd, fw, fdrag;
  el.internal_force<double>(q0, fi);
  el.damping_force<double>(q0, v0, fd);
  tension_weight_load<double>(ld.w, 6.0, fw);
  tension_drag<double>(q0, v0, sea.ua, sea.ub, ld.morison, fdrag);
  const Vec3<double> t = (q0.segment<3>(3) - q0.segment<3>(0)).normalized();
  const Vec3<double> fk = fluid_inertia<double>(sea.udot, t, ld.morison);
  Vec<double, 6> ref = fi + fd - fw - fdrag;
  ref.segment<3>(0) -= 3.0 * fk;
  ref.segment<3>(3) -= 3.0 * fk;
  CHECK((r - ref).cwiseAbs().maxCoeff() <= 1e-12 * ref.cwiseAbs().maxCoeff());
  // The Froude-Krylov term is not negligible here (the check above could fail without it).
  CHECK(3.0 * fk.norm() > 1e-3 * ref.cwiseAbs().maxCoeff());
  // At rest, drag off, wetting held apart: exactly f_int - weight (the statics' element).
  ElementSea<double> rest;
  rest.drag = false;
  rest.wetting = false;
  rest.surface_z = 0.0;
  const Vec<double, 6> rs = tension_element_residual<double, double>(el, ld, q0, nullptr, rest, 0.0, nullptr, nullptr);
  CHECK((rs - (fi - fw)).cwiseAbs().maxCoeff() == 0);
  // A slack element with a compressed branch r EA: the internal force of that branch.
  Vec<double, 6> qs = q0;
  qs.segment<3>(3) = q0.segment<3>(0) + 0.9 * 6.0 * t;
  Vec<double, 6> fis;
  el.internal_force<double>(qs, fis, nullptr, 0.25);
  const Vec<double, 6> rc = tension_element_residual<double, double>(el, ld, qs, nullptr, rest, 0.25, nullptr, nullptr);
  CHECK((rc - (fis - fw)).cwiseAbs().maxCoeff() == 0);
  CHECK(fis.norm() > 0);
}

TEST_CASE("EI = 0 element residual: d r / d EA from a dual parameter equals central differences",
          "[line][element_residual]") {
  using D = Dual<double, 1>;
  const Vec<double, 6> q0 = er_state(), v0 = er_velocity();
  D EA(4e6, Eigen::Matrix<double, 1, 1>::Constant(1.0));
  const auto eld = er_element<D>(EA, 3e4);
  ElementLoads<D> ldd{D(120.0), 1025.0 * 9.81 * kPi * 0.09 * 0.09 / 4, er_coeffs()};
  const Vec<D, 6> qd = q0.cast<D>(), vd = v0.cast<D>();
  const Vec<D, 6> rd = tension_element_residual<D, D>(eld, ldd, qd, &vd, er_sea<D>(0.0), -1, nullptr, nullptr);
  const double h = 1.0;
  const ElementLoads<double> ld{120.0, ldd.rho_g_A, er_coeffs()};
  const auto rp = tension_element_residual<double, double>(er_element<double>(4e6 + h, 3e4), ld, q0, &v0,
                                                           er_sea<double>(0.0), -1, nullptr, nullptr);
  const auto rm = tension_element_residual<double, double>(er_element<double>(4e6 - h, 3e4), ld, q0, &v0,
                                                           er_sea<double>(0.0), -1, nullptr, nullptr);
  for (int k = 0; k < 6; ++k) {
    const double fd = (rp(k) - rm(k)) / (2 * h);
    INFO("component " << k);
    CHECK(rd(k).derivatives()(0) == Approx(fd).epsilon(1e-6).margin(1e-9));
  }
  CHECK(std::fabs(rd(3).derivatives()(0)) > 1e-4);  // the element is stretched: r depends on EA
}

TEST_CASE("EI = 0 element residual: an unstretched length seeded in a dynamic-size dual, the weight unseeded, "
          "against central differences (fluid inertia on a partly wetted element)",
          "[line][element_residual]") {
  using D = Dual<double>;  // dynamic size: unseeded parameters carry empty derivative parts
  const Vec<double, 6> q0 = er_state(), v0 = er_velocity();
  auto element = [](const auto& L0) {
    using P = std::decay_t<decltype(L0)>;
    BasicTensionElementParams<P> p;
    p.L0 = L0;
    p.EA = P(2e4);
    p.BA = P(3e3);
    p.rho_A = P(14.0);
    return BasicTensionElement<P>(p, "test element");
  };
  const double rgA = 1025.0 * 9.81 * kPi * 0.09 * 0.09 / 4;
  const ElementLoads<D> ldd{D(120.0), rgA, er_coeffs()};
  const Vec<D, 6> qd = q0.cast<D>(), vd = v0.cast<D>();
  Mat<D, 6> K, C;
  const Vec<D, 6> rd = tension_element_residual<D, D>(element(D(6.0, VecX<double>::Unit(1, 0))), ldd, qd, &vd,
                                                      er_sea<D>(0.0), -1, &K, &C);
  const ElementLoads<double> ld{120.0, rgA, er_coeffs()};
  const double h = 1e-5;
  const auto rp = tension_element_residual<double, double>(element(6.0 + h), ld, q0, &v0, er_sea<double>(0.0), -1,
                                                           nullptr, nullptr);
  const auto rm = tension_element_residual<double, double>(element(6.0 - h), ld, q0, &v0, er_sea<double>(0.0), -1,
                                                           nullptr, nullptr);
  for (int k = 0; k < 6; ++k) {
    INFO("component " << k);
    REQUIRE(rd(k).derivatives().size() == 1);
    CHECK(rd(k).derivatives()(0) == Approx((rp(k) - rm(k)) / (2 * h)).epsilon(1e-6).margin(1e-6));
  }
}

namespace {
HermiteElement<LayoutRM> er_hermite(double BA) {
  HermiteElementParams p;
  p.L0 = 4.0;
  p.EA = 3e4;
  p.EI = 900.0;
  p.BA = BA;
  p.rho_A = 30.0;
  return HermiteElement<LayoutRM>(p, "test Hermite element");
}
// A curved, stretched Hermite element rising through the surface z = 0: End A 2.5 m below,
// End B 1.2 m above (its last drag point dry), tangents m = r'.
Vec<double, 12> er_hermite_state() {
  Vec<double, 12> q;
  q << 0.1, 0.2, -2.5, 0.75, 0.1, 0.72, 2.9, 0.4, 1.2, 0.8, 0.05, 0.95;
  return q;
}
}  // namespace

TEST_CASE("Hermite element residual: the effective tangent wq dr/dq + wv dr/dv equals duals (partly dry, damped, "
          "current, fluid acceleration); the wetting tangent equals central differences",
          "[line][element_residual]") {
  const auto el = er_hermite(40.0);
  const ElementLoads<double> ld{150.0, 1025.0 * 9.81 * kPi * 0.09 * 0.09 / 4, er_coeffs()};
  const Vec<double, 12> q0 = er_hermite_state();
  Vec<double, 12> v0;
  v0 << 0.2, -0.3, 0.1, 0.05, 0.02, -0.04, -0.4, 0.6, 0.3, 0.01, -0.03, 0.02;
  const double wq = 1.0, wv = 37.0;  // the march's weights: an effective tangent wq K + wv C
  auto sea_of = [](auto s, double surface) {
    using S = decltype(s);
    ElementSea<S> sea = er_sea<S>(surface);
    sea.wetting = false;  // its tangent is checked apart (double only)
    return sea;
  };
  HermiteBlockSum<double> R;
  R.set_zero();
  Vec<double, 12> f;
  hermite_element_residual<double>(el, ld, q0, v0, sea_of(0.0, 0.0), f, &R, wq, wv, nullptr);
  Mat<double, 12> J = Mat<double, 12>::Zero();
  R.add_to<LayoutRM>(J);
  // Along v(x) = v0 + (wv / wq)(x - q0) the total derivative of r is J / wq.
  auto along = [&](const auto& x) {
    using S = typename std::decay_t<decltype(x)>::Scalar;
    const Vec<S, 12> xs(x);
    const Vec<S, 12> vs = v0.cast<S>() + S(wv / wq) * (xs - q0.cast<S>());
    Vec<S, 12> out;
    hermite_element_residual<S>(el, ld, xs, vs, sea_of(S(0), 0.0), out, nullptr, wq, wv, nullptr);
    return out;
  };
  const auto chk = check_jacobian(along, q0, Mat<double, 12>(J / wq));
  INFO(chk.log());
  CHECK(chk.ok(1e-11, 1e-7));
  // One drag point is dry: the residual differs from the wholly wetted one.
  Vec<double, 12> fw;
  hermite_element_residual<double>(el, ld, q0, v0, sea_of(0.0, 100.0), fw, nullptr, wq, wv, nullptr);
  CHECK((f - fw).norm() > 1e-3 * f.norm());
  // The buoyancy lost above the surface: f_wet with its tangent K_wet (the load's).
  ElementSea<double> wet = er_sea<double>(0.0);
  wet.drag = false;
  wet.udot.setZero();
  const Vec<double, 12> zero = Vec<double, 12>::Zero();
  Vec<double, 12> fr, fn;
  Mat<double, 12> Kwet;
  REQUIRE(hermite_element_residual<double>(el, ld, q0, zero, wet, fr, nullptr, 1.0, 0.0, &Kwet));
  ElementSea<double> nowet = wet;
  nowet.wetting = false;
  hermite_element_residual<double>(el, ld, q0, zero, nowet, fn, nullptr, 1.0, 0.0, nullptr);
  const Vec<double, 12> fwet = fn - fr;  // r = ... - f_wet
  CHECK(fwet.norm() > 1.0);
  const double h = 1e-6;
  double worst = 0;
  for (int j = 0; j < 12; ++j) {
    Vec<double, 12> qp = q0, qm = q0, a, b, c, d;
    qp(j) += h;
    qm(j) -= h;
    hermite_element_residual<double>(el, ld, qp, zero, wet, a, nullptr, 1.0, 0.0, nullptr);
    hermite_element_residual<double>(el, ld, qp, zero, nowet, b, nullptr, 1.0, 0.0, nullptr);
    hermite_element_residual<double>(el, ld, qm, zero, wet, c, nullptr, 1.0, 0.0, nullptr);
    hermite_element_residual<double>(el, ld, qm, zero, nowet, d, nullptr, 1.0, 0.0, nullptr);
    const Vec<double, 12> col = ((b - a) - (d - c)) / (2 * h);
    worst = std::max(worst, (col - Kwet.col(j)).cwiseAbs().maxCoeff());
  }
  CHECK(worst <= 1e-5 * Kwet.cwiseAbs().maxCoeff());
}

TEST_CASE("Hermite element residual: at rest without drag it is the internal force less the weight (the statics' and "
          "the recovery's element)",
          "[line][element_residual]") {
  const auto el = er_hermite(40.0);
  const ElementLoads<double> ld{150.0, 0.0, er_coeffs()};
  Vec<double, 12> q0 = er_hermite_state();
  q0(2) -= 10;
  q0(8) -= 10;  // submerged
  ElementSea<double> rest;
  rest.drag = false;
  rest.surface_z = 0;
  Vec<double, 12> f, fi, fw;
  HermiteBlockSum<double> R;
  R.set_zero();
  const bool wet = hermite_element_residual<double>(el, ld, q0, Vec<double, 12>::Zero().eval(), rest, f, &R, 1.0, 0.0,
                                                    nullptr);
  CHECK_FALSE(wet);
  Mat<double, 12> K, J = Mat<double, 12>::Zero();
  el.internal_force<double>(q0, fi, &K);
  hermite_weight_load<double>(150.0, 4.0, fw);
  R.add_to<LayoutRM>(J);
  CHECK((f - (fi - fw)).cwiseAbs().maxCoeff() <= 1e-12 * fi.cwiseAbs().maxCoeff());
  CHECK((J - K).cwiseAbs().maxCoeff() <= 1e-12 * K.cwiseAbs().maxCoeff());
}

TEST_CASE("Dynamic-size duals with only some derivatives seeded pass through every term (Eigen widens only plain "
          "duals): the strain energy with L0 seeded, the Hermite drag tangent with half the state seeded",
          "[line][element_residual]") {
  using D = Dual<double>;
  // Strain energy 1/2 EA L0 eps^2 with only L0 seeded (EA's derivative part empty).
  BasicTensionElementParams<D> p;
  p.L0 = D(6.0, VecX<double>::Unit(1, 0));
  p.EA = D(2e4);
  p.BA = D(0.0);
  p.rho_A = D(14.0);
  const BasicTensionElement<D> el(p, "dual element");
  const Vec<D, 6> q = er_state().cast<D>();
  const D U = el.energy<D>(q, 0.0);
  auto energy_at = [&](double L0) {
    BasicTensionElementParams<double> pd;
    pd.L0 = L0;
    pd.EA = 2e4;
    pd.rho_A = 14.0;
    return BasicTensionElement<double>(pd, "double element").energy<double>(er_state(), 0.0);
  };
  REQUIRE(U.derivatives().size() == 1);
  CHECK(U.derivatives()(0) == Approx((energy_at(6.0 + 1e-6) - energy_at(6.0 - 1e-6)) / 2e-6).epsilon(1e-6));
  const D Ek = el.kinetic_energy<D>(er_velocity().cast<D>());
  CHECK(Ek.derivatives()(0) == Approx(14.0 / 6.0 * (er_velocity().head<3>().squaredNorm() +
                                                     er_velocity().head<3>().dot(er_velocity().tail<3>()) +
                                                     er_velocity().tail<3>().squaredNorm()))
                                   .epsilon(1e-12));
  // The Hermite residual with its drag tangent, half of the state seeded (End A's DOFs).
  const auto he = er_hermite(40.0);
  const ElementLoads<double> ld{150.0, 1025.0 * 9.81 * kPi * 0.09 * 0.09 / 4, er_coeffs()};
  Vec<D, 12> qd = er_hermite_state().cast<D>(), vd = Vec<D, 12>::Zero();
  for (int k = 0; k < 6; ++k) qd(k).derivatives() = VecX<double>::Unit(6, k);
  ElementSea<D> sea = er_sea<D>(0.0);
  sea.wetting = false;
  HermiteBlockSum<D> R;
  R.set_zero();
  Vec<D, 12> f;
  hermite_element_residual<D>(he, ld, qd, vd, sea, f, &R, 1.0, 0.0, nullptr);
  Vec<double, 12> fv;
  HermiteBlockSum<double> Rv;
  Rv.set_zero();
  ElementSea<double> seav = er_sea<double>(0.0);
  seav.wetting = false;
  hermite_element_residual<double>(he, ld, er_hermite_state(), Vec<double, 12>::Zero().eval(), seav, fv, &Rv, 1.0, 0.0,
                                   nullptr);
  Mat<double, 12> Jv = Mat<double, 12>::Zero();
  Rv.add_to<LayoutRM>(Jv);
  for (int i = 0; i < 12; ++i) {
    CHECK(f(i).value() == fv(i));
    for (int k = 0; k < 6; ++k) {  // d f_i / d q_k from the duals = the closed-form tangent at wq = 1 (v = 0)
      const double dual = f(i).derivatives().size() ? f(i).derivatives()(k) : 0.0;
      CHECK(dual == Approx(Jv(i, k)).margin(1e-9 * Jv.cwiseAbs().maxCoeff()));
    }
  }
}

TEST_CASE("Hermite element residual: a dual at the surface with the wetting on is refused by name (the exact-crossing "
          "kernel is double: its derivative would be missing)",
          "[line][element_residual]") {
  using D = Dual<double>;
  const auto he = er_hermite(40.0);
  const ElementLoads<double> ld{150.0, 1025.0 * 9.81 * kPi * 0.09 * 0.09 / 4, er_coeffs()};
  Vec<D, 12> qd = er_hermite_state().cast<D>();  // End B 1.2 m above the surface
  for (int k = 0; k < 12; ++k) qd(k).derivatives() = VecX<double>::Unit(12, k);
  ElementSea<D> sea = er_sea<D>(0.0);
  Vec<D, 12> f;
  CHECK_THROWS_AS(hermite_element_residual<D>(he, ld, qd, Vec<D, 12>::Zero().eval(), sea, f, nullptr, 1.0, 0.0, nullptr),
                  NotImplementedError);
  sea.wetting = false;  // without it the dual evaluation runs
  CHECK_NOTHROW(hermite_element_residual<D>(he, ld, qd, Vec<D, 12>::Zero().eval(), sea, f, nullptr, 1.0, 0.0, nullptr));
}
