/*
 * transpose/t3_padded.cuh -- kernel 3: the same tile, one float wider. With rows of TILE + 1 floats, the
 * column tile[0..31][ty] is spread over 32 different banks (element (i, j) is in bank (i * 33 + j) % 32 =
 * (i + j) % 32): no bank conflict, for one unused float per row.
 */
__global__ void transpose_padded(const float *__restrict__ in, float *__restrict__ out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1]; // + 1: the padding
  int tx = threadIdx.x, ty = threadIdx.y;
  int c = blockIdx.x * TILE + tx, r = blockIdx.y * TILE + ty;
  if (r < rows && c < cols) tile[ty][tx] = in[r * cols + c];
  __syncthreads();
  int oc = blockIdx.y * TILE + tx, orow = blockIdx.x * TILE + ty;
  if (orow < cols && oc < rows) out[orow * rows + oc] = tile[tx][ty];
}

static void run_padded(const float *input, float *output, int rows, int cols) {
  dim3 block(TILE, TILE), grid(ceil_div((long long)cols, TILE), ceil_div(rows, TILE));
  transpose_padded<<<grid, block>>>(input, output, rows, cols);
  getLastCudaError("transpose_padded execution failed");
}
