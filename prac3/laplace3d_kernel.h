/*
 * laplace3d_kernel.h -- practical 3, the first kernel: a 2-D grid of 2-D thread blocks over (i, j),
 * one thread per (i, j) column, marching up the column in k.
 *
 * Each thread reads its six neighbours from global memory at every k; the i and j neighbours are other
 * threads' points, so most of those reads are served by the L1/L2 caches, not by device memory.
 * The rows are `pitch` floats apart (pitch = NX unless the program pads them) and the planes pitch * NY.
 */

// one thread per (i, j) column, marching in k
__global__ void GPU_laplace3d(int NX, int NY, int NZ, int pitch, const float *__restrict__ d_u1,
                              float *__restrict__ d_u2) {
  const float sixth = 1.0f / 6.0f;
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  if (i >= NX || j >= NY) return; // the grid of blocks is rounded up: some threads have no column

  // offsets to the neighbours in j and k; size_t because an int index wraps past 2^31 points (up to 2^35 accepted)
  size_t JOFF = (size_t)pitch, KOFF = (size_t)pitch * NY;
  size_t indg = (size_t)i + (size_t)j * JOFF;
  bool edge = (i == 0 || i == NX - 1 || j == 0 || j == NY - 1);

  for (int k = 0; k < NZ; k++) {
    float u2;
    if (edge || k == 0 || k == NZ - 1) {
      u2 = d_u1[indg]; // Dirichlet boundary: copied
    } else {
      // the same order of additions as Gold_laplace3d, so the results are bit-for-bit equal
      u2 = (d_u1[indg - 1] + d_u1[indg + 1] + d_u1[indg - JOFF] + d_u1[indg + JOFF] + d_u1[indg - KOFF] +
            d_u1[indg + KOFF]) *
           sixth;
    }
    d_u2[indg] = u2;
    indg += KOFF;
  }
}
