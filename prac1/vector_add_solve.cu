/*
 * vector_add_solve.cu -- LeetGPU "Vector Addition", the plain answer: one float per thread.
 *
 * LeetGPU's calling convention: solve() receives device pointers and launches the work; the harness
 * (vector_add.cu) allocates, fills, checks and times. This file is what you would submit.
 */
#include "helper_cuda.h"

#define BLOCK_THREADS 256 // a multiple of the warp size; 128 to 512 all run at the same speed here

extern "C" const char solve_name[] = "vector_add";

// one thread per element: consecutive threads read consecutive addresses, so each warp's loads
// coalesce into full 128-byte lines
__global__ void vector_add(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float *A, const float *B, float *C, int N) {
  int blocks = (N + BLOCK_THREADS - 1) / BLOCK_THREADS;
  vector_add<<<blocks, BLOCK_THREADS>>>(A, B, C, N);
  getLastCudaError("vector_add execution failed");
}
