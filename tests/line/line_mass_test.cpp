// Line mass: consistent structural mass and Morison added mass of the wetted part; the EI = 0
// added mass's configuration derivative against duals.
#include <catch2/catch.hpp>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/line.hpp"

using namespace cabledyn;

namespace {
LineType type(double EI) {
  LineType t;
  t.name = "t";
  t.d = 0.1;
  t.rho_A = 20.0;
  t.EA = 1e8;
  t.EI = EI;
  t.Can = 1.0;
  t.Cat = 0.2;
  return t;
}
LineEnd at(double x, double y, double z) {
  LineEnd e;
  e.position = Vec3<double>(x, y, z);
  return e;
}
}  // namespace

TEST_CASE("Line mass: rigid translations carry structural plus added mass", "[line][mass]") {
  for (double EI : {0.0, 5e3}) {
    const Line l("line", {{type(EI), 30.0, 6}, {type(EI), 20.0, 4}}, at(0, 0, -20), at(50, 0, -20));
    VecX<double> q = VecX<double>::Zero(static_cast<Eigen::Index>(l.dofs()));
    for (std::size_t i = 0; i < l.n_nodes(); ++i) {
      q.segment<3>(static_cast<Eigen::Index>(l.dof(i, 0))) = Vec3<double>(l.s_node(i), 0, -20);
      if (l.hermite()) q.segment<3>(static_cast<Eigen::Index>(l.dof(i, 3))) = Vec3<double>(1, 0, 0);
    }
    const Eigen::Index n = static_cast<Eigen::Index>(l.dofs());
    SymmetricBandMatrix<double> M(n, l.half_bandwidth());
    line_mass<double>(l, q, M);
    const MatX<double> Md = M.to_dense();
    const double rA = 1025.0 * kPi * 0.01 / 4, m = 20.0 * 50.0;
    for (int dir = 0; dir < 3; ++dir) {
      VecX<double> u = VecX<double>::Zero(n);
      for (std::size_t i = 0; i < l.n_nodes(); ++i) u(static_cast<Eigen::Index>(l.dof(i, dir))) = 1;
      const double Ca = dir == 0 ? 0.2 : 1.0;  // the line lies along x
      INFO("EI " << EI << " direction " << dir);
      CHECK(u.dot(Md * u) == Approx(m + rA * Ca * 50.0).epsilon(1e-12));
    }
    // Above the surface: no added mass.
    VecX<double> qd = q;
    for (std::size_t i = 0; i < l.n_nodes(); ++i) qd(static_cast<Eigen::Index>(l.dof(i, 2))) = 5.0;
    SymmetricBandMatrix<double> Mdry(n, l.half_bandwidth());
    line_mass<double>(l, qd, Mdry);
    VecX<double> u = VecX<double>::Zero(n);
    for (std::size_t i = 0; i < l.n_nodes(); ++i) u(static_cast<Eigen::Index>(l.dof(i, 1))) = 1;
    CHECK(u.dot(Mdry.to_dense() * u) == Approx(m).epsilon(1e-12));
  }
}

TEST_CASE("EI = 0 added mass: configuration derivative equals duals", "[line][mass]") {
  const auto c = type(0).morison(1025.0);
  Vec<double, 6> q, a;
  q << 0.1, -0.4, -12.0, 3.0, 1.1, -14.5;
  a << 0.7, -0.3, 0.2, -1.1, 0.4, 0.9;
  const auto J = tension_added_mass_jacobian<double>(q, a, c, 3.5, 0.0);
  auto F = [&](const auto& x) {
    using S = typename std::decay_t<decltype(x)>::Scalar;
    return Vec<S, 6>(tension_added_mass<S>(Vec<S, 6>(x), c, 3.5, 0.0) * a.cast<S>());
  };
  const auto chk = check_jacobian(F, q, J);
  INFO(chk.log());
  CHECK(chk.ok(1e-13, 1e-8));
}
