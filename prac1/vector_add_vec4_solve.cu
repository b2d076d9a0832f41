/*
 * vector_add_vec4_solve.cu -- LeetGPU "Vector Addition", vectorised: four floats (16 bytes) per load.
 *
 * One 16-byte load (LDG.E.128 in the SASS) moves as many bytes as four 4-byte loads but costs one
 * instruction and one slot in the memory pipeline, so fewer threads keep more bytes in flight.
 * float4 accesses need 16-byte aligned addresses: cudaMalloc gives 256-byte alignment, but solve()
 * may be handed pointers into the middle of an array, so it checks and falls back to the plain kernel.
 * The last N % 4 elements are done one float each by the first few threads.
 */
#include <stdint.h>

#include "helper_cuda.h"

#define BLOCK_THREADS 256

extern "C" const char solve_name[] = "vector_add_vec4";

// thread i adds float4 number i (elements 4i .. 4i+3); threads i < N % 4 also add one tail element
__global__ void vector_add_vec4(const float4 *__restrict__ A, const float4 *__restrict__ B, float4 *__restrict__ C,
                                const float *__restrict__ A_tail, const float *__restrict__ B_tail,
                                float *__restrict__ C_tail, int n4, int ntail) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 a = A[i], b = B[i];
    C[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
  if (i < ntail) C_tail[i] = A_tail[i] + B_tail[i];
}

// the fallback for pointers that are not 16-byte aligned
__global__ void vector_add(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

static int aligned16(const void *p) { return ((uintptr_t)p % 16) == 0; }

extern "C" void solve(const float *A, const float *B, float *C, int N) {
  if (aligned16(A) && aligned16(B) && aligned16(C)) {
    int n4 = N / 4, ntail = N % 4;
    int threads = n4 > ntail ? n4 : ntail;
    int blocks = (threads + BLOCK_THREADS - 1) / BLOCK_THREADS;
    vector_add_vec4<<<blocks, BLOCK_THREADS>>>((const float4 *)A, (const float4 *)B, (float4 *)C, A + 4 * n4,
                                               B + 4 * n4, C + 4 * n4, n4, ntail);
    getLastCudaError("vector_add_vec4 execution failed");
  } else {
    vector_add<<<(N + BLOCK_THREADS - 1) / BLOCK_THREADS, BLOCK_THREADS>>>(A, B, C, N);
    getLastCudaError("vector_add execution failed");
  }
}
