// cabledyn: a sea state as the line loads see it: one wave model (none, linear Airy /
// irregular / component table, or a stream wave), the start-up ramp and a steady current.
// Spec "Waves", "Currents"; EQUATIONS.md section 7.
#pragma once

#include <cmath>
#include <string>
#include <utility>
#include <variant>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/sea/airy.hpp"
#include "cabledyn/sea/current.hpp"
#include "cabledyn/sea/fluid_field.hpp"
#include "cabledyn/sea/ramp.hpp"
#include "cabledyn/sea/stream_function.hpp"

namespace cabledyn {

/// The wave depth an Environment implies: its WtrDpth, or deep water without one.
inline double wave_depth(const Environment& env) { return env.depth ? *env.depth : kDeepWater; }

/// The wave model of a sea state: no waves, a linear sea (a regular Airy wave, an irregular
/// sea, several trains or a component table) or a stream-function wave.
using WaveModel = std::variant<std::monostate, LinearSea, StreamWave>;

/// Waves (ramped) plus a steady current (not ramped), as one FluidField (spec "Currents": the
/// fluid velocity seen by the drag is the current plus the wave velocity). Above the
/// instantaneous surface the waves contribute nothing and the current is held (Current).
class WaveField final : public FluidField {
 public:
  /// Waves `waves`, current `current`, ramp `ramp`, water density rho_w [kg/m^3]. A SeaState
  /// current must have the depth of the waves. Throws InputError.
  explicit WaveField(WaveModel waves, Current current = Current::none(), Ramp ramp = {},
                     double rho_w = kRhoWater)
      : waves_(std::move(waves)), current_(std::move(current)), ramp_(ramp), rho_(rho_w) {
    ramp_.validate();
    if (!(std::isfinite(rho_w) && rho_w >= 0)) throw InputError("wave field", "rho_w", rho_w, ">= 0");
    if (current_.kind() == Current::Kind::SeaState) {
      const double h = waves_depth();
      if (!std::isnan(h) && h != current_.depth())
        throw InputError("wave field", "SeaState current depth", current_.depth(),
                         "= wave depth (" + to_text(h) + ")");
    }
  }

  const WaveModel& waves() const { return waves_; }
  WaveModel& waves() { return waves_; }
  const Current& current_model() const { return current_; }
  const Ramp& ramp() const { return ramp_; }
  double rho_w() const { return rho_; }

  /// Elevation [m] at (x, y, t).
  template <class T>
  T surface(const T& x, const T& y, const T& t) const {
    return std::visit(
        [&](const auto& w) -> T {
          using W = std::decay_t<decltype(w)>;
          if constexpr (std::is_same_v<W, std::monostate>)
            return T(0);
          else
            return w.elevation(x, y, t, ramp_);
        },
        waves_);
  }

  /// Wave kinematics plus the current at x, t: u = u_waves + U(x), a = a_waves (the current
  /// is steady), pd = the waves' p_dyn / rho_w. Scalar-generic (duals in the tests).
  template <class T>
  WaveKinematics<T> kinematics(const Vec3<T>& x, const T& t) const {
    WaveKinematics<T> k = std::visit(
        [&](const auto& w) -> WaveKinematics<T> {
          using W = std::decay_t<decltype(w)>;
          if constexpr (std::is_same_v<W, std::monostate>) {
            WaveKinematics<T> s;
            s.wet = value_of(x(2)) <= 0;
            return s;
          } else {
            return w.kinematics(x, t, ramp_);
          }
        },
        waves_);
    if (current_.kind() != Current::Kind::None) k.u += current_.velocity(x);
    return k;
  }

  FluidSample sample(const Eigen::Vector3d& x, double t) const override {
    const WaveKinematics<double> k = kinematics<double>(x, t);
    FluidSample s;
    s.u = k.u;
    s.a = k.a;
    s.eta = k.eta;
    s.p_dyn = rho_ * k.pd;
    s.wet = k.wet;
    return s;
  }
  double elevation(double x, double y, double t) const override { return surface<double>(x, y, t); }
  Eigen::Vector3d current(const Eigen::Vector3d& x) const override { return current_.velocity(x); }
  Eigen::Matrix3d current_gradient(const Eigen::Vector3d& x) const override { return current_.gradient(x); }

 private:
  double waves_depth() const {
    if (const auto* l = std::get_if<LinearSea>(&waves_)) return l->depth();
    if (const auto* s = std::get_if<StreamWave>(&waves_)) return s->depth();
    return std::nan("");
  }

  WaveModel waves_;
  Current current_;
  Ramp ramp_;
  double rho_ = kRhoWater;
};

}  // namespace cabledyn
