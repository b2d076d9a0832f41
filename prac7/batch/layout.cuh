/*
 * batch/layout.cuh -- practical 7, steps 8-10: the two layouts of a batch and the transpose between them.
 *
 * trid_batch stores `batch` systems of n unknowns one after another (strided: row i of system s at s*n + i);
 * the one-system-a-thread solvers (GPU_thomas_thread, cuSPARSE's gtsvInterleavedBatch) want them interleaved
 * (row i of system s at i*batch + s), so that a warp's 32 loads are 128 consecutive bytes. trid_args holds
 * both, for every launcher of the ladder (batch/b1_pcr_block.cuh .. b3_hybrid.cuh).
 */
#ifndef BATCH_LAYOUT_CUH
#define BATCH_LAYOUT_CUH

#include "helper_cuda.h"

// the layouts: out[col * rows + row] = in[row * cols + col], through a 32 x 33 tile (the 33 keeps the tile's
// columns in different banks); blocks of 32 x 8 threads (at most 2^31 - 1 tiles in x: the
// columns of an n-long system; a grid of at most 65535 in y marches over the row tiles)
__global__ void transpose(int rows, int cols, const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float tile[32][33];
  int c0 = blockIdx.x * 32;
  for (int r0 = blockIdx.y * 32; r0 < rows; r0 += gridDim.y * 32) {
    for (int j = threadIdx.y; j < 32; j += 8) {
      int r = r0 + j, c = c0 + threadIdx.x;
      if (r < rows && c < cols) tile[j][threadIdx.x] = in[(size_t)r * cols + c];
    }
    __syncthreads();
    for (int j = threadIdx.y; j < 32; j += 8) {
      int c = c0 + j, r = r0 + threadIdx.x;
      if (r < rows && c < cols) out[(size_t)c * rows + r] = tile[threadIdx.x][j];
    }
    __syncthreads(); // the tile is refilled by the next row tile
  }
}

// everything a launcher needs, for the checks and the timing helpers
typedef struct {
  int n, batch, warps, stages; // GPU_trid_hybrid's warps per block and stages per warp (-warps, -stages)
  const float *a, *b, *c, *d;  // the strided layout
  const float *ai, *bi, *ci, *di; // the interleaved layout
  float *x, *xi, *w;
} trid_args;

// rows x cols strided -> interleaved (or back, with rows and cols exchanged)
static void to_layout(int rows, int cols, const float *in, float *out) {
  int ytiles = (rows + 31) / 32;
  dim3 grid((cols + 31) / 32, ytiles < 65535 ? ytiles : 65535);
  transpose<<<grid, dim3(32, 8)>>>(rows, cols, in, out);
  getLastCudaError("transpose execution failed");
}

static void to_interleaved(const trid_args *t) { // the four coefficient arrays, strided -> interleaved
  to_layout(t->batch, t->n, t->a, (float *)t->ai);
  to_layout(t->batch, t->n, t->b, (float *)t->bi);
  to_layout(t->batch, t->n, t->c, (float *)t->ci);
  to_layout(t->batch, t->n, t->d, (float *)t->di);
}
static void launch_transposes(void *p) { // what the interleaved layout costs a strided caller: 4 in, 1 out
  trid_args *t = (trid_args *)p;
  to_interleaved(t);
  to_layout(t->n, t->batch, t->xi, t->x);
}

#endif /* BATCH_LAYOUT_CUH */
