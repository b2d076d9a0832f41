/*
 * prac2_quad_gold.c -- CPU gold for prac2_quad: sums of a*z^2 + b*z + c over the GPU's own normals.
 * Compiled by gcc as C.
 *
 * The GPU evaluates each term as (a*z + b)*z + c with two explicit fused multiply-adds (__fmaf_rn), and
 * C's fmaf rounds exactly as they do, so quad_term() gives the GPU's float terms bit for bit. What remains
 * to bound is only the rounding of the sums.
 */
#include <math.h>
#include <stddef.h>

#include "prac2_gold.h"

float quad_term(float z, float a, float b, float c) { return fmaf(fmaf(a, z, b), z, c); }

/* The sum of the float terms in double, and the sum of their absolute values (the scale of rounding errors). */
void quad_gold(const float *z, size_t n, float a, float b, float c, double *sum, double *sum_abs) {
  double s = 0.0, sa = 0.0;
  for (size_t i = 0; i < n; i++) {
    double t = quad_term(z[i], a, b, c);
    s += t;
    sa += fabs(t);
  }
  *sum = s;
  *sum_abs = sa;
}

/* What each of nthreads GPU threads sums in method 1: thread t takes terms t, t + nthreads, ... */
void quad_gold_partials(const float *z, size_t n, size_t nthreads, float a, float b, float c, double *part,
                        double *part_abs) {
  for (size_t t = 0; t < nthreads; t++) {
    double s = 0.0, sa = 0.0;
    for (size_t i = t; i < n; i += nthreads) {
      double x = quad_term(z[i], a, b, c);
      s += x;
      sa += fabs(x);
    }
    part[t] = s;
    part_abs[t] = sa;
  }
}

/*
 * What each of nthreads GPU threads of method 2b (sum_atomic_thread) holds before its atomicAdd: the same terms,
 * added in a float running sum from 0 in increasing order of index, as that kernel adds them. Bit for bit the
 * kernel's: the terms are (quad_term), and both sides round each float addition once, to nearest (IEEE 754),
 * in the same order (nvcc as the workbook builds, without --use_fast_math, reassociates no float additions,
 * and gcc -std=c11 none). One pass over z in order, thread t's running sum in part[t]: cheap next to the
 * strided pass above.
 */
void quad_gold_float_partials(const float *z, size_t n, size_t nthreads, float a, float b, float c, float *part) {
  for (size_t t = 0; t < nthreads; t++) part[t] = 0.0f;
  for (size_t i = 0, t = 0; i < n; i++) {
    part[t] += quad_term(z[i], a, b, c);
    if (++t == nthreads) t = 0;
  }
}

/*
 * How far a sum may be from the gold's. The terms are exact, so only the additions round: a float running sum
 * of `chain` terms is within chain*u of the exact sum, relative to the sum of the absolute values (u = 2^-24,
 * the standard recursive-summation bound, with 0.1 % for its second-order part), and a double sum of n
 * values, in any order, within n*2^-53 of it.
 */
double quad_tolerance(size_t chain, size_t n, double sum_abs) {
  return ((double)chain * 0x1.0p-24 * 1.001 + (double)n * 0x1.0p-53) * sum_abs;
}
