/*
 * prac6.cu -- practical 6, steps 1-2: CUDA code called from a C program.
 *
 * This file has no main(): main.c, plain C compiled by gcc, calls prac6(). The functions main.c calls are
 * declared in prac6.h inside extern "C" (see there), so nvcc gives them their plain C names.
 * Two ways to link it with main.c (the Makefile's comments show the commands):
 *   prac6   gcc links main.o with this file's object and the CUDA runtime library
 *   prac6a  this file is first made into a static library, libprac6.a, by nvcc -lib
 * By hand, in prac6/:
 *   gcc -O2 -std=c11 -I../common -c main.c -o main.o && gcc -O2 -std=c11 -I../common -c prac6_gold.c -o prac6_gold.o
 *   nvcc -O3 -arch=native -I../common -c prac6.cu -o prac6.o
 *   gcc main.o prac6.o prac6_gold.o -L/usr/local/cuda/lib64 -Wl,-rpath,/usr/local/cuda/lib64 -lcudart -lstdc++ -lm \
 *       -o prac6
 */
#include <stdio.h>
#include <stdlib.h>

#include "helper_cuda.h"

#include "prac6.h"

// how many elements to print: all of the course's 2 x 8, the start of anything larger
#define NPRINT 64

// one thread per element of x: each stores its index within its block
__global__ void my_first_kernel(float *x) {
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  x[tid] = (float)threadIdx.x;
}

// the host copy that prac6() leaves for prac6_x()
static float *result_x = NULL;

void prac6_device(int argc, char **argv) { findCudaDevice(argc, argv); }

int prac6(int nblocks, int nthreads) {
  long long nsize = (long long)nblocks * nthreads;
  size_t bytes = (size_t)nsize * sizeof(float);

  // allocate memory for the array, on the host and on the device
  float *h_x = (float *)malloc(bytes);
  if (h_x == NULL) return 1;
  float *d_x;
  checkCudaErrors(cudaMalloc((void **)&d_x, bytes));
  checkCudaErrors(cudaMemset(d_x, 0xff, bytes)); // poison: NaN, which no thread writes

  // execute kernel
  my_first_kernel<<<nblocks, nthreads>>>(d_x);
  getLastCudaError("my_first_kernel execution failed");

  // copy back results and print them out
  checkCudaErrors(cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost));
  for (long long n = 0; n < nsize && n < NPRINT; n++) printf(" n,  x  =  %lld  %f \n", n, h_x[n]);
  if (nsize > NPRINT) printf(" ... (%lld more)\n", nsize - NPRINT);

  // free device memory; the host copy goes to the caller
  checkCudaErrors(cudaFree(d_x));
  free(result_x);
  result_x = h_x;
  return 0;
}

float *prac6_x(void) {
  float *x = result_x;
  result_x = NULL;
  return x;
}
