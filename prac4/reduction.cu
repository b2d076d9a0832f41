/*
 * reduction.cu -- practical 4, step 1: the course's starting point. One thread block adds up num_threads
 * floats, one per thread, in shared memory: a binary tree of additions, halving the active threads each
 * level, with __syncthreads() between levels; thread 0 writes the block's sum.
 *
 * The inputs are floor(10 * rand), whole numbers 0..9, so every partial sum is a small whole number that a
 * float holds exactly: the GPU's sum must equal the CPU's exactly, and the course's line reads
 * `reduction error = 0.000000`.
 *
 * Try: -threads=1024 (the most a block may have), -threads=96 (not a power of two: refused here; that is
 * step 2, in reduction_ladder -step=2). The later steps are in reduction_ladder.cu.
 *   nvcc -O3 -arch=native -I../common reduction.cu reduction_gold.c -o reduction
 */
#define COURSE_STEPS "practical 4, workbook step 1 (course steps 1-2)"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"

#include "prac4_gold.h"

// one thread per element; blockDim.x a power of two, so that every level of the tree halves exactly
__global__ void reduction(float *g_odata, const float *g_idata) {
  // shared memory for the whole block, sized at launch (the third <<< >>> argument)
  extern __shared__ float temp[];
  int tid = threadIdx.x;

  // first, each thread loads its element into shared memory
  temp[tid] = g_idata[tid];

  // next, the tree: at each level the first d threads add the element d places above their own.
  // Why is the barrier at the top of the loop body, and outside the if? (handout step 1)
  for (int d = blockDim.x / 2; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) temp[tid] += temp[tid + d];
  }

  // finally, thread 0 outputs the result; why no barrier before this read? (handout step 1)
  if (tid == 0) g_odata[0] = temp[0];
}

int main(int argc, char **argv) {
  int num_threads = 512, seed = 1;
  arg_spec opts[] = {
      {"threads", ARG_INT, &num_threads, 1, 1024, "threads in the block = elements, a power of two"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for rand()"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if (num_threads & (num_threads - 1))
    args_fail("-threads=%d is not a power of two (any number of threads is step 2: reduction_ladder -step=2)",
              num_threads);

  findCudaDevice(argc, argv);
  int num_elements = num_threads;
  size_t mem_size = sizeof(float) * num_elements;

  // allocate host memory to store the input data and initialise it: whole numbers 0..9
  float *h_data = (float *)malloc(mem_size);
  if (!h_data) return result_fail("out of host memory");
  srand((unsigned int)seed);
  for (int i = 0; i < num_elements; i++) h_data[i] = (float)floor(10.0 * (rand() / (RAND_MAX + 1.0)));

  // compute the reference solution, in double
  double sum_abs;
  double sum = reduction_gold(h_data, num_elements, &sum_abs);

  // allocate device memory; poison the output with 0xff bytes (NaN), so a result never written cannot pass
  float *d_idata, *d_odata;
  checkCudaErrors(cudaMalloc((void **)&d_idata, mem_size));
  checkCudaErrors(cudaMalloc((void **)&d_odata, sizeof(float)));
  checkCudaErrors(cudaMemset(d_odata, 0xff, sizeof(float)));

  // copy host memory to device input array
  checkCudaErrors(cudaMemcpy(d_idata, h_data, mem_size, cudaMemcpyHostToDevice));

  // execute the kernel: one block, one float of shared memory per thread
  int shared_mem_size = sizeof(float) * num_threads;
  reduction<<<1, num_threads, shared_mem_size>>>(d_odata, d_idata);
  getLastCudaError("reduction kernel execution failed");

  // copy result from device to host
  float h_sum;
  checkCudaErrors(cudaMemcpy(&h_sum, d_odata, sizeof(float), cudaMemcpyDeviceToHost));

  // check results: the sum of at most 1024 whole numbers below 10 is exact in float, so exactly equal
  printf("reduction error = %f\n", h_sum - sum);
  gold_stats st;
  compare_scalar(h_sum, sum, reduction_tolerance(sum_abs, 1, 0), 0.0, &st);
  gold_report("sum", &st);

  // cleanup memory
  free(h_data);
  checkCudaErrors(cudaFree(d_idata));
  checkCudaErrors(cudaFree(d_odata));

  return gold_verdict(&st, "sum");
}
