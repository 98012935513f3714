// cabledyn: a bracketed scalar root finder (Brent's method with a bisection guarantee).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "cabledyn/core/errors.hpp"

namespace cabledyn {

/// Result of a bracketed root search.
template <class T>
struct RootResult {
  T x;          ///< the root (the bracket end with the smaller |f|)
  T fx;         ///< f at x
  int iterations;
};

/// Root of a continuous f on [a, b] with f(a) f(b) <= 0, by Brent's method (inverse quadratic
/// interpolation and secant steps, falling back to bisection), to a bracket of width
/// 4 eps |x| + abs_tol. Throws SolveError naming `object` when the bracket does not
/// straddle a sign change.
template <class T, class F>
RootResult<T> brent_root(F&& f, T a, T b, T fa, T fb, const char* object, T abs_tol = T(0),
                         int max_iter = 400) {
  using std::fabs;
  if (fa == 0) return {a, fa, 0};
  if (fb == 0) return {b, fb, 0};
  if ((fa > 0) == (fb > 0)) throw SolveError(object, "bracket sign f(a) f(b)", fa * fb, "<= 0");
  const T eps = std::numeric_limits<T>::epsilon();
  T c = a, fc = fa, d = b - a, e = d;
  int it = 0;
  for (; it < max_iter; ++it) {
    if ((fb > 0) == (fc > 0)) {
      c = a;
      fc = fa;
      d = e = b - a;
    }
    if (fabs(fc) < fabs(fb)) {
      a = b;
      b = c;
      c = a;
      fa = fb;
      fb = fc;
      fc = fa;
    }
    const T tol = T(2) * eps * fabs(b) + T(0.5) * abs_tol;
    const T m = T(0.5) * (c - b);
    if (fabs(m) <= tol || fb == 0) break;
    if (fabs(e) >= tol && fabs(fa) > fabs(fb)) {
      T p, q, r;
      const T s = fb / fa;
      if (a == c) {
        p = T(2) * m * s;
        q = T(1) - s;
      } else {
        q = fa / fc;
        r = fb / fc;
        p = s * (T(2) * m * q * (q - r) - (b - a) * (r - T(1)));
        q = (q - T(1)) * (r - T(1)) * (s - T(1));
      }
      if (p > 0) q = -q;
      else p = -p;
      if (T(2) * p < std::min(T(3) * m * q - fabs(tol * q), fabs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = m;
        e = m;
      }
    } else {
      d = m;
      e = m;
    }
    a = b;
    fa = fb;
    b += fabs(d) > tol ? d : (m > 0 ? tol : -tol);
    fb = f(b);
  }
  return {b, fb, it};
}

}  // namespace cabledyn
