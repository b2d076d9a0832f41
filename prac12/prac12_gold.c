/*
 * prac12_gold.c -- practical 12's gold (prac12_gold.h): the course's inputs, and do_work's steps on the CPU.
 */
#include <math.h>
#include <stdlib.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "prac12_gold.h"

void prac12_inputs(double *x, size_t n, double sign) {
  // the course's: srand(0), then rand() in order (one sequence, so one thread)
  srand(0);
  for (size_t i = 0; i < n; i++) x[i] = sign * ((double)rand() / (double)RAND_MAX);
}

void prac12_gold(double *x, size_t n, int iters) {
  // each value on its own, as a thread does it on the GPU: the same steps in the same order, in double
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
  for (long long i = 0; i < (long long)n; i++) {
    double v = x[i];
    for (int j = 0; j < iters; j++) {
      v = cos(v);
      v = sqrt(fabs(v));
    }
    x[i] = v;
  }
}

int prac12_gold_threads(void) {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}
