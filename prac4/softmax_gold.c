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
  return softmax_rows_gold(x, y, 1, n); /* one row of n: the same treatment of -inf */
}

double softmax_rows_gold(const float *x, double *y, size_t rows, size_t cols) {
  double spread = 0.0;
#pragma omp parallel for reduction(max : spread) schedule(static)
  for (long long r = 0; r < (long long)rows; r++) {
    const float *xr = x + (size_t)r * cols;
    double *yr = y + (size_t)r * cols;
    double mx = -INFINITY, mn = INFINITY;
    for (size_t c = 0; c < cols; c++) {
      if (xr[c] > mx) mx = xr[c];
      if (xr[c] < mn && xr[c] != -INFINITY) mn = xr[c];
    }
    if (mx == -INFINITY) { /* all -inf: no softmax, NaN by definition */
      for (size_t c = 0; c < cols; c++) yr[c] = NAN;
      continue;
    }
    if (mx - mn > spread) spread = mx - mn;
    double sum = 0.0;
    for (size_t c = 0; c < cols; c++) {
      yr[c] = exp((double)xr[c] - mx); /* exp(-inf) = 0; x - mx in double never overflows (|x| < 3.5e38) */
      sum += yr[c];
    }
    for (size_t c = 0; c < cols; c++) yr[c] /= sum;
  }
  return spread;
}
