/*
 * sgemm_ladder.cu -- practical 5, step 5: the SGEMM ladder. C = A B in FP32, LeetGPU's problem (A is M x N, B is
 * N x K, C is M x K, row-major; solve(const float *A, const float *B, float *C, int M, int N, int K)), from
 * one thread per output to most of cuBLAS's speed, one kernel per file:
 *   -kernel=0  cublasSgemm (FP32, no tensor cores)                       sgemm/k0_cublas.cuh
 *   -kernel=1  naive: one thread per element of C                         sgemm/k1_naive.cuh
 *   -kernel=2  shared-memory tiles                                        sgemm/k2_shared.cuh
 *   -kernel=3  register blocking: 8 outputs a thread down a column        sgemm/k3_reg_block.cuh
 *   -kernel=4  2-D 8 x 8 register tiles, 16-byte loads                    sgemm/k4_2d_tiles.cuh
 *   -kernel=5  warp tiles, no bank conflicts, double buffering            sgemm/k5_double_buffer.cuh
 *   -kernel=6  kernel 5 with tiles twice as deep along N (16)             sgemm/k6_deep_tiles.cuh
 *   -kernel=7  8 x 16 outputs a thread, a cp.async pipeline                sgemm/k7_pipeline.cuh
 *
 * The oracle, for every kernel: the product in double on the host (every row, or evenly spaced rows when the
 * product is large), and cuBLAS on the same inputs (every element). An element of C is a dot product of N
 * float products; in any order of additions its error is at most gamma(N) s, where s = sum |A||B| of its
 * terms and gamma(N) = N u / (1 - N u), u = 2^-24 (Higham, 3.1). So each kernel must be within gamma(N) s_max
 * of the gold, and within 2 gamma(N) s_bound of cuBLAS, s_bound = max_m sum_n |A[m][n]| * max |B|, a bound
 * on s for every element that costs one pass over A and B.
 * -bench checks every kernel, then times each (median of -reps) and prints one table: ms, TFLOP/s and the
 * ratio to cuBLAS, and a BENCH line per kernel.
 *   nvcc -O3 -arch=native -I. -I../common sgemm_ladder.cu prac5_gold.c -lcublas -o sgemm_ladder
 */
#define COURSE_STEPS "practical 5, workbook step 5 (course step 3, own code; the ladder goes well beyond the course)"
// make exercises: ./exercises/sgemm_ladder, built with -DEXERCISE, runs kernel 2 from the learner's file,
// exercises/k2_shared.cuh, and runs it without -kernel; its verdict names the file (before gold_check.h)
#ifdef EXERCISE
#define EXERCISE_TODO "fill in the TODO(step 5)s in exercises/k2_shared.cuh"
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

// the kernel run without -kernel: the fastest; the starting file makes it the kernel left to write, so that
// running it untouched cannot PASS
#ifndef SGEMM_DEFAULT_KERNEL
#define SGEMM_DEFAULT_KERNEL 7
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
    {"deep_tiles", run_deep_tiles}, {"pipeline", run_pipeline},
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
  if (verbose) {
    printf("kernel %d (%s): %d x %d x %d\n", k, steps[k].name, o->M, o->N, o->K);
    printf("tolerance: gamma(N) * max s = %.3e against the gold (%d of %d rows)", o->tol_gold, o->nrows, o->M);
    if (o->h_ref) printf(", 2 gamma(N) * s_bound = %.3e against cuBLAS (every element)", o->tol_cublas);
    printf("\n");
    gold_report("C vs gold", &sg);
    if (o->h_ref) gold_report("C vs cuBLAS", &sc);
  } else {
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

int main(int argc, char **argv) {
  int M = 1000, N = 1001, K = 999, kernel = SGEMM_DEFAULT_KERNEL, bench = 0, seed = 1, reps = 10;
  arg_spec opts[] = {
      {"M", ARG_INT, &M, 1, 1 << 20, "rows of A and C"},
      {"N", ARG_INT, &N, 1, 1 << 20, "columns of A, rows of B (the length of each dot product)"},
      {"K", ARG_INT, &K, 1, 1 << 20, "columns of B and C"},
      {"kernel", ARG_INT, &kernel, 0, NSTEPS - 1, "the kernel: 0 cuBLAS, 1 to 7 the ladder"},
      {"bench", ARG_FLAG, &bench, 0, 1, "check and time every kernel, print the table and BENCH lines"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the inputs"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)M * N > 2147483647LL || (long long)N * K > 2147483647LL || (long long)M * K > 2147483647LL)
    args_fail("-M=%d -N=%d -K=%d: a matrix of more than 2^31 - 1 elements", M, N, K);
  if ((M + 7) / 8 > 65535) args_fail("-M=%d: more than 65535 blocks of 8 rows for kernel 1", M);
  int user_sized = args_given(argc, argv, "M") || args_given(argc, argv, "N") || args_given(argc, argv, "K");

  int dev = findCudaDevice(argc, argv);
  (void)dev;
  size_t nA = (size_t)M * N, nB = (size_t)N * K, nC = (size_t)M * K;
  device_memory_check((nA + nB + nC) * sizeof(float), "A, B and C", user_sized);

  // the inputs: random in [-1, 1), so that sums cancel as real data does
  float *h_A = (float *)malloc(nA * sizeof(float)), *h_B = (float *)malloc(nB * sizeof(float));
  float *h_C = (float *)malloc(nC * sizeof(float)), *h_ref = (float *)malloc(nC * sizeof(float));
  int *which = (int *)malloc((size_t)M * sizeof(int));
  if (!h_A || !h_B || !h_C || !h_ref || !which) return result_fail("out of host memory");
  fill_uniform(h_A, nA, (unsigned)seed, -1.0f, 1.0f);
  fill_uniform(h_B, nB, (unsigned)seed + 1u, -1.0f, 1.0f);

  // Gold treatment, in double
  int nrows = gemm_sample_rows(M, N, K, GOLD_WORK, which);
  double *gold = (double *)malloc((size_t)nrows * K * sizeof(double));
  double *absC = (double *)malloc((size_t)nrows * K * sizeof(double));
  float *h_rows = (float *)malloc((size_t)nrows * K * sizeof(float));
  if (!gold || !absC || !h_rows) return result_fail("out of host memory");
  double t0 = wall_ms();
  gemm_gold(M, N, K, 1.0, h_A, h_B, 0.0, NULL, which, nrows, gold, absC);
  printf("C = A B: A %d x %d, B %d x %d, C %d x %d; gemm_gold %.1f ms (%d of %d rows)\n", M, N, N, K, M, K,
         wall_ms() - t0, nrows, M);
  double smax = 0.0, amax_row = 0.0, bmax = 0.0;
  for (size_t i = 0; i < (size_t)nrows * K; i++) smax = fmax(smax, absC[i]);
  for (int m = 0; m < M; m++) {
    double s = 0.0;
    for (int n = 0; n < N; n++) s += fabs(h_A[(size_t)m * N + n]);
    amax_row = fmax(amax_row, s);
  }
  for (size_t i = 0; i < nB; i++) bmax = fmax(bmax, fabs(h_B[i]));

  // copy A and B to the device
  float *d_A, *d_B, *d_C;
  checkCudaErrors(cudaMalloc((void **)&d_A, nA * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_B, nB * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_C, nC * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_A, h_A, nA * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_B, h_B, nB * sizeof(float), cudaMemcpyHostToDevice));
  cublas_setup(); // the handle: once, outside every timed region

  sgemm_oracle o = {M, N, K, nrows, which, gold, gamma_k(N, U_FP32) * smax,
                    2.0 * gamma_k(N, U_FP32) * amax_row * bmax, NULL, h_C, h_rows};
  sgemm_call call = {run_cublas, d_A, d_B, d_C, M, N, K};

  // cuBLAS first: checked against the gold, then the reference for every other kernel
  int ok = check_step(0, &call, &o, !bench && kernel == 0);
  memcpy(h_ref, h_C, nC * sizeof(float));
  o.h_ref = h_ref;
  if (!bench) {
    if (kernel != 0) ok = check_step(kernel, &call, &o, 1) && ok;
  } else {
    bench_ctx b = {&call, &o, ok, 2.0 * M * N * K};
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

  // free
  cublas_teardown();
  checkCudaErrors(cudaFree(d_A));
  checkCudaErrors(cudaFree(d_B));
  checkCudaErrors(cudaFree(d_C));
  free(h_A);
  free(h_B);
  free(h_C);
  free(h_ref);
  free(which);
  free(gold);
  free(absC);
  free(h_rows);
  return result_check(ok, "a kernel's C is outside its tolerance (see above)");
}
