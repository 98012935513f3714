// cabledyn: static equilibrium of an EI = 0 line.
// Spec "Static equilibrium", "EI = 0 path": seeds tried in order (the analytical extensible
// catenary, grounded or suspended; the catenary on the seabed lowered by the static penalty
// penetration; the other catenary variant; a two-leg polyline that never compresses the line),
// a compression-capable Newton with an Armijo line search on 1/2 ||R||^2, tension-only
// Levenberg-Marquardt stages on the potential energy (the compressed branch carrying r EA with
// r EA of order 1e-3 and then 1e-7 of the largest nodal load, then r = 0), load continuation
// (0.25, 0.5, 0.75, 1.0, scaling the seabed stiffness with the load) as the fallback,
// the convergence test ||R||_inf / s < 1e-8 or ||R||_inf < 1e-14 with the round-off floor,
// the buoyancy recovery above the surface by fixed point, and a named failure.
#pragma once

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "cabledyn/statics/static_common.hpp"

namespace cabledyn {

/// Static solver of an EI = 0 line.
/// A class template with one defaulted, unused parameter; use it as `TensionStatics`, its only
/// instance. Its member bodies are then compiled only in the files that use them, which
/// keeps the headers that include this one cheap to compile.
template <class Unused = void>
class BasicTensionStatics {
 public:
  BasicTensionStatics(const Line& line, StaticProblem prob = {}, StaticOptions opt = {})
      : line_(line),
        prob_(std::move(prob)),
        opt_(opt),
        cons_(line),
        model_(LineModel<double>::elements_of(line, SeabedModel{prob_.seabed_z, prob_.seabed})),
        n_(static_cast<Eigen::Index>(line.dofs())),
        K_(n_, line.half_bandwidth(), line.half_bandwidth()),
        lu_(n_, line.half_bandwidth(), line.half_bandwidth()) {
    if (line.hermite()) throw InputError(line.name(), "element kind", "Hermite", "EI = 0 line");
    prob_.seabed.validate(line.name() + " seabed");
    detail::check_reach(line);
    if (prob_.seabed_z && line.end(0).position(2) < *prob_.seabed_z - 1e-6 &&
        line.end(1).position(2) < *prob_.seabed_z - 1e-6)
      throw InputError(line.name(), "end heights below the seabed", line.end(0).position(2),
                       ">= seabed z " + to_text(*prob_.seabed_z));
    for (std::size_t e = 0; e < line.n_elements(); ++e) {
      kmax_ = std::max(kmax_, line.type(e).EA / line.L0(e));
      EAmax_ = std::max(EAmax_, line.type(e).EA);
    }
  }

  /// Solve from the spec's seed sequence. Throws SolveError naming the line, the seeds and
  /// stages tried and the reason when no admissible equilibrium is found.
  StaticResult solve() {
    std::vector<std::pair<std::string, std::function<VecX<double>()>>> seeds;
    seeds.emplace_back("catenary", [&] { return detail::catenary_seed(line_, prob_, true); });
    if (prob_.seabed_z && prob_.seabed.kBot > 0) {
      seeds.emplace_back("catenary on the softened seabed", [&] {
        double wmax = 0, dmin = 1e300;
        for (std::size_t e = 0; e < line_.n_elements(); ++e) {
          wmax = std::max(wmax, line_.w(e));
          dmin = std::min(dmin, line_.type(e).d);
        }
        return detail::catenary_seed(line_, prob_, true, wmax / (prob_.seabed.kBot * dmin));
      });
    }
    seeds.emplace_back("suspended catenary", [&] { return detail::catenary_seed(line_, prob_, false); });
    seeds.emplace_back("two-leg polyline", [&] { return detail::polyline_seed(line_, prob_); });
    std::ostringstream tried;
    for (auto& [name, make] : seeds) {
      VecX<double> q;
      try {
        q = make();
      } catch (const Error& e) {
        tried << name << " (no seed: " << e.what() << "); ";
        continue;
      }
      std::string why;
      if (auto r = solve_from(q, name, why)) return *r;
      tried << name << " (" << why << "); ";
    }
    std::string seeds_tried = tried.str();
    if (seeds_tried.size() >= 2) seeds_tried.resize(seeds_tried.size() - 2);  // the last "; "
    throw SolveError(line_.name(), "static equilibrium (EI = 0): seeds tried: " + seeds_tried + current_diagnosis(),
                     "no admissible equilibrium", "a converged tension-only state");
  }

  /// Why a line in a current may have no equilibrium on a frictionless seabed: solved in
  /// still water, the current's drag on the grounded run, summed along the run toward its
  /// grounded end, is compared with that end's still-water tension. Where it is larger the
  /// run's tension falls to zero before the end and the slack chain piles up against it (no
  /// tension-only equilibrium holds it there without friction). Empty without a current, a
  /// seabed or a grounded run, or when the still-water solve fails too.
  std::string current_diagnosis() const {
    if (!prob_.current || !prob_.seabed_z) return "";
    StaticProblem still;  // the problem without its current (built, not copied and reset: GCC 12 warns)
    still.seabed_z = prob_.seabed_z;
    still.seabed = prob_.seabed;
    still.surface_z = prob_.surface_z;
    StaticResult st;
    try {
      st = BasicTensionStatics(line_, still, opt_).solve();
    } catch (const Error&) {
      return "; in still water the line has no equilibrium either";
    }
    const int e = line_.end(0).position(2) <= line_.end(1).position(2) ? 0 : 1;  // the grounded end
    const std::size_t ne = line_.end_node(e), nodes = line_.n_nodes();
    std::vector<std::size_t> grounded;
    for (std::size_t i = 0; i < nodes; ++i) {
      const auto c = seabed_contact<double>(st.q(static_cast<Eigen::Index>(line_.dof(i, 2))), 0.0, *prob_.seabed_z,
                                            node_contact_width_length(line_, i), 1.0, prob_.seabed);
      if (c.f > 0 && i != ne) grounded.push_back(i);
    }
    std::ostringstream os;
    os << "; in still water the line is in equilibrium (tension at its grounded end " << st.end_force[e].norm() << " N)";
    if (grounded.empty()) return os.str();
    // The touchdown: the grounded node farthest from the grounded end along the line.
    std::size_t td = grounded.front();
    for (std::size_t i : grounded)
      if ((i > ne ? i - ne : ne - i) > (td > ne ? td - ne : ne - td)) td = i;
    Vec3<double> u = line_.r(st.q, ne) - line_.r(st.q, td);
    u(2) = 0;
    if (!(u.norm() > 0)) return os.str();
    u.normalize();
    VecX<double> fd;
    line_current_drag(model_, line_, *prob_.current, st.q, fd, prob_.surface_z);
    double push = 0;
    for (std::size_t i : grounded) push += fd.segment<3>(static_cast<Eigen::Index>(line_.dof(i, 0))).dot(u);
    os << "; the current's drag on its grounded run (" << grounded.size() << " nodes) pushes " << push
       << " N along the run toward that end";
    if (push > 0.5 * st.end_force[e].norm())
      os << ": on a frictionless seabed the run's tension falls to zero before the end and the slack line piles up "
            "against it, which no tension-only equilibrium holds (seabed friction is not implemented yet; a "
            "current across the run, a shorter or heavier line)";
    // The drag on the whole line against its submerged weight: a current whose drag is of
    // the order of the weight carries the suspended part over the grounded run (a folded
    // layout, which these statics do not trace).
    Vec3<double> drag = Vec3<double>::Zero();
    for (std::size_t i = 0; i < nodes; ++i) drag += fd.segment<3>(static_cast<Eigen::Index>(line_.dof(i, 0)));
    double weight = 0;
    for (std::size_t k = 0; k < line_.n_elements(); ++k) weight += std::fabs(line_.w(k)) * line_.L0(k);
    os << "; the drag on the whole line, " << drag.norm() << " N, is " << drag.norm() / std::max(weight, 1e-300)
       << " of its submerged weight";
    if (drag.norm() > 0.5 * weight)
      os << ": a current that strong can carry the line over its grounded run into a folded layout, which the EI = 0 "
            "statics do not trace (seabed friction, a later issue, holds the run)";
    return os.str();
  }

  /// Solve from a given seed; none when every stage fails (`why` says how).
  std::optional<StaticResult> solve_from(VecX<double> q, const std::string& seed_name, std::string& why) {
    detail::lift_onto_seabed(line_, prob_, q);
    cons_.apply_to_state(line_, q);
    VecX<double> recovery = VecX<double>::Zero(n_);
    std::optional<StaticResult> res;
    for (int pass = 0; pass < 50; ++pass) {
      const VecX<double> q_before = q;
      res = solve_stages(q, seed_name, recovery, why);
      if (!res) return std::nullopt;
      q = res->q;
      bool dry = false;
      for (std::size_t i = 0; i < line_.n_nodes(); ++i)
        dry = dry || line_.r(q, i)(2) > prob_.surface_z;
      if (!dry) return res;
      const VecX<double> rec = tension_wetting_recovery(line_, q, prob_.surface_z);
      if (pass > 0 && (q - q_before).cwiseAbs().maxCoeff() < 1e-9) {
        res->notes.push_back("buoyancy recovery above the surface converged in " + std::to_string(pass) +
                             " fixed-point passes");
        return res;
      }
      recovery = rec;
    }
    why = "the buoyancy recovery above the surface did not settle in 50 passes";
    return std::nullopt;
  }

  /// The tension-only static residual at q (every DOF), for reporting.
  VecX<double> residual(const VecX<double>& q, const VecX<double>* constant_load = nullptr) const {
    StaticLoadCase lc = load_case(1.0, 0.0, constant_load);
    VecX<double> R;
    line_static_residual<double>(model_, line_, lc, q, R);
    return R;
  }

 private:
  StaticLoadCase load_case(double lf, double r, const VecX<double>* constant_load) const {
    StaticLoadCase lc;
    lc.seabed_z = prob_.seabed_z;
    lc.seabed = prob_.seabed;
    lc.load_factor = lf;
    lc.compression_ratio = r;
    lc.current = prob_.current ? &*prob_.current : nullptr;
    lc.constant_load = constant_load && constant_load->size() > 0 && constant_load->cwiseAbs().maxCoeff() > 0
                           ? constant_load
                           : nullptr;
    lc.hermite_wetting = false;
    lc.surface_z = prob_.surface_z;
    return lc;
  }

  // The sequence of laws and load steps of the spec for one seed.
  std::optional<StaticResult> solve_stages(VecX<double> q0, const std::string& seed_name,
                                           const VecX<double>& recovery, std::string& why) {
    // 1. Compression-capable Newton at the full load. Its state is the tension-only
    // equilibrium only when the tension-only residual passes the convergence test too: an
    // element within its -1e-6 strain band of slack carries up to EA 1e-6 in compression under
    // the compression-capable law and nothing under the tension-only one (a 3.9e8 N chain:
    // up to 390 N of residual). Otherwise the tension-only stages start from that state.
    {
      VecX<double> q = q0;
      int it = 0;
      const auto lc = load_case(1.0, 1.0, &recovery);
      if (newton(q, lc, it) && all_in_tension(q)) {
        StaticResult res = finish(q, recovery, seed_name + ", compression-capable Newton", it);
        if (converged(res.residual, res.scale, res.floor)) return res;
        q0 = q;
      }
    }
    // 2. Tension-only stages, then 3. load continuation of the same stages.
    double fmax = 1;
    for (std::size_t e = 0; e < line_.n_elements(); ++e) fmax = std::max(fmax, std::fabs(line_.w(e)) * line_.L0(e));
    const double r1 = 1e-3 * fmax / EAmax_, r2 = 1e-7 * fmax / EAmax_;
    for (const std::vector<double>& factors : {std::vector<double>{1.0}, std::vector<double>{0.25, 0.5, 0.75, 1.0}}) {
      VecX<double> q = q0;
      int it = 0;
      bool ok = true;
      for (double lf : factors) {
        for (double r : {r1, r2, 0.0}) {
          const auto lc = load_case(lf, r, &recovery);
          if (!lm_stage(q, lc, it)) {
            ok = false;
            break;
          }
        }
        if (!ok) break;
      }
      if (ok) {
        const std::string stage = factors.size() == 1 ? "tension-only stages" : "load continuation";
        return finish(q, recovery, seed_name + ", " + stage, it);
      }
    }
    // 4. In a current: the still-water equilibrium first, then the drag by load steps.
    if (prob_.current) {
      VecX<double> q = q0;
      int it = 0;
      bool ok = true;
      for (double df : {0.0, 0.1, 0.2, 0.35, 0.5, 0.7, 0.85, 1.0}) {
        for (double r : {r1, r2, 0.0}) {
          auto lc = load_case(1.0, r, &recovery);
          lc.drag_factor = df;
          if (df == 0) lc.current = nullptr;
          if (!lm_stage(q, lc, it)) {
            ok = false;
            break;
          }
        }
        if (!ok) break;
      }
      if (ok) return finish(q, recovery, seed_name + ", still water then drag load steps", it);
    }
    why = "compression-capable Newton, tension-only stages and load continuation did not converge";
    return std::nullopt;
  }

  bool all_in_tension(const VecX<double>& q) const {
    for (std::size_t e = 0; e < line_.n_elements(); ++e)
      if (line_.tension_element(e).kinematics(line_.element_dofs<double, 6>(q, e)).eps < -1e-6) return false;
    return true;
  }

  StaticResult finish(const VecX<double>& q, const VecX<double>& recovery, const std::string& route, int it) {
    StaticResult res;
    res.q = q;
    res.route = route;
    res.iterations = it;
    const auto lc = load_case(1.0, 0.0, &recovery);
    VecX<double> R;
    line_static_residual<double>(model_, line_, lc, q, R);
    detail::end_forces_from_residual(line_, R, res);
    cons_.reduce_residual(R);
    res.residual = cons_.free_norm_inf(R);
    res.scale = detail::static_force_scale(model_, line_, lc, q);
    res.floor = detail::roundoff_floor(line_, q, prob_.seabed_z ? prob_.seabed.kBot : 0.0);
    for (std::size_t e = 0; e < line_.n_elements(); ++e) {
      const double eps = line_.tension_element(e).kinematics(line_.element_dofs<double, 6>(q, e)).eps;
      if (eps < -1e-6) {
        res.notes.push_back("slack elements carry no tension (first: element " + std::to_string(e + 1) + ")");
        break;
      }
    }
    fold_note(q, res);
    return res;
  }

  // The hairpin note of the spec: grounded nodes more than 1 % of the horizontal span plus
  // 0.5 m beyond the grounded end, measured along the horizontal chord.
  void fold_note(const VecX<double>& q, StaticResult& res) const {
    if (!prob_.seabed_z) return;
    const Vec3<double> pA = line_.end(0).position, pB = line_.end(1).position;
    const int low = pB(2) <= pA(2) ? 1 : 0;
    const Vec3<double> anchor = line_.end(low).position, other = line_.end(1 - low).position;
    if (std::fabs(anchor(2) - *prob_.seabed_z) > std::max(1e-3, 1e-5 * std::fabs(*prob_.seabed_z))) return;
    Vec3<double> h = other - anchor;
    h(2) = 0;
    const double span = h.norm();
    if (span < 0.1 * std::max(anchor(2) - *prob_.seabed_z, other(2) - anchor(2))) return;
    if (span == 0) return;
    h /= span;
    double beyond = 0;
    for (std::size_t i = 0; i < line_.n_nodes(); ++i) {
      const Vec3<double> x = line_.r(q, i);
      if (x(2) > *prob_.seabed_z + 0.05) continue;
      beyond = std::max(beyond, -(x - anchor).dot(h));
    }
    if (beyond > 0.01 * span + 0.5) {
      std::ostringstream os;
      os << "the static layout carries the grounded run " << beyond << " m past its anchor, where it folds back (a hairpin)";
      res.notes.push_back(os.str());
    }
  }

  bool converged(double norm, double scale, double floor) const {
    return norm / scale < opt_.tol || norm < opt_.abs_tol || norm < floor;
  }

  double reduced_residual(const VecX<double>& q, const StaticLoadCase& lc, VecX<double>& R, bool with_tangent) {
    if (with_tangent) K_.set_zero();
    line_static_residual<double>(model_, line_, lc, q, R, with_tangent ? &K_ : nullptr);
    cons_.reduce_residual(R);
    if (with_tangent) cons_.reduce_matrix(K_);
    return cons_.free_norm_inf(R);
  }

  // Newton with an Armijo line search on 1/2 ||R||^2 (spec: compression-capable Newton).
  bool newton(VecX<double>& q, const StaticLoadCase& lc, int& it) {
    VecX<double> R, Rt;
    MatX<double> d(n_, 1);
    double stall = std::numeric_limits<double>::infinity();
    for (int k = 0; k < opt_.max_iterations; ++k, ++it) {
      double norm;
      try {
        norm = reduced_residual(q, lc, R, true);
      } catch (const DomainError&) {
        return false;
      }
      const double scale = detail::static_force_scale(model_, line_, lc, q);
      const double floor = detail::roundoff_floor(line_, q, lc.seabed_z ? lc.seabed.kBot * lc.load_factor : 0.0);
      if (opt_.verbose)
        std::fprintf(stderr, "%s newton r=%g lf=%g it %d |R| %.3e scale %.3e floor %.3e\n", line_.name().c_str(),
                     lc.compression_ratio, lc.load_factor, k, norm, scale, floor);
      if (converged(norm, scale, 0)) return true;
      if (norm < floor && norm >= stall) return true;  // stopped decreasing inside the floor
      stall = norm;
      if (!lu_.factor(K_).ok()) {
        if (opt_.verbose) std::fprintf(stderr, "  LU failed: %s\n", lu_.result().error(line_.name()).what());
        return false;
      }
      d.col(0) = -R;
      lu_.solve(d);
      VecX<double> dq = d.col(0);
      cons_.expand(dq);
      const double phi = 0.5 * R.squaredNorm();
      double alpha = 1;
      bool accepted = false;
      for (int ls = 0; ls < 30; ++ls, alpha *= 0.5) {
        const VecX<double> qt = q + alpha * dq;
        try {
          reduced_residual(qt, lc, Rt, false);
        } catch (const DomainError&) {
          continue;
        }
        if (0.5 * Rt.squaredNorm() <= (1 - 2e-4 * alpha) * phi) {
          q = qt;
          accepted = true;
          break;
        }
      }
      if (!accepted) return norm < floor;
    }
    return false;
  }

  // A Levenberg-Marquardt stage whose line search descends the potential energy (a current
  // drag frozen at the base point of each search).
  bool lm_stage(VecX<double>& q, const StaticLoadCase& lc_in, int& it) {
    VecX<double> R, Rlive;
    MatX<double> d(n_, 1);
    double mu = 1e-6 * kmax_;
    const double mu_min = 1e-12 * kmax_;
    for (int k = 0; k < opt_.max_iterations; ++k, ++it) {
      StaticLoadCase lc = lc_in;
      VecX<double> drag;
      if (lc.current) {
        line_current_drag(model_, line_, *lc.current, q, drag, lc.surface_z);
        drag *= lc.drag_factor;
        lc.frozen_drag = &drag;
      }
      double norm_live;
      try {
        norm_live = reduced_residual(q, lc_in, Rlive, false);
        reduced_residual(q, lc, R, true);
      } catch (const DomainError&) {
        return false;
      }
      const double scale = detail::static_force_scale(model_, line_, lc_in, q);
      if (opt_.verbose)
        std::fprintf(stderr, "%s LM r=%g lf=%g it %d |R| %.3e scale %.3e mu %.3e\n", line_.name().c_str(),
                     lc.compression_ratio, lc.load_factor, k, norm_live, scale, mu);
      const double floor = detail::roundoff_floor(line_, q, lc.seabed_z ? lc.seabed.kBot * lc.load_factor : 0.0);
      if (converged(norm_live, scale, floor)) return true;
      const double E0 = line_potential_energy(model_, line_, lc, q);
      bool accepted = false;
      for (int tries = 0; tries < 12 && !accepted; ++tries) {
        // (K + mu I) on the free DOFs.
        K_.set_zero();
        line_static_residual<double>(model_, line_, lc, q, R, &K_);
        cons_.reduce_residual(R);
        cons_.reduce_matrix(K_);
        for (Eigen::Index i = 0; i < n_; ++i)
          if (!cons_.held(i)) K_.add(i, i, mu);
        if (!lu_.factor(K_).ok()) {
          mu *= 10;
          continue;
        }
        d.col(0) = -R;
        lu_.solve(d);
        VecX<double> dq = d.col(0);
        cons_.expand(dq);
        const double slope = -R.dot(d.col(0));  // R . dq < 0 for a descent direction
        double alpha = 1;
        for (int ls = 0; ls < 8; ++ls, alpha *= 0.5) {
          const VecX<double> qt = q + alpha * dq;
          double Et;
          try {
            Et = line_potential_energy(model_, line_, lc, qt);
          } catch (const DomainError&) {
            continue;
          }
          if (Et <= E0 - 1e-4 * alpha * slope) {
            q = qt;
            accepted = true;
            break;
          }
        }
        if (!accepted) mu *= 10;
      }
      if (!accepted) {
        // No descent left: converged only if the residual is inside the round-off floor.
        return norm_live < floor * 10;
      }
      mu = std::max(mu / 3, mu_min);
    }
    return false;
  }

  const Line& line_;
  StaticProblem prob_;
  StaticOptions opt_;
  LineConstraints cons_;
  LineModel<double> model_;  // the line's load model (its residual, tangent, energy and drag)
  Eigen::Index n_;
  BandMatrix<double> K_;
  BandLU<double> lu_;
  double kmax_ = 0, EAmax_ = 0;
};

using TensionStatics = BasicTensionStatics<>;

}  // namespace cabledyn
