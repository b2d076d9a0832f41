/*
 * exercises/capture_chain.cuh -- practical 12, step 3, to write: the capture of the dependent chain as a CUDA graph
 * (the solution is capture_chain in ../graphs.cu). enqueue_chain(d_x, n, off, s) launches the chain's n kernels
 * into stream s, kernel k reading the slot kernel k-1 wrote; graphs.cu instantiates the graph this returns once
 * and then launches it whole, against the same n launches made one by one.
 * The starting version launches the kernels straight into the stream and returns no graph. Its kernels run and
 * their results are right, but nothing was recorded: graphs.cu counts the graph's nodes (cudaGraphGetNodes), and
 * ./exercises/graphs ends RESULT: FAIL (exercise not done: no graph was captured: the dependent launches of 1
 * kernel gave a graph of 0 nodes ...) until the n launches come back as a graph of n nodes in a chain.
 */
static cudaGraph_t capture_chain(long long *d_x, int n, long long off, cudaStream_t s) {
  cudaGraph_t graph = NULL;
  // TODO(step 3): put s in capture mode first (cudaStreamBeginCapture, cudaStreamCaptureModeThreadLocal), so that the
  // launches below are recorded as the graph's nodes instead of being run; then end the capture
  // (cudaStreamEndCapture), which hands back the graph. Each call wrapped in checkCudaErrors. While s is being
  // captured, what happens to a kernel launched into it, and why may the program not synchronise it then?
  enqueue_chain(d_x, n, off, s);
  return graph;
}
