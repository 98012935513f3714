// Scalar traits, errors, DOF layouts and environment constants.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "cabledyn/autodiff/dual.hpp"
#include "cabledyn/core.hpp"

using namespace cabledyn;

static_assert(!is_dual_v<double> && !is_dual_v<long double>);
static_assert(is_dual_v<Dual<double>> && is_dual_v<Dual2<double, 4>>);
static_assert(dual_depth_v<double> == 0 && dual_depth_v<Dual<long double, 3>> == 1 &&
              dual_depth_v<Dual2<double, 12>> == 2);
static_assert(std::is_same_v<value_type_t<Dual2<long double, 2>>, long double>);
static_assert(std::is_same_v<value_type_t<float>, float>);
static_assert(Scalar<double> && Scalar<Dual2<double, 3>> && !Scalar<int>);

TEST_CASE("value_of strips every dual layer", "[core][scalar]") {
  using D2 = Dual2<double, 2>;
  D2 x(Dual<double, 2>(1.25, 2, 0));
  CHECK(value_of(x) == 1.25);
  CHECK(value_of(2.5L) == 2.5L);
  CHECK(epsilon<Dual<long double>>() == std::numeric_limits<long double>::epsilon());
  CHECK(epsilon<double>() == std::numeric_limits<double>::epsilon());
  CHECK(tolerance<double>(2) == 2 * std::numeric_limits<double>::epsilon());
  CHECK(is_finite(Dual<double>(1.0)));
  CHECK_FALSE(is_finite(Dual<double>(std::nan(""))));
}

TEST_CASE("Named errors carry object, value and limit", "[core][errors]") {
  const InputError e("line 3", "EA", -2.5, "> 0");
  CHECK(std::string(e.what()) == "InputError: line 3: EA = -2.5 (limit: > 0)");
  CHECK(e.kind() == "InputError");
  CHECK(e.object() == "line 3");
  CHECK(e.value() == "-2.5");
  const SolveError s("static solver", "residual", 1e-3, "<= 1e-08");
  CHECK(std::string(s.what()) == "SolveError: static solver: residual = 0.001 (limit: <= 1e-08)");
  const Error& base = s;
  CHECK(base.limit() == "<= 1e-08");
  CHECK(to_text(0.1) == "0.10000000000000001");
  CHECK(to_text(std::string("abc")) == "abc");
  CHECK(to_text(true) == "true");
}

TEST_CASE("DOF layouts give offsets and the band width of a line", "[core][dof_layout]") {
  STATIC_REQUIRE(LayoutR::kNodeDofs == 3);
  STATIC_REQUIRE(LayoutRM::kNodeDofs == 6);
  STATIC_REQUIRE(LayoutRMPhi::kNodeDofs == 7);
  STATIC_REQUIRE(LayoutRM::kM == 3);
  STATIC_REQUIRE(LayoutRMPhi::kPhi == 6);
  STATIC_REQUIRE(LayoutR::half_bandwidth() == 5);   // 100-segment EI = 0 line: kl = ku = 5
  STATIC_REQUIRE(LayoutRM::half_bandwidth() == 11); // Hermite cable: kl = ku = 11
  STATIC_REQUIRE(LayoutRMPhi::half_bandwidth() == 13);
  STATIC_REQUIRE(LayoutRM::line_dofs(101) == 606);

  // The band width is the largest |i - j| coupled by any element of a line.
  auto measured = [](auto layout, int nodes) {
    using L = decltype(layout);
    int width = 0;
    for (int e = 0; e + 1 < nodes; ++e)
      for (int i = 0; i < L::kElementDofs; ++i)
        for (int j = 0; j < L::kElementDofs; ++j) {
          const auto gi = static_cast<int>(L::element_index(e, i));
          const auto gj = static_cast<int>(L::element_index(e, j));
          width = std::max(width, std::abs(gi - gj));
        }
    return width;
  };
  CHECK(measured(LayoutR{}, 7) == LayoutR::half_bandwidth());
  CHECK(measured(LayoutRM{}, 7) == LayoutRM::half_bandwidth());
  CHECK(measured(LayoutRMPhi{}, 7) == LayoutRMPhi::half_bandwidth());
  // Element e's second node is node e + 1.
  CHECK(LayoutRM::element_index(4, 6) == LayoutRM::index(5, 0));
}

TEST_CASE("Environment defaults and validation", "[core][environment]") {
  Environment env;
  CHECK(env.g == 9.80665);
  CHECK(env.rho_w == 1025.0);
  CHECK_FALSE(env.seabed_z().has_value());
  env.depth = 320.0;
  CHECK(*env.seabed_z() == -320.0);
  CHECK_NOTHROW(env.validate());
  env.depth = -1.0;
  CHECK_THROWS_WITH(env.validate(), "InputError: Environment: WtrDpth = -1 (limit: > 0)");
  env.depth.reset();
  env.g = 0;  // weightless lines: MoorDyn decks use g = 0
  CHECK_NOTHROW(env.validate());
  env.g = -1;
  CHECK_THROWS_WITH(env.validate(), "InputError: Environment: g = -1 (limit: >= 0)");
  CHECK(std::fabs(kPiLD - 4 * std::atan(1.0L)) < 4 * std::numeric_limits<long double>::epsilon());
}
