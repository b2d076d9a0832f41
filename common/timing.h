/*
 * timing.h -- timing that can be trusted: CUDA events, warm-up, repeats, the median.
 *
 * The plain C part (median, host wall clock) is usable from gcc-compiled tests; the CUDA part is
 * compiled only by nvcc.
 *
 *   float ms = time_median_ms(run_kernel, &args, 3, 20);   // 3 warm-up runs, median of 20
 *   double copy = copy_GBps(bytes, 20);                    // the 100 % line for bandwidth
 *   print_bench("1", "vector_add_vec4", "n=25000000", 20, ms, 3.0 * 4 * n, copy, NULL);
 *
 * Bandwidth is counted in GB/s with 1 GB = 1e9 bytes, over the fewest bytes the operation must move
 * (each input read once, each output written once).
 */
#ifndef TIMING_H
#define TIMING_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline int timing_cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* Median of v[0..n-1]; sorts v in place. The mean of the two middle values when n is even. */
static inline float median_float(float *v, int n) {
  if (n <= 0) return 0.0f;
  qsort(v, (size_t)n, sizeof(float), timing_cmp_float);
  return (n % 2) ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}

/* Host wall clock in milliseconds, for timing the CPU gold routines. */
static inline double wall_ms(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

#ifdef __CUDACC__
#include "helper_cuda.h"

typedef void (*timed_fn)(void *arg);

#define TIMING_MAX_REPS 1000

/* Runs fn(arg) `warmup` times untimed, then `reps` times, each between two events on the default
 * stream; returns the median in ms. fn must launch its work on the default stream and check it. */
static inline float time_median_ms(timed_fn fn, void *arg, int warmup, int reps) {
  float t[TIMING_MAX_REPS];
  if (reps < 1) reps = 1;
  if (reps > TIMING_MAX_REPS) reps = TIMING_MAX_REPS;
  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  for (int r = 0; r < warmup; r++) fn(arg);
  checkCudaErrors(cudaDeviceSynchronize());
  for (int r = 0; r < reps; r++) {
    checkCudaErrors(cudaEventRecord(start));
    fn(arg);
    checkCudaErrors(cudaEventRecord(stop));
    checkCudaErrors(cudaEventSynchronize(stop));
    checkCudaErrors(cudaEventElapsedTime(&t[r], start, stop));
  }
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));
  return median_float(t, reps);
}

typedef struct {
  void *dst;
  const void *src;
  size_t bytes;
} timing_copy_args;

static inline void timing_copy(void *p) {
  timing_copy_args *a = (timing_copy_args *)p;
  checkCudaErrors(cudaMemcpyAsync(a->dst, a->src, a->bytes, cudaMemcpyDeviceToDevice));
}

/* Device-to-device copy bandwidth for a buffer of `bytes`: the practical ceiling a memory-bound
 * kernel is measured against. Counts the bytes read plus the bytes written (2 * bytes). */
static inline double copy_GBps(size_t bytes, int reps) {
  void *src, *dst;
  checkCudaErrors(cudaMalloc(&src, bytes));
  checkCudaErrors(cudaMalloc(&dst, bytes));
  checkCudaErrors(cudaMemset(src, 0x5a, bytes)); /* touch the pages: never time untouched memory */
  checkCudaErrors(cudaMemset(dst, 0xa5, bytes));
  timing_copy_args a = {dst, src, bytes};
  float ms = time_median_ms(timing_copy, &a, 3, reps);
  checkCudaErrors(cudaFree(src));
  checkCudaErrors(cudaFree(dst));
  return 2.0 * (double)bytes / (ms * 1e-3) / 1e9;
}

/* One greppable line per measurement: BENCH prac=.. prog=.. n=.. reps=.. ms=.. GBps=.. pct_copy=.. [extra]
 * bytes < 0 leaves out GBps and pct_copy (for compute-bound work); extra is NULL or "key=value ...". */
static inline void print_bench(const char *prac, const char *prog, const char *size, int reps, double ms, double bytes,
                               double copy, const char *extra) {
  printf("BENCH prac=%s prog=%s n=%s reps=%d ms=%.4f", prac, prog, size, reps, ms);
  if (bytes >= 0) {
    double GBps = bytes / (ms * 1e-3) / 1e9;
    printf(" GBps=%.1f copy_GBps=%.1f pct_copy=%.1f", GBps, copy, 100.0 * GBps / copy);
  }
  if (extra && extra[0]) printf(" %s", extra);
  printf("\n");
}
#endif /* __CUDACC__ */

#endif /* TIMING_H */
