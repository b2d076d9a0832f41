/*
 * stencil/s4_tb.cuh -- practical 3, beyond the course (handout step 10): GPU_laplace3d_tb, several Jacobi
 * sweeps per pass over memory (temporal blocking), to go past the one-sweep limit of laplace3d_fast (the
 * program laplace3d_tb: laplace3d_ladder.cu, LADDER_STEP=4).
 *
 * One sweep must read and write every point once (8 bytes per point), so laplace3d_fast, at the copy's
 * speed, is as fast as one sweep per pass can be. This kernel does T sweeps per pass: each value is read
 * from memory once and written once for T sweeps, and the T-1 intermediate results never leave the SM.
 *
 * The scheme (2.5-D blocking: tiles in (i, j), chunks in k, marching up k):
 *   - a block of 32 x BY/4 threads, one thread per 4 consecutive (i, j) columns in j, covers 32 x BY columns:
 *     an output tile of (32 - 2T) x (BY - 2T) columns plus a halo of T columns on each side, and a chunk of
 *     TB_KCHUNK output planes plus T planes below and above it;
 *   - it marches up k through its chunk. Step m brings in input plane m and computes sweep 1 at plane m-1,
 *     sweep 2 at plane m-2, ..., sweep T at plane m-T (sweep s at plane k needs sweep s-1 at planes k-1, k and
 *     k+1). Each thread keeps the last three planes of every sweep 0..T-1 of its four columns in registers.
 *     Its neighbours in i are in the next lanes of its warp (a row of the block is one warp): it gets them
 *     with __shfl_up_sync / __shfl_down_sync. Its neighbours in j are its own other columns, except at the
 *     two ends of its strip of four, whose values go through shared memory, double-buffered, so that one
 *     __syncthreads() per step is enough; sweep T goes to d_u2;
 *   - a halo column is right at sweep s only s columns or more from the block's edge (and a halo plane s
 *     planes or more from the chunk's end), so the right region shrinks by one each sweep and after T sweeps
 *     is exactly the output tile. The halos are computed again by the neighbouring blocks: the price of
 *     temporal blocking (the handout counts it);
 *   - the domain's boundary is fixed, so a halo that falls on or past a domain edge needs nothing special:
 *     boundary points are copied at every sweep, and columns outside the grid are never read by a point
 *     that is computed.
 * Every point is computed with Gold_laplace3d's additions in its order (i-1, i+1, j-1, j+1, k-1, k+1, then
 * times 1/6), so the result equals the gold bit for bit: rms error = 0.000000.
 *
 * -T=N sweeps per pass (1..8); REPEAT iterations run as REPEAT/T passes of T sweeps and one last pass of
 * REPEAT%T sweeps. -bench times one pass of T sweeps and prints the time per sweep and the "effective" %
 * of the copy: 8 bytes per point per sweep over the time per sweep (more than 100 % is the point). -sweep times a
 * table of blocks and k chunks at the given T (the % column is the effective one) and runs with the fastest.
 * docs/notes/prac3.md ("Step 10: how the temporal-blocking kernel got there") says why this layout (four columns
 * per thread, shuffles in i) and not one column per thread.
 * The host side (the kernel for each T and block height, the launch, the runner's calls) is in
 * stencil/s4_tb_host.cuh, included at the end.
 */
#ifndef STENCIL_S4_TB_CUH
#define STENCIL_S4_TB_CUH

#include "helper_cuda.h"

// the block: TB_BLOCK_X x TB_BLOCK_Y columns, each thread TB_ROWS of them in j. A row of threads is one warp of
// 32 (each warp loads and stores contiguous row segments, and finds its neighbours in i in the next lanes);
// TB_BLOCK_Y, the block's columns in j, is 16, 32, 48 or 64 (-by=). Both are compile-time constants of the
// kernel, so that every shared-memory address is a register plus a constant. (Named for this program, so
// that a practical-wide make BLOCK_X=16 cannot change them.)
#define TB_BLOCK_X 32
#define TB_ROWS 4 // columns in j per thread: its middle two find both j neighbours in its own registers
#ifndef TB_BLOCK_Y
#define TB_BLOCK_Y 48 // 32 x 48 columns, 26 x 42 of them output at T = 3: the fastest at T = 3 on the H200 measured
#endif
#ifndef TB_SWEEPS
#define TB_SWEEPS 3 // sweeps per pass (-T=): the fastest on the H200 measured (on the H100 at 1024^3, T = 4 was)
#endif
#ifndef TB_KCHUNK
#define TB_KCHUNK 128 // output planes per block (-kchunk=): 2T more are read, 5 % more reads at T = 3
#endif
#define TB_MAX_SWEEPS 8
// input planes each thread has in flight: the step that brings in plane p issues the load of plane
// p + TB_PREFETCH. 6 was faster than 3 and 2 on the H200 measured. (Block, T and prefetch depth, the figures:
// docs/notes/prac3.md, "Figures behind the source's choices")
#ifndef TB_PREFETCH
#define TB_PREFETCH 6
#endif
// the step loop is unrolled by 6, so that every register is fixed: the 2 shared buffers alternate, the 3 planes
// a level rotate and the TB_PREFETCH loads in flight cycle, each a whole number of times in 6 steps
#define TB_UNROLL 6
// threads per SM that ptxas must leave registers for at T <= 3: 768, at most 85 registers per thread, so 80 (left
// alone it takes 105 at T = 3, and only 512 threads of 32 x 32 blocks or 384 of 32 x 48 fit). A block of 64
// columns has 512 threads, so there the bound asks for one block per SM. Every GPU from sm_75 runs 768 threads
// an SM. At T >= 4 the levels need more registers than 80, so ptxas chooses.
#ifndef TB_OCC
#define TB_OCC 768
#endif

// T sweeps of d_u1 into d_u2 in one pass. Thread (tx, ty) owns the TB_ROWS columns (i, j0 .. j0 + 3) of the
// block's tile plus halo; the block makes output planes [k0, k0 + kchunk) and reads input planes T further each
// way.
//
// Level L (0..T) is sweep L; level 0 is the input. At step m the input plane p = kin0 + m comes in and level L
// makes plane p - L, for every L at once: level L at plane k needs level L-1 at planes k-1, k, k+1 of its own
// column, and at plane k of the four neighbouring columns. Each thread keeps the last three planes of each
// level 0..T-1 of its columns in registers (r[L][0..2][q] = planes k-1, k, k+1 for the plane k that level L+1
// makes this step; plane k+1 was made earlier in this same step). Its neighbours:
//   - in i: the same registers of the next lanes, by shuffle: all 32 lanes are at the same point of the step,
//     so lane tx-1's r[L-1][1][q] is its plane k. Lane 0 and lane 31 get their own value back (junk: they
//     are the halo's outermost columns, wrong from level 1 on, as the scheme allows);
//   - in j: its own columns q-1 and q+1, except below its first column and above its last: those are the
//     last column of the strip below and the first of the strip above, which every thread writes to shared
//     memory when it makes them, double-buffered by step. So a step reads only what the step before wrote,
//     writes only the other buffer, and one __syncthreads() per step (not one per level) keeps them apart.
//
// Level L is needed at planes [k0 - T + L, k1 + T - L); a plane outside that range is made from junk and never
// read by one inside it, so only the grid's boundary planes need a test. A column is right at level L only L or
// more columns from the block's edge, so after T levels the output tile (T in from each edge) is right.
// Boundary points (of the grid) are copied at every level; a column outside the grid reads the nearest
// column's values and holds junk that no computed point reads (only boundary points neighbour it). Every point
// is computed with Gold_laplace3d's additions in its order (i-1, i+1, j-1, j+1, k-1, k+1, then times 1/6), so
// the result equals the gold bit for bit: rms error = 0.000000.
//
// Shared memory: for each level 0..T-1 and buffer 0, 1, a strip's first and last columns: (BY/4 + 2) strips of
// 2 x 32 floats, the block's strips with an all-zero one below and above, so that the block's edge threads read
// their missing neighbours from there (their results are wrong anyway, as above) and no address needs a test.
// A warp reads and writes 32 consecutive floats: no bank conflicts.
template <int T, int BY>
__global__ void __launch_bounds__(TB_BLOCK_X * BY / TB_ROWS,
                                  T <= 3 ? TB_OCC / (TB_BLOCK_X * BY / TB_ROWS) : 1)
    GPU_laplace3d_tb(int NX, int NY, int NZ, int kchunk, const float *__restrict__ d_u1, float *__restrict__ d_u2) {
  extern __shared__ float sh[];
  constexpr int BX = TB_BLOCK_X, R = TB_ROWS, PF = TB_PREFETCH, U = TB_UNROLL;
  constexpr int STRIP = 2 * BX, BUF = (BY / R + 2) * STRIP; // a strip's 2 shared columns; a buffer of them
  static_assert(BY % R == 0, "a block's columns in j are whole strips of TB_ROWS");
  static_assert(U % 2 == 0 && U % 3 == 0 && U % PF == 0, "TB_PREFETCH must divide TB_UNROLL = 6: 1, 2, 3 or 6");
  const float sixth = 1.0f / 6.0f;
  const int tx = threadIdx.x, ty = threadIdx.y;
  // the tile's first output column is blockIdx * (B - 2T); the block starts T columns before it
  const int i = (int)blockIdx.x * (BX - 2 * T) + tx - T;
  const int j0 = (int)blockIdx.y * (BY - 2 * T) + ty * R - T;
  const unsigned KOFF = (unsigned)NX * (unsigned)NY; // < 2^32: NX, NY <= 65535
  unsigned off[R];         // column q's offset in a plane (clamped into the grid: a column outside reads junk)
  unsigned copied = 0;     // bit q: column q is on the grid's boundary in i or j, so copied at every level
  unsigned output = 0;     // bit q: column q is in the grid and in the output tile
#pragma unroll
  for (int q = 0; q < R; q++) {
    const int j = j0 + q, row = ty * R + q;
    const bool inside = i >= 0 && i < NX && j >= 0 && j < NY;
    if (i == 0 || i == NX - 1 || j == 0 || j == NY - 1) copied |= 1u << q;
    if (inside && tx >= T && tx < BX - T && row >= T && row < BY - T) output |= 1u << q;
    off[q] = (unsigned)min(max(i, 0), NX - 1) + (unsigned)min(max(j, 0), NY - 1) * (unsigned)NX;
  }
  const int k0 = (int)blockIdx.z * kchunk, k1 = min(k0 + kchunk, NZ); // the output planes [k0, k1)
  const int kin0 = max(k0 - T, 0), kin1 = min(k1 + T, NZ);           // the input planes [kin0, kin1)

  // zero the shared strips, the two outer ones included (read by the edge threads, never written)
  for (int n = tx + ty * BX; n < 2 * T * BUF; n += BX * BY / R) sh[n] = 0.0f;
  float *me = sh + (ty + 1) * STRIP + tx; // level 0, buffer 0: this strip's first column (+ BX: its last)
  __syncthreads();

  float r[T][3][R]; // level L's last three planes in each column (junk until made, never used before)
#pragma unroll
  for (int L = 0; L < T; L++)
#pragma unroll
    for (int q = 0; q < R; q++) r[L][0][q] = r[L][1][q] = r[L][2][q] = 0.0f;
  float pf[PF][R]; // input planes in flight: pf[d] is plane kin0 + m at the step m with m % PF == d
  const float *ld = d_u1 + (size_t)kin0 * KOFF; // the next plane to load; it stops at the chunk's last plane
#pragma unroll
  for (int d = 0; d < PF; d++) {
#pragma unroll
    for (int q = 0; q < R; q++) pf[d][q] = ld[off[q]];
    if (kin0 + d + 1 < kin1) ld += KOFF;
  }

  // the last output plane k1 - 1 is made by level T at step k1 - 1 + T - kin0
  const int nsteps = k1 + T - kin0;
#pragma unroll 1
  for (int m0 = 0; m0 < nsteps; m0 += U) {
#pragma unroll
    for (int d = 0; d < U; d++) { // unrolled: every register index below is a constant
      const int p = kin0 + m0 + d;
      float *wr = me + (d & 1) * BUF;             // this step's buffer of level 0 (level L: + 2L buffers)
      const float *rd = me + ((d + 1) & 1) * BUF; // last step's buffer (m0 is even)

      // level 0: input plane p, and the load of plane p + PF into the registers it frees (unconditional:
      // past the chunk's last plane it loads that plane again, so that nothing waits on it)
#pragma unroll
      for (int q = 0; q < R; q++) {
        r[0][0][q] = r[0][1][q];
        r[0][1][q] = r[0][2][q];
        r[0][2][q] = pf[d % PF][q];
        pf[d % PF][q] = ld[off[q]];
      }
      wr[0] = r[0][2][0];
      wr[BX] = r[0][2][R - 1];
      if (p + PF + 1 < kin1) ld += KOFF;

      // levels 1..T: level L makes plane k = p - L from level L-1's planes k-1, k, k+1 (r[L-1][0..2]; plane
      // k+1 was made just above) and from plane k of its neighbours
#pragma unroll
      for (int L = 1; L <= T; L++) {
        const float *c = rd + 2 * (L - 1) * BUF;
        const float below = c[-STRIP + BX], above = c[STRIP]; // the strips below and above, made last step
        // bit q: column q is copied at this level: all four on the grid's first and last planes (k = p - L is 0
        // or NZ - 1), else the boundary columns. (One mask a level rather than a second test a column, which ptxas
        // had made a branch with moves on both sides: with the mask it emits 7 % fewer instructions, and a sweep
        // was faster on the H200 measured: docs/notes/prac3.md, "Figures behind the source's choices")
        const unsigned keep = (unsigned)(p - L - 1) >= (unsigned)(NZ - 2) ? ~0u : copied;
        float v[R];
#pragma unroll
        for (int q = 0; q < R; q++) {
          const float mid = r[L - 1][1][q];
          const float im = __shfl_up_sync(0xffffffffu, mid, 1), ip = __shfl_down_sync(0xffffffffu, mid, 1);
          const float jm = q == 0 ? below : r[L - 1][1][q - 1], jp = q == R - 1 ? above : r[L - 1][1][q + 1];
          // Gold_laplace3d's order: i-1, i+1, j-1, j+1, k-1, k+1, then times 1/6
          const float s = (im + ip + jm + jp + r[L - 1][0][q] + r[L - 1][2][q]) * sixth;
          v[q] = keep >> q & 1 ? mid : s; // boundary points are copied
        }
        if (L < T) {
#pragma unroll
          for (int q = 0; q < R; q++) {
            r[L][0][q] = r[L][1][q];
            r[L][1][q] = r[L][2][q];
            r[L][2][q] = v[q];
          }
          wr[2 * L * BUF] = v[0];
          wr[2 * L * BUF + BX] = v[R - 1];
        } else if (p - T >= k0 && p - T < k1) { // level T: the output, written once (streaming store)
          float *st = d_u2 + (size_t)(unsigned)(p - T) * KOFF;
#pragma unroll
          for (int q = 0; q < R; q++)
            if (output >> q & 1) __stcs(st + off[q], v[q]);
        }
      }
      __syncthreads(); // this step's strips are in before the next step reads them (and last step's are read)
    }
  }
}

#include "stencil/s4_tb_host.cuh"

#endif /* STENCIL_S4_TB_CUH */
