// cabledyn: the files and figures of a deck's run: <root>.out, .nodes.out and the per-line files
// (streamed, each number checked finite), .static.out, the profile, plan, tension and
// curvature figures, and the summary.
// DECK_FORMAT.md "Outputs"; docs/driver.md, docs/robustness.md (streamed outputs).
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

inline void SystemRunner::open_outputs() {
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
  // <root>.nodes.out: every node's position at every output time (lines in deck order, nodes numbered as the deck
  // counts them from End A).
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
  // <root>_Line<L>.out: MoorDyn's per-line output flags (io/line_output_file.hpp).
  line_files_.clear();
  line_files_.resize(deck_.lines.size());
  line_widths_.assign(deck_.lines.size(), 0);
  node_values_ = 0;
  for (const auto& L : deck_.lines)
    node_values_ += 3 * sim_->model().system.line(sim_->line_index(L.id)).model.n_nodes();
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

inline std::vector<double> SystemRunner::line_file_row(std::size_t k) const {
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
    for (std::size_t i = 0; i < nn; ++i) vec3(Vec3<double>(0, 0, m.seabed_reaction(i, slot(x, i)(2), slot(v, i)(2)).f));
  return out;
}

inline std::vector<double> SystemRunner::output_row(double t) const {
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

inline void SystemRunner::record(double t) {
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

inline void SystemRunner::write_static_out() {
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
      f << sim_->model().line_id[l] << "\t" << static_cast<long long>(i) + first << "\t" << arc << "\t" << r(0) << "\t"
        << r(1) << "\t" << r(2) << "\t" << rec.tension[i] << "\t" << rec.curvature[i] << "\t" << rec.moment[i] << "\n";
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
        if (sys.line(static_cast<int>(l)).point[e] == pi)
          F += sys.line_end_force(static_state_, static_cast<int>(l), e);
    const auto& P = sys.point(pi);
    const std::string kind = P.kind == PointKind::free      ? "Free"
                             : P.kind == PointKind::coupled ? "Coupled"
                             : P.kind == PointKind::body    ? "Body" + std::to_string(P.body + 1)
                                                            : "Fixed";
    f << sim_->model().point_id[p] << "\t" << kind << "\t" << r(0) << "\t" << r(1) << "\t" << r(2) << "\t" << F(0)
      << "\t" << F(1) << "\t" << F(2) << "\n";
  }
  out->row_done();
  if (sys.n_bodies() > 0) {
    // Bodies: the pose and the static load of their lines about the reference point.
    f << "\nBodyID\tType\tX(m)\tY(m)\tZ(m)\tRoll(deg)\tPitch(deg)\tYaw(deg)\tFx(N)\tFy(N)\tFz(N)\tMx(Nm)\tMy(Nm)\tMz("
         "Nm)\n";
    for (std::size_t b = 0; b < sys.n_bodies(); ++b) {
      const int bi = static_cast<int>(b);
      Vec3<double> r;
      Mat3<double> R;
      sys.body_pose(static_state_, bi, r, R);
      const Vec3<double> ang = deck_body_angles(deck_.options, R) * (180 / kPi);
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

inline void SystemRunner::write_plots() {
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
  // <root>.tension.svg: each line's FairTen over the run (two output times or more).
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
    const NodeRecovery r = recover_nodes_at(m, xs, nullptr, sys.line_end_force(static_state_, l, 0),
                                            sys.line_end_force(static_state_, l, 1));
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

inline void SystemRunner::write_summary(double seconds) {
  auto out = std::make_unique<OutputFile>(set_.root + ".summary.txt");
  files_.push_back(out->path());
  std::ostream& f = out->stream();
  f << "cabledyn " << kVersion << " run of " << deck_.file << "\n" << deck_.title << "\n\n";
  const auto& sys = sim_->static_system();  // the system as its statics solved it
  f << "system route: " << sys.n_lines() << " lines, " << sys.n_points() << " points, " << sys.n_bodies() << " bodies ("
    << sys.dofs() << " DOFs)\n";
  if (dynamic_run())
    f << "run: " << deck_.options.steps() << " steps of dtM = " << *deck_.options.dtM
      << " s to t = " << *deck_.options.TMax << " s (run length from " << tmax_source_ << ")\n";
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
        << (parts ? " (summed over the " + std::to_string(parts->size()) + " components stepped apart)" : std::string())
        << ", " << sim_->stepper_statistics().newton_iterations << " Newton iterations, "
        << sim_->stepper_statistics().factorizations << " factorisations"
        << (deck_.options.modified_newton ? " (modified Newton)" : "") << ", "
        << sim_->stepper_statistics().subdivisions << " subdivided steps";
      if (sim_->staggered())
        f << "; bodyScheme staggered: up to " << sim_->max_substeps() << " sub-steps per dtM"
          << (sim_->max_substeps() > 256 ? " (warning: more than 256: the explicit body update needs short steps here)"
                                         : "");
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
        if (const auto note =
                chord_turn_note(ss.largest_turn_deg, sim_->system().ei0_substeps(), sim_->system().ei0_substep_angle()))
          f << "note: " << *note << "\n";
      if (ss.kept_plain > 0) f << "note: " << kept_plain_note(ss.kept_plain) << "\n";
    }
    for (std::size_t l = 0; l < sys.n_lines(); ++l) {
      const int id = sim_->model().line_id[l];
      f << "line " << id << " ("
        << (sys.line(static_cast<int>(l)).model.hermite() ? "finite-EI cable, " : "EI = 0 line, ")
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

}  // namespace cabledyn::io
