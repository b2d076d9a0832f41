/*
 * m2_position.cuh -- match_ladder kernel 2: turn the course's design around. One thread per text position, not
 * per word: the text is read once, straight from global memory (no chunk, no shifted copies, no barriers), and
 * every thread compares its one window with every word. The words are the same for every thread, so they live
 * in constant memory (c_words): a warp reading c_words[j] together gets it in one broadcast. A warp counts its
 * 32 windows' matches of word j with one vote: __ballot_sync gives a bit per lane, __popc counts them, and lane 0
 * adds that to the block's count in shared memory only when it is not zero; the block adds its counts to the
 * global ones once (flush_counts). The loop is the warp's, not the thread's, so that all 32 lanes reach every
 * ballot (a lane past the text votes no).
 */
__global__ void __launch_bounds__(LADDER_THREADS)
    match_position(const uint4 *__restrict__ text, ladder_plan p, unsigned *__restrict__ counts) {
  extern __shared__ unsigned s_count[]; // nwords counts
  for (int j = threadIdx.x; j < p.nwords; j += blockDim.x) s_count[j] = 0;
  __syncthreads();
  const unsigned *t32 = (const unsigned *)text;
  const int lane = threadIdx.x % 32;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t base = (size_t)blockIdx.x * blockDim.x + threadIdx.x - lane; base < p.npos; base += stride) {
    const size_t q = base + lane; // my position
    const bool mine = q < p.npos;
    const unsigned x = mine ? window_at(t32, q) : 0u;
    for (int j = 0; j < p.nwords; j++) {
      const unsigned votes = __ballot_sync(0xffffffffu, mine && x == c_words[j]);
      if (lane == 0 && votes) atomicAdd(&s_count[j], (unsigned)__popc(votes));
    }
  }
  flush_counts(s_count, p.nwords, counts);
}

static void run_position(const ladder_plan *p) {
  match_position<<<p->blocks[2], LADDER_THREADS, sizeof(unsigned) * p->nwords>>>(p->d_text, *p, p->d_counts);
  getLastCudaError("match_position execution failed");
}
