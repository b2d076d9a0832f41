/*
 * sgemm/oracle.h -- what sgemm_ladder.cu checks every kernel with (not a lesson of its own): one problem's
 * inputs on the host and the device, the double gold of its rows (every row, or evenly spaced rows when the
 * product is large) with the error bounds of the runner's header comment, cuBLAS's C, and check_step, which
 * runs a kernel on a poisoned C and compares it with both. Included after the kernels (it checks cuBLAS with
 * run_cublas, sgemm/k0_cublas.cuh).
 */
#ifndef SGEMM_ORACLE_H
#define SGEMM_ORACLE_H

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

// runs step k on a poisoned C and checks it; prints one line (verbose 0), the details (1), or a line only if it
// fails (-1)
static int check_step(int k, const sgemm_step *st, sgemm_call *c, const sgemm_oracle *o, int verbose) {
  size_t nC = (size_t)o->M * o->K;
  checkCudaErrors(cudaMemset(c->d_C, 0xff, nC * sizeof(float))); // NaN: an element never written cannot pass
  c->run = st->run;
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
    printf("kernel %d (%s): %d x %d x %d\n", k, st->name, o->M, o->N, o->K);
    printf("tolerance: gamma(N) * max s = %.3e against the gold (%d of %d rows)", o->tol_gold, o->nrows, o->M);
    if (o->h_ref) printf(", 2 gamma(N) * s_bound = %.3e against cuBLAS (every element)", o->tol_cublas);
    printf("\n");
    gold_report("C vs gold", &sg);
    if (o->h_ref) gold_report("C vs cuBLAS", &sc);
  } else if (verbose == 0 || !ok) { // -1: a line only when it fails
    printf("  %d %-14s %s: max err vs gold %.3e (tol %.2e)", k, st->name, ok ? "PASS" : "FAIL", sg.max_abs_err,
           o->tol_gold);
    if (o->h_ref) printf(", vs cuBLAS %.3e (tol %.2e)", sc.max_abs_err, o->tol_cublas);
    printf("\n");
  }
  return ok;
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
  static const sgemm_step cublas = {"cublas", run_cublas};
  p->cublas_ok = check_step(0, &cublas, &p->call, &p->o, verbose_cublas);
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

#endif /* SGEMM_ORACLE_H */
