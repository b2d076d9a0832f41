/*
 * prac2_quad_gold.c -- CPU gold for prac2_quad: the sum of a*z^2 + b*z + c over the GPU's own normals.
 * Compiled by gcc as C.
 */
#include <math.h>
#include <stddef.h>

void quad_gold(const float *z, size_t n, double a, double b, double c, double *sum, double *sum_abs);
double quad_tolerance(size_t chain, size_t n, double sum_abs);

/* The sum in double, and the sum of |a| z^2 + |b| |z| + |c|, the scale that rounding errors are measured on
 * (a single term can cancel, so its own size says nothing about the error made computing it). */
void quad_gold(const float *z, size_t n, double a, double b, double c, double *sum, double *sum_abs) {
  double s = 0.0, sa = 0.0;
  for (size_t i = 0; i < n; i++) {
    double x = z[i];
    s += a * x * x + b * x + c;
    sa += fabs(a) * x * x + fabs(b) * fabs(x) + fabs(c);
  }
  *sum = s;
  *sum_abs = sa;
}

/*
 * How far a GPU sum may be from the gold. Each term a*z*z + b*z + c in float carries at most 4 roundings
 * (u = 2^-24 each, relative to |a| z^2 + |b| |z| + |c|); a float running sum of `chain` terms adds at most
 * chain*u relative to the same scale (the standard recursive-summation bound); the final sums of all n terms
 * in double add n*2^-53.
 */
double quad_tolerance(size_t chain, size_t n, double sum_abs) {
  return ((double)(chain + 4) * 0x1.0p-24 + (double)n * 0x1.0p-53) * sum_abs;
}
