/*
 * exercises/trid_shfl.cu -- practical 7, step 6: fetch the neighbours' rows with warp shuffles. The finished
 * program is ../trid_shfl.cu: try first. Until the TODO is done each lane sees zeros for its neighbours, so the
 * first stride zeroes a and c as if each row stood alone, and the program ends RESULT: FAIL (exercise not done).
 *
 * trid_shfl.cu -- practical 7, step 6: one warp a system (NX <= 32), rows in registers, neighbours by warp
 * shuffles: no shared memory and no __syncthreads.
 *
 * Lane i holds row i, and at stride s fetches the rows of lanes i - s and i + s with shuffles (the TODO below;
 * the answers to its questions are in docs/answers/prac7.md, "Step 6": try first). Lanes i >= NX hold the
 * identity row (a = c = d = 0), so that the shuffles always involve all 32 lanes. M systems run as M warps,
 * four per block; system m has lambda_m = lambda (1 + m / M), as in trid_dyn.
 *   nvcc -O3 -arch=native -I../common -I. -DEXERCISE exercises/trid_shfl.cu trid_gold.c -o exercises/trid_shfl
 */
#define COURSE_STEPS "practical 7, workbook step 6 (course bullet 6)"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac7_gold.h"

#define WARPS_PER_BLOCK 4 // 128 threads per block: four systems
#define MAX_M (1 << 24)

// warp w of the grid solves system w; lane i owns row i (an identity row for i >= NX)
__global__ void GPU_trid_shfl(int NX, int M, int niter, float lambda, float *d_u) {
  int lane = threadIdx.x % 32;
  int m = blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
  if (m >= M) return; // the whole warp leaves together, so the full mask below stays right
  float lam = lambda * (1.0f + (float)m / (float)M);
  float bbi = 1.0f / (2.0f + lam);
  int inside = lane < NX;
  float u = inside ? d_u[(size_t)m * NX + lane] : 0.0f;

  for (int iter = 0; iter < niter; iter++) {
    float a = (inside && lane > 0) ? -bbi : 0.0f;
    float c = (inside && lane < NX - 1) ? -bbi : 0.0f;
    float d = inside ? lam * bbi * u : 0.0f;

    for (int s = 1; s < NX; s *= 2) {
      // TODO(step 6): the rows s lanes below (am, cm, dm) and s lanes above (ap, cp, dp), fetched with warp
      //   shuffles (FULL_MASK): which of __shfl_up_sync and __shfl_down_sync hands lane i the row of lane i - s?
      //   Which lanes have no such row, and what must they use then (step 3: outside the system, a row is
      //   a = c = d = 0)? Why is no barrier needed?
      float am = 0.0f, cm = 0.0f, dm = 0.0f, ap = 0.0f, cp = 0.0f, dp = 0.0f;
      float r = 1.0f / (1.0f - a * cm - c * ap);
      d = r * (d - a * dm - c * dp);
      a = -r * a * am;
      c = -r * c * cp;
    }
    u = d;
  }
  if (inside) d_u[(size_t)m * NX + lane] = u;
}

int main(int argc, char **argv) {
  int NX = 32, M = 1, niter = 10, verbose = 0;
  double lambda = 1.0;
  arg_spec opts[] = {
      {"nx", ARG_INT, &NX, 1, 32, "unknowns a system (one lane each)"},
      {"m", ARG_INT, &M, 1, MAX_M, "independent systems, one warp each"},
      {"niter", ARG_INT, &niter, 1, 1000, "backward-Euler time steps"},
      {"lambda", ARG_DOUBLE, &lambda, 0.25, 100.0, "lambda of system 0; system m has lambda (1 + m/M)"},
      {"v", ARG_FLAG, &verbose, 0, 1, "print every value of system 0, GPU beside gold"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));

  findCudaDevice(argc, argv);
  size_t n = (size_t)NX * M, bytes = n * sizeof(float);
  device_memory_check(bytes, "u", 1);
  printf("NX = %d, M = %d systems, niter = %d, lambda = %g .. %g\n", NX, M, niter, lambda,
         lambda * (1.0 + (M - 1.0) / M));

  float *h_u = (float *)malloc(bytes), *h_x = (float *)malloc(bytes);
  double *h_gold = (double *)malloc(n * sizeof(double));
  float *d_u;
  if (!h_u || !h_x || !h_gold) return result_fail("out of host memory for %zu values", n);
  for (size_t k = 0; k < n; k++) h_u[k] = 1.0f;
  checkCudaErrors(cudaMalloc((void **)&d_u, bytes));
  checkCudaErrors(cudaMemcpy(d_u, h_u, bytes, cudaMemcpyHostToDevice));

  // execute GPU kernel: one warp a system, rounded up to whole blocks (the extra warps leave at once)
  int blocks = (M + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
  event_timer t = event_timer_start();
  GPU_trid_shfl<<<blocks, 32 * WARPS_PER_BLOCK>>>(NX, M, niter, (float)lambda, d_u);
  getLastCudaError("GPU_trid_shfl execution failed");
  float milli = event_timer_stop(&t);
  printf("GPU_trid_shfl: %.3f (ms)\n", milli);
  checkCudaErrors(cudaMemcpy(h_x, d_u, bytes, cudaMemcpyDeviceToHost));

  // Gold treatment: each system by Thomas in double
  for (int m = 0; m < M; m++) {
    float lam = (float)lambda * (1.0f + (float)m / (float)M);
    Gold_trid(NX, niter, (double)lam, h_u + (size_t)m * NX, h_gold + (size_t)m * NX);
  }

  // error check: trid.cu's tolerance
  gold_stats st;
  compare_float_double(h_x, h_gold, n, 2e-6 + 1e-6 * niter, 0.0, &st);
  if (verbose)
    for (int i = 0; i < NX; i++) printf("%4d  %12.8f  %12.8f\n", i, h_x[i], h_gold[i]);
  printf("max difference = %.3e, rms difference = %.3e\n", st.max_abs_err, st.rms_err);
  gold_report("u", &st);

  checkCudaErrors(cudaFree(d_u));
  free(h_u);
  free(h_x);
  free(h_gold);
  return gold_verdict(&st, "u");
}
