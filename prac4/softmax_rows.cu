/*
 * softmax_rows.cu -- softmax of every row of a rows x cols matrix (practical 4, extra), as attention and
 * classification use it: y[r][c] = exp(x[r][c] - m_r) / s_r, m_r the row's max, s_r = sum_c exp(x[r][c] - m_r).
 *
 * A row that fits on chip is read once and written once, the least traffic there is, so the goal is the
 * copy's speed. Who owns a row depends on its length (-method=auto picks; -method= forces one):
 *   warp   cols <= 1024: a warp, or a group of LANES of its lanes, a row, held in registers
 *          (kernels/softmax_rows_warp.cuh; the exercise exercises/softmax_rows_warp.cuh)
 *   block  cols <= 32768 (16384 when cols is no multiple of 4): a block per row, 32 (16) floats per thread in
 *          registers, the max and the sum through shared memory (kernels/softmax_rows_block.cuh)
 *   cluster  longer rows, up to 8 blocks (-method=cluster: the largest cluster this GPU runs): a cluster of
 *          blocks per row, SPLIT_CHUNK columns per block (32768; 16384 when cols is no multiple of 4), the blocks'
 *          (max, sum) shared through distributed shared memory (kernels/softmax_rows_cluster.cuh)
 *   split  longer rows still: SPLIT_CHUNK columns per block; one kernel writes each block's (max, sum), a second
 *          merges the row's pairs and writes its chunk, reading the chunk again (2 reads + 1 write)
 * kernels/softmax_rows_plan.h makes the choice and the shape of each (asking the GPU what it runs);
 * kernels/softmax_rows_dispatch.cuh launches it. -threads= (threads per row) and -vec= (floats per load) override
 * the shape. Practical 10's table for this GPU and cols (common/tuned.h) sets them (and -method, where a line
 * names one) only where the command line types none of -method, -threads and -vec, and its line holds the row:
 * a plan is the three together, so a typed -method beside the table's -threads would be a plan nobody asked for.
 * -bench sweeps cols = 32, 64, ..., 2^20 at 2^26 floats (256 MiB) a size, each checked and timed against a
 * device-to-device copy of the same bytes in the same run.
 *
 * Inputs (-case): 0 random in [-10, 10); 1 a third of each row -inf (never its last column); 2 huge values,
 * +-3e38 and +-1e30 (x - m must not overflow to NaN: -3e38 - 3e38 = -inf, whose exp is 0); 3 every third row
 * all -inf; 4 all equal (every output 1/cols). A row that is all -inf has no softmax (0/0): it is defined
 * here as NaN in every column, as PyTorch gives, and checked so. +inf inputs are not handled (NaN).
 * Tolerance, per element |gpu - gold| <= atol + rtol * gold: rtol = (3 * min(spread, 100) + 3 d + 8) u, as in
 * softmax.cu (spread the largest max - min over the finite values of a row, d the longest chain of float
 * additions in a row's sum, from the method), atol = 1e-37.
 *   nvcc -O3 -arch=native -I../common softmax_rows.cu softmax_gold.c -o softmax_rows
 */
#define COURSE_STEPS "practical 4, softmax over rows, not a numbered workbook step (beyond the course)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(softmax_rows)s in exercises/softmax_rows_warp.cuh"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "rng.h"
#include "timing.h"
#include "tuned.h"

#include "prac4_gold.h"

#define WARP_MAX_COLS 1024 // 32 lanes x 32 floats: past this a warp's registers are too few for the row
#ifndef BLOCK_ROW
#define BLOCK_ROW 32 // floats per thread in the block and split kernels (8 float4s: 8 loads in flight)
#endif
#define BLOCK_ROW1 (BLOCK_ROW / 2) // ... when cols is no multiple of 4: scalar loads need more registers
static_assert(BLOCK_ROW == 4 || BLOCK_ROW == 8 || BLOCK_ROW == 16 || BLOCK_ROW == 32,
              "BLOCK_ROW: 4, 8, 16 or 32 floats per thread (the block kernel's instances, block_instance)");
// columns that a block of 1024 threads holds (block method), and a block's chunk (cluster and split): SPLIT_CHUNK(V)
#define SPLIT_CHUNK(V) (1024 * ((V) == 4 ? BLOCK_ROW : BLOCK_ROW1))
#define MAX_ELEMS (1LL << 28) // 1 GiB a matrix
#define CLUSTER_AUTO_MAX 8 // auto's largest cluster: 16 blocks (a whole GPC) ran slower than split: docs/notes/prac4.md
#define MAX_COLS (1 << 24)

#ifdef EXERCISE // make exercises: the learner's warp kernel, the row's max and sum cut out
#include "exercises/softmax_rows_warp.cuh"
#else
#include "kernels/softmax_rows_warp.cuh"
#endif

#include "kernels/softmax_rows_block.cuh"
#include "kernels/softmax_rows_cluster.cuh"

// -method= and the row's length to a plan (who owns a row, and its shape), asking the GPU what it runs
#include "kernels/softmax_rows_plan.h"

// run_rows: the plan's kernels launched, each launch checked
#include "kernels/softmax_rows_dispatch.cuh"

// the input of -case (the header comment lists them), from a small LCG: the same on every machine
static void fill(float *h_x, long long rows, int cols, int which, int seed) {
  unsigned int state = (unsigned int)seed;
  for (long long r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      float u = lcg_uniform(&state), v = 20.0f * u - 10.0f;
      switch (which) {
      case 1:
        v = ((r + c) % 3 == 0 && c != cols - 1) ? -INFINITY : v;
        break;
      case 2:
        v = (r % 2) ? (c % 2 ? -1e30f : 1e30f) : (c % 4 == 0 ? 3e38f : c % 4 == 1 ? -3e38f : 1e30f * (2.0f * u - 1.0f));
        break;
      case 3:
        v = (r % 3 == 1) ? -INFINITY : v;
        break;
      case 4:
        v = 7.5f;
        break;
      default:
        break;
      }
      h_x[r * cols + c] = v;
    }
}

// gold and check; rows whose gold is NaN (all -inf) must be NaN on the GPU too. Returns the values outside.
static size_t check_rows(const float *h_y, const double *h_gold, size_t n, double spread, int d, gold_stats *st) {
  const double u = 0x1p-24;
  double cap = spread < 100.0 ? spread : 100.0;
  double rtol = (3.0 * cap + 3.0 * d + 8.0) * u, atol = 1e-37, sumsq = 0.0;
  printf("tolerance: rtol = (3 * %.3g + 3 * %d + 8) u = %.3e, atol = %.0e\n", cap, d, rtol, atol);
  gold_begin(st, n, atol, rtol);
  size_t nan_rows_values = 0;
  for (size_t i = 0; i < n; i++) {
    if (isnan(h_gold[i])) { // defined as NaN: anything else is wrong
      nan_rows_values++;
      if (!isnan(h_y[i])) {
        if (st->nbad == 0) st->first_bad = (long long)i, st->first_bad_gpu = h_y[i], st->first_bad_gold = h_gold[i];
        st->nbad++;
      }
      continue;
    }
    gold_accumulate(st, i, h_y[i], h_gold[i], &sumsq);
  }
  gold_end(st, sumsq);
  if (nan_rows_values) printf("%zu values in all -inf rows: NaN by definition, checked so\n", nan_rows_values);
  gold_report("output", st);
  return st->nbad;
}

// what the command line (or the table) sets of the plan: -method=, -threads=, -vec= (0: the plan's own)
typedef struct {
  const char *method_word;
  int method, threads, vec;
} rows_knobs;

static int method_index(const char *word) {
  for (int m = 0; m < 5; m++)
    if (strcmp(word, method_names[m]) == 0) return m;
  return -1;
}

// practical 10's table for this GPU at cols (common/tuned.h) prints the settings line and sets kn where the command
// line types none of -method, -threads, -vec (then the settings line says as typed, and no table is read); kn starts
// from `typed`, the command line's. A line tuned at another cols that cannot hold this row is not used: the plan's
// own choice, and a second line says why.
static void table_knobs(const char *gpu, int cols, int argc, char **argv, const arg_spec *opts, int nopts,
                        rows_knobs *kn, const rows_knobs *typed) {
  *kn = *typed;
  const char *knobs[] = {"method", "threads", "vec"};
  for (int k = 0; k < 3; k++)
    if (args_given(argc, argv, knobs[k])) {
      printf("settings: as typed (with -%s typed the tuned table is not read: it sets -method, -threads and -vec "
             "together)\n",
             knobs[k]);
      return;
    }
  if (!tuned_settings(gpu, "softmax_rows", cols, argc, argv, opts, nopts)) return;
  char msg[200];
  kn->method = method_index(kn->method_word);
  if (kn->method < 0)
    args_fail("the tuned table's -method=%s: the methods are auto, warp, block, cluster and split", kn->method_word);
  if (plan_check(kn->method, kn->threads, kn->vec, cols, msg, sizeof(msg))) {
    printf("settings: the table's line is not used at %d columns (%s): the plan's own choice\n", cols, msg);
    *kn = *typed;
  }
}

// one size: fill, run, check against the gold, and with bench time it against the copy in ref; st the check
static void run_size(gold_stats *st_out, int dev, long long rows, int cols, const rows_knobs *kn, int which, int seed,
                     int bench, int reps, const bench_ref *ref, float *d_x, float *d_y, float2 *d_partial, float *h_x,
                     float *h_y, double *h_gold) {
  size_t n = (size_t)rows * cols, bytes = n * sizeof(float);
  rows_plan plan = make_plan(kn->method, cols, dev, kn->threads, kn->vec);
  check_fits(&plan, dev);
  char what[128];
  plan_describe(&plan, what, sizeof(what));
  printf("softmax_rows: %lld rows x %d cols, %s\n", rows, cols, what);
  fill(h_x, rows, cols, which, seed);
  checkCudaErrors(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(d_y, 0xff, bytes)); // NaN: an output never written cannot pass (the all -inf
                                                 // rows, NaN by definition, are run again from a 0 poison)
  rows_args a = {d_x, d_y, d_partial, rows, cols, plan};
  run_rows(&a);
  checkCudaErrors(cudaDeviceSynchronize());
  checkCudaErrors(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
  // Gold treatment, in double
  double spread = softmax_rows_gold(h_x, h_gold, (size_t)rows, (size_t)cols);
  gold_stats &st = *st_out;
  check_rows(h_y, h_gold, n, spread, plan_chain(&plan), &st);
  if (st.nbad == 0 && which == 3) { // the NaN rows again from a 0 poison: a row never written is caught
    checkCudaErrors(cudaMemset(d_y, 0, bytes));
    run_rows(&a);
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
    check_rows(h_y, h_gold, n, spread, plan_chain(&plan), &st);
  }
  if (bench && st.nbad == 0) {
    char size[48], extra[64];
    snprintf(size, sizeof(size), "%lldx%d", rows, cols);
    snprintf(extra, sizeof(extra), "method=%s case=%d", method_names[plan.method], which);
    checkCudaErrors(cudaMemset(d_y, 0xff, bytes)); // poisoned again: what the timed runs wrote is checked
    bench_report(ref, "4", "softmax_rows", size, run_rows, &a, reps, 2.0 * (double)bytes, extra);
    checkCudaErrors(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
    check_rows(h_y, h_gold, n, spread, plan_chain(&plan), &st);
    if (st.nbad) printf("softmax_rows: the output of the timed runs differs from the gold (above)\n");
  }
}

int main(int argc, char **argv) {
  int rows_i = 4097, cols = 1000, which = 0, seed = 1, bench = 0, reps = 20;
  rows_knobs kn = {"auto", METHOD_AUTO, 0, 0}; // set by the command line, then by the table (table_knobs)
  arg_spec opts[] = {
      {"rows", ARG_INT, &rows_i, 1, 1 << 28, "rows of the matrix"},
      {"cols", ARG_INT, &cols, 1, MAX_COLS, "columns: the length of each softmax"},
      {"method", ARG_WORD, &kn.method_word, 0, 0, "auto, warp (cols <= 1024), block (cols <= 32768), cluster or split"},
      {"threads", ARG_INT, &kn.threads, 0, 1024, "threads per row (0: the plan's): to 32 a warp's lanes, then a block"},
      {"vec", ARG_INT, &kn.vec, 0, 4, "floats per load: 4 (float4, cols a multiple of 4), 1, or 0 (4 where it can)"},
      {"case", ARG_INT, &which, 0, 4, "input: 0 random, 1 some -inf, 2 huge (3e38, 1e30), 3 all -inf rows, 4 equal"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the random inputs"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time against a copy; without -cols, sweep cols 32 .. 2^20 at 2^26 floats"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is reported)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  kn.method = method_index(kn.method_word);
  if (kn.method < 0) args_fail("-method=%s: the methods are auto, warp, block, cluster and split", kn.method_word);
  char msg[200];
  int sweep = bench && !args_given(argc, argv, "cols") && !args_given(argc, argv, "rows");
  if (!sweep && plan_check(kn.method, kn.threads, kn.vec, cols, msg, sizeof(msg))) args_fail("%s", msg);
  long long rows = rows_i;
  if (rows * cols > MAX_ELEMS) args_fail("rows x cols = %lld x %d is more than 2^28 floats (1 GiB)", rows, cols);
  if (sweep && (kn.method != METHOD_AUTO || kn.threads || kn.vec))
    args_fail("the -bench sweep picks the method, threads and loads for each cols: give -cols too");
  const rows_knobs typed = kn;

  int dev = findCudaDevice(argc, argv);
  // the GPU's name (a GPU profile's, under one) picks practical 10's table (tuned/<gpu>.txt): per size in the sweep
  const char *gpu_name = device_limits(dev)->name;
  if (!sweep) table_knobs(gpu_name, cols, argc, argv, opts, ARG_COUNT(opts), &kn, &typed);
  size_t n = sweep ? (size_t)1 << 26 : (size_t)rows * cols, bytes = n * sizeof(float);
  size_t chunk1 = SPLIT_CHUNK(1); // the smaller chunk: room for either
  size_t chunks_max = sweep ? ((size_t)1 << 26) / chunk1 : (size_t)rows * ((cols + chunk1 - 1) / chunk1);
  device_memory_check(2 * bytes + chunks_max * sizeof(float2) + (bench ? 2 * bytes : 0),
                      bench ? "input, output and the copy test's buffers" : "input and output",
                      args_given(argc, argv, "rows") || args_given(argc, argv, "cols"));

  float *h_x = (float *)malloc(bytes), *h_y = (float *)malloc(bytes);
  double *h_gold = (double *)malloc(n * sizeof(double));
  if (!h_x || !h_y || !h_gold) return result_fail("out of host memory");
  float *d_x, *d_y;
  float2 *d_partial; // the split method's (max, sum) of each chunk of each row
  checkCudaErrors(cudaMalloc((void **)&d_x, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_y, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_partial, chunks_max * sizeof(float2)));
  bench_ref ref;
  if (bench) ref = bench_reference(dev, 2.0 * (double)bytes, reps);

  gold_stats st;
  if (sweep) { // the same 256 MiB, cut into rows of 32 .. 2^20 columns; the first failure ends it
    st.nbad = 0;
    for (int c = 32; c <= (1 << 20) && st.nbad == 0; c *= 2) {
      table_knobs(gpu_name, c, argc, argv, opts, ARG_COUNT(opts), &kn, &typed);
      run_size(&st, dev, (long long)(n / c), c, &kn, which, seed, 1, reps, &ref, d_x, d_y, d_partial, h_x, h_y, h_gold);
    }
  } else {
    run_size(&st, dev, rows, cols, &kn, which, seed, bench, reps, &ref, d_x, d_y, d_partial, h_x, h_y, h_gold);
  }

  checkCudaErrors(cudaFree(d_x));
  checkCudaErrors(cudaFree(d_y));
  checkCudaErrors(cudaFree(d_partial));
  free(h_x);
  free(h_y);
  free(h_gold);
  return gold_verdict(&st, "output");
}
