/*
 * trid_dyn.cu -- practical 7, steps 4 and 5: PCR with dynamic shared memory (any NX up to 1024, not only
 * powers of two), and M independent systems on M blocks.
 *
 * The kernel is trid.cu's with two changes. The shared arrays are one `extern __shared__` buffer whose size,
 * 3 NX floats, is the third launch parameter, so NX is a run-time argument. And block m solves system m from
 * its own starting x, as the course's step 5 asks: system 0 from the course's u = 1, every other one from
 * random values in [0, 1) (-seed): every block's answer differs, and each is checked against its own Thomas
 * gold. -lambdas varies the matrix too: system m gets lambda_m = lambda (1 + m / M). For an NX that is no power of two the steps go on while s < NX (ceil(log2 NX)
 * of them); a row whose neighbour at distance s lies outside the grid treats it as x = 0, exactly as the
 * rows at the ends do.
 *   nvcc -O3 -arch=native -I../common trid_dyn.cu trid_gold.c -o trid_dyn
 */
#define COURSE_STEPS "practical 7, workbook steps 4-5 (course bullets 3-4)"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac7_gold.h"
#include "rng.h"

// the largest NX: one thread per row, and a block has at most 1024 threads
#define MAX_NX 1024
// the most systems: 2^20 blocks (4 GiB of u at NX = 1024)
#define MAX_M (1 << 20)

// block m solves system m; thread i owns row i; 3 NX floats of dynamic shared memory
__global__ void GPU_trid_dyn(int NX, int niter, float lambda, int lambdas, float *d_u) {
  extern __shared__ float smem[];
  float *a = smem, *c = smem + NX, *d = smem + 2 * NX; // step 4: one buffer cut into three arrays
  int i = threadIdx.x, m = blockIdx.x;
  float lam = lambdas ? lambda * (1.0f + (float)m / (float)gridDim.x) : lambda; // -lambdas: each its own
  float bbi = 1.0f / (2.0f + lam);
  float u = d_u[(size_t)m * NX + i];

  for (int iter = 0; iter < niter; iter++) {
    a[i] = (i > 0) ? -bbi : 0.0f;
    c[i] = (i < NX - 1) ? -bbi : 0.0f;
    d[i] = lam * bbi * u;
    __syncthreads();

    for (int s = 1; s < NX; s *= 2) { // ceil(log2 NX) steps: any NX
      float am = 0.0f, cm = 0.0f, dm = 0.0f, ap = 0.0f, cp = 0.0f, dp = 0.0f;
      if (i - s >= 0) {
        am = a[i - s];
        cm = c[i - s];
        dm = d[i - s];
      }
      if (i + s < NX) {
        ap = a[i + s];
        cp = c[i + s];
        dp = d[i + s];
      }
      float ai = a[i], ci = c[i], di = d[i];
      __syncthreads(); // all reads of the old rows done

      float r = 1.0f / (1.0f - ai * cm - ci * ap);
      a[i] = -r * ai * am;
      c[i] = -r * ci * cp;
      d[i] = r * (di - ai * dm - ci * dp);
      __syncthreads(); // all new rows written
    }
    u = d[i];
  }
  d_u[(size_t)m * NX + i] = u;
}

int main(int argc, char **argv) {
  int NX = 128, M = 1, niter = 10, verbose = 0, lambdas = 0, seed = 1;
  double lambda = 1.0;
  arg_spec opts[] = {
      {"nx", ARG_INT, &NX, 1, MAX_NX, "unknowns a system (one thread each)"},
      {"m", ARG_INT, &M, 1, MAX_M, "independent systems, one block each"},
      {"niter", ARG_INT, &niter, 1, 1000, "backward-Euler time steps"},
      {"lambda", ARG_DOUBLE, &lambda, 0.25, 100.0, "lambda of every system (of system 0 with -lambdas)"},
      {"lambdas", ARG_FLAG, &lambdas, 0, 1, "system m has lambda (1 + m/M): each its own matrix too"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed of the random starting x of systems 1 to M-1"},
      {"v", ARG_FLAG, &verbose, 0, 1, "print every value of system 0: GPU, gold and their difference"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));

  int dev = findCudaDevice(argc, argv);
  size_t n = (size_t)NX * M, bytes = n * sizeof(float);
  device_memory_check(bytes, "u", 1); // the default size is 512 bytes: only a typed size can be too big
  (void)dev;
  if (lambdas)
    printf("NX = %d, M = %d systems, niter = %d, lambda = %g .. %g\n", NX, M, niter, lambda,
           lambda * (1.0 + (M - 1.0) / M));
  else
    printf("NX = %d, M = %d systems, niter = %d, lambda = %g\n", NX, M, niter, lambda);

  // allocate memory and initialise: system 0 from u = 1 (the course's start), the others from random values
  float *h_u = (float *)malloc(bytes), *h_x = (float *)malloc(bytes);
  double *h_gold = (double *)malloc(n * sizeof(double));
  float *d_u;
  if (!h_u || !h_x || !h_gold) return result_fail("out of host memory for %zu values", n);
  unsigned int state = lcg_seed((unsigned int)seed);
  for (size_t k = 0; k < n; k++) h_u[k] = (k < (size_t)NX) ? 1.0f : lcg_uniform(&state);
  checkCudaErrors(cudaMalloc((void **)&d_u, bytes));
  checkCudaErrors(cudaMemcpy(d_u, h_u, bytes, cudaMemcpyHostToDevice));

  // execute GPU kernel: M blocks of NX threads, 3 NX floats of shared memory each
  size_t shmem = 3 * (size_t)NX * sizeof(float);
  event_timer t = event_timer_start();
  GPU_trid_dyn<<<M, NX, shmem>>>(NX, niter, (float)lambda, lambdas, d_u);
  getLastCudaError("GPU_trid_dyn execution failed");
  float milli = event_timer_stop(&t);
  printf("GPU_trid_dyn: %.3f (ms)\n", milli);
  checkCudaErrors(cudaMemcpy(h_x, d_u, bytes, cudaMemcpyDeviceToHost));

  // Gold treatment: each system by Thomas in double, with the kernel's lambda_m (computed in float there)
  double t0 = wall_ms();
  for (int m = 0; m < M; m++) {
    float lam = lambdas ? (float)lambda * (1.0f + (float)m / (float)M) : (float)lambda;
    Gold_trid(NX, niter, (double)lam, h_u + (size_t)m * NX, h_gold + (size_t)m * NX);
  }
  printf("Gold_trid x %d: %.1f (ms)\n", M, wall_ms() - t0);

  // error check: trid.cu's tolerance (at most 7e-7 per step measured, 1e-6 per step allowed)
  gold_stats st;
  compare_float_double(h_x, h_gold, n, 2e-6 + 1e-6 * niter, 0.0, &st);
  if (verbose)
    for (int i = 0; i < NX; i++) printf(" %d  %f  %f  %f \n", i, h_x[i], h_gold[i], h_x[i] - h_gold[i]);
  printf("max difference = %.3e, rms difference = %.3e\n", st.max_abs_err, st.rms_err);
  gold_report("u", &st);

  checkCudaErrors(cudaFree(d_u));
  free(h_u);
  free(h_x);
  free(h_gold);
  return gold_verdict(&st, "u");
}
