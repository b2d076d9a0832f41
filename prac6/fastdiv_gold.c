/*
 * fastdiv_gold.c -- practical 6, step 6: the magic numbers of fastdiv.h, and the CPU gold of fastdiv.cu.
 */
#include <stddef.h>
#include <stdint.h>

#include "prac6_gold.h"

/* s = ceil(log2 d), m = floor(2^32 (2^s - d) / d) + 1. For s = 32 (d > 2^31) the product 2^32 (2^32 - d) is
 * below 2^63, so the 64-bit arithmetic is exact. d = 0 has no quotient: it gives {0, 0, 0}. */
fastdiv_t fastdiv_make(uint32_t d) {
  fastdiv_t f = {d, 0, 0};
  if (d == 0) return f;
  while (((uint64_t)1 << f.s) < d) f.s++;
  f.m = (uint32_t)((((uint64_t)1 << 32) * (((uint64_t)1 << f.s) - d)) / d + 1);
  return f;
}

/* out[n][h][w][c] = in[n][c][h][w], with plain / and % nowhere: four nested loops */
void Gold_nchw_to_nhwc(const float *in, float *out, int N, int C, int H, int W) {
  for (int n = 0; n < N; n++)
    for (int c = 0; c < C; c++)
      for (int h = 0; h < H; h++)
        for (int w = 0; w < W; w++)
          out[(((size_t)n * H + h) * W + w) * C + c] = in[(((size_t)n * C + c) * H + h) * W + w];
}
