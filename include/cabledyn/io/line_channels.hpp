// cabledyn: the output channels of a deck run's lines. One job: evaluate, at the lines'
// static or committed dynamic state, the values DECK_FORMAT.md ("Outputs") asks for: the
// requested channels (MoorDyn's channel grammar: FairTen / AnchTen as line-end forces, spec
// "Tension and coupled loads"; node tension, curvature and bend moment by node recovery, spec
// "Node tension, curvature and bend moment"; node positions, velocities, accelerations and net
// forces -r(q, v); point kinematics and forces), the node positions of every line, and the
// columns of MoorDyn's per-line output files with their names. docs/driver.md.
#pragma once

#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cabledyn/io/channel.hpp"
#include "cabledyn/io/line_output_file.hpp"
#include "cabledyn/io/node_recovery.hpp"

namespace cabledyn::io {

/// What the channel evaluation of a run keeps between calls: the time of the row being
/// evaluated, and the node recoveries and node forces of its lines (cleared at each row), and
/// a zero vector per line (the velocities and accelerations of a static state).
struct ChannelCache {
  double now = 0;
  std::map<std::pair<std::size_t, bool>, NodeRecovery> recovery;
  std::map<std::pair<std::size_t, bool>, VecX<double>> force;
  std::map<int, VecX<double>> zeros;
};

/// The channels of a run's lines: a view on the deck, the lines, the fluid they last sampled,
/// the prescribed point motions and the cache, made where it is used.
/// A class template with one defaulted, unused parameter; use it as `LineChannels`, its only
/// instance: its member bodies are then compiled only in the files that use them.
template <class Unused = void>
class BasicLineChannels {
 public:
  BasicLineChannels(const Deck& deck, const std::vector<LineRun>& lines, const std::vector<HeldFluid>& fluid,
                    const PointMotions& motion, ChannelCache& cache)
      : deck_(deck), lines_(lines), fluid_(fluid), motion_(motion), cache_(cache) {}

  /// The index in the run of deck line `id` (InputError for a channel naming no line).
  std::size_t line_index(int id) const {
    for (std::size_t k = 0; k < lines_.size(); ++k)
      if (lines_[k].id == id) return k;
    throw InputError(deck_.file, "output channel line", id, "a line of LINES");
  }

  /// The positions (which = 0), velocities (1) or accelerations (2) of a line's DOFs: at its
  /// static state (zero velocities and accelerations), or its committed dynamic one.
  const VecX<double>& state_of(const LineRun& L, bool use_static, int which) const {
    if (use_static || !L.dynamics) return which == 0 ? L.statics.q : zeros(L);
    const auto& s = L.dynamics->state();
    return which == 0 ? s.q : which == 1 ? s.v : s.a;
  }
  const VecX<double>& zeros(const LineRun& L) const {
    auto& z = cache_.zeros[L.id];
    if (z.size() != L.statics.q.size()) z = VecX<double>::Zero(L.statics.q.size());
    return z;
  }

  /// The net force on every node of line k (-r(q, v), the non-inertial forces; M a on the
  /// free DOFs): at the held ends the line-end forces, zero inside in the statics.
  const VecX<double>& node_forces(std::size_t k, bool use_static) {
    auto it = cache_.force.find(std::make_pair(k, use_static));
    if (it != cache_.force.end()) return it->second;
    const auto& L = lines_[k];
    VecX<double> f = VecX<double>::Zero(L.statics.q.size());
    if (!use_static && L.dynamics) {
      L.dynamics->residual_force(f);
      f = -f;
    }
    for (int e = 0; e < 2; ++e)
      f.segment<3>(static_cast<Eigen::Index>(L.line->dof(L.line->end_node(e), 0))) = line_end_force(lines_[k], e, use_static);
    return cache_.force[std::make_pair(k, use_static)] = std::move(f);
  }

  /// Index (from End A of the line as built, the fairlead) of the node a node channel names.
  std::size_t node_index(const OutputChannel& c) const {
    const std::size_t k = line_index(c.line);
    const long long written = deck_.channel_node(c);
    const long long j = written > 0 ? deck_.oriented_node(c.line, written) : 0;
    if (j < 1 || static_cast<std::size_t>(j) > lines_[k].line->n_nodes())
      throw InputError(deck_.file, "output channel " + c.name() + " node", c.node,
                       "a node of line " + std::to_string(c.line));
    return static_cast<std::size_t>(j - 1);
  }

  /// The value of one requested channel at the static or the committed dynamic state (the
  /// point channels at the row's time).
  double channel_value(const OutputChannel& c, bool use_static) {
    auto key = [&](std::size_t k) { return std::make_pair(k, use_static); };
    switch (c.kind) {
      case ChannelKind::FairTen:
      case ChannelKind::AnchTen:
      case ChannelKind::FairIncl:
      case ChannelKind::AnchIncl: {
        const std::size_t k = line_index(c.line);
        const bool fair = c.kind == ChannelKind::FairTen || c.kind == ChannelKind::FairIncl;
        const int e = deck_.oriented_end(c.line, deck_.tension_end(c.line, fair));
        const Vec3<double> F = line_end_force(lines_[k], e, use_static);
        if (c.kind == ChannelKind::FairTen || c.kind == ChannelKind::AnchTen) return F.norm();
        // Degrees below horizontal of the line leaving the end: the line pulls the fairlead
        // down (positive); at the anchor the sign of the pull is reversed (a line leaving the
        // anchor upward reads negative).
        return std::atan2(-F(2), std::hypot(F(0), F(1))) * 180 / kPi;
      }
      case ChannelKind::Ten:
      case ChannelKind::Curv:
      case ChannelKind::BendMom: {
        const std::size_t k = line_index(c.line);
        const auto it = cache_.recovery.find(key(k));
        const NodeRecovery& r = it != cache_.recovery.end() ? it->second : (cache_.recovery[key(k)] = recover_nodes(lines_[k], use_static));
        const std::size_t j = node_index(c);
        return c.kind == ChannelKind::Ten ? r.tension[j] : c.kind == ChannelKind::Curv ? r.curvature[j] : r.moment[j];
      }
      case ChannelKind::NodePosition:
      case ChannelKind::NodeVelocity:
      case ChannelKind::NodeAcceleration: {
        const std::size_t k = line_index(c.line);
        const auto& L = lines_[k];
        const int which = c.kind == ChannelKind::NodePosition ? 0 : c.kind == ChannelKind::NodeVelocity ? 1 : 2;
        return L.line->r(state_of(L, use_static, which), node_index(c))(c.component);
      }
      case ChannelKind::NodeForce: {
        const std::size_t k = line_index(c.line);
        return lines_[k].line->r(node_forces(k, use_static), node_index(c))(c.component);
      }
      case ChannelKind::PointPosition:
      case ChannelKind::PointVelocity:
      case ChannelKind::PointAcceleration:
      case ChannelKind::PointForce:
      case ChannelKind::PointTension: {
        const auto* p = deck_.find_point(c.point);
        if (!p) throw InputError(deck_.file, "output channel point", c.point, "a point of POINTS");
        const EndMotion m = use_static ? motion_(c.point, 0.0) : motion_(c.point, cache_.now);
        Vec3<double> x = m.x, F = Vec3<double>::Zero();
        for (std::size_t k = 0; k < lines_.size(); ++k)
          for (int e = 0; e < 2; ++e)
            if (lines_[k].point[e] == c.point) {
              const auto& L = lines_[k];
              x = L.line->r(state_of(L, use_static, 0), L.line->end_node(e));
              F += line_end_force(lines_[k], e, use_static);
            }
        switch (c.kind) {
          case ChannelKind::PointPosition: return x(c.component);
          case ChannelKind::PointVelocity: return use_static ? 0.0 : m.v(c.component);
          case ChannelKind::PointAcceleration: return use_static ? 0.0 : m.a(c.component);
          case ChannelKind::PointForce: return F(c.component);
          default: return F.norm();
        }
      }
      case ChannelKind::Rod:
      case ChannelKind::Body:
        break;
    }
    throw NotImplementedError(deck_.file, "output channel", c.name(), "rods and bodies");
  }

  /// Every output of time t in one vector: the channels, the node positions of every line,
  /// and the per-line output values; each checked finite (SolveError naming the output).
  std::vector<double> output_row(double t, bool use_static) {
    cache_.recovery.clear();
    cache_.force.clear();
    cache_.now = t;
    std::vector<double> row;
    for (const auto& o : deck_.outputs) {
      row.push_back(channel_value(o.channel, use_static));
      if (!std::isfinite(row.back()))
        throw SolveError(deck_.file + ": t = " + cabledyn::to_text(t) + " s", "output channel " + o.text, row.back(),
                         "a finite number");
    }
    for (const auto& L : lines_) {
      const VecX<double>& q = state_of(L, use_static, 0);
      for (std::size_t i = 0; i < L.line->n_nodes(); ++i)
        for (int c = 0; c < 3; ++c) {
          row.push_back(L.line->r(q, i)(c));
          if (!std::isfinite(row.back()))
            throw SolveError(deck_.file + ": t = " + cabledyn::to_text(t) + " s", "line " + std::to_string(L.id) + " node position",
                             row.back(), "a finite number");
        }
    }
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      const std::string& flags = deck_.find_line(lines_[k].id)->outputs;
      if (!line_file_wanted(flags)) continue;
      const std::vector<double> v = line_output_row(k, use_static);
      for (double x : v)
        if (!std::isfinite(x))
          throw SolveError(deck_.file + ": t = " + cabledyn::to_text(t) + " s", "line " + std::to_string(lines_[k].id) + " output",
                           x, "a finite number");
      row.insert(row.end(), v.begin(), v.end());
    }
    return row;
  }


  /// The values of a MoorDyn per-line output row (flags p K v U D V t c s d b, in MoorDyn's
  /// column order), nodes from End A as written; see line_output_header.
  std::vector<double> line_output_row(std::size_t k, bool use_static) {
    const auto& L = lines_[k];
    const Line& line = *L.line;
    const std::string& flags = deck_.find_line(L.id)->outputs;
    const auto has = [&](char f) { return flags.find(f) != std::string::npos; };
    const std::size_t nn = line.n_nodes(), ne = line.n_elements();
    const bool swapped = deck_.find_line(L.id)->swapped;
    const auto node = [&](std::size_t j) { return swapped ? nn - 1 - j : j; };      // as written -> built
    const auto elem = [&](std::size_t e) { return swapped ? ne - 1 - e : e; };
    const VecX<double>& q = state_of(L, use_static, 0);
    const VecX<double>& v = state_of(L, use_static, 1);
    std::vector<double> out;
    const auto vec3 = [&](const Vec3<double>& x) { out.insert(out.end(), {x(0), x(1), x(2)}); };
    if (has('p'))
      for (std::size_t j = 0; j < nn; ++j) vec3(line.r(q, node(j)));
    if (has('K')) {
      const auto it = cache_.recovery.find(std::make_pair(k, use_static));
      const NodeRecovery& r = it != cache_.recovery.end() ? it->second
                                                          : (cache_.recovery[std::make_pair(k, use_static)] = recover_nodes(lines_[k], use_static));
      for (std::size_t j = 0; j < nn; ++j) out.push_back(r.curvature[node(j)]);
    }
    if (has('v'))
      for (std::size_t j = 0; j < nn; ++j) vec3(line.r(v, node(j)));
    if (has('U'))
      for (std::size_t j = 0; j < nn; ++j) {
        const std::size_t i = node(j);
        vec3(!use_static && k < fluid_.size() && i < fluid_[k].u.size() ? fluid_[k].u[i] : Vec3<double>::Zero());
      }
    if (has('V'))  // VIV lift: Cl = 0 on every line type the reader accepts
      for (std::size_t j = 0; j < nn; ++j) vec3(Vec3<double>::Zero());
    // Segment tension, strain and strain rate: the line's load model's (LineModel::
    // segment_output, as the system route writes them), segments as written.
    std::vector<double> ten(ne), strain(ne), rate(ne);
    if (has('t') || has('s') || has('d'))
      for (std::size_t w = 0; w < ne; ++w) {
        const auto so = L.model->segment_output(q, v, elem(w));
        ten[w] = so.tension;
        strain[w] = so.strain;
        rate[w] = so.rate;
      }
    if (has('t')) out.insert(out.end(), ten.begin(), ten.end());
    if (has('s')) out.insert(out.end(), strain.begin(), strain.end());
    if (has('d')) out.insert(out.end(), rate.begin(), rate.end());
    if (has('b'))
      for (std::size_t j = 0; j < nn; ++j) {
        const std::size_t i = node(j);
        Vec3<double> B = Vec3<double>::Zero();
        if (L.problem.seabed_z)
          B(2) = seabed_contact<double>(line.r(q, i)(2), line.r(v, i)(2), *L.problem.seabed_z,
                                        node_contact_width_length(line, i), 1.0, L.problem.seabed)
                     .f;
        vec3(B);
      }
    return out;
  }

  /// The column names of a line's output file (io/line_output_file.hpp).
  std::vector<std::string> line_output_header(std::size_t k) const {
    const auto& L = lines_[k];
    return line_file_header(deck_.find_line(L.id)->outputs, L.line->n_nodes(), L.line->n_elements(),
                            deck_.first_node_number());
  }

  /// The number of values of line k's output file row.
  std::size_t line_output_width(std::size_t k) const { return line_output_header(k).size(); }

 private:
  const Deck& deck_;
  const std::vector<LineRun>& lines_;
  const std::vector<HeldFluid>& fluid_;  ///< the fluid each line last sampled (empty in the statics)
  PointMotions motion_;
  ChannelCache& cache_;
};

using LineChannels = BasicLineChannels<>;

}  // namespace cabledyn::io
