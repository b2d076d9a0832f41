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

/* concat_gold.c: step 7. out = the K inputs concatenated along `axis`: row-major tensors of rank 1 to 4 and
 * elements of elem bytes (moved as bytes); dims are the output's extents, input k has split[k] on the axis
 * (the splits sum to dims[axis]) and dims elsewhere */
void Gold_concat(const void *const *in, int K, const size_t *split, const size_t *dims, int rank, int axis,
                 size_t elem, void *out);
/* the poison of concat's output, a byte repeated: all ones (a NaN in half and float), and 0x80 (-128) for int8;
 * concat_inputs: n elements of elem bytes from a seed, none of them the poison */
#define CONCAT_POISON 0xff
#define CONCAT_POISON_INT8 0x80
void concat_inputs(unsigned char *x, size_t n, size_t elem, unsigned int seed);

/* eltwise_gold.c: step 8, binary element-wise operators with broadcasting (eltwise.cu). The operators, in the
 * order elementwise/table.h names them: arithmetic (the output has the inputs' type), logical (int8 inputs) and
 * relational (any type), both of which give uint8 0/1. The element types: half (IEEE binary16, held as its
 * 16 bits), float, int8. */
enum { ELT_ADD, ELT_SUB, ELT_MUL, ELT_DIV, ELT_MAX, ELT_MIN, ELT_AND, ELT_OR, ELT_XOR,
       ELT_LT, ELT_LE, ELT_EQ, ELT_NE, ELT_GT, ELT_GE, ELT_NOPS };
enum { ELT_HALF, ELT_FLOAT, ELT_INT8, ELT_NTYPES };
#define ELT_MAX_DIMS 4
/* float <-> half in plain C: to half rounds to nearest, ties to even (NaN stays NaN, quiet) */
uint16_t half_from_float(float f);
float half_to_float(uint16_t h);
/* count test inputs of a type: the special pairs first (a: which = 0, b: which = 1, so that the contiguous
 * views pair them), then values from a seed; mask = 1: int8 0/1 only (the results of comparisons) */
void eltwise_inputs(void *x, size_t count, int type, int mask, int which, unsigned int seed);
/* one element: *out = a OP b, out of the op's output type (the inputs' type, or uint8) */
void eltwise_gold_op(int op, int type, const void *a, const void *b, void *out);
/* out (contiguous, extent[0] x .. x extent[3]) = a OP b, a and b read at element strides astride, bstride
 * (0 broadcasts) from their views' first elements */
void Gold_eltwise(int op, int type, const long long *extent, const void *a, const long long *astride, const void *b,
                  const long long *bstride, void *out);

#ifdef __cplusplus
}
#endif

#endif /* PRAC6_GOLD_H */
