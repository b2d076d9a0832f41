/*
 * transpose/t0_cublas.cuh -- kernel 0, the library: cublasSgeam, C = alpha op(A) + beta op(B), with
 * op(A) = A^T, alpha = 1, beta = 0. Our row-major rows x cols input is, to column-major cuBLAS, a
 * cols x rows matrix (ld cols); its transpose, rows x cols column-major (ld rows), is byte for byte the
 * row-major cols x rows output. B is the output itself (cuBLAS allows that in-place form with op(B) = N).
 */
#include "helper_cublas.h"

static cublasHandle_t transpose_cublas_handle;

static void cublas_setup(void) { checkCudaErrors(cublasCreate(&transpose_cublas_handle)); }
static void cublas_teardown(void) { checkCudaErrors(cublasDestroy(transpose_cublas_handle)); }

static void run_cublas(const float *input, float *output, int rows, int cols) {
  const float one = 1.0f, zero = 0.0f;
  checkCudaErrors(cublasSgeam(transpose_cublas_handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, input, cols, &zero,
                              output, rows, output, rows));
}
