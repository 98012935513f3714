// SystemStepper's predictor (spec "Newton iteration") and its step check (spec "Adaptive step
// subdivision"), on a toy system whose evaluations are recorded: a system that asks for it
// starts every step from the Newmark predictor; one that does not (a finite-EI line's) starts
// from the constant-acceleration predictor when its committed acceleration balances its
// committed force over the translational rows, from Newmark's otherwise and always with the
// configuration blend; a failed constant-acceleration attempt is solved again from Newmark's;
// a system without the hooks keeps the constant-acceleration predictor; a converged step the
// system rejects (step_rejection) is halved, and at the last halving named.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/LU>

#include "cabledyn/dynamics/system_stepper.hpp"

using namespace cabledyn;

namespace {

// Two uncoupled Duffing oscillators, M a + k q + c q^3 + d v = 0: each evaluation's q is
// recorded, and an evaluation at `poison` (to 1e-12) is not finite (an attempt that starts
// there fails at once).
struct PredictorToy {
  using Scalar = double;
  struct State {
    double t = 0;
    VecX<double> q, v, a;
  };
  struct Held {
    void interpolate(const Held&, const Held&, double, double) {}
    void assign(const Held&) {}
    void blend(const Held&, const Held&, double) {}
  };
  struct Jacobian {
    Eigen::MatrixXd A, F;
    Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    void set_zero() { A.setZero(); }
    void factor() {
      F = A;
      lu.compute(F);
    }
    void solve_factored(Eigen::Ref<VecX<double>> r) { r = lu.solve(VecX<double>(r)); }
    void solve(Eigen::Ref<VecX<double>> r) {
      factor();
      solve_factored(r);
    }
    double max_abs_diagonal() const { return A.diagonal().cwiseAbs().maxCoeff(); }
  };

  double m = 2, k = 50, c = 400, d = 0.5;
  std::vector<VecX<double>> seen;  // q of each dynamic_residual call
  VecX<double> poison;             // empty: none

  std::string name() const { return "toy"; }
  Eigen::Index dofs() const { return 2; }
  Jacobian make_jacobian() const {
    Jacobian J;
    J.A.setZero(2, 2);
    return J;
  }
  double force_scale(const State&) const { return k; }
  void dynamic_residual(const State& s, VecX<double>& r, Jacobian* J, double wq, double wv) {
    seen.push_back(s.q);
    r.resize(2);
    const bool bad = poison.size() == 2 && (s.q - poison).cwiseAbs().maxCoeff() < 1e-12;
    for (int i = 0; i < 2; ++i) {
      r(i) = bad ? std::numeric_limits<double>::quiet_NaN() : k * s.q(i) + c * s.q(i) * s.q(i) * s.q(i) + d * s.v(i);
      if (J) J->A(i, i) += wq * (k + 3 * c * s.q(i) * s.q(i)) + wv * d;
    }
  }
  void inertia(const State& s, VecX<double>& Ma, Jacobian* J, double wm, double) const {
    Ma = m * s.a;
    if (J)
      for (int i = 0; i < 2; ++i) J->A(i, i) += wm * m;
  }
  void get_held(Held&) const {}
  void set_held(const Held&) {}
  void check_state(const State&) const {}
  void commit(State&) const {}
};

// The toy with the predictor hooks (a MooringSystem's) and a step check that rejects a step
// moving a coordinate by more than `reach`.
struct HookedToy : PredictorToy {
  bool newmark = true;
  double reach = std::numeric_limits<double>::infinity();
  VecX<double> q0;
  bool wants_newmark_predictor() const { return newmark; }
  bool translational_dof(Eigen::Index) const { return true; }
  void geometry_start(const State& s0) { q0 = s0.q; }
  const char* step_rejection(const State& s1) const {
    return (s1.q - q0).cwiseAbs().maxCoeff() > reach ? "a coordinate moved beyond the toy's reach" : nullptr;
  }
};

template <class Toy>
typename Toy::State toy_start() {
  typename Toy::State s;
  s.q = Eigen::Vector2d(0.3, -0.2);
  s.v = Eigen::Vector2d(0.1, 0.4);
  s.a.setZero(2);
  return s;
}

VecX<double> ca_predictor(const VecX<double>& q, const VecX<double>& v, const VecX<double>& a, double dt) {
  return q + dt * v + 0.5 * dt * dt * a;
}
VecX<double> newmark_predictor(const VecX<double>& q, const VecX<double>& v, const VecX<double>& a, double dt,
                               double beta) {
  return q + dt * v + dt * dt * (0.5 - beta) * a;
}

}  // namespace

TEST_CASE("SystemStepper starts a step from the spec's predictor", "[dynamics][system_stepper]") {
  const double dt = 0.05;
  SystemStepperOptions opt;
  opt.rho_inf = 0.6;
  const auto ga = GeneralizedAlpha<double>::from_rho_inf(opt.rho_inf);
  REQUIRE(ga.beta != Approx(0.0));

  SECTION("a system without the hooks: constant acceleration") {
    PredictorToy toy;
    SystemStepper<PredictorToy> st(toy, opt);
    st.initialize(toy_start<PredictorToy>());
    const auto x = st.state();
    REQUIRE(x.a.cwiseAbs().maxCoeff() > 1);  // a predictor that ignored a would pass
    toy.seen.clear();
    st.step(dt);
    REQUIRE(!toy.seen.empty());
    CHECK((toy.seen.front() - ca_predictor(x.q, x.v, x.a, dt)).cwiseAbs().maxCoeff() < 1e-15);
  }
  SECTION("a system that asks for it (no finite-EI line): Newmark at every step") {
    HookedToy toy;
    SystemStepper<HookedToy> st(toy, opt);
    st.initialize(toy_start<HookedToy>());
    for (int n = 0; n < 5; ++n) {
      const auto x = st.state();
      toy.seen.clear();
      st.step(dt);
      CHECK((toy.seen.front() - newmark_predictor(x.q, x.v, x.a, dt, ga.beta)).cwiseAbs().maxCoeff() < 1e-15);
    }
    CHECK(st.statistics().newmark_resolves == 0);
  }
  SECTION("a finite-EI system: constant acceleration while the committed state balances, else Newmark") {
    HookedToy toy;
    toy.newmark = false;
    SystemStepper<HookedToy> st(toy, opt);
    st.initialize(toy_start<HookedToy>());  // M a0 = -r0: balanced
    auto x = st.state();
    toy.seen.clear();
    st.step(dt);
    CHECK((toy.seen.front() - ca_predictor(x.q, x.v, x.a, dt)).cwiseAbs().maxCoeff() < 1e-15);
    // A committed inertia force that misses the force by more than half of itself.
    auto snap = st.snapshot();
    VecX<double> r0 = snap.r0;
    REQUIRE(r0.cwiseAbs().maxCoeff() > 0);
    snap.Ma0 = -0.4 * r0;  // |Ma + r| = 0.6 |r| > 0.5 |Ma| = 0.2 |r|
    st.restore(snap);
    x = st.state();
    toy.seen.clear();
    st.step(dt);
    CHECK((toy.seen.front() - newmark_predictor(x.q, x.v, x.a, dt, ga.beta)).cwiseAbs().maxCoeff() < 1e-15);
    snap.Ma0 = -0.8 * r0;  // |Ma + r| = 0.2 |r| <= 0.4 |r|: balanced
    st.restore(snap);
    toy.seen.clear();
    st.step(dt);
    CHECK((toy.seen.front() - ca_predictor(x.q, x.v, x.a, dt)).cwiseAbs().maxCoeff() < 1e-15);
  }
  SECTION("a failed constant-acceleration attempt is solved again from the Newmark predictor") {
    HookedToy toy;
    toy.newmark = false;
    SystemStepper<HookedToy> st(toy, opt);
    st.initialize(toy_start<HookedToy>());
    const auto x = st.state();
    toy.poison = ca_predictor(x.q, x.v, x.a, dt);
    toy.seen.clear();
    st.step(dt);
    CHECK(st.statistics().newmark_resolves == 1);
    CHECK(st.statistics().subdivisions == 0);
    REQUIRE(toy.seen.size() >= 2);
    CHECK((toy.seen[0] - toy.poison).cwiseAbs().maxCoeff() < 1e-15);
    CHECK((toy.seen[1] - newmark_predictor(x.q, x.v, x.a, dt, ga.beta)).cwiseAbs().maxCoeff() < 1e-15);
    CHECK(st.state().t == Approx(dt));
  }
  SECTION("the configuration blend: Newmark always") {
    HookedToy toy;
    toy.newmark = false;
    opt.force_blend = false;
    SystemStepper<HookedToy> st(toy, opt);
    st.initialize(toy_start<HookedToy>());
    const auto x = st.state();
    toy.seen.clear();
    st.step(dt);
    // The configuration blend evaluates r at q_alpha = (1 - alpha_f) q1 + alpha_f q0.
    const VecX<double> qa = (1 - ga.alpha_f) * newmark_predictor(x.q, x.v, x.a, dt, ga.beta) + ga.alpha_f * x.q;
    CHECK((toy.seen.front() - qa).cwiseAbs().maxCoeff() < 1e-15);
  }
}

TEST_CASE("SystemStepper halves a converged step the system rejects and names the rejection at the last halving",
          "[dynamics][system_stepper]") {
  const double dt = 0.05;
  HookedToy toy;
  SystemStepper<HookedToy> st(toy, {});
  st.initialize(toy_start<HookedToy>());
  // The step moves q(1) by about dt v = 0.02: a reach of 0.006 takes four quarters.
  toy.reach = 0.006;
  st.step(dt);
  CHECK(st.state().t == Approx(dt));
  CHECK(st.statistics().subdivisions >= 2);
  CHECK(st.statistics().steps >= 4);
  // A reach no halving meets: the step fails by name and leaves the state at its start.
  toy.reach = 1e-9;
  const auto before = st.state();
  CHECK_THROWS_WITH(st.step(dt), Catch::Contains("rejected") && Catch::Contains("beyond the toy's reach"));
  CHECK(st.state().t == before.t);
  CHECK(st.state().q == before.q);
}
