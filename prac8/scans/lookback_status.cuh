/*
 * scans/lookback_status.cuh -- practical 8, steps 4 to 9: the status words of a look-back, shared by
 * scan_blocks (-kernel=2, 3), recurrence (-kernel=2) and radix_sort's Onesweep (SPIN_LIMIT): the flags, one
 * 64-bit word written and read whole, and the limit after which a waiting look-back reports a bug instead
 * of hanging the GPU.
 */
#ifndef PRAC8_LOOKBACK_STATUS_CUH
#define PRAC8_LOOKBACK_STATUS_CUH

#include "helper_cuda.h"

// a look-back that spins this many times without news has met a bug (a predecessor that never
// publishes): it gives up and reports it, rather than hang the GPU
#define SPIN_LIMIT (1 << 24)

// the bits of a 32-bit value, for the status words
__device__ __forceinline__ unsigned to_bits(float x) { return __float_as_uint(x); }
__device__ __forceinline__ unsigned to_bits(int x) { return (unsigned)x; }
__device__ __forceinline__ unsigned to_bits(unsigned x) { return x; }
template <typename T> __device__ __forceinline__ T from_bits(unsigned b);
template <> __device__ __forceinline__ float from_bits<float>(unsigned b) { return __uint_as_float(b); }
template <> __device__ __forceinline__ int from_bits<int>(unsigned b) { return (int)b; }

// A tile's status is one 64-bit word, written and read whole (so a reader never sees a flag without its
// value): the high half is (epoch << 2 | flag), the low half the value's bits. The epoch is the launch's
// number, so that words left by the previous launch read as "nothing yet" without clearing the array.
#define FLAG_A 1u // the tile's own total (its aggregate) is published
#define FLAG_P 2u // the tile's inclusive prefix (everything up to and including it) is published

// (index and value of the caller's types: int tiles and a value's bits in scan_blocks, size_t words, two a
// tile, and floats in recurrence)
template <typename I, typename V>
__device__ __forceinline__ void publish(unsigned long long *status, I tile, unsigned epoch, unsigned flag, V value) {
  unsigned long long w = ((unsigned long long)((epoch << 2) | flag) << 32) | to_bits(value);
  *(volatile unsigned long long *)&status[tile] = w; // one 8-byte store: flag and value arrive together
}

// has this status word been published in this launch?
__device__ __forceinline__ bool published(unsigned long long w, unsigned epoch) {
  unsigned hi = (unsigned)(w >> 32);
  return (hi >> 2) == epoch && (hi & 3u);
}

#endif /* PRAC8_LOOKBACK_STATUS_CUH */
