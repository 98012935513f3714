// cabledyn C API (capi/include/cabledyn_c.h) around cabledyn::io::SystemSimulation. Every
// entry point catches every exception: a cabledyn::Error maps to its status, the message is
// kept on the handle.
#include "cabledyn_c.h"

#include <exception>
#include <memory>
#include <new>
#include <string>

#include "cabledyn/io/system_simulation.hpp"

struct cabledyn_system {
  std::unique_ptr<cabledyn::io::SystemSimulation> sim;
  std::string error;
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

int cabledyn_coupled_dofs(const cabledyn_system* s, int* n) {
  return guarded(s, [&] {
    if (!n) throw cabledyn::InputError("cabledyn_coupled_dofs", "n", "NULL", "non-null");
    *n = s->sim->coupled_dofs();
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
