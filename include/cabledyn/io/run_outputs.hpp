// cabledyn: the output files of a deck run (DECK_FORMAT.md, "Outputs"). One job: write them,
// checked (io/output_file.hpp): <root>.out (the requested channels, every dtOut),
// <root>.nodes.out (per-line node positions at each output time), <root>_Line<L>.out
// (MoorDyn's per-line output flags), <root>.static.out (per node: tension, curvature and bend
// moment by node recovery, spec "Node tension, curvature and bend moment"), the SVG figures
// (<root>.profile.svg, <root>.tension.svg, <root>.curvature.svg) and <root>.summary.txt, and
// list them; the values come from io/line_channels.hpp. docs/driver.md.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cabledyn/core/version.hpp"
#include "cabledyn/io/channel.hpp"
#include "cabledyn/io/line_output_file.hpp"
#include "cabledyn/io/node_recovery.hpp"
#include "cabledyn/io/output_file.hpp"
#include "cabledyn/io/svg_plot.hpp"

namespace cabledyn::io {

/// How a run went, for its summary.
struct RunStatus {
  bool dynamic = false;       ///< a dynamic run (TMax, not --static)
  bool static_only = false;   ///< --static
  std::string tmax_source;    ///< where the run length came from
  std::string stop_reason;    ///< why the run stopped early; empty when it completed
  bool statics_done = false;  ///< every line has its static solution
  long long steps_done = 0;   ///< committed steps of the march
};

/// The output files of a deck run under one root, and what the run keeps of its outputs (the
/// channel rows with keep_history, the tension figure's bounded history).
/// A class template with one defaulted, unused parameter; use it as `RunOutputs`, its only
/// instance: its member bodies are then compiled only in the files that use them.
template <class Unused = void>
class BasicRunOutputs {
 public:
  explicit BasicRunOutputs(std::string root) : root_(std::move(root)) {}

  /// The files written, in the order they were created.
  const std::vector<std::string>& files() const { return files_; }
  /// Lists a file written elsewhere (the modes file) among the run's files.
  void add_file(std::string path) { files_.push_back(std::move(path)); }
  /// The channel names of <root>.out (set when it is opened).
  const std::vector<std::string>& channel_names() const { return names_; }
  /// Output times and channel values (one row per output time) with keep_history.
  const std::vector<double>& times() const { return times_; }
  const std::vector<std::vector<double>>& channel_rows() const { return rows_; }
  /// Points the tension figure keeps (at most 8192, whatever the run's length).
  std::size_t plot_history_size() const { return history_.size(); }
  /// The time of the last row written (-1 before the first).
  double last_time() const { return last_out_t_; }

  /// Creates <root><suffix> (an OutputFile) and lists it among the run's files.
  std::unique_ptr<OutputFile> open(const std::string& suffix) {
    auto f = std::make_unique<OutputFile>(root_ + suffix);
    files_.push_back(f->path());
    return f;
  }

  /// Opens <root>.out, <root>.nodes.out and the line files and writes their headers;
  /// `line_headers[k]` holds the column names of line k's file (LineChannels::
  /// line_output_header). A note in `notes` for each line output flag not written.
  void open_outputs(const Deck& deck, const std::vector<LineRun>& lines,
                    const std::vector<std::vector<std::string>>& line_headers, std::vector<std::string>& notes) {
    names_.clear();
    for (const auto& o : deck.outputs) names_.push_back(o.text.empty() ? o.channel.name() : o.text);
    out_ = open(".out");
    std::ostream& f = out_->stream();
    f << "cabledyn " << kVersion << " output of " << deck.file << ": " << deck.title << "\n";
    f << "Time(s)";
    for (const auto& n : names_) f << "\t" << n;
    f << "\n";
    if (deck.options.WriteUnits) {
      f << "(s)";
      for (const auto& o : deck.outputs) f << "\t" << channel_unit(o.channel);
      f << "\n";
    }
    out_->row_done();
    nodes_ = open(".nodes.out");
    std::ostream& g = nodes_->stream();
    g << "Time(s)";
    const int first = deck.first_node_number();
    for (const auto& L : lines)
      for (std::size_t i = 0; i < L.line->n_nodes(); ++i)
        for (const char* c : {"px", "py", "pz"})
          g << "\tL" << L.id << "N" << deck.oriented_node(L.id, static_cast<long long>(i) + 1) - 1 + first << c;
    g << "\n";
    nodes_->row_done();
    line_files_.clear();
    line_files_.resize(lines.size());
    line_widths_.assign(lines.size(), 0);
    for (std::size_t k = 0; k < lines.size(); ++k) {
      const std::string& flags = deck.find_line(lines[k].id)->outputs;
      if (!line_file_wanted(flags)) continue;
      const std::string note = line_file_note(lines[k].id, flags);
      if (!note.empty()) notes.push_back(note);
      const std::vector<std::string>& h = line_headers[k];
      if (h.empty()) continue;
      line_widths_[k] = h.size();
      line_files_[k] = open("_Line" + std::to_string(lines[k].id) + ".out");
      std::ostream& l = line_files_[k]->stream();
      l << "Time";
      for (const auto& n : h) l << "\t" << n;
      l << "\n";
      line_files_[k]->row_done();
    }
  }

  /// Writes the outputs of time t from its output row (LineChannels::output_row: the
  /// `n_channels` channels, the node positions of every line, the line files' values): a row
  /// of <root>.out, of <root>.nodes.out and of each line file; kept in memory with
  /// keep_history; the plots' bounded history of the lines' fairlead tensions.
  void write_row(double t, const std::vector<double>& row, const std::vector<LineRun>& lines, bool use_static,
                 bool keep_history) {
    last_out_t_ = t;
    const std::size_t nc = names_.size();
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
      for (const auto& L : lines)
        for (std::size_t i = 0; i < 3 * L.line->n_nodes(); ++i) g << "\t" << row[at++];
      g << "\n";
      nodes_->row_done();
    }
    for (std::size_t k = 0; k < lines.size(); ++k) {
      if (!line_files_[k]) continue;
      const std::size_t w = line_widths_[k];
      std::ostream& h = line_files_[k]->stream();
      h << t;
      for (std::size_t i = 0; i < w; ++i) h << "\t" << row[at++];
      h << "\n";
      line_files_[k]->row_done();
    }
    if (keep_history) {
      times_.push_back(t);
      rows_.emplace_back(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(nc));
    }
    // The tension figure's history, bounded (FigureHistory).
    history_.offer(t, [&] {
      std::vector<double> f;
      for (const auto& L : lines) f.push_back(line_end_force(L, 0, use_static).norm());
      return f;
    });
  }

  /// Flushes and closes the streamed outputs (checked).
  void close_outputs() {
    if (out_) out_->close();
    if (nodes_) nodes_->close();
    for (auto& f : line_files_)
      if (f) f->close();
  }

  /// <root>.static.out: every node of every line at the static equilibrium (node numbers as
  /// the deck counts them, from End A as written) with its arc length, position, and the
  /// recovered tension, curvature and bend moment; each value checked finite (SolveError).
  void write_static_out(const Deck& deck, const std::vector<LineRun>& lines) {
    auto out = open(".static.out");
    std::ostream& f = out->stream();
    f << "LineID\tNode\tArcLength(m)\tX(m)\tY(m)\tZ(m)\tTension(N)\tCurvature(1/m)\tBendMoment(Nm)\n";
    const int first = deck.first_node_number();
    for (std::size_t k = 0; k < lines.size(); ++k) {
      const auto& L = lines[k];
      const NodeRecovery r = recover_nodes(lines[k], true);
      const std::size_t nn = L.line->n_nodes();
      // Rows in the deck's node numbering (End A as written first).
      for (std::size_t j = 1; j <= nn; ++j) {
        const std::size_t i = static_cast<std::size_t>(deck.oriented_node(L.id, static_cast<long long>(j)) - 1);
        const Vec3<double> x = L.line->r(L.statics.q, i);
        const double s = deck.oriented_node(L.id, 1) == 1 ? L.line->s_node(i) : L.line->length() - L.line->s_node(i);
        for (double v : {x(0), x(1), x(2), r.tension[i], r.curvature[i], r.moment[i]})
          if (!std::isfinite(v))
            throw SolveError(deck.file + ": line " + std::to_string(L.id) + " statics", "node " + std::to_string(j) + " result",
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

  /// The figures: <root>.profile.svg (the static profiles and the seabed),
  /// <root>.tension.svg (the fairlead tension history, when there are two output times or
  /// more) and <root>.curvature.svg (the static curvature of the cables, when there are any).
  void write_plots(const std::vector<LineRun>& lines, const Environment& env) {
    Plot prof;
    prof.title = "Static line profiles";
    prof.xlabel = "horizontal distance from the fairlead (m)";
    prof.ylabel = "z (m)";
    prof.equal_aspect = true;
    for (const auto& L : lines) {
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
    if (env.depth) {
      PlotSeries bed;
      bed.label = "seabed";
      bed.color = "#8c6d31";
      bed.dashed = true;
      double xmax = 0;
      for (const auto& s : prof.series)
        for (double v : s.x) xmax = std::max(xmax, v);
      bed.x = {0, xmax};
      bed.y = {-*env.depth, -*env.depth};
      prof.series.push_back(bed);
    }
    svg_file(prof, ".profile.svg");
    if (history_.size() > 1) {
      Plot ten;
      ten.title = "Fairlead tension";
      ten.xlabel = "time (s)";
      ten.ylabel = "FairTen (kN)";
      for (std::size_t k = 0; k < lines.size(); ++k) {
        PlotSeries s;
        s.label = "line " + std::to_string(lines[k].id);
        s.x = history_.t();
        for (double v : history_.y(k)) s.y.push_back(v / 1e3);
        ten.series.push_back(std::move(s));
      }
      svg_file(ten, ".tension.svg");
    }
    bool any_hermite = false;
    Plot cur;
    cur.title = "Static curvature along the cables";
    cur.xlabel = "arc length from the fairlead (m)";
    cur.ylabel = "curvature (1/m)";
    for (std::size_t k = 0; k < lines.size(); ++k) {
      if (!lines[k].line->hermite()) continue;
      any_hermite = true;
      const NodeRecovery r = recover_nodes(lines[k], true);
      PlotSeries s;
      s.label = "line " + std::to_string(lines[k].id);
      for (std::size_t i = 0; i < lines[k].line->n_nodes(); ++i) {
        s.x.push_back(lines[k].line->s_node(i));
        s.y.push_back(r.curvature[i]);
      }
      cur.series.push_back(std::move(s));
    }
    if (any_hermite) svg_file(cur, ".curvature.svg");
  }

  /// <root>.summary.txt: the run, where and why it stopped, the notes, and per line its
  /// statics, the extreme end tensions of the march and the march's statistics; the wall time
  /// and the files written.
  void write_summary(const Deck& deck, const std::vector<LineRun>& lines, const std::vector<std::string>& notes,
                     const RunStatus& st, double seconds) {
    auto out = open(".summary.txt");
    std::ostream& f = out->stream();
    f << "cabledyn " << kVersion << " run of " << deck.file << "\n" << deck.title << "\n\n";
    if (st.dynamic)
      f << "run: " << deck.options.steps() << " steps of dtM = " << *deck.options.dtM << " s to t = "
        << *deck.options.TMax << " s (run length from " << st.tmax_source << ")\n";
    else if (st.static_only)
      f << "run: statics only (--static)\n";
    else
      f << "run: statics only (no TMax in the deck: give TMax, or --tmax)\n";
    if (!st.stop_reason.empty()) {
      if (st.dynamic && st.statics_done && out_)
        f << "STOPPED after " << st.steps_done << " of " << deck.options.steps() << " steps (t = "
          << static_cast<double>(st.steps_done) * *deck.options.dtM << " s); the outputs hold every output time up to t = "
          << last_out_t_ << " s: " << st.stop_reason << "\n";
      else
        f << "STOPPED before the march: " << st.stop_reason << "\n";
    }
    for (const auto& n : notes) f << "note: " << n << "\n";
    for (const auto& L : lines) {
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
            f << "  note: " << kept_plain_note(s.ei0_kept_plain) << "\n";
          const auto& dopt = L.dynamics->options();
          if (const auto note = chord_turn_note(s.largest_turn_deg, dopt.ei0_substeps, dopt.ei0_substep_angle))
            f << "  note: " << *note << "\n";
        }
      }
    }
    f << "\nwall time " << seconds << " s\nfiles:";
    for (const auto& p : files_) f << " " << p;
    f << "\n";
    out->close();
  }

 private:
  std::string root_;
  std::unique_ptr<OutputFile> out_, nodes_;
  std::vector<std::unique_ptr<OutputFile>> line_files_;
  std::vector<std::size_t> line_widths_;    // values per row of each line file
  std::vector<double> times_;               // keep_history
  std::vector<std::vector<double>> rows_;   // keep_history
  FigureHistory history_;  // the tension figure's bounded history of the lines' FairTen
  double last_out_t_ = -1;
  std::vector<std::string> names_, files_;
};

using RunOutputs = BasicRunOutputs<>;

}  // namespace cabledyn::io
