/*
 * m4_regs.cuh -- match_ladder kernel 4: every count in a register, one atomic per word per block. Kernel 3 loads
 * each word from constant memory for every vector and tests its count for zero (a compare and a branch per word
 * per vector). Here the words are template-sized: M4_WORDS at most per pass over the text (grid.y passes for
 * more words), held in registers for the whole loop, with a count each; the 16 x NW compares per vector are
 * straight-line code, and each thread loads M4_VECS vectors before it compares, so that loads are in flight
 * while it works. Each compare is one instruction and its count one more (count_equal), and the windows are made
 * by multiplies (window_fma), not by the funnel shifts of kernel 3. At the end a warp adds its
 * 32 lanes' counts with shuffles, lane 0 adds that to the block's in shared memory, and the block adds its counts
 * to the global ones: the text's matches cost no atomics at all.
 */
#define M4_WORDS 8 // words per pass over the text: 8 counts and 8 words in registers (NW = 1..8 instantiated)
#ifndef M4_VECS
#define M4_VECS 2 // vectors loaded per thread before the compares
#endif

// count[j] += (x == w), as one compare and one increment under its predicate: `c += x == w` in C becomes a compare,
// an add into a spare register and a move back under the predicate, 3 instructions where 2 do (the SASS: ISETP,
// then @P VIADD)
__device__ __forceinline__ void count_equal(unsigned &count, unsigned x, unsigned w) {
  asm("{\n\t.reg .pred p;\n\tsetp.eq.u32 p, %1, %2;\n\t@p add.u32 %0, %0, 1;\n\t}" : "+r"(count) : "r"(x), "r"(w));
}

// The window (lo >> 8k) | (hi << (32 - 8k)), k = 1..3, with m = 2^(32 - 8k), as hi(lo * m) + hi * m: a multiply
// and a multiply-add, instructions meant for the FMA pipe, where windows16's funnel shift is an integer-pipe
// instruction beside every compare. On an H100 (sm_90) this measured faster than the shifts (docs/notes/prac9.md);
// the compiler emits LEA.HI and IMAD.SHL for it, and which pipe LEA.HI uses was not measured. The predicated
// adds are VIADD on sm_90 and IADD3 on sm_75 and sm_86 (the handout's kernel 4 says what that changes)
__device__ __forceinline__ unsigned window_fma(unsigned lo, unsigned hi, unsigned m) {
  unsigned r;
  asm("{\n\t.reg .u32 t;\n\tmul.lo.u32 t, %2, %3;\n\tmad.hi.u32 %0, %1, %3, t;\n\t}"
      : "=r"(r)
      : "r"(lo), "r"(hi), "r"(m));
  return r;
}

// one vector's 16 windows against the NW words
template <int NW>
__device__ __forceinline__ void count_vector(uint4 a, unsigned e, const unsigned (&w)[NW], unsigned (&c)[NW]) {
  const unsigned t[5] = {a.x, a.y, a.z, a.w, e};
  unsigned win[16];
#pragma unroll
  for (int i = 0; i < 4; i++) {
    win[4 * i] = t[i];
#pragma unroll
    for (int k = 1; k < 4; k++) win[4 * i + k] = window_fma(t[i], t[i + 1], 1u << (32 - 8 * k));
  }
#pragma unroll
  for (int k = 0; k < 16; k++)
#pragma unroll
    for (int j = 0; j < NW; j++) count_equal(c[j], win[k], w[j]);
}

template <int NW>
__global__ void __launch_bounds__(LADDER_THREADS)
    match_regs(const uint4 *__restrict__ text, ladder_plan p, int word0, unsigned *__restrict__ counts) {
  __shared__ unsigned s_count[NW];
  const int first = word0 + blockIdx.y * M4_WORDS; // this pass's words: first .. first + NW - 1
  if (threadIdx.x < NW) s_count[threadIdx.x] = 0;
  unsigned w[NW], c[NW];
#pragma unroll
  for (int j = 0; j < NW; j++) w[j] = c_words[first + j], c[j] = 0;
  const unsigned *t32 = (const unsigned *)text;
  // 32-bit indices: a text of at most 2^31 bytes has under 2^27 vectors, and a 64-bit compare and address are
  // two instructions each, on the same pipe as the compares
  const unsigned n = (unsigned)p.nfull, stride = gridDim.x * blockDim.x;
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  for (; v + (M4_VECS - 1) * stride < n; v += M4_VECS * stride) { // M4_VECS vectors, all loaded first
    uint4 a[M4_VECS];
    unsigned e[M4_VECS];
#pragma unroll
    for (int u = 0; u < M4_VECS; u++) a[u] = text[v + u * stride], e[u] = t32[4 * (v + u * stride) + 4];
#pragma unroll
    for (int u = 0; u < M4_VECS; u++) count_vector<NW>(a[u], e[u], w, c);
  }
  for (; v < n; v += stride) count_vector<NW>(text[v], t32[4 * v + 4], w, c); // the last few
#pragma unroll
  for (int j = 0; j < NW; j++) // the warp's sum of each count
#pragma unroll
    for (int d = 16; d > 0; d /= 2) c[j] += __shfl_xor_sync(0xffffffffu, c[j], d);
  __syncthreads(); // s_count is zeroed
  if (threadIdx.x % 32 == 0)
#pragma unroll
    for (int j = 0; j < NW; j++)
      if (c[j]) atomicAdd(&s_count[j], c[j]);
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) { // the tail vector: this pass's words, one position at a time
    for (size_t q = 16 * p.nfull; q < p.npos; q++) {
      const unsigned x = window_at(t32, q);
      for (int j = 0; j < NW; j++)
        if (x == w[j]) atomicAdd(&s_count[j], 1u);
    }
  }
  flush_counts(s_count, NW, counts + first);
}

// the words in passes of M4_WORDS (grid.y of them), then one pass for the rest (NW = nwords % M4_WORDS)
template <int NW>
static void launch_regs(const ladder_plan *p, int word0, int passes) {
  match_regs<NW><<<dim3(p->blocks[4], passes), LADDER_THREADS>>>(p->d_text, *p, word0, p->d_counts);
  getLastCudaError("match_regs execution failed");
}

static void run_regs(const ladder_plan *p) {
  const int full = p->nwords / M4_WORDS, rest = p->nwords % M4_WORDS, word0 = full * M4_WORDS;
  if (full > 0) launch_regs<M4_WORDS>(p, 0, full);
  switch (rest) {
  case 1:
    launch_regs<1>(p, word0, 1);
    break;
  case 2:
    launch_regs<2>(p, word0, 1);
    break;
  case 3:
    launch_regs<3>(p, word0, 1);
    break;
  case 4:
    launch_regs<4>(p, word0, 1);
    break;
  case 5:
    launch_regs<5>(p, word0, 1);
    break;
  case 6:
    launch_regs<6>(p, word0, 1);
    break;
  case 7:
    launch_regs<7>(p, word0, 1);
    break;
  }
  static_assert(M4_WORDS == 8, "run_regs instantiates NW = 1..7 for the last pass");
}
