/*
 * transpose/t4_rows.cuh -- step 4: several rows per thread. A block of TILE x T4_BY threads (256) moves a
 * TILE x TILE padded tile, each thread TILE / T4_BY elements, T4_BY rows apart. Fewer, shorter blocks:
 * each thread has several independent loads in flight before the barrier, the index arithmetic is shared
 * among them, and more blocks fit on an SM at once than with 1024 threads each.
 */
#define T4_BY 8
static_assert(TILE % T4_BY == 0, "each thread moves TILE / T4_BY whole rows of the tile");

__global__ void __launch_bounds__(TILE * T4_BY)
    transpose_rows(const float *__restrict__ in, float *__restrict__ out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int c = blockIdx.x * TILE + tx, r = blockIdx.y * TILE + ty;
#pragma unroll
  for (int i = 0; i < TILE; i += T4_BY)
    if (r + i < rows && c < cols) tile[ty + i][tx] = in[(r + i) * cols + c];
  __syncthreads();
  int oc = blockIdx.y * TILE + tx, orow = blockIdx.x * TILE + ty;
#pragma unroll
  for (int i = 0; i < TILE; i += T4_BY)
    if (orow + i < cols && oc < rows) out[(orow + i) * rows + oc] = tile[tx][ty + i];
}

static void run_rows(const float *input, float *output, int rows, int cols) {
  dim3 block(TILE, T4_BY), grid(ceil_div(cols, TILE), ceil_div(rows, TILE));
  transpose_rows<<<grid, block>>>(input, output, rows, cols);
  getLastCudaError("transpose_rows execution failed");
}
