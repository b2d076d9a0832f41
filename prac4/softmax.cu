/*
 * softmax.cu -- the harness for LeetGPU's "Softmax" (practical 4, extra): y_i = exp(x_i - max) / sum_j
 * exp(x_j - max), for N floats on the GPU.
 *
 * LeetGPU asks for  extern "C" void solve(const float *input, float *output, int N)  on device pointers.
 * This harness fills the input (-case=0..5 below), calls solve(), checks the output against the CPU gold in
 * double, and with -bench times it against a device-to-device copy of the same bytes. It is linked with one
 * answer to make each program:
 *   softmax         = softmax.cu + softmax_solve.cu          three passes: max, sum of exp(x - max), divide
 *   softmax_online  = softmax.cu + softmax_online_solve.cu   the max and the sum in one read ("online")
 *   softmax_onchip  = softmax.cu + softmax_onchip_solve.cu   one launch, the input kept on chip in between
 *
 * Subtracting the max is not optional: expf(x) overflows to infinity above x = 88.7, so -case=1 (1000,
 * 1001, 1002) gives inf / inf = NaN without it, and NaN never passes.
 *
 * Tolerance, per element |gpu - gold| <= atol + rtol * gold: rtol = (3 * min(spread, 100) + 3 d + 8) u,
 * u = 2^-24, spread = max - min of x (the float x - max is off by up to spread * u, and expf turns an
 * absolute error in its argument into that relative error of its result; the online version's rescalings
 * add the same again), d the longest chain of float additions in the sum (solve_chain(N), from the answer),
 * 8 for expf's 2 ulp and the division. atol = 1e-37: outputs below the smallest normal float (1.2e-38)
 * have no relative accuracy to speak of.
 * Bandwidth: the least traffic is one read and one write of N floats; the BENCH line counts those 8N bytes.
 * -bench also times a copy of exactly the same 8N bytes (at LeetGPU's sizes the time of one launch, which
 * the 4x-L2 copy baseline is not). An answer that keeps the input on chip (solve_held_bytes, optional) gets
 * its bound printed: what cannot be held, 4N - held bytes, must be read twice, so no answer moves less than
 * 8N + (4N - held) bytes, and at the copy's rate that is 8N / (8N + 4N - held) of the copy.
 *   nvcc -O3 -arch=native -I../common softmax.cu softmax_solve.cu softmax_gold.c -o softmax
 * The exercise, exercises/softmax_online (make exercises): this harness with exercises/softmax_online_solve.cu,
 * both built with -DEXERCISE.
 */
#define COURSE_STEPS "practical 4, softmax, not a numbered workbook step (beyond the course: LeetGPU's Softmax)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(softmax)s in exercises/softmax_online_solve.cu"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "rng.h"
#include "timing.h"

#include "prac4_gold.h"

extern "C" void solve(const float *input, float *output, int N);
extern "C" const char solve_name[];
extern "C" int solve_chain(int N); // the longest chain of float additions in the answer's sum, for the tolerance
// optional (a weak symbol: NULL in answers that do not define it): bytes of the input held on chip at size N
extern "C" __attribute__((weak)) double solve_held_bytes(int N);

// the LeetGPU range is 1 .. 500 000; the workbook accepts up to 2^28 (1 GiB a vector)
#define MAX_N (1 << 28)

static const char *case_names[] = {"random in [-10, 10)", "1000, 1001, 1002, ... (overflow a naive exp)",
                                   "+80, -80, ... (exp(80) = 5.5e34: a naive float sum overflows)",
                                   "all equal (7.5): every output 1/N", "one huge (100) among tiny [0, 1e-3)",
                                   "random, masked: -inf at i % 3 == 1 and in (N/4, N/2] (outputs 0; x[0] never)"};

typedef struct {
  const float *input;
  float *output;
  int N;
} solve_args;

static void run_solve(void *p) {
  solve_args *a = (solve_args *)p;
  solve(a->input, a->output, a->N);
}

int main(int argc, char **argv) {
  int N = 500000, which = 0, seed = 1, bench = 0, reps = 20;
  arg_spec opts[] = {
      {"n", ARG_INT, &N, 1, MAX_N, "vector length (LeetGPU: 1 to 500000)"},
      {"case", ARG_INT, &which, 0, 5, "input: 0 random, 1 1000+, 2 +-80, 3 all equal, 4 one huge among tiny, 5 masked"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the random inputs"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time solve() and a device-to-device copy, print BENCH lines"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is reported)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));

  int dev = findCudaDevice(argc, argv);
  size_t bytes = (size_t)N * sizeof(float);
  device_memory_check(2 * bytes + (bench ? 3 * bytes : 0), bench ? "input, output and the copy test's buffers"
                                                                  : "input and output", args_given(argc, argv, "n"));

  float *h_x = (float *)malloc(bytes), *h_y = (float *)malloc(bytes);
  double *h_gold = (double *)malloc((size_t)N * sizeof(double));
  if (!h_x || !h_y || !h_gold) return result_fail("out of host memory");
  unsigned int state = (unsigned int)seed;
  for (int i = 0; i < N; i++) {
    float r = lcg_uniform(&state);
    switch (which) {
    case 0: h_x[i] = 20.0f * r - 10.0f; break;
    case 1: h_x[i] = 1000.0f + (float)(i % 3); break;
    case 2: h_x[i] = (i % 2) ? -80.0f : 80.0f; break;
    case 3: h_x[i] = 7.5f; break;
    case 4: h_x[i] = 1e-3f * r; break;
    default: h_x[i] = (i % 3 == 1 || (i > N / 4 && i <= N / 2)) ? -INFINITY : 20.0f * r - 10.0f; break;
    }
  }
  if (which == 4) h_x[N / 2] = 100.0f;

  float *d_x, *d_y;
  checkCudaErrors(cudaMalloc((void **)&d_x, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_y, bytes));
  checkCudaErrors(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemset(d_y, 0xff, bytes)); // NaN: an output never written cannot pass

  // the answer under test
  solve(d_x, d_y, N);
  checkCudaErrors(cudaDeviceSynchronize());
  checkCudaErrors(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
  printf("%s: N = %d, input %s\n", solve_name, N, case_names[which]);

  // Gold treatment, in double; the tolerance from the spread of x and the answer's depth
  double spread = softmax_gold(h_x, h_gold, (size_t)N);
  const double u = 0x1p-24;
  int d = solve_chain(N);
  double rtol = (3.0 * (spread < 100.0 ? spread : 100.0) + 3.0 * d + 8.0) * u, atol = 1e-37;
  printf("tolerance: rtol = (3 * %.3g + 3 * %d + 8) u = %.3e, atol = %.0e\n", spread < 100.0 ? spread : 100.0, d,
         rtol, atol);
  gold_stats st;
  compare_float_double(h_y, h_gold, (size_t)N, atol, rtol, &st);
  gold_report("output", &st);

  if (bench && st.nbad == 0) {
    double moved = 2.0 * (double)bytes; // the least traffic: read the input once, write the output once
    solve_args a = {d_x, d_y, N};
    bench_ref ref = bench_reference(dev, moved, reps);
    // a copy of the same 8N bytes (4N read, 4N written), into a buffer of its own
    float *d_c;
    checkCudaErrors(cudaMalloc((void **)&d_c, bytes));
    timing_copy_args c = {d_c, d_x, bytes};
    float copy_ms = time_median_ms(timing_copy, &c, 3, reps);
    checkCudaErrors(cudaFree(d_c));
    char size[32], extra[160];
    int at = snprintf(extra, sizeof(extra), "case=%d same_copy_ms=%.4f", which, copy_ms);
    double bound = 0.0; // the bound as a fraction of the copy, when the answer says what it holds on chip
    if (solve_held_bytes) {
      double held = solve_held_bytes(N), reread = (double)bytes - held;
      bound = moved / (moved + (reread > 0.0 ? reread : 0.0));
      printf("bound: %.1f MB of the %.1f MB input held on chip, %.1f MB read twice: least traffic %.1f MB, "
             "%.1f%% of a copy's rate\n",
             held * 1e-6, bytes * 1e-6, (reread > 0.0 ? reread : 0.0) * 1e-6,
             (moved + (reread > 0.0 ? reread : 0.0)) * 1e-6, 100.0 * bound);
      snprintf(extra + at, sizeof(extra) - at, " bound_pct_copy=%.1f", 100.0 * bound);
    }
    snprintf(size, sizeof(size), "%d", N);
    checkCudaErrors(cudaMemset(d_y, 0xff, bytes)); // poisoned again: what the timed runs wrote is checked below
    float ms = bench_report(&ref, "4", solve_name, size, run_solve, &a, reps, moved, extra);
    checkCudaErrors(cudaMemcpy(h_y, d_y, bytes, cudaMemcpyDeviceToHost));
    compare_float_double(h_y, h_gold, (size_t)N, atol, rtol, &st);
    gold_report("output after the timed runs", &st);
    printf("%s: %.2f times a copy of the same %zu bytes (%.4f ms)", solve_name, ms / copy_ms, 2 * bytes, copy_ms);
    if (bound > 0.0) printf(", %.1f%% of the bound", 100.0 * (moved / (ms * 1e-3) / 1e9) / (bound * ref.copy_GBps));
    printf("\n");
  }

  checkCudaErrors(cudaFree(d_x));
  checkCudaErrors(cudaFree(d_y));
  free(h_x);
  free(h_y);
  free(h_gold);
  return gold_verdict(&st, "output");
}
