// cabledyn: the sea state of a deck run. One job: turn the deck's wave and current options
// (DECK_FORMAT.md: waves, wavetrains, WaveSeed, WaveComponents, WaveDirections, StreamOrder,
// WaveStretching, current, rampTime) into the fluid field the lines march in (spec sea state:
// Airy and irregular linear seas with Wheeler stretching, spectra with cos-2s spreading,
// stream-function waves, uniform / profile / SeaState currents, the ramp) and the steady
// current the statics load the lines with. docs/driver.md, docs/sea-state.md.
#pragma once

#include <memory>
#include <variant>
#include <vector>

#include "cabledyn/io/deck.hpp"
#include "cabledyn/sea.hpp"
#include "cabledyn/statics.hpp"

namespace cabledyn::io {

/// The sea of a run: the field (none in still water) and its current for the statics.
struct DeckSea {
  std::unique_ptr<FluidField> field;  ///< waves and current, ramped; null without either
  SteadyCurrent steady;               ///< the field's current (set when has_current)
  bool has_current = false, has_waves = false;
};

/// The deck's current model as a Current (a SeaState current needs WtrDpth: InputError).
template <class Unused = void>
Current deck_current(const Deck& deck, const Environment& env) {
  const auto& c = deck.options.current;
  switch (c.model) {
    case CurrentModel::none:
      return Current::none();
    case CurrentModel::uniform:
      return Current::uniform(Eigen::Vector3d(c.velocity[0], c.velocity[1], c.velocity[2]));
    case CurrentModel::profile: {
      std::vector<double> z;
      std::vector<Eigen::Vector3d> u;
      for (const auto& lv : c.profile) {
        z.push_back(lv.z);
        u.emplace_back(lv.u[0], lv.u[1], lv.u[2]);
      }
      return Current::profile(z, u);
    }
    case CurrentModel::seastate: {
      SeaStateCurrent s;
      const double d = kPi / 180;
      s.ss_speed = c.seastate.ss_speed;
      s.ss_dir = c.seastate.ss_dir_deg * d;
      s.ns_ref = c.seastate.ns_ref;
      s.ns_speed = c.seastate.ns_speed;
      s.ns_dir = c.seastate.ns_dir_deg * d;
      s.di_speed = c.seastate.di_speed;
      s.di_dir = c.seastate.di_dir_deg * d;
      if (!env.depth) throw InputError(deck.file, "current seastate", "no WtrDpth", "WtrDpth given");
      return Current::seastate(s, *env.depth);
    }
  }
  return Current::none();
}

/// The spectral train of a wave option (spectrum, Hs, Tp, direction, spreading, and the
/// deck's component and direction counts).
inline SpectralTrain spectral_train(const Deck& deck, const WaveOption& w) {
  SpectralTrain t;
  t.kind = w.kind == WaveKind::jonswap             ? SpectrumKind::Jonswap
           : w.kind == WaveKind::pierson_moskowitz ? SpectrumKind::PiersonMoskowitz
           : w.kind == WaveKind::torsethaugen      ? SpectrumKind::Torsethaugen
                                                   : SpectrumKind::OchiHubble;
  t.Hs = w.H;
  t.Tp = w.T;
  t.gamma = w.gamma;
  t.ochi.Hs1 = w.ochi.Hs1;
  t.ochi.Tp1 = w.ochi.Tp1;
  t.ochi.lambda1 = w.ochi.lambda1;
  t.ochi.Hs2 = w.ochi.Hs2;
  t.ochi.Tp2 = w.ochi.Tp2;
  t.ochi.lambda2 = w.ochi.lambda2;
  t.beta = w.dir_deg * kPi / 180;
  t.s = w.spreading;
  t.components = deck.options.WaveComponents;
  t.directions = deck.options.WaveDirections;
  t.seed_offset = w.seed_offset;
  return t;
}

/// The sea of the deck: its waves (Airy, stream function, or the trains synthesised with the
/// deck's WaveSeed) and current under the ramp of rampTime. Throws InputError for waves
/// without gravity, and for stream-function waves or a SeaState current without WtrDpth.
template <class Unused = void>
DeckSea build_deck_sea(const Deck& deck, const Environment& env) {
  const auto& o = deck.options;
  const double depth = env.depth ? *env.depth : kDeepWater;
  LinearSeaOptions lso;
  lso.wheeler = o.wave_stretching == WaveStretching::wheeler;
  WaveModel waves;
  std::vector<SpectralTrain> trains;
  if (o.waves.kind != WaveKind::none && !(env.g > 0))
    throw InputError(deck.file + ":" + std::to_string(o.line_of("waves")), "waves", "with g = 0", "g > 0 (gravity waves)");
  if (o.waves.kind == WaveKind::airy) {
    WaveComponent c;
    c.a = o.waves.H / 2;
    c.omega = 2 * kPi / o.waves.T;
    c.beta = o.waves.dir_deg * kPi / 180;
    c.phase = o.waves.phase_deg * kPi / 180;
    waves = LinearSea({c}, depth, env.g, lso);
  } else if (o.waves.kind == WaveKind::stream) {
    if (!env.depth) throw InputError(deck.file, "waves stream", "no WtrDpth", "WtrDpth given");
    StreamWaveOptions so;
    so.order = o.StreamOrder;
    waves = StreamWave(o.waves.H, o.waves.T, o.waves.dir_deg * kPi / 180, depth, env.g, so);
  } else if (o.waves.kind != WaveKind::none) {
    trains.push_back(spectral_train(deck, o.waves));
  }
  for (const auto& w : o.wavetrains) trains.push_back(spectral_train(deck, w));
  if (!trains.empty()) waves = LinearSea(synthesize_trains(trains, o.WaveSeed, env.g), depth, env.g, lso);
  const Current current = deck_current(deck, env);
  DeckSea sea;
  sea.has_current = current.kind() != Current::Kind::None;
  sea.has_waves = !std::holds_alternative<std::monostate>(waves);
  if (sea.has_waves || sea.has_current) {
    Ramp ramp;
    ramp.T_r = o.rampTime;
    sea.field = std::make_unique<WaveField>(std::move(waves), current, ramp, env.rho_w);
    if (sea.has_current) {
      const FluidField* f = sea.field.get();
      sea.steady = SteadyCurrent{[f](const Vec3<double>& x) { return f->current(x); }};
    }
  }
  return sea;
}

}  // namespace cabledyn::io
