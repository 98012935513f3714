/* An example host program in C: it creates a mooring system from a deck, solves its
 * statics with the coupled points at their deck positions, then drives them with a surge
 * motion of the platform and prints the forces of the lines on them.
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
  int n = 0;
  cabledyn_coupled_dofs(s, &n);
  double* x0 = calloc((size_t)n, sizeof(double));
  double* x = calloc((size_t)n, sizeof(double));
  double* v = calloc((size_t)n, sizeof(double));
  double* f = calloc((size_t)n, sizeof(double));
  /* The coupled points start where the deck puts them; this host knows its deck (the
   * fairleads of tests/capi/decks/bridle.dat; a real host passes its own vessel's). */
  const double deck_x[6] = {40, 15, -10, 40, -15, -10};
  for (int i = 0; i < n && i < 6; ++i) x0[i] = x[i] = deck_x[i];
  int status = cabledyn_init(s, x, v);
  double t = 0;
  const double w = 2 * 3.141592653589793 / 8;
  while (status == CABLEDYN_OK && t < tmax - 1e-9) {
    const double tn = t + dt;
    for (int c = 0; c < n / 3; ++c) {
      x[3 * c] = x0[3 * c] + 2.0 * sin(w * tn);
      v[3 * c] = 2.0 * w * cos(w * tn);
    }
    status = cabledyn_step(s, x, v, f, &t, dt);
  }
  if (status != CABLEDYN_OK) {
    fprintf(stderr, "%s\n", cabledyn_last_error(s));
  } else {
    printf("t = %.3f s\n", t);
    for (int c = 0; c < n / 3; ++c) printf("coupled point %d: force %.6e %.6e %.6e N\n", c + 1, f[3 * c], f[3 * c + 1], f[3 * c + 2]);
  }
  free(x0);
  free(x);
  free(v);
  free(f);
  cabledyn_close(s);
  return status == CABLEDYN_OK ? 0 : 1;
}
