/*
 * exercises/scan.cu -- the starting file of practical 8, steps 1 and 2: scan.cu with the scans cut out.
 * Fill in the two TODOs; until then the run ends RESULT: FAIL (exercise not done: ...): without step 1 the output
 * is the input shifted by one place, without step 2 (-shfl) each warp's offset alone. The finished one: ../scan.cu.
 *
 * scan.cu -- practical 8, steps 1 and 2: an exclusive scan (prefix sum) of up to 1024 floats in one
 * thread block.
 *
 * Step 1 (the course's kernel, `scan`): each thread holds one element in shared memory; at step d every
 * thread adds the element d places to its left (Hillis and Steele), doubling d until it reaches the block
 * size. Two __syncthreads() per step: one before the reads (everyone has written the previous step), one
 * between each thread's read into a register and its write (everyone has read). The result is the inclusive
 * scan; each thread then takes its left neighbour's value, which shifts it into the exclusive scan.
 * Step 2 (`-shfl`, kernel `scan_shfl`): the same within each warp by __shfl_up_sync (no shared memory and no
 * block-wide barrier), then one warp scans the warp totals and every warp adds its offset.
 *
 * The input is whole numbers 0..1000, so every partial sum is an exact float and the GPU must agree with
 * the gold bit for bit: `rms scan error  = 0.000000`.
 * In prac8/, `make exercises/scan` builds it; by hand, from prac8/:
 *   nvcc -O3 -arch=native -DEXERCISE -I../common -I. exercises/scan.cu prac8_gold.c -o exercises/scan
 */
#define COURSE_STEPS "practical 8, workbook steps 1-2 (course step (1); -shfl is step (3) of the course's 2023 list)"
// what the verdict line tells the learner (before gold_check.h)
#define EXERCISE_TODO "fill in the TODO(step 1) and TODO(step 2) in exercises/scan.cu"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "prac8_gold.h"

// step 1: the course's kernel; one thread per element, blockDim.x = num_elements <= 1024

__global__ void scan(float *g_odata, const float *g_idata) {
  extern __shared__ float temp[]; // one float per thread, sized at launch
  int tid = threadIdx.x;

  // read input into shared memory
  temp[tid] = g_idata[tid];

  // TODO(step 1): Hillis-Steele: for d = 1, 2, 4, ... below blockDim.x, add temp[tid - d] to temp[tid]
  // (where tid >= d). Each step: __syncthreads(); read the new sum into a register (t = temp[tid], plus
  // temp[tid - d]); __syncthreads(); only then write temp[tid] = t. Not temp[tid] += temp[tid - d] between
  // two barriers: thread tid + d may still be reading temp[tid] as you write it, a race that can still pass.

  // shift by one: the inclusive sum of my left neighbour is my exclusive sum
  __syncthreads();
  g_odata[tid] = (tid > 0) ? temp[tid - 1] : 0.0f;
}

// step 2: warp shuffles; a warp scans 32 values in registers in 5 steps, with no barrier at all

__global__ void scan_shfl(float *g_odata, const float *g_idata) {
  __shared__ float warp_sum[32];
  int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  int nwarps = (blockDim.x + 31) / 32;
  float x = g_idata[tid];

  // inclusive scan within the warp; lanes past the block's end (a partial last warp) do not exist, so the
  // mask names only the lanes that do
  int active = min(32, (int)blockDim.x - 32 * warp);
  unsigned mask = (active == 32) ? 0xffffffffu : (1u << active) - 1u;
  float incl = x;
  // TODO(step 2): the inclusive scan of x across the warp, in incl: 5 steps of __shfl_up_sync(mask, ...),
  // each adding the value some lanes below where that lane exists (__shfl_up_sync(mask, v, d) hands lane l the
  // v of lane l-d; the lanes below d get their own v back). Step 2 is partly a reading: warp 0's scan of
  // the totals, below, is this loop on the totals. Write yours before reading it, then compare (why `mask`?).
  if (lane == 31 || tid == blockDim.x - 1) warp_sum[warp] = incl;
  __syncthreads();

  // the first warp scans the warp totals (exclusive), in place
  if (warp == 0) {
    float w = (lane < nwarps) ? warp_sum[lane] : 0.0f;
    float wi = w;
    for (int d = 1; d < 32; d = 2 * d) {
      float t = __shfl_up_sync(mask, wi, d); // warp 0 is partial when the block is
      if (lane >= d) wi += t;
    }
    __syncwarp(mask);
    if (lane < nwarps) warp_sum[lane] = wi - w; // exact here: whole numbers below 2^24
  }
  __syncthreads();

  g_odata[tid] = warp_sum[warp] + (incl - x); // exclusive = inclusive minus my own element (exact, as above)
}

int main(int argc, char **argv) {
  int num_elements = 512, shfl = 0, seed = 1;
  arg_spec opts[] = {
      {"n", ARG_INT, &num_elements, 1, 1024, "number of elements (one block: at most 1024)"},
      {"shfl", ARG_FLAG, &shfl, 0, 1, "step 2: the warp-shuffle kernel scan_shfl"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed of the input"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  findCudaDevice(argc, argv);

  int num_threads = num_elements;
  size_t mem_size = sizeof(float) * num_elements;

  // allocate host memory to store the input data, and initialise it with whole numbers 0..1000
  float *h_data = (float *)malloc(mem_size);
  float *h_out = (float *)malloc(mem_size);
  double *h_gold = (double *)malloc(sizeof(double) * num_elements);
  if (!h_data || !h_out || !h_gold) return result_fail("out of host memory");
  for (int i = 0; i < num_elements; i++) h_data[i] = (float)(prac8_hash(i, seed) % 1001);

  // compute reference solution
  scan_gold(h_gold, h_data, num_elements);

  // allocate device memory input and output arrays, poison the output (0xff bytes: NaN)
  float *d_idata, *d_odata;
  checkCudaErrors(cudaMalloc((void **)&d_idata, mem_size));
  checkCudaErrors(cudaMalloc((void **)&d_odata, mem_size));
  checkCudaErrors(cudaMemset(d_odata, 0xff, mem_size));

  // copy host memory to device input array
  checkCudaErrors(cudaMemcpy(d_idata, h_data, mem_size, cudaMemcpyHostToDevice));

  // execute the kernel: one block, one thread per element
  event_timer t = event_timer_start();
  if (shfl) {
    scan_shfl<<<1, num_threads>>>(d_odata, d_idata);
    getLastCudaError("scan_shfl execution failed");
  } else {
    scan<<<1, num_threads, mem_size>>>(d_odata, d_idata);
    getLastCudaError("scan execution failed");
  }
  float ms = event_timer_stop(&t);

  // copy result from device to host
  checkCudaErrors(cudaMemcpy(h_out, d_odata, mem_size, cudaMemcpyDeviceToHost));

  // check results: whole numbers, sums below 1024 * 1000 < 2^24, so exact. The course's line first, exactly as
  // it prints it (two spaces before =), so that a learner can diff against its log; then the workbook's
  gold_stats st;
  compare_float_double(h_out, h_gold, num_elements, 0.0, 0.0, &st);
  printf("rms scan error  = %f\n", st.rms_err);
  printf("%s: %d elements, %.3f ms (one launch, its start-up included)\n", shfl ? "scan_shfl" : "scan", num_elements,
         ms);
  gold_report(shfl ? "scan_shfl" : "scan", &st);

  // cleanup memory
  free(h_data);
  free(h_out);
  free(h_gold);
  checkCudaErrors(cudaFree(d_idata));
  checkCudaErrors(cudaFree(d_odata));
  return gold_verdict(&st, "scan");
}
