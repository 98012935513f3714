// Seeded random-mutation fuzzing of the deck reader (the suite's stand-in for libFuzzer):
// thousands of mutants of the test decks and of the reference decks (records and tokens
// deleted, duplicated and swapped, tokens replaced by hostile values, random bytes inserted
// or overwritten, truncation, records spliced from another deck). The reader must return a
// Deck or throw cabledyn::Error, never anything else (the ASan/UBSan build of the suite runs
// this too); a mutant it accepts must survive the round trip through to_text. The motionFile
// reader and the channel grammar get the same treatment. The corpus holds the MoorDyn-style
// decks of tests/io/decks/moordyn too. Fixed seeds.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "deck_fixtures.hpp"
#include "deck_mutation.hpp"

using namespace cabledyn;
using namespace cabledyn::io;
using namespace deck_fixtures;

using namespace deck_mutation;

TEST_CASE("mutated decks give a Deck or a cabledyn::Error, and accepted ones round-trip", "[deck][fuzz]") {
  std::vector<std::string> corpus;
  for (const auto& p : own_decks()) corpus.push_back(read_text(p));
  for (const char* m : {"v2_three_chains.dat", "v1_header_cable.dat", "viv_columns_deepest_seabed.dat", "objects_and_friction.dat"})
    corpus.push_back(read_text((fs::path(CABLEDYN_SOURCE_DIR) / "tests" / "io" / "decks" / "moordyn" / m).string()));
  const auto shared = shared_decks();
  if (shared.empty()) WARN("../shared/decks is absent: the fuzz corpus is the test decks only");
  for (const auto& p : shared) {
    // The reference decks as read, and with their refused requests changed to what the
    // library implements, so that the mutants start from decks that parse.
    std::string t = read_text(p);
    corpus.push_back(t);
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"True      tensile_safety", "False     tensile_safety"},
                                   {"1.424e8|2.50e8", "1.424e8"},
                                   {"4.0e9|1.1e7", "4.0e9"}})
      for (auto at = t.find(from); at != std::string::npos; at = t.find(from)) t.replace(at, from.size(), to);
    if (t != corpus.back()) corpus.push_back(t);
  }
  REQUIRE(corpus.size() >= 3);

  Rng rng(0x5eed'dec'c0ffeeULL);
  constexpr int kMutants = 6000;
  int accepted = 0, rejected = 0, other_exception = 0, round_trip_failures = 0;
  std::string first_failure;
  for (int n = 0; n < kMutants; ++n) {
    const std::size_t c = pick(rng, corpus.size());
    std::string text = corpus[c];
    for (std::size_t k = 0, m = 1 + pick(rng, 4); k < m; ++k) text = mutate(text, corpus[pick(rng, corpus.size())], rng);
    try {
      const Deck d = parse_deck(text, "fuzz.dat");
      ++accepted;
      try {
        const Deck back = parse_deck(to_text(d), "fuzz written");
        if (!(back == d)) {
          ++round_trip_failures;
          if (first_failure.empty()) first_failure = "round trip: " + first_difference(d, back) + "\n" + text;
        }
      } catch (const std::exception& e) {
        ++round_trip_failures;
        if (first_failure.empty()) first_failure = std::string("written deck refused: ") + e.what() + "\n" + text;
      }
    } catch (const cabledyn::Error&) {
      ++rejected;
      // Read whole, the requests for missing features listed instead of refused: a Deck or an
      // Error too.
      try {
        ReadOptions ro;
        ro.accept_unsupported = true;
        (void)parse_deck(text, "fuzz.dat", ro);
      } catch (const cabledyn::Error&) {
      }
    } catch (const std::exception& e) {
      ++other_exception;
      if (first_failure.empty()) first_failure = std::string("non-cabledyn exception: ") + e.what() + "\n" + text;
    } catch (...) {
      ++other_exception;
      if (first_failure.empty()) first_failure = "unknown exception\n" + text;
    }
  }
  INFO(first_failure);
  CHECK(other_exception == 0);
  CHECK(round_trip_failures == 0);
  CHECK(accepted + rejected == kMutants);
  // The mutations explore both outcomes.
  CHECK(accepted > kMutants / 20);
  CHECK(rejected > kMutants / 4);
}

TEST_CASE("mutated motion files and channel names", "[motion][channel][fuzz]") {
  const std::string motion =
      "# t id x y z vx vy vz ax ay az\n0 2 5.2 0 -70 0 0 0 0 0 0\n0.5 2 5.3 0 -70 0.2 0 0 0 0 0\n"
      "1.0 2 5.4 0 -70 0.2 0 0 0 0 0\n0 3 0 10 0 0 0 0 0 0 0\n0.5 3 0 10 0 0 0 0 0 0 0\n1.0 3 0 10 0 0 0 0 0 0 0\n";
  const Deck deck = parse_deck(
      "---- LINE TYPES ----\nchain 0.09 77.7 3.8e8 -0.8 0 1.6 0.1 1.0 0.0\n"
      "---- POINTS ----\n1 Fixed 400 0 -50\n2 Coupled 0 0 0\n3 Vessel 0 10 0\n"
      "---- LINES ----\n1 2 1\n2 3 1\n---- SECTIONS ----\n1 chain 410 41\n2 chain 410 41\n"
      "---- OPTIONS ----\n0.5 dtM\n1 TMax\n",
      "m.dat");
  REQUIRE(motion_tracks(parse_motion(motion, "m.dat"), deck, 1.0).tracks.size() == 2);
  Rng rng(20240607);
  int other = 0, ok = 0;
  for (int n = 0; n < 1500; ++n) {
    std::string text = motion;
    for (std::size_t k = 0, m = 1 + pick(rng, 3); k < m; ++k) text = mutate(text, motion, rng);
    try {
      (void)motion_tracks(parse_motion(text, "m.dat"), deck, 1.0);
      ++ok;
    } catch (const cabledyn::Error&) {
    } catch (...) {
      ++other;
    }
  }
  CHECK(other == 0);
  CHECK(ok > 0);
  // Channel names: random strings over the grammar's alphabet parse or are refused, and a
  // parsed name reads back from its canonical spelling.
  const std::string alphabet = "FairTenAchIlNCuvBdMoLPpFxyzXYZ0123456789 -+.";
  int parsed = 0, mismatched = 0;
  const std::vector<std::string> seeds = {"FairTen1", "Ten12N40", "L3N2pz", "Point7Fy", "BendMom1N5", "AnchIncl4"};
  for (int n = 0; n < 3000; ++n) {
    std::string s = seeds[pick(rng, seeds.size())];
    for (std::size_t k = 0, m = pick(rng, 3); k < m; ++k) {
      const std::size_t at = pick(rng, s.size() + 1);
      switch (pick(rng, 3)) {
        case 0: s.insert(at, 1, alphabet[pick(rng, alphabet.size())]); break;
        case 1: if (at < s.size()) s.erase(at, 1); break;
        default: if (at < s.size()) s[at] = static_cast<char>(pick(rng, 256)); break;
      }
    }
    const auto c = parse_channel(s);
    if (c) {
      ++parsed;
      if (parse_channel(c->name()) != c) ++mismatched;
    }
  }
  CHECK(parsed > 300);
  CHECK(mismatched == 0);
}
