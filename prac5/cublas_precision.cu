/*
 * cublas_precision.cu -- practical 5, step 2: one matrix product in four precisions, and what each costs
 * in accuracy. cublasGemmEx multiplies
 *   FP32  float inputs, float arithmetic (CUDA cores: CUBLAS_COMPUTE_32F, no tensor cores)
 *   TF32  float inputs rounded inside cuBLAS to TF32 (10 mantissa bits) for the tensor cores, float sums
 *         (CUBLAS_COMPUTE_32F_FAST_TF32)
 *   FP16  half inputs (rounded here, on the host), float sums on the tensor cores (CUBLAS_COMPUTE_32F)
 *   BF16  bfloat16 inputs (rounded here), float sums on the tensor cores
 * and prints one table: time, TFLOP/s, and the error against the double gold of the FP32 inputs, with the
 * tolerance that each precision must meet and where it comes from.
 *
 * Each tolerance is a worst-case bound, per element, relative to s = |A| |B| (the sum of the terms' sizes):
 *   rounding both inputs to a format of unit roundoff u_in   (2 u_in + u_in^2) s
 *   K products added in float                                (1 + u_in)^2 gamma(K) s, gamma(K) = K u / (1 - K u)
 * with u = 2^-24 on CUDA cores, and u = 2^-23 on the tensor cores, whose adders truncate (Fasi, Higham,
 * Mikaitis, Pranesh, "Numerical behavior of NVIDIA tensor cores", PeerJ CS 2021). TF32 takes u_in = 2^-10
 * in case the conversion truncates too. The factor (1 + u_in)^2: the sums add products of the rounded inputs,
 * each up to (1 + u_in)^2 |a||b|. The measured errors sit far below these bounds (errors of random
 * sign add like a random walk, about sqrt(K) u, not K u): the table shows both.
 *
 * Older GPUs (the handout's step 2 says the same): tensor cores multiply FP16 from compute capability 7.0, but
 * TF32 and BF16 only from 8.0 (NVIDIA's documentation). Below 8.0 the program prints a note under the table:
 * CUBLAS_COMPUTE_32F_FAST_TF32 allows TF32, it does not require it, so the TF32 row may run as FP32, and BF16
 * gets no tensor cores. Where cuBLAS refuses a row's types on this GPU (NOT_SUPPORTED or ARCH_MISMATCH), that
 * row says SKIP with the status, and the other rows are still checked.
 *   nvcc -O3 -arch=native -I../common cublas_precision.cu prac5_gold.c -lcublas -o cublas_precision
 */
#define COURSE_STEPS "practical 5, workbook step 2 (the 2025 course's tensor cores through cuBLAS)"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cublas.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac5_gold.h"

#define GOLD_WORK 2e9 // multiply-adds the host gold may do; beyond, it checks evenly spaced rows

typedef struct {
  const char *name;
  cudaDataType_t in_type;
  cublasComputeType_t compute;
  double u_in, u_acc; // unit roundoff of the inputs as multiplied, and of the additions
} precision;

static const precision precisions[] = {
    {"FP32", CUDA_R_32F, CUBLAS_COMPUTE_32F, 0.0, U_FP32},
    {"TF32", CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 2.0 * U_TF32, 2.0 * U_FP32},
    {"FP16", CUDA_R_16F, CUBLAS_COMPUTE_32F, U_FP16, 2.0 * U_FP32},
    {"BF16", CUDA_R_16BF, CUBLAS_COMPUTE_32F, U_BF16, 2.0 * U_FP32},
};
#define NPREC 4

typedef struct {
  cublasHandle_t handle;
  const precision *p;
  int M, N, K;
  const void *d_A, *d_B;
  float *d_C;
} gemm_call;

// the call, its status returned: the first call of each row asks whether cuBLAS runs these types here at all
static cublasStatus_t gemm_status(const gemm_call *c) {
  const float one = 1.0f, zero = 0.0f;
  // row-major C = A B as column-major C^T = B^T A^T (see cublas_sgemm.cu): B's array first
  return cublasGemmEx(c->handle, CUBLAS_OP_N, CUBLAS_OP_N, c->N, c->M, c->K, &one, c->d_B, c->p->in_type, c->N, c->d_A,
                      c->p->in_type, c->K, &zero, c->d_C, CUDA_R_32F, c->N, c->p->compute, CUBLAS_GEMM_DEFAULT);
}

static void run_gemm(void *arg) { checkCudaErrors(gemm_status((const gemm_call *)arg)); }

// C (M x N) back from the device, and the rows the gold has (every row, or the evenly spaced rows `which`)
// into gpu, in the gold's order
static void copy_sampled_rows(float *gpu, float *h_C, const float *d_C, const int *which, int nrows, int M, int N) {
  checkCudaErrors(cudaMemcpy(h_C, d_C, (size_t)M * N * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < nrows; r++)
    for (int j = 0; j < N; j++) gpu[(size_t)r * N + j] = h_C[(size_t)which[r] * N + j];
}

// below compute capability 8.0 the table's lesson changes (step 2 of the handout): from NVIDIA's documentation,
// not measured here. The capability is the device's, queried.
static void print_older_gpu_note(int dev) {
  int major = 0, minor = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  if (major >= 8) return;
  printf("note: compute capability %d.%d: tensor cores multiply FP16 from 7.0, TF32 and BF16 only from 8.0 "
         "(NVIDIA's documentation, not measured here)\n",
         major, minor);
  printf("note: so the TF32 row may run as FP32, at FP32's speed and error (FAST_TF32 allows TF32, it does not "
         "require it), and %s no tensor-core speed-up\n",
         major < 7 ? "BF16 and FP16 get" : "BF16 gets");
}

int main(int argc, char **argv) {
  int M = 4096, N = 4096, K = 4096, seed = 1, reps = 20;
  arg_spec opts[] = {
      {"M", ARG_INT, &M, 1, 1 << 20, "rows of A and C"},
      {"N", ARG_INT, &N, 1, 1 << 20, "columns of B and C"},
      {"K", ARG_INT, &K, 1, 1 << 20, "columns of A, rows of B"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the inputs"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions (the median is printed)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)M * K > 2147483647LL || (long long)K * N > 2147483647LL || (long long)M * N > 2147483647LL)
    args_fail("-M=%d -N=%d -K=%d: a matrix of more than 2^31 - 1 elements", M, N, K);
  int user_sized = args_given(argc, argv, "M") || args_given(argc, argv, "N") || args_given(argc, argv, "K");

  int dev = findCudaDevice(argc, argv);
  size_t nA = (size_t)M * K, nB = (size_t)K * N, nC = (size_t)M * N;
  device_memory_check((nA + nB) * (sizeof(float) + 2 * 2) + nC * sizeof(float),
                      "A and B in float, half and bfloat16, and C", user_sized);

  // the inputs, and their half and bfloat16 roundings (round to nearest, on the host)
  float *h_A = (float *)malloc(nA * sizeof(float)), *h_B = (float *)malloc(nB * sizeof(float));
  __half *h_Ah = (__half *)malloc(nA * sizeof(__half)), *h_Bh = (__half *)malloc(nB * sizeof(__half));
  __nv_bfloat16 *h_Ab = (__nv_bfloat16 *)malloc(nA * sizeof(__nv_bfloat16));
  __nv_bfloat16 *h_Bb = (__nv_bfloat16 *)malloc(nB * sizeof(__nv_bfloat16));
  float *h_C = (float *)malloc(nC * sizeof(float));
  int *which = (int *)malloc((size_t)M * sizeof(int));
  if (!h_A || !h_B || !h_Ah || !h_Bh || !h_Ab || !h_Bb || !h_C || !which) return result_fail("out of host memory");
  fill_uniform(h_A, nA, (unsigned)seed, -1.0f, 1.0f);
  fill_uniform(h_B, nB, (unsigned)seed + 1u, -1.0f, 1.0f);
  for (size_t i = 0; i < nA; i++) {
    h_Ah[i] = __float2half_rn(h_A[i]);
    h_Ab[i] = __float2bfloat16_rn(h_A[i]);
  }
  for (size_t i = 0; i < nB; i++) {
    h_Bh[i] = __float2half_rn(h_B[i]);
    h_Bb[i] = __float2bfloat16_rn(h_B[i]);
  }

  // copy every version to the device
  float *d_A, *d_B, *d_C;
  __half *d_Ah, *d_Bh;
  __nv_bfloat16 *d_Ab, *d_Bb;
  checkCudaErrors(cudaMalloc((void **)&d_A, nA * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_B, nB * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_Ah, nA * sizeof(__half)));
  checkCudaErrors(cudaMalloc((void **)&d_Bh, nB * sizeof(__half)));
  checkCudaErrors(cudaMalloc((void **)&d_Ab, nA * sizeof(__nv_bfloat16)));
  checkCudaErrors(cudaMalloc((void **)&d_Bb, nB * sizeof(__nv_bfloat16)));
  checkCudaErrors(cudaMalloc((void **)&d_C, nC * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_A, h_A, nA * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_B, h_B, nB * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_Ah, h_Ah, nA * sizeof(__half), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_Bh, h_Bh, nB * sizeof(__half), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_Ab, h_Ab, nA * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_Bb, h_Bb, nB * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));

  // Gold treatment: the FP32 inputs' exact product, in double (every row, or evenly spaced rows)
  int nrows = gemm_sample_rows(M, K, N, GOLD_WORK, which);
  size_t ng = (size_t)nrows * N;
  double *gold = (double *)malloc(ng * sizeof(double)), *absC = (double *)malloc(ng * sizeof(double));
  float *gpu = (float *)malloc(ng * sizeof(float));
  if (!gold || !absC || !gpu) return result_fail("out of host memory");
  double t0 = wall_ms();
  gemm_gold(M, K, N, 1.0, h_A, h_B, 0.0, NULL, which, nrows, gold, absC);
  printf("C = A B: A %d x %d, B %d x %d, random in [-1, 1); gemm_gold %.1f ms (%d of %d rows)\n", M, K, K, N,
         wall_ms() - t0, nrows, M);
  double smax = 0.0, gnorm = norm2_double(gold, ng);
  for (size_t i = 0; i < ng; i++)
    if (absC[i] > smax) smax = absC[i];

  // one handle for every call, made outside the timed region
  cublasHandle_t handle;
  checkCudaErrors(cublasCreate(&handle));

  printf("\nprecision      ms   TFLOP/s   rel L2 err   max err/s   tol/s       check\n");
  char size[64], extra[160];
  snprintf(size, sizeof(size), "%dx%dx%d", M, N, K);
  double flops = 2.0 * M * N * K, ms_fp32 = 0.0;
  int ok = 1;
  double ms_of[NPREC], rel_of[NPREC];
  int ran[NPREC];
  for (int p = 0; p < NPREC; p++) {
    const precision *pr = &precisions[p];
    const void *a = pr->in_type == CUDA_R_32F ? (const void *)d_A : pr->in_type == CUDA_R_16F ? (const void *)d_Ah
                                                                                              : (const void *)d_Ab;
    const void *b = pr->in_type == CUDA_R_32F ? (const void *)d_B : pr->in_type == CUDA_R_16F ? (const void *)d_Bh
                                                                                              : (const void *)d_Bb;
    gemm_call call = {handle, pr, M, N, K, a, b, d_C};
    checkCudaErrors(cudaMemset(d_C, 0xff, nC * sizeof(float))); // NaN: a product never written cannot pass
    cublasStatus_t status = gemm_status(&call);
    ran[p] = !(p > 0 && (status == CUBLAS_STATUS_NOT_SUPPORTED || status == CUBLAS_STATUS_ARCH_MISMATCH));
    if (!ran[p]) { // FP32 always runs; a narrower type that this GPU's cuBLAS refuses is skipped, with why
      printf("%-9s not run: cuBLAS returns %s for these types on this GPU   SKIP\n", pr->name, cudaStatusName(status));
      continue;
    }
    checkCudaErrors(status);
    double rel_tol = 2.0 * pr->u_in + pr->u_in * pr->u_in + gamma_k(K, pr->u_acc) * (1 + pr->u_in) * (1 + pr->u_in);
    gold_stats st, st_timed;
    copy_sampled_rows(gpu, h_C, d_C, which, nrows, M, N);
    compare_float_double(gpu, gold, ng, rel_tol * smax, 0.0, &st);
    double rel = diff_norm2(gpu, gold, ng) / (gnorm > 0 ? gnorm : 1.0);

    // the timed calls write into a C poisoned again (beta = 0: cuBLAS's documentation says C then need not be
    // valid input, as the first call relies on too), and the C the last of them left is compared with the gold
    // as the first call's was: a timed call that wrote nothing, or wrote wrong, fails the row
    checkCudaErrors(cudaMemset(d_C, 0xff, nC * sizeof(float)));
    double ms = time_median_ms(run_gemm, &call, 3, reps);
    if (p == 0) ms_fp32 = ms;
    copy_sampled_rows(gpu, h_C, d_C, which, nrows, M, N);
    compare_float_double(gpu, gold, ng, rel_tol * smax, 0.0, &st_timed);

    int pass = st.nbad == 0 && st_timed.nbad == 0;
    ok = ok && pass;
    ms_of[p] = ms;
    rel_of[p] = rel;
    printf("%-9s %9.4f %9.1f %12.3e %11.3e %9.3e   %s\n", pr->name, ms, flops / (ms * 1e-3) / 1e12, rel,
           st.max_abs_err / smax, rel_tol, pass ? "PASS" : "FAIL");
    if (st.nbad) gold_report(pr->name, &st);
    if (st_timed.nbad) {
      snprintf(extra, sizeof(extra), "%s, the C the last timed call left", pr->name);
      gold_report(extra, &st_timed);
    }
  }
  printf("(s = max |A| |B| = %.4g; tolerance = (2 u_in + u_in^2) s + (1 + u_in)^2 gamma(K) s with the u of each row, "
         "see the header comment)\n",
         smax);
  print_older_gpu_note(dev);
  for (int p = 0; p < NPREC; p++) {
    if (!ran[p]) continue;
    char prog[64];
    snprintf(prog, sizeof(prog), "cublas_gemm_%s", precisions[p].name);
    snprintf(extra, sizeof(extra), "TFLOPs=%.2f rel_err=%.3e x_fp32=%.3f", flops / (ms_of[p] * 1e-3) / 1e12, rel_of[p],
             ms_fp32 / ms_of[p]);
    print_bench("5", prog, size, reps, ms_of[p], -1.0, NULL, extra);
  }

  // free
  checkCudaErrors(cublasDestroy(handle));
  checkCudaErrors(cudaFree(d_A));
  checkCudaErrors(cudaFree(d_B));
  checkCudaErrors(cudaFree(d_Ah));
  checkCudaErrors(cudaFree(d_Bh));
  checkCudaErrors(cudaFree(d_Ab));
  checkCudaErrors(cudaFree(d_Bb));
  checkCudaErrors(cudaFree(d_C));
  free(h_A);
  free(h_B);
  free(h_Ah);
  free(h_Bh);
  free(h_Ab);
  free(h_Bb);
  free(h_C);
  free(which);
  free(gold);
  free(absC);
  free(gpu);
  return ok ? result_pass() : result_fail("a precision's error is above its bound (see the table)");
}
