/*
 * transpose/t4_rows.cuh -- kernel 4: a wider tile, several rows per thread. A block of T4_TILE x T4_BY
 * threads (64 x 8 = 512) moves a 64 x 64 padded tile, each thread T4_TILE / T4_BY = 8 elements, T4_BY
 * rows apart. Two changes to kernel 3, each for the memory system:
 *  - several rows per thread: 8 independent loads in flight before the barrier, the index arithmetic shared
 *    among them;
 *  - 64 columns, not 32: each row of the tile is read, and each row of its transpose written, as 256
 *    contiguous bytes instead of 128, so that the DRAM serves fewer, longer bursts.
 * 32 x 32 tiles with 4 rows per thread were enough on the H100 measured, not on the H200; of the 64-wide shapes
 * timed, 64 x 8 threads was the best on the H100 and close to the best on the H200 (the figures:
 * docs/notes/prac5.md, "Figures behind the source's choices"). The padding keeps the column reads of
 * tile[tx][ty + i] conflict-free: element (i, j) is in bank (65 i + j) % 32 = (i + j) % 32.
 */
#ifndef T4_TILE
#define T4_TILE 64
#endif
#ifndef T4_BY
#define T4_BY 8
#endif
static_assert(T4_TILE % T4_BY == 0, "each thread moves T4_TILE / T4_BY whole rows of the tile");

__global__ void __launch_bounds__(T4_TILE * T4_BY)
    transpose_rows(const float *__restrict__ in, float *__restrict__ out, int rows, int cols) {
  __shared__ float tile[T4_TILE][T4_TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int c = blockIdx.x * T4_TILE + tx, r = blockIdx.y * T4_TILE + ty;
#pragma unroll
  for (int i = 0; i < T4_TILE; i += T4_BY)
    if (r + i < rows && c < cols) tile[ty + i][tx] = in[(r + i) * cols + c];
  __syncthreads();
  int oc = blockIdx.y * T4_TILE + tx, orow = blockIdx.x * T4_TILE + ty;
#pragma unroll
  for (int i = 0; i < T4_TILE; i += T4_BY)
    if (orow + i < cols && oc < rows) out[(orow + i) * rows + oc] = tile[tx][ty + i];
}

static void run_rows(const float *input, float *output, int rows, int cols) {
  dim3 block(T4_TILE, T4_BY), grid(ceil_div((long long)cols, T4_TILE), ceil_div(rows, T4_TILE));
  transpose_rows<<<grid, block>>>(input, output, rows, cols);
  getLastCudaError("transpose_rows execution failed");
}
