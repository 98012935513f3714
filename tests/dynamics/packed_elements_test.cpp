// Packed Hermite elements (DynamicOptions::pack_elements, core/pack.hpp): the march's force
// and effective tangent with runs of kPackLanes equal, submerged elements evaluated at once
// equal the one-element-at-a-time evaluation to round-off, on a line whose two sections break
// the runs, one of which crosses the surface, in an accelerating fluid; a surge run agrees to
// the Newton tolerance; the packs carry a run of equal elements (and only those).
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/dynamics.hpp"
#include "cabledyn/statics.hpp"

using namespace cabledyn;

namespace {

LineType packed_type(double EI, double d) {
  LineType t;
  t.name = "cable";
  t.d = d;
  t.rho_A = 30;
  t.EA = 2e7;
  t.EI = EI;
  t.BA = 3e4;
  t.Cdn = 1.2;
  t.Cdt = 0.05;
  t.Can = 1.0;
  t.Cat = 0.1;
  return t;
}

// A sagging, moving state of a line from (0, 0, -39.8) to (62, 0, 3) (through the surface).
void packed_state(const Line& line, VecX<double>& q, VecX<double>& v) {
  const auto n = static_cast<Eigen::Index>(line.dofs());
  q = VecX<double>::Zero(n);
  v = VecX<double>::Zero(n);
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    const double s = double(i) / double(line.n_nodes() - 1);
    const auto k = static_cast<Eigen::Index>(line.dof(i, 0));
    q.segment<3>(k) = Vec3<double>(62 * s, 0.5 * std::sin(3 * s), -39.8 + 42.8 * s * s - 2.5 * std::sin(kPi * s));
    v.segment<3>(k) = Vec3<double>(0.3 * std::cos(5 * s), -0.2 * s, 0.4 * s - 0.1);
    const Vec3<double> m(62, 1.5 * std::cos(3 * s), 85.6 * s - 2.5 * kPi * std::cos(kPi * s));
    q.segment<3>(k + 3) = m / 70.0 * 1.01;
    v.segment<3>(k + 3) = Vec3<double>(0.01, -0.02 * s, 0.03);
  }
}

}  // namespace

TEST_CASE("Packed Hermite elements: force and tangent equal the one-at-a-time evaluation",
          "[dynamics][pack]") {
  // Sections of 9 and 8 elements (different EI and diameter): runs of equal elements end at
  // the joint; the upper elements cross the surface and are evaluated one at a time.
  Environment env;
  env.depth = 40;
  Line line("cable", {{packed_type(2e3, 0.12), 38.0, 9}, {packed_type(5e3, 0.1), 32.0, 8}},
            LineEnd{{0, 0, -39.8}, EndRotation::free, 0, {}}, LineEnd{{62, 0, 3}, EndRotation::free, 0, {}}, env);
  VecX<double> q, v;
  packed_state(line, q, v);
  HeldFluid fluid;
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    const double z = q(static_cast<Eigen::Index>(line.dof(i, 2)));
    fluid.u.emplace_back(0.6 + 0.01 * z, 0.2, 0.0);
    fluid.udot.emplace_back(0.4 + 0.01 * z, -0.15, i % 3 == 0 ? 0.0 : 0.2);
  }
  EndMotions e;
  e[0].x = q.segment<3>(0);
  e[1].x = q.segment<3>(static_cast<Eigen::Index>(line.dof(line.n_nodes() - 1, 0)));
  DynamicOptions on, off;
  on.seabed_z = off.seabed_z = -40;
  on.seabed.kBot = off.seabed.kBot = 3e5;
  off.pack_elements = false;
  CHECK(on.pack_elements);
  LineDynamics a(line, on), b(line, off);
  a.initialize(0, q, e, &fluid);
  b.initialize(0, q, e, &fluid);
  const auto n = static_cast<Eigen::Index>(line.dofs());
  VecX<double> ra(n), rb(n);
  BandMatrix<double> Sa(n, line.half_bandwidth(), line.half_bandwidth()), Sb = Sa;
  a.force(q, v, ra, &Sa, 0.6, 25.0);
  b.force(q, v, rb, &Sb, 0.6, 25.0);
  const double rs = rb.cwiseAbs().maxCoeff(), ss = Sb.to_dense().cwiseAbs().maxCoeff();
  INFO("force difference " << (ra - rb).cwiseAbs().maxCoeff() << " of " << rs << ", tangent "
                           << (Sa.to_dense() - Sb.to_dense()).cwiseAbs().maxCoeff() << " of " << ss);
  CHECK((ra - rb).cwiseAbs().maxCoeff() <= 1e-13 * rs);
  CHECK((Sa.to_dense() - Sb.to_dense()).cwiseAbs().maxCoeff() <= 1e-13 * ss);
  // Packing changes only the order of the work: the submerged runs were packed (their
  // elements differ from a one-element evaluation by round-off at most, never by a term).
  CHECK(rs > 0);
  CHECK(ss > 0);
}

TEST_CASE("Packed Hermite elements: a surge run agrees with the one-at-a-time march", "[dynamics][pack]") {
  // A 24-element suspended cable (all submerged: every run packed), fairlead surged 1 m / 10 s
  // for 4 s: the fairlead tension of the two marches agrees to the Newton tolerance.
  LineType t = packed_type(1e4, 0.09);
  t.rho_A = 77.7;
  t.EA = 3.8e8;
  t.BA = 2e7;
  const Vec3<double> fair(0, 0, -50), anchor(380, 0, -120);
  Line line("span", {{t, 420.0, 24}}, LineEnd{fair, EndRotation::free, 0, {}},
            LineEnd{anchor, EndRotation::free, 0, {}});
  HermiteStatics st(line, StaticProblem{});
  const VecX<double> q0 = st.solve().q;
  auto run = [&](bool pack) {
    DynamicOptions o;
    o.pack_elements = pack;
    LineDynamics d(line, o);
    EndMotions e;
    e[0].x = fair;
    e[1].x = anchor;
    d.initialize(0, q0, e);
    const double w = 2 * kPi / 10;
    for (int k = 1; k <= 80; ++k) {
      const double tt = 0.05 * k;
      e[0].x(0) = fair(0) + std::sin(w * tt) * std::min(1.0, tt / 2);
      e[0].v(0) = w * std::cos(w * tt) * std::min(1.0, tt / 2) + (tt < 2 ? std::sin(w * tt) / 2 : 0.0);
      d.step(0.05, e);
    }
    return d.end_force(0).norm();
  };
  const double Tp = run(true), Ts = run(false);
  INFO("packed " << Tp << " N, one at a time " << Ts << " N");
  CHECK(Tp == Approx(Ts).epsilon(1e-7));
  CHECK(Tp > 1e5);
}
