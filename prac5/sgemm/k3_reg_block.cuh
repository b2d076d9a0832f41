/*
 * sgemm/k3_reg_block.cuh -- kernel 3: several outputs per thread (register blocking). Kernel 2 does two
 * shared-memory loads per multiply-add. Here each thread computes R3_TM outputs down a column of C: for each
 * k it loads one value of B's tile into a register and reuses it R3_TM times against R3_TM values of A's
 * tile, so shared-memory traffic per multiply-add falls from 2 loads to about 1 + 1/R3_TM. The block tile is
 * R3_BM x R3_BN; the walk along K goes R3_BK at a time.
 */
#define R3_BM 64
#define R3_BN 64
#define R3_BK 8
#define R3_TM 8
#define R3_THREADS (R3_BM * R3_BN / R3_TM) // 512: one thread per R3_TM outputs
static_assert(R3_THREADS == R3_BM * R3_BK && R3_THREADS == R3_BN * R3_BK,
              "each thread loads exactly one element of A's tile and one of B's");

__global__ void __launch_bounds__(R3_THREADS) sgemm_reg_block(const float *__restrict__ A, const float *__restrict__ B,
                                                              float *__restrict__ C, int M, int N, int K) {
  __shared__ float As[R3_BM][R3_BK];
  __shared__ float Bs[R3_BK][R3_BN];
  int tid = threadIdx.x;
  int row0 = blockIdx.y * R3_BM, col0 = blockIdx.x * R3_BN;
  // the thread's outputs: column tcol, rows trow*R3_TM .. +R3_TM-1 of the block tile. A warp shares trow,
  // so its reads of As are broadcasts, and its reads of Bs are 32 consecutive floats
  int tcol = tid % R3_BN, trow = tid / R3_BN;
  // what the thread loads: A's tile element (arow, acol), B's (brow, bcol)
  int acol = tid % R3_BK, arow = tid / R3_BK;
  int bcol = tid % R3_BN, brow = tid / R3_BN;
  float acc[R3_TM] = {0.0f};
  for (int t = 0; t < K; t += R3_BK) {
    As[arow][acol] = (row0 + arow < M && t + acol < K) ? A[(row0 + arow) * K + t + acol] : 0.0f;
    Bs[brow][bcol] = (t + brow < K && col0 + bcol < N) ? B[(t + brow) * N + col0 + bcol] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < R3_BK; k++) {
      float b = Bs[k][tcol]; // one load, used R3_TM times
#pragma unroll
      for (int r = 0; r < R3_TM; r++) acc[r] += As[trow * R3_TM + r][k] * b;
    }
    __syncthreads();
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
