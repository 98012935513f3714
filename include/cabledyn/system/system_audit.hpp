// cabledyn: the physical-branch audit of a mooring system's static equilibrium.
// Spec "Hermite path", Physical-branch audit: the converged state must be clear of
// self-contact, unfolded, and stable (a positive definite tangent); the spec's "Static
// equilibrium" and "Attached objects and line ends" make the system's equilibrium the
// lines' with their objects, so the audit is the single-line one over every finite-EI line
// plus the stability of the whole system: lines, free points, bodies and rods together.
//
// Stability is the inertia of the symmetric part of the static tangent K (the tangent of
// MooringSystem::static_residual with each element's own law, that of the equilibrium; a
// steady current's drag held at its equilibrium value, as the single-line audit holds it). K is bordered (bordered_jacobian.hpp): line bands A_b, their
// couplings W_b to the object DOFs and the objects' block D. By Haynsworth's inertia
// additivity, In(K) = sum_b In(A_b) + In(S), S = D - sum_b W_b^T A_b^-1 W_b the objects'
// Schur complement, so each band is factored by the banded LDL^T (its negative pivots
// counted, linalg/band_ldlt.hpp) and only S (the objects' few DOFs) is dense. Eigenvalues
// within tau = 1e-10 ||K||_inf of zero count as zero (K + tau I is factored: neutral
// directions, such as a slack grounded node or a weightless line's turn about its chord, are
// not instabilities), as in the single-line audit; in the objects' Schur complement the zero
// band is max(tau, 1e-7 max|S|), as a body's own-load rows are central differences (their
// round-off, about 1e-10 of its gross load, is of the order of tau: a body that turns freely
// is neutral, not unstable).
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/linalg/band_ldlt.hpp"
#include "cabledyn/linalg/band_matrix.hpp"
#include "cabledyn/statics/branch_audit.hpp"
#include "cabledyn/system/bordered_jacobian.hpp"
#include "cabledyn/system/mooring_system.hpp"

namespace cabledyn {

/// What the stability audit of a system found: the negative eigenvalues of its static
/// tangent (beyond the zero band tau), per line band and in the objects' Schur complement.
struct SystemStability {
  Eigen::Index negative = 0;                 ///< total negative eigenvalues of K
  std::vector<Eigen::Index> line_negative;   ///< of each line's band A_b
  std::vector<std::string> block_name;       ///< the line of each band
  Eigen::Index object_negative = 0;          ///< of the objects' Schur complement S
  bool objects_judged = true;                ///< false in a current: S not judged (see system_stability)
  double tau = 0;                            ///< the zero band [K's units]
};

/// The inertia of the static tangent of `sys` at state s (see the file comment): the number
/// of its eigenvalues below -tau, tau = 1e-10 ||K||_inf, counted per line band and in the
/// objects' Schur complement. A current (uniform or a field) is held for the tangent: its
/// drag is the equilibrium's constant load on the line nodes (its change with their
/// positions left out, as in the single-line audit). The objects' Schur complement is then
/// not judged (objects_judged false): a body's drag is a load at arms that turn with it,
/// whose load stiffness holding it would need, and a tangent without it misjudges a body
/// tilted by the current (observed: a tethered can). The lines' bands are still counted: a
/// band is a principal submatrix of K, so by interlacing its negative eigenvalues are K's. Any scalar T: the values are taken. Throws SolveError
/// naming the line whose shifted band has a zero or non-finite pivot (a singular leading
/// minor of K + tau I, or a non-finite tangent), or the system when the objects' Schur
/// complement is not finite.
template <class T>
SystemStability system_stability(MooringSystem<T>& sys, const SystemState<T>& s) {
  using Index = Eigen::Index;
  // The drag held: the tangent without the current, the current restored on every path.
  const Vec3<double> U = sys.current();
  auto field = sys.current_field();
  struct Restore {
    MooringSystem<T>& sys;
    const Vec3<double>& U;
    std::function<Vec3<double>(const Vec3<double>&)>& field;
    ~Restore() {
      try {  // the values were accepted before: restoring them does not throw
        if (field)
          sys.set_current_field(std::move(field));
        else
          sys.set_current(U);
      } catch (...) {
      }
    }
  } restore{sys, U, field};
  sys.set_current_field(nullptr);
  sys.set_current(Vec3<double>::Zero());
  auto J = sys.make_jacobian();
  VecX<T> R;
  sys.static_residual(s, R, &J);

  const std::size_t nb = J.n_blocks();
  const Index no = J.n_objects();
  auto v = [](const T& x) { return static_cast<double>(value_of(x)); };
  // ||K||_inf of the symmetric part: row sums of the bands with their borders, and of the objects.
  double norm = 0;
  VecX<double> orow = VecX<double>::Zero(no);
  for (std::size_t b = 0; b < nb; ++b) {
    const auto& A = J.block(b);
    const Index n = J.block_size(b), kd = std::max(A.kl(), A.ku());
    const auto& Ub = J.block_columns(b);
    const auto& Vb = J.block_rows(b);
    const auto& cpl = J.block_coupled(b);
    for (Index i = 0; i < n; ++i) {
      double row = 0;
      for (Index j = std::max<Index>(0, i - kd); j <= std::min(n - 1, i + kd); ++j) row += std::fabs(0.5 * (v(A(i, j)) + v(A(j, i))));
      for (std::size_t c = 0; c < cpl.size(); ++c) {
        const double w = std::fabs(0.5 * (v(Ub(i, static_cast<Index>(c))) + v(Vb(static_cast<Index>(c), i))));
        row += w;
        orow(cpl[c]) += w;
      }
      norm = std::max(norm, row);
    }
  }
  const auto& D = J.object_block();
  for (Index i = 0; i < no; ++i) {
    for (Index j = 0; j < no; ++j) orow(i) += std::fabs(0.5 * (v(D(i, j)) + v(D(j, i))));
    norm = std::max(norm, orow(i));
  }
  SystemStability out;
  out.tau = 1e-10 * norm;
  out.line_negative.assign(nb, 0);
  for (std::size_t b = 0; b < nb; ++b) out.block_name.push_back(J.block_name(b));
  MatX<double> S = MatX<double>::Zero(no, no);
  for (Index i = 0; i < no; ++i)
    for (Index j = 0; j < no; ++j) S(i, j) = 0.5 * (v(D(i, j)) + v(D(j, i))) + (i == j ? out.tau : 0.0);
  for (std::size_t b = 0; b < nb; ++b) {
    const Index n = J.block_size(b);
    if (n == 0) continue;
    const auto& A = J.block(b);
    const Index kd = std::max<Index>(0, std::min(std::max(A.kl(), A.ku()), n - 1));
    SymmetricBandMatrix<double> As(n, kd);
    for (Index j = 0; j < n; ++j)
      for (Index i = j; i <= std::min(n - 1, j + kd); ++i) As.at(i, j) = 0.5 * (v(A(i, j)) + v(A(j, i)));
    BandLDLT<double> ldlt(n, kd);
    const auto res = ldlt.factor(As, out.tau);
    if (!res.ok()) throw res.error(J.block_name(b) + " static tangent (stability audit)");
    out.line_negative[b] = ldlt.negative_count();
    out.negative += out.line_negative[b];
    const auto& cpl = J.block_coupled(b);
    if (cpl.empty()) continue;
    // S -= W^T (A + tau I)^-1 W, W the symmetric part of the border.
    const Index k = static_cast<Index>(cpl.size());
    MatX<double> W(n, k);
    const auto& Ub = J.block_columns(b);
    const auto& Vb = J.block_rows(b);
    for (Index i = 0; i < n; ++i)
      for (Index c = 0; c < k; ++c) W(i, c) = 0.5 * (v(Ub(i, c)) + v(Vb(c, i)));
    MatX<double> Z = W;
    ldlt.solve(Z);
    const MatX<double> WZ = W.transpose() * Z;
    for (Index a = 0; a < k; ++a)
      for (Index c = 0; c < k; ++c) S(cpl[static_cast<std::size_t>(a)], cpl[static_cast<std::size_t>(c)]) -= WZ(a, c);
  }
  out.objects_judged = U.isZero() && !field;
  if (no > 0 && out.objects_judged) {
    S = (0.5 * (S + S.transpose())).eval();
    if (!S.allFinite())
      throw SolveError(sys.name(), "Schur complement of the objects' static tangent (stability audit)", "not finite",
                       "finite entries");
    Eigen::SelfAdjointEigenSolver<MatX<double>> eig(S, Eigen::EigenvaluesOnly);
    if (eig.info() != Eigen::Success)
      throw SolveError(sys.name(), "eigenvalues of the objects' Schur complement (stability audit)", "no convergence",
                       "converged");
    const double band = std::max(out.tau, 1e-7 * S.cwiseAbs().maxCoeff());
    for (Index i = 0; i < no; ++i)
      if (eig.eigenvalues()(i) < -band) ++out.object_negative;
    out.negative += out.object_negative;
  }
  return out;
}

/// The physical-branch audit of the static state s of `sys` (spec "Hermite path", applied to
/// the system; see the file comment): every finite-EI line unfolded and clear of
/// self-contact (audit_fold_and_contact), and the system stable (system_stability: no
/// eigenvalue of its static tangent below -tau). Throws SolveError naming the line and
/// element(s) of a fold or self-contact, or the system, the lines and the objects with
/// negative eigenvalues for an unstable equilibrium.
template <class T>
void audit_static_branch(MooringSystem<T>& sys, const SystemState<T>& s) {
  VecX<T> x;
  for (std::size_t l = 0; l < sys.n_lines(); ++l) {
    const auto& m = sys.line(static_cast<int>(l)).model;
    if (!m.hermite()) continue;
    sys.line_gather(s, static_cast<int>(l), 0, x);
    audit_fold_and_contact(m, x, m.name());
  }
  const SystemStability st = system_stability(sys, s);
  if (st.negative == 0) return;
  std::string where;
  for (std::size_t b = 0; b < st.line_negative.size(); ++b)
    if (st.line_negative[b] > 0)
      where += (where.empty() ? "" : ", ") + st.block_name[b] + " " + std::to_string(st.line_negative[b]);
  if (st.object_negative > 0)
    where += (where.empty() ? "" : ", ") + std::string("points, bodies and rods ") + std::to_string(st.object_negative);
  throw SolveError(sys.name(), "negative eigenvalues of the static tangent (unstable equilibrium: " + where + ")",
                   static_cast<long>(st.negative), "0");
}

}  // namespace cabledyn
