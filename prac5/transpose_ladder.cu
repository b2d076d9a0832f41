/*
 * transpose_ladder.cu -- practical 5, step 6: the matrix transpose ladder. LeetGPU's problem: a row-major
 * rows x cols input becomes its cols x rows transpose, solve(const float *input, float *output, int rows,
 * int cols). A transpose does no arithmetic: it is all memory traffic, so its 100 % line is a
 * device-to-device copy of the same bytes, timed in the same run.
 *   -kernel=0  cublasSgeam with op(A) = A^T                     transpose/t0_cublas.cuh
 *   -kernel=1  naive: coalesced reads, strided writes            transpose/t1_naive.cuh
 *   -kernel=2  through a shared-memory tile (bank conflicts)     transpose/t2_shared.cuh
 *   -kernel=3  the tile padded to TILE + 1 columns               transpose/t3_padded.cuh
 *   -kernel=4  padded, several rows per thread                   transpose/t4_rows.cuh
 * The check is exact: a transpose moves numbers and computes none, so every output must equal the gold's
 * bit for bit. -bench checks every kernel, then times each next to the copy (median of -reps) and checks the
 * output its last timed run left.
 *   nvcc -O3 -arch=native -I. -I../common transpose_ladder.cu prac5_gold.c -lcublas -o transpose_ladder
 */
#define COURSE_STEPS "practical 5, workbook step 6 (course step 3, own code; the ladder goes well beyond the course)"
// make exercises: ./exercises/transpose_ladder, built with -DEXERCISE, runs kernel 3 from the learner's file,
// exercises/t3_padded.cuh, and runs it without -kernel; its verdict names the file (before gold_check.h)
#ifdef EXERCISE
#define EXERCISE_TODO "fill in the TODO(step 6)s in exercises/t3_padded.cuh"
#define TRANSPOSE_DEFAULT_KERNEL 3
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "ladder.h"
#include "timing.h"

#include "prac5_gold.h"

// the kernel run without -kernel: the fastest; the starting file makes it the kernel left to write, so that
// running it untouched cannot PASS
#ifndef TRANSPOSE_DEFAULT_KERNEL
#define TRANSPOSE_DEFAULT_KERNEL 4
#endif

// the grids: ceil_div (helper_cuda.h) of the columns in 64 bits, as -cols goes up to 2^31 - 1, where
// cols + 31 would overflow an int
#include "transpose/t0_cublas.cuh"
#include "transpose/t1_naive.cuh"
#include "transpose/t2_shared.cuh"
#ifndef EXERCISE
#include "transpose/t3_padded.cuh"
#else // make exercises: kernel 3 with the lesson cut out
#include "exercises/t3_padded.cuh"
#endif
#include "transpose/t4_rows.cuh"

typedef void (*transpose_fn)(const float *, float *, int, int);
typedef struct {
  const char *name;
  transpose_fn run;
} transpose_step;

static const transpose_step steps[] = {
    {"cublas", run_cublas}, {"naive", run_naive}, {"shared", run_shared}, {"padded", run_padded}, {"rows", run_rows},
};
#define NSTEPS ((int)(sizeof(steps) / sizeof(steps[0])))

typedef struct {
  transpose_fn run;
  const float *d_in;
  float *d_out;
  int rows, cols;
} transpose_call;

static void run_call(void *p) {
  transpose_call *c = (transpose_call *)p;
  c->run(c->d_in, c->d_out, c->rows, c->cols);
}

// poison: 0x7f7f7f7f is 3.4e38, a finite float no input holds (so cuBLAS's beta * output stays 0)
static void poison_output(const transpose_call *c) {
  checkCudaErrors(cudaMemset(c->d_out, 0x7f, (size_t)c->rows * c->cols * sizeof(float)));
}

// the output kernel k left in d_out, compared exactly with the gold; `what` names the run in the one-line
// form (the check's, or the last timed run's). d_out is poisoned again after the copy, so that the next runs
// (the next kernel's timed runs) must write it to pass
static int compare_step(int k, const transpose_call *c, const float *gold, float *h_out, int verbose,
                        const char *what) {
  size_t n = (size_t)c->rows * c->cols;
  checkCudaErrors(cudaMemcpy(h_out, c->d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  poison_output(c);
  gold_stats st;
  compare_float(h_out, gold, n, 0.0, 0.0, &st);
  if (verbose) {
    printf("kernel %d (%s): %d x %d -> %d x %d, exact check\n", k, steps[k].name, c->rows, c->cols, c->cols, c->rows);
    gold_report("output", &st);
  } else {
    printf("  %d %-8s %s%s: %zu of %zu elements differ\n", k, steps[k].name, st.nbad ? "FAIL" : "PASS", what, st.nbad,
           n);
  }
  return st.nbad == 0;
}

// kernel k on a poisoned output, compared exactly with the gold
static int check_step(int k, transpose_call *c, const float *gold, float *h_out, int verbose) {
  poison_output(c);
  c->run = steps[k].run;
  run_call(c);
  return compare_step(k, c, gold, h_out, verbose, "");
}

// -bench, through common/ladder.h
typedef struct {
  transpose_call *call;
  const float *gold;
  float *h_out;
} bench_ctx;

static int bench_check(void *p, int k) {
  bench_ctx *b = (bench_ctx *)p;
  return check_step(k, b->call, b->gold, b->h_out, 0);
}

// what the last timed run left in d_out, against the gold (nothing is run again)
static int bench_recheck(void *p, int k) {
  bench_ctx *b = (bench_ctx *)p;
  return compare_step(k, b->call, b->gold, b->h_out, 0, " (timed)");
}

static void bench_run(void *p, int k) {
  bench_ctx *b = (bench_ctx *)p;
  b->call->run = steps[k].run;
  run_call(b->call);
}

static void bench_keys(void *, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra) {
  snprintf(prog, nprog, "transpose_k%d_%s", k, steps[k].name);
  snprintf(extra, nextra, "kernel=%d x_cublas=%.3f", k, ms[0] / ms[k]);
}

int main(int argc, char **argv) {
  int rows = 7000, cols = 6000, kernel = TRANSPOSE_DEFAULT_KERNEL, bench = 0, seed = 1, reps = 20;
  arg_spec opts[] = {
      {"rows", ARG_INT, &rows, 1, 524280, "rows of the input (up to 65535 blocks of 8 rows)"},
      {"cols", ARG_INT, &cols, 1, 2147483647, "columns of the input"},
      {"kernel", ARG_INT, &kernel, 0, NSTEPS - 1, "the kernel: 0 cuBLAS, 1 to 4 the ladder"},
      {"bench", ARG_FLAG, &bench, 0, 1, "check and time every kernel and a copy, print the table and BENCH lines"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the input"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)rows * cols > 2147483647LL)
    args_fail("-rows=%d -cols=%d: more than 2^31 - 1 elements", rows, cols);
  int user_sized = args_given(argc, argv, "rows") || args_given(argc, argv, "cols");

  int dev = findCudaDevice(argc, argv);
  size_t n = (size_t)rows * cols, bytes = n * sizeof(float);
  device_memory_check(2 * bytes, "the input and the output", user_sized);

  float *h_in = (float *)malloc(bytes), *h_out = (float *)malloc(bytes), *gold = (float *)malloc(bytes);
  if (!h_in || !h_out || !gold) return result_fail("out of host memory");
  fill_uniform(h_in, n, (unsigned)seed, -1.0f, 1.0f);

  // Gold treatment
  double t0 = wall_ms();
  transpose_gold(h_in, rows, cols, gold);
  printf("%d x %d floats (%.1f MB); transpose_gold %.1f ms\n", rows, cols, bytes * 1e-6, wall_ms() - t0);

  float *d_in, *d_out;
  checkCudaErrors(cudaMalloc((void **)&d_in, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_out, bytes));
  checkCudaErrors(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
  cublas_setup(); // the handle: once, outside every timed region
  transpose_call call = {run_cublas, d_in, d_out, rows, cols};

  int ok = 1;
  if (!bench) {
    ok = check_step(kernel, &call, gold, h_out, 1);
  } else {
    double traffic = 2.0 * (double)bytes; // each element read once and written once
    bench_ref ref = bench_reference(dev, traffic, reps);
    bench_ctx b = {&call, gold, h_out};
    const char *names[NSTEPS];
    for (int k = 0; k < NSTEPS; k++) names[k] = steps[k].name;
    char header[192], size[64];
    snprintf(header, sizeof(header),
             "\n%d x %d floats, %.1f MB moved; copy %.1f GB/s, peak %.1f GB/s\n"
             "  kernel          ms      GB/s   %% copy   x cuBLAS",
             rows, cols, traffic * 1e-6, ref.copy_GBps, ref.peak_GBps);
    snprintf(size, sizeof(size), "%dx%d", rows, cols);
    ladder L;
    memset(&L, 0, sizeof(L));
    L.nsteps = NSTEPS; // the kernels, their names, and the calls
    L.names = names;
    L.name_width = 8;
    L.ctx = &b;
    L.check = bench_check;
    L.run = bench_run;
    L.recheck = bench_recheck;
    L.warmup = 3;
    L.reps = reps;
    L.header = header; // the table: GB/s, % of the copy, x cuBLAS
    L.peer = "cuBLAS";
    L.bytes = traffic;
    L.ref = &ref;
    L.ratio_width = 9;
    L.prac = "5"; // the BENCH lines
    L.size = size;
    L.bench_keys = bench_keys;
    double ms[NSTEPS];
    int passed[NSTEPS];
    ok = ladder_bench(&L, ms, passed);
  }

  // free
  cublas_teardown();
  checkCudaErrors(cudaFree(d_in));
  checkCudaErrors(cudaFree(d_out));
  free(h_in);
  free(h_out);
  free(gold);
  return result_check(ok, "a kernel's output differs from the gold (see above)");
}
