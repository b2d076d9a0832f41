/*
 * stencil/s3_fast.cuh -- practical 3, the end of step 7 (explained in step 8): GPU_laplace3d_fast, a Jacobi
 * sweep at the memory-bandwidth limit (the program laplace3d_fast: laplace3d_ladder.cu, LADDER_STEP=3).
 *
 * Each iteration must read every point once and write it once: 8 bytes per point. GPU_laplace3d and
 * GPU_laplace3d_new read six neighbours per point and rely on the caches to keep that near 8 bytes; this
 * kernel arranges the reuse itself, and keeps many loads in flight:
 *   1. k in registers: each thread marches up a column in k, holding planes k-1, k and k+1 of its
 *      points in registers, so each value is loaded once for all three planes that need it.
 *   2. i from the neighbouring lane: a thread owns 4 consecutive points of a row (one float4); the
 *      values at i-1 and i+4 are in lanes l-1 and l+1, and a warp shuffle passes them over. Only the
 *      lanes at the ends of the warp load one extra float.
 *   3. 16-byte accesses: rows are padded to a multiple of 32 floats (128 bytes) so that every float4
 *      load and store is aligned; a warp moves 512 contiguous bytes with one instruction.
 *   4. ROWS rows per thread: a thread owns the same 4 points in ROWS consecutive rows, so j-1 and j+1 are
 *      its own registers except at the patch's two ends (2 halo rows, from cache, per ROWS rows), and
 *      ROWS independent 16-byte loads from memory are in flight per thread. Every load a step needs
 *      (plane k+2 of the patch, plane k+1 of the halo rows and edge floats) is issued one step early.
 *   5. short chunks, launched plane by plane: each block marches through only KCHUNK planes, and blocks
 *      are numbered (i, j) fastest, so the blocks on the GPU at any moment all work on the same few
 *      planes, as a copy does: memory sees one contiguous front, and the two planes a chunk re-reads
 *      were read a moment earlier by the chunk below, so they come from L2.
 *   6. __launch_bounds__(MAX_THREADS): left alone, ptxas gives ROWS=2 96 registers per thread (640
 *      threads per SM); promising blocks of up to 896 threads makes it fit in 72 (896 threads per SM),
 *      with no spills: more threads, so more loads in flight.
 *
 * The result must equal Gold_laplace3d exactly (same additions in the same order): rms error = 0.000000.
 * -sweep times FAST_BLOCK_X x FAST_BLOCK_Y x KCHUNK (also -bx= -by= -kchunk=, or make FAST_BLOCK_X=..);
 * ROWS (1, 2, 4 or 8) is compile-time, since the patch lives in registers: make ROWS=4.
 * Step 11's laplace3d_mgpu defines FAST_PLANE_RANGE before including this: the same kernel on a range of
 * planes, GPU_laplace3d_slab, and none of the host code below.
 */
#ifndef STENCIL_S3_FAST_CUH
#define STENCIL_S3_FAST_CUH

#include "helper_cuda.h"

// the block: FAST_BLOCK_X threads across a row, 4 floats each, and FAST_BLOCK_Y threads up, ROWS rows each
// (named for this program: a practical-wide make BLOCK_X=16 is for laplace3d and laplace3d_new, and 16
// would not even be a whole warp here)
#ifndef FAST_BLOCK_X
#define FAST_BLOCK_X 32 // a multiple of 32: each warp covers 128 consecutive points (512 bytes) of one row
#endif
#ifndef FAST_BLOCK_Y
#define FAST_BLOCK_Y 4 // 128 threads per block, 4 x ROWS rows: small blocks pack 7 to an SM at 72 registers
#endif
#ifndef ROWS
#define ROWS 2 // rows per thread (trick 4): ROWS loads from memory in flight, 2 halo rows, per step
#endif
#ifndef MAX_THREADS
#define MAX_THREADS (ROWS <= 2 ? 896 : 2048 / ROWS) // trick 6: __launch_bounds__, 72 registers for ROWS=2
#endif
#ifndef KCHUNK
#define KCHUNK 4 // planes a block marches through (trick 5): short, so that resident blocks share planes
#endif
#ifdef FAST_PLANE_RANGE
#ifndef MGPU_MAX_THREADS
// __launch_bounds__: laplace3d_fast promises 896 (72 registers at ROWS=2); the plane range below costs
// one more register, and at 72 ptxas spills 8 bytes, so this kernel promises 768 (76 registers, no spill)
#define MGPU_MAX_THREADS (ROWS <= 2 ? 768 : 2048 / ROWS)
#endif
#endif

// one point: Dirichlet boundaries (and the padding past NX) copied, else the course's average, the
// additions in Gold_laplace3d's order (i-1, i+1, j-1, j+1, k-1, k+1) for a bit-for-bit match
__device__ __forceinline__ float jacobi_point(int i, int NX, float c, float w, float e, float s, float n, float b,
                                              float a) {
  const float sixth = 1.0f / 6.0f;
  return (i == 0 || i >= NX - 1) ? c : (w + e + s + n + b + a) * sixth;
}

__device__ __forceinline__ float4 load4(const float *__restrict__ p, size_t ind) {
  return __ldg(reinterpret_cast<const float4 *>(p + ind)); // ind is a multiple of 4: 16-byte aligned
}

#ifndef FAST_PLANE_RANGE
// a thread owns points i0 .. i0+3 of rows j0 .. j0+ROWS-1 and marches k through one chunk
// trick 6: __launch_bounds__ promises blocks of at most MAX_THREADS threads, so ptxas keeps registers low
__global__ void __launch_bounds__(MAX_THREADS)
    GPU_laplace3d_fast(int NX, int NY, int NZ, int pitch, int kchunk, const float *__restrict__ d_u1,
                       float *__restrict__ d_u2) {
  const int kfirst = 0, kstop = NZ; // the whole column
#else
// GPU_laplace3d_fast on planes kfirst .. kstop-1 of an array of NZ planes, whose first and last planes are
// never averaged: each is a halo (never computed) or the grid's own boundary (copied), so the kernel is
// laplace3d_fast's with only a range of planes added (laplace3d_mgpu's launch_planes shifts the arrays to
// make it so)
__global__ void __launch_bounds__(MGPU_MAX_THREADS)
    GPU_laplace3d_slab(int NX, int NY, int NZ, int pitch, int kfirst, int kstop, int kchunk,
                       const float *__restrict__ d_u1, float *__restrict__ d_u2) {
#endif
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  int lane = threadIdx.x % 32; // blockDim.x is a multiple of 32, so a warp never spans two rows
  int i0 = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  int j0 = ROWS * (threadIdx.y + blockIdx.y * blockDim.y);
  if (j0 >= NY) return; // j0 is the same across the warp, so every shuffle below still has all 32 lanes

  int kbeg = kfirst + blockIdx.z * kchunk;
  int kend = min(kbeg + kchunk, kstop);
  int nrows = min(ROWS, NY - j0); // rows of this thread's patch inside the grid
  bool live = i0 < pitch;         // lanes past the (padded) row have nothing to load
  bool has_south = live && j0 > 0, has_north = live && j0 + ROWS < NY;
  // the one float past the warp's ends: lane 0 needs i0-1, lane 31 needs i0+4
  bool has_edge = (lane == 0 && live && i0 > 0) || (lane == 31 && i0 + 4 < pitch);
  int edge_off = lane == 0 ? -1 : 4;
  size_t JOFF = (size_t)pitch, KOFF = (size_t)pitch * NY;
  size_t ind = (size_t)i0 + (size_t)j0 * JOFF + (size_t)kbeg * KOFF;

  // trick 1: planes k-1, k, k+1 of the patch in registers; next[] receives plane k+2 a step early
  float4 below[ROWS], centre[ROWS], above[ROWS], next[ROWS];
  float edge[ROWS], edge_next[ROWS]; // trick 2's float across the warp's edge, plane k and k+1
#pragma unroll
  for (int r = 0; r < ROWS; r++) {
    size_t rind = ind + (size_t)r * JOFF;
    bool row = live && r < nrows;
    below[r] = (row && kbeg > 0) ? load4(d_u1, rind - KOFF) : zero;
    centre[r] = row ? load4(d_u1, rind) : zero;
    above[r] = (row && kbeg + 1 < NZ) ? load4(d_u1, rind + KOFF) : zero;
    edge[r] = (has_edge && r < nrows) ? d_u1[rind + edge_off] : 0.0f;
  }
  // trick 4: rows j0-1 and j0+ROWS (the halo) of plane k, loaded a step early too
  float4 south = has_south ? load4(d_u1, ind - JOFF) : zero;
  float4 north = has_north ? load4(d_u1, ind + ROWS * JOFF) : zero;

  for (int k = kbeg; k < kend; k++, ind += KOFF) {
    // every load the next step needs is issued first, so all of them are in flight while we work:
    // plane k+2 of the patch (from memory), plane k+1 of the halo and edge floats (mostly from cache)
    bool need2 = k + 2 <= kend && k + 2 < NZ, need1 = k + 1 < kend;
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      size_t rind = ind + (size_t)r * JOFF;
      next[r] = (live && r < nrows && need2) ? load4(d_u1, rind + 2 * KOFF) : zero;
      edge_next[r] = (has_edge && r < nrows && need1) ? d_u1[rind + KOFF + edge_off] : 0.0f;
    }
    float4 south_next = (has_south && need1) ? load4(d_u1, ind - JOFF + KOFF) : zero;
    float4 north_next = (has_north && need1) ? load4(d_u1, ind + ROWS * JOFF + KOFF) : zero;

    bool inner_plane = k > 0 && k < NZ - 1;
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      // trick 2: i-1 of the first point and i+1 of the last come from the neighbouring lanes
      float west = __shfl_up_sync(FULL_MASK, centre[r].w, 1);
      float east = __shfl_down_sync(FULL_MASK, centre[r].x, 1);
      if (lane == 0) west = edge[r];
      if (lane == 31) east = edge[r];
      // trick 4: j-1 and j+1 are the patch's own rows, in registers, except at its two ends
      float4 s = r == 0 ? south : centre[r - 1];
      float4 n = r == ROWS - 1 ? north : centre[r + 1];
      int j = j0 + r;
      float4 res = centre[r]; // boundary rows and planes are copied
      if (inner_plane && j > 0 && j < NY - 1) {
        res.x = jacobi_point(i0, NX, centre[r].x, west, centre[r].y, s.x, n.x, below[r].x, above[r].x);
        res.y = jacobi_point(i0 + 1, NX, centre[r].y, centre[r].x, centre[r].z, s.y, n.y, below[r].y, above[r].y);
        res.z = jacobi_point(i0 + 2, NX, centre[r].z, centre[r].y, centre[r].w, s.z, n.z, below[r].z, above[r].z);
        res.w = jacobi_point(i0 + 3, NX, centre[r].w, centre[r].z, east, s.w, n.w, below[r].w, above[r].w);
      }

      // trick 3: one 16-byte store; at the end of a row only the points inside the grid are written
      if (r < nrows) {
        size_t rind = ind + (size_t)r * JOFF;
        if (i0 + 3 < NX) {
          *reinterpret_cast<float4 *>(d_u2 + rind) = res;
        } else if (i0 < NX) {
          d_u2[rind] = res.x;
          if (i0 + 1 < NX) d_u2[rind + 1] = res.y;
          if (i0 + 2 < NX) d_u2[rind + 2] = res.z;
        }
      }
    }

#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      below[r] = centre[r];
      centre[r] = above[r];
      above[r] = next[r];
      edge[r] = edge_next[r];
    }
    south = south_next;
    north = north_next;
  }
}

#ifndef FAST_PLANE_RANGE // laplace3d_fast: the launch and the runner's calls (laplace3d_mgpu has its own)
#include "stencil/s3_fast_host.cuh"
#endif

#endif /* STENCIL_S3_FAST_CUH */
