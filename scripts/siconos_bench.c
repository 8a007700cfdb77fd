/* The Siconos side of `nonsmooth bench --siconos-solver`, in C: times only the call to
 * Siconos 4.4's `fc3d_driver`, inside the Siconos process, with no interpreter or binding
 * between the clock and the solver (the Python driver, scripts/siconos_driver.py, times
 * the same call through the SWIG binding, which adds the conversion of the arrays).
 *
 *   siconos_bench FILE SOLVER TOL MAX_ITER REPEAT
 *
 * FILE is a Siconos fc3d .dat file, SOLVER a Siconos fc3d solver name without its prefix
 * (NSGS, PROX, NSN_AC, NSN_FB, ...). Each of REPEAT runs starts from r = u = 0 with fresh
 * solver options; the best wall time (CLOCK_MONOTONIC) is kept, and the median of the runs
 * beside it. Prints one JSON line:
 *   {"file", "solver", "contacts", "info", "iterations", "error", "seconds", "median",
 *    "timer": "c"}
 * where error is Siconos's own `fc3d_compute_error` with the norm of q, as the Python
 * driver reports it. Exit status 2 on a usage error or an unknown solver, 1 when the file
 * cannot be read.
 *
 * Built on demand by `nonsmooth bench` with
 *   cc -O2 -I/usr/include/siconos scripts/siconos_bench.c -o ... -lsiconos_numerics -lm
 * (Debian: libsiconos-numerics-dev).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/fc3d_compute_error.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The solver names of the Python binding's SICONOS_FRICTION_3D_* constants. */
#define SOLVER(x) {#x, SICONOS_FRICTION_3D_##x}
static const struct {
  const char *name;
  int id;
} SOLVERS[] = {SOLVER(NSGS),   SOLVER(NSGSV),  SOLVER(PROX), SOLVER(TFP),
               SOLVER(NSN_AC), SOLVER(DSFP),   SOLVER(VI_FPP), SOLVER(VI_EG),
               SOLVER(HP),     SOLVER(FPP),    SOLVER(EG),   SOLVER(NSN_FB),
               SOLVER(ACLMFP), SOLVER(SOCLCP), SOLVER(NSN_NM), SOLVER(PFP),
               SOLVER(ADMM)};

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: siconos_bench FILE SOLVER TOL MAX_ITER REPEAT\n");
    return 2;
  }
  const char *file = argv[1];
  const char *solver = argv[2];
  double tol = atof(argv[3]);
  int max_iter = atoi(argv[4]);
  int repeat = atoi(argv[5]);
  if (repeat < 1)
    repeat = 1;
  int id = 0;
  for (size_t k = 0; k < sizeof SOLVERS / sizeof SOLVERS[0]; k++)
    if (strcmp(SOLVERS[k].name, solver) == 0)
      id = SOLVERS[k].id;
  if (id == 0) {
    fprintf(stderr, "unknown Siconos fc3d solver `%s`\n", solver);
    return 2;
  }
  FrictionContactProblem *prob = frictionContact_new_from_filename(file);
  if (!prob) {
    fprintf(stderr, "%s: Siconos cannot read this file\n", file);
    return 1;
  }
  int n = prob->dimension * prob->numberOfContacts;
  double *r = calloc((size_t)n + 1, sizeof(double));
  double *u = calloc((size_t)n + 1, sizeof(double));
  double best = INFINITY;
  double *times = calloc((size_t)repeat, sizeof(double));
  int info = 0, iterations = 0;
  double error = NAN;
  double norm_q = 0.0;
  for (int i = 0; i < n; i++)
    norm_q += prob->q[i] * prob->q[i];
  norm_q = sqrt(norm_q);
  for (int k = 0; k < repeat; k++) {
    memset(r, 0, sizeof(double) * (size_t)n);
    memset(u, 0, sizeof(double) * (size_t)n);
    SolverOptions *so = solver_options_create(id);
    so->dparam[SICONOS_DPARAM_TOL] = tol;
    so->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
    double t = now();
    info = fc3d_driver(prob, r, u, so);
    double seconds = now() - t;
    times[k] = seconds;
    if (seconds < best)
      best = seconds;
    iterations = so->iparam[SICONOS_IPARAM_ITER_DONE];
    fc3d_compute_error(prob, r, u, tol, so, norm_q, &error);
    solver_options_delete(so);
  }
  qsort(times, (size_t)repeat, sizeof(double), cmp_double);
  double median = repeat % 2 ? times[repeat / 2]
                             : 0.5 * (times[repeat / 2 - 1] + times[repeat / 2]);
  free(times);
  printf("{\"file\": \"");
  for (const char *c = file; *c; c++) {
    if (*c == '"' || *c == '\\')
      putchar('\\');
    putchar(*c);
  }
  char err[64];
  if (isfinite(error))
    snprintf(err, sizeof err, "%.9g", error);
  else
    snprintf(err, sizeof err, "null");
  printf("\", \"solver\": \"%s\", \"contacts\": %d, \"info\": %d, \"iterations\": %d, "
         "\"error\": %s, \"seconds\": %.9g, \"median\": %.9g, \"timer\": \"c\"}\n",
         solver, prob->numberOfContacts, info, iterations, err, best, median);
  free(r);
  free(u);
  frictionContactProblem_free(prob);
  return 0;
}
