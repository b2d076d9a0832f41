/*
 * exercises/r5_reduce_add.cuh -- step 5: integers, with __reduce_add_sync. On compute capability 8.0 and newer
 * a warp adds 32 integers in ONE instruction (REDUX.SUM in the SASS), instead of step 4's five shuffles and
 * five additions. It exists for 32-bit integers only (int and unsigned), not for float.
 *
 * Integer addition is exact and associative, so any order gives the same answer: the check is exact. A
 * block's sum of at most 1024 values below 2^32 / 1024 stays in 32 bits; the blocks' sums go into a 64-bit
 * result (atomicAdd on unsigned long long), zeroed first: n goes up to 2^36, whose digits sum to about 3.1e11 > 2^32.
 *
 * EXERCISE: the two __reduce_add_sync calls are cut out (TODO(step 5)).
 *
 * On a GPU older than 8.0 (a T4 is 7.5) the #if below leaves your code out of the build and step 5 SKIPs.
 * To see that it at least compiles, build for 8.0 as well: make SMS="75 80" exercises. Checking it needs a
 * GPU of compute capability 8.0 or newer.
 */

__global__ void reduction_reduce_add(unsigned long long *g_odata, const unsigned int *__restrict__ g_idata,
                                     size_t n) {
#if __CUDA_ARCH__ >= 800
  __shared__ unsigned int warp_sums[32];
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = blockDim.x / 32;
  unsigned int v = i < n ? g_idata[i] : 0u;
  // TODO(step 5): make v the sum over the warp, in every lane, with the warp's one-instruction integer sum
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < nwarps ? warp_sums[lane] : 0u;
    // TODO(step 5): the same over the warps' sums, so that lane 0 holds the block's
    if (lane == 0) atomicAdd(g_odata, (unsigned long long)v);
  }
#else
  __trap(); // never runs: the runner asks kernel_can_run, and SKIPs step 5 where this branch was built
#endif
}

static void run_reduce_add(ladder_args *a) {
  a->blocks = (int)ceil_div((long long)a->n, a->threads);
  if (a->zero) checkCudaErrors(cudaMemsetAsync(a->d_uout, 0, sizeof(unsigned long long)));
  reduction_reduce_add<<<a->blocks, a->threads>>>(a->d_uout, a->d_uin, a->n);
  getLastCudaError("reduction_reduce_add execution failed");
}

static double depth_reduce_add(const ladder_args *) { return 0; } // exact
