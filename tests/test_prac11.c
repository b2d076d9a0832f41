/*
 * test_prac11.c -- CPU tests of practical 11's gold routines (../prac11/prac11_gold.c): the course's values with
 * their overflow to +inf, the comparison (+inf equals +inf, one float ulp passes, NaN and the poison never do),
 * and the count of overlapping kernels on one timeline.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "test.h"
#include "../prac11/prac11_gold.h"

#define N 1000

TEST(gold_values_and_their_overflow) {
  static float x[N];
  prac11_gold(x, N);
  CHECK(x[0] == 1.0f);
  CHECK(x[2] == (float)PRAC11_BASE); /* sqrt(pi^2) rounds to the float of 3.14159 */
  CHECK_NEAR(x[1], sqrt(PRAC11_BASE), 1e-6);
  /* finite up to i = 155, +inf from 156 (the float overflows), and so on past 621 (pow overflows double) */
  for (int i = 0; i < 156; i++) CHECK(isfinite(x[i]) && x[i] > 0.0f);
  for (int i = 156; i < N; i++) CHECK(isinf(x[i]) && x[i] > 0.0f);
  CHECK(x[155] > 3e38f);
  CHECK(isinf(pow(PRAC11_BASE, 621.0)) && isfinite(pow(PRAC11_BASE, 620.0)));
}

TEST(compare_inf_equals_inf_nan_fails) {
  static float gold[N], x[N];
  long long first;
  prac11_gold(gold, N);
  memcpy(x, gold, sizeof(x));
  CHECK(prac11_compare(x, gold, N, &first) == 0 && first == -1); /* +inf against +inf from 156 on */
  x[700] = NAN;
  CHECK(prac11_compare(x, gold, N, &first) == 1 && first == 700);
  x[700] = -INFINITY; /* the wrong infinity */
  CHECK(prac11_compare(x, gold, N, &first) == 1 && first == 700);
  x[700] = FLT_MAX; /* finite against +inf */
  CHECK(prac11_compare(x, gold, N, &first) == 1 && first == 700);
  x[700] = gold[700];
  x[10] = NAN;
  CHECK(prac11_compare(x, gold, N, &first) == 1 && first == 10);
  x[10] = INFINITY; /* +inf against a finite gold */
  CHECK(prac11_compare(x, gold, N, &first) == 1 && first == 10);
  /* the poison: 0xff bytes, a NaN, everywhere */
  memset(x, 0xff, sizeof(x));
  CHECK(isnan(x[0]));
  CHECK(prac11_compare(x, gold, N, &first) == N && first == 0);
}

TEST(compare_one_ulp_passes_two_fail) {
  static float gold[N], x[N];
  long long first;
  prac11_gold(gold, N);
  for (int i = 0; i < 156; i++) {
    memcpy(x, gold, sizeof(x));
    x[i] = nextafterf(gold[i], INFINITY);
    if (isfinite(x[i])) CHECK(prac11_compare(x, gold, N, &first) == 0);
    x[i] = nextafterf(gold[i], 0.0f);
    CHECK(prac11_compare(x, gold, N, &first) == 0);
    x[i] = nextafterf(nextafterf(gold[i], INFINITY), INFINITY); /* two ulps above: more than FLT_EPSILON |gold| */
    CHECK(prac11_compare(x, gold, N, &first) == 1 && first == i);
  }
  /* at a power of two (x[0] = 1): the float below is half an ulp of 1 away, the one above one ulp */
  float one = 1.0f, below = nextafterf(1.0f, 0.0f), above = nextafterf(1.0f, 2.0f);
  CHECK(prac11_compare(&below, &one, 1, &first) == 0 && prac11_compare(&above, &one, 1, &first) == 0);
  float above2 = nextafterf(above, 2.0f);
  CHECK(prac11_compare(&above2, &one, 1, &first) == 1);
}

TEST(overlap_counts) {
  prac11_concurrency c;
  /* one after another, touching (as on one stream): none overlap; the sum is the span */
  double b1[] = {0, 2, 4, 6}, e1[] = {2, 4, 6, 8};
  c = prac11_overlap(b1, e1, 4);
  CHECK(c.overlapped == 0);
  CHECK_NEAR(c.sum_ms, 8.0, 1e-12);
  CHECK_NEAR(c.span_ms, 8.0, 1e-12);
  /* all at once: every one overlaps, 4 kernels' time in 2 */
  double b2[] = {0, 0.1, 0.2, 0.3}, e2[] = {2, 2.1, 2.2, 2.3};
  c = prac11_overlap(b2, e2, 4);
  CHECK(c.overlapped == 4);
  CHECK_NEAR(c.sum_ms, 8.0, 1e-12);
  CHECK_NEAR(c.span_ms, 2.3, 1e-12);
  /* two pairs, apart, in any order; one kernel inside another */
  double b3[] = {5, 0, 6, 1, 10}, e3[] = {7, 2, 8, 3, 11};
  c = prac11_overlap(b3, e3, 5);
  CHECK(c.overlapped == 4);
  CHECK_NEAR(c.span_ms, 11.0, 1e-12);
  double b4[] = {0, 1}, e4[] = {10, 2};
  CHECK(prac11_overlap(b4, e4, 2).overlapped == 2);
  /* one kernel, none */
  c = prac11_overlap(b4, e4, 1);
  CHECK(c.overlapped == 0);
  CHECK_NEAR(c.sum_ms, 10.0, 1e-12);
  CHECK_NEAR(c.span_ms, 10.0, 1e-12);
}

int main(void) {
  RUN(gold_values_and_their_overflow);
  RUN(compare_inf_equals_inf_nan_fails);
  RUN(compare_one_ulp_passes_two_fail);
  RUN(overlap_counts);
  return test_summary();
}
