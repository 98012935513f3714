// Wave spectra: zeroth moments, peak positions (duals), the JONSWAP peak factor, the
// Ochi-Hubble and Torsethaugen partitions, named errors. Spec "Waves" (JONSWAP), "Other
// spectra"; EQUATIONS.md section 7.
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/core/quadrature.hpp"
#include "cabledyn/sea/spectra.hpp"

using namespace cabledyn;

namespace {

// Integral of f over [a, b] on `panels` log-spaced panels of the 6-point Gauss rule
// (long double accumulation).
template <class F>
long double integrate_log(F&& f, double a, double b, int panels = 600) {
  const auto rule = gauss_legendre<long double>(6);
  const long double la = std::log((long double)a), lb = std::log((long double)b);
  long double sum = 0;
  for (int p = 0; p < panels; ++p) {
    const long double x0 = std::exp(la + (lb - la) * p / panels), x1 = std::exp(la + (lb - la) * (p + 1) / panels);
    for (int q = 0; q < 6; ++q) {
      const long double x = x0 + (x1 - x0) * rule.xi[q];
      sum += (x1 - x0) * rule.w[q] * f(static_cast<double>(x));
    }
  }
  return sum;
}

// d ln S / d omega at omega (duals over V), times omega: zero at a maximum.
template <class V = double, class F>
V log_slope(F&& S, V w) {
  using D = Dual<V, 1>;
  const D s = S(D(w, 1, 0));
  return s.derivatives()(0) * w / s.value();
}

}  // namespace

TEST_CASE("spectra: Pierson-Moskowitz integrates to Hs^2/16 and peaks at omega_p", "[sea][spectra]") {
  for (const double Tp : {5.0, 12.0}) {
    const double Hs = 3.5, wp = 2 * kPi / Tp;
    // the omega^-5 tail beyond 1000 w_p holds a 1e-12 share; below 0.1 w_p exp(-12500)
    const long double m0 = integrate_log([&](double w) { return pierson_moskowitz(w, Hs, Tp); }, 0.1 * wp, 1000 * wp);
    CHECK(std::fabs(m0 / (Hs * Hs / 16) - 1) < 1e-11);
    CHECK(std::fabs(log_slope([&](auto w) { return pierson_moskowitz(w, Hs, Tp); }, wp)) < 1e-14);
    CHECK(pierson_moskowitz(0.0, Hs, Tp) == 0);
  }
}

TEMPLATE_TEST_CASE("spectra: the densities evaluate alike in double and long double", "[sea][spectra]",
                   double, long double) {
  using V = TestType;
  const double Hs = 5, Tp = 10;
  const V wp = V(2 * kPi / Tp);
  for (const V w : {V(0.3), wp, V(1.7)}) {
    CHECK(std::fabs(jonswap(w, Hs, Tp, 3.3) / jonswap(double(w), Hs, Tp, 3.3) - 1) < 1e-14);
    CHECK(std::fabs(ochi_hubble_partition(w, Hs, Tp, 2.0) / ochi_hubble_partition(double(w), Hs, Tp, 2.0) - 1) < 1e-13);
    CHECK(std::fabs(torsethaugen(w, Hs, Tp) / torsethaugen(double(w), Hs, Tp) - 1) < 1e-14);
  }
  // the JONSWAP maximum at omega_p in V (dual slope)
  CHECK(std::fabs(log_slope<V>([&](auto w) { return jonswap(w, Hs, Tp, 3.3); }, wp)) < 1e-13);
}

TEST_CASE("spectra: JONSWAP peaks at omega_p with the peak factor A gamma", "[sea][spectra]") {
  const double Hs = 5, Tp = 10, wp = 2 * kPi / Tp;
  // gamma = 1 is Pierson-Moskowitz
  for (const double w : {0.3, wp, 1.7}) CHECK(jonswap(w, Hs, Tp, 1.0) == pierson_moskowitz(w, Hs, Tp));
  for (const double gamma : {1.5, 3.3, 7.0}) {
    const auto S = [&](auto w) { return jonswap(w, Hs, Tp, gamma); };
    // the maximum is at omega_p: zero slope there, lower on both sides
    CHECK(std::fabs(log_slope(S, wp)) < 1e-13);
    CHECK(S(wp) > S(wp * 1.01));
    CHECK(S(wp) > S(wp * 0.99));
    CHECK(log_slope(S, 0.9 * wp) > 0);
    CHECK(log_slope(S, 1.1 * wp) < 0);
    // at omega_p the JONSWAP exponent r is 1: S_J / S_PM = (1 - 0.287 ln gamma) gamma
    CHECK(std::fabs(S(wp) / pierson_moskowitz(wp, Hs, Tp) / ((1 - 0.287 * std::log(gamma)) * gamma) - 1) < 1e-15);
    // sigma = 0.07 below, 0.09 above the peak: r at omega_p (1 -+ 0.07 or 0.09)
    CHECK(std::fabs(jonswap_r(wp * 0.93, wp) - std::exp(-0.5)) < 1e-14);
    CHECK(std::fabs(jonswap_r(wp * 1.09, wp) - std::exp(-0.5)) < 1e-14);
    // DNV's A_gamma keeps m0 within a few per cent of Hs^2/16 (the synthesis scales it exactly)
    const long double m0 = integrate_log(S, 0.1 * wp, 1000 * wp);
    CHECK(std::fabs(m0 / (Hs * Hs / 16) - 1) < 0.04);
  }
}

TEST_CASE("spectra: Ochi-Hubble partitions integrate to Hs_j^2/16 and peak at their omega_m",
          "[sea][spectra]") {
  const double Hs = 2.5, Tp = 9.0, wm = 2 * kPi / Tp;
  // lambda = 1 is Pierson-Moskowitz
  for (const double w : {0.2, wm, 1.9})
    CHECK(std::fabs(ochi_hubble_partition(w, Hs, Tp, 1.0) / pierson_moskowitz(w, Hs, Tp) - 1) < 1e-13);  // in logs
  for (const double lambda : {0.8, 1.0, 2.5, 6.0}) {
    // the omega^-(4 lambda + 1) tail beyond 1e5 w_m holds < 1e-15 of m0
    const long double m0 =
        integrate_log([&](double w) { return ochi_hubble_partition(w, Hs, Tp, lambda); }, 0.1 * wm, 1e5 * wm, 1200);
    INFO("lambda " << lambda);
    CHECK(std::fabs(m0 / (Hs * Hs / 16) - 1) < 1e-10);
    CHECK(std::fabs(log_slope([&](auto w) { return ochi_hubble_partition(w, Hs, Tp, lambda); }, wm)) < 1e-13);
  }
  const OchiHubbleParams p{3.0, 11.0, 2.0, 1.5, 6.0, 3.0};
  const long double m0 = integrate_log([&](double w) { return ochi_hubble(w, p); }, 0.05, 60.0, 1000);
  CHECK(std::fabs(m0 / ((3.0 * 3.0 + 1.5 * 1.5) / 16) - 1) < 1e-10);
}

TEST_CASE("spectra: Torsethaugen partitions follow the spec's DNV-RP-C205 formulas", "[sea][spectra]") {
  const double g = 9.80665;
  // wind dominated: Hs = 4, Tf = 6.6 * 4^(1/3) = 10.477 s > Tp = 8 s
  {
    const double Hs = 4, Tp = 8;
    const auto p = torsethaugen_partitions(Hs, Tp, g);
    const double Tf = 6.6 * std::cbrt(Hs);
    CHECK(p.wind_dominated);
    CHECK(std::fabs(p.Tf - Tf) < 1e-14);
    const double el = (Tf - Tp) / (Tf - 2 * std::sqrt(Hs));
    const double r = 0.7 + 0.3 * std::exp(-4 * el * el);
    CHECK(std::fabs(p.r - r) < 1e-15);
    CHECK(std::fabs(p.H1 * p.H1 + p.H2 * p.H2 - Hs * Hs) < 1e-13);
    CHECK(std::fabs(p.gamma1 - 35 * std::pow(2 * kPi * r * Hs / (g * Tp * Tp), 0.857)) < 1e-13);
    CHECK(p.Tp1 == Tp);
    CHECK(std::fabs(p.Tp2 - (Tf + 2)) < 1e-14);
    CHECK(p.gamma2 == 1);
  }
  // swell dominated: Tp = 15 s > Tf
  {
    const double Hs = 4, Tp = 15;
    const auto p = torsethaugen_partitions(Hs, Tp, g);
    const double Tf = 6.6 * std::cbrt(Hs);
    CHECK_FALSE(p.wind_dominated);
    const double eu = (Tp - Tf) / (25 - Tf);
    const double r = 0.6 + 0.4 * std::exp(-(eu / 0.3) * (eu / 0.3));
    CHECK(std::fabs(p.r - r) < 1e-15);
    CHECK(std::fabs(p.gamma1 - std::max(1.0, 35 * std::pow(2 * kPi * Hs / (g * Tf * Tf), 0.857) * (1 + 6 * eu))) < 1e-13);
    CHECK(std::fabs(p.Tp2 - 6.6 * std::cbrt(std::sqrt(1 - r * r) * Hs)) < 1e-14);
  }
  // clamping: a very long swell has eps_u = 1
  CHECK(std::fabs(torsethaugen_partitions(2.0, 40.0, g).r - (0.6 + 0.4 * std::exp(-1 / 0.09))) < 1e-15);
  // a gamma = 1 partition integrates to H^2/16 times G0 Gamma(3/4)/4 (G0 = 3.26 rounds 3.2639)
  {
    const double H = 2, Tp = 9, wp = 2 * kPi / Tp;
    const long double m0 = integrate_log([&](double w) { return torsethaugen_partition(w, H, Tp, 1.0); }, 0.1 * wp, 1e5 * wp, 1200);
    CHECK(std::fabs(m0 / (H * H / 16 * 3.26 * std::tgamma(0.75) / 4) - 1) < 1e-10);
    // each partition peaks at its own Tp
    for (const double gamma : {1.0, 3.0})
      CHECK(std::fabs(log_slope([&](auto w) { return torsethaugen_partition(w, H, Tp, gamma); }, wp)) < 1e-13);
  }
  // the whole spectrum carries m0 ~ Hs^2/16 (G0 and A_gamma are approximations)
  const long double m0 = integrate_log([&](double w) { return torsethaugen(w, 4.0, 8.0, g); }, 0.05, 80.0, 1000);
  CHECK(std::fabs(m0 / (16.0 / 16) - 1) < 0.05);
}

TEST_CASE("spectra: bad parameters fail with a named error", "[sea][spectra][errors]") {
  CHECK_THROWS_AS(jonswap(1.0, 3.0, 10.0, 0.9), InputError);
  CHECK_THROWS_AS(jonswap(1.0, 0.0, 10.0, 3.3), InputError);
  CHECK_THROWS_AS(jonswap(1.0, 3.0, -1.0, 3.3), InputError);
  CHECK_THROWS_AS(pierson_moskowitz(1.0, -3.0, 10.0), InputError);
  CHECK_THROWS_AS(torsethaugen_partitions(0.0, 8.0), InputError);
  CHECK_THROWS_AS(ochi_hubble(1.0, OchiHubbleParams{0, 10, 1, 0, 6, 1}), InputError);
  CHECK_THROWS_AS(ochi_hubble(1.0, OchiHubbleParams{2, 10, 0, 1, 6, 1}), InputError);
  try {
    jonswap(1.0, 3.0, 10.0, 0.9);
  } catch (const InputError& e) {
    CHECK(e.quantity() == "gamma");
    CHECK(e.limit() == ">= 1");
  }
}
