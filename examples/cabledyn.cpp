// The cabledyn driver: runs a deck (MoorDyn v2 input format plus the CableDyn extensions,
// docs/deck-format.md) and writes its outputs and figures.
//
//   cabledyn [--static] [--tmax T] [--dtm DT] [--motion FILE] [--out ROOT] [--quiet]
//            [--restart-check T] [DECK.dat]
//
// Without a deck it runs the embedded default deck (examples/decks/default.dat: a three-line
// catenary chain mooring of a floating platform under a 5 m, 10 s surge) and writes
// cabledyn_results/default.*. With a deck the outputs go next to it (<deck without .dat>.*)
// unless --out gives a root: `--out dir/` (a trailing slash, or an existing folder) writes
// dir/<deck name>.*, `--out dir/name` writes dir/name.*; the folders are created. --static
// solves the statics (and modes) only; --tmax and --dtm set the run length and the time step
// over the deck's TMax and dtM (MoorDyn decks carry no TMax: MoorDyn leaves the run length
// to its host); --motion drives the coupled points by a motion table (docs/deck-format.md,
// "Prescribed motion"), over the deck's motionFile or fairleadMotion.
//
// The outputs are written as the run goes; on a failure or SIGINT they hold every step up to
// the last committed one and the summary says where and why the run stopped.
//
// Exit status: 0 done, 1 an error (bad input, a solver failure, an output that cannot be
// written), 2 a bad command line, 3 the deck asks for a feature that is not implemented (the
// message lists each such feature and the deck lines that ask for it), 130 interrupted.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include "cabledyn/io/system_runner.hpp"
#include "default_deck.hpp"

namespace {

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_sigint(int) { g_stop = 1; }

int usage_error(const std::string& what) {
  std::fprintf(stderr, "cabledyn: %s (see --help)\n", what.c_str());
  return 2;
}

/// The number a command-line value spells, or none.
std::optional<double> number(const char* s) {
  char* end = nullptr;
  const double v = std::strtod(s, &end);
  if (end == s || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cabledyn;
  namespace fs = std::filesystem;
  io::RunSettings set;
  std::string deck_path, root;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--static") {
      set.static_only = true;
    } else if (a == "--system") {
      // the only route (kept for the commands written when there were two)
    } else if (a == "--single-line") {
      return usage_error("--single-line: the single-line route was retired (every deck runs as one mooring system)");
    } else if (a == "--out" || a == "--tmax" || a == "--dtm" || a == "--motion" || a == "--restart-check") {
      if (i + 1 >= argc) return usage_error(a + " needs a value");
      const char* v = argv[++i];
      if (a == "--out") {
        root = v;
        if (root.empty()) return usage_error("--out needs a non-empty path");
      } else if (a == "--motion") {
        set.motion_file = v;
      } else {
        const auto x = number(v);
        if (!x) return usage_error(a + " " + v + ": not a number");
        (a == "--tmax" ? set.tmax : a == "--dtm" ? set.dtm : set.restart_check) = *x;
      }
    } else if (a == "--quiet") {
      set.progress = false;
      set.log = nullptr;
    } else if (a == "--help" || a == "-h") {
      std::printf(
          "usage: cabledyn [--static] [--tmax T] [--dtm DT] [--motion FILE] [--out ROOT] [--quiet]\n"
          "                [--restart-check T] [DECK.dat]\n"
          "  --static   statics (and modes) only\n"
          "  --tmax T   run length [s] over the deck's TMax (a multiple of dtM)\n"
          "  --dtm DT   time step [s] over the deck's dtM\n"
          "  --motion F motion table of the coupled points (t x y z per point, or t id x y z ...)\n"
          "  --out ROOT output root: ROOT.out, ROOT.summary.txt, ...; ROOT ending in / (or an existing\n"
          "             folder) writes ROOT/<deck name>.*; folders are created\n"
          "  --quiet    no messages on stderr\n"
          "  --restart-check T  copy the state at T, repeat the rest of the run from the copy at the\n"
          "             end, and require every output to repeat bit for bit\n"
          "  --system   accepted: every deck runs as one mooring system\n"
          "exit status: 0 done, 1 error, 2 bad command line, 3 feature not implemented, 130\n"
          "interrupted (SIGINT: the outputs hold every step up to the interruption)\n");
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("unknown option " + a);
    } else {
      if (!deck_path.empty()) return usage_error("two decks given: " + deck_path + " and " + a + " (one deck per run)");
      deck_path = a;
    }
  }
  try {
    io::Deck deck;
    std::string stem = "default";
    if (deck_path.empty()) {
      deck = io::parse_deck(kDefaultDeck, "default.dat (embedded)");
      if (root.empty()) root = "cabledyn_results/default";
    } else {
      try {
        deck = io::read_deck(deck_path);
      } catch (const NotImplementedError&) {
        // The reader lists free points, bodies, points on bodies and rods as requests of their
        // own (ReadOptions::accept_unsupported); the system runs them. Any other request is
        // refused by name.
        io::ReadOptions ro;
        ro.accept_unsupported = true;
        deck = io::read_deck(deck_path, ro);
        io::refuse_unmodelled(deck);  // names what the system does not model
      }
      stem = fs::path(deck_path).stem().string();
      if (root.empty()) root = (fs::path(deck_path).parent_path() / stem).string();
    }
    std::error_code ec;
    if (root.back() == '/' || fs::is_directory(root, ec)) root = (fs::path(root) / stem).string();
    const fs::path folder = fs::path(root).parent_path();
    if (!folder.empty()) {
      fs::create_directories(folder, ec);
      if (ec) throw InputError(folder.string(), "output folder", ec.message(), "a folder that can be created");
    }
    set.root = root;
    set.keep_history = false;  // the outputs stream to the files: memory does not grow with the run
    set.stop = &g_stop;
    std::signal(SIGINT, on_sigint);
    if (set.log) *set.log << "cabledyn " << kVersion << ": " << deck.file << ": " << deck.title << "\n";
    std::vector<std::string> files;
    // Every deck runs as one mooring system (io/system_runner.hpp).
    io::SystemRunner run(deck, set);
    run.run();
    files = run.files();
    std::printf("cabledyn: results written to");
    for (const auto& f : files) std::printf(" %s", f.c_str());
    std::printf("\n");
  } catch (const NotImplementedError& e) {
    std::fprintf(stderr, "cabledyn: not implemented: %s\n", e.what());
    return 3;
  } catch (const InterruptedError& e) {
    std::fprintf(stderr, "\ncabledyn: interrupted: %s\n", e.what());
    return 130;
  } catch (const Error& e) {
    std::fprintf(stderr, "cabledyn: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cabledyn: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
