/*
 * exercises/match_kernel.cuh -- practical 9, step 1, to write: the course's GPU design for counting 4-byte words.
 * (The finished file is ../match_kernel.cuh.) Int i of the text holds bytes 4i..4i+3, byte 4i + k in bits
 * 8k..8k+7; a word is one int packed the same way. The window at byte 4i + k (k = 1, 2, 3) is
 *   (t[i] >> 8k) | (t[i + 1] << (32 - 8k))
 * match_block below is one block's whole job; kernel 1 runs it once over the text, kernel 2 once per section.
 * Until the TODOs are written no count is stored, the counts keep their poison (-1), and
 *   make exercises/match && ./exercises/match
 * ends RESULT: FAIL (exercise not done: ...). Then try -kernel=1, -gen=4097, -gen=1000003 and -nwords=4096.
 */

// One block counts every byte position p with first <= p < end (first a multiple of 4) in the text's nints ints.
// Thread t owns words t, t + blockDim.x, ... (at most MATCH_SLOTS), and stores the count of word w in out[w].
__device__ void match_block(const unsigned *__restrict__ text, size_t nints, size_t first, size_t end,
                            const unsigned *__restrict__ words, int nwords, int *__restrict__ out) {
  // TODO(step 1): in shared memory, s_text[MATCH_CHUNK + 1] (a chunk of ints and a halo int, the next chunk's
  // first) and s_shift[3][MATCH_CHUNK] (s_shift[k - 1][i]: the window at byte 4i + k). In registers, my words
  // (words[tid + s * blockDim.x] for s < MATCH_SLOTS, where that is below nwords) and a count for each.
  // TODO(step 1): for base = first, first + 4 MATCH_CHUNK, ... < end (base is a byte position):
  //   - the chunk load: after a __syncthreads() (nobody still counts the last chunk), the block's threads
  //     share out s_text[i] = text[base / 4 + i] for i = 0..MATCH_CHUNK (0 where base / 4 + i >= nints);
  //   - the shifted copies: after a __syncthreads(), each thread one int per offset, from s_text[i] and
  //     s_text[i + 1];
  //   - the count loop: after a __syncthreads(), each thread counts its words in the windows of the block's
  //     positions: window k of int i (s_text, or s_shift[k - 1]) is position base + 4i + k, counted if < end.
  //   Every thread must take every turn of this loop: a barrier that some threads skip is undefined (a hang or
  //   wrong counts; compute-sanitizer --tool synccheck names it).
  // TODO(step 1): the block's store: out[w] = the count of word w, for each word this thread owns.
  (void)text, (void)nints, (void)first, (void)end, (void)words, (void)nwords, (void)out;
}

// kernel 1: one block, the whole text
__global__ void __launch_bounds__(MATCH_THREADS_MAX)
    match_one_block(const unsigned *__restrict__ text, size_t nints, size_t npos, const unsigned *__restrict__ words,
                    int nwords, int *__restrict__ counts) {
  match_block(text, nints, 0, npos, words, nwords, counts);
}

// kernel 2: block b counts the positions of section b (whole chunks); its counts go to row b of partial[]
__global__ void __launch_bounds__(MATCH_THREADS_MAX)
    match_blocks(const unsigned *__restrict__ text, size_t nints, size_t npos, size_t section,
                 const unsigned *__restrict__ words, int nwords, int *__restrict__ partial) {
  const size_t first = (size_t)blockIdx.x * section;
  const size_t end = first + section < npos ? first + section : npos;
  match_block(text, nints, first, end, words, nwords, partial + (size_t)blockIdx.x * nwords);
}

// kernel 2's sum: one thread per word adds up its column of partial[]
__global__ void match_sum(const int *__restrict__ partial, int nblocks, int nwords, int *__restrict__ counts) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= nwords) return;
  int c = 0;
  for (int b = 0; b < nblocks; b++) c += partial[(size_t)b * nwords + w];
  counts[w] = c;
}
