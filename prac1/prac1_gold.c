/*
 * prac1_gold.c -- CPU gold for prac1a, prac1b and prac1c: what my_first_kernel should write.
 * Compiled by gcc as C; the .cu files declare it extern "C".
 */
#include "prac1_gold.h"

/* Element n is written by thread n % nthreads of block n / nthreads, which stores its threadIdx.x. */
void Gold_prac1(float *x, int nblocks, int nthreads) {
  long long n = (long long)nblocks * nthreads;
  for (long long i = 0; i < n; i++) x[i] = (float)(i % nthreads);
}
