/*
 * laplace3d_tb.cu -- practical 3, beyond the course (handout step 10): several Jacobi sweeps per pass
 * over memory (temporal blocking), to go past the one-sweep limit of laplace3d_fast.
 *
 * One sweep must read and write every point once (8 bytes a point), so laplace3d_fast, at the copy's
 * speed, is as fast as one sweep per pass can be. This kernel does T sweeps per pass: each value is read
 * from memory once and written once for T sweeps, and the T-1 intermediate results never leave the SM.
 *
 * The scheme (2.5-D blocking: tiles in (i, j), marching in k):
 *   - a block of TB_BLOCK_X x TB_BLOCK_Y threads, one thread per (i, j) column, covers an output tile
 *     of (TB_BLOCK_X - 2T) x (TB_BLOCK_Y - 2T) columns plus a halo of T columns on each side;
 *   - it marches up k through the whole grid. Step m loads plane m (sweep 0) into shared memory, then
 *     computes sweep 1 at plane m-1, sweep 2 at plane m-2, ..., sweep T at plane m-T: sweep s at plane k
 *     needs sweep s-1 at planes k-1, k and k+1, and plane k+1 of sweep s-1 was made earlier in the same
 *     step. Each sweep 0..T-1 keeps a ring of 3 planes in shared memory; sweep T goes to d_u2;
 *   - a halo column is correct at sweep s only s columns or more from the block's edge, so the valid
 *     region shrinks by one column each sweep and after T sweeps is exactly the output tile. The halo
 *     is computed again by the neighbouring blocks: the price of temporal blocking (the handout counts it);
 *   - the domain's boundary is fixed, so a halo that falls on or past a domain edge needs nothing special:
 *     boundary points are copied at every sweep, and columns outside the grid are never read by a point
 *     that is computed.
 * Every point is computed with Gold_laplace3d's additions in its order (i-1, i+1, j-1, j+1, k-1, k+1, then
 * times 1/6), so the result equals the gold bit for bit: rms error = 0.000000.
 *
 * -T=N sweeps a pass (1..8); REPEAT iterations run as REPEAT/T passes of T sweeps and one last pass of
 * REPEAT%T sweeps. -bench times one pass of T sweeps and prints the time per sweep and the "effective" %
 * of the copy: 8 bytes a point a sweep over the time per sweep (more than 100 % is the point). -sweep times a
 * table of blocks at the given T (the % column is the effective one) and runs with the fastest.
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

// the block: one thread per (i, j) column of the tile and its halo (named for this program, so that a
// practical-wide make BLOCK_X=16 cannot change it)
#ifndef TB_BLOCK_X
#define TB_BLOCK_X 32 // a whole warp along a row: each warp loads and stores one contiguous row segment
#endif
#ifndef TB_BLOCK_Y
#define TB_BLOCK_Y 32 // square tiles waste the least on the halo: (32-2T)^2 of 32^2 columns are output
#endif
#ifndef TB_SWEEPS
#define TB_SWEEPS 4 // sweeps a pass (-T=): 4 keeps 24 x 24 of the 32 x 32 columns (56 %) as output
#endif
#define TB_MAX_SWEEPS 8 // 3 planes of 32 x 32 floats a sweep in shared memory: 96 KB at T = 8

// the largest grid accepted: 2^35 points (128 GiB an array, more than any GPU holds)
#define MAX_POINTS (1LL << 35)

// one thread per (i, j) column of the block's tile plus halo, marching up k through the whole grid;
// T sweeps of d_u1 into d_u2. Shared memory: for each sweep s = 0..T-1 a ring of 3 planes (k % 3) of
// blockDim.x x blockDim.y floats. __launch_bounds__(1024): ptxas keeps the registers low enough for the
// default 32 x 32 block to launch
__global__ void __launch_bounds__(1024)
    GPU_laplace3d_tb(int NX, int NY, int NZ, int T, const float *__restrict__ d_u1, float *__restrict__ d_u2) {
  extern __shared__ float sh[];
  const float sixth = 1.0f / 6.0f;
  const int BX = blockDim.x, BY = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
  const int plane = BX * BY, me = tx + ty * BX;
  // the tile's first output column is blockIdx * (B - 2T); the block starts T columns before it
  const int i = (int)blockIdx.x * (BX - 2 * T) + tx - T;
  const int j = (int)blockIdx.y * (BY - 2 * T) + ty - T;
  const bool inside = i >= 0 && i < NX && j >= 0 && j < NY;                   // a column of the grid
  const bool edge_ij = i == 0 || i == NX - 1 || j == 0 || j == NY - 1;        // a boundary column: copied
  const bool edge_block = tx == 0 || tx == BX - 1 || ty == 0 || ty == BY - 1; // no neighbour on one side
  // the output tile: T or more columns from the block's edge (every sweep valid there), inside the grid
  const bool output = inside && tx >= T && tx < BX - T && ty >= T && ty < BY - T;
  const size_t KOFF = (size_t)NX * NY;
  const size_t col = inside ? (size_t)i + (size_t)j * NX : 0;

  // step m: plane m of sweep 0 comes in, then sweep s is computed at plane m - s, s = 1..T.
  // The load of plane m+1 is issued at step m and stored at step m+1, so that its latency is hidden
  // behind the T sweeps of step m instead of being waited for at once.
  float next = inside ? d_u1[col] : 0.0f; // plane 0
  for (int m = 0; m < NZ + T; m++) {
    if (m < NZ) sh[(m % 3) * plane + me] = next;
    if (m + 1 < NZ) next = inside ? d_u1[col + (size_t)(m + 1) * KOFF] : 0.0f;
    __syncthreads(); // plane m of sweep 0 is in, for every thread of the block

    for (int s = 1; s <= T; s++) {
      int k = m - s;
      if (k >= 0 && k < NZ) {
        // sweep s-1's ring; its planes k-1, k and k+1 are all there now (k+1 was made in this step)
        const float *prev = sh + (size_t)(s - 1) * 3 * plane;
        const float *c = prev + (k % 3) * plane;
        float v = c[me]; // boundary points, columns outside the grid and the block's own edge: copied
        if (inside && !edge_ij && !edge_block && k > 0 && k < NZ - 1) {
          const float *b = prev + ((k + 2) % 3) * plane; // plane k-1
          const float *a = prev + ((k + 1) % 3) * plane; // plane k+1
          // Gold_laplace3d's order: i-1, i+1, j-1, j+1, k-1, k+1, then times 1/6
          v = (c[me - 1] + c[me + 1] + c[me - BX] + c[me + BX] + b[me] + a[me]) * sixth;
        }
        if (s < T)
          sh[(size_t)s * 3 * plane + (k % 3) * plane + me] = v;
        else if (output)
          d_u2[col + (size_t)k * KOFF] = v;
      }
      // sweep s at plane k is in before sweep s+1 reads it. After sweep T no barrier is needed unless T = 1:
      // the next write into ring T-1 comes after the next step's first barrier (T barriers a plane, not T+1)
      if (s < T || T == 1) __syncthreads();
    }
  }
}

// shared memory for T sweeps a pass: a ring of 3 planes for each of sweeps 0..T-1
static size_t tb_shared_bytes(int T, int bx, int by) { return (size_t)3 * T * bx * by * sizeof(float); }

// everything one pass needs, for the timing helpers
typedef struct {
  int NX, NY, NZ, T;
  dim3 grid, block;
  size_t shared, max_shared; // this launch's shared memory; the most the kernel was allowed
  int maxthreads;
  const float *d_u1;
  float *d_u2;
} tb_launch;

// a pass of T sweeps: each block's output tile is (bx - 2T) x (by - 2T) columns, so the grid depends on T
static void set_pass(tb_launch *a, int T, int bx, int by) {
  a->T = T;
  a->block = dim3(bx, by);
  a->grid = dim3((a->NX + bx - 2 * T - 1) / (bx - 2 * T), (a->NY + by - 2 * T - 1) / (by - 2 * T));
  a->shared = tb_shared_bytes(T, bx, by);
}

// the shapes -sweep tries at s.z = T sweeps a pass: blocks that launch and leave an output tile
static int sweep_block(void *p, block_shape s) {
  tb_launch *a = (tb_launch *)p;
  if (s.x * s.y > a->maxthreads || s.x <= 2 * s.z || s.y <= 2 * s.z) return 0;
  if (tb_shared_bytes(s.z, s.x, s.y) > a->max_shared) return 0;
  set_pass(a, s.z, s.x, s.y);
  return 1;
}

static void launch_laplace3d_tb(void *p) {
  tb_launch *a = (tb_launch *)p;
  GPU_laplace3d_tb<<<a->grid, a->block, a->shared>>>(a->NX, a->NY, a->NZ, a->T, a->d_u1, a->d_u2);
  getLastCudaError("GPU_laplace3d_tb execution failed");
}

int main(int argc, char **argv) {
  int NX = 512, NY = 512, NZ = 512, REPEAT = 10, T = TB_SWEEPS, bx = TB_BLOCK_X, by = TB_BLOCK_Y;
  int pinned = 0, seed = 0, bench = 0, sweep = 0, reps = 20;
  arg_spec opts[] = {
      {"nx", ARG_INT, &NX, 3, 65535, "grid points in i (boundary included)"},
      {"ny", ARG_INT, &NY, 3, 65535, "grid points in j"},
      {"nz", ARG_INT, &NZ, 3, 65535, "grid points in k"},
      {"repeat", ARG_INT, &REPEAT, 1, 100000, "Jacobi iterations"},
      {"T", ARG_INT, &T, 1, TB_MAX_SWEEPS, "sweeps a pass over memory (TB_SWEEPS)"},
      {"bx", ARG_INT, &bx, 3, 1024, "threads per block along a row, halo included (TB_BLOCK_X)"},
      {"by", ARG_INT, &by, 3, 1024, "threads per block along j, halo included (TB_BLOCK_Y)"},
      {"pinned", ARG_FLAG, &pinned, 0, 1, "host arrays in pinned memory (cudaMallocHost) instead of malloc"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "0: the course's 0 inside; N: random values inside"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time one pass of T sweeps and a device-to-device copy, print a BENCH line"},
      {"sweep", ARG_FLAG, &sweep, 0, 1, "time a table of block sizes at this T, then run with the fastest"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench and -sweep (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)NX * NY * NZ > MAX_POINTS)
    args_fail("a %d x %d x %d grid has %lld points, more than 2^35", NX, NY, NZ, (long long)NX * NY * NZ);
  if (bx * by > 1024) args_fail("a %dx%d block: at most 1024 threads a block", bx, by);
  if (bx <= 2 * T || by <= 2 * T)
    args_fail("a %dx%d block with -T=%d: the halo (T columns each side) leaves no output tile; need -bx and -by > 2T",
              bx, by, T);

  int dev = findCudaDevice(argc, argv);
  // the rings of the T-1 intermediate sweeps and of the input: over 48 KB needs the opt-in attribute
  size_t shared = tb_shared_bytes(T, bx, by);
  int optin = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (shared > (size_t)optin)
    args_fail("a %dx%d block with -T=%d needs %zu bytes of shared memory; this GPU gives a block at most %d", bx, by, T,
              shared, optin);
  // -sweep tries blocks of up to 1024 threads: allow their shared memory too where the GPU has it
  size_t max_shared = tb_shared_bytes(T, 32, 32);
  if (max_shared > (size_t)optin || max_shared < shared) max_shared = shared;
  checkCudaErrors(cudaFuncSetAttribute(GPU_laplace3d_tb, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)max_shared));
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, GPU_laplace3d_tb));
  printf("GPU_laplace3d_tb: %d sweeps a pass, %d registers, %zu bytes of shared memory a block\n", T, attr.numRegs,
         shared);
  if (bx * by > attr.maxThreadsPerBlock)
    args_fail("a %dx%d block: at %d registers a thread the kernel launches at most %d threads a block", bx, by,
              attr.numRegs, attr.maxThreadsPerBlock);

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

  tb_launch a = {NX, NY, NZ, T, dim3(), dim3(), 0, max_shared, attr.maxThreadsPerBlock, d_u1, d_u2};
  double moved = 8.0 * (double)npoints; // one read and one write of each point: one sweep's minimum traffic
  bench_ref ref;
  if (bench || sweep) ref = bench_reference(dev, moved, reps); // the 100 % line, measured in this run
  if (sweep) { // a pass of T sweeps per block shape; T x 8 bytes a point, so the % column is the effective one
    static const int xs[] = {32, 64, 128, 256}, ys[] = {4, 8, 12, 16, 24, 32};
    int ts[] = {T};
    block_shape best = sweep_shapes("GPU_laplace3d_tb", launch_laplace3d_tb, sweep_block, &a, xs, 4, ys, 6, ts, 1, "T",
                                    moved * T, &ref, reps);
    if (best.x > 0) {
      bx = best.x;
      by = best.y;
    }
  }

  // poison u2 with 0xff bytes (NaN): a point the kernel forgets to write cannot pass
  checkCudaErrors(cudaMemset(d_u2, 0xff, bytes));

  set_pass(&a, T, bx, by);
  printf("Block: %d x %d (output tile %d x %d), grid of blocks: %d x %d\n", bx, by, bx - 2 * T, by - 2 * T, a.grid.x,
         a.grid.y);

  // execute REPEAT sweeps as passes of T sweeps (the last pass fewer), swapping u1 and u2 after each pass
  int passes = 0;
  t = event_timer_start();
  for (int done = 0; done < REPEAT; done += a.T, passes++) {
    set_pass(&a, REPEAT - done < T ? REPEAT - done : T, bx, by);
    GPU_laplace3d_tb<<<a.grid, a.block, a.shared>>>(NX, NY, NZ, a.T, d_u1, d_u2);
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
    set_pass(&a, T, bx, by);
    float ms = time_median_ms(launch_laplace3d_tb, &a, 3, reps);
    // the same kernel at one sweep a pass, for the ratio that temporal blocking buys (x_T1)
    set_pass(&a, 1, bx, by);
    float ms1 = time_median_ms(launch_laplace3d_tb, &a, 3, reps);
    double sweep_ms = ms / T, GBps = moved / (sweep_ms * 1e-3) / 1e9;
    printf("laplace3d_tb: %.4f ms a pass of %d sweeps, %.4f ms a sweep, effectively %.1f GB/s = %.1f%% of a "
           "device-to-device copy (%.1f GB/s)\n",
           ms, T, sweep_ms, GBps, 100.0 * GBps / ref.copy_GBps, ref.copy_GBps);
    printf("laplace3d_tb at -T=1: %.4f ms a sweep; -T=%d is %.2fx faster a sweep\n", ms1, T, ms1 / sweep_ms);
    char size[64], extra[128];
    snprintf(size, sizeof(size), "%dx%dx%d", NX, NY, NZ);
    snprintf(extra, sizeof(extra), "T=%d block=%dx%d ms_pass=%.4f ms_T1=%.4f x_T1=%.2f effective=1", T, bx, by, ms, ms1,
             ms1 / sweep_ms);
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
