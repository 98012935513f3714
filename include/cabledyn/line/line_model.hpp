// cabledyn: the load model of one line inside a mooring system (EI = 0 or cubic Hermite),
// every parameter of an EI = 0 line a template scalar.
// Spec "The EI = 0 tension element" (internal force and tangent), "The cubic-Hermite bending
// element" (nodes [r, m], m = r'), "Buoyancy and wetting" (submerged weight per unstretched
// metre, consistent nodal weights), "Seabed contact" (nodal penalty contact, stiffness
// kBot d l_trib, on the position DOFs), "Static equilibrium" (R = f_int - f_ext), "Attached
// objects and line ends" (the end nodes of a line are the positions of the objects it is
// attached to; a finite-EI end on a point is pinned in bending: its tangent is free).
//
// The model sees a line as its node vector x: N + 1 nodes of node_dofs() values each (3: the
// position r; 6 on a Hermite line: r and the tangent m), end nodes included. It counts x in
// slots of three values (slot k = x[3k, 3k + 3): node i's position is slot
// position_slot(i), a Hermite node's tangent the slot after it) and gives the residual
// R = f_int - f_ext on every slot and the tangent dR/dx as 3 x 3 slot blocks into a sink:
// `sink.add(i, j, B)` adds B to the block of slots (i, j). It knows nothing of DOF numbering:
// the system (mooring_system.hpp) routes each slot block to a line band, an object border or
// nowhere (a held end position).
//
// T is the scalar of the state and of the parameters alike (double, long double or a dual):
// with T a dual, EA, the section lengths, the mass and diameter of an EI = 0 line carry
// derivative parts, and a static solve in T gives the exact derivatives of its results with
// respect to them. A Hermite element's parameters are double (HermiteElementParams): a
// Hermite line whose parameters carry derivatives is refused (NotImplementedError); its state
// may be a dual (the sensitivities to the objects' positions and to other lines' parameters).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/pack.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/elements/element_params.hpp"
#include "cabledyn/elements/hermite_element.hpp"
#include "cabledyn/elements/tension_element.hpp"
#include "cabledyn/line/element_loads.hpp"
#include "cabledyn/line/element_residual.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/line/line_mass.hpp"
#include "cabledyn/line/line_type.hpp"
#include "cabledyn/seabed/contact.hpp"

namespace cabledyn {

/// A section of a line (a LINE TYPES row over a SECTIONS length) with its parameters in T.
template <class T>
struct SectionModel {
  std::string type_name = "line type";
  T length = T(0);   ///< unstretched length [m]
  int segments = 0;  ///< elements
  T EA = T(0);       ///< axial stiffness [N]
  T BA = T(0);       ///< axial damping [N s] (a negative value is resolved as -zeta, spec "Axial damping")
  T rho_A = T(0);    ///< dry mass per unstretched metre [kg/m]
  T d = T(0);        ///< hydrodynamic diameter [m]
  double EI = 0;     ///< bending stiffness [N m^2] (a section of EI > 0 makes the line a cubic-Hermite cable)
  double Cdn = 0, Cdt = 0, Can = 0, Cat = 0;  ///< Morison coefficients (double: not design parameters yet)

  /// The section of a double line description, its parameters lifted to T.
  static SectionModel from(const LineSection& s) {
    SectionModel m;
    m.type_name = s.type.name;
    m.length = T(s.length);
    m.segments = s.segments;
    m.EA = T(s.type.EA);
    m.BA = T(s.type.BA);
    m.rho_A = T(s.type.rho_A);
    m.d = T(s.type.d);
    m.EI = s.type.EI;
    m.Cdn = s.type.Cdn;
    m.Cdt = s.type.Cdt;
    m.Can = s.type.Can;
    m.Cat = s.type.Cat;
    return m;
  }

  /// The double description of this section (values of every parameter).
  LineSection value(const LineType& base) const {
    LineSection s;
    s.type = base;
    s.type.name = type_name;
    s.type.EA = static_cast<double>(value_of(EA));
    s.type.BA = static_cast<double>(value_of(BA));
    s.type.rho_A = static_cast<double>(value_of(rho_A));
    s.type.d = static_cast<double>(value_of(d));
    s.type.EI = EI;
    s.type.Cdn = Cdn;
    s.type.Cdt = Cdt;
    s.type.Can = Can;
    s.type.Cat = Cat;
    s.length = static_cast<double>(value_of(length));
    s.segments = segments;
    return s;
  }
};

/// The seabed a line model sees: a flat floor with its penalty parameters (none: no seabed).
struct SeabedModel {
  std::optional<double> z;  ///< floor elevation [m]
  SeabedParams params;      ///< kBot, cBot, blend width
};

/// True when x carries a nonzero derivative part (a seeded dual; false for a plain float).
template <class T>
bool carries_derivative(const T& x) {
  if constexpr (is_dual_v<T>) {
    const auto& d = x.derivatives();
    for (Eigen::Index i = 0; i < d.size(); ++i)
      if (value_of(d(i)) != 0 || carries_derivative(d(i))) return true;
    return carries_derivative(x.value());
  } else {
    (void)x;
    return false;
  }
}

/// The load model of a line in a system: elements (EI = 0, or cubic Hermite when a section
/// has EI > 0: the whole line is then a Hermite cable, its EI = 0 sections Hermite elements
/// without bending energy, as in line/line.hpp), submerged weights and seabed contact. Rebuild
/// it (rebuild()) after editing sections().
/// The fluid a line's dynamic loads see over a step (spec "Time integration": the fields are
/// sampled for the end of the step at the committed node positions and held over it): the
/// uniform current U (u null), or per node i the fluid velocity u[i] and local acceleration
/// a[i] (n_nodes() entries each; an element sees the velocities of its two nodes and the mean
/// of their accelerations: its Froude-Krylov and added-mass inertia force).
struct LineFluid {
  Vec3<double> U = Vec3<double>::Zero();
  const Vec3<double>* u = nullptr;
  const Vec3<double>* a = nullptr;
};

/// The loads and switches of one static evaluation of a line (spec "Static equilibrium"; the
/// stages and continuations of "EI = 0 path" and "Hermite path" vary them).
struct LineStaticLoads {
  double load_factor = 1;         ///< scales the weight, the buoyancy lost above the surface and the seabed stiffness (load continuation)
  double compression_ratio = -1;  ///< >= 0: the compressed branch r EA of every EI = 0 element (tension-only stages); negative: each element's own law
  const Vec3<double>* current = nullptr;       ///< a uniform steady current [m/s] (null: still water)
  const Vec3<double>* node_current = nullptr;  ///< or the current at each node (n_nodes() entries; a depth profile); not both
  double drag_factor = 1;         ///< scales the current's drag (drag brought in by load steps)
  bool wetting = true;            ///< the buoyancy lost above the surface (EI = 0: lumped on the element's nodes, Hermite: exact crossings), with its tangent
  std::optional<double> surface_z;  ///< the still-water level [m] (none: the model's, LineModel::surface_z())
};

template <class T>
class LineModel {
 public:
  LineModel(std::string name, std::vector<SectionModel<T>> sections, const Environment& env,
            SeabedModel seabed = {}, bool tension_only = true)
      : name_(std::move(name)), sections_(std::move(sections)), env_(env), seabed_(seabed),
        tension_only_(tension_only) {
    env_.validate();
    seabed_.params.validate(name_ + " seabed");
    rebuild();
  }

  /// The model of a double line description (its end positions are not used: the system
  /// places the end nodes on the objects the line is attached to; a Hermite line's ends are
  /// pinned in bending).
  static LineModel from_line(const Line& line, SeabedModel seabed = {}) {
    for (int e = 0; e < 2; ++e)
      if (line.hermite() && line.end(e).rotation != EndRotation::free)
        throw NotImplementedError(line.name() + (e == 0 ? " End A" : " End B"), "rotational connection",
                                  line.end(e).rotation == EndRotation::rigid ? "Rigid" : "spring",
                                  "pinned (free) in a system (clamped and spring cable ends are not in the system yet)");
    return elements_of(line, seabed);
  }

  /// The load model of a line description's elements, whatever its ends: the single-line
  /// solvers (line/line_statics_model.hpp) hold its end DOFs, Rigid ends and end springs
  /// themselves. Its EI scale is the line's (Line::set_EI_scale).
  static LineModel elements_of(const Line& line, SeabedModel seabed = {}) {
    std::vector<SectionModel<T>> s;
    for (const auto& sec : line.sections()) s.push_back(SectionModel<T>::from(sec));
    LineModel m(line.name(), std::move(s), line.environment(), seabed, line.options().tension_only);
    m.ei_scale_ = line.EI_scale();
    m.set_quadrature(line.options().axial_order, line.options().bending_order);
    return m;
  }

  const std::string& name() const { return name_; }
  const Environment& environment() const { return env_; }
  const SeabedModel& seabed() const { return seabed_; }
  /// The largest fraction in (0, 1] of the Newton update dx (node vector layout, as x) that
  /// takes no node from outside the seabed beyond its contact blend (contact_entry_fraction:
  /// such a node stops in the blend).
  template <class V>
  double contact_step_limit(const V& x, const V& dx) const {
    double a = 1;
    if (!seabed_.z) return a;
    for (std::size_t i = 0; i < n_nodes(); ++i) {
      const auto k = static_cast<Eigen::Index>(3 * position_slot(i) + 2);
      a = std::min(a, contact_entry_fraction(static_cast<double>(value_of(x(k))), static_cast<double>(value_of(dx(k))),
                                             *seabed_.z, seabed_.params.delta));
    }
    return a;
  }
  /// The sections; edit them (a design parameter, a dual seed), then call rebuild().
  std::vector<SectionModel<T>>& sections() { return sections_; }
  const std::vector<SectionModel<T>>& sections() const { return sections_; }

  /// The Gauss orders of a Hermite element's axial and bending energies (deck options
  /// axial_quadrature_order, bending_quadrature_order; 1..6); rebuilds.
  void set_quadrature(int axial_order, int bending_order) {
    for (int o : {axial_order, bending_order})
      if (o < 1 || o > 6) throw InputError(name_, "quadrature order", o, "in [1, 6]");
    const int a = axial_order_, b = bending_order_;
    axial_order_ = axial_order;
    bending_order_ = bending_order;
    try {
      rebuild();
    } catch (...) {
      axial_order_ = a, bending_order_ = b;
      throw;
    }
  }

  /// Validate the sections and rebuild the elements, weights and contact widths. Throws
  /// InputError naming the line, the section and the bad parameter, NotImplementedError for
  /// a Hermite line whose parameters carry derivatives.
  void rebuild() { b_ = build(); }  // a throw leaves the model as it was

  /// Scale every section's EI by lambda > 0 (the Hermite statics' continuation in EI, spec
  /// "Hermite path"); rebuilds. Throws InputError for a lambda that is not finite and > 0.
  void set_EI_scale(double lambda) {
    if (!(lambda > 0 && std::isfinite(lambda))) throw InputError(name_, "EI scale", lambda, "> 0 and finite");
    const double before = ei_scale_;
    ei_scale_ = lambda;
    try {
      rebuild();
    } catch (...) {
      ei_scale_ = before;
      throw;
    }
  }
  double EI_scale() const { return ei_scale_; }

 private:
  // What rebuild() derives from the sections, as one value (assigned whole: a throw while
  // building leaves the model as it was, and no derived field can be missed).
  struct Built {
    bool hermite = false;
    std::vector<BasicTensionElement<T>> elems;     // EI = 0 line
    std::vector<HermiteElement<LayoutRM>> helems;  // Hermite line
    std::vector<Mat<T, 12>> hmass;                 // Hermite: each element's consistent structural mass (constant)
    std::vector<T> w, d, L0, EA;
    std::vector<MorisonCoefficients> morison;
    std::vector<ElementLoads<T>> loads;        // EI = 0: each element's weight and Morison coefficients
    std::vector<ElementLoads<double>> hloads;  // Hermite: weight, rho g A and Morison coefficients (double)
    T compliance = T(0);                       // sum l0 / EA
    std::vector<char> pack_run;                // Hermite: elements e .. e + kLanes - 1 exist and are equal (one pack)
  };
  Built build() const {
    Built r;
    if (sections_.empty()) throw InputError(name_, "sections", 0, ">= 1");
    for (const auto& s : sections_) {
      if (!(s.EI >= 0 && std::isfinite(s.EI))) throw InputError(name_ + " section", "EI", s.EI, ">= 0");
      r.hermite = r.hermite || s.EI > 0;
    }
    for (std::size_t i = 0; i < sections_.size(); ++i) {
      const auto& s = sections_[i];
      const std::string obj = name_ + " section " + std::to_string(i + 1);
      if (s.segments < 1) throw InputError(obj, "NumSegs", s.segments, ">= 1");
      if (!(value_of(s.length) > 0 && is_finite(s.length))) throw InputError(obj, "length", value_of(s.length), "> 0");
      if (!(value_of(s.d) > 0 && is_finite(s.d))) throw InputError(obj, "Diam", value_of(s.d), "> 0");
      if (r.hermite && (carries_derivative(s.length) || carries_derivative(s.EA) || carries_derivative(s.BA) ||
                       carries_derivative(s.rho_A) || carries_derivative(s.d)))
        throw NotImplementedError(obj, "design parameter of a finite-EI line", "a seeded dual",
                                  "plain values (a Hermite element's parameters are double: its sensitivities would be lost)");
      const T L0 = s.length / T(s.segments);
      // Spec "Buoyancy and wetting" and "Axial damping" (a negative BA is a damping ratio).
      const T w = submerged_weight<T>(s.rho_A, s.d, env_.rho_w, env_.g);
      const T BA = resolve_axial_damping<T>(s.BA, L0, s.EA, s.rho_A);
      MorisonCoefficients mc;
      mc.d = static_cast<double>(value_of(s.d));
      mc.Cdn = s.Cdn;
      mc.Cdt = s.Cdt;
      mc.Can = s.Can;
      mc.Cat = s.Cat;
      mc.rho = env_.rho_w;
      mc.validate(obj);
      for (int k = 0; k < s.segments; ++k) {
        const std::string eo = name_ + " element " + std::to_string(r.L0.size() + 1);
        if (r.hermite) {
          HermiteElementParams p;
          p.L0 = static_cast<double>(value_of(L0));
          p.EA = static_cast<double>(value_of(s.EA));
          p.EI = s.EI * ei_scale_;
          p.BA = static_cast<double>(value_of(BA));
          p.rho_A = static_cast<double>(value_of(s.rho_A));
          p.axial_order = axial_order_;
          p.bending_order = bending_order_;
          r.helems.emplace_back(p, eo);
          r.hmass.push_back(r.helems.back().template mass<T>());
          const double dv = mc.d;
          r.hloads.push_back({static_cast<double>(value_of(w)), env_.rho_w * env_.g * kPi * dv * dv / 4, mc});
        } else {
          BasicTensionElementParams<T> p;
          p.L0 = L0;
          p.EA = s.EA;
          p.BA = BA;
          p.rho_A = s.rho_A;
          p.tension_only = tension_only_;
          r.elems.emplace_back(p, eo);
          // rho g A at the diameter's value: the buoyancy lost above the surface (a dual
          // diameter's derivative is not carried into it).
          r.loads.push_back({w, env_.rho_w * env_.g * kPi * mc.d * mc.d / 4, mc});
        }
        r.L0.push_back(L0);
        r.EA.push_back(s.EA);
        r.w.push_back(w);
        r.d.push_back(s.d);
        r.morison.push_back(mc);
        const T ce = L0 / s.EA;  // plain (duals: see element_residual.hpp)
        r.compliance += ce;
      }
    }
    // Runs of kLanes Hermite elements with equal parameters, weight and Morison coefficients
    // share one pack evaluation.
    r.pack_run.assign(r.L0.size(), 0);
    for (std::size_t e = 0; r.hermite && e + kLanes <= r.L0.size(); ++e) {
      bool same = true;
      for (std::size_t l = 1; l < kLanes && same; ++l) same = equal_hermite(r, e, e + l);
      r.pack_run[e] = same;
    }
    return r;
  }
  static bool equal_hermite(const Built& r, std::size_t a, std::size_t b) {
    const auto& p = r.helems[a].params();
    const auto& o = r.helems[b].params();
    const auto& la = r.hloads[a];
    const auto& lb = r.hloads[b];
    const auto& ma = la.morison;
    const auto& mb = lb.morison;
    return p.L0 == o.L0 && p.EA == o.EA && p.EI == o.EI && p.BA == o.BA && p.rho_A == o.rho_A &&
           p.axial_order == o.axial_order && p.bending_order == o.bending_order && la.w == lb.w &&
           la.rho_g_A == lb.rho_g_A && ma.d == mb.d && ma.Cdn == mb.Cdn && ma.Cdt == mb.Cdt && ma.Can == mb.Can &&
           ma.Cat == mb.Cat && ma.rho == mb.rho;
  }

 public:
  /// True for a cubic-Hermite cable (a section of EI > 0), false for an EI = 0 line.
  bool hermite() const { return b_.hermite; }
  /// Values per node: 3 (r) or 6 (Hermite: r, m).
  int node_dofs() const { return b_.hermite ? 6 : 3; }
  /// Half-bandwidth of a line's band in node-major order (5 EI = 0, 11 Hermite).
  int half_bandwidth() const { return 2 * node_dofs() - 1; }
  std::size_t n_elements() const { return b_.L0.size(); }
  std::size_t n_nodes() const { return b_.L0.size() + 1; }
  /// Number of slots (three values each) of the node vector.
  std::size_t n_slots() const { return n_nodes() * static_cast<std::size_t>(node_dofs() / 3); }
  /// The slot of node i's position (its tangent, on a Hermite line, is the next one).
  std::size_t position_slot(std::size_t i) const { return i * static_cast<std::size_t>(node_dofs() / 3); }
  /// Size of the node vector x.
  Eigen::Index size() const { return static_cast<Eigen::Index>(3 * n_slots()); }
  /// Unstretched length of element e [m].
  const T& L0(std::size_t e) const { return b_.L0[e]; }
  /// Axial stiffness of element e [N].
  const T& EA(std::size_t e) const { return b_.EA[e]; }
  /// Submerged weight per unstretched metre of element e [N/m].
  const T& w(std::size_t e) const { return b_.w[e]; }
  /// Outer diameter of element e [m] (its section's d).
  const T& diameter(std::size_t e) const { return b_.d[e]; }
  /// EI = 0 element e (an EI = 0 line).
  const BasicTensionElement<T>& element(std::size_t e) const { return b_.elems.at(e); }
  /// Hermite element e (a Hermite line).
  const HermiteElement<LayoutRM>& hermite_element(std::size_t e) const { return b_.helems.at(e); }
  /// The axial compliance sum l0 / EA over the elements [m/N] (1 / k_a, the line's axial
  /// stiffness as a spring).
  const T& axial_compliance() const { return b_.compliance; }
  /// A Hermite line's bending stiffness at its end `end` (0: End A, 1: End B), EI / l0 of the
  /// end element [N m/rad] (0 for an EI = 0 line).
  double end_bending_stiffness(int end) const {
    if (!b_.hermite) return 0;
    const auto& p = b_.helems[end == 0 ? 0 : b_.helems.size() - 1].params();
    return p.EI / p.L0;
  }
  /// A Hermite line's end tangent's own inertia in its end element's consistent mass,
  /// rho_A l0^3 / 105 [kg m^2] (0 for an EI = 0 line).
  double end_tangent_inertia(int end) const {
    if (!b_.hermite) return 0;
    const auto& p = b_.helems[end == 0 ? 0 : b_.helems.size() - 1].params();
    return p.rho_A * p.L0 * p.L0 * p.L0 / 105;
  }
  /// Total unstretched length [m].
  T length() const {
    T L = T(0);
    for (const auto& s : sections_) L += s.length;
    return L;
  }
  /// Total submerged weight [N].
  T weight() const {
    T W = T(0);
    for (std::size_t e = 0; e < n_elements(); ++e) W += b_.w[e] * L0(e);
    return W;
  }

  /// The double line description of this model's parameter values, with the given end
  /// positions (the static seeds of the system statics solve it line by line; a Hermite
  /// line's ends pinned in bending).
  /// With `reversed`, the line seen from End B: its sections in reverse order (endA is then
  /// the position of this model's End B). dirA / dirB (null: pinned in bending) clamp this
  /// model's End A / End B: a Rigid end connection, the tangent on the ray of that world
  /// direction along this model's arc length (reversed: negated, along the reversed line's);
  /// kA / kB > 0 make that end a rotational spring of that stiffness about the direction.
  Line value_line(const Vec3<double>& endA, const Vec3<double>& endB, bool reversed = false,
                  const Vec3<double>* dirA = nullptr, const Vec3<double>* dirB = nullptr, double kA = 0,
                  double kB = 0) const {
    std::vector<LineSection> s;
    LineType base;
    for (const auto& sec : sections_) s.push_back(sec.value(base));
    if (reversed) std::reverse(s.begin(), s.end());
    LineEnd a, b;
    a.position = endA;
    b.position = endB;
    const Vec3<double>* da = reversed ? dirB : dirA;
    const Vec3<double>* db = reversed ? dirA : dirB;
    const double ka = reversed ? kB : kA, kb = reversed ? kA : kB;
    if (da) a.rotation = ka > 0 ? EndRotation::spring : EndRotation::rigid, a.stiffness = ka,
            a.direction = reversed ? Vec3<double>(-*da) : *da;
    if (db) b.rotation = kb > 0 ? EndRotation::spring : EndRotation::rigid, b.stiffness = kb,
            b.direction = reversed ? Vec3<double>(-*db) : *db;
    LineOptions opt;
    opt.tension_only = tension_only_;
    opt.axial_order = axial_order_;
    opt.bending_order = bending_order_;
    return Line(name_, std::move(s), a, b, env_, opt);
  }

  /// Node i's position in the node vector x.
  Vec3<T> node(const VecX<T>& x, std::size_t i) const {
    return x.template segment<3>(static_cast<Eigen::Index>(3 * position_slot(i)));
  }

  /// Static residual R = f_int - f_ext on every slot (R sized size(), overwritten) and, with
  /// a sink, the tangent dR/dx as slot blocks (spec "Static equilibrium"; f_ext the consistent
  /// weight (EI = 0: w L0 / 2 on each node of an element; Hermite: also -+w L0^2 / 12 on the
  /// tangents' z) and the seabed's penalty reaction of stiffness kBot d l_trib, l_trib the
  /// node's tributary length). compression_ratio >= 0 gives the compressed branch of every
  /// EI = 0 element r EA (spec "EI = 0 path": the tension-only stages); negative: each
  /// element's own law (a Hermite element's axial law is two-sided: the ratio does not apply).
  /// A steady uniform current U (null: still water) adds its drag on the line at rest (spec
  /// "Static equilibrium": a steady current; EI = 0: on the chord, Hermite: at the drag points)
  /// with its position derivative in the tangent.
  template <class Sink>
  void static_residual(const VecX<T>& x, VecX<T>& R, Sink* sink, double compression_ratio = -1,
                       const Vec3<double>* current = nullptr) const {
    LineStaticLoads L;
    L.compression_ratio = compression_ratio;
    L.current = current;
    static_residual(x, R, sink, L);
  }

  /// The static residual with the loads and switches L: the weight, the buoyancy lost above
  /// the surface and the seabed stiffness scaled by L.load_factor (load continuation), the
  /// compressed branch of the tension-only stages, a uniform or nodal current with its drag
  /// scaled by L.drag_factor (EI = 0: on the wetted fraction of the chord, Hermite: at the
  /// wetted drag points), the buoyancy lost above L.surface_z on or off. The one static
  /// assembly of a line: the system statics, the single-line statics and the modal analysis
  /// (line/line_statics_model.hpp) call it.
  template <class Sink>
  void static_residual(const VecX<T>& x, VecX<T>& R, Sink* sink, const LineStaticLoads& L) const {
    check_static_loads(L);
    R.setZero(size());
    if (b_.hermite) {
      const Vec<T, 12> ve = Vec<T, 12>::Zero();
      for (std::size_t e = 0; e < n_elements(); ++e) {
        const auto o = static_cast<Eigen::Index>(6 * e);
        Vec<T, 12> fe;
        hermite_force(e, static_hermite_loads(e, L), x.template segment<12>(o), ve, static_sea(e, L), fe, sink, 1.0,
                      0.0);
        R.template segment<12>(o) += fe;
      }
    } else {
      for (std::size_t e = 0; e < n_elements(); ++e) {
        const Vec<T, 6> qe = x.template segment<6>(static_cast<Eigen::Index>(3 * e));
        Mat<T, 6> Ke;
        R.template segment<6>(static_cast<Eigen::Index>(3 * e)) +=
            tension_element_residual<T, T>(b_.elems[e], static_tension_loads(e, L), qe, nullptr, static_sea(e, L),
                                           L.compression_ratio, sink ? &Ke : nullptr, nullptr);
        if (sink) add_element_blocks<2>(*sink, e, Ke);
      }
    }
    add_contact(x, nullptr, R, sink, T(1), T(0), L.load_factor);
  }

  /// The drag of L's steady current on the line at rest at x, as an external load f_ext on
  /// every slot (f sized size(), overwritten; zero without a current): the drag term of
  /// static_residual alone, L.drag_factor applied. The statics freeze it at a base state
  /// (spec "EI = 0 path": the drag held constant over an energy line search).
  void current_drag(const VecX<T>& x, const LineStaticLoads& L, VecX<T>& f) const {
    check_static_loads(L);
    f.setZero(size());
    if (!L.current && !L.node_current) return;
    for (std::size_t e = 0; e < n_elements(); ++e) {
      const ElementSea<T> sea = static_sea(e, L);
      if (b_.hermite) {
        const auto o = static_cast<Eigen::Index>(6 * e);
        const Vec<T, 12> qe = x.template segment<12>(o), ve = Vec<T, 12>::Zero();
        Vec<T, 12> fe = Vec<T, 12>::Zero();
        subtract_hermite_drag<T>(qe, ve, sea, static_hermite_loads(e, L).morison, l0_value(e), fe, nullptr, 1.0, 0.0,
                                 hermite_dry_points<T>(qe, l0_value(e), sea.surface_z));
        f.template segment<12>(o) -= fe;
      } else {
        const auto o = static_cast<Eigen::Index>(3 * e);
        const Vec<T, 6> qe = x.template segment<6>(o);
        T fa = T(0), fb = T(0);
        const T frac = wetted_fraction<T>(qe(2), qe(5), sea.surface_z, &fa, &fb);
        if (!(value_of(frac) > 0)) continue;
        Vec<T, 6> fe = Vec<T, 6>::Zero();
        subtract_tension_drag<T>(qe, nullptr, sea, static_tension_loads(e, L).morison, frac, fa, fb, fe, nullptr,
                                 nullptr);
        f.template segment<6>(o) -= fe;
      }
    }
  }

  /// Morison coefficients of element e (at the diameter's value).
  const MorisonCoefficients& morison(std::size_t e) const { return b_.morison[e]; }

  /// Dynamic force r(x, v) = f_int + f_damp - f_ext on every slot (R sized size(),
  /// overwritten) and, with a sink, the blocks wq dr/dx + wv dr/dv (spec "Time integration":
  /// the equation of motion M a + r = 0). f_damp the Kelvin-Voigt axial damping ("Axial
  /// damping"); f_ext the consistent weight, Morison drag on the velocity relative to the
  /// fluid's ("Drag": the element's relative velocity, over its deformed length; a Hermite
  /// element's at its three drag points), the fluid inertia of a held fluid acceleration
  /// ("Added mass and fluid inertia": rho (1 + Ca) A du/dt normal, rho (1 + CaAx) A axial)
  /// and the seabed's penalty reaction with its damper ("Seabed contact").
  template <class Sink>
  void dynamic_residual(const VecX<T>& x, const VecX<T>& vx, const LineFluid& fluid, VecX<T>& R, Sink* sink,
                        const T& wq, const T& wv) const {
    R.setZero(size());
    if (b_.hermite) {
      const double wqd = static_cast<double>(value_of(wq)), wvd = static_cast<double>(value_of(wv));
      for (std::size_t e = 0; e < n_elements();) {
        // Runs of kPackLanes equal, wholly submerged elements in one pass on SIMD packs (double);
        // the order of the additions into R and the sink is the element order either way.
        if constexpr (std::is_same_v<T, double>) {
          if (pack_elements_ && b_.pack_run[e] && hermite_pack(e, x, vx, fluid, R, sink, wqd, wvd)) {
            e += kPackLanes<double>;
            continue;
          }
        }
        const auto o = static_cast<Eigen::Index>(6 * e);
        Vec<T, 12> fe;
        hermite_force(e, b_.hloads[e], x.template segment<12>(o), vx.template segment<12>(o),
                      element_sea(e, fluid, at_rest_), fe, sink, wqd, wvd);
        R.template segment<12>(o) += fe;
        ++e;
      }
    } else {
      Mat<T, 6> B;
      for (std::size_t e = 0; e < n_elements(); ++e) {
        const auto o = static_cast<Eigen::Index>(3 * e);
        R.template segment<6>(o) += element_force(e, x.template segment<6>(o), vx.template segment<6>(o),
                                                  element_sea(e, fluid, at_rest_), sink ? &B : nullptr, wq, wv);
        if (sink) add_element_blocks<2>(*sink, e, B);
      }
    }
    add_contact(x, &vx, R, sink, wq, wv);
  }

  /// Inertia M(x) a on every slot (Ma sized size(), overwritten): the consistent structural
  /// mass and the Morison added mass at the current configuration, and with a sink the blocks
  /// wm M + wq d(M(x) a)/dx (spec "Added mass and fluid inertia": the EI = 0 path assembles
  /// the added mass at the current configuration with its configuration derivative in the
  /// tangent). A Hermite line's consistent added mass is evaluated at the current
  /// configuration too; its configuration derivative is left out of the tangent (the residual
  /// is exact: the converged state is not affected). The system stepper holds a Hermite
  /// line's mass over a step instead, as the spec's Hermite path does (hermite_masses,
  /// held_inertia). The added mass is that of the wetted
  /// part below the still water (the EI = 0 tangent holds the wetted fraction).
  template <class Sink>
  void inertia(const VecX<T>& x, const VecX<T>& ax, VecX<T>& Ma, Sink* sink, const T& wm, const T& wq) const {
    Ma.setZero(size());
    if (b_.hermite) {
      for (std::size_t e = 0; e < n_elements(); ++e) {
        if constexpr (std::is_same_v<T, double>) {
          if (pack_elements_ && b_.pack_run[e] && hermite_inertia_pack(e, x, ax, Ma, sink, wm)) {
            e += kLanes - 1;
            continue;
          }
        }
        const auto o = static_cast<Eigen::Index>(6 * e);
        const Mat<T, 12> Me = hermite_mass(e, x.template segment<12>(o));
        Ma.template segment<12>(o) += Me * Vec<T, 12>(ax.template segment<12>(o));
        if (sink) add_element_blocks<4>(*sink, 2 * e, Mat<T, 12>(wm * Me));
      }
      return;
    }
    for (std::size_t e = 0; e < n_elements(); ++e) {
      const auto o = static_cast<Eigen::Index>(3 * e);
      const Vec<T, 6> qe = x.template segment<6>(o), ae = ax.template segment<6>(o);
      const Mat<T, 6> Me = element_mass(e, qe);
      Ma.template segment<6>(o) += Me * ae;
      if (sink)
        add_element_blocks<2>(*sink, e,
                              Mat<T, 6>(wm * Me + wq * tension_added_mass_jacobian<T>(qe, ae, b_.morison[e], l0_value(e), surface_z_)));
    }
  }

  /// A Hermite line's consistent element masses (structural plus added, 12 x 12 per element)
  /// at the configuration x into `held` (sized n_elements() by the caller): spec "Added mass
  /// and fluid inertia", the Hermite path evaluates the consistent added mass at the start of
  /// each step and holds it over the step (held_inertia()).
  void hermite_masses(const VecX<T>& x, std::vector<Mat<T, 12>>& held) const {
    for (std::size_t e = 0; e < n_elements(); ++e) {
      if constexpr (std::is_same_v<T, double>) {
        if (pack_elements_ && b_.pack_run[e] && hermite_mass_pack(e, x, &held[e])) {
          e += kLanes - 1;
          continue;
        }
      }
      held[e] = hermite_mass(e, x.template segment<12>(static_cast<Eigen::Index>(6 * e)));
    }
  }

  /// inertia() of a Hermite line on its held element masses (hermite_masses at the step
  /// start): Ma = M_held a on every slot (overwritten) and, with a sink, the blocks wm M_held
  /// (the held mass has no configuration derivative: the tangent is exact).
  template <class Sink>
  void held_inertia(const std::vector<Mat<T, 12>>& held, const VecX<T>& ax, VecX<T>& Ma, Sink* sink, const T& wm) const {
    Ma.setZero(size());
    for (std::size_t e = 0; e < n_elements(); ++e) {
      const auto o = static_cast<Eigen::Index>(6 * e);
      Ma.template segment<12>(o) += held[e] * Vec<T, 12>(ax.template segment<12>(o));
      if (sink) add_element_blocks<4>(*sink, 2 * e, Mat<T, 12>(wm * held[e]));
    }
  }

  /// EI = 0: the blocks w d(M_a(x) a)/dx of the added mass's configuration derivative for the
  /// accelerations ax into the sink (the added mass turns with the element chord; the wetted
  /// fraction is held); nothing on a Hermite line (its tangent leaves it out, see inertia()).
  template <class Sink>
  void added_mass_jacobian(const VecX<T>& x, const VecX<T>& ax, Sink& sink, const T& w) const {
    if (b_.hermite) return;
    for (std::size_t e = 0; e < n_elements(); ++e) {
      const auto o = static_cast<Eigen::Index>(3 * e);
      add_element_blocks<2>(sink, e,
                            Mat<T, 6>(w * tension_added_mass_jacobian<T>(x.template segment<6>(o), ax.template segment<6>(o),
                                                                         b_.morison[e], l0_value(e), surface_z_)));
    }
  }

  /// The mass matrix M(x) as slot blocks into the sink: the consistent structural mass and,
  /// with added_mass, the Morison added mass of the part below the still water at the
  /// configuration x (spec "Added mass and fluid inertia"; the matrix of inertia() without its
  /// configuration derivative). The modal analysis takes it (line_mass).
  template <class Sink>
  void mass(const VecX<T>& x, Sink& sink, bool added_mass = true) const {
    structural_mass(sink);
    if (added_mass) this->added_mass(x, sink);
  }

  /// The consistent structural mass (constant) as slot blocks into the sink.
  template <class Sink>
  void structural_mass(Sink& sink) const {
    for (std::size_t e = 0; e < n_elements(); ++e) {
      if (b_.hermite)
        add_element_blocks<4>(sink, 2 * e, b_.hmass[e]);
      else
        add_element_blocks<2>(sink, e, Mat<T, 6>(b_.elems[e].template mass<T>()));
    }
  }

  /// The Morison added mass of the part below the still water at x as slot blocks into the
  /// sink (EI = 0: on the wetted fraction of the chord; Hermite: the consistent integral at its
  /// wetted Gauss points, runs of equal submerged elements on SIMD packs in double).
  template <class Sink>
  void added_mass(const VecX<T>& x, Sink& sink) const {
    for (std::size_t e = 0; e < n_elements();) {
      if (b_.hermite) {
        if constexpr (std::is_same_v<T, double>) {
          if (pack_elements_ && b_.pack_run[e] && hermite_added_mass_pack(e, x, sink)) {
            e += kPackLanes<double>;
            continue;
          }
        }
        add_element_blocks<4>(sink, 2 * e,
                              hermite_added_mass<T>(x.template segment<12>(static_cast<Eigen::Index>(6 * e)),
                                                    b_.morison[e], l0_value(e), surface_z_));
      } else {
        add_element_blocks<2>(sink, e,
                              tension_added_mass<T>(x.template segment<6>(static_cast<Eigen::Index>(3 * e)), b_.morison[e],
                                                    l0_value(e), surface_z_));
      }
      ++e;
    }
  }

  /// The still-water level [m] the loads and the added mass see (default 0; a static
  /// evaluation may name its own in LineStaticLoads::surface_z).
  double surface_z() const { return surface_z_; }
  void set_surface_z(double z) {
    if (!std::isfinite(z)) throw InputError(name_, "still-water level", z, "finite");
    surface_z_ = z;
    at_rest_ = still_sea(z);
  }
  /// Runs of kPackLanes equal, wholly submerged Hermite elements evaluated on SIMD packs
  /// (double; default on; off: one element at a time, the same values to round-off).
  void set_pack_elements(bool on) { pack_elements_ = on; }

  /// The dynamic load the line exerts on the object at its end (0: End A, 1: End B) [N]:
  /// minus the end node's position rows of r(x, v) + M(x) a. It involves only the end element
  /// and the end node's contact, so it costs one element, not the line (spec "Tension and
  /// coupled loads"; a Hermite end on a point is pinned: no moment). With `tangent`, a Hermite
  /// line's load on the end tangent, minus its rows of r + M a (zero on an EI = 0 line).
  /// Without `inertia` the M a share is left out (ax unread): the line-end force of FairTen and
  /// AnchTen, minus the end node's rows of r(x, v) alone (DECK_FORMAT.md, "Outputs").
  Vec3<T> end_load(const VecX<T>& x, const VecX<T>& vx, const VecX<T>& ax, const LineFluid& fluid, int end,
                   Vec3<T>* tangent = nullptr, bool inertia = true) const {
    const std::size_t e = end == 0 ? 0 : n_elements() - 1, i = end == 0 ? 0 : n_nodes() - 1;
    Vec3<T> r, Ma;
    if (b_.hermite) {
      const auto o = static_cast<Eigen::Index>(6 * e), k = static_cast<Eigen::Index>(end == 0 ? 0 : 6);
      const Vec<T, 12> qe = x.template segment<12>(o);
      Vec<T, 12> fe;
      hermite_force<NoSink>(e, b_.hloads[e], qe, vx.template segment<12>(o), element_sea(e, fluid, at_rest_), fe,
                            nullptr, 0.0, 0.0);
      r = fe.template segment<3>(k);
      Vec<T, 12> M = Vec<T, 12>::Zero();
      if (inertia) M = hermite_mass(e, qe) * Vec<T, 12>(ax.template segment<12>(o));
      Ma = M.template segment<3>(k);
      // The load on the end tangent (a clamped end's, MooringSystem::line_end_moment).
      if (tangent) *tangent = -fe.template segment<3>(k + 3) - M.template segment<3>(k + 3);
    } else {
      if (tangent) tangent->setZero();
      const auto o = static_cast<Eigen::Index>(3 * e), k = static_cast<Eigen::Index>(end == 0 ? 0 : 3);
      const Vec<T, 6> qe = x.template segment<6>(o);
      r = element_force(e, qe, vx.template segment<6>(o), element_sea(e, fluid, at_rest_), nullptr, T(0), T(0))
              .template segment<3>(k);
      Ma.setZero();
      if (inertia) Ma = (element_mass(e, qe) * Vec<T, 6>(ax.template segment<6>(o))).template segment<3>(k);
    }
    if (seabed_.z) {
      const auto iz = static_cast<Eigen::Index>(3 * position_slot(i) + 2);
      r(2) -= node_contact(i, x(iz), vx(iz)).f;
    }
    return -r - Ma;
  }

  /// Total potential energy at node vector x [J]: strain energy, weight potential, a Hermite
  /// element's buoyancy lost above the still water (rho g A L0 integral of the dry height;
  /// its value: a dual's derivative part is not carried) and the seabed's penalty potential
  /// (the energy whose gradient is static_residual while no EI = 0 element reaches the
  /// surface: the buoyancy an EI = 0 element loses there is lumped on its end nodes, a load
  /// without a potential; see reaches_surface).
  T potential_energy(const VecX<T>& x, double compression_ratio = -1) const {
    LineStaticLoads L;
    L.compression_ratio = compression_ratio;
    return potential_energy(x, L);
  }

  /// The potential energy under the loads and switches L (the energy whose gradient is
  /// static_residual(x, R, sink, L) without a current, while no EI = 0 element loses buoyancy
  /// with L.wetting on; a Hermite element's lost buoyancy counts only with L.wetting).
  T potential_energy(const VecX<T>& x, const LineStaticLoads& L) const {
    check_static_loads(L);
    const double lf = L.load_factor;
    T E = T(0);
    for (std::size_t e = 0; e < n_elements(); ++e) {
      if (b_.hermite) {
        const Vec<T, 12> qe = x.template segment<12>(static_cast<Eigen::Index>(6 * e));
        E += b_.helems[e].template energy<T>(qe);
        E += hermite_weight_potential<T>(lf * b_.hloads[e].w, l0_value(e), qe);
        if (!L.wetting) continue;
        Vec<double, 12> qv, fw;
        for (int k = 0; k < 12; ++k) qv(k) = static_cast<double>(value_of(qe(k)));
        const double zs = L.surface_z.value_or(surface_z_);
        if (element_may_cross(qv, l0_value(e), zs))
          E += T(hermite_wetting_load(qv, lf * b_.hloads[e].rho_g_A, l0_value(e), zs, fw));
        continue;
      }
      const Vec<T, 6> qe = x.template segment<6>(static_cast<Eigen::Index>(3 * e));
      E += L.compression_ratio >= 0 ? b_.elems[e].template energy<T>(qe, L.compression_ratio)
                                    : b_.elems[e].template energy<T>(qe);
      const T w = T(lf) * b_.w[e];
      E += tension_weight_potential<T, T>(w, L0(e), qe);
    }
    if (seabed_.z)
      for (std::size_t i = 0; i < n_nodes(); ++i)
        E += node_contact(i, x(static_cast<Eigen::Index>(3 * position_slot(i) + 2)), T(0), lf).energy;
    return E;
  }

  /// True when a part of the line at node vector x may lie above the still water (an EI = 0
  /// element with a node above it; a Hermite element whose centreline bound reaches it): its
  /// buoyancy is lost there (spec "Buoyancy and wetting").
  bool reaches_surface(const VecX<T>& x) const {
    for (std::size_t e = 0; e < n_elements(); ++e) {
      if (b_.hermite) {
        Vec<double, 12> qv;
        for (int k = 0; k < 12; ++k) qv(k) = static_cast<double>(value_of(x(static_cast<Eigen::Index>(6 * e) + k)));
        if (element_may_cross(qv, l0_value(e), surface_z_)) return true;
      } else if (value_of(x(static_cast<Eigen::Index>(3 * e + 2))) > surface_z_ ||
                 value_of(x(static_cast<Eigen::Index>(3 * e + 5))) > surface_z_) {
        return true;
      }
    }
    return false;
  }
  /// True when an EI = 0 element of the line at x has a node above the still water (its lost
  /// buoyancy, lumped on its nodes, has no potential: potential_energy is then not the
  /// energy of the static residual).
  bool nonpotential_wetting(const VecX<T>& x) const { return !b_.hermite && reaches_surface(x); }

  /// The product d l_trib of node i's contact: the sum over its elements of d_e L0_e / 2.
  T contact_width_length(std::size_t i) const {
    T a = T(0);
    if (i > 0) a += T(0.5) * b_.d[i - 1] * L0(i - 1);
    if (i + 1 < n_nodes()) a += T(0.5) * b_.d[i] * L0(i);
    return a;
  }

  /// A Hermite element's own static end forces at x: f_int minus its consistent weight (no
  /// contact, no lost buoyancy, no current) on its two nodes' [r, m] values (the element
  /// end forces the node recovery reads, spec "Node tension, curvature and bend moment").
  Vec<T, 12> hermite_element_forces(const VecX<T>& x, std::size_t e) const {
    ElementSea<T> rest;
    rest.drag = false;
    rest.wetting = false;
    Vec<T, 12> g;
    hermite_element_residual<T>(b_.helems[e], ElementLoads<double>{b_.hloads[e].w, 0.0, {}},
                                Vec<T, 12>(x.template segment<12>(static_cast<Eigen::Index>(6 * e))),
                                Vec<T, 12>::Zero().eval(), rest, g, nullptr, 1.0, 0.0, nullptr);
    return g;
  }

  /// Tributary length of node i: half the unstretched lengths of its elements [m].
  T tributary(std::size_t i) const {
    T t = T(0);
    if (i > 0) t += T(0.5) * L0(i - 1);
    if (i + 1 < n_nodes()) t += T(0.5) * L0(i);
    return t;
  }

  /// The seabed contact of node i at height z moving with vz (the model's seabed; none:
  /// zero force).
  NodalContact<T> seabed_reaction(std::size_t i, const T& z, const T& vz) const {
    if (!seabed_.z) return NodalContact<T>{};
    return node_contact(i, z, vz);
  }

  /// Element e's outputs at node vectors x, v (MoorDyn's line-file columns t, s, d): its
  /// tension [N] (EI = 0: elastic plus axial damping; Hermite: the effective tension of its
  /// section at mid-element), its strain and strain rate [1/s] (Hermite: of the centreline at
  /// mid-element).
  struct SegmentOutput {
    T tension = T(0), strain = T(0), rate = T(0);
  };
  SegmentOutput segment_output(const VecX<T>& x, const VecX<T>& v, std::size_t e) const {
    SegmentOutput o;
    if (b_.hermite) {
      const auto& el = b_.helems[e];
      const Vec<T, 12> qe = x.template segment<12>(static_cast<Eigen::Index>(6 * e));
      const Vec<T, 12> ve = v.template segment<12>(static_cast<Eigen::Index>(6 * e));
      Vec3<T> a, b, ad, bd;
      el.template tangents<T>(qe, T(0.5), a, b);
      el.template tangents<T>(ve, T(0.5), ad, bd);
      o.tension = el.template section<T>(qe, T(0.5)).N;
      o.strain = a.norm() - T(1);
      o.rate = a.dot(ad) / a.norm();
      return o;
    }
    const auto& el = b_.elems[e];
    const Vec<T, 6> qe = x.template segment<6>(static_cast<Eigen::Index>(3 * e));
    const Vec<T, 6> ve = v.template segment<6>(static_cast<Eigen::Index>(3 * e));
    const auto kin = el.template kinematics<T>(qe);
    o.tension = el.template tension_with_damping<T>(qe, ve);
    o.strain = kin.eps;
    o.rate = kin.e.dot(Vec3<T>(ve.template segment<3>(3) - ve.template segment<3>(0))) / L0(e);
    return o;
  }

  /// Elastic tension of element e at node vector x [N] (a Hermite element: the effective
  /// tension F . t of its section at mid-element).
  T tension(const VecX<T>& x, std::size_t e) const {
    if (b_.hermite)
      return b_.helems[e].template section<T>(x.template segment<12>(static_cast<Eigen::Index>(6 * e)), T(0.5)).N;
    return b_.elems[e].template tension<T>(x.template segment<6>(static_cast<Eigen::Index>(3 * e)));
  }

 private:
  static constexpr int kLanes = kPackLanes<double>;  // Hermite elements per pack (SIMD width)
  using Pk = Pack<double, kLanes>;

  struct NoSink {
    void add(std::size_t, std::size_t, const Mat3<T>&) {}
  };

  double l0_value(std::size_t e) const { return static_cast<double>(value_of(L0(e))); }

  // Element e's sea in the fluid (base: the sea's other fields): the fluid velocity at its two
  // nodes, the mean of their accelerations, drag on.
  ElementSea<T> element_sea(std::size_t e, const LineFluid& f, ElementSea<T> sea) const {
    sea.drag = true;
    if (!f.u) {
      sea.ua = f.U.template cast<T>();
      sea.ub = sea.ua;
      return sea;
    }
    sea.ua = f.u[e].template cast<T>();
    sea.ub = f.u[e + 1].template cast<T>();
    if (f.a) sea.udot = (0.5 * (f.a[e] + f.a[e + 1])).template cast<T>();
    return sea;
  }

  // Element e's f_int + f_damp - f_ext (Kelvin-Voigt damping, weight, drag and fluid inertia
  // in `sea`; line/element_residual.hpp, the buoyancy lost above the still water lumped on the
  // end nodes with its height derivative) and, with B, its blocks
  // wq d/dq + wv d/dv.
  Vec<T, 6> element_force(std::size_t e, const Vec<T, 6>& qe, const Vec<T, 6>& ve, const ElementSea<T>& sea, Mat<T, 6>* B,
                          const T& wq, const T& wv) const {
    Mat<T, 6> K, C;
    const Vec<T, 6> r = tension_element_residual<T, T>(b_.elems[e], b_.loads[e], qe, &ve, sea, -1, B ? &K : nullptr,
                                                        B ? &C : nullptr);
    if (B) *B = wq * K + wv * C;
    return r;
  }

  // Hermite element e's residual in the sea `sea` (line/element_residual.hpp: the buoyancy lost
  // above the still water with its exact-crossing tangent) into fe and, with a sink, its
  // blocks wq d/dq + wv d/dv as 4 x 4 slot blocks.
  template <class Sink>
  void hermite_force(std::size_t e, const ElementLoads<double>& ld, const Vec<T, 12>& qe, const Vec<T, 12>& ve,
                     const ElementSea<T>& sea, Vec<T, 12>& fe, Sink* sink, double wq, double wv) const {
    HermiteBlockSum<T>* R = sink ? &blocks_ : nullptr;
    if (R) R->set_zero();
    // The buoyancy lost above the surface: its exact-crossing tangent (double) in K_wet, the
    // load's derivative (the residual's is its negative).
    Mat<double, 12> Kw;
    const bool wet = hermite_element_residual<T>(b_.helems[e], ld, qe, ve, sea, fe, R, wq, wv, sink ? &Kw : nullptr);
    if (!sink) return;
    if constexpr (has_hermite_hook<Sink, HermiteBlockSum<T>>) {
      // A band sink takes the component-major blocks as they are (no 12 x 12 matrix formed).
      if (wet) add_element_blocks<4>(*sink, 2 * e, Mat<T, 12>((-wq * Kw).template cast<T>()));
      sink->add_hermite_blocks(2 * e, *R, 0);
    } else {
      Mat<T, 12> Ke = Mat<T, 12>::Zero();
      R->template add_to<LayoutRM>(Ke);
      if (wet) Ke -= (wq * Kw).template cast<T>();
      add_element_blocks<4>(*sink, 2 * e, Ke);
    }
  }

  // A sink with add_hermite_blocks(first_slot, blocks, lane) takes a Hermite element's
  // component-major blocks (HermiteBlockSum) directly.
  template <class Sink, class B>
  static constexpr bool has_hermite_hook = requires(Sink& s, B& b) { s.add_hermite_blocks(std::size_t{}, b, 0); };

  // Lane l of a 12 x 12 matrix of packs (one element's matrix).
  static Mat<double, 12> lane_of(const Mat<Pk, 12>& M, int l) {
    Mat<double, 12> Ml;
    for (int j = 0; j < 12; ++j)
      for (int i = 0; i < 12; ++i) Ml(i, j) = lane(M(i, j), l);
    return Ml;
  }

  // Lane l of a pack's element blocks into the sink (element first_slot / 2).
  template <class Sink>
  void add_hermite_lane(Sink& sink, std::size_t first_slot, HermiteBlockSum<Pk>& blocks, int l) const {
    if constexpr (has_hermite_hook<Sink, HermiteBlockSum<Pk>>) {
      sink.add_hermite_blocks(first_slot, blocks, l);
    } else {
      Mat<Pk, 12> K = Mat<Pk, 12>::Zero();
      blocks.template add_to<LayoutRM>(K);
      add_element_blocks<4>(sink, first_slot, lane_of(K, l));
    }
  }

  // Gathers kLanes consecutive Hermite elements from e0 into one pack (their first values in
  // i0); false when one of them may reach the surface (they are then taken one at a time).
  bool gather_submerged(std::size_t e0, const VecX<double>& x, std::array<Eigen::Index, kLanes>& i0,
                        Vec<Pk, 12>& qe) const {
    const double L0 = l0_value(e0);
    for (int l = 0; l < kLanes; ++l) {
      const auto i = static_cast<Eigen::Index>(6 * (e0 + static_cast<std::size_t>(l)));
      i0[static_cast<std::size_t>(l)] = i;
      if (element_may_cross(Vec<double, 12>(x.template segment<12>(i)), L0, surface_z_)) return false;
    }
    for (int l = 0; l < kLanes; ++l)
      for (int k = 0; k < 12; ++k) qe(k).set(l, x(i0[static_cast<std::size_t>(l)] + k));
    return true;
  }

  // kLanes consecutive equal Hermite elements from e0 (b_.pack_run[e0]) on packs, when none of
  // them may reach the surface; false, having done nothing, otherwise. hermite_force lane by
  // lane (the same arithmetic), the lanes' results added into R and the sink in element order.
  template <class Sink>
  bool hermite_pack(std::size_t e0, const VecX<double>& x, const VecX<double>& vx, const LineFluid& fluid,
                    VecX<double>& R, Sink* sink, double wq, double wv) const {
    std::array<Eigen::Index, kLanes> i0{};
    Vec<Pk, 12> qe, ve, f;
    if (!gather_submerged(e0, x, i0, qe)) return false;
    ElementSea<Pk> sea;
    sea.surface_z = surface_z_;
    for (int l = 0; l < kLanes; ++l) {
      const auto i = i0[static_cast<std::size_t>(l)];
      const std::size_t e = e0 + static_cast<std::size_t>(l);
      for (int k = 0; k < 12; ++k) ve(k).set(l, vx(i + k));
      const Vec3<double> ua = fluid.u ? fluid.u[e] : fluid.U, ub = fluid.u ? fluid.u[e + 1] : fluid.U;
      const Vec3<double> al = fluid.u && fluid.a ? Vec3<double>(0.5 * (fluid.a[e] + fluid.a[e + 1])) : Vec3<double>::Zero();
      for (int c = 0; c < 3; ++c) {
        sea.ua(c).set(l, ua(c));
        sea.ub(c).set(l, ub(c));
        sea.udot(c).set(l, al(c));
      }
    }
    HermiteBlockSum<Pk>* Rb = sink ? &pack_blocks_ : nullptr;
    if (Rb) Rb->set_zero();
    try {
      hermite_element_residual<Pk>(b_.helems[e0], b_.hloads[e0], qe, ve, sea, f, Rb, wq, wv, nullptr);
    } catch (const DomainError&) {
      return false;  // one element at a time names the element whose state is outside the model
    }
    for (int l = 0; l < kLanes; ++l) {
      const auto i = i0[static_cast<std::size_t>(l)];
      for (int k = 0; k < 12; ++k) R(i + k) += f(k)[l];
      if (sink) add_hermite_lane(*sink, 2 * (e0 + static_cast<std::size_t>(l)), pack_blocks_, l);
    }
    return true;
  }

  // The added mass of kLanes equal elements from e0 on a pack, added in element order; false
  // (nothing done) when one of them may reach the surface.
  template <class Sink>
  bool hermite_added_mass_pack(std::size_t e0, const VecX<double>& x, Sink& sink) const {
    std::array<Eigen::Index, kLanes> i0{};
    Vec<Pk, 12> qe;
    if (!gather_submerged(e0, x, i0, qe)) return false;
    const Mat<Pk, 12> Ma = hermite_added_mass<Pk>(qe, b_.morison[e0], l0_value(e0), surface_z_);
    for (int l = 0; l < kLanes; ++l) add_element_blocks<4>(sink, 2 * (e0 + static_cast<std::size_t>(l)), lane_of(Ma, l));
    return true;
  }

  // inertia() on a run of kLanes equal, wholly submerged Hermite elements from e0: their
  // added masses on one SIMD pack, each lane's element mass (structural plus added) times its
  // accelerations into Ma and, with a sink, wm times it into the sink (false: the run is not
  // wholly submerged at x; nothing added).
  template <class Sink>
  bool hermite_inertia_pack(std::size_t e0, const VecX<double>& x, const VecX<double>& ax, VecX<double>& Ma, Sink* sink,
                            double wm) const {
    std::array<Mat<double, 12>, kLanes> Me;
    if (!hermite_mass_pack(e0, x, Me.data())) return false;
    for (int l = 0; l < kLanes; ++l) {
      const std::size_t e = e0 + static_cast<std::size_t>(l);
      const auto o = static_cast<Eigen::Index>(6 * e);
      Ma.template segment<12>(o) += Me[l] * Vec<double, 12>(ax.template segment<12>(o));
      if (sink) add_element_blocks<4>(*sink, 2 * e, Mat<double, 12>(wm * Me[l]));
    }
    return true;
  }

  // hermite_mass() of a run of kLanes equal, wholly submerged Hermite elements from e0, their
  // added masses on one SIMD pack: lane l's element mass (structural plus added) into Me[l]
  // (false: the run is not wholly submerged at x; nothing written).
  bool hermite_mass_pack(std::size_t e0, const VecX<double>& x, Mat<double, 12>* Me) const {
    std::array<Eigen::Index, kLanes> i0{};
    Vec<Pk, 12> qe;
    if (!gather_submerged(e0, x, i0, qe)) return false;
    const Mat<Pk, 12> Mp = hermite_added_mass<Pk>(qe, b_.morison[e0], l0_value(e0), surface_z_);
    for (int l = 0; l < kLanes; ++l) Me[l] = b_.hmass[e0 + static_cast<std::size_t>(l)] + lane_of(Mp, l);
    return true;
  }

  // L's sea for element e at rest: still water at L's level, the wetting as L says, the
  // current's drag when L has one (element_sea's fluid velocities).
  ElementSea<T> static_sea(std::size_t e, const LineStaticLoads& L) const {
    ElementSea<T> sea = at_rest_;
    sea.wetting = L.wetting;
    sea.surface_z = L.surface_z.value_or(surface_z_);
    if (!L.current && !L.node_current) return sea;
    return element_sea(e, LineFluid{L.current ? *L.current : Vec3<double>::Zero(), L.node_current, nullptr}, sea);
  }
  // Element e's loads under L: weight and lost buoyancy scaled by the load factor, the drag
  // coefficients by the drag factor (the drag is linear in them).
  ElementLoads<T> static_tension_loads(std::size_t e, const LineStaticLoads& L) const {
    ElementLoads<T> ld = b_.loads[e];
    if (L.load_factor != 1) {
      const T w = T(L.load_factor) * ld.w;
      ld.w = w;
      ld.rho_g_A *= L.load_factor;
    }
    if (L.drag_factor != 1) ld.morison.Cdn *= L.drag_factor, ld.morison.Cdt *= L.drag_factor;
    return ld;
  }
  ElementLoads<double> static_hermite_loads(std::size_t e, const LineStaticLoads& L) const {
    ElementLoads<double> ld = b_.hloads[e];
    ld.w *= L.load_factor;
    ld.rho_g_A *= L.load_factor;
    if (L.drag_factor != 1) ld.morison.Cdn *= L.drag_factor, ld.morison.Cdt *= L.drag_factor;
    return ld;
  }
  void check_static_loads(const LineStaticLoads& L) const {
    if (!(L.load_factor >= 0 && std::isfinite(L.load_factor)))
      throw InputError(name_ + " static loads", "load factor", L.load_factor, ">= 0 and finite");
    if (!(L.drag_factor >= 0 && std::isfinite(L.drag_factor)))
      throw InputError(name_ + " static loads", "drag factor", L.drag_factor, ">= 0 and finite");
    if (L.surface_z && !std::isfinite(*L.surface_z))
      throw InputError(name_ + " static loads", "surface z", *L.surface_z, "finite");
    if (L.current && L.node_current)
      throw InputError(name_ + " static loads", "current", "uniform and nodal both given",
                       "one of them (the nodal current would override the uniform one)");
  }

  // Element e's structural plus added mass at qe.
  Mat<T, 6> element_mass(std::size_t e, const Vec<T, 6>& qe) const {
    return b_.elems[e].template mass<T>() + tension_added_mass<T>(qe, b_.morison[e], l0_value(e), surface_z_);
  }
  // Hermite element e's consistent structural plus added mass at qe.
  Mat<T, 12> hermite_mass(std::size_t e, const Vec<T, 12>& qe) const {
    return b_.hmass[e] + hermite_added_mass<T>(qe, b_.morison[e], l0_value(e), surface_z_);
  }

  // The seabed contact of node i at height z moving with vz.
  NodalContact<T> node_contact(std::size_t i, const T& z, const T& vz, double kbot_factor = 1) const {
    if (kbot_factor == 1) return seabed_contact<T, T>(z, vz, *seabed_.z, T(1), contact_width_length(i), seabed_.params);
    SeabedParams p = seabed_.params;
    p.kBot *= kbot_factor;
    return seabed_contact<T, T>(z, vz, *seabed_.z, T(1), contact_width_length(i), p);
  }

  // The nodes' seabed contact on the position rows (vx null: at rest) and its blocks
  // wq d/dz + wv d/dvz.
  template <class Sink>
  void add_contact(const VecX<T>& x, const VecX<T>* vx, VecX<T>& R, Sink* sink, const T& wq, const T& wv,
                   double kbot_factor = 1) const {
    if (!seabed_.z) return;
    for (std::size_t i = 0; i < n_nodes(); ++i) {
      const std::size_t k = position_slot(i);
      const auto iz = static_cast<Eigen::Index>(3 * k + 2);
      const auto c = node_contact(i, x(iz), vx ? (*vx)(iz) : T(0), kbot_factor);
      R(iz) -= c.f;
      if (sink) {
        Mat3<T> B = Mat3<T>::Zero();
        B(2, 2) = vx ? T(-(wq * c.df_dz + wv * c.df_dvz)) : T(-c.df_dz);
        sink->add(k, k, B);
      }
    }
  }

  // A K x K-slot element block (its first slot `first`) into the sink as slot blocks.
  template <int K, class Sink, class M>
  static void add_element_blocks(Sink& sink, std::size_t first, const M& B) {
    if constexpr (requires { sink.add_element_block(first, B); }) {
      sink.add_element_block(first, B);  // a band sink takes the element's block whole
      return;
    }
    for (int a = 0; a < K; ++a)
      for (int b = 0; b < K; ++b)
        sink.add(first + static_cast<std::size_t>(a), first + static_cast<std::size_t>(b),
                 Mat3<T>(B.template block<3, 3>(3 * a, 3 * b)));
  }

  std::string name_;
  std::vector<SectionModel<T>> sections_;
  Environment env_;
  SeabedModel seabed_;
  bool tension_only_ = true;
  int axial_order_ = 4, bending_order_ = 4;
  double ei_scale_ = 1;  // every section's EI scaled by it (set_EI_scale)
  Built b_;
  mutable HermiteBlockSum<T> blocks_;  // Hermite: one element's tangent (workspace)
  double surface_z_ = 0;  // the still-water level (spec "Buoyancy and wetting")
  bool pack_elements_ = true;
  ElementSea<T> at_rest_ = still_sea(0);  // still water at surface_z_, no drag, the wetting on
  mutable HermiteBlockSum<Pk> pack_blocks_;  // Hermite: kLanes elements' tangents (workspace)

  static ElementSea<T> still_sea(double z) {
    ElementSea<T> s;
    s.drag = false;
    s.wetting = true;
    s.surface_z = z;
    return s;
  }
};

}  // namespace cabledyn
