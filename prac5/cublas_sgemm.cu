/*
 * cublas_sgemm.cu -- practical 5, step 1: a matrix product with cuBLAS, from C's row-major arrays.
 *
 * C = alpha * A * B + beta * C, with A M x K, B K x N and C M x N, all stored row-major as C stores a 2-D
 * array (element (i, j) at i*cols + j). cuBLAS follows Fortran: it reads every matrix column-major. A
 * row-major R x C array, read column-major, is the C x R matrix that is its transpose. So instead of
 * transposing anything we ask cuBLAS for the transpose of the answer, C^T = B^T A^T: B's array is B^T to
 * cuBLAS, A's is A^T, and the column-major C^T it writes is, byte for byte, our row-major C.
 *
 * -wrong_order makes the call a row-major reader would write first (A first, m = M): it runs, and it gives
 * the wrong numbers (the column-major trap). The gold is the same product in double on the host.
 * The course's size, N = 275, is the default for all three dimensions; -M= -N= -K= give any other.
 *   nvcc -O3 -arch=native -I../common cublas_sgemm.cu prac5_gold.c -lcublas -o cublas_sgemm
 */
#define COURSE_STEPS "practical 5, workbook step 1 (course steps 1-2, in place of the sample simpleCUBLAS)"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cublas.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac5_gold.h"

// the host gold does at most this many multiply-adds (a second or two); beyond, it checks sampled rows
#define GOLD_WORK 4e9

typedef struct {
  cublasHandle_t handle;
  int M, N, K, wrong_order;
  float alpha, beta;
  const float *d_A, *d_B;
  float *d_C;
} sgemm_call;

static void run_sgemm(void *p) {
  sgemm_call *c = (sgemm_call *)p;
  if (!c->wrong_order) {
    // C^T (N x M, column-major, ld N) = B^T (N x K, ld N) * A^T (K x M, ld K): our row-major C
    checkCudaErrors(cublasSgemm(c->handle, CUBLAS_OP_N, CUBLAS_OP_N, c->N, c->M, c->K, &c->alpha, c->d_B, c->N,
                                c->d_A, c->K, &c->beta, c->d_C, c->N));
  } else {
    // the trap: the call as the maths reads, but cuBLAS then takes A's array for a column-major M x K matrix
    checkCudaErrors(cublasSgemm(c->handle, CUBLAS_OP_N, CUBLAS_OP_N, c->M, c->N, c->K, &c->alpha, c->d_A, c->M,
                                c->d_B, c->K, &c->beta, c->d_C, c->M));
  }
}

int main(int argc, char **argv) {
  int M = 275, N = 275, K = 275, wrong_order = 0, seed = 1, reps = 20;
  double alpha = 1.0, beta = 0.5;
  arg_spec opts[] = {
      {"M", ARG_INT, &M, 1, 1 << 20, "rows of A and C"},
      {"N", ARG_INT, &N, 1, 1 << 20, "columns of B and C"},
      {"K", ARG_INT, &K, 1, 1 << 20, "columns of A, rows of B"},
      {"alpha", ARG_DOUBLE, &alpha, -1e3, 1e3, "C = alpha A B + beta C"},
      {"beta", ARG_DOUBLE, &beta, -1e3, 1e3, "C = alpha A B + beta C"},
      {"wrong_order", ARG_FLAG, &wrong_order, 0, 1, "call cuBLAS as if it were row-major (the trap: FAILs)"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the inputs"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions (the median is printed)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  // cuBLAS takes int sizes and leading dimensions; every array must also fit an int count of elements
  if ((long long)M * K > 2147483647LL || (long long)K * N > 2147483647LL || (long long)M * N > 2147483647LL)
    args_fail("-M=%d -N=%d -K=%d: a matrix of more than 2^31 - 1 elements", M, N, K);
  int user_sized = args_given(argc, argv, "M") || args_given(argc, argv, "N") || args_given(argc, argv, "K");

  int dev = findCudaDevice(argc, argv);
  size_t nA = (size_t)M * K, nB = (size_t)K * N, nC = (size_t)M * N;
  device_memory_check((nA + nB + nC) * sizeof(float), "A, B and C", user_sized);

  // initialise: random numbers of both signs, so that the sums cancel as real data does
  float *h_A = (float *)malloc(nA * sizeof(float)), *h_B = (float *)malloc(nB * sizeof(float));
  float *h_C0 = (float *)malloc(nC * sizeof(float)), *h_C = (float *)malloc(nC * sizeof(float));
  int *which = (int *)malloc((size_t)M * sizeof(int));
  if (!h_A || !h_B || !h_C0 || !h_C || !which) return result_fail("out of host memory");
  fill_uniform(h_A, nA, (unsigned)seed, -1.0f, 1.0f);
  fill_uniform(h_B, nB, (unsigned)seed + 1u, -1.0f, 1.0f);
  fill_uniform(h_C0, nC, (unsigned)seed + 2u, -1.0f, 1.0f);
  printf("C = %g A B + %g C: A %d x %d, B %d x %d, C %d x %d, row-major\n", alpha, beta, M, K, K, N, M, N);

  // copy A, B and the starting C to the device
  float *d_A, *d_B, *d_C;
  checkCudaErrors(cudaMalloc((void **)&d_A, nA * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_B, nB * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_C, nC * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_A, h_A, nA * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_B, h_B, nB * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_C, h_C0, nC * sizeof(float), cudaMemcpyHostToDevice));

  // the handle is made once, outside the timed region: creating it costs far more than a small product
  cublasHandle_t handle;
  checkCudaErrors(cublasCreate(&handle));
  checkCudaErrors(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH)); // FP32 throughout: no TF32 tensor cores
  sgemm_call call = {handle, M, N, K, wrong_order, (float)alpha, (float)beta, d_A, d_B, d_C};

  // the product, once, as the course times it; then C is reset for the timing runs
  event_timer t = event_timer_start();
  run_sgemm(&call);
  float ms_once = event_timer_stop(&t);
  checkCudaErrors(cudaMemcpy(h_C, d_C, nC * sizeof(float), cudaMemcpyDeviceToHost));

  // timing: beta = 0 so that repeated calls do not grow C (the same work: cuBLAS still reads nothing more)
  sgemm_call timed = call;
  timed.beta = 0.0f;
  float ms = time_median_ms(run_sgemm, &timed, 3, reps);
  double flops = 2.0 * M * N * K;
  printf("cublasSgemm: first call %.4f ms; median of %d: %.4f ms, %.1f GFLOP/s\n", ms_once, reps, ms,
         flops / (ms * 1e-3) / 1e9);

  // Gold treatment (every row, or evenly spaced rows when the product is large)
  int nrows = gemm_sample_rows(M, K, N, GOLD_WORK, which);
  double *gold = (double *)malloc((size_t)nrows * N * sizeof(double));
  double *absC = (double *)malloc((size_t)nrows * N * sizeof(double));
  float *gpu = (float *)malloc((size_t)nrows * N * sizeof(float));
  if (!gold || !absC || !gpu) return result_fail("out of host memory");
  double t0 = wall_ms();
  gemm_gold(M, K, N, alpha, h_A, h_B, beta, h_C0, which, nrows, gold, absC);
  printf("gemm_gold: %.1f ms (%d of %d rows)\n", wall_ms() - t0, nrows, M);
  for (int r = 0; r < nrows; r++)
    for (int j = 0; j < N; j++) gpu[(size_t)r * N + j] = h_C[(size_t)which[r] * N + j];

  // error check. Each element is a dot product of K terms plus two more roundings (alpha, beta): in any
  // order of additions it is within gamma(K + 2) * (|alpha| |A| |B| + |beta| |C|) of the exact value.
  double amax = 0.0;
  for (size_t i = 0; i < (size_t)nrows * N; i++)
    if (absC[i] > amax) amax = absC[i];
  double tol = gamma_k(K + 2.0, U_FP32) * amax;
  gold_stats st;
  compare_float_double(gpu, gold, (size_t)nrows * N, tol, 0.0, &st);
  printf("tolerance: gamma(K+2) * max(|alpha||A||B| + |beta||C|) = %.3e\n", tol);
  gold_report("C", &st);
  int rc;
  if (wrong_order)
    rc = st.nbad ? result_fail("-wrong_order: cuBLAS read the row-major arrays as column-major (the trap)")
                 : result_pass();
  else
    rc = gold_verdict(&st, "C");

  // free
  checkCudaErrors(cublasDestroy(handle));
  checkCudaErrors(cudaFree(d_A));
  checkCudaErrors(cudaFree(d_B));
  checkCudaErrors(cudaFree(d_C));
  free(h_A);
  free(h_B);
  free(h_C0);
  free(h_C);
  free(which);
  free(gold);
  free(absC);
  free(gpu);
  return rc;
}
