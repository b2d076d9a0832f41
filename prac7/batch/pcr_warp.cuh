/*
 * batch/pcr_warp.cuh -- practical 7, step 9: the part of the hybrid solver (batch/b3_hybrid.cuh) that a warp
 * does together: PCR on 64 rows, two per lane, with shuffles and no shared memory (trid_shfl's idea, step 6).
 */
#ifndef BATCH_PCR_WARP_CUH
#define BATCH_PCR_WARP_CUH

#include "helper_cuda.h" // FULL_MASK

// ---- one system per warp: the PCR of the hybrid Thomas-PCR solver (step 9) ------------------------------------
// One PCR step on a normalised row (a, c, d), given the rows s places below (am, cm, dm) and above (ap, cp, dp).
__device__ __forceinline__ void pcr_update(float &a, float &c, float &d, float am, float cm, float dm, float ap,
                                           float cp, float dp) {
  float r = 1.0f / (1.0f - a * cm - c * ap);
  d = r * (d - a * dm - c * dp);
  a = -r * a * am;
  c = -r * c * cp;
}

// The 64 reduced rows of a warp, two per lane: slot 2t is lane t's first row (F), slot 2t+1 its last (L). PCR at
// stride 1 pairs F with the L before it and with its own L; at stride 2k, F rows pair with the F rows k lanes
// away and L rows with L rows. Six steps (s = 1 .. 32) decouple all 64 rows: then x = d.
__device__ __forceinline__ void pcr_warp64(int lane, float &aF, float &cF, float &dF, float &aL, float &cL,
                                           float &dL) {
  { // s = 1
    float am = __shfl_up_sync(FULL_MASK, aL, 1), cm = __shfl_up_sync(FULL_MASK, cL, 1);
    float dm = __shfl_up_sync(FULL_MASK, dL, 1);
    float ap = __shfl_down_sync(FULL_MASK, aF, 1), cp = __shfl_down_sync(FULL_MASK, cF, 1);
    float dp = __shfl_down_sync(FULL_MASK, dF, 1);
    if (lane == 0) am = cm = dm = 0.0f; // outside the system: x = 0
    if (lane == 31) ap = cp = dp = 0.0f;
    float a0 = aF, c0 = cF, d0 = dF; // F's new row uses L's old one, and L's uses F's old one
    pcr_update(aF, cF, dF, am, cm, dm, aL, cL, dL);
    pcr_update(aL, cL, dL, a0, c0, d0, ap, cp, dp);
  }
#pragma unroll
  for (int k = 1; k < 32; k *= 2) { // s = 2k
    float amF = __shfl_up_sync(FULL_MASK, aF, k), cmF = __shfl_up_sync(FULL_MASK, cF, k);
    float dmF = __shfl_up_sync(FULL_MASK, dF, k);
    float apF = __shfl_down_sync(FULL_MASK, aF, k), cpF = __shfl_down_sync(FULL_MASK, cF, k);
    float dpF = __shfl_down_sync(FULL_MASK, dF, k);
    float amL = __shfl_up_sync(FULL_MASK, aL, k), cmL = __shfl_up_sync(FULL_MASK, cL, k);
    float dmL = __shfl_up_sync(FULL_MASK, dL, k);
    float apL = __shfl_down_sync(FULL_MASK, aL, k), cpL = __shfl_down_sync(FULL_MASK, cL, k);
    float dpL = __shfl_down_sync(FULL_MASK, dL, k);
    if (lane < k) amF = cmF = dmF = amL = cmL = dmL = 0.0f;
    if (lane + k >= 32) apF = cpF = dpF = apL = cpL = dpL = 0.0f;
    pcr_update(aF, cF, dF, amF, cmF, dmF, apF, cpF, dpF);
    pcr_update(aL, cL, dL, amL, cmL, dmL, apL, cpL, dpL);
  }
}

// Systems of fewer than 64 rows skip the chunks: row 2t and 2t+1 go straight into lane t's two slots
// (slots past the last row are the identity), PCR solves them, and x is written from the slots.
__device__ __forceinline__ void hybrid_short(int n, int lane, size_t base, const float *__restrict__ a,
                                             const float *__restrict__ b, const float *__restrict__ c,
                                             const float *__restrict__ d, float *__restrict__ x) {
  float aF = 0.0f, cF = 0.0f, dF = 0.0f, aL = 0.0f, cL = 0.0f, dL = 0.0f;
  int i = 2 * lane;
  if (i < n) {
    float r = 1.0f / b[base + i];
    aF = (i > 0) ? r * a[base + i] : 0.0f;
    cF = (i < n - 1) ? r * c[base + i] : 0.0f;
    dF = r * d[base + i];
  }
  if (i + 1 < n) {
    float r = 1.0f / b[base + i + 1];
    aL = r * a[base + i + 1];
    cL = (i + 1 < n - 1) ? r * c[base + i + 1] : 0.0f;
    dL = r * d[base + i + 1];
  }
  pcr_warp64(lane, aF, cF, dF, aL, cL, dL);
  if (i < n) x[base + i] = dF;
  if (i + 1 < n) x[base + i + 1] = dL;
}

#endif /* BATCH_PCR_WARP_CUH */
