// Fixtures of the modal tests: line types, straight (taut or unstressed) states built
// directly, mode classification, observed orders.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "cabledyn/line.hpp"
#include "cabledyn/modal.hpp"

namespace modal_fixtures {

using namespace cabledyn;
using Index = Eigen::Index;

inline LineType type(double EA, double EI, double rho_A = 10.0, double d = 0.05, double Can = 0,
                     double Cat = 0) {
  LineType t;
  t.name = "test type";
  t.d = d;
  t.rho_A = rho_A;
  t.EA = EA;
  t.EI = EI;
  t.Can = Can;
  t.Cat = Cat;
  return t;
}

inline LineEnd at(const Vec3<double>& p) {
  LineEnd e;
  e.position = p;
  return e;
}

/// The straight state of `line` between its two end positions, the nodes spread by their
/// unstretched arc length (uniform strain), Hermite tangents m = chord / length.
inline VecX<double> straight_state(const Line& line) {
  const Vec3<double> a = line.end(0).position, b = line.end(1).position;
  VecX<double> q = VecX<double>::Zero(static_cast<Index>(line.dofs()));
  for (std::size_t i = 0; i < line.n_nodes(); ++i) {
    q.segment<3>(static_cast<Index>(line.dof(i, 0))) = a + (line.s_node(i) / line.length()) * (b - a);
    if (line.hermite()) q.segment<3>(static_cast<Index>(line.dof(i, 3))) = (b - a) / line.length();
  }
  return q;
}

/// log2(e_coarse / e_fine): the observed order of a halving.
inline double order(double coarse, double fine) { return std::log2(coarse / fine); }

/// Share of a mode's squared nodal translations along a unit direction.
template <class T>
double share(const ModalResult<T>& r, Index mode, const Vec3<double>& dir) {
  double along = 0, all = 0;
  for (Index i = 0; i < r.n_nodes(); ++i) {
    const Vec3<double> d = r.translation(mode, i).template cast<double>();
    along += d.dot(dir) * d.dot(dir);
    all += d.squaredNorm();
  }
  return along / all;
}

}  // namespace modal_fixtures
