/*
 * tune_device.c -- the GPU's limits, for restrictions that name them: BLOCK_X * BLOCK_Y <= DEVICE_THREADS_BLOCK,
 * or a tile's shared memory, TILE * TILE * 4 <= DEVICE_SMEM_BLOCK. A configuration past a limit cannot run on this
 * GPU; a restriction leaves it out before it costs a build and a run, and tunes for the GPU that is here rather
 * than for one card's numbers.
 *
 * The limits are asked of the CUDA runtime, loaded with dlopen only when a restriction names one (so tune builds,
 * and its CPU tests run, with no GPU and no CUDA library), and lowered to a GPU profile's where
 * WORKBOOK_GPU_PROFILE names one (common/gpu_limits.h, as every program of the workbook does). With no GPU, a
 * profile alone stands in for the GPU it describes: WORKBOOK_GPU_PROFILE=t4 ./tune x.conf -replay=... asks what
 * a T4 could run. With neither, a config whose restrictions name the device cannot be judged: tune SKIPs.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "gpu_limits.h"
#include "tune.h"

static const char *const device_names[TUNE_DEVICE_LIMITS] = {
    "DEVICE_CC",      "DEVICE_SMS",     "DEVICE_THREADS_BLOCK", "DEVICE_SMEM_BLOCK", "DEVICE_SMEM_BLOCK_OPTIN",
    "DEVICE_SMEM_SM", "DEVICE_REGS_SM", "DEVICE_REGS_BLOCK",    "DEVICE_THREADS_SM", "DEVICE_BLOCKS_SM",
    "DEVICE_L2"};

int tune_device_index(const char *name, size_t n) {
  for (int i = 0; i < TUNE_DEVICE_LIMITS; i++)
    if (strlen(device_names[i]) == n && !strncmp(device_names[i], name, n)) return i;
  return -1;
}

const char *tune_device_name(int i) { return device_names[i]; }

const char *tune_device_list(void) {
  return "DEVICE_CC (75, 86, 90 ...), DEVICE_SMS, DEVICE_THREADS_BLOCK, DEVICE_SMEM_BLOCK (bytes per block "
         "without opting in), DEVICE_SMEM_BLOCK_OPTIN, DEVICE_SMEM_SM, DEVICE_REGS_SM, DEVICE_REGS_BLOCK, "
         "DEVICE_THREADS_SM, DEVICE_BLOCKS_SM, DEVICE_L2 (bytes)";
}

/* the real GPU 0's limits from the CUDA runtime, by its C entry points; the attribute numbers are the
 * cudaDeviceAttr values of driver_types.h, fixed by the runtime's ABI. 0, or -1 with the reason. */
static int real_limits(gpu_limits *g, char *why, size_t len) {
  static const char *const libs[] = {"libcudart.so", "libcudart.so.13", "libcudart.so.12"};
  void *lib = NULL;
  for (int i = 0; i < 3 && !lib; i++) lib = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
  if (!lib) return snprintf(why, len, "the CUDA runtime (libcudart.so) cannot be loaded"), -1;
  int (*count)(int *) = NULL, (*attr)(int *, int, int) = NULL;
  *(void **)&count = dlsym(lib, "cudaGetDeviceCount");
  *(void **)&attr = dlsym(lib, "cudaDeviceGetAttribute");
  int n = 0;
  if (!count || !attr) return snprintf(why, len, "libcudart.so has no cudaDeviceGetAttribute"), -1;
  if (count(&n) != 0 || n < 1) return snprintf(why, len, "there is no CUDA GPU here"), -1;
  enum {
    MAJOR = 75,
    MINOR = 76,
    SMS = 16,
    SMEM_BLOCK = 8,
    SMEM_OPTIN = 97,
    SMEM_SM = 81,
    REGS_SM = 82,
    REGS_BLOCK = 12,
    THREADS_SM = 39,
    BLOCKS_SM = 106,
    L2 = 38
  };
  int major = 0, minor = 0, rc = 0;
  memset(g, 0, sizeof(*g));
  rc |= attr(&major, MAJOR, 0) | attr(&minor, MINOR, 0) | attr(&g->sms, SMS, 0);
  rc |= attr(&g->smem_block, SMEM_BLOCK, 0) | attr(&g->smem_block_optin, SMEM_OPTIN, 0) | attr(&g->smem_sm, SMEM_SM, 0);
  rc |= attr(&g->regs_sm, REGS_SM, 0) | attr(&g->regs_block, REGS_BLOCK, 0) | attr(&g->threads_sm, THREADS_SM, 0);
  rc |= attr(&g->blocks_sm, BLOCKS_SM, 0) | attr(&g->l2_bytes, L2, 0);
  if (rc) return snprintf(why, len, "cudaDeviceGetAttribute failed on GPU 0"), -1;
  g->cc = 10 * major + minor;
  snprintf(g->name, sizeof(g->name), "GPU 0 (compute capability %d.%d, %d SMs)", major, minor, g->sms);
  return 0;
}

/* GPU 0's name, from the driver (libcuda, loaded with dlopen): a tuned table is named after the GPU that ran its
 * tests. -1 where there is no driver or no GPU. */
int tune_device_gpu_name(char *name, size_t len) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) return -1;
  int (*init)(unsigned) = NULL, (*get)(int *, int) = NULL, (*getname)(char *, int, int) = NULL;
  *(void **)&init = dlsym(lib, "cuInit");
  *(void **)&get = dlsym(lib, "cuDeviceGet");
  *(void **)&getname = dlsym(lib, "cuDeviceGetName");
  int dev = 0;
  if (!init || !get || !getname || init(0) != 0 || get(&dev, 0) != 0 || getname(name, (int)len, dev) != 0) return -1;
  return 0;
}

int tune_device_limits(tune_conf *c, char *why, size_t len) {
  const gpu_limits *profile;
  gpu_limits real, g;
  char msg[TUNE_MSG_LEN];
  if (gpu_profile_from_env(&profile, msg, sizeof(msg)))
    return snprintf(why, len, "%s", msg + 11), -1; /* past "bad input: " */
  if (real_limits(&real, msg, sizeof(msg)) == 0)
    g = gpu_limits_apply(&real, profile);
  else if (profile)
    g = *profile;
  else
    return snprintf(why, len, "%s, and WORKBOOK_GPU_PROFILE names no GPU profile to stand in for one", msg), 1;
  const long long v[TUNE_DEVICE_LIMITS] = {g.cc,      g.sms,     1024,         g.smem_block, g.smem_block_optin,
                                           g.smem_sm, g.regs_sm, g.regs_block, g.threads_sm, g.blocks_sm,
                                           g.l2_bytes};
  memcpy(c->device, v, sizeof(v));
  c->device_known = 1;
  snprintf(c->device_name, sizeof(c->device_name), "%.100s%s%s", g.name, profile ? " as the GPU profile " : "",
           profile ? profile->profile : "");
  return 0;
}
