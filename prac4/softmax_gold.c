/*
 * softmax_gold.c -- CPU gold for practical 4's softmax, in double.
 *
 * Subtracting the maximum first makes every exponent <= 0, so exp never overflows (exp(1000) does, even in
 * double's range it is 2e434 > 1.8e308), and the largest term is exactly 1, so the sum is at least 1.
 */
#include <math.h>
#include <stddef.h>

#include "prac4_gold.h"

double softmax_gold(const float *x, double *y, size_t n) {
  if (n == 0) return 0.0;
  double mx = x[0], mn = x[0];
  for (size_t i = 1; i < n; i++) {
    if (x[i] > mx) mx = x[i];
    if (x[i] < mn) mn = x[i];
  }
  double sum = 0.0;
  for (size_t i = 0; i < n; i++) {
    y[i] = exp((double)x[i] - mx);
    sum += y[i];
  }
  for (size_t i = 0; i < n; i++) y[i] /= sum;
  return mx - mn;
}
