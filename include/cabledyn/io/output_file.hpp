// cabledyn: the driver's output files. Each is written as the run goes (a row per output
// time, flushed at least once a second and when the run stops), and every write is checked:
// a full disk or a vanished folder is a named error, never a truncated file behind a
// "results written". Before a run the files of an earlier run under the same root are
// removed, so that none is mistaken for this run's.
#pragma once

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <string>
#include <vector>

#include "cabledyn/core/errors.hpp"

namespace cabledyn::io {

/// One output file, open for writing. Throws InputError(path, "output file", ...) when it
/// cannot be created or a write fails.
class OutputFile {
 public:
  explicit OutputFile(std::string path) : path_(std::move(path)) {
    f_.open(path_, std::ios::out | std::ios::trunc);
    if (!f_) fail("cannot be created");
    f_ << std::setprecision(10);
    last_flush_ = std::chrono::steady_clock::now();
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  const std::string& path() const { return path_; }
  std::ostream& stream() { return f_; }

  /// Checks the stream after a row; flushes when a second has passed since the last flush.
  void row_done() {
    if (!f_) fail("write failed");
    const auto now = std::chrono::steady_clock::now();
    if (now - last_flush_ > std::chrono::seconds(1)) flush();
  }
  /// Flushes and checks.
  void flush() {
    f_.flush();
    last_flush_ = std::chrono::steady_clock::now();
    if (!f_) fail("write failed");
  }
  /// Flushes, closes and checks.
  void close() {
    if (!f_.is_open()) return;
    f_.flush();
    const bool ok = static_cast<bool>(f_);
    f_.close();
    if (!ok || !f_) fail("write failed");
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    const int e = errno;
    throw InputError(path_, "output file", std::string(what) + (e ? std::string(": ") + std::strerror(e) : ""),
                     "a writable file (space on the disk, an existing folder)");
  }

  std::string path_;
  std::ofstream f_;
  std::chrono::steady_clock::time_point last_flush_;
};

/// Removes the files an earlier run wrote under `root` (root.out, root.nodes.out,
/// root.static.out, root.modes.out, root.summary.txt, the figures and root_Line<L>.out): only
/// regular files, and returns their paths. Throws InputError when one cannot be removed.
inline std::vector<std::string> remove_stale_outputs(const std::string& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> removed;
  const auto drop = [&](const fs::path& p) {
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(p, ec))) return;
    if (!fs::remove(p, ec) || ec)
      throw InputError(p.string(), "output file of an earlier run", ec ? ec.message() : "not removed",
                       "a file this run may replace");
    removed.push_back(p.string());
  };
  for (const char* s : {".out", ".nodes.out", ".static.out", ".modes.out", ".summary.txt", ".profile.svg",
                        ".tension.svg", ".curvature.svg"})
    drop(root + s);
  const fs::path r(root);
  const fs::path dir = r.has_parent_path() ? r.parent_path() : fs::path(".");
  const std::string stem = r.filename().string() + "_Line";
  std::error_code ec;
  std::vector<fs::path> lines;
  if (fs::is_directory(dir, ec))
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const std::string n = e.path().filename().string();
      if (n.size() > stem.size() + 4 && n.compare(0, stem.size(), stem) == 0 && n.compare(n.size() - 4, 4, ".out") == 0) {
        bool digits = true;
        for (std::size_t i = stem.size(); i + 4 < n.size(); ++i) digits = digits && n[i] >= '0' && n[i] <= '9';
        if (digits) lines.push_back(e.path());
      }
    }
  for (const auto& l : lines) drop(l);
  return removed;
}

}  // namespace cabledyn::io
