/*
 * exercises/trid.cu -- practical 7, step 3: write the PCR step. The finished program is ../trid.cu: try
 * first. Until the loop over s below does a PCR step, each row is read off as if its neighbours were 0 and the
 * program ends RESULT: FAIL (exercise not done: ...): u comes back as (lambda / (2 + lambda))^niter.
 *
 * trid.cu -- practical 7: a tridiagonal system solved by parallel cyclic reduction (PCR) in one block.
 *
 * The 1-D heat equation marched in time by backward Euler: each step solves
 *   A u_new = lambda u_old,   A = tridiag(-1, 2 + lambda, -1),   lambda = 1,  u = 1 at the start,
 * on NX = 128 points with zero outside. One block of NX threads does all niter steps: thread i owns row i,
 * the rows live in static shared memory, and each PCR step eliminates the neighbours at distance s
 * (s = 1, 2, 4, ..., 64), so that after log2 NX = 7 steps every row reads x[i] = d[i]. The CPU gold solves
 * the same steps by the Thomas algorithm in double.
 *
 * Handout steps 1-3: build, run, write the PCR step (TODO(step 3)). It prints all NX
 * values first, in the course's lines; -niter=N the time steps.
 *   nvcc -O3 -arch=native -DEXERCISE -I../common -I. exercises/trid.cu trid_gold.c -o exercises/trid
 */
#define COURSE_STEPS "practical 7, workbook steps 1-3 (course bullets 1-2)"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac7_gold.h"

// the course's size: one block, one thread per row, the rows in static shared memory (3 x 128 floats)
#define NX 128

// one block; thread i owns row i of the normalised system a[i] x[i-1] + x[i] + c[i] x[i+1] = d[i]
__global__ void GPU_trid(int niter, float lambda, float *d_u) {
  __shared__ float a[NX], c[NX], d[NX];
  int i = threadIdx.x;
  float bbi = 1.0f / (2.0f + lambda); // step 2: rows divided by their diagonal, so b = 1 needs no storage
  float u = d_u[i];

  for (int iter = 0; iter < niter; iter++) {
    // this time step's rows; a[0] and c[NX-1] are 0: nothing outside the grid
    a[i] = (i > 0) ? -bbi : 0.0f;
    c[i] = (i < NX - 1) ? -bbi : 0.0f;
    d[i] = lambda * bbi * u;
    __syncthreads();

    for (int s = 1; s < NX; s *= 2) {
      float ai = a[i], ci = c[i], di = d[i];
      // TODO(step 3): one PCR step at stride s, the one docs/prac7.md step 3 asks you to derive on paper:
      //   read rows i-s and i+s into registers too (a row outside 0 .. NX-1 is a = c = d = 0);
      //   row i's new a, c and d, by your elimination on paper, from those registers;
      //   store the new row in place of the three lines below.
      //   Other threads overwrite rows in place while you read them: where must the whole block wait, so
      //   that every thread reads only this stride's old rows, and the next stride only new ones?
      a[i] = ai;
      c[i] = ci;
      d[i] = di;
    }
    u = d[i]; // all rows decoupled: x[i] = d[i]
  }
  d_u[i] = u;
}

int main(int argc, char **argv) {
  int niter = 10, verbose = 0;
  double lambda = 1.0;
  arg_spec opts[] = {
      {"niter", ARG_INT, &niter, 1, 1000, "backward-Euler time steps"},
      {"lambda", ARG_DOUBLE, &lambda, 0.25, 100.0, "lambda = dx^2 / dt (the course's 1)"},
      {"v", ARG_FLAG, &verbose, 0, 1, "print every value (the default now, as in the course; kept for old commands)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));

  findCudaDevice(argc, argv);

  // allocate memory and initialise: u = 1 everywhere
  float *h_u = (float *)malloc(NX * sizeof(float)), *h_x = (float *)malloc(NX * sizeof(float));
  double *h_gold = (double *)malloc(NX * sizeof(double));
  float *d_u;
  for (int i = 0; i < NX; i++) h_u[i] = 1.0f;
  checkCudaErrors(cudaMalloc((void **)&d_u, NX * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_u, h_u, NX * sizeof(float), cudaMemcpyHostToDevice));

  // execute GPU kernel: one block of NX threads, all niter steps in one launch
  event_timer t = event_timer_start();
  GPU_trid<<<1, NX>>>(niter, (float)lambda, d_u);
  getLastCudaError("GPU_trid execution failed");
  float milli = event_timer_stop(&t);
  checkCudaErrors(cudaMemcpy(h_x, d_u, NX * sizeof(float), cudaMemcpyDeviceToHost));

  // Gold treatment: the Thomas algorithm in double
  Gold_trid(NX, niter, lambda, h_u, h_gold);

  // error check. Each float solve is off by a few float epsilons times the condition number of the
  // normalised rows, (4 + lambda) / lambda <= 17 for lambda >= 0.25; the rounding of 1/(2 + lambda) biases
  // every step the same way, so the errors add up over the steps. Measured on an H100: at most 7e-7 per step
  // (lambda from 0.25 to 2, NX up to 1024, niter up to 20), hence 2e-6 + 1e-6 per step
  gold_stats st;
  compare_float_double(h_x, h_gold, NX, 2e-6 + 1e-6 * niter, 0.0, &st);
  // the course's lines (i, GPU, CPU, difference), exactly as it prints them, so that a learner can diff against
  // its log; then the workbook's: the problem, the time, the differences in summary, the gold's line
  for (int i = 0; i < NX; i++) printf(" %d  %f  %f  %f \n", i, h_x[i], h_gold[i], h_x[i] - h_gold[i]);
  printf("NX = %d, niter = %d, lambda = %g\n", NX, niter, lambda);
  printf("GPU_trid: %.3f (ms)\n", milli);
  printf("max difference = %.3e, rms difference = %.3e\n", st.max_abs_err, st.rms_err);
  gold_report("u", &st);

  checkCudaErrors(cudaFree(d_u));
  free(h_u);
  free(h_x);
  free(h_gold);
  return gold_verdict(&st, "u");
}
