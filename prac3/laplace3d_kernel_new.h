/*
 * laplace3d_kernel_new.h -- practical 3, the "new" kernel: a 3-D grid of 3-D thread blocks, one thread
 * per grid point.
 *
 * Many more threads than GPU_laplace3d, each with one point of work: more independent loads in flight,
 * no loop, but every thread pays for its own index arithmetic.
 * The rows are `pitch` floats apart (pitch = NX unless the program pads them) and the planes pitch * NY.
 */

// one thread per point (i, j, k)
__global__ void GPU_laplace3d_new(int NX, int NY, int NZ, int pitch, const float *__restrict__ d_u1,
                                  float *__restrict__ d_u2) {
  const float sixth = 1.0f / 6.0f;
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  int k = threadIdx.z + blockIdx.z * blockDim.z;
  if (i >= NX || j >= NY || k >= NZ) return; // blocks on the far faces stick out of the grid

  size_t JOFF = (size_t)pitch, KOFF = (size_t)pitch * NY;
  size_t indg = (size_t)i + (size_t)j * JOFF + (size_t)k * KOFF;
  float u2;
  if (i == 0 || i == NX - 1 || j == 0 || j == NY - 1 || k == 0 || k == NZ - 1) {
    u2 = d_u1[indg]; // Dirichlet boundary: copied
  } else {
    // the same order of additions as Gold_laplace3d, so the results are bit-for-bit equal
    u2 = (d_u1[indg - 1] + d_u1[indg + 1] + d_u1[indg - JOFF] + d_u1[indg + JOFF] + d_u1[indg - KOFF] +
          d_u1[indg + KOFF]) *
         sixth;
  }
  d_u2[indg] = u2;
}
