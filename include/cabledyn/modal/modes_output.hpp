// cabledyn: the <root>.modes.out file of a modal analysis.
// Spec "Modal analysis": the frequencies f = omega / 2 pi and the nodal translations of each
// mode (scaled to a unit largest nodal displacement) are written to <root>.modes.out. The
// deck driver calls write_modes_file once with the results of every line that has nModes.
//
// Format (plain text, one record per line, fields separated by spaces; numbers in C "%.12e",
// a zero frequency's period written "inf"); docs/modal-analysis.md shows an example:
//
//   CableDyn modes: natural frequencies and mode shapes about the static equilibrium
//   Lines <count>
//   Line <i> <name> Nodes <N> Modes <k>
//   Mode Frequency[Hz] Period[s] Omega2[rad^2/s^2]
//   <j> <f_j> <T_j> <omega_j^2>                        (k rows, j = 1..k, ascending)
//   Shape <j> Frequency[Hz] <f_j> Period[s] <T_j>      (then, for each mode j = 1..k:)
//   Node s[m] x[m] y[m] z[m] dx dy dz
//   <i> <s_i> <x_i> <y_i> <z_i> <dx_i> <dy_i> <dz_i>    (N rows, node 1 = End A)
//
// The Line block repeats for every line; <name> is the line's name with spaces replaced by
// underscores; s is the unstretched arc length from End A, (x, y, z) the static position and
// (dx, dy, dz) the scaled translation.
#pragma once

#include <cmath>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <span>
#include <string>

#include "cabledyn/core/errors.hpp"
#include "cabledyn/modal/modal_analysis.hpp"

namespace cabledyn {

namespace detail {
inline std::string modes_number(long double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.12Le", v);
  return buf;
}
inline std::string modes_name(std::string s) {
  for (char& c : s)
    if (c == ' ' || c == '\t' || c == '\n') c = '_';
  return s.empty() ? std::string("_") : s;
}
}  // namespace detail

/// Writes the modes of every line in `results` to `os` in the <root>.modes.out format.
template <class T>
void write_modes(std::ostream& os, std::span<const ModalResult<T>> results) {
  using detail::modes_number;
  os << "CableDyn modes: natural frequencies and mode shapes about the static equilibrium\n";
  os << "Lines " << results.size() << "\n";
  for (std::size_t l = 0; l < results.size(); ++l) {
    const ModalResult<T>& r = results[l];
    const Eigen::Index k = r.n_modes(), N = r.n_nodes();
    os << "Line " << l + 1 << " " << detail::modes_name(r.line) << " Nodes " << N << " Modes " << k << "\n";
    os << "Mode Frequency[Hz] Period[s] Omega2[rad^2/s^2]\n";
    for (Eigen::Index j = 0; j < k; ++j)
      os << j + 1 << " " << modes_number(r.frequency(j)) << " " << modes_number(r.period(j)) << " "
         << modes_number(r.omega2(j)) << "\n";
    for (Eigen::Index j = 0; j < k; ++j) {
      os << "Shape " << j + 1 << " Frequency[Hz] " << modes_number(r.frequency(j)) << " Period[s] "
         << modes_number(r.period(j)) << "\n";
      os << "Node s[m] x[m] y[m] z[m] dx dy dz\n";
      for (Eigen::Index i = 0; i < N; ++i) {
        os << i + 1 << " " << modes_number(r.arc_length(i));
        for (int c = 0; c < 3; ++c) os << " " << modes_number(r.positions(c, i));
        const Vec3<T> d = r.translation(j, i);
        for (int c = 0; c < 3; ++c) os << " " << modes_number(d(c));
        os << "\n";
      }
    }
  }
}

/// Writes `<root>.modes.out` (see the file comment for the format) and returns its path.
/// Throws InputError when the file cannot be written.
template <class T>
std::string write_modes_file(const std::string& root, std::span<const ModalResult<T>> results) {
  const std::string path = root + ".modes.out";
  std::ofstream f(path);
  if (!f) throw InputError("modes output", "file", path, "writable");
  write_modes<T>(f, results);
  f.close();
  if (!f) throw InputError("modes output", "file", path, "written completely");
  return path;
}

}  // namespace cabledyn
