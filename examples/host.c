/* An example host program in C: it creates a mooring system from a deck, solves its
 * statics with the coupled points and bodies at their deck poses, then drives them with a
 * surge motion of the platform and prints the loads of the lines on them.
 *   cabledyn_host <deck> [tmax] [dt]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cabledyn_c.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s <deck> [tmax] [dt]\n", argv[0]);
    return 2;
  }
  const double tmax = argc > 2 ? atof(argv[2]) : 10.0, dt = argc > 3 ? atof(argv[3]) : 0.05;
  cabledyn_system* s = NULL;
  if (cabledyn_create(argv[1], &s) != CABLEDYN_OK) {
    fprintf(stderr, "%s\n", cabledyn_last_error(NULL));
    return 1;
  }
  int notes = 0;
  cabledyn_note_count(s, &notes);
  for (int i = 0; i < notes; ++i) {
    const char* text = NULL;
    if (cabledyn_note(s, i, &text) == CABLEDYN_OK) fprintf(stderr, "note: %s\n", text);
  }
  int n = 0, np = 0, nb = 0;
  cabledyn_coupled_dofs(s, &n);
  cabledyn_coupled_objects(s, &np, &nb);
  double* x0 = calloc((size_t)n + 1, sizeof(double));
  double* x = calloc((size_t)n + 1, sizeof(double));
  double* v = calloc((size_t)n + 1, sizeof(double));
  double* f = calloc((size_t)n + 1, sizeof(double));
  /* The coupled points and bodies start where the deck puts them (a real host passes its
   * own vessel's pose). */
  cabledyn_coupled_deck_positions(s, x0);
  for (int i = 0; i < n; ++i) x[i] = x0[i];
  int status = cabledyn_init(s, x, v);
  double t = 0;
  const double w = 2 * 3.141592653589793 / 8;
  while (status == CABLEDYN_OK && t < tmax - 1e-9) {
    const double tn = t + dt;
    /* Surge: 2 m amplitude, 8 s period, on the x of every coupled point and body. */
    for (int c = 0; c < nb + np; ++c) {
      const int i = c < nb ? 6 * c : 6 * nb + 3 * (c - nb);  /* bodies first, then points */
      x[i] = x0[i] + 2.0 * sin(w * tn);
      v[i] = 2.0 * w * cos(w * tn);
    }
    status = cabledyn_step(s, x, v, f, &t, dt);
  }
  if (status != CABLEDYN_OK) {
    fprintf(stderr, "%s\n", cabledyn_last_error(s));
  } else {
    printf("t = %.3f s\n", t);
    for (int c = 0; c < nb; ++c) {
      const double* g = f + 6 * c;
      printf("coupled body %d: force %.6e %.6e %.6e N, moment %.6e %.6e %.6e N m\n", c + 1, g[0], g[1], g[2], g[3], g[4], g[5]);
    }
    for (int c = 0; c < np; ++c) {
      const double* g = f + 6 * nb + 3 * c;
      printf("coupled point %d: force %.6e %.6e %.6e N\n", c + 1, g[0], g[1], g[2]);
    }
  }
  free(x0);
  free(x);
  free(v);
  free(f);
  cabledyn_close(s);
  return status == CABLEDYN_OK ? 0 : 1;
}
