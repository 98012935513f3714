// cabledyn: linear (Airy) waves: one regular wave or a sum of components, with or without
// Wheeler stretching, and the early-stopping component sums.
// Spec "Waves" (regular Airy, Wheeler stretching, irregular waves, the component sums);
// EQUATIONS.md section 7.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/sea/dispersion.hpp"
#include "cabledyn/sea/ramp.hpp"

namespace cabledyn {

/// One linear wave component: elevation a cos(theta), theta = k (x cos beta + y sin beta)
/// - omega t + phase. `k` is filled in by LinearSea from the dispersion relation.
struct WaveComponent {
  double a = 0;      ///< amplitude [m], >= 0
  double omega = 0;  ///< angular frequency [rad/s], > 0
  double phase = 0;  ///< phase [rad]
  double beta = 0;   ///< direction of travel [rad], counter-clockwise from +x
  double k = 0;      ///< wavenumber [1/m] (output of LinearSea)
};

/// Wave kinematics at one point and time. Above the instantaneous surface (z > eta) every
/// field but `eta` is zero and `wet` is false.
template <class T>
struct WaveKinematics {
  T eta = T(0);                    ///< surface elevation at (x, y) [m]
  Vec3<T> u = Vec3<T>::Zero();     ///< fluid velocity [m/s]
  Vec3<T> a = Vec3<T>::Zero();     ///< local (Eulerian) acceleration [m/s^2]
  T pd = T(0);                     ///< dynamic pressure over density, p_dyn / rho_w [m^2/s^2]
  bool wet = false;                ///< the point is at or below the surface
  int terms = 0;                   ///< components summed in the velocity sums (early stop)
};

/// Options of a linear sea.
struct LinearSeaOptions {
  /// Wheeler stretching (spec "Waves"): kinematics at z' = h (z - eta) / (h + eta).
  bool wheeler = true;
  /// Stop the velocity, acceleration and pressure sums once the bound on the rest is below
  /// half an ulp of the magnitudes already summed (spec "Waves"); false sums every component.
  bool early_stop = true;
};

namespace detail {
/// Half an ulp of m > 0 in the floating type V (0 for m <= 0).
template <class V>
V half_ulp(V m) {
  if (!(m > 0) || !std::isfinite(m)) return V(0);
  return std::ldexp(V(1), std::ilogb(m) - std::numeric_limits<V>::digits);
}
}  // namespace detail

/// A linear sea: the superposition of Airy components (one for a regular wave), over a flat
/// bed at depth h (or deep water). Spec "Waves":
///   eta = sum a_i cos theta_i,
///   u_h = sum a_i omega_i cosh k_i(z'+h) / sinh(k_i h) cos theta_i along (cos b_i, sin b_i, 0),
///   u_z = sum a_i omega_i sinh k_i(z'+h) / sinh(k_i h) sin theta_i,
///   udot_h = sum a_i omega_i^2 cosh(..)/sinh(..) sin theta_i,
///   udot_z = -sum a_i omega_i^2 sinh(..)/sinh(..) cos theta_i,
///   p_dyn / rho = sum g a_i cosh k_i(z'+h) / cosh(k_i h) cos theta_i,
/// with z' = z, or with Wheeler stretching z' = h (z - eta) / (h + eta) against the total
/// elevation (one mapping for every component). The accelerations are the local time
/// derivatives at fixed z' (the spec's formulas at the stretched coordinate; without
/// stretching, exactly du/dt at the point).
///
/// The depth ratios are evaluated from E = e^{-k (z' + h)} as e^{-kh} (1/E +- E) / (1 -+
/// e^{-2kh}) (one exp per component), which neither overflows for large k h nor loses the bed
/// condition: u_z = 0 exactly at z' = -h, which stretching maps the bed to exactly.
///
/// Components are kept in order of increasing k. The elevation sums every component. The
/// velocity, acceleration and pressure sums run in that order and, with early stopping, stop
/// after component i once C_i times each of the remaining sum_{j>i} a_j omega_j,
/// sum a_j omega_j^2 and sum a_j omega_j^2 / k_j is below half an ulp of the magnitudes
/// summed so far (C_i = cosh k_i(z'+h) / sinh k_i h, which falls as k grows for z' <= 0 and
/// bounds the sinh ratio and g cosh/cosh = omega^2/k cosh/sinh; points with z' > 0 sum
/// everything). The result then changes at round-off only.
///
/// Evaluation allocates nothing. Construction validates and throws InputError naming the
/// offending component.
class LinearSea {
 public:
  LinearSea() = default;

  /// A sea of the given components over depth `depth` [m] (kDeepWater: deep water) under
  /// gravity `g` [m/s^2]. Computes each k from the dispersion relation.
  LinearSea(std::vector<WaveComponent> components, double depth, double g,
            LinearSeaOptions options = {})
      : depth_(depth), g_(g), options_(options) {
    if (!(depth > 0)) throw InputError("linear sea", "depth", depth, "> 0");
    if (!(std::isfinite(g) && g > 0)) throw InputError("linear sea", "g", g, "> 0");
    for (std::size_t i = 0; i < components.size(); ++i) {
      auto& c = components[i];
      const std::string who = "wave component " + std::to_string(i + 1);
      if (!(std::isfinite(c.a) && c.a >= 0)) throw InputError(who, "amplitude", c.a, ">= 0");
      if (!(std::isfinite(c.omega) && c.omega > 0)) throw InputError(who, "omega", c.omega, "> 0");
      if (!std::isfinite(c.phase)) throw InputError(who, "phase", c.phase, "finite");
      if (!std::isfinite(c.beta)) throw InputError(who, "beta", c.beta, "finite");
      c.k = wave_number(c.omega, depth, g);
    }
    std::stable_sort(components.begin(), components.end(),
                     [](const WaveComponent& l, const WaveComponent& r) { return l.k < r.k; });
    components_ = std::move(components);
    terms_.resize(components_.size());
    const bool deep = std::isinf(depth_);
    for (std::size_t i = 0; i < components_.size(); ++i) {
      const auto& c = components_[i];
      Term& t = terms_[i];
      t.a = c.a;
      t.omega = c.omega;
      t.k = c.k;
      t.phase = c.phase;
      t.cb = std::cos(c.beta);
      t.sb = std::sin(c.beta);
      t.aw = c.a * c.omega;
      t.aw2 = c.a * c.omega * c.omega;
      t.ga = g_ * c.a;
      t.deep = deep || c.k * depth_ > kDeepKh;
      if (t.deep) {
        t.ekh = 0;
        t.inv_s = 1;
        t.inv_c = 1;
      } else {
        t.ekh = std::exp(-c.k * depth_);
        t.inv_s = 1 / -std::expm1(-2 * c.k * depth_);
        t.inv_c = 1 / (1 + t.ekh * t.ekh);
      }
    }
    rem_v_.assign(components_.size() + 1, 0.0);
    rem_a_.assign(components_.size() + 1, 0.0);
    rem_p_.assign(components_.size() + 1, 0.0);
    for (std::size_t i = components_.size(); i-- > 0;) {
      const auto& c = components_[i];
      rem_v_[i] = rem_v_[i + 1] + c.a * c.omega;
      rem_a_[i] = rem_a_[i + 1] + c.a * c.omega * c.omega;
      rem_p_[i] = rem_p_[i + 1] + c.a * c.omega * c.omega / c.k;
    }
  }

  /// A regular Airy wave of height H [m] and period T [s] travelling along `beta` [rad],
  /// crest at the origin at t = 0. Spec "Waves" (regular waves).
  static LinearSea regular(double H, double T, double beta, double depth, double g,
                           LinearSeaOptions options = {}) {
    if (!(std::isfinite(H) && H > 0)) throw InputError("Airy wave", "H", H, "> 0");
    if (!(std::isfinite(T) && T > 0)) throw InputError("Airy wave", "T", T, "> 0");
    if (!std::isfinite(beta)) throw InputError("Airy wave", "beta", beta, "finite");
    if (!(depth > 0)) throw InputError("Airy wave", "depth", depth, "> 0");
    WaveComponent c;
    c.a = H / 2;
    c.omega = 2 * kPi / T;
    c.beta = beta;
    return LinearSea({c}, depth, g, options);
  }

  /// The components, in order of increasing k, with k filled in.
  const std::vector<WaveComponent>& components() const { return components_; }
  /// Water depth [m] (kDeepWater: deep water).
  double depth() const { return depth_; }
  /// Gravity [m/s^2].
  double g() const { return g_; }
  const LinearSeaOptions& options() const { return options_; }
  /// Switch the early-stopping sums on or off (results differ at round-off only).
  void set_early_stop(bool on) { options_.early_stop = on; }
  /// Switch Wheeler stretching on or off.
  void set_wheeler(bool on) { options_.wheeler = on; }

  /// Surface elevation eta(x, y, t) [m], times the ramp factor; sums every component.
  template <class T>
  T elevation(const T& x, const T& y, const T& t, const Ramp& ramp = {}) const {
    using std::cos;
    const T r = ramp.factor(t);
    if (value_of(r) == 0) return T(0);
    T eta = T(0);
    for (const Term& c : terms_) eta += T(c.a) * cos(T(c.k) * (x * T(c.cb) + y * T(c.sb)) - T(c.omega) * t + T(c.phase));
    return T(r * eta);
  }

  /// The stretched coordinate z' [m] of a point at height z under the surface eta: Wheeler's
  /// h (z - eta) / (h + eta) (z - eta in deep water), or z without stretching. Computed as
  /// h (z + h) / (h + eta) - h, so that the bed maps to -h exactly. Throws DomainError when
  /// the stretching meets a trough at or below the bed (h + eta <= 0).
  template <class T>
  T stretched_z(const T& z, const T& eta) const {
    if (std::isinf(depth_)) return options_.wheeler ? T(z - eta) : z;
    return T(above_bed(z, eta) - T(depth_));
  }

  /// Depth ratios deeper than k h > kDeepKh are evaluated as deep water (e^{-2kh} < 1e-260).
  static constexpr double kDeepKh = 300;

  /// Elevation, velocity, local acceleration and dynamic pressure at `x` [m] and time `t` [s],
  /// ramped by `ramp` (u and p times r, the acceleration r udot + rdot u). Spec "Waves".
  /// For double and long double seas of up to kTrigCache components the cos and sin of each
  /// phase are computed once, in the elevation sum, and kept on the stack for the velocity
  /// sums; duals (tests) recompute them. The results are the same either way.
  template <class T>
  WaveKinematics<T> kinematics(const Vec3<T>& x, const T& t, const Ramp& ramp = {}) const {
    using std::cos;
    using std::sin;
    WaveKinematics<T> out;
    const T r = ramp.factor(t);
    if (value_of(r) == 0) {
      out.wet = value_of(x(2)) <= 0;
      return out;
    }
    const std::size_t n = terms_.size();
    if constexpr (std::is_floating_point_v<T>) {
      if (n <= kTrigCache) {
        std::array<T, kTrigCache> cs, sn;
        T eta = T(0);
        for (std::size_t i = 0; i < n; ++i) {
          const T th = phase_of(terms_[i], x, t);
          cs[i] = cos(th);
          sn[i] = sin(th);
          eta += T(terms_[i].a) * cs[i];
        }
        out.eta = r * eta;
        sum_kinematics(out, x, t, r, ramp, [&](std::size_t i, T& c, T& s) {
          c = cs[i];
          s = sn[i];
        });
        return out;
      }
    }
    out.eta = elevation(x(0), x(1), t, ramp);
    sum_kinematics(out, x, t, r, ramp, [&](std::size_t i, T& c, T& s) {
      const T th = phase_of(terms_[i], x, t);
      c = cos(th);
      s = sin(th);
    });
    return out;
  }

  /// Largest sea whose phases kinematics() keeps on the stack (double, long double).
  static constexpr std::size_t kTrigCache = 512;

 private:
  struct Term {
    double a, omega, k, phase, cb, sb, aw, aw2, ga;
    bool deep;     // deep water, or k h > kDeepKh: both ratios are e^{k z'}
    double ekh;    // e^{-k h}
    double inv_s;  // 1 / (1 - e^{-2kh})
    double inv_c;  // 1 / (1 + e^{-2kh})
  };

  // zeta = z' + h: h (z + h) / (h + eta) with Wheeler stretching, z + h without.
  template <class T>
  T above_bed(const T& z, const T& eta) const {
    const T h = T(depth_);
    if (!options_.wheeler) return T(z + h);
    if (!(value_of(h + eta) > 0))
      throw DomainError("Wheeler stretching", "h + eta", static_cast<double>(value_of(h + eta)),
                        "> 0 (a trough at or below the bed)");
    return T(h * (z + h) / (h + eta));
  }

  template <class T>
  static T phase_of(const Term& c, const Vec3<T>& x, const T& t) {
    return T(T(c.k) * (x(0) * T(c.cb) + x(1) * T(c.sb)) - T(c.omega) * t + T(c.phase));
  }

  // The velocity, acceleration and pressure sums below the surface (out.eta set), with the
  // cos and sin of component i from trig(i, c, s).
  template <class T, class Trig>
  void sum_kinematics(WaveKinematics<T>& out, const Vec3<T>& x, const T& t, const T& r,
                      const Ramp& ramp, Trig&& trig) const {
    using std::exp;
    using V = value_type_t<T>;
    const bool deep = std::isinf(depth_);
    // the stretching is undefined over a trough at or below the bed: fail closed even for a
    // dry point there (spec "Waves")
    if (options_.wheeler && !deep && !(value_of(out.eta) + depth_ > 0)) (void)above_bed(x(2), out.eta);
    if (value_of(x(2)) > value_of(out.eta)) return;  // above the surface: still air
    out.wet = true;
    // z' (deep water) or zeta = z' + h, the stretched height above the bed
    const T zeta = deep ? stretched_z(x(2), out.eta) : above_bed(x(2), out.eta);
    const bool may_stop = options_.early_stop && (deep ? value_of(zeta) <= 0 : value_of(zeta) <= depth_);
    T ux = T(0), uy = T(0), uz = T(0), ax = T(0), ay = T(0), az = T(0), p = T(0);
    V mag_v = 0, mag_a = 0, mag_p = 0;
    const std::size_t n = terms_.size();
    std::size_t i = 0;
    while (i < n) {
      const Term& c = terms_[i];
      T ct, st;
      trig(i, ct, st);
      T C, S, Cp;
      if (c.deep) {
        // e^{k z'} (finite depth: z' = zeta - h)
        C = deep ? T(exp(T(c.k) * zeta)) : T(exp(T(c.k) * (zeta - T(depth_))));
        S = C;
        Cp = C;
      } else {
        // with E = e^{-k zeta}: e^{k z'} = e^{-kh} / E, e^{-k(z' + 2h)} = e^{-kh} E, so
        // cosh k(z'+h) / sinh kh = e^{-kh} (1/E + E) / (1 - e^{-2kh}), and the sinh ratio with
        // 1/E - E vanishes exactly at the bed (zeta = 0, E = 1)
        const T E = exp(-T(c.k) * zeta);
        const T iE = T(1) / E;
        C = T(c.ekh) * (iE + E) * T(c.inv_s);   // cosh k(z'+h) / sinh kh
        S = T(c.ekh) * (iE - E) * T(c.inv_s);   // sinh k(z'+h) / sinh kh
        Cp = T(c.ekh) * (iE + E) * T(c.inv_c);  // cosh k(z'+h) / cosh kh
      }
      const T vh = T(c.aw) * C * ct;
      ux += vh * T(c.cb);
      uy += vh * T(c.sb);
      uz += T(c.aw) * S * st;
      const T ah = T(c.aw2) * C * st;
      ax += ah * T(c.cb);
      ay += ah * T(c.sb);
      az -= T(c.aw2) * S * ct;
      p += T(c.ga) * Cp * ct;
      ++i;
      if (may_stop && i < n) {
        const V cv = value_of(C);
        mag_v += static_cast<V>(c.aw) * cv;
        mag_a += static_cast<V>(c.aw2) * cv;
        mag_p += static_cast<V>(c.ga) * value_of(Cp);
        // half an ulp of m is at most m eps / 2: test that cheap necessary condition first
        const V bv = cv * static_cast<V>(rem_v_[i]), ba = cv * static_cast<V>(rem_a_[i]),
                bp = cv * static_cast<V>(rem_p_[i]);
        constexpr V kHalfEps = std::numeric_limits<V>::epsilon() / 2;
        if (bv < kHalfEps * mag_v && ba < kHalfEps * mag_a && bp < kHalfEps * mag_p &&
            bv < detail::half_ulp(mag_v) && ba < detail::half_ulp(mag_a) && bp < detail::half_ulp(mag_p))
          break;
      }
    }
    out.terms = static_cast<int>(i);
    const T rd = ramp.rate(t);
    out.u << r * ux, r * uy, r * uz;
    out.a << r * ax + rd * ux, r * ay + rd * uy, r * az + rd * uz;
    out.pd = r * p;
  }
  std::vector<WaveComponent> components_;
  std::vector<Term> terms_;
  std::vector<double> rem_v_, rem_a_, rem_p_;  // suffix sums of a w, a w^2, a w^2 / k
  double depth_ = kDeepWater;
  double g_ = kGravity;
  LinearSeaOptions options_;
};

}  // namespace cabledyn
