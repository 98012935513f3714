// cabledyn: dual numbers for the derivative checks.
// Forward-mode duals are Eigen::AutoDiffScalar; nesting a dual inside a dual gives second
// derivatives (ARCHITECTURE.md, "The one idea"). Kernels are written for any T and call
// math functions unqualified after `using std::sqrt;` etc., so a dual finds its overload
// here or in Eigen by argument-dependent lookup.
#pragma once

#include <cmath>

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// First-order dual over scalar S with N derivative directions (Eigen::Dynamic allowed).
template <class S, int N = Eigen::Dynamic>
using Dual = Eigen::AutoDiffScalar<Eigen::Matrix<S, N, 1>>;

/// Second-order (nested) dual: a dual whose value and derivatives are duals.
template <class S, int N = Eigen::Dynamic>
using Dual2 = Eigen::AutoDiffScalar<Eigen::Matrix<Dual<S, N>, N, 1>>;

/// Common first-order duals of double with a fixed number of directions.
using Dual3 = Dual<double, 3>;
using Dual6 = Dual<double, 6>;
using Dual12 = Dual<double, 12>;

/// The seeded independent variable i of n: value v, derivative e_i.
template <class D>
D make_variable(const typename scalar_traits<D>::inner_type& v, int n, int i) {
  return D(v, n, i);
}

}  // namespace cabledyn

// Functions Eigen's AutoDiff module leaves out, added in namespace Eigen so that
// argument-dependent lookup finds them for any AutoDiffScalar (nested ones included).
namespace Eigen {

template <typename DerType>
inline auto asinh(const AutoDiffScalar<DerType>& x) {
  using std::asinh;
  using std::sqrt;
  using Scalar = typename internal::traits<typename internal::remove_all<DerType>::type>::Scalar;
  const Scalar v = x.value();
  return MakeAutoDiffScalar(asinh(v), x.derivatives() * (Scalar(1) / sqrt(Scalar(1) + v * v)));
}

template <typename DerType>
inline auto acosh(const AutoDiffScalar<DerType>& x) {
  using std::acosh;
  using std::sqrt;
  using Scalar = typename internal::traits<typename internal::remove_all<DerType>::type>::Scalar;
  const Scalar v = x.value();
  return MakeAutoDiffScalar(acosh(v),
                            x.derivatives() * (Scalar(1) / sqrt((v - Scalar(1)) * (v + Scalar(1)))));
}

template <typename DerType>
inline auto atanh(const AutoDiffScalar<DerType>& x) {
  using std::atanh;
  using Scalar = typename internal::traits<typename internal::remove_all<DerType>::type>::Scalar;
  const Scalar v = x.value();
  return MakeAutoDiffScalar(atanh(v), x.derivatives() * (Scalar(1) / (Scalar(1) - v * v)));
}

template <typename DerType>
inline auto log1p(const AutoDiffScalar<DerType>& x) {
  using std::log1p;
  using Scalar = typename internal::traits<typename internal::remove_all<DerType>::type>::Scalar;
  const Scalar v = x.value();
  return MakeAutoDiffScalar(log1p(v), x.derivatives() * (Scalar(1) / (Scalar(1) + v)));
}

template <typename DerType>
inline auto expm1(const AutoDiffScalar<DerType>& x) {
  using std::exp;
  using std::expm1;
  using Scalar = typename internal::traits<typename internal::remove_all<DerType>::type>::Scalar;
  const Scalar v = x.value();
  return MakeAutoDiffScalar(expm1(v), x.derivatives() * exp(v));
}

template <typename DerType>
inline auto cbrt(const AutoDiffScalar<DerType>& x) {
  using std::cbrt;
  using Scalar = typename internal::traits<typename internal::remove_all<DerType>::type>::Scalar;
  const Scalar c = cbrt(Scalar(x.value()));
  return MakeAutoDiffScalar(c, x.derivatives() * (Scalar(1) / (Scalar(3) * c * c)));
}

template <typename DerType>
inline auto atan(const AutoDiffScalar<DerType>& x) {
  using std::atan;
  using Scalar = typename internal::traits<typename internal::remove_all<DerType>::type>::Scalar;
  const Scalar v = x.value();
  return MakeAutoDiffScalar(atan(v), x.derivatives() * (Scalar(1) / (Scalar(1) + v * v)));
}

}  // namespace Eigen
