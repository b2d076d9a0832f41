/*
 * work_streaming.cu -- practical 12, step 2 (the program the course's step 4 starts from): data streamed to the
 * GPU, processed there and copied back, one stage after another. The course's design: 1 GiB of doubles (1<<27)
 * in pageable host memory from malloc, filled by srand(0) and rand()/RAND_MAX; timed between two events: a
 * cudaMemcpy of all of it to the device, do_work<<<2^19, 256>>> (20 steps of x = cos(x); x = sqrt(fabs(x)) on
 * each double), and a cudaMemcpy of all of it back. While the data is copied nothing is computed, and while it is
 * computed nothing is copied: step 2 cuts it into chunks over several streams, from pinned memory, so that the
 * copies and the kernel overlap. The course prints its time; the workbook adds the output against the CPU gold
 * (prac12_gold.c: the same steps in double; the tolerance: prac12_gold.h). The device array is poisoned with NaN
 * before the timed run, so a copy in that did not happen fails; the host array holds the inputs until the copy
 * back, and every step changes them, so a kernel or a copy out that did not happen fails too.
 * Try -n= (from 1 to 2^29 doubles: any count, the last block part empty) and -iters= (the kernel's share).
 *   nvcc -O3 -Xcompiler -fopenmp -arch=native -I../common work_streaming.cu prac12_gold.c -o work_streaming
 */
#define COURSE_STEPS "practical 12, workbook step 2 (course step 4: the program it starts from)"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac12_gold.h"

#define WS_BLOCK 256       // the course's blocksize: any size works, the doubles are independent
#define WS_N_MAX (1 << 29) // doubles at most, 4 GiB: the course's int indexes stay below 2^31

#include "do_work.cuh" // the course's kernel, shared by the three programs

int main(int argc, char **argv) {
  int total_data = 1 << 27, iters = 20;
  arg_spec opts[] = {
      {"n", ARG_INT, &total_data, 1, WS_N_MAX, "doubles streamed through the GPU (the course's 1<<27, 1 GiB)"},
      {"iters", ARG_INT, &iters, 1, 1000,
       "steps of x = sqrt(|cos x|) per double: the kernel's length (the course's 20)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  findCudaDevice(argc, argv);
  size_t bytes = sizeof(double) * (size_t)total_data;
  device_memory_check(bytes, "the data", args_given(argc, argv, "n"));
  char why[300];
  if (!prac12_host_memory_ok(2 * bytes, "the data and its gold", "/proc/meminfo", why, sizeof(why)))
    return result_skip("%s", why);

  // Allocate 1 GB of data (at the default size); the workbook's: a second host array, for the gold
  double *d_data, *h_data, *h_gold;
  h_data = (double *)malloc(bytes);
  h_gold = (double *)malloc(bytes);
  if (!h_data || !h_gold)
    return result_fail("out of host memory: %.2f GiB for the data and its gold", 2.0 * bytes / (1 << 30));
  checkCudaErrors(cudaMalloc((void **)&d_data, bytes));

  // Initialise host data: the course's srand(0) and rand()/RAND_MAX (prac12_inputs); the workbook's: the inputs
  // kept for the gold, and the device array poisoned with NaN (0xff bytes) before the timer starts
  prac12_inputs(h_data, (size_t)total_data, 1.0);
  memcpy(h_gold, h_data, bytes);
  checkCudaErrors(cudaMemset(d_data, 0xff, bytes));
  // the workbook's: do_work's code loaded now, not at its launch inside the course's timed region: CUDA 13 loads a
  // module lazily, which the course's runs predate (and a PTX-only build, make check-arch, would be compiled there)
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, do_work));
  checkCudaErrors(cudaDeviceSynchronize());

  // Start timing
  float time;
  cudaEvent_t start, stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaEventRecord(start, 0));

  // Copy data to device
  checkCudaErrors(cudaMemcpy(d_data, h_data, bytes, cudaMemcpyHostToDevice));

  // Figure out how many blocks are needed
  int blocksize = WS_BLOCK;
  int nblocks = (total_data - 1) / blocksize + 1;

  // Launch kernel to process data
  do_work<<<nblocks, blocksize, 0, 0>>>(d_data, total_data, 0, iters);
  getLastCudaError("do_work execution failed");

  // Copy data back from device
  checkCudaErrors(cudaMemcpy(h_data, d_data, bytes, cudaMemcpyDeviceToHost));

  checkCudaErrors(cudaEventRecord(stop, 0));
  checkCudaErrors(cudaEventSynchronize(stop));
  checkCudaErrors(cudaEventElapsedTime(&time, start, stop));
  printf("Total processing time:  %g ms\n", time);

  // Gold treatment, then the output against it
  double t0 = wall_ms();
  prac12_gold(h_gold, (size_t)total_data, iters);
  double gold_ms = wall_ms() - t0;
  gold_stats st;
  compare_double(h_data, h_gold, (size_t)total_data, 0.0, PRAC12_RTOL, &st);
  printf("results: %d doubles (%.3f GiB) from the course's srand(0) and rand()/RAND_MAX, %d steps of x = "
         "sqrt(|cos x|) in %d blocks of %d threads, against the CPU gold (double, %d threads, %.1f ms)\n",
         total_data, (double)bytes / (1 << 30), iters, nblocks, blocksize, prac12_gold_threads(), gold_ms);
  gold_report("output", &st);
  printf("the course's time: %.3f GB copied in, the kernel, %.3f GB copied back, one after another, from pageable "
         "memory (step 2 times each stage, then overlaps them)\n",
         bytes * 1e-9, bytes * 1e-9);

  // Release GPU and CPU memory; the workbook destroys the events too
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));
  checkCudaErrors(cudaFree(d_data));
  free(h_data);
  free(h_gold);
  return gold_verdict(&st, "output");
}
