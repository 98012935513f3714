// cabledyn: the values of a deck's output channels at the committed state: line ends, nodes
// (recovered tension, curvature, bend moment; net node forces), points, bodies and rods, and
// the check of every channel before anything is solved.
// Spec "Node tension, curvature and bend moment", "Tension and coupled loads"; DECK_FORMAT.md
// "Outputs"; docs/driver.md.
//
// Member definitions of SystemRunner (io/system_runner.hpp declares the class and documents
// each member; this file is one of its parts, included at its end).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cabledyn/io/system_runner.hpp"

namespace cabledyn::io {

inline std::vector<std::string> SystemRunner::channel_names() const {
  std::vector<std::string> names;
  for (const auto& o : deck_.outputs) names.push_back(o.text.empty() ? o.channel.name() : o.text);
  return names;
}

inline void SystemRunner::check_channel(const OutputChannel& c, const std::string& text) const {
  switch (c.kind) {
    case ChannelKind::FairTen:
    case ChannelKind::AnchTen:
    case ChannelKind::FairIncl:
    case ChannelKind::AnchIncl:
    case ChannelKind::NodePosition:
    case ChannelKind::NodeVelocity:
    case ChannelKind::NodeAcceleration:
    case ChannelKind::NodeForce:
    case ChannelKind::Ten:
    case ChannelKind::Curv:
    case ChannelKind::BendMom:
      (void)sim_->line_index(c.line);
      return;
    case ChannelKind::PointPosition:
    case ChannelKind::PointVelocity:
    case ChannelKind::PointAcceleration:
    case ChannelKind::PointForce:
    case ChannelKind::PointTension:
      if (!sim_->model().point_index.count(c.point))
        throw InputError(deck_.file, "output channel point", c.point, "a point of POINTS");
      return;
    case ChannelKind::Body: {
      int f = 0, k = 0;
      if (c.object < 1 || c.object > static_cast<int>(deck_.bodies.size()) || !body_channel_quantity(c.quantity, f, k))
        throw InputError(deck_.file, "output channel", text.empty() ? c.name() : text, "a channel of a body of BODIES");
      return;
    }
    case ChannelKind::Rod: {
      int f = 0, k = 0, n = -1;
      const std::string name = text.empty() ? c.name() : text;
      if (c.object < 1 || c.object > static_cast<int>(sim_->model().rods.size()) ||
          !rod_channel_quantity(c.quantity, f, k, n))
        throw InputError(deck_.file, "output channel", name, "a channel of a rod of RODS");
      const auto& rm = sim_->model().rods[static_cast<std::size_t>(c.object - 1)];
      if (n > std::max(0, rm.segments))
        throw InputError(deck_.file, "output channel " + name + " node", n,
                         "in [0, " + std::to_string(std::max(0, rm.segments)) + "] (the rod's NumSegs)");
      if ((f == 6 || f == 7) && deck_.rods[static_cast<std::size_t>(c.object - 1)].attachment == RodAttachment::body)
        throw NotImplementedError(deck_.file, "output channel", name,
                                  "the net force and moment of a rod fixed to a body (its share of the body's: the "
                                  "Body<N> channels give the whole)");
      return;
    }
    default:
      throw NotImplementedError(deck_.file, "output channel", text.empty() ? c.name() : text,
                                "in the system route: FairTen, AnchTen, FairIncl, AnchIncl, node positions, "
                                "velocities, accelerations, forces, tensions, curvatures and bend moments, point, body "
                                "and rod channels");
  }
}

inline const NodeRecovery& SystemRunner::node_recovery(int l) const {
  const double t = static_cast<double>(sim_->state().t);
  if (!(t == recovery_t_)) recovery_.clear(), recovery_t_ = t;
  const auto it = recovery_.find(l);
  if (it != recovery_.end()) return it->second;
  const auto& sys = sim_->model().system;
  const auto& st = sim_->state();
  const auto& m = sys.line(l).model;
  VecX<double> x, v;
  sys.line_gather(st, l, 0, x);
  sys.line_gather(st, l, 1, v);
  return recovery_[l] = recover_nodes_at(m, x, &v, sys.line_end_force_dynamic(st, l, 0, false),
                                         sys.line_end_force_dynamic(st, l, 1, false));
}

inline const VecX<double>& SystemRunner::node_forces(int l) const {
  const double t = static_cast<double>(sim_->state().t);
  if (!(t == forces_t_)) forces_.clear(), forces_t_ = t;
  const auto it = forces_.find(l);
  if (it != forces_.end()) return it->second;
  sim_->model().system.line_node_forces(sim_->state(), l, forces_[l]);
  return forces_[l];
}

inline double SystemRunner::rod_channel_value(const OutputChannel& c) const {
  int f = 0, k = 0, n = -1;
  rod_channel_quantity(c.quantity, f, k, n);
  const auto& model = sim_->model();
  const auto& sys = model.system;
  const auto& st = sim_->state();
  const auto& rm = model.rods[static_cast<std::size_t>(c.object - 1)];
  if (f == 8 || f == 9) {  // TenA, TenB: the sum of the loads of the lines attached at that end
    const char end = f == 8 ? 'A' : 'B';
    Vec3<double> F = Vec3<double>::Zero();
    for (const auto& rec : deck_.lines)
      for (int e = 0; e < 2; ++e)
        if ((e == 0 ? rec.node_a : rec.node_b) == 0 && (e == 0 ? rec.rod_a : rec.rod_b) == c.object &&
            (e == 0 ? rec.rod_end_a : rec.rod_end_b) == end)
          F += sys.line_end_force_dynamic(st, sim_->line_index(rec.id), e, false);  // line-end forces, as FairTen
    return F.norm();
  }
  if (f == 6 || f == 7) {
    // Fx ... Mz: the net load on the rod about End A, its inertia excluded (MoorDyn's F6net; a
    // Coupled rod's: its load on the host): its carrier body's (MooringSystem::body_net_load),
    // or, for a zero-length rod without one, its lines' forces at its point.
    Vec6<double> F = Vec6<double>::Zero();
    if (rm.body >= 0) {
      F = sys.body_net_load(st, rm.body);
    } else {
      for (int l = 0; l < static_cast<int>(sys.n_lines()); ++l)
        for (int e = 0; e < 2; ++e)
          if (sys.line(l).point[e] == rm.point) F.head<3>() += sys.line_end_force_dynamic(st, l, e, false);
    }
    return F(f == 6 ? k : 3 + k);
  }
  Vec3<double> rb;
  Mat3<double> Rb;
  if (rm.point >= 0) {  // a zero-length rod: a point (a direction joint: on its body)
    if (f == 0 || f == 2 || f == 4) return sys.point_motion(st, rm.point, f / 2)(k);
    if (f == 10) return sys.point_position(st, rm.point)(2) < 0 ? 1.0 : 0.0;
    if (rm.body < 0) return 0.0;  // no orientation
    if (f == 3 || f == 5) return sys.body_motion(st, rm.body, f == 3 ? 1 : 2)(3 + k) * 180 / kPi;
    sys.body_pose(st, rm.body, rb, Rb);
    const Vec3<double> q = Rb.col(2);  // the joint's axis (f == 1)
    const double phi = std::acos(std::clamp(q(2), -1.0, 1.0)), beta = std::atan2(q(1), q(0));
    return (k == 0 ? -phi * std::sin(beta) : phi * std::cos(beta)) * 180 / kPi;
  }
  sys.body_pose(st, rm.body, rb, Rb);
  const Vec3<double> pa = rb + Rb * rm.a, pb = rb + Rb * rm.b;
  const int N = std::max(1, rm.segments);
  // End A, or node n, as a point of the rod's body (its motion: MooringSystem::body_point_motion).
  PointModel<double> node;
  node.kind = PointKind::body;
  node.body = rm.body;
  node.r = n < 0 ? rm.a : Vec3<double>(rm.a + (rm.b - rm.a) * (double(n) / N));
  switch (f) {
    case 0:
    case 2:
    case 4:
      return sys.body_point_motion(st, node, f / 2)(k);
    case 3:
      return sys.body_motion(st, rm.body, 1)(3 + k) * 180 / kPi;
    case 5:
      return sys.body_motion(st, rm.body, 2)(3 + k) * 180 / kPi;
    case 1: {
      const Vec3<double> q = (pb - pa).normalized();
      const double phi = std::acos(std::clamp(q(2), -1.0, 1.0)), beta = std::atan2(q(1), q(0));
      return (k == 0 ? -phi * std::sin(beta) : phi * std::cos(beta)) * 180 / kPi;
    }
    default: {  // Sub
      const auto& part = sys.body(rm.body).rods[static_cast<std::size_t>(rm.part)];
      const RodAxis<double> ax = rod_axis<double>(part, rb, Rb);
      double sum = 0;
      for (int i = 0; i <= N; ++i) sum += rod_wet_fraction<double>(ax, pa(2) + (pb(2) - pa(2)) * (double(i) / N));
      return sum / (N + 1);
    }
  }
}

inline double SystemRunner::channel_value(const OutputChannel& c) const {
  const auto& st = sim_->state();
  const auto& sys = sim_->model().system;
  switch (c.kind) {
    case ChannelKind::FairTen:
    case ChannelKind::AnchTen:
    case ChannelKind::FairIncl:
    case ChannelKind::AnchIncl: {
      const bool fair = c.kind == ChannelKind::FairTen || c.kind == ChannelKind::FairIncl;
      const Vec3<double> F = sim_->line_end_force(c.line, deck_.tension_end(c.line, fair));
      if (c.kind == ChannelKind::FairTen || c.kind == ChannelKind::AnchTen) return F.norm();
      return std::atan2(-F(2), std::hypot(F(0), F(1))) * 180 / kPi;
    }
    case ChannelKind::NodePosition:
    case ChannelKind::NodeVelocity:
    case ChannelKind::NodeAcceleration:
    case ChannelKind::NodeForce: {
      // Node J's slot in the line's node vector: its position, velocity or acceleration, or
      // the net force on it (MooringSystem::line_node_forces: -r(q, v), at the ends the
      // line's end loads).
      const int l = sim_->line_index(c.line);
      const long long j = deck_.channel_node(c);
      VecX<double> g;
      if (c.kind != ChannelKind::NodeForce)
        sys.line_gather(st, l,
                        c.kind == ChannelKind::NodePosition   ? 0
                        : c.kind == ChannelKind::NodeVelocity ? 1
                                                              : 2,
                        g);
      const VecX<double>& x = c.kind == ChannelKind::NodeForce ? node_forces(l) : g;
      return x(3 * static_cast<Eigen::Index>(sys.line(l).model.position_slot(static_cast<std::size_t>(j - 1))) +
               c.component);
    }
    case ChannelKind::Ten:
    case ChannelKind::Curv:
    case ChannelKind::BendMom: {
      const NodeRecovery& r = node_recovery(sim_->line_index(c.line));
      const auto j = static_cast<std::size_t>(deck_.channel_node(c) - 1);
      return c.kind == ChannelKind::Ten ? r.tension[j] : c.kind == ChannelKind::Curv ? r.curvature[j] : r.moment[j];
    }
    case ChannelKind::PointPosition:
      return sim_->point_position(c.point)(c.component);
    case ChannelKind::PointVelocity:
    case ChannelKind::PointAcceleration:  // a point on a body moves with it (it held no v, a of its own)
      return sys.point_motion(st, sim_->model().point_index.at(c.point),
                              c.kind == ChannelKind::PointVelocity ? 1 : 2)(c.component);
    case ChannelKind::PointForce:
      return sim_->point_force(c.point)(c.component);
    case ChannelKind::PointTension:
      return sim_->point_force(c.point).norm();
    case ChannelKind::Body: {
      int f = 0, k = 0;
      body_channel_quantity(c.quantity, f, k);
      Vec3<double> r;
      Mat3<double> R;
      sim_->body_pose(c.object, r, R);
      switch (f) {
        case 0:
          return r(k);
        case 1:
          return deck_body_angles(deck_.options, R)(k) * 180 / kPi;
        case 2:
          return sim_->body_motion(c.object, 1)(k);
        case 3:
          return sim_->body_motion(c.object, 1)(3 + k) * 180 / kPi;  // deg/s, as MoorDyn
        case 4:
          return sim_->body_motion(c.object, 2)(k);
        case 5:
          return sim_->body_motion(c.object, 2)(3 + k) * 180 / kPi;
        case 6:
          return sim_->body_load(c.object)(k);
        default:
          return sim_->body_load(c.object)(3 + k);
      }
    }
    case ChannelKind::Rod:
      return rod_channel_value(c);
    default:
      break;
  }
  throw NotImplementedError(deck_.file, "output channel", c.name(), "in the system route");
}

}  // namespace cabledyn::io
