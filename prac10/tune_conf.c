/*
 * tune_conf.c -- the config file: the course's INI sections, the variable tree and the course's count of its
 * tests, and the workbook's [restrictions], expressions parsed once and evaluated per configuration.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tune.h"

static int fail(char *msg, size_t len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, len, fmt, ap);
  va_end(ap);
  return -1;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) *--e = '\0';
  return s;
}

static int is_name(const char *s) {
  if (!(isalpha((unsigned char)*s) || *s == '_')) return 0;
  for (s++; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
  return 1;
}

static int find_var(const tune_conf *c, const char *name, size_t n) {
  for (int v = 0; v < c->nvars; v++)
    if (strlen(c->name[v]) == n && strncasecmp(c->name[v], name, n) == 0) return v;
  return -1;
}

int tune_add_var(tune_conf *c, const char *name, char *msg, size_t len) {
  if (!is_name(name) || strlen(name) >= sizeof(c->name[0]))
    return fail(msg, len, "'%s' is not a variable name (letters, digits and _)", name);
  if (find_var(c, name, strlen(name)) >= 0) return fail(msg, len, "%s is in the variable tree twice", name);
  if (c->nvars == TUNE_MAX_VARS) return fail(msg, len, "more than %d variables", TUNE_MAX_VARS);
  strcpy(c->name[c->nvars], name);
  return c->nvars++;
}

/* a comma list ("32, 64, 128") becomes variable v's values, each kept as written and as an integer where it is one */
int tune_add_values(tune_conf *c, int v, const char *list, char *msg, size_t len) {
  size_t n = strlen(list) + 1;
  char *block = malloc(sizeof(char *) + n);
  if (!block) return fail(msg, len, "out of memory");
  *(char **)block = c->arena; /* the arena is a chain of blocks, one per list, freed by tune_conf_free */
  c->arena = block;
  char *s = block + sizeof(char *);
  memcpy(s, list, n);
  c->nvals[v] = 0;
  for (char *item = s, *comma;; item = comma + 1) {
    comma = strchr(item, ',');
    if (comma) *comma = '\0';
    char *t = trim(item);
    if (*t == '\0') return fail(msg, len, "%s: an empty value in '%s'", c->name[v], list);
    if (c->nvals[v] == TUNE_MAX_VALUES) return fail(msg, len, "%s: more than %d values", c->name[v], TUNE_MAX_VALUES);
    for (int k = 0; k < c->nvals[v]; k++)
      if (strcmp(c->val[v][k], t) == 0) return fail(msg, len, "%s: the value %s is listed twice", c->name[v], t);
    int k = c->nvals[v]++;
    char *end;
    c->val[v][k] = t;
    c->ival[v][k] = strtoll(t, &end, 10);
    c->isint[v][k] = end != t && *end == '\0';
    if (!comma) break;
  }
  return 0;
}

/* ---- the variable tree: {A, B, {C}, {D, {E}}} ------------------------------------------------------------ */
static int parse_group(tune_conf *c, const char **p, char *msg, size_t len) {
  if (c->nnodes == TUNE_MAX_NODES) return fail(msg, len, "more than %d brace groups", TUNE_MAX_NODES);
  int me = c->nnodes++;
  tune_node *node = &c->node[me];
  (*p)++; /* the '{' */
  for (;;) {
    while (isspace((unsigned char)**p)) (*p)++;
    if (**p == '{') {
      int child = parse_group(c, p, msg, len);
      if (child < 0) return -1;
      node->children[node->nchildren++] = child;
    } else {
      const char *s = *p;
      while (isalnum((unsigned char)**p) || **p == '_') (*p)++;
      if (*p == s) {
        if (**p == '\0') return fail(msg, len, "unbalanced braces: a '{' is never closed");
        if (**p == '}' && node->nvars + node->nchildren == 0) return fail(msg, len, "empty braces {}");
        return fail(msg, len, "unexpected '%c': the tree is names and {sub-lists}, separated by commas", **p);
      }
      char name[64];
      snprintf(name, sizeof(name), "%.*s", (int)(*p - s), s);
      int v = tune_add_var(c, name, msg, len);
      if (v < 0) return -1;
      node->vars[node->nvars++] = v;
    }
    while (isspace((unsigned char)**p)) (*p)++;
    if (**p == '}') return (*p)++, me;
    if (**p == '\0') return fail(msg, len, "unbalanced braces: a '{' is never closed");
    if (**p != ',') return fail(msg, len, "unexpected '%c' after a name: expected ',' or '}'", **p);
    (*p)++;
  }
}

static int parse_tree(tune_conf *c, const char *text, char *msg, size_t len) {
  const char *p = text;
  while (isspace((unsigned char)*p)) p++;
  if (*p != '{') return fail(msg, len, "variables = must be a list in braces, {BLOCK_X, BLOCK_Y}");
  if (parse_group(c, &p, msg, len) < 0) return -1;
  while (isspace((unsigned char)*p)) p++;
  if (*p == '}') return fail(msg, len, "unbalanced braces: a '}' closes nothing");
  if (*p) return fail(msg, len, "text after the tree's closing brace: '%s'", p);
  return 0;
}

/* ---- restrictions: integers, + - * / %, comparisons, && || !, parentheses --------------------------------- */
/* Read and evaluated in one pass (precedence climbing), for a check when the config is read (vals NULL: names
 * and syntax only) and again per configuration: short, and a restriction costs microseconds next to a run. */
typedef struct {
  const tune_conf *c;
  const char *text, *p;
  const long long *vals;
  int err; /* 1: bad syntax (msg says why), 2: a division by zero */
  char *msg;
  size_t len;
} xparser;

static long long x_bad(xparser *x, const char *why) {
  if (!x->err) fail(x->msg, x->len, "restriction '%s': %s", x->text, why), x->err = 1;
  return 0;
}

static long long x_level(xparser *x, int level, int skip);

static long long x_unary(xparser *x, int skip) {
  while (isspace((unsigned char)*x->p)) x->p++;
  const char *s = x->p;
  char why[160];
  if (*s == '!' && s[1] != '=') return x->p++, !x_unary(x, skip);
  if (*s == '-') return x->p++, -x_unary(x, skip);
  if (*s == '(') {
    x->p++;
    long long v = x_level(x, 0, skip);
    while (isspace((unsigned char)*x->p)) x->p++;
    return *x->p == ')' ? (x->p++, v) : x_bad(x, "a '(' is never closed");
  }
  if (isdigit((unsigned char)*s)) return strtoll(s, (char **)&x->p, 10);
  while (isalnum((unsigned char)*x->p) || *x->p == '_') x->p++;
  int v = find_var(x->c, s, (size_t)(x->p - s));
  if (x->p == s) return x_bad(x, *s ? "an operator where a number or a name should be" : "it ends too soon");
  if (v < 0) return snprintf(why, sizeof(why), "%.*s is not a variable", (int)(x->p - s), s), x_bad(x, why);
  for (int k = 0; k < x->c->nvals[v] && !x->vals; k++)
    if (!x->c->isint[v][k])
      return snprintf(why, sizeof(why), "%s has the value %.40s, not an integer", x->c->name[v], x->c->val[v][k]),
             x_bad(x, why);
  return x->vals ? x->vals[v] : 0;
}

/* level 0 ||, 1 &&, 2 == !=, 3 <= >= < >, 4 + -, 5 * / %: OPS[FIRST[level]..FIRST[level+1]), longest first */
static const char *const OPS[] = {"||", "&&", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%"};
static const int FIRST[] = {0, 1, 2, 4, 8, 10, 13};

static long long x_level(xparser *x, int level, int skip) {
  if (level == 6) return x_unary(x, skip);
  long long a = x_level(x, level + 1, skip);
  for (;;) {
    while (isspace((unsigned char)*x->p)) x->p++;
    int op = FIRST[level];
    while (op < FIRST[level + 1] && strncmp(x->p, OPS[op], strlen(OPS[op]))) op++;
    if (op == FIRST[level + 1] || x->err) return a;
    x->p += strlen(OPS[op]);
    int lazy = (op == 1 && !a) || (op == 0 && a); /* short-circuit: X != 0 && 64 / X > 2 holds at X = 0 */
    long long b = x_level(x, level + 1, skip || lazy);
    if (op >= 11 && b == 0 && !skip && x->vals && !x->err) x->err = 2; /* / or % by zero, where it is evaluated */
    long long d = b ? b : 1;
    long long r[] = {a || b, a && b, a == b, a != b, a <= b, a >= b, a<b, a> b, a + b, a - b, a * b, a / d, a % d};
    a = r[op];
  }
}

/* vals NULL: check the text (msg says what is wrong); else evaluate it: -1 for a division by zero */
int tune_expr_eval(const tune_conf *c, const char *text, const long long *vals, long long *out, char *msg, size_t len) {
  char dummy[8];
  xparser x = {c, text, text, vals, 0, msg ? msg : dummy, msg ? len : sizeof(dummy)};
  long long v = x_level(&x, 0, 0);
  while (isspace((unsigned char)*x.p)) x.p++;
  if (*x.p && !x.err) x_bad(&x, "unexpected text after the expression");
  if (out) *out = v;
  return x.err ? -1 : 0;
}

/* a division by zero counts as broken: the configuration is not run */
int tune_allowed(const tune_conf *c, const int *idx, int *broken) {
  long long vals[TUNE_MAX_VARS], r;
  for (int v = 0; v < c->nvars; v++) vals[v] = c->isint[v][idx[v]] ? c->ival[v][idx[v]] : 0;
  for (int i = 0; i < c->nrules; i++)
    if (tune_expr_eval(c, c->rule[i], vals, &r, NULL, 0) || !r) {
      if (broken) *broken = i;
      return 0;
    }
  return 1;
}

/* ---- the INI file, read as Python's RawConfigParser reads it for Flamingo ---------------------------------- */
enum { S_VARIABLES, S_VALUES, S_TESTING, S_SCORING, S_OUTPUT, S_RESTRICTIONS, S_COUNT };
static const char *const sections[S_COUNT] = {"variables", "values", "testing", "scoring", "output", "restrictions"};

typedef struct {
  int section, line;
  char key[64];
  char *value; /* malloc'd; in [restrictions] the whole line, with no key */
} ini_entry;

static int word_in(const char *w, const char *const *list, int n) {
  for (int i = 0; i < n; i++)
    if (!strcmp(w, list[i])) return i;
  return -1;
}

/* one setting; the values come after the tree, the rest after the values (tune_conf_parse's passes) */
static int apply(tune_conf *c, const ini_entry *en, char *m, size_t len) {
  static const char *const aggs[] = {"min", "max", "med", "avg"};
  static const char *const opts[] = {"min_bench", "max_bench", "min_time", "max_time", "min", "max"};
  const char *k = en->key, *v = en->value;
  char *end, *cmd = NULL;
  if (en->section == S_VARIABLES && !strcmp(k, "variables"))
    return c->nnodes ? fail(m, len, "variables twice") : parse_tree(c, v, m, len);
  if (en->section == S_VALUES) {
    int var = find_var(c, k, strlen(k));
    if (var >= 0) return tune_add_values(c, var, v, m, len);
    snprintf(c->warning, sizeof(c->warning), "[values] %s is not in the variable tree: ignored", k);
    return 0;
  }
  if (en->section == S_RESTRICTIONS) {
    if (c->nrules == TUNE_MAX_RESTRICT || strlen(v) >= sizeof(c->rule[0])) return fail(m, len, "too many or too long");
    return tune_expr_eval(c, strcpy(c->rule[c->nrules++], v), NULL, NULL, m, len);
  }
  if (en->section == S_TESTING) {
    if (!strcmp(k, "compile") || !strcmp(k, "test") || !strcmp(k, "clean")) {
      cmd = k[1] == 'o' ? c->compile : k[0] == 't' ? c->test : c->clean;
      if (strlen(v) >= TUNE_CMD_LEN) return fail(m, len, "%s is too long", k);
      for (const char *p = strchr(strcpy(cmd, v), '%'); p; p = strchr(p + 1, '%')) { /* %NAME% naming nothing */
        const char *e = p + 1;
        while (isalnum((unsigned char)*e) || *e == '_') e++;
        if (strncmp(p, "%%ID%%", 6) == 0)
          p += 5;
        else if (e > p + 1 && *e == '%' && find_var(c, p + 1, (size_t)(e - p - 1)) < 0)
          snprintf(c->warning, sizeof(c->warning), "%s: %.*s names no variable (left as it is)", k, (int)(e - p + 1),
                   p);
      }
      return 0;
    }
    if (!strcmp(k, "verdict") && (!strcmp(v, "result") || !strcmp(v, "exit"))) return c->verdict_exit = v[0] == 'e', 0;
    if (!strcmp(k, "verdict")) return fail(m, len, "verdict = result (a RESULT: PASS line) or exit (exit code 0)");
    if (!strcmp(k, "timeout")) {
      c->timeout_s = strtod(v, &end);
      return *end || end == v || c->timeout_s < 0 ? fail(m, len, "timeout = seconds, not %s", v) : 0;
    }
  }
  if (en->section == S_SCORING && !strcmp(k, "repeat")) {
    long n = strtol(v, &end, 10);
    char agg[16] = "min";
    if (*end == ',') sscanf(end + 1, " %15s", agg);
    c->aggregate = word_in(agg, aggs, 4);
    if (end == v || (*end && *end != ',') || n < 1 || n > TUNE_MAX_REPEAT || c->aggregate < 0)
      return fail(m, len, "repeat = N, min|max|med|avg (N from 1 to %d), not %s", TUNE_MAX_REPEAT, v);
    return c->repeat = (int)n, 0;
  }
  if (en->section == S_SCORING && !strcmp(k, "optimal")) {
    int o = word_in(v, opts, 6);
    if (o < 0) return fail(m, len, "optimal = %s: min_bench|max_bench|min_time|max_time|min|max", v);
    c->maximise = o % 2, c->score_kind = o < 2 ? SCORE_BENCH : o < 4 ? SCORE_TIME : SCORE_LAST;
    return 0;
  }
  if (en->section == S_SCORING && !strcmp(k, "score")) {
    int n = 0;
    c->score_given = 1;
    if (sscanf(v, "bench %31s %n", c->bench_key, &n) < 1 || (v[n] && sscanf(v + n, "prog=%63s", c->bench_prog) != 1))
      return fail(m, len, "score = bench KEY [prog=NAME], as in score = bench ms, not %s", v);
    return 0;
  }
  if (en->section == S_OUTPUT && !strcmp(k, "log")) return snprintf(c->log, sizeof(c->log), "%s", v), 0;
  if (en->section == S_OUTPUT && (!strcmp(k, "script") || !strcmp(k, "importance")))
    return snprintf(c->warning, sizeof(c->warning), "[output] %s is not supported here: ignored", k), 0;
  return fail(m, len, "[%s] has no setting '%s'", sections[en->section], k);
}

static int read_entries(char *text, const char *file, ini_entry **out, int *count, char *msg, size_t len) {
  int n = 0, cap = 0, section = -1, seen[S_COUNT] = {0}, line = 0;
  ini_entry *en = NULL;
  for (char *t, *next, *s = text; s; s = next) {
    next = strchr(s, '\n');
    if (next) *next++ = '\0';
    line++;
    int indented = isspace((unsigned char)s[0]);
    if (*(t = trim(s)) == '\0' || *t == '#' || *t == ';') continue;
    if (indented && n > 0) { /* a continuation line, joined with a space */
      size_t a = strlen(en[n - 1].value);
      en[n - 1].value = realloc(en[n - 1].value, a + strlen(t) + 2);
      sprintf(en[n - 1].value + a, " %s", t);
      continue;
    }
    *out = en, *count = n;
    if (*t == '[') {
      char *close = strchr(t, ']');
      if (close) *close = '\0';
      for (section = S_COUNT - 1; section >= 0 && strcasecmp(t + 1, sections[section]); section--) continue;
      if (section < 0 || !close || close[1])
        return fail(msg, len,
                    "%s:%d: unknown section %s] (the sections: [variables] [values] [testing] [scoring] "
                    "[output] [restrictions])",
                    file, line, t);
      seen[section] = 1;
      continue;
    }
    char *sep = section == S_RESTRICTIONS ? NULL : strpbrk(t, "=:");
    if (section < 0) return fail(msg, len, "%s:%d: a setting before any [section]", file, line);
    if (section != S_RESTRICTIONS && !sep) return fail(msg, len, "%s:%d: expected name = value", file, line);
    if (n == cap) *out = en = realloc(en, sizeof(*en) * (size_t)(cap = cap ? 2 * cap : 32));
    en[n] = (ini_entry){section, line, "", NULL};
    if (sep) {
      *sep = '\0';
      for (char *k = t; *k; k++) *k = (char)tolower((unsigned char)*k); /* RawConfigParser's lower-case keys */
      snprintf(en[n].key, sizeof(en[n].key), "%s", trim(t));
      t = sep + 1;
    }
    en[n++].value = strdup(trim(t));
  }
  *out = en, *count = n;
  for (int s = 0; s < S_RESTRICTIONS; s++)
    if (!seen[s]) return fail(msg, len, "%s: no [%s] section (the course's five are all needed)", file, sections[s]);
  return 0;
}

int tune_conf_parse(const char *text, const char *file, tune_conf *c, char *msg, size_t len) {
  memset(c, 0, sizeof(*c));
  c->repeat = 1, c->aggregate = AGG_MIN, c->score_kind = SCORE_BENCH;
  strcpy(c->bench_key, "ms");
  char *copy = strdup(text), m[TUNE_MSG_LEN];
  ini_entry *en = NULL;
  int n = 0, rc = read_entries(copy, file, &en, &n, msg, len);
  for (int pass = 0; pass < 3 && rc == 0; pass++) /* the tree first, then the values, then the rest */
    for (int i = 0; i < n && rc == 0; i++)
      if ((pass == 0) == (en[i].section == S_VARIABLES) && (pass == 1) == (en[i].section == S_VALUES) &&
          apply(c, &en[i], m, sizeof(m)))
        rc = fail(msg, len, "%s:%d: %s", file, en[i].line, m);
  if (rc == 0 && c->nnodes == 0) rc = fail(msg, len, "%s: [variables] has no variables = {...}", file);
  for (int v = 0; v < c->nvars && rc == 0; v++)
    if (c->nvals[v] == 0) rc = fail(msg, len, "%s: %s has no values in [values]", file, c->name[v]);
  if (rc == 0 && !c->test[0]) rc = fail(msg, len, "%s: [testing] has no test = command", file);
  if (rc == 0 && !c->log[0]) rc = fail(msg, len, "%s: [output] has no log = file.csv", file);
  if (rc == 0 && (tune_space_size(c) < 0 || tune_tree_count(c, 0) < 0))
    rc = fail(msg, len, "%s: more than 2^62 configurations", file);
  if (rc == 0 && c->score_given && c->score_kind == SCORE_TIME)
    rc = fail(msg, len, "%s: score = bench and optimal = *_time disagree: say optimal = min or max", file);
  if (c->score_given) c->score_kind = SCORE_BENCH;
  if (rc == 0 && c->score_kind == SCORE_TIME)
    snprintf(
        c->warning, sizeof(c->warning),
        "optimal = %s_time scores the wall time of the whole test command: "
        "process start, CUDA set-up and copies are in every score (optimal = min_bench reads the program's own ms)",
        c->maximise ? "max" : "min");
  for (int i = 0; i < n; i++) free(en[i].value);
  free(en);
  free(copy);
  return rc;
}

int tune_conf_load(const char *path, tune_conf *c, char *msg, size_t len) {
  FILE *f = fopen(path, "rb");
  size_t cap = 4096, n = 0, got;
  char *text = malloc(cap);
  while (f && (got = fread(text + n, 1, cap - n - 1, f)) > 0)
    if ((n += got) == cap - 1) text = realloc(text, cap *= 2);
  text[n] = '\0';
  int rc =
      f ? tune_conf_parse(text, path, c, msg, len) : (memset(c, 0, sizeof(*c)), fail(msg, len, "cannot read %s", path));
  if (f) fclose(f);
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
