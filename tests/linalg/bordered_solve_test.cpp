// The Sherman-Morrison bordered solve of spec "Condensed torsion" against the dense solve
// of B + g g^T / C; refinement rescues the ill-conditioned B; a singular update is a named
// result; the inertia of the bordered matrix; no allocation once sized.
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include "support/alloc_counter.hpp"

#include <catch2/catch.hpp>

#include <array>

#include "band_fixtures.hpp"
#include "cabledyn/linalg/band_cholesky.hpp"
#include "cabledyn/linalg/band_ldlt.hpp"
#include "cabledyn/linalg/band_lu.hpp"
#include "cabledyn/linalg/bordered_solve.hpp"

using namespace cabledyn;
using fixtures::Index;

TEMPLATE_TEST_CASE("Bordered solve equals the dense solve of B + g g^T / C",
                   "[linalg][bordered_solve]", double, long double) {
  using T = TestType;
  for (const auto& [n, kd] : std::array<std::array<Index, 2>, 3>{{{40, 3}, {96, 11}, {120, 5}}}) {
    CAPTURE(n, kd);
    const auto B = fixtures::random_spd<T>(n, kd, 300 + n);
    const VecX<T> g = fixtures::Random(301 + n).vector<T>(n);
    const VecX<T> rhs = fixtures::Random(302 + n).vector<T>(n);
    for (double C : {0.7, 25.0, -40.0}) {
      CAPTURE(C);
      const MatX<T> K = B.to_dense() + g * g.transpose() / T(C);
      const VecX<T> xd = K.partialPivLu().solve(rhs);
      BandCholesky<T> ch(B);
      REQUIRE(ch.factor(B).ok());
      BorderedSolver<T> bs(n);
      VecX<T> x(n);
      const BorderedResult r = bs.solve(B, ch, g, T(C), rhs, x);
      CHECK(r.ok());
      CHECK(r.refinements == 0);
      CHECK(r.backward_error <= 64 * fixtures::eps<T>());
      CHECK(fixtures::backward_error(K, MatX<T>(x), MatX<T>(rhs)) <= 64 * fixtures::eps<T>());
      CHECK((x - xd).cwiseAbs().maxCoeff() <=
            16 * fixtures::condition_inf(K) * fixtures::eps<T>() * xd.cwiseAbs().maxCoeff());
      // The same with an LU of B in general storage, and with the spec's formula by hand.
      const auto Bg = fixtures::to_general(B);
      BandLU<T> lu(Bg);
      REQUIRE(lu.factor(Bg).ok());
      VecX<T> x2(n);
      CHECK(bs.solve(Bg, lu, g, T(C), rhs, x2).ok());
      CHECK((x2 - x).cwiseAbs().maxCoeff() <=
            16 * fixtures::condition_inf(K) * fixtures::eps<T>() * xd.cwiseAbs().maxCoeff());
      VecX<T> y = rhs, z = g;
      ch.solve(y);
      ch.solve(z);
      const VecX<T> xs = y - z * (g.dot(y) / (T(C) + g.dot(z)));
      CHECK((xs - x).cwiseAbs().maxCoeff() <= 64 * fixtures::eps<T>() * x.cwiseAbs().maxCoeff());
      CHECK(bs.v_dot_z() == Approx(g.dot(z)).epsilon(1e-12));
    }
  }
}

TEMPLATE_TEST_CASE("Refinement rescues Sherman-Morrison on a nearly singular B",
                   "[linalg][bordered_solve]", double, long double) {
  using T = TestType;
  // B = Laplacian - (lambda_1 - 1e-10) I: the lowest eigenvalue of B is 1e-10 along
  // phi_1(i) = sin(pi (i + 1) / (n + 1)); K = B + g g^T with g = phi_1 / |phi_1| lifts it
  // to 1 + 1e-10, so K is well conditioned while B is not (kappa(B) ~ 4e10). The plain
  // formula cancels terms of size 1e10 |rhs|; refinement recovers K's accuracy.
  const Index n = 50;
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double lambda1 = 2 - 2 * std::cos(pi / (n + 1));
  SymmetricBandMatrix<T> B(n, 1);
  for (Index i = 0; i < n; ++i) {
    B.add(i, i, T(2 - lambda1 + 1e-10L));
    if (i + 1 < n) B.add(i + 1, i, T(-1));
  }
  VecX<T> g(n);
  for (Index i = 0; i < n; ++i) g(i) = T(std::sin(pi * (i + 1) / (n + 1)));
  g /= g.norm();
  const VecX<T> rhs = fixtures::Random(5).vector<T>(n);
  const MatX<T> K = B.to_dense() + g * g.transpose();
  const VecX<T> xd = K.template cast<long double>().partialPivLu().solve(
                          rhs.template cast<long double>()).template cast<T>();
  BandLU<T> lu(fixtures::to_general(B));
  const auto Bg = fixtures::to_general(B);
  REQUIRE(lu.factor(Bg).ok());
  BorderedSolver<T> bs(n);
  VecX<T> x(n);
  const BorderedResult r = bs.solve(Bg, lu, g, T(1), rhs, x);
  CAPTURE(r.initial_backward_error, r.backward_error, r.refinements);
  CHECK(r.initial_backward_error > 1e3 * fixtures::eps<T>());  // the plain formula is not enough
  CHECK(r.refinements >= 1);
  CHECK(r.ok());
  CHECK(r.backward_error <= 64 * fixtures::eps<T>());
  const long double kappa = fixtures::condition_inf(K);
  CHECK(kappa < 1e4);
  CHECK((x - xd).cwiseAbs().maxCoeff() <= 64 * kappa * fixtures::eps<T>() * xd.cwiseAbs().maxCoeff());
  // Without refinement the same solve is not accepted: the caller shifts and refactors.
  BorderedOptions none;
  none.max_refinements = 0;
  CHECK(bs.solve(Bg, lu, g, T(1), rhs, x, none).status == BorderedStatus::not_accepted);
}

TEMPLATE_TEST_CASE("A singular rank-one update is a named result", "[linalg][bordered_solve]",
                   double, long double) {
  using T = TestType;
  const Index n = 30;
  const auto B = fixtures::random_spd<T>(n, 4, 17);
  BandCholesky<T> ch(B);
  REQUIRE(ch.factor(B).ok());
  const VecX<T> g = fixtures::Random(18).vector<T>(n);
  VecX<T> z = g;
  ch.solve(z);
  // C = -g^T B^-1 g makes B + g g^T / C singular (its determinant is det B (1 + g.z / C)).
  const T C = -g.dot(z);
  const VecX<T> rhs = VecX<T>::Ones(n);
  VecX<T> x = VecX<T>::Constant(n, T(7));
  BorderedSolver<T> bs(n);
  const BorderedResult r = bs.solve(B, ch, g, C, rhs, x);
  CHECK(r.status == BorderedStatus::singular_update);
  CHECK(x == VecX<T>::Constant(n, T(7)));  // untouched
  CHECK_THROWS_AS(bs.solve(B, ch, g, T(0), rhs, x), InputError);
  VecX<T> short_x(n - 1);
  CHECK_THROWS_AS(bs.solve(B, ch, g, T(1), rhs, short_x), InputError);
}

TEMPLATE_TEST_CASE("Inertia of the bordered matrix from B's (spec: neg(K) = neg(B) - [...])",
                   "[linalg][bordered_solve]", double, long double) {
  using T = TestType;
  int flips = 0;
  for (std::uint64_t seed = 0; seed < 12; ++seed) {
    const Index n = 36;
    const auto B = fixtures::random_symmetric<T>(n, 3, 500 + seed, 1.2);
    const VecX<T> g = fixtures::Random(600 + seed).vector<T>(n) * T(0.6);
    BandLDLT<T> ldlt(B);
    REQUIRE(ldlt.factor(B).ok());
    for (double C : {0.05, 0.3, 2.0, 50.0, -0.3, -5.0}) {
      CAPTURE(seed, C);
      BorderedSolver<T> bs(n);
      VecX<T> x(n);
      const VecX<T> rhs = VecX<T>::Ones(n);
      const auto r = bs.solve(B, ldlt, g, T(C), rhs, x);
      if (r.status == BorderedStatus::singular_update) continue;
      const Index neg = bordered_negative_count(ldlt.negative_count(), T(C), bs.v_dot_z());
      const MatX<T> K = B.to_dense() + g * g.transpose() / T(C);
      CHECK(neg == fixtures::eigen_count_below(K, 0.0L));
      if (neg != ldlt.negative_count()) ++flips;
    }
  }
  CHECK(flips >= 4);  // the rank-one term does change the count in this sample
}

TEMPLATE_TEST_CASE("Bordered solves allocate nothing once sized",
                   "[linalg][bordered_solve][alloc]", double, long double) {
  using T = TestType;
  const Index n = 100;
  const auto B = fixtures::to_general(fixtures::random_spd<T>(n, 11, 9));
  BandLU<T> lu(B);
  BorderedSolver<T> bs(n);
  const VecX<T> g = fixtures::Random(10).vector<T>(n), rhs = fixtures::Random(11).vector<T>(n);
  VecX<T> x(n);
  BorderedOptions always;
  always.tolerance = 1e-300;  // forces the refinement path too
  test_support::AllocationCounter count;
  {
    test_support::EigenMallocGuard no_eigen_malloc;
    for (int k = 0; k < 3; ++k) {
      REQUIRE(lu.factor(B).ok());
      REQUIRE(bs.solve(B, lu, g, T(3), rhs, x).ok());
      const auto r = bs.solve(B, lu, g, T(3), rhs, x, always);
      REQUIRE(r.refinements >= 1);
    }
  }
  CHECK(count.allocations() == 0);
}
