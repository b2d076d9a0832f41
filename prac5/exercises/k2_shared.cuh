/*
 * exercises/k2_shared.cuh -- handout step 5, kernel 2 of the SGEMM ladder, to write: shared-memory tiles.
 * (The solution is ../sgemm/k2_shared.cuh.) A block of TILE x TILE threads computes a TILE x TILE tile of C,
 * walking along the inner length TILE at a time. The handout's inner length K is N here: the files in sgemm/
 * keep LeetGPU's letters, A M x N, B N x K, C M x K, all row-major (A[row][n] is A[row * N + n]), as
 * sgemm_ladder's -N and -K do. tx, ty are threadIdx.x, threadIdx.y.
 * Until the TODOs are filled in the kernel writes nothing, C keeps its poison, and ./exercises/sgemm_ladder
 * -kernel=2 ends RESULT: FAIL (exercise not done: ...).
 */
#define TILE 32

__global__ void sgemm_shared(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                             int N, int K) {
  // TODO(step 5): two TILE x TILE tiles in shared memory, As and Bs; this thread's element of C is
  // row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x
  // TODO(step 5): for t = 0, TILE, 2 TILE, ... < N: load A[row][t + tx] into As[ty][tx] and B[t + ty][col]
  // into Bs[ty][tx] (zero where the tile hangs over the matrix), wait until the whole block has loaded,
  // add As[ty][i] * Bs[i][tx] for i < TILE to a running sum, and wait again before the next t overwrites
  // the tiles
  // TODO(step 5): write the sum to C[row][col] (C is M x K) if (row, col) is inside C
  (void)A;
  (void)B;
  (void)C;
  (void)M;
  (void)N;
  (void)K;
}

static void run_shared(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(TILE, TILE), grid(ceil_div(K, TILE), ceil_div(M, TILE));
  sgemm_shared<<<grid, block>>>(A, B, C, M, N, K);
  getLastCudaError("sgemm_shared execution failed");
}
