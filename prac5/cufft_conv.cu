/*
 * cufft_conv.cu -- practical 5, step 3: a 1-D convolution by FFT with cuFFT.
 *
 * y = x * h (full linear convolution, length nx + nh - 1) by the convolution theorem: a product of
 * transforms is the transform of a circular convolution, and a circular convolution of length P >= nx + nh - 1
 * of the zero-padded signals is the linear one. So:
 *   1. zero-pad x and h to P (P: the smallest 2^a 3^b 5^c 7^d >= nx + nh - 1, a length cuFFT does fast)
 *   2. forward real-to-complex transforms (cufftExecR2C): P reals -> P/2 + 1 complex numbers each
 *   3. multiply pointwise, and scale by 1/P (cuFFT's transforms are unnormalised): our own kernel
 *   4. inverse complex-to-real transform (cufftExecC2R): y in the first nx + nh - 1 reals
 * The gold is the direct convolution on the host, in double. The check is on the relative L2 error,
 * || y - gold ||_2 / || gold ||_2, against the bound of fft_conv_bound() (prac5_gold.c): about
 * 16 u log2(P) (||x||_2 ||h||_1 + ||x||_1 ||h||_2) / || gold ||_2, the error of three float FFTs.
 * The course's sizes, a signal of 50 and a filter of 11, are the defaults; -nx= -nh= give any others.
 *   nvcc -O3 -arch=native -I../common cufft_conv.cu prac5_gold.c -lcufft -o cufft_conv
 */
#define COURSE_STEPS "practical 5, workbook step 3 (course steps 1-2, in place of the sample simpleCUFFT)"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cufft.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac5_gold.h"

#define BLOCK_THREADS 256

// the pointwise product: one thread per frequency; X becomes X * H / P in place
__global__ void complex_mul_scale(cufftComplex *X, const cufftComplex *__restrict__ H, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cufftComplex a = X[i], b = H[i];
    X[i] = make_float2((a.x * b.x - a.y * b.y) * scale, (a.x * b.y + a.y * b.x) * scale);
  }
}

typedef struct {
  cufftHandle fwd, inv;
  int nfreq;
  long long P;
  cufftReal *d_x, *d_h, *d_y; // padded signals and the result, P reals each
  cufftComplex *d_X, *d_H;   // their transforms, P/2 + 1 each
} fft_conv;

static void run_fft_conv(void *arg) {
  fft_conv *c = (fft_conv *)arg;
  checkCudaErrors(cufftExecR2C(c->fwd, c->d_x, c->d_X));
  checkCudaErrors(cufftExecR2C(c->fwd, c->d_h, c->d_H));
  complex_mul_scale<<<(c->nfreq + BLOCK_THREADS - 1) / BLOCK_THREADS, BLOCK_THREADS>>>(c->d_X, c->d_H, c->nfreq,
                                                                                     1.0f / (float)c->P);
  getLastCudaError("complex_mul_scale execution failed");
  checkCudaErrors(cufftExecC2R(c->inv, c->d_X, c->d_y)); // overwrites d_X, never d_x
}

int main(int argc, char **argv) {
  int nx = 50, nh = 11, seed = 1, reps = 20;
  arg_spec opts[] = {
      {"nx", ARG_INT, &nx, 1, 1 << 28, "signal length"},
      {"nh", ARG_INT, &nh, 1, 1 << 28, "filter length"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the inputs"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions (the median is printed)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  long long ny = (long long)nx + nh - 1;
  if (ny > (1LL << 28)) args_fail("-nx=%d -nh=%d: the result, nx + nh - 1, is longer than 2^28", nx, nh);
  if ((double)nx * nh > 4e10) args_fail("-nx=%d -nh=%d: the host's direct convolution would take too long", nx, nh);
  int user_sized = args_given(argc, argv, "nx") || args_given(argc, argv, "nh");

  int dev = findCudaDevice(argc, argv);
  (void)dev;
  long long P = fft_good_size(ny > 2 ? ny : 2); // at least 2: a transform of one point is no lesson
  int nfreq = (int)(P / 2 + 1);
  device_memory_check(3 * (size_t)P * sizeof(float) + 2 * (size_t)nfreq * sizeof(cufftComplex) + 2 * (size_t)P * 8,
                      "the padded signals, their transforms and cuFFT's workspace", user_sized);

  // initialise: signal and filter random in [-1, 1)
  float *h_x = (float *)malloc((size_t)nx * sizeof(float)), *h_h = (float *)malloc((size_t)nh * sizeof(float));
  float *h_y = (float *)malloc((size_t)ny * sizeof(float));
  double *gold = (double *)malloc((size_t)ny * sizeof(double));
  if (!h_x || !h_h || !h_y || !gold) return result_fail("out of host memory");
  fill_uniform(h_x, (size_t)nx, (unsigned)seed, -1.0f, 1.0f);
  fill_uniform(h_h, (size_t)nh, (unsigned)seed + 1u, -1.0f, 1.0f);
  printf("signal %d, filter %d: full convolution of %lld, FFT length P = %lld\n", nx, nh, ny, P);

  // zero-padded copies on the device
  fft_conv c;
  c.P = P;
  c.nfreq = nfreq;
  checkCudaErrors(cudaMalloc((void **)&c.d_x, (size_t)P * sizeof(cufftReal)));
  checkCudaErrors(cudaMalloc((void **)&c.d_h, (size_t)P * sizeof(cufftReal)));
  checkCudaErrors(cudaMalloc((void **)&c.d_y, (size_t)P * sizeof(cufftReal)));
  checkCudaErrors(cudaMalloc((void **)&c.d_X, (size_t)nfreq * sizeof(cufftComplex)));
  checkCudaErrors(cudaMalloc((void **)&c.d_H, (size_t)nfreq * sizeof(cufftComplex)));

  // the plans, made once outside the timed region (a plan chooses the algorithm and allocates its workspace)
  checkCudaErrors(cufftPlan1d(&c.fwd, (int)P, CUFFT_R2C, 1));
  checkCudaErrors(cufftPlan1d(&c.inv, (int)P, CUFFT_C2R, 1));

  // the convolution, once (timed as the course does), and the result copied back
  checkCudaErrors(cudaMemset(c.d_x, 0, (size_t)P * sizeof(float)));
  checkCudaErrors(cudaMemset(c.d_h, 0, (size_t)P * sizeof(float)));
  checkCudaErrors(cudaMemcpy(c.d_x, h_x, (size_t)nx * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(c.d_h, h_h, (size_t)nh * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(c.d_X, 0xff, (size_t)nfreq * sizeof(cufftComplex))); // poisoned
  checkCudaErrors(cudaMemset(c.d_y, 0xff, (size_t)P * sizeof(cufftReal)));
  event_timer t = event_timer_start();
  run_fft_conv(&c);
  float ms_once = event_timer_stop(&t);
  checkCudaErrors(cudaMemcpy(h_y, c.d_y, (size_t)ny * sizeof(float), cudaMemcpyDeviceToHost));

  // timing: the same three phases (forward transforms, product, inverse) again and again; the padding was
  // done once above (x and h stay as they were: the forward transforms are out of place and read them only).
  // Both signals are inputs of the call, so both are transformed each time; with a fixed filter its
  // transform would be made once, as conv1d_ladder's cuFFT route does
  checkCudaErrors(cudaMemset(c.d_y, 0xff, (size_t)P * sizeof(cufftReal))); // poisoned: judged below is what
  float ms = time_median_ms(run_fft_conv, &c, 3, reps);                       // the timed calls wrote
  printf("FFT convolution: first call %.4f ms; median of %d: %.4f ms\n", ms_once, reps, ms);
  // the result the last timed call left, checked below too: a timed result is a checked result
  float *h_y_timed = (float *)malloc((size_t)ny * sizeof(float));
  if (!h_y_timed) return result_fail("out of host memory");
  checkCudaErrors(cudaMemcpy(h_y_timed, c.d_y, (size_t)ny * sizeof(float), cudaMemcpyDeviceToHost));

  // Gold treatment: the direct sum, in double
  double t0 = wall_ms();
  conv_full_gold(h_x, nx, h_h, nh, gold);
  printf("conv_full_gold: %.1f ms\n", wall_ms() - t0);

  // error check: the relative L2 error against the bound of three float FFTs (prac5_gold.c)
  double gnorm = norm2_double(gold, (size_t)ny);
  double err = diff_norm2(h_y, gold, (size_t)ny);
  double bound = fft_conv_bound(h_x, nx, h_h, nh, P);
  double rel = err / gnorm, rel_tol = bound / gnorm;
  printf("y[0..2] = %.6f %.6f %.6f, gold %.6f %.6f %.6f\n", h_y[0], ny > 1 ? h_y[1] : 0.0, ny > 2 ? h_y[2] : 0.0,
         gold[0], ny > 1 ? gold[1] : 0.0, ny > 2 ? gold[2] : 0.0);
  printf("relative L2 error = %.3e, tolerance %.3e (16 u log2(P) (|x|_2 |h|_1 + |x|_1 |h|_2) / |gold|_2)\n", rel,
         rel_tol);
  double rel_timed = diff_norm2(h_y_timed, gold, (size_t)ny) / gnorm;
  int rc;
  if (!(rel <= rel_tol)) // false for NaN
    rc = result_fail("relative L2 error %.3e is above its bound %.3e", rel, rel_tol);
  else if (!(rel_timed <= rel_tol))
    rc = result_fail("the last timed call's relative L2 error %.3e is above its bound %.3e", rel_timed, rel_tol);
  else
    rc = result_pass();

  // free
  checkCudaErrors(cufftDestroy(c.fwd));
  checkCudaErrors(cufftDestroy(c.inv));
  checkCudaErrors(cudaFree(c.d_x));
  checkCudaErrors(cudaFree(c.d_h));
  checkCudaErrors(cudaFree(c.d_y));
  checkCudaErrors(cudaFree(c.d_X));
  checkCudaErrors(cudaFree(c.d_H));
  free(h_x);
  free(h_h);
  free(h_y);
  free(h_y_timed);
  free(gold);
  return rc;
}
