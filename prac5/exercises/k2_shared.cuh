/*
 * exercises/k2_shared.cuh -- handout step 5, kernel 2 of the SGEMM ladder, to write: shared-memory tiles.
 * (The solution is ../sgemm/k2_shared.cuh.) A block of TILE x TILE threads computes a TILE x TILE tile of C,
 * walking along the inner length TILE at a time. The names are BLAS's, as in the handout and every file of
 * sgemm/: A is M x K, B K x N, C M x N, all row-major (A[row][k] is A[row * K + k]), so K is the inner length,
 * as sgemm_ladder's -K is. tx, ty are threadIdx.x, threadIdx.y.
 * Until the TODOs are filled in the kernel writes nothing, C still holds the NaN fill, and ./exercises/sgemm_ladder
 * -kernel=2 ends RESULT: FAIL (exercise not done: ...).
 */
#define TILE 32

__global__ void sgemm_shared(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M,
                             int N, int K) {
  // TODO(step 5): two TILE x TILE tiles in shared memory, As and Bs, and this thread's element of C,
  // (row, col), from the block's and the thread's indices (tx along a row of C, as in kernel 1)
  // TODO(step 5): walk along the inner length a tile at a time. At each step every thread loads one element
  // of A's tile and one of B's (which ones, so that a warp's 32 loads are consecutive in memory?), 0 where
  // the tile hangs over the matrix. The block waits until both tiles are whole; each thread adds to a running
  // sum the TILE products its element of C needs from them (which row of As, which column of Bs?); and the
  // block waits again before the next step overwrites the tiles (why is the second wait needed?)
  // TODO(step 5): write the sum to C (M x N) if (row, col) is inside it
  (void)A;
  (void)B;
  (void)C;
  (void)M;
  (void)N;
  (void)K;
}

static void run_shared(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(TILE, TILE), grid(ceil_div(N, TILE), ceil_div(M, TILE));
  sgemm_shared<<<grid, block>>>(A, B, C, M, N, K);
  getLastCudaError("sgemm_shared execution failed");
}
