/*
 * pipeline.cu -- practical 11, step 4 (the course's step 6): overlapping computation with communication. Data
 * arrives in chunks, as from a radio telescope, and goes back once processed: at step n the GPU computes chunk n
 * while chunk n-1 goes back to the host and chunk n+1 comes in. The work per sample is a filter (pipeline.cuh):
 * -work= steps of y = 0.75 y + x/2 from y = x, one FMA each, so -work sets the kernel's time against a copy's.
 * Versions, each timed with events (a warm-up, the median of -reps runs, the outputs poisoned with NaN before each),
 * the last run's output checked against the gold:
 *   0  serial: copy in, kernel, copy out, a chunk at a time on the default stream (pageable, then pinned memory)
 *   1  the course's loop: the kernel in stream 1, the copies with a synchronous copy on the default stream, from
 *      pageable memory; run twice, the copies on each default stream (cudaStreamLegacy, what nvcc's default build
 *      means by stream 0, and cudaStreamPerThread, what --default-stream per-thread means), so one build shows both
 *   2  pipelined: pinned memory, cudaMemcpyAsync, a stream for each stage (copy-in, kernel, copy-out) and events
 *      between them, -buffers= device buffers in rotation; its schedule is also checked by the rules of streams
 *      and events (pipeline.cuh: no copy overwrites a buffer still in use, nothing waits that need not)
 * Each is held against its bound, measured in the same run from one chunk's copies (in, out, both at once: they
 * share the PCIe link) and kernel. Try -work=500 and 8000 (which stage limits?), -buffers=2 and 1, -chunks=4.
 * Step 5: -timeline=FILE runs versions 0 (pinned) and 2 once more each, untimed, with an event pair around each
 * chunk's copy-in, kernel and copy-out, written as CSV (prac11_timeline.cuh) for timeline.py to draw.
 *   nvcc -O3 -arch=native -I../common pipeline.cu prac11_gold.c -o pipeline
 * The exercise (make exercises): built with -DEXERCISE as exercises/pipeline, version 2's loop body is the
 * learner's, exercises/pipeline_issue.cuh.
 */
#define COURSE_STEPS "practical 11, workbook steps 4 and 5 (course step 6)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 4)s in exercises/pipeline_issue.cuh"
#endif
#define NO_GREEN_CONTEXT "the default stream has its two meanings only outside one" // see stream_test.cu
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"
#include "pipeline.cuh" // the input, the gold, the bounds, the schedule check (plain C, tested by tests/), step 5's CSV

#define PIPE_BLOCK 256 // threads per block: any size works, the samples are independent

// one thread per sample, in place (a chunk's buffer holds its input, then its output): work steps of the filter,
// each an FMA that waits for the one before, so the kernel's time is its arithmetic, not its memory traffic
__global__ void GPU_filter(float *x, size_t n, int work) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float y = x[i], c = 0.5f * y;
    for (int k = 0; k < work; k++) y = fmaf(PIPE_A, y, c);
    x[i] = y;
  }
}

static void launch(float *x, size_t n, int work, cudaStream_t s) {
  GPU_filter<<<(unsigned)((n + PIPE_BLOCK - 1) / PIPE_BLOCK), PIPE_BLOCK, 0, s>>>(x, n, work);
  getLastCudaError("GPU_filter execution failed");
}

// what every version works on, and version 2's streams, events and the record of its calls
typedef struct {
  int chunks, nbuf, nalloc, work; // nalloc = max(nbuf, 2) buffers: version 1 and the both-ways copy need two
  size_t n, bytes;                // floats and bytes per chunk
  float *h_in, *h_out;            // all the chunks, on the host: pageable (versions 0, 1) or pinned (0, 2)
  float *d_buf[PIPE_BUF_MAX];     // device buffers of a chunk; chunk n uses d_buf[n % nbuf]
  cudaStream_t s_in, s_comp, s_out;
  cudaEvent_t in_done[PIPE_BUF_MAX], comp_done[PIPE_BUF_MAX], out_done[PIPE_BUF_MAX];
  pipe_call *calls; // version 2's calls, as issued in its first run
  int ncalls, cap, tracing;
  prac11_marks_t *marks; // -timeline (NULL: none): the event pairs around each stage of each chunk (step 5)
} pipe_t;

// ---- version 2's calls: each makes one CUDA call and notes it, so that the schedule can be checked -------------
static int stream_no(const pipe_t *p, cudaStream_t s) {
  if (s == p->s_in) return 0;
  if (s == p->s_comp) return 1;
  if (s == p->s_out) return 2;
  exit(result_fail("version 2 used a stream other than p->s_in, p->s_comp and p->s_out"));
}

static int event_no(const pipe_t *p, cudaEvent_t e) {
  for (int b = 0; b < p->nbuf; b++) {
    if (e == p->in_done[b]) return b;
    if (e == p->comp_done[b]) return PIPE_BUF_MAX + b;
    if (e == p->out_done[b]) return 2 * PIPE_BUF_MAX + b;
  }
  exit(result_fail("version 2 used an event other than p->in_done[b], p->comp_done[b] and p->out_done[b]"));
}

static void note(pipe_t *p, int op, int chunk, int stream, int event) { // before the call: checks it first
  if (op <= PIPE_OUT && (chunk < 0 || chunk >= p->chunks)) exit(result_fail("version 2 issued chunk %d", chunk));
  if (!p->tracing) return;
  if (p->ncalls == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 1024;
    p->calls = (pipe_call *)realloc(p->calls, p->cap * sizeof(pipe_call));
    if (!p->calls) exit(result_fail("out of host memory"));
  }
  pipe_call *c = &p->calls[p->ncalls++];
  c->op = op, c->chunk = chunk, c->stream = stream, c->event = event;
}

// chunk n's stage op on device buffer b, in stream s: PIPE_IN copies it in from the host, PIPE_KERNEL runs the
// kernel on it, PIPE_OUT copies it back; in a run that -timeline records, between an event pair in s (step 5)
static void stage(pipe_t *p, int op, int n, int b, cudaStream_t s) {
  int who = s == 0 ? 0 : 1 + stream_no(p, s); // the CSV's streams: 0 the default one, then s_in, s_comp, s_out
  float *d = p->d_buf[b], *in = p->h_in + n * p->n, *out = p->h_out + n * p->n;
  prac11_mark(p->marks, 3 * n + op, 0, s, who);
  if (op == PIPE_IN) checkCudaErrors(cudaMemcpyAsync(d, in, p->bytes, cudaMemcpyHostToDevice, s));
  if (op == PIPE_KERNEL) launch(d, p->n, p->work, s);
  if (op == PIPE_OUT) checkCudaErrors(cudaMemcpyAsync(out, d, p->bytes, cudaMemcpyDeviceToHost, s));
  prac11_mark(p->marks, 3 * n + op, 1, s, who);
}
// cudaMemcpyAsync of chunk n from the host to its buffer, d_buf[n % nbuf], in stream s
static void copy_in(pipe_t *p, int n, cudaStream_t s) {
  note(p, PIPE_IN, n, stream_no(p, s), 0);
  stage(p, PIPE_IN, n, n % p->nbuf, s);
}
// the kernel on chunk n's buffer, in stream s
static void compute(pipe_t *p, int n, cudaStream_t s) {
  note(p, PIPE_KERNEL, n, stream_no(p, s), 0);
  stage(p, PIPE_KERNEL, n, n % p->nbuf, s);
}
// cudaMemcpyAsync of chunk n's buffer back to the host, in stream s
static void copy_out(pipe_t *p, int n, cudaStream_t s) {
  note(p, PIPE_OUT, n, stream_no(p, s), 0);
  stage(p, PIPE_OUT, n, n % p->nbuf, s);
}
// cudaEventRecord(e, s): e stands for all the work issued to s so far ([[maybe_unused]]: the exercise's starting
// file calls neither this nor wait_event)
[[maybe_unused]] static void record_event(pipe_t *p, cudaEvent_t e, cudaStream_t s) {
  note(p, PIPE_RECORD, -1, stream_no(p, s), event_no(p, e));
  checkCudaErrors(cudaEventRecord(e, s));
}
// cudaStreamWaitEvent(s, e): what is issued to s from now on waits for the work e stands for
[[maybe_unused]] static void wait_event(pipe_t *p, cudaStream_t s, cudaEvent_t e) {
  note(p, PIPE_WAIT, -1, stream_no(p, s), event_no(p, e));
  checkCudaErrors(cudaStreamWaitEvent(s, e, 0));
}

#ifndef EXERCISE
// step 4: chunk n's three stages, each in its stage's stream, tied by events. Each waits for what it needs, and
// only that: the kernel for its copy-in, the copy-out for its kernel, the copy-in for its buffer to be free (the
// copy-out of the chunk nbuf before has read it; an event not yet recorded is no wait). So at step n the copy-in
// of chunk n+1 (stream s_in), the kernel of chunk n (s_comp) and the copy-out of chunk n-1 (s_out) run at once
static void issue_chunk(pipe_t *p, int n) {
  int b = n % p->nbuf; // chunk n's buffer
  wait_event(p, p->s_in, p->out_done[b]);
  copy_in(p, n, p->s_in);
  record_event(p, p->in_done[b], p->s_in);
  wait_event(p, p->s_comp, p->in_done[b]);
  compute(p, n, p->s_comp);
  record_event(p, p->comp_done[b], p->s_comp);
  wait_event(p, p->s_out, p->comp_done[b]);
  copy_out(p, n, p->s_out);
  record_event(p, p->out_done[b], p->s_out);
}
#else
#include "exercises/pipeline_issue.cuh" // make exercises: the learner's
#endif

// ---- the versions ---------------------------------------------------------------------------------------------
enum { SERIAL, LEGACY, PER_THREAD, SERIAL_PINNED, PIPELINED, NVER };
static const char *ver_name[NVER] = {"0 serial, pageable", "1 the course's, legacy default stream",
                                     "1 the course's, per-thread default stream", "0 serial, pinned",
                                     "2 pipelined, pinned, 3 streams"};
static const char *ver_prog[NVER] = {"pipeline_serial", "pipeline_course_legacy", "pipeline_course_per_thread",
                                     "pipeline_serial_pinned", "pipeline_streams"};

// version 0: a chunk at a time, all on the legacy default stream. From pageable memory each copy returns only
// once its data has been staged; from pinned memory the host queues them all and the GPU runs them in order
static void serial_loop(pipe_t *p) {
  for (int n = 0; n < p->chunks; n++)
    for (int op = PIPE_IN; op <= PIPE_OUT; op++) stage(p, op, n, 0, 0); // copy in, kernel, copy out; buffer 0
}

// version 1, as the course words it: at step n, stream 1 (s_comp) processes chunk n while the default stream
// (dflt) copies chunk n-1's output back and then chunk n+1's input in; each copy synchronous, as cudaMemcpy is
static void course_loop(pipe_t *p, cudaStream_t dflt) {
  int nb = p->nalloc; // two buffers at least: chunk n's, and chunk n-1's then n+1's
  checkCudaErrors(cudaMemcpyAsync(p->d_buf[0], p->h_in, p->bytes, cudaMemcpyHostToDevice, dflt));
  checkCudaErrors(cudaStreamSynchronize(dflt));
  for (int n = 0; n < p->chunks; n++) {
    launch(p->d_buf[n % nb], p->n, p->work, p->s_comp);
    if (n > 0) {
      checkCudaErrors(
          cudaMemcpyAsync(p->h_out + (n - 1) * p->n, p->d_buf[(n - 1) % nb], p->bytes, cudaMemcpyDeviceToHost, dflt));
      checkCudaErrors(cudaStreamSynchronize(dflt));
    }
    if (n + 1 < p->chunks) { // synchronised, so that kernel n+1 cannot start before its input has landed
      checkCudaErrors(
          cudaMemcpyAsync(p->d_buf[(n + 1) % nb], p->h_in + (n + 1) * p->n, p->bytes, cudaMemcpyHostToDevice, dflt));
      checkCudaErrors(cudaStreamSynchronize(dflt));
    }
    // kernel n ends before step n+1 copies its output back: the per-thread default stream would not wait for it
    checkCudaErrors(cudaStreamSynchronize(p->s_comp));
  }
  checkCudaErrors(cudaMemcpyAsync(p->h_out + (p->chunks - 1) * p->n, p->d_buf[(p->chunks - 1) % nb], p->bytes,
                                  cudaMemcpyDeviceToHost, dflt));
  checkCudaErrors(cudaStreamSynchronize(dflt));
}

static void run_version(pipe_t *p, int v) {
  if (v == SERIAL || v == SERIAL_PINNED) serial_loop(p);
  if (v == LEGACY) course_loop(p, cudaStreamLegacy);
  if (v == PER_THREAD) course_loop(p, cudaStreamPerThread);
  if (v == PIPELINED)
    for (int n = 0; n < p->chunks; n++) issue_chunk(p, n);
}

// A version's median time over reps runs after a warm-up (version 2's calls noted in it), each run from poison
// (0xff bytes, a NaN) in the host's outputs and the device buffers, its time from events on the legacy default
// stream: the streams are blocking ones (cudaStreamCreate), so the events bracket all their work. With -timeline,
// versions 0 (pinned) and 2 run once more, untimed, to record the event pairs: two calls more per stage, on the
// host between the stages, which the timed runs are spared
static float time_version(pipe_t *p, int v, int reps) {
  float t[50], ms = 0.0f;
  int extra = p->marks != NULL && (v == SERIAL_PINNED || v == PIPELINED); // the run -timeline records
  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  for (int r = -1; r < reps + extra; r++) {
    memset(p->h_out, 0xff, p->chunks * p->bytes);
    for (int b = 0; b < p->nalloc; b++) checkCudaErrors(cudaMemset(p->d_buf[b], 0xff, p->bytes));
    checkCudaErrors(cudaDeviceSynchronize());
    p->tracing = r < 0 && v == PIPELINED;
    prac11_marks_on(p->marks, r == reps);
    checkCudaErrors(cudaEventRecord(start, 0));
    run_version(p, v);
    checkCudaErrors(cudaEventRecord(stop, 0));
    checkCudaErrors(cudaEventSynchronize(stop));
    checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
    if (r >= 0 && r < reps) t[r] = ms;
  }
  prac11_marks_write(p->marks, start, ver_prog[v]); // where the last run recorded
  p->tracing = 0;
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));
  return median_float(t, reps);
}

// ---- the bounds: one chunk's copies (pinned) and kernel, each timed by time_median_ms on the default stream -----
static void one_in(void *a) {
  pipe_t *p = (pipe_t *)a;
  checkCudaErrors(cudaMemcpyAsync(p->d_buf[0], p->h_in, p->bytes, cudaMemcpyHostToDevice, 0));
}
static void one_out(void *a) {
  pipe_t *p = (pipe_t *)a;
  checkCudaErrors(cudaMemcpyAsync(p->h_out, p->d_buf[1], p->bytes, cudaMemcpyDeviceToHost, 0));
}
static void one_both(void *a) { // one each way at once, in two streams (blocking: the timing events bracket them)
  pipe_t *p = (pipe_t *)a;
  checkCudaErrors(cudaMemcpyAsync(p->d_buf[0], p->h_in, p->bytes, cudaMemcpyHostToDevice, p->s_in));
  checkCudaErrors(cudaMemcpyAsync(p->h_out, p->d_buf[1], p->bytes, cudaMemcpyDeviceToHost, p->s_out));
}
static void one_kernel(void *a) { // in place, again and again: the values grow to +inf, which costs the same
  pipe_t *p = (pipe_t *)a;
  launch(p->d_buf[0], p->n, p->work, 0);
}

static pipe_result run_and_check(pipe_t *p, int v, int reps) {
  pipe_result r = {time_version(p, v, reps), 0, -1, 1};
  r.nbad = pipe_check(p->h_out, 0, p->chunks * p->n, p->work, &r.first); // the last run's (-timeline: recorded)
  return r;
}

int main(int argc, char **argv) {
  int chunks = 32, mb = 8, nbuf = 3, work = 2000, reps = 5;
  const char *timeline = NULL;
  long long n = (long long)mb << 18;
  arg_spec opts[] = {
      {"chunks", ARG_INT, &chunks, 1, 1024, "chunks streamed through the GPU"},
      {"mb", ARG_INT, &mb, 1, 1024, "MiB per chunk (2^18 floats each)"},
      {"n", ARG_LONG, &n, 1, 1 << 28, "floats per chunk, in place of -mb (1, or any count off the block size)"},
      {"buffers", ARG_INT, &nbuf, 1, PIPE_BUF_MAX, "device buffers of a chunk in rotation (version 1 uses 2 at least)"},
      {"work", ARG_INT, &work, 1, 100000, "filter steps (FMAs) per sample: the kernel's time per chunk"},
      {"reps", ARG_INT, &reps, 1, 50, "timed runs of each version, after a warm-up: the median is shown"},
      {"timeline", ARG_WORD, &timeline, 0, 0, "step 5: write versions 0 (pinned) and 2's stages to this CSV file"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  int user_sized = args_given(argc, argv, "n") || args_given(argc, argv, "mb") || args_given(argc, argv, "buffers");
  if (args_given(argc, argv, "n") && args_given(argc, argv, "mb")) args_fail("-n= and -mb= both set a chunk's size");
  if (!args_given(argc, argv, "n")) n = (long long)mb << 18;
  if (chunks * n > (1LL << 28))
    args_fail("-chunks=%d of %lld floats: %lld floats each way, more than 2^28 (1 GiB)", chunks, n, chunks * n);
  pipe_t p;
  memset(&p, 0, sizeof(p));
  p.marks = prac11_marks_open(timeline, 3 * chunks); // -timeline: a path that cannot be written is bad input
  int copy_engines = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&copy_engines, cudaDevAttrAsyncEngineCount, findCudaDevice(argc, argv)));

  p.chunks = chunks, p.nbuf = nbuf, p.nalloc = nbuf > 2 ? nbuf : 2, p.work = work;
  p.n = (size_t)n, p.bytes = sizeof(float) * p.n;
  size_t total = chunks * p.bytes; // each way
  device_memory_check(p.nalloc * p.bytes, "the chunk buffers", user_sized);
  printf("pipeline: %d chunks of %zu floats (%.2f MiB), %.1f MiB each way; %d device buffers of a chunk (%.1f MiB); "
         "%d filter steps (FMAs) per sample\n",
         chunks, p.n, p.bytes / 1048576.0, total / 1048576.0, nbuf, p.nalloc * p.bytes / 1048576.0, work);
  for (int b = 0; b < p.nalloc; b++) {
    checkCudaErrors(cudaMalloc((void **)&p.d_buf[b], p.bytes));
    checkCudaErrors(cudaMemset(p.d_buf[b], 0xff, p.bytes));
  }
  // blocking streams (cudaStreamCreate), so that the timing events on the legacy default stream bracket their work
  cudaStream_t *streams[PIPE_STREAMS] = {&p.s_in, &p.s_comp, &p.s_out};
  for (int i = 0; i < PIPE_STREAMS; i++) checkCudaErrors(cudaStreamCreate(streams[i]));
  for (int b = 0; b < nbuf; b++) { // events only to order streams: no timing in them, which makes them cheaper
    checkCudaErrors(cudaEventCreateWithFlags(&p.in_done[b], cudaEventDisableTiming));
    checkCudaErrors(cudaEventCreateWithFlags(&p.comp_done[b], cudaEventDisableTiming));
    checkCudaErrors(cudaEventCreateWithFlags(&p.out_done[b], cudaEventDisableTiming));
  }
  pipe_result res[NVER] = {{0.0f, 0, -1, 0}}; // ran = 0: left out until run

  // versions 0 and 1 from pageable memory (malloc)
  p.h_in = (float *)malloc(total), p.h_out = (float *)malloc(total);
  if (!p.h_in || !p.h_out) exit(result_skip("the host has no %.0f MiB for the pageable arrays", 2 * total / 1048576.0));
  for (size_t i = 0; i < chunks * p.n; i++) p.h_in[i] = pipe_input(i);
  for (int v = SERIAL; v <= PER_THREAD; v++) res[v] = run_and_check(&p, v, reps);
  free(p.h_in), free(p.h_out);

  // pinned memory (cudaMallocHost: page-locked, so the copy engines read and write it directly, and copies from
  // it are asynchronous): the bounds, then versions 0 and 2. Where it cannot be had, they are left out
  char skip[200] = "";
  cudaError_t e1 = cudaMallocHost((void **)&p.h_in, total), e2 = cudaSuccess;
  if (e1 == cudaSuccess) e2 = cudaMallocHost((void **)&p.h_out, total);
  if (e1 != cudaSuccess || e2 != cudaSuccess) {
    snprintf(skip, sizeof(skip), "cudaMallocHost of 2 x %.1f MiB failed: %s", total / 1048576.0,
             cudaGetErrorString(e1 != cudaSuccess ? e1 : e2));
    (void)cudaGetLastError(); // an allocation failure is no sticky error: clear it and go on
    if (e1 == cudaSuccess) checkCudaErrors(cudaFreeHost(p.h_in));
  }
  pipe_bounds bd = {0, 0, 0, 0, "", ""};
  float in_ms = 0, out_ms = 0, both_ms = 0, k_ms = 0;
  int sched = 0; // pipe_schedule's verdict on version 2's calls
  char why[300] = "";
  if (!skip[0]) {
    for (size_t i = 0; i < chunks * p.n; i++) p.h_in[i] = pipe_input(i);
    memset(p.h_out, 0, total);
    in_ms = time_median_ms(one_in, &p, 3, reps);
    out_ms = time_median_ms(one_out, &p, 3, reps);
    both_ms = time_median_ms(one_both, &p, 3, reps);
    k_ms = time_median_ms(one_kernel, &p, 3, reps);
    bd = pipe_bound(chunks, in_ms, k_ms, out_ms, both_ms);
    for (int v = SERIAL_PINNED; v <= PIPELINED; v++) res[v] = run_and_check(&p, v, reps);
    sched = pipe_schedule(p.calls, p.ncalls, chunks, nbuf, why, sizeof(why));
    checkCudaErrors(cudaFreeHost(p.h_in));
    checkCudaErrors(cudaFreeHost(p.h_out));
  }

  // the bounds (pipeline.cuh prints them), each version against them, and why version 1 does or does not overlap
  if (!skip[0])
    pipe_print_bounds(chunks, p.bytes, reps, in_ms, out_ms, both_ms, k_ms, bd, copy_engines);
  else
    printf("pinned host memory: SKIP (%s): no bounds, no versions 0 pinned and 2\n", skip);
  printf("%-44s %10s %11s %9s  %s\n", "version", "ms", "% of bound", "x serial", "check");
  char size[64], extra[400];
  snprintf(size, sizeof(size), "%dx%zu", chunks, p.n);
  for (int v = 0; v < NVER; v++) {
    if (!res[v].ran) continue;
    char pct[32] = "-";
    if (!skip[0]) snprintf(pct, sizeof(pct), "%.1f", 100.0 * res[v].ms / bd.bound_ms);
    printf("%-44s %10.3f %11s", ver_name[v], res[v].ms, pct);
    printf(" %9.2f  %zu of %zu outside %.1e relative\n", res[SERIAL].ms / res[v].ms, res[v].nbad, chunks * p.n,
           PIPE_RTOL);
  }
  printf("1, legacy: the legacy default stream waits for stream 1's kernel before each copy, and stream 1 waits for "
         "the copies (step 1): nothing overlaps\n");
  printf("1, per-thread: the copies wait for nothing, so kernel n runs while chunks n-1 and n+1 are copied; but "
         "pageable copies go through a staging buffer, one at a time, and the host waits for each\n");
  if (!skip[0]) pipe_print_schedule(p.ncalls, sched, why, 100.0 * res[PIPELINED].ms / bd.bound_ms); // and the goal
  for (int v = 0; v < NVER; v++) {
    if (!res[v].ran) continue;
    int k = snprintf(extra, sizeof(extra), "chunks=%d floats=%zu work=%d buffers=%d x_serial=%.2f", chunks, p.n, work,
                     nbuf, res[SERIAL].ms / res[v].ms);
    if (!skip[0])
      snprintf(extra + k, sizeof(extra) - k,
               " pct_bound=%.1f bound_ms=%.4f naive_ms=%.4f link_ms=%.4f limit=%s "
               "in_GBps=%.1f out_GBps=%.1f both_GBps=%.1f kernel_ms=%.4f",
               100.0 * res[v].ms / bd.bound_ms, bd.bound_ms, bd.naive_ms, bd.link_ms, bd.key, p.bytes / 1e6 / in_ms,
               p.bytes / 1e6 / out_ms, 2 * p.bytes / 1e6 / both_ms, k_ms);
    print_bench("11", ver_prog[v], size, reps, res[v].ms, -1.0, NULL, extra);
  }

  // release GPU and CPU memory
  for (int b = 0; b < p.nalloc; b++) checkCudaErrors(cudaFree(p.d_buf[b]));
  for (int b = 0; b < nbuf; b++) {
    checkCudaErrors(cudaEventDestroy(p.in_done[b]));
    checkCudaErrors(cudaEventDestroy(p.comp_done[b]));
    checkCudaErrors(cudaEventDestroy(p.out_done[b]));
  }
  for (int i = 0; i < PIPE_STREAMS; i++) checkCudaErrors(cudaStreamDestroy(*streams[i]));
  free(p.calls);
  prac11_marks_close(p.marks); // -timeline: the file closed, and what it holds

  // the verdict: a race in version 2's schedule, then any value off the gold, then a wait that need not be
  if (sched == 1) return result_check(0, "%s", why);
  for (int v = 0; v < NVER; v++)
    if (res[v].nbad)
      return result_check(0, "version %s: %zu of %zu values outside the tolerance, the first in chunk %lld",
                          ver_name[v], res[v].nbad, chunks * p.n, res[v].first / (long long)p.n);
  if (sched == 2) return result_check(0, "%s", why);
  if (skip[0]) return result_skip("%s: the pinned versions did not run", skip);
  return result_pass();
}
