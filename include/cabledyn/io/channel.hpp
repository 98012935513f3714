// cabledyn: output channels of a deck's OUTPUTS section (DECK_FORMAT.md "Outputs", and the
// MoorDyn v2 channel grammar). Case-insensitive; <L> a line ID, <P> a point ID (positive
// integers of at most 9 digits), <J> a node number (0 allowed: what it counts from is the
// deck's dialect, see io/deck.hpp Deck::node_index).
//
// CableDyn words:
//   FairTen<L>  AnchTen<L>  FairIncl<L>  AnchIncl<L>  Ten<L>N<J>  Curv<L>N<J>  BendMom<L>N<J>
// MoorDyn's grammar, <object><ID>[<node>]<quantity>:
//   lines   L<L> or Line<L>, then N<J>, NA (End A) or NB (End B), or no node (End A), then
//           px py pz (position), vx vy vz (velocity), ax ay az (acceleration), fx fy fz (the
//           net force on the node: at a line end the force the line exerts on its point), T or
//           Ten (node tension), TA / TenA and TB / TenB (the End A / End B force magnitude);
//   points  P<P> or Point<P>, then px .. pz, vx .. vz, ax .. az, fx .. fz (the net force the
//           attached lines exert), T or Ten (its magnitude);
//   rods    R<R> or Rod<R> ..., bodies B<B> or Body<B> ...: parsed so that a deck can name
//           them; the objects are not implemented, so the reader refuses them by feature.
// The canonical spelling (`name()`): FairTen1, Ten1N5, Curv1N5, BendMom1N5, L1N5px, L1NAvx,
// L1NBfz, L1NAT (TenA), Point3px, Point3vx, Point3ax, Point3Fx, Point3T, Rod1<rest>,
// Body1<rest>. parse_channel(c.name()) == c.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cabledyn/io/detail/deck_lexer.hpp"

namespace cabledyn::io {

/// Kinds of output channel.
enum class ChannelKind {
  FairTen,           ///< FairTen<L>: fairlead end force [N]
  AnchTen,           ///< AnchTen<L>: anchor end force [N]
  FairIncl,          ///< FairIncl<L>: fairlead inclination below horizontal [deg]
  AnchIncl,          ///< AnchIncl<L>: anchor inclination below horizontal [deg]
  Ten,               ///< Ten<L>N<J>, L<L>N<J>T: node tension [N]
  Curv,              ///< Curv<L>N<J>: node curvature [1/m]
  BendMom,           ///< BendMom<L>N<J>: node bend moment [N m]
  NodePosition,      ///< L<L>N<J>p{x,y,z}: node position [m]
  NodeVelocity,      ///< L<L>N<J>v{x,y,z}: node velocity [m/s]
  NodeAcceleration,  ///< L<L>N<J>a{x,y,z}: node acceleration [m/s^2]
  NodeForce,         ///< L<L>N<J>f{x,y,z}: net force on the node [N]
  PointPosition,     ///< Point<P>p{x,y,z}: point position [m]
  PointVelocity,     ///< Point<P>v{x,y,z}: point velocity [m/s]
  PointAcceleration, ///< Point<P>a{x,y,z}: point acceleration [m/s^2]
  PointForce,        ///< Point<P>F{x,y,z}: force of the attached lines on the point [N]
  PointTension,      ///< Point<P>T: magnitude of that force [N]
  Rod,               ///< R<R>...: a rod channel (rods are not implemented)
  Body,              ///< B<B>...: a body channel (bodies are not implemented)
};

/// How a node channel names its node.
enum class NodeRef {
  number,  ///< N<J>: node J, counted as the deck's dialect counts (Deck::node_index)
  end_a,   ///< NA, no node, TA/TenA: the End A node (as written)
  end_b,   ///< NB, TB/TenB: the End B node (as written)
};

/// One output channel.
struct OutputChannel {
  ChannelKind kind = ChannelKind::FairTen;
  int line = 0;       ///< line ID (line channels)
  int node = 0;       ///< node number J as written (node channels with NodeRef::number)
  int point = 0;      ///< point ID (point channels)
  int component = 0;  ///< 0, 1, 2 for x, y, z (vector channels)
  NodeRef node_ref = NodeRef::number;
  int object = 0;         ///< rod or body ID (Rod, Body)
  std::string quantity;   ///< rod and body channels: the rest of the name, upper case

  /// True for the channels that name a line.
  bool on_line() const {
    switch (kind) {
      case ChannelKind::FairTen:
      case ChannelKind::AnchTen:
      case ChannelKind::FairIncl:
      case ChannelKind::AnchIncl:
        return true;
      default:
        return on_node();
    }
  }
  /// True for the channels that name a node of a line.
  bool on_node() const {
    switch (kind) {
      case ChannelKind::Ten:
      case ChannelKind::Curv:
      case ChannelKind::BendMom:
      case ChannelKind::NodePosition:
      case ChannelKind::NodeVelocity:
      case ChannelKind::NodeAcceleration:
      case ChannelKind::NodeForce:
        return true;
      default:
        return false;
    }
  }
  /// True for the channels that name a point.
  bool on_point() const {
    switch (kind) {
      case ChannelKind::PointPosition:
      case ChannelKind::PointVelocity:
      case ChannelKind::PointAcceleration:
      case ChannelKind::PointForce:
      case ChannelKind::PointTension:
        return true;
      default:
        return false;
    }
  }
  /// True for the vector channels (a component x, y or z).
  bool vector() const {
    switch (kind) {
      case ChannelKind::NodePosition:
      case ChannelKind::NodeVelocity:
      case ChannelKind::NodeAcceleration:
      case ChannelKind::NodeForce:
      case ChannelKind::PointPosition:
      case ChannelKind::PointVelocity:
      case ChannelKind::PointAcceleration:
      case ChannelKind::PointForce:
        return true;
      default:
        return false;
    }
  }

  /// The canonical spelling.
  std::string name() const {
    const char xyz[] = {'x', 'y', 'z'};
    const std::string L = std::to_string(line), J = std::to_string(node), P = std::to_string(point);
    const std::string c(1, xyz[component < 0 || component > 2 ? 0 : component]);
    const std::string N = node_ref == NodeRef::end_a ? "NA" : node_ref == NodeRef::end_b ? "NB" : "N" + J;
    switch (kind) {
      case ChannelKind::FairTen: return "FairTen" + L;
      case ChannelKind::AnchTen: return "AnchTen" + L;
      case ChannelKind::FairIncl: return "FairIncl" + L;
      case ChannelKind::AnchIncl: return "AnchIncl" + L;
      case ChannelKind::Ten: return node_ref == NodeRef::number ? "Ten" + L + "N" + J : "L" + L + N + "T";
      case ChannelKind::Curv: return "Curv" + L + "N" + J;
      case ChannelKind::BendMom: return "BendMom" + L + "N" + J;
      case ChannelKind::NodePosition: return "L" + L + N + "p" + c;
      case ChannelKind::NodeVelocity: return "L" + L + N + "v" + c;
      case ChannelKind::NodeAcceleration: return "L" + L + N + "a" + c;
      case ChannelKind::NodeForce: return "L" + L + N + "f" + c;
      case ChannelKind::PointPosition: return "Point" + P + "p" + c;
      case ChannelKind::PointVelocity: return "Point" + P + "v" + c;
      case ChannelKind::PointAcceleration: return "Point" + P + "a" + c;
      case ChannelKind::PointForce: return "Point" + P + "F" + c;
      case ChannelKind::PointTension: return "Point" + P + "T";
      case ChannelKind::Rod: return "Rod" + std::to_string(object) + quantity;
      case ChannelKind::Body: return "Body" + std::to_string(object) + quantity;
    }
    return "";
  }

  friend bool operator==(const OutputChannel&, const OutputChannel&) = default;
};

namespace detail {

/// Reads a non-negative integer of 1 to 9 digits at s[pos], advancing pos; -1 when there is
/// none or it is longer.
inline int read_number(std::string_view s, std::size_t& pos) {
  int v = 0, n = 0;
  while (pos < s.size() && is_digit(s[pos])) {
    if (++n > 9) return -1;
    v = v * 10 + (s[pos] - '0');
    ++pos;
  }
  return n == 0 ? -1 : v;
}

/// Reads a positive integer ID (1 to 9 digits) at s[pos]; 0 when there is none.
inline int read_id(std::string_view s, std::size_t& pos) {
  const int v = read_number(s, pos);
  return v > 0 ? v : 0;
}

/// The letters of s from pos on (upper case) when the rest of s is letters only, else "".
inline std::string letters_to_end(std::string_view s, std::size_t pos) {
  std::string out;
  for (; pos < s.size(); ++pos) {
    const char c = upper_char(s[pos]);
    if (c < 'A' || c > 'Z') return "";
    out += c;
  }
  return out;
}

/// A MoorDyn vector quantity ("PX", "VY", "AZ", "FX"): the kind offset (0 p, 1 v, 2 a, 3 f)
/// and the component, or false.
inline bool vector_quantity(const std::string& q, int& family, int& component) {
  if (q.size() != 2) return false;
  const char f = q[0], c = q[1];
  family = f == 'P' ? 0 : f == 'V' ? 1 : f == 'A' ? 2 : f == 'F' ? 3 : -1;
  component = c == 'X' ? 0 : c == 'Y' ? 1 : c == 'Z' ? 2 : -1;
  return family >= 0 && component >= 0;
}

}  // namespace detail

/// The channel `text` spells (case-insensitive), or none when it is outside the grammar.
inline std::optional<OutputChannel> parse_channel(std::string_view text) {
  using detail::istarts_with;
  using detail::read_id;
  using detail::read_number;
  OutputChannel c;
  std::size_t pos = 0;
  // CableDyn line-end channels: <word><L>.
  const struct {
    const char* word;
    ChannelKind kind;
  } ends[] = {{"FAIRTEN", ChannelKind::FairTen},
              {"ANCHTEN", ChannelKind::AnchTen},
              {"FAIRINCL", ChannelKind::FairIncl},
              {"ANCHINCL", ChannelKind::AnchIncl}};
  for (const auto& e : ends) {
    const std::string_view w = e.word;
    if (istarts_with(text, w) && text.size() > w.size() && detail::is_digit(text[w.size()])) {
      pos = w.size();
      c.kind = e.kind;
      c.line = read_id(text, pos);
      if (c.line <= 0 || pos != text.size()) return std::nullopt;
      return c;
    }
  }
  // CableDyn node channels: <word><L>N<J>.
  const struct {
    const char* word;
    ChannelKind kind;
  } nodes[] = {{"BENDMOM", ChannelKind::BendMom}, {"CURV", ChannelKind::Curv}, {"TEN", ChannelKind::Ten}};
  for (const auto& e : nodes) {
    const std::string_view w = e.word;
    if (istarts_with(text, w) && text.size() > w.size() && detail::is_digit(text[w.size()])) {
      pos = w.size();
      c.kind = e.kind;
      c.line = read_id(text, pos);
      if (c.line <= 0 || pos >= text.size() || detail::upper_char(text[pos]) != 'N') return std::nullopt;
      ++pos;
      c.node = read_number(text, pos);
      if (c.node < 0 || pos != text.size()) return std::nullopt;
      return c;
    }
  }
  // MoorDyn's grammar: <object letters><ID><rest>.
  std::size_t k = 0;
  while (k < text.size() && !detail::is_digit(text[k])) ++k;
  const std::string object = detail::upper(text.substr(0, k));
  pos = k;
  const int id = read_id(text, pos);
  if (id <= 0) return std::nullopt;
  const std::string_view rest = text.substr(pos);
  if (object == "L" || object == "LINE") {
    c.line = id;
    std::size_t p = 0;
    std::string q;
    if (!rest.empty() && detail::upper_char(rest[0]) == 'N' && rest.size() > 1 && detail::is_digit(rest[1])) {
      p = 1;
      c.node = read_number(rest, p);
      if (c.node < 0) return std::nullopt;
      q = detail::letters_to_end(rest, p);
    } else if (istarts_with(rest, "NA") || istarts_with(rest, "NB")) {
      c.node_ref = detail::upper_char(rest[1]) == 'A' ? NodeRef::end_a : NodeRef::end_b;
      q = detail::letters_to_end(rest, 2);
    } else {
      c.node_ref = NodeRef::end_a;  // no node: MoorDyn's node 0, End A
      q = detail::letters_to_end(rest, 0);
    }
    int family = 0;
    if (q == "T" || q == "TEN") {
      c.kind = ChannelKind::Ten;
    } else if (q == "TA" || q == "TENA" || q == "TB" || q == "TENB") {
      c.kind = ChannelKind::Ten;
      c.node_ref = q.back() == 'A' ? NodeRef::end_a : NodeRef::end_b;
      c.node = 0;
    } else if (detail::vector_quantity(q, family, c.component)) {
      constexpr ChannelKind kinds[] = {ChannelKind::NodePosition, ChannelKind::NodeVelocity,
                                       ChannelKind::NodeAcceleration, ChannelKind::NodeForce};
      c.kind = kinds[family];
    } else {
      return std::nullopt;
    }
    return c;
  }
  if (object == "P" || object == "POINT") {
    c.point = id;
    const std::string q = detail::letters_to_end(rest, 0);
    int family = 0;
    if (q == "T" || q == "TEN") {
      c.kind = ChannelKind::PointTension;
    } else if (detail::vector_quantity(q, family, c.component)) {
      constexpr ChannelKind kinds[] = {ChannelKind::PointPosition, ChannelKind::PointVelocity,
                                       ChannelKind::PointAcceleration, ChannelKind::PointForce};
      c.kind = kinds[family];
    } else {
      return std::nullopt;
    }
    return c;
  }
  if (object == "R" || object == "ROD" || object == "B" || object == "BODY") {
    c.kind = object[0] == 'R' ? ChannelKind::Rod : ChannelKind::Body;
    c.object = id;
    c.quantity = detail::upper(rest);
    if (c.quantity.empty()) return std::nullopt;
    for (char ch : c.quantity)
      if (!(detail::is_digit(ch) || (ch >= 'A' && ch <= 'Z'))) return std::nullopt;
    return c;
  }
  return std::nullopt;
}

/// The quantity of a body channel (Body<N><quantity>, MoorDyn's names): 0 position P, 1
/// orientation R (roll, pitch, yaw, deg), 2 velocity V, 3 angular velocity RV, 4 acceleration
/// A, 5 angular acceleration RA, 6 line force F, 7 line moment M; `component` x, y, z as 0, 1,
/// 2. Returns false for another quantity.
inline bool body_channel_quantity(const std::string& q, int& family, int& component) {
  static const char* const prefixes[] = {"P", "R", "V", "RV", "A", "RA", "F", "M"};
  if (q.size() < 2) return false;
  const char last = q.back();
  if (last != 'X' && last != 'Y' && last != 'Z') return false;
  const std::string head = q.substr(0, q.size() - 1);
  for (int f = 0; f < 8; ++f)
    if (head == prefixes[f]) {
      family = f;
      component = last - 'X';
      return true;
    }
  return false;
}

/// The quantity of a rod channel (Rod<N><quantity>, MoorDyn's names): End A's (or, with
/// node >= 0, node `node`'s: N<i>P, N<i>V) 0 position P, 1 orientation R (roll and pitch of
/// the axis, deg: x, y), 2 velocity V, 3 angular velocity RV (deg/s), 4 acceleration A, 5
/// angular acceleration RA (deg/s^2), 6 net force F, 7 net moment M, 8 TenA, 9 TenB (the
/// magnitude of the lines' load at End A / B), 10 Sub (the submerged fraction); `component`
/// x, y, z as 0, 1, 2. Returns false for another quantity.
inline bool rod_channel_quantity(const std::string& q, int& family, int& component, int& node) {
  node = -1;
  component = 0;
  if (q == "TENA" || q == "TENB" || q == "SUB") {
    family = q == "TENA" ? 8 : q == "TENB" ? 9 : 10;
    return true;
  }
  std::string rest = q;
  if (rest.size() > 1 && rest[0] == 'N' && detail::is_digit(rest[1])) {
    std::size_t k = 1;
    long n = 0;
    while (k < rest.size() && detail::is_digit(rest[k]) && n < 100000) n = 10 * n + (rest[k++] - '0');
    node = static_cast<int>(n);
    rest = rest.substr(k);
    if (rest.size() != 2 || (rest[0] != 'P' && rest[0] != 'V')) return false;
  }
  if (!body_channel_quantity(rest, family, component)) return false;
  return !(family == 1 && component == 2);  // an axisymmetric rod has no roll angle about its axis
}

/// Units of a channel for the WriteUnits row of an output file.
inline const char* channel_unit(const OutputChannel& c) {
  switch (c.kind) {
    case ChannelKind::FairIncl:
    case ChannelKind::AnchIncl: return "(deg)";
    case ChannelKind::Curv: return "(1/m)";
    case ChannelKind::BendMom: return "(Nm)";
    case ChannelKind::NodePosition:
    case ChannelKind::PointPosition: return "(m)";
    case ChannelKind::NodeVelocity:
    case ChannelKind::PointVelocity: return "(m/s)";
    case ChannelKind::NodeAcceleration:
    case ChannelKind::PointAcceleration: return "(m/s^2)";
    case ChannelKind::Body: {
      int f = 0, k = 0;
      if (!body_channel_quantity(c.quantity, f, k)) return "(-)";
      static const char* const units[] = {"(m)", "(deg)", "(m/s)", "(deg/s)", "(m/s^2)", "(deg/s^2)", "(N)", "(Nm)"};
      return units[f];
    }
    case ChannelKind::Rod: {
      int f = 0, k = 0, n = 0;
      if (!rod_channel_quantity(c.quantity, f, k, n)) return "(-)";
      static const char* const units[] = {"(m)",  "(deg)", "(m/s)", "(deg/s)", "(m/s^2)", "(deg/s^2)",
                                          "(N)",  "(Nm)",  "(N)",   "(N)",     "(-)"};
      return units[f];
    }
    default: return "(N)";
  }
}

}  // namespace cabledyn::io
