/*
 * kernels/r6_fast.cuh -- step 6: the fast version, the whole sum in one launch.
 *
 * What makes it fast, one idea each:
 *   - grid-stride: only as many blocks as fit on the GPU at once (resident_blocks); each thread walks the
 *     array in steps of the whole grid, so no block waits for a slot and there are no waves of blocks;
 *   - 16-byte loads: the array read as float4 (one LDG.E.128 moves four floats);
 *   - several loads in flight: each thread issues UNROLL independent float4 loads before it adds any of
 *     them, so that a memory latency of about a microsecond is paid once per UNROLL loads, not per load;
 *   - shuffles within warps (__shfl_xor_sync: every lane ends with the warp's sum), shared memory only
 *     between warps, as in step 4;
 *   - the last block to finish adds the blocks' partial sums (below), so there is no second launch, no
 *     host loop, no atomicAdd on a float, and no result to zero: the result is written, not added to, and
 *     the partial sums are always added in the same order, so the answer is the same bit for bit each run.
 *
 * The last block done: each block's thread 0 writes the block's sum to partial[b], then __threadfence(),
 * then atomicAdd(count, 1), which returns how many blocks had finished before it. The fence makes the
 * write to partial[b] visible to the whole GPU before the count goes up, so the block that draws the
 * ticket gridDim.x - 1 knows that every other block's partial sum is already in memory (it reads them
 * through L2 with __ldcg, past its own L1, after a fence of its own that orders its reads after the
 * atomic). It adds them and sets count back to 0 for the next launch. Without the fence a block's count
 * could become visible before its partial sum, and the last block would add a stale value.
 */

// the sum of v over the warp, in every lane: a butterfly, lane i exchanging with lane i ^ d
__device__ float warp_sum_xor(float v) {
  for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

// the sum of v over the block (T a multiple of 32), in every thread
__device__ float block_sum_fast(float v) {
  __shared__ float warp_sums[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_sum_xor(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads(); // all warps' sums stored before warp 0 reads them
  v = (lane < blockDim.x / 32) ? warp_sums[lane] : 0.0f;
  __syncthreads(); // all reads done before a second call may store again
  return warp_sum_xor(v);
}

#ifndef EXERCISE
// thread t of the grid takes float4 number t, t + S, t + 2S, ... (S = the grid's threads), UNROLL at a time
template <int UNROLL>
__global__ void reduction_fast(float *g_odata, float *g_partial, unsigned int *g_count,
                               const float4 *__restrict__ in4, size_t n4, const float *__restrict__ tail,
                               int ntail) {
  size_t S = (size_t)gridDim.x * blockDim.x;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (; i + (UNROLL - 1) * S < n4; i += UNROLL * S) {
    float4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; u++) v[u] = in4[i + u * S]; // all UNROLL loads issued before any add
#pragma unroll
    for (int u = 0; u < UNROLL; u++) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < n4; i += S) {
    float4 v = in4[i];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  if (blockIdx.x == 0 && threadIdx.x < ntail) sum += tail[threadIdx.x]; // the last n % 4 elements
  sum = block_sum_fast(sum);

  // the last block done adds the partial sums
  __shared__ bool last;
  if (threadIdx.x == 0) {
    g_partial[blockIdx.x] = sum;
    __threadfence(); // the partial sum is visible everywhere before the count says so
    last = (atomicAdd(g_count, 1u) == gridDim.x - 1);
  }
  __syncthreads(); // every thread sees `last`
  if (last) {
    __threadfence(); // this block's reads of the partial sums come after the atomic that drew the ticket
    float v = 0.0f;
    for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x) v += __ldcg(&g_partial[b]);
    v = block_sum_fast(v);
    if (threadIdx.x == 0) {
      *g_odata = v;
      *g_count = 0; // ready for the next launch: no memset needed
    }
  }
}
#else // make exercises: the same kernel with its finish to write (exercises/r6_fast.cuh)
#include "../exercises/r6_fast.cuh"
#endif

static void run_fast(ladder_args *a) {
  size_t n4 = a->n / 4;
  int ntail = (int)(a->n % 4);
  long long want = ceil_div((long long)n4 / a->unroll + 1, a->threads); // no more blocks than there is work
  a->blocks = (int)(want < a->resident_blocks ? want : a->resident_blocks);
  const float4 *in4 = (const float4 *)a->d_in;
  const float *tail = a->d_in + 4 * n4;
  switch (a->unroll) {
  case 1: reduction_fast<1><<<a->blocks, a->threads>>>(a->d_out, a->d_partial, a->d_count, in4, n4, tail, ntail); break;
  case 2: reduction_fast<2><<<a->blocks, a->threads>>>(a->d_out, a->d_partial, a->d_count, in4, n4, tail, ntail); break;
  case 4: reduction_fast<4><<<a->blocks, a->threads>>>(a->d_out, a->d_partial, a->d_count, in4, n4, tail, ntail); break;
  default: reduction_fast<8><<<a->blocks, a->threads>>>(a->d_out, a->d_partial, a->d_count, in4, n4, tail, ntail); break;
  }
  getLastCudaError("reduction_fast execution failed");
}

// blocks of reduction_fast<UNROLL> that fit on the whole GPU at once with `threads` threads each
static int fast_resident_blocks(int dev, int threads, int unroll) {
  int per_sm = 0, sms = 0;
  const void *k = unroll == 1   ? (const void *)reduction_fast<1>
                  : unroll == 2 ? (const void *)reduction_fast<2>
                  : unroll == 4 ? (const void *)reduction_fast<4>
                                : (const void *)reduction_fast<8>;
  per_sm = occupancy_blocks_per_sm(k, dev, threads, 0);
  sms = device_limits(dev)->sms;
  return per_sm * sms;
}

// per thread: 2 additions inside a float4, then one per float4 it loads (and the tail), then the block's
// 10 levels, then the last block: its threads' serial sums of the partials and 10 levels again
static double depth_fast(const ladder_args *a) {
  long long S = (long long)a->blocks * a->threads;
  return 2 + (double)ceil_div((long long)(a->n / 4), S) + 1 + 10 + (double)ceil_div(a->blocks, a->threads) + 10;
}
