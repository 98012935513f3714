// cabledyn: static equilibrium of a mooring system.
// Spec "Static equilibrium" (R = f_int - f_ext = 0 on the free DOFs, Newton with a line
// search, the convergence test ||R||_inf / s), "Attached objects and line ends" (the
// initialisation sequence: every line first with the objects held where the deck puts them,
// then the coupled system).
//
// Stage 1 solves each line alone between its end points (the EI = 0 line statics with its
// seeds and fallbacks) and places its interior nodes there. Stage 2 runs Newton on the whole
// system, lines and free points together, on the bordered Jacobian, with a backtracking line
// search on ||R||_2. The whole solve is templated on T: with T a dual, stage 2 carries the
// derivative parts, and once the values have converged `dual_iterations` further Newton
// steps converge the derivatives (a Newton step at the solution maps q' to -J^-1 dR/dp
// exactly), so d(result)/d(parameter) is exact to the residual.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/statics/hermite_statics.hpp"
#include "cabledyn/statics/tension_statics.hpp"
#include "cabledyn/system/mooring_system.hpp"
#include "cabledyn/system/system_audit.hpp"

namespace cabledyn {

/// Options of the system statics.
struct SystemStaticOptions {
  double tol = 1e-10;          ///< ||R||_inf / s, s the force scale
  double abs_tol = 1e-14;      ///< ||R||_inf [N]
  int max_iterations = 100;    ///< Newton iterations of the polish (stage 3)
  int max_point_iterations = 200;  ///< trust-region iterations of the point balance (stage 2)
  bool seed_lines = true;      ///< stage 1: solve every line alone with its ends held
  int dual_iterations = 2;     ///< Newton steps after convergence when T is a dual
  bool verbose = false;        ///< print each iteration to stderr
  /// Pseudo-transient continuation after a failed Newton polish (detail::ptc_polish): its
  /// largest number of steps (0: none) and its first mass weight w [1/s^2] (a pseudo time step
  /// of 1/sqrt(w)).
  int ptc_iterations = 2000;
  double ptc_weight = 100;
  /// The physical-branch audit of the equilibrium (system/system_audit.hpp: every finite-EI
  /// line unfolded and clear of self-contact, the system stable); false returns an unstable
  /// equilibrium unaudited (a study that traces one on purpose).
  bool audit = true;
};

/// Outcome of a system static solve.
struct SystemStaticResult {
  int point_iterations = 0; ///< trust-region iterations of the point balance (stage 2)
  int iterations = 0;       ///< Newton iterations of the polish (stage 3)
  double residual = 0;      ///< ||R||_inf at the solution [N]
  double scale = 0;         ///< force scale s [N]: the largest of the lines' and points' weights and end forces
  double floor = 0;         ///< round-off floor of the nodal forces [N]: 8 eps |x|_max max(EA / L0)
  std::vector<std::string> notes;  ///< notes for the run summary
};

namespace detail {
template <class T>
double inf_norm(const VecX<T>& R) {
  double m = 0;
  for (Eigen::Index i = 0; i < R.size(); ++i) m = std::max(m, std::fabs(static_cast<double>(value_of(R(i)))));
  return m;
}
template <class T>
double two_norm(const VecX<T>& R) {
  double m = 0;
  for (Eigen::Index i = 0; i < R.size(); ++i) {
    const double v = static_cast<double>(value_of(R(i)));
    m += v * v;
  }
  return std::sqrt(m);
}

/// True when line l's end `end` is on a direction joint (BodyModel::joint).
template <class T>
bool at_joint(const MooringSystem<T>& sys, int l, int end) {
  const auto& P = sys.point(sys.line(l).point[end]);
  return P.kind == PointKind::body && sys.body(P.body).joint;
}

/// Turns every direction joint of state s to the weighted mean of the unit end tangents of the
/// lines clamped (or on springs) to it, each along the joint's axis (d0 = +z or -z), weighted by
/// its bending stiffness EI / l0 at that end: the linearised balance of their connection
/// moments k_i (t_i - d) = 0; the clamped tangents are then turned onto the new axis, their
/// magnitudes (the ends' stretch) kept. The lines
/// are solved pinned at the joints before (solve_lines_held): free[l][e] holds line l's end
/// tangent there (zero: not solved, its present tangent is taken).
template <class T>
void orient_joints(const MooringSystem<T>& sys, SystemState<T>& s, const std::vector<std::array<Vec3<T>, 2>>& free) {
  for (std::size_t b = 0; b < sys.n_bodies(); ++b) {
    const int bi = static_cast<int>(b);
    if (!sys.body(bi).joint) continue;
    const Eigen::Index rd = sys.body_row(bi, 3);
    if (rd < 0) continue;
    Vec3<T> axis = Vec3<T>::Zero();
    for (std::size_t l = 0; l < sys.n_lines(); ++l)
      for (int e = 0; e < 2; ++e) {
        const auto& L = sys.line(static_cast<int>(l));
        const auto& P = sys.point(L.point[e]);
        if (P.kind != PointKind::body || P.body != bi || !(L.clamped[e] || L.spring_k[e] > 0)) continue;
        const std::size_t i = e == 0 ? 0 : L.model.n_nodes() - 1;
        const T k = T(L.model.end_bending_stiffness(e));
        const Vec3<T> m = free[l][e].squaredNorm() > T(0) ? free[l][e] : sys.node_tangent(s, static_cast<int>(l), i);
        const T n = sqrt_or_zero(T(m.squaredNorm()));
        if (!(value_of(n) > 0)) continue;
        axis += (value_of(L.clamp_dir[e](2)) > 0 ? k : T(-k)) * m / n;
      }
    const T an = sqrt_or_zero(T(axis.squaredNorm()));
    if (!(value_of(an) > 0)) continue;
    axis /= an;
    // The turn from the present axis onto the new one, folded into the rotation increment.
    Vec3<T> r;
    Mat3<T> R;
    sys.body_pose(s, bi, r, R);
    const Mat3<T> Rn = so3_between<T>(Vec3<T>(R.col(2)), axis) * R;
    s.q.template segment<3>(rd) = so3_log<T>(Mat3<T>(Rn * s.R[b].transpose()));
    for (std::size_t l = 0; l < sys.n_lines(); ++l)
      for (int e = 0; e < 2; ++e) {
        const auto& L = sys.line(static_cast<int>(l));
        const auto& P = sys.point(L.point[e]);
        if (P.kind != PointKind::body || P.body != bi || !L.clamped[e]) continue;
        const std::size_t i = e == 0 ? 0 : L.model.n_nodes() - 1;
        // Turned onto the axis with its magnitude (the end's stretch) kept.
        const Vec3<T> m = free[l][e].squaredNorm() > T(0) ? free[l][e] : sys.node_tangent(s, static_cast<int>(l), i);
        sys.set_node_tangent(s, static_cast<int>(l), i,
                             Vec3<T>(sqrt_or_zero(T(m.squaredNorm())) * sys.clamp_direction(s, static_cast<int>(l), e)));
      }
  }
}

/// Solves every line of `sys` alone, its end points held where state s puts them, and
/// places its interior nodes (the line statics with its seeds and fallbacks: a slack or
/// grounded line is solved as robustly as a standalone one). Throws the line statics' errors.
/// With `warm`, a line with a clamped or spring end is first solved from its configuration in s (the
/// branch it is on: a clamped cable may have several equilibria between the same ends, and
/// the point balance must not jump between them), from the line statics' own seeds when that
/// fails. A line clamped to a direction joint is solved pinned there first, the joint turned to
/// its lines (orient_joints), and the line solved again with its clamp (joint_pass 1).
/// With `notes`, the Hermite line statics' notes are appended to it, each naming its line
/// (and a failed Hermite statics' error, the line then seeded without bending, ending with
/// kSeededWithoutBending).
inline constexpr const char* kSeededWithoutBending =
    "seeded by its equilibrium without bending, the system polish brings the bending in";
template <class T>
void solve_lines_held(const MooringSystem<T>& sys, SystemState<T>& s, const std::vector<int>* only_points = nullptr,
                      bool warm = false, int joint_pass = 0, std::vector<std::string>* notes = nullptr) {
  std::vector<std::array<Vec3<T>, 2>> joint_m(sys.n_lines(), {Vec3<T>::Zero(), Vec3<T>::Zero()});
  bool joints = false;
  for (std::size_t l = 0; l < sys.n_lines(); ++l) {
    const int li = static_cast<int>(l);
    const auto& L = sys.line(li);
    if (only_points && std::find(only_points->begin(), only_points->end(), L.point[0]) == only_points->end() &&
        std::find(only_points->begin(), only_points->end(), L.point[1]) == only_points->end())
      continue;
    bool on_joint = false;
    for (int e = 0; e < 2; ++e) on_joint = on_joint || ((L.clamped[e] || L.spring_k[e] > 0) && at_joint(sys, li, e));
    joints = joints || on_joint;
    if (joint_pass == 1 && !on_joint) continue;
    Vec3<double> ends[2];
    for (int e = 0; e < 2; ++e) {
      const Vec3<T> p = sys.point_position(s, L.point[e]);
      for (int c = 0; c < 3; ++c) ends[e](c) = static_cast<double>(value_of(p(c)));
    }
    // The line statics take End A as the upper end (the fairlead side, as the single-line
    // driver orients its lines): a line written from below is solved seen from End B.
    const bool reversed = ends[0](2) < ends[1](2);
    // A clamped end (spec "Cables clamped to bodies and rods"): a Rigid end of the line
    // statics along its object's present direction.
    // A spring end: the line statics' spring end about the same direction.
    // An end on a direction joint is solved pinned in bending: the joint then turns to its
    // lines' tangents (orient_joints, below).
    Vec3<double> dir[2];
    bool held[2];
    for (int e = 0; e < 2; ++e) {
      held[e] = (L.clamped[e] || L.spring_k[e] > 0) && (joint_pass == 1 || !at_joint(sys, li, e));
      if (held[e]) dir[e] = MooringSystem<T>::value3(sys.clamp_direction(s, li, e));
    }
    Line line = reversed ? L.model.value_line(ends[1], ends[0], true, held[0] ? &dir[0] : nullptr,
                                              held[1] ? &dir[1] : nullptr, L.spring_k[0], L.spring_k[1])
                         : L.model.value_line(ends[0], ends[1], false, held[0] ? &dir[0] : nullptr,
                                              held[1] ? &dir[1] : nullptr, L.spring_k[0], L.spring_k[1]);
    StaticProblem prob;
    prob.seabed_z = L.model.seabed().z;
    prob.seabed = L.model.seabed().params;
    // The system's current: uniform, or a field (a depth profile) sampled at the line's nodes
    // as the system's static residual samples it, so the line solved here is the system's.
    if (!sys.current().isZero()) prob.current = SteadyCurrent::uniform(sys.current());
    if (sys.has_current_field()) prob.current = SteadyCurrent{sys.current_field()};
    const std::size_t n = L.model.n_nodes();
    if (L.model.hermite()) {
      // A finite-EI line: the Hermite statics (its ends pinned in bending or clamped, on the line's own
      // mesh) places the interior positions and every tangent (seen from End B: m reversed).
      // When the Hermite statics fails (a mesh too coarse for the bending length, whose
      // refinement is not implemented), the line without bending seeds it: its EI = 0
      // equilibrium, the tangents by differences of the node positions over the unstretched
      // arc length; the system polish then brings the bending in.
      StaticResult r;
      bool solved = false;
      if ((warm || joint_pass == 1) && (held[0] || held[1])) {
        VecX<T> x;
        sys.line_gather(s, li, 0, x);
        VecX<double> seed(6 * static_cast<Eigen::Index>(n));
        for (std::size_t i = 0; i < n; ++i) {
          const auto j = static_cast<Eigen::Index>(6 * (reversed ? n - 1 - i : i)), k = static_cast<Eigen::Index>(6 * i);
          for (int c = 0; c < 3; ++c) {
            seed(j + c) = static_cast<double>(value_of(x(k + c)));
            seed(j + 3 + c) = static_cast<double>(value_of(reversed ? -x(k + 3 + c) : x(k + 3 + c)));
          }
        }
        try {
          r = HermiteStatics(line, prob).solve_from(seed, false, "the line's present configuration");
          solved = true;
        } catch (const SolveError&) {
        }
      }
      // A line whose statics fail in the current field is solved in still water: the system
      // polish brings the current in (the stage before the field reached it).
      if (!solved && sys.has_current_field()) {
        try {
          r = HermiteStatics(line, prob).solve();
          solved = true;
        } catch (const SolveError& e) {
          prob.current.reset();
          if (notes) notes->push_back(L.model.name() + " (line statics): not solved in the current field (" + e.what() +
                                      "); solved in still water, the system polish brings the current in");
        }
      }
      if (!solved) try {
        r = HermiteStatics(line, prob).solve();
      } catch (const SolveError& e) {
        if (joint_pass == 1) continue;  // keeps the pinned solution turned onto the joint's axis
        if (warm) throw;  // the line without bending is no equilibrium to balance on
        if (notes)
          notes->push_back(L.model.name() + " (line statics): " + e.what() + "; " + std::string(kSeededWithoutBending));
        std::vector<LineSection> secs = line.sections();
        for (auto& sec : secs) sec.type.EI = 0;
        LineEnd fa = line.end(0), fb = line.end(1);
        fa.rotation = fb.rotation = EndRotation::free;  // no tangent without bending
        const Line flat(line.name(), std::move(secs), fa, fb, line.environment(), line.options());
        const StaticResult rf = TensionStatics(flat, prob).solve();
        r.q.setZero(static_cast<Eigen::Index>(6 * n));
        for (std::size_t i = 0; i < n; ++i) {
          const std::size_t i0 = i == 0 ? 0 : i - 1, i1 = i + 1 == n ? i : i + 1;
          const Vec3<double> d = rf.q.segment<3>(static_cast<Eigen::Index>(3 * i1)) - rf.q.segment<3>(static_cast<Eigen::Index>(3 * i0));
          r.q.segment<3>(static_cast<Eigen::Index>(6 * i)) = rf.q.segment<3>(static_cast<Eigen::Index>(3 * i));
          r.q.segment<3>(static_cast<Eigen::Index>(6 * i + 3)) = d / (flat.s_node(i1) - flat.s_node(i0));
        }
      }
      if (notes && !(joint_pass == 0 && on_joint))  // a line on a joint: its second pass's notes
        for (const auto& note : r.notes) notes->push_back(L.model.name() + " (line statics): " + note);
      if (r.q.size() != static_cast<Eigen::Index>(6 * n))
        throw SolveError(L.model.name(), "Hermite statics seed size", static_cast<double>(r.q.size()),
                         std::to_string(6 * n) + " (the line's own mesh)");
      for (std::size_t i = 0; i < n; ++i) {
        const auto j = static_cast<Eigen::Index>(6 * (reversed ? n - 1 - i : i));
        const Eigen::Index d = sys.node_dof(li, i);
        Vec3<T> m;
        for (int c = 0; c < 3; ++c) {
          if (i > 0 && i + 1 < n) s.q(d + c) = T(r.q(j + c));
          m(c) = T(reversed ? -r.q(j + 3 + c) : r.q(j + 3 + c));
        }
        const int je = i == 0 ? 0 : i + 1 == n ? 1 : -1;
        if (je >= 0 && (L.clamped[je] || L.spring_k[je] > 0) && at_joint(sys, li, je)) joint_m[l][static_cast<std::size_t>(je)] = m;
        sys.set_node_tangent(s, li, i, m);  // a clamped end: lambda on its ray
      }
      continue;
    }
    StaticResult r;
    try {
      r = TensionStatics(line, prob).solve();
    } catch (const SolveError& e) {
      if (!sys.has_current_field()) throw;
      prob.current.reset();  // as a finite-EI line's, above
      if (notes) notes->push_back(L.model.name() + " (line statics): not solved in the current field (" + e.what() +
                                  "); solved in still water, the system polish brings the current in");
      r = TensionStatics(line, prob).solve();
    }
    for (std::size_t i = 1; i + 1 < n; ++i) {
      const Eigen::Index d = sys.node_dof(li, i);
      const auto j = static_cast<Eigen::Index>(3 * (reversed ? n - 1 - i : i));
      for (int c = 0; c < 3; ++c) s.q(d + c) = T(r.q(j + c));
    }
  }
  if (joint_pass == 1 || !joints) return;
  // The lines on the joints, solved pinned there, are turned onto the joints' axes; their
  // statics with the clamps along them then takes the ends' bending in (from the turned
  // configuration, then cold; a line whose statics fails keeps the turned one).
  orient_joints(sys, s, joint_m);
  solve_lines_held(sys, s, only_points, warm, 1, notes);
}

}  // namespace detail

/// Solves the statics of `sys` from state `s` (positions updated in place; v and a zeroed),
/// in the spec's sequence (spec "Static equilibrium", "EI = 0 path" and the initialisation of
/// coupled systems):
///  1. every line alone, its end objects held where the deck puts them;
///  2. the free points placed at their force balance: a trust-region Newton iteration on the
///     point positions whose residual sums the attached lines' end forces (each line re-solved
///     for the moving ends), the points' weight and buoyancy; its Jacobian by central
///     differences of the re-solved lines; a step is accepted when it lowers the potential
///     energy (Armijo), so a point on slack lines falls until they take it, or when it halves
///     the imbalance;
///  3. a Newton polish of the whole system, lines and points together, to ||R||_inf <=
///     max(tol s, abs_tol, floor); with T a dual, `dual_iterations` more steps converge the
///     derivative parts.
/// When stage 2 stops, the polish continues from its last positions with a note. When the
/// polish stops (a singular tangent: a slack run, whose nodes no force places, or a body that
/// turns neutrally; no decrease along the Newton step), a pseudo-transient continuation
/// (detail::ptc_polish) takes over from the stage-2 state, and when that does not converge
/// either the stage-2 equilibrium is kept with a note when its residual is within 1e-4 of the
/// force scale (double and long double; a dual solve throws: its derivatives need the
/// tangent).
/// With finite-EI lines, stages 1 and 2 run on the surrogate system whose finite-EI lines
/// carry no bending, each finite-EI line is then solved alone (the Hermite statics) between
/// the balanced objects, and the polish brings the bending in. Throws SolveError naming the
/// system, the stage and the residual when no equilibrium is found, and the line statics'
/// errors.
namespace detail {
template <class T>
SystemStaticResult solve_statics_numbered(MooringSystem<T>& sys, SystemState<T>& s, const SystemStaticOptions& opt);
template <class T>
SystemStaticResult solve_statics_loose(MooringSystem<T>& sys, SystemState<T>& s, const SystemStaticOptions& opt);
}  // namespace detail

/// Solves the statics of `sys` from state `s` (see detail::solve_statics_numbered for the
/// stages). A free or pinned body that no line is attached to (nor, for a body pinned on a
/// parent, to its parent) is not an unknown (spec "Rigid-body initial condition": it keeps its
/// deck pose and starts at rest there): it is held where state s (or the deck) puts it while
/// the rest is solved. The equilibrium is audited (SystemStaticOptions::audit,
/// audit_static_branch: SolveError naming the line and element of a fold or self-contact, or
/// the lines and objects with negative eigenvalues of an unstable equilibrium) and, with
/// tensile_safety on (MooringSystem::set_tensile_safety), its tension with the statics' band
/// (SolveError naming the line and element). s is left as it was when a solve or an audit
/// throws.
template <class T>
SystemStaticResult solve_statics(MooringSystem<T>& sys, SystemState<T>& s, const SystemStaticOptions& opt = {}) {
  // tensile_safety (MooringSystem::set_tensile_safety): the equilibrium audited once, with the
  // statics' band, as the single-line Hermite statics (not the stages' intermediate states,
  // which check_state would audit with the march's band).
  // The solve works on a copy of s: an equilibrium the audits refuse is not committed.
  const bool audit = sys.tensile_safety();
  const double eps = sys.tensile_strain_tolerance();
  if (audit) sys.set_tensile_safety(false, eps);
  SystemStaticResult out;
  SystemState<T> w = s;
  try {
    out = detail::solve_statics_loose(sys, w, opt);
  } catch (...) {
    if (audit) sys.set_tensile_safety(true, eps);
    throw;
  }
  if (audit) {
    sys.set_tensile_safety(true, eps);
    sys.tensile_check(w, true);
  }
  s = std::move(w);
  return out;
}

namespace detail {
// The statics with the loose bodies (no line holds them) held at their pose.
template <class T>
SystemStaticResult solve_statics_loose(MooringSystem<T>& sys, SystemState<T>& s, const SystemStaticOptions& opt) {
  sys.renumber();
  if (s.q.size() != sys.dofs() || s.R.size() != sys.n_bodies()) s = sys.initial_state();
  std::vector<int> loose;
  auto tied = [&](int b) {
    for (std::size_t l = 0; l < sys.n_lines(); ++l)
      for (int e = 0; e < 2; ++e) {
        const auto& P = sys.point(sys.line(static_cast<int>(l)).point[e]);
        if (P.kind == PointKind::body && P.body == b) return true;
      }
    return false;
  };
  for (std::size_t b = 0; b < sys.n_bodies(); ++b) {
    const auto& B = sys.body(static_cast<int>(b));
    if (B.kind != BodyKind::free && B.kind != BodyKind::pinned) continue;
    // A body pinned on a parent is tied when its parent is (spec: nor any line of its body).
    const bool attached = tied(static_cast<int>(b)) || (B.kind == BodyKind::pinned && B.parent >= 0 && tied(B.parent));
    if (!attached) loose.push_back(static_cast<int>(b));
  }
  // The physical-branch audit, in the numbering the equilibrium was solved in (a loose body
  // held: it is at rest where the deck puts it, not in equilibrium).
  // A branch the audit refuses on a finite-EI line whose own statics had failed (the line
  // then seeded without bending: a bow the Hermite statics do not walk, a mesh too coarse)
  // names that failure too: it, not the polish, says why.
  auto solve = [&](SystemState<T>& st) {
    SystemStaticResult r = detail::solve_statics_numbered(sys, st, opt);
    if (opt.audit) try {
      audit_static_branch(sys, st);
    } catch (const SolveError& e) {
      std::string before;
      for (const auto& n : r.notes)
        if (n.find(kSeededWithoutBending) != std::string::npos) before += (before.empty() ? "" : "; ") + n;
      if (before.empty()) throw;
      throw SolveError(e.object(), e.quantity(), e.value(), e.limit() + "; the line statics before: " + before);
    }
    return r;
  };
  if (loose.empty()) return solve(s);
  // Hold the loose bodies at their pose in s, solve the rest, then restore them as DOFs.
  const SystemState<T> full = s;
  const Eigen::Index npos = sys.position_dofs();  // line and point DOFs: the same in both numberings
  std::vector<Eigen::Index> dof_full(sys.n_bodies()), dof_reduced(sys.n_bodies());
  for (std::size_t b = 0; b < sys.n_bodies(); ++b) dof_full[b] = sys.body_dof(static_cast<int>(b));
  std::vector<BodyKind> kinds;
  std::vector<Vec3<T>> r0;
  std::vector<Mat3<T>> R0;
  // Every pose first, then the kinds (a body pinned on a loose parent takes its pin from the
  // parent's pose in the full numbering).
  std::vector<Vec3<T>> rl(loose.size());
  std::vector<Mat3<T>> Rl(loose.size());
  for (std::size_t i = 0; i < loose.size(); ++i) sys.body_pose(full, loose[i], rl[i], Rl[i]);
  for (std::size_t i = 0; i < loose.size(); ++i) {
    auto& B = sys.body(loose[i]);
    kinds.push_back(B.kind);
    r0.push_back(B.r);
    R0.push_back(B.R);
    B.r = rl[i];
    B.R = Rl[i];
    B.kind = BodyKind::fixed;
  }
  auto restore = [&] {
    for (std::size_t i = 0; i < loose.size(); ++i) {
      auto& B = sys.body(loose[i]);
      B.kind = kinds[i];
      B.r = r0[i];
      B.R = R0[i];
    }
    sys.renumber();
  };
  sys.renumber();
  SystemState<T> reduced = sys.initial_state();
  reduced.q.head(npos) = full.q.head(npos);
  for (std::size_t b = 0; b < sys.n_bodies(); ++b) {
    dof_reduced[b] = sys.body_dof(static_cast<int>(b));
    reduced.R[b] = full.R[b];
    if (dof_reduced[b] >= 0)
      reduced.q.segment(dof_reduced[b], sys.body_ndof(static_cast<int>(b))) =
          full.q.segment(dof_full[b], sys.body_ndof(static_cast<int>(b)));
  }
  SystemStaticResult out;
  try {
    out = solve(reduced);
  } catch (...) {
    restore();
    throw;
  }
  restore();
  // Back to the full numbering: the solved DOFs, the loose bodies where they were, at rest.
  SystemState<T> result = full;
  result.q.head(npos) = reduced.q.head(npos);
  for (std::size_t b = 0; b < sys.n_bodies(); ++b)
    if (dof_reduced[b] >= 0) {
      result.q.segment(dof_full[b], sys.body_ndof(static_cast<int>(b))) =
          reduced.q.segment(dof_reduced[b], sys.body_ndof(static_cast<int>(b)));
      result.R[b] = reduced.R[b];
    }
  result.v.setZero(sys.dofs());
  result.a.setZero(sys.dofs());
  sys.commit(result);
  s = result;
  out.notes.push_back(std::to_string(loose.size()) +
                      " free or pinned bodies without lines kept their pose (not unknowns of the statics)");
  return out;
}
}  // namespace detail

namespace detail {
/// Pseudo-transient continuation of the static residual from s (as the spec's attachment
/// statics retry a damped Newton solve, "Discrete attachments"): steps (K + w M) dx = -R,
/// K = dR/dq, M the system's mass matrix (MooringSystem::inertia: the lines', points' and
/// bodies' structural and added mass, a joint's roll), i.e. implicit steps of a pseudo
/// dynamics of time step 1/sqrt(w) that restarts at rest each step. The mass regularises what
/// the stiffness leaves free (a slack line, a body turning neutrally about its lines' axis)
/// and damps a far start; w follows the residual (switched evolution relaxation: w times the
/// ratio of successive ||R||_2, halved again after a decrease, above 1e-6 of its first value),
/// so the steps become Newton's near the solution. A step may raise ||R||_2 by at most 2x
/// and turns a body by at most 0.25 rad; a refused step or a singular matrix multiplies w by
/// 10. Returns true (s the solution) when ||R||_inf <= target within opt.ptc_iterations steps,
/// false otherwise (s then the last accepted state). steps: the steps taken.
template <class T>
bool ptc_polish(MooringSystem<T>& sys, SystemState<T>& s, double target, const SystemStaticOptions& opt,
                BorderedJacobian<T>& J, int& steps) {
  VecX<T> R, Rt, Ma, dx;
  s.v.setZero(sys.dofs());
  s.a.setZero(sys.dofs());
  SystemState<T> trial = s;
  const double w0 = opt.ptc_weight, w_min = 1e-6 * w0;
  double w = w0;
  sys.static_residual(s, R, &J);
  double rn = two_norm(R);
  for (steps = 0; steps < opt.ptc_iterations; ++steps) {
    if (!std::isfinite(rn)) return false;
    const double rinf = inf_norm(R);
    if (opt.verbose) {
      Eigen::Index im = 0;
      for (Eigen::Index i = 0; i < R.size(); ++i)
        if (std::fabs(static_cast<double>(value_of(R(i)))) >= rinf) im = i;
      std::fprintf(stderr, "%s: pseudo-transient step %d ||R||_inf %.6e at %s, w %.3e\n", sys.name().c_str(), steps, rinf,
                   sys.describe_dof(im).c_str(), w);
    }
    if (rinf <= target) return true;
    sys.inertia(s, Ma, &J, T(w), T(0));  // + w M (s at rest: M a = 0)
    dx = -R;
    bool ok = true;
    try {
      J.solve(dx);
    } catch (const SolveError&) {
      ok = false;
    }
    if (ok) {
      double f = 1;  // a body turns by at most 0.25 rad
      for (std::size_t b = 0; b < sys.n_bodies(); ++b) {
        const Eigen::Index rd = sys.body_row(static_cast<int>(b), 3);
        if (rd < 0) continue;
        const double turn = static_cast<double>(value_of(sqrt_or_zero(T(dx.template segment<3>(rd).squaredNorm()))));
        if (turn > 0.25) f = std::min(f, 0.25 / turn);
      }
      trial.q = s.q + T(f) * dx;
      trial.R = s.R;
      sys.static_residual(trial, Rt, nullptr);
      const double rt = two_norm(Rt);
      ok = std::isfinite(rt) && rt <= 2 * rn;
      if (ok) {
        s.q = trial.q;
        sys.commit(s);
        w = std::max(w_min, rt < rn ? 0.5 * w * rt / rn : w * rt / rn);
        rn = rt;
        sys.static_residual(s, R, &J);
        continue;
      }
    }
    w *= 10;  // a shorter pseudo step
    if (w > 1e12 * w0) return false;
    sys.static_residual(s, R, &J);  // the solve consumed J
  }
  return false;
}

/// Solves the statics of `sys` from state `s` (positions updated in place; v and a zeroed),
/// in the spec's sequence (see solve_statics).
template <class T>
SystemStaticResult solve_statics_numbered(MooringSystem<T>& sys, SystemState<T>& s, const SystemStaticOptions& opt) {
  using Index = Eigen::Index;
  sys.renumber();
  if (s.q.size() != sys.dofs() || s.R.size() != sys.n_bodies()) s = sys.initial_state();
  s.v.setZero(sys.dofs());
  s.a.setZero(sys.dofs());
  SystemStaticResult out;
  // Finite-EI lines (spec "Cables clamped to bodies and rods": the static solve carries the
  // cable first without bending): stages 1 and 2 run on the surrogate system whose Hermite
  // lines have no bending (EI = 0 lines, robust line statics and smooth end forces), its
  // objects' equilibrium seeds this one, each Hermite line is then solved alone between
  // them (the Hermite statics) and stage 3 brings the bending's share of the end forces in.
  // A clamped or spring end's connection moment has no share in a line without bending: with
  // such ends the objects are balanced on the Hermite lines themselves (stage 2, each
  // re-solved by the Hermite statics with its clamp or spring).
  bool surrogate = false;
  if (opt.seed_lines && sys.has_finite_ei_lines() && !sys.has_end_connections() && sys.dofs() > sys.line_dofs()) {
    MooringSystem<T> flat = sys;
    for (std::size_t l = 0; l < flat.n_lines(); ++l) {
      auto& m = flat.line(static_cast<int>(l)).model;
      if (!m.hermite()) continue;
      for (auto& sec : m.sections()) sec.EI = 0;
      m.rebuild();
      for (int e = 0; e < 2; ++e) flat.unclamp_end(static_cast<int>(l), e);  // no tangent without bending
    }
    flat.renumber();
    SystemState<T> sf = flat.initial_state();
    const Index no = sys.dofs() - sys.line_dofs();  // the objects' DOFs, last in both numberings
    sf.q.tail(no) = s.q.tail(no);
    sf.R = s.R;
    const SystemStaticResult rf = solve_statics_numbered(flat, sf, opt);
    s.q.tail(no) = sf.q.tail(no);
    s.R = sf.R;
    out.point_iterations = rf.point_iterations;
    for (const auto& n : rf.notes) out.notes.push_back("the objects' balance without bending: " + n);
    out.notes.push_back("the objects were balanced with the finite-EI lines carried without bending first");
    surrogate = true;
  }
  // Stage 1: each line alone, its end points held where they are.
  if (opt.seed_lines) detail::solve_lines_held(sys, s, nullptr, false, 0, &out.notes);
  // Force scale: the largest weight, buoyancy, point load and end force in the system.
  const double scale = sys.force_scale(s);
  out.scale = scale;
  // Round-off floor: a node's force differences element forces whose chords carry a rounding
  // of eps |x| each, amplified by the element stiffness EA / L0.
  double xmax = 1, kmax = 0;
  for (std::size_t p = 0; p < sys.n_points(); ++p) {
    const Vec3<T> r = sys.point_position(s, static_cast<int>(p));
    for (int c = 0; c < 3; ++c) xmax = std::max(xmax, std::fabs(static_cast<double>(value_of(r(c)))));
  }
  for (Index i = 0; i < s.q.size(); ++i) xmax = std::max(xmax, std::fabs(static_cast<double>(value_of(s.q(i)))));
  for (std::size_t l = 0; l < sys.n_lines(); ++l) {
    const auto& m = sys.line(static_cast<int>(l)).model;
    for (std::size_t e = 0; e < m.n_elements(); ++e) {
      kmax = std::max(kmax, static_cast<double>(value_of(m.EA(e) / m.L0(e))));
    }
  }
  out.floor = 8 * static_cast<double>(epsilon<T>()) * xmax * kmax;
  const double target = std::max({opt.tol * scale, opt.abs_tol, out.floor});
  auto J = sys.make_jacobian();
  VecX<T> R, dx, Rt;
  SystemState<T> trial = s;
  const Index first_obj = J.object_offset();

  // Stage 2: the free points at their force balance, each line re-solved for moving ends.
  // The residual is a function of the point positions alone (the lines re-solved); its
  // Jacobian is taken by central differences of the re-solved lines (a slack or grounded line
  // has no smooth tangent that predicts its re-solved end force), the step is a Newton step
  // clipped to a trust region that grows on success and shrinks on failure, and the merit is
  // the potential energy (whose gradient the residual is; flat where a point hangs on slack
  // lines, where the energy still falls).
  if (first_obj < sys.dofs() && opt.seed_lines && !surrogate) try {
    const Index no = sys.dofs() - first_obj;
    // The objects of the balance: each free point (3 DOFs, its own lines re-solved when it
    // moves) and each free body (6 DOFs, the lines of its points re-solved), with the scales
    // that make forces and moments, metres and radians comparable: rotations times the body's
    // length scale L (its largest attachment arm, at least 1 m), moments divided by it.
    struct Obj {
      Index dof;
      int n;
      std::vector<int> points;
      double L = 1;
      int rot = -1;  // first rotation DOF within the object (-1: none)
    };
    std::vector<Obj> objs;
    // A direction joint's rotation is not an unknown here: its lines are solved pinned there and
    // the joint turned to their tangents (orient_joints); its moment rows are left to the polish.
    std::vector<Index> joint_rows;
    for (std::size_t p = 0; p < sys.n_points(); ++p)
      if (sys.point_dof(static_cast<int>(p)) >= 0) objs.push_back({sys.point_dof(static_cast<int>(p)), 3, {static_cast<int>(p)}, 1, -1});
    for (std::size_t b = 0; b < sys.n_bodies(); ++b) {
      if (sys.body_dof(static_cast<int>(b)) < 0) continue;
      const int nd = sys.body_ndof(static_cast<int>(b));
      const bool joint = sys.body(static_cast<int>(b)).joint;
      if (joint)
        for (int c = 0; c < 3; ++c) joint_rows.push_back(sys.body_row(static_cast<int>(b), 3 + c) - first_obj);
      Obj o{sys.body_dof(static_cast<int>(b)), joint ? nd - 3 : nd, {}, 1, nd == 6 && !joint ? 3 : 0};
      if (joint) o.rot = -1;
      for (std::size_t p = 0; p < sys.n_points(); ++p)
        if (sys.point(static_cast<int>(p)).kind == PointKind::body && sys.point(static_cast<int>(p)).body == static_cast<int>(b)) {
          o.points.push_back(static_cast<int>(p));
          o.L = std::max(o.L, static_cast<double>(value_of(sys.point(static_cast<int>(p)).r.norm())));
        }
      for (const auto& rod : sys.body(static_cast<int>(b)).rods)
        o.L = std::max({o.L, static_cast<double>(value_of(rod.a.norm())), static_cast<double>(value_of(rod.b.norm()))});
      objs.push_back(std::move(o));
    }
    VecX<double> sx = VecX<double>::Ones(no);  // unknown scales (L on rotations)
    for (const auto& o : objs)
      if (o.rot >= 0) sx.segment<3>(o.dof - first_obj + o.rot).setConstant(o.L);
    double Lmin = 1e300;
    for (std::size_t l = 0; l < sys.n_lines(); ++l)
      Lmin = std::min(Lmin, static_cast<double>(value_of(sys.line(static_cast<int>(l)).model.length())));
    double radius = std::max(1.0, 0.1 * Lmin);
    const double radius_max = std::max(1.0, 0.5 * Lmin);
    const double h = 1e-6 * std::max(1.0, xmax);
    auto point_residual = [&](SystemState<T>& st, VecX<double>& r) {
      sys.static_residual(st, R, nullptr);
      r.resize(no);
      for (Index i = 0; i < no; ++i) r(i) = static_cast<double>(value_of(R(first_obj + i)));
      for (const Index k : joint_rows) r(k) = 0;
    };
    VecX<double> r, rp, rm, rt;
    MatX<double> Jo(no, no);
    point_residual(s, r);
    double E = static_cast<double>(value_of(sys.potential_energy(s)));
    // The lines are solved to the line statics' 1e-8 s: balance the points to the same.
    const double point_target = std::max(1e-8 * scale, target);
    for (int it = 0;; ++it) {
      out.point_iterations = it;
      const double rinf = r.cwiseQuotient(sx).cwiseAbs().maxCoeff();  // moments per unit arm
      if (opt.verbose)
        std::fprintf(stderr, "%s: point balance %d ||R_points||_inf %.6e radius %.3e\n", sys.name().c_str(), it, rinf,
                     radius);
      if (rinf <= point_target) break;
      if (it >= opt.max_point_iterations)
        throw SolveError(sys.name(), "point balance ||R||_inf after " + std::to_string(it) + " iterations", rinf,
                         "<= " + to_text(point_target) + " N");
      // Central differences, one point coordinate at a time (only its lines re-solved). A
      // line statics that fails at a perturbed position (a line on the edge of a slack or
      // grounded configuration) is retried one-sided and with a 100 times larger step.
      for (const auto& o : objs) {
        const Index d = o.dof;
        for (int c = 0; c < o.n; ++c) {
          auto side = [&](double dx, VecX<double>& out) {
            trial.q = s.q;
            trial.R = s.R;
            trial.q(d + c) += T(dx / sx(d + c - first_obj));
            try {
              detail::solve_lines_held(sys, trial, &o.points, true);
            } catch (const Error&) {
              return false;
            }
            point_residual(trial, out);
            return true;
          };
          bool done = false;
          for (double hk : {h, 100 * h}) {
            const bool up = side(hk, rp), down = side(-hk, rm);
            const double hs = hk / sx(d + c - first_obj);
            if (up && down) Jo.col(d + c - first_obj) = (rp - rm) / (2 * hs);
            else if (up) Jo.col(d + c - first_obj) = (rp - r) / hs;
            else if (down) Jo.col(d + c - first_obj) = (r - rm) / hs;
            done = up || down;
            if (done) break;
          }
          if (!done)
            throw SolveError(sys.name(), "point balance: the line statics at " + sys.describe_dof(d + c) +
                                             " moved by " + to_text(100 * h) + " m (coordinate " + std::to_string(c + 1) + ")",
                             "no solution", "a line equilibrium near the trial position");
        }
      }
      for (const Index k : joint_rows) {  // not unknowns: a unit row and column, a zero step
        Jo.row(k).setZero();
        Jo.col(k).setZero();
        Jo(k, k) = 1;
      }
      // Levenberg-Marquardt trust region: the shift mu grows until the step fits the region,
      // which turns the step from Newton's toward steepest descent of the energy (and keeps a
      // direction without stiffness, a point on slack lines, solvable).
      // In scaled unknowns x~ = sx x and rows r~ = r / sx: J~ = diag(1/sx) Jo diag(1/sx).
      MatX<double> Js = Jo;
      for (Index i = 0; i < no; ++i) Js.row(i) /= sx(i);
      for (Index j = 0; j < no; ++j) Js.col(j) /= sx(j);
      const VecX<double> rs = r.cwiseQuotient(sx);
      const double jn = std::max(Js.cwiseAbs().maxCoeff(), 1e-300);
      const double rn = r.norm();
      VecX<double> step;
      for (;;) {
        double mu = 1e-12 * jn, len = 0;
        for (int k = 0; k < 200; ++k) {
          MatX<double> A = Js;
          A.diagonal().array() += mu;
          step = -A.partialPivLu().solve(rs);
          len = step.cwiseAbs().maxCoeff();
          if (std::isfinite(len) && len <= radius) break;
          mu *= 4;
        }
        double f = len > radius ? radius / len : 1.0;
        step = step.cwiseQuotient(sx);  // back to metres and radians
        // A step turns a body by at most 0.25 rad (spec "Rigid-body initial condition").
        for (const auto& o : objs)
          if (o.rot >= 0) {
            const double turn = f * step.segment<3>(o.dof - first_obj + o.rot).norm();
            if (turn > 0.25) f *= 0.25 / turn;
          }
        trial.q = s.q;
        trial.R = s.R;
        for (Index i = 0; i < no; ++i) trial.q(first_obj + i) += T(f * step(i));
        bool ok = std::isfinite(len);
        if (ok) {
          try {
            detail::solve_lines_held(sys, trial, nullptr, true);
          } catch (const Error&) {
            ok = false;  // a trial position no line statics admits: shrink the region
          }
        }
        if (ok) {
          point_residual(trial, rt);
          const double Et = static_cast<double>(value_of(sys.potential_energy(trial)));
          // The energy is a merit only where every load has a potential (not with a current's
          // drag or an EI = 0 element's buoyancy lost above the surface): otherwise a step must
          // lower the imbalance.
          const bool energy = !sys.nonpotential_loads(s) && !sys.nonpotential_loads(trial);
          const bool armijo = energy ? Et <= E + 1e-4 * f * r.dot(step) : rt.norm() < (1 - 1e-4) * rn;
          if (std::isfinite(rt.norm()) && std::isfinite(Et) && (armijo || rt.norm() < 0.5 * rn)) {
            s.q = trial.q;
            sys.commit(s);  // rotation increments folded: the next Jacobian is about theta = 0
            r = rt;
            E = Et;
            if (f * len >= 0.2 * radius || rt.norm() < 0.25 * rn) radius = std::min(radius_max, 2 * radius);
            break;
          }
        }
        radius = 0.25 * std::min(radius, len);
        if (!(radius > 1e-12 * std::max(1.0, Lmin)))
          throw SolveError(sys.name(), "point balance trust region at iteration " + std::to_string(it + 1), rn,
                           "a decrease of the points' force imbalance (no admissible step)");
      }
    }
  } catch (const SolveError& e) {
    // The balance stops where a re-solved line has no equilibrium near a trial position (with
    // clamped or spring ends the balance runs on the Hermite lines, whose line statics refuse a
    // clamp on a mesh too coarse for its bending length) or its trust region finds no decrease:
    // the polish, and after it the pseudo-transient continuation, take over from the last
    // accepted positions.
    out.notes.push_back(std::string("the point balance stopped (") + e.what() +
                        "); the system polish continued from its last positions");
    if (opt.verbose) std::fprintf(stderr, "%s: %s\n", sys.name().c_str(), out.notes.back().c_str());
  }

  // Stage 3: Newton on the coupled system, every element's own law.
  sys.check_state(s);  // a point with a volume above the surface: refused
  const SystemState<T> balanced = s;
  try {
    sys.static_residual(s, R, &J);
    double r2 = detail::two_norm(R);
    int extra = is_dual_v<T> ? opt.dual_iterations : 0;
    for (int it = 0;; ++it) {
      const double rinf = detail::inf_norm(R);
      out.residual = rinf;
      out.iterations = it;
      const bool converged = rinf <= target;
      if (opt.verbose)
        std::fprintf(stderr, "%s: statics iteration %d ||R||_inf %.6e (s %.3e)\n", sys.name().c_str(), it, rinf, scale);
      if (converged && extra == 0) {
        sys.check_state(s);
        return out;
      }
      if (it >= opt.max_iterations)
        throw SolveError(sys.name(), "static residual ||R||_inf after " + std::to_string(it) + " Newton iterations",
                         rinf, "<= " + to_text(target) + " N");
      dx = -R;
      J.solve(dx);
      if (converged) {
        // Derivative convergence of a dual solve: full steps, no line search.
        --extra;
        s.q += dx;
        sys.commit(s);
        sys.static_residual(s, R, &J);
        continue;
      }
      double alpha = 1;
      for (int k = 0;; ++k) {
        trial.q = s.q + T(alpha) * dx;
        trial.R = s.R;
        sys.static_residual(trial, Rt, nullptr);
        const double rt = detail::two_norm(Rt);
        if (std::isfinite(rt) && rt <= (1 - 1e-4 * alpha) * r2) break;
        if (k == 30)
          throw SolveError(sys.name(), "line search on ||R||_2 at Newton iteration " + std::to_string(it + 1), r2,
                           "a decrease along the Newton direction (the tangent is singular or wrong)");
        alpha *= 0.5;
      }
      s.q = trial.q;
      sys.commit(s);
      sys.static_residual(s, R, &J);
      r2 = detail::two_norm(R);
    }
  } catch (const SolveError& e) {
    if (is_dual_v<T> || !opt.seed_lines) throw;
    // Pseudo-transient continuation from the balanced state (a neutral turn of a body about its
    // lines' axis, a far start of the points' balance).
    if (opt.ptc_iterations > 0) {
      SystemState<T> p = balanced;
      int steps = 0;
      if (detail::ptc_polish(sys, p, target, opt, J, steps)) {
        sys.check_state(p);
        s = p;
        sys.static_residual(s, R, nullptr);
        out.residual = detail::inf_norm(R);
        out.notes.push_back("the Newton polish stopped (" + std::string(e.what()) +
                            "); pseudo-transient continuation converged in " + std::to_string(steps) + " steps");
        return out;
      }
      out.notes.push_back("pseudo-transient continuation did not converge in " + std::to_string(steps) + " steps");
    }
    // A slack run no force places: keep the balanced state of stages 1 and 2, when it is one
    // (within 1e-4 of the force scale; a finite-EI line's seed, which the polish had to bring
    // its bending's share to, is not).
    s = balanced;
    sys.static_residual(s, R, nullptr);
    out.residual = detail::inf_norm(R);
    if (!(out.residual <= 1e-4 * scale))
      throw SolveError(sys.name(), std::string("system polish (") + e.what() + "); the state before it: ||R||_inf",
                       out.residual, "<= " + to_text(1e-4 * scale) + " N (1e-4 of the force scale) to be kept");
    out.notes.push_back("the system polish stopped (" + std::string(e.what()) +
                        "); the equilibrium of the line statics and the point balance is kept (||R||_inf " +
                        to_text(out.residual) + " N)");
    return out;
  }
}

}  // namespace detail

}  // namespace cabledyn
