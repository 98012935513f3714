// cabledyn: Eigen aliases for the small fixed-size vectors and matrices of the kernels.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace cabledyn {

/// Column vector of N scalars (N may be Eigen::Dynamic).
template <class T, int N>
using Vec = Eigen::Matrix<T, N, 1>;
/// R x C matrix.
template <class T, int R, int C = R>
using Mat = Eigen::Matrix<T, R, C>;

template <class T>
using Vec2 = Vec<T, 2>;
template <class T>
using Vec3 = Vec<T, 3>;
template <class T>
using Vec6 = Vec<T, 6>;
template <class T>
using Mat3 = Mat<T, 3>;
template <class T>
using Mat6 = Mat<T, 6>;
template <class T>
using VecX = Vec<T, Eigen::Dynamic>;
template <class T>
using MatX = Mat<T, Eigen::Dynamic>;

/// Element vector and matrix of a two-node element whose nodes follow layout L
/// (L::kNodeDofs degrees of freedom per node); see core/dof_layout.hpp.
template <class T, class L>
using ElementVec = Vec<T, 2 * L::kNodeDofs>;
template <class T, class L>
using ElementMat = Mat<T, 2 * L::kNodeDofs>;

/// Skew matrix [v]_x with [v]_x w = v x w.
template <class T>
Mat3<T> skew(const Vec3<T>& v) {
  Mat3<T> S;
  S << T(0), -v(2), v(1), v(2), T(0), -v(0), -v(1), v(0), T(0);
  return S;
}

}  // namespace cabledyn
