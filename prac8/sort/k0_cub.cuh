/*
 * sort/k0_cub.cuh -- practical 8, step 9's peer (-kernel=0): cub::DeviceRadixSort, SortKeys (or SortPairs
 * with -pairs), on unsigned or float keys, called the two ways its users call it. The C++ type of num_items
 * picks CUB's offset type (cub/detail/choose_offset.cuh): an `int` gives 32-bit offsets, an `int64_t` (what
 * thrust::sort passes, a ptrdiff_t) 64-bit ones, and each has its own tuning of the Onesweep kernel (keys a
 * thread, and so registers and blocks per SM). Neither is the faster for every key type and GPU, so the runner
 * checks and times both and takes the faster as the peer. (cub::DoubleBuffer, which sorts in place, selects
 * the same kernels and moves the same bytes: not timed apart.) Their temporary storage is allocated once, the
 * larger of the two sizes (cub_temp_size).
 */
#include <stdint.h>

#include <cub/device/device_radix_sort.cuh>

#include "sort_common.cuh"

// CUB's own Onesweep kernel for float key-value pairs spills 8 bytes on sm_90 (CCCL 3.0): not this file's code
// ptxas-spills-expected: DeviceRadixSortOnesweepKernel

// one call; with d_cub_temp NULL it only writes the size of the temporary storage it needs to *bytes
template <typename NumItemsT> static void cub_sort(sort_plan *p, size_t *bytes) {
  NumItemsT n = (NumItemsT)p->n;
  if (p->is_float && p->pairs)
    checkCudaErrors(cub::DeviceRadixSort::SortPairs(p->d_cub_temp, *bytes, (const float *)p->d_in, (float *)p->d_out,
                                                    p->d_vin, p->d_vout, n));
  else if (p->is_float)
    checkCudaErrors(
        cub::DeviceRadixSort::SortKeys(p->d_cub_temp, *bytes, (const float *)p->d_in, (float *)p->d_out, n));
  else if (p->pairs)
    checkCudaErrors(cub::DeviceRadixSort::SortPairs(p->d_cub_temp, *bytes, (const unsigned *)p->d_in, p->d_out,
                                                    p->d_vin, p->d_vout, n));
  else
    checkCudaErrors(cub::DeviceRadixSort::SortKeys(p->d_cub_temp, *bytes, (const unsigned *)p->d_in, p->d_out, n));
}

static void run_cub_off32(void *arg) { // num_items an int: 32-bit offsets
  sort_plan *p = (sort_plan *)arg;
  size_t bytes = p->cub_temp_bytes;
  cub_sort<int>(p, &bytes);
}
static void run_cub_off64(void *arg) { // num_items an int64_t: 64-bit offsets
  sort_plan *p = (sort_plan *)arg;
  size_t bytes = p->cub_temp_bytes;
  cub_sort<int64_t>(p, &bytes);
}

// the runner's two methods. CUB orders -0.0 and +0.0 as equal keys (sort/sort_check.h then compares its float keys
// as floats); each call reads d_in and writes d_out, so its time is the sort alone
static const sort_method method_cub_off32 = {"cub_radix_sort_off32", 0, run_cub_off32, 1, NULL};
static const sort_method method_cub_off64 = {"cub_radix_sort_off64", 0, run_cub_off64, 1, NULL};

// before d_cub_temp is allocated: the larger of the two calls' temporary storage, so that one buffer serves both
static size_t cub_temp_size(sort_plan *p) {
  size_t b32 = 0, b64 = 0;
  cub_sort<int>(p, &b32);
  cub_sort<int64_t>(p, &b64);
  return b32 > b64 ? b32 : b64;
}
