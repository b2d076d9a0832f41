/*
 * scans/scan_common.cuh -- practical 8, steps 3 to 5: what every step of scan_blocks shares. Step 3's tile
 * (SCAN_TILE = 4096 elements: each thread sums four consecutive elements, a warp scans its 32 thread sums with
 * __shfl_up_sync, four rounds of 128 elements make a warp's 512, and one warp scans the 8 warp totals: step
 * 2's two levels), its loads and stores, the warp scans the look-back kernel uses too, and scan_plan: the
 * arrays and workspaces every step's launcher takes, made once by the runner (scan_blocks.cu).
 */
#ifndef PRAC8_SCAN_COMMON_CUH
#define PRAC8_SCAN_COMMON_CUH

#include "helper_cuda.h"

// a tile: SCAN_THREADS threads of SCAN_ITEMS elements (four 16-byte vectors) each
#define SCAN_THREADS 256 // 8 warps: the warp totals fit one warp's scan with room to spare
#define SCAN_ITEMS 16    // 64 bytes in flight per thread: enough loads outstanding to fill the memory pipe
#define SCAN_TILE (SCAN_THREADS * SCAN_ITEMS)
#define SCAN_WARPS (SCAN_THREADS / 32)
static_assert(SCAN_ITEMS == 16, "the loads are four rounds of one 16-byte vector a thread");
static_assert(SCAN_WARPS <= 32, "one warp scans the warp totals");

template <typename T> struct vec4_of;
template <> struct vec4_of<float> { typedef float4 type; };
template <> struct vec4_of<int> { typedef int4 type; };

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

// inclusive scan of one value per lane across the warp, in 5 steps
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

// ---- the host side ------------------------------------------------------------------------------

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
  int fault_tile;              // -fault=lost_tile: this tile publishes 0 for its total (a deliberate bug); else -1
  void *d_cub_temp;
  size_t cub_temp_bytes;
} scan_plan;

#endif /* PRAC8_SCAN_COMMON_CUH */
