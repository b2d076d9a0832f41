/*
 * stencil/s3_fast_host.cuh -- practical 3, handout step 8: the host side of GPU_laplace3d_fast
 * (stencil/s3_fast.cuh, which includes this): the launch, the -sweep table of block shapes, and the
 * runner's calls (stencil/stencil.h) that make laplace3d_ladder.cu the program laplace3d_fast.
 */
#ifndef STENCIL_S3_FAST_HOST_CUH
#define STENCIL_S3_FAST_HOST_CUH

#include <stdio.h>

#include "args.h"
#include "stencil/stencil.h"
#include "sweep.h"
#include "timing.h"

static void launch_laplace3d_fast(void *p) {
  stencil_launch *a = (stencil_launch *)p;
  GPU_laplace3d_fast<<<a->grid, a->block>>>(a->NX, a->NY, a->NZ, a->pitch, a->kchunk, a->d_u1, a->d_u2);
  getLastCudaError("GPU_laplace3d_fast execution failed");
}

static void set_block(stencil_launch *a, int bx, int by, int kchunk) {
  a->kchunk = kchunk;
  a->block = dim3(bx, by);
  // bx threads cover 4 * bx floats of a row, by threads ROWS * by rows, rounded up; kchunk planes in k.
  // trick 5: blocks start in order of x, then y, then z, so the chunk (z) varies slowest: the resident
  // blocks cover whole planes of one or a few chunks and move up through k together
  a->grid = dim3((a->pitch / 4 + bx - 1) / bx, (a->NY + ROWS * by - 1) / (ROWS * by), (a->NZ + kchunk - 1) / kchunk);
}

// the shapes -sweep tries: blocks the kernel can launch at its register count, chunks up to the whole column
static int fast_sweep_block(void *p, block_shape s) {
  stencil_launch *a = (stencil_launch *)p;
  if (s.x * s.y > a->maxthreads || s.z > a->NZ) return 0;
  set_block(a, s.x, s.y, s.z);
  return 1;
}

static void fast_options(arg_spec *o, stencil_block *b) {
  b->bx = FAST_BLOCK_X, b->by = FAST_BLOCK_Y, b->kchunk = KCHUNK;
  o[0] = {"bx", ARG_INT, &b->bx, 32, 1024, "threads per block along a row (FAST_BLOCK_X), a multiple of 32"};
  o[1] = {"by", ARG_INT, &b->by, 1, 32, "rows per block (FAST_BLOCK_Y)"};
  o[2] = {"kchunk", ARG_INT, &b->kchunk, 1, 65535, "planes each block marches through (KCHUNK)"};
}

static void fast_check_args(const stencil_block *b) {
  if (b->bx % 32 != 0 || b->bx * b->by > 1024)
    args_fail("a %dx%d block: -bx must be a multiple of 32 and the block at most 1024 threads", b->bx, b->by);
}

static void fast_prepare(stencil_launch *a, const stencil_block *b, int dev) {
  (void)dev;
  // tricks 4 and 6: the register count decides the largest block that launches (MAX_THREADS or fewer)
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, GPU_laplace3d_fast));
  printf("GPU_laplace3d_fast: %d rows per thread, %d registers, blocks of at most %d threads\n", ROWS, attr.numRegs,
         attr.maxThreadsPerBlock);
  if (b->bx * b->by > attr.maxThreadsPerBlock)
    args_fail("a %dx%d block: at %d registers per thread the kernel launches at most %d threads per block", b->bx,
              b->by, attr.numRegs, attr.maxThreadsPerBlock);
  a->maxthreads = attr.maxThreadsPerBlock;
}

// time every block and chunk in a table, and go on with the fastest
static void fast_sweep(stencil_launch *a, stencil_block *b, double moved, const bench_ref *ref, int reps) {
  static const int xs[] = {32, 64, 128, 256}, ys[] = {1, 2, 4, 8, 16};
  int ks[] = {4, 8, 12, 16, 24, 32, 48, 64, 128, a->NZ}; // the last: one chunk, the whole column
  block_shape best = sweep_shapes("GPU_laplace3d_fast", launch_laplace3d_fast, fast_sweep_block, a, xs, 4, ys, 5, ks,
                                  10, "kchunk", moved, ref, reps);
  b->bx = best.x;
  b->by = best.y;
  b->kchunk = best.z;
}

static void fast_configure(stencil_launch *a, const stencil_block *b) {
  set_block(a, b->bx, b->by, b->kchunk);
  printf("Block: %d x %d, %d planes per block, grid of blocks: %d x %d x %d\n", b->bx, b->by, b->kchunk, a->grid.x,
         a->grid.y, a->grid.z);
}

// execute GPU kernel REPEAT times, swapping u1 and u2 after each
static void fast_iterate(stencil_launch *a, const stencil_block *b, int REPEAT, float **d_u1, float **d_u2) {
  event_timer t = event_timer_start();
  for (int i = 1; i <= REPEAT; ++i) {
    GPU_laplace3d_fast<<<a->grid, a->block>>>(a->NX, a->NY, a->NZ, a->pitch, b->kchunk, *d_u1, *d_u2);
    getLastCudaError("GPU_laplace3d_fast execution failed");
    float *d_foo = *d_u1;
    *d_u1 = *d_u2;
    *d_u2 = d_foo;
  }
  float milli = event_timer_stop(&t);
  printf("%dx GPU_laplace3d_fast: %.1f (ms)\n", REPEAT, milli);
}

// one iteration timed alone (warm-up, median), against the copy
static void fast_bench(stencil_launch *a, const stencil_block *b, const char *size, double moved, const bench_ref *ref,
                       int reps) {
  char extra[64];
  snprintf(extra, sizeof(extra), "block=%dx%d kchunk=%d pitch=%d", b->bx, b->by, b->kchunk, a->pitch);
  bench_report(ref, "3", "laplace3d_fast", size, launch_laplace3d_fast, a, reps, moved, extra);
}

// step 3 as the runner sees it: padded rows, and the calls above in stencil_step's order
static const stencil_step s3_fast = {1,
                                     "time one iteration and a device-to-device copy, print a BENCH line",
                                     "time a table of block sizes and chunks, then run with the fastest",
                                     fast_options,
                                     fast_check_args,
                                     fast_prepare,
                                     fast_sweep,
                                     fast_configure,
                                     fast_iterate,
                                     fast_bench,
                                     NULL};

#endif /* STENCIL_S3_FAST_HOST_CUH */
