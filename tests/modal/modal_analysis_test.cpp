// Modal analysis against closed forms: the taut string f_n = n/(2L) sqrt(T/m) (EI = 0 and
// Hermite with a tiny EI, observed orders 2 and 6), the Morison added mass, the seabed
// contact stiffness, pinned-pinned and clamped-clamped Euler-Bernoulli beams (observed
// order 4), shape scaling, an unstable state and bad input.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "modal_fixtures.hpp"

using namespace cabledyn;
using namespace modal_fixtures;

namespace {

// Largest relative frequency error of the first `pairs` transverse string modes, each twice
// (the two transverse directions) in the 2 pairs lowest modes.
template <class T>
double string_error(const ModalResult<T>& r, double f1, int pairs) {
  double err = 0;
  for (Index j = 0; j < 2 * pairs; ++j) {
    const double f = f1 * double(j / 2 + 1);
    err = std::max(err, std::fabs(double(r.frequency(j)) / f - 1));
  }
  return err;
}

// omega^2 of the discrete string of N linear elements of stretched length h, consistent
// mass m h per element and nodal springs k_node: the eigenvectors are sin(n pi i / N) and
// omega^2 = (2 (T / h)(1 - cos t) + k_node) / (m h (2 + cos t) / 3), t = n pi / N.
double discrete_string(double T, double m, double h, int N, int n, double k_node = 0) {
  const double t = n * kPi / N;
  return (2 * T / h * 2 * std::pow(std::sin(t / 2), 2) + k_node) / (m * h * (2 + std::cos(t)) / 3);
}

// Roots x_n of cos x cosh x = 1 (clamped-clamped beam, beta_n L), n = 1, 2, ..., by
// bisection in long double on ((n + 1/2) pi - 0.1, (n + 1/2) pi + 0.1).
double clamped_root(int n) {
  long double lo = (n + 0.5L) * kPiLD - 0.1L, hi = (n + 0.5L) * kPiLD + 0.1L;
  auto f = [](long double x) { return std::cos(x) * std::cosh(x) - 1; };
  const long double flo = f(lo);
  for (int i = 0; i < 200; ++i) {
    const long double mid = 0.5L * (lo + hi);
    if ((f(mid) > 0) == (flo > 0)) lo = mid;
    else hi = mid;
  }
  return static_cast<double>(0.5L * (lo + hi));
}

}  // namespace

TEMPLATE_TEST_CASE("Modal: taut EI = 0 string, f_n = n/(2L) sqrt(T/m), second order", "[modal][string]", double,
                   long double) {
  using T = TestType;
  const double L = 100, L0 = 99.9, EA = 1e7, rho_A = 10;
  const double tension = EA * (L / L0 - 1), m = rho_A * L0 / L;  // mass per stretched metre
  const double f1 = 1 / (2 * L) * std::sqrt(tension / m);
  // Inclined chord: the modes do not see the frame.
  const Vec3<double> a(0, 0, -60), dir = Vec3<double>(2, 1, 2) / 3;
  std::vector<double> err;
  for (int N : {20, 40, 80}) {
    const Line line("string", {{type(EA, 0, rho_A), L0, N}}, at(a), at(a + L * dir));
    ModalOptions opt;
    opt.n_modes = 20;
    const ModalResult<T> r = modal_analysis<T>(line, StaticProblem{}, straight_state(line), opt);
    err.push_back(string_error(r, f1, 10));
    // Consistent mass: the frequencies lie above the exact ones.
    for (Index j = 0; j < 20; ++j) CHECK(double(r.frequency(j)) > f1 * double(j / 2 + 1));
    // Each mode is transverse, its pair partner orthogonal to it.
    for (Index j = 0; j < 20; ++j) CHECK(share(r, j, dir) < 1e-20);
    CHECK(r.period(0) == Approx(1 / r.frequency(0)));
    CHECK(r.shapes.rows() == static_cast<Index>(line.dofs()));
  }
  // Observed order 2.00 (f error (n pi h)^2 / 24 of the consistent-mass string).
  INFO("errors " << err[0] << " " << err[1] << " " << err[2]);
  CHECK(order(err[0], err[1]) == Approx(2.0).margin(0.02));
  CHECK(order(err[1], err[2]) == Approx(2.0).margin(0.01));
  CHECK(err[2] < 7e-3);
}

TEST_CASE("Modal: taut Hermite string with a tiny EI converges at sixth order", "[modal][string]") {
  const double L = 100, L0 = 99.9, EA = 1e7, rho_A = 10, EI = 1e-6;
  const double tension = EA * (L / L0 - 1), m = rho_A * L0 / L;
  const double f1 = 1 / (2 * L) * std::sqrt(tension / m);  // bending adds (n pi/L)^2 EI/T < 1e-10
  std::vector<double> err;
  for (int N : {10, 20, 40}) {
    const Line line("cable", {{type(EA, EI, rho_A), L0, N}}, at(Vec3<double>(0, 0, -50)),
                    at(Vec3<double>(L, 0, -50)));
    ModalOptions opt;
    opt.n_modes = 20;
    const ModalResult<double> r = modal_analysis(line, StaticProblem{}, straight_state(line), opt);
    err.push_back(string_error(r, f1, 10));
  }
  // Observed orders 5.7 and 5.4 on these meshes (6 asymptotically: cubic Hermite on a
  // second-order operator); 3e-6 at 40 elements for the tenth mode.
  INFO("errors " << err[0] << " " << err[1] << " " << err[2]);
  CHECK(order(err[0], err[1]) > 5.2);
  CHECK(order(err[1], err[2]) > 5.2);
  CHECK(err[2] < 4e-6);
}

TEST_CASE("Modal: the Morison added mass loads the transverse modes", "[modal][added mass]") {
  const double L = 60, L0 = 59.95, EA = 2e7, rho_A = 12, d = 0.2, Can = 1.0, Cat = 0.5;
  const Line line("string", {{type(EA, 0, rho_A, d, Can, Cat), L0, 60}}, at(Vec3<double>(0, 0, -50)),
                  at(Vec3<double>(L, 0, -50)));
  const double tension = EA * (L / L0 - 1);
  const double ma = Environment{}.rho_w * kPi * d * d / 4 * Can;
  ModalOptions opt;
  opt.n_modes = 6;
  const ModalResult<double> wet = modal_analysis(line, StaticProblem{}, straight_state(line), opt);
  opt.added_mass = false;
  const ModalResult<double> dry = modal_analysis(line, StaticProblem{}, straight_state(line), opt);
  for (Index j = 0; j < 6; ++j) {
    const int n = int(j / 2) + 1;
    // Per stretched metre: rho_A L0 / L structural, Can rho A L0 / L added (both per L0); the
    // continuum string within the mesh error (n pi h / L)^2 / 24, the discrete one exactly.
    const double mw = (rho_A + ma) * L0 / L, md = rho_A * L0 / L;
    CHECK(wet.frequency(j) == Approx(n / (2 * L) * std::sqrt(tension / mw)).epsilon(1.1e-3));
    // (to the 1e-11 of the tension after the rounding of the element lengths at strain 8e-4)
    CHECK(wet.omega2(j) == Approx(discrete_string(tension, mw, L / 60, 60, n)).epsilon(1e-10));
    CHECK(dry.omega2(j) == Approx(discrete_string(tension, md, L / 60, 60, n)).epsilon(1e-10));
    CHECK(wet.frequency(j) / dry.frequency(j) == Approx(std::sqrt(rho_A / (rho_A + ma))).epsilon(1e-12));
  }
}

TEST_CASE("Modal: seabed contact stiffens the vertical modes only", "[modal][seabed]") {
  // A taut EI = 0 string resting 5 cm into a flat seabed: the vertical modes carry the nodal
  // contact stiffness kBot d l_trib, omega^2 ~ ((n pi / L)^2 T + kBot d) / m; the horizontal
  // ones are the plain string. Both are checked against the discrete string, to the 1e-11
  // that the tension T = EA (l / L0 - 1) keeps after the rounding of l at strain 1e-3.
  const double L = 50, L0 = 49.95, EA = 1e7, rho_A = 20, d = 0.1, kBot = 2e3, pen = 0.05, zb = -100;
  const int N = 100;
  const Line line("chain", {{type(EA, 0, rho_A, d), L0, N}}, at(Vec3<double>(0, 0, zb - pen)),
                  at(Vec3<double>(L, 0, zb - pen)));
  StaticProblem prob;
  prob.seabed_z = zb;
  prob.seabed.kBot = kBot;
  ModalOptions opt;
  opt.n_modes = 8;
  const ModalResult<double> r = modal_analysis(line, prob, straight_state(line), opt);
  const double tension = EA * (L / L0 - 1), m = rho_A * L0 / L, h = L / N;
  const double k_node = kBot * d * L0 / N;
  int vertical = 0, horizontal = 0;
  for (Index j = 0; j < 8; ++j) {
    const double w2 = double(r.omega2(j));
    if (share(r, j, Vec3<double>(0, 0, 1)) > 1 - 1e-12) {
      ++vertical;
      CHECK(w2 == Approx(discrete_string(tension, m, h, N, vertical, k_node)).epsilon(1e-10));
      // The continuum, within the mesh error of the modes computed here.
      CHECK(w2 == Approx((std::pow(vertical * kPi / L, 2) * tension + kBot * d * L0 / L) / m).epsilon(3e-3));
    } else {
      REQUIRE(share(r, j, Vec3<double>(0, 1, 0)) > 1 - 1e-12);
      ++horizontal;
      CHECK(w2 == Approx(discrete_string(tension, m, h, N, horizontal)).epsilon(1e-10));
    }
  }
  CHECK(vertical >= 2);  // kBot d / m = 10 /s^2 lifts them above the horizontal ones
  CHECK(horizontal >= 4);
}

TEST_CASE("Modal: pinned-pinned and clamped-clamped Euler-Bernoulli beams, fourth order", "[modal][beam]") {
  // Hermite, no tension (straight at zero strain), EA large: the lowest modes are bending,
  // omega_n = (beta_n L)^2 sqrt(EI / (m L^4)), pinned beta_n L = n pi, clamped the roots of
  // cos x cosh x = 1 (4.7300, 7.8532, ...; Blevins, Formulas for Natural Frequency and Mode
  // Shape, table 8-1). Clamped ends: Rigid, the tangent held on the beam's axis.
  const double L = 10, EI = 1e4, EA = 1e9, rho_A = 50;
  for (bool clamped : {false, true}) {
    std::vector<double> err;
    for (int N : {8, 16, 32}) {
      LineEnd a = at(Vec3<double>(0, 0, -40)), b = at(Vec3<double>(0, L, -40));  // along y
      if (clamped) {
        a.rotation = b.rotation = EndRotation::rigid;
        a.direction = b.direction = Vec3<double>(0, 1, 0);
      }
      const Line line("beam", {{type(EA, EI, rho_A), L, N}}, a, b);
      ModalOptions opt;
      opt.n_modes = 8;
      const ModalResult<double> r = modal_analysis(line, StaticProblem{}, straight_state(line), opt);
      double e = 0;
      for (Index j = 0; j < 8; ++j) {
        const int n = int(j / 2) + 1;
        const double bl = clamped ? clamped_root(n) : n * kPi;
        const double w = bl * bl * std::sqrt(EI / (rho_A * std::pow(L, 4)));
        e = std::max(e, std::fabs(std::sqrt(double(r.omega2(j))) / w - 1));
        CHECK(share(r, j, Vec3<double>(0, 1, 0)) < 1e-20);  // bending: transverse
      }
      err.push_back(e);
    }
    INFO((clamped ? "clamped" : "pinned") << " errors " << err[0] << " " << err[1] << " " << err[2]);
    // Observed orders: pinned 3.93 and 3.98, clamped 3.91 and 3.98 (4: cubic Hermite on a
    // fourth-order operator).
    CHECK(order(err[0], err[1]) > 3.85);
    CHECK(order(err[1], err[2]) > 3.95);
    CHECK(err[2] < 3e-5);
  }
}

TEST_CASE("Modal: mode shapes scaled to a unit largest nodal displacement", "[modal][shapes]") {
  const double L = 30;
  const Line line("string", {{type(1e7, 0), 29.97, 30}}, at(Vec3<double>(0, 0, -20)), at(Vec3<double>(L, 0, -20)));
  ModalOptions opt;
  opt.n_modes = 4;
  const ModalResult<double> r = modal_analysis(line, StaticProblem{}, straight_state(line), opt);
  for (Index j = 0; j < 4; ++j) {
    double big = 0;
    Index at_node = 0;
    for (Index i = 0; i < r.n_nodes(); ++i)
      if (r.translation(j, i).norm() > big) {
        big = r.translation(j, i).norm();
        at_node = i;
      }
    CHECK(big == Approx(1.0).epsilon(1e-14));
    Index c = 0;
    r.translation(j, at_node).cwiseAbs().maxCoeff(&c);
    CHECK(r.translation(j, at_node)(c) > 0);                // its largest component positive
    CHECK(r.translation(j, 0).norm() == 0.0);                // held ends
    CHECK(r.translation(j, r.n_nodes() - 1).norm() == 0.0);
    // The shape is the discrete string's sine, sin(n pi x_i / L) over its largest nodal value.
    const int n = int(j / 2) + 1;
    double smax = 0;
    for (Index i = 0; i < r.n_nodes(); ++i) smax = std::max(smax, std::fabs(std::sin(n * kPi * r.positions(0, i) / L)));
    for (Index i = 0; i < r.n_nodes(); ++i) {
      const double x = r.positions(0, i);
      CHECK(std::fabs(r.translation(j, i).norm() - std::fabs(std::sin(n * kPi * x / L)) / smax) < 1e-10);
    }
    CHECK(r.arc_length(r.n_nodes() - 1) == Approx(29.97));
  }
}

TEST_CASE("Modal: an unstable state and bad input give named errors", "[modal][errors]") {
  // A pinned Hermite strut compressed beyond its Euler load pi^2 EI / L^2: omega_1^2 < 0.
  const double L = 10, EI = 1e4, EA = 1e9;
  const double L0 = L * (1 + 2 * kPi * kPi * EI / (L * L * EA));  // twice the Euler load
  const Line strut("strut", {{type(EA, EI, 50), L0, 10}}, at(Vec3<double>(0, 0, -40)), at(Vec3<double>(L, 0, -40)));
  CHECK_THROWS_AS(modal_analysis(strut, StaticProblem{}, straight_state(strut)), DomainError);
  try {
    modal_analysis(strut, StaticProblem{}, straight_state(strut));
  } catch (const DomainError& e) {
    CHECK(std::string(e.what()).find("strut modal analysis: omega^2 of mode 1") != std::string::npos);
  }
  // Below the Euler load the same strut is stable and its first frequency drops as
  // sqrt(1 - P / P_E) (the pinned beam-column).
  const double L0s = L * (1 + 0.5 * kPi * kPi * EI / (L * L * EA));
  const Line ok("strut", {{type(EA, EI, 50), L0s, 40}}, at(Vec3<double>(0, 0, -40)), at(Vec3<double>(L, 0, -40)));
  ModalOptions one;
  one.n_modes = 1;
  const auto r = modal_analysis(ok, StaticProblem{}, straight_state(ok), one);
  const double w1 = kPi * kPi * std::sqrt(EI / (50 * std::pow(L, 4)));
  CHECK(std::sqrt(r.omega2(0)) == Approx(w1 * std::sqrt(0.5)).epsilon(2e-3));
  ModalOptions bad;
  bad.n_modes = 0;
  CHECK_THROWS_WITH(modal_analysis(ok, StaticProblem{}, straight_state(ok), bad),
                    "InputError: strut modal analysis: nModes = 0 (limit: in [1, 240] (the free DOFs))");
  bad.n_modes = 241;
  CHECK_THROWS_AS(modal_analysis(ok, StaticProblem{}, straight_state(ok), bad), InputError);
}
