/*
 * tune_retime.c -- the best few configurations timed again, interleaved (A B C A B C ...), so that a drift of the
 * machine (clocks, temperature, another user) falls on all of them alike; then the noise rule: when the runner-up
 * is within the noise of the best, tune says so and picks by a stated rule. Each keeps its own binary while the
 * rounds run (the config names it by %%ID%%), so every run of A times A.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* n numbers: all zero when n is 0 (or there is no memory to sort them) */
void tune_stats(const double *x, int n, tune_stat *s) {
  double *y = n > 0 ? malloc(sizeof(double) * (size_t)n) : NULL, sum = 0, sq = 0;
  memset(s, 0, sizeof(*s));
  if (!y) return;
  memcpy(y, x, sizeof(double) * (size_t)n);
  qsort(y, (size_t)n, sizeof(double), cmp_double);
  for (int i = 0; i < n; i++) sum += y[i];
  s->n = n;
  s->mean = sum / n;
  for (int i = 0; i < n; i++) sq += (y[i] - s->mean) * (y[i] - s->mean);
  s->sd = n > 1 ? sqrt(sq / (n - 1)) : 0;
  s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : 0;
  s->min = y[0];
  s->max = y[n - 1];
  s->median = n % 2 ? y[n / 2] : 0.5 * (y[n / 2 - 1] + y[n / 2]);
  free(y);
}

double tune_aggregate(const double *x, int n, int agg) {
  tune_stat s;
  tune_stats(x, n, &s);
  if (agg == AGG_MIN) return s.min;
  if (agg == AGG_MAX) return s.max;
  if (agg == AGG_MED) return s.median;
  return s.mean;
}

/* the runner-up is within the noise of the best: their ranges overlap, or their medians differ by no more than
 * the larger coefficient of variation of the two */
int tune_within_noise(const tune_stat *best, const tune_stat *second) {
  if (second->min <= best->max && best->min <= second->max) return 1;
  return fabs(second->median - best->median) <= fmax(best->cv, second->cv) * fabs(best->median);
}

/* the order of the re-timed by median, best first; a tie keeps the search's order */
static int rank(const tune_conf *c, const int *ok, const tune_stat *st, int k, int *order) {
  int m = 0;
  for (int j = 0; j < k; j++) {
    if (!ok[j]) continue;
    int b = m;
    while (b > 0) {
      double here = st[j].median, before = st[order[b - 1]].median;
      int better = c->maximise ? here > before : here < before;
      if (!better) break;
      order[b] = order[b - 1];
      b--;
    }
    order[b] = j;
    m++;
  }
  return m;
}

static void report(const tune_conf *c, int idx[][TUNE_MAX_VARS], const tune_stat *st, const int *order, int m,
                   const char *unit) {
  char desc[1024];
  for (int a = 0; a < m; a++) {
    const tune_stat *s = &st[order[a]];
    tune_describe(c, idx[order[a]], desc, sizeof(desc));
    printf("  %d. %s: median %.6g %s, range %.6g to %.6g, cv %.1f %%\n", a + 1, desc, s->median, unit, s->min, s->max,
           100 * s->cv);
  }
  if (m >= 2) {
    const tune_stat *b = &st[order[0]], *r = &st[order[1]];
    double apart = 100 * fabs(r->median - b->median) / fabs(b->median);
    int overlap = r->min <= b->max && b->min <= r->max;
    if (tune_within_noise(b, r))
      printf("The best two are within the noise (%s, medians %.2f %% apart): the rule picks the better median, and "
             "on a tie the one the search found first\n",
             overlap ? "their ranges overlap" : "closer than their cv", apart);
    else
      printf("The best is clear of the noise: the runner-up's median is %.2f %% worse, its range apart, the gap over "
             "the cv\n",
             apart);
  }
  if (m > 0) {
    const tune_stat *b = &st[order[0]];
    tune_describe(c, idx[order[0]], desc, sizeof(desc));
    printf("Best: %s: %.6g %s, the median of %d re-times (range %.6g to %.6g)\n", desc, b->median, unit, b->n, b->min,
           b->max);
  }
}

/* k (at most 16) configurations, `rounds` (at most 64) runs each, test numbers first_id on. Returns the index in
 * idx of the pick, or -1 when every one was dropped. */
int tune_retime(const tune_conf *c, int idx[][TUNE_MAX_VARS], int k, int rounds, long long first_id, int verbose,
                const char *unit) {
  double score[16][64];
  int ok[16], n[16] = {0}, order[16];
  tune_stat st[16];
  char why[TUNE_MSG_LEN];
  printf("\nRe-timing the best %d: %d rounds, interleaved (A B C A B C ...), one run of each per round\n", k, rounds);
  for (int j = 0; j < k; j++) {
    ok[j] = tune_compile(c, idx[j], first_id + j, verbose, why, sizeof(why)) == 0;
    if (!ok[j]) printf("  test %lld dropped from the re-timing: %s\n", first_id + j, why);
  }
  for (int r = 0; r < rounds; r++)
    for (int j = 0; j < k; j++) {
      if (!ok[j]) continue;
      if (tune_run_once(c, idx[j], first_id + j, verbose, &score[j][n[j]], why, sizeof(why)) == 0) {
        n[j]++;
      } else {
        ok[j] = 0;
        printf("  test %lld dropped from the re-timing: %s\n", first_id + j, why);
      }
    }
  for (int j = 0; j < k; j++) {
    tune_clean(c, idx[j], first_id + j, verbose);
    if (ok[j]) tune_stats(score[j], n[j], &st[j]);
  }
  int m = rank(c, ok, st, k, order);
  report(c, idx, st, order, m, unit);
  return m > 0 ? order[0] : -1;
}
