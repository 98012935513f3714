// cabledyn: the spring-damper node (spec spring-damper-node.md, "SpringDamperNode").
// A point mass on a linear spring-damper whose other end, the anchor, is a boundary input:
//   m x'' = -k (x - a(t) - l0) - c x'                       (spec "Governing Equations")
// stepped by semi-implicit (symplectic) Euler, velocity first (spec "Discretization").
// The node is a value type: parameters are plain doubles, the state and the inputs are
// Eigen vectors of the scalar T (double, long double, duals), and every member is a pure
// function of its arguments. The graph (nodes/graph.hpp) holds the state between steps.
#pragma once

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// Parameters of a spring-damper node; spec "Parameters" (defaults 100, 1, 1, 1, 0, 0).
struct SpringDamperParams {
  double stiffness = 100.0;       ///< spring constant k [N/m], >= 0
  double damping = 1.0;           ///< damping coefficient c [N s/m], >= 0
  double mass = 1.0;              ///< point mass m [kg], > 0
  double rest_length = 1.0;       ///< natural length l0 [m] (signed: x - a at rest)
  double initial_position = 0.0;  ///< x(0) [m]
  double initial_velocity = 0.0;  ///< v(0) [m/s]
};

/// Per-call (or per-graph, "live") parameter values. An engaged field wins over the node's
/// own value: the spec's `{**self.params, **params}` rule ("Known Limitations" 3).
struct SpringDamperOverrides {
  std::optional<double> stiffness;
  std::optional<double> damping;
  std::optional<double> mass;
  std::optional<double> rest_length;
  std::optional<double> initial_position;
  std::optional<double> initial_velocity;
};

/// `p` with every engaged field of `o` substituted (injected values win).
inline SpringDamperParams merged(const SpringDamperParams& p, const SpringDamperOverrides& o) {
  SpringDamperParams r = p;
  if (o.stiffness) r.stiffness = *o.stiffness;
  if (o.damping) r.damping = *o.damping;
  if (o.mass) r.mass = *o.mass;
  if (o.rest_length) r.rest_length = *o.rest_length;
  if (o.initial_position) r.initial_position = *o.initial_position;
  if (o.initial_velocity) r.initial_velocity = *o.initial_velocity;
  return r;
}

/// True when every parameter is acceptable (see `validate`).
inline bool valid(const SpringDamperParams& p) {
  using std::isfinite;
  return isfinite(p.mass) && p.mass > 0 && isfinite(p.stiffness) && p.stiffness >= 0 &&
         isfinite(p.damping) && p.damping >= 0 && isfinite(p.rest_length) &&
         isfinite(p.initial_position) && isfinite(p.initial_velocity);
}

/// Throws InputError naming `object` and the first bad parameter: mass <= 0 (spec
/// "Validated Physical Regimes": zero mass divides by zero), negative stiffness or
/// damping, or any non-finite value.
inline void validate(const SpringDamperParams& p, const std::string& object) {
  using std::isfinite;
  detail::require(isfinite(p.mass) && p.mass > 0, object, "mass", p.mass, "> 0");
  detail::require(isfinite(p.stiffness) && p.stiffness >= 0, object, "stiffness", p.stiffness,
                  ">= 0");
  detail::require(isfinite(p.damping) && p.damping >= 0, object, "damping", p.damping, ">= 0");
  detail::require(isfinite(p.rest_length), object, "rest_length", p.rest_length, "finite");
  detail::require(isfinite(p.initial_position), object, "initial_position", p.initial_position,
                  "finite");
  detail::require(isfinite(p.initial_velocity), object, "initial_velocity", p.initial_velocity,
                  "finite");
}

namespace detail {
/// Throws InputError naming `object` (text) unless dt is finite and > 0.
template <class T, class Object>
void require_timestep(const T& dt, const Object& object) {
  using std::isfinite;
  const auto v = value_of(dt);
  if (!(isfinite(v) && v > 0)) throw InputError(std::string(object), "dt", v, "> 0");
}
}  // namespace detail

/// The spring-damper node of spec spring-damper-node.md over the scalar T.
/// State (position [m], velocity [m/s]); boundary input anchor_position [m] (default 0);
/// boundary flux spring_force [N]. Every member takes optional injected parameters.
template <class T>
class SpringDamperNode {
 public:
  using Scalar = T;
  using Params = SpringDamperParams;
  using Overrides = SpringDamperOverrides;
  /// (position [m], velocity [m/s]); spec "State Variables".
  using State = Vec2<T>;
  /// (anchor_position [m]); spec "Boundary Inputs".
  using Inputs = Vec<T, 1>;
  /// (spring_force [N]); spec "Boundary Fluxes".
  using Fluxes = Vec<T, 1>;

  static constexpr int kPosition = 0;
  static constexpr int kVelocity = 1;
  static constexpr int kAnchorPosition = 0;
  static constexpr int kSpringForce = 0;
  static constexpr std::array<std::string_view, 2> kStateFields{"position", "velocity"};
  static constexpr std::array<std::string_view, 1> kInputFields{"anchor_position"};
  static constexpr std::array<std::string_view, 1> kFluxFields{"spring_force"};
  /// Declared global temporal order of `step` in both state fields; spec "Discretization"
  /// (DiscretizationOrder(spatial=None, temporal=1.0)), measured in order_study_test.cpp.
  static constexpr double kDeclaredTemporalOrder = 1.0;

  /// Throws InputError for mass <= 0 (and the other checks of `validate`).
  explicit SpringDamperNode(Params params = {}, std::string name = "SpringDamperNode")
      : params_(params), name_(std::move(name)) {
    validate(params_, object());
  }

  const Params& params() const noexcept { return params_; }
  const std::string& name() const noexcept { return name_; }
  /// "SpringDamperNode '<name>'": the object named by this node's errors.
  std::string object() const { return "SpringDamperNode '" + name_ + "'"; }

  /// The node's parameters with `injected` substituted, validated (InputError naming the
  /// node when an injected value is bad).
  Params effective_params(const Overrides& injected = {}) const {
    if (!(injected.stiffness || injected.damping || injected.mass || injected.rest_length ||
          injected.initial_position || injected.initial_velocity))
      return params_;  // validated at construction
    const Params p = merged(params_, injected);
    if (!valid(p)) validate(p, object());  // the message is built only on failure
    return p;
  }

  /// (initial_position, initial_velocity).
  State initial_state(const Overrides& injected = {}) const {
    const Params p = effective_params(injected);
    return State(T(p.initial_position), T(p.initial_velocity));
  }
  /// anchor_position = 0 (spec: "defaults to the origin when unsupplied").
  Inputs default_inputs() const { return Inputs(T(0)); }
  /// The input vector of an anchor position a [m].
  static Inputs inputs(const T& anchor_position) { return Inputs(anchor_position); }

  /// Spring-damper force on the mass [N]: -k (x - a - l0) - c v; spec "Implementation
  /// Mapping" (spring force, viscous damping). The reaction on the anchor is its negative.
  T spring_force(const State& s, const Inputs& u, const Overrides& injected = {}) const {
    return force(effective_params(injected), s, u);
  }
  /// The flux vector (spring_force); spec "Boundary Fluxes", same constants as `step`.
  Fluxes boundary_fluxes(const State& s, const Inputs& u, const Overrides& injected = {}) const {
    return Fluxes(spring_force(s, u, injected));
  }

  /// One semi-implicit Euler step of dt [s]; spec "Discretization":
  /// v+ = v + dt/m [-k (x - a - l0) - c v],  x+ = x + dt v+ (the new velocity).
  State step(const State& s, const Inputs& u, const T& dt, const Overrides& injected = {}) const {
    check_timestep(dt);
    const Params p = effective_params(injected);
    const T f = force(p, s, u);
    const T v1 = s(kVelocity) + (f / T(p.mass)) * dt;
    const T x1 = s(kPosition) + v1 * dt;
    return State(x1, v1);
  }

  /// Continuous right-hand side (x', v') = (v, F/m) of the governing equation; spec
  /// "Implementation Mapping" (derivatives: for the generic integrators, not `step`).
  State derivatives(const State& s, const Inputs& u, const Overrides& injected = {}) const {
    const Params p = effective_params(injected);
    return State(s(kVelocity), force(p, s, u) / T(p.mass));
  }

  /// Backward-Euler residual x+ - x - dt f(x+) with the inputs u+ at the new time; spec
  /// "Implementation Mapping" (implicit_residual).
  State implicit_residual(const State& x_new, const State& x_old, const Inputs& u_new,
                          const T& dt, const Overrides& injected = {}) const {
    check_timestep(dt);
    return State(x_new - x_old - dt * derivatives(x_new, u_new, injected));
  }

  /// d(implicit_residual)/d(x+) = I - dt [[0, 1], [-k/m, -c/m]] (exact: the node is linear).
  Mat<T, 2> implicit_jacobian(const State& /*x_new*/, const State& /*x_old*/,
                              const Inputs& /*u_new*/, const T& dt,
                              const Overrides& injected = {}) const {
    check_timestep(dt);
    const Params p = effective_params(injected);
    Mat<T, 2> J;
    J << T(1), -dt, dt * T(p.stiffness) / T(p.mass), T(1) + dt * T(p.damping) / T(p.mass);
    return J;
  }

 private:
  void check_timestep(const T& dt) const {
    using std::isfinite;
    if (!(isfinite(value_of(dt)) && value_of(dt) > 0)) detail::require_timestep(dt, object());
  }
  static T force(const Params& p, const State& s, const Inputs& u) {
    return -T(p.stiffness) * (s(kPosition) - u(kAnchorPosition) - T(p.rest_length)) -
           T(p.damping) * s(kVelocity);
  }

  Params params_;
  std::string name_;
};

}  // namespace cabledyn
