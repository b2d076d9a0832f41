/*
 * sort/k1_one_bit.cuh -- practical 8, step 7 (-kernel=1): radix_1bit, one block of 1024 threads, 32 passes of
 * one bit. A pass counts the zeros, then walks the array 1024 keys at a time: __ballot_sync and __popc rank
 * each key among the zeros (or ones) of its warp, one warp scans the warp counts, and every key goes straight
 * to its place. Keys only, at most MAX_N_1BIT = 2^22 of them (one block is slow).
 */
#include "sort_common.cuh"

#define MAX_N_1BIT (1LL << 22)

// ---- step 7: one block, one bit per pass ----------------------------------------------------------

#define B1_THREADS 1024

__global__ void __launch_bounds__(B1_THREADS) radix_1bit(unsigned *keys, unsigned *tmp, size_t n) {
  __shared__ unsigned s_warp[32];
  __shared__ unsigned s_total;
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  for (int bit = 0; bit < 32; bit++) {
    const unsigned *src = (bit % 2 == 0) ? keys : tmp; // 32 passes: the result ends where it began
    unsigned *dst = (bit % 2 == 0) ? tmp : keys;

    // how many keys have a 0 here: the ones start after them
    unsigned count = 0;
    for (size_t i = tid; i < n; i += B1_THREADS) count += ((src[i] >> bit) & 1u) == 0;
    for (int d = 16; d > 0; d /= 2) count += __shfl_xor_sync(FULL_MASK, count, d);
    if (tid == 0) s_total = 0;
    __syncthreads();
    if (lane == 0) atomicAdd(&s_total, count);
    __syncthreads();
    size_t zeros_total = s_total, zeros_before = 0, ones_before = 0;

    // the keys in order, 1024 at a time: each thread's rank among the zeros before it in the chunk
    for (size_t base = 0; base < n; base += B1_THREADS) {
      size_t i = base + tid;
      int valid = i < n;
      unsigned key = valid ? src[i] : 0u;
      int zero = valid && ((key >> bit) & 1u) == 0;
      unsigned m = __ballot_sync(FULL_MASK, zero);
      if (lane == 0) s_warp[warp] = __popc(m);
      __syncthreads();
      if (warp == 0) { // exclusive scan of the 32 warp counts
        unsigned c = s_warp[lane], incl = warp_inclusive_scan(c, lane);
        s_warp[lane] = incl - c;
        if (lane == 31) s_total = incl; // the chunk's zeros
      }
      __syncthreads();
      unsigned zeros_left = s_warp[warp] + __popc(m & lanemask_lt(lane)); // zeros before me in the chunk
      if (zero)
        dst[zeros_before + zeros_left] = key;
      else if (valid)
        dst[zeros_total + ones_before + (tid - zeros_left)] = key;
      size_t chunk = (n - base < B1_THREADS) ? n - base : B1_THREADS;
      zeros_before += s_total;
      ones_before += chunk - s_total;
      __syncthreads(); // s_warp and s_total are rewritten by the next chunk
    }
    __syncthreads(); // this pass's writes are seen by the whole block before the next pass reads them
  }
}

static void run_1bit(void *arg) {
  sort_plan *p = (sort_plan *)arg;
  checkCudaErrors(cudaMemcpyAsync(p->d_out, p->d_in, p->n * 4, cudaMemcpyDeviceToDevice)); // sorts in place
  radix_1bit<<<1, B1_THREADS>>>(p->d_out, p->d_alt, p->n);
  getLastCudaError("radix_1bit execution failed");
}

// the runner's method; its keys are compared bit for bit (-0.0 and +0.0 apart). Its copy in place is not
// subtracted: -bench does not time it (one block is far too slow)
static const sort_method method_1bit = {"radix_1bit", 1, run_1bit, 0, NULL};
