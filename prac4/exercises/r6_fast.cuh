/*
 * exercises/r6_fast.cuh -- step 6, the fast version: write the last-block-done finish of its kernel.
 *
 * make exercises builds kernels/r6_fast.cuh with this file's reduction_fast in place of its own. The helper
 * defined above the include there is yours to call: block_sum_fast(v) returns the block's sum of v in EVERY
 * thread (shuffles within each warp, shared memory between warps), and may be called twice in one kernel.
 *   make exercises && ./exercises/reduction_ladder -step=6 -n=100003
 * ends RESULT: FAIL (exercise not done: ...) until the sum matches the gold: nothing writes the result yet.
 *
 * What the given part does (handout step 6, ideas 1-3):
 *   - grid-stride: only as many blocks as fit on the GPU at once (the runner asks the occupancy API); each
 *     thread walks the array in steps of the whole grid, so no block waits for a slot;
 *   - 16-byte loads: the array read as float4, four floats per load;
 *   - loads in flight: each thread issues UNROLL independent float4 loads before it adds any of them, so one
 *     memory latency is paid per UNROLL loads, not per load.
 *
 * What you write (idea 4), the whole sum in one launch. No block can wait for another, but the last block
 * to finish can add everyone's partial sums, if it can tell that it is last and that the other sums are in
 * memory by then:
 *   - each block publishes its sum in its own slot of g_partial, then takes a ticket from the counter
 *     g_count: atomicAdd returns the count before its own addition, so one block, and only one, draws
 *     gridDim.x - 1, and that block knows every other block has taken its ticket;
 *   - the publish and the ticket go to different addresses, which other SMs may see in either order, and the
 *     last block's reads of the sums must come after its ticket and not from a stale copy. The tools are
 *     __threadfence() and __ldcg(); concepts.md, "The flag pattern", shows where each goes. What breaks
 *     without each is the handout's question 5: answer it in your own words once this passes;
 *   - one thread takes the ticket, but the whole block must learn whether it is last (shared memory, and a
 *     barrier that every thread reaches);
 *   - the last block writes the result (written, not added to: nothing to zero) and leaves the counter ready
 *     for the next launch.
 */

// thread t of the grid takes float4 number t, t + S, t + 2S, ... (S = the grid's threads), UNROLL at a time
template <int UNROLL>
__global__ void reduction_fast(float *g_odata, float *g_partial, unsigned int *g_count,
                               const float4 *__restrict__ in4, size_t n4, const float *__restrict__ tail,
                               int ntail) {
  size_t S = (size_t)gridDim.x * blockDim.x;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (; i + (UNROLL - 1) * S < n4; i += UNROLL * S) {
    float4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; u++) v[u] = in4[i + u * S]; // all UNROLL loads issued before any add
#pragma unroll
    for (int u = 0; u < UNROLL; u++) sum += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < n4; i += S) {
    float4 v = in4[i];
    sum += (v.x + v.y) + (v.z + v.w);
  }
  if (blockIdx.x == 0 && threadIdx.x < ntail) sum += tail[threadIdx.x]; // the last n % 4 elements
  sum = block_sum_fast(sum);

  // TODO(step 6): the last block done (header): publish, fence, ticket; then, in the last block only, a
  // fence, the partial sums added, the result written and the counter reset.
  (void)sum;
  (void)g_odata;
  (void)g_partial;
  (void)g_count;
}
