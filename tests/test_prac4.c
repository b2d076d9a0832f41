/*
 * test_prac4.c -- CPU tests of practical 4's gold routines (../prac4/reduction_gold.c, softmax_gold.c,
 * laplace3d_gold.c): the reduction and softmax golds on inputs whose answers are worked out by hand, and
 * the tolerance rule the GPU's sums are judged by.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "../prac4/prac4_gold.h"

TEST(reduction_gold_small_by_hand) {
  float x[5] = {3.0f, -1.5f, 0.25f, 9.0f, -0.75f}; /* 3 - 1.5 + 0.25 + 9 - 0.75 = 10; |x| adds to 14.5 */
  double abs_sum = -1.0;
  CHECK(reduction_gold(x, 5, &abs_sum) == 10.0);
  CHECK(abs_sum == 14.5);
  CHECK(reduction_gold(x, 1, NULL) == 3.0);
  CHECK(reduction_gold(x, 0, &abs_sum) == 0.0 && abs_sum == 0.0);
}

TEST(reduction_gold_is_double_where_float_fails) {
  /* 2^24 + 1 + 1 ...: a float running sum stuck at 2^24 loses every 1; the double gold keeps them */
  enum { N = 1001 };
  float x[N];
  x[0] = 16777216.0f;
  for (int i = 1; i < N; i++) x[i] = 1.0f;
  float fsum = 0.0f;
  for (int i = 0; i < N; i++) fsum += x[i];
  CHECK(fsum == 16777216.0f);
  CHECK(reduction_gold(x, N, NULL) == 16777216.0 + 1000.0);
}

TEST(reduction_gold_digits_formula) {
  /* 0, 1, ..., 9 repeated 1000 times: 45 * 1000 */
  enum { N = 10000 };
  static float x[N];
  for (int i = 0; i < N; i++) x[i] = (float)(i % 10);
  CHECK(reduction_gold(x, N, NULL) == 45000.0);
}

TEST(reduction_gold_uint_past_32_bits) {
  /* 3 x 4e9 = 1.2e10: more than 32 bits hold, exact in 64 */
  unsigned int x[3] = {4000000000u, 4000000000u, 4000000000u};
  CHECK(reduction_gold_uint(x, 3) == 12000000000ULL);
  unsigned int y[4] = {1u, 2u, 3u, 4u};
  CHECK(reduction_gold_uint(y, 4) == 10ULL);
}

TEST(tolerance_rule) {
  /* whole numbers up to 2^24 in all: exact, whatever the depth */
  CHECK(reduction_tolerance(16777216.0, 1, 1e6) == 0.0);
  /* past 2^24, or not whole numbers: gamma(d) * sum|x|, gamma(d) = d u / (1 - d u), u = 2^-24 */
  double u = 0x1p-24;
  CHECK_NEAR(reduction_tolerance(16777217.0, 1, 10), 10 * u / (1 - 10 * u) * 16777217.0, 1e-12);
  CHECK_NEAR(reduction_tolerance(100.0, 0, 1), u / (1 - u) * 100.0, 1e-18);
  /* d u >= 1: no bound */
  CHECK(isinf(reduction_tolerance(1.0, 0, 16777216.0)));
  /* the bound holds for a real float sum: 1000 values of 0.1 added one after another (depth 1000) */
  float s = 0.0f;
  for (int i = 0; i < 1000; i++) s += 0.1f;
  double exact = 1000.0 * (double)0.1f;
  CHECK(fabs((double)s - exact) <= reduction_tolerance(exact, 0, 1000));
}

TEST(rms_change_by_hand) {
  /* changes 3, 4, 0, 0: sqrt((9 + 16) / 4) = 2.5 */
  float u1[4] = {1.0f, 2.0f, 5.0f, -1.0f}, u2[4] = {4.0f, -2.0f, 5.0f, -1.0f};
  CHECK(rms_change_gold(u1, u2, 4) == 2.5);
  CHECK(rms_change_gold(u1, u1, 4) == 0.0);
}

TEST(softmax_by_hand) {
  /* x = (0, ln 3) -> exp = (1, 3) -> (1/4, 3/4); the spread is ln 3 */
  float x[2] = {0.0f, (float)log(3.0)};
  double y[2];
  double spread = softmax_gold(x, y, 2);
  CHECK_NEAR(y[0], 0.25, 1e-7);
  CHECK_NEAR(y[1], 0.75, 1e-7);
  CHECK_NEAR(spread, log(3.0), 1e-7);
  /* one element: 1 */
  float one = 42.0f;
  double y1;
  CHECK(softmax_gold(&one, &y1, 1) == 0.0 && y1 == 1.0);
}

TEST(softmax_overflow_inputs) {
  /* 1000, 1001, 1002: exp(1000) overflows even a double, the shifted form does not:
   * y = (e^-2, e^-1, 1) / (1 + e^-1 + e^-2) */
  float x[3] = {1000.0f, 1001.0f, 1002.0f};
  double y[3];
  softmax_gold(x, y, 3);
  double d = 1.0 + exp(-1.0) + exp(-2.0);
  CHECK_NEAR(y[0], exp(-2.0) / d, 1e-15);
  CHECK_NEAR(y[1], exp(-1.0) / d, 1e-15);
  CHECK_NEAR(y[2], 1.0 / d, 1e-15);
  CHECK(isfinite(y[0]) && isfinite(y[1]) && isfinite(y[2]));
  /* +80, -80: e^-160 / (1 + e^-160) and 1 / (1 + e^-160) */
  float z[2] = {80.0f, -80.0f};
  double w[2];
  CHECK(softmax_gold(z, w, 2) == 160.0);
  CHECK_NEAR(w[0], 1.0, 1e-15);
  CHECK_NEAR(w[1] / exp(-160.0), 1.0, 1e-12);
}

TEST(softmax_masked) {
  /* -inf entries (a mask) give 0 and do not count in the spread: (-inf, 0, -inf, ln 2) -> (0, 1/3, 0, 2/3) */
  float x[4] = {-INFINITY, 0.0f, -INFINITY, (float)log(2.0)};
  double y[4];
  CHECK_NEAR(softmax_gold(x, y, 4), log(2.0), 1e-7);
  CHECK(y[0] == 0.0 && y[2] == 0.0);
  CHECK_NEAR(y[1], 1.0 / 3.0, 1e-7);
  CHECK_NEAR(y[3], 2.0 / 3.0, 1e-7);
}

TEST(softmax_all_equal_and_sums_to_one) {
  enum { N = 1000 };
  float x[N];
  double y[N], total = 0.0;
  for (int i = 0; i < N; i++) x[i] = 7.5f;
  CHECK(softmax_gold(x, y, N) == 0.0);
  for (int i = 0; i < N; i++) {
    CHECK(y[i] == 1.0 / N);
    total += y[i];
  }
  CHECK_NEAR(total, 1.0, 1e-12);
}

TEST(softmax_rows_inf_and_huge) {
  /* row 0: -inf entries give 0; row 1: all -inf, NaN by definition; row 2: +-3e38 (x - max never overflows in
   * double), the two 3e38 share the row */
  float x[9] = {-INFINITY, 0.0f, -INFINITY, -INFINITY, -INFINITY, -INFINITY, 3e38f, -3e38f, 3e38f};
  double y[9];
  double spread = softmax_rows_gold(x, y, 3, 3);
  CHECK(y[0] == 0.0 && y[1] == 1.0 && y[2] == 0.0);
  CHECK(isnan(y[3]) && isnan(y[4]) && isnan(y[5]));
  CHECK(y[6] == 0.5 && y[7] == 0.0 && y[8] == 0.5);
  CHECK(spread == (double)3e38f - (double)-3e38f);
}

TEST(laplace_copy_keeps_a_harmonic_field) {
  /* the copy of prac3's gold: a linear field is a fixed point, and its rms change is 0 */
  int NX = 5, NY = 4, NZ = 6;
  float u1[120], u2[120];
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) u1[i + NX * (j + NY * k)] = (float)(2 * i - j + 3 * k);
  Gold_laplace3d(NX, NY, NZ, u1, u2);
  CHECK(memcmp(u1, u2, sizeof(u1)) == 0);
  CHECK(rms_change_gold(u1, u2, 120) == 0.0);
}

int main(void) {
  RUN(reduction_gold_small_by_hand);
  RUN(reduction_gold_is_double_where_float_fails);
  RUN(reduction_gold_digits_formula);
  RUN(reduction_gold_uint_past_32_bits);
  RUN(tolerance_rule);
  RUN(rms_change_by_hand);
  RUN(softmax_by_hand);
  RUN(softmax_overflow_inputs);
  RUN(softmax_masked);
  RUN(softmax_all_equal_and_sums_to_one);
  RUN(softmax_rows_inf_and_huge);
  RUN(laplace_copy_keeps_a_harmonic_field);
  return test_summary();
}
