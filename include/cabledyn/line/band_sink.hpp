// cabledyn: sinks of a line load model's slot blocks into band storage.
// Spec "Linear algebra" (band storage; assembly from element blocks without allocation).
// A LineModel (line/line_model.hpp) gives its tangents as 3 x 3 blocks of slots (slot k: the
// values 3k..3k+2 of its node vector); a single line's DOFs are that node vector, so slot
// block (i, j) is the band block at rows 3i.., columns 3j...
#pragma once

#include <cstddef>
#include <type_traits>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/pack.hpp"
#include "cabledyn/elements/hermite_shape.hpp"
#include "cabledyn/linalg/band_matrix.hpp"

namespace cabledyn::detail {

template <class B>
struct is_symmetric_band : std::false_type {};
template <class S>
struct is_symmetric_band<SymmetricBandMatrix<S>> : std::true_type {};

/// Slot blocks into a line's band matrix, every entry checked against the band (BandMatrix:
/// every entry; SymmetricBandMatrix: the entries it stores, row >= column). The statics and
/// the modal analysis use it.
template <class Band>
struct BandSlotSink {
  Band* K;
  template <class M3>
  void add(std::size_t i, std::size_t j, const M3& B) {
    const auto r0 = static_cast<Eigen::Index>(3 * i), c0 = static_cast<Eigen::Index>(3 * j);
    if constexpr (is_symmetric_band<Band>::value) {
      if (i < j) return;
      for (Eigen::Index b = 0; b < 3; ++b)
        for (Eigen::Index a = 0; a < 3; ++a)
          if (r0 + a >= c0 + b) K->at(r0 + a, c0 + b) += B(a, b);
    } else {
      for (Eigen::Index b = 0; b < 3; ++b)
        for (Eigen::Index a = 0; a < 3; ++a) K->at(r0 + a, c0 + b) += B(a, b);
    }
  }
};

/// The march's sink: slot blocks written straight into the columns of a BandMatrix<double>
/// (an element's blocks lie in the line's band by construction: no check, no allocation), and
/// a Hermite element's component-major blocks (HermiteBlockSum, lane `ln` of a pack) without
/// forming its 12 x 12 matrix.
struct BandMarchSink {
  BandMatrix<double>* S;
  void add(std::size_t i, std::size_t j, const Mat3<double>& B) {
    const auto r0 = static_cast<Eigen::Index>(3 * i), c0 = static_cast<Eigen::Index>(3 * j);
    double* data = S->data();
    for (Eigen::Index b = 0; b < 3; ++b) {
      double* col = data + S->offset(r0, c0 + b);  // col[a] = S(r0 + a, c0 + b)
      for (Eigen::Index a = 0; a < 3; ++a) col[a] += B(a, b);
    }
  }
  // An element's whole block (its slots first_slot.. contiguous): S(i0 + i, i0 + j) += B(i, j),
  // i0 = 3 first_slot.
  template <class M>
  void add_element_block(std::size_t first_slot, const M& B) {
    const auto i0 = static_cast<Eigen::Index>(3 * first_slot);
    double* data = S->data();
    for (Eigen::Index j = 0; j < B.cols(); ++j) {
      double* col = data + S->offset(i0, i0 + j);  // col[i] = S(i0 + i, i0 + j)
      for (Eigen::Index i = 0; i < B.rows(); ++i) col[i] += B(i, j);
    }
  }
  // S(i0 + 3k + i, i0 + 3l + j) += R(k + 4l, i + 3j), i0 = 3 first_slot.
  template <class P>
  void add_hermite_blocks(std::size_t first_slot, HermiteBlockSum<P>& blocks, int ln) {
    const auto i0 = static_cast<Eigen::Index>(3 * first_slot);
    const auto& R = blocks.matrix();
    double* data = S->data();
    for (int l = 0; l < 4; ++l)
      for (int j = 0; j < 3; ++j) {
        double* col = data + S->offset(i0, i0 + 3 * l + j);  // col[i] = S(i0 + i, i0 + 3l + j)
        for (int k = 0; k < 4; ++k)
          for (int i = 0; i < 3; ++i) col[3 * k + i] += lane(R(k + 4 * l, i + 3 * j), ln);
      }
  }
};

}  // namespace cabledyn::detail
