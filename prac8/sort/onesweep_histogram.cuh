/*
 * sort/onesweep_histogram.cuh -- practical 8, step 9 (-kernel=3), before the passes: one histogram kernel
 * counts all four 8-bit digits of every key in a single read, and one block per pass scans them (where each
 * digit's keys start). The ordered-key bijection of floats (-float) is applied as the keys are read. Its grid
 * is what the GPU holds at once (onesweep_setup, from the occupancy API): the loop strides over the keys.
 */
#include "helper_cuda.h" // FULL_MASK
#include "onesweep_policy.h"
#include "sort_common.cuh" // warp_inclusive_scan

// What a pass reads (32 bits per key) and the key it sorts by: KEYS_UINT, unsigned keys as they are; KEYS_FLOAT,
// float bits, turned into ordered keys as the first pass reads them (to_key) and back as the last pass writes
// them (from_key): flip every bit of a negative float, only the sign of a positive one (-0 just before +0).
// KEYS_FAULT_ZEROS is the same but for a deliberate bug, radix_sort -fault=zeros: -0 and +0 trade keys, so +0
// comes first and every bit survives; compared as floats the result is sorted, compared by bits it is not.
enum os_keys { KEYS_UINT, KEYS_FLOAT, KEYS_FAULT_ZEROS };
// (the fault's swap, its own inverse: the keys of -0 and +0, 0x7FFFFFFF and 0x80000000, are each other's ~)
__device__ __forceinline__ unsigned swap_zero_keys(unsigned k) { return (((k + 1u) & ~1u) == 0x80000000u) ? ~k : k; }
template <int KEYS> __device__ __forceinline__ unsigned to_key(unsigned b) {
  unsigned k = (KEYS == KEYS_UINT) ? b : b ^ ((b >> 31) ? 0xFFFFFFFFu : 0x80000000u);
  return (KEYS == KEYS_FAULT_ZEROS) ? swap_zero_keys(k) : k;
}
template <int KEYS> __device__ __forceinline__ unsigned from_key(unsigned k) {
  if (KEYS == KEYS_FAULT_ZEROS) k = swap_zero_keys(k);
  return (KEYS == KEYS_UINT) ? k : k ^ ((k >> 31) ? 0x80000000u : 0xFFFFFFFFu);
}

// all four digits of every key in one read; hist[pass * 256 + digit]. Each thread has four 16-byte loads in
// flight before it counts them.
template <int KEYS> __device__ __forceinline__ void count_digits(unsigned (*s_hist)[256], unsigned b) {
  unsigned key = to_key<KEYS>(b);
#pragma unroll
  for (int p = 0; p < 4; p++) atomicAdd(&s_hist[p][(key >> (8 * p)) & 255u], 1u);
}
template <int KEYS> __device__ __forceinline__ void count_digits4(unsigned (*s_hist)[256], uint4 q) {
  count_digits<KEYS>(s_hist, q.x), count_digits<KEYS>(s_hist, q.y);
  count_digits<KEYS>(s_hist, q.z), count_digits<KEYS>(s_hist, q.w);
}
template <int KEYS>
__global__ void __launch_bounds__(OS_HIST_THREADS) onesweep_histogram(const unsigned *keys, size_t n, unsigned *hist) {
  __shared__ unsigned s_hist[4][256];
  for (int j = threadIdx.x; j < 1024; j += blockDim.x) (&s_hist[0][0])[j] = 0;
  __syncthreads();
  const uint4 *kv = (const uint4 *)keys;
  size_t nvec = n / 4, stride = (size_t)gridDim.x * blockDim.x, v = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (; v + 3 * stride < nvec; v += 4 * stride) {
    uint4 q0 = kv[v], q1 = kv[v + stride], q2 = kv[v + 2 * stride], q3 = kv[v + 3 * stride];
    count_digits4<KEYS>(s_hist, q0), count_digits4<KEYS>(s_hist, q1);
    count_digits4<KEYS>(s_hist, q2), count_digits4<KEYS>(s_hist, q3);
  }
  for (; v < nvec; v += stride) count_digits4<KEYS>(s_hist, kv[v]);
  if (blockIdx.x == 0 && threadIdx.x < n % 4) count_digits<KEYS>(s_hist, keys[4 * nvec + threadIdx.x]); // the last 1-3
  __syncthreads();
  for (int j = threadIdx.x; j < 1024; j += blockDim.x) {
    unsigned c = (&s_hist[0][0])[j];
    if (c) atomicAdd(&hist[j], c);
  }
}

// exclusive scan of 256 values, one for each of threads 0-255, in a block of 256 or more threads (the others
// pass 0 and take part only in the barrier); returns the total of the 256 in *total
__device__ __forceinline__ unsigned block_exclusive_scan_256(unsigned c, unsigned *s_warp, unsigned *total) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned incl = warp_inclusive_scan(c, lane);
  if (lane == 31 && warp < 8) s_warp[warp] = incl;
  __syncthreads();
  unsigned before = 0, sum = 0;
  for (int w = 0; w < 8; w++) {
    unsigned x = s_warp[w];
    before += (w < warp) ? x : 0u;
    sum += x;
  }
  *total = sum;
  return before + incl - c;
}

// where each digit's keys start, for each pass: one block per pass
__global__ void onesweep_digit_starts(const unsigned *hist, unsigned *start) {
  __shared__ unsigned s_warp[8];
  unsigned total;
  unsigned c = hist[blockIdx.x * 256 + threadIdx.x];
  start[blockIdx.x * 256 + threadIdx.x] = block_exclusive_scan_256(c, s_warp, &total);
}
