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

}  // namespace cabledyn::detail
