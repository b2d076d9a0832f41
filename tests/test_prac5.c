/*
 * test_prac5.c -- CPU tests of practical 5's gold routines (../prac5/prac5_gold.c), on cases small enough to
 * check by hand: every GPU program of prac5 is judged against these.
 */
#include <math.h>
#include <stdlib.h>

#include "test.h"
#include "../prac5/prac5_gold.h"
#include "../prac5/hgemm/hgemm_host.h"

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

/* hgemm_ladder's bound, tau = gamma(5 ceil(K/4), 2^-23) + 2 gamma64(K) (hgemm/hgemm_host.h): 5 roundings of
 * 2^-23 for one group of 4 products, 20 at K = 16, 5 * 1025 at K = 4097 */
TEST(hgemm_bound_factor_by_hand) {
  double u2 = 2.0 * U_FP32, u64 = 1.0 / 9007199254740992.0;
  CHECK_NEAR(hgemm_bound_factor(1), 5 * u2 / (1 - 5 * u2) + 2 * u64 / (1 - u64), 1e-15);
  CHECK_NEAR(hgemm_bound_factor(16), 20 * u2 / (1 - 20 * u2) + 32 * u64 / (1 - 16 * u64), 1e-15);
  CHECK_NEAR(hgemm_bound_factor(4097), 5125 * u2 / (1 - 5125 * u2) + 2 * 4097 * u64 / (1 - 4097 * u64), 1e-12);
  CHECK(hgemm_bound_factor(4097) > 6.1e-4 && hgemm_bound_factor(4097) < 6.2e-4);
  /* the -fault=tile lines: a lost product of at least 1/16 against tau s, s at most K = 64 */
  CHECK(hgemm_bound_factor(64) * 64 < 1.0 / 16);
}

/* the inputs: magnitudes in [0.25, 1), a quarter of them negative */
TEST(hgemm_draw_signs_and_range) {
  float x[4000];
  hgemm_draw(x, 4000, 3);
  int neg = 0, ok = 1;
  for (int i = 0; i < 4000; i++) {
    ok = ok && fabsf(x[i]) >= 0.25f && fabsf(x[i]) < 1.0f;
    neg += x[i] < 0;
  }
  CHECK(ok && neg > 850 && neg < 1150);
}

/* kernel 1's edge path: a tile in place only when whole and K, N multiples of 16 */
TEST(hgemm_edge_path) {
  CHECK(hgemm_tile_direct(32, 32, 32, 16, 16) && !hgemm_tile_direct(33, 32, 32, 32, 0));
  CHECK(!hgemm_tile_direct(32, 32, 17, 0, 0) && !hgemm_tile_direct(32, 24, 32, 0, 0));
  CHECK(hgemm_edge_tiles(32, 32, 32) == 0);
  CHECK(hgemm_edge_tiles(33, 32, 16) == 2);      /* the third row of tiles */
  CHECK(hgemm_edge_tiles(33, 48, 32) == 3);      /* 3 x 3 tiles, the last row staged */
  CHECK(hgemm_edge_tiles(17, 17, 17) == 4);      /* K % 16: every tile */
  CHECK(hgemm_edge_tiles(1, 1, 1) == 1);
  CHECK(hgemm_edge_tiles(4097, 4097, 4097) == 257LL * 257);
  CHECK(hgemm_edge_tiles(4096, 4097, 4096) == 256LL * 257); /* N % 16 */
}

/* kernel 2's -smem=: the layouts, their row strides and the bank conflicts of one 8-row phase */
TEST(hgemm_smem_layouts) {
  int layout = -1;
  CHECK(hgemm_smem_parse(NULL, &layout) && layout == HGEMM_SMEM_PAD);
  CHECK(hgemm_smem_parse("plain", &layout) && layout == HGEMM_SMEM_PLAIN);
  CHECK(hgemm_smem_parse("pad", &layout) && layout == HGEMM_SMEM_PAD);
  CHECK(!hgemm_smem_parse("xor", &layout) && !hgemm_smem_parse("x", &layout) && !hgemm_smem_parse("", &layout));
  CHECK(hgemm_smem_ld(HGEMM_SMEM_PLAIN, 32) == 32 && hgemm_smem_ld(HGEMM_SMEM_PAD, 128) == 136);
  CHECK(hgemm_smem_ways(32) == 4 && hgemm_smem_ways(128) == 8); /* plain: A's tile 4-way, B's 8-way */
  CHECK(hgemm_smem_ways(40) == 1 && hgemm_smem_ways(136) == 1); /* pad: none */
  CHECK(hgemm_smem_bank(40, 1) == 20 && hgemm_smem_bank(136, 7) == 28);
  CHECK(hgemm_smem_ways(16) == 2 && hgemm_smem_ways(24) == 1); /* 32 bytes a row: 2-way; 48: none */
}

/* kernel 3's XOR swizzle: a permutation of each row's chunks, the same every 8 rows (the kernel computes a lane's
 * ldmatrix offset once), and conflict-free for every ldmatrix phase (8 rows from a multiple of 8, one chunk) and
 * every cp.async phase (8 lanes, 8 consecutive chunks of the tile), for A's rows of 4 chunks and B's of 16 */
TEST(hgemm_swizzle_conflict_free) {
  int cprs[4] = {2, 4, 8, 16}, ok = 1;
  for (int w = 0; w < 4; w++) {
    int cpr = cprs[w];
    for (int r = 0; r < 128; r++) {
      int seen[16] = {0};
      for (int c = 0; c < cpr; c++) {
        int p = hgemm_swizzle(r, c, cpr);
        ok = ok && p >= 0 && p < cpr && !seen[p]++ && p == hgemm_swizzle(r % 8, c, cpr);
      }
    }
    for (int r0 = 0; r0 < 128; r0 += 8)
      for (int c = 0; c < cpr; c++) ok = ok && hgemm_ldmatrix_ways(r0, c, cpr, 1) == 1;
    for (int q0 = 0; q0 < 128 * cpr; q0 += 8) { /* 8 lanes' copies: chunks q0 .. q0 + 7, row q / cpr */
      int count[8] = {0};
      for (int q = q0; q < q0 + 8; q++) ok = ok && ++count[hgemm_chunk_group(q / cpr, q % cpr, cpr, 1)] == 1;
    }
  }
  CHECK(ok);
  CHECK(hgemm_ldmatrix_ways(0, 0, 4, 0) == 4 && hgemm_ldmatrix_ways(8, 3, 16, 0) == 8); /* unswizzled */
  CHECK(hgemm_swizzle(1, 0, 4) == 0 && hgemm_swizzle(2, 0, 4) == 1 && hgemm_swizzle(7, 1, 4) == 2);
  CHECK(hgemm_swizzle(3, 9, 16) == 10 && hgemm_chunk_group(3, 9, 16, 1) == 2);
}

/* kernel 4's host arithmetic: the rows TMA can read; the mbarrier phase each use of a stage waits on (4 stages:
 * uses 0-3 phase 0, 4-7 phase 1, then 0 again); the wgmma descriptors of A's first operand at 32 bytes into a
 * stage at 0x400 (LBO 16, SBO 1024) and of B's (LBO 8192, SBO 1024), field by field */
TEST(hgemm_wgmma_host) {
  CHECK(hgemm_tma_rows_ok(8, 8) && hgemm_tma_rows_ok(4104, 24) && hgemm_tma_rows_ok(1000, 4096));
  CHECK(!hgemm_tma_rows_ok(17, 8) && !hgemm_tma_rows_ok(8, 4097) && !hgemm_tma_rows_ok(1, 1));
  CHECK(hgemm_pad8(1) == 8 && hgemm_pad8(8) == 8 && hgemm_pad8(17) == 24 && hgemm_pad8(4097) == 4104);
  CHECK(hgemm_wgmma_parity(0, 4) == 0 && hgemm_wgmma_parity(3, 4) == 0 && hgemm_wgmma_parity(4, 4) == 1);
  CHECK(hgemm_wgmma_parity(7, 4) == 1 && hgemm_wgmma_parity(8, 4) == 0 && hgemm_wgmma_parity(64, 4) == 0);
  unsigned long long a = hgemm_wgmma_desc(0x420, 16, 1024), b = hgemm_wgmma_desc(0x8000, 8192, 1024);
  CHECK((a & 0x3FFF) == 0x42 && (a >> 16 & 0x3FFF) == 1 && (a >> 32 & 0x3FFF) == 64 && a >> 62 == 1);
  CHECK((a >> 46 & 0xFFFF) == 0 && (a >> 14 & 3) == 0 && (a >> 30 & 3) == 0); /* base offset 0, gaps empty */
  CHECK(b == (0x800ull | 512ull << 16 | 64ull << 32 | 1ull << 62));
  CHECK((hgemm_wgmma_desc(0x38FF0, 16, 1024) & 0x3FFF) == 0x38FF); /* the top of 227 KB still fits 14 bits */
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
  RUN(hgemm_bound_factor_by_hand);
  RUN(hgemm_draw_signs_and_range);
  RUN(hgemm_edge_path);
  RUN(hgemm_smem_layouts);
  RUN(hgemm_swizzle_conflict_free);
  RUN(hgemm_wgmma_host);
  return test_summary();
}
