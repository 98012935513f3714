// cabledyn: the deck reader and writer: MoorDyn v2 input files plus the CableDyn extensions
// (SECTIONS, END CONNECTIONS, EQUIVALENT BUOYANCY, option rows), as DECK_FORMAT.md specifies.
// docs/deck-format.md is the user guide (every section, column and option, with defaults).
//
// `parse_deck(text, file)` / `read_deck(path)` return a Deck whose every record keeps its
// source line, or throw InputError(object = "file:line", quantity = the field, value, limit).
// Records the library cannot model yet (viscoelastic or Syrope EA, torsion columns, VIV,
// Free/Connect/Body/Rod/Turbine points, rod ends, BODIES, RODS, FAILURE, ... and options such
// as adaptive_mesh True) are refused by name with their line; they are accepted silently
// only when they ask for nothing (their default value, `none`, `False`, 0, or an empty
// section). `to_text(deck)` writes the canonical dialect; reading it back gives an equal Deck
// (`operator==` compares content, not source lines).
//
// The reader is linear in the size of the text, never recurses on its input and throws only
// cabledyn::Error (a seeded mutation test in tests/io/ holds it to that).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
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

/// Point types the library implements (the others are refused).
enum class PointType { fixed, coupled, vessel };

/// A POINTS row `ID Type X Y Z [Mass Vol CdA Ca]`.
struct PointRecord {
  int id = 0;
  PointType type = PointType::fixed;
  std::array<double, 3> r{};  ///< position [m]
  double mass = 0;            ///< [kg] (Fixed only; 0 on Coupled/Vessel)
  double volume = 0;          ///< [m^3]
  double CdA = 0;             ///< [m^2]
  double Ca = 0;              ///< [-]
  int line = 0;
  /// Coupled and Vessel points move (prescribed motion); Fixed points are anchors.
  bool moving() const { return type != PointType::fixed; }
};

/// A LINES row: `ID NodeA NodeB [Outputs]` (sections from SECTIONS) or the stock MoorDyn
/// `ID LineType AttachA AttachB UnstrLen NumSegs [Outputs]` (one section, stored in
/// Deck::sections with this row's line).
struct LineRecord {
  int id = 0;
  int node_a = 0;            ///< point ID of End A as written
  int node_b = 0;            ///< point ID of End B as written
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

/// An OUTPUTS row.
struct OutputRecord {
  OutputChannel channel;
  int line = 0;
};

/// A parsed deck.
struct Deck {
  std::string file = "deck";  ///< the name errors use (the path for read_deck)
  std::string title;          ///< first free-text line after the opening banner
  std::vector<LineTypeRecord> line_types;
  std::vector<BuoyancyRecord> buoyancy;
  std::vector<PointRecord> points;
  std::vector<LineRecord> lines;
  std::vector<SectionRecord> sections;
  std::vector<EndConnectionRecord> end_connections;
  Options options;
  std::vector<OutputRecord> outputs;
  /// Notes for the run summary ("file:line: ..."): MoorDyn keywords accepted and ignored,
  /// dtM without TMax.
  std::vector<std::string> notes;

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
  return a.id == b.id && a.type == b.type && a.r == b.r && a.mass == b.mass && a.volume == b.volume &&
         a.CdA == b.CdA && a.Ca == b.Ca;
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
enum class Sec { closed, line_types, points, lines, sections, end_connections, buoyancy, options, outputs, unimplemented };

struct SectionAlias {
  const char* name;
  Sec sec;
};

// clang-format off
inline constexpr SectionAlias kSectionNames[] = {
  {"LINE TYPES", Sec::line_types}, {"LINETYPES", Sec::line_types}, {"LINE DICTIONARY", Sec::line_types},
  {"POINTS", Sec::points}, {"POINT LIST", Sec::points}, {"POINT PROPERTIES", Sec::points},
  {"CONNECTION PROPERTIES", Sec::points}, {"CONNECTS", Sec::points},
  {"LINES", Sec::lines}, {"LINE LIST", Sec::lines}, {"LINE PROPERTIES", Sec::lines},
  {"SECTIONS", Sec::sections},
  {"END CONNECTIONS", Sec::end_connections},
  {"EQUIVALENT BUOYANCY", Sec::buoyancy},
  {"OPTIONS", Sec::options}, {"SOLVER OPTIONS", Sec::options},
  {"OUTPUTS", Sec::outputs},
  // Later issues: accepted while empty, refused at their first data row.
  {"ATTACHMENTS", Sec::unimplemented}, {"CLUMPS", Sec::unimplemented},
  {"BODIES", Sec::unimplemented}, {"BODY LIST", Sec::unimplemented}, {"BODY PROPERTIES", Sec::unimplemented},
  {"ROD TYPES", Sec::unimplemented}, {"ROD DICTIONARY", Sec::unimplemented},
  {"RODS", Sec::unimplemented}, {"ROD LIST", Sec::unimplemented}, {"ROD PROPERTIES", Sec::unimplemented},
  {"FAILURE", Sec::unimplemented}, {"CONTROL", Sec::unimplemented}, {"SYROPE IC", Sec::unimplemented},
  {"EXTERNAL LOADS", Sec::unimplemented},
};
// clang-format on

/// Column names of the LINE TYPES orders.
inline constexpr const char* kCableDynColumns[] = {"Name", "Diam", "MassDenInAir", "EA", "BA/-zeta", "EI",
                                                   "Cd_n", "Cd_t", "Ca_n", "Ca_t"};
inline constexpr const char* kTorsionColumns[] = {"Name", "Diam", "MassDenInAir", "EA", "BA/-zeta", "EI", "GAs",
                                                  "GJ", "Irt", "Irn", "Cd_n", "Cd_t", "Ca_n", "Ca_t"};
inline constexpr const char* kMoorDynColumns[] = {"Name", "Diam", "MassDenInAir", "EA", "BA/-zeta", "EI", "Cd",
                                                  "Ca", "CdAx", "CaAx", "Cl", "dF", "cF"};

/// MoorDyn's per-line output letters.
inline constexpr std::string_view kLineOutputFlags = "pvaUDtcVKsdf";

/// The reader: one pass over the records, then the cross-record checks.
class DeckParser {
 public:
  DeckParser(Deck& d) : d_(d), file_(d.file), opts_(d.options, d.notes, d.file) {}

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
      if (sec_ == Sec::line_types && !data_seen_)
        for (const Token& k : t)
          if (iequals(k.text, "CdAx") || iequals(k.text, "CaAx")) moordyn_order_ = true;
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
      case Sec::unimplemented:
        fail(file_, line, "section " + sec_name_, t[0].text,
             "not implemented: the section must have no data rows (header at line " + std::to_string(sec_line_) + ")");
      default: break;
    }
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
        sec_line_ = line;
        data_seen_ = false;
        moordyn_order_ = false;
        title_pending_ = false;
        return;
      }
    fail(file_, line, "section", name,
         "a known section: LINE TYPES, POINTS, LINES, SECTIONS, END CONNECTIONS, EQUIVALENT BUOYANCY, OPTIONS, "
         "OUTPUTS (aliases in docs/deck-format.md)");
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
  /// A point reference in LINES: a point ID; rod ends (R<n>A / R<n>B) are refused.
  int point_ref(const Token& t, const std::string& what, int line) const {
    const std::string& s = t.text;
    if (s.size() >= 3 && upper_char(s[0]) == 'R' && is_digit(s[1]) &&
        (upper_char(s.back()) == 'A' || upper_char(s.back()) == 'B'))
      fail(file_, line, what, s, "a point ID: lines attached to rod ends are not implemented");
    return id(t, what, line);
  }
  void columns_at_most(const std::vector<Token>& t, std::size_t n, const char* section, int line,
                       const std::string& form) const {
    if (t.size() > n)
      fail(file_, line, std::string(section) + " column " + std::to_string(n + 1), t[n].text, "no extra column: " + form);
  }

  // ---- sections ----------------------------------------------------------------------------
  void line_type_row(const std::vector<Token>& t, int line) {
    const bool md = moordyn_order_;
    const std::size_t n = t.size();
    const char* const* names = md ? kMoorDynColumns : (n == 14 ? kTorsionColumns : kCableDynColumns);
    const std::string form = md ? "Name Diam MassDenInAir EA BA/-zeta EI Cd Ca CdAx CaAx [Cl dF cF] (MoorDyn order)"
                                : "Name Diam MassDenInAir EA BA/-zeta EI Cd_n Cd_t Ca_n Ca_t (CableDyn order; "
                                  "14 columns add GAs GJ Irt Irn after EI)";
    if (n < 10) fail(file_, line, col("LINE TYPES", static_cast<int>(n) + 1, names[n]), "missing", form);
    if (md) columns_at_most(t, 13, "LINE TYPES", line, form);
    else if (n != 10 && n != 14) columns_at_most(t, n >= 14 ? 14 : 10, "LINE TYPES", line, form);
    auto c = [&](int k) { return col("LINE TYPES", k + 1, names[k]); };
    LineTypeRecord r;
    r.line = line;
    LineType& ty = r.type;
    ty.name = t[0].text;
    if (ty.name.empty()) fail(file_, line, c(0), "\"\"", "a non-empty name");
    if (types_.count(ty.name))
      fail(file_, line, c(0), ty.name, "a unique name (first defined at line " + std::to_string(types_[ty.name]) + ")");
    ty.d = num_pos(t[1], c(1), line);
    ty.rho_A = num_nonneg(t[2], c(2), line);
    // EA: a number; the viscoelastic and Syrope forms are refused.
    const std::string& ea = t[3].text;
    if (istarts_with(ea, "SYROPE"))
      fail(file_, line, c(3), ea, "a number > 0: the Syrope polyester model is not implemented");
    if (ea.find('|') != std::string::npos)
      fail(file_, line, c(3), ea,
           "a number > 0: viscoelastic EA (Es|Ed, ElasticMod 2; Es|alphaMBL|vbeta, ElasticMod 3) is not implemented");
    ty.EA = num_pos(t[3], c(3), line);
    if (t[4].text.find('|') != std::string::npos)
      fail(file_, line, c(4), t[4].text, "a number: static/dynamic damping BA_s|BA_d is not implemented");
    ty.BA = num(t[4], c(4), line);
    ty.EI = num_nonneg(t[5], c(5), line);
    int k = 6;
    if (!md && n == 14) {
      for (; k < 10; ++k) {
        if (t[k].text.find('|') != std::string::npos)
          fail(file_, line, c(k), t[k].text, "0: torsion (and its coupling GJ|K|Bt) is not implemented");
        if (num(t[k], c(k), line) != 0) fail(file_, line, c(k), t[k].text, "0: torsion is not implemented");
      }
    }
    if (md) {
      ty.Cdn = num_nonneg(t[6], c(6), line);
      ty.Can = num_nonneg(t[7], c(7), line);
      ty.Cdt = num_nonneg(t[8], c(8), line);
      ty.Cat = num_nonneg(t[9], c(9), line);
      if (n > 10 && num(t[10], c(10), line) != 0)
        fail(file_, line, c(10), t[10].text, "0: vortex-induced vibration (Cl > 0) is not implemented");
      for (std::size_t j = 11; j < n; ++j) num(t[j], c(static_cast<int>(j)), line);
    } else {
      ty.Cdn = num_nonneg(t[k], c(k), line);
      ty.Cdt = num_nonneg(t[k + 1], c(k + 1), line);
      ty.Can = num_nonneg(t[k + 2], c(k + 2), line);
      ty.Cat = num_nonneg(t[k + 3], c(k + 3), line);
    }
    types_[ty.name] = line;
    d_.line_types.push_back(std::move(r));
  }

  void point_row(const std::vector<Token>& t, int line) {
    const char* names[] = {"ID", "Type", "X", "Y", "Z", "Mass", "Vol", "CdA", "Ca"};
    const std::string form = "ID Type X Y Z [Mass Vol CdA Ca]";
    const std::size_t n = t.size();
    if (n < 5 || (n > 5 && n < 9))
      fail(file_, line, col("POINTS", static_cast<int>(n) + 1, names[n]), "missing", form);
    columns_at_most(t, 9, "POINTS", line, form);
    auto c = [&](int k) { return col("POINTS", k + 1, names[k]); };
    PointRecord p;
    p.line = line;
    p.id = id(t[0], c(0), line);
    if (points_.count(p.id))
      fail(file_, line, c(0), t[0].text, "a unique ID (first defined at line " + std::to_string(points_[p.id]) + ")");
    p.type = point_type(t[1], c(1), line);
    for (int k = 0; k < 3; ++k) p.r[k] = num(t[2 + k], c(2 + k), line);
    if (n == 9) {
      p.mass = num_nonneg(t[5], c(5), line);
      p.volume = num_nonneg(t[6], c(6), line);
      p.CdA = num_nonneg(t[7], c(7), line);
      p.Ca = num_nonneg(t[8], c(8), line);
      if (p.moving())
        for (int k = 5; k < 9; ++k)
          if (num(t[k], c(k), line) != 0)
            fail(file_, line, c(k), t[k].text,
                 "0: the mass, volume and drag of a Coupled/Vessel point are not implemented");
    }
    points_[p.id] = line;
    d_.points.push_back(p);
  }

  PointType point_type(const Token& t, const std::string& what, int line) const {
    const std::string u = upper(t.text);
    if (u == "FIXED" || u == "FIX" || u == "ANCHOR") return PointType::fixed;
    if (u == "COUPLED" || u == "CPLD") return PointType::coupled;
    if (u == "VESSEL" || u == "VES" || u == "VESS") return PointType::vessel;
    const char* lim = nullptr;
    if (u == "FREE" || u == "CONNECT" || u == "CON" || u == "POINT")
      lim = "Fixed, Coupled or Vessel: Free/Connect points are not implemented";
    else if (u.rfind("BODY", 0) == 0)
      lim = "Fixed, Coupled or Vessel: points on bodies are not implemented";
    else if (u.rfind("ROD", 0) == 0 || (u.size() >= 2 && u[0] == 'R' && is_digit(u[1])))
      lim = "Fixed, Coupled or Vessel: points on rods are not implemented";
    else if (u.rfind("TURBINE", 0) == 0)
      lim = "Fixed, Coupled or Vessel: Turbine (FAST.Farm) points are not implemented";
    else if (u.find("PINNED") != std::string::npos)
      lim = "Fixed, Coupled or Vessel: pinned couplings are not implemented";
    else
      lim = "Fixed, Coupled or Vessel";
    fail(file_, line, what, t.text, lim);
  }

  void outputs_flags(const Token& t, const std::string& what, int line) const {
    if (t.text == "-") return;
    if (t.text.empty()) fail(file_, line, what, "\"\"", "- or MoorDyn line output letters (pvaUDtcVKsdf)");
    for (char ch : t.text)
      if (kLineOutputFlags.find(ch) == std::string_view::npos)
        fail(file_, line, what, t.text, "- or MoorDyn line output letters (pvaUDtcVKsdf)");
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
      l.node_a = point_ref(t[2], col("LINES", 3, "AttachA"), line);
      l.node_b = point_ref(t[3], col("LINES", 4, "AttachB"), line);
      SectionRecord s;
      s.line_id = l.id;
      s.type = t[1].text;
      s.length = num_pos(t[4], col("LINES", 5, "UnstrLen"), line);
      s.segments = segments(t[5], col("LINES", 6, "NumSegs"), line);
      s.line = line;
      if (n == 7) {
        outputs_flags(t[6], col("LINES", 7, "Outputs"), line);
        l.outputs = t[6].text;
      }
      d_.sections.push_back(s);
    } else {
      l.node_a = point_ref(t[1], col("LINES", 2, "NodeA"), line);
      l.node_b = point_ref(t[2], col("LINES", 3, "NodeB"), line);
      if (n == 4) {
        outputs_flags(t[3], col("LINES", 4, "Outputs"), line);
        l.outputs = t[3].text;
      }
    }
    lines_[l.id] = line;
    d_.lines.push_back(l);
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
    s.length = num_pos(t[2], col("SECTIONS", 3, "Length"), line);
    s.segments = segments(t[3], col("SECTIONS", 4, "NumSegs"), line);
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
          fail(file_, line, c(6), t[6].text, "Free or 0: torsional end restraint (condensed torsion) is not implemented");
        if (num(t[10], c(10), line) != 0)
          fail(file_, line, c(10), t[10].text, "0: pretwist (condensed torsion) is not implemented");
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
    b.d = num_pos(t[1], col("EQUIVALENT BUOYANCY", 2, "Diam"), line);
    b.w = num(t[2], col("EQUIVALENT BUOYANCY", 3, "SubmergedWeightPerMetre"), line);
    d_.buoyancy.push_back(b);
  }

  void output_row(const std::vector<Token>& t, int line) {
    if (t.size() > 1) fail(file_, line, "OUTPUTS column 2", t[1].text, "one channel per row");
    const auto ch = parse_channel(t[0].text);
    if (!ch)
      fail(file_, line, "OUTPUTS channel", t[0].text,
           "FairTen<L>, AnchTen<L>, FairIncl<L>, AnchIncl<L>, Ten<L>N<J>, Curv<L>N<J>, BendMom<L>N<J>, "
           "L<L>N<J>p{x,y,z}, Point<P>p{x,y,z} or Point<P>F{x,y,z}");
    d_.outputs.push_back(OutputRecord{*ch, line});
  }

  // ---- cross-record checks -----------------------------------------------------------------
  void finish() {
    opts_.finish(last_line_);
    const Options& o = d_.options;
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
      const double rho_A = mass_from_submerged_weight(b.w, b.d, o.rhoW, o.g);
      if (!(std::isfinite(rho_A) && rho_A >= 0))
        fail(file_, b.line, col("EQUIVALENT BUOYANCY", 3, "SubmergedWeightPerMetre"), number_text(b.w),
             ">= -rhoW g pi d^2 / 4 = " + number_text(-o.rhoW * o.g * kPi * b.d * b.d / 4) +
                 " (a non-negative dry mass per metre)");
      LineType& ty = d_.line_types[it->second].type;
      ty.d = b.d;
      ty.rho_A = rho_A;
    }
    if (d_.lines.empty()) fail(file_, last_line_, "LINES", "none", "at least one line");
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
      const auto pa = point_index.find(l.node_a), pb = point_index.find(l.node_b);
      const char* na = l.stock_form ? "AttachA" : "NodeA";
      const char* nb = l.stock_form ? "AttachB" : "NodeB";
      const int ca = l.stock_form ? 3 : 2;
      if (pa == point_index.end())
        fail(file_, l.line, col("LINES", ca, na), std::to_string(l.node_a), "a point ID of POINTS");
      if (pb == point_index.end())
        fail(file_, l.line, col("LINES", ca + 1, nb), std::to_string(l.node_b), "a point ID of POINTS");
      if (l.node_a == l.node_b)
        fail(file_, l.line, col("LINES", ca + 1, nb), std::to_string(l.node_b), std::string("a point other than ") + na);
      if (!segs.count(l.id))
        fail(file_, l.line, "SECTIONS of line " + std::to_string(l.id), "none",
             "at least one SECTIONS row (LineID LineType Length NumSegs)");
      l.swapped = !d_.points[pa->second].moving() && d_.points[pb->second].moving();
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
    for (const OutputRecord& r : d_.outputs) {
      const OutputChannel& c = r.channel;
      if (c.on_line()) {
        if (!line_index.count(c.line))
          fail(file_, r.line, "OUTPUTS channel", c.name(), "a channel of an existing line (no line " + std::to_string(c.line) + ")");
        if (c.on_node() && c.node > segs[c.line] + 1)
          fail(file_, r.line, "OUTPUTS channel", c.name(),
               "a node in [1, " + std::to_string(segs[c.line] + 1) + "] of line " + std::to_string(c.line));
      } else if (!point_index.count(c.point)) {
        fail(file_, r.line, "OUTPUTS channel", c.name(), "a channel of an existing point (no point " + std::to_string(c.point) + ")");
      }
    }
    if (o.fairleadMotion) {
      bool any = false;
      for (const PointRecord& p : d_.points) any = any || p.moving();
      if (!any) fail(file_, o.line_of("fairleadMotion"), "fairleadMotion", "no Coupled/Vessel point", "a Coupled or Vessel point to move");
    }
  }

  Deck& d_;
  const std::string& file_;
  OptionsParser opts_;
  Sec sec_ = Sec::closed;
  std::string sec_name_;
  int sec_line_ = 0;
  bool data_seen_ = false;
  bool moordyn_order_ = false;
  bool title_pending_ = true;
  int last_line_ = 0;
  std::map<std::string, int> types_;
  std::map<int, int> points_, lines_;
  std::map<std::pair<int, int>, int> ends_;
};

}  // namespace detail

/// Parses a deck from its text; `file` names it in errors ("file:line"). Throws InputError.
inline Deck parse_deck(std::string_view text, std::string file = "deck") {
  Deck d;
  d.file = std::move(file);
  detail::DeckParser p(d);
  p.run(text);
  return d;
}

/// Reads and parses the deck at `path`. Throws InputError when the file cannot be read.
inline Deck read_deck(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "deck file", "cannot be opened", "a readable file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_deck(ss.str(), path);
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
  if (w.spectral()) {
    s += " " + N(w.spreading);
    if (train) s += " " + std::to_string(w.seed_offset);
  }
  return s;
}

}  // namespace detail

/// The deck in the canonical dialect: a banner and the title, LINE TYPES (CableDyn order,
/// EQUIVALENT BUOYANCY resolved) and EQUIVALENT BUOYANCY, POINTS (9 columns), LINES (ID NodeA
/// NodeB Outputs), SECTIONS, END CONNECTIONS, OPTIONS (every typed option, value first;
/// model rows `model keyword parameters`) and OUTPUTS (quoted canonical channels). Numbers in
/// their shortest round-trip form, so that parse_deck(to_text(d)) == d.
inline std::string to_text(const Deck& d) {
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
       << N(p.volume) << " " << N(p.CdA) << " " << N(p.Ca) << "\n";
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
  os << N(o.g) << " g\n" << N(o.rhoW) << " rhoW\n";
  if (o.WtrDpth) os << N(*o.WtrDpth) << " WtrDpth\n";
  os << N(o.kBot) << " kBot\n" << N(o.cBot) << " cBot\n";
  if (o.dtM) os << N(*o.dtM) << " dtM\n";
  if (o.TMax) os << N(*o.TMax) << " TMax\n";
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
  if (o.fairleadMotion) {
    const auto& f = *o.fairleadMotion;
    const char* m = f.mode == MotionMode::surge ? "surge" : f.mode == MotionMode::sway ? "sway" : "heave";
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
