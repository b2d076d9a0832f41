/*
 * prac11_gold.h -- the CPU gold routines of practical 11 (streams and CPU threads). Declared once here, included
 * by stream_test.cu and multithread_test.cu (compiled as C++), by prac11_gold.c, which defines them (so that a
 * changed signature fails to compile), and by tests/test_prac11.c.
 *
 * The course's kernel stores x[i] = sqrt(pow(3.14159, i)). The literal is a double, so pow and sqrt are FP64
 * (the work the lesson times), and the double is rounded to float as it is stored. The float overflows to +inf
 * from i = 156 on (sqrt(3.14159^156) > FLT_MAX), and pow itself overflows double to +inf from i = 621: past
 * i = 155 every value is +inf, on the GPU and in the gold alike.
 */
#ifndef PRAC11_GOLD_H
#define PRAC11_GOLD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PRAC11_BASE 3.14159    /* the course's literal: a double */
#define PRAC11_N_MAX (1 << 24) /* floats per array at most: 64 MiB each, 32 of them 2 GiB */
#define PRAC11_K_MAX 32        /* streams (host threads) at most, each one kernel of one block */

/* the course's kernel on the CPU: x[i] = (float)sqrt(pow(PRAC11_BASE, i)) for i = 0 .. n-1 */
void prac11_gold(float *x, int n);

/*
 * The GPU's x against the gold's: the values that differ, and the first (its index in *first, -1 if none).
 * A value agrees when it is the gold's exactly (+inf against +inf included) or when both are finite and x is
 * the float next to it, one ulp up or down (nextafterf). Why one ulp: the GPU's pow is CUDA's (within 2 ulp
 * in double, the CUDA Programming Guide's table), the gold's is the C library's, so the two doubles may differ
 * in their last bits, and rounding them to float then gives the same float or its neighbour. NaN always
 * fails, and so does a finite value against +inf (FLT_MAX, the float below the overflow, included): a kernel
 * that never ran leaves the poison (0xff bytes, a NaN), which cannot pass.
 */
size_t prac11_compare(const float *x, const float *gold, size_t n, long long *first);

/* The kernels' intervals on one timeline (ms from a common start event): begin[k] to end[k] for k = 0..count-1. */
typedef struct {
  int overlapped; /* kernels whose interval overlaps another's: begin_k < end_j and begin_j < end_k, j != k */
  double sum_ms;  /* the kernels' own times, end - begin, summed */
  double span_ms; /* the first begin to the last end */
} prac11_concurrency;

/* Touching intervals (one ends as the next begins, as on one stream) do not overlap. */
prac11_concurrency prac11_overlap(const double *begin, const double *end, int count);

#ifdef __cplusplus
}
#endif

#endif /* PRAC11_GOLD_H */
