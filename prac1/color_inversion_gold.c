/*
 * color_inversion_gold.c -- CPU gold for LeetGPU's "Color Inversion".
 * Compiled by gcc as C.
 */
#include <stddef.h>

#include "prac1_gold.h"

/* RGBA pixels, 4 bytes each: R, G and B become 255 - value, A is kept. */
void Gold_color_inversion(unsigned char *image, int width, int height) {
  size_t npixels = (size_t)width * (size_t)height;
  for (size_t p = 0; p < npixels; p++)
    for (int c = 0; c < 3; c++) image[4 * p + c] = (unsigned char)(255 - image[4 * p + c]);
}
