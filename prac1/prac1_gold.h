/*
 * prac1_gold.h -- the CPU gold routines of practical 1.
 * Declared once here, included by the programs (.cu, compiled as C++), by the _gold.c files that define
 * them (so that a changed signature fails to compile) and by the tests.
 */
#ifndef PRAC1_GOLD_H
#define PRAC1_GOLD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* prac1_gold.c: what the kernel of prac1a, prac1b and prac1c writes for nblocks * nthreads values: element
 * tid = threadIdx.x + blockDim.x * blockIdx.x holds threadIdx.x, the index within the block, not tid */
void Gold_prac1(float *x, int nblocks, int nthreads);

/* vector_add_gold.c: z = x + y (prac1d, vector_add) */
void Gold_vector_add(const float *x, const float *y, float *z, size_t n);

/* color_inversion_gold.c: 255 - R, G, B of every RGBA pixel, alpha kept */
void Gold_color_inversion(unsigned char *image, int width, int height);

#ifdef __cplusplus
}
#endif

#endif /* PRAC1_GOLD_H */
