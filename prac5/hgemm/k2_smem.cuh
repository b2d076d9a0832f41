/*
 * hgemm/k2_smem.cuh -- kernel 2: shared-memory tiles for the tensor cores, filled by cp.async, double buffered.
 * A block of 8 warps computes a 128 x 128 tile of C, walking along K 32 at a time. Each step's tiles of A
 * (128 x 32) and B (32 x 128) are copied into shared memory 16 bytes (8 halves) per cp.async, 2 copies of each
 * per thread (common/cp_async.h: an ordinary load and store before 8.0), while the warps multiply the step
 * before (two buffers of each tile). Warp w owns 64 x 32 of C, rows (w / 4) 64 and columns (w % 4) 32 of the
 * block's: 4 x 2 accumulator fragments, fed per 16 of K by 4 fragments of A and 2 of B from shared memory. Each
 * element of A brought from global memory now serves 128 columns of C, not kernel 1's 16.
 *
 * Bank conflicts (-smem=; hgemm_smem_ways in hgemm/hgemm_host.h counts them, tests/test_prac5.c checks them).
 * load_matrix_sync of a 16 x 16 half tile at row stride ldm reads it as four 8 x 8 matrices; for FP16, on 7.5 and
 * later, it is an ldmatrix (the SASS's LDSM; for BF16 CUDA 13's mma.h makes generic loads instead, LD.E, which
 * these counts do not describe: kernel 3's own ldmatrix serves both), which reads one 8 x 8 matrix per phase: 8 rows of
 * 16 bytes (4 banks each, starting at bank (2 ldm r / 4) mod 32 for row r). The phase is conflict-free only when the 8
 * rows fall in 8 different groups of 4 banks, that is when the row stride in bytes, 2 ldm, is an odd multiple of 16
 * modulo 128: -smem=plain  A's tile rows 32 halves (64 bytes): rows start at banks 0, 16, 0, 16, ...: 4 rows share each
 *                group, 4-way. B's 128 halves (256 bytes): every row at bank 0, 8-way.
 *   -smem=pad    each row 8 halves longer (16 bytes, so cp.async's 16-byte destinations stay aligned): A's 40
 *                halves (80 bytes) start at banks 0, 20, 8, 28, 16, 4, 24, 12; B's 136 (272 bytes) at 0, 4, ...,
 *                28: no conflict, for 25 % (A) and 6 % (B) more shared memory. The default.
 * An XOR swizzle (chunk c of row r stored at chunk c ^ (r mod 8)) is conflict-free and costs no memory, but a
 * swizzled tile's rows are no longer one stride apart, and load_matrix_sync takes one pointer and one ldm for
 * the whole warp: no WMMA call can read it. It needs one row address per lane (ldmatrix itself), kernel 3.
 * The edges: copies of 16 bytes need every row of A and B to start on a 16-byte boundary (K and N multiples of
 * 8); a chunk is then wholly inside or wholly outside the matrix, and one outside is zero-filled by cp.async.
 * Otherwise (VEC false) each thread loads its 8 halves one by one, zero outside, and stores them: correct at
 * any size, without the overlap. C goes out by store_matrix_sync where a fragment lies inside C and its rows are
 * 32-byte aligned (N a multiple of 8); else through the warp's buffer in shared memory, element by element.
 */
#define S2_BM 128
#define S2_BN 128
#define S2_BK 32
#define S2_THREADS 256 // 8 warps: 2 along M x 4 along N
#define S2_COPIES 2    // 16-byte copies of each tile per thread
static_assert(S2_BM * S2_BK == 8 * S2_COPIES * S2_THREADS && S2_BK * S2_BN == 8 * S2_COPIES * S2_THREADS,
              "each thread copies S2_COPIES chunks of 8 halves of A's tile and of B's");

static int s2_layout = HGEMM_SMEM_DEFAULT; // -smem=

template <typename T, int LAYOUT, bool VEC>
__global__ void __launch_bounds__(S2_THREADS)
    hgemm_smem(const T *__restrict__ A, const T *__restrict__ B, float *__restrict__ C, int M, int N, int K) {
  if constexpr (HGEMM_HAS_MMA<T>) {
    using namespace nvcuda;
    constexpr int PAD = LAYOUT == HGEMM_SMEM_PAD ? 8 : 0, LDA = S2_BK + PAD, LDB = S2_BN + PAD;
    __shared__ __align__(128) T As[2][S2_BM * LDA];              // As[buf][r * LDA + k]
    __shared__ __align__(128) T Bs[2][S2_BK * LDB];              // Bs[buf][k * LDB + c]
    __shared__ __align__(32) float Cs[S2_THREADS / 32][16 * 16]; // the edge path's C, per warp
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, wm = warp / 4, wn = warp % 4;
    int row0 = blockIdx.y * S2_BM, col0 = blockIdx.x * S2_BN;

    // step t's tiles into buffer buf: chunk idx of A's tile is row idx / 4, halves (idx % 4) 8 .. +7; of B's,
    // row idx / 16, halves (idx % 16) 8 .. +7 (consecutive threads, consecutive 16 bytes of a row)
    auto load_tiles = [&](int t, int buf) {
#pragma unroll
      for (int l = 0; l < S2_COPIES; l++) {
        int idx = tid + l * S2_THREADS;
        int ar = idx / 4, ac = (idx % 4) * 8, gr = row0 + ar, gk = t * S2_BK + ac;
        int br = idx / 16, bc = (idx % 16) * 8, hk = t * S2_BK + br, gc = col0 + bc;
        T *a = &As[buf][ar * LDA + ac], *b = &Bs[buf][br * LDB + bc];
        hgemm_load_chunks<T, VEC>(a, b, A, B, M, N, K, gr, gk, hk, gc);
      }
    };

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
      for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);

    int ntiles = ceil_div(K, S2_BK);
    load_tiles(0, 0);
    cp_async_commit();
    for (int t = 0; t < ntiles; t++) {
      int cur = t & 1;
      // the next step's copies go out now, into the buffer every warp finished reading at the end of step t - 1
      if (t + 1 < ntiles) load_tiles(t + 1, cur ^ 1);
      cp_async_commit();  // (an empty group on the last step keeps the count below right)
      cp_async_wait<1>(); // this thread's copies of step t have landed (only step t + 1's may be in flight) ...
      __syncthreads();    // ... and every thread's
#pragma unroll
      for (int kk = 0; kk < S2_BK; kk += 16) {
        wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> b[2];
#pragma unroll
        for (int j = 0; j < 2; j++) wmma::load_matrix_sync(b[j], &Bs[cur][kk * LDB + wn * 32 + j * 16], LDB);
#pragma unroll
        for (int i = 0; i < 4; i++) {
          wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a;
          wmma::load_matrix_sync(a, &As[cur][(wm * 64 + i * 16) * LDA + kk], LDA);
#pragma unroll
          for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], a, b[j], acc[i][j]);
        }
      }
      __syncthreads(); // every warp is done with buffer cur before step t + 1 copies step t + 2 into it
    }

#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
      for (int j = 0; j < 2; j++) {
        int row = row0 + wm * 64 + i * 16, col = col0 + wn * 32 + j * 16;
        if (row >= M || col >= N) continue; // the whole warp
        if (row + 16 <= M && col + 16 <= N && N % 8 == 0) {
          wmma::store_matrix_sync(C + row * N + col, acc[i][j], N, wmma::mem_row_major);
        } else {
          wmma::store_matrix_sync(Cs[warp], acc[i][j], 16, wmma::mem_row_major);
          __syncwarp();
          for (int e = lane; e < 16 * 16; e += 32)
            if (row + e / 16 < M && col + e % 16 < N) C[(row + e / 16) * N + col + e % 16] = Cs[warp][e];
          __syncwarp(); // read before the next fragment overwrites it
        }
      }
  }
}

template <typename T, int LAYOUT>
static void launch_smem(const T *A, const T *B, float *C, int M, int N, int K) {
  dim3 grid(ceil_div(N, S2_BN), ceil_div(M, S2_BM));
  if (K % 8 == 0 && N % 8 == 0 && (uintptr_t)A % 16 == 0 && (uintptr_t)B % 16 == 0)
    hgemm_smem<T, LAYOUT, true><<<grid, S2_THREADS>>>(A, B, C, M, N, K);
  else
    hgemm_smem<T, LAYOUT, false><<<grid, S2_THREADS>>>(A, B, C, M, N, K);
  getLastCudaError("hgemm_smem execution failed");
}

template <typename T>
static void run_smem(const void *A, const void *B, float *C, int M, int N, int K) {
  if (s2_layout == HGEMM_SMEM_PAD)
    launch_smem<T, HGEMM_SMEM_PAD>((const T *)A, (const T *)B, C, M, N, K);
  else
    launch_smem<T, HGEMM_SMEM_PLAIN>((const T *)A, (const T *)B, C, M, N, K);
}
