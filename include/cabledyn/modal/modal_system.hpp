// cabledyn: the stiffness and mass of a line's modal analysis, on its free DOFs.
// Spec "Modal analysis": about the static equilibrium, over the free degrees of freedom with
// both ends held; K is the static tangent stiffness (EI = 0: the element stiffness
// k = (EA/l0) e e^T + (T/l)(I - e e^T), zero on a slack tension-only element; Hermite: the
// Hessian of the strain energy, an end spring's Hessian, a Rigid end keeping only the
// magnitude of its tangent) plus the linearised seabed normal contact; M is the consistent
// structural mass plus the Morison added mass at the static shape. Friction, damping and
// drag are left out.
//
// The tangent and the mass come from the line module (line_static_residual without a
// current, tension-only law with compression_ratio 0; line_mass), are put in solver
// coordinates (a Rigid end's tangent block in its basis (d0, b1, b2)), and the held rows and
// columns are removed: nodes are numbered along the line, so the free DOFs keep the band.
//
// Mechanisms. A node whose elements are all slack (tension-only, T = 0) has no stiffness in
// the directions its seabed contact does not reach: a chain lying slack on a frictionless
// seabed is free in the seabed plane, a slack span in the water free in all three. Each such
// DOF (a row of K that is zero to round-off, |K_ij| <= 1e-13 max_i |K_ii| for every j) is a
// zero-frequency mode on its own, and many of them (one pair per grounded slack node) would
// bury the structural modes under a degenerate zero cluster. They are held instead, as the
// seabed's friction holds them in reality, and counted (ModalSystem::mechanism_dofs): with
// a lumped mass holding them is exact for the modes above zero ((M phi)_i = 0 forces
// phi_i = 0); with the consistent mass it is the stick limit of friction.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/line/line_constraints.hpp"
#include "cabledyn/line/line_mass.hpp"
#include "cabledyn/line/line_statics_model.hpp"
#include "cabledyn/linalg/band_matrix.hpp"
#include "cabledyn/statics/static_common.hpp"

namespace cabledyn {

/// K and M of a line on its free DOFs (reduced numbering), and the map back to the line's
/// DOFs.
template <class T>
struct ModalSystem {
  SymmetricBandMatrix<T> K;            ///< static tangent stiffness [N/m, N, N m]
  SymmetricBandMatrix<T> M;            ///< consistent structural + added mass [kg, kg m, kg m^2]
  std::vector<Eigen::Index> free_dofs; ///< reduced index -> line DOF (solver coordinates)
  /// Line DOFs that are free but carry no stiffness (mechanisms: slack grounded or slack
  /// suspended nodes), held in K and M; each is a zero-frequency mode left out.
  std::vector<Eigen::Index> mechanism_dofs;
  Eigen::Index line_dofs = 0;          ///< number of DOFs of the line

  /// A reduced vector (a mode shape) as a vector of every line DOF in global coordinates:
  /// held DOFs zero, a Rigid end's tangent component rotated back from its basis.
  template <class C>
  VecX<T> expand(const LineConstraints& cons, const Eigen::MatrixBase<C>& v) const {
    VecX<T> full = VecX<T>::Zero(line_dofs);
    for (std::size_t a = 0; a < free_dofs.size(); ++a) full(free_dofs[a]) = v(static_cast<Eigen::Index>(a));
    cons.expand(full);
    return full;
  }
};

/// The static load case of the modal tangent: the seabed and still-water level of `prob`,
/// full load, the tension-only EI = 0 law (slack elements carry nothing), no current (drag
/// is left out of an undamped modal analysis).
inline StaticLoadCase modal_load_case(const StaticProblem& prob) {
  StaticLoadCase lc;
  lc.seabed_z = prob.seabed_z;
  lc.seabed = prob.seabed;
  lc.load_factor = 1;
  lc.compression_ratio = 0;
  lc.current = nullptr;
  lc.hermite_wetting = true;
  lc.surface_z = prob.surface_z;
  return lc;
}

/// Assembles K and M of `line` at the static state q (every DOF of the line, e.g.
/// StaticResult::q) on the free DOFs, in scalar T (double or long double). `added_mass`
/// includes the Morison added mass of the wetted part. Throws InputError for a state of the
/// wrong size or with a non-finite entry.
template <class T = double>
ModalSystem<T> modal_system(const Line& line, const StaticProblem& prob, const VecX<double>& q,
                            bool added_mass = true) {
  using Index = Eigen::Index;
  const Index n = static_cast<Index>(line.dofs());
  if (q.size() != n) throw InputError(line.name() + " modal analysis", "state size", q.size(), "== " + std::to_string(n));
  for (Index i = 0; i < n; ++i)
    if (!std::isfinite(q(i)))
      throw InputError(line.name() + " modal analysis", "state entry " + std::to_string(i), q(i), "finite");
  prob.seabed.validate(line.name() + " seabed");
  const Index kd = line.half_bandwidth();
  const VecX<T> qT = q.cast<T>();
  SymmetricBandMatrix<T> Kf(n, kd), Mf(n, kd);
  VecX<T> R;
  const StaticLoadCase lc = modal_load_case(prob);
  line_static_residual<T, SymmetricBandMatrix<T>>(line, lc, qT, R, &Kf);
  line_mass<T>(line, qT, Mf, added_mass, prob.surface_z);
  const LineConstraints cons(line);
  cons.reduce_matrix(Kf);
  cons.reduce_matrix(Mf);
  ModalSystem<T> sys;
  sys.line_dofs = n;
  // Mechanisms: free DOFs whose row of K is zero to round-off (see the header comment).
  using std::abs;
  T kmax = 0;
  for (Index i = 0; i < n; ++i)
    if (!cons.held(i)) kmax = std::max(kmax, T(abs(Kf(i, i))));
  const T kzero = T(1e-13) * kmax;
  for (Index i = 0; i < n; ++i) {
    if (cons.held(i)) continue;
    bool zero_row = kmax > 0;
    for (Index j = std::max(Index(0), i - kd); zero_row && j <= std::min(n - 1, i + kd); ++j)
      if (!cons.held(j) && abs(Kf(i, j)) > kzero) zero_row = false;
    (zero_row ? sys.mechanism_dofs : sys.free_dofs).push_back(i);
  }
  if (sys.free_dofs.empty())
    throw DomainError(line.name() + " modal analysis", "free DOFs with stiffness", 0,
                      "> 0 (every free DOF is a mechanism: the line is slack throughout)");
  const Index m = static_cast<Index>(sys.free_dofs.size());
  sys.K = SymmetricBandMatrix<T>(m, kd);
  sys.M = SymmetricBandMatrix<T>(m, kd);
  for (Index b = 0; b < m; ++b)
    for (Index a = b; a <= std::min(m - 1, b + kd); ++a) {
      const Index i = sys.free_dofs[static_cast<std::size_t>(a)], j = sys.free_dofs[static_cast<std::size_t>(b)];
      if (i - j > kd) continue;  // outside the line's band (held DOFs in between)
      sys.K.at(a, b) = Kf(i, j);
      sys.M.at(a, b) = Mf(i, j);
    }
  return sys;
}

}  // namespace cabledyn
