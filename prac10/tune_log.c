/*
 * tune_log.c -- the CSV log: the course's columns (TestNo, the variables, Score_1..Score_N, Score_Overall), then
 * the workbook's Seconds and Status, one row per configuration run. Above the header, lines starting "# " say
 * how the scores were made: the compile and test commands, the score and its direction, the verdict rule and
 * the repeats. The log is also the cache of the next run, and a log made another way would hand it wrong scores,
 * so a log whose "# " lines or columns differ from the config's is refused (-fresh starts it again). A row is
 * taken only when it is whole: a test number, values of the config, and Status ok with every score a finite
 * number, or dropped with its reason. A row dropped for the time limit or a SKIP (Status retry) says nothing of
 * its configuration: it is run again.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tune.h"

static const char first_line[] = "# tune log, its scores made with:";

/* the "# " lines and the header, as this config writes them: malloc'd text, one '\n' after each line */
static char *log_top(const tune_conf *c) {
  static const char *const aggs[] = {"min", "max", "med", "avg"};
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (!f) return NULL;
  fprintf(f, "%s\n", first_line);
  fprintf(f, "# compile = %s\n# test = %s\n# score = ", c->compile[0] ? c->compile : "(none)", c->test);
  if (c->score_kind == SCORE_BENCH)
    fprintf(f, "bench %s%s%s", c->bench_key, c->bench_prog[0] ? " prog=" : "", c->bench_prog);
  else if (c->score_kind == SCORE_TIME)
    fprintf(f, "the wall time of test");
  else
    fprintf(f, "the last number printed");
  fprintf(f, ", the %s best\n", c->maximise ? "highest" : "lowest");
  fprintf(f, "# verdict = %s\n# repeat = %d, %s\nTestNo", c->verdict_exit ? "exit" : "result", c->repeat,
          aggs[c->aggregate]);
  for (int v = 0; v < c->nvars; v++) fprintf(f, ",%s", c->name[v]);
  for (int k = 1; k <= c->repeat; k++) fprintf(f, ",Score_%d", k);
  fprintf(f, ",Score_Overall,Seconds,Status\n");
  if (fclose(f)) {
    free(text);
    return NULL;
  }
  return text;
}

int tune_log_start(FILE *f, const tune_conf *c) {
  char *top = log_top(c);
  int rc = top && fputs(top, f) >= 0 && fflush(f) == 0 ? 0 : -1;
  free(top);
  return rc;
}

/* one row; Status is one field: no comma, quote or newline in the reason */
int tune_log_write(FILE *f, const tune_conf *c, const tune_row *row) {
  const tune_result *r = &row->r;
  fprintf(f, "%lld", row->id);
  for (int v = 0; v < c->nvars; v++) fprintf(f, ",%s", c->val[v][row->idx[v]]);
  for (int k = 0; k < c->repeat; k++) {
    if (k < r->nscores)
      fprintf(f, ",%.9g", r->score[k]);
    else
      fputc(',', f);
  }
  if (r->status == EVAL_OK)
    fprintf(f, ",%.9g,%.3f,ok\n", r->overall, r->seconds);
  else
    fprintf(f, ",,%.3f,%s: ", r->seconds, r->retry ? "retry" : "dropped");
  for (const char *s = r->why; r->status != EVAL_OK && *s; s++) {
    char ch = *s;
    if (ch == ',') ch = ';';
    if (ch == '"') ch = '\'';
    if (ch == '\n' || ch == '\r') ch = ' ';
    fputc(ch, f);
  }
  if (r->status != EVAL_OK) fputc('\n', f);
  return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* the fields of one CSV line, cut in place; the count, or max + 1 when there are more */
static int split(char *line, char **field, int max) {
  int n = 0;
  for (char *s = line;;) {
    char *comma = strchr(s, ',');
    if (comma) *comma = '\0';
    if (n < max) field[n] = s;
    n++;
    if (!comma || n > max) return n;
    s = comma + 1;
  }
}

static int whole_double(const char *s, double *x) {
  char *end;
  errno = 0;
  *x = strtod(s, &end);
  return end != s && *end == '\0' && errno != ERANGE && isfinite(*x);
}

/* one row of the log into row: 0, or -1 when it cannot be taken (cut short, a value not in the config, ...) */
static int read_row(const tune_conf *c, char *line, tune_row *row) {
  enum { MAXF = TUNE_MAX_VARS + TUNE_MAX_REPEAT + 4 };
  char *field[MAXF], *end;
  int nf = split(line, field, MAXF), first_score = 1 + c->nvars, overall = first_score + c->repeat;
  memset(row, 0, sizeof(*row));
  if (nf != overall + 3) return -1;
  errno = 0;
  row->id = strtoll(field[0], &end, 10);
  if (end == field[0] || *end || errno || row->id < 1) return -1;
  for (int v = 0; v < c->nvars; v++) {
    int k = tune_find_value(c, v, field[1 + v], strlen(field[1 + v]));
    if (k < 0) return -1;
    row->idx[v] = k;
  }
  tune_result *r = &row->r;
  const char *status = field[overall + 2];
  if (!whole_double(field[overall + 1], &r->seconds) || r->seconds < 0) return -1;
  if (strcmp(status, "ok") == 0) {
    r->status = EVAL_OK;
    r->nscores = c->repeat;
    for (int k = 0; k < c->repeat; k++)
      if (!whole_double(field[first_score + k], &r->score[k])) return -1;
    if (!whole_double(field[overall], &r->overall)) return -1;
    if (c->score_kind == SCORE_BENCH && r->overall <= 0) return -1;
    return 0;
  }
  r->status = EVAL_DROPPED;
  if (strncmp(status, "dropped: ", 9) == 0) {
    snprintf(r->why, sizeof(r->why), "%s", status + 9);
    return 0;
  }
  if (strncmp(status, "retry: ", 7) == 0) {
    snprintf(r->why, sizeof(r->why), "%s", status + 7);
    r->retry = 1;
    return 0;
  }
  return -1;
}

/* the log's first lines against the config's: 0, or -1 with msg naming the first that differs */
static int check_top(FILE *f, const tune_conf *c, const char *path, char **line, size_t *cap, char *msg, size_t len) {
  char *top = log_top(c);
  if (!top) {
    snprintf(msg, len, "out of memory");
    return -1;
  }
  int rc = 0;
  for (char *want = top; *want && rc == 0;) {
    char *nl = strchr(want, '\n');
    *nl = '\0';
    const char *got = tune_next_line(f, line, cap) ? *line : "";
    if (strcmp(got, want) == 0) {
      want = nl + 1;
      continue;
    }
    rc = -1;
    if (want == top)
      snprintf(msg, len,
               "the log %s is not one of tune's (its first line is not '%s'): name another log, or -fresh "
               "to start it again",
               path, first_line);
    else if (want[0] == '#')
      snprintf(msg, len,
               "the log %s was made with '%.100s', this config has '%.100s': name another log, or -fresh to "
               "start it again",
               path, got, want);
    else
      snprintf(msg, len,
               "the log %s has the columns %.100s, this config %.100s: name another log, or -fresh to start "
               "it again",
               path, got, want);
  }
  free(top);
  return rc;
}

/* Reads a log made with c's settings; each row it can take goes to fn, and those it cannot are counted in
 * info. 0; 1: no log yet (no file, or an empty one); -1: msg. */
int tune_log_read(const char *path, const tune_conf *c, tune_row_fn fn, void *ctx, tune_log_info *info, char *msg,
                  size_t len) {
  struct stat st;
  memset(info, 0, sizeof(*info));
  if (stat(path, &st) != 0) return 1;
  if (!S_ISREG(st.st_mode)) {
    snprintf(msg, len, "the log %s is not a file", path);
    return -1;
  }
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, len, "cannot read the log %s", path);
    return -1;
  }
  int first = fgetc(f);
  if (first == EOF) {
    fclose(f);
    return 1;
  }
  ungetc(first, f);
  char *line = NULL;
  size_t cap = 0;
  int rc = check_top(f, c, path, &line, &cap, msg, len);
  while (rc == 0 && tune_next_line(f, &line, &cap)) {
    tune_row row;
    long long id = strtoll(line, NULL, 10);
    if (line[strspn(line, " \t")] == '\0') continue;
    if (id > info->last_id && id < (1LL << 50)) info->last_id = id; /* a number past 2^50 is no test number */
    if (read_row(c, line, &row) != 0) {
      info->skipped++;
    } else if (fn(ctx, &row) != 0) {
      snprintf(msg, len, "out of memory reading the log %s", path);
      rc = -1;
    }
  }
  if (rc == 0 && ferror(f)) {
    snprintf(msg, len, "cannot read the log %s", path);
    rc = -1;
  }
  fclose(f);
  free(line);
  return rc;
}
