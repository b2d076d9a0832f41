/*
 * batch/b1_pcr_block.cuh -- practical 7, step 7: one system per block, one thread per row. trid_dyn's parallel
 * cyclic reduction with general coefficients, each row normalised as it is loaded (n <= PCR_MAX_N).
 */
#ifndef BATCH_B1_PCR_BLOCK_CUH
#define BATCH_B1_PCR_BLOCK_CUH

#include "batch/layout.cuh"

#define PCR_MAX_N 1024 // GPU_pcr_block: one thread per row

// ---- one system per block: PCR (step 7) ---------------------------------------------------------------------
// thread i owns row i, normalised as it is loaded; trid_dyn's steps otherwise
__global__ void GPU_pcr_block(int n, const float *__restrict__ a, const float *__restrict__ b,
                              const float *__restrict__ c, const float *__restrict__ d, float *__restrict__ x) {
  extern __shared__ float smem[];
  float *sa = smem, *sc = smem + n, *sd = smem + 2 * n;
  int i = threadIdx.x;
  size_t k = (size_t)blockIdx.x * n + i;
  float r = 1.0f / b[k];
  sa[i] = (i > 0) ? r * a[k] : 0.0f;
  sc[i] = (i < n - 1) ? r * c[k] : 0.0f;
  sd[i] = r * d[k];
  __syncthreads();
  for (int s = 1; s < n; s *= 2) {
    float am = 0.0f, cm = 0.0f, dm = 0.0f, ap = 0.0f, cp = 0.0f, dp = 0.0f;
    if (i - s >= 0) {
      am = sa[i - s];
      cm = sc[i - s];
      dm = sd[i - s];
    }
    if (i + s < n) {
      ap = sa[i + s];
      cp = sc[i + s];
      dp = sd[i + s];
    }
    float ai = sa[i], ci = sc[i], di = sd[i];
    __syncthreads();
    float q = 1.0f / (1.0f - ai * cm - ci * ap);
    sa[i] = -q * ai * am;
    sc[i] = -q * ci * cp;
    sd[i] = q * (di - ai * dm - ci * dp);
    __syncthreads();
  }
  x[k] = sd[i];
}

static void launch_pcr_block(void *p) {
  trid_args *t = (trid_args *)p;
  GPU_pcr_block<<<t->batch, t->n, 3 * t->n * sizeof(float)>>>(t->n, t->a, t->b, t->c, t->d, t->x);
  getLastCudaError("GPU_pcr_block execution failed");
}

#endif /* BATCH_B1_PCR_BLOCK_CUH */
