// cabledyn: a scaled copy of a band matrix (element blocks go into band storage through
// line/band_sink.hpp).
// Spec "Linear algebra" (band storage; assembly from element blocks without allocation).
#pragma once

#include <cstddef>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/linalg/band_matrix.hpp"

namespace cabledyn::detail {

// S = c M over the band rows of the storage (same layout; the fill rows of both stay zero).
inline void copy_band_scaled(BandMatrix<double>& S, const BandMatrix<double>& M, double c) {
  const Eigen::Index ld = S.ldab(), kl = S.kl(), rows = ld - kl;
  for (Eigen::Index j = 0; j < S.rows(); ++j)
    Eigen::Map<VecX<double>>(S.data() + j * ld + kl, rows) = c * Eigen::Map<const VecX<double>>(M.data() + j * ld + kl, rows);
}


}  // namespace cabledyn::detail
