/*
 * exercises/r3_many_blocks.cuh -- step 3: many blocks, one element per thread, each block's tree as in step 2.
 *
 * Block b adds elements b*T .. b*T + T - 1 (T = blockDim.x; the last block's threads past n add 0). The
 * blocks cannot add their sums to each other: a block has no way to wait for another (they need not even
 * be on the GPU at the same time). Two ways to finish:
 *   (a) reduction_partials: each block writes its sum to partial[b]; the host copies the partial sums
 *       back and adds them (run_host_partials);
 *   (b) reduction_atomic: thread 0 of each block does one atomicAdd(result, block sum). The hardware makes
 *       each read-add-write indivisible, so no update is lost, but it ADDS to what is there: the result
 *       must be zeroed before the launch (run_atomic), and zeroed again before every later launch.
 *
 * EXERCISE: each block computes its sum, but nothing is done with it yet: TODO(step 3), (a) and (b).
 * Do step 2 first: block_tree_sum below is step 2's answer, finished (this file needs it to build).
 */

// step 2's answer (finish step 2 before you read it): the block's sum of one value per thread, in thread 0
__device__ float block_tree_sum(float *temp, float v) {
  int tid = threadIdx.x, T = blockDim.x;
  temp[tid] = v;
  int p = 1;
  while (2 * p <= T) p *= 2;
  __syncthreads();
  if (tid < T - p) temp[tid] += temp[tid + p];
  for (int d = p / 2; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) temp[tid] += temp[tid + d];
  }
  // thread 0 did the last addition itself; any other thread reading temp[0] now would race with it
  return tid == 0 ? temp[0] : 0.0f;
}

// (a) one element per thread, one partial sum per block
__global__ void reduction_partials(float *g_partial, const float *__restrict__ g_idata, size_t n) {
  extern __shared__ float temp[];
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  float sum = block_tree_sum(temp, i < n ? g_idata[i] : 0.0f);
  // TODO(step 3): leave the block's sum where the host will look for it, one slot per block. Which thread
  // holds the sum?
  (void)sum;
  (void)g_partial;
}

// (b) one element per thread, one atomicAdd per block into a result that starts at zero
__global__ void reduction_atomic(float *g_odata, const float *__restrict__ g_idata, size_t n) {
  extern __shared__ float temp[];
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  float sum = block_tree_sum(temp, i < n ? g_idata[i] : 0.0f);
  // TODO(step 3): add the block's sum into *g_odata, once per block, so that no other block's update is lost
  (void)sum;
  (void)g_odata;
}

// (a): the kernel, the partial sums copied back, added on the host (in double, then rounded to float)
static void run_host_partials(ladder_args *a) {
  a->blocks = (int)ceil_div((long long)a->n, a->threads);
  reduction_partials<<<a->blocks, a->threads, a->threads * sizeof(float)>>>(a->d_partial, a->d_in, a->n);
  getLastCudaError("reduction_partials execution failed");
  checkCudaErrors(cudaMemcpy(a->h_partial, a->d_partial, a->blocks * sizeof(float), cudaMemcpyDeviceToHost));
  // TODO(step 3): a->host_sum = the sum of the a->blocks partial sums now in a->h_partial (add in double)
  a->host_sum = NAN;
}

// the block's tree (fold + levels) and the final rounding of the host's double sum to float
static double depth_host_partials(const ladder_args *a) { return 1 + ceil_log2(a->threads) + 1; }

// (b): zero the result, then one launch
static void run_atomic(ladder_args *a) {
  a->blocks = (int)ceil_div((long long)a->n, a->threads);
  // TODO(step 3): the atomics add to whatever *a->d_out holds: what must it hold before every launch? (Do it
  // only if a->zero: -forget_zero turns it off to show the classic mistake.)
  reduction_atomic<<<a->blocks, a->threads, a->threads * sizeof(float)>>>(a->d_out, a->d_in, a->n);
  getLastCudaError("reduction_atomic execution failed");
}

// the block's tree, then the atomics: one after another into the same float, so a block's sum may go
// through every later block's addition
static double depth_atomic(const ladder_args *a) {
  return 1 + ceil_log2(a->threads) + (double)ceil_div((long long)a->n, a->threads);
}
