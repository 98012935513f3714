// cabledyn C API (capi/include/cabledyn_c.h) around cabledyn::io::SystemSimulation. Every
// entry point catches every exception: a cabledyn::Error maps to its status, the message is
// kept on the handle.
#include "cabledyn_c.h"

#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "cabledyn/io/system_simulation.hpp"

struct cabledyn_system {
  std::unique_ptr<cabledyn::io::SystemSimulation> sim;
  std::string error;
  std::vector<std::string> notes;  // SystemSimulation::host_notes(), kept for cabledyn_note
};

namespace {

thread_local std::string g_create_error;

int status_of(const std::exception& e) {
  if (dynamic_cast<const cabledyn::NotImplementedError*>(&e)) return CABLEDYN_NOT_IMPLEMENTED;
  if (dynamic_cast<const cabledyn::InputError*>(&e)) return CABLEDYN_INPUT_ERROR;
  if (dynamic_cast<const cabledyn::SolveError*>(&e) || dynamic_cast<const cabledyn::DomainError*>(&e))
    return CABLEDYN_SOLVE_ERROR;
  return CABLEDYN_ERROR;
}

// Runs f on s, mapping exceptions to a status and keeping the message.
template <class F>
int guarded(const cabledyn_system* s, F&& f) {
  if (!s) return CABLEDYN_INPUT_ERROR;
  auto& err = const_cast<cabledyn_system*>(s)->error;
  try {
    f();
    return CABLEDYN_OK;
  } catch (const std::exception& e) {
    err = e.what();
    return status_of(e);
  } catch (...) {
    err = "unknown error";
    return CABLEDYN_ERROR;
  }
}

}  // namespace

extern "C" {

int cabledyn_create(const char* deck_path, cabledyn_system** out) {
  if (out) *out = nullptr;
  if (!deck_path || !out) {
    g_create_error = "InputError: cabledyn_create: deck_path / out = NULL (limit: non-null)";
    return CABLEDYN_INPUT_ERROR;
  }
  try {
    auto s = std::make_unique<cabledyn_system>();
    s->sim = cabledyn::io::SystemSimulation::from_file(deck_path);
    s->notes = s->sim->host_notes();
    *out = s.release();
    return CABLEDYN_OK;
  } catch (const std::exception& e) {
    g_create_error = e.what();
    return status_of(e);
  } catch (...) {
    g_create_error = "unknown error";
    return CABLEDYN_ERROR;
  }
}

int cabledyn_note_count(const cabledyn_system* s, int* n) {
  return guarded(s, [&] {
    if (!n) throw cabledyn::InputError("cabledyn_note_count", "n", "NULL", "non-null");
    *n = static_cast<int>(s->notes.size());
  });
}

int cabledyn_note(const cabledyn_system* s, int i, const char** text) {
  return guarded(s, [&] {
    if (!text) throw cabledyn::InputError("cabledyn_note", "text", "NULL", "non-null");
    if (i < 0 || i >= static_cast<int>(s->notes.size()))
      throw cabledyn::InputError("cabledyn_note", "i", i, "in [0, " + std::to_string(s->notes.size()) + ")");
    *text = s->notes[static_cast<std::size_t>(i)].c_str();
  });
}

int cabledyn_coupled_dofs(const cabledyn_system* s, int* n) {
  return guarded(s, [&] {
    if (!n) throw cabledyn::InputError("cabledyn_coupled_dofs", "n", "NULL", "non-null");
    *n = s->sim->coupled_dofs();
  });
}

int cabledyn_coupled_objects(const cabledyn_system* s, int* points, int* bodies) {
  return guarded(s, [&] {
    if (!points || !bodies) throw cabledyn::InputError("cabledyn_coupled_objects", "points / bodies", "NULL", "non-null");
    *points = static_cast<int>(s->sim->model().coupled.size());
    *bodies = static_cast<int>(s->sim->model().coupled_bodies.size());
  });
}

int cabledyn_coupled_deck_positions(const cabledyn_system* s, double* x) {
  return guarded(s, [&] {
    if (!x) throw cabledyn::InputError("cabledyn_coupled_deck_positions", "x", "NULL", "non-null");
    const auto& m = s->sim->model();
    const auto& d = s->sim->deck();
    std::size_t k = 0;
    for (std::size_t c = 0; c < m.coupled_bodies.size(); ++c)
      for (int i = 0; i < m.coupled_width[c]; ++i) x[k++] = m.coupled_deck_pose[c](i);
    for (int p : m.coupled) {
      const auto* rec = d.find_point(m.point_id[static_cast<std::size_t>(p)]);
      for (int i = 0; i < 3; ++i) x[k++] = rec->r[static_cast<std::size_t>(i)];
    }
  });
}

int cabledyn_body_pose(const cabledyn_system* s, int id, double r6[6]) {
  return guarded(s, [&] {
    if (!r6) throw cabledyn::InputError("cabledyn_body_pose", "r6", "NULL", "non-null");
    cabledyn::Vec3<double> r;
    cabledyn::Mat3<double> R;
    s->sim->body_pose(id, r, R);
    const auto a = cabledyn::io::deck_body_angles(s->sim->deck().options, R);
    for (int k = 0; k < 3; ++k) r6[k] = r(k), r6[3 + k] = a(k);
  });
}

int cabledyn_body_load(const cabledyn_system* s, int id, double f6[6]) {
  return guarded(s, [&] {
    if (!f6) throw cabledyn::InputError("cabledyn_body_load", "f6", "NULL", "non-null");
    const auto F = s->sim->body_load(id);
    for (int k = 0; k < 6; ++k) f6[k] = F(k);
  });
}

int cabledyn_init(cabledyn_system* s, const double* x, const double* v) {
  return guarded(s, [&] {
    if (!x || !v) throw cabledyn::InputError("cabledyn_init", "x / v", "NULL", "non-null");
    s->sim->initialize(x, v);
  });
}

int cabledyn_step(cabledyn_system* s, const double* x, const double* v, double* f, double* t, double dt) {
  return guarded(s, [&] {
    if (!x || !v || !f || !t) throw cabledyn::InputError("cabledyn_step", "x / v / f / t", "NULL", "non-null");
    s->sim->step(x, v, *t, dt, f);
    *t = s->sim->time();
  });
}

int cabledyn_point_position(const cabledyn_system* s, int id, double r[3]) {
  return guarded(s, [&] {
    const auto p = s->sim->point_position(id);
    for (int k = 0; k < 3; ++k) r[k] = p(k);
  });
}

int cabledyn_point_force(const cabledyn_system* s, int id, double f[3]) {
  return guarded(s, [&] {
    const auto p = s->sim->point_force(id);
    for (int k = 0; k < 3; ++k) f[k] = p(k);
  });
}

int cabledyn_line_end_force(const cabledyn_system* s, int id, int end, double f[3]) {
  return guarded(s, [&] {
    const auto p = s->sim->line_end_force(id, end);
    for (int k = 0; k < 3; ++k) f[k] = p(k);
  });
}

int cabledyn_line_nodes(const cabledyn_system* s, int id, int* n) {
  return guarded(s, [&] {
    if (!n) throw cabledyn::InputError("cabledyn_line_nodes", "n", "NULL", "non-null");
    *n = s->sim->line_nodes(id);
  });
}

int cabledyn_line_node_position(const cabledyn_system* s, int id, int i, double r[3], double t[3]) {
  return guarded(s, [&] {
    if (!r) throw cabledyn::InputError("cabledyn_line_node_position", "r", "NULL", "non-null");
    cabledyn::Vec3<double> tg;
    const auto p = s->sim->line_node_position(id, i, t ? &tg : nullptr);
    for (int k = 0; k < 3; ++k) r[k] = p(k);
    if (t)
      for (int k = 0; k < 3; ++k) t[k] = tg(k);
  });
}

int cabledyn_save(const cabledyn_system* s, const char* path) {
  return guarded(s, [&] {
    if (!path) throw cabledyn::InputError("cabledyn_save", "path", "NULL", "non-null");
    s->sim->save(path);
  });
}

int cabledyn_load(cabledyn_system* s, const char* path) {
  return guarded(s, [&] {
    if (!path) throw cabledyn::InputError("cabledyn_load", "path", "NULL", "non-null");
    s->sim->load(path);
  });
}

const char* cabledyn_last_error(const cabledyn_system* s) { return s ? s->error.c_str() : g_create_error.c_str(); }

int cabledyn_close(cabledyn_system* s) {
  delete s;
  return CABLEDYN_OK;
}

}  // extern "C"
