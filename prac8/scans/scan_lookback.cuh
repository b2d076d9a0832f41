/*
 * scans/scan_lookback.cuh -- practical 8, steps 4 and 5 (-kernel=2 and 3): the one-kernel scan, twice across
 * the bus. Its tiles (LB_TILE = 7168 elements) are held in shared memory, 128 threads of 14 rounds per warp; a
 * block takes its tile from an atomic ticket (not blockIdx.x: the order blocks start in is not promised, and
 * a block that waits for a tile nobody has started yet waits for ever), publishes its total at once, scans
 * its tile, and only then looks back: lookback() (scans/s2_lookback.cuh, -kernel=2), lookback_lane() (the
 * same file, step 4a: -kernel=2 -walk=lane, kernel scan_lookback_lane) or lookback_fixed()
 * (scans/s3_lookback_fixed.cuh, -kernel=3). Step 5: each block prefetches the tile `ahead` places on into L2.
 * Tunables (-D on the nvcc line): LB_TILE, LB_UNROLL, LB_MINB.
 */
#include "cp_async.h"

#include "lookback_status.cuh" // FLAG_A, FLAG_P, publish
#include "scan_common.cuh"

// The look-back kernel keeps its tile in shared memory, not in registers. A tile is held from its loads to its
// stores, and most of that time it waits for the tiles before it; what keeps the memory busy meanwhile is how
// many tiles an SM holds: in registers (step 3's 16 per thread, 256 threads) an H100 SM held 6 to 8 tiles of
// 16 KB, in shared memory 7 of 28 KB. Larger tiles are fewer links in the chain of tiles waiting for each
// other, smaller ones more tiles in flight; 7168 elements were the best of the sizes timed once the tiles came
// from L2 (step 5's prefetch). The timings: docs/notes/prac8.md, "The look-back scan: how it got there" and
// "The tile size again".
#define LB_THREADS 128
#ifndef LB_TILE
#define LB_TILE 7168 // 28 KB of floats or ints
#endif
#define LB_WARPS (LB_THREADS / 32)
#define LB_VECS (LB_TILE / 4)                  // 16-byte vectors in a tile
#define LB_ROUNDS (LB_VECS / (32 * LB_WARPS)) // rounds of one vector per lane in each warp's part: 14
static_assert(LB_VECS % LB_THREADS == 0 && LB_VECS % (32 * LB_WARPS) == 0, "whole rounds of 16-byte vectors");
// the tolerances in main() count on these: a tile's tree at most 32 deep, tiles no smaller than step 3's,
// 4 warps (LB_TILE may be set with -D to try another tile)
static_assert(LB_ROUNDS + 14 <= 32 && LB_TILE >= SCAN_TILE && LB_WARPS == 4, "see the tolerance in main()");

#ifndef LB_UNROLL
#define LB_UNROLL 4
#endif
// 7 blocks per SM: what an H100's or H200's 228 KB of shared memory holds at 28 KB per tile (and 1 KB each that
// the system keeps). __launch_bounds__ tells ptxas to leave registers for them (65536 / (7 x 128) = 73 a
// thread; it needs fewer), so that registers never become the limit. The tile was tuned on sm_90 and not
// measured elsewhere: with less shared memory an SM holds fewer of them (5 on an A100's 164 KB, 3 on the
// 100 KB of 8.6, 8.9 and 12.x, 2 on Turing's 64 KB, where 6144 allowed 6, 3 and 2).
#ifndef LB_MINB
#define LB_MINB 7
#endif
static constexpr int lb_unroll = LB_UNROLL;

// the look-back a block does: the decoupled look-back of the course, warp-wide (lookback, -kernel=2) or one
// lane at a time (lookback_lane, step 4a: -kernel=2 -walk=lane), or the deterministic one (lookback_fixed,
// -kernel=3: status words st_a, st_s, st_p in one array, st_s at status + fixed_s, st_p at status + fixed_p)
enum lb_walk { WALK_WARP, WALK_LANE, WALK_FIXED };

// one block's tile, start to end; the kernels below differ only in WALK. LOSE_TILE: -fault=lost_tile, a
// deliberate bug (its own instances, so that the kernels timed carry none of it)
template <typename T, lb_walk WALK, bool LOSE_TILE>
__device__ __forceinline__ void scan_lookback_tile(const T *in, T *out, size_t n, unsigned *ticket,
                                                   unsigned ticket_base, unsigned long long *status, size_t fixed_s,
                                                   size_t fixed_p, unsigned epoch, int *error, unsigned ahead,
                                                   int fault_tile) {
  constexpr bool FIXED = (WALK == WALK_FIXED);
  typedef typename vec4_of<T>::type V;
  __shared__ V s_v[LB_VECS];
  __shared__ T s_warp_total[LB_WARPS], s_warp_offset[LB_WARPS];
  __shared__ T s_tile_prefix;
  __shared__ int s_tile;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  // step 4: tiles are handed out in the order blocks really start, so every tile this block waits for
  // belongs to a block that is already running
  if (threadIdx.x == 0) s_tile = (int)(atomicAdd(ticket, 1u) - ticket_base);
  __syncthreads();
  int tile = s_tile;
  size_t tile_base = (size_t)tile * LB_TILE;
  bool full = tile_base + LB_TILE <= n;

  // the tile into shared memory: coalesced 16-byte copies; past n, zeros (the identity)
  if (full) {
    const V *src = (const V *)(in + tile_base);
#pragma unroll
    for (int r = 0; r < LB_VECS / LB_THREADS; r++)
      copy16_to_shared(&s_v[r * LB_THREADS + threadIdx.x], &src[r * LB_THREADS + threadIdx.x]);
    // step 5: the tile `ahead` places further on into L2 now (sm_90; a hint, see prefetch_to_l2), so that the
    // block that draws it finds it there. Its loads then wait for L2, not for DRAM: the block is over sooner,
    // its A goes out sooner and its successors wait less, while DRAM works on the prefetches however many
    // blocks are waiting. (Issued after this block's own copies, so that it delays none of them.)
    size_t pf = tile_base + (size_t)ahead * LB_TILE;
    if (threadIdx.x == 0 && ahead > 0 && pf + LB_TILE <= n) prefetch_to_l2(in + pf, LB_TILE * sizeof(T));
    cp_async_wait_all();
  } else {
    for (int v = threadIdx.x; v < LB_VECS; v += LB_THREADS) {
      size_t i = tile_base + 4 * (size_t)v;
      V x;
      x.x = (i < n) ? in[i] : (T)0, x.y = (i + 1 < n) ? in[i + 1] : (T)0;
      x.z = (i + 2 < n) ? in[i + 2] : (T)0, x.w = (i + 3 < n) ? in[i + 3] : (T)0;
      s_v[v] = x;
    }
  }
  __syncthreads();

  // (a) each warp's total by a plain reduction (its lanes sum their 4 x LB_ROUNDS elements, then 5 shuffles): far
  // quicker than the scan, so that the tile's total (A) goes out early, before the scan. The tiles after this one
  // wait for that A. (What each order of the work measured: docs/notes/prac8.md, "The look-back scan: how it got
  // there".)
  T part = 0;
#pragma unroll
  for (int r = 0; r < LB_ROUNDS; r++) {
    V a = s_v[(warp * LB_ROUNDS + r) * 32 + lane];
    part += (a.x + a.y) + (a.z + a.w);
  }
#pragma unroll
  for (int d = 16; d > 0; d /= 2) part += __shfl_xor_sync(FULL_MASK, part, d);
  if (lane == 0) s_warp_total[warp] = part;
  __syncthreads();

  // (b) warp 0: the warps' offsets and the tile's total, which goes out at once (A; tile 0's is its P)
  T agg = 0;
  if (warp == 0) {
    T w = (lane < LB_WARPS) ? s_warp_total[lane] : (T)0;
    T incl = warp_inclusive_scan(w, lane);
    T excl_w = __shfl_up_sync(FULL_MASK, incl, 1);
    if (lane < LB_WARPS) s_warp_offset[lane] = (lane == 0) ? (T)0 : excl_w;
    agg = __shfl_sync(FULL_MASK, incl, LB_WARPS - 1);
    // -fault=lost_tile, a deliberate bug for the checks to catch: this tile's total never reaches the tiles
    // after it (its A, and its P, leave it out); its own outputs stay right
    if (LOSE_TILE && tile == fault_tile) agg = 0;
    if (lane == 0) publish(status, tile, epoch, (tile == 0 && !FIXED) ? FLAG_P : FLAG_A, to_bits(agg));
  }

  // (c) every warp scans its part in rounds of 32 vectors, as warp_chunk_scan does in registers, writing each
  // element's exclusive prefix within the part back in place. The rounds' warp scans do not depend on each
  // other (only the carry does), so unrolled they overlap.
  T carry = 0;
#pragma unroll lb_unroll
  for (int r = 0; r < LB_ROUNDS; r++) {
    int v = (warp * LB_ROUNDS + r) * 32 + lane;
    V a = s_v[v];
    T incl = warp_inclusive_scan(((a.x + a.y) + a.z) + a.w, lane);
    T excl = __shfl_up_sync(FULL_MASK, incl, 1);
    if (lane == 0) excl = 0;
    V e;
    T base = carry + excl;
    e.x = base;
    base += a.x;
    e.y = base;
    base += a.y;
    e.z = base;
    base += a.z;
    e.w = base;
    s_v[v] = e;
    carry += __shfl_sync(FULL_MASK, incl, 31);
  }

  // (d) warp 0, only now: the look-back (as radix_sort's onesweep_pass orders it). The tiles before this one
  // have had the time of its scan to publish, so the look-back finds what it needs instead of waiting for it.
  if (warp == 0) {
    T excl = 0;
    if (FIXED) {
      excl = lookback_fixed<T>(status, status + fixed_s, status + fixed_p, tile, agg, epoch, lane, error);
    } else if (tile > 0) {
      if (WALK == WALK_LANE) { // step 4a: lane 0 alone, one tile at a time
        if (lane == 0) excl = lookback_lane<T>(status, tile, epoch, error);
      } else {
        excl = lookback<T>(status, tile, epoch, lane, error);
      }
      if (lane == 0) publish(status, tile, epoch, FLAG_P, to_bits(excl + agg));
    }
    if (lane == 0) s_tile_prefix = excl;
  }
  __syncthreads();

  // out: coalesced 16-byte stores of prefix-before-the-tile + offset-of-the-warp + prefix-within-the-part
  V *dst = (V *)(out + tile_base);
  for (int v = threadIdx.x; v < LB_VECS; v += LB_THREADS) {
    V e = s_v[v];
    T base = s_tile_prefix + s_warp_offset[v / (LB_ROUNDS * 32)];
    e.x += base, e.y += base, e.z += base, e.w += base;
    if (full) {
      __stcs(&dst[v], e); // streaming store: evicted from L2 first, before the prefetched tiles
    } else {
      size_t i = tile_base + 4 * (size_t)v;
      if (i < n) out[i] = e.x;
      if (i + 1 < n) out[i + 1] = e.y;
      if (i + 2 < n) out[i + 2] = e.z;
      if (i + 3 < n) out[i + 3] = e.w;
    }
  }
}

// FIXED: the deterministic look-back (-kernel=3); else the warp-wide decoupled look-back (-kernel=2)
template <typename T, bool FIXED, bool LOSE_TILE>
__global__ void __launch_bounds__(LB_THREADS, LB_MINB)
    scan_lookback(const T *in, T *out, size_t n, unsigned *ticket, unsigned ticket_base,
                  unsigned long long *status, size_t fixed_s, size_t fixed_p, unsigned epoch, int *error,
                  unsigned ahead, int fault_tile) {
  scan_lookback_tile<T, FIXED ? WALK_FIXED : WALK_WARP, LOSE_TILE>(in, out, n, ticket, ticket_base, status, fixed_s,
                                                                   fixed_p, epoch, error, ahead, fault_tile);
}

// step 4a (-kernel=2 -walk=lane): the same kernel with the one-lane walk, a kernel of its own so that the two
// above stay as they are
template <typename T, bool LOSE_TILE>
__global__ void __launch_bounds__(LB_THREADS, LB_MINB)
    scan_lookback_lane(const T *in, T *out, size_t n, unsigned *ticket, unsigned ticket_base,
                       unsigned long long *status, size_t fixed_s, size_t fixed_p, unsigned epoch, int *error,
                       unsigned ahead, int fault_tile) {
  scan_lookback_tile<T, WALK_LANE, LOSE_TILE>(in, out, n, ticket, ticket_base, status, fixed_s, fixed_p, epoch, error,
                                              ahead, fault_tile);
}

// ---- the host side ------------------------------------------------------------------------------

static unsigned num_lb_tiles(size_t n) { return (unsigned)((n + LB_TILE - 1) / LB_TILE); }

// step 4's status words: one per tile, then (the fixed look-back) one per group of 32 tiles and one per supergroup of
// 1024; fixed_s and fixed_p are where the last two parts start
static size_t status_words(unsigned nb) { return (size_t)nb + (nb / 32 + 1) + (nb / 1024 + 1); }

template <typename T, lb_walk WALK, bool LOSE_TILE> static void scan_one(scan_plan *p) {
  unsigned nb = num_lb_tiles(p->n);
  p->epoch = (p->epoch + 1) & 0x3FFFFFFFu; // 30 bits in the status word
  if (p->epoch == 0) { // after 2^30 launches: clear the words so that epoch 1 starts clean
    checkCudaErrors(cudaMemsetAsync(p->d_status, 0, sizeof(unsigned long long) * status_words(nb)));
    p->epoch = 1;
  }
  size_t fixed_s = nb, fixed_p = (size_t)nb + nb / 32 + 1;
  if (WALK == WALK_LANE) {
    scan_lookback_lane<T, LOSE_TILE><<<nb, LB_THREADS>>>((const T *)p->d_in, (T *)p->d_out, p->n, p->d_ticket,
                                                         p->ticket_base, p->d_status, fixed_s, fixed_p, p->epoch,
                                                         p->d_error, p->ahead, p->fault_tile);
    getLastCudaError("scan_lookback_lane execution failed");
  } else {
    scan_lookback<T, WALK == WALK_FIXED, LOSE_TILE><<<nb, LB_THREADS>>>(
        (const T *)p->d_in, (T *)p->d_out, p->n, p->d_ticket, p->ticket_base, p->d_status, fixed_s, fixed_p, p->epoch,
        p->d_error, p->ahead, p->fault_tile);
    getLastCudaError("scan_lookback execution failed");
  }
  p->ticket_base += nb; // the counter is never reset: the next launch's tiles start where these ended
}

// the element type, and -fault=lost_tile (fault_tile >= 0: the instances with the bug)
template <lb_walk WALK> static void scan_walk(scan_plan *p) {
  if (p->fault_tile >= 0)
    p->is_int ? scan_one<int, WALK, true>(p) : scan_one<float, WALK, true>(p);
  else
    p->is_int ? scan_one<int, WALK, false>(p) : scan_one<float, WALK, false>(p);
}

static void run_lookback(void *arg) { scan_walk<WALK_WARP>((scan_plan *)arg); }
static void run_lookback_lane(void *arg) { scan_walk<WALK_LANE>((scan_plan *)arg); } // step 4a
static void run_lookback_fixed(void *arg) { scan_walk<WALK_FIXED>((scan_plan *)arg); }
