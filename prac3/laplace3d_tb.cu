/*
 * laplace3d_tb.cu -- practical 3, beyond the course (handout step 10): several Jacobi sweeps per pass
 * over memory (temporal blocking), to go past the one-sweep limit of laplace3d_fast.
 *
 * One sweep must read and write every point once (8 bytes a point), so laplace3d_fast, at the copy's
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
 *     __syncthreads() a step is enough; sweep T goes to d_u2;
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
 * -T=N sweeps a pass (1..8); REPEAT iterations run as REPEAT/T passes of T sweeps and one last pass of
 * REPEAT%T sweeps. -bench times one pass of T sweeps and prints the time per sweep and the "effective" %
 * of the copy: 8 bytes a point a sweep over the time per sweep (more than 100 % is the point). -sweep times a
 * table of blocks and k chunks at the given T (the % column is the effective one) and runs with the fastest.
 * Handout step 10 says why this layout (four columns a thread, shuffles in i) and not one column a thread
 * with every neighbour in shared memory: a third fewer instructions a point, which is what bounds it.
 *   nvcc -O3 -arch=sm_90 -I../common laplace3d_tb.cu laplace3d_gold.c -o laplace3d_tb
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "grid3d.h"
#include "sweep.h"
#include "timing.h"

#include "prac3_gold.h"

// the block: TB_BLOCK_X x TB_BLOCK_Y columns, each thread TB_ROWS of them in j. A row of threads is one warp of
// 32 (each warp loads and stores contiguous row segments, and finds its neighbours in i in the next lanes);
// TB_BLOCK_Y, the block's columns in j, is 16, 32, 48 or 64 (-by=). Both are compile-time constants of the
// kernel, so that every shared-memory address is a register plus a constant. (Named for this program, so
// that a practical-wide make BLOCK_X=16 cannot change them.)
#define TB_BLOCK_X 32
#define TB_ROWS 4 // columns in j a thread: its middle two find both j neighbours in its own registers
#ifndef TB_BLOCK_Y
#define TB_BLOCK_Y 48 // 32 x 48 columns, 26 x 42 of them output at T = 3: the fastest at T = 3 on an H200
#endif
#ifndef TB_SWEEPS
#define TB_SWEEPS 3 // sweeps a pass (-T=): the fastest on an H200 (on an H100 at 1024^3, T = 4 is faster)
#endif
#ifndef TB_KCHUNK
#define TB_KCHUNK 128 // output planes a block (-kchunk=): 2T more are read, 5 % more reads at T = 3
#endif
#define TB_MAX_SWEEPS 8
// input planes each thread has in flight: the step that brings in plane p issues the load of plane
// p + TB_PREFETCH. Measured on an H200 at 1024^3, T = 3: 6 beats 3 (by 5 %) and 2 (by 10 %)
#ifndef TB_PREFETCH
#define TB_PREFETCH 6
#endif
// the step loop is unrolled by 6, so that every register is fixed: the 2 shared buffers alternate, the 3 planes
// a level rotate and the TB_PREFETCH loads in flight cycle, each a whole number of times in 6 steps
#define TB_UNROLL 6
// threads an SM that ptxas must leave registers for at T <= 3: 768, at most 85 registers a thread, so 80 (left
// alone it takes 105 at T = 3, and only 512 threads of 32 x 32 blocks or 384 of 32 x 48 fit). A block of 64
// columns has 512 threads, so there the bound asks for one block an SM. Every GPU from sm_75 runs 768 threads
// an SM. At T >= 4 the levels need more registers than 80, so ptxas chooses.
#ifndef TB_OCC
#define TB_OCC 768
#endif

// the largest grid accepted: 2^35 points (128 GiB an array, more than any GPU holds)
#define MAX_POINTS (1LL << 35)

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
//     writes only the other buffer, and one __syncthreads() a step (not one a level) keeps them apart.
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
        // or NZ - 1), else the boundary columns. (One mask a level rather than a second test a column: with it
        // ptxas emits 7 % fewer instructions, and a sweep is 7 % faster on an H200, 1.29 -> 1.20 ms at 1024^3,
        // where the two tests had become a branch with moves on both sides)
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

// shared memory for T sweeps a pass: two buffers (this step's and last step's) of strip ends for each level 0..T-1
static size_t tb_shared_bytes(int T, int by) {
  return (size_t)2 * T * (by / TB_ROWS + 2) * 2 * TB_BLOCK_X * sizeof(float);
}

// the kernels: one for each T (1..8) and block height in columns (16, 32, 48, 64), except where none can run:
// T = 8 at 16 columns (no output tile), and where a thread's T levels need more registers than a block of
// that many threads can have (65536 an SM over the threads), so that ptxas would spill: T = 7 and 8 at 64
// columns (512 threads, 128 registers each) and T = 8 at 48 (384 threads, 168)
typedef void (*tb_kernel)(int, int, int, int, const float *, float *);
#define TB_KERNELS_1_6(BY)                                                                                           \
  GPU_laplace3d_tb<1, BY>, GPU_laplace3d_tb<2, BY>, GPU_laplace3d_tb<3, BY>, GPU_laplace3d_tb<4, BY>,                \
      GPU_laplace3d_tb<5, BY>, GPU_laplace3d_tb<6, BY>
static const tb_kernel tb_kernels[4][TB_MAX_SWEEPS] = {
    {TB_KERNELS_1_6(16), GPU_laplace3d_tb<7, 16>, NULL},
    {TB_KERNELS_1_6(32), GPU_laplace3d_tb<7, 32>, GPU_laplace3d_tb<8, 32>},
    {TB_KERNELS_1_6(48), GPU_laplace3d_tb<7, 48>, NULL},
    {TB_KERNELS_1_6(64), NULL, NULL}};
static tb_kernel tb_kernel_for(int T, int by) { return tb_kernels[by / 16 - 1][T - 1]; }
static int tb_by_ok(int by) { return by == 16 || by == 32 || by == 48 || by == 64; }

// everything one pass needs, for the timing helpers
typedef struct {
  int NX, NY, NZ, T, kchunk;
  int by;          // the block's columns in j (its threads: 32 x by / TB_ROWS)
  dim3 grid, block;
  size_t shared, optin; // this launch's shared memory; the most a block may have on this GPU
  const float *d_u1;
  float *d_u2;
} tb_launch;

// a pass of T sweeps: each block's output tile is (32 - 2T) x (by - 2T) columns by kchunk planes
static void set_pass(tb_launch *a, int T, int by, int kchunk) {
  a->T = T;
  a->kchunk = kchunk;
  a->by = by;
  a->block = dim3(TB_BLOCK_X, by / TB_ROWS);
  a->grid = dim3((a->NX + TB_BLOCK_X - 2 * T - 1) / (TB_BLOCK_X - 2 * T), (a->NY + by - 2 * T - 1) / (by - 2 * T),
                 (a->NZ + kchunk - 1) / kchunk);
  a->shared = tb_shared_bytes(T, by);
}

// the shapes -sweep tries at a->T sweeps a pass: s.y the block's columns in j, s.z the k chunk
static int sweep_block(void *p, block_shape s) {
  tb_launch *a = (tb_launch *)p;
  if (s.y <= 2 * a->T) return 0;                 // no output tile
  if (!tb_kernel_for(a->T, s.y)) return 0;       // too many registers for the block's threads
  if (tb_shared_bytes(a->T, s.y) > a->optin) return 0; // more shared memory than this GPU gives a block
  if (s.z > a->NZ && s.z != a->kchunk) return 0; // a chunk longer than the grid is the same as the grid
  set_pass(a, a->T, s.y, s.z);
  return 1;
}

static void launch_laplace3d_tb(void *p) {
  tb_launch *a = (tb_launch *)p;
  tb_kernel_for(a->T, a->by)<<<a->grid, a->block, a->shared>>>(a->NX, a->NY, a->NZ, a->kchunk, a->d_u1, a->d_u2);
  getLastCudaError("GPU_laplace3d_tb execution failed");
}

int main(int argc, char **argv) {
  int NX = 512, NY = 512, NZ = 512, REPEAT = 10, T = TB_SWEEPS, by = TB_BLOCK_Y;
  int kchunk = TB_KCHUNK, pinned = 0, seed = 0, bench = 0, sweep = 0, reps = 20;
  arg_spec opts[] = {
      {"nx", ARG_INT, &NX, 3, 65535, "grid points in i (boundary included)"},
      {"ny", ARG_INT, &NY, 3, 65535, "grid points in j"},
      {"nz", ARG_INT, &NZ, 3, 65535, "grid points in k"},
      {"repeat", ARG_INT, &REPEAT, 1, 100000, "Jacobi iterations"},
      {"T", ARG_INT, &T, 1, TB_MAX_SWEEPS, "sweeps a pass over memory (TB_SWEEPS)"},
      {"by", ARG_INT, &by, 16, 64, "a block's columns in j, halo included: 16, 32, 48 or 64 (TB_BLOCK_Y)"},
      {"kchunk", ARG_INT, &kchunk, 1, 65535, "output planes a block (TB_KCHUNK)"},
      {"pinned", ARG_FLAG, &pinned, 0, 1, "host arrays in pinned memory (cudaMallocHost) instead of malloc"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "0: the course's 0 inside; N: random values inside"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time one pass of T sweeps and a device-to-device copy, print a BENCH line"},
      {"sweep", ARG_FLAG, &sweep, 0, 1, "time a table of blocks and k chunks at this T, then run with the fastest"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench and -sweep (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)NX * NY * NZ > MAX_POINTS)
    args_fail("a %d x %d x %d grid has %lld points, more than 2^35", NX, NY, NZ, (long long)NX * NY * NZ);
  if (!tb_by_ok(by)) args_fail("-by=%d: the kernel is built for blocks of 16, 32, 48 or 64 columns in j", by);
  if (by <= 2 * T)
    args_fail("a %dx%d block with -T=%d: the halo (T columns each side) leaves no output tile; need -by > 2T",
              TB_BLOCK_X, by, T);
  if (!tb_kernel_for(T, by))
    args_fail("a %dx%d block with -T=%d: %d levels need more registers than a block of %d threads can have; use "
              "-by=%s", TB_BLOCK_X, by, T, T, TB_BLOCK_X * by / TB_ROWS, T == 7 ? "48 or less" : "32");

  int dev = findCudaDevice(argc, argv);
  // two buffers of strip ends a level for levels 0..T-1: over 48 KB (T = 6 at 64 columns, T = 7 at 48) needs the
  // opt-in attribute, which every kernel gets for the most its own block needs, where the GPU has it
  int optin = device_limits(dev)->smem_block_optin;
  if (tb_shared_bytes(T, by) > (size_t)optin)
    device_limit_exceeded("a %dx%d block with -T=%d needs %zu bytes of shared memory; this GPU gives a block at "
                          "most %d", TB_BLOCK_X, by, T, tb_shared_bytes(T, by), optin);
  for (int t = 1; t <= TB_MAX_SWEEPS; t++)
    for (int y = 16; y <= 64; y += 16) {
      size_t most = tb_shared_bytes(t, y);
      if (!tb_kernel_for(t, y) || most > (size_t)optin) continue; // never launched: the checks above refuse it
      checkCudaErrors(
          cudaFuncSetAttribute(tb_kernel_for(t, y), cudaFuncAttributeMaxDynamicSharedMemorySize, (int)most));
    }
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, tb_kernel_for(T, by)));
  printf("GPU_laplace3d_tb<T=%d, BY=%d>: %d registers, %zu bytes of shared memory a block\n", T, by, attr.numRegs,
         tb_shared_bytes(T, by));

  size_t npoints = (size_t)NX * NY * NZ;
  size_t bytes = npoints * sizeof(float);
  int user_sized = args_given(argc, argv, "nx") || args_given(argc, argv, "ny") || args_given(argc, argv, "nz");
  device_memory_check(2 * bytes + ((bench || sweep) ? 2 * bytes : 0),
                      (bench || sweep) ? "u1, u2 and the copy test's two buffers" : "u1 and u2", user_sized);

  printf("Grid dimensions: %d x %d x %d\n", NX, NY, NZ);

  // allocate memory for arrays: u1 holds the gold result at the end, u2 the GPU's, u3 is gold's scratch
  float *h_u1 = (float *)host_malloc(bytes, pinned);
  float *h_u2 = (float *)host_malloc(bytes, pinned);
  float *h_u3 = (float *)malloc(bytes);
  float *d_u1, *d_u2, *d_foo;
  if (!h_u1 || !h_u2 || !h_u3) return result_fail("out of host memory for three %zu-byte arrays", bytes);
  memset(h_u2, 0, bytes); // touch every page now, so that the copy back times the copy, not page faults
  checkCudaErrors(cudaMalloc((void **)&d_u1, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_u2, bytes));

  // initialise u1: 1 on the boundary, 0 inside (or random inside with -seed)
  grid3d_init(h_u1, NX, NY, NZ, (unsigned int)seed);

  // copy u1 to device
  event_timer t = event_timer_start();
  checkCudaErrors(cudaMemcpy(d_u1, h_u1, bytes, cudaMemcpyHostToDevice));
  float milli = event_timer_stop(&t);
  printf("Copy u1 to device: %.1f (ms), %.1f GB/s (%s host memory)\n", milli, bytes / (milli * 1e-3) / 1e9,
         pinned ? "pinned" : "pageable");

  tb_launch a = {NX, NY, NZ, T, kchunk, by, dim3(), dim3(), 0, (size_t)optin, d_u1, d_u2};
  double moved = 8.0 * (double)npoints; // one read and one write of each point: one sweep's minimum traffic
  bench_ref ref;
  if (bench || sweep) ref = bench_reference(dev, moved, reps); // the 100 % line, measured in this run
  if (sweep) { // a pass of T sweeps per block and k chunk; T x 8 bytes a point, so the % column is the effective one
    static const int xs[] = {TB_BLOCK_X}, ys[] = {16, 32, 48, 64};
    int ks[] = {32, 64, 128, 256, kchunk};
    int nk = kchunk == 32 || kchunk == 64 || kchunk == 128 || kchunk == 256 ? 4 : 5;
    block_shape best = sweep_shapes("GPU_laplace3d_tb", launch_laplace3d_tb, sweep_block, &a, xs, 1, ys, 4, ks, nk,
                                    "kchunk", moved * T, &ref, reps);
    if (best.x > 0) {
      by = best.y;
      kchunk = best.z;
    }
  }

  // poison u2 with 0xff bytes (NaN): a point the kernel forgets to write cannot pass
  checkCudaErrors(cudaMemset(d_u2, 0xff, bytes));

  set_pass(&a, T, by, kchunk);
  printf("Block: %d x %d columns, %d x %d threads (output tile %d x %d x %d planes), grid of blocks: %d x %d x %d\n",
         TB_BLOCK_X, by, TB_BLOCK_X, by / TB_ROWS, TB_BLOCK_X - 2 * T, by - 2 * T, kchunk, a.grid.x, a.grid.y,
         a.grid.z);

  // execute REPEAT sweeps as passes of T sweeps (the last pass fewer), swapping u1 and u2 after each pass
  int passes = 0;
  t = event_timer_start();
  for (int done = 0; done < REPEAT; done += a.T, passes++) {
    set_pass(&a, REPEAT - done < T ? REPEAT - done : T, by, kchunk);
    tb_kernel_for(a.T, by)<<<a.grid, a.block, a.shared>>>(NX, NY, NZ, kchunk, d_u1, d_u2);
    getLastCudaError("GPU_laplace3d_tb execution failed");
    d_foo = d_u1;
    d_u1 = d_u2;
    d_u2 = d_foo;
  }
  milli = event_timer_stop(&t);
  printf("%dx GPU_laplace3d_tb (%d passes): %.1f (ms)\n", REPEAT, passes, milli);

  // copy u1 (the last result) back to the host
  t = event_timer_start();
  checkCudaErrors(cudaMemcpy(h_u2, d_u1, bytes, cudaMemcpyDeviceToHost));
  milli = event_timer_stop(&t);
  printf("Copy u2 to host: %.1f (ms), %.1f GB/s\n", milli, bytes / (milli * 1e-3) / 1e9);

  // Gold treatment
  double t0 = wall_ms();
  for (int i = 1; i <= REPEAT; ++i) {
    Gold_laplace3d(NX, NY, NZ, h_u1, h_u3);
    float *h_foo = h_u1;
    h_u1 = h_u3;
    h_u3 = h_foo;
  }
  printf("%dx Gold_laplace3d: %.1f (ms)\n", REPEAT, wall_ms() - t0);

  // error check: the same operations in the same order, so exactly equal
  gold_stats st;
  compare_float(h_u2, h_u1, npoints, 0.0, 0.0, &st);
  printf("rms error = %f\n", st.rms_err);
  gold_report("u", &st);

  // one pass of T sweeps timed alone (warm-up, median), per sweep against the copy's 8 bytes a point
  if ((bench || sweep) && st.nbad == 0) {
    a.d_u1 = d_u1;
    a.d_u2 = d_u2;
    set_pass(&a, T, by, kchunk);
    float ms = time_median_ms(launch_laplace3d_tb, &a, 3, reps);
    // the same kernel at one sweep a pass, for the ratio that temporal blocking buys (x_T1)
    set_pass(&a, 1, by, kchunk);
    float ms1 = time_median_ms(launch_laplace3d_tb, &a, 3, reps);
    double sweep_ms = ms / T, GBps = moved / (sweep_ms * 1e-3) / 1e9;
    printf("laplace3d_tb: %.4f ms a pass of %d sweeps, %.4f ms a sweep, effectively %.1f GB/s = %.1f%% of a "
           "device-to-device copy (%.1f GB/s)\n",
           ms, T, sweep_ms, GBps, 100.0 * GBps / ref.copy_GBps, ref.copy_GBps);
    printf("laplace3d_tb at -T=1: %.4f ms a sweep; -T=%d is %.2fx faster a sweep\n", ms1, T, ms1 / sweep_ms);
    char size[64], extra[128];
    snprintf(size, sizeof(size), "%dx%dx%d", NX, NY, NZ);
    snprintf(extra, sizeof(extra), "T=%d block=%dx%d kchunk=%d ms_pass=%.4f ms_T1=%.4f x_T1=%.2f effective=1", T,
             TB_BLOCK_X, by, kchunk, ms, ms1, ms1 / sweep_ms);
    print_bench("3", "laplace3d_tb", size, reps, sweep_ms, moved, &ref, extra);
  }

  // release GPU and CPU memory (after an odd REPEAT the gold's swaps leave u1 and u3 exchanged)
  if (REPEAT % 2) {
    float *h_foo = h_u1;
    h_u1 = h_u3;
    h_u3 = h_foo;
  }
  checkCudaErrors(cudaFree(d_u1));
  checkCudaErrors(cudaFree(d_u2));
  host_free(h_u1, pinned);
  host_free(h_u2, pinned);
  free(h_u3);

  return gold_verdict(&st, "u");
}
