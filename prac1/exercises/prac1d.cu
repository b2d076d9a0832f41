/*
 * exercises/prac1d.cu -- practical 1, step 6: write the vector addition z = x + y yourself.
 *
 * The finished program is ../prac1d.cu: try the exercise before you open it. Fill in the places marked
 * TODO(step 6) (the kernel's body, x and y on the device, the number of blocks and the launch), then
 * `make exercises && ./exercises/prac1d`, in prac1/ (as the handout's step 6 says).
 * Until they are right it ends RESULT: FAIL (exercise not done: ...): z starts as NaN, and the gold
 * comparison fails every element your kernel does not write correctly.
 *
 * The host fills x and y with random values, the GPU adds them with one thread per element, and the
 * result is compared with the CPU's. n is deliberately not a multiple of the block size: the last
 * block has threads with nothing to do, and the `if (tid < n)` guard keeps them from writing past z.
 * z has nthreads spare elements past its end, poisoned, so a kernel without the guard is caught: the run
 * FAILs naming the elements past z's end it wrote (compute-sanitizer also reports its reads past x and y).
 * Try -n=1000 -nthreads=1000, -n=1 and a block size that is not a multiple of 32.
 * Once right, the kernel is timed (the median of REPS samples, each a batch of launches where one is under
 * 1 ms: timing.h), its bandwidth printed: vary -nthreads (32, 100, 256, 1024) at -n=100000000 (past the L2).
 *   nvcc -O3 -arch=native -DEXERCISE -I. -I../common exercises/prac1d.cu vector_add_gold.c -o exercises/prac1d
 */
#define COURSE_STEPS "practical 1, workbook step 6 (course step 6, which the course does in prac1b)"
#define EXERCISE_TODO "fill in the TODO(step 6)s in exercises/prac1d.cu" // for the verdict (gold_check.h)
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "rng.h"
#include "timing.h"

#include "prac1_gold.h"

#define REPS 20 // timed samples (a short kernel's is a batch of launches, timing.h); their median is printed

// one thread per element; the last block may be partly idle
__global__ void add_vectors(const float *x, const float *y, float *z, int n) {
  // TODO(step 6): one thread per element of z, z = x + y (the grid is rounded up: some threads have none)
}


// everything a launch needs, so that time_median_ms (timing.h) can repeat it
typedef struct {
  const float *d_x, *d_y;
  float *d_z;
  int n, nblocks, nthreads;
} add_launch;

static void launch_add_vectors(void *p) {
  // TODO(step 6): launch add_vectors with a->nblocks blocks of a->nthreads threads (a: p cast to add_launch *)
  (void)p; // nothing launched yet: delete this line when your launch uses p
  getLastCudaError("add_vectors execution failed");
}

int main(int argc, char **argv) {
  int n = 1000003, nthreads = 256, seed = 1;
  arg_spec opts[] = {
      {"n", ARG_INT, &n, 1, 1 << 29, "vector length"},
      {"nthreads", ARG_INT, &nthreads, 1, 1024, "threads per block"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the random inputs"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));

  findCudaDevice(argc, argv);
  size_t bytes = (size_t)n * sizeof(float);
  // z with a guard of nthreads elements past its end: the most that a last block sticking out past n (the
  // number of blocks rounded up) can reach
  size_t padded = bytes + (size_t)nthreads * sizeof(float);
  device_memory_check(2 * bytes + padded, "three vectors", args_given(argc, argv, "n"));

  // allocate and initialise the host vectors
  float *h_x = (float *)malloc(bytes);
  float *h_y = (float *)malloc(bytes);
  float *h_z = (float *)malloc(bytes);
  float *h_gold = (float *)malloc(bytes);
  if (!h_x || !h_y || !h_z || !h_gold) return result_fail("out of host memory");
  unsigned int state = (unsigned int)seed;
  for (int i = 0; i < n; i++) {
    h_x[i] = lcg_uniform_in(&state, -1.0f, 1.0f);
    h_y[i] = lcg_uniform_in(&state, -1.0f, 1.0f);
  }

  // copy x and y to the device; poison z and its guard with 0xff bytes (a NaN no addition gives), which a
  // correct kernel overwrites in z and leaves alone past it
  float *d_x = NULL, *d_y = NULL, *d_z; // x and y: NULL until you allocate them
  // TODO(step 6): device memory for x and y, n floats each, every call checked as z's is
  checkCudaErrors(cudaMalloc((void **)&d_z, padded));
  // TODO(step 6): copy h_x and h_y there
  checkCudaErrors(cudaMemset(d_z, 0xff, padded));

  // execute kernel: enough blocks to cover n, rounding up
  int nblocks = 1; // TODO(step 6): enough blocks of nthreads threads for all n elements
  add_launch a = {d_x, d_y, d_z, n, nblocks, nthreads};
  launch_add_vectors(&a);
  printf("n = %d, %d blocks of %d threads\n", n, nblocks, nthreads);

  // the guard past z's end must still hold every poison byte: a thread with tid >= n wrote nothing
  unsigned int guard[1024];
  checkCudaErrors(cudaMemcpy(guard, d_z + n, (size_t)nthreads * sizeof(float), cudaMemcpyDeviceToHost));
  int written = 0;
  for (int i = 0; i < nthreads; i++) written += guard[i] != 0xffffffffu;
  if (written)
    return result_fail("%d of the %d elements past the end of z were written: threads with tid >= n must not "
                       "write (the if (tid < n) guard)", written, nthreads);

  // copy back the result, compute the gold and compare: one float addition each, so exactly equal
  checkCudaErrors(cudaMemcpy(h_z, d_z, bytes, cudaMemcpyDeviceToHost));
  Gold_vector_add(h_x, h_y, h_gold, (size_t)n);
  gold_stats st;
  compare_float(h_z, h_gold, (size_t)n, 0.0, 0.0, &st);
  gold_report("z", &st);

  // time the kernel once it is right: 3 warm-up launches (the first also loads the kernel), then the median
  // of REPS; it reads x and y and writes z, 12 bytes per element
  if (st.nbad == 0) {
    float ms = time_median_ms(launch_add_vectors, &a, 3, REPS);
    printf("add_vectors: %.4f ms (median of %d), %.1f GB/s\n", ms, REPS, 12.0 * n / (ms * 1e-3) / 1e9);
  }

  checkCudaErrors(cudaFree(d_x));
  checkCudaErrors(cudaFree(d_y));
  checkCudaErrors(cudaFree(d_z));
  free(h_x);
  free(h_y);
  free(h_z);
  free(h_gold);

  return gold_verdict(&st, "z");
}
