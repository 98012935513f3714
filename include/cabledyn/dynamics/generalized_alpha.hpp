// cabledyn: the generalised-alpha method (Chung & Hulbert 1993).
// Spec "Time integration"; EQUATIONS.md section 10:
//   alpha_m = (2 rho_inf - 1)/(rho_inf + 1), alpha_f = rho_inf/(rho_inf + 1),
//   gamma = 1/2 - alpha_m + alpha_f, beta = 1/4 (1 - alpha_m + alpha_f)^2,
//   x_{n+1-alpha} = (1 - alpha) x_{n+1} + alpha x_n (alpha weighs the OLD state),
//   Newmark: q_{n+1} = q_n + dt v_n + dt^2 [(1/2 - beta) a_n + beta a_{n+1}],
//            v_{n+1} = v_n + dt [(1 - gamma) a_n + gamma a_{n+1}],
//   force blend (default): M a_{n+1-alpha_m} + (1 - alpha_f) r(q_{n+1}, v_{n+1}) + alpha_f r_n = 0,
//   configuration blend:   M a_{n+1-alpha_m} + r(q_{n+1-alpha_f}, v_{n+1-alpha_f}) = 0,
//   effective tangent (unknown q_{n+1}):
//   S = (1 - alpha_m)/(beta dt^2) M + (1 - alpha_f) [gamma/(beta dt) K_v + K_q].
// A small dense generic stepper, templated on the scalar, serves tests of the scheme's
// spectral properties and any small system; the system stepper (system_stepper.hpp) uses the
// same parameters with the systems' bordered band storage.
#pragma once

#include <cmath>
#include <functional>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"

namespace cabledyn {

/// Generalised-alpha parameters from the spectral radius at infinite frequency.
template <class T = double>
struct GeneralizedAlpha {
  T rho_inf, alpha_m, alpha_f, gamma, beta;

  /// Throws InputError for rho_inf outside [0, 1].
  static GeneralizedAlpha from_rho_inf(const T& rho) {
    if (!(value_of(rho) >= 0 && value_of(rho) <= 1))
      throw InputError("generalised-alpha", "rhoInf", value_of(rho), "in [0, 1]");
    GeneralizedAlpha g;
    g.rho_inf = rho;
    g.alpha_m = (T(2) * rho - T(1)) / (rho + T(1));
    g.alpha_f = rho / (rho + T(1));
    g.gamma = T(0.5) - g.alpha_m + g.alpha_f;
    const T s = T(1) - g.alpha_m + g.alpha_f;
    g.beta = T(0.25) * s * s;
    return g;
  }

  /// a_{n+1} from q_{n+1} and the committed state (Newmark). Returns an Eigen expression
  /// over the arguments (no temporary, no heap): assign it to a vector at once.
  template <class V>
  auto acceleration(const V& q1, const V& q0, const V& v0, const V& a0, const T& dt) const {
    return (q1 - q0 - dt * v0 - (dt * dt) * (T(0.5) - beta) * a0) / (beta * dt * dt);
  }
  /// v_{n+1} from a_{n+1} (Newmark); an expression, as acceleration().
  template <class V>
  auto velocity(const V& a1, const V& v0, const V& a0, const T& dt) const {
    return v0 + dt * ((T(1) - gamma) * a0 + gamma * a1);
  }
  /// Weight of M in the effective tangent: (1 - alpha_m)/(beta dt^2).
  T mass_weight(const T& dt) const { return (T(1) - alpha_m) / (beta * dt * dt); }
  /// Weight of K_v inside the (1 - alpha_f) bracket: gamma/(beta dt).
  T damping_weight(const T& dt) const { return gamma / (beta * dt); }
};

/// A small dense system M a + r(q, v) = 0 (M constant) stepped by generalised-alpha with a
/// Newton iteration; for tests of the scheme and small models. r and its Jacobians come from a
/// callback `residual(q, v, r, Kq, Kv)`.
template <class T, int N = Eigen::Dynamic>
class DenseGeneralizedAlpha {
 public:
  using VecN = Vec<T, N>;
  using MatN = Mat<T, N>;
  using Residual = std::function<void(const VecN& q, const VecN& v, VecN& r, MatN& Kq, MatN& Kv)>;

  DenseGeneralizedAlpha(MatN M, Residual residual, const T& rho_inf, bool force_blend = true)
      : M_(std::move(M)), res_(std::move(residual)), ga_(GeneralizedAlpha<T>::from_rho_inf(rho_inf)),
        force_blend_(force_blend) {}

  /// Initial state: a_0 solves M a_0 = -r(q_0, v_0).
  void initialize(const VecN& q0, const VecN& v0) {
    q_ = q0;
    v_ = v0;
    MatN Kq, Kv;
    res_(q_, v_, r_, Kq, Kv);
    a_ = M_.fullPivLu().solve(-r_);
  }

  /// One step of size dt (Newton to the relative tolerance tol on the residual).
  void step(const T& dt, const T& tol = T(1e-13), int max_iter = 50) {
    if (!(value_of(dt) > 0)) throw InputError("generalised-alpha", "dt", value_of(dt), "> 0");
    const auto& g = ga_;
    VecN q1 = q_ + dt * v_ + (dt * dt) * (T(0.5) - g.beta) * a_;  // Newmark predictor (a = 0)
    VecN r, G;
    MatN Kq, Kv;
    for (int it = 0; it < max_iter; ++it) {
      const VecN a1 = g.acceleration(q1, q_, v_, a_, dt);
      const VecN v1 = g.velocity(a1, v_, a_, dt);
      const VecN am = (T(1) - g.alpha_m) * a1 + g.alpha_m * a_;
      if (force_blend_) {
        res_(q1, v1, r, Kq, Kv);
        G = M_ * am + (T(1) - g.alpha_f) * r + g.alpha_f * r_;
      } else {
        const VecN qa = (T(1) - g.alpha_f) * q1 + g.alpha_f * q_;
        const VecN va = (T(1) - g.alpha_f) * v1 + g.alpha_f * v_;
        res_(qa, va, r, Kq, Kv);
        G = M_ * am + r;
      }
      const T scale = std::max<value_type_t<T>>(value_of(T((M_ * am).cwiseAbs().maxCoeff())), 1e-300);
      if (value_of(T(G.cwiseAbs().maxCoeff())) <= value_of(tol * scale) && it > 0) break;
      const MatN S = g.mass_weight(dt) * M_ + (T(1) - g.alpha_f) * (Kq + g.damping_weight(dt) * Kv);
      q1 -= S.fullPivLu().solve(G);
    }
    const VecN a1 = g.acceleration(q1, q_, v_, a_, dt);
    const VecN v1 = g.velocity(a1, v_, a_, dt);
    q_ = q1;
    v_ = v1;
    a_ = a1;
    res_(q_, v_, r_, Kq, Kv);
  }

  const VecN& q() const { return q_; }
  const VecN& v() const { return v_; }
  const VecN& a() const { return a_; }
  const GeneralizedAlpha<T>& params() const { return ga_; }

 private:
  MatN M_;
  Residual res_;
  GeneralizedAlpha<T> ga_;
  bool force_blend_;
  VecN q_, v_, a_, r_;
};

/// The amplification matrix of generalised-alpha on the undamped oscillator
/// a + omega^2 q = 0 over one step, state (q, dt v, dt^2 a) -> next (analysis of the
/// scheme's spectral radius, in closed form from the three update equations).
template <class T>
Mat3<T> generalized_alpha_amplification(const GeneralizedAlpha<T>& g, const T& Omega) {
  // Unknowns x = (q1, V1 = dt v1, A1 = dt^2 a1) from x0 = (q0, V0, A0):
  //   q1 - beta A1 = q0 + V0 + (1/2 - beta) A0
  //   V1 - gamma A1 = V0 + (1 - gamma) A0
  //   (1 - am) A1 + (1 - af) Omega^2 q1 = -am A0 - af Omega^2 q0
  const T W = Omega * Omega;
  Mat3<T> L, R;
  L << T(1), T(0), -g.beta, T(0), T(1), -g.gamma, (T(1) - g.alpha_f) * W, T(0), T(1) - g.alpha_m;
  R << T(1), T(1), T(0.5) - g.beta, T(0), T(1), T(1) - g.gamma, -g.alpha_f * W, T(0), -g.alpha_m;
  return L.inverse() * R;
}

}  // namespace cabledyn
