/*
 * exercises/async_copies.cuh -- practical 12, step 2, to write: work_streaming2's host array and chunk loop body
 * (the solution is in ../work_streaming2.cu, under #ifndef EXERCISE). The program allocates the host array with
 * h_data_alloc, cuts it into chunks of whole blocks (ws2_chunk_of, ../work_streaming2.cuh) and calls
 * issue_chunk(h_data, d_data, N, c, iters, s) for each chunk c in turn, chunk i in stream i % streams, then
 * waits for every stream. The starting version is work_streaming's, a chunk at a time: host memory from malloc,
 * copies by cudaMemcpy. Its results are right, because cudaMemcpy runs on the legacy default stream, which waits
 * for the blocking streams (cudaStreamCreate's) and they for it; in a green context it orders nothing, and the
 * program makes none (NO_GREEN_CONTEXT). But nothing overlaps: each copy returns only when it is done, and the
 * host queues the next chunk only then. ./exercises/work_streaming2 ends RESULT: FAIL (exercise not done: ...) until
 *  - the host array is pinned: cudaPointerGetAttributes says cudaMemoryTypeHost, and
 *  - the loop queues its work and returns: it is run once more with every stream held back by a host function
 *    until the loop has returned (work_streaming2.cuh, the gate); a copy that waits for the GPU holds the loop
 *    until the hold gives up, after 5 s (not checked under CUDA_LAUNCH_BLOCKING=1, where every launch waits).
 * Not caught: copies queued on stream 0 (cudaMemcpyAsync(..., 0)) from pinned memory return at once and come out
 * right, but the legacy default stream then makes every chunk wait for the one before: the gain line's "from the
 * overlap" factor shows it. Holding s[0] alone and asking s[1]'s chunk to finish meanwhile would catch it, and fail
 * right code wherever two streams share a hardware queue (CUDA_DEVICE_MAX_CONNECTIONS=1), so the program does not.
 */
// TODO(step 2): page-locked (pinned) host memory, which the copy engines read and write directly, so that a copy
// from or to it can be queued: cudaMallocHost((void **)h, bytes). Return its error code. Change h_data_free with
// it to cudaFreeHost: free() on pinned memory is an error, and can crash the program at exit
static cudaError_t h_data_alloc(double **h, size_t bytes) {
  *h = (double *)malloc(bytes);
  return *h != NULL ? cudaSuccess : cudaErrorMemoryAllocation;
}
static void h_data_free(double *h) { free(h); }

// chunk c in stream s: its doubles h_data[c.first .. c.first + c.count) copied in, the kernel on its blocks, the
// same doubles copied back
static void issue_chunk(double *h_data, double *d_data, int N, ws2_chunk c, int iters, cudaStream_t s) {
  size_t bytes = sizeof(double) * c.count;
  // TODO(step 2): queue both copies in stream s, as the kernel is, and let them return at once:
  // cudaMemcpyAsync(dst, src, bytes, kind, s)
  checkCudaErrors(cudaMemcpy(d_data + c.first, h_data + c.first, bytes, cudaMemcpyHostToDevice));
  do_work<<<c.nblocks, WS2_BLOCK, 0, s>>>(d_data, N, c.block0, iters);
  checkCudaErrors(cudaGetLastError()); // not getLastCudaError: its DEBUG=1 synchronise would wait for the gate
  checkCudaErrors(cudaMemcpy(h_data + c.first, d_data + c.first, bytes, cudaMemcpyDeviceToHost));
}
