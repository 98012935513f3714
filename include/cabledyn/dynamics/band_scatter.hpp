// cabledyn: element blocks into LAPACK band storage, and a scaled copy of a band matrix.
// Spec "Linear algebra" (band storage; assembly from element blocks without allocation).
#pragma once

#include <cstddef>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/pack.hpp"
#include "cabledyn/linalg/band_matrix.hpp"

namespace cabledyn::detail {

// Element block into band storage (indices are within the band by construction: an
// element spans 2 node blocks, exactly the half-bandwidth).
// (B of a pack: its lane `ln`.)
template <int N, class T>
void add_band_block(BandMatrix<double>& S, std::size_t first, int, const Mat<T, N>& B, int ln = 0) {
  const auto i0 = static_cast<Eigen::Index>(first);
  double* data = S.data();
  for (int j = 0; j < N; ++j) {
    double* col = data + S.offset(i0, i0 + j);  // col[i] = S(i0 + i, i0 + j)
    for (int i = 0; i < N; ++i) col[i] += lane(B(i, j), ln);
  }
}

// S = c M over the band rows of the storage (same layout; the fill rows of both stay zero).
inline void copy_band_scaled(BandMatrix<double>& S, const BandMatrix<double>& M, double c) {
  const Eigen::Index ld = S.ldab(), kl = S.kl(), rows = ld - kl;
  for (Eigen::Index j = 0; j < S.rows(); ++j)
    Eigen::Map<VecX<double>>(S.data() + j * ld + kl, rows) = c * Eigen::Map<const VecX<double>>(M.data() + j * ld + kl, rows);
}


}  // namespace cabledyn::detail
