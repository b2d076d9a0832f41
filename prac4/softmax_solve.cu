/*
 * softmax_solve.cu -- LeetGPU "Softmax", three passes over the input:
 *   1. m = max_i x_i                       (a max-reduction)
 *   2. s = sum_i exp(x_i - m)              (a sum-reduction: step 6's kernel with expf inside)
 *   3. y_i = exp(x_i - m) / s              (elementwise)
 * Passes 1 and 2 each end with step 6's "last block done" (kernels/r6_fast.cuh), which leaves m and s in
 * __device__ variables that the next pass reads: no host round trip, no memset, no workspace to allocate.
 * Traffic: three reads and one write of N floats, twice the least there is (one read, one write). Each pass
 * walks the array in the opposite direction to the one before, so that it starts on the part the previous
 * pass read last, which is still in the L2 cache.
 * The input is read as float4 when it is 16-byte aligned (cudaMalloc's pointers are), else one float at a time.
 */
#include <math.h>
#include <stdint.h>

#include "helper_cuda.h"

#define SOFTMAX_THREADS 256
#define SOFTMAX_MAX_BLOCKS 4096

extern "C" const char solve_name[] = "softmax";

// the reductions' workspace, in device memory from the start: one value per block, the counter, the results
__device__ float g_partial[SOFTMAX_MAX_BLOCKS];
__device__ unsigned int g_count; // 0 at load time, and left 0 by every launch
__device__ float g_max, g_sum;

__device__ float warp_max(float v) {
  for (int d = 16; d > 0; d >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, d));
  return v;
}
__device__ float warp_sum(float v) {
  for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

// the block's max (is_max) or sum of v, in every thread
__device__ float block_reduce(float v, bool is_max) {
  __shared__ float warp_vals[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = is_max ? warp_max(v) : warp_sum(v);
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  v = lane < blockDim.x / 32 ? warp_vals[lane] : (is_max ? -INFINITY : 0.0f);
  __syncthreads();
  return is_max ? warp_max(v) : warp_sum(v);
}

// the last block done combines the blocks' values into *result (see kernels/r6_fast.cuh for why it is safe)
__device__ void finish(float v, bool is_max, float *result) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    g_partial[blockIdx.x] = v;
    __threadfence();
    last = (atomicAdd(&g_count, 1u) == gridDim.x - 1);
  }
  __syncthreads();
  if (last) {
    __threadfence();
    float w = is_max ? -INFINITY : 0.0f;
    for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x)
      w = is_max ? fmaxf(w, __ldcg(&g_partial[b])) : w + __ldcg(&g_partial[b]);
    w = block_reduce(w, is_max);
    if (threadIdx.x == 0) {
      *result = w;
      g_count = 0;
    }
  }
}

// pass 1, forwards: thread t takes float4 t, t + S, ... (S the grid's threads), then the scalar tail
__global__ void softmax_max(const float *__restrict__ x, int n4, int N) {
  const float4 *x4 = (const float4 *)x;
  int S = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
  float m = -INFINITY;
  for (int i = t; i < n4; i += S) {
    float4 v = x4[i];
    m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
  }
  for (int i = 4 * n4 + t; i < N; i += S) m = fmaxf(m, x[i]);
  finish(block_reduce(m, true), true, &g_max);
}

// pass 2, backwards: the tail first, then float4 n4 - 1 - t, n4 - 1 - t - S, ...
__global__ void softmax_sum(const float *__restrict__ x, int n4, int N) {
  const float4 *x4 = (const float4 *)x;
  int S = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
  float m = g_max, s = 0.0f;
  for (int i = 4 * n4 + t; i < N; i += S) s += expf(x[i] - m);
  for (int i = n4 - 1 - t; i >= 0; i -= S) {
    float4 v = x4[i];
    s += (expf(v.x - m) + expf(v.y - m)) + (expf(v.z - m) + expf(v.w - m));
  }
  finish(block_reduce(s, false), false, &g_sum);
}

// pass 3, forwards: y = exp(x - m) / s, written with streaming stores (__stcs: the output is not read
// again, so it should not push the input out of L2)
__global__ void softmax_normalise(const float *__restrict__ x, float *__restrict__ y, int n4, int N) {
  const float4 *x4 = (const float4 *)x;
  float4 *y4 = (float4 *)y;
  int S = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
  float m = g_max, s = g_sum;
  for (int i = t; i < n4; i += S) {
    float4 v = x4[i];
    __stcs(&y4[i], make_float4(expf(v.x - m) / s, expf(v.y - m) / s, expf(v.z - m) / s, expf(v.w - m) / s));
  }
  for (int i = 4 * n4 + t; i < N; i += S) __stcs(&y[i], expf(x[i] - m) / s);
}

// as many blocks as fit on the GPU at once (asked once), but no more than the work needs
static int softmax_blocks(int N) {
  static int resident = 0;
  if (resident == 0) {
    int dev, sms, per_sm;
    checkCudaErrors(cudaGetDevice(&dev));
    sms = device_limits(dev)->sms;
    per_sm = occupancy_blocks_per_sm(softmax_sum, dev, SOFTMAX_THREADS, 0);
    resident = sms * per_sm < SOFTMAX_MAX_BLOCKS ? sms * per_sm : SOFTMAX_MAX_BLOCKS;
  }
  int want = (N / 4 + SOFTMAX_THREADS) / SOFTMAX_THREADS;
  return want < resident ? want : resident;
}

extern "C" int solve_chain(int N) {
  int blocks = softmax_blocks(N), S = blocks * SOFTMAX_THREADS;
  // per thread: 2 additions in a float4, one per float4 (or per float, misaligned); 10 levels in the block;
  // the last block's serial sums of the partials and 10 levels again
  return 2 + (N + S - 1) / S + 10 + (blocks + SOFTMAX_THREADS - 1) / SOFTMAX_THREADS + 10;
}

extern "C" void solve(const float *input, float *output, int N) {
  int aligned = ((uintptr_t)input % 16 == 0) && ((uintptr_t)output % 16 == 0);
  int n4 = aligned ? N / 4 : 0; // misaligned pointers: every element through the scalar loops
  int blocks = softmax_blocks(N);
  softmax_max<<<blocks, SOFTMAX_THREADS>>>(input, n4, N);
  getLastCudaError("softmax_max execution failed");
  softmax_sum<<<blocks, SOFTMAX_THREADS>>>(input, n4, N);
  getLastCudaError("softmax_sum execution failed");
  softmax_normalise<<<blocks, SOFTMAX_THREADS>>>(input, output, n4, N);
  getLastCudaError("softmax_normalise execution failed");
}
