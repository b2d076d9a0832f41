/*
 * helper_cuda.h -- the workbook's own error checking and device selection (CUDA 13).
 *
 *   checkCudaErrors(x)     x is a cudaError_t (or a library status: include helper_curand.h, helper_cublas.h,
 *                          helper_cufft.h or helper_cusparse.h for the library the program uses); anything
 *                          but success prints file:line, the code's name and the expression, then
 *                          "RESULT: FAIL (...)", and exits 1.
 *   getLastCudaError(msg)  after every kernel launch: catches launch errors (a bad configuration);
 *                          built with DEBUG=1 (-DCUDA_DEBUG_SYNC) it also synchronises, so that a fault
 *                          inside the kernel is reported at the launch that caused it.
 *   findCudaDevice(argc, argv)
 *                          picks the GPU (-device=N), prints one line about it and returns its number.
 *                          No driver or no GPU: "RESULT: SKIP (no CUDA device: ...)", exit 2; a driver too
 *                          old for this toolkit: "RESULT: FAIL (...)" naming the fix, exit 1.
 *   device_memory_check(bytes, what, user_sized)
 *                          a run that does not fit in free device memory: FAIL (bad input) when the user
 *                          chose the size, SKIP when it is the program's default (see gpu_policy.h).
 *
 * From a .c file compiled by gcc this header gives only the plain C parts: args.h, gold_check.h and
 * gpu_policy.h (verdicts, options, the SKIP/FAIL rules).
 */
#ifndef HELPER_CUDA_H
#define HELPER_CUDA_H

#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "gpu_policy.h"

#ifdef __CUDACC__
#include <cuda_runtime.h>

/* The name of a status code. The libraries' overloads live in helper_<library>.h; the template below finds
 * them when it is instantiated, wherever they were included. */
static inline const char *cudaStatusName(cudaError_t e) { return cudaGetErrorName(e); }

/* The hint that goes with an error, where there is one worth giving. */
static inline const char *cudaErrorHint(cudaError_t e) {
  switch (e) {
  case cudaErrorNoKernelImageForDevice:
  case cudaErrorInvalidKernelImage:
  case cudaErrorUnsupportedPtxVersion:
    return ": this binary has no code for this GPU; rebuild for it with make ARCH=sm_XY (make doctor prints XY)";
  case cudaErrorInsufficientDriver:
    return ": the driver is older than this CUDA toolkit; install a newer driver";
  default:
    return "";
  }
}
template <typename Status> static inline const char *cudaErrorHint(Status) { return ""; }

/* ---- checks -------------------------------------------------------------------------------- */

/* Every status type is "success" when zero. */
template <typename Status>
static inline void helper_check(Status s, const char *expr, const char *file, int line) {
  if (s == (Status)0) return;
  fflush(stdout); /* keep what the program printed before the error in order */
  fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, (int)s, cudaStatusName(s), expr);
  printf("RESULT: FAIL (%s at %s:%d%s)\n", cudaStatusName(s), file, line, cudaErrorHint(s));
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
  printf("RESULT: FAIL (%s: %s%s)\n", msg, cudaGetErrorString(e), cudaErrorHint(e));
  exit(1);
}

#define getLastCudaError(msg) helper_last_error((msg), __FILE__, __LINE__)

/* ---- device selection ---------------------------------------------------------------------- */

static inline int findCudaDevice(int argc, char **argv) {
  int driver = 0, runtime = 0, count = 0;
  char msg[320];
  checkCudaErrors(cudaDriverGetVersion(&driver)); /* 0, and no error, when no driver is installed */
  checkCudaErrors(cudaRuntimeGetVersion(&runtime));
  cudaError_t e = driver ? cudaGetDeviceCount(&count) : cudaErrorNoDevice;
  int verdict = gpu_probe_verdict(driver, runtime, e == cudaSuccess, count, cudaGetErrorString(e), msg, sizeof(msg));
  if (verdict == GPU_SKIP) exit(result_skip("%s", msg));
  if (verdict == GPU_FAIL) exit(result_fail("%s", msg));

  int dev = args_device(argc, argv);
  if (dev >= count) {
    printf("RESULT: FAIL (bad input: -device=%d, but there %s only %d GPU%s, numbered from 0)\n", dev,
           count == 1 ? "is" : "are", count, count == 1 ? "" : "s");
    exit(1);
  }
  checkCudaErrors(cudaSetDevice(dev));

  cudaDeviceProp prop;
  checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
  if (prop.major * 10 + prop.minor < 75)
    exit(result_skip("GPU %d \"%s\" has compute capability %d.%d; CUDA 13 needs 7.5 or newer", dev, prop.name,
                     prop.major, prop.minor));
  printf("GPU Device %d: \"%s\" with compute capability %d.%d, %d SMs, %.1f GiB\n", dev, prop.name, prop.major,
         prop.minor, prop.multiProcessorCount, (double)prop.totalGlobalMem / (1 << 30));
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

/* Device memory this program may use: free memory, lowered by WORKBOOK_DEVICE_MEM_MIB when it is set. */
static inline size_t device_usable_bytes(void) {
  size_t free_b = 0, total_b = 0;
  checkCudaErrors(cudaMemGetInfo(&free_b, &total_b));
  return gpu_usable_bytes(free_b, gpu_memory_cap_bytes());
}

/* Before allocating: a run that does not fit is bad input when the user chose its size (FAIL, one line,
 * exit 1) and a SKIP when it is the program's default size (exit 2). Returns only when it fits. */
static inline void device_memory_check(size_t bytes, const char *what, int user_sized) {
  char msg[320];
  int verdict = gpu_memory_verdict(bytes, device_usable_bytes(), user_sized, what, msg, sizeof(msg));
  if (verdict == GPU_SKIP) exit(result_skip("%s", msg));
  if (verdict == GPU_FAIL) exit(result_fail("%s", msg));
}

/* Host memory, pageable (malloc) or pinned (cudaMallocHost: page-locked, so the copy engine can read and write
 * it directly, with no staging copy through a driver buffer). NULL when malloc fails; pinned memory that
 * cannot be had is an error. Free it with host_free and the same flag. */
static inline void *host_malloc(size_t bytes, int pinned) {
  void *p = NULL;
  if (pinned)
    checkCudaErrors(cudaMallocHost(&p, bytes));
  else
    p = malloc(bytes);
  return p;
}

static inline void host_free(void *p, int pinned) {
  if (pinned)
    checkCudaErrors(cudaFreeHost(p));
  else
    free(p);
}

/* The size of the L2 cache in bytes: bandwidth tests use arrays of at least 4 times this. */
static inline size_t l2_cache_bytes(int dev) {
  int l2 = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  return (size_t)l2;
}

#endif /* __CUDACC__ */

#endif /* HELPER_CUDA_H */
