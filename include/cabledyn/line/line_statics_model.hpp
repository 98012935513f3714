// cabledyn: the static residual, tangent and potential energy of a line, assembled into
// band storage.
// Spec "Static equilibrium": R(q) = f_int(q) - f_ext(q) = 0 on the free DOFs, external loads
// the submerged weight, the seabed reaction, end-connection springs, a steady current,
// prescribed nodal loads; "Buoyancy and wetting"; "Seabed contact"; "End connections".
// The held DOFs (both end positions; a Rigid end's two transverse tangent components) are
// handled by the solvers in band storage (`LineDofs` below).
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <type_traits>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/line/element_loads.hpp"
#include "cabledyn/line/element_residual.hpp"
#include "cabledyn/line/end_spring.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/line/band_sink.hpp"
#include "cabledyn/line/line_model.hpp"
#include "cabledyn/linalg/band_matrix.hpp"
#include "cabledyn/seabed/contact.hpp"

namespace cabledyn {

/// A steady current: the fluid velocity at a point [m/s] (uniform or a depth profile).
struct SteadyCurrent {
  std::function<Vec3<double>(const Vec3<double>&)> velocity;

  /// A uniform current.
  static SteadyCurrent uniform(const Vec3<double>& U) {
    return {[U](const Vec3<double>&) { return U; }};
  }
};

/// The loads and settings of one static evaluation.
struct StaticLoadCase {
  std::optional<double> seabed_z;    ///< flat seabed elevation (none: no seabed)
  SeabedParams seabed;               ///< kBot (cBot unused in statics)
  double load_factor = 1;            ///< scales the weight and the seabed stiffness (continuation)
  double compression_ratio = 0;      ///< EI = 0 elements: stiffness ratio of the compressed branch (negative: each element's own law)
  const SteadyCurrent* current = nullptr;      ///< steady current (none: still water)
  const VecX<double>* frozen_drag = nullptr;   ///< drag held constant (a frozen f_ext vector)
  const VecX<double>* constant_load = nullptr; ///< an extra constant f_ext (e.g. EI = 0 wetting recovery)
  double drag_factor = 1;            ///< scales the current drag (drag brought in by load steps)
  bool hermite_wetting = true;       ///< Hermite: exact buoyancy recovery above the surface
  double surface_z = 0;              ///< still-water level
};

/// The product d l_trib of a node's contact: the sum over its elements of d_e L0_e / 2 (the
/// nodal stiffness kBot d l_trib of spec "Seabed contact" with the diameters of both sides).
inline double node_contact_width_length(const Line& line, std::size_t i) {
  double a = 0;
  if (i > 0) a += 0.5 * line.type(i - 1).d * line.L0(i - 1);
  if (i + 1 < line.n_nodes()) a += 0.5 * line.type(i).d * line.L0(i);
  return a;
}

/// Nodal fluid velocities of a steady current at the positions in q.
inline std::vector<Vec3<double>> current_at_nodes(const Line& line, const SteadyCurrent& c,
                                                  const VecX<double>& q) {
  std::vector<Vec3<double>> u(line.n_nodes());
  for (std::size_t i = 0; i < line.n_nodes(); ++i) u[i] = c.velocity(line.r(q, i));
  return u;
}

namespace detail {
/// Throws InputError unless `model` is the load model of `line` under the load case's seabed
/// (LineModel::elements_of(line, {lc.seabed_z, lc.seabed})): a model of another line or
/// seabed would give another line's residual, silently.
template <class T>
void check_line_model(const LineModel<T>& model, const Line& line, const StaticLoadCase& lc) {
  const auto& sb = model.seabed();
  const bool same = model.n_nodes() == line.n_nodes() && model.hermite() == line.hermite() &&
                    model.EI_scale() == line.EI_scale() && sb.z.has_value() == lc.seabed_z.has_value() &&
                    (!sb.z || (*sb.z == *lc.seabed_z && sb.params.kBot == lc.seabed.kBot &&
                               sb.params.cBot == lc.seabed.cBot));
  if (!same)
    throw InputError(line.name() + " static residual", "line model", model.name(),
                     "the model of this line with the load case's seabed and the line's EI scale "
                     "(LineModel::elements_of(line, {seabed_z, seabed}))");
}

/// The LineModel loads of a load case (the frozen drag and the constant load stay with the
/// caller; an EI = 0 line's buoyancy lost above the surface is a constant load of its statics).
inline LineStaticLoads static_loads_of(const Line& line, const StaticLoadCase& lc) {
  LineStaticLoads L;
  L.load_factor = lc.load_factor;
  L.compression_ratio = lc.compression_ratio;
  L.drag_factor = lc.drag_factor;
  L.wetting = line.hermite() && lc.hermite_wetting;
  L.surface_z = lc.surface_z;
  return L;
}

/// The seabed of a load case as a LineModel sees it.
inline SeabedModel seabed_of(const StaticLoadCase& lc) {
  SeabedModel sb;
  sb.z = lc.seabed_z;
  sb.params = lc.seabed;
  return sb;
}

template <class T>
VecX<double> values_of(const VecX<T>& q) {
  VecX<double> v(q.size());
  for (Eigen::Index i = 0; i < q.size(); ++i) v(i) = static_cast<double>(value_of(q(i)));
  return v;
}
}  // namespace detail

/// The drag of a steady current on the line at rest at q, as an f_ext vector (spec "Static
/// equilibrium": EI = 0 on the wetted fraction of the chord, the element's nodal current
/// velocities; Hermite at the wetted drag points, the mean of its nodes'): the drag term of
/// line_static_residual alone (the statics freeze it), by the line's load model.
inline void line_current_drag(const LineModel<double>& model, const Line& line, const SteadyCurrent& c,
                              const VecX<double>& q, VecX<double>& f, double surface_z = 0) {
  const auto u = current_at_nodes(line, c, q);
  LineStaticLoads L;
  L.node_current = u.data();
  L.surface_z = surface_z;
  model.current_drag(q, L, f);
}

/// The buoyancy recovery of an EI = 0 line above the still surface (spec "Buoyancy and
/// wetting"): -(1 - f) 1/2 rho A g L0 on each end node of every element, f the wetted
/// fraction of its chord. The statics hold it constant and iterate (fixed point).
inline VecX<double> tension_wetting_recovery(const Line& line, const VecX<double>& q, double surface_z = 0) {
  VecX<double> f = VecX<double>::Zero(q.size());
  const auto& env = line.environment();
  for (std::size_t e = 0; e < line.n_elements(); ++e) {
    const double rgA = env.rho_w * env.g * kPi * line.type(e).d * line.type(e).d / 4;
    Vec<double, 6> fe;
    tension_wetting_load<double>(line.element_dofs<double, 6>(q, e), rgA, line.L0(e), surface_z, fe);
    f.segment<6>(static_cast<Eigen::Index>(line.dof(e, 0))) += fe;
  }
  return f;
}

/// Static residual R = f_int - f_ext of a line at state q (every DOF, held ones included) and,
/// when K is given (a BandMatrix or SymmetricBandMatrix sized for the line, zeroed by the
/// caller), the tangent dR/dq. The elements, weight, seabed, lost buoyancy and current drag
/// are the line's load model's (`model`: LineModel::elements_of(line, the load case's
/// seabed), line/line_model.hpp); this adds the end springs, the frozen drag and the constant
/// load. Templated on T so that the tests differentiate it with duals.
template <class T, class Band = BandMatrix<T>>
void line_static_residual(const LineModel<T>& model, const Line& line, const StaticLoadCase& lc, const VecX<T>& q,
                          VecX<T>& R, Band* K = nullptr) {
  detail::check_line_model(model, line, lc);
  LineStaticLoads L = detail::static_loads_of(line, lc);
  std::vector<Vec3<double>> u;  // the current at the nodes: live unless frozen
  if (lc.current && !lc.frozen_drag) {
    u = current_at_nodes(line, *lc.current, detail::values_of(q));
    L.node_current = u.data();
  }
  if (K) {
    detail::BandSlotSink<Band> sink{K};
    model.static_residual(q, R, &sink, L);
  } else {
    model.static_residual(q, R, static_cast<detail::BandSlotSink<Band>*>(nullptr), L);
  }
  // Hermite end springs.
  if (line.hermite()) {
    for (int end = 0; end < 2; ++end) {
      const LineEnd& E = line.end(end);
      if (E.rotation != EndRotation::spring) continue;
      const std::size_t n = line.end_node(end);
      const Vec3<T> mv = line.m(q, n);
      Vec3<T> g;
      Mat3<T> H;
      end_spring<T>(mv, E.direction.cast<T>(), E.stiffness, &g, K ? &H : nullptr);
      const auto i0 = static_cast<Eigen::Index>(line.dof(n, 3));
      R.template segment<3>(i0) += g;
      if (K) K->add_block(std::array<Eigen::Index, 3>{i0, i0 + 1, i0 + 2}, H);
    }
  }
  if (lc.frozen_drag) R -= lc.frozen_drag->cast<T>();
  if (lc.constant_load) R -= lc.constant_load->cast<T>();
}

/// line_static_residual with the line's load model built for this call (a solver that
/// evaluates the residual many times holds the model: LineModel::elements_of).
template <class T, class Band = BandMatrix<T>>
void line_static_residual(const Line& line, const StaticLoadCase& lc, const VecX<T>& q, VecX<T>& R,
                          Band* K = nullptr) {
  const auto model = LineModel<T>::elements_of(line, detail::seabed_of(lc));
  line_static_residual<T, Band>(model, line, lc, q, R, K);
}

/// Assemble the mass matrix of a line at state q into M (a BandMatrix or SymmetricBandMatrix
/// sized for the line, zeroed by the caller): consistent structural mass, plus the added mass
/// of the part below surface_z when `with_added_mass`; the line's load model's
/// (LineModel::mass).
template <class T, class Band>
void line_mass(const Line& line, const VecX<T>& q, Band& M, bool with_added_mass = true, double surface_z = 0) {
  auto model = LineModel<T>::elements_of(line);
  model.set_surface_z(surface_z);
  detail::BandSlotSink<Band> sink{&M};
  model.mass(q, sink, with_added_mass);
}

/// Total potential energy of the line at q [J]: strain energy, weight potential, seabed
/// penalty potential, the potential of the buoyancy lost above the surface (Hermite), all the
/// load model's (LineModel::potential_energy), end springs, minus the work of the constant
/// loads (frozen drag, constant load) at q. The energy whose gradient is line_static_residual
/// (without a live current).
inline double line_potential_energy(const LineModel<double>& model, const Line& line, const StaticLoadCase& lc,
                                    const VecX<double>& q) {
  detail::check_line_model(model, line, lc);
  double E = model.potential_energy(q, detail::static_loads_of(line, lc));
  if (line.hermite()) {
    for (int end = 0; end < 2; ++end) {
      const LineEnd& Ed = line.end(end);
      if (Ed.rotation != EndRotation::spring) continue;
      E += end_spring<double>(line.m(q, line.end_node(end)), Ed.direction, Ed.stiffness);
    }
  }
  if (lc.frozen_drag) E -= lc.frozen_drag->dot(q);
  if (lc.constant_load) E -= lc.constant_load->dot(q);
  return E;
}

/// line_potential_energy with the line's load model built for this call.
inline double line_potential_energy(const Line& line, const StaticLoadCase& lc, const VecX<double>& q) {
  return line_potential_energy(LineModel<double>::elements_of(line, detail::seabed_of(lc)), line, lc, q);
}

}  // namespace cabledyn
