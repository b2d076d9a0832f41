/*
 * tune.c -- practical 10: an auto-tuner. It picks the values of a program's compile-time parameters (BLOCK_X,
 * BLOCK_Y, ...) or run-time flags (-T=, -by=) that make it fastest, by building (where there is a compile
 * command) and timing the program once per configuration.
 *
 * The course's tool is Flamingo (Ben Spencer's "Autotuning System", Python 2). This is the same idea in C, and it
 * reads the same config file: [variables] {BLOCK_X, BLOCK_Y}, a tree whose sibling sub-lists are tuned one
 * after another instead of together ({{A},{B}} costs |A| + |B| - 1 tests, not |A| x |B|); [values] comma lists;
 * [testing] compile, test and clean commands with %NAME% replaced by the value and %%ID%% by the test number;
 * [scoring] repeat = N, min|max|med|avg and optimal; [output] log = results.csv, the course's columns. What it
 * teaches beyond the course:
 *   - the score is the program's own timed figure, ms= of its BENCH line (optimal = min_bench, the default;
 *     score = bench GBps with optimal = max for a rate). The course's min_time times the whole command, so
 *     process start, CUDA set-up and the copies are in every score: it still works, with a warning;
 *   - a run that fails (an exit code, a RESULT line other than PASS, no score) or does not compile is dropped,
 *     never the best ([testing] verdict = exit accepts a course program with no RESULT line); every command has a
 *     time limit ([testing] timeout = S, 300 s unless told);
 *   - [restrictions], one expression per line (BLOCK_X * BLOCK_Y <= 1024): a configuration that breaks one is
 *     not run. An expression may name the GPU's limits (BLOCK_X * BLOCK_Y * 4 <= DEVICE_SMEM_BLOCK: tune_device.c),
 *     read from the GPU here, or from a GPU profile (WORKBOOK_GPU_PROFILE=t4) where there is none;
 *   - the log is also a cache: run tune again and it runs only the configurations the log does not hold, so an
 *     interrupted tuning resumes. The log says how its scores were made, and a config that scores another way
 *     refuses it (-fresh starts it again);
 *   - strategies beside the course's exhaustive tree: random samples, and hill climbing with random restarts;
 *     -replay runs a strategy over a complete log and says how soon it came within 2 % of the best;
 *   - the best few are timed again, interleaved (A B C A B C ...), so that a decision survives the noise: when
 *     the runner-up is within the noise of the best, tune says so and picks by a stated rule;
 *   - tuned tables (step 5): a config's [table] names the program, its size variable and the settings as the
 *     program's flags; -sizes lists the size classes, -size=N tunes one class alone (a log of its own), and
 *     -table=DIR writes the winner's line into DIR/<this GPU>.txt, which the programs read (common/tuned.h).
 *     Its default = (the program's own settings) is where random and hill searches start: a table line never
 *     loses to the defaults it replaces at its own size, beyond the re-timing's noise.
 *
 *   ./tune examples/fake.conf                    the course's exhaustive search, in the tree's order
 *   ./tune examples/fake.conf -strategy=hill -budget=20 -seed=1    (or -strategy=random -samples=10)
 *   ./tune examples/fake.conf -replay=examples/fake_full.csv -strategy=hill -trials=50
 *   ./tune examples/laplace3d_tb_table.conf -size=512 -table=../tuned -strategy=hill -budget=20    (one class)
 * Like the course's tool it works in the config file's folder: the commands and the log are relative to it.
 */
#define _POSIX_C_SOURCE 200809L
#define COURSE_STEPS "practical 10, workbook steps 1 to 5 (course steps 1 to 6: Flamingo's auto-tuner, rebuilt in C)"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "gpu_limits.h"
#include "tune.h"

/* the settings read, as the course's tool prints them */
static void print_settings(const tune_conf *c) {
  static const char *const aggs[] = {"minimum", "maximum", "median", "mean"};
  char text[8192];
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
  if (c->device_known) { /* the limits the restrictions name, and whose they are */
    printf("with the limits of %s:", c->device_name);
    for (int d = 0, first = 1; d < TUNE_DEVICE_LIMITS; d++) {
      const char *name = tune_device_name(d);
      size_t n = strlen(name);
      int named = 0;
      for (int i = 0; i < c->nrules; i++)
        for (const char *at = strstr(c->rule[i], name); at; at = strstr(at + 1, name))
          named |= !(isalnum((unsigned char)at[n]) || at[n] == '_');
      if (named) printf("%s %s = %lld", first ? "" : ",", name, c->device[d]), first = 0;
    }
    printf("\n");
  }
  if (c->table_program[0])
    printf("\nTable: %s, one line per value of %s: %s\n", c->table_program, c->table_size, c->table_settings);
  if (c->table_default[0])
    printf("Start: the program's defaults, which random and hill searches run first: %s\n", c->table_default);
  printf("\ncompile:\n%s\n\ntest:\n%s\n\nclean:\n%s\n\n", c->compile[0] ? c->compile : "(none)", c->test,
         c->clean[0] ? c->clean : "(none)");
  if (c->score_kind == SCORE_BENCH)
    printf("Score: %s= of the last BENCH line%s%s", c->bench_key, c->bench_prog[0] ? " with prog=" : "", c->bench_prog);
  else if (c->score_kind == SCORE_TIME)
    printf("Score: the wall time of the test command");
  else
    printf("Score: the last number the program prints");
  printf(", %s is best; %d run%s per test", c->maximise ? "highest" : "lowest", c->repeat, c->repeat > 1 ? "s" : "");
  if (c->repeat > 1) printf(", their %s", aggs[c->aggregate]);
  printf("; each command stopped after %g s\n", c->timeout_s);
  for (int i = 0; i < c->nwarnings; i++) printf("warning: %s\n", c->warning[i]);
}

/* the strategy, and how many tests it will run at most */
static void print_plan(tune_session *S, int strategy, long long budget, long long samples, int seed) {
  const tune_conf *c = S->c;
  long long space = tune_space_size(c), tree = tune_tree_count(c, 0);
  int flat = c->node[0].nchildren == 0;
  S->planned = space - c->nrestricted;
  if (strategy == STRATEGY_EXHAUSTIVE) S->planned = flat ? tree - c->nrestricted : tree;
  if (strategy == STRATEGY_RANDOM && samples < S->planned) S->planned = samples;
  if (budget && budget < S->planned) S->planned = budget;
  if (strategy == STRATEGY_EXHAUSTIVE)
    printf("Strategy: exhaustive, the tree's tests in the course's order (the first variable fastest)\n");
  else if (strategy == STRATEGY_RANDOM)
    printf("Strategy: random, without repeats (seed %d)\n", seed);
  else
    printf("Strategy: hill climbing with random restarts over the full product of the values (seed %d)\n", seed);
  if (S->ncached || S->info.skipped)
    printf("The log '%s' holds %lld configurations: they are not run again%s\n", S->logpath, S->ncached,
           S->info.skipped ? " (some of its rows could not be used)" : "");
  printf("\nNumber of tests to be run: %lld\n", S->planned);
  if (c->repeat > 1) printf("(with %d repetitions each)\n", c->repeat);
  if (strategy == STRATEGY_EXHAUSTIVE && !flat && c->nrules)
    printf("(at most: those that break a restriction are left out as the tree meets them)\n");
  else if (c->nrestricted)
    printf("(%lld of the %lld configurations are left out by the restrictions)\n", c->nrestricted, space);
  printf("\n");
}

/* A check that the run must also pass: -strict (the restrictions leave out every configuration that cannot run)
 * and -goal= (the best within 2 % of a known best). A config under exercises/ is a learner's starting file, and a
 * failed check is the exercise not yet done. Returns 1 after the FAIL line, else 0. */
static int check_failed(const char *config, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int check_failed(const char *config, const char *fmt, ...) {
  int exercise = strstr(config, "exercises/") != NULL;
  va_list ap;
  va_start(ap, fmt);
  printf("RESULT: FAIL (%s", exercise ? "exercise not done: " : "");
  vprintf(fmt, ap);
  va_end(ap);
  if (exercise) printf("; fill in the TODO in %s", config);
  printf(")\n");
  return 1;
}

/* the course's closing lines, then the re-timing of the best; the exit code */
static int finish(tune_session *S, tune_search *s, int rounds, int top, const char *config, int strict, double goal,
                  int *chosen) {
  const tune_conf *c = S->c;
  char text[8192];
  double wall = tune_now_s() - S->t0;
  if (s->found) {
    const char *word = c->maximise ? "Maximal" : "Minimal";
    tune_describe(c, s->best, text, sizeof(text));
    printf("\n%s valuation:\n%s\n%s Score:\n%.6g\n", word, text, word, c->maximise ? -s->best_cost : s->best_cost);
  }
  printf("The system ran %lld tests, taking %dm%.2fs.\n", s->evals, (int)(wall / 60), fmod(wall, 60));
  char retry[64] = ""; /* as the log counts them: a retry (a SKIP, the time limit) is not a dropped configuration */
  if (S->retried) snprintf(retry, sizeof(retry), ", %lld to retry", S->retried);
  printf("(%lld run now, %lld taken from the log, %lld dropped%s, %lld left out by the restrictions; wall time "
         "including compiles)\n",
         S->ran, S->from_log, S->dropped - S->retried, retry, s->restricted);
  printf("A testing log was saved to '%s'\n", S->logpath);
  if (fclose(S->log) != 0) S->log_failed = 1;
  if (S->log_failed) {
    printf("RESULT: FAIL (cannot write the log %s: the search stopped)\n", S->logpath);
    return 1;
  }
  if (!s->found && S->dropped && S->retried == S->dropped) { /* every run SKIPped or ran out of time: the machine */
    printf("RESULT: SKIP (no configuration could run here: every one is to retry, for a SKIP or the time limit, the "
           "first %s)\n",
           S->first_drop);
    return 2;
  }
  if (strict && S->dropped)
    return check_failed(config, "-strict: %lld configuration%s that the restrictions allow did not run, the first %s",
                        S->dropped, S->dropped > 1 ? "s" : "", S->first_drop);
  if (!s->found) {
    printf("RESULT: FAIL (no configuration passed: %lld dropped, %lld to retry, %lld restricted)\n",
           S->dropped - S->retried, S->retried, s->restricted);
    return 1;
  }
  double best = c->maximise ? -s->best_cost : s->best_cost;
  if (goal > 0 && (c->maximise ? best < goal / 1.02 : best > goal * 1.02))
    return check_failed(config, "-goal=%g: the best found, %.6g, is not within 2 %% of it", goal, best);
  if (rounds > 0) {
    int best[16][TUNE_MAX_VARS], k;
    double costs[16];
    k = tune_search_top(s, top, best, costs);
    int pick = tune_retime(c, best, k, rounds, S->next_id, S->verbose, tune_unit(c));
    printf("Wall time in all, the search, its compiles and the re-timing: %.1f s\n", tune_now_s() - S->t0);
    if (pick < 0) {
      printf("RESULT: FAIL (every configuration re-timed was dropped)\n");
      return 1;
    }
    memcpy(chosen, best[pick], sizeof(int) * TUNE_MAX_VARS);
  } else {
    memcpy(chosen, s->best, sizeof(int) * TUNE_MAX_VARS);
  }
  printf("RESULT: PASS\n");
  return 0;
}

int main(int argc, char **argv) {
  const char *strategy_word = "exhaustive", *replay_path = "", *config = NULL, *profile = "", *size_word = "",
             *table_dir = "";
  long long samples = 0, budget = 0;
  int seed = 1, rounds = 5, top = 3, fresh = 0, verbose = 0, trials = 1, strict = 0, sizes = 0;
  double within = 2, goal = 0;
  arg_spec opts[] = {
      {"strategy", ARG_WORD, &strategy_word, 0, 0, "exhaustive (the course's tree), random or hill"},
      {"samples", ARG_LONG, &samples, 0, 1e15, "random: configurations to run (0: a quarter of the allowed)"},
      {"budget", ARG_LONG, &budget, 0, 1e15,
       "evaluations at most (0: a quarter of the allowed for hill, no limit for the others)"},
      {"seed", ARG_INT, &seed, 0, 1e9, "random and hill: the seed"},
      {"retime", ARG_INT, &rounds, 0, 64, "rounds of interleaved re-timing of the best (0: none)"},
      {"top", ARG_INT, &top, 1, 16, "how many of the best to re-time"},
      {"fresh", ARG_FLAG, &fresh, 0, 1, "start the log again (else its configurations are not run again)"},
      {"verbose", ARG_FLAG, &verbose, 0, 1, "show every command and its output"},
      {"replay", ARG_WORD, &replay_path, 0, 0, "a complete log of this config: run the strategy over it instead"},
      {"trials", ARG_INT, &trials, 1, 10000, "replay: seeds to try, from -seed on"},
      {"within", ARG_DOUBLE, &within, 0, 100, "replay: the target, within this many % of the log's best"},
      {"strict", ARG_FLAG, &strict, 0, 1, "FAIL if a configuration the restrictions allow does not run"},
      {"goal", ARG_DOUBLE, &goal, 0, 1e15, "FAIL unless the best is within 2 % of this score (a known best)"},
      {"size", ARG_WORD, &size_word, 0, 0, "with a [table]: one value of its size variable, tuned alone"},
      {"table", ARG_WORD, &table_dir, 0, 0, "with a [table] and -size: write the best to DIR/<this GPU>.txt"},
      {"sizes", ARG_FLAG, &sizes, 0, 1, "with a [table]: print its size variable's values on one line, run nothing"},
      {"profile", ARG_WORD, &profile, 0, 0,
       "a GPU profile (t4, rtx3060 ...): WORKBOOK_GPU_PROFILE for tune's DEVICE_ limits and every command it runs"},
  };
  char **rest = malloc(sizeof(char *) * (size_t)argc), msg[TUNE_MSG_LEN * 2];
  int nrest = 0;
  if (!rest) args_fail("out of memory");
  for (int a = 0; a < argc; a++) { /* the config is the one argument that is not an option */
    if (a == 0 || argv[a][0] == '-') {
      rest[nrest] = argv[a];
      nrest++;
    } else if (config) {
      args_fail("two config files: %s and %s", config, argv[a]);
    } else {
      config = argv[a];
    }
  }
  int rc = args_parse(nrest, rest, opts, ARG_COUNT(opts), msg, sizeof(msg));
  free(rest);
  if (rc == ARGS_HELP) {
    args_usage("./tune CONFIG.conf", opts, ARG_COUNT(opts));
    printf("  or: ./tune CONFIG.conf -replay=LOG.csv -strategy=hill -trials=20\n");
    return 0;
  }
  if (rc == ARGS_BAD) args_fail("%s", msg);
  int strategy = tune_strategy_parse(strategy_word);
  if (strategy < 0) args_fail("-strategy=%s: exhaustive, random or hill", strategy_word);
  if (!config) args_fail("no config file: ./tune CONFIG.conf (-help lists the options)");
  if (profile[0] && !gpu_profile_find(profile))
    args_fail("-profile=%s is not a GPU profile (t4, rtx3060, rtx4060, a100, l4)", profile);
  if (profile[0]) setenv("WORKBOOK_GPU_PROFILE", profile, 1); /* for the limits and for the programs tuned */
  tune_session S;
  memset(&S, 0, sizeof(S));
  tune_conf *c = calloc(1, sizeof(tune_conf));
  if (!c) args_fail("out of memory");
  S.c = c;
  rc = tune_conf_load(config, c, msg, sizeof(msg));
  if (rc == 2) { /* restrictions on the GPU's limits, and no GPU or profile to take them from */
    printf("RESULT: SKIP (%s)\n", msg);
    return 2;
  }
  if (rc) args_fail("%s", msg);
  // -sizes: the [table]'s size classes, the values of its size variable on one line (make tune loops over them)
  if (sizes) {
    int v = c->table_size[0] ? tune_find_var(c, c->table_size, strlen(c->table_size)) : -1;
    if (v < 0) args_fail("-sizes: the config has no [table] section naming its size variable");
    for (int k = 0; k < c->nvals[v]; k++) printf("%s%s", c->val[v][k], k + 1 < c->nvals[v] ? " " : "\n");
    tune_conf_free(c);
    free(c);
    return 0;
  }
  // -size: one size class of the [table]'s size variable, with a log of its own
  if (size_word[0]) {
    int v = c->table_size[0] ? tune_find_var(c, c->table_size, strlen(c->table_size)) : -1;
    if (v < 0) args_fail("-size=%s: the config has no [table] section naming its size variable", size_word);
    int k = tune_find_value(c, v, size_word, strlen(size_word));
    if (k < 0) args_fail("-size=%s is not one of %s's values in the config", size_word, c->name[v]);
    c->val[v][0] = c->val[v][k], c->ival[v][0] = c->ival[v][k], c->isint[v][0] = c->isint[v][k];
    c->nvals[v] = 1;
    if (tune_check_rules(c, msg, sizeof(msg))) args_fail("%s: %s", config, msg);
    char *dot = strrchr(c->log, '.'), base[512], ext[64] = "";
    snprintf(base, sizeof(base), "%.*s", (int)(dot && !strchr(dot, '/') ? dot - c->log : (long)strlen(c->log)), c->log);
    if (dot && !strchr(dot, '/')) snprintf(ext, sizeof(ext), "%s", dot);
    snprintf(c->log, sizeof(c->log), "%.400s_%s%s%.60s", base, c->table_size, size_word, ext);
  }
  // -table: the GPU that runs the tests names the table, so there must be one, and no profile in between
  char gpu[256] = "";
  if (table_dir[0]) {
    if (!c->table_program[0]) args_fail("-table=%s: the config has no [table] section", table_dir);
    if (c->nvals[tune_find_var(c, c->table_size, strlen(c->table_size))] > 1)
      args_fail("-table needs -size=: one size class at a time");
    if (profile[0] || getenv("WORKBOOK_GPU_PROFILE"))
      args_fail("-table: a table is measured on the GPU itself, not a profile");
    if (tune_device_gpu_name(gpu, sizeof(gpu))) {
      printf("RESULT: SKIP (-table: there is no GPU here to measure and name the table after)\n");
      return 2;
    }
    if (mkdir(table_dir, 0777) != 0 && errno != EEXIST) args_fail("-table=%s: cannot make the folder", table_dir);
    if (table_dir[0] != '/') { /* named from here; tune works in the config's folder */
      char cwd[1024], abs[1024];
      if (!getcwd(cwd, sizeof(cwd))) args_fail("cannot read the current folder");
      snprintf(abs, sizeof(abs), "%.500s/%.500s", cwd, table_dir);
      table_dir = strdup(abs);
      if (!table_dir) args_fail("out of memory");
    }
  }
  if (replay_path[0]) { /* the log as named from here: replay runs no command */
    rc = tune_replay_report(c, replay_path, strategy, budget, samples, seed, trials, within / 100);
    tune_conf_free(c);
    free(c);
    return rc;
  }

  // the log, named from here; then work in the config's folder, as the course's tool does
  char dir[1024];
  snprintf(dir, sizeof(dir), "%s", config);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  if (slash && c->log[0] != '/')
    snprintf(S.logpath, sizeof(S.logpath), "%s/%s", dir, c->log);
  else
    snprintf(S.logpath, sizeof(S.logpath), "%s", c->log);
  if (slash && access(dir[0] ? dir : "/", X_OK)) args_fail("cannot enter the config's folder %s", dir);
  if (tune_session_open(&S, fresh, msg, sizeof(msg))) args_fail("%s", msg);
  if (slash && chdir(dir[0] ? dir : "/")) args_fail("cannot enter the config's folder %s", dir);
  S.verbose = verbose;
  print_settings(c);
  tune_defaults(c, strategy, &budget, &samples);
  print_plan(&S, strategy, budget, samples, seed);

  // the search
  S.tty = isatty(1) && !verbose; /* a terminal: the progress line rewrites itself */
  S.t0 = tune_now_s();
  if (S.tty) tune_progress(&S);
  tune_search s;
  if (tune_search_init(&s, c, tune_session_eval, &S, budget, (unsigned long long)seed)) args_fail("out of memory");
  tune_search_run(&s, strategy, samples);
  if (S.tty) printf("\r\033[K");
  int chosen[TUNE_MAX_VARS] = {0};
  rc = finish(&S, &s, rounds, top, config, strict, goal, chosen);
  if (rc == 0 && table_dir[0]) { /* the chosen configuration's line in this GPU's table */
    char settings[TUNE_CMD_LEN], key[128], path[2048];
    int v = tune_find_var(c, c->table_size, strlen(c->table_size));
    tune_subst(c, c->table_settings, chosen, 0, settings, sizeof(settings));
    tune_table_key(gpu, key, sizeof(key));
    snprintf(path, sizeof(path), "%s/%s.txt", table_dir, key);
    if (tune_table_write(path, gpu, c->table_program, c->val[v][chosen[v]], settings, msg, sizeof(msg))) {
      printf("RESULT: FAIL (%s)\n", msg);
      rc = 1;
    } else {
      printf("Table: %s %s: %s, in %s\n", c->table_program, c->val[v][chosen[v]], settings, path);
    }
  }
  tune_search_free(&s);
  tune_session_free(&S);
  tune_conf_free(c);
  free(c);
  return rc;
}
