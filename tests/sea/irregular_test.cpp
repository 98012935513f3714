// Irregular seas: the MINSTD draws, the JONSWAP discretisation as the spec states it, the m0
// scaling, reproducibility, cos-2s spreading, several trains, other spectra, the component
// table, the elevation history, and the early-stopping sums. Spec "Waves" and "Other spectra,
// spreading and multiple trains"; EQUATIONS.md section 7.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>

#include "cabledyn/sea/irregular.hpp"
#include "support/constants.hpp"

using namespace cabledyn;

namespace {

using cabledyn::test_support::g;

double m0_of(const std::vector<WaveComponent>& c) {
  long double m0 = 0;
  for (const auto& x : c) m0 += (long double)x.a * x.a / 2;
  return static_cast<double>(m0);
}

SpectralTrain jonswap_train(double Hs, double Tp, double gamma = 3.3) {
  SpectralTrain t;
  t.kind = SpectrumKind::Jonswap;
  t.Hs = Hs;
  t.Tp = Tp;
  t.gamma = gamma;
  return t;
}

}  // namespace

TEST_CASE("irregular: MINSTD is the published Park-Miller sequence", "[sea][irregular][minstd]") {
  // Park & Miller's minimal standard with Park, Miller & Stockmeyer's (1993) multiplier 48271:
  // from seed 1 the sequence starts 48271, 182605794, 1291394886, 1914720637, 2078669041,
  // 407355683; the C++ standard ([rand.predef]) fixes the 10000th value of a
  // default-constructed minstd_rand (seed 1) as 399268537.
  const std::uint64_t published[] = {48271u, 182605794u, 1291394886u, 1914720637u, 2078669041u, 407355683u};
  Minstd gen(1);
  std::uint64_t x = 1;  // an independent 64-bit implementation of x <- 48271 x mod (2^31 - 1)
  for (const auto p : published) {
    x = (48271u * x) % 2147483647u;
    CHECK(x == p);
    CHECK(gen() == p);
  }
  Minstd gen2;
  for (int i = 1; i < 10000; ++i) gen2();
  CHECK(gen2() == 399268537u);
  // the uniform draws u = x / (2^31 - 1) lie in (0, 1)
  Minstd gen3(1);
  CHECK(minstd_uniform(gen3) == 48271.0 / 2147483647.0);
}

TEST_CASE("irregular: the JONSWAP sea follows the spec's recipe draw by draw", "[sea][irregular]") {
  const double Hs = 6, Tp = 11, wp = 2 * kPi / Tp;
  const auto comps = synthesize_train(jonswap_train(Hs, Tp), 1, g);
  REQUIRE(comps.size() == 200);
  const double dw = 4.8 * wp / 200;
  // an independent reading of the recipe: bins on [0.2 w_p, 5 w_p], u_i then v_i from MINSTD
  std::minstd_rand gen(1);
  std::vector<double> a(200), w(200), ph(200);
  long double m0 = 0;
  for (int i = 0; i < 200; ++i) {
    const double u = gen() / 2147483647.0, v = gen() / 2147483647.0;
    w[i] = 0.2 * wp + (i + u) * dw;
    ph[i] = 2 * kPi * v;
    a[i] = std::sqrt(2 * jonswap(w[i], Hs, Tp, 3.3) * dw);
    m0 += (long double)a[i] * a[i] / 2;
  }
  const double scale = std::sqrt(Hs * Hs / 16 / static_cast<double>(m0));
  for (int i = 0; i < 200; ++i) {
    const auto& c = comps[static_cast<std::size_t>(i)];
    CHECK(std::fabs(c.omega - w[i]) <= 1e-15 * w[i]);
    CHECK(c.omega > 0.2 * wp + i * dw);  // jittered inside its own bin
    CHECK(c.omega < 0.2 * wp + (i + 1) * dw);
    CHECK(std::fabs(c.phase - ph[i]) <= 1e-15);
    CHECK(std::fabs(c.a - scale * a[i]) <= 1e-14 * c.a);
    CHECK(c.beta == 0);
  }
  CHECK(comps[0].omega == 0.2 * wp + (48271.0 / 2147483647.0) * dw);
  CHECK(std::fabs(comps[0].phase - 2 * kPi * 182605794.0 / 2147483647.0) < 1e-15);
  // the discrete m0 is Hs^2 / 16 to round-off
  CHECK(std::fabs(m0_of(comps) / (Hs * Hs / 16) - 1) < 1e-14);
}

TEST_CASE("irregular: a seed gives the same sea bit for bit, another seed another sea",
          "[sea][irregular]") {
  const auto a = synthesize_train(jonswap_train(4, 9), 7, g);
  const auto b = synthesize_train(jonswap_train(4, 9), 7, g);
  const auto c = synthesize_train(jonswap_train(4, 9), 8, g);
  REQUIRE(a.size() == b.size());
  int same = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].a == b[i].a);
    CHECK(a[i].omega == b[i].omega);
    CHECK(a[i].phase == b[i].phase);
    same += a[i].phase == c[i].phase;
  }
  CHECK(same == 0);
  const LinearSea sa(a, 80.0, g), sb(b, 80.0, g);
  for (const double t : {0.0, 17.0, 1234.5}) {
    const auto ka = sa.kinematics<double>(Eigen::Vector3d(3, -2, -11), t);
    const auto kb = sb.kinematics<double>(Eigen::Vector3d(3, -2, -11), t);
    CHECK(ka.u == kb.u);
    CHECK(ka.a == kb.a);
    CHECK(ka.eta == kb.eta);
    CHECK(ka.pd == kb.pd);
  }
  // a long record has the variance m0 (incommensurate frequencies): 3 h at 0.5 s
  long double s = 0, s2 = 0;
  const int n = 21600;
  for (int i = 0; i < n; ++i) {
    const double e = sa.elevation(0.0, 0.0, 0.5 * i);
    s += e;
    s2 += (long double)e * e;
  }
  const double var = static_cast<double>(s2 / n - (s / n) * (s / n));
  CHECK(std::fabs(var / (4.0 * 4.0 / 16) - 1) < 0.05);
}

TEST_CASE("irregular: cos-2s bins are the bin integrals of D", "[sea][irregular][spreading]") {
  for (const double s : {0.5, 1.0, 4.0, 30.0, 300.0}) {
    const auto bins = cos2s_bins(s, 9);
    double sum = 0;
    for (const auto& b : bins) sum += b.weight;
    INFO("s " << s);
    CHECK(std::fabs(sum - 1) < 1e-13);
    CHECK(bins[4].offset == 0);  // an odd count centres a bin on the mean direction
    for (int j = 0; j < 4; ++j) {
      CHECK(std::fabs(bins[j].weight - bins[8 - j].weight) < 1e-15);  // symmetric
      CHECK(bins[j].weight < bins[j + 1].weight);                      // falling off the mean
      CHECK(std::fabs(bins[j].offset + bins[8 - j].offset) < 1e-15);
    }
  }
  // s = 1: D = (1 + cos theta) / (2 pi), so a bin [a, b] holds (b - a + sin b - sin a) / (2 pi)
  const auto bins = cos2s_bins(1.0, 6);
  for (int j = 0; j < 6; ++j) {
    const double a = -kPi + j * kPi / 3, b = a + kPi / 3;
    CHECK(std::fabs(bins[j].weight - (b - a + std::sin(b) - std::sin(a)) / (2 * kPi)) < 1e-15);
    CHECK(std::fabs(bins[j].offset - (a + b) / 2) < 1e-15);
  }
  CHECK(std::fabs(cos2s_density(0.3, 1.0) - (1 + std::cos(0.3)) / (2 * kPi)) < 1e-15);
}

TEST_CASE("irregular: spread and multiple trains", "[sea][irregular][spreading]") {
  // spread: WaveDirections sets of WaveComponents, each along beta + its bin offset
  SpectralTrain spread = jonswap_train(5, 10);
  spread.kind = SpectrumKind::PiersonMoskowitz;  // broad: 100 jittered components sample it well
  spread.beta = 0.5;
  spread.s = 8;
  spread.directions = 5;
  spread.components = 100;
  const auto c = synthesize_train(spread, 3, g);
  REQUIRE(c.size() == 500);
  CHECK(std::fabs(m0_of(c) / (25.0 / 16) - 1) < 1e-14);
  const auto bins = cos2s_bins(8, 5);
  for (std::size_t d = 0; d < 5; ++d) {
    double m0d = 0;
    for (std::size_t i = 0; i < 100; ++i) {
      CHECK(std::fabs(c[d * 100 + i].beta - (0.5 + bins[d].offset)) < 1e-15);
      m0d += c[d * 100 + i].a * c[d * 100 + i].a / 2;
    }
    // each direction carries its bin's share, up to the sampling of its own jittered set
    CHECK(std::fabs(m0d / (25.0 / 16) / bins[d].weight - 1) < 0.05);
  }
  // a long-crested train is the JONSWAP synthesis; a seed offset shifts the seed
  SpectralTrain lc = jonswap_train(5, 10);
  lc.seed_offset = 4;
  const auto a = synthesize_train(lc, 3, g);
  const auto b = synthesize_train(jonswap_train(5, 10), 7, g);
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].phase == b[i].phase);
  // several trains superpose component by component; m0 adds
  SpectralTrain swell;
  swell.kind = SpectrumKind::PiersonMoskowitz;
  swell.Hs = 2;
  swell.Tp = 16;
  swell.beta = -1.0;
  swell.seed_offset = 100;
  const auto both = synthesize_trains({jonswap_train(5, 10), swell}, 3, g);
  REQUIRE(both.size() == 400);
  CHECK(std::fabs(m0_of(both) / ((25.0 + 4.0) / 16) - 1) < 1e-14);
  CHECK(both[250].beta == -1.0);
  // other spectra: the band spans both peaks, m0 as the spec states
  SpectralTrain ts;
  ts.kind = SpectrumKind::Torsethaugen;
  ts.Hs = 4;
  ts.Tp = 8;
  const auto p = torsethaugen_partitions(4, 8, g);
  const auto [w0, w1] = train_band(ts, g);
  CHECK(std::fabs(w0 - 0.2 * 2 * kPi / p.Tp2) < 1e-15);
  CHECK(std::fabs(w1 - 5 * 2 * kPi / 8) < 1e-14);
  CHECK(std::fabs(m0_of(synthesize_train(ts, 1, g)) - 1.0) < 1e-14);
  SpectralTrain oh;
  oh.kind = SpectrumKind::OchiHubble;
  oh.ochi = {3.0, 12.0, 1.5, 2.0, 6.0, 2.0};
  CHECK(std::fabs(m0_of(synthesize_train(oh, 1, g)) / (13.0 / 16) - 1) < 1e-14);
}

TEST_CASE("irregular: a component table is the superposition of its rows", "[sea][irregular]") {
  const auto table = component_table({0.5, 0.3, 0.1}, {0.6, 1.1, 1.9}, {0.0, 1.0, 2.5}, 0.7);
  const LinearSea sea(table, 25.0, g, {.wheeler = false, .early_stop = false});
  const Eigen::Vector3d x(4, 9, -6);
  Eigen::Vector3d u = Eigen::Vector3d::Zero();
  double eta = 0;
  for (const auto& row : table) {
    const LinearSea one({row}, 25.0, g, {.wheeler = false});
    const auto k = one.kinematics<double>(x, 3.3);
    u += k.u;
    eta += k.eta;
  }
  const auto k = sea.kinematics<double>(x, 3.3);
  CHECK((k.u - u).norm() < 1e-15);
  CHECK(std::fabs(k.eta - eta) < 1e-15);
  CHECK_THROWS_AS(component_table({0.5, 0.3}, {0.6}, {0.0, 1.0}), InputError);
}

TEST_CASE("irregular: an elevation history reduces to components that reproduce it",
          "[sea][irregular][history]") {
  // a random record (fixed seed) of 240 samples at dt = 0.25 s from t0 = 10 s
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> U(-1, 1);
  const double dt = 0.25, t0 = 10;
  std::vector<double> eta(240);
  double mean = 0;
  for (auto& e : eta) mean += (e = U(rng)) / 240;
  const auto comps = components_from_history(eta, dt, t0);
  CHECK(comps.size() == 120);  // up to the Nyquist frequency of dt
  const LinearSea sea(comps, kDeepWater, g);
  for (std::size_t n = 0; n < eta.size(); n += 7)
    CHECK(std::fabs(sea.elevation(0.0, 0.0, t0 + n * dt) + mean - eta[n]) < 1e-13);
  // a pure cosine comes back as one component with its amplitude and phase
  std::vector<double> cosine(64);
  const double w = 2 * kPi * 5 / (64 * 0.5);
  for (int n = 0; n < 64; ++n) cosine[n] = 0.8 * std::cos(w * (3.0 + n * 0.5) - 0.4);
  const auto one = components_from_history(cosine, 0.5, 3.0);
  REQUIRE(one.size() >= 1);
  double amax = 0;
  for (const auto& c : one) amax = std::max(amax, c.a);
  for (const auto& c : one)
    if (c.a == amax) {
      CHECK(std::fabs(c.a - 0.8) < 1e-14);
      CHECK(std::fabs(c.omega - w) < 1e-15);
      CHECK(std::fabs(std::remainder(c.phase - 0.4, 2 * kPi)) < 1e-14);  // cos(-w t + 0.4)
    } else {
      CHECK(c.a < 1e-14);
    }
  // the cut-off keeps the components up to WvHiCOff
  const auto cut = components_from_history(eta, dt, t0, 0.5);
  CHECK(cut.size() == 30);  // a 60 s record: f_j = j / 60 Hz <= 0.5 Hz
  CHECK(cut.back().omega <= 2 * kPi * 0.5 + 1e-12);
  CHECK_THROWS_AS(components_from_history(eta, 0.0), InputError);
  CHECK_THROWS_AS(components_from_history({1.0}, 0.1), InputError);
}

TEST_CASE("irregular: the early-stopping sums change the result at round-off only",
          "[sea][irregular][early-stop]") {
  SpectralTrain tr = jonswap_train(6, 12);
  LinearSea sea(synthesize_train(tr, 1, g), 200.0, g);
  LinearSea full = sea;
  full.set_early_stop(false);
  const double eps = std::numeric_limits<double>::epsilon();
  int stopped = 0;
  for (const double z : {-2.0, -30.0, -90.0, -150.0, -199.0}) {
    for (const double t : {50.0, 300.0}) {
      const Eigen::Vector3d x(12, -5, z);
      const auto ke = sea.kinematics<double>(x, t);
      const auto kf = full.kinematics<double>(x, t);
      REQUIRE(ke.wet);
      CHECK(kf.terms == 200);
      stopped += ke.terms < 200;
      // bound: a few ulps of the sum of the magnitudes
      double mv = 0, ma = 0, mp = 0;
      for (const auto& c : sea.components()) {
        const double C = std::cosh(c.k * (sea.stretched_z(z, ke.eta) + 200)) / std::sinh(c.k * 200);
        mv += c.a * c.omega * C;
        ma += c.a * c.omega * c.omega * C;
        mp += g * c.a * C;
      }
      INFO("z " << z << " terms " << ke.terms);
      CHECK((ke.u - kf.u).norm() <= 4 * eps * mv);
      CHECK((ke.a - kf.a).norm() <= 4 * eps * ma);
      CHECK(std::fabs(ke.pd - kf.pd) <= 4 * eps * mp);
      CHECK(ke.eta == kf.eta);  // every point sums every component of the elevation
    }
  }
  CHECK(stopped >= 4);  // the deep points skip the short components
  const auto deep = sea.kinematics<double>(Eigen::Vector3d(0, 0, -150), 50.0);
  CHECK(deep.terms < 150);
}

TEST_CASE("irregular: bad trains fail with a named error", "[sea][irregular][errors]") {
  CHECK_THROWS_AS(synthesize_train(jonswap_train(4, 9, 0.5), 1, g), InputError);
  CHECK_THROWS_AS(synthesize_train(jonswap_train(0, 9), 1, g), InputError);
  CHECK_THROWS_AS(synthesize_train(jonswap_train(4, -9), 1, g), InputError);
  CHECK_THROWS_AS(synthesize_train(jonswap_train(4, 9), 0, g), InputError);
  CHECK_THROWS_AS(synthesize_train(jonswap_train(4, 9), 2147483647, g), InputError);
  SpectralTrain t = jonswap_train(4, 9);
  t.components = 0;
  CHECK_THROWS_AS(synthesize_train(t, 1, g), InputError);
  t = jonswap_train(4, 9);
  t.s = -1;
  CHECK_THROWS_AS(synthesize_train(t, 1, g), InputError);
  try {
    synthesize_train(jonswap_train(4, 9, 0.5), 1, g);
  } catch (const InputError& e) {
    CHECK(e.object() == "spectral train");
    CHECK(e.quantity() == "gamma");
    CHECK(e.value() == "0.5");
  }
}
