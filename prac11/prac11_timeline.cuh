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
 * step): on some GPUs it advances in microsecond steps. The programs print the smallest nonzero step they saw
 * between any two stamps as the resolution seen: the timer's own step is that or finer.
 *
 * The plain C part (the intervals from the stamps, the CSV) is also compiled by gcc, for tests/test_prac11.c.
 */
#ifndef PRAC11_TIMELINE_CUH
#define PRAC11_TIMELINE_CUH

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "prac11_gold.h"

// the build, for the CSV's second column: nvcc defines this for --default-stream per-thread
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#define PRAC11_BUILD "per-thread"
#else
#define PRAC11_BUILD "legacy"
#endif

typedef struct {
  int missing;       // kernels without a whole pair of stamps: a 0 (never written) or an end before its start
  int first_missing; // the first of them (-1: none)
  long long step_ns; // the resolution seen: the smallest nonzero difference between any two stamps (0: none)
} prac11_stamps_t;

// stamps[2i], stamps[2i+1]: kernel i's start and end in ns of %globaltimer, 0 where nothing wrote one (the
// buffer is zeroed first; the timer counts from a moment long past, never 0). When every pair is whole, begin[i]
// and end[i] are set, in ms from the earliest start, and nothing else is written.
static inline prac11_stamps_t prac11_stamp_intervals(const unsigned long long *stamps, int k, double *begin,
                                                     double *end) {
  prac11_stamps_t s = {0, -1, 0};
  unsigned long long first = 0;
  for (int i = 0; i < k; i++) {
    unsigned long long b = stamps[2 * i], e = stamps[2 * i + 1];
    if (b == 0 || e == 0 || e < b) {
      if (s.missing++ == 0) s.first_missing = i;
    } else if (first == 0 || b < first)
      first = b;
  }
  for (int i = 0; i < 2 * k; i++)
    for (int j = 0; j < 2 * k; j++)
      if (stamps[i] && stamps[j] > stamps[i] && (s.step_ns == 0 || (long long)(stamps[j] - stamps[i]) < s.step_ns))
        s.step_ns = (long long)(stamps[j] - stamps[i]);
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

// closes the file: 0 when every row reached it, else -1
static inline int prac11_timeline_close(FILE *f) {
  int bad = ferror(f);
  return (fclose(f) != 0 || bad) ? -1 : 0;
}

#ifdef __CUDACC__
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
#endif /* __CUDACC__ */

#endif /* PRAC11_TIMELINE_CUH */
