/*
 * tune.c -- practical 10: an auto-tuner. It picks the values of a program's compile-time parameters (BLOCK_X,
 * BLOCK_Y, ...) that make it fastest, by building and timing the program once per configuration.
 *
 * The course's tool is Flamingo (Ben Spencer's "Autotuning System", Python 2). This is the same idea in C, and it
 * reads the same config file: [variables] {BLOCK_X, BLOCK_Y}, a tree whose sibling sub-lists are tuned one
 * after another instead of together ({{A},{B}} costs |A| + |B| - 1 tests, not |A| x |B|); [values] comma lists;
 * [testing] compile, test and clean commands with %NAME% replaced by the value and %%ID%% by the test number;
 * [scoring] repeat = N, min|max|med|avg and optimal; [output] log = results.csv, the course's columns. What it
 * teaches beyond the course:
 *   - the score is the program's own timed figure, ms= of its last BENCH line (optimal = min_bench, the default;
 *     score = bench GBps with optimal = max for a rate). The course's min_time times the whole command, so
 *     process start, CUDA set-up and the copies are in every score: it still works, with a warning;
 *   - a run that fails (exit code, no RESULT: PASS, no score) or does not compile is dropped, never the best
 *     ([testing] verdict = exit accepts a course program with no RESULT line; timeout = S kills a hung run);
 *   - [restrictions], one expression per line (BLOCK_X * BLOCK_Y <= 1024): a configuration that breaks one is
 *     not run;
 *   - the log is also a cache: run tune again and it runs only the configurations the log does not hold, so an
 *     interrupted tuning resumes;
 *   - strategies beside the course's exhaustive tree: random samples, and hill climbing with random restarts;
 *     -replay runs a strategy over a recorded log and says how soon it came within 2 % of the best;
 *   - the best few are timed again, interleaved (A B C A B C ...), so that a decision survives the noise: when
 *     the runner-up is within the noise of the best, tune says so and picks by a stated rule.
 *
 *   ./tune examples/fake.conf                    the course's exhaustive search, in the tree's order
 *   ./tune examples/fake.conf -strategy=hill -budget=20 -seed=1    (or -strategy=random -samples=10)
 *   ./tune -replay=examples/results/fake.csv -strategy=hill -trials=20
 * Like the course's tool it works in the config file's folder: the commands and the log are relative to it.
 */
#define _POSIX_C_SOURCE 200809L
#define COURSE_STEPS "practical 10, workbook steps 1 to 4 (course steps 1 to 6: Flamingo's auto-tuner, rebuilt in C)"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "tune.h"

typedef struct {
  tune_conf *c;
  FILE *log;
  tune_row *cached; /* the log's rows, by linear index in lin[] */
  long long *lin, ncached, next_id, planned, ran, from_log, dropped;
  int verbose, tty, have_best;
  double t0, run_seconds, best_cost, best_score;
  long long best_id;
  const char *unit;
} session;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cache_row(void *ctx, const tune_row *row) {
  session *S = ctx;
  S->cached = realloc(S->cached, sizeof(tune_row) * (size_t)(S->ncached + 1));
  S->lin = realloc(S->lin, sizeof(long long) * (size_t)(S->ncached + 1));
  S->cached[S->ncached] = *row, S->lin[S->ncached++] = tune_linear(S->c, row->idx);
  if (row->id >= S->next_id) S->next_id = row->id + 1;
  return 0;
}

/* done of planned, the best so far, elapsed and an estimate of the time left (the mean of the runs so far) */
static void progress(session *S) {
  long long done = S->ran + S->from_log, left = S->planned > done ? S->planned - done : 0;
  double el = now_s() - S->t0, each = S->ran ? S->run_seconds / (double)S->ran : 0;
  char best[96] = "no best yet";
  if (S->have_best) snprintf(best, sizeof(best), "best %.6g %s (test %lld)", S->best_score, S->unit, S->best_id);
  if (S->tty)
    printf("\r\033[K[%lld/%lld] %s", done, S->planned, best);
  else
    printf("  %lld of %lld done, %s", done, S->planned, best);
  printf(", %.1f s elapsed, about %.0f s left%s", el, each * (double)left, S->tty ? "" : "\n");
  fflush(stdout);
}

/* the strategies' evaluator: a restriction, else the log's row, else compile, run, clean and log it */
static tune_eval run_config(void *ctx, const int *idx) {
  session *S = ctx;
  tune_conf *c = S->c;
  tune_row row = {0};
  char desc[1024], line[8192];
  if (!tune_allowed(c, idx, NULL)) return (tune_eval){EVAL_RESTRICTED, INFINITY, 0};
  tune_describe(c, idx, desc, sizeof(desc));
  long long lin = tune_linear(c, idx), k = 0;
  while (k < S->ncached && S->lin[k] != lin) k++;
  if (k < S->ncached) {
    row = S->cached[k], S->from_log++;
  } else {
    row.id = S->next_id++;
    memcpy(row.idx, idx, sizeof(row.idx));
    if (S->tty) printf(", running test %lld", row.id), fflush(stdout); /* on the progress line */
    tune_evaluate(c, idx, row.id, S->verbose, &row.r);
    tune_log_format(c, &row, line, sizeof(line));
    fprintf(S->log, "%s\n", line), fflush(S->log);
    S->ran++, S->run_seconds += row.r.seconds;
  }
  if (S->tty) printf("\r\033[K");
  double cost = c->maximise ? -row.r.overall : row.r.overall;
  if (row.r.status == EVAL_OK) {
    printf("Test %lld: %s: %.6g %s%s\n", row.id, desc, row.r.overall, S->unit, k < S->ncached ? " (from the log)" : "");
    if (!S->have_best || cost < S->best_cost)
      S->have_best = 1, S->best_cost = cost, S->best_score = row.r.overall, S->best_id = row.id;
  } else {
    printf("Test %lld: %s: dropped: %s%s\n", row.id, desc, row.r.why, k < S->ncached ? " (from the log)" : "");
    S->dropped++;
  }
  progress(S);
  return (tune_eval){row.r.status, row.r.status == EVAL_OK ? cost : INFINITY, 0};
}

/* The best k again, `rounds` times, interleaved (A B C A B C ...) so that a drift of the machine (clocks,
 * temperature, another user) falls on all of them alike. Returns the index of the pick in idx, or -1. */
static int retime(session *S, int idx[][TUNE_MAX_VARS], int k, int rounds) {
  const tune_conf *c = S->c;
  double score[16][64];
  long long id[16];
  int ok[16], n[16] = {0}, order[16], m = 0;
  tune_stat st[16];
  char desc[1024], why[TUNE_MSG_LEN];
  printf("\nRe-timing the best %d: %d rounds, interleaved (A B C A B C ...), one run of each per round\n", k, rounds);
  for (int j = 0; j < k; j++) {
    id[j] = S->next_id++;
    ok[j] = tune_compile(c, idx[j], id[j], S->verbose, why, sizeof(why)) == 0;
    if (!ok[j]) printf("  test %lld dropped from the re-timing: %s\n", id[j], why);
  }
  for (int r = 0; r < rounds; r++)
    for (int j = 0; j < k; j++) {
      if (!ok[j]) continue;
      if (tune_run_once(c, idx[j], id[j], S->verbose, &score[j][n[j]], why, sizeof(why)) == 0)
        n[j]++;
      else
        ok[j] = 0, printf("  test %lld dropped from the re-timing: %s\n", id[j], why);
    }
  for (int j = 0; j < k; j++) {
    tune_clean(c, idx[j], id[j], S->verbose);
    if (ok[j]) tune_stats(score[j], n[j], &st[j]), order[m++] = j;
  }
  for (int a = 1; a < m; a++) /* by median, best first; a tie keeps the search's order */
    for (int b = a; b > 0 && (c->maximise ? st[order[b]].median > st[order[b - 1]].median
                                          : st[order[b]].median < st[order[b - 1]].median);
         b--) {
      int t = order[b];
      order[b] = order[b - 1], order[b - 1] = t;
    }
  for (int a = 0; a < m; a++) {
    tune_stat *s = &st[order[a]];
    tune_describe(c, idx[order[a]], desc, sizeof(desc));
    printf("  %d. %s: median %.6g %s, range %.6g to %.6g, cv %.1f %%\n", a + 1, desc, s->median, S->unit, s->min,
           s->max, 100 * s->cv);
  }
  if (m >= 2) {
    const tune_stat *b = &st[order[0]], *r = &st[order[1]];
    double apart = 100 * fabs(r->median - b->median) / fabs(b->median);
    if (tune_within_noise(b, r))
      printf("The best two are within the noise (%s, medians %.2f %% apart): the rule picks the better median, and "
             "on a tie the one the search found first\n",
             r->min <= b->max && b->min <= r->max ? "their ranges overlap" : "closer than their cv", apart);
    else
      printf("The best is clear of the noise: the runner-up's median is %.2f %% worse, its range apart, the gap over "
             "the cv\n",
             apart);
  }
  if (m) {
    const tune_stat *b = &st[order[0]];
    tune_describe(c, idx[order[0]], desc, sizeof(desc));
    printf("Best: %s: %.6g %s, the median of %d re-times (range %.6g to %.6g)\n", desc, b->median, S->unit, b->n,
           b->min, b->max);
  }
  return m ? order[0] : -1;
}

static int replay(const char *path, int strategy, long long budget, long long samples, int seed, int trials,
                  double within, int maximise) {
  tune_replay rp;
  char msg[TUNE_MSG_LEN], desc[1024];
  if (tune_replay_load(path, maximise, &rp, msg, sizeof(msg))) args_fail("%s", msg);
  long long size = tune_space_size(&rp.conf), evals[10000], hits = 0;
  double secs[10000], best = maximise ? -rp.best_cost : rp.best_cost;
  tune_describe(&rp.conf, rp.best, desc, sizeof(desc));
  printf("tune: replay of '%s': %lld recorded configurations (%lld scored), %lld in the full space%s\n", path, rp.nrows,
         rp.nok, size, rp.skipped ? " (some rows could not be read)" : "");
  printf("The log's best: %s: %.6g (test %lld); within %g %%: %s %.6g\n", desc, best, rp.id[rp.best_row], 100 * within,
         maximise ? ">=" : "<=", best + (maximise ? -1 : 1) * within * fabs(best));
  printf("Strategy: %s, budget %lld evaluations", tune_strategy_name(strategy), budget ? budget : size);
  printf(strategy == STRATEGY_EXHAUSTIVE ? "\n" : ", seeds %d to %d\n", seed, seed + trials - 1);
  for (int t = 0; t < trials; t++) {
    int hit =
        tune_replay_trial(&rp, strategy, budget, samples, (unsigned long long)(seed + t), within, &evals[t], &secs[t]);
    hits += hit;
    if (trials <= 20 || !hit)
      printf("  seed %d: %s %lld evaluations, %.1f recorded seconds\n", seed + t,
             hit ? "within after" : "NOT within after", evals[t], rp.has_seconds ? secs[t] : NAN);
    if (!hit) evals[t] = LLONG_MAX, secs[t] = INFINITY; /* never got there: the worst */
  }
  double e[10000];
  for (int t = 0; t < trials; t++) e[t] = (double)evals[t];
  tune_stat se, ss;
  tune_stats(e, trials, &se), tune_stats(secs, trials, &ss);
  if (2 * hits > trials) /* the median is a number when more than half got there */
    printf("Evaluations until within %g %%: median %.1f (%.0f %% of the %lld recorded)", 100 * within, se.median,
           100 * se.median / (double)rp.nrows, rp.nrows);
  else
    printf("Evaluations until within %g %%: median: not reached", 100 * within);
  if (hits == trials)
    printf(", worst %.0f (%.0f %%)\n", se.max, 100 * se.max / (double)rp.nrows);
  else
    printf(", worst: not reached in %lld of %d trials\n", trials - hits, trials);
  if (rp.has_seconds && hits == trials)
    printf("Recorded seconds until then: median %.1f, worst %.1f\n", ss.median, ss.max);
  else if (!rp.has_seconds)
    printf("Recorded seconds: the log has no Seconds column\n");
  tune_replay_free(&rp);
  if (hits < trials)
    printf("RESULT: FAIL (not within %g %% in %lld of %d trials)\n", 100 * within, trials - hits, trials);
  else
    printf("RESULT: PASS\n");
  return hits < trials;
}

int main(int argc, char **argv) {
  const char *strategy_word = "exhaustive", *replay_path = "", *optimal = "min", *config = NULL;
  long long samples = 0, budget = 0;
  int seed = 1, rounds = 5, top = 3, fresh = 0, verbose = 0, trials = 1;
  double within = 2;
  arg_spec opts[] = {
      {"strategy", ARG_WORD, &strategy_word, 0, 0, "exhaustive (the course's tree), random or hill"},
      {"samples", ARG_LONG, &samples, 0, 1e15, "random: configurations to run (0: a quarter of the space)"},
      {"budget", ARG_LONG, &budget, 0, 1e15,
       "evaluations at most (0: a quarter of the space for hill, all for exhaustive)"},
      {"seed", ARG_INT, &seed, 0, 1e9, "random and hill: the seed"},
      {"retime", ARG_INT, &rounds, 0, 64, "rounds of interleaved re-timing of the best (0: none)"},
      {"top", ARG_INT, &top, 1, 16, "how many of the best to re-time"},
      {"fresh", ARG_FLAG, &fresh, 0, 1, "start the log again (else its configurations are not run again)"},
      {"verbose", ARG_FLAG, &verbose, 0, 1, "show every command and its output"},
      {"replay", ARG_WORD, &replay_path, 0, 0, "a recorded log: run the strategy over it instead of programs"},
      {"trials", ARG_INT, &trials, 1, 10000, "replay: seeds to try, from -seed on"},
      {"within", ARG_DOUBLE, &within, 0, 100, "replay: the target, within this many % of the log's best"},
      {"optimal", ARG_WORD, &optimal, 0, 0, "replay: min or max, the direction of the log's scores"},
  };
  char *rest[64], msg[TUNE_MSG_LEN * 2];
  int nrest = 0;
  for (int a = 0; a < argc && nrest < 64; a++) /* the config is the one argument that is not an option */
    if (a == 0 || argv[a][0] == '-')
      rest[nrest++] = argv[a];
    else if (config)
      args_fail("two config files: %s and %s", config, argv[a]);
    else
      config = argv[a];
  int rc = args_parse(nrest, rest, opts, ARG_COUNT(opts), msg, sizeof(msg));
  if (rc == ARGS_HELP) {
    args_usage("./tune CONFIG.conf", opts, ARG_COUNT(opts));
    printf("  or: ./tune -replay=LOG.csv -strategy=hill -trials=20\n");
    return 0;
  }
  if (rc == ARGS_BAD) args_fail("%s", msg);
  int strategy = tune_strategy_parse(strategy_word);
  if (strategy < 0) args_fail("-strategy=%s: exhaustive, random or hill", strategy_word);
  if (strcmp(optimal, "min") && strcmp(optimal, "max")) args_fail("-optimal=%s: min or max", optimal);
  if (replay_path[0] && config) args_fail("a config file or -replay=LOG.csv, not both");
  if (replay_path[0])
    return replay(replay_path, strategy, budget, samples, seed, trials, within / 100, optimal[2] == 'x');
  if (!config) args_fail("no config file: ./tune CONFIG.conf (-help lists the options)");

  // read the config, then work in its folder, as the course's tool does
  session S = {0};
  tune_conf *c = S.c = calloc(1, sizeof(tune_conf));
  if (tune_conf_load(config, c, msg, sizeof(msg))) args_fail("%s", msg);
  char dir[1024], logpath[2048];
  snprintf(dir, sizeof(dir), "%s", config);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  if (slash && chdir(dir[0] ? dir : "/")) args_fail("cannot enter the config's folder %s", dir);
  snprintf(logpath, sizeof(logpath), "%s%s%s", slash && c->log[0] != '/' ? dir : "",
           slash && c->log[0] != '/' ? "/" : "", c->log);

  // the log: read what it holds (the cache), then append to it
  long long skipped = 0;
  if (fresh) remove(c->log);
  rc = tune_log_read(c->log, c, 0, cache_row, &S, &skipped, msg, sizeof(msg));
  if (rc < 0) args_fail("%s", msg);
  for (char *p = strchr(c->log + 1, '/'); p; p = strchr(p + 1, '/')) /* its folders, as mkdir -p makes them */
    *p = '\0', mkdir(c->log, 0777), *p = '/';
  struct stat st;
  FILE *old = stat(c->log, &st) == 0 && st.st_size > 0 ? fopen(c->log, "rb") : NULL;
  int last = old && fseek(old, -1, SEEK_END) == 0 ? fgetc(old) : '\n';
  if (old) fclose(old);
  S.log = fopen(c->log, "a");
  if (!S.log) args_fail("cannot write the log %s: %s", logpath, strerror(errno));
  if (!old) {
    char header[8192];
    tune_log_header(c, header, sizeof(header));
    fprintf(S.log, "%s\n", header);
  } else if (last != '\n') {
    fputc('\n', S.log); /* an interrupted run's last half line stays a line of its own */
  }
  fflush(S.log);
  if (S.next_id == 0) S.next_id = 1;

  // the settings read, as the course's tool prints them
  char text[8192];
  long long space = tune_space_size(c), restricted = 0, tree = tune_tree_count(c, 0);
  int idx[TUNE_MAX_VARS] = {0}, flat = c->node[0].nchildren == 0;
  printf("tune: practical 10's auto-tuner (the course's Flamingo, in C)\n\nRetrieved settings from config file:\n\n");
  printf("Variables:\n");
  for (int v = 0; v < c->nvars; v++) printf("%s%s", c->name[v], v + 1 < c->nvars ? ", " : "\n");
  tune_tree_string(c, 0, text, sizeof(text));
  printf("Displayed as a tree:\n%s\n\nPossible values:\n", text);
  for (int v = 0; v < c->nvars; v++) {
    printf("%s = ", c->name[v]);
    for (int k = 0; k < c->nvals[v]; k++) printf("%s%s", c->val[v][k], k + 1 < c->nvals[v] ? ", " : "\n");
  }
  if (c->nrules) printf("\nRestrictions:\n");
  for (int i = 0; i < c->nrules; i++) printf("%s\n", c->rule[i]);
  printf("\ncompile:\n%s\n\ntest:\n%s\n\nclean:\n%s\n\n", c->compile[0] ? c->compile : "(none)", c->test,
         c->clean[0] ? c->clean : "(none)");
  S.unit = c->score_kind == SCORE_TIME ? "s" : c->score_kind == SCORE_BENCH ? c->bench_key : "";
  if (c->score_kind == SCORE_BENCH)
    printf("Score: %s= of the last BENCH line%s%s, %s is best", c->bench_key, c->bench_prog[0] ? " with prog=" : "",
           c->bench_prog, c->maximise ? "highest" : "lowest");
  else
    printf("Score: %s, %s is best",
           c->score_kind == SCORE_TIME ? "the wall time of the test command" : "the last number the program prints",
           c->maximise ? "highest" : "lowest");
  static const char *const aggs[] = {"minimum", "maximum", "median", "mean"};
  printf("; %d run%s per test%s%s\n", c->repeat, c->repeat > 1 ? "s" : "", c->repeat > 1 ? ", their " : "",
         c->repeat > 1 ? aggs[c->aggregate] : "");
  if (c->warning[0]) printf("warning: %s\n", c->warning);
  if (strategy != STRATEGY_EXHAUSTIVE) { /* random and hill: a quarter of the space unless told */
    long long quarter = (space + 3) / 4;
    if (strategy == STRATEGY_RANDOM && samples == 0) samples = quarter;
    if (strategy == STRATEGY_HILL && budget == 0) budget = quarter > 2 * c->nvars + 1 ? quarter : 2 * c->nvars + 1;
  }
  int counted = space <= 1000000; /* the restricted ones, counted where the space is small enough */
  for (long long l = 0; counted && c->nrules && l < space; l++)
    tune_unlinear(c, l, idx), restricted += !tune_allowed(c, idx, NULL);
  S.planned = strategy == STRATEGY_EXHAUSTIVE ? tree - (flat ? restricted : 0) : space - restricted;
  if (strategy == STRATEGY_RANDOM && samples < S.planned) S.planned = samples;
  if (budget && budget < S.planned) S.planned = budget;
  printf("Strategy: %s", strategy == STRATEGY_EXHAUSTIVE
                             ? "exhaustive, the tree's tests in the course's order (the first variable fastest)"
                         : strategy == STRATEGY_RANDOM
                             ? "random, without repeats"
                             : "hill climbing with random restarts over the full product of the values");
  printf(strategy != STRATEGY_EXHAUSTIVE ? " (seed %d)\n" : "\n", seed);
  if (S.ncached || skipped)
    printf("The log '%s' holds %lld configurations: they are not run again%s\n", logpath, S.ncached,
           skipped ? " (some of its rows could not be used)" : "");
  printf("\nNumber of tests to be run: %lld\n", S.planned);
  if (c->repeat > 1) printf("(with %d repetitions each)\n", c->repeat);
  if (strategy == STRATEGY_EXHAUSTIVE && !flat && c->nrules)
    printf("(at most: those that break a restriction are left out as the tree meets them)\n");
  else if (restricted)
    printf("(%lld of the %lld configurations are left out by the restrictions)\n", restricted, space);
  printf("\n");

  // the search
  S.tty = isatty(1) && !verbose, S.t0 = now_s(); /* a terminal: the progress line rewrites itself */
  if (S.tty) progress(&S);
  tune_search s;
  tune_search_init(&s, c, run_config, &S, budget, (unsigned long long)seed);
  tune_search_run(&s, strategy, samples);
  if (S.tty) printf("\r\033[K");
  double wall = now_s() - S.t0;
  int best[16][TUNE_MAX_VARS], k = 0, pick = -1;
  double costs[16];
  if (s.found) {
    tune_describe(c, s.best, text, sizeof(text));
    printf("\n%s valuation:\n%s\n%s Score:\n%.6g\n", c->maximise ? "Maximal" : "Minimal", text,
           c->maximise ? "Maximal" : "Minimal", c->maximise ? -s.best_cost : s.best_cost);
  }
  printf("The system ran %lld tests, taking %dm%.2fs.\n", s.evals, (int)(wall / 60), fmod(wall, 60));
  printf("(%lld run now, %lld taken from the log, %lld dropped, %lld left out by the restrictions; wall time including "
         "compiles)\n",
         S.ran, S.from_log, S.dropped, s.restricted);
  printf("A testing log was saved to '%s'\n", logpath);
  fclose(S.log);
  if (s.found && rounds > 0) {
    k = tune_search_top(&s, top, best, costs);
    pick = retime(&S, best, k, rounds);
    printf("Wall time in all, the search, its compiles and the re-timing: %.1f s\n", now_s() - S.t0);
  }
  tune_search_free(&s);
  free(S.cached), free(S.lin);
  tune_conf_free(c), free(c);
  if (!s.found)
    printf("RESULT: FAIL (no configuration passed: %lld dropped, %lld restricted)\n", S.dropped, s.restricted);
  else if (rounds > 0 && pick < 0)
    printf("RESULT: FAIL (every configuration re-timed was dropped)\n");
  else
    printf("RESULT: PASS\n");
  return s.found && (rounds == 0 || pick >= 0) ? 0 : 1;
}
