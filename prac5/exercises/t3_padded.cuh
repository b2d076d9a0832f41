/*
 * exercises/t3_padded.cuh -- handout step 6, kernel 3 of the transpose ladder, to write: the padded tile.
 * (The solution is ../transpose/t3_padded.cuh.) Kernel 2, transpose_shared, reads its tile down a column, and
 * every float of a column of a 32 x 32 tile is in the same bank. Until the TODOs are filled in this kernel writes
 * nothing and ./exercises/transpose_ladder -kernel=3 ends RESULT: FAIL (exercise not done: ...).
 */
__global__ void transpose_padded(const float *__restrict__ in, float *__restrict__ out, int rows, int cols) {
  // TODO(step 6): declare the tile one float wider than kernel 2's, so that a column of it spans 32 banks
  // TODO(step 6): as transpose_shared (../transpose/t2_shared.cuh): load in[r][c] into the tile when inside
  // the input (c = blockIdx.x * TILE + tx, r = blockIdx.y * TILE + ty), synchronise, and write the tile's
  // transposed element to out[orow][oc] when inside the output (oc = blockIdx.y * TILE + tx,
  // orow = blockIdx.x * TILE + ty)
  (void)in;
  (void)out;
  (void)rows;
  (void)cols;
}

static void run_padded(const float *input, float *output, int rows, int cols) {
  dim3 block(TILE, TILE), grid(ceil_div((long long)cols, TILE), ceil_div(rows, TILE));
  transpose_padded<<<grid, block>>>(input, output, rows, cols);
  getLastCudaError("transpose_padded execution failed");
}
