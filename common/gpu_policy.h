/*
 * gpu_policy.h -- the decisions findCudaDevice() and device_memory_check() make, kept apart from the CUDA
 * runtime so that tests/ can check them with gcc and no GPU (the runtime's answers become plain numbers).
 *
 *   gpu_probe_verdict(driver, runtime, count_ok, count, ...)   no driver -> SKIP, old driver -> FAIL
 *   gpu_memory_verdict(bytes, free, user_sized, ...)            fits -> OK, else SKIP or FAIL
 *   gpu_memory_cap_bytes()                                      WORKBOOK_DEVICE_MEM_MIB, or 0
 *   gpu_sized_by_runs()                                         WORKBOOK_RUNS_LINE: the size is the workbook's
 *
 * Plain C, header only.
 */
#ifndef GPU_POLICY_H
#define GPU_POLICY_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { GPU_OK = 0, GPU_SKIP = 2, GPU_FAIL = 1 }; /* the values are the exit codes that go with them */

/*
 * Is there a GPU to run on? driver_version is what cudaDriverGetVersion reports (0 when no NVIDIA driver is
 * installed at all), runtime_version what cudaRuntimeGetVersion reports (13000 for CUDA 13.0), count_ok
 * whether cudaGetDeviceCount succeeded and count what it found; count_error names its error when it did not.
 *   - no driver (0), or a driver that sees no GPU: SKIP -- nothing to run on, as on CI;
 *   - a driver older than the toolkit: FAIL naming the fix -- the machine has a GPU that this build cannot
 *     use, and a student must not read "0 failed" as "my setup works";
 *   - any other failure to count the GPUs: FAIL with the runtime's words.
 * The reason goes to msg.
 */
static inline int gpu_probe_verdict(int driver_version, int runtime_version, int count_ok, int count,
                                    const char *count_error, char *msg, size_t len) {
  if (driver_version == 0) {
    snprintf(msg, len, "no CUDA device: no NVIDIA driver is installed");
    return GPU_SKIP;
  }
  if (driver_version < runtime_version) {
    snprintf(msg, len,
             "the NVIDIA driver supports CUDA %d.%d, but this program was built with CUDA %d.%d: install a newer "
             "driver (see docs/troubleshooting.md)",
             driver_version / 1000, driver_version % 1000 / 10, runtime_version / 1000, runtime_version % 1000 / 10);
    return GPU_FAIL;
  }
  if (!count_ok) {
    snprintf(msg, len, "the CUDA runtime could not count the GPUs: %s", count_error ? count_error : "unknown error");
    return GPU_FAIL;
  }
  if (count == 0) {
    snprintf(msg, len, "no CUDA device: the driver reports no GPU");
    return GPU_SKIP;
  }
  msg[0] = '\0';
  return GPU_OK;
}

/* WORKBOOK_DEVICE_MEM_MIB=N pretends the GPU has at most N MiB free (0 or unset: no cap). It lets a big GPU
 * behave like a learner's 6 GB one, so that the size checks below can be tested anywhere. */
static inline size_t gpu_memory_cap_bytes(void) {
  const char *v = getenv("WORKBOOK_DEVICE_MEM_MIB");
  if (v == NULL || v[0] == '\0') return 0;
  char *end;
  errno = 0;
  unsigned long long mib = strtoull(v, &end, 10);
  if (*end != '\0' || errno == ERANGE || v[0] == '-') return 0;
  return (size_t)mib << 20;
}

/* WORKBOOK_RUNS_LINE=1: this run's sizes and shapes come from a runs file (make check sets it on every line
 * that must PASS), not from a learner. A size or a shape that this GPU cannot hold (memory, shared memory a
 * block) is then a SKIP -- the workbook chose it for a bigger GPU -- where a learner who typed it gets a FAIL
 * (bad input), as always. So `make check` on a small GPU (or under a GPU profile) passes, and says what it
 * left out and why. */
static inline int gpu_sized_by_runs(void) {
  const char *v = getenv("WORKBOOK_RUNS_LINE");
  return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

/* The memory a program may use: what the device has free, lowered to the cap when one is set. */
static inline size_t gpu_usable_bytes(size_t free_bytes, size_t cap_bytes) {
  return (cap_bytes != 0 && cap_bytes < free_bytes) ? cap_bytes : free_bytes;
}

/*
 * Does a run that needs `bytes` of device memory fit in `usable`? If not, a size the user typed on the
 * command line is bad input (FAIL, exit 1); the program's own default size is only too big for this GPU
 * (SKIP, exit 2), so that `make check` passes on a small GPU and says what it left out.
 */
static inline int gpu_memory_verdict(size_t bytes, size_t usable, int user_sized, const char *what, char *msg,
                                     size_t len) {
  if (bytes <= usable) {
    msg[0] = '\0';
    return GPU_OK;
  }
  if (user_sized && !gpu_sized_by_runs()) {
    snprintf(msg, len, "bad input: device memory for %s: %.2f GiB needed, only %.2f GiB free", what,
             (double)bytes / (1 << 30), (double)usable / (1 << 30));
    return GPU_FAIL;
  }
  if (user_sized)
    snprintf(msg, len, "this GPU is too small for this run: device memory for %s: %.2f GiB needed, only %.2f GiB free",
             what, (double)bytes / (1 << 30), (double)usable / (1 << 30));
  else
    snprintf(msg, len, "the default size does not fit: device memory for %s: %.2f GiB needed, only %.2f GiB free; "
                       "choose a smaller size on the command line",
             what, (double)bytes / (1 << 30), (double)usable / (1 << 30));
  return GPU_SKIP;
}

#endif /* GPU_POLICY_H */
