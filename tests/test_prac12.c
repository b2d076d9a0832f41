/*
 * test_prac12.c -- CPU tests of practical 12's gold routines (../prac12/prac12_gold.c): the course's inputs, the
 * steps of x = sqrt(|cos x|) and their fixed point, and the tolerance of prac12_gold.h held against its argument:
 * a GPU whose every step errs as far as its cos and sqrt may (more: 2.5 ulp and 1.5 ulp), the sign of each error
 * chosen to push it away from the gold, stays within the bound argued there; a value the kernel never reached, or
 * a step too few or too many at small -iters, never passes; NaN and Inf never do.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../prac12/prac12_gold.h"
#include "gold_check.h"
#include "test.h"

#define N (1 << 14)
#define EPS DBL_EPSILON

// prac12_gold.h's worst case for this test's GPU: a step adds 2.5/2 + 1.5 ulp (its cos, then its sqrt) and the
// gold's 1/2 + 1/2, and a difference shrinks by tan(1)/2 = 0.7787 (0.779 rounded up) a step at least
#define SIM_BOUND ((2.5 / 2 + 1.5 + 1) / (1 - 0.779) * EPS)

static double gold_steps(double x, int iters) {
  prac12_gold(&x, 1, iters);
  return x;
}

TEST(inputs_are_the_course_s) {
  static double x[N], y[N];
  prac12_inputs(x, N, 1.0);
  srand(0);
  for (int i = 0; i < N; i++) CHECK(x[i] == (double)rand() / (double)RAND_MAX);
  for (int i = 0; i < N; i++) CHECK(x[i] >= 0.0 && x[i] <= 1.0);
  prac12_inputs(y, N, -1.0); // kernel_overlap's: the same, negated, so the same again after a call in between
  for (int i = 0; i < N; i++) CHECK(y[i] == -x[i] && y[i] <= 0.0);
}

TEST(gold_steps_are_do_work_s) {
  static double x[N], y[N];
  prac12_inputs(x, N, 1.0);
  memcpy(y, x, sizeof(x));
  prac12_gold(y, N, 1);
  for (int i = 0; i < N; i++) CHECK(y[i] == sqrt(fabs(cos(x[i]))));
  memcpy(y, x, sizeof(x));
  prac12_gold(y, N, 0);
  CHECK(memcmp(x, y, sizeof(x)) == 0);
  // 7 steps are 3 steps then 4, and every value lands in [sqrt(cos 1), 1] = [0.735, 1]
  for (int i = 0; i < N; i += 97) CHECK(gold_steps(x[i], 7) == gold_steps(gold_steps(x[i], 3), 4));
  prac12_inputs(y, N, -1.0);
  prac12_gold(y, N, 1);
  for (int i = 0; i < N; i++) CHECK(y[i] >= sqrt(cos(1.0)) && y[i] <= 1.0);
}

TEST(fixed_point_after_200_steps) {
  long double f = 0.8L; // Newton's method on f^2 = cos f, in long double: the constant is its double
  for (int k = 0; k < 50; k++) f -= (f * f - cosl(f)) / (2 * f + sinl(f));
  CHECK((double)f == PRAC12_FIXED_POINT);
  static double x[N];
  prac12_inputs(x, N, -1.0);
  prac12_gold(x, N, 200);
  for (int i = 0; i < N; i++) CHECK(fabs(x[i] - PRAC12_FIXED_POINT) <= 4 * EPS);
  // so a step more or less cannot be seen at 200 (the tolerance's note), but can at 1 to 5 (next test)
  prac12_inputs(x, N, 1.0);
  for (int i = 0; i < N; i += 61) CHECK(fabs(gold_steps(x[i], 199) - gold_steps(x[i], 200)) <= PRAC12_RTOL);
}

// The tolerance, against its argument: this GPU's cos is the true cos rounded (cosl, then to double: half an
// ulp) and then moved 2 ulp, its sqrt rounded and then moved 1 ulp, up or down, whichever takes it farther from
// the gold's next value. Also checked: glibc's cos within 1 ulp of cosl at every value visited (the argument
// assumes it). Returns the worst relative difference seen over iters steps from each of n inputs.
static double ulps_off(double v, long double truth) {
  return (double)(fabsl((long double)v - truth) / (nextafter(v, INFINITY) - v));
}

static double adversary(const double *x0, int n, int iters, double *glibc_ulps) {
  double worst = 0.0;
  for (int i = 0; i < n; i++) {
    double y = x0[i], z = x0[i]; // the GPU's, the gold's
    for (int k = 0; k < iters; k++) {
      double z1 = gold_steps(z, 1);
      double c = (double)cosl((long double)y), best = y;
      for (int dir = -1; dir <= 1; dir += 2) {
        double cc = nextafter(nextafter(c, dir * INFINITY), dir * INFINITY);
        double s = nextafter(sqrt(cc), dir * INFINITY);
        if (dir == -1 || fabs(s - z1) > fabs(best - z1)) best = s;
      }
      double u = ulps_off(cos(z), cosl((long double)z));
      if (u > *glibc_ulps) *glibc_ulps = u;
      y = best, z = z1;
      double d = fabs(y - z) / fabs(z);
      if (d > worst) worst = d;
    }
  }
  return worst;
}

TEST(tolerance_covers_the_worst_gpu) {
  static double x[N];
  double glibc_ulps = 0.0, worst = 0.0;
  for (int sign = -1; sign <= 1; sign += 2) {
    prac12_inputs(x, N / 8, (double)sign);
    int steps[] = {1, 2, 5, 20, 200};
    for (int s = 0; s < 5; s++) {
      double w = adversary(x, N / 8, steps[s], &glibc_ulps);
      if (w > worst) worst = w;
    }
  }
  printf("    worst relative difference seen: %.2f DBL_EPSILON (bound %.1f, tolerance %.0f); glibc's cos %.2f ulp "
         "from cosl at most\n",
         worst / EPS, SIM_BOUND / EPS, PRAC12_RTOL / EPS, glibc_ulps);
  CHECK(glibc_ulps <= 1.0);
  CHECK(worst > 2 * EPS); // the adversary does push
  CHECK(worst <= SIM_BOUND);
  CHECK(SIM_BOUND < PRAC12_RTOL / 3);
  // the contraction factor: x tan(x) / 2 at most tan(1) / 2 on [-1, 1], 0.445 at the fixed point
  for (double v = -1.0; v <= 1.0; v += 1.0 / 1024) CHECK(v * tan(v) / 2 <= 0.779);
  CHECK(fabs(PRAC12_FIXED_POINT * tan(PRAC12_FIXED_POINT) / 2 - 0.4453) < 1e-4);
}

static size_t passing(const double *out, const double *gold, int n) {
  gold_stats st;
  return (size_t)n - compare_double(out, gold, (size_t)n, 0.0, PRAC12_RTOL, &st);
}

TEST(unreached_values_and_wrong_step_counts_fail) {
  static double x[N], gold[N], wrong[N];
  for (int sign = -1; sign <= 1; sign += 2) {
    prac12_inputs(x, N, (double)sign);
    int iters[] = {1, 2, 5, 20, 200};
    for (int s = 0; s < 5; s++) {
      memcpy(gold, x, sizeof(x));
      prac12_gold(gold, N, iters[s]);
      CHECK(passing(gold, gold, N) == N);
      CHECK(passing(x, gold, N) == 0); // the inputs, left as they were: a kernel or a copy that never ran
    }
    // a step too few or too many, at 1 to 5 steps
    for (int it = 1; it <= 5; it++) {
      memcpy(gold, x, sizeof(x));
      prac12_gold(gold, N, it);
      memcpy(wrong, x, sizeof(x));
      prac12_gold(wrong, N, it - 1);
      CHECK(passing(wrong, gold, N) == 0);
      prac12_gold(wrong, N, 2);
      CHECK(passing(wrong, gold, N) == 0);
    }
  }
}

TEST(compare_nan_inf_and_the_tolerance_s_edge) {
  static double x[N], gold[N], out[N];
  prac12_inputs(x, N, 1.0);
  memcpy(gold, x, sizeof(x));
  prac12_gold(gold, N, 20);
  memcpy(out, gold, sizeof(out));
  out[5] = NAN, out[6] = INFINITY, out[7] = -INFINITY;
  CHECK(passing(out, gold, N) == N - 3);
  memset(out, 0xff, sizeof(out)); // the poison work_streaming's device array starts with
  CHECK(isnan(out[0]) && passing(out, gold, N) == 0);
  for (int i = 0; i < N; i++) out[i] = gold[i] * (1 + 32 * EPS); // inside the tolerance, past the argued bound
  CHECK(passing(out, gold, N) == N);
  for (int i = 0; i < N; i++) out[i] = gold[i] * (1 + 80 * EPS);
  CHECK(passing(out, gold, N) == 0);
}

int main(void) {
  RUN(inputs_are_the_course_s);
  RUN(gold_steps_are_do_work_s);
  RUN(fixed_point_after_200_steps);
  RUN(tolerance_covers_the_worst_gpu);
  RUN(unreached_values_and_wrong_step_counts_fail);
  RUN(compare_nan_inf_and_the_tolerance_s_edge);
  return test_summary();
}
