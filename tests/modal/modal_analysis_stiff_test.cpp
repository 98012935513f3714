// The lowest frequencies of a long, axially stiff line: lambda_max / lambda_1 ~ 1e10, so a
// band reduction (dsbgvx) loses about ten digits of omega_1^2 while the Rayleigh quotient of
// the inverse-iteration shape, compensated, keeps it to round-off. Reference: the dense
// long-double generalised eigenpairs of the same matrices, refined by dense block inverse
// iteration and a Rayleigh-Ritz step summed in __float128. The templated path (double and long
// double) and LAPACK agree with it and with each other.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Dense>

#include "modal_fixtures.hpp"

using namespace cabledyn;
using namespace modal_fixtures;
using LD = long double;

namespace {

#if defined(__SIZEOF_FLOAT128__)
using Wide = __float128;  // + and * only: no libquadmath needed
#else
using Wide = long double;  // then the reference carries ~eps_LD cond (documented skip below)
#endif

// The `k` lowest eigenvalues of the dense pencil (K, M), long double: block inverse iteration
// on 2k vectors at the shift lambda_1 / 2 from the dense eigenvectors, then Rayleigh-Ritz
// with K X and X^T K X summed in __float128. A Rayleigh-Ritz value is an upper bound of its
// eigenvalue, exact to second order in the subspace's angle; the block resolves the
// near-repeated pairs that rounding splits (a single-vector inverse iteration stalls inside
// such a pair, between its two eigenvalues).
VecX<LD> dense_reference(const MatX<LD>& K, const MatX<LD>& M, Index k) {
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX<LD>> dense(K, M);
  const Index n = K.rows(), p = 2 * k;
  MatX<LD> X = dense.eigenvectors().leftCols(p);
  const Eigen::PartialPivLU<MatX<LD>> lu(K - LD(0.5) * dense.eigenvalues()(0) * M);
  for (int it = 0; it < 30; ++it) {
    X = lu.solve(M * X);
    for (Index j = 0; j < p; ++j) {  // modified Gram-Schmidt, twice
      for (int pass = 0; pass < 2; ++pass)
        for (Index i = 0; i < j; ++i) X.col(j) -= X.col(i).dot(X.col(j)) * X.col(i);
      X.col(j) /= X.col(j).norm();
    }
  }
  MatX<LD> A(p, p), B(p, p);
  for (Index c = 0; c < p; ++c) {
    std::vector<Wide> kx(static_cast<std::size_t>(n)), mx(static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i) {
      Wide sk = 0, sm = 0;
      for (Index j = 0; j < n; ++j) {
        sk += Wide(K(i, j)) * Wide(X(j, c));
        sm += Wide(M(i, j)) * Wide(X(j, c));
      }
      kx[static_cast<std::size_t>(i)] = sk;
      mx[static_cast<std::size_t>(i)] = sm;
    }
    for (Index r = 0; r < p; ++r) {
      Wide a = 0, b = 0;
      for (Index i = 0; i < n; ++i) {
        a += Wide(X(i, r)) * kx[static_cast<std::size_t>(i)];
        b += Wide(X(i, r)) * mx[static_cast<std::size_t>(i)];
      }
      A(r, c) = LD(a);
      B(r, c) = LD(b);
    }
  }
  A = (LD(0.5) * (A + A.transpose())).eval();
  B = (LD(0.5) * (B + B.transpose())).eval();
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX<LD>> small(A, B, Eigen::EigenvaluesOnly);
  return small.eigenvalues().head(k);
}

}  // namespace

TEST_CASE("Modal: a long, axially stiff line keeps its lowest frequencies", "[modal][stiff]") {
#if !defined(__SIZEOF_FLOAT128__)
  WARN("no __float128 on this compiler/target: no reference accurate enough, test skipped");
  return;
#endif
  // 1 km of stiff rod (EA = 1e10 N) at strain 1e-6 (T = 1e4 N), 100 elements, on a chord
  // inclined in x, y and z so that the axial stiffness couples every direction.
  const double L = 1000, strain = 1e-6, EA = 1e10;
  const Vec3<double> a(0, 0, -900), dir = Vec3<double>(1, 2, -2) / 3;
  const Line line("rod", {{type(EA, 0, 50.0, 0.1, 1.0, 0.5), L / (1 + strain), 100}}, at(a), at(a + L * dir));
  const VecX<double> q = straight_state(line);
  const ModalSystem<double> sys = modal_system<double>(line, StaticProblem{}, q);
  const Index k = 4;
  // Dense reference.
  const MatX<LD> Kd = sys.K.to_dense().cast<LD>(), Md = sys.M.to_dense().cast<LD>();
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX<LD>> dense(Kd, Md, Eigen::EigenvaluesOnly);
  const VecX<LD> lam_dense = dense.eigenvalues();
  CHECK(lam_dense(lam_dense.size() - 1) / lam_dense(0) > 1e10);
  const VecX<LD> ref = dense_reference(Kd, Md, k);
  // The dense long-double solver itself (a reduction too) is off by ~eps_LD lambda_max.
  CHECK(std::fabs(lam_dense(0) / ref(0) - 1) > 1e-14L);
  ModalOptions opt;
  opt.n_modes = k;
  for (Backend b : {Backend::templated, Backend::lapack}) {
    if (b == Backend::lapack && !kLapackAvailable) continue;
    opt.eigen.backend = b;
    const ModalResult<double> r = modal_analysis(line, StaticProblem{}, q, opt);
    for (Index j = 0; j < k; ++j) {
      INFO((b == Backend::lapack ? "LAPACK" : "templated") << " mode " << j + 1 << ": returned "
                                                          << double(r.omega2(j) / ref(j) - 1) << ", stage 1 "
                                                          << double(r.eigen.estimates(j) / ref(j) - 1));
      CHECK(std::fabs(r.omega2(j) / ref(j) - 1) < 4.5e-16L);  // 2 eps (observed <= 6e-17)
      // dsbgvx alone: ~eps lambda_max, here ~1e-7 of omega_1^2.
      if (b == Backend::lapack) CHECK(std::fabs(r.eigen.estimates(j) / ref(j) - 1) > 1e-10L);
    }
    // The same quotient summed naively in double loses digits: the compensation matters.
    const VecX<double> phi = r.eigen.vectors.col(0);
    VecX<double> Kphi(phi.size()), Mphi(phi.size());
    sys.K.multiply(phi, Kphi);
    sys.M.multiply(phi, Mphi);
    CHECK(std::fabs(phi.dot(Kphi) / phi.dot(Mphi) / ref(0) - 1) > 1e-12L);
  }
  // The templated path in long double on the same (double) matrices.
  SymmetricBandMatrix<LD> KL(sys.K.rows(), sys.K.kd()), ML(sys.M.rows(), sys.M.kd());
  for (Index i = 0; i < sys.K.rows() * sys.K.ldab(); ++i) {
    KL.data()[i] = sys.K.data()[i];
    ML.data()[i] = sys.M.data()[i];
  }
  const BandEigenResult<LD> rl = band_generalized_eigen(KL, ML, k);
  for (Index j = 0; j < k; ++j) CHECK(std::fabs(rl.eigenvalues(j) / ref(j) - 1) < 1e-18L);  // ~9 eps_LD (observed 3)
}
