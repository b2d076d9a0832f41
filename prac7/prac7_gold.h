/*
 * prac7_gold.h -- the CPU gold routines of practical 7 (tridiagonal systems).
 * Declared once here, included by the programs (.cu, compiled as C++), by trid_gold.c, which defines them
 * (so that a changed signature fails to compile), and by tests/test_prac7.c.
 *
 * A tridiagonal system of n unknowns is stored as four arrays of length n: row i reads
 *   a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i],
 * with a[0] and c[n-1] ignored (there is no x[-1] or x[n]). A batch of systems lies one after another
 * (system s starts at s*n), as cuSPARSE's gtsv2StridedBatch has them.
 */
#ifndef PRAC7_GOLD_H
#define PRAC7_GOLD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* trid_gold.c: the Thomas algorithm (Gaussian elimination without pivoting) in double, one system.
 * Needs n scratch doubles in w (NULL: allocated inside). x may not alias the inputs. */
void Gold_thomas(int n, const double *a, const double *b, const double *c, const double *d, double *x, double *w);

/* The course's problem: niter backward-Euler steps of the heat equation, A u_new = lambda u_old with
 * A = tridiag(-1, 2 + lambda, -1) on NX points (zero outside), from u (NX values), in double. */
void Gold_trid(int NX, int niter, double lambda, const float *u0, double *u);

/* A batch of float systems solved in double (OpenMP over systems where available). */
void Gold_thomas_batch(int n, int batch, const float *a, const float *b, const float *c, const float *d, double *x);

/* ||A x - d||_inf / ||d||_inf over the whole batch (one block-diagonal system), in double. */
double Gold_residual_batch(int n, int batch, const float *a, const float *b, const float *c, const float *d,
                           const float *x);

/* CPU models of the GPU algorithms, in double, for tests/test_prac7.c and for reading beside the kernels.
 *
 * Model_pcr: parallel cyclic reduction on rows already normalised to a unit diagonal
 * (a[i] x[i-1] + x[i] + c[i] x[i+1] = d[i]), stride 1, 2, 4, ... while stride < n, every row updated from
 * the old values of rows i-s and i+s (rows outside 0..n-1 are the identity with zero right-hand side).
 * On return a and c are zero and d holds x. Returns the number of steps taken (ceil(log2 n)). */
int Model_pcr(int n, double *a, double *c, double *d);

/* Model_hybrid: the hybrid Thomas-PCR solver of Laszlo, Giles and Appleyard with `lanes` threads: each
 * lane's chunk of rows is reduced by a modified Thomas sweep to two rows (its first and last unknowns),
 * the 2*lanes reduced rows are solved by Model_pcr, and the chunk's inner unknowns follow from the two.
 * Systems of fewer than 2*lanes rows go straight to PCR, as on the GPU. Any n >= 1, any lanes >= 1. */
void Model_hybrid(int n, int lanes, const double *a, const double *b, const double *c, const double *d, double *x);

/* The first row and length of lane t's chunk when n rows are shared out among `lanes` lanes: the first
 * n % lanes lanes take one row more. The GPU kernel uses the same rule. */
void hybrid_chunk(int n, int lanes, int t, int *start, int *len);

#ifdef __cplusplus
}
#endif

#endif /* PRAC7_GOLD_H */
