// cabledyn: degree-of-freedom layouts of a node.
// Spec "Kinematics and discretisation": an EI = 0 node carries its position [r] (3 DOFs); a
// cubic-Hermite node its position and material tangent [r, m] (6 DOFs); with the nodal twist
// of the dynamics (spec "Condensed torsion" / torsion in the march) [r, m, phi] (7 DOFs).
// Lines are chains of two-node elements, so a line's matrices are banded with half-bandwidth
// 2 * kNodeDofs - 1: derived here, never hard-coded in a solver.
#pragma once

#include <concepts>
#include <cstddef>

namespace cabledyn {

/// Common arithmetic of a layout with `NodeDofs` DOFs per node.
template <int NodeDofs>
struct DofLayoutBase {
  /// DOFs per node.
  static constexpr int kNodeDofs = NodeDofs;
  /// DOFs of a two-node element.
  static constexpr int kElementDofs = 2 * NodeDofs;
  /// Offset of the position block inside a node.
  static constexpr int kR = 0;

  /// Global index of local DOF `local` of node `node` (nodes numbered from End A).
  static constexpr std::size_t index(std::size_t node, int local) {
    return node * static_cast<std::size_t>(NodeDofs) + static_cast<std::size_t>(local);
  }
  /// Global index of local DOF `i` of element `e` (0 <= i < kElementDofs); element e joins
  /// nodes e and e + 1.
  static constexpr std::size_t element_index(std::size_t e, int i) {
    return e * static_cast<std::size_t>(NodeDofs) + static_cast<std::size_t>(i);
  }
  /// Number of DOFs of a line of `nodes` nodes.
  static constexpr std::size_t line_dofs(std::size_t nodes) {
    return nodes * static_cast<std::size_t>(NodeDofs);
  }
  /// Lower (= upper) half-bandwidth of the matrix of a line: an element couples DOFs at
  /// most 2 * kNodeDofs - 1 apart.
  static constexpr int half_bandwidth() { return 2 * NodeDofs - 1; }
};

/// [r]: position only, 3 DOFs per node (EI = 0 tension element).
struct LayoutR : DofLayoutBase<3> {
  static constexpr bool kHasTangent = false;
  static constexpr bool kHasTwist = false;
  static constexpr const char* kName = "[r]";
};

/// [r, m]: position and material tangent m = r', 6 DOFs per node (cubic-Hermite element).
struct LayoutRM : DofLayoutBase<6> {
  static constexpr bool kHasTangent = true;
  static constexpr bool kHasTwist = false;
  /// Offset of the tangent block inside a node.
  static constexpr int kM = 3;
  static constexpr const char* kName = "[r, m]";
};

/// [r, m, phi]: position, tangent and nodal twist, 7 DOFs per node.
struct LayoutRMPhi : DofLayoutBase<7> {
  static constexpr bool kHasTangent = true;
  static constexpr bool kHasTwist = true;
  static constexpr int kM = 3;
  /// Offset of the twist DOF inside a node.
  static constexpr int kPhi = 6;
  static constexpr const char* kName = "[r, m, phi]";
};

/// Concept satisfied by the layouts above (and any user layout of the same shape).
template <class L>
concept DofLayout = requires {
  { L::kNodeDofs } -> std::convertible_to<int>;
  { L::kElementDofs } -> std::convertible_to<int>;
  { L::kR } -> std::convertible_to<int>;
  { L::kHasTangent } -> std::convertible_to<bool>;
  { L::kHasTwist } -> std::convertible_to<bool>;
  { L::half_bandwidth() } -> std::convertible_to<int>;
};

static_assert(DofLayout<LayoutR> && DofLayout<LayoutRM> && DofLayout<LayoutRMPhi>);

}  // namespace cabledyn
