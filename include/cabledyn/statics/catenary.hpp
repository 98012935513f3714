// cabledyn: the analytic extensible elastic catenary, single and multi-segment, fully
// suspended or with a frictionless grounded run on a flat seabed.
// Spec "Static equilibrium" (EI = 0 path: the analytical extensible catenary seed; Hermite
// path: the exact EI = 0 seed, the multi-segment catenary with signed submerged weight);
// EQUATIONS.md section 9.
//
// Frame: s is the unstretched arc length from the lower end (the anchor, s = 0) to the upper
// end (the fairlead, s = L); x is horizontal from the anchor toward the fairlead, z vertical
// up from the anchor. H >= 0 is the horizontal tension, V(s) the vertical component of the
// tension (the force the part above s exerts on the part below s), dV/ds = w (the signed
// submerged weight per unstretched metre, positive down). With T = sqrt(H^2 + V^2):
//   dx/ds = H/T + H/EA,   dz/ds = V/T + V/EA.
// Integrated over a segment of constant w and EA (V_b = V_a + w L):
//   dx = (H/w) [asinh(V_b/H) - asinh(V_a/H)] + H L/EA,
//   dz = L (V_a + V_b)/(T_a + T_b) + L (V_a + V_b)/(2 EA),
// which is the EQUATIONS.md form, written without cancellation for w -> 0.
// A grounded run [0, s_td] lies on the seabed with V = 0 and tension H (frictionless):
//   dx = L_B (1 + H/EA), dz = 0.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/roots.hpp"

namespace cabledyn {

/// One uniform segment of a catenary: unstretched length [m], signed submerged weight per
/// unstretched metre [N/m] (negative: buoyant) and axial stiffness [N] (infinity:
/// inextensible).
struct CatenarySegment {
  double L = 0;
  double w = 0;
  double EA = std::numeric_limits<double>::infinity();
};

/// A point of a catenary profile.
template <class T>
struct CatenaryPoint {
  T x, z;      ///< position in the catenary plane [m]
  T H, V;      ///< horizontal and vertical tension components [N]
  T tension;   ///< |(H, V)| [N]
  bool grounded = false;
};

/// A solved 2-D catenary.
template <class T>
struct CatenarySolution {
  T H = 0;                  ///< horizontal tension [N]
  T V_fairlead = 0;         ///< vertical tension component at the fairlead (s = L) [N]
  T V_anchor = 0;           ///< vertical tension component at the anchor (0 when grounded) [N]
  T grounded_length = 0;    ///< unstretched length on the seabed [m]
  bool slack = false;       ///< H = 0 limit: hanging leg, the excess lying slack on the seabed
  T X = 0, Z = 0;           ///< the span and rise solved for [m]
  T fairlead_tension() const { using std::sqrt; return sqrt(H * H + V_fairlead * V_fairlead); }
  T anchor_tension() const { using std::sqrt; return sqrt(H * H + V_anchor * V_anchor); }
};

/// The extensible elastic catenary of a line of segments listed from the anchor (s = 0) to
/// the fairlead (s = L). With `grounded`, the anchor lies on a flat frictionless seabed and
/// the line may rest on it; otherwise the line hangs fully suspended (it may dip below its
/// anchor).
template <class T = double>
class Catenary {
 public:
  Catenary(std::vector<CatenarySegment> segments, bool grounded, std::string name = "catenary")
      : seg_(std::move(segments)), grounded_(grounded), name_(std::move(name)) {
    if (seg_.empty()) throw InputError(name_, "segments", 0, ">= 1");
    for (std::size_t i = 0; i < seg_.size(); ++i) {
      const auto& s = seg_[i];
      const std::string obj = name_ + " segment " + std::to_string(i + 1);
      if (!(std::isfinite(s.L) && s.L > 0)) throw InputError(obj, "L", s.L, "> 0");
      if (!std::isfinite(s.w)) throw InputError(obj, "w", s.w, "finite");
      if (!(s.EA > 0)) throw InputError(obj, "EA", s.EA, "> 0");
      length_ += T(s.L);
      weight_ += T(s.w) * T(s.L);
      abs_weight_ += std::fabs(T(s.w) * T(s.L));
      min_EA_ = std::min(min_EA_, T(s.EA));
    }
  }

  const std::vector<CatenarySegment>& segments() const { return seg_; }
  bool grounded() const { return grounded_; }
  /// Total unstretched length [m].
  T length() const { return length_; }
  /// Total submerged weight [N] (signed).
  T weight() const { return weight_; }

  /// Solve for the end forces that put the fairlead at horizontal distance X >= 0 and height
  /// Z above the anchor. Throws InputError for an inadmissible geometry (the line shorter
  /// than its chord beyond what EA allows; with a seabed, a fairlead below it).
  CatenarySolution<T> solve(T X, T Z) const {
    using std::sqrt;
    if (!(X >= 0) || !std::isfinite(static_cast<double>(X)))
      throw InputError(name_, "horizontal span", static_cast<double>(X), ">= 0");
    if (!std::isfinite(static_cast<double>(Z))) throw InputError(name_, "rise", static_cast<double>(Z), "finite");
    if (grounded_ && Z < 0)
      throw InputError(name_, "fairlead height above the seabed", static_cast<double>(Z), ">= 0");
    const T chord = sqrt(X * X + Z * Z);
    // The largest chord reachable below a strain of 1 everywhere (T <= min EA).
    const T reach = std::isfinite(static_cast<double>(min_EA_)) ? T(2) * length_ : length_;
    if (!(chord < reach))
      throw InputError(name_, "chord", static_cast<double>(chord),
                       "< " + to_text(static_cast<double>(reach)) +
                           " m (the line stretched to strain 1; a longer chord is beyond what EA allows)");
    const T scale = std::max({abs_weight_, T(1)});
    if (X == 0) return solve_vertical(Z, scale);

    auto x_of_H = [&](T H) {
      CatenarySolution<T> s;
      s.H = H;
      s.V_fairlead = solve_VF(H, Z, scale);
      const auto g = integrate(H, s.V_fairlead, length_);
      return g.x;
    };
    // Bracket H on a geometric ladder.
    T H_lo = scale * T(1e-12);
    T x_lo = x_of_H(H_lo);
    if (x_lo > X) {
      if (grounded_) return solve_slack(X, Z, scale);
      // Suspended: x(H) -> 0 as H -> 0; go lower.
      while (x_lo > X && H_lo > std::numeric_limits<T>::min() * T(1e10)) {
        H_lo *= T(1e-6);
        x_lo = x_of_H(H_lo);
      }
      if (x_lo > X) throw SolveError(name_, "horizontal tension bracket", static_cast<double>(H_lo), "> 0");
    }
    T H_hi = std::max(scale, T(1));
    T x_hi = x_of_H(H_hi);
    while (x_hi < X) {
      H_lo = H_hi;
      x_lo = x_hi;
      H_hi *= T(4);
      if (H_hi > T(4) * min_EA_ && std::isfinite(static_cast<double>(min_EA_)))
        throw InputError(name_, "chord", static_cast<double>(chord),
                         "reachable at a tension below EA (" + to_text(static_cast<double>(min_EA_)) + " N)");
      if (!std::isfinite(static_cast<double>(H_hi)))
        throw InputError(name_, "chord", static_cast<double>(chord), "< line length (inextensible line)");
      x_hi = x_of_H(H_hi);
    }
    auto g = [&](T H) { return x_of_H(H) - X; };
    const auto root = brent_root<T>(g, H_lo, H_hi, x_lo - X, x_hi - X, name_.c_str());
    CatenarySolution<T> sol;
    sol.H = root.x;
    sol.V_fairlead = solve_VF(sol.H, Z, scale);
    const auto geo = integrate(sol.H, sol.V_fairlead, length_);
    sol.V_anchor = geo.V_anchor;
    sol.grounded_length = geo.grounded_length;
    sol.X = X;
    sol.Z = Z;
    check_grounded_run(sol);
    return sol;
  }

  /// The profile point at unstretched arc length s in [0, L] from the anchor.
  CatenaryPoint<T> at(const CatenarySolution<T>& sol, T s) const {
    using std::sqrt;
    if (sol.slack) return at_slack(sol, s);
    const auto g = integrate(sol.H, sol.V_fairlead, std::clamp(s, T(0), length_));
    CatenaryPoint<T> p;
    p.x = g.x;
    p.z = g.z;
    p.H = sol.H;
    p.grounded = s <= g.grounded_length && g.grounded_length > 0;
    p.V = p.grounded ? T(0) : g.V_end;
    p.tension = sqrt(p.H * p.H + p.V * p.V);
    return p;
  }

 private:
  struct Geometry {
    T x = 0, z = 0;
    T V_end = 0;            // V at s_end (suspended value)
    T V_anchor = 0;         // V at the anchor (0 when grounded)
    T grounded_length = 0;  // unstretched grounded length
  };

  // asinh(x)/x, accurate near 0.
  static T asinhc(T x) {
    using std::asinh;
    using std::fabs;
    if (fabs(x) < T(1e-4)) {
      const T x2 = x * x;
      return T(1) - x2 / T(6) + T(3) * x2 * x2 / T(40);
    }
    return asinh(x) / x;
  }

  // Horizontal and vertical extent of a suspended piece of length L with weight w and
  // stiffness EA whose lower end carries V_a.
  static void piece(T H, T Va, T w, T L, T EA, T& dx, T& dz) {
    using std::asinh;
    using std::sqrt;
    const T Vb = Va + w * L;
    const T inv_EA = std::isfinite(static_cast<double>(EA)) ? T(1) / EA : T(0);
    const T Ta = sqrt(H * H + Va * Va), Tb = sqrt(H * H + Vb * Vb);
    const T Tsum = Ta + Tb;
    dz = (Tsum > 0 ? L * (Va + Vb) / Tsum : T(0)) + L * (Va + Vb) * T(0.5) * inv_EA;
    if (H == 0) {
      dx = 0;
      return;
    }
    const T a = Va / H, b = Vb / H;
    T ix;  // integral of H / T ds
    if (a * b > 0) {
      const T den = b * sqrt(T(1) + a * a) + a * sqrt(T(1) + b * b);
      const T rho = (a + b) / den;
      const T arg = (w * L / H) * rho;
      ix = L * rho * asinhc(arg);
    } else if (w != 0) {
      ix = (H / w) * (asinh(b) - asinh(a));
    } else {
      ix = L * H / Ta;
    }
    dx = ix + H * L * inv_EA;
  }

  // Integrate from the anchor to s_end for tensions (H, V_F).
  Geometry integrate(T H, T VF, T s_end) const {
    Geometry g;
    // V at the anchor (suspended value).
    const T V0 = VF - weight_;
    // Touchdown: first point from the anchor where V turns positive.
    T s_td = 0;
    if (grounded_ && V0 < 0) {
      T s = 0, V = V0;
      s_td = length_;
      for (const auto& sg : seg_) {
        const T Vb = V + T(sg.w) * T(sg.L);
        if (Vb > 0) {
          s_td = s + (-V) / T(sg.w);  // sg.w > 0 here since V <= 0 < Vb
          break;
        }
        V = Vb;
        s += T(sg.L);
      }
      g.grounded_length = s_td;
      g.V_anchor = 0;
    } else {
      g.V_anchor = V0;
    }
    T s = 0;
    for (const auto& sg : seg_) {
      if (s >= s_end) break;
      const T Lseg = T(sg.L);
      const T EA = T(sg.EA);
      const T inv_EA = std::isfinite(sg.EA) ? T(1) / EA : T(0);
      const T end = std::min(s + Lseg, s_end);
      // Grounded part of this segment.
      T a = s;
      if (s_td > s) {
        const T gend = std::min(s_td, end);
        g.x += (gend - s) * (T(1) + H * inv_EA);
        a = gend;
      }
      if (end > a) {
        const T Va = V0 + weight_before(s) + T(sg.w) * (a - s);
        T dx, dz;
        piece(H, Va, T(sg.w), end - a, EA, dx, dz);
        g.x += dx;
        g.z += dz;
      }
      s += Lseg;
    }
    g.V_end = V0 + weight_before(s_end);
    return g;
  }

  // Submerged weight of the line below arc length s (signed).
  T weight_before(T s_end) const {
    T W = 0, s = 0;
    for (const auto& sg : seg_) {
      if (s >= s_end) break;
      const T l = std::min(T(sg.L), s_end - s);
      W += T(sg.w) * l;
      s += T(sg.L);
    }
    return W;
  }

  // V_F such that z(H, V_F) = Z (z increases with V_F).
  T solve_VF(T H, T Z, T scale) const {
    auto f = [&](T VF) { return integrate(H, VF, length_).z - Z; };
    T step = std::max(scale, H);
    T lo = weight_, hi = weight_;
    T flo = f(lo), fhi = flo;
    if (flo == 0) return lo;
    if (flo < 0) {
      do {
        lo = hi;
        flo = fhi;
        hi += step;
        step *= T(2);
        fhi = f(hi);
        if (!std::isfinite(static_cast<double>(hi)))
          throw InputError(name_, "rise", static_cast<double>(Z), "reachable by the line");
      } while (fhi < 0);
    } else {
      do {
        hi = lo;
        fhi = flo;
        lo -= step;
        step *= T(2);
        flo = f(lo);
        if (!std::isfinite(static_cast<double>(lo)))
          throw InputError(name_, "rise", static_cast<double>(Z), "reachable by the line");
        if (grounded_ && flo > 0 && lo < -T(4) * abs_weight_ - T(1))
          throw InputError(name_, "fairlead height above the seabed", static_cast<double>(Z), ">= 0");
      } while (flo > 0);
    }
    return brent_root<T>(f, lo, hi, flo, fhi, name_.c_str()).x;
  }

  // X = 0: a vertical line, H = 0.
  CatenarySolution<T> solve_vertical(T Z, T scale) const {
    CatenarySolution<T> sol;
    sol.H = 0;
    sol.V_fairlead = solve_VF(T(0), Z, scale);
    const auto geo = integrate(T(0), sol.V_fairlead, length_);
    sol.V_anchor = geo.V_anchor;
    sol.grounded_length = geo.grounded_length;
    sol.Z = Z;
    check_grounded_run(sol);
    return sol;
  }

  // A frictionless grounded run must be heavy: a buoyant section on it would float.
  void check_grounded_run(const CatenarySolution<T>& sol) const {
    T s = 0;
    for (std::size_t i = 0; i < seg_.size(); ++i) {
      if (s >= sol.grounded_length) break;
      if (seg_[i].w <= 0)
        throw SolveError(name_ + " segment " + std::to_string(i + 1), "submerged weight on the grounded run",
                         seg_[i].w, "> 0 (a buoyant section cannot rest on a frictionless seabed)");
      s += T(seg_[i].L);
    }
  }

  // Grounded line longer than span plus rise: the H -> 0 limit, a vertical hanging leg
  // under the fairlead and the excess slack on the seabed between the anchor and the foot of
  // the leg (spec "EI = 0 path", seeds).
  CatenarySolution<T> solve_slack(T X, T Z, T scale) const {
    CatenarySolution<T> sol = solve_vertical(Z, scale);
    sol.slack = true;
    sol.X = X;
    return sol;
  }

  CatenaryPoint<T> at_slack(const CatenarySolution<T>& sol, T s) const {
    using std::fabs;
    CatenaryPoint<T> p;
    const T LB = sol.grounded_length;
    p.H = 0;
    if (s <= LB) {
      // Slack run spread evenly over [0, X] (zero tension on a frictionless flat seabed).
      p.x = LB > 0 ? sol.X * s / LB : T(0);
      p.z = 0;
      p.V = 0;
      p.grounded = true;
    } else {
      const auto g = integrate(T(0), sol.V_fairlead, s);
      p.x = sol.X;
      p.z = g.z;
      p.V = g.V_end;
    }
    p.tension = fabs(p.V);
    return p;
  }

  std::vector<CatenarySegment> seg_;
  bool grounded_;
  std::string name_;
  T length_ = 0, weight_ = 0, abs_weight_ = 0;
  T min_EA_ = std::numeric_limits<T>::infinity();
};

}  // namespace cabledyn

namespace cabledyn {

/// A catenary placed in 3-D between an anchor (lower end, s = 0) and a fairlead (s = L):
/// the vertical plane through both ends, x along the horizontal direction from the anchor to
/// the fairlead. The line is grounded when a seabed is given and the anchor lies within
/// max(1 mm, 1e-5 |z_floor|) of it (spec "EI = 0 path", seeds).
template <class T = double>
class CatenaryLine {
 public:
  CatenaryLine(std::vector<CatenarySegment> segments, const Vec3<T>& anchor, const Vec3<T>& fairlead,
               std::optional<double> seabed_z = std::nullopt, std::string name = "catenary")
      : anchor_(anchor),
        fairlead_(fairlead),
        cat_(std::move(segments), is_grounded(anchor, seabed_z), name) {
    using std::sqrt;
    const Vec3<T> d = fairlead - anchor;
    const T X = sqrt(d(0) * d(0) + d(1) * d(1));
    e_h_ = X > 0 ? Vec3<T>(d(0) / X, d(1) / X, T(0)) : Vec3<T>(T(1), T(0), T(0));
    sol_ = cat_.solve(X, d(2));
  }

  const Catenary<T>& catenary() const { return cat_; }
  const CatenarySolution<T>& solution() const { return sol_; }
  /// Unit horizontal direction from the anchor toward the fairlead.
  const Vec3<T>& horizontal() const { return e_h_; }

  /// Position at unstretched arc length s from the anchor.
  Vec3<T> position(T s) const {
    const auto p = cat_.at(sol_, s);
    return anchor_ + p.x * e_h_ + Vec3<T>(T(0), T(0), p.z);
  }
  /// Tension vector at s: the force the part above s exerts on the part below [N].
  Vec3<T> tension_vector(T s) const {
    const auto p = cat_.at(sol_, s);
    return p.H * e_h_ + Vec3<T>(T(0), T(0), p.V);
  }
  /// Force the line exerts on the fairlead [N] (pulls it down and toward the anchor).
  Vec3<T> fairlead_force() const {
    return -(sol_.H * e_h_ + Vec3<T>(T(0), T(0), sol_.V_fairlead));
  }
  /// Force the line exerts on the anchor [N].
  Vec3<T> anchor_force() const { return sol_.H * e_h_ + Vec3<T>(T(0), T(0), sol_.V_anchor); }

  /// Node positions at the given arc lengths from the anchor.
  std::vector<Vec3<T>> positions(const std::vector<T>& s) const {
    std::vector<Vec3<T>> out;
    out.reserve(s.size());
    for (const T& si : s) out.push_back(position(si));
    return out;
  }

  /// Whether an anchor at this height counts as resting on the seabed.
  static bool is_grounded(const Vec3<T>& anchor, std::optional<double> seabed_z) {
    using std::fabs;
    if (!seabed_z) return false;
    const T tol = std::max(T(1e-3), T(1e-5) * fabs(T(*seabed_z)));
    return fabs(anchor(2) - T(*seabed_z)) <= tol;
  }

 private:
  Vec3<T> anchor_, fairlead_;
  Catenary<T> cat_;
  Vec3<T> e_h_;
  CatenarySolution<T> sol_;
};

}  // namespace cabledyn
