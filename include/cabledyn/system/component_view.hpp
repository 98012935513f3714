// cabledyn: one connected component of a mooring system, as a system of its own.
// Spec "Time integration" (the Newton test, the subdivision of a failed step, the release cap
// and the EI = 0 sub-steps are decisions about the equations being stepped) and "Attached
// objects and line ends" (lines couple only through the objects at their ends: lines between
// held points, or groups joined by free points and bodies, are independent systems).
//
// A MooringSystem's tangent is block-diagonal over its connected components
// (MooringSystem::dof_components). Stepped as one system, every component pays for the one
// that needs the most: one snapping line makes every line iterate, halve its step and solve
// its sub-steps. A ComponentView presents component c to a SystemStepper as a system of its
// own (the stepper's System interface, system_stepper.hpp): its state holds c's DOFs alone
// (in the order of MooringSystem::component_dofs(c)), its Jacobian c's lines and objects
// (MooringSystem::make_jacobian(c)), its force scale and checks c's, and each call writes
// c's rows into a state of the whole system shared by the views of one system
// (ComponentScratch), restricts the system to c (set_active_component) and reads c's rows
// back. Nothing of another component is evaluated or changed. ComponentSteppers
// (component_steppers.hpp) steps every component so.
#pragma once

#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/dynamics/generalized_alpha.hpp"
#include "cabledyn/system/mooring_system.hpp"

namespace cabledyn {

/// A state of the whole system and two vectors of its size, shared by the views of one
/// system: each view writes only its own component's rows.
template <class T>
struct ComponentScratch {
  SystemState<T> s;
  VecX<T> r, g;
};

/// Component c of a MooringSystem as a system for SystemStepper (see the header).
template <class T>
class ComponentView {
 public:
  using Scalar = T;
  using State = SystemState<T>;
  using Jacobian = BorderedJacobian<T>;
  using Held = HeldKinematics<T>;
  using Index = Eigen::Index;

  /// The view of component c of sys (numbered); `scratch` must hold a state of the whole
  /// system (its q, v, a of sys.dofs() entries and one R per body) and outlive the view.
  ComponentView(MooringSystem<T>& sys, int c, ComponentScratch<T>& scratch)
      : sys_(sys), c_(c), w_(scratch), dofs_(sys.component_dofs(c)), name_(sys.component_name(c)) {
    if (w_.s.q.size() != sys.dofs() || w_.s.R.size() != sys.n_bodies())
      throw InputError(name_, "scratch state size", w_.s.q.size(), "== " + std::to_string(sys.dofs()) + " DOFs");
    w_.r.setZero(sys.dofs());
    w_.g.setZero(sys.dofs());
    for (std::size_t b = 0; b < sys.n_bodies(); ++b)
      if (sys.body_component(static_cast<int>(b)) == c) bodies_.push_back(b);
  }

  int component() const { return c_; }
  /// The system's DOFs of this component's, in order.
  const std::vector<Index>& system_dofs() const { return dofs_; }
  const std::string& name() const { return name_; }

  /// c's part of a state of the whole system (the bodies' orientations whole).
  State restrict(const State& s) const {
    State x;
    x.t = s.t;
    x.q.resize(size()), x.v.resize(size()), x.a.resize(size());
    for (std::size_t k = 0; k < dofs_.size(); ++k)
      x.q(k) = s.q(dofs_[k]), x.v(k) = s.v(dofs_[k]), x.a(k) = s.a(dofs_[k]);
    x.R = s.R;
    return x;
  }
  /// Writes c's state x into its rows of s (a state of the whole system) and its bodies'
  /// orientations; allocates nothing.
  void extend(const State& x, State& s) const {
    for (std::size_t k = 0; k < dofs_.size(); ++k) {
      const auto i = static_cast<Index>(k);
      s.q(dofs_[k]) = x.q(i), s.v(dofs_[k]) = x.v(i), s.a(dofs_[k]) = x.a(i);
    }
    for (std::size_t b : bodies_) s.R[b] = x.R[b];
  }

  // The stepper's System interface (system_stepper.hpp).
  Index dofs() const { return size(); }
  Jacobian make_jacobian() const { return sys_.make_jacobian(c_); }
  double force_scale(const State& s) const {
    return on(s, [&](const State& w) { return sys_.force_scale(w); });
  }
  void dynamic_residual(const State& s, VecX<T>& r, Jacobian* J, const T& wq, const T& wv) const {
    on(s, [&](const State& w) { sys_.dynamic_residual(w, w_.r, J, wq, wv); });
    take(w_.r, r);
  }
  void inertia(const State& s, VecX<T>& Ma, Jacobian* J, const T& wm, const T& wq) const {
    on(s, [&](const State& w) { sys_.inertia(w, w_.r, J, wm, wq); });
    take(w_.r, Ma);
  }
  void get_held(Held& h) const { sys_.get_held(h); }
  void set_held(const Held& h) { sys_.set_held(h); }
  void check_state(const State& s) const {
    on(s, [&](const State& w) { sys_.check_state(w); });
  }
  void commit(State& s) const {
    on(s, [&](const State&) { sys_.commit(w_.s); });
    for (std::size_t k = 0; k < dofs_.size(); ++k) s.q(static_cast<Index>(k)) = w_.s.q(dofs_[k]);
    for (std::size_t b : bodies_) s.R[b] = w_.s.R[b];
  }
  bool wants_line_search() const { return sys_.wants_line_search(); }
  bool wants_factor_reuse() const { return sys_.component_has_finite_ei(c_); }
  bool wants_newmark_predictor() const {
    const Active active(sys_, c_);
    return sys_.wants_newmark_predictor();
  }
  bool translational_dof(Index i) const { return sys_.translational_dof(dofs_[static_cast<std::size_t>(i)]); }
  double update_limit(const State& s, const VecX<T>& dq) const {
    for (std::size_t k = 0; k < dofs_.size(); ++k) w_.g(dofs_[k]) = dq(static_cast<Index>(k));
    return on(s, [&](const State& w) { return sys_.update_limit(w, w_.g); });
  }
  // The policies of c's lines.
  void prepare_blend(const State& s) const {
    on(s, [&](const State& w) { sys_.prepare_blend(w); });
  }
  long correct_blend(const State& s1, const T& dt, const GeneralizedAlpha<T>& ga, VecX<T>& G, Jacobian* J) const {
    for (std::size_t k = 0; k < dofs_.size(); ++k) w_.g(dofs_[k]) = G(static_cast<Index>(k));
    const long caps = on(s1, [&](const State& w) { return sys_.correct_blend(w, dt, ga, w_.g, J); });
    take(w_.g, G);
    return caps;
  }
  void substeps_start(const State& s0) const {
    on(s0, [&](const State& w) { sys_.substeps_start(w); });
  }
  int substeps_wanted(const State& s1, const T& dt) const {
    return on(s1, [&](const State& w) { return sys_.substeps_wanted(w, dt); });
  }
  void geometry_start(const State& s0) const {
    on(s0, [&](const State& w) { sys_.geometry_start(w); });
  }
  const char* step_rejection(const State& s1) const {
    return on(s1, [&](const State& w) { return sys_.step_rejection(w); });
  }
  void turn_start(const State& s0) const {
    on(s0, [&](const State& w) { sys_.turn_start(w); });
  }
  double turn_end(const State& s1, const T& dt) const {
    return on(s1, [&](const State& w) { return sys_.turn_end(w, dt); });
  }
  bool hold_inertia(const State& s) const {
    return on(s, [&](const State& w) { return sys_.hold_inertia(w); });
  }
  void release_inertia() const { sys_.release_inertia(); }
  bool blends_mass() const {
    const Active active(sys_, c_);
    return sys_.blends_mass();
  }
  void blend_mass_start(const State& s0) const {
    on(s0, [&](const State& w) { sys_.blend_mass_start(w); });
  }
  void blend_mass(const State& s1, const T& alpha_m, const T& alpha_f, const T& wm, VecX<T>& dG, Jacobian* J) const {
    on(s1, [&](const State& w) { sys_.blend_mass(w, alpha_m, alpha_f, wm, w_.r, J); });
    take(w_.r, dG);
  }

 private:
  // The system restricted to c for the length of one call.
  struct Active {
    const MooringSystem<T>& s;
    Active(const MooringSystem<T>& sys, int c) : s(sys) { s.set_active_component(c); }
    ~Active() { s.set_active_component(-1); }
    Active(const Active&) = delete;
    Active& operator=(const Active&) = delete;
  };
  Index size() const { return static_cast<Index>(dofs_.size()); }
  // f(the whole system's state with c's rows from s), the system restricted to c meanwhile.
  template <class F>
  decltype(auto) on(const State& s, F&& f) const {
    const Active active(sys_, c_);
    put(s);
    return f(static_cast<const State&>(w_.s));
  }
  // c's state into the shared whole-system state.
  void put(const State& s) const {
    w_.s.t = s.t;
    extend(s, w_.s);
  }
  // c's rows of a whole-system vector into x (sized once).
  void take(const VecX<T>& from, VecX<T>& x) const {
    if (x.size() != size()) x.resize(size());
    for (std::size_t k = 0; k < dofs_.size(); ++k) x(static_cast<Index>(k)) = from(dofs_[k]);
  }

  MooringSystem<T>& sys_;
  int c_;
  ComponentScratch<T>& w_;
  std::vector<Index> dofs_;
  std::vector<std::size_t> bodies_;
  std::string name_;
};

}  // namespace cabledyn
