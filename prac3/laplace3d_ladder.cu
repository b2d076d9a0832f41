/*
 * laplace3d_ladder.cu -- practical 3, steps 8 and 10: the ladder of 3-D Laplace kernels, one runner.
 * Built without LADDER_STEP it is the program laplace3d_ladder: every step on the same grid, each checked
 * exactly against REPEAT sweeps of Gold_laplace3d, and with -bench one table of ms per sweep against a
 * device-to-device copy timed in the same run (step 10's question: how far past the copy does each get?):
 *   0  the copy            stencil/steps.cuh       the 100 % line: the faster of cudaMemcpy and a copy kernel
 *   1  GPU_laplace3d       laplace3d_kernel.h      the course's kernel, 2-D blocks marching in k (32 x 4)
 *   2  GPU_laplace3d_new   laplace3d_kernel_new.h  the course's 3-D kernel, a thread per point (32 x 4 x 2)
 *   3  GPU_laplace3d_fast  stencil/s3_fast.cuh     one sweep per pass at the copy's speed (step 8)
 *   4  GPU_laplace3d_tb    stencil/s4_tb.cuh       T sweeps per pass, temporal blocking (step 10; -T=)
 * Each step runs at its program's default block. Built with -DLADDER_STEP=N it is one step's program,
 * with that step's options and output:
 *   LADDER_STEP=3  laplace3d_fast     LADDER_STEP=4  laplace3d_tb
 * Everything but the kernel is the course's program: u = 1 on the boundary and 0 inside (or random inside
 * with -seed), REPEAT iterations on the GPU and on the CPU, and the two must agree exactly
 * (rms error = 0.000000). The step header supplies its options, its launch, its -sweep table and its -bench
 * line (stencil/stencil.h says what it is asked). By hand (-fopenmp: the gold on every core, as make builds it):
 *   F="-O3 -arch=native -I. -I../common -Xcompiler -fopenmp"
 *   nvcc $F laplace3d_ladder.cu laplace3d_gold.c -o laplace3d_ladder
 *   nvcc $F -DLADDER_STEP=3 laplace3d_ladder.cu laplace3d_gold.c -o laplace3d_fast
 *   nvcc $F -DLADDER_STEP=4 laplace3d_ladder.cu laplace3d_gold.c -o laplace3d_tb
 */
#if !defined(LADDER_STEP)
#define COURSE_STEPS "practical 3, workbook steps 8 and 10 (beyond the course; kernels 1-2 are course steps 2 and 4's)"
#elif LADDER_STEP == 3
#define COURSE_STEPS "practical 3, workbook step 8 (beyond the course)"
#elif LADDER_STEP == 4
#define COURSE_STEPS "practical 3, workbook step 10 (beyond the course)"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "grid3d.h"
#include "helper_cuda.h"
#include "timing.h"
#include "tuned.h"

#include "laplace3d_pad.h" // row_pitch, and the copies of padded rows (step 6)
#include "prac3_gold.h"
#include "stencil/stencil.h"

#ifndef LADDER_STEP // the whole ladder
#include "ladder.h"
#include "laplace3d_kernel.h"
#include "laplace3d_kernel_new.h"
#include "stencil/s3_fast.cuh"
#include "stencil/s4_tb.cuh"
#elif LADDER_STEP == 3
#include "stencil/s3_fast.cuh"
static const stencil_step *const S = &s3_fast;
#elif LADDER_STEP == 4
#include "stencil/s4_tb.cuh"
static const stencil_step *const S = &s4_tb;
#else
#error "build with -DLADDER_STEP=3 (laplace3d_fast), -DLADDER_STEP=4 (laplace3d_tb) or neither (laplace3d_ladder)"
#endif

// the largest grid accepted: 2^35 points (128 GiB an array, more than any GPU holds)
#define MAX_POINTS (1LL << 35)

// Gold treatment: REPEAT sweeps of Gold_laplace3d from u (overwritten) through tmp, timed; returns the one of
// the two that holds the last sweep
static const float *gold_sweeps(int NX, int NY, int NZ, int REPEAT, float *u, float *tmp) {
  double t0 = wall_ms();
  for (int i = 1; i <= REPEAT; ++i) {
    Gold_laplace3d(NX, NY, NZ, u, tmp);
    float *h_foo = u;
    u = tmp;
    tmp = h_foo;
  }
  printf("%dx Gold_laplace3d: %.1f (ms)\n", REPEAT, wall_ms() - t0);
  return u;
}

#ifdef LADDER_STEP
int main(int argc, char **argv) {
  int NX = 512, NY = 512, NZ = 512, REPEAT = 10;
  int pinned = 0, seed = 0, bench = 0, sweep = 0, reps = 20;
  stencil_block blk = {0, 0, 0, 1};
  arg_spec opts[] = {
      {"nx", ARG_INT, &NX, 3, 65535, "grid points in i (boundary included)"},
      {"ny", ARG_INT, &NY, 3, 65535, "grid points in j"},
      {"nz", ARG_INT, &NZ, 3, 65535, "grid points in k"},
      {"repeat", ARG_INT, &REPEAT, 1, 100000, "Jacobi iterations"},
      {}, // the step's three options, filled by S->options: -bx= (or -T=), -by=, -kchunk=
      {},
      {},
      {"pinned", ARG_FLAG, &pinned, 0, 1, "host arrays in pinned memory (cudaMallocHost) instead of malloc"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "0: the course's 0 inside; N: random values inside"},
      {"bench", ARG_FLAG, &bench, 0, 1, S->bench_help},
      {"sweep", ARG_FLAG, &sweep, 0, 1, S->sweep_help},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench and -sweep (the median is used)"},
  };
  S->options(opts + 4, &blk);
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)NX * NY * NZ > MAX_POINTS)
    args_fail("a %d x %d x %d grid has %lld points, more than 2^35", NX, NY, NZ, (long long)NX * NY * NZ);
  S->check_args(&blk);
  int pitch = row_pitch(NX, S->padded); // trick 3: every row starts on a 128-byte boundary

  int dev = findCudaDevice(argc, argv);
  if (S->table) { // practical 10's table for this GPU and size (its cube root), unless the user typed its flags
    // the GPU's name, or under a GPU profile the profile's GPU: a T4 profile on an H100 must not read the H100's
    if (tuned_settings(device_limits(dev)->name, S->table, cbrt((double)NX * NY * NZ), argc, argv, opts, ARG_COUNT(opts)))
      S->check_args(&blk); // the table's configuration, checked as typed flags are
  }
  stencil_launch a = {NX, NY, NZ, pitch, blk.kchunk, blk.T, blk.by, 0, dim3(), dim3(), 0, 0, NULL, NULL};
  S->prepare(&a, &blk, dev);
  size_t npoints = (size_t)NX * NY * NZ;
  size_t bytes = npoints * sizeof(float);
  size_t dbytes = (size_t)pitch * NY * NZ * sizeof(float);
  int user_sized = args_given(argc, argv, "nx") || args_given(argc, argv, "ny") || args_given(argc, argv, "nz");
  device_memory_check(2 * dbytes + ((bench || sweep) ? 2 * bytes : 0),
                      (bench || sweep) ? "u1, u2 and the copy test's two buffers" : "u1 and u2", user_sized);

  printf("Grid dimensions: %d x %d x %d\n", NX, NY, NZ);
  if (S->padded)
    printf("Row pitch: %d floats (%zu bytes), plane pitch: %zu floats\n", pitch, pitch * sizeof(float),
           (size_t)pitch * NY);

  // allocate memory for arrays: u1 holds the gold result at the end, u2 the GPU's, u3 is gold's scratch
  // (-pinned takes u1 and u2 from page-locked memory, which the copy engine reads directly)
  float *h_u1 = (float *)host_malloc(bytes, pinned);
  float *h_u2 = (float *)host_malloc(bytes, pinned);
  float *h_u3 = (float *)malloc(bytes);
  float *d_u1, *d_u2;
  if (!h_u1 || !h_u2 || !h_u3) return result_fail("out of host memory for three %zu-byte arrays", bytes);
  memset(h_u2, 0, bytes); // touch every page now, so that the copy back times the copy, not page faults
  checkCudaErrors(cudaMalloc((void **)&d_u1, dbytes));
  checkCudaErrors(cudaMalloc((void **)&d_u2, dbytes));

  // initialise u1: 1 on the boundary, 0 inside (or random inside with -seed)
  grid3d_init(h_u1, NX, NY, NZ, (unsigned int)seed);

  // copy u1 to device; padded rows go row by row (cudaMemcpy2D), the padding zeroed first
  event_timer t = event_timer_start();
  if (!S->padded)
    checkCudaErrors(cudaMemcpy(d_u1, h_u1, bytes, cudaMemcpyHostToDevice));
  else
    copy_in_padded(d_u1, h_u1, NX, NY, NZ, pitch);
  float milli = event_timer_stop(&t);
  printf("Copy u1 to device: %.1f (ms), %.1f GB/s (%s host memory)\n", milli, bytes / (milli * 1e-3) / 1e9,
         pinned ? "pinned" : "pageable");

  a.d_u1 = d_u1;
  a.d_u2 = d_u2;
  double moved = 8.0 * (double)npoints; // one read and one write of each point: one sweep's minimum traffic
  bench_ref ref;
  if (bench || sweep) ref = bench_reference(dev, moved, reps); // the 100 % line, measured in this run
  if (sweep) S->sweep(&a, &blk, moved, &ref, reps);            // a table of blocks; go on with the fastest

  // poison u2 with 0xff bytes (NaN): a point the kernel forgets to write cannot pass
  checkCudaErrors(cudaMemset(d_u2, 0xff, dbytes));

  // set up the execution configuration, and execute REPEAT iterations, swapping u1 and u2 after each launch
  S->configure(&a, &blk);
  S->iterate(&a, &blk, REPEAT, &d_u1, &d_u2);

  // copy u1 (the last result) back to the host, leaving any padding behind
  t = event_timer_start();
  if (!S->padded)
    checkCudaErrors(cudaMemcpy(h_u2, d_u1, bytes, cudaMemcpyDeviceToHost));
  else
    copy_out_padded(h_u2, d_u1, NX, NY, NZ, pitch);
  milli = event_timer_stop(&t);
  printf("Copy u2 to host: %.1f (ms), %.1f GB/s\n", milli, bytes / (milli * 1e-3) / 1e9);

  // Gold treatment (h_u1 and h_u3 in turn), then the error check: the same operations in the same order, so
  // exactly equal
  const float *h_gold = gold_sweeps(NX, NY, NZ, REPEAT, h_u1, h_u3);
  gold_stats st;
  compare_float(h_u2, h_gold, npoints, 0.0, 0.0, &st);
  printf("rms error = %f\n", st.rms_err);
  gold_report("u", &st);

  // one launch timed alone (warm-up, median), against the copy
  if ((bench || sweep) && st.nbad == 0) {
    a.d_u1 = d_u1;
    a.d_u2 = d_u2;
    char size[64];
    snprintf(size, sizeof(size), "%dx%dx%d", NX, NY, NZ);
    S->bench(&a, &blk, size, moved, &ref, reps);
  }

  // release GPU and CPU memory
  checkCudaErrors(cudaFree(d_u1));
  checkCudaErrors(cudaFree(d_u2));
  host_free(h_u1, pinned);
  host_free(h_u2, pinned);
  free(h_u3);

  return gold_verdict(&st, "u");
}

#else                        // laplace3d_ladder: every kernel on one grid, each checked, then one table
#include "stencil/steps.cuh" // the steps in the order of the table, as ladder.h calls them

int main(int argc, char **argv) {
  int NX = 512, NY = 512, NZ = 512, REPEAT = 6, T = TB_SWEEPS, seed = 1, bench = 0, reps = 20;
  arg_spec opts[] = {
      {"nx", ARG_INT, &NX, 3, 65535, "grid points in i (boundary included)"},
      {"ny", ARG_INT, &NY, 3, 65535, "grid points in j"},
      {"nz", ARG_INT, &NZ, 3, 65535, "grid points in k"},
      {"repeat", ARG_INT, &REPEAT, 1, 100000, "Jacobi iterations each kernel's check runs"},
      {"T", ARG_INT, &T, 1, 7, "kernel 4's sweeps per pass (TB_SWEEPS; 7 needs TB_BLOCK_Y of 48 or less)"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "0: the course's 0 inside; N: random values inside"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time every kernel and the copy, print the table and BENCH lines"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)NX * NY * NZ > MAX_POINTS)
    args_fail("a %d x %d x %d grid has %lld points, more than 2^35", NX, NY, NZ, (long long)NX * NY * NZ);
  lctx c = lctx(); // every field zero
  c.NX = NX, c.NY = NY, c.NZ = NZ, c.REPEAT = REPEAT, c.T = T;
  c.b3 = {FAST_BLOCK_X, FAST_BLOCK_Y, KCHUNK, 1};
  c.b4 = {TB_BLOCK_X, TB_BLOCK_Y, TB_KCHUNK, T};
  s4_tb.check_args(&c.b4);

  int dev = findCudaDevice(argc, argv);
  size_t n = (size_t)NX * NY * NZ, bytes = n * sizeof(float);
  c.dbytes = (size_t)row_pitch(NX, 1) * NY * NZ * sizeof(float);
  int user_sized = args_given(argc, argv, "nx") || args_given(argc, argv, "ny") || args_given(argc, argv, "nz");
  device_memory_check(2 * c.dbytes + (bench ? 2 * bytes : 0),
                      bench ? "two arrays and the copy test's two buffers" : "two arrays", user_sized);
  c.a3 = {NX, NY, NZ, row_pitch(NX, 1), 0, 0, 0, 0, dim3(), dim3(), 0, 0, NULL, NULL};
  c.a4 = {NX, NY, NZ, NX, 0, 0, 0, 0, dim3(), dim3(), 0, 0, NULL, NULL};
  s3_fast.prepare(&c.a3, &c.b3, dev);
  s4_tb.prepare(&c.a4, &c.b4, dev);
  s3_fast.configure(&c.a3, &c.b3);
  printf("Grid dimensions: %d x %d x %d, each kernel checked after %d iterations\n", NX, NY, NZ, REPEAT);

  float *h_u0 = (float *)malloc(bytes), *h_gold = (float *)malloc(bytes), *h_tmp = (float *)malloc(bytes);
  c.h_out = (float *)malloc(bytes);
  if (!h_u0 || !h_gold || !h_tmp || !c.h_out) return result_fail("out of host memory for four %zu-byte arrays", bytes);
  grid3d_init(h_u0, NX, NY, NZ, (unsigned int)seed);
  memcpy(h_gold, h_u0, bytes);
  c.h_u0 = h_u0;
  c.h_gold = gold_sweeps(NX, NY, NZ, REPEAT, h_gold, h_tmp);
  checkCudaErrors(cudaMalloc((void **)&c.d_a, c.dbytes));
  checkCudaErrors(cudaMalloc((void **)&c.d_b, c.dbytes));

  int ok = 1;
  if (!bench) {
    for (int k = 0; k < NSTEPS; k++) ok = ladder_check(&c, k) && ok;
  } else {
    double moved = 8.0 * (double)n; // one read and one write of each point: one sweep's minimum traffic
    bench_ref ref = bench_reference(dev, moved, reps);
    c.copy_kernel = ref.kernel_copy_GBps > ref.memcpy_GBps;
    char header[192], size[64];
    snprintf(header, sizeof(header),
             "\n%d x %d x %d, %.1f MB a sweep; copy %.1f GB/s, peak %.1f GB/s (kernel 4: ms a sweep, effective GB/s)\n"
             "  kernel                ms      GB/s   %% copy   x copy",
             NX, NY, NZ, moved * 1e-6, ref.copy_GBps, ref.peak_GBps);
    snprintf(size, sizeof(size), "%dx%dx%d", NX, NY, NZ);
    static const int effective[NSTEPS] = {0, 0, 0, 0, 1}; // step 4: T sweeps per pass, counted as T sweeps' bytes
    ladder L = {NSTEPS,     names,          NULL,        14,       &c,   ladder_check,
                ladder_run, ladder_recheck, 3,           reps,     NULL,    // calls
                header,     "copy",         moved,       0.0,      &ref, 8, // table: GB/s, x copy
                "3",        size,           ladder_keys, effective};        // BENCH lines
    c.h_in = (float *)malloc(bytes), c.h_tmp = (float *)malloc(bytes);
    if (!c.h_in || !c.h_tmp) return result_fail("out of host memory for the timed runs' check");
    double ms[NSTEPS];
    int passed[NSTEPS];
    ok = ladder_check_and_time(&L, ms, passed);
    ms[4] /= T; // step 4 ran a pass of T sweeps: its time per sweep
    ladder_table(&L, ms, passed);
    ladder_bench_lines(&L, ms);
  }

  checkCudaErrors(cudaFree(c.d_a));
  checkCudaErrors(cudaFree(c.d_b));
  free(h_u0);
  free(h_gold);
  free(h_tmp);
  free(c.h_out);
  free(c.h_in);
  free(c.h_tmp);
  return result_check(ok, "a kernel's result differs from the gold (see above)");
}
#endif
