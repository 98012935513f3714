// cabledyn: seabed normal contact at a node: the C1 penalty law with a 1e-6 m blend and the
// normal damper. Spec "Seabed contact"; EQUATIONS.md section 8:
//   g = z_floor - z (penetration), delta = 1e-6 m,
//   f_n = 0 (g <= 0);  k g^2 / (2 delta) (0 < g < delta);  k (g - delta/2) (g >= delta),
//   k = kBot d l_trib (nodal stiffness: kBot per unit area times diameter and tributary
//   length); damper -cBot d l_trib v_n chi only while moving into the bed, chi rising
//   linearly 0 -> 1 across the blend.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// Seabed contact parameters (MoorDyn units: kBot [Pa/m], cBot [Pa s/m]).
struct SeabedParams {
  double kBot = 1e5;      ///< normal stiffness per unit area [Pa/m]
  double cBot = 1e4;      ///< normal damping per unit area [Pa s/m]
  double delta = 1e-6;    ///< blend width of the C1 penalty law [m]

  void validate(const std::string& object = "seabed") const {
    if (!(std::isfinite(kBot) && kBot >= 0)) throw InputError(object, "kBot", kBot, ">= 0");
    if (!(std::isfinite(cBot) && cBot >= 0)) throw InputError(object, "cBot", cBot, ">= 0");
    if (!(std::isfinite(delta) && delta > 0)) throw InputError(object, "delta", delta, "> 0");
  }
};

/// Normal contact force at one node and its derivatives (upward positive).
template <class T>
struct NodalContact {
  T f = T(0);        ///< total normal force (elastic + damper) [N], upward
  T f_elastic = T(0);///< elastic part f_n^(k) [N]
  T df_dz = T(0);    ///< d f / d z (through the penetration g = z_floor - z)
  T df_dvz = T(0);   ///< d f / d v_z
  T energy = T(0);   ///< penalty potential of the elastic part [J]
};

/// The C1 penalty law f_n(g) of stiffness k [N/m] and its derivative and potential (k may be
/// a dual parameter: K is double or T).
template <class T, class K = double>
void penalty_law(const T& g, const K& k, double delta, T& f, T& df_dg, T& E) {
  if (!(value_of(g) > 0)) {
    f = df_dg = E = T(0);
  } else if (value_of(g) < delta) {
    f = T(k / (2 * delta)) * g * g;
    df_dg = T(k / delta) * g;
    E = T(k / (6 * delta)) * g * g * g;
  } else {
    f = T(k) * (g - T(delta / 2));
    df_dg = T(k);
    E = T(k) * (T(0.5) * g * g - T(delta / 2) * g + T(delta * delta / 6));
  }
}

/// Normal contact of a node at height z moving with vertical velocity vz over a flat floor
/// at z_floor, for a line of diameter d and tributary length l_trib (spec "Seabed contact").
/// d and l_trib are double, or the dual T when they are design parameters.
template <class T, class P = double>
NodalContact<T> seabed_contact(const T& z, const T& vz, double z_floor, const P& d, const P& l_trib,
                               const SeabedParams& p) {
  NodalContact<T> c;
  const P k = p.kBot * d * l_trib;
  const T g = T(z_floor) - z;
  T df_dg;
  penalty_law(g, k, p.delta, c.f_elastic, df_dg, c.energy);
  c.f = c.f_elastic;
  c.df_dz = -df_dg;
  // Damper: only while moving into the bed (vz < 0) and in contact.
  if (value_of(g) > 0 && value_of(vz) < 0 && p.cBot > 0) {
    const P cn = p.cBot * d * l_trib;
    const bool in_blend = value_of(g) < p.delta;
    const T chi = in_blend ? T(g / T(p.delta)) : T(1);
    c.f += T(-cn) * vz * chi;
    c.df_dvz = T(-cn) * chi;
    if (in_blend) c.df_dz += T(cn / P(p.delta)) * vz;  // d(-cn vz g/delta)/dz, dg/dz = -1
  }
  return c;
}

/// The Newton-update limit of seabed contact: the fraction of an update dz that takes a node at
/// height z from outside the floor (g <= 0) to the middle of the contact blend (g = delta / 2),
/// when the whole update would take it beyond the blend (g > delta); 1 otherwise. A
/// linearisation outside the floor does not see the contact, and the damper turns on across
/// the blend with the slope cn u / delta: a node landing within a step has its solution in
/// the blend or beyond it, and the full update from outside and the next one from beyond the
/// blend (where the damper is whole) cycled across it (the OC4 chain's marches spent most of
/// their subdivided steps there; measured in docs/dynamics.md). From the blend the tangent
/// holds the slope, and Newton converges; the marches take the limited update whole (a
/// line search would pull the node back out of the blend, where the cycle starts again). Not
/// in the spec: a safeguard of the iteration, the solution is unchanged.
inline double contact_entry_fraction(double z, double dz, double z_floor, double delta) {
  const double g0 = z_floor - z, g1 = z_floor - (z + dz);
  if (!(g0 <= 0) || !(g1 > delta)) return 1.0;
  return (0.5 * delta - g0) / (g1 - g0);
}

}  // namespace cabledyn
