// cabledyn: the march policies of a mooring system's lines, as SystemStepper hooks.
// Spec "Release cap" (the kept force of a releasing EI = 0 element capped in the force
// blend), "Rotation- and snap-resolved sub-steps" (an EI = 0 step whose taut segments turned
// beyond an angle, or snapped with the axial wave unresolved, solved again in sub-steps) and
// "Adaptive step subdivision" (a converged finite-EI step beyond the chord, turn and tangent
// bounds rejected); the chord-turn statistic of the run summary.
//
// MooringSystem owns one and forwards the stepper's hooks to it (prepare_blend, correct_blend,
// substeps_start / substeps_wanted, turn_start / turn_end, geometry_start / step_rejection);
// each hook takes the system, whose lines, held kinematics and active component
// (MooringSystem::set_active_component) it reads. The policies keep their own per-line
// workspaces, sized by resize() when the system is numbered, so a step allocates nothing.
// The release cap and the sub-steps are double only (on by default in double, off in another
// scalar); the step check runs in any scalar on its double values.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/dynamics/ei0_substeps.hpp"
#include "cabledyn/dynamics/generalized_alpha.hpp"
#include "cabledyn/dynamics/hermite_step_check.hpp"
#include "cabledyn/dynamics/release_cap.hpp"
#include "cabledyn/system/bordered_jacobian.hpp"

namespace cabledyn {

template <class T>
class MooringSystem;
template <class T>
struct SystemState;

/// The march policies of a MooringSystem's lines (see the header).
template <class T>
class SystemMarchPolicies {
 public:
  using State = SystemState<T>;
  using Sys = MooringSystem<T>;
  using Index = Eigen::Index;

  /// The EI = 0 policies: the release cap of the force
  /// blend, and the re-solve of a step whose taut segments turned by more than `angle`
  /// degrees (or one that snapped taut with its axial wave unresolved) in max(4, ceil(theta /
  /// angle)) equal sub-steps, at most max_count. Throws InputError for a count outside
  /// [4, 65536] or an angle outside (0, 90] (naming `name`), NotImplementedError for turning
  /// a policy on in a scalar T other than double; nothing changes then.
  void set(const std::string& name, bool release_cap, bool ei0_substeps, int max_count, double angle) {
    if (!std::is_same_v<T, double> && (release_cap || ei0_substeps))
      throw NotImplementedError(name, "EI = 0 march policies", "in a scalar other than double",
                                "double (the release cap and the sub-step trigger are double)");
    if (max_count < 4 || max_count > 65536) throw InputError(name, "ei0_substep_max", max_count, "in [4, 65536]");
    if (!(angle > 0 && angle <= 90)) throw InputError(name, "ei0_substep_angle", angle, "in (0, 90] deg");
    release_cap_ = release_cap;
    ei0_substeps_ = ei0_substeps;
    max_ = max_count;
    angle_ = angle;
  }
  bool release_cap() const { return release_cap_; }
  bool ei0_substeps() const { return ei0_substeps_; }
  int ei0_substep_max() const { return max_; }
  double ei0_substep_angle() const { return angle_; }

  /// Sizes the workspaces for the lines of `sys` (MooringSystem::renumber).
  void resize(const Sys& sys) {
    const std::size_t n = sys.lines_.size();
    caps_.clear();
    x_.assign(n, VecX<T>());
    for (std::size_t l = 0; l < n; ++l) {
      const auto& m = sys.lines_[l].model;
      caps_.emplace_back(m.hermite() ? 0 : m.n_elements());
      x_[l].setZero(m.size());
    }
    v_ = r_ = x0_ = t0_ = t1_ = g0_ = g1_ = x_;
  }

  /// At the start of each attempt: the release cap's step-start quantities of every EI = 0
  /// line, from the committed state s (the system holding the prescribed kinematics of s's
  /// time: its held ends are read from them).
  void prepare_blend(const Sys& sys, const State& s) const {
    if constexpr (std::is_same_v<T, double>) {
      if (!release_cap_) return;
      sys.require_numbered();
      for (std::size_t l = 0; l < sys.lines_.size(); ++l) {
        if (sys.lines_[l].model.hermite() || !sys.live_line(l)) continue;
        sys.line_gather(s, static_cast<int>(l), 0, x_[l]);
        sys.line_gather(s, static_cast<int>(l), 1, v_[l]);
        caps_[l].prepare(sys.lines_[l].model, x_[l], v_[l]);
      }
    } else {
      (void)sys, (void)s;
    }
  }

  /// The release cap of every EI = 0 line applied to the blended residual G at the trial
  /// state s1 (the kept force of a releasing element replaced, spec "Release cap") and, with
  /// J, to its tangent; returns the number of capped elements.
  long correct_blend(const Sys& sys, const State& s1, const T& dt, const GeneralizedAlpha<T>& ga, VecX<T>& G,
                     BorderedJacobian<T>* J) const {
    if constexpr (std::is_same_v<T, double>) {
      if (!release_cap_) return 0;
      long caps = 0;
      for (std::size_t l = 0; l < sys.lines_.size(); ++l) {
        if (sys.lines_[l].model.hermite() || !sys.live_line(l)) continue;
        const int li = static_cast<int>(l);
        sys.line_gather(s1, li, 0, x_[l]);
        sys.line_gather(s1, li, 1, v_[l]);
        r_[l].setZero();
        auto route = sys.router(s1, li, J, T(1));
        const long c = caps_[l].apply(sys.lines_[l].model, ga, x_[l], v_[l], dt, r_[l], J ? &route : nullptr);
        if (c == 0) continue;
        caps += c;
        sys.scatter(route, r_[l], G);
      }
      return caps;
    } else {
      (void)sys, (void)s1, (void)dt, (void)ga, (void)G, (void)J;
      return 0;
    }
  }

  /// Before substeps_wanted: the step start s0 of the interval to measure (the system holding
  /// the prescribed kinematics of s0's time).
  void substeps_start(const Sys& sys, const State& s0) const {
    if constexpr (std::is_same_v<T, double>) {
      if (ei0_substeps_) gather_ei0(sys, s0, x0_);
    } else {
      (void)sys, (void)s0;
    }
  }
  /// After a converged step from s0 (given to substeps_start) to s1 (the system holding the
  /// prescribed kinematics of s1's time): the number of equal sub-steps the interval should
  /// be solved in again (1: none), the largest any EI = 0 line asks for (spec "Rotation- and
  /// snap-resolved sub-steps": a taut segment's chord turn above the angle, or a snap with
  /// the axial wave unresolved). A segment counts as taut above 1e-3 of the line's largest
  /// step-start tension, floored at 1e-3 of its submerged weight (not of
  /// the line's initial tension, a quantity of the run's history: the decision depends on the
  /// step alone, so a restart repeats it).
  int substeps_wanted(const Sys& sys, const State& s1, const T& dt) const {
    if constexpr (std::is_same_v<T, double>) {
      if (!ei0_substeps_) return 1;
      int n = 1;
      bool capped = false;
      for_each_ei0_turn(sys, s1, x0_, x_, dt, [&](const ChordTurn& turn) {
        if (turn.theta > angle_ || turn.snap) n = std::max(n, ei0_substep_count(turn.theta, angle_, max_, capped));
      });
      return n;
    } else {
      (void)sys, (void)s1, (void)dt;
      return 1;
    }
  }

  /// The chord-turn statistic (spec "Rotation- and snap-resolved sub-steps"; the run
  /// summaries' largest turn): turn_start(s0) at an attempt's start, the system holding the
  /// prescribed kinematics of s0's time; turn_end(s1, dt) after it converged, holding s1's:
  /// the largest chord turn [deg] of a taut segment of an EI = 0 line over the solver step
  /// (measure_chord_turn, taut as substeps_wanted counts it). 0 in another scalar T or without
  /// EI = 0 lines. Scratch of their own: the sub-step hooks' step start is kept across the
  /// attempts of a re-solve.
  void turn_start(const Sys& sys, const State& s0) const {
    if constexpr (std::is_same_v<T, double>) {
      gather_ei0(sys, s0, t0_);
    } else {
      (void)sys, (void)s0;
    }
  }
  double turn_end(const Sys& sys, const State& s1, const T& dt) const {
    if constexpr (std::is_same_v<T, double>) {
      double theta = 0;
      for_each_ei0_turn(sys, s1, t0_, t1_, dt, [&](const ChordTurn& turn) { theta = std::max(theta, turn.theta); });
      return theta;
    } else {
      (void)sys, (void)s1, (void)dt;
      return 0;
    }
  }

  /// The finite-EI step check (spec "Adaptive step subdivision"): geometry_start(s0) at an
  /// attempt's start (the system holding the prescribed kinematics of s0's time);
  /// step_rejection(s1) on a converged iterate (holding s1's): why the step must be
  /// subdivided, or nullptr. A converged step that changes the chord of an element of a
  /// finite-EI line by more than 20 % of its length, turns a nodal tangent by more than 15
  /// deg, or shrinks a nodal tangent below |m| = 0.01 (a singular parametrisation) is
  /// rejected (a step across a snap can otherwise
  /// converge on a far root of the step's equations: case 7 of the campaign, a cable stepped
  /// alone at dtM 0.138 s, converged at 4e7 N of tension).
  void geometry_start(const Sys& sys, const State& s0) const {
    for (std::size_t l = 0; l < sys.lines_.size(); ++l)
      if (sys.lines_[l].model.hermite() && sys.live_line(l)) sys.line_gather(s0, static_cast<int>(l), 0, g0_[l]);
  }
  const char* step_rejection(const Sys& sys, const State& s1) const {
    for (std::size_t l = 0; l < sys.lines_.size(); ++l) {
      const auto& m = sys.lines_[l].model;
      if (!m.hermite() || !sys.live_line(l)) continue;
      const VecX<T>& x0 = g0_[l];
      VecX<T>& x1 = g1_[l];
      sys.line_gather(s1, static_cast<int>(l), 0, x1);
      // Slot k of a node vector in double; node i's position at slot position_slot(i), its
      // tangent at the next.
      auto at = [](const VecX<T>& x, std::size_t slot) {
        const auto k = static_cast<Index>(3 * slot);
        return Vec3<double>(static_cast<double>(value_of(x(k))), static_cast<double>(value_of(x(k + 1))),
                            static_cast<double>(value_of(x(k + 2))));
      };
      if (const char* why = hermite_step_rejection(
              m.n_nodes(), [&](std::size_t i) { return at(x0, m.position_slot(i)); },
              [&](std::size_t i) { return at(x1, m.position_slot(i)); },
              [&](std::size_t i) { return at(x0, m.position_slot(i) + 1); },
              [&](std::size_t i) { return at(x1, m.position_slot(i) + 1); },
              [&](std::size_t e) { return static_cast<double>(value_of(m.L0(e))); }))
        return why;
    }
    return nullptr;
  }

 private:
  // Every EI = 0 line's node vector in state s into into[l] (the chord-turn hooks' step ends).
  void gather_ei0(const Sys& sys, const State& s, std::vector<VecX<T>>& into) const {
    for (std::size_t l = 0; l < sys.lines_.size(); ++l)
      if (!sys.lines_[l].model.hermite() && sys.live_line(l)) sys.line_gather(s, static_cast<int>(l), 0, into[l]);
  }
  // f(turn) for each EI = 0 line's chord turn (measure_chord_turn, taut above 1e-3 of its
  // largest step-start tension floored at 1e-3 of its submerged weight) from from[l] to state
  // s1, gathered into into[l]. Double only.
  template <class F>
  void for_each_ei0_turn(const Sys& sys, const State& s1, const std::vector<VecX<T>>& from,
                         std::vector<VecX<T>>& into, const T& dt, F&& f) const {
    for (std::size_t l = 0; l < sys.lines_.size(); ++l) {
      const auto& m = sys.lines_[l].model;
      if (m.hermite() || !sys.live_line(l)) continue;
      sys.line_gather(s1, static_cast<int>(l), 0, into[l]);
      f(measure_chord_turn(m, from[l], into[l], dt, std::fabs(m.weight())));
    }
  }

  bool release_cap_ = std::is_same_v<T, double>, ei0_substeps_ = std::is_same_v<T, double>;
  int max_ = 16;
  double angle_ = 1.0;
  mutable std::vector<ReleaseCap> caps_;  // per line: the release cap's workspaces (EI = 0 lines)
  // Per-line node vectors: a trial's positions, velocities and cap forces (x_, v_, r_), the
  // sub-steps' step start (x0_), the chord-turn statistic's ends (t0_, t1_), the step check's
  // (g0_, g1_).
  mutable std::vector<VecX<T>> x_, v_, r_, x0_, t0_, t1_, g0_, g1_;
};

}  // namespace cabledyn
