/*
 * conv1d_ladder.cu -- practical 5, step 7: 1-D convolution, direct against FFT. LeetGPU's problem, the
 * "valid" correlation: output[i] = sum_{j < kernel_size} input[i + j] kernel[j], for i = 0 .. input_size -
 * kernel_size, solve(const float *input, const float *kernel, float *output, int input_size, int
 * kernel_size).
 *   -kernel=0  cuFFT: R2C, X . conj(H) / P, C2R (H made once a filter)   conv1d/c0_cufft.cuh
 *   -kernel=1  direct, the kernel in constant memory                      conv1d/c1_constant.cuh
 *   -kernel=2  direct, kernel and input window in shared memory           conv1d/c2_shared.cuh
 * The direct sums cost O(input_size * kernel_size), the FFT route O(P log P) whatever the kernel's size, so
 * cuFFT is the reference for long filters: -sweep times all three for kernel sizes 3, 7, 15, ... 2047 and
 * prints where the FFT begins to win for good (a BENCH line of its own, conv1d_crossover). -bench and -sweep
 * check every kernel, time it, and check the output its last timed run left.
 * The gold is the direct sum in double. A direct output adds kernel_size products in float: it must be
 * within gamma(kernel_size) * max_i sum_j |input[i+j] kernel[j]| of the gold. The FFT route's error is
 * spread over all outputs: its relative L2 error must be within the bound of three float FFTs
 * (fft_conv_bound in prac5_gold.c, as in cufft_conv.cu).
 *   nvcc -O3 -arch=native -I. -I../common conv1d_ladder.cu prac5_gold.c -lcufft -o conv1d_ladder
 */
#define COURSE_STEPS "practical 5, workbook step 7 (course step 3, own code; the ladder goes well beyond the course)"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "ladder.h"
#include "timing.h"

#include "prac5_gold.h"

#include "conv1d/c0_cufft.cuh"
#include "conv1d/c1_constant.cuh"
#include "conv1d/c2_shared.cuh"

typedef void (*conv_fn)(const float *, const float *, float *, int, int);
typedef struct {
  const char *name;
  conv_fn run;
} conv_step;

static const conv_step steps[] = {{"cufft", run_cufft}, {"constant", run_constant}, {"shared", run_shared}};
#define NSTEPS ((int)(sizeof(steps) / sizeof(steps[0])))

typedef struct {
  conv_fn run;
  const float *d_in, *d_k;
  float *d_out;
  int n, m;
} conv_call;

static void run_call(void *p) {
  conv_call *c = (conv_call *)p;
  c->run(c->d_in, c->d_k, c->d_out, c->n, c->m);
}

// the output kernel k left in c->d_out at kernel size c->m, copied back and compared with the gold; `what`
// names the run in the one-line form (the check's, or the last timed run's). d_out is poisoned again after the
// copy, so that the next runs (another kernel's timed runs, say) must write it to pass
static int compare_step(int k, const conv_call *c, const float *h_in, const float *h_k, const double *gold,
                        const double *ay, float *h_out, int verbose, const char *what) {
  int nout = c->n - c->m + 1;
  checkCudaErrors(cudaMemcpy(h_out, c->d_out, (size_t)nout * sizeof(float), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemset(c->d_out, 0xff, (size_t)nout * sizeof(float)));
  int ok;
  if (k == 0) {
    double gnorm = norm2_double(gold, (size_t)nout);
    double rel = diff_norm2(h_out, gold, (size_t)nout) / (gnorm > 0 ? gnorm : 1.0);
    double tol = fft_conv_bound(h_in, c->n, h_k, c->m, fft.P) / (gnorm > 0 ? gnorm : 1.0);
    ok = rel <= tol; // false for NaN
    if (verbose)
      printf("kernel 0 (cufft): P = %lld; relative L2 error = %.3e, tolerance %.3e (three float FFTs)\n", fft.P, rel,
             tol);
    else
      printf("  m=%-5d %-9s %s%s: rel L2 err %.2e (tol %.2e)\n", c->m, steps[k].name, ok ? "PASS" : "FAIL", what, rel,
             tol);
  } else {
    double amax = 0.0;
    for (int i = 0; i < nout; i++)
      if (ay[i] > amax) amax = ay[i];
    gold_stats st;
    compare_float_double(h_out, gold, (size_t)nout, gamma_k(c->m, U_FP32) * amax, 0.0, &st);
    ok = st.nbad == 0;
    if (verbose) {
      printf("kernel %d (%s): tolerance gamma(kernel_size) * max sum|x||k| = %.3e\n", k, steps[k].name,
             gamma_k(c->m, U_FP32) * amax);
      gold_report("output", &st);
    } else {
      printf("  m=%-5d %-9s %s%s: max err %.2e (tol %.2e)\n", c->m, steps[k].name, ok ? "PASS" : "FAIL", what,
             st.max_abs_err, st.atol);
    }
  }
  return ok;
}

// kernel k at kernel size c->m on a poisoned output, from scratch (cuFFT's filter transform too), against the
// gold
static int check_step(int k, conv_call *c, const float *h_in, const float *h_k, const double *gold, const double *ay,
                      float *h_out, int verbose) {
  int nout = c->n - c->m + 1;
  checkCudaErrors(cudaMemset(c->d_out, 0xff, (size_t)nout * sizeof(float))); // NaN: never written cannot pass
  if (k == 0) cufft_filter(c->d_k, c->m); // the filter's transform: made here, outside the timed calls
  c->run = steps[k].run;
  run_call(c);
  return compare_step(k, c, h_in, h_k, gold, ay, h_out, verbose, "");
}

// -bench and -sweep, through common/ladder.h at each kernel size: check every kernel, time every kernel, and the
// BENCH lines; the table is this runner's own, a kernel size per row
typedef struct {
  conv_call *call;
  const float *h_in, *h_k;
  const double *gold, *ay;
  float *h_out;
} bench_ctx;

static int bench_check(void *p, int k) {
  bench_ctx *b = (bench_ctx *)p;
  return check_step(k, b->call, b->h_in, b->h_k, b->gold, b->ay, b->h_out, 0);
}

// what the last timed run left in d_out, against the same gold (nothing is run again)
static int bench_recheck(void *p, int k) {
  bench_ctx *b = (bench_ctx *)p;
  return compare_step(k, b->call, b->h_in, b->h_k, b->gold, b->ay, b->h_out, 0, " (timed)");
}

static void bench_run(void *p, int k) {
  bench_ctx *b = (bench_ctx *)p;
  b->call->run = steps[k].run;
  run_call(b->call);
}

static void bench_keys(void *p, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra) {
  bench_ctx *b = (bench_ctx *)p;
  snprintf(prog, nprog, "conv1d_k%d_%s", k, steps[k].name);
  snprintf(extra, nextra, "kernel=%d kernel_size=%d x_cufft=%.3f", k, b->call->m, ms[0] / ms[k]);
}

int main(int argc, char **argv) {
  int n = 1 << 20, m = 255, kernel = 2, bench = 0, sweep = 0, seed = 1, reps = 20;
  arg_spec opts[] = {
      {"n", ARG_INT, &n, 1, 1 << 28, "input_size"},
      {"m", ARG_INT, &m, 1, MAX_KERNEL, "kernel_size (at most input_size)"},
      {"kernel", ARG_INT, &kernel, 0, NSTEPS - 1, "the kernel: 0 cuFFT, 1 constant memory, 2 shared memory"},
      {"bench", ARG_FLAG, &bench, 0, 1, "check and time every kernel at this size"},
      {"sweep", ARG_FLAG, &sweep, 0, 1, "check and time every kernel for kernel sizes 3, 7, .. 2047"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the inputs"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if (!sweep && m > n) args_fail("-m=%d is longer than the input, -n=%d: no valid output", m, n);
  if (sweep && n < 3) args_fail("-sweep -n=%d: the sweep's smallest kernel_size is 3, longer than the input", n);
  if (bench && sweep) args_fail("-bench or -sweep, not both");
  if ((double)n * (sweep ? 4096.0 : m) > 2e10) args_fail("-n=%d: the host gold would do more than 2e10 multiply-adds", n);

  int dev = findCudaDevice(argc, argv);
  (void)dev;
  long long P = fft_good_size(n > 2 ? n : 2);
  device_memory_check((size_t)(2 * n + MAX_KERNEL) * sizeof(float) + (size_t)P * (3 * sizeof(float) + 2 * 8 + 8),
                      "the input, kernel, output and the FFT route's buffers", args_given(argc, argv, "n"));

  float *h_in = (float *)malloc((size_t)n * sizeof(float)), *h_k = (float *)malloc(MAX_KERNEL * sizeof(float));
  float *h_out = (float *)malloc((size_t)n * sizeof(float));
  double *gold = (double *)malloc((size_t)n * sizeof(double)), *ay = (double *)malloc((size_t)n * sizeof(double));
  if (!h_in || !h_k || !h_out || !gold || !ay) return result_fail("out of host memory");
  fill_uniform(h_in, (size_t)n, (unsigned)seed, -1.0f, 1.0f);
  fill_uniform(h_k, MAX_KERNEL, (unsigned)seed + 1u, -1.0f, 1.0f);

  float *d_in, *d_k, *d_out;
  checkCudaErrors(cudaMalloc((void **)&d_in, (size_t)n * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_k, MAX_KERNEL * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_out, (size_t)n * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_in, h_in, (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_k, h_k, MAX_KERNEL * sizeof(float), cudaMemcpyHostToDevice));
  cufft_setup(n); // plans and padded buffers: once, outside every timed region
  conv_call call = {run_cufft, d_in, d_k, d_out, n, m};

  int ok = 1;
  if (!bench && !sweep) {
    double t0 = wall_ms();
    conv_valid_gold(h_in, n, h_k, m, gold, ay);
    printf("input_size %d, kernel_size %d: %d outputs; conv_valid_gold %.1f ms\n", n, m, n - m + 1, wall_ms() - t0);
    ok = check_step(kernel, &call, h_in, h_k, gold, ay, h_out, 1);
  } else {
    int sizes[16], ns = 0;
    if (bench)
      sizes[ns++] = m;
    else
      for (int s = 3; s <= MAX_KERNEL && s <= n; s = 2 * s + 1) sizes[ns++] = s;
    double ms[16][NSTEPS];
    int passed[NSTEPS];
    bench_ctx b = {&call, h_in, h_k, gold, ay, h_out};
    ladder L;
    memset(&L, 0, sizeof(L));
    L.nsteps = NSTEPS;
    L.ctx = &b;
    L.check = bench_check;
    L.run = bench_run;
    L.recheck = bench_recheck;
    L.warmup = 3;
    L.reps = reps;
    L.prac = "5";
    L.bench_keys = bench_keys;
    for (int s = 0; s < ns; s++) {
      call.m = sizes[s];
      conv_valid_gold(h_in, n, h_k, call.m, gold, ay);
      ok = ladder_check_and_time(&L, ms[s], passed) && ok;
    }
    printf("\ninput_size %d (FFT length P = %lld); ms per call, median of %d\n", n, fft.P, reps);
    printf("  kernel_size    cufft  constant    shared   fastest\n");
    int crossover = -1;
    for (int s = 0; s < ns; s++) {
      double direct = ms[s][1] < ms[s][2] ? ms[s][1] : ms[s][2];
      int best = ms[s][0] < direct ? 0 : (ms[s][1] < ms[s][2] ? 1 : 2);
      if (best == 0 && crossover < 0) crossover = sizes[s];
      if (best != 0) crossover = -1; // the FFT must keep winning from there on
      printf("  %11d %8.4f %9.4f %9.4f   %s\n", sizes[s], ms[s][0], ms[s][1], ms[s][2], steps[best].name);
    }
    // cuFFT is the reference for long filters: its cost does not grow with kernel_size, the direct sums' does.
    // The sweep's result is where it takes over, not a ratio at a short filter, where no one would use it
    if (sweep) {
      if (crossover > 0)
        printf("the FFT route wins from kernel_size %d on (input_size %d)\n", crossover, n);
      else
        printf("the FFT route does not win for good at any kernel_size up to %d (input_size %d)\n", sizes[ns - 1], n);
    }
    char size[64];
    L.size = size;
    for (int s = 0; s < ns; s++) {
      snprintf(size, sizeof(size), "%dx%d", n, sizes[s]);
      call.m = sizes[s];
      ladder_bench_lines(&L, ms[s]);
    }
    if (sweep) { // one line for the crossover: cuFFT's time at the longest filter, and where it starts to win
      char extra[96], at[16];
      if (crossover > 0)
        snprintf(at, sizeof(at), "%d", crossover);
      else
        snprintf(at, sizeof(at), "none");
      snprintf(extra, sizeof(extra), "kernel_size=%d crossover_kernel_size=%s", sizes[ns - 1], at);
      snprintf(size, sizeof(size), "%d", n);
      print_bench("5", "conv1d_crossover", size, reps, ms[ns - 1][0], -1.0, NULL, extra);
    }
  }

  // free
  cufft_teardown();
  checkCudaErrors(cudaFree(d_in));
  checkCudaErrors(cudaFree(d_k));
  checkCudaErrors(cudaFree(d_out));
  free(h_in);
  free(h_k);
  free(h_out);
  free(gold);
  free(ay);
  return ok ? result_pass() : result_fail("a kernel's output is outside its tolerance (see above)");
}
