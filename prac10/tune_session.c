/*
 * tune_session.c -- a live run: the log read as the cache, each configuration the strategy asks for taken from
 * it or compiled, run, cleaned and appended to it, a line per test and the progress line (done of planned, the
 * best so far, an estimate of the time left).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tune.h"

/* msg: what, the file and why (errno) */
static int fail(char *msg, size_t len, const char *what, const char *file) {
  snprintf(msg, len, "%s%s%s: %s", what, file[0] ? " " : "", file, strerror(errno));
  return -1;
}

const char *tune_unit(const tune_conf *c) {
  if (c->score_kind == SCORE_BENCH) return c->bench_key;
  return c->score_kind == SCORE_TIME ? "s" : "";
}

/* a score and its unit: "2 ms", "1.25 s", "7" */
void tune_score_text(const tune_conf *c, double x, char *buf, size_t len) {
  snprintf(buf, len, "%.6g%s%s", x, tune_unit(c)[0] ? " " : "", tune_unit(c));
}

/* a row of the log, kept for its configuration (a later row replaces an earlier one); a row dropped for the
 * time limit or a SKIP is not kept: that configuration runs again */
static int cache_row(void *ctx, const tune_row *row) {
  tune_session *S = ctx;
  long long lin = tune_linear(S->c, row->idx);
  if (row->r.retry) return 0;
  if (!S->cache[lin]) {
    S->cache[lin] = malloc(sizeof(tune_row));
    if (!S->cache[lin]) return -1;
    S->ncached++;
  }
  *S->cache[lin] = *row;
  return 0;
}

/* done of planned, the best so far, elapsed and an estimate of the time left (the mean of the runs so far) */
void tune_progress(tune_session *S) {
  long long done = S->ran + S->from_log, left = S->planned > done ? S->planned - done : 0;
  double elapsed = tune_now_s() - S->t0, each = S->ran ? S->run_seconds / (double)S->ran : 0;
  char best[96] = "no best yet", text[64];
  if (S->have_best) {
    tune_score_text(S->c, S->best_score, text, sizeof(text));
    snprintf(best, sizeof(best), "best %s (test %lld)", text, S->best_id);
  }
  if (S->tty)
    printf("\r\033[K[%lld/%lld] %s", done, S->planned, best);
  else
    printf("  %lld of %lld done, %s", done, S->planned, best);
  printf(", %.1f s elapsed, about %.0f s left%s", elapsed, each * (double)left, S->tty ? "" : "\n");
  fflush(stdout);
}

/* the strategies' evaluator: the log's row, else compile, run, clean and log it */
tune_eval tune_session_eval(void *ctx, const int *idx) {
  tune_session *S = ctx;
  const tune_conf *c = S->c;
  tune_row row;
  char desc[1024], text[64];
  const tune_row *cached = S->cache[tune_linear(c, idx)];
  tune_describe(c, idx, desc, sizeof(desc));
  if (cached) {
    row = *cached;
    S->from_log++;
  } else {
    memset(&row, 0, sizeof(row));
    row.id = S->next_id;
    S->next_id++;
    memcpy(row.idx, idx, sizeof(row.idx));
    if (S->tty) printf(", running test %lld", row.id); /* on the progress line */
    fflush(stdout);
    tune_evaluate(c, idx, row.id, S->verbose, &row.r);
    if (tune_log_write(S->log, c, &row)) S->log_failed = 1;
    S->ran++;
    S->run_seconds += row.r.seconds;
  }
  if (S->tty) printf("\r\033[K");
  double cost = c->maximise ? -row.r.overall : row.r.overall;
  const char *from = cached ? " (from the log)" : "";
  if (row.r.status == EVAL_OK) {
    tune_score_text(c, row.r.overall, text, sizeof(text));
    printf("Test %lld: %s: %s%s\n", row.id, desc, text, from);
    if (!S->have_best || cost < S->best_cost) {
      S->have_best = 1;
      S->best_cost = cost;
      S->best_score = row.r.overall;
      S->best_id = row.id;
    }
  } else {
    /* the log's word: retry where the machine is to blame (a SKIP, the time limit), and the next run tries it again */
    printf("Test %lld: %s: %s: %s%s\n", row.id, desc, row.r.retry ? "retry" : "dropped", row.r.why, from);
    S->retried += row.r.retry;
    if (!S->dropped) { /* the configuration, and the reason inside the program's own verdict where it has one */
      const char *why = strstr(row.r.why, "RESULT: FAIL (");
      why = why ? why + 14 : row.r.why;
      int n = (int)strlen(why) - (why != row.r.why && why[0] && why[strlen(why) - 1] == ')');
      snprintf(S->first_drop, sizeof(S->first_drop), "%.150s: %.*s", desc, n < 200 ? n : 200, why);
    }
    S->dropped++;
  }
  tune_progress(S);
  tune_eval e = {row.r.status, row.r.status == EVAL_OK ? cost : INFINITY, S->log_failed};
  return e;
}

/* The log (S->logpath, named from where tune started): its rows become the cache, then new rows are appended to
 * it. 0, or -1 with msg (a log made another way is refused; a file that cannot be written). */
int tune_session_open(tune_session *S, int fresh, char *msg, size_t len) {
  tune_conf *c = S->c;
  S->cache = calloc((size_t)tune_space_size(c), sizeof(tune_row *));
  if (!S->cache) return fail(msg, len, "out of memory", "");
  char *path = S->logpath;
  if (fresh && remove(path) != 0 && errno != ENOENT) return fail(msg, len, "cannot remove the log", path);
  int rc = tune_log_read(path, c, cache_row, S, &S->info, msg, len);
  if (rc < 0) return -1;
  S->next_id = S->info.last_id + 1;
  for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) { /* its folders, as mkdir -p makes them */
    *p = '\0';
    int made = mkdir(path, 0777) == 0 || errno == EEXIST;
    *p = '/';
    if (!made) return fail(msg, len, "cannot make the folders of the log", path);
  }
  int last = '\n';
  FILE *old = rc == 0 ? fopen(path, "rb") : NULL;
  if (old && fseek(old, -1, SEEK_END) == 0) last = fgetc(old);
  if (old) fclose(old);
  S->log = fopen(path, "a");
  if (!S->log) return fail(msg, len, "cannot write the log", path);
  int bad = rc == 1 ? tune_log_start(S->log, c) : 0;
  if (rc == 0 && last != '\n') bad = fputc('\n', S->log) == EOF; /* an interrupted run's half line stays apart */
  if (bad || fflush(S->log)) return fail(msg, len, "cannot write the log", path);
  return 0;
}

void tune_session_free(tune_session *S) {
  for (long long lin = 0; S->cache && lin < tune_space_size(S->c); lin++) free(S->cache[lin]);
  free(S->cache);
  S->cache = NULL;
}
