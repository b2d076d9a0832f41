/*
 * tune_run.c -- one configuration: its commands with %NAME% and %%ID%% filled in, run as processes
 * (tune_proc.c); the verdict of a run (exit code 0, and RESULT: PASS with no other RESULT line) and its score
 * (the program's BENCH figure, the wall time, or the course's last number).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tune.h"

/* %%ID%% becomes the test number, %NAME% the variable's value; any other % stays as written. -1: too long */
int tune_subst(const tune_conf *c, const char *tmpl, const int *idx, long long id, char *out, size_t len) {
  size_t at = 0;
  for (const char *p = tmpl; *p && at < len;) {
    int v = c->nvars;
    size_t n = 0;
    if (strncmp(p, "%%ID%%", 6) == 0) {
      at += (size_t)snprintf(out + at, len - at, "%lld", id);
      p += 6;
      continue;
    }
    if (*p == '%') {
      for (v = 0; v < c->nvars; v++) {
        n = strlen(c->name[v]);
        if (strncasecmp(p + 1, c->name[v], n) == 0 && p[n + 1] == '%') break;
      }
    }
    if (v < c->nvars) {
      at += (size_t)snprintf(out + at, len - at, "%s", c->val[v][idx[v]]);
      p += n + 2;
    } else {
      out[at] = *p;
      at++;
      p++;
    }
  }
  if (at >= len) {
    out[len - 1] = '\0';
    return -1;
  }
  out[at] = '\0';
  return 0;
}

/* What a run printed, line by line. RESULT lines: a run passes only with RESULT: PASS and no other; BENCH
 * lines with the score's key (and its prog=, where the config names one); the last line that is a number. */
typedef struct {
  int npass;
  char bad_result[TUNE_MSG_LEN]; /* the first RESULT line that is not PASS */
  int nbench;
  char prog[64], other_prog[64]; /* the prog= of the BENCH lines read, and a second one if they differ */
  char value[64];                /* the key's value on the last of them */
  int has_number;
  double number; /* the last line that is a number (optimal = min or max, the course's) */
} output_scan;

/* the value of " KEY=" on a BENCH line, up to the next space, into out ("?" if it does not fit); 0 if the key is
 * not there */
static int bench_field(const char *line, const char *key, char *out, size_t len) {
  size_t n = strlen(key);
  for (const char *p = strchr(line, ' '); p; p = strchr(p + 1, ' ')) {
    if (strncmp(p + 1, key, n) == 0 && p[n + 1] == '=') {
      const char *v = p + n + 2;
      size_t k = strcspn(v, " \t");
      if (k < len)
        snprintf(out, len, "%.*s", (int)k, v);
      else
        snprintf(out, len, "?");
      return 1;
    }
  }
  return 0;
}

static void scan_line(const tune_conf *c, output_scan *s, const char *line) {
  const char *t = line + strspn(line, " \t");
  if (strncmp(t, "RESULT:", 7) == 0) {
    const char *rest = t + 7 + strspn(t + 7, " ");
    if (strncmp(rest, "PASS", 4) == 0 && (rest[4] == '\0' || rest[4] == ' '))
      s->npass++;
    else if (!s->bad_result[0])
      snprintf(s->bad_result, sizeof(s->bad_result), "%.200s", t);
  }
  char *end;
  double x = strtod(t, &end);
  if (end != t && end[strspn(end, " \t")] == '\0' && isfinite(x)) {
    s->has_number = 1;
    s->number = x;
  }
  char prog[64] = "", value[64];
  if (strncmp(t, "BENCH ", 6) != 0 || !bench_field(t, c->bench_key, value, sizeof(value))) return;
  bench_field(t, "prog", prog, sizeof(prog));
  if (c->bench_prog[0] && strcmp(prog, c->bench_prog) != 0) return;
  if (s->nbench == 0) strcpy(s->prog, prog);
  if (strcmp(prog, s->prog) != 0 && !s->other_prog[0]) strcpy(s->other_prog, prog);
  strcpy(s->value, value);
  s->nbench++;
}

static int drop(char *why, size_t len, const char *what, const char *detail) {
  snprintf(why, len, "%s%s%.200s", what, detail[0] ? ": " : "", detail);
  return -1;
}

/* The verdict, then the score: 0 with *score, or -1 with why the run is dropped; TUNE_RETRY where the machine, not
 * the configuration, is why (the time limit, or RESULT: SKIP: no GPU, a GPU too small) */
int tune_score_output(const tune_conf *c, const tune_proc *p, double *score, char *why, size_t len) {
  output_scan s;
  memset(&s, 0, sizeof(s));
  char *line = NULL, what[64];
  size_t cap = 0;
  rewind(p->out);
  while (tune_next_line(p->out, &line, &cap)) scan_line(c, &s, line);
  free(line);
  const char *result = s.bad_result[0] ? s.bad_result : s.npass ? "RESULT: PASS" : "";
  if (p->timed_out) {
    snprintf(why, len, "timed out after %g s", c->timeout_s);
    return TUNE_RETRY;
  }
  if (p->too_much) {
    snprintf(why, len, "stopped: it printed over %lld MiB", TUNE_OUTPUT_MAX >> 20);
    return -1;
  }
  if (p->signal)
    snprintf(what, sizeof(what), "killed by signal %d", p->signal);
  else
    snprintf(what, sizeof(what), "exit code %d", p->status);
  int skip = strncmp(s.bad_result, "RESULT: SKIP", 12) == 0;
  char said[208] = ""; /* no RESULT line: what the command last wrote to stderr says why (sh: ...: not found) */
  if (!result[0] && p->err) {
    rewind(p->err);
    char *e = NULL;
    size_t ecap = 0;
    while (tune_next_line(p->err, &e, &ecap))
      if (e[strspn(e, " \t")]) snprintf(said, sizeof(said), "%.200s", e);
    free(e);
  }
  if (p->signal || p->status) {
    drop(why, len, what, result[0] ? result : said);
    return skip ? TUNE_RETRY : -1;
  }
  if (s.bad_result[0]) { /* FAIL or SKIP: dropped, whatever the verdict rule */
    drop(why, len, s.bad_result, "");
    return skip ? TUNE_RETRY : -1;
  }
  if (!c->verdict_exit && s.npass == 0) return drop(why, len, "no RESULT line", "");
  if (c->score_kind == SCORE_TIME) {
    *score = p->seconds;
    return 0;
  }
  if (c->score_kind == SCORE_LAST) {
    *score = s.number;
    return s.has_number ? 0 : drop(why, len, "no line that is a number", "");
  }
  if (s.nbench == 0) {
    snprintf(why, len, "no BENCH line with %s=%s%s", c->bench_key, c->bench_prog[0] ? " and prog=" : "", c->bench_prog);
    return -1;
  }
  if (s.other_prog[0]) {
    snprintf(why, len,
             "BENCH lines of several programs have %s= (prog=%s, prog=%s): say which, score = bench %s "
             "prog=NAME",
             c->bench_key, s.prog, s.other_prog, c->bench_key);
    return -1;
  }
  char *end;
  *score = strtod(s.value, &end);
  if (end == s.value || *end || !isfinite(*score)) {
    snprintf(why, len, "BENCH %s=%.40s is not a number", c->bench_key, s.value);
    return -1;
  }
  if (*score <= 0) {
    snprintf(why, len, "BENCH %s=%.40s is not above 0", c->bench_key, s.value);
    return -1;
  }
  return 0;
}

/* what a failed compile says: the first line with "error" (stderr first, then stdout), else the last line that is
 * not blank, of stderr, else of stdout */
static void first_error(const tune_proc *p, char *out, size_t len) {
  char *line = NULL, last[2][TUNE_MSG_LEN] = {"", ""};
  size_t cap = 0;
  out[0] = '\0';
  for (int i = 0; i < 2 && !out[0]; i++) {
    FILE *f = i == 0 ? p->err : p->out;
    rewind(f);
    while (!out[0] && tune_next_line(f, &line, &cap)) {
      if (strstr(line, "error")) snprintf(out, len, "%.150s", line);
      if (line[strspn(line, " \t\r")]) snprintf(last[i], sizeof(last[i]), "%.150s", line);
    }
  }
  free(line);
  if (!out[0]) snprintf(out, len, "%s", last[0][0] ? last[0] : last[1]);
}

/* one command of a configuration, shown with its output under -verbose (and a failed clean always) */
static int stage(const tune_conf *c, const char *tmpl, const int *idx, long long id, int verbose, tune_proc *p,
                 char *why, size_t len) {
  char cmd[2 * TUNE_CMD_LEN];
  if (tune_subst(c, tmpl, idx, id, cmd, sizeof(cmd))) {
    snprintf(why, len, "the command is over %d characters with the values filled in", (int)sizeof(cmd) - 1);
    return -1;
  }
  if (tune_run_cmd(cmd, c->timeout_s, p)) {
    snprintf(why, len, "cannot run a command (no process, or no temporary file)");
    return -1;
  }
  if (verbose || (tmpl == c->clean && p->status)) {
    printf("$ %s  (exit code %d, %.2f s)\n", cmd, p->status, p->seconds);
    for (int i = 0; i < 2; i++) {
      char chunk[65536];
      size_t got;
      rewind(i == 0 ? p->out : p->err);
      while ((got = fread(chunk, 1, sizeof(chunk), i == 0 ? p->out : p->err)) > 0) fwrite(chunk, 1, got, stdout);
    }
    fflush(stdout);
  }
  return 0;
}

int tune_compile(const tune_conf *c, const int *idx, long long id, int verbose, char *why, size_t len) {
  tune_proc p;
  char err[TUNE_MSG_LEN];
  if (!c->compile[0]) return 0;
  if (stage(c, c->compile, idx, id, verbose, &p, why, len)) return -1;
  int rc = p.status || p.signal || p.timed_out || p.too_much ? -1 : 0;
  first_error(&p, err, sizeof(err));
  if (p.timed_out) {
    snprintf(why, len, "compile timed out after %g s", c->timeout_s);
    rc = TUNE_RETRY;
  } else if (p.too_much) {
    snprintf(why, len, "compile stopped: it printed over %lld MiB", TUNE_OUTPUT_MAX >> 20);
  } else if (p.signal) {
    snprintf(why, len, "compile killed by signal %d: %.200s", p.signal, err);
  } else if (rc) {
    snprintf(why, len, "compile failed (exit code %d): %.200s", p.status, err);
  }
  tune_proc_free(&p);
  return rc;
}

int tune_run_once(const tune_conf *c, const int *idx, long long id, int verbose, double *score, char *why, size_t len) {
  tune_proc p;
  if (stage(c, c->test, idx, id, verbose, &p, why, len)) return -1;
  int rc = tune_score_output(c, &p, score, why, len);
  tune_proc_free(&p);
  return rc;
}

void tune_clean(const tune_conf *c, const int *idx, long long id, int verbose) {
  tune_proc p;
  char why[TUNE_MSG_LEN];
  if (!c->clean[0]) return;
  if (stage(c, c->clean, idx, id, verbose, &p, why, sizeof(why)) == 0)
    tune_proc_free(&p);
  else
    printf("clean: %s\n", why);
}

/* One configuration: compile (if the config says how), run `test` repeat times, clean. Seconds: compile and runs. */
void tune_evaluate(const tune_conf *c, const int *idx, long long id, int verbose, tune_result *r) {
  char why[TUNE_MSG_LEN];
  double t0 = tune_now_s();
  memset(r, 0, sizeof(*r));
  r->status = EVAL_DROPPED;
  int rc = tune_compile(c, idx, id, verbose, r->why, sizeof(r->why));
  for (int k = 0; k < c->repeat && rc == 0; k++) {
    rc = tune_run_once(c, idx, id, verbose, &r->score[k], why, sizeof(why));
    if (rc == 0)
      r->nscores = k + 1;
    else if (c->repeat > 1)
      snprintf(r->why, sizeof(r->why), "run %d: %.200s", k + 1, why);
    else
      snprintf(r->why, sizeof(r->why), "%s", why);
  }
  r->retry = rc == TUNE_RETRY;
  r->seconds = tune_now_s() - t0;
  if (rc == 0) {
    r->status = EVAL_OK;
    r->overall = tune_aggregate(r->score, r->nscores, c->aggregate);
  }
  tune_clean(c, idx, id, verbose);
}
