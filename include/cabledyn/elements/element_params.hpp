// cabledyn: parameters shared by the element kernels, their validation and the resolution of
// a negative BA as a damping ratio.
#pragma once

#include <cmath>
#include <string>

#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/quadrature.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// Axial damping coefficient BA [N s] of an element from the line-type column value.
/// BA >= 0 is taken as given; BA < 0 is a target damping ratio zeta = -BA of the axial mode
/// of the element, resolved as BA = zeta L0 sqrt(EA rho_A) (spec "Axial damping",
/// EQUATIONS.md section 2), with L0 the final element length.
/// P is double, or a dual when the parameters are design parameters.
template <class P = double>
P resolve_axial_damping(const P& BA_input, const P& L0, const P& EA, const P& rho_A) {
  using std::sqrt;
  if (value_of(BA_input) >= 0) return BA_input;
  return -BA_input * L0 * sqrt(EA * rho_A);
}

namespace detail {
inline void check_positive(double v, const std::string& object, const char* name) {
  if (!(std::isfinite(v) && v > 0)) throw InputError(object, name, v, "> 0");
}
inline void check_non_negative(double v, const std::string& object, const char* name) {
  if (!(std::isfinite(v) && v >= 0)) throw InputError(object, name, v, ">= 0");
}
inline void check_order(int order, const std::string& object, const char* name) {
  if (order < 1 || order > kMaxGaussOrder) throw InputError(object, name, order, "in [1, 6]");
}
}  // namespace detail

/// Parameters of an EI = 0 tension element (spec "The EI = 0 tension element"). The
/// parameter scalar P is double for a plain model and a dual for design sensitivities
/// (d(tension)/d(EA), d(tension)/d(L0): ARCHITECTURE.md, "The scalar is a template parameter
/// all the way up").
template <class P = double>
struct BasicTensionElementParams {
  P L0 = 0;                   ///< unstretched length [m], > 0
  P EA = 0;                   ///< axial stiffness [N], > 0
  P BA = 0;                   ///< axial damping [N s], >= 0 (resolve a negative column first)
  P rho_A = 0;                ///< dry mass per unstretched metre [kg/m], >= 0
  bool tension_only = true;   ///< slack (eps < 0) carries no elastic force

  /// Throws InputError naming `object` and the first bad parameter.
  void validate(const std::string& object) const {
    detail::check_positive(static_cast<double>(value_of(L0)), object, "L0");
    detail::check_positive(static_cast<double>(value_of(EA)), object, "EA");
    detail::check_non_negative(static_cast<double>(value_of(BA)), object, "BA");
    detail::check_non_negative(static_cast<double>(value_of(rho_A)), object, "rho_A");
  }
};
using TensionElementParams = BasicTensionElementParams<double>;

/// Parameters of a cubic-Hermite bending element (spec "The cubic-Hermite bending element").
struct HermiteElementParams {
  double L0 = 0;              ///< unstretched length [m], > 0
  double EA = 0;              ///< axial stiffness [N], > 0
  double EI = 0;              ///< bending stiffness [N m^2], >= 0
  double BA = 0;              ///< axial damping [N s], >= 0 (resolve a negative column first)
  double rho_A = 0;           ///< dry mass per unstretched metre [kg/m], >= 0
  int axial_order = 4;        ///< Gauss points of the axial energy (1..6)
  int bending_order = 4;      ///< Gauss points of the bending energy (1..6)

  /// Throws InputError naming `object` and the first bad parameter.
  void validate(const std::string& object) const {
    detail::check_positive(L0, object, "L0");
    detail::check_positive(EA, object, "EA");
    detail::check_non_negative(EI, object, "EI");
    detail::check_non_negative(BA, object, "BA");
    detail::check_non_negative(rho_A, object, "rho_A");
    detail::check_order(axial_order, object, "axial_quadrature_order");
    detail::check_order(bending_order, object, "bending_quadrature_order");
  }
};

}  // namespace cabledyn
