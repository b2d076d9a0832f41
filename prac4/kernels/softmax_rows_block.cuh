/*
 * kernels/softmax_rows_block.cuh -- softmax_rows for longer rows: a block per row, or several blocks per row.
 *
 * block  (cols <= 32768) a block of up to 1024 threads per row, BLOCK_ROW = 32 floats per thread in registers
 *        (8 float4s; 16 floats and 16384 columns when cols is not a multiple of 4): the row's max, then its
 *        sum of exp(x - max), across the block with shuffles and one word per warp of shared memory, then the output
 *        from the registers: one read and one write, as the warp kernel.
 * split  (longer rows) SPLIT_CHUNK columns per block, grid (chunks, rows). softmax_rows_stats writes each
 *        chunk's (max, sum); softmax_rows_write merges the row's pairs -- every block of the row in the same
 *        order, so all get the same bits -- and writes its chunk, reading it again: two reads and one write.
 *        (A cluster of blocks sharing the pairs through distributed shared memory would save the second read
 *        for rows up to a cluster's registers; see docs/prac4_softmax.md.)
 */

// the max (is_max) or the sum of v over the block, in every thread; whole warps
__device__ float block_allreduce(float v, bool is_max) {
  __shared__ float warp_vals[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int d = 16; d > 0; d >>= 1) {
    float o = __shfl_xor_sync(0xffffffffu, v, d);
    v = is_max ? fmaxf(v, o) : v + o;
  }
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  v = lane < blockDim.x / 32 ? warp_vals[lane] : (is_max ? -INFINITY : 0.0f);
  __syncthreads(); // every read done before the next call stores again
  for (int d = 16; d > 0; d >>= 1) {
    float o = __shfl_xor_sync(0xffffffffu, v, d);
    v = is_max ? fmaxf(v, o) : v + o;
  }
  return v;
}

// n floats at p into the thread's registers, K vectors of V: thread t takes (k T + t) V ... + V - 1
template <int K, int V>
__device__ void load_part(const float *p, int n, float *v) {
#pragma unroll
  for (int k = 0; k < K; k++) {
    int c = (k * blockDim.x + threadIdx.x) * V;
    if (V == 4) {
      float4 q = c < n ? *(const float4 *)(p + c) : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
      v[4 * k] = q.x, v[4 * k + 1] = q.y, v[4 * k + 2] = q.z, v[4 * k + 3] = q.w;
    } else {
      v[k] = c < n ? p[c] : -INFINITY;
    }
  }
}

template <int K, int V>
__device__ void store_part(float *p, int n, const float *v, float m, float s) {
#pragma unroll
  for (int k = 0; k < K; k++) {
    int c = (k * blockDim.x + threadIdx.x) * V;
    if (c >= n) continue;
    if (V == 4)
      __stcs((float4 *)(p + c), make_float4(expf(v[4 * k] - m) / s, expf(v[4 * k + 1] - m) / s,
                                            expf(v[4 * k + 2] - m) / s, expf(v[4 * k + 3] - m) / s));
    else
      __stcs(p + c, expf(v[k] - m) / s);
  }
}

// the max, then the sum of exp(v - max), of what the block holds
template <int K, int V>
__device__ float2 block_stats(const float *v) {
  float m = -INFINITY, s = 0.0f;
#pragma unroll
  for (int j = 0; j < K * V; j++) m = fmaxf(m, v[j]);
  m = block_allreduce(m, true);
  if (m != -INFINITY) {
#pragma unroll
    for (int j = 0; j < K * V; j++) s += expf(v[j] - m);
  }
  return make_float2(m, block_allreduce(s, false));
}

// one block per row (blockIdx.x), held in registers between the statistics and the output
template <int K, int V>
__global__ void __launch_bounds__(1024)
    softmax_rows_block(const float *__restrict__ x, float *__restrict__ y, int cols) {
  size_t base = (size_t)blockIdx.x * cols;
  float v[K * V];
  load_part<K, V>(x + base, cols, v);
  float2 ms = block_stats<K, V>(v);
  store_part<K, V>(y + base, cols, v, ms.x, ms.y);
}

// split, kernel 1: block (chunk, row) writes the (max, sum) of its SPLIT_CHUNK columns
template <int K, int V>
__global__ void __launch_bounds__(1024)
    softmax_rows_stats(const float *__restrict__ x, float2 *__restrict__ partial, int cols) {
  size_t c0 = (size_t)blockIdx.x * SPLIT_CHUNK(V), base = (size_t)blockIdx.y * cols + c0;
  int n = cols - (int)c0 < SPLIT_CHUNK(V) ? cols - (int)c0 : SPLIT_CHUNK(V);
  float v[K * V];
  load_part<K, V>(x + base, n, v);
  float2 ms = block_stats<K, V>(v);
  if (threadIdx.x == 0) partial[(size_t)blockIdx.y * gridDim.x + blockIdx.x] = ms;
}

// split, kernel 2: the row's pairs merged (the same order in every block of the row), the chunk read again
template <int K, int V>
__global__ void __launch_bounds__(1024) softmax_rows_write(const float *__restrict__ x, float *__restrict__ y,
                                                           const float2 *__restrict__ partial, int cols) {
  size_t c0 = (size_t)blockIdx.x * SPLIT_CHUNK(V), base = (size_t)blockIdx.y * cols + c0;
  int n = cols - (int)c0 < SPLIT_CHUNK(V) ? cols - (int)c0 : SPLIT_CHUNK(V);
  float v[K * V];
  load_part<K, V>(x + base, n, v); // in flight while the pairs are merged
  const float2 *p = partial + (size_t)blockIdx.y * gridDim.x;
  float m = -INFINITY, s = 0.0f;
  for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x) m = fmaxf(m, p[b].x);
  m = block_allreduce(m, true);
  if (m != -INFINITY)
    for (int b = threadIdx.x; b < gridDim.x; b += blockDim.x) s += p[b].y * expf(p[b].x - m);
  s = block_allreduce(s, false);
  store_part<K, V>(y + base, n, v, m, s);
}
