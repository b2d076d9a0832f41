/*
 * prac1a.cu -- practical 1, steps 1-3: a first kernel, with NO error checking.
 *
 * Each thread writes its thread index into one element of x; the host copies x back and prints it.
 * Read it, build it (make prac1), run it, then break it on purpose:
 *   ./prac1a -nblocks=2000 -nthreads=4000
 * 4000 threads per block is over the limit of 1024, so the launch fails -- and nothing here notices:
 * the program prints what was in memory before (the -1 we poisoned it with) as if it were a result.
 * Only the comparison with the gold values at the end catches it. Then compare with prac1b.cu.
 *
 * (Elsewhere in the workbook a block size over 1024 is refused as bad input before any GPU work;
 * here, and in prac1b, it is allowed because seeing the GPU reject it is the lesson.)
 *
 * The only check here is findCudaDevice(), which the whole workbook uses to SKIP without a GPU.
 */
#define COURSE_STEPS "practical 1, workbook steps 1-3 (course steps 2-4)"
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"

#include "prac1_gold.h"

// how many elements to print: all of the course's 2 x 8 and of the handout's 4 x 16, the start of anything
// larger
#define NPRINT 64

// one thread per element of x: each stores its index within its block
__global__ void my_first_kernel(float *x) {
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  x[tid] = (float)threadIdx.x;
}


int main(int argc, char **argv) {
  int nblocks = 2, nthreads = 8;
  arg_spec opts[] = {
      {"nblocks", ARG_INT, &nblocks, 1, 1 << 20, "number of thread blocks"},
      {"nthreads", ARG_INT, &nthreads, 1, 1 << 20, "threads per block (the GPU allows 1024: try more)"},
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
  cudaMalloc((void **)&d_x, bytes);

  // poison the device array with -1, a value no thread ever writes
  for (long long n = 0; n < nsize; n++) h_x[n] = -1.0f;
  cudaMemcpy(d_x, h_x, bytes, cudaMemcpyHostToDevice);

  // execute kernel
  my_first_kernel<<<nblocks, nthreads>>>(d_x);

  // copy back results and print them out
  cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost);
  for (long long n = 0; n < nsize && n < NPRINT; n++) printf(" n,  x  =  %lld  %f \n", n, h_x[n]);
  if (nsize > NPRINT) printf(" ... (%lld more)\n", nsize - NPRINT);

  // check against the gold values
  Gold_prac1(h_gold, nblocks, nthreads);
  gold_stats st;
  compare_float(h_x, h_gold, (size_t)nsize, 0.0, 0.0, &st); // integers in floats: exact
  gold_report("x", &st);

  // free memory
  cudaFree(d_x);
  free(h_x);
  free(h_gold);

  return gold_verdict(&st, "x");
}
