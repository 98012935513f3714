// The LAPACK backend against the templated code: the same pivots and factors to round-off
// and the same solutions on random well-conditioned band systems and on the ill-conditioned
// stiff cable (EA/L0 = 1e9 N/m against nodal weights of 1e2 N).
#include <catch2/catch.hpp>

#include <array>

#include "band_fixtures.hpp"
#include "cabledyn/linalg/band_cholesky.hpp"
#include "cabledyn/linalg/band_lu.hpp"
#include "cabledyn/linalg/lapack.hpp"

using namespace cabledyn;
using fixtures::Index;

TEST_CASE("The backend choice follows the build", "[linalg][lapack]") {
  BandLU<double> lu(10, 2, 2);
  CHECK(lu.uses_lapack() == kLapackAvailable);
  CHECK_FALSE(BandLU<double>(10, 2, 2, Backend::templated).uses_lapack());
  CHECK_FALSE(BandLU<long double>(10, 2, 2).uses_lapack());
  CHECK_THROWS_AS(BandLU<long double>(10, 2, 2, Backend::lapack), InputError);
  CHECK_THROWS_AS(BandCholesky<long double>(10, 2, Backend::lapack), InputError);
  if (!kLapackAvailable) {
    CHECK_THROWS_AS(BandLU<double>(10, 2, 2, Backend::lapack), InputError);
    WARN("built without CABLEDYN_WITH_LAPACK: the LAPACK agreement tests do not run");
  }
}

#ifdef CABLEDYN_WITH_LAPACK

namespace {
double max_abs(const MatX<double>& m) { return m.cwiseAbs().maxCoeff(); }
}  // namespace

TEST_CASE("Templated LU and DGBTRF agree on random band systems", "[linalg][lapack]") {
  for (const auto& [n, kl, ku] : std::array<std::array<Index, 3>, 7>{
           {{50, 1, 1}, {80, 2, 5}, {80, 5, 2}, {303, 5, 5}, {600, 11, 11}, {200, 13, 13},
            {30, 0, 4}}}) {
    CAPTURE(n, kl, ku);
    const auto A = fixtures::random_band<double>(n, kl, ku, 900 + n + kl, 1.0);
    BandLU<double> t(A, Backend::templated), l(A, Backend::lapack);
    REQUIRE(t.factor(A).ok());
    REQUIRE(l.factor(A).ok());
    REQUIRE(l.uses_lapack());
    // Same pivot sequence, same factors up to rounding in the last places.
    Index swaps = 0;
    for (Index j = 0; j < n; ++j) {
      CHECK(t.pivot(j) == l.pivot(j));
      swaps += t.pivot(j) != j ? 1 : 0;
    }
    // Same storage rows; the templated factors pad the leading dimension (ldab()).
    CHECK(l.ldab() == 2 * kl + ku + 1);
    CHECK(t.ldab() >= 2 * kl + ku + 3);
    CHECK((t.ldab() - 1) % 4 == 0);
    double diff = 0, scale = 0;
    for (Index j = 0; j < n; ++j)
      for (Index r = 0; r < 2 * kl + ku + 1; ++r) {
        diff = std::max(diff, std::abs(t.factors()[r + j * t.ldab()] - l.factors()[r + j * l.ldab()]));
        scale = std::max(scale, std::abs(l.factors()[r + j * l.ldab()]));
      }
    CAPTURE(swaps, diff / scale);
    if (kl > 0) CHECK(swaps > 0);  // the comparison covers pivoting
    CHECK(diff <= 64 * fixtures::eps<double>() * scale);
    const MatX<double> B = fixtures::Random(n).matrix<double>(n, 4);
    MatX<double> Xt = B, Xl = B;
    t.solve(Xt);
    l.solve(Xl);
    const double kappa = static_cast<double>(fixtures::condition_inf(A.to_dense()));
    CAPTURE(kappa, max_abs(Xt - Xl) / max_abs(Xl));
    CHECK(max_abs(Xt - Xl) <= 16 * kappa * fixtures::eps<double>() * max_abs(Xl));
  }
}

TEST_CASE("Templated and LAPACK band solves agree on the stiff cable", "[linalg][lapack]") {
  // 101 nodes: n = 303 with the layout's half-bandwidth 5. kappa_inf ~ 1e10.
  VecX<double> b;
  const auto K = fixtures::stiff_cable<double>(101, &b);
  const auto Kg = fixtures::to_general(K);
  const MatX<double> D = K.to_dense();
  const double kappa = static_cast<double>(fixtures::condition_inf(D));
  CAPTURE(kappa);
  CHECK(kappa > 1e8);  // ill-conditioned indeed
  // Reference in long double.
  VecX<long double> bl = b.cast<long double>();
  BandLU<long double> ref(fixtures::to_general(fixtures::stiff_cable<long double>(101)));
  REQUIRE(ref.factor(fixtures::to_general(fixtures::stiff_cable<long double>(101))).ok());
  ref.solve(bl);
  const VecX<double> xref = bl.cast<double>();

  auto check_pair = [&](const VecX<double>& xt, const VecX<double>& xl, const char* what) {
    CAPTURE(what);
    const double dx = (xt - xl).cwiseAbs().maxCoeff() / xl.cwiseAbs().maxCoeff();
    const double et = (xt - xref).cwiseAbs().maxCoeff() / xref.cwiseAbs().maxCoeff();
    const double el = (xl - xref).cwiseAbs().maxCoeff() / xref.cwiseAbs().maxCoeff();
    CAPTURE(dx, et, el);
    // Both are backward stable, they differ at most by the round-off the conditioning
    // amplifies, and each is as close to the long-double solution as the other.
    CHECK(fixtures::backward_error(D, MatX<double>(xt), MatX<double>(b)) <= 8 * fixtures::eps<double>());
    CHECK(fixtures::backward_error(D, MatX<double>(xl), MatX<double>(b)) <= 8 * fixtures::eps<double>());
    CHECK(dx <= 4 * kappa * fixtures::eps<double>());
    CHECK(et <= 4 * kappa * fixtures::eps<double>());
    CHECK(el <= 4 * kappa * fixtures::eps<double>());
  };

  BandLU<double> t(Kg, Backend::templated), l(Kg, Backend::lapack);
  REQUIRE(t.factor(Kg).ok());
  REQUIRE(l.factor(Kg).ok());
  VecX<double> xt = b, xl = b;
  t.solve(xt);
  l.solve(xl);
  check_pair(xt, xl, "LU");

  BandCholesky<double> ct(K, Backend::templated), cl(K, Backend::lapack);
  REQUIRE(ct.factor(K).ok());
  REQUIRE(cl.factor(K).ok());
  double diff = 0, scale = 0;
  for (Index k = 0; k < K.rows() * (K.kd() + 1); ++k) {
    diff = std::max(diff, std::abs(ct.factors()[k] - cl.factors()[k]));
    scale = std::max(scale, std::abs(cl.factors()[k]));
  }
  CHECK(diff <= 16 * fixtures::eps<double>() * scale);
  VecX<double> yt = b, yl = b;
  ct.solve(yt);
  cl.solve(yl);
  check_pair(yt, yl, "Cholesky");
}

TEST_CASE("Templated Cholesky and DPBTRF agree, also on failure", "[linalg][lapack]") {
  for (const auto& [n, kd] :
       std::array<std::array<Index, 2>, 4>{{{40, 1}, {303, 5}, {600, 11}, {100, 40}}}) {
    CAPTURE(n, kd);
    const auto S = fixtures::random_spd<double>(n, kd, 40 + n);
    BandCholesky<double> t(S, Backend::templated), l(S, Backend::lapack);
    REQUIRE(t.factor(S).ok());
    REQUIRE(l.factor(S).ok());
    const MatX<double> B = fixtures::Random(n).matrix<double>(n, 2);
    MatX<double> Xt = B, Xl = B;
    t.solve(Xt);
    l.solve(Xl);
    const double kappa = static_cast<double>(fixtures::condition_inf(S.to_dense()));
    CHECK(max_abs(Xt - Xl) <= 16 * kappa * fixtures::eps<double>() * max_abs(Xl));
    // Indefinite: both stop at the same pivot.
    const auto N = fixtures::random_symmetric<double>(n, kd, 41 + n, 0.5 * std::sqrt(double(kd)));
    const FactorResult rt = t.factor(N), rl = l.factor(N);
    CHECK(rt.status == FactorStatus::not_positive_definite);
    CHECK(rl.status == FactorStatus::not_positive_definite);
    CHECK(rt.index == rl.index);
  }
}

#endif  // CABLEDYN_WITH_LAPACK
