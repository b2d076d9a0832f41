/*
 * test_prac5.c -- CPU tests of practical 5's gold routines (../prac5/prac5_gold.c), on cases small enough to
 * check by hand: every GPU program of prac5 is judged against these.
 */
#include <math.h>
#include <stdlib.h>

#include "test.h"
#include "../prac5/prac5_gold.h"

/* [1 2; 3 4] [5 6; 7 8] = [19 22; 43 50] */
TEST(gemm_2x2_by_hand) {
  float A[4] = {1, 2, 3, 4}, B[4] = {5, 6, 7, 8};
  double C[4], absC[4];
  gemm_gold(2, 2, 2, 1.0, A, B, 0.0, NULL, NULL, 0, C, absC);
  CHECK(C[0] == 19 && C[1] == 22 && C[2] == 43 && C[3] == 50);
  CHECK(absC[0] == 19 && absC[3] == 50);
}

/* alpha, beta and signs: 2 [1 -2; 3 4] [5 6; 7 8] + (-1) [1 1; 1 1] = 2 [-9 -10; 43 50] - 1 */
TEST(gemm_alpha_beta_signs) {
  float A[4] = {1, -2, 3, 4}, B[4] = {5, 6, 7, 8}, C0[4] = {1, 1, 1, 1};
  double C[4], absC[4];
  gemm_gold(2, 2, 2, 2.0, A, B, -1.0, C0, NULL, 0, C, absC);
  CHECK(C[0] == -19 && C[1] == -21 && C[2] == 85 && C[3] == 99);
  CHECK(absC[0] == 2 * (5 + 14) + 1); /* |1*5| + |-2*7| = 19, times |alpha|, plus |beta||C0| */
}

/* non-square, and a subset of rows: A 3 x 2, B 2 x 1 */
TEST(gemm_rows_subset) {
  float A[6] = {1, 2, 3, 4, 5, 6}, B[2] = {1, -1};
  int which[2] = {0, 2};
  double C[2];
  gemm_gold(3, 2, 1, 1.0, A, B, 0.0, NULL, which, 2, C, NULL);
  CHECK(C[0] == -1 && C[1] == -1);
}

TEST(gemm_sample_rows_first_and_last) {
  int which[1000];
  CHECK(gemm_sample_rows(10, 10, 10, 1e9, which) == 10 && which[9] == 9);
  int n = gemm_sample_rows(1000, 1000, 1000, 1e7, which);
  CHECK(n == 10 && which[0] == 0 && which[n - 1] == 999);
}

/* [1 2 3] * [1 1] = [1 3 5 3]; a delta is the identity */
TEST(conv_full_by_hand) {
  float x[3] = {1, 2, 3}, h[2] = {1, 1}, d[1] = {1};
  double y[4];
  conv_full_gold(x, 3, h, 2, y);
  CHECK(y[0] == 1 && y[1] == 3 && y[2] == 5 && y[3] == 3);
  conv_full_gold(x, 3, d, 1, y);
  CHECK(y[0] == 1 && y[1] == 2 && y[2] == 3);
}

/* LeetGPU's example: input [1 2 3 4 5], kernel [1 0 -1] -> [-2 -2 -2] */
TEST(conv_valid_leetgpu_example) {
  float x[5] = {1, 2, 3, 4, 5}, k[3] = {1, 0, -1};
  double y[3], ay[3];
  conv_valid_gold(x, 5, k, 3, y, ay);
  CHECK(y[0] == -2 && y[1] == -2 && y[2] == -2);
  CHECK(ay[0] == 4 && ay[2] == 8);
  conv_valid_gold(x, 5, x, 5, y, NULL); /* one output: the dot product 1+4+9+16+25 */
  CHECK(y[0] == 55);
}

TEST(transpose_2x3) {
  float in[6] = {1, 2, 3, 4, 5, 6}, out[6];
  transpose_gold(in, 2, 3, out);
  CHECK(out[0] == 1 && out[1] == 4 && out[2] == 2 && out[3] == 5 && out[4] == 3 && out[5] == 6);
}

TEST(fft_good_sizes) {
  CHECK(fft_good_size(1) == 1);
  CHECK(fft_good_size(60) == 60);
  CHECK(fft_good_size(11) == 12);
  CHECK(fft_good_size(13) == 14);
  CHECK(fft_good_size(1021) == 1024);
  CHECK(fft_good_size(121) == 125);
}

TEST(gamma_and_bound) {
  CHECK_NEAR(gamma_k(1, U_FP32), 5.96e-8, 1e-10);
  CHECK(gamma_k(4096, U_FP32) > 4096 * U_FP32);
  float x[2] = {1, -1}, h[1] = {2};
  CHECK(fft_conv_bound(x, 2, h, 1, 2) > 0);
}

TEST(fill_uniform_in_range) {
  float a[1000];
  fill_uniform(a, 1000, 7, -1.0f, 1.0f);
  int neg = 0, ok = 1;
  for (int i = 0; i < 1000; i++) {
    ok = ok && a[i] >= -1.0f && a[i] < 1.0f;
    neg += a[i] < 0;
  }
  CHECK(ok && neg > 400 && neg < 600);
}

int main(void) {
  RUN(gemm_2x2_by_hand);
  RUN(gemm_alpha_beta_signs);
  RUN(gemm_rows_subset);
  RUN(gemm_sample_rows_first_and_last);
  RUN(conv_full_by_hand);
  RUN(conv_valid_leetgpu_example);
  RUN(transpose_2x3);
  RUN(fft_good_sizes);
  RUN(gamma_and_bound);
  RUN(fill_uniform_in_range);
  return test_summary();
}
