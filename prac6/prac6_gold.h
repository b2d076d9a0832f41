/*
 * prac6_gold.h -- the CPU gold routines of practical 6.
 * Declared once here, included by the programs (.cu, compiled as C++; main.c, compiled as C), by the _gold.c
 * files that define them (so that a changed signature fails to compile) and by tests/test_prac6.c.
 */
#ifndef PRAC6_GOLD_H
#define PRAC6_GOLD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* prac6_gold.c: steps 1-2, x[tid] = threadIdx.x for nblocks blocks of nthreads threads */
void Gold_prac6(float *x, int nblocks, int nthreads);

/* prac6_gold.c: step 3, the template kernel x[tid] = threadIdx.x / 2 in the arithmetic of each type */
void Gold_prac6b_float(float *x, int nblocks, int nthreads);
void Gold_prac6b_int(int *x, int nblocks, int nthreads);
void Gold_prac6b_double(double *x, int nblocks, int nthreads);

/* prac6_gold.c: step 4, x[tid] = sum over i, j < m of xl[i] * xl[j], xl[i] = exp(-XL_DECAY * i * tid) (in double) */
#define XL_DECAY 0.125
void Gold_prac6c(double *x, int n, int m);

/* atomics_gold.c: step 5. The values each thread throws at the targets: item i goes to target i % ntargets. */
typedef struct {
  unsigned int sum_lo, sum_hi; /* a 64-bit sum kept as two 32-bit words: the multi-word update under a lock */
  unsigned int count;          /* how many items were added */
  unsigned int check;          /* the xor of every item: one more word that must stay in step with the sum */
} lock_record;
void Gold_atomics(const float *f, const int *v, const unsigned char *b, int n, int ntargets, float *fmax,
                  int *isum, int *imax, unsigned char *bsum, unsigned char *bmax);
/* the records after items 0..n-1 went through the spin lock: sum (64-bit, of v), count, xor of v */
void Gold_locked(const int *v, int n, int ntargets, lock_record *rec);
/* the values of item i, from a seed: floats of both signs (never 0 or NaN), ints, bytes */
void atomics_inputs(float *f, int *v, unsigned char *b, int n, unsigned int seed);

/* fastdiv_gold.c: step 6. Division by d (1 <= d <= 2^32 - 1) as q = (umulhi(n, m) + n) >> s (see fastdiv.h) */
typedef struct {
  uint32_t d, m, s;
} fastdiv_t;
fastdiv_t fastdiv_make(uint32_t d);
/* a tensor's NCHW index -> NHWC layout, on the CPU with plain / and % */
void Gold_nchw_to_nhwc(const float *in, float *out, int N, int C, int H, int W);

#ifdef __cplusplus
}
#endif

#endif /* PRAC6_GOLD_H */
