// cabledyn: what the driver's routes share: the run settings, the command line's --tmax and
// --dtm over the deck's TMax and dtM, and the prescribed kinematics of a point (a motionFile
// track, the deck's harmonic fairleadMotion ramped from rest, or held).
// Spec "Prescribed motion" (held DOFs on their motion; the quintic C2 start-up ramp),
// DECK_FORMAT.md (TMax, dtM, motionFile, fairleadMotion).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cabledyn/dynamics/end_motion.hpp"
#include "cabledyn/io/deck.hpp"
#include "cabledyn/io/motion.hpp"

namespace cabledyn::io {

/// Settings of a driver run.
struct RunSettings {
  std::string root = "cabledyn";  ///< output path prefix: <root>.out, <root>.static.out, ...
  bool static_only = false;       ///< `--static`: statics (and modes) only
  std::optional<double> tmax;     ///< `--tmax`: the run length, over the deck's TMax
  std::optional<double> dtm;      ///< `--dtm`: the time step, over the deck's dtM
  /// `--motion`: a motionFile (a path as given, not relative to the deck) over the deck's
  /// motionFile and fairleadMotion.
  std::optional<std::string> motion_file;
  bool plots = true;              ///< write the SVG figures
  bool progress = true;           ///< progress bar on stderr for runs over a second
  std::ostream* log = &std::cerr; ///< messages (nullptr: quiet)
  /// Keep every output row in memory (times(), channel_rows()) besides writing it; the
  /// `cabledyn` program does not, so that its memory does not grow with the run.
  bool keep_history = true;
  /// Checked after every committed step: when set (the program's SIGINT handler sets it) the
  /// run stops there, its outputs complete up to that step, the summary says so, and run()
  /// throws InterruptedError.
  const volatile std::sig_atomic_t* stop = nullptr;
  /// `--restart-check T`: at the first step at or after T the states of the lines are copied;
  /// at the end of the run they are restored and the rest of the run repeated, and every
  /// output of the repeat must equal the first pass's bit for bit (else SolveError).
  std::optional<double> restart_check;
  /// The system route: step each connected component with a stepper of its own (true, the
  /// default) or the system as one (SystemSimulation::set_split_components; docs/systems.md,
  /// "Components stepped apart").
  bool split_components = true;
};

/// The progress bar of a march on RunSettings::log (with RunSettings::progress): shown once
/// the run has taken a second, redrawn at each whole per cent ("[####   ] 40 % t = 12 s"),
/// ended with a newline when the march ends (or fails: the destructor).
class ProgressBar {
 public:
  explicit ProgressBar(const RunSettings& s)
      : log_(s.progress ? s.log : nullptr), start_(std::chrono::steady_clock::now()) {}
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar() { finish(); }
  /// After step s of n, at time t [s].
  void update(long long s, long long n, double t) {
    if (!log_ || n <= 0) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const int pct = static_cast<int>(100.0 * static_cast<double>(s) / static_cast<double>(n));
    if (el > 1.0 && pct != shown_) {
      shown_ = pct;
      *log_ << "\r[" << std::string(static_cast<std::size_t>(pct / 4), '#')
            << std::string(static_cast<std::size_t>(25 - pct / 4), ' ') << "] " << pct << " % t = " << t << " s"
            << std::flush;
    }
  }
  /// Ends the bar's line (once; nothing when it was never shown).
  void finish() {
    if (shown_ >= 0 && log_) *log_ << "\n";
    shown_ = -1;
  }

 private:
  std::ostream* log_;
  std::chrono::steady_clock::time_point start_;
  int shown_ = -1;
};

/// The restart check's comparison (--restart-check): the output row r of the repeat at time
/// t must equal the first pass's row a bit for bit; otherwise a SolveError names the deck, the
/// restart time t0, the first output that differs and both values.
inline void require_repeated_row(const std::string& file, double t0, double t, const std::vector<double>& r,
                                 const std::vector<double>& a) {
  if (r.size() == a.size() && std::memcmp(r.data(), a.data(), r.size() * sizeof(double)) == 0) return;
  std::size_t i = 0;
  while (i < r.size() && i < a.size() && std::memcmp(&r[i], &a[i], sizeof(double)) == 0) ++i;
  throw SolveError(file + ": restart from t = " + cabledyn::to_text(t0) + " s",
                   "output " + std::to_string(i + 1) + " at t = " + cabledyn::to_text(t) + " s",
                   cabledyn::to_text(i < r.size() ? r[i] : 0.0) + " vs " + cabledyn::to_text(i < a.size() ? a[i] : 0.0),
                   "the first pass's value, bit for bit");
}

/// Applies --tmax and --dtm over the deck's TMax and dtM, with the deck's rules (dtM > 0,
/// TMax a multiple of dtM), and a --motion file over the deck's motionFile and
/// fairleadMotion. Returns where the run length comes from (for the summary). Throws
/// InputError naming the command line or the deck.
inline std::string apply_run_overrides(Deck& deck, const RunSettings& set) {
  Options& o = deck.options;
  const std::string who = "command line";
  if (set.dtm) {
    if (!(std::isfinite(*set.dtm) && *set.dtm > 0)) throw InputError(who, "--dtm", *set.dtm, "> 0");
    o.dtM = *set.dtm;
  }
  if (set.tmax) {
    if (!(std::isfinite(*set.tmax) && *set.tmax >= 0)) throw InputError(who, "--tmax", *set.tmax, ">= 0");
    if (!o.dtM) throw InputError(who, "--tmax", *set.tmax, "a deck with dtM (or --dtm)");
    o.TMax = *set.tmax;
  }
  if (o.dynamic()) {
    const double ratio = *o.TMax / *o.dtM;
    if (!(ratio <= 2147483647.0)) throw InputError(who, "TMax / dtM", ratio, "<= 2147483647 steps");
    if (std::fabs(*o.TMax - std::round(ratio) * *o.dtM) > 1e-9 * std::max(*o.TMax, *o.dtM))
      throw InputError(set.tmax || set.dtm ? who : deck.file, "TMax", *o.TMax,
                       "a multiple of dtM = " + cabledyn::to_text(*o.dtM));
  }
  if (set.motion_file) {
    o.motionFile = *set.motion_file;
    o.fairleadMotion.reset();
  }
  if (set.tmax) return "--tmax";
  if (o.TMax) return "TMax, " + deck.file + ":" + std::to_string(o.line_of("TMax"));
  return "";
}

/// Adds the deck's harmonic fairlead motion at t (fairleadMotion, ramped in over the larger of
/// its period and rampTime with the quintic smoothstep) to m: the motion of every Coupled /
/// Vessel point and the translation of every Coupled / Vessel body (for a rotational mode,
/// the vessel's Euler angles).
inline void add_harmonic_motion(const Deck& deck, double t, EndMotion& m) {
  const auto h = harmonic_motion(*deck.options.fairleadMotion, t);
  const SmoothStep s = quintic_smoothstep(t, std::max(deck.options.fairleadMotion->period, deck.options.rampTime));
  const Vec3<double> x(h.x[0], h.x[1], h.x[2]), v(h.v[0], h.v[1], h.v[2]), a(h.a[0], h.a[1], h.a[2]);
  m.x += s.r * x;
  m.v = s.rd * x + s.r * v;
  m.a = s.rdd * x + 2 * s.rd * v + s.r * a;
}

/// The deck's vessel (vesselRef) at time t (spec "Prescribed vessel motion"): on its
/// motionFile track, or moved by the deck's fairleadMotion in a dynamic run (ramped as
/// add_harmonic_motion: a translation of its reference point or a rotation about it), or at
/// its reference pose.
inline VesselKinematics deck_vessel(const Deck& deck, const MotionTracks* motion, double t, bool dynamic) {
  const auto& ref = *deck.options.vesselRef;
  if (motion && motion->vessel) return motion->vessel->at(t);
  EndMotion tr, ang;
  tr.x = Vec3<double>(ref[0], ref[1], ref[2]);
  if (!motion && deck.options.fairleadMotion && dynamic)
    add_harmonic_motion(deck, t, rotational(deck.options.fairleadMotion->mode) ? ang : tr);
  PointKinematics r, a;
  for (int c = 0; c < 3; ++c) {
    r.x[c] = tr.x(c), r.v[c] = tr.v(c), r.a[c] = tr.a(c);
    a.x[c] = ang.x(c), a.v[c] = ang.v(c), a.a[c] = ang.a(c);
  }
  return VesselKinematics::of(r, a);
}

/// The vessel requests the driver's routes do not model, refused before anything is solved
/// (NotImplementedError naming the deck line): a vessel with Coupled bodies or rods (they take
/// their own motion), and a Rigid or spring END CONNECTIONS direction at a point the vessel
/// may turn (a motionFile or a roll, pitch or yaw fairleadMotion): its d0 would have to turn
/// with the vessel (spec "Prescribed vessel motion", d0(t) = R(t) d0), which the lines' held
/// ends do not.
inline void check_vessel(const Deck& deck) {
  const auto& o = deck.options;
  if (!o.vesselRef) return;
  const std::string at = detail::where(deck.file, o.line_of("vesselRef"));
  for (const BodyRecord& b : deck.bodies)
    if (b.type == BodyType::coupled || b.type == BodyType::coupled_pinned)
      throw NotImplementedError(at, "vesselRef", "with Coupled body " + std::to_string(b.id),
                                "a vessel that carries Coupled/Vessel points only (Coupled bodies and rods take their "
                                "own motion: a motionFile in the coupled-DOF layout)");
  for (const RodRecord& r : deck.rods)
    if (r.attachment == RodAttachment::coupled || r.attachment == RodAttachment::coupled_pinned)
      throw NotImplementedError(at, "vesselRef", "with Coupled rod " + std::to_string(r.id),
                                "a vessel that carries Coupled/Vessel points only (Coupled bodies and rods take their "
                                "own motion: a motionFile in the coupled-DOF layout)");
  const bool turns = o.motionFile || (o.fairleadMotion && rotational(o.fairleadMotion->mode));
  if (!turns) return;
  for (const auto& e : deck.end_connections) {
    if (e.kind == EndConnectionKind::pinned) continue;
    const LineRecord* L = deck.find_line(e.line_id);
    if (!L) continue;
    const PointRecord* p = deck.find_point(e.end == 0 ? L->node_a : L->node_b);
    if (p && p->moving())
      throw NotImplementedError(detail::where(deck.file, e.line), "END CONNECTIONS line " + std::to_string(e.line_id),
                                "a Rigid or spring end at vessel point " + std::to_string(p->id),
                                "a pinned end at a point the vessel turns (the end direction d0 does not turn with the "
                                "vessel yet)");
  }
}

/// The kinematics of point `pid` at time t: a Fixed (or Free) point at its deck position; a
/// Coupled / Vessel point on its motionFile track (`motion`), or moved by the deck's
/// fairleadMotion in a dynamic run (ramped from rest over max(one period, rampTime) by a
/// quintic C2 ramp, as the spec advises: "ramp it from rest ... to avoid a start-up
/// transient"), or held.
inline EndMotion prescribed_point_motion(const Deck& deck, const MotionTracks* motion, int pid, double t, bool dynamic) {
  const auto* p = deck.find_point(pid);
  if (!p) throw InputError(deck.file, "point ID", pid, "a point of POINTS");
  EndMotion m;
  m.x = Vec3<double>(p->r[0], p->r[1], p->r[2]);
  if (!p->moving()) return m;
  if (deck.options.vesselRef) {  // carried by the vessel at its offset from the reference point
    const auto& ref = *deck.options.vesselRef;
    const PointKinematics k =
        deck_vessel(deck, motion, t, dynamic).carry(Vec3<double>(p->r[0] - ref[0], p->r[1] - ref[1], p->r[2] - ref[2]));
    for (int c = 0; c < 3; ++c) m.x(c) = k.x[c], m.v(c) = k.v[c], m.a(c) = k.a[c];
    return m;
  }
  if (motion) {
    if (const MotionTrack* tr = motion->find(pid)) {
      const PointKinematics k = tr->at(t);
      m.x = Vec3<double>(k.x[0], k.x[1], k.x[2]);
      m.v = Vec3<double>(k.v[0], k.v[1], k.v[2]);
      m.a = Vec3<double>(k.a[0], k.a[1], k.a[2]);
    }
    return m;
  }
  if (deck.options.fairleadMotion && dynamic) add_harmonic_motion(deck, t, m);
  return m;
}

}  // namespace cabledyn::io
