/*
 * prac11_check.cuh -- the workbook's lines after the course's, shared by stream_test.cu and multithread_test.cu:
 * each kernel's array against the CPU gold (prac11_gold.c), then the kernels' concurrency: each kernel's interval,
 * from an event pair on the stream it ran in, put on one timeline (ms from the course's start event), how many
 * overlap another, and their own times summed against the time elapsed. Step 2's lines: each kernel's interval
 * by its own %globaltimer stamps (prac11_timeline.cuh) beside its events', and the overlaps counted again from
 * them. Then the verdict: any value off the gold fails, so does a kernel without both stamps, and in a legacy
 * build (no --default-stream per-thread) so does any overlap, by events or by stamps: its default stream
 * forbids it.
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
#include "prac11_timeline.cuh"

typedef struct {
  size_t nbad;                                         // values off the gold, in all
  long long first;                                     // the first bad value's index in the first bad array
  int bad;                                             // that array (-1: none)
  int overlapped, k;                                   // kernels whose interval overlaps another's, of k
  double ev_begin[PRAC11_K_MAX], ev_end[PRAC11_K_MAX]; // by the events: ms from the course's start event
  double gt_begin[PRAC11_K_MAX], gt_end[PRAC11_K_MAX]; // step 2, by %globaltimer: ms from the earliest start
  prac11_stamps_t gt;                                  // its missing stamps
  long long gt_step_ns;                                // %globaltimer's step, measured (0: it never changed)
  int gt_overlapped;                                   // kernels that overlap another by %globaltimer
} prac11_report_t;

// what: "stream" or "iteration" (one array and one kernel each); k of them, n floats each
static prac11_report_t prac11_report(float *const *data, int k, int n, const char *what, float elapsed_ms,
                                     cudaEvent_t start, const cudaEvent_t *k_begin, const cudaEvent_t *k_end) {
  prac11_report_t r;
  memset(&r, 0, sizeof(r));
  r.first = -1, r.bad = -1, r.k = k;
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
  for (int i = 0; i < k; i++) {
    float b, e;
    checkCudaErrors(cudaEventElapsedTime(&b, start, k_begin[i]));
    checkCudaErrors(cudaEventElapsedTime(&e, start, k_end[i]));
    r.ev_begin[i] = b, r.ev_end[i] = e;
  }
  prac11_concurrency c = prac11_overlap(r.ev_begin, r.ev_end, k);
  r.overlapped = c.overlapped;
  printf("%d of %d kernels overlapped; their own times (an event pair on each kernel's stream) sum to %.3f ms "
         "against %.3f ms elapsed, the kernels spanning %.3f ms of it: %.2f kernels at once on average\n",
         c.overlapped, k, c.sum_ms, elapsed_ms, c.span_ms, c.span_ms > 0 ? c.sum_ms / c.span_ms : 0.0);
  return r;
}


// %globaltimer's own step, measured after the run (untimed): one thread reads the timer over and over and keeps
// the smallest nonzero change it sees, over at most 2^20 reads or 64 changes. A loop slower than the step sees
// a multiple of it: so the step is that or finer. 0: the timer never changed
__global__ void prac11_timer_step_kernel(unsigned long long *out) {
  unsigned long long last, t, best = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(last));
  for (int i = 0, changes = 0; i < (1 << 20) && changes < 64; i++) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t != last) {
      if (best == 0 || t - last < best) best = t - last;
      last = t;
      changes++;
    }
  }
  *out = best;
}

static long long prac11_timer_step_ns(void) {
  unsigned long long *d_step, step = 0;
  checkCudaErrors(cudaMalloc((void **)&d_step, sizeof(*d_step)));
  prac11_timer_step_kernel<<<1, 1>>>(d_step);
  getLastCudaError("prac11_timer_step_kernel execution failed");
  checkCudaErrors(cudaMemcpy(&step, d_step, sizeof(step), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(d_step));
  return (long long)step;
}

// Step 2: each kernel's own start and end stamps (d_stamps: two per kernel), one line per kernel beside its
// events' interval, each in ms from the earliest start by the same clock; then the overlaps they show, and the
// timer's step (prac11_timer_step_ns, measured after the run). who_name, who[i]: kernel i's stream or host thread
static void prac11_stamps_report(const unsigned long long *d_stamps, const char *who_name, const int *who,
                                 prac11_report_t *r) {
  int k = r->k;
  unsigned long long h_stamps[2 * PRAC11_K_MAX];
  checkCudaErrors(cudaMemcpy(h_stamps, d_stamps, 2 * k * sizeof(*h_stamps), cudaMemcpyDeviceToHost));
  r->gt = prac11_stamp_intervals(h_stamps, k, r->gt_begin, r->gt_end);
  double ev0 = r->ev_begin[0];
  for (int i = 1; i < k; i++) ev0 = fmin(ev0, r->ev_begin[i]);
  printf("when each kernel ran, ms from the first start: by thread 0's %%globaltimer stamps (on entry, and after "
         "the block's last __syncthreads), then by the event pair on its stream\n");
  for (int i = 0; i < k; i++) {
    printf("kernel %d (%s %d): ", i, who_name, who[i]);
    unsigned long long b = h_stamps[2 * i], e = h_stamps[2 * i + 1];
    if (b == 0 || e == 0 || e <= b)
      printf("no whole pair of stamps (start %llu, end %llu ns)", b, e);
    else if (r->gt.missing)
      printf("stamps %llu to %llu ns", b, e);
    else
      printf("%.3f to %.3f by %%globaltimer", r->gt_begin[i], r->gt_end[i]);
    printf(", %.3f to %.3f by events\n", r->ev_begin[i] - ev0, r->ev_end[i] - ev0);
  }
  if (r->gt.missing) {
    printf("%%globaltimer: %d of %d kernels left no whole pair of stamps\n", r->gt.missing, k);
    return;
  }
  // How the timer reaches each SM is not documented: two stamps read on two SMs within one of its steps need not
  // be in the order they were taken. So an overlap no longer than the timer's step is not counted (each end is
  // taken one step earlier): a legacy build's next kernel may start microseconds after the last one ended
  r->gt_step_ns = prac11_timer_step_ns();
  double end_less[PRAC11_K_MAX];
  for (int i = 0; i < k; i++) end_less[i] = fmax(r->gt_begin[i], r->gt_end[i] - r->gt_step_ns * 1e-6);
  r->gt_overlapped = prac11_overlap(r->gt_begin, end_less, k).overlapped;
  prac11_concurrency c = prac11_overlap(r->gt_begin, r->gt_end, k);
  printf("%d of %d kernels overlapped by %%globaltimer (by more than its step); their own times sum to "
         "%.3f ms, the kernels spanning %.3f ms: %.2f kernels at once on average\n",
         r->gt_overlapped, k, c.sum_ms, c.span_ms, c.span_ms > 0 ? c.sum_ms / c.span_ms : 0.0);
  printf("%%globaltimer step: %.3f us (the smallest change one thread saw, reading it in a loop: the step is that "
         "or finer)\n", r->gt_step_ns * 1e-3);
}

// Step 5: -timeline=FILE (f, opened by prac11_timeline_open; NULL: none), a row per kernel and source
static void prac11_timeline_write(FILE *f, const char *path, const char *program, const int *who,
                                  const prac11_report_t *r) {
  if (f == NULL) return;
  prac11_timeline_rows(f, 1, program, PRAC11_BUILD, "event", who, r->ev_begin, r->ev_end, r->k);
  if (!r->gt.missing)
    prac11_timeline_rows(f, 0, program, PRAC11_BUILD, "globaltimer", who, r->gt_begin, r->gt_end, r->k);
  if (prac11_timeline_close(f) != 0) exit(result_fail("-timeline=%s: writing it failed", path));
  printf("timeline: %s, %d rows (python3 timeline.py %s draws it)\n", path, r->gt.missing ? r->k : 2 * r->k, path);
}

// the verdict, last, once the caller has freed what it holds
static int prac11_verdict(const prac11_report_t *r, int n, const char *what) {
  if (r->nbad)
    return result_check(0, "%zu of %zu values differ from the gold, the first %s %d's x[%lld]", r->nbad,
                        (size_t)r->k * n, what, r->bad, r->first);
  if (r->gt.missing)
    return result_check(0,
                        "%d of %d kernels have no start and end stamps (a 0, or an end not after its start), the "
                        "first kernel %d",
                        r->gt.missing, r->k, r->gt.first_missing);
#ifndef CUDA_API_PER_THREAD_DEFAULT_STREAM
  if (r->overlapped)
    return result_check(0, "%d of %d kernels overlapped, but the legacy default stream orders them", r->overlapped,
                        r->k);
  if (r->gt_overlapped)
    return result_check(0, "%d of %d kernels overlapped by %%globaltimer, but the legacy default stream orders them",
                        r->gt_overlapped, r->k);
#endif
  return result_pass();
}

#endif /* PRAC11_CHECK_CUH */
