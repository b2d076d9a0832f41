/*
 * work_streaming2.cu -- practical 12, step 2 (the course's step 4, as its solution work_streaming2.cu does it):
 * work_streaming's data cut into chunks, each copied in, processed and copied back in a stream of its own, from
 * pinned host memory, so that the copies of some chunks run while the kernels of others do. The course's design:
 * the host array from cudaMallocHost (page-locked: the copy engines read and write it directly, and a copy from
 * or to it is queued and returns at once), 8 streams, 8 chunks of 2^24 doubles, nblocks = 2^16 blocks of 256
 * threads each; chunk i in stream i: cudaMemcpyAsync in, do_work<<<nblocks, 256, 0, s_i>>>(..., i nblocks),
 * cudaMemcpyAsync out. It prints its time. The workbook adds, after the course's line:
 *  - a stop that waits for every stream: each records an event after its last chunk, and stream 0 waits on them
 *    all. The course records its stop on stream 0 straight after the loop, which waits for the streams only
 *    because stream 0 is the legacy default stream and the streams blocking ones; where it would fall is shown;
 *  - every run's output against the CPU gold (prac12_gold.c), the device array poisoned with NaN before each;
 *  - measured in the same run: the copy rates each way from pageable and from pinned memory (one chunk and the
 *    whole array), both ways at once (two streams), the kernel alone on the whole array; the same work not chunked,
 *    from pageable memory (work_streaming's) and from pinned memory, timed apart, to tell how much of the gain is
 *    the pinned copy and how much the overlap; and the chunked time against its bounds (prac11's pipe_bound, from
 *    whole-array times: work_streaming2.cuh, ws2_bound, says why and what it assumes).
 * Try -chunks= (1: nothing to overlap; thousands: each chunk's set-up costs), -streams= (1: nothing overlaps;
 * CUDA_DEVICE_MAX_CONNECTIONS, the GPU's hardware queues, 8 by default), -n= and -iters= (the kernel's share).
 *   nvcc -O3 -Xcompiler -fopenmp -arch=native -I../common work_streaming2.cu prac12_gold.c -o work_streaming2
 * The exercise (make exercises): exercises/work_streaming2, whose host array and chunk loop body are the
 * learner's, exercises/async_copies.cuh.
 */
#define COURSE_STEPS "practical 12, workbook step 2 (course step 4, as its solution work_streaming2 does it)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 2)s in exercises/async_copies.cuh"
#endif
// under a GPU profile (make check-profiles), no green context: in one the legacy default stream orders no other
// stream (prac11/stream_test.cu), so the course's stop and the exercise's starting version would lose their order
#define NO_GREEN_CONTEXT "the legacy default stream orders the other streams only outside one"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#define PRAC11_TIMELINE_SCRIPT "../prac11/timeline.py" // -timeline=FILE (the timeline pictures): prac11's marks
#define PRAC11_TIMELINE_NO_STAMPS
#include "../prac11/prac11_timeline.cuh"
#include "prac12_gold.h"
#include "work_streaming2.cuh" // the chunks, the flags' limits, the gate, the bounds (plain C, tested by tests/)

#define WS2_REPS 3     // timed runs of each copy and of the kernel, after a warm-up: the median is shown
#define WS2_VER_REPS 5 // runs of each workbook version (the course's run before them is the warm-up): the median

// what the build means by stream 0: nvcc defines this for --default-stream per-thread
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#define WS2_STREAM0 "the per-thread default stream"
#else
#define WS2_STREAM0 "the legacy default stream"
#endif

#include "do_work.cuh" // the course's kernel, shared by the three programs

#ifndef EXERCISE
// step 2: page-locked (pinned) host memory. The copy engines read and write it directly, where pageable memory
// goes through a driver's staging buffer a piece at a time, so a copy from or to it is queued and returns at once
static cudaError_t h_data_alloc(double **h, size_t bytes) { return cudaMallocHost((void **)h, bytes); }
static void h_data_free(double *h) { checkCudaErrors(cudaFreeHost(h)); }

// step 2: chunk c in stream s, the course's loop body: its copy in, the kernel on its blocks (idx: its first
// block), its copy out, each queued in s and returning at once, so that the host queues every chunk before the
// first is done and the streams run them side by side. The launch is checked by cudaGetLastError, not
// getLastCudaError, whose DEBUG=1 synchronise would wait for the gate's held streams
static void issue_chunk(double *h_data, double *d_data, int N, ws2_chunk c, int iters, cudaStream_t s) {
  size_t bytes = sizeof(double) * c.count;
  checkCudaErrors(cudaMemcpyAsync(d_data + c.first, h_data + c.first, bytes, cudaMemcpyHostToDevice, s));
  do_work<<<c.nblocks, WS2_BLOCK, 0, s>>>(d_data, N, c.block0, iters);
  checkCudaErrors(cudaGetLastError());
  checkCudaErrors(cudaMemcpyAsync(h_data + c.first, d_data + c.first, bytes, cudaMemcpyDeviceToHost, s));
}
#else
#include "exercises/async_copies.cuh" // make exercises: the learner's
#endif

typedef struct {
  int n, chunks, nstreams, iters;
  size_t bytes;
  double *h_data, *h_page, *d_data; // the course's array (pinned), the inputs (pageable), the device's
  cudaStream_t s[WS2_STREAMS_MAX];
  cudaEvent_t start, stop, course_stop, done[WS2_STREAMS_MAX];
} ws2_t;
#include "ws2_both.cuh"     // both ways at once, each copy's end timed (the bound's link)
#include "ws2_timeline.cuh" // -timeline's marked runs (the timeline pictures)

// the versions: the course's design (its run, the first; and again, warm), then the same work not chunked
enum { COURSE, CHUNKED, PINNED, PAGEABLE, NVER };
static const char *ver_name[NVER] = {"chunked, pinned: the course's run (the first)", "chunked, pinned (again, warm)",
                                     "not chunked, pinned", "not chunked, pageable (work_streaming's)"};
static const char *ver_prog[NVER] = {"work_streaming2", "work_streaming2_chunked", "work_streaming2_pinned",
                                     "work_streaming2_pageable"};

// version v's work, queued: the chunks over the streams, chunk i in stream i % streams (the course's: 8 and 8);
// or all of it as one chunk in stream 0 of ours, from pinned memory; or work_streaming's, on stream 0, cudaMemcpy
// from pageable memory
static void issue(ws2_t *w, int v) {
  if (v == COURSE || v == CHUNKED)
    for (int i = 0; i < w->chunks; i++)
      issue_chunk(w->h_data, w->d_data, w->n, ws2_chunk_of(w->n, w->chunks, i), w->iters, w->s[i % w->nstreams]);
  if (v == PINNED) issue_chunk(w->h_data, w->d_data, w->n, ws2_chunk_of(w->n, 1, 0), w->iters, w->s[0]);
  if (v == PAGEABLE) {
    checkCudaErrors(cudaMemcpy(w->d_data, w->h_page, w->bytes, cudaMemcpyHostToDevice));
    do_work<<<ws2_blocks(w->n), WS2_BLOCK>>>(w->d_data, w->n, 0, w->iters);
    getLastCudaError("do_work execution failed");
    checkCudaErrors(cudaMemcpy(w->h_page, w->d_data, w->bytes, cudaMemcpyDeviceToHost));
  }
}

static double ms_since(cudaEvent_t start, cudaEvent_t e) {
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, e));
  return ms;
}

// one timed run of version v, the device array poisoned with NaN (0xff bytes) first. The start on stream 0, waited
// for, so that every stream's work comes after it, whatever stream 0 means; after the work an event in each stream,
// which stream 0 waits on before the stop. *course_ms: where the course's stop, recorded on stream 0 after the
// loop, falls; *last_ms: the last stream's end. Every record comes before any wait: under the legacy default
// stream, work queued to a blocking stream also waits for what stream 0 was given before it
static double timed_run(ws2_t *w, int v, double *course_ms, double *last_ms) {
  checkCudaErrors(cudaMemset(w->d_data, 0xff, w->bytes));
  checkCudaErrors(cudaDeviceSynchronize());
  checkCudaErrors(cudaEventRecord(w->start, 0));
  checkCudaErrors(cudaEventSynchronize(w->start));
  issue(w, v);
  for (int j = 0; j < w->nstreams; j++) checkCudaErrors(cudaEventRecord(w->done[j], w->s[j]));
  checkCudaErrors(cudaEventRecord(w->course_stop, 0));
  for (int j = 0; j < w->nstreams; j++) checkCudaErrors(cudaStreamWaitEvent(0, w->done[j], 0));
  checkCudaErrors(cudaEventRecord(w->stop, 0));
  checkCudaErrors(cudaEventSynchronize(w->stop));
  *course_ms = ms_since(w->start, w->course_stop), *last_ms = 0.0;
  for (int j = 0; j < w->nstreams; j++) {
    double end = ms_since(w->start, w->done[j]);
    if (end > *last_ms) *last_ms = end;
  }
  return ms_since(w->start, w->stop);
}

// the exercise's check that the loop queues its work and returns (the gate, work_streaming2.cuh; no timing): the
// first chunks (WS2_GATE_CHUNKS at most) issued with every stream held back by the hold until the loop has
// returned. 1: it returned while the streams were held; 0: it waited for them, until the hold gave up
static int gate_run(ws2_t *w) {
  ws2_gate g = {WS2_GATE_SHUT, WS2_GATE_MS};
  cudaEvent_t held;
  checkCudaErrors(cudaEventCreateWithFlags(&held, cudaEventDisableTiming));
  checkCudaErrors(cudaLaunchHostFunc(w->s[0], ws2_gate_hold, &g));
  checkCudaErrors(cudaEventRecord(held, w->s[0]));
  for (int j = 1; j < w->nstreams; j++) checkCudaErrors(cudaStreamWaitEvent(w->s[j], held, 0));
  for (int i = 0; i < w->chunks && i < WS2_GATE_CHUNKS; i++)
    issue_chunk(w->h_data, w->d_data, w->n, ws2_chunk_of(w->n, w->chunks, i), w->iters, w->s[i % w->nstreams]);
  int state = ws2_gate_settle(&g, WS2_GATE_OPENED);
  checkCudaErrors(cudaDeviceSynchronize()); // the hold has returned: g may go
  checkCudaErrors(cudaEventDestroy(held));
  return state == WS2_GATE_OPENED;
}

// ---- the bounds' measurements, each timed by time_median_ms with events on stream 0 ---------------------------
static void copy_once(void *a) { // one copy on stream 0, its direction from the pointers
  timing_copy_args *c = (timing_copy_args *)a;
  checkCudaErrors(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDefault, 0));
}

typedef struct {
  double *d_data;
  int n, iters;
  ws2_chunk c;
} kernel_args;

static void kernel_once(void *a) { // in place, again and again: the values stay in [0, 1], which costs the same
  kernel_args *k = (kernel_args *)a;
  do_work<<<k->c.nblocks, WS2_BLOCK>>>(k->d_data, k->n, k->c.block0, k->iters);
  getLastCudaError("do_work execution failed");
}

int main(int argc, char **argv) {
  int total_data = 1 << 27, iters = 20, chunks = 8, nstreams = 8;
  const char *timeline = NULL;
  arg_spec opts[] = {
      {"n", ARG_INT, &total_data, 1, WS2_N_MAX, "doubles streamed through the GPU (the course's 1<<27, 1 GiB)"},
      {"iters", ARG_INT, &iters, 1, 1000,
       "steps of x = sqrt(|cos x|) per double: the kernel's length (the course's 20)"},
      {"chunks", ARG_INT, &chunks, 1, WS2_CHUNKS_MAX, "chunks of whole blocks, as even as they go (the course's 8)"},
      {"streams", ARG_INT, &nstreams, 1, WS2_STREAMS_MAX, "streams, chunk i in stream i % streams (the course's 8)"},
      {"timeline", ARG_WORD, &timeline, 0, 0,
       "each chunk's copy in, kernel and copy out to this CSV file (the timeline pictures)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  prac11_marks_t *marks = prac11_marks_open(timeline, 3 * chunks); // a path that cannot be written: bad input
  char why[300];
  if (!ws2_chunks_fit(total_data, chunks, why, sizeof(why))) args_fail("%s", why);
  int dev = findCudaDevice(argc, argv);
  ws2_t w;
  memset(&w, 0, sizeof(w));
  w.n = total_data, w.chunks = chunks, w.nstreams = nstreams, w.iters = iters;
  w.bytes = sizeof(double) * (size_t)total_data;
  ws2_chunk last = ws2_chunk_of(w.n, chunks, chunks - 1); // the smallest chunk: the bounds are scaled to it
  size_t chunk_bytes = sizeof(double) * last.count;
  device_memory_check(w.bytes, "the data", args_given(argc, argv, "n"));
  if (!prac12_host_memory_ok(3 * w.bytes, "the data (pinned), the inputs and the gold", "/proc/meminfo", why,
                             sizeof(why)))
    return result_skip("%s", why);

  // Allocate 1 GB of data (at the default size), pinned; the workbook's: the inputs again, pageable, for
  // work_streaming's version and to set the pinned array back; the gold
  double *h_gold = (double *)malloc(w.bytes);
  w.h_page = (double *)malloc(w.bytes);
  if (!h_gold || !w.h_page)
    return result_fail("out of host memory: %.2f GiB for the inputs and the gold", 2.0 * w.bytes / (1 << 30));
  cudaError_t e = h_data_alloc(&w.h_data, w.bytes);
  if (e != cudaSuccess)
    return result_skip("host memory for the data, %.2f GiB, could not be had: %s", (double)w.bytes / (1 << 30),
                       cudaGetErrorString(e));
  checkCudaErrors(cudaMalloc((void **)&w.d_data, w.bytes));

  // Initialise host data: the course's srand(0) and rand()/RAND_MAX (prac12_inputs) into h_page, h_data, h_gold
  prac12_inputs(w.h_page, (size_t)w.n, 1.0);
  memcpy(w.h_data, w.h_page, w.bytes);
  memcpy(h_gold, w.h_page, w.bytes);

  // Create the streams (blocking ones, as cudaStreamCreate makes) and the events
  for (int j = 0; j < nstreams; j++) {
    checkCudaErrors(cudaStreamCreate(&w.s[j]));
    checkCudaErrors(cudaEventCreate(&w.done[j]));
  }
  checkCudaErrors(cudaEventCreate(&w.start));
  checkCudaErrors(cudaEventCreate(&w.stop));
  checkCudaErrors(cudaEventCreate(&w.course_stop));

  // do_work's code loaded now, not at its first launch inside the course's timed run: CUDA 13 loads a module
  // lazily, which the course's runs predate (and a PTX-only build, make check-arch, would be compiled there too)
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, do_work));

  // the course's run: every chunk copied in, processed and copied back, in its stream
  double ms[NVER], course_stop[NVER], end[NVER];
  ms[COURSE] = timed_run(&w, COURSE, &course_stop[COURSE], &end[COURSE]);
  printf("Total processing time:  %g ms\n", ms[COURSE]);

  // Gold treatment, then the versions of the workbook, each checked: the pinned array set back to the inputs
  // first; work_streaming's last, in place on the pageable inputs
  double t0 = wall_ms();
  prac12_gold(h_gold, (size_t)w.n, iters);
  double gold_ms = wall_ms() - t0;
  gold_stats st[NVER];
  compare_double(w.h_data, h_gold, (size_t)w.n, 0.0, PRAC12_RTOL, &st[COURSE]);
  // each WS2_VER_REPS times, every run checked (the worst run's errors kept), the median shown; the pageable runs
  // work in place on h_page, so each starts from the inputs, kept in h_data
  for (int v = CHUNKED; v < NVER; v++) {
    double t[WS2_VER_REPS], cs[WS2_VER_REPS], en[WS2_VER_REPS], *work = v == PAGEABLE ? w.h_page : w.h_data;
    if (v == PAGEABLE) memcpy(w.h_data, w.h_page, w.bytes); // the inputs, kept: h_page holds them until its run
    for (int r = 0; r < WS2_VER_REPS; r++) {
      if (r > 0 || v != PAGEABLE) memcpy(work, v == PAGEABLE ? w.h_data : w.h_page, w.bytes);
      t[r] = timed_run(&w, v, &cs[r], &en[r]);
      gold_stats one;
      compare_double(work, h_gold, (size_t)w.n, 0.0, PRAC12_RTOL, &one);
      if (r == 0 || one.nbad > st[v].nbad || (one.nbad == st[v].nbad && one.max_rel_err > st[v].max_rel_err))
        st[v] = one;
    }
    int m = ws2_median_index(t, WS2_VER_REPS); // the run whose time is the median, its stop and end with it
    ms[v] = t[m], course_stop[v] = cs[m], end[v] = en[m];
  }

  // the exercise's checks: the host array pinned (the CUDA runtime says what it is), the loop's copies queued
  // (not checked where CUDA_LAUNCH_BLOCKING makes every launch wait: the hold would hold the loop by design)
  int blocking = ws2_launch_blocking(getenv("CUDA_LAUNCH_BLOCKING")), gate_ok = blocking || gate_run(&w);
  cudaPointerAttributes pa;
  checkCudaErrors(cudaPointerGetAttributes(&pa, w.h_data));
  const char *kind[4] = {"unregistered (pageable) memory", "pinned host memory", "device memory", "managed memory"};
  const char *h_kind = pa.type >= 0 && pa.type < 4 ? kind[pa.type] : "memory of an unknown kind";

  // the copy rates: [pinned][out][whole array], one chunk (the last) or the whole array, on stream 0
  double *host[2] = {w.h_page, w.h_data}, rate[2][2][2], copy_ms[2][2][2];
  for (int p = 0; p < 2; p++)
    for (int out = 0; out < 2; out++)
      for (int all = 0; all < 2; all++) {
        size_t off = all ? 0 : (size_t)last.first, len = all ? w.bytes : chunk_bytes;
        timing_copy_args c = {w.d_data + off, host[p] + off, len};
        if (out) c.dst = host[p] + off, c.src = w.d_data + off;
        copy_ms[p][out][all] = time_median_ms(copy_once, &c, 1, WS2_REPS);
        rate[p][out][all] = len / (copy_ms[p][out][all] * 1e6);
      }
  // the bounds' measurements, of the whole array (ws2_bound says why): both ways at once, the first half in and
  // the second half out (no two copies share a buffer; n = 1 has no halves), then the kernel
  long long half = w.n / 2;
  size_t half_bytes = sizeof(double) * half;
  timing_copy_args first_in = {w.d_data, w.h_data, half_bytes},
                   second_out = {w.h_data + (w.n - half), w.d_data + (w.n - half), half_bytes};
  both_args b = {first_in, second_out, {NULL, NULL}, NULL, {NULL, NULL}};
  for (int k = 0; k < 2; k++) {
    checkCudaErrors(cudaStreamCreate(&b.s[k]));
    checkCudaErrors(cudaEventCreate(&b.join[k]));
  }
  checkCudaErrors(cudaEventCreate(&b.fork));
  // the rate while both ran, not the whole run's (ws2_both_rates says why): it is what the bound's link uses, as
  // the time of half_bytes each way at that rate
  double alone[2] = {rate[1][0][1], rate[1][1][1]}, both_r[2] = {0.0, 0.0}, first_ms = 0.0;
  double both_ms = half ? both_median(&b, WS2_REPS, alone, both_r, &first_ms) : 0.0;
  double both_link_ms = both_r[0] + both_r[1] > 0 ? 2.0 * half_bytes / ((both_r[0] + both_r[1]) * 1e6) : both_ms;
  kernel_args ka = {w.d_data, w.n, iters, ws2_chunk_of(w.n, 1, 0)};
  double k_ms = time_median_ms(kernel_once, &ka, 1, WS2_REPS);
  double in_ms = copy_ms[1][0][1], out_ms = copy_ms[1][1][1];
  pipe_bounds bd = ws2_bound(w.n, chunks, last.count, in_ms, k_ms, out_ms, both_link_ms, half);
  int copy_engines = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&copy_engines, cudaDevAttrAsyncEngineCount, dev));

  // the workbook's report: the outputs, the stop, the rates, the bounds, the versions against them
  printf("results: %d doubles (%.3f GiB) from the course's srand(0) and rand()/RAND_MAX, %d steps of x = "
         "sqrt(|cos x|), %d chunk%s of %d to %d blocks of %d threads over %d stream%s, against the CPU gold "
         "(double, %d threads, %.1f ms)\n",
         w.n, (double)w.bytes / (1 << 30), iters, chunks, chunks > 1 ? "s" : "", last.nblocks,
         ws2_chunk_of(w.n, chunks, 0).nblocks, WS2_BLOCK, nstreams, nstreams > 1 ? "s" : "", prac12_gold_threads(),
         gold_ms);
  for (int v = 0; v < NVER; v++) gold_report(ver_name[v], &st[v]);
  gold_stats tl[2]; // -timeline's runs, marked (ws2_timeline.cuh)
  ws2_timeline(&w, marks, h_gold, tl, h_kind);
  prac11_marks_close(marks);
  printf("the stop: an event in each stream after its last chunk, which stream 0 (%s, this build's) waits on; the "
         "last of them at %.3f ms, the stop at %.3f ms; the course's stop, on stream 0 straight after the loop, at "
         "%.3f ms: %s\n",
         WS2_STREAM0, end[COURSE], ms[COURSE], course_stop[COURSE],
         course_stop[COURSE] >= end[COURSE] ? "after the last stream's end (this stream 0 waits for the streams)"
                                            : "before the last stream's end: it timed the loop, not the work");
  ws2_print_rates(WS2_REPS, (double)chunk_bytes, (double)w.bytes, rate);
  ws2_print_bounds(chunks, (double)w.bytes, WS2_REPS, in_ms, out_ms, both_ms, 2.0 * half_bytes, both_r, first_ms, k_ms,
                   bd, copy_engines);
  ws2_print_versions(ver_name, ms, WS2_VER_REPS, bd); // the table, the bound's warning, the gain
  printf("the exercise's checks: the host array is %s (cudaPointerGetAttributes); with every stream held back, "
         "the chunk loop %s\n",
         h_kind,
         blocking  ? "was not run: CUDA_LAUNCH_BLOCKING makes every launch and copy wait for its work"
         : gate_ok ? "returned: its work was queued"
                   : "waited until the hold gave up: a copy waits for the GPU");
  char size[32], common[600];
  snprintf(size, sizeof(size), "%d", w.n);
  snprintf(common, sizeof(common),
           "ms_bound=%.4f ms_fill=%.4f ms_naive=%.4f ms_link=%.4f ms_kernel=%.4f in_GBps=%.1f out_GBps=%.1f "
           "both_GBps=%.1f both_in_GBps=%.1f both_out_GBps=%.1f page_in_GBps=%.1f page_out_GBps=%.1f "
           "all_in_GBps=%.1f all_out_GBps=%.1f all_page_in_GBps=%.1f all_page_out_GBps=%.1f",
           bd.bound_ms, bd.fill_ms, bd.naive_ms, bd.link_ms, k_ms, rate[1][0][0], rate[1][1][0],
           half ? 2 * half_bytes / (both_ms * 1e6) : 0.0, both_r[0], both_r[1], rate[0][0][0], rate[0][1][0],
           rate[1][0][1], rate[1][1][1], rate[0][0][1], rate[0][1][1]);
  for (int v = 0; v < NVER; v++) {
    char extra[900];
    int k = snprintf(extra, sizeof(extra), "chunks=%d streams=%d iters=%d x_pageable=%.2f", chunks, nstreams, iters,
                     ms[PAGEABLE] / ms[v]);
    if (v <= CHUNKED)
      k += snprintf(extra + k, sizeof(extra) - k, " pct_bound=%.1f pct_fill=%.1f", 100.0 * ms[v] / bd.bound_ms,
                    100.0 * ms[v] / bd.fill_ms);
    snprintf(extra + k, sizeof(extra) - k, " %s", common);
    print_bench("12", ver_prog[v], size, v == COURSE ? 1 : WS2_VER_REPS, ms[v], -1.0, NULL, extra);
  }

  // Release GPU and CPU memory; the workbook destroys the streams and events too
  for (int j = 0; j < nstreams; j++) {
    checkCudaErrors(cudaStreamDestroy(w.s[j]));
    checkCudaErrors(cudaEventDestroy(w.done[j]));
  }
  for (int k = 0; k < 2; k++) {
    checkCudaErrors(cudaStreamDestroy(b.s[k]));
    checkCudaErrors(cudaEventDestroy(b.join[k]));
  }
  checkCudaErrors(cudaEventDestroy(b.fork));
  for (cudaEvent_t e : {w.start, w.stop, w.course_stop}) checkCudaErrors(cudaEventDestroy(e));
  checkCudaErrors(cudaFree(w.d_data));
  h_data_free(w.h_data);
  free(w.h_page), free(h_gold);

  // the verdict: every output, then the exercise's two checks (the stop follows every stream's end by its waits)
  for (int v = 0; v < NVER; v++)
    if (st[v].nbad)
      return result_check(0, "%s: %zu of %d values outside tolerance, first at index %lld", ver_name[v], st[v].nbad,
                          w.n, st[v].first_bad);
  for (int r = 0; r < 2; r++)
    if (tl[r].nbad) return result_check(0, "-timeline's run %d: %zu values outside tolerance", r, tl[r].nbad);
  if (pa.type != cudaMemoryTypeHost)
    return result_check(0, "the host array is not pinned: cudaPointerGetAttributes says %s", h_kind);
  if (!gate_ok)
    return result_check(0,
                        "the chunk loop waited for the GPU: with every stream held back it returned only when the "
                        "hold gave up (%.0f s): a copy is synchronous (cudaMemcpy, or to or from pageable memory)",
                        WS2_GATE_MS / 1000);
  return result_pass();
}
