// cabledyn: the checks of a deck's lines before any solve (spec "Static equilibrium": a line
// must reach between its ends; the prescribed motion over the run within reach and above the
// seabed; spec "Hermite path": a mesh coarser than the bending length noted), the prescribed
// motion of its points (PointMotions), and the deck context of the errors raised inside a
// line's solvers. The system route (io/system_runner.hpp) runs them. docs/driver.md.
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cabledyn/dynamics.hpp"
#include "cabledyn/io/deck.hpp"
#include "cabledyn/io/motion.hpp"
#include "cabledyn/io/run_settings.hpp"
#include "cabledyn/statics.hpp"

namespace cabledyn::io {

/// The prescribed kinematics of the deck's points over a run.
struct PointMotions {
  const Deck* deck = nullptr;
  const MotionTracks* tracks = nullptr;  ///< the motionFile's, or none
  bool dynamic = false;                  ///< a dynamic run (fairleadMotion applies)

  /// The kinematics of point `pid` at time t: a Fixed point at its deck position; a moving
  /// point on its motionFile track, or moved by fairleadMotion (ramped), or held.
  EndMotion operator()(int pid, double t) const { return prescribed_point_motion(*deck, tracks, pid, t, dynamic); }

};

/// "deck.dat:18 (line 1)": the LINES row of a line, for errors raised inside its solvers.
inline std::string line_context(const Deck& deck, int id) {
  const LineRecord* r = deck.find_line(id);
  return detail::where(deck.file, r ? r->line : 0) + " (line " + std::to_string(id) + ")";
}

namespace detail {
/// Throws e again, of the same kind, its object prefixed with the deck line of line `id`
/// (as is when it names the deck already).
[[noreturn]] inline void rethrow_in_line_context(const Deck& deck, int id, const Error& e) {
  if (e.object().rfind(deck.file + ":", 0) == 0) throw;  // already names the deck
  const std::string obj = line_context(deck, id) + ": " + e.object();
  if (dynamic_cast<const SolveError*>(&e)) throw SolveError(obj, e.quantity(), e.value(), e.limit());
  if (dynamic_cast<const DomainError*>(&e)) throw DomainError(obj, e.quantity(), e.value(), e.limit());
  throw InputError(obj, e.quantity(), e.value(), e.limit());
}
}  // namespace detail

namespace detail {
/// Runs f; an error it throws (other than NotImplementedError and InterruptedError) is thrown
/// again by rethrow_in_line_context for the line id_of(e) names, or as it is where id_of
/// names none (nullopt).
template <class F, class IdOf>
void with_line_context(const Deck& deck, F&& f, IdOf&& id_of) {
  try {
    f();
  } catch (const NotImplementedError&) {
    throw;
  } catch (const InterruptedError&) {
    throw;
  } catch (const Error& e) {
    const std::optional<int> id = id_of(e);
    if (!id) throw;
    rethrow_in_line_context(deck, *id, e);
  }
}
}  // namespace detail

/// Runs f; an error it throws is thrown again, of the same kind, its object prefixed with
/// the deck line of line `id` (the solvers name their own objects, the user needs the deck's).
template <class F>
void in_line_context(const Deck& deck, int id, F&& f) {
  detail::with_line_context(deck, std::forward<F>(f), [id](const Error&) { return std::optional<int>(id); });
}

/// Runs f; an error whose object names a line of the deck as a mooring system names its
/// lines ("line 2", "line 2 statics ...") is thrown again as in_line_context throws it, with
/// the deck line of that line in front; any other error as it is.
template <class F>
void in_named_line_context(const Deck& deck, F&& f) {
  detail::with_line_context(deck, std::forward<F>(f), [&deck](const Error& e) -> std::optional<int> {
    const std::string& o = e.object();
    if (o.rfind("line ", 0) != 0) return std::nullopt;
    std::size_t i = 5;
    int id = 0;
    while (i < o.size() && i < 14 && o[i] >= '0' && o[i] <= '9') id = 10 * id + (o[i++] - '0');
    if (i == 5 || (i < o.size() && o[i] != ':' && o[i] != ' ') || !deck.find_line(id)) return std::nullopt;
    return id;
  });
}

/// The note on a static line shape that leaves the vertical plane of its ends with no load
/// across it (no current: weight, buoyancy and a flat seabed act in the plane): it has buckled
/// out of the plane (compression held by bending), and its mirror image in the plane is an
/// equilibrium too, so which of the two the statics reach is not set by the deck. None where
/// the largest distance from the plane is within 1e-4 of the line length plus 1 mm, or the
/// chord is vertical (no plane). node(i) gives the position of node i of n; `escaped`: the
/// statics left the unstable in-plane state along its lowest mode (HermiteStatics'
/// escape_along note).
template <class Node>
std::optional<std::string> out_of_plane_note(std::size_t n, const Node& node, double length, bool escaped) {
  if (n < 2) return std::nullopt;
  const Vec3<double> a = node(0), b = node(n - 1);
  Vec3<double> nrm(-(b(1) - a(1)), b(0) - a(0), 0.0);
  if (!(nrm.norm() > 1e-9 * length)) return std::nullopt;  // a vertical chord: no plane
  nrm.normalize();
  double dev = 0;
  for (std::size_t i = 0; i < n; ++i) dev = std::max(dev, std::fabs((node(i) - a).dot(nrm)));
  if (!(dev > 1e-4 * length + 1e-3)) return std::nullopt;
  std::ostringstream os;
  os << "the static shape leaves the vertical plane of the line's ends by " << dev
     << " m with no load across it: a buckled equilibrium (compression held by bending), whose mirror image "
        "is an equilibrium too; "
     << (escaped ? "the statics left the unstable in-plane state along its lowest mode to the side the line's "
                   "geometry sets, not the deck's frame"
                 : "which of the two the statics reach is not set by the deck (a rotated deck may reach the other)");
  return os.str();
}

namespace detail {
/// True when height z lies below the deck's seabed (WtrDpth), beyond a round-off margin.
inline bool below_seabed(const Environment& env, double z) { return env.depth && z < -*env.depth - 1e-6 * (1 + *env.depth); }
/// The limit of the "below the seabed" errors.
inline std::string seabed_limit(const Environment& env) { return ">= -WtrDpth = " + cabledyn::to_text(-*env.depth) + " m"; }
/// Throws the InputError of POINTS row `pid` at height z below the seabed, naming its deck line.
[[noreturn]] inline void throw_point_below_seabed(const Deck& deck, const Environment& env, int pid, double z) {
  const PointRecord* p = deck.find_point(pid);
  throw InputError(detail::where(deck.file, p ? p->line : 0) + " (point " + std::to_string(pid) + ")", "z", z,
                   seabed_limit(env) + ": the point is below the seabed");
}
}  // namespace detail

/// What can be checked before solving (spec "Static equilibrium": a line must reach between
/// its ends): the ends apart, within reach (a chord below 2 L, strain 1), and not below the
/// seabed. Throws InputError naming the deck line.
template <class Unused = void>
void check_line_geometry(const Deck& deck, const Environment& env, const LineRecord& rec, const Vec3<double>& a,
                         const Vec3<double>& b) {
  double length = 0;
  for (const auto& s : deck.sections_of(rec.id)) length += s.length;
  const double chord = (b - a).norm();
  const std::string ctx = line_context(deck, rec.id);
  if (!(chord > 1e-9 * (1 + length)))
    throw InputError(ctx, "chord between the ends", chord,
                     "> 0: the ends coincide (a loop hanging from one point is not supported: the statics seed from the chord)");
  if (!(chord < 2 * length))
    throw InputError(ctx, "chord between the ends", chord,
                     "< 2 L = " + cabledyn::to_text(2 * length) + " m: the line would stretch beyond strain 1");
  for (int end = 0; end < 2; ++end) {
    const Vec3<double>& x = end == 0 ? a : b;
    if (detail::below_seabed(env, x(2))) detail::throw_point_below_seabed(deck, env, end == 0 ? rec.fairlead() : rec.anchor(), x(2));
  }
}

/// True when both ends of a LINES row are held POINTS rows (Fixed, Coupled or Vessel): points
/// whose positions over the run are known before any solve.
inline bool line_between_held_points(const Deck& deck, const LineRecord& rec) {
  for (int pid : {rec.node_a, rec.node_b}) {
    const PointRecord* p = pid > 0 ? deck.find_point(pid) : nullptr;
    if (!p || !(p->type == PointType::fixed || p->moving())) return false;
  }
  return true;
}

/// The held POINTS rows (Fixed, Coupled, Vessel) at their deck positions not below the seabed
/// (spec "Seabed contact": the seabed holds nodes above it; an anchor under it is a deck
/// error). Throws InputError naming the point's deck line.
template <class Unused = void>
void check_held_points_above_seabed(const Deck& deck, const Environment& env) {
  for (const auto& p : deck.points)
    if ((p.type == PointType::fixed || p.moving()) && detail::below_seabed(env, p.r[2]))
      detail::throw_point_below_seabed(deck, env, p.id, p.r[2]);
}

/// The prescribed motion over the run, checked before the march: every line within reach of
/// its ends and no moving point below the seabed, at each motion-table sample and at every
/// sixteenth of a fairleadMotion period over the run (its ramp included): the lines between
/// held points (line_between_held_points; the other lines' ends are solved for).
template <class Unused = void>
void check_motion_envelope(const Deck& deck, const Environment& env, const PointMotions& motion) {
  std::vector<double> times;
  const double tmax = *deck.options.TMax;
  if (motion.tracks) {
    for (const auto& [id, tr] : motion.tracks->tracks)
      for (double t : tr.times())
        if (t >= 0 && t <= tmax) times.push_back(t);
    if (motion.tracks->vessel)
      for (double t : motion.tracks->vessel->position.times())
        if (t >= 0 && t <= tmax) times.push_back(t);
  } else if (deck.options.fairleadMotion) {
    // Every sixteenth of a period over the run (at most 4096 samples), the ramp included.
    const double T = deck.options.fairleadMotion->period;
    const double h = std::max(T / 16, tmax / 4096);
    for (double t = 0; t <= tmax; t += h) times.push_back(t);
    times.push_back(tmax);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  const std::string src =
      motion.tracks ? motion.tracks->file : deck.file + ":" + std::to_string(deck.options.line_of("fairleadMotion"));
  for (double t : times) {
    for (const auto& rec : deck.lines) {
      if (!line_between_held_points(deck, rec)) continue;
      const Vec3<double> a = motion(rec.fairlead(), t).x, b = motion(rec.anchor(), t).x;
      double length = 0;
      for (const auto& s : deck.sections_of(rec.id)) length += s.length;
      const double chord = (b - a).norm();
      if (!(chord < 2 * length) || !(chord > 0))
        throw InputError(src + ": t = " + cabledyn::to_text(t) + " s", "chord of line " + std::to_string(rec.id), chord,
                         "in (0, 2 L = " + cabledyn::to_text(2 * length) +
                             " m): the motion would stretch the line beyond strain 1 (or bring its ends together)");
      for (const Vec3<double>* x : {&a, &b})
        if (detail::below_seabed(env, (*x)(2)))
          throw InputError(src + ": t = " + cabledyn::to_text(t) + " s", "z of a moving point of line " + std::to_string(rec.id),
                           (*x)(2), detail::seabed_limit(env) + ": below the seabed");
    }
  }
}

/// A note for each moving point of the motionFile that starts away from its deck position
/// (the statics hold it at the table's t = 0 position).
inline std::vector<std::string> motion_start_notes(const Deck& deck, const PointMotions& motion) {
  std::vector<std::string> notes;
  if (!motion.tracks) return notes;
  for (const auto& p : deck.points) {
    if (!p.moving() || (!motion.tracks->vessel && !motion.tracks->find(p.id))) continue;
    const Vec3<double> x0 = motion(p.id, 0.0).x;
    const double off = std::hypot(x0[0] - p.r[0], x0[1] - p.r[1], x0[2] - p.r[2]);
    if (off > 1e-9 * (1 + std::hypot(p.r[0], p.r[1], p.r[2])))
      notes.push_back(motion.tracks->file + ": point " + std::to_string(p.id) + " starts at the motionFile's t = 0 position (" +
                      cabledyn::to_text(x0[0]) + ", " + cabledyn::to_text(x0[1]) + ", " + cabledyn::to_text(x0[2]) + "), " +
                      cabledyn::to_text(off) + " m from its deck position: the statics hold it there");
  }
  return notes;
}

/// A note for each finite-EI section of a LINES row meshed coarser than twice its bending
/// length (EI/|w|)^(1/3): its mesh does not resolve the static shape near the touchdown and
/// the ends (spec "Hermite path": adaptive refinement is a later issue).
inline std::vector<std::string> coarse_mesh_notes(const Deck& deck, const Environment& env, const LineRecord& rec) {
  std::vector<std::string> notes;
  for (const auto& sec : deck.sections_of(rec.id)) {
    const auto* ty = deck.find_line_type(sec.type);
    if (!ty || !(ty->type.EI > 0)) continue;
    const double w = std::fabs(ty->type.submerged_weight(env));
    if (!(w > 0)) continue;
    const double lb = std::cbrt(ty->type.EI / w), L0 = sec.length / sec.segments;
    if (L0 > 2 * lb)
      notes.push_back(detail::where(deck.file, sec.line) + ": line " + std::to_string(rec.id) + ": elements of " +
                      cabledyn::to_text(L0) + " m, over twice the bending length (EI/|w|)^(1/3) = " +
                      cabledyn::to_text(lb) + " m: the static shape, curvature and node tensions near the "
                      "touchdown and the ends are not resolved (at least " +
                      std::to_string(static_cast<long long>(std::ceil(sec.length / (2 * lb)))) + " elements)");
  }
  return notes;
}

}  // namespace cabledyn::io
