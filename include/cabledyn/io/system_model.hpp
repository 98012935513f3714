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
#include <array>
#include <map>
#include <string>
#include <vector>

#include "cabledyn/core/so3.hpp"
#include "cabledyn/io/deck.hpp"
#include "cabledyn/io/deck_sea.hpp"
#include "cabledyn/io/motion.hpp"
#include "cabledyn/system.hpp"

namespace cabledyn::io {

/// True when a deck has a Free (Connect) point.
inline bool has_free_points(const Deck& d) {
  for (const auto& p : d.points)
    if (p.type == PointType::free) return true;
  return false;
}

/// True when an unsupported-feature record of the reader names what the system route models
/// (free points, bodies, points on bodies).
inline bool system_route_feature(const std::string& feature) {
  return feature == kFreePointsFeature || feature == kBodiesFeature || feature == kBodyPointsFeature ||
         feature == kTurbinePointsFeature || feature == kRodsFeature || feature == kRodLinesFeature || feature == kCoupledPointPropertiesFeature;
}

/// Throws the NotImplementedError of the first request in deck.unsupported that the system
/// route does not model, its limit listing the other such features with their deck lines (the
/// features the system route models are not named: they are not what stops the deck);
/// returns when there is none.
inline void refuse_unmodelled(const Deck& deck) {
  if (auto e = detail::unsupported_error(deck.file, deck.unsupported,
                                         [](const UnsupportedRecord& u) { return !system_route_feature(u.feature); }))
    throw *e;
}

/// The orientation that a deck's body angles give (BODIES r0 p0 y0, a Coupled body's or rod's
/// coupled angle entries; radians): MoorDyn's R = Rx Ry Rz, or, with bodyAngles orcaflex, the
/// OrcaFlex vessel convention R = Rz Ry Rx (spec "Attached objects and line ends": Rigid6
/// bodies, prescribed ones in the OrcaFlex vessel convention on request).
inline Mat3<double> deck_body_rotation(const Options& o, double roll, double pitch, double yaw) {
  return o.body_angles_orcaflex ? rotation_zyx(roll, pitch, yaw) : rotation_xyz(roll, pitch, yaw);
}

/// The deck convention's angles (roll, pitch, yaw) [rad] of R (deck_body_rotation's inverse).
inline Vec3<double> deck_body_angles(const Options& o, const Mat3<double>& R) {
  return o.body_angles_orcaflex ? angles_zyx(R) : angles_xyz(R);
}

/// The angular velocity in world axes of deck_body_rotation(ang) turning with the angle rates
/// `rate`.
inline std::array<double, 3> deck_body_angular_velocity(const Options& o, const std::array<double, 3>& ang,
                                                         const std::array<double, 3>& rate) {
  if (!o.body_angles_orcaflex) return angular_velocity_xyz(ang, rate);
  Vec3<double> w, alpha;
  rates_zyx<double>(Vec3<double>(ang[0], ang[1], ang[2]), Vec3<double>(rate[0], rate[1], rate[2]),
                    Vec3<double>::Zero(), w, alpha);
  return {w(0), w(1), w(2)};
}

/// A deck's mooring system and its maps.
struct DeckSystem {
  MooringSystem<double> system;
  std::map<int, int> point_index;  ///< deck point ID -> system point index
  std::vector<int> point_id;       ///< system point index -> deck point ID (0: a rod's point)
  std::vector<int> line_id;        ///< system line index -> deck line ID
  /// System indices of the Coupled, Vessel and Turbine<J> points in the host's order
  /// (Deck::coupled_point_ids: by turbine, Coupled and Vessel points turbine 1's, in POINTS
  /// order within each).
  std::vector<int> coupled;
  /// System indices of the coupled bodies in MoorDyn's order: the Coupled / Vessel /
  /// CoupledPinned BODIES rows, then the bodies of the Coupled / Vessel / CoupledPinned RODS rows.
  std::vector<int> coupled_bodies;
  /// Their coupled entries: 6 (a body; a Coupled rod), 3 (a CoupledPinned rod: its End A).
  std::vector<int> coupled_width;
  /// Their deck poses: the reference point and roll, pitch, yaw [rad] of R = Rx Ry Rz (a rod's
  /// reference point is its End A, its z axis along the rod).
  std::vector<Vec6<double>> coupled_deck_pose;
  std::map<std::pair<int, char>, int> rod_point;  ///< (rod ID, 'A' / 'B') -> the system point a line uses there
  /// A RODS row in the system: the body carrying it (its own, or Body<N>'s), its ends in that
  /// body's axes and its index among the body's rods; or, for a zero-length rod, its point.
  struct RodMap {
    int body = -1;
    Vec3<double> a = Vec3<double>::Zero(), b = Vec3<double>::Zero();
    int part = -1;
    int point = -1;
    int segments = 0;  ///< NumSegs (its nodes: NumSegs + 1)
  };
  std::vector<RodMap> rods;  ///< per RODS row, in order
};

/// Builds the mooring system of a deck (read with ReadOptions::accept_unsupported, so that its
/// Free points are recorded rather than refused): every point (Fixed as anchors, Coupled and Vessel as
/// coupled points, Free with its mass, volume, CdA, Ca and force), every line as written (End
/// A at AttachA, its sections in the order of SECTIONS) with the deck's seabed. Throws
/// NotImplementedError naming the deck line for what the system route does not model yet
/// (a finite-EI line on a zero-length rod on a body or coupled, lines on a rod pinned to a
/// body,
/// unsupported requests of the reader),
/// and the InputErrors of the system (a free point no line holds, a line between one point).
///
/// A finite-EI line's end is pinned in bending but on a rod end of finite length, where it is
/// clamped along the rod's axis as MoorDyn cantilevers it (spec "Cables clamped to bodies and
/// rods"; the line continues the rod outward: d0 = +q at the rod's End B, -q at its End A,
/// q the rod's unit axis from A to B, along the line's arc length, negated at the line's End
/// B). An END CONNECTIONS row sets an end explicitly: Rigid clamps it along (EzX, EzY, EzZ), a
/// stiffness connects it by a rotational spring about that direction (in the axes the end's
/// position is written in: a BODIES body's axes for a point on it or the end of a rod on it,
/// world axes at the deck pose for a standalone rod's end and a Fixed or Coupled point; it
/// turns with its body); Pinned releases it.
inline DeckSystem build_deck_system(const Deck& deck) {
  using detail::where;
  // Read the deck with ReadOptions::accept_unsupported: free points are what this route
  // models; every other request is refused here.
  refuse_unmodelled(deck);
  const auto& o = deck.options;
  DeckSystem ds{MooringSystem<double>(deck.environment(), deck.file), {}, {}, {}, {}, {}, {}, {}, {}, {}};
  SeabedModel bed;
  if (const auto z = deck.environment().seabed_z()) {
    bed.z = *z;
    bed.params.kBot = o.kBot;
    bed.params.cBot = o.cBot;
  }
  ds.system.set_seabed(bed);
  if (o.current.model == CurrentModel::uniform)  // steady, not ramped (spec "Waves": rampTime)
    ds.system.set_current(Vec3<double>(o.current.velocity[0], o.current.velocity[1], o.current.velocity[2]));
  if (o.current.model == CurrentModel::profile || o.current.model == CurrentModel::seastate) {
    // A current that varies with depth: the statics take it at the line nodes, free points
    // and bodies (MooringSystem::set_current_field), the march from the deck's sea
    // (SystemSimulation).
    const Current c = deck_current(deck, deck.environment());
    ds.system.set_current_field([c](const Vec3<double>& x) { return c.template velocity<double>(x); });
  }
  // Bodies: built first, so that the rods fixed to them join them before they are added.
  std::vector<BodyModel<double>> bodies;
  for (const auto& b : deck.bodies) {
    BodyModel<double> m;
    m.name = "deck body " + std::to_string(b.id);
    m.kind = b.type == BodyType::free    ? BodyKind::free
             : b.type == BodyType::fixed ? BodyKind::fixed
             : b.type == BodyType::coupled_pinned ? BodyKind::pinned
                                                  : BodyKind::coupled;
    m.host_pin = b.type == BodyType::coupled_pinned;  // CoupledPinned: the host moves the pin
    m.r = Vec3<double>(b.r[0], b.r[1], b.r[2]);
    constexpr double deg = 3.14159265358979323846 / 180;
    m.R = deck_body_rotation(o, b.angles[0] * deg, b.angles[1] * deg, b.angles[2] * deg);
    m.mass = b.mass;
    m.cg = Vec3<double>(b.cg[0], b.cg[1], b.cg[2]);
    m.inertia = Vec3<double>(b.inertia[0], b.inertia[1], b.inertia[2]);
    m.volume = b.volume;
    for (int k = 0; k < 6; ++k) m.CdA(k) = b.CdA[static_cast<std::size_t>(k)];
    m.Ca = Vec3<double>(b.Ca[0], b.Ca[1], b.Ca[2]);
    m.wetting = o.body_wetting_full ? BodyWetting::full : BodyWetting::sphere;
    m.fluid_inertia = o.body_fluid_inertia;
    for (const auto& h : deck.body_hydrostatics)  // about the deck pose
      if (h.body == b.id) m.restoring = HydrostaticRestoring<double>::about(m.r, m.R, h.C33, h.C44, h.C55);
    bodies.push_back(std::move(m));
  }
  // Rods (spec "Attached objects and line ends"): a rod of NumSegs 0 or no length is a
  // massless point at End A; a Fixed, Free, Pinned, Coupled or CoupledPinned rod is a body of
  // no mass of its own carrying the rod (held, free, pinned at End A, moved by the host, or
  // pinned at an End A the host moves), its reference point at End A and its z axis along the
  // rod; a rod on Body<N> joins that body. Each rod end a line is attached to becomes a point on the rod's
  // body.
  using RodEnds = DeckSystem::RodMap;
  std::vector<RodEnds> rod_ends(deck.rods.size());
  std::vector<std::pair<std::size_t, BodyModel<double>>> rod_bodies;  // rod index, its own body
  std::vector<int> rod_own_body;  // the system's bodies that are a standalone rod's own (a frame the deck does not write)
  // The rotation that takes the z axis onto the unit vector q.
  auto z_onto = [](const Vec3<double>& q) { return so3_between<double>(Vec3<double>(0, 0, 1), q); };
  // A zero-length rod that a finite-EI line ends on is a direction joint (MoorDyn turns such a
  // rod to join the tangents of its lines): its lines are clamped along its axis.
  auto joins_cables = [&](int rod_id) {
    for (const auto& rec : deck.lines)
      if (deck.hermite(rec.id) && ((rec.node_a == 0 && rec.rod_a == rod_id) || (rec.node_b == 0 && rec.rod_b == rod_id)))
        return true;
    return false;
  };
  std::vector<std::size_t> joints;  // RODS rows that are direction joints
  std::vector<int> zero_coupled(deck.rods.size(), 0);  // a zero-length coupled rod's coupled entries (6 or 3)
  for (std::size_t i = 0; i < deck.rods.size(); ++i) {
    const auto& r = deck.rods[i];
    const RodTypeRecord* type = nullptr;
    for (const auto& t : deck.rod_types)
      if (t.name == r.type) type = &t;
    if (!type) throw InputError(where(deck.file, r.line), "RODS RodType", r.type, "a type of ROD TYPES");
    const Vec3<double> a(r.a[0], r.a[1], r.a[2]), b(r.b[0], r.b[1], r.b[2]);
    const double L = (b - a).norm();
    RodPart<double> part;
    part.name = "rod " + std::to_string(r.id);
    part.d = type->d;
    part.rho_A = type->rho_A;
    part.Cd = type->Cd;
    part.Ca = type->Ca;
    part.CdEnd = type->CdEnd;
    part.CaEnd = type->CaEnd;
    part.segments = std::max(1, r.segments);
    if ((r.segments == 0 || !(L > 0)) && joins_cables(r.id)) {
      // A direction joint: a massless body at End A, free (Free) or pinned there (Fixed, Pinned),
      // its z axis the rod's (set from its lines once they are made).
      if (r.attachment != RodAttachment::free && r.attachment != RodAttachment::fixed &&
          r.attachment != RodAttachment::pinned)
        throw NotImplementedError(where(deck.file, r.line), "RODS rod " + std::to_string(r.id),
                                  "a zero-length rod on a body or coupled, with a finite-EI line",
                                  "finite-EI lines on zero-length rods that are on bodies or coupled (a direction joint "
                                  "on a moving pin)");
      BodyModel<double> m;
      m.name = "rod " + std::to_string(r.id);
      m.kind = r.attachment == RodAttachment::free ? BodyKind::free : BodyKind::pinned;
      m.joint = true;
      m.r = a;
      rod_bodies.emplace_back(i, std::move(m));
      joints.push_back(i);
      continue;
    }
    if ((r.segments == 0 || !(L > 0)) &&
        (r.attachment == RodAttachment::coupled || r.attachment == RodAttachment::coupled_pinned)) {
      // A zero-length Coupled or CoupledPinned rod (spec: a massless point at End A, here moved
      // by the host): a coupled body of nothing but its one point at its reference point, End A,
      // which takes the rod's coupled entries in MoorDyn's order (6 for Coupled: x y z and roll
      // pitch yaw, whose turn moves nothing at the point; 3 for CoupledPinned: End A) and
      // returns its lines' load there (its moment zero: they act at the reference point).
      BodyModel<double> m;
      m.name = "rod " + std::to_string(r.id);
      m.kind = BodyKind::coupled;
      m.point_contact = false;  // a massless point: no footprint on the bed
      m.r = a;
      rod_bodies.emplace_back(i, std::move(m));
      zero_coupled[i] = r.attachment == RodAttachment::coupled_pinned ? 3 : 6;
      continue;
    }
    if (r.segments == 0 || !(L > 0)) {
      // A zero-length rod: a massless point at End A: free (Free), held (Fixed, Pinned: its End A
      // is the pin) or on a body.
      PointModel<double> pm;
      pm.name = "rod " + std::to_string(r.id);
      pm.r = a;
      switch (r.attachment) {
        case RodAttachment::fixed:
        case RodAttachment::pinned: pm.kind = PointKind::fixed; break;  // a pinned rod's End A is held
        case RodAttachment::free: pm.kind = PointKind::free; break;
        case RodAttachment::body:
        case RodAttachment::body_pinned:  // a point has no turn of its own: on the body
          pm.kind = PointKind::body;
          pm.body = r.body - 1;
          break;
        default:
          break;  // coupled: above
      }
      if ((r.attachment == RodAttachment::body || r.attachment == RodAttachment::body_pinned) &&
          (r.body < 1 || r.body > static_cast<int>(deck.bodies.size())))
        throw InputError(where(deck.file, r.line), "RODS Attachment", "Body" + std::to_string(r.body),
                         "a body of BODIES (1.." + std::to_string(deck.bodies.size()) + ")");
      rod_ends[i].point = ds.system.add_point(pm);
      rod_ends[i].segments = r.segments;
      ds.point_id.push_back(0);  // not a POINTS row
      continue;
    }
    if (r.attachment == RodAttachment::body) {
      if (r.body < 1 || r.body > static_cast<int>(bodies.size()))
        throw InputError(where(deck.file, r.line), "RODS Attachment", "Body" + std::to_string(r.body),
                         "a body of BODIES (1.." + std::to_string(bodies.size()) + ")");
      part.a = a;
      part.b = b;
      auto& carrier = bodies[static_cast<std::size_t>(r.body - 1)].rods;
      rod_ends[i] = {r.body - 1, a, b, static_cast<int>(carrier.size()), -1, r.segments};
      carrier.push_back(part);
      continue;
    }
    if (r.attachment == RodAttachment::body_pinned) {
      // A rod pinned to a body (spec: reduced coordinates): a pinned body of no mass of its own
      // carrying the rod, its pin End A on Body<N> (ends in that body's axes), its z axis along
      // the rod turned with the body's deck orientation.
      if (r.body < 1 || r.body > static_cast<int>(bodies.size()))
        throw InputError(where(deck.file, r.line), "RODS Attachment", "Body" + std::to_string(r.body) + "Pinned",
                         "a body of BODIES (1.." + std::to_string(bodies.size()) + ")");
      for (const auto& rec : deck.lines)
        if ((rec.node_a == 0 && rec.rod_a == r.id) || (rec.node_b == 0 && rec.rod_b == r.id))
          throw NotImplementedError(where(deck.file, rec.line), "LINES line " + std::to_string(rec.id),
                                    "R" + std::to_string(r.id) +
                                        (rec.node_a == 0 && rec.rod_a == r.id ? rec.rod_end_a : rec.rod_end_b),
                                    "lines on a rod pinned to a body (Body<N>Pinned)");
      BodyModel<double> m;
      m.name = "rod " + std::to_string(r.id);
      m.kind = BodyKind::pinned;
      m.point_contact = false;  // the rod's stations bear on the bed
      m.parent = r.body - 1;
      m.pin = a;
      m.R = bodies[static_cast<std::size_t>(r.body - 1)].R * z_onto((b - a) / L);
      part.a = Vec3<double>::Zero();
      part.b = Vec3<double>(0, 0, L);
      m.rods.push_back(part);
      rod_bodies.emplace_back(i, std::move(m));
      continue;
    }
    BodyModel<double> m;
    m.name = "rod " + std::to_string(r.id);
    m.kind = r.attachment == RodAttachment::fixed      ? BodyKind::fixed
             : r.attachment == RodAttachment::coupled ? BodyKind::coupled
             : r.attachment == RodAttachment::pinned || r.attachment == RodAttachment::coupled_pinned ? BodyKind::pinned
                                                                                                   : BodyKind::free;
    m.host_pin = r.attachment == RodAttachment::coupled_pinned;  // the host moves End A
    m.point_contact = false;  // the rod's stations bear on the bed
    m.r = a;
    m.R = z_onto((b - a) / L);  // the z axis along the rod
    part.a = Vec3<double>::Zero();
    part.b = Vec3<double>(0, 0, L);
    m.rods.push_back(part);
    rod_bodies.emplace_back(i, std::move(m));
  }
  // Points on bodies with a mass, volume, drag or constant force: lumped on their body at their
  // offset (as MoorDyn adds them to it; the force in global axes, as a point's).
  for (const auto& p : deck.points)
    if (p.type == PointType::body && p.attached >= 1 && p.attached <= static_cast<int>(bodies.size()) &&
        (p.mass != 0 || p.volume != 0 || p.CdA != 0 || p.force != std::array<double, 3>{})) {
      if (p.mass < 0 || p.volume < 0)
        throw InputError(where(deck.file, p.line), "POINTS Mass / Volume", std::min(p.mass, p.volume), ">= 0");
      typename BodyModel<double>::Lump k;
      k.p = Vec3<double>(p.r[0], p.r[1], p.r[2]);
      k.mass = p.mass;
      k.volume = p.volume;
      k.CdA = p.CdA;
      k.Ca = p.Ca;
      k.force = Vec3<double>(p.force[0], p.force[1], p.force[2]);
      bodies[static_cast<std::size_t>(p.attached - 1)].lumps.push_back(k);
    }
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    const auto& b = deck.bodies[k];
    try {
      const int idx = ds.system.add_body(bodies[k]);
      if (bodies[k].kind == BodyKind::coupled || bodies[k].host_pin) {
        ds.coupled_bodies.push_back(idx);
        ds.coupled_width.push_back(6);
        Vec6<double> pose;
        for (int c = 0; c < 3; ++c)
          pose(c) = b.r[static_cast<std::size_t>(c)], pose(3 + c) = b.angles[static_cast<std::size_t>(c)] * kPi / 180;
        ds.coupled_deck_pose.push_back(pose);
      }
    } catch (const InputError& e) {
      throw InputError(where(deck.file, b.line), "BODIES body " + std::to_string(b.id), e.what(), "a valid body");
    }
  }
  for (auto& [i, m] : rod_bodies) {
    const auto& r = deck.rods[i];
    try {
      const int idx = ds.system.add_body(m);
      rod_own_body.push_back(idx);
      if (zero_coupled[i] > 0 || m.joint) {
        // A direction joint or a zero-length coupled rod: its one point, at its reference point,
        // takes the lines of both ends (a joint's axis is its body z axis).
        PointModel<double> pm;
        pm.name = "rod " + std::to_string(r.id);
        pm.kind = PointKind::body;
        pm.body = idx;
        const int pt = ds.system.add_point(pm);
        ds.point_id.push_back(0);  // not a POINTS row
        rod_ends[i] = {idx, Vec3<double>::Zero(), m.joint ? Vec3<double>(0, 0, 1) : Vec3<double>::Zero(), -1, pt,
                       r.segments};
        if (zero_coupled[i] > 0) {  // the host moves it with the rod's 6 or 3 coupled entries
          ds.coupled_bodies.push_back(idx);
          ds.coupled_width.push_back(zero_coupled[i]);
          Vec6<double> pose = Vec6<double>::Zero();
          pose.head<3>() = m.r;
          ds.coupled_deck_pose.push_back(pose);
        }
        continue;
      }
      if (m.kind == BodyKind::coupled || m.host_pin) {
        ds.coupled_bodies.push_back(idx);
        ds.coupled_width.push_back(m.host_pin ? 3 : 6);
        Vec6<double> pose;
        pose.head<3>() = m.r;
        pose.tail<3>() = deck_body_angles(deck.options, m.R);
        ds.coupled_deck_pose.push_back(pose);
      }
      const double L = m.rods[0].b(2);
      rod_ends[i] = {idx, Vec3<double>::Zero(), Vec3<double>(0, 0, L), 0, -1, r.segments};
    } catch (const NotImplementedError& e) {
      throw NotImplementedError(where(deck.file, r.line), "RODS rod " + std::to_string(r.id), r.type, e.feature());
    } catch (const InputError& e) {
      throw InputError(where(deck.file, r.line), "RODS rod " + std::to_string(r.id), e.what(), "a valid rod");
    }
  }
  for (const auto& p : deck.points) {
    PointModel<double> m;
    m.name = "deck point " + std::to_string(p.id);
    m.r = Vec3<double>(p.r[0], p.r[1], p.r[2]);
    switch (p.type) {
      case PointType::fixed: m.kind = PointKind::fixed; break;
      case PointType::coupled:
      case PointType::vessel:
      case PointType::turbine:  // a coupled point of host turbine J (its r in the global frame)
      case PointType::free:
        // A free point's own mass, volume, drag and force in its equation; a coupled point's
        // in its load on the host (coupled_point_reaction).
        m.kind = p.type == PointType::free ? PointKind::free : PointKind::coupled;
        m.mass = p.mass;
        m.volume = p.volume;
        m.CdA = p.CdA;
        m.Ca = p.Ca;
        m.load = Vec3<double>(p.force[0], p.force[1], p.force[2]);
        break;
      case PointType::body:
        if (p.attached < 1 || p.attached > static_cast<int>(deck.bodies.size()))
          throw InputError(where(deck.file, p.line), "POINTS Type", "Body" + std::to_string(p.attached),
                           "a body of BODIES (1.." + std::to_string(deck.bodies.size()) + ")");
        if (p.mass < 0 || p.volume < 0)
          throw InputError(where(deck.file, p.line), "POINTS Mass / Volume", std::min(p.mass, p.volume), ">= 0");
        m.kind = PointKind::body;
        m.body = p.attached - 1;  // r: the offset from the body's reference point in body axes
        break;
    }
    if (p.type == PointType::free && (p.mass < 0 || p.volume < 0))
      throw InputError(where(deck.file, p.line), "POINTS Mass / Volume", std::min(p.mass, p.volume), ">= 0");
    const int k = ds.system.add_point(m);
    ds.point_index[p.id] = k;
    ds.point_id.push_back(p.id);
  }
  for (int id : deck.coupled_point_ids()) ds.coupled.push_back(ds.point_index.at(id));
  for (const auto& rec : deck.lines) {
    // As written: End A at AttachA, its sections first (line_sections gives them fairlead
    // first, reversed for a swapped line).
    std::vector<SectionModel<double>> secs;
    for (const auto& s : deck.line_sections(rec.id)) secs.push_back(SectionModel<double>::from(s));
    if (rec.swapped) std::reverse(secs.begin(), secs.end());
    // A rod end: a point on the rod's body at that end (made once per end), or the point of a
    // zero-length rod.
    auto rod_point = [&](int rod, char end) {
      if (rod < 1 || rod > static_cast<int>(rod_ends.size()))
        throw InputError(where(deck.file, rec.line), "LINES attachment", "R" + std::to_string(rod) + end,
                         "an end of a rod of RODS (1.." + std::to_string(rod_ends.size()) + ")");
      auto& re = rod_ends[static_cast<std::size_t>(rod - 1)];
      if (re.point >= 0) return re.point;  // a zero-length rod's point (a joint's: on its body)
      const std::pair<int, char> key(rod, end);
      const auto it = ds.rod_point.find(key);
      if (it != ds.rod_point.end()) return it->second;
      PointModel<double> pm;
      pm.name = "rod " + std::to_string(rod) + " end " + end;
      pm.kind = PointKind::body;
      pm.body = re.body;
      pm.r = end == 'A' ? re.a : re.b;
      const int k = ds.system.add_point(pm);
      ds.rod_point[key] = k;
      ds.point_id.push_back(0);
      return k;
    };
    const int a = rec.node_a != 0 ? ds.point_index.at(rec.node_a) : rod_point(rec.rod_a, rec.rod_end_a);
    const int b = rec.node_b != 0 ? ds.point_index.at(rec.node_b) : rod_point(rec.rod_b, rec.rod_end_b);
    int li = -1;
    try {
      LineModel<double> lm("line " + std::to_string(rec.id), std::move(secs), deck.environment(), bed);
      if (lm.hermite()) lm.set_quadrature(o.axial_quadrature_order, o.bending_quadrature_order);
      li = ds.system.add_line(std::move(lm), a, b);
    } catch (const InputError& e) {
      throw InputError(where(deck.file, rec.line), "LINES line " + std::to_string(rec.id), e.what(), "a valid line");
    }
    ds.line_id.push_back(rec.id);
    // MoorDyn cantilevers a finite-EI line at a rod end: its end tangent along the rod's axis,
    // the line continuing the rod outward (spec "Cables clamped to bodies and rods").
    if (!deck.hermite(rec.id)) continue;
    for (int end = 0; end < 2; ++end) {
      const int rod = end == 0 ? rec.rod_a : rec.rod_b;
      if ((end == 0 ? rec.node_a : rec.node_b) != 0) continue;
      const char rend = end == 0 ? rec.rod_end_a : rec.rod_end_b;
      const auto& re = rod_ends[static_cast<std::size_t>(rod - 1)];
      const Vec3<double> q = (re.b - re.a).normalized();  // a joint's: its z axis
      const bool outward = (end == 0) == (rend == 'B');  // End A on the rod's End B, or End B on its End A
      ds.system.clamp_end(li, end, outward ? q : Vec3<double>(-q));
    }
  }
  // END CONNECTIONS rows of the system's lines: Rigid clamps, a stiffness makes a rotational
  // spring (the direction in the axes of the end's object), Pinned releases.
  for (const auto& e : deck.end_connections) {
    const auto it = std::find(ds.line_id.begin(), ds.line_id.end(), e.line_id);
    if (it == ds.line_id.end())
      throw InputError(where(deck.file, e.line), "END CONNECTIONS LineID", e.line_id, "a line of LINES");
    const int li = static_cast<int>(it - ds.line_id.begin());
    if (e.kind == EndConnectionKind::pinned) {
      ds.system.unclamp_end(li, e.end);
      continue;
    }
    {
      const auto& P = ds.system.point(ds.system.line(li).point[e.end]);
      if (P.kind == PointKind::body && ds.system.body(P.body).joint)
        throw InputError(where(deck.file, e.line), "END CONNECTIONS row",
                         "line " + std::to_string(e.line_id) + (e.end == 0 ? " End A" : " End B") + " on zero-length " +
                             ds.system.body(P.body).name,
                         "Pinned or no row (a zero-length rod turns to join the tangents of its lines: a direction "
                         "written for it would be ambiguous)");
    }
    try {
      Vec3<double> d0(e.direction[0], e.direction[1], e.direction[2]);
      // A standalone rod's end: the deck writes the rod in world axes, so its direction too (at
      // the deck pose; it turns with the rod), not in the rod body's internal axes.
      const auto& P = ds.system.point(ds.system.line(li).point[e.end]);
      if (P.kind == PointKind::body && std::find(rod_own_body.begin(), rod_own_body.end(), P.body) != rod_own_body.end())
        d0 = ds.system.body(P.body).R.transpose() * d0;
      if (e.kind == EndConnectionKind::rigid) ds.system.clamp_end(li, e.end, d0);
      else ds.system.spring_end(li, e.end, d0, e.stiffness);
    } catch (const InputError& x) {
      throw InputError(where(deck.file, e.line), "END CONNECTIONS row", x.what(), "a clampable line end");
    }
  }
  // Each direction joint's start axis: the mean of the chords of its clamped lines from it,
  // each taken along the line's arc length (End A on the joint: outward; End B: inward) and
  // signed by its clamp (d0 = +-z). The statics turns it to balance the lines' moments.
  auto deck_position = [&](int p) {
    const auto& P = ds.system.point(p);
    if (P.kind != PointKind::body) return P.r;
    const auto& B = ds.system.body(P.body);
    return Vec3<double>(B.r + B.R * P.r);
  };
  for (const std::size_t i : joints) {
    const auto& re = rod_ends[i];
    Vec3<double> q = Vec3<double>::Zero();
    const Vec3<double> x0 = ds.system.body(re.body).r;
    for (std::size_t l = 0; l < ds.system.n_lines(); ++l)
      for (int e = 0; e < 2; ++e) {
        const auto& L = ds.system.line(static_cast<int>(l));
        if (L.point[e] != re.point || !L.clamped[e]) continue;
        const Vec3<double> c = deck_position(L.point[1 - e]) - x0;
        if (!(c.norm() > 0)) continue;
        q += (e == 0 ? 1.0 : -1.0) * (L.clamp_dir[e](2) > 0 ? 1.0 : -1.0) * c.normalized();
      }
    if (q.norm() > 1e-9 * (1 + q.norm())) ds.system.body(re.body).R = z_onto(q.normalized());
  }
  try {
    ds.system.renumber();
  } catch (const InputError& e) {
    throw InputError(deck.file, "system", e.what(), "every free point held by a line, every joint by a clamped line");
  }
  ds.rods = std::move(rod_ends);
  return ds;
}

}  // namespace cabledyn::io
