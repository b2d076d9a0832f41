/*
 * prac11_check.cuh -- the workbook's lines after the course's, shared by stream_test.cu and multithread_test.cu:
 * each kernel's array against the CPU gold (prac11_gold.c), then the kernels' concurrency: each kernel's interval,
 * from an event pair on the stream it ran in, put on one timeline (ms from the course's start event), how many
 * overlap another, and their own times summed against the time elapsed. Then the verdict: any value off the gold
 * fails, and in a legacy build (no --default-stream per-thread) so does any overlap, which its default stream
 * forbids.
 */
#ifndef PRAC11_CHECK_CUH
#define PRAC11_CHECK_CUH

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac11_gold.h"

typedef struct {
  size_t nbad;       // values off the gold, in all
  long long first;   // the first bad value's index in the first bad array
  int bad;           // that array (-1: none)
  int overlapped, k; // kernels whose interval overlaps another's, of k
} prac11_report_t;

// what: "stream" or "iteration" (one array and one kernel each); k of them, n floats each
static prac11_report_t prac11_report(float *const *data, int k, int n, const char *what, float elapsed_ms,
                                     cudaEvent_t start, const cudaEvent_t *k_begin, const cudaEvent_t *k_end) {
  prac11_report_t r = {0, -1, -1, 0, k};
  size_t bytes = sizeof(float) * (size_t)n;
  float *h_gold = (float *)malloc(bytes), *h_x = (float *)malloc(bytes);
  if (!h_gold || !h_x) exit(result_fail("out of host memory"));
  // Gold treatment, then each array copied back and checked against it
  double t0 = wall_ms();
  prac11_gold(h_gold, n);
  double gold_ms = wall_ms() - t0;
  int first_inf = 0;
  while (first_inf < n && !isinf(h_gold[first_inf])) first_inf++;
  for (int i = 0; i < k; i++) {
    checkCudaErrors(cudaMemcpy(h_x, data[i], bytes, cudaMemcpyDeviceToHost));
    long long f;
    size_t b = prac11_compare(h_x, h_gold, (size_t)n, &f);
    if (b && r.bad < 0) r.bad = i, r.first = f;
    if (b && r.bad == i) printf("%s %d: x[%lld] = %g, the gold's %g\n", what, i, f, h_x[f], h_gold[f]);
    r.nbad += b;
  }
  printf("results: %d %ss of %d floats against the gold (sqrt(3.14159^i) in double, stored as float", k, what, n);
  if (first_inf < n) printf(": +inf from i = %d", first_inf);
  printf("; %.1f ms): %zu differ\n", gold_ms, r.nbad);
  free(h_gold), free(h_x);

  // the concurrency: each kernel's interval on one timeline, whichever stream its events are in
  double begin[PRAC11_K_MAX], end[PRAC11_K_MAX];
  for (int i = 0; i < k; i++) {
    float b, e;
    checkCudaErrors(cudaEventElapsedTime(&b, start, k_begin[i]));
    checkCudaErrors(cudaEventElapsedTime(&e, start, k_end[i]));
    begin[i] = b, end[i] = e;
  }
  prac11_concurrency c = prac11_overlap(begin, end, k);
  r.overlapped = c.overlapped;
  printf("%d of %d kernels overlapped; their own times (an event pair on each kernel's stream) sum to %.3f ms "
         "against %.3f ms elapsed, the kernels spanning %.3f ms of it: %.2f kernels at once on average\n",
         c.overlapped, k, c.sum_ms, elapsed_ms, c.span_ms, c.span_ms > 0 ? c.sum_ms / c.span_ms : 0.0);
  return r;
}

// the verdict, last, once the caller has freed what it holds
static int prac11_verdict(const prac11_report_t *r, int n, const char *what) {
  if (r->nbad)
    return result_check(0, "%zu of %zu values differ from the gold, the first %s %d's x[%lld]", r->nbad,
                        (size_t)r->k * n, what, r->bad, r->first);
#ifndef CUDA_API_PER_THREAD_DEFAULT_STREAM
  if (r->overlapped)
    return result_check(0, "%d of %d kernels overlapped, but the legacy default stream orders them", r->overlapped,
                        r->k);
#endif
  return result_pass();
}

#endif /* PRAC11_CHECK_CUH */
