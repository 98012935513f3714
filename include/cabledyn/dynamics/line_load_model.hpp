// cabledyn: the line march's view of the line's load model (LineModel): the force r(q, v) = f_int + f_damping - f_ext
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

#include "cabledyn/dynamics/band_scatter.hpp"
#include "cabledyn/dynamics/line_march_types.hpp"
#include "cabledyn/line/line.hpp"
#include "cabledyn/line/band_sink.hpp"
#include "cabledyn/line/line_model.hpp"
#include "cabledyn/linalg/band_matrix.hpp"

namespace cabledyn {

/// The load model of one line in the march (EI = 0 or cubic Hermite): r(q, v) and its
/// Jacobians, and the mass, with the fluid field held over the step. The loads are the line's
/// load model's (LineModel, line/line_model.hpp: the one load model of a line, which the
/// statics, the modal analysis and the systems use too); this adds the march's band storage
/// (the constant structural mass assembled once) and its held fluid. Workspaces are sized at
/// construction: an evaluation allocates nothing.
/// The template parameter defers the instantiation of the element kernels to the files that
/// use the class (compile time); the march is double (`LineLoadModel`): long double and duals
/// march through the system route (system/).
template <class Real = double>
class BasicLineLoadModel {
  static_assert(std::is_same_v<Real, double>, "the line march runs in double; long double and duals: the system route");

 public:
  BasicLineLoadModel(const Line& line, const DynamicOptions& opt)
      : line_(line),
        opt_(opt),
        model_(LineModel<double>::elements_of(line, SeabedModel{opt.seabed_z, opt.seabed})),
        n_(static_cast<Eigen::Index>(line.dofs())),
        kd_(line.half_bandwidth()),
        M_(n_, kd_, kd_),
        M_struct_(n_, kd_, kd_) {
    model_.set_surface_z(opt.surface_z);
    model_.set_pack_elements(opt.pack_elements);
    still_.u.assign(line.n_nodes(), Vec3<double>::Zero());
    still_.udot.assign(line.n_nodes(), Vec3<double>::Zero());
    hold_fluid(nullptr);
    // The structural consistent mass is constant: assembled once (the added mass is added
    // per step, Hermite, or per residual, EI = 0).
    M_struct_.set_zero();
    detail::BandMarchSink sink{&M_struct_};
    model_.structural_mass(sink);
  }

  BasicLineLoadModel(const BasicLineLoadModel&) = delete;  // holds the line and the fluid by reference
  BasicLineLoadModel& operator=(const BasicLineLoadModel&) = delete;

  const Line& line() const { return line_; }
  /// The line's load model.
  const LineModel<double>& model() const { return model_; }

  /// The fluid field the evaluations use until the next call (null: still water); it must
  /// outlive them.
  void hold_fluid(const HeldFluid* fluid) {
    const HeldFluid* f = fluid ? fluid : &still_;
    check_fluid(*f);
    fluid_.u = f->u.data();
    fluid_.a = f->udot.data();
  }

  /// The mass of the last assemble_mass().
  const BandMatrix<double>& mass() const { return M_; }

  /// M = the cached structural mass + the added mass of the wetted part at q (into mass()).
  void assemble_mass(const VecX<double>& q) {
    detail::copy_band_scaled(M_, M_struct_, 1.0);  // the band rows (no allocation)
    detail::BandMarchSink sink{&M_};
    model_.added_mass(q, sink);
  }

  /// r = f_int + f_damping - f_ext at (q, v) with the held fluid. When S is given,
  /// S += wq dr/dq + wv dr/dv in band storage (the line's half-bandwidth).
  void evaluate(const VecX<double>& q, const VecX<double>& v, VecX<double>& r, BandMatrix<double>* S, double wq,
                double wv) {
    if (S) {
      detail::BandMarchSink sink{S};
      model_.dynamic_residual(q, v, fluid_, r, &sink, wq, wv);
    } else {
      model_.dynamic_residual(q, v, fluid_, r, static_cast<detail::BandMarchSink*>(nullptr), wq, wv);
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
    detail::BandMarchSink sink{&S};
    model_.added_mass_jacobian(qa, am, sink, w);
  }

  /// A held fluid field must sample every node.
  void check_fluid(const HeldFluid& f) const {
    if (f.u.size() != line_.n_nodes() || f.udot.size() != line_.n_nodes())
      throw InputError(line_.name(), "held fluid samples", f.u.size(), "one per node");
  }

 private:
  const Line& line_;
  DynamicOptions opt_;
  LineModel<double> model_;
  Eigen::Index n_;
  Eigen::Index kd_;
  BandMatrix<double> M_, M_struct_;
  HeldFluid still_;
  LineFluid fluid_;  // the held fluid's node arrays
};

using LineLoadModel = BasicLineLoadModel<>;

}  // namespace cabledyn
