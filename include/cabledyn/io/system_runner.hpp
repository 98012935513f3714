// cabledyn: the driver's system route: a deck with Free / Connect points run as one mooring
// system (statics, then the march under the deck's prescribed motion), written as the
// single-line route writes: <root>.out (the requested channels every dtOut), <root>.nodes.out
// (every node's position at the same times), <root>.static.out (every node and point at the
// static equilibrium), <root>.summary.txt and
// the figures <root>.profile.svg (elevation) and <root>.plan.svg. docs/driver.md, "Decks with
// free points".
//
// The route is the host coupling of io/system_simulation.hpp driven by the deck: at each step
// the coupled points are set to their motion at t + dt (position and velocity; the
// acceleration is the change of velocity over the step, as a host gives it), so a host that
// passes the same kinematics through the C API gets the same forces bit for bit.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cabledyn/core/version.hpp"
#include "cabledyn/io/line_output_file.hpp"
#include "cabledyn/io/line_run.hpp"
#include "cabledyn/io/node_recovery.hpp"
#include "cabledyn/io/output_file.hpp"
#include "cabledyn/io/run_settings.hpp"
#include "cabledyn/io/svg_plot.hpp"
#include "cabledyn/io/system_simulation.hpp"
#include "cabledyn/modal/modes_output.hpp"
#include "cabledyn/system/system_modes.hpp"

namespace cabledyn::io {

/// A deck with free points, run: build with the deck (read with
/// ReadOptions::accept_unsupported), call run().
class SystemRunner {
 public:
  /// Builds the system; checks every output channel and reads the motionFile of a dynamic
  /// run. Throws InputError, NotImplementedError (a feature or a channel the system route
  /// does not have) before anything is solved or written.
  SystemRunner(const Deck& deck, RunSettings settings) : deck_(deck), set_(std::move(settings)) {
    tmax_source_ = apply_run_overrides(deck_, set_);
    check_vessel(deck_);
    notes_ = deck_.notes;
    sim_ = std::make_unique<SystemSimulation>(deck_);
    sim_->set_split_components(set_.split_components);
    for (const auto& o : deck_.outputs) check_channel(o.channel, o.text);
    if (deck_.options.nModes > 0) {
      // The modal analysis' limits, checked before anything is solved (a mode beyond the
      // stiff DOFs, or an unstable equilibrium, can only be named after the statics).
      const Eigen::Index n = sim_->model().system.dofs();
      const std::string where = deck_.file + ":" + std::to_string(deck_.options.line_of("nModes"));
      if (n > SystemModalResult::kMaxDofs && sim_->model().system.line_dofs() < n)
        throw NotImplementedError(where, "nModes: free DOFs of a system with free points, bodies or rods", n,
                                  "<= " + std::to_string(SystemModalResult::kMaxDofs) +
                                      " (the modal analysis of a system with object DOFs is dense; lines between held "
                                      "points alone are solved in band storage)");
      if (deck_.options.nModes > n)
        throw InputError(where, "nModes", deck_.options.nModes, "<= " + std::to_string(n) + " (the system's free DOFs)");
    }
    if (dynamic_run() && deck_.options.motionFile) {
      const std::string path =
          set_.motion_file ? *set_.motion_file : deck_relative_path(deck_, *deck_.options.motionFile);
      if (sim_->model().coupled_bodies.empty())
        motion_ = motion_tracks(read_motion(path), deck_, *deck_.options.TMax);
      else {  // coupled bodies or rods: MoorDyn's coupled-DOF layout, every coupled DOF a column
        std::vector<bool> angles;  // per group of three: roll pitch yaw of a Coupled body or rod
        for (int w : sim_->model().coupled_width) {
          angles.push_back(false);
          if (w == 6) angles.push_back(true);
        }
        dof_tracks_ = coupled_dof_tracks(read_motion(path), sim_->coupled_dofs(), *deck_.options.TMax,
                                         "per Coupled body or rod x y z roll pitch yaw [rad], per CoupledPinned "
                                         "one x y z, then per coupled point x y z: the C API's order",
                                         angles);
      }
    }
    // What can be checked before any solve, as on the single-line route: no held point below
    // the seabed; in a dynamic run, every line between held points within reach of its ends
    // and no moving point below the seabed over the prescribed motion (a coupled body's
    // points move with its pose: not checked).
    const Environment env = deck_.environment();
    check_held_points_above_seabed(deck_, env);
    if (dof_tracks_.empty()) {
      const PointMotions pm{&deck_, motion_ ? &*motion_ : nullptr, dynamic_run()};
      for (const auto& rec : deck_.lines)
        if (line_between_held_points(deck_, rec))
          check_line_geometry(deck_, env, rec, pm(rec.fairlead(), 0.0).x, pm(rec.anchor(), 0.0).x);
      if (dynamic_run()) {
        check_motion_envelope(deck_, env, pm, true);
        for (auto& n : motion_start_notes(deck_, pm)) notes_.push_back(std::move(n));
      }
    }
    for (const auto& rec : deck_.lines)
      for (auto& n : coarse_mesh_notes(deck_, env, rec)) notes_.push_back(std::move(n));
    for (const auto& n : sim_->solver_notes()) notes_.push_back(n);
    for (const auto& L : deck_.lines) {
      const std::string note = line_file_wanted(L.outputs) ? line_file_note(L.id, L.outputs) : std::string();
      if (!note.empty()) notes_.push_back(note);
    }
  }

  const std::vector<std::string>& files() const { return files_; }
  const std::vector<std::string>& notes() const { return notes_; }
  const std::vector<double>& times() const { return times_; }
  const std::vector<std::vector<double>>& channel_rows() const { return rows_; }
  const SystemSimulation& simulation() const { return *sim_; }
  /// The deck as run (the command line's overrides applied).
  const Deck& deck() const { return deck_; }
  /// The OUTPUTS channels as the deck spells them: the columns of channel_rows() and .out.
  std::vector<std::string> channel_names() const {
    std::vector<std::string> names;
    for (const auto& o : deck_.outputs) names.push_back(o.text.empty() ? o.channel.name() : o.text);
    return names;
  }
  /// Points the tension figure keeps (at most 8192, whatever the run's length).
  std::size_t plot_history_size() const { return history_.size(); }
  /// The modal analysis of the run (nModes > 0, after the statics), or none.
  const std::optional<SystemModalResult>& modes() const { return modes_; }

  /// Statics, march, outputs and summary; on a failure (or SIGINT) the outputs hold every
  /// committed row, the summary says where and why the run stopped, and the error is thrown.
  void run() {
    const auto t0 = std::chrono::steady_clock::now();
    const auto stale = remove_stale_outputs(set_.root);
    if (!stale.empty())
      notes_.push_back("removed " + std::to_string(stale.size()) + " output file(s) of an earlier run under " + set_.root);
    std::exception_ptr failure;
    try {
      coupled_at(0.0);
      in_named_line_context(deck_, [&] { sim_->initialize(x_.data(), v_.data()); });  // a line's error names its deck row
      static_state_ = sim_->static_state();  // in static_system()'s numbering
      statics_done_ = true;
      for (const auto& n : sim_->statics().notes) notes_.push_back("statics: " + n);
      note_out_of_plane();
      write_static_out();
      if (deck_.options.nModes > 0) solve_modes();
      if (set_.log)
        for (const auto& n : notes_) *set_.log << "note: " << n << "\n";
      open_outputs();
      record(0.0);
      track_extremes(0.0);
      if (dynamic_run()) march();
      out_->close();
      nodes_->close();
      for (auto& f : line_files_)
        if (f) f->close();
    } catch (const Error& e) {
      failure = std::current_exception();
      stop_reason_ = e.what();
      try {
        if (out_) out_->close();
        if (nodes_) nodes_->close();
        for (auto& f : line_files_)
          if (f) f->close();
      } catch (const Error& e2) {
        stop_reason_ += std::string("; ") + e2.what();
      }
    }
    if (set_.plots && statics_done_) {
      try {
        write_plots();
      } catch (const Error& e) {
        if (!failure) failure = std::current_exception();
        stop_reason_ += (stop_reason_.empty() ? "" : "; ") + std::string(e.what());
      }
    }
    write_summary(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (failure) std::rethrow_exception(failure);
  }

 private:
  bool dynamic_run() const { return deck_.options.dynamic() && !set_.static_only; }

  // The coupled kinematics at t: positions and velocities of the coupled bodies and rods (6
  // per body or Coupled rod, its reference point moved by the deck's fairleadMotion, its deck
  // orientation held; 3 per CoupledPinned rod, its End A), then 3 per coupled point.
  void coupled_at(double t) {
    const auto& m = sim_->model();
    x_.resize(static_cast<std::size_t>(sim_->coupled_dofs()));
    v_.resize(x_.size());
    if (!dof_tracks_.empty()) {  // a motionFile in the coupled-DOF layout
      for (std::size_t g = 0; g < dof_tracks_.size(); ++g) {
        const PointKinematics k = dof_tracks_[g].at(t);
        for (std::size_t i = 0; i < 3; ++i) x_[3 * g + i] = k.x[i], v_[3 * g + i] = k.v[i];
      }
      // The angle rates of a Coupled body or rod to its angular velocity in world axes.
      std::size_t o = 0;
      for (std::size_t c = 0; c < m.coupled_bodies.size(); ++c) {
        if (m.coupled_width[c] == 6) {
          const std::array<double, 3> w = angular_velocity_xyz({x_[o + 3], x_[o + 4], x_[o + 5]},
                                                               {v_[o + 3], v_[o + 4], v_[o + 5]});
          for (std::size_t i = 0; i < 3; ++i) v_[o + 3 + i] = w[i];
        }
        o += static_cast<std::size_t>(m.coupled_width[c]);
      }
      return;
    }
    const std::size_t p0 = static_cast<std::size_t>(sim_->body_entries());
    for (std::size_t c = 0; c < m.coupled.size(); ++c) {
      const EndMotion k = prescribed_point_motion(deck_, motion_ ? &*motion_ : nullptr, m.point_id[static_cast<std::size_t>(m.coupled[c])], t,
                                                  dynamic_run());
      for (int i = 0; i < 3; ++i)
        x_[p0 + 3 * c + static_cast<std::size_t>(i)] = k.x(i), v_[p0 + 3 * c + static_cast<std::size_t>(i)] = k.v(i);
    }
    std::size_t o = 0;
    for (std::size_t c = 0; c < m.coupled_bodies.size(); ++c) {
      const Vec6<double>& pose = m.coupled_deck_pose[c];
      EndMotion k;
      k.x = pose.head<3>();
      if (deck_.options.fairleadMotion && dynamic_run()) add_harmonic_motion(deck_, t, k);
      const int w = m.coupled_width[c];
      for (int i = 0; i < 3; ++i) {
        x_[o + static_cast<std::size_t>(i)] = k.x(i);
        v_[o + static_cast<std::size_t>(i)] = k.v(i);
        if (w == 6) {
          x_[o + 3 + static_cast<std::size_t>(i)] = pose(3 + i);
          v_[o + 3 + static_cast<std::size_t>(i)] = 0;
        }
      }
      o += static_cast<std::size_t>(w);
    }
  }

  void march() {
    const double dt = *deck_.options.dtM;
    const long long n = deck_.options.steps();
    const double dt_out = std::max(deck_.options.dtOut, 0.0);
    double next_out = dt_out;
    std::vector<double> f(x_.size());
    long long s_check = -1;  // the restart check's step, once copied
    std::optional<SystemSimulation::Checkpoint> copy;
    std::vector<std::vector<double>> check_rows;
    ProgressBar bar(set_);
    for (long long s = 1; s <= n; ++s) {
      const double t = static_cast<double>(s) * dt;
      coupled_at(t);
      sim_->step(x_.data(), v_.data(), sim_->time(), dt, f.data());
      steps_done_ = s;
      track_extremes(t);
      if (s_check >= 0) check_rows.push_back(output_row(t));
      if (set_.restart_check && s_check < 0 && t >= *set_.restart_check - 1e-9 * dt) {
        s_check = s;
        copy = sim_->checkpoint();
      }
      if (dt_out <= dt || t >= next_out - 1e-9 * dt || s == n) {
        record(t);
        while (dt_out > 0 && next_out <= t + 1e-9 * dt) next_out += dt_out;
      }
      if (set_.stop && *set_.stop) {
        if (last_out_t_ != t) record(t);
        throw InterruptedError(deck_.file, "run", "interrupted at t = " + cabledyn::to_text(t) + " s",
                               "the outputs hold every step up to it");
      }
      bar.update(s, n, t);
    }
    bar.finish();
    if (s_check >= 0) restart_check(s_check, *copy, check_rows);
  }

  // Each line's FairTen and AnchTen (the ends FairTen<L> and AnchTen<L> read): their least
  // and greatest values over the march and when (the summary's "dynamic" line), from the
  // statics on.
  struct Extremes {
    double lo[2] = {0, 0}, hi[2] = {0, 0}, t_lo[2] = {0, 0}, t_hi[2] = {0, 0};
  };
  void track_extremes(double t) {
    const bool first = extremes_.empty();
    if (first) extremes_.resize(deck_.lines.size());
    for (std::size_t k = 0; k < deck_.lines.size(); ++k)
      for (int e = 0; e < 2; ++e) {
        const int id = deck_.lines[k].id;
        const double T = sim_->line_end_force(id, deck_.tension_end(id, e == 0)).norm();
        Extremes& x = extremes_[k];
        if (first || T > x.hi[e]) x.hi[e] = T, x.t_hi[e] = t;
        if (first || T < x.lo[e]) x.lo[e] = T, x.t_lo[e] = t;
      }
  }

  // Each line whose static shape leaves the vertical plane of its ends with no current (no
  // uniform current and no current field) is noted (io/line_run.hpp, out_of_plane_note: a
  // buckled equilibrium whose mirror image is one too), as the single-line route notes it.
  void note_out_of_plane() {
    const auto& sys = sim_->static_system();
    if (sys.has_current_field() || !sys.current().isZero()) return;
    VecX<double> x;
    for (std::size_t k = 0; k < sys.n_lines(); ++k) {
      const int l = static_cast<int>(k);
      const auto& m = sys.line(l).model;
      sys.line_gather(static_state_, l, 0, x);
      const std::string name = m.name() + " (line statics): ";
      bool escaped = false;
      for (const auto& n : sim_->statics().notes)
        escaped = escaped || (n.rfind(name, 0) == 0 && n.find("along its lowest mode") != std::string::npos);
      const auto note = out_of_plane_note(
          m.n_nodes(), [&](std::size_t i) { return Vec3<double>(m.node(x, i)); }, m.length(), escaped);
      if (note) notes_.push_back("statics: " + m.name() + ": " + *note);
    }
  }

  // The modes of the whole system about its static state (nModes; system/system_modes.hpp),
  // written to <root>.modes.out in the single-line route's format: one block per line, each
  // with the system's frequencies and that line's node translations.
  void solve_modes() {
    const auto& sys = sim_->static_system();  // the system as its statics solved it
    modes_ = system_modal_analysis(sys, static_state_, static_cast<Eigen::Index>(deck_.options.nModes));
    if (modes_->mechanism_dofs > 0)
      notes_.push_back("modal analysis: " + std::to_string(modes_->mechanism_dofs) +
                       " DOF(s) carry no stiffness (slack nodes: a slack chain on the seabed, a slack span; a free "
                       "body's unrestrained turn): held, their zero-frequency modes left out");
    if (modes_->asymmetry > 1e-6)
      notes_.push_back("modal analysis: the static tangent is not symmetric (max |K - K^T| / max |K| = " +
                       cabledyn::to_text(modes_->asymmetry) + "): its symmetric part is used");
    files_.push_back(write_modes_file<double>(set_.root, std::span<const ModalResult<double>>(modes_->lines)));
  }

  // The second pass of the restart check (--restart-check): the simulation restored to its
  // copy at step s0 marches to the end again, and every output row (channels, node
  // positions and line files) must equal the first pass's bit for bit.
  void restart_check(long long s0, const SystemSimulation::Checkpoint& copy, const std::vector<std::vector<double>>& rows) {
    const double dt = *deck_.options.dtM;
    sim_->restore(copy);
    // The per-time caches of the recovered channels: computed again, not read from pass one.
    recovery_t_ = forces_t_ = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> f(x_.size());
    for (long long s = s0 + 1; s <= deck_.options.steps(); ++s) {
      const double t = static_cast<double>(s) * dt;
      coupled_at(t);
      sim_->step(x_.data(), v_.data(), sim_->time(), dt, f.data());
      const std::vector<double> r = output_row(t);
      require_repeated_row(deck_.file, static_cast<double>(s0) * dt, t, r, rows[static_cast<std::size_t>(s - s0 - 1)]);
    }
    notes_.push_back("restart check: the system restored to its state at t = " +
                     cabledyn::to_text(static_cast<double>(s0) * dt) + " s repeated the " + std::to_string(rows.size()) +
                     " steps after it bit for bit");
  }

  // ---- channels ------------------------------------------------------------------------------
  void check_channel(const OutputChannel& c, const std::string& text) const {
    switch (c.kind) {
      case ChannelKind::FairTen:
      case ChannelKind::AnchTen:
      case ChannelKind::FairIncl:
      case ChannelKind::AnchIncl:
      case ChannelKind::NodePosition:
      case ChannelKind::NodeVelocity:
      case ChannelKind::NodeAcceleration:
      case ChannelKind::NodeForce:
      case ChannelKind::Ten:
      case ChannelKind::Curv:
      case ChannelKind::BendMom:
        (void)sim_->line_index(c.line);
        return;
      case ChannelKind::PointPosition:
      case ChannelKind::PointVelocity:
      case ChannelKind::PointAcceleration:
      case ChannelKind::PointForce:
      case ChannelKind::PointTension:
        if (!sim_->model().point_index.count(c.point)) throw InputError(deck_.file, "output channel point", c.point, "a point of POINTS");
        return;
      case ChannelKind::Body: {
        int f = 0, k = 0;
        if (c.object < 1 || c.object > static_cast<int>(deck_.bodies.size()) || !body_channel_quantity(c.quantity, f, k))
          throw InputError(deck_.file, "output channel", text.empty() ? c.name() : text, "a channel of a body of BODIES");
        return;
      }
      case ChannelKind::Rod: {
        int f = 0, k = 0, n = -1;
        const std::string name = text.empty() ? c.name() : text;
        if (c.object < 1 || c.object > static_cast<int>(sim_->model().rods.size()) || !rod_channel_quantity(c.quantity, f, k, n))
          throw InputError(deck_.file, "output channel", name, "a channel of a rod of RODS");
        const auto& rm = sim_->model().rods[static_cast<std::size_t>(c.object - 1)];
        if (n > std::max(0, rm.segments))
          throw InputError(deck_.file, "output channel " + name + " node", n,
                           "in [0, " + std::to_string(std::max(0, rm.segments)) + "] (the rod's NumSegs)");
        if (f == 6 || f == 7)
          throw NotImplementedError(deck_.file, "output channel", name, "rod net force and moment channels (F, M)");
        return;
      }
      default:
        throw NotImplementedError(deck_.file, "output channel", text.empty() ? c.name() : text,
                                  "in the system route: FairTen, AnchTen, FairIncl, AnchIncl, node positions, "
                                  "velocities, accelerations, forces, tensions, curvatures and bend moments, point, body "
                                  "and rod channels (rods' net force and moment: not yet)");
    }
  }

  // The node tension, curvature and bend moment of system line l at the current state (spec
  // "Node tension, curvature and bend moment": the single-line route's recovery,
  // io/node_recovery.hpp, on the line's node vector, whose layout is the Line's; the end
  // nodes' tensions are the line's end loads, as FairTen and AnchTen), once per output time.
  const NodeRecovery& node_recovery(int l) const {
    const double t = static_cast<double>(sim_->state().t);
    if (!(t == recovery_t_)) recovery_.clear(), recovery_t_ = t;
    const auto it = recovery_.find(l);
    if (it != recovery_.end()) return it->second;
    const auto& sys = sim_->model().system;
    const auto& st = sim_->state();
    const auto& m = sys.line(l).model;
    VecX<double> x, v;
    sys.line_gather(st, l, 0, x);
    sys.line_gather(st, l, 1, v);
    return recovery_[l] = recover_nodes_at(m, x, &v, sys.line_end_force_dynamic(st, l, 0, false),
                                           sys.line_end_force_dynamic(st, l, 1, false));
  }

  // The net force on every node of system line l at the current state
  // (MooringSystem::line_node_forces), once per output time.
  const VecX<double>& node_forces(int l) const {
    const double t = static_cast<double>(sim_->state().t);
    if (!(t == forces_t_)) forces_.clear(), forces_t_ = t;
    const auto it = forces_.find(l);
    if (it != forces_.end()) return it->second;
    sim_->model().system.line_node_forces(sim_->state(), l, forces_[l]);
    return forces_[l];
  }

  // Rod channel c (rod_channel_quantity; MoorDyn's Rod outputs): End A's or a node's motion,
  // the axis's roll and pitch (MoorDyn's -phi sin(beta), phi cos(beta): phi the tilt from the
  // vertical, beta the heading of the axis), the body's angular rates in deg/s, the magnitude
  // of the lines' load at each end, the mean submerged fraction of the sections at its nodes.
  double rod_channel_value(const OutputChannel& c) const {
    int f = 0, k = 0, n = -1;
    rod_channel_quantity(c.quantity, f, k, n);
    const auto& model = sim_->model();
    const auto& sys = model.system;
    const auto& st = sim_->state();
    const auto& rm = model.rods[static_cast<std::size_t>(c.object - 1)];
    if (f == 8 || f == 9) {  // TenA, TenB: the sum of the loads of the lines attached at that end
      const char end = f == 8 ? 'A' : 'B';
      Vec3<double> F = Vec3<double>::Zero();
      for (const auto& rec : deck_.lines)
        for (int e = 0; e < 2; ++e)
          if ((e == 0 ? rec.node_a : rec.node_b) == 0 && (e == 0 ? rec.rod_a : rec.rod_b) == c.object &&
              (e == 0 ? rec.rod_end_a : rec.rod_end_b) == end)
            F += sys.line_end_force_dynamic(st, sim_->line_index(rec.id), e, false);  // line-end forces, as FairTen
      return F.norm();
    }
    Vec3<double> rb;
    Mat3<double> Rb;
    if (rm.point >= 0) {  // a zero-length rod: a point (a direction joint: on its body)
      if (f == 0 || f == 2 || f == 4) return sys.point_motion(st, rm.point, f / 2)(k);
      if (f == 10) return sys.point_position(st, rm.point)(2) < 0 ? 1.0 : 0.0;
      if (rm.body < 0) return 0.0;  // no orientation
      if (f == 3 || f == 5) return sys.body_motion(st, rm.body, f == 3 ? 1 : 2)(3 + k) * 180 / kPi;
      sys.body_pose(st, rm.body, rb, Rb);
      const Vec3<double> q = Rb.col(2);  // the joint's axis (f == 1)
      const double phi = std::acos(std::clamp(q(2), -1.0, 1.0)), beta = std::atan2(q(1), q(0));
      return (k == 0 ? -phi * std::sin(beta) : phi * std::cos(beta)) * 180 / kPi;
    }
    sys.body_pose(st, rm.body, rb, Rb);
    const Vec3<double> pa = rb + Rb * rm.a, pb = rb + Rb * rm.b;
    const int N = std::max(1, rm.segments);
    // End A, or node n, as a point of the rod's body (its motion: MooringSystem::body_point_motion).
    PointModel<double> node;
    node.kind = PointKind::body;
    node.body = rm.body;
    node.r = n < 0 ? rm.a : Vec3<double>(rm.a + (rm.b - rm.a) * (double(n) / N));
    switch (f) {
      case 0:
      case 2:
      case 4: return sys.body_point_motion(st, node, f / 2)(k);
      case 3: return sys.body_motion(st, rm.body, 1)(3 + k) * 180 / kPi;
      case 5: return sys.body_motion(st, rm.body, 2)(3 + k) * 180 / kPi;
      case 1: {
        const Vec3<double> q = (pb - pa).normalized();
        const double phi = std::acos(std::clamp(q(2), -1.0, 1.0)), beta = std::atan2(q(1), q(0));
        return (k == 0 ? -phi * std::sin(beta) : phi * std::cos(beta)) * 180 / kPi;
      }
      default: {  // Sub
        const auto& part = sys.body(rm.body).rods[static_cast<std::size_t>(rm.part)];
        const RodAxis<double> ax = rod_axis<double>(part, rb, Rb);
        double sum = 0;
        for (int i = 0; i <= N; ++i) sum += rod_wet_fraction<double>(ax, pa(2) + (pb(2) - pa(2)) * (double(i) / N));
        return sum / (N + 1);
      }
    }
  }

  double channel_value(const OutputChannel& c) const {
    const auto& st = sim_->state();
    const auto& sys = sim_->model().system;
    switch (c.kind) {
      case ChannelKind::FairTen:
      case ChannelKind::AnchTen:
      case ChannelKind::FairIncl:
      case ChannelKind::AnchIncl: {
        const bool fair = c.kind == ChannelKind::FairTen || c.kind == ChannelKind::FairIncl;
        const Vec3<double> F = sim_->line_end_force(c.line, deck_.tension_end(c.line, fair));
        if (c.kind == ChannelKind::FairTen || c.kind == ChannelKind::AnchTen) return F.norm();
        return std::atan2(-F(2), std::hypot(F(0), F(1))) * 180 / kPi;
      }
      case ChannelKind::NodePosition:
      case ChannelKind::NodeVelocity:
      case ChannelKind::NodeAcceleration:
      case ChannelKind::NodeForce: {
        // Node J's slot in the line's node vector: its position, velocity or acceleration, or
        // the net force on it (MooringSystem::line_node_forces: -r(q, v), at the ends the
        // line's end loads).
        const int l = sim_->line_index(c.line);
        const long long j = deck_.channel_node(c);
        VecX<double> g;
        if (c.kind != ChannelKind::NodeForce)
          sys.line_gather(st, l, c.kind == ChannelKind::NodePosition ? 0 : c.kind == ChannelKind::NodeVelocity ? 1 : 2, g);
        const VecX<double>& x = c.kind == ChannelKind::NodeForce ? node_forces(l) : g;
        return x(3 * static_cast<Eigen::Index>(sys.line(l).model.position_slot(static_cast<std::size_t>(j - 1))) + c.component);
      }
      case ChannelKind::Ten:
      case ChannelKind::Curv:
      case ChannelKind::BendMom: {
        const NodeRecovery& r = node_recovery(sim_->line_index(c.line));
        const auto j = static_cast<std::size_t>(deck_.channel_node(c) - 1);
        return c.kind == ChannelKind::Ten ? r.tension[j] : c.kind == ChannelKind::Curv ? r.curvature[j] : r.moment[j];
      }
      case ChannelKind::PointPosition: return sim_->point_position(c.point)(c.component);
      case ChannelKind::PointVelocity:
      case ChannelKind::PointAcceleration:  // a point on a body moves with it (it held no v, a of its own)
        return sys.point_motion(st, sim_->model().point_index.at(c.point), c.kind == ChannelKind::PointVelocity ? 1 : 2)(
            c.component);
      case ChannelKind::PointForce: return sim_->point_force(c.point)(c.component);
      case ChannelKind::PointTension: return sim_->point_force(c.point).norm();
      case ChannelKind::Body: {
        int f = 0, k = 0;
        body_channel_quantity(c.quantity, f, k);
        Vec3<double> r;
        Mat3<double> R;
        sim_->body_pose(c.object, r, R);
        switch (f) {
          case 0: return r(k);
          case 1: return angles_xyz(R)(k) * 180 / kPi;
          case 2: return sim_->body_motion(c.object, 1)(k);
          case 3: return sim_->body_motion(c.object, 1)(3 + k) * 180 / kPi;  // deg/s, as MoorDyn
          case 4: return sim_->body_motion(c.object, 2)(k);
          case 5: return sim_->body_motion(c.object, 2)(3 + k) * 180 / kPi;
          case 6: return sim_->body_load(c.object)(k);
          default: return sim_->body_load(c.object)(3 + k);
        }
      }
      case ChannelKind::Rod: return rod_channel_value(c);
      default: break;
    }
    throw NotImplementedError(deck_.file, "output channel", c.name(), "in the system route");
  }

  // ---- files ---------------------------------------------------------------------------------
  void open_outputs() {
    out_ = std::make_unique<OutputFile>(set_.root + ".out");
    files_.push_back(out_->path());
    std::ostream& f = out_->stream();
    f << "cabledyn " << kVersion << " output of " << deck_.file << ": " << deck_.title << "\n";
    f << "Time(s)";
    for (const auto& n : channel_names()) f << "\t" << n;
    f << "\n";
    if (deck_.options.WriteUnits) {
      f << "(s)";
      for (const auto& o : deck_.outputs) f << "\t" << channel_unit(o.channel);
      f << "\n";
    }
    out_->row_done();
    // <root>.nodes.out: every node's position at every output time, as the single-line route
    // writes it (lines in deck order, nodes numbered as the deck counts them from End A).
    nodes_ = std::make_unique<OutputFile>(set_.root + ".nodes.out");
    files_.push_back(nodes_->path());
    std::ostream& g = nodes_->stream();
    g << "Time(s)";
    const int first = deck_.first_node_number();
    for (const auto& L : deck_.lines) {
      const auto& m = sim_->model().system.line(sim_->line_index(L.id)).model;
      for (std::size_t i = 0; i < m.n_nodes(); ++i)
        for (const char* c : {"px", "py", "pz"}) g << "\tL" << L.id << "N" << static_cast<long long>(i) + first << c;
    }
    g << "\n";
    nodes_->row_done();
    // <root>_Line<L>.out: MoorDyn's per-line output flags (io/line_output_file.hpp), as the
    // single-line route writes them.
    line_files_.clear();
    line_files_.resize(deck_.lines.size());
    line_widths_.assign(deck_.lines.size(), 0);
    node_values_ = 0;
    for (const auto& L : deck_.lines) node_values_ += 3 * sim_->model().system.line(sim_->line_index(L.id)).model.n_nodes();
    for (std::size_t k = 0; k < deck_.lines.size(); ++k) {
      const auto& L = deck_.lines[k];
      if (!line_file_wanted(L.outputs)) continue;
      const auto& m = sim_->model().system.line(sim_->line_index(L.id)).model;
      const std::vector<std::string> h = line_file_header(L.outputs, m.n_nodes(), m.n_elements(), first);
      if (h.empty()) continue;
      line_widths_[k] = h.size();
      line_files_[k] = std::make_unique<OutputFile>(set_.root + "_Line" + std::to_string(L.id) + ".out");
      files_.push_back(line_files_[k]->path());
      std::ostream& l = line_files_[k]->stream();
      l << "Time";
      for (const auto& n : h) l << "\t" << n;
      l << "\n";
      line_files_[k]->row_done();
    }
  }

  // The values of line file k's row at the committed state, in line_file_header's order:
  // node positions, curvatures (the node recovery), velocities, fluid velocities (the held
  // fluid, or the uniform current), VIV lift (zero: Cl = 0), segment tensions, strains and
  // strain rates (LineModel::segment_output), seabed forces; nodes from End A as written.
  std::vector<double> line_file_row(std::size_t k) const {
    const auto& L = deck_.lines[k];
    const auto has = [&](char f) { return L.outputs.find(f) != std::string::npos; };
    const auto& sys = sim_->model().system;
    const int l = sim_->line_index(L.id);
    const auto& m = sys.line(l).model;
    VecX<double> x, v;
    sys.line_gather(sim_->state(), l, 0, x);
    sys.line_gather(sim_->state(), l, 1, v);
    const std::size_t nn = m.n_nodes(), ne = m.n_elements();
    std::vector<double> out;
    const auto vec3 = [&](const Vec3<double>& a) { out.insert(out.end(), {a(0), a(1), a(2)}); };
    const auto slot = [&](const VecX<double>& y, std::size_t i) {
      return Vec3<double>(y.segment<3>(3 * static_cast<Eigen::Index>(m.position_slot(i))));
    };
    if (has('p'))
      for (std::size_t i = 0; i < nn; ++i) vec3(slot(x, i));
    if (has('K')) {
      const NodeRecovery& r = node_recovery(l);
      for (std::size_t i = 0; i < nn; ++i) out.push_back(r.curvature[i]);
    }
    if (has('v'))
      for (std::size_t i = 0; i < nn; ++i) vec3(slot(v, i));
    if (has('U'))
      for (std::size_t i = 0; i < nn; ++i) vec3(sys.line_node_fluid_velocity(l, i));
    if (has('V'))
      for (std::size_t i = 0; i < nn; ++i) vec3(Vec3<double>::Zero());
    for (char f : {'t', 's', 'd'})
      if (has(f))
        for (std::size_t e = 0; e < ne; ++e) {
          const auto so = m.segment_output(x, v, e);
          out.push_back(f == 't' ? so.tension : f == 's' ? so.strain : so.rate);
        }
    if (has('b'))
      for (std::size_t i = 0; i < nn; ++i)
        vec3(Vec3<double>(0, 0, m.seabed_reaction(i, slot(x, i)(2), slot(v, i)(2)).f));
    return out;
  }

  // The outputs of the committed state at time t: the channels (SolveError naming a
  // non-finite one), then every line's node positions (finite: a committed state).
  std::vector<double> output_row(double t) const {
    std::vector<double> row;
    for (const auto& o : deck_.outputs) {
      row.push_back(channel_value(o.channel));
      if (!std::isfinite(row.back()))
        throw SolveError(deck_.file + ": t = " + cabledyn::to_text(t) + " s", "output channel " + o.text, row.back(),
                         "a finite number");
    }
    const auto& sys = sim_->model().system;
    VecX<double> x;
    for (const auto& L : deck_.lines) {
      const int l = sim_->line_index(L.id);
      const auto& m = sys.line(l).model;
      sys.line_gather(sim_->state(), l, 0, x);
      for (std::size_t i = 0; i < m.n_nodes(); ++i)
        for (Eigen::Index c = 0; c < 3; ++c) row.push_back(x(3 * static_cast<Eigen::Index>(m.position_slot(i)) + c));
    }
    // Then each line file's values (SolveError naming a non-finite one).
    for (std::size_t k = 0; k < line_files_.size(); ++k) {
      if (!line_files_[k]) continue;
      for (double a : line_file_row(k)) {
        if (!std::isfinite(a))
          throw SolveError(deck_.file + ": t = " + cabledyn::to_text(t) + " s",
                           "line " + std::to_string(deck_.lines[k].id) + " output", a, "a finite number");
        row.push_back(a);
      }
    }
    return row;
  }

  void record(double t) {
    std::vector<double> row = output_row(t);
    const auto nc = static_cast<std::ptrdiff_t>(deck_.outputs.size());
    std::ostream& f = out_->stream();
    f << t;
    for (auto it = row.begin(); it != row.begin() + nc; ++it) f << "\t" << *it;
    f << "\n";
    out_->row_done();
    std::size_t at = static_cast<std::size_t>(nc) + node_values_;
    std::ostream& g = nodes_->stream();
    g << t;
    for (auto it = row.begin() + nc; it != row.begin() + static_cast<std::ptrdiff_t>(at); ++it) g << "\t" << *it;
    g << "\n";
    nodes_->row_done();
    for (std::size_t k = 0; k < line_files_.size(); ++k) {
      if (!line_files_[k]) continue;
      std::ostream& l = line_files_[k]->stream();
      l << t;
      for (std::size_t i = 0; i < line_widths_[k]; ++i) l << "\t" << row[at++];
      l << "\n";
      line_files_[k]->row_done();
    }
    last_out_t_ = t;
    // The tension figure's bounded history: each line's FairTen (the end FairTen<L> reads).
    history_.offer(t, [&] {
      std::vector<double> f;
      for (const auto& L : deck_.lines) f.push_back(sim_->line_end_force(L.id, deck_.tension_end(L.id, true)).norm());
      return f;
    });
    if (set_.keep_history) {
      times_.push_back(t);
      row.resize(static_cast<std::size_t>(nc));
      rows_.push_back(std::move(row));
    }
  }

  /// <root>.static.out: every node of every line at the static equilibrium (node numbers as
  /// the deck counts them, from End A as written) in the single-line route's columns: its
  /// unstretched arc length from End A, position, and the node recovery's tension (an end
  /// node's: the line-end force, FairTen / AnchTen), curvature and bend moment
  /// (io/node_recovery.hpp); then every point's position and the net force of its lines, and
  /// every body's pose and line load.
  void write_static_out() {
    auto out = std::make_unique<OutputFile>(set_.root + ".static.out");
    files_.push_back(out->path());
    std::ostream& f = out->stream();
    const auto& sys = sim_->static_system();  // the system as its statics solved it
    const int first = deck_.first_node_number();
    f << "LineID\tNode\tArcLength(m)\tX(m)\tY(m)\tZ(m)\tTension(N)\tCurvature(1/m)\tBendMoment(Nm)\n";
    VecX<double> x;
    for (std::size_t l = 0; l < sys.n_lines(); ++l) {
      const int li = static_cast<int>(l);
      sys.line_gather(static_state_, li, 0, x);
      const auto& m = sys.line(li).model;
      const NodeRecovery rec = recover_nodes_at(m, x, nullptr, sys.line_end_force(static_state_, li, 0),
                                                sys.line_end_force(static_state_, li, 1));
      double arc = 0;
      for (std::size_t i = 0; i < m.n_nodes(); ++i) {
        if (i > 0) arc += m.L0(i - 1);
        const Vec3<double> r = m.node(x, i);
        for (double v : {r(0), r(1), r(2), rec.tension[i], rec.curvature[i], rec.moment[i]})
          if (!std::isfinite(v))
            throw SolveError(deck_.file + ": line " + std::to_string(sim_->model().line_id[l]) + " statics",
                             "node " + std::to_string(i + 1) + " result", v, "a finite number");
        f << sim_->model().line_id[l] << "\t" << static_cast<long long>(i) + first << "\t" << arc << "\t" << r(0)
          << "\t" << r(1) << "\t" << r(2) << "\t" << rec.tension[i] << "\t" << rec.curvature[i] << "\t"
          << rec.moment[i] << "\n";
      }
      out->row_done();
    }
    f << "\nPointID\tType\tX(m)\tY(m)\tZ(m)\tFx(N)\tFy(N)\tFz(N)\n";
    for (std::size_t p = 0; p < sys.n_points(); ++p) {
      const int pi = static_cast<int>(p);
      const Vec3<double> r = sys.point_position(static_state_, pi);
      Vec3<double> F = Vec3<double>::Zero();
      for (std::size_t l = 0; l < sys.n_lines(); ++l)
        for (int e = 0; e < 2; ++e)
          if (sys.line(static_cast<int>(l)).point[e] == pi) F += sys.line_end_force(static_state_, static_cast<int>(l), e);
      const auto& P = sys.point(pi);
      const std::string kind = P.kind == PointKind::free      ? "Free"
                               : P.kind == PointKind::coupled ? "Coupled"
                               : P.kind == PointKind::body    ? "Body" + std::to_string(P.body + 1)
                                                              : "Fixed";
      f << sim_->model().point_id[p] << "\t" << kind << "\t" << r(0) << "\t" << r(1) << "\t" << r(2) << "\t" << F(0) << "\t"
        << F(1) << "\t" << F(2) << "\n";
    }
    out->row_done();
    if (sys.n_bodies() > 0) {
      // Bodies: the pose and the static load of their lines about the reference point.
      f << "\nBodyID\tType\tX(m)\tY(m)\tZ(m)\tRoll(deg)\tPitch(deg)\tYaw(deg)\tFx(N)\tFy(N)\tFz(N)\tMx(Nm)\tMy(Nm)\tMz(Nm)\n";
      for (std::size_t b = 0; b < sys.n_bodies(); ++b) {
        const int bi = static_cast<int>(b);
        Vec3<double> r;
        Mat3<double> R;
        sys.body_pose(static_state_, bi, r, R);
        const Vec3<double> ang = angles_xyz(R) * (180 / kPi);
        const Vec6<double> F = sys.body_line_load(static_state_, bi, false);
        const auto k = sys.body(bi).kind;
        // Deck bodies first (BODIES IDs), then the bodies of Fixed, Free and Pinned rods (named).
        const std::string id = b < deck_.bodies.size() ? std::to_string(b + 1) : sys.body(bi).name;
        f << id << "\t"
          << (k == BodyKind::free      ? "Free"
              : k == BodyKind::coupled ? "Coupled"
              : k == BodyKind::pinned  ? (sys.body(bi).host_pin ? "CoupledPinned" : "Pinned")
                                       : "Fixed");
        for (int i = 0; i < 3; ++i) f << "\t" << r(i);
        for (int i = 0; i < 3; ++i) f << "\t" << ang(i);
        for (int i = 0; i < 6; ++i) f << "\t" << F(i);
        f << "\n";
      }
      out->row_done();
    }
    out->close();
  }

  /// <root>.profile.svg (elevation, x-z) and <root>.plan.svg (x-y) of the static system:
  /// every line, the free points and the held points, and the seabed.
  void write_plots() {
    const auto& sys = sim_->static_system();  // the system as its statics solved it
    for (int view = 0; view < 2; ++view) {
      Plot p;
      p.title = view == 0 ? "Static system: elevation" : "Static system: plan";
      p.xlabel = "x (m)";
      p.ylabel = view == 0 ? "z (m)" : "y (m)";
      p.equal_aspect = true;
      VecX<double> x;
      double xmin = 1e300, xmax = -1e300;
      for (std::size_t l = 0; l < sys.n_lines(); ++l) {
        PlotSeries s;
        s.label = "line " + std::to_string(sim_->model().line_id[l]);
        sys.line_gather(static_state_, static_cast<int>(l), 0, x);
        const auto& m = sys.line(static_cast<int>(l)).model;
        for (std::size_t i = 0; i < m.n_nodes(); ++i) {
          const Vec3<double> r = m.node(x, i);
          s.x.push_back(r(0));
          s.y.push_back(r(view == 0 ? 2 : 1));
          xmin = std::min(xmin, r(0));
          xmax = std::max(xmax, r(0));
        }
        p.series.push_back(std::move(s));
      }
      PlotSeries free_pts, held_pts;
      free_pts.label = "free points";
      free_pts.markers = true;
      free_pts.color = "#d62728";
      held_pts.label = "anchors and fairleads";
      held_pts.markers = true;
      held_pts.color = "#333333";
      for (std::size_t q = 0; q < sys.n_points(); ++q) {
        const Vec3<double> r = sys.point_position(static_state_, static_cast<int>(q));
        PlotSeries& t = sys.point(static_cast<int>(q)).kind == PointKind::free ? free_pts : held_pts;
        t.x.push_back(r(0));
        t.y.push_back(r(view == 0 ? 2 : 1));
      }
      if (!free_pts.x.empty()) p.series.push_back(free_pts);
      if (!held_pts.x.empty()) p.series.push_back(held_pts);
      // Each body: its reference point joined to its attachment points.
      for (std::size_t b = 0; b < sys.n_bodies(); ++b) {
        Vec3<double> rb;
        Mat3<double> Rb;
        sys.body_pose(static_state_, static_cast<int>(b), rb, Rb);
        PlotSeries body;
        body.label = b < deck_.bodies.size() ? "body " + std::to_string(b + 1) : sys.body(static_cast<int>(b)).name;
        body.color = "#1f77b4";
        body.markers = true;
        for (std::size_t q = 0; q < sys.n_points(); ++q) {
          const auto& P = sys.point(static_cast<int>(q));
          if (P.kind != PointKind::body || P.body != static_cast<int>(b)) continue;
          const Vec3<double> r = sys.point_position(static_state_, static_cast<int>(q));
          body.x.insert(body.x.end(), {rb(0), r(0)});
          body.y.insert(body.y.end(), {rb(view == 0 ? 2 : 1), r(view == 0 ? 2 : 1)});
        }
        if (body.x.empty()) body.x.push_back(rb(0)), body.y.push_back(rb(view == 0 ? 2 : 1));
        p.series.push_back(std::move(body));
      }
      if (view == 0 && deck_.environment().depth && xmax >= xmin) {
        PlotSeries bed;
        bed.label = "seabed";
        bed.color = "#8c6d31";
        bed.dashed = true;
        bed.x = {xmin, xmax};
        bed.y = {-*deck_.environment().depth, -*deck_.environment().depth};
        p.series.push_back(bed);
      }
      auto f = std::make_unique<OutputFile>(set_.root + (view == 0 ? ".profile.svg" : ".plan.svg"));
      files_.push_back(f->path());
      f->stream() << to_svg(p);
      f->close();
    }
    auto svg = [&](const Plot& p, const char* suffix) {
      auto f = std::make_unique<OutputFile>(set_.root + suffix);
      files_.push_back(f->path());
      f->stream() << to_svg(p);
      f->close();
    };
    // <root>.tension.svg: each line's FairTen over the run (two output times or more), as the
    // single-line route draws it.
    if (history_.size() > 1) {
      Plot ten;
      ten.title = "Fairlead tension";
      ten.xlabel = "time (s)";
      ten.ylabel = "FairTen (kN)";
      for (std::size_t k = 0; k < deck_.lines.size(); ++k) {
        PlotSeries s;
        s.label = "line " + std::to_string(deck_.lines[k].id);
        s.x = history_.t();
        for (double v : history_.y(k)) s.y.push_back(v / 1e3);
        ten.series.push_back(std::move(s));
      }
      svg(ten, ".tension.svg");
    }
    // <root>.curvature.svg: the static curvature of the finite-EI lines along their
    // unstretched arc length from End A (the node recovery at the static state).
    Plot cur;
    cur.title = "Static curvature along the cables";
    cur.xlabel = "arc length from End A (m)";
    cur.ylabel = "curvature (1/m)";
    VecX<double> xs;
    for (const auto& L : deck_.lines) {
      const int l = sim_->line_index(L.id);
      const auto& m = sys.line(l).model;
      if (!m.hermite()) continue;
      sys.line_gather(static_state_, l, 0, xs);
      const NodeRecovery r =
          recover_nodes_at(m, xs, nullptr, sys.line_end_force(static_state_, l, 0), sys.line_end_force(static_state_, l, 1));
      PlotSeries s;
      s.label = "line " + std::to_string(L.id);
      double arc = 0;
      for (std::size_t i = 0; i < m.n_nodes(); ++i) {
        if (i > 0) arc += m.L0(i - 1);
        s.x.push_back(arc);
        s.y.push_back(r.curvature[i]);
      }
      cur.series.push_back(std::move(s));
    }
    if (!cur.series.empty()) svg(cur, ".curvature.svg");
  }

  void write_summary(double seconds) {
    auto out = std::make_unique<OutputFile>(set_.root + ".summary.txt");
    files_.push_back(out->path());
    std::ostream& f = out->stream();
    f << "cabledyn " << kVersion << " run of " << deck_.file << "\n" << deck_.title << "\n\n";
    const auto& sys = sim_->static_system();  // the system as its statics solved it
    f << "system route: " << sys.n_lines() << " lines, " << sys.n_points() << " points, " << sys.n_bodies() << " bodies ("
      << sys.dofs() << " DOFs)\n";
    if (dynamic_run())
      f << "run: " << deck_.options.steps() << " steps of dtM = " << *deck_.options.dtM << " s to t = "
        << *deck_.options.TMax << " s (run length from " << tmax_source_ << ")\n";
    else
      f << "run: statics only\n";
    if (!stop_reason_.empty()) {
      if (sim_->initialized())
        f << "STOPPED after " << steps_done_ << " of " << deck_.options.steps() << " steps (t = " << sim_->time()
          << " s); the outputs hold every output time up to t = " << last_out_t_ << " s: " << stop_reason_ << "\n";
      else
        f << "STOPPED before the march: " << stop_reason_ << "\n";
    }
    for (const auto& n : notes_) f << "note: " << n << "\n";
    if (modes_) {
      f << "modes: the " << modes_->n_modes() << " lowest of the system, frequencies:";
      for (Eigen::Index j = 0; j < modes_->n_modes(); ++j) f << " " << modes_->frequency(j);
      f << " Hz\n";
    }
    if (sim_->initialized()) {
      const auto& st = sim_->statics();
      f << "statics: point balance " << st.point_iterations << " iterations, polish " << st.iterations
        << " Newton iterations, residual " << st.residual << " N (force scale " << st.scale << " N)\n";
      if (dynamic_run()) {
        const auto* parts = sim_->components();
        f << "march: " << sim_->stepper_statistics().steps << " steps"
          << (parts ? " (summed over the " + std::to_string(parts->size()) + " components stepped apart)"
                    : std::string())
          << ", " << sim_->stepper_statistics().newton_iterations << " Newton iterations, "
          << sim_->stepper_statistics().factorizations << " factorisations"
          << (deck_.options.modified_newton ? " (modified Newton)" : "") << ", "
          << sim_->stepper_statistics().subdivisions << " subdivided steps";
        if (sim_->staggered())
          f << "; bodyScheme staggered: up to " << sim_->max_substeps() << " sub-steps per dtM"
            << (sim_->max_substeps() > 256 ? " (warning: more than 256: the explicit body update needs short steps here)" : "");
        else if (sim_->max_substeps() > 1)
          f << "; bodySubstep accuracy: up to " << sim_->max_substeps() << " sub-steps per dtM";
        const auto& ss = sim_->stepper_statistics();
        if (ss.release_caps > 0) f << "; release cap: " << ss.release_caps << " capped element-steps";
        if (ss.substepped > 0)
          f << "; EI = 0 sub-steps: " << ss.substepped << " steps solved again (up to " << ss.largest_substeps
            << " sub-steps), " << ss.kept_plain << " kept plain";
        bool ei0 = false;
        for (std::size_t l = 0; l < sys.n_lines(); ++l) ei0 = ei0 || !sys.line(static_cast<int>(l)).model.hermite();
        if (ei0) f << "; largest chord turn " << ss.largest_turn_deg << " deg per solver step";
        f << "\n";
        if (ei0)
          if (const auto note = chord_turn_note(ss.largest_turn_deg, sim_->system().ei0_substeps(),
                                                sim_->system().ei0_substep_angle()))
            f << "note: " << *note << "\n";
        if (ss.kept_plain > 0)
          f << "note: " << kept_plain_note(ss.kept_plain) << "\n";
      }
      for (std::size_t l = 0; l < sys.n_lines(); ++l) {
        const int id = sim_->model().line_id[l];
        f << "line " << id << " (" << (sys.line(static_cast<int>(l)).model.hermite() ? "finite-EI cable, " : "EI = 0 line, ")
          << sys.line(static_cast<int>(l)).model.n_elements() << " elements, "
          << sys.line(static_cast<int>(l)).model.length() << " m): end forces at t = " << sim_->time() << " s: End A "
          << sim_->line_end_force(id, 0).norm() << " N, End B " << sim_->line_end_force(id, 1).norm() << " N\n";
        const auto li = static_cast<int>(l);
        if (const auto* parts = dynamic_run() ? sim_->components() : nullptr) {
          // The march of the line's component (stepped apart: its own steps and iterations).
          for (std::size_t k = 0; k < parts->size(); ++k) {
            if (parts->view(k).component() != sys.line_component(li)) continue;
            const auto& cs = parts->stepper(k).statistics();
            f << "  march (component " << k + 1 << " of " << parts->size() << ": " << parts->view(k).name()
              << "): " << cs.steps << " steps, " << cs.newton_iterations << " Newton iterations, " << cs.factorizations
              << " factorisations, " << cs.subdivisions << " subdivided steps";
            if (cs.substepped > 0)
              f << ", " << cs.substepped << " steps solved again in sub-steps (up to " << cs.largest_substeps << ")";
            if (!sys.line(li).model.hermite())
              f << "; largest chord turn " << cs.largest_turn_deg << " deg per solver step";
            f << "\n";
          }
        }
        f << "  static: FairTen " << sys.line_end_force(static_state_, li, deck_.tension_end(id, true)).norm()
          << " N, AnchTen " << sys.line_end_force(static_state_, li, deck_.tension_end(id, false)).norm() << " N\n";
        std::size_t k = 0;
        while (k < deck_.lines.size() && deck_.lines[k].id != id) ++k;
        if (dynamic_run() && k < extremes_.size()) {
          const Extremes& x = extremes_[k];
          f << "  dynamic: FairTen min " << x.lo[0] << " N (t = " << x.t_lo[0] << " s), max " << x.hi[0]
            << " N (t = " << x.t_hi[0] << " s); AnchTen min " << x.lo[1] << " N, max " << x.hi[1] << " N\n";
        }
      }
    }
    f << "\nwall time " << seconds << " s\nfiles:";
    for (const auto& p : files_) f << " " << p;
    f << "\n";
    out->close();
  }

  Deck deck_;
  RunSettings set_;
  std::string tmax_source_;
  std::vector<std::string> notes_;
  std::unique_ptr<SystemSimulation> sim_;
  std::optional<MotionTracks> motion_;   // the motionFile's point tracks (no coupled bodies)
  std::vector<MotionTrack> dof_tracks_;   // the motionFile's coupled-DOF tracks (coupled bodies), 3 DOFs each
  std::vector<double> x_, v_;
  std::unique_ptr<OutputFile> out_, nodes_;
  std::vector<std::unique_ptr<OutputFile>> line_files_;  // per deck line (null: no file)
  std::vector<std::size_t> line_widths_;                 // per deck line: its file's values per row
  std::size_t node_values_ = 0;                          // the .nodes.out values per row
  FigureHistory history_;                                // the tension figure's FairTen of each line
  std::vector<Extremes> extremes_;                       // per deck line: FairTen, AnchTen extremes
  std::optional<SystemModalResult> modes_;               // the modal analysis (nModes)
  std::vector<std::string> files_;
  SystemState<double> static_state_;
  bool statics_done_ = false;
  std::vector<double> times_;
  std::vector<std::vector<double>> rows_;
  std::string stop_reason_;
  long long steps_done_ = 0;
  double last_out_t_ = -1;
  mutable std::map<int, NodeRecovery> recovery_;  // node recovery per line at recovery_t_
  mutable std::map<int, VecX<double>> forces_;     // node forces per line at forces_t_
  mutable double forces_t_ = std::numeric_limits<double>::quiet_NaN();
  mutable double recovery_t_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace cabledyn::io
