/*
 * batch/b2_thomas_thread.cuh -- practical 7, step 8: one system per thread, the Thomas algorithm on the
 * interleaved layout (batch/layout.cuh), so that consecutive threads read consecutive addresses.
 */
#ifndef BATCH_B2_THOMAS_THREAD_CUH
#define BATCH_B2_THOMAS_THREAD_CUH

#include "batch/layout.cuh"

// ---- one system per thread: Thomas on the interleaved layout (step 8) ---------------------------------------
// thread s solves system s; row i of every system is one contiguous run of `batch` floats, so consecutive
// threads read consecutive addresses. The forward sweep stores c' in w and d' in x; the backward sweep
// turns x into the solution.
__global__ void GPU_thomas_thread(int n, int batch, const float *__restrict__ a, const float *__restrict__ b,
                                  const float *__restrict__ c, const float *__restrict__ d, float *__restrict__ w,
                                  float *__restrict__ x) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= batch) return;
  float cp = 0.0f, dp = 0.0f;
  for (int i = 0; i < n; i++) {
    size_t k = (size_t)i * batch + s;
    float ai = (i > 0) ? a[k] : 0.0f, ci = (i < n - 1) ? c[k] : 0.0f;
    float r = 1.0f / (b[k] - ai * cp);
    cp = r * ci;
    dp = r * (d[k] - ai * dp);
    w[k] = cp;
    x[k] = dp;
  }
  float xn = dp;
  for (int i = n - 2; i >= 0; i--) {
    size_t k = (size_t)i * batch + s;
    xn = x[k] - w[k] * xn;
    x[k] = xn;
  }
}

static void launch_thomas_thread(void *p) {
  trid_args *t = (trid_args *)p;
  GPU_thomas_thread<<<(t->batch + 127) / 128, 128>>>(t->n, t->batch, t->ai, t->bi, t->ci, t->di, t->w, t->xi);
  getLastCudaError("GPU_thomas_thread execution failed");
}

#endif /* BATCH_B2_THOMAS_THREAD_CUH */
