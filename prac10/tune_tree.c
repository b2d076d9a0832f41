/*
 * tune_tree.c -- the variables. `variables = {A, B, {C}, {D, {E}}}` is a tree: each brace group's own variables
 * are tried in every combination, and its sub-lists are tuned one after another, not together (the course's
 * independence, which makes {{A}, {B}} cost |A| + |B| - 1 tests instead of |A| x |B|). Also the full product of
 * the values, which random search, hill climbing and the memo use: a configuration is one value index per
 * variable, numbered with the first variable fastest, as the course numbers its tests.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tune.h"

static int fail(char *msg, size_t len, const char *what) {
  snprintf(msg, len, "%s", what);
  return -1;
}

static int is_name(const char *s) {
  if (!(isalpha((unsigned char)*s) || *s == '_')) return 0;
  for (s++; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_')) return 0;
  return 1;
}

/* names match without regard to case, as RawConfigParser lower-cases the keys of [values] */
int tune_find_var(const tune_conf *c, const char *name, size_t n) {
  for (int v = 0; v < c->nvars; v++)
    if (strlen(c->name[v]) == n && strncasecmp(c->name[v], name, n) == 0) return v;
  return -1;
}

int tune_find_value(const tune_conf *c, int v, const char *text, size_t n) {
  for (int k = 0; k < c->nvals[v]; k++)
    if (strlen(c->val[v][k]) == n && strncmp(c->val[v][k], text, n) == 0) return k;
  return -1;
}

int tune_add_var(tune_conf *c, const char *name, char *msg, size_t len) {
  if (!is_name(name) || strlen(name) >= sizeof(c->name[0])) {
    snprintf(msg, len, "'%s' is not a variable name (letters, digits and _)", name);
    return -1;
  }
  if (tune_find_var(c, name, strlen(name)) >= 0) {
    snprintf(msg, len, "%s is in the variable tree twice", name);
    return -1;
  }
  if (c->nvars == TUNE_MAX_VARS) {
    snprintf(msg, len, "more than %d variables", TUNE_MAX_VARS);
    return -1;
  }
  strcpy(c->name[c->nvars], name);
  c->nvars++;
  return c->nvars - 1;
}

static void skip_space(const char **p) {
  while (isspace((unsigned char)**p)) (*p)++;
}

/* one brace group at *p (its '{'), read up to and past its '}'. Returns its node number, or -1 with msg. */
static int parse_group(tune_conf *c, const char **p, char *msg, size_t len) {
  if (c->nnodes == TUNE_MAX_NODES) {
    snprintf(msg, len, "more than %d brace groups", TUNE_MAX_NODES);
    return -1;
  }
  int me = c->nnodes;
  c->nnodes++;
  tune_node *node = &c->node[me];
  (*p)++; /* the '{' */
  for (;;) {
    skip_space(p);
    if (**p == '{') {
      int child = parse_group(c, p, msg, len);
      if (child < 0) return -1;
      node->children[node->nchildren] = child;
      node->nchildren++;
    } else {
      const char *start = *p;
      while (isalnum((unsigned char)**p) || **p == '_') (*p)++;
      if (*p == start) {
        if (**p == '\0') return fail(msg, len, "unbalanced braces: a '{' is never closed");
        if (**p == '}' && node->nvars + node->nchildren == 0) return fail(msg, len, "empty braces {}");
        snprintf(msg, len, "unexpected '%c': the tree is names and {sub-lists}, separated by commas", **p);
        return -1;
      }
      char name[64];
      snprintf(name, sizeof(name), "%.*s", (int)(*p - start), start);
      int v = tune_add_var(c, name, msg, len);
      if (v < 0) return -1;
      node->vars[node->nvars] = v;
      node->nvars++;
    }
    skip_space(p);
    if (**p == '}') {
      (*p)++;
      return me;
    }
    if (**p == '\0') return fail(msg, len, "unbalanced braces: a '{' is never closed");
    if (**p != ',') {
      snprintf(msg, len, "unexpected '%c' after a name: expected ',' or '}'", **p);
      return -1;
    }
    (*p)++;
  }
}

int tune_parse_tree(tune_conf *c, const char *text, char *msg, size_t len) {
  const char *p = text;
  skip_space(&p);
  if (*p != '{') return fail(msg, len, "variables = must be a list in braces, {BLOCK_X, BLOCK_Y}");
  if (parse_group(c, &p, msg, len) < 0) return -1;
  skip_space(&p);
  if (*p == '}') return fail(msg, len, "unbalanced braces: a '}' closes nothing");
  if (*p) {
    snprintf(msg, len, "text after the tree's closing brace: '%.60s'", p);
    return -1;
  }
  return 0;
}

/* The course's count: a leaf tries every combination of its values; a node tries every combination of its own
 * variables, and for each tunes its sub-lists one after another, each new sub-list's first test being the
 * previous one's best (already run), hence the "- (children - 1)". */
long long tune_tree_count(const tune_conf *c, int n) {
  const tune_node *node = &c->node[n];
  const long long limit = 1LL << 62;
  long long here = 1, sum = 0;
  for (int i = 0; i < node->nvars; i++) {
    if (here > limit / c->nvals[node->vars[i]]) return -1;
    here *= c->nvals[node->vars[i]];
  }
  if (node->nchildren == 0) return here;
  for (int i = 0; i < node->nchildren; i++) {
    long long t = tune_tree_count(c, node->children[i]);
    if (t < 0 || sum > limit - t) return -1;
    sum += t;
  }
  sum -= node->nchildren - 1;
  if (here > limit / sum) return -1;
  return here * sum;
}

long long tune_space_size(const tune_conf *c) {
  long long n = 1;
  for (int v = 0; v < c->nvars; v++) {
    if (n > (1LL << 62) / c->nvals[v]) return -1;
    n *= c->nvals[v];
  }
  return n;
}

void tune_tree_string(const tune_conf *c, int n, char *buf, size_t len) {
  const tune_node *node = &c->node[n];
  size_t at = (size_t)snprintf(buf, len, "{");
  for (int i = 0; i < node->nvars + node->nchildren && at < len; i++) {
    if (i > 0) at += (size_t)snprintf(buf + at, len - at, ", ");
    if (at >= len) break;
    if (i < node->nvars) {
      at += (size_t)snprintf(buf + at, len - at, "%s", c->name[node->vars[i]]);
    } else {
      tune_tree_string(c, node->children[i - node->nvars], buf + at, len - at);
      at += strlen(buf + at);
    }
  }
  if (at < len) snprintf(buf + at, len - at, "}");
}

long long tune_linear(const tune_conf *c, const int *idx) {
  long long lin = 0;
  for (int v = c->nvars - 1; v >= 0; v--) lin = lin * c->nvals[v] + idx[v];
  return lin;
}

void tune_unlinear(const tune_conf *c, long long lin, int *idx) {
  for (int v = 0; v < c->nvars; v++) {
    idx[v] = (int)(lin % c->nvals[v]);
    lin /= c->nvals[v];
  }
}

void tune_describe(const tune_conf *c, const int *idx, char *buf, size_t len) {
  size_t at = 0;
  buf[0] = '\0';
  for (int v = 0; v < c->nvars && at < len; v++)
    at += (size_t)snprintf(buf + at, len - at, "%s%s = %s", v > 0 ? ", " : "", c->name[v], c->val[v][idx[v]]);
}
