// cabledyn: compile-time advisories of a node graph and the sinks that receive them.
// An advisory is a warning, never a refusal (spec spring-damper-node.md, "The compile-time
// warning"): Graph::compile() hands each one to a WarningSink and also returns them all.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cabledyn {

/// One warning found by Graph::compile().
struct Advisory {
  /// Stable identifier of the check, e.g. "anchored-pair-growth" (spec MADD-ANO-098).
  std::string code;
  /// The names of the nodes involved, in graph order.
  std::vector<std::string> nodes;
  /// The coupling group concerned ("" when none).
  std::string group;
  /// Growth factor per step the check found: for an equal anchored pair the signed
  /// g = (m - c dt)/(m - k dt^2), otherwise the spectral radius.
  double growth_factor = 0;
  /// Spectral radius of the step the check judged.
  double spectral_radius = 0;
  /// The whole message a person reads.
  std::string message;
};

/// Receives each advisory as compile() finds it. An empty sink drops them (they are still
/// returned by compile() and kept in Graph::advisories()).
using WarningSink = std::function<void(const Advisory&)>;

/// Writes "cabledyn warning [<code>]: <message>" to stderr: the default sink, so that a
/// warning is seen even when the caller ignores compile()'s report (as Python's UserWarning).
inline void stderr_warning_sink(const Advisory& a) {
  std::fprintf(stderr, "cabledyn warning [%s]: %s\n", a.code.c_str(), a.message.c_str());
}

/// A sink that appends every advisory to `out` (which must outlive the sink).
inline WarningSink collect_into(std::vector<Advisory>& out) {
  return [&out](const Advisory& a) { out.push_back(a); };
}

}  // namespace cabledyn
