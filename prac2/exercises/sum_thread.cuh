/*
 * exercises/sum_thread.cuh -- practical 2, step 5, to write: method 1's kernel, sum_thread. (The finished
 * kernel is in ../prac2_quad.cu, which includes this file in its place when built with -DEXERCISE.)
 *
 * Fill in the place marked TODO(step 5), then `make exercises/prac2_quad && ./exercises/prac2_quad`. Until it
 * is right the program ends RESULT: FAIL (exercise not done: ...): the partial sums start as NaN and are
 * checked thread by thread against the CPU's, and method 2b, which is checked against the sum of those
 * partial sums, fails with them. quad(z) is the program's, above the place this file is included.
 */

// 1. thread tid takes z[tid], z[tid + nthreads], ...: at each step a warp reads 32 consecutive floats
__global__ void sum_thread(const float *d_z, long long n, float *d_part) {
  // TODO(step 5): tid = this thread's global index, stride = the number of threads in the grid
  // (gridDim.x * blockDim.x; long long, as n may pass 2^31); add quad(d_z[i]) for i = tid, tid + stride, ...
  // below n into a float in a register, and write that sum to d_part[tid]. The gold forms the same sums, in
  // this order.
}
