/*
 * scans/recurrence_lookback.cuh -- practical 8, step 6 (recurrence -kernel=2): the recurrence on many blocks,
 * one block per tile (atomic ticket), decoupled look-back as in scan_blocks (its status words and flags:
 * scans/lookback_status.cuh). A tile publishes its aggregate pair (flag A) and then the value v at its end
 * (flag P). Tunables (-D on the nvcc line): RL_THREADS, RL_TILE.
 */
#include "cp_async.h"

#include "affine.cuh"
#include "lookback_status.cuh"

// A tile's status is two 64-bit words, status[2 tile] and status[2 tile + 1], each (epoch << 2 | flag) << 32 |
// the bits of one float, each written and read whole, so each says for itself whether it belongs to this launch
// and what it holds. A: the aggregate pair (s in the first word, u in the second); P: v at the tile's end, in
// the first word (it overwrites the A there; the second keeps A's u, which nobody reads once P is seen). A
// reader that sees P in the first word has what it needs; one that sees A there needs the second word's A too,
// and asks again until both have arrived: no fence on either side, and both words come in one round trip.
// (An earlier version kept the pair in a separate array, written before the flag with a __threadfence()
// between, and read after the flag behind another fence: two round trips per look-back and a fence per
// publish, and much slower on an H200: docs/notes/prac8.md, "The recurrence: how it got there".)
// warp 0: the value v just before `tile`. Lane l looks at tile - 1 - l, 32 at a time; the window's maps are
// composed in tile order (higher lanes are earlier tiles) up to the nearest P, whose map is the constant
// x -> v_P (s = 0), so that the composition applied to anything gives v.
__device__ float lookback(unsigned long long *status, int tile, unsigned epoch, int lane, int *error) {
  affine acc = identity(); // the map from the end of the window's tiles to the start of ours
  for (int pred = tile - 1;; pred -= 32) {
    int idx = pred - lane;
    unsigned flag = FLAG_P;
    affine m = {0.0f, 0.0f}; // before tile 0: the constant v[-1] = 0
    if (idx >= 0) {
      for (int spins = 0;; spins++) {
        unsigned long long w0 = *(volatile unsigned long long *)&status[2 * (size_t)idx];
        unsigned long long w1 = *(volatile unsigned long long *)&status[2 * (size_t)idx + 1];
        if (published(w0, epoch)) {
          flag = (unsigned)(w0 >> 32) & 3u;
          if (flag == FLAG_P) { // the constant map x -> v_P
            m.s = 0.0f, m.u = __uint_as_float((unsigned)w0);
            break;
          }
          if (published(w1, epoch)) { // A: both halves of the pair are here
            m.s = __uint_as_float((unsigned)w0), m.u = __uint_as_float((unsigned)w1);
            break;
          }
        }
        if (spins == SPIN_LIMIT) {
          atomicExch(error, 1);
          break;
        }
        __nanosleep(64); // not yet: wait a little before asking again, leaving the memory system to the loads
      }
    }
    unsigned pmask = __ballot_sync(FULL_MASK, flag == FLAG_P);
    int stop = pmask ? __ffs(pmask) - 1 : 31;
    if (lane > stop) m = identity();
    // compose the window, earliest (highest lane) first: lane 0 ends with all of it
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      affine o;
      o.s = __shfl_down_sync(FULL_MASK, m.s, d);
      o.u = __shfl_down_sync(FULL_MASK, m.u, d);
      if (lane + d < 32) m = then(o, m);
    }
    m = shfl_idx(m, 0);
    acc = then(m, acc);
    if (pmask) return acc.u; // acc.s is 0 now: the map is the constant v
  }
}

// The look-back kernel keeps its tile in shared memory, as scan_blocks does (see LB_TILE there for why: a
// tile waits for the tiles before it, and what keeps the memory busy meanwhile is how many tiles an SM holds):
// 5376 elements, s and u, 42 KB per block, 7 warps of 6 rounds, the best of the shapes timed on an H100, with A
// published first (by a reduction) and the look-back after the scan (the shapes and orders tried, with their
// timings: docs/notes/prac8.md, "The recurrence: how it got there").
#ifndef RL_THREADS
#define RL_THREADS 224
#endif
#ifndef RL_TILE
#define RL_TILE 5376
#endif
#define RL_WARPS (RL_THREADS / 32)
#define RL_VECS (RL_TILE / 4)                  // 16-byte vectors of s (and of u) in a tile
#define RL_ROUNDS (RL_VECS / (32 * RL_WARPS)) // rounds of one vector per lane in each warp's part: 6
static_assert(RL_VECS % RL_THREADS == 0 && RL_VECS % (32 * RL_WARPS) == 0, "whole rounds of 16-byte vectors");


__global__ void __launch_bounds__(RL_THREADS)
    recurrence_lookback(const float *s, const float *u, float *v, size_t n, unsigned *ticket, unsigned ticket_base,
                        unsigned long long *status, unsigned epoch, int *error, unsigned ahead) {
  __shared__ float4 s_s[RL_VECS], s_u[RL_VECS]; // the tile's (s, u); then each element's map from its part's start
  __shared__ affine s_warp_total[RL_WARPS];
  __shared__ float s_v_warp[RL_WARPS];
  __shared__ int s_tile;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0) s_tile = (int)(atomicAdd(ticket, 1u) - ticket_base); // never blockIdx.x
  __syncthreads();
  int tile = s_tile;
  size_t tile_base = (size_t)tile * RL_TILE;
  bool full = tile_base + RL_TILE <= n;

  // the tile into shared memory; past n the identity map (s = 1, u = 0)
  if (full) {
    const float4 *gs = (const float4 *)(s + tile_base), *gu = (const float4 *)(u + tile_base);
#pragma unroll
    for (int r = 0; r < RL_VECS / RL_THREADS; r++) {
      int i = r * RL_THREADS + threadIdx.x;
      copy16_to_shared(&s_s[i], &gs[i]);
      copy16_to_shared(&s_u[i], &gu[i]);
    }
    // the tile `ahead` places on into L2 (sm_90), as scan_blocks' step 5 does: its s and its u
    size_t pf = tile_base + (size_t)ahead * RL_TILE;
    if (threadIdx.x == 0 && ahead > 0 && pf + RL_TILE <= n) {
      prefetch_to_l2(s + pf, RL_TILE * sizeof(float));
      prefetch_to_l2(u + pf, RL_TILE * sizeof(float));
    }
    cp_async_wait_all();
  } else {
    for (int i = threadIdx.x; i < RL_VECS; i += RL_THREADS) {
      size_t g = tile_base + 4 * (size_t)i;
      float4 a, b;
      a.x = (g < n) ? s[g] : 1.0f, a.y = (g + 1 < n) ? s[g + 1] : 1.0f;
      a.z = (g + 2 < n) ? s[g + 2] : 1.0f, a.w = (g + 3 < n) ? s[g + 3] : 1.0f;
      b.x = (g < n) ? u[g] : 0.0f, b.y = (g + 1 < n) ? u[g + 1] : 0.0f;
      b.z = (g + 2 < n) ? u[g + 2] : 0.0f, b.w = (g + 3 < n) ? u[g + 3] : 0.0f;
      s_s[i] = a, s_u[i] = b;
    }
  }
  __syncthreads();

  // (a) each warp's total map by a plain reduction, so that the tile's map (A) can go out before the scan:
  // lane l composes the RL_ROUNDS vectors it owns in a row (4 RL_ROUNDS consecutive elements, so their order
  // is the array's), then 5 shuffle steps compose the 32 lanes' maps, lower lane first
  {
    affine m = identity();
#pragma unroll
    for (int r = 0; r < RL_ROUNDS; r++) {
      int i = (warp * 32 + lane) * RL_ROUNDS + r;
      float4 a = s_s[i], b = s_u[i];
      m = then(then(then(then(m, affine{a.x, b.x}), affine{a.y, b.y}), affine{a.z, b.z}), affine{a.w, b.w});
    }
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      affine o;
      o.s = __shfl_down_sync(FULL_MASK, m.s, d);
      o.u = __shfl_down_sync(FULL_MASK, m.u, d);
      if (lane + d < 32) m = then(m, o); // lanes [l, l + d) first, then [l + d, l + 2d)
    }
    if (lane == 0) s_warp_total[warp] = m;
  }
  __syncthreads();

  // (b) warp 0: the warps' maps from the tile's start, and the tile's map, which goes out at once (A; tile
  // 0's is its P)
  affine a_tile = identity(), excl_warp = identity();
  if (warp == 0) {
    affine w = (lane < RL_WARPS) ? s_warp_total[lane] : identity();
    affine incl = warp_inclusive_scan(w, lane);
    excl_warp = shfl_up(incl, 1);
    if (lane == 0) excl_warp = identity();
    a_tile = shfl_idx(incl, RL_WARPS - 1);
    if (lane == 0) {
      if (tile == 0) {
        publish(status, (size_t)0, epoch, FLAG_P, a_tile.u);
      } else { // the pair, one half a word (see the status words above)
        publish(status, 2 * (size_t)tile + 1, epoch, FLAG_A, a_tile.u);
        publish(status, 2 * (size_t)tile, epoch, FLAG_A, a_tile.s);
      }
    }
  }

  // (c) warp w composes its part in rounds of 32 vectors (warp_chunk_scan's method), each element's map from
  // the start of the part written back in place (the reads of (a) ended at the barrier)
  affine carry = identity();
  for (int r = 0; r < RL_ROUNDS; r++) {
    int i = (warp * RL_ROUNDS + r) * 32 + lane;
    float4 a = s_s[i], b = s_u[i];
    affine e0 = {a.x, b.x}, e1 = {a.y, b.y}, e2 = {a.z, b.z}, e3 = {a.w, b.w};
    affine incl = warp_inclusive_scan(then(then(then(e0, e1), e2), e3), lane);
    affine excl = shfl_up(incl, 1);
    if (lane == 0) excl = identity();
    affine p0 = then(then(carry, excl), e0), p1 = then(p0, e1), p2 = then(p1, e2), p3 = then(p2, e3);
    s_s[i] = make_float4(p0.s, p1.s, p2.s, p3.s);
    s_u[i] = make_float4(p0.u, p1.u, p2.u, p3.u);
    carry = then(carry, shfl_idx(incl, 31));
  }

  // (d) warp 0, only now: the look-back (as scan_blocks and radix_sort order it: the tiles before have had
  // the time of this tile's scan to publish), then v before each warp's part
  if (warp == 0) {
    float v_in = 0.0f;
    if (tile > 0) {
      v_in = lookback(status, tile, epoch, lane, error);
      if (lane == 0) publish(status, 2 * (size_t)tile, epoch, FLAG_P, fmaf(a_tile.s, v_in, a_tile.u));
    }
    if (lane < RL_WARPS) s_v_warp[lane] = fmaf(excl_warp.s, v_in, excl_warp.u);
  }
  __syncthreads();

  // v = map(v before the warp's part), stored as 16-byte vectors
  float4 *gv = (float4 *)(v + tile_base);
  for (int i = threadIdx.x; i < RL_VECS; i += RL_THREADS) {
    float4 a = s_s[i], b = s_u[i];
    float vw = s_v_warp[i / (RL_ROUNDS * 32)];
    float4 o = make_float4(fmaf(a.x, vw, b.x), fmaf(a.y, vw, b.y), fmaf(a.z, vw, b.z), fmaf(a.w, vw, b.w));
    if (full) {
      __stcs(&gv[i], o); // streaming store: leave L2 to the prefetched tiles
    } else {
      size_t g = tile_base + 4 * (size_t)i;
      if (g < n) v[g] = o.x;
      if (g + 1 < n) v[g + 1] = o.y;
      if (g + 2 < n) v[g + 2] = o.z;
      if (g + 3 < n) v[g + 3] = o.w;
    }
  }
}
