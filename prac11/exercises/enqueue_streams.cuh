/*
 * exercises/enqueue_streams.cuh -- practical 11, step 3, to write: the streams way of many_laplace (the solution
 * is enqueue_streams in ../many_laplace.cu). Enqueue `iter` Jacobi sweeps of each of the ngrids grids, grid g's in
 * streams[g]: sweep(&grids[g], stream) launches one sweep of grid g in that stream and swaps the grid's u1 and u2.
 * The starting version is the serial way in disguise: every sweep in streams[0], one grid after another. Its
 * results are right (one stream keeps every grid's sweeps in order), but no two grids can run at once, and
 *   make exercises && ./exercises/many_laplace
 * (make rebuilds it after each edit) ends RESULT: FAIL (exercise not done: the streams way put the 64 grids'
 * sweeps in 1 stream, not a stream each; ...).
 */
static void enqueue_streams(lap_grid *grids, int ngrids, int iter, const cudaStream_t *streams) {
  // TODO(step 3): a stream for each grid, so that different grids' sweeps can run side by side while each grid's
  // stay in order. Which loop goes outside, the sweeps or the grids, so that every stream has work queued after
  // the host's first few launches, and why does that matter when a launch costs the host microseconds?
  for (int g = 0; g < ngrids; g++)
    for (int it = 0; it < iter; it++) sweep(&grids[g], streams[0]);
}
