/*
 * exercises/r6_fast.cuh -- step 6, the fast version: write the last-block-done finish of its kernel.
 *
 * kernels/r6_fast.cuh includes this file in place of its own reduction_fast when built with -DEXERCISE
 * (make exercises); read that file's header first: it explains the grid-stride loop, the float4 loads in
 * flight and the fence-and-ticket pattern you write here. Then
 *   make exercises && ./exercises/reduction_ladder -step=6
 * ends RESULT: FAIL (exercise not done: ...) until the sum matches the gold: nothing writes the result yet.
 *
 * The last block done: each block's thread 0 writes its sum to g_partial[b], then __threadfence(), then
 * atomicAdd(g_count, 1), which returns how many blocks had finished before it. The fence makes the partial
 * sum visible to the whole GPU before the count goes up, so the block that draws gridDim.x - 1 knows every
 * other partial sum is in memory; after a fence of its own it reads them through L2 (__ldcg), adds them and
 * sets the count back to 0 for the next launch.
 */

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

  // TODO(step 6): the last block done. Thread 0 writes sum to g_partial[blockIdx.x], __threadfence(), then
  // atomicAdd(g_count, 1u); the block that gets gridDim.x - 1 back is the last: after a __syncthreads()
  // (share the answer through a __shared__ bool) and a __threadfence(), its threads add the partial sums
  // (read with __ldcg), block_sum_fast() them, and thread 0 writes *g_odata and sets *g_count back to 0.
  (void)sum;
  (void)g_odata;
  (void)g_partial;
  (void)g_count;
}
