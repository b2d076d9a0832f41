/*
 * fastdiv.h -- division by a run-time-invariant divisor with a multiply, an add and a shift (practical 6, step 6).
 *
 * For 1 <= d <= 2^32 - 1, fastdiv_make(d) (fastdiv_gold.c) picks
 *     s = ceil(log2 d)              (so 2^(s-1) < d <= 2^s)
 *     m = floor(2^32 (2^s - d) / d) + 1,   which fits in 32 bits,
 * and then for every 32-bit n
 *     n / d = (umulhi(n, m) + n) >> s       umulhi(a, b) = the top 32 bits of the 64-bit product a * b
 * with the add done in 64 bits, so that it cannot overflow. Why it is exact: docs/prac6.md, step 6.
 * Plain C with __host__ __device__ under nvcc: the CPU test (tests/test_prac6.c), the gold and the kernels all
 * use these very lines.
 */
#ifndef FASTDIV_H
#define FASTDIV_H

#include <stdint.h>

#include "prac6_gold.h"

#ifdef __CUDACC__
#define FASTDIV_HD __host__ __device__
#else
#define FASTDIV_HD
#endif

static inline FASTDIV_HD uint32_t umulhi32(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
  return __umulhi(a, b); // one instruction (IMAD.HI)
#else
  return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}

static inline FASTDIV_HD uint32_t fastdiv_div(uint32_t n, fastdiv_t f) {
  return (uint32_t)(((uint64_t)umulhi32(n, f.m) + n) >> f.s);
}

static inline FASTDIV_HD uint32_t fastdiv_mod(uint32_t n, fastdiv_t f) { return n - fastdiv_div(n, f) * f.d; }

#endif /* FASTDIV_H */
