/*
 * sgemm/k4_2d_tiles.cuh -- kernel 4: 2-D register tiles and 16-byte loads. Each thread now computes an
 * R4_TM x R4_TN patch of C. Per k it loads R4_TM values of A and R4_TN of B from shared memory into
 * registers and does R4_TM * R4_TN multiply-adds with them: 16 loads for 64 multiply-adds at 8 x 8. A's
 * tile is stored transposed (As[k][m]), so that a thread's R4_TM values of A are consecutive and, like B's,
 * come in float4 loads (LDS.128). Global memory is read in float4 too (LDG.128) when every row is 16-byte
 * aligned (K and N multiples of 4); otherwise in single floats (the VEC = false instance).
 */
#define R4_BM 128
#define R4_BN 128
#define R4_BK 8
#define R4_TM 8
#define R4_TN 8
#define R4_THREADS (R4_BM * R4_BN / (R4_TM * R4_TN)) // 256
static_assert(R4_BM * R4_BK == 4 * R4_THREADS && R4_BK * R4_BN == 4 * R4_THREADS,
              "each thread loads one float4 of A's tile and one of B's");
static_assert(R4_TM == 8 && R4_TN == 8, "the compute loop reads two float4 of A and two of B");

template <bool VEC>
__global__ void __launch_bounds__(R4_THREADS) sgemm_2d_tiles(const float *__restrict__ A, const float *__restrict__ B,
                                                             float *__restrict__ C, int M, int N, int K) {
  __shared__ __align__(16) float As[R4_BK][R4_BM]; // transposed: As[k][m]
  __shared__ __align__(16) float Bs[R4_BK][R4_BN];
  int tid = threadIdx.x;
  int row0 = blockIdx.y * R4_BM, col0 = blockIdx.x * R4_BN;
  // the thread's patch: rows trow*8 .. +7, columns tcol*8 .. +7 of the block tile
  int tcol = tid % (R4_BN / R4_TN), trow = tid / (R4_BN / R4_TN);
  // its loads: A's row arow, columns acol .. +3 (k); B's row brow (k), columns bcol .. +3
  int arow = tid / (R4_BK / 4), acol = (tid % (R4_BK / 4)) * 4;
  int brow = tid / (R4_BN / 4), bcol = (tid % (R4_BN / 4)) * 4;
  float acc[R4_TM][R4_TN] = {{0.0f}};
  for (int t = 0; t < K; t += R4_BK) {
    float4 a = load4<VEC>(A, row0 + arow, t + acol, M, K);
    As[acol + 0][arow] = a.x; // the transpose, on the way into shared memory
    As[acol + 1][arow] = a.y;
    As[acol + 2][arow] = a.z;
    As[acol + 3][arow] = a.w;
    *reinterpret_cast<float4 *>(&Bs[brow][bcol]) = load4<VEC>(B, t + brow, col0 + bcol, K, N);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < R4_BK; k++) {
      float4 a0 = *reinterpret_cast<const float4 *>(&As[k][trow * R4_TM]);
      float4 a1 = *reinterpret_cast<const float4 *>(&As[k][trow * R4_TM + 4]);
      float4 b0 = *reinterpret_cast<const float4 *>(&Bs[k][tcol * R4_TN]);
      float4 b1 = *reinterpret_cast<const float4 *>(&Bs[k][tcol * R4_TN + 4]);
      float av[R4_TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      float bv[R4_TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < R4_TM; i++)
#pragma unroll
        for (int j = 0; j < R4_TN; j++) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < R4_TM; i++) {
    int row = row0 + trow * R4_TM + i, col = col0 + tcol * R4_TN;
    store4<VEC>(C, row, col, M, N, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]));
    store4<VEC>(C, row, col + 4, M, N, make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]));
  }
}

static void run_2d_tiles(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 grid(ceil_div(N, R4_BN), ceil_div(M, R4_BM));
  if (rows_aligned16(A, K) && rows_aligned16(B, N) && rows_aligned16(C, N))
    sgemm_2d_tiles<true><<<grid, R4_THREADS>>>(A, B, C, M, N, K);
  else
    sgemm_2d_tiles<false><<<grid, R4_THREADS>>>(A, B, C, M, N, K);
  getLastCudaError("sgemm_2d_tiles execution failed");
}
