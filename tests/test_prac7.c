/*
 * test_prac7.c -- CPU tests of practical 7's gold routines and of the CPU models of its GPU algorithms
 * (../prac7/trid_gold.c).
 *
 * The GPU programs are judged against Gold_thomas, so it is checked against a dense Gaussian elimination
 * with partial pivoting on small systems; then the models of parallel cyclic reduction (Model_pcr) and of
 * the hybrid Thomas-PCR chunk algebra (Model_hybrid), which the kernels follow line by line, are checked
 * against Thomas for every size that could hide an off-by-one: 1, 2, 3, powers of two and their
 * neighbours, and chunks of 2, 3 and uneven lengths.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "../prac7/prac7_gold.h"

static unsigned int lcg_state = 2024u;
static double lcg_uniform(void) { /* in [0, 1) */
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return (double)(lcg_state >> 8) * (1.0 / 16777216.0);
}

/* a random diagonally dominant system: |b| >= |a| + |c| + 0.5, either sign */
static void random_system(int n, double *a, double *b, double *c, double *d) {
  for (int i = 0; i < n; i++) {
    a[i] = i > 0 ? 2.0 * lcg_uniform() - 1.0 : 0.0;
    c[i] = i < n - 1 ? 2.0 * lcg_uniform() - 1.0 : 0.0;
    double m = fabs(a[i]) + fabs(c[i]) + 0.5 + 0.5 * lcg_uniform();
    b[i] = lcg_uniform() < 0.5 ? -m : m;
    d[i] = 2.0 * lcg_uniform() - 1.0;
  }
}

/* dense Gaussian elimination with partial pivoting: an independent solver to check Thomas against */
static void dense_solve(int n, const double *a, const double *b, const double *c, const double *d, double *x) {
  double *M = (double *)calloc((size_t)n * (n + 1), sizeof(double));
#define M_(i, j) M[(size_t)(i) * (n + 1) + (j)]
  for (int i = 0; i < n; i++) {
    if (i > 0) M_(i, i - 1) = a[i];
    M_(i, i) = b[i];
    if (i < n - 1) M_(i, i + 1) = c[i];
    M_(i, n) = d[i];
  }
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(M_(i, k)) > fabs(M_(p, k))) p = i;
    for (int j = 0; j <= n; j++) {
      double t = M_(k, j);
      M_(k, j) = M_(p, j);
      M_(p, j) = t;
    }
    for (int i = k + 1; i < n; i++) {
      double f = M_(i, k) / M_(k, k);
      for (int j = k; j <= n; j++) M_(i, j) -= f * M_(k, j);
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = M_(i, n);
    for (int j = i + 1; j < n; j++) s -= M_(i, j) * x[j];
    x[i] = s / M_(i, i);
  }
#undef M_
  free(M);
}

static double max_diff(int n, const double *x, const double *y) {
  double m = 0.0;
  for (int i = 0; i < n; i++)
    if (!(fabs(x[i] - y[i]) <= m)) m = isnan(x[i] - y[i]) ? INFINITY : fabs(x[i] - y[i]);
  return m;
}

#define NMAX 600
static double A[NMAX], B[NMAX], C[NMAX], D[NMAX], X[NMAX], Y[NMAX];

TEST(thomas_matches_dense_solve) {
  for (int n = 1; n <= 40; n++) {
    random_system(n, A, B, C, D);
    Gold_thomas(n, A, B, C, D, X, NULL);
    dense_solve(n, A, B, C, D, Y);
    CHECK_NEAR(max_diff(n, X, Y), 0.0, 1e-13);
  }
}

TEST(thomas_hand_computed_3x3) {
  /* [2 -1 0; -1 2 -1; 0 -1 2] x = [1 0 1]: x = (1, 1, 1) */
  double a[3] = {0, -1, -1}, b[3] = {2, 2, 2}, c[3] = {-1, -1, 0}, d[3] = {1, 0, 1}, x[3];
  Gold_thomas(3, a, b, c, d, x, NULL);
  for (int i = 0; i < 3; i++) CHECK_NEAR(x[i], 1.0, 1e-15);
}

TEST(thomas_ignores_a0_and_last_c) {
  random_system(7, A, B, C, D);
  Gold_thomas(7, A, B, C, D, X, NULL);
  A[0] = 123.0;
  C[6] = -45.0;
  Gold_thomas(7, A, B, C, D, Y, NULL);
  CHECK(max_diff(7, X, Y) == 0.0);
}

TEST(heat_gold_is_symmetric_and_decays) {
  /* x0 = 1 and a symmetric matrix: the solution is symmetric about the middle; zero outside pulls the values
   * near the ends down, while the middle, which the boundary has not reached after 10 steps, stays at 1 */
  float u0[128];
  double u[128];
  for (int i = 0; i < 128; i++) u0[i] = 1.0f;
  Gold_trid(128, 10, 1.0, u0, u);
  for (int i = 0; i < 128; i++) {
    CHECK_NEAR(u[i], u[127 - i], 1e-12);
    CHECK(u[i] > 0.0 && u[i] < 1.0 + 1e-12);
  }
  CHECK(u[0] < u[1] && u[1] < u[2] && u[0] < 0.5);
  CHECK_NEAR(u[64], 1.0, 1e-6);
  /* one step by hand, NX = 1: (2 + lambda) u = lambda u0 */
  double one;
  Gold_trid(1, 1, 1.0, u0, &one);
  CHECK_NEAR(one, 1.0 / 3.0, 1e-15);
}

TEST(residual_of_exact_solution_is_zero_and_nan_is_infinite) {
  /* x = 1 solves rows with d = a + b + c (inside) exactly in float */
  float a[4] = {0, 1, 1, 1}, b[4] = {4, 4, 4, 4}, c[4] = {1, 1, 1, 0}, d[4] = {5, 6, 6, 5}, x[4] = {1, 1, 1, 1};
  CHECK(Gold_residual_batch(4, 1, a, b, c, d, x) == 0.0);
  CHECK(Gold_residual_batch(2, 2, a, b, c, d, x) > 0.0); /* as two systems of 2, rows 1 and 2 lose a term */
  x[2] = NAN;
  CHECK(isinf(Gold_residual_batch(4, 1, a, b, c, d, x)));
}

TEST(batch_gold_matches_single_systems) {
  enum { n = 13, batch = 5 };
  float fa[n * batch], fb[n * batch], fc[n * batch], fd[n * batch];
  double xb[n * batch];
  for (int k = 0; k < n * batch; k++) {
    fa[k] = (float)(2.0 * lcg_uniform() - 1.0);
    fc[k] = (float)(2.0 * lcg_uniform() - 1.0);
    fb[k] = 3.0f + (float)lcg_uniform();
    fd[k] = (float)lcg_uniform();
  }
  Gold_thomas_batch(n, batch, fa, fb, fc, fd, xb);
  for (int s = 0; s < batch; s++) {
    for (int i = 0; i < n; i++) {
      A[i] = fa[s * n + i];
      B[i] = fb[s * n + i];
      C[i] = fc[s * n + i];
      D[i] = fd[s * n + i];
    }
    Gold_thomas(n, A, B, C, D, X, NULL);
    CHECK(max_diff(n, X, xb + s * n) == 0.0);
  }
}

/* PCR on normalised rows against Thomas, and the step count ceil(log2 n) */
TEST(pcr_model_matches_thomas) {
  static const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 100, 127, 128, 129, 255, 256, 500};
  for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
    int n = sizes[k];
    random_system(n, A, B, C, D);
    Gold_thomas(n, A, B, C, D, X, NULL);
    double na[NMAX], nc[NMAX];
    for (int i = 0; i < n; i++) {
      na[i] = A[i] / B[i];
      nc[i] = C[i] / B[i];
      Y[i] = D[i] / B[i];
    }
    int steps = Model_pcr(n, na, nc, Y);
    CHECK_NEAR(max_diff(n, X, Y), 0.0, 1e-13);
    int want = 0;
    while ((1 << want) < n) want++;
    CHECK(steps == want);
    for (int i = 0; i < n; i++) CHECK(na[i] == 0.0 && nc[i] == 0.0); /* fully decoupled at the end */
  }
}

TEST(pcr_model_heat_equation) {
  /* the course's matrix, one step from u0 = 1 */
  int n = 128;
  float u0[128];
  double u[128], na[128], nc[128];
  for (int i = 0; i < n; i++) {
    u0[i] = 1.0f;
    na[i] = i > 0 ? -1.0 / 3.0 : 0.0;
    nc[i] = i < n - 1 ? -1.0 / 3.0 : 0.0;
    Y[i] = 1.0 / 3.0;
  }
  Gold_trid(n, 1, 1.0, u0, u);
  CHECK(Model_pcr(n, na, nc, Y) == 7);
  CHECK_NEAR(max_diff(n, u, Y), 0.0, 1e-14);
}

TEST(hybrid_chunks_cover_the_rows) {
  for (int n = 1; n <= 200; n++)
    for (int lanes = 1; lanes <= 33; lanes += 4) {
      int next = 0, ok = 1;
      for (int t = 0; t < lanes; t++) {
        int s0, L;
        hybrid_chunk(n, lanes, t, &s0, &L);
        ok &= s0 == next && L >= n / lanes && L <= n / lanes + 1;
        next = s0 + L;
      }
      CHECK(ok && next == n);
    }
}

/* the hybrid's chunk algebra: chunks of 2 (no backward sweep), 3 (one inner row), uneven lengths, the short
 * path below 2 lanes' worth, and the GPU's 32 lanes */
TEST(hybrid_model_matches_thomas) {
  static const int sizes[] = {1, 2, 3, 4, 5, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 200, 256, 257, 511, 600};
  static const int lanes[] = {1, 2, 3, 4, 32};
  for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
    for (size_t l = 0; l < sizeof(lanes) / sizeof(lanes[0]); l++) {
      int n = sizes[k];
      random_system(n, A, B, C, D);
      Gold_thomas(n, A, B, C, D, X, NULL);
      Model_hybrid(n, lanes[l], A, B, C, D, Y);
      double err = max_diff(n, X, Y);
      if (!(err <= 1e-12)) printf("    n = %d, lanes = %d: max diff %.3g\n", n, lanes[l], err);
      CHECK(err <= 1e-12);
    }
}

int main(void) {
  RUN(thomas_matches_dense_solve);
  RUN(thomas_hand_computed_3x3);
  RUN(thomas_ignores_a0_and_last_c);
  RUN(heat_gold_is_symmetric_and_decays);
  RUN(residual_of_exact_solution_is_zero_and_nan_is_infinite);
  RUN(batch_gold_matches_single_systems);
  RUN(pcr_model_matches_thomas);
  RUN(pcr_model_heat_equation);
  RUN(hybrid_chunks_cover_the_rows);
  RUN(hybrid_model_matches_thomas);
  return test_summary();
}
