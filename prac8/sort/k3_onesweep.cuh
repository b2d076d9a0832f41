/*
 * sort/k3_onesweep.cuh -- practical 8, step 9 (-kernel=3): 8 bits per pass, one kernel per pass, the approach of
 * CUB's Onesweep. After the histogram (sort/onesweep_histogram.cuh) a block takes its tile from an atomic
 * ticket, counts its digits in warp-private histograms, publishes its 256 digit counts at once, ranks its keys
 * (8 ballots find the lanes with equal digits) into a tile sorted in shared memory, and only then looks back,
 * digit by digit, for the counts of the tiles before it (the chained scan of scan_blocks, 256 of them side by
 * side), as CUB's own Onesweep orders it; then it writes each digit's run of keys contiguously. -float sorts
 * floats (the sign-flip bijection on the way in and out), -pairs carries a 32-bit value with each key.
 * Tunables: sort/onesweep_policy.h; their measurements: docs/notes/prac8.md, "Onesweep: the way there".
 */
#include "../scans/lookback_status.cuh" // SPIN_LIMIT
#include "onesweep_histogram.cuh"
#include "onesweep_policy.h"
#include "sort_common.cuh"

// a (tile, digit)'s status: a 32-bit word, flag in the top two bits, count below (n < 2^30)
#define OS_FLAG_A (1u << 30)
#define OS_FLAG_P (2u << 30)
#define OS_VALUE_MASK ((1u << 30) - 1u)

// between two polls of a status word that is not yet published: a short sleep (__nanosleep: compute capability
// 7.0 and up, every GPU CUDA 13 builds for; the guard keeps an older target compiling, spinning as before)
__device__ __forceinline__ void os_backoff() {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
  __nanosleep(64);
#endif
}

// The lanes of the warp whose key has digit d, among the lanes with valid = true (a lane's own bit included).
// 8 ballots, one per bit of the digit: each keeps the lanes that agree with me on that bit.
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
// Round i's keys come before round i+1's (the pass is stable) because of a data dependence, not an order of
// atomics: the __shfl_sync that hands round i's atomicAdd result to its group cannot run until that atomic has
// returned, and round i+1's atomicAdd is issued after that shuffle, so the counter has moved on by round i's
// keys before round i+1 reads it. (CUB's Onesweep ranks in the same order.) Each key is written to s_tile at
// its place; with PAIRS the places are kept for the values.
template <bool FULL, bool PAIRS, int ITEMS>
__device__ __forceinline__ void rank_keys(const unsigned (&key)[ITEMS], unsigned (&rank)[PAIRS ? ITEMS : 1],
                                          unsigned *s_count, unsigned *s_tile, int shift, int warp_keys, int lane) {
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    bool valid = FULL || 32 * i + lane < warp_keys;
    unsigned dig = (key[i] >> shift) & 255u;
    unsigned peers = match_digit(dig, valid);
    int leader = 31 - __clz(peers);
    unsigned first = 0;
    if (valid && lane == leader) first = atomicAdd(&s_count[dig], (unsigned)__popc(peers));
    first = __shfl_sync(FULL_MASK, first, leader & 31); // waits for the atomic: the next round's comes after
    unsigned r = first + __popc(peers & lanemask_lt(lane));
    if (valid) s_tile[r] = key[i];
    if (PAIRS) rank[PAIRS ? i : 0] = r;
  }
}

// KEYS_IN: how the first pass turns what it reads into keys; KEYS_OUT: how the last turns them back (os_keys)
template <bool PAIRS, int KEYS_IN, int KEYS_OUT>
__global__ void __launch_bounds__(OS_THREADS, PAIRS ? OS_MINB_PAIRS : OS_MINB)
    onesweep_pass(const unsigned *keys_in, unsigned *keys_out, const unsigned *vals_in, unsigned *vals_out, size_t n,
                  int shift, const unsigned *digit_start, unsigned *status, unsigned *ticket, int *error) {
  constexpr int ITEMS = os_items(PAIRS), TILE = os_tile(PAIRS);
  __shared__ unsigned s_hist[OS_WARPS][256]; // warp-private digit counts, then each warp's next place a digit
  __shared__ unsigned s_tile[TILE];          // the tile, sorted by digit (keys, then values)
  __shared__ unsigned s_tile_to_out[256];    // digit d's first place in the tile; after the look-back, added to
                                             // a d's place in the sorted tile it gives its place in keys_out
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
  // the keys of this warp's part that lie inside the n keys: key i of this lane is one when 32 i + lane < warp_keys
  int warp_keys = (warp_base >= n) ? 0 : (n - warp_base >= 32 * ITEMS) ? 32 * ITEMS : (int)(n - warp_base);
  const unsigned *kin = keys_in + warp_base + lane;
#pragma unroll
  for (int i = 0; i < ITEMS; i++) key[i] = (32 * i + lane < warp_keys) ? to_key<KEYS_IN>(kin[32 * i]) : 0u;

  // (1) early counts: each warp counts its digits in its own histogram, in any order (atomics), so that the
  // tile's counts are known, and published, before any key is ranked
#pragma unroll
  for (int i = 0; i < ITEMS; i++)
    if (32 * i + lane < warp_keys) atomicAdd(&s_hist[warp][(key[i] >> shift) & 255u], 1u);
  __syncthreads();

  // (2) thread d < 256 owns digit d: its count in the tile, and each warp's offset among the tile's d's; the
  // count goes out at once (A), so that the tiles after this one can use it while this one ranks its keys
  int digit = tid;
  unsigned count = 0;
  if (digit < 256) {
    unsigned *st = status + digit;
    for (int w = 0; w < OS_WARPS; w++) {
      unsigned c = s_hist[w][digit];
      s_hist[w][digit] = count;
      count += c;
    }
    *(volatile unsigned *)&st[(size_t)tile * 256] = ((tile == 0) ? OS_FLAG_P : OS_FLAG_A) | count;
  }
  unsigned tile_keys; // the keys in this tile (a last tile may hold fewer than TILE)
  unsigned in_tile = block_exclusive_scan_256(count, s_warp, &tile_keys); // the digit's first place in the tile
  if (digit < 256) {
    for (int w = 0; w < OS_WARPS; w++) s_hist[w][digit] += in_tile; // warp w's first place for its keys of the digit
    s_tile_to_out[digit] = in_tile;                                  // for the look-back, below
  }
  __syncthreads();

  // (3) rank every key and put it in its place in the sorted tile (a full tile skips the checks of n)
  if (warp_keys == 32 * ITEMS)
    rank_keys<true, PAIRS>(key, rank, s_hist[warp], s_tile, shift, warp_keys, lane);
  else
    rank_keys<false, PAIRS>(key, rank, s_hist[warp], s_tile, shift, warp_keys, lane);
  __syncthreads();

  // (4) only now the look-back (as CUB's Onesweep orders it): the tiles before this one have had the time of
  // its ranking to publish, so it waits less. Thread d adds the counts of digit d in the tiles before, back
  // to the first with a prefix (P), and publishes its own prefix. A word not yet published is asked for again
  // after a short sleep, as scan_blocks' look-back does (scans/s2_lookback.cuh): 256 threads per block polling
  // L2 without a pause would take memory bandwidth from the tiles still loading.
  if (digit < 256) {
    int tile = s_tile_id; // (read again: a register held through the ranking would be one fewer for the keys)
    unsigned excl = 0, *st = status + digit;
    for (int pred = tile - 1; pred >= 0; pred--) {
      unsigned w = *(volatile unsigned *)&st[(size_t)pred * 256];
      for (int spins = 0; (w & ~OS_VALUE_MASK) == 0 && spins < SPIN_LIMIT; spins++) {
        os_backoff(); // not yet published (neither A nor P): wait a little before asking again
        w = *(volatile unsigned *)&st[(size_t)pred * 256];
      }
      if ((w & ~OS_VALUE_MASK) == 0) { // never in a correct program: report it instead of hanging
        atomicExch(error, 1);
        break;
      }
      excl += w & OS_VALUE_MASK;
      if (w & OS_FLAG_P) break;
    }
    if (tile > 0) *(volatile unsigned *)&st[(size_t)tile * 256] = OS_FLAG_P | (excl + count);
    // (digit_start is read here, not before the ranking: a load held in flight through the ranking cost ptxas
    // registers it then spilled.) The digit's run starts at digit_start + excl in keys_out and at
    // s_tile_to_out[digit] in the sorted tile.
    s_tile_to_out[digit] = digit_start[digit] + excl - s_tile_to_out[digit];
  }
  __syncthreads();

  // write the sorted tile out in order: consecutive threads write consecutive places of one digit's run
  unsigned digits[PAIRS ? (ITEMS + 3) / 4 : 1] = {0}; // with PAIRS: the digit of each key written, 4 per word
#pragma unroll
  for (int i = 0; i < ITEMS; i++) {
    unsigned j = i * OS_THREADS + tid;
    if (j < tile_keys) {
      unsigned k = s_tile[j], dig = (k >> shift) & 255u;
      keys_out[s_tile_to_out[dig] + j] = from_key<KEYS_OUT>(k);
      if (PAIRS) digits[PAIRS ? i / 4 : 0] |= dig << (8 * (i % 4));
    }
  }
  if (PAIRS) { // the values follow the same permutation, through the same shared buffer; they are read only
               // now, so that their registers are not held through the ranking
    unsigned val[PAIRS ? ITEMS : 1];
    const unsigned *vin = vals_in + warp_base + lane;
#pragma unroll
    for (int i = 0; i < ITEMS; i++) val[PAIRS ? i : 0] = (32 * i + lane < warp_keys) ? vin[32 * i] : 0u;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; i++)
      if (32 * i + lane < warp_keys) s_tile[rank[PAIRS ? i : 0]] = val[PAIRS ? i : 0];
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
      unsigned j = i * OS_THREADS + tid;
      if (j < tile_keys) vals_out[s_tile_to_out[(digits[PAIRS ? i / 4 : 0] >> (8 * (i % 4))) & 255u] + j] = s_tile[j];
    }
  }
}

static unsigned os_tiles(size_t n, bool pairs) { return (unsigned)((n + os_tile(pairs) - 1) / os_tile(pairs)); }

typedef void (*onesweep_pass_fn)(const unsigned *, unsigned *, const unsigned *, unsigned *, size_t, int,
                                 const unsigned *, unsigned *, unsigned *, int *);

// the histogram's grid: as many blocks as the GPU holds at once (the occupancy API, not a count of threads per SM
// assumed for every GPU), each striding over the keys; called once, before any timed run
static void onesweep_setup(sort_plan *p, int dev) {
  int per_sm = p->is_float ? occupancy_blocks_per_sm(onesweep_histogram<KEYS_FLOAT>, dev, OS_HIST_THREADS, 0)
                           : occupancy_blocks_per_sm(onesweep_histogram<KEYS_UINT>, dev, OS_HIST_THREADS, 0);
  p->hist_grid = device_limits(dev)->sms * (per_sm > 0 ? per_sm : 1);
}

template <bool PAIRS, int KEYS> static void onesweep_sort(sort_plan *p) {
  unsigned nb = os_tiles(p->n, PAIRS);
  unsigned *hist = p->d_work, *start = hist + 1024, *tickets = start + 1024, *status = tickets + 4;
  // one memset: counts, tickets and every pass's status words back to zero
  checkCudaErrors(cudaMemsetAsync(p->d_work, 0, p->work_words * 4));
  onesweep_histogram<KEYS><<<p->hist_grid, OS_HIST_THREADS>>>(p->d_in, p->n, hist);
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
    onesweep_pass_fn pass_kernel = (pass == 0)   ? onesweep_pass<PAIRS, KEYS, KEYS_UINT>
                                   : (pass == 3) ? onesweep_pass<PAIRS, KEYS_UINT, KEYS>
                                                 : onesweep_pass<PAIRS, KEYS_UINT, KEYS_UINT>;
    pass_kernel<<<nb, OS_THREADS>>>(src[pass], dst[pass], vsrc[pass], vdst[pass], p->n, 8 * pass, start + 256 * pass,
                                    status + (size_t)pass * nb * 256, tickets + pass, p->d_error);
    getLastCudaError("onesweep_pass execution failed");
  }
}

static void run_onesweep(void *arg) {
  sort_plan *p = (sort_plan *)arg;
  if (p->fault_zeros) // -fault=zeros (float keys alone): the deliberate bug, +0 before -0
    onesweep_sort<false, KEYS_FAULT_ZEROS>(p);
  else if (p->pairs)
    p->is_float ? onesweep_sort<true, KEYS_FLOAT>(p) : onesweep_sort<true, KEYS_UINT>(p);
  else
    p->is_float ? onesweep_sort<false, KEYS_FLOAT>(p) : onesweep_sort<false, KEYS_UINT>(p);
}

// the runner's method. It puts -0.0 before +0.0, as the gold does, so its keys are compared bit for bit (what
// catches -fault=zeros); it reads d_in and ends in d_out
static const sort_method method_onesweep = {"onesweep", 3, run_onesweep, 0, NULL};
