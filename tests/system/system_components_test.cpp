// A system stepped component by component (system/component_steppers.hpp): each connected
// component takes, bit for bit, the steps its own system takes through SystemStepper (the
// OC4 chain snapping beside two calm chains), so one line's iterations, halvings and
// sub-steps are no longer every line's; a system with a bridle on a clump weight beside a
// lone line follows the monolithic stepper; a failed step in one component leaves every
// component at the step start; a snapshot restarts bit for bit; a step allocates nothing;
// a component's Jacobian drops the entries of the others.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "cabledyn/dynamics.hpp"
#include "cabledyn/statics.hpp"
#include "cabledyn/system/component_steppers.hpp"
#include "support/alloc_counter.hpp"
#include "support/eigen_malloc_check.hpp"  // first: Eigen malloc checks in every build
#include "support/motions.hpp"
#include "support/system_builders.hpp"

using namespace cabledyn;

namespace {

// OC4-DeepCwind line 2, 20 elements, on its 200 m seabed.
const test_support::SectionNumbers kSplitChain{835.35, 20, 7.536e8, 0, 113.35, 0.0766, -1.0, 2.0, 0.4, 0.8, 0.25};
constexpr double kSplitDt = 0.1;

// Chain k's fairlead and anchor, at heading 120 k degrees.
Vec3<double> split_fairlead(int k) {
  const double h = 2 * kPi * k / 3;
  return {40.868 * std::cos(h), 40.868 * std::sin(h), -14};
}
Vec3<double> split_anchor(int k) {
  const double h = 2 * kPi * k / 3;
  return {837.6 * std::cos(h), 837.6 * std::sin(h), -200};
}

// The chains `which` (each from its coupled fairlead to its fixed anchor) in one system.
MooringSystem<double> split_chains(const std::vector<int>& which) {
  const test_support::FlatBed flat(200);
  MooringSystem<double> sys(flat.env, "chains");
  sys.set_seabed(flat.bed);
  for (int k : which) {
    const int f = test_support::add_point(sys, PointKind::coupled, split_fairlead(k));
    const int a = test_support::add_point(sys, PointKind::fixed, split_anchor(k));
    sys.add_line(
        LineModel<double>("chain " + std::to_string(k + 1), {test_support::system_section<double>(kSplitChain)},
                          sys.environment(), flat.bed),
        f, a);
  }
  sys.renumber();
  return sys;
}

// The fairleads' surge at t: 6 m at a 10 s period along x (chain 1 lies along x and snaps),
// brought in over the first period; point 2 k is chain k's fairlead.
void split_surge(MooringSystem<double>& sys, int point, int k, double t) {
  const EndMotion m = test_support::ramped_surge(t, split_fairlead(k), 6, 10, 10);
  sys.set_coupled(point, m.x, m.v, m.a);
}

}  // namespace

TEST_CASE("Each component of a system stepped apart takes its own system's steps bit for bit",
          "[system][dynamics][components]") {
  auto sys = split_chains({0, 1, 2});
  REQUIRE(sys.n_components() == 3);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  ComponentSteppers<double> split(sys);
  REQUIRE(split.size() == 3);
  split.initialize(s);
  // Each chain alone, started from its rows of the same static state.
  std::vector<MooringSystem<double>> alone;
  for (int k = 0; k < 3; ++k) alone.push_back(split_chains({k}));
  std::vector<std::unique_ptr<SystemStepper<MooringSystem<double>>>> own;
  for (int k = 0; k < 3; ++k) {
    own.push_back(std::make_unique<SystemStepper<MooringSystem<double>>>(alone[static_cast<std::size_t>(k)]));
    own.back()->initialize(split.view(static_cast<std::size_t>(k)).restrict(s));
  }
  // The whole system in one stepper.
  auto mono_sys = split_chains({0, 1, 2});
  SystemStepper<MooringSystem<double>> mono(mono_sys);
  mono.initialize(s);
  double worst = 0, worst_mono = 0, Tmax = 0, sq = 0;
  for (int step = 1; step <= 250; ++step) {
    const double t = step * kSplitDt;
    for (int k = 0; k < 3; ++k) {
      split_surge(sys, 2 * k, k, t);
      split_surge(mono_sys, 2 * k, k, t);
      split_surge(alone[static_cast<std::size_t>(k)], 0, k, t);
    }
    split.step(kSplitDt);
    mono.step(kSplitDt);
    for (int k = 0; k < 3; ++k) {
      own[static_cast<std::size_t>(k)]->step(kSplitDt);
      const auto& v = split.view(static_cast<std::size_t>(k));
      const auto mine = v.restrict(split.state());
      worst = std::max(worst, (mine.q - own[static_cast<std::size_t>(k)]->state().q).cwiseAbs().maxCoeff());
      const double T = sys.line_end_force_dynamic(split.state(), k, 0).norm();
      const double dT = T - mono_sys.line_end_force_dynamic(mono.state(), k, 0).norm();
      worst_mono = std::max(worst_mono, std::fabs(dT));
      sq += dT * dT / 750;
      Tmax = std::max(Tmax, T);
    }
  }
  const auto& ss = split.statistics();
  const auto& ms = mono.statistics();
  long alone_iterations = 0;
  for (const auto& o : own) alone_iterations += o->statistics().newton_iterations;
  INFO("split: " << ss.steps << " steps, " << ss.newton_iterations << " iterations, " << ss.subdivisions
                 << " halvings, " << ss.substepped << " sub-stepped; monolithic: " << ms.steps << " steps, "
                 << ms.newton_iterations << " iterations of 3 lines, " << ms.subdivisions << " halvings, "
                 << ms.substepped << " sub-stepped; fairlead tension split vs monolithic within " << worst_mono
                 << " N (rms " << std::sqrt(sq) << " N) of " << Tmax << " N");
  // Bit for bit each chain's own march, and the same statistics summed.
  CHECK(worst == 0);
  CHECK(ss.newton_iterations == alone_iterations);
  CHECK(split.state().t == Approx(25.0));
  // The snapping chain's sub-steps and iterations are its own: the monolithic stepper iterates
  // every line as often as the worst one.
  CHECK(ss.substepped > 0);
  CHECK(ss.newton_iterations < 3 * ms.newton_iterations);
  CHECK(own[1]->statistics().substepped < own[0]->statistics().substepped);
  // The same equations, the same Newton test: the marches part at the snaps alone (where a
  // round-off's difference moves the instant of a snap: observed 5.7 % .. 9.7 % of the peak
  // there, 0.8 % .. 0.9 % rms over changes of the Newton test), within a fifth of the peak and
  // 2.5 % rms.
  CHECK(Tmax > 1e6);
  CHECK(worst_mono < 0.2 * Tmax);
  CHECK(std::sqrt(sq) < 2.5e-2 * Tmax);
}

TEST_CASE(
    "A bridle on a clump weight beside a lone line: stepped apart as the monolithic stepper; a snapshot "
    "restarts bit for bit; a step allocates nothing; a failed step leaves every component at its start",
    "[system][dynamics][components]") {
  auto build = [] {
    const test_support::FlatBed flat(100);
    const Environment& env = flat.env;
    const SeabedModel& bed = flat.bed;
    MooringSystem<double> sys(env, "bridle and line");
    sys.set_seabed(bed);
    const test_support::SectionNumbers leg{120, 8, 4e8, 0, 120, 0.09, -0.5, 1.2, 0.3, 1.0, 0.2};
    const test_support::SectionNumbers rope{60, 6, 2e7, 0, 30, 0.15, 3e5, 1.0, 0.2, 0.9, 0.1};
    const int a1 = test_support::add_point(sys, PointKind::fixed, {-100, 20, -100});
    const int a2 = test_support::add_point(sys, PointKind::fixed, {-100, -20, -100});
    const int clump = test_support::add_point(sys, PointKind::free, {-10, 0, -60}, 3000, 0.4, 1.5, 0.8);
    const int f1 = test_support::add_point(sys, PointKind::coupled, {40, 0, -10});
    const int a3 = test_support::add_point(sys, PointKind::fixed, {0, 150, -100});
    const int f2 = test_support::add_point(sys, PointKind::coupled, {0, 30, -10});
    auto line = [&](const char* n, const test_support::SectionNumbers& x, int p, int q) {
      sys.add_line(LineModel<double>(n, {test_support::system_section<double>(x)}, env, bed), p, q);
    };
    line("leg 1", leg, a1, clump);
    line("leg 2", leg, a2, clump);
    line("rope", rope, clump, f1);
    const test_support::SectionNumbers lone{140, 10, 4e8, 0, 120, 0.09, -0.5, 1.2, 0.3, 1.0, 0.2};
    line("lone", lone, a3, f2);
    sys.renumber();
    return sys;
  };
  auto move = [](MooringSystem<double>& sys, double t) {
    const double w = 0.8;
    sys.set_coupled(3, Vec3<double>(40 + 3 * std::sin(w * t), 0, -10), Vec3<double>(3 * w * std::cos(w * t), 0, 0),
                    Vec3<double>(-3 * w * w * std::sin(w * t), 0, 0));
    sys.set_coupled(5, Vec3<double>(0, 30 + 2 * std::sin(w * t), -10), Vec3<double>(0, 2 * w * std::cos(w * t), 0),
                    Vec3<double>(0, -2 * w * w * std::sin(w * t), 0));
  };
  auto sys = build(), mono_sys = build();
  REQUIRE(sys.n_components() == 2);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  SystemStepperOptions o;
  o.tol = 1e-10;
  ComponentSteppers<double> split(sys, o);
  REQUIRE(split.size() == 2);
  CHECK(split.view(0).name() == "Lines 1, 2, 3 with their points and bodies");
  CHECK(split.view(1).name() == "Line 4 (lone)");
  split.initialize(s);
  SystemStepper<MooringSystem<double>> mono(mono_sys, o);
  mono.initialize(s);
  const double dt = 0.05;
  double worst = 0, scale = 0;
  for (int k = 1; k <= 60; ++k) {
    move(sys, k * dt);
    move(mono_sys, k * dt);
    split.step(dt);
    mono.step(dt);
    worst = std::max(worst, (split.state().q - mono.state().q).cwiseAbs().maxCoeff());
    for (int l = 0; l < 4; ++l) scale = std::max(scale, sys.line_end_force_dynamic(split.state(), l, 1).norm());
  }
  INFO("largest position difference split vs monolithic " << worst << " m");
  CHECK(worst < 1e-6);
  CHECK(split.state().q.segment<3>(sys.point_dof(2)).isApprox(mono.state().q.segment<3>(mono_sys.point_dof(2)), 1e-9));

  // A snapshot: the run that goes on and the restored one take the same steps, bit for bit.
  const auto snap = split.snapshot();
  const auto at = split.state();
  std::vector<VecX<double>> ahead;
  for (int k = 61; k <= 70; ++k) {
    move(sys, k * dt);
    split.step(dt);
    ahead.push_back(split.state().q);
  }
  split.restore(snap);
  CHECK(split.state().q == at.q);
  for (int k = 61; k <= 70; ++k) {
    move(sys, k * dt);
    split.step(dt);
    CHECK(split.state().q == ahead[static_cast<std::size_t>(k - 61)]);
  }

  // No allocation in a step.
  {
    test_support::AllocationCounter count;
    {
      test_support::EigenMallocGuard guard;
      for (int k = 71; k <= 90; ++k) {
        move(sys, k * dt);
        split.step(dt);
      }
    }
    CHECK(count.allocations() == 0);
  }

  // The lone line's fairlead jumps 60 m: its component fails after the bridle's stepped; both
  // are back at the step start, the system holding the kinematics of t.
  {
    SystemStepperOptions f = o;
    f.max_iterations = 2;
    f.max_subdivisions = 1;
    auto fsys = build();
    ComponentSteppers<double> fail(fsys, f);
    fail.initialize(s);
    HeldKinematics<double> h0;
    fsys.get_held(h0);
    move(fsys, dt);
    fsys.set_coupled(5, Vec3<double>(0, 90, -10), Vec3<double>(0, 0, 0));
    CHECK_THROWS_AS(fail.step(dt), SolveError);
    CHECK(fail.state().q == fail.state().q);  // no NaN
    CHECK(fail.state().q == s.q);
    CHECK(fail.state().t == 0);
    CHECK(fail.stepper(0).state().q == fail.view(0).restrict(s).q);
    HeldKinematics<double> h;
    fsys.get_held(h);
    CHECK(h.r[5] == h0.r[5]);
    CHECK(h.r[3] == h0.r[3]);
  }
}

TEST_CASE("A component's Jacobian is the system's block of its DOFs", "[system][components]") {
  auto sys = split_chains({0, 1});
  auto s = sys.initial_state();
  solve_statics(sys, s);
  auto J = sys.make_jacobian();
  VecX<double> r;
  sys.dynamic_residual(s, r, &J, 1.0, 0.3);
  const MatX<double> whole = J.to_dense();
  for (int c = 0; c < 2; ++c) {
    auto Jc = sys.make_jacobian(c);
    sys.set_active_component(c);
    VecX<double> rc = VecX<double>::Constant(sys.dofs(), 7.0);
    sys.dynamic_residual(s, rc, &Jc, 1.0, 0.3);
    sys.set_active_component(-1);
    const auto& d = sys.component_dofs(c);
    MatX<double> block(d.size(), d.size());
    VecX<double> rows(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) {
      rows(static_cast<Eigen::Index>(i)) = r(d[i]);
      for (std::size_t j = 0; j < d.size(); ++j)
        block(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = whole(d[i], d[j]);
    }
    CHECK(Jc.to_dense() == block);
    VecX<double> mine(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) mine(static_cast<Eigen::Index>(i)) = rc(d[i]);
    CHECK(mine == rows);
    // The other component's rows are left as they were.
    const auto& other = sys.component_dofs(1 - c);
    CHECK(rc(other.front()) == 7.0);
  }
  CHECK_THROWS_AS(sys.set_active_component(2), InputError);
  CHECK_THROWS_AS(sys.make_jacobian(5), InputError);
}
