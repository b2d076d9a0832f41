/*
 * sgemm_ladder.cu -- practical 5, steps 5 and 8: the SGEMM ladder. C = A B in FP32, LeetGPU's problem (A is
 * M x N, B is N x K, C is M x K, row-major; solve(const float *A, const float *B, float *C, int M, int N,
 * int K)), from one thread per output to most of cuBLAS's speed, one kernel per file:
 *   -kernel=0  cublasSgemm (FP32, no tensor cores)                       sgemm/k0_cublas.cuh
 *   -kernel=1  naive: one thread per element of C                         sgemm/k1_naive.cuh
 *   -kernel=2  shared-memory tiles                                        sgemm/k2_shared.cuh
 *   -kernel=3  register blocking: 8 outputs a thread down a column        sgemm/k3_reg_block.cuh
 *   -kernel=4  2-D 8 x 8 register tiles, 16-byte loads                    sgemm/k4_2d_tiles.cuh
 *   -kernel=5  warp tiles, no bank conflicts, double buffering            sgemm/k5_double_buffer.cuh
 *   -kernel=6  kernel 5 with tiles twice as deep along N (16)             sgemm/k6_deep_tiles.cuh
 *   -kernel=7  8 x 16 outputs a thread, a cp.async pipeline                sgemm/k7_pipeline.cuh
 *   -kernel=8  kernel 7's design at the shape: tiles and split-K chosen    sgemm/k8_shapes.cuh, k8_model.cuh,
 *              by a cost model of waves over the SMs (the default)         k8_pick.cuh
 *
 * The oracle, for every kernel: the product in double on the host (every row, or evenly spaced rows when the
 * product is large), and cuBLAS on the same inputs (every element). An element of C is a dot product of N
 * float products; in any order of additions its error is at most gamma(N) s, where s = sum |A||B| of its
 * terms and gamma(N) = N u / (1 - N u), u = 2^-24 (Higham, 3.1). So each kernel must be within gamma(N) s_max
 * of the gold, and within 2 gamma(N) s_bound of cuBLAS, s_bound = max_m sum_n |A[m][n]| * max |B|, a bound
 * on s for every element that costs one pass over A and B.
 * -bench checks every kernel, then times each (median of -reps) and prints one table: ms, TFLOP/s and the
 * ratio to cuBLAS, and a BENCH line per kernel. -shapes does the same for kernels 7 and 8 and cuBLAS over a
 * table of shapes (squares, tall, wide, long and short inner lengths, odd sizes), with the geometric mean
 * and the worst shape; -tune times every plan kernel 8 could run at one shape against the one it picks.
 *   nvcc -O3 -arch=native -I. -I../common sgemm_ladder.cu prac5_gold.c -lcublas -o sgemm_ladder
 */
#define COURSE_STEPS \
  "practical 5, workbook steps 5 and 8 (course step 3, own code; the ladder goes well beyond the course)"
// make exercises: ./exercises/sgemm_ladder, built with -DEXERCISE, runs kernel 2 from the learner's file,
// exercises/k2_shared.cuh, and runs it without -kernel; -kernel=8 runs kernel 8 with the learner's cost
// model, exercises/k8_model.cuh; its verdict names the files (before gold_check.h)
#ifdef EXERCISE
#define EXERCISE_TODO \
  "fill in the TODO(step 5)s in exercises/k2_shared.cuh (kernel 2), TODO(step 8) in exercises/k8_model.cuh (kernel 8)"
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
#else // make exercises: kernel 2 with the lesson cut out
#include "exercises/k2_shared.cuh"
#endif
#include "sgemm/k3_reg_block.cuh"
#include "sgemm/k4_2d_tiles.cuh"
#include "sgemm/k5_double_buffer.cuh"
#include "sgemm/k6_deep_tiles.cuh"
#include "sgemm/k7_pipeline.cuh"
#include "sgemm/k8_shapes.cuh"
#ifdef EXERCISE // the learner's cost model is kernel 8's; the finished one, renamed, is what it is checked against
#define s8_estimate_us s8_estimate_us_answer
#include "sgemm/k8_model.cuh"
#undef s8_estimate_us
#define S8_MODEL "exercises/k8_model.cuh"
#endif
#include "sgemm/k8_pick.cuh"
#include "sgemm/oracle.h"
#include "sgemm/k8_bench.h"

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
  int cublas_ok;
  double flops;
} bench_ctx;

static int bench_check(void *p, int k) {
  bench_ctx *b = (bench_ctx *)p;
  return k == 0 ? b->cublas_ok : check_step(k, &steps[k], b->call, b->o, 0);
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

int main(int argc, char **argv) {
  int M = 1000, N = 1001, K = 999, kernel = SGEMM_DEFAULT_KERNEL, bench = 0, seed = 1, reps = 10, shapes = 0,
      tune = 0;
  const char *plan_word = NULL;
  arg_spec opts[] = {
      {"M", ARG_INT, &M, 1, 1 << 20, "rows of A and C"},
      {"N", ARG_INT, &N, 1, 1 << 20, "columns of A, rows of B (the length of each dot product)"},
      {"K", ARG_INT, &K, 1, 1 << 20, "columns of B and C"},
      {"kernel", ARG_INT, &kernel, 0, NSTEPS - 1, "the kernel: 0 cuBLAS, 1 to 8 the ladder"},
      {"bench", ARG_FLAG, &bench, 0, 1, "check and time every kernel, print the table and BENCH lines"},
      {"shapes", ARG_FLAG, &shapes, 0, 1, "check and time kernels 7 and 8 and cuBLAS over a table of shapes"},
      {"tune", ARG_FLAG, &tune, 0, 1, "check and time every plan of kernel 8 at this shape, against its pick"},
      {"plan", ARG_WORD, &plan_word, 0, 0, "kernel 8 runs this plan, CONFIG/SPLIT (64x128/3), not its own pick"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the inputs"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench, -shapes, -tune (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)M * N > 2147483647LL || (long long)N * K > 2147483647LL || (long long)M * K > 2147483647LL)
    args_fail("-M=%d -N=%d -K=%d: a matrix of more than 2^31 - 1 elements", M, N, K);
  if ((M + 7) / 8 > 65535) args_fail("-M=%d: more than 65535 blocks of 8 rows for kernel 1", M);
  if (bench + shapes + tune > 1) args_fail("-bench, -shapes and -tune: one at a time");
  if (plan_word && !s8_parse_plan(plan_word, &s8_forced))
    args_fail("-plan=%s: not CONFIG/SPLIT with CONFIG one of 128x128, 128x64, 64x128, 64x64 and SPLIT 1 to %d",
              plan_word, S8_MAX_SPLIT);
  if (plan_word && (shapes || tune)) args_fail("-plan is for one run of kernel 8 (or -bench), not -shapes or -tune");
  if (plan_word && !s8_split_fits(M, K, s8_forced.split, (size_t)-1))
    args_fail("-plan=%s: a slice of split-K's workspace, %d x %d, is more than 2^31 - 1 elements", plan_word, M,
              (K + 3) / 4 * 4);
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
    // kernel 8 pads B's rows to a multiple of 4 floats when K is not one (sgemm/k8_shapes.cuh), and -plan's
    // split-K needs its workspace (kernel 8's own picks keep theirs under a sixteenth of the GPU's memory)
    size_t padded = K % 4 ? (size_t)N * ((K + 3) / 4 * 4) : 0, work = 0;
    if (s8_forced.config >= 0 && s8_forced.split > 1) work = (size_t)s8_forced.split * M * ((K + 3) / 4 * 4);
    device_memory_check(((size_t)M * N + (size_t)N * K + (size_t)M * K + padded + work) * sizeof(float),
                        K % 4 || work ? "A, B, C and kernel 8's workspaces" : "A, B and C", user_sized);
    sgemm_problem p;
    problem_setup(&p, M, N, K, seed, !bench && !tune && kernel == 0, 0);
    ok = p.cublas_ok;
    if (kernel == 8 || tune || bench) {
      s8_plan pl = s8_forced.config >= 0 ? s8_forced : s8_pick(M, N, K, NULL);
      char plan[64];
      s8_describe(&pl, plan, sizeof(plan));
      printf("kernel 8 %s %s for %d x %d x %d (%d SMs; %d blocks of it a SM at once)\n",
             s8_forced.config >= 0 ? "runs -plan's" : "picked", plan, M, N, K, s8_gpu_get()->sms,
             s8_gpu_get()->resident[pl.config]);
    }
    if (tune) {
      ok = run_tune(&p, reps) && ok;
    } else if (!bench) {
      if (kernel != 0) ok = check_step(kernel, &steps[kernel], &p.call, &p.o, 1) && ok;
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
      ladder L = {NSTEPS, names, NULL, 14, &b, bench_check, bench_run, 2, reps, NULL, // kernels, names, calls
                  header, "cuBLAS", 0.0, b.flops, NULL, 0,                            // table: TFLOP/s, % of cuBLAS
                  "5", size, bench_keys};                                            // BENCH lines
      double ms[NSTEPS];
      int passed[NSTEPS];
      ok = ladder_bench(&L, ms, passed);
    }
    problem_free(&p);
  }
  int picks_ok = 1;
#ifdef EXERCISE
  if (kernel == 8 || tune) picks_ok = exercise_model_check(M, N, K);
#endif
  s8_teardown();
  cublas_teardown();
  if (!ok) return result_check(ok, "a kernel's C is outside its tolerance (see above)");
  return result_check(picks_ok, "kernel 8's cost model picks other plans than the finished one's (see above)");
}
