/*
 * timing.h -- timing that can be trusted: CUDA events, warm-up, repeats, the median.
 *
 * The plain C part (median, host wall clock) is usable from gcc-compiled tests; the CUDA part is
 * compiled only by nvcc.
 *
 *   float ms = time_median_ms(run_kernel, &args, 3, 20);     // 3 warm-up runs, median of 20 samples
 *   bench_ref ref = bench_reference(dev, 3.0 * 4 * n, 20);  // the copy (and the peak): the 100 % lines
 *   print_bench("1", "vector_add_vec4", "25000000", 20, ms, 3.0 * 4 * n, &ref, NULL);
 *
 * Bandwidth is counted in GB/s with 1 GB = 1e9 bytes, over the fewest bytes the operation must move
 * (each input read once, each output written once).
 */
#ifndef TIMING_H
#define TIMING_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
#define TIMING_MAX_BATCH 1000
#define TIMING_SHORT_MS 1.0f /* below this, one event pair per launch adds a bias of a few microseconds */

/* fn(arg) `batch` times between one pair of events on the default stream: ms per call. */
static inline float time_batch_ms(timed_fn fn, void *arg, int batch, cudaEvent_t start, cudaEvent_t stop) {
  float ms = 0.0f;
  checkCudaErrors(cudaEventRecord(start));
  for (int b = 0; b < batch; b++) fn(arg);
  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop)); /* the host waits for the GPU: only then is `stop` set */
  checkCudaErrors(cudaEventElapsedTime(&ms, start, stop));
  return ms / (float)batch;
}

/*
 * Runs fn(arg) `warmup` times untimed, then takes `reps` samples and returns their median, in ms per call.
 * fn must launch its work on the default stream and check it. A call that takes less than about 1 ms is
 * launched many times between one pair of events (enough for a sample of about 2 ms, at most 1000), because
 * recording two events around every launch adds a few microseconds to each, a large part of a short call (a
 * measured case: docs/notes/baselines.md, "Figures behind the source's choices"); longer calls get a pair of
 * events each.
 */
static inline float time_median_ms(timed_fn fn, void *arg, int warmup, int reps) {
  float t[TIMING_MAX_REPS];
  if (reps < 1) reps = 1;
  if (reps > TIMING_MAX_REPS) reps = TIMING_MAX_REPS;
  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  for (int r = 0; r < warmup; r++) fn(arg);
  checkCudaErrors(cudaDeviceSynchronize());
  int batch = 1;
  float pilot = time_batch_ms(fn, arg, 1, start, stop);
  if (pilot < TIMING_SHORT_MS) {
    float want = 2.0f / (pilot > 1e-4f ? pilot : 1e-4f);
    batch = want > TIMING_MAX_BATCH ? TIMING_MAX_BATCH : (int)want + 1;
  }
  for (int r = 0; r < reps; r++) t[r] = time_batch_ms(fn, arg, batch, start, stop);
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

/* The copy as a kernel: one 16-byte load and store per thread, a block of 1024 threads on 1024 consecutive
 * uint4s, as many blocks as it takes. cudaMemcpy's device-to-device copy can run a few per cent below such a
 * kernel, and then a kernel could beat "the copy" only because the copy was slow. (Why this shape and not a grid-stride
 * loop: docs/notes/baselines.md.) */
#define TIMING_COPY_THREADS 1024
static __global__ void timing_copy_kernel(uint4 *__restrict__ dst, const uint4 *__restrict__ src, size_t n16) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n16) dst[i] = src[i];
}

/* The read-only stream: each 16 bytes read once, one per thread, nothing written but a word no run can match
 * (`never` is not a value the loads can make, and the compiler cannot know it), so the loads cannot be
 * dropped. The 100 % line for kernels that read much and write next to nothing (a reduction). */
#define TIMING_READ_THREADS 256
static __global__ void timing_read_kernel(const uint4 *__restrict__ src, size_t n16, unsigned never,
                                          unsigned *__restrict__ sink) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n16) {
    uint4 v = src[i];
    if ((v.x ^ v.y ^ v.z ^ v.w) == never) *sink = v.x;
  }
}

typedef struct {
  uint4 *dst, *src;
  size_t n16;
  unsigned *sink;
} timing_stream_args;

static inline void timing_copy_by_kernel(void *p) {
  timing_stream_args *a = (timing_stream_args *)p;
  timing_copy_kernel<<<(unsigned)((a->n16 + TIMING_COPY_THREADS - 1) / TIMING_COPY_THREADS), TIMING_COPY_THREADS>>>(
      a->dst, a->src, a->n16);
  getLastCudaError("timing_copy_kernel execution failed");
}

static inline void timing_read(void *p) {
  timing_stream_args *a = (timing_stream_args *)p;
  timing_read_kernel<<<(unsigned)((a->n16 + TIMING_READ_THREADS - 1) / TIMING_READ_THREADS), TIMING_READ_THREADS>>>(
      a->src, a->n16, 0x9e3779b9u, a->sink);
  getLastCudaError("timing_read_kernel execution failed");
}

/* What a bandwidth is measured against, in the same run: the copy, the read-only stream and the DRAM peak. */
typedef struct {
  double copy_GBps;        /* the copy: the faster of cudaMemcpy and the copy kernel (bytes read + written) */
  double memcpy_GBps;      /* cudaMemcpyAsync device to device */
  double kernel_copy_GBps; /* timing_copy_kernel */
  double read_GBps;        /* timing_read_kernel, over as many bytes as the copy moves (bytes read) */
  double peak_GBps;        /* from the memory clock and bus width (peak_bandwidth_GBps) */
  size_t copy_bytes;       /* the size of each of the copy's two buffers */
  size_t l2_bytes;         /* the L2 cache: arrays under 4x this are partly served from L2, not DRAM */
  int read_only;           /* set by a program whose kernels read and (next to) never write: its 100 % line is
                              the read stream, reported as pct_read, and pct_copy is left out */
} bench_ref;

/*
 * The 100 % lines for a kernel that moves `traffic` bytes (reads + writes): a copy that moves the same number of
 * bytes, so that both see the same memory system, timed two ways (cudaMemcpy and a 16-byte copy kernel), the
 * faster taken, so that no kernel can beat "the copy" because the copy was slow; and a read-only stream over
 * both buffers (the same bytes, all read). The copy's buffers are at least twice the L2 cache each (4x L2 in
 * all), so that the copy measures DRAM and never comes out above the peak; when they would not fit in the free
 * device memory they are made smaller, and the line says so.
 */
static inline bench_ref bench_reference(int dev, double traffic, int reps) {
  bench_ref ref;
  memset(&ref, 0, sizeof(ref));
  ref.l2_bytes = l2_cache_bytes(dev);
  ref.peak_GBps = peak_bandwidth_GBps(dev);
  size_t want = (size_t)(traffic / 2.0);
  if (want < 2 * ref.l2_bytes) want = 2 * ref.l2_bytes;
  size_t room = device_usable_bytes() / 3; /* two buffers, and room to spare for the program's own */
  ref.copy_bytes = (want < room ? want : room) & ~(size_t)255; /* whole 256-byte lines: a few bytes less */
  if (room < want)
    printf("(the copy baseline moves %.0f MB, not the %.0f MB the kernel does: no room for more)\n",
           2e-6 * ref.copy_bytes, 2e-6 * want);
  /* one allocation: the copy's source and destination halves, read whole by the read stream */
  char *buf;
  checkCudaErrors(cudaMalloc((void **)&buf, 2 * ref.copy_bytes + 256));
  uint4 *src = (uint4 *)buf, *dst = (uint4 *)(buf + ref.copy_bytes);
  unsigned *sink = (unsigned *)(buf + 2 * ref.copy_bytes);
  checkCudaErrors(cudaMemset(src, 0x5a, ref.copy_bytes)); /* touch the pages: never time untouched memory */
  checkCudaErrors(cudaMemset(dst, 0xa5, ref.copy_bytes + 256));
  timing_copy_args a = {dst, src, ref.copy_bytes};
  float ms = time_median_ms(timing_copy, &a, 3, reps);
  ref.memcpy_GBps = 2.0 * (double)ref.copy_bytes / (ms * 1e-3) / 1e9;
  timing_stream_args k = {dst, src, ref.copy_bytes / 16, sink};
  ms = time_median_ms(timing_copy_by_kernel, &k, 3, reps);
  ref.kernel_copy_GBps = 2.0 * (double)ref.copy_bytes / (ms * 1e-3) / 1e9;
  ref.copy_GBps = ref.memcpy_GBps > ref.kernel_copy_GBps ? ref.memcpy_GBps : ref.kernel_copy_GBps;
  k.n16 = 2 * ref.copy_bytes / 16; /* the read stream: both halves */
  ms = time_median_ms(timing_read, &k, 3, reps);
  ref.read_GBps = 2.0 * (double)ref.copy_bytes / (ms * 1e-3) / 1e9;
  checkCudaErrors(cudaFree(buf));
  return ref;
}

/* The 100 % line of a measurement against ref, and its name: the read stream for a read-only kernel, else the
 * copy. */
static inline double bench_ref_GBps(const bench_ref *ref) { return ref->read_only ? ref->read_GBps : ref->copy_GBps; }
static inline const char *bench_ref_name(const bench_ref *ref) {
  return ref->read_only ? "a read-only stream" : "a device-to-device copy";
}

/*
 * One greppable line per measurement:
 *   BENCH prac=.. prog=.. n=.. reps=.. ms=.. GBps=.. copy_GBps=.. pct_copy=.. peak_GBps=.. pct_peak=.. [extra]
 * with memcpy_GBps and kernel_copy_GBps (the two copies whose faster is copy_GBps) and read_GBps beside them.
 * A read-only kernel (ref->read_only) gets pct_read against the read stream instead of pct_copy. bytes < 0 (or
 * ref NULL) leaves out the bandwidth fields (compute-bound work); extra is NULL or "key=value ...". A kernel
 * whose traffic is under 4x the L2 cache gets l2_resident=1: its GB/s may come partly from L2, and is no DRAM
 * figure.
 */
static inline void print_bench_line(const char *prac, const char *prog, const char *size, int reps, double ms,
                                    double bytes, const bench_ref *ref, const char *extra, int effective) {
  printf("BENCH prac=%s prog=%s n=%s reps=%d ms=%.4f", prac, prog, size, reps, ms);
  if (bytes >= 0 && ref) {
    double GBps = bytes / (ms * 1e-3) / 1e9;
    const char *pct = effective ? "pct_copy_effective" : ref->read_only ? "pct_read" : "pct_copy";
    printf(" %s=%.1f copy_GBps=%.1f memcpy_GBps=%.1f kernel_copy_GBps=%.1f read_GBps=%.1f %s=%.1f peak_GBps=%.1f",
           effective ? "GBps_effective" : "GBps", GBps, ref->copy_GBps, ref->memcpy_GBps, ref->kernel_copy_GBps,
           ref->read_GBps, pct, 100.0 * GBps / bench_ref_GBps(ref), ref->peak_GBps);
    if (!effective) printf(" pct_peak=%.1f", 100.0 * GBps / ref->peak_GBps);
    if (bytes < 4.0 * (double)ref->l2_bytes) printf(" l2_resident=1");
  }
  if (extra && extra[0]) printf(" %s", extra);
  printf("\n");
  fflush(stdout);
}

static inline void print_bench(const char *prac, const char *prog, const char *size, int reps, double ms, double bytes,
                               const bench_ref *ref, const char *extra) {
  print_bench_line(prac, prog, size, reps, ms, bytes, ref, extra, 0);
}

/* An effective bandwidth: `bytes` is what the work would move done one sweep at a time (laplace3d_tb's T sweeps
 * a pass read and write the grid once, not T times), so the rate can pass the copy's. It goes in GBps_effective
 * and pct_copy_effective, never in GBps and pct_copy, which stay the fewest bytes an operation must move. */
static inline void print_bench_effective(const char *prac, const char *prog, const char *size, int reps, double ms,
                                         double bytes, const bench_ref *ref, const char *extra) {
  print_bench_line(prac, prog, size, reps, ms, bytes, ref, extra, 1);
}
/*
 * The bench block every bandwidth program ends with: time fn (warm-up, median of reps), then print one line
 * for the reader and one BENCH line for make bench, against the copy and the peak in ref. Returns ms.
 */
static inline float bench_report(const bench_ref *ref, const char *prac, const char *prog, const char *size,
                                 timed_fn fn, void *arg, int reps, double bytes, const char *extra) {
  float ms = time_median_ms(fn, arg, 3, reps);
  double GBps = bytes / (ms * 1e-3) / 1e9;
  printf("%s: %.4f ms, %.1f GB/s = %.1f%% of %s (%.1f GB/s), %.1f%% of the peak (%.1f GB/s)\n", prog, ms, GBps,
         100.0 * GBps / bench_ref_GBps(ref), bench_ref_name(ref), bench_ref_GBps(ref), 100.0 * GBps / ref->peak_GBps,
         ref->peak_GBps);
  print_bench(prac, prog, size, reps, ms, bytes, ref, extra);
  return ms;
}

/* Timing one phase of a program with a pair of events, as the course does:
 *   event_timer t = event_timer_start();  ...work...  float ms = event_timer_stop(&t); */
typedef struct {
  cudaEvent_t start, stop;
} event_timer;

static inline event_timer event_timer_start(void) {
  event_timer t;
  checkCudaErrors(cudaEventCreate(&t.start));
  checkCudaErrors(cudaEventCreate(&t.stop));
  checkCudaErrors(cudaEventRecord(t.start));
  return t;
}

static inline float event_timer_stop(event_timer *t) {
  float ms = 0.0f;
  checkCudaErrors(cudaEventRecord(t->stop));
  checkCudaErrors(cudaEventSynchronize(t->stop)); /* wait for the GPU to reach `stop` */
  checkCudaErrors(cudaEventElapsedTime(&ms, t->start, t->stop));
  checkCudaErrors(cudaEventDestroy(t->start));
  checkCudaErrors(cudaEventDestroy(t->stop));
  return ms;
}
#endif /* __CUDACC__ */

#endif /* TIMING_H */
