/*
 * prac5_gold.h -- the CPU gold routines of practical 5 (matrix products, convolutions, the bounds their float
 * versions are judged by). Declared once here, included by the programs (.cu, compiled as C++), by
 * prac5_gold.c that defines them (so that a changed signature fails to compile) and by tests/test_prac5.c.
 *
 * Every matrix here is row-major, as C stores a 2-D array: element (i, j) of an R x C matrix is at i*C + j.
 */
#ifndef PRAC5_GOLD_H
#define PRAC5_GOLD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The unit roundoff of each format: half the distance from 1 to the next number (round to nearest). */
#define U_FP32 (1.0 / 16777216.0) /* 2^-24: 23 stored mantissa bits */
#define U_FP64 (1.0 / 9007199254740992.0) /* 2^-53: the double reference's unit roundoff */
#define U_TF32 (1.0 / 2048.0)     /* 2^-11: 10 mantissa bits, as FP16 */
#define U_FP16 (1.0 / 2048.0)     /* 2^-11 */
#define U_BF16 (1.0 / 256.0)      /* 2^-8: 7 mantissa bits */

/* gamma(k) = k u / (1 - k u): a float sum or dot product of k terms, in any order, is within
 * gamma(k) * sum |terms| of the exact value (Higham, Accuracy and Stability of Numerical Algorithms, 3.1) */
double gamma_k(double k, double u);

/* C = alpha * A * B + beta * C0 in double, for the rows which[0 .. nwhich-1] of C (which = NULL: every row,
 * nwhich ignored). A is rows x inner, B is inner x cols, C0 is rows x cols (may be NULL when beta = 0); C
 * gets one row of cols values per row asked for. absC, when not NULL, gets |alpha| |A| |B| + |beta| |C0| for
 * the same rows: the size of the terms, which the float result's error bound is made of. The rows run in
 * parallel with OpenMP where it is on. */
void gemm_gold(int rows, int inner, int cols, double alpha, const float *A, const float *B, double beta,
               const float *C0, const int *which, int nwhich, double *C, double *absC);

/* The rows a gold of at most max_work multiply-adds can afford: every row when rows*inner*cols fits,
 * else evenly spaced rows, the first and the last among them. Fills which (room for rows ints), returns
 * how many. */
int gemm_sample_rows(int rows, int inner, int cols, double max_work, int *which);

/* Full linear convolution y = x * h: y[i] = sum_j x[j] h[i-j], length nx + nh - 1, in double. */
void conv_full_gold(const float *x, int nx, const float *h, int nh, double *y);

/* "Valid" correlation, the LeetGPU problem: y[i] = sum_{j < nk} x[i+j] k[j] for i = 0 .. nx - nk, in double;
 * ay[i] = sum_j |x[i+j]| |k[j]| when ay is not NULL. Needs nx >= nk. */
void conv_valid_gold(const float *x, int nx, const float *k, int nk, double *y, double *ay);

/* The transpose: out (cols x rows) from in (rows x cols). Exact: it moves numbers, it computes none. */
void transpose_gold(const float *in, int rows, int cols, float *out);

/* The smallest n >= want of the form 2^a 3^b 5^c 7^d: the lengths cuFFT transforms with its fast
 * radix kernels (others go through Bluestein's algorithm, slower and less accurate). */
long long fft_good_size(long long want);

/* The bound on || y_fft - y ||_2 for a convolution of x (length nx) and h (length nh) through FFTs of
 * length p in float: c u log2(p) (||x||_2 ||h||_1 + ||x||_1 ||h||_2) with c = 16, see prac5_gold.c */
double fft_conv_bound(const float *x, int nx, const float *h, int nh, long long p);

/* L2 norm of a double array and of the difference between a float and a double array */
double norm2_double(const double *y, size_t n);
double diff_norm2(const float *a, const double *b, size_t n);

/* A small, fast generator, the same on every machine: uniform floats in [lo, hi) */
void fill_uniform(float *a, size_t n, unsigned int seed, float lo, float hi);

#ifdef __cplusplus
}
#endif

#endif /* PRAC5_GOLD_H */
