// Upward level crossings of a sampled signal and the mean period between them: the period
// measurements of the march tests.
#pragma once

#include <cstddef>
#include <vector>

namespace cabledyn::test_support {

/// The times at which y crosses `level` upwards, linearly interpolated between the samples
/// (y[i] at t[i]).
inline std::vector<double> upcrossings(const std::vector<double>& t, const std::vector<double>& y, double level = 0) {
  std::vector<double> c;
  for (std::size_t i = 1; i < y.size(); ++i)
    if (y[i - 1] < level && y[i] >= level)
      c.push_back(t[i - 1] + (t[i] - t[i - 1]) * (level - y[i - 1]) / (y[i] - y[i - 1]));
  return c;
}

/// The same for samples dt apart (y[i] at i dt).
inline std::vector<double> upcrossings(const std::vector<double>& y, double dt, double level = 0) {
  std::vector<double> t(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) t[i] = static_cast<double>(i) * dt;
  return upcrossings(t, y, level);
}

/// The mean period between the first and the last of the crossings c (at least two).
inline double mean_period(const std::vector<double>& c) {
  return (c.back() - c.front()) / static_cast<double>(c.size() - 1);
}

}  // namespace cabledyn::test_support
