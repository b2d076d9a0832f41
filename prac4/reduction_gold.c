/*
 * reduction_gold.c -- CPU gold for practical 4's reductions and the Laplace rms change, in double.
 *
 * Why double: a float has 24 bits of mantissa, so a float running sum of 2^28 values near 4.5 (about 1.2e9)
 * has a spacing of 128 between neighbouring floats and loses most of each term it adds. The gold must be far
 * more accurate than the GPU's float sum it judges; a double (53 bits) adds 2^28 such terms exactly.
 */
#include <math.h>
#include <stddef.h>

#include "prac4_gold.h"

double reduction_gold(const float *data, size_t n, double *sum_abs) {
  double sum = 0.0, abs_sum = 0.0;
  for (size_t i = 0; i < n; i++) {
    sum += (double)data[i];
    abs_sum += fabs((double)data[i]);
  }
  if (sum_abs) *sum_abs = abs_sum;
  return sum;
}

unsigned long long reduction_gold_uint(const unsigned int *data, size_t n) {
  unsigned long long sum = 0;
  for (size_t i = 0; i < n; i++) sum += data[i];
  return sum;
}

double reduction_tolerance(double sum_abs, int integer_valued, double depth) {
  const double u = 0x1p-24; /* the unit roundoff of float: half the spacing of floats just above 1 */
  if (integer_valued && sum_abs <= 0x1p24) return 0.0;
  double ku = depth * u;
  if (ku >= 1.0) return INFINITY; /* no bound: the caller must pick a shallower order */
  return ku / (1.0 - ku) * sum_abs;
}

double rms_change_gold(const float *u1, const float *u2, size_t n) {
  double sum = 0.0;
  for (size_t i = 0; i < n; i++) {
    double d = (double)u2[i] - (double)u1[i];
    sum += d * d;
  }
  return n ? sqrt(sum / (double)n) : 0.0;
}
