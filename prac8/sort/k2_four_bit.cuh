/*
 * sort/k2_four_bit.cuh -- practical 8, step 8 (-kernel=2): radix_4bit, 8 passes of 4 bits over many blocks,
 * three kernels per pass: each block counts the 16 digits of its tile, one block scans the counts (in the order
 * radix4_hist_index, step 8b, puts them), and each block scatters its keys, ranked stably with
 * __match_any_sync. Keys only. The two placements, the step's exercise, are sort/radix4_ranks.cuh.
 */
#include "radix4_ranks.cuh" // (with -DEXERCISE the runner has already included exercises/radix4_ranks.cuh)
#include "sort_common.cuh"

// ---- step 8: many blocks, 4 bits per pass ---------------------------------------------------------

#define B4_THREADS 256
#define B4_ITEMS 16
#define B4_TILE (B4_THREADS * B4_ITEMS)
#define B4_WARPS (B4_THREADS / 32)

// each block counts the 16 digits of its tile, into hist[] where radix4_hist_index (step 8b) puts them: laid
// out so that one exclusive scan gives every (digit, block) the place of its first key
__global__ void radix4_count(const unsigned *keys, size_t n, int shift, unsigned *hist) {
  __shared__ unsigned s_count[16];
  if (threadIdx.x < 16) s_count[threadIdx.x] = 0;
  __syncthreads();
  size_t base = (size_t)blockIdx.x * B4_TILE;
  for (int r = 0; r < B4_ITEMS; r++) {
    size_t i = base + (size_t)r * B4_THREADS + threadIdx.x;
    if (i < n) atomicAdd(&s_count[(keys[i] >> shift) & 15u], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 16) hist[radix4_hist_index(threadIdx.x, blockIdx.x, gridDim.x)] = s_count[threadIdx.x];
}

// one block scans the m counts in place (exclusive), 4 per thread, 4096 per step, carrying the total across
#define SC_THREADS 1024
__global__ void __launch_bounds__(SC_THREADS) scan_counts(unsigned *c, size_t m) {
  __shared__ unsigned s_warp[32];
  __shared__ unsigned s_carry;
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  if (tid == 0) s_carry = 0;
  for (size_t base = 0; base < m; base += 4 * SC_THREADS) {
    unsigned x[4], sum = 0;
    for (int j = 0; j < 4; j++) {
      size_t i = base + 4 * (size_t)tid + j;
      x[j] = (i < m) ? c[i] : 0u;
      sum += x[j];
    }
    unsigned incl = warp_inclusive_scan(sum, lane);
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      unsigned w = s_warp[lane];
      s_warp[lane] = warp_inclusive_scan(w, lane) - w;
    }
    __syncthreads();
    unsigned run = s_carry + s_warp[warp] + incl - sum;
    for (int j = 0; j < 4; j++) {
      size_t i = base + 4 * (size_t)tid + j;
      if (i < m) c[i] = run;
      run += x[j];
    }
    __syncthreads(); // everyone has read s_carry and s_warp
    if (tid == SC_THREADS - 1) s_carry = run;
    __syncthreads();
  }
}

// each block places its keys: B4_ITEMS rounds of 256 keys in input order; within a round a key's place
// among the keys of its digit is (keys of that digit in earlier rounds) + (in earlier warps of this round)
// + (in earlier lanes of its warp: __match_any_sync gives the lanes with the same digit)
__global__ void radix4_scatter(const unsigned *keys, unsigned *out, size_t n, int shift, const unsigned *offsets) {
  __shared__ unsigned s_count[B4_WARPS][16]; // this round: keys of each digit in each warp
  __shared__ unsigned s_next[16];            // where the next key of each digit goes
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  if (tid < 16) s_next[tid] = offsets[radix4_hist_index(tid, blockIdx.x, gridDim.x)];
  size_t base = (size_t)blockIdx.x * B4_TILE;
  for (int r = 0; r < B4_ITEMS; r++) {
    size_t i = base + (size_t)r * B4_THREADS + tid;
    int valid = i < n;
    unsigned key = valid ? keys[i] : 0u;
    unsigned d = valid ? (key >> shift) & 15u : 16u; // 16: no key, a group of its own
    if (tid < B4_WARPS * 16) s_count[tid / 16][tid % 16] = 0;
    __syncthreads();
    unsigned group, rank = radix4_warp_rank(d, lane, &group); // my place among my warp's keys of digit d
    if (valid && rank == 0) s_count[warp][d] = group;         // the lowest lane of each group counts it
    __syncthreads();
    if (tid < 16) { // digit tid: exclusive offsets across the warps, from the digit's next place
      unsigned run = s_next[tid];
      for (int w = 0; w < B4_WARPS; w++) {
        unsigned c = s_count[w][tid];
        s_count[w][tid] = run;
        run += c;
      }
      s_next[tid] = run;
    }
    __syncthreads();
    if (valid) out[s_count[warp][d] + rank] = key;
    __syncthreads(); // s_count is cleared at the top of the next round
  }
}

static void run_4bit(void *arg) {
  sort_plan *p = (sort_plan *)arg;
  unsigned nb = (unsigned)((p->n + B4_TILE - 1) / B4_TILE);
  const unsigned *src = p->d_in;
  for (int pass = 0; pass < 8; pass++) { // in -> alt -> out -> alt -> ... -> out after 8 passes
    unsigned *dst = (pass % 2 == 0) ? p->d_alt : p->d_out;
    radix4_count<<<nb, B4_THREADS>>>(src, p->n, 4 * pass, p->d_hist4);
    getLastCudaError("radix4_count execution failed");
    scan_counts<<<1, SC_THREADS>>>(p->d_hist4, (size_t)16 * nb);
    getLastCudaError("scan_counts execution failed");
    radix4_scatter<<<nb, B4_THREADS>>>(src, dst, p->n, 4 * pass, p->d_hist4);
    getLastCudaError("radix4_scatter execution failed");
    src = dst;
  }
}

// the runner's method: unsigned keys alone, compared bit for bit; it reads d_in and ends in d_out
static const sort_method method_4bit = {"radix_4bit", 2, run_4bit, 0, NULL};
