/*
 * reduction_ladder.cu -- practical 4, steps 2 to 6: the course's reduction, one step at a time, up to the
 * speed of NVIDIA's own library, all judged by one gold and timed in one table.
 *
 *   -step=2            one block, any number of threads, any n           kernels/r2_any_threads.cuh
 *   -step=3            many blocks, partial sums added on the host        kernels/r3_many_blocks.cuh (a)
 *   -step=3 -atomic    many blocks, one atomicAdd per block               kernels/r3_many_blocks.cuh (b)
 *   -step=4            warp shuffles                                      kernels/r4_shfl.cuh
 *   -step=5            unsigned ints with __reduce_add_sync (cc >= 8.0)   kernels/r5_reduce_add.cuh
 *   -step=6            the fast version: one launch, last block done      kernels/r6_fast.cuh
 *   -step=0            the library: cub::DeviceReduce::Sum                kernels/r0_cub.cuh
 * (step 1 is the course's own program, reduction.cu; step 7 is laplace3d_rms.cu.)
 *
 * The inputs are the course's floor(10 * rand), whole numbers 0..9, or with -uniform random floats in
 * [0, 1), or with -sparse whole numbers that are mostly 0 (one in 32 is 1, and so is the last): their total
 * stays below 2^24 up to about 2^28 elements, so the check is exact even there, and a lost block (about 32
 * ones) or a lost last element shows, which the tolerance of the digits' sum at 2^28 would hide. The gold
 * adds them in double. The check is exact when it can be: whole numbers whose total is at most 2^24, so
 * that every partial sum, in any order, is a whole number a float holds exactly. Otherwise each step
 * states the longest chain of float additions a term goes through (its depth d) and the GPU's sum must be
 * within gamma(d) * sum|x| of the gold, gamma(d) = d u / (1 - d u), u = 2^-24: the standard bound for a
 * float sum in any tree order (Higham, Accuracy and Stability of Numerical Algorithms, 4.2).
 *
 * -bench runs and checks every step on the same array, then times each one (median of -reps) next to a
 * read-only stream of as many bytes (a reduction only reads): the table of the handout, and BENCH lines with
 * x_cub, the step's speed as a multiple of CUB's (CUB's time / the step's time: above 1 is faster than CUB).
 * -bench -step=N times step N alone beside CUB and the stream (what practical 10's tuner runs). Step 6 alone (the
 * default run, -step=6, -bench -step=6) takes -threads and -unroll from practical 10's table for this GPU and n
 * (common/tuned.h) unless typed; the whole ladder (-bench) reads none: every step at one shape, as the handout's.
 *   nvcc -O3 -arch=native -I../common reduction_ladder.cu reduction_gold.c -o reduction_ladder
 */
#define COURSE_STEPS "practical 4, workbook steps 2-6 (course steps 3-6 = workbook 2-5; step 6 is beyond the course)"
// make exercises: ./exercises/reduction_ladder, built with -DEXERCISE, runs steps 2 to 6 from the learner's
// files, exercises/r*.cuh; its verdict names them (defined here, before gold_check.h reads it)
#ifdef EXERCISE
#define EXERCISE_TODO "fill in the TODO(step N) in exercises/rN_*.cuh, N the -step you ran"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "ladder.h"
#include "timing.h"
#include "tuned.h"

#include "prac4_gold.h"

#include "kernels/reduction.h"
#ifndef EXERCISE
#include "kernels/r2_any_threads.cuh"
#include "kernels/r3_many_blocks.cuh"
#include "kernels/r4_shfl.cuh"
#include "kernels/r5_reduce_add.cuh"
#include "kernels/r6_fast.cuh"
#else
#include "exercises/r2_any_threads.cuh"
#include "exercises/r3_many_blocks.cuh"
#include "exercises/r4_shfl.cuh"
#include "exercises/r5_reduce_add.cuh"
#include "kernels/r6_fast.cuh" // which takes its kernel from exercises/r6_fast.cuh
#endif
#include "kernels/r0_cub.cuh"

// the threads per block unless -threads says otherwise: 32 warps; with -unroll=2 the fastest step 6 on the
// H100 measured, by about the run-to-run noise (make bench also times 256 x 4 and 512 x 8; the figures:
// docs/notes/prac4.md, "The ladder at other shapes and block sizes" and "Figures behind the source's choices")
#ifndef LADDER_THREADS
#define LADDER_THREADS 1024
#endif
// step 6's float4 loads in flight per thread (-unroll=1, 2, 4 or 8)
#ifndef FAST_UNROLL
#define FAST_UNROLL 2
#endif

// the largest n accepted: 2^36 floats (256 GiB, more than any GPU holds); the memory check says what fits
#define MAX_N (1LL << 36)

#include "kernels/steps.h" // the table of steps, and each step's depth and result

#include "kernels/oracle.h" // judge_step and check_step: each step against the gold and its tolerance

// -bench: the steps this build and GPU can run (step 5 needs __reduce_add_sync), as common/ladder.h's ladder
typedef struct {
  const ladder_step *s[NSTEPS];
  ladder_args *a;
  double gold, sum_abs;
  unsigned long long gold_u;
  int integer_valued, sms, threads, unroll;
} bench_ctx;

static int bench_check(void *p, int k) {
  bench_ctx *c = (bench_ctx *)p;
  gold_stats st;
  int ok = check_step(c->s[k], c->a, c->gold, c->gold_u, c->sum_abs, c->integer_valued, c->sms, 0, &st);
  // poisoned again, so that bench_recheck judges what the timed runs wrote, not what this check left (steps 0, 2,
  // 3a and 6 write their result rather than add to it: a timed launch that wrote nothing would pass)
  checkCudaErrors(cudaMemset(c->a->d_out, 0xff, sizeof(float)));
  checkCudaErrors(cudaMemset(c->a->d_uout, 0xff, sizeof(unsigned long long)));
  checkCudaErrors(cudaMemset(c->a->d_partial, 0xff, c->a->npartial * sizeof(float)));
  c->a->host_sum = NAN;
  return ok;
}

// after step k's timed runs (each a whole reduction, the result zeroed first where it adds): what the last left
static int bench_recheck(void *p, int k) {
  bench_ctx *c = (bench_ctx *)p;
  gold_stats st;
  double gpu, tol;
  if (judge_step(c->s[k], c->a, c->gold, c->gold_u, c->sum_abs, c->integer_valued, c->sms, &st, &gpu, &tol)) return 1;
  printf("  %d %-15s FAIL after its timed runs: reduction error = %g, tolerance %.3g\n", c->s[k]->step, c->s[k]->name,
         gpu - (c->s[k]->step == 5 ? (double)c->gold_u : c->gold), tol);
  return 0;
}

static void bench_run(void *p, int k) {
  bench_ctx *c = (bench_ctx *)p;
  c->s[k]->run(c->a);
}

// prog=reduction_<name>, and x_cub: CUB's time / the step's time (step 0 is CUB)
static void bench_keys(void *p, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra) {
  bench_ctx *c = (bench_ctx *)p;
  const ladder_step *s = c->s[k];
  snprintf(prog, nprog, "reduction_%s", s->name);
  snprintf(extra, nextra, "step=%d threads=%d unroll=%d x_cub=%.3f", s->step, s->step ? c->threads : 0,
           s->step == 6 ? c->unroll : 0, ms[0] / ms[k]);
}

// -threads and -unroll, as typed or as the tuned table gave them: the same checks
static void check_block(long long n, int threads, int unroll, int step, int bench) {
  if (unroll != 1 && unroll != 2 && unroll != 4 && unroll != 8) args_fail("-unroll=%d: 1, 2, 4 or 8", unroll);
  if ((bench || step >= 4) && threads % 32)
    args_fail("-threads=%d: steps 4 to 6 need whole warps, a multiple of 32", threads);
  if ((step == 3 || step == 4 || step == 5 || bench) && ceil_div(n, threads) > 2147483647LL)
    args_fail("-n=%lld with %d threads per block needs more than 2^31 - 1 blocks: give more threads", n, threads);
}

int main(int argc, char **argv) {
  long long n = 1 << 24;
  int threads = LADDER_THREADS, step = 6, atomic = 0, forget_zero = 0, uniform = 0, sparse = 0, seed = 1, bench = 0;
  int reps = 20, unroll = FAST_UNROLL;
  arg_spec opts[] = {
      {"n", ARG_LONG, &n, 1, (double)MAX_N, "number of elements"},
      {"step", ARG_INT, &step, 0, 6,
       "the workbook's step, 2 to 6 (course step = this + 1 for 2-5; 0: CUB; step 1 is ./reduction)"},
      {"atomic", ARG_FLAG, &atomic, 0, 1, "step 3: one atomicAdd per block instead of partial sums on the host"},
      {"threads", ARG_INT, &threads, 1, 1024, "threads per block (a multiple of 32 for steps 4 to 6)"},
      {"unroll", ARG_INT, &unroll, 1, 8, "step 6: float4 loads in flight per thread, 1, 2, 4 or 8"},
      {"forget_zero", ARG_FLAG, &forget_zero, 0, 1, "steps 3 -atomic, 4, 5: do not zero the result (the classic bug)"},
      {"uniform", ARG_FLAG, &uniform, 0, 1, "random floats in [0, 1) instead of the whole numbers 0..9"},
      {"sparse", ARG_FLAG, &sparse, 0, 1, "whole numbers, one in 32 (and the last) 1, the rest 0: exact at 2^28"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the inputs"},
      {"bench", ARG_FLAG, &bench, 0, 1,
       "check and time every step (or a typed -step alone), CUB and a read-only stream; table and BENCH lines"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if (step == 1) args_fail("step 1 is the course's program: ./reduction");
  if (atomic && step != 3) args_fail("-atomic is a variant of step 3 only");
  if (forget_zero && !((step == 3 && atomic) || step == 4 || step == 5))
    args_fail("-forget_zero applies to the atomic steps only: 3 -atomic, 4, 5");
  check_block(n, threads, unroll, step, bench);
  int only = bench && args_given(argc, argv, "step"); // -bench -step=N: that step alone beside CUB
  if (uniform && step == 5 && !bench) args_fail("step 5 adds integers: -uniform does not apply");
  if (uniform && sparse) args_fail("-uniform or -sparse, not both");

  int dev = findCudaDevice(argc, argv);
  if (step == 6 && (!bench || only)) { // step 6 alone: practical 10's table for this GPU and n, unless typed
    if (tuned_settings(device_limits(dev)->name, "reduction_ladder", (double)n, argc, argv, opts, ARG_COUNT(opts)))
      check_block(n, threads, unroll, step, bench);
  } else if (bench && !only) // the whole ladder: one shape for every step (the table's line is step 6's alone)
    printf("settings: the whole ladder reads no tuned table, so that its steps compare: %d threads, -unroll=%d\n",
           threads, unroll);
  int nsm = device_limits(dev)->sms;
  // step 5 needs __reduce_add_sync (8.0 on). Asked of the kernel's own code as well as of the GPU: a build for
  // sm_75, run on an H100, holds the kernel's 7.5 branch (a __trap), whatever the GPU could do.
  char redux_why[256];
  int has_redux = kernel_can_run(reduction_reduce_add, dev, 80, "__reduce_add_sync", redux_why, sizeof(redux_why));
  if (step == 5 && !has_redux) return result_skip("step 5 %s", redux_why);
  if (bench && !only && !has_redux) printf("step 5 is left out of the table: it %s\n", redux_why);
  int with_ints = step == 5 || (bench && !only && has_redux);

  size_t bytes = (size_t)n * sizeof(float);
  size_t npartial = (size_t)ceil_div(n, threads) + 65536; // step 3(a)'s blocks, or step 6's resident blocks
  device_memory_check(bytes * (with_ints ? 2 : 1) + npartial * sizeof(float) + (bench ? 2 * bytes : 0),
                      bench ? "the floats, the ints, the partial sums and the copy test's two buffers"
                            : "the array and the partial sums",
                      args_given(argc, argv, "n"));

  // the inputs: whole numbers 0..9 (the course's), or random floats in [0, 1); from a small LCG, quick
  // at 2^28 elements and the same on every machine
  float *h_data = (float *)malloc(bytes);
  unsigned int *h_uint = with_ints ? (unsigned int *)malloc(bytes) : NULL;
  float *h_partial = (float *)malloc(npartial * sizeof(float));
  if (!h_data || !h_partial || (with_ints && !h_uint)) return result_fail("out of host memory");
  unsigned int state = (unsigned int)seed * 2654435761u + 12345u;
  for (long long i = 0; i < n; i++) {
    state = state * 1664525u + 1013904223u;
    unsigned int digit = sparse ? (unsigned int)((state >> 8) % 32u == 0u || i == n - 1) : (state >> 8) % 10u;
    h_data[i] = uniform ? (float)(state >> 8) * (1.0f / 16777216.0f) : (float)digit;
    if (h_uint) h_uint[i] = digit;
  }
  printf("n = %lld %s, %d threads per block\n", n,
         uniform ? "random floats in [0, 1)" : sparse ? "whole numbers 0 and 1 (one in 32 is 1)" : "whole numbers 0..9",
         threads);

  // Gold treatment, in double
  double t0 = wall_ms();
  double sum_abs;
  double gold = reduction_gold(h_data, (size_t)n, &sum_abs);
  unsigned long long gold_u = h_uint ? reduction_gold_uint(h_uint, (size_t)n) : 0;
  printf("reduction_gold: %.1f (ms)\n", wall_ms() - t0);

  // device arrays, allocated once for every step
  ladder_args a;
  memset(&a, 0, sizeof(a));
  a.n = (size_t)n;
  a.threads = threads;
  a.h_partial = h_partial;
  a.zero = !forget_zero;
  a.unroll = unroll;
  a.npartial = npartial;
  float *d_in;
  unsigned int *d_uin = NULL;
  checkCudaErrors(cudaMalloc((void **)&d_in, bytes));
  checkCudaErrors(cudaMemcpy(d_in, h_data, bytes, cudaMemcpyHostToDevice));
  if (with_ints) {
    checkCudaErrors(cudaMalloc((void **)&d_uin, bytes));
    checkCudaErrors(cudaMemcpy(d_uin, h_uint, bytes, cudaMemcpyHostToDevice));
  }
  a.d_in = d_in;
  a.d_uin = d_uin;
  checkCudaErrors(cudaMalloc((void **)&a.d_out, sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&a.d_uout, sizeof(unsigned long long)));
  checkCudaErrors(cudaMalloc((void **)&a.d_partial, npartial * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&a.d_count, sizeof(unsigned int)));
  checkCudaErrors(cudaMemset(a.d_count, 0, sizeof(unsigned int))); // step 6 leaves it 0 after every launch
  if (threads % 32 == 0) a.resident_blocks = fast_resident_blocks(dev, threads, unroll);
  cub_setup(&a); // CUB's temporary storage: asked for and allocated once, outside every timed region
  int integer_valued = !uniform;

  int ok = 1;
  if (!bench) {
    const ladder_step *s = NULL;
    for (int k = 0; k < NSTEPS; k++)
      if (steps[k].step == step && steps[k].atomic == (step == 3 ? atomic : steps[k].atomic)) s = &steps[k];
    gold_stats st;
    ok = check_step(s, &a, gold, gold_u, sum_abs, integer_valued, nsm, 1, &st);
    gold_report("sum", &st);
  } else {
    // every step (or the one a typed -step names), checked, then timed against the copy and CUB: one table, a
    // BENCH line each. A reduction reads n floats and writes one: its 100 % line is a read-only stream of the
    // same bytes, not a copy, which also writes (timing.h)
    bench_ref ref = bench_reference(dev, (double)bytes, reps);
    ref.read_only = 1;
    bench_ctx c = {{NULL}, &a, gold, sum_abs, gold_u, integer_valued, nsm, threads, unroll};
    const char *names[NSTEPS];
    int numbers[NSTEPS], step_reps[NSTEPS], passed[NSTEPS], nrun = 0;
    for (int k = 0; k < NSTEPS; k++) {
      int other = steps[k].step != step || (step == 3 && steps[k].atomic != atomic); // not the -step asked for
      if ((steps[k].step == 5 && !has_redux) || (only && k && other)) continue;
      c.s[nrun] = &steps[k];
      names[nrun] = steps[k].name;
      numbers[nrun] = steps[k].step;
      step_reps[nrun] = steps[k].step == 2 ? (reps < 3 ? reps : 3) : reps; // one block: slow at large n
      nrun++;
    }
    char header[192], size[32];
    snprintf(header, sizeof(header),
             "\n%lld x 4-byte elements, %.1f MB read; read-only stream %.1f GB/s, peak %.1f GB/s\n"
             "  step                ms      GB/s   %% read   x CUB",
             n, bytes * 1e-6, ref.read_GBps, ref.peak_GBps);
    snprintf(size, sizeof(size), "%lld", n);
    ladder L = {nrun, names, numbers, 15, &c, bench_check, bench_run, bench_recheck, 2, reps, step_reps, // calls
                header, "CUB", (double)bytes, 0.0, &ref, 7,                               // table: GB/s, x CUB
                "4", size, bench_keys, NULL};                                                   // BENCH lines
    double ms[NSTEPS];
    ok = ladder_bench(&L, ms, passed);
  }

  free(h_data);
  free(h_uint);
  free(h_partial);
  checkCudaErrors(cudaFree(d_in));
  if (d_uin) checkCudaErrors(cudaFree(d_uin));
  checkCudaErrors(cudaFree(a.d_out));
  checkCudaErrors(cudaFree(a.d_uout));
  checkCudaErrors(cudaFree(a.d_partial));
  checkCudaErrors(cudaFree(a.d_count));
  checkCudaErrors(cudaFree(a.d_temp));

  return result_check(ok, "a step's sum is outside its tolerance (see above)");
}
