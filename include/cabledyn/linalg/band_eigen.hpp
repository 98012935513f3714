// cabledyn: the lowest eigenpairs of a banded generalised symmetric-definite eigenproblem
// K phi = lambda M phi (lambda = omega^2), with memory linear in n.
// Spec "Modal analysis": K and M are banded and only the nModes lowest modes are computed;
// LAPACK dsbgvx gives the eigenvalues, inverse iteration with the banded factors of
// K - omega^2 M gives each shape, M-orthogonal to the shapes before it (a repeated frequency
// gets independent shapes), and the returned omega^2 is the Rayleigh quotient of the shape
// summed in extended precision, which keeps the lowest frequencies of a long, axially stiff
// line accurate where the band reduction alone loses digits.
//
// Stages (docs/modal-analysis.md):
//  1. Estimates. LAPACK (T = double, CABLEDYN_WITH_LAPACK): dsbgvx (JOBZ = 'N', RANGE = 'I':
//     split Cholesky reduction, band-to-tridiagonal, bisection), whose absolute error is of
//     order eps lambda_max. Templated (every floating T): shift-invert subspace iteration on
//     the banded Cholesky factors of K - sigma M (sigma = 0, or the first sigma < 0 that
//     makes it definite), Rayleigh-Ritz on p = max(2 nModes, nModes + 8) vectors.
//  2. Shapes. For each mode in turn, inverse iteration with the banded LU factors (partial
//     pivoting) of K - mu M at its estimate mu, each iterate M-orthogonalised (twice)
//     against the shapes before it; started from the Ritz vector, or a fixed pseudo-random
//     vector on the LAPACK path.
//  3. Rayleigh-Ritz over the computed shapes (sorts them and separates near-repeated
//     frequencies whose estimates could not), then omega^2 of each shape as its Rayleigh
//     quotient phi^T K phi / phi^T M phi with every row of K phi and M phi and the outer sums
//     compensated (detail/compensated.hpp: twice the working precision).
//  4. Check. Sturm counts (banded L D L^T of K - s M, Sylvester's law) just below each
//     cluster of the computed eigenvalues must equal the number computed below it, so no
//     lower eigenvalue was missed. The templated path retries with a doubled subspace.
// Plain floating types only (double, long double): the iterations branch on values.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <Eigen/Core>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/linalg/band_cholesky.hpp"
#include "cabledyn/linalg/band_ldlt.hpp"
#include "cabledyn/linalg/band_lu.hpp"
#include "cabledyn/linalg/band_matrix.hpp"
#include "cabledyn/linalg/detail/band_util.hpp"
#include "cabledyn/linalg/detail/compensated.hpp"
#include "cabledyn/linalg/lapack.hpp"

namespace cabledyn {

namespace detail {

/// The small dense problem A z = theta B z (A symmetric, B symmetric positive definite,
/// p x p) of the Rayleigh-Ritz steps: B = L L^T, C = L^-1 A L^-T, cyclic Jacobi rotations
/// on C until every off-diagonal entry is below eps sqrt(|c_ii c_jj|) (Demmel and Veselic's
/// stopping rule, accurate eigenvalues), Z = L^-T V; theta ascending, Z B-orthonormal.
/// Plain loops: the problems are tiny and this keeps the compile light. Returns false when
/// B is not positive definite.
template <class T>
bool small_generalized_eigen(const MatX<T>& A, const MatX<T>& B, VecX<T>& theta, MatX<T>& Z) {
  using Index = Eigen::Index;
  using std::abs;
  using std::sqrt;
  const Index p = A.rows();
  MatX<T> L = MatX<T>::Zero(p, p);
  for (Index j = 0; j < p; ++j) {
    T d = B(j, j);
    for (Index k = 0; k < j; ++k) d -= L(j, k) * L(j, k);
    if (!(d > 0)) return false;
    L(j, j) = sqrt(d);
    for (Index i = j + 1; i < p; ++i) {
      T s = B(i, j);
      for (Index k = 0; k < j; ++k) s -= L(i, k) * L(j, k);
      L(i, j) = s / L(j, j);
    }
  }
  // W = L^-1 A (forward substitution on each column), C = W L^-T = (L^-1 W^T)^T.
  MatX<T> W = A;
  for (Index c = 0; c < p; ++c)
    for (Index i = 0; i < p; ++i) {
      T s = W(i, c);
      for (Index k = 0; k < i; ++k) s -= L(i, k) * W(k, c);
      W(i, c) = s / L(i, i);
    }
  MatX<T> C(p, p);
  for (Index r = 0; r < p; ++r)
    for (Index i = 0; i < p; ++i) {
      T s = W(r, i);
      for (Index k = 0; k < i; ++k) s -= L(i, k) * C(r, k);
      C(r, i) = s / L(i, i);
    }
  for (Index i = 0; i < p; ++i)
    for (Index j = 0; j < i; ++j) C(i, j) = C(j, i) = T(0.5) * (C(i, j) + C(j, i));
  MatX<T> V = MatX<T>::Identity(p, p);
  const T eps = std::numeric_limits<T>::epsilon();
  for (int sweep = 0; sweep < 60; ++sweep) {
    bool rotated = false;
    for (Index i = 0; i < p; ++i)
      for (Index j = i + 1; j < p; ++j) {
        const T cij = C(i, j);
        if (abs(cij) <= eps * sqrt(abs(C(i, i) * C(j, j))) || cij == T(0)) continue;
        rotated = true;
        // Rotation that zeroes C(i, j): t = tan(phi), the smaller root.
        const T tau = (C(j, j) - C(i, i)) / (T(2) * cij);
        const T t = (tau >= 0 ? T(1) : T(-1)) / (abs(tau) + sqrt(T(1) + tau * tau));
        const T c = T(1) / sqrt(T(1) + t * t), s = t * c;
        for (Index k = 0; k < p; ++k) {
          const T a = C(k, i), b = C(k, j);
          C(k, i) = c * a - s * b;
          C(k, j) = s * a + c * b;
        }
        for (Index k = 0; k < p; ++k) {
          const T a = C(i, k), b = C(j, k);
          C(i, k) = c * a - s * b;
          C(j, k) = s * a + c * b;
        }
        C(i, j) = C(j, i) = T(0);
        for (Index k = 0; k < p; ++k) {
          const T a = V(k, i), b = V(k, j);
          V(k, i) = c * a - s * b;
          V(k, j) = s * a + c * b;
        }
      }
    if (!rotated) break;
  }
  std::vector<Index> order(static_cast<std::size_t>(p));
  for (Index i = 0; i < p; ++i) order[static_cast<std::size_t>(i)] = i;
  std::sort(order.begin(), order.end(), [&](Index a, Index b) { return C(a, a) < C(b, b); });
  theta.resize(p);
  Z.resize(p, p);
  for (Index c = 0; c < p; ++c) {
    const Index o = order[static_cast<std::size_t>(c)];
    theta(c) = C(o, o);
    for (Index i = p - 1; i >= 0; --i) {  // L^T z = v
      T s = V(i, o);
      for (Index k = i + 1; k < p; ++k) s -= L(k, i) * Z(k, c);
      Z(i, c) = s / L(i, i);
    }
  }
  return true;
}

}  // namespace detail

/// Options of BandGeneralizedEigen.
struct BandEigenOptions {
  /// `automatic`: dsbgvx estimates for double when LAPACK is compiled in, the templated
  /// subspace iteration otherwise; `templated`; `lapack` (InputError if unavailable).
  Backend backend = Backend::automatic;
  /// Subspace size p of the templated path (0: max(2 nModes, nModes + 8), at most n).
  Eigen::Index subspace = 0;
  /// The subspace iteration stops when no Ritz value of the wanted modes moves by more than
  /// this, relative (they are shifts for inverse iteration, which refines them).
  double ritz_tol = 1e-10;
  int max_subspace_iterations = 1000;
  /// Inverse iterations per shape: it stops when the shape changes by less than
  /// 1000 eps (max norm, relative) or stops contracting.
  int max_inverse_iterations = 12;
  /// Rayleigh-Ritz over the computed shapes before the final Rayleigh quotients.
  bool rayleigh_ritz = true;
  /// Sturm-count check that no eigenvalue below the computed ones was missed.
  bool verify_count = true;
  /// Neighbouring eigenvalues closer than cluster_tol max |lambda| form one cluster in the
  /// check, which counts at cluster_tol max |lambda| below each cluster.
  double cluster_tol = 1e-6;
  /// Seed of the start vectors (deterministic: a fixed seed gives the same result).
  std::uint64_t seed = 20250101;
};

/// The lowest eigenpairs of (K, M).
template <class T>
struct BandEigenResult {
  /// lambda = omega^2, ascending: the Rayleigh quotient of each vector, compensated.
  VecX<T> eigenvalues;
  /// n x nModes, M-orthonormal (phi_i^T M phi_j = delta_ij to round-off).
  MatX<T> vectors;
  /// Stage-1 eigenvalues (dsbgvx, or the Ritz values of the subspace iteration).
  VecX<T> estimates;
  /// Backward error of each pair, ||K phi - lambda M phi||_inf /
  /// ((||K||_inf + |lambda| ||M||_inf) ||phi||_inf), the products compensated.
  VecX<T> residuals;
  bool lapack = false;           ///< stage 1 ran dsbgvx
  T shift = T(0);                ///< sigma of the templated shift-invert
  Eigen::Index subspace = 0;     ///< p of the templated path (last attempt)
  int subspace_iterations = 0;   ///< templated path, over all attempts
  int inverse_iterations = 0;    ///< total over the shapes
  int sturm_checks = 0;          ///< L D L^T counts made by the check
  int attempts = 1;              ///< subspace attempts (the check may double p)
};

/// Solver of K phi = lambda M phi for the `modes` lowest eigenpairs of symmetric band
/// matrices K (any inertia) and M (positive definite) of order n and half-bandwidth kd.
/// Sized once: every workspace is O(n (kd + p)); compute() allocates only the small dense
/// p x p problems and the result.
template <class T>
class BandGeneralizedEigen {
  static_assert(std::is_floating_point_v<T>,
                "BandGeneralizedEigen: plain floating types only (double, long double)");

 public:
  using Index = Eigen::Index;

  BandGeneralizedEigen(Index n, Index kd, Index modes, BandEigenOptions opt = {})
      : n_(n), kd_(kd), k_(modes), opt_(opt) {
    detail::check_arg(n >= 1, "BandGeneralizedEigen", "n", n, ">= 1");
    detail::check_arg(kd >= 0, "BandGeneralizedEigen", "kd", kd, ">= 0");
    if (!(modes >= 1 && modes <= n))
      throw InputError("BandGeneralizedEigen", "nModes", modes, "in [1, n = " + std::to_string(n) + "]");
    if (!(opt.ritz_tol > 0 && opt.ritz_tol < 1))
      throw InputError("BandGeneralizedEigen", "ritz_tol", opt.ritz_tol, "in (0, 1)");
    if (!(opt.cluster_tol > 0 && opt.cluster_tol < 1))
      throw InputError("BandGeneralizedEigen", "cluster_tol", opt.cluster_tol, "in (0, 1)");
    detail::check_arg(opt.max_subspace_iterations >= 1, "BandGeneralizedEigen",
                      "max_subspace_iterations", opt.max_subspace_iterations, ">= 1");
    detail::check_arg(opt.max_inverse_iterations >= 1, "BandGeneralizedEigen",
                      "max_inverse_iterations", opt.max_inverse_iterations, ">= 1");
    if (opt.subspace != 0 && !(opt.subspace >= modes && opt.subspace <= n))
      throw InputError("BandGeneralizedEigen", "subspace", opt.subspace,
                       "0 or in [nModes, n] = [" + std::to_string(modes) + ", " + std::to_string(n) + "]");
    lapack_ = detail::use_lapack<T>(opt.backend, "BandGeneralizedEigen");
    p_ = opt.subspace > 0 ? opt.subspace : std::min(n, std::max(2 * modes, modes + 8));
    ldab_ = kd + 1;
    ldlu_ = 3 * kd + 1;
    detail::require_lapack_int(ldlu_ * n, "BandGeneralizedEigen", "ldab n");
    C_ = SymmetricBandMatrix<T>(n, kd);
    chol_ = BandCholesky<T>(n, kd, Backend::templated);
    ldlt_ = BandLDLT<T>(n, kd);
    lu_.assign(static_cast<std::size_t>(ldlu_ * n), T(0));
    ipiv_.assign(static_cast<std::size_t>(n), 0);
    phi_.resize(n, modes);
    mphi_.resize(n, modes);
    khi_.resize(n, modes);
    klo_.resize(n, modes);
    mhi_.resize(n, modes);
    mlo_.resize(n, modes);
    x_.resize(n);
    mx_.resize(n);
    y_.resize(n);
    my_.resize(n);
    c_.resize(modes);
    if (lapack_) {
      ab_.assign(static_cast<std::size_t>(ldab_ * n), 0.0);
      bb_.assign(static_cast<std::size_t>(ldab_ * n), 0.0);
      w_.assign(static_cast<std::size_t>(n), 0.0);
      work_.assign(static_cast<std::size_t>(7 * n), 0.0);
      iwork_.assign(static_cast<std::size_t>(5 * n), 0);
      ifail_.assign(static_cast<std::size_t>(n), 0);
    }
  }

  Index rows() const noexcept { return n_; }
  Index kd() const noexcept { return kd_; }
  Index modes() const noexcept { return k_; }
  /// True when stage 1 runs dsbgvx.
  bool uses_lapack() const noexcept { return lapack_; }
  const BandEigenResult<T>& result() const noexcept { return res_; }

  /// The `modes` lowest eigenpairs of (K, M). Throws InputError for a shape mismatch, a
  /// non-finite entry or an M that is not positive definite, SolveError when an iteration
  /// fails or the Sturm check still fails after the retries.
  const BandEigenResult<T>& compute(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M) {
    check_inputs(K, M);
    res_ = BandEigenResult<T>{};
    res_.lapack = lapack_;
    knorm_ = K.norm_inf();
    mnorm_ = M.norm_inf();
    Index p = p_;
    const int max_attempts = lapack_ ? 1 : 3;
    for (int attempt = 0; attempt < max_attempts; ++attempt) {
      res_.attempts = attempt + 1;
      if (lapack_) {
        estimates_lapack(K, M);
      } else {
        res_.subspace = p;
        estimates_subspace(K, M, p);
      }
      for (Index j = 0; j < k_; ++j) shape(K, M, j);
      finish(K, M);
      if (!opt_.verify_count) return res_;
      Index bad = -1, count = 0, expected = 0;
      if (count_check(K, M, bad, count, expected)) return res_;
      if (attempt + 1 == max_attempts)
        throw SolveError("BandGeneralizedEigen",
                         "eigenvalues below " + to_text(res_.eigenvalues(bad)) + " (Sturm count)", count,
                         "== " + std::to_string(expected) + " computed below it" +
                             (lapack_ ? "" : " (after " + std::to_string(max_attempts) + " subspace sizes)"));
      p = std::min(n_, 2 * p);
    }
    return res_;
  }

 private:
  // ---- inputs -------------------------------------------------------------------------
  void check_inputs(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M) {
    for (const auto* A : {&K, &M})
      if (A->rows() != n_ || A->kd() != kd_)
        throw InputError("BandGeneralizedEigen::compute", A == &K ? "K shape (n)" : "M shape (n)", A->rows(),
                         "n = " + std::to_string(n_) + ", kd = " + std::to_string(kd_) + " as sized");
    for (const auto* A : {&K, &M}) {
      if (detail::all_finite(A->data(), n_ * ldab_)) continue;
      for (Index j = 0; j < n_; ++j)
        for (Index r = 0; r <= std::min(kd_, n_ - 1 - j); ++r)
          if (!is_finite(A->data()[r + j * ldab_]))
            throw InputError("BandGeneralizedEigen::compute",
                             std::string(A == &K ? "K" : "M") + " entry (" + std::to_string(j + r) + ", " +
                                 std::to_string(j) + ")",
                             A->data()[r + j * ldab_], "finite");
    }
    // M must be positive definite (the Cholesky pivots of M).
    const FactorResult f = chol_.factor(M);
    if (!f.ok())
      throw InputError("BandGeneralizedEigen::compute", "M Cholesky pivot " + std::to_string(f.index), f.value,
                       "> 0 (the mass matrix must be positive definite)");
  }

  // ---- stage 1: estimates ---------------------------------------------------------------
  void estimates_lapack(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M) {
#ifdef CABLEDYN_WITH_LAPACK
    if constexpr (std::is_same_v<T, double>) {
      std::copy(K.data(), K.data() + n_ * ldab_, ab_.begin());
      std::copy(M.data(), M.data() + n_ * ldab_, bb_.begin());
      const int n = static_cast<int>(n_), kd = static_cast<int>(kd_), ld = static_cast<int>(ldab_), one = 1,
                iu = static_cast<int>(k_);
      const double vl = 0, vu = 0, abstol = 2 * std::numeric_limits<double>::min();
      double dummy_q = 0, dummy_z = 0;
      int m = 0, info = 0;
      const char jobz = 'N', range = 'I', uplo = 'L';
      dsbgvx_(&jobz, &range, &uplo, &n, &kd, &kd, ab_.data(), &ld, bb_.data(), &ld, &dummy_q, &one, &vl, &vu,
              &one, &iu, &abstol, &m, w_.data(), &dummy_z, &one, work_.data(), iwork_.data(), ifail_.data(),
              &info, 1, 1, 1);
      if (info > n)
        throw InputError("BandGeneralizedEigen (dsbgvx)", "M split Cholesky pivot " + std::to_string(info - n - 1),
                         "not positive", "> 0 (the mass matrix must be positive definite)");
      if (info != 0 || m != iu)
        throw SolveError("BandGeneralizedEigen (dsbgvx)", "INFO (eigenvalues found " + std::to_string(m) + ")",
                         info, "0");
      res_.estimates = Eigen::Map<const VecX<double>>(w_.data(), k_);
      // Start vectors: a fixed pseudo-random sequence (as LAPACK's dstein).
      std::uint64_t state = opt_.seed;
      for (Index j = 0; j < k_; ++j)
        for (Index i = 0; i < n_; ++i) phi_(i, j) = random_unit(state);
      return;
    }
#endif
    (void)K;
    (void)M;
    throw InputError("BandGeneralizedEigen", "backend", "lapack (not in this build)", "templated or automatic");
  }

  void estimates_subspace(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M, Index p) {
    // Shift: sigma = 0, or the first sigma = -s 10^(j - 14) (s = max K_ii / M_ii) that makes
    // K - sigma M positive definite.
    T s = T(0);
    for (Index i = 0; i < n_; ++i) s = std::max(s, std::abs(K.data()[i * ldab_]) / M.data()[i * ldab_]);
    if (!(s > 0)) s = T(1);
    T sigma = T(0);
    bool ok = false;
    for (int j = 0; j <= 16 && !ok; ++j) {
      sigma = j == 0 ? T(0) : -s * std::pow(T(10), T(j - 14));
      shifted(K, M, sigma);
      ok = chol_.factor(C_).ok();
    }
    if (!ok)
      throw SolveError("BandGeneralizedEigen", "K - sigma M positive definite for sigma down to", sigma,
                       "a sigma below the lowest eigenvalue (K far from definite)");
    res_.shift = sigma;
    // Subspace iteration: Y = (K - sigma M)^-1 M X, Rayleigh-Ritz on span Y with
    // Y^T (K - sigma M) Y = Y^T M X (no product with K).
    X_.resize(n_, p);
    MX_.resize(n_, p);
    Y_.resize(n_, p);
    MY_.resize(n_, p);
    std::uint64_t state = opt_.seed;
    for (Index j = 0; j < p; ++j)
      for (Index i = 0; i < n_; ++i) X_(i, j) = random_unit(state);
    for (Index j = 0; j < p; ++j) M.multiply(X_.col(j), MX_.col(j));
    VecX<T> prev = VecX<T>::Constant(k_, std::numeric_limits<T>::infinity());
    VecX<T> lam(p);
    T change_prev = std::numeric_limits<T>::infinity();
    MatX<T> Z;
    VecX<T> theta;
    for (int it = 1; it <= opt_.max_subspace_iterations; ++it) {
      ++res_.subspace_iterations;
      Y_ = MX_;
      chol_.solve(Y_);
      for (Index j = 0; j < p; ++j) M.multiply(Y_.col(j), MY_.col(j));
      orthonormalize_subspace(M, state);
      MatX<T> A = Y_.transpose() * MX_;
      MatX<T> B = Y_.transpose() * MY_;
      A = T(0.5) * (A + A.transpose()).eval();
      B = T(0.5) * (B + B.transpose()).eval();
      if (!detail::small_generalized_eigen(A, B, theta, Z))
        throw SolveError("BandGeneralizedEigen", "Rayleigh-Ritz at subspace iteration", it,
                         "a definite projected mass (subspace lost rank)");
      // theta = lambda - sigma > 0, ascending.
      X_.noalias() = Y_ * Z;
      MX_.noalias() = MY_ * Z;
      lam = theta.array() + sigma;
      T change = 0;
      for (Index i = 0; i < k_; ++i) {
        const T den = std::max(std::abs(lam(i)), std::abs(lam(i) - sigma));
        change = std::max(change, std::abs(lam(i) - prev(i)) / den);
      }
      prev = lam.head(k_);
      // Converged, or stalled at the round-off floor of the Ritz values.
      if (change <= T(opt_.ritz_tol) || (it > 8 && change < T(1e-6) && change >= T(0.9) * change_prev)) break;
      change_prev = change;
      if (it == opt_.max_subspace_iterations)
        throw SolveError("BandGeneralizedEigen", "subspace iterations (Ritz value change " + to_text(change) + ")",
                         it, "converged within max_subspace_iterations");
    }
    res_.estimates = prev;
    phi_ = X_.leftCols(k_);
  }

  // Modified Gram-Schmidt (twice) of the columns of Y_ in the M inner product, the same
  // column operations applied to MY_ = M Y and MX_ = (K - sigma M) Y, so that the projected
  // mass is the identity to round-off even when a shift close to an eigenvalue makes Y
  // nearly rank deficient. A column lost to the orthogonalisation is replaced by a fresh
  // pseudo-random one (its MX_ from C_ = K - sigma M).
  void orthonormalize_subspace(const SymmetricBandMatrix<T>& M, std::uint64_t& state) {
    const Index p = Y_.cols();
    for (Index j = 0; j < p; ++j) {
      for (int fresh = 0; fresh < 3; ++fresh) {
        const T before = std::sqrt(std::max(T(0), Y_.col(j).dot(MY_.col(j))));
        for (int pass = 0; pass < 2; ++pass)
          for (Index i = 0; i < j; ++i) {
            const T c = Y_.col(i).dot(MY_.col(j));
            Y_.col(j) -= c * Y_.col(i);
            MY_.col(j) -= c * MY_.col(i);
            MX_.col(j) -= c * MX_.col(i);
          }
        const T nrm = std::sqrt(std::max(T(0), Y_.col(j).dot(MY_.col(j))));
        if (nrm > T(1e3) * std::numeric_limits<T>::epsilon() * before && nrm > 0) {
          Y_.col(j) /= nrm;
          MY_.col(j) /= nrm;
          MX_.col(j) /= nrm;
          break;
        }
        if (fresh == 2)
          throw SolveError("BandGeneralizedEigen", "subspace column " + std::to_string(j), "dependent",
                           "independent of the columns before it");
        for (Index i = 0; i < n_; ++i) Y_(i, j) = random_unit(state);
        M.multiply(Y_.col(j), MY_.col(j));
        C_.multiply(Y_.col(j), MX_.col(j));
      }
    }
  }

  // ---- stage 2: inverse iteration -------------------------------------------------------
  void shape(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M, Index j) {
    T mu = res_.estimates(j);
    factor_shifted(K, M, mu);
    x_ = phi_.col(j);
    orthogonalize(x_, j);
    normalize(M, x_, mx_);
    T delta_prev = std::numeric_limits<T>::infinity();
    const T tol = T(1000) * std::numeric_limits<T>::epsilon();
    for (int it = 1; it <= opt_.max_inverse_iterations; ++it) {
      ++res_.inverse_iterations;
      y_ = mx_;
      solve_shifted(y_);
      orthogonalize(y_, j);
      normalize(M, y_, my_);
      if (y_.dot(mx_) < 0) {
        y_ = -y_;
        my_ = -my_;
      }
      const T delta = (y_ - x_).cwiseAbs().maxCoeff() / y_.cwiseAbs().maxCoeff();
      x_.swap(y_);
      mx_.swap(my_);
      if (delta <= tol || (it >= 3 && delta >= delta_prev)) break;
      delta_prev = delta;
    }
    phi_.col(j) = x_;
    mphi_.col(j) = mx_;
  }

  // Classical Gram-Schmidt in the M inner product against the shapes 0..j-1, twice.
  void orthogonalize(VecX<T>& v, Index j) {
    if (j == 0) return;
    for (int pass = 0; pass < 2; ++pass) {
      c_.head(j).noalias() = mphi_.leftCols(j).transpose() * v;
      v.noalias() -= phi_.leftCols(j) * c_.head(j);
    }
  }

  // v <- v / ||v||_M and Mv = M v.
  void normalize(const SymmetricBandMatrix<T>& M, VecX<T>& v, VecX<T>& Mv) {
    M.multiply(v, Mv);
    const T q = v.dot(Mv);
    if (!(q > 0) || !std::isfinite(q))
      throw SolveError("BandGeneralizedEigen", "inverse iteration: |phi|_M^2", q,
                       "> 0 and finite (a shape lost to the orthogonalisation)");
    const T r = T(1) / std::sqrt(q);
    v *= r;
    Mv *= r;
  }

  // C_ = K - sigma M.
  void shifted(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M, T sigma) {
    const T* k = K.data();
    const T* m = M.data();
    T* c = C_.data();
    for (Index i = 0; i < n_ * ldab_; ++i) c[i] = k[i] - sigma * m[i];
  }

  // Banded LU with partial pivoting of K - mu M (DGBTRF storage, kl = ku = kd). An exactly
  // zero pivot moves mu by a round-off-sized step and factors again.
  void factor_shifted(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M, T mu) {
    const Index kv = 2 * kd_;
    for (int attempt = 0; attempt < 5; ++attempt) {
      std::fill(lu_.begin(), lu_.end(), T(0));
      const T* k = K.data();
      const T* m = M.data();
      for (Index j = 0; j < n_; ++j)
        for (Index r = 0; r <= std::min(kd_, n_ - 1 - j); ++r) {
          const T g = k[r + j * ldab_] - mu * m[r + j * ldab_];
          lu_[static_cast<std::size_t>(kv + r + j * ldlu_)] = g;            // G(j + r, j)
          lu_[static_cast<std::size_t>(kv - r + (j + r) * ldlu_)] = g;      // G(j, j + r)
        }
      Index info = -1;
#ifdef CABLEDYN_WITH_LAPACK
      if constexpr (std::is_same_v<T, double>) {
        if (lapack_) {
          const int n = static_cast<int>(n_), kd = static_cast<int>(kd_), ld = static_cast<int>(ldlu_);
          int inf = 0;
          dgbtrf_(&n, &n, &kd, &kd, lu_.data(), &ld, ipiv_.data(), &inf);
          info = inf > 0 ? inf - 1 : -1;
        }
      }
#endif
      if (!lapack_) info = detail::gbtrf(n_, kd_, kd_, lu_.data(), ldlu_, ipiv_.data());
      if (info < 0) return;
      // Move mu by a round-off-sized step of the matrix (eps (||K|| + |mu| ||M||) / ||M||),
      // then 100 times more.
      mu += std::numeric_limits<T>::epsilon() * std::pow(T(100), T(attempt)) *
            (T(knorm_) + std::abs(mu) * T(mnorm_)) / T(mnorm_);
    }
    throw SolveError("BandGeneralizedEigen", "inverse iteration: exactly singular K - mu M at mu", mu,
                     "a nonsingular shifted matrix");
  }

  void solve_shifted(VecX<T>& b) const {
#ifdef CABLEDYN_WITH_LAPACK
    if constexpr (std::is_same_v<T, double>) {
      if (lapack_) {
        const int n = static_cast<int>(n_), kd = static_cast<int>(kd_), ld = static_cast<int>(ldlu_), one = 1;
        int info = 0;
        const char trans = 'N';
        dgbtrs_(&trans, &n, &kd, &kd, &one, lu_.data(), &ld, ipiv_.data(), b.data(), &n, &info, 1);
        check_finite(b);
        return;
      }
    }
#endif
    detail::gbtrs(n_, kd_, kd_, Index(1), lu_.data(), ldlu_, ipiv_.data(), b.data(), n_);
    check_finite(b);
  }

  static void check_finite(const VecX<T>& b) {
    if (!b.allFinite())
      throw SolveError("BandGeneralizedEigen", "inverse iteration iterate", "not finite",
                       "finite (overflow in the shifted solve)");
  }

  // ---- stage 3: Rayleigh-Ritz and compensated Rayleigh quotients -------------------------
  void products(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M) {
    for (Index j = 0; j < k_; ++j) {
      detail::compensated_band_multiply(K, phi_.col(j).data(), khi_.col(j).data(), klo_.col(j).data());
      detail::compensated_band_multiply(M, phi_.col(j).data(), mhi_.col(j).data(), mlo_.col(j).data());
    }
  }

  void finish(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M) {
    products(K, M);
    if (opt_.rayleigh_ritz && k_ > 1) {
      MatX<T> A(k_, k_), B(k_, k_);
      for (Index i = 0; i < k_; ++i)
        for (Index j = 0; j <= i; ++j) {
          A(i, j) = A(j, i) =
              detail::compensated_dot(n_, phi_.col(i).data(), khi_.col(j).data(), klo_.col(j).data()).value();
          B(i, j) = B(j, i) =
              detail::compensated_dot(n_, phi_.col(i).data(), mhi_.col(j).data(), mlo_.col(j).data()).value();
        }
      VecX<T> theta;
      MatX<T> Z;
      if (!detail::small_generalized_eigen(A, B, theta, Z))
        throw SolveError("BandGeneralizedEigen", "Rayleigh-Ritz of the shapes", "failed",
                         "M-independent shapes");
      phi_ = phi_ * Z;  // M-orthonormal to round-off (B-orthonormal Z)
    }
    res_.eigenvalues.resize(k_);
    res_.residuals.resize(k_);
    for (Index j = 0; j < k_; ++j) {
      // The quotient of the stored shape, every product compensated.
      if (opt_.rayleigh_ritz && k_ > 1) {
        detail::compensated_band_multiply(K, phi_.col(j).data(), khi_.col(j).data(), klo_.col(j).data());
        detail::compensated_band_multiply(M, phi_.col(j).data(), mhi_.col(j).data(), mlo_.col(j).data());
      }
      const T num = detail::compensated_dot(n_, phi_.col(j).data(), khi_.col(j).data(), klo_.col(j).data()).value();
      const T den = detail::compensated_dot(n_, phi_.col(j).data(), mhi_.col(j).data(), mlo_.col(j).data()).value();
      const T lam = num / den;
      res_.eigenvalues(j) = lam;
      T r = 0;
      for (Index i = 0; i < n_; ++i)
        r = std::max(r, std::abs((khi_(i, j) - lam * mhi_(i, j)) + (klo_(i, j) - lam * mlo_(i, j))));
      res_.residuals(j) = r / ((T(knorm_) + std::abs(lam) * T(mnorm_)) * phi_.col(j).cwiseAbs().maxCoeff());
    }
    // Ascending order (Rayleigh-Ritz sorts; the quotients may swap exact ties only).
    std::vector<Index> order(static_cast<std::size_t>(k_));
    for (Index j = 0; j < k_; ++j) order[static_cast<std::size_t>(j)] = j;
    std::stable_sort(order.begin(), order.end(),
                     [&](Index a, Index b) { return res_.eigenvalues(a) < res_.eigenvalues(b); });
    res_.vectors.resize(n_, k_);
    VecX<T> lam = res_.eigenvalues, eta = res_.residuals;
    for (Index j = 0; j < k_; ++j) {
      const Index o = order[static_cast<std::size_t>(j)];
      res_.vectors.col(j) = phi_.col(o);
      res_.eigenvalues(j) = lam(o);
      res_.residuals(j) = eta(o);
    }
  }

  // ---- stage 4: Sturm check -------------------------------------------------------------
  // For each cluster of computed eigenvalues (neighbours closer than cluster_tol times the
  // largest |lambda| computed) the count of eigenvalues below a point just under it
  // (cluster_tol max |lambda| below it, or half-way to the cluster before) must equal the
  // number computed below it.
  bool count_check(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M, Index& bad, Index& count,
                   Index& expected) {
    const VecX<T>& lam = res_.eigenvalues;
    const T tol = T(opt_.cluster_tol);
    // Scale of the computed spectrum: margins are relative to the largest |lambda| computed.
    const T scale = std::max({std::abs(lam(0)), std::abs(lam(k_ - 1)), std::numeric_limits<T>::min()});
    for (Index j = 0; j < k_; ++j) {
      if (j > 0 && lam(j) - lam(j - 1) <= tol * scale) continue;  // inside a cluster
      T s = lam(j) - tol * scale;
      if (j > 0) s = std::max(s, T(0.5) * (lam(j) + lam(j - 1)));
      Index neg = -1;
      for (int attempt = 0; attempt < 3 && neg < 0; ++attempt) {
        shifted(K, M, s);
        ++res_.sturm_checks;
        if (ldlt_.factor(C_).ok()) neg = ldlt_.negative_count();
        else s -= T(0.01) * tol * scale;
      }
      if (neg != j) {
        bad = j;
        count = neg;
        expected = j;
        return false;
      }
    }
    return true;
  }

  // A reproducible uniform number in [-1, 1) (splitmix64).
  static T random_unit(std::uint64_t& state) {
    state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return T(static_cast<double>(z >> 11) * 0x1.0p-53 * 2.0 - 1.0);
  }

  Index n_ = 0, kd_ = 0, k_ = 0, p_ = 0, ldab_ = 1, ldlu_ = 1;
  BandEigenOptions opt_;
  bool lapack_ = false;
  value_type_t<T> knorm_ = 0, mnorm_ = 0;
  SymmetricBandMatrix<T> C_;
  BandCholesky<T> chol_;
  BandLDLT<T> ldlt_;
  std::vector<T> lu_;
  std::vector<int> ipiv_;
  MatX<T> X_, MX_, Y_, MY_;
  MatX<T> phi_, mphi_, khi_, klo_, mhi_, mlo_;
  VecX<T> x_, mx_, y_, my_, c_;
  std::vector<double> ab_, bb_, w_, work_;
  std::vector<int> iwork_, ifail_;
  BandEigenResult<T> res_;
};

/// Number of eigenvalues of K phi = lambda M phi below sigma: the negative pivots of the
/// banded L D L^T of K - sigma M (Sylvester's law of inertia, M positive definite). Exact
/// when no eigenvalue of K - sigma M lies within the factorisation's perturbation bound of
/// zero (linalg/band_ldlt.hpp). Throws SolveError when the factorisation meets a zero pivot.
template <class T>
Eigen::Index count_eigenvalues_below(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M,
                                     const T& sigma) {
  if (K.rows() != M.rows() || K.kd() != M.kd())
    throw InputError("count_eigenvalues_below", "M shape (n)", M.rows(),
                     "that of K: n = " + std::to_string(K.rows()) + ", kd = " + std::to_string(K.kd()));
  SymmetricBandMatrix<T> C(K.rows(), K.kd());
  for (Eigen::Index i = 0; i < K.rows() * K.ldab(); ++i) C.data()[i] = K.data()[i] - sigma * M.data()[i];
  BandLDLT<T> ldlt(C);
  const FactorResult f = ldlt.factor(C);
  if (!f.ok()) throw f.error("count_eigenvalues_below");
  return ldlt.negative_count();
}

/// The `modes` lowest eigenpairs of K phi = lambda M phi (a one-shot BandGeneralizedEigen).
template <class T>
BandEigenResult<T> band_generalized_eigen(const SymmetricBandMatrix<T>& K, const SymmetricBandMatrix<T>& M,
                                          Eigen::Index modes, const BandEigenOptions& opt = {}) {
  BandGeneralizedEigen<T> solver(K.rows(), K.kd(), modes, opt);
  return solver.compute(K, M);
}

}  // namespace cabledyn
