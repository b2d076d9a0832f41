/*
 * exercises/h1_wmma.cuh -- handout step 9, kernel 1 of the tensor-core ladder, to write: WMMA. The calls you need
 * are the handout's list under "Kernel 1: WMMA fragments" (wmma::fragment, fill_fragment, load_matrix_sync,
 * mma_sync, store_matrix_sync; ../hgemm/k1_wmma.cuh is the solution). One warp per 16 x 16 tile of C (M x N,
 * FP32), A (M x K) and B (K x N) of T (FP16 or BF16), row-major: A[row][k] is A[row * K + k]. The edge path's
 * staging is written. Until the TODOs are, C is never computed and ./exercises/hgemm_ladder ends RESULT: FAIL
 * (exercise not done: ...).
 */
#pragma nv_diag_suppress 550 // until the TODOs are written the staged tiles are stored but never read
#define W1_WARPS 4           // a block of 2 x 2 warps: 32 x 32 of C
template <typename T>
__global__ void __launch_bounds__(32 * W1_WARPS)
    hgemm_wmma(const T *__restrict__ A, const T *__restrict__ B, float *__restrict__ C, int M, int N, int K) {
  if constexpr (HGEMM_HAS_MMA<T>) {
    using namespace nvcuda;
    __shared__ __align__(32) T As[W1_WARPS][16 * 16], Bs[W1_WARPS][16 * 16]; // the edge path's staging
    __shared__ __align__(32) float Cs[W1_WARPS][16 * 16];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int row0 = (blockIdx.y * 2 + warp / 2) * 16, col0 = (blockIdx.x * 2 + warp % 2) * 16; // the warp's tile of C
    if (row0 >= M || col0 >= N) return;
    bool direct = hgemm_tile_direct(M, N, K, row0, col0); // in place, or staged (hgemm/hgemm_host.h)
    // TODO(step 9): fragments a (matrix_a, 16 x 16 x 16, T, row_major), b (matrix_b, 16 x 16 x 16, T, row_major:
    // B is K x N, row-major too) and acc (accumulator, 16 x 16 x 16, float, and no layout argument: it is given
    // at the store), then acc = 0 by wmma::fill_fragment (the sums start at zero)
    for (int k0 = 0; k0 < K; k0 += 16) {
      if (direct) {
        // TODO(step 9): load a and b in place: where does each tile start, how far apart are its rows (ldm)?
      } else {
        for (int i = lane; i < 16 * 16; i += 32) { // zeros outside A and B
          int r = i / 16, c = i % 16;
          As[warp][i] = (row0 + r < M && k0 + c < K) ? A[(row0 + r) * K + k0 + c] : T(0.0f);
          Bs[warp][i] = (k0 + r < K && col0 + c < N) ? B[(k0 + r) * N + col0 + c] : T(0.0f);
        }
        __syncwarp(); // TODO(step 9): then load a and b from As[warp] and Bs[warp] (ldm?)
        __syncwarp(); // read before the next step overwrites them
      }
      // TODO(step 9): acc += a b, on the tensor cores
    }
    // TODO(step 9): store acc in place in C if direct (ldm?), else into Cs[warp], 16 floats per row, for this copy:
    if (!direct) {
      __syncwarp();
      for (int i = lane; i < 16 * 16; i += 32)
        if (row0 + i / 16 < M && col0 + i % 16 < N) C[(row0 + i / 16) * N + col0 + i % 16] = Cs[warp][i];
    }
  }
}
template <typename T>
static void run_wmma(const void *A, const void *B, float *C, int M, int N, int K) {
  hgemm_wmma<T><<<dim3(ceil_div(N, 32), ceil_div(M, 32)), 32 * W1_WARPS>>>((const T *)A, (const T *)B, C, M, N, K);
  getLastCudaError("hgemm_wmma execution failed");
}
#pragma nv_diag_default 550
