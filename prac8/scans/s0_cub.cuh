/*
 * scans/s0_cub.cuh -- practical 8, step 5's peer (-kernel=0): cub::DeviceScan::ExclusiveSum on the same
 * arrays, called the two ways its users call it. The C++ type of num_items picks CUB's offset type
 * (cub/detail/choose_offset.cuh): an `int` gives 32-bit offsets (what thrust::exclusive_scan uses wherever the
 * count fits in 32 bits), a `long long` 64-bit ones. -bench checks and times both and takes the faster as the
 * peer, as radix_sort does for its sort (sort/k0_cub.cuh); a run without -bench checks the long long call.
 * Their temporary storage is allocated once, the larger of the two sizes (cub_temp_size), as CUB's own
 * examples do (ask the size, allocate, then run).
 */
#include <cub/device/device_scan.cuh>

#include "scan_common.cuh"

// one call; with d_cub_temp NULL it only writes the size of the temporary storage it needs to *bytes
template <typename NumItemsT> static void cub_scan(scan_plan *p, size_t *bytes) {
  NumItemsT n = (NumItemsT)p->n;
  if (p->is_int)
    checkCudaErrors(cub::DeviceScan::ExclusiveSum(p->d_cub_temp, *bytes, (const int *)p->d_in, (int *)p->d_out, n));
  else
    checkCudaErrors(cub::DeviceScan::ExclusiveSum(p->d_cub_temp, *bytes, (const float *)p->d_in, (float *)p->d_out, n));
}

static void run_cub(void *arg) { // num_items a long long: 64-bit offsets
  scan_plan *p = (scan_plan *)arg;
  size_t bytes = p->cub_temp_bytes;
  cub_scan<long long>(p, &bytes);
}
static void run_cub_int(void *arg) { // num_items an int: 32-bit offsets (the runner's MAX_N fits: static_assert)
  scan_plan *p = (scan_plan *)arg;
  size_t bytes = p->cub_temp_bytes;
  cub_scan<int>(p, &bytes);
}

// before d_cub_temp is allocated: the larger of the two calls' temporary storage, so that one buffer serves both
static size_t cub_temp_size(scan_plan *p) {
  size_t b32 = 0, b64 = 0;
  cub_scan<int>(p, &b32);
  cub_scan<long long>(p, &b64);
  return b32 > b64 ? b32 : b64;
}
