/*
 * sort/k4_thrust.cuh -- practical 8, step 9's other peer (-kernel=4): thrust::sort (or sort_by_key with -pairs) on the
 * same keys, its temporary storage allocated once through once_allocator. The policy is par_nosync: par would
 * synchronise the stream at the end of every call, and the peer is timed as the GPU runs it (the events time
 * the GPU; the runner synchronises after the last of the timed calls).
 */
#include <cub/device/device_radix_sort.cuh>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <new>

#include "sort_common.cuh"
#include "timing.h" // time_median_ms

// Thrust allocates its temporary storage through this: one buffer, grown on the first (untimed) call and
// then handed out again, so that the timed calls allocate nothing
struct once_allocator {
  typedef char value_type;
  sort_plan *p;
  char *allocate(std::ptrdiff_t bytes) {
    if ((size_t)bytes > p->thrust_temp_bytes) {
      if (p->d_thrust_temp) checkCudaErrors(cudaFree(p->d_thrust_temp));
      if (cudaMalloc((void **)&p->d_thrust_temp, (size_t)bytes) != cudaSuccess) throw std::bad_alloc();
      p->thrust_temp_bytes = (size_t)bytes;
    }
    return p->d_thrust_temp;
  }
  void deallocate(char *, size_t) {}
};

// thrust::sort sorts in place: the input is copied to out first (timed alone by thrust_copy_ms, for the runner
// to subtract: method_thrust below)
static void run_thrust(void *arg) {
  sort_plan *p = (sort_plan *)arg;
  once_allocator alloc = {p};
  checkCudaErrors(cudaMemcpyAsync(p->d_out, p->d_in, p->n * 4, cudaMemcpyDeviceToDevice));
  if (p->pairs) checkCudaErrors(cudaMemcpyAsync(p->d_vout, p->d_vin, p->n * 4, cudaMemcpyDeviceToDevice));
  if (p->is_float && p->pairs)
    thrust::sort_by_key(thrust::cuda::par_nosync(alloc), (float *)p->d_out, (float *)p->d_out + p->n, p->d_vout);
  else if (p->is_float)
    thrust::sort(thrust::cuda::par_nosync(alloc), (float *)p->d_out, (float *)p->d_out + p->n);
  else if (p->pairs)
    thrust::sort_by_key(thrust::cuda::par_nosync(alloc), p->d_out, p->d_out + p->n, p->d_vout);
  else
    thrust::sort(thrust::cuda::par_nosync(alloc), p->d_out, p->d_out + p->n);
}

static void run_copy_in(void *arg) { // what run_thrust spends before it sorts
  sort_plan *p = (sort_plan *)arg;
  checkCudaErrors(cudaMemcpyAsync(p->d_out, p->d_in, p->n * 4, cudaMemcpyDeviceToDevice));
  if (p->pairs) checkCudaErrors(cudaMemcpyAsync(p->d_vout, p->d_vin, p->n * 4, cudaMemcpyDeviceToDevice));
}

// The time to subtract from run_thrust's: its copies alone, timed as the runner times every method (warm-up
// runs, then the median of reps). The difference is the sort, as Thrust's users who sort in place see it.
static double thrust_copy_ms(sort_plan *p, int reps) { return time_median_ms(run_copy_in, p, 3, reps); }

// the runner's method. Thrust sorts these keys with CUB's radix sort, so it too orders -0.0 and +0.0 as equal keys
static const sort_method method_thrust = {"thrust_sort", 4, run_thrust, 1, thrust_copy_ms};

// What Thrust's temporary storage will hold, before anything is allocated (sort/sort_plan.h counts it): the other
// buffer of its in-place DoubleBuffer sort (n keys, and n values with -pairs) and the workspace CUB asks for that
// call with a 64-bit count, as thrust::sort makes it (asked of CUB here; Thrust rounds its own pieces up a little)
static size_t thrust_temp_size(const sort_plan *p) {
  size_t bytes = 0;
  int64_t n = (int64_t)p->n;
  cub::DoubleBuffer<unsigned> keys(NULL, NULL), vals(NULL, NULL);
  cub::DoubleBuffer<float> fkeys(NULL, NULL);
  if (p->is_float && p->pairs)
    checkCudaErrors(cub::DeviceRadixSort::SortPairs(NULL, bytes, fkeys, vals, n));
  else if (p->is_float)
    checkCudaErrors(cub::DeviceRadixSort::SortKeys(NULL, bytes, fkeys, n));
  else if (p->pairs)
    checkCudaErrors(cub::DeviceRadixSort::SortPairs(NULL, bytes, keys, vals, n));
  else
    checkCudaErrors(cub::DeviceRadixSort::SortKeys(NULL, bytes, keys, n));
  return bytes + (size_t)(p->pairs ? 2 : 1) * p->n * 4 + (1 << 20);
}
