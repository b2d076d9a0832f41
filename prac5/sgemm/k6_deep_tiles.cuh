/*
 * sgemm/k6_deep_tiles.cuh -- kernel 6: kernel 5 with tiles twice as deep along K (BK = 16, 33 KB of
 * shared memory for the two buffers). Each tile now carries 1024 multiply-adds per thread between two
 * __syncthreads, so the barrier and the loop's own arithmetic of a tile are spread over twice as much work
 * (the shared-memory stores grow with the tile: the same number per multiply-add), and each thread has four
 * 16-byte global loads in flight instead of two.
 */
static void run_deep_tiles(const float *A, const float *B, float *C, int M, int N, int K) {
  launch_double_buffer<16>(A, B, C, M, N, K);
}
