// cabledyn: the orchestration of a deck's run: the statics, the modes (nModes), the march with the
// coupled points' motion at each step, the tension extremes, the out-of-plane notes and the
// restart check.
// Spec "Static equilibrium", "Time integration", "Prescribed motion"; docs/driver.md.
//
// Member definitions of SystemRunner (io/system_runner.hpp declares the class and documents
// each member; this file is one of its parts, included at its end).
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

#include "cabledyn/io/system_runner.hpp"

namespace cabledyn::io {

inline void SystemRunner::run() {
  const auto t0 = std::chrono::steady_clock::now();
  const auto stale = remove_stale_outputs(set_.root);
  if (!stale.empty())
    notes_.push_back("removed " + std::to_string(stale.size()) + " output file(s) of an earlier run under " +
                     set_.root);
  std::exception_ptr failure;
  try {
    coupled_at(0.0);
    in_named_line_context(deck_, [&] { sim_->initialize(x_.data(), v_.data()); });  // a line's error names its deck row
    static_state_ = sim_->static_state();                                           // in static_system()'s numbering
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

inline void SystemRunner::coupled_at(double t) {
  const auto& m = sim_->model();
  x_.resize(static_cast<std::size_t>(sim_->coupled_dofs()));
  v_.resize(x_.size());
  if (!dof_tracks_.empty()) {  // a motionFile in the coupled-DOF layout
    for (std::size_t g = 0; g < dof_tracks_.size(); ++g) {
      const PointKinematics k = dof_tracks_[g].at(t);
      for (std::size_t i = 0; i < 3; ++i) x_[3 * g + i] = k.x[i], v_[3 * g + i] = k.v[i];
    }
    // The angle rates of a Coupled body or rod to its angular velocity in world axes (in the
    // deck's bodyAngles convention).
    std::size_t o = 0;
    for (std::size_t c = 0; c < m.coupled_bodies.size(); ++c) {
      if (m.coupled_width[c] == 6) {
        const std::array<double, 3> w =
            deck_body_angular_velocity(deck_.options, {x_[o + 3], x_[o + 4], x_[o + 5]}, {v_[o + 3], v_[o + 4], v_[o + 5]});
        for (std::size_t i = 0; i < 3; ++i) v_[o + 3 + i] = w[i];
      }
      o += static_cast<std::size_t>(m.coupled_width[c]);
    }
    return;
  }
  const std::size_t p0 = static_cast<std::size_t>(sim_->body_entries());
  for (std::size_t c = 0; c < m.coupled.size(); ++c) {
    const EndMotion k = prescribed_point_motion(deck_, motion_ ? &*motion_ : nullptr,
                                                m.point_id[static_cast<std::size_t>(m.coupled[c])], t, dynamic_run());
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

inline void SystemRunner::march() {
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

inline void SystemRunner::track_extremes(double t) {
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

inline void SystemRunner::note_out_of_plane() {
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

inline void SystemRunner::solve_modes() {
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

inline void SystemRunner::restart_check(long long s0, const SystemSimulation::Checkpoint& copy,
                                        const std::vector<std::vector<double>>& rows) {
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
  notes_.push_back(
      "restart check: the system restored to its state at t = " + cabledyn::to_text(static_cast<double>(s0) * dt) +
      " s repeated the " + std::to_string(rows.size()) + " steps after it bit for bit");
}

}  // namespace cabledyn::io
