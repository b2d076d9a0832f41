/*
 * vector_add_gold.c -- CPU gold for prac1d and the LeetGPU vector addition: z = x + y.
 * Compiled by gcc as C.
 */
#include <stddef.h>

#include "prac1_gold.h"

/* One IEEE single-precision addition per element, exactly what each GPU thread does, so the GPU
 * result must match bit for bit. */
void Gold_vector_add(const float *x, const float *y, float *z, size_t n) {
  for (size_t i = 0; i < n; i++) z[i] = x[i] + y[i];
}
