/*
 * gpu_limits.h -- the limits of a GPU that a program's configuration may depend on, and the GPU profiles
 * that let one GPU stand in for another (WORKBOOK_GPU_PROFILE=t4 ...). Plain C, header only, so that
 * tests/ checks it with gcc and no GPU; gpu_profile.h (device_limits) fills a gpu_limits from the real device.
 *
 * The rule every program follows (docs/troubleshooting.md, "Every GPU"): what a kernel may do is decided by
 * what the binary holds for this device (the kernel's PTX version: see kernel_can_run in helper_cuda.h) and
 * by these queried limits, never by the compute capability alone and never by an H100's numbers.
 *
 *   gpu_profile_find(name)                 a profile by name, or NULL
 *   gpu_profile_from_env(&profile, msg)    WORKBOOK_GPU_PROFILE: unset -> no profile; unknown -> error
 *   gpu_limits_apply(&real, profile)       each limit lowered to the profile's (never raised)
 *   gpu_blocks_per_sm(&limits, threads, regs_per_thread, smem_per_block)   resident blocks per SM, by the rules
 *                                          of the occupancy calculator, for limits that are not the real GPU's
 */
#ifndef GPU_LIMITS_H
#define GPU_LIMITS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char name[256];        /* the GPU's name, or the profile's GPU */
  const char *profile;   /* the profile in force (WORKBOOK_GPU_PROFILE), or NULL: the real GPU */
  int cc;                /* compute capability as 10 * major + minor: 75, 86, 90 */
  int sms;               /* streaming multiprocessors */
  int smem_block;        /* shared memory a block may have without opting in (bytes) */
  int smem_block_optin;  /* ... with cudaFuncSetAttribute(MaxDynamicSharedMemorySize) */
  int smem_sm;           /* shared memory a SM has in all */
  int smem_reserved;     /* shared memory the system keeps for each resident block (1 KiB from 8.0, else 0) */
  int regs_sm;           /* 32-bit registers per SM */
  int regs_block;        /* ... a block may use */
  int threads_sm;        /* resident threads per SM */
  int blocks_sm;         /* resident blocks per SM */
  int l2_bytes;          /* L2 cache */
  size_t mem_bytes;      /* device memory in all */
} gpu_limits;

/*
 * The profiles. Per-compute-capability limits are NVIDIA's ("Compute Capabilities" table of the CUDA C++
 * Programming Guide: shared memory per SM and per block, resident threads and blocks per SM, 64 K registers per SM
 * and a block on every one of these); the SM count, L2 size and memory of each card are from its data
 * sheet or architecture whitepaper (Turing TU104 for the T4, GA106 for the RTX 3060, AD107 for the RTX 4060
 * 8 GB, GA100 for the A100 40 GB, AD104 for the L4), and the memory is what nvidia-smi reports as total.
 */
static const gpu_limits gpu_profiles[] = {
    /* name                         profile    cc SMs  block   opt-in  per SM  rsv    regs   regs/blk thr/SM blk/SM L2 */
    {"Tesla T4", "t4", 75, 40, 49152, 65536, 65536, 0, 65536, 65536, 1024, 16, 4 << 20, (size_t)15360 << 20},
    {"GeForce RTX 3060", "rtx3060", 86, 28, 49152, 101376, 102400, 1024, 65536, 65536, 1536, 16, 3 << 20,
     (size_t)12288 << 20},
    {"GeForce RTX 4060", "rtx4060", 89, 24, 49152, 101376, 102400, 1024, 65536, 65536, 1536, 24, 24 << 20,
     (size_t)8188 << 20},
    {"A100-SXM4-40GB", "a100", 80, 108, 49152, 166912, 167936, 1024, 65536, 65536, 2048, 32, 40 << 20,
     (size_t)40960 << 20},
    {"L4", "l4", 89, 58, 49152, 101376, 102400, 1024, 65536, 65536, 1536, 24, 48 << 20, (size_t)23034 << 20},
};
enum { GPU_PROFILE_COUNT = (int)(sizeof(gpu_profiles) / sizeof(gpu_profiles[0])) };

static inline const gpu_limits *gpu_profile_find(const char *name) {
  for (int i = 0; i < GPU_PROFILE_COUNT; i++)
    if (strcmp(gpu_profiles[i].profile, name) == 0) return &gpu_profiles[i];
  return NULL;
}

/* The profile named by WORKBOOK_GPU_PROFILE: 0 and *profile = NULL when unset or empty, 0 and the profile
 * when known, -1 with the reason in msg when the name is not a profile (a typo must not quietly test the
 * real GPU instead). */
static inline int gpu_profile_from_env(const gpu_limits **profile, char *msg, size_t len) {
  const char *v = getenv("WORKBOOK_GPU_PROFILE");
  *profile = NULL;
  msg[0] = '\0';
  if (v == NULL || v[0] == '\0') return 0;
  *profile = gpu_profile_find(v);
  if (*profile != NULL) return 0;
  int at = snprintf(msg, len, "bad input: WORKBOOK_GPU_PROFILE=%s is not a GPU profile; the profiles are", v);
  for (int i = 0; i < GPU_PROFILE_COUNT && at > 0 && (size_t)at < len; i++)
    at += snprintf(msg + at, len - at, " %s", gpu_profiles[i].profile);
  return -1;
}

static inline int gpu_min_int(int a, int b) { return a < b ? a : b; }

/* The real GPU seen through a profile: every limit is the smaller of the two, so that a profile never
 * promises what the real GPU cannot give (and the compute capability the smaller too: a kernel's feature
 * needs are judged against it, see kernel_can_run). */
static inline gpu_limits gpu_limits_apply(const gpu_limits *real, const gpu_limits *profile) {
  if (profile == NULL) return *real;
  gpu_limits g = *real;
  snprintf(g.name, sizeof(g.name), "%s", profile->name);
  g.profile = profile->profile;
  g.cc = gpu_min_int(real->cc, profile->cc);
  g.sms = gpu_min_int(real->sms, profile->sms);
  g.smem_block = gpu_min_int(real->smem_block, profile->smem_block);
  g.smem_block_optin = gpu_min_int(real->smem_block_optin, profile->smem_block_optin);
  g.smem_sm = gpu_min_int(real->smem_sm, profile->smem_sm);
  g.smem_reserved = profile->smem_reserved; /* its own: a T4 keeps none a block, an H100 1 KiB */
  g.regs_sm = gpu_min_int(real->regs_sm, profile->regs_sm);
  g.regs_block = gpu_min_int(real->regs_block, profile->regs_block);
  g.threads_sm = gpu_min_int(real->threads_sm, profile->threads_sm);
  g.blocks_sm = gpu_min_int(real->blocks_sm, profile->blocks_sm);
  g.l2_bytes = gpu_min_int(real->l2_bytes, profile->l2_bytes);
  g.mem_bytes = real->mem_bytes < profile->mem_bytes ? real->mem_bytes : profile->mem_bytes;
  return g;
}

/*
 * Resident blocks per SM for a kernel of `threads` threads per block, `regs` registers per thread and `smem`
 * bytes of shared memory per block (static plus dynamic), under the limits g: the least of the thread, block,
 * register and shared-memory limits, as the occupancy calculator works it out (registers are given out a
 * warp at a time, in units of 256; shared memory in units of 128 bytes plus the system's reserve a block).
 * helper_cuda.h takes the smaller of this and the runtime's own answer, so that a profile lowers occupancy
 * as its GPU would.
 */
static inline int gpu_blocks_per_sm(const gpu_limits *g, int threads, int regs, int smem) {
  if (threads <= 0) return 0;
  int warps = (threads + 31) / 32;
  int by_threads = g->threads_sm / (warps * 32);
  int by_blocks = g->blocks_sm;
  int regs_warp = ((regs > 0 ? regs : 1) * 32 + 255) / 256 * 256;
  int by_regs = g->regs_sm / (regs_warp * warps);
  int by_smem = by_blocks;
  if (smem > 0 || g->smem_reserved > 0) {
    int per_block = (smem + 127) / 128 * 128 + g->smem_reserved;
    by_smem = per_block > 0 ? g->smem_sm / per_block : by_blocks;
  }
  int b = gpu_min_int(gpu_min_int(by_threads, by_blocks), gpu_min_int(by_regs, by_smem));
  return b > 0 ? b : 0;
}

/* "t4 (Tesla T4: cc 7.5, 40 SMs, 64 KiB shared a SM, 4 MiB L2, 15.0 GiB)": the settings line's words for a
 * profile, so that no number measured under one is taken for the real GPU's. */
static inline void gpu_limits_describe(const gpu_limits *g, char *msg, size_t len) {
  snprintf(msg, len, "%s (%.64s: cc %d.%d, %d SMs, %d KiB shared a SM, %d KiB a block, %.0f MiB L2, %.1f GiB)",
           g->profile ? g->profile : "none", g->name, g->cc / 10, g->cc % 10, g->sms, g->smem_sm / 1024,
           g->smem_block_optin / 1024, g->l2_bytes / 1048576.0, (double)g->mem_bytes / (1 << 30));
}

#endif /* GPU_LIMITS_H */
