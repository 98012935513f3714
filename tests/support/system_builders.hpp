// Test support for the system tests: a line section and a line type from their numbers, a
// held line end, a flat seabed, and the energy drift of a system march (the energy checks of
// system_dynamics_test.cpp and system_hermite_test.cpp).
#pragma once

#include <algorithm>
#include <cmath>

#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/system.hpp"

namespace cabledyn::test_support {

/// The numbers of a line section: length, elements, EA, EI, mass per metre, diameter, axial
/// damping and the Morison coefficients.
struct SectionNumbers {
  double length = 100;
  int segs = 10;
  double EA = 5e8, EI = 0, rho_A = 100, d = 0.1, BA = 0, Cdn = 0, Cdt = 0, Can = 0, Cat = 0;
};

/// A system section from its numbers.
template <class T>
SectionModel<T> system_section(const SectionNumbers& n) {
  SectionModel<T> s;
  s.length = T(n.length);
  s.segments = n.segs;
  s.EA = T(n.EA);
  s.EI = n.EI;
  s.rho_A = T(n.rho_A);
  s.d = T(n.d);
  s.BA = T(n.BA);
  s.Cdn = n.Cdn;
  s.Cdt = n.Cdt;
  s.Can = n.Can;
  s.Cat = n.Cat;
  return s;
}

/// The single-line LineType of the same numbers.
inline LineType line_type_of(const SectionNumbers& n) {
  LineType t;
  t.name = "line type";
  t.d = n.d;
  t.rho_A = n.rho_A;
  t.EA = n.EA;
  t.EI = n.EI;
  t.BA = n.BA;
  t.Cdn = n.Cdn;
  t.Cdt = n.Cdt;
  t.Can = n.Can;
  t.Cat = n.Cat;
  return t;
}

/// A line end held at p.
inline LineEnd held_end(const Vec3<double>& p) {
  LineEnd e;
  e.position = p;
  return e;
}

/// A flat seabed at z = -depth (kBot, cBot) and the environment of that depth.
struct FlatBed {
  Environment env;
  SeabedModel bed;
  FlatBed(double depth, double kBot = 3e6, double cBot = 3e5) {
    env.depth = depth;
    bed.z = -depth;
    bed.params.kBot = kBot;
    bed.params.cBot = cBot;
  }
};

/// A free submerged buoyant body: reference point 20 m down, mass 2e5 kg with its centre of
/// gravity 5 m below (0.3 m aft), 250 m^3 with its centre of buoyancy 1 m above, added-mass
/// coefficients 0.8 (the moored body of the system tests).
template <class T>
BodyModel<T> float_body() {
  BodyModel<T> B;
  B.name = "float";
  B.kind = BodyKind::free;
  B.r = Vec3<T>(T(0), T(0), T(-20));
  B.mass = T(2e5);
  B.cg = Vec3<T>(T(0.3), T(0), T(-5));
  B.inertia = Vec3<T>(T(2e6), T(2.2e6), T(8e5));
  B.volume = T(250);
  B.cb = Vec3<T>(T(0), T(0), T(1));
  B.Ca = Vec3<double>(0.8, 0.8, 0.8);
  return B;
}

/// The largest drift of the total energy (kinetic and potential) of a march of `steps` steps
/// of dt from state s at rho_inf (Newton tolerance 1e-10), over the initial kinetic energy.
inline double energy_drift(MooringSystem<double>& sys, const SystemState<double>& s, double rho_inf, double dt,
                           int steps) {
  const double E0 = sys.kinetic_energy(s) + sys.potential_energy(s);
  const double K0 = sys.kinetic_energy(s);
  SystemStepperOptions o;
  o.rho_inf = rho_inf;
  o.tol = 1e-10;
  SystemStepper<MooringSystem<double>> st(sys, o);
  st.initialize(s);
  double drift = 0;
  for (int k = 0; k < steps; ++k) {
    st.step(dt);
    const double E = sys.kinetic_energy(st.state()) + sys.potential_energy(st.state());
    drift = std::max(drift, std::fabs(E - E0));
  }
  return drift / K0;
}

}  // namespace cabledyn::test_support
