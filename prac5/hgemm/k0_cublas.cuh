/*
 * hgemm/k0_cublas.cuh -- kernel 0, the library: cublasGemmEx with FP16 (CUDA_R_16F) or BF16 (CUDA_R_16BF)
 * inputs, FP32 accumulation (CUBLAS_COMPUTE_32F) and an FP32 C, the call cublas_precision.cu times; the handle
 * is CUBLAS_DEFAULT_MATH, in which cuBLAS uses the tensor cores wherever it can. Row-major C = A B is
 * column-major C^T = B^T A^T, so B's array goes first (cublas_sgemm.cu explains the trick). The handle is
 * sgemm's (sgemm/k0_cublas.cuh, through hgemm/oracle.h), made once by the runner outside every timed region.
 */
template <typename T>
static void run_cublas(const void *A, const void *B, float *C, int M, int N, int K) {
  const float one = 1.0f, zero = 0.0f;
  // C^T (N x M, ld N) = B^T (N x K, ld N) * A^T (K x M, ld K)
  checkCudaErrors(cublasGemmEx(sgemm_cublas_handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, hgemm_type<T>::cuda, N,
                               A, hgemm_type<T>::cuda, K, &zero, C, CUDA_R_32F, N, CUBLAS_COMPUTE_32F,
                               CUBLAS_GEMM_DEFAULT));
}
