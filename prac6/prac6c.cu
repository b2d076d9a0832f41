/*
 * prac6c.cu -- practical 6, step 4: a template with an integer parameter, and per-thread arrays.
 *
 * `template <int size>` gives each copy of the kernel its own compile-time array length, so that
 * `float xl[size]` is a small fixed array in each thread. When every index into xl is known at compile time
 * (the loops over i and j unrolled completely), ptxas keeps the array in registers; when an index is only
 * known at run time, registers cannot be indexed, and the array goes to "local memory": per-thread memory that
 * lives in DRAM and is cached in L1/L2. The build log shows which (make prac6c, or .obj/prac6c.cu.log):
 *   size 2, 3, 16    registers only: "0 bytes stack frame"
 *   size 64          the 64 x 64 double loop is not fully unrolled, so xl is indexed at run time: a 256-byte
 *                    stack frame
 *   size 256         unrolled as far as 255 registers go, and the rest spilled: "spill stores"
 *   my_kernel_runtime<16>, whose loops run to m, a run-time argument: a 64-byte stack frame
 *   my_unrolled_kernel<64> (prac6c_unroll.cuh), size 64 with #pragma unroll where the compiler would not
 *                    unroll by itself: registers only, no stack frame, which the program checks from
 *                    cudaFuncGetAttributes' localSizeBytes
 * The course's sizes are 2 and 3 (thread 0 gives size^2 = 4 and 9). The exercise (make exercises) is the
 * unrolling: exercises/prac6c_unroll.cuh, built into exercises/prac6c with -DEXERCISE.
 *   nvcc -O3 -arch=native --ptxas-options=-v -I../common prac6c.cu prac6_gold.c -o prac6c   (in prac6/)
 */
#define COURSE_STEPS "practical 6, workbook step 4 (course step 3)"
// ptxas-spills-expected: my_first_kernelILi256E
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 4)s in exercises/prac6c_unroll.cuh"
#endif
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"

#include "prac6_gold.h"

#define RUNTIME_SIZE 16 // the array length of my_kernel_runtime; -m chooses how much of it is used

// one thread per element of x: x[tid] = sum_{i,j} xl[i] xl[j] with xl[i] = exp(-XL_DECAY i tid), so that
// thread 0 (every xl[i] = 1) gives size^2 and the others a value between 1 and size^2
template <int size>
__global__ void my_first_kernel(float *x, int n) {
  float xl[size];
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  if (tid >= n) return;
  for (int i = 0; i < size; i++) xl[i] = expf(-(float)XL_DECAY * (float)i * (float)tid);
  float sum = 0.0f;
  for (int i = 0; i < size; i++)
    for (int j = 0; j < size; j++) sum += xl[i] * xl[j];
  x[tid] = sum;
}

// step 4's experiment, my_unrolled_kernel: my_first_kernel with its loops unrolled (#pragma unroll), so that
// every index into xl is a constant and ptxas can keep the array in registers even at size 64. Under
// make exercises it is the learner's file
#ifndef EXERCISE
#include "prac6c_unroll.cuh"
#else
#include "exercises/prac6c_unroll.cuh"
#endif

// the same, but only the first m elements of xl are used, m known at run time: the loops cannot be unrolled,
// xl[i] is indexed by a register, and the array lives in local memory
template <int size>
__global__ void my_kernel_runtime(float *x, int n, int m) {
  float xl[size];
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  if (tid >= n) return;
  for (int i = 0; i < m; i++) xl[i] = expf(-(float)XL_DECAY * (float)i * (float)tid);
  float sum = 0.0f;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < m; j++) sum += xl[i] * xl[j];
  x[tid] = sum;
}

// a launch into a poisoned array, and the copy back. A kernel that needs many registers cannot have 1024
// threads in a block (size 256 uses 255 registers per thread, and an SM has 65536): the launch would fail with
// "too many resources requested for launch". cudaFuncGetAttributes says how many threads a block of this
// kernel may have, and the block is made smaller when it must be.
typedef void (*xl_kernel)(float *, int);
static void run_kernel(xl_kernel kernel, float *h_x, float *d_x, int n, int nthreads) {
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, kernel));
  if (nthreads > attr.maxThreadsPerBlock) {
    printf(" (%d registers per thread: blocks of %d threads, not %d)", attr.numRegs, attr.maxThreadsPerBlock, nthreads);
    nthreads = attr.maxThreadsPerBlock;
  }
  checkCudaErrors(cudaMemset(d_x, 0xff, (size_t)n * sizeof(float)));
  kernel<<<(n + nthreads - 1) / nthreads, nthreads>>>(d_x, n);
  getLastCudaError("my_first_kernel execution failed");
  checkCudaErrors(cudaMemcpy(h_x, d_x, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
}

// the experiment's outcome, from the binary: the local memory per thread of each size-64 kernel (ptxas's
// "stack frame"). The unrolled kernel must have none: its xl lives in registers
static int check_local_memory(void) {
  cudaFuncAttributes rolled, unrolled;
  checkCudaErrors(cudaFuncGetAttributes(&rolled, my_first_kernel<64>));
  checkCudaErrors(cudaFuncGetAttributes(&unrolled, my_unrolled_kernel<64>));
  printf("size 64: local memory per thread: %zu bytes in loops, %zu bytes unrolled\n", rolled.localSizeBytes,
         unrolled.localSizeBytes);
  if (unrolled.localSizeBytes == 0) return 0;
  printf("size 64, unrolled: xl is still in local memory: find the loop whose unrolling lets ptxas keep it in "
         "registers\n");
  return 1;
}

// against the double-precision gold. Every xl[i] is expf's result (within 2 ulp, CUDA's documented bound) and
// the m^2 products are added one by one in float: positive terms, so each addition adds at most half an ulp of
// the running sum. (m^2 + 8) FLT_EPSILON bounds the relative error with room to spare.
static int check_size(const char *what, const float *h_x, double *h_gold, int n, int m, int summary) {
  Gold_prac6c(h_gold, n, m);
  if (summary)
    printf(" x[0] = %.1f (size^2 = %d), x[1] = %f, x[%d] = %f\n", h_x[0], m * m, n > 1 ? h_x[1] : 0.0f, n - 1,
           h_x[n - 1]);
  gold_stats st;
  compare_float_double(h_x, h_gold, (size_t)n, 0.0, (m * m + 8) * FLT_EPSILON, &st);
  gold_report(what, &st);
  // thread 0 adds m^2 products of expf(0) = 1 (exact in CUDA): m^2 exactly, which the tolerance above, up to
  // 0.8 % at m = 256, could not tell from a loop that runs once too few
  int exact0 = h_x[0] == (float)(m * m);
  if (!exact0) printf("%s: x[0] = %.1f, not exactly size^2 = %d\n", what, h_x[0], m * m);
  return st.nbad != 0 || !exact0;
}

int main(int argc, char **argv) {
  int nblocks = 2, nthreads = 8, m = 5;
  arg_spec opts[] = {
      {"nblocks", ARG_INT, &nblocks, 1, 1 << 20, "number of thread blocks"},
      {"nthreads", ARG_INT, &nthreads, 1, 1024, "threads per block"},
      {"m", ARG_INT, &m, 1, RUNTIME_SIZE, "elements of xl my_kernel_runtime uses (a run-time value)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  long long nsize = (long long)nblocks * nthreads;
  if (nsize > (1LL << 24)) args_fail("nblocks * nthreads is over 2^24 threads");
  int n = (int)nsize;

  findCudaDevice(argc, argv);

  float *h_x = (float *)malloc((size_t)n * sizeof(float));
  double *h_gold = (double *)malloc((size_t)n * sizeof(double));
  if (!h_x || !h_gold) return result_fail("out of host memory");
  float *d_x;
  checkCudaErrors(cudaMalloc((void **)&d_x, (size_t)n * sizeof(float)));

  // the course's two sizes and its lines, exactly as it prints them (%g, and the size-3 lines labelled i), so
  // that a learner can diff against its log; then both checked against the gold
  float *h_x3 = (float *)malloc((size_t)n * sizeof(float));
  if (!h_x3) return result_fail("out of host memory");
  run_kernel(my_first_kernel<2>, h_x, d_x, n, nthreads);
  for (int i = 0; i < n && i < 16; i++) printf(" n,  x  =  %d  %g \n", i, h_x[i]);
  run_kernel(my_first_kernel<3>, h_x3, d_x, n, nthreads);
  for (int i = 0; i < n && i < 16; i++) printf(" n,  i  =  %d  %g \n", i, h_x3[i]);
  if (n > 16) printf(" ... (%d more of each size)\n", n - 16);
  int bad = 0;
  bad += check_size("size 2", h_x, h_gold, n, 2, 0);
  bad += check_size("size 3", h_x3, h_gold, n, 3, 0);
  free(h_x3);

  // step 4: larger sizes -- registers (16), local memory (64), registers and spills (256)
  printf("size 16:");
  run_kernel(my_first_kernel<16>, h_x, d_x, n, nthreads);
  bad += check_size("size 16", h_x, h_gold, n, 16, 1);
  printf("size 64:");
  run_kernel(my_first_kernel<64>, h_x, d_x, n, nthreads);
  bad += check_size("size 64", h_x, h_gold, n, 64, 1);
  printf("size 64, unrolled:"); // the experiment: the same loops unrolled, the array in registers
  run_kernel(my_unrolled_kernel<64>, h_x, d_x, n, nthreads);
  bad += check_size("size 64, unrolled", h_x, h_gold, n, 64, 1);
  bad += check_local_memory();
  printf("size 256:");
  run_kernel(my_first_kernel<256>, h_x, d_x, n, nthreads);
  bad += check_size("size 256", h_x, h_gold, n, 256, 1);

  // indexed at run time: xl[16] in local memory, m of it used
  printf("runtime m = %d:", m);
  checkCudaErrors(cudaMemset(d_x, 0xff, (size_t)n * sizeof(float)));
  my_kernel_runtime<RUNTIME_SIZE><<<(n + nthreads - 1) / nthreads, nthreads>>>(d_x, n, m);
  getLastCudaError("my_kernel_runtime execution failed");
  checkCudaErrors(cudaMemcpy(h_x, d_x, (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
  bad += check_size("runtime", h_x, h_gold, n, m, 1);

  checkCudaErrors(cudaFree(d_x));
  free(h_x);
  free(h_gold);

  return result_check(!bad, "%d of 8 checks failed (7 kernels against the gold, and local memory)", bad);
}
