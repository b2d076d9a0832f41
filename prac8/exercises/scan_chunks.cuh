/*
 * exercises/scan_chunks.cuh -- practical 8, step 2b: scan a row longer than the block, in chunks of CHUNK.
 *
 * scan_chunks below scans each chunk of its row in shared memory, exactly as step 1's kernel scans its block,
 * but every chunk starts again from 0: only the first CHUNK elements of each row come out right. Fill in the
 * TODO(step 2b)s: a running total (the carry) of the earlier chunks, added to every output and brought up to
 * date at the end of each chunk. Then
 *   make exercises/scan_chunks && ./exercises/scan_chunks
 * ends RESULT: PASS (until then RESULT: FAIL (exercise not done: ...)). The finished file is ../scan_chunks.cuh.
 */
#define CHUNK 128 // the course's chunk: threads per block, and elements per chunk

__global__ void __launch_bounds__(CHUNK) scan_chunks(float *g_odata, const float *g_idata, int n) {
  __shared__ float temp[CHUNK];
  int tid = threadIdx.x;
  const float *in = g_idata + (size_t)blockIdx.x * n; // this block's row
  float *out = g_odata + (size_t)blockIdx.x * n;
  // TODO(step 2b): a register that holds the sum of every element of the row before this chunk

  for (int base = 0; base < n; base += CHUNK) {
    int i = base + tid;
    temp[tid] = (i < n) ? in[i] : 0.0f; // past the row's end: 0, which changes no sum

    // inclusive scan of the chunk: after the step with offset d, temp[tid] is the sum of up to 2d elements
    for (int d = 1; d < CHUNK; d = 2 * d) {
      __syncthreads(); // everybody has written the previous step
      float t = temp[tid];
      if (tid >= d) t += temp[tid - d];
      __syncthreads(); // everybody has read before anybody overwrites
      temp[tid] = t;
    }
    __syncthreads();

    // exclusive: the inclusive sum of my left neighbour, offset by the earlier chunks
    if (i < n) out[i] = (tid > 0) ? temp[tid - 1] : 0.0f; // TODO(step 2b): offset by the earlier chunks
    // TODO(step 2b): add this chunk's total (which thread's temp holds it?) for the next chunk
    __syncthreads(); // everybody has read temp before the next chunk writes it
  }
}
