// Seeded random-mutation fuzzing of the whole driver (issue 28, docs/robustness.md): mutants
// of the test decks (deck_mutation.hpp, and numbers scaled by 0, -1 or up to 1e±6) that the
// reader accepts are run through SystemRunner (the driver's route since 2026-12-07),
// statics, modes and a march of at most 8 steps, with figures and every output file. Each
// must end in success or a cabledyn::Error (a named error), never another exception; a run
// that succeeds must have written finite numbers only. Mutants of more than 150 elements are
// skipped to keep the budget. The ASan/UBSan build of the suite runs this too. Fixed seed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cabledyn/io/system_runner.hpp"
#include "deck_fixtures.hpp"
#include "deck_mutation.hpp"

using namespace cabledyn;
using namespace cabledyn::io;
using namespace deck_fixtures;

namespace {

/// True when every number of a whitespace-separated output table (.out, .nodes.out) is
/// finite; header and units records (no leading number) are skipped.
bool df_table_finite(const fs::path& p, std::string& bad) {
  std::ifstream in(p);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ss(line);
    std::string tok;
    if (!(ss >> tok)) continue;
    char* end = nullptr;
    std::strtod(tok.c_str(), &end);
    if (end == tok.c_str() || *end) continue;  // a header or units record
    do {
      const double v = std::strtod(tok.c_str(), &end);
      // A word in a numeric record: a point's type in the system route's points block of
      // .static.out (nan and inf parse as numbers and fail below).
      if (end == tok.c_str() && std::isalpha(static_cast<unsigned char>(tok[0]))) continue;
      if (end == tok.c_str() || *end || !std::isfinite(v)) {
        bad = p.string() + ": " + tok;
        return false;
      }
    } while (ss >> tok);
  }
  return true;
}

/// A numeric token of one record scaled by a factor from 0 and -1 to 1e±6: values that parse
/// and reach the solvers, from plausible to wild.
std::string df_scale_number(const std::string& text, deck_mutation::Rng& rng) {
  auto lines = split_lines(text);
  static const double factors[] = {0, -1, 0.5, 2, 0.1, 10, 1e-3, 1e3, 1e-6, 1e6};
  if (lines.empty()) return text;
  for (int attempt = 0; attempt < 20; ++attempt) {
    const std::size_t i = deck_mutation::pick(rng, lines.size());
    auto t = deck_mutation::tokens_of(lines[i]);
    std::vector<std::size_t> numeric;
    for (std::size_t k = 0; k < t.size(); ++k) {
      char* end = nullptr;
      const double v = std::strtod(t[k].c_str(), &end);
      if (end != t[k].c_str() && !*end && std::isfinite(v)) numeric.push_back(k);
    }
    if (numeric.empty()) continue;
    const std::size_t k = numeric[deck_mutation::pick(rng, numeric.size())];
    std::ostringstream os;
    os.precision(17);
    os << std::strtod(t[k].c_str(), nullptr) * factors[deck_mutation::pick(rng, std::size(factors))];
    t[k] = os.str();
    lines[i] = deck_mutation::join_tokens(t);
    break;
  }
  return join_lines(lines);
}

}  // namespace

TEST_CASE("mutated decks run through the driver end in results or a named error", "[io][fuzz][robustness]") {
  std::vector<std::string> corpus;
  const fs::path io = fs::path(CABLEDYN_SOURCE_DIR) / "tests" / "io" / "decks";
  for (const char* name : {"three_line_chain.dat", "moordyn_stock.dat", "lazy_wave_cable.dat", "moordyn/v2_three_chains.dat",
                           "moordyn/v1_header_cable.dat", "campaign/coarse_cable_case_0006.dat",
                           "campaign/static_residual_case_0106.dat", "campaign/slack_chain_modes_700m.dat"})
    corpus.push_back(read_text((io / name).string()));
  const fs::path dir = fs::temp_directory_path() / "cabledyn_driver_fuzz";
  fs::remove_all(dir);
  fs::create_directories(dir);

  deck_mutation::Rng rng(0xd21'7e55'f022ULL);
  // CABLEDYN_FUZZ_MUTANTS runs a longer campaign (docs/robustness.md); CI runs 240.
  const char* env = std::getenv("CABLEDYN_FUZZ_MUTANTS");
  const int kMutants = env ? std::max(40, std::atoi(env)) : 240;
  int ran = 0, named = 0, refused = 0, skipped = 0, other = 0, nonfinite = 0;
  std::string first_failure;
  for (int n = 0; n < kMutants; ++n) {
    std::string text = corpus[deck_mutation::pick(rng, corpus.size())];
    for (std::size_t k = 0, m = 1 + deck_mutation::pick(rng, 3); k < m; ++k)
      text = deck_mutation::pick(rng, 10) < 7
                 ? df_scale_number(text, rng)
                 : deck_mutation::mutate(text, corpus[deck_mutation::pick(rng, corpus.size())], rng);
    {  // kept where a crash stops the test: <tmp>/cabledyn_driver_fuzz/last_mutant.dat
      std::ofstream keep(dir / "last_mutant.dat", std::ios::binary);
      keep << text;
    }
    Deck deck;
    try {
      deck = parse_deck(text, "fuzz.dat");
    } catch (const cabledyn::Error&) {
      ++refused;
      continue;
    }
    long long elements = 0;
    for (const auto& l : deck.lines) elements += deck.segments(l.id);
    if (elements > 150) {
      ++skipped;
      continue;
    }
    RunSettings s;
    s.root = (dir / ("m" + std::to_string(n))).string();
    s.log = nullptr;
    s.progress = false;
    s.keep_history = false;
    if (deck.options.dynamic()) s.tmax = std::min(*deck.options.TMax, 8 * *deck.options.dtM);
    try {
      SystemRunner run(std::move(deck), s);
      run.run();
      ++ran;
      std::string bad;
      for (const char* ext : {".out", ".nodes.out", ".static.out"})
        if (fs::exists(s.root + ext) && !df_table_finite(s.root + ext, bad)) {
          ++nonfinite;
          if (first_failure.empty()) first_failure = "non-finite output " + bad + "\n" + text;
        }
    } catch (const cabledyn::Error&) {
      ++named;
    } catch (const std::exception& e) {
      ++other;
      if (first_failure.empty()) first_failure = std::string("non-cabledyn exception: ") + e.what() + "\n" + text;
    } catch (...) {
      ++other;
      if (first_failure.empty()) first_failure = "unknown exception\n" + text;
    }
  }
  INFO(first_failure);
  INFO("ran " << ran << ", named errors " << named << ", refused by the reader " << refused << ", skipped " << skipped);
  CHECK(other == 0);
  CHECK(nonfinite == 0);
  // The mutations reach the solvers and both outcomes.
  CHECK(ran >= kMutants / 8);
  CHECK(named >= kMutants / 40);
  fs::remove_all(dir);
}
