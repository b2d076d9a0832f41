/*
 * prac1d.cu -- practical 1, step 7: vector addition, z = x + y.
 *
 * The host fills x and y with random values, the GPU adds them with one thread per element, and the
 * result is compared with the CPU's. n is deliberately not a multiple of the block size: the last
 * block has threads with nothing to do, and the `if (tid < n)` guard keeps them from writing past z.
 * Try -n=1000 -nthreads=1000, -n=1 and a block size that is not a multiple of 32.
 */
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"

#include "prac1_gold.h"

// one thread per element; the last block may be partly idle
__global__ void add_vectors(const float *x, const float *y, float *z, int n) {
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  if (tid < n) z[tid] = x[tid] + y[tid];
}


// uniform in [-1, 1), from a small LCG so that every run with the same -seed sees the same data
static float random_uniform(unsigned int *state) {
  *state = *state * 1664525u + 1013904223u;
  return (float)(*state >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

int main(int argc, char **argv) {
  int n = 1000003, nthreads = 256, seed = 1;
  arg_spec opts[] = {
      {"n", ARG_INT, &n, 1, 1 << 29, "vector length"},
      {"nthreads", ARG_INT, &nthreads, 1, 1024, "threads per block"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the random inputs"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));

  findCudaDevice(argc, argv);
  size_t bytes = (size_t)n * sizeof(float);
  device_memory_check(3 * bytes, "three vectors", args_given(argc, argv, "n"));

  // allocate and initialise the host vectors
  float *h_x = (float *)malloc(bytes);
  float *h_y = (float *)malloc(bytes);
  float *h_z = (float *)malloc(bytes);
  float *h_gold = (float *)malloc(bytes);
  if (!h_x || !h_y || !h_z || !h_gold) return result_fail("out of host memory");
  unsigned int state = (unsigned int)seed;
  for (int i = 0; i < n; i++) {
    h_x[i] = random_uniform(&state);
    h_y[i] = random_uniform(&state);
  }

  // copy x and y to the device; poison z with 0xff bytes (NaN), which a correct kernel overwrites
  float *d_x, *d_y, *d_z;
  checkCudaErrors(cudaMalloc((void **)&d_x, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_y, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_z, bytes));
  checkCudaErrors(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_y, h_y, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(d_z, 0xff, bytes));

  // execute kernel: enough blocks to cover n, rounding up
  int nblocks = (n + nthreads - 1) / nthreads;
  add_vectors<<<nblocks, nthreads>>>(d_x, d_y, d_z, n);
  getLastCudaError("add_vectors execution failed");
  printf("n = %d, %d blocks of %d threads\n", n, nblocks, nthreads);

  // copy back the result, compute the gold and compare: one float addition each, so exactly equal
  checkCudaErrors(cudaMemcpy(h_z, d_z, bytes, cudaMemcpyDeviceToHost));
  Gold_vector_add(h_x, h_y, h_gold, (size_t)n);
  gold_stats st;
  compare_float(h_z, h_gold, (size_t)n, 0.0, 0.0, &st);
  gold_report("z", &st);

  checkCudaErrors(cudaFree(d_x));
  checkCudaErrors(cudaFree(d_y));
  checkCudaErrors(cudaFree(d_z));
  free(h_x);
  free(h_y);
  free(h_z);
  free(h_gold);

  return gold_verdict(&st, "z");
}
