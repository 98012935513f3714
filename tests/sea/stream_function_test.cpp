// Stream-function (Fourier approximation) waves: Fenton's published solution, the breaking
// limit, the Airy limit at small H (observed orders), the surface conditions at the
// collocation points, the Jacobian of the Newton system, the kinematics by duals, convergence
// in N, named errors. Spec "Waves" (regular nonlinear waves).
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/core/quadrature.hpp"
#include "cabledyn/sea/stream_function.hpp"
#include "support/constants.hpp"

using namespace cabledyn;

namespace {
using cabledyn::test_support::g;
constexpr double h = 10;
const double sgh = std::sqrt(g * h);
double Tstar(double Td) { return Td * std::sqrt(h / g); }  // period from T sqrt(g/h)
}  // namespace

TEST_CASE("stream: Fenton's published test wave H/d = 0.3, T (g/d)^1/2 = 10", "[sea][stream]") {
  // Reference: J. D. Fenton, program FOURIER (Rienecker & Fenton 1981; Fenton 1988, Computers &
  // Geosciences 14(3)), http://johndfenton.com/Steady-waves/Fourier.html: the "Test wave"
  // data distributed with it (H/d = 0.3, period T (g/d)^1/2 = 10, no Eulerian current, 20
  // Fourier components), whose output Solution.res and Flowfield.res are published with the
  // program (as stored in github.com/jasper-aurora/Fourier): wave length 9.6897 d, speed
  // 0.9690 (g d)^1/2, volume flux Q = 0.9579 (g d^3)^1/2, Bernoulli constant R = 1.4730 g d
  // (surface measured from the bed), B_1..3 = 1.1499699e-01, 1.7651940e-02, 2.4828287e-03 and
  // E_1 = 8.8912241e-02 (in g and k), and in the flow field under the crest the surface at
  // y = 1.1961 d, the crest velocity 0.2247 and the bed velocity 0.1424 (g d)^1/2; at
  // X = 1.2112 d, y = 0.5423 d: u = 0.0848, v = 0.0491 (g d)^1/2, du/dt = 0.0962 g,
  // dv/dt = -0.0134 g; "43% of the maximum of H/d = 0.706 for this length".
  const StreamWave w(0.3 * h, Tstar(10), 0.0, h, g);
  CHECK(w.order() == 20);
  const double half = 5e-5;  // half a unit in the last printed digit
  CHECK(std::fabs(w.wavelength() / h - 9.6897) <= half);
  CHECK(std::fabs(w.celerity() / sgh - 0.9690) <= half);
  CHECK(std::fabs(w.Q() / std::sqrt(g * h * h * h) - 0.9579) <= half);
  CHECK(std::fabs(w.R() / (g * h) + 1 - 1.4730) <= half);  // ours is about the mean level
  const double k = w.k(), sk = std::sqrt(g / (k * k * k));
  CHECK(std::fabs(w.B()[0] / sk - 1.1499699e-01) <= 5e-9);
  CHECK(std::fabs(w.B()[1] / sk - 1.7651940e-02) <= 5e-10);
  CHECK(std::fabs(w.B()[2] / sk - 2.4828287e-03) <= 5e-11);
  // E_1 k: the first cosine coefficient of the surface, the DCT-I of the nodal elevations
  double E1 = 0;
  for (int m = 0; m <= 20; ++m) E1 += ((m == 0 || m == 20) ? 0.5 : 1.0) * w.eta_nodes()[m] * std::cos(kPi * m / 20);
  E1 *= 2.0 / 20;
  CHECK(std::fabs(E1 * k - 8.8912241e-02) <= 5e-9);
  const double crest = w.elevation(0.0, 0.0, 0.0);
  CHECK(std::fabs(crest / h + 1 - 1.1961) <= half);
  const auto kc = w.kinematics<double>(Eigen::Vector3d(0, 0, crest * (1 - 1e-12)), 0.0);
  CHECK(std::fabs(kc.u(0) / sgh - 0.2247) <= half);
  CHECK(std::fabs(w.kinematics<double>(Eigen::Vector3d(0, 0, -h), 0.0).u(0) / sgh - 0.1424) <= half);
  const auto kx = w.kinematics<double>(Eigen::Vector3d(1.2112 * h, 0, (0.5423 - 1) * h), 0.0);
  CHECK(std::fabs(kx.u(0) / sgh - 0.0848) <= half + 1e-5);  // X, y rounded to 4 digits
  CHECK(std::fabs(kx.u(2) / sgh - 0.0491) <= half + 1e-5);
  CHECK(std::fabs(kx.a(0) / g - 0.0962) <= half + 1e-5);
  CHECK(std::fabs(kx.a(2) / g + 0.0134) <= half + 1e-5);
  CHECK(std::fabs(w.breaking_height() / h - 0.706) <= 5e-4);
}

TEST_CASE("stream: the breaking limit is Fenton's fit", "[sea][stream]") {
  // (L/d, H_max/d) as FOURIER prints them ("the maximum of H/d ... for this length") in
  // published solutions: jasper-aurora/Fourier (9.69, 0.706), erdc/proteus nonlinearWaves
  // (9.76, 0.707), dbarre5/tutorials (2.32, 0.323), whtsao/AP_OMAE2022 (2.09, 0.293),
  // erdc/air-water-vv 2D_OWC (1.31, 0.185). L/d is printed to 2 decimals.
  const double rows[][2] = {{9.69, 0.706}, {9.76, 0.707}, {2.32, 0.323}, {2.09, 0.293}, {1.31, 0.185}};
  for (const auto& r : rows) CHECK(std::fabs(stream_max_height(r[0]) - r[1]) < 1.5e-3);
  // deep water: H/L -> 0.141063 (Williams 1981); shallow: the solitary wave's 0.833
  CHECK(std::fabs(stream_max_height(1e-4) / 1e-4 - 0.141063) < 1e-4);
  CHECK(std::fabs(stream_max_height(1e6) - 0.0077829 / 0.0093407) < 1e-5);
}

TEST_CASE("stream: at small H the wave tends to Airy", "[sea][stream]") {
  // The relative difference from linear theory is O(H/h) in intermediate depth (the second
  // harmonic) and O((H/h)^2) in deep water (no second-order velocity): observed orders
  // log2(d(H) / d(H/2)) about 1 and 2; k differs at O(H^2) (amplitude dispersion).
  for (const double Td : {10.0, 3.0}) {
    double prev_du = 0, prev_dk = 0;
    for (const double Hd : {0.004, 0.002, 0.001}) {
      const StreamWave s(Hd * h, Tstar(Td), 0.3, h, g);
      const LinearSea l = LinearSea::regular(Hd * h, Tstar(Td), 0.3, h, g, {.wheeler = false});
      const auto& c = l.components()[0];
      const double U = c.a * c.omega / std::tanh(c.k * h);
      double du = 0, de = 0, dp = 0;
      for (const double x : {0.0, 7.0, 20.0})
        for (const double z : {-10.0, -5.0, -0.6 * c.a}) {
          const auto a = s.kinematics<double>(Eigen::Vector3d(x, 0.5 * x, z), 1.0);
          const auto b = l.kinematics<double>(Eigen::Vector3d(x, 0.5 * x, z), 1.0);
          du = std::max(du, (a.u - b.u).norm() / U);
          de = std::max(de, std::fabs(a.eta - b.eta) / c.a);
          dp = std::max(dp, std::fabs(a.pd - b.pd) / (g * c.a));
        }
      const double dk = std::fabs(s.k() / c.k - 1);
      INFO("T* " << Td << " H/d " << Hd << " du " << du << " dk " << dk);
      CHECK(du < 0.01);
      CHECK(de < 0.01);
      CHECK(dp < 0.01);
      if (prev_du > 0) {
        const double order = std::log2(prev_du / du);
        CHECK(std::fabs(order - (Td == 10.0 ? 1.0 : 2.0)) < 0.15);
        CHECK(std::fabs(std::log2(prev_dk / dk) - 2.0) < 0.15);
      }
      prev_du = du;
      prev_dk = dk;
    }
  }
}

TEST_CASE("stream: the surface conditions hold at the collocation points", "[sea][stream]") {
  for (const double Hd : {0.1, 0.45}) {
    const StreamWave w(Hd * h, Tstar(7), 0.0, h, g);
    const int N = w.order();
    // the dimensionless residual of the 2N + 5 equations is within the solver tolerance
    const Eigen::VectorXd F = detail::stream_residual(w.solution(), N, Hd, 7.0);
    CHECK(F.cwiseAbs().maxCoeff() <= 1e-12);
    CHECK(w.residual() <= 1e-12);
    const auto rule = gauss_legendre<double>(6);
    for (int m = 0; m <= N; ++m) {
      const double X = kPi * m / (N * w.k());
      const double eta = w.eta_nodes()[static_cast<std::size_t>(m)];
      CHECK(std::fabs(w.elevation(X, 0.0, 0.0) - eta) <= 1e-13 * h);  // the interpolant
      // Bernoulli: p = p_dyn - rho g z vanishes on the surface
      const auto ks = w.kinematics<double>(Eigen::Vector3d(X, 0, eta - 1e-12 * h), 0.0);
      CHECK(std::fabs(ks.pd - g * eta) <= 1e-11 * g * h);
      // kinematic: psi = -Q on the surface, i.e. the flux under it in the moving frame,
      // int_{-h}^{eta} (u - c) dz = psi(surface) - psi(bed) = -Q (8 six-point panels)
      double flux = 0;
      for (int p = 0; p < 8; ++p) {
        const double z0 = -h + (eta + h) * p / 8, z1 = -h + (eta + h) * (p + 1) / 8;
        for (int q = 0; q < 6; ++q) {
          const double z = z0 + (z1 - z0) * rule.xi[q];
          flux += (z1 - z0) * rule.w[q] * (w.kinematics<double>(Eigen::Vector3d(X, 0, z), 0.0).u(0) - w.celerity());
        }
      }
      CHECK(std::fabs(flux + w.Q()) <= 1e-11 * w.Q());
    }
  }
}

TEST_CASE("stream: the closed-form Newton Jacobian agrees with duals and differences",
          "[sea][stream][autodiff]") {
  const int N = 8;
  const double Hd = 0.3, Td = 8.0;
  StreamWaveOptions o;
  o.order = N;
  const StreamWave w(Hd * h, Tstar(Td), 0.0, h, g, o);
  auto F = [&](const auto& z) { return detail::stream_residual(z, N, Hd, Td); };
  for (const Eigen::VectorXd& z : {w.solution(), detail::stream_linear_guess(N, Hd, Td)}) {
    const auto chk = check_jacobian(F, z, detail::stream_jacobian(z, N, Td));
    INFO(chk.log());
    CHECK(chk.ok(1e-13, 1e-8));
  }
}

TEMPLATE_TEST_CASE("stream: accelerations are time derivatives, the field is divergence free (duals)",
                   "[sea][stream][autodiff]", double, long double) {
  using V = TestType;
  const StreamWave w(0.4 * h, Tstar(9), 0.6, h, g);
  const Ramp ramp{30.0};
  using D1 = Dual<V, 1>;
  using D3 = Dual<V, 3>;
  for (const V t : {V(3), V(12), V(45)}) {
    for (const V z : {V(-9), V(-4), V(-1)}) {
      const Vec3<V> x(V(5), V(-3), z);
      const auto k = w.kinematics(x, t, ramp);
      REQUIRE(k.wet);
      const auto kt = w.kinematics(Vec3<D1>(D1(V(5)), D1(V(-3)), D1(z)), D1(t, 1, 0), ramp);
      const V scale = k.a.norm() + k.u.norm();
      for (int i = 0; i < 3; ++i) {
        CHECK(kt.u(i).value() == k.u(i));
        CHECK(std::fabs(kt.u(i).derivatives()(0) - k.a(i)) <= 1e-13 * scale);
      }
      const auto kx = w.kinematics(Vec3<D3>(D3(V(5), 3, 0), D3(V(-3), 3, 1), D3(z, 3, 2)), D3(t), ramp);
      const V div = kx.u(0).derivatives()(0) + kx.u(1).derivatives()(1) + kx.u(2).derivatives()(2);
      CHECK(std::fabs(div) <= 1e-13 * w.k() * scale);
      // irrotational in the vertical plane of travel: d u_h / dz = d u_z / dx'
      const V cb = std::cos(V(0.6)), sb = std::sin(V(0.6));
      const V duh_dz = cb * kx.u(0).derivatives()(2) + sb * kx.u(1).derivatives()(2);
      const V duz_dxp = cb * kx.u(2).derivatives()(0) + sb * kx.u(2).derivatives()(1);
      CHECK(std::fabs(duh_dz - duz_dxp) <= 1e-13 * w.k() * scale);
      // long double and double evaluations agree to double precision
      const auto kd = w.kinematics<double>(x.template cast<double>(), static_cast<double>(t), ramp);
      CHECK((k.u.template cast<double>() - kd.u).norm() <= 1e-14 * static_cast<double>(scale));
    }
  }
  // above the surface: still water; before the ramp: nothing
  const V crest = w.elevation(V(0), V(0), V(0));
  CHECK_FALSE(w.kinematics(Vec3<V>(V(0), V(0), crest + V(0.01)), V(0)).wet);
  CHECK(w.kinematics(Vec3<V>(V(0), V(0), crest + V(0.01)), V(0)).u.norm() == 0);
  CHECK(w.kinematics(Vec3<V>(V(0), V(0), V(-3)), V(-1), ramp).u.norm() == 0);
}

TEST_CASE("stream: the celerity converges with StreamOrder", "[sea][stream]") {
  double ref = 0;
  {
    StreamWaveOptions o;
    o.order = 32;
    ref = StreamWave(0.3 * h, Tstar(10), 0.0, h, g, o).celerity();
  }
  double prev = 1;
  for (const int N : {6, 8, 10, 12}) {
    StreamWaveOptions o;
    o.order = N;
    const double err = std::fabs(StreamWave(0.3 * h, Tstar(10), 0.0, h, g, o).celerity() / ref - 1);
    INFO("N " << N << " error " << err);
    CHECK(err < prev);
    prev = err;
  }
  CHECK(prev < 1e-9);
  CHECK(std::fabs(StreamWave(0.3 * h, Tstar(10), 0.0, h, g).celerity() / ref - 1) < 1e-12);
}

TEST_CASE("stream: bad input and breaking waves fail with a named error", "[sea][stream][errors]") {
  CHECK_THROWS_AS(StreamWave(0.0, 8.0, 0.0, h, g), InputError);
  CHECK_THROWS_AS(StreamWave(-1.0, 8.0, 0.0, h, g), InputError);
  CHECK_THROWS_AS(StreamWave(2.0, 0.0, 0.0, h, g), InputError);
  CHECK_THROWS_AS(StreamWave(2.0, 8.0, 0.0, 0.0, g), InputError);
  CHECK_THROWS_AS(StreamWave(2.0, 8.0, 0.0, kDeepWater, g), InputError);
  StreamWaveOptions o;
  o.order = 0;
  CHECK_THROWS_AS(StreamWave(2.0, 8.0, 0.0, h, g, o), InputError);
  // beyond any steady wave, and beyond the limit of its length (T (g/d)^1/2 = 10: about 0.717)
  CHECK_THROWS_AS(StreamWave(0.9 * h, Tstar(10), 0.0, h, g), InputError);
  CHECK_THROWS_AS(StreamWave(0.72 * h, Tstar(10), 0.0, h, g), InputError);
  CHECK_THROWS_AS(StreamWave(0.78 * h, Tstar(10), 0.0, h, g), InputError);
  try {
    StreamWave(0.78 * h, Tstar(10), 0.0, h, g);
  } catch (const InputError& e) {
    CHECK(e.object() == "stream wave");
    CHECK(e.quantity() == "H / h");
  }
  // a steep wave below the limit solves
  const StreamWave steep(0.7 * h, Tstar(10), 0.0, h, g);
  CHECK(steep.height() / steep.breaking_height() > 0.95);
  CHECK(steep.residual() <= 1e-12);
}
