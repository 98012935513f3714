// cabledyn: observed temporal order of a node by the Method of Manufactured Solutions
// (spec spring-damper-node.md, "Verification Evidence", MADD-VER-009; Roache 2002).
// A manufactured trajectory x*(t) is made exact by the boundary input that drives it (for
// the spring-damper node the anchor, which enters the force linearly); a ladder of step
// counts at a fixed final time gives errors e_N, and the observed order over the finest
// pair is log(e_coarse / e_fine) / log(N_fine / N_coarse), for every state field.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/nodes/spring_damper.hpp"

namespace cabledyn {

/// Options of an order study.
struct OrderStudyOptions {
  std::vector<int> ladder{100, 200, 400, 800};  ///< step counts, ascending
  double final_time = 1.0;                       ///< [s]
  double min_order = 0.9;                        ///< accepted observed order range
  double max_order = 1.2;
};

/// Result of an order study.
struct OrderStudy {
  std::string node;                         ///< the node studied, as named in messages
  double declared = 0;                      ///< declared temporal order
  std::vector<int> steps;                   ///< the ladder
  std::vector<std::vector<double>> errors;  ///< errors[field][level] at the final time
  std::vector<double> field_orders;         ///< observed order of each field, finest pair
  double observed = 0;                      ///< the field order furthest from `declared`
  bool passed = false;                      ///< every field order in [min, max], finite
  std::string message;                      ///< names the node; says why it failed
};

/// Runs the ladder. `step(state, inputs, t, dt)` advances the node by one step from time t;
/// `exact(t)` is the manufactured state; `inputs(t)` the boundary input that makes it exact.
/// The study starts from exact(0) and compares with exact(final_time), field by field.
template <class State, class Step, class Exact, class Inputs>
OrderStudy temporal_order_study(const std::string& node, double declared, const Step& step,
                                const Exact& exact, const Inputs& inputs,
                                const OrderStudyOptions& opt = {}) {
  using T = typename State::Scalar;
  using std::abs;
  using std::log;
  if (opt.ladder.size() < 2)
    throw InputError("order study of " + node, "ladder levels", opt.ladder.size(), ">= 2");
  for (std::size_t l = 0; l < opt.ladder.size(); ++l)
    if (opt.ladder[l] < 1 || (l > 0 && opt.ladder[l] <= opt.ladder[l - 1]))
      throw InputError("order study of " + node, "ladder step count", opt.ladder[l],
                       "ascending, >= 1");
  if (!(opt.final_time > 0))
    throw InputError("order study of " + node, "final_time", opt.final_time, "> 0");

  OrderStudy out;
  out.node = node;
  out.declared = declared;
  out.steps = opt.ladder;
  const State x_end = exact(T(opt.final_time));
  const auto nf = static_cast<std::size_t>(x_end.size());
  out.errors.assign(nf, std::vector<double>(opt.ladder.size(), 0.0));
  for (std::size_t l = 0; l < opt.ladder.size(); ++l) {
    const int N = opt.ladder[l];
    const T dt = T(opt.final_time) / T(N);
    State x = exact(T(0));
    for (int n = 0; n < N; ++n) {
      const T t = T(n) * dt;
      x = step(x, inputs(t), t, dt);
    }
    for (std::size_t f = 0; f < nf; ++f)
      out.errors[f][l] =
          static_cast<double>(abs(value_of(x(static_cast<Eigen::Index>(f))) -
                                  value_of(x_end(static_cast<Eigen::Index>(f)))));
  }
  const std::size_t L = opt.ladder.size();
  const double ratio = static_cast<double>(opt.ladder[L - 1]) / opt.ladder[L - 2];
  out.passed = true;
  double worst_gap = -1;
  for (std::size_t f = 0; f < nf; ++f) {
    const double p = log(out.errors[f][L - 2] / out.errors[f][L - 1]) / log(ratio);
    out.field_orders.push_back(p);
    const bool ok = std::isfinite(p) && p >= opt.min_order && p <= opt.max_order;
    out.passed = out.passed && ok;
    const double gap = std::isfinite(p) ? std::fabs(p - declared) : HUGE_VAL;
    if (gap > worst_gap) {
      worst_gap = gap;
      out.observed = p;
    }
  }
  char buf[256];
  std::string orders;
  for (std::size_t f = 0; f < nf; ++f) {
    std::snprintf(buf, sizeof buf, "%sfield %zu: %.4f", f ? ", " : "", f, out.field_orders[f]);
    orders += buf;
  }
  std::snprintf(buf, sizeof buf, "%s: observed temporal order %.4f over %d/%d steps (%s); declared %.3g, accepted [%.3g, %.3g]: ",
                node.c_str(), out.observed, opt.ladder[L - 2], opt.ladder[L - 1], orders.c_str(),
                declared, opt.min_order, opt.max_order);
  out.message = std::string(buf) + (out.passed ? "passed" : "FAILED");
  return out;
}

/// The anchor a(t) [m] that makes x*(t) exact for the governing equation of the spring-damper
/// node: a = x* - l0 + (m x*'' + c x*') / k (spec "Verification Evidence": the anchor enters
/// the force linearly). Throws InputError for k = 0, where no anchor drives the mass.
template <class T>
T spring_damper_mms_anchor(const SpringDamperParams& p, const T& x, const T& xdot,
                           const T& xddot) {
  if (!(p.stiffness > 0))
    throw InputError("spring-damper MMS anchor", "stiffness", p.stiffness, "> 0");
  return T(x - T(p.rest_length) + (T(p.mass) * xddot + T(p.damping) * xdot) / T(p.stiffness));
}

/// The order study of a spring-damper node's own `step` under the manufactured position
/// x*(t) given with its first two derivatives: `manufactured(t)` returns {x, x', x''}.
template <class T, class Manufactured>
OrderStudy spring_damper_order_study(const SpringDamperNode<T>& node,
                                     const Manufactured& manufactured,
                                     const OrderStudyOptions& opt = {}) {
  using Node = SpringDamperNode<T>;
  const SpringDamperParams p = node.params();
  auto exact = [&](const T& t) {
    const auto m = manufactured(t);
    return typename Node::State(T(m[0]), T(m[1]));
  };
  auto inputs = [&](const T& t) {
    const auto m = manufactured(t);
    return Node::inputs(spring_damper_mms_anchor<T>(p, T(m[0]), T(m[1]), T(m[2])));
  };
  auto step = [&](const typename Node::State& s, const typename Node::Inputs& u, const T&,
                  const T& dt) { return node.step(s, u, dt); };
  return temporal_order_study<typename Node::State>(node.object(), Node::kDeclaredTemporalOrder,
                                                    step, exact, inputs, opt);
}

}  // namespace cabledyn
