/*
 * gpu_profile.h -- what a program learns about its GPU beyond the cuda-samples names of helper_cuda.h:
 *
 *   device_limits(dev)      SMs, shared memory, registers, threads, L2 and memory, as the runtime reports them
 *                           or lowered to a GPU profile's (WORKBOOK_GPU_PROFILE, gpu_limits.h)
 *   gpu_restrict_sms(dev, n) a green context of n SMs, so that a profile's run uses that many (where the
 *                           driver can make one)
 *   gpu_sampler_start(...)  the peak device memory of a run (WORKBOOK_PEAK_MEM=FILE, make defaults)
 *   gpu_driver(symbol)      a driver API function, found through the runtime (no -lcuda)
 *
 * Included by helper_cuda.h, after its checks (checkCudaErrors), in CUDA code only: include helper_cuda.h,
 * not this file.
 */
#ifndef GPU_PROFILE_H
#define GPU_PROFILE_H
#ifndef HELPER_CUDA_H
#error "include helper_cuda.h, which includes gpu_profile.h after its checks"
#endif

#include <pthread.h>
#include <time.h>

/* ---- the driver API, without linking it --------------------------------------------------------
 * A program linked with -lcuda would not even start where no driver is installed (CI), instead of saying
 * SKIP; so the few driver functions used here (green contexts, cuMemGetInfo for the peak-memory sampler) are
 * looked up through the runtime, and a missing one is only a feature that is not there. */
static inline void *gpu_driver(const char *symbol) {
  void *fn = NULL;
  cudaDriverEntryPointQueryResult found;
  if (cudaGetDriverEntryPointByVersion(symbol, &fn, 12040, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess)
    return NULL;
  return fn;
}

/* ---- the device's limits, seen through a GPU profile -------------------------------------------------
 * device_limits(dev): SMs, shared memory per block (default and opt-in) and per SM, registers, resident threads
 * and blocks, L2 and memory, as the runtime reports them -- or, when WORKBOOK_GPU_PROFILE names a profile
 * (gpu_limits.h), the smaller of those and the profile's. Every configuration choice a program makes from
 * the GPU (grid sizes of persistent kernels, tiles, shared memory, prefetch distances) reads these, never
 * cudaDeviceProp directly, so that `make check-profiles` tests the choices a T4 or an RTX 3060 would get. */
static gpu_limits g_device_limits;
static int g_device_limits_of = -1;

static inline const gpu_limits *device_limits(int dev) {
  if (g_device_limits_of == dev) return &g_device_limits;
  cudaDeviceProp prop;
  checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
  gpu_limits real;
  memset(&real, 0, sizeof(real));
  snprintf(real.name, sizeof(real.name), "%s", prop.name);
  real.cc = prop.major * 10 + prop.minor;
  real.sms = prop.multiProcessorCount;
  real.smem_block = (int)prop.sharedMemPerBlock;
  real.smem_block_optin = (int)prop.sharedMemPerBlockOptin;
  real.smem_sm = (int)prop.sharedMemPerMultiprocessor;
  real.smem_reserved = (int)prop.reservedSharedMemPerBlock;
  real.regs_sm = prop.regsPerMultiprocessor;
  real.regs_block = prop.regsPerBlock;
  real.threads_sm = prop.maxThreadsPerMultiProcessor;
  real.blocks_sm = prop.maxBlocksPerMultiProcessor;
  real.l2_bytes = prop.l2CacheSize;
  real.mem_bytes = prop.totalGlobalMem;
  const gpu_limits *profile;
  char msg[320];
  if (gpu_profile_from_env(&profile, msg, sizeof(msg)) != 0) exit(result_fail("%s", msg));
  g_device_limits = gpu_limits_apply(&real, profile);
  g_device_limits_of = dev;
  return &g_device_limits;
}

/* The SMs a kernel can use under a profile: a green context of the profile's SM count (rounded up to what
 * the hardware can partition: 8 SMs at a time on an H100), made current for this thread, so that a 40-SM
 * profile really runs on 40 SMs. Returns the SM count of the green context, or 0 where none was made (the
 * driver cannot, or the GPU has no more SMs than the profile): the profile's limits then still shape every
 * choice the program makes, on all the SMs. A later cudaSetDevice returns this thread to the device's
 * primary context, on all its SMs (a multi-GPU program says so). */
static inline int *gpu_green_flag(void) { /* the SM count of the green context made, 0 while none */
  static int sms_made = 0;
  return &sms_made;
}
/* whether this process runs in a green context that gpu_restrict_sms made: a green context can be current to one
 * host thread at a time (cuGreenCtxCreate's documentation), so a program that launches from many threads needs to
 * know */
static inline int gpu_green_context(void) { return *gpu_green_flag(); }

static inline int gpu_restrict_sms(int dev, int sms) {
  typedef CUresult (*get_t)(CUdevice *, int);
  typedef CUresult (*res_t)(CUdevice, CUdevResource *, CUdevResourceType);
  typedef CUresult (*split_t)(CUdevResource *, unsigned *, const CUdevResource *, CUdevResource *, unsigned, unsigned);
  typedef CUresult (*desc_t)(CUdevResourceDesc *, CUdevResource *, unsigned);
  typedef CUresult (*green_t)(CUgreenCtx *, CUdevResourceDesc, CUdevice, unsigned);
  typedef CUresult (*from_t)(CUcontext *, CUgreenCtx);
  typedef CUresult (*set_t)(CUcontext);
  get_t device_get = (get_t)gpu_driver("cuDeviceGet");
  res_t get_resource = (res_t)gpu_driver("cuDeviceGetDevResource");
  split_t split = (split_t)gpu_driver("cuDevSmResourceSplitByCount");
  desc_t make_desc = (desc_t)gpu_driver("cuDevResourceGenerateDesc");
  green_t green_create = (green_t)gpu_driver("cuGreenCtxCreate");
  from_t from_green = (from_t)gpu_driver("cuCtxFromGreenCtx");
  set_t set_current = (set_t)gpu_driver("cuCtxSetCurrent");
  if (!device_get || !get_resource || !split || !make_desc || !green_create || !from_green || !set_current)
    return 0;
  CUdevice cu_dev;
  CUdevResource all, part, rest;
  CUdevResourceDesc desc;
  CUgreenCtx green;
  CUcontext ctx;
  unsigned groups = 1;
  memset(&part, 0, sizeof(part));
  memset(&rest, 0, sizeof(rest));
  if (device_get(&cu_dev, dev) != CUDA_SUCCESS || get_resource(cu_dev, &all, CU_DEV_RESOURCE_TYPE_SM) != CUDA_SUCCESS)
    return 0;
  if ((int)all.sm.smCount <= sms) return 0; /* no more SMs than the profile's: nothing to restrict */
  if (split(&part, &groups, &all, &rest, 0, (unsigned)sms) != CUDA_SUCCESS || groups != 1 ||
      make_desc(&desc, &part, 1) != CUDA_SUCCESS ||
      green_create(&green, desc, cu_dev, CU_GREEN_CTX_DEFAULT_STREAM) != CUDA_SUCCESS ||
      from_green(&ctx, green) != CUDA_SUCCESS || set_current(ctx) != CUDA_SUCCESS)
    return 0;
  return *gpu_green_flag() = (int)part.sm.smCount;
}

/* ---- the peak device memory of a run ----------------------------------------------------------------
 * With WORKBOOK_PEAK_MEM=FILE a thread samples the device's free memory (cuMemGetInfo) every half millisecond
 * from findCudaDevice on, and at exit the program appends "PEAK <program and arguments> MiB=<peak>" to FILE
 * (make defaults does this for every program's default run). The peak counts every allocation after the
 * CUDA context was made (the libraries' workspaces too), not the context itself. Free memory is the whole
 * device's, so the figure is this program's only when nothing else runs on the GPU; and a sampler can miss
 * a peak shorter than its period, never invent one. */
typedef struct {
  pthread_t thread;
  int stop; /* read and written with __atomic builtins */
  CUcontext ctx; /* the device's primary context, retained for the sampler: a green context may be current to
                    one thread at a time, and free memory is the device's whatever the context */
  CUresult (*mem_info)(size_t *, size_t *); /* cuMemGetInfo */
  size_t base_free, min_free;
  char what[512];
} gpu_mem_sampler;
static gpu_mem_sampler g_sampler;
static int g_sampler_on = 0;

static inline size_t gpu_sampled_free(void) {
  size_t f = 0, t = 0;
  return g_sampler.mem_info(&f, &t) == CUDA_SUCCESS ? f : 0;
}

static inline void *gpu_sampler_main(void *arg) {
  (void)arg;
  typedef CUresult (*set_t)(CUcontext);
  set_t set_current = (set_t)gpu_driver("cuCtxSetCurrent");
  if (!set_current || set_current(g_sampler.ctx) != CUDA_SUCCESS) return NULL;
  struct timespec period = {0, 500000};
  while (!__atomic_load_n(&g_sampler.stop, __ATOMIC_ACQUIRE)) {
    size_t f = gpu_sampled_free();
    if (f != 0 && f < g_sampler.min_free) g_sampler.min_free = f;
    nanosleep(&period, NULL);
  }
  return NULL;
}

static inline void gpu_sampler_report(void) {
  if (!g_sampler_on) return;
  __atomic_store_n(&g_sampler.stop, 1, __ATOMIC_RELEASE);
  pthread_join(g_sampler.thread, NULL);
  g_sampler_on = 0;
  double peak_mib = (double)(g_sampler.base_free - g_sampler.min_free) / (1 << 20);
  const char *file = getenv("WORKBOOK_PEAK_MEM");
  if (file && file[0]) {
    FILE *f = fopen(file, "a");
    if (f) {
      fprintf(f, "PEAK %s MiB=%.0f\n", g_sampler.what, peak_mib);
      fclose(f);
    }
  }
}

static inline void gpu_sampler_start(int argc, char **argv) {
  const char *file = getenv("WORKBOOK_PEAK_MEM");
  if (!(file && file[0])) return;
  typedef CUresult (*get_t)(CUdevice *, int);
  typedef CUresult (*retain_t)(CUcontext *, CUdevice);
  get_t device_get = (get_t)gpu_driver("cuDeviceGet");
  retain_t retain = (retain_t)gpu_driver("cuDevicePrimaryCtxRetain");
  g_sampler.mem_info = (CUresult(*)(size_t *, size_t *))gpu_driver("cuMemGetInfo");
  checkCudaErrors(cudaFree(0)); /* make the context now, so that it is not counted */
  int dev = 0;
  CUdevice cu_dev;
  checkCudaErrors(cudaGetDevice(&dev));
  if (!device_get || !retain || !g_sampler.mem_info || device_get(&cu_dev, dev) != CUDA_SUCCESS ||
      retain(&g_sampler.ctx, cu_dev) != CUDA_SUCCESS)
    return;
  int at = snprintf(g_sampler.what, sizeof(g_sampler.what), "%s", argv[0]);
  for (int i = 1; i < argc && at > 0 && (size_t)at < sizeof(g_sampler.what); i++)
    at += snprintf(g_sampler.what + at, sizeof(g_sampler.what) - at, " %s", argv[i]);
  g_sampler.base_free = g_sampler.min_free = gpu_sampled_free();
  if (g_sampler.base_free == 0) return;
  __atomic_store_n(&g_sampler.stop, 0, __ATOMIC_RELEASE);
  if (pthread_create(&g_sampler.thread, NULL, gpu_sampler_main, NULL) != 0) return;
  g_sampler_on = 1;
  atexit(gpu_sampler_report);
}

#endif /* GPU_PROFILE_H */
