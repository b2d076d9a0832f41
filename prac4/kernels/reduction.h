/*
 * kernels/reduction.h -- what every step of reduction_ladder.cu shares: the arguments of one reduction, and
 * the one-line description each step gives of itself for the runner's table.
 *
 * Each kernels/rN_*.cuh holds one step: its kernel(s), a launcher `run_<name>(ladder_args *)` that sums
 * a->d_in (or a->d_uin) into *a->d_out (or *a->d_uout) on the default stream, and `depth_<name>()`, the
 * longest chain of float additions any input passes through on its way to the result, from which the
 * runner derives the tolerance (reduction_tolerance in reduction_gold.c). Grids are ceil_div's
 * (helper_cuda.h).
 */
#ifndef REDUCTION_H
#define REDUCTION_H

#include <stddef.h>

typedef struct {
  const float *d_in;          // the n floats to add (256-byte aligned: cudaMalloc)
  const unsigned int *d_uin;  // step 5: the same values as unsigned ints
  size_t n;
  int threads;                // threads per block
  float *d_out;               // the result, one float on the device
  unsigned long long *d_uout; // step 5's result
  float *d_partial;           // one float per block: steps 3a and 6
  size_t npartial;            // its length
  unsigned int *d_count;      // step 6: blocks finished so far (0 between calls)
  float *h_partial;           // step 3a: the partial sums on the host
  double host_sum;            // step 3a: their sum, added on the host
  int blocks;                 // the grid each step launched (set by the launcher)
  int zero;                   // steps 3b, 4, 5: zero the result before the atomics (1), or forget to (0)
  int resident_blocks;        // step 6: blocks that fit on the GPU at once (all SMs)
  int unroll;                 // step 6: float4 loads in flight per thread
  void *d_temp;               // CUB's temporary storage, allocated once
  size_t temp_bytes;
} ladder_args;

// ceil(log2(x)) for x >= 1: the levels of a tree over x values
static inline int ceil_log2(long long x) {
  int l = 0;
  while ((1LL << l) < x) l++;
  return l;
}

#endif /* REDUCTION_H */
