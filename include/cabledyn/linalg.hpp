// cabledyn module header: linalg (band storage in LAPACK layout with assembly and in-band
// Dirichlet rows, banded LU, Cholesky and LDL^T with inertia, the Sherman-Morrison
// bordered solve, the optional LAPACK backend for double).
#pragma once

#include "cabledyn/linalg/factor_result.hpp"
#include "cabledyn/linalg/lapack.hpp"
#include "cabledyn/linalg/band_matrix.hpp"
#include "cabledyn/linalg/band_lu.hpp"
#include "cabledyn/linalg/band_cholesky.hpp"
#include "cabledyn/linalg/band_ldlt.hpp"
#include "cabledyn/linalg/bordered_solve.hpp"
#include "cabledyn/linalg/band_eigen.hpp"
