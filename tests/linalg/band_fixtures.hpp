// Test fixtures of the linalg tests: random band matrices with fixed seeds, a stiff cable
// stiffness matrix, dense references and error measures.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

#include <Eigen/Dense>

#include "cabledyn/core.hpp"
#include "cabledyn/linalg.hpp"

namespace fixtures {

using cabledyn::BandMatrix;
using cabledyn::MatX;
using cabledyn::SymmetricBandMatrix;
using cabledyn::VecX;
using Index = Eigen::Index;

/// Uniform numbers in [-1, 1] from a fixed seed (never a time seed).
class Random {
 public:
  explicit Random(std::uint64_t seed) : gen_(seed) {}
  double operator()() { return dist_(gen_); }
  template <class T>
  VecX<T> vector(Index n) {
    VecX<T> v(n);
    for (Index i = 0; i < n; ++i) v(i) = T((*this)());
    return v;
  }
  template <class T>
  MatX<T> matrix(Index r, Index c) {
    MatX<T> m(r, c);
    for (Index j = 0; j < c; ++j)
      for (Index i = 0; i < r; ++i) m(i, j) = T((*this)());
    return m;
  }

 private:
  std::mt19937_64 gen_;
  std::uniform_real_distribution<double> dist_{-1.0, 1.0};
};

/// General band matrix with entries uniform in [-1, 1] (partial pivoting does swap rows);
/// `diagonal` is added to the diagonal.
template <class T>
BandMatrix<T> random_band(Index n, Index kl, Index ku, std::uint64_t seed, double diagonal = 0) {
  Random rnd(seed);
  BandMatrix<T> A(n, kl, ku);
  for (Index j = 0; j < n; ++j)
    for (Index i = std::max<Index>(0, j - ku); i <= std::min<Index>(n - 1, j + kl); ++i)
      A.at(i, j) = T(rnd() + (i == j ? diagonal : 0.0));
  return A;
}

/// Symmetric band matrix with entries uniform in [-1, 1] (indefinite) plus `diagonal` I.
template <class T>
SymmetricBandMatrix<T> random_symmetric(Index n, Index kd, std::uint64_t seed,
                                        double diagonal = 0) {
  Random rnd(seed);
  SymmetricBandMatrix<T> A(n, kd);
  for (Index j = 0; j < n; ++j)
    for (Index i = j; i <= std::min<Index>(n - 1, j + kd); ++i)
      A.at(i, j) = T(rnd() + (i == j ? diagonal : 0.0));
  return A;
}

/// Symmetric positive definite band matrix G G^T + I / 10, G lower band with kd
/// sub-diagonals and entries in [-1, 1] (G G^T has the band of G).
template <class T>
SymmetricBandMatrix<T> random_spd(Index n, Index kd, std::uint64_t seed) {
  Random rnd(seed);
  MatX<T> G = MatX<T>::Zero(n, n);
  for (Index j = 0; j < n; ++j)
    for (Index i = j; i <= std::min<Index>(n - 1, j + kd); ++i) G(i, j) = T(rnd());
  MatX<T> S = G * G.transpose();
  S = ((S + S.transpose()) / T(2)).eval();  // exactly symmetric
  S.diagonal().array() += T(0.1);
  return SymmetricBandMatrix<T>::from_dense(S, kd);
}

/// Static tangent of a taut EI = 0 line (spec "Modal analysis": element stiffness
/// k = (EA/l0) e e^T + (T/l)(I - e e^T), assembled as [[k, -k], [-k, k]]) of `nodes` nodes,
/// layout [r], with EA/L0 = 1e9 N/m and tensions of 1e3 N to 2e3 N under nodal weights of
/// 1e2 N: the ill-conditioned "stiff cable" of the issue. The end nodes are held in band
/// with the diagonal `held_diag`; `rhs` receives the weights (zero on held rows).
template <class T>
SymmetricBandMatrix<T> stiff_cable(Index nodes, VecX<T>* rhs = nullptr, double held_diag = 1e9) {
  using L = cabledyn::LayoutR;
  auto K = SymmetricBandMatrix<T>::template for_line<L>(static_cast<std::size_t>(nodes));
  const double EA_over_L0 = 1e9;
  for (Index e = 0; e + 1 < nodes; ++e) {
    // A shallow sag: the chord turns slowly along the line.
    const double s = (e + 0.5) / static_cast<double>(nodes - 1);
    const double angle = 0.3 * std::cos(3.141592653589793 * s);
    const Eigen::Vector3d dir(std::cos(angle), 0.1 * std::sin(7.0 * s), std::sin(angle));
    const Eigen::Vector3d ev = dir.normalized();
    const double l = 1.0 + 1e-6;      // current length [m], l0 = 1 m
    const double tension = 1e3 * (1.0 + s);  // [N]
    const Eigen::Matrix3d k = EA_over_L0 * ev * ev.transpose() +
                              (tension / l) * (Eigen::Matrix3d::Identity() - ev * ev.transpose());
    cabledyn::ElementMat<T, L> Ke;
    Ke << k.cast<T>(), -k.cast<T>(), -k.cast<T>(), k.cast<T>();
    K.add_block(cabledyn::element_dofs<L>(static_cast<std::size_t>(e)), Ke);
  }
  VecX<T> b = VecX<T>::Zero(K.rows());
  for (Index node = 0; node < nodes; ++node) b(3 * node + 2) = T(-1e2);
  for (int c = 0; c < 3; ++c) {
    K.hold(c, T(0), b, T(held_diag));
    K.hold(3 * (nodes - 1) + c, T(0), b, T(held_diag));
  }
  if (rhs) *rhs = b;
  return K;
}

/// The same matrix in general band storage (kl = ku = kd).
template <class T>
BandMatrix<T> to_general(const SymmetricBandMatrix<T>& S) {
  return BandMatrix<T>::from_dense(S.to_dense(), S.kd(), S.kd());
}

/// Normwise backward error ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf) in long
/// double, for dense A.
template <class T>
long double backward_error(const MatX<T>& A, const MatX<T>& x, const MatX<T>& b) {
  const MatX<long double> Al = A.template cast<long double>();
  const MatX<long double> xl = x.template cast<long double>();
  const MatX<long double> bl = b.template cast<long double>();
  const MatX<long double> r = bl - Al * xl;
  long double worst = 0;
  const long double an = Al.cwiseAbs().rowwise().sum().maxCoeff();
  for (Index c = 0; c < x.cols(); ++c) {
    const long double e = r.col(c).cwiseAbs().maxCoeff() /
                          (an * xl.col(c).cwiseAbs().maxCoeff() + bl.col(c).cwiseAbs().maxCoeff());
    worst = std::max(worst, e);
  }
  return worst;
}

/// Infinity-norm condition number of a dense matrix (by its inverse, in T).
template <class T>
long double condition_inf(const MatX<T>& A) {
  const MatX<T> inv = A.partialPivLu().inverse();
  return static_cast<long double>(A.cwiseAbs().rowwise().sum().maxCoeff()) *
         static_cast<long double>(inv.cwiseAbs().rowwise().sum().maxCoeff());
}

/// Eigenvalues (ascending, long double) of a dense symmetric matrix.
template <class T>
VecX<long double> eigenvalues(const MatX<T>& A) {
  return Eigen::SelfAdjointEigenSolver<MatX<long double>>(A.template cast<long double>(),
                                                          Eigen::EigenvaluesOnly)
      .eigenvalues();
}

/// Number of entries of `lambda` below `below`.
inline Index count_below(const VecX<long double>& lambda, long double below) {
  return (lambda.array() < below).count();
}

/// Number of eigenvalues of a dense symmetric matrix below `below`.
template <class T>
Index eigen_count_below(const MatX<T>& A, long double below) {
  return count_below(eigenvalues(A), below);
}

template <class T>
long double eps() {
  return static_cast<long double>(std::numeric_limits<T>::epsilon());
}

}  // namespace fixtures
