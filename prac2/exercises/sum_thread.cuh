/*
 * exercises/sum_thread.cuh -- practical 2, step 5, to write: method 1's kernel, sum_thread. (The finished
 * kernel is in ../prac2_quad.cu, which includes this file in its place when built with -DEXERCISE.)
 *
 * Fill in the place marked TODO(step 5), then `make exercises/prac2_quad && ./exercises/prac2_quad`, and
 * again with -n=7, where most threads have no term. Until it is right the program ends RESULT: FAIL
 * (exercise not done: ...): the partial sums start as NaN and are checked thread by thread against the
 * CPU's. The other methods are checked on their own, so only method 1 fails. quad(z) is the program's,
 * __device__ float quad(float z), a z^2 + b z + c in two pinned FMAs: call it, no need to look it up.
 */

// 1. thread tid takes z[tid], z[tid + nthreads], ...: at each step a warp reads 32 consecutive floats.
// nthreads = gridDim.x * blockDim.x, every thread of the grid (a grid-stride loop: the grid strides
// through d_z, however long n is), and tid = threadIdx.x + blockDim.x * blockIdx.x as in practical 1.
__global__ void sum_thread(const float *d_z, long long n, float *d_part) {
  // TODO(step 5): add up quad() of this thread's share of d_z (the lines above say which elements) in a
  // float held in a register, then store the one partial sum in d_part at this thread's place in the grid.
  // Any order of the additions passes: the check allows for the rounding of a float sum of this length.
  // Every thread stores its sum, 0 if it has no terms: an early return leaves NaN there (try -n=7). n may
  // pass 2^31: keep indices in long long.
}
