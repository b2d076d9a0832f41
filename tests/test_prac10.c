/*
 * test_prac10.c -- practical 10's auto-tuner (prac10/tune_*.c), no GPU and no program to tune: the config
 * parser on the course's laplace3d.conf and hello.conf and on bad configs, the tree's test count and order, the
 * restrictions' expressions, the score read from a run's output, the processes, the CSV log read back, the
 * strategies over a formula, and replay over a written log. tests/test_tune.sh runs the whole program.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../prac10/tune.h"
#include "test.h"

static char msg[TUNE_MSG_LEN];
static tune_conf conf; /* one at a time: tune_conf is large */

/* the course's laplace3d.conf, as course-9to12.md quotes it */
static const char *laplace3d_conf = "[variables]\n"
                                    "variables = {BLOCK_X, BLOCK_Y}\n"
                                    "\n"
                                    "[values]\n"
                                    "BLOCK_X = 32, 64, 128\n"
                                    "BLOCK_Y = 2, 4, 6\n"
                                    "#BLOCK_X = 16, 32, 48, 64, 128\n"
                                    "\n"
                                    "[testing]\n"
                                    "compile = make -B ID=%%ID%% BLOCK_X=%BLOCK_X% BLOCK_Y=%BLOCK_Y%\n"
                                    "test = ./bin/laplace3d_%%ID%%\n"
                                    "clean = rm bin/laplace3d_%%ID%%\n"
                                    "\n"
                                    "[scoring]\n"
                                    "repeat = 3, min\n"
                                    "optimal = min_time\n"
                                    "\n"
                                    "[output]\n"
                                    "log = results/laplace3d.csv\n";

/* hello.conf's shape: three independent sub-lists of 3, 2 and 5 values */
static const char *hello_conf =
    "[variables]\nvariables = {{FOO}, {BAR}, {OPTLEVEL}}\n"
    "[values]\nFOO = 1, 2, 3\nBAR = 1, 2\nOPTLEVEL = -O0, -O1, -O2, -O3, -Os\n"
    "[testing]\ncompile = gcc -DFOO=%FOO% -DBAR=%BAR% %OPTLEVEL% -o bin/hello_%%ID%% hello.c\n"
    "test = ./bin/hello_%%ID%%\n[scoring]\noptimal = min_time\n[output]\nlog = hello.csv\n";

static int parse(const char *text) {
  tune_conf_free(&conf);
  return tune_conf_parse(text, "t.conf", &conf, msg, sizeof(msg));
}

/* a config of the given tree and value lists ("A = 1, 2\nB = 1, 2, 3\n"), scored by BENCH ms */
static int parse_tree(const char *tree, const char *values, const char *restrictions) {
  char text[4096];
  snprintf(text, sizeof(text),
           "[variables]\nvariables = %s\n[values]\n%s[restrictions]\n%s\n[testing]\ntest = ./x\n"
           "[scoring]\n[output]\nlog = x.csv\n",
           tree, values, restrictions);
  return parse(text);
}

TEST(config_laplace3d) {
  CHECK(parse(laplace3d_conf) == 0);
  CHECK(conf.nvars == 2 && !strcmp(conf.name[0], "BLOCK_X") && !strcmp(conf.name[1], "BLOCK_Y"));
  CHECK(conf.nvals[0] == 3 && conf.nvals[1] == 3 && !strcmp(conf.val[0][2], "128") && conf.ival[1][2] == 6);
  CHECK(tune_tree_count(&conf, 0) == 9 && tune_space_size(&conf) == 9);
  CHECK(!strcmp(conf.compile, "make -B ID=%%ID%% BLOCK_X=%BLOCK_X% BLOCK_Y=%BLOCK_Y%"));
  CHECK(!strcmp(conf.test, "./bin/laplace3d_%%ID%%") && !strcmp(conf.clean, "rm bin/laplace3d_%%ID%%"));
  CHECK(conf.repeat == 3 && conf.aggregate == AGG_MIN && conf.score_kind == SCORE_TIME && !conf.maximise);
  CHECK(!strcmp(conf.log, "results/laplace3d.csv"));
  CHECK(strstr(conf.warning, "min_time") != NULL); /* the course's wall time: a one-line warning */
  char buf[256];
  int idx[2] = {1, 2};
  tune_subst(&conf, conf.compile, idx, 7, buf, sizeof(buf));
  CHECK(!strcmp(buf, "make -B ID=7 BLOCK_X=64 BLOCK_Y=6"));
  tune_describe(&conf, idx, buf, sizeof(buf));
  CHECK(!strcmp(buf, "BLOCK_X = 64, BLOCK_Y = 6"));
  tune_tree_string(&conf, 0, buf, sizeof(buf));
  CHECK(!strcmp(buf, "{BLOCK_X, BLOCK_Y}"));
}

TEST(config_hello_8_tests) {
  CHECK(parse(hello_conf) == 0);
  CHECK(conf.nvars == 3 && conf.node[0].nvars == 0 && conf.node[0].nchildren == 3);
  CHECK(tune_tree_count(&conf, 0) == 8 && tune_space_size(&conf) == 30); /* 3 + 2 + 5 - 2, not 30 */
  CHECK(conf.isint[2][0] == 0 && !strcmp(conf.val[2][4], "-Os"));
}

TEST(config_nested_trees) {
  /* {A, {B, {C, D}}, {E}} with 2, 3, 2, 2, 4 values: {C, D} 4; {B, {C, D}} 3 x 4 = 12; the root 2 x (12 + 4 - 1) */
  CHECK(parse_tree("{A, {B, {C, D}}, {E}}", "A = 1, 2\nB = 1,2,3\nC = 1, 2\nD = 1, 2\nE = 1, 2, 3, 4\n", "") == 0);
  CHECK(conf.nnodes == 4 && tune_tree_count(&conf, 0) == 30 && tune_space_size(&conf) == 96);
  char buf[256];
  tune_tree_string(&conf, 0, buf, sizeof(buf));
  CHECK(!strcmp(buf, "{A, {B, {C, D}}, {E}}"));
  CHECK(parse_tree("{{A, B}, {C}}", "A = 1, 2, 3, 4, 5\nB = 1, 2, 3, 4, 5\nC = 1, 2, 3\n", "") == 0);
  CHECK(tune_tree_count(&conf, 0) == 27);
  CHECK(parse_tree("{ {{A}} }", "A = 1, 2, 3\n", "") == 0 && tune_tree_count(&conf, 0) == 3);
}

TEST(config_bad) {
  const char *values = "A = 1, 2\nB = 1, 2\n";
  CHECK(parse("[variables]\nvariables = {A}\n[values]\nA = 1\n[testing]\ntest = x\n[output]\nlog = l.csv\n") < 0 &&
        strstr(msg, "no [scoring] section"));
  CHECK(parse_tree("{A, {B}", values, "") < 0 && strstr(msg, "unbalanced braces"));
  CHECK(parse_tree("{A, B}}", values, "") < 0 && strstr(msg, "unbalanced braces"));
  CHECK(parse_tree("{A, {}}", values, "") < 0 && strstr(msg, "empty braces"));
  CHECK(parse_tree("{A, B, C}", values, "") < 0 && strstr(msg, "C has no values"));
  CHECK(parse_tree("{A, A}", values, "") < 0 && strstr(msg, "twice"));
  CHECK(parse_tree("A, B", values, "") < 0 && strstr(msg, "in braces"));
  CHECK(parse_tree("{A, B}", values, "A * Q <= 4") < 0 && strstr(msg, "Q is not a variable"));
  CHECK(parse_tree("{A, B}", values, "A * (B <= 4") < 0 && strstr(msg, "never closed"));
  CHECK(parse_tree("{A, B}", values, "A = 4") < 0 && strstr(msg, "t.conf:7: restriction"));
  CHECK(parse_tree("{A, B}", "A = 1, -O2\nB = 1\n", "A > 0") < 0 && strstr(msg, "not an integer"));
  CHECK(parse_tree("{A, B}", "A = 1, , 2\nB = 1\n", "") < 0 && strstr(msg, "an empty value"));
  CHECK(parse_tree("{A, B}", "A = 1, 2, 1\nB = 1\n", "") < 0 && strstr(msg, "listed twice"));
  CHECK(parse("[variables]\nvariables = {A}\n[values]\nA = 1\n[testing]\ntest = x\n[scoring]\noptimal = fastest\n"
              "[output]\nlog = l.csv\n") < 0 &&
        strstr(msg, "t.conf:8: optimal = fastest"));
  CHECK(parse("[variables]\nvariables = {A}\n[values]\nA = 1\n[testing]\ntest = x\ntset = y\n[scoring]\n"
              "[output]\nlog = l.csv\n") < 0 &&
        strstr(msg, "no setting 'tset'"));
  CHECK(parse("[variables]\nvariables = {A}\n[values]\nA = 1\n[testing]\ncompile = x\n[scoring]\n[output]\n"
              "log = l.csv\n") < 0 &&
        strstr(msg, "no test = command"));
  CHECK(parse("variables = {A}\n") < 0 && strstr(msg, "before any [section]"));
  CHECK(parse("[variables]\nvariables = {A}\n[valeus]\n") < 0 && strstr(msg, "unknown section"));
}

TEST(config_scoring_forms) {
  const char *head = "[variables]\nvariables = {A}\n[values]\nA = 1, 2\n[testing]\ntest = ./x\n[output]\nlog = l.csv\n";
  char text[1024];
  snprintf(text, sizeof(text), "%s[scoring]\n", head);
  CHECK(parse(text) == 0 && conf.score_kind == SCORE_BENCH && !strcmp(conf.bench_key, "ms") && !conf.maximise);
  CHECK(conf.repeat == 1 && !conf.warning[0]); /* the workbook's default: min_bench, no warning */
  snprintf(text, sizeof(text), "%s[scoring]\nscore = bench GBps prog=laplace3d_tb\noptimal = max\nrepeat = 5, med\n",
           head);
  CHECK(parse(text) == 0 && conf.score_kind == SCORE_BENCH && !strcmp(conf.bench_key, "GBps") && conf.maximise);
  CHECK(!strcmp(conf.bench_prog, "laplace3d_tb") && conf.repeat == 5 && conf.aggregate == AGG_MED);
  snprintf(text, sizeof(text), "%s[scoring]\noptimal = max\n", head);
  CHECK(parse(text) == 0 && conf.score_kind == SCORE_LAST && conf.maximise);
  snprintf(text, sizeof(text), "%s[scoring]\nscore = bench ms\noptimal = min_time\n", head);
  CHECK(parse(text) < 0 && strstr(msg, "disagree"));
  snprintf(text, sizeof(text), "%s[scoring]\nrepeat = 0, min\n", head);
  CHECK(parse(text) < 0 && strstr(msg, "repeat = N"));
}

TEST(expressions) {
  CHECK(parse_tree("{BLOCK_X, BLOCK_Y}", "BLOCK_X = 16, 32, 64, 1024\nBLOCK_Y = 0, 1, 2, 4\n",
                   "BLOCK_X * BLOCK_Y <= 1024\nBLOCK_X % 32 == 0") == 0);
  long long v[2] = {64, 4}, r = 0;
  struct {
    const char *text;
    long long want;
  } cases[] = {{"2 + 3 * 4 == 14", 1}, {"(2 + 3) * 4", 20},    {"-3 + 10 % 4", -1},       {"!0 && !(1 > 2)", 1},
               {"1 || 0 && 0", 1},     {"7 / 2", 3},           {"BLOCK_X / BLOCK_Y", 16}, {"BLOCK_X >= 64 != 0", 1},
               {"1 < 2 == 2 > 1", 1},  {"3 <= 3 && 3 >= 4", 0}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    CHECK(tune_expr_eval(&conf, cases[i].text, v, &r, NULL, 0) == 0);
    if (r != cases[i].want) printf("    %s = %lld, expected %lld\n", cases[i].text, r, cases[i].want);
    CHECK(r == cases[i].want);
  }
  long long zero[2] = {0, 0};
  CHECK(tune_expr_eval(&conf, "64 / BLOCK_Y > 2", zero, &r, NULL, 0) == -1); /* a division by zero */
  CHECK(tune_expr_eval(&conf, "BLOCK_Y == 0 || 64 / BLOCK_Y > 2", zero, &r, NULL, 0) == 0 && r == 1);
  CHECK(tune_expr_eval(&conf, "BLOCK_Y != 0 && 64 % BLOCK_Y == 0", zero, &r, NULL, 0) == 0 && r == 0);
  int idx[2] = {2, 3}, broken = -1; /* 64 x 4 */
  CHECK(tune_allowed(&conf, idx, &broken));
  idx[0] = 3; /* 1024 x 4 breaks the first */
  CHECK(!tune_allowed(&conf, idx, &broken) && broken == 0);
  idx[0] = 0, idx[1] = 1; /* 16 x 1 breaks the second */
  CHECK(!tune_allowed(&conf, idx, &broken) && broken == 1);
}

static tune_proc fake_run(const char *out, int status) {
  tune_proc p = {status, 0, 0, 0.25, (char *)out, (char *)""};
  return p;
}

TEST(scores_from_output) {
  CHECK(parse_tree("{A}", "A = 1\n", "") == 0);
  double s = 0;
  tune_proc p = fake_run("x\nBENCH prac=3 prog=a n=1 reps=1 ms=9.5 GBps=1\nBENCH prac=3 prog=b n=1 reps=1 ms=2.5 "
                         "GBps=4\nRESULT: PASS\n",
                         0);
  CHECK(tune_score_output(&conf, &p, &s, msg, sizeof(msg)) == 0 && s == 2.5); /* the last BENCH line */
  strcpy(conf.bench_prog, "a");
  CHECK(tune_score_output(&conf, &p, &s, msg, sizeof(msg)) == 0 && s == 9.5); /* prog=a's line */
  strcpy(conf.bench_prog, "c");
  CHECK(tune_score_output(&conf, &p, &s, msg, sizeof(msg)) < 0 && strstr(msg, "no BENCH line with ms= and prog=c"));
  conf.bench_prog[0] = '\0', strcpy(conf.bench_key, "GBps");
  CHECK(tune_score_output(&conf, &p, &s, msg, sizeof(msg)) == 0 && s == 4);
  strcpy(conf.bench_key, "ms");
  p = fake_run("BENCH prac=3 prog=a n=1 reps=1 ms=1.0\nRESULT: FAIL (rms error 0.5)\n", 0);
  CHECK(tune_score_output(&conf, &p, &s, msg, sizeof(msg)) < 0 && !strcmp(msg, "RESULT: FAIL (rms error 0.5)"));
  p = fake_run("BENCH prac=3 prog=a n=1 reps=1 ms=1.0\n", 0);
  CHECK(tune_score_output(&conf, &p, &s, msg, sizeof(msg)) < 0 && !strcmp(msg, "no RESULT line"));
  p = fake_run("BENCH prac=3 prog=a n=1 reps=1 ms=1.0\nRESULT: PASS\n", 2);
  CHECK(tune_score_output(&conf, &p, &s, msg, sizeof(msg)) < 0 && strstr(msg, "exit code 2"));
  p = fake_run("RESULT: PASS\n", 0);
  CHECK(tune_score_output(&conf, &p, &s, msg, sizeof(msg)) < 0 && strstr(msg, "no BENCH line with ms="));
  conf.score_kind = SCORE_LAST, conf.verdict_exit = 1; /* the course's: the last number, exit code 0 */
  p = fake_run("Grid dimensions: 512\n 1.25 \nthe end\n", 0);
  CHECK(tune_score_output(&conf, &p, &s, msg, sizeof(msg)) == 0 && s == 1.25);
  conf.score_kind = SCORE_TIME;
  CHECK(tune_score_output(&conf, &p, &s, msg, sizeof(msg)) == 0 && s == 0.25);
}

TEST(processes_and_substitution) {
  CHECK(parse_tree("{BX, opt}", "BX = 16, 32\nopt = -O2, -O3\n", "") == 0);
  char buf[256];
  int idx[2] = {1, 0};
  CHECK(tune_subst(&conf, "cc %OPT% -DBX=%bx% -o t_%%ID%% %Q% 100%", idx, 42, buf, sizeof(buf)) == 0);
  CHECK(!strcmp(buf, "cc -O2 -DBX=32 -o t_42 %Q% 100%"));
  tune_proc p;
  CHECK(tune_run_cmd("echo out; echo err >&2; exit 3", 0, &p) == 0);
  CHECK(!strcmp(p.out, "out\n") && !strcmp(p.err, "err\n") && p.status == 3 && !p.timed_out);
  tune_proc_free(&p);
  CHECK(tune_run_cmd("sleep 5", 0.2, &p) == 0 && p.timed_out && p.seconds < 3);
  tune_proc_free(&p);
}

static char log_path[64];

static void new_log_path(void) { /* a fresh scratch file name for each test that writes a log */
  strcpy(log_path, "/tmp/test_prac10_XXXXXX");
  close(mkstemp(log_path));
}

static void write_file(const char *text) {
  FILE *f = fopen(log_path, "w");
  fputs(text, f);
  fclose(f);
}

typedef struct {
  int n;
  tune_row rows[8];
} row_list;

static int keep_row(void *ctx, const tune_row *row) {
  row_list *l = ctx;
  if (l->n < 8) l->rows[l->n++] = *row;
  return 0;
}

TEST(csv_round_trip_and_resume) {
  CHECK(parse(laplace3d_conf) == 0);
  char header[512], line[1024], text[4096];
  tune_row a = {3, {1, 2}, {EVAL_OK, 3, {1.5, 1.25, 2}, 1.25, 4.5, ""}, 1};
  tune_row b = {4, {2, 0}, {EVAL_DROPPED, 0, {0}, 0, 0.5, "RESULT: FAIL (error 1, \"big\")"}, 1};
  tune_log_header(&conf, header, sizeof(header));
  CHECK(!strcmp(header, "TestNo,BLOCK_X,BLOCK_Y,Score_1,Score_2,Score_3,Score_Overall,Seconds,Status"));
  size_t at = (size_t)snprintf(text, sizeof(text), "%s\n", header);
  tune_log_format(&conf, &a, line, sizeof(line));
  CHECK(!strcmp(line, "3,64,6,1.5,1.25,2,1.25,4.500,ok"));
  at += (size_t)snprintf(text + at, sizeof(text) - at, "%s\n", line);
  tune_log_format(&conf, &b, line, sizeof(line));
  CHECK(!strcmp(line, "4,128,2,,,,,0.500,dropped: RESULT: FAIL (error 1; 'big')"));
  snprintf(text + at, sizeof(text) - at, "%s\n5,32,2,1.0,1.0\n6,16,2,1,1,1,1,1.0,ok\n", line); /* cut short; 16 */
  new_log_path();
  write_file(text);
  row_list got = {0};
  long long skipped = 0;
  CHECK(tune_log_read(log_path, &conf, 0, keep_row, &got, &skipped, msg, sizeof(msg)) == 0);
  CHECK(got.n == 2 && skipped == 2); /* the cut-short row and the value no longer in the config */
  CHECK(got.rows[0].id == 3 && got.rows[0].idx[0] == 1 && got.rows[0].idx[1] == 2 && got.rows[0].r.status == EVAL_OK);
  CHECK(got.rows[0].r.nscores == 3 && got.rows[0].r.score[1] == 1.25 && got.rows[0].r.overall == 1.25);
  CHECK(got.rows[0].has_seconds && got.rows[0].r.seconds == 4.5);
  CHECK(got.rows[1].r.status == EVAL_DROPPED && !strcmp(got.rows[1].r.why, "RESULT: FAIL (error 1; 'big')"));
  conf.repeat = 2; /* another config's log: refused with a reason, never mixed */
  CHECK(tune_log_read(log_path, &conf, 0, keep_row, &got, &skipped, msg, sizeof(msg)) < 0 && strstr(msg, "-fresh"));
  /* the course's 2011 logs: ", " between fields, no Seconds or Status */
  write_file("TestNo, BLOCK_X, BLOCK_Y, Score_1, Score_Overall\n1, 32, 2, 6.70, 6.70\n2, 64, 2, , \n");
  conf.repeat = 1, got.n = 0;
  CHECK(tune_log_read(log_path, &conf, 0, keep_row, &got, &skipped, msg, sizeof(msg)) == 0 && got.n == 2);
  CHECK(got.rows[0].r.status == EVAL_OK && got.rows[0].r.overall == 6.70 && !got.rows[0].has_seconds);
  CHECK(got.rows[1].r.status == EVAL_DROPPED);
  unlink(log_path);
  CHECK(tune_log_read(log_path, &conf, 0, keep_row, &got, &skipped, msg, sizeof(msg)) == 1); /* no log yet */
}

/* ---- strategies over a formula ---------------------------------------------------------------------------- */
typedef struct {
  const tune_conf *c;
  int calls[4096], seq[4096], nseq;
  double (*f)(const int *idx);
} formula;

static double bowl(const int *idx) { /* least at (13, 6): 10, and its neighbours 10.25 or more: 2 % is it alone */
  return 10 + 0.3 * (idx[0] - 13) * (idx[0] - 13) + 0.25 * (idx[1] - 6) * (idx[1] - 6);
}

static double hello_score(const int *idx) { return 1 + (idx[0] != 1) + (idx[1] != 1) + 0.1 * idx[2]; }

static tune_eval by_formula(void *ctx, const int *idx) {
  formula *F = ctx;
  long long lin = tune_linear(F->c, idx);
  if (!tune_allowed(F->c, idx, NULL)) return (tune_eval){EVAL_RESTRICTED, INFINITY, 0};
  F->calls[lin]++, F->seq[F->nseq++] = (int)lin;
  return (tune_eval){EVAL_OK, F->f(idx), 0};
}

TEST(exhaustive_order_and_count) {
  CHECK(parse(hello_conf) == 0);
  formula F = {&conf, {0}, {0}, 0, hello_score};
  tune_search s;
  tune_search_init(&s, &conf, by_formula, &F, 0, 1);
  tune_search_run(&s, STRATEGY_EXHAUSTIVE, 0);
  /* FOO first (BAR, OPTLEVEL at their first values), then BAR with FOO at its best (2), then OPTLEVEL */
  int want[8][3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 0}, {1, 1, 1}, {1, 1, 2}, {1, 1, 3}, {1, 1, 4}};
  CHECK(F.nseq == 8 && s.evals == 8 && s.found);
  for (int i = 0; i < 8 && i < F.nseq; i++) CHECK(F.seq[i] == tune_linear(&conf, want[i]));
  CHECK(s.best[0] == 1 && s.best[1] == 1 && s.best[2] == 0 && s.best_cost == 1);
  tune_search_free(&s);
  /* nested: as many distinct runs as the course's count, and none twice */
  CHECK(parse_tree("{A, {B, {C, D}}, {E}}", "A = 1, 2\nB = 1,2,3\nC = 1, 2\nD = 1, 2\nE = 1, 2, 3, 4\n", "") == 0);
  formula G = {&conf, {0}, {0}, 0, bowl};
  tune_search_init(&s, &conf, by_formula, &G, 0, 1);
  tune_search_run(&s, STRATEGY_EXHAUSTIVE, 0);
  int twice = 0;
  for (int i = 0; i < 96; i++) twice |= G.calls[i] > 1;
  CHECK(s.evals == 30 && G.nseq == 30 && !twice);
  tune_search_free(&s);
  /* a flat tree: every configuration, the first variable fastest, the least found; restricted ones skipped */
  CHECK(parse_tree("{X, Y}", "X = 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19\nY = 0,1,2,3,4,5,6,7,8,9\n",
                   "X + Y != 5") == 0);
  formula H = {&conf, {0}, {0}, 0, bowl};
  tune_search_init(&s, &conf, by_formula, &H, 0, 1);
  tune_search_run(&s, STRATEGY_EXHAUSTIVE, 0);
  CHECK(s.evals == 194 && s.restricted == 6 && H.seq[0] == 0 && H.seq[1] == 1 && H.seq[2] == 2);
  CHECK(s.best[0] == 13 && s.best[1] == 6 && s.best_cost == 10);
  int top[3][TUNE_MAX_VARS];
  double cost[3];
  CHECK(tune_search_top(&s, 3, top, cost) == 3 && cost[0] == 10 && cost[1] <= cost[2] && top[0][0] == 13);
  tune_search_free(&s);
}

TEST(random_never_repeats) {
  CHECK(parse_tree("{X, Y}", "X = 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19\nY = 0,1,2,3,4,5,6,7,8,9\n",
                   "X % 3 != 0 || Y > 2") == 0);
  for (unsigned seed = 1; seed <= 3; seed++) {
    formula F = {&conf, {0}, {0}, 0, bowl};
    tune_search s;
    tune_search_init(&s, &conf, by_formula, &F, 0, seed);
    tune_search_run(&s, STRATEGY_RANDOM, 150);
    int twice = 0, broken = 0, idx[2];
    for (int i = 0; i < 200; i++) twice |= F.calls[i] > 1;
    for (int i = 0; i < F.nseq; i++) tune_unlinear(&conf, F.seq[i], idx), broken |= !tune_allowed(&conf, idx, NULL);
    CHECK(F.nseq == 150 && s.evals == 150 && !twice && !broken);
    tune_search_free(&s);
  }
  formula F = {&conf, {0}, {0}, 0, bowl}; /* more samples than allowed configurations: each allowed one once */
  tune_search s;
  tune_search_init(&s, &conf, by_formula, &F, 0, 9);
  tune_search_run(&s, STRATEGY_RANDOM, 1000);
  CHECK(s.evals == 179 && s.restricted == 21 && s.best_cost == 10);
  tune_search_free(&s);
}

TEST(hill_climbing_within_budget) {
  CHECK(parse_tree("{X, Y}", "X = 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19\nY = 0,1,2,3,4,5,6,7,8,9\n", "") ==
        0);
  int reached = 0;
  for (unsigned seed = 1; seed <= 20; seed++) { /* a quarter of the space: 50 evaluations */
    formula F = {&conf, {0}, {0}, 0, bowl};
    tune_search s;
    tune_search_init(&s, &conf, by_formula, &F, 50, seed);
    tune_search_run(&s, STRATEGY_HILL, 0);
    reached += s.best_cost <= 10 * 1.02;
    CHECK(s.evals <= 50);
    tune_search_free(&s);
  }
  CHECK(reached == 20);
}

TEST(replay_over_a_log) {
  /* an exhaustive log of the bowl, 20 x 10, each configuration 0.5 s; the least (13, 6) is row 134 */
  new_log_path();
  FILE *f = fopen(log_path, "w");
  fprintf(f, "TestNo,X,Y,Score_1,Score_Overall,Seconds,Status\n");
  for (int y = 0, id = 1; y < 10; y++)
    for (int x = 0; x < 20; x++, id++) {
      int idx[2] = {x, y};
      if (x == 4 && y == 4)
        fprintf(f, "%d,%d,%d,,,0.5,dropped: exit code 1\n", id, x, y);
      else
        fprintf(f, "%d,%d,%d,%g,%g,0.5,ok\n", id, x, y, bowl(idx), bowl(idx));
    }
  fclose(f);
  tune_replay rp;
  CHECK(tune_replay_load(log_path, 0, &rp, msg, sizeof(msg)) == 0);
  CHECK(rp.nrows == 200 && rp.nok == 199 && rp.has_seconds && rp.best_cost == 10 && rp.id[rp.best_row] == 134);
  CHECK(rp.conf.nvals[0] == 20 && rp.conf.nvals[1] == 10 && !strcmp(rp.conf.val[0][13], "13"));
  long long evals = 0;
  double secs = 0;
  /* exhaustive: row by row, within 2 % first at the least itself: 134 evaluations, 67 recorded seconds */
  CHECK(tune_replay_trial(&rp, STRATEGY_EXHAUSTIVE, 0, 0, 1, 0.02, &evals, &secs) == 1);
  CHECK(evals == 134 && fabs(secs - 67) < 1e-9);
  int good = 0;
  for (unsigned seed = 1; seed <= 20; seed++) {
    good += tune_replay_trial(&rp, STRATEGY_HILL, 50, 0, seed, 0.02, &evals, &secs) && evals <= 50;
  }
  CHECK(good == 20);
  CHECK(tune_replay_trial(&rp, STRATEGY_RANDOM, 0, 0, 1, 0.02, &evals, &secs) == 1 && evals <= 200);
  tune_replay_free(&rp);
  unlink(log_path);
}

TEST(statistics_and_noise) {
  double x[5] = {3, 1, 2, 5, 4}, y[4] = {1, 2, 3, 4};
  tune_stat a, b;
  tune_stats(x, 5, &a);
  CHECK(a.median == 3 && a.min == 1 && a.max == 5 && a.mean == 3 && fabs(a.sd - sqrt(2.5)) < 1e-12);
  tune_stats(y, 4, &b);
  CHECK(b.median == 2.5);
  CHECK(tune_aggregate(x, 5, AGG_MIN) == 1 && tune_aggregate(x, 5, AGG_MAX) == 5 &&
        tune_aggregate(y, 4, AGG_AVG) == 2.5);
  double best[3] = {1.00, 1.01, 1.02}, near[3] = {1.015, 1.03, 1.04}, far[3] = {1.20, 1.21, 1.22};
  double tight[3] = {1.000, 1.000, 1.000}, close[3] = {1.001, 1.001, 1.001};
  tune_stat sb, sn, sf, st, sc;
  tune_stats(best, 3, &sb), tune_stats(near, 3, &sn), tune_stats(far, 3, &sf);
  tune_stats(tight, 3, &st), tune_stats(close, 3, &sc);
  CHECK(tune_within_noise(&sb, &sn));                            /* the ranges overlap */
  CHECK(!tune_within_noise(&sb, &sf));                           /* 20 % apart, a 1 % cv */
  CHECK(!tune_within_noise(&st, &sc));                           /* no noise at all: 0.1 % is a difference */
  double wide[3] = {1.0, 1.1, 1.2}, next[3] = {1.21, 1.22, 2.0}; /* apart, but 11 % is within a 31 % cv */
  tune_stat sw, sx;
  tune_stats(wide, 3, &sw), tune_stats(next, 3, &sx);
  CHECK(tune_within_noise(&sw, &sx));
}

int main(void) {
  RUN(config_laplace3d);
  RUN(config_hello_8_tests);
  RUN(config_nested_trees);
  RUN(config_bad);
  RUN(config_scoring_forms);
  RUN(expressions);
  RUN(scores_from_output);
  RUN(processes_and_substitution);
  RUN(csv_round_trip_and_resume);
  RUN(exhaustive_order_and_count);
  RUN(random_never_repeats);
  RUN(hill_climbing_within_budget);
  RUN(replay_over_a_log);
  RUN(statistics_and_noise);
  tune_conf_free(&conf);
  return test_summary();
}
