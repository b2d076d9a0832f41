/*
 * exercises/t3_padded.cuh -- handout step 6, kernel 3 of the transpose ladder, to write: the padded tile.
 * (The solution is ../transpose/t3_padded.cuh.) Kernel 2, transpose_shared, reads its tile down a column, and
 * every float of a column of a 32 x 32 tile is in the same bank. Until the TODOs are filled in this kernel writes
 * nothing and ./exercises/transpose_ladder -kernel=3 ends RESULT: FAIL (exercise not done: ...).
 */
__global__ void transpose_padded(const float *__restrict__ in, float *__restrict__ out, int rows, int cols) {
  // TODO(step 6): declare the tile. Word w of shared memory is in bank w mod 32: in kernel 2's TILE x TILE
  // tile, which bank holds element (i, j), and so where does a column lie? What row length would put the 32
  // elements of a column in 32 different banks, and what does that cost?
  // TODO(step 6): the load, the barrier and the store are kernel 2's (../transpose/t2_shared.cuh), both sides
  // guarded: read in[][] along a row of the tile, write out[][] from a column of it
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
