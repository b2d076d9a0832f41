/*
 * sgemm/k5_double_buffer.cuh -- kernel 5: warp tiles, conflict-free shared memory, and double buffering.
 * Three changes to kernel 4, each named where it is made:
 *  (a) warp tiling: the 8 warps of a block each own a 64 x 32 part of the 128 x 128 tile, and within a
 *      warp a lane owns a 2 x 2 set of 4 x 4 patches, 32 rows and 16 columns apart. A warp's float4 reads
 *      of As then touch 8 distinct, consecutive float4s (128 bytes) and of Bs 4 (64 bytes): no bank
 *      conflicts, where kernel 4's 8-wide patches make lanes read 32 bytes apart.
 *  (b) As padded by R5_PAD floats per row, so that the transposing stores of A's tile hit 32 different banks
 *      (with BK = 8; kernel 6's BK = 16 puts two of a warp's stores in each bank).
 *  (c) double buffering: two copies of each tile. While the block computes on one, each thread has already
 *      issued the global loads of the next tile into registers; they land during the arithmetic, and are
 *      stored into the other copy afterwards. One __syncthreads per tile instead of two.
 * __launch_bounds__(256, 2): at most 128 registers per thread, so that two blocks fit on an SM.
 */
#define R5_BM 128
#define R5_BN 128
#define R5_PAD 4 // keeps rows 16-byte aligned: (128 + 4) * 4 bytes = 33 x 16
#define R5_THREADS 256
static_assert(R5_THREADS == 256 && R5_BM == 128 && R5_BN == 128, "the warp layout below is for 8 warps on 128 x 128");

// BK: the depth of a tile along K (8 here; kernel 6 instantiates 16). LOADS float4 of A's tile and of B's per thread.
template <int BK, bool VEC>
__global__ void __launch_bounds__(R5_THREADS, 2)
    sgemm_double_buffer(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N,
                        int K) {
  constexpr int LOADS = R5_BM * BK / (4 * R5_THREADS);
  static_assert(R5_BM * BK == 4 * LOADS * R5_THREADS && BK * R5_BN == 4 * LOADS * R5_THREADS,
                "each thread loads LOADS whole float4 of A's tile and of B's");
  __shared__ __align__(16) float As[2][BK][R5_BM + R5_PAD]; // transposed: As[buf][k][m]
  __shared__ __align__(16) float Bs[2][BK][R5_BN];
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int row0 = blockIdx.y * R5_BM, col0 = blockIdx.x * R5_BN;
  // (a) warp (wr, wc) of a 2 x 4 grid owns rows wr*64 .. +63 and columns wc*32 .. +31; lane (lr, lc) of an
  // 8 x 4 grid owns rows r .. r+3 and r+32 .. r+35, columns c .. c+3 and c+16 .. c+19
  int r = (warp / 4) * 64 + (lane / 4) * 4;
  int c = (warp % 4) * 32 + (lane % 4) * 4;
  // load l of the thread: A's row arow(l), k = acol(l) .. +3; B's row brow(l), columns bcol(l) .. +3
  int arow[LOADS], acol[LOADS], brow[LOADS], bcol[LOADS];
#pragma unroll
  for (int l = 0; l < LOADS; l++) {
    int idx = tid + l * R5_THREADS;
    arow[l] = idx / (BK / 4);
    acol[l] = (idx % (BK / 4)) * 4;
    brow[l] = idx / (R5_BN / 4);
    bcol[l] = (idx % (R5_BN / 4)) * 4;
  }
  float acc[8][8] = {{0.0f}};
  int ntiles = (K + BK - 1) / BK;
  float4 a[LOADS], b[LOADS];

  // the first tile, into buffer 0
#pragma unroll
  for (int l = 0; l < LOADS; l++) {
    a[l] = load4<VEC>(A, row0 + arow[l], acol[l], M, K);
    b[l] = load4<VEC>(B, brow[l], col0 + bcol[l], K, N);
    As[0][acol[l] + 0][arow[l]] = a[l].x;
    As[0][acol[l] + 1][arow[l]] = a[l].y;
    As[0][acol[l] + 2][arow[l]] = a[l].z;
    As[0][acol[l] + 3][arow[l]] = a[l].w;
    *reinterpret_cast<float4 *>(&Bs[0][brow[l]][bcol[l]]) = b[l];
  }
  __syncthreads();

  for (int t = 0; t < ntiles; t++) {
    int cur = t & 1;
    // (c) the next tile's loads are issued now; nothing waits for them until the store below
    if (t + 1 < ntiles) {
#pragma unroll
      for (int l = 0; l < LOADS; l++) {
        a[l] = load4<VEC>(A, row0 + arow[l], (t + 1) * BK + acol[l], M, K);
        b[l] = load4<VEC>(B, (t + 1) * BK + brow[l], col0 + bcol[l], K, N);
      }
    }
#pragma unroll
    for (int k = 0; k < BK; k++) {
      float4 a0 = *reinterpret_cast<const float4 *>(&As[cur][k][r]);
      float4 a1 = *reinterpret_cast<const float4 *>(&As[cur][k][r + 32]);
      float4 b0 = *reinterpret_cast<const float4 *>(&Bs[cur][k][c]);
      float4 b1 = *reinterpret_cast<const float4 *>(&Bs[cur][k][c + 16]);
      float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      float bv[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) acc[i][j] += av[i] * bv[j];
    }
    // the other buffer was last read in iteration t-1, which every thread finished before the
    // __syncthreads that ended it: safe to overwrite now
    if (t + 1 < ntiles) {
      int nxt = cur ^ 1;
#pragma unroll
      for (int l = 0; l < LOADS; l++) {
        As[nxt][acol[l] + 0][arow[l]] = a[l].x;
        As[nxt][acol[l] + 1][arow[l]] = a[l].y;
        As[nxt][acol[l] + 2][arow[l]] = a[l].z;
        As[nxt][acol[l] + 3][arow[l]] = a[l].w;
        *reinterpret_cast<float4 *>(&Bs[nxt][brow[l]][bcol[l]]) = b[l];
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; i++) {
    int row = row0 + r + (i % 4) + (i / 4) * 32;
    store4<VEC>(C, row, col0 + c, M, N, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]));
    store4<VEC>(C, row, col0 + c + 16, M, N, make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]));
  }
}

template <int BK> static void launch_double_buffer(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 grid(ceil_div(N, R5_BN), ceil_div(M, R5_BM));
  if (rows_aligned16(A, K) && rows_aligned16(B, N) && rows_aligned16(C, N))
    sgemm_double_buffer<BK, true><<<grid, R5_THREADS>>>(A, B, C, M, N, K);
  else
    sgemm_double_buffer<BK, false><<<grid, R5_THREADS>>>(A, B, C, M, N, K);
  getLastCudaError("sgemm_double_buffer execution failed");
}

static void run_double_buffer(const float *A, const float *B, float *C, int M, int N, int K) {
  launch_double_buffer<8>(A, B, C, M, N, K);
}
