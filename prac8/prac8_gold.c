/*
 * prac8_gold.c -- the CPU gold routines of practical 8: exclusive scans, the linear recurrence in double,
 * a stable LSD radix sort, and the adversarial sort inputs. Checked by tests/test_prac8.c.
 */
#include <math.h>
#include <string.h>

#include "prac8_gold.h"

void scan_gold(double *out, const float *in, size_t n) {
  double sum = 0.0;
  for (size_t i = 0; i < n; i++) {
    out[i] = sum;
    sum += (double)in[i];
  }
}

void scan_gold_int(int *out, const int *in, size_t n) {
  long long sum = 0;
  for (size_t i = 0; i < n; i++) {
    out[i] = (int)sum;
    sum += in[i];
  }
}

void recurrence_gold(double *v, double *mag, const float *s, const float *u, size_t n) {
  double vp = 0.0, mp = 0.0;
  for (size_t i = 0; i < n; i++) {
    vp = (double)s[i] * vp + (double)u[i];
    mp = fabs((double)s[i]) * mp + fabs((double)u[i]);
    v[i] = vp;
    mag[i] = mp;
  }
}

double recurrence_judge(const float *v, const double *gold, const double *mag, size_t n, double K, gold_stats *st) {
  const double unit = 1.0 / 16777216.0;
  double sumsq = 0.0, worst = 0.0;
  gold_begin(st, n, 0.0, 0.0);
  for (size_t i = 0; i < n; i++) {
    st->atol = K * unit * mag[i];
    gold_accumulate(st, i, (double)v[i], gold[i], &sumsq);
    double ratio = fabs((double)v[i] - gold[i]) / (unit * mag[i]);
    if (ratio > worst) worst = ratio;
  }
  gold_end(st, sumsq);
  return worst;
}

/* one counting-sort pass on the byte at `shift`: stable, because keys are placed in input order */
static void radix_pass(const unsigned *kin, const unsigned *vin, unsigned *kout, unsigned *vout, size_t n, int shift) {
  size_t count[256] = {0}, offset[256];
  for (size_t i = 0; i < n; i++) count[(kin[i] >> shift) & 255]++;
  size_t sum = 0;
  for (int d = 0; d < 256; d++) {
    offset[d] = sum;
    sum += count[d];
  }
  for (size_t i = 0; i < n; i++) {
    size_t p = offset[(kin[i] >> shift) & 255]++;
    kout[p] = kin[i];
    if (vin) vout[p] = vin[i];
  }
}

void radix_sort_gold(unsigned *keys, unsigned *vals, size_t n, unsigned *tmp_keys, unsigned *tmp_vals) {
  /* four passes: keys -> tmp -> keys -> tmp -> keys */
  for (int shift = 0; shift < 32; shift += 16) {
    radix_pass(keys, vals, tmp_keys, tmp_vals, n, shift);
    radix_pass(tmp_keys, vals ? tmp_vals : NULL, keys, vals, n, shift + 8);
  }
}

const char *const sort_dist_names[SORT_NDISTS] = {"random", "sorted", "reversed", "all-equal",
                                                  "two-values", "top-byte", "floats"};

void sort_input(unsigned *keys, size_t n, int dist, unsigned seed) {
  for (size_t i = 0; i < n; i++) {
    unsigned h = prac8_hash(i, seed);
    unsigned k;
    switch (dist) {
    case SORT_SORTED: k = (unsigned)(((unsigned long long)(i / 2) << 32) / n); break; /* pairs of repeats */
    case SORT_REVERSED: k = 0xFFFFFFFFu - (unsigned)(((unsigned long long)i << 32) / n); break;
    case SORT_EQUAL: k = 0x5A5A5A5Au; break;
    case SORT_TWO: k = (h & 1) ? 0x80000001u : 0x7FFFFFFEu; break;
    case SORT_TOPBYTE: k = (h & 0xFF000000u) | 0x00ABCDEFu; break;
    case SORT_FLOATS: {
      /* sign, exponent 100..155 (about 1e-8 to 1e8), mantissa: all random; some exact zeros of both signs */
      unsigned e = 100 + (h >> 8) % 56;
      k = (h & 0x80000000u) | (e << 23) | (prac8_hash(i, seed + 1) & 0x7FFFFFu);
      if ((h & 0xFF) == 7) k = h & 0x80000000u;
      break;
    }
    default: k = h; break;
    }
    keys[i] = k;
  }
}
