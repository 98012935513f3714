// Shared helpers of the io tests: the test decks of tests/io/decks, the reference decks of
// ../shared/decks (optional), text edits of a deck and the error-message checks.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cabledyn/io.hpp"

namespace deck_fixtures {

namespace fs = std::filesystem;

/// The test decks of this repository (always present).
inline std::vector<std::string> own_decks() {
  const fs::path dir = fs::path(CABLEDYN_SOURCE_DIR) / "tests" / "io" / "decks";
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".dat") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string own_deck(const char* name) {
  return (fs::path(CABLEDYN_SOURCE_DIR) / "tests" / "io" / "decks" / name).string();
}

/// The folder of the reference decks, or "" when ../shared/decks is absent.
inline std::string shared_decks_dir() {
  const fs::path dir = fs::path(CABLEDYN_SHARED_DIR) / "decks";
  std::error_code ec;
  return fs::is_directory(dir, ec) ? dir.string() : std::string();
}

/// The reference decks (empty when the folder is absent).
inline std::vector<std::string> shared_decks() {
  std::vector<std::string> out;
  const std::string dir = shared_decks_dir();
  if (dir.empty()) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".dat") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The records of a text (split on '\n').
inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text) {
    if (c == '\n') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

inline std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

/// `text` with every occurrence of `from` replaced by `to` (at least one must exist).
inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  std::size_t pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  while (pos != std::string::npos) {
    text.replace(pos, from.size(), to);
    pos = text.find(from, pos + to.size());
  }
  return text;
}

/// What a reader error must say: object "file:line", a quantity containing `quantity`, a
/// value containing `value` and a limit containing `limit` (empty: not checked).
struct Expected {
  int line;
  std::string quantity;
  std::string value;
  std::string limit;
};

/// Parses `text` as `file`, requires an InputError and checks its parts.
inline void require_error(const std::string& text, const std::string& file, const Expected& x) {
  try {
    (void)cabledyn::io::parse_deck(text, file);
    FAIL("no error; expected " << file << ":" << x.line << " " << x.quantity);
  } catch (const cabledyn::InputError& e) {
    INFO(e.what());
    CHECK(e.object() == file + ":" + std::to_string(x.line));
    CHECK(e.quantity().find(x.quantity) != std::string::npos);
    CHECK(e.value().find(x.value) != std::string::npos);
    CHECK(e.limit().find(x.limit) != std::string::npos);
    const std::string what = e.what();
    CHECK(what.find(file + ":" + std::to_string(x.line)) != std::string::npos);
    CHECK(what.find(x.quantity) != std::string::npos);
  }
}

}  // namespace deck_fixtures
