/*
 * sgemm/sgemm.h -- what every kernel of sgemm_ladder.cu shares: the problem's names, the guarded loads and
 * stores that let a tiled kernel take any size, and a workspace a launcher keeps between calls (kernel 8's).
 *
 * BLAS's names, as cublas_sgemm.cu and the handout use them: C = A B, C is M x N, A is M x K, B is K x N, all
 * row-major (element (i, j) of an R x C matrix at i*C + j). So K is the length of every dot product, the inner
 * length, and C[m][n] = sum_k A[m][k] B[k][n]. (LeetGPU states the problem with N and K the other way round;
 * its solve() is the one place that maps its names to these, in sgemm_ladder.cu.)
 * Each sgemm/kN_*.cuh holds one kernel: its kernel and a launcher
 *   void run_<name>(const float *A, const float *B, float *C, int M, int N, int K)
 * that launches on the default stream. The runner accepts only sizes whose matrices have at most 2^31 - 1
 * elements, so an index row * cols + col below them fits an int. Grids are ceil_div's (helper_cuda.h).
 */
#ifndef SGEMM_H
#define SGEMM_H

#include <stdint.h>

// 16-byte loads need 16-byte aligned rows: every row starts at a multiple of 4 floats, and the base pointer
// at a multiple of 16 bytes (cudaMalloc gives 256)
static inline int rows_aligned16(const void *p, int cols) { return ((uintptr_t)p % 16) == 0 && cols % 4 == 0; }

// Elements (row, col .. col+3) of a rows x cols row-major matrix; zero outside it, so that the edge tiles
// of any size add nothing. VEC: one 16-byte load (cols % 4 == 0 and col % 4 == 0, so the four are all in
// or all out); else four guarded 4-byte loads.
template <bool VEC>
__device__ __forceinline__ float4 load4(const float *__restrict__ p, int row, int col, int rows, int cols) {
  if (VEC) {
    if (row < rows && col < cols) return *reinterpret_cast<const float4 *>(p + row * cols + col);
    return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  }
  float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (row < rows) {
    const float *q = p + row * cols;
    if (col < cols) v.x = q[col];
    if (col + 1 < cols) v.y = q[col + 1];
    if (col + 2 < cols) v.z = q[col + 2];
    if (col + 3 < cols) v.w = q[col + 3];
  }
  return v;
}

// The store twin of load4: only the elements inside the matrix are written.
template <bool VEC>
__device__ __forceinline__ void store4(float *p, int row, int col, int rows, int cols, float4 v) {
  if (row >= rows) return;
  if (VEC) {
    if (col < cols) *reinterpret_cast<float4 *>(p + row * cols + col) = v;
    return;
  }
  float *q = p + row * cols;
  if (col < cols) q[col] = v.x;
  if (col + 1 < cols) q[col + 1] = v.y;
  if (col + 2 < cols) q[col + 2] = v.z;
  if (col + 3 < cols) q[col + 3] = v.w;
}

// Element j (0 to 3) of a float4: with j a constant after unrolling, a register, not an index into memory.
__device__ __forceinline__ float f4_at(const float4 &v, int j) {
  return j == 0 ? v.x : (j == 1 ? v.y : (j == 2 ? v.z : v.w));
}

// A workspace a launcher keeps between calls, grown when a call needs more. The first call of a size (the
// check, before any timing) allocates it and poisons it: the kernels using it write all they read, and one that
// did not would read NaN and fail its check.
typedef struct {
  float *p;
  size_t bytes;
} sgemm_workspace;

static float *workspace_grow(sgemm_workspace *w, size_t bytes) {
  if (bytes > w->bytes) {
    if (w->p) checkCudaErrors(cudaFree(w->p));
    checkCudaErrors(cudaMalloc((void **)&w->p, bytes));
    checkCudaErrors(cudaMemset(w->p, 0xff, bytes)); // NaN
    w->bytes = bytes;
  }
  return w->p;
}

static void workspace_free(sgemm_workspace *w) {
  if (w->p) checkCudaErrors(cudaFree(w->p));
  w->p = NULL;
  w->bytes = 0;
}

#endif /* SGEMM_H */
