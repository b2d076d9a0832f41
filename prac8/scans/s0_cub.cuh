/*
 * scans/s0_cub.cuh -- practical 8, step 5's peer (-kernel=0): cub::DeviceScan::ExclusiveSum on the same
 * arrays. Its temporary storage is allocated once: the runner's first call, with d_cub_temp NULL, only asks
 * for its size (cub_temp_bytes), as CUB's own examples do.
 */
#include <cub/device/device_scan.cuh>

#include "scan_common.cuh"

static void run_cub(void *arg) {
  scan_plan *p = (scan_plan *)arg;
  if (p->is_int)
    checkCudaErrors(cub::DeviceScan::ExclusiveSum(p->d_cub_temp, p->cub_temp_bytes, (const int *)p->d_in,
                                                  (int *)p->d_out, (long long)p->n));
  else
    checkCudaErrors(cub::DeviceScan::ExclusiveSum(p->d_cub_temp, p->cub_temp_bytes, (const float *)p->d_in,
                                                  (float *)p->d_out, (long long)p->n));
}
