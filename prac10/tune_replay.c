/*
 * tune_replay.c -- replay: a strategy run over a recorded log instead of over programs, to ask how soon it comes
 * within 2 % of the best, in evaluations and in the seconds the runs took. The config gives the values and their
 * order, the tree, the restrictions and the direction; the log must be this config's (tune_log.c checks its "# "
 * lines) and must hold every allowed configuration of the full product, so that no evaluation is free. Make one
 * with random search past the number of configurations: -strategy=random -samples=N runs each once.
 * The goal: every trial within 2 % in at most a quarter of the allowed configurations (the default budget).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

/* a row of the log: a later row of the same configuration counts, unless it is a retry */
static int replay_row(void *ctx, const tune_row *row) {
  tune_replay *rp = ctx;
  long long lin = tune_linear(rp->conf, row->idx);
  if (tune_allowed(rp->conf, row->idx, NULL) != 1) return 0; /* left out by the config's restrictions */
  if (rp->status[lin] != 0 && row->r.retry) return 0;
  if (rp->status[lin] == 0) rp->nrows++;
  rp->status[lin] = (signed char)row->r.status;
  rp->cost[lin] = INFINITY;
  if (row->r.status == EVAL_OK) rp->cost[lin] = rp->conf->maximise ? -row->r.overall : row->r.overall;
  rp->seconds[lin] = row->r.seconds;
  rp->id[lin] = row->id;
  return 0;
}

int tune_replay_load(const char *path, const tune_conf *c, tune_replay *rp, char *msg, size_t len) {
  memset(rp, 0, sizeof(*rp));
  rp->conf = c;
  rp->space = tune_space_size(c);
  rp->status = calloc((size_t)rp->space, sizeof(signed char));
  rp->cost = calloc((size_t)rp->space, sizeof(double));
  rp->seconds = calloc((size_t)rp->space, sizeof(double));
  rp->id = calloc((size_t)rp->space, sizeof(long long));
  if (!rp->status || !rp->cost || !rp->seconds || !rp->id) {
    snprintf(msg, len, "out of memory");
    return -1;
  }
  int rc = tune_log_read(path, c, replay_row, rp, &rp->info, msg, len);
  if (rc == 1) snprintf(msg, len, "cannot read the log %s (no file, or an empty one)", path);
  if (rc != 0) return -1;
  long long allowed = rp->space - c->nrestricted, missing = allowed - rp->nrows;
  if (missing > 0) {
    snprintf(msg, len,
             "the log %s holds %lld of the %lld allowed configurations, %lld missing: replay needs them all "
             "(make it with -strategy=random -samples=%lld, which runs every one)",
             path, rp->nrows, allowed, missing, allowed);
    return -1;
  }
  rp->best_lin = -1;
  for (long long lin = 0; lin < rp->space; lin++) {
    if (rp->status[lin] != EVAL_OK) continue;
    rp->nok++;
    int better = rp->best_lin < 0 || rp->cost[lin] < rp->best_cost;
    int tie_earlier = rp->best_lin >= 0 && rp->cost[lin] == rp->best_cost && rp->id[lin] < rp->id[rp->best_lin];
    if (better || tie_earlier) {
      rp->best_cost = rp->cost[lin];
      rp->best_lin = lin;
    }
  }
  if (rp->nok == 0) {
    snprintf(msg, len, "the log %s has no configuration with a score", path);
    return -1;
  }
  return 0;
}

void tune_replay_free(tune_replay *rp) {
  free(rp->status);
  free(rp->cost);
  free(rp->seconds);
  free(rp->id);
  memset(rp, 0, sizeof(*rp));
}

typedef struct {
  tune_replay *rp;
  double target, seconds;
  int hit;
} replay_ctx;

static tune_eval replay_eval(void *ctx, const int *idx) {
  replay_ctx *x = ctx;
  long long lin = tune_linear(x->rp->conf, idx);
  tune_eval r = {x->rp->status[lin], x->rp->cost[lin], 0};
  x->seconds += x->rp->seconds[lin];
  if (r.status == EVAL_OK && r.cost <= x->target) x->hit = 1;
  r.stop = x->hit;
  return r;
}

/* One trial: the evaluations (and recorded seconds) until the strategy first holds a configuration within
 * `within` (0.02: 2 %) of the log's best. Returns 1 when it got there, 0 when the budget or the space ran out. */
int tune_replay_trial(tune_replay *rp, int strategy, long long budget, long long samples, unsigned long long seed,
                      double within, long long *evals, double *seconds) {
  replay_ctx x = {rp, rp->best_cost + within * fabs(rp->best_cost), 0, 0};
  tune_search s;
  *evals = 0;
  *seconds = 0;
  if (tune_search_init(&s, rp->conf, replay_eval, &x, budget, seed)) return 0;
  tune_search_run(&s, strategy, samples);
  *evals = s.evals;
  *seconds = x.seconds;
  tune_search_free(&s);
  return x.hit;
}

/* the median and worst of the trials' numbers, those that never got there counted as the worst */
static void summary(const char *what, const double *x, int trials, int hits, const char *unit) {
  tune_stat st;
  tune_stats(x, trials, &st);
  printf("%s until within the target: median ", what);
  if (2 * hits > trials)
    printf("%.1f%s", st.median, unit);
  else
    printf("not reached");
  if (hits == trials)
    printf(", worst %.1f%s\n", st.max, unit);
  else
    printf(", worst: not reached in %d of %d trials\n", trials - hits, trials);
}

int tune_replay_report(const tune_conf *c, const char *path, int strategy, long long budget, long long samples,
                       int seed, int trials, double within) {
  tune_replay rp;
  char msg[TUNE_MSG_LEN * 2], desc[1024];
  if (tune_replay_load(path, c, &rp, msg, sizeof(msg))) {
    tune_replay_free(&rp);
    printf("RESULT: FAIL (bad input: %s)\n", msg);
    return 1;
  }
  long long allowed = rp.space - c->nrestricted, quarter = tune_quarter(c), evals;
  double best = c->maximise ? -rp.best_cost : rp.best_cost, secs;
  int best_idx[TUNE_MAX_VARS];
  tune_unlinear(c, rp.best_lin, best_idx);
  tune_describe(c, best_idx, desc, sizeof(desc));
  printf("tune: replay of '%s': all %lld allowed configurations (%lld scored, %lld dropped)%s\n", path, allowed, rp.nok,
         allowed - rp.nok, rp.info.skipped ? "; some rows could not be read" : "");
  printf("The log's best: %s: %.6g (test %lld); the target, within %g %%: %s %.6g\n", desc, best, rp.id[rp.best_lin],
         100 * within, c->maximise ? ">=" : "<=", best + (c->maximise ? -1 : 1) * within * fabs(best));
  int hit = tune_replay_trial(&rp, STRATEGY_EXHAUSTIVE, 0, 0, 1, within, &evals, &secs);
  printf("Exhaustive, the course's tree of %lld tests: ", tune_tree_count(c, 0));
  if (hit)
    printf("within the target after %lld (%.1f recorded seconds)\n", evals, secs);
  else
    printf("never within the target (the tree's independence does not hold here)\n");
  tune_defaults(c, strategy, &budget, &samples);
  if (budget > 0)
    printf("Strategy: %s, budget %lld evaluations", tune_strategy_name(strategy), budget);
  else
    printf("Strategy: %s, no budget", tune_strategy_name(strategy));
  if (strategy == STRATEGY_RANDOM) printf(", %lld samples", samples);
  printf(", seeds %d to %d\n", seed, seed + trials - 1);
  double *e = malloc(sizeof(double) * (size_t)trials), *t = malloc(sizeof(double) * (size_t)trials);
  int hits = 0, goal = 0;
  if (!e || !t) trials = 0; /* no memory: no trials, and the goal line says 0 of 0 */
  for (int k = 0; k < trials; k++) {
    hit = tune_replay_trial(&rp, strategy, budget, samples, (unsigned long long)(seed + k), within, &evals, &secs);
    hits += hit;
    goal += hit && evals <= quarter;
    if (trials <= 20 || !hit)
      printf("  seed %d: %s %lld evaluations, %.1f recorded seconds\n", seed + k,
             hit ? "within the target after" : "NOT within the target after", evals, secs);
    e[k] = hit ? (double)evals : INFINITY; /* never got there: the worst */
    t[k] = hit ? secs : INFINITY;
  }
  if (trials > 0) {
    summary("Evaluations", e, trials, hits, "");
    summary("Recorded seconds", t, trials, hits, " s");
  }
  free(e);
  free(t);
  tune_replay_free(&rp);
  printf("The 25 %% goal, within the target in at most %lld evaluations (a quarter of the %lld allowed): met in %d of "
         "%d trials\n",
         quarter, allowed, goal, trials);
  if (goal < trials || trials == 0) {
    /* built from the learner's starting file (exercises/tune_hill.c), the line says which TODO is not done */
    int todo = strategy == STRATEGY_HILL && tune_exercise_todo[0];
    printf("RESULT: FAIL (%sthe 25 %% goal: %d of %d trials needed more than %lld evaluations%s%s)\n",
           todo ? "exercise not done: " : "", trials - goal, trials, quarter, todo ? "; " : "",
           todo ? tune_exercise_todo : "");
    return 1;
  }
  printf("RESULT: PASS\n");
  return 0;
}
