// cabledyn: the result of a band factorisation.
// Spec "Linear algebra": a factorisation that fails reports how, as a value the caller tests
// (the static solver shifts and retries on "not positive definite"), never as a NaN.
#pragma once

#include <string>

#include <Eigen/Core>

#include "cabledyn/core/errors.hpp"

namespace cabledyn {

/// How a band factorisation ended.
enum class FactorStatus {
  ok,                     ///< factors usable
  not_factored,           ///< no factor() call yet
  singular,               ///< LU: a pivot is zero or numerically zero (see BandLU)
  not_positive_definite,  ///< Cholesky: a pivot a_jj - sum l_jk^2 is <= 0
  zero_pivot,             ///< LDL^T without pivoting: a pivot d_j is exactly zero
  not_finite,             ///< an entry of the matrix, or a pivot, is Inf or NaN
};

/// Name of a status, e.g. "not positive definite".
inline const char* to_string(FactorStatus s) {
  switch (s) {
    case FactorStatus::ok: return "ok";
    case FactorStatus::not_factored: return "not factored";
    case FactorStatus::singular: return "singular";
    case FactorStatus::not_positive_definite: return "not positive definite";
    case FactorStatus::zero_pivot: return "zero pivot";
    case FactorStatus::not_finite: return "not finite";
  }
  return "unknown";
}

/// Outcome of `factor(...)`: the status, the 0-based index of the failing pivot (row and
/// column j; -1 when ok) and that pivot's value (or the offending entry for not_finite).
struct FactorResult {
  FactorStatus status = FactorStatus::not_factored;
  Eigen::Index index = -1;
  long double value = 0;

  /// True when the factors are usable.
  bool ok() const noexcept { return status == FactorStatus::ok; }
  explicit operator bool() const noexcept { return ok(); }

  /// The SolveError a caller throws when it cannot go on, naming `object` and the pivot.
  SolveError error(const std::string& object) const {
    const std::string quantity =
        std::string(to_string(status)) + ": pivot " + std::to_string(index);
    const char* limit = status == FactorStatus::not_positive_definite ? "> 0"
                        : status == FactorStatus::not_factored      ? "factor() first"
                        : status == FactorStatus::not_finite        ? "finite"
                                                                    : "nonzero";
    return SolveError(object, quantity, value, limit);
  }
};

}  // namespace cabledyn
