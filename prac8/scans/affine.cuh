/*
 * scans/affine.cuh -- practical 8, step 6: the pair algebra of the recurrence v[n] = s[n] v[n-1] + u[n]. The
 * pair (s, u) stands for the map x -> s x + u; "a then b" composes two maps, an associative (not commutative)
 * operation, so a scan of pairs under "then" solves the recurrence. Shared by both kernels of recurrence.cu.
 */
#ifndef PRAC8_AFFINE_CUH
#define PRAC8_AFFINE_CUH

#include "helper_cuda.h"

// ---- the pair algebra ---------------------------------------------------------------------------

typedef struct {
  float s, u;
} affine; // the map x -> s x + u

#ifndef EXERCISE
__device__ __forceinline__ affine then(affine a, affine b) { // a first, then b
  affine c;
  c.s = a.s * b.s;
  c.u = fmaf(b.s, a.u, b.u);
  return c;
}
#else
#include "../exercises/affine_then.cuh" // make exercises: the learner's "then" (./exercises/recurrence)
#endif
__device__ __forceinline__ affine identity() {
  affine e = {1.0f, 0.0f};
  return e;
}
__device__ __forceinline__ affine shfl_up(affine a, int d) {
  a.s = __shfl_up_sync(FULL_MASK, a.s, d);
  a.u = __shfl_up_sync(FULL_MASK, a.u, d);
  return a;
}
__device__ __forceinline__ affine shfl_idx(affine a, int l) {
  a.s = __shfl_sync(FULL_MASK, a.s, l);
  a.u = __shfl_sync(FULL_MASK, a.u, l);
  return a;
}

// inclusive scan across the warp: lane l gets lane 0 then lane 1 ... then lane l (the left operand earlier)
__device__ __forceinline__ affine warp_inclusive_scan(affine a, int lane) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    affine t = shfl_up(a, d);
    if (lane >= d) a = then(t, a);
  }
  return a;
}

#endif /* PRAC8_AFFINE_CUH */
