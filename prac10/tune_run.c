/*
 * tune_run.c -- one configuration's run: its commands with %NAME% and %%ID%% filled in, run as processes whose
 * output is kept; the verdict (exit code 0 and a RESULT: PASS line) and the score (the program's BENCH figure,
 * the wall time, or the course's last number); the CSV log that is also the cache; the statistics of re-timing.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tune.h"

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* %%ID%% becomes the test number, %NAME% the variable's value; any other % stays as written */
int tune_subst(const tune_conf *c, const char *tmpl, const int *idx, long long id, char *out, size_t len) {
  size_t at = 0;
  for (const char *p = tmpl; *p && at + 1 < len;) {
    int v = *p == '%' ? 0 : c->nvars;
    size_t n = 0;
    if (!strncmp(p, "%%ID%%", 6)) {
      at += (size_t)snprintf(out + at, len - at, "%lld", id), p += 6;
      continue;
    }
    while (v < c->nvars && (strncasecmp(p + 1, c->name[v], n = strlen(c->name[v])) || p[n + 1] != '%')) v++;
    if (v < c->nvars)
      at += (size_t)snprintf(out + at, len - at, "%s", c->val[v][idx[v]]), p += n + 2;
    else
      out[at++] = *p++;
  }
  out[at < len ? at : len - 1] = '\0';
  return at < len ? 0 : -1;
}

/* Ctrl-C while a command runs: the command's process group (it has its own, for the timeout) goes too */
static volatile pid_t running_group;
static void on_interrupt(int sig) {
  if (running_group > 0) kill(-running_group, SIGKILL);
  signal(sig, SIG_DFL);
  raise(sig);
}

static void append(char **buf, size_t *n, size_t *cap, const char *data, size_t k) {
  if (*n + k + 1 > *cap) *buf = realloc(*buf, *cap = 2 * (*n + k + 1));
  memcpy(*buf + *n, data, k);
  (*buf)[ *n += k] = '\0';
}

/* runs `sh -c cmd`, stdin from /dev/null, keeping stdout and stderr apart; 0, or -1 when it could not start */
int tune_run_cmd(const char *cmd, double timeout_s, tune_proc *p) {
  int po[2], pe[2];
  memset(p, 0, sizeof(*p));
  if (pipe(po) || pipe(pe)) return -1;
  signal(SIGINT, on_interrupt), signal(SIGTERM, on_interrupt);
  double t0 = now_s();
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int null = open("/dev/null", O_RDONLY);
    setpgid(0, 0);
    dup2(null, 0), dup2(po[1], 1), dup2(pe[1], 2);
    close(po[0]), close(pe[0]), close(po[1]), close(pe[1]);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  setpgid(pid, pid);
  running_group = pid;
  close(po[1]), close(pe[1]);
  struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
  size_t n[2] = {0, 0}, cap[2] = {0, 0};
  char *buf[2] = {NULL, NULL}, chunk[65536];
  append(&buf[0], &n[0], &cap[0], "", 0), append(&buf[1], &n[1], &cap[1], "", 0);
  for (int open_fds = 2; open_fds > 0;) {
    double left = timeout_s > 0 ? t0 + timeout_s - now_s() : 1e9;
    if (left <= 0 && !p->timed_out) kill(-pid, SIGKILL), p->timed_out = 1;
    if (poll(fds, 2, p->timed_out ? 1000 : left > 1e6 ? -1 : (int)(left * 1000) + 1) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t k = read(fds[i].fd, chunk, sizeof(chunk));
      if (k > 0)
        append(&buf[i], &n[i], &cap[i], chunk, (size_t)k);
      else
        close(fds[i].fd), fds[i].fd = -1, open_fds--;
    }
  }
  for (int i = 0; i < 2; i++)
    if (fds[i].fd >= 0) close(fds[i].fd);
  int st = 0;
  waitpid(pid, &st, 0);
  running_group = 0;
  p->seconds = now_s() - t0;
  p->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  p->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  p->out = buf[0], p->err = buf[1];
  return 0;
}

void tune_proc_free(tune_proc *p) { free(p->out), free(p->err), p->out = p->err = NULL; }

/* the next line of text at *at (a copy in line), 0 at the end */
static int next_line(const char **at, char *line, size_t len) {
  if (!**at) return 0;
  size_t n = strcspn(*at, "\n");
  snprintf(line, len, "%.*s", (int)(n < len ? n : len - 1), *at);
  *at += n + ((*at)[n] == '\n');
  return 1;
}

/* The verdict, then the score: 0 with *score, or -1 with why the run is dropped */
int tune_score_output(const tune_conf *c, const tune_proc *p, double *score, char *why, size_t len) {
  char line[4096], result[TUNE_MSG_LEN] = "", number[64] = "", bench[4096] = "", key[40];
  const char *at = p->out;
  snprintf(key, sizeof(key), " %s=", c->bench_key);
  while (next_line(&at, line, sizeof(line))) {
    char *end, *t = line + strspn(line, " \t");
    double x = strtod(t, &end);
    if (!strncmp(t, "RESULT:", 7)) snprintf(result, sizeof(result), "%.200s", t);
    if (end != t && strspn(end, " \t\r") == strlen(end) && isfinite(x)) snprintf(number, sizeof(number), "%.60s", t);
    if (!strncmp(t, "BENCH ", 6) && strstr(t, key)) {
      char want[80];
      snprintf(want, sizeof(want), " prog=%s ", c->bench_prog);
      strcat(t, " ");
      if (!c->bench_prog[0] || strstr(t, want)) snprintf(bench, sizeof(bench), "%s", t);
    }
  }
  if (p->timed_out) return snprintf(why, len, "timed out after %g s", c->timeout_s), -1;
  if (p->signal) return snprintf(why, len, "killed by signal %d%s%s", p->signal, result[0] ? ": " : "", result), -1;
  if (p->status) return snprintf(why, len, "exit code %d%s%s", p->status, result[0] ? ": " : "", result), -1;
  if (!c->verdict_exit && !result[0]) return snprintf(why, len, "no RESULT line"), -1;
  if (!c->verdict_exit && strncmp(result, "RESULT: PASS", 12)) return snprintf(why, len, "%s", result), -1;
  if (c->score_kind == SCORE_TIME) return *score = p->seconds, 0;
  if (c->score_kind == SCORE_LAST)
    return number[0] ? (*score = strtod(number, NULL), 0) : (snprintf(why, len, "no line that is a number"), -1);
  if (!bench[0])
    return snprintf(why, len, "no BENCH line with %s=%s%s", c->bench_key, c->bench_prog[0] ? " and prog=" : "",
                    c->bench_prog),
           -1;
  char *end, *v = strstr(bench, key) + strlen(key);
  *score = strtod(v, &end);
  if (end == v || !isfinite(*score)) return snprintf(why, len, "BENCH %s=%.20s is not a number", c->bench_key, v), -1;
  return 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double tune_aggregate(const double *x, int n, int agg) {
  tune_stat s;
  tune_stats(x, n, &s);
  return agg == AGG_MIN ? s.min : agg == AGG_MAX ? s.max : agg == AGG_MED ? s.median : s.mean;
}

void tune_stats(const double *x, int n, tune_stat *s) {
  double *y = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1)), sum = 0, sq = 0;
  memcpy(y, x, sizeof(double) * (size_t)n);
  qsort(y, (size_t)n, sizeof(double), cmp_double);
  for (int i = 0; i < n; i++) sum += y[i];
  s->n = n, s->mean = n ? sum / n : 0;
  for (int i = 0; i < n; i++) sq += (y[i] - s->mean) * (y[i] - s->mean);
  s->sd = n > 1 ? sqrt(sq / (n - 1)) : 0;
  s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : 0;
  s->min = n ? y[0] : 0, s->max = n ? y[n - 1] : 0;
  s->median = n ? (n % 2 ? y[n / 2] : 0.5 * (y[n / 2 - 1] + y[n / 2])) : 0;
  free(y);
}

/* the runner-up is within the noise of the best: their ranges overlap, or their medians differ by no more than
 * the larger coefficient of variation of the two */
int tune_within_noise(const tune_stat *best, const tune_stat *second) {
  if (second->min <= best->max && best->min <= second->max) return 1;
  return fabs(second->median - best->median) <= fmax(best->cv, second->cv) * fabs(best->median);
}

/* what a failed compile says: its first line with "error", else the last line of stderr (else of stdout) */
static void first_error(const tune_proc *p, char *out, size_t len) {
  char line[4096];
  out[0] = '\0';
  for (int pass = 0; pass < 2; pass++)
    for (const char *at = pass ? p->out : p->err; next_line(&at, line, sizeof(line));) {
      if (strstr(line, "error")) return (void)snprintf(out, len, "%.150s", line);
      if (line[strspn(line, " \t\r")] && (pass == 0 || !out[0])) snprintf(out, len, "%.150s", line);
    }
}

/* one command of a configuration, shown with its output under -verbose (and a failed clean always) */
static int stage(const tune_conf *c, const char *tmpl, const int *idx, long long id, int verbose, tune_proc *p) {
  char cmd[TUNE_CMD_LEN * 2];
  tune_subst(c, tmpl, idx, id, cmd, sizeof(cmd));
  if (tune_run_cmd(cmd, c->timeout_s, p)) return -1;
  if (verbose || (tmpl == c->clean && p->status))
    printf("$ %s  (exit code %d, %.2f s)\n%s%s", cmd, p->status, p->seconds, p->out, p->err);
  return 0;
}

int tune_compile(const tune_conf *c, const int *idx, long long id, int verbose, char *why, size_t len) {
  tune_proc p;
  char err[TUNE_MSG_LEN];
  if (!c->compile[0]) return 0;
  if (stage(c, c->compile, idx, id, verbose, &p)) return snprintf(why, len, "cannot start a shell"), -1;
  int rc = p.status || p.signal || p.timed_out ? -1 : 0;
  first_error(&p, err, sizeof(err));
  if (p.timed_out)
    snprintf(why, len, "compile timed out after %g s", c->timeout_s);
  else if (rc)
    snprintf(why, len, "compile failed (exit code %d): %.200s", p.status, err);
  tune_proc_free(&p);
  return rc;
}

int tune_run_once(const tune_conf *c, const int *idx, long long id, int verbose, double *score, char *why, size_t len) {
  tune_proc p;
  if (stage(c, c->test, idx, id, verbose, &p)) return snprintf(why, len, "cannot start a shell"), -1;
  int rc = tune_score_output(c, &p, score, why, len);
  tune_proc_free(&p);
  return rc;
}

void tune_clean(const tune_conf *c, const int *idx, long long id, int verbose) {
  tune_proc p;
  if (c->clean[0] && !stage(c, c->clean, idx, id, verbose, &p)) tune_proc_free(&p);
}

/* One configuration: compile (if the config says how), run `test` repeat times, clean. Seconds: compile and runs. */
void tune_evaluate(const tune_conf *c, const int *idx, long long id, int verbose, tune_result *r) {
  char why[TUNE_MSG_LEN];
  double t0 = now_s();
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
  r->seconds = now_s() - t0;
  if (rc == 0) r->status = EVAL_OK, r->overall = tune_aggregate(r->score, r->nscores, c->aggregate);
  tune_clean(c, idx, id, verbose);
}

/* ---- the CSV log: the course's columns, then the workbook's Seconds and Status ----------------------------- */
void tune_log_header(const tune_conf *c, char *buf, size_t len) {
  size_t at = (size_t)snprintf(buf, len, "TestNo");
  for (int v = 0; v < c->nvars && at < len; v++) at += (size_t)snprintf(buf + at, len - at, ",%s", c->name[v]);
  for (int k = 1; k <= c->repeat && at < len; k++) at += (size_t)snprintf(buf + at, len - at, ",Score_%d", k);
  if (at < len) snprintf(buf + at, len - at, ",Score_Overall,Seconds,Status");
}

void tune_log_format(const tune_conf *c, const tune_row *row, char *buf, size_t len) {
  const tune_result *r = &row->r;
  size_t at = (size_t)snprintf(buf, len, "%lld", row->id);
  for (int v = 0; v < c->nvars && at < len; v++)
    at += (size_t)snprintf(buf + at, len - at, ",%s", c->val[v][row->idx[v]]);
  for (int k = 0; k < c->repeat && at < len; k++)
    at += (size_t)(k < r->nscores ? snprintf(buf + at, len - at, ",%.9g", r->score[k])
                                  : snprintf(buf + at, len - at, ","));
  if (at < len) at += (size_t)snprintf(buf + at, len - at, r->status == EVAL_OK ? ",%.9g" : ",", r->overall);
  if (at < len) at += (size_t)snprintf(buf + at, len - at, ",%.3f,", r->seconds);
  for (const char *s = r->status == EVAL_OK ? "ok" : "dropped: "; *s && at + 1 < len;) buf[at++] = *s++;
  for (const char *s = r->status == EVAL_OK ? "" : r->why; *s && at + 1 < len; s++) /* one field: no , " or newline */
    buf[at++] = *s == ',' ? ';' : *s == '"' ? '\'' : (*s == '\n' || *s == '\r') ? ' ' : *s;
  buf[at < len ? at : len - 1] = '\0';
}

/* the fields of one CSV line, trimmed (the course's 2011 logs put a space after each comma) */
static int split(char *line, char **field, int max) {
  int n = 0;
  for (char *s = line, *comma;; s = comma + 1) {
    comma = strchr(s, ',');
    if (comma) *comma = '\0';
    while (isspace((unsigned char)*s)) s++;
    for (char *e = s + strlen(s); e > s && isspace((unsigned char)e[-1]);) *--e = '\0';
    if (n < max) field[n++] = s;
    if (!comma) return n;
  }
}

static int cmp_value(const void *a, const void *b) {
  long long x = strtoll(*(char *const *)a, NULL, 10), y = strtoll(*(char *const *)b, NULL, 10);
  return (x > y) - (x < y);
}

/* Reads a log: its header must name c's variables (build: the variables, and their values, come from the log:
 * integers in increasing order, other values in the order they first appear). Each row it can place goes to fn;
 * rows it cannot (cut short, a value not in the config) are counted in *skipped. 1: no such file; -1: msg. */
int tune_log_read(const char *path, tune_conf *c, int build, tune_row_fn fn, void *ctx, long long *skipped, char *msg,
                  size_t len) {
  FILE *f = fopen(path, "r");
  if (!f) return 1;
  char *line = NULL, *field[TUNE_MAX_VARS + TUNE_MAX_REPEAT + 8], names[4096] = "";
  size_t cap = 0;
  int nf = 0, col_score = -1, col_overall = -1, col_seconds = -1, col_status = -1, nvars = 0, rc = 0;
  *skipped = 0;
  if (getline(&line, &cap, f) > 0) nf = split(line, field, TUNE_MAX_VARS + TUNE_MAX_REPEAT + 8);
  for (int i = 1; i < nf; i++) {
    if (!strcmp(field[i], "Score_1") && col_score < 0) col_score = i;
    if (!strcmp(field[i], "Score_Overall")) col_overall = i;
    if (!strcmp(field[i], "Seconds")) col_seconds = i;
    if (!strcmp(field[i], "Status")) col_status = i;
    if (col_score < 0 && col_overall < 0) nvars = i, strncat(names, i > 1 ? "," : "", 2), strncat(names, field[i], 100);
  }
  if (nf < 3 || strcmp(field[0], "TestNo") || col_overall < 0 || nvars == 0) {
    fclose(f), free(line);
    return snprintf(msg, len, "%s is not a tune log: its header is not TestNo,<variables>,...,Score_Overall", path), -1;
  }
  int nscores = col_overall - (col_score < 0 ? col_overall : col_score);
  for (int i = 1; build && i <= nvars && rc == 0; i++) rc = tune_add_var(c, field[i], msg, len) < 0 ? -1 : 0;
  if (build && rc == 0) {
    c->nnodes = 1, c->node[0].nvars = nvars, c->repeat = nscores ? nscores : 1;
    for (int v = 0; v < nvars; v++) c->node[0].vars[v] = v;
  }
  char header[4096];
  tune_log_header(c, header, sizeof(header));
  if (!build && rc == 0 && (nvars != c->nvars || nscores != c->repeat || strncmp(header + 7, names, strlen(names))))
    rc = (snprintf(msg, len,
                   "the log %s has the columns %s and %d scores, this config %d variables and repeat = %d: "
                   "name another log, or -fresh to start this one again",
                   path, names, nscores, c->nvars, c->repeat),
          -1);
  long rows_at = ftell(f);
  for (int pass = build ? 0 : 1; pass < 2 && rc == 0; pass++) {
    char **seen[TUNE_MAX_VARS] = {0};
    int nseen[TUNE_MAX_VARS] = {0};
    fseek(f, rows_at, SEEK_SET);
    while (rc == 0 && getline(&line, &cap, f) > 0) {
      tune_row row;
      memset(&row, 0, sizeof(row));
      if (split(line, field, TUNE_MAX_VARS + TUNE_MAX_REPEAT + 8) != nf) { /* a line cut short: an interrupted run */
        *skipped += pass == 1;
        continue;
      }
      for (int v = 0; v < nvars && pass == 0; v++) { /* build: collect each column's distinct values */
        int k = 0;
        while (k < nseen[v] && strcmp(seen[v][k], field[1 + v])) k++;
        if (k < nseen[v]) continue;
        seen[v] = realloc(seen[v], sizeof(char *) * (size_t)(nseen[v] + 1));
        seen[v][nseen[v]++] = strdup(field[1 + v]);
      }
      int placed = pass == 1;
      for (int v = 0; v < nvars && placed; v++) {
        row.idx[v] = 0;
        while (row.idx[v] < c->nvals[v] && strcmp(c->val[v][row.idx[v]], field[1 + v])) row.idx[v]++;
        placed = row.idx[v] < c->nvals[v];
      }
      if (pass == 1 && !placed) ++*skipped;
      if (!placed) continue;
      char *end;
      row.id = strtoll(field[0], NULL, 10);
      for (int k = 0; k < nscores; k++) row.r.score[k] = strtod(field[col_score + k], &end), row.r.nscores += *end == 0;
      row.r.overall = strtod(field[col_overall], &end);
      int ok = end != field[col_overall] && !*end;
      if (col_status >= 0) ok = !strcmp(field[col_status], "ok");
      if (col_status >= 0 && !ok)
        snprintf(row.r.why, sizeof(row.r.why), "%s",
                 field[col_status] + (strncmp(field[col_status], "dropped: ", 9) ? 0 : 9));
      row.r.status = ok ? EVAL_OK : EVAL_DROPPED;
      row.has_seconds =
          col_seconds >= 0 && (row.r.seconds = strtod(field[col_seconds], &end), end != field[col_seconds]);
      rc = fn(ctx, &row);
    }
    for (int v = 0; v < nvars && pass == 0; v++) { /* build: the values, as comma lists */
      int ints = 1;
      for (int k = 0; k < nseen[v]; k++) ints &= strspn(seen[v][k], "-0123456789") == strlen(seen[v][k]);
      if (ints) qsort(seen[v], (size_t)nseen[v], sizeof(char *), cmp_value);
      char list[65536] = "";
      for (int k = 0; k < nseen[v]; k++)
        strncat(list, k ? "," : "", 2), strncat(list, seen[v][k], 200), free(seen[v][k]);
      free(seen[v]);
      if (nseen[v] == 0)
        rc = (snprintf(msg, len, "%s has no rows", path), -1);
      else if (tune_add_values(c, v, list, msg, len))
        rc = -1;
    }
  }
  fclose(f);
  free(line);
  return rc;
}
