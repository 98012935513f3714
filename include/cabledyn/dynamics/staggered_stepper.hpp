// cabledyn: the staggered body scheme (deck option bodyScheme staggered).
// Spec "Rigid-body time integration": "bodyScheme staggered selects the staggered
// central-difference predictor-corrector (Newmark gamma = 1/2, beta = 0)": each body is moved
// to r_{n+1} = r_n + dt v_n + dt^2/2 a_n (the rotation likewise on SO(3)), the lines are
// stepped to t_{n+1} with that end motion, the end-of-step acceleration a_{n+1} solves the
// body's equation of motion with the resulting line loads and every body load at t_{n+1}
// (the inertia of the attached line-end nodes and the velocity derivative of the body's
// drag and seabed damping implicit), and v_{n+1} = v_n + dt/2 (a_n + a_{n+1}); each step is
// divided into equal sub-steps with omega dt_sub <= 0.4 (omega the stiffest body-mooring
// frequency estimate); both schemes start from the instantaneous acceleration of the
// initial state; a pinned rod advances only its rotation (its end-of-step angular
// acceleration solves the moment equation about its pin).
//
// The bodies of the scheme are held bodies of the system over the line step (kind coupled:
// their pose, velocity and acceleration prescribed, stagger_bodies), so the line step is the
// system stepper's generalised-alpha step with them prescribed, and a body's equation of
// motion at t_{n+1} is its reaction MooringSystem::coupled_reaction = 0: its lines' dynamic
// end loads (their end-node inertia at the body's acceleration, so that inertia is implicit)
// and its own loads less its inertia.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <string>
#include <vector>

#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/so3.hpp"
#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/system/mooring_system.hpp"

namespace cabledyn {

/// The bodies of a staggered scheme: their indices and, per body of the system, 0 (not in
/// it), 1 (a free body: six DOFs) or 2 (a rod pinned at a held pin: its rotation).
struct StaggeredBodies {
  std::vector<int> index;
  std::vector<char> flag;
};

/// The staggered scheme's flag of body B (StaggeredBodies::flag): 1 a free body, 2 a rod
/// pinned at a held pin, 0 a body it leaves to the line step (held, fixed, a direction joint,
/// a CoupledPinned body, a rod pinned on a body).
template <class T>
char staggered_flag(const BodyModel<T>& B) {
  if (B.joint || B.kind == BodyKind::coupled || B.kind == BodyKind::fixed) return 0;
  if (B.kind == BodyKind::pinned && (B.host_pin || B.parent >= 0)) return 0;
  return B.kind == BodyKind::free ? 1 : 2;
}

/// Holds the bodies of system `sys` that the staggered scheme steps (spec "Rigid-body time
/// integration", bodyScheme staggered): every free body and every rod pinned at a held pin.
/// Direction joints (massless), CoupledPinned bodies and rods pinned on a body stay in the
/// line step, implicit, as the monolithic scheme steps them (a rod pinned on a staggered body
/// then turns about a held pin, and its pin force enters its parent's equation of motion
/// through MooringSystem::coupled_reaction). Each staggered body takes its pose and
/// velocity in state s (acceleration zero: the stepper's initialisation solves it); the
/// system is renumbered without their DOFs, and s is carried over to the new numbering (its
/// line, point and remaining body DOFs unchanged).
template <class T>
StaggeredBodies stagger_bodies(MooringSystem<T>& sys, SystemState<T>& s) {
  const int nb = static_cast<int>(sys.n_bodies());
  StaggeredBodies out;
  out.flag.assign(static_cast<std::size_t>(nb), 0);
  for (int b = 0; b < nb; ++b) {
    out.flag[static_cast<std::size_t>(b)] = staggered_flag(sys.body(b));
    if (out.flag[static_cast<std::size_t>(b)] != 0) out.index.push_back(b);
  }
  if (out.index.empty()) return out;
  // The old numbering of every DOF block that stays.
  const Eigen::Index npos = sys.position_dofs();
  std::vector<Eigen::Index> old_dof(static_cast<std::size_t>(nb));
  for (int b = 0; b < nb; ++b) old_dof[static_cast<std::size_t>(b)] = sys.body_dof(b);
  for (int b : out.index) {
    auto& B = sys.body(b);
    Vec3<T> r;
    Mat3<T> R;
    sys.body_pose(s, b, r, R);
    const Vec6<T> vel = sys.body_motion(s, b, 1);
    B.r = r;
    B.R = R;
    B.v = vel.template head<3>();
    B.w = vel.template tail<3>();
    if (out.flag[static_cast<std::size_t>(b)] == 2) B.v.setZero();
    B.a.setZero();
    B.alpha.setZero();
    B.kind = BodyKind::coupled;
  }
  sys.renumber();
  SystemState<T> n;
  n.t = s.t;
  n.R = s.R;
  const Eigen::Index nd = sys.dofs();
  n.q.setZero(nd);
  n.v.setZero(nd);
  n.a.setZero(nd);
  n.q.head(npos) = s.q.head(npos);
  n.v.head(npos) = s.v.head(npos);
  n.a.head(npos) = s.a.head(npos);
  for (int b = 0; b < nb; ++b) {
    const Eigen::Index d = sys.body_dof(b), d0 = old_dof[static_cast<std::size_t>(b)];
    if (d < 0) continue;
    const int k = sys.body_ndof(b);
    n.q.segment(d, k) = s.q.segment(d0, k);
    n.v.segment(d, k) = s.v.segment(d0, k);
    n.a.segment(d, k) = s.a.segment(d0, k);
  }
  s = std::move(n);
  return out;
}

/// Options of the staggered scheme.
struct StaggeredOptions {
  /// omega dt_sub of the sub-steps (spec: 0.4, the central difference's accuracy limit;
  /// stability alone would allow about 1); 0: each step as given.
  double substep = 0.4;
  int max_iterations = 12;   ///< Newton iterations of a body's end-of-step acceleration
  double tol = 1e-10;        ///< their test: the body's residual within tol of its force scale
};

/// The staggered body scheme over a MooringSystem whose staggered bodies stagger_bodies held:
/// it steps the lines with `inner` (a SystemStepper of the same system) and the bodies by the
/// central-difference predictor-corrector. Double or long double.
template <class System>
class StaggeredStepper {
 public:
  using T = typename System::Scalar;
  using State = typename System::State;
  using Held = typename System::Held;
  using Inner = SystemStepper<System>;
  static_assert(std::is_floating_point_v<T>, "the staggered scheme runs in double or long double");

  StaggeredStepper(System& sys, Inner& inner, StaggeredBodies bodies, StaggeredOptions opt = {})
      : sys_(sys), inner_(inner), bodies_(std::move(bodies)), opt_(opt) {
    if (!(opt_.substep >= 0)) throw InputError("staggered stepper", "substep", opt_.substep, ">= 0");
    if (opt_.max_iterations < 1) throw InputError("staggered stepper", "max_iterations", opt_.max_iterations, ">= 1");
    for (int b : bodies_.index)
      if (sys_.body(b).kind != BodyKind::coupled)
        throw InputError("Body " + std::to_string(b + 1), "kind", "not held", "held by stagger_bodies");
  }

  /// Starts from state s (the staggered bodies at the pose and velocity the system holds):
  /// the inner stepper's initial acceleration, then each body's instantaneous acceleration
  /// from its equation of motion (spec: "Both schemes start from the instantaneous
  /// acceleration of the initial state"), the lines' again with it, in turn until the bodies'
  /// accelerations settle to 1e-13 of their size (the lines' consistent mass couples their end
  /// nodes to their neighbours: each turn shrinks the difference by about the mass ratio of an
  /// end element to its body). Throws SolveError naming the body that does not settle in 20.
  void initialize(const State& s) {
    inner_.initialize(s);
    for (int pass = 0;; ++pass) {
      sys_.get_held(c0_);
      solve_bodies(T(0));
      inner_.initialize(s);
      T change = 0, size = 0;
      int worst = bodies_.index.empty() ? -1 : bodies_.index.front();
      for (int b : bodies_.index) {
        const auto& B = sys_.body(b);
        const auto i = static_cast<std::size_t>(b);
        const T d = std::max((B.a - c0_.ba[i]).cwiseAbs().maxCoeff(), (B.alpha - c0_.balpha[i]).cwiseAbs().maxCoeff());
        if (d > change) change = d, worst = b;
        size = std::max({size, B.a.cwiseAbs().maxCoeff(), B.alpha.cwiseAbs().maxCoeff()});
      }
      if (change <= T(1e-13) * size) break;
      if (pass == 20)
        throw SolveError("Body " + std::to_string(worst + 1) + " (" + sys_.body(worst).name + ")",
                         "initial acceleration of the staggered scheme (change " + to_text(static_cast<double>(change)) +
                             " per turn)",
                         20, "settled to 1e-13 of its size");
    }
    sys_.get_held(c0_);
    c1_ = c0_;
    hs_ = c0_;
    snap_ = inner_.snapshot();
    rate_.assign(sys_.n_bodies(), Vec6<T>::Zero());
    rate0_ = rate_;
  }

  /// Advances by dt. The system must hold the prescribed kinematics of t + dt of its other
  /// held objects (Coupled points and bodies) as for SystemStepper::step; the staggered
  /// bodies' entries are the scheme's. Throws SolveError (the line step's, or a body's
  /// acceleration that does not converge, naming the body); nothing is committed then.
  void step(const T& dt) {
    if (!(dt > 0) || !std::isfinite(static_cast<double>(dt))) throw InputError("staggered stepper", "dt", static_cast<double>(dt), "> 0");
    sys_.get_held(c1_);  // the caller's t + dt kinematics of the other held objects
    inner_.save(snap_);
    for (std::size_t i = 0; i < rate_.size(); ++i) rate0_[i] = rate_[i];
    int n = 1;
    if (opt_.substep > 0) {
      const double omega = sys_.body_frequency_estimate(inner_.state(), &bodies_.flag, static_cast<double>(dt));
      n = std::max(1, static_cast<int>(std::ceil(omega * static_cast<double>(dt) / opt_.substep - 1e-12)));
    }
    last_substeps_ = n;
    const T h = dt / T(n);
    try {
      for (int k = 0; k < n; ++k) {
        const T tau = k + 1 == n ? T(1) : T(k + 1) / T(n);
        hs_.interpolate(c0_, c1_, tau, dt);
        // The predictor from the committed sub-step start (sys holds it: c0_ at k = 0).
        for (int b : bodies_.index) {
          const auto& B = sys_.body(b);
          const auto i = static_cast<std::size_t>(b);
          const Vec3<T> v0 = k == 0 ? c0_.bv[i] : B.v, w0 = k == 0 ? c0_.bw[i] : B.w;
          const Vec3<T> a0 = k == 0 ? c0_.ba[i] : B.a, al0 = k == 0 ? c0_.balpha[i] : B.alpha;
          const Vec3<T> r0 = k == 0 ? c0_.br[i] : B.r;
          const Mat3<T> R0 = k == 0 ? c0_.bR[i] : B.R;
          hs_.br[i] = r0 + h * v0 + (T(0.5) * h * h) * a0;
          hs_.bR[i] = so3_exp<T>(Vec3<T>(h * w0 + (T(0.5) * h * h) * al0)) * R0;
          // The end-of-step acceleration the line step sees: a0 extrapolated by the rate of
          // the last step, and the trapezoidal velocity with it (second order for what the
          // body's acceleration moves through inertia: a rod pinned on it, a consistent mass).
          const Vec3<T> a1 = a0 + h * Vec3<T>(rate_[i].template head<3>()), al1 = al0 + h * Vec3<T>(rate_[i].template tail<3>());
          hs_.bv[i] = v0 + (T(0.5) * h) * (a0 + a1);
          hs_.bw[i] = w0 + (T(0.5) * h) * (al0 + al1);
          hs_.ba[i] = a1;
          hs_.balpha[i] = al1;
          start_v_[i] = v0, start_w_[i] = w0, start_a_[i] = a0, start_al_[i] = al0;
        }
        sys_.set_held(hs_);
        inner_.step(h);
        solve_bodies(h);
        inner_.recommit_held();
        for (int b : bodies_.index) {
          const auto i = static_cast<std::size_t>(b);
          const auto& B = sys_.body(b);
          rate_[i] << (B.a - start_a_[i]) / h, (B.alpha - start_al_[i]) / h;
        }
      }
    } catch (...) {
      inner_.restore(snap_);
      for (std::size_t i = 0; i < rate_.size(); ++i) rate_[i] = rate0_[i];
      throw;
    }
    sys_.get_held(c0_);
  }

  const State& state() const { return inner_.state(); }
  /// The sub-steps of the last step.
  int last_substeps() const { return last_substeps_; }
  /// Newton iterations of the bodies' accelerations so far.
  long body_iterations() const { return body_iterations_; }
  const StaggeredBodies& bodies() const { return bodies_; }
  /// The rate of change of each body's acceleration over the last step (a, alpha per body;
  /// zero for the others and before the first step): committed with the state, part of a
  /// restart.
  const std::vector<Vec6<T>>& acceleration_rates() const { return rate_; }
  /// Returns to a snapshot of the inner stepper (it carries the bodies' committed motion in
  /// its held kinematics) with the acceleration rates committed with it. Throws InputError
  /// for rates of another number of bodies.
  void restore(const SystemStepperSnapshot<System>& s, const std::vector<Vec6<T>>& rates) {
    if (rates.size() != rate_.size())
      throw InputError("staggered stepper", "acceleration rates", static_cast<double>(rates.size()),
                       std::to_string(rate_.size()) + " (one per body)");
    inner_.restore(s);
    sys_.get_held(c0_);
    for (std::size_t i = 0; i < rate_.size(); ++i) rate_[i] = rates[i];
  }

 private:
  // Solves every staggered body's end-of-step acceleration for the line state the inner
  // stepper committed, its pose the system holds: Newton on the body's reaction
  // coupled_reaction = 0 in the acceleration x (six components, or the angular three of a
  // pinned rod), the velocity v0 + h/2 (a0 + a) with it (h = 0: the initial state's, held),
  // the Jacobian by forward differences (the reaction is affine in x but for the drag's and
  // the seabed damping's velocity terms). Bodies joined by a line are swept in turn until
  // each converges at the start of a sweep; SolveError naming the last body moved after 8.
  void solve_bodies(const T& h) {
    const double scale = inner_.force_scale();
    int last = -1;
    for (int sweep = 0; sweep < 8; ++sweep) {
      bool moved = false;  // a body's acceleration changed in this sweep
      for (int b : bodies_.index) {
        const auto i = static_cast<std::size_t>(b);
        const bool pinned = bodies_.flag[i] == 2;
        const int m = pinned ? 3 : 6;
        if (h == T(0) && sweep == 0) {
          const auto& B = sys_.body(b);
          start_v_[i] = B.v, start_w_[i] = B.w, start_a_[i] = B.a, start_al_[i] = B.alpha;
        }
        const auto& B = sys_.body(b);
        Vec6<T> x;
        x << B.a, B.alpha;  // the predictor's (the sub-step start's), or the last sweep's
        const double fscale = scale * std::max<double>(1, body_size(b));
        auto residual = [&](const Vec6<T>& y) {
          set_body(b, h, y);
          const Vec6<T> F = sys_.coupled_reaction(inner_.state(), b);
          Vec6<T> g = Vec6<T>::Zero();
          for (int k = 0; k < m; ++k) g(k) = F(6 - m + k);
          return g;
        };
        Vec6<T> g = residual(x);
        int it = 0;
        for (; g.cwiseAbs().maxCoeff() > opt_.tol * fscale; ++it) {
          if (it == opt_.max_iterations || !g.allFinite())
            throw SolveError("Body " + std::to_string(b + 1) + " (" + B.name + ")",
                             "end-of-step acceleration of the staggered scheme (residual " +
                                 to_text(static_cast<double>(g.cwiseAbs().maxCoeff())) + ")",
                             opt_.max_iterations, "within " + to_text(opt_.tol) + " of the force scale");
          Mat6<T> J = Mat6<T>::Identity();
          for (int c = 0; c < m; ++c) {
            Vec6<T> y = x;
            const T d = T(1e-6) * std::max<T>(T(1), std::fabs(x(6 - m + c)));
            y(6 - m + c) += d;
            const Vec6<T> gy = residual(y);
            for (int r = 0; r < m; ++r) J(r, c) = (gy(r) - g(r)) / d;
          }
          const Vec6<T> dx = -J.partialPivLu().solve(g);  // identity past the m unknowns: dx zero there
          for (int c = 0; c < m; ++c) x(6 - m + c) += dx(c);
          g = residual(x);
          ++body_iterations_;
        }
        if (it > 0) moved = true, last = b;
      }
      if (!moved) return;
    }
    throw SolveError("Body " + std::to_string(last + 1) + " (" + sys_.body(last).name + ")",
                     "end-of-step accelerations of the staggered scheme's bodies (swept in turn)", 8,
                     "each body's equation met at the start of a sweep");
  }

  // Holds body b at its pose with the acceleration x (a, alpha) and the velocity of the
  // trapezoidal rule over h from the sub-step start.
  void set_body(int b, const T& h, const Vec6<T>& x) {
    auto& B = sys_.body(b);
    const auto i = static_cast<std::size_t>(b);
    B.a = x.template head<3>();
    B.alpha = x.template tail<3>();
    B.v = start_v_[i] + (T(0.5) * h) * (start_a_[i] + B.a);
    B.w = start_w_[i] + (T(0.5) * h) * (start_al_[i] + B.alpha);
    if (bodies_.flag[i] == 2) B.v.setZero(), B.a.setZero();
  }

  // A length that turns the body's moments into forces: its largest rod or lump arm (1 m
  // at least, by the caller).
  double body_size(int b) const {
    const auto& B = sys_.body(b);
    double s = 0;
    for (const auto& r : B.rods) s = std::max({s, static_cast<double>(r.a.norm()), static_cast<double>(r.b.norm())});
    for (const auto& l : B.lumps) s = std::max(s, static_cast<double>(l.p.norm()));
    return s;
  }

  System& sys_;
  Inner& inner_;
  StaggeredBodies bodies_;
  StaggeredOptions opt_;
  Held c0_, c1_, hs_;  // committed, the caller's t + dt, the sub-step's
  SystemStepperSnapshot<System> snap_;
  std::vector<Vec3<T>> start_v_ = std::vector<Vec3<T>>(sys_.n_bodies()), start_w_ = start_v_, start_a_ = start_v_,
                       start_al_ = start_v_;
  std::vector<Vec6<T>> rate_, rate0_;  // d(a, alpha)/dt of the last step per body; at the step start
  int last_substeps_ = 1;
  long body_iterations_ = 0;
};

}  // namespace cabledyn
