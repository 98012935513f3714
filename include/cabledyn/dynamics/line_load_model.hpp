// cabledyn: the load model of the line march: the force r(q, v) = f_int + f_damping - f_ext
// with its Jacobians into band storage, and the mass M(q) (structural plus added mass).
// Spec "The EI = 0 tension element", "The cubic-Hermite element" (internal and damping
// forces, effective tangents), "Axial damping", "Buoyancy and wetting" (submerged weight,
// the buoyancy lost above the surface, the wetted fraction), "Morison drag", "Added mass and
// fluid inertia" (Froude-Krylov with the fluid field held over the step), "Seabed contact"
// (normal law and damping in the march), "Linear algebra" (element blocks into band storage;
// runs of equal submerged Hermite elements on SIMD packs).
//
// The model knows nothing of the time scheme: the stepper (line_dynamics.hpp) asks it for
// S += wq dr/dq + wv dr/dv with the scheme's weights, and for the mass.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

#include "cabledyn/core/pack.hpp"
#include "cabledyn/dynamics/band_scatter.hpp"
#include "cabledyn/dynamics/line_march_types.hpp"
#include "cabledyn/line/element_loads.hpp"
#include "cabledyn/line/element_residual.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/line/line_mass.hpp"
#include "cabledyn/linalg/band_matrix.hpp"
#include "cabledyn/seabed/contact.hpp"

namespace cabledyn {

namespace detail {
/// Two Hermite elements of a line that one pack evaluation may share: equal element
/// parameters, submerged weight and Morison coefficients.
inline bool equal_elements(const Line& line, std::size_t a, std::size_t b) {
  const auto& p = line.hermite_element(a).params();
  const auto& o = line.hermite_element(b).params();
  const auto ma = line.morison(a), mb = line.morison(b);
  return p.L0 == o.L0 && p.EA == o.EA && p.EI == o.EI && p.BA == o.BA && p.rho_A == o.rho_A &&
         p.axial_order == o.axial_order && p.bending_order == o.bending_order && line.w(a) == line.w(b) &&
         ma.d == mb.d && ma.Cdn == mb.Cdn && ma.Cdt == mb.Cdt && ma.Can == mb.Can && ma.Cat == mb.Cat &&
         ma.rho == mb.rho;
}
}  // namespace detail

/// The load model of one line in the march (EI = 0 or cubic Hermite): r(q, v) and its
/// Jacobians, and the mass, with the fluid field held over the step. Workspaces are sized at
/// construction: an evaluation allocates nothing.
/// The template parameter defers the instantiation of the element kernels to the files that
/// use the class (compile time); the march is double (`LineLoadModel`): long double and duals
/// march through the system route (system/).
template <class Real = double>
class BasicLineLoadModel {
  static_assert(std::is_same_v<Real, double>, "the line march runs in double; long double and duals: the system route");
  static constexpr int kLanes = kPackLanes<double>;  // elements per pack (SIMD width)
  using Pk = Pack<double, kLanes>;

 public:
  BasicLineLoadModel(const Line& line, const DynamicOptions& opt)
      : line_(line),
        opt_(opt),
        n_(static_cast<Eigen::Index>(line.dofs())),
        kd_(line.half_bandwidth()),
        M_(n_, kd_, kd_),
        M_struct_(n_, kd_, kd_) {
    still_.u.assign(line.n_nodes(), Vec3<double>::Zero());
    still_.udot.assign(line.n_nodes(), Vec3<double>::Zero());
    fluid_ = &still_;
    // Runs of kLanes Hermite elements with equal element parameters, weight and Morison
    // coefficients share one pack evaluation.
    pack_run_.assign(line.n_elements(), 0);
    for (std::size_t e = 0; line.hermite() && e + kLanes <= line.n_elements(); ++e) {
      bool same = true;
      for (std::size_t l = 1; l < kLanes && same; ++l) same = detail::equal_elements(line, e, e + l);
      pack_run_[e] = same;
    }
    for (std::size_t e = 0; e < line.n_elements(); ++e) {
      const auto& env = line.environment();
      const double d = line.type(e).d;
      loads_.push_back({line.w(e), env.rho_w * env.g * kPi * d * d / 4, line.morison(e)});
    }
    // The structural consistent mass is constant: assembled once (the added mass is added
    // per step, Hermite, or per residual, EI = 0).
    M_struct_.set_zero();
    line_mass<double>(line_, VecX<double>::Zero(n_), M_struct_, false, opt_.surface_z);
  }

  BasicLineLoadModel(const BasicLineLoadModel&) = delete;  // holds the line and the fluid by reference
  BasicLineLoadModel& operator=(const BasicLineLoadModel&) = delete;

  const Line& line() const { return line_; }

  /// The fluid field the evaluations use until the next call (null: still water); it must
  /// outlive them.
  void hold_fluid(const HeldFluid* fluid) {
    const HeldFluid* f = fluid ? fluid : &still_;
    check_fluid(*f);
    fluid_ = f;
  }

  /// The mass of the last assemble_mass().
  const BandMatrix<double>& mass() const { return M_; }

  /// M = the cached structural mass + the added mass of the wetted part at q (into mass()).
  void assemble_mass(const VecX<double>& q) {
    detail::copy_band_scaled(M_, M_struct_, 1.0);  // the band rows (no allocation)
    for (std::size_t e = 0; e < line_.n_elements(); ++e) {
      if (line_.hermite() && opt_.pack_elements && pack_run_[e] && hermite_added_mass_pack(e, q)) {
        e += kLanes - 1;
        continue;
      }
      const auto mc = line_.morison(e);
      const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
      if (line_.hermite())
        detail::add_band_block(M_, line_.dof(e, 0), 12,
                  hermite_added_mass<double>(q.segment<12>(i0), mc, line_.L0(e), opt_.surface_z));
      else
        detail::add_band_block(M_, line_.dof(e, 0), 6,
                  tension_added_mass<double>(q.segment<6>(i0), mc, line_.L0(e), opt_.surface_z));
    }
  }

  /// r = f_int + f_damping - f_ext at (q, v) with the held fluid. When S is given,
  /// S += wq dr/dq + wv dr/dv in band storage (the line's half-bandwidth).
  void evaluate(const VecX<double>& q, const VecX<double>& v, VecX<double>& r, BandMatrix<double>* S, double wq,
                double wv) {
    r.setZero();
    if (line_.hermite()) {
      // Runs of kPackLanes equal, wholly submerged elements in one pass on packs; the rest
      // (and every element with pack_elements off) one at a time. The order of the additions
      // into r and S is the element order either way.
      const std::size_t ne = line_.n_elements();
      for (std::size_t e = 0; e < ne;) {
        if (opt_.pack_elements && pack_run_[e] && hermite_pack(e, q, v, r, S, wq, wv)) {
          e += kLanes;
        } else {
          hermite_one(e, q, v, r, S, wq, wv);
          ++e;
        }
      }
    }
    // EI = 0 elements: the element residual (line/element_residual.hpp) with the held fluid.
    for (std::size_t e = 0; !line_.hermite() && e < line_.n_elements(); ++e) {
      const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
      const Vec<double, 6> qe = q.segment<6>(i0), ve = v.segment<6>(i0);
      ElementSea<double> sea;
      sea.ua = fluid_->u[e];
      sea.ub = fluid_->u[e + 1];
      sea.udot = 0.5 * (fluid_->udot[e] + fluid_->udot[e + 1]);
      sea.surface_z = opt_.surface_z;
      Mat<double, 6> K, Jv;
      r.segment<6>(i0) += tension_element_residual<double, double>(line_.tension_element(e), loads_[e], qe, &ve, sea,
                                                                   -1, S ? &K : nullptr, S ? &Jv : nullptr);
      if (S) detail::add_band_block(*S, line_.dof(e, 0), 6, Mat<double, 6>(wq * K + wv * Jv));
    }
    // Seabed: normal penalty contact and damping at the nodes.
    if (opt_.seabed_z) {
      for (std::size_t i = 0; i < line_.n_nodes(); ++i) {
        const auto iz = static_cast<Eigen::Index>(line_.dof(i, 2));
        const auto c = seabed_contact<double>(q(iz), v(iz), *opt_.seabed_z, node_contact_width_length(line_, i), 1.0,
                                              opt_.seabed);
        r(iz) -= c.f;
        if (S) S->add(iz, iz, -wq * c.df_dz - wv * c.df_dvz);
      }
    }
  }

  /// r with the stiffness and damping Jacobians in separate matrices (coupled reaction; a
  /// diagnostic: allocates).
  void evaluate_split(const VecX<double>& q, const VecX<double>& v, VecX<double>& r, BandMatrix<double>& K,
                      BandMatrix<double>& C) {
    K.set_zero();
    C.set_zero();
    evaluate(q, v, r, &K, 1.0, 0.0);
    VecX<double> tmp(r.size());
    evaluate(q, v, tmp, &C, 0.0, 1.0);
  }

  /// EI = 0: S += w d(M(q) a)/dq at qa for the accelerations am (the added mass turns with the
  /// element chord).
  void add_added_mass_jacobian(BandMatrix<double>& S, const VecX<double>& qa, const VecX<double>& am, double w) const {
    for (std::size_t e = 0; e < line_.n_elements(); ++e) {
      const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
      const Mat<double, 6> J = tension_added_mass_jacobian<double>(qa.segment<6>(i0), am.segment<6>(i0), line_.morison(e),
                                                                  line_.L0(e), opt_.surface_z);
      detail::add_band_block(S, line_.dof(e, 0), 6, Mat<double, 6>(w * J));
    }
  }

  /// A held fluid field must sample every node.
  void check_fluid(const HeldFluid& f) const {
    if (f.u.size() != line_.n_nodes() || f.udot.size() != line_.n_nodes())
      throw InputError(line_.name(), "held fluid samples", f.u.size(), "one per node");
  }

 private:
  // Component-major element blocks into band storage: S(i0 + 3k + i, i0 + 3l + j) += R(k + 4l, i + 3j).
  // (Blocks of a pack: its lane `ln`.)
  template <class T>
  static void add_hermite_blocks(BandMatrix<double>& S, std::size_t first, HermiteBlockSum<T>& blocks, int ln = 0) {
    const auto i0 = static_cast<Eigen::Index>(first);
    const auto& R = blocks.matrix();
    double* data = S.data();
    for (int l = 0; l < 4; ++l)
      for (int j = 0; j < 3; ++j) {
        double* col = data + S.offset(i0, i0 + 3 * l + j);  // col[i] = S(i0 + i, i0 + 3l + j)
        for (int k = 0; k < 4; ++k)
          for (int i = 0; i < 3; ++i) col[3 * k + i] += lane(R(k + 4 * l, i + 3 * j), ln);
      }
  }

  // The added mass of kLanes equal elements from e0 on a pack, added in element order; false
  // (nothing done) when one of them may reach the surface.
  bool hermite_added_mass_pack(std::size_t e0, const VecX<double>& q) {
    std::array<Eigen::Index, kLanes> i0{};
    Vec<Pk, 12> qe;
    if (!gather_submerged(e0, q, i0, qe)) return false;
    const Mat<Pk, 12> Ma = hermite_added_mass<Pk>(qe, line_.morison(e0), line_.L0(e0), opt_.surface_z);
    for (int l = 0; l < kLanes; ++l) detail::add_band_block(M_, static_cast<std::size_t>(i0[static_cast<std::size_t>(l)]), 12, Ma, l);
    return true;
  }

  // Gathers kLanes consecutive Hermite elements from e0 into one pack (their first DOFs in
  // i0); false when one of them may reach the surface (the caller then takes them one at a
  // time).
  bool gather_submerged(std::size_t e0, const VecX<double>& q, std::array<Eigen::Index, kLanes>& i0,
                        Vec<Pk, 12>& qe) const {
    const double L0 = line_.L0(e0);
    for (int l = 0; l < kLanes; ++l) {
      const auto i = static_cast<Eigen::Index>(line_.dof(e0 + static_cast<std::size_t>(l), 0));
      i0[static_cast<std::size_t>(l)] = i;
      if (element_may_cross(q.segment<12>(i), L0, opt_.surface_z)) return false;
    }
    for (int l = 0; l < kLanes; ++l)
      for (int k = 0; k < 12; ++k) qe(k).set(l, q(i0[static_cast<std::size_t>(l)] + k));
    return true;
  }

  // One Hermite element's force onto r and, with S, its effective tangent onto S: the element
  // residual (line/element_residual.hpp) with the held fluid, its blocks scattered once.
  void hermite_one(std::size_t e, const VecX<double>& q, const VecX<double>& v, VecX<double>& r,
                   BandMatrix<double>* S, double wq, double wv) {
    const auto i0 = static_cast<Eigen::Index>(line_.dof(e, 0));
    const Vec<double, 12> qe = q.segment<12>(i0), ve = v.segment<12>(i0);
    ElementSea<double> sea;
    sea.ua = fluid_->u[e];
    sea.ub = fluid_->u[e + 1];
    sea.udot = 0.5 * (fluid_->udot[e] + fluid_->udot[e + 1]);
    sea.surface_z = opt_.surface_z;
    HermiteBlockSum<double>* R = S ? &blocks_ : nullptr;
    if (R) R->set_zero();
    Vec<double, 12> f;
    Mat<double, 12> Kwet;
    const bool wet = hermite_element_residual<double>(line_.hermite_element(e), loads_[e], qe, ve, sea, f, R, wq, wv,
                                                      S ? &Kwet : nullptr);
    if (wet) detail::add_band_block(*S, line_.dof(e, 0), 12, Mat<double, 12>(-wq * Kwet));
    r.segment<12>(i0) += f;
    if (S) add_hermite_blocks(*S, line_.dof(e, 0), *R);
  }

  // kLanes consecutive Hermite elements from e0 on packs (pack_run_[e0]: equal parameters)
  // when none of them may reach the surface; returns false, having done nothing, otherwise.
  // The element residual of hermite_one lane by lane; the lanes' results are added into r and
  // S in element order.
  bool hermite_pack(std::size_t e0, const VecX<double>& q, const VecX<double>& v, VecX<double>& r,
                    BandMatrix<double>* S, double wq, double wv) {
    std::array<Eigen::Index, kLanes> i0{};
    Vec<Pk, 12> qe, ve, f;
    if (!gather_submerged(e0, q, i0, qe)) return false;
    ElementSea<Pk> sea;
    sea.surface_z = opt_.surface_z;
    for (int l = 0; l < kLanes; ++l) {
      const auto i = i0[static_cast<std::size_t>(l)];
      const std::size_t e = e0 + static_cast<std::size_t>(l);
      for (int k = 0; k < 12; ++k) ve(k).set(l, v(i + k));
      const Vec3<double> al = 0.5 * (fluid_->udot[e] + fluid_->udot[e + 1]);
      for (int c = 0; c < 3; ++c) {
        sea.ua(c).set(l, fluid_->u[e](c));
        sea.ub(c).set(l, fluid_->u[e + 1](c));
        sea.udot(c).set(l, al(c));
      }
    }
    HermiteBlockSum<Pk>* R = S ? &pack_blocks_ : nullptr;
    if (R) R->set_zero();
    try {
      hermite_element_residual<Pk>(line_.hermite_element(e0), loads_[e0], qe, ve, sea, f, R, wq, wv, nullptr);
    } catch (const DomainError&) {
      return false;  // one element at a time names the element whose state is outside the model
    }
    for (int l = 0; l < kLanes; ++l) {
      const auto i = i0[static_cast<std::size_t>(l)];
      for (int k = 0; k < 12; ++k) r(i + k) += f(k)[l];
      if (S) add_hermite_blocks(*S, static_cast<std::size_t>(i), pack_blocks_, l);
    }
    return true;
  }

  const Line& line_;
  DynamicOptions opt_;
  Eigen::Index n_;
  Eigen::Index kd_;
  BandMatrix<double> M_, M_struct_;
  HeldFluid still_;
  const HeldFluid* fluid_ = nullptr;
  HermiteBlockSum<double> blocks_;  // Hermite: one element's effective tangent (component-major)
  HermiteBlockSum<Pk> pack_blocks_;  // Hermite: kLanes elements' effective tangents
  std::vector<ElementLoads<double>> loads_;  // each element's weight, rho g A and Morison coefficients
  std::vector<char> pack_run_;     // Hermite: elements e .. e + kLanes - 1 exist and are equal
};

using LineLoadModel = BasicLineLoadModel<>;

}  // namespace cabledyn
