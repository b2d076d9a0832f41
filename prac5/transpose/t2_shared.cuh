/*
 * transpose/t2_shared.cuh -- kernel 2: through a shared-memory tile. A block of TILE x TILE threads reads a
 * TILE x TILE tile of the input along its rows (coalesced) into shared memory, synchronises, and writes it
 * out along the output's rows (coalesced too), reading the tile down its columns. That column read is the
 * flaw: tile[tx][ty] for tx = 0..31 is 32 floats TILE apart, all in the same bank: a 32-way bank conflict.
 */
#define TILE 32

__global__ void transpose_shared(const float *__restrict__ in, float *__restrict__ out, int rows, int cols) {
  __shared__ float tile[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int c = blockIdx.x * TILE + tx, r = blockIdx.y * TILE + ty;
  if (r < rows && c < cols) tile[ty][tx] = in[r * cols + c];
  __syncthreads();
  // the output tile: block (x, y) of the input is block (y, x) of the output
  int oc = blockIdx.y * TILE + tx, orow = blockIdx.x * TILE + ty; // output column = input row
  if (orow < cols && oc < rows) out[orow * rows + oc] = tile[tx][ty];
}

static void run_shared(const float *input, float *output, int rows, int cols) {
  dim3 block(TILE, TILE), grid(ceil_div((long long)cols, TILE), ceil_div(rows, TILE));
  transpose_shared<<<grid, block>>>(input, output, rows, cols);
  getLastCudaError("transpose_shared execution failed");
}
