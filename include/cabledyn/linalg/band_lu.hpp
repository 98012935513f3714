// cabledyn: banded LU with partial pivoting (the DGBTRF/DGBTRS algorithm), templated on T.
// Spec "Linear algebra": global operators are factorised in LAPACK band form (DGBTRF/DGBSV)
// with workspaces allocated once, so a dynamic step performs no heap allocation.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/pack.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/linalg/band_matrix.hpp"
#include "cabledyn/linalg/detail/band_util.hpp"
#include "cabledyn/linalg/factor_result.hpp"
#include "cabledyn/linalg/lapack.hpp"

namespace cabledyn {
namespace detail {

/// Unblocked band LU with partial pivoting, column by column as LAPACK's DGBTF2 (0-based).
/// `ab` holds A in DGBTRF storage (ldab >= 2 kl + ku + 1, diagonal in row kl + ku) with the
/// top kl fill rows zero; on return it holds U (upper band of width kl + ku) and the
/// multipliers of L below the diagonal. ipiv[j] is the row swapped with row j. Returns the
/// first j with an exactly zero pivot, or -1.
/// KL > 0 fixes kl at compile time (the columns with a full kl rows below the diagonal run
/// fully unrolled loops); KL = 0 takes kl at run time.
/// `tail_padded`: ab has at least 16 writable entries past column n - 1.
template <class T, int KL = 0>
Eigen::Index gbtrf(Eigen::Index n, Eigen::Index kl, Eigen::Index ku, T* __restrict ab,
                   Eigen::Index ldab, int* __restrict ipiv, bool tail_padded = false) {
  if constexpr (KL == 0) {
    // The common half-bandwidths of the lines (EI = 0, Hermite, Hermite with twist) unrolled.
    if (kl == 5) return gbtrf<T, 5>(n, kl, ku, ab, ldab, ipiv, tail_padded);
    if (kl == 11) return gbtrf<T, 11>(n, kl, ku, ab, ldab, ipiv, tail_padded);
    if (kl == 13) return gbtrf<T, 13>(n, kl, ku, ab, ldab, ipiv, tail_padded);
  }
  using Index = Eigen::Index;
  const Index kv = kl + ku;
  Index info = -1;
  Index ju = 0;  // last column touched by the row swaps so far
  // The block update of the unrolled path needs (ldab - 1) % 4 == 0, 2 padding rows per
  // column (ldab >= 2 kl + ku + 3) and 16 writable entries past the last column (BandLU's
  // templated storage provides them); otherwise the plain loops run.
  const bool aligned = (ldab - 1) % 4 == 0 && ldab >= 2 * kl + ku + 3 && tail_padded;
  for (Index j = 0; j < n; ++j) {
    T* __restrict col = ab + kv + j * ldab;  // col[p] = A(j + p, j)
    const Index km = std::min(kl, n - 1 - j);
    Index jp = 0;
    value_type_t<T> amax = abs_value(col[0]);
    for (Index p = 1; p <= (KL > 0 && km == KL ? Index(KL) : km); ++p) {
      const value_type_t<T> a = abs_value(col[p]);
      if (a > amax) {
        amax = a;
        jp = p;
      }
    }
    ipiv[j] = static_cast<int>(j + jp);
    if (value_of(col[jp]) == 0) {
      if (info < 0) info = j;
      continue;
    }
    ju = std::max(ju, std::min(j + ku + jp, n - 1));
    if (jp != 0) {
      // Swap rows j and j + jp in columns j..ju; along a row the storage stride is ldab - 1.
      T* __restrict r0 = col;
      T* __restrict r1 = col + jp;
      const Index stride = ldab - 1;
      for (Index k = 0; k <= ju - j; ++k) std::swap(r0[k * stride], r1[k * stride]);
    }
    if (KL > 0 && km == KL && aligned) {
      // Row i of every column sits at i mod 4 ((ldab - 1) % 4 == 0): the update runs over
      // whole 4-row blocks from rb = (j + 1) & ~3, the multipliers zero outside rows
      // j+1..j+KL. A row outside them takes x - 0 u = x (an exact no-op; an entry just above
      // or below the band, or a padding row, is rewritten unchanged), and each block is
      // stored where the next step reloads it, instead of one entry over.
      constexpr int NB = (KL + 6) / 4;
      const T r = T(1) / col[0];
      const Index rb = (j + 1) & ~Index(3), off = j + 1 - rb;
#if defined(__GNUC__)
      if constexpr (std::is_same_v<T, double>) {
        // In registers: column j's blocks of rows rb .. rb + 4 NB - 1 are loaded once, the
        // multiplier rows j+1..j+KL scaled by r (bit masks select them; the other rows are
        // stored back unchanged) and kept for the update (zero outside them). Scalar
        // multipliers written and reloaded as blocks would stall the store forwarding on
        // the chain from column to column.
        typedef double D4 __attribute__((vector_size(32)));
        typedef long long I4 __attribute__((vector_size(32)));
        static constexpr auto masks = [] {
          std::array<std::array<long long, 4 * NB>, 4> m{};
          for (int o = 0; o < 4; ++o)
            for (int p = 0; p < 4 * NB; ++p) m[o][p] = p >= o && p < o + KL ? -1 : 0;
          return m;
        }();
        const D4 R = r - D4{};
        double* cb = col + 1 - off;  // &A(rb, j)
        D4 lp[NB];
        for (int b = 0; b < NB; ++b) {
          D4 v;
          I4 m;
          std::memcpy(&v, cb + 4 * b, sizeof(D4));
          std::memcpy(&m, masks[static_cast<std::size_t>(off)].data() + 4 * b, sizeof(I4));
          const I4 si = (I4)(v * R), vi = (I4)v;
          const D4 st = (D4)((si & m) | (vi & ~m));
          std::memcpy(cb + 4 * b, &st, sizeof(D4));
          lp[b] = (D4)(si & m);
        }
        for (Index k = j + 1; k <= ju; ++k) {
          T* __restrict ck = ab + kv + k * (ldab - 1);  // ck[i] = A(i, k)
          const T ujk = ck[j];
          if (!(abs_value(ujk) <= std::numeric_limits<value_type_t<T>>::max())) {
            for (int p = 0; p < KL; ++p) ck[j + 1 + p] -= col[1 + p] * ujk;  // Inf/NaN: the band rows only
            continue;
          }
          T* __restrict dst = ck + rb;
          const D4 u = ujk - D4{};
          for (int b = 0; b < NB; ++b) {
            D4 d;
            std::memcpy(&d, dst + 4 * b, sizeof(D4));
            d = d - lp[b] * u;
            std::memcpy(dst + 4 * b, &d, sizeof(D4));
          }
        }
        continue;
      }
#endif
      T lp[4 * NB];
      for (int p = 1; p <= KL; ++p) col[p] *= r;
      for (int p = 0; p < 4 * NB; ++p) lp[p] = T(0);
      for (int p = 0; p < KL; ++p) lp[off + p] = col[1 + p];
      for (Index k = j + 1; k <= ju; ++k) {
        T* __restrict ck = ab + kv + k * (ldab - 1);  // ck[i] = A(i, k)
        const T ujk = ck[j];
        if (!(abs_value(ujk) <= std::numeric_limits<value_type_t<T>>::max())) {
          for (int p = 0; p < KL; ++p) ck[j + 1 + p] -= lp[off + p] * ujk;  // Inf/NaN: the band rows only
          continue;
        }
        T* __restrict dst = ck + rb;
        if constexpr (std::is_same_v<T, double>) {
          // One 4-lane pack per block (loads and stores of whole blocks).
          using V = Pack<double, 4>;
          const V u(ujk);
          for (int b = 0; b < NB; ++b) {
            V d, l;
            std::memcpy(&d, dst + 4 * b, sizeof(V));
            std::memcpy(&l, lp + 4 * b, sizeof(V));
            d = d - l * u;
            std::memcpy(dst + 4 * b, &d, sizeof(V));
          }
        } else {
          for (int p = 0; p < 4 * NB; ++p) dst[p] -= lp[p] * ujk;
        }
      }
    } else if (KL > 0 && km == KL) {
      const T r = T(1) / col[0];
      for (int p = 1; p <= KL; ++p) col[p] *= r;
      const T* __restrict l = col + 1;
      for (Index k = j + 1; k <= ju; ++k) {
        T* __restrict ck = ab + kv + j - k + k * ldab;
        const T ujk = ck[0];
        T* __restrict dst = ck + 1;
        for (int p = 0; p < KL; ++p) dst[p] -= l[p] * ujk;
      }
    } else if (km > 0) {
      const T r = T(1) / col[0];
      for (Index p = 1; p <= km; ++p) col[p] *= r;
      // Rank-one update of the trailing block: A(j+1..j+km, k) -= l * A(j, k), k in j+1..ju.
      const T* __restrict l = col + 1;
      for (Index k = j + 1; k <= ju; ++k) {
        T* __restrict ck = ab + kv + j - k + k * ldab;  // ck[0] = A(j, k)
        const T ujk = ck[0];
        T* __restrict dst = ck + 1;
        for (Index p = 0; p < km; ++p) dst[p] -= l[p] * ujk;
      }
    }
  }
  return info;
}

/// What gbtrs_by4 needs to solve the 4 x 4 diagonal blocks of the factors of gbtrf (kl >= 3)
/// in registers, block k covering rows and columns 4k .. 4k + 3 (n / 4 whole blocks), 32
/// entries per block. L: tables[32 k + 4 c + r] is entry (r, c) of the inverse of the unit lower
/// block (the multipliers as stored, used only when the block has no row swap; partial
/// pivoting keeps them <= 1, so the product with the inverse stays backward stable). U is
/// not inverted (the inverse of an ill-conditioned block loses the backward stability of
/// substitution): tables[32 k + 16 + r] = 1 / U(r, r) and, for c = 1 .. 3,
/// tables[32 k + 16 + 4 c + r] = U(r, c) / U(c, c) for r < c, 0 for r >= c: the columns of the
/// unit upper factor of U = U1 D, so that the substitution runs as three vector updates.
inline void block_tables(Eigen::Index n, Eigen::Index kl, Eigen::Index ku, const double* __restrict ab,
                         Eigen::Index ldab, double* __restrict tables) {
  using Index = Eigen::Index;
  const Index kv = kl + ku;
  auto A = [&](Index i, Index j) { return ab[kv + i - j + j * ldab]; };
  for (Index k = 0; 4 * k + 3 < n; ++k, tables += 32) {
    const Index j0 = 4 * k;
    double* Li = tables;
    double* Uc = tables + 16;
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) {
        double l = r == c ? 1.0 : 0.0;
        for (int m = c; m < r; ++m) l -= A(j0 + r, j0 + m) * Li[4 * c + m];
        Li[4 * c + r] = l;
      }
    for (int c = 0; c < 4; ++c) Uc[c] = 1.0 / A(j0 + c, j0 + c);
    for (int c = 1; c < 4; ++c)
      for (int r = 0; r < 4; ++r) Uc[4 * c + r] = r < c ? A(j0 + r, j0 + c) * Uc[c] : 0.0;
  }
}

/// gbtrs for double with 3 <= kl, kl + ku <= 28, four columns at a time: a block of columns j0 ..
/// j0 + 3 (j0 a multiple of 4, no row swaps among them) first solves its 4 x 4 triangle (by
/// scalar substitution, or in registers with `tables` from block_tables: forward one product
/// with the inverse of the unit lower block, backward three vector updates), then updates the
/// rows below (forward) or above (backward) in whole 4-entry runs (an entry of a column
/// outside its band is masked to 0). A run is stored once per block, where the next block
/// reloads it (with tables it stays in a register). Other columns (swaps, the ends) are
/// swept one at a time.
inline void gbtrs_by4(Eigen::Index n, Eigen::Index kl, Eigen::Index ku, Eigen::Index nrhs,
                      const double* __restrict ab, Eigen::Index ldab, const int* __restrict ipiv,
                      double* __restrict b, Eigen::Index ldb, const double* __restrict tables = nullptr) {
  using Index = Eigen::Index;
  using V = Pack<double, 4>;
  const Index kv = kl + ku, wf = (kl + 3) / 4, wb = (kv + 3) / 4;
  // mf[c][r]: row j0 + 4 + r is in column j0 + c's band below; mb[c][r]: row j0 - 4 wb + r is
  // in column j0 + c's band above.
  double mf[4][28], mb[4][28];
  for (int c = 0; c < 4; ++c)
    for (Index r = 0; r < 28; ++r) {
      mf[c][r] = r + 4 - c <= kl ? 1.0 : 0.0;
      mb[c][r] = r - 4 * wb - c >= -kv ? 1.0 : 0.0;
    }
  auto at = [&](Index i, Index j) { return ab + kv + i - j + j * ldab; };  // &A(i, j)
  auto load = [](const double* p) {
    V v;
    std::memcpy(&v, p, sizeof(V));
    return v;
  };
  // Lane k of v on every lane.
  auto splat = [](const V& v, int k) { return V(v[k]); };
  // d - sum_c A(i.., j + c) x_c over a 4-entry run, a = &A(i, j), the columns `step` apart;
  // m: the band masks of the run (m[28 c + r]), null when the run lies inside every column's
  // band. Forward the two pairs of columns are summed apart (a shorter chain than four in a
  // row); backward the terms come in the backward sweep's order, x3 first (the block solves
  // x3 first and x0 last, so each term starts as its x is ready).
  auto update = [&](const V& d, const double* a, Index step, const double* m, const V& x0, const V& x1,
                    const V& x2, const V& x3, bool backward) {
    V a0 = load(a), a1 = load(a + step), a2 = load(a + 2 * step), a3 = load(a + 3 * step);
    if (m) {
      a0 = a0 * load(m);
      a1 = a1 * load(m + 28);
      a2 = a2 * load(m + 56);
      a3 = a3 * load(m + 84);
    }
    if (backward) return d - a3 * x3 - a2 * x2 - a1 * x1 - a0 * x0;
    return d - (a0 * x0 + a1 * x1) - (a2 * x2 + a3 * x3);
  };
  // Forward runs q < full_f and backward runs q >= full_b need no mask.
  const Index full_f = kl >= 7 ? (kl - 7) / 4 + 1 : 0;
  const Index full_b = std::max<Index>(0, (3 + 4 * wb - kv + 3) / 4);
  for (Index col = 0; col < nrhs; ++col) {
    double* __restrict x = b + col * ldb;
    // The run a block stores for the next block's rows stays in `carry` (valid when the next
    // block starts at carry_at): the chain from block to block then runs in registers.
    V carry{};
    Index carry_at = -1;
    for (Index j = 0; j + 1 < n;) {
      if (j % 4 == 0 && j + 4 + 4 * wf <= n && ipiv[j] == j && ipiv[j + 1] == j + 1 && ipiv[j + 2] == j + 2 &&
          ipiv[j + 3] == j + 3) {
        V y;
        if (tables) {
          const V xb = carry_at == j ? carry : load(x + j);
          const double* Li = tables + 8 * j;
          y = (load(Li) * splat(xb, 0) + load(Li + 4) * splat(xb, 1)) +
              (load(Li + 8) * splat(xb, 2) + load(Li + 12) * splat(xb, 3));
          std::memcpy(x + j, &y, sizeof(V));
        } else {
          for (int c = 0; c < 4; ++c)
            for (int r = c + 1; r < 4; ++r) x[j + r] -= *at(j + r, j + c) * x[j + c];
          y = load(x + j);
        }
        const V x0 = splat(y, 0), x1 = splat(y, 1), x2 = splat(y, 2), x3 = splat(y, 3);
        for (Index q = 0; q < wf; ++q) {
          const Index i = j + 4 + 4 * q;
          const V d = update(load(x + i), at(i, j), ldab - 1, q < full_f ? nullptr : &mf[0][4 * q], x0, x1, x2, x3, false);
          std::memcpy(x + i, &d, sizeof(V));
          if (q == 0) carry = d;
        }
        carry_at = j + 4;
        j += 4;
      } else {
        const Index lm = std::min(kl, n - 1 - j);
        const Index l = ipiv[j];
        if (l != j) std::swap(x[l], x[j]);
        const double xj = x[j];
        for (Index p = 1; p <= lm; ++p) x[j + p] -= *at(j + p, j) * xj;
        carry_at = -1;
        ++j;
      }
    }
    carry_at = -1;
    for (Index j = n - 1; j >= 0;) {
      const Index j0 = j - 3;
      if ((j + 1) % 4 == 0 && j0 - 4 * wb >= 0) {
        V x0, x1, x2, x3;
        if (tables) {
          // v_r = b_r - sum_{c > r} U(r, c) x_c by columns, x_c = v_c / U(c, c): in registers.
          const double* Uc = tables + 8 * j0 + 16;
          V v = carry_at == j0 ? carry : load(x + j0);
          // x_c on every lane as soon as v_c is final (the same product as y's lane c).
          const V b3 = splat(v, 3);
          x3 = b3 * V(Uc[3]);
          v = v - load(Uc + 12) * b3;
          const V b2 = splat(v, 2);
          x2 = b2 * V(Uc[2]);
          v = v - load(Uc + 8) * b2;
          const V b1 = splat(v, 1);
          x1 = b1 * V(Uc[1]);
          v = v - load(Uc + 4) * b1;
          x0 = splat(v, 0) * V(Uc[0]);
          const V y = v * load(Uc);
          std::memcpy(x + j0, &y, sizeof(V));
        } else {
          for (int c = 3; c >= 0; --c) {
            x[j0 + c] /= *at(j0 + c, j0 + c);
            for (int r = 0; r < c; ++r) x[j0 + r] -= *at(j0 + r, j0 + c) * x[j0 + c];
          }
          const V y = load(x + j0);
          x0 = splat(y, 0);
          x1 = splat(y, 1);
          x2 = splat(y, 2);
          x3 = splat(y, 3);
        }
        for (Index q = wb - 1; q >= 0; --q) {
          const Index i = j0 - 4 * wb + 4 * q;
          const V d = update(load(x + i), at(i, j0), ldab - 1, q >= full_b ? nullptr : &mb[0][4 * q], x0, x1, x2,
                             x3, true);
          std::memcpy(x + i, &d, sizeof(V));
          if (q == wb - 1) carry = d;
        }
        carry_at = j0 - 4;
        j -= 4;
      } else {
        x[j] /= *at(j, j);
        const double xj = x[j];
        const Index lm = std::min(kv, j);
        for (Index p = 1; p <= lm; ++p) x[j - p] -= *at(j - p, j) * xj;
        carry_at = -1;
        --j;
      }
    }
  }
}

/// Solves A X = B with the factors of gbtrf (LAPACK's DGBTRS, trans = 'N'), B column-major
/// with leading dimension ldb, overwritten by X. `tables` (double, 3 <= kl, kl + ku <= 28): the
/// tables of block_tables, or null.
template <class T>
void gbtrs(Eigen::Index n, Eigen::Index kl, Eigen::Index ku, Eigen::Index nrhs,
           const T* __restrict ab, Eigen::Index ldab, const int* __restrict ipiv,
           T* __restrict b, Eigen::Index ldb, const T* __restrict tables = nullptr) {
  using Index = Eigen::Index;
  const Index kv = kl + ku;
  if constexpr (std::is_same_v<T, double>) {
    if (kl >= 3 && kv <= 28) {
      gbtrs_by4(n, kl, ku, nrhs, ab, ldab, ipiv, b, ldb, tables);
      return;
    }
  }
  for (Index c = 0; c < nrhs; ++c) {
    T* __restrict x = b + c * ldb;
    if (kl > 0) {
      for (Index j = 0; j + 1 < n; ++j) {
        const Index lm = std::min(kl, n - 1 - j);
        const Index l = ipiv[j];
        if (l != j) std::swap(x[l], x[j]);
        const T xj = x[j];
        const T* __restrict lc = ab + kv + 1 + j * ldab;
        T* __restrict dst = x + j + 1;
        for (Index p = 0; p < lm; ++p) dst[p] -= lc[p] * xj;
      }
    }
    for (Index j = n - 1; j >= 0; --j) {
      const T* __restrict uc = ab + j * ldab;  // uc[kv + i - j] = U(i, j)
      x[j] /= uc[kv];
      const T xj = x[j];
      const Index lm = std::min(kv, j);
      const T* __restrict u = uc + kv - lm;  // u[p] = U(j - lm + p, j)
      T* __restrict dst = x + j - lm;
      for (Index p = 0; p < lm; ++p) dst[p] -= u[p] * xj;
    }
  }
}

}  // namespace detail

/// Banded LU factorisation with partial pivoting, P A = L U (spec "Linear algebra": the
/// DGBTRF/DGBTRS algorithm), for any scalar T (double, long double, duals). Sized once at
/// construction; factor() and solve() then allocate nothing.
///
/// Status: `singular` when a pivot is zero or |u_jj| <= n eps max_i |a_ij| (then a
/// perturbation of column j of A by n eps of its own size makes A exactly singular: the
/// solution would carry no correct digit); `not_finite` when A holds an Inf or NaN. The
/// index is the 0-based column j. solve() on failed factors throws SolveError.
/// For T = double with CABLEDYN_WITH_LAPACK the work is done by DGBTRF/DGBTRS unless the
/// backend says `templated`. The templated double path updates 4-row blocks (factor, kl = 5,
/// 11, 13) and 4-column blocks (solve, 3 <= kl, kl + ku <= 28, with the inverses of the 4 x 4
/// diagonal blocks formed by factor()); see detail::gbtrf, block_tables, gbtrs_by4.
template <class T>
class BandLU {
 public:
  using Index = Eigen::Index;
  using Real = value_type_t<T>;

  BandLU() = default;
  /// Workspaces for n x n matrices with kl sub- and ku super-diagonals.
  BandLU(Index n, Index kl, Index ku, Backend backend = Backend::automatic)
      : n_(n), kl_(kl), ku_(ku), ldab_(2 * kl + ku + 1) {
    detail::check_arg(n >= 0 && kl >= 0 && ku >= 0, "BandLU", "n, kl, ku (smallest)",
                    std::min({n, kl, ku}), ">= 0");
    detail::require_lapack_int(ldab_ * std::max<Index>(n, 1), "BandLU", "ldab n");
    lapack_ = detail::use_lapack<T>(backend, "BandLU");
    // The templated factors keep row i of every column at i mod 4 (ldab - 1 a multiple of 4,
    // at least 2 padding rows) with 16 spare entries at the end: the unrolled update then
    // works on aligned 4-row blocks (detail::gbtrf).
    if (!lapack_) ldab_ = 4 * ((ldab_ + 1 + 3) / 4) + 1;
    lu_.assign(static_cast<std::size_t>(ldab_ * n + (lapack_ ? 0 : 16)), T(0));
    ipiv_.assign(static_cast<std::size_t>(n), 0);
    colmax_.assign(static_cast<std::size_t>(n), Real(0));
    if constexpr (std::is_same_v<T, double>)
      if (!lapack_ && kl >= 3 && kl + ku <= 28) tables_.assign(static_cast<std::size_t>(n / 4 * 32), 0.0);
  }
  /// Workspaces for matrices shaped like A.
  explicit BandLU(const BandMatrix<T>& A, Backend backend = Backend::automatic)
      : BandLU(A.rows(), A.kl(), A.ku(), backend) {}

  Index rows() const noexcept { return n_; }
  Index kl() const noexcept { return kl_; }
  Index ku() const noexcept { return ku_; }
  /// True when the factors come from LAPACK.
  bool uses_lapack() const noexcept { return lapack_; }
  /// Result of the last factor().
  const FactorResult& result() const noexcept { return result_; }
  /// The factors in DGBTRF storage (U in rows 0..kl+ku, L's multipliers below) with leading
  /// dimension ldab().
  const T* factors() const noexcept { return lu_.data(); }
  /// Leading dimension of factors(): 2 kl + ku + 1 for LAPACK; the templated factors pad it
  /// to the next 4 m + 1 with at least two spare rows.
  Index ldab() const noexcept { return ldab_; }
  /// Row swapped with row j at step j (0-based).
  Index pivot(Index j) const noexcept {
    return ipiv_[static_cast<std::size_t>(j)] - (lapack_ ? 1 : 0);
  }

  /// Factorises A (copied; A is left untouched). Throws InputError when A's shape differs
  /// from the one this object was sized for.
  FactorResult factor(const BandMatrix<T>& A) {
    if (A.rows() != n_ || A.kl() != kl_ || A.ku() != ku_)
      throw InputError("BandLU::factor", "matrix shape (n)", A.rows(),
                       "n = " + std::to_string(n_) + ", kl = " + std::to_string(kl_) +
                           ", ku = " + std::to_string(ku_) + " as sized");
    result_ = FactorResult{};
    // Copy the band rows; zero the kl fill rows (an earlier factorisation wrote them) and the
    // padding rows.
    const T* src = A.data();
    const Index lda = A.ldab();
    bool finite = true;
    if constexpr (std::is_floating_point_v<T>) {
      // One pass over A (it comes from L2 at the lines' sizes): the copy, the column maxima
      // and the finiteness test per column.
      T nan_probe = 0;  // sum of 0 * A(i, j): NaN iff an entry is not finite
      for (Index j = 0; j < n_; ++j) {
        T* dst = lu_.data() + j * ldab_;
        const Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>> c(src + j * lda, lda);
        std::fill(dst, dst + kl_, T(0));
        std::copy(src + j * lda + kl_, src + (j + 1) * lda, dst + kl_);
        std::fill(dst + lda, dst + ldab_, T(0));
        colmax_[static_cast<std::size_t>(j)] = c.abs().maxCoeff();
        nan_probe += (c * T(0)).sum();
      }
      finite = std::isfinite(nan_probe);
    } else {
      for (Index j = 0; j < n_; ++j) {
        T* dst = lu_.data() + j * ldab_;
        std::fill(dst, dst + kl_, T(0));
        std::copy(src + j * lda + kl_, src + (j + 1) * lda, dst + kl_);
        std::fill(dst + lda, dst + ldab_, T(0));
      }
      finite = detail::all_finite(src, n_ * lda);
      if (finite) detail::column_max_abs(src, lda, n_, colmax_.data());
    }
    if (!finite) {
      for (Index j = 0; j < n_; ++j)
        for (Index i = std::max<Index>(0, j - ku_); i <= std::min<Index>(n_ - 1, j + kl_); ++i)
          if (!is_finite(A(i, j))) {
            result_ = {FactorStatus::not_finite, j, static_cast<long double>(value_of(A(i, j)))};
            return result_;
          }
    }
    Index info = -1;
#ifdef CABLEDYN_WITH_LAPACK
    if constexpr (std::is_same_v<T, double>) {
      if (lapack_) {
        const int n = static_cast<int>(n_), kl = static_cast<int>(kl_),
                  ku = static_cast<int>(ku_), ldab = static_cast<int>(ldab_);
        int inf = 0;
        if (n > 0) dgbtrf_(&n, &n, &kl, &ku, lu_.data(), &ldab, ipiv_.data(), &inf);
        info = inf > 0 ? inf - 1 : -1;
      }
    }
#endif
    if (!lapack_) info = detail::gbtrf(n_, kl_, ku_, lu_.data(), ldab_, ipiv_.data(), true);
    // Numerically zero pivots (see the class comment).
    const Real tol = static_cast<Real>(n_) * epsilon<T>();
    const Index kv = kl_ + ku_;
    for (Index j = 0; j < n_; ++j) {
      const T& u = lu_[static_cast<std::size_t>(kv + j * ldab_)];
      if (j == info || detail::abs_value(u) <= tol * colmax_[static_cast<std::size_t>(j)]) {
        result_ = {FactorStatus::singular, j, static_cast<long double>(value_of(u))};
        return result_;
      }
    }
    if constexpr (std::is_same_v<T, double>)
      if (!tables_.empty()) detail::block_tables(n_, kl_, ku_, lu_.data(), ldab_, tables_.data());
    result_ = {FactorStatus::ok, -1, 0};
    return result_;
  }

  /// Solves A X = B in place for every column of B (n x nrhs, column-major, contiguous
  /// columns: a VecX, a MatX, a block of whole columns). Throws SolveError on failed
  /// factors and when the solution is not finite (an Inf or NaN right-hand side).
  void solve(Eigen::Ref<MatX<T>> B) const {
    if (!result_.ok()) throw result_.error("BandLU::solve");
    detail::check_arg(B.rows() == n_, "BandLU::solve", "rhs rows", B.rows(), "== n");
    if (n_ == 0 || B.cols() == 0) return;
#ifdef CABLEDYN_WITH_LAPACK
    if constexpr (std::is_same_v<T, double>) {
      if (lapack_) {
        detail::require_lapack_int(B.cols(), "BandLU::solve", "nrhs");
        detail::require_lapack_int(B.outerStride(), "BandLU::solve", "ldb");
        const int n = static_cast<int>(n_), kl = static_cast<int>(kl_),
                  ku = static_cast<int>(ku_), ldab = static_cast<int>(ldab_),
                  nrhs = static_cast<int>(B.cols()), ldb = static_cast<int>(B.outerStride());
        int info = 0;
        const char trans = 'N';
        dgbtrs_(&trans, &n, &kl, &ku, &nrhs, lu_.data(), &ldab, ipiv_.data(), B.data(), &ldb,
                &info, 1);
        check_solution(B);
        return;
      }
    }
#endif
    detail::gbtrs(n_, kl_, ku_, B.cols(), lu_.data(), ldab_, ipiv_.data(), B.data(),
                  B.outerStride(), tables_.empty() ? nullptr : tables_.data());
    check_solution(B);
  }

 private:
  void check_solution(const Eigen::Ref<MatX<T>>& B) const {
    for (Index c = 0; c < B.cols(); ++c)
      for (Index i = 0; i < n_; ++i)
        if (!is_finite(B(i, c)))
          throw SolveError("BandLU::solve", "solution entry " + std::to_string(i),
                           value_of(B(i, c)), "finite (check the right-hand side)");
  }

  Index n_ = 0, kl_ = 0, ku_ = 0, ldab_ = 1;
  bool lapack_ = false;
  std::vector<T> lu_;
  std::vector<int> ipiv_;
  std::vector<Real> colmax_;
  std::vector<T> tables_;  // double, templated, 3 <= kl, kl + ku <= 28: detail::block_tables
  FactorResult result_{};
};

}  // namespace cabledyn
