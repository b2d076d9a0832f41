/*
 * tune.h -- practical 10's auto-tuner, shared by tune.c (the program) and the CPU tests (tests/test_prac10.c):
 *   tune_conf.c    the config file, the variable tree and its test count, the restrictions' expressions
 *   tune_run.c     one configuration run (commands, verdict, score), the CSV log, the statistics of re-timing
 *   tune_search.c  the strategies (the tree's exhaustive order, random, hill climbing) and replay over a log
 * Plain C11 with POSIX processes: no CUDA. tune.c's header comment says what the tool teaches.
 */
#ifndef TUNE_H
#define TUNE_H

#include <stddef.h>

#define TUNE_MAX_VARS 32
#define TUNE_MAX_VALUES 256
#define TUNE_MAX_NODES 64
#define TUNE_MAX_RESTRICT 32
#define TUNE_MAX_REPEAT 100
#define TUNE_CMD_LEN 2048
#define TUNE_MSG_LEN 320

enum { AGG_MIN, AGG_MAX, AGG_MED, AGG_AVG };
enum { SCORE_BENCH, SCORE_TIME, SCORE_LAST }; /* a BENCH line's key=; wall time of `test`; last bare number */
enum { EVAL_OK, EVAL_DROPPED, EVAL_RESTRICTED };
enum { STRATEGY_EXHAUSTIVE, STRATEGY_RANDOM, STRATEGY_HILL };

/* one level of the variable tree: its own variables (indexes into tune_conf.name) and its sub-lists */
typedef struct {
  int nvars, vars[TUNE_MAX_VARS];
  int nchildren, children[TUNE_MAX_VARS]; /* indexes into tune_conf.node */
} tune_node;

typedef struct {
  int nvars;
  char name[TUNE_MAX_VARS][64];
  int nvals[TUNE_MAX_VARS];
  char *val[TUNE_MAX_VARS][TUNE_MAX_VALUES];      /* the values as written ("32", "-O3") */
  long long ival[TUNE_MAX_VARS][TUNE_MAX_VALUES]; /* as integers, where isint */
  unsigned char isint[TUNE_MAX_VARS][TUNE_MAX_VALUES];
  int nnodes; /* node[0] is the root: the outer braces of `variables =` */
  tune_node node[TUNE_MAX_NODES];
  int nrules;
  char rule[TUNE_MAX_RESTRICT][256]; /* [restrictions]: a configuration runs only where every one is true */
  char compile[TUNE_CMD_LEN], test[TUNE_CMD_LEN], clean[TUNE_CMD_LEN]; /* "" where not given */
  int verdict_exit; /* [testing] verdict = exit: exit code 0 suffices (a course program with no RESULT line) */
  double timeout_s; /* [testing] timeout = S: a command running longer is killed (0: no limit) */
  int repeat, aggregate;
  int score_kind, maximise, score_given; /* score_given: `score = bench KEY`, whose direction optimal gives */
  char bench_key[32], bench_prog[64];    /* SCORE_BENCH: the key (ms) and the prog= to pick ("" any) */
  char log[512];
  char warning[TUNE_MSG_LEN]; /* one line for the user, "" if none (min_time, a %NAME% that names nothing) */
  char *arena;                /* the values' text */
} tune_conf;

/* tune_conf.c */
int tune_conf_parse(const char *text, const char *file, tune_conf *c, char *msg, size_t len);
int tune_conf_load(const char *path, tune_conf *c, char *msg, size_t len);
void tune_conf_free(tune_conf *c);
int tune_add_var(tune_conf *c, const char *name, char *msg, size_t len);
int tune_add_values(tune_conf *c, int v, const char *list, char *msg, size_t len);
long long tune_tree_count(const tune_conf *c, int node); /* the course's rule; -1 past 2^62 */
long long tune_space_size(const tune_conf *c);           /* the product of the value counts; -1 past 2^62 */
void tune_tree_string(const tune_conf *c, int node, char *buf, size_t len);
int tune_expr_eval(const tune_conf *c, const char *text, const long long *vals, long long *out, char *msg, size_t len);
int tune_allowed(const tune_conf *c, const int *idx, int *broken);             /* 1, or 0 with the restriction broken */
void tune_describe(const tune_conf *c, const int *idx, char *buf, size_t len); /* "A = 1, B = 2" */
long long tune_linear(const tune_conf *c, const int *idx); /* first variable fastest, as the course counts */
void tune_unlinear(const tune_conf *c, long long lin, int *idx);

/* tune_run.c: one configuration's run */
typedef struct {
  int status; /* EVAL_OK or EVAL_DROPPED */
  int nscores;
  double score[TUNE_MAX_REPEAT], overall;
  double seconds; /* wall time of its compile and runs */
  char why[TUNE_MSG_LEN];
} tune_result;

typedef struct {
  int status;            /* exit code, or -1 when it did not exit normally */
  int timed_out, signal; /* killed for the timeout, or by a signal */
  double seconds;
  char *out, *err; /* what it printed, malloc'd */
} tune_proc;

int tune_subst(const tune_conf *c, const char *tmpl, const int *idx, long long id, char *out, size_t len);
int tune_run_cmd(const char *cmd, double timeout_s, tune_proc *p);
void tune_proc_free(tune_proc *p);
int tune_score_output(const tune_conf *c, const tune_proc *p, double *score, char *why, size_t len);
double tune_aggregate(const double *x, int n, int agg);
int tune_compile(const tune_conf *c, const int *idx, long long id, int verbose, char *why, size_t len);
int tune_run_once(const tune_conf *c, const int *idx, long long id, int verbose, double *score, char *why, size_t len);
void tune_clean(const tune_conf *c, const int *idx, long long id, int verbose);
void tune_evaluate(const tune_conf *c, const int *idx, long long id, int verbose, tune_result *r);

/* the CSV log: TestNo,<vars>,Score_1..Score_n,Score_Overall,Seconds,Status */
typedef struct {
  long long id;
  int idx[TUNE_MAX_VARS];
  tune_result r;
  int has_seconds;
} tune_row;
typedef int (*tune_row_fn)(void *ctx, const tune_row *row);
void tune_log_header(const tune_conf *c, char *buf, size_t len);
void tune_log_format(const tune_conf *c, const tune_row *row, char *buf, size_t len);
int tune_log_read(const char *path, tune_conf *c, int build, tune_row_fn fn, void *ctx, long long *skipped, char *msg,
                  size_t len);

typedef struct {
  int n;
  double median, min, max, mean, sd, cv;
} tune_stat;
void tune_stats(const double *x, int n, tune_stat *s);
int tune_within_noise(const tune_stat *best, const tune_stat *second);

/* tune_search.c */
typedef struct {
  int status;  /* EVAL_OK, EVAL_DROPPED or EVAL_RESTRICTED */
  double cost; /* the score, made lower-is-better (a maximised score negated); INFINITY unless EVAL_OK */
  int stop;    /* the evaluator asks the search to stop (replay: the target is reached) */
} tune_eval;
typedef tune_eval (*tune_eval_fn)(void *ctx, const int *idx);

typedef struct {
  long long key; /* linear index + 1; 0 is an empty slot */
  long long order;
  int status;
  double cost;
} tune_memo;

typedef struct {
  const tune_conf *conf;
  tune_eval_fn eval;
  void *ctx;
  long long budget; /* evaluations at most (0: no limit) */
  unsigned long long rng;
  long long evals, restricted;
  int stopped, found;
  double best_cost;
  int best[TUNE_MAX_VARS];
  tune_memo *memo;
  long long memo_cap, memo_used;
} tune_search;

void tune_search_init(tune_search *s, const tune_conf *c, tune_eval_fn eval, void *ctx, long long budget,
                      unsigned long long seed);
void tune_search_free(tune_search *s);
tune_eval tune_search_point(tune_search *s, const int *idx);
int tune_search_run(tune_search *s, int strategy, long long samples);
int tune_search_top(const tune_search *s, int k, int idx[][TUNE_MAX_VARS], double *cost);
const char *tune_strategy_name(int strategy);
int tune_strategy_parse(const char *word);

/* replay: a strategy over a recorded log instead of running programs */
typedef struct {
  tune_conf conf;  /* the variables and values of the log's columns; a flat tree */
  tune_memo *rows; /* by linear index: status and cost; .order is the row's place in seconds[] and id[] */
  long long cap, nrows, nok, skipped;
  double *seconds;
  long long *id;
  int has_seconds, maximise;
  double best_cost;
  long long best_row;
  int best[TUNE_MAX_VARS];
} tune_replay;

int tune_replay_load(const char *path, int maximise, tune_replay *rp, char *msg, size_t len);
void tune_replay_free(tune_replay *rp);
int tune_replay_trial(tune_replay *rp, int strategy, long long budget, long long samples, unsigned long long seed,
                      double within, long long *evals, double *seconds);

#endif /* TUNE_H */
