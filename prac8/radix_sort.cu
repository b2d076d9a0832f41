/*
 * radix_sort.cu -- practical 8, steps 7 to 9: radix sort, from one bit a pass in one block to 8 bits a pass
 * with one kernel a pass (the approach of CUB's Onesweep), and CUB and Thrust beside it on the same keys.
 *
 * A radix sort orders keys one digit at a time, least significant first. Each pass must be stable (keys
 * with equal digits keep their order), so that the order the earlier passes made survives among them.
 *   -kernel=1  radix_1bit (step 7): one block of 1024 threads, 32 passes of one bit. A pass counts the
 *              zeros, then walks the array 1024 keys at a time: __ballot_sync and __popc rank each key among
 *              the zeros (or ones) of its warp, one warp scans the warp counts, and every key goes straight
 *              to its place. Keys only, at most 2^22 of them (one block is slow).
 *   -kernel=2  radix_4bit (step 8): 8 passes of 4 bits over many blocks, three kernels a pass: each block
 *              counts the 16 digits of its tile, one block scans the counts (digit-major: all of digit 0's
 *              counts, then digit 1's, ...), and each block scatters its keys, ranked stably with
 *              __match_any_sync. Keys only.
 *   -kernel=3  onesweep (step 9): one histogram kernel counts all four 8-bit digits of every key in a single
 *              read and scans them (where each digit's keys start), then one kernel a pass: a block takes
 *              its tile from an atomic ticket, counts its digits in warp-private histograms, publishes its
 *              256 digit counts at once, ranks its keys (8 ballots find the lanes with equal digits) into a
 *              tile sorted in shared memory, and only then looks back, digit by digit, for the counts of the
 *              tiles before it (the chained scan of scan_blocks, 256 of them side by side), as CUB's own
 *              Onesweep orders it; then it writes each digit's run of keys contiguously. -float sorts
 *              floats (the sign-flip bijection on the way in and out), -pairs carries a 32-bit value with
 *              each key.
 *   -kernel=0  cub::DeviceRadixSort (SortKeys, or SortPairs with -pairs); -kernel=4 thrust::sort (or
 *              sort_by_key), each with its temporary storage allocated once.
 * Default: every kernel that applies. Each result is checked against radix_sort_gold (a stable CPU radix
 * sort, itself checked against qsort by tests/test_prac8.c); -dist= picks the adversarial input.
 *   nvcc -O3 -arch=sm_90 -I../common radix_sort.cu prac8_gold.c -o radix_sort
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <new>
#include <stdexcept>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac8_gold.h"

// CUB's own Onesweep kernel for float key-value pairs spills 8 bytes on sm_90 (CCCL 3.0): not this file's code
// ptxas-spills-expected: DeviceRadixSortOnesweepKernel

#define MAX_N (1LL << 29)
#define MAX_N_1BIT (1LL << 22)
#define SPIN_LIMIT (1 << 24) // a look-back waiting this long has met a bug: report it, do not hang
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ unsigned lanemask_lt(int lane) { return (1u << lane) - 1u; }

// ---- step 7: one block, one bit a pass ----------------------------------------------------------

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
        unsigned c = s_warp[lane], incl = c;
        for (int d = 1; d < 32; d *= 2) {
          unsigned t = __shfl_up_sync(FULL_MASK, incl, d);
          if (lane >= d) incl += t;
        }
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

// ---- step 8: many blocks, 4 bits a pass ---------------------------------------------------------

#define B4_THREADS 256
#define B4_ITEMS 16
#define B4_TILE (B4_THREADS * B4_ITEMS)
#define B4_WARPS (B4_THREADS / 32)

// each block counts the 16 digits of its tile: hist[d * nb + b], digit-major, so that one exclusive scan
// gives every (digit, block) the place of its first key
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
  if (threadIdx.x < 16) hist[(size_t)threadIdx.x * gridDim.x + blockIdx.x] = s_count[threadIdx.x];
}

// one block scans the m counts in place (exclusive), 4 a thread, 4096 a step, carrying the total across
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
    unsigned incl = sum;
    for (int d = 1; d < 32; d *= 2) {
      unsigned t = __shfl_up_sync(FULL_MASK, incl, d);
      if (lane >= d) incl += t;
    }
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    if (warp == 0) {
      unsigned w = s_warp[lane], wi = w;
      for (int d = 1; d < 32; d *= 2) {
        unsigned t = __shfl_up_sync(FULL_MASK, wi, d);
        if (lane >= d) wi += t;
      }
      s_warp[lane] = wi - w;
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
  if (tid < 16) s_next[tid] = offsets[(size_t)tid * gridDim.x + blockIdx.x];
  size_t base = (size_t)blockIdx.x * B4_TILE;
  for (int r = 0; r < B4_ITEMS; r++) {
    size_t i = base + (size_t)r * B4_THREADS + tid;
    int valid = i < n;
    unsigned key = valid ? keys[i] : 0u;
    unsigned d = valid ? (key >> shift) & 15u : 16u; // 16: no key, a group of its own
    if (tid < B4_WARPS * 16) s_count[tid / 16][tid % 16] = 0;
    __syncthreads();
    unsigned peers = __match_any_sync(FULL_MASK, d);
    unsigned rank = __popc(peers & lanemask_lt(lane));
    if (valid && rank == 0) s_count[warp][d] = __popc(peers); // the lowest lane of each group counts it
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

// ---- step 9: 8 bits a pass, one kernel a pass (Onesweep) -----------------------------------------

#ifndef OS_THREADS
#define OS_THREADS 384 // threads 0-255 each own one 8-bit digit for the look-back; the rest only rank and move keys
#endif
#ifndef OS_ITEMS
#define OS_ITEMS 16       // keys a thread: 6144 a tile
#endif
#ifndef OS_ITEMS_PAIRS
#define OS_ITEMS_PAIRS 23 // with values: 8832 a tile
#endif
#ifndef OS_MATCH
#define OS_MATCH 1     // 1: a warp finds equal digits with 8 ballots; 0: with __match_any_sync
#endif
// Blocks an SM that ptxas must leave registers for (__launch_bounds__): as many as the SM's threads and shared
// memory allow, at most 4 for keys (40 registers a thread) and 2 with values (80). Measured on an H100 at
// 2^28 keys: for keys, 4 blocks of 384 x 16 beat 3 by 6 %, 2 of 256 (the most 88 registers allow) by 25 %, and
// tiles of 18, 20 or 23 keys a thread by 3-6 %; with values, 2 blocks of 384 x 23 (CUB's own shape on sm_90)
// beat 3 of 384 x 16 by 11 %: a pair moves twice the bytes, and the bigger tile halves the look-backs and
// doubles the length of each digit's run that a block writes. The limits per SM by compute capability (CUDA
// C++ Programming Guide, "Compute Capabilities"): threads 1024 on 7.5, 1536 on 8.6, 8.7, 8.9 and 12.x, else
// 2048; shared memory 64 KB on 7.5, 100 KB on 8.6, 8.9 and 12.x, 164 KB on 8.0 and 8.7, else 228 KB. Asking
// for more blocks than fit would only cost registers for nothing.
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 750)
#define OS_SM_THREADS 1024
#define OS_SM_SMEM_KB 64
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ / 100 == 12)
#define OS_SM_THREADS 1536
#define OS_SM_SMEM_KB 100
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 870)
#define OS_SM_THREADS 1536
#define OS_SM_SMEM_KB 164
#elif defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 800)
#define OS_SM_THREADS 2048
#define OS_SM_SMEM_KB 164
#else
#define OS_SM_THREADS 2048
#define OS_SM_SMEM_KB 228
#endif
// onesweep_pass's shared memory at ITEMS keys a thread (s_hist, s_tile, s_out, s_warp, s_tile_id), and the 1 KB
// the system keeps for each block
#define OS_SMEM_BYTES(ITEMS) (4 * ((OS_THREADS / 32) * 256 + OS_THREADS * (ITEMS) + 256 + 8 + 1))
#define OS_FIT_THREADS (OS_SM_THREADS / OS_THREADS)
#define OS_FIT_SMEM(ITEMS) (OS_SM_SMEM_KB * 1024 / (OS_SMEM_BYTES(ITEMS) + 1024))
#define OS_FIT(ITEMS) (OS_FIT_THREADS < OS_FIT_SMEM(ITEMS) ? OS_FIT_THREADS : OS_FIT_SMEM(ITEMS))
#ifndef OS_MINB
#define OS_MINB (OS_FIT(OS_ITEMS) < 4 ? OS_FIT(OS_ITEMS) : 4)
#endif
// With values, 2 blocks an SM cap the registers at 80, which only sm_90's code fits without spilling (CUDA 13.0
// spills 4-16 bytes a thread on sm_80, 8.6, 8.9, 10.0 and 12.0): elsewhere ptxas is left free (1 block).
#ifndef OS_MINB_PAIRS
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900)
#define OS_MINB_PAIRS (OS_FIT(OS_ITEMS_PAIRS) < 2 ? OS_FIT(OS_ITEMS_PAIRS) : 2)
#else
#define OS_MINB_PAIRS 1
#endif
#endif
#define OS_WARPS (OS_THREADS / 32)
#define OS_HIST_THREADS 512
static_assert(OS_THREADS >= 256 && OS_THREADS % 32 == 0, "a thread for each of the 256 digits, whole warps");
static_assert(OS_FIT(OS_ITEMS) >= 1 && OS_FIT(OS_ITEMS_PAIRS) >= 1, "a block of onesweep_pass must fit an SM");

// keys a thread and a tile, keys alone and with values
__host__ __device__ constexpr int os_items(bool pairs) { return pairs ? OS_ITEMS_PAIRS : OS_ITEMS; }
__host__ __device__ constexpr int os_tile(bool pairs) { return OS_THREADS * os_items(pairs); }

// a (tile, digit)'s status: a 32-bit word, flag in the top two bits, count below (n < 2^30)
#define OS_FLAG_A (1u << 30)
#define OS_FLAG_P (2u << 30)
#define OS_VALUE_MASK ((1u << 30) - 1u)

// FLIP_IN: the keys are float bits, turned into ordered keys as they are read; FLIP_OUT: turned back as
// they are written (the last pass)
template <bool FLIP> __device__ __forceinline__ unsigned to_key(unsigned b) {
  return FLIP ? b ^ ((b >> 31) ? 0xFFFFFFFFu : 0x80000000u) : b;
}
template <bool FLIP> __device__ __forceinline__ unsigned from_key(unsigned k) {
  return FLIP ? k ^ ((k >> 31) ? 0x80000000u : 0xFFFFFFFFu) : k;
}

// all four digits of every key in one read; hist[pass * 256 + digit]. Each thread has four 16-byte loads in
// flight before it counts them.
template <bool FLIP_IN> __device__ __forceinline__ void count_digits(unsigned (*s_hist)[256], unsigned b) {
  unsigned key = to_key<FLIP_IN>(b);
#pragma unroll
  for (int p = 0; p < 4; p++) atomicAdd(&s_hist[p][(key >> (8 * p)) & 255u], 1u);
}
template <bool FLIP_IN> __device__ __forceinline__ void count_digits4(unsigned (*s_hist)[256], uint4 q) {
  count_digits<FLIP_IN>(s_hist, q.x), count_digits<FLIP_IN>(s_hist, q.y);
  count_digits<FLIP_IN>(s_hist, q.z), count_digits<FLIP_IN>(s_hist, q.w);
}
template <bool FLIP_IN>
__global__ void __launch_bounds__(OS_HIST_THREADS) onesweep_histogram(const unsigned *keys, size_t n, unsigned *hist) {
  __shared__ unsigned s_hist[4][256];
  for (int j = threadIdx.x; j < 1024; j += blockDim.x) (&s_hist[0][0])[j] = 0;
  __syncthreads();
  const uint4 *kv = (const uint4 *)keys;
  size_t nvec = n / 4, stride = (size_t)gridDim.x * blockDim.x, v = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (; v + 3 * stride < nvec; v += 4 * stride) {
    uint4 q0 = kv[v], q1 = kv[v + stride], q2 = kv[v + 2 * stride], q3 = kv[v + 3 * stride];
    count_digits4<FLIP_IN>(s_hist, q0), count_digits4<FLIP_IN>(s_hist, q1);
    count_digits4<FLIP_IN>(s_hist, q2), count_digits4<FLIP_IN>(s_hist, q3);
  }
  for (; v < nvec; v += stride) count_digits4<FLIP_IN>(s_hist, kv[v]);
  if (blockIdx.x == 0 && threadIdx.x < n % 4) count_digits<FLIP_IN>(s_hist, keys[4 * nvec + threadIdx.x]); // the last 1-3
  __syncthreads();
  for (int j = threadIdx.x; j < 1024; j += blockDim.x) {
    unsigned c = (&s_hist[0][0])[j];
    if (c) atomicAdd(&hist[j], c);
  }
}

// exclusive scan of 256 values, one for each of threads 0-255, in a block of 256 or more threads (the others
// pass 0 and take part only in the barrier); returns the total of the 256 in *total
__device__ __forceinline__ unsigned block_exclusive_scan_256(unsigned c, unsigned *s_warp, unsigned *total) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned incl = c;
  for (int d = 1; d < 32; d *= 2) {
    unsigned t = __shfl_up_sync(FULL_MASK, incl, d);
    if (lane >= d) incl += t;
  }
  if (lane == 31 && warp < 8) s_warp[warp] = incl;
  __syncthreads();
  unsigned before = 0, all = 0;
  for (int w = 0; w < 8; w++) {
    unsigned x = s_warp[w];
    before += (w < warp) ? x : 0u;
    all += x;
  }
  *total = all;
  return before + incl - c;
}

// where each digit's keys start, for each pass: one block a pass
__global__ void onesweep_digit_starts(const unsigned *hist, unsigned *start) {
  __shared__ unsigned s_warp[8];
  unsigned total;
  unsigned c = hist[blockIdx.x * 256 + threadIdx.x];
  start[blockIdx.x * 256 + threadIdx.x] = block_exclusive_scan_256(c, s_warp, &total);
}

// The lanes of the warp whose key has digit d, among the lanes with valid = true (a lane's own bit included).
// 8 ballots, one a bit of the digit: each keeps the lanes that agree with me on that bit.
__device__ __forceinline__ unsigned match_digit(unsigned d, bool valid) {
#if OS_MATCH == 0
  return __match_any_sync(FULL_MASK, valid ? d : 256u);
#else
  unsigned m = __ballot_sync(FULL_MASK, valid); // (FULL_MASK, without an instruction, when valid is a constant true)
#pragma unroll
  for (int b = 0; b < 8; b++) {
    unsigned bit = (d >> b) & 1u, lanes = __ballot_sync(FULL_MASK, bit);
    m &= bit ? lanes : ~lanes;
  }
  return m;
#endif
}

// In each round of a warp's keys the lanes with equal digits take consecutive places, in lane order, from the
// warp's counter for that digit (s_count[digit]); one of them (the highest) moves the counter on for all.
// One warp's shared-memory atomics are carried out in the order it issues them (CUB's Onesweep ranks the same
// way), so round i's keys come before round i+1's: the pass is stable. Each key is written to s_tile at its
// place; with PAIRS the places are kept for the values.
template <bool FULL, bool PAIRS, int ITEMS>
__device__ __forceinline__ void rank_keys(const unsigned (&key)[ITEMS], unsigned (&rank)[PAIRS ? ITEMS : 1],
                                          unsigned *s_count, unsigned *s_tile, int shift, int lim, int lane) {
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    bool valid = FULL || 32 * i + lane < lim;
    unsigned dig = (key[i] >> shift) & 255u;
    unsigned peers = match_digit(dig, valid);
    int leader = 31 - __clz(peers);
    unsigned first = 0;
    if (valid && lane == leader) first = atomicAdd(&s_count[dig], (unsigned)__popc(peers));
    first = __shfl_sync(FULL_MASK, first, leader & 31);
    unsigned r = first + __popc(peers & lanemask_lt(lane));
    if (valid) s_tile[r] = key[i];
    if (PAIRS) rank[PAIRS ? i : 0] = r;
  }
}

template <bool PAIRS, bool FLIP_IN, bool FLIP_OUT>
__global__ void __launch_bounds__(OS_THREADS, PAIRS ? OS_MINB_PAIRS : OS_MINB)
    onesweep_pass(const unsigned *keys_in, unsigned *keys_out, const unsigned *vals_in, unsigned *vals_out, size_t n,
                  int shift, const unsigned *digit_start, unsigned *status, unsigned *ticket, int *error) {
  constexpr int ITEMS = os_items(PAIRS), TILE = os_tile(PAIRS);
  __shared__ unsigned s_hist[OS_WARPS][256]; // warp-private digit counts, then each warp's next place a digit
  __shared__ unsigned s_tile[TILE];          // the tile, sorted by digit (keys, then values)
  __shared__ unsigned s_out[256];            // global place of digit d's keys, minus their place in the tile
  __shared__ unsigned s_warp[8];
  __shared__ int s_tile_id;
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;

  if (tid == 0) s_tile_id = (int)atomicAdd(ticket, 1u); // the order tiles really start in, never blockIdx.x
  for (int j = tid; j < OS_WARPS * 256; j += OS_THREADS) (&s_hist[0][0])[j] = 0;
  __syncthreads();
  int tile = s_tile_id;
  size_t tile_base = (size_t)tile * TILE;

  // warp w owns keys [32 ITEMS w, 32 ITEMS (w + 1)) of the tile, read in ITEMS coalesced rounds;
  // so (warp, round, lane) is input order, and ranking in that order keeps the pass stable
  unsigned key[ITEMS], rank[PAIRS ? ITEMS : 1];
  size_t warp_base = tile_base + (size_t)warp * 32 * ITEMS;
  // key i of this lane is valid (inside the n keys) when 32 i + lane < lim
  int lim = (warp_base >= n) ? 0 : (n - warp_base >= 32 * ITEMS) ? 32 * ITEMS : (int)(n - warp_base);
  const unsigned *kin = keys_in + warp_base + lane;
#pragma unroll
  for (int i = 0; i < ITEMS; i++) key[i] = (32 * i + lane < lim) ? to_key<FLIP_IN>(kin[32 * i]) : 0u;

  // (1) early counts: each warp counts its digits in its own histogram, in any order (atomics), so that the
  // tile's counts are known, and published, before any key is ranked
#pragma unroll
  for (int i = 0; i < ITEMS; i++)
    if (32 * i + lane < lim) atomicAdd(&s_hist[warp][(key[i] >> shift) & 255u], 1u);
  __syncthreads();

  // (2) thread d < 256: digit d's count in the tile, and each warp's offset among the tile's d's; the count
  // goes out at once (A), so that the tiles after this one can use it while this one ranks its keys
  int d = tid;
  unsigned count = 0;
  if (d < 256) {
    unsigned *st = status + d;
    for (int w = 0; w < OS_WARPS; w++) {
      unsigned c = s_hist[w][d];
      s_hist[w][d] = count;
      count += c;
    }
    *(volatile unsigned *)&st[(size_t)tile * 256] = ((tile == 0) ? OS_FLAG_P : OS_FLAG_A) | count;
  }
  unsigned all;
  unsigned in_tile = block_exclusive_scan_256(count, s_warp, &all); // digit d's first place in the tile
  if (d < 256) {
    for (int w = 0; w < OS_WARPS; w++) s_hist[w][d] += in_tile; // warp w's first place for its d's
    s_out[d] = in_tile;                                          // for the look-back, below
  }
  __syncthreads();

  // (3) rank every key and put it in its place in the sorted tile (a full tile skips the checks of n)
  if (lim == 32 * ITEMS)
    rank_keys<true, PAIRS>(key, rank, s_hist[warp], s_tile, shift, lim, lane);
  else
    rank_keys<false, PAIRS>(key, rank, s_hist[warp], s_tile, shift, lim, lane);
  __syncthreads();

  // (4) only now the look-back (as CUB's Onesweep orders it): the tiles before this one have had the time of
  // its ranking to publish, so it waits less. Thread d adds the counts of digit d in the tiles before, back
  // to the first with a prefix (P), and publishes its own prefix.
  if (d < 256) {
    int tile = s_tile_id; // (read again: a register held through the ranking would be one fewer for the keys)
    unsigned excl = 0, *st = status + d;
    for (int pred = tile - 1; pred >= 0; pred--) {
      unsigned w;
      int spins = 0;
      do {
        w = *(volatile unsigned *)&st[(size_t)pred * 256];
      } while ((w & ~OS_VALUE_MASK) == 0 && ++spins < SPIN_LIMIT);
      if (spins == SPIN_LIMIT) {
        atomicExch(error, 1);
        break;
      }
      excl += w & OS_VALUE_MASK;
      if (w & OS_FLAG_P) break;
    }
    if (tile > 0) *(volatile unsigned *)&st[(size_t)tile * 256] = OS_FLAG_P | (excl + count);
    // (digit_start is read here, not before the ranking: a load held in flight through the ranking cost ptxas
    // registers it then spilled)
    s_out[d] = digit_start[d] + excl - s_out[d];
  }
  __syncthreads();

  // write the sorted tile out in order: consecutive threads write consecutive places of one digit's run
  unsigned digits[PAIRS ? (ITEMS + 3) / 4 : 1] = {0}; // with PAIRS: the digit of each key written, 4 a word
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    unsigned j = i * OS_THREADS + tid;
    if (j < all) {
      unsigned k = s_tile[j], dig = (k >> shift) & 255u;
      keys_out[s_out[dig] + j] = from_key<FLIP_OUT>(k);
      if (PAIRS) digits[PAIRS ? i / 4 : 0] |= dig << (8 * (i % 4));
    }
  }
  if (PAIRS) { // the values follow the same permutation, through the same shared buffer; they are read only
               // now, so that their registers are not held through the ranking
    unsigned val[PAIRS ? ITEMS : 1];
    const unsigned *vin = vals_in + warp_base + lane;
#pragma unroll
    for (int i = 0; i < ITEMS; i++) val[PAIRS ? i : 0] = (32 * i + lane < lim) ? vin[32 * i] : 0u;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; i++)
      if (32 * i + lane < lim) s_tile[rank[PAIRS ? i : 0]] = val[PAIRS ? i : 0];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      unsigned j = i * OS_THREADS + tid;
      if (j < all) vals_out[s_out[(digits[PAIRS ? i / 4 : 0] >> (8 * (i % 4))) & 255u] + j] = s_tile[j];
    }
  }
}

// ---- the host side ------------------------------------------------------------------------------

typedef struct {
  size_t n;
  int pairs, is_float;
  unsigned *d_in, *d_vin;     // the input (keys; values), never changed
  unsigned *d_out, *d_vout;   // the result
  unsigned *d_alt, *d_valt;   // the other buffer of the passes
  unsigned *d_work;           // onesweep: histogram, digit starts, tickets, status words (one memset)
  size_t work_words;
  unsigned *d_hist4;          // step 8: the 16 x nb counts
  int *d_error;
  int nsm;                    // the GPU's multiprocessors (onesweep's histogram grid)
  void *d_cub_temp;
  size_t cub_temp_bytes;
  char *d_thrust_temp;        // Thrust's temporary storage: grown once, on the untimed first call
  size_t thrust_temp_bytes;
} sort_plan;

static unsigned os_tiles(size_t n, bool pairs) { return (unsigned)((n + os_tile(pairs) - 1) / os_tile(pairs)); }

static void run_1bit(void *arg) {
  sort_plan *p = (sort_plan *)arg;
  checkCudaErrors(cudaMemcpyAsync(p->d_out, p->d_in, p->n * 4, cudaMemcpyDeviceToDevice)); // sorts in place
  radix_1bit<<<1, B1_THREADS>>>(p->d_out, p->d_alt, p->n);
  getLastCudaError("radix_1bit execution failed");
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

typedef void (*onesweep_pass_fn)(const unsigned *, unsigned *, const unsigned *, unsigned *, size_t, int,
                                 const unsigned *, unsigned *, unsigned *, int *);

template <bool PAIRS, bool FLOAT> static void onesweep_sort(sort_plan *p) {
  unsigned nb = os_tiles(p->n, PAIRS);
  unsigned *hist = p->d_work, *start = hist + 1024, *tickets = start + 1024, *status = tickets + 4;
  // one memset: counts, tickets and every pass's status words back to zero
  checkCudaErrors(cudaMemsetAsync(p->d_work, 0, p->work_words * 4));
  onesweep_histogram<FLOAT><<<p->nsm * (2048 / OS_HIST_THREADS), OS_HIST_THREADS>>>(p->d_in, p->n, hist);
  getLastCudaError("onesweep_histogram execution failed");
  onesweep_digit_starts<<<4, 256>>>(hist, start);
  getLastCudaError("onesweep_digit_starts execution failed");
  // in -> alt -> out -> alt -> out
  const unsigned *src[4] = {p->d_in, p->d_alt, p->d_out, p->d_alt};
  unsigned *dst[4] = {p->d_alt, p->d_out, p->d_alt, p->d_out};
  const unsigned *vsrc[4] = {p->d_vin, p->d_valt, p->d_vout, p->d_valt};
  unsigned *vdst[4] = {p->d_valt, p->d_vout, p->d_valt, p->d_vout};
  for (int pass = 0; pass < 4; pass++) {
    // float keys: flipped to ordered keys as the first pass reads them, back as the last pass writes them
    onesweep_pass_fn pass_kernel = (pass == 0)   ? onesweep_pass<PAIRS, FLOAT, false>
                                   : (pass == 3) ? onesweep_pass<PAIRS, false, FLOAT>
                                                 : onesweep_pass<PAIRS, false, false>;
    pass_kernel<<<nb, OS_THREADS>>>(src[pass], dst[pass], vsrc[pass], vdst[pass], p->n, 8 * pass, start + 256 * pass,
                                    status + (size_t)pass * nb * 256, tickets + pass, p->d_error);
    getLastCudaError("onesweep_pass execution failed");
  }
}

static void run_onesweep(void *arg) {
  sort_plan *p = (sort_plan *)arg;
  if (p->pairs)
    p->is_float ? onesweep_sort<true, true>(p) : onesweep_sort<true, false>(p);
  else
    p->is_float ? onesweep_sort<false, true>(p) : onesweep_sort<false, false>(p);
}

static void run_cub(void *arg) {
  sort_plan *p = (sort_plan *)arg;
  int n = (int)p->n;
  if (p->is_float && p->pairs)
    checkCudaErrors(cub::DeviceRadixSort::SortPairs(p->d_cub_temp, p->cub_temp_bytes, (const float *)p->d_in,
                                                    (float *)p->d_out, p->d_vin, p->d_vout, n));
  else if (p->is_float)
    checkCudaErrors(cub::DeviceRadixSort::SortKeys(p->d_cub_temp, p->cub_temp_bytes, (const float *)p->d_in,
                                                   (float *)p->d_out, n));
  else if (p->pairs)
    checkCudaErrors(cub::DeviceRadixSort::SortPairs(p->d_cub_temp, p->cub_temp_bytes, (const unsigned *)p->d_in,
                                                    p->d_out, p->d_vin, p->d_vout, n));
  else
    checkCudaErrors(
        cub::DeviceRadixSort::SortKeys(p->d_cub_temp, p->cub_temp_bytes, (const unsigned *)p->d_in, p->d_out, n));
}

// Thrust allocates its temporary storage through this: one buffer, grown on the first (untimed) call and
// then handed out again, so that the timed calls allocate nothing
struct once_allocator {
  typedef char value_type;
  sort_plan *p;
  char *allocate(std::ptrdiff_t bytes) {
    if ((size_t)bytes > p->thrust_temp_bytes) {
      if (p->d_thrust_temp) checkCudaErrors(cudaFree(p->d_thrust_temp));
      if (cudaMalloc((void **)&p->d_thrust_temp, (size_t)bytes) != cudaSuccess) throw std::bad_alloc();
      p->thrust_temp_bytes = (size_t)bytes;
    }
    return p->d_thrust_temp;
  }
  void deallocate(char *, size_t) {}
};

// thrust::sort sorts in place: the input is copied to out first (the copy is timed apart and subtracted)
static void run_thrust(void *arg) {
  sort_plan *p = (sort_plan *)arg;
  once_allocator alloc = {p};
  checkCudaErrors(cudaMemcpyAsync(p->d_out, p->d_in, p->n * 4, cudaMemcpyDeviceToDevice));
  if (p->pairs) checkCudaErrors(cudaMemcpyAsync(p->d_vout, p->d_vin, p->n * 4, cudaMemcpyDeviceToDevice));
  if (p->is_float && p->pairs)
    thrust::sort_by_key(thrust::cuda::par(alloc), (float *)p->d_out, (float *)p->d_out + p->n, p->d_vout);
  else if (p->is_float)
    thrust::sort(thrust::cuda::par(alloc), (float *)p->d_out, (float *)p->d_out + p->n);
  else if (p->pairs)
    thrust::sort_by_key(thrust::cuda::par(alloc), p->d_out, p->d_out + p->n, p->d_vout);
  else
    thrust::sort(thrust::cuda::par(alloc), p->d_out, p->d_out + p->n);
}

static void run_copy_in(void *arg) { // what run_thrust spends before it sorts
  sort_plan *p = (sort_plan *)arg;
  checkCudaErrors(cudaMemcpyAsync(p->d_out, p->d_in, p->n * 4, cudaMemcpyDeviceToDevice));
  if (p->pairs) checkCudaErrors(cudaMemcpyAsync(p->d_vout, p->d_vin, p->n * 4, cudaMemcpyDeviceToDevice));
}

// The values beside float keys sorted by CUB or Thrust, which order -0.0 and +0.0 as equal keys where the gold
// puts every -0 first: where the gold's key is a zero, the value must be the index of an input zero, each
// index once (seen[] holds n bytes); everywhere else it must be the gold's value. Returns the count of bad ones.
static size_t values_check_zeros_free(const unsigned *val, const unsigned *vgold, const unsigned *kgold,
                                      const unsigned *kin, size_t n, unsigned char *seen) {
  size_t nbad = 0;
  memset(seen, 0, n);
  for (size_t i = 0; i < n; i++) {
    unsigned v = val[i];
    if ((kgold[i] & 0x7FFFFFFFu) == 0) { // the float key is -0 or +0
      nbad += !(v < n && (kin[v] & 0x7FFFFFFFu) == 0 && !seen[v]);
      if (v < n) seen[v] = 1;
    } else {
      nbad += v != vgold[i];
    }
  }
  return nbad;
}

static const char *method_name[5] = {"cub_radix_sort", "radix_1bit", "radix_4bit", "onesweep", "thrust_sort"};
static const timed_fn method_fn[5] = {run_cub, run_1bit, run_4bit, run_onesweep, run_thrust};

static int main_sort(int argc, char **argv) {
  long long n = 1 << 24;
  int kernel = -1, is_float = 0, pairs = 0, dist = -1, bench = 0, reps = 20, seed = 1;
  arg_spec opts[] = {
      {"n", ARG_LONG, &n, 1, (double)MAX_N, "number of keys"},
      {"kernel", ARG_INT, &kernel, -1, 4, "0 CUB, 1 one bit a pass, 2 four bits, 3 onesweep, 4 Thrust; -1 all"},
      {"float", ARG_FLAG, &is_float, 0, 1, "float keys (kernels 0, 3, 4)"},
      {"pairs", ARG_FLAG, &pairs, 0, 1, "key-value pairs, the value the key's input index (kernels 0, 3, 4)"},
      {"dist", ARG_INT, &dist, -1, SORT_NDISTS - 1,
       "input: 0 random, 1 sorted, 2 reversed, 3 all equal, 4 two values, 5 top byte, 6 floats (-1: 0, or 6 with -float)"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time each method; BENCH lines with keys/s and the ratio to CUB"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is used)"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed of the input"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if (dist < 0) dist = is_float ? SORT_FLOATS : SORT_RANDOM;
  if (is_float && dist != SORT_FLOATS)
    args_fail("-float sorts the -dist=6 floats (other bit patterns include NaNs, which have no order)");
  if ((kernel == 1 || kernel == 2) && (is_float || pairs))
    args_fail("-kernel=%d sorts unsigned keys only: -float and -pairs are for kernels 0, 3 and 4", kernel);
  if (kernel == 1 && n > MAX_N_1BIT) args_fail("-kernel=1 (one block) takes at most %lld keys", MAX_N_1BIT);
  int dev = findCudaDevice(argc, argv);
  (void)dev;

  size_t N = (size_t)n, bytes = N * 4;
  unsigned nb = os_tiles(N, false); // (keys alone: the smaller tile, the more status words)
  int arrays = pairs ? 6 : 3;
  device_memory_check((size_t)arrays * bytes + 2 * bytes + (size_t)nb * 256 * 16 + (64 << 20),
                      "keys in, out and between passes (values too with -pairs), CUB's and Thrust's workspace",
                      args_given(argc, argv, "n"));
  printf("Sorting %zu %s%s, input: %s\n", N, is_float ? "float keys" : "32-bit keys", pairs ? " with values" : "",
         sort_dist_names[dist]);

  // the input (values: each key's index, so that a stable sort is visible), and the gold
  unsigned *h_in = (unsigned *)malloc(bytes), *h_gold = (unsigned *)malloc(bytes), *h_out = (unsigned *)malloc(bytes);
  unsigned *h_tmp = (unsigned *)malloc(bytes), *h_vgold = NULL, *h_vtmp = NULL;
  if (pairs) h_vgold = (unsigned *)malloc(bytes), h_vtmp = (unsigned *)malloc(bytes);
  if (!h_in || !h_gold || !h_out || !h_tmp || (pairs && (!h_vgold || !h_vtmp))) return result_fail("out of host memory");
  sort_input(h_in, N, dist, seed);
  double t0 = wall_ms();
  for (size_t i = 0; i < N; i++) h_gold[i] = is_float ? float_bits_to_key(h_in[i]) : h_in[i];
  if (pairs)
    for (size_t i = 0; i < N; i++) h_vgold[i] = (unsigned)i;
  radix_sort_gold(h_gold, h_vgold, N, h_tmp, h_vtmp);
  if (is_float)
    for (size_t i = 0; i < N; i++) h_gold[i] = key_to_float_bits(h_gold[i]);
  printf("radix_sort_gold: %.1f ms\n", wall_ms() - t0);

  sort_plan p;
  memset(&p, 0, sizeof(p));
  p.n = N, p.pairs = pairs, p.is_float = is_float;
  p.nsm = device_limits(dev)->sms;
  checkCudaErrors(cudaMalloc((void **)&p.d_in, bytes));
  checkCudaErrors(cudaMalloc((void **)&p.d_out, bytes));
  checkCudaErrors(cudaMalloc((void **)&p.d_alt, bytes));
  checkCudaErrors(cudaMemcpy(p.d_in, h_in, bytes, cudaMemcpyHostToDevice));
  if (pairs) {
    checkCudaErrors(cudaMalloc((void **)&p.d_vin, bytes));
    checkCudaErrors(cudaMalloc((void **)&p.d_vout, bytes));
    checkCudaErrors(cudaMalloc((void **)&p.d_valt, bytes));
    for (size_t i = 0; i < N; i++) h_tmp[i] = (unsigned)i;
    checkCudaErrors(cudaMemcpy(p.d_vin, h_tmp, bytes, cudaMemcpyHostToDevice));
  }
  p.work_words = 1024 + 1024 + 4 + (size_t)4 * nb * 256;
  checkCudaErrors(cudaMalloc((void **)&p.d_work, p.work_words * 4));
  checkCudaErrors(cudaMalloc((void **)&p.d_hist4, (size_t)16 * ((N + B4_TILE - 1) / B4_TILE) * 4));
  checkCudaErrors(cudaMalloc((void **)&p.d_error, sizeof(int)));
  checkCudaErrors(cudaMemset(p.d_error, 0, sizeof(int)));
  run_cub(&p); // the first call only asks for the size of CUB's temporary storage
  checkCudaErrors(cudaMalloc(&p.d_cub_temp, p.cub_temp_bytes));

  size_t nbad_all = 0;
  int ran[5] = {0};
  for (int k = 0; k <= 4; k++) {
    if (kernel >= 0 && k != kernel) continue;
    if ((k == 1 || k == 2) && (is_float || pairs)) continue; // keys only
    if (k == 1 && N > MAX_N_1BIT) {
      printf("%s: skipped (one block: at most %lld keys)\n", method_name[k], MAX_N_1BIT);
      continue;
    }
    checkCudaErrors(cudaMemset(p.d_out, 0xff, bytes)); // poison
    if (pairs) checkCudaErrors(cudaMemset(p.d_vout, 0xff, bytes));
    event_timer t = event_timer_start();
    method_fn[k](&p);
    float ms = event_timer_stop(&t);
    int err = 0;
    checkCudaErrors(cudaMemcpy(&err, p.d_error, sizeof(int), cudaMemcpyDeviceToHost));
    if (err) return result_fail("%s: a look-back waited %d times for a tile that never published", method_name[k],
                                SPIN_LIMIT);
    ran[k] = 1;
    checkCudaErrors(cudaMemcpy(h_out, p.d_out, bytes, cudaMemcpyDeviceToHost));
    gold_stats st;
    // float keys compare as floats: the libraries order -0 and +0 as equal, this workbook's bijection puts -0
    // first; anything else must be bit for bit
    if (is_float)
      compare_float((const float *)h_out, (const float *)h_gold, N, 0.0, 0.0, &st);
    else
      compare_int((const int *)h_out, (const int *)h_gold, N, &st);
    printf("%s: %.3f ms (first call), %s\n", method_name[k], ms, st.nbad ? "keys differ" : "keys sorted");
    gold_report(method_name[k], &st);
    nbad_all += st.nbad;
    if (pairs && !(is_float && (k == 0 || k == 4))) { // stable: every value where the gold put it
      checkCudaErrors(cudaMemcpy(h_out, p.d_vout, bytes, cudaMemcpyDeviceToHost));
      compare_int((const int *)h_out, (const int *)h_vgold, N, &st);
      gold_report("values", &st);
      nbad_all += st.nbad;
    } else if (pairs) { // the libraries on float keys: the gold's values, except in how they order the zeros
      checkCudaErrors(cudaMemcpy(h_out, p.d_vout, bytes, cudaMemcpyDeviceToHost));
      size_t nbad_v = values_check_zeros_free(h_out, h_vgold, h_gold, h_in, N, (unsigned char *)h_tmp);
      printf("values: %zu of %zu out of place (where the key is -0 or +0: any input zero, each once)\n", nbad_v, N);
      nbad_all += nbad_v;
    }
  }

  // steps 9-10: keys a second against CUB, on the same input
  if (bench && nbad_all == 0) {
    char size[32], extra[128];
    snprintf(size, sizeof(size), "%zu", N);
    float ms_cub = time_median_ms(run_cub, &p, 3, reps);
    float ms_copy = time_median_ms(run_copy_in, &p, 3, reps);
    for (int k = 0; k <= 4; k++) {
      if (!ran[k] || k == 1) continue; // the one-block sort is far too slow to be worth timing
      float ms = (k == 0) ? ms_cub : time_median_ms(method_fn[k], &p, 3, reps);
      if (k == 4) ms -= ms_copy;
      double gkeys = (double)N / (ms * 1e-3) / 1e9;
      printf("%-15s %.4f ms, %.2f Gkeys/s, %.2fx CUB%s\n", method_name[k], ms, gkeys, ms_cub / ms,
             k == 4 ? " (the copy of the input it sorts in place subtracted)" : "");
      snprintf(extra, sizeof(extra), "keys=%s pairs=%d dist=%s Gkeys_per_s=%.3f x_cub=%.3f",
               is_float ? "float" : "uint32", pairs, sort_dist_names[dist], gkeys, ms_cub / ms);
      print_bench("8", method_name[k], size, reps, ms, -1.0, NULL, extra);
    }
    int err = 0;
    checkCudaErrors(cudaMemcpy(&err, p.d_error, sizeof(int), cudaMemcpyDeviceToHost));
    if (err) return result_fail("onesweep: a look-back waited %d times for a tile that never published", SPIN_LIMIT);
  }

  checkCudaErrors(cudaFree(p.d_in));
  checkCudaErrors(cudaFree(p.d_out));
  checkCudaErrors(cudaFree(p.d_alt));
  if (pairs) {
    checkCudaErrors(cudaFree(p.d_vin));
    checkCudaErrors(cudaFree(p.d_vout));
    checkCudaErrors(cudaFree(p.d_valt));
  }
  checkCudaErrors(cudaFree(p.d_work));
  checkCudaErrors(cudaFree(p.d_hist4));
  checkCudaErrors(cudaFree(p.d_error));
  checkCudaErrors(cudaFree(p.d_cub_temp));
  if (p.d_thrust_temp) checkCudaErrors(cudaFree(p.d_thrust_temp));
  free(h_in), free(h_gold), free(h_out), free(h_tmp), free(h_vgold), free(h_vtmp);
  if (nbad_all) return result_fail("%zu keys or values out of place (see above)", nbad_all);
  return result_pass();
}

// a Thrust call reports its errors by throwing: that must end in a verdict, not an abort
int main(int argc, char **argv) {
  try {
    return main_sort(argc, argv);
  } catch (std::exception &e) {
    return result_fail("exception: %s", e.what());
  }
}
