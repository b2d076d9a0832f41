/*
 * stencil/s4_tb_host.cuh -- practical 3, handout step 10: the host side of GPU_laplace3d_tb
 * (stencil/s4_tb.cuh, which includes this): one kernel for each T and block height, a pass's launch, and the
 * runner's calls (stencil/stencil.h) that make laplace3d_ladder.cu the program laplace3d_tb.
 */
#ifndef STENCIL_S4_TB_HOST_CUH
#define STENCIL_S4_TB_HOST_CUH

#include <stdio.h>

#include "args.h"
#include "helper_cuda.h"
#include "stencil/stencil.h"
#include "sweep.h"
#include "timing.h"

// shared memory for T sweeps per pass: two buffers (this step's and last step's) of strip ends for each level 0..T-1
static size_t tb_shared_bytes(int T, int by) {
  return (size_t)2 * T * (by / TB_ROWS + 2) * 2 * TB_BLOCK_X * sizeof(float);
}

// the kernels: one for each T (1..8) and block height in columns (16, 32, 48, 64), except where none can run:
// T = 8 at 16 columns (no output tile), and where a thread's T levels need more registers than a block of
// that many threads can have (65536 per SM over the threads), so that ptxas would spill: T = 7 and 8 at 64
// columns (512 threads, 128 registers each) and T = 8 at 48 (384 threads, 168)
typedef void (*tb_kernel)(int, int, int, int, const float *, float *);
#define TB_KERNELS_1_6(BY)                                                                            \
  GPU_laplace3d_tb<1, BY>, GPU_laplace3d_tb<2, BY>, GPU_laplace3d_tb<3, BY>, GPU_laplace3d_tb<4, BY>, \
      GPU_laplace3d_tb<5, BY>, GPU_laplace3d_tb<6, BY>
static const tb_kernel tb_kernels[4][TB_MAX_SWEEPS] = {
    {TB_KERNELS_1_6(16), GPU_laplace3d_tb<7, 16>, NULL},
    {TB_KERNELS_1_6(32), GPU_laplace3d_tb<7, 32>, GPU_laplace3d_tb<8, 32>},
    {TB_KERNELS_1_6(48), GPU_laplace3d_tb<7, 48>, NULL},
    {TB_KERNELS_1_6(64), NULL, NULL}};
static tb_kernel tb_kernel_for(int T, int by) { return tb_kernels[by / 16 - 1][T - 1]; }
static int tb_by_ok(int by) { return by == 16 || by == 32 || by == 48 || by == 64; }

// a pass of T sweeps: each block's output tile is (32 - 2T) x (by - 2T) columns by kchunk planes
static void set_pass(stencil_launch *a, int T, int by, int kchunk) {
  a->T = T;
  a->kchunk = kchunk;
  a->by = by;
  a->block = dim3(TB_BLOCK_X, by / TB_ROWS);
  a->grid = dim3((a->NX + TB_BLOCK_X - 2 * T - 1) / (TB_BLOCK_X - 2 * T), (a->NY + by - 2 * T - 1) / (by - 2 * T),
                 (a->NZ + kchunk - 1) / kchunk);
  a->shared = tb_shared_bytes(T, by);
}

// the shapes -sweep tries at a->T sweeps per pass: s.y the block's columns in j, s.z the k chunk
static int tb_sweep_block(void *p, block_shape s) {
  stencil_launch *a = (stencil_launch *)p;
  if (s.y <= 2 * a->T) return 0;                       // no output tile
  if (!tb_kernel_for(a->T, s.y)) return 0;             // too many registers for the block's threads
  if (tb_shared_bytes(a->T, s.y) > a->optin) return 0; // more shared memory than this GPU gives a block
  if (s.z > a->NZ && s.z != a->kchunk) return 0;       // a chunk longer than the grid is the same as the grid
  set_pass(a, a->T, s.y, s.z);
  return 1;
}

static void launch_laplace3d_tb(void *p) {
  stencil_launch *a = (stencil_launch *)p;
  tb_kernel_for(a->T, a->by)<<<a->grid, a->block, a->shared>>>(a->NX, a->NY, a->NZ, a->kchunk, a->d_u1, a->d_u2);
  getLastCudaError("GPU_laplace3d_tb execution failed");
}

static void tb_options(arg_spec *o, stencil_block *b) {
  b->T = TB_SWEEPS, b->by = TB_BLOCK_Y, b->kchunk = TB_KCHUNK;
  o[0] = {"T", ARG_INT, &b->T, 1, TB_MAX_SWEEPS, "sweeps per pass over memory (TB_SWEEPS)"};
  o[1] = {"by", ARG_INT, &b->by, 16, 64, "a block's columns in j, halo included: 16, 32, 48 or 64 (TB_BLOCK_Y)"};
  o[2] = {"kchunk", ARG_INT, &b->kchunk, 1, 65535, "output planes per block (TB_KCHUNK)"};
}

static void tb_check_args(const stencil_block *b) {
  int T = b->T, by = b->by;
  if (!tb_by_ok(by)) args_fail("-by=%d: the kernel is built for blocks of 16, 32, 48 or 64 columns in j", by);
  if (by <= 2 * T)
    args_fail("a %dx%d block with -T=%d: the halo (T columns each side) leaves no output tile; need -by > 2T",
              TB_BLOCK_X, by, T);
  if (!tb_kernel_for(T, by))
    args_fail("a %dx%d block with -T=%d: %d levels need more registers than a block of %d threads can have; use "
              "-by=%s",
              TB_BLOCK_X, by, T, T, TB_BLOCK_X * by / TB_ROWS, T == 7 ? "48 or less" : "32");
}

static void tb_prepare(stencil_launch *a, const stencil_block *b, int dev) {
  int T = b->T, by = b->by;
  // two buffers of strip ends per level for levels 0..T-1: over 48 KB (T = 6 at 64 columns, T = 7 at 48) needs the
  // opt-in attribute, which every kernel gets for the most its own block needs, where the GPU has it
  int optin = device_limits(dev)->smem_block_optin;
  if (tb_shared_bytes(T, by) > (size_t)optin)
    device_limit_exceeded("a %dx%d block with -T=%d needs %zu bytes of shared memory; this GPU gives a block at "
                          "most %d",
                          TB_BLOCK_X, by, T, tb_shared_bytes(T, by), optin);
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
  a->optin = (size_t)optin;
}

// a pass of T sweeps per block and k chunk; T x 8 bytes per point, so the % column is the effective one
static void tb_sweep(stencil_launch *a, stencil_block *b, double moved, const bench_ref *ref, int reps) {
  static const int xs[] = {TB_BLOCK_X}, ys[] = {16, 32, 48, 64};
  int kchunk = b->kchunk;
  int ks[] = {32, 64, 128, 256, kchunk};
  int nk = kchunk == 32 || kchunk == 64 || kchunk == 128 || kchunk == 256 ? 4 : 5;
  block_shape best = sweep_shapes("GPU_laplace3d_tb", launch_laplace3d_tb, tb_sweep_block, a, xs, 1, ys, 4, ks, nk,
                                  "kchunk", moved * b->T, ref, reps);
  if (best.x > 0) {
    b->by = best.y;
    b->kchunk = best.z;
  }
}

static void tb_configure(stencil_launch *a, const stencil_block *b) {
  int T = b->T, by = b->by, kchunk = b->kchunk;
  set_pass(a, T, by, kchunk);
  printf("Block: %d x %d columns, %d x %d threads (output tile %d x %d x %d planes), grid of blocks: %d x %d x %d\n",
         TB_BLOCK_X, by, TB_BLOCK_X, by / TB_ROWS, TB_BLOCK_X - 2 * T, by - 2 * T, kchunk, a->grid.x, a->grid.y,
         a->grid.z);
}

// execute REPEAT sweeps as passes of T sweeps (the last pass fewer), swapping u1 and u2 after each pass
static void tb_iterate(stencil_launch *a, const stencil_block *b, int REPEAT, float **d_u1, float **d_u2) {
  int T = b->T, by = b->by, kchunk = b->kchunk;
  int passes = 0;
  event_timer t = event_timer_start();
  for (int done = 0; done < REPEAT; done += a->T, passes++) {
    set_pass(a, REPEAT - done < T ? REPEAT - done : T, by, kchunk);
    tb_kernel_for(a->T, by)<<<a->grid, a->block, a->shared>>>(a->NX, a->NY, a->NZ, kchunk, *d_u1, *d_u2);
    getLastCudaError("GPU_laplace3d_tb execution failed");
    float *d_foo = *d_u1;
    *d_u1 = *d_u2;
    *d_u2 = d_foo;
  }
  float milli = event_timer_stop(&t);
  printf("%dx GPU_laplace3d_tb (%d passes): %.1f (ms)\n", REPEAT, passes, milli);
}

// one pass of T sweeps timed alone (warm-up, median), per sweep against the copy's 8 bytes per point
static void tb_bench(stencil_launch *a, const stencil_block *b, const char *size, double moved, const bench_ref *ref,
                     int reps) {
  int T = b->T, by = b->by, kchunk = b->kchunk;
  set_pass(a, T, by, kchunk);
  float ms = time_median_ms(launch_laplace3d_tb, a, 3, reps);
  // the same kernel at one sweep per pass, for the ratio that temporal blocking buys (x_T1)
  set_pass(a, 1, by, kchunk);
  float ms1 = time_median_ms(launch_laplace3d_tb, a, 3, reps);
  double sweep_ms = ms / T, GBps = moved / (sweep_ms * 1e-3) / 1e9;
  printf("laplace3d_tb: %.4f ms a pass of %d sweeps, %.4f ms a sweep, effectively %.1f GB/s = %.1f%% of a "
         "device-to-device copy (%.1f GB/s)\n",
         ms, T, sweep_ms, GBps, 100.0 * GBps / ref->copy_GBps, ref->copy_GBps);
  printf("laplace3d_tb at -T=1: %.4f ms a sweep; -T=%d is %.2fx faster a sweep\n", ms1, T, ms1 / sweep_ms);
  char extra[128];
  snprintf(extra, sizeof(extra), "T=%d block=%dx%d kchunk=%d ms_pass=%.4f ms_T1=%.4f x_T1=%.2f", T, TB_BLOCK_X, by,
           kchunk, ms, ms1, ms1 / sweep_ms);
  // effective: a pass reads and writes the grid once for T sweeps, so "moved" a sweep is what one sweep at a time
  // would move, not what this one does; the rate goes in its own columns (timing.h)
  print_bench_effective("3", "laplace3d_tb", size, reps, sweep_ms, moved, ref, extra);
}

// step 4 as the runner sees it: rows not padded, and the calls above in stencil_step's order
static const stencil_step s4_tb = {0,
                                   "time one pass of T sweeps and a device-to-device copy, print a BENCH line",
                                   "time a table of blocks and k chunks at this T, then run with the fastest",
                                   tb_options,
                                   tb_check_args,
                                   tb_prepare,
                                   tb_sweep,
                                   tb_configure,
                                   tb_iterate,
                                   tb_bench,
                                   "laplace3d_tb"};

#endif /* STENCIL_S4_TB_HOST_CUH */
