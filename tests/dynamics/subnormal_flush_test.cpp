// The marches' floating-point mode (core/fp_env.hpp): inside a step subnormal numbers are zero
// (a motion settling toward rest otherwise runs on slow subnormal arithmetic); the caller's
// flush bits are restored on return and when the scope is left by an exception (an
// exception flag raised inside survives); the system march flushes a subnormal state to zero
// in its step and, asked not to, keeps it.
#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <stdexcept>

#include "cabledyn/dynamics.hpp"
#include "cabledyn/statics.hpp"
#include "support/system_builders.hpp"

using namespace cabledyn;

namespace {

// 1e-300 * 1e-10 is subnormal (the smallest normal double is 2.2e-308); volatile keeps the
// compiler from folding it at compile time, in the caller's mode.
double subnormal_product() {
  volatile double a = 1e-300, b = 1e-10;
  return a * b;
}

constexpr double kSub = 1e-310;  // a subnormal state value

}  // namespace

TEST_CASE("SubnormalFlush flushes subnormal results inside its scope and restores the mode",
          "[core][fp_env]") {
  if (!SubnormalFlush::supported()) {
    WARN("skipped: no floating-point mode control on this architecture");
    return;
  }
  REQUIRE(std::fpclassify(subnormal_product()) == FP_SUBNORMAL);
  {
    const SubnormalFlush flush;
    CHECK(subnormal_product() == 0.0);
    volatile double s = kSub;
    CHECK(s + 0.0 == 0.0);  // DAZ: a subnormal operand reads as zero
    {
      const SubnormalFlush off(false);  // nested, not asked: keeps the enclosing mode
      CHECK(subnormal_product() == 0.0);
    }
    CHECK(subnormal_product() == 0.0);
  }
  CHECK(std::fpclassify(subnormal_product()) == FP_SUBNORMAL);
  // An exception flag raised inside the scope survives it (only the flush bits are restored).
  std::feclearexcept(FE_ALL_EXCEPT);
  {
    const SubnormalFlush flush;
    volatile double zero = 0.0;
    volatile double nan = zero / zero;
    (void)nan;
  }
  CHECK(std::fetestexcept(FE_INVALID) != 0);
  std::feclearexcept(FE_ALL_EXCEPT);
  try {
    const SubnormalFlush flush;
    throw std::runtime_error("leave the scope");
  } catch (const std::runtime_error&) {
  }
  CHECK(std::fpclassify(subnormal_product()) == FP_SUBNORMAL);
}

TEST_CASE("The system march flushes a subnormal state in its step and restores the caller's mode",
          "[system][dynamics][fp_env]") {
  if (!SubnormalFlush::supported()) {
    WARN("skipped: no floating-point mode control on this architecture");
    return;
  }
  for (bool flush : {true, false}) {
    Environment env;
    env.depth = 100;
    MooringSystem<double> sys(env, "taut system");
    PointModel<double> pa, pb;
    pa.kind = PointKind::fixed;
    pa.r = Vec3<double>(0, 0, -100);
    pb.kind = PointKind::fixed;
    pb.r = Vec3<double>(60, 0, -10);
    const int ia = sys.add_point(pa), ib = sys.add_point(pb);
    test_support::SectionNumbers n;
    n.length = 100;
    n.segs = 8;
    n.EA = 1e8;
    n.rho_A = 50;
    n.Cdn = 1.2;
    sys.add_line(LineModel<double>("taut", {test_support::system_section<double>(n)}, env, SeabedModel{}), ia, ib);
    sys.renumber();
    auto s = sys.initial_state();
    solve_statics(sys, s);
    int seeded = 0;
    for (Eigen::Index i = 0; i < s.q.size(); ++i)
      if (s.q(i) == 0.0) {
        s.q(i) = kSub;
        ++seeded;
      }
    REQUIRE(seeded > 0);
    SystemStepperOptions so;
    so.flush_subnormals = flush;
    SystemStepper<MooringSystem<double>> st(sys, so);
    st.initialize(s);
    st.step(0.05);
    int subnormal = 0;
    for (const VecX<double>* v : {&st.state().q, &st.state().v, &st.state().a})
      for (Eigen::Index i = 0; i < v->size(); ++i) subnormal += std::fpclassify((*v)(i)) == FP_SUBNORMAL;
    INFO("flush " << flush << ": " << subnormal << " subnormal state values of " << seeded << " seeded");
    if (flush)
      CHECK(subnormal == 0);
    else
      CHECK(subnormal > 0);
    CHECK(std::fpclassify(subnormal_product()) == FP_SUBNORMAL);
  }
}
