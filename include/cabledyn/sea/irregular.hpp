// cabledyn: synthesis of irregular seas: spectral trains (JONSWAP, ISSC / Pierson-Moskowitz,
// Torsethaugen, Ochi-Hubble), cos-2s spreading, the MINSTD draws, several trains, a user
// component table and the reduction of an elevation history to its Fourier components.
// Spec "Waves" (irregular waves, the JONSWAP discretisation, WaveSeed) and "Other spectra,
// spreading and multiple trains"; EQUATIONS.md section 7.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <unsupported/Eigen/FFT>

#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/quadrature.hpp"
#include "cabledyn/sea/airy.hpp"
#include "cabledyn/sea/spectra.hpp"

namespace cabledyn {

/// Modulus 2^31 - 1 of the Park-Miller MINSTD generator.
inline constexpr std::uint64_t kMinstdModulus = 2147483647u;

/// The spec's generator: Park-Miller MINSTD, x_{k+1} = 48271 x_k mod (2^31 - 1), which is
/// exactly std::minstd_rand (spec "Waves", WaveSeed).
using Minstd = std::minstd_rand;
static_assert(Minstd::multiplier == 48271 && Minstd::increment == 0 &&
              Minstd::modulus == kMinstdModulus);

/// The next uniform draw u = x / (2^31 - 1) in (0, 1) of a MINSTD generator (spec "Waves").
inline double minstd_uniform(Minstd& gen) {
  return static_cast<double>(gen()) / static_cast<double>(kMinstdModulus);
}

/// Kinds of spectral train.
enum class SpectrumKind {
  PiersonMoskowitz,  ///< ISSC / Pierson-Moskowitz (Hs, Tp)
  Jonswap,           ///< JONSWAP (Hs, Tp, gamma)
  Torsethaugen,      ///< Torsethaugen two-peak (Hs, Tp), DNV-RP-C205
  OchiHubble,        ///< Ochi-Hubble two-peak (ochi)
};

/// One spectral train (a wavetrain row). Defaults follow the spec: WaveComponents 200,
/// WaveDirections 9, long-crested (s = 0).
struct SpectralTrain {
  SpectrumKind kind = SpectrumKind::Jonswap;
  double Hs = 0;         ///< significant wave height [m] (not used by Ochi-Hubble)
  double Tp = 0;         ///< peak period [s] (not used by Ochi-Hubble)
  double gamma = 3.3;    ///< JONSWAP peak enhancement [-], >= 1
  OchiHubbleParams ochi; ///< Ochi-Hubble partitions
  double beta = 0;       ///< mean direction of travel [rad]
  double s = 0;          ///< cos-2s spreading exponent [-]; 0 = long-crested
  int components = 200;  ///< WaveComponents per direction
  int directions = 9;    ///< WaveDirections (with s > 0)
  std::int64_t seed_offset = 0;  ///< added to WaveSeed for this train

  /// Throws InputError naming the first bad field.
  void validate() const {
    const char* who = "spectral train";
    if (kind == SpectrumKind::OchiHubble) {
      ochi.validate();
    } else {
      if (!(std::isfinite(Hs) && Hs > 0)) throw InputError(who, "Hs", Hs, "> 0");
      if (!(std::isfinite(Tp) && Tp > 0)) throw InputError(who, "Tp", Tp, "> 0");
      if (kind == SpectrumKind::Jonswap && !(std::isfinite(gamma) && gamma >= 1))
        throw InputError(who, "gamma", gamma, ">= 1");
    }
    if (!std::isfinite(beta)) throw InputError(who, "beta", beta, "finite");
    if (!(std::isfinite(s) && s >= 0)) throw InputError(who, "spreading s", s, ">= 0");
    if (components < 1) throw InputError(who, "WaveComponents", components, ">= 1");
    if (s > 0 && directions < 1) throw InputError(who, "WaveDirections", directions, ">= 1");
  }

  /// Target zeroth moment m0 = Hs^2 / 16 ((Hs1^2 + Hs2^2) / 16 for Ochi-Hubble) [m^2].
  double m0() const {
    if (kind == SpectrumKind::OchiHubble) return (ochi.Hs1 * ochi.Hs1 + ochi.Hs2 * ochi.Hs2) / 16;
    return Hs * Hs / 16;
  }
};

/// The train's one-sided density S(omega) [m^2 s] (spectra.hpp), before the m0 scaling.
template <class T>
T train_density(const SpectralTrain& tr, const T& omega, double g = kGravity) {
  switch (tr.kind) {
    case SpectrumKind::PiersonMoskowitz: return pierson_moskowitz(omega, tr.Hs, tr.Tp);
    case SpectrumKind::Jonswap: return jonswap(omega, tr.Hs, tr.Tp, tr.gamma);
    case SpectrumKind::Torsethaugen: return torsethaugen(omega, tr.Hs, tr.Tp, g);
    case SpectrumKind::OchiHubble: return ochi_hubble(omega, tr.ochi);
  }
  return T(0);
}

/// Frequency band [0.2 omega_p,min, 5 omega_p,max] [rad/s] of a train over the peaks of its
/// partitions (spec "Other spectra"; [0.2 omega_p, 5 omega_p] for one peak).
inline std::pair<double, double> train_band(const SpectralTrain& tr, double g = kGravity) {
  double wmin = 0, wmax = 0;
  switch (tr.kind) {
    case SpectrumKind::PiersonMoskowitz:
    case SpectrumKind::Jonswap:
      wmin = wmax = 2 * kPi / tr.Tp;
      break;
    case SpectrumKind::Torsethaugen: {
      const auto p = torsethaugen_partitions(tr.Hs, tr.Tp, g);
      wmin = 2 * kPi / std::max(p.Tp1, p.Tp2);
      wmax = 2 * kPi / std::min(p.Tp1, p.Tp2);
      break;
    }
    case SpectrumKind::OchiHubble:
      wmin = 2 * kPi / std::max(tr.ochi.Tp1, tr.ochi.Tp2);
      wmax = 2 * kPi / std::min(tr.ochi.Tp1, tr.ochi.Tp2);
      break;
  }
  return {0.2 * wmin, 5 * wmax};
}

/// One direction bin of a spread sea: offset from the mean direction [rad] and weight [-].
struct DirectionBin {
  double offset = 0;
  double weight = 1;
};

/// The cos-2s spreading function D(theta) = Gamma(s+1) / (2 sqrt(pi) Gamma(s+1/2))
/// cos^(2s)(theta / 2) [1/rad] of the offset theta from the mean direction, theta in
/// [-pi, pi]; it integrates to 1 over the circle. EQUATIONS.md section 7.
inline double cos2s_density(double theta, double s) {
  const double c = std::exp(std::lgamma(s + 1) - std::lgamma(s + 0.5)) / (2 * std::sqrt(kPi));
  const double h = std::cos(theta / 2);
  return c * std::pow(h * h, s);
}

/// The spec's discretisation of cos-2s spreading: `n` equal-angle bins over [-pi, pi) about
/// the mean direction (bin j spans [-pi + j dθ, -pi + (j+1) dθ], dθ = 2 pi / n, heading at
/// its centre; an odd n centres a bin on the mean direction), each weighted by the bin
/// integral of D. The integrals use 32 six-point Gauss-Legendre panels per bin (relative
/// error far below 1e-14 for s <= 1000). Spec "Other spectra, spreading".
inline std::vector<DirectionBin> cos2s_bins(double s, int n) {
  if (!(std::isfinite(s) && s > 0)) throw InputError("cos-2s spreading", "s", s, "> 0");
  if (n < 1) throw InputError("cos-2s spreading", "WaveDirections", n, ">= 1");
  const auto rule = gauss_legendre<long double>(6);
  const long double c =
      std::exp(std::lgamma(static_cast<long double>(s) + 1) - std::lgamma(static_cast<long double>(s) + 0.5L)) /
      (2 * std::sqrt(kPiLD));
  const long double dth = 2 * kPiLD / n;
  constexpr int kPanels = 32;
  std::vector<DirectionBin> bins(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    const long double a = -kPiLD + j * dth;
    long double sum = 0;
    for (int p = 0; p < kPanels; ++p) {
      const long double pa = a + p * dth / kPanels;
      const long double len = dth / kPanels;
      for (int q = 0; q < rule.n; ++q) {
        const long double th = pa + len * rule.xi[static_cast<std::size_t>(q)];
        const long double h = std::cos(th / 2);
        sum += len * rule.w[static_cast<std::size_t>(q)] * std::pow(h * h, static_cast<long double>(s));
      }
    }
    bins[static_cast<std::size_t>(j)].offset = static_cast<double>((j + 0.5L - n / 2.0L) * dth);  // centre
    bins[static_cast<std::size_t>(j)].weight = static_cast<double>(c * sum);
  }
  return bins;
}

/// The MINSTD seed of a train: WaveSeed + seed_offset, which must lie in [1, 2^31 - 2].
inline std::uint32_t train_seed(std::int64_t wave_seed, const SpectralTrain& tr) {
  const std::int64_t s = wave_seed + tr.seed_offset;
  if (s < 1 || s > static_cast<std::int64_t>(kMinstdModulus) - 1)
    throw InputError("spectral train", "WaveSeed + seed offset", s, "in [1, 2^31 - 2]");
  return static_cast<std::uint32_t>(s);
}

/// Synthesises the components of one spectral train (spec "Waves", irregular waves, and
/// "Other spectra, spreading and multiple trains"):
/// - the band [w0, w1] = train_band() split into M = `components` equal bins of width
///   dw = (w1 - w0) / M (JONSWAP: [0.2 w_p, 5 w_p], dw = 4.8 w_p / 200);
/// - component i (1-based) at omega_i = w0 + (i - 1 + u_i) dw, phase 2 pi v_i, with u_i then
///   v_i the next two MINSTD draws u = x / (2^31 - 1) from seed WaveSeed + seed_offset;
/// - amplitude a_i = sqrt(2 S(omega_i) dw w_d), w_d the direction bin weight (1 when
///   long-crested), then every amplitude of the train scaled by one factor so that the
///   discrete m0 = sum a_i^2 / 2 is exactly the train's m0 (Hs^2 / 16);
/// - with s > 0, `directions` cos-2s bins in order, each with its own M jittered components
///   (drawn in sequence from the same generator) travelling along beta + the bin offset.
/// The order of the draws (per direction, per component: u then v) is this library's
/// reading of the spec, which fixes the generator and the seed but not the interleaving.
/// The components are returned without k (LinearSea fills it in). Throws InputError.
inline std::vector<WaveComponent> synthesize_train(const SpectralTrain& tr, std::int64_t wave_seed,
                                                   double g = kGravity) {
  tr.validate();
  Minstd gen(train_seed(wave_seed, tr));
  const auto [w0, w1] = train_band(tr, g);
  const int M = tr.components;
  const double dw = (w1 - w0) / M;
  std::vector<DirectionBin> bins;
  if (tr.s > 0)
    bins = cos2s_bins(tr.s, tr.directions);
  else
    bins.push_back(DirectionBin{0.0, 1.0});
  std::vector<WaveComponent> out;
  out.reserve(bins.size() * static_cast<std::size_t>(M));
  for (const auto& bin : bins) {
    for (int i = 0; i < M; ++i) {
      const double u = minstd_uniform(gen);
      const double v = minstd_uniform(gen);
      WaveComponent c;
      c.omega = w0 + (i + u) * dw;
      c.phase = 2 * kPi * v;
      c.beta = tr.beta + bin.offset;
      c.a = std::sqrt(2 * train_density(tr, c.omega, g) * dw * bin.weight);
      out.push_back(c);
    }
  }
  double m0 = 0;
  for (const auto& c : out) m0 += c.a * c.a / 2;
  if (!(m0 > 0) || !std::isfinite(m0))
    throw InputError("spectral train", "discrete m0 before scaling", m0, "> 0 (the spectrum vanishes on its band)");
  const double scale = std::sqrt(tr.m0() / m0);
  for (auto& c : out) c.a *= scale;
  return out;
}

/// The components of several trains superposed component by component (spec "Other
/// spectra, spreading and multiple trains"), each train with its own seed WaveSeed +
/// seed_offset, in the order of the trains.
inline std::vector<WaveComponent> synthesize_trains(const std::vector<SpectralTrain>& trains,
                                                    std::int64_t wave_seed, double g = kGravity) {
  std::vector<WaveComponent> out;
  for (const auto& tr : trains) {
    auto c = synthesize_train(tr, wave_seed, g);
    out.insert(out.end(), c.begin(), c.end());
  }
  return out;
}

/// A user component table (amplitude [m], angular frequency [rad/s], phase [rad]), all
/// travelling along `beta` [rad] (spec "Waves": to reproduce an external realisation). The
/// rows must have equal lengths; LinearSea validates each value.
inline std::vector<WaveComponent> component_table(const std::vector<double>& a,
                                                  const std::vector<double>& omega,
                                                  const std::vector<double>& phase, double beta = 0) {
  if (omega.size() != a.size())
    throw InputError("wave component table", "rows of omega", omega.size(), "= rows of amplitude (" + std::to_string(a.size()) + ")");
  if (phase.size() != a.size())
    throw InputError("wave component table", "rows of phase", phase.size(), "= rows of amplitude (" + std::to_string(a.size()) + ")");
  std::vector<WaveComponent> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    out[i].a = a[i];
    out[i].omega = omega[i];
    out[i].phase = phase[i];
    out[i].beta = beta;
  }
  return out;
}

/// Reduces an elevation history eta(t0 + n dt), n = 0 .. N-1 (a WaterKin WaveKinMod 1 time
/// series at the origin) once to its Fourier components on that time base (spec "Waves"):
/// omega_j = 2 pi j / (N dt), j = 1 .. floor(N/2) (the Nyquist frequency of dt), kept up to
/// `cutoff_hz` (WvHiCOff; <= 0 keeps all), so that sum a_j cos(-omega_j t + phase_j)
/// reproduces the samples minus their mean. The components travel along `beta`.
inline std::vector<WaveComponent> components_from_history(const std::vector<double>& eta, double dt,
                                                          double t0 = 0, double cutoff_hz = 0,
                                                          double beta = 0) {
  const std::size_t N = eta.size();
  if (N < 2) throw InputError("elevation history", "samples", N, ">= 2");
  if (!(std::isfinite(dt) && dt > 0)) throw InputError("elevation history", "dt", dt, "> 0");
  if (!std::isfinite(t0)) throw InputError("elevation history", "t0", t0, "finite");
  for (std::size_t n = 0; n < N; ++n)
    if (!std::isfinite(eta[n])) throw InputError("elevation history", "sample " + std::to_string(n + 1), eta[n], "finite");
  Eigen::FFT<double> fft;
  std::vector<std::complex<double>> X;
  fft.fwd(X, eta);
  const double T = static_cast<double>(N) * dt;
  std::vector<WaveComponent> out;
  for (std::size_t j = 1; j <= N / 2; ++j) {
    const double w = 2 * kPi * static_cast<double>(j) / T;
    if (cutoff_hz > 0 && w > 2 * kPi * cutoff_hz) break;
    // eta_n = sum_j (A_j cos w_j s_n + B_j sin w_j s_n), s_n = n dt, with A - i B = 2 X_j / N
    // (X_j / N at the Nyquist index of an even N).
    const double f = (2 * j == N) ? 1.0 / N : 2.0 / N;
    const double A = f * X[j].real(), B = -f * X[j].imag();
    // a cos(w (t - t0) - psi) = a cos(-w t + phase) with phase = psi + w t0... written as
    // a cos(theta) with theta = -w t + phase: phase = w t0 + atan2(B, A).
    WaveComponent c;
    c.a = std::hypot(A, B);
    c.omega = w;
    c.phase = std::remainder(w * t0 + std::atan2(B, A), 2 * kPi);
    c.beta = beta;
    if (c.a > 0) out.push_back(c);
  }
  return out;
}

}  // namespace cabledyn
