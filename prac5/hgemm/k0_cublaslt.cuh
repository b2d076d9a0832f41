/*
 * hgemm/k0_cublaslt.cuh -- kernel 0's other call: cublasLtMatmul, the API under cublasGemmEx, with the algorithm
 * cuBLASLt's heuristic ranks first for this problem and a workspace of H0_LT_WORKSPACE bytes, as a framework calls
 * it (PyTorch's half GEMMs go through it). The same product as run_cublas (hgemm/k0_cublas.cuh): row-major C = A B
 * as column-major C^T (N x M, ld N) = B^T (N x K, ld N) A^T (K x M, ld K), FP16 or BF16 in, CUBLAS_COMPUTE_32F, an
 * FP32 C. The plan (descriptors, the heuristic's choice) is made once for a problem, outside the timed launches,
 * as cuBLAS's own handle is. -bench and -shapes time both calls and make the faster kernel 0, the peer
 * (hgemm_choose_peer, hgemm_ladder.cu); -lt checks this call alone.
 */
#include <cublasLt.h>

static cublasLtHandle_t h0_lt = NULL;
static void *h0_lt_ws = NULL;

// the plan of one problem: made again when the problem or the type changes
static struct {
  int M, N, K, bf16, ok;
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatmulAlgo_t algo;
} h0_plan = {0, 0, 0, -1, 0, NULL, NULL, NULL, NULL, {}};

static void h0_plan_free(void) {
  if (h0_plan.op) checkCudaErrors(cublasLtMatmulDescDestroy(h0_plan.op));
  if (h0_plan.a) checkCudaErrors(cublasLtMatrixLayoutDestroy(h0_plan.a));
  if (h0_plan.b) checkCudaErrors(cublasLtMatrixLayoutDestroy(h0_plan.b));
  if (h0_plan.c) checkCudaErrors(cublasLtMatrixLayoutDestroy(h0_plan.c));
  h0_plan.op = NULL, h0_plan.a = h0_plan.b = h0_plan.c = NULL, h0_plan.ok = 0, h0_plan.bf16 = -1;
}

static void cublaslt_setup(void) {
  checkCudaErrors(cublasLtCreate(&h0_lt));
  checkCudaErrors(cudaMalloc(&h0_lt_ws, H0_LT_WORKSPACE));
}
static void cublaslt_teardown(void) {
  h0_plan_free();
  if (h0_lt_ws) checkCudaErrors(cudaFree(h0_lt_ws));
  if (h0_lt) checkCudaErrors(cublasLtDestroy(h0_lt));
  h0_lt_ws = NULL, h0_lt = NULL;
}

// the plan for M x N x K in type T; 0 where the heuristic offers no algorithm (then cublasGemmEx stays the peer)
template <typename T>
static int h0_plan_for(int M, int N, int K) {
  int bf16 = std::is_same<T, __nv_bfloat16>::value;
  if (h0_plan.bf16 == bf16 && h0_plan.M == M && h0_plan.N == N && h0_plan.K == K) return h0_plan.ok;
  h0_plan_free();
  h0_plan.M = M, h0_plan.N = N, h0_plan.K = K, h0_plan.bf16 = bf16;
  cudaDataType_t t = hgemm_type<T>::cuda;
  checkCudaErrors(cublasLtMatmulDescCreate(&h0_plan.op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  checkCudaErrors(cublasLtMatrixLayoutCreate(&h0_plan.a, t, N, K, N));          // B^T: N x K, ld N
  checkCudaErrors(cublasLtMatrixLayoutCreate(&h0_plan.b, t, K, M, K));          // A^T: K x M, ld K
  checkCudaErrors(cublasLtMatrixLayoutCreate(&h0_plan.c, CUDA_R_32F, N, M, N)); // C^T: N x M, ld N
  cublasLtMatmulPreference_t pref;
  size_t ws = H0_LT_WORKSPACE;
  checkCudaErrors(cublasLtMatmulPreferenceCreate(&pref));
  checkCudaErrors(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws,
                                                       sizeof(ws)));
  cublasLtMatmulHeuristicResult_t first;
  int found = 0;
  // no algorithm at all is CUBLAS_STATUS_NOT_SUPPORTED (cublasLt.h), not an error of the program: found stays 0
  cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(h0_lt, h0_plan.op, h0_plan.a, h0_plan.b, h0_plan.c, h0_plan.c,
                                                     pref, 1, &first, &found);
  if (st != CUBLAS_STATUS_NOT_SUPPORTED) checkCudaErrors(st);
  checkCudaErrors(cublasLtMatmulPreferenceDestroy(pref));
  h0_plan.ok = found > 0 && first.state == CUBLAS_STATUS_SUCCESS;
  if (h0_plan.ok) h0_plan.algo = first.algo;
  return h0_plan.ok;
}

// the plan for the runner's type flag (0 FP16, 1 BF16)
static int h0_plan_for_type(int bf16, int M, int N, int K) {
  return bf16 ? h0_plan_for<__nv_bfloat16>(M, N, K) : h0_plan_for<__half>(M, N, K);
}

template <typename T>
static void run_cublaslt(const void *A, const void *B, float *C, int M, int N, int K) {
  const float one = 1.0f, zero = 0.0f;
  if (!h0_plan_for<T>(M, N, K)) exit(result_fail("cublasLtMatmulAlgoGetHeuristic offers no algorithm for %d x %d x %d",
                                                 M, N, K));
  checkCudaErrors(cublasLtMatmul(h0_lt, h0_plan.op, &one, B, h0_plan.a, A, h0_plan.b, &zero, C, h0_plan.c, C,
                                 h0_plan.c, &h0_plan.algo, h0_lt_ws, H0_LT_WORKSPACE, 0));
}

// kernel 0 as the ladder runs it: cublasGemmEx, or cublasLtMatmul where hgemm_choose_peer found it faster (or -lt)
static int h0_use_lt = 0;
template <typename T>
static void run_cublas_peer(const void *A, const void *B, float *C, int M, int N, int K) {
  if (h0_use_lt) return run_cublaslt<T>(A, B, C, M, N, K);
  run_cublas<T>(A, B, C, M, N, K);
}
