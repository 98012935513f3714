// cabledyn: the tensile audit of a cubic-Hermite cable (option tensile_safety).
// Spec "Constitutive laws", Tensile audit (Hermite path): the audited force is the one that
// enters equilibrium, the element-mean axial force (the three-point Gauss mean of the signed
// resultant EA (|r'| - 1)), averaged over each element and its two neighbours weighted by
// length (one neighbour at a line end); a compressed span of three or more elements is never
// averaged away. A state is flagged when the three-element mean falls below -eps_tol EA_bar
// (EA_bar the length-weighted EA of the same elements, eps_tol = 2e-6 by default,
// tensile_strain_tolerance); the static audit compares with the tighter of that band and a
// thousandth of the peak tension (the largest pointwise resultant).
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "cabledyn/core/quadrature.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/line/line_model.hpp"

namespace cabledyn {

/// The worst audited element of a tensile audit.
struct TensileEvent {
  std::size_t element = 0;  ///< centre element (0-based)
  double force = 0;         ///< three-element mean axial force [N] (negative: compression)
  double threshold = 0;     ///< the band it fell below [N] (positive)
};

namespace detail {

// The audit of ne elements: mean_peak(e, peak) returns element e's three-point Gauss mean of the
// axial resultant and raises peak to its largest pointwise value; L0(e) and EA(e) its
// unstretched length and axial stiffness.
template <class MeanPeak, class Len, class Stiff>
std::optional<TensileEvent> tensile_audit_elements(std::size_t ne, MeanPeak&& mean_peak, Len&& L0, Stiff&& EA,
                                                   double eps_tol, bool static_band, std::vector<double>& mean) {
  mean.resize(ne);
  double peak = 0;
  for (std::size_t e = 0; e < ne; ++e) mean[e] = mean_peak(e, peak);
  std::optional<TensileEvent> worst;
  for (std::size_t e = 0; e < ne; ++e) {
    const std::size_t a = e > 0 ? e - 1 : e, b = std::min(e + 1, ne - 1);
    double sum = 0, len = 0, ea = 0;
    for (std::size_t k = a; k <= b; ++k) {
      sum += mean[k] * L0(k);
      ea += EA(k) * L0(k);
      len += L0(k);
    }
    const double m3 = sum / len;
    double band = eps_tol * ea / len;
    if (static_band) band = std::min(band, 1e-3 * peak);
    if (m3 < -band && (!worst || m3 + band < worst->force + worst->threshold)) worst = TensileEvent{e, m3, band};
  }
  return worst;
}

// Element e's three-point Gauss mean of the axial resultant of a Hermite element at its DOFs
// qe, raising peak to the largest pointwise value.
template <class Element, class Dofs>
double tensile_mean(const Element& el, const Dofs& qe, double& peak) {
  const auto rule = gauss_legendre<double>(3);
  double m = 0;
  for (int g = 0; g < 3; ++g) {
    const double N = el.axial_resultant_at(qe, rule.xi[g]);
    m += rule.w[g] * N;
    peak = std::max(peak, N);
  }
  return m;
}

}  // namespace detail

/// Tensile audit of a Hermite line at state q: the worst three-element mean below its band,
/// or none. `static_band` also caps the band at a thousandth of the peak tension.
/// `work` (optional) is scratch storage the caller keeps, so that a march audits without
/// allocating.
inline std::optional<TensileEvent> tensile_audit(const Line& line, const VecX<double>& q, double eps_tol = 2e-6,
                                                 bool static_band = false, std::vector<double>* work = nullptr) {
  if (!line.hermite()) return std::nullopt;
  std::vector<double> local;
  return detail::tensile_audit_elements(
      line.n_elements(),
      [&](std::size_t e, double& peak) {
        return detail::tensile_mean(line.hermite_element(e), line.element_dofs<double, 12>(q, e), peak);
      },
      [&](std::size_t e) { return line.L0(e); }, [&](std::size_t e) { return line.type(e).EA; }, eps_tol, static_band,
      work ? *work : local);
}

/// The same audit of a system line (LineModel in double) at its node vector x (the Hermite
/// layout: 6 DOFs per node, element e's 12 from 6 e): what the system route audits with
/// tensile_safety (MooringSystem::set_tensile_safety).
inline std::optional<TensileEvent> tensile_audit(const LineModel<double>& model, const VecX<double>& x,
                                                 double eps_tol = 2e-6, bool static_band = false,
                                                 std::vector<double>* work = nullptr) {
  if (!model.hermite()) return std::nullopt;
  std::vector<double> local;
  return detail::tensile_audit_elements(
      model.n_elements(),
      [&](std::size_t e, double& peak) {
        const Vec<double, 12> qe = x.segment<12>(static_cast<Eigen::Index>(6 * e));
        return detail::tensile_mean(model.hermite_element(e), qe, peak);
      },
      [&](std::size_t e) { return model.L0(e); }, [&](std::size_t e) { return model.hermite_element(e).params().EA; },
      eps_tol, static_band, work ? *work : local);
}

}  // namespace cabledyn
