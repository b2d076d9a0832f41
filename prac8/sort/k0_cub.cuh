/*
 * sort/k0_cub.cuh -- practical 8, step 9's peer (-kernel=0): cub::DeviceRadixSort, SortKeys (or SortPairs
 * with -pairs), on unsigned or float keys. Its temporary storage is allocated once: the runner's first call,
 * with d_cub_temp NULL, only asks for its size (cub_temp_bytes).
 */
#include <cub/device/device_radix_sort.cuh>

#include "sort_common.cuh"

// CUB's own Onesweep kernel for float key-value pairs spills 8 bytes on sm_90 (CCCL 3.0): not this file's code
// ptxas-spills-expected: DeviceRadixSortOnesweepKernel

static void run_cub(void *arg) {
  sort_plan *p = (sort_plan *)arg;
  int n = (int)p->n;
  if (p->is_float && p->pairs)
    checkCudaErrors(cub::DeviceRadixSort::SortPairs(p->d_cub_temp, p->cub_temp_bytes, (const float *)p->d_in,
                                                    (float *)p->d_out, p->d_vin, p->d_vout, n));
  else if (p->is_float)
    checkCudaErrors(cub::DeviceRadixSort::SortKeys(p->d_cub_temp, p->cub_temp_bytes, (const float *)p->d_in,
                                                   (float *)p->d_out, n));
  else if (p->pairs)
    checkCudaErrors(cub::DeviceRadixSort::SortPairs(p->d_cub_temp, p->cub_temp_bytes, (const unsigned *)p->d_in,
                                                    p->d_out, p->d_vin, p->d_vout, n));
  else
    checkCudaErrors(
        cub::DeviceRadixSort::SortKeys(p->d_cub_temp, p->cub_temp_bytes, (const unsigned *)p->d_in, p->d_out, n));
}
