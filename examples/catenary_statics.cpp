// Solves the OC3-Hywind mooring line statically (Jonkman 2010, NREL/TP-500-47535): the
// analytic extensible catenary, the meshed EI = 0 line and a small-EI cubic-Hermite cable,
// and prints the end tensions, the touchdown point and the profile (CSV).
//
//   catenary_statics [N] > profile.csv     (N elements, default 50)
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cabledyn/cabledyn.hpp"

int main(int argc, char** argv) {
  using namespace cabledyn;
  const int N = argc > 1 ? std::atoi(argv[1]) : 50;
  LineType chain;
  chain.name = "OC3 chain";
  chain.d = 0.09;
  chain.rho_A = 77.7066;
  chain.EA = 384.243e6;
  chain.Cdn = 1.6;
  chain.Cdt = 0.1;
  chain.Can = 1.0;
  Environment env;
  env.depth = 320.0;
  LineEnd fair, anchor;
  fair.position = Vec3<double>(5.2, 0, -70);
  anchor.position = Vec3<double>(853.87, 0, -320);
  StaticProblem prob;
  prob.seabed_z = -320.0;
  prob.seabed.kBot = 1e8;

  try {
    // 1. The analytic catenary.
    const double w = chain.submerged_weight(env);
    const CatenaryLine<double> cat({{902.2, w, chain.EA}}, anchor.position, fair.position, -320.0, "OC3 catenary");
    const auto& s = cat.solution();
    // 2. The meshed EI = 0 line.
    const Line line("OC3 line", {{chain, 902.2, N}}, fair, anchor, env);
    TensionStatics solver(line, prob);
    const auto res = solver.solve();
    // 3. A cubic-Hermite cable with a small bending stiffness.
    LineType cable = chain;
    cable.EI = 1e3;
    Line hline("OC3 cable", {{cable, 902.2, N}}, fair, anchor, env);
    HermiteStatics hsolver(hline, prob);
    const auto hres = hsolver.solve();

    std::fprintf(stderr, "cabledyn %s: OC3-Hywind line, %d elements\n", kVersion, N);
    std::fprintf(stderr, "  analytic catenary:  FairTen %.1f N  AnchTen %.1f N  H %.1f N  grounded %.2f m\n",
                 s.fairlead_tension(), s.anchor_tension(), s.H, s.grounded_length);
    std::fprintf(stderr, "  EI = 0 line:        FairTen %.1f N  AnchTen %.1f N  (%s, residual %.2e N)\n",
                 res.end_force[0].norm(), res.end_force[1].norm(), res.route.c_str(), res.residual);
    std::fprintf(stderr, "  Hermite, EI = 1e3:  FairTen %.1f N  AnchTen %.1f N  (%s)\n", hres.end_force[0].norm(),
                 hres.end_force[1].norm(), hres.route.c_str());
    const Vec3<double> td = cat.position(s.grounded_length);
    std::fprintf(stderr, "  touchdown (catenary): x %.3f m, %.2f m of line on the seabed from the anchor\n", td(0),
                 s.grounded_length);
    // Profile CSV on stdout: node, arc length from the fairlead, positions of both models,
    // catenary position and tension.
    std::printf("node,s,x_ei0,z_ei0,x_hermite,z_hermite,x_catenary,z_catenary,tension_catenary\n");
    for (std::size_t i = 0; i < line.n_nodes(); ++i) {
      const double sn = line.s_node(i);
      const Vec3<double> p = line.r(res.q, i), ph = hline.r(hres.q, i), pc = cat.position(902.2 - sn);
      std::printf("%zu,%.4f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.3f\n", i + 1, sn, p(0), p(2), ph(0), ph(2), pc(0), pc(2),
                  cat.tension_vector(902.2 - sn).norm());
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
