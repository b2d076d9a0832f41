/*
 * exercises/laplace3d_rms_kernel.cuh -- practical 4, step 7, to write: the rms change of each Jacobi
 * iteration, reduced on the GPU inside the iteration's kernel. (The finished kernel is GPU_laplace3d_rms in
 * ../laplace3d_rms.cu, which includes this file in its place when built with -DEXERCISE.)
 *
 * The kernel computes u2 and has step 6's finish (the last block done adds the blocks' sums), but the
 * squared changes and their block sum are cut out (TODO(step 7)): every rms change comes out 0, and
 * `make exercises && ./exercises/laplace3d_rms -nx=67 -ny=35 -nz=19 -repeat=3` (the handout's small grid:
 * the default 512^3 spends seconds in the CPU gold) ends RESULT: FAIL (exercise not done: ...) until they
 * are back. warp_sum and block_sum are the program's, above the place this file is included.
 */
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
      // TODO(step 7): add (u2 - u1)^2 to sumsq
      indg += KOFF;
    }
  }

  // step 7: the block's sum, then the last block done adds the blocks' sums (see kernels/r6_fast.cuh)
  // TODO(step 7): replace sumsq by the block's sum of it (block_sum, above), before the last block done
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
