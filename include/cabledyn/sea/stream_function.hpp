// cabledyn: regular nonlinear waves by the stream-function (Fourier approximation) method.
// Spec "Waves", regular nonlinear waves: Dean's stream-function wave solved numerically by
// the Fourier method of Rienecker & Fenton (1981): Newton's method on 2N + 5 unknowns in
// units of h and g, the height stepped up from a linear wave, StreamOrder N (default 20).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/sea/airy.hpp"
#include "cabledyn/sea/dispersion.hpp"
#include "cabledyn/sea/ramp.hpp"

namespace cabledyn {

/// Height of the highest steady wave H_max / h of length L / h on a flat bed: Fenton's (1990)
/// fit to Williams' (1981) computations,
/// (0.141063 l + 0.0095721 l^2 + 0.0077829 l^3) / (1 + 0.0788340 l + 0.0317567 l^2 + 0.0093407 l^3),
/// l = L / h: 0.141063 L / h in deep water, 0.833 for a solitary wave. The breaking limit of a
/// stream wave (Fenton's program FOURIER prints it as "the maximum of H/d for this length").
inline double stream_max_height(double L_over_h) {
  const double l = L_over_h;
  return (0.141063 * l + 0.0095721 * l * l + 0.0077829 * l * l * l) /
         (1 + 0.0788340 * l + 0.0317567 * l * l + 0.0093407 * l * l * l);
}

/// Options of the stream-function solver.
struct StreamWaveOptions {
  int order = 20;            ///< StreamOrder N (Fourier terms), in [1, 100]
  int height_steps = 0;      ///< steps from the linear wave to H; 0: ceil(10 H / H_max), >= 1
  double tolerance = 1e-12;  ///< Newton: max |residual| in units of h and g
  int max_iterations = 40;   ///< Newton iterations per height step
};

namespace detail {

/// Layout of the dimensionless unknowns z (units of h and g), size 2N + 5:
/// z(0) = k h, z(1 + m) = eta_m / h (m = 0..N, crest to trough, about the mean level),
/// z(N + 1 + j) = B_j / sqrt(g h^3) (j = 1..N), z(2N + 2) = Ubar / sqrt(g h),
/// z(2N + 3) = Q / sqrt(g h^3), z(2N + 4) = R / (g h).
struct StreamLayout {
  int N;
  int k() const { return 0; }
  int eta(int m) const { return 1 + m; }
  int B(int j) const { return N + 1 + j; }
  int U() const { return 2 * N + 2; }
  int Q() const { return 2 * N + 3; }
  int R() const { return 2 * N + 4; }
  int size() const { return 2 * N + 5; }
};

/// The 2N + 5 equations of Rienecker & Fenton (1981) with no Eulerian mean current (spec
/// "Waves", regular nonlinear waves), dimensionless (h = g = 1), for the unknowns z of
/// StreamLayout, height Hd = H / h and period Td = T sqrt(g / h). With X_m = m pi / (N k),
/// Y_m = 1 + eta_m and the moving-frame stream function
///   psi(X, Y) = -Ubar Y + sum_j B_j sinh(j k Y) / cosh(j k) cos(j k X):
///   rows m = 0..N:        psi(X_m, Y_m) + Q = 0                    (kinematic)
///   rows N + 1 + m:       1/2 |grad psi|^2 + eta_m - R = 0         (Bernoulli)
///   row 2N + 2:           (eta_0/2 + eta_1 + .. + eta_{N-1} + eta_N/2) / N = 0  (mean level)
///   row 2N + 3:           eta_0 - eta_N - Hd = 0                   (height)
///   row 2N + 4:           k Ubar Td - 2 pi = 0                     (period, c = Ubar)
/// Templated so that the tests differentiate it with duals.
template <class Vec>
Eigen::Matrix<typename Vec::Scalar, Eigen::Dynamic, 1> stream_residual(const Vec& z, int N, double Hd,
                                                                       double Td) {
  using T = typename Vec::Scalar;
  using std::exp;
  const StreamLayout L{N};
  Eigen::Matrix<T, Eigen::Dynamic, 1> F(L.size());
  const T k = z(L.k());
  const T U = z(L.U());
  const T Q = z(L.Q());
  const T R = z(L.R());
  for (int m = 0; m <= N; ++m) {
    const T Y = T(1) + z(L.eta(m));
    T psi = -U * Y + Q;
    T u = -U;
    T w = T(0);
    for (int j = 1; j <= N; ++j) {
      const double cj = std::cos(kPi * j * m / N), sj = std::sin(kPi * j * m / N);
      const T jk = T(double(j)) * k;
      const T e1 = exp(jk * (Y - T(1))), e2 = exp(-jk * (Y + T(1)));
      const T den = T(1) + exp(T(-2) * jk);
      const T S = (e1 - e2) / den, C = (e1 + e2) / den;
      const T Bj = z(L.B(j));
      psi += Bj * S * T(cj);
      u += jk * Bj * C * T(cj);
      w += jk * Bj * S * T(sj);
    }
    F(m) = psi;
    F(N + 1 + m) = T(0.5) * (u * u + w * w) + z(L.eta(m)) - R;
  }
  T mean = T(0.5) * (z(L.eta(0)) + z(L.eta(N)));
  for (int m = 1; m < N; ++m) mean += z(L.eta(m));
  F(2 * N + 2) = mean / T(double(N));
  F(2 * N + 3) = z(L.eta(0)) - z(L.eta(N)) - T(Hd);
  F(2 * N + 4) = k * U * T(Td) - T(2 * kPi);
  return F;
}

/// Closed-form Jacobian dF/dz of stream_residual (double). With S_j, C_j the sinh and cosh
/// ratios at Y_m and t_j = tanh(j k): dS_j/dk = j (Y C_j - S_j t_j), dC_j/dk = j (Y S_j -
/// C_j t_j), dS_j/dY = j k C_j, dC_j/dY = j k S_j.
inline Eigen::MatrixXd stream_jacobian(const Eigen::VectorXd& z, int N, double Td) {
  const StreamLayout L{N};
  const int n = L.size();
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, n);
  const double k = z(L.k()), U = z(L.U());
  std::vector<double> Sv(static_cast<std::size_t>(N + 1)), Cv(static_cast<std::size_t>(N + 1));
  for (int m = 0; m <= N; ++m) {
    const double Y = 1 + z(L.eta(m));
    double u = -U, w = 0;
    double dpsi_dk = 0, du_dk = 0, dw_dk = 0, du_dY = 0, dw_dY = 0;
    for (int j = 1; j <= N; ++j) {
      const double cj = std::cos(kPi * j * m / N), sj = std::sin(kPi * j * m / N);
      const double jk = j * k;
      const double e1 = std::exp(jk * (Y - 1)), e2 = std::exp(-jk * (Y + 1));
      const double den = 1 + std::exp(-2 * jk);
      const double S = (e1 - e2) / den, C = (e1 + e2) / den;
      Sv[static_cast<std::size_t>(j)] = S;
      Cv[static_cast<std::size_t>(j)] = C;
      const double tj = std::tanh(jk);
      const double dS_dk = j * (Y * C - S * tj), dC_dk = j * (Y * S - C * tj);
      const double Bj = z(L.B(j));
      u += jk * Bj * C * cj;
      w += jk * Bj * S * sj;
      dpsi_dk += Bj * dS_dk * cj;
      du_dk += j * Bj * cj * (C + k * dC_dk);
      dw_dk += j * Bj * sj * (S + k * dS_dk);
      du_dY += jk * jk * Bj * S * cj;
      dw_dY += jk * jk * Bj * C * sj;
      J(m, L.B(j)) = S * cj;
    }
    // kinematic row: d psi / dY = -Ubar + sum j k B_j C_j cos = u
    J(m, L.k()) = dpsi_dk;
    J(m, L.eta(m)) = u;
    J(m, L.U()) = -Y;
    J(m, L.Q()) = 1;
    // Bernoulli row: u du/dx + w dw/dx (+ 1 for eta_m, - 1 for R)
    J(N + 1 + m, L.k()) = u * du_dk + w * dw_dk;
    J(N + 1 + m, L.eta(m)) = u * du_dY + w * dw_dY + 1;
    J(N + 1 + m, L.U()) = -u;
    J(N + 1 + m, L.R()) = -1;
    for (int j = 1; j <= N; ++j) {
      const double cj = std::cos(kPi * j * m / N), sj = std::sin(kPi * j * m / N);
      const double jk = j * k;
      J(N + 1 + m, L.B(j)) =
          u * jk * Cv[static_cast<std::size_t>(j)] * cj + w * jk * Sv[static_cast<std::size_t>(j)] * sj;
    }
  }
  for (int m = 0; m <= N; ++m) J(2 * N + 2, L.eta(m)) = (m == 0 || m == N) ? 0.5 / N : 1.0 / N;
  J(2 * N + 3, L.eta(0)) = 1;
  J(2 * N + 3, L.eta(N)) = -1;
  J(2 * N + 4, L.k()) = U * Td;
  J(2 * N + 4, L.U()) = k * Td;
  return J;
}

/// The trivial (zero-height) and linear solutions in units of h and g for period Td.
inline Eigen::VectorXd stream_linear_guess(int N, double Hd, double Td) {
  const StreamLayout L{N};
  const double w = 2 * kPi / Td;
  const double k = dispersion_kh(w * w);
  const double c = w / k;
  Eigen::VectorXd z = Eigen::VectorXd::Zero(L.size());
  z(L.k()) = k;
  for (int m = 0; m <= N; ++m) z(L.eta(m)) = Hd / 2 * std::cos(kPi * m / N);
  z(L.B(1)) = Hd / 2 * c / std::tanh(k);
  z(L.U()) = c;
  z(L.Q()) = c;
  z(L.R()) = c * c / 2;
  return z;
}

}  // namespace detail

/// A regular nonlinear (stream-function) wave of height H and period T over a flat bed,
/// solved at construction by the Fourier method of Rienecker & Fenton (1981) as the spec
/// states (see detail::stream_residual for the 2N + 5 equations). The height is stepped up
/// from a linear wave: height_steps solves at H s / n, s = 1..n, each started from the linear
/// extrapolation of the two previous solutions (the zero-height wave and the linear wave for
/// the first); a step whose Newton iteration fails is halved (up to 8 times).
///
/// Kinematics in the fixed frame (spec): with x' = x cos beta + y sin beta, X = x' - c t,
/// Y = z + h,
///   u_h = sum j k B_j cosh(j k Y) / cosh(j k h) cos(j k X) along (cos beta, sin beta, 0),
///   u_z = sum j k B_j sinh(j k Y) / cosh(j k h) sin(j k X),
///   the local acceleration -c d/dX of these, the elevation the cosine interpolant of the
///   eta_m, and the dynamic pressure p_dyn / rho = p / rho + g z = R - 1/2 |grad psi|^2
///   (moving-frame velocity (u_h - c, u_z)).
/// The field is exact up to the surface: no stretching; points above the surface see still
/// water; the ramp scales the whole field. Evaluation allocates nothing.
///
/// Throws InputError for H <= 0, T <= 0, a depth that is not finite and > 0, or a wave beyond
/// the breaking limit (stream_max_height of its computed length, or a height step that
/// cannot be solved within 10 % of it); SolveError if Newton fails below that.
class StreamWave {
 public:
  StreamWave(double H, double T, double beta, double depth, double g = kGravity,
             StreamWaveOptions options = {})
      : H_(H), T_(T), beta_(beta), h_(depth), g_(g), options_(options) {
    const char* who = "stream wave";
    if (!(std::isfinite(H) && H > 0)) throw InputError(who, "H", H, "> 0");
    if (!(std::isfinite(T) && T > 0)) throw InputError(who, "T", T, "> 0");
    if (!std::isfinite(beta)) throw InputError(who, "beta", beta, "finite");
    if (!(std::isfinite(depth) && depth > 0)) throw InputError(who, "depth", depth, "> 0, finite");
    if (!(std::isfinite(g) && g > 0)) throw InputError(who, "g", g, "> 0");
    if (options.order < 1 || options.order > 100) throw InputError(who, "StreamOrder", options.order, "in [1, 100]");
    if (options.height_steps < 0) throw InputError(who, "height steps", options.height_steps, ">= 0");
    if (!(options.tolerance > 0)) throw InputError(who, "tolerance", options.tolerance, "> 0");
    if (options.max_iterations < 1) throw InputError(who, "max iterations", options.max_iterations, ">= 1");
    solve();
    cb_ = std::cos(beta_);
    sb_ = std::sin(beta_);
  }

  /// Height [m], period [s], direction [rad], depth [m], gravity [m/s^2].
  double height() const { return H_; }
  double period() const { return T_; }
  double depth() const { return h_; }
  double g() const { return g_; }
  /// StreamOrder N.
  int order() const { return N_; }
  /// Wavenumber k [1/m], wavelength L = 2 pi / k [m], celerity c = Ubar [m/s].
  double k() const { return k_; }
  double wavelength() const { return 2 * kPi / k_; }
  double celerity() const { return c_; }
  /// Bernoulli constant R [m^2/s^2] (elevations about the mean level) and volume flux Q
  /// [m^2/s] in the moving frame.
  double R() const { return R_; }
  double Q() const { return Q_; }
  /// B_j [m^2/s], j = 1..N (index j - 1).
  const std::vector<double>& B() const { return B_; }
  /// Surface elevations eta_m [m] at X_m = m pi / (N k), m = 0..N (crest to trough).
  const std::vector<double>& eta_nodes() const { return eta_m_; }
  /// Newton iterations in all, height steps used, final max |residual| (units of h and g).
  int iterations() const { return iterations_; }
  int height_steps_used() const { return steps_used_; }
  double residual() const { return residual_; }
  /// The converged dimensionless unknowns (detail::StreamLayout).
  const Eigen::VectorXd& solution() const { return z_; }
  /// H_max [m] at this wave's length (stream_max_height).
  double breaking_height() const { return stream_max_height(wavelength() / h_) * h_; }

  /// Surface elevation [m] at (x, y) and time t, the cosine interpolant of the eta_m, times
  /// the ramp.
  template <class T>
  T elevation(const T& x, const T& y, const T& t, const Ramp& ramp = {}) const {
    const T r = ramp.factor(t);
    if (value_of(r) == 0) return T(0);
    const T X = x * T(cb_) + y * T(sb_) - T(c_) * t;
    return T(r * eta_at(X));
  }

  /// Elevation, velocity, local acceleration and dynamic pressure at x [m], time t [s].
  template <class T>
  WaveKinematics<T> kinematics(const Vec3<T>& x, const T& t, const Ramp& ramp = {}) const {
    using std::cos;
    using std::exp;
    using std::sin;
    WaveKinematics<T> out;
    const T r = ramp.factor(t);
    if (value_of(r) == 0) {
      out.wet = value_of(x(2)) <= 0;
      return out;
    }
    const T X = x(0) * T(cb_) + x(1) * T(sb_) - T(c_) * t;
    const T eta0 = eta_at(X);
    out.eta = r * eta0;
    if (value_of(x(2)) > value_of(out.eta)) return out;  // above the surface: still water
    out.wet = true;
    const T Y = x(2) + T(h_);
    const T kX = T(k_) * X;
    const T c1 = cos(kX), s1 = sin(kX);
    const T g1 = exp(T(k_) * (Y - T(h_))), f1 = exp(-T(k_) * (Y + T(h_)));
    T cj = c1, sj = s1, gj = g1, fj = f1;
    T uh = T(0), uz = T(0), ah = T(0), az = T(0);
    for (int j = 1; j <= N_; ++j) {
      const double jk = j * k_;
      const T C = (gj + fj) * T(inv_den_[static_cast<std::size_t>(j - 1)]);
      const T S = (gj - fj) * T(inv_den_[static_cast<std::size_t>(j - 1)]);
      const double b = jk * B_[static_cast<std::size_t>(j - 1)];
      uh += T(b) * C * cj;
      uz += T(b) * S * sj;
      ah += T(jk * b) * C * sj;
      az -= T(jk * b) * S * cj;
      // advance cos, sin of j k X and the exponentials to j + 1
      const T cn = cj * c1 - sj * s1;
      sj = sj * c1 + cj * s1;
      cj = cn;
      gj *= g1;
      fj *= f1;
    }
    ah *= T(c_);
    az *= T(c_);
    const T du = uh - T(c_);
    const T pd0 = T(R_) - T(0.5) * (du * du + uz * uz);
    const T rd = ramp.rate(t);
    out.u << r * uh * T(cb_), r * uh * T(sb_), r * uz;
    out.a << (r * ah + rd * uh) * T(cb_), (r * ah + rd * uh) * T(sb_), r * az + rd * uz;
    out.pd = r * pd0;
    out.terms = N_;
    return out;
  }

 private:
  template <class T>
  T eta_at(const T& X) const {
    using std::cos;
    using std::sin;
    const T kX = T(k_) * X;
    const T c1 = cos(kX), s1 = sin(kX);
    T cj = T(1), sj = T(0);
    T eta = T(E_[0]);
    for (int j = 1; j <= N_; ++j) {
      const T cn = cj * c1 - sj * s1;
      sj = sj * c1 + cj * s1;
      cj = cn;
      eta += T(E_[static_cast<std::size_t>(j)]) * cj;
    }
    return eta;
  }

  // Newton on the 2N + 5 equations at height Hd from the guess z; returns true when the
  // max-norm of the residual fell below the tolerance.
  bool newton(Eigen::VectorXd& z, double Hd, double Td, int& its, double& res) const {
    for (int it = 0; it < options_.max_iterations; ++it) {
      const Eigen::VectorXd F = detail::stream_residual(z, N_, Hd, Td);
      res = F.cwiseAbs().maxCoeff();
      if (!std::isfinite(res)) return false;
      if (res <= options_.tolerance) return true;
      ++its;
      const Eigen::MatrixXd J = detail::stream_jacobian(z, N_, Td);
      const Eigen::VectorXd dz = J.partialPivLu().solve(-F);
      if (!dz.allFinite()) return false;
      z += dz;
      if (!(z(0) > 0)) return false;
    }
    const Eigen::VectorXd F = detail::stream_residual(z, N_, Hd, Td);
    res = F.cwiseAbs().maxCoeff();
    return std::isfinite(res) && res <= options_.tolerance;
  }

  void solve() {
    N_ = options_.order;
    const double Hd = H_ / h_;
    const double Td = T_ * std::sqrt(g_ / h_);
    const detail::StreamLayout L{N_};
    const char* who = "stream wave";
    // No steady wave is higher than the solitary wave's 0.833 h (stream_max_height's limit).
    const double Hsol = 0.0077829 / 0.0093407;
    if (Hd > Hsol) throw InputError(who, "H / h", Hd, "<= 0.833 (no steady wave is higher; breaking limit)");
    const Eigen::VectorXd z_lin = detail::stream_linear_guess(N_, Hd, Td);
    const double L_lin = 2 * kPi / z_lin(L.k());
    int steps = options_.height_steps;
    if (steps == 0) steps = std::clamp(static_cast<int>(std::ceil(10 * Hd / stream_max_height(L_lin))), 1, 100);
    // zero-height solution and the linear one at the first step
    Eigen::VectorXd z_prev = z_lin;
    for (int m = 0; m <= N_; ++m) z_prev(L.eta(m)) = 0;
    z_prev(L.B(1)) = 0;
    double H_prev = 0;
    Eigen::VectorXd z_prev2 = z_prev;
    double H_prev2 = 0;
    double dH = Hd / steps;
    int halvings = 0;
    iterations_ = 0;
    steps_used_ = 0;
    bool first = true;
    while (H_prev < Hd) {
      const double H_next = std::min(Hd, H_prev + dH);
      Eigen::VectorXd z;
      if (first) {
        z = detail::stream_linear_guess(N_, H_next, Td);
      } else {
        const double f = (H_next - H_prev) / (H_prev - H_prev2);
        z = z_prev + f * (z_prev - z_prev2);
      }
      int its = 0;
      double res = 0;
      const bool ok = newton(z, H_next, Td, its, res);
      iterations_ += its;
      if (!ok) {
        // a failed step beyond (or within 10 % of) the limit at the last solved length is a
        // wave too high to be steady
        const double Lh = 2 * kPi / z_prev(L.k());
        const double ratio = H_next / stream_max_height(Lh);
        const bool breaking = ratio > 1 || (++halvings > 8 && ratio > 0.9);
        if (breaking)
          throw InputError(who, "H / h", Hd,
                           "<= H_max / h = " + to_text(stream_max_height(Lh)) + " at L / h = " + to_text(Lh) +
                               " (breaking limit, Fenton 1990; no steady wave found above H / h = " +
                               to_text(H_prev) + ")");
        if (halvings > 8)
          throw SolveError(who, "Newton residual at H = " + to_text(H_next * h_) + " m", res,
                           "<= " + to_text(options_.tolerance));
        dH /= 2;
        continue;
      }
      ++steps_used_;
      residual_ = res;
      z_prev2 = z_prev;
      H_prev2 = H_prev;
      z_prev = z;
      H_prev = H_next;
      first = false;
    }
    z_ = z_prev;
    // breaking check at the computed length
    const double Lh = 2 * kPi / z_(L.k());
    if (Hd > stream_max_height(Lh))
      throw InputError(who, "H / h", Hd,
                       "<= " + to_text(stream_max_height(Lh)) + " (breaking limit at L / h = " + to_text(Lh) + ", Fenton 1990)");
    // dimensional results
    const double sgh = std::sqrt(g_ * h_), sgh3 = std::sqrt(g_ * h_ * h_ * h_);
    k_ = z_(L.k()) / h_;
    c_ = z_(L.U()) * sgh;
    Q_ = z_(L.Q()) * sgh3;
    R_ = z_(L.R()) * g_ * h_;
    B_.resize(static_cast<std::size_t>(N_));
    inv_den_.resize(static_cast<std::size_t>(N_));
    for (int j = 1; j <= N_; ++j) {
      B_[static_cast<std::size_t>(j - 1)] = z_(L.B(j)) * sgh3;
      inv_den_[static_cast<std::size_t>(j - 1)] = 1 / (1 + std::exp(-2 * j * z_(L.k())));
    }
    eta_m_.resize(static_cast<std::size_t>(N_ + 1));
    for (int m = 0; m <= N_; ++m) eta_m_[static_cast<std::size_t>(m)] = z_(L.eta(m)) * h_;
    // cosine coefficients (DCT-I): eta(X) = sum_j E_j cos(j k X), eta(X_m) = eta_m
    E_.assign(static_cast<std::size_t>(N_ + 1), 0.0);
    for (int j = 0; j <= N_; ++j) {
      double s = 0;
      for (int m = 0; m <= N_; ++m) {
        const double w = (m == 0 || m == N_) ? 0.5 : 1.0;
        s += w * eta_m_[static_cast<std::size_t>(m)] * std::cos(kPi * j * m / N_);
      }
      s *= 2.0 / N_;
      if (j == 0 || j == N_) s *= 0.5;
      E_[static_cast<std::size_t>(j)] = s;
    }
  }

  double H_ = 0, T_ = 0, beta_ = 0, h_ = 1, g_ = kGravity;
  StreamWaveOptions options_;
  int N_ = 0;
  double k_ = 0, c_ = 0, Q_ = 0, R_ = 0, cb_ = 1, sb_ = 0;
  std::vector<double> B_, eta_m_, E_, inv_den_;
  Eigen::VectorXd z_;
  int iterations_ = 0, steps_used_ = 0;
  double residual_ = 0;
};

}  // namespace cabledyn
