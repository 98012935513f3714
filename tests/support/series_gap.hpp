// Test support: how far a series of values lies from a reference series (the largest and the
// rms difference) and the reference's scale (its largest magnitude, its range).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace cabledyn::test_support {

struct SeriesGap {
  double worst = 0;  ///< largest |other - ref|
  double rms = 0;    ///< rms of other - ref
  double peak = 0;   ///< largest |ref|
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();  ///< ref's range
};

/// The gap of other(i) from ref(i), i = 0 .. n - 1 (n > 0).
template <class Ref, class Other>
SeriesGap series_gap(std::size_t n, Ref&& ref, Other&& other) {
  SeriesGap g;
  double sq = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = ref(i), d = other(i) - r;
    g.peak = std::max(g.peak, std::fabs(r));
    g.lo = std::min(g.lo, r);
    g.hi = std::max(g.hi, r);
    g.worst = std::max(g.worst, std::fabs(d));
    sq += d * d;
  }
  g.rms = std::sqrt(sq / static_cast<double>(n));
  return g;
}

/// The gap of series b from series a (of the same length).
template <class V>
SeriesGap series_gap(const V& ref, const V& other) {
  return series_gap(ref.size(), [&](std::size_t i) { return ref[i]; }, [&](std::size_t i) { return other[i]; });
}

}  // namespace cabledyn::test_support
