/*
 * tune_conf.c -- the config's settings (tune_ini.c reads its syntax): the tree of [variables] first, then
 * [values], then the rest, each checked as it is read; then what they mean together (check_whole): the score and
 * its direction, the %%ID%% rule, the size of the space, and the restrictions over every configuration.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tune.h"

void tune_warn(tune_conf *c, const char *fmt, ...) {
  if (c->nwarnings == TUNE_MAX_WARNINGS) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->warning[c->nwarnings], TUNE_MSG_LEN, fmt, ap);
  va_end(ap);
  c->nwarnings++;
}

/* A value goes into `sh -c` as it is written, so it may hold no character the shell reads: letters, digits
 * and these only. 0, or -1 with msg. */
static const char value_punct[] = "_.+-/=:";

static int check_value(const tune_conf *c, int v, const char *t, char *msg, size_t len) {
  for (const char *s = t; *s; s++) {
    if (isalnum((unsigned char)*s) || strchr(value_punct, *s)) continue;
    char what[16] = "a space";
    if (!isspace((unsigned char)*s)) snprintf(what, sizeof(what), "'%c'", *s);
    return tune_fail(msg, len,
                     "%s: the value '%.60s' holds %s, which the shell would read: a value is letters, digits "
                     "and %s only",
                     c->name[v], t, what, value_punct);
  }
  return 0;
}

/* a comma list ("32, 64, 128") becomes variable v's values, each kept as written and as an integer where it is one */
int tune_add_values(tune_conf *c, int v, const char *list, char *msg, size_t len) {
  size_t n = strlen(list) + 1;
  char *block = malloc(sizeof(char *) + n);
  if (!block) return tune_fail(msg, len, "out of memory");
  *(char **)block = c->arena; /* the arena is a chain of blocks, one per list, freed by tune_conf_free */
  c->arena = block;
  char *s = block + sizeof(char *);
  memcpy(s, list, n);
  c->nvals[v] = 0;
  for (char *item = s;;) {
    char *comma = strchr(item, ',');
    if (comma) *comma = '\0';
    char *t = tune_trim(item);
    if (*t == '\0') return tune_fail(msg, len, "%s: an empty value in '%.100s'", c->name[v], list);
    if (check_value(c, v, t, msg, len)) return -1;
    if (c->nvals[v] == TUNE_MAX_VALUES)
      return tune_fail(msg, len, "%s: more than %d values", c->name[v], TUNE_MAX_VALUES);
    for (int k = 0; k < c->nvals[v]; k++)
      if (strcmp(c->val[v][k], t) == 0) return tune_fail(msg, len, "%s: the value %s is listed twice", c->name[v], t);
    int k = c->nvals[v];
    char *end;
    errno = 0;
    c->val[v][k] = t;
    c->ival[v][k] = strtoll(t, &end, 10);
    c->isint[v][k] = end != t && *end == '\0' && errno != ERANGE;
    c->nvals[v]++;
    if (!comma) break;
    item = comma + 1;
  }
  return 0;
}

/* ---- the settings ------------------------------------------------------------------------------------------ */
static const char *const optimals[] = {"min_bench", "max_bench", "min_time", "max_time", "min", "max"};
enum { OPTIMAL_NONE = -1, OPTIMAL_MAX_TIME = 3 };

typedef struct {
  int score_given; /* score = bench KEY: its direction comes from optimal, which must be given */
  int optimal;     /* an index into optimals, or OPTIMAL_NONE */
} scoring;

/* %NAME% that names no variable is left as it is: said in a warning, as it is likely a typing error */
static void check_names(tune_conf *c, const char *key, const char *cmd) {
  for (const char *p = strchr(cmd, '%'); p; p = strchr(p + 1, '%')) {
    if (strncmp(p, "%%ID%%", 6) == 0) {
      p += 5;
      continue;
    }
    const char *e = p + 1;
    while (isalnum((unsigned char)*e) || *e == '_') e++;
    if (e > p + 1 && *e == '%' && tune_find_var(c, p + 1, (size_t)(e - p - 1)) < 0)
      tune_warn(c, "%s: %.*s names no variable (left as it is)", key, (int)(e - p + 1), p);
  }
}

static int apply_testing(tune_conf *c, const char *k, const char *v, char *m, size_t len) {
  char *end;
  if (!strcmp(k, "compile") || !strcmp(k, "test") || !strcmp(k, "clean")) {
    char *cmd = !strcmp(k, "compile") ? c->compile : !strcmp(k, "test") ? c->test : c->clean;
    if (strlen(v) >= TUNE_CMD_LEN) return tune_fail(m, len, "%s is longer than %d characters", k, TUNE_CMD_LEN - 1);
    strcpy(cmd, v);
    check_names(c, k, cmd);
    return 0;
  }
  if (!strcmp(k, "verdict")) {
    if (strcmp(v, "result") && strcmp(v, "exit"))
      return tune_fail(m, len, "verdict = result (a RESULT: PASS line) or exit (exit code 0), not %s", v);
    c->verdict_exit = v[0] == 'e';
    return 0;
  }
  if (!strcmp(k, "timeout")) {
    c->timeout_s = strtod(v, &end);
    if (end == v || *end || !(c->timeout_s > 0 && c->timeout_s <= 1e6))
      return tune_fail(m, len, "timeout = seconds (more than 0, at most 1000000), not %s", v);
    return 0;
  }
  return tune_fail(m, len, "[testing] has no setting '%s'", k);
}

static int apply_scoring(tune_conf *c, scoring *sc, const char *k, const char *v, char *m, size_t len) {
  static const char *const aggs[] = {"min", "max", "med", "avg"};
  if (!strcmp(k, "repeat")) { /* N, or N, AGGREGATE; spaces anywhere between */
    char *end, agg[16] = "min";
    long n = strtol(v, &end, 10);
    int ok = end != v && n >= 1 && n <= TUNE_MAX_REPEAT;
    while (isspace((unsigned char)*end)) end++;
    if (*end == ',') snprintf(agg, sizeof(agg), "%.15s", end + 1 + strspn(end + 1, " \t"));
    ok = ok && (*end == '\0' || *end == ',');
    c->aggregate = 0;
    while (c->aggregate < 4 && strcmp(aggs[c->aggregate], tune_trim(agg))) c->aggregate++;
    if (!ok || c->aggregate == 4)
      return tune_fail(m, len, "repeat = N, min|max|med|avg (N from 1 to %d), not %s", TUNE_MAX_REPEAT, v);
    c->repeat = (int)n;
    return 0;
  }
  if (!strcmp(k, "optimal")) {
    sc->optimal = 0;
    while (sc->optimal < 6 && strcmp(optimals[sc->optimal], v)) sc->optimal++;
    if (sc->optimal == 6) return tune_fail(m, len, "optimal = %s: min_bench|max_bench|min_time|max_time|min|max", v);
    return 0;
  }
  if (!strcmp(k, "score")) {
    char word[16] = "", key[64] = "", prog[80] = "", extra[8] = "";
    int n = sscanf(v, "%15s %63s %79s %7s", word, key, prog, extra);
    int ok = n >= 2 && n <= 3 && !strcmp(word, "bench") && strlen(key) < sizeof(c->bench_key);
    ok = ok && (n == 2 || (!strncmp(prog, "prog=", 5) && prog[5] && strlen(prog + 5) < sizeof(c->bench_prog)));
    if (!ok)
      return tune_fail(m, len, "score = bench KEY [prog=NAME], as in score = bench GBps prog=laplace3d, not %s", v);
    strcpy(c->bench_key, key);
    strcpy(c->bench_prog, n == 3 ? prog + 5 : "");
    sc->score_given = 1;
    return 0;
  }
  return tune_fail(m, len, "[scoring] has no setting '%s'", k);
}

static int apply(tune_conf *c, scoring *sc, const tune_ini_entry *en, char *m, size_t len) {
  const char *k = en->key, *v = en->value;
  switch (en->section) {
  case S_VARIABLES:
    if (strcmp(k, "variables")) return tune_fail(m, len, "[variables] has no setting '%s'", k);
    return tune_parse_tree(c, v, m, len);
  case S_VALUES: {
    int var = tune_find_var(c, k, strlen(k));
    if (var >= 0) return tune_add_values(c, var, v, m, len);
    tune_warn(c, "[values] %s is not in the variable tree: ignored", k);
    return 0;
  }
  case S_RESTRICTIONS:
    if (c->nrules == TUNE_MAX_RESTRICT) return tune_fail(m, len, "more than %d restrictions", TUNE_MAX_RESTRICT);
    if (strlen(v) >= sizeof(c->rule[0])) return tune_fail(m, len, "a restriction over %d characters", 255);
    strcpy(c->rule[c->nrules], v);
    c->nrules++;
    return tune_expr_eval(c, v, NULL, NULL, m, len);
  case S_TESTING:
    return apply_testing(c, k, v, m, len);
  case S_SCORING:
    return apply_scoring(c, sc, k, v, m, len);
  case S_TABLE: { /* the program's line in a tuned table: program = NAME, size = VARIABLE, settings = -a=%A% ... */
    char *dst = !strcmp(k, "program")    ? c->table_program
                : !strcmp(k, "size")     ? c->table_size
                : !strcmp(k, "settings") ? c->table_settings
                : !strcmp(k, "default")  ? c->table_default
                                         : NULL;
    if (!dst) return tune_fail(m, len, "[table] has no setting '%s' (program, size, settings, default)", k);
    size_t cap = dst == c->table_settings || dst == c->table_default ? sizeof(c->table_settings)
                                                                      : sizeof(c->table_program);
    if (!v[0] || strlen(v) >= cap) return tune_fail(m, len, "[table] %s = 1 to %zu characters", k, cap - 1);
    strcpy(dst, v);
    if (dst == c->table_settings) check_names(c, "[table] settings", v);
    return 0;
  }
  default: /* S_OUTPUT */
    if (!strcmp(k, "log")) {
      if (strlen(v) >= sizeof(c->log) || !v[0]) return tune_fail(m, len, "log = a file name of 1 to 511 characters");
      strcpy(c->log, v);
      return 0;
    }
    if (strcmp(k, "script") && strcmp(k, "importance")) return tune_fail(m, len, "[output] has no setting '%s'", k);
    tune_warn(c, "[output] %s is not supported here: ignored", k);
    return 0;
  }
}

/* what the settings mean together: the score, the %%ID%% rule, the size of the space, the restrictions */
static int check_whole(tune_conf *c, const scoring *sc, const char *file, char *msg, size_t len) {
  if (c->nnodes == 0) return tune_fail(msg, len, "%s: [variables] has no variables = {...}", file);
  for (int v = 0; v < c->nvars; v++)
    if (c->nvals[v] == 0) return tune_fail(msg, len, "%s: %s has no values in [values]", file, c->name[v]);
  if (!c->test[0]) return tune_fail(msg, len, "%s: [testing] has no test = command", file);
  if (c->compile[0] && !(strstr(c->compile, "%%ID%%") && strstr(c->test, "%%ID%%")))
    return tune_fail(msg, len,
                     "%s: with a compile command, compile and test must both name the binary by %%%%ID%%%% "
                     "(-o bin/prog_%%%%ID%%%% and ./bin/prog_%%%%ID%%%%): re-timing builds several at once",
                     file);
  if (!c->log[0]) return tune_fail(msg, len, "%s: [output] has no log = file.csv", file);
  long long space = tune_space_size(c);
  if (space < 0 || space > TUNE_MAX_SPACE || tune_tree_count(c, 0) < 0)
    return tune_fail(msg, len, "%s: the values make more than %lld configurations in all (fewer values)", file,
                     TUNE_MAX_SPACE);
  if (sc->score_given && sc->optimal == OPTIMAL_NONE)
    return tune_fail(msg, len, "%s: score = bench %s needs optimal = min or max (is a larger %s better?)", file,
                     c->bench_key, c->bench_key);
  int o = sc->optimal == OPTIMAL_NONE ? 0 : sc->optimal; /* min_bench unless told */
  c->maximise = o % 2;
  c->score_kind = o < 2 ? SCORE_BENCH : o <= OPTIMAL_MAX_TIME ? SCORE_TIME : SCORE_LAST;
  if (sc->score_given && c->score_kind == SCORE_TIME)
    return tune_fail(msg, len, "%s: score = bench and optimal = %s disagree: say optimal = min or max", file,
                     optimals[o]);
  if (sc->score_given) c->score_kind = SCORE_BENCH;
  if (c->score_kind == SCORE_TIME)
    tune_warn(c,
              "optimal = %s scores the wall time of the whole test command: process start, CUDA set-up and copies "
              "are in every score (optimal = min_bench reads the program's own ms)",
              optimals[o]);
  if (c->table_program[0] || c->table_size[0] || c->table_settings[0]) { /* [table]: all three, a real size */
    if (!c->table_program[0] || !c->table_size[0] || !c->table_settings[0])
      return tune_fail(msg, len, "%s: [table] needs program, size and settings", file);
    if (tune_find_var(c, c->table_size, strlen(c->table_size)) < 0)
      return tune_fail(msg, len, "%s: [table] size = %s is not a variable", file, c->table_size);
  }
  if (c->table_default[0]) { /* every variable but the size, each at one of its values */
    int idx[TUNE_MAX_VARS], named[TUNE_MAX_VARS];
    char why[TUNE_MSG_LEN];
    if (!c->table_program[0]) return tune_fail(msg, len, "%s: [table] default needs program, size and settings", file);
    if (tune_default_index(c, idx, named, why, sizeof(why)) < 0) return tune_fail(msg, len, "%s: [table] %s", file, why);
  }
  for (int v = 0; v < c->nvars; v++) { /* a variable no command uses: every value runs the same program */
    char ref[80];
    snprintf(ref, sizeof(ref), "%%%s%%", c->name[v]);
    if (!strstr(c->compile, ref) && !strstr(c->test, ref) && !strstr(c->clean, ref))
      tune_warn(c, "%s is tuned, but no command names %s: each of its values runs the same program", c->name[v], ref);
  }
  char why[TUNE_MSG_LEN];
  int device = 0; /* a restriction that names the GPU's limits: ask for them once, before any is evaluated */
  for (int i = 0; i < c->nrules; i++) device |= strstr(c->rule[i], "DEVICE_") != NULL;
  int rc = device ? tune_device_limits(c, why, sizeof(why)) : 0;
  if (rc) return snprintf(msg, len, "%s: its restrictions name the GPU's limits: %s", file, why), rc < 0 ? -1 : 2;
  if (tune_check_rules(c, why, sizeof(why))) return tune_fail(msg, len, "%s: %s", file, why);
  return 0;
}

int tune_default_index(const tune_conf *c, int *idx, int *named, char *msg, size_t len) {
  if (!c->table_default[0]) return 0;
  int size_var = tune_find_var(c, c->table_size, strlen(c->table_size));
  for (int v = 0; v < c->nvars; v++) idx[v] = named[v] = 0;
  const char *p = c->table_default;
  while (*p) { /* NAME=VALUE, NAME=VALUE ... (spaces or commas between) */
    p += strspn(p, " \t,");
    if (!*p) break;
    size_t n = strcspn(p, " \t,"), eq = strcspn(p, "=");
    if (eq >= n) return tune_fail(msg, len, "default = NAME=VALUE ...: '%.*s' has no =", (int)n, p);
    int v = tune_find_var(c, p, eq);
    if (v < 0) return tune_fail(msg, len, "default: %.*s is not a variable", (int)eq, p);
    if (v == size_var) return tune_fail(msg, len, "default: leave out %s, the size (each class sets it)", c->name[v]);
    if (named[v]) return tune_fail(msg, len, "default: %s given twice", c->name[v]);
    int k = tune_find_value(c, v, p + eq + 1, n - eq - 1);
    if (k < 0)
      return tune_fail(msg, len, "default: %.*s is not one of %s's values", (int)(n - eq - 1), p + eq + 1, c->name[v]);
    idx[v] = k, named[v] = 1;
    p += n;
  }
  return 1;
}

int tune_conf_parse(const char *text, const char *file, tune_conf *c, char *msg, size_t len) {
  memset(c, 0, sizeof(*c));
  c->repeat = 1;
  c->aggregate = AGG_MIN;
  c->timeout_s = TUNE_TIMEOUT_S;
  strcpy(c->bench_key, "ms");
  char *copy = strdup(text), m[TUNE_MSG_LEN];
  if (!copy) return tune_fail(msg, len, "out of memory");
  tune_ini f;
  scoring sc = {0, OPTIMAL_NONE};
  int rc = tune_ini_read(copy, file, c, &f, msg, len);
  for (int pass = 0; pass < 3 && rc == 0; pass++) { /* the tree first, then the values, then the rest */
    for (int i = 0; i < f.n && rc == 0; i++) {
      int pass_of = f.en[i].section == S_VARIABLES ? 0 : f.en[i].section == S_VALUES ? 1 : 2;
      if (pass_of == pass && apply(c, &sc, &f.en[i], m, sizeof(m)))
        rc = tune_fail(msg, len, "%s:%d: %s", file, f.en[i].line, m);
    }
  }
  if (rc == 0) rc = check_whole(c, &sc, file, msg, len);
  tune_ini_free(&f);
  free(copy);
  return rc;
}

int tune_conf_load(const char *path, tune_conf *c, char *msg, size_t len) {
  memset(c, 0, sizeof(*c));
  FILE *f = fopen(path, "rb");
  if (!f) return tune_fail(msg, len, "cannot read %s", path);
  char *text = NULL;
  size_t cap = 0;
  ssize_t n = getdelim(&text, &cap, '\0', f); /* the whole file, unless it holds a NUL byte */
  int whole = feof(f) && !ferror(f);
  fclose(f);
  int rc;
  if (whole)
    rc = tune_conf_parse(n > 0 ? text : "", path, c, msg, len);
  else
    rc = tune_fail(msg, len, "cannot read %s as text", path);
  free(text);
  return rc;
}

void tune_conf_free(tune_conf *c) {
  while (c->arena) {
    char *next = *(char **)c->arena;
    free(c->arena);
    c->arena = next;
  }
}
