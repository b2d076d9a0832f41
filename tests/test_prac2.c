/*
 * test_prac2.c -- CPU tests of practical 2's gold routines: the path model on hand-checked inputs, the two
 * layouts, the edge-path bound, the path-by-path comparison, the independent generator and the statistics.
 */
#include <string.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "test.h"
#include "../prac2/prac2_gold.h"


static const double T = 1.0, R = 0.05, SIGMA = 0.1, RHO = 0.5;
#define DISC 0.95122942450071400909 /* exp(-0.05) */

/* ---- the path model ---- */

TEST(one_step_by_hand) {
  /* N = 1: con1 = 1.05, con2 = 0.1, alpha = sqrt(0.75) = 0.8660; normals per path (Z1, Z2), strided layout */
  float z[] = {0.0f, 0.0f,   /* S1 = S2 = 1.05: inside, pays exp(-0.05) */
               1.0f, -1.0f,  /* S1 = 1.15: outside (Y2 = 0.5 - 0.866, S2 = 1.0134) */
               0.0f, 1.0f,   /* Y2 = 0.866, S2 = 1.1366: outside */
               -1.0f, 0.5f,  /* S1 = 0.95, Y2 = -0.5 + 0.433 = -0.067, S2 = 1.0433: inside */
               -1.5f, 0.0f}; /* S1 = 0.9: on the edge */
  double pay[5];
  unsigned char edge[5];
  pathcalc_gold(z, 5, 1, 2, 1, T, R, SIGMA, RHO, pay, edge);
  CHECK_NEAR(pay[0], DISC, 1e-15);
  CHECK(pay[1] == 0.0 && pay[2] == 0.0);
  CHECK_NEAR(pay[3], DISC, 1e-15);
  CHECK(!edge[0] && !edge[1] && !edge[2] && !edge[3]);
  CHECK(edge[4]);
}

TEST(two_steps_by_hand) {
  /* N = 2: con1 = 1.025, con2 = 0.1*sqrt(0.5) = 0.0707107. With Z1 = z in both steps and Z2 chosen so that
   * Y2 = 0: S1 = (1.025 + 0.0707107 z)^2, which is 1.0946 for z = 0.3 (inside) and 1.1020 for z = 0.35 */
  float alpha = (float)sqrt(0.75);
  float z[] = {0.3f, -0.5f * 0.3f / alpha, 0.3f, -0.5f * 0.3f / alpha,
               0.35f, -0.5f * 0.35f / alpha, 0.35f, -0.5f * 0.35f / alpha,
               0.0f, 0.0f, 0.0f, 0.0f}; /* S = 1.025^2 = 1.050625 */
  double pay[3];
  unsigned char edge[3];
  pathcalc_gold(z, 3, 2, 4, 1, T, R, SIGMA, RHO, pay, edge);
  CHECK_NEAR(pay[0], DISC, 1e-15);
  CHECK(pay[1] == 0.0);
  CHECK_NEAR(pay[2], DISC, 1e-15);
  CHECK(!edge[0] && !edge[1] && !edge[2]);
}

/* deterministic normals for the layout tests */
static float test_normal(uint64_t k) {
  double z1, z2;
  mc_normal_pair(99, k, &z1, &z2);
  return (float)z1;
}

TEST(layouts_agree_and_a_wrong_index_is_caught) {
  enum { NP = 1000, NS = 10 };
  static float z1[NP * 2 * NS], z2[NP * 2 * NS];
  static double pay1[NP], pay2[NP], payw[NP];
  static unsigned char e1[NP], e2[NP], ew[NP];
  for (int p = 0; p < NP; p++)
    for (int j = 0; j < 2 * NS; j++) {
      float v = test_normal((uint64_t)p * 2 * NS + j);
      z1[j * NP + p] = v;     /* version 1: coalesced */
      z2[p * 2 * NS + j] = v; /* version 2: strided */
    }
  pathcalc_gold(z1, NP, NS, 1, NP, T, R, SIGMA, RHO, pay1, e1);
  pathcalc_gold(z2, NP, NS, 2 * NS, 1, T, R, SIGMA, RHO, pay2, e2);
  int same = 1, ninside = 0;
  for (int p = 0; p < NP; p++) {
    same &= pay1[p] == pay2[p] && e1[p] == e2[p];
    ninside += pay1[p] > 0.0;
  }
  CHECK(same);
  CHECK(ninside > 100 && ninside < 900); /* a real mix of both payoffs */

  /* the version-1 array read as if it were version 2: a kernel with the wrong index */
  pathcalc_gold(z1, NP, NS, 2 * NS, 1, T, R, SIGMA, RHO, payw, ew);
  float gpu[NP];
  for (int p = 0; p < NP; p++) gpu[p] = (float)payw[p];
  size_t nflip;
  long long first;
  size_t nbad = payoff_compare(gpu, pay1, e1, NP, DISC, &nflip, &first);
  CHECK(nbad > 100);
  CHECK(first >= 0);
}

/* The GPU's arithmetic, done in float on the CPU: con1 and con2 rounded to float, an fma, a product. */
static float gpu_like_path(const float *z, int N, int *inside) {
  float dt = 1.0f / N;
  float con1 = (float)(1.0 + 0.05 * dt), con2 = (float)(sqrt((double)dt) * 0.1);
  float rho = 0.5f, alpha = (float)sqrt(0.75);
  float s1 = 1.0f, s2 = 1.0f;
  for (int n = 0; n < N; n++) {
    float y1 = z[2 * n], y2 = fmaf(rho, y1, alpha * z[2 * n + 1]);
    s1 = s1 * fmaf(con2, y1, con1);
    s2 = s2 * fmaf(con2, y2, con1);
  }
  *inside = fabsf(s1 - 1.0f) < 0.1f && fabsf(s2 - 1.0f) < 0.1f;
  return s1;
}

TEST(float_paths_stay_within_the_edge_width) {
  /* 20000 paths of 100 steps in float against double: every disagreement must be an edge path, and the
   * float S must stay within the edge width of the double S (the bound the comparison relies on) */
  enum { NP = 20000, NS = 100 };
  static float z[2 * NS * NP], gpu[NP];
  static double pay[NP];
  static unsigned char edge[NP];
  for (size_t i = 0; i < (size_t)2 * NS * NP; i++) z[i] = test_normal(i);
  pathcalc_gold(z, NP, NS, 2 * NS, 1, T, R, SIGMA, RHO, pay, edge);
  double width = pathcalc_edge_width(NS), worst = 0.0;
  size_t nedge = 0;
  for (int p = 0; p < NP; p++) {
    int inside;
    double sf = gpu_like_path(z + (size_t)p * 2 * NS, NS, &inside);
    double sd = 1.0;
    for (int n = 0; n < NS; n++) sd *= 1.0 + 0.05 / NS + 0.1 * sqrt(1.0 / NS) * z[(size_t)p * 2 * NS + 2 * n];
    if (fabs(sf - sd) > worst) worst = fabs(sf - sd);
    gpu[p] = inside ? (float)DISC : 0.0f;
    nedge += edge[p];
  }
  CHECK(worst < width);
  CHECK(worst < 0.5 * width); /* the bound is worst-case; typical errors are far smaller */
  size_t nflip;
  long long first;
  CHECK(payoff_compare(gpu, pay, edge, NP, DISC, &nflip, &first) == 0);
  CHECK(nflip <= nedge);
  CHECK(nedge < NP / 100); /* width 3e-5 at N = 100: about 0.05 % of paths */
  CHECK_NEAR(width, 501.0 / 16777216.0, 1e-18);
}

TEST(payoff_compare_flips_and_errors) {
  double gold[6] = {DISC, 0.0, DISC, 0.0, DISC, 0.0};
  unsigned char edge[6] = {0, 0, 1, 1, 1, 1};
  float ok[6] = {(float)DISC, 0.0f, 0.0f, (float)DISC, (float)DISC, 0.0f};
  size_t nflip;
  long long first;
  CHECK(payoff_compare(ok, gold, edge, 6, DISC, &nflip, &first) == 0);
  CHECK(nflip == 2 && first == -1);

  float off_edge[6] = {0.0f, 0.0f, (float)DISC, 0.0f, (float)DISC, 0.0f}; /* path 0 flips, not an edge path */
  CHECK(payoff_compare(off_edge, gold, edge, 6, DISC, &nflip, &first) == 1);
  CHECK(first == 0 && nflip == 0);

  float junk[6] = {(float)DISC, 0.0f, NAN, 0.5f, (float)DISC, 0.0f}; /* NaN and 0.5: errors, edge or not */
  CHECK(payoff_compare(junk, gold, edge, 6, DISC, &nflip, &first) == 2);
  CHECK(first == 2);
}

TEST(mean_and_error_by_hand) {
  float v[4] = {1.0f, 0.0f, 1.0f, 0.0f};
  double avg, err;
  mean_and_error(v, 4, &avg, &err);
  CHECK_NEAR(avg, 0.5, 1e-15);
  CHECK_NEAR(err, 0.25, 1e-15); /* sqrt(0.25 / 4) */
  float same[3] = {2.0f, 2.0f, 2.0f};
  mean_and_error(same, 3, &avg, &err);
  CHECK(avg == 2.0 && err == 0.0);
}

/* ---- the independent generator and the statistical comparison ---- */

TEST(splitmix64_reference_values) {
  /* the published SplitMix64 sequence from state 0 */
  CHECK(mc_splitmix64(0, 0) == 0xe220a8397b1dcdafull);
  CHECK(mc_splitmix64(0, 1) == 0x6e789e6aa1b965f4ull);
  CHECK(mc_splitmix64(0, 2) == 0x06c45d188009454full);
}

TEST(box_muller_moments) {
  enum { NPAIRS = 200000 };
  double s = 0.0, s2 = 0.0, s12 = 0.0, s4 = 0.0;
  for (int k = 0; k < NPAIRS; k++) {
    double z1, z2;
    mc_normal_pair(1234, (uint64_t)k, &z1, &z2);
    s += z1 + z2;
    s2 += z1 * z1 + z2 * z2;
    s4 += z1 * z1 * z1 * z1 + z2 * z2 * z2 * z2;
    s12 += z1 * z2;
  }
  double n = 2.0 * NPAIRS;
  CHECK_NEAR(s / n, 0.0, 5.0 / sqrt(n));                    /* mean 0, sd 1 */
  CHECK_NEAR(s2 / n, 1.0, 5.0 * sqrt(2.0 / n));             /* E z^2 = 1, Var z^2 = 2 */
  CHECK_NEAR(s4 / n, 3.0, 5.0 * sqrt(96.0 / n));            /* E z^4 = 3, Var z^4 = 96 */
  CHECK_NEAR(s12 / NPAIRS, 0.0, 5.0 / sqrt((double)NPAIRS)); /* the pair is uncorrelated */
}

TEST(cpu_monte_carlo_without_noise) {
  /* sigma = 0: every path is S = (1 + r/N)^N = 1.0513, inside, so the estimate is exp(-rT) exactly */
  double avg, err;
  mc_cpu_estimate(1000, 100, T, R, 0.0, RHO, 1, &avg, &err);
  CHECK_NEAR(avg, DISC, 1e-13); /* 1000 equal terms summed in double */
  CHECK(err < 1e-7);
}

TEST(cpu_monte_carlo_matches_the_course_value) {
  /* the course's published value 0.4179 (+-0.00015 on 9.6 M paths) within 4 standard errors */
  double avg, err;
  mc_cpu_estimate(200000, 100, T, R, SIGMA, RHO, 42, &avg, &err);
  printf("    CPU Monte Carlo, 200000 paths: %.5f +- %.5f, z = %.2f against 0.4179\n", avg, err,
         mc_zscore(avg, err, 0.4179, 0.00015));
  CHECK(fabs(mc_zscore(avg, err, 0.4179, 0.00015)) < 4.0);
  CHECK(err > 0.0005 && err < 0.0015); /* sd of a payoff ~0.47: err ~ 0.47 / sqrt(2e5) = 0.00105 */
}

TEST(zscore_by_hand) {
  CHECK_NEAR(mc_zscore(1.0, 0.3, 0.5, 0.4), 1.0, 1e-15); /* 0.5 / sqrt(0.09 + 0.16) */
  CHECK_NEAR(mc_zscore(0.5, 0.3, 1.0, 0.4), -1.0, 1e-15);
  CHECK(mc_zscore(2.0, 0.0, 2.0, 0.0) == 0.0);
  CHECK(isinf(mc_zscore(2.0, 0.0, 1.0, 0.0)));
}

/* ---- prac2_quad ---- */

TEST(quad_gold_by_hand) {
  float z[4] = {0.0f, 1.0f, -1.0f, 2.0f};
  double sum, sum_abs;
  quad_gold(z, 4, 1.0f, -2.0f, -3.0f, &sum, &sum_abs); /* z^2 - 2z - 3: -3, -4, 0, -3 */
  CHECK_NEAR(sum, -10.0, 1e-15);
  CHECK_NEAR(sum_abs, 10.0, 1e-15);
  CHECK(quad_term(0.5f, 1.0f, 2.0f, 3.0f) == 4.25f);
  double part[3], part_abs[3];
  quad_gold_partials(z, 4, 3, 1.0f, -2.0f, -3.0f, part, part_abs); /* thread 0 takes terms 0 and 3 */
  CHECK(part[0] == -6.0 && part[1] == -4.0 && part[2] == 0.0 && part_abs[0] == 6.0);
  CHECK_NEAR(quad_tolerance(0, 4, 1.0), 4.0 * 0x1.0p-53, 1e-30);
  CHECK(quad_tolerance(100, 4, 1.0) > quad_tolerance(10, 4, 1.0));
}

TEST(quad_float_sums_within_tolerance) {
  /* method 1 on the CPU: float partial sums over a grid-stride share, each within its tolerance; a thread
   * that skips one term is caught */
  enum { NZ = 100000, THREADS = 1000 };
  static float z[NZ];
  static double part[THREADS], part_abs[THREADS];
  for (int i = 0; i < NZ; i++) z[i] = test_normal((uint64_t)i);
  float a = 1.5f, b = -0.75f, c = 0.25f;
  quad_gold_partials(z, NZ, THREADS, a, b, c, part, part_abs);
  int all_ok = 1, skip_caught = 1;
  double total = 0.0;
  for (int t = 0; t < THREADS; t++) {
    float s = 0.0f, s_skip = 0.0f;
    for (int i = t; i < NZ; i += THREADS) {
      s += quad_term(z[i], a, b, c);
      if (i != t) s_skip += quad_term(z[i], a, b, c);
    }
    double tol = quad_tolerance(NZ / THREADS, NZ / THREADS, part_abs[t]);
    all_ok &= fabs(s - part[t]) <= tol;
    skip_caught &= fabs(s_skip - part[t]) > tol;
    total += s;
  }
  CHECK(all_ok);
  CHECK(skip_caught);
  double sum, sum_abs;
  quad_gold(z, NZ, a, b, c, &sum, &sum_abs);
  CHECK(fabs(total - sum) <= quad_tolerance(NZ / THREADS, NZ, sum_abs));
  CHECK_NEAR(sum / NZ, a + c, 4.0 * sqrt((2.0 * a * a + b * b) / NZ)); /* E = a + c, Var = 2a^2 + b^2 */
}

/* method 2b's reference partial sums: bit for bit the kernel's strided loop (thread t adds terms t, t + T, ...
 * in a float from 0), at a size the thread count does not divide */
TEST(quad_float_partials_are_the_strided_loop) {
  enum { N = 10007, T = 37 };
  static float z[N], part[T];
  unsigned s = 12345u;
  for (int i = 0; i < N; i++) s = s * 1664525u + 1013904223u, z[i] = ((int)(s >> 9) - (1 << 22)) / (float)(1 << 21);
  quad_gold_float_partials(z, N, T, 1.0f, 2.0f, 3.0f, part);
  int same = 1;
  for (int t = 0; t < T; t++) {
    float loop = 0.0f;
    for (int i = t; i < N; i += T) loop += quad_term(z[i], 1.0f, 2.0f, 3.0f);
    same = same && memcmp(&loop, &part[t], sizeof(float)) == 0;
  }
  CHECK(same);
}

int main(void) {
  RUN(one_step_by_hand);
  RUN(two_steps_by_hand);
  RUN(layouts_agree_and_a_wrong_index_is_caught);
  RUN(float_paths_stay_within_the_edge_width);
  RUN(payoff_compare_flips_and_errors);
  RUN(mean_and_error_by_hand);
  RUN(splitmix64_reference_values);
  RUN(box_muller_moments);
  RUN(cpu_monte_carlo_without_noise);
  RUN(cpu_monte_carlo_matches_the_course_value);
  RUN(zscore_by_hand);
  RUN(quad_gold_by_hand);
  RUN(quad_float_sums_within_tolerance);
  RUN(quad_float_partials_are_the_strided_loop);
  return test_summary();
}
