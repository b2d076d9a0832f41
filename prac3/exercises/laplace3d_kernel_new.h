/*
 * exercises/laplace3d_kernel_new.h -- practical 3, step 4: write the "new" kernel yourself: a 3-D grid of
 * 3-D thread blocks, one thread per grid point.
 *
 * The finished kernel is ../laplace3d_kernel_new.h: try first. laplace3d_new.cu built with -DEXERCISE
 * (`make exercises`: exercises/laplace3d_new) includes this one in its place. Fill in TODO(step 4), then, as
 * the handout's step 4 does, start small and end at the course's 512^3:
 *   make exercises
 *   ./exercises/laplace3d_new -nx=67 -ny=35 -nz=19
 *   ./exercises/laplace3d_new
 *
 * Many more threads than GPU_laplace3d, each with one point of work: more independent loads in flight,
 * no loop, but every thread pays for its own index arithmetic.
 * The rows are `pitch` floats apart (pitch = NX unless the program pads them) and the planes pitch * NY.
 */

// one thread per point (i, j, k)
__global__ void GPU_laplace3d_new(int NX, int NY, int NZ, int pitch, const float *__restrict__ d_u1,
                                  float *__restrict__ d_u2) {
  // TODO(step 4): this thread's point (i, j, k) from threadIdx, blockIdx and blockDim in x, y and z; return
  // if it lies outside the grid (the grid of blocks is rounded up). Its index is i + j*JOFF + k*KOFF with
  // JOFF = pitch and KOFF = pitch*NY, in size_t (an int wraps past 2^31 points). A boundary point (i, j or
  // k first or last) is copied from d_u1; an interior one is the sum of its six neighbours in the gold's
  // order (i-1, i+1, j-1, j+1, k-1, k+1) times 1.0f/6.0f, so that it equals the gold bit for bit. Write the
  // result to d_u2. ../laplace3d_kernel.h does the same with a loop over k.
}
