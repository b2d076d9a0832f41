/*
 * m3_funnel.cuh -- match_ladder kernel 3: 16 bytes per thread. Kernel 2 reads each int of the text four times (and
 * the next one four times), a load per position. Here a thread loads a 16-byte vector in one instruction, and
 * the int after it, and makes its 16 windows in registers with __funnelshift_r (windows16): 12 shifts for 16
 * positions. Then for each word (from constant memory) it counts its windows that match, in a register, and adds
 * that count to the block's in shared memory when it is not zero: almost never, so the atomics cost nothing.
 * The vector after the fast loop's (its positions run past the text) is counted one position at a time.
 * Built with -DEXERCISE (make exercises), the windows are the learner's: exercises/m3_windows.cuh.
 */
#ifdef EXERCISE
#include "../exercises/m3_windows.cuh"
#else
__device__ __forceinline__ void funnel_windows(uint4 a, unsigned e, unsigned win[16]) { windows16(a, e, win); }
#endif
__global__ void __launch_bounds__(LADDER_THREADS)
    match_funnel(const uint4 *__restrict__ text, ladder_plan p, unsigned *__restrict__ counts) {
  extern __shared__ unsigned s_count[]; // nwords counts
  for (int j = threadIdx.x; j < p.nwords; j += blockDim.x) s_count[j] = 0;
  __syncthreads();
  const unsigned *t32 = (const unsigned *)text;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t v = (size_t)blockIdx.x * blockDim.x + threadIdx.x; v < p.nfull; v += stride) {
    unsigned win[16];
    funnel_windows(text[v], t32[4 * v + 4], win); // the int after the vector: the next thread's first, from L1
    for (int j = 0; j < p.nwords; j++) {
      const unsigned w = c_words[j];
      unsigned c = 0;
#pragma unroll
      for (int k = 0; k < 16; k++) c += win[k] == w;
      if (c) atomicAdd(&s_count[j], c);
    }
  }
  if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) count_tail(text, p, s_count);
  flush_counts(s_count, p.nwords, counts);
}

static void run_funnel(const ladder_plan *p) {
  match_funnel<<<p->blocks[3], LADDER_THREADS, sizeof(unsigned) * p->nwords>>>(p->d_text, *p, p->d_counts);
  getLastCudaError("match_funnel execution failed");
}
