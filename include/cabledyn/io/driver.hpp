// cabledyn: the deck driver. Turns a parsed deck into lines, solves the static equilibrium
// of each line, the modes (nModes), the dynamic march (dtM, TMax) under the deck's prescribed
// fairlead motion and sea state, and writes the outputs of DECK_FORMAT.md ("Outputs"):
// <root>.out (the requested channels, every dtOut), <root>.static.out (per node),
// <root>.modes.out, <root>.nodes.out (per-line node positions at each output time),
// <root>_Line<L>.out (MoorDyn's per-line output flags), <root>.summary.txt, and SVG figures
// (<root>.profile.svg, <root>.tension.svg, <root>.curvature.svg). docs/driver.md.
//
// One job: the orchestration of a run (statics, modes, the march with its restart check, the
// order of the outputs, how a failed run stops). Its parts, one job each: io/line_run.hpp
// (the lines from the deck, checked), io/deck_sea.hpp (the sea state), io/node_recovery.hpp
// (node tension, curvature and bend moment), io/line_channels.hpp (the output channels'
// values) and io/run_outputs.hpp (the files, figures and summary).
#pragma once

#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <iostream>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cabledyn/dynamics.hpp"
#include "cabledyn/io/deck.hpp"
#include "cabledyn/io/deck_sea.hpp"
#include "cabledyn/io/line_channels.hpp"
#include "cabledyn/io/line_run.hpp"
#include "cabledyn/io/motion.hpp"
#include "cabledyn/io/node_recovery.hpp"
#include "cabledyn/io/run_outputs.hpp"
#include "cabledyn/io/run_settings.hpp"
#include "cabledyn/modal.hpp"
#include "cabledyn/statics.hpp"

namespace cabledyn::io {

/// A deck run: build with the deck, call run().
/// A class template with one defaulted, unused parameter; use it as `DeckRunner`, its only
/// instance. Its member bodies are then compiled only in the files that use them, which
/// keeps the headers that include this one cheap to compile.
template <class Unused = void>
class BasicDeckRunner {
 public:
  /// Builds the lines of a deck (its TMax and dtM replaced by the settings' --tmax and --dtm);
  /// reads the motionFile of a dynamic run. Throws InputError (NotImplementedError for a deck
  /// read with unsupported requests).
  BasicDeckRunner(const Deck& deck, RunSettings settings) : deck_(deck), set_(std::move(settings)), outputs_(set_.root) {
    if (!deck_.unsupported.empty()) {
      const auto& u = deck_.unsupported.front();
      throw NotImplementedError(detail::where(deck_.file, u.line), u.quantity, u.value, u.feature);
    }
    tmax_source_ = apply_run_overrides(deck_, set_);
    check_vessel(deck_);
    notes_ = deck_.notes;
    env_ = deck.environment();
    env_.validate();
    if (dynamic_run() && deck_.options.motionFile) {
      const std::string path =
          set_.motion_file ? *set_.motion_file : deck_relative_path(deck_, *deck_.options.motionFile);
      motion_ = motion_tracks(read_motion(path), deck_, *deck_.options.TMax);
      for (const auto& p : deck_.points)
        if (p.moving() && !motion_->vessel && !motion_->find(p.id))
          notes_.push_back(path + ": point " + std::to_string(p.id) + " is not in the motionFile: held at its deck position");
    }
    lines_ = build_line_runs(deck_, env_, motions(), notes_);
    if (dynamic_run()) check_motion_envelope(deck_, env_, motions());
    sea_ = build_deck_sea(deck_, env_);
    if (sea_.has_current)
      for (auto& L : lines_) L.problem.current = sea_.steady;
  }

  const std::vector<LineRun>& lines() const { return lines_; }
  /// The deck as run (its TMax and dtM replaced by the settings' --tmax and --dtm).
  const Deck& deck() const { return deck_; }
  const std::vector<std::string>& files() const { return outputs_.files(); }
  /// Notes of the run (the deck's and the driver's), also in the summary.
  const std::vector<std::string>& notes() const { return notes_; }
  /// Output times and channel values (one row per output time).
  const std::vector<double>& times() const { return outputs_.times(); }
  const std::vector<std::vector<double>>& channel_rows() const { return outputs_.channel_rows(); }
  const std::vector<std::string>& channel_names() const { return outputs_.channel_names(); }
  /// Points the tension figure keeps (at most 8192, whatever the run's length).
  std::size_t plot_history_size() const { return outputs_.plot_history_size(); }

  /// Statics, modes, dynamics, outputs, figures and summary. The outputs of an earlier run
  /// under the same root are removed first; each output row is written as the run goes. When
  /// a step fails (or the run is interrupted) the files hold every row up to the last
  /// committed step, the summary says where and why the run stopped, and the error is thrown.
  void run() {
    const auto t0 = std::chrono::steady_clock::now();
    const auto stale = remove_stale_outputs(set_.root);
    if (!stale.empty())
      notes_.push_back("removed " + std::to_string(stale.size()) + " output file(s) of an earlier run under " + set_.root);
    if (set_.log)
      for (const auto& n : notes_) *set_.log << "note: " << n << "\n";
    std::exception_ptr failure;
    try {
      solve_statics();
      outputs_.write_static_out(deck_, lines_);
      if (deck_.options.nModes > 0) solve_modes();
      open_outputs();
      if (dynamic_run()) march();
      else record(0.0, true);
      outputs_.close_outputs();
    } catch (const Error& e) {
      failure = std::current_exception();
      status_.stop_reason = e.what();
      try {
        outputs_.close_outputs();
      } catch (const Error& e2) {
        status_.stop_reason += std::string("; ") + e2.what();
      }
    }
    if (set_.plots && !lines_.empty() && status_.statics_done) outputs_.write_plots(lines_, env_);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    status_.dynamic = dynamic_run();
    status_.static_only = set_.static_only;
    status_.tmax_source = tmax_source_;
    outputs_.write_summary(deck_, lines_, notes_, status_, secs);
    if (failure) std::rethrow_exception(failure);
  }

  /// The static value of every requested channel (also the first row of <root>.out).
  std::vector<double> static_channels() {
    std::vector<double> v;
    cache_.now = 0;
    auto ch = channels();
    for (const auto& o : deck_.outputs) v.push_back(ch.channel_value(o.channel, true));
    return v;
  }

  /// Node recovery of line `k` at its current state (static or committed dynamic).
  NodeRecovery recover(std::size_t k, bool use_static) const { return recover_nodes(lines_[k], use_static); }

 private:
  void say(const std::string& s) const {
    if (set_.log) *set_.log << s << "\n";
  }

  std::string line_context(const LineRun& L) const { return io::line_context(deck_, L.id); }

  /// Runs f; an error it throws is thrown again, of the same kind, its object prefixed with
  /// the deck line of L (see in_line_context).
  template <class F>
  void in_context(const LineRun& L, F&& f) const {
    in_line_context(deck_, L.id, std::forward<F>(f));
  }

  bool dynamic_run() const { return deck_.options.dynamic() && !set_.static_only; }

  /// The prescribed motion of the deck's points in this run.
  PointMotions motions() const { return {&deck_, motion_ ? &*motion_ : nullptr, dynamic_run()}; }
  EndMotions line_motion(const LineRun& L, double t) const { return motions().of(L, t); }

  /// The channel values of the lines at their current states.
  LineChannels channels() { return LineChannels(deck_, lines_, fluid_, motions(), cache_); }

  // ---- outputs --------------------------------------------------------------------------------
  /// Opens <root>.out, <root>.nodes.out and the line files and writes their headers.
  void open_outputs() {
    auto ch = channels();
    std::vector<std::vector<std::string>> headers;
    for (std::size_t k = 0; k < lines_.size(); ++k) headers.push_back(ch.line_output_header(k));
    outputs_.open_outputs(deck_, lines_, headers, notes_);
  }

  std::vector<double> output_row(double t, bool use_static) { return channels().output_row(t, use_static); }

  /// Computes the outputs of time t and writes them: a row of <root>.out, of
  /// <root>.nodes.out and of each line file; kept in memory with keep_history; the plots'
  /// bounded history.
  void record(double t, bool use_static) {
    const std::vector<double> row = output_row(t, use_static);
    outputs_.write_row(t, row, lines_, use_static, set_.keep_history);
  }

  // ---- statics and modes ----------------------------------------------------------------------
  void solve_statics() {
    for (auto& L : lines_) {
      in_context(L, [&] {
        if (L.line->hermite()) {
          StaticOptions so;
          so.tensile_safety = deck_.options.tensile_safety;
          so.tensile_strain_tolerance = deck_.options.tensile_strain_tolerance;
          HermiteStatics s(*L.line, L.problem, so);
          L.statics = s.solve();
        } else {
          TensionStatics s(*L.line, L.problem);
          L.statics = s.solve();
        }
      });
      for (int e = 0; e < 2; ++e)
        if (!L.statics.end_force[e].allFinite())
          throw SolveError(line_context(L) + " statics", e ? "AnchTen" : "FairTen", L.statics.end_force[e].norm(),
                           "a finite number");
      std::ostringstream os;
      os << "line " << L.id << ": static FairTen " << L.statics.end_force[0].norm() << " N, AnchTen "
         << L.statics.end_force[1].norm() << " N (" << L.statics.route << ")";
      say(os.str());
      note_out_of_plane(L);
    }
    status_.statics_done = true;
  }

  /// Without a current nothing loads a line across the vertical plane of its ends (weight,
  /// buoyancy and a flat seabed act in it): a static shape that leaves the plane has buckled
  /// out of it (a compressed cable held by bending), and its mirror image in the plane is an
  /// equilibrium too, so which one the statics reach is not determined by the deck. Noted
  /// where the largest distance from the plane exceeds 1e-4 of the line length plus 1 mm.
  void note_out_of_plane(LineRun& L) {
    if (sea_.has_current || !L.statics.q.size()) return;
    const Line& ln = *L.line;
    bool escaped = false;
    for (const auto& n : L.statics.notes) escaped = escaped || n.find("along its lowest mode") != std::string::npos;
    const auto note = out_of_plane_note(
        ln.n_nodes(), [&](std::size_t i) { return ln.r(L.statics.q, i); }, ln.length(), escaped);
    if (!note) return;
    L.statics.notes.push_back(*note);
    say("note: line " + std::to_string(L.id) + ": " + *note);
  }

  void solve_modes() {
    std::vector<ModalResult<double>> res;
    for (auto& L : lines_) {
      ModalOptions mo;
      mo.n_modes = deck_.options.nModes;
      in_context(L, [&] { res.push_back(modal_analysis<double>(*L.line, L.problem, L.statics, mo)); });
      if (const auto z = res.back().mechanism_dofs; z > 0) {
        const std::string n = "line " + std::to_string(L.id) + ": " + std::to_string(z) +
                              " DOF(s) of slack nodes carry no stiffness (slack chain on the seabed, or a slack span): "
                              "held for the modal analysis, their zero-frequency modes left out";
        notes_.push_back(n);
        say("note: " + n);
      }
    }
    outputs_.add_file(write_modes_file<double>(set_.root, std::span<const ModalResult<double>>(res)));
    say("modes written to " + outputs_.files().back());
  }

  // ---- the march -----------------------------------------------------------------------------
  void march() {
    const auto& o = deck_.options;
    const double dt = *o.dtM;
    const long long n = o.steps();
    DynamicOptions d;
    d.rho_inf = o.rhoInf;
    d.force_blend = o.alpha_force_blend;
    d.rel_tol = o.dynamic_solver.rel_tol;
    d.abs_tol = o.dynamic_solver.abs_tol;
    d.max_iterations = o.dynamic_solver.max_iterations;
    d.max_backtracks = o.dynamic_solver.max_backtracks;
    d.modified_newton = o.modified_newton;
    d.max_substeps = o.recovery_max_substeps;
    d.tensile_safety = o.tensile_safety;
    d.tensile_strain_tolerance = o.tensile_strain_tolerance;
    // ei0_substeps: auto by default; False alpha_force_blend turns it off unless the deck sets it.
    d.ei0_substeps = o.ei0_substeps && (o.alpha_force_blend || o.line_of("ei0_substeps") > 0);
    d.ei0_substep_max = o.ei0_substep_max;
    d.ei0_substep_angle = o.ei0_substep_angle;
    fluid_.assign(lines_.size(), HeldFluid{});
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      auto& L = lines_[k];
      DynamicOptions dk = d;
      dk.seabed_z = L.problem.seabed_z;
      dk.seabed = L.problem.seabed;
      L.dynamics = std::make_unique<LineDynamics>(*L.line, dk);
      const HeldFluid* f = nullptr;
      if (sea_.field) {
        sample_fluid(*sea_.field, *L.line, L.statics.q, 0.0, fluid_[k]);
        f = &fluid_[k];
      }
      L.dynamics->initialize(0.0, L.statics.q, line_motion(L, 0.0), f);
      for (int e = 0; e < 2; ++e) {
        const double T = L.statics.end_force[e].norm();
        L.ten_min[e] = L.ten_max[e] = T;
      }
    }
    // Outputs every dtOut (every step when dtOut <= dtM): at the first step at or after each
    // multiple of dtOut, and at the last step.
    const double dt_out = std::max(o.dtOut, 0.0);
    double next_out = dt_out;
    record(0.0, false);
    ProgressBar bar(set_);
    long long s_check = -1;  // the restart check's step, once copied
    std::vector<LineDynamicState> snapshot;
    std::vector<std::vector<double>> check_rows;
    const auto step_all = [&](long long s) { step_lines(s * dt, dt); };
    for (long long s = 1; s <= n; ++s) {
      const double t = s * dt;
      step_all(s);
      status_.steps_done = s;
      for (auto& L : lines_)
        for (int e = 0; e < 2; ++e) {
          const double T = L.dynamics->end_force(e).norm();
          if (T > L.ten_max[e]) L.ten_max[e] = T, L.t_max[e] = t;
          if (T < L.ten_min[e]) L.ten_min[e] = T, L.t_min[e] = t;
        }
      if (s_check >= 0) check_rows.push_back(output_row(t, false));
      if (set_.restart_check && s_check < 0 && t >= *set_.restart_check - 1e-9 * dt) {
        s_check = s;
        for (const auto& L : lines_) snapshot.push_back(L.dynamics->state());
      }
      if (dt_out <= dt || t >= next_out - 1e-9 * dt || s == n) {
        record(t, false);
        while (dt_out > 0 && next_out <= t + 1e-9 * dt) next_out += dt_out;
      }
      if (set_.stop && *set_.stop) {
        if (outputs_.last_time() != t) record(t, false);
        throw InterruptedError(deck_.file, "run", "interrupted at t = " + cabledyn::to_text(t) + " s",
                               "the outputs hold every step up to it");
      }
      bar.update(s, n, t);
    }
    bar.finish();
    if (s_check >= 0) restart_check(s_check, snapshot, check_rows);
  }

  /// One step of every line to time t: the sea sampled at the nodes for the end of the step,
  /// the ends on their motions; a solver error names the deck line.
  void step_lines(double t, double dt) {
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      auto& L = lines_[k];
      const HeldFluid* f = nullptr;
      if (sea_.field) {
        sample_fluid(*sea_.field, *L.line, L.dynamics->state().q, t, fluid_[k]);
        f = &fluid_[k];
      }
      in_context(L, [&] { L.dynamics->step(dt, line_motion(L, t), f); });
    }
  }

  /// The second pass of the restart check: the lines restored to their copies at step s0 march
  /// to the end again, and every output row (channels, node positions, line files) must equal
  /// the first pass's bit for bit.
  void restart_check(long long s0, const std::vector<LineDynamicState>& snapshot,
                     const std::vector<std::vector<double>>& rows) {
    const double dt = *deck_.options.dtM;
    for (std::size_t k = 0; k < lines_.size(); ++k) lines_[k].dynamics->restore(snapshot[k]);
    for (long long s = s0 + 1; s <= deck_.options.steps(); ++s) {
      const double t = s * dt;
      step_lines(t, dt);
      const std::vector<double> r = output_row(t, false);
      require_repeated_row(deck_.file, s0 * dt, t, r, rows[static_cast<std::size_t>(s - s0 - 1)]);
    }
    notes_.push_back("restart check: the lines restored to their state at t = " + cabledyn::to_text(s0 * dt) +
                       " s repeated the " + std::to_string(rows.size()) + " steps after it bit for bit");
  }

  Deck deck_;
  RunSettings set_;
  Environment env_;
  std::vector<std::string> notes_;
  std::string tmax_source_;
  std::optional<MotionTracks> motion_;
  std::vector<LineRun> lines_;
  DeckSea sea_;
  std::vector<HeldFluid> fluid_;
  ChannelCache cache_;
  RunOutputs outputs_;
  RunStatus status_;
};

using DeckRunner = BasicDeckRunner<>;

}  // namespace cabledyn::io
