/*
 * exercises/laplace3d_pad.h -- practical 3, step 6, to write: pad the rows of the grid to 128 bytes yourself.
 * (The finished file is ../laplace3d_pad.h: try first. make exercises builds laplace3d.cu with this file as
 * exercises/laplace3d_pad, where padding is on unless -pad=0.)
 *
 * Fill in the three places marked TODO(step 6), then, as the handout's step 6 does, start small and end at
 * the step's 511^3:
 *   make exercises
 *   ./exercises/laplace3d_pad -nx=67 -ny=35 -nz=19
 *   ./exercises/laplace3d_pad -nx=511 -ny=511 -nz=511
 * Until they are right the program ends RESULT: FAIL (exercise not done: ...): the GPU's u is compared with
 * the gold's point by point, the pitch must start every row on a 128-byte boundary, and the padding must read
 * 0 once copy_in_padded has run.
 */
#include "helper_cuda.h" // checkCudaErrors

// floats from one row to the next
static inline int row_pitch(int NX, int pad) {
  // TODO(step 6): with pad, round the pitch up to a multiple of 32 floats, so that every row starts on a
  // 128-byte boundary; without, the rows follow each other (NX)
  (void)pad;
  return NX;
}

// the NY*NZ rows of NX floats that follow each other in h, to rows `pitch` floats apart in d
static inline void copy_in_padded(float *d, const float *h, int NX, int NY, int NZ, int pitch) {
  checkCudaErrors(cudaMemset(d, 0xff, (size_t)pitch * NY * NZ * sizeof(float))); // poison (NaN): a point
                                                                                  // the copy misses fails
  // TODO(step 6): if there is padding (pitch > NX), zero it alone, the pitch - NX floats at the end of each
  // of the NY*NZ rows, so starting at d + NX:
  //   cudaMemset2D(start, pitch in bytes, value, width in bytes, number of rows)
  // Why zero it at all? GPU_laplace3d never reads the padding, but laplace3d_fast, which uses the finished
  // file (no poison line there), loads whole float4s, padding included, so it must hold a value that was
  // written (compute-sanitizer's initcheck, in make sanitize, reports reads of memory nothing wrote). Here
  // the poison line has already written it, with NaN, so laplace3d.cu checks instead that the padding reads 0
  // after this function: leave the memset out and the run fails. Zeroing all of d instead would wipe the
  // poison, and a point your copy missed would then hold 0, which the grid's interior starts as. Then copy
  // the rows:
  //   cudaMemcpy2D(dst, dst pitch in bytes, src, src pitch in bytes, row width in bytes, number of rows, kind)
  (void)h;
  (void)NX;
}

// and back: the rows of d, `pitch` floats apart, to rows of NX floats that follow each other in h
static inline void copy_out_padded(float *h, const float *d, int NX, int NY, int NZ, int pitch) {
  // TODO(step 6): cudaMemcpy2D again, cudaMemcpyDeviceToHost
  (void)h, (void)d, (void)NX, (void)NY, (void)NZ, (void)pitch;
}
