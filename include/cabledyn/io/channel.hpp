// cabledyn: output channels of a deck's OUTPUTS section (DECK_FORMAT.md "Outputs").
// Grammar (case-insensitive; <L> a line ID, <J> a node number 1..N+1 from End A, <P> a point
// ID, all positive integers):
//   FairTen<L>  AnchTen<L>  FairIncl<L>  AnchIncl<L>
//   Ten<L>N<J>  Curv<L>N<J>  BendMom<L>N<J>  L<L>N<J>p{x,y,z}
//   Point<P>p{x,y,z}  Point<P>F{x,y,z}
// FairTen/AnchTen are the line-end forces (the continuum end force, not the end element's
// tension); FairIncl/AnchIncl the end inclination below horizontal [deg]. The canonical
// spelling (`name()`) is the one above, e.g. "FairTen1", "L2N5pz", "Point3Fx".
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cabledyn/io/detail/deck_lexer.hpp"

namespace cabledyn::io {

/// Kinds of output channel.
enum class ChannelKind {
  FairTen,        ///< FairTen<L>: fairlead end force [N]
  AnchTen,        ///< AnchTen<L>: anchor end force [N]
  FairIncl,       ///< FairIncl<L>: fairlead inclination below horizontal [deg]
  AnchIncl,       ///< AnchIncl<L>: anchor inclination below horizontal [deg]
  Ten,            ///< Ten<L>N<J>: node tension [N]
  Curv,           ///< Curv<L>N<J>: node curvature [1/m]
  BendMom,        ///< BendMom<L>N<J>: node bend moment [N m]
  NodePosition,   ///< L<L>N<J>p{x,y,z}: node position [m]
  PointPosition,  ///< Point<P>p{x,y,z}: point position [m]
  PointForce,     ///< Point<P>F{x,y,z}: force on the point [N]
};

/// One output channel.
struct OutputChannel {
  ChannelKind kind = ChannelKind::FairTen;
  int line = 0;       ///< line ID (line channels)
  int node = 0;       ///< node number 1..N+1 from End A (node channels)
  int point = 0;      ///< point ID (point channels)
  int component = 0;  ///< 0, 1, 2 for x, y, z (position and force channels)

  /// True for the channels that name a line.
  bool on_line() const { return kind != ChannelKind::PointPosition && kind != ChannelKind::PointForce; }
  /// True for the channels that name a node of a line.
  bool on_node() const {
    return kind == ChannelKind::Ten || kind == ChannelKind::Curv || kind == ChannelKind::BendMom ||
           kind == ChannelKind::NodePosition;
  }

  /// The canonical spelling.
  std::string name() const {
    const char xyz[] = {'x', 'y', 'z'};
    const std::string L = std::to_string(line), J = std::to_string(node), P = std::to_string(point);
    const char c = xyz[component < 0 || component > 2 ? 0 : component];
    switch (kind) {
      case ChannelKind::FairTen: return "FairTen" + L;
      case ChannelKind::AnchTen: return "AnchTen" + L;
      case ChannelKind::FairIncl: return "FairIncl" + L;
      case ChannelKind::AnchIncl: return "AnchIncl" + L;
      case ChannelKind::Ten: return "Ten" + L + "N" + J;
      case ChannelKind::Curv: return "Curv" + L + "N" + J;
      case ChannelKind::BendMom: return "BendMom" + L + "N" + J;
      case ChannelKind::NodePosition: return "L" + L + "N" + J + "p" + c;
      case ChannelKind::PointPosition: return "Point" + P + "p" + c;
      case ChannelKind::PointForce: return "Point" + P + "F" + c;
    }
    return "";
  }

  friend bool operator==(const OutputChannel&, const OutputChannel&) = default;
};

namespace detail {

/// Reads a positive integer of at most 9 digits at s[pos], advancing pos; 0 when there is none.
inline int read_id(std::string_view s, std::size_t& pos) {
  int v = 0, n = 0;
  while (pos < s.size() && is_digit(s[pos])) {
    if (++n > 9) return 0;
    v = v * 10 + (s[pos] - '0');
    ++pos;
  }
  return v;
}

inline int read_component(std::string_view s, std::size_t pos) {
  if (pos + 1 != s.size()) return -1;
  const char c = upper_char(s[pos]);
  return c == 'X' ? 0 : c == 'Y' ? 1 : c == 'Z' ? 2 : -1;
}

}  // namespace detail

/// The channel `text` spells (case-insensitive), or none when it is not in the grammar.
inline std::optional<OutputChannel> parse_channel(std::string_view text) {
  using detail::istarts_with;
  using detail::read_id;
  OutputChannel c;
  std::size_t pos = 0;
  // Line-end channels: <word><L>.
  const struct {
    const char* word;
    ChannelKind kind;
  } ends[] = {{"FAIRTEN", ChannelKind::FairTen},
              {"ANCHTEN", ChannelKind::AnchTen},
              {"FAIRINCL", ChannelKind::FairIncl},
              {"ANCHINCL", ChannelKind::AnchIncl}};
  for (const auto& e : ends) {
    const std::string_view w = e.word;
    if (istarts_with(text, w)) {
      pos = w.size();
      c.kind = e.kind;
      c.line = read_id(text, pos);
      if (c.line <= 0 || pos != text.size()) return std::nullopt;
      return c;
    }
  }
  // Node channels: <word><L>N<J>.
  const struct {
    const char* word;
    ChannelKind kind;
  } nodes[] = {{"TEN", ChannelKind::Ten}, {"CURV", ChannelKind::Curv}, {"BENDMOM", ChannelKind::BendMom}};
  for (const auto& e : nodes) {
    const std::string_view w = e.word;
    if (istarts_with(text, w)) {
      pos = w.size();
      c.kind = e.kind;
      c.line = read_id(text, pos);
      if (c.line <= 0 || pos >= text.size() || detail::upper_char(text[pos]) != 'N') return std::nullopt;
      ++pos;
      c.node = read_id(text, pos);
      if (c.node <= 0 || pos != text.size()) return std::nullopt;
      return c;
    }
  }
  // Point channels: Point<P>p{x,y,z}, Point<P>F{x,y,z}.
  if (istarts_with(text, "POINT")) {
    pos = 5;
    c.point = read_id(text, pos);
    if (c.point <= 0 || pos >= text.size()) return std::nullopt;
    const char q = detail::upper_char(text[pos]);
    if (q != 'P' && q != 'F') return std::nullopt;
    c.kind = q == 'P' ? ChannelKind::PointPosition : ChannelKind::PointForce;
    c.component = detail::read_component(text, pos + 1);
    if (c.component < 0) return std::nullopt;
    return c;
  }
  // Node positions: L<L>N<J>p{x,y,z}.
  if (istarts_with(text, "L")) {
    pos = 1;
    c.kind = ChannelKind::NodePosition;
    c.line = read_id(text, pos);
    if (c.line <= 0 || pos >= text.size() || detail::upper_char(text[pos]) != 'N') return std::nullopt;
    ++pos;
    c.node = read_id(text, pos);
    if (c.node <= 0 || pos >= text.size() || detail::upper_char(text[pos]) != 'P') return std::nullopt;
    c.component = detail::read_component(text, pos + 1);
    if (c.component < 0) return std::nullopt;
    return c;
  }
  return std::nullopt;
}

}  // namespace cabledyn::io
