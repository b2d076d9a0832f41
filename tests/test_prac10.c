/*
 * test_prac10.c -- practical 10's auto-tuner (prac10/tune_*.c), no GPU and no program to tune: the config
 * parser on the course's laplace3d.conf and hello.conf and on bad configs, the tree's test count and order, the
 * restrictions' expressions, the verdict and score read from a run's output, the processes (time limit, output
 * limit, NUL bytes), the CSV log and its "# " lines read back, the strategies over a formula, and replay over a
 * written log. tests/test_tune.sh runs the whole program.
 */
#include <limits.h>
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
  CHECK(conf.nwarnings == 1 && strstr(conf.warning[0], "min_time") != NULL); /* the course's wall time: a warning */
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
  /* a product past TUNE_MAX_SPACE (2^20): 2^21 configurations */
  CHECK(parse_tree("{{A}, {B}, {C}, {D}, {E}, {F}, {G}}",
                   "A = 1,2,3,4,5,6,7,8\nB = 1,2,3,4,5,6,7,8\nC = 1,2,3,4,5,6,7,8\nD = 1,2,3,4,5,6,7,8\n"
                   "E = 1,2,3,4,5,6,7,8\nF = 1,2,3,4,5,6,7,8\nG = 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16\n",
                   "") < 0 &&
        strstr(msg, "more than 1048576 configurations"));
}

/* review item 7: values go into sh -c as written, so a character the shell reads is refused */
TEST(config_values_for_the_shell) {
  CHECK(parse_tree("{A}", "A = 1, -O2, sm_90, a.b+c/d=e:f\n", "") == 0 && conf.nvals[0] == 4);
  const char *bad[] = {"A = 1; rm -rf x\n", "A = 1 | 2\n", "A = $(x)\n",  "A = `x`\n",    "A = a&b\n",
                       "A = <x\n",          "A = 'x'\n",   "A = \"x\"\n", "A = -O2 -g\n", "A = a>b\n"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    int rc = parse_tree("{A}", bad[i], "");
    if (rc == 0) printf("    accepted: %s", bad[i]);
    CHECK(rc < 0 && strstr(msg, "which the shell would read"));
  }
  CHECK(parse_tree("{A}", "A = -O2 -g\n", "") < 0 && strstr(msg, "holds a space"));
}

/* review item 7: the INI reading, as RawConfigParser does it */
TEST(config_ini_reading) {
  const char *head = "[variables]\nvariables = {A, B}\n[values]\nA = 1, 2 ; a comment\nB = 1,2;3\n";
  char text[2048];
  /* ' ;' starts a comment, a ';' with no space before it does not (and is then refused as a value) */
  snprintf(text, sizeof(text), "%s[testing]\ntest = ./x\n[scoring]\n[output]\nlog = l.csv\n", head);
  CHECK(parse(text) < 0 && strstr(msg, "holds ';'"));
  /* an indented first line of [restrictions] is a restriction, not the end of the line above it */
  CHECK(parse("[variables]\nvariables = {A, B}\n[values]\nA = 1, 2 ; the comment\nB = 1, 2\n[testing]\ntest = ./x\n"
              "[scoring]\n[output]\nlog = l.csv\n[restrictions]\n   A + B < 4   ; not both 2\n") == 0);
  CHECK(conf.nvals[0] == 2 && !strcmp(conf.val[0][1], "2") && !strcmp(conf.log, "l.csv"));
  CHECK(conf.nrules == 1 && !strcmp(conf.rule[0], "A + B < 4") && conf.nrestricted == 1);
  /* a continuation line stays in its section: here it continues the tree */
  CHECK(parse("[variables]\nvariables = {A,\n  B}\n[values]\nA = 1\nB = 2\n[testing]\ntest = ./x\n[scoring]\n"
              "[output]\nlog = l.csv\n") == 0 &&
        conf.nvars == 2);
  /* a key or a section given twice: the last value counts, with a warning each */
  CHECK(parse("[variables]\nvariables = {A}\n[values]\nA = 1\nA = 1, 2, 3\n[testing]\ntest = ./x %A%\n[scoring]\n"
              "repeat = 2\n[output]\nlog = l.csv\n[scoring]\nrepeat = 3 , avg\n") == 0);
  CHECK(conf.nvals[0] == 3 && conf.repeat == 3 && conf.aggregate == AGG_AVG && conf.nwarnings == 3);
  CHECK(strstr(conf.warning[0], "[values] a is set twice (lines 4 and 5)") != NULL);
  CHECK(strstr(conf.warning[1], "[scoring] is given twice") && strstr(conf.warning[2], "repeat is set twice"));
  /* [values] of a name not in the tree and an unknown %NAME%: two warnings, both kept */
  CHECK(parse("[variables]\nvariables = {A}\n[values]\nA = 1\nZ = 2\n[testing]\ntest = ./x %Q% %A%\n[scoring]\n"
              "[output]\nlog = l.csv\n") == 0 &&
        conf.nwarnings == 2 && strstr(conf.warning[0], "is not in the variable tree") &&
        strstr(conf.warning[1], "%Q%"));
  /* a variable that no command names: each of its values would run the same program */
  CHECK(parse("[variables]\nvariables = {A, B}\n[values]\nA = 1\nB = 2\n[testing]\ntest = ./x %A%\n[scoring]\n"
              "[output]\nlog = l.csv\n") == 0 &&
        conf.nwarnings == 1 && strstr(conf.warning[0], "B is tuned, but no command names %B%"));
}

TEST(config_scoring_forms) {
  const char *head =
      "[variables]\nvariables = {A}\n[values]\nA = 1, 2\n[testing]\ntest = ./x -a=%A%\n[output]\nlog = l.csv\n";
  char text[1024];
  snprintf(text, sizeof(text), "%s[scoring]\n", head);
  CHECK(parse(text) == 0 && conf.score_kind == SCORE_BENCH && !strcmp(conf.bench_key, "ms") && !conf.maximise);
  CHECK(conf.repeat == 1 && !conf.nwarnings && conf.timeout_s == 300); /* the defaults: min_bench, 300 s */
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
  snprintf(text, sizeof(text), "%s[scoring]\nrepeat = 3, mean\n", head);
  CHECK(parse(text) < 0 && strstr(msg, "repeat = N"));
  /* review item 7: a score with no direction is refused, not minimised */
  snprintf(text, sizeof(text), "%s[scoring]\nscore = bench GBps\n", head);
  CHECK(parse(text) < 0 && strstr(msg, "needs optimal = min or max"));
  snprintf(text, sizeof(text), "%s[scoring]\nscore = bench GBps prog=a extra\noptimal = max\n", head);
  CHECK(parse(text) < 0 && strstr(msg, "score = bench KEY"));
  snprintf(text, sizeof(text), "%s[scoring]\n[testing]\ntimeout = 0\n", head);
  CHECK(parse(text) < 0 && strstr(msg, "timeout = seconds"));
  snprintf(text, sizeof(text), "%s[scoring]\n[testing]\ntimeout = 2.5\n", head);
  CHECK(parse(text) == 0 && conf.timeout_s == 2.5);
}

/* review item 2: with a compile step, the binary must be named by %%ID%%, in compile and in test */
TEST(config_compile_needs_id) {
  const char *tail = "[scoring]\n[output]\nlog = l.csv\n";
  const char *head = "[variables]\nvariables = {A}\n[values]\nA = 1, 2\n[testing]\n";
  char text[1024];
  snprintf(text, sizeof(text), "%scompile = gcc -DA=%%A%% -o fake_bin x.c\ntest = ./fake_bin\n%s", head, tail);
  CHECK(parse(text) < 0 && strstr(msg, "must both name the binary by %%ID%%"));
  snprintf(text, sizeof(text), "%scompile = gcc -DA=%%A%% -o b_%%%%ID%%%% x.c\ntest = ./fake_bin\n%s", head, tail);
  CHECK(parse(text) < 0 && strstr(msg, "%%ID%%"));
  snprintf(text, sizeof(text), "%scompile = gcc -DA=%%A%% -o b_%%%%ID%%%% x.c\ntest = ./b_%%%%ID%%%%\n%s", head, tail);
  CHECK(parse(text) == 0);
  snprintf(text, sizeof(text), "%stest = ./prog -a=%%A%%\n%s", head, tail); /* no compile: run-time values */
  CHECK(parse(text) == 0);
}

TEST(expressions) {
  CHECK(parse_tree("{BLOCK_X, BLOCK_Y}", "BLOCK_X = 16, 32, 64, 1024\nBLOCK_Y = 0, 1, 2, 4\n",
                   "BLOCK_X * BLOCK_Y <= 1024\nBLOCK_X % 32 == 0") == 0);
  long long v[2] = {64, 4}, r = 0;
  struct {
    const char *text;
    long long want;
  } cases[] = {{"2 + 3 * 4 == 14", 1},
               {"(2 + 3) * 4", 20},
               {"-3 + 10 % 4", -1},
               {"!0 && !(1 > 2)", 1},
               {"1 || 0 && 0", 1},
               {"7 / 2", 3},
               {"BLOCK_X / BLOCK_Y", 16},
               {"BLOCK_X >= 64 != 0", 1},
               {"1 < 2 == 2 > 1", 1},
               {"3 <= 3 && 3 >= 4", 0},
               {"-9223372036854775807 - 1 < -1", 1},
               {"0 && 1 / 0", 0},
               {"1 || 9223372036854775807 * 2", 1}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    int rc = tune_expr_eval(&conf, cases[i].text, v, &r, msg, sizeof(msg));
    if (rc || r != cases[i].want) printf("    %s = %lld (rc %d), expected %lld\n", cases[i].text, r, rc, cases[i].want);
    CHECK(rc == 0 && r == cases[i].want);
  }
  /* review item 6: errors, each with a reason, never a crash or a wrapped number */
  struct {
    const char *text, *why;
  } errors[] = {{"(-9223372036854775807 - 1) / -1", "overflows"}, {"(-9223372036854775807 - 1) % -1", "overflows"},
                {"3000000000 * 4000000000 > 0", "overflows"},     {"9223372036854775807 + 1", "overflows"},
                {"-(-9223372036854775807 - 1)", "overflows"},     {"99999999999999999999 > 1", "past 64 bits"},
                {"64 / (BLOCK_X - 64)", "a division by zero"},    {"5 % 0", "a division by zero"}};
  for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
    msg[0] = '\0';
    int rc = tune_expr_eval(&conf, errors[i].text, v, &r, msg, sizeof(msg));
    if (rc == 0 || !strstr(msg, errors[i].why)) printf("    %s: rc %d, '%s'\n", errors[i].text, rc, msg);
    CHECK(rc < 0 && strstr(msg, errors[i].why));
  }
  long long zero[2] = {0, 0};
  CHECK(tune_expr_eval(&conf, "BLOCK_Y == 0 || 64 / BLOCK_Y > 2", zero, &r, NULL, 0) == 0 && r == 1);
  CHECK(tune_expr_eval(&conf, "BLOCK_Y != 0 && 64 % BLOCK_Y == 0", zero, &r, NULL, 0) == 0 && r == 0);
  int idx[2] = {2, 3}, broken = -1; /* 64 x 4 */
  CHECK(tune_allowed(&conf, idx, &broken) == 1);
  idx[0] = 3; /* 1024 x 4 breaks the first */
  CHECK(tune_allowed(&conf, idx, &broken) == 0 && broken == 0);
  idx[0] = 0; /* 16 x 1 breaks the second */
  idx[1] = 1;
  CHECK(tune_allowed(&conf, idx, &broken) == 0 && broken == 1);
  CHECK(conf.nrestricted == 6); /* 16 with any BLOCK_Y, and 1024 x 2 and 1024 x 4 */
  /* a restriction that cannot be evaluated somewhere refuses the config, naming it and where */
  CHECK(parse_tree("{A, B}", "A = 16, 32\nB = 0, 2\n", "A / B > 4") < 0 &&
        strstr(msg, "restriction 'A / B > 4': a division by zero (16 / 0), at A = 16, B = 0"));
  CHECK(parse_tree("{A, B}", "A = 16, 32\nB = 0, 2\n", "B != 0 && A / B > 4") == 0 && conf.nrestricted == 2);
}

static tune_proc fake_run_n(const char *out, size_t n, int status) {
  tune_proc p;
  memset(&p, 0, sizeof(p));
  p.status = status;
  p.seconds = 0.25;
  p.out = tmpfile();
  p.err = tmpfile();
  fwrite(out, 1, n, p.out);
  rewind(p.out);
  return p;
}

static tune_proc fake_run(const char *out, int status) { return fake_run_n(out, strlen(out), status); }

/* the verdict and score of one output; 0 or -1 with msg */
static int score_of(const char *out, int status, double *s) {
  tune_proc p = fake_run(out, status);
  int rc = tune_score_output(&conf, &p, s, msg, sizeof(msg));
  tune_proc_free(&p);
  return rc;
}

TEST(scores_from_output) {
  CHECK(parse_tree("{A}", "A = 1\n", "") == 0);
  double s = 0;
  const char *two = "x\nBENCH prac=3 prog=a n=1 reps=1 ms=9.5 GBps=1\nBENCH prac=3 prog=b n=1 reps=1 ms=2.5 GBps=4\n"
                    "RESULT: PASS\n";
  strcpy(conf.bench_prog, "a");
  CHECK(score_of(two, 0, &s) == 0 && s == 9.5); /* prog=a's line */
  strcpy(conf.bench_prog, "c");
  CHECK(score_of(two, 0, &s) < 0 && strstr(msg, "no BENCH line with ms= and prog=c"));
  strcpy(conf.bench_prog, "b");
  strcpy(conf.bench_key, "GBps");
  CHECK(score_of(two, 0, &s) == 0 && s == 4);
  conf.bench_prog[0] = '\0';
  strcpy(conf.bench_key, "ms");
  CHECK(score_of("BENCH prac=3 prog=a n=1 reps=1 ms=1.0\nRESULT: FAIL (rms error 0.5)\n", 0, &s) < 0 &&
        !strcmp(msg, "RESULT: FAIL (rms error 0.5)"));
  CHECK(score_of("BENCH prac=3 prog=a n=1 reps=1 ms=1.0\n", 0, &s) < 0 && !strcmp(msg, "no RESULT line"));
  CHECK(score_of("BENCH prac=3 prog=a n=1 reps=1 ms=1.0\nRESULT: PASS\n", 2, &s) < 0 &&
        !strcmp(msg, "exit code 2: RESULT: PASS"));
  CHECK(score_of("RESULT: PASS\n", 0, &s) < 0 && strstr(msg, "no BENCH line with ms="));
  CHECK(score_of("BENCH prac=3 prog=a n=1 reps=1 pct_ms=5 ms=1.5\nRESULT: PASS\n", 0, &s) == 0 && s == 1.5);
  conf.score_kind = SCORE_LAST; /* the course's: the last number, exit code 0 */
  conf.verdict_exit = 1;
  CHECK(score_of("Grid dimensions: 512\n 1.25 \nthe end\n", 0, &s) == 0 && s == 1.25);
  conf.score_kind = SCORE_TIME;
  CHECK(score_of("Grid dimensions: 512\n", 0, &s) == 0 && s == 0.25);
}

/* review item 3: what a run's output must hold to be scored */
TEST(verdicts_and_bad_scores) {
  CHECK(parse_tree("{A}", "A = 1\n", "") == 0);
  double s = 0;
  const char *bench = "BENCH prac=3 prog=a n=1 reps=1 ms=2.0\n";
  char out[8192];
  snprintf(out, sizeof(out), "%sRESULT: FAIL (error 1)\nRESULT: PASS\n", bench); /* the last RESULT no longer wins */
  CHECK(score_of(out, 0, &s) < 0 && !strcmp(msg, "RESULT: FAIL (error 1)"));
  snprintf(out, sizeof(out), "%sRESULT: SKIP (no GPU)\n", bench); /* dropped, and to be tried again */
  CHECK(score_of(out, 0, &s) == TUNE_RETRY && !strcmp(msg, "RESULT: SKIP (no GPU)"));
  CHECK(score_of("RESULT: SKIP (no CUDA device)\n", 2, &s) == TUNE_RETRY && strstr(msg, "exit code 2: RESULT: SKIP"));
  CHECK(score_of("RESULT: FAIL (x)\n", 1, &s) == -1);
  conf.verdict_exit = 1; /* exit code 0 suffices, but an explicit FAIL still drops */
  CHECK(score_of(bench, 0, &s) == 0 && s == 2);
  snprintf(out, sizeof(out), "%sRESULT: FAIL (error 1)\n", bench);
  CHECK(score_of(out, 0, &s) < 0 && strstr(msg, "RESULT: FAIL"));
  conf.verdict_exit = 0;
  const char *zero[] = {"ms=0", "ms=-1.5", "ms=nan", "ms=inf", "ms=", "ms=2x"};
  for (size_t i = 0; i < sizeof(zero) / sizeof(zero[0]); i++) {
    snprintf(out, sizeof(out), "BENCH prac=3 prog=a n=1 %s\nRESULT: PASS\n", zero[i]);
    int rc = score_of(out, 0, &s);
    if (rc == 0) printf("    %s scored %g\n", zero[i], s);
    CHECK(rc < 0 && (strstr(msg, "not above 0") || strstr(msg, "not a number")));
  }
  /* several programs' BENCH lines and no prog= in the config: which one is not guessed */
  const char *ladder = "BENCH prac=4 prog=reduction_k1 n=1 ms=3.0\nBENCH prac=4 prog=reduction_cub n=1 ms=1.0\n"
                       "RESULT: PASS\n";
  CHECK(score_of(ladder, 0, &s) < 0 && strstr(msg, "several programs") && strstr(msg, "prog=reduction_cub"));
  strcpy(conf.bench_prog, "reduction_k1");
  CHECK(score_of(ladder, 0, &s) == 0 && s == 3);
  conf.bench_prog[0] = '\0';
  CHECK(score_of("BENCH prog=a ms=3.0\nBENCH prog=a ms=2.0\nRESULT: PASS\n", 0, &s) == 0 && s == 2); /* one program */
  /* a 5 KB BENCH line: read whole, its key at the end */
  size_t at = (size_t)snprintf(out, sizeof(out), "BENCH prac=3 prog=a n=1");
  while (at < 5000) at += (size_t)snprintf(out + at, sizeof(out) - at, " pad%zu=1", at);
  snprintf(out + at, sizeof(out) - at, " ms=1.75\nRESULT: PASS\n");
  CHECK(score_of(out, 0, &s) == 0 && s == 1.75);
  /* a NUL byte hides nothing after it */
  const char nul[] = "garbage\0more\nBENCH prac=3 prog=a ms=1.5\nRESULT: PASS\n";
  tune_proc p = fake_run_n(nul, sizeof(nul) - 1, 0);
  CHECK(tune_score_output(&conf, &p, &s, msg, sizeof(msg)) == 0 && s == 1.5);
  tune_proc_free(&p);
  p = fake_run("RESULT: PASS\n", 0);
  p.timed_out = 1;
  CHECK(tune_score_output(&conf, &p, &s, msg, sizeof(msg)) == TUNE_RETRY && strstr(msg, "timed out after 300 s"));
  tune_proc_free(&p);
}

TEST(processes_and_substitution) {
  CHECK(parse_tree("{BX, opt}", "BX = 16, 32\nopt = -O2, -O3\n", "") == 0);
  char buf[256], *line = NULL;
  size_t cap = 0;
  int idx[2] = {1, 0};
  CHECK(tune_subst(&conf, "cc %OPT% -DBX=%bx% -o t_%%ID%% %Q% 100%", idx, 42, buf, sizeof(buf)) == 0);
  CHECK(!strcmp(buf, "cc -O2 -DBX=32 -o t_42 %Q% 100%"));
  CHECK(tune_subst(&conf, "cc %OPT% -DBX=%bx%", idx, 42, buf, 10) == -1 && strlen(buf) == 9); /* too long: -1 */
  tune_proc p;
  CHECK(tune_run_cmd("echo out; echo err >&2; exit 3", 5, &p) == 0);
  CHECK(tune_next_line(p.out, &line, &cap) && !strcmp(line, "out") && !tune_next_line(p.out, &line, &cap));
  CHECK(tune_next_line(p.err, &line, &cap) && !strcmp(line, "err") && p.status == 3 && !p.timed_out);
  tune_proc_free(&p);
  CHECK(tune_run_cmd("sleep 5", 0.2, &p) == 0 && p.timed_out && p.seconds < 3);
  tune_proc_free(&p);
  free(line);
}

/* review item 4: the time limit is on the process, and what a command prints is bounded */
TEST(process_limits) {
  tune_proc p;
  double t0 = tune_now_s();
  /* closes its stdout and stderr, then sleeps past the limit: killed at the deadline all the same */
  CHECK(tune_run_cmd("exec >&- 2>&-; sleep 10", 0.3, &p) == 0 && p.timed_out && p.signal == 9);
  CHECK(tune_now_s() - t0 < 3);
  tune_proc_free(&p);
  /* leaves a program running in the background: tune does not wait for it, and kills it */
  t0 = tune_now_s();
  CHECK(tune_run_cmd("sleep 10 & echo $! ; exit 0", 5, &p) == 0 && !p.timed_out && p.status == 0);
  CHECK(tune_now_s() - t0 < 3);
  char *line = NULL, probe[160];
  size_t cap = 0;
  CHECK(tune_next_line(p.out, &line, &cap) != NULL);
  snprintf(probe, sizeof(probe),
           "sleep 0.2; s=$(awk '{print $3}' /proc/%.20s/stat 2>/dev/null); [ -z \"$s\" ] || "
           "[ \"$s\" = Z ]",
           line ? line : "0");
  tune_proc_free(&p);
  CHECK(tune_run_cmd(probe, 5, &p) == 0 && p.status == 0); /* gone (or a zombie not yet reaped) */
  tune_proc_free(&p);
  /* prints without end: stopped past TUNE_OUTPUT_MAX, well before its time limit */
  t0 = tune_now_s();
  CHECK(tune_run_cmd("yes 0123456789abcdef", 60, &p) == 0 && p.too_much && !p.timed_out);
  CHECK(tune_now_s() - t0 < 30);
  tune_proc_free(&p);
  /* a NUL byte in the output: the lines after it are read */
  CHECK(tune_run_cmd("printf 'a\\000b\\nRESULT: PASS\\n'", 5, &p) == 0);
  CHECK(tune_next_line(p.out, &line, &cap) && !strcmp(line, "a b"));
  CHECK(tune_next_line(p.out, &line, &cap) && !strcmp(line, "RESULT: PASS"));
  tune_proc_free(&p);
  free(line);
}

/* review item 5: a command past the buffer once the values are filled in is dropped with the reason */
TEST(command_too_long) {
  static char values[4200];
  memset(values, 'x', 3000);
  snprintf(values + 3000, sizeof(values) - 3000, ", y\n");
  char text[8192];
  snprintf(text, sizeof(text),
           "[variables]\nvariables = {A}\n[values]\nA = %s[testing]\ntest = echo %%A%% %%A%%\n"
           "[scoring]\n[output]\nlog = l.csv\n",
           values);
  CHECK(parse(text) == 0 && conf.nvals[0] == 2);
  int idx[1] = {0};
  double s;
  CHECK(tune_run_once(&conf, idx, 1, 0, &s, msg, sizeof(msg)) < 0 && strstr(msg, "the command is over 4095"));
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

static char *read_file(void) {
  static char text[16384];
  FILE *f = fopen(log_path, "r");
  size_t n = fread(text, 1, sizeof(text) - 1, f);
  fclose(f);
  text[n] = '\0';
  return text;
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

static int read_log(row_list *got, long long *skipped) {
  tune_log_info info;
  got->n = 0;
  int rc = tune_log_read(log_path, &conf, keep_row, got, &info, msg, sizeof(msg));
  *skipped = info.skipped;
  return rc;
}

static const char *laplace_top = "# tune log, its scores made with:\n"
                                 "# compile = make -B ID=%%ID%% BLOCK_X=%BLOCK_X% BLOCK_Y=%BLOCK_Y%\n"
                                 "# test = ./bin/laplace3d_%%ID%%\n"
                                 "# score = the wall time of test, the lowest best\n"
                                 "# verdict = result\n"
                                 "# repeat = 3, min\n"
                                 "TestNo,BLOCK_X,BLOCK_Y,Score_1,Score_2,Score_3,Score_Overall,Seconds,Status\n";

TEST(csv_round_trip_and_resume) {
  CHECK(parse(laplace3d_conf) == 0);
  tune_row a = {3, {1, 2}, {EVAL_OK, 0, 3, {1.5, 1.25, 2}, 1.25, 4.5, ""}};
  tune_row b = {4, {2, 0}, {EVAL_DROPPED, 0, 0, {0}, 0, 0.5, "RESULT: FAIL (error 1, \"big\")"}};
  tune_row t = {5, {0, 1}, {EVAL_DROPPED, 1, 0, {0}, 0, 300.5, "run 1: timed out after 300 s"}};
  new_log_path();
  FILE *f = fopen(log_path, "w");
  CHECK(tune_log_start(f, &conf) == 0 && tune_log_write(f, &conf, &a) == 0 && tune_log_write(f, &conf, &b) == 0);
  CHECK(tune_log_write(f, &conf, &t) == 0);
  fprintf(f, "6,32,2,1.0,1.0\n7,16,2,1,1,1,1,1.0,ok\n8,32,4,1,1,1,1,1.0,o\n9,64,4,1,1,,1,1.0,ok\n"
             "10,64,2,1,1,1,,1.0,ok\n11,128,4,1,1,1,1,,ok\n");
  fclose(f);
  char want[2048];
  snprintf(want, sizeof(want),
           "%s3,64,6,1.5,1.25,2,1.25,4.500,ok\n4,128,2,,,,,0.500,dropped: RESULT: FAIL (error 1; "
           "'big')\n5,32,4,,,,,300.500,retry: run 1: timed out after 300 s\n",
           laplace_top);
  CHECK(strncmp(read_file(), want, strlen(want)) == 0);
  row_list got;
  long long skipped = 0;
  CHECK(read_log(&got, &skipped) == 0);
  /* cut short; a value no longer in the config; a cut Status; an empty score; an empty overall; no Seconds */
  CHECK(got.n == 3 && skipped == 6);
  CHECK(got.rows[0].id == 3 && got.rows[0].idx[0] == 1 && got.rows[0].idx[1] == 2 && got.rows[0].r.status == EVAL_OK);
  CHECK(got.rows[0].r.nscores == 3 && got.rows[0].r.score[1] == 1.25 && got.rows[0].r.overall == 1.25);
  CHECK(got.rows[0].r.seconds == 4.5 && !got.rows[0].r.retry);
  CHECK(got.rows[1].r.status == EVAL_DROPPED && !strcmp(got.rows[1].r.why, "RESULT: FAIL (error 1; 'big')"));
  CHECK(got.rows[2].r.status == EVAL_DROPPED && got.rows[2].r.retry);
  unlink(log_path);
  CHECK(read_log(&got, &skipped) == 1); /* no log yet */
}

/* review item 1: a log made another way is refused, never mixed in */
TEST(log_identity) {
  CHECK(parse(laplace3d_conf) == 0);
  row_list got;
  long long skipped = 0;
  char text[2048];
  new_log_path();
  write_file(""); /* an empty log is a new log */
  CHECK(read_log(&got, &skipped) == 1);
  snprintf(text, sizeof(text), "%s1,32,2,1,1,1,1,1.0,ok\n", laplace_top);
  write_file(text);
  CHECK(read_log(&got, &skipped) == 0 && got.n == 1);
  conf.repeat = 2; /* another repeat: another identity and other columns */
  CHECK(read_log(&got, &skipped) < 0 && strstr(msg, "was made with '# repeat = 3, min'") && strstr(msg, "-fresh"));
  conf.repeat = 3;
  conf.maximise = 1; /* another direction */
  CHECK(read_log(&got, &skipped) < 0 && strstr(msg, "the highest best"));
  conf.maximise = 0;
  strcpy(conf.test, "./bin/laplace3d_%%ID%% -n=256"); /* another test command */
  CHECK(read_log(&got, &skipped) < 0 && strstr(msg, "# test = ./bin/laplace3d_%%ID%% -n=256"));
  CHECK(parse(laplace3d_conf) == 0);
  /* a column whose name is a prefix of the config's (U for UNROLL): refused, no prefix compare */
  snprintf(text, sizeof(text), "%s", laplace_top);
  char *col = strstr(text, "BLOCK_Y,Score_1");
  memmove(col + 5, col + 7, strlen(col + 7) + 1); /* BLOCK_Y -> BLOCK */
  write_file(text);
  CHECK(read_log(&got, &skipped) < 0 && strstr(msg, "has the columns TestNo,BLOCK_X,BLOCK,"));
  /* no "# " lines: a log of the course's tool, or of another program */
  write_file("TestNo,BLOCK_X,BLOCK_Y,Score_1,Score_2,Score_3,Score_Overall\n1,32,2,6.7,6.8,6.9,6.7\n");
  CHECK(read_log(&got, &skipped) < 0 && strstr(msg, "is not one of tune's (its first line is not '# tune log"));
  unlink(log_path);
  strcpy(log_path, "/tmp"); /* a folder (or a device, a pipe) is no log */
  CHECK(read_log(&got, &skipped) < 0 && strstr(msg, "the log /tmp is not a file"));
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

static double walled_bowl(const int *idx) { /* the bowl, with Y = 5 failing (NAN): a wall across it */
  return idx[1] == 5 ? NAN : bowl(idx);
}

static double hello_score(const int *idx) { return 1 + (idx[0] != 1) + (idx[1] != 1) + 0.1 * idx[2]; }

static tune_eval by_formula(void *ctx, const int *idx) {
  formula *F = ctx;
  long long lin = tune_linear(F->c, idx);
  F->calls[lin]++;
  F->seq[F->nseq] = (int)lin;
  F->nseq++;
  double x = F->f(idx);
  tune_eval e = {isnan(x) ? EVAL_DROPPED : EVAL_OK, isnan(x) ? INFINITY : x, 0};
  return e;
}

TEST(exhaustive_order_and_count) {
  CHECK(parse(hello_conf) == 0);
  formula F = {&conf, {0}, {0}, 0, hello_score};
  tune_search s;
  CHECK(tune_search_init(&s, &conf, by_formula, &F, 0, 1) == 0);
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
  CHECK(tune_search_init(&s, &conf, by_formula, &G, 0, 1) == 0);
  tune_search_run(&s, STRATEGY_EXHAUSTIVE, 0);
  int twice = 0;
  for (int i = 0; i < 96; i++) twice |= G.calls[i] > 1;
  CHECK(s.evals == 30 && G.nseq == 30 && !twice);
  tune_search_free(&s);
  /* a flat tree: every configuration, the first variable fastest, the least found; restricted ones skipped */
  CHECK(parse_tree("{X, Y}", "X = 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19\nY = 0,1,2,3,4,5,6,7,8,9\n",
                   "X + Y != 5") == 0);
  formula H = {&conf, {0}, {0}, 0, bowl};
  CHECK(tune_search_init(&s, &conf, by_formula, &H, 0, 1) == 0);
  tune_search_run(&s, STRATEGY_EXHAUSTIVE, 0);
  CHECK(s.evals == 194 && s.restricted == 6 && H.seq[0] == 0 && H.seq[1] == 1 && H.seq[2] == 2 && H.nseq == 194);
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
    CHECK(tune_search_init(&s, &conf, by_formula, &F, 0, seed) == 0);
    tune_search_run(&s, STRATEGY_RANDOM, 150);
    int twice = 0, broken = 0, idx[2];
    for (int i = 0; i < 200; i++) twice |= F.calls[i] > 1;
    for (int i = 0; i < F.nseq; i++) {
      tune_unlinear(&conf, F.seq[i], idx);
      broken |= tune_allowed(&conf, idx, NULL) != 1;
    }
    CHECK(F.nseq == 150 && s.evals == 150 && !twice && !broken);
    tune_search_free(&s);
  }
  formula F = {&conf, {0}, {0}, 0, bowl}; /* more samples than allowed configurations: each allowed one once */
  tune_search s;
  CHECK(tune_search_init(&s, &conf, by_formula, &F, 0, 9) == 0);
  tune_search_run(&s, STRATEGY_RANDOM, 1000);
  CHECK(s.evals == 179 && s.restricted == 21 && s.best_cost == 10 && conf.nrestricted == 21);
  tune_search_free(&s);
}

/* hill climbing within a quarter of the space, seeds 1 to 20; returns how many came within 2 % */
static int hill_trials(double (*f)(const int *idx)) {
  int reached = 0;
  for (unsigned seed = 1; seed <= 20; seed++) {
    formula F = {&conf, {0}, {0}, 0, f};
    tune_search s;
    CHECK(tune_search_init(&s, &conf, by_formula, &F, 50, seed) == 0);
    tune_search_run(&s, STRATEGY_HILL, 0);
    reached += s.best_cost <= 10 * 1.02;
    CHECK(s.evals <= 50 && F.nseq == s.evals);
    tune_search_free(&s);
  }
  return reached;
}

TEST(hill_climbing_within_budget) {
  CHECK(parse_tree("{X, Y}", "X = 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19\nY = 0,1,2,3,4,5,6,7,8,9\n", "") ==
        0);
  CHECK(hill_trials(bowl) == 20);
  /* review item 9: a row of values that fails (Y = 5) is stepped over, not a wall */
  CHECK(hill_trials(walled_bowl) == 20);
}

/* [table] default: the program's own settings, where random and hill start (so that no table line is one they
 * beat); a variable it leaves out takes the one value the restrictions allow with the size; bad ones refused */
TEST(table_default_first) {
  const char *head = "[variables]\nvariables = {SIZE, ROWS, X, Y}\n[values]\nSIZE = 1, 2\nROWS = 20, 10\n"
                     "X = 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19\nY = 0,1,2,3,4,5,6,7,8,9\n"
                     "[restrictions]\nSIZE * ROWS == 20\n[testing]\ntest = ./x %SIZE% %ROWS% %X% %Y%\n[scoring]\n"
                     "[output]\nlog = x.csv\n[table]\nprogram = p\nsize = SIZE\nsettings = -x=%X% -y=%Y%\n";
  char text[2048];
  snprintf(text, sizeof(text), "%sdefault = X=3, Y=8\n", head);
  CHECK(parse(text) == 0 && !strcmp(conf.table_default, "X=3, Y=8"));
  for (int strategy = STRATEGY_RANDOM; strategy <= STRATEGY_HILL; strategy++)
    for (unsigned seed = 1; seed <= 3; seed++) {
      formula F = {&conf, {0}, {0}, 0, bowl};
      tune_search s;
      CHECK(tune_search_init(&s, &conf, by_formula, &F, 30, seed) == 0);
      tune_search_run(&s, strategy, 30);
      int first[4];
      tune_unlinear(&conf, F.nseq > 0 ? F.seq[0] : 0, first);
      CHECK(F.nseq > 0 && first[0] == 0 && first[1] == 0 && first[2] == 3 && first[3] == 8); /* SIZE 1, ROWS 20 */
      tune_search_free(&s);
    }
  conf.nvals[0] = 1, conf.val[0][0] = conf.val[0][1], conf.ival[0][0] = 2; /* -size=2: ROWS must be 10 */
  CHECK(tune_check_rules(&conf, msg, sizeof(msg)) == 0);
  formula G = {&conf, {0}, {0}, 0, bowl};
  tune_search s;
  CHECK(tune_search_init(&s, &conf, by_formula, &G, 30, 1) == 0);
  tune_search_run(&s, STRATEGY_HILL, 0);
  int first[4];
  tune_unlinear(&conf, G.seq[0], first);
  CHECK(first[1] == 1 && first[2] == 3 && first[3] == 8);
  tune_search_free(&s);
  const char *bad[][2] = {{"X=3 Y=8 SIZE=1", "leave out SIZE"}, {"X=3 Y=10", "10 is not one of Y's values"},
                          {"X=3 Z=1", "Z is not a variable"}, {"X=3 X=4", "X given twice"}, {"X 3", "has no ="}};
  for (int i = 0; i < 5; i++) {
    snprintf(text, sizeof(text), "%sdefault = %s\n", head, bad[i][0]);
    CHECK(parse(text) == -1 && strstr(msg, bad[i][1]));
  }
}

static void write_bowl_log(int skip_one) { /* an exhaustive log of the bowl, 20 x 10, each 0.5 s; (4, 4) dropped */
  new_log_path();
  FILE *f = fopen(log_path, "w");
  CHECK(tune_log_start(f, &conf) == 0);
  for (int y = 0, id = 1; y < 10; y++)
    for (int x = 0; x < 20; x++, id++) {
      tune_row row = {id, {x, y}, {EVAL_OK, 0, 1, {0}, 0, 0.5, ""}};
      row.r.score[0] = row.r.overall = bowl(row.idx);
      if (x == 4 && y == 4) {
        row.r.status = EVAL_DROPPED;
        snprintf(row.r.why, sizeof(row.r.why), "exit code 1");
      }
      if (!(skip_one && x == 7 && y == 2)) CHECK(tune_log_write(f, &conf, &row) == 0);
    }
  fclose(f);
}

TEST(replay_over_a_log) {
  CHECK(parse_tree("{X, Y}", "X = 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19\nY = 0,1,2,3,4,5,6,7,8,9\n", "") ==
        0);
  write_bowl_log(0);
  tune_replay rp;
  CHECK(tune_replay_load(log_path, &conf, &rp, msg, sizeof(msg)) == 0);
  CHECK(rp.nrows == 200 && rp.nok == 199 && rp.best_cost == 10 && rp.id[rp.best_lin] == 134);
  long long evals = 0;
  double secs = 0;
  /* exhaustive: row by row, within 2 % first at the least itself: 134 evaluations, 67 recorded seconds */
  CHECK(tune_replay_trial(&rp, STRATEGY_EXHAUSTIVE, 0, 0, 1, 0.02, &evals, &secs) == 1);
  CHECK(evals == 134 && fabs(secs - 67) < 1e-9);
  int good = 0;
  for (unsigned seed = 1; seed <= 20; seed++)
    good += tune_replay_trial(&rp, STRATEGY_HILL, 50, 0, seed, 0.02, &evals, &secs) && evals <= 50;
  CHECK(good == 20);
  CHECK(tune_replay_trial(&rp, STRATEGY_RANDOM, 0, 0, 1, 0.02, &evals, &secs) == 1 && evals <= 200);
  tune_replay_free(&rp);
  /* review item 8: a log that lacks a configuration is refused, saying how many */
  write_bowl_log(1);
  CHECK(tune_replay_load(log_path, &conf, &rp, msg, sizeof(msg)) < 0 &&
        strstr(msg, "holds 199 of the 200 allowed configurations, 1 missing"));
  tune_replay_free(&rp);
  /* a restriction leaves (7, 2) out: the same log is then complete */
  CHECK(parse_tree("{X, Y}", "X = 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19\nY = 0,1,2,3,4,5,6,7,8,9\n",
                   "X != 7 || Y != 2") == 0);
  CHECK(tune_replay_load(log_path, &conf, &rp, msg, sizeof(msg)) == 0 && rp.nrows == 199);
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
  tune_stats(best, 3, &sb);
  tune_stats(near, 3, &sn);
  tune_stats(far, 3, &sf);
  tune_stats(tight, 3, &st);
  tune_stats(close, 3, &sc);
  CHECK(tune_within_noise(&sb, &sn));                            /* the ranges overlap */
  CHECK(!tune_within_noise(&sb, &sf));                           /* 20 % apart, a 1 % cv */
  CHECK(!tune_within_noise(&st, &sc));                           /* no noise at all: 0.1 % is a difference */
  double wide[3] = {1.0, 1.1, 1.2}, next[3] = {1.21, 1.22, 2.0}; /* apart, but 11 % is within a 31 % cv */
  tune_stat sw, sx;
  tune_stats(wide, 3, &sw);
  tune_stats(next, 3, &sx);
  CHECK(tune_within_noise(&sw, &sx));
}

/* restrictions on the GPU's limits (tune_device.c): a profile stands in for the GPU (lowering the real one's
 * limits where there is one); with no GPU and no profile the config cannot be judged (2: tune SKIPs); a DEVICE_
 * name that is no limit is an error naming the limits */
TEST(restrictions_on_the_device) {
  const char *values = "BX = 16, 32, 64, 128, 256\nBY = 1, 2, 4, 8\n";
  setenv("WORKBOOK_GPU_PROFILE", "t4", 1);
  CHECK(parse_tree("{BX, BY}", values, "BX * BY <= DEVICE_THREADS_BLOCK\nBX * BY * 64 <= DEVICE_SMEM_BLOCK") == 0);
  CHECK(conf.device_known && conf.nrestricted == 3 && strstr(conf.device_name, "t4") != NULL);
  CHECK(parse_tree("{BX, BY}", values, "DEVICE_SMS == 40 && DEVICE_CC == 75 && DEVICE_L2 == 4194304") == 0);
  CHECK(conf.nrestricted == 0);
  CHECK(parse_tree("{BX, BY}", values, "BX <= DEVICE_SMEM") == -1 && strstr(msg, "DEVICE_SMEM_BLOCK_OPTIN") != NULL);
  setenv("WORKBOOK_GPU_PROFILE", "nope", 1);
  CHECK(parse_tree("{BX, BY}", values, "BX <= DEVICE_SMS") == -1 && strstr(msg, "not a GPU profile") != NULL);
  unsetenv("WORKBOOK_GPU_PROFILE");
  int rc = parse_tree("{BX, BY}", values, "BX <= DEVICE_THREADS_BLOCK");
  CHECK(rc == 0 || rc == 2); /* 0 where a GPU is here: then its limits were read */
  CHECK(rc == 2 ? strstr(msg, "no GPU profile") != NULL : conf.device_known && conf.device[2] == 1024);
  CHECK(parse_tree("{BX, BY}", values, "BX * BY <= 1024") == 0 && !conf.device_known); /* not asked for */
}

/* [table] and the tuned table's line (tune_table.c): the section read and checked; a new file gets its header,
 * a program's line for a size is replaced in place, other lines kept */
TEST(tuned_table_lines) {
  const char *values = "SIZE = 384, 512\nT = 2, 3\n";
  char text[2048];
  snprintf(text, sizeof(text),
           "[variables]\nvariables = {SIZE, T}\n[values]\n%s[testing]\ntest = ./x -n=%%SIZE%% -T=%%T%%\n[scoring]\n"
           "[output]\nlog = x.csv\n[table]\nprogram = laplace3d_tb\nsize = SIZE\nsettings = -T=%%T%%\n",
           values);
  CHECK(parse(text) == 0 && !strcmp(conf.table_program, "laplace3d_tb") && !strcmp(conf.table_size, "SIZE"));
  CHECK(!strcmp(conf.table_settings, "-T=%T%") && conf.nwarnings == 0);
  snprintf(text, sizeof(text),
           "[variables]\nvariables = {SIZE, T}\n[values]\n%s[testing]\ntest = ./x -n=%%SIZE%% -T=%%T%%\n[scoring]\n"
           "[output]\nlog = x.csv\n[table]\nprogram = p\nsize = N\nsettings = -T=%%T%%\n",
           values);
  CHECK(parse(text) == -1 && strstr(msg, "size = N is not a variable"));
  snprintf(text, sizeof(text),
           "[variables]\nvariables = {SIZE, T}\n[values]\n%s[testing]\ntest = ./x -n=%%SIZE%% -T=%%T%%\n[scoring]\n"
           "[output]\nlog = x.csv\n[table]\nprogram = p\n",
           values);
  CHECK(parse(text) == -1 && strstr(msg, "needs program, size and settings"));
  const char *path = "/tmp/test_prac10_table.txt";
  remove(path);
  CHECK(tune_table_write(path, "NVIDIA H100 80GB HBM3", "laplace3d_tb", "512", "-T=3 -by=32", msg, sizeof(msg)) == 0);
  CHECK(tune_table_write(path, "NVIDIA H100 80GB HBM3", "laplace3d_tb", "1024", "-T=4 -by=64", msg, sizeof(msg)) == 0);
  CHECK(tune_table_write(path, "NVIDIA H100 80GB HBM3", "laplace3d_tb", "512", "-T=2 -by=16", msg, sizeof(msg)) == 0);
  FILE *f = fopen(path, "r");
  char all[1024] = "";
  size_t n = f ? fread(all, 1, sizeof(all) - 1, f) : 0;
  all[n] = '\0';
  if (f) fclose(f);
  CHECK(strstr(all, "# test_prac10_table.txt -- NVIDIA H100 80GB HBM3") == all);
  CHECK(strstr(all, "laplace3d_tb 512: -T=2 -by=16\nlaplace3d_tb 1024: -T=4 -by=64\n") != NULL);
  CHECK(strstr(all, "-T=3") == NULL);
  char key[64];
  tune_table_key("NVIDIA H100 80GB HBM3", key, sizeof(key));
  CHECK(!strcmp(key, "h100"));
  remove(path);
}

int main(void) {
  RUN(config_laplace3d);
  RUN(config_hello_8_tests);
  RUN(config_nested_trees);
  RUN(config_bad);
  RUN(config_values_for_the_shell);
  RUN(config_ini_reading);
  RUN(config_scoring_forms);
  RUN(config_compile_needs_id);
  RUN(expressions);
  RUN(restrictions_on_the_device);
  RUN(tuned_table_lines);
  RUN(scores_from_output);
  RUN(verdicts_and_bad_scores);
  RUN(processes_and_substitution);
  RUN(process_limits);
  RUN(command_too_long);
  RUN(csv_round_trip_and_resume);
  RUN(log_identity);
  RUN(exhaustive_order_and_count);
  RUN(random_never_repeats);
  RUN(hill_climbing_within_budget);
  RUN(table_default_first);
  RUN(replay_over_a_log);
  RUN(statistics_and_noise);
  tune_conf_free(&conf);
  return test_summary();
}
