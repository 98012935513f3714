// cabledyn: the optional LAPACK backend of the band factorisations.
// Spec "Linear algebra": band operators are factorised in LAPACK band form (DGBTRF/DGBTRS,
// DPBTRF/DPBTRS). The templated code in band_lu.hpp / band_cholesky.hpp is always present
// and is the only path for long double and duals; with CABLEDYN_WITH_LAPACK defined (CMake
// defines it when LAPACK is found) `double` factorisations dispatch to the Fortran
// routines declared here.
#pragma once

#include <climits>
#include <cstddef>
#include <type_traits>

#include <Eigen/Core>

#include "cabledyn/core/errors.hpp"

#ifdef CABLEDYN_WITH_LAPACK
// Fortran LAPACK (gfortran ABI: every argument by address, hidden CHARACTER lengths last).
// The prototypes match those of LAPACK's own lapack.h, so both may be included together.
extern "C" {
void dgbtrf_(const int* m, const int* n, const int* kl, const int* ku, double* ab,
             const int* ldab, int* ipiv, int* info);
void dgbtrs_(const char* trans, const int* n, const int* kl, const int* ku, const int* nrhs,
             const double* ab, const int* ldab, const int* ipiv, double* b, const int* ldb,
             int* info, std::size_t trans_len);
void dpbtrf_(const char* uplo, const int* n, const int* kd, double* ab, const int* ldab,
             int* info, std::size_t uplo_len);
void dpbtrs_(const char* uplo, const int* n, const int* kd, const int* nrhs, const double* ab,
             const int* ldab, double* b, const int* ldb, int* info, std::size_t uplo_len);
}
#endif

namespace cabledyn {

/// True when this build carries the LAPACK backend.
#ifdef CABLEDYN_WITH_LAPACK
inline constexpr bool kLapackAvailable = true;
#else
inline constexpr bool kLapackAvailable = false;
#endif

/// Which code factorises: `automatic` takes LAPACK for `double` when available and the
/// templated code otherwise; `templated` forces the templated code; `lapack` demands LAPACK
/// (InputError when T is not double or the build has no LAPACK).
enum class Backend { automatic, templated, lapack };

namespace detail {

/// True when a factorisation of scalar T asked for `requested` runs in LAPACK; throws
/// InputError naming `object` when LAPACK is demanded but cannot serve.
template <class T>
bool use_lapack(Backend requested, const char* object) {
  constexpr bool can = kLapackAvailable && std::is_same_v<T, double>;
  if (requested == Backend::lapack && !can)
    throw InputError(object, "backend", kLapackAvailable ? "lapack (scalar not double)"
                                                         : "lapack (not in this build)",
                     "templated or automatic");
  return can && requested != Backend::templated;
}

/// Throws InputError unless the LAPACK integer arguments fit in an int.
inline void require_lapack_int(Eigen::Index v, const char* object, const char* quantity) {
  if (v > INT_MAX) throw InputError(object, quantity, v, "<= INT_MAX");
}

}  // namespace detail
}  // namespace cabledyn

#ifdef CABLEDYN_WITH_LAPACK
// The banded generalised symmetric-definite eigenproblem (spec "Modal analysis": LAPACK
// dsbgvx gives the eigenvalues), gfortran ABI as above; the prototype matches lapack.h.
extern "C" {
void dsbgvx_(const char* jobz, const char* range, const char* uplo, const int* n, const int* ka,
             const int* kb, double* ab, const int* ldab, double* bb, const int* ldbb, double* q,
             const int* ldq, const double* vl, const double* vu, const int* il, const int* iu,
             const double* abstol, int* m, double* w, double* z, const int* ldz, double* work,
             int* iwork, int* ifail, int* info, std::size_t jobz_len, std::size_t range_len,
             std::size_t uplo_len);
}
#endif
