// The <root>.modes.out writer: the file parses back to the frequencies, periods, omega^2,
// positions and scaled translations of every line, in the documented layout.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "modal_fixtures.hpp"

using namespace cabledyn;
using namespace modal_fixtures;

namespace {

std::vector<ModalResult<double>> two_lines() {
  std::vector<ModalResult<double>> out;
  const Line a("line 1", {{type(1e7, 0), 29.97, 12}}, at(Vec3<double>(0, 0, -20)), at(Vec3<double>(30, 0, -20)));
  const Line b("cable B", {{type(1e7, 2e3), 19.99, 6}}, at(Vec3<double>(0, 5, -30)), at(Vec3<double>(0, 25, -30)));
  ModalOptions opt;
  opt.n_modes = 3;
  out.push_back(modal_analysis(a, StaticProblem{}, straight_state(a), opt));
  opt.n_modes = 2;
  out.push_back(modal_analysis(b, StaticProblem{}, straight_state(b), opt));
  return out;
}

void check_parse(std::istream& in, const std::vector<ModalResult<double>>& res) {
  std::string line, word;
  std::getline(in, line);
  CHECK(line == "CableDyn modes: natural frequencies and mode shapes about the static equilibrium");
  std::size_t count = 0;
  in >> word >> count;
  CHECK(word == "Lines");
  REQUIRE(count == res.size());
  for (std::size_t l = 0; l < count; ++l) {
    const auto& r = res[l];
    std::size_t idx = 0;
    std::string name, w1, w2;
    Index nodes = 0, modes = 0;
    in >> word >> idx >> name >> w1 >> nodes >> w2 >> modes;
    CHECK(word == "Line");
    CHECK(idx == l + 1);
    CHECK(name == (l == 0 ? "line_1" : "cable_B"));  // spaces become underscores
    CHECK(nodes == r.n_nodes());
    REQUIRE(modes == r.n_modes());
    std::getline(in, line);
    std::getline(in, line);
    CHECK(line == "Mode Frequency[Hz] Period[s] Omega2[rad^2/s^2]");
    for (Index j = 0; j < modes; ++j) {
      Index m = 0;
      double f = 0, T = 0, w2v = 0;
      in >> m >> f >> T >> w2v;
      CHECK(m == j + 1);
      CHECK(f == Approx(r.frequency(j)).epsilon(1e-12));
      CHECK(T == Approx(r.period(j)).epsilon(1e-12));
      CHECK(w2v == Approx(r.omega2(j)).epsilon(1e-12));
    }
    for (Index j = 0; j < modes; ++j) {
      Index m = 0;
      double f = 0, T = 0;
      in >> word >> m >> w1 >> f >> w2 >> T;
      CHECK(word == "Shape");
      CHECK(m == j + 1);
      CHECK(f == Approx(r.frequency(j)).epsilon(1e-12));
      std::getline(in, line);
      std::getline(in, line);
      CHECK(line == "Node s[m] x[m] y[m] z[m] dx dy dz");
      for (Index i = 0; i < nodes; ++i) {
        Index node = 0;
        double s = 0;
        Vec3<double> x, d;
        in >> node >> s >> x(0) >> x(1) >> x(2) >> d(0) >> d(1) >> d(2);
        CHECK(node == i + 1);
        CHECK(s == Approx(r.arc_length(i)).margin(1e-12));
        CHECK((x - r.positions.col(i)).norm() <= 1e-10);
        CHECK((d - r.translation(j, i)).norm() <= 1e-12);
      }
    }
  }
  in >> word;
  CHECK(in.eof());
}

}  // namespace

TEST_CASE("Modes output: the written file parses back to the results", "[modal][output]") {
  const auto res = two_lines();
  std::ostringstream os;
  write_modes<double>(os, res);
  std::istringstream in(os.str());
  check_parse(in, res);
  // The file variant writes <root>.modes.out.
  const std::string root = "modes_output_test_case";
  const std::string path = write_modes_file<double>(root, res);
  CHECK(path == root + ".modes.out");
  std::ifstream f(path);
  REQUIRE(f.good());
  check_parse(f, res);
  f.close();
  std::remove(path.c_str());
  CHECK_THROWS_AS(write_modes_file<double>("/nonexistent-dir/x", res), InputError);
}

TEST_CASE("Modes output: a zero frequency has an infinite period", "[modal][output]") {
  ModalResult<double> r;
  r.line = "l";
  r.omega2 = VecX<double>::Zero(1);
  r.frequency = VecX<double>::Zero(1);
  r.period = VecX<double>::Constant(1, std::numeric_limits<double>::infinity());
  r.translations = MatX<double>::Zero(6, 1);
  r.positions = MatX<double>::Zero(3, 2);
  r.arc_length = VecX<double>::Zero(2);
  std::ostringstream os;
  write_modes<double>(os, std::span<const ModalResult<double>>(&r, 1));
  CHECK(os.str().find("1 0.000000000000e+00 inf 0.000000000000e+00\n") != std::string::npos);
}
