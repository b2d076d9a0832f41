/*
 * kernel_overlap.cu -- practical 12, step 1 (the course's steps 1-3): kernels too small to fill the GPU, run one
 * after another in one stream, then side by side in a stream each. The course's design: nblocks = 30 kernels of
 * one block of 1024 threads; do_work gives each thread one double and 200 steps of x = cos(x); x = sqrt(fabs(x))
 * on it (FP64 arithmetic, next to no memory traffic). Part 1 launches the 30 on the default stream between two
 * events: a stream runs its work in order, so they run one at a time, though each fills one SM at most. Part 2
 * puts each in a stream of its own, and the GPU may run them all at once. The course prints the two times; the
 * workbook adds, after them:
 *  - the data initialised (the course's kernel reads memory that nothing wrote) and set back to its inputs
 *    before each run, and every run's output against the CPU gold (prac12_gold.c; the tolerance: prac12_gold.h);
 *  - a stop that waits for every stream. The course records its stop on stream 0 right after the launches: that
 *    waits for the 30 streams only because stream 0 is the legacy default stream and cudaStreamCreate's streams
 *    are blocking ones. Built with --default-stream per-thread, or run with -stream0=per-thread, it would time
 *    the launches alone. Here each stream records an event after its kernel and stream 0 waits on them all
 *    before the stop: the kernels' end, whatever stream 0 means;
 *  - both parts again with an event pair around each kernel on its stream (prac11's measure, prac11_overlap):
 *    how many kernels overlapped (none can in one stream), and where the course's stop would have fallen.
 * Try -kernels=1 to 128, -iters= (each kernel's length), -stream0=per-thread, and CUDA_DEVICE_MAX_CONNECTIONS=1
 * or 32 (the hardware queues the streams share; the driver's default is 8). -timeline=FILE writes the event-pair
 * runs' intervals as CSV (prac11's format), which ../prac11/timeline.py draws: serialised against a stream each.
 *   nvcc -O3 -Xcompiler -fopenmp -arch=native -I../common kernel_overlap.cu prac12_gold.c ../prac11/prac11_gold.c \
 *        -o kernel_overlap
 */
#define COURSE_STEPS "practical 12, workbook step 1 (course steps 1-3)"
// under a GPU profile (make check-profiles), no green context: in one the per-thread default stream is an invalid
// handle and the legacy one orders no other stream (prac11/stream_test.cu), and this program is about stream 0
#define NO_GREEN_CONTEXT "the default stream has its two meanings only outside one"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "../prac11/prac11_gold.h"       // prac11_overlap: which kernels' intervals overlap
#define PRAC11_TIMELINE_NO_STAMPS        // prac11's CSV writer alone (no %globaltimer stamps here)
#include "../prac11/prac11_timeline.cuh" // -timeline=FILE: prac11_timeline_open, _rows, _close
#include "prac12_gold.h"

#define KO_KERNELS_MAX 128 // kernels (streams) at most: the grids a GPU of compute capability 7.5 to 9.0 runs at once

// what the build means by stream 0: nvcc defines this for --default-stream per-thread
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#define KO_BUILD_LEGACY 0
#else
#define KO_BUILD_LEGACY 1
#endif

#include "do_work.cuh" // the course's kernel, shared by the three programs

// the workbook's: the data set back to its inputs before each run (untimed), so that each run's output is checked
// on its own; and each run's output against the gold, once all its work is done
static void reset(double *d_data, const double *h_x0, size_t bytes) {
  checkCudaErrors(cudaMemcpy(d_data, h_x0, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaDeviceSynchronize());
}

static void check_run(const double *d_data, double *h_out, const double *h_gold, int N, gold_stats *st) {
  checkCudaErrors(cudaDeviceSynchronize());
  checkCudaErrors(cudaMemcpy(h_out, d_data, sizeof(double) * N, cudaMemcpyDeviceToHost));
  compare_double(h_out, h_gold, (size_t)N, 0.0, PRAC12_RTOL, st);
}

static double ms_since(cudaEvent_t start, cudaEvent_t e) {
  float ms;
  checkCudaErrors(cudaEventElapsedTime(&ms, start, e));
  return ms;
}

// the workbook's measure of overlap (prac11's): the kernels again, in streams s[i], with an event pair around each
// on its own stream; begin[i], end[i]: ms from the start. *course_ms: where the course's stop, recorded on stream 0
// right after the launches, falls. Returns the time to the stop that waits on every stream's end event.
typedef struct {
  cudaStream_t s0;
  int nblocks, blocksize, iters;
  cudaEvent_t start, stop, course_stop, k_begin[KO_KERNELS_MAX], k_end[KO_KERNELS_MAX];
} timeline_t;

static double timeline_run(timeline_t *t, double *data, const cudaStream_t *s, double *begin, double *end,
                           double *course_ms) {
  checkCudaErrors(cudaEventRecord(t->start, t->s0));
  checkCudaErrors(cudaEventSynchronize(t->start));
  for (int i = 0; i < t->nblocks; i++) {
    checkCudaErrors(cudaEventRecord(t->k_begin[i], s[i]));
    do_work<<<1, t->blocksize, 0, s[i]>>>(data, t->nblocks * t->blocksize, i, t->iters);
    getLastCudaError("do_work execution failed");
    checkCudaErrors(cudaEventRecord(t->k_end[i], s[i]));
  }
  checkCudaErrors(cudaEventRecord(t->course_stop, t->s0));
  for (int i = 0; i < t->nblocks; i++) checkCudaErrors(cudaStreamWaitEvent(t->s0, t->k_end[i], 0));
  checkCudaErrors(cudaEventRecord(t->stop, t->s0));
  checkCudaErrors(cudaEventSynchronize(t->stop));
  for (int i = 0; i < t->nblocks; i++)
    begin[i] = ms_since(t->start, t->k_begin[i]), end[i] = ms_since(t->start, t->k_end[i]);
  *course_ms = ms_since(t->start, t->course_stop);
  return ms_since(t->start, t->stop);
}

static double latest(const double *v, int n) {
  double m = v[0];
  for (int i = 1; i < n; i++) m = v[i] > m ? v[i] : m;
  return m;
}

int main(int argc, char **argv) {
  int nblocks = 30, blocksize = 1024, iters = 200;
  const char *stream0 = NULL, *timeline = NULL;
  arg_spec opts[] = {
      {"kernels", ARG_INT, &nblocks, 1, KO_KERNELS_MAX,
       "kernels of one block each, a stream each in part 2 (the course's nblocks)"},
      {"threads", ARG_INT, &blocksize, 1, 1024, "threads per block, one double each (the course's blocksize)"},
      {"iters", ARG_INT, &iters, 1, 10000,
       "steps of x = sqrt(|cos x|) per thread: each kernel's length (the course's 200)"},
      {"stream0", ARG_WORD, &stream0, 0, 0,
       "legacy or per-thread: the default stream to use as stream 0 (default: the build's)"},
      {"timeline", ARG_WORD, &timeline, 0, 0,
       "write the event-pair runs' intervals to this CSV file (../prac11/timeline.py draws it)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  FILE *timeline_file = prac11_timeline_open(timeline); // a path that cannot be written: bad input, before the GPU
  cudaStream_t s0 = 0;                                  // the build's stream 0, as the course's code says it
  int legacy = KO_BUILD_LEGACY;
  if (stream0 != NULL && strcmp(stream0, "legacy") == 0)
    s0 = cudaStreamLegacy, legacy = 1;
  else if (stream0 != NULL && strcmp(stream0, "per-thread") == 0)
    s0 = cudaStreamPerThread, legacy = 0;
  else if (stream0 != NULL)
    args_fail("-stream0=%s: legacy or per-thread", stream0);
  findCudaDevice(argc, argv);
  int N = nblocks * blocksize;
  size_t bytes = sizeof(double) * N;
  device_memory_check(bytes, "the data", args_given(argc, argv, "kernels") || args_given(argc, argv, "threads"));

  // the workbook's inputs, in [-1, 0] (prac12_gold.h), and the gold of one run
  double *h_x0 = (double *)malloc(bytes), *h_gold = (double *)malloc(bytes), *h_out = (double *)malloc(bytes);
  if (!h_x0 || !h_gold || !h_out) return result_fail("out of host memory");
  prac12_inputs(h_x0, N, -1.0);
  memcpy(h_gold, h_x0, bytes);
  double t0 = wall_ms();
  prac12_gold(h_gold, N, iters);
  double gold_ms = wall_ms() - t0;

  double *data;
  checkCudaErrors(cudaMalloc((void **)&data, bytes));
  reset(data, h_x0, bytes); // the course leaves the data as cudaMalloc gives it
  gold_stats st[4];

  // do_work's code loaded now, not at its first launch inside part 1's timed region: CUDA 13 loads a module lazily,
  // which the course's runs predate (and a PTX-only build, make check-arch, would be compiled there too)
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, do_work));

  // part 1: the course's kernels, one after another on stream 0
  float time;
  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start, s0));
  dim3 dimBlock(blocksize, 1, 1);
  dim3 dimGrid(1, 1, 1);
  for (int i = 0; i < nblocks; i++) {
    do_work<<<dimGrid, dimBlock, 0, s0>>>(data, N, i, iters);
    getLastCudaError("do_work execution failed");
  }
  checkCudaErrors(cudaEventRecord(stop, s0));
  checkCudaErrors(cudaEventSynchronize(stop));
  checkCudaErrors(cudaEventElapsedTime(&time, start, stop));
  printf("Serialised time:  %g ms\n", time);
  float serial_ms = time;
  check_run(data, h_out, h_gold, N, &st[0]);

  // part 2: a stream each; the workbook's: an event per stream, recorded after its kernel, for the stop to wait on
  cudaStream_t streams[KO_KERNELS_MAX];
  cudaEvent_t done[KO_KERNELS_MAX];
  for (int i = 0; i < nblocks; i++) {
    checkCudaErrors(cudaStreamCreate(&streams[i]));
    checkCudaErrors(cudaEventCreate(&done[i]));
  }
  reset(data, h_x0, bytes);
  checkCudaErrors(cudaEventRecord(start, s0));
  checkCudaErrors(cudaEventSynchronize(start));
  double queue0 = wall_ms(), last0 = queue0; // the workbook's: when the host queues the launches
  for (int i = 0; i < nblocks; i++) {
    if (i == nblocks - 1) last0 = wall_ms();
    do_work<<<dimGrid, dimBlock, 0, streams[i]>>>(data, N, i, iters);
    getLastCudaError("do_work execution failed");
  }
  double queue_ms = wall_ms() - queue0, last_ms = last0 - queue0;
  // the course records its stop here; the workbook's waits for each stream's event first, whatever stream 0 is.
  // Every record before any wait: under the legacy default stream, a record in a blocking stream issued after a
  // wait of stream 0 would also wait for what stream 0 was given before it
  for (int i = 0; i < nblocks; i++) checkCudaErrors(cudaEventRecord(done[i], streams[i]));
  for (int i = 0; i < nblocks; i++) checkCudaErrors(cudaStreamWaitEvent(s0, done[i], 0));
  checkCudaErrors(cudaEventRecord(stop, s0));
  checkCudaErrors(cudaEventSynchronize(stop));
  checkCudaErrors(cudaEventElapsedTime(&time, start, stop));
  printf("Multi-stream parallel time:  %g ms\n", time);
  float streams_ms = time;
  double done_ms[KO_KERNELS_MAX];
  for (int i = 0; i < nblocks; i++) done_ms[i] = ms_since(start, done[i]);
  check_run(data, h_out, h_gold, N, &st[1]);

  // the workbook's runs: both parts again, an event pair around each kernel (prac11's measure of overlap)
  timeline_t t;
  t.s0 = s0, t.nblocks = nblocks, t.blocksize = blocksize, t.iters = iters, t.start = start, t.stop = stop;
  checkCudaErrors(cudaEventCreate(&t.course_stop));
  for (int i = 0; i < nblocks; i++) {
    checkCudaErrors(cudaEventCreate(&t.k_begin[i]));
    checkCudaErrors(cudaEventCreate(&t.k_end[i]));
  }
  cudaStream_t one[KO_KERNELS_MAX];
  for (int i = 0; i < nblocks; i++) one[i] = s0;
  double b1[KO_KERNELS_MAX], e1[KO_KERNELS_MAX], b2[KO_KERNELS_MAX], e2[KO_KERNELS_MAX], course1_ms, course2_ms;
  reset(data, h_x0, bytes);
  double serial2_ms = timeline_run(&t, data, one, b1, e1, &course1_ms);
  check_run(data, h_out, h_gold, N, &st[2]);
  reset(data, h_x0, bytes);
  double streams2_ms = timeline_run(&t, data, streams, b2, e2, &course2_ms);
  check_run(data, h_out, h_gold, N, &st[3]);
  prac11_concurrency c1 = prac11_overlap(b1, e1, nblocks), c2 = prac11_overlap(b2, e2, nblocks);
  if (timeline_file != NULL) { // the event-pair runs as two panels: stream 0 alone, then a stream each (1 to k)
    int who1[KO_KERNELS_MAX], who2[KO_KERNELS_MAX];
    for (int i = 0; i < nblocks; i++) who1[i] = 0, who2[i] = i + 1;
    const char *build = legacy ? "legacy" : "per-thread";
    prac11_timeline_rows(timeline_file, 1, "kernel_overlap_serialised", build, "event", who1, b1, e1, nblocks);
    prac11_timeline_rows(timeline_file, 0, "kernel_overlap_streams", build, "event", who2, b2, e2, nblocks);
    if (prac11_timeline_close(timeline_file) != 0) return result_fail("-timeline=%s: writing it failed", timeline);
  }

  // the workbook's report
  printf("stream 0: %s (%s)\n",
         legacy ? "the legacy default stream: work on it waits for the earlier work of every blocking stream "
                  "(cudaStreamCreate's), and their later work waits for it"
                : "the per-thread default stream, an ordinary stream of this host thread's: it neither waits "
                  "for the other streams nor holds them back",
         stream0 ? "-stream0" : "this build's");
  printf("results: %d kernels x %d threads, %d steps of x = sqrt(|cos x|) from inputs in [-1, 0], 4 runs, each "
         "against the CPU gold (double, %d threads, %.1f ms)\n",
         nblocks, blocksize, iters, prac12_gold_threads(), gold_ms);
  const char *run[4] = {"serialised", "multi-stream", "serialised, an event pair a kernel",
                        "multi-stream, an event pair a kernel"};
  for (int r = 0; r < 4; r++) gold_report(run[r], &st[r]);
  printf("the stop: an event in each stream after its kernel, which stream 0 waits on; the last of them at %.3f ms, "
         "the stop at %.3f ms\n",
         latest(done_ms, nblocks), streams_ms);
  printf("again, with an event pair around each kernel on its stream (prac11's measure; these times include the "
         "pairs' own records):\n");
  printf("  one stream: %d of %d kernels overlapped (none can: a stream runs its work in order); their own "
         "times sum to %.3f ms against %.3f ms elapsed\n",
         c1.overlapped, nblocks, c1.sum_ms, serial2_ms);
  printf("  a stream each: %d of %d kernels overlapped; their own times sum to %.3f ms against %.3f ms elapsed, "
         "the kernels spanning %.3f ms: %.2f kernels at once on average\n",
         c2.overlapped, nblocks, c2.sum_ms, streams2_ms, c2.span_ms, c2.span_ms > 0 ? c2.sum_ms / c2.span_ms : 0.0);
  double last_end = latest(e2, nblocks), speedup = streams_ms > 0 ? serial_ms / streams_ms : 0.0;
  int covers = course2_ms >= last_end;
  printf("  the course's stop, recorded on stream 0 right after the launches: %.3f ms, %s the last kernel's end "
         "(%.3f ms): %s\n",
         course2_ms, covers ? "after" : "before", last_end,
         covers ? "this stream 0 waits for the streams" : "it timed the launches, not the kernels");
  if (timeline_file != NULL)
    printf("timeline: %s, %d rows (python3 ../prac11/timeline.py %s draws it)\n", timeline, 2 * nblocks, timeline);
  printf("speed-up: %.2f (serialised over multi-stream, the course's times; %d, every kernel at once, is the most)\n",
         speedup, nblocks);
  // the launches' ceiling. Certain: the start had completed before queue0 and the stop is recorded after the loop,
  // so the streams' time is at least queue_ms. An estimate: the last kernel starts no sooner than the host began
  // its launch (last_ms) and runs about one kernel's time (the serialised time over the kernels, first launch and
  // gaps included: so "about", and no bound where launches, not kernels, set the serialised time)
  double one_ms = serial_ms / nblocks, bound = serial_ms / queue_ms, est = serial_ms / (last_ms + one_ms);
  printf("the launches' ceiling: the host queued the %d launches in %.3f ms (%.2f us each): the speed-up is at most "
         "%.2f / %.3f = %.1f; with about one kernel's %.3f ms after the last launch (begun at %.3f ms), about %.1f\n",
         nblocks, queue_ms, 1000.0 * queue_ms / nblocks, serial_ms, queue_ms, bound, one_ms, last_ms, est);
  printf("the workbook's goal: the streams at least 10x faster than serialised: %.2fx (a GPU's figure, no verdict)\n",
         speedup);
  char size[32], extra[200];
  snprintf(size, sizeof(size), "%dx%d", nblocks, blocksize);
  snprintf(extra, sizeof(extra), "iters=%d ms_serial=%.4f x_serial=%.2f host_ms=%.3f bound=%.1f ceiling_est=%.1f",
           iters, serial_ms, speedup, queue_ms, bound, est);
  print_bench("12", "kernel_overlap", size, 1, streams_ms, -1.0, NULL, extra);

  // Release GPU and CPU memory; the workbook destroys the events too (the course never does)
  for (int i = 0; i < nblocks; i++) {
    checkCudaErrors(cudaStreamDestroy(streams[i]));
    checkCudaErrors(cudaEventDestroy(done[i]));
    checkCudaErrors(cudaEventDestroy(t.k_begin[i]));
    checkCudaErrors(cudaEventDestroy(t.k_end[i]));
  }
  checkCudaErrors(cudaEventDestroy(t.course_stop));
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));
  checkCudaErrors(cudaFree(data));
  free(h_x0), free(h_gold), free(h_out);

  // the verdict: every run's output. The counts and stops above are facts of stream order, printed, not checked:
  // no kernel in one stream can overlap another, and each stop waits for every end event
  for (int r = 0; r < 4; r++)
    if (st[r].nbad)
      return result_check(0, "%s run: %zu of %d values outside tolerance, first at index %lld", run[r], st[r].nbad, N,
                          st[r].first_bad);
  return result_pass();
}
