// cabledyn: the deck driver. Turns a parsed deck into lines, solves the static equilibrium
// of each line, the modes (nModes), the dynamic march (dtM, TMax) under the deck's prescribed
// fairlead motion and sea state, and writes the outputs of DECK_FORMAT.md ("Outputs"):
// <root>.out (the requested channels, every dtOut), <root>.static.out (per node),
// <root>.modes.out, <root>.nodes.out (per-line node positions at each output time),
// <root>_Line<L>.out (MoorDyn's per-line output flags), <root>.summary.txt, and SVG figures
// (<root>.profile.svg, <root>.tension.svg, <root>.curvature.svg). docs/driver.md.
#pragma once

#include <chrono>
#include <csignal>
#include <exception>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cabledyn/core/version.hpp"
#include "cabledyn/dynamics.hpp"
#include "cabledyn/io/deck.hpp"
#include "cabledyn/io/motion.hpp"
#include "cabledyn/io/output_file.hpp"
#include "cabledyn/io/run_settings.hpp"
#include "cabledyn/io/svg_plot.hpp"
#include "cabledyn/modal.hpp"
#include "cabledyn/sea.hpp"
#include "cabledyn/statics.hpp"

namespace cabledyn::io {

/// One line of the run.
struct LineRun {
  int id = 0;                   ///< deck line ID
  std::unique_ptr<Line> line;   ///< End A = the fairlead end
  int point[2] = {0, 0};        ///< deck point IDs of End A (fairlead) and End B
  StaticProblem problem;
  StaticResult statics;
  std::unique_ptr<LineDynamics> dynamics;
  double ten_min[2] = {0, 0}, ten_max[2] = {0, 0}, t_min[2] = {0, 0}, t_max[2] = {0, 0};
};

/// Node quantities recovered from nodal equilibrium (spec "Node tension, curvature and bend
/// moment").
struct NodeRecovery {
  std::vector<double> tension, curvature, moment;
};

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
  BasicDeckRunner(const Deck& deck, RunSettings settings) : deck_(deck), set_(std::move(settings)) {
    if (!deck_.unsupported.empty()) {
      const auto& u = deck_.unsupported.front();
      throw NotImplementedError(detail::where(deck_.file, u.line), u.quantity, u.value, u.feature);
    }
    apply_overrides();
    notes_ = deck_.notes;
    env_ = deck.environment();
    env_.validate();
    if (dynamic_run() && deck_.options.motionFile) {
      const std::string path =
          set_.motion_file ? *set_.motion_file : deck_relative_path(deck_, *deck_.options.motionFile);
      motion_ = motion_tracks(read_motion(path), deck_, *deck_.options.TMax);
      for (const auto& p : deck_.points)
        if (p.moving() && !motion_->find(p.id))
          notes_.push_back(path + ": point " + std::to_string(p.id) + " is not in the motionFile: held at its deck position");
    }
    build_lines();
  }

  const std::vector<LineRun>& lines() const { return lines_; }
  /// The deck as run (its TMax and dtM replaced by the settings' --tmax and --dtm).
  const Deck& deck() const { return deck_; }
  const std::vector<std::string>& files() const { return files_; }
  /// Notes of the run (the deck's and the driver's), also in the summary.
  const std::vector<std::string>& notes() const { return notes_; }
  /// Output times and channel values (one row per output time).
  const std::vector<double>& times() const { return times_; }
  const std::vector<std::vector<double>>& channel_rows() const { return rows_; }
  const std::vector<std::string>& channel_names() const { return names_; }
  /// Points the tension figure keeps (at most 8192, whatever the run's length).
  std::size_t plot_history_size() const { return plot_t_.size(); }

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
      write_static_out();
      if (deck_.options.nModes > 0) solve_modes();
      open_outputs();
      if (dynamic_run()) march();
      else record(0.0, true);
      close_outputs();
    } catch (const Error& e) {
      failure = std::current_exception();
      stop_reason_ = e.what();
      try {
        close_outputs();
      } catch (const Error& e2) {
        stop_reason_ += std::string("; ") + e2.what();
      }
    }
    if (set_.plots && !lines_.empty() && statics_done_) write_plots();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    write_summary(secs);
    if (failure) std::rethrow_exception(failure);
  }

  /// The static value of every requested channel (also the first row of <root>.out).
  std::vector<double> static_channels() {
    std::vector<double> v;
    now_ = 0;
    for (const auto& o : deck_.outputs) v.push_back(channel_value(o.channel, true));
    return v;
  }

  /// Node recovery of line `k` at its current state (static or committed dynamic).
  NodeRecovery recover(std::size_t k, bool use_static) const {
    const LineRun& L = lines_[k];
    const Line& line = *L.line;
    const VecX<double>& q = use_static || !L.dynamics ? L.statics.q : L.dynamics->state().q;
    NodeRecovery r;
    const std::size_t nn = line.n_nodes();
    r.tension.assign(nn, 0);
    r.curvature.assign(nn, 0);
    r.moment.assign(nn, 0);
    const Vec3<double> fA = end_force(k, 0, use_static), fB = end_force(k, 1, use_static);
    if (!line.hermite()) {
      // Segment tension: the mean of the two adjacent element tensions (damping included).
      const VecX<double> v = use_static || !L.dynamics ? VecX<double>::Zero(q.size()) : L.dynamics->state().v;
      std::vector<double> te(line.n_elements());
      for (std::size_t e = 0; e < line.n_elements(); ++e)
        te[e] = line.tension_element(e).tension_with_damping<double>(line.element_dofs<double, 6>(q, e),
                                                                     line.element_dofs<double, 6>(v, e));
      for (std::size_t i = 1; i + 1 < nn; ++i) r.tension[i] = 0.5 * (te[i - 1] + te[i]);
      r.tension[0] = fA.norm();
      r.tension[nn - 1] = fB.norm();
      return r;
    }
    // Hermite: element end forces g_e = f_int - f_ext with the element's own loads (the
    // consistent weight, and the seabed reaction of its end nodes spread over the node's
    // tributary length); the section forces and tangent conjugates at the nodes.
    std::vector<Vec3<double>> Fm(nn, Vec3<double>::Zero()), Fp(nn, Vec3<double>::Zero()), mm(nn, Vec3<double>::Zero()),
        mp(nn, Vec3<double>::Zero());
    std::vector<double> reaction(nn, 0.0);
    if (L.problem.seabed_z)
      for (std::size_t i = 0; i < nn; ++i)
        reaction[i] = seabed_contact<double>(line.r(q, i)(2), 0.0, *L.problem.seabed_z,
                                             node_contact_width_length(line, i), 1.0, L.problem.seabed)
                          .f_elastic;
    for (std::size_t e = 0; e < line.n_elements(); ++e) {
      const auto qe = line.element_dofs<double, 12>(q, e);
      Vec<double, 12> fi, fw;
      line.hermite_element(e).internal_force<double>(qe, fi);
      hermite_weight_load<double>(line.w(e), line.L0(e), fw);
      Vec<double, 12> g = fi - fw;
      // Seabed: the part of each end node's reaction over this element's half, as a uniform
      // upward load on that half.
      const double L0 = line.L0(e);
      for (int side = 0; side < 2; ++side) {
        const std::size_t node = e + static_cast<std::size_t>(side);
        if (reaction[node] == 0) continue;
        const double q_per = reaction[node] / std::max(line.tributary(node), 1e-300);  // [N/m]
        const double a = side == 0 ? 0.0 : 0.5, b = side == 0 ? 0.5 : 1.0;
        const auto Ib = cabledyn::detail::hermite_shape_integrals(b), Ia = cabledyn::detail::hermite_shape_integrals(a);
        const double sc[4] = {1.0, L0, 1.0, L0};
        for (int k2 = 0; k2 < 4; ++k2) g(3 * k2 + 2) -= q_per * L0 * sc[k2] * (Ib[k2] - Ia[k2]);
      }
      Fp[e] = -g.segment<3>(0);
      mp[e] = -g.segment<3>(3);
      Fm[e + 1] = g.segment<3>(6);
      mm[e + 1] = g.segment<3>(9);
    }
    double wmax = 0;
    for (std::size_t e = 0; e < line.n_elements(); ++e)
      wmax = std::max(wmax, std::fabs(line.w(e)) * line.L0(e) * line.L0(e) / 12);
    for (std::size_t i = 0; i < nn; ++i) {
      const Vec3<double> t = line.m(q, i).normalized();
      const bool left = i > 0, right = i + 1 < nn;
      const Vec3<double> F = left && right ? Vec3<double>(0.5 * (Fm[i] + Fp[i])) : left ? Fm[i] : Fp[i];
      const Vec3<double> m = left && right ? Vec3<double>(0.5 * (mm[i] + mp[i])) : left ? mm[i] : mp[i];
      r.tension[i] = i == 0 ? fA.norm() : i + 1 == nn ? fB.norm() : F.dot(t);
      // Bend moment: the normal part of the conjugate; curvature = M / EI on the side of the
      // larger curvature, or the geometric trace where EI is below the recovery's error.
      const Vec3<double> mn = m - m.dot(t) * t;
      r.moment[i] = mn.norm();
      double kappa = 0;
      for (int side = 0; side < 2; ++side) {
        if ((side == 0 && !left) || (side == 1 && !right)) continue;
        const std::size_t e = side == 0 ? i - 1 : i;
        const double EI = line.hermite_element(e).params().EI;
        const double xi = side == 0 ? 1.0 : 0.0;
        if (EI < wmax * 1.0 || EI == 0) {
          kappa = std::max(kappa, line.hermite_element(e).curvature_at<double>(line.element_dofs<double, 12>(q, e), xi));
        } else {
          const Vec3<double>& ms = side == 0 ? mm[i] : mp[i];
          kappa = std::max(kappa, (ms - ms.dot(t) * t).norm() / EI);
        }
      }
      r.curvature[i] = kappa;
    }
    return r;
  }

 private:
  void say(const std::string& s) const {
    if (set_.log) *set_.log << s << "\n";
  }

  /// "deck.dat:18 (line 1)": the LINES row of a line, for errors raised inside its solvers.
  std::string line_context(int id) const {
    const LineRecord* r = deck_.find_line(id);
    return detail::where(deck_.file, r ? r->line : 0) + " (line " + std::to_string(id) + ")";
  }
  std::string line_context(const LineRun& L) const { return line_context(L.id); }

  /// Runs f; an error it throws is thrown again, of the same kind, its object prefixed with
  /// the deck line of L (the solvers name their own objects, the user needs the deck's).
  template <class F>
  void in_context(const LineRun& L, F&& f) const {
    try {
      f();
    } catch (const NotImplementedError&) {
      throw;
    } catch (const InterruptedError&) {
      throw;
    } catch (const Error& e) {
      const std::string ctx = line_context(L);
      if (e.object().rfind(deck_.file + ":", 0) == 0) throw;  // already names the deck
      const std::string obj = ctx + ": " + e.object();
      if (dynamic_cast<const SolveError*>(&e)) throw SolveError(obj, e.quantity(), e.value(), e.limit());
      if (dynamic_cast<const DomainError*>(&e)) throw DomainError(obj, e.quantity(), e.value(), e.limit());
      throw InputError(obj, e.quantity(), e.value(), e.limit());
    }
  }

  bool dynamic_run() const { return deck_.options.dynamic() && !set_.static_only; }

  void apply_overrides() { tmax_source_ = apply_run_overrides(deck_, set_); }

  void build_lines() {
    for (const auto& rec : deck_.lines) {
      LineRun L;
      L.id = rec.id;
      L.point[0] = rec.fairlead();
      L.point[1] = rec.anchor();
      LineEnd ends[2];
      for (int e = 0; e < 2; ++e) ends[e].position = point_motion(L.point[e], 0.0).x;
      for (int written = 0; written < 2; ++written) {
        const auto* ec = deck_.end_connection(rec.id, written);
        if (!ec) continue;
        const int e = deck_.oriented_end(rec.id, written);
        ends[e].direction = Vec3<double>(ec->direction[0], ec->direction[1], ec->direction[2]);
        ends[e].stiffness = ec->stiffness;
        ends[e].rotation = ec->kind == EndConnectionKind::rigid    ? EndRotation::rigid
                           : ec->kind == EndConnectionKind::spring ? EndRotation::spring
                                                                   : EndRotation::free;
      }
      LineOptions lo;
      lo.axial_order = deck_.options.axial_quadrature_order;
      lo.bending_order = deck_.options.bending_quadrature_order;
      check_geometry(rec, ends[0].position, ends[1].position);
      in_context(L, [&] {
        L.line = std::make_unique<Line>("line " + std::to_string(rec.id), deck_.line_sections(rec.id), ends[0], ends[1],
                                        env_, lo);
      });
      // A cable mesh coarser than its bending length (EI/|w|)^(1/3) does not resolve the
      // static shape near the touchdown and the ends: noted (spec "Hermite path": adaptive
      // refinement is a later issue).
      for (const auto& sec : deck_.sections_of(rec.id)) {
        const auto* ty = deck_.find_line_type(sec.type);
        if (!ty || !(ty->type.EI > 0)) continue;
        const double w = std::fabs(ty->type.submerged_weight(env_));
        if (!(w > 0)) continue;
        const double lb = std::cbrt(ty->type.EI / w), L0 = sec.length / sec.segments;
        if (L0 > 2 * lb)
          notes_.push_back(detail::where(deck_.file, sec.line) + ": line " + std::to_string(rec.id) + ": elements of " +
                           cabledyn::to_text(L0) + " m, over twice the bending length (EI/|w|)^(1/3) = " +
                           cabledyn::to_text(lb) + " m: the static shape, curvature and node tensions near the "
                           "touchdown and the ends are not resolved (at least " +
                           std::to_string(static_cast<long long>(std::ceil(sec.length / (2 * lb)))) + " elements)");
      }
      if (env_.depth) L.problem.seabed_z = -*env_.depth;
      L.problem.seabed.kBot = deck_.options.kBot;
      L.problem.seabed.cBot = deck_.options.cBot;
      lines_.push_back(std::move(L));
    }
    if (motion_)
      for (const auto& p : deck_.points) {
        const MotionTrack* tr = motion_->find(p.id);
        if (!tr) continue;
        const auto x0 = tr->at(0.0).x;
        const double off = std::hypot(x0[0] - p.r[0], x0[1] - p.r[1], x0[2] - p.r[2]);
        if (off > 1e-9 * (1 + std::hypot(p.r[0], p.r[1], p.r[2])))
          notes_.push_back(motion_->file + ": point " + std::to_string(p.id) + " starts at the motionFile's t = 0 position (" +
                           cabledyn::to_text(x0[0]) + ", " + cabledyn::to_text(x0[1]) + ", " + cabledyn::to_text(x0[2]) + "), " + cabledyn::to_text(off) +
                           " m from its deck position: the statics hold it there");
      }
    if (dynamic_run()) check_motion_envelope();
    build_sea();
  }

  /// What can be checked before solving (spec "Static equilibrium": a line must reach between
  /// its ends): the ends apart, within reach (a chord below 2 L, strain 1), and not below the
  /// seabed. Throws InputError naming the deck line.
  void check_geometry(const LineRecord& rec, const Vec3<double>& a, const Vec3<double>& b) const {
    double length = 0;
    for (const auto& s : deck_.sections_of(rec.id)) length += s.length;
    const double chord = (b - a).norm();
    const std::string ctx = line_context(rec.id);
    if (!(chord > 1e-9 * (1 + length)))
      throw InputError(ctx, "chord between the ends", chord,
                       "> 0: the ends coincide (a loop hanging from one point is not supported: the statics seed from the chord)");
    if (!(chord < 2 * length))
      throw InputError(ctx, "chord between the ends", chord,
                       "< 2 L = " + cabledyn::to_text(2 * length) + " m: the line would stretch beyond strain 1");
    if (env_.depth)
      for (int end = 0; end < 2; ++end) {
        const int pid = end == 0 ? rec.fairlead() : rec.anchor();
        const Vec3<double>& x = end == 0 ? a : b;
        if (x(2) < -*env_.depth - 1e-6 * (1 + *env_.depth)) {
          const PointRecord* p = deck_.find_point(pid);
          throw InputError(detail::where(deck_.file, p ? p->line : 0) + " (point " + std::to_string(pid) + ")", "z", x(2),
                           ">= -WtrDpth = " + cabledyn::to_text(-*env_.depth) + " m: the point is below the seabed");
        }
      }
  }

  /// The prescribed motion over the run, checked before the march: every line within reach of
  /// its ends and no moving point below the seabed, at each motion-table sample and at every
  /// sixteenth of a fairleadMotion period over the run (its ramp included).
  void check_motion_envelope() const {
    std::vector<double> times;
    const double tmax = *deck_.options.TMax;
    if (motion_) {
      for (const auto& [id, tr] : motion_->tracks)
        for (double t : tr.times())
          if (t >= 0 && t <= tmax) times.push_back(t);
    } else if (deck_.options.fairleadMotion) {
      // Every sixteenth of a period over the run (at most 4096 samples), the ramp included.
      const double T = deck_.options.fairleadMotion->period;
      const double h = std::max(T / 16, tmax / 4096);
      for (double t = 0; t <= tmax; t += h) times.push_back(t);
      times.push_back(tmax);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    const std::string src = motion_ ? motion_->file : deck_.file + ":" + std::to_string(deck_.options.line_of("fairleadMotion"));
    for (double t : times) {
      for (const auto& rec : deck_.lines) {
        const Vec3<double> a = point_motion(rec.fairlead(), t).x, b = point_motion(rec.anchor(), t).x;
        double length = 0;
        for (const auto& s : deck_.sections_of(rec.id)) length += s.length;
        const double chord = (b - a).norm();
        if (!(chord < 2 * length) || !(chord > 0))
          throw InputError(src + ": t = " + cabledyn::to_text(t) + " s", "chord of line " + std::to_string(rec.id), chord,
                           "in (0, 2 L = " + cabledyn::to_text(2 * length) +
                               " m): the motion would stretch the line beyond strain 1 (or bring its ends together)");
        if (env_.depth)
          for (const Vec3<double>* x : {&a, &b})
            if ((*x)(2) < -*env_.depth - 1e-6 * (1 + *env_.depth))
              throw InputError(src + ": t = " + cabledyn::to_text(t) + " s", "z of a moving point of line " + std::to_string(rec.id),
                               (*x)(2), ">= -WtrDpth = " + cabledyn::to_text(-*env_.depth) + " m: below the seabed");
      }
    }
  }

  // ---- sea state -----------------------------------------------------------------------------
  Current make_current() const {
    const auto& c = deck_.options.current;
    switch (c.model) {
      case CurrentModel::none:
        return Current::none();
      case CurrentModel::uniform:
        return Current::uniform(Eigen::Vector3d(c.velocity[0], c.velocity[1], c.velocity[2]));
      case CurrentModel::profile: {
        std::vector<double> z;
        std::vector<Eigen::Vector3d> u;
        for (const auto& lv : c.profile) {
          z.push_back(lv.z);
          u.emplace_back(lv.u[0], lv.u[1], lv.u[2]);
        }
        return Current::profile(z, u);
      }
      case CurrentModel::seastate: {
        SeaStateCurrent s;
        const double d = kPi / 180;
        s.ss_speed = c.seastate.ss_speed;
        s.ss_dir = c.seastate.ss_dir_deg * d;
        s.ns_ref = c.seastate.ns_ref;
        s.ns_speed = c.seastate.ns_speed;
        s.ns_dir = c.seastate.ns_dir_deg * d;
        s.di_speed = c.seastate.di_speed;
        s.di_dir = c.seastate.di_dir_deg * d;
        if (!env_.depth) throw InputError(deck_.file, "current seastate", "no WtrDpth", "WtrDpth given");
        return Current::seastate(s, *env_.depth);
      }
    }
    return Current::none();
  }

  SpectralTrain train_of(const WaveOption& w) const {
    SpectralTrain t;
    t.kind = w.kind == WaveKind::jonswap             ? SpectrumKind::Jonswap
             : w.kind == WaveKind::pierson_moskowitz ? SpectrumKind::PiersonMoskowitz
             : w.kind == WaveKind::torsethaugen      ? SpectrumKind::Torsethaugen
                                                     : SpectrumKind::OchiHubble;
    t.Hs = w.H;
    t.Tp = w.T;
    t.gamma = w.gamma;
    t.ochi.Hs1 = w.ochi.Hs1;
    t.ochi.Tp1 = w.ochi.Tp1;
    t.ochi.lambda1 = w.ochi.lambda1;
    t.ochi.Hs2 = w.ochi.Hs2;
    t.ochi.Tp2 = w.ochi.Tp2;
    t.ochi.lambda2 = w.ochi.lambda2;
    t.beta = w.dir_deg * kPi / 180;
    t.s = w.spreading;
    t.components = deck_.options.WaveComponents;
    t.directions = deck_.options.WaveDirections;
    t.seed_offset = w.seed_offset;
    return t;
  }

  void build_sea() {
    const auto& o = deck_.options;
    const double depth = env_.depth ? *env_.depth : kDeepWater;
    LinearSeaOptions lso;
    lso.wheeler = o.wave_stretching == WaveStretching::wheeler;
    WaveModel waves;
    std::vector<SpectralTrain> trains;
    if (o.waves.kind != WaveKind::none && !(env_.g > 0))
      throw InputError(deck_.file + ":" + std::to_string(o.line_of("waves")), "waves", "with g = 0", "g > 0 (gravity waves)");
    if (o.waves.kind == WaveKind::airy) {
      WaveComponent c;
      c.a = o.waves.H / 2;
      c.omega = 2 * kPi / o.waves.T;
      c.beta = o.waves.dir_deg * kPi / 180;
      c.phase = o.waves.phase_deg * kPi / 180;
      waves = LinearSea({c}, depth, env_.g, lso);
    } else if (o.waves.kind == WaveKind::stream) {
      if (!env_.depth) throw InputError(deck_.file, "waves stream", "no WtrDpth", "WtrDpth given");
      StreamWaveOptions so;
      so.order = o.StreamOrder;
      waves = StreamWave(o.waves.H, o.waves.T, o.waves.dir_deg * kPi / 180, depth, env_.g, so);
    } else if (o.waves.kind != WaveKind::none) {
      trains.push_back(train_of(o.waves));
    }
    for (const auto& w : o.wavetrains) trains.push_back(train_of(w));
    if (!trains.empty()) waves = LinearSea(synthesize_trains(trains, o.WaveSeed, env_.g), depth, env_.g, lso);
    const Current current = make_current();
    has_current_ = current.kind() != Current::Kind::None;
    has_waves_ = !std::holds_alternative<std::monostate>(waves);
    if (has_waves_ || has_current_) {
      Ramp ramp;
      ramp.T_r = o.rampTime;
      field_ = std::make_unique<WaveField>(std::move(waves), current, ramp, env_.rho_w);
      if (has_current_) {
        const FluidField* f = field_.get();
        steady_ = SteadyCurrent{[f](const Vec3<double>& x) { return f->current(x); }};
        for (auto& L : lines_) L.problem.current = steady_;
      }
    }
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
    statics_done_ = true;
  }

  /// Without a current nothing loads a line across the vertical plane of its ends (weight,
  /// buoyancy and a flat seabed act in it): a static shape that leaves the plane has buckled
  /// out of it (a compressed cable held by bending), and its mirror image in the plane is an
  /// equilibrium too, so which one the statics reach is not determined by the deck. Noted
  /// where the largest distance from the plane exceeds 1e-4 of the line length plus 1 mm.
  void note_out_of_plane(LineRun& L) {
    if (has_current_ || !L.statics.q.size()) return;
    const Line& ln = *L.line;
    const Vec3<double> a = ln.r(L.statics.q, ln.end_node(0)), b = ln.r(L.statics.q, ln.end_node(1));
    Vec3<double> nrm(-(b(1) - a(1)), b(0) - a(0), 0.0);
    if (!(nrm.norm() > 1e-9 * ln.length())) return;  // a vertical chord: no plane
    nrm.normalize();
    double dev = 0;
    for (std::size_t i = 0; i < ln.n_nodes(); ++i) dev = std::max(dev, std::fabs((ln.r(L.statics.q, i) - a).dot(nrm)));
    if (!(dev > 1e-4 * ln.length() + 1e-3)) return;
    std::ostringstream os;
    os << "the static shape leaves the vertical plane of the line's ends by " << dev
       << " m with no load across it: a buckled equilibrium (compression held by bending), whose mirror image "
          "is an equilibrium too; which of the two the statics reach is not set by the deck (a rotated deck may "
          "reach the other)";
    L.statics.notes.push_back(os.str());
    say("note: line " + std::to_string(L.id) + ": " + os.str());
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
    files_.push_back(write_modes_file<double>(set_.root, std::span<const ModalResult<double>>(res)));
    say("modes written to " + files_.back());
  }

  // ---- prescribed motion ---------------------------------------------------------------------
  /// The kinematics of point `pid` at time t: a Fixed point at its deck position; a moving
  /// point on its motionFile track, or moved by fairleadMotion (ramped), or held.
  EndMotion point_motion(int pid, double t) const {
    return prescribed_point_motion(deck_, motion_ ? &*motion_ : nullptr, pid, t, dynamic_run());
  }

  EndMotions line_motion(const LineRun& L, double t) const {
    return {point_motion(L.point[0], t), point_motion(L.point[1], t)};
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
      if (field_) {
        sample_fluid(*field_, *L.line, L.statics.q, 0.0, fluid_[k]);
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
    const auto start = std::chrono::steady_clock::now();
    int shown = -1;
    long long s_check = -1;  // the restart check's step, once copied
    std::vector<LineDynamicState> snapshot;
    std::vector<std::vector<double>> check_rows;
    const auto step_all = [&](long long s) { step_lines(s * dt, dt); };
    for (long long s = 1; s <= n; ++s) {
      const double t = s * dt;
      step_all(s);
      steps_done_ = s;
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
        if (last_out_t_ != t) record(t, false);
        throw InterruptedError(deck_.file, "run", "interrupted at t = " + cabledyn::to_text(t) + " s",
                               "the outputs hold every step up to it");
      }
      if (set_.progress && set_.log) {
        const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const int pct = static_cast<int>(100.0 * s / n);
        if (el > 1.0 && pct != shown) {
          shown = pct;
          *set_.log << "\r[" << std::string(pct / 4, '#') << std::string(25 - pct / 4, ' ') << "] " << pct << " % t = "
                    << t << " s" << std::flush;
        }
      }
    }
    if (shown >= 0 && set_.log) *set_.log << "\n";
    if (s_check >= 0) restart_check(s_check, snapshot, check_rows);
  }

  /// One step of every line to time t: the sea sampled at the nodes for the end of the step,
  /// the ends on their motions; a solver error names the deck line.
  void step_lines(double t, double dt) {
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      auto& L = lines_[k];
      const HeldFluid* f = nullptr;
      if (field_) {
        sample_fluid(*field_, *L.line, L.dynamics->state().q, t, fluid_[k]);
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
      const std::vector<double>& a = rows[static_cast<std::size_t>(s - s0 - 1)];
      if (r.size() != a.size() || std::memcmp(r.data(), a.data(), r.size() * sizeof(double)) != 0) {
        std::size_t i = 0;
        while (i < r.size() && i < a.size() && std::memcmp(&r[i], &a[i], sizeof(double)) == 0) ++i;
        throw SolveError(deck_.file + ": restart from t = " + cabledyn::to_text(s0 * dt) + " s",
                         "output " + std::to_string(i + 1) + " at t = " + cabledyn::to_text(t) + " s",
                         cabledyn::to_text(i < r.size() ? r[i] : 0.0) + " vs " + cabledyn::to_text(i < a.size() ? a[i] : 0.0),
                         "the first pass's value, bit for bit");
      }
    }
    restart_checked_ = "restart check: the lines restored to their state at t = " + cabledyn::to_text(s0 * dt) +
                       " s repeated the " + std::to_string(rows.size()) + " steps after it bit for bit";
    notes_.push_back(restart_checked_);
  }

  // ---- channels ------------------------------------------------------------------------------
  Vec3<double> end_force(std::size_t k, int e, bool use_static) const {
    const auto& L = lines_[k];
    if (use_static || !L.dynamics) return L.statics.end_force[e];
    return const_cast<LineDynamics&>(*L.dynamics).end_force(e);
  }

  std::size_t line_index(int id) const {
    for (std::size_t k = 0; k < lines_.size(); ++k)
      if (lines_[k].id == id) return k;
    throw InputError(deck_.file, "output channel line", id, "a line of LINES");
  }

  const VecX<double>& state_of(const LineRun& L, bool use_static, int which) const {
    if (use_static || !L.dynamics) return which == 0 ? L.statics.q : zeros(L);
    const auto& s = L.dynamics->state();
    return which == 0 ? s.q : which == 1 ? s.v : s.a;
  }
  const VecX<double>& zeros(const LineRun& L) const {
    auto& z = zero_cache_[L.id];
    if (z.size() != L.statics.q.size()) z = VecX<double>::Zero(L.statics.q.size());
    return z;
  }

  /// The net force on every node of line k (-r(q, v), the non-inertial forces; M a on the
  /// free DOFs): at the held ends the line-end forces, zero inside in the statics.
  const VecX<double>& node_forces(std::size_t k, bool use_static) {
    auto it = force_cache_.find(std::make_pair(k, use_static));
    if (it != force_cache_.end()) return it->second;
    const auto& L = lines_[k];
    VecX<double> f = VecX<double>::Zero(L.statics.q.size());
    if (!use_static && L.dynamics) {
      L.dynamics->residual_force(f);
      f = -f;
    }
    for (int e = 0; e < 2; ++e)
      f.segment<3>(static_cast<Eigen::Index>(L.line->dof(L.line->end_node(e), 0))) = end_force(k, e, use_static);
    return force_cache_[std::make_pair(k, use_static)] = std::move(f);
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
        const Vec3<double> F = end_force(k, e, use_static);
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
        const auto it = recovery_cache_.find(key(k));
        const NodeRecovery& r = it != recovery_cache_.end() ? it->second : (recovery_cache_[key(k)] = recover(k, use_static));
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
        const EndMotion m = use_static ? point_motion(c.point, 0.0) : point_motion(c.point, now_);
        Vec3<double> x = m.x, F = Vec3<double>::Zero();
        for (std::size_t k = 0; k < lines_.size(); ++k)
          for (int e = 0; e < 2; ++e)
            if (lines_[k].point[e] == c.point) {
              const auto& L = lines_[k];
              x = L.line->r(state_of(L, use_static, 0), L.line->end_node(e));
              F += end_force(k, e, use_static);
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
    recovery_cache_.clear();
    force_cache_.clear();
    now_ = t;
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
      if (flags == "-" || flags.empty()) continue;
      const std::vector<double> v = line_output_row(k, use_static);
      for (double x : v)
        if (!std::isfinite(x))
          throw SolveError(deck_.file + ": t = " + cabledyn::to_text(t) + " s", "line " + std::to_string(lines_[k].id) + " output",
                           x, "a finite number");
      row.insert(row.end(), v.begin(), v.end());
    }
    return row;
  }

  /// Computes the outputs of time t and writes them: a row of <root>.out, of
  /// <root>.nodes.out and of each line file; kept in memory with keep_history; the plots'
  /// bounded history.
  void record(double t, bool use_static) {
    const std::vector<double> row = output_row(t, use_static);
    last_out_t_ = t;
    const std::size_t nc = deck_.outputs.size();
    std::size_t at = 0;
    {
      std::ostream& f = out_->stream();
      f << t;
      for (std::size_t c = 0; c < nc; ++c) f << "\t" << row[c];
      f << "\n";
      out_->row_done();
      at = nc;
    }
    {
      std::ostream& g = nodes_->stream();
      g << t;
      for (const auto& L : lines_)
        for (std::size_t i = 0; i < 3 * L.line->n_nodes(); ++i) g << "\t" << row[at++];
      g << "\n";
      nodes_->row_done();
    }
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      if (!line_files_[k]) continue;
      const std::size_t w = line_output_width(k);
      std::ostream& h = line_files_[k]->stream();
      h << t;
      for (std::size_t i = 0; i < w; ++i) h << "\t" << row[at++];
      h << "\n";
      line_files_[k]->row_done();
    }
    if (set_.keep_history) {
      times_.push_back(t);
      rows_.emplace_back(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(nc));
    }
    // The tension figure's history: at most ~4096 points per line (every other point dropped
    // and the stride doubled when full), so that memory does not grow with the run.
    ++history_count_;
    if ((history_count_ - 1) % history_stride_ == 0) {
      plot_t_.push_back(t);
      plot_fairten_.resize(lines_.size());
      for (std::size_t k = 0; k < lines_.size(); ++k) plot_fairten_[k].push_back(end_force(k, 0, use_static).norm());
      if (plot_t_.size() >= 8192) {
        const auto halve = [](std::vector<double>& v) {
          std::size_t j = 0;
          for (std::size_t i = 0; i < v.size(); i += 2) v[j++] = v[i];
          v.resize(j);
        };
        halve(plot_t_);
        for (auto& v : plot_fairten_) halve(v);
        history_stride_ *= 2;
      }
    }
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
      const auto it = recovery_cache_.find(std::make_pair(k, use_static));
      const NodeRecovery& r = it != recovery_cache_.end() ? it->second
                                                          : (recovery_cache_[std::make_pair(k, use_static)] = recover(k, use_static));
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
    std::vector<double> ten(ne), strain(ne), rate(ne);
    if (has('t') || has('s') || has('d'))
      for (std::size_t w = 0; w < ne; ++w) {
        const std::size_t e = elem(w);
        if (!line.hermite()) {
          const auto qe = line.element_dofs<double, 6>(q, e), ve = line.element_dofs<double, 6>(v, e);
          const auto& el = line.tension_element(e);
          const auto kin = el.kinematics<double>(qe);
          ten[w] = el.tension_with_damping<double>(qe, ve);
          strain[w] = kin.eps;
          rate[w] = kin.e.dot(ve.segment<3>(3) - ve.segment<3>(0)) / line.L0(e);
        } else {
          const auto qe = line.element_dofs<double, 12>(q, e), ve = line.element_dofs<double, 12>(v, e);
          const auto& el = line.hermite_element(e);
          Vec3<double> a, b, ad, bd;
          el.tangents<double>(qe, 0.5, a, b);
          el.tangents<double>(ve, 0.5, ad, bd);
          ten[w] = el.section<double>(qe, 0.5).N;
          strain[w] = a.norm() - 1;
          rate[w] = a.dot(ad) / a.norm();
        }
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

  /// The column names of a line's output file (MoorDyn's: Node<j>px ..., Seg<e>Te ...).
  std::vector<std::string> line_output_header(std::size_t k) const {
    const auto& L = lines_[k];
    const std::string& flags = deck_.find_line(L.id)->outputs;
    const auto has = [&](char f) { return flags.find(f) != std::string::npos; };
    const std::size_t nn = L.line->n_nodes(), ne = L.line->n_elements();
    const int first = deck_.first_node_number();
    std::vector<std::string> h;
    const auto nodes3 = [&](const char* a, const char* b, const char* c) {
      for (std::size_t j = 0; j < nn; ++j)
        for (const char* s : {a, b, c}) h.push_back("Node" + std::to_string(j + first) + s);
    };
    if (has('p')) nodes3("px", "py", "pz");
    if (has('K'))
      for (std::size_t j = 0; j < nn; ++j) h.push_back("Node" + std::to_string(j + first) + "Ku");
    if (has('v')) nodes3("vx", "vy", "vz");
    if (has('U')) nodes3("Ux", "Uy", "Uz");
    if (has('V')) nodes3("Vx", "Vy", "Vz");
    for (const auto& [f, s] : {std::pair<char, const char*>{'t', "Te"}, {'s', "St"}, {'d', "dSt"}})
      if (has(f))
        for (std::size_t e = 1; e <= ne; ++e) h.push_back("Seg" + std::to_string(e) + s);
    if (has('b')) nodes3("bx", "by", "bz");
    return h;
  }

  // ---- files ---------------------------------------------------------------------------------
  std::unique_ptr<OutputFile> open(const std::string& suffix) {
    auto f = std::make_unique<OutputFile>(set_.root + suffix);
    files_.push_back(f->path());
    return f;
  }

  /// The number of values of line k's output file row.
  std::size_t line_output_width(std::size_t k) const { return line_output_header(k).size(); }

  /// Opens <root>.out, <root>.nodes.out and the line files and writes their headers.
  void open_outputs() {
    names_.clear();
    for (const auto& o : deck_.outputs) names_.push_back(o.text.empty() ? o.channel.name() : o.text);
    out_ = open(".out");
    std::ostream& f = out_->stream();
    f << "cabledyn " << kVersion << " output of " << deck_.file << ": " << deck_.title << "\n";
    f << "Time(s)";
    for (const auto& n : names_) f << "\t" << n;
    f << "\n";
    if (deck_.options.WriteUnits) {
      f << "(s)";
      for (const auto& o : deck_.outputs) f << "\t" << channel_unit(o.channel);
      f << "\n";
    }
    out_->row_done();
    nodes_ = open(".nodes.out");
    std::ostream& g = nodes_->stream();
    g << "Time(s)";
    const int first = deck_.first_node_number();
    for (const auto& L : lines_)
      for (std::size_t i = 0; i < L.line->n_nodes(); ++i)
        for (const char* c : {"px", "py", "pz"})
          g << "\tL" << L.id << "N" << deck_.oriented_node(L.id, static_cast<long long>(i) + 1) - 1 + first << c;
    g << "\n";
    nodes_->row_done();
    line_files_.clear();
    line_files_.resize(lines_.size());
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      const std::string& flags = deck_.find_line(lines_[k].id)->outputs;
      if (flags == "-" || flags.empty()) continue;
      std::string missing;
      for (char c : std::string("Dc"))
        if (flags.find(c) != std::string::npos) missing += c;
      if (!missing.empty())
        notes_.push_back("line " + std::to_string(lines_[k].id) + " output flags " + missing +
                         " (per-node hydrodynamic force, per-segment damping force) are not written: not implemented");
      const std::vector<std::string> h = line_output_header(k);
      if (h.empty()) continue;
      line_files_[k] = open("_Line" + std::to_string(lines_[k].id) + ".out");
      std::ostream& l = line_files_[k]->stream();
      l << "Time";
      for (const auto& n : h) l << "\t" << n;
      l << "\n";
      line_files_[k]->row_done();
    }
  }

  /// Flushes and closes the streamed outputs (checked).
  void close_outputs() {
    if (out_) out_->close();
    if (nodes_) nodes_->close();
    for (auto& f : line_files_)
      if (f) f->close();
  }

  void write_static_out() {
    auto out = open(".static.out");
    std::ostream& f = out->stream();
    f << "LineID\tNode\tArcLength(m)\tX(m)\tY(m)\tZ(m)\tTension(N)\tCurvature(1/m)\tBendMoment(Nm)\n";
    const int first = deck_.first_node_number();
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      const auto& L = lines_[k];
      const NodeRecovery r = recover(k, true);
      const std::size_t nn = L.line->n_nodes();
      // Rows in the deck's node numbering (End A as written first).
      for (std::size_t j = 1; j <= nn; ++j) {
        const std::size_t i = static_cast<std::size_t>(deck_.oriented_node(L.id, static_cast<long long>(j)) - 1);
        const Vec3<double> x = L.line->r(L.statics.q, i);
        const double s = deck_.oriented_node(L.id, 1) == 1 ? L.line->s_node(i) : L.line->length() - L.line->s_node(i);
        for (double v : {x(0), x(1), x(2), r.tension[i], r.curvature[i], r.moment[i]})
          if (!std::isfinite(v))
            throw SolveError(deck_.file + ": line " + std::to_string(L.id) + " statics", "node " + std::to_string(j) + " result",
                             v, "a finite number");
        f << L.id << "\t" << static_cast<long long>(j) - 1 + first << "\t" << s << "\t" << x(0) << "\t" << x(1) << "\t"
          << x(2) << "\t" << r.tension[i] << "\t" << r.curvature[i] << "\t" << r.moment[i] << "\n";
      }
      out->row_done();
    }
    out->close();
  }

  /// Writes a figure, checked like the other outputs.
  void svg_file(const Plot& p, const std::string& suffix) {
    auto f = open(suffix);
    f->stream() << to_svg(p);
    f->close();
  }

  void write_plots() {
    Plot prof;
    prof.title = "Static line profiles";
    prof.xlabel = "horizontal distance from the fairlead (m)";
    prof.ylabel = "z (m)";
    prof.equal_aspect = true;
    for (const auto& L : lines_) {
      PlotSeries s;
      s.label = "line " + std::to_string(L.id);
      const Vec3<double> a = L.line->r(L.statics.q, 0);
      for (std::size_t i = 0; i < L.line->n_nodes(); ++i) {
        const Vec3<double> x = L.line->r(L.statics.q, i);
        s.x.push_back(std::hypot(x(0) - a(0), x(1) - a(1)));
        s.y.push_back(x(2));
      }
      prof.series.push_back(std::move(s));
    }
    if (env_.depth) {
      PlotSeries bed;
      bed.label = "seabed";
      bed.color = "#8c6d31";
      bed.dashed = true;
      double xmax = 0;
      for (const auto& s : prof.series)
        for (double v : s.x) xmax = std::max(xmax, v);
      bed.x = {0, xmax};
      bed.y = {-*env_.depth, -*env_.depth};
      prof.series.push_back(bed);
    }
    svg_file(prof, ".profile.svg");
    if (plot_t_.size() > 1) {
      Plot ten;
      ten.title = "Fairlead tension";
      ten.xlabel = "time (s)";
      ten.ylabel = "FairTen (kN)";
      for (std::size_t k = 0; k < lines_.size(); ++k) {
        PlotSeries s;
        s.label = "line " + std::to_string(lines_[k].id);
        s.x = plot_t_;
        for (double v : plot_fairten_[k]) s.y.push_back(v / 1e3);
        ten.series.push_back(std::move(s));
      }
      svg_file(ten, ".tension.svg");
    }
    bool any_hermite = false;
    Plot cur;
    cur.title = "Static curvature along the cables";
    cur.xlabel = "arc length from the fairlead (m)";
    cur.ylabel = "curvature (1/m)";
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      if (!lines_[k].line->hermite()) continue;
      any_hermite = true;
      const NodeRecovery r = recover(k, true);
      PlotSeries s;
      s.label = "line " + std::to_string(lines_[k].id);
      for (std::size_t i = 0; i < lines_[k].line->n_nodes(); ++i) {
        s.x.push_back(lines_[k].line->s_node(i));
        s.y.push_back(r.curvature[i]);
      }
      cur.series.push_back(std::move(s));
    }
    if (any_hermite) svg_file(cur, ".curvature.svg");
  }

  void write_summary(double seconds) {
    auto out = open(".summary.txt");
    std::ostream& f = out->stream();
    f << "cabledyn " << kVersion << " run of " << deck_.file << "\n" << deck_.title << "\n\n";
    if (dynamic_run())
      f << "run: " << deck_.options.steps() << " steps of dtM = " << *deck_.options.dtM << " s to t = "
        << *deck_.options.TMax << " s (run length from " << tmax_source_ << ")\n";
    else if (set_.static_only)
      f << "run: statics only (--static)\n";
    else
      f << "run: statics only (no TMax in the deck: give TMax, or --tmax)\n";
    if (!stop_reason_.empty()) {
      if (dynamic_run() && statics_done_ && out_)
        f << "STOPPED after " << steps_done_ << " of " << deck_.options.steps() << " steps (t = "
          << static_cast<double>(steps_done_) * *deck_.options.dtM << " s); the outputs hold every output time up to t = "
          << last_out_t_ << " s: " << stop_reason_ << "\n";
      else
        f << "STOPPED before the march: " << stop_reason_ << "\n";
    }
    for (const auto& n : notes_) f << "note: " << n << "\n";
    for (const auto& L : lines_) {
      if (!L.statics.q.size()) {
        f << "line " << L.id << ": no static solution\n";
        continue;
      }
      f << "line " << L.id << " (" << (L.line->hermite() ? "cubic-Hermite cable" : "EI = 0 line") << ", "
        << L.line->n_elements() << " elements, " << L.line->length() << " m)\n";
      f << "  static: FairTen " << L.statics.end_force[0].norm() << " N, AnchTen " << L.statics.end_force[1].norm()
        << " N; route: " << L.statics.route << "; residual " << L.statics.residual << " N\n";
      for (const auto& n : L.statics.notes) f << "  note: " << n << "\n";
      if (L.dynamics) {
        const auto& s = L.dynamics->statistics();
        f << "  dynamic: FairTen min " << L.ten_min[0] << " N (t = " << L.t_min[0] << " s), max " << L.ten_max[0]
          << " N (t = " << L.t_max[0] << " s); AnchTen min " << L.ten_min[1] << " N, max " << L.ten_max[1] << " N\n";
        f << "  march: " << s.steps << " steps, " << s.newton_iterations << " Newton iterations, " << s.factorizations
          << " factorisations, " << s.subdivided_intervals << " subdivided intervals (largest " << s.largest_subdivision
          << " substeps), " << s.release_caps << " release caps\n";
        if (!L.line->hermite()) {
          f << "  ei0_substeps " << (L.dynamics->options().ei0_substeps ? "auto" : "off") << ": " << s.ei0_substepped
            << " steps solved in sub-steps (largest count " << s.ei0_largest_count << "), " << s.ei0_capped
            << " needed more than ei0_substep_max, " << s.ei0_kept_plain << " kept the plain step; largest chord turn "
            << s.largest_turn_deg << " deg per solver step\n";
          if (s.ei0_kept_plain > 0)
            f << "  note: " << s.ei0_kept_plain << " step(s) kept the plain step (a sub-step did not converge): "
              << "snap peaks there are not resolved and a tension may jump in one step; confirm at a smaller dtM\n";
          const auto& dopt = L.dynamics->options();
          const double limit = dopt.ei0_substeps ? 1.1 * std::max(1.0, dopt.ei0_substep_angle) : 1.0;
          if (s.largest_turn_deg > limit)
            f << "  note: a taut segment turned by " << s.largest_turn_deg << " deg in one solver step (above "
              << limit << " deg): tension means and standard deviations err in proportion with the turn, and snap "
              << "peaks come out low at several degrees per step; confirm at a smaller dtM\n";
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
  Environment env_;
  std::vector<std::string> notes_;
  std::string tmax_source_;
  std::optional<MotionTracks> motion_;
  std::vector<LineRun> lines_;
  std::vector<HeldFluid> fluid_;
  std::unique_ptr<FluidField> field_;
  SteadyCurrent steady_;
  bool has_current_ = false, has_waves_ = false;
  double now_ = 0;
  std::unique_ptr<OutputFile> out_, nodes_;
  std::vector<std::unique_ptr<OutputFile>> line_files_;
  std::vector<double> times_;               // keep_history
  std::vector<std::vector<double>> rows_;   // keep_history
  std::vector<double> plot_t_;              // the tension figure's bounded history
  std::vector<std::vector<double>> plot_fairten_;
  long long history_count_ = 0, history_stride_ = 1;
  bool statics_done_ = false;
  std::string stop_reason_, restart_checked_;
  double last_out_t_ = -1;
  long long steps_done_ = 0;
  std::vector<std::string> names_, files_;
  std::map<std::pair<std::size_t, bool>, NodeRecovery> recovery_cache_;
  std::map<std::pair<std::size_t, bool>, VecX<double>> force_cache_;
  mutable std::map<int, VecX<double>> zero_cache_;
};

using DeckRunner = BasicDeckRunner<>;

}  // namespace cabledyn::io
