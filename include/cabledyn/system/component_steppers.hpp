// cabledyn: a mooring system stepped component by component, one stepper for each.
// Spec "Time integration" (generalised-alpha, Newton, adaptive step subdivision, the EI = 0
// lines' release cap and sub-steps) applied to each connected component of the system apart
// (component_view.hpp: lines between held points, or groups joined by free points and bodies,
// are independent systems).
//
// Each component with DOFs gets a ComponentView and a SystemStepper of its own: its own Newton
// test (on its own force scale), its own halvings, sub-steps, line search and factor reuse
// (a line between held points marches apart from the others). A step steps every component over the
// same interval in turn, all with the prescribed kinematics the caller set for t + dt; the
// state of the whole system is assembled from theirs after each step. A step that fails in
// one component returns every component to the step start (nothing is committed) and throws.
// A step allocates nothing.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cabledyn/dynamics/system_stepper.hpp"
#include "cabledyn/system/component_view.hpp"

namespace cabledyn {

/// Steps each connected component of a MooringSystem with a SystemStepper of its own.
template <class T>
class ComponentSteppers {
 public:
  using System = MooringSystem<T>;
  using State = SystemState<T>;
  using View = ComponentView<T>;
  using Stepper = SystemStepper<View>;
  /// One stepper snapshot per stepped component, in the order of view(k).
  using Snapshot = std::vector<SystemStepperSnapshot<View>>;

  /// One stepper per component of sys (numbered) that has DOFs, each with options opt (its
  /// per-component line search is moot: each stepper's system is one component).
  ComponentSteppers(System& sys, SystemStepperOptions opt = {}) : sys_(sys) {
    w_.s.q.setZero(sys_.dofs());
    w_.s.v.setZero(sys_.dofs());
    w_.s.a.setZero(sys_.dofs());
    w_.s.R.assign(sys_.n_bodies(), Mat3<T>::Identity());
    for (int c = 0; c < sys_.n_components(); ++c) {
      if (sys_.component_dofs(c).empty()) continue;
      views_.push_back(std::make_unique<View>(sys_, c, w_));
      steppers_.push_back(std::make_unique<Stepper>(*views_.back(), opt));
    }
    saved_.resize(steppers_.size());
  }
  // The steppers refer to the views, the views to the scratch: neither copied nor moved.
  ComponentSteppers(const ComponentSteppers&) = delete;
  ComponentSteppers& operator=(const ComponentSteppers&) = delete;

  /// The number of stepped components (those with DOFs).
  std::size_t size() const { return steppers_.size(); }
  /// Stepped component k's view (its system component, DOFs, name) and stepper.
  const View& view(std::size_t k) const { return *views_.at(k); }
  const Stepper& stepper(std::size_t k) const { return *steppers_.at(k); }

  /// Starts from state s of the whole system (SystemStepper::initialize for each component).
  void initialize(const State& s) {
    if (s.q.size() != sys_.dofs() || s.v.size() != sys_.dofs())
      throw InputError(sys_.name(), "state size", s.q.size(), "== " + std::to_string(sys_.dofs()) + " DOFs");
    State x = s;
    x.a.setZero(sys_.dofs());
    w_.s = x;
    for (std::size_t k = 0; k < steppers_.size(); ++k) {
      steppers_[k]->initialize(views_[k]->restrict(x));
      views_[k]->extend(steppers_[k]->state(), x);
    }
    x_ = std::move(x);
    w_.s = x_;
    for (std::size_t k = 0; k < steppers_.size(); ++k) saved_[k] = steppers_[k]->snapshot();
    total();
  }

  /// Advances every component by dt (SystemStepper::step, with `substeps` equal sub-steps),
  /// the system holding the prescribed kinematics of t + dt. On a SolveError in one component
  /// every component returns to the step start, the system's prescribed kinematics to those
  /// of t, and the error is thrown.
  void step(const T& dt, int substeps = 1) {
    std::size_t k = 0;
    try {
      for (; k < steppers_.size(); ++k) {
        steppers_[k]->save(saved_[k]);
        steppers_[k]->step(dt, substeps);
      }
    } catch (...) {
      for (std::size_t j = 0; j < k; ++j) steppers_[j]->restore(saved_[j]);
      w_.s = x_;
      total();
      throw;
    }
    assemble();
  }

  /// The state of the whole system (assembled from the components' after each step).
  const State& state() const { return x_; }
  /// The components' statistics summed (largest_substeps and largest_turn_deg their largest).
  const SystemStepperStatistics& statistics() const { return stats_; }

  /// Every component's snapshot (SystemStepper::snapshot): restore() repeats the run bit for bit.
  Snapshot snapshot() const {
    Snapshot s;
    for (const auto& st : steppers_) s.push_back(st->snapshot());
    return s;
  }
  /// Returns to a snapshot of this object. Throws InputError for one of another system (its
  /// count or a component's size) with nothing changed.
  void restore(const Snapshot& s) {
    if (s.size() != steppers_.size())
      throw InputError(sys_.name(), "snapshot components", s.size(), "== " + std::to_string(steppers_.size()));
    for (std::size_t k = 0; k < steppers_.size(); ++k) steppers_[k]->save(saved_[k]);
    std::size_t k = 0;
    try {
      for (; k < steppers_.size(); ++k) steppers_[k]->restore(s[k]);
    } catch (...) {
      for (std::size_t j = 0; j < k; ++j) steppers_[j]->restore(saved_[j]);
      throw;
    }
    assemble();
  }
  /// A Jacobian shaped as component k's stepper's (a state file reads a saved factor into it).
  std::shared_ptr<typename View::Jacobian> make_factor_storage(std::size_t k) const {
    return steppers_.at(k)->make_factor_storage();
  }

 private:
  // The whole system's state from the components' (and the sums of their statistics).
  void assemble() {
    if (!steppers_.empty()) x_.t = steppers_.front()->state().t;
    for (std::size_t k = 0; k < steppers_.size(); ++k) views_[k]->extend(steppers_[k]->state(), x_);
    w_.s = x_;
    total();
  }
  void total() {
    stats_ = {};
    for (const auto& st : steppers_) {
      const auto& s = st->statistics();
      stats_.steps += s.steps;
      stats_.newton_iterations += s.newton_iterations;
      stats_.factorizations += s.factorizations;
      stats_.reused_steps += s.reused_steps;
      stats_.subdivisions += s.subdivisions;
      stats_.backtracks += s.backtracks;
      stats_.release_caps += s.release_caps;
      stats_.substepped += s.substepped;
      stats_.kept_plain += s.kept_plain;
      stats_.newmark_resolves += s.newmark_resolves;
      stats_.largest_substeps = std::max(stats_.largest_substeps, s.largest_substeps);
      stats_.largest_turn_deg = std::max(stats_.largest_turn_deg, s.largest_turn_deg);
    }
  }

  System& sys_;
  ComponentScratch<T> w_;
  std::vector<std::unique_ptr<View>> views_;
  std::vector<std::unique_ptr<Stepper>> steppers_;
  Snapshot saved_;  // the step start of each component (a failed step returns to it)
  State x_;
  SystemStepperStatistics stats_;
};

}  // namespace cabledyn
