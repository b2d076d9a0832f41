/*
 * match_kernel.cuh -- practical 9, step 1: the course's GPU design for counting 4-byte words in a text (the
 * file the course's match.cu names in its line `// #include <match_kernel.cu>`). The starting file, with the
 * counting cut out, is exercises/match_kernel.cuh.
 *
 * The text is read as unsigned ints: byte 4i + k of the text is bits 8k..8k+7 of int i (a GPU is
 * little-endian), and a word is one int packed the same way (match_pack). The 4 bytes at byte position 4i + k,
 * k = 1, 2 or 3, are the top 4 - k bytes of int i and the low k bytes of int i + 1:
 *   (t[i] >> 8k) | (t[i + 1] << (32 - 8k))
 * So one compare of two ints tests a match, and a chunk of ints with its three shifted copies holds every
 * position of the chunk. The course's steps: (b) each thread owns a word, (c) a chunk of text in shared
 * memory, (d) its three shifted copies, (e) a loop over the chunk, (f) the next chunk, (g) the block stores
 * its counts. Kernel 1 is one block over the whole text; kernel 2 gives each block a section of it.
 * match.cu sets the sizes: MATCH_CHUNK (ints per chunk), MATCH_SLOTS (words per thread at most), MATCH_THREADS_MAX.
 */

// One block counts every byte position p with first <= p < end (first a multiple of 4, end at most the number
// of positions, length - 3) in the text's nints ints. Words: thread t owns words t, t + blockDim.x, ... (at
// most MATCH_SLOTS of them), and stores the count of word w in out[w].
__device__ void match_block(const unsigned *__restrict__ text, size_t nints, size_t first, size_t end,
                            const unsigned *__restrict__ words, int nwords, int *__restrict__ out) {
  __shared__ unsigned s_text[MATCH_CHUNK + 1]; // step (c): the chunk, and a halo int: the next chunk's first
  __shared__ unsigned s_shift[3][MATCH_CHUNK]; // step (d): s_shift[k - 1][i] is the window at byte 4i + k
  const int tid = threadIdx.x, nthreads = blockDim.x;

  // step (b): my words, and their counts so far, in registers (the loops over s are unrolled)
  unsigned word[MATCH_SLOTS];
  int count[MATCH_SLOTS];
#pragma unroll
  for (int s = 0; s < MATCH_SLOTS; s++) {
    word[s] = tid + s * nthreads < nwords ? words[tid + s * nthreads] : 0u;
    count[s] = 0;
  }

  // step (f): chunk after chunk; base is the chunk's first byte position, a multiple of 4. Every thread takes
  // every turn of this loop (first and end are the block's), so every thread reaches every barrier
  for (size_t base = first; base < end; base += 4 * MATCH_CHUNK) {
    const size_t i0 = base / 4;
    __syncthreads(); // everybody has finished counting the previous chunk before it is overwritten
    // step (c): MATCH_CHUNK + 1 ints, the threads sharing them out; past the text's end, 0 (never counted)
    for (int i = tid; i <= MATCH_CHUNK; i += nthreads) s_text[i] = i0 + i < nints ? text[i0 + i] : 0u;
    __syncthreads(); // the chunk and its halo are in
    // step (d): each thread one int per offset; int i + 1 is the halo for i = MATCH_CHUNK - 1
    for (int i = tid; i < MATCH_CHUNK; i += nthreads) {
      const unsigned a = s_text[i], b = s_text[i + 1];
      s_shift[0][i] = (a >> 8) | (b << 24);
      s_shift[1][i] = (a >> 16) | (b << 16);
      s_shift[2][i] = (a >> 24) | (b << 8);
    }
    __syncthreads(); // the shifted copies are in

    // step (e): this chunk's positions that are the block's, npos of them: nfull whole ints, then the first
    // `rest` offsets of int nfull. A warp's threads read the same int at once: one broadcast, no bank conflict
    const size_t left = end - base;
    const int npos = left < (size_t)(4 * MATCH_CHUNK) ? (int)left : 4 * MATCH_CHUNK;
    const int nfull = npos / 4, rest = npos % 4;
#pragma unroll
    for (int s = 0; s < MATCH_SLOTS; s++) {
      if (tid + s * nthreads >= nwords) continue; // no word in this slot
      const unsigned w = word[s];
      int c = 0;
      for (int i = 0; i < nfull; i++)
        c += (s_text[i] == w) + (s_shift[0][i] == w) + (s_shift[1][i] == w) + (s_shift[2][i] == w);
      if (rest > 0) c += s_text[nfull] == w;
      if (rest > 1) c += s_shift[0][nfull] == w;
      if (rest > 2) c += s_shift[1][nfull] == w;
      count[s] += c;
    }
  }

  // step (g): the block's counts, one store per word
#pragma unroll
  for (int s = 0; s < MATCH_SLOTS; s++)
    if (tid + s * nthreads < nwords) out[tid + s * nthreads] = count[s];
}

// kernel 1: one block, the whole text (the course's "first for a single thread block")
__global__ void __launch_bounds__(MATCH_THREADS_MAX)
    match_one_block(const unsigned *__restrict__ text, size_t nints, size_t npos, const unsigned *__restrict__ words,
                    int nwords, int *__restrict__ counts) {
  match_block(text, nints, 0, npos, words, nwords, counts);
}

// kernel 2: block b counts the positions of section b, [b section, (b + 1) section), section a whole number of
// chunks. Its last chunk's halo int is the next section's first: a word straddling the boundary is read by both
// blocks and counted by the one its first byte is in, once. Each block stores its counts in its own row of
// partial[], nwords ints a row.
__global__ void __launch_bounds__(MATCH_THREADS_MAX)
    match_blocks(const unsigned *__restrict__ text, size_t nints, size_t npos, size_t section,
                 const unsigned *__restrict__ words, int nwords, int *__restrict__ partial) {
  const size_t first = (size_t)blockIdx.x * section;
  const size_t end = first + section < npos ? first + section : npos;
  match_block(text, nints, first, end, words, nwords, partial + (size_t)blockIdx.x * nwords);
}

// kernel 2's sum: one thread per word adds up its column of partial[] (consecutive threads, consecutive words).
// A second kernel rather than an atomicAdd by each block into counts[]: the block stores its counts in a global
// array, as the course's step (g) says, and every row of partial[] and every count starts poisoned (-1) and must be
// written, so a block that stores nothing fails the check. atomicAdd would need counts[] zeroed before the launch,
// and a zero is a right answer for most words: a lost block could pass. The cost: one more launch, and nblocks x
// nwords ints written and read again, next to nothing beside the text.
__global__ void match_sum(const int *__restrict__ partial, int nblocks, int nwords, int *__restrict__ counts) {
  const int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= nwords) return;
  int c = 0;
  for (int b = 0; b < nblocks; b++) c += partial[(size_t)b * nwords + w];
  counts[w] = c;
}
