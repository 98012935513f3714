// cabledyn: natural frequencies and mode shapes of a mooring system about its static
// equilibrium. Spec "Modal analysis", for the whole system: K phi = omega^2 M phi over the
// system's free DOFs (line interiors, free points, free and pinned bodies and rods), K the
// system's static tangent (MooringSystem::static_residual with the tension-only law of the
// single-line modal analysis: a slack EI = 0 element has no stiffness) and M its mass
// (MooringSystem::inertia: the lines' consistent structural and added mass, the points'
// m + Ca rho V, the bodies' rigid and added mass). Damping and drag are left out, and the
// current's drag is a constant load at rest.
//
// As in the single-line analysis (modal/modal_system.hpp), a free DOF without stiffness (a
// row of K zero to round-off: a slack node, a grounded slack chain's node in the seabed plane)
// is held and counted, not reported as a zero-frequency mode. K is the tangent of the static
// residual, symmetric for the conservative loads of the statics; a body's central-difference
// rows and a line's follower loads make it symmetric to round-off only, and its symmetric part
// is used (the asymmetry is reported). The problem is solved dense (Eigen's generalised
// self-adjoint solver), so systems are limited to kMaxDofs free DOFs.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/modal/modal_analysis.hpp"
#include "cabledyn/system/mooring_system.hpp"

namespace cabledyn {

/// The modes of a mooring system.
struct SystemModalResult {
  static constexpr Eigen::Index kMaxDofs = 4000;  ///< the dense solver's limit of free DOFs
  VecX<double> omega2;     ///< omega^2 [rad^2/s^2], ascending
  VecX<double> frequency;  ///< f = omega / (2 pi) [Hz]
  VecX<double> period;     ///< 1 / f [s]
  /// system DOFs x modes, M-orthonormal (held mechanism DOFs zero).
  MatX<double> shapes;
  /// Each line's view of the modes (ModalResult: the system's frequencies, the line's node
  /// positions and arc lengths, its nodes' translations), every mode scaled so that the
  /// largest nodal translation over all lines is 1, its largest component > 0.
  std::vector<ModalResult<double>> lines;
  Eigen::Index mechanism_dofs = 0;  ///< free DOFs without stiffness, held
  double asymmetry = 0;             ///< max |K - K^T| / max |K| of the static tangent

  Eigen::Index n_modes() const { return omega2.size(); }
};

/// The n_modes lowest modes of `sys` about its static state s (solve_statics's). Throws
/// InputError for n_modes outside [1, free DOFs] or a state of another size,
/// NotImplementedError above SystemModalResult::kMaxDofs free DOFs, SolveError when the
/// mass matrix is not positive definite, DomainError when an omega^2 is negative beyond
/// round-off (an unstable equilibrium).
inline SystemModalResult system_modal_analysis(const MooringSystem<double>& sys, const SystemState<double>& s,
                                               Eigen::Index n_modes) {
  using Index = Eigen::Index;
  const std::string obj = sys.name() + " modal analysis";
  const Index n = sys.dofs();
  if (s.q.size() != n) throw InputError(obj, "state size", s.q.size(), "== " + std::to_string(n) + " DOFs");
  if (n > SystemModalResult::kMaxDofs)
    throw NotImplementedError(obj, "free DOFs", n,
                              "<= " + std::to_string(SystemModalResult::kMaxDofs) + " (a dense eigensolver)");
  // K: the static tangent with the tension-only law; M: the mass (inertia's wm = 1 share).
  auto J = sys.make_jacobian();
  VecX<double> R;
  sys.static_residual(s, R, &J, 0.0);
  MatX<double> K = J.to_dense();
  SystemState<double> rest = s;
  rest.v.setZero(n);
  rest.a.setZero(n);
  J.set_zero();
  VecX<double> Ma;
  sys.inertia(rest, Ma, &J, 1.0, 0.0);
  const MatX<double> M = J.to_dense();
  SystemModalResult res;
  const double kmax = K.cwiseAbs().maxCoeff();
  res.asymmetry = kmax > 0 ? (K - K.transpose()).cwiseAbs().maxCoeff() / kmax : 0.0;
  K = (0.5 * (K + K.transpose())).eval();
  // Mechanisms: rows of K zero to round-off are held.
  const double dmax = K.diagonal().cwiseAbs().maxCoeff();
  std::vector<Index> keep;
  for (Index i = 0; i < n; ++i) {
    if (K.row(i).cwiseAbs().maxCoeff() <= 1e-13 * dmax) {
      ++res.mechanism_dofs;
      continue;
    }
    keep.push_back(i);
  }
  const Index m = static_cast<Index>(keep.size());
  if (!(n_modes >= 1 && n_modes <= m))
    throw InputError(obj, "nModes", n_modes, "in [1, " + std::to_string(m) + "] (the free DOFs with stiffness)");
  MatX<double> Kf(m, m), Mf(m, m);
  for (Index a = 0; a < m; ++a)
    for (Index b = 0; b < m; ++b) {
      Kf(a, b) = K(keep[static_cast<std::size_t>(a)], keep[static_cast<std::size_t>(b)]);
      Mf(a, b) = M(keep[static_cast<std::size_t>(a)], keep[static_cast<std::size_t>(b)]);
    }
  Mf = (0.5 * (Mf + Mf.transpose())).eval();
  Eigen::GeneralizedSelfAdjointEigenSolver<MatX<double>> eig(Kf, Mf);
  if (eig.info() != Eigen::Success)
    throw SolveError(obj, "generalised eigenproblem K phi = omega^2 M phi", static_cast<double>(m),
                     "a positive definite mass matrix (every free DOF carries mass)");
  const double top = eig.eigenvalues().cwiseAbs().maxCoeff();
  res.omega2.resize(n_modes);
  res.frequency.resize(n_modes);
  res.period.resize(n_modes);
  res.shapes = MatX<double>::Zero(n, n_modes);
  for (Index j = 0; j < n_modes; ++j) {
    double w2 = eig.eigenvalues()(j);
    if (w2 < 0) {
      if (-w2 > 1e-8 * top + std::numeric_limits<double>::min())
        throw DomainError(obj, "omega^2 of mode " + std::to_string(j + 1) + " [rad^2/s^2]", w2,
                          ">= 0 (negative: the state is not a stable equilibrium)");
      w2 = 0;
    }
    res.omega2(j) = w2;
    res.frequency(j) = std::sqrt(w2) / (2 * kPi);
    res.period(j) = res.frequency(j) > 0 ? 1 / res.frequency(j) : std::numeric_limits<double>::infinity();
    for (Index a = 0; a < m; ++a) res.shapes(keep[static_cast<std::size_t>(a)], j) = eig.eigenvectors()(a, j);
  }
  // The lines' nodal translations of each mode: the linearised map from the system DOFs to
  // the node positions (line_gather: ends on points and bodies included) by central
  // differences of size h along the mode.
  const std::size_t L = sys.n_lines();
  res.lines.resize(L);
  VecX<double> xp, xm, x0;
  SystemState<double> sp = s, sm = s;
  for (std::size_t l = 0; l < L; ++l) {
    const auto& model = sys.line(static_cast<int>(l)).model;
    const auto nn = static_cast<Index>(model.n_nodes());
    ModalResult<double>& r = res.lines[l];
    r.line = model.name();
    r.omega2 = res.omega2;
    r.frequency = res.frequency;
    r.period = res.period;
    r.mechanism_dofs = res.mechanism_dofs;
    r.translations = MatX<double>::Zero(3 * nn, n_modes);
    r.positions.resize(3, nn);
    r.arc_length.resize(nn);
    sys.line_gather(s, static_cast<int>(l), 0, x0);
    double arc = 0;
    for (Index i = 0; i < nn; ++i) {
      if (i > 0) arc += model.L0(static_cast<std::size_t>(i - 1));
      r.arc_length(i) = arc;
      r.positions.col(i) = x0.segment<3>(3 * static_cast<Index>(model.position_slot(static_cast<std::size_t>(i))));
    }
  }
  for (Index j = 0; j < n_modes; ++j) {
    const double big = res.shapes.col(j).cwiseAbs().maxCoeff();
    const double h = big > 0 ? 1e-6 / big : 0;
    sp.q = s.q + h * res.shapes.col(j);
    sm.q = s.q - h * res.shapes.col(j);
    double peak = 0, comp = 0;
    for (std::size_t l = 0; l < L; ++l) {
      const auto& model = sys.line(static_cast<int>(l)).model;
      sys.line_gather(sp, static_cast<int>(l), 0, xp);
      sys.line_gather(sm, static_cast<int>(l), 0, xm);
      for (Index i = 0; i < static_cast<Index>(model.n_nodes()); ++i) {
        const Index at = 3 * static_cast<Index>(model.position_slot(static_cast<std::size_t>(i)));
        const Vec3<double> d = h > 0 ? Vec3<double>((xp.segment<3>(at) - xm.segment<3>(at)) / (2 * h)) : Vec3<double>::Zero();
        res.lines[l].translations.block<3, 1>(3 * i, j) = d;
        if (d.norm() > peak) {
          peak = d.norm();
          Index c = 0;
          d.cwiseAbs().maxCoeff(&c);
          comp = d(c);
        }
      }
    }
    if (peak > 0)
      for (auto& r : res.lines) r.translations.col(j) *= (comp < 0 ? -1.0 : 1.0) / peak;
  }
  return res;
}

}  // namespace cabledyn
