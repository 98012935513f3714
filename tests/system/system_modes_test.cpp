// The modal analysis of a mooring system (system/system_modes.hpp): a line between two fixed
// points has the single-line modal analysis' frequencies; a clump hung on a light line swings
// as a pendulum (omega^2 = g / L) and bounces on the line's axial stiffness (omega^2 =
// EA / (L m)); the shapes are M-orthonormal; bad requests are named errors; a system of lines
// between held points is solved line by line in band storage: its modes are the lines' own
// merged in order, a cable of more DOFs than the dense limit runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cabledyn/modal.hpp"
#include "cabledyn/statics.hpp"
#include "cabledyn/system.hpp"
#include "support/system_builders.hpp"

using namespace cabledyn;

TEST_CASE("A line between two fixed points: the system's modes are the single-line modal analysis'",
          "[system][modal]") {
  Environment env;
  env.depth = 200;
  const test_support::SectionNumbers n{300, 20, 5e8, 0, 80, 0.1, 0, 1.2, 0.2, 1.0, 0.0};
  const Vec3<double> a(-250, 0, -150), b(0, 0, -20);
  // The single line, its statics and modes.
  LineEnd ea, eb;
  ea.position = a;
  eb.position = b;
  Line line("taut", {{test_support::line_type_of(n), n.length, n.segs}}, ea, eb, env);
  StaticProblem prob;
  const auto st = TensionStatics(line, prob).solve();
  ModalOptions mo;
  mo.n_modes = 6;
  const auto single = modal_analysis<double>(line, prob, st, mo);
  // The same line as a system.
  MooringSystem<double> sys(env, "one line");
  PointModel<double> pa, pb;
  pa.kind = pb.kind = PointKind::fixed;
  pa.r = a;
  pb.r = b;
  const int ia = sys.add_point(pa), ib = sys.add_point(pb);
  sys.add_line(LineModel<double>("taut", {test_support::system_section<double>(n)}, env, SeabedModel{}), ia, ib);
  sys.renumber();
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const auto res = system_modal_analysis(sys, s, 6);
  REQUIRE(res.n_modes() == 6);
  for (Eigen::Index j = 0; j < 6; ++j) {
    INFO("mode " << j + 1 << ": single-line " << single.frequency(j) << " Hz, system " << res.frequency(j) << " Hz");
    CHECK(res.frequency(j) == Approx(single.frequency(j)).epsilon(1e-7));
  }
  CHECK(res.mechanism_dofs == 0);
  CHECK(res.asymmetry < 1e-9);
  // The line's view: its nodes' translations, the largest 1, as the single-line analysis
  // scales them; mode 1's shape agrees up to its sign.
  REQUIRE(res.lines.size() == 1);
  const auto& v = res.lines[0];
  CHECK(v.n_nodes() == 21);
  double big = 0, diff = 0, diff_neg = 0;
  for (Eigen::Index i = 0; i < 21; ++i) {
    big = std::max(big, v.translation(0, i).norm());
    diff = std::max(diff, (v.translation(0, i) - single.translation(0, i)).norm());
    diff_neg = std::max(diff_neg, (v.translation(0, i) + single.translation(0, i)).norm());
  }
  CHECK(big == Approx(1.0).epsilon(1e-12));
  CHECK(std::min(diff, diff_neg) <= 1e-5);
  CHECK((v.positions.col(20) - b).norm() <= 1e-12);
  // Bad requests.
  CHECK_THROWS_AS(system_modal_analysis(sys, s, 0), InputError);
  CHECK_THROWS_AS(system_modal_analysis(sys, s, sys.dofs() + 1), InputError);
}

namespace {

// A 5 t clump hung from a fixed point at (0, 0, -10) on a light line of `segs` elements and
// `length` m (EA 1e7 N, 0.1 kg/m, no added mass or drag), the clump first placed `length` m
// below; *clump: its point index.
MooringSystem<double> hung_clump(const Environment& env, const std::string& name, double length, int segs, int* clump_index) {
  MooringSystem<double> sys(env, name);
  PointModel<double> top, clump;
  top.kind = PointKind::fixed;
  top.r = Vec3<double>(0, 0, -10);
  clump.kind = PointKind::free;
  clump.r = Vec3<double>(0, 0, -10 - length);
  clump.mass = 5000;
  const int it = sys.add_point(top), ic = sys.add_point(clump);
  const test_support::SectionNumbers n{length, segs, 1e7, 0, 0.1, 0.01, 0, 0, 0, 0, 0};
  sys.add_line(LineModel<double>("hanger", {test_support::system_section<double>(n)}, env, SeabedModel{}), it, ic);
  sys.renumber();
  if (clump_index) *clump_index = ic;
  return sys;
}

// The system's mass matrix at state s, dense (inertia's wm = 1 share at rest).
MatX<double> dense_mass(const MooringSystem<double>& sys, const SystemState<double>& s) {
  auto J = sys.make_jacobian();
  VecX<double> Ma;
  J.set_zero();
  auto rest = s;
  rest.a.setZero();
  sys.inertia(rest, Ma, &J, 1.0, 0.0);
  return J.to_dense();
}

}  // namespace

TEST_CASE("A clump hung on a light line: a pendulum at omega^2 = g / L and a bounce at EA / (L m)",
          "[system][modal]") {
  Environment env;
  env.depth = 200;
  // 50 m, 10 elements, 0.1 kg/m (0.1 % of the clump's mass).
  int ic = 0;
  auto sys = hung_clump(env, "pendulum", 50, 10, &ic);
  const Vec3<double> top(0, 0, -10);
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const double L = (sys.point_position(s, ic) - top).norm();
  const auto res = system_modal_analysis(sys, s, 3);
  const double pend = env.g / L, bounce = 1e7 / (50 * 5000.0);
  INFO("omega^2: " << res.omega2.transpose() << "; pendulum " << pend << ", bounce " << bounce);
  // Two pendulum modes (x and y) and the bounce; the line's own mass shifts them by 1e-3.
  CHECK(res.omega2(0) == Approx(pend).epsilon(2e-3));
  CHECK(res.omega2(1) == Approx(pend).epsilon(2e-3));
  CHECK(res.omega2(2) == Approx(bounce).epsilon(2e-3));
  CHECK(res.period(0) == Approx(2 * kPi / std::sqrt(res.omega2(0))).epsilon(1e-12));
  // The clump moves horizontally in the pendulum modes, vertically in the bounce.
  const auto& v = res.lines[0];
  const Eigen::Index last = v.n_nodes() - 1;
  CHECK(std::hypot(v.translation(0, last)(0), v.translation(0, last)(1)) == Approx(1.0).epsilon(1e-6));
  CHECK(std::fabs(v.translation(2, last)(2)) == Approx(1.0).epsilon(1e-6));
  // M-orthonormal shapes: phi_i^T M phi_j = delta_ij.
  const MatX<double> G = res.shapes.transpose() * dense_mass(sys, s) * res.shapes;
  CHECK((G - MatX<double>::Identity(3, 3)).cwiseAbs().maxCoeff() <= 1e-9);
}

namespace {

// A line of section n between two fixed points, as a single line (its statics and modes) and
// added to `sys`.
ModalResult<double> add_held_line(MooringSystem<double>& sys, const test_support::SectionNumbers& n, const Vec3<double>& a,
                                  const Vec3<double>& b, const std::string& name, Eigen::Index modes) {
  LineEnd ea, eb;
  ea.position = a;
  eb.position = b;
  Line line(name, {{test_support::line_type_of(n), n.length, n.segs}}, ea, eb, sys.environment());
  StaticProblem prob;
  const auto st = TensionStatics(line, prob).solve();
  ModalOptions mo;
  mo.n_modes = modes;
  PointModel<double> pa, pb;
  pa.kind = pb.kind = PointKind::fixed;
  pa.r = a;
  pb.r = b;
  sys.add_line(LineModel<double>(name, {test_support::system_section<double>(n)}, sys.environment(), SeabedModel{}),
               sys.add_point(pa), sys.add_point(pb));
  return modal_analysis<double>(line, prob, st, mo);
}

}  // namespace

TEST_CASE("Lines between held points: the system's modes, solved line by line in band storage, are the lines' own "
          "merged in order; a cable beyond the dense limit runs",
          "[system][modal]") {
  Environment env;
  env.depth = 300;
  MooringSystem<double> sys(env, "two held lines");
  // A taut polyester line and a heavier chain catenary: their frequencies interleave.
  const auto one = add_held_line(sys, {300, 20, 5e8, 0, 80, 0.1, 0, 1.2, 0.2, 1.0, 0.0}, Vec3<double>(-250, 0, -150),
                                 Vec3<double>(0, 0, -20), "taut", 8);
  const auto two = add_held_line(sys, {700, 24, 7e8, 0, 110, 0.08, 0, 1.2, 0.2, 1.0, 0.0}, Vec3<double>(0, 600, -250),
                                 Vec3<double>(0, 10, -15), "catenary", 8);
  sys.renumber();
  auto s = sys.initial_state();
  solve_statics(sys, s);
  const auto res = system_modal_analysis(sys, s, 8);
  CHECK(res.banded);
  // The lowest 8 of the 16 single-line frequencies, ascending.
  std::vector<double> merged;
  for (Eigen::Index j = 0; j < 8; ++j) merged.push_back(one.frequency(j)), merged.push_back(two.frequency(j));
  std::sort(merged.begin(), merged.end());
  bool interleaved_one = false, interleaved_two = false;
  for (Eigen::Index j = 0; j < 8; ++j) {
    INFO("mode " << j + 1 << ": merged single-line " << merged[static_cast<std::size_t>(j)] << " Hz, system " << res.frequency(j));
    CHECK(res.frequency(j) == Approx(merged[static_cast<std::size_t>(j)]).epsilon(1e-7));
    // Each mode moves one line only.
    const double m1 = res.lines[0].translations.col(j).cwiseAbs().maxCoeff(), m2 = res.lines[1].translations.col(j).cwiseAbs().maxCoeff();
    CHECK(std::min(m1, m2) <= 1e-9);
    interleaved_one = interleaved_one || m1 > 0.5;
    interleaved_two = interleaved_two || m2 > 0.5;
  }
  INFO("taut " << one.frequency.transpose() << "; catenary " << two.frequency.transpose());
  CHECK(interleaved_one);  // both lines among the 8 lowest: the merge is tested, not one line's order
  CHECK(interleaved_two);
  // M-orthonormal over the whole system.
  const MatX<double> G = res.shapes.transpose() * dense_mass(sys, s) * res.shapes;
  CHECK((G - MatX<double>::Identity(8, 8)).cwiseAbs().maxCoeff() <= 1e-9);
  CHECK_THROWS_AS(system_modal_analysis(sys, s, 0), InputError);

  // A cable of 1500 elements (4497 free DOFs, over the dense limit of 4000): solved banded, its
  // fundamental the single-line analysis'.
  MooringSystem<double> big(env, "long cable");
  const auto single = add_held_line(big, {1500, 1500, 5e8, 0, 80, 0.1, 0, 1.2, 0.2, 1.0, 0.0}, Vec3<double>(-1300, 0, -250),
                                    Vec3<double>(0, 0, -20), "long", 3);
  big.renumber();
  REQUIRE(big.dofs() > SystemModalResult::kMaxDofs);
  auto sb = big.initial_state();
  solve_statics(big, sb);
  const auto rb = system_modal_analysis(big, sb, 3);
  CHECK(rb.banded);
  for (Eigen::Index j = 0; j < 3; ++j) CHECK(rb.frequency(j) == Approx(single.frequency(j)).epsilon(1e-7));
}

TEST_CASE("A system with object DOFs beyond the dense limit is refused by name", "[system][modal]") {
  Environment env;
  env.depth = 300;
  auto sys = hung_clump(env, "long clump line", 200, 1400, nullptr);
  const auto s = sys.initial_state();
  REQUIRE(sys.dofs() > SystemModalResult::kMaxDofs);
  try {
    system_modal_analysis(sys, s, 3);
    FAIL("no error");
  } catch (const NotImplementedError& e) {
    CHECK_THAT(e.what(), Catch::Contains("free points, bodies or rods"));
    CHECK_THAT(e.what(), Catch::Contains("4000"));
  }
}
