// cabledyn: a line: sections joined end to end, meshed into elements, with its DOF map,
// band width and end connections.
// Spec "Kinematics and discretisation" (sections, meshing, element kind by EI), "End
// connections (Hermite lines)" (pinned, Rigid, isotropic rotational spring), "Attached
// objects and line ends" (fixed and prescribed ends), "Linear algebra" (band width).
//
// Nodes are numbered 0..N from End A (the fairlead side, deck node 1) to End B. A line whose
// sections all have EI = 0 is an EI = 0 line of tension elements (layout [r]); a line with
// any EI > 0 section is a cubic-Hermite cable (layout [r, m]); its EI = 0 sections are
// Hermite elements without bending energy.
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cabledyn/core/dof_layout.hpp"
#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/elements/element_params.hpp"
#include "cabledyn/elements/hermite_element.hpp"
#include "cabledyn/elements/tension_element.hpp"
#include "cabledyn/line/line_type.hpp"

namespace cabledyn {

/// How a Hermite line end restrains its tangent (spec "End connections (Hermite lines)").
enum class EndRotation {
  free,    ///< pinned: the tangent is free (stiffness 0 / Pinned / Free / Zero)
  spring,  ///< isotropic rotational spring U = 1/2 k theta^2 about the direction d0
  rigid,   ///< exact two-coordinate constraint: m stays on the ray of d0 (Rigid / Inf)
};

/// A line end: its held position (a fixed anchor, or a fairlead whose position is
/// prescribed) and, on a Hermite line, its rotational connection.
struct LineEnd {
  Vec3<double> position = Vec3<double>::Zero();  ///< held position [m]
  EndRotation rotation = EndRotation::free;
  double stiffness = 0;                          ///< rotational stiffness [N m/rad] (spring)
  Vec3<double> direction = Vec3<double>::Zero(); ///< d0: the direction held, into the line
};

/// Options of a line's discretisation.
struct LineOptions {
  int axial_order = 4;       ///< axial_quadrature_order (Hermite)
  int bending_order = 4;     ///< bending_quadrature_order (Hermite)
  bool tension_only = true;  ///< EI = 0 elements carry no compression (the march's law)
};

/// A meshed line.
class Line {
 public:
  Line(std::string name, std::vector<LineSection> sections, LineEnd endA, LineEnd endB,
       const Environment& env = {}, LineOptions opt = {})
      : name_(std::move(name)), sections_(std::move(sections)), ends_{endA, endB}, env_(env), opt_(opt) {
    env_.validate();
    if (sections_.empty()) throw InputError(name_, "sections", 0, ">= 1");
    for (std::size_t i = 0; i < sections_.size(); ++i)
      sections_[i].validate(name_ + " section " + std::to_string(i + 1));
    hermite_ = false;
    for (const auto& s : sections_) hermite_ = hermite_ || s.type.EI > 0;
    // Mesh.
    s_nodes_.push_back(0.0);
    for (std::size_t i = 0; i < sections_.size(); ++i) {
      const auto& sec = sections_[i];
      const double L0 = sec.length / sec.segments;
      for (int k = 0; k < sec.segments; ++k) {
        elem_section_.push_back(static_cast<int>(i));
        elem_L0_.push_back(L0);
        s_nodes_.push_back(s_nodes_.back() + L0);
      }
    }
    length_ = s_nodes_.back();
    for (int end = 0; end < 2; ++end) validate_end(end);
    build_elements(1.0);
  }

  const std::string& name() const { return name_; }
  const Environment& environment() const { return env_; }
  const LineOptions& options() const { return opt_; }
  /// True for a cubic-Hermite cable, false for an EI = 0 line.
  bool hermite() const { return hermite_; }
  /// DOFs per node: 6 ([r, m]) or 3 ([r]).
  int node_dofs() const { return hermite_ ? LayoutRM::kNodeDofs : LayoutR::kNodeDofs; }
  std::size_t n_elements() const { return elem_L0_.size(); }
  std::size_t n_nodes() const { return elem_L0_.size() + 1; }
  std::size_t dofs() const { return n_nodes() * static_cast<std::size_t>(node_dofs()); }
  /// Half-bandwidth of the line's matrices (2 * node DOFs - 1: 11 Hermite, 5 EI = 0).
  int half_bandwidth() const {
    return hermite_ ? LayoutRM::half_bandwidth() : LayoutR::half_bandwidth();
  }
  /// Total unstretched length [m].
  double length() const { return length_; }
  const std::vector<LineSection>& sections() const { return sections_; }

  /// Unstretched length of element e [m].
  double L0(std::size_t e) const { return elem_L0_[e]; }
  /// Section index of element e.
  int section_of(std::size_t e) const { return elem_section_[e]; }
  /// Line type of element e.
  const LineType& type(std::size_t e) const { return sections_[elem_section_[e]].type; }
  /// Unstretched arc length of node i from End A [m].
  double s_node(std::size_t i) const { return s_nodes_[i]; }
  /// Tributary length of node i: half the unstretched lengths of its elements [m].
  double tributary(std::size_t i) const {
    double t = 0;
    if (i > 0) t += 0.5 * elem_L0_[i - 1];
    if (i + 1 < n_nodes()) t += 0.5 * elem_L0_[i];
    return t;
  }
  /// Submerged weight per unstretched metre of element e [N/m] (signed).
  double w(std::size_t e) const { return type(e).submerged_weight(env_); }
  /// Morison coefficients of element e.
  MorisonCoefficients morison(std::size_t e) const { return type(e).morison(env_.rho_w); }

  /// End 0 (End A) or 1 (End B).
  const LineEnd& end(int which) const { return ends_[which]; }
  /// Move a held end (a prescribed fairlead); the state's end DOFs follow when the caller
  /// applies `hold_ends`.
  void set_end_position(int which, const Vec3<double>& p) { ends_[which].position = p; }
  /// Node index of end 0 / 1.
  std::size_t end_node(int which) const { return which == 0 ? 0 : n_nodes() - 1; }

  /// EI = 0 element e.
  const TensionElement& tension_element(std::size_t e) const { return tension_[e]; }
  /// Hermite element e.
  const HermiteElement<LayoutRM>& hermite_element(std::size_t e) const { return hermite_elems_[e]; }

  /// Rebuild the Hermite elements with every EI scaled by `lambda` (continuation in EI).
  void set_EI_scale(double lambda) {
    if (!(lambda > 0 && std::isfinite(lambda))) throw InputError(name_, "EI scale", lambda, "> 0");
    build_elements(lambda);
  }
  double EI_scale() const { return EI_scale_; }

  /// Global index of local DOF c of node i.
  std::size_t dof(std::size_t node, int c) const {
    return node * static_cast<std::size_t>(node_dofs()) + static_cast<std::size_t>(c);
  }
  /// Position of node i in state q.
  template <class V>
  Vec3<typename V::Scalar> r(const V& q, std::size_t node) const {
    return q.template segment<3>(static_cast<Eigen::Index>(dof(node, 0)));
  }
  /// Tangent m of node i (Hermite).
  template <class V>
  Vec3<typename V::Scalar> m(const V& q, std::size_t node) const {
    return q.template segment<3>(static_cast<Eigen::Index>(dof(node, 3)));
  }

  /// The element DOF vector of element e.
  template <class T, int N, class V>
  Vec<T, N> element_dofs(const V& q, std::size_t e) const {
    return q.template segment<N>(static_cast<Eigen::Index>(dof(e, 0)));
  }

  /// Orthonormal basis (d0, b1, b2) of a Rigid end's tangent constraint: m = alpha d0, the
  /// components along b1, b2 held at zero.
  Mat3<double> rigid_basis(int which) const {
    const Vec3<double> d = ends_[which].direction.normalized();
    Vec3<double> a = std::fabs(d(0)) < 0.9 ? Vec3<double>(1, 0, 0) : Vec3<double>(0, 1, 0);
    const Vec3<double> b1 = (a - a.dot(d) * d).normalized();
    const Vec3<double> b2 = d.cross(b1);
    Mat3<double> Q;
    Q.col(0) = d;
    Q.col(1) = b1;
    Q.col(2) = b2;
    return Q;
  }

 private:
  void validate_end(int which) {
    LineEnd& e = ends_[which];
    const std::string obj = name_ + (which == 0 ? " End A" : " End B");
    if (!e.position.allFinite()) throw InputError(obj, "position", "non-finite", "finite");
    if (!hermite_) {
      if (e.rotation != EndRotation::free)
        throw InputError(obj, "rotational connection", "spring/Rigid", "free on an EI = 0 line");
      return;
    }
    if (e.rotation == EndRotation::spring && !(std::isfinite(e.stiffness) && e.stiffness >= 0))
      throw InputError(obj, "rotational stiffness", e.stiffness, ">= 0");
    if (e.rotation == EndRotation::spring && e.stiffness == 0) e.rotation = EndRotation::free;
    if (e.rotation != EndRotation::free) {
      const double n = e.direction.norm();
      if (!(n > 0 && std::isfinite(n))) throw InputError(obj, "connection direction |d0|", n, "> 0");
      e.direction /= n;
    }
  }

  void build_elements(double lambda) {
    EI_scale_ = lambda;
    tension_.clear();
    hermite_elems_.clear();
    for (std::size_t e = 0; e < elem_L0_.size(); ++e) {
      const LineType& t = type(e);
      const std::string obj = name_ + " element " + std::to_string(e + 1);
      const double BA = resolve_axial_damping(t.BA, elem_L0_[e], t.EA, t.rho_A);
      if (hermite_) {
        HermiteElementParams p;
        p.L0 = elem_L0_[e];
        p.EA = t.EA;
        p.EI = t.EI * lambda;
        p.BA = BA;
        p.rho_A = t.rho_A;
        p.axial_order = opt_.axial_order;
        p.bending_order = opt_.bending_order;
        hermite_elems_.emplace_back(p, obj);
      } else {
        TensionElementParams p;
        p.L0 = elem_L0_[e];
        p.EA = t.EA;
        p.BA = BA;
        p.rho_A = t.rho_A;
        p.tension_only = opt_.tension_only;
        tension_.emplace_back(p, obj);
      }
    }
  }

  std::string name_;
  std::vector<LineSection> sections_;
  LineEnd ends_[2];
  Environment env_;
  LineOptions opt_;
  bool hermite_ = false;
  double length_ = 0;
  double EI_scale_ = 1;
  std::vector<double> s_nodes_, elem_L0_;
  std::vector<int> elem_section_;
  std::vector<TensionElement> tension_;
  std::vector<HermiteElement<LayoutRM>> hermite_elems_;
};

namespace detail {
/// The global DOF indices of element e of a line (its N consecutive DOFs), for add_block.
template <int N>
std::array<Eigen::Index, N> element_dof_indices(const Line& line, std::size_t e) {
  std::array<Eigen::Index, N> idx{};
  for (int i = 0; i < N; ++i) idx[static_cast<std::size_t>(i)] = static_cast<Eigen::Index>(line.dof(e, 0)) + i;
  return idx;
}
}  // namespace detail

}  // namespace cabledyn
