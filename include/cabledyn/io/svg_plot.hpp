// cabledyn: a small SVG line-plot writer for the driver's figures (static profiles, tension
// time series, curvature along a line). Plain SVG 1.1 text, no dependency.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "cabledyn/core/errors.hpp"

namespace cabledyn::io {

/// One polyline of a plot.
struct PlotSeries {
  std::string label;
  std::vector<double> x, y;
  std::string color;  ///< empty: taken from the palette
  bool dashed = false;
  bool markers = false;  ///< a circle at each vertex and no line (the points of a system)
};

/// A 2-D line plot.
struct Plot {
  std::string title, xlabel, ylabel;
  std::vector<PlotSeries> series;
  bool equal_aspect = false;  ///< same scale on both axes (profiles)
  int width = 900, height = 540;
};

/// A figure's time history of a few series, bounded: it keeps every stride-th sample and,
/// at 8192 kept, drops every other one and doubles the stride, so its memory does not grow
/// with the run (at most 8192 points, at least 4096 once that many have been offered).
class FigureHistory {
 public:
  /// Whether the next offered sample is kept (compute its values only then).
  bool keeps_next() const { return count_ % stride_ == 0; }
  /// Offers the sample of time t; `values` (one per series) is called only for a kept one.
  template <class F>
  void offer(double t, F&& values) {
    const bool keep = keeps_next();
    ++count_;
    if (!keep) return;
    const std::vector<double> v = values();
    if (y_.empty()) y_.resize(v.size());
    if (v.size() != y_.size()) throw InputError("figure history", "series", v.size(), "== " + std::to_string(y_.size()));
    t_.push_back(t);
    for (std::size_t k = 0; k < v.size(); ++k) y_[k].push_back(v[k]);
    if (t_.size() >= 8192) {
      const auto halve = [](std::vector<double>& a) {
        std::size_t j = 0;
        for (std::size_t i = 0; i < a.size(); i += 2) a[j++] = a[i];
        a.resize(j);
      };
      halve(t_);
      for (auto& a : y_) halve(a);
      stride_ *= 2;
    }
  }
  const std::vector<double>& t() const { return t_; }
  /// Series k's kept values.
  const std::vector<double>& y(std::size_t k) const { return y_.at(k); }
  std::size_t size() const { return t_.size(); }

 private:
  std::vector<double> t_;
  std::vector<std::vector<double>> y_;
  long long count_ = 0, stride_ = 1;
};

namespace detail {
inline std::string svg_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else o += c;
  }
  return o;
}
/// "Nice" tick spacing for a range: 1, 2 or 5 times a power of ten.
inline double nice_step(double range, int target) {
  if (!(range > 0)) return 1;
  const double raw = range / target, p = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / p;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}
inline std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%g", std::fabs(v) < 1e-12 ? 0.0 : v);
  return b;
}
}  // namespace detail

/// The SVG text of a plot.
inline std::string to_svg(const Plot& p) {
  static const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"};
  double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
  for (const auto& s : p.series)
    for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      x0 = std::min(x0, s.x[i]);
      x1 = std::max(x1, s.x[i]);
      y0 = std::min(y0, s.y[i]);
      y1 = std::max(y1, s.y[i]);
    }
  if (!(x1 >= x0)) x0 = 0, x1 = 1;
  if (!(y1 >= y0)) y0 = 0, y1 = 1;
  // A range within round-off of its magnitude (a tension constant to a few ulps) is drawn as
  // a constant: its tick step would fall below the spacing of the doubles.
  const auto flat = [](double a, double b) { return b - a <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); };
  if (flat(x0, x1)) x0 -= 0.5 * std::max(1.0, std::fabs(x0)), x1 += 0.5 * std::max(1.0, std::fabs(x1));
  if (flat(y0, y1)) y0 -= 0.5 * std::max(1.0, std::fabs(y0)), y1 += 0.5 * std::max(1.0, std::fabs(y1));
  const double padx = 0.03 * (x1 - x0), pady = 0.06 * (y1 - y0);
  x0 -= padx, x1 += padx, y0 -= pady, y1 += pady;
  const double L = 80, R = 20, T = 40, B = 60;
  double W = p.width - L - R, H = p.height - T - B;
  if (p.equal_aspect) {  // shrink one axis so both have the same metres per pixel
    const double sx = W / (x1 - x0), sy = H / (y1 - y0), s = std::min(sx, sy);
    const double cx = 0.5 * (x0 + x1), cy = 0.5 * (y0 + y1);
    x0 = cx - 0.5 * W / s, x1 = cx + 0.5 * W / s, y0 = cy - 0.5 * H / s, y1 = cy + 0.5 * H / s;
  }
  auto X = [&](double x) { return L + (x - x0) / (x1 - x0) * W; };
  auto Y = [&](double y) { return T + (y1 - y) / (y1 - y0) * H; };
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << p.width << "\" height=\"" << p.height
    << "\" viewBox=\"0 0 " << p.width << " " << p.height << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"" << p.width / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" << detail::svg_escape(p.title)
    << "</text>\n";
  // Grid and ticks.
  // Ticks counted, not accumulated: at most a few dozen whatever the arithmetic does.
  const double dx = detail::nice_step(x1 - x0, 8), dy = detail::nice_step(y1 - y0, 6);
  const double tx0 = std::ceil(x0 / dx) * dx, ty0 = std::ceil(y0 / dy) * dy;
  for (int k = 0; k <= 40; ++k) {
    const double t = tx0 + k * dx;
    if (!(t <= x1 + 1e-9 * dx)) break;
    o << "<line x1=\"" << X(t) << "\" y1=\"" << T << "\" x2=\"" << X(t) << "\" y2=\"" << T + H
      << "\" stroke=\"#e5e5e5\"/>\n<text x=\"" << X(t) << "\" y=\"" << T + H + 16 << "\" text-anchor=\"middle\">"
      << detail::fmt(t) << "</text>\n";
  }
  for (int k = 0; k <= 40; ++k) {
    const double t = ty0 + k * dy;
    if (!(t <= y1 + 1e-9 * dy)) break;
    o << "<line x1=\"" << L << "\" y1=\"" << Y(t) << "\" x2=\"" << L + W << "\" y2=\"" << Y(t)
      << "\" stroke=\"#e5e5e5\"/>\n<text x=\"" << L - 6 << "\" y=\"" << Y(t) + 4 << "\" text-anchor=\"end\">"
      << detail::fmt(t) << "</text>\n";
  }
  o << "<rect x=\"" << L << "\" y=\"" << T << "\" width=\"" << W << "\" height=\"" << H
    << "\" fill=\"none\" stroke=\"#333\"/>\n";
  o << "<text x=\"" << L + W / 2 << "\" y=\"" << p.height - 18 << "\" text-anchor=\"middle\">"
    << detail::svg_escape(p.xlabel) << "</text>\n";
  o << "<text transform=\"translate(18," << T + H / 2 << ") rotate(-90)\" text-anchor=\"middle\">"
    << detail::svg_escape(p.ylabel) << "</text>\n";
  // Series.
  int k = 0;
  for (const auto& s : p.series) {
    const std::string c = s.color.empty() ? palette[k % 7] : s.color;
    const double ly = T + 16 + 18 * k;
    if (s.markers) {
      for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i)
        if (std::isfinite(s.x[i]) && std::isfinite(s.y[i]))
          o << "<circle cx=\"" << X(s.x[i]) << "\" cy=\"" << Y(s.y[i]) << "\" r=\"4\" fill=\"" << c << "\"/>\n";
      o << "<circle cx=\"" << L + W - 157 << "\" cy=\"" << ly << "\" r=\"4\" fill=\"" << c << "\"/>\n";
    } else {
      o << "<polyline fill=\"none\" stroke=\"" << c << "\" stroke-width=\"1.6\"" << (s.dashed ? " stroke-dasharray=\"6 4\"" : "")
        << " points=\"";
      for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i)
        if (std::isfinite(s.x[i]) && std::isfinite(s.y[i])) o << X(s.x[i]) << "," << Y(s.y[i]) << " ";
      o << "\"/>\n";
      o << "<line x1=\"" << L + W - 170 << "\" y1=\"" << ly << "\" x2=\"" << L + W - 145 << "\" y2=\"" << ly << "\" stroke=\""
        << c << "\" stroke-width=\"2\"/>\n";
    }
    // Legend entry.
    o << "<text x=\"" << L + W - 140 << "\" y=\"" << ly + 4 << "\">" << detail::svg_escape(s.label) << "</text>\n";
    ++k;
  }
  o << "</svg>\n";
  return o.str();
}

/// Write a plot to `path`; throws InputError naming the file when it cannot be written.
inline void write_svg(const Plot& p, const std::string& path) {
  std::ofstream f(path);
  if (!f) throw InputError(path, "output file", "not writable", "a writable path");
  f << to_svg(p);
}

}  // namespace cabledyn::io
