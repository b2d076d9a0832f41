/*
 * tune.h -- practical 10's auto-tuner, shared by tune.c (the program) and the CPU tests (tests/test_prac10.c).
 * One role per file:
 *   tune_tree.c    the variables: the tree of `variables =`, the course's count of its tests, the full product
 *   tune_ini.c     the config file's syntax: [sections], keys and values, as RawConfigParser reads them
 *   tune_conf.c    the config's settings: what each means, checked, and the values
 *   tune_expr.c    [restrictions]: integer expressions, checked over the whole product when the config is read
 *   tune_device.c  the GPU's limits that a restriction may name (DEVICE_SMEM_BLOCK ...), or a GPU profile's
 *   tune_proc.c    a command run as a process: the time limit on the process, its output in temporary files
 *   tune_run.c     one configuration: its commands filled in and run, the verdict and the score of a run
 *   tune_log.c     the CSV log: what it records, read back as the cache of a new run and for replay
 *   tune_search.c  the strategies: the tree's exhaustive order, random samples, and hill climbing's pieces
 *   tune_hill.c    hill climbing with random restarts (the learner writes its moves: exercises/tune_hill.c)
 *   tune_retime.c  the best few timed again, interleaved, and the noise rule
 *   tune_replay.c  replay: a strategy over a complete log instead of over programs
 *   tune_session.c a live run: the log as the cache, each configuration run and logged, the progress line
 *   tune_table.c   a tuned table's line (tuned/<gpu>.txt), which common/tuned.h reads in the programs
 * Plain C11 with POSIX processes, the CUDA libraries loaded with dlopen only where a GPU's limits or name is asked.
 * tune.c's header comment says what the tool teaches.
 */
#ifndef TUNE_H
#define TUNE_H

#include <stddef.h>
#include <stdio.h>

#define TUNE_MAX_VARS 32
#define TUNE_MAX_VALUES 256
#define TUNE_MAX_NODES 64
#define TUNE_MAX_RESTRICT 32
#define TUNE_MAX_REPEAT 100
#define TUNE_MAX_WARNINGS 8
#define TUNE_MAX_SPACE (1LL << 20) /* configurations in the full product: one memo entry each */
#define TUNE_CMD_LEN 2048
#define TUNE_MSG_LEN 320
#define TUNE_TIMEOUT_S 300.0         /* a command's time limit unless [testing] timeout = S */
#define TUNE_OUTPUT_MAX (64LL << 20) /* bytes of output at most: a command that prints more is stopped */
#define TUNE_DEVICE_LIMITS 11        /* the DEVICE_ names a restriction may use (tune_device.c) */

enum { AGG_MIN, AGG_MAX, AGG_MED, AGG_AVG };
enum { SCORE_BENCH, SCORE_TIME, SCORE_LAST }; /* a BENCH line's key=; wall time of `test`; last bare number */
enum { EVAL_OK = 1, EVAL_DROPPED, EVAL_RESTRICTED };
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
  long long nrestricted;             /* configurations of the product that break one */
  char compile[TUNE_CMD_LEN], test[TUNE_CMD_LEN], clean[TUNE_CMD_LEN]; /* "" where not given */
  int verdict_exit; /* [testing] verdict = exit: exit code 0 suffices (a course program with no RESULT line) */
  double timeout_s; /* [testing] timeout = S: a command running longer is killed (TUNE_TIMEOUT_S unless given) */
  int repeat, aggregate;
  int score_kind, maximise;
  char bench_key[32], bench_prog[64]; /* SCORE_BENCH: the key (ms) and the prog= to pick ("" any, if one) */
  char log[512];
  int nwarnings;
  char warning[TUNE_MAX_WARNINGS][TUNE_MSG_LEN]; /* lines for the user: min_time, a %NAME% naming nothing */
  char *arena;                                   /* the values' text */
  int device_known;                              /* a restriction names a DEVICE_ limit, and here they are: */
  long long device[TUNE_DEVICE_LIMITS];
  char device_name[160];                  /* the GPU (or profile) they are of */
  char table_program[64], table_size[64]; /* [table]: the program, the variable that is its size class */
  char table_settings[TUNE_CMD_LEN];      /* ... and its flags, with %NAME% (common/tuned.h reads them) */
  char table_default[TUNE_CMD_LEN];       /* ... and the program's own defaults, "T=3 BY=48" (no size): random and
                                             hill run them first, so that no line is one they beat */
} tune_conf;

/* tune_tree.c */
int tune_find_var(const tune_conf *c, const char *name, size_t n); /* -1 if none */
int tune_find_value(const tune_conf *c, int v, const char *text, size_t n); /* its index in v's list; -1 if none */
int tune_add_var(tune_conf *c, const char *name, char *msg, size_t len);
int tune_parse_tree(tune_conf *c, const char *text, char *msg, size_t len);
long long tune_tree_count(const tune_conf *c, int node); /* the course's rule; -1 past 2^62 */
long long tune_space_size(const tune_conf *c);           /* the product of the value counts; -1 past 2^62 */
void tune_tree_string(const tune_conf *c, int node, char *buf, size_t len);
long long tune_linear(const tune_conf *c, const int *idx); /* first variable fastest, as the course counts */
void tune_unlinear(const tune_conf *c, long long lin, int *idx);
void tune_describe(const tune_conf *c, const int *idx, char *buf, size_t len); /* "A = 1, B = 2" */

/* tune_ini.c */
enum { S_VARIABLES, S_VALUES, S_TESTING, S_SCORING, S_OUTPUT, S_RESTRICTIONS, S_TABLE, S_COUNT };
extern const char *const tune_sections[S_COUNT];
typedef struct {
  int section, line;
  char key[64];
  char *value; /* malloc'd; in [restrictions] the whole line, with no key */
} tune_ini_entry;
typedef struct {
  tune_ini_entry *en;
  int n, cap;
  int section, last; /* the section being read; its entry that an indented line continues (-1: none) */
  int seen[S_COUNT]; /* the line of each section's header, 0 if none */
} tune_ini;
int tune_ini_read(char *text, const char *file, tune_conf *c, tune_ini *f, char *msg, size_t len);
void tune_ini_free(tune_ini *f);
char *tune_trim(char *s); /* s without its leading and trailing white space (cut in place) */
/* the message into msg (len bytes), and -1: the way every reader of the config reports bad input */
int tune_fail(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* tune_conf.c */
void tune_warn(tune_conf *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int tune_conf_parse(const char *text, const char *file, tune_conf *c, char *msg, size_t len);
int tune_conf_load(const char *path, tune_conf *c, char *msg, size_t len);
void tune_conf_free(tune_conf *c);
int tune_add_values(tune_conf *c, int v, const char *list, char *msg, size_t len);
/* the [table]'s default: the indexes of the values it names (named[v] 1), 1; 0 when there is none; -1 with msg.
 * It names no size; a variable it leaves out (softmax's ROWS, tied to the size) takes what the restrictions allow */
int tune_default_index(const tune_conf *c, int *idx, int *named, char *msg, size_t len);

/* tune_expr.c: 0, or -1 with msg (bad syntax; a division by zero or an overflow where it is evaluated) */
int tune_expr_eval(const tune_conf *c, const char *text, const long long *vals, long long *out, char *msg, size_t len);
int tune_allowed(const tune_conf *c, const int *idx, int *broken); /* 1; 0 (restriction *broken); -1 an error */
int tune_check_rules(tune_conf *c, char *msg, size_t len);         /* every configuration; sets nrestricted */

/* one configuration's run (tune_run.c), and a row of the log (tune_log.c) */
typedef struct {
  int status; /* EVAL_OK or EVAL_DROPPED */
  int retry;  /* dropped for the time limit or a SKIP (the machine, not the configuration): a later run tries again */
  int nscores;
  double score[TUNE_MAX_REPEAT], overall;
  double seconds; /* wall time of its compile and runs */
  char why[TUNE_MSG_LEN];
} tune_result;

/* tune_proc.c */
typedef struct {
  int status;                      /* exit code, or -1 when it did not exit normally */
  int signal, timed_out, too_much; /* killed by a signal; for the time limit; for printing over TUNE_OUTPUT_MAX */
  double seconds;
  FILE *out, *err; /* what it printed: temporary files, rewound */
} tune_proc;
double tune_now_s(void);                                           /* seconds, from a monotonic clock */
int tune_run_cmd(const char *cmd, double timeout_s, tune_proc *p); /* 0, or -1 when it could not start */
void tune_proc_free(tune_proc *p);
char *tune_next_line(FILE *f, char **buf, size_t *cap); /* a line without its newline, NUL bytes as spaces */

/* tune_run.c */
#define TUNE_RETRY (-2) /* tune_score_output, tune_compile, tune_run_once: dropped, but to be tried again */
int tune_subst(const tune_conf *c, const char *tmpl, const int *idx, long long id, char *out, size_t len);
int tune_score_output(const tune_conf *c, const tune_proc *p, double *score, char *why, size_t len);
int tune_compile(const tune_conf *c, const int *idx, long long id, int verbose, char *why, size_t len);
int tune_run_once(const tune_conf *c, const int *idx, long long id, int verbose, double *score, char *why, size_t len);
void tune_clean(const tune_conf *c, const int *idx, long long id, int verbose);
void tune_evaluate(const tune_conf *c, const int *idx, long long id, int verbose, tune_result *r);

/* tune_log.c: the CSV log, "# " lines saying how its scores were made, then the course's columns and Seconds,
 * Status: TestNo,<variables>,Score_1..Score_N,Score_Overall,Seconds,Status */
typedef struct {
  long long id;
  int idx[TUNE_MAX_VARS];
  tune_result r;
} tune_row;
typedef int (*tune_row_fn)(void *ctx, const tune_row *row); /* 0, or -1 to stop (out of memory) */
typedef struct {
  long long skipped; /* rows that could not be taken: cut short, a value not in the config, a score not a number */
  long long last_id; /* the largest test number of any row, taken or not: new tests are numbered after it */
} tune_log_info;
int tune_log_start(FILE *f, const tune_conf *c);                      /* the "# " lines and the header; 0 or -1 */
int tune_log_write(FILE *f, const tune_conf *c, const tune_row *row); /* one row, flushed; 0 or -1 */
int tune_log_read(const char *path, const tune_conf *c, tune_row_fn fn, void *ctx, tune_log_info *info, char *msg,
                  size_t len); /* 0; 1: no log yet (no file, or an empty one); -1: msg */

/* tune_table.c: a tuned table (tuned/<gpu>.txt), one line per program and size class */
int tune_table_write(const char *path, const char *gpu_name, const char *program, const char *size,
                     const char *settings, char *msg, size_t len); /* 0, or -1 with msg */
void tune_table_key(const char *gpu_name, char *key, size_t len);  /* h100, h200, or a slug: as tuned.h */

/* tune_device.c */
int tune_device_gpu_name(char *name, size_t len);            /* GPU 0's name from the driver; -1 when there is none */
int tune_device_index(const char *name, size_t n);           /* DEVICE_SMS -> its index; -1 if none */
const char *tune_device_list(void);                          /* the names, for a message */
const char *tune_device_name(int i);                         /* name i, 0 <= i < TUNE_DEVICE_LIMITS */
int tune_device_limits(tune_conf *c, char *why, size_t len); /* 0 filled; 1 no GPU and no profile; -1 an error */

/* tune_search.c */
typedef struct {
  int status;  /* EVAL_OK, EVAL_DROPPED or EVAL_RESTRICTED */
  double cost; /* the score, made lower-is-better (a maximised score negated); INFINITY unless EVAL_OK */
  int stop;    /* the evaluator asks the search to stop (replay: the target is reached) */
} tune_eval;
typedef tune_eval (*tune_eval_fn)(void *ctx, const int *idx);

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
  long long space;        /* the full product's size */
  signed char *status;    /* by linear index: 0 not asked for yet, else EVAL_* */
  double *cost;           /* by linear index */
  long long *seen, nseen; /* the linear indexes asked for, in order */
  int start_due;          /* the [table]'s default is still to be run first (tune_random_unseen) */
  int start[TUNE_MAX_VARS];
} tune_search;

int tune_search_init(tune_search *s, const tune_conf *c, tune_eval_fn eval, void *ctx, long long budget,
                     unsigned long long seed); /* -1: out of memory */
void tune_search_free(tune_search *s);
tune_eval tune_search_point(tune_search *s, const int *idx);
int tune_search_run(tune_search *s, int strategy, long long samples);
int tune_search_top(const tune_search *s, int k, int idx[][TUNE_MAX_VARS], double *cost);
const char *tune_strategy_name(int strategy);
int tune_strategy_parse(const char *word);
long long tune_quarter(const tune_conf *c); /* a quarter of the allowed configurations: the 25 % goal */
void tune_defaults(const tune_conf *c, int strategy, long long *budget, long long *samples); /* fills in zeros */
unsigned long long tune_random(unsigned long long *state); /* the next of the -seed's sequence */
int tune_random_unseen(tune_search *s, int *idx); /* 1: idx not asked for yet ([table] default first); 0: none left */
int tune_neighbour(tune_search *s, const int *cur, int v, int step, int *nb, tune_eval *there); /* 0: none */
void tune_shuffle_moves(tune_search *s, int *order, int n, int last); /* the 2 x nvars moves, last first */

/* tune_hill.c (the learner's exercise: exercises/tune_hill.c) */
void tune_hill_climb(tune_search *s);
extern const char tune_exercise_todo[]; /* "" here; the starting file's TODO, which replay's verdict names */

/* tune_retime.c */
typedef struct {
  int n;
  double median, min, max, mean, sd, cv;
} tune_stat;
void tune_stats(const double *x, int n, tune_stat *s);
double tune_aggregate(const double *x, int n, int agg);
int tune_within_noise(const tune_stat *best, const tune_stat *second);
int tune_retime(const tune_conf *c, int idx[][TUNE_MAX_VARS], int k, int rounds, long long first_id, int verbose,
                const char *unit);

/* tune_replay.c: a strategy over a log that holds every allowed configuration of c's product */
typedef struct {
  const tune_conf *conf;
  long long space, nrows, nok;
  tune_log_info info;
  signed char *status; /* by linear index: 0 not in the log, else EVAL_OK or EVAL_DROPPED */
  double *cost, *seconds;
  long long *id;
  double best_cost;
  long long best_lin;
} tune_replay;

int tune_replay_load(const char *path, const tune_conf *c, tune_replay *rp, char *msg, size_t len);
void tune_replay_free(tune_replay *rp);
int tune_replay_trial(tune_replay *rp, int strategy, long long budget, long long samples, unsigned long long seed,
                      double within, long long *evals, double *seconds);
int tune_replay_report(const tune_conf *c, const char *path, int strategy, long long budget, long long samples,
                       int seed, int trials, double within); /* prints; 0 when the 25 % goal holds */

/* tune_session.c: a live run; tune_session_eval is the strategies' evaluator */
typedef struct {
  tune_conf *c;
  FILE *log;
  char logpath[2048]; /* as the user names it: from where tune was started */
  tune_row **cache;   /* by linear index: the log's row of each configuration, NULL where it holds none */
  tune_log_info info;
  long long ncached, next_id, planned, ran, from_log, dropped, retried; /* dropped counts retried too: a SKIP or time */
  int verbose, tty, have_best, log_failed;
  double t0, run_seconds, best_cost, best_score;
  long long best_id;
  char first_drop[400]; /* the first configuration dropped, and why (for -strict) */
} tune_session;
int tune_session_open(tune_session *S, int fresh, char *msg, size_t len);
void tune_session_free(tune_session *S);
tune_eval tune_session_eval(void *ctx, const int *idx);
void tune_progress(tune_session *S);
const char *tune_unit(const tune_conf *c);                                 /* "ms", "s" or "" */
void tune_score_text(const tune_conf *c, double x, char *buf, size_t len); /* "2 ms" */

#endif /* TUNE_H */
