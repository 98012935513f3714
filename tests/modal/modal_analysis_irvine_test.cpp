// Modal analysis of a shallow sagging cable against Irvine & Caughey (1974), "The linear
// theory of free vibrations of a suspended cable", Proc. R. Soc. Lond. A 341: the
// out-of-plane modes and the antisymmetric in-plane modes follow the taut string with the
// horizontal tension H, omega = (beta / L) sqrt(H / m) with beta = n pi and 2 n pi; the
// symmetric in-plane modes satisfy tan(beta/2) = beta/2 - (4 / lambda^2)(beta/2)^3 with
// lambda^2 = (w L / H)^2 L / (H L_e / EA) (EQUATIONS.md 11), across lambda^2 = 1 ... 100 and
// on both sides of the crossover lambda^2 = 4 pi^2, where the first symmetric mode passes the
// first antisymmetric one. Equilibria from TensionStatics (EI = 0).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "cabledyn/statics.hpp"
#include "modal_fixtures.hpp"

using namespace cabledyn;
using namespace modal_fixtures;

namespace {

// k-th root (k = 1, 2, ...) of tan(b/2) = b/2 - (4/lambda2)(b/2)^3 in ((2k - 1) pi, (2k + 1) pi),
// as sin x - cos x (x - 4/lambda2 x^3) = 0, x = b/2, by scanning and bisection (long double).
double irvine_root(double lambda2, int k) {
  auto f = [&](long double b) {
    const long double x = b / 2;
    return std::sin(x) - std::cos(x) * (x - 4 / (long double)lambda2 * x * x * x);
  };
  const long double lo = (2 * k - 1) * kPiLD, hi = (2 * k + 1) * kPiLD;
  const int steps = 4000;
  long double a = lo + 1e-12L, fa = f(a);
  for (int i = 1; i <= steps; ++i) {
    long double b = lo + (hi - lo) * i / steps - (i == steps ? 1e-12L : 0), fb = f(b);
    if ((fa <= 0) != (fb <= 0)) {
      for (int it = 0; it < 200; ++it) {
        const long double m = 0.5L * (a + b), fm = f(m);
        if ((fa <= 0) != (fm <= 0)) b = m;
        else {
          a = m;
          fa = fm;
        }
      }
      return static_cast<double>(0.5L * (a + b));
    }
    a = b;
    fa = fb;
  }
  return std::nan("");
}

}  // namespace

TEST_CASE("Modal: shallow sagging cable follows Irvine & Caughey", "[modal][irvine]") {
  const double L = 100, sag = L / 200;  // span, sag d (d/L = 1/200: shallow)
  const int N = 200;
  LineType t = type(1, 0, 5.0, 0.02);
  const Environment env;
  const double w = t.submerged_weight(env);
  const double H0 = w * L * L / (8 * sag);
  std::vector<std::pair<double, double>> crossover;  // (lambda^2, beta_sym1 - beta_anti1)
  for (double target : {1.0, 10.0, 4 * kPi * kPi * 0.95, 4 * kPi * kPi * 1.05, 100.0}) {
    // EA for the target lambda^2, the unstretched length for the target sag; the test then
    // uses the lambda^2 and H of the equilibrium actually found.
    const double Le0 = L * (1 + 8 * std::pow(sag / L, 2));
    t.EA = target * H0 * Le0 / (std::pow(w * L / H0, 2) * L);
    const double L0 = L * (1 + 8.0 / 3 * std::pow(sag / L, 2)) / (1 + H0 / t.EA);
    const Line line("cable", {{t, L0, N}}, at(Vec3<double>(0, 0, -50)), at(Vec3<double>(L, 0, -50)), env);
    const StaticProblem prob;
    TensionStatics statics(line, prob);
    const StaticResult st = statics.solve();
    const double H = std::fabs(st.end_force[0](0));
    double S = 0, Le = 0;
    for (std::size_t e = 0; e < line.n_elements(); ++e) {
      const Vec3<double> c = line.r(st.q, e + 1) - line.r(st.q, e);
      S += c.norm();
      Le += std::pow(c.norm(), 3) / (c(0) * c(0));  // integral of (ds/dx)^3 dx
    }
    const double lambda2 = std::pow(w * L / H, 2) * L * t.EA / (H * Le);
    const double m = t.rho_A * L0 / S;  // mass per stretched metre
    const double w0 = std::sqrt(H / m) / L;
    ModalOptions opt;
    opt.n_modes = 8;
    const ModalResult<double> r = modal_analysis(line, prob, st, opt);
    int out = 0, anti = 0, sym = 0;
    double beta_sym1 = 0, beta_anti1 = 0;
    for (Index j = 0; j < 8; ++j) {
      const double beta = std::sqrt(r.omega2(j)) / w0;
      INFO("lambda^2 " << lambda2 << " mode " << j + 1 << " beta/pi " << beta / kPi);
      if (share(r, j, Vec3<double>(0, 1, 0)) > 0.999) {
        ++out;
        CHECK(beta == Approx(out * kPi).epsilon(3e-4));
        continue;
      }
      REQUIRE(share(r, j, Vec3<double>(0, 1, 0)) < 1e-6);  // in-plane
      // Symmetric about mid-span: z(i) = z(N - i); antisymmetric: z(i) = -z(N - i).
      double s = 0, a = 0;
      for (Index i = 0; i <= N; ++i) {
        s += std::pow(r.translation(j, i)(2) - r.translation(j, N - i)(2), 2);
        a += std::pow(r.translation(j, i)(2) + r.translation(j, N - i)(2), 2);
      }
      if (s < a) {
        ++sym;
        CHECK(beta == Approx(irvine_root(lambda2, sym)).epsilon(3e-4));
        if (sym == 1) beta_sym1 = beta;
      } else {
        ++anti;
        CHECK(beta == Approx(2 * anti * kPi).epsilon(3e-4));
        if (anti == 1) beta_anti1 = beta;
      }
    }
    CHECK(out >= 3);
    CHECK(sym >= 1);
    CHECK(anti >= 1);
    CHECK(lambda2 == Approx(target).epsilon(0.01));
    crossover.emplace_back(lambda2, beta_sym1 - beta_anti1);
  }
  // The crossover at lambda^2 = 4 pi^2: below it the first symmetric in-plane mode is the
  // lower one, above it the higher.
  for (const auto& [l2, diff] : crossover) {
    INFO("lambda^2 " << l2 << " beta_sym1 - beta_anti1 " << diff);
    CHECK((l2 < 4 * kPi * kPi) == (diff < 0));
  }
}
