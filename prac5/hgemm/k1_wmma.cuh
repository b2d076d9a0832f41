/*
 * hgemm/k1_wmma.cuh -- kernel 1: the tensor cores through WMMA (nvcuda::wmma, mma.h), one warp per 16 x 16
 * tile of C, A and B straight from global memory. The API in five calls, each made by all 32 lanes of the warp
 * together, on fragments whose layout across the lanes the API hides:
 *   fragment<matrix_a, 16, 16, 16, T, row_major> a;   a 16 x 16 tile of A (M x K), rows along K
 *   fragment<matrix_b, 16, 16, 16, T, row_major> b;   a 16 x 16 tile of B (K x N), rows along N
 *   fragment<accumulator, 16, 16, 16, float> acc;     16 x 16 of C, in FP32
 *   fill_fragment(acc, 0.0f)      every element of the fragment set to the value: the sum starts at zero
 *   load_matrix_sync(a, p, ldm)   the tile whose first element is at p, row r at p + r ldm: p 32-byte aligned,
 *                                 ldm a multiple of 8 halves (16 bytes)
 *   mma_sync(acc, a, b, acc)      acc += a b: 16 x 16 x 16 multiply-adds on the tensor cores
 *   store_matrix_sync(q, acc, ldm, mem_row_major)    ldm a multiple of 4 floats, q 32-byte aligned
 * The warp walks along K 16 at a time. The edge path (hgemm_tile_direct, hgemm/hgemm_host.h): a tile wholly
 * inside C, with K and N multiples of 16 (every step along K inside the rows, ldm a multiple of 8 halves), is
 * loaded and stored in place; any other tile is staged through the warp's own 16 x 16 buffers in shared memory,
 * filled lane by lane with zeros outside A and B (which add nothing), and its C written back lane by lane where
 * it lies inside C. So every M, N and K passes, the edge tiles at the cost of the staging.
 * Each element of A is read from global memory once per 16 columns of C: the caches do the rest (kernel 2
 * shares the tiles among the warps of a block).
 */
#define W1_WARPS 4 // a block of 2 x 2 warps: 32 x 32 of C
static_assert(W1_WARPS == 4, "the warps of a block form a 2 x 2 grid of 16 x 16 tiles");

template <typename T>
__global__ void __launch_bounds__(32 * W1_WARPS)
    hgemm_wmma(const T *__restrict__ A, const T *__restrict__ B, float *__restrict__ C, int M, int N, int K) {
  if constexpr (HGEMM_HAS_MMA<T>) {
    using namespace nvcuda;
    __shared__ __align__(32) T As[W1_WARPS][16 * 16], Bs[W1_WARPS][16 * 16]; // the edge path's staging
    __shared__ __align__(32) float Cs[W1_WARPS][16 * 16];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int row0 = (blockIdx.y * 2 + warp / 2) * 16, col0 = (blockIdx.x * 2 + warp % 2) * 16; // the warp's tile of C
    if (row0 >= M || col0 >= N) return; // the whole warp: nothing below waits for the block
    bool direct = hgemm_tile_direct(M, N, K, row0, col0);
    wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += 16) {
      if (direct) {
        wmma::load_matrix_sync(a, A + row0 * K + k0, K); // row r of the tile is K halves after row r - 1
        wmma::load_matrix_sync(b, B + k0 * N + col0, N);
      } else {
        // lane i copies elements i, i + 32, ...: consecutive lanes, consecutive columns
        for (int i = lane; i < 16 * 16; i += 32) {
          int r = i / 16, c = i % 16;
          As[warp][i] = (row0 + r < M && k0 + c < K) ? A[(row0 + r) * K + k0 + c] : T(0.0f);
          Bs[warp][i] = (k0 + r < K && col0 + c < N) ? B[(k0 + r) * N + col0 + c] : T(0.0f);
        }
        __syncwarp(); // every lane's copies are in before the warp loads them
        wmma::load_matrix_sync(a, As[warp], 16);
        wmma::load_matrix_sync(b, Bs[warp], 16);
        __syncwarp(); // and read before the next step overwrites them
      }
      wmma::mma_sync(acc, a, b, acc);
    }
    if (direct) {
      wmma::store_matrix_sync(C + row0 * N + col0, acc, N, wmma::mem_row_major);
    } else {
      wmma::store_matrix_sync(Cs[warp], acc, 16, wmma::mem_row_major);
      __syncwarp();
      for (int i = lane; i < 16 * 16; i += 32) {
        int r = i / 16, c = i % 16;
        if (row0 + r < M && col0 + c < N) C[(row0 + r) * N + col0 + c] = Cs[warp][i];
      }
    }
  }
}

template <typename T>
static void run_wmma(const void *A, const void *B, float *C, int M, int N, int K) {
  dim3 grid(ceil_div(N, 32), ceil_div(M, 32));
  hgemm_wmma<T><<<grid, 32 * W1_WARPS>>>((const T *)A, (const T *)B, C, M, N, K);
  getLastCudaError("hgemm_wmma execution failed");
}
