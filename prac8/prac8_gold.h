/*
 * prac8_gold.h -- the CPU gold routines of practical 8 (scan, recurrences, radix sort) and the inputs they
 * are checked on. Declared once here, included by the programs (.cu, compiled as C++), by prac8_gold.c,
 * which defines them (so that a changed signature fails to compile), and by tests/test_prac8.c.
 */
#ifndef PRAC8_GOLD_H
#define PRAC8_GOLD_H

#include <stddef.h>

#include "gold_check.h"

#ifdef __cplusplus
extern "C" {
#endif

/* a well-mixed 32-bit hash of (i, seed): inputs made element by element, the same on any thread */
static inline unsigned prac8_hash(unsigned long long i, unsigned seed) {
  unsigned long long z = i * 0x9E3779B97F4A7C15ull + ((unsigned long long)seed << 32 | seed) + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (unsigned)((z ^ (z >> 31)) >> 32);
}

/* ---- scan ---------------------------------------------------------------------------------------- */

/* exclusive scan: out[i] = in[0] + ... + in[i-1], out[0] = 0; summed in double */
void scan_gold(double *out, const float *in, size_t n);
/* the same for ints, summed in 64 bits (the caller keeps the total below 2^31) */
void scan_gold_int(int *out, const int *in, size_t n);

/* ---- recurrence v[n] = s[n] v[n-1] + u[n], v[-1] = 0 ---------------------------------------------- */

/* v in double; mag[n] = |s[n]| mag[n-1] + |u[n]|, the size of the terms v[n] is made of (its error bound
 * is a few float roundings times mag[n]) */
void recurrence_gold(double *v, double *mag, const float *s, const float *u, size_t n);
/* v (the GPU's) element by element against the gold within K u mag[i], u = 2^-24, into *st; returns the worst
 * error in units of u mag[i] */
double recurrence_judge(const float *v, const double *gold, const double *mag, size_t n, double K, gold_stats *st);

/* ---- radix sort ----------------------------------------------------------------------------------- */

/* floats to unsigned keys whose unsigned order is the floats' order (-0 just before +0), and back:
 * flip every bit of a negative number, only the sign bit of a positive one */
static inline unsigned float_bits_to_key(unsigned b) { return b ^ ((b >> 31) ? 0xFFFFFFFFu : 0x80000000u); }
static inline unsigned key_to_float_bits(unsigned k) { return k ^ ((k >> 31) ? 0x80000000u : 0xFFFFFFFFu); }

/* stable LSD radix sort of keys (8 bits per pass, 4 passes), carrying vals along when vals is not NULL;
 * tmp_keys (and tmp_vals) hold n elements each; the result ends in keys (and vals) */
void radix_sort_gold(unsigned *keys, unsigned *vals, size_t n, unsigned *tmp_keys, unsigned *tmp_vals);

/* the adversarial inputs of the sort checks */
enum {
  SORT_RANDOM = 0,   /* uniform 32-bit keys */
  SORT_SORTED = 1,   /* already in order (with repeats) */
  SORT_REVERSED = 2, /* in reverse order */
  SORT_EQUAL = 3,    /* every key the same */
  SORT_TWO = 4,      /* two distinct values */
  SORT_TOPBYTE = 5,  /* only the top byte varies: three passes see one digit */
  SORT_FLOATS = 6,   /* bit patterns of floats of both signs and many magnitudes, zeros of both signs */
  SORT_NDISTS = 7
};
extern const char *const sort_dist_names[SORT_NDISTS];
void sort_input(unsigned *keys, size_t n, int dist, unsigned seed);

#ifdef __cplusplus
}
#endif

#endif /* PRAC8_GOLD_H */
