// cabledyn: a deck's mooring system (the model builder of the system route).
// Spec "Attached objects and line ends" (POINTS: Fixed, Coupled / Vessel, Free / Connect
// with mass, volume, CdA, Ca and a constant force; lines attached to points), DECK_FORMAT.md
// (POINTS and LINES rows, the seabed options WtrDpth, kBot, cBot).
//
// build_deck_system turns a read Deck into a MooringSystem<double> and the maps between deck
// IDs and system indices. It refuses by name (NotImplementedError naming the deck line and
// the feature) what the system does not model yet, so that no deck runs with a part of its
// physics silently left out.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "cabledyn/io/deck.hpp"
#include "cabledyn/system.hpp"

namespace cabledyn::io {

/// True when a deck has a Free (Connect) point.
inline bool has_free_points(const Deck& d) {
  for (const auto& p : d.points)
    if (p.type == PointType::free) return true;
  return false;
}

/// A deck's mooring system and its maps.
struct DeckSystem {
  MooringSystem<double> system;
  std::map<int, int> point_index;  ///< deck point ID -> system point index
  std::vector<int> point_id;       ///< system point index -> deck point ID
  std::vector<int> line_id;        ///< system line index -> deck line ID
  std::vector<int> coupled;        ///< system indices of the Coupled / Vessel points, in POINTS order
};

/// Builds the mooring system of a deck (read with ReadOptions::accept_unsupported, so that its
/// Free points are recorded rather than refused): every point (Fixed as anchors, Coupled and Vessel as
/// coupled points, Free with its mass, volume, CdA, Ca and force), every line as written (End
/// A at AttachA, its sections in the order of SECTIONS) with the deck's seabed. Throws
/// NotImplementedError naming the deck line for what the system route does not model yet
/// (finite-EI lines, waves, currents, end connections, unsupported requests of the reader),
/// and the InputErrors of the system (a free point no line holds, a line between one point).
inline DeckSystem build_deck_system(const Deck& deck) {
  using detail::where;
  // Read the deck with ReadOptions::accept_unsupported: free points are what this route
  // models; every other request is refused here.
  for (const auto& u : deck.unsupported)
    if (u.feature != kFreePointsFeature)
      throw NotImplementedError(where(deck.file, u.line), u.quantity, u.value, u.feature);
  const auto& o = deck.options;
  auto refuse = [&](const std::string& option, const std::string& what) {
    throw NotImplementedError(where(deck.file, o.line_of(option)), option, what,
                              what + " in a system with free points (issue 20: the system route has no " + what + " yet)");
  };
  if (o.waves.kind != WaveKind::none || !o.wavetrains.empty()) refuse("waves", "waves");
  if (o.current.model != CurrentModel::none) refuse("current", "current");
  if (o.nModes > 0) refuse("nModes", "modal analysis");
  if (!deck.end_connections.empty())
    throw NotImplementedError(where(deck.file, deck.end_connections.front().line), "END CONNECTIONS", "row",
                              "end connections in a system with free points (finite-EI lines are not in the system yet)");
  DeckSystem ds{MooringSystem<double>(deck.environment(), deck.file), {}, {}, {}, {}};
  SeabedModel bed;
  if (const auto z = deck.environment().seabed_z()) {
    bed.z = *z;
    bed.params.kBot = o.kBot;
    bed.params.cBot = o.cBot;
  }
  ds.system.set_seabed(bed);
  for (const auto& p : deck.points) {
    PointModel<double> m;
    m.name = "deck point " + std::to_string(p.id);
    m.r = Vec3<double>(p.r[0], p.r[1], p.r[2]);
    switch (p.type) {
      case PointType::fixed: m.kind = PointKind::fixed; break;
      case PointType::coupled:
      case PointType::vessel: m.kind = PointKind::coupled; break;
      case PointType::free:
        m.kind = PointKind::free;
        m.mass = p.mass;
        m.volume = p.volume;
        m.CdA = p.CdA;
        m.Ca = p.Ca;
        m.load = Vec3<double>(p.force[0], p.force[1], p.force[2]);
        break;
      default:
        throw NotImplementedError(where(deck.file, p.line), "POINTS Type", "Body/Turbine", "points on bodies or turbines");
    }
    if (p.type == PointType::free && (p.mass < 0 || p.volume < 0))
      throw InputError(where(deck.file, p.line), "POINTS Mass / Volume", std::min(p.mass, p.volume), ">= 0");
    const int k = ds.system.add_point(m);
    ds.point_index[p.id] = k;
    ds.point_id.push_back(p.id);
    if (m.kind == PointKind::coupled) ds.coupled.push_back(k);
  }
  for (const auto& rec : deck.lines) {
    if (deck.hermite(rec.id))
      throw NotImplementedError(where(deck.file, rec.line), "LINES line " + std::to_string(rec.id), "EI > 0",
                                "finite-EI lines in a system with free points (not in the system yet)");
    // As written: End A at AttachA, its sections first (line_sections gives them fairlead
    // first, reversed for a swapped line).
    std::vector<SectionModel<double>> secs;
    for (const auto& s : deck.line_sections(rec.id)) secs.push_back(SectionModel<double>::from(s));
    if (rec.swapped) std::reverse(secs.begin(), secs.end());
    const int a = ds.point_index.at(rec.node_a), b = ds.point_index.at(rec.node_b);
    try {
      ds.system.add_line(LineModel<double>("line " + std::to_string(rec.id), std::move(secs), deck.environment(), bed), a, b);
    } catch (const InputError& e) {
      throw InputError(where(deck.file, rec.line), "LINES line " + std::to_string(rec.id), e.what(), "a valid line");
    }
    ds.line_id.push_back(rec.id);
  }
  try {
    ds.system.renumber();
  } catch (const InputError& e) {
    throw InputError(deck.file, "POINTS", e.what(), "every free point held by a line");
  }
  return ds;
}

}  // namespace cabledyn::io
