// cabledyn: the geometrically exact cubic-Hermite bending element (nodes [r, m], m = r').
// Spec "The cubic-Hermite bending element" (energy, closed-form gradient and Hessian,
// quadrature, consistent mass, curvature recovery), "Node tension, curvature and bend
// moment" (section force, end generalised forces) and "Axial damping" (integrated over the
// element); EQUATIONS.md sections 1 and 3.
//
// The kernel is a template over the scalar T and the DOF layout L (LayoutRM, or LayoutRMPhi
// whose twist DOFs this element leaves untouched: torsion adds its own terms).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "cabledyn/core/dof_layout.hpp"
#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/quadrature.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/elements/element_params.hpp"
#include "cabledyn/elements/hermite_density.hpp"
#include "cabledyn/elements/hermite_shape.hpp"

namespace cabledyn {

/// Section quantities at a point of a Hermite element; spec "Node tension, curvature and
/// bend moment": F = dW/da - (dW/db)' (force exerted by the part beyond s on the part before
/// it), m = dW/db (conjugate of the material tangent), N = F . t, M = EI kappa.
template <class T>
struct SectionForce {
  Vec3<T> F;      ///< section force [N]
  Vec3<T> m;      ///< tangent conjugate dW/db [N m]
  Vec3<T> t;      ///< unit tangent a/|a|
  T N;            ///< effective tension F . t [N]
  T M;            ///< bend moment EI kappa [N m]
  T kappa;        ///< curvature [1/m]
  T axial;        ///< formulation axial resultant EA (|r'| - 1) [N] (exceeds N by ~EI kappa^2)
};

/// End forces of an element split into the section quantities at its two ends:
/// g_e position rows at node b are F_b^- (section force just before node b), minus the rows
/// at node a are F_a^+; tangent rows are m (spec "Node tension, curvature and bend moment").
template <class T>
struct ElementEndForces {
  Vec3<T> F_a, m_a;  ///< section force and tangent conjugate just after node a
  Vec3<T> F_b, m_b;  ///< just before node b
};

/// Result of the in-element search for an extreme value (spec "Curvature recovery").
struct ExtremeSearch {
  double xi = 0;       ///< location of the extreme in [0, 1]
  double value = 0;    ///< the extreme value
  int evaluations = 0; ///< function evaluations spent
};

/// Extreme axial resultant N = EA (|r'| - 1) of an element: its maximum and minimum.
struct AxialExtremes {
  ExtremeSearch max, min;
};

/// The cubic-Hermite bending element with layout L.
template <class L = LayoutRM>
class HermiteElement {
  static_assert(L::kHasTangent, "HermiteElement needs a layout with a tangent block");

 public:
  using Layout = L;
  static constexpr int kDofs = L::kElementDofs;
  template <class T>
  using Vec = ElementVec<T, L>;
  template <class T>
  using Mat = ElementMat<T, L>;

  explicit HermiteElement(const HermiteElementParams& p, std::string name = "Hermite element")
      : p_(p), name_(std::move(name)) {
    p_.validate(name_);
    make_table(p_.axial_order, axial_d_);
    make_table(p_.axial_order, axial_ld_);
    make_table(p_.bending_order, bending_d_);
    make_table(p_.bending_order, bending_ld_);
  }

  const HermiteElementParams& params() const { return p_; }
  const std::string& name() const { return name_; }

  /// r'(xi) and r''(xi) per unstretched arc length.
  template <class T>
  void tangents(const Vec<T>& q, const T& xi, Vec3<T>& a, Vec3<T>& b) const {
    const HermiteShape<T> s = hermite_shape(xi);
    a = hermite_combine<L>(hermite_block_weights(s.dH, 1, p_.L0), q);
    b = hermite_combine<L>(hermite_block_weights(s.d2H, 2, p_.L0), q);
  }

  /// Centreline position r(xi).
  template <class T>
  Vec3<T> position(const Vec<T>& q, const T& xi) const {
    return hermite_combine<L>(hermite_block_weights(hermite_shape(xi).H, 0, p_.L0), q);
  }

  /// Strain energy U = integral_0^L0 W(r', r'') ds [J], with the axial and bending parts on
  /// their own Gauss rules (spec "Quadrature").
  template <class T>
  T energy(const Vec<T>& q) const {
    const auto& axial_ = axial_table<T>();
    const auto& bending_ = bending_table<T>();
    T U = T(0);
    DensityDerivatives<T> d;
    for (int g = 0; g < axial_.n; ++g) {
      const Vec3<T> a = combine<T>(axial_.A[g], q);
      axial_density(a, p_.EA, DensityOrder::kValue, d, name_.c_str());
      U += T(axial_.w[g]) * d.W;
    }
    if (p_.EI > 0) {
      for (int g = 0; g < bending_.n; ++g) {
        const Vec3<T> a = combine<T>(bending_.A[g], q);
        const Vec3<T> b = combine<T>(bending_.B[g], q);
        bending_density(a, b, p_.EI, DensityOrder::kValue, d, name_.c_str());
        U += T(bending_.w[g]) * d.W;
      }
    }
    return U;
  }

  /// Internal force f = dU/dq and, when K is given, the symmetric tangent K = d2U/dq2, in
  /// closed form: at each Gauss point the (a, b) derivatives of the density are chained
  /// through the fixed linear maps q -> a, q -> b (spec "The cubic-Hermite bending
  /// element").
  template <class T>
  void internal_force(const Vec<T>& q, Vec<T>& f, Mat<T>* K = nullptr) const {
    const auto& axial_ = axial_table<T>();
    const auto& bending_ = bending_table<T>();
    f.setZero();
    if (K) K->setZero();
    const DensityOrder order = K ? DensityOrder::kHessian : DensityOrder::kGradient;
    DensityDerivatives<T> d, db;
    const bool bend = p_.EI > 0;
    if (bend && p_.axial_order == p_.bending_order) {
      // Same points: one pass with the summed density.
      for (int g = 0; g < axial_.n; ++g) {
        const Vec3<T> a = combine<T>(axial_.A[g], q);
        const Vec3<T> b = combine<T>(axial_.B[g], q);
        axial_density(a, p_.EA, order, d, name_.c_str());
        bending_density(a, b, p_.EI, order, db, name_.c_str());
        db.Wa += d.Wa;
        if (K) db.Haa += d.Haa;
        accumulate_full(axial_, g, db, f, K);
      }
      return;
    }
    for (int g = 0; g < axial_.n; ++g) {
      const Vec3<T> a = combine<T>(axial_.A[g], q);
      axial_density(a, p_.EA, order, d, name_.c_str());
      accumulate_axial(axial_, g, d.Wa, K ? &d.Haa : nullptr, f, K);
    }
    if (bend) {
      for (int g = 0; g < bending_.n; ++g) {
        const Vec3<T> a = combine<T>(bending_.A[g], q);
        const Vec3<T> b = combine<T>(bending_.B[g], q);
        bending_density(a, b, p_.EI, order, db, name_.c_str());
        accumulate_full(bending_, g, db, f, K);
      }
    }
  }

  /// Axial Kelvin-Voigt damping integrated over the element on the axial rule (spec "Axial
  /// damping"): the resultant BA * d|r'|/dt along t = r'/|r'|, i.e. f = integral BA
  /// (t . a_dot) t . da/dq ds, with the exact Jacobians J_q = df/dq and J_v = df/dv.
  template <class T>
  void damping_force(const Vec<T>& q, const Vec<T>& v, Vec<T>& f, Mat<T>* J_q = nullptr,
                     Mat<T>* J_v = nullptr) const {
    const auto& axial_ = axial_table<T>();
    f.setZero();
    if (J_q) J_q->setZero();
    if (J_v) J_v->setZero();
    const Mat3<T> I = Mat3<T>::Identity();
    for (int g = 0; g < axial_.n; ++g) {
      const Vec3<T> a = combine<T>(axial_.A[g], q);
      const Vec3<T> ad = combine<T>(axial_.A[g], v);
      const T a2 = a.squaredNorm();
      if (!(value_of(a2) > 0)) detail::throw_zero_tangent(a2, name_.c_str());
      const T ada = a.dot(ad);
      // f_point = BA (a . a_dot) a / |a|^2 = BA (t . a_dot) t.
      const T c = T(p_.BA) * T(axial_.w[g]);
      const T inv2 = T(1) / a2;
      const Vec3<T> fp = (c * ada * inv2) * a;
      Mat3<T> Jv = Mat3<T>::Zero(), Jq = Mat3<T>::Zero();
      if (J_v) Jv = (c * inv2) * (a * a.transpose());
      if (J_q)
        Jq = (c * inv2) * (a * ad.transpose() + ada * I - (T(2) * ada * inv2) * (a * a.transpose()));
      for (int k = 0; k < 4; ++k) {
        const int ok = hermite_block_offset<L>(k);
        const auto Ak = axial_.A[g][k];
        f.template segment<3>(ok) += T(Ak) * fp;
        for (int l = 0; l < 4; ++l) {
          const int ol = hermite_block_offset<L>(l);
          const T w = T(Ak * axial_.A[g][l]);
          if (J_v) J_v->template block<3, 3>(ok, ol) += w * Jv;
          if (J_q) J_q->template block<3, 3>(ok, ol) += w * Jq;
        }
      }
    }
  }

  /// Internal force plus axial damping, f = dU/dq + f_d(q, v), and when J is given the
  /// effective tangent J = wq (K + df_d/dq) + wv df_d/dv of the implicit march, in one pass
  /// over the Gauss points (spec "Time integration": the effective tangent; "Axial damping").
  /// The damping Jacobians enter the point Hessian before the scatter: the symmetric part
  /// (BA/|a|^2)[wq (a.a_dot I - 2 (a.a_dot)/|a|^2 a a^T) + wv a a^T] and the one
  /// non-symmetric part wq (BA/|a|^2) a a_dot^T join d2W/da2. Equal to internal_force +
  /// damping_force combined (tested to round-off and with duals).
  template <class T>
  void damped_force(const Vec<T>& q, const Vec<T>& v, Vec<T>& f, Mat<T>* J, double wq, double wv) const {
    if (!J) {
      damped_force_blocks<T>(q, v, f, nullptr, wq, wv);
      return;
    }
    HermiteBlockSum<T> R;
    R.set_zero();
    damped_force_blocks<T>(q, v, f, &R, wq, wv);
    J->setZero();
    R.template add_to<L>(*J);
  }

  /// damped_force with the effective tangent added onto R in component-major block form
  /// (HermiteBlockSum; R is not cleared). The march scatters R into the band directly.
  template <class T>
  void damped_force_blocks(const Vec<T>& q, const Vec<T>& v, Vec<T>& f, HermiteBlockSum<T>* R, double wq,
                           double wv) const {
    const auto& axial_ = axial_table<T>();
    const auto& bending_ = bending_table<T>();
    f.setZero();
    const DensityOrder order = R ? DensityOrder::kHessian : DensityOrder::kGradient;
    const bool bend = p_.EI > 0, fused = bend && p_.axial_order == p_.bending_order, damp = p_.BA > 0;
    const T Wq = T(wq), Wv = T(wv), BA = T(p_.BA);
    const Mat3<T> I = Mat3<T>::Identity();
    DensityDerivatives<T> d, db;
    for (int g = 0; g < axial_.n; ++g) {
      const Vec3<T> a = combine<T>(axial_.A[g], q);
      axial_density(a, p_.EA, order, d, name_.c_str());
      if (fused) {
        const Vec3<T> b = combine<T>(axial_.B[g], q);
        bending_density(a, b, p_.EI, order, db, name_.c_str());
        db.Wa += d.Wa;
        if (R) db.Haa += d.Haa;
      } else {
        db.Wa = d.Wa;
        if (R) db.Haa = d.Haa;
      }
      Vec3<T> ad = Vec3<T>::Zero();
      T inv2 = T(1), ada = T(0);
      if (damp) {
        ad = combine<T>(axial_.A[g], v);
        inv2 = T(1) / a.squaredNorm();
        ada = a.dot(ad);
        db.Wa += (BA * ada * inv2) * a;  // BA (t . a_dot) t per unit weight
      }
      const auto& A = axial_.A[g];
      const auto& B = axial_.B[g];
      const auto w = axial_.w[g];
      for (int k = 0; k < 4; ++k) {
        const int ok = hermite_block_offset<L>(k);
        f.template segment<3>(ok) += T(w * A[k]) * db.Wa;
        if (fused) f.template segment<3>(ok) += T(w * B[k]) * db.Wb;
      }
      if (!R) continue;
      Mat3<T> Haa = Wq * db.Haa;
      if (damp) {
        const Mat3<T> aa = a * a.transpose();
        Haa += (BA * inv2) * (Wq * (ada * I - (T(2) * ada * inv2) * aa + a * ad.transpose()) + Wv * aa);
      }
      add_point_blocks(w, A, B, Haa, fused ? &db : nullptr, Wq, *R);
    }
    if (bend && !fused) {
      for (int g = 0; g < bending_.n; ++g) {
        const auto& A = bending_.A[g];
        const auto& B = bending_.B[g];
        const auto w = bending_.w[g];
        const Vec3<T> a = combine<T>(A, q);
        const Vec3<T> b = combine<T>(B, q);
        bending_density(a, b, p_.EI, order, db, name_.c_str());
        for (int k = 0; k < 4; ++k)
          f.template segment<3>(hermite_block_offset<L>(k)) += T(w * A[k]) * db.Wa + T(w * B[k]) * db.Wb;
        if (!R) continue;
        add_point_blocks(w, A, B, Mat3<T>(Wq * db.Haa), &db, Wq, *R);
      }
    }
  }

  /// Consistent mass M = rho_A integral N^T N ds on the four-point rule, exact for the
  /// degree-6 integrand; block-diagonal per Cartesian component (spec "Quadrature").
  template <class T = double>
  Mat<T> mass() const {
    Mat<T> M = Mat<T>::Zero();
    const auto rule = gauss_legendre<long double>(4);
    for (int g = 0; g < rule.n; ++g) {
      const auto s = hermite_shape(rule.xi[g]);
      const auto N = hermite_block_weights(s.H, 0, p_.L0);
      const long double w = static_cast<long double>(p_.rho_A) * p_.L0 * rule.w[g];
      for (int k = 0; k < 4; ++k)
        for (int l = 0; l < 4; ++l) {
          const T m = T(w * N[k] * N[l]);
          for (int i = 0; i < 3; ++i)
            M(hermite_block_offset<L>(k) + i, hermite_block_offset<L>(l) + i) += m;
        }
    }
    return M;
  }

  /// Kinetic energy 1/2 rho_A integral |r_dot|^2 ds [J], evaluated on a six-point rule (an
  /// independent check of the consistent mass).
  template <class T>
  T kinetic_energy(const Vec<T>& v) const {
    const auto rule = gauss_legendre<long double>(6);
    T E = T(0);
    for (int g = 0; g < rule.n; ++g) {
      const Vec3<T> rd = position(v, T(rule.xi[g]));
      E += T(0.5L * p_.rho_A * p_.L0 * rule.w[g]) * rd.squaredNorm();
    }
    return E;
  }

  /// Section force, tangent conjugate, tension, moment and curvature at xi (spec "Node
  /// tension, curvature and bend moment"): F = W_a - (W_b)', with
  /// (W_b)' = W_ba r'' + W_bb r''' along the element.
  template <class T>
  SectionForce<T> section(const Vec<T>& q, const T& xi) const {
    using std::sqrt;
    Vec3<T> a, b;
    tangents(q, xi, a, b);
    const Vec3<T> c = hermite_third_derivative<L>(q, p_.L0);
    DensityDerivatives<T> d, db;
    axial_density(a, p_.EA, DensityOrder::kGradient, d, name_.c_str());
    SectionForce<T> s;
    const T alpha = sqrt(a.squaredNorm());
    s.t = a / alpha;
    s.axial = T(p_.EA) * (alpha - T(1));
    if (p_.EI > 0) {
      bending_density(a, b, p_.EI, DensityOrder::kHessian, db, name_.c_str());
      s.F = d.Wa + db.Wa - db.Hab.transpose() * b - db.Hbb * c;
      s.m = db.Wb;
    } else {
      s.F = d.Wa;
      s.m.setZero();
    }
    s.N = s.F.dot(s.t);
    s.kappa = curvature(a, b);
    s.M = T(p_.EI) * s.kappa;
    return s;
  }

  /// Curvature at xi [1/m].
  template <class T>
  T curvature_at(const Vec<T>& q, const T& xi) const {
    Vec3<T> a, b;
    tangents(q, xi, a, b);
    return curvature(a, b);
  }

  /// Formulation axial resultant EA (|r'(xi)| - 1) [N].
  template <class T>
  T axial_resultant_at(const Vec<T>& q, const T& xi) const {
    using std::sqrt;
    const HermiteShape<T> s = hermite_shape(xi);
    const Vec3<T> a = hermite_combine<L>(hermite_block_weights(s.dH, 1, p_.L0), q);
    return T(p_.EA) * (sqrt(a.squaredNorm()) - T(1));
  }

  /// End generalised forces g_e = f_int - f_ext: f_ext holds the element's own distributed
  /// loads (weight, buoyancy, drag, inertia, the spread seabed reaction) as an element
  /// vector. Spec "Node tension, curvature and bend moment".
  template <class T>
  Vec<T> end_forces(const Vec<T>& q, const Vec<T>& f_ext) const {
    Vec<T> f;
    internal_force(q, f);
    return f - f_ext;
  }

  /// Split g_e into the section quantities at the two ends.
  template <class T>
  static ElementEndForces<T> split_end_forces(const Vec<T>& g) {
    ElementEndForces<T> e;
    e.F_a = -g.template segment<3>(hermite_block_offset<L>(0));
    e.m_a = -g.template segment<3>(hermite_block_offset<L>(1));
    e.F_b = g.template segment<3>(hermite_block_offset<L>(2));
    e.m_b = g.template segment<3>(hermite_block_offset<L>(3));
    return e;
  }

  /// Peak curvature of the element (spec "Curvature recovery"): 16 equal intervals, each
  /// bisected toward its largest value at least 5 and at most 12 times, continuing while the
  /// curvature departs from linear variation by more than 5 % of the local maximum.
  ExtremeSearch peak_curvature(const Vec<double>& q) const {
    return search_max([&](double xi) { return curvature_at(q, xi); }, 0.05, 0.0);
  }

  /// Extreme axial resultant N = EA (|r'| - 1) (spec "Curvature recovery"): the same search
  /// with a 2 % criterion relative to the largest local magnitude, at least 1 N; for the
  /// maximum and the minimum.
  AxialExtremes extreme_axial_resultant(const Vec<double>& q) const {
    AxialExtremes r;
    r.max = search_max([&](double xi) { return axial_resultant_at(q, xi); }, 0.02, 1.0);
    r.min = search_max([&](double xi) { return -axial_resultant_at(q, xi); }, 0.02, 1.0);
    r.min.value = -r.min.value;
    return r;
  }

  /// The search of spec "Curvature recovery" for the maximum of any f on [0, 1]:
  /// `rel` the departure-from-linear criterion, `floor` the least local magnitude it is
  /// measured against.
  template <class F>
  static ExtremeSearch search_max(F&& f, double rel, double floor, int intervals = 16,
                                  int min_bisections = 5, int max_bisections = 12) {
    ExtremeSearch best;
    int evals = 0;
    auto eval = [&](double x) {
      ++evals;
      return f(x);
    };
    double xl = 0, fl = eval(0.0);
    best.xi = 0;
    best.value = fl;
    auto consider = [&](double x, double v) {
      if (v > best.value) {
        best.value = v;
        best.xi = x;
      }
    };
    for (int i = 0; i < intervals; ++i) {
      const double xr_end = double(i + 1) / intervals;
      const double fr_end = eval(xr_end);
      consider(xr_end, fr_end);
      double l = xl, r = xr_end, fL = fl, fR = fr_end;
      double m = 0.5 * (l + r), fM = eval(m);
      consider(m, fM);
      for (int it = 0; it < max_bisections; ++it) {
        const double local = std::max({std::fabs(fL), std::fabs(fM), std::fabs(fR), floor});
        const double dev = std::fabs(fM - 0.5 * (fL + fR));
        if (it >= min_bisections && dev <= rel * local) break;
        const double q1 = 0.5 * (l + m), q3 = 0.5 * (m + r);
        const double f1 = eval(q1), f3 = eval(q3);
        consider(q1, f1);
        consider(q3, f3);
        if (f1 >= fM && f1 >= f3) {
          r = m; fR = fM; m = q1; fM = f1;
        } else if (f3 >= fM) {
          l = m; fL = fM; m = q3; fM = f3;
        } else {
          l = q1; fL = f1; r = q3; fR = f3;
        }
      }
      xl = xr_end;
      fl = fr_end;
    }
    best.evaluations = evals;
    return best;
  }

 private:
  // Shape-function maps at the points of one rule: a = sum_k A[g][k] q_k, b = sum B[g][k] q_k;
  // w[g] = weight * L0 (integration in s). Stored in double and in long double, so that a
  // long-double kernel is exact to its own precision.
  template <class S>
  struct Table {
    int n = 0;
    std::array<S, kMaxGaussOrder> w{};
    std::array<std::array<S, 4>, kMaxGaussOrder> A{}, B{};
  };
  template <class T>
  using table_scalar_t =
      std::conditional_t<std::is_same_v<value_type_t<T>, long double>, long double, double>;

  template <class S>
  void make_table(int order, Table<S>& t) const {
    const auto rule = gauss_legendre<long double>(order);
    t.n = order;
    for (int g = 0; g < order; ++g) {
      const auto s = hermite_shape(rule.xi[g]);
      const auto A = hermite_block_weights(s.dH, 1, p_.L0);
      const auto B = hermite_block_weights(s.d2H, 2, p_.L0);
      t.w[g] = static_cast<S>(rule.w[g] * p_.L0);
      for (int k = 0; k < 4; ++k) {
        t.A[g][k] = static_cast<S>(A[k]);
        t.B[g][k] = static_cast<S>(B[k]);
      }
    }
  }
  template <class T>
  const Table<table_scalar_t<T>>& axial_table() const {
    if constexpr (std::is_same_v<table_scalar_t<T>, long double>) return axial_ld_;
    else return axial_d_;
  }
  template <class T>
  const Table<table_scalar_t<T>>& bending_table() const {
    if constexpr (std::is_same_v<table_scalar_t<T>, long double>) return bending_ld_;
    else return bending_d_;
  }

  template <class T, class S, class Q>
  static Vec3<T> combine(const std::array<S, 4>& c, const Q& q) {
    Vec3<T> r = T(c[0]) * q.template segment<3>(hermite_block_offset<L>(0));
    for (int k = 1; k < 4; ++k) r += T(c[k]) * q.template segment<3>(hermite_block_offset<L>(k));
    return r;
  }

  // The terms of one point onto R: w (A A^T) (x) Haa (Haa given, already weighted) and, when
  // d is given (a bending point), wq w [(A B^T) (x) Hab + (B A^T) (x) Hab^T + (B B^T) (x) Hbb].
  template <class T, class S>
  static void add_point_blocks(S w, const std::array<S, 4>& A, const std::array<S, 4>& B, const Mat3<T>& Haa,
                               const DensityDerivatives<T>* d, const T& wq, HermiteBlockSum<T>& R) {
    const std::array<S, 4> wA{w * A[0], w * A[1], w * A[2], w * A[3]};
    R.add(wA, A, Haa);
    if (!d) return;
    const std::array<S, 4> wB{w * B[0], w * B[1], w * B[2], w * B[3]};
    R.add(wA, B, Mat3<T>(wq * d->Hab));
    R.add(wB, A, Mat3<T>(wq * d->Hab.transpose()));
    R.add(wB, B, Mat3<T>(wq * d->Hbb));
  }

  // f_k += w A_k Wa; K_kl += w A_k A_l Haa.
  template <class T, class S>
  static void accumulate_axial(const Table<S>& t, int g, const Vec3<T>& Wa, const Mat3<T>* Haa,
                               Vec<T>& f, Mat<T>* K) {
    const S w = t.w[g];
    for (int k = 0; k < 4; ++k) {
      const int ok = hermite_block_offset<L>(k);
      const S Ak = w * t.A[g][k];
      f.template segment<3>(ok) += T(Ak) * Wa;
      if (!K) continue;
      for (int l = k; l < 4; ++l) {
        const int ol = hermite_block_offset<L>(l);
        const Mat3<T> blk = T(Ak * t.A[g][l]) * (*Haa);
        K->template block<3, 3>(ok, ol) += blk;
        if (l != k) K->template block<3, 3>(ol, ok) += blk.transpose();
      }
    }
  }

  // f_k += w (A_k Wa + B_k Wb);
  // K_kl += w (A_k A_l Haa + A_k B_l Hab + B_k A_l Hab^T + B_k B_l Hbb).
  // The diagonal blocks are built from exactly symmetric parts, so K is exactly symmetric.
  template <class T, class S>
  static void accumulate_full(const Table<S>& t, int g, const DensityDerivatives<T>& d, Vec<T>& f,
                              Mat<T>* K) {
    const S w = t.w[g];
    const auto& A = t.A[g];
    const auto& B = t.B[g];
    if (!K) {
      for (int k = 0; k < 4; ++k)
        f.template segment<3>(hermite_block_offset<L>(k)) += T(w * A[k]) * d.Wa + T(w * B[k]) * d.Wb;
      return;
    }
    // Coefficient-wise (an Eigen expression assignment here trips GCC 12's maybe-uninitialized
    // at -O1 through Eigen's debug aliasing check).
    Mat3<T> Hsym;
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) Hsym(i, j) = T(d.Hab(i, j) + d.Hab(j, i));
    for (int k = 0; k < 4; ++k) {
      const int ok = hermite_block_offset<L>(k);
      f.template segment<3>(ok) += T(w * A[k]) * d.Wa + T(w * B[k]) * d.Wb;
      K->template block<3, 3>(ok, ok) +=
          T(w * (A[k] * A[k])) * d.Haa + T(w * (A[k] * B[k])) * Hsym + T(w * (B[k] * B[k])) * d.Hbb;
      for (int l = k + 1; l < 4; ++l) {
        const int ol = hermite_block_offset<L>(l);
        const Mat3<T> blk = T(w * (A[k] * A[l])) * d.Haa + T(w * (A[k] * B[l])) * d.Hab +
                            T(w * (B[k] * A[l])) * d.Hab.transpose() + T(w * (B[k] * B[l])) * d.Hbb;
        K->template block<3, 3>(ok, ol) += blk;
        K->template block<3, 3>(ol, ok) += blk.transpose();
      }
    }
  }

  HermiteElementParams p_;
  std::string name_;
  Table<double> axial_d_, bending_d_;
  Table<long double> axial_ld_, bending_ld_;
};

}  // namespace cabledyn
