/*
 * atomics_gold.c -- the CPU gold of practical 6, step 5 (atomics.cu): what every target must hold once all
 * items have been thrown at it, whatever order the GPU's threads took. Max, integer sums (mod 2^32 or 2^64),
 * byte sums (mod 256), counts and xors do not depend on the order, so the comparison is exact.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "prac6_gold.h"
#include "rng.h"

void atomics_inputs(float *f, int *v, unsigned char *b, int n, unsigned int seed) {
  unsigned int state = lcg_seed(seed); /* the same items for the same seed (rng.h) */
  for (int i = 0; i < n; i++) {
    /* a float with a random sign, a mantissa in [1, 2) and an exponent from -20 to 20: never 0, NaN or Inf,
     * and negative values of every size, which is where the sign-aware trick must get the order right */
    uint32_t r = lcg_next(&state);
    float mant = 1.0f + (float)(r >> 9) * (1.0f / 8388608.0f);
    int expo = (int)(lcg_next(&state) % 41u) - 20;
    f[i] = ((r & 1u) ? -1.0f : 1.0f) * ldexpf(mant, expo);
    v[i] = (int)(lcg_next(&state) % 2001u) - 1000;
    b[i] = (unsigned char)(lcg_next(&state) >> 24);
  }
}

void Gold_atomics(const float *f, const int *v, const unsigned char *b, int n, int ntargets, float *fmax,
                  int *isum, int *imax, unsigned char *bsum, unsigned char *bmax) {
  /* sums in unsigned arithmetic: they wrap mod 2^32 exactly as the GPU's int atomicAdd does */
  uint32_t *usum = (uint32_t *)isum;
  for (int t = 0; t < ntargets; t++) {
    fmax[t] = -INFINITY;
    usum[t] = 0;
    imax[t] = INT32_MIN;
    bsum[t] = 0;
    bmax[t] = 0;
  }
  for (int i = 0; i < n; i++) {
    int t = i % ntargets;
    if (f[i] > fmax[t]) fmax[t] = f[i];
    usum[t] += (uint32_t)v[i];
    if (v[i] > imax[t]) imax[t] = v[i];
    bsum[t] = (unsigned char)(bsum[t] + b[i]);
    if (b[i] > bmax[t]) bmax[t] = b[i];
  }
}

/* the locked record: a 64-bit signed sum split into two words, a count and an xor */
void Gold_locked(const int *v, int n, int ntargets, lock_record *rec) {
  for (int t = 0; t < ntargets; t++) {
    int64_t sum64 = 0;
    uint32_t count = 0, check = 0;
    for (int i = t; i < n; i += ntargets) {
      sum64 += v[i];
      count++;
      check ^= (uint32_t)v[i];
    }
    rec[t].sum_lo = (uint32_t)((uint64_t)sum64 & 0xffffffffu);
    rec[t].sum_hi = (uint32_t)((uint64_t)sum64 >> 32);
    rec[t].count = count;
    rec[t].check = check;
  }
}
