/*
 * batch/check.cuh -- practical 7, steps 7-10: how trid_batch checks a solver (its own runner's code, not a
 * step of the ladder): every solution against the Thomas gold in double and by its residual, once after its
 * first run on a poisoned x, and once more after its timed runs (the solution the last of them left).
 */
#ifndef BATCH_CHECK_CUH
#define BATCH_CHECK_CUH

#include <stdio.h>

#include "gold_check.h"
#include "helper_cuda.h"
#include "batch/layout.cuh"
#include "prac7_gold.h"

// Float against the double Thomas gold. A CPU float model of PCR and of the hybrid on these systems (off-
// diagonals at most 0.8 of the diagonal, so errors are damped; |x| < 2) stays under 6e-7 at n = 3 .. 1024:
// 4e-6 leaves a margin of 6. The residual ||Ax - d|| / ||d|| of a float solve is a few float epsilons.
#define X_ATOL 4e-6
#define RESID_MAX 4e-6

typedef struct {
  const char *name;
  gold_stats st;
  double resid;
  int ok;
} solver_check;

static solver_check check_solution(const char *name, int n, int batch, const float *h_a, const float *h_b,
                                   const float *h_c, const float *h_d, const float *h_x, const double *h_gold) {
  solver_check r;
  r.name = name;
  compare_float_double(h_x, h_gold, (size_t)n * batch, X_ATOL, 0.0, &r.st);
  r.resid = Gold_residual_batch(n, batch, h_a, h_b, h_c, h_d, h_x);
  r.ok = r.st.nbad == 0 && r.resid <= RESID_MAX;
  printf("%-28s max |x - gold| = %.3e, rms = %.3e, residual = %.3e  %s\n", name, r.st.max_abs_err, r.st.rms_err,
         r.resid, r.ok ? "ok" : "WRONG");
  if (!r.ok) gold_report(name, &r.st);
  return r;
}

// The systems on the host (strided), room for a solution, and the gold
typedef struct {
  const float *a, *b, *c, *d;
  float *x;
  const double *gold;
} host_sys;

// The solution a solver left in t->x (or, interleaved, in t->xi), copied back and checked; then x and xi are
// poisoned (NaN), so that whatever runs next must write its own solution to pass its check (xi is NULL at
// -solver=hybrid: no interleaved layout)
static solver_check check_device(const char *name, const trid_args *t, int interleaved, const host_sys *h) {
  size_t bytes = (size_t)t->n * t->batch * sizeof(float);
  if (interleaved) to_layout(t->n, t->batch, t->xi, t->x);
  checkCudaErrors(cudaMemcpy(h->x, t->x, bytes, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemset(t->x, 0xff, bytes));
  if (t->xi) checkCudaErrors(cudaMemset(t->xi, 0xff, bytes));
  return check_solution(name, t->n, t->batch, h->a, h->b, h->c, h->d, h->x, h->gold);
}

// After a solver's timed runs: the solution the last of them left, checked as its first run's was (a timed
// result is a checked result too); the first solver that fails is kept in *bad
static void check_timed(const char *name, const trid_args *t, int interleaved, const host_sys *h, const char **bad) {
  if (!check_device(name, t, interleaved, h).ok && !*bad) *bad = name;
}

#endif /* BATCH_CHECK_CUH */
