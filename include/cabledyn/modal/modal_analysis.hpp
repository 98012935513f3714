// cabledyn: natural frequencies and mode shapes of a line about its static equilibrium.
// Spec "Modal analysis": K phi = omega^2 M phi over the free DOFs (both ends held), the
// nModes lowest modes by the banded eigensolver (linalg/band_eigen.hpp); frequencies
// f = omega / 2 pi [Hz], periods 1/f [s] and the nodal translations of each mode scaled to a
// unit largest nodal displacement (written to <root>.modes.out by modal/modes_output.hpp).
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/line/line_constraints.hpp"
#include "cabledyn/linalg/band_eigen.hpp"
#include "cabledyn/modal/modal_system.hpp"
#include "cabledyn/statics/static_common.hpp"

namespace cabledyn {

/// Options of a modal analysis.
struct ModalOptions {
  Eigen::Index n_modes = 10;  ///< nModes: how many of the lowest modes
  bool added_mass = true;     ///< include the Morison added mass of the wetted part in M
  BandEigenOptions eigen;     ///< eigensolver options (backend, tolerances, checks)
};

/// The modes of one line.
template <class T = double>
struct ModalResult {
  std::string line;          ///< line name
  VecX<T> omega2;            ///< omega^2 [rad^2/s^2], ascending
  VecX<T> frequency;         ///< f = omega / (2 pi) [Hz] (0 for an omega^2 that is zero to round-off)
  VecX<T> period;            ///< 1 / f [s] (+inf for f = 0)
  /// line DOFs x nModes: each mode over every DOF of the line (held DOFs zero, global
  /// coordinates), M-orthonormal on the free DOFs.
  MatX<T> shapes;
  /// 3 nodes x nModes: nodal translations (x, y, z of node 0, node 1, ...) of each mode,
  /// scaled so that the largest nodal displacement |dr_i| is 1, its largest component > 0.
  MatX<T> translations;
  MatX<double> positions;    ///< 3 x nodes: node positions of the static state [m]
  VecX<double> arc_length;   ///< unstretched arc length of each node from End A [m]
  BandEigenResult<T> eigen;  ///< the eigensolver's result on the free DOFs (diagnostics)
  /// Free DOFs without stiffness (slack nodes: ModalSystem::mechanism_dofs), held; as many
  /// zero-frequency modes are left out of the result.
  Eigen::Index mechanism_dofs = 0;

  Eigen::Index n_modes() const { return omega2.size(); }
  Eigen::Index n_nodes() const { return positions.cols(); }
  /// Scaled translation of node `node` in mode `mode` (0-based).
  Vec3<T> translation(Eigen::Index mode, Eigen::Index node) const {
    return translations.template block<3, 1>(3 * node, mode);
  }
};

/// The nModes lowest modes of `line` about the static state q (every DOF of the line, e.g.
/// StaticResult::q) with the seabed and water level of `prob`, in scalar T (double or long
/// double). Throws InputError for bad input (state size, nModes outside [1, free DOFs]),
/// DomainError when an omega^2 is negative beyond round-off (an unstable equilibrium) and
/// SolveError when the eigensolver fails.
template <class T = double>
ModalResult<T> modal_analysis(const Line& line, const StaticProblem& prob, const VecX<double>& q,
                              const ModalOptions& opt = {}) {
  using Index = Eigen::Index;
  using std::sqrt;
  const std::string obj = line.name() + " modal analysis";
  const ModalSystem<T> sys = modal_system<T>(line, prob, q, opt.added_mass);
  const Index m = sys.K.rows();
  if (!(opt.n_modes >= 1 && opt.n_modes <= m))
    throw InputError(obj, "nModes", opt.n_modes, "in [1, " + std::to_string(m) + "] (the free DOFs)");
  ModalResult<T> res;
  res.line = line.name();
  res.mechanism_dofs = static_cast<Index>(sys.mechanism_dofs.size());
  res.eigen = band_generalized_eigen<T>(sys.K, sys.M, opt.n_modes, opt.eigen);
  const Index k = opt.n_modes;
  res.omega2 = res.eigen.eigenvalues;
  res.frequency.resize(k);
  res.period.resize(k);
  const T top = res.omega2.cwiseAbs().maxCoeff();
  for (Index j = 0; j < k; ++j) {
    T w2 = res.omega2(j);
    if (w2 < 0) {
      // Zero to round-off (a mechanism, a slack element), or an unstable equilibrium.
      if (-w2 > T(1e-8) * top + std::numeric_limits<T>::min())
        throw DomainError(obj, "omega^2 of mode " + std::to_string(j + 1) + " [rad^2/s^2]", w2,
                          ">= 0 (negative: the state is not a stable equilibrium)");
      w2 = 0;
    }
    res.frequency(j) = sqrt(w2) / T(2 * kPiLD);
    res.period(j) = res.frequency(j) > 0 ? T(1) / res.frequency(j) : std::numeric_limits<T>::infinity();
  }
  // Shapes on every DOF, nodal translations scaled to a unit largest nodal displacement.
  const LineConstraints cons(line);
  const Index nodes = static_cast<Index>(line.n_nodes());
  res.shapes.resize(sys.line_dofs, k);
  res.translations.resize(3 * nodes, k);
  for (Index j = 0; j < k; ++j) {
    res.shapes.col(j) = sys.expand(cons, res.eigen.vectors.col(j));
    T big = 0, comp = 0;
    for (Index i = 0; i < nodes; ++i) {
      const Vec3<T> d = res.shapes.template block<3, 1>(static_cast<Index>(line.dof(static_cast<std::size_t>(i), 0)), j);
      res.translations.template block<3, 1>(3 * i, j) = d;
      const T nd = sqrt(d.squaredNorm());
      if (nd > big) {
        big = nd;
        Index c = 0;
        d.cwiseAbs().maxCoeff(&c);
        comp = d(c);
      }
    }
    if (big > 0) res.translations.col(j) *= (comp < 0 ? T(-1) : T(1)) / big;
  }
  res.positions.resize(3, nodes);
  res.arc_length.resize(nodes);
  for (Index i = 0; i < nodes; ++i) {
    res.positions.col(i) = line.r(q, static_cast<std::size_t>(i));
    res.arc_length(i) = line.s_node(static_cast<std::size_t>(i));
  }
  return res;
}

/// The modes about a converged static result.
template <class T = double>
ModalResult<T> modal_analysis(const Line& line, const StaticProblem& prob, const StaticResult& st,
                              const ModalOptions& opt = {}) {
  return modal_analysis<T>(line, prob, st.q, opt);
}

}  // namespace cabledyn
