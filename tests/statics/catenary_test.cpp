// The analytic extensible elastic catenary: OC3-Hywind line against an independent
// long-double solution, the inextensible limit, the profile's own ODE, multi-segment and
// buoyant sections against a numerical integration, slack and bad input.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "cabledyn/core/environment.hpp"
#include "cabledyn/statics/catenary.hpp"

using namespace cabledyn;

namespace {

// OC3-Hywind mooring line (Jonkman 2010, NREL/TP-500-47535): 902.2 m, depth 320 m, anchor
// radius 853.87 m, fairlead radius 5.2 m at 70 m depth, 77.7066 kg/m, d = 0.09 m,
// EA = 384.243e6 N.
constexpr double kL = 902.2, kX = 853.87 - 5.2, kZ = 320.0 - 70.0, kEA = 384.243e6;
constexpr double kMass = 77.7066, kDiam = 0.09;

long double oc3_w() {
  const long double A = kPiLD * kDiam * kDiam / 4;
  return (kMass - 1025.0L * A) * 9.80665L;
}

// Independent evaluation: the grounded closed form of EQUATIONS.md section 9 solved in long
// double by Newton on (H, L_B) (the grounded length), not on (H, V_F).
struct Grounded {
  long double H, LB;
};
Grounded independent_grounded(long double L, long double X, long double Z, long double w,
                              long double EA) {
  auto F = [&](long double H, long double LB, long double& fx, long double& fz) {
    const long double V = w * (L - LB);
    fx = LB + H / w * std::asinh(V / H) + H * L / EA - X;
    fz = H / w * (std::sqrt(1 + (V / H) * (V / H)) - 1) + V * V / (2 * EA * w) - Z;
  };
  long double H = 1e5L, LB = L / 2;  // a cold start, not the library's answer
  for (int it = 0; it < 200; ++it) {
    long double fx, fz;
    F(H, LB, fx, fz);
    if (std::fabs(fx) + std::fabs(fz) < 1e-15L * (X + Z)) break;
    const long double hH = 1e-7L * H, hL = 1e-7L * L;
    long double fx1, fz1, fx2, fz2;
    F(H + hH, LB, fx1, fz1);
    F(H, LB + hL, fx2, fz2);
    const long double a = (fx1 - fx) / hH, b = (fx2 - fx) / hL, c = (fz1 - fz) / hH, d = (fz2 - fz) / hL;
    const long double det = a * d - b * c;
    long double dH = -(d * fx - b * fz) / det, dL = -(-c * fx + a * fz) / det;
    long double lam = 1;
    while (H + lam * dH <= 0 || LB + lam * dL < 0 || LB + lam * dL >= L) lam /= 2;
    H += lam * dH;
    LB += lam * dL;
  }
  return {H, LB};
}

// Numerical integration (RK4, long double) of dx/ds = H/T + H/EA, dz/ds = V/T + V/EA from the
// anchor with V(0) = V0 over suspended segments.
void integrate_ode(const std::vector<CatenarySegment>& segs, long double H, long double V0,
                   long double s_start, long double& x, long double& z, int steps_per_metre = 20) {
  long double s = 0, V = V0;
  x = z = 0;
  for (const auto& sg : segs) {
    const long double inv = std::isfinite(sg.EA) ? 1.0L / sg.EA : 0.0L;
    const long double a = std::max(s, s_start), b = s + sg.L;
    const long double Va = V0;
    (void)Va;
    if (b > a) {
      const int n = std::max(1, static_cast<int>((b - a) * steps_per_metre));
      const long double h = (b - a) / n;
      // V at a
      long double Vs = V + sg.w * (a - s);
      auto fx = [&](long double v) { return H / std::sqrt(H * H + v * v) + H * inv; };
      auto fz = [&](long double v) { return v / std::sqrt(H * H + v * v) + v * inv; };
      for (int i = 0; i < n; ++i) {
        const long double v1 = Vs, v2 = Vs + sg.w * h / 2, v3 = Vs + sg.w * h;
        x += h / 6 * (fx(v1) + 4 * fx(v2) + fx(v3));
        z += h / 6 * (fz(v1) + 4 * fz(v2) + fz(v3));
        Vs = v3;
      }
    }
    V += sg.w * sg.L;
    s += sg.L;
  }
}

}  // namespace

TEST_CASE("OC3-Hywind line: catenary agrees with an independent long-double solution",
          "[statics][catenary]") {
  const double w = static_cast<double>(oc3_w());
  CHECK(w == Approx(698.094).epsilon(1e-5));  // the report's apparent weight in water
  const Catenary<long double> cat({{kL, w, kEA}}, true, "OC3 line");
  const auto sol = cat.solve(kX, kZ);
  const auto ref = independent_grounded(kL, kX, kZ, w, kEA);
  INFO("H " << static_cast<double>(sol.H) << " V_F " << static_cast<double>(sol.V_fairlead)
            << " L_B " << static_cast<double>(sol.grounded_length));
  CHECK(std::fabs(sol.H - ref.H) <= 1e-9L * ref.H);
  CHECK(std::fabs(sol.grounded_length - ref.LB) <= 1e-9L * kL);
  CHECK(std::fabs(sol.V_fairlead - w * (kL - ref.LB)) <= 1e-9L * w * kL);
  CHECK(sol.V_anchor == 0);
  CHECK(sol.grounded_length > 0);  // the OC3 line rests on the seabed at the anchor
  // Double precision agrees with long double.
  const Catenary<double> catd({{kL, w, kEA}}, true, "OC3 line");
  const auto sd = catd.solve(kX, kZ);
  CHECK(sd.H == Approx(static_cast<double>(sol.H)).epsilon(1e-12));
  CHECK(sd.V_fairlead == Approx(static_cast<double>(sol.V_fairlead)).epsilon(1e-12));
  // The profile ends at the fairlead.
  const auto end = cat.at(sol, kL);
  CHECK(std::fabs(end.x - kX) <= 1e-10L);
  CHECK(std::fabs(end.z - kZ) <= 1e-10L);
  CHECK(std::fabs(end.tension - sol.fairlead_tension()) <= 1e-9L * sol.fairlead_tension());
}

TEST_CASE("OC3-Hywind line: published force-displacement table (FAST v6.10b)", "[statics][catenary]") {
  // Published values: the OC3 "MooringLineFD" force-displacement table generated by FAST
  // (v6.10b-jmj, 19-Dec-2008) for the OC3-Hywind line (Jonkman 2010, NREL/TP-500-47535),
  // distributed with the OC3 benchmark data (a copy is in ImperialCollegeLondon/sharpy,
  // tests/coupled/multibody/floating_forces/MooringLineFD.dat). Columns: horizontal
  // distance [m], fairlead tension [kN], horizontal tension [kN], suspended length [m],
  // anchor tension [kN]; rise 250 m, w = 698.094 N/m, frictionless seabed. The rows around
  // the undisplaced spacing 848.67 m:
  //    848.50  906.6  732.4  765.3  732.4
  //    849.00  919.9  745.8  771.5  745.8
  // Printed to 0.1 kN and 0.1 m: agreement within half a unit of the last digit.
  struct Row {
    double X, T, H, susp, Tanch;
  };
  for (const Row r : {Row{848.50, 906.6, 732.4, 765.3, 732.4}, Row{849.00, 919.9, 745.8, 771.5, 745.8}}) {
    const Catenary<double> cat({{kL, 698.094, kEA}}, true, "OC3 line");
    const auto sol = cat.solve(r.X, kZ);
    INFO("X = " << r.X);
    CHECK(std::fabs(sol.fairlead_tension() / 1e3 - r.T) <= 0.05);
    CHECK(std::fabs(sol.H / 1e3 - r.H) <= 0.05);
    CHECK(std::fabs((kL - sol.grounded_length) - r.susp) <= 0.05);
    CHECK(std::fabs(sol.anchor_tension() / 1e3 - r.Tanch) <= 0.05);
  }
}

TEST_CASE("Inextensible limit: EA -> infinity matches the inextensible catenary", "[statics][catenary]") {
  const double w = static_cast<double>(oc3_w());
  const Catenary<long double> inf({{kL, w, std::numeric_limits<double>::infinity()}}, true);
  const auto si = inf.solve(kX, kZ);
  // Inextensible grounded catenary: x = L_B + H/w asinh(V/H), z = H/w (sqrt(1 + (V/H)^2) - 1),
  // V = w (L - L_B): the independent solution with EA = infinity.
  const auto ref = independent_grounded(kL, kX, kZ, w, std::numeric_limits<long double>::infinity());
  CHECK(std::fabs(si.H - ref.H) <= 1e-9L * ref.H);
  CHECK(std::fabs(si.grounded_length - ref.LB) <= 1e-9L * kL);
  // Finite EA approaches it as EA grows: the difference falls like 1/EA.
  long double prev = 0;
  for (double EA : {1e9, 1e10, 1e11}) {
    const Catenary<long double> c({{kL, w, EA}}, true);
    const long double dH = std::fabs(c.solve(kX, kZ).H - si.H);
    if (prev > 0) CHECK(prev / dH == Approx(10.0).epsilon(0.05));
    prev = dH;
  }
}

TEST_CASE("Catenary profile satisfies its own ODE at random arc lengths", "[statics][catenary]") {
  const double w = static_cast<double>(oc3_w());
  for (bool grounded : {true, false}) {
    // A suspended variant: anchor 30 m above where it would touch, short span.
    const Catenary<long double> cat({{kL, w, kEA}}, grounded);
    const auto sol = grounded ? cat.solve(kX, kZ) : cat.solve(700.0L, 120.0L);
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(0.01, 0.99);
    for (int i = 0; i < 20; ++i) {
      const long double s = kL * u(rng), h = 1e-4L;
      const auto p = cat.at(sol, s), pp = cat.at(sol, s + h), pm = cat.at(sol, s - h);
      const long double dx = (pp.x - pm.x) / (2 * h), dz = (pp.z - pm.z) / (2 * h);
      long double ex, ez;
      if (p.grounded && pp.grounded && pm.grounded) {
        ex = 1 + sol.H / kEA;
        ez = 0;
      } else if (!p.grounded && !pp.grounded && !pm.grounded) {
        const long double T = std::sqrt(p.H * p.H + p.V * p.V);
        ex = p.H / T + p.H / kEA;
        ez = p.V / T + p.V / kEA;
        // dV/ds = w.
        CHECK(std::fabs((pp.V - pm.V) / (2 * h) - w) <= 1e-6L * w);
      } else {
        continue;  // straddles the touchdown
      }
      INFO("s = " << static_cast<double>(s) << (p.grounded ? " grounded" : " suspended"));
      CHECK(std::fabs(dx - ex) <= 1e-8L);
      CHECK(std::fabs(dz - ez) <= 1e-8L);
    }
  }
}

TEST_CASE("Multi-segment catenary with a buoyant section matches a numerical integration",
          "[statics][catenary]") {
  // Anchor to fairlead: heavy chain, buoyant section (a lazy-wave arch), light top section.
  const std::vector<CatenarySegment> segs = {{300.0, 900.0, 6e8}, {150.0, -250.0, 2e8}, {350.0, 120.0, 1.5e8}};
  for (bool grounded : {false, true}) {
    const Catenary<long double> cat(segs, grounded, "lazy wave");
    const long double X = 600.0L, Z = 180.0L;
    const auto sol = cat.solve(X, Z);
    INFO("grounded " << grounded << " H " << static_cast<double>(sol.H) << " L_B "
                     << static_cast<double>(sol.grounded_length));
    // Integrate the ODE numerically from the touchdown (or the anchor) with the solved H.
    long double x, z;
    const long double V0 = sol.grounded_length > 0 ? -segs[0].w * sol.grounded_length : sol.V_anchor;
    integrate_ode(segs, sol.H, V0, sol.grounded_length, x, z);
    long double xg = 0;
    if (sol.grounded_length > 0) xg = sol.grounded_length * (1 + sol.H / segs[0].EA);
    CHECK(std::fabs(x + xg - X) <= 1e-7L * X);
    CHECK(std::fabs(z - Z) <= 1e-7L * X);
    // Vertical equilibrium: V_F - V_A = weight of the suspended part.
    long double Wsusp = 0;
    for (const auto& s : segs) Wsusp += s.w * s.L;
    Wsusp -= segs[0].w * sol.grounded_length;
    CHECK(std::fabs(sol.V_fairlead - sol.V_anchor - Wsusp) <= 1e-9L * std::fabs(sol.V_fairlead));
  }
}

TEST_CASE("Catenary 3-D placement: end forces and node positions", "[statics][catenary]") {
  const double w = static_cast<double>(oc3_w());
  const double az = 2.0 * kPi / 3;  // second OC3 line
  const Vec3<double> anchor(853.87 * std::cos(az), 853.87 * std::sin(az), -320.0);
  const Vec3<double> fair(5.2 * std::cos(az), 5.2 * std::sin(az), -70.0);
  const CatenaryLine<double> line({{kL, w, kEA}}, anchor, fair, -320.0, "OC3 line 2");
  CHECK(line.catenary().grounded());
  const auto& s = line.solution();
  // The fairlead force points down and toward the anchor; magnitudes as in 2-D.
  const Vec3<double> F = line.fairlead_force();
  CHECK(F(2) == Approx(-s.V_fairlead).epsilon(1e-15));
  CHECK(std::hypot(F(0), F(1)) == Approx(s.H).epsilon(1e-14));
  CHECK((F.head<2>() / s.H + (fair - anchor).head<2>().normalized()).norm() < 1e-12);
  // Nodes at the ends coincide with the anchor and the fairlead.
  const auto pts = line.positions({0.0, kL / 2, kL});
  CHECK((pts[0] - anchor).norm() < 1e-9);
  CHECK((pts[2] - fair).norm() < 1e-7);
  // Global equilibrium of the whole line: end forces plus weight balance.
  const Vec3<double> Fa = line.anchor_force();
  const Vec3<double> weight(0, 0, -w * (kL - s.grounded_length));  // the grounded run rests on the bed
  CHECK((-F - Fa + weight + Vec3<double>(0, 0, 0)).head<2>().norm() <= 1e-6 * s.H);
  CHECK(std::fabs(-F(2) - Fa(2) + weight(2)) <= 1e-6 * s.V_fairlead);
}

TEST_CASE("Grounded line longer than span plus rise: the slack H -> 0 limit", "[statics][catenary]") {
  const double w = 1000.0, EA = 1e9;
  const Catenary<double> cat({{500.0, w, EA}}, true);
  const auto sol = cat.solve(200.0, 100.0);  // 500 > 200 + 100
  CHECK(sol.slack);
  CHECK(sol.H == 0);
  // Vertical hanging leg of ~100 m: V_F = w L_hang, L_hang (1 + V/(2EA)) = 100.
  const double Lh = 500.0 - sol.grounded_length;
  CHECK(sol.V_fairlead == Approx(w * Lh).epsilon(1e-12));
  CHECK(Lh * (1 + w * Lh / (2 * EA)) == Approx(100.0).epsilon(1e-12));
  const auto top = cat.at(sol, 500.0);
  CHECK(top.x == Approx(200.0));
  CHECK(top.z == Approx(100.0).epsilon(1e-12));
}

TEST_CASE("Catenary bad input gives named errors", "[statics][catenary][errors]") {
  CHECK_THROWS_AS(Catenary<double>({}, false), InputError);
  CHECK_THROWS_WITH(Catenary<double>({{-5.0, 100.0, 1e8}}, false, "line 3"),
                    "InputError: line 3 segment 1: L = -5 (limit: > 0)");
  CHECK_THROWS_WITH(Catenary<double>({{5.0, 100.0, 0.0}}, false, "line 3"),
                    "InputError: line 3 segment 1: EA = 0 (limit: > 0)");
  // A line that cannot reach: chord beyond what EA allows.
  const Catenary<double> c({{100.0, 50.0, 1e6}}, false, "line 4");
  CHECK_THROWS_AS(c.solve(250.0, 0.0), InputError);
  CHECK_THROWS_WITH(c.solve(250.0, 0.0), Catch::Contains("line 4: chord = 250"));
  // An inextensible line shorter than its chord.
  const Catenary<double> ci({{100.0, 50.0, std::numeric_limits<double>::infinity()}}, false, "line 5");
  CHECK_THROWS_AS(ci.solve(80.0, 70.0), InputError);
  // A short chord close to the length still solves (taut, stretched).
  const auto taut = c.solve(100.5, 0.0);
  CHECK(taut.H > 0.004 * 1e6);
  // A grounded line with the fairlead below the seabed.
  const Catenary<double> g({{100.0, 50.0, 1e8}}, true, "line 6");
  CHECK_THROWS_WITH(g.solve(50.0, -3.0), Catch::Contains("line 6: fairlead height above the seabed = -3"));
}
