// cabledyn: the release cap of the force blend, a policy of an EI = 0 line's march (the
// system stepper applies it through SystemMarchPolicies: it reads the line's LineModel and node
// vector, and gives its correction as slot rows and slot blocks into a sink).
// Spec "Release cap" (and "Time integration": the force blend it acts on).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/dynamics/generalized_alpha.hpp"
#include "cabledyn/line/line_model.hpp"

namespace cabledyn {

/// Release cap of the force blend (spec "Release cap"). An element keeps alpha_f (T_n +
/// T_d,n) along t_n over the step (T_d the dashpot tension). For an element taut at t_n that
/// shortens along t_n (p = l_n - t_n . d_{n+1} > 0) and ends below alpha_f/(1 - alpha_f) T_n,
/// the kept force alpha_f (T_n + phi T_d,n) is replaced by N/p when smaller, with
/// N = max(W_n + (1 - alpha_f)(T^_{n+1} + phi T_d,n+1) p_{n+1}, 0), W_n = 1/2 T_n e_n,
/// T^_{n+1} = T_n max(e_{n+1}, 0)/e_n, p_{n+1} = l_{n+1} - t_{n+1} . d_n, and phi the dashpot
/// weight (1 at or below l_0, falling linearly to 0 at l_0 + c e_n, c = alpha_f/(1 - alpha_f)).
/// A damped element slack at t_n keeps alpha_f T_d,n with the budget of its own one-step
/// dissipation W_d = |T_d,n| |ldot_n| dt: replaced by (W_d + N_d)/|p| when smaller,
/// N_d = max((1 - alpha_f) T_d,n+1 p_{n+1}, 0) (a compressive T_d,n capped alike when p < 0).
/// The residual and the tangent take the difference (T_d,n+1 depends on q_{n+1} through
/// v_{n+1}: the factor gamma/(beta dt)).
/// The cap holds its workspaces only: every call takes the line's load model (an EI = 0
/// LineModel<double>) and node vectors (node i's position at values 3i..3i+2).
class ReleaseCap {
 public:
  ReleaseCap() = default;
  explicit ReleaseCap(std::size_t n_elements) : kept_(n_elements, 0.0), cap_start_(n_elements) {}

  /// The step-start quantities, constant over the (sub)step: once per Newton solve, from the
  /// committed state (q_n, v_n).
  void prepare(const LineModel<double>& m, const VecX<double>& qn, const VecX<double>& vn) {
    check(m);
    for (std::size_t e = 0; e < m.n_elements(); ++e) {
      const auto i0 = static_cast<Eigen::Index>(3 * e);
      const auto& el = m.element(e);
      const double L0 = el.params().L0, EA = el.params().EA, cd = el.params().BA / L0;
      CapStart& c = cap_start_[e];
      c.dn = qn.segment<3>(i0 + 3) - qn.segment<3>(i0);
      c.ln = c.dn.norm();
      c.en = c.ln - L0;
      c.tn = c.dn / c.ln;
      c.Tn = c.en > 0 ? EA * c.en / L0 : 0.0;
      c.ldn = c.tn.dot(vn.segment<3>(i0 + 3) - vn.segment<3>(i0));
      c.Tdn = cd * c.ldn;
    }
  }
  /// Applies the cap to the blended residual G (the line's slot rows) at the trial q1
  /// (velocities v1) and, with a sink, its tangent as slot blocks (d v1/d q1 =
  /// gamma/(beta dt)); returns the number of capped elements.
  template <class Sink>
  long apply(const LineModel<double>& m, const GeneralizedAlpha<double>& ga, const VecX<double>& q1,
             const VecX<double>& v1, double dt, VecX<double>& G, Sink* sink) {
    check(m);
    long caps = 0;
    const double af = ga.alpha_f, c = af / (1 - af), gv = ga.damping_weight(dt);
    const Mat3<double> I = Mat3<double>::Identity();
    for (std::size_t e = 0; e < m.n_elements(); ++e) {
      const auto i0 = static_cast<Eigen::Index>(3 * e);
      const auto& el = m.element(e);
      const double L0 = el.params().L0, cd = el.params().BA / L0;
      const CapStart& cs = cap_start_[e];
      const Vec3<double>& dn = cs.dn;
      const Vec3<double>& tn = cs.tn;
      const double ln = cs.ln, en = cs.en, Tn = cs.Tn, ldn = cs.ldn, Tdn = cs.Tdn;
      kept_[e] = af * (Tn + Tdn);
      const Vec3<double> d1 = q1.segment<3>(i0 + 3) - q1.segment<3>(i0);
      const double l1 = d1.norm();
      if (!(l1 > 0)) continue;
      const Vec3<double> t1 = d1 / l1;
      const Vec3<double> dv1 = v1.segment<3>(i0 + 3) - v1.segment<3>(i0);
      const double e1 = l1 - L0, Td1 = cd * t1.dot(dv1);
      const double p = ln - tn.dot(d1), p1 = l1 - t1.dot(dn);
      const Mat3<double> P1 = I - t1 * t1.transpose();
      const Vec3<double> dp = -tn, dl1 = t1, dp1 = t1 - P1 * dn / l1;
      const Vec3<double> dTd1 = cd * (P1 * dv1 / l1 + gv * t1);
      Vec3<double> dF = Vec3<double>::Zero(), dK = Vec3<double>::Zero();
      double F = 0, K = 0;
      if (en > 0) {
        if (!(p > 0)) continue;
        const double That = Tn * std::max(e1, 0.0) / en;
        if (That >= c * Tn) continue;  // ends above c T_n: phi = 0 and the elastic cap does not act
        const double phi = e1 <= 0 ? 1.0 : 1.0 - e1 / (c * en);
        const Vec3<double> dphi = e1 > 0 ? Vec3<double>(-dl1 / (c * en)) : Vec3<double>::Zero();
        const double Wn = 0.5 * Tn * en;
        const double Nraw = Wn + (1 - af) * (That + phi * Td1) * p1;
        const double N = std::max(Nraw, 0.0);
        K = af * (Tn + phi * Tdn);
        F = N / p;
        if (!(F < K)) continue;
        if (Nraw > 0) {
          const Vec3<double> dThat = e1 > 0 ? Vec3<double>(Tn / en * dl1) : Vec3<double>::Zero();
          const Vec3<double> dN = (1 - af) * (dThat * p1 + That * dp1 + (dphi * Td1 + phi * dTd1) * p1 + phi * Td1 * dp1);
          dF = dN / p - F / p * dp;
        } else {
          dF = -F / p * dp;
        }
        dK = af * Tdn * dphi;
        kept_[e] = F + af * (1 - phi) * Tdn;
      } else {
        if (cd == 0 || Tdn == 0) continue;
        const double sgn = Tdn > 0 ? 1.0 : -1.0;
        if (!(sgn * p > 0)) continue;
        const double Wd = std::fabs(Tdn) * std::fabs(ldn) * dt;
        const double Nraw = (1 - af) * sgn * Td1 * p1;
        const double Nd = std::max(Nraw, 0.0);
        const double ap = std::fabs(p);
        const double Fm = (Wd + Nd) / ap;  // capped magnitude
        if (!(Fm < af * std::fabs(Tdn))) continue;
        F = sgn * Fm;
        K = af * Tdn;
        const Vec3<double> dNd = Nraw > 0 ? Vec3<double>((1 - af) * sgn * (dTd1 * p1 + Td1 * dp1)) : Vec3<double>::Zero();
        dF = sgn * (dNd / ap - Fm / ap * (sgn * dp));
        kept_[e] = F;
      }
      ++caps;
      // Replace the kept force K t_n by F t_n: node b gets (F - K) t_n, node a minus.
      const Vec3<double> df = (F - K) * tn;
      G.segment<3>(i0) -= df;
      G.segment<3>(i0 + 3) += df;
      if (sink) {
        // d(df)/dd1; rows a: -B, rows b: +B; columns: d1 = r_b - r_a.
        const Mat3<double> B = tn * (dF - dK).transpose();
        sink->add(e, e + 1, Mat3<double>(-B));
        sink->add(e, e, B);
        sink->add(e + 1, e + 1, B);
        sink->add(e + 1, e, Mat3<double>(-B));
      }
    }
    return caps;
  }

  /// The kept (possibly capped) force of element e in the last apply().
  double kept(std::size_t e) const { return kept_[e]; }

 private:
  void check(const LineModel<double>& m) const {
    if (m.hermite() || m.n_elements() != cap_start_.size())
      throw InputError(m.name() + " release cap", "line model", m.hermite() ? "a Hermite line" : "another line's",
                       "the EI = 0 line of " + std::to_string(cap_start_.size()) + " elements it was made for");
  }

  struct CapStart {
    Vec3<double> dn, tn;  // chord and its direction at t_n
    double ln, en, Tn;    // length, elongation, elastic tension at t_n
    double ldn, Tdn;      // elongation rate and dashpot tension at t_n
  };

  std::vector<double> kept_;         // the kept (possibly capped) force of each element
  std::vector<CapStart> cap_start_;  // the step-start quantities
};

}  // namespace cabledyn
