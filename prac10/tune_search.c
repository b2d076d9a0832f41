/*
 * tune_search.c -- the strategies over the configurations:
 *   exhaustive  the course's: the variable tree's tests in its order (tune_tree_count says how many);
 *   random      -samples=N distinct configurations, uniformly, within the restrictions;
 *   hill        hill climbing with random restarts over the full product of the values (tune_hill.c, the
 *               learner's exercise), from the pieces here: a random configuration not yet run, a neighbour.
 * Every strategy asks for a configuration through tune_search_point, which leaves out those a restriction
 * forbids, evaluates each other one once and counts it against the budget. What an evaluation is (a program
 * run, a log's row, a test's formula) is the caller's: a callback. The memo holds one entry per configuration of
 * the full product, by its linear index (tune_tree.c), which the config keeps small (TUNE_MAX_SPACE).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

/* splitmix64: a small generator of good quality, the same sequence on every machine for a given -seed */
unsigned long long tune_random(unsigned long long *state) {
  *state += 0x9e3779b97f4a7c15ULL;
  unsigned long long x = *state;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/* the [table]'s default, where the config has one: the first allowed configuration with the values it names (the
 * variables it leaves out, tied to the size by the restrictions, take the one value allowed) */
static void start_point(tune_search *s) {
  const tune_conf *c = s->conf;
  int want[TUNE_MAX_VARS], named[TUNE_MAX_VARS], idx[TUNE_MAX_VARS];
  char why[TUNE_MSG_LEN];
  if (tune_default_index(c, want, named, why, sizeof(why)) != 1) return; /* (a bad one: refused when it was read) */
  for (long long lin = 0; lin < s->space; lin++) {
    tune_unlinear(c, lin, idx);
    int match = 1;
    for (int v = 0; v < c->nvars && match; v++) match = !named[v] || idx[v] == want[v];
    if (match && tune_allowed(c, idx, NULL) == 1) {
      memcpy(s->start, idx, sizeof(int) * c->nvars);
      s->start_due = 1;
      return;
    }
  }
}

int tune_search_init(tune_search *s, const tune_conf *c, tune_eval_fn eval, void *ctx, long long budget,
                     unsigned long long seed) {
  memset(s, 0, sizeof(*s));
  s->conf = c;
  s->eval = eval;
  s->ctx = ctx;
  s->budget = budget;
  s->rng = seed;
  s->best_cost = INFINITY;
  s->space = tune_space_size(c);
  s->status = calloc((size_t)s->space, sizeof(signed char));
  s->cost = calloc((size_t)s->space, sizeof(double));
  s->seen = calloc((size_t)s->space, sizeof(long long));
  if (s->status && s->cost && s->seen) {
    start_point(s);
    return 0;
  }
  tune_search_free(s);
  return -1;
}

void tune_search_free(tune_search *s) {
  free(s->status);
  free(s->cost);
  free(s->seen);
  s->status = NULL;
  s->cost = NULL;
  s->seen = NULL;
}

/* one configuration, evaluated once: a second request answers from the memo and costs nothing */
tune_eval tune_search_point(tune_search *s, const int *idx) {
  long long lin = tune_linear(s->conf, idx);
  tune_eval r = {s->status[lin], s->cost[lin], 0};
  if (r.status != 0) return r;
  if (tune_allowed(s->conf, idx, NULL) != 1) {
    r.status = EVAL_RESTRICTED;
    r.cost = INFINITY;
    s->restricted++;
  } else if (s->stopped || (s->budget > 0 && s->evals >= s->budget)) {
    s->stopped = 1;
    r.status = EVAL_DROPPED;
    r.cost = INFINITY;
    r.stop = 1;
    return r; /* not run: nothing to remember */
  } else {
    r = s->eval(s->ctx, idx);
    if (r.status != EVAL_OK) r.cost = INFINITY;
    s->evals++;
  }
  s->status[lin] = (signed char)r.status;
  s->cost[lin] = r.cost;
  s->seen[s->nseen] = lin;
  s->nseen++;
  if (r.status == EVAL_OK && r.cost < s->best_cost) { /* strictly better: a tie keeps the earlier */
    s->best_cost = r.cost;
    s->found = 1;
    memcpy(s->best, idx, sizeof(int) * (size_t)s->conf->nvars);
  }
  if (r.stop) s->stopped = 1;
  return r;
}

/* ---- exhaustive: the tree, as the course walks it ---------------------------------------------------- */
static void reset_subtree(const tune_conf *c, int n, int *idx) {
  for (int i = 0; i < c->node[n].nvars; i++) idx[c->node[n].vars[i]] = 0;
  for (int i = 0; i < c->node[n].nchildren; i++) reset_subtree(c, c->node[n].children[i], idx);
}

/* For each combination of this level's variables (the first fastest), the sub-lists are tuned one after another
 * from their first values, each left at its best; idx ends at the node's best. Returns its cost. */
static double tree_walk(tune_search *s, int n, int *idx) {
  const tune_node *node = &s->conf->node[n];
  int cur[TUNE_MAX_VARS] = {0}, best_idx[TUNE_MAX_VARS];
  double best = INFINITY;
  for (;;) {
    reset_subtree(s->conf, n, idx);
    for (int i = 0; i < node->nvars; i++) idx[node->vars[i]] = cur[i];
    double cost = INFINITY;
    if (node->nchildren == 0) cost = tune_search_point(s, idx).cost;
    for (int i = 0; i < node->nchildren && !s->stopped; i++) cost = tree_walk(s, node->children[i], idx);
    if (cost < best) {
      best = cost;
      memcpy(best_idx, idx, sizeof(best_idx));
    }
    int i = 0; /* the next combination, the first variable fastest */
    while (i < node->nvars && cur[i] + 1 == s->conf->nvals[node->vars[i]]) {
      cur[i] = 0;
      i++;
    }
    if (i == node->nvars || s->stopped) break;
    cur[i]++;
  }
  if (best < INFINITY)
    memcpy(idx, best_idx, sizeof(best_idx));
  else
    reset_subtree(s->conf, n, idx);
  return best;
}

/* ---- random and hill climbing ---------------------------------------------------------------------------- */
/* a configuration not yet asked for, uniformly: by rejection, then (when nearly all have been asked for) the first
 * one after a random place in the linear order. 0 when none is left. */
int tune_random_unseen(tune_search *s, int *idx) {
  const tune_conf *c = s->conf;
  if (s->nseen >= s->space) return 0;
  if (s->start_due) { /* the program's own defaults first, where the config names them ([table] default) */
    s->start_due = 0;
    if (s->status[tune_linear(c, s->start)] == 0) return memcpy(idx, s->start, sizeof(int) * c->nvars), 1;
  }
  for (int tries = 0; tries < 1000; tries++) {
    for (int v = 0; v < c->nvars; v++) idx[v] = (int)(tune_random(&s->rng) % (unsigned long long)c->nvals[v]);
    if (s->status[tune_linear(c, idx)] == 0) return 1;
  }
  long long lin = (long long)(tune_random(&s->rng) % (unsigned long long)s->space);
  while (s->status[lin] != 0) lin = (lin + 1) % s->space;
  tune_unlinear(c, lin, idx);
  return 1;
}

static void random_search(tune_search *s, long long samples) {
  int idx[TUNE_MAX_VARS];
  long long k = 0;
  while ((samples <= 0 || k < samples) && !s->stopped && tune_random_unseen(s, idx))
    if (tune_search_point(s, idx).status != EVAL_RESTRICTED) k++;
}

/* The neighbour of cur one way (step +1 or -1) along variable v: the next value of v's list that is allowed and
 * does not fail, so that a value that fails (BY = 3 does not compile) is stepped over, not a wall. Values not yet
 * run are run on the way. 1 with nb and its evaluation; 0 at the end of the list. */
int tune_neighbour(tune_search *s, const int *cur, int v, int step, int *nb, tune_eval *there) {
  memcpy(nb, cur, sizeof(int) * TUNE_MAX_VARS);
  for (nb[v] = cur[v] + step; nb[v] >= 0 && nb[v] < s->conf->nvals[v] && !s->stopped; nb[v] += step) {
    *there = tune_search_point(s, nb);
    if (there->status == EVAL_OK) return 1;
  }
  return 0;
}

/* the 2 x nvars moves in random order (move m: variable m / 2, one value down when m is even, up when odd), the
 * move that last improved first (-1: none yet) */
void tune_shuffle_moves(tune_search *s, int *order, int n, int last) {
  for (int i = 0; i < n; i++) order[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(tune_random(&s->rng) % (unsigned long long)(i + 1)), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (int i = 0; i < n && last >= 0; i++)
    if (order[i] == last) {
      order[i] = order[0];
      order[0] = last;
    }
}

static const char *const strategy_names[] = {"exhaustive", "random", "hill"};

const char *tune_strategy_name(int strategy) { return strategy_names[strategy]; }

int tune_strategy_parse(const char *word) {
  for (int i = 0; i < 3; i++)
    if (!strcmp(word, strategy_names[i])) return i;
  return -1;
}

/* a quarter of the allowed configurations: random's samples and hill's budget unless told (hill: at least one
 * full set of neighbours, 2 per variable, and its start) */
void tune_defaults(const tune_conf *c, int strategy, long long *budget, long long *samples) {
  long long quarter = tune_quarter(c);
  if (strategy == STRATEGY_RANDOM && *samples == 0) *samples = quarter;
  if (strategy == STRATEGY_HILL && *budget == 0) *budget = quarter > 2 * c->nvars + 1 ? quarter : 2 * c->nvars + 1;
}

long long tune_quarter(const tune_conf *c) {
  long long quarter = (tune_space_size(c) - c->nrestricted + 3) / 4;
  return quarter > 0 ? quarter : 1;
}

int tune_search_run(tune_search *s, int strategy, long long samples) {
  int idx[TUNE_MAX_VARS] = {0};
  if (strategy == STRATEGY_EXHAUSTIVE) tree_walk(s, 0, idx);
  if (strategy == STRATEGY_RANDOM) random_search(s, samples);
  if (strategy == STRATEGY_HILL) tune_hill_climb(s);
  return s->found;
}

/* the k best distinct configurations that ran, best first (a tie: the one evaluated first) */
int tune_search_top(const tune_search *s, int k, int idx[][TUNE_MAX_VARS], double *cost) {
  long long chosen[16];
  int n = 0;
  while (n < k && n < 16) {
    long long pick = -1;
    for (long long i = 0; i < s->nseen; i++) {
      long long lin = s->seen[i];
      int taken = 0;
      for (int j = 0; j < n; j++) taken |= chosen[j] == lin;
      if (s->status[lin] != EVAL_OK || taken) continue;
      if (pick < 0 || s->cost[lin] < s->cost[pick]) pick = lin;
    }
    if (pick < 0) break;
    chosen[n] = pick;
    cost[n] = s->cost[pick];
    tune_unlinear(s->conf, pick, idx[n]);
    n++;
  }
  return n;
}
