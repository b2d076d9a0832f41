/*
 * sort/onesweep_histogram.cuh -- practical 8, step 9 (-kernel=3), before the passes: one histogram kernel
 * counts all four 8-bit digits of every key in a single read, and one block a pass scans them (where each
 * digit's keys start). The ordered-key bijection of floats (-float) is applied as the keys are read.
 */
#include "helper_cuda.h" // FULL_MASK
#include "onesweep_policy.h"

// FLIP_IN: the keys are float bits, turned into ordered keys as they are read; FLIP_OUT: turned back as
// they are written (the last pass)
template <bool FLIP> __device__ __forceinline__ unsigned to_key(unsigned b) {
  return FLIP ? b ^ ((b >> 31) ? 0xFFFFFFFFu : 0x80000000u) : b;
}
template <bool FLIP> __device__ __forceinline__ unsigned from_key(unsigned k) {
  return FLIP ? k ^ ((k >> 31) ? 0x80000000u : 0xFFFFFFFFu) : k;
}

// all four digits of every key in one read; hist[pass * 256 + digit]. Each thread has four 16-byte loads in
// flight before it counts them.
template <bool FLIP_IN> __device__ __forceinline__ void count_digits(unsigned (*s_hist)[256], unsigned b) {
  unsigned key = to_key<FLIP_IN>(b);
#pragma unroll
  for (int p = 0; p < 4; p++) atomicAdd(&s_hist[p][(key >> (8 * p)) & 255u], 1u);
}
template <bool FLIP_IN> __device__ __forceinline__ void count_digits4(unsigned (*s_hist)[256], uint4 q) {
  count_digits<FLIP_IN>(s_hist, q.x), count_digits<FLIP_IN>(s_hist, q.y);
  count_digits<FLIP_IN>(s_hist, q.z), count_digits<FLIP_IN>(s_hist, q.w);
}
template <bool FLIP_IN>
__global__ void __launch_bounds__(OS_HIST_THREADS) onesweep_histogram(const unsigned *keys, size_t n, unsigned *hist) {
  __shared__ unsigned s_hist[4][256];
  for (int j = threadIdx.x; j < 1024; j += blockDim.x) (&s_hist[0][0])[j] = 0;
  __syncthreads();
  const uint4 *kv = (const uint4 *)keys;
  size_t nvec = n / 4, stride = (size_t)gridDim.x * blockDim.x, v = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (; v + 3 * stride < nvec; v += 4 * stride) {
    uint4 q0 = kv[v], q1 = kv[v + stride], q2 = kv[v + 2 * stride], q3 = kv[v + 3 * stride];
    count_digits4<FLIP_IN>(s_hist, q0), count_digits4<FLIP_IN>(s_hist, q1);
    count_digits4<FLIP_IN>(s_hist, q2), count_digits4<FLIP_IN>(s_hist, q3);
  }
  for (; v < nvec; v += stride) count_digits4<FLIP_IN>(s_hist, kv[v]);
  if (blockIdx.x == 0 && threadIdx.x < n % 4) count_digits<FLIP_IN>(s_hist, keys[4 * nvec + threadIdx.x]); // the last 1-3
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
  unsigned incl = c;
  for (int d = 1; d < 32; d *= 2) {
    unsigned t = __shfl_up_sync(FULL_MASK, incl, d);
    if (lane >= d) incl += t;
  }
  if (lane == 31 && warp < 8) s_warp[warp] = incl;
  __syncthreads();
  unsigned before = 0, all = 0;
  for (int w = 0; w < 8; w++) {
    unsigned x = s_warp[w];
    before += (w < warp) ? x : 0u;
    all += x;
  }
  *total = all;
  return before + incl - c;
}

// where each digit's keys start, for each pass: one block a pass
__global__ void onesweep_digit_starts(const unsigned *hist, unsigned *start) {
  __shared__ unsigned s_warp[8];
  unsigned total;
  unsigned c = hist[blockIdx.x * 256 + threadIdx.x];
  start[blockIdx.x * 256 + threadIdx.x] = block_exclusive_scan_256(c, s_warp, &total);
}
