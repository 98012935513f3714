// Seabed normal contact: the C1 penalty law with its 1e-6 m blend, its potential and
// derivatives, and the one-sided normal damper.
#include <catch2/catch.hpp>

#include "cabledyn/autodiff/dual.hpp"
#include "cabledyn/seabed/contact.hpp"

using namespace cabledyn;

TEST_CASE("Penalty law: C1 through first contact, linear beyond the blend", "[seabed]") {
  const double k = 5e4, delta = 1e-6;
  double f, df, E;
  penalty_law(0.0, k, delta, f, df, E);
  CHECK(f == 0);
  CHECK(df == 0);
  penalty_law(-0.3, k, delta, f, df, E);
  CHECK((f == 0 && df == 0 && E == 0));
  // Continuity of force and slope at g = delta (both sides).
  double f1, d1, E1, f2, d2, E2;
  penalty_law(delta * (1 - 1e-9), k, delta, f1, d1, E1);
  penalty_law(delta * (1 + 1e-9), k, delta, f2, d2, E2);
  CHECK(f1 == Approx(k * delta / 2).epsilon(1e-8));
  CHECK(f2 == Approx(k * delta / 2).epsilon(1e-8));
  CHECK(d1 == Approx(k).epsilon(1e-8));
  CHECK(d2 == k);
  CHECK(E1 == Approx(E2).epsilon(1e-8));
  // Beyond the blend: exactly linear, k (g - delta/2).
  penalty_law(0.11, k, delta, f, df, E);
  CHECK(f == Approx(k * (0.11 - delta / 2)).epsilon(1e-15));
  // The force is the derivative of the potential (duals), in and beyond the blend.
  using D = Dual<double, 1>;
  for (double g : {0.3e-6, 0.9e-6, 2e-6, 0.05}) {
    D fd, dfd, Ed;
    penalty_law(D(g, 1, 0), k, delta, fd, dfd, Ed);
    CHECK(Ed.derivatives()(0) == Approx(fd.value()).epsilon(1e-12));
    CHECK(fd.derivatives()(0) == Approx(dfd.value()).epsilon(1e-12));
  }
}

TEST_CASE("Nodal contact: stiffness kBot d l_trib, damper only into the bed", "[seabed]") {
  SeabedParams p;  // kBot 1e5, cBot 1e4 (DECK_FORMAT defaults)
  const double d = 0.12, l = 8.0, zf = -100.0;
  const double k = p.kBot * d * l, c = p.cBot * d * l;
  // 5 cm into the bed, at rest: f = k (g - delta/2), g = z_floor - z as the law forms it.
  const double z5 = zf - 0.05, g5 = zf - z5;
  auto n = seabed_contact<double>(z5, 0.0, zf, d, l, p);
  CHECK(n.f == Approx(k * (g5 - 0.5e-6)).epsilon(1e-14));
  CHECK(n.df_dz == -k);
  CHECK(n.df_dvz == 0);
  // Moving into the bed: the damper pushes back; moving out: no damper.
  n = seabed_contact<double>(z5, -0.2, zf, d, l, p);
  CHECK(n.f == Approx(k * (g5 - 0.5e-6) + c * 0.2).epsilon(1e-14));
  CHECK(n.df_dvz == Approx(-c));
  n = seabed_contact<double>(z5, +0.2, zf, d, l, p);
  CHECK(n.f == Approx(k * (g5 - 0.5e-6)).epsilon(1e-14));
  // Above the bed: nothing.
  n = seabed_contact<double>(zf + 1e-3, -0.5, zf, d, l, p);
  CHECK((n.f == 0 && n.df_dz == 0 && n.df_dvz == 0));
  // Inside the blend the damper ramps with chi = g / delta; derivatives by duals.
  using D = Dual<double, 2>;
  for (double g : {0.25e-6, 0.75e-6, 3e-6}) {
    const double z = zf - g, vz = -0.4;
    const auto nd = seabed_contact<D>(D(z, 2, 0), D(vz, 2, 1), zf, d, l, p);
    const auto nn = seabed_contact<double>(z, vz, zf, d, l, p);
    CHECK(nd.f.derivatives()(0) == Approx(nn.df_dz).epsilon(1e-10));
    CHECK(nd.f.derivatives()(1) == Approx(nn.df_dvz).epsilon(1e-12));
    const double chi = std::min((zf - z) / p.delta, 1.0);
    CHECK(nn.f - nn.f_elastic == Approx(c * 0.4 * chi).epsilon(1e-12));
  }
  SeabedParams bad;
  bad.kBot = -1;
  CHECK_THROWS_WITH(bad.validate("OPTIONS"), "InputError: OPTIONS: kBot = -1 (limit: >= 0)");
}

TEST_CASE("Contact entry: a Newton update stops a landing node in the seabed blend",
          "[seabed]") {
  // The fraction of an update that brings a node from outside the floor to the blend's middle.
  const double zf = -100, delta = 1e-6;
  CHECK(contact_entry_fraction(-99.0, -2.0, zf, delta) == Approx((1.0 + 0.5e-6) / 2.0).epsilon(1e-15));
  CHECK(contact_entry_fraction(-99.0, -0.5, zf, delta) == 1.0);               // stays outside
  CHECK(contact_entry_fraction(-100.0 - 1e-3, -1.0, zf, delta) == 1.0);       // already in contact
  CHECK(contact_entry_fraction(-99.0, -1.0 - 0.9e-6, zf, delta) == 1.0);       // ends in the blend
  CHECK(contact_entry_fraction(-100.5, 1.0, zf, delta) == 1.0);               // leaving
  const double a = contact_entry_fraction(-99.9, -0.3, zf, delta);
  CHECK(zf - (-99.9 - a * 0.3) == Approx(0.5 * delta).margin(1e-12));
}
