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
#include "gpu_limits.h"
#include "gpu_policy.h"

#ifdef __CUDACC__
#include <cuda.h> /* the driver API's types only: its functions are reached through the runtime (see gpu_driver) */
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

/* All 32 lanes of a warp, for the *_sync shuffles and votes. */
#define FULL_MASK 0xffffffffu

/* ceil(a / b), in a's type, for a >= 0 and b > 0 with a + b - 1 within that type: blocks of a grid, tiles
 * of a matrix, chunks of an array. */
template <typename A, typename B> __host__ __device__ constexpr A ceil_div(A a, B b) {
  return (a + (A)b - 1) / (A)b;
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

/* the device's limits through a GPU profile, green contexts, the peak-memory sampler: gpu_profile.h */
#include "gpu_profile.h"

/* ---- device selection ---------------------------------------------------------------------- */

static inline int findCudaDevice(int argc, char **argv) {
  int driver = 0, runtime = 0, count = 0;
  char msg[320];
  const gpu_limits *profile;
  if (gpu_profile_from_env(&profile, msg, sizeof(msg)) != 0) exit(result_fail("%s", msg)); /* before any GPU work */
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
  printf("GPU Device %d: \"%s\" with compute capability %d.%d, %d SMs, %.1f GiB", dev, prop.name, prop.major,
         prop.minor, prop.multiProcessorCount, (double)prop.totalGlobalMem / (1 << 30));
  const gpu_limits *g = device_limits(dev);
  if (g->profile) {
    /* the profile goes on this line, which every program prints first, so that no number measured under it is
     * taken for the real GPU's */
    char what[512];
    gpu_limits_describe(g, what, sizeof(what));
#ifdef NO_GREEN_CONTEXT
    /* a program that defines NO_GREEN_CONTEXT (the reason, a string) keeps the profile's limits but not its SM
     * count. A green context is a reduced one: it can be current to one host thread at a time (cuGreenCtxCreate's
     * documentation), and on an H100 (2026-11-27, prac11 under the t4 profile) its legacy default stream did not
     * order the other streams' kernels (stream_legacy: 8 of 8 overlapped) and its per-thread default stream was
     * an invalid handle (cudaErrorInvalidResourceHandle). A program about the default stream's two meanings or
     * launching from many threads (prac11) cannot run in one. */
    printf("; GPU profile %s, running on all %d SMs (no green context: %s)", what, prop.multiProcessorCount,
           NO_GREEN_CONTEXT);
#else
    int used = gpu_restrict_sms(dev, g->sms);
    if (used)
      printf("; GPU profile %s, running on %d of %d SMs (a green context)", what, used, prop.multiProcessorCount);
    else
      printf("; GPU profile %s, running on all %d SMs (no green context made)", what, prop.multiProcessorCount);
#endif
  }
  printf("\n");
  fflush(stdout);
  gpu_sampler_start(argc, argv);
  return dev;
}

/* ---- what a kernel's code can do on this device -----------------------------------------------------
 * A feature of the hardware (__reduce_add_sync from 8.0, cp.async from 8.0, the bulk copy engine from 9.0)
 * is in a kernel's code only if it was compiled for that compute capability or newer: the PTX version that
 * cudaFuncGetAttributes reports is the __CUDA_ARCH__ its code saw. A binary built for sm_75 and run on an
 * H100 (the driver compiles its PTX) holds the 7.5 code, whatever the device's own compute capability. So a
 * program asks of the kernel itself, and of the device (or its profile), never of the device alone. */
static inline int kernel_arch(const void *func) {
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, func));
  return attr.ptxVersion;
}

/* 1 when `func`'s code can use a feature of compute capability `need` (80 for 8.0) on this device. Else 0,
 * with the reason in why: "needs __reduce_add_sync (compute capability 8.0): rebuild with ARCH=sm_80 or
 * newer" when the build left it out, or "... this GPU has 7.5" when the GPU (or its profile) cannot. */
template <typename F>
static inline int kernel_can_run(F *func, int dev, int need, const char *feature, char *why, size_t len) {
  int code = kernel_arch((const void *)func);
  const gpu_limits *g = device_limits(dev);
  why[0] = '\0';
  if (g->cc < need) {
    snprintf(why, len, "needs %s (compute capability %d.%d): this GPU%s%s has %d.%d", feature, need / 10, need % 10,
             g->profile ? " profile " : "", g->profile ? g->profile : "", g->cc / 10, g->cc % 10);
    return 0;
  }
  if (code < need) {
    snprintf(why, len, "needs %s (compute capability %d.%d): this build's code is for %d.%d; rebuild with "
                       "ARCH=sm_%d or newer",
             feature, need / 10, need % 10, code / 10, code % 10, need);
    return 0;
  }
  return 1;
}

/* Resident blocks per SM: the runtime's occupancy answer, lowered to what the profile's GPU would give. */
template <typename F>
static inline int occupancy_blocks_per_sm(F *func, int dev, int threads, size_t dynamic_smem) {
  int per_sm = 0;
  checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, threads, dynamic_smem));
  const gpu_limits *g = device_limits(dev);
  if (g->profile) {
    cudaFuncAttributes attr;
    checkCudaErrors(cudaFuncGetAttributes(&attr, (const void *)func));
    int p = gpu_blocks_per_sm(g, threads, attr.numRegs, (int)(attr.sharedSizeBytes + dynamic_smem));
    if (p < per_sm) per_sm = p;
  }
  return per_sm;
}

/* Peak DRAM bandwidth from the device's attributes (GB/s, 1 GB = 1e9 bytes): two transfers per
 * memory clock (double data rate) times the bus width in bytes. */
static inline double peak_bandwidth_GBps(int dev) {
  int mem_clock_kHz = 0, bus_bits = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&mem_clock_kHz, cudaDevAttrMemoryClockRate, dev));
  checkCudaErrors(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
  return 2.0 * (double)mem_clock_kHz * 1e3 * (bus_bits / 8.0) / 1e9;
}

/* Device memory this program may use: free memory, lowered to a GPU profile's memory and by
 * WORKBOOK_DEVICE_MEM_MIB when they are set. */
static inline size_t device_usable_bytes(void) {
  size_t free_b = 0, total_b = 0;
  checkCudaErrors(cudaMemGetInfo(&free_b, &total_b));
  int dev = 0;
  checkCudaErrors(cudaGetDevice(&dev));
  const gpu_limits *g = device_limits(dev);
  if (g->profile) { /* the profile's GPU, less what its driver and this context keep (about 0.5 GiB on a card) */
    size_t profile_free = g->mem_bytes - ((size_t)512 << 20);
    if (profile_free < free_b) free_b = profile_free;
  }
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

/* A shape that this GPU cannot run (more shared memory per block than it gives, say), typed by the user: FAIL
 * (bad input: ...), one line, exit 1. The same shape from a runs line (WORKBOOK_RUNS_LINE, see gpu_policy.h)
 * is a SKIP naming the limit: the workbook chose it for a bigger GPU. Does not return. */
static inline void device_limit_exceeded(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char msg[400];
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (gpu_sized_by_runs()) exit(result_skip("this GPU cannot run this shape: %s", msg));
  exit(result_fail("bad input: %s", msg));
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

/* The size of the L2 cache in bytes (a profile's, under one): bandwidth tests use arrays of at least 4 times
 * this. */
static inline size_t l2_cache_bytes(int dev) { return (size_t)device_limits(dev)->l2_bytes; }

#endif /* __CUDACC__ */

#endif /* HELPER_CUDA_H */
