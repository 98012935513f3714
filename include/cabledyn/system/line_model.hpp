// cabledyn: the load model of one EI = 0 line inside a mooring system, every parameter a
// template scalar.
// Spec "The EI = 0 tension element" (internal force and tangent), "Buoyancy and wetting"
// (submerged weight per unstretched metre, consistent nodal weights), "Seabed contact" (nodal
// penalty contact, stiffness kBot d l_trib), "Static equilibrium" (R = f_int - f_ext),
// "Attached objects and line ends" (the end nodes of a line are the positions of the objects
// it is attached to).
//
// The model sees a line as its N + 1 node positions x (3 (N + 1) values, end nodes included)
// and gives the residual R = f_int - f_ext on every node and the tangent dR/dx as 3 x 3 node
// blocks into a sink: `sink.add(i, j, B)` adds B to the block of nodes (i, j). It knows
// nothing of DOF numbering: the system (mooring_system.hpp) routes each node block to a line
// band, an object border or nowhere (a held end).
//
// T is the scalar of the state and of the parameters alike (double, long double or a dual):
// with T a dual, EA, the section lengths, the mass and diameter carry derivative parts, and a
// static solve in T gives the exact derivatives of its results with respect to them.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/elements/element_params.hpp"
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
  double EI = 0;     ///< bending stiffness: must be 0 (Hermite lines are not in the system yet)
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

/// The load model of an EI = 0 line in a system: elements, submerged weights and seabed
/// contact, all parameters in T. Rebuild it (rebuild()) after editing sections().
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
  /// places the end nodes on the objects the line is attached to).
  static LineModel from_line(const Line& line, SeabedModel seabed = {}) {
    std::vector<SectionModel<T>> s;
    for (const auto& sec : line.sections()) s.push_back(SectionModel<T>::from(sec));
    return LineModel(line.name(), std::move(s), line.environment(), seabed, line.options().tension_only);
  }

  const std::string& name() const { return name_; }
  const Environment& environment() const { return env_; }
  const SeabedModel& seabed() const { return seabed_; }
  /// The sections; edit them (a design parameter, a dual seed), then call rebuild().
  std::vector<SectionModel<T>>& sections() { return sections_; }
  const std::vector<SectionModel<T>>& sections() const { return sections_; }

  /// Validate the sections and rebuild the elements, weights and contact widths. Throws
  /// InputError naming the line, the section and the bad parameter.
  void rebuild() {
    if (sections_.empty()) throw InputError(name_, "sections", 0, ">= 1");
    elems_.clear();
    w_.clear();
    d_.clear();
    morison_.clear();
    loads_.clear();
    compliance_ = T(0);
    for (std::size_t i = 0; i < sections_.size(); ++i) {
      const auto& s = sections_[i];
      const std::string obj = name_ + " section " + std::to_string(i + 1);
      if (s.EI != 0)
        throw NotImplementedError(obj, "EI", s.EI, "0 (Hermite lines in a mooring system: not yet)");
      if (s.segments < 1) throw InputError(obj, "NumSegs", s.segments, ">= 1");
      if (!(value_of(s.length) > 0 && is_finite(s.length))) throw InputError(obj, "length", value_of(s.length), "> 0");
      if (!(value_of(s.d) > 0 && is_finite(s.d))) throw InputError(obj, "Diam", value_of(s.d), "> 0");
      const T L0 = s.length / T(s.segments);
      // Spec "Buoyancy and wetting" and "Axial damping" (a negative BA is a damping ratio).
      const T w = submerged_weight<T>(s.rho_A, s.d, env_.rho_w, env_.g);
      const T BA = resolve_axial_damping<T>(s.BA, L0, s.EA, s.rho_A);
      for (int k = 0; k < s.segments; ++k) {
        BasicTensionElementParams<T> p;
        p.L0 = L0;
        p.EA = s.EA;
        p.BA = BA;
        p.rho_A = s.rho_A;
        p.tension_only = tension_only_;
        elems_.emplace_back(p, name_ + " element " + std::to_string(elems_.size() + 1));
        w_.push_back(w);
        d_.push_back(s.d);
        MorisonCoefficients mc;
        mc.d = static_cast<double>(value_of(s.d));
        mc.Cdn = s.Cdn;
        mc.Cdt = s.Cdt;
        mc.Can = s.Can;
        mc.Cat = s.Cat;
        mc.rho = env_.rho_w;
        mc.validate(obj);
        morison_.push_back(mc);
        loads_.push_back({w, 0.0, mc});
        const T ce = L0 / s.EA;  // plain (duals: see element_residual.hpp)
        compliance_ += ce;
      }
    }
  }

  std::size_t n_elements() const { return elems_.size(); }
  std::size_t n_nodes() const { return elems_.size() + 1; }
  /// Unstretched length of element e [m].
  const T& L0(std::size_t e) const { return elems_[e].params().L0; }
  /// Submerged weight per unstretched metre of element e [N/m].
  const T& w(std::size_t e) const { return w_[e]; }
  /// Element e.
  const BasicTensionElement<T>& element(std::size_t e) const { return elems_[e]; }
  /// The axial compliance sum l0 / EA over the elements [m/N] (1 / k_a, the line's axial
  /// stiffness as a spring).
  const T& axial_compliance() const { return compliance_; }
  /// Total unstretched length [m].
  T length() const {
    T L = T(0);
    for (const auto& s : sections_) L += s.length;
    return L;
  }
  /// Total submerged weight [N].
  T weight() const {
    T W = T(0);
    for (std::size_t e = 0; e < n_elements(); ++e) W += w_[e] * L0(e);
    return W;
  }

  /// The double line description of this model's parameter values, with the given end
  /// positions (the static seeds of the system statics solve it line by line).
  /// With `reversed`, the line seen from End B: its sections in reverse order (endA is then
  /// the position of this model's End B).
  Line value_line(const Vec3<double>& endA, const Vec3<double>& endB, bool reversed = false) const {
    std::vector<LineSection> s;
    LineType base;
    for (const auto& sec : sections_) s.push_back(sec.value(base));
    if (reversed) std::reverse(s.begin(), s.end());
    LineEnd a, b;
    a.position = endA;
    b.position = endB;
    LineOptions opt;
    opt.tension_only = tension_only_;
    return Line(name_, std::move(s), a, b, env_, opt);
  }

  /// Node i's position in the node vector x.
  static Vec3<T> node(const VecX<T>& x, std::size_t i) {
    return x.template segment<3>(static_cast<Eigen::Index>(3 * i));
  }

  /// Static residual R = f_int - f_ext on every node (R sized 3 (N + 1), overwritten) and,
  /// with a sink, the tangent dR/dx as node blocks (spec "Static equilibrium"; f_ext the
  /// consistent weight w L0 / 2 on each node of an element and the seabed's penalty reaction
  /// of stiffness kBot d l_trib, l_trib the node's tributary length). compression_ratio >= 0
  /// gives the compressed branch of every element r EA (spec "EI = 0 path": the tension-only
  /// stages); negative: each element's own law.
  template <class Sink>
  void static_residual(const VecX<T>& x, VecX<T>& R, Sink* sink, double compression_ratio = -1) const {
    R.setZero(static_cast<Eigen::Index>(3 * n_nodes()));
    for (std::size_t e = 0; e < n_elements(); ++e) {
      const Vec<T, 6> qe = x.template segment<6>(static_cast<Eigen::Index>(3 * e));
      Mat<T, 6> Ke;
      R.template segment<6>(static_cast<Eigen::Index>(3 * e)) +=
          tension_element_residual<T, T>(elems_[e], loads_[e], qe, nullptr, at_rest_, compression_ratio,
                                         sink ? &Ke : nullptr, nullptr);
      if (sink) add_element_blocks(*sink, e, Ke);
    }
    if (seabed_.z) {
      for (std::size_t i = 0; i < n_nodes(); ++i) {
        const auto iz = static_cast<Eigen::Index>(3 * i + 2);
        const auto c = node_contact(i, x(iz), T(0));
        R(iz) -= c.f;
        if (sink) {
          Mat3<T> B = Mat3<T>::Zero();
          B(2, 2) = -c.df_dz;
          sink->add(i, i, B);
        }
      }
    }
  }

  /// Morison coefficients of element e (at the diameter's value).
  const MorisonCoefficients& morison(std::size_t e) const { return morison_[e]; }

  /// Dynamic force r(x, v) = f_int + f_damp - f_ext on every node (R sized 3 (N + 1),
  /// overwritten) and, with a sink, the blocks wq dr/dx + wv dr/dv (spec "Time integration":
  /// the equation of motion M a + r = 0). f_damp the Kelvin-Voigt axial damping ("Axial
  /// damping"); f_ext the consistent weight, Morison drag in a uniform current U ("Drag": the
  /// element's relative velocity, over its deformed length) and the seabed's penalty reaction
  /// with its damper ("Seabed contact").
  template <class Sink>
  void dynamic_residual(const VecX<T>& x, const VecX<T>& vx, const Vec3<double>& U, VecX<T>& R, Sink* sink,
                        const T& wq, const T& wv) const {
    R.setZero(static_cast<Eigen::Index>(3 * n_nodes()));
    const Vec3<T> Uf = U.template cast<T>();
    Mat<T, 6> B;
    for (std::size_t e = 0; e < n_elements(); ++e) {
      const auto o = static_cast<Eigen::Index>(3 * e);
      R.template segment<6>(o) += element_force(e, x.template segment<6>(o), vx.template segment<6>(o), Uf,
                                                sink ? &B : nullptr, wq, wv);
      if (sink) add_element_blocks(*sink, e, B);
    }
    if (seabed_.z) {
      for (std::size_t i = 0; i < n_nodes(); ++i) {
        const auto iz = static_cast<Eigen::Index>(3 * i + 2);
        const auto c = node_contact(i, x(iz), vx(iz));
        R(iz) -= c.f;
        if (sink) {
          Mat3<T> Bc = Mat3<T>::Zero();
          Bc(2, 2) = -(wq * c.df_dz + wv * c.df_dvz);
          sink->add(i, i, Bc);
        }
      }
    }
  }

  /// Inertia M(x) a on every node (Ma sized 3 (N + 1), overwritten): the consistent
  /// structural mass and the Morison added mass at the current configuration, and with a sink
  /// the blocks wm M + wq d(M(x) a)/dx (spec "Added mass and fluid inertia": the EI = 0 path
  /// assembles the added mass at the current configuration with its configuration derivative
  /// in the tangent). The line is taken as wholly wetted (the system refuses nodes above the
  /// surface).
  template <class Sink>
  void inertia(const VecX<T>& x, const VecX<T>& ax, VecX<T>& Ma, Sink* sink, const T& wm, const T& wq) const {
    Ma.setZero(static_cast<Eigen::Index>(3 * n_nodes()));
    for (std::size_t e = 0; e < n_elements(); ++e) {
      const auto o = static_cast<Eigen::Index>(3 * e);
      const Vec<T, 6> qe = x.template segment<6>(o), ae = ax.template segment<6>(o);
      const Mat<T, 6> Me = element_mass(e, qe);
      Ma.template segment<6>(o) += Me * ae;
      if (sink)
        add_element_blocks(*sink, e,
                           Mat<T, 6>(wm * Me + wq * tension_added_mass_jacobian<T>(qe, ae, morison_[e], l0_value(e), kWetted)));
    }
  }

  /// The dynamic load the line exerts on the object at its end (0: End A, 1: End B) [N]:
  /// minus the end node's row of r(x, v) + M(x) a. It involves only the end element and the
  /// end node's contact, so it costs one element, not the line (spec "Tension and coupled
  /// loads").
  Vec3<T> end_load(const VecX<T>& x, const VecX<T>& vx, const VecX<T>& ax, const Vec3<double>& U, int end) const {
    const std::size_t e = end == 0 ? 0 : n_elements() - 1, i = end == 0 ? 0 : n_nodes() - 1;
    const auto o = static_cast<Eigen::Index>(3 * e), k = static_cast<Eigen::Index>(end == 0 ? 0 : 3);
    const Vec<T, 6> qe = x.template segment<6>(o);
    Vec3<T> r = element_force(e, qe, vx.template segment<6>(o), U.template cast<T>(), nullptr, T(0), T(0)).template segment<3>(k);
    if (seabed_.z) {
      const auto iz = static_cast<Eigen::Index>(3 * i + 2);
      r(2) -= node_contact(i, x(iz), vx(iz)).f;
    }
    const Vec<T, 6> Ma = element_mass(e, qe) * Vec<T, 6>(ax.template segment<6>(o));
    return -r - Ma.template segment<3>(k);
  }

  /// Total potential energy at node positions x [J]: strain energy, weight potential and the
  /// seabed's penalty potential (the energy whose gradient is static_residual).
  T potential_energy(const VecX<T>& x, double compression_ratio = -1) const {
    T E = T(0);
    for (std::size_t e = 0; e < n_elements(); ++e) {
      const Vec<T, 6> qe = x.template segment<6>(static_cast<Eigen::Index>(3 * e));
      E += compression_ratio >= 0 ? elems_[e].template energy<T>(qe, compression_ratio) : elems_[e].template energy<T>(qe);
      E += tension_weight_potential<T, T>(w_[e], L0(e), qe);
    }
    if (seabed_.z)
      for (std::size_t i = 0; i < n_nodes(); ++i)
        E += node_contact(i, x(static_cast<Eigen::Index>(3 * i + 2)), T(0)).energy;
    return E;
  }

  /// The product d l_trib of node i's contact: the sum over its elements of d_e L0_e / 2.
  T contact_width_length(std::size_t i) const {
    T a = T(0);
    if (i > 0) a += T(0.5) * d_[i - 1] * L0(i - 1);
    if (i + 1 < n_nodes()) a += T(0.5) * d_[i] * L0(i);
    return a;
  }

  /// Elastic tension of element e at node positions x [N].
  T tension(const VecX<T>& x, std::size_t e) const {
    return elems_[e].template tension<T>(x.template segment<6>(static_cast<Eigen::Index>(3 * e)));
  }

 private:
  static constexpr double kWetted = std::numeric_limits<double>::infinity();  // surface level: every element wetted

  double l0_value(std::size_t e) const { return static_cast<double>(value_of(L0(e))); }

  // Element e's f_int + f_damp - f_ext (Kelvin-Voigt damping, weight, drag in the uniform
  // current Uf; line/element_residual.hpp, the line wholly wetted) and, with B, its blocks
  // wq d/dq + wv d/dv.
  Vec<T, 6> element_force(std::size_t e, const Vec<T, 6>& qe, const Vec<T, 6>& ve, const Vec3<T>& Uf, Mat<T, 6>* B,
                          const T& wq, const T& wv) const {
    ElementSea<T> sea;
    sea.ua = Uf;
    sea.ub = Uf;
    Mat<T, 6> K, C;
    const Vec<T, 6> r = tension_element_residual<T, T>(elems_[e], loads_[e], qe, &ve, sea, -1, B ? &K : nullptr,
                                                        B ? &C : nullptr);
    if (B) *B = wq * K + wv * C;
    return r;
  }

  // Element e's structural plus added mass at qe.
  Mat<T, 6> element_mass(std::size_t e, const Vec<T, 6>& qe) const {
    return elems_[e].template mass<T>() + tension_added_mass<T>(qe, morison_[e], l0_value(e), kWetted);
  }

  // The seabed contact of node i at height z moving with vz.
  NodalContact<T> node_contact(std::size_t i, const T& z, const T& vz) const {
    return seabed_contact<T, T>(z, vz, *seabed_.z, T(1), contact_width_length(i), seabed_.params);
  }

  // Element e's 6 x 6 block into the sink as four node blocks.
  template <class Sink>
  static void add_element_blocks(Sink& sink, std::size_t e, const Mat<T, 6>& B) {
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b)
        sink.add(e + static_cast<std::size_t>(a), e + static_cast<std::size_t>(b), Mat3<T>(B.template block<3, 3>(3 * a, 3 * b)));
  }

  std::string name_;
  std::vector<SectionModel<T>> sections_;
  Environment env_;
  SeabedModel seabed_;
  bool tension_only_ = true;
  std::vector<BasicTensionElement<T>> elems_;
  std::vector<T> w_, d_;
  std::vector<MorisonCoefficients> morison_;
  std::vector<ElementLoads<T>> loads_;  // each element's weight and Morison coefficients
  T compliance_ = T(0);                 // sum l0 / EA
  ElementSea<T> at_rest_ = still_sea();       // statics: still water, no drag, wholly wetted

  static ElementSea<T> still_sea() {
    ElementSea<T> s;
    s.drag = false;
    return s;
  }
};

}  // namespace cabledyn
