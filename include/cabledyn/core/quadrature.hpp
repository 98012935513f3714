// cabledyn: Gauss-Legendre rules of order 1 to 6 (and 10) on the element interval [0, 1].
// Spec "The cubic-Hermite bending element", Quadrature: axial and bending energies use
// Gauss-Legendre integration, orders 1..6 selectable; the consistent mass uses four points,
// distributed hydrodynamic loads three, the bend stiffener six; "Attached objects and line
// ends": a rod's partly wet sections take ten.
#pragma once

#include <array>
#include <cstddef>

#include "cabledyn/core/errors.hpp"

namespace cabledyn {

/// Highest Gauss-Legendre order of the element quadratures (orders 1..6 selectable).
inline constexpr int kMaxGaussOrder = 6;
/// The ten-point rule is tabulated too (a rod's partly wet sections); a GaussRule holding it
/// is declared with capacity 10.
inline constexpr int kGaussOrder10 = 10;

/// An n-point Gauss-Legendre rule on [0, 1]: integral_0^1 f(xi) dxi ~ sum w_i f(xi_i),
/// exact for polynomials of degree 2n - 1. Nodes ascend; weights sum to 1. Cap: the most
/// points it can hold.
template <class T, int Cap = kMaxGaussOrder>
struct GaussRule {
  int n = 0;
  std::array<T, Cap> xi{};
  std::array<T, Cap> w{};

  /// Integral over [0, 1] of f (any callable of one scalar), accumulated in type R
  /// (T by default; a vector or matrix type for vector integrands).
  template <class R = T, class F>
  R integrate(F&& f) const {
    R sum = w[0] * f(xi[0]);
    for (int i = 1; i < n; ++i) sum += w[i] * f(xi[i]);
    return sum;
  }
};

namespace detail {
// Nodes and weights on [0, 1] to 36 significant digits (computed by Newton iteration on
// P_n in 50-digit arithmetic), so that they are exact in long double.
struct GaussPointLD {
  long double xi, w;
};
inline constexpr GaussPointLD kGauss1[] = {{0.5L, 1.0L}};
inline constexpr GaussPointLD kGauss2[] = {
    {0.211324865405187117745425609749021272L, 0.5L},
    {0.788675134594812882254574390250978728L, 0.5L}};
inline constexpr GaussPointLD kGauss3[] = {
    {0.112701665379258311482073460021760039L, 0.277777777777777777777777777777777778L},
    {0.5L, 0.444444444444444444444444444444444444L},
    {0.887298334620741688517926539978239961L, 0.277777777777777777777777777777777778L}};
inline constexpr GaussPointLD kGauss4[] = {
    {0.0694318442029737123880267555535952475L, 0.173927422568726928686531974610999704L},
    {0.330009478207571867598667120448377656L, 0.326072577431273071313468025389000296L},
    {0.669990521792428132401332879551622344L, 0.326072577431273071313468025389000296L},
    {0.930568155797026287611973244446404753L, 0.173927422568726928686531974610999704L}};
inline constexpr GaussPointLD kGauss5[] = {
    {0.0469100770306680036011865608503035174L, 0.118463442528094543757132020359958681L},
    {0.230765344947158454481842789649895598L, 0.239314335249683234020645757417819096L},
    {0.5L, 0.284444444444444444444444444444444444L},
    {0.769234655052841545518157210350104402L, 0.239314335249683234020645757417819096L},
    {0.953089922969331996398813439149696483L, 0.118463442528094543757132020359958681L}};
inline constexpr GaussPointLD kGauss6[] = {
    {0.0337652428984239860938492227530026954L, 0.0856622461895851725201480710863664468L},
    {0.169395306766867743169300202490047326L, 0.180380786524069303784916756918858056L},
    {0.380690406958401545684749139159644032L, 0.233956967286345523694935171994775497L},
    {0.619309593041598454315250860840355968L, 0.233956967286345523694935171994775497L},
    {0.830604693233132256830699797509952674L, 0.180380786524069303784916756918858056L},
    {0.966234757101576013906150777246997305L, 0.0856622461895851725201480710863664468L}};
inline constexpr GaussPointLD kGauss10[] = {
    {0.0130467357414141399610179939577739733L, 0.0333356721543440687967844049466658964L},
    {0.0674683166555077446339516557882534757L, 0.0747256745752902965728881698288486662L},
    {0.160295215850487796882836317442563212L, 0.109543181257991021997767467114081596L},
    {0.283302302935376404600367028417107919L, 0.134633359654998177545613460784734676L},
    {0.425562830509184394557586999435140008L, 0.147762112357376435086946497325669165L},
    {0.574437169490815605442413000564859992L, 0.147762112357376435086946497325669165L},
    {0.716697697064623595399632971582892081L, 0.134633359654998177545613460784734676L},
    {0.839704784149512203117163682557436788L, 0.109543181257991021997767467114081596L},
    {0.932531683344492255366048344211746524L, 0.0747256745752902965728881698288486662L},
    {0.986953264258585860038982006042226027L, 0.0333356721543440687967844049466658964L}};
inline constexpr const GaussPointLD* kGaussTables[] = {nullptr, kGauss1, kGauss2, kGauss3, kGauss4, kGauss5,
                                                       kGauss6, nullptr, nullptr, nullptr, kGauss10};
}  // namespace detail

/// The n-point Gauss-Legendre rule on [0, 1] in scalar type T (n in 1..6, or 10 with Cap 10).
/// Throws InputError for any other n.
template <class T, int Cap = kMaxGaussOrder>
GaussRule<T, Cap> gauss_legendre(int n) {
  if (n < 1 || n > Cap || (n > kMaxGaussOrder && n != kGaussOrder10))
    throw InputError("Gauss-Legendre rule", "order", n, Cap >= kGaussOrder10 ? "in [1, 6] or 10" : "in [1, 6]");
  GaussRule<T, Cap> rule;
  rule.n = n;
  for (int i = 0; i < n; ++i) {
    rule.xi[static_cast<std::size_t>(i)] = T(detail::kGaussTables[n][i].xi);
    rule.w[static_cast<std::size_t>(i)] = T(detail::kGaussTables[n][i].w);
  }
  return rule;
}

/// The n-point rule mapped to [a, b] (weights scaled by b - a).
template <class T, int Cap = kMaxGaussOrder>
GaussRule<T, Cap> gauss_legendre(int n, const T& a, const T& b) {
  GaussRule<T, Cap> rule = gauss_legendre<T, Cap>(n);
  const T len = b - a;
  for (int i = 0; i < n; ++i) {
    auto& x = rule.xi[static_cast<std::size_t>(i)];
    x = a + len * x;
    rule.w[static_cast<std::size_t>(i)] *= len;
  }
  return rule;
}

}  // namespace cabledyn
