/*
 * exercises/r4_shfl.cuh -- step 4: warp shuffles. The 32 threads of a warp exchange registers directly
 * (__shfl_down_sync), with no shared memory and no __syncthreads: a warp executes each shuffle together.
 * Shared memory is used only between warps: each warp's lane 0 stores the warp's sum, one barrier, and the
 * first warp adds those (at most 32) with shuffles again. One atomicAdd per block, as in step 3(b).
 * The block must be whole warps (T a multiple of 32): the full mask 0xffffffff names all 32 lanes.
 *
 * EXERCISE: warp_sum is cut out (TODO(step 4)): until it is written, each warp's sum is its lane 0's value.
 */

// the sum of v over the warp, in lane 0: five levels, each halving the lanes that still matter
__device__ float warp_sum(float v) {
  // TODO(step 4): each level, every lane adds the v of a lane some distance above it (__shfl_down_sync, all
  // 32 lanes in the mask); halve the distance each level until lane 0 holds the warp's sum
  return v;
}

// the sum of v over the block, in thread 0 (T a multiple of 32)
__device__ float block_sum(float v) {
  __shared__ float warp_sums[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads(); // every warp's sum is stored before warp 0 reads them
  v = 0.0f;
  if (warp == 0) {
    if (lane < nwarps) v = warp_sums[lane];
    v = warp_sum(v);
  }
  return v;
}

__global__ void reduction_shfl(float *g_odata, const float *__restrict__ g_idata, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  float sum = block_sum(i < n ? g_idata[i] : 0.0f);
  if (threadIdx.x == 0) atomicAdd(g_odata, sum);
}

static void run_shfl(ladder_args *a) {
  a->blocks = (int)ceil_div((long long)a->n, a->threads);
  if (a->zero) checkCudaErrors(cudaMemsetAsync(a->d_out, 0, sizeof(float)));
  reduction_shfl<<<a->blocks, a->threads>>>(a->d_out, a->d_in, a->n);
  getLastCudaError("reduction_shfl execution failed");
}

// five levels in the warp, five over the warps' sums, then the atomics one after another
static double depth_shfl(const ladder_args *a) { return 10 + (double)ceil_div((long long)a->n, a->threads); }
