// cabledyn: prescribed fairlead motion of a deck: the motionFile (rows `t id x y z vx vy vz
// ax ay az`, DECK_FORMAT.md) and the harmonic `fairleadMotion` option.
// Spec "Prescribed motion": the prescribed position, velocity and acceleration of a moving
// line end enter the step; the core does not ramp them.
//
// motionFile: the deck's lexical rules (`#`, `!`, `%` and `--` comments, rows without a
// numeric token skipped as headers), one row per point and time: time t [s], the point ID
// (a Coupled or Vessel point of the deck), its absolute position [m], velocity [m/s] and
// acceleration [m/s^2]. Further columns (the roll column of torsion) must be 0. Against a
// deck, every point listed has one row at every step t = k dtM, k = 0 .. TMax / dtM (the
// dtM grid), in increasing time; points not listed are held at their deck position.
#pragma once

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/io/deck.hpp"
#include "cabledyn/io/detail/deck_lexer.hpp"

namespace cabledyn::io {

/// Prescribed kinematics of a point at one time.
struct PointKinematics {
  std::array<double, 3> x{};  ///< position [m]
  std::array<double, 3> v{};  ///< velocity [m/s]
  std::array<double, 3> a{};  ///< acceleration [m/s^2]
};

/// One motionFile row.
struct MotionRow {
  double t = 0;  ///< time [s]
  int id = 0;    ///< point ID
  PointKinematics k;
  int line = 0;  ///< source line
};

/// A parsed motionFile.
struct MotionTable {
  std::string file = "motion";
  std::vector<MotionRow> rows;
};

/// Parses a motionFile from its text; `file` names it in errors. Throws InputError naming
/// file:line and the column.
inline MotionTable parse_motion(std::string_view text, std::string file = "motion") {
  using namespace detail;
  MotionTable m;
  m.file = std::move(file);
  const char* names[] = {"t", "id", "x", "y", "z", "vx", "vy", "vz", "ax", "ay", "az"};
  std::size_t pos = 0;
  int line = 0;
  while (true) {
    const std::size_t nl = text.find('\n', pos);
    const std::string_view raw = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    ++line;
    const std::vector<Token> t = tokenize(strip_dash_comment(strip_hash_comment(raw)), m.file, line);
    bool numeric = false;
    for (const Token& k : t) numeric = numeric || looks_numeric(k.text);
    if (numeric) {
      auto c = [&](std::size_t k) {
        return "motionFile column " + std::to_string(k + 1) + " (" + (k < 11 ? names[k] : "extra") + ")";
      };
      if (t.size() < 11) fail(m.file, line, c(t.size()), "missing", "t id x y z vx vy vz ax ay az");
      MotionRow r;
      r.line = line;
      auto num = [&](std::size_t k) {
        const auto v = to_double(t[k].text);
        if (!v) fail(m.file, line, c(k), t[k].text, "a finite number");
        return *v;
      };
      r.t = num(0);
      if (r.t < 0) fail(m.file, line, c(0), t[0].text, ">= 0");
      const auto id = to_integer(t[1].text);
      if (!id || *id < 1 || *id > 999999999) fail(m.file, line, c(1), t[1].text, "a point ID in [1, 999999999]");
      r.id = static_cast<int>(*id);
      for (int k = 0; k < 3; ++k) {
        r.k.x[k] = num(2 + k);
        r.k.v[k] = num(5 + k);
        r.k.a[k] = num(8 + k);
      }
      for (std::size_t k = 11; k < t.size(); ++k)
        if (num(k) != 0) fail(m.file, line, c(k), t[k].text, "0: the roll column (torsion) is not implemented");
      m.rows.push_back(r);
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return m;
}

/// Reads and parses the motionFile at `path`. Throws InputError when it cannot be read.
inline MotionTable read_motion(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "motionFile", "cannot be opened", "a readable file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_motion(ss.str(), path);
}

/// The path of a file a deck names (motionFile): as given when absolute, else relative to
/// the deck's folder.
inline std::string deck_relative_path(const Deck& deck, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  return (std::filesystem::path(deck.file).parent_path() / p).string();
}

/// The motion of each point of the table on the deck's dtM grid: tracks[id][k] is the row at
/// t = k dtM, k = 0 .. TMax / dtM. Throws InputError (naming the motionFile line) when the deck
/// is static, a point is not a Coupled/Vessel point of the deck, a time is off the grid or out
/// of order, or a point misses a step.
inline std::map<int, std::vector<PointKinematics>> motion_tracks(const MotionTable& m, const Deck& deck) {
  using detail::fail;
  const Options& o = deck.options;
  if (!o.dynamic())
    fail(deck.file, o.line_of("motionFile"), "motionFile", m.file, "a dynamic deck (dtM and TMax)");
  const double dt = *o.dtM;
  const long long steps = o.steps();
  std::map<int, std::vector<PointKinematics>> tracks;
  for (const MotionRow& r : m.rows) {
    const PointRecord* p = deck.find_point(r.id);
    if (!p || !p->moving())
      detail::fail(m.file, r.line, "motionFile column 2 (id)", std::to_string(r.id), "a Coupled or Vessel point of the deck");
    const double kf = r.t / dt;
    const double k = std::round(kf);
    if (std::fabs(kf - k) > 1e-6)
      fail(m.file, r.line, "motionFile column 1 (t)", detail::number_text(r.t), "a multiple of dtM = " + detail::number_text(dt));
    if (k > static_cast<double>(steps)) continue;  // beyond TMax
    auto& track = tracks[r.id];
    if (static_cast<double>(track.size()) != k)
      fail(m.file, r.line, "motionFile column 1 (t)", detail::number_text(r.t),
           "the next step of point " + std::to_string(r.id) + ": t = " +
               detail::number_text(static_cast<double>(track.size()) * dt) + " (one row per step, in order)");
    track.push_back(r.k);
  }
  for (const auto& [id, track] : tracks)
    if (static_cast<long long>(track.size()) != steps + 1)
      fail(m.file, m.rows.empty() ? 0 : m.rows.back().line, "motionFile rows of point " + std::to_string(id),
           std::to_string(track.size()), "one per step up to TMax: " + std::to_string(steps + 1));
  return tracks;
}

/// The harmonic fairlead motion at time t: the offset from the deck position, its velocity and
/// acceleration, x = A sin(omega t + phase) along the mode's axis, omega = 2 pi / T.
inline PointKinematics harmonic_motion(const FairleadMotion& f, double t) {
  const double w = 2 * kPi / f.period;
  const double th = w * t + f.phase_deg * kPi / 180.0;
  const int axis = f.mode == MotionMode::surge ? 0 : f.mode == MotionMode::sway ? 1 : 2;
  PointKinematics k;
  k.x[axis] = f.amplitude * std::sin(th);
  k.v[axis] = f.amplitude * w * std::cos(th);
  k.a[axis] = -f.amplitude * w * w * std::sin(th);
  return k;
}

}  // namespace cabledyn::io
