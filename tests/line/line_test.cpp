// Lines: mesh, DOF map and band width; the static residual's tangent against duals (EI = 0
// and Hermite, with seabed contact, current drag and end springs) and against differences
// for the exact waterline recovery; held DOFs and the Rigid end basis; bad input.
#include <catch2/catch.hpp>

#include "cabledyn/autodiff.hpp"
#include "cabledyn/line.hpp"

using namespace cabledyn;

namespace {

LineType chain() {
  LineType t;
  t.name = "chain";
  t.d = 0.09;
  t.rho_A = 77.7066;
  t.EA = 3.84243e8;
  t.BA = -0.8;
  t.Cdn = 1.2;
  t.Cdt = 0.4;
  t.Can = 1.0;
  t.Cat = 0.5;
  return t;
}

LineType cable() {
  LineType t = chain();
  t.name = "cable";
  t.d = 0.12;
  t.rho_A = 30.0;
  t.EA = 5.0e7;
  t.EI = 2.0e4;
  return t;
}

LineEnd end_at(double x, double y, double z) {
  LineEnd e;
  e.position = Vec3<double>(x, y, z);
  return e;
}

// A state with every node slightly perturbed from a straight line between the ends.
VecX<double> perturbed_state(const Line& line, unsigned seed, double sag) {
  VecX<double> q = VecX<double>::Zero(static_cast<Eigen::Index>(line.dofs()));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Vec3<double> a = line.end(0).position, b = line.end(1).position;
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    const double f = line.s_node(i) / line.length();
    Vec3<double> x = a + f * (b - a) + Vec3<double>(0.3 * u(rng), 0.3 * u(rng), -sag * 4 * f * (1 - f));
    q.segment<3>(static_cast<Eigen::Index>(line.dof(i, 0))) = x;
    if (line.hermite())
      q.segment<3>(static_cast<Eigen::Index>(line.dof(i, 3))) =
          (b - a) / line.length() * 1.001 + Vec3<double>(0.05 * u(rng), 0.05 * u(rng), sag * 0.02 * u(rng));
  }
  return q;
}

template <class Band>
MatX<double> dense(const Band& K) {
  return K.to_dense();
}

}  // namespace

TEST_CASE("Line mesh, DOF map and band width", "[line]") {
  const Line l("line 1", {{chain(), 300.0, 10}, {chain(), 200.0, 4}}, end_at(0, 0, -50), end_at(450, 0, -200));
  CHECK_FALSE(l.hermite());
  CHECK(l.n_elements() == 14);
  CHECK(l.n_nodes() == 15);
  CHECK(l.dofs() == 45);
  CHECK(l.half_bandwidth() == 5);
  CHECK(l.L0(0) == 30.0);
  CHECK(l.L0(13) == 50.0);
  CHECK(l.s_node(10) == Approx(300.0));
  CHECK(l.length() == Approx(500.0));
  CHECK(l.tributary(0) == 15.0);
  CHECK(l.tributary(10) == 40.0);
  CHECK(l.tributary(14) == 25.0);
  // Negative BA resolved per element: zeta L0 sqrt(EA rho_A).
  CHECK(l.tension_element(0).params().BA == Approx(0.8 * 30.0 * std::sqrt(3.84243e8 * 77.7066)));
  const Line h("cable", {{cable(), 100.0, 20}, {chain(), 50.0, 5}}, end_at(0, 0, -10), end_at(120, 0, -100));
  CHECK(h.hermite());  // any EI > 0 section makes a Hermite cable
  CHECK(h.node_dofs() == 6);
  CHECK(h.half_bandwidth() == 11);
  CHECK(h.hermite_element(22).params().EI == 0);  // the chain section keeps EI = 0
}

TEST_CASE("EI = 0 static residual: tangent equals duals (seabed, current, tension-only)", "[line][statics]") {
  Environment env;
  env.depth = 60.0;
  const Line l("line 1", {{chain(), 120.0, 6}}, end_at(0, 0, -20), end_at(100, 0, -60));
  const SteadyCurrent cur = SteadyCurrent::uniform(Vec3<double>(0.4, 0.7, 0.0));
  for (double r : {1.0, 0.0}) {
    StaticLoadCase lc;
    lc.seabed_z = -60.0 + 0.5;  // several nodes below it
    lc.seabed.kBot = 3e5;
    lc.current = &cur;
    lc.compression_ratio = r;
    const VecX<double> q = perturbed_state(l, 3, 30.0);
    VecX<double> R;
    BandMatrix<double> K(static_cast<Eigen::Index>(l.dofs()), 5, 5);
    line_static_residual<double>(l, lc, q, R, &K);
    auto Rf = [&](const auto& x) {
      using S = typename std::decay_t<decltype(x)>::Scalar;
      VecX<S> Rs;
      line_static_residual<S>(l, lc, VecX<S>(x), Rs);
      return Rs;
    };
    const auto chk = check_jacobian(Rf, q, dense(K));
    INFO("compression ratio " << r << ": " << chk.log());
    CHECK(chk.ok(1e-12, 1e-7));
  }
}

TEST_CASE("Hermite static residual: tangent equals duals (seabed, current, end springs)", "[line][statics]") {
  LineEnd a = end_at(0, 0, -10), b = end_at(60, 0, -40);
  a.rotation = EndRotation::spring;
  a.stiffness = 3e4;
  a.direction = Vec3<double>(1, 0, -0.3);
  b.rotation = EndRotation::spring;
  b.stiffness = 1e3;
  b.direction = Vec3<double>(-1, 0.2, 0.5);
  const Line l("cable", {{cable(), 75.0, 5}}, a, b);
  const SteadyCurrent cur = SteadyCurrent::uniform(Vec3<double>(0.3, -0.5, 0.1));
  StaticLoadCase lc;
  lc.seabed_z = -32.0;
  lc.seabed.kBot = 2e5;
  lc.current = &cur;
  lc.hermite_wetting = false;  // double-only kernel: checked by differences below
  const VecX<double> q = perturbed_state(l, 5, 8.0);
  VecX<double> R;
  BandMatrix<double> K(static_cast<Eigen::Index>(l.dofs()), 11, 11);
  line_static_residual<double>(l, lc, q, R, &K);
  auto Rf = [&](const auto& x) {
    using S = typename std::decay_t<decltype(x)>::Scalar;
    VecX<S> Rs;
    line_static_residual<S>(l, lc, VecX<S>(x), Rs);
    return Rs;
  };
  const auto chk = check_jacobian(Rf, q, dense(K));
  INFO(chk.log());
  CHECK(chk.ok(1e-12, 1e-7));
  // Without the current the residual is the gradient of the potential energy (differences)
  // and the symmetric assembly equals the general one.
  StaticLoadCase lp = lc;
  lp.current = nullptr;
  lp.hermite_wetting = true;
  VecX<double> qs = q;
  for (std::size_t i = 0; i < l.n_nodes(); ++i) qs(static_cast<Eigen::Index>(l.dof(i, 2))) += 35.0;  // cross the surface
  line_static_residual<double>(l, lp, qs, R);
  VecX<double> g(R.size());
  for (Eigen::Index i = 0; i < qs.size(); ++i) {
    const double h = 1e-6 * std::max(1.0, std::fabs(qs(i)));
    VecX<double> qp = qs, qm = qs;
    qp(i) += h;
    qm(i) -= h;
    g(i) = (line_potential_energy(l, lp, qp) - line_potential_energy(l, lp, qm)) / (2 * h);
  }
  CHECK((g - R).cwiseAbs().maxCoeff() <= 1e-5 * R.cwiseAbs().maxCoeff());
  SymmetricBandMatrix<double> Ks(static_cast<Eigen::Index>(l.dofs()), 11);
  BandMatrix<double> Kg(static_cast<Eigen::Index>(l.dofs()), 11, 11);
  line_static_residual<double, SymmetricBandMatrix<double>>(l, lp, qs, R, &Ks);
  line_static_residual<double>(l, lp, qs, R, &Kg);
  CHECK((Ks.to_dense() - Kg.to_dense()).cwiseAbs().maxCoeff() <= 1e-12 * Kg.to_dense().cwiseAbs().maxCoeff());
  // The waterline recovery's tangent (the rate at which the crossings move) by differences.
  MatX<double> J(qs.size(), qs.size());
  for (Eigen::Index i = 0; i < qs.size(); ++i) {
    const double h = 1e-7 * std::max(1.0, std::fabs(qs(i)));
    VecX<double> qp = qs, qm = qs, Rp, Rm;
    qp(i) += h;
    qm(i) -= h;
    line_static_residual<double>(l, lp, qp, Rp);
    line_static_residual<double>(l, lp, qm, Rm);
    J.col(i) = (Rp - Rm) / (2 * h);
  }
  const auto cmp = compare_matrices(Kg.to_dense(), J, "tangent with waterline vs differences");
  INFO(cmp.log);
  CHECK(cmp.ok(1e-6));
}

namespace {
// A LineModel sink into a dense matrix (slot k: rows 3k..3k+2).
struct DenseSlotSink {
  MatX<double>& K;
  void add(std::size_t i, std::size_t j, const Mat3<double>& B) {
    K.block<3, 3>(static_cast<Eigen::Index>(3 * i), static_cast<Eigen::Index>(3 * j)) += B;
  }
};
}  // namespace

TEST_CASE("A line's load model under static loads: load and drag factors, the frozen drag, the wetted drag",
          "[line][line_model][statics]") {
  // A chain rising through the surface: its top elements are dry.
  const Line l("chain", {{chain(), 120.0, 12}}, end_at(0, 0, -60), end_at(70, 0, 30));
  const auto model = LineModel<double>::elements_of(l, SeabedModel{-60.0, SeabedParams{}});
  VecX<double> q = perturbed_state(l, 11, 6.0);
  const Vec3<double> U(0.8, 0.3, 0.0);
  auto residual = [&](double lf, double df, bool current, bool wetting) {
    LineStaticLoads L;
    L.load_factor = lf;
    L.drag_factor = df;
    L.current = current ? &U : nullptr;
    L.wetting = wetting;
    VecX<double> R;
    model.static_residual(q, R, static_cast<DenseSlotSink*>(nullptr), L);
    return R;
  };
  const double s = residual(1, 1, false, true).cwiseAbs().maxCoeff();
  // The weight, the lost buoyancy and the seabed stiffness scale with the load factor.
  const VecX<double> R0 = residual(0, 1, false, true), R1 = residual(1, 1, false, true);
  CHECK((residual(0.35, 1, false, true) - (R0 + 0.35 * (R1 - R0))).cwiseAbs().maxCoeff() <= 1e-12 * s);
  // The drag is linear in its factor, and current_drag is the drag term of the residual.
  const VecX<double> Rc = residual(1, 1, true, true);
  CHECK((Rc - R1).cwiseAbs().maxCoeff() > 100);  // the current acts (some 350 N on a wetted element)
  CHECK((residual(1, 0.4, true, true) - (R1 + 0.4 * (Rc - R1))).cwiseAbs().maxCoeff() <= 1e-12 * s);
  LineStaticLoads Ld;
  Ld.current = &U;
  VecX<double> fd;
  model.current_drag(q, Ld, fd);
  CHECK((R1 - fd - Rc).cwiseAbs().maxCoeff() <= 1e-12 * s);
  // The current at every node equal to the uniform one: the same residual, bit for bit.
  std::vector<Vec3<double>> un(l.n_nodes(), U);
  LineStaticLoads Ln;
  Ln.node_current = un.data();
  VecX<double> Rn;
  model.static_residual(q, Rn, static_cast<DenseSlotSink*>(nullptr), Ln);
  CHECK((Rn - Rc).cwiseAbs().maxCoeff() == 0);
  // The drag acts on the wetted fraction of the chord: a node whose elements are both dry
  // carries none, a node below the surface does.
  std::size_t dry_node = 0, wet_node = 0;
  for (std::size_t i = 1; i + 1 < l.n_nodes(); ++i) {
    if (l.r(q, i - 1)(2) > 0 && l.r(q, i + 1)(2) > 0 && l.r(q, i)(2) > 0) dry_node = i;
    if (l.r(q, i + 1)(2) < -5) wet_node = i;
  }
  REQUIRE(dry_node > 0);
  REQUIRE(wet_node > 0);
  CHECK(fd.segment<3>(static_cast<Eigen::Index>(l.dof(dry_node, 0))).norm() == 0);
  CHECK(fd.segment<3>(static_cast<Eigen::Index>(l.dof(wet_node, 0))).norm() > 0);
  // A uniform and a nodal current together are refused (one would override the other).
  LineStaticLoads Lb;
  Lb.current = &U;
  Lb.node_current = un.data();
  CHECK_THROWS_AS(model.static_residual(q, Rn, static_cast<DenseSlotSink*>(nullptr), Lb), InputError);
  // Without a level of its own a static evaluation takes the model's still-water level.
  auto lowered = model;
  lowered.set_surface_z(-20);
  LineStaticLoads Lz;
  Lz.surface_z = -20.0;
  VecX<double> Ra, Rz;
  lowered.static_residual(q, Ra, static_cast<DenseSlotSink*>(nullptr), LineStaticLoads{});
  lowered.static_residual(q, Rz, static_cast<DenseSlotSink*>(nullptr), Lz);
  CHECK((Ra - Rz).cwiseAbs().maxCoeff() == 0);
  CHECK((Ra - R1).cwiseAbs().maxCoeff() > 100);  // the buoyancy lost above -20 m, not above 0
  // A model of another seabed is refused by name (it would give another line's residual).
  StaticLoadCase lc;
  VecX<double> R;
  CHECK_THROWS_AS(line_static_residual<double>(model, l, lc, q, R), InputError);
  lc.seabed_z = -60.0;
  line_static_residual<double>(model, l, lc, q, R);
  CHECK((R - residual(1, 1, false, false)).cwiseAbs().maxCoeff() == 0);  // an EI = 0 line's wetting: a constant load of its statics
}

TEST_CASE("A Hermite line model through the surface: static and dynamic tangents against differences",
          "[line][line_model][dynamics]") {
  const Line l("cable", {{cable(), 75.0, 5}}, end_at(0, 0, -30), end_at(60, 0, 8));
  const auto model = LineModel<double>::elements_of(l);
  const VecX<double> q = perturbed_state(l, 3, 4.0);
  REQUIRE(model.reaches_surface(q));
  const Eigen::Index n = q.size();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX<double> v(n);
  for (Eigen::Index i = 0; i < n; ++i) v(i) = 0.2 * u(rng);
  const Vec3<double> U(0.5, -0.2, 0.0);
  LineFluid fluid;
  fluid.U = U;
  const double wq = 0.7, wv = 0.3;
  MatX<double> K = MatX<double>::Zero(n, n);
  DenseSlotSink sink{K};
  VecX<double> r;
  model.dynamic_residual(q, v, fluid, r, &sink, wq, wv);
  MatX<double> J(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double h = 1e-7 * std::max(1.0, std::fabs(q(i)));
    VecX<double> qp = q, qm = q, vp = v, vm = v, rp, rm, sp, sm;
    qp(i) += h;
    qm(i) -= h;
    vp(i) += h;
    vm(i) -= h;
    model.dynamic_residual(qp, v, fluid, rp, static_cast<DenseSlotSink*>(nullptr), 1.0, 0.0);
    model.dynamic_residual(qm, v, fluid, rm, static_cast<DenseSlotSink*>(nullptr), 1.0, 0.0);
    model.dynamic_residual(q, vp, fluid, sp, static_cast<DenseSlotSink*>(nullptr), 1.0, 0.0);
    model.dynamic_residual(q, vm, fluid, sm, static_cast<DenseSlotSink*>(nullptr), 1.0, 0.0);
    J.col(i) = wq * (rp - rm) / (2 * h) + wv * (sp - sm) / (2 * h);
  }
  const auto cmp = compare_matrices(K, J, "dynamic tangent with waterline vs differences");
  INFO(cmp.log);
  CHECK(cmp.ok(1e-6));
  // The static tangent of the load model with the waterline, against differences.
  MatX<double> Ks = MatX<double>::Zero(n, n);
  DenseSlotSink ss{Ks};
  model.static_residual(q, r, &ss, LineStaticLoads{});
  for (Eigen::Index i = 0; i < n; ++i) {
    const double h = 1e-7 * std::max(1.0, std::fabs(q(i)));
    VecX<double> qp = q, qm = q, rp, rm;
    qp(i) += h;
    qm(i) -= h;
    model.static_residual(qp, rp, static_cast<DenseSlotSink*>(nullptr), LineStaticLoads{});
    model.static_residual(qm, rm, static_cast<DenseSlotSink*>(nullptr), LineStaticLoads{});
    J.col(i) = (rp - rm) / (2 * h);
  }
  const auto cs = compare_matrices(Ks, J, "static tangent with waterline vs differences");
  INFO(cs.log);
  CHECK(cs.ok(1e-6));
}

TEST_CASE("Rotational end spring: closed form equals nested duals", "[line][end_spring]") {
  const Vec3<double> d = Vec3<double>(0.3, -0.2, 1.0).normalized();
  for (const Vec3<double>& m : {Vec3<double>(0.5, 0.1, 0.9), Vec3<double>(-0.4, 0.8, 0.1),
                                Vec3<double>(Vec3<double>(1e-5, 2e-5, 1.0) + d), Vec3<double>(0.0, 1.2, -0.3)}) {
    Vec3<double> g;
    Mat3<double> H;
    end_spring<double>(m, d, 250.0, &g, &H);
    auto U = [&](const auto& x) {
      using S = typename std::decay_t<decltype(x)>::Scalar;
      return end_spring<S>(Vec3<S>(x), d.cast<S>(), 250.0);
    };
    const auto cg = check_gradient(U, m, g);
    const auto ch = check_hessian(U, m, H);
    INFO(cg.log() << "\n" << ch.log());
    CHECK(cg.ok(1e-12, 1e-7));
    CHECK(ch.ok(1e-11, 1e-6));
  }
  // theta = 0: zero moment, stiffness k (I - d d^T) / |m|^2; U = 1/2 k theta^2.
  Vec3<double> g;
  Mat3<double> H;
  CHECK(end_spring<double>(2.0 * d, d, 250.0, &g, &H) <= 1e-28);  // aligned to round-off
  CHECK(g.norm() <= 1e-12);
  CHECK((H - 250.0 * (Mat3<double>::Identity() - d * d.transpose()) / 4.0).norm() < 1e-12);
  const Vec3<double> m90 = d.cross(Vec3<double>(1, 0, 0)).normalized();
  CHECK(end_spring<double>(m90, d, 250.0) == Approx(0.5 * 250.0 * kPi * kPi / 4));
}

TEST_CASE("Held DOFs: end positions, Rigid end basis in band storage", "[line][constraints]") {
  LineEnd a = end_at(0, 0, -10), b = end_at(60, 0, -40);
  a.rotation = EndRotation::rigid;
  a.direction = Vec3<double>(1, 0, -1);
  const Line l("cable", {{cable(), 75.0, 4}}, a, b);
  const LineConstraints c(l);
  for (int k = 0; k < 3; ++k) {
    CHECK(c.held(static_cast<Eigen::Index>(l.dof(0, k))));
    CHECK(c.held(static_cast<Eigen::Index>(l.dof(4, k))));
  }
  CHECK_FALSE(c.held(static_cast<Eigen::Index>(l.dof(0, 3))));  // the tangent magnitude is free
  CHECK(c.held(static_cast<Eigen::Index>(l.dof(0, 4))));
  CHECK(c.held(static_cast<Eigen::Index>(l.dof(0, 5))));
  CHECK_FALSE(c.held(static_cast<Eigen::Index>(l.dof(4, 4))));  // a pinned end
  VecX<double> q = perturbed_state(l, 9, 3.0);
  c.apply_to_state(l, q);
  CHECK((l.r(q, 0) - a.position).norm() == 0);
  CHECK(l.m(q, 0).normalized().dot(Vec3<double>(1, 0, -1).normalized()) == Approx(1.0).epsilon(1e-14));
  // The transformed band system equals Q^T K Q with the held rows as identity rows.
  StaticLoadCase lc;
  VecX<double> R;
  BandMatrix<double> K(static_cast<Eigen::Index>(l.dofs()), 11, 11);
  line_static_residual<double>(l, lc, q, R, &K);
  MatX<double> Kd = K.to_dense();
  MatX<double> Q = MatX<double>::Identity(Kd.rows(), Kd.cols());
  Q.block<3, 3>(3, 3) = l.rigid_basis(0);
  MatX<double> ref = Q.transpose() * Kd * Q;
  c.reduce_matrix(K);
  const MatX<double> Kr = K.to_dense();
  for (Eigen::Index i = 0; i < ref.rows(); ++i)
    for (Eigen::Index j = 0; j < ref.cols(); ++j) {
      const double expect = (c.held(i) || c.held(j)) ? (i == j ? 1.0 : 0.0) : ref(i, j);
      CHECK(Kr(i, j) == Approx(expect).margin(1e-9 * Kd.cwiseAbs().maxCoeff()));
    }
}

TEST_CASE("Line bad input gives named errors", "[line][errors]") {
  LineType t = chain();
  t.EA = 0;
  CHECK_THROWS_WITH(Line("line 7", {{t, 100.0, 4}}, end_at(0, 0, 0), end_at(1, 0, 0)),
                    "InputError: LineType chain: EA = 0 (limit: > 0)");
  CHECK_THROWS_WITH(Line("line 7", {{chain(), -100.0, 4}}, end_at(0, 0, 0), end_at(1, 0, 0)),
                    "InputError: line 7 section 1: length = -100 (limit: > 0)");
  CHECK_THROWS_WITH(Line("line 7", {{chain(), 100.0, 0}}, end_at(0, 0, 0), end_at(1, 0, 0)),
                    "InputError: line 7 section 1: NumSegs = 0 (limit: >= 1)");
  LineEnd bad = end_at(0, 0, 0);
  bad.rotation = EndRotation::rigid;
  CHECK_THROWS_AS(Line("line 8", {{chain(), 100.0, 4}}, bad, end_at(1, 0, 0)), InputError);  // EI = 0 line
  bad.direction = Vec3<double>::Zero();
  CHECK_THROWS_WITH(Line("line 9", {{cable(), 100.0, 4}}, bad, end_at(1, 0, 0)),
                    "InputError: line 9 End A: connection direction |d0| = 0 (limit: > 0)");
  CHECK_THROWS_AS(Line("line 10", {}, end_at(0, 0, 0), end_at(1, 0, 0)), InputError);
}

TEST_CASE("A Hermite line's SIMD packs give the element-at-a-time values: residual, tangent and inertia",
          "[line][line_model][dynamics]") {
  // Nine equal, wholly submerged elements: two packs of four and one element alone.
  const Line l("cable", {{cable(), 75.0, 9}}, end_at(0, 0, -80), end_at(60, 0, -40));
  auto packed = LineModel<double>::elements_of(l);
  auto single = packed;
  single.set_pack_elements(false);
  const VecX<double> q = perturbed_state(l, 5, 4.0);
  REQUIRE_FALSE(packed.reaches_surface(q));
  const Eigen::Index n = q.size();
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  VecX<double> v(n), a(n);
  for (Eigen::Index i = 0; i < n; ++i) v(i) = 0.2 * u(rng), a(i) = 0.5 * u(rng);
  LineFluid fluid;
  fluid.U = Vec3<double>(0.5, -0.2, 0.0);
  auto relative = [](const auto& x, const auto& y) { return (x - y).cwiseAbs().maxCoeff() / y.cwiseAbs().maxCoeff(); };
  MatX<double> Kp = MatX<double>::Zero(n, n), Ks = Kp;
  DenseSlotSink sp{Kp}, ss{Ks};
  VecX<double> rp, rs;
  packed.dynamic_residual(q, v, fluid, rp, &sp, 0.7, 0.3);
  single.dynamic_residual(q, v, fluid, rs, &ss, 0.7, 0.3);
  CHECK(relative(rp, rs) <= 1e-13);
  CHECK(relative(Kp, Ks) <= 1e-13);
  // The inertia M(q) a and its blocks w M: the structural mass plus the added mass on packs.
  MatX<double> Mp = MatX<double>::Zero(n, n), Ms = Mp;
  DenseSlotSink mp{Mp}, ms{Ms};
  VecX<double> Map, Mas;
  packed.inertia(q, a, Map, &mp, 2.5, 0.0);
  single.inertia(q, a, Mas, &ms, 2.5, 0.0);
  INFO("inertia " << relative(Map, Mas) << ", blocks " << relative(Mp, Ms));
  CHECK(relative(Map, Mas) <= 1e-13);
  CHECK(relative(Mp, Ms) <= 1e-13);
  // ... and equal to 2.5 times the mass matrix of mass(), whose added mass runs on packs too.
  MatX<double> M = MatX<double>::Zero(n, n);
  DenseSlotSink m{M};
  single.mass(q, m);
  CHECK(relative(Ms, MatX<double>(2.5 * M)) <= 1e-13);
  CHECK(relative(Mas, VecX<double>(M * a)) <= 1e-13);
}
