// The benchmarks' OC3 line (902.2 m of chain, 320 m depth) from a coupled fairlead to a fixed
// anchor as a one-line MooringSystem at its static equilibrium, and the fairlead's surge.
#pragma once

#include <algorithm>
#include <cmath>

#include "cabledyn/dynamics.hpp"
#include "cabledyn/system.hpp"

namespace oc3 {

using namespace cabledyn;

inline const Vec3<double> kFair{5.2, 0, -70}, kAnchor{853.87, 0, -320};

/// The OC3 line type with bending stiffness EI (0: the chain).
inline LineType type(double EI, const char* name = "OC3") {
  LineType t;
  t.name = name;
  t.d = 0.09;
  t.rho_A = 77.7066;
  t.EA = 384.243e6;
  t.EI = EI;
  t.BA = -0.8;
  t.Cdn = 1.6;
  t.Cdt = 0.1;
  t.Can = 1.0;
  return t;
}

inline Environment env() {
  Environment e;
  e.depth = 320;
  return e;
}

/// The fairlead's surge at time t: 2 m at 10 s, ramped in linearly over 10 s (the benchmarks
/// run long past it), with the velocity and acceleration of that motion.
inline EndMotion surge(double t) {
  const double A = 2, w = 2 * kPi / 10;
  const double r = std::min(1.0, t / 10), r1 = t < 10 ? 0.1 : 0.0;
  const double sn = std::sin(w * t), cs = std::cos(w * t);
  EndMotion m;
  m.x = kFair;
  m.x(0) += A * r * sn;
  m.v(0) = A * (r1 * sn + r * w * cs);
  m.a(0) = A * (2 * r1 * w * cs - r * w * w * sn);
  return m;
}

/// A line of type t in n elements on a seabed of kBot 1e5 Pa/m and damping cBot, as a one-line
/// system at its static equilibrium s0; its fairlead is point pf.
struct OneLine {
  MooringSystem<double> sys;
  SystemState<double> s0;
  int pf = -1;
  OneLine(const LineType& t, int n, double cBot) : sys(env(), t.name) {
    SeabedModel bed;
    bed.z = -320;
    bed.params.kBot = 1e5;
    bed.params.cBot = cBot;
    PointModel<double> f, a;
    f.kind = PointKind::coupled;
    f.r = kFair;
    a.kind = PointKind::fixed;
    a.r = kAnchor;
    pf = sys.add_point(f);
    const int pa = sys.add_point(a);
    sys.add_line(LineModel<double>::from_line(Line(t.name, {{t, 902.2, n}}, LineEnd{kFair}, LineEnd{kAnchor}, env()), bed),
                 pf, pa);
    sys.renumber();
    s0 = sys.initial_state();
    solve_statics(sys, s0);
  }
  /// The fairlead moved to its surge at t.
  void surge_to(double t) {
    const EndMotion m = surge(t);
    sys.set_coupled(pf, m.x, m.v, m.a);
  }
};

}  // namespace oc3
