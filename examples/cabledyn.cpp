// The cabledyn driver: runs a deck (MoorDyn v2 input format plus the CableDyn extensions,
// docs/deck-format.md) and writes its outputs and figures.
//
//   cabledyn [--static] [--out ROOT] [--quiet] [DECK.dat]
//
// Without a deck it runs the embedded default deck (examples/decks/default.dat: a three-line
// catenary chain mooring of a floating platform under a 5 m, 10 s surge) and writes
// cabledyn_results/default.*. With a deck the outputs go next to it (<deck without .dat>.*)
// unless --out gives a root. --static solves the statics (and modes) only.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

#include "cabledyn/io/driver.hpp"
#include "default_deck.hpp"

int main(int argc, char** argv) {
  using namespace cabledyn;
  io::RunSettings set;
  std::string deck_path, root;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--static") {
      set.static_only = true;
    } else if (a == "--out" && i + 1 < argc) {
      root = argv[++i];
    } else if (a == "--quiet") {
      set.progress = false;
      set.log = nullptr;
    } else if (a == "--help" || a == "-h") {
      std::printf("usage: cabledyn [--static] [--out ROOT] [--quiet] [DECK.dat]\n");
      return 0;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "cabledyn: unknown option %s (see --help)\n", a.c_str());
      return 2;
    } else {
      deck_path = a;
    }
  }
  try {
    io::Deck deck;
    if (deck_path.empty()) {
      deck = io::parse_deck(kDefaultDeck, "default.dat (embedded)");
      if (root.empty()) {
        std::filesystem::create_directories("cabledyn_results");
        root = "cabledyn_results/default";
      }
    } else {
      deck = io::read_deck(deck_path);
      if (root.empty()) {
        std::filesystem::path p(deck_path);
        root = (p.parent_path() / p.stem()).string();
      }
    }
    set.root = root;
    if (set.log) *set.log << "cabledyn " << kVersion << ": " << deck.file << ": " << deck.title << "\n";
    io::DeckRunner run(deck, set);
    run.run();
    std::printf("cabledyn: results written to");
    for (const auto& f : run.files()) std::printf(" %s", f.c_str());
    std::printf("\n");
  } catch (const Error& e) {
    std::fprintf(stderr, "cabledyn: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cabledyn: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
