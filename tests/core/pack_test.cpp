// Pack<S, N>: N lanes that each repeat the scalar arithmetic. Single operations are exact
// lane by lane; the element kernels instantiated on packs give each lane the scalar kernel's
// result to round-off (1e-14 of its scale); the lane-aware branch helpers agree with the
// scalar branch for double, duals and packs; a bad lane is named.
#include <catch2/catch.hpp>

#include <cmath>

#include "cabledyn/autodiff/dual.hpp"
#include "cabledyn/core.hpp"
#include "cabledyn/elements/hermite_element.hpp"
#include "cabledyn/line/element_loads.hpp"
#include "cabledyn/line/line_mass.hpp"

using namespace cabledyn;

namespace {

using P4 = Pack<double, 4>;
using P2 = Pack<double, 2>;

static_assert(is_pack_v<P4> && !is_pack_v<double> && !is_pack_v<Dual<double>>);
static_assert(std::is_same_v<value_type_t<P4>, double> && Scalar<P4>);
static_assert(kPackLanes<double> == 2 || kPackLanes<double> == 4);

// Equal to the scalar kernel's value to round-off: 1e-14 of the result's scale. (Not bit for
// bit: Eigen may vectorise a double reduction such as a 3-vector's norm and so associate its
// sum differently from the pack's lane, and the compiler may contract multiply-adds into FMAs
// differently in vector and scalar code.)
bool lane_equal(double a, double b, double scale) { return std::fabs(a - b) <= 1e-14 * std::max(scale, 1e-300); }

template <class M>
double max_abs(const M& m) {
  double s = 0;
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i) s = std::max(s, std::fabs(m(i, j)));
  return s;
}

// Lane l of a pack matrix against a scalar matrix; counts the entries that differ.
template <int R, int C>
int lane_mismatches(const Mat<P4, R, C>& p, int l, const Mat<double, R, C>& s) {
  const double scale = max_abs(s);
  int bad = 0;
  for (int j = 0; j < C; ++j)
    for (int i = 0; i < R; ++i) bad += lane_equal(p(i, j)[l], s(i, j), scale) ? 0 : 1;
  return bad;
}

// A curved, stretched, moving element state per lane (all different).
void lane_state(int l, Vec<double, 12>& q, Vec<double, 12>& v) {
  const double c = 0.1 * l;
  q << 1.0 + c, -0.5, -20.0 - c, 0.99, 0.05 + 0.02 * l, 0.1 - c, 10.2 + c, 0.3 * l, -18.5, 0.97, -0.04, 0.16 + c;
  v << 0.2, -0.1 * l, 0.05, 0.01, 0.0, -0.02 * l, -0.3 + c, 0.1, 0.2, 0.0, 0.03, 0.01;
}

}  // namespace

TEST_CASE("Pack lanes repeat the scalar operations exactly", "[core][pack]") {
  P4 a, b;
  const double xa[4] = {1.5, -2.25, 1e-300, 7.0}, xb[4] = {3.0, 0.1, 3e300, -0.3};
  for (int l = 0; l < 4; ++l) {
    a.set(l, xa[l]);
    b.set(l, xb[l]);
  }
  const P4 s = a + b, d = a - b, m = a * b, q = a / b, n = -a, r = sqrt(a * a + P4(2.0)), ab = abs(d);
  P4 c = a;
  c += b;
  c *= P4(0.5);
  for (int l = 0; l < 4; ++l) {
    CHECK(s[l] == xa[l] + xb[l]);
    CHECK(d[l] == xa[l] - xb[l]);
    CHECK(m[l] == xa[l] * xb[l]);
    CHECK(q[l] == xa[l] / xb[l]);
    CHECK(n[l] == -xa[l]);
    CHECK(r[l] == std::sqrt(xa[l] * xa[l] + 2.0));
    CHECK(ab[l] == std::fabs(xa[l] - xb[l]));
    CHECK(c[l] == (xa[l] + xb[l]) * 0.5);
  }
  const P2 two(3.0);
  CHECK((two[0] == 3.0 && two[1] == 3.0));
  // Eigen sees a pack as a real scalar.
  Vec3<P4> u(a, b, P4(2.0));
  const P4 nu = u.norm();
  for (int l = 0; l < 4; ++l) CHECK(nu[l] == std::sqrt(xa[l] * xa[l] + xb[l] * xb[l] + 4.0));
}

TEST_CASE("Lane-aware branches agree with the scalar branch", "[core][pack]") {
  P4 x;
  const double v[4] = {2.0, 0.0, -1.0, 4.0};
  for (int l = 0; l < 4; ++l) x.set(l, v[l]);
  CHECK_FALSE(all_positive(x));
  CHECK(all_positive(P4(0.5)));
  CHECK_FALSE(all_positive(P4(std::nan(""))));
  CHECK(min_lane(x) == -1.0);
  const P4 s = select_positive(x, P4(10.0), P4(-10.0));
  const P4 z = sqrt_or_zero(x);
  for (int l = 0; l < 4; ++l) {
    CHECK(s[l] == (v[l] > 0 ? 10.0 : -10.0));
    CHECK(z[l] == (v[l] > 0 ? std::sqrt(v[l]) : 0.0));
  }
  // double and duals: the plain branch; a dual keeps a finite derivative at 0.
  CHECK(all_positive(1e-300));
  CHECK_FALSE(all_positive(0.0));
  CHECK(min_lane(-3.0) == -3.0);
  CHECK(select_positive(-1.0, 1.0, 2.0) == 2.0);
  CHECK(sqrt_or_zero(4.0) == 2.0);
  const Dual<double> d0(0.0, 1, 0);
  CHECK(value_of(sqrt_or_zero(d0)) == 0);
  CHECK(sqrt_or_zero(d0).derivatives().allFinite());
  const Dual<double> d4(4.0, 1, 0);
  CHECK(sqrt_or_zero(d4).derivatives()(0) == Approx(0.25).epsilon(1e-15));
}

TEST_CASE("Element kernels on packs give each lane the scalar kernel's result", "[core][pack][elements]") {
  HermiteElementParams p;
  p.L0 = 10.0;
  p.EA = 4e6;
  p.EI = 3e3;
  p.BA = 2e4;
  p.rho_A = 20;
  const HermiteElement<> el(p);
  MorisonCoefficients mc;
  mc.d = 0.1;
  mc.Cdn = 1.2;
  mc.Cdt = 0.1;
  mc.Can = 1.0;
  mc.Cat = 0.2;
  Vec<P4, 12> qp, vp;
  std::array<Vec<double, 12>, 4> qs, vs;
  for (int l = 0; l < 4; ++l) {
    lane_state(l, qs[static_cast<std::size_t>(l)], vs[static_cast<std::size_t>(l)]);
    for (int k = 0; k < 12; ++k) {
      qp(k).set(l, qs[static_cast<std::size_t>(l)](k));
      vp(k).set(l, vs[static_cast<std::size_t>(l)](k));
    }
  }
  // Lane 2 sits in still water relative to its drag points' motion: u_f = v makes u_r = 0
  // there, the n = 0 branch of the drag Jacobian.
  const Vec3<double> uf_s(0.5, 0.2, 0.0);
  Vec3<P4> uf;
  for (int c = 0; c < 3; ++c) uf(c) = P4(uf_s(c));
  const double wq = 0.7, wv = 15.0;
  HermiteBlockSum<P4> Rp;
  Rp.set_zero();
  Vec<P4, 12> fp, fdp;
  el.damped_force_blocks<P4>(qp, vp, fp, &Rp, wq, wv);
  hermite_drag_blocks<P4>(qp, vp, {uf, uf, uf}, mc, p.L0, fdp, &Rp, -wq, -wv);
  const Mat<P4, 12> Map = hermite_added_mass<P4>(qp, mc, p.L0, 0.0);
  const Mat<P4, 16, 9> Jp = Rp.matrix();
  for (int l = 0; l < 4; ++l) {
    INFO("lane " << l);
    const auto& q = qs[static_cast<std::size_t>(l)];
    const auto& v = vs[static_cast<std::size_t>(l)];
    HermiteBlockSum<double> R;
    R.set_zero();
    Vec<double, 12> f, fd;
    el.damped_force_blocks<double>(q, v, f, &R, wq, wv);
    hermite_drag_blocks<double>(q, v, {uf_s, uf_s, uf_s}, mc, p.L0, fd, &R, -wq, -wv);
    const Mat<double, 12> Ma = hermite_added_mass<double>(q, mc, p.L0, 0.0);
    const Mat<double, 16, 9> J = R.matrix();
    Mat<P4, 12, 1> fpm = fp, fdpm = fdp;
    CHECK(lane_mismatches<12, 1>(fpm, l, f) == 0);
    CHECK(lane_mismatches<12, 1>(fdpm, l, fd) == 0);
    CHECK(lane_mismatches<16, 9>(Jp, l, J) == 0);
    CHECK(lane_mismatches<12, 12>(Map, l, Ma) == 0);
    CHECK(max_abs(J) > 0);
  }
  // Morison drag at u_r = 0 exactly (the n = 0 branch) in one lane, not in the others.
  Vec3<P4> ur, t;
  for (int l = 0; l < 4; ++l) {
    const Vec3<double> url = l == 1 ? Vec3<double>::Zero() : Vec3<double>(0.3 * l + 0.1, -0.2, 0.05);
    const Vec3<double> tl = Vec3<double>(1.0, 0.1 * l, 0.2).normalized();
    for (int c = 0; c < 3; ++c) {
      ur(c).set(l, url(c));
      t(c).set(l, tl(c));
    }
  }
  Mat3<P4> Jup, Jtp;
  const Vec3<P4> fdr = morison_drag<P4>(ur, t, mc, &Jup, &Jtp);
  for (int l = 0; l < 4; ++l) {
    Vec3<double> url, tl;
    for (int c = 0; c < 3; ++c) {
      url(c) = ur(c)[l];
      tl(c) = t(c)[l];
    }
    Mat3<double> Ju, Jt;
    const Vec3<double> f = morison_drag<double>(url, tl, mc, &Ju, &Jt);
    Mat<P4, 3, 1> fm = fdr;
    CHECK(lane_mismatches<3, 1>(fm, l, f) == 0);
    CHECK(lane_mismatches<3, 3>(Jup, l, Ju) == 0);
    CHECK(lane_mismatches<3, 3>(Jtp, l, Jt) == 0);
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) CHECK(std::isfinite(Jup(i, j)[l]));
  }
}

TEST_CASE("A pack with a zero-length tangent in one lane names the value", "[core][pack][errors]") {
  Vec3<P4> a;
  for (int l = 0; l < 4; ++l) {
    a(0).set(l, l == 2 ? 0.0 : 1.0);
    a(1).set(l, 0.0);
    a(2).set(l, 0.0);
  }
  DensityDerivatives<P4> d;
  try {
    axial_density<P4>(a, 1e6, DensityOrder::kGradient, d, "cable element 7");
    FAIL("no error");
  } catch (const DomainError& e) {
    CHECK(std::string(e.what()).find("cable element 7") != std::string::npos);
    CHECK(std::string(e.what()).find("|r'|^2 = 0") != std::string::npos);
  }
}
