// Seeded random mutations of deck text, shared by the reader's and the driver's fuzz tests:
// records and tokens deleted, duplicated and swapped, tokens replaced by hostile values,
// random bytes inserted or overwritten, truncation, records spliced from another deck.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "deck_fixtures.hpp"

namespace deck_mutation {

using deck_fixtures::join_lines;
using deck_fixtures::split_lines;

using Rng = std::mt19937_64;

inline std::size_t pick(Rng& rng, std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); }

/// Hostile replacements for a token.
inline const std::vector<std::string>& hostile() {
  static const std::vector<std::string> v = {
      "0", "-1", "-0", "1e308", "1e-320", "1e999", "nan", "inf", "-inf", "99999999999999999999", "2147483647",
      "-2147483648", "1000001", "0.5", "\"", "\"\"", "---", "--", "-", "#", "!", "END", "none", "None", "True",
      "False", "R1A", "Body1", "Free", "Rigid", "Pinned", "1|2", "SYROPE:x", "FairTen999", "L1N0px", "Point0Fx",
      "Curv1N99999", "airy", "jonswap", "uniform", "profile", "waves", "current", "TMax", "dtM", "tensile_safety",
      "A", "B", "\t", "\xff\xfe", std::string(1, '\0'), std::string(300, '9'), "1e-5--", "+-1", ".", "e5",
      "Con4px", "P1", "C2", "Rod1B", "Cd_n", "Can", "CdAx", "Fairlead", "Turbine1", "12,5", "L1NBfz", "P2T", "moordyn",
      "dialect", "WaveStretching", "fileIC", "0 WtrDpth", "ea.dat", "Body1RX"};
  return v;
}

inline std::vector<std::string> tokens_of(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == ' ' || c == '\t') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

inline std::string join_tokens(const std::vector<std::string>& t) {
  std::string out;
  for (std::size_t i = 0; i < t.size(); ++i) out += (i ? " " : "") + t[i];
  return out;
}

/// One random mutation of `text` (`other` supplies records to splice in).
inline std::string mutate(std::string text, const std::string& other, Rng& rng) {
  auto lines = split_lines(text);
  if (lines.empty()) lines.push_back("");
  const std::size_t i = pick(rng, lines.size()), j = pick(rng, lines.size());
  switch (pick(rng, 12)) {
    case 0: lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i)); break;
    case 1: lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), lines[j]); break;
    case 2: std::swap(lines[i], lines[j]); break;
    case 3:
    case 4:
    case 5:
    case 6: {  // token edits inside one record
      auto t = tokens_of(lines[i]);
      if (t.empty()) break;
      const std::size_t a = pick(rng, t.size()), b = pick(rng, t.size());
      switch (pick(rng, 4)) {
        case 0: t.erase(t.begin() + static_cast<std::ptrdiff_t>(a)); break;
        case 1: t.insert(t.begin() + static_cast<std::ptrdiff_t>(a), t[b]); break;
        case 2: std::swap(t[a], t[b]); break;
        default: t[a] = hostile()[pick(rng, hostile().size())]; break;
      }
      lines[i] = join_tokens(t);
      break;
    }
    case 7: {  // a record spliced from another deck
      const auto o = split_lines(other);
      if (!o.empty()) lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), o[pick(rng, o.size())]);
      break;
    }
    case 8: {  // random bytes inserted
      std::string joined = join_lines(lines);
      const std::size_t at = pick(rng, joined.size() + 1);
      std::string bytes;
      for (std::size_t k = 0, n = 1 + pick(rng, 8); k < n; ++k) bytes += static_cast<char>(pick(rng, 256));
      joined.insert(at, bytes);
      return joined;
    }
    case 9: {  // random bytes overwritten
      std::string joined = join_lines(lines);
      for (std::size_t k = 0, n = 1 + pick(rng, 4); k < n && !joined.empty(); ++k)
        joined[pick(rng, joined.size())] = static_cast<char>(pick(rng, 256));
      return joined;
    }
    case 10: {  // truncation
      std::string joined = join_lines(lines);
      return joined.substr(0, pick(rng, joined.size() + 1));
    }
    default: {  // a hostile token appended to a record
      lines[i] += " " + hostile()[pick(rng, hostile().size())];
      break;
    }
  }
  return join_lines(lines);
}


}  // namespace deck_mutation
