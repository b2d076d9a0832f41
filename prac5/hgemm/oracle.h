/*
 * hgemm/oracle.h -- what hgemm_ladder.cu checks every kernel with (not a lesson of its own), sgemm's oracle
 * reused: the inputs drawn (hgemm_draw) and rounded to FP16 or BF16 on the host; their exact values widened to
 * float and handed to sgemm/reference.cuh, which makes C64 = A B and s64 = |A| |B| by cublasDgemm in double
 * and compares every element of C with them on the device (judge_C, sgemm/oracle.h); the bound replaced by
 * hgemm's (hgemm_bound_factor, hgemm/hgemm_host.h, where it is derived); the reference itself checked against
 * the host's double gold (every row, or evenly spaced rows: reference_vs_gold). C is poisoned (NaN) before
 * every run, and again after every judgement. -fault=tile: one 128 x 128 tile of C summed one term short.
 */
#ifndef HGEMM_ORACLE_H
#define HGEMM_ORACLE_H

// sgemm's handle, reference and judging, included whole: the parts for float inputs (its problem_setup,
// check_step, time_step) go unused here, so nvcc's "declared but never referenced" (#177) is off for them alone
#pragma nv_diag_suppress 177
#include "../sgemm/k0_cublas.cuh"
#include "../sgemm/oracle.h"
#pragma nv_diag_default 177

typedef struct {
  const char *name;
  hgemm_fn run[2]; // [0] for FP16 inputs, [1] for BF16
} hgemm_step;

typedef struct {
  int M, N, K, bf16;
  void *d_A, *d_B; // FP16 or BF16, 2 bytes an element
  float *d_C;
  sgemm_oracle o;
  hgemm_fn run; // what hgemm_run runs (check, timing)
  int ref_ok;   // the reference agrees with the host gold
} hgemm_problem;

static void hgemm_run(void *p) {
  hgemm_problem *h = (hgemm_problem *)p;
  h->run(h->d_A, h->d_B, h->d_C, h->M, h->N, h->K);
}

// runs step k on a poisoned C and checks every element; prints the details (verbose 1), one line (0), or a line
// only if it fails (-1)
static int hgemm_check(int k, const hgemm_step *st, hgemm_problem *p, int verbose) {
  checkCudaErrors(cudaMemset(p->d_C, 0xff, p->o.ref.n * sizeof(float))); // NaN: an element never written fails
  p->run = st->run[p->bf16];
  hgemm_run(p);
  ref_stats r = judge_C(&p->o, p->d_C);
  if (verbose > 0) {
    printf("kernel %d (%s): %d x %d x %d, %s inputs, FP32 accumulate and C\n", k, st->name, p->M, p->N, p->K,
           p->bf16 ? "BF16" : "FP16");
    printf("tolerance: |C - C64| <= %.3e s on every element, C64 = A B and s = |A| |B| by cublasDgemm on A and B "
           "widened to double (gamma(5 ceil(K/4), 2^-23) + 2 gamma64(K): FP32 sums with tensor-core truncation, "
           "hgemm/hgemm_host.h)\n",
           p->o.ref.tau);
    printf("C vs FP64 reference: %zu values, max abs err = %.3e, worst err/bound = %.3e at (%lld, %lld), %llu "
           "outside the bound\n",
           p->o.ref.n, r.max_err, r.worst, r.worst_at / p->N, r.worst_at % p->N, r.nbad);
    if (r.nonfinite) printf("C vs FP64 reference: %llu values are NaN or Inf\n", r.nonfinite);
  } else if (verbose == 0 || r.nbad) {
    judge_line(k, st->name, NULL, &p->o, &r);
  }
  if (r.nbad) judge_failure(k, st->name, NULL, &p->o, &r);
  return r.nbad == 0;
}

// after step k's timed runs: the C the last of them left, without running it again (a line only when it fails)
static int hgemm_recheck(int k, const char *name, hgemm_problem *p) {
  ref_stats r = judge_C(&p->o, p->d_C);
  if (r.nbad) {
    judge_line(k, name, " after its timed runs", &p->o, &r);
    judge_failure(k, name, ", after its timed runs", &p->o, &r);
  }
  return r.nbad == 0;
}

// -fault=tile: the step runs as asked, then the 128 x 128 tile of C that holds (M/2, N/2) is written again by a
// loop that stops one term short. Each of its elements is off by |A[m][K-1] B[K-1][n]| >= 1/16, which the bound
// is sure to catch while K is short (hgemm/hgemm_host.h: up to K = 456)
static hgemm_fn hgemm_fault_step;
template <typename T>
__global__ void hgemm_fault_tile(const T *__restrict__ A, const T *__restrict__ B, float *__restrict__ C, int M, int N,
                                 int K, int row0, int col0) {
  int row = row0 + blockIdx.y * 16 + threadIdx.y, col = col0 + blockIdx.x * 16 + threadIdx.x;
  if (row >= M || col >= N) return;
  float sum = 0.0f;
  for (int k = 0; k < K - 1; k++) sum += (float)A[row * K + k] * (float)B[k * N + col];
  C[row * N + col] = sum;
}

template <typename T>
static void run_faulty_tile(const void *A, const void *B, float *C, int M, int N, int K) {
  hgemm_fault_step(A, B, C, M, N, K);
  hgemm_fault_tile<T>
      <<<dim3(8, 8), dim3(16, 16)>>>((const T *)A, (const T *)B, C, M, N, K, M / 2 / 128 * 128, N / 2 / 128 * 128);
  getLastCudaError("hgemm_fault_tile execution failed");
}

// the device memory a problem needs: A and B (2 bytes an element), C, and while the reference is made, A and B
// widened to float beside the reference's own peak (sgemm/reference.cuh; what it keeps afterwards is less); kernel
// 4's padded copies of A (K no multiple of 8) and B (N no multiple of 8) beside them, and cublasLt's 32 MiB of
// workspace (hgemm/k0_cublaslt.cuh)
static size_t hgemm_bytes(int M, int N, int K) {
  size_t nAB = (size_t)M * K + (size_t)K * N;
  size_t pad = (K % 8 ? (size_t)M * hgemm_pad8(K) : 0) + (N % 8 ? (size_t)K * hgemm_pad8(N) : 0);
  return nAB * 2 + (size_t)M * N * sizeof(float) + nAB * sizeof(float) + reference_peak_bytes(M, N, K) + pad * 2 +
         H0_LT_WORKSPACE;
}
static void hgemm_memory_check(int M, int N, int K, int user_sized) {
  device_memory_check(hgemm_bytes(M, N, K), "A, B, C and the FP64 reference", user_sized);
}

// x rounded to T (round to nearest), and x set to the value it holds: exact in float and in double
template <typename T>
static void round_to(float *x, T *y, size_t n) {
  for (size_t i = 0; i < n; i++) {
    y[i] = T(x[i]);
    x[i] = (float)y[i];
  }
}

template <typename T>
static void hgemm_fill(hgemm_problem *p, float *h_A, float *h_B, int seed) {
  size_t nA = (size_t)p->M * p->K, nB = (size_t)p->K * p->N;
  T *h_At = (T *)malloc(nA * sizeof(T)), *h_Bt = (T *)malloc(nB * sizeof(T));
  if (!h_At || !h_Bt) exit(result_fail("out of host memory"));
  hgemm_draw(h_A, nA, (unsigned)seed);
  hgemm_draw(h_B, nB, (unsigned)seed + 1u);
  round_to(h_A, h_At, nA);
  round_to(h_B, h_Bt, nB);
  checkCudaErrors(cudaMemcpy(p->d_A, h_At, nA * sizeof(T), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(p->d_B, h_Bt, nB * sizeof(T), cudaMemcpyHostToDevice));
  free(h_At);
  free(h_Bt);
}

// the inputs on host and device, the FP64 reference, and the reference against the host gold
static void hgemm_setup(hgemm_problem *p, int M, int N, int K, int bf16, int seed, int quiet) {
  memset(p, 0, sizeof(*p));
  p->M = M, p->N = N, p->K = K, p->bf16 = bf16;
  size_t nA = (size_t)M * K, nB = (size_t)K * N, nC = (size_t)M * N;
  float *h_A = (float *)malloc(nA * sizeof(float)), *h_B = (float *)malloc(nB * sizeof(float));
  int *which = (int *)malloc((size_t)M * sizeof(int));
  if (!h_A || !h_B || !which) exit(result_fail("out of host memory"));
  checkCudaErrors(cudaMalloc(&p->d_A, nA * 2));
  checkCudaErrors(cudaMalloc(&p->d_B, nB * 2));
  checkCudaErrors(cudaMalloc((void **)&p->d_C, nC * sizeof(float)));
  if (bf16)
    hgemm_fill<__nv_bfloat16>(p, h_A, h_B, seed);
  else
    hgemm_fill<__half>(p, h_A, h_B, seed);

  // Gold treatment, in double, on every row or evenly spaced rows (h_A and h_B hold the rounded values)
  double *gold, *absC, gold_ms;
  int nrows = gold_rows(h_A, h_B, M, N, K, which, &gold, &absC, &gold_ms);
  if (!quiet)
    printf("C = A B: A %d x %d, B %d x %d (%s), C %d x %d (FP32); gemm_gold %.1f ms (%d of %d rows)\n", M, K, K, N,
           bf16 ? "BF16" : "FP16", M, N, gold_ms, nrows, M);

  // the FP64 reference, from the same values widened to float, checked against the gold
  float *d_A32, *d_B32;
  checkCudaErrors(cudaMalloc((void **)&d_A32, nA * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_B32, nB * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_A32, h_A, nA * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_B32, h_B, nB * sizeof(float), cudaMemcpyHostToDevice));
  p->o.M = M, p->o.N = N, p->o.K = K;
  reference_setup(&p->o.ref, d_A32, d_B32, M, N, K);
  p->o.ref.tau = hgemm_bound_factor(K);
  checkCudaErrors(cudaFree(d_A32));
  checkCudaErrors(cudaFree(d_B32));
  p->ref_ok = reference_vs_gold(&p->o, which, nrows, gold, absC, quiet);
  free(h_A);
  free(h_B);
  free(which);
  free(gold);
  free(absC);
}

static void hgemm_free(hgemm_problem *p) {
  checkCudaErrors(cudaFree(p->d_A));
  checkCudaErrors(cudaFree(p->d_B));
  checkCudaErrors(cudaFree(p->d_C));
  reference_free(&p->o.ref);
}

#endif /* HGEMM_ORACLE_H */
