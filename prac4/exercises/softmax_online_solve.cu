/*
 * exercises/softmax_online_solve.cu -- the starting file of the softmax exercise (the finished answer is
 * ../softmax_online_solve.cu): merge() and the thread's running update are cut out (TODO(softmax)), so the
 * sum is wrong and the harness ends RESULT: FAIL (exercise not done: ...). Run -case=5 (-inf masks) too.
 *
 * softmax_online_solve.cu -- LeetGPU "Softmax", online: the max and the sum in ONE read of the input.
 *
 * Each thread keeps a running pair (m, s): m the largest value it has seen, s = sum of exp(x - m) over
 * those values. A new value x > m moves the reference point: s = s * exp(m - x) + 1, m = x. Two pairs
 * merge the same way: m = max(ma, mb), s = sa * exp(ma - m) + sb * exp(mb - m). Threads merge their pairs
 * across the warp (shuffles), the block (shared memory) and the grid (the last block done, as in
 * kernels/r6_fast.cuh), leaving the global (m, s) in device memory for the second kernel, which writes
 * y = exp(x - m) / s. Traffic: two reads and one write (three-pass: three reads and one write); the second
 * kernel walks the array backwards, so it starts on the part the first read last, which is still in L2.
 * An empty pair is (-inf, 0); merging two empty pairs must not compute exp(-inf - -inf) = NaN.
 */
#include <math.h>
#include <stdint.h>

#include "helper_cuda.h"

#define SOFTMAX_THREADS 256
#define SOFTMAX_MAX_BLOCKS 4096

extern "C" const char solve_name[] = "softmax_online";

__device__ float2 g_partial[SOFTMAX_MAX_BLOCKS]; // (m, s) of each block
__device__ unsigned int g_count;                 // 0 at load time, left 0 by every launch
__device__ float2 g_ms;                          // the global (m, s)

// (ma, sa) and (mb, sb) -> one pair
__device__ float2 merge(float2 a, float2 b) {
  // TODO(softmax): the merged pair, by the header's rule for two pairs; when both are empty (m = -inf) the
  // result is empty too, (-inf, 0), never exp(-inf - -inf) = NaN
  return a.x >= b.x ? a : b;
}

__device__ float2 warp_merge(float2 v) {
  for (int d = 16; d > 0; d >>= 1) {
    float2 o = make_float2(__shfl_xor_sync(0xffffffffu, v.x, d), __shfl_xor_sync(0xffffffffu, v.y, d));
    v = merge(v, o);
  }
  return v;
}

// the block's merged pair, in every thread
__device__ float2 block_merge(float2 v) {
  __shared__ float2 warp_vals[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_merge(v);
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  v = lane < blockDim.x / 32 ? warp_vals[lane] : make_float2(-INFINITY, 0.0f);
  __syncthreads();
  return warp_merge(v);
}

// one read: every thread's (m, s) over float4 t, t + S, ... and the scalar tail, then the grid's
__global__ void softmax_stats(const float *__restrict__ x, int n4, int N) {
  const float4 *x4 = (const float4 *)x;
  int S = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
  float2 ms = make_float2(-INFINITY, 0.0f);
  for (int i = t; i < n4; i += S) {
    float4 v = x4[i];
    // TODO(softmax): fold the four values into ms: one new max, one rescale of s, four new exps. While all seen
    // is -inf (-case=5's masks), keep ms = (-inf, 0), as merge() does: exp(-inf - -inf) is NaN
    ms = merge(ms, make_float2(fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)), 1.0f));
  }
  for (int i = 4 * n4 + t; i < N; i += S) ms = merge(ms, make_float2(x[i], 1.0f));
  ms = block_merge(ms);

  // the last block done merges the blocks' pairs (why this is safe: kernels/r6_fast.cuh)
  __shared__ bool last;
  if (threadIdx.x == 0) {
    g_partial[blockIdx.x] = ms;
    __threadfence();
    last = (atomicAdd(&g_count, 1u) == gridDim.x - 1);
  }
  __syncthreads();
  if (last) {
    __threadfence();
    float2 w = make_float2(-INFINITY, 0.0f);
    for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x) w = merge(w, __ldcg(&g_partial[b]));
    w = block_merge(w);
    if (threadIdx.x == 0) {
      g_ms = w;
      g_count = 0;
    }
  }
}

// y = exp(x - m) / s, backwards (the tail first, then float4 n4 - 1 - t, n4 - 1 - t - S, ...), with
// streaming stores: the output is not read again
__global__ void softmax_write(const float *__restrict__ x, float *__restrict__ y, int n4, int N) {
  const float4 *x4 = (const float4 *)x;
  float4 *y4 = (float4 *)y;
  int S = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
  float m = g_ms.x, s = g_ms.y;
  for (int i = 4 * n4 + t; i < N; i += S) __stcs(&y[i], expf(x[i] - m) / s);
  for (int i = n4 - 1 - t; i >= 0; i -= S) {
    float4 v = x4[i];
    __stcs(&y4[i], make_float4(expf(v.x - m) / s, expf(v.y - m) / s, expf(v.z - m) / s, expf(v.w - m) / s));
  }
}

static int softmax_blocks(int N) {
  static int resident = 0;
  if (resident == 0) {
    int dev, sms, per_sm;
    checkCudaErrors(cudaGetDevice(&dev));
    sms = device_limits(dev)->sms;
    per_sm = occupancy_blocks_per_sm(softmax_stats, dev, SOFTMAX_THREADS, 0);
    resident = sms * per_sm < SOFTMAX_MAX_BLOCKS ? sms * per_sm : SOFTMAX_MAX_BLOCKS;
  }
  int want = (N / 4 + SOFTMAX_THREADS) / SOFTMAX_THREADS;
  return want < resident ? want : resident;
}

// per thread: 2 additions in a float4, one per float4 (or per float); 10 merges in the block; the last
// block's serial merges and 10 more
extern "C" int solve_chain(int N) {
  int blocks = softmax_blocks(N), S = blocks * SOFTMAX_THREADS;
  return 2 + (N + S - 1) / S + 10 + (blocks + SOFTMAX_THREADS - 1) / SOFTMAX_THREADS + 10;
}

extern "C" void solve(const float *input, float *output, int N) {
  int aligned = ((uintptr_t)input % 16 == 0) && ((uintptr_t)output % 16 == 0);
  int n4 = aligned ? N / 4 : 0;
  int blocks = softmax_blocks(N);
  softmax_stats<<<blocks, SOFTMAX_THREADS>>>(input, n4, N);
  getLastCudaError("softmax_stats execution failed");
  softmax_write<<<blocks, SOFTMAX_THREADS>>>(input, output, n4, N);
  getLastCudaError("softmax_write execution failed");
}
