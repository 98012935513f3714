// cabledyn: static equilibrium of a cubic-Hermite cable.
// Spec "Static equilibrium", "Hermite path": the exact EI = 0 seed (the multi-segment
// extensible catenary with signed weight through the end points), continuation in EI from
// the fraction whose bending length (lambda EI/|w|)^(1/3) is below a quarter of the element
// length up to lambda = 1, each stage a modified Newton iteration on the total potential
// energy whose tangent is shifted until a banded Cholesky factorisation succeeds, with an
// Armijo line search on the energy, full Newton steps close to equilibrium, a full Newton
// polish at the static tolerance, and the physical-branch audit (self-contact, fold
// L0 kappa > 0.7, stability by the inertia of the tangent). A steady current is frozen along
// the continuation and live in the final Newton solve.
//
// Not implemented here (a later issue): the bow walking of a line too long for its span,
// the weight continuation of a weightless line, mesh sequencing and adaptive refinement.
// Where the solve meets such a case it fails with a SolveError naming the case.
#pragma once

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "cabledyn/linalg/band_cholesky.hpp"
#include "cabledyn/linalg/band_ldlt.hpp"
#include "cabledyn/statics/branch_audit.hpp"
#include "cabledyn/statics/static_common.hpp"
#include "cabledyn/statics/tensile_audit.hpp"

namespace cabledyn {

/// Static solver of a cubic-Hermite cable.
/// A class template with one defaulted, unused parameter; use it as `HermiteStatics`, its only
/// instance. Its member bodies are then compiled only in the files that use them, which
/// keeps the headers that include this one cheap to compile.
template <class Unused = void>
class BasicHermiteStatics {
 public:
  BasicHermiteStatics(Line& line, StaticProblem prob = {}, StaticOptions opt = {})
      : line_(line),
        prob_(std::move(prob)),
        opt_(opt),
        cons_(line),
        model_(LineModel<double>::elements_of(line, SeabedModel{prob_.seabed_z, prob_.seabed})),
        n_(static_cast<Eigen::Index>(line.dofs())),
        kd_(line.half_bandwidth()),
        Ks_(n_, kd_),
        K_(n_, kd_, kd_),
        chol_(n_, kd_),
        lu_(n_, kd_, kd_),
        ldlt_(n_, kd_) {
    if (!line.hermite()) throw InputError(line.name(), "element kind", "EI = 0", "Hermite cable");
    prob_.seabed.validate(line.name() + " seabed");
    detail::check_reach(line);
    if (opt_.tol > 1e-6) opt_.tol = 1e-6;  // static tolerance min(1e-6, tol_dyn)
  }

  /// Solve from the exact EI = 0 catenary seed with continuation in EI.
  StaticResult solve() {
    VecX<double> seed;
    try {
      const Vec3<double> pA = line_.end(0).position, pB = line_.end(1).position;
      const Vec3<double> anchor = pB(2) <= pA(2) ? pB : pA;
      const bool grounded = prob_.seabed_z && CatenaryLine<double>::is_grounded(anchor, prob_.seabed_z);
      if (grounded) check_not_too_long();
      seed = detail::catenary_seed(line_, prob_, true);
    } catch (const SolveError&) {
      throw;
    } catch (const Error& e) {
      throw SolveError(line_.name(), std::string("catenary seed: ") + e.what(),
                       "no catenary through the end points",
                       "a catenary seed (weight continuation and bow walking: later issue)");
    }
    return solve_from(seed, true, "catenary seed");
  }

  /// Solve from a given seed, with or without the continuation in EI.
  StaticResult solve_from(VecX<double> q, bool continuation, const std::string& seed_name = "given seed") {
    detail::lift_onto_seabed(line_, prob_, q);
    cons_.apply_to_state(line_, q);
    int it = 0;
    std::vector<std::string> notes;
    // Frozen drag along the continuation.
    VecX<double> drag;
    auto frozen = [&](const VecX<double>& qq) {
      StaticLoadCase lc = load_case();
      if (prob_.current) {
        line_current_drag(model_, line_, *prob_.current, qq, drag, prob_.surface_z);
        lc.frozen_drag = &drag;
        lc.current = nullptr;
      }
      return lc;
    };
    if (continuation) {
      double lambda = initial_EI_fraction();
      double factor = 10;
      while (true) {
        set_EI_scale(lambda);
        VecX<double> qs = q;
        StaticLoadCase lc = frozen(qs);
        const bool ok = minimize(qs, lc, it, 1e-6);
        const double jump = max_node_move(q, qs);
        if (ok && (jump <= 0.1 * line_.length() || factor < 1.5)) {
          q = qs;
          if (lambda >= 1) break;
          lambda = std::min(1.0, lambda * factor);
          continue;
        }
        if (factor < 1.5) {
          set_EI_scale(1.0);
          throw SolveError(line_.name(), "continuation in EI at EI fraction", lambda,
                           "a converged stage (mesh sequencing and refinement: later issue)");
        }
        lambda /= factor;
        factor = std::sqrt(factor);
        lambda *= factor;
      }
    }
    set_EI_scale(1.0);
    {
      StaticLoadCase lc = frozen(q);
      if (!minimize(q, lc, it, 1e-6)) {
        throw SolveError(line_.name(), "energy minimisation at full EI from " + seed_name, "no convergence",
                         "a stable equilibrium");
      }
    }
    // Polish: full Newton with the live loads.
    const auto lc = load_case();
    double floor_note = 0;
    if (!polish(q, lc, it, floor_note))
      throw SolveError(line_.name(), "full Newton polish from " + seed_name, "no convergence",
                       "scaled residual <= " + to_text(opt_.tol));
    // The physical-branch audit. Energy descent approaches stable equilibria only, but a
    // symmetric state is a saddle it cannot leave by itself (a cable compressed in the
    // vertical plane of its ends, which nothing loads across it): an unstable equilibrium is
    // left along its lowest mode (escape_along), minimised and polished again, at most twice.
    audit_fold_and_contact(model_, q, line_.name());
    for (int escape = 0;; ++escape) {
      VecX<double> phi;
      const auto neg = unstable_modes(q, lc, escape < 2 ? &phi : nullptr);
      if (neg == 0) break;
      const std::string side = phi.size() ? escape_along(q, phi) : "";
      if (side.empty())
        throw SolveError(line_.name(), "negative eigenvalues of the static tangent (unstable equilibrium)",
                         static_cast<long>(neg), "0");
      StaticLoadCase lm = frozen(q);
      floor_note = 0;  // the state left behind is no longer the result
      if (!minimize(q, lm, it, 1e-6) || !polish(q, lc, it, floor_note))
        throw SolveError(line_.name(), "statics from the unstable equilibrium left along its lowest mode",
                         "no convergence", "a stable equilibrium");
      audit_fold_and_contact(model_, q, line_.name());
      notes.push_back("the equilibrium first reached was unstable (" + std::to_string(neg) +
                      " negative eigenvalue(s) of the static tangent); the statics left it along its lowest mode, " +
                      side + ", and solved again");
    }
    if (floor_note > 0) {
      std::ostringstream os;
      os << "static residual floor " << floor_note << " above the tolerance " << opt_.tol << " accepted";
      notes.push_back(os.str());
    }
    if (opt_.tensile_safety) {
      // Spec "Tensile audit": element-mean compression beyond the band is rejected (the
      // refinement the spec tries before rejecting is not implemented here).
      if (const auto ev = tensile_audit(line_, q, opt_.tensile_strain_tolerance, true))
        throw SolveError(line_.name() + " element " + std::to_string(ev->element + 1),
                         "tensile_safety: three-element mean axial force [N]", ev->force,
                         ">= -" + to_text(ev->threshold) + " N");
    }
    StaticResult res;
    res.q = q;
    res.iterations = it;
    res.route = seed_name + (continuation ? ", continuation in EI, Newton polish" : ", energy minimisation, Newton polish");
    res.notes = notes;
    VecX<double> R;
    line_static_residual<double>(model_, line_, lc, q, R);
    detail::end_forces_from_residual(line_, R, res);
    cons_.reduce_residual(R);
    res.residual = cons_.free_norm_inf(R);
    res.scale = force_scale(lc, q);
    compression_note(q, res);
    return res;
  }

  /// Dimensionless residual norm: tangent-DOF rows divided by the nodal tributary length,
  /// over the force scale (spec "Hermite path").
  double scaled_norm(const VecX<double>& R_reduced, double scale) const {
    double m = 0;
    for (std::size_t i = 0; i < line_.n_nodes(); ++i) {
      const double trib = std::max(line_.tributary(i), 1e-300);
      for (int c = 0; c < 6; ++c) {
        const auto k = static_cast<Eigen::Index>(line_.dof(i, c));
        if (cons_.held(k)) continue;
        m = std::max(m, std::fabs(R_reduced(k)) / (c < 3 ? 1.0 : trib));
      }
    }
    return m / scale;
  }

 private:
  StaticLoadCase load_case() const {
    StaticLoadCase lc;
    lc.seabed_z = prob_.seabed_z;
    lc.seabed = prob_.seabed;
    lc.current = prob_.current ? &*prob_.current : nullptr;
    lc.hermite_wetting = true;
    lc.surface_z = prob_.surface_z;
    return lc;
  }

  // Force scale: the largest of 1 N, the line's weight, the seabed reaction, the drag and,
  // for a line held at both ends whose chord is at least its length, the round-off floor
  // of the axial forces over the tolerance.
  double force_scale(const StaticLoadCase& lc, const VecX<double>& q) const {
    double s = detail::static_force_scale(model_, line_, lc, q);
    double W = 0;
    for (std::size_t e = 0; e < line_.n_elements(); ++e) W += std::fabs(line_.w(e)) * line_.L0(e);
    s = std::max(s, W);
    const double chord = (line_.end(1).position - line_.end(0).position).norm();
    if (chord >= line_.length()) s = std::max(s, detail::roundoff_floor(line_, q) / opt_.tol);
    return s;
  }

  // Round-off floor of the nodal forces: the axial forces EA eps are formed from coordinate
  // differences, and a stiff bed's contact forces likewise (spec "Hermite path").
  double roundoff(const VecX<double>& q, const StaticLoadCase& lc) const {
    return detail::roundoff_floor(line_, q, lc.seabed_z ? lc.seabed.kBot : 0.0);
  }

  void check_not_too_long() const {
    const Vec3<double> pA = line_.end(0).position, pB = line_.end(1).position;
    double wmin = 1e300;
    for (std::size_t e = 0; e < line_.n_elements(); ++e) wmin = std::min(wmin, line_.w(e));
    if (wmin <= 0) return;  // buoyant sections: the catenary decides
    Vec3<double> d = pB - pA;
    const double span = std::hypot(d(0), d(1)), rise = std::fabs(d(2));
    if (line_.length() > span + rise)
      throw SolveError(line_.name(), "line length", line_.length(),
                       "<= span + rise (" + to_text(span + rise) +
                           " m): a longer line stands up as a bow (bow walking: later issue)");
  }

  double initial_EI_fraction() const {
    double lambda = 1;
    for (std::size_t e = 0; e < line_.n_elements(); ++e) {
      const double EI = line_.type(e).EI, w = std::fabs(line_.w(e)), L0 = line_.L0(e);
      if (EI <= 0 || w <= 0) continue;
      lambda = std::min(lambda, std::pow(L0 / 4, 3) * w / EI);
    }
    return std::max(lambda, 1e-12);
  }

  double max_node_move(const VecX<double>& a, const VecX<double>& b) const {
    double m = 0;
    for (std::size_t i = 0; i < line_.n_nodes(); ++i) m = std::max(m, (line_.r(a, i) - line_.r(b, i)).norm());
    return m;
  }

  // Modified Newton on the potential energy: tangent shifted until Cholesky succeeds, Armijo
  // on the energy; full Newton steps once the residual is small.
  bool minimize(VecX<double>& q, const StaticLoadCase& lc, int& it, double tol) {
    VecX<double> R;
    MatX<double> d(n_, 1);
    double shift = 0;
    for (int k = 0; k < opt_.max_iterations * 5; ++k, ++it) {
      Ks_.set_zero();
      try {
        line_static_residual<double, SymmetricBandMatrix<double>>(model_, line_, lc, q, R, &Ks_);
      } catch (const DomainError&) {
        return false;
      }
      cons_.reduce_residual(R);
      cons_.reduce_matrix(Ks_);
      const double scale = force_scale(lc, q);
      const double norm = scaled_norm(R, scale);
      const double floor = roundoff(q, lc) / scale;
      if (opt_.verbose)
        std::fprintf(stderr, "%s minimise EI x %g it %d |R|/s %.3e floor %.3e shift %.3e\n", line_.name().c_str(),
                     line_.EI_scale(), k, norm, floor, shift);
      if (norm < std::max(tol, floor)) return true;
      const double E0 = line_potential_energy(model_, line_, lc, q);
      const double knorm = std::max(Ks_.norm_inf(), 1e-300);
      // Shift until positive definite.
      shift = shift > 0 ? shift / 4 : 0;
      if (shift < 1e-12 * knorm) shift = 0;
      bool factored = false;
      for (int s = 0; s < 60; ++s) {
        if (chol_.factor(Ks_, shift).ok()) {
          factored = true;
          break;
        }
        shift = shift > 0 ? shift * 4 : 1e-10 * knorm;
      }
      if (!factored) return false;
      d.col(0) = -R;
      chol_.solve(d);
      VecX<double> dq = d.col(0);
      cons_.expand(dq);
      const double slope = R.dot(d.col(0));  // < 0
      double alpha = 1;
      bool accepted = false;
      for (int ls = 0; ls < 40; ++ls, alpha *= 0.5) {
        const VecX<double> qt = q + alpha * dq;
        double Et;
        try {
          Et = line_potential_energy(model_, line_, lc, qt);
        } catch (const DomainError&) {
          continue;
        }
        if (Et <= E0 + 1e-4 * alpha * slope) {
          q = qt;
          accepted = true;
          break;
        }
        // Close to equilibrium the energy changes below its own round-off: an unshifted
        // (positive definite) Newton step is then judged on the residual instead.
        if (shift == 0 && ls == 0) {
          line_static_residual<double>(model_, line_, lc, qt, Rt_);
          cons_.reduce_residual(Rt_);
          if (scaled_norm(Rt_, force_scale(lc, qt)) < (1 - 1e-4) * norm) {
            q = qt;
            accepted = true;
            break;
          }
        }
      }
      if (!accepted) {
        // The energy cannot descend further at its round-off: accept if the residual is small.
        return norm < std::max(1e-3, 10 * floor);
      }
      cons_.apply_to_state(line_, q);
    }
    return false;
  }

  // Full Newton with backtracking on ||R||; accepts a floor up to 1e-6 (1e-5 on the seabed).
  bool polish(VecX<double>& q, const StaticLoadCase& lc, int& it, double& floor_note) {
    VecX<double> R, Rt;
    MatX<double> d(n_, 1);
    double best = std::numeric_limits<double>::infinity();
    for (int k = 0; k < opt_.max_iterations; ++k, ++it) {
      K_.set_zero();
      line_static_residual<double>(model_, line_, lc, q, R, &K_);
      cons_.reduce_residual(R);
      cons_.reduce_matrix(K_);
      const double scale = force_scale(lc, q);
      const double norm = scaled_norm(R, scale);
      if (opt_.verbose)
        std::fprintf(stderr, "%s polish it %d |R|/s %.3e floor %.3e\n", line_.name().c_str(), k, norm,
                     roundoff(q, lc) / scale);
      if (norm < opt_.tol) return true;
      if (norm < roundoff(q, lc) / scale) {
        floor_note = norm;
        return true;
      }
      if (!lu_.factor(K_).ok()) break;
      d.col(0) = -R;
      lu_.solve(d);
      VecX<double> dq = d.col(0);
      cons_.expand(dq);
      double alpha = 1;
      bool accepted = false;
      for (int ls = 0; ls < 30; ++ls, alpha *= 0.5) {
        VecX<double> qt = q + alpha * dq;
        cons_.apply_to_state(line_, qt);
        try {
          line_static_residual<double>(model_, line_, lc, qt, Rt);
        } catch (const DomainError&) {
          continue;
        }
        cons_.reduce_residual(Rt);
        if (scaled_norm(Rt, force_scale(lc, qt)) < (1 - 1e-4 * alpha) * norm) {
          q = qt;
          accepted = true;
          break;
        }
      }
      best = std::min(best, norm);
      if (!accepted) break;
    }
    // Residual floor: accepted at 1e-6 (1e-5 for a line on the seabed) and reported.
    K_.set_zero();
    line_static_residual<double>(model_, line_, lc, q, R);
    cons_.reduce_residual(R);
    const double norm = scaled_norm(R, force_scale(lc, q));
    bool on_seabed = false;
    if (prob_.seabed_z)
      for (std::size_t i = 0; i < line_.n_nodes(); ++i)
        on_seabed = on_seabed || line_.r(q, i)(2) < *prob_.seabed_z;
    const double accept = on_seabed ? 1e-5 : 1e-6;
    if (norm < accept) {
      floor_note = norm;
      return true;
    }
    return false;
  }

  // Physical-branch audit (spec "Hermite path"): no fold beyond L0 kappa = 0.7, no
  // self-contact (audit_fold_and_contact), a stable (positive definite) tangent:
  // The number of negative eigenvalues of the static tangent at q, the drag held (eigenvalues
  // within 1e-10 of the tangent's scale count as zero: a null mode, such as the bow of a
  // weightless line turning about its chord, is neutral, not unstable). With phi and a
  // negative count, phi is the mode of the lowest eigenvalue (global coordinates, largest
  // |entry| 1): the lowest eigenvalue bracketed by bisection on the inertia (the LDL^T sign
  // count of K - mu I), then inverse iteration with the Cholesky factors of K - mu I, mu
  // below it (a ratio (lambda_1 - mu) / (lambda_2 - mu) per iteration).
  Eigen::Index unstable_modes(const VecX<double>& q, const StaticLoadCase& lc, VecX<double>* phi) {
    Ks_.set_zero();
    VecX<double> R;
    StaticLoadCase lcs = lc;
    VecX<double> drag;
    if (lc.current) {  // stability judged on the potential part with the drag held
      line_current_drag(model_, line_, *lc.current, q, drag, lc.surface_z);
      lcs.frozen_drag = &drag;
      lcs.current = nullptr;
    }
    line_static_residual<double, SymmetricBandMatrix<double>>(model_, line_, lcs, q, R, &Ks_);
    cons_.reduce_matrix(Ks_);
    const double knorm = Ks_.norm_inf(), tau = 1e-10 * knorm;
    if (const auto r = ldlt_.factor(Ks_, tau); !r.ok()) throw r.error(line_.name() + " static tangent (stability audit)");
    const auto neg = ldlt_.negative_count();
    if (neg == 0 || !phi) return neg;
    // lambda_min in (lo, hi]: Gershgorin below, the count above.
    double lo = -1.01 * knorm - tau, hi = -tau;
    for (int k = 0; k < 200 && hi - lo > 1e-6 * std::fabs(hi); ++k) {
      const double mid = 0.5 * (lo + hi);
      const auto r = ldlt_.factor(Ks_, -mid);
      if (!r.ok() || ldlt_.negative_count() > 0)
        hi = mid;
      else
        lo = mid;
    }
    for (int k = 0; !chol_.factor(Ks_, -lo).ok(); ++k) {
      if (k == 20) return neg;  // no mode: phi left empty
      lo -= hi - lo;
    }
    MatX<double> x(n_, 1);
    for (Eigen::Index i = 0; i < n_; ++i) x(i, 0) = 1 + 0.5 * std::sin(1.7 * static_cast<double>(i));
    for (int k = 0; k < 30; ++k) {
      chol_.solve(x);
      x /= x.cwiseAbs().maxCoeff();
    }
    *phi = x.col(0);
    cons_.expand(*phi);
    *phi /= phi->cwiseAbs().maxCoeff();
    return neg;
  }

  // Leaves the unstable equilibrium q along its lowest mode phi (unstable_modes): q moves by
  // 1 % of the line length at the node that moves most, to the side of the mode where its
  // node translations have a positive sum along n = e_z x (r_B - r_A) (left of the chord
  // from End A to End B, seen from above: the same side of a rotated deck); where that sum
  // vanishes (a mode antisymmetric about the middle), its first moment about the middle of
  // the line, sum (s_i - L/2) d_i . n; for a mode in the vertical plane of the chord, the
  // same two sums of the vertical translations (up). A vertical chord has no plane: e_x
  // stands for n there (the deck's frame decides the side). Returns that side's
  // description for the note.
  std::string escape_along(VecX<double>& q, const VecX<double>& phi) const {
    const Vec3<double> c = line_.r(q, line_.end_node(1)) - line_.r(q, line_.end_node(0));
    Vec3<double> n(-c(1), c(0), 0);
    const bool plane = n.norm() > 1e-9 * line_.length();
    n = plane ? Vec3<double>(n.normalized()) : Vec3<double>::UnitX();
    double across = 0, up = 0, across1 = 0, up1 = 0, peak = 0, across_peak = 0;
    const double half = 0.5 * line_.length();
    for (std::size_t i = 0; i < line_.n_nodes(); ++i) {
      const Vec3<double> d = line_.r(phi, i);
      const double w = (line_.s_node(i) - half) / half;
      across += d.dot(n);
      up += d(2);
      across1 += w * d.dot(n);
      up1 += w * d(2);
      peak = std::max(peak, d.norm());
      across_peak = std::max(across_peak, std::fabs(d.dot(n)));
    }
    if (!(peak > 0)) return "";
    const double zero = 1e-6 * peak * static_cast<double>(line_.n_nodes());
    const bool side = across_peak > 1e-3 * peak;  // the mode leaves the vertical plane
    const double keys[2] = {side ? across : up, side ? across1 : up1};
    double key = 0;
    for (const double k : keys)
      if (key == 0 && std::fabs(k) > zero) key = k;
    const double sign = key < 0 ? -1.0 : 1.0;
    q += (sign * 0.01 * line_.length() / peak) * phi;
    cons_.apply_to_state(line_, q);
    return side ? (plane ? "out of the vertical plane of its chord, to the side its geometry sets"
                         : "off its vertical chord, to the side the deck's x axis sets")
                : "in the vertical plane of its chord";
  }

  void compression_note(const VecX<double>& q, StaticResult& res) const {
    double worst = 0;
    std::size_t at = 0;
    for (std::size_t e = 0; e < line_.n_elements(); ++e) {
      const auto qe = line_.element_dofs<double, 12>(q, e);
      const auto& el = line_.hermite_element(e);
      double mean = 0;
      const auto rule = gauss_legendre<double>(3);
      for (int g = 0; g < 3; ++g) mean += rule.w[g] * el.axial_resultant_at(qe, rule.xi[g]);
      if (mean < worst) {
        worst = mean;
        at = e;
      }
    }
    if (worst < -2e-6 * line_.type(at).EA) {
      std::ostringstream os;
      os << "element-mean axial compression " << worst << " N at element " << at + 1;
      res.notes.push_back(os.str());
    }
  }

  // The EI scale of the line and of its load model (continuation in EI).
  void set_EI_scale(double lambda) {
    line_.set_EI_scale(lambda);
    model_.set_EI_scale(lambda);
  }

  Line& line_;
  StaticProblem prob_;
  StaticOptions opt_;
  LineConstraints cons_;
  LineModel<double> model_;  // the line's load model (its residual, tangent, energy and drag)
  Eigen::Index n_;
  Eigen::Index kd_;
  SymmetricBandMatrix<double> Ks_;
  BandMatrix<double> K_;
  BandCholesky<double> chol_;
  BandLU<double> lu_;
  BandLDLT<double> ldlt_;
  VecX<double> Rt_;
};

using HermiteStatics = BasicHermiteStatics<>;

}  // namespace cabledyn
