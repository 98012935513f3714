// Currents: uniform, a depth profile (linear interpolation, held outside), SeaState's
// CurrMod 1; gradients against duals; named errors. Spec "Currents".
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/sea/current.hpp"

using namespace cabledyn;

namespace {
// dU/dx by duals (3 directions) at x.
Eigen::Matrix3d dual_gradient(const Current& c, const Eigen::Vector3d& x) {
  using D = Dual<double, 3>;
  const Vec3<D> U = c.velocity(Vec3<D>(D(x(0), 3, 0), D(x(1), 3, 1), D(x(2), 3, 2)));
  Eigen::Matrix3d G = Eigen::Matrix3d::Zero();
  for (int i = 0; i < 3; ++i)
    if (U(i).derivatives().size() == 3) G.row(i) = U(i).derivatives().transpose();
  return G;
}
}  // namespace

TEMPLATE_TEST_CASE("current: uniform and profile currents", "[sea][current]", double, long double) {
  using V = TestType;
  const Current none = Current::none();
  CHECK(none.velocity(Vec3<V>(1, 2, -3)).norm() == 0);
  const Current uni = Current::uniform(Eigen::Vector3d(0.4, -0.2, 0.0));
  CHECK((uni.velocity(Vec3<V>(5, 5, -80)) - Vec3<V>(V(0.4), V(-0.2), V(0))).norm() == 0);
  CHECK(uni.gradient(Eigen::Vector3d(0, 0, -3)).norm() == 0);
  // a profile: linear between levels, exact at the levels, held outside
  const Current prof = Current::profile({-100.0, -40.0, -10.0, 0.0},
                                        {Eigen::Vector3d(0.1, 0, 0), Eigen::Vector3d(0.3, 0.1, 0),
                                         Eigen::Vector3d(0.5, 0.1, 0), Eigen::Vector3d(0.9, -0.1, 0)});
  CHECK(std::fabs(prof.velocity(Vec3<V>(0, 0, -40))(0) - V(0.3)) < 1e-16);
  CHECK(std::fabs(prof.velocity(Vec3<V>(0, 0, -70))(0) - V(0.2)) < 1e-15);
  CHECK(std::fabs(prof.velocity(Vec3<V>(0, 0, -70))(1) - V(0.05)) < 1e-15);
  CHECK(std::fabs(prof.velocity(Vec3<V>(0, 0, -2.5))(0) - V(0.8)) < 1e-15);
  CHECK(prof.velocity(Vec3<V>(7, 1, -300))(0) == V(0.1));  // held below
  CHECK(prof.velocity(Vec3<V>(7, 1, 2.5))(0) == V(0.9));   // held above (wave crest)
  // a linear profile is reproduced exactly between its levels
  const Current lin = Current::profile({-50.0, -20.0, 0.0}, {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(0.6, 0, 0),
                                                             Eigen::Vector3d(1.0, 0, 0)});
  for (const V z : {V(-49), V(-35.5), V(-20), V(-7.25)}) {
    const V expect = z < -20 ? (z + 50) * V(0.02) : V(0.6) + (z + 20) * V(0.02);
    CHECK(std::fabs(lin.velocity(Vec3<V>(0, 0, z))(0) - expect) < 1e-15);
  }
}

TEST_CASE("current: profile gradients match duals, zero outside", "[sea][current][autodiff]") {
  const Current prof = Current::profile({-100.0, -40.0, 0.0}, {Eigen::Vector3d(0.1, 0.2, 0),
                                                               Eigen::Vector3d(0.3, -0.1, 0),
                                                               Eigen::Vector3d(0.9, 0.0, 0.05)});
  for (const double z : {-90.0, -41.0, -39.0, -3.0}) {
    const Eigen::Vector3d x(2, 3, z);
    CHECK((prof.gradient(x) - dual_gradient(prof, x)).norm() < 1e-16);
  }
  CHECK(std::fabs(prof.gradient(Eigen::Vector3d(0, 0, -70))(0, 2) - 0.2 / 60) < 1e-17);
  CHECK(prof.gradient(Eigen::Vector3d(0, 0, -120)).norm() == 0);
  CHECK(prof.gradient(Eigen::Vector3d(0, 0, 1)).norm() == 0);
  // on a level: the slope of the interval above it
  CHECK(std::fabs(prof.gradient(Eigen::Vector3d(0, 0, -40))(0, 2) - 0.6 / 40) < 1e-17);
}

TEST_CASE("current: SeaState CurrMod 1 reproduces the HydroDyn formulas", "[sea][current]") {
  // sub-surface 1.2 m/s along 30 deg, near-surface 0.5 m/s over 20 m along 90 deg,
  // depth-independent 0.1 m/s along 180 deg, in 150 m
  SeaStateCurrent p;
  p.ss_speed = 1.2;
  p.ss_dir = kPi / 6;
  p.ns_speed = 0.5;
  p.ns_ref = 20;
  p.ns_dir = kPi / 2;
  p.di_speed = 0.1;
  p.di_dir = kPi;
  const double h = 150;
  const Current c = Current::seastate(p, h);
  auto expect = [&](double z) {
    const double zc = std::min(0.0, std::max(-h, z));
    const double ss = 1.2 * std::pow((zc + h) / h, 1.0 / 7.0);
    const double ns = std::max(0.5 * (zc + 20) / 20, 0.0);
    return Eigen::Vector3d(ss * std::cos(kPi / 6) + ns * std::cos(kPi / 2) - 0.1,
                           ss * std::sin(kPi / 6) + ns * std::sin(kPi / 2) + 0.1 * std::sin(kPi), 0.0);
  };
  for (const double z : {0.0, -5.0, -20.0, -75.0, -149.0, -150.0})
    CHECK((c.velocity<double>(Eigen::Vector3d(4, 4, z)) - expect(z)).norm() < 1e-15);
  // at the still water level: 1.2 + 0.5 + 0.1 along their headings; at the bed only 0.1
  CHECK(std::fabs(c.velocity<double>(Eigen::Vector3d(0, 0, 0))(1) - (0.6 + 0.5)) < 1e-15);
  CHECK((c.velocity<double>(Eigen::Vector3d(0, 0, -h)) - Eigen::Vector3d(-0.1, 0.1 * std::sin(kPi), 0)).norm() < 1e-16);
  // held above the still water level (under a crest) and below the bed
  CHECK(c.velocity<double>(Eigen::Vector3d(0, 0, 2)) == c.velocity<double>(Eigen::Vector3d(0, 0, 0)));
  CHECK(c.velocity<double>(Eigen::Vector3d(0, 0, -160)) == c.velocity<double>(Eigen::Vector3d(0, 0, -h)));
  // gradient = duals inside, with and without the near-surface part
  for (const double z : {-3.0, -19.0, -60.0, -140.0}) {
    const Eigen::Vector3d x(0, 0, z);
    CHECK((c.gradient(x) - dual_gradient(c, x)).norm() < 1e-15 * c.gradient(x).norm());
  }
  CHECK(c.gradient(Eigen::Vector3d(0, 0, 1)).norm() == 0);
  CHECK(c.depth() == h);
}

TEST_CASE("current: bad profiles and parameters fail with a named error", "[sea][current][errors]") {
  const Eigen::Vector3d u(0.1, 0, 0);
  CHECK_THROWS_AS(Current::profile({-10.0}, {u}), InputError);
  CHECK_THROWS_AS(Current::profile({-10.0, 0.0}, {u}), InputError);
  CHECK_THROWS_AS(Current::profile({-10.0, -10.0, 0.0}, {u, u, u}), InputError);
  CHECK_THROWS_AS(Current::profile({-10.0, -20.0, 0.0}, {u, u, u}), InputError);
  CHECK_THROWS_AS(Current::profile({-10.0, std::nan(""), 0.0}, {u, u, u}), InputError);
  try {
    Current::profile({-10.0, -20.0, 0.0}, {u, u, u});
  } catch (const InputError& e) {
    CHECK(e.object() == "current profile");
    CHECK(e.quantity() == "z of level 2");
    CHECK(e.value() == "-20");
    CHECK(e.limit() == "> -10 (strictly increasing)");
  }
  SeaStateCurrent p;
  p.ss_speed = -1;
  CHECK_THROWS_AS(Current::seastate(p, 100), InputError);
  p.ss_speed = 1;
  p.ns_ref = 0;
  CHECK_THROWS_AS(Current::seastate(p, 100), InputError);
  p.ns_ref = 20;
  CHECK_THROWS_AS(Current::seastate(p, 0), InputError);
  CHECK_THROWS_AS(Current::uniform(Eigen::Vector3d(std::nan(""), 0, 0)), InputError);
}
