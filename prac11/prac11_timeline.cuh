/*
 * prac11_timeline.cuh -- practical 11, steps 2 and 5: when each kernel starts and ends, read by the GPU itself,
 * and the timeline written as CSV for timeline.py to draw. Shared by stream_test.cu and multithread_test.cu.
 *
 * The course's step 4 asks for a print from thread 0 of each kernel as it starts and as it ends. Device printf
 * cannot show overlap: its buffer reaches the terminal only at a synchronisation (cudaDeviceSynchronize, a
 * blocking copy), after the kernels are over, in whatever order. So thread 0 writes the time instead, into a
 * buffer of two stamps per kernel (start on entry; end after the block's last __syncthreads, when every thread
 * of the block is done: one block per kernel here, so that is the kernel's end), and the host prints them
 * after the run.
 *
 * The clock is %globaltimer, a PTX special register: a 64-bit count of nanoseconds, one timer for the whole
 * GPU, so stamps from different SMs and different kernels compare (%clock64, by contrast, counts cycles of one
 * SM). Its resolution is implementation-defined (the PTX ISA promises nanoseconds as the unit, not as the
 * step): on some GPUs it advances in microsecond steps. The programs measure it (prac11_check.cuh: one thread
 * reading it in a loop, the smallest change it sees) and print it.
 *
 * Step 5 for pipeline.cu too: an event pair around each copy-in, kernel and copy-out of each chunk, written as rows
 * of the same CSV whose kernel column names the stage and the chunk ("in 3", "kernel 3", "out 3"). pipeline.cu
 * defines PRAC11_TIMELINE_NO_STAMPS (in pipeline.cuh): it has no kernel stamps, and its exercise build must not
 * take step 2's exercise, exercises/stamps.cuh.
 *
 * The plain C part (the intervals from the stamps, the CSV) is also compiled by gcc, for tests/test_prac11.c.
 */
#ifndef PRAC11_TIMELINE_CUH
#define PRAC11_TIMELINE_CUH

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "prac11_gold.h"

// the build, for the CSV's second column: nvcc defines this for --default-stream per-thread
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#define PRAC11_BUILD "per-thread"
#else
#define PRAC11_BUILD "legacy"
#endif

// what is wrong with a run's stamps. Not the timer's step: the smallest gap between two stamps only bounds it from
// above (prac11_check.cuh measures it, one thread reading %globaltimer in a loop)
typedef struct {
  int missing;       // kernels without a whole pair of stamps: a 0 (never written), or an end not after its start
  int first_missing; // the first of them (-1: none)
} prac11_stamps_t;

// stamps[2i], stamps[2i+1]: kernel i's start and end in ns of %globaltimer, 0 where nothing wrote one (the
// buffer is zeroed first; the timer counts from a moment long past, never 0). When every pair is whole, begin[i]
// and end[i] are set, in ms from the earliest start, and nothing else is written.
static inline prac11_stamps_t prac11_stamp_intervals(const unsigned long long *stamps, int k, double *begin,
                                                     double *end) {
  prac11_stamps_t s = {0, -1};
  unsigned long long first = 0;
  for (int i = 0; i < k; i++) {
    unsigned long long b = stamps[2 * i], e = stamps[2 * i + 1];
    if (b == 0 || e == 0 || e <= b) { // a kernel takes time: equal stamps are a mistake (a timer read once)
      if (s.missing++ == 0) s.first_missing = i;
    } else if (first == 0 || b < first)
      first = b;
  }
  if (s.missing) return s;
  // ns differences below 2^53 are exact doubles, so equal stamps stay equal (touching, not overlapping)
  for (int i = 0; i < k; i++) {
    begin[i] = (double)(stamps[2 * i] - first) * 1e-6;
    end[i] = (double)(stamps[2 * i + 1] - first) * 1e-6;
  }
  return s;
}

// step 5: -timeline=FILE. Opened as the options are read, so that a path that cannot be written is bad input,
// found before any GPU work (NULL: no -timeline). The file stays empty until prac11_timeline_write.
static inline FILE *prac11_timeline_open(const char *path) {
  if (path == NULL) return NULL;
  FILE *f = fopen(path, "w");
  if (f == NULL) args_fail("-timeline=%s: cannot write it: %s", path, strerror(errno));
  return f;
}

#ifndef PRAC11_TIMELINE_SCRIPT // the drawing script, as a program of this directory names it (prac12: ../prac11/...)
#define PRAC11_TIMELINE_SCRIPT "timeline.py"
#endif

#define PRAC11_TIMELINE_HEADER "program,build,kernel,stream_or_thread,source,start_ms,end_ms\n"

// One row per kernel of one source (event or globaltimer): who[i] is kernel i's stream or host thread; times in
// ms from the earliest start of that source (the two sources are different clocks: only their own differences
// mean something). header: 1 writes the header line first.
static inline void prac11_timeline_rows(FILE *f, int header, const char *program, const char *build, const char *source,
                                        const int *who, const double *begin, const double *end, int k) {
  double first = 0.0;
  for (int i = 0; i < k; i++)
    if (i == 0 || begin[i] < first) first = begin[i];
  if (header) fputs(PRAC11_TIMELINE_HEADER, f);
  for (int i = 0; i < k; i++)
    fprintf(f, "%s,%s,%d,%d,%s,%.6f,%.6f\n", program, build, i, who[i], source, begin[i] - first, end[i] - first);
}

// pipeline.cu's rows: operation i of k is chunk i / 3's stage i % 3 (0 its copy-in, 1 its kernel, 2 its copy-out),
// named so in the kernel column ("in 3", "kernel 3", "out 3"); who[i] is the stream it ran in, -1 where it was not
// recorded (no row). Times in ms from the earliest start among the rows, all by one clock (source "event").
// header: 1 writes the header line first, if any row follows. Returns the rows written.
static inline int prac11_timeline_stage_rows(FILE *f, int header, const char *program, const char *build,
                                             const int *who, const double *begin, const double *end, int k) {
  const char *const stage[3] = {"in", "kernel", "out"};
  double first = 0.0;
  int rows = 0;
  for (int i = 0; i < k; i++)
    if (who[i] >= 0 && (rows++ == 0 || begin[i] < first)) first = begin[i];
  if (header && rows) fputs(PRAC11_TIMELINE_HEADER, f);
  for (int i = 0; i < k; i++)
    if (who[i] >= 0)
      fprintf(f, "%s,%s,%s %d,%d,event,%.6f,%.6f\n", program, build, stage[i % 3], i / 3, who[i], begin[i] - first,
              end[i] - first);
  return rows;
}

// closes the file: 0 when every row reached it, else -1
static inline int prac11_timeline_close(FILE *f) {
  int bad = ferror(f);
  return (fclose(f) != 0 || bad) ? -1 : 0;
}

#ifdef __CUDACC__
#include "gold_check.h"
#include "helper_cuda.h"

// Step 5 for pipeline.cu: an event pair around each of k operations of one run (operation 3n + stage: chunk n's
// copy-in, kernel or copy-out), each pair in the stream that runs the operation, read after the run and written as
// rows of the CSV (prac11_timeline_stage_rows). Recorded only while on: a pair costs two calls on the host between
// the operations, so the timed runs go without, and a run of their own, untimed, records them.
typedef struct {
  FILE *f;             // the CSV, opened as the options are read
  const char *path;    // its name
  int k, on, made;     // operations; record them now; the events exist (made at the first run that records)
  int rows;            // rows written so far
  cudaEvent_t *ev;     // ev[2i], ev[2i + 1]: operation i's begin and end
  int *who;            // operation i's stream, as the CSV numbers it; -1 until both its events are recorded
  double *begin, *end; // operation i's interval, ms from the run's start event
} prac11_marks_t;

// -timeline=FILE (path; NULL: none, and so NULL back): the file opened now, so that a path that cannot be written
// is bad input, found before any GPU work; the events are made later, by the first run that records
static inline prac11_marks_t *prac11_marks_open(const char *path, int k) {
  FILE *f = prac11_timeline_open(path);
  if (f == NULL) return NULL;
  prac11_marks_t *m = (prac11_marks_t *)calloc(1, sizeof(*m));
  if (m == NULL) exit(result_fail("out of host memory"));
  m->ev = (cudaEvent_t *)calloc(2 * (size_t)k, sizeof(cudaEvent_t));
  m->who = (int *)calloc(k, sizeof(int));
  m->begin = (double *)calloc(2 * (size_t)k, sizeof(double)); // begin[0..k), then end[0..k)
  if (m->ev == NULL || m->who == NULL || m->begin == NULL) exit(result_fail("out of host memory"));
  m->f = f, m->path = path, m->k = k, m->end = m->begin + k;
  return m;
}

// on = 1: a run begins that records every operation's pair (none recorded yet); on = 0: a run that records none
static inline void prac11_marks_on(prac11_marks_t *m, int on) {
  if (m == NULL) return;
  for (int i = 0; i < 2 * m->k && on && !m->made; i++) checkCudaErrors(cudaEventCreate(&m->ev[i]));
  m->made |= on;
  for (int i = 0; i < m->k; i++) m->who[i] = -1;
  m->on = on;
}

// operation i's begin (end = 0) or end (end = 1), recorded in stream s, where the operation runs; who: s's number
static inline void prac11_mark(prac11_marks_t *m, int i, int end, cudaStream_t s, int who) {
  if (m == NULL || !m->on) return;
  checkCudaErrors(cudaEventRecord(m->ev[2 * i + end], s));
  if (end) m->who[i] = who;
}

// after a run that recorded: each recorded operation's interval from start (an event recorded before the run, on
// the legacy default stream, which blocking streams wait for), written as program's rows; then recording is off
static inline void prac11_marks_write(prac11_marks_t *m, cudaEvent_t start, const char *program) {
  if (m == NULL || !m->on) return;
  for (int i = 0; i < m->k; i++) {
    float b = 0.0f, e = 0.0f;
    if (m->who[i] >= 0) {
      checkCudaErrors(cudaEventSynchronize(m->ev[2 * i + 1]));
      checkCudaErrors(cudaEventElapsedTime(&b, start, m->ev[2 * i]));
      checkCudaErrors(cudaEventElapsedTime(&e, start, m->ev[2 * i + 1]));
    }
    m->begin[i] = b, m->end[i] = e;
  }
  m->rows += prac11_timeline_stage_rows(m->f, m->rows == 0, program, PRAC11_BUILD, m->who, m->begin, m->end, m->k);
  m->on = 0;
}

// the end of -timeline: the file closed and the line saying what it holds (a write that failed: FAIL); the events
// and the host arrays released
static inline void prac11_marks_close(prac11_marks_t *m) {
  if (m == NULL) return;
  if (prac11_timeline_close(m->f) != 0) exit(result_fail("-timeline=%s: writing it failed", m->path));
  printf("timeline: %s, %d rows (python3 %s %s draws it)\n", m->path, m->rows, PRAC11_TIMELINE_SCRIPT, m->path);
  for (int i = 0; i < 2 * m->k && m->made; i++) checkCudaErrors(cudaEventDestroy(m->ev[i]));
  free(m->ev), free(m->who), free(m->begin), free(m);
}

#ifndef PRAC11_TIMELINE_NO_STAMPS
// the device side of step 2: stamp_start(stamp) as a kernel starts, stamp_end(stamp) as it ends, where stamp
// points to the kernel's pair in the buffer (NULL: no stamps, as for the course's dummy kernel)
#ifdef EXERCISE
#include "exercises/stamps.cuh" // step 2's exercise: the learner's stamps (make exercises)
#else
// the time now: %globaltimer, in ns (asm volatile: read it here, each call, not once and moved or shared)
__device__ __forceinline__ unsigned long long globaltimer_ns(void) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// on entry: thread 0 records the start
__device__ __forceinline__ void stamp_start(unsigned long long *stamp) {
  if (stamp != NULL && threadIdx.x == 0) stamp[0] = globaltimer_ns();
}

// at the end: once every thread of the block is done (the barrier), thread 0 records the end. stamp is the
// same for every thread of a launch, so either all of the block reach the barrier or none does
__device__ __forceinline__ void stamp_end(unsigned long long *stamp) {
  if (stamp == NULL) return;
  __syncthreads();
  if (threadIdx.x == 0) stamp[1] = globaltimer_ns();
}
#endif
#endif /* PRAC11_TIMELINE_NO_STAMPS */
#endif /* __CUDACC__ */

#endif /* PRAC11_TIMELINE_CUH */
