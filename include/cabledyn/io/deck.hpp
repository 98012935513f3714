// cabledyn: the deck reader and writer: MoorDyn v2 input files plus the CableDyn extensions
// (SECTIONS, END CONNECTIONS, EQUIVALENT BUOYANCY, option rows), as DECK_FORMAT.md specifies.
// docs/deck-format.md is the user guide (every section, column and option, with defaults, and
// the table of what MoorDyn accepts and what this reader does).
//
// `parse_deck(text, file)` / `read_deck(path)` return a Deck whose every record keeps its
// source line, or throw InputError(object = "file:line", quantity = the field, value, limit).
// A deck that is valid but asks for a model the library does not implement yet (free points,
// bodies, rods, viscoelastic or Syrope EA, torsion, VIV, seabed friction, MoorDyn's water
// kinematics inputs, ...) is read to its end, each such request recorded in
// `Deck::unsupported` with its line, and then refused with a NotImplementedError that names
// every missing feature; with `ReadOptions::accept_unsupported` the Deck is returned instead
// (tools/run_decks.py lists the features that way). `to_text(deck)` writes the canonical
// dialect; reading it back gives an equal Deck (`operator==` compares content, not source
// lines).
//
// Dialects. A deck whose LINES rows are MoorDyn's 7-column rows is a MoorDyn deck and is read
// as MoorDyn v2 reads it: node channels count from 0 at End A, FairTen<L> is the End B force
// and AnchTen<L> the End A force, kBot and cBot default to 3e6 and 3e5, and without a (positive)
// WtrDpth the seabed is at the deepest point (MoorDyn's rule). A deck with `ID NodeA NodeB`
// rows and SECTIONS is a CableDyn deck (node channels from 1, FairTen at the fairlead, kBot
// 1e5, cBot 1e4, no seabed without WtrDpth). The option `dialect moordyn|cabledyn` overrides
// the detection; a deck that mixes the two LINES forms needs it. Each default applied is noted.
//
// The reader is linear in the size of the text, never recurses on its input and throws only
// cabledyn::Error (a seeded mutation test in tests/io/ holds it to that).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/hydro/morison.hpp"
#include "cabledyn/io/channel.hpp"
#include "cabledyn/io/deck_options.hpp"
#include "cabledyn/io/detail/deck_lexer.hpp"
#include "cabledyn/line/line_type.hpp"

namespace cabledyn::io {

/// Largest number of elements the reader accepts on one line (sum of its NumSegs).
inline constexpr long long kMaxSegmentsPerLine = 1000000;

/// A LINE TYPES row: the line type (EQUIVALENT BUOYANCY applied) and its source line.
struct LineTypeRecord {
  LineType type;
  int line = 0;
};

/// An EQUIVALENT BUOYANCY row `LineType Diam SubmergedWeightPerMetre`: the named type gets
/// Diam = d and rho_A = w / g + rhoW pi d^2 / 4 (spec "Buoyancy and wetting").
struct BuoyancyRecord {
  std::string type;
  double d = 0;  ///< hydrodynamic diameter [m], > 0
  double w = 0;  ///< submerged weight per metre [N/m], positive down
  int line = 0;
};

/// A BODY HYDROSTATICS row `BodyID C33 C44 C55` (cabledyn's extension; spec "Attached objects
/// and line ends": the linear hydrostatic restoring of a surface-piercing hull, heave [N/m],
/// roll and pitch [N m/rad] about the body's deck pose, which then keeps phi = 1). A Free or
/// CoupledPinned body of BODIES, one row each.
struct BodyHydrostaticsRecord {
  int body = 0;
  double C33 = 0, C44 = 0, C55 = 0;
  int line = 0;
};

/// A TURBINES row `ID X Y` (cabledyn's extension; FAST.Farm's WT_X WT_Y): the reference
/// position in the farm of turbine ID, which the deck X Y Z of its Turbine<ID> points are
/// relative to (MoorDyn-F's TurbineRefPos, at z = 0).
struct TurbineRecord {
  int id = 0;
  double x = 0, y = 0;
  int line = 0;
};

/// The feature name under which the reader records a Turbine<J> point (a coupled point of host
/// turbine J; the system route models it, io/system_model.hpp).
inline constexpr const char* kTurbinePointsFeature = "points on turbines (Turbine<J>)";

/// The feature name under which the reader records a Free / Connect point in
/// Deck::unsupported (the reader's callers that model it read with
/// ReadOptions::accept_unsupported: the driver's system, io/system_model.hpp).
inline constexpr const char* kFreePointsFeature = "free points (Free/Connect)";
/// The feature names under which the reader records BODIES rows and points on bodies (the
/// system models them).
inline constexpr const char* kBodiesFeature = "bodies (BODIES)";
inline constexpr const char* kBodyPointsFeature = "points on bodies (Body<N>)";
/// The feature names under which the reader records ROD TYPES / RODS rows and lines on rod
/// ends (the system models them).
inline constexpr const char* kRodsFeature = "rods (ROD TYPES, RODS)";
inline constexpr const char* kRodLinesFeature = "lines attached to rods (R<n>A, R<n>B)";
/// The feature name under which the reader records the mass, volume, drag or force of a
/// Coupled / Vessel point (the system models it: the
/// point's own loads and inertia in its load on the host).
inline constexpr const char* kCoupledPointPropertiesFeature = "the mass, volume, drag and force of a Coupled/Vessel point";

/// A ROD TYPES row `TypeName Diam Mass/m Cd Ca CdEnd CaEnd` (MoorDyn v2).
struct RodTypeRecord {
  std::string name;
  double d = 0, rho_A = 0, Cd = 0, Ca = 0, CdEnd = 0, CaEnd = 0;
  int line = 0;
};

/// How a rod is held (RODS Attachment column).
enum class RodAttachment { fixed, free, pinned, body, body_pinned, coupled, coupled_pinned };

/// A RODS row `ID RodType Attachment Xa Ya Za Xb Yb Zb NumSegs [RodOutputs]` (MoorDyn v2); a
/// rod on a body gives its ends in the body's axes from its reference point.
struct RodRecord {
  int id = 0;
  std::string type;
  RodAttachment attachment = RodAttachment::free;
  int body = 0;  ///< Body<N>, Body<N>Pinned: N
  std::array<double, 3> a{}, b{};
  int segments = 0;
  int line = 0;
};

/// How a body moves (BODIES Attachment column).
enum class BodyType { fixed, coupled, free, coupled_pinned };

/// A BODIES row `ID Attachment X0 Y0 Z0 r0 p0 y0 Mass CG* I* Volume CdA* Ca*` (MoorDyn v2):
/// CG* is z or x|y|z, I* one value for all three axes or Ixx|Iyy|Izz, CdA* one value for all
/// six, t|r (translational, rotational), x|y|z (each for translation and rotation) or six
/// values, Ca* one value or three; the angles in degrees.
struct BodyRecord {
  int id = 0;
  BodyType type = BodyType::free;
  std::array<double, 3> r{};      ///< reference point [m]
  std::array<double, 3> angles{}; ///< roll, pitch, yaw [deg] (R = Rx Ry Rz)
  double mass = 0;                ///< [kg]
  std::array<double, 3> cg{};     ///< centre of gravity from the reference point, body axes [m]
  std::array<double, 3> inertia{};///< moments of inertia about the centre of gravity [kg m^2]
  double volume = 0;              ///< [m^3]
  std::array<double, 6> CdA{};    ///< drag areas, body axes: translational, rotational
  std::array<double, 3> Ca{};     ///< added-mass coefficients, body axes
  int line = 0;
};

/// Point types of MoorDyn v2 (and MoorDyn-F's Turbine<J>). Fixed, Coupled and Vessel points
/// are implemented on every route; Free, Body<N> and Turbine<J> points are recorded in
/// Deck::unsupported under the features the system route models (io/system_model.hpp).
enum class PointType { fixed, coupled, vessel, free, body, turbine };

/// A POINTS row `ID Type X Y Z [Mass Vol CdA Ca]` or MoorDyn's 12-column row `ID Type X Y Z
/// Mass Vol Fx Fy Fz CdA Ca`.
struct PointRecord {
  int id = 0;
  PointType type = PointType::fixed;
  int attached = 0;           ///< Body<N> / Turbine<J>: N or J
  /// Position [m]. A Turbine<J> point's deck X Y Z are in turbine J's frame (MoorDyn-F): the
  /// reader adds the turbine's reference position (TURBINES), so r is in the global frame.
  std::array<double, 3> r{};
  double mass = 0;            ///< [kg] (no effect on Fixed points; 0 on Coupled/Vessel)
  double volume = 0;          ///< [m^3]
  double CdA = 0;             ///< [m^2]
  double Ca = 0;              ///< [-]
  std::array<double, 3> force{};  ///< constant external force [N] (12-column rows)
  int line = 0;
  /// Coupled, Vessel and Turbine<J> points move (prescribed motion); Fixed points are anchors.
  bool moving() const { return type == PointType::coupled || type == PointType::vessel || type == PointType::turbine; }
  /// The host turbine whose coupled DOFs move a moving point: J for Turbine<J>, 1 for Coupled
  /// and Vessel points (MoorDyn-F counts them as turbine 1's).
  int turbine() const { return type == PointType::turbine ? attached : 1; }
};

/// A LINES row: `ID NodeA NodeB [Outputs]` (sections from SECTIONS) or the stock MoorDyn
/// `ID LineType AttachA AttachB UnstrLen NumSegs [Outputs]` (one section, stored in
/// Deck::sections with this row's line).
struct LineRecord {
  int id = 0;
  int node_a = 0;            ///< point ID of End A as written (0: a rod end, rod_a)
  int node_b = 0;            ///< point ID of End B as written (0: a rod end, rod_b)
  int rod_a = 0, rod_b = 0;  ///< R<n>A / R<n>B: the rod n at End A / End B (0: a point)
  char rod_end_a = 0, rod_end_b = 0;  ///< 'A' or 'B': which end of that rod
  std::string outputs = "-"; ///< per-line output flags (MoorDyn letters) or "-"
  /// End A is Fixed and End B Coupled/Vessel: the driver swaps the ends so that End A is the
  /// fairlead (DECK_FORMAT.md); Deck::line_sections returns the sections in that order.
  bool swapped = false;
  bool stock_form = false;   ///< read from the 7-column MoorDyn row (provenance, not compared)
  int line = 0;
  /// Point ID of the fairlead end (End A after the swap).
  int fairlead() const { return swapped ? node_b : node_a; }
  /// Point ID of the anchor end (End B after the swap).
  int anchor() const { return swapped ? node_a : node_b; }
};

/// A SECTIONS row `LineID LineType Length NumSegs` (End A to End B as written).
struct SectionRecord {
  int line_id = 0;
  std::string type;
  double length = 0;  ///< unstretched length [m], > 0
  int segments = 0;   ///< NumSegs, >= 1
  int line = 0;
};

/// Rotational end connections of finite-EI lines (spec "End connections (Hermite lines)").
enum class EndConnectionKind {
  pinned,  ///< Pinned / Free / Zero / 0: the tangent is free
  spring,  ///< isotropic rotational spring, stiffness [N m/rad] about the direction
  rigid,   ///< Rigid / Inf: the tangent held on the ray of the direction
};

/// An END CONNECTIONS row `LineID End Stiffness EzX EzY EzZ` (End A or B as written).
struct EndConnectionRecord {
  int line_id = 0;
  int end = 0;  ///< 0: End A, 1: End B (as written in LINES)
  EndConnectionKind kind = EndConnectionKind::pinned;
  double stiffness = 0;             ///< [N m/rad] (spring)
  std::array<double, 3> direction{};///< d0 (EzX, EzY, EzZ), non-zero for spring and rigid
  int line = 0;
};

/// An OUTPUTS channel (a row may name several).
struct OutputRecord {
  OutputChannel channel;
  std::string text;  ///< the channel as written (the .out header); not compared
  int line = 0;
};

/// How the reader treats requests for features that are not implemented.
struct ReadOptions {
  /// false (default): parse_deck throws NotImplementedError naming every such feature once
  /// the deck is read; true: it returns the Deck with them in Deck::unsupported.
  bool accept_unsupported = false;
};

/// A parsed deck.
struct Deck {
  std::string file = "deck";  ///< the name errors use (the path for read_deck)
  std::string title;          ///< first free-text line after the opening banner
  Dialect dialect = Dialect::cabledyn;  ///< resolved (the `dialect` option or the LINES form)
  std::vector<LineTypeRecord> line_types;
  std::vector<BuoyancyRecord> buoyancy;
  std::vector<PointRecord> points;
  std::vector<BodyRecord> bodies;
  std::vector<BodyHydrostaticsRecord> body_hydrostatics;
  std::vector<TurbineRecord> turbines;
  std::vector<RodTypeRecord> rod_types;
  std::vector<RodRecord> rods;
  std::vector<LineRecord> lines;
  std::vector<SectionRecord> sections;
  std::vector<EndConnectionRecord> end_connections;
  Options options;
  std::vector<OutputRecord> outputs;
  /// Notes for the run summary ("file:line: ..."): MoorDyn keywords accepted and ignored,
  /// header rules applied, defaults of the dialect, channels dropped, dtM without TMax.
  std::vector<std::string> notes;
  /// Requests for features that are not implemented (empty unless read with
  /// ReadOptions::accept_unsupported).
  std::vector<UnsupportedRecord> unsupported;

  /// The IDs of the moving points (Coupled, Vessel, Turbine<J>) in the order of the host's
  /// coupled DOFs (MoorDyn-F's): by turbine (Coupled and Vessel points are turbine 1's), in
  /// POINTS order within each.
  std::vector<int> coupled_point_ids() const {
    std::vector<const PointRecord*> m;
    for (const auto& p : points)
      if (p.moving()) m.push_back(&p);
    std::stable_sort(m.begin(), m.end(), [](const PointRecord* a, const PointRecord* b) { return a->turbine() < b->turbine(); });
    std::vector<int> ids;
    for (const auto* p : m) ids.push_back(p->id);
    return ids;
  }

  const LineTypeRecord* find_line_type(std::string_view name) const {
    for (const auto& t : line_types)
      if (t.type.name == name) return &t;
    return nullptr;
  }
  const PointRecord* find_point(int id) const {
    for (const auto& p : points)
      if (p.id == id) return &p;
    return nullptr;
  }
  const LineRecord* find_line(int id) const {
    for (const auto& l : lines)
      if (l.id == id) return &l;
    return nullptr;
  }
  /// The SECTIONS rows of a line, End A to End B as written.
  std::vector<SectionRecord> sections_of(int line_id) const {
    std::vector<SectionRecord> out;
    for (const auto& s : sections)
      if (s.line_id == line_id) out.push_back(s);
    return out;
  }
  /// Elements of a line (sum of its NumSegs); its nodes are numbered 1 .. segments + 1.
  long long segments(int line_id) const {
    long long n = 0;
    for (const auto& s : sections)
      if (s.line_id == line_id) n += s.segments;
    return n;
  }
  /// True when any section of the line has EI > 0 (a cubic-Hermite cable).
  bool hermite(int line_id) const {
    for (const auto& s : sections)
      if (s.line_id == line_id) {
        const auto* t = find_line_type(s.type);
        if (t && t->type.EI > 0) return true;
      }
    return false;
  }
  /// The line's sections as LineSection values, fairlead end first (reversed when the line
  /// is `swapped`), with the line types EQUIVALENT BUOYANCY resolved.
  std::vector<LineSection> line_sections(int line_id) const {
    std::vector<LineSection> out;
    for (const auto& s : sections)
      if (s.line_id == line_id) {
        const auto* t = find_line_type(s.type);
        if (!t) throw InputError(detail::where(file, s.line), "SECTIONS LineType", s.type, "a line type of LINE TYPES");
        out.push_back(LineSection{t->type, s.length, s.segments});
      }
    const auto* l = find_line(line_id);
    if (l && l->swapped) std::reverse(out.begin(), out.end());
    return out;
  }
  /// The END CONNECTIONS row of a line end (0: End A, 1: End B, as written), or nullptr
  /// (pinned).
  const EndConnectionRecord* end_connection(int line_id, int end) const {
    for (const auto& e : end_connections)
      if (e.line_id == line_id && e.end == end) return &e;
    return nullptr;
  }
  /// End `end` (0: A, 1: B) of a line as written, counted in the fairlead-first orientation
  /// (the other end of a swapped line).
  int oriented_end(int line_id, int end) const {
    const auto* l = find_line(line_id);
    return l && l->swapped ? 1 - end : end;
  }
  /// Node `j` (1 .. N + 1 from End A as written) counted from the fairlead end (N + 2 - j on a
  /// swapped line).
  long long oriented_node(int line_id, long long j) const {
    const auto* l = find_line(line_id);
    return l && l->swapped ? segments(line_id) + 2 - j : j;
  }
  /// The number the deck's node channels give End A: 0 in a MoorDyn deck, 1 in a CableDyn deck.
  int first_node_number() const { return dialect == Dialect::moordyn ? 0 : 1; }
  /// The node a node channel names, 1 .. N + 1 from End A as written, or 0 when the line has
  /// no such node.
  long long channel_node(const OutputChannel& c) const {
    const long long n = segments(c.line);
    long long j = 0;
    switch (c.node_ref) {
      case NodeRef::end_a: j = 1; break;
      case NodeRef::end_b: j = n + 1; break;
      case NodeRef::number: j = static_cast<long long>(c.node) + 1 - first_node_number(); break;
    }
    return j >= 1 && j <= n + 1 ? j : 0;
  }
  /// The end (0: End A, 1: End B, as written) whose force FairTen<L> (fair = true) or
  /// AnchTen<L> reports: MoorDyn decks End B and End A (as MoorDyn); CableDyn decks the
  /// fairlead and the anchor ends.
  int tension_end(int line_id, bool fair) const {
    if (dialect == Dialect::moordyn) return fair ? 1 : 0;
    const auto* l = find_line(line_id);
    const int fairlead = l && l->swapped ? 1 : 0;
    return fair ? fairlead : 1 - fairlead;
  }
  /// The Environment of the options (g, rhoW, WtrDpth).
  Environment environment() const { return options.environment(); }
};

// ---- equality (content, not source lines) ------------------------------------------------

inline bool same_line_type(const LineType& a, const LineType& b) {
  return a.name == b.name && a.d == b.d && a.rho_A == b.rho_A && a.EA == b.EA && a.BA == b.BA && a.EI == b.EI &&
         a.Cdn == b.Cdn && a.Cdt == b.Cdt && a.Can == b.Can && a.Cat == b.Cat;
}
inline bool operator==(const LineTypeRecord& a, const LineTypeRecord& b) { return same_line_type(a.type, b.type); }
inline bool operator==(const BuoyancyRecord& a, const BuoyancyRecord& b) {
  return a.type == b.type && a.d == b.d && a.w == b.w;
}
inline bool operator==(const PointRecord& a, const PointRecord& b) {
  return a.id == b.id && a.type == b.type && a.attached == b.attached && a.r == b.r && a.mass == b.mass &&
         a.volume == b.volume && a.CdA == b.CdA && a.Ca == b.Ca && a.force == b.force;
}
inline bool operator==(const LineRecord& a, const LineRecord& b) {
  return a.id == b.id && a.node_a == b.node_a && a.node_b == b.node_b && a.outputs == b.outputs &&
         a.swapped == b.swapped;
}
inline bool operator==(const SectionRecord& a, const SectionRecord& b) {
  return a.line_id == b.line_id && a.type == b.type && a.length == b.length && a.segments == b.segments;
}
inline bool operator==(const EndConnectionRecord& a, const EndConnectionRecord& b) {
  return a.line_id == b.line_id && a.end == b.end && a.kind == b.kind && a.stiffness == b.stiffness &&
         a.direction == b.direction;
}
inline bool operator==(const OutputRecord& a, const OutputRecord& b) { return a.channel == b.channel; }

/// Describes the first difference of content between two decks ("" when equal): the
/// diagnostic of a failed round trip.
inline std::string first_difference(const Deck& a, const Deck& b) {
  auto cmp = [](const auto& x, const auto& y, const char* what) -> std::string {
    if (x.size() != y.size())
      return std::string(what) + ": " + std::to_string(x.size()) + " vs " + std::to_string(y.size()) + " records";
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!(x[i] == y[i])) return std::string(what) + ": record " + std::to_string(i + 1) + " differs";
    return "";
  };
  if (a.title != b.title) return "title: \"" + a.title + "\" vs \"" + b.title + "\"";
  if (a.dialect != b.dialect) return "dialect differs";
  for (std::string s : {cmp(a.line_types, b.line_types, "LINE TYPES"), cmp(a.buoyancy, b.buoyancy, "EQUIVALENT BUOYANCY"),
                        cmp(a.points, b.points, "POINTS"), cmp(a.lines, b.lines, "LINES"),
                        cmp(a.sections, b.sections, "SECTIONS"),
                        cmp(a.end_connections, b.end_connections, "END CONNECTIONS"),
                        cmp(a.outputs, b.outputs, "OUTPUTS")})
    if (!s.empty()) return s;
  if (!(a.options == b.options)) {
    if (a.options.ignored != b.options.ignored) return "OPTIONS: ignored keywords differ";
    if (!(a.options.waves == b.options.waves) || a.options.wavetrains != b.options.wavetrains)
      return "OPTIONS: waves differ";
    if (!(a.options.current == b.options.current)) return "OPTIONS: current differs";
    return "OPTIONS: values differ";
  }
  return "";
}

/// Content equality: every record and option value, in order; source lines, the file name,
/// the notes and the form a line was written in do not take part.
inline bool operator==(const Deck& a, const Deck& b) { return first_difference(a, b).empty(); }

namespace detail {

/// Section kinds.
enum class Sec { closed, line_types, points, lines, sections, end_connections, buoyancy, options, outputs, bodies, body_hydrostatics, turbines, rod_types, rods, unimplemented };

struct SectionAlias {
  const char* name;
  Sec sec;
  const char* feature;  ///< unimplemented sections: the missing feature
};

// clang-format off
inline constexpr SectionAlias kSectionNames[] = {
  {"LINE TYPES", Sec::line_types, ""}, {"LINETYPES", Sec::line_types, ""}, {"LINE DICTIONARY", Sec::line_types, ""},
  {"POINTS", Sec::points, ""}, {"POINT LIST", Sec::points, ""}, {"POINT PROPERTIES", Sec::points, ""},
  {"CONNECTION PROPERTIES", Sec::points, ""}, {"CONNECTS", Sec::points, ""}, {"NODE PROPERTIES", Sec::points, ""},
  {"LINES", Sec::lines, ""}, {"LINE LIST", Sec::lines, ""}, {"LINE PROPERTIES", Sec::lines, ""},
  {"SECTIONS", Sec::sections, ""},
  {"END CONNECTIONS", Sec::end_connections, ""},
  {"EQUIVALENT BUOYANCY", Sec::buoyancy, ""},
  {"OPTIONS", Sec::options, ""}, {"SOLVER OPTIONS", Sec::options, ""},
  {"OUTPUTS", Sec::outputs, ""}, {"OUTPUT", Sec::outputs, ""}, {"OUTPUT LIST", Sec::outputs, ""},
  // Read, and their rows recorded as unsupported (later issues build them).
  {"ATTACHMENTS", Sec::unimplemented, "discrete attachments (ATTACHMENTS)"},
  {"CLUMPS", Sec::unimplemented, "discrete attachments (ATTACHMENTS)"},
  {"BODIES", Sec::bodies, ""}, {"BODY LIST", Sec::bodies, ""}, {"BODY PROPERTIES", Sec::bodies, ""},
  {"BODY HYDROSTATICS", Sec::body_hydrostatics, ""},
  {"TURBINES", Sec::turbines, ""},
  {"ROD TYPES", Sec::rod_types, ""}, {"ROD DICTIONARY", Sec::rod_types, ""},
  {"RODS", Sec::rods, ""}, {"ROD LIST", Sec::rods, ""}, {"ROD PROPERTIES", Sec::rods, ""},
  {"FAILURE", Sec::unimplemented, "line failure (FAILURE)"},
  {"CONTROL", Sec::unimplemented, "active line control (CONTROL)"},
  {"SYROPE IC", Sec::unimplemented, "the Syrope polyester model (SYROPE IC)"},
  {"EXTERNAL LOADS", Sec::unimplemented, "external loads (EXTERNAL LOADS)"},
};
// clang-format on

/// MoorDyn's per-line output letters (docs/deck-format.md says what each writes); other
/// letters are ignored with a note, as MoorDyn ignores them.
inline constexpr std::string_view kLineOutputFlags = "pvUDVKtcsdb";

/// The field a LINE TYPES header name stands for: 0 Cd (normal drag), 1 Ca (normal added
/// mass), 2 CdAx (tangential drag), 3 CaAx (tangential added mass), 4 Cl, 5 dF, 6 cF, 7..10
/// GAs GJ Irt Irn; -1 for a name the reader does not know.
inline int line_type_field(std::string_view name) {
  const std::string u = upper(name);
  if (u == "CD" || u == "CDN" || u == "CD_N") return 0;
  if (u == "CA" || u == "CAN" || u == "CA_N") return 1;
  if (u == "CDAX" || u == "CDT" || u == "CD_T") return 2;
  if (u == "CAAX" || u == "CAT" || u == "CA_T") return 3;
  if (u == "CL") return 4;
  if (u == "DF") return 5;
  if (u == "CF") return 6;
  if (u == "GAS") return 7;
  if (u == "GJ") return 8;
  if (u == "IRT") return 9;
  if (u == "IRN") return 10;
  return -1;
}

/// How the coefficient columns of a LINE TYPES section are read.
enum class LineTypeOrder {
  moordyn,   ///< by position, as MoorDyn v2: ... EI Cd Ca CdAx CaAx [Cl [dF cF]]
  cabledyn,  ///< the header names ... EI Cd_n Cd_t Ca_n Ca_t exactly (the reference decks)
  torsion,   ///< ... EI GAs GJ Irt Irn Cd_n Cd_t Ca_n Ca_t (CableDyn's 14 columns)
};

/// The order the header row of a LINE TYPES section selects (`names`: its tokens; empty when
/// the section has none), a note for the run summary ("" when none is due) and an error
/// ("" when the header is consistent with the positions MoorDyn reads).
struct LineTypeHeader {
  LineTypeOrder order = LineTypeOrder::moordyn;
  std::string note, error;
};

inline LineTypeHeader classify_line_type_header(const std::vector<std::string>& names) {
  LineTypeHeader h;
  static const char* const kMoorDyn[] = {"Cd", "Ca", "CdAx", "CaAx", "Cl", "dF", "cF"};
  const auto eq = [&](std::size_t i, const char* w) { return i < names.size() && iequals(names[i], w); };
  if (names.empty()) return h;  // no header row: by position, as MoorDyn reads
  if (names.size() == 10 && eq(6, "Cd_n") && eq(7, "Cd_t") && eq(8, "Ca_n") && eq(9, "Ca_t")) {
    h.order = LineTypeOrder::cabledyn;
    return h;
  }
  if (names.size() == 14 && eq(6, "GAs") && eq(7, "GJ") && eq(8, "Irt") && eq(9, "Irn") && eq(10, "Cd_n") &&
      eq(11, "Cd_t") && eq(12, "Ca_n") && eq(13, "Ca_t")) {
    h.order = LineTypeOrder::torsion;
    return h;
  }
  // MoorDyn v1's order Can Cat Cdn Cdt, carried by stock v2 decks: MoorDyn v2 reads the values
  // by position, so does this reader, and says so.
  for (std::size_t i = 6; i + 3 < names.size(); ++i)
    if (eq(i, "Can") && eq(i + 1, "Cat") && eq(i + 2, "Cdn") && eq(i + 3, "Cdt")) {
      h.note = "header names columns " + std::to_string(i + 1) + "-" + std::to_string(i + 4) +
               " Can Cat Cdn Cdt (MoorDyn v1's order); MoorDyn v2 reads the values by position as Cd Ca CdAx CaAx "
               "[Cl dF cF] from column 7, and so does this reader (write Cd Ca CdAx CaAx, or Cd_n Cd_t Ca_n Ca_t "
               "for CableDyn's order, to silence this note)";
      return h;
    }
  // Any other header: the known names must sit where MoorDyn reads them.
  std::string unknown;
  for (std::size_t i = 6; i < names.size(); ++i) {
    const int f = line_type_field(names[i]);
    const int expect = static_cast<int>(i) - 6;  // MoorDyn's field at this position
    if (f < 0) {
      unknown += (unknown.empty() ? "" : ", ") + names[i];
      continue;
    }
    if (f != expect) {
      const std::string at = expect < 7 ? std::string(kMoorDyn[expect]) : std::string("no column");
      h.error = "column " + std::to_string(i + 1) + " named " + names[i] + " where MoorDyn reads " + at +
                " (MoorDyn v2 reads by position: Name Diam Mass EA BA EI Cd Ca CdAx CaAx [Cl dF cF]; "
                "a header Cd_n Cd_t Ca_n Ca_t after EI selects CableDyn's order): reorder the header or the values";
      return h;
    }
  }
  if (names.size() < 10 || !unknown.empty())
    h.note = "header names (" + (unknown.empty() ? std::string("too few columns") : unknown) +
             ") are not MoorDyn's or CableDyn's: the columns are read by position as MoorDyn reads them (Name Diam "
             "Mass EA BA EI Cd Ca CdAx CaAx [Cl dF cF])";
  return h;
}

/// The NotImplementedError of the first request of `records` that `keep` selects, its limit
/// listing the other selected features with the deck lines that ask for them (at most 8 each);
/// none when keep selects nothing. The reader's refusal and the system route's
/// (io/system_model.hpp, refuse_unmodelled) both name features this way.
template <class Keep>
std::optional<NotImplementedError> unsupported_error(const std::string& file, const std::vector<UnsupportedRecord>& records,
                                                     Keep&& keep) {
  const UnsupportedRecord* first = nullptr;
  std::vector<std::pair<std::string, std::vector<int>>> others;  // feature, its lines
  for (const auto& u : records) {
    if (!keep(u)) continue;
    if (!first) first = &u;
    if (u.feature == first->feature) continue;
    auto it = std::find_if(others.begin(), others.end(), [&](const auto& f) { return f.first == u.feature; });
    if (it == others.end()) others.emplace_back(u.feature, std::vector<int>{u.line});
    else if (std::find(it->second.begin(), it->second.end(), u.line) == it->second.end()) it->second.push_back(u.line);
  }
  if (!first) return std::nullopt;
  std::string also;
  for (const auto& [feature, ls] : others) {
    std::string lines = ls.size() == 1 ? "line " : "lines ";
    for (std::size_t k = 0; k < ls.size() && k < 8; ++k) lines += (k ? ", " : "") + std::to_string(ls[k]);
    if (ls.size() > 8) lines += ", ...";
    also += (also.empty() ? "" : "; ") + feature + " (" + lines + ")";
  }
  std::string more = first->detail;
  if (!also.empty()) more += (more.empty() ? "" : "; ") + std::string("also not implemented: ") + also;
  return NotImplementedError(detail::where(file, first->line), first->quantity, first->value, first->feature, more);
}

/// The reader: one pass over the records, then the cross-record checks.
class DeckParser {
 public:
  DeckParser(Deck& d, ReadOptions ro)
      : d_(d), ro_(ro), file_(d.file), opts_(d.options, d.notes, d.file, d.unsupported) {}

  void run(std::string_view text) {
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    std::size_t pos = 0;
    int line = 0;
    while (pos < text.size()) {  // records end at '\n'; a final newline opens no record
      const std::size_t nl = text.find('\n', pos);
      const std::string_view rec = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
      if (line == 2147483646) fail(file_, line, "deck", "too many lines", "fewer than 2^31 - 1 lines");
      record(rec, ++line);
      if (nl == std::string_view::npos) break;
      pos = nl + 1;
    }
    last_line_ = std::max(line, 1);
    finish();
  }

 private:
  // ---- records -----------------------------------------------------------------------------
  void record(std::string_view raw, int line) {
    const std::string_view s = strip_hash_comment(raw);
    if (is_header(s)) {
      header(header_name(s), line);
      return;
    }
    if (sec_ == Sec::closed) {
      if (title_pending_) {
        const std::string_view t = trim(raw);
        if (!t.empty()) {
          d_.title = std::string(t);
          title_pending_ = false;
        }
      }
      return;
    }
    const std::vector<Token> t = tokenize(strip_dash_comment(s), file_, line);
    if (t.empty()) return;
    if (t.size() == 1 && !t[0].quoted && iequals(t[0].text, "END")) {
      sec_ = Sec::closed;
      return;
    }
    if (sec_ == Sec::options) {
      opts_.row(t, line);
      return;
    }
    if (sec_ == Sec::outputs) {
      output_row(t, line);
      return;
    }
    bool numeric = false;
    for (const Token& k : t) numeric = numeric || looks_numeric(k.text);
    if (!numeric) {  // a header or units row
      if (sec_ == Sec::line_types && !data_seen_ && lt_names_.empty() && !units_row(t)) {
        for (const Token& k : t) lt_names_.push_back(k.text);
        lt_names_line_ = line;
      }
      return;
    }
    data_seen_ = true;
    switch (sec_) {
      case Sec::line_types: line_type_row(t, line); break;
      case Sec::points: point_row(t, line); break;
      case Sec::lines: line_row(t, line); break;
      case Sec::sections: section_row(t, line); break;
      case Sec::end_connections: end_connection_row(t, line); break;
      case Sec::buoyancy: buoyancy_row(t, line); break;
      case Sec::bodies: body_row(t, line); break;
      case Sec::body_hydrostatics: body_hydrostatics_row(t, line); break;
      case Sec::turbines: turbine_row(t, line); break;
      case Sec::rod_types: rod_type_row(t, line); break;
      case Sec::rods: rod_row(t, line); break;
      case Sec::unimplemented:
        if (!sec_refused_) unsupported(sec_feature_, line, "section " + sec_name_ + " row", t[0].text);
        sec_refused_ = true;
        break;
      default: break;
    }
  }

  /// A units row: every token in parentheses, "(m)", "(-)", "(kg/m)".
  static bool units_row(const std::vector<Token>& t) {
    for (const Token& k : t)
      if (k.text.empty() || k.text.front() != '(') return false;
    return true;
  }

  void header(const std::string& name, int line) {
    if (name.empty() || name == "END" || name.find("NEED") != std::string::npos ||
        name.find("INPUT FILE") != std::string::npos) {
      sec_ = Sec::closed;
      return;
    }
    for (const SectionAlias& a : kSectionNames)
      if (name == a.name) {
        sec_ = a.sec;
        sec_name_ = name;
        sec_feature_ = a.feature;
        sec_line_ = line;
        sec_refused_ = false;
        data_seen_ = false;
        lt_names_.clear();
        lt_names_line_ = 0;
        lt_header_.reset();
        title_pending_ = false;
        return;
      }
    fail(file_, line, "section", name,
         "a known section: LINE TYPES, POINTS, LINES, SECTIONS, END CONNECTIONS, EQUIVALENT BUOYANCY, OPTIONS, "
         "OUTPUTS, BODIES, ROD TYPES, RODS, ... (aliases in docs/deck-format.md)");
  }

  /// Records a request for a feature that is not implemented (parse_deck refuses the deck
  /// once it is read, unless ReadOptions::accept_unsupported).
  void unsupported(const std::string& feature, int line, const std::string& quantity, std::string_view value) {
    d_.unsupported.push_back(UnsupportedRecord{feature, line, quantity, excerpt(value), ""});
  }

  // ---- fields ------------------------------------------------------------------------------
  static std::string col(const char* section, int column, const char* name) {
    return std::string(section) + " column " + std::to_string(column) + " (" + name + ")";
  }
  double num(const Token& t, const std::string& what, int line) const {
    const auto v = to_double(t.text);
    if (!v) fail(file_, line, what, t.text, "a finite number");
    return *v;
  }
  double num_pos(const Token& t, const std::string& what, int line) const {
    const double v = num(t, what, line);
    if (!(v > 0)) fail(file_, line, what, t.text, "> 0");
    return v;
  }
  double num_nonneg(const Token& t, const std::string& what, int line) const {
    const double v = num(t, what, line);
    if (!(v >= 0)) fail(file_, line, what, t.text, ">= 0");
    return v;
  }
  /// A value within the plausibility limit `hi` (docs/deck-format.md, "Limits"): beyond it the
  /// arithmetic of double no longer represents the line (overflow, round-off above the
  /// tolerances) or no physical line has it.
  double at_most(double v, const Token& t, const std::string& what, int line, double hi, const char* unit) const {
    if (!(std::fabs(v) <= hi))
      fail(file_, line, what, t.text, "|value| <= " + number_text(hi) + " " + unit + " (the plausibility limit)");
    return v;
  }
  int id(const Token& t, const std::string& what, int line) const {
    const auto v = to_integer(t.text);
    if (!v || *v < 1 || *v > 999999999) fail(file_, line, what, t.text, "an integer ID in [1, 999999999]");
    return static_cast<int>(*v);
  }
  int segments(const Token& t, const std::string& what, int line) const {
    const auto v = to_integer(t.text);
    if (!v || *v < 1 || *v > kMaxSegmentsPerLine)
      fail(file_, line, what, t.text, "an integer in [1, " + std::to_string(kMaxSegmentsPerLine) + "]");
    return static_cast<int>(*v);
  }
  /// Splits "Body12" into its leading letters (upper case), the number after them (0 when
  /// none; -1 when it has more than 9 digits) and the rest (upper case).
  static void decompose(std::string_view s, std::string& letters, int& number, std::string& rest) {
    std::size_t k = 0;
    while (k < s.size() && !is_digit(s[k])) ++k;
    letters = upper(s.substr(0, k));
    number = 0;
    int digits = 0;
    while (k < s.size() && is_digit(s[k])) {
      if (++digits > 9) {
        number = -1;
        break;
      }
      number = number * 10 + (s[k] - '0');
      ++k;
    }
    while (k < s.size() && is_digit(s[k])) ++k;
    rest = upper(s.substr(k));
  }
  /// A point reference in LINES: a point ID, or MoorDyn's P<n>, Point<n>, C<n>, Con<n>; a rod
  /// end (R<n>A, Rod<n>B) is recorded as unsupported and gives 0.
  int point_ref(const Token& t, const std::string& what, int line, int* rod = nullptr, char* rod_end = nullptr) {
    std::string letters, rest;
    int number = 0;
    decompose(t.text, letters, number, rest);
    if (letters.empty() && rest.empty()) return id(t, what, line);
    if ((letters == "R" || letters == "ROD") && number > 0 && (rest == "A" || rest == "B")) {
      unsupported(kRodLinesFeature, line, what, t.text);
      if (rod) *rod = number;
      if (rod_end) *rod_end = rest[0];
      return 0;
    }
    if ((letters == "P" || letters == "POINT" || letters == "C" || letters == "CON") && number > 0 && rest.empty())
      return number;
    fail(file_, line, what, t.text, "a point ID (or P<n>, Point<n>, C<n>, Con<n>; a rod end R<n>A or R<n>B)");
  }
  void columns_at_most(const std::vector<Token>& t, std::size_t n, const char* section, int line,
                       const std::string& form) const {
    if (t.size() > n)
      fail(file_, line, std::string(section) + " column " + std::to_string(n + 1), t[n].text, "no extra column: " + form);
  }

  // ---- sections ----------------------------------------------------------------------------
  /// EA, BA and EI columns: a number, or one of MoorDyn's other forms (Es|Ed, Es|alphaMBL|vbeta,
  /// SYROPE:file|alphaMBL|vbeta, a file of strain-tension points), which are recorded as
  /// unsupported. Returns the number of '|' separated values, and the first as `v` when it is a
  /// number (1 otherwise).
  int stiffness_column(const Token& t, const std::string& what, int line, const char* kind, double& v) {
    const std::string& s = t.text;
    int parts = 1;
    for (char ch : s) parts += ch == '|';
    const std::string first = s.substr(0, s.find('|'));
    const auto x = to_double(first);
    v = x ? *x : 1.0;
    if (std::string(kind) == "EA" && istarts_with(s, "SYROPE:")) {
      if (parts != 3) fail(file_, line, what, s, "SYROPE:<file>|alphaMBL|vbeta (three values)");
      unsupported("the Syrope polyester model (EA = SYROPE:...)", line, what, s);
      return parts;
    }
    if (parts > 3) fail(file_, line, what, s, "at most three '|' separated values");
    if (!x) {
      if (!first.empty() && !looks_numeric(first)) {
        unsupported(std::string("a nonlinear ") + kind + " curve from a file (" + kind + " = <file>)", line, what, s);
        return parts;
      }
      fail(file_, line, what, first, "a finite number");
    }
    return parts;
  }

  void line_type_row(const std::vector<Token>& t, int line) {
    const std::size_t n = t.size();
    if (!lt_header_) {
      lt_header_ = classify_line_type_header(lt_names_);
      const int hl = lt_names_line_ > 0 ? lt_names_line_ : sec_line_;
      if (!lt_header_->error.empty()) fail(file_, hl, "LINE TYPES header", "", lt_header_->error);
      if (!lt_header_->note.empty()) d_.notes.push_back(where(file_, hl) + ": LINE TYPES " + lt_header_->note);
    }
    LineTypeOrder order = lt_header_->order;
    const bool named = lt_header_->note.empty() && !lt_names_.empty();
    static const char* const kCableDyn[] = {"Name", "Diam", "MassDenInAir", "EA", "BA/-zeta", "EI", "Cd_n", "Cd_t",
                                            "Ca_n", "Ca_t"};
    static const char* const kTorsion[] = {"Name", "Diam", "MassDenInAir", "EA",  "BA/-zeta", "EI",  "GAs",
                                           "GJ",   "Irt",  "Irn",          "Cd_n", "Cd_t",    "Ca_n", "Ca_t"};
    static const char* const kMoorDyn[] = {"Name", "Diam", "MassDenInAir", "EA", "BA/-zeta", "EI", "Cd",
                                           "Ca",   "CdAx", "CaAx",         "Cl", "dF",       "cF"};
    if ((order == LineTypeOrder::moordyn && n == 14 && !named) || (order == LineTypeOrder::cabledyn && n == 14)) {
      // 14 values: only CableDyn's torsion form has them (MoorDyn reads 10, 11 or 13).
      order = LineTypeOrder::torsion;
      d_.notes.push_back(where(file_, line) + ": LINE TYPES row of 14 values read in CableDyn's torsion order (Name "
                                              "Diam Mass EA BA EI GAs GJ Irt Irn Cd_n Cd_t Ca_n Ca_t)");
    }
    const char* const* names = order == LineTypeOrder::moordyn ? kMoorDyn : order == LineTypeOrder::torsion ? kTorsion : kCableDyn;
    const std::string form = order == LineTypeOrder::moordyn
                                 ? "Name Diam MassDenInAir EA BA/-zeta EI Cd Ca CdAx CaAx [Cl [dF cF]] (MoorDyn order, by "
                                   "position)"
                             : order == LineTypeOrder::torsion
                                 ? "Name Diam MassDenInAir EA BA/-zeta EI GAs GJ Irt Irn Cd_n Cd_t Ca_n Ca_t (CableDyn "
                                   "torsion order)"
                                 : "Name Diam MassDenInAir EA BA/-zeta EI Cd_n Cd_t Ca_n Ca_t (CableDyn order: the "
                                   "header names it)";
    const std::size_t want = order == LineTypeOrder::torsion ? 14 : 10;
    if (n < want) fail(file_, line, col("LINE TYPES", static_cast<int>(n) + 1, names[n]), "missing", form);
    if (order == LineTypeOrder::moordyn) {
      if (n == 12) fail(file_, line, "LINE TYPES column 13 (cF)", "missing", "10, 11 or 13 values: " + form);
      columns_at_most(t, 13, "LINE TYPES", line, form);
    } else {
      columns_at_most(t, want, "LINE TYPES", line, form);
    }
    auto c = [&](int k) { return col("LINE TYPES", k + 1, names[k]); };
    LineTypeRecord r;
    r.line = line;
    LineType& ty = r.type;
    ty.name = t[0].text;
    if (ty.name.empty()) fail(file_, line, c(0), "\"\"", "a non-empty name");
    if (types_.count(ty.name))
      fail(file_, line, c(0), ty.name, "a unique name (first defined at line " + std::to_string(types_[ty.name]) + ")");
    ty.d = at_most(num_pos(t[1], c(1), line), t[1], c(1), line, 100, "m");
    ty.rho_A = at_most(num_nonneg(t[2], c(2), line), t[2], c(2), line, 1e6, "kg/m");
    // EA, BA, EI: numbers, or MoorDyn's laws and curves (recorded as unsupported).
    const std::size_t before = d_.unsupported.size();
    const int ea_parts = stiffness_column(t[3], c(3), line, "EA", ty.EA);
    if (ea_parts == 2 && d_.unsupported.size() == before)
      unsupported("viscoelastic EA (Es|Ed, ElasticMod 2)", line, c(3), t[3].text);
    if (ea_parts == 3 && d_.unsupported.size() == before)
      unsupported("load-dependent viscoelastic EA (Es|alphaMBL|vbeta, ElasticMod 3)", line, c(3), t[3].text);
    if (d_.unsupported.size() == before && !(ty.EA > 0)) fail(file_, line, c(3), t[3].text, "> 0");
    if (d_.unsupported.size() == before && !(ty.EA >= 1 && ty.EA <= 1e15))
      fail(file_, line, c(3), t[3].text, "in [1, 1e15] N (the plausibility limit)");
    const int ba_parts = stiffness_column(t[4], c(4), line, "BA", ty.BA);
    if (ba_parts > std::max(ea_parts, 1) || ba_parts > 2)
      fail(file_, line, c(4), t[4].text,
           ba_parts > 2 ? "at most two values BA_s|BA_d" : "one value: BA_s|BA_d needs a viscoelastic EA (Es|Ed)");
    at_most(ty.BA, t[4], c(4), line, ty.BA < 0 ? 100 : 1e15, ty.BA < 0 ? "(a damping ratio)" : "N s");
    double ei = 0;
    const std::size_t before_ei = d_.unsupported.size();
    const int ei_parts = stiffness_column(t[5], c(5), line, "EI", ei);
    if (ei_parts > 1) fail(file_, line, c(5), t[5].text, "one value");
    ty.EI = d_.unsupported.size() == before_ei ? ei : 0;
    if (!(ty.EI >= 0)) fail(file_, line, c(5), t[5].text, ">= 0");
    at_most(ty.EI, t[5], c(5), line, 1e13, "N m^2");
    std::size_t k = 6;
    if (order == LineTypeOrder::torsion) {
      for (; k < 10; ++k) {
        const bool coupled = t[k].text.find('|') != std::string::npos;
        const auto v = coupled ? std::optional<double>(1.0) : to_double(t[k].text);
        if (!v) fail(file_, line, c(static_cast<int>(k)), t[k].text, "a finite number (GJ may be GJ|K|Bt)");
        if (*v != 0) {
          unsupported("torsion (GAs GJ Irt Irn columns)", line, c(static_cast<int>(k)), t[k].text);
          break;
        }
      }
      k = 10;
    }
    if (order == LineTypeOrder::moordyn) {
      ty.Cdn = at_most(num_nonneg(t[6], c(6), line), t[6], c(6), line, 100, "");
      ty.Can = at_most(num_nonneg(t[7], c(7), line), t[7], c(7), line, 100, "");
      ty.Cdt = at_most(num_nonneg(t[8], c(8), line), t[8], c(8), line, 100, "");
      ty.Cat = at_most(num_nonneg(t[9], c(9), line), t[9], c(9), line, 100, "");
      if (n > 10 && num_nonneg(t[10], c(10), line) != 0)
        unsupported("vortex-induced vibration (Cl > 0)", line, c(10), t[10].text);
      for (std::size_t j = 11; j < n; ++j) num(t[j], c(static_cast<int>(j)), line);
    } else {
      const auto coef = [&](std::size_t j) {
        return at_most(num_nonneg(t[j], c(static_cast<int>(j)), line), t[j], c(static_cast<int>(j)), line, 100, "");
      };
      ty.Cdn = coef(k);
      ty.Cdt = coef(k + 1);
      ty.Can = coef(k + 2);
      ty.Cat = coef(k + 3);
    }
    types_[ty.name] = line;
    d_.line_types.push_back(std::move(r));
  }

  void point_row(const std::vector<Token>& t, int line) {
    const std::size_t n = t.size();
    const bool wide = n >= 12;
    const char* const narrow_names[] = {"ID", "Type", "X", "Y", "Z", "Mass", "Vol", "CdA", "Ca"};
    const char* const wide_names[] = {"ID", "Type", "X", "Y", "Z", "Mass", "Vol", "Fx", "Fy", "Fz", "CdA", "Ca"};
    const char* const* names = wide ? wide_names : narrow_names;
    const std::string form = "ID Type X Y Z [Mass Vol CdA Ca], or ID Type X Y Z Mass Vol Fx Fy Fz CdA Ca (MoorDyn)";
    if (n < 5 || (n > 5 && n < 9)) fail(file_, line, col("POINTS", static_cast<int>(n) + 1, names[n]), "missing", form);
    if (n == 10 || n == 11) fail(file_, line, "POINTS column " + std::to_string(n + 1), "missing", "9 or 12 values: " + form);
    columns_at_most(t, 12, "POINTS", line, form);
    auto c = [&](int k) { return col("POINTS", k + 1, names[k]); };
    PointRecord p;
    p.line = line;
    p.id = id(t[0], c(0), line);
    if (points_.count(p.id))
      fail(file_, line, c(0), t[0].text, "a unique ID (first defined at line " + std::to_string(points_[p.id]) + ")");
    point_type(t[1], c(1), line, p);
    for (int k = 0; k < 3; ++k) p.r[k] = at_most(num(t[2 + k], c(2 + k), line), t[2 + k], c(2 + k), line, 1e7, "m");
    if (n >= 9) {
      p.mass = num(t[5], c(5), line);
      p.volume = num(t[6], c(6), line);
      const int o = wide ? 10 : 7;
      if (wide)
        for (int k = 0; k < 3; ++k) p.force[k] = num(t[7 + k], c(7 + k), line);
      p.CdA = num_nonneg(t[o], c(o), line);
      p.Ca = num_nonneg(t[o + 1], c(o + 1), line);
      if (p.type != PointType::free) {
        if (p.mass < 0) fail(file_, line, c(5), t[5].text, ">= 0");
        if (p.volume < 0) fail(file_, line, c(6), t[6].text, ">= 0");
      }
      if (p.moving())
        for (int k = 5; k < static_cast<int>(n); ++k)
          if (num(t[k], c(k), line) != 0) {
            unsupported(kCoupledPointPropertiesFeature, line, c(k), t[k].text);
            break;
          }
    }
    points_[p.id] = line;
    d_.points.push_back(p);
  }

  // A '|'-separated field of 1 or more numbers (BODIES CG*, I*, CdA*, Ca*).
  std::vector<double> split_numbers(const Token& t, const std::string& what, int line) const {
    std::vector<double> v;
    std::size_t start = 0;
    for (;;) {
      const std::size_t bar = t.text.find('|', start);
      const std::string part = t.text.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
      const auto x = to_double(part);
      if (!x) fail(file_, line, what, t.text, "numbers separated by |");
      v.push_back(*x);
      if (bar == std::string::npos) break;
      start = bar + 1;
    }
    return v;
  }

  void body_row(const std::vector<Token>& t, int line) {
    static const char* const names[] = {"ID", "Attachment", "X0", "Y0", "Z0", "r0", "p0", "y0",
                                        "Mass", "CG*", "I*", "Volume", "CdA*", "Ca*"};
    const std::string form = "ID Attachment X0 Y0 Z0 r0 p0 y0 Mass CG* I* Volume CdA* Ca* (MoorDyn v2)";
    const std::size_t n = t.size();
    if (n < 14) fail(file_, line, col("BODIES", static_cast<int>(n) + 1, names[n]), "missing", form);
    columns_at_most(t, 14, "BODIES", line, form);
    auto c = [&](int k) { return col("BODIES", k + 1, names[k]); };
    BodyRecord b;
    b.line = line;
    b.id = id(t[0], c(0), line);
    if (b.id != static_cast<int>(d_.bodies.size()) + 1)
      fail(file_, line, c(0), t[0].text, "the IDs 1, 2, ... in order (Body<N> names the N-th row), here " +
                                            std::to_string(d_.bodies.size() + 1));
    const std::string u = upper(t[1].text);
    if (u == "FREE" || u == "BODY") b.type = BodyType::free;
    else if (u == "FIXED" || u == "FIX" || u == "ANCHOR") b.type = BodyType::fixed;
    else if (u == "COUPLED" || u == "CPLD" || u == "VESSEL" || u == "VES") b.type = BodyType::coupled;
    else if (u == "COUPLEDPINNED" || u == "CPLDPIN" || u == "VESSELPINNED" || u == "VESPIN")
      b.type = BodyType::coupled_pinned;
    else fail(file_, line, c(1), t[1].text, "Free, Fixed (Fix, Anchor), Coupled (Cpld, Vessel, Ves) or CoupledPinned");
    for (int k = 0; k < 3; ++k) b.r[k] = at_most(num(t[2 + k], c(2 + k), line), t[2 + k], c(2 + k), line, 1e7, "m");
    for (int k = 0; k < 3; ++k) b.angles[k] = at_most(num(t[5 + k], c(5 + k), line), t[5 + k], c(5 + k), line, 3600, "deg");
    b.mass = num_nonneg(t[8], c(8), line);
    const auto cg = split_numbers(t[9], c(9), line);
    if (cg.size() == 1) b.cg = {0, 0, cg[0]};
    else if (cg.size() == 3) b.cg = {cg[0], cg[1], cg[2]};
    else fail(file_, line, c(9), t[9].text, "z, or x|y|z");
    const auto I = split_numbers(t[10], c(10), line);
    if (I.size() == 1) b.inertia = {I[0], I[0], I[0]};
    else if (I.size() == 3) b.inertia = {I[0], I[1], I[2]};
    else fail(file_, line, c(10), t[10].text, "one value, or Ixx|Iyy|Izz");
    for (double x : b.inertia)
      if (!(x >= 0)) fail(file_, line, c(10), t[10].text, ">= 0");
    b.volume = num_nonneg(t[11], c(11), line);
    const auto cd = split_numbers(t[12], c(12), line);
    if (cd.size() == 1) b.CdA.fill(cd[0]);
    else if (cd.size() == 2) b.CdA = {cd[0], cd[0], cd[0], cd[1], cd[1], cd[1]};
    else if (cd.size() == 3) b.CdA = {cd[0], cd[1], cd[2], cd[0], cd[1], cd[2]};
    else if (cd.size() == 6) std::copy(cd.begin(), cd.end(), b.CdA.begin());
    else fail(file_, line, c(12), t[12].text, "1, 2 (translation|rotation), 3 (x|y|z) or 6 values");
    for (double x : b.CdA)
      if (!(x >= 0)) fail(file_, line, c(12), t[12].text, ">= 0");
    const auto ca = split_numbers(t[13], c(13), line);
    if (ca.size() == 1) b.Ca = {ca[0], ca[0], ca[0]};
    else if (ca.size() == 3) b.Ca = {ca[0], ca[1], ca[2]};
    else fail(file_, line, c(13), t[13].text, "one value, or x|y|z");
    for (double x : b.Ca)
      if (!(x >= 0)) fail(file_, line, c(13), t[13].text, ">= 0");
    unsupported(kBodiesFeature, line, "section BODIES row", t[0].text);
    d_.bodies.push_back(b);
  }

  void body_hydrostatics_row(const std::vector<Token>& t, int line) {
    static const char* const names[] = {"BodyID", "C33", "C44", "C55"};
    const std::string form = "BodyID C33 C44 C55 (N/m, N m/rad, N m/rad)";
    const std::size_t n = t.size();
    if (n < 4) fail(file_, line, col("BODY HYDROSTATICS", static_cast<int>(n) + 1, names[n]), "missing", form);
    columns_at_most(t, 4, "BODY HYDROSTATICS", line, form);
    auto c = [&](int k) { return col("BODY HYDROSTATICS", k + 1, names[k]); };
    BodyHydrostaticsRecord h;
    h.line = line;
    h.body = id(t[0], c(0), line);
    h.C33 = at_most(num_nonneg(t[1], c(1), line), t[1], c(1), line, 1e12, "N/m");
    h.C44 = at_most(num_nonneg(t[2], c(2), line), t[2], c(2), line, 1e15, "N m/rad");
    h.C55 = at_most(num_nonneg(t[3], c(3), line), t[3], c(3), line, 1e15, "N m/rad");
    d_.body_hydrostatics.push_back(h);
  }

  void turbine_row(const std::vector<Token>& t, int line) {
    static const char* const names[] = {"ID", "X", "Y"};
    const std::string form = "ID X Y (turbine J's reference position in the farm [m])";
    const std::size_t n = t.size();
    if (n < 3) fail(file_, line, col("TURBINES", static_cast<int>(n) + 1, names[n]), "missing", form);
    columns_at_most(t, 3, "TURBINES", line, form);
    auto c = [&](int k) { return col("TURBINES", k + 1, names[k]); };
    TurbineRecord r;
    r.line = line;
    r.id = id(t[0], c(0), line);
    r.x = at_most(num(t[1], c(1), line), t[1], c(1), line, 1e7, "m");
    r.y = at_most(num(t[2], c(2), line), t[2], c(2), line, 1e7, "m");
    d_.turbines.push_back(r);
  }

  void rod_type_row(const std::vector<Token>& t, int line) {
    static const char* const names[] = {"TypeName", "Diam", "Mass/m", "Cd", "Ca", "CdEnd", "CaEnd"};
    const std::string form = "TypeName Diam Mass/m Cd Ca CdEnd CaEnd (MoorDyn v2)";
    const std::size_t n = t.size();
    if (n < 7) fail(file_, line, col("ROD TYPES", static_cast<int>(n) + 1, names[n]), "missing", form);
    columns_at_most(t, 7, "ROD TYPES", line, form);
    auto c = [&](int k) { return col("ROD TYPES", k + 1, names[k]); };
    RodTypeRecord r;
    r.line = line;
    r.name = t[0].text;
    for (const auto& o : d_.rod_types)
      if (o.name == r.name) fail(file_, line, c(0), t[0].text, "a unique name (first defined at line " + std::to_string(o.line) + ")");
    r.d = num_pos(t[1], c(1), line);
    r.rho_A = num_nonneg(t[2], c(2), line);
    r.Cd = num_nonneg(t[3], c(3), line);
    r.Ca = num_nonneg(t[4], c(4), line);
    r.CdEnd = num_nonneg(t[5], c(5), line);
    r.CaEnd = num_nonneg(t[6], c(6), line);
    if (d_.rod_types.empty()) unsupported(kRodsFeature, line, "section ROD TYPES row", t[0].text);
    d_.rod_types.push_back(r);
  }

  void rod_row(const std::vector<Token>& t, int line) {
    static const char* const names[] = {"ID", "RodType", "Attachment", "Xa", "Ya", "Za", "Xb", "Yb", "Zb", "NumSegs", "RodOutputs"};
    const std::string form = "ID RodType Attachment Xa Ya Za Xb Yb Zb NumSegs [RodOutputs] (MoorDyn v2)";
    const std::size_t n = t.size();
    if (n < 10) fail(file_, line, col("RODS", static_cast<int>(n) + 1, names[n]), "missing", form);
    columns_at_most(t, 11, "RODS", line, form);
    auto c = [&](int k) { return col("RODS", k + 1, names[k]); };
    RodRecord r;
    r.line = line;
    r.id = id(t[0], c(0), line);
    if (r.id != static_cast<int>(d_.rods.size()) + 1)
      fail(file_, line, c(0), t[0].text, "the IDs 1, 2, ... in order (R<n>A names the n-th row), here " +
                                            std::to_string(d_.rods.size() + 1));
    r.type = t[1].text;
    std::string letters, rest;
    int number = 0;
    decompose(t[2].text, letters, number, rest);
    const std::string u = upper(t[2].text);
    if (u == "FIXED" || u == "FIX" || u == "ANCHOR") r.attachment = RodAttachment::fixed;
    else if (u == "FREE") r.attachment = RodAttachment::free;
    else if (u == "PINNED" || u == "PIN") r.attachment = RodAttachment::pinned;
    else if (letters == "BODY" && number > 0 && rest.empty()) r.attachment = RodAttachment::body, r.body = number;
    else if (letters == "BODY" && number > 0 && (rest == "PINNED" || rest == "PIN"))
      r.attachment = RodAttachment::body_pinned, r.body = number;
    else if (u == "COUPLED" || u == "CPLD" || u == "VESSEL" || u == "VES") r.attachment = RodAttachment::coupled;
    else if (u == "COUPLEDPINNED" || u == "CPLDPIN" || u == "VESSELPINNED" || u == "VESPIN")
      r.attachment = RodAttachment::coupled_pinned;
    else fail(file_, line, c(2), t[2].text, "Fixed, Free, Pinned, Body<N>, Body<N>Pinned, Coupled or CoupledPinned");
    for (int k = 0; k < 3; ++k) r.a[k] = at_most(num(t[3 + k], c(3 + k), line), t[3 + k], c(3 + k), line, 1e7, "m");
    for (int k = 0; k < 3; ++k) r.b[k] = at_most(num(t[6 + k], c(6 + k), line), t[6 + k], c(6 + k), line, 1e7, "m");
    const double segs = num_nonneg(t[9], c(9), line);
    if (segs != std::floor(segs) || segs > 10000) fail(file_, line, c(9), t[9].text, "an integer in [0, 10000]");
    r.segments = static_cast<int>(segs);
    if (d_.rods.empty()) unsupported(kRodsFeature, line, "section RODS row", t[0].text);
    d_.rods.push_back(r);
  }

  void point_type(const Token& t, const std::string& what, int line, PointRecord& p) {
    std::string letters, rest;
    int number = 0;
    decompose(t.text, letters, number, rest);
    const std::string u = upper(t.text);
    if (u == "FIXED" || u == "FIX" || u == "ANCHOR") {
      p.type = PointType::fixed;
    } else if (u == "COUPLED" || u == "CPLD" || u == "FAIRLEAD") {
      p.type = PointType::coupled;
    } else if (u == "VESSEL" || u == "VES" || u == "VESS") {
      p.type = PointType::vessel;
    } else if (u == "FREE" || u == "CONNECT" || u == "CON" || u == "POINT") {
      p.type = PointType::free;
      unsupported(kFreePointsFeature, line, what, t.text);
    } else if (letters == "BODY" && number > 0 && rest.empty()) {
      p.type = PointType::body;
      p.attached = number;
      unsupported(kBodyPointsFeature, line, what, t.text);
    } else if ((letters == "TURBINE" || letters == "T") && number > 0 && rest.empty()) {
      p.type = PointType::turbine;  // its deck X Y Z in turbine J's frame (finish adds the reference)
      p.attached = number;
      unsupported(kTurbinePointsFeature, line, what, t.text);
    } else {
      fail(file_, line, what, t.text,
           "Fixed (Fix, Anchor), Coupled (Cpld, Fairlead), Vessel (Ves), Free (Connect, Con, Point), Body<N> or "
           "Turbine<J>");
    }
  }

  /// MoorDyn's line output letters: any text ("-" none); letters MoorDyn does not know are
  /// ignored with a note, as MoorDyn ignores them.
  void outputs_flags(const Token& t, int line) {
    if (t.text == "-") return;
    std::string ignored;
    for (char ch : t.text)
      if (kLineOutputFlags.find(ch) == std::string_view::npos && ch != ',' && ch != '-' &&
          ignored.find(ch) == std::string::npos)
        ignored += ch;
    if (!ignored.empty())
      d_.notes.push_back(where(file_, line) + ": line output flags " + excerpt(t.text) + ": " + excerpt(ignored) +
                         " ignored (MoorDyn ignores them too; the letters are p v U D V K t c s d b)");
  }

  void line_row(const std::vector<Token>& t, int line) {
    const std::size_t n = t.size();
    const std::string form = "ID NodeA NodeB [Outputs] (with SECTIONS) or ID LineType AttachA AttachB UnstrLen "
                             "NumSegs [Outputs] (stock MoorDyn)";
    if (n < 3 || n == 5) fail(file_, line, "LINES column " + std::to_string(n + 1), "missing", form);
    columns_at_most(t, 7, "LINES", line, form);
    LineRecord l;
    l.line = line;
    const bool stock = n >= 6;
    l.id = id(t[0], col("LINES", 1, "ID"), line);
    if (lines_.count(l.id))
      fail(file_, line, col("LINES", 1, "ID"), t[0].text,
           "a unique ID (first defined at line " + std::to_string(lines_[l.id]) + ")");
    if (stock) {
      l.stock_form = true;
      l.node_a = point_ref(t[2], col("LINES", 3, "AttachA"), line, &l.rod_a, &l.rod_end_a);
      l.node_b = point_ref(t[3], col("LINES", 4, "AttachB"), line, &l.rod_b, &l.rod_end_b);
      SectionRecord s;
      s.line_id = l.id;
      s.type = t[1].text;
      s.length = at_most(num_pos(t[4], col("LINES", 5, "UnstrLen"), line), t[4], col("LINES", 5, "UnstrLen"), line, 1e7, "m");
      s.segments = segments(t[5], col("LINES", 6, "NumSegs"), line);
      element_length(s, t[5], col("LINES", 6, "NumSegs"), line);
      s.line = line;
      if (n == 7) {
        outputs_flags(t[6], line);
        l.outputs = t[6].text;
      }
      d_.sections.push_back(s);
    } else {
      l.node_a = point_ref(t[1], col("LINES", 2, "NodeA"), line, &l.rod_a, &l.rod_end_a);
      l.node_b = point_ref(t[2], col("LINES", 3, "NodeB"), line, &l.rod_b, &l.rod_end_b);
      if (n == 4) {
        outputs_flags(t[3], line);
        l.outputs = t[3].text;
      }
    }
    lines_[l.id] = line;
    d_.lines.push_back(l);
  }

  /// Elements of at least 1e-6 m (shorter ones lose their strain to round-off).
  void element_length(const SectionRecord& s, const Token& t, const std::string& what, int line) const {
    if (!(s.length / s.segments >= 1e-6))
      fail(file_, line, what, t.text, "at most Length / 1e-6 m elements (elements of at least 1 micrometre)");
  }

  void section_row(const std::vector<Token>& t, int line) {
    const char* names[] = {"LineID", "LineType", "Length", "NumSegs"};
    const std::string form = "LineID LineType Length NumSegs";
    if (t.size() < 4) fail(file_, line, col("SECTIONS", static_cast<int>(t.size()) + 1, names[t.size()]), "missing", form);
    columns_at_most(t, 4, "SECTIONS", line, form);
    SectionRecord s;
    s.line = line;
    s.line_id = id(t[0], col("SECTIONS", 1, "LineID"), line);
    s.type = t[1].text;
    s.length = at_most(num_pos(t[2], col("SECTIONS", 3, "Length"), line), t[2], col("SECTIONS", 3, "Length"), line, 1e7, "m");
    s.segments = segments(t[3], col("SECTIONS", 4, "NumSegs"), line);
    element_length(s, t[3], col("SECTIONS", 4, "NumSegs"), line);
    d_.sections.push_back(s);
  }

  /// Stiffness words and numbers of END CONNECTIONS: pinned, spring (k > 0) or rigid.
  EndConnectionKind stiffness(const Token& t, const std::string& what, int line, double& k) const {
    const std::string u = upper(t.text);
    k = 0;
    if (u == "PINNED" || u == "FREE" || u == "ZERO") return EndConnectionKind::pinned;
    if (u == "RIGID" || u == "INF" || u == "INFINITY") return EndConnectionKind::rigid;
    const auto v = to_double(t.text);
    if (!v || *v < 0) fail(file_, line, what, t.text, "a stiffness >= 0 [N m/rad], Pinned/Free/Zero or Rigid/Inf");
    if (*v > 1e15) fail(file_, line, what, t.text, "<= 1e15 N m/rad (the plausibility limit; Rigid holds the tangent exactly)");
    k = *v;
    return k > 0 ? EndConnectionKind::spring : EndConnectionKind::pinned;
  }

  void end_connection_row(const std::vector<Token>& t, int line) {
    const char* names[] = {"LineID", "End", "Stiffness", "EzX", "EzY", "EzZ",
                           "TorsStiffness", "NxX", "NxY", "NxZ", "Pretwist"};
    const std::string form = "LineID End Stiffness EzX EzY EzZ [TorsStiffness NxX NxY NxZ Pretwist]";
    const std::size_t n = t.size();
    auto c = [&](int k) { return col("END CONNECTIONS", k + 1, names[k]); };
    if (n < 3) fail(file_, line, c(static_cast<int>(n)), "missing", form);
    columns_at_most(t, 11, "END CONNECTIONS", line, form);
    EndConnectionRecord e;
    e.line = line;
    e.line_id = id(t[0], c(0), line);
    const std::string end = upper(t[1].text);
    if (end == "A" || end == "ENDA" || end == "END_A") e.end = 0;
    else if (end == "B" || end == "ENDB" || end == "END_B") e.end = 1;
    else fail(file_, line, c(1), t[1].text, "A or B");
    e.kind = stiffness(t[2], c(2), line, e.stiffness);
    if (n == 3) {
      if (e.kind != EndConnectionKind::pinned)
        fail(file_, line, c(3), "missing", "the direction EzX EzY EzZ of a spring or Rigid connection: " + form);
    } else {
      if (n < 6) fail(file_, line, c(static_cast<int>(n)), "missing", form);
      if (n > 6 && n < 11) fail(file_, line, c(static_cast<int>(n)), "missing", form);
      for (int k = 0; k < 3; ++k) e.direction[k] = num(t[3 + k], c(3 + k), line);
      const double norm = std::hypot(e.direction[0], e.direction[1], e.direction[2]);
      if (e.kind != EndConnectionKind::pinned && !(norm > 0 && std::isfinite(norm)))
        fail(file_, line, c(3), t[3].text + " " + t[4].text + " " + t[5].text,
             "a non-zero direction (spring and Rigid connections)");
      if (n == 11) {
        double kt = 0;
        const EndConnectionKind tors = stiffness(t[6], c(6), line, kt);
        for (int k = 7; k < 11; ++k) num(t[k], c(k), line);
        if (tors != EndConnectionKind::pinned)
          unsupported("torsion (a torsional end restraint)", line, c(6), t[6].text);
        else if (num(t[10], c(10), line) != 0)
          unsupported("torsion (a pretwist)", line, c(10), t[10].text);
      }
    }
    const auto key = std::make_pair(e.line_id, e.end);
    if (ends_.count(key))
      fail(file_, line, c(1), t[1].text,
           "one row per line end (line " + std::to_string(e.line_id) + " End " + (e.end ? "B" : "A") +
               " first given at line " + std::to_string(ends_[key]) + ")");
    ends_[key] = line;
    d_.end_connections.push_back(e);
  }

  void buoyancy_row(const std::vector<Token>& t, int line) {
    const char* names[] = {"LineType", "Diam", "SubmergedWeightPerMetre"};
    const std::string form = "LineType Diam SubmergedWeightPerMetre";
    if (t.size() < 3)
      fail(file_, line, col("EQUIVALENT BUOYANCY", static_cast<int>(t.size()) + 1, names[t.size()]), "missing", form);
    columns_at_most(t, 3, "EQUIVALENT BUOYANCY", line, form);
    BuoyancyRecord b;
    b.line = line;
    b.type = t[0].text;
    b.d = at_most(num_pos(t[1], col("EQUIVALENT BUOYANCY", 2, "Diam"), line), t[1], col("EQUIVALENT BUOYANCY", 2, "Diam"),
                  line, 100, "m");
    b.w = at_most(num(t[2], col("EQUIVALENT BUOYANCY", 3, "SubmergedWeightPerMetre"), line), t[2],
                  col("EQUIVALENT BUOYANCY", 3, "SubmergedWeightPerMetre"), line, 1e7, "N/m");
    d_.buoyancy.push_back(b);
  }

  /// An OUTPUTS row: one or more channels, separated by blanks or commas, bare or quoted (a
  /// quoted token may hold a comma-separated list, as OpenFAST's OutList writes them). A name
  /// outside the grammar is dropped with a note, as MoorDyn warns and drops it.
  void output_row(const std::vector<Token>& t, int line) {
    for (const Token& tok : t) {
      std::string_view rest = tok.text;
      while (true) {
        const std::size_t comma = rest.find(',');
        const std::string_view name = trim(rest.substr(0, comma));
        if (!name.empty()) {
          const auto ch = parse_channel(name);
          if (ch) {
            d_.outputs.push_back(OutputRecord{*ch, std::string(name), line});
          } else {
            d_.notes.push_back(where(file_, line) + ": OUTPUTS channel " + excerpt(name) +
                               " is not a channel and is dropped (the grammar: docs/deck-format.md, OUTPUTS)");
          }
        }
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
      }
    }
  }

  // ---- cross-record checks -----------------------------------------------------------------
  void resolve_dialect() {
    bool stock = false, cabledyn = false;
    for (const LineRecord& l : d_.lines) (l.stock_form ? stock : cabledyn) = true;
    if (d_.options.dialect) {
      d_.dialect = *d_.options.dialect;
      return;
    }
    if (stock && cabledyn)
      fail(file_, d_.lines.front().line, "LINES", "both forms",
           "one form (7-column MoorDyn rows or ID NodeA NodeB rows with SECTIONS), or a `dialect moordyn` or "
           "`dialect cabledyn` option: the dialect decides node channel numbering, the FairTen end and defaults");
    d_.dialect = stock ? Dialect::moordyn : Dialect::cabledyn;
  }

  /// MoorDyn's defaults where CableDyn's differ, each noted.
  void moordyn_defaults() {
    Options& o = d_.options;
    const std::string at = where(file_, d_.lines.empty() ? last_line_ : d_.lines.front().line);
    std::string applied;
    if (!o.line_of("kBot")) {
      o.kBot = 3e6;
      applied += "kBot 3e6";
    }
    if (!o.line_of("cBot")) {
      o.cBot = 3e5;
      applied += std::string(applied.empty() ? "" : ", ") + "cBot 3e5";
    }
    if (!o.line_of("WriteUnits")) o.WriteUnits = true;
    // Without a positive WtrDpth MoorDyn puts the seabed at the deepest point; a point below
    // the given seabed lowers it to that point.
    double deepest = 0;
    int deepest_id = 0;
    for (const PointRecord& p : d_.points)
      if (-p.r[2] > deepest) deepest = -p.r[2], deepest_id = p.id;
    const bool explicit_none = o.line_of("WtrDpth") && !o.WtrDpth;
    if (!explicit_none) {
      const double given = o.WtrDpth.value_or(0);
      if (deepest > given) {
        o.WtrDpth = deepest;
        d_.notes.push_back(where(file_, o.line_of("WtrDpth") ? o.line_of("WtrDpth") : d_.points.front().line) +
                           ": MoorDyn deck: " +
                           (given > 0 ? "point " + std::to_string(deepest_id) + " lies below WtrDpth = " + number_text(given) + ": "
                                      : std::string("no positive WtrDpth: ")) +
                           "the seabed is at the deepest point, point " + std::to_string(deepest_id) + ", WtrDpth = " +
                           number_text(deepest) + " (MoorDyn's rule)");
      } else if (!(given > 0)) {
        o.WtrDpth.reset();
        d_.notes.push_back(at + ": MoorDyn deck: no positive WtrDpth and no point below z = 0: no seabed");
      }
    }
    if (!applied.empty())
      d_.notes.push_back(at + ": MoorDyn deck (7-column LINES): MoorDyn's defaults " + applied +
                         "; node channels count from 0 at End A, FairTen<L> is End B's force and AnchTen<L> End A's");
    else
      d_.notes.push_back(at + ": MoorDyn deck (7-column LINES): node channels count from 0 at End A, FairTen<L> is "
                              "End B's force and AnchTen<L> End A's");
  }

  void finish() {
    resolve_dialect();
    opts_.finish(last_line_, d_.dialect);
    if (d_.dialect == Dialect::moordyn) moordyn_defaults();
    Options& o = d_.options;
    if (o.WtrDpth && !(*o.WtrDpth > 0)) fail(file_, o.line_of("WtrDpth"), "WtrDpth", number_text(*o.WtrDpth), "> 0 or none");
    // EQUIVALENT BUOYANCY: rho_A = w / g + rhoW A (spec "Buoyancy and wetting").
    std::map<std::string, std::size_t> type_index;
    for (std::size_t i = 0; i < d_.line_types.size(); ++i) type_index[d_.line_types[i].type.name] = i;
    std::map<std::string, int> buoyed;
    for (const BuoyancyRecord& b : d_.buoyancy) {
      const auto it = type_index.find(b.type);
      const std::string what = col("EQUIVALENT BUOYANCY", 1, "LineType");
      if (it == type_index.end()) fail(file_, b.line, what, b.type, "a line type of LINE TYPES");
      if (buoyed.count(b.type))
        fail(file_, b.line, what, b.type, "one row per line type (first given at line " + std::to_string(buoyed[b.type]) + ")");
      buoyed[b.type] = b.line;
      if (!(o.g > 0)) fail(file_, b.line, what, b.type, "g > 0: a submerged weight needs gravity (g = 0)");
      const double rho_A = mass_from_submerged_weight(b.w, b.d, o.rhoW, o.g);
      if (!(std::isfinite(rho_A) && rho_A >= 0))
        fail(file_, b.line, col("EQUIVALENT BUOYANCY", 3, "SubmergedWeightPerMetre"), number_text(b.w),
             ">= -rhoW g pi d^2 / 4 = " + number_text(-o.rhoW * o.g * kPi * b.d * b.d / 4) +
                 " (a non-negative dry mass per metre)");
      LineType& ty = d_.line_types[it->second].type;
      ty.d = b.d;
      ty.rho_A = rho_A;
    }
    // TURBINES: one row per turbine; a Turbine<J> point's deck X Y Z are relative to turbine
    // J's reference position (MoorDyn-F's TurbineRefPos), which a TURBINES row gives; turbine
    // 1 without a row is at the origin (MoorDyn-F's one-turbine OpenFAST coupling), any other
    // needs its row.
    std::map<int, const TurbineRecord*> turbine_ref;
    for (const TurbineRecord& r : d_.turbines) {
      if (turbine_ref.count(r.id))
        fail(file_, r.line, col("TURBINES", 1, "ID"), std::to_string(r.id),
             "one row per turbine (first given at line " + std::to_string(turbine_ref[r.id]->line) + ")");
      turbine_ref[r.id] = &r;
    }
    // Turbine 1 away from the origin would be ambiguous with Coupled / Vessel points or coupled
    // bodies and rods, which MoorDyn-F counts as turbine 1's and places relative to its
    // reference too: refused.
    if (const auto t1 = turbine_ref.find(1); t1 != turbine_ref.end() && (t1->second->x != 0 || t1->second->y != 0)) {
      bool other = false;
      for (const PointRecord& p : d_.points) other = other || p.type == PointType::coupled || p.type == PointType::vessel;
      for (const BodyRecord& b : d_.bodies) other = other || b.type == BodyType::coupled || b.type == BodyType::coupled_pinned;
      for (const RodRecord& r : d_.rods)
        other = other || r.attachment == RodAttachment::coupled || r.attachment == RodAttachment::coupled_pinned;
      if (other)
        fail(file_, t1->second->line, col("TURBINES", 2, "X"), number_text(t1->second->x) + " " + number_text(t1->second->y),
             "0 0 for turbine 1 on a deck with Coupled or Vessel points, bodies or rods (MoorDyn-F counts them as "
             "turbine 1's, relative to its reference: write them as Turbine1 points, or put turbine 1 at the origin)");
    }
    std::set<int> used;
    for (PointRecord& p : d_.points) {
      if (p.type != PointType::turbine) continue;
      used.insert(p.attached);
      const auto it = turbine_ref.find(p.attached);
      if (it == turbine_ref.end()) {
        if (p.attached != 1)
          fail(file_, p.line, col("POINTS", 2, "Type"), "Turbine" + std::to_string(p.attached),
               "a TURBINES row `" + std::to_string(p.attached) +
                   " X Y` giving the turbine's reference position (its points' X Y Z are relative to it)");
        continue;
      }
      p.r[0] += it->second->x;
      p.r[1] += it->second->y;
    }
    for (const TurbineRecord& r : d_.turbines)
      if (!used.count(r.id))
        d_.notes.push_back(where(file_, r.line) + ": TURBINES row of turbine " + std::to_string(r.id) +
                           ": no Turbine" + std::to_string(r.id) + " point; the row moves nothing");
    // BODY HYDROSTATICS: an existing Free or CoupledPinned body, one row each.
    std::map<int, int> restored;
    for (const BodyHydrostaticsRecord& h : d_.body_hydrostatics) {
      const std::string what = col("BODY HYDROSTATICS", 1, "BodyID");
      if (h.body < 1 || h.body > static_cast<int>(d_.bodies.size()))
        fail(file_, h.line, what, std::to_string(h.body),
             "a body of BODIES (1.." + std::to_string(d_.bodies.size()) + ")");
      if (restored.count(h.body))
        fail(file_, h.line, what, std::to_string(h.body),
             "one row per body (first given at line " + std::to_string(restored[h.body]) + ")");
      restored[h.body] = h.line;
      const BodyType ty = d_.bodies[static_cast<std::size_t>(h.body - 1)].type;
      if (ty != BodyType::free && ty != BodyType::coupled_pinned)
        fail(file_, h.line, what, std::to_string(h.body),
             "a Free or CoupledPinned body (a Fixed or Coupled body's restoring moves nothing; its host carries it)");
    }
    if (d_.lines.empty()) {
      // MoorDyn accepts a deck of objects without lines; those objects are not implemented.
      if (!d_.unsupported.empty() && !ro_.accept_unsupported) throw_unsupported();
      if (d_.unsupported.empty()) fail(file_, last_line_, "LINES", "none", "at least one line");
    }
    std::map<int, std::size_t> point_index, line_index;
    for (std::size_t i = 0; i < d_.points.size(); ++i) point_index[d_.points[i].id] = i;
    for (std::size_t i = 0; i < d_.lines.size(); ++i) line_index[d_.lines[i].id] = i;
    // Sections.
    std::map<int, long long> segs;
    std::map<int, bool> hermite;
    for (const SectionRecord& s : d_.sections) {
      const auto li = line_index.find(s.line_id);
      if (li == line_index.end()) fail(file_, s.line, col("SECTIONS", 1, "LineID"), std::to_string(s.line_id), "a line ID of LINES");
      const LineRecord& l = d_.lines[li->second];
      const bool stock_row = l.stock_form && s.line == l.line;
      if (l.stock_form && !stock_row)
        fail(file_, s.line, col("SECTIONS", 1, "LineID"), std::to_string(s.line_id),
             "a line written as ID NodeA NodeB (line " + std::to_string(s.line_id) + " has its section in LINES, line " +
                 std::to_string(l.line) + ")");
      const auto ti = type_index.find(s.type);
      if (ti == type_index.end())
        fail(file_, s.line, stock_row ? col("LINES", 2, "LineType") : col("SECTIONS", 2, "LineType"), s.type,
             "a line type of LINE TYPES");
      long long& n = segs[s.line_id];
      n += s.segments;
      if (n > kMaxSegmentsPerLine)
        fail(file_, s.line, col("SECTIONS", 4, "NumSegs"), std::to_string(s.segments),
             "at most " + std::to_string(kMaxSegmentsPerLine) + " elements on line " + std::to_string(s.line_id));
      hermite[s.line_id] = hermite[s.line_id] || d_.line_types[ti->second].type.EI > 0;
    }
    // Lines.
    for (LineRecord& l : d_.lines) {
      const char* na = l.stock_form ? "AttachA" : "NodeA";
      const char* nb = l.stock_form ? "AttachB" : "NodeB";
      const int ca = l.stock_form ? 3 : 2;
      const auto pa = point_index.find(l.node_a), pb = point_index.find(l.node_b);
      if (l.node_a != 0 && pa == point_index.end())
        fail(file_, l.line, col("LINES", ca, na), std::to_string(l.node_a), "a point ID of POINTS");
      if (l.node_b != 0 && pb == point_index.end())
        fail(file_, l.line, col("LINES", ca + 1, nb), std::to_string(l.node_b), "a point ID of POINTS");
      if (l.node_a != 0 && l.node_a == l.node_b)
        fail(file_, l.line, col("LINES", ca + 1, nb), std::to_string(l.node_b), std::string("a point other than ") + na);
      if (!segs.count(l.id))
        fail(file_, l.line, "SECTIONS of line " + std::to_string(l.id), "none",
             "at least one SECTIONS row (LineID LineType Length NumSegs)");
      l.swapped = l.node_a != 0 && l.node_b != 0 && !d_.points[pa->second].moving() && d_.points[pb->second].moving();
    }
    // End connections.
    for (const EndConnectionRecord& e : d_.end_connections) {
      if (!line_index.count(e.line_id))
        fail(file_, e.line, col("END CONNECTIONS", 1, "LineID"), std::to_string(e.line_id), "a line ID of LINES");
      if (e.kind != EndConnectionKind::pinned && !hermite[e.line_id])
        fail(file_, e.line, col("END CONNECTIONS", 3, "Stiffness"), e.kind == EndConnectionKind::rigid ? "Rigid" : number_text(e.stiffness),
             "Pinned: line " + std::to_string(e.line_id) + " has EI = 0 in every section (a rotational "
             "connection needs a finite-EI line)");
    }
    // Outputs.
    const auto has_feature = [&](const char* prefix) {
      for (const auto& u : d_.unsupported)
        if (u.feature.rfind(prefix, 0) == 0) return true;
      return false;
    };
    for (const OutputRecord& r : d_.outputs) {
      const OutputChannel& c = r.channel;
      if (c.kind == ChannelKind::Body) {
        int family = 0, component = 0;
        if (c.object < 1 || c.object > static_cast<int>(d_.bodies.size()))
          fail(file_, r.line, "OUTPUTS channel", r.text,
               "a channel of an existing body (BODIES rows: " + std::to_string(d_.bodies.size()) + ")");
        if (!body_channel_quantity(c.quantity, family, component))
          fail(file_, r.line, "OUTPUTS channel", r.text,
               "a body quantity P, R, V, RV, A, RA, F or M with x, y or z (e.g. Body1Px)");
      } else if (c.kind == ChannelKind::Rod) {
        const bool rod = true;
        if (!has_feature(rod ? "rods" : "bodies"))
          fail(file_, r.line, "OUTPUTS channel", r.text,
               std::string("a channel of an existing ") + (rod ? "rod" : "body") + " (the deck has no " +
                   (rod ? "RODS" : "BODIES") + " rows)");
        unsupported(rod ? "rods (ROD TYPES, RODS)" : "bodies (BODIES)", r.line, "OUTPUTS channel", r.text);
      } else if (c.on_line()) {
        if (!line_index.count(c.line))
          fail(file_, r.line, "OUTPUTS channel", r.text, "a channel of an existing line (no line " + std::to_string(c.line) + ")");
        if (c.on_node() && d_.channel_node(c) == 0) {
          const int first = d_.first_node_number();
          fail(file_, r.line, "OUTPUTS channel", r.text,
               "a node in [" + std::to_string(first) + ", " + std::to_string(segs[c.line] + first) + "] of line " +
                   std::to_string(c.line) + " (" + (first == 0 ? "MoorDyn" : "CableDyn") + " deck: nodes count from " +
                   std::to_string(first) + " at End A)");
        }
      } else if (!point_index.count(c.point)) {
        fail(file_, r.line, "OUTPUTS channel", r.text, "a channel of an existing point (no point " + std::to_string(c.point) + ")");
      }
    }
    if (o.fairleadMotion) {
      bool any = false;
      for (const PointRecord& p : d_.points) any = any || p.moving();
      for (const BodyRecord& b : d_.bodies) any = any || b.type == BodyType::coupled || b.type == BodyType::coupled_pinned;
      for (const RodRecord& r : d_.rods)
        any = any || r.attachment == RodAttachment::coupled || r.attachment == RodAttachment::coupled_pinned;
      if (!any)
        fail(file_, o.line_of("fairleadMotion"), "fairleadMotion", "no Coupled/Vessel point or body",
             "a Coupled or Vessel point or body to move");
      if (rotational(o.fairleadMotion->mode) && !o.vesselRef)
        fail(file_, o.line_of("fairleadMotion"), "fairleadMotion mode", fairlead_mode_name(o.fairleadMotion->mode),
             "surge, sway or heave without a vessel (vesselRef x y z: a vessel turns about its reference point)");
    }
    if (o.vesselRef) {
      bool any = false;
      for (const PointRecord& p : d_.points) {
        any = any || p.moving();
        if (p.moving() && p.turbine() != 1)
          fail(file_, o.line_of("vesselRef"), "vesselRef", "a deck with points on Turbine" + std::to_string(p.turbine()),
               "points of turbine 1 only (the vessel is one rigid body; turbines 2, ... move apart: give their "
               "points a motionFile)");
      }
      if (!any)
        fail(file_, o.line_of("vesselRef"), "vesselRef", "no Coupled/Vessel point",
             "a Coupled or Vessel point for the vessel to carry");
    }
    if (!d_.unsupported.empty() && !ro_.accept_unsupported) throw_unsupported();
  }

  /// NotImplementedError for the first unsupported request, its limit listing every missing
  /// feature with the lines that ask for it.
  [[noreturn]] void throw_unsupported() const {
    throw *unsupported_error(file_, d_.unsupported, [](const UnsupportedRecord&) { return true; });
  }

  Deck& d_;
  ReadOptions ro_;
  const std::string& file_;
  OptionsParser opts_;
  Sec sec_ = Sec::closed;
  std::string sec_name_, sec_feature_;
  int sec_line_ = 0;
  bool sec_refused_ = false;
  bool data_seen_ = false;
  std::vector<std::string> lt_names_;  // the LINE TYPES header row (names), if any
  int lt_names_line_ = 0;
  std::optional<LineTypeHeader> lt_header_;
  bool title_pending_ = true;
  int last_line_ = 0;
  std::map<std::string, int> types_;
  std::map<int, int> points_, lines_;
  std::map<std::pair<int, int>, int> ends_;
};

}  // namespace detail

/// Parses a deck from its text; `file` names it in errors ("file:line"). Throws InputError,
/// or NotImplementedError (an InputError) naming every feature the deck asks for that the
/// library does not implement, unless `ro.accept_unsupported`.
inline Deck parse_deck(std::string_view text, std::string file = "deck", ReadOptions ro = {}) {
  Deck d;
  d.file = std::move(file);
  detail::DeckParser p(d, ro);
  p.run(text);
  return d;
}

/// Largest deck file read_deck reads [bytes].
inline constexpr std::uintmax_t kMaxDeckBytes = 256u << 20;

/// Reads and parses the deck at `path`. Throws InputError when the file cannot be read, is a
/// directory, a device or a pipe (not a regular file), or is larger than kMaxDeckBytes.
inline Deck read_deck(const std::string& path, ReadOptions ro = {}) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path, "deck file", "a directory", "a readable file");
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))
    throw InputError(path, "deck file", "not a regular file (a device or a pipe)", "a readable file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > kMaxDeckBytes)
    throw InputError(path, "deck file size", std::to_string(size) + " bytes", "at most 256 MB");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "deck file", "cannot be opened", "a readable file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_deck(ss.str(), path, ro);
}

namespace detail {

inline std::string wave_row(const WaveOption& w, const char* keyword, bool train) {
  const auto N = number_text;
  std::string s;
  switch (w.kind) {
    case WaveKind::none: return std::string("none ") + keyword;
    case WaveKind::airy: s = "airy"; break;
    case WaveKind::stream: s = "stream"; break;
    case WaveKind::jonswap: s = "jonswap"; break;
    case WaveKind::pierson_moskowitz: s = "pm"; break;
    case WaveKind::torsethaugen: s = "torsethaugen"; break;
    case WaveKind::ochi_hubble: s = "ochi"; break;
  }
  s += std::string(" ") + keyword;
  if (w.kind == WaveKind::ochi_hubble) {
    const auto& o = w.ochi;
    s += " " + N(o.Hs1) + " " + N(o.Tp1) + " " + N(o.lambda1) + " " + N(o.Hs2) + " " + N(o.Tp2) + " " + N(o.lambda2);
  } else {
    s += " " + N(w.H) + " " + N(w.T);
    if (w.kind == WaveKind::jonswap) s += " " + N(w.gamma);
  }
  s += " " + N(w.dir_deg);
  if (w.kind == WaveKind::airy && w.phase_deg != 0) s += " " + N(w.phase_deg);
  if (w.spectral()) {
    s += " " + N(w.spreading);
    if (train) s += " " + std::to_string(w.seed_offset);
  }
  return s;
}

}  // namespace detail

/// The deck in the canonical dialect: a banner and the title, LINE TYPES (CableDyn order,
/// EQUIVALENT BUOYANCY resolved) and EQUIVALENT BUOYANCY, POINTS (9 columns, 12 with a force),
/// LINES (ID NodeA NodeB Outputs), SECTIONS, END CONNECTIONS, OPTIONS (the dialect and every
/// typed option, value first; model rows `model keyword parameters`) and OUTPUTS (quoted
/// canonical channels). Numbers in their shortest round-trip form, so that
/// parse_deck(to_text(d)) == d. A deck read with unsupported requests (ReadOptions::
/// accept_unsupported) cannot be written: NotImplementedError.
inline std::string to_text(const Deck& d) {
  if (!d.unsupported.empty()) {
    const auto& u = d.unsupported.front();
    throw NotImplementedError(detail::where(d.file, u.line), u.quantity, u.value, u.feature,
                              "to_text writes decks the library can run");
  }
  using detail::number_text;
  using detail::token_text;
  const auto N = number_text;
  const std::string rule = "---------------------";
  std::ostringstream os;
  os << rule << " CableDyn Input File " << rule << "\n";
  if (!d.title.empty()) os << d.title << "\n";
  os << rule << " LINE TYPES " << rule << "\n";
  os << "TypeName Diam MassDenInAir EA BA/-zeta EI Cd_n Cd_t Ca_n Ca_t\n";
  os << "(-) (m) (kg/m) (N) (N-s/-) (N-m^2) (-) (-) (-) (-)\n";
  for (const auto& r : d.line_types) {
    const LineType& t = r.type;
    os << token_text(t.name) << " " << N(t.d) << " " << N(t.rho_A) << " " << N(t.EA) << " " << N(t.BA) << " "
       << N(t.EI) << " " << N(t.Cdn) << " " << N(t.Cdt) << " " << N(t.Can) << " " << N(t.Cat) << "\n";
  }
  if (!d.buoyancy.empty()) {
    os << rule << " EQUIVALENT BUOYANCY " << rule << "\n";
    os << "LineType Diam SubmergedWeightPerMetre\n(-) (m) (N/m)\n";
    for (const auto& b : d.buoyancy) os << token_text(b.type) << " " << N(b.d) << " " << N(b.w) << "\n";
  }
  os << rule << " POINTS " << rule << "\n";
  os << "ID Type X Y Z Mass Vol CdA Ca\n(-) (-) (m) (m) (m) (kg) (m^3) (m^2) (-)\n";
  for (const auto& p : d.points) {
    const char* type = p.type == PointType::fixed ? "Fixed" : p.type == PointType::coupled ? "Coupled" : "Vessel";
    os << p.id << " " << type << " " << N(p.r[0]) << " " << N(p.r[1]) << " " << N(p.r[2]) << " " << N(p.mass) << " "
       << N(p.volume) << " ";
    if (p.force != std::array<double, 3>{}) os << N(p.force[0]) << " " << N(p.force[1]) << " " << N(p.force[2]) << " ";
    os << N(p.CdA) << " " << N(p.Ca) << "\n";
  }
  os << rule << " LINES " << rule << "\n";
  os << "ID NodeA NodeB Outputs\n(-) (-) (-) (-)\n";
  for (const auto& l : d.lines) os << l.id << " " << l.node_a << " " << l.node_b << " " << token_text(l.outputs) << "\n";
  os << rule << " SECTIONS " << rule << "\n";
  os << "LineID LineType Length NumSegs\n(-) (-) (m) (-)\n";
  for (const auto& s : d.sections)
    os << s.line_id << " " << token_text(s.type) << " " << N(s.length) << " " << s.segments << "\n";
  if (!d.end_connections.empty()) {
    os << rule << " END CONNECTIONS " << rule << "\n";
    os << "LineID End Stiffness EzX EzY EzZ\n(-) (-) (N-m/rad) (-) (-) (-)\n";
    for (const auto& e : d.end_connections) {
      const std::string k = e.kind == EndConnectionKind::pinned ? "Pinned"
                            : e.kind == EndConnectionKind::rigid ? "Rigid"
                                                                 : N(e.stiffness);
      os << e.line_id << " " << (e.end ? "B" : "A") << " " << k << " " << N(e.direction[0]) << " "
         << N(e.direction[1]) << " " << N(e.direction[2]) << "\n";
    }
  }
  const Options& o = d.options;
  os << rule << " OPTIONS " << rule << "\n";
  os << (d.dialect == Dialect::moordyn ? "moordyn" : "cabledyn") << " dialect\n";
  os << N(o.g) << " g\n" << N(o.rhoW) << " rhoW\n";
  if (o.WtrDpth) os << N(*o.WtrDpth) << " WtrDpth\n";
  else os << "none WtrDpth\n";
  os << N(o.kBot) << " kBot\n" << N(o.cBot) << " cBot\n";
  if (o.dtM) os << N(*o.dtM) << " dtM\n";
  if (o.TMax) os << N(*o.TMax) << " TMax\n";
  os << N(o.dtOut) << " dtOut\n" << (o.WriteUnits ? 1 : 0) << " WriteUnits\n";
  os << (o.wave_stretching == WaveStretching::wheeler ? "wheeler" : "none") << " WaveStretching\n";
  os << N(o.rhoInf) << " rhoInf\n";
  const auto& ds = o.dynamic_solver;
  os << "dynamic_solver " << N(ds.rel_tol) << " " << N(ds.abs_tol) << " " << ds.max_iterations << " "
     << ds.max_backtracks << "\n";
  os << (o.modified_newton ? "True" : "False") << " modified_newton\n";
  os << (o.alpha_force_blend ? "True" : "False") << " alpha_force_blend\n";
  os << o.axial_quadrature_order << " axial_quadrature_order\n";
  os << o.bending_quadrature_order << " bending_quadrature_order\n";
  os << o.nModes << " nModes\n" << o.recovery_max_substeps << " recovery_max_substeps\n";
  os << (o.tensile_safety ? "True" : "False") << " tensile_safety\n";
  os << N(o.tensile_strain_tolerance) << " tensile_strain_tolerance\n";
  if (o.line_of("ei0_substeps") || !o.ei0_substeps) os << (o.ei0_substeps ? "auto" : "off") << " ei0_substeps\n";
  os << o.ei0_substep_max << " ei0_substep_max\n" << N(o.ei0_substep_angle) << " ei0_substep_angle\n";
  if (o.motionFile) os << token_text(*o.motionFile) << " motionFile\n";
  if (o.vesselRef) os << N((*o.vesselRef)[0]) << " vesselRef " << N((*o.vesselRef)[1]) << " " << N((*o.vesselRef)[2]) << "\n";
  if (o.fairleadMotion) {
    const auto& f = *o.fairleadMotion;
    const char* m = fairlead_mode_name(f.mode);
    os << m << " fairleadMotion " << N(f.amplitude) << " " << N(f.period) << " " << N(f.phase_deg) << "\n";
  }
  const auto& c = o.current;
  switch (c.model) {
    case CurrentModel::none: os << "none current\n"; break;
    case CurrentModel::uniform:
      os << "uniform current " << N(c.velocity[0]) << " " << N(c.velocity[1]) << " " << N(c.velocity[2]) << "\n";
      break;
    case CurrentModel::profile:
      os << "profile current";
      for (const auto& lv : c.profile) os << " " << N(lv.z) << " " << N(lv.u[0]) << " " << N(lv.u[1]) << " " << N(lv.u[2]);
      os << "\n";
      break;
    case CurrentModel::seastate: {
      const auto& s = c.seastate;
      os << "seastate current " << N(s.ss_speed) << " " << N(s.ss_dir_deg) << " " << N(s.ns_ref) << " "
         << N(s.ns_speed) << " " << N(s.ns_dir_deg) << " " << N(s.di_speed) << " " << N(s.di_dir_deg) << "\n";
      break;
    }
  }
  os << detail::wave_row(o.waves, "waves", false) << "\n";
  for (const auto& w : o.wavetrains) os << detail::wave_row(w, "wavetrain", true) << "\n";
  os << o.WaveSeed << " WaveSeed\n" << N(o.rampTime) << " rampTime\n";
  os << o.WaveComponents << " WaveComponents\n" << o.WaveDirections << " WaveDirections\n";
  os << o.StreamOrder << " StreamOrder\n";
  for (const auto& ig : o.ignored) os << token_text(ig.value) << " " << ig.keyword << "\n";
  os << rule << " OUTPUTS " << rule << "\n";
  for (const auto& r : d.outputs) os << "\"" << r.channel.name() << "\"\n";
  os << rule << " need this line " << rule << "\n";
  return os.str();
}

}  // namespace cabledyn::io
