/*
 * sgemm_ladder.cu -- practical 5, steps 5 and 8: the SGEMM ladder. C = A B in FP32 with BLAS's names, as
 * cublas_sgemm.cu and the handout use them: C is M x N, A is M x K, B is K x N, all row-major, so K is the inner
 * length. LeetGPU poses the same problem with N and K the other way round: solve(), below, is the one place its
 * names meet these. From one thread per output to most of cuBLAS's speed, one kernel per file:
 *   -kernel=0  cublasSgemm (FP32, no tensor cores)                       sgemm/k0_cublas.cuh
 *   -kernel=1  naive: one thread per element of C                         sgemm/k1_naive.cuh
 *   -kernel=2  shared-memory tiles                                        sgemm/k2_shared.cuh
 *   -kernel=3  register blocking: 8 outputs per thread down a column        sgemm/k3_reg_block.cuh
 *   -kernel=4  2-D 8 x 8 register tiles, 16-byte loads                    sgemm/k4_2d_tiles.cuh
 *   -kernel=5  warp tiles, no bank conflicts, double buffering            sgemm/k5_double_buffer.cuh
 *   -kernel=6  kernel 5 with tiles twice as deep along K (16)             sgemm/k6_deep_tiles.cuh
 *   -kernel=7  8 x 16 outputs per thread, a cp.async pipeline                sgemm/k7_pipeline.cuh
 *   -kernel=8  kernel 7's design at the shape: tiles and split-K chosen    sgemm/k8_shapes.cuh, its plan
 *              by a cost model of waves over the SMs (the default)         k8_plan.cuh, its model k8_model.cuh
 *
 * The oracle, for every kernel, cuBLAS included: every element of C against C64, the product in double on the
 * device (cublasDgemm on A and B widened to double), within tau s, where s = sum |A||B| of its terms (a second
 * cublasDgemm) and tau = min(gamma(K), 10 sqrt(K) u) + 2 gamma64(K), u = 2^-24: the certain bound of any order
 * of K float additions, or the probable one of Higham and Mary where it is smaller (sgemm/reference.cuh derives
 * it). C64 is itself checked against a double gold on the host (every row, or evenly spaced rows when the
 * product is large), sgemm/oracle.h. -fault=tile shows the check failing: one tile of C summed one term short.
 * -bench checks every kernel, then times each (median of -reps) and prints one table: ms, TFLOP/s and the
 * ratio to cuBLAS, and a BENCH line per kernel. -shapes does the same for kernels 7 and 8 and cuBLAS over a
 * table of shapes (squares, tall, wide, long and short inner lengths, odd sizes), with the geometric mean
 * and the worst shape; -tune times every plan kernel 8 could run at one shape against the one it picks.
 *   nvcc -O3 -arch=native -I. -I../common sgemm_ladder.cu prac5_gold.c -lcublas -o sgemm_ladder
 */
#define COURSE_STEPS \
  "practical 5, workbook steps 5 and 8 (course step 3, own code; the ladder goes well beyond the course)"
// make exercises: ./exercises/sgemm_ladder, built with -DEXERCISE, runs kernels 2 and 3 from the learner's files,
// exercises/k2_shared.cuh and k3_reg_block.cuh, and kernel 2 without -kernel; -kernel=8 runs kernel 8 with the
// learner's cost model, exercises/k8_model.cuh (in sgemm/k8_plan.cuh); its verdict names the files (gold_check.h)
#ifdef EXERCISE
#define EXERCISE_TODO                                                                                              \
  "fill in the TODO(step 5)s in exercises/k2_shared.cuh (kernel 2) and k3_reg_block.cuh (kernel 3), TODO(step 8) " \
  "in exercises/k8_model.cuh (kernel 8)"
#define SGEMM_DEFAULT_KERNEL 2
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cp_async.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "ladder.h"
#include "timing.h"

#include "prac5_gold.h"

#include "sgemm/sgemm.h"
#include "sgemm/k0_cublas.cuh"
#include "sgemm/k1_naive.cuh"
#ifndef EXERCISE
#include "sgemm/k2_shared.cuh"
#include "sgemm/k3_reg_block.cuh"
#else // make exercises: kernels 2 and 3 with their lessons cut out
#include "exercises/k2_shared.cuh"
#include "exercises/k3_reg_block.cuh"
#endif
#include "sgemm/k4_2d_tiles.cuh"
#include "sgemm/k5_double_buffer.cuh"
#include "sgemm/k6_deep_tiles.cuh"
#include "sgemm/k7_pipeline.cuh"
#include "gemm_shapes.h"
#include "sgemm/k8_shapes.cuh"
#include "sgemm/oracle.h"
#include "sgemm/k8_plan.cuh"

// LeetGPU's problem, with LeetGPU's own signature and names: A is M x N, B is N x K, C is M x K, row-major, so its
// N is the inner length and its K the columns of C. The one place those names meet this ladder's, BLAS's (C is
// M x N, A is M x K, B is K x N): LeetGPU's N is our K, and its K our N. The fastest kernel answers it.
void solve(const float *A, const float *B, float *C, int M, int N, int K) { run_shapes(A, B, C, M, K, N); }

// the kernel run without -kernel: the fastest; the starting file makes it the kernel left to write, so that
// running it untouched cannot PASS
#ifndef SGEMM_DEFAULT_KERNEL
#define SGEMM_DEFAULT_KERNEL 8
#endif

static const sgemm_step steps[] = {
    {"cublas", run_cublas},     {"naive", run_naive},       {"shared", run_shared},
    {"reg_block", run_reg_block}, {"2d_tiles", run_2d_tiles}, {"double_buffer", run_double_buffer},
    {"deep_tiles", run_deep_tiles}, {"pipeline", run_pipeline}, {"shapes", run_shapes},
};
#define NSTEPS ((int)(sizeof(steps) / sizeof(steps[0])))

// -bench, through common/ladder.h: cuBLAS (kernel 0) is checked first, as the reference of every other kernel
typedef struct {
  sgemm_call *call;
  const sgemm_oracle *o;
  int base_ok;
  double flops;
} bench_ctx;

static int bench_check(void *p, int k) {
  bench_ctx *b = (bench_ctx *)p;
  return k == 0 ? b->base_ok : check_step(k, &steps[k], b->call, b->o, 0);
}

// the C that step k's last timed run left (check_step and recheck_step leave C poisoned, so each step's timed
// runs start from NaN and are judged on what they write themselves)
static int bench_recheck(void *p, int k) {
  bench_ctx *b = (bench_ctx *)p;
  return recheck_step(k, steps[k].name, b->call, b->o);
}

static void bench_run(void *p, int k) {
  bench_ctx *b = (bench_ctx *)p;
  b->call->run = steps[k].run;
  run_call(b->call);
}

static void bench_keys(void *p, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra) {
  bench_ctx *b = (bench_ctx *)p;
  snprintf(prog, nprog, "sgemm_k%d_%s", k, steps[k].name);
  snprintf(extra, nextra, "kernel=%d TFLOPs=%.2f pct_cublas=%.1f", k, b->flops / (ms[k] * 1e-3) / 1e12,
           100.0 * ms[0] / ms[k]);
}

// -shapes: kernels 7 and 8 against cuBLAS over the shapes of gemm_shapes.h (shared with hgemm_ladder)

static int run_shapes_table(int seed, int reps) {
  int ok = 1, worst = -1, measured = 0, dev;
  double logsum = 0.0, worst_pct = 0.0, tlogsum = 0.0, ms_sum = 0.0; // (tlogsum: of kernel 8's TFLOP/s)
  checkCudaErrors(cudaGetDevice(&dev));
  printf("\nkernels 7 and 8 against cuBLAS (FP32, CUBLAS_DEFAULT_MATH), median of %d; M x N x K: A is M x K, "
         "C is M x N\n",
         reps);
  printf("  %-16s %9s %8s %8s %8s %8s  %s\n", "M x N x K", "cuBLAS ms", "TFLOP/s", "k7 %", "k8 %", "k8 ms",
         "kernel 8's plan");
  for (int i = 0; i < NSHAPES; i++) {
    int M = shape_table[i][0], N = shape_table[i][1], K = shape_table[i][2];
    char size[64], plan[64];
    snprintf(size, sizeof(size), "%dx%dx%d", M, N, K);
    // A, B (and B padded), C, and the FP64 reference at its peak, while it is made
    size_t bytes = ((size_t)M * K + 2 * (size_t)K * N + (size_t)M * N) * sizeof(float) + reference_peak_bytes(M, N, K);
    if (!shape_fits(dev, size, bytes, M, N, K)) continue;
    sgemm_problem p;
    problem_setup(&p, M, N, K, seed, 0, 1);
    int ok7 = check_step(7, &steps[7], &p.call, &p.o, -1), ok8 = check_step(8, &steps[8], &p.call, &p.o, -1);
    // each timed from a poisoned C (check_step and recheck_step leave it so), and what its last run left checked
    double ms0 = time_step(&p, run_cublas, reps);
    int ok0 = recheck_step(0, steps[0].name, &p.call, &p.o) && p.base_ok;
    double ms7 = time_step(&p, steps[7].run, reps);
    ok7 = recheck_step(7, steps[7].name, &p.call, &p.o) && ok7;
    double ms8 = time_step(&p, steps[8].run, reps);
    ok8 = recheck_step(8, steps[8].name, &p.call, &p.o) && ok8;
    ok = ok && ok0 && ok7 && ok8;
    s8_plan pl = s8_pick(M, N, K, NULL);
    s8_describe(&pl, plan, sizeof(plan));
    double flops = 2.0 * M * N * K, pct8 = 100.0 * ms0 / ms8;
    printf("  %-16s %9.4f %8.2f %8.1f %8.1f %8.4f  %s%s\n", size, ms0, flops / (ms0 * 1e-3) / 1e12, 100.0 * ms0 / ms7,
           pct8, ms8, plan, (ok0 && ok7 && ok8) ? "" : "  (FAILED its check)");
    char extra[160];
    snprintf(extra, sizeof(extra), "kernel=8 TFLOPs=%.2f pct_cublas=%.1f pct_cublas_k7=%.1f plan=%s",
             flops / (ms8 * 1e-3) / 1e12, pct8, 100.0 * ms0 / ms7, plan);
    for (char *q = extra; *q; q++)
      if (*q == ' ' && q > strstr(extra, "plan=")) *q = '_';
    print_bench("5", "sgemm_shapes_k8", size, reps, ms8, -1.0, NULL, extra);
    logsum += log(pct8 / 100.0), tlogsum += log(flops / (ms8 * 1e-3) / 1e12), ms_sum += ms8, measured++;
    if (worst < 0 || pct8 < worst_pct) worst = i, worst_pct = pct8;
    problem_free(&p);
  }
  if (worst < 0) return ok;
  printf("kernel 8: geometric mean %.1f %% of cuBLAS over the shapes; the worst %.1f %% at %d x %d x %d\n",
         100.0 * exp(logsum / measured), worst_pct, shape_table[worst][0], shape_table[worst][1],
         shape_table[worst][2]);
  // the table in one BENCH line (practical 10 tunes kernel 8's model by it): ms= the sum, the others geometric means
  char extra[128];
  snprintf(extra, sizeof(extra), "kernel=8 shapes=%d TFLOPs=%.3f pct_cublas=%.1f", measured, exp(tlogsum / measured),
           100.0 * exp(logsum / measured));
  print_bench("5", "sgemm_shapes_k8_mean", "table", reps, ms_sum, -1.0, NULL, extra);
  return ok;
}

int main(int argc, char **argv) {
  int M = 1000, N = 999, K = 1001, kernel = SGEMM_DEFAULT_KERNEL, bench = 0, seed = 1, reps = 10, shapes = 0,
      tune = 0;
  const char *plan_word = NULL, *fault = NULL;
  arg_spec opts[] = {
      {"M", ARG_INT, &M, 1, 1 << 20, "rows of A and C"},
      {"N", ARG_INT, &N, 1, 1 << 20, "columns of B and C"},
      {"K", ARG_INT, &K, 1, 1 << 20, "columns of A, rows of B (the length of each dot product)"},
      {"kernel", ARG_INT, &kernel, 0, NSTEPS - 1, "the kernel: 0 cuBLAS, 1 to 8 the ladder"},
      {"bench", ARG_FLAG, &bench, 0, 1, "check and time every kernel, print the table and BENCH lines"},
      {"shapes", ARG_FLAG, &shapes, 0, 1, "check and time kernels 7 and 8 and cuBLAS over a table of shapes"},
      {"tune", ARG_FLAG, &tune, 0, 1, "check and time every plan of kernel 8 at this shape, against its pick"},
      {"plan", ARG_WORD, &plan_word, 0, 0, "kernel 8 runs this plan, CONFIG/SPLIT (64x128/3), not its own pick"},
      {"fault", ARG_WORD, &fault, 0, 0, "tile: the kernel's C with one tile summed one term short, which must FAIL"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the inputs"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench, -shapes, -tune (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)M * K > 2147483647LL || (long long)K * N > 2147483647LL || (long long)M * N > 2147483647LL)
    args_fail("-M=%d -N=%d -K=%d: a matrix of more than 2^31 - 1 elements", M, N, K);
  if ((M + 7) / 8 > 65535) args_fail("-M=%d: more than 65535 blocks of 8 rows for kernel 1", M);
  if (bench + shapes + tune > 1) args_fail("-bench, -shapes and -tune: one at a time");
  if (plan_word && !s8_parse_plan(plan_word, &s8_forced))
    args_fail("-plan=%s: not CONFIG/SPLIT with CONFIG one of 128x128, 128x64, 64x128, 64x64 and SPLIT 1 to %d",
              plan_word, S8_MAX_SPLIT);
  if (plan_word && (shapes || tune)) args_fail("-plan is for one run of kernel 8 (or -bench), not -shapes or -tune");
  if (fault && strcmp(fault, "tile")) args_fail("-fault=%s: the one fault is tile", fault);
  if (fault && (bench || shapes || tune)) args_fail("-fault is for one kernel's check, not -bench, -shapes or -tune");
  if (plan_word && !s8_split_fits(M, N, s8_forced.split, (size_t)-1))
    args_fail("-plan=%s: a slice of split-K's workspace, %d x %d, is more than 2^31 - 1 elements", plan_word, M,
              (N + 3) / 4 * 4);
  int user_sized = args_given(argc, argv, "M") || args_given(argc, argv, "N") || args_given(argc, argv, "K");

  int dev = findCudaDevice(argc, argv);
  (void)dev;
  if (s8_forced.config >= 0) { // the plan asked for must fit this GPU: known from its limits, before any GPU work
    s8_forced.stages = s8_gpu_get()->stages[s8_forced.config];
    if (!s8_forced.stages)
      args_fail("-plan=%s: %s's pipeline needs more shared memory a block than this GPU's %d bytes", plan_word,
                s8_configs[s8_forced.config].name, device_limits(dev)->smem_block_optin);
  }
  cublas_setup(); // the handle: once, outside every timed region
  int ok;
  if (shapes) {
    ok = run_shapes_table(seed, reps);
  } else {
    // kernel 8's workspaces: B's rows padded to a multiple of 4 floats when N is not one (sgemm/k8_shapes.cuh),
    // and -plan's split-K slices (kernel 8's own picks keep theirs under a sixteenth of the GPU's memory)
    size_t padded = N % 4 ? (size_t)K * ((N + 3) / 4 * 4) : 0, work = 0;
    if (s8_forced.config >= 0 && s8_forced.split > 1) work = (size_t)s8_forced.split * M * ((N + 3) / 4 * 4);
    problem_memory_check(M, N, K, padded + work, user_sized);
    if (reference_too_long(dev, M, N, K))
      return result_skip("this GPU has a display watchdog, and the FP64 reference of a %d x %d x %d product may "
                         "outlast it (docs/troubleshooting.md#windows-watchdog): up to 4096^3 runs here",
                         M, N, K);
    sgemm_problem p;
    problem_setup(&p, M, N, K, seed, !bench && !tune && kernel == 0 && !fault, 0);
    ok = p.base_ok;
    if (kernel == 8 || tune || bench) {
      s8_plan pl = s8_forced.config >= 0 ? s8_forced : s8_pick(M, N, K, NULL);
      char plan[64];
      s8_describe(&pl, plan, sizeof(plan));
      printf("kernel 8 %s %s for %d x %d x %d (%d SMs; %d blocks of it per SM at once)\n",
             s8_forced.config >= 0 ? "runs -plan's" : "picked", plan, M, N, K, s8_gpu_get()->sms,
             s8_gpu_get()->resident[pl.config]);
    }
    if (tune) {
      ok = run_tune(&p, reps) && ok;
    } else if (!bench) {
      sgemm_step st = steps[kernel];
      if (fault) fault_step = st.run, st.run = run_with_faulty_tile;
      if (kernel != 0 || fault) ok = check_step(kernel, &st, &p.call, &p.o, 1) && ok;
    } else {
      bench_ctx b = {&p.call, &p.o, ok, 2.0 * M * N * K};
      const char *names[NSTEPS];
      for (int k = 0; k < NSTEPS; k++) names[k] = steps[k].name;
      char header[160], size[64];
      snprintf(header, sizeof(header),
               "\n%d x %d x %d, FP32 (cuBLAS: CUBLAS_DEFAULT_MATH, no tensor cores)\n"
               "  kernel              ms   TFLOP/s   %% of cuBLAS",
               M, N, K);
      snprintf(size, sizeof(size), "%dx%dx%d", M, N, K);
      ladder L = {NSTEPS, names, NULL, 14, &b, bench_check, bench_run, bench_recheck, 2, reps, NULL, // steps
                  header, "cuBLAS", 0.0, b.flops, NULL, 0, // table: TFLOP/s, % of cuBLAS
                  "5", size, bench_keys, NULL};           // BENCH lines (no effective bytes)
      double ms[NSTEPS];
      int passed[NSTEPS];
      ok = ladder_bench(&L, ms, passed);
    }
    problem_free(&p);
  }
  int picks_ok = 1;
#ifdef EXERCISE
  if (kernel == 8 || tune) picks_ok = exercise_model_check(M, N, K, shape_table, NSHAPES);
#endif
  s8_teardown();
  cublas_teardown();
  if (!ok) return result_check(ok, "%s", sgemm_failure[0] ? sgemm_failure : "a check failed (see above)");
  return result_check(picks_ok, "kernel 8's cost model picks plans over 10 %% slower than the best, by the finished "
                                "model (see above)");
}
