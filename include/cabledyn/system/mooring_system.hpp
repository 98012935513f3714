// cabledyn: a mooring system: lines joined at points, its DOF numbering and its state.
// Spec "Attached objects and line ends" (fixed, coupled and free points; a line end takes the
// position of the object it is attached to; a free point carries its mass, volume and the
// forces of its lines), "Tension and coupled loads" (the force a line exerts on its end
// object), "Static equilibrium" (R = f_int - f_ext on every free DOF).
//
// The system owns the lines (LineModel) and points, numbers the free DOFs (each line's
// interior nodes as one band block, then the free points' DOFs as the border: see
// bordered_jacobian.hpp) and defines one state value (SystemState: t, q, v, a of the free
// DOFs, a struct copied whole: commit, rollback and restart cannot miss a field). Held
// points (fixed, coupled) are not DOFs: their positions are parameters of the system.
//
// Templated over T for the state and the parameters alike: a MooringSystem of duals, its
// EA, lengths or anchor positions seeded, gives exact design sensitivities of its static
// solution (system_statics.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/environment.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/system/bordered_jacobian.hpp"
#include "cabledyn/system/line_model.hpp"

namespace cabledyn {

/// How a point moves (deck POINTS Attachment column).
enum class PointKind {
  fixed,    ///< held at its position (an anchor): Fixed
  coupled,  ///< position prescribed by the host or a motion (a fairlead): Coupled / Vessel
  free,     ///< three DOFs moved by its lines, weight and buoyancy: Free / Connect
};

/// A point (deck POINTS row). Parameters in T.
template <class T>
struct PointModel {
  std::string name = "point";
  PointKind kind = PointKind::fixed;
  Vec3<T> r = Vec3<T>::Zero();  ///< held position, or the initial position of a free point [m]
  T mass = T(0);                ///< [kg] (a clump weight)
  T volume = T(0);              ///< displaced volume [m^3] (a buoy)
  double CdA = 0;               ///< drag area [m^2]: drag 1/2 rho CdA |u_r| u_r
  double Ca = 0;                ///< added-mass coefficient: added mass Ca rho V (isotropic)
  Vec3<T> v = Vec3<T>::Zero();  ///< velocity of a held point [m/s] (coupled: set by the host each step)
  Vec3<T> a = Vec3<T>::Zero();  ///< acceleration of a held point [m/s^2]
  Vec3<T> load = Vec3<T>::Zero();  ///< constant external force on a free point [N] (a host's load)
};

/// The one state value of a system: time and the positions, velocities and accelerations of
/// its free DOFs (in the system's numbering). Copy it whole to commit, roll back or restart.
template <class T>
struct SystemState {
  T t = T(0);
  VecX<T> q, v, a;
};

/// A line of the system: its load model and the points at its ends.
template <class T>
struct SystemLine {
  LineModel<T> model;
  int point[2] = {-1, -1};  ///< End A, End B point index
};

/// The prescribed kinematics of a system's held points (fixed and coupled) at one time: the
/// inputs a stepper interpolates over a step.
template <class T>
struct HeldKinematics {
  std::vector<Vec3<T>> r, v, a;  ///< one entry per point (free points' entries unused)
};

/// A mooring system of EI = 0 lines and points.
template <class T>
class MooringSystem {
 public:
  using Index = Eigen::Index;
  using Scalar = T;
  using State = SystemState<T>;
  using Jacobian = BorderedJacobian<T>;
  using Held = HeldKinematics<T>;

  explicit MooringSystem(Environment env = {}, std::string name = "mooring system")
      : env_(env), name_(std::move(name)) {
    env_.validate();
  }

  const std::string& name() const { return name_; }
  const Environment& environment() const { return env_; }
  /// A uniform steady current [m/s] (drag on lines and points in the dynamics).
  void set_current(const Vec3<double>& U) {
    if (!U.allFinite()) throw InputError(name_, "current", "non-finite", "finite");
    current_ = U;
  }
  const Vec3<double>& current() const { return current_; }
  /// The seabed the points see (the lines carry their own, LineModel::seabed()).
  void set_seabed(const SeabedModel& bed) {
    bed.params.validate(name_ + " seabed");
    seabed_ = bed;
  }
  const SeabedModel& seabed() const { return seabed_; }

  /// The seabed footprint of point p [m^2] (spec "Seabed contact", Free and Connect points):
  /// the face area of a cube of its volume, V^(2/3); a point declared by its mass alone takes
  /// the volume of solid steel of that mass (rho_s = 7850 kg/m^3); a point with neither has
  /// none.
  T point_footprint(int p) const {
    using std::cbrt;
    const auto& P = points_[static_cast<std::size_t>(p)];
    const T V = value_of(P.volume) > 0 ? P.volume : T(P.mass / T(7850));
    if (!(value_of(V) > 0)) return T(0);
    const T c = cbrt(V);
    return c * c;
  }

  /// The seabed contact of free point p at height z moving with vz: the line law with the
  /// stiffness kBot A and damping cBot A over its footprint A (zero clear of the bed or
  /// without a footprint or a seabed).
  NodalContact<T> point_contact(int p, const T& z, const T& vz) const {
    if (!seabed_.z) return NodalContact<T>{};
    const T A = point_footprint(p);
    if (!(value_of(A) > 0)) return NodalContact<T>{};
    return seabed_contact<T, T>(z, vz, *seabed_.z, A, T(1), seabed_.params);
  }

  /// Adds a point; returns its index. Throws InputError for a non-finite position or a
  /// negative mass or volume.
  int add_point(PointModel<T> p) {
    const std::string obj = "Point " + std::to_string(points_.size() + 1) + " (" + p.name + ")";
    if (!is_finite(p.r(0)) || !is_finite(p.r(1)) || !is_finite(p.r(2)))
      throw InputError(obj, "position", "non-finite", "finite");
    if (!(value_of(p.mass) >= 0 && is_finite(p.mass))) throw InputError(obj, "mass", value_of(p.mass), ">= 0");
    if (!(value_of(p.volume) >= 0 && is_finite(p.volume)))
      throw InputError(obj, "volume", value_of(p.volume), ">= 0");
    if (!(p.CdA >= 0) || !(p.Ca >= 0)) throw InputError(obj, "CdA / Ca", std::min(p.CdA, p.Ca), ">= 0");
    points_.push_back(std::move(p));
    numbered_ = false;
    return static_cast<int>(points_.size()) - 1;
  }

  /// Adds a line from point a (End A) to point b (End B); returns its index.
  int add_line(LineModel<T> model, int a, int b) {
    const std::string obj = "Line " + std::to_string(lines_.size() + 1) + " (" + model.name() + ")";
    for (int p : {a, b})
      if (p < 0 || p >= static_cast<int>(points_.size()))
        throw InputError(obj, "end point", p + 1, "an existing point (1.." + std::to_string(points_.size()) + ")");
    if (a == b) throw InputError(obj, "end points", a + 1, "two different points");
    SystemLine<T> L{std::move(model), {a, b}};
    lines_.push_back(std::move(L));
    numbered_ = false;
    return static_cast<int>(lines_.size()) - 1;
  }

  std::size_t n_points() const { return points_.size(); }
  std::size_t n_lines() const { return lines_.size(); }
  const PointModel<T>& point(int p) const { return points_.at(static_cast<std::size_t>(p)); }
  /// A point, to edit (a held position, a dual seed). Renumber() after changing a kind.
  PointModel<T>& point(int p) { return points_.at(static_cast<std::size_t>(p)); }
  const SystemLine<T>& line(int l) const { return lines_.at(static_cast<std::size_t>(l)); }
  /// A line, to edit its model's sections (call model.rebuild() after).
  SystemLine<T>& line(int l) { return lines_.at(static_cast<std::size_t>(l)); }

  /// Numbers the free DOFs: each line's interior nodes as one block, then the free points.
  /// Throws InputError for a free point no line holds. Called by the members that need it.
  void renumber() {
    block_offset_.clear();
    Index off = 0;
    for (const auto& L : lines_) {
      block_offset_.push_back(off);
      off += 3 * static_cast<Index>(L.model.n_nodes() - 2);
    }
    n_line_dofs_ = off;
    point_dof_.assign(points_.size(), -1);
    std::vector<int> attached(points_.size(), 0);
    for (const auto& L : lines_) ++attached[static_cast<std::size_t>(L.point[0])], ++attached[static_cast<std::size_t>(L.point[1])];
    for (std::size_t p = 0; p < points_.size(); ++p) {
      if (points_[p].kind != PointKind::free) continue;
      if (attached[p] == 0)
        throw InputError("Point " + std::to_string(p + 1) + " (" + points_[p].name + ")", "lines attached", 0,
                         ">= 1 (a free point must be held by a line)");
      point_dof_[p] = off;
      off += 3;
    }
    n_dofs_ = off;
    wx_.assign(lines_.size(), VecX<T>());
    wv_ = wx_;
    wr_ = wx_;
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const auto n = static_cast<Index>(3 * lines_[l].model.n_nodes());
      wx_[l].setZero(n);
      wv_[l].setZero(n);
      wr_[l].setZero(n);
    }
    numbered_ = true;
  }

  /// Number of free DOFs.
  Index dofs() const {
    require_numbered();
    return n_dofs_;
  }
  /// First global DOF of point p (-1 when it is held).
  Index point_dof(int p) const {
    require_numbered();
    return point_dof_[static_cast<std::size_t>(p)];
  }
  /// First global DOF of node i of line l (-1 when the node is held: an end on a held point).
  Index node_dof(int l, std::size_t i) const {
    require_numbered();
    const auto& L = lines_[static_cast<std::size_t>(l)];
    const std::size_t n = L.model.n_nodes();
    if (i == 0) return point_dof_[static_cast<std::size_t>(L.point[0])];
    if (i + 1 == n) return point_dof_[static_cast<std::size_t>(L.point[1])];
    return block_offset_[static_cast<std::size_t>(l)] + 3 * static_cast<Index>(i - 1);
  }

  /// The Jacobian of this system's numbering (workspaces sized once).
  BorderedJacobian<T> make_jacobian() const {
    require_numbered();
    std::vector<BorderedBlockShape> blocks;
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      BorderedBlockShape s;
      s.name = "Line " + std::to_string(l + 1) + " (" + lines_[l].model.name() + ")";
      s.size = 3 * static_cast<Index>(lines_[l].model.n_nodes() - 2);
      s.half_bandwidth = 5;
      for (int end = 0; end < 2; ++end) {
        const Index d = point_dof_[static_cast<std::size_t>(lines_[l].point[end])];
        if (d >= 0)
          for (int c = 0; c < 3; ++c)
            if (std::find(s.coupled.begin(), s.coupled.end(), d - n_line_dofs_ + c) == s.coupled.end())
              s.coupled.push_back(d - n_line_dofs_ + c);
      }
      blocks.push_back(std::move(s));
    }
    return BorderedJacobian<T>(std::move(blocks), n_dofs_ - n_line_dofs_, name_);
  }

  /// A first state: free points where the deck puts them, every line's interior nodes evenly
  /// on the chord between its end points (the static solve seeds them better).
  SystemState<T> initial_state() {
    if (!numbered_) renumber();
    SystemState<T> s;
    s.q = VecX<T>::Zero(n_dofs_);
    s.v = VecX<T>::Zero(n_dofs_);
    s.a = VecX<T>::Zero(n_dofs_);
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (point_dof_[p] >= 0) s.q.template segment<3>(point_dof_[p]) = points_[p].r;
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const auto& L = lines_[l];
      const Vec3<T> a = points_[static_cast<std::size_t>(L.point[0])].r, b = points_[static_cast<std::size_t>(L.point[1])].r;
      const std::size_t n = L.model.n_nodes();
      for (std::size_t i = 1; i + 1 < n; ++i)
        s.q.template segment<3>(node_dof(static_cast<int>(l), i)) = a + (b - a) * T(double(i) / double(n - 1));
    }
    return s;
  }

  /// Position of point p in state s.
  Vec3<T> point_position(const SystemState<T>& s, int p) const {
    const Index d = point_dof(p);
    return d >= 0 ? Vec3<T>(s.q.template segment<3>(d)) : points_[static_cast<std::size_t>(p)].r;
  }

  /// The held points' kinematics (into h, whose vectors keep their storage once sized).
  void get_held(Held& h) const {
    h.r.resize(points_.size());
    h.v.resize(points_.size());
    h.a.resize(points_.size());
    for (std::size_t p = 0; p < points_.size(); ++p) h.r[p] = points_[p].r, h.v[p] = points_[p].v, h.a[p] = points_[p].a;
  }
  /// Sets the held points' kinematics (free points' entries are ignored).
  void set_held(const Held& h) {
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (points_[p].kind != PointKind::free) points_[p].r = h.r[p], points_[p].v = h.v[p], points_[p].a = h.a[p];
  }
  /// Sets coupled point p's position, velocity and acceleration (the host's input for the
  /// end of the next step). Throws InputError for a point that is not coupled or a
  /// non-finite value.
  void set_coupled(int p, const Vec3<T>& r, const Vec3<T>& v, const Vec3<T>& a = Vec3<T>::Zero()) {
    auto& P = points_.at(static_cast<std::size_t>(p));
    auto obj = [&] { return "Point " + std::to_string(p + 1) + " (" + P.name + ")"; };  // built on error only
    if (P.kind != PointKind::coupled) throw InputError(obj(), "attachment", "not Coupled", "a Coupled point");
    for (int c = 0; c < 3; ++c)
      if (!is_finite(r(c)) || !is_finite(v(c)) || !is_finite(a(c)))
        throw InputError(obj(), "coupled kinematics", "non-finite", "finite");
    P.r = r;
    P.v = v;
    P.a = a;
  }

  /// Throws NotImplementedError when a node of state s, or a held point the lines end on,
  /// lies above the still water (the system's line model takes every element as wetted), and
  /// SolveError for a non-finite DOF.
  void check_state(const State& s) const {
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (point_dof_[p] < 0 && value_of(points_[p].r(2)) > 0)
        throw NotImplementedError("Point " + std::to_string(p + 1) + " (" + points_[p].name + ")",
                                  "height above the still water", value_of(points_[p].r(2)),
                                  "<= 0 (the buoyancy lost above the surface is not in the system's line model yet)");
    for (Index i = 0; i < s.q.size(); ++i)
      if (!is_finite(s.q(i)) || !is_finite(s.v(i)))
        throw SolveError(name_, describe_dof(i) + " position or velocity", "non-finite", "finite");
    for (Index i = 2; i < s.q.size(); i += 3)
      if (value_of(s.q(i)) > 0)
        throw NotImplementedError(name_, describe_dof(i) + " height above the still water", value_of(s.q(i)),
                                  "<= 0 (the buoyancy lost above the surface is not in the system's line model yet)");
  }

  /// What DOF i moves, e.g. "Line 2 (riser) node 5" or "Point 3 (buoy)" (nodes counted from 1
  /// at End A).
  std::string describe_dof(Index i) const {
    require_numbered();
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (point_dof_[p] >= 0 && i >= point_dof_[p] && i < point_dof_[p] + 3)
        return "Point " + std::to_string(p + 1) + " (" + points_[p].name + ")";
    for (std::size_t l = lines_.size(); l-- > 0;)
      if (i >= block_offset_[l] && i < n_line_dofs_) {
        return "Line " + std::to_string(l + 1) + " (" + lines_[l].model.name() + ") node " +
               std::to_string((i - block_offset_[l]) / 3 + 2);
      }
    return "DOF " + std::to_string(i);
  }

  /// The force scale of state s [N]: the largest of 1 N, every line's weight, every point's
  /// weight, buoyancy and load, and every line's end force (the scale of the Newton tests).
  double force_scale(const State& s) const {
    double scale = 1;
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      scale = std::max(scale, std::fabs(static_cast<double>(value_of(lines_[l].model.weight()))));
      for (int e = 0; e < 2; ++e) {
        const Vec3<T> f = line_end_force(s, static_cast<int>(l), e);
        for (int c = 0; c < 3; ++c) scale = std::max(scale, std::fabs(static_cast<double>(value_of(f(c)))));
      }
    }
    for (std::size_t p = 0; p < points_.size(); ++p) {
      const Vec3<T> f = point_static_load(static_cast<int>(p));
      for (int c = 0; c < 3; ++c) scale = std::max(scale, std::fabs(static_cast<double>(value_of(f(c)))));
    }
    return scale;
  }

  /// Node positions (which = 0), velocities (1) or accelerations (2) of line l: the free
  /// DOFs from `free`, a held end from its point's r, v or a.
  void line_gather(const VecX<T>& free, int l, int which, VecX<T>& x) const {
    const auto& L = lines_[static_cast<std::size_t>(l)];
    const std::size_t n = L.model.n_nodes();
    x.resize(static_cast<Index>(3 * n));
    for (std::size_t i = 0; i < n; ++i) {
      const Index d = node_dof(l, i);
      if (d >= 0) {
        x.template segment<3>(static_cast<Index>(3 * i)) = free.template segment<3>(d);
      } else {
        const auto& P = points_[static_cast<std::size_t>(L.point[i == 0 ? 0 : 1])];
        x.template segment<3>(static_cast<Index>(3 * i)) = which == 0 ? P.r : which == 1 ? P.v : P.a;
      }
    }
  }

  /// Dynamic force r(q, v) = f_int + f_damp - f_ext on the free DOFs (spec "Time
  /// integration": M a + r = 0): every line's (LineModel::dynamic_residual) and, on a free
  /// point, minus its weight and buoyancy, its constant load, its seabed contact
  /// (point_contact) and its drag 1/2 rho CdA |u_r| u_r, u_r = U - v. With J (not zeroed here) adds wq dr/dq + wv dr/dv.
  void dynamic_residual(const SystemState<T>& s, VecX<T>& R, BorderedJacobian<T>* J, const T& wq, const T& wv) const {
    using std::sqrt;
    require_numbered();
    R.setZero(n_dofs_);
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const int li = static_cast<int>(l);
      line_gather(s.q, li, 0, wx_[l]);
      line_gather(s.v, li, 1, wv_[l]);
      Router route{this, li, J};
      lines_[l].model.dynamic_residual(wx_[l], wv_[l], current_, wr_[l], J ? &route : nullptr, wq, wv);
      scatter(li, wr_[l], R);
    }
    for (std::size_t p = 0; p < points_.size(); ++p) {
      const Index d = point_dof_[p];
      if (d < 0) continue;
      const auto& P = points_[p];
      R.template segment<3>(d) -= point_static_load(static_cast<int>(p));
      const auto c = point_contact(static_cast<int>(p), s.q(d + 2), s.v(d + 2));
      R(d + 2) -= c.f;
      if (J && (value_of(c.df_dz) != 0 || value_of(c.df_dvz) != 0)) J->add(d + 2, d + 2, -(wq * c.df_dz + wv * c.df_dvz));
      if (P.CdA > 0) {
        const Vec3<T> ur = current_.template cast<T>() - Vec3<T>(s.v.template segment<3>(d));
        const T un = sqrt(ur.squaredNorm());
        const T k = T(0.5 * env_.rho_w * P.CdA);
        R.template segment<3>(d) -= k * un * ur;
        if (J && value_of(un) > 0) {
          // d(-k |u| u)/dv = k (|u| I + u u^T / |u|) (u = U - v).
          J->add3(d, d, Mat3<T>(wv * k * (un * Mat3<T>::Identity() + ur * ur.transpose() / un)));
        }
      }
    }
  }

  /// Inertia M(q) a on the free DOFs (Ma overwritten): the lines' (structural and added
  /// mass, their held ends' accelerations included) and the points' (m + Ca rho V) a. With J
  /// (not zeroed here) adds wm M + wq d(M a)/dq.
  void inertia(const SystemState<T>& s, VecX<T>& Ma, BorderedJacobian<T>* J, const T& wm, const T& wq) const {
    require_numbered();
    Ma.setZero(n_dofs_);
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const int li = static_cast<int>(l);
      line_gather(s.q, li, 0, wx_[l]);
      line_gather(s.a, li, 2, wv_[l]);
      Router route{this, li, J};
      lines_[l].model.inertia(wx_[l], wv_[l], wr_[l], J ? &route : nullptr, wm, wq);
      scatter(li, wr_[l], Ma);
    }
    for (std::size_t p = 0; p < points_.size(); ++p) {
      const Index d = point_dof_[p];
      if (d < 0) continue;
      const T m = point_mass(static_cast<int>(p));
      Ma.template segment<3>(d) += m * s.a.template segment<3>(d);
      if (J) J->add3(d, d, Mat3<T>(wm * m * Mat3<T>::Identity()));
    }
  }

  /// Mass of point p with its added mass, m + Ca rho V [kg].
  T point_mass(int p) const {
    const auto& P = points_[static_cast<std::size_t>(p)];
    return P.mass + T(P.Ca * env_.rho_w) * P.volume;
  }

  /// Kinetic energy [J]: every line's 1/2 v^T M(x) v over all its nodes (held ends
  /// included, added mass included) and every free point's 1/2 (m + Ca rho V) |v|^2.
  T kinetic_energy(const SystemState<T>& s) const {
    T E = T(0);
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const int li = static_cast<int>(l);
      line_gather(s.q, li, 0, wx_[l]);
      line_gather(s.v, li, 1, wv_[l]);
      lines_[l].model.template inertia<Router>(wx_[l], wv_[l], wr_[l], nullptr, T(0), T(0));
      E += T(0.5) * wv_[l].dot(wr_[l]);
    }
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (point_dof_[p] >= 0)
        E += T(0.5) * point_mass(static_cast<int>(p)) * s.v.template segment<3>(point_dof_[p]).squaredNorm();
    return E;
  }

  /// The external static load on point p: its weight and buoyancy, (0, 0, (rho V - m) g),
  /// plus its constant load [N].
  Vec3<T> point_static_load(int p) const {
    const auto& P = points_[static_cast<std::size_t>(p)];
    return Vec3<T>(T(0), T(0), (T(env_.rho_w) * P.volume - P.mass) * T(env_.g)) + P.load;
  }

  /// Static residual R = f_int - f_ext on the free DOFs (spec "Static equilibrium") and, with
  /// J (from make_jacobian(), zeroed here), its tangent dR/dq. compression_ratio >= 0 gives
  /// every element's compressed branch r EA (the tension-only stages of the statics).
  void static_residual(const SystemState<T>& s, VecX<T>& R, BorderedJacobian<T>* J,
                       double compression_ratio = -1) const {
    require_numbered();
    R.setZero(n_dofs_);
    if (J) J->set_zero();
    VecX<T> x, Rl;
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      const int li = static_cast<int>(l);
      line_gather(s.q, li, 0, x);
      Router route{this, li, J};
      lines_[l].model.static_residual(x, Rl, J ? &route : nullptr, compression_ratio);
      for (std::size_t i = 0; i < lines_[l].model.n_nodes(); ++i) {
        const Index d = node_dof(li, i);
        if (d >= 0) R.template segment<3>(d) += Rl.template segment<3>(static_cast<Index>(3 * i));
      }
    }
    for (std::size_t p = 0; p < points_.size(); ++p) {
      const Index d = point_dof_[p];
      if (d < 0) continue;
      R.template segment<3>(d) -= point_static_load(static_cast<int>(p));
      const auto c = point_contact(static_cast<int>(p), s.q(d + 2), T(0));
      R(d + 2) -= c.f;
      if (J && value_of(c.df_dz) != 0) J->add(d + 2, d + 2, -c.df_dz);
    }
  }

  /// Total potential energy of the system in state s [J]: every line's, and the points'
  /// weight and buoyancy potential (m - rho V) g z and the potential -F . r of their constant
  /// loads (the energy whose gradient is static_residual).
  T potential_energy(const SystemState<T>& s, double compression_ratio = -1) const {
    T E = T(0);
    VecX<T> x;
    for (std::size_t l = 0; l < lines_.size(); ++l) {
      line_gather(s.q, static_cast<int>(l), 0, x);
      E += lines_[l].model.potential_energy(x, compression_ratio);
    }
    for (std::size_t p = 0; p < points_.size(); ++p)
      if (point_dof_[p] >= 0) {
        const Vec3<T> r = point_position(s, static_cast<int>(p));
        E -= point_static_load(static_cast<int>(p)).dot(r);
        E += point_contact(static_cast<int>(p), r(2), T(0)).energy;
      }
    return E;
  }

  /// The static force line l exerts on the object at its end (0: End A, 1: End B) in state s
  /// [N]: minus the line's residual at its end node, i.e. the end element's tension along
  /// the chord plus the end node's share of weight and seabed reaction (spec "Tension and
  /// coupled loads").
  Vec3<T> line_end_force(const SystemState<T>& s, int l, int end) const {
    VecX<T> x, Rl;
    line_gather(s.q, l, 0, x);
    const auto& L = lines_[static_cast<std::size_t>(l)];
    L.model.template static_residual<Router>(x, Rl, nullptr);
    const std::size_t i = end == 0 ? 0 : L.model.n_nodes() - 1;
    return -Rl.template segment<3>(static_cast<Index>(3 * i));
  }

  /// The dynamic force line l exerts on the object at its end in state s [N]: minus the line's
  /// dynamic residual and inertia at its end node, -(f_int + f_damp - f_ext + (M a))_end, the
  /// held ends' kinematics those the system holds (spec "Tension and coupled loads": the
  /// coupled load of a line end).
  Vec3<T> line_end_force_dynamic(const SystemState<T>& s, int l, int end) const {
    const auto li = static_cast<std::size_t>(l);
    line_gather(s.q, l, 0, wx_[li]);
    line_gather(s.v, l, 1, wv_[li]);
    line_gather(s.a, l, 2, wr_[li]);
    return lines_[li].model.end_load(wx_[li], wv_[li], wr_[li], current_, end);
  }

  /// Elastic tension of element e of line l in state s [N].
  T line_tension(const SystemState<T>& s, int l, std::size_t e) const {
    VecX<T> x;
    line_gather(s.q, l, 0, x);
    return lines_[static_cast<std::size_t>(l)].model.tension(x, e);
  }

 private:
  // Routes a line's node blocks to the system Jacobian; blocks with a held node are dropped.
  struct Router {
    const MooringSystem* sys;
    int line;
    BorderedJacobian<T>* J;
    void add(std::size_t i, std::size_t j, const Mat3<T>& B) {
      const Index di = sys->node_dof(line, i), dj = sys->node_dof(line, j);
      if (di >= 0 && dj >= 0) J->add3(di, dj, B);
    }
  };

  // Adds a line's node vector into the free DOFs.
  void scatter(int l, const VecX<T>& Rl, VecX<T>& R) const {
    for (std::size_t i = 0; i < lines_[static_cast<std::size_t>(l)].model.n_nodes(); ++i) {
      const Index d = node_dof(l, i);
      if (d >= 0) R.template segment<3>(d) += Rl.template segment<3>(static_cast<Index>(3 * i));
    }
  }

  void require_numbered() const {
    if (!numbered_) throw InputError(name_, "DOF numbering", "stale", "renumber() after adding points or lines");
  }

  Environment env_;
  SeabedModel seabed_;
  std::string name_;
  std::vector<PointModel<T>> points_;
  std::vector<SystemLine<T>> lines_;
  bool numbered_ = false;
  std::vector<Index> block_offset_, point_dof_;
  Index n_line_dofs_ = 0, n_dofs_ = 0;
  Vec3<double> current_ = Vec3<double>::Zero();
  mutable std::vector<VecX<T>> wx_, wv_, wr_;  // per-line workspaces, sized by renumber()
};

}  // namespace cabledyn
