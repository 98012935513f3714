// cabledyn: one-sided wave spectra S(omega) [m^2 s / rad].
// Spec "Waves" (JONSWAP) and "Other spectra, spreading and multiple trains" (ISSC /
// Pierson-Moskowitz, Torsethaugen two-peak after DNV-RP-C205, Ochi-Hubble two-peak);
// EQUATIONS.md section 7. The synthesis (irregular.hpp) rescales every train so that its
// discrete m0 is exactly Hs^2 / 16, so only the shape of a density matters there; the
// densities below are also normalised to m0 ~ Hs^2 / 16 on their own.
#pragma once

#include <algorithm>
#include <cmath>

#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

namespace detail {
inline void require_spectrum(bool ok, const char* who, const char* what, double v, const char* limit) {
  if (!ok) throw InputError(who, what, v, limit);
}
}  // namespace detail

/// Pierson-Moskowitz / ISSC density [m^2 s]:
/// S = 5/16 Hs^2 omega_p^4 omega^-5 exp(-5/4 (omega_p / omega)^4), omega_p = 2 pi / Tp.
/// Integrates to Hs^2 / 16. Spec "Other spectra" (Bretschneider, Pierson & Moskowitz).
template <class T>
T pierson_moskowitz(const T& omega, double Hs, double Tp) {
  using std::exp;
  detail::require_spectrum(std::isfinite(Hs) && Hs > 0, "Pierson-Moskowitz spectrum", "Hs", Hs, "> 0");
  detail::require_spectrum(std::isfinite(Tp) && Tp > 0, "Pierson-Moskowitz spectrum", "Tp", Tp, "> 0");
  if (!(value_of(omega) > 0)) return T(0);
  const double wp = 2 * kPi / Tp;
  const T q = T(wp) / omega;
  const T q4 = q * q * q * q;
  return T(T(5.0 / 16.0 * Hs * Hs) * q4 / omega * exp(T(-1.25) * q4));
}

/// JONSWAP peak-shape exponent r = exp(-(omega/omega_p - 1)^2 / (2 sigma^2)), sigma = 0.07
/// for omega <= omega_p and 0.09 above. Spec "Waves" (JONSWAP).
template <class T>
T jonswap_r(const T& omega, double wp) {
  using std::exp;
  const double sigma = value_of(omega) <= wp ? 0.07 : 0.09;
  const T d = omega / T(wp) - T(1);
  return T(exp(-d * d / T(2 * sigma * sigma)));
}

/// JONSWAP density [m^2 s] (Hasselmann et al. 1973), spec "Waves": the Pierson-Moskowitz
/// shape times gamma^r, times DNV-RP-C205's normalising factor A = 1 - 0.287 ln(gamma) (so
/// that m0 ~ Hs^2 / 16). gamma >= 1; gamma = 1 is Pierson-Moskowitz. Its maximum is at
/// omega_p = 2 pi / Tp.
template <class T>
T jonswap(const T& omega, double Hs, double Tp, double gamma) {
  using std::exp;
  detail::require_spectrum(std::isfinite(gamma) && gamma >= 1, "JONSWAP spectrum", "gamma", gamma, ">= 1");
  const T pm = pierson_moskowitz(omega, Hs, Tp);
  if (gamma == 1) return pm;
  const double wp = 2 * kPi / Tp;
  const double A = 1 - 0.287 * std::log(gamma);
  return T(T(A) * pm * exp(T(std::log(gamma)) * jonswap_r(omega, wp)));  // gamma^r
}

/// Parameters of an Ochi-Hubble two-peak sea (Ochi & Hubble 1976): per partition j the
/// significant height Hs_j [m], peak period Tp_j [s] and shape lambda_j [-].
struct OchiHubbleParams {
  double Hs1 = 0, Tp1 = 0, lambda1 = 1;
  double Hs2 = 0, Tp2 = 0, lambda2 = 1;

  /// Throws InputError naming the first bad parameter (Hs_j >= 0 with Hs1 + Hs2 > 0,
  /// Tp_j > 0, lambda_j > 0).
  void validate() const {
    const char* who = "Ochi-Hubble spectrum";
    detail::require_spectrum(std::isfinite(Hs1) && Hs1 >= 0, who, "Hs1", Hs1, ">= 0");
    detail::require_spectrum(std::isfinite(Hs2) && Hs2 >= 0, who, "Hs2", Hs2, ">= 0");
    detail::require_spectrum(Hs1 + Hs2 > 0, who, "Hs1 + Hs2", Hs1 + Hs2, "> 0");
    detail::require_spectrum(std::isfinite(Tp1) && Tp1 > 0, who, "Tp1", Tp1, "> 0");
    detail::require_spectrum(std::isfinite(Tp2) && Tp2 > 0, who, "Tp2", Tp2, "> 0");
    detail::require_spectrum(std::isfinite(lambda1) && lambda1 > 0, who, "lambda1", lambda1, "> 0");
    detail::require_spectrum(std::isfinite(lambda2) && lambda2 > 0, who, "lambda2", lambda2, "> 0");
  }
};

/// One Ochi-Hubble partition [m^2 s]:
/// S_j = 1/4 [((4 l + 1)/4 w_m^4)^l / Gamma(l)] Hs^2 / w^(4 l + 1) exp(-(4 l + 1)/4 (w_m / w)^4),
/// w_m = 2 pi / Tp; integrates to Hs^2 / 16; l = 1 is Pierson-Moskowitz.
template <class T>
T ochi_hubble_partition(const T& omega, double Hs, double Tp, double lambda) {
  using std::exp;
  using std::log;
  if (!(value_of(omega) > 0) || Hs == 0) return T(0);
  const double wm = 2 * kPi / Tp;
  const double c = (4 * lambda + 1) / 4;
  // log of the constant 1/4 (c wm^4)^l / Gamma(l) Hs^2, kept in logs for large lambda
  const double logK = std::log(0.25 * Hs * Hs) + lambda * std::log(c * std::pow(wm, 4)) - std::lgamma(lambda);
  const T q = T(wm) / omega;
  const T q4 = q * q * q * q;
  return T(exp(T(logK) - T(4 * lambda + 1) * log(omega) - T(c) * q4));
}

/// Ochi-Hubble two-peak density [m^2 s]: the sum of the two partitions; m0 =
/// (Hs1^2 + Hs2^2) / 16. Spec "Other spectra".
template <class T>
T ochi_hubble(const T& omega, const OchiHubbleParams& p) {
  p.validate();
  return T(ochi_hubble_partition(omega, p.Hs1, p.Tp1, p.lambda1) +
           ochi_hubble_partition(omega, p.Hs2, p.Tp2, p.lambda2));
}

/// The two partitions of a Torsethaugen sea (spec "Other spectra", DNV-RP-C205 2021).
struct TorsethaugenPartitions {
  bool wind_dominated = true;  ///< Tp <= Tf
  double Tf = 0;               ///< 6.6 Hs^(1/3) [s]
  double r = 1;                ///< primary share of Hs [-]
  double H1 = 0, Tp1 = 0, gamma1 = 1;  ///< primary sea (at the given Tp)
  double H2 = 0, Tp2 = 0, gamma2 = 1;  ///< secondary sea
};

/// Partitions of a Torsethaugen sea of significant height Hs [m] and peak period Tp [s]
/// under gravity g, exactly as the spec states: Tf = 6.6 Hs^(1/3); wind dominated
/// (Tp <= Tf): eps_l = (Tf - Tp)/(Tf - 2 sqrt(Hs)), r = 0.7 + 0.3 exp(-(2 eps_l)^2),
/// H1 = r Hs, gamma1 = 35 (2 pi H1 / (g Tp^2))^0.857, swell H2 = sqrt(1 - r^2) Hs at
/// Tp2 = Tf + 2 s; swell dominated: eps_u = (Tp - Tf)/(25 - Tf), r = 0.6 + 0.4
/// exp(-(eps_u/0.3)^2), gamma1 = 35 (2 pi Hs / (g Tf^2))^0.857 (1 + 6 eps_u), wind sea H2
/// at Tp2 = 6.6 H2^(1/3); eps clamped to [0, 1], gamma1 >= 1, gamma2 = 1.
inline TorsethaugenPartitions torsethaugen_partitions(double Hs, double Tp, double g = kGravity) {
  const char* who = "Torsethaugen spectrum";
  detail::require_spectrum(std::isfinite(Hs) && Hs > 0, who, "Hs", Hs, "> 0");
  detail::require_spectrum(std::isfinite(Tp) && Tp > 0, who, "Tp", Tp, "> 0");
  detail::require_spectrum(std::isfinite(g) && g > 0, who, "g", g, "> 0");
  TorsethaugenPartitions p;
  p.Tf = 6.6 * std::cbrt(Hs);
  p.wind_dominated = Tp <= p.Tf;
  if (p.wind_dominated) {
    const double den = p.Tf - 2 * std::sqrt(Hs);
    detail::require_spectrum(den > 0, who, "Tf - 2 sqrt(Hs)", den, "> 0");
    const double e = std::clamp((p.Tf - Tp) / den, 0.0, 1.0);
    p.r = 0.7 + 0.3 * std::exp(-(2 * e) * (2 * e));
    p.H1 = p.r * Hs;
    p.Tp1 = Tp;
    p.gamma1 = std::max(1.0, 35 * std::pow(2 * kPi * p.H1 / (g * Tp * Tp), 0.857));
    p.H2 = std::sqrt(1 - p.r * p.r) * Hs;
    p.Tp2 = p.Tf + 2.0;
  } else {
    const double den = 25 - p.Tf;
    detail::require_spectrum(den > 0, who, "25 s - Tf", den, "> 0");
    const double e = std::clamp((Tp - p.Tf) / den, 0.0, 1.0);
    p.r = 0.6 + 0.4 * std::exp(-(e / 0.3) * (e / 0.3));
    p.H1 = p.r * Hs;
    p.Tp1 = Tp;
    p.gamma1 = std::max(1.0, 35 * std::pow(2 * kPi * Hs / (g * p.Tf * p.Tf), 0.857) * (1 + 6 * e));
    p.H2 = std::sqrt(1 - p.r * p.r) * Hs;
    p.Tp2 = 6.6 * std::cbrt(p.H2);
  }
  p.gamma2 = 1;
  return p;
}

/// One Torsethaugen partition [m^2 s]: E G0 A_gamma w~^-4 exp(-w~^-4) gamma^r with
/// w~ = omega Tp / (2 pi), E = H^2 Tp / (32 pi), G0 = 3.26, A_gamma = (1 + 1.1 (ln gamma)^1.19)
/// / gamma and r the JONSWAP exponent in w~ (peak at w~ = 1). Spec "Other spectra".
template <class T>
T torsethaugen_partition(const T& omega, double H, double Tp, double gamma) {
  using std::exp;
  if (!(value_of(omega) > 0) || H == 0) return T(0);
  const double E = H * H * Tp / (32 * kPi);
  const double Ag = (1 + 1.1 * std::pow(std::log(gamma), 1.19)) / gamma;
  const T w = omega * T(Tp / (2 * kPi));
  const T w4 = w * w * w * w;
  T s = T(E * 3.26 * Ag) / w4 * exp(-T(1) / w4);
  if (gamma > 1) s *= exp(T(std::log(gamma)) * jonswap_r(w, 1.0));  // gamma^r
  return s;
}

/// Torsethaugen two-peak density [m^2 s]; m0 ~ Hs^2 / 16. Spec "Other spectra".
template <class T>
T torsethaugen(const T& omega, double Hs, double Tp, double g = kGravity) {
  const auto p = torsethaugen_partitions(Hs, Tp, g);
  return T(torsethaugen_partition(omega, p.H1, p.Tp1, p.gamma1) +
           torsethaugen_partition(omega, p.H2, p.Tp2, p.gamma2));
}

}  // namespace cabledyn
