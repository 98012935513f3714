// cabledyn: line types and sections.
// A line is built from sections joined end to end (spec "Kinematics and discretisation");
// each section has a line type (MoorDyn LINE TYPES columns) and is meshed into NumSegs equal
// elements. EI = 0 selects the tension element, EI > 0 the cubic-Hermite element.
#pragma once

#include <cmath>
#include <string>

#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/hydro/morison.hpp"

namespace cabledyn {

/// A line type (deck LINE TYPES row).
struct LineType {
  std::string name = "line type";
  double d = 0;       ///< hydrodynamic diameter Diam [m]
  double rho_A = 0;   ///< dry mass per unstretched metre MassDenInAir [kg/m]
  double EA = 0;      ///< axial stiffness [N]
  double BA = 0;      ///< axial damping [N s]; negative: -zeta (spec "Axial damping")
  double EI = 0;      ///< bending stiffness [N m^2]; 0 selects the EI = 0 element
  double Cdn = 0;     ///< normal drag coefficient
  double Cdt = 0;     ///< tangential drag coefficient
  double Can = 0;     ///< normal added-mass coefficient
  double Cat = 0;     ///< tangential added-mass coefficient

  /// Throws InputError naming the type and the first bad column.
  void validate() const {
    const std::string obj = "LineType " + name;
    auto pos = [&](double v, const char* q) {
      if (!(std::isfinite(v) && v > 0)) throw InputError(obj, q, v, "> 0");
    };
    auto nonneg = [&](double v, const char* q) {
      if (!(std::isfinite(v) && v >= 0)) throw InputError(obj, q, v, ">= 0");
    };
    pos(d, "Diam");
    nonneg(rho_A, "MassDenInAir");
    pos(EA, "EA");
    if (!std::isfinite(BA)) throw InputError(obj, "BA", BA, "finite");
    nonneg(EI, "EI");
    nonneg(Cdn, "Cdn");
    nonneg(Cdt, "Cdt");
    nonneg(Can, "Can");
    nonneg(Cat, "Cat");
  }

  /// Morison coefficients at water density rho.
  MorisonCoefficients morison(double rho) const {
    MorisonCoefficients c;
    c.d = d;
    c.Cdn = Cdn;
    c.Cdt = Cdt;
    c.Can = Can;
    c.Cat = Cat;
    c.rho = rho;
    return c;
  }

  /// Submerged weight per unstretched metre w = (rho_A - rho A) g [N/m], positive down
  /// (spec "Buoyancy and wetting").
  double submerged_weight(const Environment& env) const {
    return cabledyn::submerged_weight(rho_A, d, env.rho_w, env.g);
  }
};

/// A section of a line: a line type over an unstretched length, meshed into `segments`
/// equal elements (deck SECTIONS row, listed from End A to End B).
struct LineSection {
  LineType type;
  double length = 0;   ///< unstretched length [m]
  int segments = 0;    ///< NumSegs

  void validate(const std::string& object) const {
    type.validate();
    if (!(std::isfinite(length) && length > 0)) throw InputError(object, "length", length, "> 0");
    if (segments < 1) throw InputError(object, "NumSegs", segments, ">= 1");
  }
};

}  // namespace cabledyn
