/*
 * sgemm/k2_shared.cuh -- kernel 2: shared-memory tiles. A block of TILE x TILE threads computes a
 * TILE x TILE tile of C. It walks along K in steps of TILE: each thread loads one element of A's tile and
 * one of B's into shared memory, the block synchronises, and each thread then reads TILE values of each
 * from shared memory. Every float loaded from global memory is used TILE times: TILE times less traffic.
 * Tiles that hang over the edge of A or B are filled with zeros, which add nothing.
 */
#define TILE 32

__global__ void sgemm_shared(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                             int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < K; t += TILE) {
    // each thread loads one element of each tile: consecutive tx, consecutive addresses
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
    __syncthreads(); // the tiles are complete before anyone reads them
    for (int i = 0; i < TILE; i++) sum += As[ty][i] * Bs[i][tx]; // As: a broadcast; Bs: a row, no conflict
    __syncthreads(); // everyone is done with the tiles before they are overwritten
  }
  if (row < M && col < N) C[row * N + col] = sum;
}

static void run_shared(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(TILE, TILE), grid(ceil_div(N, TILE), ceil_div(M, TILE));
  sgemm_shared<<<grid, block>>>(A, B, C, M, N, K);
  getLastCudaError("sgemm_shared execution failed");
}
