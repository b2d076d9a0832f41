/*
 * prac6.h -- the C interface of prac6.cu: what main.c (plain C, compiled by gcc) may call.
 *
 * prac6.cu is compiled by nvcc as C++, and C++ "mangles" function names to encode their argument types:
 * `int prac6(int, int)` becomes the symbol _Z5prac6ii. gcc, compiling main.c as C, looks for plain `prac6`.
 * extern "C" tells nvcc to emit the plain C name, so that the two sides meet at link time. The guard below
 * makes the same header say so to nvcc and mean nothing to gcc, which has no such keyword.
 */
#ifndef PRAC6_H
#define PRAC6_H

#ifdef __cplusplus
extern "C" {
#endif

/* Picks the GPU (-device=N) with findCudaDevice, which main.c cannot call: it and its error checks are C++
 * in helper_cuda.h, inside #ifdef __CUDACC__, so only nvcc compiles them. The runtime's C API
 * (cuda_runtime_api.h) could be called from C, but this main keeps all CUDA on the nvcc side.
 * No GPU: prints RESULT: SKIP and exits 2. */
void prac6_device(int argc, char **argv);

/* The course's routine: nblocks blocks of nthreads threads each write their threadIdx.x into x on the GPU;
 * x is copied back and printed. Returns 0, or 1 when host memory runs out (CUDA errors end the program
 * with RESULT: FAIL, as everywhere in the workbook). */
int prac6(int nblocks, int nthreads);

/* The host copy of x that the last prac6() call made (nblocks * nthreads floats), handed over to the
 * caller, who frees it with free(). NULL before any call. */
float *prac6_x(void);

#ifdef __cplusplus
}
#endif

#endif /* PRAC6_H */
