// cabledyn: environment constants.
// Conventions (MoorDyn v2, EQUATIONS.md): SI units, z up, z = 0 the still water level,
// g = 9.80665 m/s^2, rho_w = 1025 kg/m^3 unless the deck says otherwise; no WtrDpth means
// no seabed.
#pragma once

#include <cmath>
#include <optional>
#include <string>

#include "cabledyn/core/errors.hpp"

namespace cabledyn {

/// Standard gravity [m/s^2].
inline constexpr double kGravity = 9.80665;
/// Default sea-water density [kg/m^3].
inline constexpr double kRhoWater = 1025.0;
/// pi to long double precision.
inline constexpr long double kPiLD = 3.141592653589793238462643383279502884L;
/// pi in double.
inline constexpr double kPi = static_cast<double>(kPiLD);

/// The environment every load sees: gravity, water density and the water depth (the
/// seabed at z = -depth; none when absent).
struct Environment {
  double g = kGravity;                ///< gravity [m/s^2]
  double rho_w = kRhoWater;           ///< water density [kg/m^3]
  std::optional<double> depth;        ///< water depth [m], > 0; absent: no seabed

  /// Seabed elevation [m] (z of the flat floor), or none.
  std::optional<double> seabed_z() const {
    if (!depth) return std::nullopt;
    return -*depth;
  }

  /// Throws InputError naming the first bad constant.
  void validate() const {
    if (!(std::isfinite(g) && g >= 0)) throw InputError("Environment", "g", g, ">= 0");
    if (!(std::isfinite(rho_w) && rho_w >= 0))
      throw InputError("Environment", "rho_w", rho_w, ">= 0");
    if (depth && !(std::isfinite(*depth) && *depth > 0))
      throw InputError("Environment", "WtrDpth", *depth, "> 0");
  }
};

}  // namespace cabledyn
