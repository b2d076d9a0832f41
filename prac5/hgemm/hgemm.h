/*
 * hgemm/hgemm.h -- what every kernel of hgemm_ladder.cu shares: the element types and their names, and the
 * launcher's signature. BLAS's names, as sgemm/sgemm.h has them: C = A B, C is M x N (FP32), A is M x K and B is
 * K x N (FP16 or BF16), all row-major, so K is the inner length. Each hgemm/kN_*.cuh holds one kernel, a
 * template on the element type T, and a launcher
 *   template <typename T> void run_<name>(const void *A, const void *B, float *C, int M, int N, int K)
 * that launches on the default stream. The runner accepts only matrices of at most 2^31 - 1 elements, so an
 * index row * cols + col below them fits an int.
 */
#ifndef HGEMM_H
#define HGEMM_H

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "cp_async.h" // kernels 2 and 3 load their tiles by cp.async (hgemm_load_chunks)

#include <type_traits>

#include "hgemm_host.h"

typedef void (*hgemm_fn)(const void *, const void *, float *, int, int, int);

// The tensor cores multiply FP16 from compute capability 7.0 and BF16 from 8.0, and mma.h has BF16 fragments
// only in code compiled for 8.0 or later. HGEMM_HAS_MMA<T> is false where this pass of the compiler cannot
// build T's fragments: a kernel's body is then empty for T, and the runner, which asks what the binary holds for
// this device (kernel_can_run, helper_cuda.h), SKIPs -type=bf16 before it would launch one.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define HGEMM_BF16_CODE false
#else
#define HGEMM_BF16_CODE true
#endif
template <typename T>
constexpr bool HGEMM_HAS_MMA = !std::is_same<T, __nv_bfloat16>::value || HGEMM_BF16_CODE;

// kernels 2 and 3: one 16-byte chunk of A's tile and one of B's into shared memory, A's halves gk .. gk + 7 of row
// gr into a and B's halves gc .. gc + 7 of row hk into b. Where VEC (K and N multiples of 8, A and B 16-byte
// aligned: a chunk lies wholly inside its matrix or wholly outside) by cp.async, a chunk outside zero-filled; else
// element by element, zero outside. Zeros add nothing to C
template <typename T, bool VEC>
static __device__ __forceinline__ void hgemm_load_chunks(T *a, T *b, const T *A, const T *B, int M, int N, int K,
                                                         int gr, int gk, int hk, int gc) {
  if (VEC) {
    bool ina = gr < M && gk < K, inb = hk < K && gc < N;
    copy16_to_shared_or_zero(a, ina ? A + gr * K + gk : A, ina);
    copy16_to_shared_or_zero(b, inb ? B + hk * N + gc : B, inb);
  } else {
#pragma unroll
    for (int e = 0; e < 8; e++) {
      a[e] = (gr < M && gk + e < K) ? A[gr * K + gk + e] : T(0.0f);
      b[e] = (hk < K && gc + e < N) ? B[hk * N + gc + e] : T(0.0f);
    }
  }
}

// cuBLAS's name for each type, and ours
template <typename T>
struct hgemm_type;
template <>
struct hgemm_type<__half> {
  static constexpr cudaDataType_t cuda = CUDA_R_16F;
  static const char *name() { return "fp16"; }
};
template <>
struct hgemm_type<__nv_bfloat16> {
  static constexpr cudaDataType_t cuda = CUDA_R_16BF;
  static const char *name() { return "bf16"; }
};

#endif /* HGEMM_H */
