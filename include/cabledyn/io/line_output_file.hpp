// cabledyn: MoorDyn's per-line output files, <root>_Line<L>.out (a LINES row's flags): their
// column names. Spec "Outputs"; MoorDyn's
// flags p (node positions), K (curvature), v (velocities), U (fluid velocity), V (VIV lift),
// t (segment tension), s (strain), d (strain rate), b (seabed force); D (hydrodynamic force)
// and c (damping force) are not written (noted).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cabledyn::io {

/// Whether a LINES row's output flags ask for a line file ("-" or empty: none).
inline bool line_file_wanted(const std::string& flags) { return !(flags == "-" || flags.empty()); }

/// The flags of `flags` that are not written (D, c), in that order; empty when none.
inline std::string line_file_missing_flags(const std::string& flags) {
  std::string missing;
  for (char c : std::string("Dc"))
    if (flags.find(c) != std::string::npos) missing += c;
  return missing;
}

/// The note for a line whose flags ask for columns that are not written (empty when none).
inline std::string line_file_note(int id, const std::string& flags) {
  const std::string missing = line_file_missing_flags(flags);
  if (missing.empty()) return {};
  return "line " + std::to_string(id) + " output flags " + missing +
         " (per-node hydrodynamic force, per-segment damping force) are not written: not implemented";
}

/// The column names of a line file (MoorDyn's: Node<j>px ..., Seg<e>Te ...) for `nn` nodes
/// and `ne` segments, nodes numbered from `first` (the deck's first node number), in the
/// order the row writes them: p K v U V t s d b.
inline std::vector<std::string> line_file_header(const std::string& flags, std::size_t nn, std::size_t ne, int first) {
  const auto has = [&](char f) { return flags.find(f) != std::string::npos; };
  std::vector<std::string> h;
  const auto nodes3 = [&](const char* a, const char* b, const char* c) {
    for (std::size_t j = 0; j < nn; ++j)
      for (const char* s : {a, b, c}) h.push_back("Node" + std::to_string(j + static_cast<std::size_t>(first)) + s);
  };
  if (has('p')) nodes3("px", "py", "pz");
  if (has('K'))
    for (std::size_t j = 0; j < nn; ++j) h.push_back("Node" + std::to_string(j + static_cast<std::size_t>(first)) + "Ku");
  if (has('v')) nodes3("vx", "vy", "vz");
  if (has('U')) nodes3("Ux", "Uy", "Uz");
  if (has('V')) nodes3("Vx", "Vy", "Vz");
  for (const auto& [f, s] : {std::pair<char, const char*>{'t', "Te"}, {'s', "St"}, {'d', "dSt"}})
    if (has(f))
      for (std::size_t e = 1; e <= ne; ++e) h.push_back("Seg" + std::to_string(e) + s);
  if (has('b')) nodes3("bx", "by", "bz");
  return h;
}

}  // namespace cabledyn::io
