// EI = 0 rotation- and snap-resolved sub-steps (spec "Rotation- and snap-resolved
// sub-steps", ei0_substeps auto): a chain swung hard at a large step moves toward the
// fine-step reference when its steps are re-solved in sub-steps; a slow march is left as
// given bit for bit; the decision survives a restart; bad options are named.
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/dynamics.hpp"
#include "cabledyn/statics.hpp"

using namespace cabledyn;

namespace {

// A 20-element chain of 110 m between an anchor at 45 m depth and a fairlead 95 m away,
// whose fairlead sways across (y) by A at period T.
struct SwayCase {
  Environment env;
  Line line;
  VecX<double> q0;
  static LineType chain() {
    LineType t;
    t.name = "chain";
    t.d = 0.08;
    t.rho_A = 60;
    t.EA = 5e8;
    t.Cdn = 1.2;
    t.Cdt = 0.2;
    t.Can = 1.0;
    return t;
  }
  static Environment water() {
    Environment e;
    e.depth = 50;
    return e;
  }
  SwayCase()
      : env(water()),
        line("chain", {{chain(), 110.0, 20}}, LineEnd{{0, 0, -45}, EndRotation::free, 0, {}},
             LineEnd{{95, 0, -5}, EndRotation::free, 0, {}}, env) {
    TensionStatics s(line);
    q0 = s.solve().q;
  }
  EndMotions ends(double t, double A, double T) const {
    EndMotions m;
    m[0].x = line.end(0).position;
    m[1].x = line.end(1).position;
    // A sin(w t) ramped in by r = (1 - cos(pi t/T))/2 over one period, with the velocity and
    // acceleration of that motion (the sub-steps follow the prescribed v and a).
    const double w = 2 * kPi / T, on = t < T;
    const double r = on ? 0.5 * (1 - std::cos(kPi * t / T)) : 1.0;
    const double r1 = on ? 0.5 * kPi / T * std::sin(kPi * t / T) : 0.0;
    const double r2 = on ? 0.5 * (kPi / T) * (kPi / T) * std::cos(kPi * t / T) : 0.0;
    const double sn = std::sin(w * t), cs = std::cos(w * t);
    m[1].x(1) += A * r * sn;
    m[1].v(1) = A * (r1 * sn + r * w * cs);
    m[1].a(1) = A * (r2 * sn + 2 * r1 * w * cs - r * w * w * sn);
    return m;
  }
  // Fairlead tension sampled every `every` steps of dt up to t_end.
  std::vector<double> run(LineDynamics& d, double dt, double t_end, int every, double A, double T) const {
    d.initialize(0, q0, ends(0, A, T));
    std::vector<double> out;
    const long n = std::lround(t_end / dt);
    for (long k = 1; k <= n; ++k) {
      d.step(dt, ends(k * dt, A, T));
      if (k % every == 0) out.push_back(d.end_force(1).norm());
    }
    return out;
  }
};

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

}  // namespace

TEST_CASE("EI = 0 sub-steps: a hard-swung chain at a large step moves toward the fine-step reference",
          "[dynamics][ei0_substeps]") {
  const SwayCase c;
  // Up to 7.2 s: the first snap (the line goes slack near 3.8 s and 6.2 s and snaps taut);
  // later slack phases make the response so sensitive that a dt/8 march differs from the
  // reference by about 8 % of the peak.
  const double A = 12, T = 5, dt = 0.2, t_end = 7.2;
  DynamicOptions off;
  off.ei0_substeps = false;
  DynamicOptions on;  // auto is the default
  REQUIRE(on.ei0_substeps);
  // Reference: dt / 32 taken as given, sampled on the coarse grid.
  LineDynamics ref(c.line, off);
  const auto Tref = c.run(ref, dt / 32, t_end, 32, A, T);
  LineDynamics plain(c.line, off), sub(c.line, on);
  const auto Tplain = c.run(plain, dt, t_end, 1, A, T);
  const auto Tsub = c.run(sub, dt, t_end, 1, A, T);
  REQUIRE(Tref.size() == Tplain.size());
  const double e_plain = max_abs_diff(Tplain, Tref), e_sub = max_abs_diff(Tsub, Tref);
  const auto& st = sub.statistics();
  INFO("plain error " << e_plain << " N, sub-stepped error " << e_sub << " N, peak " << *std::max_element(Tref.begin(), Tref.end())
                      << " N; plain largest turn " << plain.statistics().largest_turn_deg << " deg, sub-stepped "
                      << st.largest_turn_deg << " deg; " << st.ei0_substepped << " of " << st.steps
                      << " steps sub-stepped, largest count " << st.ei0_largest_count << ", capped " << st.ei0_capped
                      << ", kept plain " << st.ei0_kept_plain);
  CHECK(plain.statistics().largest_turn_deg > 2.0);   // the plain march turns segments by degrees
  CHECK(plain.statistics().ei0_substepped == 0);
  CHECK(st.ei0_substepped > 0);
  CHECK(st.ei0_largest_count >= 4);
  CHECK(st.largest_turn_deg < plain.statistics().largest_turn_deg);
  CHECK(e_sub < 0.5 * e_plain);
  // A restart from a snapshot repeats the sub-stepped march bit for bit.
  LineDynamics a(c.line, on);
  a.initialize(0, c.q0, c.ends(0, A, T));
  for (int k = 1; k <= 20; ++k) a.step(dt, c.ends(k * dt, A, T));
  const LineDynamicState snap = a.state();
  for (int k = 21; k <= 40; ++k) a.step(dt, c.ends(k * dt, A, T));
  LineDynamics b(c.line, on);
  b.initialize(0, c.q0, c.ends(0, A, T));
  b.restore(snap);
  for (int k = 21; k <= 40; ++k) b.step(dt, c.ends(k * dt, A, T));
  CHECK((a.state().q - b.state().q).cwiseAbs().maxCoeff() == 0);
  CHECK((a.state().v - b.state().v).cwiseAbs().maxCoeff() == 0);
}

TEST_CASE("EI = 0 sub-steps: a slow march is taken as given, bit for bit", "[dynamics][ei0_substeps]") {
  const SwayCase c;
  DynamicOptions off;
  off.ei0_substeps = false;
  DynamicOptions on;
  LineDynamics a(c.line, off), b(c.line, on);
  const auto Ta = c.run(a, 0.05, 4, 1, 0.5, 20);
  const auto Tb = c.run(b, 0.05, 4, 1, 0.5, 20);
  CHECK(b.statistics().ei0_substepped == 0);
  CHECK(b.statistics().largest_turn_deg < 1.0);
  CHECK((a.state().q - b.state().q).cwiseAbs().maxCoeff() == 0);
  CHECK(max_abs_diff(Ta, Tb) == 0);
}

TEST_CASE("EI = 0 sub-step options: bad values are named", "[dynamics][ei0_substeps][errors]") {
  const SwayCase c;
  DynamicOptions o;
  o.ei0_substep_max = 3;
  CHECK_THROWS_WITH(LineDynamics(c.line, o), Catch::Contains("ei0_substep_max = 3 (limit: in [4, 65536])"));
  o.ei0_substep_max = 16;
  o.ei0_substep_angle = 0;
  CHECK_THROWS_WITH(LineDynamics(c.line, o), Catch::Contains("ei0_substep_angle = 0"));
}
