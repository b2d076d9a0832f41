/*
 * laplace3d.cu -- practical 3: the 3-D Laplace equation by Jacobi iteration, 2-D thread blocks.
 *
 * u = 1 on the boundary of an NX x NY x NZ grid and 0 inside; each iteration replaces every interior
 * value by the average of its six neighbours. The GPU does REPEAT iterations with GPU_laplace3d
 * (laplace3d_kernel.h: one thread per (i, j) column, marching in k), the CPU does the same with
 * Gold_laplace3d, and the two must agree exactly: rms error = 0.000000.
 *
 * Handout steps: build and run (step 1; -pinned puts the host arrays in pinned memory); read the kernel
 * (step 2); tune BLOCK_X and BLOCK_Y with `make BLOCK_X=.. BLOCK_Y=..` or -bx= -by=, or let -sweep time a
 * table of them (step 3); -pad stores a 511^3 grid with rows of 512 floats (step 6); -bench prints the
 * bandwidth (step 7).
 *   nvcc -O3 -arch=native -I../common -Xcompiler -fopenmp laplace3d.cu laplace3d_gold.c -o laplace3d
 * The exercise (make exercises): built with -DEXERCISE as exercises/laplace3d_pad, the padding (step 6) is
 * the learner's, exercises/laplace3d_pad.h, and -pad is on by default.
 */
#define COURSE_STEPS "practical 3, workbook steps 1-3 and 5-7 (course steps 1-3 and 5-7)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 6)s in exercises/laplace3d_pad.h"
#endif
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

// step 3: the block shape; make BLOCK_X=.. BLOCK_Y=.. overrides these (for laplace3d and laplace3d_new
// only), -bx= -by= too
#ifndef BLOCK_X
#define BLOCK_X 32 // one warp along i: a warp's 32 loads of a row are 128 consecutive bytes
#endif
#ifndef BLOCK_Y
#define BLOCK_Y 4 // 128 threads per block: small enough for many blocks on every SM
#endif

// the largest grid accepted: 2^35 points (128 GiB an array, more than any GPU holds)
#define MAX_POINTS (1LL << 35)

#include "laplace3d_kernel.h"

#ifndef EXERCISE
#include "laplace3d_pad.h" // step 6: the row pitch and the copies of padded rows
#define PAD_DEFAULT 0      // -pad is off unless asked for
#define PAD_HELP "store rows with a pitch rounded up to 32 floats (128 bytes)"
#else
#include "exercises/laplace3d_pad.h" // make exercises: the learner's
#define PAD_DEFAULT 1                // the exercise is the -pad path
#define PAD_HELP                                                                                        \
  "store rows with a pitch rounded up to 32 floats (128 bytes); on by default in this exercise build, " \
  "-pad=0 turns it off"
#endif

// step 6: how many floats of d's padding (the pitch - NX past the end of each row) are not 0, read back one plane
// at a time. copy_in_padded must zero them: GPU_laplace3d never reads them, but laplace3d_fast's float4 loads do,
// and compute-sanitizer's initcheck reports a read of memory nothing wrote. The exercise's poison has already
// written them (NaN), so what this program can check is that they read 0.
static size_t padding_not_zero(const float *d, int NX, int NY, int NZ, int pitch) {
  size_t w = (size_t)(pitch - NX), n = 0; // floats of padding per row
  if (w == 0) return 0;
  float *h = (float *)malloc(w * NY * sizeof(float));
  if (!h) exit(result_fail("out of host memory for one plane's padding, %zu bytes", w * NY * sizeof(float)));
  for (int k = 0; k < NZ; ++k) {
    checkCudaErrors(cudaMemcpy2D(h, w * sizeof(float), d + (size_t)k * pitch * NY + NX, pitch * sizeof(float),
                                 w * sizeof(float), NY, cudaMemcpyDeviceToHost));
    for (size_t p = 0; p < w * NY; ++p) n += (h[p] != 0.0f); // a NaN is not 0 either
  }
  free(h);
  return n;
}

// everything one launch needs, for the timing helpers
typedef struct {
  int NX, NY, NZ, pitch;
  dim3 grid, block;
  const float *d_u1;
  float *d_u2;
} laplace_launch;

static void launch_laplace3d(void *p) {
  laplace_launch *a = (laplace_launch *)p;
  GPU_laplace3d<<<a->grid, a->block>>>(a->NX, a->NY, a->NZ, a->pitch, a->d_u1, a->d_u2);
  getLastCudaError("GPU_laplace3d execution failed");
}

// the execution configuration for a bx x by block
static void set_block(laplace_launch *a, int bx, int by) {
  a->block = dim3(bx, by);
  a->grid = dim3((a->NX + bx - 1) / bx, (a->NY + by - 1) / by); // rounded up: the kernel guards i, j
}

// the shapes -sweep tries: whole warps, at most 1024 threads
static int sweep_block(void *p, block_shape s) {
  if (s.x * s.y < 32 || s.x * s.y > 1024) return 0;
  set_block((laplace_launch *)p, s.x, s.y);
  return 1;
}

int main(int argc, char **argv) {
  int NX = 512, NY = 512, NZ = 512, REPEAT = 10, bx = BLOCK_X, by = BLOCK_Y;
  int pad = PAD_DEFAULT, pinned = 0, seed = 0, bench = 0, sweep = 0, reps = 20;
  arg_spec opts[] = {
      {"nx", ARG_INT, &NX, 3, 65535, "grid points in i (boundary included)"},
      {"ny", ARG_INT, &NY, 3, 65535, "grid points in j"},
      {"nz", ARG_INT, &NZ, 3, 65535, "grid points in k"},
      {"repeat", ARG_INT, &REPEAT, 1, 100000, "Jacobi iterations"},
      {"bx", ARG_INT, &bx, 1, 1024, "threads per block in i (BLOCK_X)"},
      {"by", ARG_INT, &by, 1, 1024, "threads per block in j (BLOCK_Y)"},
      {"pad", ARG_FLAG, &pad, 0, 1, PAD_HELP},
      {"pinned", ARG_FLAG, &pinned, 0, 1, "host arrays in pinned memory (cudaMallocHost) instead of malloc"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "0: the course's 0 inside; N: random values inside"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time one iteration and a device-to-device copy, print a BENCH line"},
      {"sweep", ARG_FLAG, &sweep, 0, 1, "time a table of block sizes, then run with the fastest"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench and -sweep (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)NX * NY * NZ > MAX_POINTS)
    args_fail("a %d x %d x %d grid has %lld points, more than 2^35", NX, NY, NZ, (long long)NX * NY * NZ);
  if (bx * by > 1024) args_fail("a %dx%d block has %d threads, more than 1024", bx, by, bx * by);
  int pitch = row_pitch(NX, pad); // step 6: with -pad every row starts on a 128-byte boundary

  int dev = findCudaDevice(argc, argv);
  size_t npoints = (size_t)NX * NY * NZ;
  size_t bytes = npoints * sizeof(float);
  size_t dbytes = (size_t)pitch * NY * NZ * sizeof(float);
  int user_sized = args_given(argc, argv, "nx") || args_given(argc, argv, "ny") || args_given(argc, argv, "nz");
  device_memory_check(2 * dbytes + ((bench || sweep) ? 2 * bytes : 0),
                      (bench || sweep) ? "u1, u2 and the copy test's two buffers" : "u1 and u2", user_sized);

  // the course's lines, exactly as it prints them (blank lines and trailing spaces too), so that a learner can
  // diff against its log; the workbook's own lines (block, bandwidths, row pitch) come after its last one
  printf("\nGrid dimensions: %d x %d x %d\n", NX, NY, NZ);

  // allocate memory for arrays: u1 holds the gold result at the end, u2 the GPU's, u3 is gold's scratch
  // (step 1: -pinned takes u1 and u2 from page-locked memory, which the copy engine reads directly)
  float *h_u1 = (float *)host_malloc(bytes, pinned);
  float *h_u2 = (float *)host_malloc(bytes, pinned);
  float *h_u3 = (float *)malloc(bytes);
  float *d_u1, *d_u2, *d_foo;
  if (!h_u1 || !h_u2 || !h_u3) return result_fail("out of host memory for three %zu-byte arrays", bytes);
  memset(h_u2, 0, bytes); // touch every page now, so that the copy back times the copy, not page faults
  checkCudaErrors(cudaMalloc((void **)&d_u1, dbytes));
  checkCudaErrors(cudaMalloc((void **)&d_u2, dbytes));

  // initialise u1: 1 on the boundary, 0 inside (or random inside with -seed)
  grid3d_init(h_u1, NX, NY, NZ, (unsigned int)seed);

  // copy u1 to device; padded rows go row by row (cudaMemcpy2D), the padding zeroed first
  event_timer t = event_timer_start();
  if (!pad)
    checkCudaErrors(cudaMemcpy(d_u1, h_u1, bytes, cudaMemcpyHostToDevice));
  else
    copy_in_padded(d_u1, h_u1, NX, NY, NZ, pitch);
  float milli = event_timer_stop(&t), ms_in = milli;
  printf("\nCopy u1 to device: %.1f (ms) \n", milli);
  size_t pad_nonzero = pad ? padding_not_zero(d_u1, NX, NY, NZ, pitch) : 0; // step 6, untimed; verdict at the end

  laplace_launch a = {NX, NY, NZ, pitch, dim3(), dim3(), d_u1, d_u2};
  double moved = 8.0 * (double)npoints; // step 7: one read and one write of each point per iteration
  bench_ref ref;
  if (bench || sweep) ref = bench_reference(dev, moved, reps); // the 100 % line, measured in this run
  if (sweep) { // step 3: time every block shape in a table, and go on with the fastest
    static const int xs[] = {16, 32, 64, 128, 256, 512}, ys[] = {1, 2, 4, 8, 16, 32}, zs[] = {1};
    block_shape best = sweep_shapes("GPU_laplace3d", launch_laplace3d, sweep_block, &a, xs, 6, ys, 6, zs, 1, "",
                                    moved, &ref, reps);
    bx = best.x;
    by = best.y;
  }

  // poison u2 with 0xff bytes (NaN): a point the kernel forgets to write cannot pass
  checkCudaErrors(cudaMemset(d_u2, 0xff, dbytes));

  // set up the execution configuration
  set_block(&a, bx, by);

  // execute GPU kernel REPEAT times, swapping u1 and u2 after each
  t = event_timer_start();
  for (int i = 1; i <= REPEAT; ++i) {
    GPU_laplace3d<<<a.grid, a.block>>>(NX, NY, NZ, pitch, d_u1, d_u2);
    getLastCudaError("GPU_laplace3d execution failed");
    d_foo = d_u1;
    d_u1 = d_u2;
    d_u2 = d_foo;
  }
  milli = event_timer_stop(&t);
  printf("\n%dx GPU_laplace3d: %.1f (ms) \n", REPEAT, milli);

  // copy u1 (the last result) back to the host
  t = event_timer_start();
  if (!pad)
    checkCudaErrors(cudaMemcpy(h_u2, d_u1, bytes, cudaMemcpyDeviceToHost));
  else
    copy_out_padded(h_u2, d_u1, NX, NY, NZ, pitch);
  float ms_out = event_timer_stop(&t);
  printf("\nCopy u2 to host: %.1f (ms) \n", ms_out);

  // Gold treatment
  double t0 = wall_ms();
  for (int i = 1; i <= REPEAT; ++i) {
    Gold_laplace3d(NX, NY, NZ, h_u1, h_u3);
    float *h_foo = h_u1;
    h_u1 = h_u3;
    h_u3 = h_foo;
  }
  printf("\n%dx Gold_laplace3d: %.1f (ms) \n \n", REPEAT, wall_ms() - t0);

  // error check: the same operations in the same order, so exactly equal
  gold_stats st;
  compare_float(h_u2, h_u1, npoints, 0.0, 0.0, &st);
  printf("rms error = %f \n", st.rms_err);

  // the workbook's lines: the execution configuration, the copies' bandwidths, the row pitch of step 6
  printf("Block: %d x %d, grid of blocks: %d x %d\n", bx, by, a.grid.x, a.grid.y);
  printf("Copies: u1 to device %.1f GB/s, u2 to host %.1f GB/s (%s host memory)\n", bytes / (ms_in * 1e-3) / 1e9,
         bytes / (ms_out * 1e-3) / 1e9, pinned ? "pinned" : "pageable");
  if (pad) printf("Row pitch: %d floats (%zu bytes), plane pitch: %zu floats\n", pitch, pitch * sizeof(float),
                  (size_t)pitch * NY);
  gold_report("u", &st);

  // step 7: one iteration timed alone (warm-up, median), against the copy
  if ((bench || sweep) && st.nbad == 0) {
    a.d_u1 = d_u1;
    a.d_u2 = d_u2;
    char size[64], extra[64];
    snprintf(size, sizeof(size), "%dx%dx%d", NX, NY, NZ);
    snprintf(extra, sizeof(extra), "block=%dx%d pitch=%d", bx, by, pitch);
    checkCudaErrors(cudaMemset(d_u2, 0xff, dbytes)); // poisoned again: what the timed sweeps wrote is checked
    bench_report(&ref, "3", "laplace3d", size, launch_laplace3d, &a, reps, moved, extra);
    // each timed run was one sweep from u1 (the checked result above, equal to the gold's h_u1) into u2: u2 must
    // be exactly one more gold sweep of it
    if (!pad)
      checkCudaErrors(cudaMemcpy(h_u2, d_u2, bytes, cudaMemcpyDeviceToHost));
    else
      copy_out_padded(h_u2, d_u2, NX, NY, NZ, pitch);
    Gold_laplace3d(NX, NY, NZ, h_u1, h_u3);
    compare_float(h_u2, h_u3, npoints, 0.0, 0.0, &st);
    gold_report("u after the timed sweeps", &st);
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

  if (st.nbad == 0 && pad && pitch % 32 != 0) // step 6: the point of the pitch
    return result_check(0, "rows %d floats apart do not all start on a 128-byte boundary", pitch);
  if (st.nbad == 0 && pad_nonzero) // step 6: the padding zeroed (padding_not_zero says why)
    return result_check(0, "u1's padding: %zu of its %zu floats are not 0 after copy_in_padded", pad_nonzero,
                        (size_t)(pitch - NX) * NY * NZ);
  return gold_verdict(&st, "u");
}
