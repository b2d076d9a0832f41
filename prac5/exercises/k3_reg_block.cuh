/*
 * exercises/k3_reg_block.cuh -- handout step 5, kernel 3 of the SGEMM ladder, to write: register blocking.
 * (The solution is ../sgemm/k3_reg_block.cuh.) Kernel 2 does two shared-memory loads per multiply-add; here
 * each thread computes R3_TM = 8 outputs of C down one column, so that one value of B, held in a register,
 * serves 8 multiply-adds. The block of 512 threads computes a 64 x 64 tile of C and walks along the inner
 * length, K, R3_BK = 8 at a time (BLAS's names, as the handout and every file of sgemm/ use them: A is M x K,
 * B is K x N, C is M x N, row-major; sgemm.h). The loads into shared memory and the
 * store are written: you write the loop that multiplies one pair of tiles. Until it is written, acc stays 0,
 * C comes out 0, and ./exercises/sgemm_ladder -kernel=3 ends RESULT: FAIL (exercise not done: ...).
 */
// until the TODO is written the tiles are stored but never read: no warning for that (nvcc's #550)
#pragma nv_diag_suppress 550
#define R3_BM 64
#define R3_BN 64
#define R3_BK 8
#define R3_TM 8
#define R3_THREADS (R3_BM * R3_BN / R3_TM) // 512: one thread per R3_TM outputs
static_assert(R3_THREADS == R3_BM * R3_BK && R3_THREADS == R3_BN * R3_BK,
              "each thread loads exactly one element of A's tile and one of B's");

__global__ void __launch_bounds__(R3_THREADS) sgemm_reg_block(const float *__restrict__ A, const float *__restrict__ B,
                                                              float *__restrict__ C, int M, int N, int K) {
  __shared__ float As[R3_BM][R3_BK]; // A's tile: 64 rows of C, 8 along the inner length
  __shared__ float Bs[R3_BK][R3_BN]; // B's tile: 8 along the inner length, 64 columns of C
  int tid = threadIdx.x;
  int row0 = blockIdx.y * R3_BM, col0 = blockIdx.x * R3_BN;
  // the thread's outputs: column tcol, rows trow*R3_TM .. trow*R3_TM + R3_TM-1 of the block tile. A warp is 32
  // consecutive tid: what do its reads of As and of Bs then cost? (the handout's question 10)
  int tcol = tid % R3_BN, trow = tid / R3_BN;
  // what the thread loads: A's tile element (arow, acol), B's (brow, bcol)
  int acol = tid % R3_BK, arow = tid / R3_BK;
  int bcol = tid % R3_BN, brow = tid / R3_BN;
  // the thread's 8 outputs, in registers for the whole walk
  float acc[R3_TM] = {0.0f};
  for (int t = 0; t < K; t += R3_BK) {
    As[arow][acol] = (row0 + arow < M && t + acol < K) ? A[(row0 + arow) * K + t + acol] : 0.0f;
    Bs[brow][bcol] = (t + brow < K && col0 + bcol < N) ? B[(t + brow) * N + col0 + bcol] : 0.0f;
    __syncthreads();
    // TODO(step 5): for each k < R3_BK, the tiles' depth (#pragma unroll both loops: acc[] stays in registers
    // only while every index r into it is a constant after unrolling, else it goes to local memory):
    //   - into a register b, the one value of B's tile that all R3_TM of the thread's outputs need at this
    //     k (which row and column of Bs?). One shared load, used R3_TM times
    //   - add to acc[r], for each r < R3_TM, the product of b with the value of A's tile at this k in the
    //     thread's r-th row (which row of As is that?): the outer product of R3_TM values of A and 1 of B
    //     (kernel 4 makes it 8 x 8). Count the shared loads per multiply-add, against kernel 2's 2
    __syncthreads(); // everyone is done with the tiles before the next t overwrites them
  }
  for (int r = 0; r < R3_TM; r++) {
    int row = row0 + trow * R3_TM + r, col = col0 + tcol;
    if (row < M && col < N) C[row * N + col] = acc[r];
  }
}

static void run_reg_block(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 grid(ceil_div(N, R3_BN), ceil_div(M, R3_BM));
  sgemm_reg_block<<<grid, R3_THREADS>>>(A, B, C, M, N, K);
  getLastCudaError("sgemm_reg_block execution failed");
}
#pragma nv_diag_default 550
