/*
 * prac1c.cu -- practical 1, step 7: managed (unified) memory.
 *
 * The same kernel as prac1b.cu, but x lives in one cudaMallocManaged allocation that host and device
 * both use: no separate host copy and no cudaMemcpy. The host must wait for the kernel
 * (cudaDeviceSynchronize) before it reads x -- leave that out and see what happens.
 * With managed memory, pages move between host and GPU on demand, when first touched on the other side.
 */
#define COURSE_STEPS "practical 1, workbook step 7 (course step 7)"
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
      {"nthreads", ARG_INT, &nthreads, 1, 1024, "threads per block"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  long long nsize = (long long)nblocks * nthreads;
  if (nsize > (1LL << 28)) args_fail("nblocks * nthreads is over 2^28 elements");

  findCudaDevice(argc, argv);

  // allocate managed memory, which host and device share, and the gold array on the host
  size_t bytes = (size_t)nsize * sizeof(float);
  float *x;
  checkCudaErrors(cudaMallocManaged((void **)&x, bytes));
  float *h_gold = (float *)malloc(bytes);
  if (h_gold == NULL) return result_fail("out of host memory");

  // poison x with -1, a value no thread ever writes (the host writes managed memory directly)
  for (long long n = 0; n < nsize; n++) x[n] = -1.0f;

  // execute kernel, then wait for it before the host touches x again
  my_first_kernel<<<nblocks, nthreads>>>(x);
  getLastCudaError("my_first_kernel execution failed");
  checkCudaErrors(cudaDeviceSynchronize());

  // print the results: no copy needed
  for (long long n = 0; n < nsize && n < NPRINT; n++) printf(" n,  x  =  %lld  %f \n", n, x[n]);
  if (nsize > NPRINT) printf(" ... (%lld more)\n", nsize - NPRINT);

  // check against the gold values
  Gold_prac1(h_gold, nblocks, nthreads);
  gold_stats st;
  compare_float(x, h_gold, (size_t)nsize, 0.0, 0.0, &st); // integers in floats: exact
  gold_report("x", &st);

  // free memory
  checkCudaErrors(cudaFree(x));
  free(h_gold);

  return gold_verdict(&st, "x");
}
