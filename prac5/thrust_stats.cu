/*
 * thrust_stats.cu -- practical 5, step 4: Thrust, the C++ template library of parallel algorithms that comes
 * with CUDA, from C-style host code. The mean, the rms and the median of n random numbers:
 *   thrust::device_vector<float>       device memory that frees itself (and copies with =)
 *   thrust::transform_reduce           x -> x^2 by our functor `square`, then a sum: one pass, no temporary
 *   thrust::reduce                     the plain sum, for the mean
 *   thrust::sort                       a radix sort on the GPU; the median is then the middle element
 * The sort is timed as a program that sorts often calls it: its temporary storage allocated once, by our
 * allocator (once_allocator), and the policy par_nosync, so that no call waits for the GPU at its end.
 * Thrust reports errors by throwing C++ exceptions (thrust::system_error, std::bad_alloc): main catches
 * them, so that a failure ends in RESULT: FAIL like every other error in the workbook (-fault provokes one).
 * The gold: the sums in double and qsort on the host. Sorting is exact (the same numbers, in order), the
 * sums are float sums in an order Thrust does not document: the tolerance assumes CUB's (see the check).
 *   nvcc -O3 -arch=native -I../common thrust_stats.cu prac5_gold.c -o thrust_stats
 */
#define COURSE_STEPS "practical 5, workbook step 4 (course step 3)"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <exception>
#include <new>
#include <stdexcept>

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/system_error.h>
#include <thrust/transform_reduce.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac5_gold.h"

// the functor transform_reduce applies to every element before adding: callable on the device
struct square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

typedef struct {
  thrust::device_vector<float> *v;
  float sum, sumsq;
} stats_call;

// the two sums: each is one kernel launch (and a copy of one float back to the host)
static void run_sums(void *arg) {
  stats_call *c = (stats_call *)arg;
  c->sum = thrust::reduce(c->v->begin(), c->v->end(), 0.0f, thrust::plus<float>());
  c->sumsq = thrust::transform_reduce(c->v->begin(), c->v->end(), square(), 0.0f, thrust::plus<float>());
}

// Thrust asks its allocator for the sort's temporary storage at every call: this one grows one buffer on the
// first (untimed) call and hands the same buffer out again, so that no timed call runs cudaMalloc or cudaFree
// (which the default allocator would, inside the timing). One buffer serves one allocation at a time: a call
// that asked for a second before giving the first back would get an exception, not a shared buffer. Reusing
// the buffer in the next call without waiting is safe: every call runs on the same stream, in order.
typedef struct {
  char *d_temp;
  size_t bytes;
  int in_use;
} sort_workspace;

struct once_allocator {
  typedef char value_type;
  sort_workspace *w;
  char *allocate(std::ptrdiff_t bytes) {
    if (w->in_use) throw std::logic_error("once_allocator: a second allocation while the first is in use");
    if ((size_t)bytes > w->bytes) {
      if (w->d_temp) checkCudaErrors(cudaFree(w->d_temp));
      w->d_temp = NULL;
      w->bytes = 0;
      if (cudaMalloc((void **)&w->d_temp, (size_t)bytes) != cudaSuccess) throw std::bad_alloc();
      w->bytes = (size_t)bytes;
    }
    w->in_use = 1;
    return w->d_temp;
  }
  void deallocate(char *, size_t) { w->in_use = 0; } // kept for the next call; freed at the end of run
};

// thrust::sort in place on d_keys[0..n-1], on the default stream, returning as soon as the work is queued
static void sort_nosync(float *d_keys, long long n, sort_workspace *w) {
  once_allocator alloc = {w};
  thrust::sort(thrust::cuda::par_nosync(alloc), d_keys, d_keys + n);
}

// The sort's time: each of reps sorts starts from a fresh copy of the unsorted numbers, made before its start
// event, so that the events hold the sort alone (nothing subtracted; the copy leaves part of the keys in L2, as
// the step that made them would for a caller); the median of the reps is returned (-1 if out of host memory).
// Every copy and sort is queued before the host waits once, at the end, so the GPU never waits for the host
// between samples. Each pair of events adds a few microseconds to its sample (timing.h).
static float time_sort_ms(float *d_keys, const float *d_unsorted, long long n, sort_workspace *w, int reps) {
  cudaEvent_t *ev = (cudaEvent_t *)malloc(2 * (size_t)reps * sizeof(cudaEvent_t));
  float *t = (float *)malloc((size_t)reps * sizeof(float));
  if (!ev || !t) {
    free(ev);
    free(t);
    return -1.0f;
  }
  for (int r = 0; r < 2 * reps; r++) checkCudaErrors(cudaEventCreate(&ev[r]));
  for (int r = 0; r < reps; r++) {
    checkCudaErrors(cudaMemcpyAsync(d_keys, d_unsorted, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice));
    checkCudaErrors(cudaEventRecord(ev[2 * r]));
    sort_nosync(d_keys, n, w);
    checkCudaErrors(cudaEventRecord(ev[2 * r + 1]));
  }
  checkCudaErrors(cudaEventSynchronize(ev[2 * reps - 1]));
  for (int r = 0; r < reps; r++) checkCudaErrors(cudaEventElapsedTime(&t[r], ev[2 * r], ev[2 * r + 1]));
  for (int r = 0; r < 2 * reps; r++) checkCudaErrors(cudaEventDestroy(ev[r]));
  float ms = median_float(t, reps);
  free(ev);
  free(t);
  return ms;
}

static int run(long long n, int seed, int fault, int reps, int sms) {
  size_t bytes = (size_t)n * sizeof(float);
  float *h_x = (float *)malloc(bytes), *h_sorted = (float *)malloc(bytes);
  if (!h_x || !h_sorted) return result_fail("out of host memory");
  fill_uniform(h_x, (size_t)n, (unsigned)seed, -1.0f, 1.0f);

  // device_vector: allocation and the copy in, in one line (a constructor from two host pointers)
  thrust::device_vector<float> d_x(h_x, h_x + n);
  if (fault) {
    // -fault: ask for far more memory than any GPU has; Thrust throws std::bad_alloc (or system_error)
    thrust::device_vector<float> too_big((size_t)1 << 42);
  }
  stats_call c = {&d_x, 0.0f, 0.0f};
  run_sums(&c);
  float ms_sums = time_median_ms(run_sums, &c, 2, reps);

  // the sort, in place on a copy of the unsorted numbers: the first call (untimed: it allocates the sort's
  // temporary storage) is checked below, then reps timed sorts; the output the last of them left is checked too
  thrust::device_vector<float> d_sorted = d_x;
  float *d_keys = thrust::raw_pointer_cast(d_sorted.data());
  const float *d_unsorted = thrust::raw_pointer_cast(d_x.data());
  sort_workspace w = {NULL, 0, 0};
  sort_nosync(d_keys, n, &w);
  thrust::copy(d_sorted.begin(), d_sorted.end(), h_sorted); // waits for the sort
  // NaN in d_sorted: the timed sorts must leave their own output there, not the first call's
  checkCudaErrors(cudaMemset(d_keys, 0xff, bytes));
  float ms_sort = time_sort_ms(d_keys, d_unsorted, n, &w, reps);
  if (ms_sort < 0.0f) return result_fail("out of host memory");
  double median = (n % 2) ? h_sorted[n / 2] : 0.5 * ((double)h_sorted[n / 2 - 1] + h_sorted[n / 2]);
  printf("n = %lld: mean = %.7f, rms = %.7f, median = %.7f\n", n, c.sum / n, sqrt(c.sumsq / n), median);
  printf("thrust::reduce + transform_reduce: %.4f ms; thrust::sort: %.4f ms (%.1f Mkeys/s)\n", ms_sums, ms_sort,
         n / (ms_sort * 1e-3) / 1e6);

  // Gold treatment: the sums in double, the sort by qsort
  double t0 = wall_ms();
  double sum = 0.0, sumsq = 0.0, sum_abs = 0.0;
  for (long long i = 0; i < n; i++) {
    sum += h_x[i];
    sum_abs += fabs(h_x[i]);
    sumsq += (double)h_x[i] * h_x[i];
  }
  qsort(h_x, (size_t)n, sizeof(float), cmp_float);
  printf("gold (double sums, qsort): %.1f ms\n", wall_ms() - t0);

  // error check: the sort exact; each sum within gamma(d) of the sum of its terms' sizes, d the longest chain
  // of float additions a term goes through. Thrust's reduce is CUB's: every thread of a grid of at least one
  // 256-thread block per SM adds its share serially, then trees combine the threads' sums. d = n / (SMs * 256)
  // + 64 covers both (prac4's reduction_ladder makes the same assumption); d = n would be useless: past 2^24
  // terms gamma(n) is not even defined.
  double depth = (double)((n + (long long)sms * 256 - 1) / ((long long)sms * 256)) + 64;
  printf("tolerance: gamma(%.0f) * sum|x| for the sum, gamma(%.0f) * sum x^2 for the squares\n", depth, depth + 1);
  gold_stats s_sum, s_sq, s_sort;
  compare_scalar(c.sum, sum, gamma_k(depth, U_FP32) * sum_abs, 0.0, &s_sum);
  compare_scalar(c.sumsq, sumsq, gamma_k(depth + 1, U_FP32) * sumsq, 0.0, &s_sq); // +1: the squaring
  compare_float(h_sorted, h_x, (size_t)n, 0.0, 0.0, &s_sort);
  gold_report("sum", &s_sum);
  gold_report("sum of squares", &s_sq);
  gold_report("sorted", &s_sort);
  // the output the last timed sort left, compared as the first call's was (a line only when it differs)
  gold_stats s_timed;
  thrust::copy(d_sorted.begin(), d_sorted.end(), h_sorted);
  compare_float(h_sorted, h_x, (size_t)n, 0.0, 0.0, &s_timed);
  if (s_timed.nbad) gold_report("sorted by the last timed sort", &s_timed);
  if (w.d_temp) checkCudaErrors(cudaFree(w.d_temp));
  free(h_x);
  free(h_sorted);
  if (s_sum.nbad) return gold_verdict(&s_sum, "sum");
  if (s_sq.nbad) return gold_verdict(&s_sq, "sum of squares");
  if (s_sort.nbad) return gold_verdict(&s_sort, "sorted");
  return gold_verdict(&s_timed, "sorted by the last timed sort");
}

int main(int argc, char **argv) {
  long long n = 1 << 24;
  int seed = 1, fault = 0, reps = 20;
  arg_spec opts[] = {
      {"n", ARG_LONG, &n, 1, (double)(1LL << 31), "number of floats"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the inputs"},
      {"fault", ARG_FLAG, &fault, 0, 1, "ask Thrust for 16 TiB, to see an exception become RESULT: FAIL"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions (the median is printed)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  int dev = findCudaDevice(argc, argv);
  // the vector, its sorted copy and the sort's temporary storage (about the size of the keys again)
  device_memory_check(3 * (size_t)n * sizeof(float), "the vector, its sorted copy and the sort's workspace",
                      args_given(argc, argv, "n"));

  // Thrust throws: every exception ends in one verdict line
  try {
    return run(n, seed, fault, reps, device_limits(dev)->sms);
  } catch (const thrust::system_error &e) {
    return result_fail("Thrust threw thrust::system_error: %s", e.what());
  } catch (const std::bad_alloc &e) {
    return result_fail("Thrust threw std::bad_alloc: %s", e.what());
  } catch (const std::exception &e) {
    return result_fail("Thrust threw an exception: %s", e.what());
  }
}
