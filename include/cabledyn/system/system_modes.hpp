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
// is used (the asymmetry is reported). A system whose free DOFs are all lines' (lines between
// fixed, coupled and held points: no free point, body or rod) has block-diagonal K and M, one
// band per line: each line's band is solved by the banded generalised eigensolver of the
// single-line analysis (linalg/band_eigen.hpp) and the lowest modes of all lines are merged,
// so a long cable's thousands of DOFs are no limit. A system with object DOFs is solved dense
// (Eigen's generalised self-adjoint solver), limited to kMaxDofs free DOFs.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/linalg/band_eigen.hpp"
#include "cabledyn/linalg/band_matrix.hpp"
#include "cabledyn/modal/modal_analysis.hpp"
#include "cabledyn/system/bordered_jacobian.hpp"
#include "cabledyn/system/mooring_system.hpp"

namespace cabledyn {

/// The modes of a mooring system.
struct SystemModalResult {
  /// The dense solver's limit of free DOFs (a system with object DOFs).
  static constexpr Eigen::Index kMaxDofs = 4000;
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
  bool banded = false;              ///< solved line by line in band storage (no object DOFs)

  Eigen::Index n_modes() const { return omega2.size(); }
};

namespace detail {

// omega^2 of mode j (0-based; named 1-based) checked: negative beyond round-off of the
// largest |omega^2| computed is an unstable equilibrium (DomainError), within it zero.
inline double checked_omega2(double w2, double top, Eigen::Index j, const std::string& obj) {
  if (w2 < 0) {
    if (-w2 > 1e-8 * top + std::numeric_limits<double>::min())
      throw DomainError(obj, "omega^2 of mode " + std::to_string(j + 1) + " [rad^2/s^2]", w2,
                        ">= 0 (negative: the state is not a stable equilibrium)");
    w2 = 0;
  }
  return w2;
}

// The banded path: K and M block diagonal, one band per line (no object DOFs). Each band's
// mechanism rows (zero to round-off against the largest diagonal of all lines, as on the
// dense path) are held; the symmetric part of the rest goes into band storage of the line's
// half-bandwidth (removing rows and columns keeps the band) and its lowest min(n_modes, free)
// modes are solved by the banded eigensolver; the lowest n_modes of all lines are kept,
// ascending (ties in line order).
inline void banded_system_modes(const BorderedJacobian<double>& JK, const BorderedJacobian<double>& JM,
                                Eigen::Index n_modes, const std::string& obj, SystemModalResult& res) {
  using Index = Eigen::Index;
  const std::size_t nb = JK.n_blocks();
  double dmax = 0, kmax = 0, asym = 0;
  for (std::size_t b = 0; b < nb; ++b) {
    const auto& K = JK.block(b);
    const Index nbk = JK.block_size(b), kd = std::max(K.kl(), K.ku());
    for (Index i = 0; i < nbk; ++i) {
      dmax = std::max(dmax, std::fabs(K(i, i)));
      for (Index j = std::max<Index>(0, i - kd); j <= std::min(nbk - 1, i + kd); ++j) {
        kmax = std::max(kmax, std::fabs(K(i, j)));
        asym = std::max(asym, std::fabs(K(i, j) - K(j, i)));
      }
    }
  }
  res.asymmetry = kmax > 0 ? asym / kmax : 0.0;
  struct Mode {
    double w2;
    std::size_t block;
    Index k;
  };
  std::vector<Mode> modes;
  std::vector<std::vector<Index>> keep(nb);
  std::vector<BandEigenResult<double>> eig(nb);
  Index free_total = 0;
  double spectrum = 0;  // max K_ii / M_ii over the kept DOFs: the scale of the whole spectrum
  for (std::size_t b = 0; b < nb; ++b) {
    const auto& K = JK.block(b);
    const auto& M = JM.block(b);
    const Index nbk = JK.block_size(b), kd = std::max(K.kl(), K.ku());
    for (Index i = 0; i < nbk; ++i) {
      double row = 0;
      for (Index j = std::max<Index>(0, i - kd); j <= std::min(nbk - 1, i + kd); ++j)
        row = std::max(row, std::fabs(0.5 * (K(i, j) + K(j, i))));
      if (row <= 1e-13 * dmax)
        ++res.mechanism_dofs;
      else
        keep[b].push_back(i);
    }
    const Index m = static_cast<Index>(keep[b].size());
    free_total += m;
    if (m == 0) continue;
    SymmetricBandMatrix<double> Kb(m, kd), Mb(m, kd);
    for (Index a = 0; a < m; ++a)
      for (Index c = std::max<Index>(0, a - kd); c <= a; ++c) {
        const Index i = keep[b][static_cast<std::size_t>(a)], j = keep[b][static_cast<std::size_t>(c)];
        if (i - j > kd) continue;  // outside the line's band: zero
        Kb.at(a, c) = 0.5 * (K(i, j) + K(j, i));
        Mb.at(a, c) = 0.5 * (M(i, j) + M(j, i));
      }
    for (Index a = 0; a < m; ++a)
      if (Mb(a, a) > 0) spectrum = std::max(spectrum, std::fabs(Kb(a, a)) / Mb(a, a));
    const Index want = std::min(n_modes, m);
    if (want < 1) continue;
    try {
      eig[b] = band_generalized_eigen<double>(Kb, Mb, want);
    } catch (const SolveError& e) {
      throw SolveError(obj, "banded generalised eigenproblem K phi = omega^2 M phi of " + JK.block_name(b),
                       static_cast<double>(m), std::string("a positive definite mass matrix (") + e.what() + ")");
    }
    for (Index k = 0; k < want; ++k) modes.push_back({eig[b].eigenvalues(k), b, k});
  }
  if (!(n_modes >= 1 && n_modes <= free_total))
    throw InputError(obj, "nModes", n_modes,
                     "in [1, " + std::to_string(free_total) + "] (the free DOFs with stiffness)");
  std::stable_sort(modes.begin(), modes.end(), [](const Mode& x, const Mode& y) { return x.w2 < y.w2; });
  // The round-off scale of a negative omega^2: the whole spectrum's (as the dense path's largest
  // eigenvalue), bounded by max K_ii / M_ii, not the few modes computed.
  double top = spectrum;
  for (const auto& md : modes) top = std::max(top, std::fabs(md.w2));
  res.omega2.resize(n_modes);
  res.frequency.resize(n_modes);
  res.period.resize(n_modes);
  res.shapes = MatX<double>::Zero(JK.size(), n_modes);
  for (Index j = 0; j < n_modes; ++j) {
    const Mode& md = modes[static_cast<std::size_t>(j)];
    const double w2 = checked_omega2(md.w2, top, j, obj);
    res.omega2(j) = w2;
    res.frequency(j) = std::sqrt(w2) / (2 * kPi);
    res.period(j) = res.frequency(j) > 0 ? 1 / res.frequency(j) : std::numeric_limits<double>::infinity();
    const Index o = JK.block_offset(md.block);
    const auto& kb = keep[md.block];
    for (std::size_t a = 0; a < kb.size(); ++a)
      res.shapes(o + kb[a], j) = eig[md.block].vectors(static_cast<Index>(a), md.k);
  }
  res.banded = true;
}

// The dense path (a system with object DOFs): K and M whole, mechanism rows held.
inline void dense_system_modes(MatX<double> K, const MatX<double>& M, Eigen::Index n_modes, const std::string& obj,
                               SystemModalResult& res) {
  using Index = Eigen::Index;
  const Index n = K.rows();
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
    const double w2 = checked_omega2(eig.eigenvalues()(j), top, j, obj);
    res.omega2(j) = w2;
    res.frequency(j) = std::sqrt(w2) / (2 * kPi);
    res.period(j) = res.frequency(j) > 0 ? 1 / res.frequency(j) : std::numeric_limits<double>::infinity();
    for (Index a = 0; a < m; ++a) res.shapes(keep[static_cast<std::size_t>(a)], j) = eig.eigenvectors()(a, j);
  }
}

}  // namespace detail

/// The n_modes lowest modes of `sys` about its static state s (solve_statics's). Throws
/// InputError for n_modes outside [1, free DOFs] or a state of another size,
/// NotImplementedError above SystemModalResult::kMaxDofs free DOFs for a system with object
/// DOFs (one without is solved line by line in band storage), SolveError when the mass
/// matrix is not positive definite, DomainError when an omega^2 is negative beyond round-off
/// (an unstable equilibrium).
inline SystemModalResult system_modal_analysis(const MooringSystem<double>& sys, const SystemState<double>& s,
                                               Eigen::Index n_modes) {
  using Index = Eigen::Index;
  const std::string obj = sys.name() + " modal analysis";
  const Index n = sys.dofs();
  if (s.q.size() != n) throw InputError(obj, "state size", s.q.size(), "== " + std::to_string(n) + " DOFs");
  const bool banded = sys.line_dofs() == n;  // no object DOFs: K and M block diagonal
  if (!banded && n > SystemModalResult::kMaxDofs)
    throw NotImplementedError(obj, "free DOFs of a system with free points, bodies or rods", n,
                              "<= " + std::to_string(SystemModalResult::kMaxDofs) + " (a dense eigensolver)");
  // K: the static tangent with the tension-only law; M: the mass (inertia's wm = 1 share).
  auto JK = sys.make_jacobian(), JM = sys.make_jacobian();
  VecX<double> R, Ma;
  sys.static_residual(s, R, &JK, 0.0);
  SystemState<double> rest = s;
  rest.v.setZero(n);
  rest.a.setZero(n);
  JM.set_zero();
  sys.inertia(rest, Ma, &JM, 1.0, 0.0);
  SystemModalResult res;
  if (banded)
    detail::banded_system_modes(JK, JM, n_modes, obj, res);
  else
    detail::dense_system_modes(JK.to_dense(), JM.to_dense(), n_modes, obj, res);
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
