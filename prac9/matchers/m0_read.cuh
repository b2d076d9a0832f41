/*
 * m0_read.cuh -- match_ladder kernel 0: the bound. A kernel that reads the text once, 16 bytes per load, and
 * reduces it (an xor, one int per block): what any matcher must do at least, so the fastest a matcher can be on
 * this GPU. It reads the same buffer the other kernels read, in the same grid shape; the read-only stream of timing.h
 * (bench_reference) is the other 100 % line, measured on buffers of 4x the L2 cache.
 */
#define M0_UNROLL 4 // loads in flight per thread before the first is used

__global__ void __launch_bounds__(LADDER_THREADS)
    match_read(const uint4 *__restrict__ text, size_t nvec, unsigned *__restrict__ sink) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  unsigned x = 0;
  size_t v = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (; v + (M0_UNROLL - 1) * stride < nvec; v += M0_UNROLL * stride) {
    uint4 a[M0_UNROLL];
#pragma unroll
    for (int u = 0; u < M0_UNROLL; u++) a[u] = text[v + u * stride];
#pragma unroll
    for (int u = 0; u < M0_UNROLL; u++) x ^= a[u].x ^ a[u].y ^ a[u].z ^ a[u].w;
  }
  for (; v < nvec; v += stride) x ^= text[v].x ^ text[v].y ^ text[v].z ^ text[v].w;
  __shared__ unsigned s_x;
  if (threadIdx.x == 0) s_x = 0;
  __syncthreads();
  atomicXor(&s_x, x);
  __syncthreads();
  if (threadIdx.x == 0) sink[blockIdx.x] = s_x;
}

static void run_read(const ladder_plan *p) {
  match_read<<<p->blocks[0], LADDER_THREADS>>>(p->d_text, (p->length + 15) / 16, p->d_sink);
  getLastCudaError("match_read execution failed");
}
