/*
 * test_prac8.c -- CPU tests of practical 8's gold routines (../prac8/prac8_gold.c): the exclusive scans, the
 * recurrence v[n] = s[n] v[n-1] + u[n] in double, the float-key bijection, and the LSD radix sort against
 * qsort on every adversarial input the GPU sorts are checked on.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "../prac8/prac8_gold.h"

TEST(scan_gold_by_hand) {
  float in[5] = {3, 1, 4, 1, 5};
  double out[5];
  scan_gold(out, in, 5);
  CHECK(out[0] == 0 && out[1] == 3 && out[2] == 4 && out[3] == 8 && out[4] == 9);
  scan_gold(out, in, 1); /* one element: its exclusive sum is 0 */
  CHECK(out[0] == 0);
}

TEST(scan_gold_int_by_hand_and_large) {
  int in[4] = {-2, 7, 0, 5}, out[4];
  scan_gold_int(out, in, 4);
  CHECK(out[0] == 0 && out[1] == -2 && out[2] == 5 && out[3] == 5);
  /* n ones: out[i] = i, well past 2^24 where a float sum would stall */
  size_t n = (1u << 25) + 3;
  int *ones = malloc(n * sizeof(int)), *o = malloc(n * sizeof(int));
  for (size_t i = 0; i < n; i++) ones[i] = 1;
  scan_gold_int(o, ones, n);
  CHECK(o[n - 1] == (int)(n - 1) && o[12345] == 12345);
  free(ones);
  free(o);
}

TEST(scan_gold_is_double) {
  /* 2^24 + 2 ones: a float running sum stops at 2^24; the double gold keeps counting */
  size_t n = (1u << 24) + 2;
  float *in = malloc(n * sizeof(float));
  double *out = malloc(n * sizeof(double));
  for (size_t i = 0; i < n; i++) in[i] = 1.0f;
  scan_gold(out, in, n);
  CHECK(out[n - 1] == (double)(n - 1));
  free(in);
  free(out);
}

TEST(recurrence_gold_by_hand) {
  /* v0 = 1, v1 = 0.5*1 + 2 = 2.5, v2 = -1*2.5 + 0.25 = -2.25, v3 = 0*(-2.25) + 3 = 3 */
  float s[4] = {0.75f, 0.5f, -1.0f, 0.0f}, u[4] = {1.0f, 2.0f, 0.25f, 3.0f};
  double v[4], mag[4];
  recurrence_gold(v, mag, s, u, 4);
  CHECK(v[0] == 1.0 && v[1] == 2.5 && v[2] == -2.25 && v[3] == 3.0);
  CHECK(mag[0] == 1.0 && mag[1] == 2.5 && mag[2] == 2.75 && mag[3] == 3.0);
}

TEST(recurrence_gold_special_cases) {
  /* s = 1: a running sum; s = 0: v = u; s = -1, u = 1: 1, 0, 1, 0, ... */
  enum { N = 1000 };
  float s[N], u[N];
  double v[N], mag[N];
  for (int i = 0; i < N; i++) s[i] = 1.0f, u[i] = (float)(i % 7);
  recurrence_gold(v, mag, s, u, N);
  double sum = 0;
  for (int i = 0; i < N; i++) sum += i % 7;
  CHECK(v[N - 1] == sum && mag[N - 1] == sum);
  for (int i = 0; i < N; i++) s[i] = 0.0f, u[i] = (float)i - 3.5f;
  recurrence_gold(v, mag, s, u, N);
  CHECK(v[17] == 13.5 && v[0] == -3.5 && mag[0] == 3.5);
  for (int i = 0; i < N; i++) s[i] = -1.0f, u[i] = 1.0f;
  recurrence_gold(v, mag, s, u, N);
  CHECK(v[0] == 1.0 && v[1] == 0.0 && v[998] == 1.0 && v[999] == 0.0 && mag[999] == 1000.0);
}

TEST(recurrence_gold_matches_the_pair_algebra) {
  /* composing (s, u) pairs, a then b = (a.s b.s, b.s a.u + b.u), over any bracketing gives the same v */
  enum { N = 64 };
  float s[N], u[N];
  double v[N], mag[N];
  for (int i = 0; i < N; i++) {
    s[i] = (float)((int)(prac8_hash(i, 3) % 2001) - 1000) / 1000.0f;
    u[i] = (float)((int)(prac8_hash(i, 4) % 2001) - 1000) / 1000.0f;
  }
  recurrence_gold(v, mag, s, u, N);
  /* left half and right half composed separately, then joined */
  double ls = 1, lu = 0, rs = 1, ru = 0;
  for (int i = 0; i < N / 2; i++) ls *= s[i], lu = s[i] * lu + u[i];
  for (int i = N / 2; i < N; i++) rs *= s[i], ru = s[i] * ru + u[i];
  CHECK_NEAR(rs * lu + ru, v[N - 1], 1e-12);
  CHECK_NEAR(lu, v[N / 2 - 1], 1e-12);
}

TEST(float_key_bijection_orders_floats) {
  float f[] = {-INFINITY, -1e30f, -2.5f, -1.0f, -1e-30f, -0.0f, 0.0f, 1e-40f, 1e-30f, 1.0f, 2.5f, 1e30f, INFINITY};
  int m = sizeof(f) / sizeof(f[0]);
  for (int i = 0; i < m; i++) {
    unsigned b;
    memcpy(&b, &f[i], 4);
    unsigned k = float_bits_to_key(b);
    CHECK(key_to_float_bits(k) == b);
    if (i > 0) {
      unsigned b0;
      memcpy(&b0, &f[i - 1], 4);
      CHECK(float_bits_to_key(b0) < k);
    }
  }
}

static int cmp_u32(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

/* the radix sort against qsort on one input; keys and (index) values: stable means equal keys keep their
 * indices in increasing order */
static int sort_agrees(size_t n, int dist, unsigned seed) {
  unsigned *k = malloc(n * 4), *v = malloc(n * 4), *tk = malloc(n * 4), *tv = malloc(n * 4), *q = malloc(n * 4);
  unsigned *orig = malloc(n * 4);
  sort_input(k, n, dist, seed);
  memcpy(q, k, n * 4);
  memcpy(orig, k, n * 4);
  for (size_t i = 0; i < n; i++) v[i] = (unsigned)i;
  radix_sort_gold(k, v, n, tk, tv);
  qsort(q, n, 4, cmp_u32);
  int ok = memcmp(k, q, n * 4) == 0;
  for (size_t i = 0; i < n && ok; i++) {
    ok = orig[v[i]] == k[i];                                   /* each value travelled with its key */
    if (i > 0 && k[i] == k[i - 1]) ok = ok && v[i] > v[i - 1]; /* stable */
  }
  /* keys alone, no values */
  sort_input(k, n, dist, seed);
  radix_sort_gold(k, NULL, n, tk, NULL);
  ok = ok && memcmp(k, q, n * 4) == 0;
  free(k), free(v), free(tk), free(tv), free(q), free(orig);
  return ok;
}

TEST(radix_sort_gold_against_qsort_adversarial) {
  size_t sizes[] = {1, 2, 31, 33, 1000, 4097, 100003};
  for (int d = 0; d < SORT_NDISTS; d++)
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
      int ok = sort_agrees(sizes[s], d, 5);
      if (!ok) printf("    radix_sort_gold differs from qsort: %s, n = %zu\n", sort_dist_names[d], sizes[s]);
      CHECK(ok);
    }
}

TEST(radix_sort_gold_float_keys) {
  /* floats through the bijection sort like floats */
  size_t n = 5001;
  unsigned *k = malloc(n * 4), *tk = malloc(n * 4);
  sort_input(k, n, SORT_FLOATS, 9);
  for (size_t i = 0; i < n; i++) k[i] = float_bits_to_key(k[i]);
  radix_sort_gold(k, NULL, n, tk, NULL);
  int ok = 1;
  float prev = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    unsigned b = key_to_float_bits(k[i]);
    float f;
    memcpy(&f, &b, 4);
    ok = ok && f >= prev;
    prev = f;
  }
  CHECK(ok);
  free(k), free(tk);
}

TEST(sort_inputs_are_what_they_say) {
  size_t n = 10001;
  unsigned *k = malloc(n * 4);
  sort_input(k, n, SORT_SORTED, 1);
  int sorted = 1, repeats = 0;
  for (size_t i = 1; i < n; i++) sorted = sorted && k[i] >= k[i - 1], repeats += k[i] == k[i - 1];
  CHECK(sorted && repeats > 0);
  sort_input(k, n, SORT_REVERSED, 1);
  int rev = 1;
  for (size_t i = 1; i < n; i++) rev = rev && k[i] <= k[i - 1];
  CHECK(rev);
  sort_input(k, n, SORT_TWO, 1);
  int two = 1, a = 0, b = 0;
  for (size_t i = 0; i < n; i++) two = two && (k[i] == 0x80000001u || k[i] == 0x7FFFFFFEu), a += k[i] == 0x80000001u;
  b = (int)n - a;
  CHECK(two && a > 0 && b > 0);
  sort_input(k, n, SORT_TOPBYTE, 1);
  int top = 1;
  for (size_t i = 0; i < n; i++) top = top && (k[i] & 0xFFFFFFu) == 0xABCDEFu;
  CHECK(top);
  free(k);
}

int main(void) {
  RUN(scan_gold_by_hand);
  RUN(scan_gold_int_by_hand_and_large);
  RUN(scan_gold_is_double);
  RUN(recurrence_gold_by_hand);
  RUN(recurrence_gold_special_cases);
  RUN(recurrence_gold_matches_the_pair_algebra);
  RUN(float_key_bijection_orders_floats);
  RUN(radix_sort_gold_against_qsort_adversarial);
  RUN(radix_sort_gold_float_keys);
  RUN(sort_inputs_are_what_they_say);
  return test_summary();
}
