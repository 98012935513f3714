// cabledyn: steady currents: uniform, a depth profile, and SeaState's CurrMod 1.
// Spec "Currents"; EQUATIONS.md section 7.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// OpenFAST SeaState's standard current (CurrMod = 1), reproduced so that wave and current
/// contributions can be separated (spec "Currents"). Speeds >= 0 [m/s], headings [rad]
/// counter-clockwise from +x (the direction the water flows to).
struct SeaStateCurrent {
  double ss_speed = 0;  ///< CurrSSV0: sub-surface speed at the still water level [m/s]
  double ss_dir = 0;    ///< CurrSSDir [rad]
  double ns_ref = 20;   ///< CurrNSRef: depth of the near-surface profile [m], > 0
  double ns_speed = 0;  ///< CurrNSV0: near-surface speed at the still water level [m/s]
  double ns_dir = 0;    ///< CurrNSDir [rad]
  double di_speed = 0;  ///< CurrDIV: depth-independent speed [m/s]
  double di_dir = 0;    ///< CurrDIDir [rad]
};

/// A steady current U(x) [m/s] (not ramped: spec "Waves", rampTime). Kinds:
/// - none: U = 0;
/// - uniform: U = U0 everywhere;
/// - profile: N >= 2 levels (z_j, u_j) with strictly increasing z_j, interpolated linearly in
///   z and held at the end values outside (spec "Currents"; also a WaterKin CurrentMod 1 depth
///   table);
/// - SeaState CurrMod 1 over depth h: U_ss ((z + h)/h)^(1/7) along CurrSSDir, plus
///   max(U_ns (z + d_ns)/d_ns, 0) along CurrNSDir, plus U_di along CurrDIDir, for
///   -h <= z <= 0 and held at z = 0 above the still water level (under a wave crest) and at
///   z = -h below the bed (SeaState's HydroDyn formulas; spec "Currents").
/// Evaluation allocates nothing.
class Current {
 public:
  enum class Kind { None, Uniform, Profile, SeaState };

  /// No current.
  static Current none() { return Current(); }

  /// A uniform current U0 [m/s].
  static Current uniform(const Eigen::Vector3d& U0) {
    if (!U0.allFinite()) throw InputError("uniform current", "velocity", U0.norm(), "finite");
    Current c;
    c.kind_ = Kind::Uniform;
    c.U0_ = U0;
    return c;
  }

  /// A depth profile: levels z [m] (strictly increasing, at least two) and velocities u [m/s].
  static Current profile(std::vector<double> z, std::vector<Eigen::Vector3d> u) {
    const char* who = "current profile";
    if (z.size() < 2) throw InputError(who, "levels", z.size(), ">= 2");
    if (u.size() != z.size())
      throw InputError(who, "velocities", u.size(), "= levels (" + std::to_string(z.size()) + ")");
    for (std::size_t j = 0; j < z.size(); ++j) {
      if (!std::isfinite(z[j])) throw InputError(who, "z of level " + std::to_string(j + 1), z[j], "finite");
      if (!u[j].allFinite())
        throw InputError(who, "velocity of level " + std::to_string(j + 1), u[j].norm(), "finite");
      if (j > 0 && !(z[j] > z[j - 1]))
        throw InputError(who, "z of level " + std::to_string(j + 1), z[j],
                         "> " + to_text(z[j - 1]) + " (strictly increasing)");
    }
    Current c;
    c.kind_ = Kind::Profile;
    c.z_ = std::move(z);
    c.u_ = std::move(u);
    return c;
  }

  /// SeaState's CurrMod 1 current over a bed at depth `depth` [m].
  static Current seastate(const SeaStateCurrent& p, double depth) {
    const char* who = "SeaState current (CurrMod 1)";
    if (!(std::isfinite(depth) && depth > 0)) throw InputError(who, "WtrDpth", depth, "> 0, finite");
    if (!(std::isfinite(p.ss_speed) && p.ss_speed >= 0)) throw InputError(who, "CurrSSV0", p.ss_speed, ">= 0");
    if (!(std::isfinite(p.ns_speed) && p.ns_speed >= 0)) throw InputError(who, "CurrNSV0", p.ns_speed, ">= 0");
    if (!(std::isfinite(p.di_speed) && p.di_speed >= 0)) throw InputError(who, "CurrDIV", p.di_speed, ">= 0");
    if (!(std::isfinite(p.ns_ref) && p.ns_ref > 0)) throw InputError(who, "CurrNSRef", p.ns_ref, "> 0");
    if (!std::isfinite(p.ss_dir)) throw InputError(who, "CurrSSDir", p.ss_dir, "finite");
    if (!std::isfinite(p.ns_dir)) throw InputError(who, "CurrNSDir", p.ns_dir, "finite");
    if (!std::isfinite(p.di_dir)) throw InputError(who, "CurrDIDir", p.di_dir, "finite");
    Current c;
    c.kind_ = Kind::SeaState;
    c.ss_ = p;
    c.h_ = depth;
    c.e_ss_ << std::cos(p.ss_dir), std::sin(p.ss_dir), 0;
    c.e_ns_ << std::cos(p.ns_dir), std::sin(p.ns_dir), 0;
    c.U0_ = p.di_speed * Eigen::Vector3d(std::cos(p.di_dir), std::sin(p.di_dir), 0);
    return c;
  }

  Kind kind() const { return kind_; }
  /// Depth of a SeaState current [m] (0 for the other kinds).
  double depth() const { return kind_ == Kind::SeaState ? h_ : 0.0; }

  /// U(x) [m/s]; spec "Currents". A profile depends on z only.
  template <class T>
  Vec3<T> velocity(const Vec3<T>& x) const {
    Vec3<T> U = Vec3<T>::Zero();
    switch (kind_) {
      case Kind::None: break;
      case Kind::Uniform: U = U0_.cast<T>(); break;
      case Kind::Profile: U = profile_velocity(x(2)); break;
      case Kind::SeaState: U = seastate_velocity(x(2)); break;
    }
    return U;
  }

  /// The gradient dU_i / dx_j [1/s] (only the z column is non-zero). Piecewise: a profile
  /// takes the slope of the interval above a level that x sits on exactly, zero outside;
  /// SeaState's 1/7 law has the slope U_ss / (7 h) ((z + h)/h)^(-6/7), unbounded at the bed.
  Eigen::Matrix3d gradient(const Eigen::Vector3d& x) const {
    Eigen::Matrix3d G = Eigen::Matrix3d::Zero();
    const double z = x(2);
    if (kind_ == Kind::Profile) {
      if (z < z_.front() || z >= z_.back()) return G;
      const std::size_t j = interval(z);
      G.col(2) = (u_[j + 1] - u_[j]) / (z_[j + 1] - z_[j]);
    } else if (kind_ == Kind::SeaState) {
      if (z <= -h_ || z > 0) return G;
      G.col(2) = ss_.ss_speed / (7 * h_) * std::pow((z + h_) / h_, -6.0 / 7.0) * e_ss_;
      if (z > -ss_.ns_ref) G.col(2) += ss_.ns_speed / ss_.ns_ref * e_ns_;
    }
    return G;
  }

 private:
  // index j with z_j <= z < z_{j+1}, for z_front <= z < z_back
  std::size_t interval(double z) const {
    const auto it = std::upper_bound(z_.begin(), z_.end(), z);
    return static_cast<std::size_t>(it - z_.begin()) - 1;
  }

  template <class T>
  Vec3<T> profile_velocity(const T& z) const {
    const double zv = static_cast<double>(value_of(z));
    if (zv <= z_.front()) return u_.front().cast<T>();
    if (zv >= z_.back()) return u_.back().cast<T>();
    const std::size_t j = interval(zv);
    const T s = (z - T(z_[j])) / T(z_[j + 1] - z_[j]);
    return (u_[j].cast<T>() + (u_[j + 1] - u_[j]).cast<T>() * s).eval();
  }

  template <class T>
  Vec3<T> seastate_velocity(const T& z) const {
    using std::exp;
    using std::log;
    const double zv = static_cast<double>(value_of(z));
    T zc = z;
    if (zv > 0) zc = T(0);
    if (zv < -h_) zc = T(-h_);
    Vec3<T> U = U0_.cast<T>();
    if (static_cast<double>(value_of(zc)) > -h_ && ss_.ss_speed > 0)
      U += e_ss_.cast<T>() * T(T(ss_.ss_speed) * exp(log(T((zc + T(h_)) / T(h_))) / T(7)));  // ^(1/7)
    const T ns = T(ss_.ns_speed) * (zc + T(ss_.ns_ref)) / T(ss_.ns_ref);
    if (value_of(ns) > 0) U += e_ns_.cast<T>() * ns;
    return U;
  }

  Kind kind_ = Kind::None;
  Eigen::Vector3d U0_ = Eigen::Vector3d::Zero();
  std::vector<double> z_;
  std::vector<Eigen::Vector3d> u_;
  SeaStateCurrent ss_;
  double h_ = 0;
  Eigen::Vector3d e_ss_ = Eigen::Vector3d::Zero(), e_ns_ = Eigen::Vector3d::Zero();
};

}  // namespace cabledyn
