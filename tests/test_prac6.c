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
#include "../prac6/elementwise/plan.h"
#include "../prac6/elementwise/table.h"
#include "rng.h"

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

/* ---- step 7: concat (concat_gold.c) ---------------------------------------------------------------------- */

/* by hand: [[0 1 2] [3 4 5]] and [[6] [7]] along axis 1 -> [[0 1 2 6] [3 4 5 7]]; along axis 0, [[0 1] [2 3]]
 * and [[4 5]] -> rows 0 1, 2 3, 4 5 */
TEST(concat_gold_by_hand) {
  unsigned char a[6] = {0, 1, 2, 3, 4, 5}, b[2] = {6, 7}, out[8], want[8] = {0, 1, 2, 6, 3, 4, 5, 7};
  const void *in[2] = {a, b};
  size_t dims[2] = {2, 4}, split[2] = {3, 1};
  Gold_concat(in, 2, split, dims, 2, 1, 1, out);
  CHECK(memcmp(out, want, 8) == 0);
  uint16_t c[4] = {0, 1, 2, 3}, d[2] = {4, 5}, o[6], w[6] = {0, 1, 2, 3, 4, 5};
  const void *in2[2] = {c, d};
  size_t dims2[2] = {3, 2}, split2[2] = {2, 1};
  Gold_concat(in2, 2, split2, dims2, 2, 0, 2, o);
  CHECK(memcmp(o, w, sizeof(o)) == 0);
}

/* the definition, element by element: output element i has coordinates x (row-major over dims); along the axis
 * they fall in input k, where offset[k] <= x[axis] < offset[k + 1], at coordinate x[axis] - offset[k]. Random
 * shapes of rank 1 to 4, every axis, 2 to 9 inputs whose extents on the axis may be 1, elements of 1, 2, 4 bytes */
TEST(concat_gold_is_the_definition) {
  uint32_t state = 12345;
  int bad = 0;
  for (int t = 0; t < 300; t++) {
    state = state * 1664525u + 1013904223u;
    int rank = 1 + (int)(state >> 8) % 4, axis = (int)(state >> 12) % rank, K = 2 + (int)(state >> 16) % 8;
    size_t elem = (size_t)1 << ((state >> 20) % 3), dims[4], split[9], offset[10] = {0}, total = 1;
    for (int d = 0; d < rank; d++) dims[d] = 1 + (size_t)((state >> (4 * d + 3)) % 5);
    for (int k = 0; k < K; k++) {
      state = state * 1664525u + 1013904223u;
      split[k] = 1 + (state >> 24) % 4;
      offset[k + 1] = offset[k] + split[k];
    }
    dims[axis] = offset[K];
    for (int d = 0; d < rank; d++) total *= dims[d];
    unsigned char *x = malloc(total * elem), *out = malloc(total * elem);
    const void *in[9];
    concat_inputs(x, total, elem, (unsigned)t);
    for (int k = 0, at = 0; k < K; k++) {
      in[k] = x + at;
      at += (int)(total / dims[axis] * split[k] * elem);
    }
    Gold_concat(in, K, split, dims, rank, axis, elem, out);
    for (size_t i = 0; i < total; i++) {
      size_t c[4], r = i, j = 0;
      for (int d = rank - 1; d >= 0; d--) c[d] = r % dims[d], r /= dims[d];
      int k = 0;
      while (c[axis] >= offset[k + 1]) k++;
      c[axis] -= offset[k];
      for (int d = 0; d < rank; d++) j = j * (d == axis ? split[k] : dims[d]) + c[d];
      bad += memcmp(out + i * elem, (const unsigned char *)in[k] + j * elem, elem) != 0;
    }
    free(x);
    free(out);
  }
  CHECK(bad == 0);
}

/* kernels 1 and 2's index arithmetic (concat_steps/k1_divmod.cuh, k2_fastdiv.cuh) on the CPU: element i of input
 * k, unravelled with fastdiv by its own extents and put back with the output's strides plus offset[k] times the
 * axis's stride, lands where the gold put it. NCHW along C and NHWC along C, uneven splits */
TEST(concat_index_arithmetic_matches_gold) {
  int bad = 0;
  for (int nhwc = 0; nhwc < 2; nhwc++) {
    size_t N = 3, C = 11, H = 5, W = 7, split[3] = {4, 1, 6}, off[3] = {0, 4, 5}, total = N * C * H * W;
    size_t dims[4] = {N, nhwc ? H : C, nhwc ? W : H, nhwc ? C : W}, axis = nhwc ? 3 : 1;
    size_t s[4] = {dims[1] * dims[2] * dims[3], dims[2] * dims[3], dims[3], 1};
    unsigned char x[3 * 11 * 5 * 7], out[3 * 11 * 5 * 7];
    const void *in[3] = {x, x + total / C * 4, x + total / C * 5};
    concat_inputs(x, total, 1, 7);
    Gold_concat(in, 3, split, dims, 4, (int)axis, 1, out);
    for (int k = 0; k < 3; k++) {
      size_t e[4] = {dims[0], dims[1], dims[2], dims[3]};
      e[axis] = split[k];
      fastdiv_t e1 = fastdiv_make((uint32_t)e[1]), e2 = fastdiv_make((uint32_t)e[2]), e3 = fastdiv_make((uint32_t)e[3]);
      for (uint32_t i = 0; i < e[0] * e[1] * e[2] * e[3]; i++) {
        uint32_t t = fastdiv_div(i, e3), c3 = i - t * e3.d, v = fastdiv_div(t, e2), c2 = t - v * e2.d;
        uint32_t c0 = fastdiv_div(v, e1), c1 = v - c0 * e1.d;
        size_t o = off[k] * s[axis] + c0 * s[0] + c1 * s[1] + c2 * s[2] + c3;
        bad += o >= total || out[o] != ((const unsigned char *)in[k])[i];
      }
    }
  }
  CHECK(bad == 0);
}

/* concat's inputs never hold the poison its output starts as, so an element left unwritten cannot pass; and they
 * are not all alike (every byte value turns up) */
TEST(concat_inputs_never_poison) {
  static unsigned char x[1 << 20];
  for (size_t elem = 1; elem <= 4; elem *= 2) {
    size_t n = sizeof(x) / elem, poisoned = 0, seen[256] = {0}, distinct = 0;
    concat_inputs(x, n, elem, 3);
    for (size_t i = 0; i < n; i++) {
      int all = 1;
      for (size_t b = 0; b < elem; b++) all &= x[i * elem + b] == (elem == 1 ? CONCAT_POISON_INT8 : CONCAT_POISON);
      poisoned += all;
    }
    for (size_t i = 0; i < sizeof(x); i++) distinct += seen[x[i]]++ == 0;
    CHECK(poisoned == 0);
    CHECK(distinct >= 255);
  }
}

/* ---- step 8: eltwise (eltwise_gold.c, elementwise/views.h, elementwise/plan.h) ----------------------------- */

static uint16_t f16_bits(float f) { return half_from_float(f); }
static int half_is_nan(uint16_t h) { return (h & 0x7fffu) > 0x7c00u; }

/* the half nearest to x, ties to even, by arithmetic in double alone: halves are spaced 2^(e - 10) in
 * [2^e, 2^(e+1)) for e >= -14, and 2^-24 below 2^-14; x / spacing is exact (a power of two), nearbyint rounds it
 * to the nearest integer, ties to even (the default rounding mode). The result is a half exactly, so the final
 * conversion does no rounding of its own. */
static uint16_t ref_half(double x) {
  if (isnan(x)) return 0x7e00u;
  uint16_t sign = signbit(x) ? 0x8000u : 0;
  double ax = fabs(x);
  if (isinf(ax)) return (uint16_t)(sign | 0x7c00u);
  int e;
  frexp(ax, &e); /* 2^(e-1) <= ax < 2^e */
  int ex = e - 1 < -14 ? -14 : e - 1;
  double q = ldexp(nearbyint(ldexp(ax, 10 - ex)), ex - 10);
  if (q > 65504.0) return (uint16_t)(sign | 0x7c00u);
  return (uint16_t)(sign | half_from_float((float)q));
}

TEST(half_conversions_known_values) {
  CHECK(f16_bits(1.0f) == 0x3c00u && f16_bits(-2.0f) == 0xc000u && f16_bits(65504.0f) == 0x7bffu);
  CHECK(f16_bits(65519.99f) == 0x7bffu && f16_bits(65520.0f) == 0x7c00u && f16_bits(1e10f) == 0x7c00u);
  CHECK(f16_bits(-0.0f) == 0x8000u && f16_bits(INFINITY) == 0x7c00u && half_is_nan(f16_bits(NAN)));
  CHECK(f16_bits(5.9604644775390625e-8f) == 0x0001u);         /* 2^-24, the smallest subnormal */
  CHECK(f16_bits(2.98023223876953125e-8f) == 0x0000u);        /* 2^-25: a tie, to 0 (even) */
  CHECK(f16_bits(4.470348358154297e-8f) == 0x0001u);          /* 3 x 2^-26: 0.75 of the unit, up */
  CHECK(f16_bits(8.940696716308594e-8f) == 0x0002u);          /* 1.5 x 2^-24: a tie, to 2 (even) */
  CHECK(f16_bits(6.103e-5f) == 0x0400u);                      /* just below 2^-14: up to the smallest normal */
  CHECK(f16_bits(2049.0f) == 0x6800u && f16_bits(2051.0f) == 0x6802u && f16_bits(2050.0f) == 0x6801u);
  CHECK(half_to_float(0x7bffu) == 65504.0f && half_to_float(0x0001u) == 5.9604644775390625e-8f);
  CHECK(half_to_float(0x03ffu) == 6.097555160522461e-5f && isinf(half_to_float(0xfc00u)));
  CHECK(signbit(half_to_float(0x8000u)) && half_to_float(0x8000u) == 0.0f && isnan(half_to_float(0x7e01u)));
}

/* every half widens and narrows back to itself (NaN to a NaN); every tie between neighbours goes to the even
 * one, and a float ulp either side of it to the nearer */
TEST(half_conversions_round_trip_and_ties) {
  int bad = 0;
  for (uint32_t h = 0; h < 0x10000u; h++) {
    uint16_t back = f16_bits(half_to_float((uint16_t)h));
    bad += half_is_nan((uint16_t)h) ? !half_is_nan(back) : back != h;
  }
  for (uint32_t h = 0; h < 0x7bffu; h++) { /* finite positive h and h + 1; the negative side by symmetry below */
    float lo = half_to_float((uint16_t)h), hi = half_to_float((uint16_t)(h + 1)), mid = 0.5f * (lo + hi);
    uint16_t even = (h & 1u) ? (uint16_t)(h + 1) : (uint16_t)h;
    bad += f16_bits(mid) != even || f16_bits(-mid) != (uint16_t)(even | 0x8000u);
    bad += f16_bits(nextafterf(mid, 0.0f)) != h || f16_bits(nextafterf(mid, INFINITY)) != h + 1;
  }
  CHECK(bad == 0);
}

/* against the rounding in double (ref_half), and gcc's own _Float16 where this compiler has it */
TEST(half_from_float_matches_references) {
  int bad = 0;
  for (uint64_t k = 0; k < (1ull << 32); k += 65521) { /* about 65600 floats over every exponent */
    uint32_t x = (uint32_t)k;
    float f;
    memcpy(&f, &x, 4);
    uint16_t got = f16_bits(f), want = ref_half((double)f);
    bad += half_is_nan(want) ? !half_is_nan(got) : got != want;
#ifdef __FLT16_MAX__
    _Float16 g = (_Float16)f;
    uint16_t gb;
    memcpy(&gb, &g, 2);
    bad += half_is_nan(gb) ? !half_is_nan(got) : got != gb;
#endif
  }
  CHECK(bad == 0);
}

/* the gold's half + - * / (in float, rounded once more to half) is the correctly rounded result: the exact
 * result in double (exact for + - *: at most 40 bits; for / double's own rounding is harmless, 53 >= 2 x 11 + 2)
 * rounded by ref_half, for 2^20 random pairs and every special pair */
TEST(half_arithmetic_through_float_is_correctly_rounded) {
  int bad = 0;
  unsigned int s = 99;
  for (int t = 0; t < (1 << 20); t++) {
    uint16_t ha = (uint16_t)(lcg_next(&s) >> 16), hb = (uint16_t)(lcg_next(&s) >> 16);
    if (t < 64) ha = f16_bits(((float[]){0, 65504, 2048, 5.96e-8f})[t % 4]), hb = (uint16_t)(t * 1031u);
    double x = half_to_float(ha), y = half_to_float(hb);
    double want[4] = {x + y, x - y, x * y, x / y};
    for (int op = ELT_ADD; op <= ELT_DIV; op++) {
      uint16_t got, w = ref_half(want[op]);
      eltwise_gold_op(op, ELT_HALF, &ha, &hb, &got);
      bad += half_is_nan(w) ? !half_is_nan(got) : got != w;
    }
  }
  CHECK(bad == 0);
}

static int8_t i8_op(int op, int a, int b) {
  int8_t x = (int8_t)a, y = (int8_t)b, r;
  eltwise_gold_op(op, ELT_INT8, &x, &y, &r);
  return r;
}
static uint32_t f_op_bits(int op, float a, float b) {
  float r;
  uint32_t u;
  eltwise_gold_op(op, ELT_FLOAT, &a, &b, &r);
  memcpy(&u, &r, 4);
  return u;
}
static int rel_op(int op, int type, const void *a, const void *b) {
  uint8_t r = 7;
  eltwise_gold_op(op, type, a, b, &r);
  return r;
}

TEST(eltwise_gold_semantics) {
  CHECK(i8_op(ELT_ADD, 127, 1) == -128 && i8_op(ELT_SUB, -128, 1) == 127 && i8_op(ELT_MUL, 127, 127) == 1);
  CHECK(i8_op(ELT_ADD, 100, 100) == -56 && i8_op(ELT_MUL, 64, 2) == -128 && i8_op(ELT_MUL, -128, -1) == -128);
  CHECK(i8_op(ELT_DIV, -128, -1) == -128 && i8_op(ELT_DIV, 5, 0) == 0 && i8_op(ELT_DIV, -7, 2) == -3);
  CHECK(i8_op(ELT_DIV, 7, -2) == -3 && i8_op(ELT_MAX, -128, 127) == 127 && i8_op(ELT_MIN, -128, 127) == -128);
  int8_t z = 0, five = 5, m1 = -1, one = 1;
  CHECK(rel_op(ELT_AND, ELT_INT8, &z, &five) == 0 && rel_op(ELT_AND, ELT_INT8, &five, &m1) == 1);
  CHECK(rel_op(ELT_OR, ELT_INT8, &z, &z) == 0 && rel_op(ELT_XOR, ELT_INT8, &one, &one) == 0);
  CHECK(rel_op(ELT_XOR, ELT_INT8, &z, &five) == 1 && rel_op(ELT_LT, ELT_INT8, &m1, &z) == 1);
  CHECK(f_op_bits(ELT_MAX, -0.0f, 0.0f) == 0u && f_op_bits(ELT_MAX, 0.0f, -0.0f) == 0u);
  CHECK(f_op_bits(ELT_MIN, 0.0f, -0.0f) == 0x80000000u && f_op_bits(ELT_MIN, -0.0f, 0.0f) == 0x80000000u);
  float nan = NAN, fz = 0.0f, nz = -0.0f, fone = 1.0f;
  uint32_t u = f_op_bits(ELT_MAX, NAN, 1.0f), v = f_op_bits(ELT_MIN, 1.0f, NAN);
  CHECK((u & 0x7fffffffu) > 0x7f800000u && (v & 0x7fffffffu) > 0x7f800000u);
  CHECK(rel_op(ELT_NE, ELT_FLOAT, &nan, &nan) == 1 && rel_op(ELT_EQ, ELT_FLOAT, &nan, &nan) == 0);
  CHECK(rel_op(ELT_LT, ELT_FLOAT, &nz, &fz) == 0 && rel_op(ELT_EQ, ELT_FLOAT, &nz, &fz) == 1);
  CHECK(rel_op(ELT_GE, ELT_FLOAT, &nan, &fone) == 0 && rel_op(ELT_GT, ELT_FLOAT, &fone, &fz) == 1);
  uint16_t big = 0x7bffu, two = f16_bits(2048.0f), h1 = 0x3c00u, h3 = f16_bits(3.0f), tiny = 1, half_ = 0x3800u, r;
  eltwise_gold_op(ELT_ADD, ELT_HALF, &big, &big, &r);
  CHECK(r == 0x7c00u); /* 65504 + 65504 overflows half (not float) */
  eltwise_gold_op(ELT_ADD, ELT_HALF, &two, &h1, &r);
  CHECK(r == 0x6800u); /* 2049: a tie, to 2048 */
  eltwise_gold_op(ELT_ADD, ELT_HALF, &two, &h3, &r);
  CHECK(r == 0x6802u); /* 2051: a tie, to 2052 */
  eltwise_gold_op(ELT_MUL, ELT_HALF, &tiny, &half_, &r);
  CHECK(r == 0x0000u); /* 2^-25: a tie, to 0 */
  uint16_t hz = 0x8000u, hp = 0;
  eltwise_gold_op(ELT_MAX, ELT_HALF, &hz, &hp, &r);
  CHECK(r == 0);
  eltwise_gold_op(ELT_MIN, ELT_HALF, &hp, &hz, &r);
  CHECK(r == 0x8000u);
  /* the special pairs lead the inputs, so that contiguous views pair them */
  int8_t ia[16], ib[16];
  eltwise_inputs(ia, 16, ELT_INT8, 0, 0, 1);
  eltwise_inputs(ib, 16, ELT_INT8, 0, 1, 1);
  CHECK(ia[0] == 127 && ib[0] == 1 && ia[2] == -128 && ib[2] == -1);
  eltwise_inputs(ia, 16, ELT_INT8, 1, 0, 1);
  int mask_ok = 1;
  for (int i = 0; i < 16; i++) mask_ok &= ia[i] == 0 || ia[i] == 1;
  CHECK(mask_ok);
}

/* out (2 x 3) = a (2 x 3) + b of shape [3], broadcast over the rows */
TEST(eltwise_gold_broadcasts) {
  float a[6] = {1, 2, 3, 4, 5, 6}, b[3] = {10, 20, 30}, out[6], want[6] = {11, 22, 33, 14, 25, 36};
  long long ext[4] = {1, 1, 2, 3}, as[4] = {0, 0, 3, 1}, bs[4] = {0, 0, 0, 1};
  Gold_eltwise(ELT_ADD, ELT_FLOAT, ext, a, as, b, bs, out);
  CHECK(memcmp(out, want, sizeof(out)) == 0);
}

static int dims_of(const char *shape, const char *va, const char *vb, elt_dims *d) {
  char msg[256];
  return elt_parse_shape(shape, d, msg, sizeof(msg)) || elt_parse_view(va, 0, d, 1, msg, sizeof(msg)) ||
         elt_parse_view(vb, 0, d, 2, msg, sizeof(msg));
}

TEST(eltwise_merge_dimensions) {
  elt_dims d, m;
  CHECK(dims_of("2,3,4,5", "contig", "contig", &d) == 0);
  m = elt_merge(&d);
  CHECK(m.rank == 1 && m.extent[0] == 120 && m.stride[1][0] == 1 && m.stride[2][0] == 1);
  CHECK(dims_of("2,3,4,5", "contig", "shape:3,1,1", &d) == 0); /* [C,1,1] over NCHW: (N, C, HW) */
  m = elt_merge(&d);
  CHECK(m.rank == 3 && m.extent[0] == 2 && m.extent[1] == 3 && m.extent[2] == 20);
  CHECK(m.stride[2][0] == 0 && m.stride[2][1] == 1 && m.stride[2][2] == 0 && m.stride[1][1] == 20);
  CHECK(dims_of("2,3,4,5", "contig", "shape:5", &d) == 0); /* [1,1,1,C] over NHWC: (NHW, C) */
  m = elt_merge(&d);
  CHECK(m.rank == 2 && m.extent[0] == 24 && m.extent[1] == 5 && m.stride[2][0] == 0 && m.stride[2][1] == 1);
  CHECK(dims_of("2,3,4,5", "contig", "transposed", &d) == 0); /* NHWC read as NCHW: (N, C, HW) */
  m = elt_merge(&d);
  CHECK(m.rank == 3 && m.extent[2] == 20 && m.stride[2][0] == 60 && m.stride[2][1] == 1 && m.stride[2][2] == 3);
  CHECK(dims_of("2,3,4,5", "step:2", "scalar", &d) == 0); /* a slice with a step, a scalar: one dimension */
  m = elt_merge(&d);
  CHECK(m.rank == 1 && m.extent[0] == 120 && m.stride[1][0] == 2 && m.stride[2][0] == 0 && d.span[1] == 239);
  CHECK(dims_of("2,3,5,7", "shape:2,1,5,1", "shape:3,1,7", &d) == 0); /* both broadcast: nothing merges */
  m = elt_merge(&d);
  CHECK(m.rank == 4 && m.stride[1][1] == 0 && m.stride[1][2] == 1 && m.stride[2][0] == 0 && m.stride[2][1] == 7);
  CHECK(dims_of("1,1,1", "contig", "scalar", &d) == 0);
  m = elt_merge(&d);
  CHECK(m.rank == 1 && m.extent[0] == 1);
  CHECK(dims_of("1,3,1,5", "strides:9,5,9,1", "contig", &d) == 0); /* extents of 1: their strides do not matter */
  m = elt_merge(&d);
  CHECK(m.rank == 1 && m.extent[0] == 15);
  char msg[256];
  CHECK(dims_of("2,3", "shape:4,1", "contig", &d) != 0 && dims_of("2,3", "strides:1", "contig", &d) != 0);
  CHECK(dims_of("2,3,4", "transposed", "contig", &d) != 0 && dims_of("2,3", "bogus", "contig", &d) != 0);
  CHECK(elt_parse_shape("0,3", &d, msg, sizeof(msg)) != 0 && elt_parse_shape("65536,65536", &d, msg, sizeof(msg)) != 0);
  CHECK(elt_parse_shape("1,2,3,4,5", &d, msg, sizeof(msg)) != 0 && elt_parse_shape("3,", &d, msg, sizeof(msg)) != 0);
}

TEST(eltwise_half8_and_tiled_paths) {
  elt_dims d, m;
  unsigned long long at[3] = {256, 512, 1024};
  size_t half3[3] = {2, 2, 2}, lt3[3] = {1, 2, 2};
  dims_of("2,16,8,8", "contig", "contig", &d);
  m = elt_merge(&d);
  elt_half8_plan p = elt_plan_half8(&m, at, half3, 8);
  CHECK(p.vector && p.mode[1] == ELT_LOAD_VEC && p.mode[2] == ELT_LOAD_VEC);
  unsigned long long off[3] = {256, 512, 1026}; /* b 2 bytes into a 16-byte line: element loads for b alone */
  p = elt_plan_half8(&m, off, half3, 8);
  CHECK(p.vector && p.mode[1] == ELT_LOAD_VEC && p.mode[2] == ELT_LOAD_GATHER && strstr(p.why, "2 bytes"));
  unsigned long long oout[3] = {258, 512, 1024};
  CHECK(!elt_plan_half8(&m, oout, half3, 8).vector);
  unsigned long long o8[3] = {264, 512, 1024}; /* uint8 out of 8 halves: 8-byte stores, 8 bytes suffice */
  CHECK(elt_plan_half8(&m, o8, lt3, 8).vector);
  dims_of("2,16,8,8", "contig", "shape:16,1,1", &d);
  m = elt_merge(&d);
  p = elt_plan_half8(&m, at, half3, 8);
  CHECK(p.vector && p.mode[1] == ELT_LOAD_VEC && p.mode[2] == ELT_LOAD_BCAST);
  CHECK(!elt_plan_tiled(&m, 32).tiled);
  dims_of("2,3,4,7", "contig", "shape:3,1,1", &d); /* (2, 3, 28): 28 is no multiple of 8 */
  m = elt_merge(&d);
  CHECK(!elt_plan_half8(&m, at, half3, 8).vector);
  dims_of("2,24,4,4", "contig", "transposed", &d); /* b's inner stride 24 halves, 48 bytes: element by element */
  m = elt_merge(&d);
  p = elt_plan_half8(&m, at, half3, 8);
  CHECK(!p.vector && strstr(p.why, "inner stride 24") && !strcmp(elt_path_code(&p), "element"));
  dims_of("2,3,4,8", "contig", "transposed", &d); /* C = 3: 6-byte steps, a chunk in two sectors */
  m = elt_merge(&d);
  p = elt_plan_half8(&m, at, half3, 8);
  CHECK(p.vector && p.mode[1] == ELT_LOAD_VEC && p.mode[2] == ELT_LOAD_GATHER);
  dims_of("2,15,4,8", "contig", "transposed", &d); /* C = 15: 30-byte steps, still under a sector */
  m = elt_merge(&d);
  p = elt_plan_half8(&m, at, half3, 8);
  CHECK(p.vector && p.mode[2] == ELT_LOAD_GATHER);
  dims_of("2,16,4,8", "contig", "transposed", &d); /* C = 16: 32-byte steps, a sector each */
  m = elt_merge(&d);
  p = elt_plan_half8(&m, at, half3, 8);
  CHECK(!p.vector && strstr(p.why, "32 bytes apart"));
  dims_of("2,3,4,8", "contig", "transposed", &d);
  m = elt_merge(&d);
  p = elt_plan_half8(&m, at, half3, 8);
  CHECK(p.vector && p.mode[1] == ELT_LOAD_VEC && p.mode[2] == ELT_LOAD_GATHER);
  dims_of("2,3,5,16", "contig", "step:2", &d); /* a step-2 slice: 28 bytes */
  m = elt_merge(&d);
  p = elt_plan_half8(&m, at, half3, 8);
  CHECK(p.vector && p.mode[2] == ELT_LOAD_GATHER && strstr(p.why, "inner stride 2"));
  dims_of("2,24,4,4", "contig", "transposed", &d);
  m = elt_merge(&d);
  elt_tiled_plan t = elt_plan_tiled(&m, 32);
  CHECK(t.tiled && !t.tile[1] && t.tile[2]);
  dims_of("2,24,4,16", "contig", "strides:0,0,33,1", &d); /* a row stride of 33: b's rows not all aligned */
  m = elt_merge(&d);
  CHECK(elt_plan_half8(&m, at, half3, 8).mode[2] == ELT_LOAD_GATHER);
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
  RUN(concat_gold_by_hand);
  RUN(concat_gold_is_the_definition);
  RUN(concat_index_arithmetic_matches_gold);
  RUN(concat_inputs_never_poison);
  RUN(half_conversions_known_values);
  RUN(half_conversions_round_trip_and_ties);
  RUN(half_from_float_matches_references);
  RUN(half_arithmetic_through_float_is_correctly_rounded);
  RUN(eltwise_gold_semantics);
  RUN(eltwise_gold_broadcasts);
  RUN(eltwise_merge_dimensions);
  RUN(eltwise_half8_and_tiled_paths);
  return test_summary();
}
