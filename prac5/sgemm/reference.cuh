/*
 * sgemm/reference.cuh -- the FP64 reference that sgemm/oracle.h checks every element of every kernel's C
 * with, on the device (not a lesson of its own): A and B widened to double, C64 = A B by cublasDgemm, and
 * s = |A| |B| by a second cublasDgemm on their magnitudes; a kernel then compares C with C64 element by element
 * and counts what lies outside the bound. No host copy of C is needed, at 8192^3 or anywhere.
 *
 * The bound (BLAS's names, as every file of sgemm/: C[m][n] = sum_k A[m][k] B[k][n], K terms, each product and
 * sum in float, u = 2^-24; s[m][n] = sum_k |A[m][k]| |B[k][n]|):
 *  - certain: in any order of additions (a thread's running sum, split-K's slices added afterwards, cuBLAS's own
 *    order) each term passes through at most K roundings, so |C - C*| <= gamma(K) s, gamma(K) = K u / (1 - K u)
 *    (Higham, Accuracy and Stability of Numerical Algorithms, 3.1);
 *  - probable: if the rounding errors are independent random variables of mean zero, the model of Higham and
 *    Mary (SIAM J. Sci. Comput. 41, 2019, their inner-product theorem), then |C - C*| <= gammat(K) s with
 *    gammat(K) = exp(lambda sqrt(K) u + K u^2 / (1 - u)) - 1, about lambda sqrt(K) u, with probability at least
 *    1 - 2 K exp(-lambda^2 (1 - u)^2 / 2) for each element. With lambda = 10 that leaves at most 2 K e^-50, about
 *    4e-22 K, an element: summed over every element of the largest product the runner accepts (M N K under
 *    2^46.5), under 4e-8 that a correct kernel fails.
 * The bound is the smaller of the two: gamma(K) up to K = lambda^2 = 100, where sqrt(K) is no smaller than K / 10
 * and the certain bound is the tighter (down to one rounding, u s, at K = 1), lambda sqrt(K) u beyond. C64 is
 * itself within gamma64(K) s of C* (a product of two floats is exact in double, u64 = 2^-53), and s64 within
 * gamma64(K) s of s, so every element must satisfy |C - C64| <= tau s64, tau = min(gamma(K), gammat(K)) +
 * 2 gamma64(K). On the runner's random inputs in [-1, 1) a correct kernel stays far inside it: the partial sums
 * cancel (they grow like sqrt(k), not k), so the error grows like K u, where the bound grows like lambda K^1.5 u / 4
 * (s is about K / 4). A wrong tile, one term of K missing, is off by |A[m][k] B[k][n]|, a quarter on average.
 */
#include <math.h>

#include "../prac5_gold.h" // U_FP32, U_FP64, gamma_k

#define SGEMM_LAMBDA 10.0           // lambda of the probable bound (above)

// tau of the bound above, for K terms: every element of C must satisfy |C - C64| <= tau s64
static double sgemm_bound_factor(int K) {
  double certain = gamma_k(K, U_FP32);
  double probable = expm1(SGEMM_LAMBDA * sqrt((double)K) * U_FP32 + K * U_FP32 * U_FP32 / (1.0 - U_FP32));
  return fmin(certain, probable) + 2.0 * gamma_k(K, U_FP64);
}

// a comparison's result: one block's share on the device, their sum on the host
typedef struct {
  unsigned long long nbad;      // elements outside the bound, the non-finite ones included
  unsigned long long nonfinite; // elements of C that are NaN or +-Inf (always outside)
  double worst;                 // the largest |C - C64| / (tau s64): +Inf for a non-finite element
  double max_err;               // the largest |C - C64| over finite elements
  long long worst_at;           // the element where worst is (-1: none compared)
} ref_stats;

__host__ __device__ static inline void ref_stats_merge(ref_stats *a, const ref_stats *b) {
  a->nbad += b->nbad;
  a->nonfinite += b->nonfinite;
  a->max_err = fmax(a->max_err, b->max_err);
  if (b->worst_at >= 0 && (a->worst_at < 0 || b->worst > a->worst)) a->worst = b->worst, a->worst_at = b->worst_at;
}

// one element: c, the value checked, against ref within bound
__host__ __device__ static inline void ref_stats_add(ref_stats *a, size_t i, double c, double ref, double bound) {
  double err = fabs(c - ref), ratio;
  if (!isfinite(c)) {
    a->nonfinite++;
    ratio = INFINITY;
  } else {
    a->max_err = fmax(a->max_err, err);
    ratio = err == 0.0 ? 0.0 : (bound > 0.0 ? err / bound : INFINITY);
  }
  if (!(err <= bound)) a->nbad++; // a NaN fails too
  if (a->worst_at < 0 || ratio > a->worst) a->worst = ratio, a->worst_at = (long long)i;
}

// y = x, or |x|, in double: exact (every float is a double)
__global__ void sgemm_widen(const float *__restrict__ x, double *__restrict__ y, size_t n, bool magnitude) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    double v = x[i];
    y[i] = magnitude ? fabs(v) : v;
  }
}

#define REF_THREADS 256
#define REF_BLOCKS 1024 // at most: each thread takes a grid-stride share, each block writes one ref_stats

// one thread per element (grid-stride), then a tree over the block's threads in shared memory
__global__ void __launch_bounds__(REF_THREADS)
    sgemm_compare_ref(const float *__restrict__ C, const double *__restrict__ C64, const double *__restrict__ s64,
                      double tau, size_t n, ref_stats *out) {
  __shared__ ref_stats part[REF_THREADS];
  ref_stats mine = {0, 0, 0.0, 0.0, -1};
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    ref_stats_add(&mine, i, C[i], C64[i], tau * s64[i]);
  part[threadIdx.x] = mine;
  __syncthreads();
  for (int half = REF_THREADS / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) ref_stats_merge(&part[threadIdx.x], &part[threadIdx.x + half]);
    __syncthreads(); // this round's merges are written before the next round reads them
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

typedef struct {
  double *d_C64, *d_s64; // M x N each, row-major as C
  double tau;            // the bound's factor for this K
  ref_stats *d_part, *h_part;
  size_t n;              // elements of C
} sgemm_reference;

// the device memory the reference needs at its peak (while it is made: A and B widened, C64 and s64), and
// what it keeps afterwards (C64 and s64)
static size_t reference_peak_bytes(int M, int N, int K) {
  return ((size_t)M * K + (size_t)K * N + 2 * (size_t)M * N) * sizeof(double);
}
static size_t reference_kept_bytes(int M, int N) { return 2 * (size_t)M * N * sizeof(double); }

// 1 when this GPU stops a launch that runs too long (a display watchdog: cudaDevAttrKernelExecTimeout, about
// 2 s under Windows and WSL 2) and the reference's cublasDgemm of this product does more than 2^36
// multiply-adds (a 4096^3 product): about half a second at a T4's FP64 rate, 1/32 of its FP32, and seconds at
// 8192^3 (docs/troubleshooting.md#windows-watchdog). Such a run is a SKIP that says why, not a launch failure
#define REF_WATCHDOG_MACS 68719476736.0 // 2^36
static int reference_too_long(int dev, int M, int N, int K) {
  int timeout = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&timeout, cudaDevAttrKernelExecTimeout, dev));
  return timeout && (double)M * N * K > REF_WATCHDOG_MACS;
}

// -shapes (both ladders): whether a shape that needs bytes of device memory, with its reference, can run here;
// if not, its row says why (the table's first column, size) and 0
static int shape_fits(int dev, const char *size, size_t bytes, int M, int N, int K) {
  if (bytes > device_usable_bytes()) {
    printf("  %-16s SKIP: %.0f MB of A, B, C and the FP64 reference do not fit in this GPU's free memory\n", size,
           bytes / 1e6);
    return 0;
  }
  if (reference_too_long(dev, M, N, K)) {
    printf("  %-16s SKIP: this GPU has a display watchdog, which the FP64 reference of this product may outlast\n",
           size);
    return 0;
  }
  return 1;
}

static int ref_grid(size_t n) { return (int)(n / REF_THREADS + 1 < REF_BLOCKS ? n / REF_THREADS + 1 : REF_BLOCKS); }

// C64 = A B and s64 = |A| |B| in double, by cublasDgemm on the ladder's handle (sgemm/k0_cublas.cuh: made once,
// in CUBLAS_DEFAULT_MATH, so in FP64 proper, never an emulation), the same column-major call as run_cublas
static void reference_setup(sgemm_reference *r, const float *d_A, const float *d_B, int M, int N, int K) {
  size_t nA = (size_t)M * K, nB = (size_t)K * N;
  double *d_A64, *d_B64;
  const double one = 1.0, zero = 0.0;
  r->n = (size_t)M * N;
  r->tau = sgemm_bound_factor(K);
  checkCudaErrors(cudaMalloc((void **)&d_A64, nA * sizeof(double)));
  checkCudaErrors(cudaMalloc((void **)&d_B64, nB * sizeof(double)));
  checkCudaErrors(cudaMalloc((void **)&r->d_C64, r->n * sizeof(double)));
  checkCudaErrors(cudaMalloc((void **)&r->d_s64, r->n * sizeof(double)));
  checkCudaErrors(cudaMalloc((void **)&r->d_part, REF_BLOCKS * sizeof(ref_stats)));
  r->h_part = (ref_stats *)malloc(REF_BLOCKS * sizeof(ref_stats));
  if (!r->h_part) exit(result_fail("out of host memory"));
  for (int magnitude = 0; magnitude < 2; magnitude++) { // C64 from A and B, then s64 from |A| and |B|
    sgemm_widen<<<ref_grid(nA), REF_THREADS>>>(d_A, d_A64, nA, magnitude);
    getLastCudaError("sgemm_widen execution failed");
    sgemm_widen<<<ref_grid(nB), REF_THREADS>>>(d_B, d_B64, nB, magnitude);
    getLastCudaError("sgemm_widen execution failed");
    // C^T (N x M, ld N) = B^T (N x K, ld N) * A^T (K x M, ld K). One call for the whole product, though at
    // 8192^3 it is M N K = 2^39 FP64 multiply-adds in what is usually one launch: seconds on a GPU whose FP64
    // rate is 1/32 or 1/64 of its FP32 rate (a T4, an RTX 30), past the 2 s a Windows display watchdog allows
    // a launch (docs/troubleshooting.md#windows-watchdog). It is not cut into panels of columns of C^T because
    // cuBLAS chooses its kernel, and whether to split the inner length (split-K, which changes the order of
    // each dot product's additions), from the shape it is given: a panel's C64 could differ in its last bits
    // from the whole call's, and no documented rule says it will not.
    checkCudaErrors(cublasDgemm(sgemm_cublas_handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, d_B64, N, d_A64, K,
                                &zero, magnitude ? r->d_s64 : r->d_C64, N));
  }
  checkCudaErrors(cudaFree(d_A64)); // after the second product (cudaFree waits for the GPU)
  checkCudaErrors(cudaFree(d_B64));
}

static void reference_free(sgemm_reference *r) {
  checkCudaErrors(cudaFree(r->d_C64));
  checkCudaErrors(cudaFree(r->d_s64));
  checkCudaErrors(cudaFree(r->d_part));
  free(r->h_part);
}

// every element of d_C against the reference; only the blocks' sums come back to the host
static ref_stats reference_compare(const sgemm_reference *r, const float *d_C) {
  int blocks = ref_grid(r->n);
  sgemm_compare_ref<<<blocks, REF_THREADS>>>(d_C, r->d_C64, r->d_s64, r->tau, r->n, r->d_part);
  getLastCudaError("sgemm_compare_ref execution failed");
  checkCudaErrors(cudaMemcpy(r->h_part, r->d_part, blocks * sizeof(ref_stats), cudaMemcpyDeviceToHost));
  ref_stats all = {0, 0, 0.0, 0.0, -1};
  for (int b = 0; b < blocks; b++) ref_stats_merge(&all, &r->h_part[b]);
  return all;
}
