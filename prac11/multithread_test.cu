/*
 * multithread_test.cu -- practical 11, step 1 (the course's steps 7-8): 8 OpenMP host threads, each launching one
 * kernel on its default stream; no stream is created. One source, built twice, as the course's Makefile does:
 *   multithread_legacy      nvcc's default: every host thread's default stream is the one legacy stream, shared,
 *                           so the 8 kernels queue on it and run one after another.
 *   multithread_per_thread  --default-stream per-thread: each host thread has a default stream of its own, so the
 *                           8 kernels are in 8 streams and run at once.
 * The course's design (its stream_test's kernel, after Mark Harris's CUDA 7 streams example): 8 arrays of
 * N = 1<<20 floats, a `#pragma omp parallel for` over 8 iterations, each printing its OpenMP thread's number and
 * launching one kernel of one 64-thread block; the time printed as the course prints it. Then the workbook's
 * lines, as stream_test's: each array against the CPU gold (prac11_gold.c), and the concurrency measured (an event
 * pair around each kernel on the stream it ran in), "N of 8 kernels overlapped", and the kernels' own times summed
 * against the time elapsed. multithread_legacy must find no overlap at all: its one stream forbids it.
 * Steps 2 and 5, as in stream_test.cu: each kernel's start and end by its own %globaltimer stamps (thread 0's,
 * prac11_timeline.cuh), one line per kernel, the overlaps counted from them too; -timeline=FILE writes the CSV.
 * Try -threads=1 to 32 (as many host threads as iterations, as the course has it) and -n= in both builds.
 *   nvcc -O3 -arch=native -I../common -Xcompiler -fopenmp multithread_test.cu prac11_gold.c -o multithread_legacy
 *   nvcc ... --default-stream per-thread (the same line) ... -o multithread_per_thread
 */
#define COURSE_STEPS "practical 11, workbook steps 1, 2 and 5 (course steps 7-8, and step 4's stamps)"
// under a GPU profile the profile's limits, but no green context of its SMs: a green context can be current to one
// host thread at a time, and its default streams are not this program's two (see stream_test.cu)
#define NO_GREEN_CONTEXT "the default stream has its two meanings only outside one"
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac11_check.cuh"
#include "prac11_gold.h"
#include "prac11_timeline.cuh"

// nvcc defines CUDA_API_PER_THREAD_DEFAULT_STREAM for --default-stream per-thread: then stream 0 (a launch with
// no stream, an event recorded with no stream) means cudaStreamPerThread, the calling host thread's own stream,
// else cudaStreamLegacy, one stream for the whole program
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#define DEFAULT_STREAM                                                                      \
  "per-thread (--default-stream per-thread): each host thread's own, so each kernel has a " \
  "stream to itself"
#else
#define DEFAULT_STREAM                                                                       \
  "legacy (nvcc's default): one stream, which every host thread's kernel joins in turn: no " \
  "two may overlap"
#endif

// the course's kernel: a grid-stride loop (one block of 64 threads here: 16384 elements per thread at N = 1<<20).
// 3.14159 is a double, so pow and sqrt are FP64 work; the result is rounded to float as it is stored.
// Step 2 adds stamp: this kernel's start and end, written by thread 0
__global__ void kernel(float *x, int n, unsigned long long *stamp) {
  stamp_start(stamp);
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  for (int i = tid; i < n; i += blockDim.x * gridDim.x) x[i] = sqrt(pow(3.14159, i));
  stamp_end(stamp);
}

int main(int argc, char **argv) {
  int n = 1 << 20, num_threads = 8;
  const char *timeline = NULL;
  arg_spec opts[] = {
      {"n", ARG_INT, &n, 1, PRAC11_N_MAX, "floats per thread's array: each kernel's work (the course's N = 1<<20)"},
      {"threads", ARG_INT, &num_threads, 1, PRAC11_K_MAX,
       "OpenMP host threads, one kernel of one 64-thread block each"},
      {"timeline", ARG_WORD, &timeline, 0, 0, "step 5: write each kernel's intervals to this CSV file"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  FILE *timeline_file = prac11_timeline_open(timeline);
  int dev = findCudaDevice(argc, argv);
  size_t bytes = sizeof(float) * (size_t)n;
  device_memory_check(num_threads * bytes, "the threads' arrays",
                      args_given(argc, argv, "n") || args_given(argc, argv, "threads"));

  // the workbook's events, made before the course's timer starts: an event pair around each kernel
  cudaEvent_t start, stop, k_begin[PRAC11_K_MAX], k_end[PRAC11_K_MAX];
  for (int i = 0; i < num_threads; i++) {
    checkCudaErrors(cudaEventCreate(&k_begin[i]));
    checkCudaErrors(cudaEventCreate(&k_end[i]));
  }
  int thread_of[PRAC11_K_MAX]; // which OpenMP thread ran each iteration
  // workbook step 2: two stamps per kernel, zeroed (0: not written) and done with before the course's timer starts
  unsigned long long *d_stamps;
  checkCudaErrors(cudaMalloc((void **)&d_stamps, 2 * num_threads * sizeof(*d_stamps)));
  checkCudaErrors(cudaMemset(d_stamps, 0, 2 * num_threads * sizeof(*d_stamps)));
  checkCudaErrors(cudaDeviceSynchronize());
  // the workbook's warm-up (the course has none): the OpenMP threads made, and each one's first CUDA call done (in
  // the per-thread build that makes its default stream), so that the course's time is the kernels', not start-up's
  omp_set_num_threads(num_threads);
#pragma omp parallel for
  for (int i = 0; i < num_threads; i++) { // a new host thread's device is 0 until it says otherwise (-device=N)
    checkCudaErrors(cudaSetDevice(dev));
    checkCudaErrors(cudaStreamQuery(0)); // idle: cudaSuccess
  }

  // initialise CUDA timing, and start the timer before the allocations, as the course does
  float milli;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start));

  // course step 7: as many OpenMP threads as iterations, an array each
  omp_set_num_threads(num_threads);
  float *data[PRAC11_K_MAX];
  for (int i = 0; i < num_threads; i++) checkCudaErrors(cudaMalloc((void **)&data[i], bytes));

#pragma omp parallel for
  for (int i = 0; i < num_threads; i++) {
    printf(" thread ID = %d \n", omp_get_thread_num());
    thread_of[i] = omp_get_thread_num();
    // The workbook's: the array poisoned (0xff bytes: a NaN, which no value of the kernel's is), and an event pair
    // around the kernel, all on the stream the kernel uses: stream 0, this thread's default stream, its own in the
    // per-thread build and the one shared legacy stream in the other. There the threads' work interleaves: without
    // the critical section, thread A's begin, thread B's begin, kernel A, kernel B, A's end, B's end could queue in
    // that order, and A's pair would hold both kernels: two intervals overlapping although the kernels ran one
    // after the other. The critical section keeps each thread's poison, begin, kernel and end together in the
    // queue. It holds the threads back only while they queue work (microseconds): the per-thread build's kernels
    // still run at once on the GPU.
#pragma omp critical(prac11_launch)
    {
      checkCudaErrors(cudaSetDevice(dev)); // as in the warm-up: OpenMP need not give this loop the same threads
      checkCudaErrors(cudaMemsetAsync(data[i], 0xff, bytes, 0));
      checkCudaErrors(cudaEventRecord(k_begin[i], 0));
      // launch one worker kernel per thread, on its default stream (course step 8)
      kernel<<<1, 64>>>(data[i], n, d_stamps + 2 * i);
      getLastCudaError("kernel execution failed");
      checkCudaErrors(cudaEventRecord(k_end[i], 0));
    }
  }

  // wait for completion of all kernels (every thread's stream), stop the timer and report the time: the course's line
  checkCudaErrors(cudaDeviceSynchronize());
  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  checkCudaErrors(cudaEventElapsedTime(&milli, start, stop));
  printf("execution time (ms): %f \n", milli);
  int nthreads_ran = 0; // distinct OpenMP threads that launched (OMP_THREAD_LIMIT, say, can lower it)
  for (int t = 0; t < num_threads; t++)
    for (int i = 0; i < num_threads; i++)
      if (thread_of[i] == t) {
        nthreads_ran++;
        break;
      }
  printf("default stream: %s; the %d kernels launched from %d OpenMP threads\n", DEFAULT_STREAM, num_threads,
         nthreads_ran);

  // the workbook's: each array against the gold, and the kernels' concurrency (prac11_check.cuh)
  prac11_report_t r = prac11_report(data, num_threads, n, "array", milli, start, k_begin, k_end);
  prac11_stamps_report(d_stamps, "OpenMP thread", thread_of, &r);
  prac11_timeline_write(timeline_file, timeline, "multithread_test", thread_of, &r);

  // Release GPU and CPU memory (the course resets the device instead)
  for (int i = 0; i < num_threads; i++) {
    checkCudaErrors(cudaFree(data[i]));
    checkCudaErrors(cudaEventDestroy(k_begin[i]));
    checkCudaErrors(cudaEventDestroy(k_end[i]));
  }
  checkCudaErrors(cudaFree(d_stamps));
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));
  return prac11_verdict(&r, n, "array");
}
