// The modal stiffness and mass on the free DOFs: K equals the dual Jacobian of the static
// residual in solver coordinates (Hermite, a Rigid end, an end spring, seabed contact), M the
// line mass, both with the held rows removed and the band kept; expand() maps back; a slack
// EI = 0 element carries nothing; bad states give named errors.
#include <catch2/catch.hpp>

#include "cabledyn/autodiff.hpp"
#include "modal_fixtures.hpp"

using namespace cabledyn;
using namespace modal_fixtures;

namespace {

// A bent, stretched Hermite state between the ends of `line` (deterministic).
VecX<double> bent_state(const Line& line) {
  VecX<double> q = straight_state(line);
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    const double s = line.s_node(i) / line.length();
    const auto r0 = static_cast<Index>(line.dof(i, 0));
    q(r0 + 1) += 2.0 * std::sin(kPi * s);
    q(r0 + 2) -= 3.0 * std::sin(kPi * s) + 0.5 * std::sin(2 * kPi * s);
    if (line.hermite()) {
      const auto m0 = static_cast<Index>(line.dof(i, 3));
      q(m0 + 1) += 2.0 * kPi / line.length() * std::cos(kPi * s);
      q(m0 + 2) -= (3.0 * kPi * std::cos(kPi * s) + kPi * std::cos(2 * kPi * s)) / line.length();
      q(m0) *= 1.001;
    }
  }
  return q;
}

// Solver-coordinate transform of `line`'s DOFs (a Rigid end's tangent in its basis).
MatX<double> solver_basis(const Line& line) {
  MatX<double> Q = MatX<double>::Identity(static_cast<Index>(line.dofs()), static_cast<Index>(line.dofs()));
  for (int end = 0; end < 2; ++end)
    if (line.hermite() && line.end(end).rotation == EndRotation::rigid)
      Q.block<3, 3>(static_cast<Index>(line.dof(line.end_node(end), 3)), static_cast<Index>(line.dof(line.end_node(end), 3))) =
          line.rigid_basis(end);
  return Q;
}

}  // namespace

TEST_CASE("Modal system: K is the dual Jacobian of the static residual on the free DOFs", "[modal][system]") {
  LineEnd a = at(Vec3<double>(0, 0, -30)), b = at(Vec3<double>(40, 5, -10));
  a.rotation = EndRotation::rigid;
  a.direction = Vec3<double>(1, 0.1, 0.4);
  b.rotation = EndRotation::spring;
  b.stiffness = 2e4;
  b.direction = Vec3<double>(1, 0.2, 0.3);
  const Line line("cable", {{type(5e7, 3e4, 30.0, 0.12, 1.0, 0.3), 45.0, 6}}, a, b);
  StaticProblem prob;
  prob.seabed_z = -26.0;  // the nodes near End A press into it
  prob.seabed.kBot = 3e5;
  const VecX<double> q = bent_state(line);
  const ModalSystem<double> sys = modal_system<double>(line, prob, q);
  const LineConstraints cons(line);
  // Reference: Q^T (dR/dq) Q by duals, and Q^T M Q, restricted to the free DOFs.
  const StaticLoadCase lc = modal_load_case(prob);
  auto Rf = [&](const auto& x) {
    using S = typename std::decay_t<decltype(x)>::Scalar;
    VecX<S> R;
    line_static_residual<S>(line, lc, VecX<S>(x), R);
    return R;
  };
  const MatX<double> J = jacobian(Rf, q);
  SymmetricBandMatrix<double> Mfull(static_cast<Index>(line.dofs()), line.half_bandwidth());
  line_mass<double>(line, q, Mfull);
  const MatX<double> Q = solver_basis(line);
  const MatX<double> Kref = Q.transpose() * J * Q, Mref = Q.transpose() * Mfull.to_dense() * Q;
  const Index m = sys.K.rows();
  REQUIRE(m == static_cast<Index>(line.dofs()) - 3 - 3 - 2);  // two end positions, two Rigid components
  CHECK(sys.K.kd() == line.half_bandwidth());
  int seabed_rows = 0;
  for (std::size_t node = 0; node < line.n_nodes(); ++node)
    if (q(static_cast<Index>(line.dof(node, 2))) < -26.0) ++seabed_rows;
  CHECK(seabed_rows >= 2);
  const double kscale = Kref.cwiseAbs().maxCoeff(), mscale = Mref.cwiseAbs().maxCoeff();
  for (Index c = 0; c < m; ++c)
    for (Index r = 0; r < m; ++r) {
      const Index i = sys.free_dofs[static_cast<std::size_t>(r)], j = sys.free_dofs[static_cast<std::size_t>(c)];
      INFO("free (" << r << ", " << c << ") = line DOF (" << i << ", " << j << ")");
      CHECK(std::fabs(sys.K(r, c) - Kref(i, j)) <= 1e-12 * kscale);
      CHECK(std::fabs(sys.M(r, c) - Mref(i, j)) <= 1e-14 * mscale);
    }
  // expand(): back to global DOFs, held entries zero; reducing again gives the vector.
  VecX<double> v(m);
  for (Index r = 0; r < m; ++r) v(r) = std::sin(0.7 * double(r) + 0.3);
  const VecX<double> full = sys.expand(cons, v);
  for (Index i = 0; i < 3; ++i) CHECK(full(i) == 0.0);
  const VecX<double> back = Q.transpose() * full;
  for (Index r = 0; r < m; ++r) CHECK(back(sys.free_dofs[static_cast<std::size_t>(r)]) == Approx(v(r)).margin(1e-15));
  // The Rigid end keeps only its tangent magnitude: a reduced vector moves m along d0 only.
  const Vec3<double> dm = full.segment<3>(3);
  CHECK(dm.cross(line.end(0).direction).norm() <= 1e-14 * dm.norm());
}

TEMPLATE_TEST_CASE("Modal system: a slack EI = 0 element carries no stiffness", "[modal][system]", double,
                   long double) {
  using T = TestType;
  const Line line("chain", {{type(1e8, 0), 30.0, 3}}, at(Vec3<double>(0, 0, -20)), at(Vec3<double>(30.01, 0, -20)));
  VecX<double> q = straight_state(line);
  q(static_cast<Index>(line.dof(2, 0))) = q(static_cast<Index>(line.dof(1, 0))) + 9.0;  // middle element compressed
  const ModalSystem<T> sys = modal_system<T>(line, StaticProblem{}, q);
  // Free DOFs: nodes 1 and 2 (3 each). The node 1 - node 2 block is the middle element's.
  REQUIRE(sys.K.rows() == 6);
  for (Index a = 0; a < 3; ++a)
    for (Index b = 0; b < 3; ++b) CHECK(sys.K(3 + a, b) == T(0));
  // The taut neighbours still carry their axial stiffness EA / L0.
  CHECK(sys.K(0, 0) > T(1e8 / 10.0 * 0.99));
}

TEST_CASE("Modal system: bad states give named errors", "[modal][system][errors]") {
  const Line line("line 4", {{type(1e8, 0), 30.0, 3}}, at(Vec3<double>(0, 0, -20)), at(Vec3<double>(30, 0, -20)));
  VecX<double> q = straight_state(line);
  CHECK_THROWS_WITH(modal_system<double>(line, StaticProblem{}, VecX<double>(q.head(5))),
                    "InputError: line 4 modal analysis: state size = 5 (limit: == 12)");
  q(4) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH(modal_system<double>(line, StaticProblem{}, q),
                    "InputError: line 4 modal analysis: state entry 4 = nan (limit: finite)");
}
