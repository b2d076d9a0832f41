/*
 * color_inversion_solve.cu -- LeetGPU "Color Inversion", the plain answer: one pixel per thread.
 *
 * The image is width x height RGBA pixels, 4 bytes each, inverted in place: R, G, B -> 255 - value,
 * A unchanged. Each thread reads and writes its pixel's bytes one at a time.
 */
#include "helper_cuda.h"

#define BLOCK_THREADS 256

extern "C" const char solve_name[] = "color_inversion";

// one thread per pixel: three 1-byte loads and three 1-byte stores (R, G, B; alpha is neither read nor written)
__global__ void invert_kernel(unsigned char *image, size_t npixels) {
  size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (p < npixels) {
    unsigned char *px = image + 4 * p;
    px[0] = 255 - px[0];
    px[1] = 255 - px[1];
    px[2] = 255 - px[2];
  }
}

extern "C" void solve(unsigned char *image, int width, int height) {
  size_t npixels = (size_t)width * (size_t)height;
  unsigned int blocks = (unsigned int)((npixels + BLOCK_THREADS - 1) / BLOCK_THREADS);
  invert_kernel<<<blocks, BLOCK_THREADS>>>(image, npixels);
  getLastCudaError("invert_kernel execution failed");
}
