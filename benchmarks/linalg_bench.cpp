// Band solver benchmarks: factor + solve of the matrix of a 100-element Hermite cable
// (n = 600, kl = ku = 11, layout [r, m]) and of a 100-segment EI = 0 line (n = 303,
// kl = ku = 5, layout [r]), the same matrix for every variant, reported side by side:
//   BM_band_lu/N               templated LU, double
//   BM_band_lu_lapack/N        DGBTRF + DGBTRS through BandLU (same copy and checks)
//   BM_band_lu_lapack_raw/N    DGBTRF + DGBTRS called directly (no checks), for reference
//   BM_band_lu_sparselu/N      Eigen SparseLU on the same matrix (pattern analysed once)
//   BM_band_lu_long_double/N   templated LU, long double
// and the same for Cholesky (BM_band_cholesky...) and the LDL^T inertia (BM_band_ldlt).
// Goal (issue #3): the templated double path within 1.5x of LAPACK, far ahead of SparseLU.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>

#include "cabledyn/core.hpp"
#include "cabledyn/linalg.hpp"

using namespace cabledyn;

namespace {

// The matrix of size n: a line of the layout whose DOF count is n, assembled from element
// blocks (a mass-like diagonal plus a random, mildly unsymmetric stiffness), fixed seed.
template <class L>
BandMatrix<double> assemble_line(std::size_t nodes) {
  std::mt19937_64 gen(20260101);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto A = BandMatrix<double>::for_line<L>(nodes);
  constexpr int m = L::kElementDofs;
  for (std::size_t e = 0; e + 1 < nodes; ++e) {
    Eigen::Matrix<double, m, m> G;
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i) G(i, j) = u(gen);
    Eigen::Matrix<double, m, m> Ke = G * G.transpose() / m;
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i) Ke(i, j) += 0.05 * u(gen);
    Ke.diagonal().array() += 0.5;
    A.add_block(element_dofs<L>(e), Ke);
  }
  return A;
}

BandMatrix<double> line_matrix(Eigen::Index n) {
  if (n % LayoutRM::kNodeDofs == 0)
    return assemble_line<LayoutRM>(static_cast<std::size_t>(n / LayoutRM::kNodeDofs));
  return assemble_line<LayoutR>(static_cast<std::size_t>(n / LayoutR::kNodeDofs));
}

template <class T>
BandMatrix<T> cast(const BandMatrix<double>& A) {
  BandMatrix<T> B(A.rows(), A.kl(), A.ku());
  for (Eigen::Index k = 0; k < A.ldab() * A.rows(); ++k) B.data()[k] = T(A.data()[k]);
  return B;
}

template <class T>
SymmetricBandMatrix<T> symmetric_part(const BandMatrix<double>& A) {
  SymmetricBandMatrix<T> S(A.rows(), A.kl());
  for (Eigen::Index j = 0; j < A.rows(); ++j)
    for (Eigen::Index i = j; i <= std::min(A.rows() - 1, j + A.kl()); ++i)
      S.at(i, j) = T(0.5 * (A(i, j) + A(j, i)));
  return S;
}

template <class T>
void set_counters(benchmark::State& state, const BandMatrix<double>& A) {
  state.counters["n"] = static_cast<double>(A.rows());
  state.counters["kl"] = static_cast<double>(A.kl());
}

template <class T>
void band_lu(benchmark::State& state, Backend backend) {
  const auto A = cast<T>(line_matrix(state.range(0)));
  BandLU<T> lu(A, backend);
  VecX<T> b = VecX<T>::Ones(A.rows()), x(A.rows());
  for (auto _ : state) {
    if (!lu.factor(A).ok()) state.SkipWithError("factor failed");
    x = b;
    lu.solve(x);
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
  set_counters<T>(state, line_matrix(state.range(0)));
}

void BM_band_lu(benchmark::State& state) { band_lu<double>(state, Backend::templated); }
BENCHMARK(BM_band_lu)->Arg(600)->Arg(303);

#ifdef CABLEDYN_WITH_LAPACK
void BM_band_lu_lapack(benchmark::State& state) { band_lu<double>(state, Backend::lapack); }
BENCHMARK(BM_band_lu_lapack)->Arg(600)->Arg(303);

void BM_band_lu_lapack_raw(benchmark::State& state) {
  const auto A = line_matrix(state.range(0));
  const int n = static_cast<int>(A.rows()), kl = static_cast<int>(A.kl()),
            ku = static_cast<int>(A.ku()), ldab = static_cast<int>(A.ldab()), one = 1;
  std::vector<double> ab(A.data(), A.data() + A.ldab() * A.rows());
  std::vector<int> ipiv(static_cast<std::size_t>(n));
  std::vector<double> x(static_cast<std::size_t>(n));
  const char trans = 'N';
  for (auto _ : state) {
    std::copy(A.data(), A.data() + A.ldab() * A.rows(), ab.begin());
    int info = 0;
    dgbtrf_(&n, &n, &kl, &ku, ab.data(), &ldab, ipiv.data(), &info);
    std::fill(x.begin(), x.end(), 1.0);
    dgbtrs_(&trans, &n, &kl, &ku, &one, ab.data(), &ldab, ipiv.data(), x.data(), &n, &info, 1);
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
  set_counters<double>(state, A);
}
BENCHMARK(BM_band_lu_lapack_raw)->Arg(600)->Arg(303);
#endif

void BM_band_lu_sparselu(benchmark::State& state) {
  const auto A = line_matrix(state.range(0));
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index j = 0; j < A.rows(); ++j)
    for (Eigen::Index i = std::max<Eigen::Index>(0, j - A.ku());
         i <= std::min(A.rows() - 1, j + A.kl()); ++i)
      entries.emplace_back(static_cast<int>(i), static_cast<int>(j), A(i, j));
  Eigen::SparseMatrix<double> S(A.rows(), A.rows());
  S.setFromTriplets(entries.begin(), entries.end());
  S.makeCompressed();
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.analyzePattern(S);  // once, as a time-stepping code would
  const VecX<double> b = VecX<double>::Ones(A.rows());
  VecX<double> x(A.rows());
  for (auto _ : state) {
    lu.factorize(S);
    if (lu.info() != Eigen::Success) state.SkipWithError("SparseLU failed");
    x = lu.solve(b);
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
  set_counters<double>(state, A);
}
BENCHMARK(BM_band_lu_sparselu)->Arg(600)->Arg(303);

void BM_band_lu_long_double(benchmark::State& state) {
  band_lu<long double>(state, Backend::templated);
}
BENCHMARK(BM_band_lu_long_double)->Arg(600)->Arg(303);

template <class T>
void band_cholesky(benchmark::State& state, Backend backend) {
  const auto S = symmetric_part<T>(line_matrix(state.range(0)));
  BandCholesky<T> ch(S, backend);
  VecX<T> b = VecX<T>::Ones(S.rows()), x(S.rows());
  for (auto _ : state) {
    if (!ch.factor(S).ok()) state.SkipWithError("not positive definite");
    x = b;
    ch.solve(x);
    benchmark::DoNotOptimize(x.data());
    benchmark::ClobberMemory();
  }
}

void BM_band_cholesky(benchmark::State& state) {
  band_cholesky<double>(state, Backend::templated);
}
BENCHMARK(BM_band_cholesky)->Arg(600)->Arg(303);

#ifdef CABLEDYN_WITH_LAPACK
void BM_band_cholesky_lapack(benchmark::State& state) {
  band_cholesky<double>(state, Backend::lapack);
}
BENCHMARK(BM_band_cholesky_lapack)->Arg(600)->Arg(303);
#endif

void BM_band_cholesky_long_double(benchmark::State& state) {
  band_cholesky<long double>(state, Backend::templated);
}
BENCHMARK(BM_band_cholesky_long_double)->Arg(600)->Arg(303);

void BM_band_ldlt_inertia(benchmark::State& state) {
  const auto S = symmetric_part<double>(line_matrix(state.range(0)));
  BandLDLT<double> ldlt(S);
  for (auto _ : state) {
    if (!ldlt.factor(S, -0.5).ok()) state.SkipWithError("zero pivot");
    benchmark::DoNotOptimize(ldlt.negative_count());
  }
}
BENCHMARK(BM_band_ldlt_inertia)->Arg(600)->Arg(303);

}  // namespace

BENCHMARK_MAIN();
