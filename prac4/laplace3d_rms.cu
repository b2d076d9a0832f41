/*
 * laplace3d_rms.cu -- practical 4, step 7: prac3's laplace3d, which now also computes, at every iteration,
 * the rms change between u1 and u2 with this practical's reduction, on the GPU.
 *
 * The course asks for the rms change sqrt(sum (u2 - u1)^2 / N) as the measure of convergence: when it is
 * small, further iterations change little. Rather than a second kernel reading u1 and u2 again, the Jacobi
 * kernel adds up (u2 - u1)^2 as it goes (each thread over its column, in a register), then reduces over the
 * block with warp shuffles and finishes with step 6's "last block done" (reduction_ladder.cu,
 * kernels/r6_fast.cuh): the sum of squares of iteration `it` lands in d_sumsq[it] without a second launch,
 * a host loop or a zeroed accumulator. The host copies all the sums back once at the end.
 *
 * Checks: u after REPEAT iterations against Gold_laplace3d, bit for bit (rms error = 0.000000) as in
 * prac3, and each iteration's rms change against the gold's, in double, within a tolerance derived from the
 * float sum's depth (printed).
 *   nvcc -O3 -arch=native -I../common laplace3d_rms.cu laplace3d_gold.c reduction_gold.c -o laplace3d_rms
 * The exercise (make exercises): built with -DEXERCISE, the kernel is the learner's,
 * exercises/laplace3d_rms_kernel.cuh, with the rms change cut out.
 */
#define COURSE_STEPS "practical 4, workbook step 7 (course step 7)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 7)s in exercises/laplace3d_rms_kernel.cuh"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "grid3d.h"
#include "timing.h"

#include "prac4_gold.h"

#ifndef BLOCK_X
#define BLOCK_X 32 // one warp along i: coalesced rows, as in prac3
#endif
#ifndef BLOCK_Y
#define BLOCK_Y 4
#endif

#define MAX_POINTS (1LL << 35)

// the sum of v over the warp, in every lane
__device__ float warp_sum(float v) {
  for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

// the sum of v over the block (a whole number of warps), in every thread
__device__ float block_sum(float v) {
  __shared__ float warp_sums[32];
  int t = threadIdx.x + threadIdx.y * blockDim.x;
  int lane = t % 32, warp = t / 32, nwarps = blockDim.x * blockDim.y / 32;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  v = lane < nwarps ? warp_sums[lane] : 0.0f;
  __syncthreads(); // every read done before a second call stores again
  return warp_sum(v);
}

#ifdef EXERCISE // make exercises: the learner's kernel, its rms change cut out
#include "exercises/laplace3d_rms_kernel.cuh"
#else
// one thread per (i, j) column, marching in k (prac3's GPU_laplace3d), adding up (u2 - u1)^2 on the way;
// the sum over the grid goes to *d_sumsq, written by the last block to finish
__global__ void GPU_laplace3d_rms(int NX, int NY, int NZ, const float *__restrict__ d_u1, float *__restrict__ d_u2,
                                  float *d_sumsq, float *d_partial, unsigned int *d_count) {
  const float sixth = 1.0f / 6.0f;
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  float sumsq = 0.0f;

  // no early return: every thread of the block must take part in the block's sum below
  if (i < NX && j < NY) {
    size_t JOFF = (size_t)NX, KOFF = (size_t)NX * NY;
    size_t indg = (size_t)i + (size_t)j * JOFF;
    bool edge = (i == 0 || i == NX - 1 || j == 0 || j == NY - 1);
    for (int k = 0; k < NZ; k++) {
      float u1 = d_u1[indg], u2;
      if (edge || k == 0 || k == NZ - 1) {
        u2 = u1; // Dirichlet boundary: copied, no change
      } else {
        u2 = (d_u1[indg - 1] + d_u1[indg + 1] + d_u1[indg - JOFF] + d_u1[indg + JOFF] + d_u1[indg - KOFF] +
              d_u1[indg + KOFF]) *
             sixth;
      }
      d_u2[indg] = u2;
      float du = u2 - u1;
      sumsq += du * du;
      indg += KOFF;
    }
  }

  // step 7: the block's sum, then the last block done adds the blocks' sums (see kernels/r6_fast.cuh)
  sumsq = block_sum(sumsq);
  int b = blockIdx.x + blockIdx.y * gridDim.x, nblocks = gridDim.x * gridDim.y;
  int t = threadIdx.x + threadIdx.y * blockDim.x, T = blockDim.x * blockDim.y;
  __shared__ bool last;
  if (t == 0) {
    d_partial[b] = sumsq;
    __threadfence(); // the partial sum is visible to every block before the count goes up
    last = (atomicAdd(d_count, 1u) == (unsigned int)nblocks - 1);
  }
  __syncthreads();
  if (last) {
    __threadfence(); // our reads of the partial sums come after the atomic that made us last
    float v = 0.0f;
    for (int p = t; p < nblocks; p += T) v += __ldcg(&d_partial[p]);
    v = block_sum(v);
    if (t == 0) {
      *d_sumsq = v;
      *d_count = 0; // ready for the next iteration
    }
  }
}
#endif

int main(int argc, char **argv) {
  int NX = 512, NY = 512, NZ = 512, REPEAT = 10, bx = BLOCK_X, by = BLOCK_Y, seed = 0;
  arg_spec opts[] = {
      {"nx", ARG_INT, &NX, 3, 65535, "grid points in i (boundary included)"},
      {"ny", ARG_INT, &NY, 3, 65535, "grid points in j"},
      {"nz", ARG_INT, &NZ, 3, 65535, "grid points in k"},
      {"repeat", ARG_INT, &REPEAT, 1, 100000, "Jacobi iterations"},
      {"bx", ARG_INT, &bx, 1, 1024, "threads per block in i (BLOCK_X)"},
      {"by", ARG_INT, &by, 1, 1024, "threads per block in j (BLOCK_Y)"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "0: the course's 0 inside; N: random values inside"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)NX * NY * NZ > MAX_POINTS)
    args_fail("a %d x %d x %d grid has %lld points, more than 2^35", NX, NY, NZ, (long long)NX * NY * NZ);
  if (bx * by > 1024) args_fail("a %dx%d block has %d threads, more than 1024", bx, by, bx * by);
  if ((bx * by) % 32) args_fail("a %dx%d block is not a whole number of warps (the block sum needs them)", bx, by);

  int dev = findCudaDevice(argc, argv);
  (void)dev;
  size_t npoints = (size_t)NX * NY * NZ;
  size_t bytes = npoints * sizeof(float);
  int user_sized = args_given(argc, argv, "nx") || args_given(argc, argv, "ny") || args_given(argc, argv, "nz");
  device_memory_check(2 * bytes, "u1 and u2", user_sized);
  printf("Grid dimensions: %d x %d x %d\n", NX, NY, NZ);

  // u1 holds the gold result at the end, u2 the GPU's, u3 is the gold's scratch
  float *h_u1 = (float *)malloc(bytes), *h_u2 = (float *)malloc(bytes), *h_u3 = (float *)malloc(bytes);
  float *h_sumsq = (float *)malloc(REPEAT * sizeof(float));
  if (!h_u1 || !h_u2 || !h_u3 || !h_sumsq) return result_fail("out of host memory for three %zu-byte arrays", bytes);
  grid3d_init(h_u1, NX, NY, NZ, (unsigned int)seed);

  // the execution configuration, and the reduction's workspace: one partial sum per block, the counter
  dim3 block(bx, by), grid((NX + bx - 1) / bx, (NY + by - 1) / by);
  int nblocks = grid.x * grid.y;
  float *d_u1, *d_u2, *d_foo, *d_sumsq, *d_partial;
  unsigned int *d_count;
  checkCudaErrors(cudaMalloc((void **)&d_u1, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_u2, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_sumsq, REPEAT * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_partial, nblocks * sizeof(float)));
  checkCudaErrors(cudaMalloc((void **)&d_count, sizeof(unsigned int)));
  checkCudaErrors(cudaMemset(d_count, 0, sizeof(unsigned int))); // the kernel leaves it 0 again
  checkCudaErrors(cudaMemset(d_u2, 0xff, bytes));                // poison: NaN
  checkCudaErrors(cudaMemset(d_sumsq, 0xff, REPEAT * sizeof(float)));
  checkCudaErrors(cudaMemcpy(d_u1, h_u1, bytes, cudaMemcpyHostToDevice));
  printf("Block: %d x %d, grid of blocks: %d x %d\n", bx, by, grid.x, grid.y);

  // REPEAT iterations, swapping u1 and u2 after each; iteration it's sum of squares goes to d_sumsq[it]
  event_timer t = event_timer_start();
  for (int it = 0; it < REPEAT; ++it) {
    GPU_laplace3d_rms<<<grid, block>>>(NX, NY, NZ, d_u1, d_u2, d_sumsq + it, d_partial, d_count);
    getLastCudaError("GPU_laplace3d_rms execution failed");
    d_foo = d_u1;
    d_u1 = d_u2;
    d_u2 = d_foo;
  }
  float milli = event_timer_stop(&t);
  printf("%dx GPU_laplace3d_rms: %.1f (ms)\n", REPEAT, milli);
  checkCudaErrors(cudaMemcpy(h_u2, d_u1, bytes, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemcpy(h_sumsq, d_sumsq, REPEAT * sizeof(float), cudaMemcpyDeviceToHost));

  // the tolerance of the GPU's float sum of squares: each square is within 3u of (u2 - u1)^2 (a
  // subtraction and a multiplication, each rounded), then a chain of at most NZ additions in a thread, 10
  // levels in the block, ceil(nblocks / T) + 10 in the last block. sqrt halves a relative error, so
  // gamma(depth + 3) bounds the rms change's relative error with room to spare.
  int T = bx * by;
  double depth = NZ + 10 + (nblocks + T - 1) / T + 10 + 3;
  double rtol = reduction_tolerance(1.0, 0, depth);
  printf("rms change tolerance: relative %.3e (gamma(%.0f), u = 2^-24)\n", rtol, depth);

  // Gold treatment: the same iterations, and each one's rms change in double
  double t0 = wall_ms();
  int nbad_rms = 0;
  for (int it = 0; it < REPEAT; ++it) {
    Gold_laplace3d(NX, NY, NZ, h_u1, h_u3);
    double gold = rms_change_gold(h_u1, h_u3, npoints);
    double gpu = sqrt((double)h_sumsq[it] / (double)npoints);
    gold_stats rs;
    compare_scalar(gpu, gold, 0.0, rtol, &rs);
    nbad_rms += (int)rs.nbad;
    if (it < 20 || it == REPEAT - 1 || rs.nbad)
      printf("iteration %d: rms change = %.6e (gold %.6e)%s\n", it + 1, gpu, gold, rs.nbad ? "  <-- outside tolerance" : "");
    float *h_foo = h_u1;
    h_u1 = h_u3;
    h_u3 = h_foo;
  }
  printf("%dx Gold_laplace3d + rms_change_gold: %.1f (ms)\n", REPEAT, wall_ms() - t0);

  // error check: the same operations in the same order as the gold, so exactly equal
  gold_stats st;
  compare_float(h_u2, h_u1, npoints, 0.0, 0.0, &st);
  printf("rms error = %f\n", st.rms_err);
  gold_report("u", &st);

  if (REPEAT % 2) { // after an odd REPEAT the gold's swaps leave u1 and u3 exchanged
    float *h_foo = h_u1;
    h_u1 = h_u3;
    h_u3 = h_foo;
  }
  checkCudaErrors(cudaFree(d_u1));
  checkCudaErrors(cudaFree(d_u2));
  checkCudaErrors(cudaFree(d_sumsq));
  checkCudaErrors(cudaFree(d_partial));
  checkCudaErrors(cudaFree(d_count));
  free(h_u1);
  free(h_u2);
  free(h_u3);
  free(h_sumsq);

  if (nbad_rms) return result_check(0, "%d of %d iterations' rms change outside tolerance", nbad_rms, REPEAT);
  return gold_verdict(&st, "u");
}
