/*
 * sgemm/oracle.h -- what sgemm_ladder.cu checks every kernel with (not a lesson of its own): one problem's
 * inputs on the host and the device; the FP64 reference on the device (sgemm/reference.cuh: C64 and s = |A| |B|
 * by cublasDgemm, the bound); and check_step, which runs a kernel on a poisoned C and compares every element
 * with the reference, cuBLAS (step 0) like the rest; and -fault=tile, a fault the check must catch. Included
 * after the kernels (it runs run_cublas, sgemm/k0_cublas.cuh).
 *
 * The reference itself is checked against the double gold of the host (every row, or evenly spaced rows when the
 * product is large): it is computed by cuBLAS, as step 0 is, so a mistake the two calls share (the operand
 * order, a leading dimension) would agree with itself; the host's gold is an independent computation of the
 * same exact products in another order, and the two must agree within 3 gamma64(K) s.
 */
#ifndef SGEMM_ORACLE_H
#define SGEMM_ORACLE_H

#include <stdarg.h>

#include "reference.cuh"

#define GOLD_WORK 2e9 // multiply-adds the host gold may do (a second or so); beyond, evenly spaced rows

typedef void (*sgemm_fn)(const float *, const float *, float *, int, int, int);
typedef struct {
  const char *name;
  sgemm_fn run;
} sgemm_step;

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

typedef struct {
  int M, N, K;
  sgemm_reference ref;
} sgemm_oracle;

// the words of the first check that failed in this run, for the verdict line
static char sgemm_failure[320];
static void note_failure(const char *fmt, ...) {
  if (sgemm_failure[0]) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(sgemm_failure, sizeof(sgemm_failure), fmt, ap);
  va_end(ap);
}

// every element of the C now in d_C against the reference; then C is poisoned again (NaN), so that whatever
// runs next is judged on what it writes itself, not on what is left of this
static ref_stats judge_C(const sgemm_oracle *o, float *d_C) {
  ref_stats r = reference_compare(&o->ref, d_C);
  checkCudaErrors(cudaMemset(d_C, 0xff, o->ref.n * sizeof(float)));
  return r;
}

// one line: "  k name  PASS: ..." (when: NULL) or "  k name  FAIL after its timed runs: ..."
static void judge_line(int k, const char *name, const char *when, const sgemm_oracle *o, const ref_stats *r) {
  printf("  %d %-14s %s%s: worst err/bound %.2e at (%lld, %lld), max abs err %.2e, %llu of %zu outside\n", k, name,
         r->nbad ? "FAIL" : "PASS", when ? when : "", r->worst, r->worst_at / o->N, r->worst_at % o->N, r->max_err,
         r->nbad, o->ref.n);
  if (r->nonfinite) printf("    %llu of them NaN or Inf\n", r->nonfinite);
}

static void judge_failure(int k, const char *name, const char *when, const sgemm_oracle *o, const ref_stats *r) {
  note_failure("kernel %d (%s)%s: %llu of %zu elements of C outside the FP64 bound (worst err/bound %.3g at row "
               "%lld, col %lld)",
               k, name, when ? when : "", r->nbad, o->ref.n, r->worst, r->worst_at / o->N, r->worst_at % o->N);
}

// runs step k on a poisoned C and checks it; prints the details (verbose 1), one line (0), or a line only if it
// fails (-1)
static int check_step(int k, const sgemm_step *st, sgemm_call *c, const sgemm_oracle *o, int verbose) {
  checkCudaErrors(cudaMemset(c->d_C, 0xff, o->ref.n * sizeof(float))); // NaN: an element never written fails
  c->run = st->run;
  run_call(c);
  ref_stats r = judge_C(o, c->d_C);
  if (verbose > 0) {
    printf("kernel %d (%s): %d x %d x %d\n", k, st->name, o->M, o->N, o->K);
    printf("tolerance: |C - C64| <= %.3e s on every element, C64 = A B and s = |A| |B| by cublasDgemm on A and B "
           "widened to double (min(gamma(K), %g sqrt(K) u) + 2 gamma64(K), sgemm/reference.cuh)\n",
           o->ref.tau, SGEMM_LAMBDA);
    printf("C vs FP64 reference: %zu values, max abs err = %.3e, worst err/bound = %.3e at (%lld, %lld), %llu "
           "outside the bound\n",
           o->ref.n, r.max_err, r.worst, r.worst_at / o->N, r.worst_at % o->N, r.nbad);
    if (r.nonfinite) printf("C vs FP64 reference: %llu values are NaN or Inf\n", r.nonfinite);
  } else if (verbose == 0 || r.nbad) {
    judge_line(k, st->name, NULL, o, &r);
  }
  if (r.nbad) judge_failure(k, st->name, NULL, o, &r);
  return r.nbad == 0;
}

// after step k's timed runs: the C the last of them left, against the reference, without running the step again
// (a line only when it fails). Whoever times the step poisons C before (check_step and this leave it so).
static int recheck_step(int k, const char *name, sgemm_call *c, const sgemm_oracle *o) {
  ref_stats r = judge_C(o, c->d_C);
  if (r.nbad) {
    judge_line(k, name, " after its timed runs", o, &r);
    judge_failure(k, name, ", after its timed runs", o, &r);
  }
  return r.nbad == 0;
}

// -fault=tile: a check that can fail. The step runs as asked, then one tile of C, the 128 x 128 one that holds
// element (M/2, N/2), is written again by a loop that stops one term short, k < K - 1: the off-by-one a tile's
// bound can have. Each of its elements is then off by the lost term A[m][K-1] B[K-1][n], under 1 in size for
// these inputs: a worst-case tolerance such as 2 gamma(K) s would let that pass at a long K, the bound of
// sgemm/reference.cuh does not (runs: the expect=FAIL lines say by how much)
static sgemm_fn fault_step;
__global__ void sgemm_fault_tile(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                 int M, int N, int K, int row0, int col0) {
  int row = row0 + blockIdx.y * 16 + threadIdx.y, col = col0 + blockIdx.x * 16 + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K - 1; k++) sum += A[(size_t)row * K + k] * B[(size_t)k * N + col];
  C[(size_t)row * N + col] = sum;
}

static void run_with_faulty_tile(const float *A, const float *B, float *C, int M, int N, int K) {
  fault_step(A, B, C, M, N, K);
  sgemm_fault_tile<<<dim3(8, 8), dim3(16, 16)>>>(A, B, C, M, N, K, M / 2 / 128 * 128, N / 2 / 128 * 128);
  getLastCudaError("sgemm_fault_tile execution failed");
}

// one problem: the inputs on host and device, the FP64 reference, and whether it and cuBLAS passed
typedef struct {
  int M, N, K;
  float *d_A, *d_B, *d_C;
  sgemm_oracle o;
  sgemm_call call;
  int base_ok; // the reference agrees with the host gold, and cuBLAS with the reference
} sgemm_problem;

// the device memory a problem needs, checked before any is taken: A, B and C, and the FP64 reference at its peak,
// while it is made (sgemm/reference.cuh), or what it keeps beside `work` floats of kernel 8's workspaces
static void problem_memory_check(int M, int N, int K, size_t work, int user_sized) {
  size_t later = reference_kept_bytes(M, N) + work * sizeof(float);
  size_t peak = reference_peak_bytes(M, N, K) > later ? reference_peak_bytes(M, N, K) : later;
  device_memory_check(((size_t)M * K + (size_t)K * N + (size_t)M * N) * sizeof(float) + peak,
                      work ? "A, B, C, the FP64 reference and kernel 8's workspaces" : "A, B, C and the FP64 reference",
                      user_sized);
}

// the reference's rows `which` against the host gold's (both in double, so within 3 gamma64(K) s)
static int reference_vs_gold(const sgemm_oracle *o, const int *which, int nrows, const double *gold,
                             const double *absC, int quiet) {
  size_t n = (size_t)nrows * o->N, row = (size_t)o->N * sizeof(double);
  double *h_rows = (double *)malloc(n * sizeof(double));
  if (!h_rows) exit(result_fail("out of host memory"));
  if (nrows == o->M)
    checkCudaErrors(cudaMemcpy(h_rows, o->ref.d_C64, n * sizeof(double), cudaMemcpyDeviceToHost));
  else
    for (int r = 0; r < nrows; r++)
      checkCudaErrors(cudaMemcpy(h_rows + (size_t)r * o->N, o->ref.d_C64 + (size_t)which[r] * o->N, row,
                                 cudaMemcpyDeviceToHost));
  double tol = 3.0 * gamma_k(o->K, U_FP64);
  ref_stats r = {0, 0, 0.0, 0.0, -1};
  for (size_t i = 0; i < n; i++) ref_stats_add(&r, i, h_rows[i], gold[i], tol * absC[i]);
  free(h_rows);
  if (!quiet || r.nbad)
    printf("FP64 reference vs the host gold: %zu values on %d of %d rows, max abs err = %.3e, worst err/bound = "
           "%.3e, %llu outside 3 gamma64(K) s\n",
           n, nrows, o->M, r.max_err, r.worst, r.nbad);
  if (r.nbad)
    note_failure("the FP64 reference (cublasDgemm) disagrees with the host gold: %llu of %zu elements outside 3 "
                 "gamma64(K) s",
                 r.nbad, n);
  return r.nbad == 0;
}

// the host's gold in double, on every row or evenly spaced rows (gemm_sample_rows): which[] names them, *gold and
// *absC (nrows x N, allocated here) hold them; returns nrows, the time taken in *ms. Shared with hgemm/oracle.h
static int gold_rows(const float *h_A, const float *h_B, int M, int N, int K, int *which, double **gold,
                     double **absC, double *ms) {
  int nrows = gemm_sample_rows(M, K, N, GOLD_WORK, which);
  *gold = (double *)malloc((size_t)nrows * N * sizeof(double));
  *absC = (double *)malloc((size_t)nrows * N * sizeof(double));
  if (!*gold || !*absC) exit(result_fail("out of host memory"));
  double t0 = wall_ms();
  gemm_gold(M, K, N, 1.0, h_A, h_B, 0.0, NULL, which, nrows, *gold, *absC);
  *ms = wall_ms() - t0;
  return nrows;
}

// fills A and B (random in [-1, 1), so that sums cancel as real data does), copies them to the device, makes
// the FP64 reference and checks it against the host gold, then checks cuBLAS (step 0) against the reference
static void problem_setup(sgemm_problem *p, int M, int N, int K, int seed, int verbose_cublas, int quiet) {
  memset(p, 0, sizeof(*p));
  p->M = M, p->N = N, p->K = K;
  size_t nA = (size_t)M * K, nB = (size_t)K * N, nC = (size_t)M * N;
  float *h_A = (float *)malloc(nA * sizeof(float)), *h_B = (float *)malloc(nB * sizeof(float));
  int *which = (int *)malloc((size_t)M * sizeof(int));
  if (!h_A || !h_B || !which) exit(result_fail("out of host memory"));
  fill_uniform(h_A, nA, (unsigned)seed, -1.0f, 1.0f);
  fill_uniform(h_B, nB, (unsigned)seed + 1u, -1.0f, 1.0f);

  // Gold treatment, in double, on every row or evenly spaced rows
  double *gold, *absC, gold_ms;
  int nrows = gold_rows(h_A, h_B, M, N, K, which, &gold, &absC, &gold_ms);
  if (!quiet)
    printf("C = A B: A %d x %d, B %d x %d, C %d x %d; gemm_gold %.1f ms (%d of %d rows)\n", M, K, K, N, M, N,
           gold_ms, nrows, M);

  // copy A and B to the device
  checkCudaErrors(cudaMalloc((void **)&p->d_A, nA * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&p->d_B, nB * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&p->d_C, nC * sizeof(float)));
  checkCudaErrors(cudaMemcpy(p->d_A, h_A, nA * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(p->d_B, h_B, nB * sizeof(float), cudaMemcpyHostToDevice));

  // the FP64 reference, checked against the gold
  p->o.M = M, p->o.N = N, p->o.K = K;
  reference_setup(&p->o.ref, p->d_A, p->d_B, M, N, K);
  int ref_ok = reference_vs_gold(&p->o, which, nrows, gold, absC, quiet);
  free(h_A);
  free(h_B);
  free(which);
  free(gold);
  free(absC);

  sgemm_call call = {run_cublas, p->d_A, p->d_B, p->d_C, M, N, K};
  p->call = call;
  // cuBLAS first, against the reference like every other kernel
  static const sgemm_step cublas = {"cublas", run_cublas};
  p->base_ok = check_step(0, &cublas, &p->call, &p->o, verbose_cublas) && ref_ok;
}

static void problem_free(sgemm_problem *p) {
  checkCudaErrors(cudaFree(p->d_A));
  checkCudaErrors(cudaFree(p->d_B));
  checkCudaErrors(cudaFree(p->d_C));
  reference_free(&p->o.ref);
}

static double time_step(sgemm_problem *p, sgemm_fn run, int reps) {
  p->call.run = run;
  return time_median_ms(run_call, &p->call, 2, reps);
}

#endif /* SGEMM_ORACLE_H */
