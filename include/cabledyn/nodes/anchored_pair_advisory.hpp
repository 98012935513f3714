// cabledyn: the compile-time advisory for two spring-damper nodes anchored on each other in a
// coupling group (spec spring-damper-node.md, "The compile-time warning", MADD-ANO-098).
//
// anchored_pair_advisories(graph) returns one Advisory per pair of SpringDamperNodes a, b in
// one coupling group when ALL of these hold (the spec's conservative pattern):
//  1. both nodes are exactly SpringDamperNode<T> (not a wrapper, not a subclass);
//  2. a's `position` reaches b's `anchor_position` through an edge with no transform or the
//     built-in identity, not additive, and that edge is the only writer (replacing or
//     additive) of b's anchor_position; and the same from b to a;
//  3. both nodes have the same timestep;
//  4. the group's max_iterations is at least 2;
//  5. with the live parameter values (the graph's overrides as held at compile time), the
//     coupling iteration converges: alpha beta < 1 - 1e-6 with alpha = k_a dt^2/m_a,
//     beta = k_b dt^2/m_b (for an equal pair: k dt^2 < m), so that the converged step is the
//     one that runs;
//  6. the spectral radius of the converged step exceeds 1 + 1e-6.
// It never refuses a graph. Rest lengths do not matter (they enter only the affine part of
// the step). Values supplied after compile() are not judged.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "cabledyn/nodes/advisory.hpp"
#include "cabledyn/nodes/spring_damper.hpp"
#include "cabledyn/nodes/stability.hpp"

namespace cabledyn {

/// Stable code of the anchored-pair advisory.
inline constexpr const char* kAnchoredPairAdvisory = "anchored-pair-growth";

namespace detail {

inline std::string fmt_g(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

/// True when the only writer of dst's anchor_position is an identity, replacing edge from
/// src's position.
template <class G, class Id>
bool sole_identity_anchor_writer(const G& graph, Id src, Id dst) {
  int writers = 0;
  bool pattern = false;
  for (const auto& e : graph.edges()) {
    if (!(e.target.node == dst && e.target.name == "anchor_position")) continue;
    ++writers;
    pattern = e.source.node == src && e.source.name == "position" && !e.options.additive &&
              e.is_identity();
  }
  return writers == 1 && pattern;
}

}  // namespace detail

/// The anchored-pair advisories of a graph (see the conditions above). G is a
/// cabledyn::Graph<T>; compile() calls this and hands each advisory to its sink.
template <class G>
std::vector<Advisory> anchored_pair_advisories(const G& graph) {
  using T = typename G::Scalar;
  using Node = SpringDamperNode<T>;
  using detail::fmt_g;
  std::vector<Advisory> out;
  for (const auto& group : graph.groups()) {
    if (group.options.max_iterations < 2) continue;
    const auto& mem = group.members;
    for (std::size_t i = 0; i < mem.size(); ++i) {
      for (std::size_t j = i + 1; j < mem.size(); ++j) {
        const auto a = mem[i].index < mem[j].index ? mem[i] : mem[j];
        const auto b = mem[i].index < mem[j].index ? mem[j] : mem[i];
        const Node* na = graph.template node_if<Node>(a);
        const Node* nb = graph.template node_if<Node>(b);
        if (!na || !nb) continue;
        if (graph.timestep(a) != graph.timestep(b)) continue;
        if (!detail::sole_identity_anchor_writer(graph, a, b) ||
            !detail::sole_identity_anchor_writer(graph, b, a))
          continue;
        const SpringDamperParams pa = na->effective_params(*graph.template params_if<Node>(a));
        const SpringDamperParams pb = nb->effective_params(*graph.template params_if<Node>(b));
        const double dt = graph.timestep(a);
        const auto ca = constants_of<double>(pa);
        const auto cb = constants_of<double>(pb);
        if (!(anchored_pair_contraction(ca, cb, dt) < 1 - 1e-6)) continue;
        const auto rho = anchored_pair_spectral_radius(ca, cb, dt);
        if (!rho || !(*rho > 1 + 1e-6)) continue;

        const bool equal =
            pa.stiffness == pb.stiffness && pa.damping == pb.damping && pa.mass == pb.mass;
        Advisory adv;
        adv.code = kAnchoredPairAdvisory;
        adv.nodes = {graph.name(a), graph.name(b)};
        adv.group = group.options.name;
        adv.spectral_radius = *rho;
        adv.growth_factor = equal ? equal_pair_growth_factor(ca, dt) : *rho;
        auto describe = [&](const std::string& name, const SpringDamperParams& p) {
          return "'" + name + "' (k = " + fmt_g(p.stiffness) + " N/m, c = " + fmt_g(p.damping) +
                 " N s/m, m = " + fmt_g(p.mass) + " kg)";
        };
        auto alone = [&](const SpringDamperParams& p) {
          const double lhs = p.stiffness * dt * dt + 2 * p.damping * dt;
          return fmt_g(lhs) + (lhs < 4 * p.mass ? " < " : " >= ") + "4m = " + fmt_g(4 * p.mass);
        };
        auto range = [&](const SpringDamperParams& p) {
          const auto r = equal_pair_damping_range(p.stiffness, p.mass, dt);
          return fmt_g(r.first) + " <= c <= " + fmt_g(r.second) + " N s/m";
        };
        std::string msg = "SpringDamperNodes " + describe(adv.nodes[0], pa) + " and " +
                          describe(adv.nodes[1], pb) + " are anchored on each other in coupling group '" +
                          adv.group + "' (max_iterations " +
                          std::to_string(group.options.max_iterations) + ", dt = " + fmt_g(dt) +
                          " s): the converged step ";
        if (equal) {
          msg += "multiplies the pair's common velocity by g = (m - c dt)/(m - k dt^2) = " +
                 fmt_g(adv.growth_factor) + " per step (spectral radius " + fmt_g(*rho) + ")";
        } else {
          msg += "grows by a factor " + fmt_g(*rho) + " per step (spectral radius)";
        }
        msg += "; alone, each node has k dt^2 + 2 c dt = " + alone(pa);
        if (!equal) msg += " and " + alone(pb);
        msg += " (single-node bound k dt^2 + 2 c dt < 4m)";
        msg += ". An equal pair is stable only for k dt <= c <= (2m - k dt^2)/dt";
        if (equal) {
          msg += ", here " + range(pa);
        } else {
          msg += ": with '" + adv.nodes[0] + "''s k and m " + range(pa) + ", with '" +
                 adv.nodes[1] + "''s " + range(pb);
        }
        msg += ". Warning only; the graph runs as built (spec MADD-ANO-098).";
        adv.message = std::move(msg);
        out.push_back(std::move(adv));
      }
    }
  }
  return out;
}

}  // namespace cabledyn
