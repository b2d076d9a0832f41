/*
 * stream_test.cu -- practical 11, step 1 (the course's steps 1-3): kernels in 8 streams, and the default stream
 * between them. One source, built twice, as the course's Makefile does:
 *   stream_legacy      nvcc's default: the default stream is the legacy one. Work put on it waits for all
 *                      earlier work in every stream, and later work in every stream waits for it, so each
 *                      iteration's copy and dummy kernel on it are a barrier: the 8 kernels run one after another.
 *   stream_per_thread  --default-stream per-thread: the default stream is this host thread's own, an ordinary
 *                      stream that neither waits for the others nor holds them back: the 8 kernels run at once.
 * The course's design (after Mark Harris's CUDA 7 streams example): 8 streams, each an array of N = 1<<20 floats
 * and one kernel of one 64-thread block doing FP64 work on it, sqrt(pow(3.14159, i)) (the literal is a double);
 * the time from before the allocations to the end, printed as the course prints it. Then the workbook's lines:
 * each stream's array against the CPU gold (prac11_gold.c), and the concurrency measured: each kernel's start and
 * end (an event pair in its own stream) on one timeline, "N of 8 kernels overlapped", and the kernels' own times
 * summed against the time elapsed. stream_legacy must find no overlap at all: its default stream forbids it.
 * Step 2 (the course's step 4, prints from thread 0 as each kernel starts and ends): thread 0 of each kernel
 * writes %globaltimer, the GPU's nanosecond timer, as it starts and once its block is done, into a buffer of two
 * stamps per kernel (prac11_timeline.cuh says why not device printf); one line per kernel then gives its interval
 * by these stamps beside its events', the overlaps are counted again from the stamps, and the timer's step is
 * printed, measured after the run by one thread reading %globaltimer in a loop (prac11_check.cuh). Step 5:
 * -timeline=FILE writes both sets of intervals as CSV, which timeline.py draws.
 * Try -streams=1 to 32 (one more block-sized kernel each) and -n= (the work per kernel) in both builds.
 * The exercise (make exercises): exercises/stream_per_thread, built with -DEXERCISE, takes the stamps from
 * exercises/stamps.cuh, where they are left to write.
 *   nvcc -O3 -arch=native -I../common stream_test.cu prac11_gold.c -o stream_legacy
 *   nvcc -O3 -arch=native -I../common --default-stream per-thread stream_test.cu prac11_gold.c -o stream_per_thread
 */
#define COURSE_STEPS "practical 11, workbook steps 1, 2 and 5 (course steps 1-4)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 2)s in exercises/stamps.cuh"
#endif
// under a GPU profile (make check-profiles) the profile's limits, but no green context of its SMs: in one, on an
// H100, the legacy default stream did not order the streams' kernels and the per-thread one was an invalid handle
#define NO_GREEN_CONTEXT "the default stream has its two meanings only outside one"
#include <math.h>
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
// no stream, cudaMemcpy, an event recorded with no stream) means cudaStreamPerThread, else cudaStreamLegacy
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#define DEFAULT_STREAM                                                                     \
  "per-thread (--default-stream per-thread): this host thread's own, which neither waits " \
  "for the other streams nor holds them back"
#else
#define DEFAULT_STREAM                                                                    \
  "legacy (nvcc's default): each iteration's copy and dummy kernel on it wait for every " \
  "stream's kernel before them, and the next kernel waits for them: no two may overlap"
#endif

// the course's kernel: a grid-stride loop (one block of 64 threads here: 16384 elements per thread at N = 1<<20).
// 3.14159 is a double, so pow and sqrt are FP64 work; the result is rounded to float as it is stored.
// Step 2 adds stamp: this kernel's start and end, written by thread 0 (NULL: none, as for the dummy kernel)
__global__ void kernel(float *x, int n, unsigned long long *stamp) {
  stamp_start(stamp);
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  for (int i = tid; i < n; i += blockDim.x * gridDim.x) x[i] = sqrt(pow(3.14159, i));
  stamp_end(stamp);
}

int main(int argc, char **argv) {
  int n = 1 << 20, num_streams = 8;
  const char *timeline = NULL;
  arg_spec opts[] = {
      {"n", ARG_INT, &n, 1, PRAC11_N_MAX, "floats per stream: each kernel's work (the course's N = 1<<20)"},
      {"streams", ARG_INT, &num_streams, 1, PRAC11_K_MAX, "streams, one kernel of one 64-thread block each"},
      {"timeline", ARG_WORD, &timeline, 0, 0, "step 5: write each kernel's intervals to this CSV file"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  FILE *timeline_file = prac11_timeline_open(timeline);
  findCudaDevice(argc, argv);
  size_t bytes = sizeof(float) * (size_t)n;
  device_memory_check(num_streams * bytes + sizeof(float), "the streams' arrays",
                      args_given(argc, argv, "n") || args_given(argc, argv, "streams"));

  // the workbook's events, made before the course's timer starts: an event pair around each kernel in its stream
  cudaEvent_t start, stop, k_begin[PRAC11_K_MAX], k_end[PRAC11_K_MAX];
  for (int i = 0; i < num_streams; i++) {
    checkCudaErrors(cudaEventCreate(&k_begin[i]));
    checkCudaErrors(cudaEventCreate(&k_end[i]));
  }
  // workbook step 2: two stamps per kernel, zeroed (0: not written) and done with before the course's timer starts
  unsigned long long *d_stamps;
  checkCudaErrors(cudaMalloc((void **)&d_stamps, 2 * num_streams * sizeof(*d_stamps)));
  checkCudaErrors(cudaMemset(d_stamps, 0, 2 * num_streams * sizeof(*d_stamps)));
  checkCudaErrors(cudaDeviceSynchronize());

  // initialise CUDA timing, and start the timer before the allocations, as the course does
  float milli;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start));

  // one float on each side, for the copy on the default stream
  float h_data[1] = {1.0f}, *d_data;
  checkCudaErrors(cudaMalloc((void **)&d_data, sizeof(float)));

  // course step 1: a stream, an array and a kernel at a time
  cudaStream_t streams[PRAC11_K_MAX];
  float *data[PRAC11_K_MAX];
  for (int i = 0; i < num_streams; i++) {
    checkCudaErrors(cudaStreamCreate(&streams[i]));
    checkCudaErrors(cudaMalloc((void **)&data[i], bytes));
    // the workbook's: the array poisoned in its own stream, before its kernel (0xff bytes: a NaN, which no
    // value of the kernel's is), so that a kernel that never ran fails; then the kernel between two events there
    checkCudaErrors(cudaMemsetAsync(data[i], 0xff, bytes, streams[i]));
    checkCudaErrors(cudaEventRecord(k_begin[i], streams[i]));

    // launch one worker kernel per stream
    kernel<<<1, 64, 0, streams[i]>>>(data[i], n, d_stamps + 2 * i);
    getLastCudaError("kernel execution failed");
    checkCudaErrors(cudaEventRecord(k_end[i], streams[i]));

    // course step 2: a 1-float copy and a dummy kernel on the default stream (legacy: a barrier; per-thread: neither)
    checkCudaErrors(cudaMemcpy(d_data, h_data, sizeof(float), cudaMemcpyHostToDevice));
    kernel<<<1, 1>>>(d_data, 0, NULL);
    getLastCudaError("dummy kernel execution failed");
  }

  // wait for completion of all kernels, stop the timer and report the time: the course's line
  checkCudaErrors(cudaDeviceSynchronize());
  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  checkCudaErrors(cudaEventElapsedTime(&milli, start, stop));
  printf("execution time (ms): %f \n", milli);
  printf("default stream: %s\n", DEFAULT_STREAM);

  // the workbook's: each array against the gold, and the kernels' concurrency (prac11_check.cuh)
  prac11_report_t r = prac11_report(data, num_streams, n, "stream", milli, start, k_begin, k_end);
  int stream_of[PRAC11_K_MAX];
  for (int i = 0; i < num_streams; i++) stream_of[i] = i;
  prac11_stamps_report(d_stamps, "stream", stream_of, &r);
  prac11_timeline_write(timeline_file, timeline, "stream_test", stream_of, &r);

  // Release GPU and CPU memory; the workbook destroys the streams and events too (the course never does)
  for (int i = 0; i < num_streams; i++) {
    checkCudaErrors(cudaFree(data[i]));
    checkCudaErrors(cudaStreamDestroy(streams[i]));
    checkCudaErrors(cudaEventDestroy(k_begin[i]));
    checkCudaErrors(cudaEventDestroy(k_end[i]));
  }
  checkCudaErrors(cudaFree(d_data));
  checkCudaErrors(cudaFree(d_stamps));
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));
  return prac11_verdict(&r, n, "stream");
}
