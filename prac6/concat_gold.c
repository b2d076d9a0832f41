/*
 * concat_gold.c -- practical 6, step 7: the CPU gold of concat.cu. A row-major tensor concatenated along an
 * axis is, row by row, the inputs' runs side by side: with outer = the product of the extents before the axis
 * and inner = the product of those after it, row o of the output is input 0's row o (split[0] * inner
 * elements), then input 1's, and so on; input k's rows are packed one after another. One memcpy per run.
 * (tests/test_prac6.c checks it against the definition, element by element through coordinates.)
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "prac6_gold.h"

void Gold_concat(const void *const *in, int K, const size_t *split, const size_t *dims, int rank, int axis, size_t elem,
                 void *out) {
  size_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++) outer *= dims[d];
  for (int d = axis + 1; d < rank; d++) inner *= dims[d];
  size_t row = dims[axis] * inner * elem; /* bytes in a row of the output */
  unsigned char *o = (unsigned char *)out;
  for (size_t r = 0; r < outer; r++) {
    size_t at = 0; /* where input k's run starts in the row, in bytes */
    for (int k = 0; k < K; k++) {
      size_t run = split[k] * inner * elem;
      memcpy(o + r * row + at, (const unsigned char *)in[k] + r * run, run);
      at += run;
    }
  }
}

/* n elements of elem bytes, hashed from their index and the seed: every bit pattern (both signs, subnormals,
 * infinities, NaNs) but the poison's, so that a poisoned output element left unwritten never matches */
void concat_inputs(unsigned char *x, size_t n, size_t elem, unsigned int seed) {
  for (size_t i = 0; i < n * elem; i += 4) {
    uint32_t h = (uint32_t)(i / 4) * 0x9e3779b9u ^ (uint32_t)(i >> 34) ^ seed * 0x85ebca6bu;
    h = (h ^ (h >> 16)) * 0x7feb352du;
    h = (h ^ (h >> 15)) * 0x846ca68bu;
    h ^= h >> 16;
    memcpy(x + i, &h, n * elem - i < 4 ? n * elem - i : 4);
  }
  for (size_t i = 0; i < n; i++) {
    int poisoned = 1;
    for (size_t b = 0; b < elem; b++) poisoned &= x[i * elem + b] == (elem == 1 ? CONCAT_POISON_INT8 : CONCAT_POISON);
    if (poisoned) x[i * elem] ^= 1;
  }
}
