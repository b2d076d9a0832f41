/*
 * exercises/r2_any_threads.cuh -- step 2: one block, any number of threads (not only powers of two), any n.
 *
 * Thread tid first adds up elements tid, tid + T, tid + 2T, ... (T = blockDim.x: consecutive threads read
 * consecutive addresses), then the block runs the course's tree over its T partial sums. Step 1's tree needs
 * a power of two: with T not one, first fold the values above the largest power of two p <= T onto the
 * bottom ones; from then on it is step 1's tree over p values.
 *
 * EXERCISE: the block's tree is cut out (TODO(step 2)); until it is back, the sum is thread 0's share alone.
 */

// one block; thread tid owns elements tid, tid + T, ...
__global__ void reduction_any(float *g_odata, const float *__restrict__ g_idata, size_t n) {
  extern __shared__ float temp[];
  int tid = threadIdx.x, T = blockDim.x;

  float sum = 0.0f;
  for (size_t i = tid; i < n; i += T) sum += g_idata[i];
  temp[tid] = sum;

  // TODO(step 2): add the T values in temp[] into temp[0], for any T, not only a power of two: the fold
  // (header), then step 1's tree (reduction.cu). Each read of another thread's value needs a barrier between
  // it and that value's write, and every thread of the block must reach every barrier.
  (void)T;
  if (tid == 0) g_odata[0] = temp[0];
}

static void run_any_threads(ladder_args *a) {
  a->blocks = 1;
  reduction_any<<<1, a->threads, a->threads * sizeof(float)>>>(a->d_out, a->d_in, a->n);
  getLastCudaError("reduction_any execution failed");
}

// each thread's serial sum, the fold, the tree
static double depth_any_threads(const ladder_args *a) {
  return (double)ceil_div((long long)a->n, a->threads) + 1 + ceil_log2(a->threads);
}
