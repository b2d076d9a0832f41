/*
 * prac4_gold.h -- the CPU gold routines of practical 4 (reduction, the Laplace rms change, softmax).
 * Declared once here, included by the programs (.cu, compiled as C++), by the _gold.c files that define
 * them (so that a changed signature fails to compile) and by tests/test_prac4.c.
 */
#ifndef PRAC4_GOLD_H
#define PRAC4_GOLD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* reduction_gold.c: the sum of n floats, added in double (exact for integer-valued floats while the total
 * stays below 2^53), and the sum of their absolute values, which the tolerance of a float sum is made of */
double reduction_gold(const float *data, size_t n, double *sum_abs);

/* reduction_gold.c: the sum of n unsigned ints, in 64 bits (exact for any n that fits in memory) */
unsigned long long reduction_gold_uint(const unsigned int *data, size_t n);

/* reduction_gold.c: the tolerance of a float sum in which no term goes through more than `depth` float
 * additions (the longest chain from a term to the result): gamma(depth) * sum_abs, gamma(k) = k u / (1 - k u),
 * u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms, section 4.2). 0 when the sum is
 * exact: integer-valued terms whose absolute values add up to at most 2^24, so that every partial sum is an
 * integer that a float holds exactly, whatever the order. */
double reduction_tolerance(double sum_abs, int integer_valued, double depth);

/* reduction_gold.c: the rms change between two iterates, sqrt(sum (u2 - u1)^2 / n), in double */
double rms_change_gold(const float *u1, const float *u2, size_t n);

/* softmax_gold.c: y_i = exp(x_i - max) / sum_j exp(x_j - max), in double; returns max - min over the finite
 * x (the spread that the float version's tolerance depends on). -inf entries (masked) give 0; all -inf: NaN */
double softmax_gold(const float *x, double *y, size_t n);

/* softmax_gold.c: the softmax of each row of a rows x cols matrix (row-major), in double. -inf entries give 0;
 * a row that is all -inf has no softmax (0/0) and gets NaN in every column, as softmax_rows defines it.
 * Returns the largest spread (max - min over a row's finite values), for the tolerance. */
double softmax_rows_gold(const float *x, double *y, size_t rows, size_t cols);

/* laplace3d_gold.c (a copy of prac3's): one Jacobi sweep, u2 from u1, on an NX x NY x NZ grid (i fastest) */
void Gold_laplace3d(int NX, int NY, int NZ, const float *u1, float *u2);

#ifdef __cplusplus
}
#endif

#endif /* PRAC4_GOLD_H */
