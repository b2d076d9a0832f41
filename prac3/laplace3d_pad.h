/*
 * laplace3d_pad.h -- practical 3, step 6: rows padded to 128 bytes (laplace3d -pad).
 *
 * A row of a 511^3 grid is 2044 bytes, so most rows start part-way into a 128-byte line, and a warp's 32
 * loads of one row touch two lines. Padding every row to a multiple of 32 floats (the pitch) starts each on
 * a line boundary; the kernel indexes i + j*pitch + k*pitch*NY, and the copies move NX floats of each row
 * into rows `pitch` floats apart (cudaMemcpy2D). Used by laplace3d -pad and laplace3d_new -pad, and by
 * laplace3d_fast (laplace3d_ladder.cu), whose rows are always padded (laplace3d_tb's never are). The exercise
 * (exercises/laplace3d_pad.h) is this file, to write.
 */
#include "helper_cuda.h" // checkCudaErrors

// floats from one row to the next: NX, or with pad NX rounded up to a multiple of 32 floats (128 bytes)
static inline int row_pitch(int NX, int pad) { return pad ? (NX + 31) / 32 * 32 : NX; }

// the NY*NZ rows of NX floats that follow each other in h, to rows `pitch` floats apart in d, the padding
// zeroed first (rows already a multiple of 32 floats need no padding: one plain copy)
static inline void copy_in_padded(float *d, const float *h, int NX, int NY, int NZ, int pitch) {
  if (pitch == NX) {
    checkCudaErrors(cudaMemcpy(d, h, (size_t)NX * NY * NZ * sizeof(float), cudaMemcpyHostToDevice));
    return;
  }
  // the padding alone (pitch - NX floats at the end of each row), which laplace3d_fast's float4 loads read:
  // zeroing the whole array would also hide a point the copy missed, whose 0 could pass for the grid's zero
  // interior (laplace3d checks that the padding reads 0)
  checkCudaErrors(cudaMemset2D(d + NX, pitch * sizeof(float), 0, (size_t)(pitch - NX) * sizeof(float),
                               (size_t)NY * NZ));
  checkCudaErrors(cudaMemcpy2D(d, pitch * sizeof(float), h, NX * sizeof(float), NX * sizeof(float),
                               (size_t)NY * NZ, cudaMemcpyHostToDevice));
}

// and back: the rows of d, `pitch` floats apart, to rows of NX floats that follow each other in h
static inline void copy_out_padded(float *h, const float *d, int NX, int NY, int NZ, int pitch) {
  if (pitch == NX) {
    checkCudaErrors(cudaMemcpy(h, d, (size_t)NX * NY * NZ * sizeof(float), cudaMemcpyDeviceToHost));
    return;
  }
  checkCudaErrors(cudaMemcpy2D(h, NX * sizeof(float), d, pitch * sizeof(float), NX * sizeof(float),
                               (size_t)NY * NZ, cudaMemcpyDeviceToHost));
}
