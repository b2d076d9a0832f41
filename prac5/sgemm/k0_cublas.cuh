/*
 * sgemm/k0_cublas.cuh -- kernel 0, the library: cublasSgemm in FP32 (CUBLAS_DEFAULT_MATH: no TF32 tensor
 * cores, the same arithmetic as our kernels). Row-major C = A B is column-major C^T = B^T A^T, so B's
 * array goes first (cublas_sgemm.cu explains the trick). The handle is made once by the runner, outside
 * every timed region.
 */
#include "helper_cublas.h"

static cublasHandle_t sgemm_cublas_handle;

static void cublas_setup(void) {
  checkCudaErrors(cublasCreate(&sgemm_cublas_handle));
  checkCudaErrors(cublasSetMathMode(sgemm_cublas_handle, CUBLAS_DEFAULT_MATH));
}

static void cublas_teardown(void) { checkCudaErrors(cublasDestroy(sgemm_cublas_handle)); }

static void run_cublas(const float *A, const float *B, float *C, int M, int N, int K) {
  const float one = 1.0f, zero = 0.0f;
  // C^T (N x M, ld N) = B^T (N x K, ld N) * A^T (K x M, ld K)
  checkCudaErrors(cublasSgemm(sgemm_cublas_handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N));
}
