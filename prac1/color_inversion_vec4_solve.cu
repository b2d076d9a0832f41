/*
 * color_inversion_vec4_solve.cu -- LeetGPU "Color Inversion", vectorised: four pixels per 16-byte load.
 *
 * Two tricks. First, 255 - v equals v XOR 0xff for a byte, so one 32-bit XOR with 0x00ffffff inverts
 * R, G and B of a little-endian RGBA pixel (R is the lowest byte, A the highest) and keeps A.
 * Second, a uint4 load brings four pixels at once (LDG.E.128), so each thread moves 16 bytes each way.
 * The npixels % 4 pixels left over are done one 32-bit word each; an image that is not 16-byte
 * aligned takes the plain one-byte-at-a-time path throughout.
 */
#include <stdint.h>

#include "helper_cuda.h"

#define BLOCK_THREADS 256
#define RGB_MASK 0x00ffffffu // little-endian RGBA: flips R, G, B and keeps A

extern "C" const char solve_name[] = "color_inversion_vec4";

// thread i inverts pixels 4i .. 4i+3 with one 16-byte load and store; threads i < ntail one tail pixel
__global__ void invert_vec4(uint4 *__restrict__ quads, unsigned int *__restrict__ tail, size_t nquads, int ntail) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nquads) {
    uint4 q = quads[i];
    q.x ^= RGB_MASK;
    q.y ^= RGB_MASK;
    q.z ^= RGB_MASK;
    q.w ^= RGB_MASK;
    quads[i] = q;
  }
  if (i < (size_t)ntail) tail[i] ^= RGB_MASK;
}

// one pixel per thread, byte by byte: the fallback for an image that is not 16-byte aligned
__global__ void invert_bytes(unsigned char *image, size_t npixels) {
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
  if ((uintptr_t)image % 16 == 0) {
    size_t nquads = npixels / 4;
    int ntail = (int)(npixels % 4);
    size_t threads = nquads > (size_t)ntail ? nquads : (size_t)ntail;
    unsigned int blocks = (unsigned int)((threads + BLOCK_THREADS - 1) / BLOCK_THREADS);
    invert_vec4<<<blocks, BLOCK_THREADS>>>((uint4 *)image, (unsigned int *)image + 4 * nquads, nquads, ntail);
    getLastCudaError("invert_vec4 execution failed");
  } else {
    unsigned int blocks = (unsigned int)((npixels + BLOCK_THREADS - 1) / BLOCK_THREADS);
    invert_bytes<<<blocks, BLOCK_THREADS>>>(image, npixels);
    getLastCudaError("invert_bytes execution failed");
  }
}
