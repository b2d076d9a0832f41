/*
 * kernels/r0_cub.cuh -- the library: cub::DeviceReduce::Sum on the same array. Its temporary storage is
 * asked for and allocated once by the runner (cub_setup), outside any timed region, as CUB's own examples
 * do; each call then only launches.
 */
#include <cub/device/device_reduce.cuh>

static void cub_setup(ladder_args *a) {
  a->temp_bytes = 0;
  checkCudaErrors(cub::DeviceReduce::Sum(NULL, a->temp_bytes, a->d_in, a->d_out, (long long)a->n));
  checkCudaErrors(cudaMalloc(&a->d_temp, a->temp_bytes > 0 ? a->temp_bytes : 1));
}

static void run_cub(ladder_args *a) {
  a->blocks = 0;
  checkCudaErrors(cub::DeviceReduce::Sum(a->d_temp, a->temp_bytes, a->d_in, a->d_out, (long long)a->n));
  getLastCudaError("cub::DeviceReduce::Sum execution failed");
}

// CUB does not document its order of additions. Its reduction (cub/agent/agent_reduce.cuh) gives each thread
// of its grid an even share of the input, added one tile after another in registers, then reduces the
// threads' sums with trees; its grid has at least one 256-thread block on every SM. Assumed here: a chain
// of n / (SMs * 256) serial additions plus 64 levels of trees and per-tile sums, a generous bound.
static double depth_cub(const ladder_args *a, int sms) {
  return (double)ceil_div((long long)a->n, (long long)sms * 256) + 64;
}
