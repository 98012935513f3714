// cabledyn: the OPTIONS section of a deck: the typed options with their defaults, the row
// grammar, the MoorDyn keywords accepted and ignored, and the keywords of features the library
// does not implement (accepted at their default value, refused otherwise).
// DECK_FORMAT.md "OPTIONS" and "Main options and defaults"; the spec's "Waves" (WaveSeed,
// rampTime, WaveComponents, WaveDirections, StreamOrder, spectral trains), "Currents" (uniform,
// profile, SeaState CurrMod 1), "Time integration" (rhoInf, dynamic_solver, modified_newton,
// alpha_force_blend, recovery_max_substeps), "Modal analysis" (nModes), "Prescribed motion"
// (motionFile). docs/deck-format.md lists every keyword.
//
// Row grammar: `value keyword [description]` (MoorDyn's value + key; the last row of a
// keyword wins). Model rows may put their parameters after the keyword (`airy waves 2 8 0`) or
// before it (`airy 2 8 0 waves`), and any keyword may come first (`dynamic_solver 1e-8 1e-14
// 30 12`, `waves airy 2 8 0`). The keyword is the first token after the first that is neither
// numeric nor quoted; a description (anything after the values, usually starting with `-`)
// is ignored.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/io/detail/deck_lexer.hpp"

namespace cabledyn::io {

/// The deck dialect (io/deck.hpp): MoorDyn v2's rules (7-column LINES rows) or CableDyn's
/// (SECTIONS). It decides node channel numbering, the FairTen end and some defaults.
enum class Dialect { moordyn, cabledyn };

/// Wave kinematics of the linear seas (spec "Waves"): Wheeler stretching (the default) or
/// none (z' = z: the linear kinematics at the point, as MoorDyn evaluates them).
enum class WaveStretching { wheeler, none };

/// `dynamic_solver rel abs max_iter backtracks [rhoInf]` (spec "Time integration").
struct DynamicSolverSettings {
  double rel_tol = 1e-8;    ///< relative tolerance [-], > 0
  double abs_tol = 1e-14;   ///< absolute tolerance [N], >= 0
  int max_iterations = 30;  ///< Newton iterations per step, >= 1
  int max_backtracks = 12;  ///< line-search backtracks, >= 0
  friend bool operator==(const DynamicSolverSettings&, const DynamicSolverSettings&) = default;
};

/// The current models of the `current` option (spec "Currents").
enum class CurrentModel { none, uniform, profile, seastate };

/// One level of a `profile` current: elevation z [m] and velocity [m/s].
struct CurrentLevel {
  double z = 0;
  std::array<double, 3> u{};
  friend bool operator==(const CurrentLevel&, const CurrentLevel&) = default;
};

/// SeaState's CurrMod 1 current as the deck gives it (directions in degrees, counter-clockwise
/// from +x, the direction the water flows to).
struct SeaStateCurrentDeck {
  double ss_speed = 0;    ///< CurrSSV0 [m/s], >= 0
  double ss_dir_deg = 0;  ///< CurrSSDir [deg]
  double ns_ref = 20;     ///< CurrNSRef [m], > 0
  double ns_speed = 0;    ///< CurrNSV0 [m/s], >= 0
  double ns_dir_deg = 0;  ///< CurrNSDir [deg]
  double di_speed = 0;    ///< CurrDIV [m/s], >= 0
  double di_dir_deg = 0;  ///< CurrDIDir [deg]
  friend bool operator==(const SeaStateCurrentDeck&, const SeaStateCurrentDeck&) = default;
};

/// The `current` option: `none`, `uniform vx vy vz`, `profile z1 ux1 uy1 uz1 z2 ...` (at
/// least two levels, z strictly increasing) or `seastate SSV0 SSDir NSRef NSV0 NSDir DIV DIDir`.
struct CurrentOption {
  CurrentModel model = CurrentModel::none;
  std::array<double, 3> velocity{};  ///< uniform [m/s]
  std::vector<CurrentLevel> profile; ///< profile levels
  SeaStateCurrentDeck seastate;      ///< seastate
  friend bool operator==(const CurrentOption&, const CurrentOption&) = default;
};

/// Wave models of the `waves` option and spectral trains of `wavetrain` rows (spec "Waves").
enum class WaveKind { none, airy, stream, jonswap, pierson_moskowitz, torsethaugen, ochi_hubble };

/// Ochi-Hubble partitions as the deck gives them.
struct OchiHubbleDeck {
  double Hs1 = 0, Tp1 = 0, lambda1 = 1, Hs2 = 0, Tp2 = 0, lambda2 = 1;
  friend bool operator==(const OchiHubbleDeck&, const OchiHubbleDeck&) = default;
};

/// A wave model or spectral train:
/// `none`; `airy H T dir [phase]`; `stream H T dir`; `jonswap Hs Tp gamma dir [s]` (or `jonswap Hs Tp
/// dir`, gamma 3.3);
/// `pm Hs Tp dir [s]` (also `issc`, `pierson-moskowitz`); `torsethaugen Hs Tp dir [s]`;
/// `ochi Hs1 Tp1 lambda1 Hs2 Tp2 lambda2 dir [s]` (also `ochi-hubble`). Heights [m], periods
/// [s], dir [deg] (direction of travel, counter-clockwise from +x), s the cos-2s spreading
/// exponent (0: long-crested). A `wavetrain` row may end with an integer seed offset.
struct WaveOption {
  WaveKind kind = WaveKind::none;
  double H = 0;          ///< H (regular) or Hs [m]
  double T = 0;          ///< T (regular) or Tp [s]
  double gamma = 3.3;    ///< JONSWAP peak enhancement [-], >= 1
  double dir_deg = 0;    ///< direction of travel [deg]
  double phase_deg = 0;  ///< airy: phase of the elevation a cos(k x - omega t + phase) [deg]
  double spreading = 0;  ///< cos-2s exponent s [-], >= 0
  OchiHubbleDeck ochi;   ///< Ochi-Hubble partitions
  long long seed_offset = 0;  ///< added to WaveSeed for this train
  int line = 0;          ///< source line (not compared)

  /// Direction of travel [rad] (the sea module's convention).
  double beta() const { return dir_deg * kPi / 180.0; }
  bool spectral() const {
    return kind == WaveKind::jonswap || kind == WaveKind::pierson_moskowitz ||
           kind == WaveKind::torsethaugen || kind == WaveKind::ochi_hubble;
  }
  friend bool operator==(const WaveOption& a, const WaveOption& b) {
    return a.kind == b.kind && a.H == b.H && a.T == b.T && a.gamma == b.gamma && a.dir_deg == b.dir_deg &&
           a.phase_deg == b.phase_deg && a.spreading == b.spreading && a.ochi == b.ochi && a.seed_offset == b.seed_offset;
  }
};

/// Degrees of freedom of the harmonic fairlead motion: translations, and the rotations of a
/// prescribed vessel about its reference point (vesselRef).
enum class MotionMode { surge, sway, heave, roll, pitch, yaw };

/// True for the rotational modes (roll, pitch, yaw), which need a vessel (vesselRef).
inline bool rotational(MotionMode m) { return m == MotionMode::roll || m == MotionMode::pitch || m == MotionMode::yaw; }

/// The deck keyword of a fairleadMotion mode.
inline const char* fairlead_mode_name(MotionMode m) {
  switch (m) {
    case MotionMode::surge: return "surge";
    case MotionMode::sway: return "sway";
    case MotionMode::heave: return "heave";
    case MotionMode::roll: return "roll";
    case MotionMode::pitch: return "pitch";
    case MotionMode::yaw: return "yaw";
  }
  return "surge";
}

/// `fairleadMotion mode amplitude period [phase]`: every Coupled/Vessel point moves by
/// A sin(2 pi t / T + phase) along x (surge), y (sway) or z (heave) from its deck position
/// (amplitude [m], period [s], phase [deg]); with a vessel (vesselRef) the vessel turns by
/// that angle about its reference point in roll, pitch or yaw (amplitude [deg]) and carries
/// the points (spec "Prescribed vessel motion").
struct FairleadMotion {
  MotionMode mode = MotionMode::surge;
  double amplitude = 0;  ///< [m] (surge, sway, heave) or [deg] (roll, pitch, yaw), >= 0
  double period = 0;     ///< [s], > 0
  double phase_deg = 0;  ///< [deg]
  friend bool operator==(const FairleadMotion&, const FairleadMotion&) = default;
};

/// A request of a deck for a model the library does not implement (the reader records it and
/// goes on; see io/deck.hpp parse_deck).
struct UnsupportedRecord {
  std::string feature;   ///< the missing feature, e.g. "free points (Free/Connect)"
  int line = 0;          ///< source line
  std::string quantity;  ///< the field, e.g. "POINTS column 2 (Type)"
  std::string value;     ///< the text that asks for it
  std::string detail;    ///< what is accepted instead ("" when nothing is)
};

/// A MoorDyn keyword the implicit solver does not need, accepted and ignored with a note.
struct IgnoredOption {
  std::string keyword;  ///< canonical spelling
  std::string value;    ///< the value tokens as written, space separated
  std::string reason;   ///< why it is ignored
  int line = 0;         ///< source line (not compared)
  friend bool operator==(const IgnoredOption& a, const IgnoredOption& b) {
    return a.keyword == b.keyword && a.value == b.value;
  }
};

/// The typed options of a deck with DECK_FORMAT.md's defaults.
struct Options {
  std::optional<Dialect> dialect;       ///< [dialect] moordyn or cabledyn; absent: from the LINES form
  double g = kGravity;                  ///< [g] gravity [m/s^2], >= 0
  double rhoW = kRhoWater;              ///< [rhoW] water density [kg/m^3], >= 0
  std::optional<double> WtrDpth;        ///< [WtrDpth] water depth [m], > 0; absent: no seabed (CableDyn)
  double kBot = 1e5;                    ///< [kBot] seabed stiffness per unit area [Pa/m], >= 0
  double cBot = 1e4;                    ///< [cBot] seabed damping per unit area [Pa s/m], >= 0
  std::optional<double> dtM;            ///< [dtM] time step [s], > 0
  std::optional<double> TMax;           ///< [TMax] duration [s], >= 0; absent: static only
  double dtOut = 0;                     ///< [dtOut] output interval [s], >= 0 (0: every dtM)
  bool WriteUnits = false;              ///< [WriteUnits] a units row under the .out header (MoorDyn decks: true)
  double rhoInf = 0.4;                  ///< [rhoInf] spectral radius, in [0, 1]
  bool body_wetting_full = false;       ///< [bodyWetting] moordyn: a body's buoyancy at any elevation (phi = 1)
  /// [bodyAngles] orcaflex: the deck's body angles (BODIES r0 p0 y0), a Coupled body's or rod's
  /// coupled angle entries and the body channels' Roll Pitch Yaw in the OrcaFlex vessel
  /// convention R = Rz(yaw) Ry(pitch) Rx(roll); moordyn (default): MoorDyn's R = Rx Ry Rz.
  bool body_angles_orcaflex = false;
  bool body_fluid_inertia = true;       ///< [bodyHydro] moordyn: no fluid inertia on bodies in waves (as MoorDyn)
  bool body_substep_accuracy = true;    ///< [bodySubstep] accuracy (default): free bodies' steps in sub-steps with omega dt <= 0.28; none: dtM as given
  /// [bodyScheme] staggered: the free bodies and the rods pinned at a held pin stepped by the
  /// staggered central-difference predictor-corrector (dynamics/staggered_stepper.hpp; its
  /// sub-steps omega dt <= 0.4 always); monolithic (default): every DOF in one Newton.
  bool body_scheme_staggered = false;
  DynamicSolverSettings dynamic_solver; ///< [dynamic_solver]
  bool modified_newton = false;         ///< [modified_newton]
  bool alpha_force_blend = true;        ///< [alpha_force_blend]
  int axial_quadrature_order = 4;       ///< [axial_quadrature_order] 1..6
  int bending_quadrature_order = 4;     ///< [bending_quadrature_order] 1..6
  int nModes = 0;                       ///< [nModes] 0 (off) .. 1000
  int recovery_max_substeps = 1024;     ///< [recovery_max_substeps] 4 .. 65536
  bool tensile_safety = false;          ///< [tensile_safety] Hermite tensile audit (statics, march)
  double tensile_strain_tolerance = 2e-6;  ///< [tensile_strain_tolerance] > 0
  bool ei0_substeps = true;             ///< [ei0_substeps] auto (true) or off; False alpha_force_blend turns it off unless set
  int ei0_substep_max = 16;             ///< [ei0_substep_max] 4 .. 65536
  double ei0_substep_angle = 1.0;       ///< [ei0_substep_angle] [deg], in (0, 90]
  std::optional<std::string> motionFile;  ///< [motionFile] path, relative to the deck
  std::optional<FairleadMotion> fairleadMotion;  ///< [fairleadMotion]
  /// [vesselRef x y z] the reference point [m] of a rigid vessel that carries every Coupled /
  /// Vessel point (spec "Prescribed vessel motion"), at its reference pose (no rotation).
  std::optional<std::array<double, 3>> vesselRef;
  CurrentOption current;                ///< [current]
  WaveOption waves;                     ///< [waves]
  std::vector<WaveOption> wavetrains;   ///< [wavetrain] rows, in order (each row adds one)
  long long WaveSeed = 1;               ///< [WaveSeed] 1 .. 2^31 - 2
  double rampTime = 0;                  ///< [rampTime] [s], >= 0
  WaveStretching wave_stretching = WaveStretching::wheeler;  ///< [WaveStretching] wheeler or none
  int WaveComponents = 200;             ///< [WaveComponents] >= 1
  int WaveDirections = 9;               ///< [WaveDirections] >= 1
  int StreamOrder = 20;                 ///< [StreamOrder] 1 .. 100
  std::vector<IgnoredOption> ignored;   ///< MoorDyn keywords accepted and ignored
  std::map<std::string, int> source;    ///< canonical keyword -> line of the row that set it

  /// True when the deck asks for a time march (dtM and TMax given).
  bool dynamic() const { return dtM.has_value() && TMax.has_value(); }
  /// Number of steps TMax / dtM (0 for a static deck).
  long long steps() const { return dynamic() ? std::llround(*TMax / *dtM) : 0; }
  /// The line of the row that set `keyword` (0: default).
  int line_of(const std::string& keyword) const {
    const auto it = source.find(keyword);
    return it == source.end() ? 0 : it->second;
  }
  /// The Environment the options imply.
  Environment environment() const {
    Environment e;
    e.g = g;
    e.rho_w = rhoW;
    e.depth = WtrDpth;
    return e;
  }

  /// Equality of the option values (not of the source lines; the dialect is compared as the
  /// Deck's resolved dialect).
  friend bool operator==(const Options& a, const Options& b) {
    return a.dtOut == b.dtOut && a.WriteUnits == b.WriteUnits &&
           a.wave_stretching == b.wave_stretching && a.g == b.g && a.rhoW == b.rhoW && a.WtrDpth == b.WtrDpth && a.kBot == b.kBot && a.cBot == b.cBot &&
           a.dtM == b.dtM && a.TMax == b.TMax && a.rhoInf == b.rhoInf && a.dynamic_solver == b.dynamic_solver &&
           a.modified_newton == b.modified_newton && a.alpha_force_blend == b.alpha_force_blend &&
           a.axial_quadrature_order == b.axial_quadrature_order &&
           a.bending_quadrature_order == b.bending_quadrature_order && a.nModes == b.nModes &&
           a.recovery_max_substeps == b.recovery_max_substeps && a.tensile_safety == b.tensile_safety &&
           a.tensile_strain_tolerance == b.tensile_strain_tolerance && a.ei0_substeps == b.ei0_substeps &&
           a.ei0_substep_max == b.ei0_substep_max && a.ei0_substep_angle == b.ei0_substep_angle &&
           a.motionFile == b.motionFile &&
           a.fairleadMotion == b.fairleadMotion && a.vesselRef == b.vesselRef && a.current == b.current && a.waves == b.waves &&
           a.wavetrains == b.wavetrains && a.WaveSeed == b.WaveSeed && a.rampTime == b.rampTime &&
           a.WaveComponents == b.WaveComponents && a.WaveDirections == b.WaveDirections &&
           a.StreamOrder == b.StreamOrder && a.ignored == b.ignored;
  }
};

namespace detail {

/// How the reader treats a keyword.
enum class OptionRole {
  typed,          ///< parsed into Options
  ignored,        ///< MoorDyn keyword accepted and ignored with a note
  default_only,   ///< feature not implemented: accepted at its default value, refused otherwise
};

/// One keyword of the OPTIONS table.
struct OptionSpec {
  const char* names;     ///< canonical spelling, then aliases, separated by '|'
  OptionRole role;
  bool multi;            ///< takes several values (parameters may follow the keyword)
  const char* defaults;  ///< default_only: accepted values, '|' separated (numbers compare by value)
  const char* note;      ///< ignored: the reason; default_only: the feature that is not implemented
};

// clang-format off
inline constexpr OptionSpec kOptionSpecs[] = {
  // Implemented (typed) options.
  {"dialect", OptionRole::typed, false, "", ""},
  {"g|gravity", OptionRole::typed, false, "", ""},
  {"rhoW|rho|rho_w|WtrDnsty", OptionRole::typed, false, "", ""},
  {"WtrDpth|depth|WaterDepth", OptionRole::typed, false, "", ""},
  {"kBot|kb", OptionRole::typed, false, "", ""},
  {"cBot|cb", OptionRole::typed, false, "", ""},
  {"dtM|dt", OptionRole::typed, false, "", ""},
  {"TMax", OptionRole::typed, false, "", ""},
  {"dtOut", OptionRole::typed, false, "", ""},
  {"WriteUnits", OptionRole::typed, false, "", ""},
  {"WaveStretching", OptionRole::typed, false, "", ""},
  {"rhoInf", OptionRole::typed, false, "", ""},
  {"dynamic_solver", OptionRole::typed, true, "", ""},
  {"modified_newton", OptionRole::typed, false, "", ""},
  {"alpha_force_blend", OptionRole::typed, false, "", ""},
  {"axial_quadrature_order", OptionRole::typed, false, "", ""},
  {"bending_quadrature_order", OptionRole::typed, false, "", ""},
  {"nModes", OptionRole::typed, false, "", ""},
  {"recovery_max_substeps", OptionRole::typed, false, "", ""},
  {"tensile_safety", OptionRole::typed, false, "", ""},
  {"tensile_strain_tolerance", OptionRole::typed, false, "", ""},
  {"motionFile", OptionRole::typed, false, "", ""},
  {"fairleadMotion", OptionRole::typed, true, "", ""},
  {"vesselRef", OptionRole::typed, true, "", ""},
  {"current", OptionRole::typed, true, "", ""},
  {"waves", OptionRole::typed, true, "", ""},
  {"wavetrain", OptionRole::typed, true, "", ""},
  {"WaveSeed", OptionRole::typed, false, "", ""},
  {"rampTime", OptionRole::typed, false, "", ""},
  {"WaveComponents", OptionRole::typed, false, "", ""},
  {"WaveDirections", OptionRole::typed, false, "", ""},
  {"StreamOrder", OptionRole::typed, false, "", ""},
  {"cable_statics", OptionRole::default_only, false, "continuation",
   "mesh-sequenced cable statics (cable_statics sequenced)"},
  // MoorDyn keywords the implicit solver does not need: accepted and ignored with a note.
  {"dtIC|ICdt", OptionRole::ignored, false, "", "dynamic-relaxation IC setting; the initial state is a Newton static equilibrium"},
  {"TmaxIC|ICTmax", OptionRole::ignored, false, "", "dynamic-relaxation IC setting; the initial state is a Newton static equilibrium"},
  {"CdScaleIC|ICDfac", OptionRole::ignored, false, "", "dynamic-relaxation IC setting; the initial state is a Newton static equilibrium"},
  {"threshIC|ICthresh", OptionRole::ignored, false, "", "dynamic-relaxation IC setting; the initial state is a Newton static equilibrium"},
  {"ICgenDynamic|genDynamicIC", OptionRole::ignored, false, "", "dynamic-relaxation IC setting; the initial state is a Newton static equilibrium"},
  {"fileIC|ICfile", OptionRole::ignored, false, "", "MoorDyn's saved initial state is not read; the initial state is the Newton static equilibrium of the deck"},
  {"tScheme", OptionRole::ignored, false, "", "explicit time scheme; the march is the implicit generalised-alpha scheme"},
  {"CFL", OptionRole::ignored, false, "", "explicit-scheme step control; the implicit march takes dtM"},
  {"WriteLog", OptionRole::ignored, false, "", "MoorDyn log file; the driver writes its own run summary"},
  {"disableOutput", OptionRole::ignored, false, "", "MoorDyn console/output switch"},
  {"disableOutTime", OptionRole::ignored, false, "", "MoorDyn console/output switch"},
  {"OutSwitch", OptionRole::ignored, false, "", "MoorDyn-F main output switch"},
  {"Echo", OptionRole::ignored, false, "", "input echo"},
  {"dtWave", OptionRole::ignored, false, "", "wave-grid step of MoorDyn's WaveKin grids (a WaveKin other than 0 is not implemented)"},
  {"UnifyCurrentGrid", OptionRole::ignored, false, "", "MoorDyn's wave/current grid merging (WaveKin and Currents other than 0 are not implemented)"},
  {"bodyScheme", OptionRole::typed, false, "", ""},
  {"bodySubstep", OptionRole::typed, false, "", ""},
  {"bodyIC", OptionRole::default_only, false, "statics|static", "bodies started at their deck pose (bodyIC deck): they start at their static equilibrium"},
  {"bodyWetting", OptionRole::typed, false, "", ""},
  {"bodyAngles", OptionRole::typed, false, "", ""},
  {"bodyHydro", OptionRole::typed, false, "", ""},
  // Features the library does not implement: their default value is accepted silently.
  {"frictionMu", OptionRole::default_only, false, "none|0", "seabed friction"},
  {"frictionMuAxial", OptionRole::default_only, false, "none|0", "seabed friction"},
  {"frictionMuLateral", OptionRole::default_only, false, "none|0", "seabed friction"},
  {"FrictionCoefficient", OptionRole::default_only, false, "0", "seabed friction"},
  {"FricDamp|CV", OptionRole::default_only, false, "200", "seabed friction"},
  {"StatDynFricScale|MC", OptionRole::default_only, false, "1", "seabed friction"},
  {"MU_KT", OptionRole::default_only, false, "0", "seabed friction"},
  {"MU_KA", OptionRole::default_only, false, "0", "seabed friction"},
  {"staticsFriction", OptionRole::default_only, false, "none", "static seabed friction (as laid)"},
  {"asLaidTension", OptionRole::default_only, false, "0", "static seabed friction (as laid)"},
  {"layAzimuth", OptionRole::default_only, false, "none|default", "static seabed friction (as laid)"},
  {"adaptive_mesh", OptionRole::default_only, false, "False|0|no|off", "adaptive mesh refinement"},
  {"ei0_substeps", OptionRole::typed, false, "", ""},
  {"ei0_substep_max", OptionRole::typed, false, "", ""},
  {"ei0_substep_angle", OptionRole::typed, false, "", ""},
  {"WaterKin", OptionRole::default_only, false, "0|none", "water kinematics from files or SeaState (WaterKin)"},
  {"WaveKin", OptionRole::default_only, false, "0", "MoorDyn's water kinematics inputs (WaveKin)"},
  {"Currents", OptionRole::default_only, false, "0", "MoorDyn's current inputs (Currents)"},
  {"waveKin_rampT", OptionRole::default_only, false, "0", "MoorDyn's kinematics ramp (waveKin_rampT)"},
  {"SeafloorFile", OptionRole::default_only, false, "none|0", "bathymetry (SeafloorFile)"},
  {"inertialF", OptionRole::default_only, false, "0", "MoorDyn-F inertial coupled forces"},
  {"inertialF_rampT", OptionRole::default_only, false, "30", "MoorDyn-F inertial coupled forces"},
};
// clang-format on

/// The spec of a keyword (case-insensitive, aliases included), or nullptr.
inline const OptionSpec* find_option(std::string_view word) {
  for (const OptionSpec& s : kOptionSpecs) {
    std::string_view names = s.names;
    while (!names.empty()) {
      const std::size_t bar = names.find('|');
      const std::string_view n = names.substr(0, bar);
      if (iequals(n, word)) return &s;
      if (bar == std::string_view::npos) break;
      names.remove_prefix(bar + 1);
    }
  }
  return nullptr;
}

/// Canonical spelling of a spec (its first name).
inline std::string canonical(const OptionSpec& s) {
  const std::string_view n = s.names;
  return std::string(n.substr(0, n.find('|')));
}

/// True when `value` is one of the '|' separated defaults: words compare case-insensitively,
/// numbers by value.
inline bool is_default_value(std::string_view value, std::string_view defaults) {
  const auto num = to_double(value);
  while (true) {
    const std::size_t bar = defaults.find('|');
    const std::string_view d = defaults.substr(0, bar);
    if (iequals(d, value)) return true;
    if (num) {
      const auto dn = to_double(d);
      if (dn && *dn == *num) return true;
    }
    if (bar == std::string_view::npos) return false;
    defaults.remove_prefix(bar + 1);
  }
}

/// The accepted values of a default-only keyword for a message: "a or b".
inline std::string accepted(std::string_view defaults) {
  std::string out;
  for (char c : defaults) {
    if (c == '|') out += " or ";
    else out += c;
  }
  return out;
}

/// Parses OPTIONS rows into an Options (the reader calls `row` for each row, then `finish`).
class OptionsParser {
 public:
  OptionsParser(Options& opt, std::vector<std::string>& notes, const std::string& file,
                std::vector<UnsupportedRecord>& unsupported)
      : o_(opt), notes_(notes), file_(file), unsupported_(unsupported) {}

  /// One OPTIONS record (its tokens, comments removed) at source line `line`.
  void row(const std::vector<Token>& t, int line) {
    if (t.empty()) return;
    line_ = line;
    const OptionSpec* spec = nullptr;
    std::string written;
    std::vector<Token> values;
    if (!t[0].quoted && (spec = find_option(t[0].text)) != nullptr) {
      // Keyword first: the next token, then the numbers that follow it.
      written = t[0].text;
      std::size_t i = 1;
      if (i < t.size() && t[i].text != "-") values.push_back(t[i++]);
      while (i < t.size() && looks_numeric(t[i].text)) values.push_back(t[i++]);
      if (values.empty()) fail(file_, line, canonical(*spec), "missing", "a value after the keyword");
      if (!spec->multi && values.size() > 1)
        fail(file_, line, canonical(*spec), values[1].text, "one value (column " + std::to_string(values[1].column) + ")");
    } else {
      std::size_t k = 1;
      while (k < t.size() && (t[k].quoted || looks_numeric(t[k].text))) ++k;
      if (k >= t.size() || t[k].text == "-")
        fail(file_, line, "OPTIONS keyword", t[0].text, "a row `value keyword [description]`");
      written = t[k].text;
      spec = find_option(written);
      if (!spec) fail(file_, line, "OPTIONS keyword", written, "a known option (docs/deck-format.md lists them)");
      values.assign(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(k));
      std::size_t j = k + 1;
      std::vector<Token> after;
      while (j < t.size() && looks_numeric(t[j].text)) after.push_back(t[j++]);
      if (spec->multi) {
        if (values.size() > 1 && !after.empty())
          fail(file_, line, canonical(*spec), after[0].text,
               "parameters on one side of the keyword only (column " + std::to_string(after[0].column) + ")");
        values.insert(values.end(), after.begin(), after.end());
      } else if (values.size() > 1) {
        fail(file_, line, canonical(*spec), values[1].text, "one value before the keyword");
      }
    }
    apply(*spec, values);
  }

  /// Cross-option checks once every row is read.
  void finish(int last_line, Dialect dialect) {
    const auto at = [&](const char* kw) {
      const int l = o_.line_of(kw);
      return l > 0 ? l : last_line;
    };
    if (o_.TMax && !o_.dtM) fail(file_, at("TMax"), "dtM", "absent", "dtM > 0 with TMax");
    if (o_.dtM && !o_.TMax)
      notes_.push_back(where(file_, at("dtM")) + ": dtM without TMax: static run only" +
                       (dialect == Dialect::moordyn ? " (MoorDyn decks leave the run length to the host: give TMax, "
                                                      "or --tmax to the cabledyn driver)"
                                                    : ""));
    if (o_.dynamic()) {
      const double ratio = *o_.TMax / *o_.dtM;
      if (!(ratio <= 2147483647.0))
        fail(file_, at("TMax"), "TMax / dtM", number_text(ratio), "<= 2147483647 steps");
      const double n = std::round(ratio);
      if (std::fabs(*o_.TMax - n * *o_.dtM) > 1e-9 * std::max(*o_.TMax, *o_.dtM))
        fail(file_, at("TMax"), "TMax", number_text(*o_.TMax), "a multiple of dtM = " + number_text(*o_.dtM));
    }
    if (o_.motionFile && o_.fairleadMotion) {
      const int l = std::max(at("motionFile"), at("fairleadMotion"));
      fail(file_, l, "fairleadMotion", "with motionFile", "one of motionFile and fairleadMotion");
    }
    if (o_.waves.kind == WaveKind::stream && !o_.WtrDpth)
      fail(file_, at("waves"), "waves", "stream", "a finite WtrDpth (stream-function waves)");
    if (o_.current.model == CurrentModel::seastate && !o_.WtrDpth)
      fail(file_, at("current"), "current", "seastate", "a finite WtrDpth (CurrMod 1 current)");
    if (!o_.wavetrains.empty() && (o_.waves.kind == WaveKind::airy || o_.waves.kind == WaveKind::stream))
      fail(file_, o_.wavetrains.front().line, "wavetrain", "with a regular waves model",
           "waves none or a spectral model (jonswap, pm, torsethaugen, ochi)");
    const auto seed_ok = [&](const WaveOption& w) {
      const long long s = o_.WaveSeed + w.seed_offset;
      if (s < 1 || s > 2147483646)
        fail(file_, w.line > 0 ? w.line : at("WaveSeed"), "WaveSeed + seed offset", std::to_string(s), "in [1, 2147483646]");
    };
    if (o_.waves.spectral()) seed_ok(o_.waves);
    for (const auto& w : o_.wavetrains) seed_ok(w);
    // The synthesised sea: trains x directions x components terms, summed at every node each
    // step; beyond 2e6 the memory and the time of a step are no longer a mooring run's.
    double terms = 0;
    if (o_.waves.spectral()) terms += o_.waves.spreading > 0 ? o_.WaveDirections : 1;
    for (const auto& w : o_.wavetrains) terms += w.spreading > 0 ? o_.WaveDirections : 1;
    terms *= o_.WaveComponents;
    if (terms > 2e6)
      fail(file_, std::max(at("WaveComponents"), at("WaveDirections")), "WaveComponents x WaveDirections x trains",
           number_text(terms), "<= 2000000 wave components (the plausibility limit)");
  }

 private:
  [[noreturn]] void bad(const std::string& what, std::string_view value, const std::string& limit) const {
    fail(file_, line_, what, value, limit);
  }

  double number(const Token& t, const std::string& what) const {
    const auto v = to_double(t.text);
    if (!v) bad(what, t.text, "a finite number");
    return *v;
  }
  /// A number above lo (or at it) and at most hi: the limit "> lo" or ">= lo", or "in [lo,
  /// hi]" for a range; above a plausibility limit `plausible` (docs/deck-format.md, "Limits"),
  /// "<= plausible (the plausibility limit)".
  double number_in(const Token& t, const std::string& what, double lo, bool lo_open, double hi = HUGE_VAL,
                   double plausible = HUGE_VAL) const {
    const double v = number(t, what);
    const bool ok = (lo_open ? v > lo : v >= lo) && v <= hi;
    if (!ok) {
      std::string lim = (lo_open ? "> " : ">= ") + number_text(lo);
      if (hi != HUGE_VAL)
        lim = "in " + std::string(lo_open ? "(" : "[") + number_text(lo) + ", " + number_text(hi) + "]";
      bad(what, t.text, lim);
    }
    if (!(v <= plausible)) bad(what, t.text, "<= " + number_text(plausible) + " (the plausibility limit)");
    return v;
  }
  long long integer_in(const Token& t, const std::string& what, long long lo, long long hi) const {
    const auto v = to_integer(t.text);
    const std::string lim = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
    if (!v || *v < lo || *v > hi) bad(what, t.text, lim);
    return *v;
  }
  bool boolean(const Token& t, const std::string& what) const {
    const std::string& s = t.text;
    if (iequals(s, "true") || iequals(s, "yes") || iequals(s, "on") || s == "1") return true;
    if (iequals(s, "false") || iequals(s, "no") || iequals(s, "off") || s == "0") return false;
    bad(what, s, "True or False");
  }
  void count(const std::vector<Token>& v, std::size_t lo, std::size_t hi, const std::string& what,
             const std::string& form) const {
    if (v.size() < lo) bad(what, v.empty() ? std::string("missing") : v.back().text, "more values: " + form);
    if (v.size() > hi) bad(what, v[hi].text, "at most " + std::to_string(hi) + " values: " + form);
  }

  void apply(const OptionSpec& spec, const std::vector<Token>& v) {
    const std::string name = canonical(spec);
    if (spec.role == OptionRole::ignored) {
      IgnoredOption ig;
      ig.keyword = name;
      for (std::size_t i = 0; i < v.size(); ++i) ig.value += (i ? " " : "") + v[i].text;
      ig.reason = spec.note;
      ig.line = line_;
      notes_.push_back(where(file_, line_) + ": " + name + " = " + excerpt(ig.value) + " accepted and ignored: " + ig.reason);
      o_.ignored.push_back(std::move(ig));
      o_.source[name] = line_;
      return;
    }
    if (spec.role == OptionRole::default_only) {
      for (const Token& t : v)
        if (!is_default_value(t.text, spec.defaults)) {
          unsupported_.push_back(UnsupportedRecord{std::string(spec.note), line_, name, excerpt(t.text),
                                                   "accepted: " + accepted(spec.defaults)});
          break;
        }
      return;
    }
    o_.source[name] = line_;
    const Token& x = v.front();
    if (name == "dialect") {
      if (iequals(x.text, "moordyn")) o_.dialect = Dialect::moordyn;
      else if (iequals(x.text, "cabledyn")) o_.dialect = Dialect::cabledyn;
      else bad(name, x.text, "moordyn or cabledyn");
    } else if (name == "g") {
      o_.g = number_in(x, name, 0, false, HUGE_VAL, 100);
    } else if (name == "rhoW") {
      o_.rhoW = number_in(x, name, 0, false, HUGE_VAL, 2e4);
    } else if (name == "WtrDpth") {
      if (iequals(x.text, "none")) {
        o_.WtrDpth.reset();
      } else {
        const auto d = to_double(x.text);
        if (!d) bad(name, x.text, "a number > 0 or none (bathymetry files are not implemented)");
        if (!(*d >= 0)) bad(name, x.text, "> 0");
        if (*d > 2e4) bad(name, x.text, "<= 20000 m (the plausibility limit)");
        o_.WtrDpth = *d;
      }
    } else if (name == "kBot") {
      o_.kBot = number_in(x, name, 0, false, HUGE_VAL, 1e12);
    } else if (name == "cBot") {
      o_.cBot = number_in(x, name, 0, false, HUGE_VAL, 1e12);
    } else if (name == "dtM") {
      if (iequals(x.text, "none")) o_.dtM.reset();
      else o_.dtM = number_in(x, name, 0, true, HUGE_VAL, 3600);
    } else if (name == "TMax") {
      if (iequals(x.text, "none")) o_.TMax.reset();
      else o_.TMax = number_in(x, name, 0, false, HUGE_VAL, 1e9);
    } else if (name == "dtOut") {
      o_.dtOut = number_in(x, name, 0, false, HUGE_VAL, 1e9);
    } else if (name == "WriteUnits") {
      o_.WriteUnits = boolean(x, name);
    } else if (name == "WaveStretching") {
      if (iequals(x.text, "wheeler")) o_.wave_stretching = WaveStretching::wheeler;
      else if (iequals(x.text, "none") || iequals(x.text, "off")) o_.wave_stretching = WaveStretching::none;
      else bad(name, x.text, "wheeler or none");
    } else if (name == "rhoInf") {
      o_.rhoInf = number_in(x, name, 0, false, 1);
    } else if (name == "bodySubstep") {
      if (iequals(x.text, "accuracy")) o_.body_substep_accuracy = true;
      else if (iequals(x.text, "none")) o_.body_substep_accuracy = false;
      else bad(name, x.text, "accuracy (sub-steps with omega dt <= 0.28, default) or none (dtM as given)");
    } else if (name == "bodyScheme") {
      if (iequals(x.text, "staggered")) o_.body_scheme_staggered = true;
      else if (iequals(x.text, "monolithic")) o_.body_scheme_staggered = false;
      else bad(name, x.text, "monolithic (every DOF in one Newton, default) or staggered (bodies by central differences)");
    } else if (name == "bodyWetting") {
      if (iequals(x.text, "moordyn") || iequals(x.text, "full")) o_.body_wetting_full = true;
      else if (iequals(x.text, "sphere") || iequals(x.text, "cabledyn")) o_.body_wetting_full = false;
      else bad(name, x.text, "sphere (the equivalent sphere, default) or moordyn (phi = 1)");
    } else if (name == "bodyAngles") {
      if (iequals(x.text, "orcaflex")) o_.body_angles_orcaflex = true;
      else if (iequals(x.text, "moordyn")) o_.body_angles_orcaflex = false;
      else bad(name, x.text, "moordyn (R = Rx Ry Rz, default) or orcaflex (the OrcaFlex vessel convention R = Rz Ry Rx)");
    } else if (name == "bodyHydro") {
      if (iequals(x.text, "moordyn")) o_.body_fluid_inertia = false;
      else if (iequals(x.text, "cabledyn") || iequals(x.text, "full")) o_.body_fluid_inertia = true;
      else bad(name, x.text, "cabledyn (a body's fluid inertia in waves, default) or moordyn (none, as MoorDyn)");
    } else if (name == "dynamic_solver") {
      const char* form = "dynamic_solver rel abs max_iter backtracks [rhoInf]";
      count(v, 4, 5, name, form);
      DynamicSolverSettings s;
      s.rel_tol = number_in(v[0], "dynamic_solver rel", 0, true);
      s.abs_tol = number_in(v[1], "dynamic_solver abs", 0, false);
      s.max_iterations = static_cast<int>(integer_in(v[2], "dynamic_solver max_iter", 1, 1000000));
      s.max_backtracks = static_cast<int>(integer_in(v[3], "dynamic_solver backtracks", 0, 1000));
      o_.dynamic_solver = s;
      if (v.size() == 5) {
        o_.rhoInf = number_in(v[4], "dynamic_solver rhoInf", 0, false, 1);
        o_.source["rhoInf"] = line_;
      }
    } else if (name == "modified_newton") {
      o_.modified_newton = boolean(x, name);
    } else if (name == "alpha_force_blend") {
      o_.alpha_force_blend = boolean(x, name);
    } else if (name == "axial_quadrature_order") {
      o_.axial_quadrature_order = static_cast<int>(integer_in(x, name, 1, 6));
    } else if (name == "bending_quadrature_order") {
      o_.bending_quadrature_order = static_cast<int>(integer_in(x, name, 1, 6));
    } else if (name == "nModes") {
      o_.nModes = static_cast<int>(integer_in(x, name, 0, 1000));
    } else if (name == "recovery_max_substeps") {
      o_.recovery_max_substeps = static_cast<int>(integer_in(x, name, 4, 65536));
    } else if (name == "tensile_safety") {
      o_.tensile_safety = boolean(x, name);
    } else if (name == "tensile_strain_tolerance") {
      o_.tensile_strain_tolerance = number_in(x, name, 0, true);
    } else if (name == "ei0_substeps") {
      if (iequals(x.text, "auto")) o_.ei0_substeps = true;
      else if (iequals(x.text, "off") || iequals(x.text, "none")) o_.ei0_substeps = false;
      else o_.ei0_substeps = boolean(x, name);
    } else if (name == "ei0_substep_max") {
      o_.ei0_substep_max = static_cast<int>(integer_in(x, name, 4, 65536));
    } else if (name == "ei0_substep_angle") {
      o_.ei0_substep_angle = number_in(x, name, 0, true, 90);
    } else if (name == "motionFile") {
      if (iequals(x.text, "none") || x.text.empty()) o_.motionFile.reset();
      else o_.motionFile = x.text;
    } else if (name == "fairleadMotion") {
      fairlead(v);
    } else if (name == "vesselRef") {
      count(v, 3, 3, "vesselRef", "vesselRef x y z");
      std::array<double, 3> r{};
      for (int k = 0; k < 3; ++k) r[k] = number(v[k], "vesselRef");
      o_.vesselRef = r;
    } else if (name == "current") {
      current(v);
    } else if (name == "waves") {
      o_.waves = wave(v, false);
    } else if (name == "wavetrain") {
      WaveOption w = wave(v, true);
      if (!w.spectral()) bad(name, v.front().text, "a spectral model: jonswap, pm, torsethaugen or ochi");
      o_.wavetrains.push_back(w);
    } else if (name == "WaveSeed") {
      o_.WaveSeed = integer_in(x, name, 1, 2147483646);
    } else if (name == "rampTime") {
      o_.rampTime = number_in(x, name, 0, false, HUGE_VAL, 1e6);
    } else if (name == "WaveComponents") {
      o_.WaveComponents = static_cast<int>(integer_in(x, name, 1, 1000000));
    } else if (name == "WaveDirections") {
      o_.WaveDirections = static_cast<int>(integer_in(x, name, 1, 100000));
    } else if (name == "StreamOrder") {
      o_.StreamOrder = static_cast<int>(integer_in(x, name, 1, 100));
    } else {
      bad(name, x.text, "an option the reader handles (internal: keyword without a parser)");
    }
  }

  void fairlead(const std::vector<Token>& v) {
    const char* form = "fairleadMotion surge|sway|heave|roll|pitch|yaw amplitude period [phase]";
    const std::string& m = v.front().text;
    if (iequals(m, "none")) {
      count(v, 1, 1, "fairleadMotion", form);
      o_.fairleadMotion.reset();
      return;
    }
    FairleadMotion f;
    if (iequals(m, "surge")) f.mode = MotionMode::surge;
    else if (iequals(m, "sway")) f.mode = MotionMode::sway;
    else if (iequals(m, "heave")) f.mode = MotionMode::heave;
    else if (iequals(m, "roll")) f.mode = MotionMode::roll;
    else if (iequals(m, "pitch")) f.mode = MotionMode::pitch;
    else if (iequals(m, "yaw")) f.mode = MotionMode::yaw;
    else bad("fairleadMotion mode", m, "none, surge, sway, heave, roll, pitch or yaw");
    count(v, 3, 4, "fairleadMotion", form);
    f.amplitude = number_in(v[1], "fairleadMotion amplitude", 0, false);
    f.period = number_in(v[2], "fairleadMotion period", 0, true);
    if (v.size() == 4) f.phase_deg = number(v[3], "fairleadMotion phase");
    o_.fairleadMotion = f;
  }

  void current(const std::vector<Token>& v) {
    const std::string& m = v.front().text;
    CurrentOption c;
    if (iequals(m, "none")) {
      count(v, 1, 1, "current", "none current");
    } else if (iequals(m, "uniform")) {
      count(v, 4, 4, "current", "uniform current vx vy vz");
      c.model = CurrentModel::uniform;
      for (int k = 0; k < 3; ++k) c.velocity[k] = number_in(v[k + 1], "current uniform velocity", -50, false, 50, 50);
    } else if (iequals(m, "profile")) {
      const char* form = "profile current z1 ux1 uy1 uz1 z2 ux2 uy2 uz2 ...";
      if (v.size() < 9) count(v, 9, 9, "current", form);
      if ((v.size() - 1) % 4 != 0) bad("current profile", v.back().text, std::string("groups of four values: ") + form);
      c.model = CurrentModel::profile;
      for (std::size_t i = 1; i < v.size(); i += 4) {
        CurrentLevel lv;
        lv.z = number(v[i], "current profile z");
        for (int k = 0; k < 3; ++k) lv.u[k] = number_in(v[i + 1 + k], "current profile velocity", -50, false, 50, 50);
        if (!c.profile.empty() && !(lv.z > c.profile.back().z))
          bad("current profile z", v[i].text, "> " + number_text(c.profile.back().z) + " (strictly increasing)");
        c.profile.push_back(lv);
      }
    } else if (iequals(m, "seastate")) {
      count(v, 8, 8, "current", "seastate current SSV0 SSDir NSRef NSV0 NSDir DIV DIDir");
      c.model = CurrentModel::seastate;
      auto& s = c.seastate;
      s.ss_speed = number_in(v[1], "current seastate CurrSSV0", 0, false);
      s.ss_dir_deg = number(v[2], "current seastate CurrSSDir");
      s.ns_ref = number_in(v[3], "current seastate CurrNSRef", 0, true);
      s.ns_speed = number_in(v[4], "current seastate CurrNSV0", 0, false);
      s.ns_dir_deg = number(v[5], "current seastate CurrNSDir");
      s.di_speed = number_in(v[6], "current seastate CurrDIV", 0, false);
      s.di_dir_deg = number(v[7], "current seastate CurrDIDir");
    } else {
      bad("current model", m, "none, uniform, profile or seastate");
    }
    o_.current = c;
  }

  WaveOption wave(const std::vector<Token>& v, bool train) const {
    const std::string what = train ? "wavetrain" : "waves";
    const std::string& m = v.front().text;
    WaveOption w;
    w.line = line_;
    std::size_t base = 0;  // number of values after the model word before the optional ones
    if (iequals(m, "none")) {
      count(v, 1, 1, what, "none");
      return w;
    } else if (iequals(m, "airy") || iequals(m, "stream")) {
      w.kind = iequals(m, "airy") ? WaveKind::airy : WaveKind::stream;
      if (w.kind == WaveKind::airy) count(v, 4, 5, what, "airy H T dir [phase]");
      else count(v, 4, 4, what, "stream H T dir");
      w.H = number_in(v[1], what + " H", 0, true, HUGE_VAL, 200);
      w.T = number_in(v[2], what + " T", 0, true, HUGE_VAL, 3600);
      w.dir_deg = number(v[3], what + " dir");
      if (v.size() == 5) w.phase_deg = number(v[4], what + " phase");
      return w;
    } else if (iequals(m, "jonswap")) {
      w.kind = WaveKind::jonswap;
      const std::string form = "jonswap Hs Tp dir, or jonswap Hs Tp gamma dir [s]" + std::string(train ? " [seed_offset]" : "");
      count(v, 4, train ? 7 : 6, what, form);
      w.H = number_in(v[1], what + " Hs", 0, true, HUGE_VAL, 200);
      w.T = number_in(v[2], what + " Tp", 0, true, HUGE_VAL, 3600);
      if (v.size() == 4) {  // Hs Tp dir, gamma 3.3 (no optional values follow)
        base = 3;
        w.dir_deg = number(v[3], what + " dir");
      } else {
        base = 4;
        w.gamma = number_in(v[3], what + " gamma", 1, false);
        w.dir_deg = number(v[4], what + " dir");
      }
    } else if (iequals(m, "pm") || iequals(m, "issc") || iequals(m, "pierson-moskowitz") ||
               iequals(m, "torsethaugen")) {
      w.kind = iequals(m, "torsethaugen") ? WaveKind::torsethaugen : WaveKind::pierson_moskowitz;
      base = 3;
      count(v, 4, train ? 6 : 5, what, m + " Hs Tp dir [s]" + std::string(train ? " [seed_offset]" : ""));
      w.H = number_in(v[1], what + " Hs", 0, true, HUGE_VAL, 200);
      w.T = number_in(v[2], what + " Tp", 0, true, HUGE_VAL, 3600);
      w.dir_deg = number(v[3], what + " dir");
    } else if (iequals(m, "ochi") || iequals(m, "ochi-hubble")) {
      w.kind = WaveKind::ochi_hubble;
      base = 7;
      count(v, 8, train ? 10 : 9, what,
            "ochi Hs1 Tp1 lambda1 Hs2 Tp2 lambda2 dir [s]" + std::string(train ? " [seed_offset]" : ""));
      auto& o = w.ochi;
      o.Hs1 = number_in(v[1], what + " Hs1", 0, false);
      o.Tp1 = number_in(v[2], what + " Tp1", 0, true);
      o.lambda1 = number_in(v[3], what + " lambda1", 0, true);
      o.Hs2 = number_in(v[4], what + " Hs2", 0, false);
      o.Tp2 = number_in(v[5], what + " Tp2", 0, true);
      o.lambda2 = number_in(v[6], what + " lambda2", 0, true);
      if (!(o.Hs1 + o.Hs2 > 0)) bad(what + " Hs1 + Hs2", v[4].text, "> 0");
      w.dir_deg = number(v[7], what + " dir");
    } else {
      bad(what + " model", m, train ? "jonswap, pm, torsethaugen or ochi"
                                    : "none, airy, stream, jonswap, pm, torsethaugen or ochi");
    }
    if (v.size() > base + 1) w.spreading = number_in(v[base + 1], what + " spreading s", 0, false);
    if (v.size() > base + 2)
      w.seed_offset = integer_in(v[base + 2], what + " seed_offset", -2147483646, 2147483646);
    else if (train)
      w.seed_offset = static_cast<long long>(o_.wavetrains.size()) + 1;
    return w;
  }

  Options& o_;
  std::vector<std::string>& notes_;
  const std::string& file_;
  std::vector<UnsupportedRecord>& unsupported_;
  int line_ = 0;
};

}  // namespace detail

}  // namespace cabledyn::io
