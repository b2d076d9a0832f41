/*
 * tune_expr.c -- [restrictions]: one expression per line, such as BLOCK_X * BLOCK_Y <= 1024. A configuration runs
 * only where every one is true (not 0). 64-bit integers and the variables' values; + - * / %, comparisons,
 * && || ! and parentheses, with C's precedence; && and || evaluate their right side only when it decides, so
 * that BY != 0 && 64 / BY > 2 holds at BY = 0.
 * An expression is read and evaluated in one pass (recursive descent, one level per precedence), and only the
 * operator written is computed. A division by zero, an overflow or a number past 64 bits is an error, not a
 * restriction: the config is refused, naming the restriction and the configuration (tune_check_rules runs every
 * configuration of the product when the config is read, so a search never meets one).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

typedef struct {
  const tune_conf *c;
  const char *text, *p;
  const long long *vals; /* a value per variable; NULL: check the text only */
  int failed;
  char *msg;
  size_t len;
} reader;

/* the first error is the one reported; returns -1 */
__attribute__((format(printf, 2, 3))) static int bad(reader *x, const char *fmt, ...) {
  if (!x->failed) {
    char why[TUNE_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    snprintf(x->msg, x->len, "restriction '%.100s': %s", x->text, why);
    x->failed = 1;
  }
  return -1;
}

static void skip_space(reader *x) {
  while (isspace((unsigned char)*x->p)) x->p++;
}

/* longest first within a level: "<=" before "<" */
enum { OP_OR, OP_AND, OP_EQ, OP_NE, OP_LE, OP_GE, OP_LT, OP_GT, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, NOPS };
static const char *const op_text[NOPS] = {"||", "&&", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%"};
static const int op_level[NOPS] = {0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 5, 5, 5};
#define UNARY_LEVEL 6

static int operator_at(reader *x, int level) {
  skip_space(x);
  for (int op = 0; op < NOPS; op++)
    if (op_level[op] == level && strncmp(x->p, op_text[op], strlen(op_text[op])) == 0) return op;
  return -1;
}

/* a op b, the one operator written; overflow and division by zero are errors */
static int compute(reader *x, int op, long long a, long long b, long long *r) {
  int overflow = 0;
  switch (op) {
  case OP_OR:
    *r = a || b;
    break;
  case OP_AND:
    *r = a && b;
    break;
  case OP_EQ:
    *r = a == b;
    break;
  case OP_NE:
    *r = a != b;
    break;
  case OP_LE:
    *r = a <= b;
    break;
  case OP_GE:
    *r = a >= b;
    break;
  case OP_LT:
    *r = a < b;
    break;
  case OP_GT:
    *r = a > b;
    break;
  case OP_ADD:
    overflow = __builtin_add_overflow(a, b, r);
    break;
  case OP_SUB:
    overflow = __builtin_sub_overflow(a, b, r);
    break;
  case OP_MUL:
    overflow = __builtin_mul_overflow(a, b, r);
    break;
  default: /* / and % */
    if (b == 0) return bad(x, "a division by zero (%lld %s 0)", a, op_text[op]);
    overflow = a == LLONG_MIN && b == -1;
    if (!overflow) *r = op == OP_DIV ? a / b : a % b;
  }
  if (overflow) return bad(x, "%lld %s %lld overflows 64 bits", a, op_text[op], b);
  return 0;
}

static int level_value(reader *x, int level, int eval, long long *out);

/* a number, a name, ! - ( ) */
static int unary_value(reader *x, int eval, long long *out) {
  long long v = 0;
  *out = 0;
  skip_space(x);
  const char *start = x->p;
  if (*start == '!' && start[1] != '=') {
    x->p++;
    if (unary_value(x, eval, &v)) return -1;
    *out = !v;
    return 0;
  }
  if (*start == '-') {
    x->p++;
    if (unary_value(x, eval, &v)) return -1;
    if (eval && v == LLONG_MIN) return bad(x, "-(%lld) overflows 64 bits", v);
    *out = eval ? -v : 0;
    return 0;
  }
  if (*start == '(') {
    x->p++;
    if (level_value(x, 0, eval, out)) return -1;
    skip_space(x);
    if (*x->p != ')') return bad(x, "a '(' is never closed");
    x->p++;
    return 0;
  }
  if (isdigit((unsigned char)*start)) {
    char *end;
    errno = 0;
    v = strtoll(start, &end, 10);
    x->p = end;
    if (errno == ERANGE) return bad(x, "the number %.*s is past 64 bits", (int)(end - start), start);
    *out = v;
    return 0;
  }
  while (isalnum((unsigned char)*x->p) || *x->p == '_') x->p++;
  if (x->p == start) return bad(x, *start ? "an operator where a number or a name should be" : "it ends too soon");
  int var = tune_find_var(x->c, start, (size_t)(x->p - start));
  if (var < 0) { /* a limit of the GPU (tune_device.c), known once tune_conf has asked for them */
    int d = tune_device_index(start, (size_t)(x->p - start));
    if (d < 0)
      return bad(x, "%.*s is not a variable nor a limit of the GPU (%s)", (int)(x->p - start), start,
                 tune_device_list());
    if (eval && !x->c->device_known) return bad(x, "the GPU's limits are not known");
    if (eval) *out = x->c->device[d];
    return 0;
  }
  for (int k = 0; k < x->c->nvals[var]; k++)
    if (!x->c->isint[var][k])
      return bad(x, "%s has the value %.40s, not an integer", x->c->name[var], x->c->val[var][k]);
  if (eval) *out = x->vals[var];
  return 0;
}

/* the operators of this level and above, left to right; eval 0: read only (the side && or || does not need) */
static int level_value(reader *x, int level, int eval, long long *out) {
  if (level == UNARY_LEVEL) return unary_value(x, eval, out);
  long long a, b;
  if (level_value(x, level + 1, eval, &a)) return -1;
  for (int op = operator_at(x, level); op >= 0; op = operator_at(x, level)) {
    x->p += strlen(op_text[op]);
    int decided = (op == OP_OR && a) || (op == OP_AND && !a);
    if (level_value(x, level + 1, eval && !decided, &b)) return -1;
    if (decided) {
      a = op == OP_OR;
    } else if (eval) {
      if (compute(x, op, a, b, &a)) return -1;
    }
  }
  *out = a;
  return 0;
}

int tune_expr_eval(const tune_conf *c, const char *text, const long long *vals, long long *out, char *msg, size_t len) {
  char scratch[TUNE_MSG_LEN];
  reader x = {c, text, text, vals, 0, msg ? msg : scratch, msg ? len : sizeof(scratch)};
  long long v = 0;
  int rc = level_value(&x, 0, vals != NULL, &v);
  skip_space(&x);
  if (rc == 0 && *x.p) rc = bad(&x, "unexpected text '%.20s' after the expression", x.p);
  if (out) *out = v;
  return rc;
}

int tune_allowed(const tune_conf *c, const int *idx, int *broken) {
  long long vals[TUNE_MAX_VARS], r;
  for (int v = 0; v < c->nvars; v++) vals[v] = c->isint[v][idx[v]] ? c->ival[v][idx[v]] : 0;
  for (int i = 0; i < c->nrules; i++) {
    int rc = tune_expr_eval(c, c->rule[i], vals, &r, NULL, 0);
    if (rc < 0 || r == 0) {
      if (broken) *broken = i;
      return rc < 0 ? -1 : 0;
    }
  }
  return 1;
}

/* Every configuration of the product, before any runs: counts those left out, and refuses the config where a
 * restriction cannot be evaluated (it would otherwise leave a configuration out for no stated reason). */
int tune_check_rules(tune_conf *c, char *msg, size_t len) {
  long long space = tune_space_size(c), vals[TUNE_MAX_VARS], r;
  int idx[TUNE_MAX_VARS];
  char why[TUNE_MSG_LEN], where[512];
  c->nrestricted = 0;
  for (long long lin = 0; lin < space && c->nrules > 0; lin++) {
    tune_unlinear(c, lin, idx);
    for (int v = 0; v < c->nvars; v++) vals[v] = c->isint[v][idx[v]] ? c->ival[v][idx[v]] : 0;
    for (int i = 0; i < c->nrules; i++) {
      if (tune_expr_eval(c, c->rule[i], vals, &r, why, sizeof(why)) < 0) {
        tune_describe(c, idx, where, sizeof(where));
        snprintf(msg, len, "%s, at %.200s", why, where);
        return -1;
      }
      if (r == 0) {
        c->nrestricted++;
        break;
      }
    }
  }
  return 0;
}
