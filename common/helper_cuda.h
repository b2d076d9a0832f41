/*
 * helper_cuda.h -- the workbook's own error checking and device selection (CUDA 13).
 *
 *   checkCudaErrors(x)     x is a cudaError_t, cublasStatus_t, cufftResult, curandStatus_t or
 *                          cusparseStatus_t; anything but success prints file:line, the code's name
 *                          and the expression, then "RESULT: FAIL (...)", and exits 1.
 *   getLastCudaError(msg)  after every kernel launch: catches launch errors (a bad configuration);
 *                          built with DEBUG=1 (-DCUDA_DEBUG_SYNC) it also synchronises, so that a fault
 *                          inside the kernel is reported at the launch that caused it.
 *   findCudaDevice(argc, argv)
 *                          picks the GPU (-device=N), prints one line about it and returns its number.
 *                          With no usable GPU it prints "RESULT: SKIP (no CUDA device: ...)" and exits 2.
 *
 * All the library headers are included here, so the order of #includes in a program never matters.
 * Only their status enums are used: nothing here needs the libraries at link time.
 */
#ifndef HELPER_CUDA_H
#define HELPER_CUDA_H

#include <stdio.h>
#include <stdlib.h>

#include <cublas_api.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <curand.h>
#include <cusparse.h>

#include "args.h"
#include "gold_check.h"

/* ---- names of status codes --------------------------------------------------------------- */

static inline const char *cudaStatusName(cudaError_t e) { return cudaGetErrorName(e); }

#define HELPER_CASE(c) \
  case c:              \
    return #c

static inline const char *cudaStatusName(cublasStatus_t s) {
  switch (s) {
    HELPER_CASE(CUBLAS_STATUS_SUCCESS);
    HELPER_CASE(CUBLAS_STATUS_NOT_INITIALIZED);
    HELPER_CASE(CUBLAS_STATUS_ALLOC_FAILED);
    HELPER_CASE(CUBLAS_STATUS_INVALID_VALUE);
    HELPER_CASE(CUBLAS_STATUS_ARCH_MISMATCH);
    HELPER_CASE(CUBLAS_STATUS_MAPPING_ERROR);
    HELPER_CASE(CUBLAS_STATUS_EXECUTION_FAILED);
    HELPER_CASE(CUBLAS_STATUS_INTERNAL_ERROR);
    HELPER_CASE(CUBLAS_STATUS_NOT_SUPPORTED);
    HELPER_CASE(CUBLAS_STATUS_LICENSE_ERROR);
  }
  return "unknown cublasStatus_t";
}

static inline const char *cudaStatusName(cufftResult s) {
  switch (s) {
    HELPER_CASE(CUFFT_SUCCESS);
    HELPER_CASE(CUFFT_INVALID_PLAN);
    HELPER_CASE(CUFFT_ALLOC_FAILED);
    HELPER_CASE(CUFFT_INVALID_TYPE);
    HELPER_CASE(CUFFT_INVALID_VALUE);
    HELPER_CASE(CUFFT_INTERNAL_ERROR);
    HELPER_CASE(CUFFT_EXEC_FAILED);
    HELPER_CASE(CUFFT_SETUP_FAILED);
    HELPER_CASE(CUFFT_INVALID_SIZE);
    HELPER_CASE(CUFFT_UNALIGNED_DATA);
    HELPER_CASE(CUFFT_INVALID_DEVICE);
    HELPER_CASE(CUFFT_NO_WORKSPACE);
    HELPER_CASE(CUFFT_NOT_IMPLEMENTED);
    HELPER_CASE(CUFFT_NOT_SUPPORTED);
    HELPER_CASE(CUFFT_MISSING_DEPENDENCY);
    HELPER_CASE(CUFFT_NVRTC_FAILURE);
    HELPER_CASE(CUFFT_NVJITLINK_FAILURE);
    HELPER_CASE(CUFFT_NVSHMEM_FAILURE);
  }
  return "unknown cufftResult";
}

static inline const char *cudaStatusName(curandStatus_t s) {
  switch (s) {
    HELPER_CASE(CURAND_STATUS_SUCCESS);
    HELPER_CASE(CURAND_STATUS_VERSION_MISMATCH);
    HELPER_CASE(CURAND_STATUS_NOT_INITIALIZED);
    HELPER_CASE(CURAND_STATUS_ALLOCATION_FAILED);
    HELPER_CASE(CURAND_STATUS_TYPE_ERROR);
    HELPER_CASE(CURAND_STATUS_OUT_OF_RANGE);
    HELPER_CASE(CURAND_STATUS_LENGTH_NOT_MULTIPLE);
    HELPER_CASE(CURAND_STATUS_DOUBLE_PRECISION_REQUIRED);
    HELPER_CASE(CURAND_STATUS_LAUNCH_FAILURE);
    HELPER_CASE(CURAND_STATUS_PREEXISTING_FAILURE);
    HELPER_CASE(CURAND_STATUS_INITIALIZATION_FAILED);
    HELPER_CASE(CURAND_STATUS_ARCH_MISMATCH);
    HELPER_CASE(CURAND_STATUS_INTERNAL_ERROR);
  }
  return "unknown curandStatus_t";
}

static inline const char *cudaStatusName(cusparseStatus_t s) {
  switch (s) {
    HELPER_CASE(CUSPARSE_STATUS_SUCCESS);
    HELPER_CASE(CUSPARSE_STATUS_NOT_INITIALIZED);
    HELPER_CASE(CUSPARSE_STATUS_ALLOC_FAILED);
    HELPER_CASE(CUSPARSE_STATUS_INVALID_VALUE);
    HELPER_CASE(CUSPARSE_STATUS_ARCH_MISMATCH);
    HELPER_CASE(CUSPARSE_STATUS_MAPPING_ERROR);
    HELPER_CASE(CUSPARSE_STATUS_EXECUTION_FAILED);
    HELPER_CASE(CUSPARSE_STATUS_INTERNAL_ERROR);
    HELPER_CASE(CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED);
    HELPER_CASE(CUSPARSE_STATUS_ZERO_PIVOT);
    HELPER_CASE(CUSPARSE_STATUS_NOT_SUPPORTED);
    HELPER_CASE(CUSPARSE_STATUS_INSUFFICIENT_RESOURCES);
  }
  return "unknown cusparseStatus_t";
}

#undef HELPER_CASE

/* ---- checks -------------------------------------------------------------------------------- */

/* Every status type is "success" when zero. */
template <typename Status>
static inline void helper_check(Status s, const char *expr, const char *file, int line) {
  if (s == (Status)0) return;
  fflush(stdout); /* keep what the program printed before the error in order */
  fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, (int)s, cudaStatusName(s), expr);
  printf("RESULT: FAIL (%s at %s:%d)\n", cudaStatusName(s), file, line);
  exit(1);
}

#define checkCudaErrors(val) helper_check((val), #val, __FILE__, __LINE__)

static inline void helper_last_error(const char *msg, const char *file, int line) {
  cudaError_t e = cudaGetLastError();
#ifdef CUDA_DEBUG_SYNC
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
#endif
  if (e == cudaSuccess) return;
  fflush(stdout);
  fprintf(stderr, "%s:%d: %s: %s (%s)\n", file, line, msg, cudaGetErrorString(e), cudaGetErrorName(e));
  printf("RESULT: FAIL (%s: %s)\n", msg, cudaGetErrorString(e));
  exit(1);
}

#define getLastCudaError(msg) helper_last_error((msg), __FILE__, __LINE__)

/* ---- device selection ---------------------------------------------------------------------- */

/* An empty kernel: if the runtime cannot find machine code or PTX for this GPU in the binary, asking
 * for its attributes fails, and we can say "rebuild for this GPU" before anything else goes wrong. */
static __global__ void helper_probe_kernel(void) {}

static inline int findCudaDevice(int argc, char **argv) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    printf("RESULT: SKIP (no CUDA device: %s)\n",
           e != cudaSuccess ? cudaGetErrorString(e) : "the driver reports no GPU");
    exit(2);
  }
  int dev = args_device(argc, argv);
  if (dev >= count) {
    printf("RESULT: FAIL (bad input: -device=%d, but there %s only %d GPU%s, numbered from 0)\n", dev,
           count == 1 ? "is" : "are", count, count == 1 ? "" : "s");
    exit(1);
  }
  checkCudaErrors(cudaSetDevice(dev));

  cudaDeviceProp prop;
  checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
  if (prop.major * 10 + prop.minor < 75) {
    printf("RESULT: SKIP (GPU %d \"%s\" has compute capability %d.%d; CUDA 13 needs 7.5 or newer)\n", dev, prop.name,
           prop.major, prop.minor);
    exit(2);
  }
  printf("GPU Device %d: \"%s\" with compute capability %d.%d, %d SMs, %.1f GiB\n", dev, prop.name, prop.major,
         prop.minor, prop.multiProcessorCount, (double)prop.totalGlobalMem / (1 << 30));

  struct cudaFuncAttributes attr;
  e = cudaFuncGetAttributes(&attr, helper_probe_kernel);
  if (e != cudaSuccess) {
    printf("RESULT: FAIL (this binary has no code for compute capability %d.%d: rebuild with make ARCH=sm_%d%d)\n",
           prop.major, prop.minor, prop.major, prop.minor);
    exit(1);
  }
  fflush(stdout);
  return dev;
}

/* Peak DRAM bandwidth from the device's attributes (GB/s, 1 GB = 1e9 bytes): two transfers per
 * memory clock (double data rate) times the bus width in bytes. */
static inline double peak_bandwidth_GBps(int dev) {
  int mem_clock_kHz = 0, bus_bits = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&mem_clock_kHz, cudaDevAttrMemoryClockRate, dev));
  checkCudaErrors(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
  return 2.0 * (double)mem_clock_kHz * 1e3 * (bus_bits / 8.0) / 1e9;
}

/* Bad input that only the device can judge (an array larger than its memory): one line, exit 1. */
static inline void require_device_memory(size_t bytes, const char *what) {
  size_t free_b = 0, total_b = 0;
  checkCudaErrors(cudaMemGetInfo(&free_b, &total_b));
  if (bytes > free_b) {
    printf("RESULT: FAIL (bad input: %s needs %.2f GiB of device memory, but only %.2f GiB is free)\n", what,
           (double)bytes / (1 << 30), (double)free_b / (1 << 30));
    exit(1);
  }
}

#endif /* HELPER_CUDA_H */
