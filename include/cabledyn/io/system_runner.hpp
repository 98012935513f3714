// cabledyn: the driver's run of a deck: the deck run as one mooring system (statics, the
// modes, then the march under the deck's prescribed motion), written as: <root>.out (the
// requested channels every dtOut), <root>.nodes.out (every node's position at the same
// times), <root>.static.out (every node and point at the static equilibrium), per-line files,
// <root>.modes.out, <root>.summary.txt and the figures. docs/driver.md.
//
// The run is the host coupling of io/system_simulation.hpp driven by the deck: at each step
// the coupled points are set to their motion at t + dt (position and velocity; the
// acceleration is the change of velocity over the step, as a host gives it), so a host that
// passes the same kinematics through the C API gets the same forces bit for bit.
//
// This header declares SystemRunner and documents its members; their definitions live in
// parts with one job each (io/system_runner/, included at the end):
//   run.hpp       the orchestration: statics, modes, the march, the restart check
//   channels.hpp  the output channels' values (node recovery, node forces, rods, bodies)
//   outputs.hpp   the files, the figures and the summary
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
    // What can be checked before any solve: no held point below
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
        check_motion_envelope(deck_, env, pm);
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
  std::vector<std::string> channel_names() const;
  /// Points the tension figure keeps (at most 8192, whatever the run's length).
  std::size_t plot_history_size() const { return history_.size(); }
  /// The modal analysis of the run (nModes > 0, after the statics), or none.
  const std::optional<SystemModalResult>& modes() const { return modes_; }

  /// Statics, march, outputs and summary; on a failure (or SIGINT) the outputs hold every
  /// committed row, the summary says where and why the run stopped, and the error is thrown.
  void run();

 private:
  bool dynamic_run() const { return deck_.options.dynamic() && !set_.static_only; }

  // The coupled kinematics at t: positions and velocities of the coupled bodies and rods (6
  // per body or Coupled rod, its reference point moved by the deck's fairleadMotion, its deck
  // orientation held; 3 per CoupledPinned rod, its End A), then 3 per coupled point.
  void coupled_at(double t);

  void march();

  // Each line's FairTen and AnchTen (the ends FairTen<L> and AnchTen<L> read): their least
  // and greatest values over the march and when (the summary's "dynamic" line), from the
  // statics on.
  struct Extremes {
    double lo[2] = {0, 0}, hi[2] = {0, 0}, t_lo[2] = {0, 0}, t_hi[2] = {0, 0};
  };
  void track_extremes(double t);

  // Each line whose static shape leaves the vertical plane of its ends with no current (no
  // uniform current and no current field) is noted (io/line_run.hpp, out_of_plane_note: a
  // buckled equilibrium whose mirror image is one too).
  void note_out_of_plane();

  // The modes of the whole system about its static state (nModes; system/system_modes.hpp),
  // written to <root>.modes.out (modal/modes_output.hpp's format): one block per line, each
  // with the system's frequencies and that line's node translations.
  void solve_modes();

  // The second pass of the restart check (--restart-check): the simulation restored to its
  // copy at step s0 marches to the end again, and every output row (channels, node
  // positions and line files) must equal the first pass's bit for bit.
  void restart_check(long long s0, const SystemSimulation::Checkpoint& copy, const std::vector<std::vector<double>>& rows);

  // ---- channels ------------------------------------------------------------------------------
  void check_channel(const OutputChannel& c, const std::string& text) const;

  // The node tension, curvature and bend moment of system line l at the current state (spec
  // "Node tension, curvature and bend moment": the recovery of
  // io/node_recovery.hpp on the line's node vector, whose layout is the Line's; the end
  // nodes' tensions are the line's end loads, as FairTen and AnchTen), once per output time.
  const NodeRecovery& node_recovery(int l) const;

  // The net force on every node of system line l at the current state
  // (MooringSystem::line_node_forces), once per output time.
  const VecX<double>& node_forces(int l) const;

  // Rod channel c (rod_channel_quantity; MoorDyn's Rod outputs): End A's or a node's motion,
  // the axis's roll and pitch (MoorDyn's -phi sin(beta), phi cos(beta): phi the tilt from the
  // vertical, beta the heading of the axis), the body's angular rates in deg/s, the magnitude
  // of the lines' load at each end, the mean submerged fraction of the sections at its nodes.
  double rod_channel_value(const OutputChannel& c) const;

  double channel_value(const OutputChannel& c) const;

  // ---- files ---------------------------------------------------------------------------------
  void open_outputs();

  // The values of line file k's row at the committed state, in line_file_header's order:
  // node positions, curvatures (the node recovery), velocities, fluid velocities (the held
  // fluid, or the uniform current), VIV lift (zero: Cl = 0), segment tensions, strains and
  // strain rates (LineModel::segment_output), seabed forces; nodes from End A as written.
  std::vector<double> line_file_row(std::size_t k) const;

  // The outputs of the committed state at time t: the channels (SolveError naming a
  // non-finite one), then every line's node positions (finite: a committed state).
  std::vector<double> output_row(double t) const;

  void record(double t);

  /// <root>.static.out: every node of every line at the static equilibrium (node numbers as
  /// the deck counts them, from End A as written) in these columns: its
  /// unstretched arc length from End A, position, and the node recovery's tension (an end
  /// node's: the line-end force, FairTen / AnchTen), curvature and bend moment
  /// (io/node_recovery.hpp); then every point's position and the net force of its lines, and
  /// every body's pose and line load.
  void write_static_out();

  /// <root>.profile.svg (elevation, x-z) and <root>.plan.svg (x-y) of the static system:
  /// every line, the free points and the held points, and the seabed.
  void write_plots();

  void write_summary(double seconds);

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

// The member definitions, one part per job (docs/index.md).
#include "cabledyn/io/system_runner/run.hpp"
#include "cabledyn/io/system_runner/channels.hpp"
#include "cabledyn/io/system_runner/outputs.hpp"
