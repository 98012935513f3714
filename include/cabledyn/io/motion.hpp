// cabledyn: prescribed motion of a deck's Coupled, Vessel and Turbine<J> points: the motionFile (any
// sampling, interpolated to C2) and the harmonic `fairleadMotion` option.
// Spec "Prescribed motion": the prescribed position, velocity and acceleration of a moving
// line end enter the step; the core does not ramp them.
//
// A motionFile is a table of numbers (the deck's comment rules; rows without a numeric token
// are headers; values separated by blanks, tabs or commas) in one of three layouts, told apart
// by the number of values per row against the deck's coupled points (P of them, Coupled,
// Vessel and Turbine<J>, in the host's order: Deck::coupled_point_ids, by turbine, POINTS order
// within each):
//   - MoorDyn's coupled-DOF layout: `t x1 y1 z1 x2 y2 z2 ...`, 1 + 3 P values (what a host hands
//     MoorDyn_Step, one row per time), or `t x1 y1 z1 roll1 pitch1 yaw1 ...`, 1 + 6 P values
//     with every rotation 0 (a point has none);
//   - `t id x y z`: positions of the point `id`, one row per point and time;
//   - `t id x y z vx vy vz ax ay az [0 ...]`: positions, velocities and accelerations.
// Times increase (per point in the `id` layouts), any sampling. Between samples the motion is
// a quintic Hermite interpolant: of the given position, velocity and acceleration in the full
// layout (C2, exact at the samples), of the not-a-knot cubic spline through the positions
// otherwise (C2; two samples: linear, one: constant). The table must cover [0, TMax].
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/quintic.hpp"
#include "cabledyn/core/so3.hpp"
#include "cabledyn/io/deck.hpp"
#include "cabledyn/io/detail/deck_lexer.hpp"

namespace cabledyn::io {

/// Prescribed kinematics of a point at one time.
struct PointKinematics {
  std::array<double, 3> x{};  ///< position [m]
  std::array<double, 3> v{};  ///< velocity [m/s]
  std::array<double, 3> a{};  ///< acceleration [m/s^2]
};

/// One numeric row of a motionFile.
struct MotionRow {
  std::vector<double> values;
  int line = 0;  ///< source line
};

/// A parsed motionFile: its numeric rows (every row the same number of values).
struct MotionTable {
  std::string file = "motion";
  std::vector<MotionRow> rows;
};

/// Parses a motionFile from its text; `file` names it in errors. Throws InputError naming
/// file:line and the column for a value that is not a finite number, a row whose number of
/// values differs from the first row's, or a table without rows.
inline MotionTable parse_motion(std::string_view text, std::string file = "motion") {
  using namespace detail;
  MotionTable m;
  m.file = std::move(file);
  std::size_t pos = 0;
  int line = 0;
  while (pos < text.size()) {  // records end at '\n'; a final newline opens no record
    const std::size_t nl = text.find('\n', pos);
    const std::string_view raw = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    ++line;
    std::string rec(strip_dash_comment(strip_hash_comment(raw)));
    std::replace(rec.begin(), rec.end(), ',', ' ');
    const std::vector<Token> t = tokenize(rec, m.file, line);
    bool numeric = false;
    for (const Token& k : t) numeric = numeric || looks_numeric(k.text);
    if (numeric) {
      MotionRow r;
      r.line = line;
      for (const Token& k : t) {
        const auto v = to_double(k.text);
        if (!v) fail(m.file, line, "motionFile column " + std::to_string(k.column), k.text, "a finite number");
        r.values.push_back(*v);
      }
      if (!m.rows.empty() && r.values.size() != m.rows.front().values.size())
        fail(m.file, line, "motionFile row", std::to_string(r.values.size()) + " values",
             "as many values as the first row (line " + std::to_string(m.rows.front().line) + "): " +
                 std::to_string(m.rows.front().values.size()));
      m.rows.push_back(std::move(r));
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  if (m.rows.empty()) fail(m.file, std::max(line, 1), "motionFile", "no numeric row", "at least one row of motion");
  return m;
}

/// Reads and parses the motionFile at `path`. Throws InputError when it cannot be read, is a
/// directory, a device or a pipe, or is over 1 GB.
inline MotionTable read_motion(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path, "motionFile", "a directory", "a readable file");
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))
    throw InputError(path, "motionFile", "not a regular file (a device or a pipe)", "a readable file");
  if (fs::file_size(path, ec) > (1u << 30) && !ec) throw InputError(path, "motionFile size", "over 1 GB", "at most 1 GB");
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

/// The motion of one point: samples (t_i, x_i, v_i, a_i), interpolated between them by the
/// quintic Hermite polynomial of the two samples' position, velocity and acceleration (C2).
class MotionTrack {
 public:
  /// A track from samples with their velocities and accelerations (times increasing).
  MotionTrack(std::vector<double> t, std::vector<PointKinematics> k) : t_(std::move(t)), k_(std::move(k)) {}

  /// A track from positions only: the velocities and accelerations at the samples are those
  /// of the not-a-knot cubic spline through them (one sample: constant; two: linear; three:
  /// the parabola).
  static MotionTrack from_positions(std::vector<double> t, const std::vector<std::array<double, 3>>& x) {
    const std::size_t n = t.size();
    std::vector<PointKinematics> k(n);
    for (std::size_t i = 0; i < n; ++i) k[i].x = x[i];
    for (int c = 0; c < 3; ++c) {
      std::vector<double> y(n), v(n, 0.0), a(n, 0.0);
      for (std::size_t i = 0; i < n; ++i) y[i] = x[i][c];
      spline(t, y, v, a);
      for (std::size_t i = 0; i < n; ++i) {
        k[i].v[c] = v[i];
        k[i].a[c] = a[i];
      }
    }
    return MotionTrack(std::move(t), std::move(k));
  }

  double t_first() const { return t_.front(); }
  double t_last() const { return t_.back(); }
  const std::vector<double>& times() const { return t_; }

  /// The kinematics at time t (clamped to the sampled interval). Allocates nothing.
  PointKinematics at(double t) const {
    if (t_.size() == 1 || t <= t_.front()) return t_.size() == 1 || t == t_.front() ? k_.front() : extrapolate(0, t);
    if (t >= t_.back()) return t == t_.back() ? k_.back() : extrapolate(t_.size() - 1, t);
    const std::size_t i = static_cast<std::size_t>(std::upper_bound(t_.begin(), t_.end(), t) - t_.begin()) - 1;
    const double h = t_[i + 1] - t_[i], s = (t - t_[i]) / h;
    PointKinematics out;
    const PointKinematics &p = k_[i], &q = k_[i + 1];
    for (int c = 0; c < 3; ++c)
      quintic_hermite(p.x[c], p.v[c], p.a[c], q.x[c], q.v[c], q.a[c], h, s, out.x[c], out.v[c], out.a[c]);
    return out;
  }

 private:
  // Beyond the samples (within a round-off tolerance of the ends): the Taylor expansion of the
  // end sample.
  PointKinematics extrapolate(std::size_t i, double t) const {
    PointKinematics out = k_[i];
    const double d = t - t_[i];
    for (int c = 0; c < 3; ++c) {
      out.x[c] += d * (out.v[c] + 0.5 * d * out.a[c]);
      out.v[c] += d * out.a[c];
    }
    return out;
  }

  // The not-a-knot cubic spline: slopes v and second derivatives a at the samples.
  static void spline(const std::vector<double>& t, const std::vector<double>& y, std::vector<double>& v,
                     std::vector<double>& a) {
    const std::size_t n = t.size();
    if (n < 2) return;
    if (n == 2) {
      v[0] = v[1] = (y[1] - y[0]) / (t[1] - t[0]);
      return;
    }
    std::vector<double> M(n, 0.0);
    if (n == 3) {  // the parabola through the three samples
      const double d0 = (y[1] - y[0]) / (t[1] - t[0]), d1 = (y[2] - y[1]) / (t[2] - t[1]);
      const double m = 2 * (d1 - d0) / (t[2] - t[0]);
      M.assign(3, m);
    } else {
      // Unknowns M_1 .. M_{n-2}; M_0 and M_{n-1} eliminated by the not-a-knot conditions
      // (the third derivative continuous across t_1 and t_{n-2}). Tridiagonal, diagonally
      // dominant: the Thomas algorithm.
      const std::size_t m = n - 2;
      std::vector<double> lo(m, 0.0), di(m, 0.0), up(m, 0.0), r(m, 0.0);
      auto h = [&](std::size_t i) { return t[i + 1] - t[i]; };
      for (std::size_t j = 0; j < m; ++j) {
        const std::size_t i = j + 1;
        lo[j] = h(i - 1);
        di[j] = 2 * (h(i - 1) + h(i));
        up[j] = h(i);
        r[j] = 6 * ((y[i + 1] - y[i]) / h(i) - (y[i] - y[i - 1]) / h(i - 1));
      }
      const double h0 = h(0), h1 = h(1), a = h(n - 3), b = h(n - 2);
      di[0] = 3 * h0 + 2 * h1 + h0 * h0 / h1;
      up[0] = h1 - h0 * h0 / h1;
      lo[m - 1] = a - b * b / a;
      di[m - 1] = 2 * a + 3 * b + b * b / a;
      for (std::size_t j = 1; j < m; ++j) {
        const double w = lo[j] / di[j - 1];
        di[j] -= w * up[j - 1];
        r[j] -= w * r[j - 1];
      }
      M[m] = r[m - 1] / di[m - 1];
      for (std::size_t j = m - 1; j-- > 0;) M[j + 1] = (r[j] - up[j] * M[j + 2]) / di[j];
      M[0] = M[1] + h0 / h1 * (M[1] - M[2]);
      M[n - 1] = M[n - 2] + b / a * (M[n - 2] - M[n - 3]);
    }
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const double hi = t[i + 1] - t[i];
      v[i] = (y[i + 1] - y[i]) / hi - hi * (2 * M[i] + M[i + 1]) / 6;
    }
    const double hl = t[n - 1] - t[n - 2];
    v[n - 1] = (y[n - 1] - y[n - 2]) / hl + hl * (M[n - 2] + 2 * M[n - 1]) / 6;
    a = M;
  }

  std::vector<double> t_;
  std::vector<PointKinematics> k_;
};

/// The kinematics of a prescribed rigid vessel at one time (spec "Prescribed vessel
/// motion"): its reference point r, v, a and its orientation R (vessel to global axes, the
/// OrcaFlex vessel convention R = Rz(yaw) Ry(pitch) Rx(roll)) with the angular velocity w and
/// acceleration alpha in global axes.
struct VesselKinematics {
  Vec3<double> r = Vec3<double>::Zero(), v = Vec3<double>::Zero(), a = Vec3<double>::Zero();
  Mat3<double> R = Mat3<double>::Identity();
  Vec3<double> w = Vec3<double>::Zero(), alpha = Vec3<double>::Zero();

  /// The vessel from the kinematics of its reference point and of its Euler angles (roll,
  /// pitch, yaw [rad] in x, their rates in v and a).
  static VesselKinematics of(const PointKinematics& ref, const PointKinematics& angles) {
    VesselKinematics k;
    for (int c = 0; c < 3; ++c) k.r(c) = ref.x[c], k.v(c) = ref.v[c], k.a(c) = ref.a[c];
    const Vec3<double> ang(angles.x[0], angles.x[1], angles.x[2]), angd(angles.v[0], angles.v[1], angles.v[2]),
        angdd(angles.a[0], angles.a[1], angles.a[2]);
    k.R = rotation_zyx(ang(0), ang(1), ang(2));
    rates_zyx(ang, angd, angdd, k.w, k.alpha);
    return k;
  }

  /// The position, velocity and acceleration of the point at the vessel-frame offset p from
  /// the reference point: x = r + R p, v = r' + w x (R p), a = r'' + alpha x (R p) + w x (w x R p).
  PointKinematics carry(const Vec3<double>& p) const {
    const Vec3<double> s = R * p, ws = w.cross(s);
    const Vec3<double> x = r + s, vx = v + ws, ax = a + alpha.cross(s) + w.cross(ws);
    PointKinematics k;
    for (int c = 0; c < 3; ++c) k.x[c] = x(c), k.v[c] = vx(c), k.a[c] = ax(c);
    return k;
  }
};

/// A vessel's motionFile: tracks of its reference point and of its Euler angles.
struct VesselTrack {
  MotionTrack position;  ///< the reference point [m]
  MotionTrack angles;    ///< roll, pitch, yaw [rad], OrcaFlex vessel convention
  VesselKinematics at(double t) const { return VesselKinematics::of(position.at(t), angles.at(t)); }
};

/// The layouts of a motionFile.
enum class MotionLayout {
  moordyn,        ///< t x y z per coupled point, in the host's order (1 + 3 P values)
  moordyn6,       ///< t x y z roll pitch yaw per coupled point, rotations 0 (1 + 6 P values)
  id_positions,   ///< t id x y z
  id_kinematics,  ///< t id x y z vx vy vz ax ay az [0 ...]
};

/// The tracks of a motionFile against a deck: the layout, and one track per point it moves.
struct MotionTracks {
  std::string file;
  MotionLayout layout = MotionLayout::moordyn;
  std::map<int, MotionTrack> tracks;  ///< point ID -> its track
  /// A deck with a vessel (vesselRef): the vessel's track (layout `t x y z roll pitch yaw`),
  /// which carries every Coupled / Vessel point; `tracks` is then empty.
  std::optional<VesselTrack> vessel;
  /// The track of point `id`, or nullptr (the point is held at its deck position).
  const MotionTrack* find(int id) const {
    const auto it = tracks.find(id);
    return it == tracks.end() ? nullptr : &it->second;
  }
};

/// The tracks of a motionFile for a deck whose run lasts `tmax` seconds (its TMax, or the
/// driver's --tmax). Throws InputError (naming the motionFile line) when the layout fits
/// none of the three, a point is not a Coupled/Vessel point of the deck, times do not
/// increase, a rotation is not 0, or the table does not cover [0, tmax].
inline MotionTracks motion_tracks(const MotionTable& m, const Deck& deck, double tmax) {
  using detail::fail;
  using detail::number_text;
  MotionTracks out;
  out.file = m.file;
  const std::vector<int> coupled = deck.coupled_point_ids();  // the host's order (by turbine)
  const std::size_t P = coupled.size(), n = m.rows.front().values.size();
  const int first = m.rows.front().line;
  if (P == 0) fail(m.file, first, "motionFile", "a table", "a deck with a Coupled or Vessel point to move");
  if (deck.options.vesselRef) {
    // The vessel's layout: t, its reference point's position, its Euler angles (OrcaFlex).
    if (n != 7)
      fail(m.file, first, "motionFile row", std::to_string(n) + " values",
           "7: t x y z roll pitch yaw of the vessel's reference point [m, rad] (the deck's vesselRef: the vessel carries "
           "the Coupled/Vessel points)");
    std::vector<double> ts;
    std::vector<std::array<double, 3>> x, ang;
    for (const MotionRow& r : m.rows) {
      const double t = r.values[0];
      if (!ts.empty() && !(t > ts.back()))
        fail(m.file, r.line, "motionFile column 1 (t)", number_text(t), "> " + number_text(ts.back()) + " (times increase)");
      const std::array<double, 3> a{r.values[4], r.values[5], r.values[6]};
      if (!ang.empty())
        for (std::size_t c = 0; c < 3; ++c)
          if (std::fabs(a[c] - ang.back()[c]) > kPi)
            fail(m.file, r.line, "motionFile column " + std::to_string(5 + c) + " (an angle)", number_text(a[c]),
                 "within pi of the previous sample " + number_text(ang.back()[c]) +
                     " [rad] (angles continuous: unwrap them)");
      ts.push_back(t);
      x.push_back({r.values[1], r.values[2], r.values[3]});
      ang.push_back(a);
    }
    const double tol = 1e-9 * std::max(1.0, tmax);
    if (ts.front() > tol)
      fail(m.file, first, "motionFile vessel first time", number_text(ts.front()), "<= 0: the table starts the run");
    if (ts.back() < tmax - tol)
      fail(m.file, m.rows.back().line, "motionFile vessel last time", number_text(ts.back()),
           ">= the run length " + number_text(tmax) + " s (extend the table or shorten the run)");
    out.vessel = VesselTrack{MotionTrack::from_positions(ts, x), MotionTrack::from_positions(ts, ang)};
    return out;
  }
  std::string ids;
  for (int id : coupled) ids += (ids.empty() ? "" : ", ") + std::to_string(id);
  if (n == 1 + 3 * P) out.layout = MotionLayout::moordyn;
  else if (n == 1 + 6 * P) out.layout = MotionLayout::moordyn6;
  else if (n == 5) out.layout = MotionLayout::id_positions;
  else if (n >= 11) out.layout = MotionLayout::id_kinematics;
  else
    fail(m.file, first, "motionFile row", std::to_string(n) + " values",
         std::to_string(1 + 3 * P) + " (t x y z per coupled point, points " + ids + ", MoorDyn's order), " +
             std::to_string(1 + 6 * P) + " (t x y z roll pitch yaw per point), 5 (t id x y z) or 11 (t id x y z vx vy "
             "vz ax ay az)");
  std::map<int, std::vector<double>> times;
  std::map<int, std::vector<std::array<double, 3>>> pos;
  std::map<int, std::vector<PointKinematics>> kin;
  const bool by_id = out.layout == MotionLayout::id_positions || out.layout == MotionLayout::id_kinematics;
  for (const MotionRow& r : m.rows) {
    const double t = r.values[0];
    auto add = [&](int id, const std::array<double, 3>& x) {
      auto& ts = times[id];
      if (!ts.empty() && !(t > ts.back()))
        fail(m.file, r.line, "motionFile column 1 (t)", number_text(t),
             "> " + number_text(ts.back()) + " (times increase" + (by_id ? " for each point)" : ")"));
      ts.push_back(t);
      pos[id].push_back(x);
    };
    if (!by_id) {
      const std::size_t w = out.layout == MotionLayout::moordyn ? 3 : 6;
      for (std::size_t p = 0; p < P; ++p) {
        const std::size_t c0 = 1 + w * p;
        if (w == 6)
          for (std::size_t k = 3; k < 6; ++k)
            if (r.values[c0 + k] != 0)
              fail(m.file, r.line, "motionFile column " + std::to_string(c0 + k + 1), number_text(r.values[c0 + k]),
                   "0: point " + std::to_string(coupled[p]) + " has no rotation (t x y z roll pitch yaw layout)");
        add(coupled[p], {r.values[c0], r.values[c0 + 1], r.values[c0 + 2]});
      }
      continue;
    }
    const double idv = r.values[1];
    const auto* pt = deck.find_point(static_cast<int>(idv));
    if (idv != std::floor(idv) || !pt || !pt->moving())
      fail(m.file, r.line, "motionFile column 2 (id)", number_text(idv),
           "a Coupled or Vessel point of the deck (" + ids + ")");
    const int id = pt->id;
    add(id, {r.values[2], r.values[3], r.values[4]});
    if (out.layout == MotionLayout::id_kinematics) {
      PointKinematics k;
      for (int c = 0; c < 3; ++c) {
        k.x[c] = r.values[2 + c];
        k.v[c] = r.values[5 + c];
        k.a[c] = r.values[8 + c];
      }
      for (std::size_t c = 11; c < n; ++c)
        if (r.values[c] != 0)
          fail(m.file, r.line, "motionFile column " + std::to_string(c + 1), number_text(r.values[c]),
               "0: extra columns (the roll of torsion) are not implemented");
      kin[id].push_back(k);
    }
  }
  for (auto& [id, ts] : times) {
    const double lo = ts.front(), hi = ts.back();
    const double tol = 1e-9 * std::max(1.0, tmax);
    if (lo > tol)
      fail(m.file, first, "motionFile point " + std::to_string(id) + " first time", number_text(lo),
           "<= 0: the table starts the run");
    if (hi < tmax - tol)
      fail(m.file, m.rows.back().line, "motionFile point " + std::to_string(id) + " last time", number_text(hi),
           ">= the run length " + number_text(tmax) + " s (extend the table or shorten the run)");
    if (out.layout == MotionLayout::id_kinematics) out.tracks.emplace(id, MotionTrack(ts, kin[id]));
    else out.tracks.emplace(id, MotionTrack::from_positions(ts, pos[id]));
  }
  return out;
}

/// The motion of a system's coupled DOFs from a motionFile in MoorDyn's coupled-DOF layout
/// (what a host hands MoorDyn_Step): `t` and then one value per coupled DOF, in the C API's
/// order (per Coupled body or rod x y z roll pitch yaw [rad], per CoupledPinned body or rod
/// x y z, per coupled point x y z). Each group of three values is a track (the not-a-knot
/// spline through its samples, C2). `dofs` is the number of coupled DOFs (a multiple of 3);
/// `angles` marks the groups that are roll pitch yaw, which must be continuous (unwrapped).
/// Throws InputError naming the file and line when a row has another number of values, times
/// do not increase, an angle jumps by more than pi between samples (wrapped at +-pi: its
/// spline would turn the body through a false rate), or the table does not cover [0, tmax].
inline std::vector<MotionTrack> coupled_dof_tracks(const MotionTable& m, int dofs, double tmax,
                                                   const std::string& layout, const std::vector<bool>& angles = {}) {
  using detail::fail;
  using detail::number_text;
  const std::size_t n = m.rows.front().values.size(), groups = static_cast<std::size_t>(dofs) / 3;
  if (n != 1 + static_cast<std::size_t>(dofs))
    fail(m.file, m.rows.front().line, "motionFile row", std::to_string(n) + " values",
         std::to_string(1 + dofs) + ": t and the " + std::to_string(dofs) + " coupled DOFs (" + layout + ")");
  std::vector<double> ts;
  std::vector<std::vector<std::array<double, 3>>> x(groups);
  for (const MotionRow& r : m.rows) {
    const double t = r.values[0];
    if (!ts.empty() && !(t > ts.back()))
      fail(m.file, r.line, "motionFile column 1 (t)", number_text(t), "> " + number_text(ts.back()) + " (times increase)");
    ts.push_back(t);
    for (std::size_t g = 0; g < groups; ++g) {
      const std::array<double, 3> xg{r.values[1 + 3 * g], r.values[2 + 3 * g], r.values[3 + 3 * g]};
      if (g < angles.size() && angles[g] && !x[g].empty())
        for (std::size_t c = 0; c < 3; ++c)
          if (std::fabs(xg[c] - x[g].back()[c]) > kPi)
            fail(m.file, r.line, "motionFile column " + std::to_string(2 + 3 * g + c) + " (an angle)",
                 number_text(xg[c]),
                 "within pi of the previous sample " + number_text(x[g].back()[c]) +
                     " [rad] (angles continuous: unwrap them)");
      x[g].push_back(xg);
    }
  }
  const double tol = 1e-9 * std::max(1.0, tmax);
  if (ts.front() > tol)
    fail(m.file, m.rows.front().line, "motionFile first time", number_text(ts.front()), "<= 0: the table starts the run");
  if (ts.back() < tmax - tol)
    fail(m.file, m.rows.back().line, "motionFile last time", number_text(ts.back()),
         ">= the run length " + number_text(tmax) + " s (extend the table or shorten the run)");
  std::vector<MotionTrack> out;
  for (std::size_t g = 0; g < groups; ++g) out.push_back(MotionTrack::from_positions(ts, x[g]));
  return out;
}

/// The angular velocity in world axes of R = Rx(roll) Ry(pitch) Rz(yaw) (MoorDyn's convention)
/// from the angles and their rates: omega = roll' e_x + pitch' Rx e_y + yaw' Rx Ry e_z.
inline std::array<double, 3> angular_velocity_xyz(const std::array<double, 3>& ang, const std::array<double, 3>& rate) {
  const double cr = std::cos(ang[0]), sr = std::sin(ang[0]), cp = std::cos(ang[1]), sp = std::sin(ang[1]);
  // Rx e_y = (0, cr, sr); Rx Ry e_z = Rx (sp, 0, cp) = (sp, -sr cp, cr cp).
  return {rate[0] + rate[2] * sp, rate[1] * cr - rate[2] * sr * cp, rate[1] * sr + rate[2] * cr * cp};
}

/// The harmonic fairlead motion at time t: the offset from the deck position, its velocity and
/// acceleration, x = A sin(omega t + phase) along the mode's axis, omega = 2 pi / T. For a
/// rotational mode (roll, pitch, yaw: a vessel's) the vessel's Euler angles (roll, pitch, yaw)
/// [rad] and their rates, the amplitude given in degrees.
inline PointKinematics harmonic_motion(const FairleadMotion& f, double t) {
  const double w = 2 * kPi / f.period;
  const double th = w * t + f.phase_deg * kPi / 180.0;
  int axis = 0;
  switch (f.mode) {
    case MotionMode::surge:
    case MotionMode::roll: axis = 0; break;
    case MotionMode::sway:
    case MotionMode::pitch: axis = 1; break;
    case MotionMode::heave:
    case MotionMode::yaw: axis = 2; break;
  }
  const double A = rotational(f.mode) ? f.amplitude * kPi / 180.0 : f.amplitude;
  PointKinematics k;
  k.x[axis] = A * std::sin(th);
  k.v[axis] = A * w * std::cos(th);
  k.a[axis] = -A * w * w * std::sin(th);
  return k;
}


}  // namespace cabledyn::io
