/*
 * prac6_gold.c -- the CPU gold of practical 6's steps 1-4 (prac6, prac6a, prac6b, prac6c).
 */
#include <math.h>

#include "prac6_gold.h"

void Gold_prac6(float *x, int nblocks, int nthreads) {
  for (int b = 0; b < nblocks; b++)
    for (int t = 0; t < nthreads; t++) x[(size_t)b * nthreads + t] = (float)t;
}

/* the template's arithmetic, type by type: float and double halve exactly, int division truncates */
void Gold_prac6b_float(float *x, int nblocks, int nthreads) {
  for (int b = 0; b < nblocks; b++)
    for (int t = 0; t < nthreads; t++) x[(size_t)b * nthreads + t] = (float)t / 2.0f;
}

void Gold_prac6b_int(int *x, int nblocks, int nthreads) {
  for (int b = 0; b < nblocks; b++)
    for (int t = 0; t < nthreads; t++) x[(size_t)b * nthreads + t] = t / 2;
}

void Gold_prac6b_double(double *x, int nblocks, int nthreads) {
  for (int b = 0; b < nblocks; b++)
    for (int t = 0; t < nthreads; t++) x[(size_t)b * nthreads + t] = (double)t / 2.0;
}

/* sum_{i,j<m} xl[i] xl[j] = (sum_i xl[i])^2, computed as the kernel does it but in double */
void Gold_prac6c(double *x, int n, int m) {
  for (int tid = 0; tid < n; tid++) {
    double s = 0.0;
    for (int i = 0; i < m; i++) s += exp(-XL_DECAY * (double)i * (double)tid);
    x[tid] = s * s;
  }
}
