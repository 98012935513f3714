// cabledyn: a small graph of nodes joined by edges, with coupling groups.
// The framework the spring-damper spec assumes (spec spring-damper-node.md: boundary inputs,
// flux edges, coupling groups, GraphManager.compile()), in C++ value semantics:
//  - a node is any value type satisfying GraphNode (named state, input and flux fields, a
//    `step` and `boundary_fluxes` taking live parameter overrides); the graph owns a copy;
//  - an edge carries a source field (state or flux) to a target input, through an optional
//    transform, either replacing the input (at most one replacing writer per input) or
//    adding to it;
//  - a coupling group iterates its members to a fixed point inside each step, by
//    Gauss-Seidel or Jacobi passes; every pass re-integrates each member from its pre-step
//    state with the latest inputs;
//  - without a group, nodes run once per step in the schedule (insertion order, a group at
//    the place of its first member), so an edge pointing backwards in the schedule reads
//    the previous step's value (lagged).
// After compile(), a step allocates nothing for a plain floating scalar: every buffer is
// sized at compile time.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "cabledyn/core/eigen.hpp"
#include "cabledyn/core/errors.hpp"
#include "cabledyn/core/scalar.hpp"
#include "cabledyn/nodes/advisory.hpp"
#include "cabledyn/nodes/anchored_pair_advisory.hpp"

namespace cabledyn {

/// Handle of a node in a Graph.
struct NodeId {
  std::size_t index = 0;
  friend bool operator==(NodeId, NodeId) = default;
};
/// Handle of an edge in a Graph.
struct EdgeId {
  std::size_t index = 0;
  friend bool operator==(EdgeId, EdgeId) = default;
};
/// Handle of a coupling group in a Graph.
struct GroupId {
  std::size_t index = 0;
  friend bool operator==(GroupId, GroupId) = default;
};

/// What a field of a node is: a state variable, a boundary input or a boundary flux.
enum class FieldKind { state, input, flux };

/// A named field of one node, resolved to its kind and index (Graph::field).
struct FieldRef {
  NodeId node;
  FieldKind kind = FieldKind::state;
  int index = 0;
  std::string name;
};

/// A node the graph can run: fixed-size Eigen State, Inputs and Fluxes named by the static
/// tables kStateFields, kInputFields, kFluxFields; an Overrides type of live parameters;
/// initial_state(overrides), default_inputs(), step(state, inputs, dt, overrides) and
/// boundary_fluxes(state, inputs, overrides).
template <class N>
concept GraphNode = requires(const N& n, const typename N::State& s, const typename N::Inputs& u,
                             const typename N::Scalar& dt, const typename N::Overrides& o) {
  requires std::is_copy_constructible_v<N>;
  requires std::is_default_constructible_v<typename N::Overrides>;
  requires N::State::SizeAtCompileTime == static_cast<int>(N::kStateFields.size());
  requires N::Inputs::SizeAtCompileTime == static_cast<int>(N::kInputFields.size());
  requires N::Fluxes::SizeAtCompileTime == static_cast<int>(N::kFluxFields.size());
  { n.initial_state(o) } -> std::convertible_to<typename N::State>;
  { n.default_inputs() } -> std::convertible_to<typename N::Inputs>;
  { n.step(s, u, dt, o) } -> std::convertible_to<typename N::State>;
  { n.boundary_fluxes(s, u, o) } -> std::convertible_to<typename N::Fluxes>;
};

/// The transform an edge applies to the value it carries.
template <class T>
struct EdgeTransform {
  std::string name = "identity";
  std::function<T(const T&)> fn;  ///< empty: the identity
  bool builtin_identity = true;   ///< true only for EdgeTransform::identity()

  /// The built-in identity (recognised as "no transform" by the advisories).
  static EdgeTransform identity() { return {}; }
  /// Multiplies by a constant s.
  static EdgeTransform scale(double s) {
    return {"scale(" + to_text(s) + ")", [s](const T& x) { return T(T(s) * x); }, false};
  }
  /// A user function, named for messages. Never treated as the identity, even when it is.
  static EdgeTransform custom(std::string name, std::function<T(const T&)> f) {
    return {std::move(name), std::move(f), false};
  }
  T operator()(const T& x) const { return fn ? T(fn(x)) : x; }
};

/// How an edge writes its target input.
template <class T>
struct EdgeOptions {
  std::optional<EdgeTransform<T>> transform;  ///< none: the value as is
  bool additive = false;  ///< add to the input (after any replacing writer) instead of set
};

/// An edge of the graph.
template <class T>
struct Edge {
  FieldRef source;  ///< a state or flux field
  FieldRef target;  ///< an input field
  EdgeOptions<T> options;
  /// True when no transform or the built-in identity is applied.
  bool is_identity() const { return !options.transform || options.transform->builtin_identity; }
};

/// The passes of a coupling group.
enum class CouplingScheme {
  gauss_seidel,  ///< each member reads the latest values of the members before it
  jacobi         ///< every member reads the previous pass's values
};

/// Options of a coupling group.
struct CouplingOptions {
  std::string name;         ///< for messages; "group <i>" when empty
  int max_iterations = 50;  ///< passes per step, >= 1 (1: a single pass, no convergence test)
  /// Converged when the largest change of a member state field between two passes is
  /// <= tolerance * max(1, largest |member state field|).
  double tolerance = 1e-12;
  CouplingScheme scheme = CouplingScheme::gauss_seidel;
  /// Throw SolveError (and roll the step back) when max_iterations >= 2 passes do not
  /// converge; otherwise the last pass is kept and the report says so.
  bool require_convergence = false;
};

/// A coupling group: members in pass order, and its options.
struct CouplingGroup {
  std::vector<NodeId> members;
  CouplingOptions options;
};

/// What the last step of a coupling group did.
struct CouplingReport {
  int iterations = 0;      ///< passes made
  bool converged = false;  ///< the tolerance was met (never for max_iterations = 1)
  double increment = 0;    ///< last change between passes, relative to max(1, |state|)
};

/// What compile() found.
struct CompileReport {
  std::vector<Advisory> advisories;
  std::vector<std::string> schedule;  ///< node names (a group as "[a, b]") in run order
};

namespace detail {

template <class T>
class AnyNode {
 public:
  virtual ~AnyNode() = default;
  virtual int state_size() const = 0;
  virtual int input_size() const = 0;
  virtual int flux_size() const = 0;
  virtual std::string_view field_name(FieldKind kind, int i) const = 0;
  virtual void initial_state(T* out) const = 0;
  virtual void default_inputs(T* out) const = 0;
  virtual void step(const T* s, const T* u, const T& dt, T* out) const = 0;
  virtual void fluxes(const T* s, const T* u, T* out) const = 0;
};

template <class T, class N>
class NodeModel final : public AnyNode<T> {
 public:
  using State = typename N::State;
  using Inputs = typename N::Inputs;
  using Fluxes = typename N::Fluxes;
  explicit NodeModel(N n) : node(std::move(n)) {}

  int state_size() const override { return State::SizeAtCompileTime; }
  int input_size() const override { return Inputs::SizeAtCompileTime; }
  int flux_size() const override { return Fluxes::SizeAtCompileTime; }
  std::string_view field_name(FieldKind kind, int i) const override {
    const auto k = static_cast<std::size_t>(i);
    switch (kind) {
      case FieldKind::state: return N::kStateFields[k];
      case FieldKind::input: return N::kInputFields[k];
      default: return N::kFluxFields[k];
    }
  }
  void initial_state(T* out) const override { write(node.initial_state(overrides), out); }
  void default_inputs(T* out) const override { write(Inputs(node.default_inputs()), out); }
  void step(const T* s, const T* u, const T& dt, T* out) const override {
    write(State(node.step(read<State>(s), read<Inputs>(u), dt, overrides)), out);
  }
  void fluxes(const T* s, const T* u, T* out) const override {
    write(Fluxes(node.boundary_fluxes(read<State>(s), read<Inputs>(u), overrides)), out);
  }

  N node;
  typename N::Overrides overrides{};

 private:
  template <class V>
  static V read(const T* p) {
    V v;
    for (Eigen::Index i = 0; i < v.size(); ++i) v(i) = p[i];
    return v;
  }
  template <class V>
  static void write(const V& v, T* p) {
    for (Eigen::Index i = 0; i < v.size(); ++i) p[i] = v(i);
  }
};

}  // namespace detail

/// A graph of nodes over the scalar T with a base timestep dt [s]. Each node runs at its
/// own timestep, an integer multiple r of dt: it steps on graph steps n with n % r == 0,
/// integrating over its own timestep, and holds its state in between.
template <class T>
class Graph {
 public:
  using Scalar = T;

  /// Throws InputError unless dt is finite and > 0.
  explicit Graph(double dt) : dt_(dt) { detail::require_timestep(dt, "Graph"); }

  /// Base timestep [s].
  double dt() const noexcept { return dt_; }

  /// Adds a copy of `node` named `name` (unique, non-empty) with its own timestep (default
  /// the graph's). Invalidates the compilation.
  template <GraphNode N>
    requires std::is_same_v<typename N::Scalar, T>
  NodeId add_node(std::string name, N node, std::optional<double> timestep = std::nullopt) {
    if (name.empty()) throw InputError("Graph", "node name", "\"\"", "non-empty");
    for (const auto& r : nodes_)
      if (r.name == name) throw InputError("Graph", "node name", name, "unique");
    const double ts = timestep.value_or(dt_);
    detail::require_timestep(ts, node_object_text(name));
    NodeRecord rec;
    rec.name = std::move(name);
    rec.timestep = ts;
    rec.model = std::make_unique<detail::NodeModel<T, N>>(std::move(node));
    rec.base_inputs.resize(static_cast<std::size_t>(rec.model->input_size()));
    rec.model->default_inputs(rec.base_inputs.data());
    rec.input_functions.resize(rec.base_inputs.size());
    nodes_.push_back(std::move(rec));
    compiled_ = false;
    return NodeId{nodes_.size() - 1};
  }

  /// The field `name` of a node (a state, input or flux field), or InputError naming the
  /// node and the field.
  FieldRef field(NodeId id, std::string_view name) const {
    const auto& m = *record(id).model;
    for (FieldKind kind : {FieldKind::state, FieldKind::input, FieldKind::flux}) {
      const int n = size_of(m, kind);
      for (int i = 0; i < n; ++i)
        if (m.field_name(kind, i) == name) return FieldRef{id, kind, i, std::string(name)};
    }
    throw InputError(node_object(id), "field", std::string(name),
                     "a state, input or flux field of the node");
  }

  /// Adds an edge from a state or flux field to an input field. Invalidates the
  /// compilation; the one-replacing-writer rule is checked by compile().
  EdgeId connect(const FieldRef& from, const FieldRef& to, EdgeOptions<T> options = {}) {
    record(from.node);
    record(to.node);
    if (from.kind == FieldKind::input)
      throw InputError(node_object(from.node), "edge source " + from.name, "an input field",
                       "a state or flux field");
    if (to.kind != FieldKind::input)
      throw InputError(node_object(to.node), "edge target " + to.name, "not an input field",
                       "an input field");
    if (options.transform && !options.transform->builtin_identity && !options.transform->fn)
      throw InputError("Graph", "edge transform " + options.transform->name, "empty function",
                       "callable");
    edges_.push_back(Edge<T>{from, to, std::move(options)});
    compiled_ = false;
    return EdgeId{edges_.size() - 1};
  }
  /// connect(field(from, from_field), field(to, to_field), options).
  EdgeId connect(NodeId from, std::string_view from_field, NodeId to, std::string_view to_field,
                 EdgeOptions<T> options = {}) {
    return connect(field(from, from_field), field(to, to_field), std::move(options));
  }

  /// Adds a coupling group; members in pass order, each node in at most one group.
  GroupId add_coupling_group(std::vector<NodeId> members, CouplingOptions options = {}) {
    const std::string gname =
        options.name.empty() ? "group " + std::to_string(groups_.size()) : options.name;
    if (members.empty()) throw InputError("coupling group '" + gname + "'", "members", 0, ">= 1");
    if (options.max_iterations < 1)
      throw InputError("coupling group '" + gname + "'", "max_iterations", options.max_iterations,
                       ">= 1");
    if (!(std::isfinite(options.tolerance) && options.tolerance > 0))
      throw InputError("coupling group '" + gname + "'", "tolerance", options.tolerance, "> 0");
    for (std::size_t i = 0; i < members.size(); ++i) {
      record(members[i]);
      for (std::size_t j = 0; j < i; ++j)
        if (members[j] == members[i])
          throw InputError("coupling group '" + gname + "'", "member",
                           nodes_[members[i].index].name, "listed once");
      if (auto g = group_of(members[i]))
        throw InputError("coupling group '" + gname + "'", "member",
                         nodes_[members[i].index].name,
                         "in no other group (already in '" + groups_[g->index].options.name + "')");
    }
    options.name = gname;
    groups_.push_back(CouplingGroup{std::move(members), std::move(options)});
    group_reports_.emplace_back();
    compiled_ = false;
    return GroupId{groups_.size() - 1};
  }

  /// The live parameter overrides of node `id` of type N (the spec's gm.params entry): the
  /// graph's steps use them; compile() judges the values they hold at compile time.
  template <class N>
  typename N::Overrides& params(NodeId id) {
    return model_as<N>(id).overrides;
  }
  template <class N>
  const typename N::Overrides& params(NodeId id) const {
    return model_as<N>(id).overrides;
  }
  /// The node `id` if it is exactly of type N (not a wrapper or a subclass), else null.
  template <class N>
  const N* node_if(NodeId id) const {
    auto* m = dynamic_cast<const detail::NodeModel<T, N>*>(record(id).model.get());
    return m ? &m->node : nullptr;
  }
  /// The live overrides of node `id` if it is exactly of type N, else null.
  template <class N>
  const typename N::Overrides* params_if(NodeId id) const {
    auto* m = dynamic_cast<const detail::NodeModel<T, N>*>(record(id).model.get());
    return m ? &m->overrides : nullptr;
  }

  /// Validates the graph (timesteps, one replacing writer per input), fixes the schedule,
  /// sizes every buffer, initialises the state of nodes not yet initialised from their live
  /// parameters, and runs the advisories: each goes to `sink` and into the report. Never
  /// refuses a graph for an advisory. Throws InputError for an invalid graph.
  CompileReport compile(const WarningSink& sink = WarningSink(stderr_warning_sink)) {
    compiled_ = false;
    // Timesteps: integer multiples of dt.
    ratio_.assign(nodes_.size(), 1);
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const double q = nodes_[i].timestep / dt_;
      const double r = std::round(q);
      if (!(r >= 1 && std::fabs(q - r) <= 1e-9 * q))
        throw InputError(node_object(NodeId{i}), "timestep", nodes_[i].timestep,
                         "an integer multiple of the graph dt = " + to_text(dt_));
      ratio_[i] = static_cast<std::size_t>(r);
    }
    // At most one replacing writer per input.
    for (std::size_t a = 0; a < edges_.size(); ++a) {
      if (edges_[a].options.additive) continue;
      int writers = 1;
      for (std::size_t b = a + 1; b < edges_.size(); ++b)
        if (!edges_[b].options.additive && same_input(edges_[a].target, edges_[b].target))
          ++writers;
      if (writers > 1)
        throw InputError(node_object(edges_[a].target.node),
                         "replacing writers of " + edges_[a].target.name, writers, "<= 1");
    }
    // Incoming edges per node: replacing ones first, then additive, each in edge order.
    in_offsets_.assign(nodes_.size() + 1, 0);
    for (const auto& e : edges_) ++in_offsets_[e.target.node.index + 1];
    for (std::size_t i = 0; i < nodes_.size(); ++i) in_offsets_[i + 1] += in_offsets_[i];
    in_edges_.assign(edges_.size(), 0);
    {
      std::vector<std::size_t> fill(in_offsets_.begin(), in_offsets_.end() - 1);
      for (int pass = 0; pass < 2; ++pass)
        for (std::size_t k = 0; k < edges_.size(); ++k)
          if (edges_[k].options.additive == (pass == 1))
            in_edges_[fill[edges_[k].target.node.index]++] = k;
    }
    // Schedule: insertion order; a group at the place of its first member.
    group_index_.assign(nodes_.size(), -1);
    for (std::size_t g = 0; g < groups_.size(); ++g)
      for (const auto& m : groups_[g].members) group_index_[m.index] = static_cast<std::ptrdiff_t>(g);
    schedule_.clear();
    CompileReport report;
    std::vector<bool> group_done(groups_.size(), false);
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (auto g = group_of(NodeId{i})) {
        if (group_done[g->index]) continue;
        group_done[g->index] = true;
        schedule_.push_back({true, g->index});
        std::string s = "[";
        for (std::size_t k = 0; k < groups_[g->index].members.size(); ++k)
          s += (k ? ", " : "") + nodes_[groups_[g->index].members[k].index].name;
        report.schedule.push_back(s + "]");
      } else {
        schedule_.push_back({false, i});
        report.schedule.push_back(nodes_[i].name);
      }
    }
    // Buffers (appending nodes keeps the offsets, hence the state, of the earlier ones).
    state_off_.assign(nodes_.size() + 1, 0);
    input_off_.assign(nodes_.size() + 1, 0);
    int max_state = 0, max_flux = 0;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      const auto& m = *nodes_[i].model;
      state_off_[i + 1] = state_off_[i] + static_cast<std::size_t>(m.state_size());
      input_off_[i + 1] = input_off_[i] + static_cast<std::size_t>(m.input_size());
      max_state = std::max(max_state, m.state_size());
      max_flux = std::max(max_flux, m.flux_size());
    }
    state_.resize(state_off_.back(), T(0));
    inputs_.resize(input_off_.back(), T(0));
    step_start_.resize(state_.size(), T(0));
    step_start_inputs_.resize(inputs_.size(), T(0));
    pre_.resize(state_.size(), T(0));
    iterate_.resize(state_.size(), T(0));
    tmp_.assign(static_cast<std::size_t>(max_state), T(0));
    flux_tmp_.assign(static_cast<std::size_t>(max_flux), T(0));
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (!nodes_[i].initialised) initialise(i);
    compiled_ = true;
    // Advisories (judged on the live parameter values held now).
    report.advisories = anchored_pair_advisories(*this);
    for (const auto& a : report.advisories)
      if (sink) sink(a);
    advisories_ = report.advisories;
    return report;
  }

  /// True after compile() and until the graph's structure changes.
  bool compiled() const noexcept { return compiled_; }

  /// Re-initialises every state from its node's live initial values and sets the time to 0.
  void reset() {
    require_compiled();
    for (std::size_t i = 0; i < nodes_.size(); ++i) initialise(i);
    step_index_ = 0;
  }

  /// Advances the graph by dt. On an exception (a node's named error, a coupling group
  /// that must converge and does not) every state is rolled back to its value at the start
  /// of the step and the time does not advance.
  void step() {
    require_compiled();
    std::copy(state_.begin(), state_.end(), step_start_.begin());
    std::copy(inputs_.begin(), inputs_.end(), step_start_inputs_.begin());
    try {
      for (const auto& entry : schedule_) {
        if (entry.group) {
          step_group(entry.index);
        } else if (fires(entry.index)) {
          gather(entry.index, false);
          advance(entry.index, state_.data());
        }
      }
    } catch (...) {
      std::copy(step_start_.begin(), step_start_.end(), state_.begin());
      std::copy(step_start_inputs_.begin(), step_start_inputs_.end(), inputs_.begin());
      throw;
    }
    ++step_index_;
  }
  /// `steps` calls of step().
  void run(std::size_t steps) {
    for (std::size_t k = 0; k < steps; ++k) step();
  }

  /// Time [s] (steps taken times dt).
  double time() const noexcept { return static_cast<double>(step_index_) * dt_; }
  std::size_t steps_taken() const noexcept { return step_index_; }

  /// The current value of a state field, the last input a node stepped with (its base value
  /// before the first step), or a flux computed from the current state and those inputs.
  T value(NodeId id, std::string_view name) const {
    require_compiled();
    const FieldRef f = field(id, name);
    return read_field(f, state_.data());
  }
  /// Overwrites a state field (the node then counts as initialised).
  void set_state(NodeId id, std::string_view name, const T& v) {
    require_compiled();
    const FieldRef f = field(id, name);
    if (f.kind != FieldKind::state)
      throw InputError(node_object(id), "set_state field", f.name, "a state field");
    state_[state_off_[id.index] + static_cast<std::size_t>(f.index)] = v;
  }
  /// Sets the base value of an input: what the node reads when no replacing edge writes it
  /// (additive edges add to it). Clears an input function of the same input.
  void set_input(NodeId id, std::string_view name, const T& v) {
    const FieldRef f = input_field(id, name);
    auto& rec = nodes_[id.index];
    rec.base_inputs[static_cast<std::size_t>(f.index)] = v;
    rec.input_functions[static_cast<std::size_t>(f.index)] = nullptr;
    if (compiled_) inputs_[input_off_[id.index] + static_cast<std::size_t>(f.index)] = v;
  }
  /// Prescribes the base value of an input as a function of time, sampled at the start of
  /// each of the node's steps.
  void set_input_function(NodeId id, std::string_view name, std::function<T(const T&)> fn) {
    const FieldRef f = input_field(id, name);
    if (!fn) throw InputError(node_object(id), "input function of " + f.name, "empty", "callable");
    nodes_[id.index].input_functions[static_cast<std::size_t>(f.index)] = std::move(fn);
  }

  // ---- introspection (used by the advisories) ---------------------------------------
  std::size_t node_count() const noexcept { return nodes_.size(); }
  const std::string& name(NodeId id) const { return record(id).name; }
  /// The node's own timestep [s].
  double timestep(NodeId id) const { return record(id).timestep; }
  const std::vector<Edge<T>>& edges() const noexcept { return edges_; }
  const std::vector<CouplingGroup>& groups() const noexcept { return groups_; }
  /// The group of a node, if any.
  std::optional<GroupId> group_of(NodeId id) const {
    for (std::size_t g = 0; g < groups_.size(); ++g)
      for (const auto& m : groups_[g].members)
        if (m == id) return GroupId{g};
    return std::nullopt;
  }
  /// What the group's last step did.
  const CouplingReport& report(GroupId g) const {
    if (g.index >= groups_.size()) throw InputError("Graph", "group id", g.index, "a group of this graph");
    return group_reports_[g.index];
  }
  /// The advisories of the last compile().
  const std::vector<Advisory>& advisories() const noexcept { return advisories_; }
  /// "node '<name>'".
  std::string node_object(NodeId id) const { return node_object_text(record(id).name); }

 private:
  struct NodeRecord {
    std::string name;
    double timestep = 0;
    std::unique_ptr<detail::AnyNode<T>> model;
    std::vector<T> base_inputs;
    std::vector<std::function<T(const T&)>> input_functions;
    bool initialised = false;
  };
  struct ScheduleEntry {
    bool group = false;
    std::size_t index = 0;
  };

  static std::string node_object_text(const std::string& name) { return "node '" + name + "'"; }
  static int size_of(const detail::AnyNode<T>& m, FieldKind k) {
    return k == FieldKind::state ? m.state_size()
                                 : k == FieldKind::input ? m.input_size() : m.flux_size();
  }
  static bool same_input(const FieldRef& a, const FieldRef& b) {
    return a.node == b.node && a.index == b.index;
  }

  const NodeRecord& record(NodeId id) const {
    if (id.index >= nodes_.size())
      throw InputError("Graph", "node id", id.index, "< " + std::to_string(nodes_.size()));
    return nodes_[id.index];
  }
  template <class N>
  detail::NodeModel<T, N>& model_as(NodeId id) const {
    auto* m = dynamic_cast<detail::NodeModel<T, N>*>(record(id).model.get());
    if (!m)
      throw InputError(node_object(id), "node type", typeid(N).name(), "the type it was added as");
    return *m;
  }
  FieldRef input_field(NodeId id, std::string_view name) const {
    const FieldRef f = field(id, name);
    if (f.kind != FieldKind::input)
      throw InputError(node_object(id), "input field", f.name, "a boundary input of the node");
    return f;
  }
  void require_compiled() const {
    if (!compiled_)
      throw InputError("Graph", "compiled", false, "compile() after every change of structure");
  }
  void initialise(std::size_t i) {
    auto& rec = nodes_[i];
    rec.model->initial_state(state_.data() + state_off_[i]);
    std::copy(rec.base_inputs.begin(), rec.base_inputs.end(),
              inputs_.begin() + static_cast<std::ptrdiff_t>(input_off_[i]));
    rec.initialised = true;
  }
  bool fires(std::size_t i) const { return step_index_ % ratio_[i] == 0; }

  // Value of a field of a node whose state is read from `states` (state_ or iterate_).
  T read_field(const FieldRef& f, const T* states) const {
    const std::size_t i = f.node.index;
    switch (f.kind) {
      case FieldKind::state: return states[state_off_[i] + static_cast<std::size_t>(f.index)];
      case FieldKind::input: return inputs_[input_off_[i] + static_cast<std::size_t>(f.index)];
      default: {
        nodes_[i].model->fluxes(states + state_off_[i], inputs_.data() + input_off_[i],
                                flux_tmp_.data());
        return flux_tmp_[static_cast<std::size_t>(f.index)];
      }
    }
  }

  // Fills the inputs of node i. `jacobi`: sources in i's own group are read from the
  // previous pass (iterate_), all others from the current state.
  void gather(std::size_t i, bool jacobi) {
    const auto& rec = nodes_[i];
    T* u = inputs_.data() + input_off_[i];
    const T t = T(time());
    for (std::size_t j = 0; j < rec.base_inputs.size(); ++j)
      u[j] = rec.input_functions[j] ? T(rec.input_functions[j](t)) : rec.base_inputs[j];
    for (std::size_t k = in_offsets_[i]; k < in_offsets_[i + 1]; ++k) {
      const Edge<T>& e = edges_[in_edges_[k]];
      const bool from_iterate = jacobi && group_index_[e.source.node.index] == group_index_[i];
      const T raw = read_field(e.source, from_iterate ? iterate_.data() : state_.data());
      const T v = e.options.transform ? (*e.options.transform)(raw) : raw;
      const auto j = static_cast<std::size_t>(e.target.index);
      if (e.options.additive)
        u[j] += v;
      else
        u[j] = v;
    }
  }

  // Steps node i from the state at `from` (same layout as state_) into state_.
  void advance(std::size_t i, const T* from) {
    const auto& rec = nodes_[i];
    const T h = T(rec.timestep);
    rec.model->step(from + state_off_[i], inputs_.data() + input_off_[i], h, tmp_.data());
    std::copy(tmp_.begin(), tmp_.begin() + rec.model->state_size(),
              state_.begin() + static_cast<std::ptrdiff_t>(state_off_[i]));
  }

  void copy_members(const CouplingGroup& g, const std::vector<T>& from, std::vector<T>& to) const {
    for (const auto& m : g.members)
      for (std::size_t k = state_off_[m.index]; k < state_off_[m.index + 1]; ++k) to[k] = from[k];
  }

  void step_group(std::size_t gi) {
    const CouplingGroup& g = groups_[gi];
    CouplingReport& rep = group_reports_[gi];
    bool any = false;
    for (const auto& m : g.members) any = any || fires(m.index);
    if (!any) return;
    const bool jacobi = g.options.scheme == CouplingScheme::jacobi;
    copy_members(g, state_, pre_);
    rep = CouplingReport{};
    using std::abs;
    for (int it = 1; it <= g.options.max_iterations; ++it) {
      copy_members(g, state_, iterate_);
      for (const auto& m : g.members) {
        if (!fires(m.index)) continue;
        gather(m.index, jacobi);
        advance(m.index, pre_.data());
      }
      value_type_t<T> inc = 0, scale = 1;
      for (const auto& m : g.members)
        for (std::size_t k = state_off_[m.index]; k < state_off_[m.index + 1]; ++k) {
          inc = std::max(inc, static_cast<value_type_t<T>>(abs(value_of(state_[k]) - value_of(iterate_[k]))));
          scale = std::max(scale, static_cast<value_type_t<T>>(abs(value_of(state_[k]))));
        }
      if (!std::isfinite(static_cast<double>(inc)))
        throw DomainError("coupling group '" + g.options.name + "'", "pass increment",
                          static_cast<double>(inc), "finite");
      rep.iterations = it;
      rep.increment = static_cast<double>(inc / scale);
      if (it >= 2 && rep.increment <= g.options.tolerance) {
        rep.converged = true;
        break;
      }
    }
    if (g.options.require_convergence && g.options.max_iterations >= 2 && !rep.converged)
      throw SolveError("coupling group '" + g.options.name + "'", "pass increment", rep.increment,
                       "<= " + to_text(g.options.tolerance) + " within " +
                           std::to_string(g.options.max_iterations) + " passes");
  }

  double dt_;
  std::vector<NodeRecord> nodes_;
  std::vector<Edge<T>> edges_;
  std::vector<CouplingGroup> groups_;
  std::vector<CouplingReport> group_reports_;
  std::vector<Advisory> advisories_;
  bool compiled_ = false;
  std::size_t step_index_ = 0;
  std::vector<std::size_t> ratio_, in_offsets_, in_edges_, state_off_, input_off_;
  std::vector<std::ptrdiff_t> group_index_;
  std::vector<ScheduleEntry> schedule_;
  std::vector<T> state_, inputs_, step_start_, step_start_inputs_, pre_, iterate_, tmp_;
  mutable std::vector<T> flux_tmp_;
};

}  // namespace cabledyn
