/*
 * tune_search.c -- the space of configurations and the strategies over it:
 *   exhaustive  the course's: the variable tree's tests in its order (tune_tree_count says how many);
 *   random      -samples=N distinct configurations, uniformly, within the restrictions;
 *   hill        hill climbing with random restarts over the full product of the values (described below);
 * and replay: a strategy run over a recorded log instead of over programs, to ask how soon it finds the best.
 * Every strategy asks for a configuration through tune_search_point, which evaluates each one once (the memo)
 * and counts it against the budget; the evaluator (a program run, a log's row, a test's formula) is a callback.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tune.h"

/* ---- the space: the course's test count, the first variable fastest ------------------------------------ */
/* The course's count: a leaf tries every combination of its values; a node tries every combination of its own
 * variables, and for each tunes its sub-lists one after another, each new sub-list's first test being the
 * previous one's best (already run), hence the "- (children - 1)". */
long long tune_tree_count(const tune_conf *c, int n) {
  const tune_node *node = &c->node[n];
  long long here = 1, sum = 0;
  for (int i = 0; i < node->nvars; i++) {
    if (here > (1LL << 62) / c->nvals[node->vars[i]]) return -1;
    here *= c->nvals[node->vars[i]];
  }
  if (node->nchildren == 0) return here;
  for (int i = 0; i < node->nchildren; i++) {
    long long t = tune_tree_count(c, node->children[i]);
    if (t < 0 || sum > (1LL << 62) - t) return -1;
    sum += t;
  }
  sum -= node->nchildren - 1;
  return here > (1LL << 62) / sum ? -1 : here * sum;
}

long long tune_space_size(const tune_conf *c) {
  long long n = 1;
  for (int v = 0; v < c->nvars; v++) {
    if (n > (1LL << 62) / c->nvals[v]) return -1;
    n *= c->nvals[v];
  }
  return n;
}

void tune_tree_string(const tune_conf *c, int n, char *buf, size_t len) {
  const tune_node *node = &c->node[n];
  size_t at = (size_t)snprintf(buf, len, "{");
  for (int i = 0; i < node->nvars + node->nchildren && at < len; i++) {
    if (i) at += (size_t)snprintf(buf + at, len - at, ", ");
    if (at >= len) break;
    if (i < node->nvars)
      at += (size_t)snprintf(buf + at, len - at, "%s", c->name[node->vars[i]]);
    else
      tune_tree_string(c, node->children[i - node->nvars], buf + at, len - at), at += strlen(buf + at);
  }
  if (at < len) snprintf(buf + at, len - at, "}");
}

long long tune_linear(const tune_conf *c, const int *idx) {
  long long lin = 0;
  for (int v = c->nvars - 1; v >= 0; v--) lin = lin * c->nvals[v] + idx[v];
  return lin;
}

void tune_unlinear(const tune_conf *c, long long lin, int *idx) {
  for (int v = 0; v < c->nvars; v++) {
    idx[v] = (int)(lin % c->nvals[v]);
    lin /= c->nvals[v];
  }
}

void tune_describe(const tune_conf *c, const int *idx, char *buf, size_t len) {
  size_t at = 0;
  buf[0] = '\0';
  for (int v = 0; v < c->nvars && at < len; v++)
    at += (size_t)snprintf(buf + at, len - at, "%s%s = %s", v ? ", " : "", c->name[v], c->val[v][idx[v]]);
}

/* ---- the memo: each configuration's outcome, by its linear index, in an open-addressing table ---------- */
static unsigned long long mix64(unsigned long long x) { /* splitmix64's finaliser: also the generator below */
  x ^= x >> 30, x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27, x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static unsigned long long next_random(unsigned long long *state) { return mix64(*state += 0x9e3779b97f4a7c15ULL); }

static tune_memo *memo_slot(tune_memo *tab, long long cap, long long key) {
  long long i = (long long)(mix64((unsigned long long)key) & (unsigned long long)(cap - 1));
  while (tab[i].key && tab[i].key != key) i = (i + 1) & (cap - 1);
  return &tab[i];
}

/* room for one more entry: the table doubles at half full */
static void memo_reserve(tune_memo **tab, long long *cap, long long used) {
  if (*tab && 2 * (used + 1) <= *cap) return;
  long long old = *cap, n = old ? 2 * old : 1024;
  tune_memo *grown = calloc((size_t)n, sizeof(tune_memo)), *prev = *tab;
  for (long long i = 0; i < old; i++)
    if (prev[i].key) *memo_slot(grown, n, prev[i].key) = prev[i];
  free(prev);
  *tab = grown, *cap = n;
}

void tune_search_init(tune_search *s, const tune_conf *c, tune_eval_fn eval, void *ctx, long long budget,
                      unsigned long long seed) {
  memset(s, 0, sizeof(*s));
  s->conf = c, s->eval = eval, s->ctx = ctx, s->budget = budget, s->rng = seed, s->best_cost = INFINITY;
  memo_reserve(&s->memo, &s->memo_cap, 0);
}

void tune_search_free(tune_search *s) { free(s->memo), s->memo = NULL; }

/* one configuration, evaluated once: a second request answers from the memo and costs nothing */
tune_eval tune_search_point(tune_search *s, const int *idx) {
  long long key = tune_linear(s->conf, idx) + 1;
  tune_memo *m = memo_slot(s->memo, s->memo_cap, key);
  if (m->key) return (tune_eval){m->status, m->cost, 0};
  if (s->stopped || (s->budget > 0 && s->evals >= s->budget))
    return s->stopped = 1, (tune_eval){EVAL_DROPPED, INFINITY, 1};
  tune_eval r = s->eval(s->ctx, idx);
  if (r.status != EVAL_OK) r.cost = INFINITY;
  memo_reserve(&s->memo, &s->memo_cap, s->memo_used);
  *memo_slot(s->memo, s->memo_cap, key) = (tune_memo){key, s->evals + s->restricted, r.status, r.cost};
  s->memo_used++;
  if (r.status == EVAL_RESTRICTED)
    s->restricted++;
  else
    s->evals++;
  if (r.status == EVAL_OK && r.cost < s->best_cost) { /* strictly better: a tie keeps the earlier */
    s->best_cost = r.cost, s->found = 1;
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
    double cost = node->nchildren ? INFINITY : tune_search_point(s, idx).cost;
    for (int i = 0; i < node->nchildren && !s->stopped; i++) cost = tree_walk(s, node->children[i], idx);
    if (cost < best) best = cost, memcpy(best_idx, idx, sizeof(best_idx));
    int i = 0;
    while (i < node->nvars && ++cur[i] == s->conf->nvals[node->vars[i]]) cur[i++] = 0;
    if (i == node->nvars || s->stopped) break;
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
static int random_unseen(tune_search *s, int *idx) {
  const tune_conf *c = s->conf;
  long long size = tune_space_size(c);
  if (s->memo_used >= size) return 0;
  for (int tries = 0; tries < 1000; tries++) {
    for (int v = 0; v < c->nvars; v++) idx[v] = (int)(next_random(&s->rng) % (unsigned long long)c->nvals[v]);
    if (!memo_slot(s->memo, s->memo_cap, tune_linear(c, idx) + 1)->key) return 1;
  }
  long long lin = (long long)(next_random(&s->rng) % (unsigned long long)size);
  while (memo_slot(s->memo, s->memo_cap, lin + 1)->key) lin = (lin + 1) % size;
  tune_unlinear(c, lin, idx);
  return 1;
}

static void random_search(tune_search *s, long long samples) {
  int idx[TUNE_MAX_VARS];
  for (long long k = 0; (samples <= 0 || k < samples) && !s->stopped && random_unseen(s, idx);)
    if (tune_search_point(s, idx).status != EVAL_RESTRICTED) k++;
}

/* Hill climbing with random restarts. From a random configuration not yet run, try its neighbours (one variable
 * moved to the next or the previous value of its list), the move that last improved first and then the rest in
 * random order, and go to the first one that scores better. Where none does (a local minimum), restart from a
 * random configuration not yet run. It stops at the budget, or when every allowed configuration has been run. */
static void hill_climb(tune_search *s) {
  const tune_conf *c = s->conf;
  int cur[TUNE_MAX_VARS], nb[TUNE_MAX_VARS], order[2 * TUNE_MAX_VARS], last = -1;
  while (!s->stopped && random_unseen(s, cur)) {
    tune_eval here = tune_search_point(s, cur);
    if (here.status == EVAL_RESTRICTED) continue;
    for (int moved = 1; moved && !s->stopped;) {
      int n = 2 * c->nvars;
      for (int i = 0; i < n; i++) order[i] = i;
      for (int i = n - 1; i > 0; i--) { /* shuffle, then the last improving move first */
        int j = (int)(next_random(&s->rng) % (unsigned long long)(i + 1)), t = order[i];
        order[i] = order[j], order[j] = t;
      }
      for (int i = 0; i < n && last >= 0; i++)
        if (order[i] == last) order[i] = order[0], order[0] = last;
      moved = 0;
      for (int i = 0; i < n && !moved && !s->stopped; i++) {
        int v = order[i] / 2, step = order[i] % 2 ? 1 : -1;
        if (cur[v] + step < 0 || cur[v] + step >= c->nvals[v]) continue;
        memcpy(nb, cur, sizeof(cur));
        nb[v] += step;
        tune_eval there = tune_search_point(s, nb);
        if (there.cost < here.cost) memcpy(cur, nb, sizeof(cur)), here = there, last = order[i], moved = 1;
      }
    }
  }
}

static const char *const strategy_names[] = {"exhaustive", "random", "hill"};

const char *tune_strategy_name(int strategy) { return strategy_names[strategy]; }

int tune_strategy_parse(const char *word) {
  for (int i = 0; i < 3; i++)
    if (!strcmp(word, strategy_names[i])) return i;
  return -1;
}

int tune_search_run(tune_search *s, int strategy, long long samples) {
  int idx[TUNE_MAX_VARS] = {0};
  if (strategy == STRATEGY_EXHAUSTIVE) tree_walk(s, 0, idx);
  if (strategy == STRATEGY_RANDOM) random_search(s, samples);
  if (strategy == STRATEGY_HILL) hill_climb(s);
  return s->found;
}

/* the k best distinct configurations that ran, best first (a tie: the one evaluated first) */
int tune_search_top(const tune_search *s, int k, int idx[][TUNE_MAX_VARS], double *cost) {
  long long chosen[64];
  int n = 0;
  for (; n < k && n < 64; n++) {
    long long pick = -1;
    for (long long i = 0; i < s->memo_cap; i++) {
      const tune_memo *m = &s->memo[i];
      int taken = 0;
      for (int j = 0; j < n; j++) taken |= chosen[j] == i;
      if (!m->key || m->status != EVAL_OK || taken) continue;
      if (pick < 0 || m->cost < s->memo[pick].cost || (m->cost == s->memo[pick].cost && m->order < s->memo[pick].order))
        pick = i;
    }
    if (pick < 0) break;
    chosen[n] = pick, cost[n] = s->memo[pick].cost;
    tune_unlinear(s->conf, s->memo[pick].key - 1, idx[n]);
  }
  return n;
}

/* ---- replay: a strategy over a recorded log, each configuration's score looked up ----------------------- */
static int replay_row(void *ctx, const tune_row *row) {
  tune_replay *rp = ctx;
  long long key = tune_linear(&rp->conf, row->idx) + 1;
  memo_reserve(&rp->rows, &rp->cap, rp->nrows);
  tune_memo *m = memo_slot(rp->rows, rp->cap, key);
  if (m->key) return 0; /* a configuration logged twice: the first row counts */
  double cost = row->r.status != EVAL_OK ? INFINITY : rp->maximise ? -row->r.overall : row->r.overall;
  *m = (tune_memo){key, rp->nrows, row->r.status, cost};
  rp->seconds = realloc(rp->seconds, sizeof(double) * (size_t)(rp->nrows + 1));
  rp->id = realloc(rp->id, sizeof(long long) * (size_t)(rp->nrows + 1));
  rp->seconds[rp->nrows] = row->r.seconds, rp->id[rp->nrows] = row->id;
  rp->has_seconds |= row->has_seconds;
  if (row->r.status == EVAL_OK && (rp->nok++ == 0 || cost < rp->best_cost)) {
    rp->best_cost = cost, rp->best_row = rp->nrows;
    memcpy(rp->best, row->idx, sizeof(rp->best));
  }
  rp->nrows++;
  return 0;
}

int tune_replay_load(const char *path, int maximise, tune_replay *rp, char *msg, size_t len) {
  memset(rp, 0, sizeof(*rp));
  rp->maximise = maximise;
  int rc = tune_log_read(path, &rp->conf, 1, replay_row, rp, &rp->skipped, msg, len);
  if (rc == 1)
    snprintf(msg, len, "cannot read the log %s", path);
  else if (rc == 0 && rp->nok == 0)
    snprintf(msg, len, "%s has no row with a score", path), rc = -1;
  return rc ? -1 : 0;
}

void tune_replay_free(tune_replay *rp) {
  free(rp->rows), free(rp->seconds), free(rp->id);
  tune_conf_free(&rp->conf);
}

typedef struct {
  tune_replay *rp;
  double target, seconds;
  long long evals;
  int hit;
} replay_ctx;

/* a configuration the log does not hold counts as restricted: never run, no evaluation spent */
static tune_eval replay_eval(void *ctx, const int *idx) {
  replay_ctx *x = ctx;
  const tune_memo *m = memo_slot(x->rp->rows, x->rp->cap, tune_linear(&x->rp->conf, idx) + 1);
  if (!m->key) return (tune_eval){EVAL_RESTRICTED, INFINITY, 0};
  x->evals++, x->seconds += x->rp->seconds[m->order];
  x->hit |= m->status == EVAL_OK && m->cost <= x->target;
  return (tune_eval){m->status, m->cost, x->hit};
}

/* One trial: the evaluations (and recorded seconds) until the strategy first holds a configuration within
 * `within` (0.02: 2 %) of the log's best. Returns 1 when it got there, 0 when the budget or the space ran out. */
int tune_replay_trial(tune_replay *rp, int strategy, long long budget, long long samples, unsigned long long seed,
                      double within, long long *evals, double *seconds) {
  replay_ctx x = {rp, rp->best_cost + within * fabs(rp->best_cost), 0, 0, 0};
  tune_search s;
  tune_search_init(&s, &rp->conf, replay_eval, &x, budget, seed);
  tune_search_run(&s, strategy, samples);
  tune_search_free(&s);
  *evals = x.evals, *seconds = x.seconds;
  return x.hit;
}
