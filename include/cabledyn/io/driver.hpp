// cabledyn: the deck driver. Turns a parsed deck into lines, solves the static equilibrium
// of each line, the modes (nModes), the dynamic march (dtM, TMax) under the deck's prescribed
// fairlead motion and sea state, and writes the outputs of DECK_FORMAT.md ("Outputs"):
// <root>.out (the requested channels), <root>.static.out (per node), <root>.modes.out,
// <root>.nodes.out (per-line node positions at each output time), <root>.summary.txt, and
// SVG figures (<root>.profile.svg, <root>.tension.svg, <root>.curvature.svg).
#pragma once

#include <chrono>
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
#include "cabledyn/io/svg_plot.hpp"
#include "cabledyn/modal.hpp"
#include "cabledyn/sea.hpp"
#include "cabledyn/statics.hpp"

namespace cabledyn::io {

/// Settings of a driver run.
struct RunSettings {
  std::string root = "cabledyn";  ///< output path prefix: <root>.out, <root>.static.out, ...
  bool static_only = false;       ///< `--static`: statics (and modes) only
  bool plots = true;              ///< write the SVG figures
  bool progress = true;           ///< progress bar on stderr for runs over a second
  std::ostream* log = &std::cerr; ///< messages (nullptr: quiet)
};

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
  BasicDeckRunner(const Deck& deck, RunSettings settings) : deck_(deck), set_(std::move(settings)) {
    env_ = deck.environment();
    env_.validate();
    build_lines();
  }

  const std::vector<LineRun>& lines() const { return lines_; }
  const std::vector<std::string>& files() const { return files_; }
  /// Output times and channel values (one row per output time).
  const std::vector<double>& times() const { return times_; }
  const std::vector<std::vector<double>>& channel_rows() const { return rows_; }
  const std::vector<std::string>& channel_names() const { return names_; }

  /// Statics, modes, dynamics, outputs, figures and summary.
  void run() {
    const auto t0 = std::chrono::steady_clock::now();
    solve_statics();
    write_static_out();
    if (deck_.options.nModes > 0) solve_modes();
    if (deck_.options.dynamic() && !set_.static_only) march();
    if (!deck_.outputs.empty() || times_.empty()) write_channels();
    if (set_.plots) write_plots();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    write_summary(secs);
  }

  /// The static value of every requested channel (also the first row of <root>.out).
  std::vector<double> static_channels() {
    std::vector<double> v;
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

  void build_lines() {
    for (const auto& rec : deck_.lines) {
      LineRun L;
      L.id = rec.id;
      L.point[0] = rec.fairlead();
      L.point[1] = rec.anchor();
      const auto* pa = deck_.find_point(L.point[0]);
      const auto* pb = deck_.find_point(L.point[1]);
      LineEnd ends[2];
      ends[0].position = Vec3<double>(pa->r[0], pa->r[1], pa->r[2]);
      ends[1].position = Vec3<double>(pb->r[0], pb->r[1], pb->r[2]);
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
      L.line = std::make_unique<Line>("line " + std::to_string(rec.id), deck_.line_sections(rec.id), ends[0], ends[1],
                                      env_, lo);
      if (env_.depth) L.problem.seabed_z = -*env_.depth;
      L.problem.seabed.kBot = deck_.options.kBot;
      L.problem.seabed.cBot = deck_.options.cBot;
      lines_.push_back(std::move(L));
    }
    build_sea();
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
    WaveModel waves;
    std::vector<SpectralTrain> trains;
    if (o.waves.kind == WaveKind::airy) {
      waves = LinearSea::regular(o.waves.H, o.waves.T, o.waves.dir_deg * kPi / 180, depth, env_.g);
    } else if (o.waves.kind == WaveKind::stream) {
      if (!env_.depth) throw InputError(deck_.file, "waves stream", "no WtrDpth", "WtrDpth given");
      StreamWaveOptions so;
      so.order = o.StreamOrder;
      waves = StreamWave(o.waves.H, o.waves.T, o.waves.dir_deg * kPi / 180, depth, env_.g, so);
    } else if (o.waves.kind != WaveKind::none) {
      trains.push_back(train_of(o.waves));
    }
    for (const auto& w : o.wavetrains) trains.push_back(train_of(w));
    if (!trains.empty()) waves = LinearSea(synthesize_trains(trains, o.WaveSeed, env_.g), depth, env_.g);
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
      std::ostringstream os;
      os << "line " << L.id << ": static FairTen " << L.statics.end_force[0].norm() << " N, AnchTen "
         << L.statics.end_force[1].norm() << " N (" << L.statics.route << ")";
      say(os.str());
    }
  }

  void solve_modes() {
    std::vector<ModalResult<double>> res;
    for (auto& L : lines_) {
      ModalOptions mo;
      mo.n_modes = deck_.options.nModes;
      res.push_back(modal_analysis<double>(*L.line, L.problem, L.statics, mo));
    }
    files_.push_back(write_modes_file<double>(set_.root, std::span<const ModalResult<double>>(res)));
    say("modes written to " + files_.back());
  }

  // ---- prescribed motion ---------------------------------------------------------------------
  EndMotion point_motion(int pid, std::size_t step, double t) const {
    const auto* p = deck_.find_point(pid);
    EndMotion m;
    m.x = Vec3<double>(p->r[0], p->r[1], p->r[2]);
    if (!p->moving()) return m;
    if (!tracks_.empty()) {
      const auto it = tracks_.find(pid);
      if (it != tracks_.end()) {
        const auto& k = it->second[std::min(step, it->second.size() - 1)];
        m.x = Vec3<double>(k.x[0], k.x[1], k.x[2]);
        m.v = Vec3<double>(k.v[0], k.v[1], k.v[2]);
        m.a = Vec3<double>(k.a[0], k.a[1], k.a[2]);
      }
      return m;
    }
    if (deck_.options.fairleadMotion) {
      // Ramped from rest over max(one period, rampTime) by a quintic (C2) ramp, as the spec
      // advises for prescribed motion ("ramp it from rest ... to avoid a start-up transient").
      const auto h = harmonic_motion(*deck_.options.fairleadMotion, t);
      const double Tr = std::max(deck_.options.fairleadMotion->period, deck_.options.rampTime);
      double r = 1, rd = 0, rdd = 0;
      if (t < Tr) {
        const double u = std::max(t, 0.0) / Tr;
        r = u * u * u * (10 - 15 * u + 6 * u * u);
        rd = 30 * u * u * (1 - u) * (1 - u) / Tr;
        rdd = 60 * u * (1 - u) * (1 - 2 * u) / (Tr * Tr);
      }
      const Vec3<double> x(h.x[0], h.x[1], h.x[2]), v(h.v[0], h.v[1], h.v[2]), a(h.a[0], h.a[1], h.a[2]);
      m.x += r * x;
      m.v = rd * x + r * v;
      m.a = rdd * x + 2 * rd * v + r * a;
    }
    return m;
  }

  EndMotions line_motion(const LineRun& L, std::size_t step, double t) const {
    return {point_motion(L.point[0], step, t), point_motion(L.point[1], step, t)};
  }

  // ---- the march -----------------------------------------------------------------------------
  void march() {
    const auto& o = deck_.options;
    if (o.motionFile) tracks_ = motion_tracks(read_motion(deck_relative_path(deck_, *o.motionFile)), deck_);
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
    std::vector<HeldFluid> fluid(lines_.size());
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      auto& L = lines_[k];
      DynamicOptions dk = d;
      dk.seabed_z = L.problem.seabed_z;
      dk.seabed = L.problem.seabed;
      L.dynamics = std::make_unique<LineDynamics>(*L.line, dk);
      const HeldFluid* f = nullptr;
      if (field_) {
        sample_fluid(*field_, *L.line, L.statics.q, 0.0, fluid[k]);
        f = &fluid[k];
      }
      L.dynamics->initialize(0.0, L.statics.q, line_motion(L, 0, 0.0), f);
      for (int e = 0; e < 2; ++e) {
        const double T = L.statics.end_force[e].norm();
        L.ten_min[e] = L.ten_max[e] = T;
      }
    }
    record(0.0, false);
    const auto start = std::chrono::steady_clock::now();
    int shown = -1;
    for (long long s = 1; s <= n; ++s) {
      const double t = s * dt;
      for (std::size_t k = 0; k < lines_.size(); ++k) {
        auto& L = lines_[k];
        const HeldFluid* f = nullptr;
        if (field_) {
          sample_fluid(*field_, *L.line, L.dynamics->state().q, t, fluid[k]);
          f = &fluid[k];
        }
        L.dynamics->step(dt, line_motion(L, static_cast<std::size_t>(s), t), f);
        for (int e = 0; e < 2; ++e) {
          const double T = L.dynamics->end_force(e).norm();
          if (T > L.ten_max[e]) L.ten_max[e] = T, L.t_max[e] = t;
          if (T < L.ten_min[e]) L.ten_min[e] = T, L.t_min[e] = t;
        }
      }
      record(t, false);
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

  double channel_value(const OutputChannel& c, bool use_static) {
    auto key = [&](std::size_t k) { return std::make_pair(k, use_static); };
    switch (c.kind) {
      case ChannelKind::FairTen:
      case ChannelKind::AnchTen: {
        const std::size_t k = line_index(c.line);
        return end_force(k, c.kind == ChannelKind::FairTen ? 0 : 1, use_static).norm();
      }
      case ChannelKind::FairIncl:
      case ChannelKind::AnchIncl: {
        const std::size_t k = line_index(c.line);
        const Vec3<double> F = end_force(k, c.kind == ChannelKind::FairIncl ? 0 : 1, use_static);
        // Degrees below horizontal of the line leaving the end: the line pulls the fairlead
        // down (positive); at the anchor the sign of the pull is reversed (a line leaving the
        // anchor upward reads negative).
        const double h = std::hypot(F(0), F(1));
        return std::atan2(-F(2), h) * 180 / kPi;
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
      case ChannelKind::NodePosition: {
        const std::size_t k = line_index(c.line);
        const auto& L = lines_[k];
        const VecX<double>& q = use_static || !L.dynamics ? L.statics.q : L.dynamics->state().q;
        return L.line->r(q, node_index(c))(c.component);
      }
      case ChannelKind::PointPosition:
      case ChannelKind::PointForce: {
        Vec3<double> x = Vec3<double>::Zero(), F = Vec3<double>::Zero();
        bool found = false;
        for (std::size_t k = 0; k < lines_.size(); ++k)
          for (int e = 0; e < 2; ++e)
            if (lines_[k].point[e] == c.point) {
              const auto& L = lines_[k];
              const VecX<double>& q = use_static || !L.dynamics ? L.statics.q : L.dynamics->state().q;
              x = L.line->r(q, L.line->end_node(e));
              F += end_force(k, e, use_static);
              found = true;
            }
        if (!found) {
          const auto* p = deck_.find_point(c.point);
          if (!p) throw InputError(deck_.file, "output channel point", c.point, "a point of POINTS");
          x = Vec3<double>(p->r[0], p->r[1], p->r[2]);
        }
        return c.kind == ChannelKind::PointPosition ? x(c.component) : F(c.component);
      }
    }
    return 0;
  }

  std::size_t node_index(const OutputChannel& c) const {
    const std::size_t k = line_index(c.line);
    const long long j = deck_.oriented_node(c.line, c.node);
    if (j < 1 || static_cast<std::size_t>(j) > lines_[k].line->n_nodes())
      throw InputError(deck_.file, "output channel node", c.node,
                       "in [1, " + std::to_string(lines_[k].line->n_nodes()) + "]");
    return static_cast<std::size_t>(j - 1);
  }

  void record(double t, bool use_static) {
    recovery_cache_.clear();
    std::vector<double> row;
    for (const auto& o : deck_.outputs) row.push_back(channel_value(o.channel, use_static));
    times_.push_back(t);
    rows_.push_back(std::move(row));
    fairten_.resize(lines_.size());
    for (std::size_t k = 0; k < lines_.size(); ++k) fairten_[k].push_back(end_force(k, 0, use_static).norm());
    // Node positions of every line for <root>.nodes.out.
    std::vector<double> nodes;
    for (const auto& L : lines_) {
      const VecX<double>& q = use_static || !L.dynamics ? L.statics.q : L.dynamics->state().q;
      for (std::size_t i = 0; i < L.line->n_nodes(); ++i)
        for (int c = 0; c < 3; ++c) nodes.push_back(L.line->r(q, i)(c));
    }
    node_rows_.push_back(std::move(nodes));
  }

  // ---- files ---------------------------------------------------------------------------------
  std::ofstream open(const std::string& suffix) {
    const std::string path = set_.root + suffix;
    std::ofstream f(path);
    if (!f) throw InputError(path, "output file", "not writable", "a writable path");
    f << std::setprecision(10);
    files_.push_back(path);
    return f;
  }

  void write_channels() {
    if (times_.empty()) record(0.0, true);
    names_.clear();
    for (const auto& o : deck_.outputs) names_.push_back(o.channel.name());
    auto f = open(".out");
    f << "cabledyn " << kVersion << " output of " << deck_.file << ": " << deck_.title << "\n";
    f << "Time(s)";
    for (const auto& n : names_) f << "\t" << n;
    f << "\n";
    for (std::size_t r = 0; r < times_.size(); ++r) {
      f << times_[r];
      for (double v : rows_[r]) f << "\t" << v;
      f << "\n";
    }
    auto g = open(".nodes.out");
    g << "Time(s)";
    for (const auto& L : lines_)
      for (std::size_t i = 0; i < L.line->n_nodes(); ++i)
        for (const char* c : {"px", "py", "pz"}) g << "\tL" << L.id << "N" << deck_.oriented_node(L.id, static_cast<long long>(i) + 1) << c;
    g << "\n";
    for (std::size_t r = 0; r < times_.size(); ++r) {
      g << times_[r];
      for (double v : node_rows_[r]) g << "\t" << v;
      g << "\n";
    }
  }

  void write_static_out() {
    auto f = open(".static.out");
    f << "LineID\tNode\tArcLength(m)\tX(m)\tY(m)\tZ(m)\tTension(N)\tCurvature(1/m)\tBendMoment(Nm)\n";
    for (std::size_t k = 0; k < lines_.size(); ++k) {
      const auto& L = lines_[k];
      const NodeRecovery r = recover(k, true);
      const std::size_t nn = L.line->n_nodes();
      // Rows in the deck's node numbering (1 = End A as written).
      for (std::size_t j = 1; j <= nn; ++j) {
        const std::size_t i = static_cast<std::size_t>(deck_.oriented_node(L.id, static_cast<long long>(j)) - 1);
        const Vec3<double> x = L.line->r(L.statics.q, i);
        const double s = deck_.oriented_node(L.id, 1) == 1 ? L.line->s_node(i) : L.line->length() - L.line->s_node(i);
        f << L.id << "\t" << j << "\t" << s << "\t" << x(0) << "\t" << x(1) << "\t" << x(2) << "\t" << r.tension[i] << "\t"
          << r.curvature[i] << "\t" << r.moment[i] << "\n";
      }
    }
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
    write_svg(prof, set_.root + ".profile.svg");
    files_.push_back(set_.root + ".profile.svg");
    if (times_.size() > 1) {
      Plot ten;
      ten.title = "Fairlead tension";
      ten.xlabel = "time (s)";
      ten.ylabel = "FairTen (kN)";
      for (std::size_t k = 0; k < lines_.size(); ++k) {
        PlotSeries s;
        s.label = "line " + std::to_string(lines_[k].id);
        s.x = times_;
        fairten_series(k, s.y);
        ten.series.push_back(std::move(s));
      }
      write_svg(ten, set_.root + ".tension.svg");
      files_.push_back(set_.root + ".tension.svg");
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
    if (any_hermite) {
      write_svg(cur, set_.root + ".curvature.svg");
      files_.push_back(set_.root + ".curvature.svg");
    }
  }

  // FairTen of line k at each recorded time, from the recorded node positions when the
  // channel was not requested (the end force needs the state: use the march's extremes).
  void fairten_series(std::size_t k, std::vector<double>& y) const {
    y.assign(times_.size(), std::nan(""));
    for (std::size_t c = 0; c < deck_.outputs.size(); ++c) {
      const auto& ch = deck_.outputs[c].channel;
      if (ch.kind == ChannelKind::FairTen && ch.line == lines_[k].id) {
        for (std::size_t r = 0; r < times_.size(); ++r) y[r] = rows_[r][c] / 1e3;
        return;
      }
    }
    for (std::size_t r = 0; r < times_.size(); ++r) y[r] = fairten_[k].size() > r ? fairten_[k][r] / 1e3 : std::nan("");
  }

  void write_summary(double seconds) {
    auto f = open(".summary.txt");
    f << "cabledyn " << kVersion << " run of " << deck_.file << "\n" << deck_.title << "\n\n";
    for (const auto& n : deck_.notes) f << "note: " << n << "\n";
    for (const auto& L : lines_) {
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
  }

  Deck deck_;
  RunSettings set_;
  Environment env_;
  std::vector<LineRun> lines_;
  std::unique_ptr<FluidField> field_;
  SteadyCurrent steady_;
  bool has_current_ = false, has_waves_ = false;
  std::map<int, std::vector<PointKinematics>> tracks_;
  std::vector<double> times_;
  std::vector<std::vector<double>> rows_, node_rows_;
  std::vector<std::vector<double>> fairten_;
  std::vector<std::string> names_, files_;
  std::map<std::pair<std::size_t, bool>, NodeRecovery> recovery_cache_;
};

using DeckRunner = BasicDeckRunner<>;

}  // namespace cabledyn::io
