/*
 * tune_ini.c -- the config file's syntax, as Python's RawConfigParser reads it for the course's tool: [sections],
 * `key = value` (or key: value) with the key in lower case, a line starting with # or ; is a comment and so is
 * the rest of a value from a ';' that follows a space, and an indented line continues the value above it in its
 * own section (an indented first line of a section is a line of its own). A section or a key given twice is a
 * warning: the sections are read as one, and the key's last value counts. [restrictions] holds lines, not keys.
 * tune_conf.c gives the settings their meaning.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tune.h"

const char *const tune_sections[S_COUNT] = {"variables", "values", "testing", "scoring", "output", "restrictions", "table"};

int tune_fail(char *msg, size_t len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, len, fmt, ap);
  va_end(ap);
  return -1;
}

char *tune_trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1])) {
    e--;
    *e = '\0';
  }
  return s;
}

/* the text of a line without its comment: a line starting with # or ;, or from a ';' that follows a space */
static char *uncomment(char *s) {
  char *t = tune_trim(s);
  if (*t == '#' || *t == ';') return t + strlen(t);
  for (char *p = strchr(t, ';'); p; p = strchr(p + 1, ';'))
    if (p > t && isspace((unsigned char)p[-1])) {
      *p = '\0';
      break;
    }
  return tune_trim(t);
}

/* a setting of the section being read; a key given twice keeps its place, with the last value */
static int add_entry(tune_ini *f, tune_conf *c, int line, const char *key, const char *value, char *msg, size_t len) {
  char *copy = strdup(value);
  if (!copy) return tune_fail(msg, len, "out of memory");
  for (int i = 0; i < f->n && key[0]; i++)
    if (f->en[i].section == f->section && strcmp(f->en[i].key, key) == 0) {
      tune_warn(c, "[%s] %s is set twice (lines %d and %d): the last one counts", tune_sections[f->section], key,
                f->en[i].line, line);
      free(f->en[i].value);
      f->en[i].value = copy;
      f->en[i].line = line;
      f->last = i;
      return 0;
    }
  if (f->n == f->cap) {
    int cap = f->cap ? 2 * f->cap : 32;
    tune_ini_entry *grown = realloc(f->en, sizeof(tune_ini_entry) * (size_t)cap);
    if (!grown) {
      free(copy);
      return tune_fail(msg, len, "out of memory");
    }
    f->en = grown;
    f->cap = cap;
  }
  tune_ini_entry *e = &f->en[f->n];
  e->section = f->section;
  e->line = line;
  snprintf(e->key, sizeof(e->key), "%s", key);
  e->value = copy;
  f->last = f->n;
  f->n++;
  return 0;
}

static int section_header(tune_ini *f, tune_conf *c, char *t, const char *file, int line, char *msg, size_t len) {
  char *close = strchr(t, ']');
  if (close) *close = '\0';
  int s = S_COUNT - 1;
  while (s >= 0 && strcasecmp(t + 1, tune_sections[s]) != 0) s--;
  if (s < 0 || !close || close[1])
    return tune_fail(msg, len,
                     "%s:%d: unknown section %s] (the sections: [variables] [values] [testing] [scoring] [output] "
                     "[restrictions])",
                     file, line, t);
  if (f->seen[s])
    tune_warn(c, "[%s] is given twice (lines %d and %d): read as one section", tune_sections[s], f->seen[s], line);
  else
    f->seen[s] = line;
  f->section = s;
  f->last = -1;
  return 0;
}

/* one line: blank or a comment, a continuation, a [section] or a setting */
static int read_line(tune_ini *f, tune_conf *c, char *raw, const char *file, int line, char *msg, size_t len) {
  int indented = isspace((unsigned char)raw[0]);
  char *t = uncomment(raw);
  if (*t == '\0') return 0;
  if (indented && f->last >= 0) { /* a continuation line, joined with a space */
    tune_ini_entry *e = &f->en[f->last];
    size_t a = strlen(e->value), b = strlen(t);
    char *grown = realloc(e->value, a + b + 2);
    if (!grown) return tune_fail(msg, len, "out of memory");
    e->value = grown;
    grown[a] = ' ';
    memcpy(grown + a + 1, t, b + 1);
    return 0;
  }
  if (*t == '[') return section_header(f, c, t, file, line, msg, len);
  if (f->section < 0) return tune_fail(msg, len, "%s:%d: a setting before any [section]", file, line);
  if (f->section == S_RESTRICTIONS) return add_entry(f, c, line, "", t, msg, len);
  char *sep = strpbrk(t, "=:");
  if (!sep) return tune_fail(msg, len, "%s:%d: expected name = value", file, line);
  *sep = '\0';
  for (char *k = t; *k; k++) *k = (char)tolower((unsigned char)*k); /* RawConfigParser's lower-case keys */
  return add_entry(f, c, line, tune_trim(t), tune_trim(sep + 1), msg, len);
}

/* text is cut into lines in place; the entries' values are copies (tune_ini_free) */
int tune_ini_read(char *text, const char *file, tune_conf *c, tune_ini *f, char *msg, size_t len) {
  int line = 0;
  memset(f, 0, sizeof(*f));
  f->section = -1;
  f->last = -1;
  for (char *s = text; s;) {
    char *next = strchr(s, '\n');
    if (next) {
      *next = '\0';
      next++;
    }
    line++;
    if (read_line(f, c, s, file, line, msg, len)) return -1;
    s = next;
  }
  for (int s = 0; s < S_RESTRICTIONS; s++)
    if (!f->seen[s])
      return tune_fail(msg, len, "%s: no [%s] section (the course's five are all needed)", file, tune_sections[s]);
  return 0;
}

void tune_ini_free(tune_ini *f) {
  for (int i = 0; i < f->n; i++) free(f->en[i].value);
  free(f->en);
  f->en = NULL;
  f->n = 0;
}
