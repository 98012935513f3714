// cabledyn: the fluid field the line loads see, and a field held over a step.
// Spec "Hydrodynamic loads" (the local acceleration of the wave field; the spatial gradient of
// the wave field is not in the tangent), "Currents" (the fluid velocity is the current plus
// the wave velocity; a coupled host samples velocity, acceleration and elevation at the nodes
// and holds them over the step) and "Time integration" (an EI = 0 line holds its fluid fields
// over the step, sampled for t_{n+1} at the committed node positions).
#pragma once

#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/sea/current.hpp"

namespace cabledyn {

/// Everything the line loads need from the water at one point and time.
struct FluidSample {
  Eigen::Vector3d u = Eigen::Vector3d::Zero();  ///< fluid velocity, current + waves [m/s]
  Eigen::Vector3d a = Eigen::Vector3d::Zero();  ///< local (Eulerian) acceleration [m/s^2]
  double eta = 0;                               ///< surface elevation at (x, y) [m]
  double p_dyn = 0;                             ///< dynamic pressure p + rho g z [Pa]
  bool wet = true;                              ///< the point is at or below the surface
};

/// The fluid field interface the line loads call, once per point per step: velocity, local
/// acceleration, surface elevation and dynamic pressure at (x, t), plus the steady current
/// (what the statics use) and its gradient (the statics Jacobian).
///
/// A virtual base on double, not a concept: the field is selected at run time from the deck
/// (waves or not, which current), and the loads evaluate it at the value of a position and
/// hold the result (the spec leaves the field's spatial gradient out of the dynamic tangent),
/// so nothing is lost by fixing the scalar to double, and a virtual call (ns) is negligible
/// against one wave-kinematics evaluation (us for a 200-component sea). The scalar-generic
/// kernels stay available to tests and users as the templated `kinematics<T>` members of the
/// wave models (LinearSea, StreamWave, WaveField).
class FluidField {
 public:
  virtual ~FluidField() = default;

  /// Velocity, local acceleration, elevation and dynamic pressure at x [m], time t [s]. Points
  /// above the surface get the current and no wave kinematics (`wet` false).
  virtual FluidSample sample(const Eigen::Vector3d& x, double t) const = 0;
  /// Surface elevation [m] at (x, y) and time t.
  virtual double elevation(double x, double y, double t) const = 0;
  /// The steady current [m/s] at x (no waves, not ramped).
  virtual Eigen::Vector3d current(const Eigen::Vector3d& x) const = 0;
  /// The gradient dU_i / dx_j [1/s] of the steady current at x.
  virtual Eigen::Matrix3d current_gradient(const Eigen::Vector3d& x) const = 0;

  /// Fluid velocity [m/s] at (x, t).
  Eigen::Vector3d velocity(const Eigen::Vector3d& x, double t) const { return sample(x, t).u; }
  /// Local acceleration [m/s^2] at (x, t).
  Eigen::Vector3d acceleration(const Eigen::Vector3d& x, double t) const { return sample(x, t).a; }
  /// Dynamic pressure [Pa] at (x, t).
  double dynamic_pressure(const Eigen::Vector3d& x, double t) const { return sample(x, t).p_dyn; }
};

/// Still water: no waves, no current; the surface at z = 0.
class StillWater final : public FluidField {
 public:
  FluidSample sample(const Eigen::Vector3d& x, double) const override {
    FluidSample s;
    s.wet = x(2) <= 0;
    return s;
  }
  double elevation(double, double, double) const override { return 0; }
  Eigen::Vector3d current(const Eigen::Vector3d&) const override { return Eigen::Vector3d::Zero(); }
  Eigen::Matrix3d current_gradient(const Eigen::Vector3d&) const override { return Eigen::Matrix3d::Zero(); }
};

/// A steady current (uniform, profile or SeaState CurrMod 1) without waves; the surface at
/// z = 0. Above it the current is still reported (held as the Current holds it), wet false.
class CurrentField final : public FluidField {
 public:
  explicit CurrentField(Current c) : current_(std::move(c)) {}
  const Current& model() const { return current_; }

  FluidSample sample(const Eigen::Vector3d& x, double) const override {
    FluidSample s;
    s.u = current_.velocity(x);
    s.wet = x(2) <= 0;
    return s;
  }
  double elevation(double, double, double) const override { return 0; }
  Eigen::Vector3d current(const Eigen::Vector3d& x) const override { return current_.velocity(x); }
  Eigen::Matrix3d current_gradient(const Eigen::Vector3d& x) const override { return current_.gradient(x); }

 private:
  Current current_;
};

/// A field sampled at a fixed set of points at one time and held over a step (spec "Time
/// integration": an EI = 0 line samples its fluid fields for t_{n+1} at the committed node
/// positions and every load evaluation of the step uses them; "Currents": a coupling host
/// sets them). Storage is allocated once, at construction; sampling allocates nothing and is
/// all-or-nothing: it fills a second buffer and swaps it in only when every point succeeded,
/// so a failed sample (a trough below the bed) leaves the held step intact.
class HeldField {
 public:
  HeldField() = default;
  /// Room for `points` samples.
  explicit HeldField(std::size_t points) : held_(points), scratch_(points) {}

  std::size_t size() const { return held_.size(); }
  /// Time the samples belong to [s].
  double time() const { return time_; }
  const FluidSample& operator[](std::size_t i) const { return held_[i]; }
  const std::vector<FluidSample>& samples() const { return held_; }

  /// Samples `field` at the points at time t (one point per held slot).
  void sample(const FluidField& field, std::span<const Eigen::Vector3d> points, double t) {
    if (points.size() != held_.size())
      throw InputError("held fluid field", "points", points.size(), "= " + std::to_string(held_.size()));
    sample_with(field, [&](std::size_t i) -> const Eigen::Vector3d& { return points[i]; }, t);
  }

  /// Samples `field` at point(i), i = 0 .. size() - 1, at time t; `point` returns something
  /// convertible to Eigen::Vector3d (e.g. a 3-segment of a DOF vector).
  template <class PointFn>
  void sample_with(const FluidField& field, PointFn&& point, double t) {
    for (std::size_t i = 0; i < scratch_.size(); ++i) {
      const Eigen::Vector3d x = point(i);
      scratch_[i] = field.sample(x, t);
    }
    held_.swap(scratch_);
    time_ = t;
  }

  /// Sets one held sample (a coupling host that samples its own field).
  void set(std::size_t i, const FluidSample& s) {
    if (i >= held_.size()) throw InputError("held fluid field", "point index", i, "< " + std::to_string(held_.size()));
    held_[i] = s;
  }
  /// Sets the time the held samples belong to (with set()).
  void set_time(double t) { time_ = t; }

 private:
  std::vector<FluidSample> held_, scratch_;
  double time_ = 0;
};

}  // namespace cabledyn
