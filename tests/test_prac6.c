/*
 * test_prac6.c -- CPU tests of practical 6: the gold routines (the _gold.c files of ../prac6/) and fastdiv.h.
 *
 * fastdiv is checked the strongest way there is: against the definition of division (q = n / d exactly when
 * q d <= n < q d + d, computed in 64 bits), for every 32-bit dividend n, for the divisors 1, 2, 3, 7, 641,
 * 2^31 - 1 and 2^32 - 1. Each of those sweeps is 2^32 steps, 1.5 to 3 s on CI's two cores with OpenMP, so the
 * other powers of two (2^0 .. 2^31: the shift-only case, m = 1) and 2000 random divisors are checked on a
 * sample instead: every n below
 * 2^20 and above 2^32 - 2^20, the three values around every multiple of d that a 2^22-step walk lands on
 * (where a quotient changes, and so where an off-by-one shows first), and 2^20 hashed n spread over the range.
 * The magic numbers themselves are checked against the bound the correctness argument needs, for every
 * d <= 2^20 and for d near every power of two.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "../prac6/fastdiv.h"
#include "../prac6/prac6_gold.h"

/* 1 when q is the quotient of n / d: q d <= n < q d + d, in 64 bits so that nothing wraps */
static int is_quotient(uint32_t n, uint32_t d, uint32_t q) {
  uint64_t qd = (uint64_t)q * d;
  return qd <= n && (uint64_t)n < qd + d;
}

/* every 32-bit n; returns the number of wrong quotients or remainders */
static uint64_t wrong_exhaustive(uint32_t d) {
  fastdiv_t f = fastdiv_make(d);
  uint64_t bad = 0;
#pragma omp parallel for reduction(+ : bad) schedule(static)
  for (int64_t i = 0; i < ((int64_t)1 << 32); i++) {
    uint32_t n = (uint32_t)i;
    bad += !is_quotient(n, d, fastdiv_div(n, f)); /* the remainder is n - q d: right when q is */
  }
  return bad;
}

static uint64_t wrong_sampled(uint32_t d) {
  fastdiv_t f = fastdiv_make(d);
  uint64_t bad = 0;
  const uint32_t edge = 1u << 20;
  for (uint32_t k = 0; k < edge; k++) {
    uint32_t lo = k, hi = 0xffffffffu - k, h = k * 2654435761u;
    bad += !is_quotient(lo, d, fastdiv_div(lo, f)) || fastdiv_mod(lo, f) != lo % d;
    bad += !is_quotient(hi, d, fastdiv_div(hi, f)) || fastdiv_mod(hi, f) != hi % d;
    bad += !is_quotient(h, d, fastdiv_div(h, f)) || fastdiv_mod(h, f) != h % d;
  }
  /* around multiples of d: 2^22 quotients spread evenly over 0 .. 2^32 / d */
  uint64_t qmax = 0xffffffffull / d, step = qmax / (1u << 22) + 1;
  for (uint64_t q = 1; q <= qmax; q += step)
    for (int64_t off = -1; off <= 1; off++) {
      int64_t n = (int64_t)(q * d) + off;
      if (n < 0 || n > 0xffffffffll) continue;
      bad += !is_quotient((uint32_t)n, d, fastdiv_div((uint32_t)n, f));
    }
  return bad;
}

/* the bound behind the proof (docs/prac6.md, step 6): with M = 2^32 + m, M d = 2^(32+s) + e, 0 < e <= d,
 * and 2^(s-1) < d <= 2^s. Checked in 128-bit arithmetic. */
static int magic_ok(uint32_t d) {
  fastdiv_t f = fastdiv_make(d);
  if (f.d != d || f.s > 32) return 0;
  if (!((uint64_t)d <= ((uint64_t)1 << f.s) && (f.s == 0 || (uint64_t)d > ((uint64_t)1 << (f.s - 1))))) return 0;
  unsigned __int128 M = ((unsigned __int128)1 << 32) + f.m, two = (unsigned __int128)1 << (32 + f.s);
  unsigned __int128 Md = M * d;
  return Md > two && Md - two <= d;
}

TEST(fastdiv_magic_numbers_known) {
  fastdiv_t f = fastdiv_make(1);
  CHECK(f.s == 0 && f.m == 1);
  f = fastdiv_make(3); /* 2^32 / 3 = 1431655765.33: m = 1431655766 = 0x55555556, s = 2 */
  CHECK(f.s == 2 && f.m == 0x55555556u);
  f = fastdiv_make(7);
  CHECK(f.s == 3 && f.m == 613566757u);
  f = fastdiv_make(1u << 20); /* a power of two: m = 1, and the multiply adds less than one ulp of the shift */
  CHECK(f.s == 20 && f.m == 1);
  f = fastdiv_make(0xffffffffu);
  CHECK(f.s == 32 && f.m == 2);
  f = fastdiv_make(0);
  CHECK(f.m == 0 && f.s == 0);
}

TEST(fastdiv_magic_bound_holds) {
  int bad = 0;
  for (uint32_t d = 1; d <= (1u << 20); d++) bad += !magic_ok(d);
  for (int k = 1; k < 32; k++)
    for (int64_t off = -3; off <= 3; off++) {
      int64_t d = ((int64_t)1 << k) + off;
      if (d >= 1 && d <= 0xffffffffll) bad += !magic_ok((uint32_t)d);
    }
  bad += !magic_ok(0xffffffffu) + !magic_ok(0xfffffffeu) + !magic_ok(0x80000001u);
  CHECK(bad == 0);
}

TEST(fastdiv_exhaustive_small_divisors) {
  CHECK(wrong_exhaustive(1) == 0);
  CHECK(wrong_exhaustive(2) == 0);
  CHECK(wrong_exhaustive(3) == 0);
  CHECK(wrong_exhaustive(7) == 0);
  CHECK(wrong_exhaustive(641) == 0);
}

TEST(fastdiv_exhaustive_large_divisors) {
  CHECK(wrong_exhaustive(0x7fffffffu) == 0);
  CHECK(wrong_exhaustive(0xffffffffu) == 0);
}

TEST(fastdiv_sampled_powers_of_two) {
  uint64_t bad = 0;
  for (int k = 0; k < 32; k++) bad += wrong_sampled(1u << k);
  CHECK(bad == 0);
}

TEST(fastdiv_sampled_random_divisors) {
  uint64_t bad = 0;
  uint32_t state = 2024;
  for (int k = 0; k < 2000; k++) {
    state = state * 1664525u + 1013904223u;
    uint32_t d = state >> (state & 31);
    if (d == 0) d = 1;
    /* a smaller sample each: the edges and the multiples, every 64th hashed value */
    fastdiv_t f = fastdiv_make(d);
    for (uint32_t j = 0; j < 4096; j++) {
      uint32_t n = j * 2654435761u, lo = j, hi = 0xffffffffu - j;
      bad += !is_quotient(n, d, fastdiv_div(n, f)) + !is_quotient(lo, d, fastdiv_div(lo, f)) +
             !is_quotient(hi, d, fastdiv_div(hi, f));
      uint64_t q = (uint64_t)j * (0xffffffffull / d / 4096 + 1);
      if (q * d <= 0xffffffffull) {
        uint32_t m0 = (uint32_t)(q * d);
        bad += !is_quotient(m0, d, fastdiv_div(m0, f));
        if (m0) bad += !is_quotient(m0 - 1, d, fastdiv_div(m0 - 1, f));
      }
    }
  }
  CHECK(bad == 0);
}

/* a tiny tensor by hand: N = 1, C = 2, H = 1, W = 3, in = 0..5 (NCHW) -> NHWC = 0 3 1 4 2 5 */
TEST(nchw_to_nhwc_by_hand) {
  float in[6] = {0, 1, 2, 3, 4, 5}, out[6], want[6] = {0, 3, 1, 4, 2, 5};
  Gold_nchw_to_nhwc(in, out, 1, 2, 1, 3);
  CHECK(memcmp(out, want, sizeof(out)) == 0);
}

/* every element lands somewhere different: a permutation, and it agrees with index arithmetic by fastdiv */
TEST(nchw_to_nhwc_is_the_fastdiv_permutation) {
  int N = 3, C = 5, H = 7, W = 11, total = N * C * H * W;
  float *in = malloc(sizeof(float) * total), *out = malloc(sizeof(float) * total);
  for (int i = 0; i < total; i++) in[i] = (float)i;
  Gold_nchw_to_nhwc(in, out, N, C, H, W);
  fastdiv_t fc = fastdiv_make(C), fh = fastdiv_make(H), fw = fastdiv_make(W);
  int bad = 0;
  for (uint32_t i = 0; i < (uint32_t)total; i++) {
    uint32_t t = fastdiv_div(i, fw), w = fastdiv_mod(i, fw), u = fastdiv_div(t, fh), h = fastdiv_mod(t, fh);
    uint32_t n = fastdiv_div(u, fc), c = fastdiv_mod(u, fc);
    uint32_t pos = ((n * H + h) * W + w) * C + c;
    bad += out[pos] != (float)i;
  }
  CHECK(bad == 0);
  free(in);
  free(out);
}

TEST(prac6_gold_values) {
  float x[16];
  Gold_prac6(x, 2, 8);
  CHECK(x[0] == 0.0f && x[7] == 7.0f && x[8] == 0.0f && x[15] == 7.0f);
  float xf[6];
  int xi[6];
  double xd[6];
  Gold_prac6b_float(xf, 2, 3);
  Gold_prac6b_int(xi, 2, 3);
  Gold_prac6b_double(xd, 2, 3);
  CHECK(xf[1] == 0.5f && xf[2] == 1.0f && xf[5] == 1.0f);
  CHECK(xi[1] == 0 && xi[2] == 1 && xi[4] == 0);
  CHECK(xd[1] == 0.5 && xd[5] == 1.0);
}

TEST(prac6c_gold_size_squared_at_thread_0) {
  double x[40];
  for (int m = 2; m <= 256; m *= 2) {
    Gold_prac6c(x, 40, m);
    CHECK(x[0] == (double)m * m);
    for (int t = 1; t < 40; t++) CHECK(x[t] >= 1.0 && x[t] < x[t - 1]);
  }
  Gold_prac6c(x, 2, 3); /* thread 1: (1 + e^-1/8 + e^-2/8)^2 */
  double s = 1.0 + exp(-0.125) + exp(-0.25);
  CHECK_NEAR(x[1], s * s, 1e-14);
}

/* the sign-aware trick of atomics.cu, on the CPU: "int max for x >= 0, unsigned min for x < 0" must give the
 * float max of any sequence of non-NaN floats, starting from -inf */
static float ordered_max(float target, float val) {
  int32_t ti;
  uint32_t tu, vu;
  memcpy(&ti, &target, 4);
  memcpy(&tu, &target, 4);
  memcpy(&vu, &val, 4);
  if (!signbit(val)) {
    int32_t vi = (int32_t)vu;
    if (vi > ti) return val;
  } else if (vu < tu) {
    return val;
  }
  return target;
}

TEST(atomics_sign_aware_max_matches_float_max) {
  float f[4096];
  int v[4096];
  unsigned char b[4096];
  atomics_inputs(f, v, b, 4096, 7);
  float m1 = -INFINITY, m2 = -INFINITY, m3 = -INFINITY;
  int bad = 0;
  for (int i = 0; i < 4096; i++) {
    bad += f[i] == 0.0f || !isfinite(f[i]);
    m1 = ordered_max(m1, f[i]);
    m2 = f[i] > m2 ? f[i] : m2;
    if (f[i] < 0) m3 = ordered_max(m3, f[i]); /* among negatives only */
  }
  CHECK(bad == 0);
  CHECK(m1 == m2);
  float negmax = -INFINITY;
  for (int i = 0; i < 4096; i++)
    if (f[i] < 0 && f[i] > negmax) negmax = f[i];
  CHECK(m3 == negmax);
  CHECK(ordered_max(-1.0f, -2.0f) == -1.0f && ordered_max(-2.0f, -1.0f) == -1.0f);
  CHECK(ordered_max(3.0f, -1.0f) == 3.0f && ordered_max(-3.0f, 1.0f) == 1.0f);
}

TEST(atomics_gold_small_example) {
  float f[5] = {-1.5f, 2.0f, -0.25f, -8.0f, 1.0f};
  int v[5] = {5, -7, 1000, -1000, 3};
  unsigned char b[5] = {200, 100, 100, 1, 255};
  float fmax[2];
  int isum[2], imax[2];
  unsigned char bsum[2], bmax[2];
  Gold_atomics(f, v, b, 5, 2, fmax, isum, imax, bsum, bmax); /* targets: items 0,2,4 and 1,3 */
  CHECK(fmax[0] == 1.0f && fmax[1] == 2.0f);
  CHECK(isum[0] == 1008 && isum[1] == -1007);
  CHECK(imax[0] == 1000 && imax[1] == -7);
  CHECK(bsum[0] == (unsigned char)(200 + 100 + 255) && bsum[1] == 101);
  CHECK(bmax[0] == 255 && bmax[1] == 100);
}

TEST(atomics_locked_record_splits_64_bits) {
  int v[4] = {-1, -1, 7, 2147483647};
  lock_record r[1];
  Gold_locked(v, 4, 1, r);
  int64_t sum = (int64_t)((uint64_t)r[0].sum_hi << 32 | r[0].sum_lo);
  CHECK(sum == -2 + 7 + 2147483647LL);
  CHECK(r[0].count == 4);
  CHECK(r[0].check == (0xffffffffu ^ 0xffffffffu ^ 7u ^ 0x7fffffffu));
  int w[2] = {-5, -6};
  Gold_locked(w, 2, 1, r);
  CHECK(r[0].sum_hi == 0xffffffffu && r[0].sum_lo == (uint32_t)-11);
}

int main(void) {
  RUN(fastdiv_magic_numbers_known);
  RUN(fastdiv_magic_bound_holds);
  RUN(fastdiv_exhaustive_small_divisors);
  RUN(fastdiv_exhaustive_large_divisors);
  RUN(fastdiv_sampled_powers_of_two);
  RUN(fastdiv_sampled_random_divisors);
  RUN(nchw_to_nhwc_by_hand);
  RUN(nchw_to_nhwc_is_the_fastdiv_permutation);
  RUN(prac6_gold_values);
  RUN(prac6c_gold_size_squared_at_thread_0);
  RUN(atomics_sign_aware_max_matches_float_max);
  RUN(atomics_gold_small_example);
  RUN(atomics_locked_record_splits_64_bits);
  return test_summary();
}
