/*
 * graphs.cuh -- practical 12, step 3: the arithmetic of graphs.cu, plain C (header only), so that
 * tests/test_prac12.c checks it with gcc and no GPU: the kernel counts a run measures, the value each small kernel
 * writes (the gold of both launch patterns) and the graph's shape they make, the poison no run can turn into a
 * right value, and the gold of the priority part's long kernels and of the pool part's kernel.
 */
#ifndef GRAPHS_CUH
#define GRAPHS_CUH

#include <stddef.h>

#define GR_KERNELS_MAX 10000 /* small kernels in one run at most: the issue's 10 000 */
#define GR_COUNTS_MAX 6      /* counts measured at most: 1, 10, 100, 1000, the largest (gr_counts) */
#define GR_BRANCHES_MAX 32   /* streams the independent kernels are spread over at most */

/*
 * The small kernels: kernel k of a run with offset off writes slot k, with x_{-1} = 0,
 *   independent  x_k = k + off                    (reads nothing)
 *   dependent    x_k = x_{k-1} + k + off          (reads slot k-1: a chain, kernel k after kernel k-1)
 * so the chain's slots are x_k = k(k+1)/2 + (k+1) off. Every value is an exact integer in [0, 2^36) for k < 10^4 and
 * off <= 2^20: 64-bit arithmetic, no rounding, checked for equality.
 */
#define GR_OFFSET_MAX (1 << 20)
static inline long long gr_gold(int k, int dep, long long off) {
  return dep ? (long long)k * (k + 1) / 2 + (long long)(k + 1) * off : k + off;
}

/*
 * The poison every slot holds before a checked run: 0x80 in every byte (cudaMemset's byte), -9.26e18. A kernel that
 * never ran leaves it; a chain's kernel that ran before the one it reads (out of order) adds k + off to it and stays
 * below -9e18. Neither can be a right value, which is never negative.
 */
#define GR_POISON_BYTE 0x80
#define GR_POISON ((long long)0x8080808080808080ULL)

/* Slots of x[0..n) that differ from the gold of offset off; the first in *first (-1: none) */
static inline size_t gr_check(const long long *x, int n, int dep, long long off, long long *first) {
  size_t bad = 0;
  *first = -1;
  for (int k = 0; k < n; k++)
    if (x[k] != gr_gold(k, dep, off) && bad++ == 0) *first = k;
  return bad;
}

/* The counts a run measures up to max: the powers of ten below it, then max itself (10000: 1, 10, 100, 1000, 10000;
 * 37: 1, 10, 37). Returns how many, at most GR_COUNTS_MAX for max <= GR_KERNELS_MAX. */
static inline int gr_counts(int max, int *counts) {
  int m = 0;
  for (int c = 1; c < max; c *= 10) counts[m++] = c;
  counts[m++] = max;
  return m;
}

/* The graph captured from n kernels has n kernel nodes, and its edges are the streams' order: the chain's n - 1;
 * the independent kernels', kernel k in branch k % branches, one chain a branch that has kernels, so n - min(n,
 * branches) (the fork and join events make edges between branches, none within the n kernels: they add no node). */
static inline size_t gr_edges(int n, int dep, int branches) {
  if (dep || branches <= 1) return (size_t)(n - 1);
  return (size_t)(n - (n < branches ? n : branches));
}

/*
 * The priority part's long kernels: thread i of the grid takes v = i through `iters` steps of the 64-bit LCG
 * v = A v + C (mod 2^64, Knuth's MMIX constants), a chain of dependent multiplies that keeps its SM busy. Its gold
 * without the loop: the steps compose as affine maps, (a, c) then (a', c') is (a' a, a' c + c'), so iters steps are
 * one map (a_n, c_n), found by squaring in log2(iters) steps, and thread i's result is a_n i + c_n.
 */
#define GR_LCG_A 6364136223846793005ULL
#define GR_LCG_C 1442695040888963407ULL
typedef struct {
  unsigned long long a, c;
} gr_affine;

static inline gr_affine gr_lcg_steps(long long iters) {
  gr_affine r = {1, 0}, p = {GR_LCG_A, GR_LCG_C}; /* r: the identity; p: 2^j steps */
  for (; iters > 0; iters >>= 1) {
    if (iters & 1) r.c = p.a * r.c + p.c, r.a = p.a * r.a; /* r, then p */
    p.c = p.a * p.c + p.c, p.a = p.a * p.a;                /* p, then p */
  }
  return r;
}

/* The pool part's kernel on allocation i of `words` 8-byte words: it writes word j = i + j at both ends, then reads
 * the first and the last back: out[i] = i + (i + words - 1) */
static inline long long gr_use_gold(int i, size_t words) { return 2LL * i + (long long)words - 1; }

#endif /* GRAPHS_CUH */
