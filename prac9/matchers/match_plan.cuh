/*
 * match_plan.cuh -- what every kernel of match_ladder shares: the text on the GPU, the words in constant memory,
 * the counts, the persistent grid, and the last store of a block's counts (one atomic per word per block).
 *
 * The text is read as 16-byte vectors (uint4): vector v is bytes 16v..16v+15, ints 4v..4v+3 (a GPU is
 * little-endian: byte 4i + k is bits 8k..8k+7 of int i, as in match_kernel.cuh). The buffer has one vector more
 * than the text needs, zeros past the text's end, so that the int after any int of the text can be read.
 * Zeros are not a word that cannot match (a word from a binary file may hold zero bytes), so no kernel counts a
 * position past npos = length - 3: the vectors with every position below npos (nfull of them) go through the
 * fast loop, the one vector after them (if any) through a loop that checks each position.
 */
#ifndef PRAC9_MATCH_PLAN_CUH
#define PRAC9_MATCH_PLAN_CUH

#define LADDER_WORDS_MAX 4096 // as match's: 16 KB of constant memory, under its 64 KB
#define LADDER_THREADS 256    // threads per block of kernels 2 to 5 (a whole number of warps; see match_ladder.cu)

__constant__ unsigned c_words[LADDER_WORDS_MAX]; // every word, packed as match_pack does; read by every thread

typedef struct {
  const uint4 *d_text;     // the text: nvec + 1 vectors, zeros past its end
  size_t length, npos;     // bytes, and positions a window can start at (length - 3, or 0)
  size_t nfull;            // vectors whose 16 positions are all below npos
  int nwords;              // words, each in c_words[] (kernels 2-4) or the hash table (kernel 5)
  const unsigned *d_words; // the words again, in global memory: the course's step 1 reads them there
  unsigned *d_counts;      // nwords counts, zeroed by each run (kernels 2-5 add to them)
  int blocks[6];           // kernel k's blocks: as many as are resident on the GPU at once
  unsigned *d_sink;        // kernel 0's: one int per block, so that its reads cannot be left out
  void *step1, *step5;     // the course's step (its partial counts) and the hash table's state
} ladder_plan;

// 16 windows of 4 bytes: win[k] is the text at byte 16v + k, from the vector's ints a.x..a.w and the int after
// them, e. __funnelshift_r(lo, hi, s) is the low 32 bits of (hi:lo) >> s: the course's (lo >> 8k) | (hi << (32 - 8k))
// in one instruction, right for k = 0 too (a shift by 32 is undefined in C)
__device__ __forceinline__ void windows16(uint4 a, unsigned e, unsigned win[16]) {
  const unsigned t[5] = {a.x, a.y, a.z, a.w, e};
#pragma unroll
  for (int i = 0; i < 4; i++) {
    win[4 * i] = t[i];
#pragma unroll
    for (int k = 1; k < 4; k++) win[4 * i + k] = __funnelshift_r(t[i], t[i + 1], 8 * k);
  }
}

// the window at byte position p (any p below npos): one int, or two and a funnel shift
__device__ __forceinline__ unsigned window_at(const unsigned *__restrict__ t32, size_t p) {
  return __funnelshift_r(t32[p / 4], t32[p / 4 + 1], 8 * (unsigned)(p % 4));
}

// a block's counts s_count[0..n) added to counts[], one atomicAdd per word that has any; zero counts stay put
__device__ __forceinline__ void flush_counts(const unsigned *s_count, int n, unsigned *__restrict__ counts) {
  __syncthreads(); // every thread's last count is in
  for (int j = threadIdx.x; j < n; j += blockDim.x)
    if (s_count[j]) atomicAdd(&counts[j], s_count[j]);
}

// the vector after the fast loop's: its positions below npos one at a time (one thread; at most 15)
__device__ __forceinline__ void count_tail(const uint4 *__restrict__ text, const ladder_plan p, unsigned *s_count) {
  const unsigned *t32 = (const unsigned *)text;
  for (size_t q = 16 * p.nfull; q < p.npos; q++) {
    const unsigned x = window_at(t32, q);
    for (int j = 0; j < p.nwords; j++)
      if (x == c_words[j]) atomicAdd(&s_count[j], 1u);
  }
}

#endif
