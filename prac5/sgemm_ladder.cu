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

// the kernel run without -kernel: the fastest; the starting file makes it the kernel left to write, so that
// running it untouched cannot PASS
#ifndef SGEMM_DEFAULT_KERNEL
#define SGEMM_DEFAULT_KERNEL 8
#endif

#define GOLD_WORK 2e9 // multiply-adds the host gold may do (a second or so); beyond, evenly spaced rows

typedef void (*sgemm_fn)(const float *, const float *, float *, int, int, int);
typedef struct {
  const char *name;
  sgemm_fn run;
} sgemm_step;

static const sgemm_step steps[] = {
    {"cublas", run_cublas},     {"naive", run_naive},       {"shared", run_shared},
    {"reg_block", run_reg_block}, {"2d_tiles", run_2d_tiles}, {"double_buffer", run_double_buffer},
    {"deep_tiles", run_deep_tiles}, {"pipeline", run_pipeline}, {"shapes", run_shapes},
};
#define NSTEPS ((int)(sizeof(steps) / sizeof(steps[0])))

typedef struct {
  sgemm_fn run;
  const float *d_A, *d_B;
  float *d_C;
  int M, N, K;
} sgemm_call;

static void run_call(void *p) {
  sgemm_call *c = (sgemm_call *)p;
  c->run(c->d_A, c->d_B, c->d_C, c->M, c->N, c->K);
}

// everything the checks need, computed once
typedef struct {
  int M, N, K, nrows;
  const int *which;   // the rows the gold has
  const double *gold; // nrows x K
  double tol_gold;    // gamma(N) * max s over those rows
  double tol_cublas;  // 2 gamma(N) * s_bound
  const float *h_ref; // cuBLAS's C (NULL while checking cuBLAS itself)
  float *h_C, *h_rows;
} sgemm_oracle;

// runs kernel k on a poisoned C and checks it; prints one line (or the details with verbose)
static int check_step(int k, sgemm_call *c, const sgemm_oracle *o, int verbose) {
  size_t nC = (size_t)o->M * o->K;
  checkCudaErrors(cudaMemset(c->d_C, 0xff, nC * sizeof(float))); // NaN: an element never written cannot pass
  c->run = steps[k].run;
  run_call(c);
  checkCudaErrors(cudaMemcpy(o->h_C, c->d_C, nC * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < o->nrows; r++)
    memcpy(o->h_rows + (size_t)r * o->K, o->h_C + (size_t)o->which[r] * o->K, (size_t)o->K * sizeof(float));
  gold_stats sg, sc;
  memset(&sc, 0, sizeof(sc));
  compare_float_double(o->h_rows, o->gold, (size_t)o->nrows * o->K, o->tol_gold, 0.0, &sg);
  int ok = sg.nbad == 0;
  if (o->h_ref) {
    compare_float(o->h_C, o->h_ref, nC, o->tol_cublas, 0.0, &sc);
    ok = ok && sc.nbad == 0;
  }
  if (verbose > 0) {
    printf("kernel %d (%s): %d x %d x %d\n", k, steps[k].name, o->M, o->N, o->K);
    printf("tolerance: gamma(N) * max s = %.3e against the gold (%d of %d rows)", o->tol_gold, o->nrows, o->M);
    if (o->h_ref) printf(", 2 gamma(N) * s_bound = %.3e against cuBLAS (every element)", o->tol_cublas);
    printf("\n");
    gold_report("C vs gold", &sg);
    if (o->h_ref) gold_report("C vs cuBLAS", &sc);
  } else if (verbose == 0 || !ok) { // -1: a line only when it fails
    printf("  %d %-14s %s: max err vs gold %.3e (tol %.2e)", k, steps[k].name, ok ? "PASS" : "FAIL", sg.max_abs_err,
           o->tol_gold);
    if (o->h_ref) printf(", vs cuBLAS %.3e (tol %.2e)", sc.max_abs_err, o->tol_cublas);
    printf("\n");
  }
  return ok;
}

// -bench, through common/ladder.h: cuBLAS (kernel 0) is checked first, as the reference of every other kernel
typedef struct {
  sgemm_call *call;
  const sgemm_oracle *o;
  int cublas_ok;
  double flops;
} bench_ctx;

static int bench_check(void *p, int k) {
  bench_ctx *b = (bench_ctx *)p;
  return k == 0 ? b->cublas_ok : check_step(k, b->call, b->o, 0);
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

// one problem: the inputs on host and device, the gold rows and the bounds of the oracle, cuBLAS's C
typedef struct {
  int M, N, K;
  float *h_A, *h_B, *h_C, *h_ref, *h_rows, *d_A, *d_B, *d_C;
  int *which;
  double *gold, *absC;
  sgemm_oracle o;
  sgemm_call call;
  int cublas_ok;
} sgemm_problem;

// fills A and B (random in [-1, 1), so that sums cancel as real data does), works out the gold rows and the
// bounds, copies A and B to the device and checks cuBLAS (every kernel's reference) against the gold
static void problem_setup(sgemm_problem *p, int M, int N, int K, int seed, int verbose_cublas, int quiet) {
  memset(p, 0, sizeof(*p));
  p->M = M, p->N = N, p->K = K;
  size_t nA = (size_t)M * N, nB = (size_t)N * K, nC = (size_t)M * K;
  p->h_A = (float *)malloc(nA * sizeof(float)), p->h_B = (float *)malloc(nB * sizeof(float));
  p->h_C = (float *)malloc(nC * sizeof(float)), p->h_ref = (float *)malloc(nC * sizeof(float));
  p->which = (int *)malloc((size_t)M * sizeof(int));
  if (!p->h_A || !p->h_B || !p->h_C || !p->h_ref || !p->which) exit(result_fail("out of host memory"));
  fill_uniform(p->h_A, nA, (unsigned)seed, -1.0f, 1.0f);
  fill_uniform(p->h_B, nB, (unsigned)seed + 1u, -1.0f, 1.0f);

  // Gold treatment, in double
  int nrows = gemm_sample_rows(M, N, K, GOLD_WORK, p->which);
  p->gold = (double *)malloc((size_t)nrows * K * sizeof(double));
  p->absC = (double *)malloc((size_t)nrows * K * sizeof(double));
  p->h_rows = (float *)malloc((size_t)nrows * K * sizeof(float));
  if (!p->gold || !p->absC || !p->h_rows) exit(result_fail("out of host memory"));
  double t0 = wall_ms();
  gemm_gold(M, N, K, 1.0, p->h_A, p->h_B, 0.0, NULL, p->which, nrows, p->gold, p->absC);
  if (!quiet)
    printf("C = A B: A %d x %d, B %d x %d, C %d x %d; gemm_gold %.1f ms (%d of %d rows)\n", M, N, N, K, M, K,
           wall_ms() - t0, nrows, M);
  double smax = 0.0, amax_row = 0.0, bmax = 0.0;
  for (size_t i = 0; i < (size_t)nrows * K; i++) smax = fmax(smax, p->absC[i]);
  for (int m = 0; m < M; m++) {
    double sum = 0.0;
    for (int n = 0; n < N; n++) sum += fabs(p->h_A[(size_t)m * N + n]);
    amax_row = fmax(amax_row, sum);
  }
  for (size_t i = 0; i < nB; i++) bmax = fmax(bmax, fabs(p->h_B[i]));

  // copy A and B to the device
  checkCudaErrors(cudaMalloc((void **)&p->d_A, nA * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&p->d_B, nB * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&p->d_C, nC * sizeof(float)));
  checkCudaErrors(cudaMemcpy(p->d_A, p->h_A, nA * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(p->d_B, p->h_B, nB * sizeof(float), cudaMemcpyHostToDevice));

  sgemm_oracle o = {M, N, K, nrows, p->which, p->gold, gamma_k(N, U_FP32) * smax,
                    2.0 * gamma_k(N, U_FP32) * amax_row * bmax, NULL, p->h_C, p->h_rows};
  sgemm_call call = {run_cublas, p->d_A, p->d_B, p->d_C, M, N, K};
  p->o = o;
  p->call = call;
  // cuBLAS first: checked against the gold, then the reference for every other kernel
  p->cublas_ok = check_step(0, &p->call, &p->o, verbose_cublas);
  memcpy(p->h_ref, p->h_C, nC * sizeof(float));
  p->o.h_ref = p->h_ref;
}

static void problem_free(sgemm_problem *p) {
  checkCudaErrors(cudaFree(p->d_A));
  checkCudaErrors(cudaFree(p->d_B));
  checkCudaErrors(cudaFree(p->d_C));
  free(p->h_A);
  free(p->h_B);
  free(p->h_C);
  free(p->h_ref);
  free(p->which);
  free(p->gold);
  free(p->absC);
  free(p->h_rows);
}

static double time_step(sgemm_problem *p, sgemm_fn run, int reps) {
  p->call.run = run;
  return time_median_ms(run_call, &p->call, 2, reps);
}

// -shapes: kernels 7 and 8 against cuBLAS over shapes of every kind; M x N x K in LeetGPU's letters
// (A is M x N, C is M x K: N is the inner length). Squares; M, N or K small (256) with the others large; long
// inner lengths with few outputs (split-K's case); odd sizes that no tile divides; the program's default.
static const int shape_table[][3] = {
    {256, 256, 256},    {512, 512, 512},    {1000, 1001, 999}, {1024, 1024, 1024}, {1536, 1536, 1536},
    {2048, 2048, 2048}, {2500, 2500, 2500}, {4096, 4096, 4096}, {8192, 8192, 8192}, {3000, 5000, 7000},
    {4097, 4095, 4093}, {777, 3333, 1555},  {1999, 999, 2999},  {6000, 1000, 3000}, {256, 8192, 8192},
    {8192, 8192, 256},  {8192, 256, 8192},  {4096, 256, 4096},  {8192, 1024, 1024}, {1024, 1024, 8192},
    {8192, 512, 256},   {256, 8192, 256},   {512, 8192, 512},   {1024, 8192, 1024}, {2048, 8192, 2048},
    {300, 7000, 300},   {1000, 4000, 1000}, {256, 1024, 8192},
};
#define NSHAPES ((int)(sizeof(shape_table) / sizeof(shape_table[0])))

static int run_shapes_table(int seed, int reps) {
  int ok = 1, worst = -1, dev;
  double logsum = 0.0, worst_pct = 0.0;
  checkCudaErrors(cudaGetDevice(&dev));
  printf("\nkernels 7 and 8 against cuBLAS (FP32, CUBLAS_DEFAULT_MATH), median of %d; M x N x K: A is M x N, "
         "C is M x K\n",
         reps);
  printf("  %-16s %9s %8s %8s %8s %8s  %s\n", "M x N x K", "cuBLAS ms", "TFLOP/s", "k7 %", "k8 %", "k8 ms",
         "kernel 8's plan");
  for (int i = 0; i < NSHAPES; i++) {
    int M = shape_table[i][0], N = shape_table[i][1], K = shape_table[i][2];
    char size[64], plan[64];
    snprintf(size, sizeof(size), "%dx%dx%d", M, N, K);
    size_t bytes = ((size_t)M * N + 2 * (size_t)N * K + (size_t)M * K) * sizeof(float); // B padded too
    if (bytes > device_usable_bytes()) {
      printf("  %-16s SKIP: %.0f MB of A, B and C do not fit in this GPU's free memory\n", size, bytes / 1e6);
      continue;
    }
    sgemm_problem p;
    problem_setup(&p, M, N, K, seed, 0, 1);
    int ok7 = check_step(7, &p.call, &p.o, -1), ok8 = check_step(8, &p.call, &p.o, -1);
    ok = ok && p.cublas_ok && ok7 && ok8;
    double ms0 = time_step(&p, run_cublas, reps), ms7 = time_step(&p, run_pipeline, reps),
           ms8 = time_step(&p, run_shapes, reps);
    s8_plan pl = s8_pick(M, N, K, NULL);
    s8_describe(&pl, plan, sizeof(plan));
    double flops = 2.0 * M * N * K, pct8 = 100.0 * ms0 / ms8;
    printf("  %-16s %9.4f %8.2f %8.1f %8.1f %8.4f  %s%s\n", size, ms0, flops / (ms0 * 1e-3) / 1e12, 100.0 * ms0 / ms7,
           pct8, ms8, plan, (p.cublas_ok && ok7 && ok8) ? "" : "  (FAILED its check)");
    char extra[160];
    snprintf(extra, sizeof(extra), "kernel=8 TFLOPs=%.2f pct_cublas=%.1f pct_cublas_k7=%.1f plan=%s",
             flops / (ms8 * 1e-3) / 1e12, pct8, 100.0 * ms0 / ms7, plan);
    for (char *q = extra; *q; q++)
      if (*q == ' ' && q > strstr(extra, "plan=")) *q = '_';
    print_bench("5", "sgemm_shapes_k8", size, reps, ms8, -1.0, NULL, extra);
    logsum += log(pct8 / 100.0);
    if (worst < 0 || pct8 < worst_pct) worst = i, worst_pct = pct8;
    problem_free(&p);
  }
  if (worst >= 0)
    printf("kernel 8: geometric mean %.1f %% of cuBLAS over the shapes; the worst %.1f %% at %d x %d x %d\n",
           100.0 * exp(logsum / NSHAPES), worst_pct, shape_table[worst][0], shape_table[worst][1],
           shape_table[worst][2]);
  return ok;
}

typedef struct {
  const s8_plan *plan;
  sgemm_problem *p;
} s8_tune_call;

static void s8_tune_run(void *q) {
  s8_tune_call *t = (s8_tune_call *)q;
  s8_run_plan(t->plan, t->p->d_A, t->p->d_B, t->p->d_C, t->p->M, t->p->N, t->p->K);
}

#ifdef EXERCISE
// step 8's exercise: the learner's model (exercises/k8_model.cuh) must pick what the finished one picks, at
// this run's shape and at every shape of -shapes' table, on this GPU
static int exercise_model_check(int M, int N, int K) {
  const s8_gpu *g = s8_gpu_get();
  int same = 0, total = 0;
  for (int i = -1; i < NSHAPES; i++) {
    int m = i < 0 ? M : shape_table[i][0], n = i < 0 ? N : shape_table[i][1], k = i < 0 ? K : shape_table[i][2];
    s8_plan mine = s8_pick(m, n, k, NULL), answer = {-1, 1, 0};
    double tbest = 0.0;
    for (int c = 0; c < S8_NCONFIGS; c++) {
      if (!g->stages[c] || !g->resident[c]) continue;
      for (int split = 1; split <= S8_MAX_SPLIT && split <= ceil_div(n, S8_BK); split++) {
        if (split > 1 && (size_t)split * m * k * sizeof(float) > g->work_max) break;
        double t = s8_estimate_us_answer(&s8_configs[c], g->resident[c], split, m, n, k, g);
        if (answer.config < 0 || t < tbest) answer.config = c, answer.split = split, tbest = t;
      }
    }
    total++;
    if (mine.config == answer.config && mine.split == answer.split) {
      same++;
    } else {
      char a[64], b[64];
      s8_describe(&mine, a, sizeof(a));
      s8_describe(&answer, b, sizeof(b));
      printf("exercise: at %d x %d x %d your model picks %s, the finished one %s\n", m, n, k, a, b);
    }
  }
  printf("exercise: your model picks the finished model's plan at %d of %d shapes\n", same, total);
  return same == total;
}
#endif

// -tune: every plan kernel 8 could run at this shape, timed, against the model's estimate and its pick
static int run_tune(sgemm_problem *p, int reps) {
  const s8_gpu *g = s8_gpu_get();
  double est_pick;
  s8_plan pick = s8_pick(p->M, p->N, p->K, &est_pick), best = pick;
  double ms_best = -1.0, ms_pick = -1.0;
  int ok = 1;
  printf("\nkernel 8's plans at %d x %d x %d (%d SMs): time, median of %d, and the model's estimate\n", p->M, p->N,
         p->K, g->sms, reps);
  printf("  %-8s %5s %8s %9s %9s\n", "config", "split", "blocks", "ms", "model ms");
  for (int c = 0; c < S8_NCONFIGS; c++) {
    if (!g->stages[c]) continue;
    for (int split = 1; split <= S8_MAX_SPLIT && split <= ceil_div(p->N, S8_BK); split++) {
      if (split > 1 && (size_t)split * p->M * p->K * sizeof(float) > g->work_max) break;
      s8_plan pl = {c, split, g->stages[c]};
      // checked like every kernel: a plan that is wrong must not win
      checkCudaErrors(cudaMemset(p->d_C, 0xff, (size_t)p->M * p->K * sizeof(float)));
      s8_run_plan(&pl, p->d_A, p->d_B, p->d_C, p->M, p->N, p->K);
      checkCudaErrors(cudaMemcpy(p->h_C, p->d_C, (size_t)p->M * p->K * sizeof(float), cudaMemcpyDeviceToHost));
      gold_stats sc;
      compare_float(p->h_C, p->h_ref, (size_t)p->M * p->K, p->o.tol_cublas, 0.0, &sc);
      ok = ok && sc.nbad == 0;
      s8_tune_call tc = {&pl, p};
      double ms = time_median_ms(s8_tune_run, &tc, 2, reps);
      double est = s8_estimate_us(&s8_configs[c], g->resident[c], split, p->M, p->N, p->K, g) * 1e-3;
      int is_pick = c == pick.config && split == pick.split;
      printf("  %-8s %5d %8d %9.4f %9.4f%s%s\n", s8_configs[c].name, split,
             ceil_div(p->M, s8_configs[c].bm) * ceil_div(p->K, s8_configs[c].bn) * split, ms, est,
             is_pick ? "  <- picked" : "", sc.nbad ? "  (FAILED its check)" : "");
      if (ms_best < 0 || ms < ms_best) ms_best = ms, best = pl;
      if (is_pick) ms_pick = ms;
    }
  }
  char a[64], b[64];
  s8_describe(&pick, a, sizeof(a));
  s8_describe(&best, b, sizeof(b));
  printf("kernel 8 picked %s (%.4f ms); the fastest was %s (%.4f ms): the pick takes %.1f %% longer\n", a, ms_pick, b,
         ms_best, 100.0 * (ms_pick / ms_best - 1.0));
  return ok;
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
    // kernel 8 pads B's rows to a multiple of 4 floats when K is not one (sgemm/k8_shapes.cuh): room for that too
    size_t padded = K % 4 ? (size_t)N * ((K + 3) / 4 * 4) : 0;
    device_memory_check(((size_t)M * N + (size_t)N * K + (size_t)M * K + padded) * sizeof(float),
                        K % 4 ? "A, B, C and B padded" : "A, B and C", user_sized);
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
      if (kernel != 0) ok = check_step(kernel, &p.call, &p.o, 1) && ok;
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
#ifdef EXERCISE
  if (kernel == 8 || tune) ok = exercise_model_check(M, N, K) && ok;
#endif
  s8_teardown();
  cublas_teardown();
  return result_check(ok, "a kernel's C is outside its tolerance (see above)");
}
