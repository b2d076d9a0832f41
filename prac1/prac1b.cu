/*
 * prac1b.cu -- practical 1, steps 4-5: the same kernel as prac1a.cu, with every call checked.
 *
 * checkCudaErrors() wraps each CUDA call; getLastCudaError() follows each launch (helper_cuda.h).
 * Run the error injection again and see the difference:
 *   ./prac1b -nblocks=2000 -nthreads=4000      -> the launch error, named by the check after the launch, RESULT: FAIL
 * (the error's wording depends on the toolkit and driver: the handout shows what CUDA 13 prints).
 * Then try -printf: the kernel prints from every thread, and the order of the lines tells you
 * something about how warps and blocks are scheduled (printf output is flushed at the next sync).
 *
 * -fault makes the kernel itself fail: every thread writes far outside x. The launch is fine, so
 * getLastCudaError() finds nothing; the fault is reported by the next call that waits for the GPU (the
 * cudaMemcpy back). Build with make DEBUG=1, where getLastCudaError() also synchronises, and the same
 * fault is reported at the launch.
 *
 * A block size over 1024 is accepted on purpose here (see prac1a.cu): the GPU's refusal is the lesson.
 */
#define COURSE_STEPS "practical 1, workbook steps 4-5 (course steps 3-5; -printf is course step 5, already written)"
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"

#include "prac1_gold.h"

// how many elements to print: all of the course's 2 x 8 and of the handout's 4 x 16, the start of anything
// larger
#define NPRINT 64

// -fault: how far past its element each thread writes. 2^45 floats is 2^47 bytes (128 TiB) on, beyond the
// address space of a Linux x86-64 process and so beyond every GPU allocation: nothing is mapped there
#define FAULT_OFFSET (1LL << 45)

// one thread per element of x: each stores its index within its block (offset 0; FAULT_OFFSET with
// -fault), and may say so
__global__ void my_first_kernel(float *x, int print, long long offset) {
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  x[tid + offset] = (float)threadIdx.x;
  if (print) printf("block %d, thread %d: x[%d] = %d\n", blockIdx.x, threadIdx.x, tid, threadIdx.x);
}


int main(int argc, char **argv) {
  int nblocks = 2, nthreads = 8, print = 0, fault = 0;
  arg_spec opts[] = {
      {"nblocks", ARG_INT, &nblocks, 1, 1 << 20, "number of thread blocks"},
      {"nthreads", ARG_INT, &nthreads, 1, 1 << 20, "threads per block (the GPU allows 1024: try more)"},
      {"printf", ARG_FLAG, &print, 0, 1, "printf from every thread of the kernel"},
      {"fault", ARG_FLAG, &fault, 0, 1, "make the kernel write out of bounds (a fault inside the kernel)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  long long nsize = (long long)nblocks * nthreads;
  if (nsize > (1LL << 28)) args_fail("nblocks * nthreads is over 2^28 elements");

  findCudaDevice(argc, argv);

  // allocate memory for the array, on the host and on the device
  size_t bytes = (size_t)nsize * sizeof(float);
  float *h_x = (float *)malloc(bytes);
  float *h_gold = (float *)malloc(bytes);
  if (h_x == NULL || h_gold == NULL) return result_fail("out of host memory");
  float *d_x;
  checkCudaErrors(cudaMalloc((void **)&d_x, bytes));

  // poison the device array with -1, a value no thread ever writes
  for (long long n = 0; n < nsize; n++) h_x[n] = -1.0f;
  checkCudaErrors(cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice));

  // execute kernel. getLastCudaError sees launch errors at once; a fault inside the kernel (-fault) shows
  // at the next call that waits for the GPU, or here in a DEBUG=1 build
  my_first_kernel<<<nblocks, nthreads>>>(d_x, print, fault ? FAULT_OFFSET : 0);
  getLastCudaError("my_first_kernel execution failed");

  // copy back results and print them out
  checkCudaErrors(cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost));
  for (long long n = 0; n < nsize && n < NPRINT; n++) printf(" n,  x  =  %lld  %f \n", n, h_x[n]);
  if (nsize > NPRINT) printf(" ... (%lld more)\n", nsize - NPRINT);

  // check against the gold values
  Gold_prac1(h_gold, nblocks, nthreads);
  gold_stats st;
  compare_float(h_x, h_gold, (size_t)nsize, 0.0, 0.0, &st); // integers in floats: exact
  gold_report("x", &st);

  // free memory
  checkCudaErrors(cudaFree(d_x));
  free(h_x);
  free(h_gold);

  return gold_verdict(&st, "x");
}
