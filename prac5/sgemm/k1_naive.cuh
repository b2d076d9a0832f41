/*
 * sgemm/k1_naive.cuh -- kernel 1: one thread per element of C, every operand straight from global memory.
 * threadIdx.x runs along a row of C, so a warp reads 32 consecutive floats of a row of B (coalesced) and
 * one float of A (a broadcast). Each thread reads 2K floats for 2K flops: the caches do the rest.
 */
#define NAIVE_BX 32 // a warp along a row of C and B
#define NAIVE_BY 8

__global__ void sgemm_naive(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                            int N, int K) {
  int col = blockIdx.x * NAIVE_BX + threadIdx.x; // column of C and B
  int row = blockIdx.y * NAIVE_BY + threadIdx.y; // row of C and A
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; k++) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
  }
}

static void run_naive(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(NAIVE_BX, NAIVE_BY), grid(ceil_div(N, NAIVE_BX), ceil_div(M, NAIVE_BY));
  sgemm_naive<<<grid, block>>>(A, B, C, M, N, K);
  getLastCudaError("sgemm_naive execution failed");
}
