/*
 * scan_chunks.cuh -- practical 8, step 2b: scans longer than a block, in one block, in chunks of CHUNK.
 *
 * One block scans one whole row of n elements (the course's "one block per independent scan"), CHUNK
 * elements at a time: the chunk is scanned in shared memory as step 1's kernel scans its block (Hillis and
 * Steele, two __syncthreads() per step), and every element of it is offset by the carry, the total of all
 * the earlier chunks of the row. Each thread keeps its own copy of the carry in a register and adds the
 * chunk's total, temp[CHUNK - 1], at the end of each chunk; a last __syncthreads() keeps the next chunk from
 * overwriting temp while a slower thread still reads it. The exercise is this file with the carry left
 * out: exercises/scan_chunks.cuh.
 */
#define CHUNK 128 // the course's chunk: threads per block, and elements per chunk

__global__ void __launch_bounds__(CHUNK) scan_chunks(float *g_odata, const float *g_idata, int n) {
  __shared__ float temp[CHUNK];
  int tid = threadIdx.x;
  const float *in = g_idata + (size_t)blockIdx.x * n; // this block's row
  float *out = g_odata + (size_t)blockIdx.x * n;
  float carry = 0.0f; // the sum of every element of the row before this chunk

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
    if (i < n) out[i] = carry + ((tid > 0) ? temp[tid - 1] : 0.0f);
    carry += temp[CHUNK - 1]; // this chunk's total, for the next chunk
    __syncthreads();          // everybody has read temp before the next chunk writes it
  }
}
