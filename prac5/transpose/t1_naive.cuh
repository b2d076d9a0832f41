/*
 * transpose/t1_naive.cuh -- kernel 1: one thread per element. threadIdx.x runs along a row of the input, so
 * a warp's reads are 32 consecutive floats (one 128-byte line), but its writes go down a column of the
 * output, rows floats apart: 32 different lines for 128 useful bytes, and the DRAM moves far more.
 */
#define NAIVE_BX 32
#define NAIVE_BY 8

__global__ void transpose_naive(const float *__restrict__ in, float *__restrict__ out, int rows, int cols) {
  int c = blockIdx.x * NAIVE_BX + threadIdx.x, r = blockIdx.y * NAIVE_BY + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

static void run_naive(const float *input, float *output, int rows, int cols) {
  dim3 block(NAIVE_BX, NAIVE_BY), grid(ceil_div((long long)cols, NAIVE_BX), ceil_div(rows, NAIVE_BY));
  transpose_naive<<<grid, block>>>(input, output, rows, cols);
  getLastCudaError("transpose_naive execution failed");
}
