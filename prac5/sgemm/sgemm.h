/*
 * sgemm/sgemm.h -- what every kernel of sgemm_ladder.cu shares: the problem's names and the guarded loads and
 * stores that let a tiled kernel take any size.
 *
 * LeetGPU's names: C = A B, A is M x N, B is N x K, C is M x K, all row-major (element (i, j) of an
 * R x C matrix at i*C + j). So N is the length of every dot product, and C[m][k] = sum_n A[m][n] B[n][k].
 * (BLAS, and the handout, say C = A B with C M x N and the inner length K: the two letters are swapped here,
 * and in sgemm_ladder's -N and -K, which follow these files.)
 * Each sgemm/kN_*.cuh holds one kernel: its kernel and a launcher with solve()'s signature,
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

#endif /* SGEMM_H */
