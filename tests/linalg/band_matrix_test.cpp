// Band storage (LAPACK layouts), assembly from element blocks, products and in-band
// Dirichlet rows, against dense matrices.
#include "support/alloc_counter.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "band_fixtures.hpp"
#include "cabledyn/autodiff/dual.hpp"
#include "cabledyn/linalg/band_matrix.hpp"

using namespace cabledyn;
using fixtures::Index;

TEMPLATE_TEST_CASE("BandMatrix uses the DGBTRF layout", "[linalg][band_matrix]", double,
                   long double) {
  using T = TestType;
  BandMatrix<T> A(6, 2, 1);
  CHECK(A.ldab() == 2 * 2 + 1 + 1);
  CHECK(A.diagonal_row() == 3);
  for (Index j = 0; j < 6; ++j)
    for (Index i = 0; i < 6; ++i)
      if (A.in_band(i, j)) A.at(i, j) = T(10 * i + j + 1);
  // LAPACK: AB(KL+KU+1+i-j, j) = A(i, j) (1-based), here (kl + ku + i - j) + j ldab.
  for (Index j = 0; j < 6; ++j)
    for (Index i = std::max<Index>(0, j - 1); i <= std::min<Index>(5, j + 2); ++i)
      CHECK(A.data()[(2 + 1 + i - j) + j * A.ldab()] == T(10 * i + j + 1));
  // The kl fill rows stay zero.
  for (Index j = 0; j < 6; ++j)
    for (Index r = 0; r < 2; ++r) CHECK(A.data()[r + j * A.ldab()] == T(0));
  CHECK(A(4, 0) == T(0));  // outside the band reads zero
  CHECK_THROWS_AS(A.at(4, 0), InputError);
  CHECK_THROWS_AS(A.add(0, 2, T(1)), InputError);
  CHECK_THROWS_AS(A(6, 0), InputError);
  CHECK_THROWS_AS(BandMatrix<T>(4, -1, 0), InputError);
}

TEMPLATE_TEST_CASE("SymmetricBandMatrix uses the DPBTRF lower layout", "[linalg][band_matrix]",
                   double, long double) {
  using T = TestType;
  SymmetricBandMatrix<T> S(5, 2);
  CHECK(S.ldab() == 3);
  S.add(3, 1, T(7));
  S.add(1, 3, T(1));  // the same symmetric entry
  CHECK(S(3, 1) == T(8));
  CHECK(S(1, 3) == T(8));
  CHECK(S.data()[(3 - 1) + 1 * 3] == T(8));  // AB(1+i-j, j) = A(i, j), 1-based
  CHECK_THROWS_AS(S.add(4, 1, T(1)), InputError);
  MatX<T> M = MatX<T>::Zero(4, 4);
  M(2, 0) = T(1);
  M(0, 2) = T(2);
  CHECK_THROWS_AS(SymmetricBandMatrix<T>::from_dense(M, 2), InputError);  // not symmetric
  M(0, 2) = T(1);
  CHECK_THROWS_AS(SymmetricBandMatrix<T>::from_dense(M, 1), InputError);  // outside band
  CHECK(SymmetricBandMatrix<T>::from_dense(M, 2).to_dense() == M);
}

TEST_CASE("The half-bandwidth of a line comes from its DOF layout", "[linalg][band_matrix]") {
  const auto A = BandMatrix<double>::for_line<LayoutRM>(101);
  CHECK(A.rows() == 606);
  CHECK(A.kl() == LayoutRM::half_bandwidth());
  CHECK(A.ku() == 11);
  const auto B = SymmetricBandMatrix<double>::for_line<LayoutR>(101);
  CHECK(B.rows() == 303);
  CHECK(B.kd() == 5);
  CHECK(SymmetricBandMatrix<double>::for_line<LayoutRMPhi>(3).kd() == 13);
  const auto dofs = element_dofs<LayoutRM>(4);
  CHECK(dofs.front() == 24);
  CHECK(dofs.back() == 35);
}

TEMPLATE_TEST_CASE("Element assembly equals dense assembly", "[linalg][band_matrix]", double,
                   long double) {
  using T = TestType;
  using L = LayoutRM;
  const Index nodes = 7, n = static_cast<Index>(L::line_dofs(nodes));
  auto A = BandMatrix<T>::template for_line<L>(nodes);
  auto S = SymmetricBandMatrix<T>::template for_line<L>(nodes);
  MatX<T> D = MatX<T>::Zero(n, n), Dsym = MatX<T>::Zero(n, n);
  fixtures::Random rnd(11);
  for (Index e = 0; e + 1 < nodes; ++e) {
    const MatX<T> Ke = rnd.matrix<T>(12, 12);
    const MatX<T> Ks = (Ke + Ke.transpose()).eval();
    const auto dofs = element_dofs<L>(static_cast<std::size_t>(e));
    A.add_block(dofs, Ke);
    S.add_block(dofs, Ks);
    for (int a = 0; a < 12; ++a)
      for (int b = 0; b < 12; ++b) {
        D(dofs[a], dofs[b]) += Ke(a, b);
        Dsym(dofs[a], dofs[b]) += Ks(a, b);
      }
  }
  CHECK(A.to_dense() == D);
  CHECK(S.to_dense() == Dsym);

  // A negative index skips its row and column; repeated indices add both entries.
  BandMatrix<T> C(4, 1, 1);
  SymmetricBandMatrix<T> Cs(4, 1);
  Eigen::Matrix<T, 3, 3> blk;
  blk << T(1), T(2), T(3), T(2), T(5), T(6), T(3), T(6), T(9);
  const std::vector<int> dofs{2, -1, 2};
  C.add_block(dofs, blk);
  Cs.add_block(dofs, blk);
  CHECK(C(2, 2) == T(1 + 3 + 3 + 9));
  CHECK(Cs(2, 2) == T(1 + 3 + 3 + 9));
  CHECK(C.to_dense().sum() == T(16));
  CHECK_THROWS_AS(C.add_block(std::array<int, 2>{0, 3}, Eigen::Matrix<T, 2, 2>::Ones().eval()),
                  InputError);  // (0, 3) is outside the band
  CHECK_THROWS_AS(C.add_block(std::array<int, 2>{0, 1}, blk), InputError);  // size mismatch
}

TEMPLATE_TEST_CASE("multiply and norm_inf agree with the dense matrix", "[linalg][band_matrix]",
                   double, long double) {
  using T = TestType;
  for (auto [n, kl, ku] : {std::array<Index, 3>{9, 2, 3}, {5, 0, 0}, {4, 6, 1}, {30, 5, 5}}) {
    const auto A = fixtures::random_band<T>(n, kl, ku, 3 + n);
    const auto S = fixtures::random_symmetric<T>(n, kl, 5 + n);
    const VecX<T> x = fixtures::Random(7).vector<T>(n);
    VecX<T> y(n), ys(n);
    A.multiply(x, y);
    S.multiply(x, ys);
    const VecX<T> yd = A.to_dense() * x, ysd = S.to_dense() * x;
    CHECK((y - yd).cwiseAbs().maxCoeff() <= 16 * fixtures::eps<T>() * yd.cwiseAbs().maxCoeff());
    CHECK((ys - ysd).cwiseAbs().maxCoeff() <= 16 * fixtures::eps<T>() * ysd.cwiseAbs().maxCoeff());
    const T dn = A.to_dense().cwiseAbs().rowwise().sum().maxCoeff();
    const T sn = S.to_dense().cwiseAbs().rowwise().sum().maxCoeff();
    CHECK(std::abs(A.norm_inf() - dn) <= 8 * fixtures::eps<T>() * dn);
    CHECK(std::abs(S.norm_inf() - sn) <= 8 * fixtures::eps<T>() * sn);
  }
  VecX<T> small(3), y(9);
  CHECK_THROWS_AS(fixtures::random_band<T>(9, 1, 1, 1).multiply(small, y), InputError);
}

TEMPLATE_TEST_CASE("A held DOF keeps its place and its prescribed value",
                   "[linalg][band_matrix]", double, long double) {
  using T = TestType;
  const Index n = 12, kd = 3;
  auto S = fixtures::random_spd<T>(n, kd, 21);
  auto A = fixtures::to_general(S);
  const VecX<T> b0 = fixtures::Random(22).vector<T>(n);
  VecX<T> b = b0, bs = b0;
  const MatX<T> D = S.to_dense();
  const std::array<Index, 3> held{0, 5, 11};
  const std::array<T, 3> value{T(0.25), T(-1.5), T(2)};
  for (int k = 0; k < 3; ++k) {
    A.hold(held[k], value[k], b, T(3));
    S.hold(held[k], value[k], bs, T(3));
  }
  // Reference: eliminate the held DOFs from the dense system.
  std::vector<Index> freed;
  for (Index i = 0; i < n; ++i)
    if (i != 0 && i != 5 && i != 11) freed.push_back(i);
  VecX<T> xref = VecX<T>::Zero(n);
  for (int k = 0; k < 3; ++k) xref(held[k]) = value[k];
  const Index m = static_cast<Index>(freed.size());
  MatX<T> Dff(m, m);
  VecX<T> rf(m);
  for (Index a = 0; a < m; ++a) {
    rf(a) = b0(freed[a]);
    for (int k = 0; k < 3; ++k) rf(a) -= D(freed[a], held[k]) * value[k];
    for (Index c = 0; c < m; ++c) Dff(a, c) = D(freed[a], freed[c]);
  }
  const VecX<T> xf = Dff.ldlt().solve(rf);
  for (Index a = 0; a < m; ++a) xref(freed[a]) = xf(a);

  const MatX<T> Ad = A.to_dense(), Sd = S.to_dense();
  CHECK(Sd == Ad);                    // the symmetric hold keeps symmetry
  CHECK(Sd == Sd.transpose());
  for (int k = 0; k < 3; ++k) {
    CHECK(Ad.row(held[k]).cwiseAbs().sum() == T(3));
    CHECK(Ad.col(held[k]).cwiseAbs().sum() == T(3));
    CHECK(b(held[k]) == T(3) * value[k]);
  }
  const VecX<T> x = Ad.partialPivLu().solve(b);
  CHECK((x - xref).cwiseAbs().maxCoeff() <= 1e3 * fixtures::eps<T>() * xref.cwiseAbs().maxCoeff());
  CHECK((bs - b).cwiseAbs().maxCoeff() == T(0));
}

TEST_CASE("Band storage holds dual numbers", "[linalg][band_matrix][dual]") {
  using D = Dual<double, 2>;
  BandMatrix<D> A(3, 1, 1);
  A.add(0, 0, D(2.0, 2, 0));
  A.add(1, 0, D(1.0, 2, 1));
  VecX<D> x(3), y(3);
  x << D(1.0), D(2.0), D(3.0);
  A.multiply(x, y);
  CHECK(y(0).value() == 2.0);
  CHECK(y(0).derivatives()(0) == 1.0);  // d(2 + p0) x0 / dp0
  CHECK(y(1).derivatives()(1) == 1.0);
}

TEMPLATE_TEST_CASE("Assembly, products and holds allocate nothing", "[linalg][band_matrix][alloc]",
                   double, long double) {
  using T = TestType;
  using L = LayoutRM;
  auto A = BandMatrix<T>::template for_line<L>(20);
  auto S = SymmetricBandMatrix<T>::template for_line<L>(20);
  const ElementMat<T, L> Ke = ElementMat<T, L>::Identity() + ElementMat<T, L>::Constant(T(0.1));
  VecX<T> x = VecX<T>::Ones(A.rows()), y(A.rows()), rhs = VecX<T>::Ones(A.rows());
  test_support::AllocationCounter count;
  for (int step = 0; step < 3; ++step) {
    A.set_zero();
    S.set_zero();
    for (std::size_t e = 0; e + 1 < 20; ++e) {
      A.add_block(element_dofs<L>(e), Ke);
      S.add_block(element_dofs<L>(e), Ke);
    }
    for (Index i = 0; i < 6; ++i) {
      A.hold(i, T(0), rhs);
      S.hold(A.rows() - 1 - i, T(1), rhs);
    }
    A.multiply(x, y);
    S.multiply(x, y);
  }
  CHECK(count.allocations() == 0);
  CHECK(y.sum() != T(0));
}
