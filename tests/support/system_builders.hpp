// Test support for the system tests: a line section and a line type from their numbers, a
// held line end, a point, a flat seabed, the energy drift of a system march (the energy checks
// of system_dynamics_test.cpp and system_hermite_test.cpp), and the tangent checks against
// duals (a seeded dual state, the derivative blocks, the assembled dense tangent).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

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

/// A rod of length L hanging from a pin held 20 m down (the compound pendulum of the rods
/// tests): diameter d, mass per metre mu, side added-mass coefficient Ca (CaEnd 0.6, 8 drag
/// stations, no drag), tilted th0 about y; its inertia about the pin across its axis I_pin =
/// mu (L^3/3 + d^2 L/16) + rho A Ca L^3/3 and its small-angle swing stiffness
/// k = (mu - rho A) g L^2 / 2.
struct PinnedPendulum {
  BodyModel<double> body;
  double I_pin = 0, k = 0;
  double period() const { return 2 * kPi * std::sqrt(I_pin / k); }
};
inline PinnedPendulum pinned_pendulum(double L, double d, double mu, double Ca, double th0, const Environment& env) {
  PinnedPendulum p;
  BodyModel<double>& B = p.body;
  B.name = "pinned rod";
  B.kind = BodyKind::pinned;
  B.r = Vec3<double>(0, 0, -20);
  // Hanging down (the rod's z axis turned to -z), tilted th0 about y.
  B.R = so3_exp(Vec3<double>(0, th0, 0)) * rotation_xyz(kPi, 0.0, 0.0);
  RodPart<double> rod;
  rod.name = "rod";
  rod.b = Vec3<double>(0, 0, L);
  rod.d = d;
  rod.rho_A = mu;
  rod.Ca = Ca;
  rod.CaEnd = 0.6;
  rod.segments = 8;
  B.rods.push_back(rod);
  const double rA = env.rho_w * kPi * d * d / 4;
  p.I_pin = mu * (L * L * L / 3 + d * d / 4 * L / 4) + rA * Ca * L * L * L / 3;
  p.k = (mu - rA) * env.g * L * L / 2;
  return p;
}

/// Moors `sys`'s body 0 (a float_body) by three lines of 158, 30 and 158 m from body points 3 m
/// out at 120 degree spacing to fixed anchors 100, 25 and 100 m out (40, 150 and 150 m deep):
/// EI, elements, axial damping BA and Morison Cd, Cdt, Ca per the arguments (EA 5e8, 80 kg/m,
/// 0.1 m). Line i runs from its body point (End A) to its anchor (End B).
template <class T>
void add_float_lines(MooringSystem<T>& sys, const double (&EI)[3], const int (&segs)[3], double BA, double Cd,
                     double Cdt, double Ca) {
  const double len[3] = {158, 30, 158}, out[3] = {100, 25, 100};
  for (int i = 0; i < 3; ++i) {
    const double th = 2 * kPi * i / 3 + 0.2;
    PointModel<T> f;
    f.kind = PointKind::body;
    f.body = 0;
    f.r = Vec3<T>(T(3 * std::cos(th)), T(3 * std::sin(th)), T(-2));
    PointModel<T> a;
    a.kind = PointKind::fixed;
    a.r = Vec3<T>(T(out[i] * std::cos(th)), T(out[i] * std::sin(th)), T(i == 1 ? -40.0 : -150.0));
    const SectionModel<T> s = system_section<T>({len[i], segs[i], 5e8, EI[i], 80, 0.1, BA, Cd, Cdt, Ca, 0});
    sys.add_line(LineModel<T>("line " + std::to_string(i + 1), {s}, sys.environment()), sys.add_point(f), sys.add_point(a));
  }
}

/// Moves state s of a system whose body 0 is free off its start (the tangent checks' state): the
/// DOFs before the body's by 0.4 sin(1.3 i), the body shifted by (0.4, -0.2, 0.1) and turned by
/// (0.05, -0.03, 0.08), every velocity 0.2 sin(0.7 i).
inline void perturb_body_state(const MooringSystem<double>& sys, SystemState<double>& s) {
  const Eigen::Index n = sys.dofs(), d = sys.body_dof(0);
  for (Eigen::Index i = 0; i < d; ++i) s.q(i) += 0.4 * std::sin(1.3 * double(i));
  s.q.segment<3>(d + 3) = Vec3<double>(0.05, -0.03, 0.08);
  s.q.segment<3>(d) += Vec3<double>(0.4, -0.2, 0.1);
  for (Eigen::Index i = 0; i < n; ++i) s.v(i) = 0.2 * std::sin(0.7 * double(i));
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

/// Steps st by 0.05 s to t = 0.05 k for k = from .. to, coupled point p surging 2 m at
/// 0.6 rad/s about r0 (the march of the allocation checks).
inline void surge_steps(MooringSystem<double>& sys, SystemStepper<MooringSystem<double>>& st, int p,
                        const Vec3<double>& r0, int from, int to) {
  for (int k = from; k <= to; ++k) {
    const double t = 0.05 * k;
    sys.set_coupled(p, r0 + Vec3<double>(2 * std::sin(0.6 * t), 0, 0), Vec3<double>(1.2 * std::cos(0.6 * t), 0, 0),
                    Vec3<double>(-0.72 * std::sin(0.6 * t), 0, 0));
    st.step(0.05);
  }
}

/// Adds a point of kind k at r with mass m, volume V, drag area CdA and added-mass
/// coefficient Ca; returns its index.
template <class T>
int add_point(MooringSystem<T>& sys, PointKind k, const Vec3<double>& r, double m = 0, double V = 0, double CdA = 0,
              double Ca = 0) {
  PointModel<T> p;
  p.kind = k;
  p.r = r.cast<T>();
  p.mass = T(m);
  p.volume = T(V);
  p.CdA = CdA;
  p.Ca = Ca;
  return sys.add_point(p);
}

/// The dual of state s (n DOFs) seeded in 3n directions: q, then v, then a.
template <class D>
SystemState<D> seeded_dual_state(const SystemState<double>& s) {
  const Eigen::Index n = s.q.size();
  SystemState<D> d;
  d.t = D(s.t);
  d.q.resize(n);
  d.v.resize(n);
  d.a.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    d.q(i) = D(s.q(i), VecX<double>::Unit(3 * n, i));
    d.v(i) = D(s.v(i), VecX<double>::Unit(3 * n, n + i));
    d.a(i) = D(s.a(i), VecX<double>::Unit(3 * n, 2 * n + i));
  }
  for (const auto& R : s.R) d.R.push_back(R.cast<D>());
  return d;
}

/// The n x n block `block` (0: d/dq, 1: d/dv, 2: d/da) of the derivative parts of f (a
/// function of a seeded_dual_state).
template <class D>
MatX<double> dual_block(const VecX<D>& f, Eigen::Index n, int block) {
  MatX<double> J = MatX<double>::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    if (f(i).derivatives().size()) J.row(i) = f(i).derivatives().segment(block * n, n).transpose();
  return J;
}

/// The dense tangent system sys assembles at s: kind 0 the static dR/dq, 1 the dynamic
/// wq dr/dq + wv dr/dv, 2 the inertia's wm M + wq d(M a)/dq.
template <class System>
MatX<double> assembled_tangent(const System& sys, const SystemState<double>& s, int kind, double wq, double wv,
                               double wm) {
  auto J = sys.make_jacobian();
  J.set_zero();
  VecX<double> r;
  if (kind == 0) sys.static_residual(s, r, &J);
  if (kind == 1) sys.dynamic_residual(s, r, &J, wq, wv);
  if (kind == 2) sys.inertia(s, r, &J, wm, wq);
  return MatX<double>(J.to_dense());
}

/// max |A - B| over max |B|.
inline double relative_difference(const MatX<double>& A, const MatX<double>& B) {
  return (A - B).cwiseAbs().maxCoeff() / std::max(B.cwiseAbs().maxCoeff(), 1e-300);
}

/// The tangents a system with clamped ends assembles at s against the derivatives of sysd (the
/// same system in duals): the static dR/dq (at v = 0), then, s committed, the dynamic dr/dq and
/// dr/dv; returned as their relative differences. The held values of the clamped tangent
/// slots (`held`: (line, node) pairs) have rows of their own with a positive unit diagonal in the
/// tangent and nothing in the duals: they are dropped, and `held_ok` says whether each such
/// row held its diagonal alone. The clamped slots' held values of s are set to zero first.
template <class D>
std::array<double, 3> clamped_tangent_errors(MooringSystem<double>& sys, const MooringSystem<D>& sysd,
                                             SystemState<double>& s,
                                             const std::vector<std::pair<int, std::size_t>>& held, bool& held_ok) {
  const Eigen::Index n = sys.dofs();
  for (const auto& [l, i] : held) {
    const Eigen::Index k = sys.tangent_dof(l, i);
    s.q(k + 1) = 0, s.q(k + 2) = 0, s.v(k + 1) = 0, s.v(k + 2) = 0;
  }
  held_ok = true;
  auto drop_held = [&](MatX<double> A) {
    for (const auto& [l, i] : held) {
      const Eigen::Index k = sys.tangent_dof(l, i);
      for (int c = 1; c < 3; ++c) {
        held_ok = held_ok && A(k + c, k + c) > 0 && A.row(k + c).cwiseAbs().sum() == A(k + c, k + c);
        A(k + c, k + c) = 0;
      }
    }
    return A;
  };
  std::array<double, 3> e{};
  SystemState<double> s0 = s;
  s0.v.setZero();
  VecX<D> Rd;
  sysd.static_residual(seeded_dual_state<D>(s0), Rd, nullptr);
  e[0] = relative_difference(drop_held(assembled_tangent(sys, s0, 0, 1, 0, 0)), dual_block(Rd, n, 0));
  sys.commit(s);
  VecX<D> rd;
  sysd.dynamic_residual(seeded_dual_state<D>(s), rd, nullptr, D(0), D(0));
  for (int which = 0; which < 2; ++which)
    e[static_cast<std::size_t>(1 + which)] =
        relative_difference(drop_held(assembled_tangent(sys, s, 1, which == 0 ? 1 : 0, which == 0 ? 0 : 1, 0)),
                            dual_block(rd, n, which));
  return e;
}

/// Adds to F and M the static End A forces of lines 0 .. n - 1 of sys in state s (each on the
/// point its End A is on) and their moments about rb: a body's balance written by hand in a
/// test. Returns the largest of those forces [N].
inline double add_end_a_loads(const MooringSystem<double>& sys, const SystemState<double>& s, int n,
                              const Vec3<double>& rb, Vec3<double>& F, Vec3<double>& M) {
  double largest = 0;
  for (int l = 0; l < n; ++l) {
    const Vec3<double> f = sys.line_end_force(s, l, 0);
    F += f;
    M += Vec3<double>(sys.point_position(s, sys.line(l).point[0]) - rb).cross(f);
    largest = std::max(largest, f.norm());
  }
  return largest;
}

}  // namespace cabledyn::test_support
