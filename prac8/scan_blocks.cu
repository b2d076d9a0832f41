/*
 * scan_blocks.cu -- practical 8, steps 3 to 5: an exclusive scan of any number of elements with many thread
 * blocks, both ways of lecture 4, and CUB's scan beside them on the same arrays.
 *
 * Step 3's blocks each scan one tile of SCAN_TILE = 4096 elements (step 4's kernels: see LB_TILE): each
 * thread sums four consecutive elements, a warp scans its 32 thread sums with __shfl_up_sync (four rounds
 * of 128 elements make a warp's 512), and one warp
 * scans the 8 warp totals (step 2's two levels). What differs is how a tile learns the sum of everything
 * before it:
 *   -kernel=1  scan_three (step 3): three kernels. scan_tiles scans each tile and writes its total to
 *              sums[]; sums[] is scanned by the same code (recursively: 2^28 elements give 65536 sums,
 *              then 16, then 1); add_tile_offsets adds sums[tile] to every element of the tile. The data
 *              cross the memory bus four times.
 *   -kernel=2  scan_lookback (step 4): one kernel, twice across the bus. A block takes its tile from an
 *              atomic ticket (not blockIdx.x: the order blocks start in is not promised, and a block that
 *              waits for a tile nobody has started yet waits for ever), publishes its total at once
 *              (flag A), looks back over its predecessors' published values until it meets an inclusive
 *              prefix (flag P), and publishes its own inclusive prefix (decoupled look-back). Its tiles are
 *              7168 elements held in shared memory (128 threads, 14 rounds a warp; see LB_TILE for why).
 *   -kernel=3  scan_lookback_fixed (step 4, deterministic): the same kernel with a look-back that adds the
 *              same values in the same order on every run (groups of 32 tiles, supergroups of 1024; see
 *              lookback_fixed), so that random floats give the same bits every time.
 *   -kernel=0  cub::DeviceScan::ExclusiveSum, temporary storage allocated once.
 * Default: all four, each checked against scan_gold.
 *
 * Inputs: whole-number floats whose total stays below 2^24 (every partial sum exact: checked bit for bit),
 * -int (ints, exact), or -random (floats in [0,1): a tolerance from N, see below). -repeat=K runs the
 * look-back kernels (2 and 3, or the one chosen) K times and compares every output with the first, bit for
 * bit. -bench times each kernel
 * and CUB against a device-to-device copy of the same bytes, in this run.
 *   nvcc -O3 -arch=sm_90 -I../common scan_blocks.cu prac8_gold.c -o scan_blocks
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_scan.cuh>

#include "args.h"
#include "cp_async.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac8_gold.h"

// a tile: SCAN_THREADS threads of SCAN_ITEMS elements (four 16-byte vectors) each
#define SCAN_THREADS 256 // 8 warps: the warp totals fit one warp's scan with room to spare
#define SCAN_ITEMS 16    // 64 bytes in flight a thread: enough loads outstanding to fill the memory pipe
#define SCAN_TILE (SCAN_THREADS * SCAN_ITEMS)
#define SCAN_WARPS (SCAN_THREADS / 32)
static_assert(SCAN_ITEMS == 16, "the loads are four rounds of one 16-byte vector a thread");
static_assert(SCAN_WARPS <= 32, "one warp scans the warp totals");

// the largest N: 2^29 elements (2 GiB an array; the gold needs 4 GiB more on the host)
#define MAX_N (1LL << 29)

// a look-back that spins this many times without news has met a bug (a predecessor that never
// publishes): it gives up and reports it, rather than hang the GPU
#define SPIN_LIMIT (1 << 24)

#define FULL_MASK 0xffffffffu

template <typename T> struct vec4_of;
template <> struct vec4_of<float> { typedef float4 type; };
template <> struct vec4_of<int> { typedef int4 type; };

// the bits of a 32-bit value, for the status words
__device__ __forceinline__ unsigned to_bits(float x) { return __float_as_uint(x); }
__device__ __forceinline__ unsigned to_bits(int x) { return (unsigned)x; }
template <typename T> __device__ __forceinline__ T from_bits(unsigned b);
template <> __device__ __forceinline__ float from_bits<float>(unsigned b) { return __uint_as_float(b); }
template <> __device__ __forceinline__ int from_bits<int>(unsigned b) { return (int)b; }

// ---- one tile of step 3 -----------------------------------------------------------------------

// Who holds what: warp w owns elements [512 w, 512 w + 512) of the tile, in four rounds of 128; in round r
// lane l holds the four consecutive elements 512 w + 128 r + 4 l ... + 3, so each round is one coalesced
// 512-byte load per warp. Past n the elements are 0, the identity.
template <typename T>
__device__ __forceinline__ void load_tile(const T *in, size_t n, size_t tile_base, int warp, int lane,
                                          T x[SCAN_ITEMS]) {
  typedef typename vec4_of<T>::type V;
#pragma unroll
  for (int r = 0; r < 4; r++) {
    size_t i = tile_base + (size_t)warp * (32 * SCAN_ITEMS) + 128 * r + 4 * lane;
    if (i + 3 < n) {
      V v = *(const V *)(in + i);
      x[4 * r] = v.x, x[4 * r + 1] = v.y, x[4 * r + 2] = v.z, x[4 * r + 3] = v.w;
    } else {
#pragma unroll
      for (int j = 0; j < 4; j++) x[4 * r + j] = (i + j < n) ? in[i + j] : (T)0;
    }
  }
}

template <typename T>
__device__ __forceinline__ void store_tile(T *out, size_t n, size_t tile_base, int warp, int lane,
                                           const T x[SCAN_ITEMS]) {
  typedef typename vec4_of<T>::type V;
#pragma unroll
  for (int r = 0; r < 4; r++) {
    size_t i = tile_base + (size_t)warp * (32 * SCAN_ITEMS) + 128 * r + 4 * lane;
    if (i + 3 < n) {
      V v;
      v.x = x[4 * r], v.y = x[4 * r + 1], v.z = x[4 * r + 2], v.w = x[4 * r + 3];
      *(V *)(out + i) = v;
    } else {
#pragma unroll
      for (int j = 0; j < 4; j++)
        if (i + j < n) out[i + j] = x[4 * r + j];
    }
  }
}

// inclusive scan of one value a lane across the warp, in 5 steps
template <typename T> __device__ __forceinline__ T warp_inclusive_scan(T v, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    T t = __shfl_up_sync(FULL_MASK, v, d);
    if (lane >= d) v += t;
  }
  return v;
}

// The warp's 512 elements: x[] becomes each element's exclusive prefix within the warp's chunk; returns
// the chunk's total (in every lane).
template <typename T> __device__ __forceinline__ T warp_chunk_scan(T x[SCAN_ITEMS], int lane) {
  T carry = 0; // the total of the rounds before this one
#pragma unroll
  for (int r = 0; r < 4; r++) {
    T a0 = x[4 * r], a1 = x[4 * r + 1], a2 = x[4 * r + 2], a3 = x[4 * r + 3];
    T incl = warp_inclusive_scan(((a0 + a1) + a2) + a3, lane);
    T excl = __shfl_up_sync(FULL_MASK, incl, 1); // my left neighbour's inclusive sum
    if (lane == 0) excl = 0;
    T base = carry + excl;
    x[4 * r] = base;
    base += a0;
    x[4 * r + 1] = base;
    base += a1;
    x[4 * r + 2] = base;
    base += a2;
    x[4 * r + 3] = base;
    carry += __shfl_sync(FULL_MASK, incl, 31);
  }
  return carry;
}

// The whole tile, up to the point where it needs the sum of the tiles before it: x[] holds the prefixes
// within the warp's chunk, s_warp_offset[] each warp's exclusive offset within the tile; returns the tile's
// total in warp 0 (all lanes). The caller synchronises before it reads s_warp_offset.
template <typename T>
__device__ __forceinline__ T block_scan_tile(T x[SCAN_ITEMS], T *s_warp_offset, int warp, int lane) {
  __shared__ T s_warp_total[SCAN_WARPS];
  T total = warp_chunk_scan(x, lane);
  if (lane == 0) s_warp_total[warp] = total;
  __syncthreads();
  T agg = 0;
  if (warp == 0) {
    T w = (lane < SCAN_WARPS) ? s_warp_total[lane] : (T)0;
    T incl = warp_inclusive_scan(w, lane);
    T excl = __shfl_up_sync(FULL_MASK, incl, 1);
    if (lane < SCAN_WARPS) s_warp_offset[lane] = (lane == 0) ? (T)0 : excl;
    agg = __shfl_sync(FULL_MASK, incl, SCAN_WARPS - 1);
  }
  return agg;
}

// ---- step 3: three kernels ----------------------------------------------------------------------

// each block scans its own tile (blockIdx.x is fine here: nobody waits for anybody) and writes its total
template <typename T> __global__ void scan_tiles(const T *in, T *out, size_t n, T *sums) {
  __shared__ T s_warp_offset[SCAN_WARPS];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  size_t tile_base = (size_t)blockIdx.x * SCAN_TILE;
  T x[SCAN_ITEMS];
  load_tile(in, n, tile_base, warp, lane, x);
  T agg = block_scan_tile(x, s_warp_offset, warp, lane);
  if (threadIdx.x == 0 && sums) sums[blockIdx.x] = agg;
  __syncthreads();
  T base = s_warp_offset[warp];
#pragma unroll
  for (int k = 0; k < SCAN_ITEMS; k++) x[k] = base + x[k];
  store_tile(out, n, tile_base, warp, lane, x);
}

// add the scanned total of the tiles before this one to every element of the tile
template <typename T> __global__ void add_tile_offsets(T *out, size_t n, const T *sums) {
  typedef typename vec4_of<T>::type V;
  T base = sums[blockIdx.x];
  size_t tile_base = (size_t)blockIdx.x * SCAN_TILE;
#pragma unroll
  for (int r = 0; r < SCAN_ITEMS / 4; r++) {
    size_t i = tile_base + 4 * ((size_t)r * SCAN_THREADS + threadIdx.x);
    if (i + 3 < n) {
      V v = *(V *)(out + i);
      v.x += base, v.y += base, v.z += base, v.w += base;
      *(V *)(out + i) = v;
    } else {
      for (int j = 0; j < 4; j++)
        if (i + j < n) out[i + j] += base;
    }
  }
}

// ---- step 4: one kernel, decoupled look-back ----------------------------------------------------

// A tile's status is one 64-bit word, written and read whole (so a reader never sees a flag without its
// value): the high half is (epoch << 2 | flag), the low half the value's bits. The epoch is the launch's
// number, so that words left by the previous launch read as "nothing yet" without clearing the array.
#define FLAG_A 1u // the tile's own total (its aggregate) is published
#define FLAG_P 2u // the tile's inclusive prefix (everything up to and including it) is published

__device__ __forceinline__ void publish(unsigned long long *status, int tile, unsigned epoch, unsigned flag,
                                        unsigned bits) {
  unsigned long long w = ((unsigned long long)((epoch << 2) | flag) << 32) | bits;
  *(volatile unsigned long long *)&status[tile] = w; // one 8-byte store: flag and value arrive together
}

// has this status word been published in this launch?
__device__ __forceinline__ bool published(unsigned long long w, unsigned epoch) {
  unsigned hi = (unsigned)(w >> 32);
  return (hi >> 2) == epoch && (hi & 3u);
}

// Warp 0 finds the sum of every tile before `tile`. Lane l looks at tile - 1 - l, 32 predecessors at a
// time: each lane waits until its tile has published something; then the lanes up to the nearest P are
// summed (A values of the tiles in between, then the P), and if there was no P the warp moves 32 tiles
// further back. Tiles before 0 count as P with value 0.
template <typename T>
__device__ T lookback(unsigned long long *status, int tile, unsigned epoch, int lane, int *error) {
  T excl = 0;
  for (int pred = tile - 1;; pred -= 32) {
    int idx = pred - lane;
    unsigned flag = FLAG_P, bits = 0;
    if (idx >= 0) {
      for (int spins = 0;; spins++) {
        unsigned long long w = *(volatile unsigned long long *)&status[idx];
        if (published(w, epoch)) {
          flag = (unsigned)(w >> 32) & 3u;
          bits = (unsigned)w;
          break;
        }
        if (spins == SPIN_LIMIT) { // never in a correct program: report it instead of hanging
          atomicExch(error, 1);
          break;
        }
        __nanosleep(64); // not yet: wait a little before asking again, leaving the memory system to the loads
      }
    }
    unsigned pmask = __ballot_sync(FULL_MASK, flag == FLAG_P);
    int stop = pmask ? __ffs(pmask) - 1 : 31; // the nearest P, or all 32 lanes if none
    T v = (lane <= stop) ? from_bits<T>(bits) : (T)0;
#pragma unroll
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(FULL_MASK, v, d);
    excl += v;
    if (pmask) return excl;
  }
}

// ---- step 4, deterministic: the same prefix, whichever tiles have finished ----------------------------
//
// With random floats, lookback() can return different sums for the same tile on two runs: where it meets
// its first P depends on timing, and float addition is not associative, so the last bit changes. Here every
// sum a tile uses has one fixed shape. Tiles come in groups of 32 and supergroups of 32 groups (1024 tiles):
//   A(t)  the tile's total, published at once (as before);
//   S(g)  the total of group g: the fixed sum (fixed_sum, below) of its 32 A's, published by its last tile;
//   P(h)  everything up to the end of supergroup h: P(h-1) + the fixed sum of its 32 S's, published by its
//         last tile (the only chain, one link every 1024 tiles).
// Tile t = 1024 h + 32 gi + l then takes  (P(h-1) + fixed sum of S(32 h .. 32 h + gi - 1))
//                                          + fixed sum of A(32 g .. 32 g + l - 1):
// the same operations on the same values every run, so the same bits. It waits for more than the decoupled
// look-back does: every tile in its group before it (the A's) and, through S, every tile in its supergroup. An
// S goes out only when the group's last tile reaches its look-back, after its own scan, so the next group's
// tiles, which reach theirs soon after, wait for it. Measured on an H200 at 2^28 (tiles of 8192, both kernels
// prefetching as in step 5): kernel 3 at 87.7 % of the copy, the decoupled look-back at 90.2 %, and kernel 3
// made to wait for the A's alone (wrong sums, for timing only) at 93.7 %.

// the sum over the warp of one value a lane, always in the same order (a tree over the lanes), lane 0's result
// in every lane
template <typename T> __device__ __forceinline__ T fixed_sum(T v) {
#pragma unroll
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(FULL_MASK, v, d);
  return __shfl_sync(FULL_MASK, v, 0);
}

// warp 0 of tile `tile` (whose total is agg, its A already published): publishes S and P where it must;
// returns the sum of all the tiles before it. Every word it needs (lane j: A(32 g + j) and S(32 h + j); lane 0:
// P(h - 1)) is asked for in the same pass, and again only where the answer was "not yet": one round trip to
// L2 when all have been published, not one for the A's, one for the S's and one for the P in turn.
template <typename T>
__device__ T lookback_fixed(unsigned long long *st_a, unsigned long long *st_s, unsigned long long *st_p, int tile,
                            T agg, unsigned epoch, int lane, int *error) {
  int l = tile & 31, g = tile >> 5, gi = g & 31, h = tile >> 10;
  bool need_a = lane < l, need_s = lane < gi, need_p = lane == 0 && h > 0;
  unsigned long long wa = 0, ws = 0, wp = 0;
  bool ok_a = !need_a, ok_s = !need_s, ok_p = !need_p;
  bool s_done = (l != 31); // only a group's last tile publishes S
  T s_mine = 0;
  for (int spins = 0;; spins++) {
    if (!ok_a) ok_a = published(wa = *(const volatile unsigned long long *)&st_a[32 * g + lane], epoch);
    if (!ok_s) ok_s = published(ws = *(const volatile unsigned long long *)&st_s[32 * h + lane], epoch);
    if (!ok_p) ok_p = published(wp = *(const volatile unsigned long long *)&st_p[h - 1], epoch);
    // the group's last tile publishes S(g) as soon as the group's A's are in, without waiting for the S's
    if (!s_done && __all_sync(FULL_MASK, ok_a)) {
      T a = (lane < l) ? from_bits<T>((unsigned)wa) : (lane == l) ? agg : (T)0;
      s_mine = fixed_sum(a);
      if (lane == 0) publish(st_s, g, epoch, FLAG_A, to_bits(s_mine));
      s_done = true;
    }
    if (__all_sync(FULL_MASK, ok_a && ok_s && ok_p)) break;
    if (spins == SPIN_LIMIT) { // never in a correct program: report it instead of hanging
      atomicExch(error, 1);
      break;
    }
    __nanosleep(64);
  }
  T a_before = fixed_sum((lane < l) ? from_bits<T>((unsigned)wa) : (T)0); // A(32 g .. 32 g + l - 1)
  T sg = (lane < gi) ? from_bits<T>((unsigned)ws) : (T)0;                 // S(32 h .. 32 h + gi - 1)
  T s_before = fixed_sum(sg);
  T p = (h > 0) ? __shfl_sync(FULL_MASK, from_bits<T>((unsigned)wp), 0) : (T)0; // P(h - 1)
  if (l == 31 && gi == 31) { // the supergroup's last tile: P(h)
    T q = fixed_sum((lane == 31) ? s_mine : sg);
    if (lane == 0) publish(st_p, h, epoch, FLAG_P, to_bits(p + q));
  }
  return (p + s_before) + a_before;
}

// The look-back kernel keeps its tile in shared memory, not in registers. A tile is held from its loads to its
// stores, and most of that time it waits for the tiles before it; what keeps the memory busy meanwhile is how
// many tiles an SM holds. In registers (step 3's 16 a thread, 256 threads) an H100 SM held 6 to 8 tiles of
// 16 KB, 96-128 KB (the earlier version of this kernel: 32 registers for floats, 36 for ints, CUDA 13.0); in
// shared memory (24 KB a block, 128 threads) it held 9 tiles of 24 KB, 216 KB: 0.933 ms in registers, 0.818
// ms in shared memory (make bench at 2^28 on an H100, floats). Later, with the work in the order below, 6
// tiles of 32 KB an SM (192 KB) beat 9 of 24 KB on both GPUs (% of the copy at 2^28, floats, look-back and
// fixed look-back): H100 89.5 / 90.3 -> 90.2 / 92.0, H200 81.3 / 82.1 -> 82.3 / 83.4. A quarter fewer tiles
// is a quarter fewer links in the chain of tiles waiting for each other; tiles of 20 KB were slower. Once the
// tiles came from L2 (step 5's prefetch), 7 tiles of 28 KB beat 6 of 32 KB on the H200 (2^28, floats, both
// look-backs: 89.8 / 86.8 -> 90.4 / 87.4 % of the copy) and tied on the H100 (97.0 / 95.5 -> 97.2 / 96.0).
#define LB_THREADS 128
#ifndef LB_TILE
#define LB_TILE 7168 // 28 KB of floats or ints
#endif
#define LB_WARPS (LB_THREADS / 32)
#define LB_VECS (LB_TILE / 4)                  // 16-byte vectors in a tile
#define LB_ROUNDS (LB_VECS / (32 * LB_WARPS)) // rounds of one vector a lane in each warp's part: 14
static_assert(LB_VECS % LB_THREADS == 0 && LB_VECS % (32 * LB_WARPS) == 0, "whole rounds of 16-byte vectors");
// the tolerances in main() count on these: a tile's tree at most 32 deep, tiles no smaller than step 3's,
// 4 warps (LB_TILE may be set with -D to try another tile)
static_assert(LB_ROUNDS + 14 <= 32 && LB_TILE >= SCAN_TILE && LB_WARPS == 4, "see the tolerance in main()");

#ifndef LB_UNROLL
#define LB_UNROLL 4
#endif
// 7 blocks an SM: what an H100's or H200's 228 KB of shared memory holds at 28 KB a tile (and 1 KB each that
// the system keeps). __launch_bounds__ tells ptxas to leave registers for them (65536 / (7 x 128) = 73 a
// thread; it needs fewer), so that registers never become the limit. The tile was tuned on sm_90 and not
// measured elsewhere: with less shared memory an SM holds fewer of them (5 on an A100's 164 KB, 3 on the
// 100 KB of 8.6, 8.9 and 12.x, 2 on Turing's 64 KB, where 6144 allowed 6, 3 and 2).
#ifndef LB_MINB
#define LB_MINB 7
#endif
static constexpr int lb_unroll = LB_UNROLL;
// FIXED: the deterministic look-back (lookback_fixed, status words st_a, st_s, st_p in one array: st_s at
// status + fixed_s, st_p at status + fixed_p); else the decoupled look-back of the course
template <typename T, bool FIXED>
__global__ void __launch_bounds__(LB_THREADS, LB_MINB)
    scan_lookback(const T *in, T *out, size_t n, unsigned *ticket, unsigned ticket_base,
                  unsigned long long *status, size_t fixed_s, size_t fixed_p, unsigned epoch, int *error,
                  unsigned ahead) {
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
  // wait for that A. Measured at 2^28 on an H100 (floats), with make bench: A after the scan, about 0.84 ms; A first
  // and the look-back before the scan, 0.818 ms; A first and the look-back after the scan (below), 0.798 ms, and
  // 0.792 ms with the fixed look-back.
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
      excl = lookback<T>(status, tile, epoch, lane, error);
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

// ---- the host side ------------------------------------------------------------------------------

static unsigned num_tiles(size_t n) { return (unsigned)((n + SCAN_TILE - 1) / SCAN_TILE); }
static unsigned num_lb_tiles(size_t n) { return (unsigned)((n + LB_TILE - 1) / LB_TILE); }

// everything the four methods need, made once (the timed calls allocate nothing)
typedef struct {
  size_t n;
  int is_int;
  void *d_in, *d_out;
  void *d_sums[8]; // step 3: the tile totals of each level of the recursion
  unsigned *d_ticket;
  unsigned long long *d_status;
  int *d_error;
  unsigned epoch, ticket_base; // step 4: this launch's epoch, and the ticket its first block will draw
  unsigned ahead;              // step 5: how many tiles ahead a block prefetches into L2 (0: none)
  void *d_cub_temp;
  size_t cub_temp_bytes;
} scan_plan;

// step 3: scan tiles, scan their totals (the same three kernels, one level down), add them back
template <typename T> static void scan_three(const T *d_in, T *d_out, size_t n, void *const *d_sums, int level) {
  unsigned nb = num_tiles(n);
  T *sums = (nb > 1) ? (T *)d_sums[level] : NULL;
  scan_tiles<T><<<nb, SCAN_THREADS>>>(d_in, d_out, n, sums);
  getLastCudaError("scan_tiles execution failed");
  if (nb > 1) {
    scan_three<T>(sums, sums, nb, d_sums, level + 1); // in place: each thread reads its elements first
    add_tile_offsets<T><<<nb, SCAN_THREADS>>>(d_out, n, sums);
    getLastCudaError("add_tile_offsets execution failed");
  }
}

// step 4's status words: one a tile, then (the fixed look-back) one a group of 32 tiles and one a supergroup of
// 1024; fixed_s and fixed_p are where the last two parts start
static size_t status_words(unsigned nb) { return (size_t)nb + (nb / 32 + 1) + (nb / 1024 + 1); }

template <typename T, bool FIXED> static void scan_one(scan_plan *p) {
  unsigned nb = num_lb_tiles(p->n);
  p->epoch = (p->epoch + 1) & 0x3FFFFFFFu; // 30 bits in the status word
  if (p->epoch == 0) { // after 2^30 launches: clear the words so that epoch 1 starts clean
    checkCudaErrors(cudaMemsetAsync(p->d_status, 0, sizeof(unsigned long long) * status_words(nb)));
    p->epoch = 1;
  }
  size_t fixed_s = nb, fixed_p = (size_t)nb + nb / 32 + 1;
  scan_lookback<T, FIXED><<<nb, LB_THREADS>>>((const T *)p->d_in, (T *)p->d_out, p->n, p->d_ticket,
                                                p->ticket_base, p->d_status, fixed_s, fixed_p, p->epoch, p->d_error,
                                                p->ahead);
  getLastCudaError("scan_lookback execution failed");
  p->ticket_base += nb; // the counter is never reset: the next launch's tiles start where these ended
}

static void run_three(void *arg) {
  scan_plan *p = (scan_plan *)arg;
  if (p->is_int)
    scan_three<int>((const int *)p->d_in, (int *)p->d_out, p->n, p->d_sums, 0);
  else
    scan_three<float>((const float *)p->d_in, (float *)p->d_out, p->n, p->d_sums, 0);
}

static void run_lookback(void *arg) {
  scan_plan *p = (scan_plan *)arg;
  if (p->is_int)
    scan_one<int, false>(p);
  else
    scan_one<float, false>(p);
}

static void run_lookback_fixed(void *arg) {
  scan_plan *p = (scan_plan *)arg;
  if (p->is_int)
    scan_one<int, true>(p);
  else
    scan_one<float, true>(p);
}

static void run_cub(void *arg) {
  scan_plan *p = (scan_plan *)arg;
  if (p->is_int)
    checkCudaErrors(cub::DeviceScan::ExclusiveSum(p->d_cub_temp, p->cub_temp_bytes, (const int *)p->d_in,
                                                  (int *)p->d_out, (long long)p->n));
  else
    checkCudaErrors(cub::DeviceScan::ExclusiveSum(p->d_cub_temp, p->cub_temp_bytes, (const float *)p->d_in,
                                                  (float *)p->d_out, (long long)p->n));
}

static const char *method_name[4] = {"cub_scan", "scan_three", "scan_lookback", "scan_lookback_fixed"};
static const timed_fn method_fn[4] = {run_cub, run_three, run_lookback, run_lookback_fixed};

int main(int argc, char **argv) {
  long long n = 1 << 24;
  int kernel = -1, use_int = 0, random = 0, repeat = 0, bench = 0, reps = 20, seed = 1, ahead = -1;
  arg_spec opts[] = {
      {"n", ARG_LONG, &n, 1, (double)MAX_N, "number of elements"},
      {"kernel", ARG_INT, &kernel, -1, 3, "0 CUB, 1 three kernels, 2 look-back, 3 fixed look-back; -1 all four"},
      {"int", ARG_FLAG, &use_int, 0, 1, "scan ints instead of whole-number floats"},
      {"random", ARG_FLAG, &random, 0, 1, "random floats in [0,1) (checked to a tolerance) instead"},
      {"repeat", ARG_INT, &repeat, 0, 1000, "run the look-back kernel(s) this many times more: identical output?"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time each method and a device-to-device copy; BENCH lines"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is used)"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed of the input"},
      {"ahead", ARG_INT, &ahead, -1, 1 << 20, "kernels 2, 3: tiles prefetched ahead into L2 (-1: an eighth of L2)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if (use_int && random) args_fail("-int and -random exclude each other");
  int dev = findCudaDevice(argc, argv);

  size_t N = (size_t)n, bytes = N * 4;
  unsigned nb = num_tiles(N);
  device_memory_check(2 * bytes + bytes / 1000 + (bench ? 2 * bytes : 0) + (64 << 20),
                      bench ? "in, out, the copy test's buffers and the workspace" : "in, out and the workspace",
                      args_given(argc, argv, "n"));
  printf("Scan of %zu %s, %u tiles of %d\n", N, use_int ? "ints" : random ? "random floats" : "whole-number floats",
         nb, SCAN_TILE);

  // the input, and the gold
  void *h_in = malloc(bytes), *h_out = malloc(bytes), *h_first = repeat ? malloc(bytes) : NULL;
  void *h_gold = malloc(use_int ? bytes : N * sizeof(double));
  if (!h_in || !h_out || !h_gold || (repeat && !h_first)) return result_fail("out of host memory");
  if (use_int) { // 0..k with k * N < 2^31: no partial sum overflows
    unsigned k = (unsigned)((2147483647LL / n) < 1000 ? 2147483647LL / n : 1000);
    for (size_t i = 0; i < N; i++) ((int *)h_in)[i] = (int)(prac8_hash(i, seed) % (k + 1));
  } else if (random) { // multiples of 2^-24 in [0,1)
    for (size_t i = 0; i < N; i++) ((float *)h_in)[i] = (float)(prac8_hash(i, seed) >> 8) * (1.0f / 16777216.0f);
  } else { // whole numbers with a total below 2^24: 0..k with k * N < 2^24, or 0/1 with 1 about 2^23 / N of the time
    long long k = ((1LL << 24) - 1) / n;
    // (needed only when k = 0, that is n >= 2^24, where it is below 2^32: a larger double cast to unsigned is UB)
    unsigned threshold = (k >= 1) ? 0u : (unsigned)((double)(1u << 23) / (double)n * 4294967296.0);
    double total = 0.0;
    for (size_t i = 0; i < N; i++) {
      unsigned h = prac8_hash(i, seed);
      float v = (k >= 1) ? (float)(h % ((k < 1000 ? k : 1000) + 1)) : (h < threshold ? 1.0f : 0.0f);
      ((float *)h_in)[i] = v;
      total += v;
    }
    if (total >= 16777216.0) return result_fail("the input's total %.0f is not below 2^24: try another -seed", total);
  }
  double t0 = wall_ms();
  if (use_int)
    scan_gold_int((int *)h_gold, (const int *)h_in, N);
  else
    scan_gold((double *)h_gold, (const float *)h_in, N);
  printf("scan_gold: %.1f ms\n", wall_ms() - t0);

  // Tolerance. Whole numbers and ints: every sum is exact, so 0. Random floats: each output is a sum of
  // non-negative floats added in some tree of depth D, so its relative error is at most D u / (1 - D u)
  // (u = 2^-24). Within a 4096-element tile D <= 4 + 5 + 4 + 3 + 1; within a look-back tile of LB_TILE (R =
  // LB_ROUNDS = 14 rounds a warp) an element's prefix within its warp's part has D <= 3 + 5 + R + 1 + 3, the
  // warp's offset (a reduction, then a scan of 4) D <= 2 + R + 5 + 2, and two more adds join them:
  // D <= R + 14 = 28.
  //   The decoupled look-back adds at most 6 roundings a tile it passes on its way back to a P, and the chain
  // of P's can pass through every tile: D <= 32 + 8 nb (nb tiles of 4096, more than there are of LB_TILE)
  // covers CUB's look-back and the three kernels as well (D <= 32 a level).
  //   The fixed look-back (kernel 3) has a tree that does not grow with the chain: the A's 5, the S's 5 + 5,
  // P(h) one more than P(h-1) and 10, two adds: D <= (R + 14) + 2 + 11 + nbl / 1024 (nbl tiles of LB_TILE).
  // At 2^28 that is 4.6e-6 rather than the decoupled bound's 3.2e-2, tight enough that a lost tile near the
  // end (a relative error of about LB_TILE / N) cannot pass.
  double rtol = 0.0, rtol_fixed = 0.0;
  if (random) {
    double u = 1.0 / 16777216.0, D = 32.0 + 8.0 * nb;
    double D_fixed = (LB_ROUNDS + 27.0) + (double)(num_lb_tiles(N) / 1024);
    rtol = D * u / (1.0 - D * u);
    rtol_fixed = D_fixed * u / (1.0 - D_fixed * u);
  }

  // device arrays and the workspace of each method, made once
  scan_plan p;
  memset(&p, 0, sizeof(p));
  p.n = N;
  p.is_int = use_int;
  if (ahead < 0) { // an eighth of L2 ahead (step 5: 274 tiles of 28 KB on an H200's 60 MB, 228 on an H100's 50 MB)
    ahead = (int)(l2_cache_bytes(dev) / 8 / (LB_TILE * 4));
  }
  p.ahead = (unsigned)ahead;
  checkCudaErrors(cudaMalloc(&p.d_in, bytes));
  checkCudaErrors(cudaMalloc(&p.d_out, bytes));
  checkCudaErrors(cudaMemcpy(p.d_in, h_in, bytes, cudaMemcpyHostToDevice));
  size_t m = N;
  for (int level = 0; num_tiles(m) > 1; level++) { // step 3: one array of tile totals a level
    m = num_tiles(m);
    checkCudaErrors(cudaMalloc(&p.d_sums[level], m * 4));
  }
  checkCudaErrors(cudaMalloc((void **)&p.d_ticket, sizeof(unsigned)));
  checkCudaErrors(cudaMemset(p.d_ticket, 0, sizeof(unsigned)));
  size_t nwords = status_words(num_lb_tiles(N)); // step 4's status words
  checkCudaErrors(cudaMalloc((void **)&p.d_status, sizeof(unsigned long long) * nwords));
  checkCudaErrors(cudaMemset(p.d_status, 0, sizeof(unsigned long long) * nwords)); // epoch 0: nothing published
  checkCudaErrors(cudaMalloc((void **)&p.d_error, sizeof(int)));
  checkCudaErrors(cudaMemset(p.d_error, 0, sizeof(int)));
  run_cub(&p); // the first call only asks for the size of CUB's temporary storage
  checkCudaErrors(cudaMalloc(&p.d_cub_temp, p.cub_temp_bytes));

  int first = (kernel < 0) ? 0 : kernel, last = (kernel < 0) ? 3 : kernel;
  size_t nbad_all = 0;
  gold_stats st;
  for (int k = first; k <= last; k++) {
    checkCudaErrors(cudaMemset(p.d_out, 0xff, bytes)); // poison: NaN (floats), -1 (ints)
    event_timer t = event_timer_start();
    method_fn[k](&p);
    float ms = event_timer_stop(&t);
    checkCudaErrors(cudaMemcpy(h_out, p.d_out, bytes, cudaMemcpyDeviceToHost));
    int err = 0;
    checkCudaErrors(cudaMemcpy(&err, p.d_error, sizeof(int), cudaMemcpyDeviceToHost));
    if (err) return result_fail("%s: a look-back waited %d times for a tile that never published", method_name[k],
                                SPIN_LIMIT);
    if (use_int)
      compare_int((const int *)h_out, (const int *)h_gold, N, &st);
    else
      compare_float_double((const float *)h_out, (const double *)h_gold, N, 0.0, (k == 3) ? rtol_fixed : rtol, &st);
    printf("%s: %.3f ms (first call), rms scan error = %f\n", method_name[k], ms, st.rms_err);
    gold_report(method_name[k], &st);
    nbad_all += st.nbad;
  }

  // step 4: the look-back kernels again and again; whatever order their blocks run in, the output must not
  // change where the arithmetic is exact. With -random the sum a tile gets from lookback() depends on how far
  // back it had to look (which tiles were P yet), so the last bit may differ between runs: counted, not
  // failed. lookback_fixed adds the same values in the same order every time: it must never differ.
  int differ[4] = {0, 0, 0, 0};
  for (int k = 2; k <= 3 && repeat; k++) {
    if (kernel >= 0 && kernel != k) continue;
    checkCudaErrors(cudaMemset(p.d_out, 0xff, bytes));
    method_fn[k](&p);
    checkCudaErrors(cudaMemcpy(h_first, p.d_out, bytes, cudaMemcpyDeviceToHost));
    for (int r = 0; r < repeat; r++) {
      checkCudaErrors(cudaMemset(p.d_out, 0xff, bytes));
      method_fn[k](&p);
      checkCudaErrors(cudaMemcpy(h_out, p.d_out, bytes, cudaMemcpyDeviceToHost));
      if (memcmp(h_out, h_first, bytes) != 0) differ[k]++;
    }
    int err = 0;
    checkCudaErrors(cudaMemcpy(&err, p.d_error, sizeof(int), cudaMemcpyDeviceToHost));
    if (err) return result_fail("%s: a look-back waited %d times for a tile that never published", method_name[k],
                                SPIN_LIMIT);
    printf("%s repeated %d more times: %d output%s differ from the first%s\n", method_name[k], repeat, differ[k],
           differ[k] == 1 ? "" : "s", (random && k == 2) ? " (random floats: allowed, see the comment)" : "");
    if (use_int)
      compare_int((const int *)h_out, (const int *)h_gold, N, &st);
    else
      compare_float_double((const float *)h_out, (const double *)h_gold, N, 0.0, (k == 3) ? rtol_fixed : rtol, &st);
    char name[64];
    snprintf(name, sizeof(name), "%s (last repeat)", method_name[k]);
    gold_report(name, &st);
    nbad_all += st.nbad;
  }
  int differ_bad = (differ[2] && !random) || differ[3]; // repeats that must be identical and were not

  // step 5: each method against the copy and against CUB, on the same arrays
  if (bench && nbad_all == 0 && !differ_bad) {
    double moved = 2.0 * (double)bytes; // read once, written once: what a copy of the array moves
    bench_ref ref = bench_reference(dev, moved, reps);
    char size[32], extra[96];
    snprintf(size, sizeof(size), "%zu", N);
    float ms_cub = time_median_ms(run_cub, &p, 3, reps);
    for (int k = 0; k <= 3; k++) {
      float ms = (k == 0) ? ms_cub : time_median_ms(method_fn[k], &p, 3, reps);
      double GBps = moved / (ms * 1e-3) / 1e9;
      printf("%-20s %.4f ms, %.1f GB/s = %.1f%% of the copy (%.1f GB/s), %.2fx CUB's speed\n", method_name[k], ms,
             GBps, 100.0 * GBps / ref.copy_GBps, ref.copy_GBps, ms_cub / ms);
      snprintf(extra, sizeof(extra), "type=%s x_cub=%.3f", use_int ? "int" : "float", ms_cub / ms);
      print_bench("8", method_name[k], size, reps, ms, moved, &ref, extra);
    }
    int err = 0;
    checkCudaErrors(cudaMemcpy(&err, p.d_error, sizeof(int), cudaMemcpyDeviceToHost));
    if (err) return result_fail("a look-back waited %d times for a tile that never published", SPIN_LIMIT);
  }

  checkCudaErrors(cudaFree(p.d_in));
  checkCudaErrors(cudaFree(p.d_out));
  for (int level = 0; level < 8; level++)
    if (p.d_sums[level]) checkCudaErrors(cudaFree(p.d_sums[level]));
  checkCudaErrors(cudaFree(p.d_ticket));
  checkCudaErrors(cudaFree(p.d_status));
  checkCudaErrors(cudaFree(p.d_error));
  checkCudaErrors(cudaFree(p.d_cub_temp));
  free(h_in);
  free(h_out);
  free(h_gold);
  free(h_first);

  if (differ_bad)
    return result_fail("%s: %d of %d repeated outputs differ from the first", differ[3] ? method_name[3] : method_name[2],
                       differ[3] ? differ[3] : differ[2], repeat);
  if (nbad_all) return result_fail("%zu values outside tolerance (see above)", nbad_all);
  return result_pass();
}
