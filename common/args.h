/*
 * args.h -- command-line options of the form -name=value, checked before any GPU work.
 *
 * Plain C (header only), so that gcc-compiled tests/ can exercise it without a GPU.
 * A program lists its options in a table and calls args_parse_or_exit() first thing in main:
 *
 *   int nblocks = 2, nthreads = 8;
 *   arg_spec opts[] = {
 *     {"nblocks",  ARG_INT, &nblocks,  1, 1 << 20, "number of thread blocks"},
 *     {"nthreads", ARG_INT, &nthreads, 1, 1024,    "threads per block"},
 *   };
 *   args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
 *
 * Bad input (an unknown option, garbage, a value out of range) prints one line
 *   RESULT: FAIL (bad input: -nthreads=2000 is out of range: 1 to 1024)
 * and exits 1; -help prints the option table and exits 0. Every program also accepts -device=N,
 * which findCudaDevice() (helper_cuda.h) reads.
 *
 * A program that defines COURSE_STEPS before its first #include (so before this header is read) gets that
 * line printed right after -help's usage line: which practical, which workbook step(s) it serves and which
 * steps of the course's handout they are (docs/course-map.md), for a learner with the course handout open:
 *   #define COURSE_STEPS "practical 4, workbook step 7 (course step 7)"
 * The functions here are static inline, so each program prints its own; `make test` checks every program's
 * -help for it (common/run_checks.sh help).
 */
#ifndef ARGS_H
#define ARGS_H

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
  ARG_INT,    /* value points to int       */
  ARG_LONG,   /* value points to long long */
  ARG_DOUBLE, /* value points to double    */
  ARG_FLAG,   /* value points to int: "-name" sets 1, "-name=0" / "-name=1" set it explicitly */
  ARG_WORD    /* value points to const char *: the word after "=", which the program checks (args_fail) */
} arg_type;

typedef struct {
  const char *name; /* without the dash: "nblocks" matches -nblocks=... */
  arg_type type;
  void *value;     /* holds the default on entry */
  double min, max; /* inclusive range for ARG_INT, ARG_LONG and ARG_DOUBLE (ARG_WORD: unused) */
  const char *help;
} arg_spec;

#define ARG_COUNT(specs) ((int)(sizeof(specs) / sizeof((specs)[0])))
#define ARG_MSG_LEN 256

enum { ARGS_OK = 0, ARGS_BAD = 1, ARGS_HELP = 2 };

/* Whole-string integer parse: optional sign, decimal digits, nothing after. Returns 1 when it parses,
 * 0 when it is not a whole number, -1 when it is one but too large for 64 bits. */
static inline int args_parse_ll(const char *s, long long *out) {
  char *end;
  if (!(isdigit((unsigned char)s[0]) || ((s[0] == '-' || s[0] == '+') && isdigit((unsigned char)s[1])))) return 0;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (*end != '\0') return 0;
  if (errno == ERANGE) return -1;
  *out = v;
  return 1;
}

static inline int args_parse_double(const char *s, double *out) {
  char *end;
  if (*s == '\0' || isspace((unsigned char)s[0])) return 0;
  errno = 0;
  double v = strtod(s, &end);
  if (errno == ERANGE || *end != '\0' || !isfinite(v)) return 0;
  *out = v;
  return 1;
}

/* Parses one "value" for spec; fills msg and returns ARGS_BAD on error. */
static inline int args_set(const arg_spec *spec, const char *arg, const char *val, char *msg, size_t len) {
  long long iv = 0;
  double dv = 0.0;
  int parsed;
  switch (spec->type) {
  case ARG_FLAG:
    if (val == NULL) {
      *(int *)spec->value = 1;
      return ARGS_OK;
    }
    if (strcmp(val, "0") == 0 || strcmp(val, "1") == 0) {
      *(int *)spec->value = val[0] - '0';
      return ARGS_OK;
    }
    snprintf(msg, len, "%s: a flag takes no value, or =0 or =1", arg);
    return ARGS_BAD;
  case ARG_INT:
  case ARG_LONG:
    if (val == NULL) {
      snprintf(msg, len, "%s needs a value: -%s=INT", arg, spec->name);
      return ARGS_BAD;
    }
    parsed = args_parse_ll(val, &iv);
    if (parsed == 0) {
      snprintf(msg, len, "%s is not a whole number", arg);
      return ARGS_BAD;
    }
    if (parsed < 0) {
      snprintf(msg, len, "%s is too large: %.0f to %.0f", arg, spec->min, spec->max);
      return ARGS_BAD;
    }
    if ((double)iv < spec->min || (double)iv > spec->max) {
      snprintf(msg, len, "%s is out of range: %.0f to %.0f", arg, spec->min, spec->max);
      return ARGS_BAD;
    }
    if (spec->type == ARG_INT)
      *(int *)spec->value = (int)iv; /* the range check above keeps it inside int */
    else
      *(long long *)spec->value = iv;
    return ARGS_OK;
  case ARG_DOUBLE:
    if (val == NULL) {
      snprintf(msg, len, "%s needs a value: -%s=NUM", arg, spec->name);
      return ARGS_BAD;
    }
    if (!args_parse_double(val, &dv)) {
      snprintf(msg, len, "%s is not a number", arg);
      return ARGS_BAD;
    }
    if (dv < spec->min || dv > spec->max) {
      snprintf(msg, len, "%s is out of range: %g to %g", arg, spec->min, spec->max);
      return ARGS_BAD;
    }
    *(double *)spec->value = dv;
    return ARGS_OK;
  case ARG_WORD:
    if (val == NULL || val[0] == '\0') {
      snprintf(msg, len, "%s needs a value: -%s=WORD", arg, spec->name);
      return ARGS_BAD;
    }
    *(const char **)spec->value = val; /* points into argv, which lives as long as the program */
    return ARGS_OK;
  }
  snprintf(msg, len, "%s: internal error (unknown option type)", arg);
  return ARGS_BAD;
}

/* The -device=N option every program accepts; findCudaDevice() checks it against the GPUs present. */
#define ARGS_DEVICE_NAME "device"
#define ARGS_DEVICE_MAX 1023

/*
 * Parses argv[1..argc-1] against specs. Returns ARGS_OK, ARGS_HELP (-help or -h given) or ARGS_BAD
 * with a one-line reason in msg. Values are written only for options that parse; on ARGS_BAD some
 * options may already hold new values.
 */
static inline int args_parse(int argc, char **argv, const arg_spec *specs, int nspecs, char *msg, size_t len) {
  msg[0] = '\0';
  for (int a = 1; a < argc; a++) {
    const char *arg = argv[a];
    const char *p = arg;
    if (p[0] != '-' || p[1] == '\0') {
      snprintf(msg, len, "%s: options look like -name=value", arg);
      return ARGS_BAD;
    }
    p += (p[1] == '-') ? 2 : 1; /* accept -name and --name */
    if (strcmp(p, "help") == 0 || strcmp(p, "h") == 0) return ARGS_HELP;

    const char *eq = strchr(p, '=');
    size_t nlen = eq ? (size_t)(eq - p) : strlen(p);
    const char *val = eq ? eq + 1 : NULL;

    if (nlen == strlen(ARGS_DEVICE_NAME) && strncmp(p, ARGS_DEVICE_NAME, nlen) == 0) {
      int device = 0;
      arg_spec spec = {ARGS_DEVICE_NAME, ARG_INT, &device, 0, ARGS_DEVICE_MAX, "GPU to use"};
      if (args_set(&spec, arg, val, msg, len) != ARGS_OK) return ARGS_BAD;
      continue;
    }
    const arg_spec *match = NULL;
    for (int s = 0; s < nspecs; s++)
      if (strlen(specs[s].name) == nlen && strncmp(p, specs[s].name, nlen) == 0) match = &specs[s];
    if (match == NULL) {
      snprintf(msg, len, "%s: unknown option (-help lists the options)", arg);
      return ARGS_BAD;
    }
    if (args_set(match, arg, val, msg, len) != ARGS_OK) return ARGS_BAD;
  }
  return ARGS_OK;
}

/* The value of -device=N, or 0 when absent. Call after args_parse has accepted argv. */
static inline int args_device(int argc, char **argv) {
  int device = 0;
  for (int a = 1; a < argc; a++) {
    const char *p = argv[a];
    p += (p[0] == '-' && p[1] == '-') ? 2 : (p[0] == '-' ? 1 : 0);
    if (strncmp(p, "device=", 7) == 0) {
      long long v;
      if (args_parse_ll(p + 7, &v) == 1 && v >= 0 && v <= ARGS_DEVICE_MAX) device = (int)v;
    }
  }
  return device;
}

/* 1 when the command line gave -name (or -name=...): a program tells a size the user chose from its
 * default this way (too big for the GPU: bad input for the first, a SKIP for the second). */
static inline int args_given(int argc, char **argv, const char *name) {
  size_t nlen = strlen(name);
  for (int a = 1; a < argc; a++) {
    const char *p = argv[a];
    if (p[0] != '-') continue;
    p += (p[1] == '-') ? 2 : 1;
    if (strncmp(p, name, nlen) == 0 && (p[nlen] == '\0' || p[nlen] == '=')) return 1;
  }
  return 0;
}

/* -help's table. The placeholder names the value's kind (INT, NUM, WORD), never a letter that could be an
 * option's own name (-N=N read as "set N to N"); a word option whose default is NULL says so. */
static inline void args_usage(const char *prog, const arg_spec *specs, int nspecs) {
  printf("usage: %s [options]\n", prog);
#ifdef COURSE_STEPS
  printf("%s\n", COURSE_STEPS);
#endif
  for (int s = 0; s < nspecs; s++) {
    const arg_spec *o = &specs[s];
    switch (o->type) {
    case ARG_INT:
      printf("  -%s=INT\t%s (default %d, %.0f to %.0f)\n", o->name, o->help, *(int *)o->value, o->min, o->max);
      break;
    case ARG_LONG:
      printf("  -%s=INT\t%s (default %lld, %.0f to %.0f)\n", o->name, o->help, *(long long *)o->value, o->min, o->max);
      break;
    case ARG_DOUBLE:
      printf("  -%s=NUM\t%s (default %g, %g to %g)\n", o->name, o->help, *(double *)o->value, o->min, o->max);
      break;
    case ARG_FLAG:
      printf("  -%s\t%s\n", o->name, o->help);
      break;
    case ARG_WORD: {
      const char *word = *(const char *const *)o->value;
      if (word != NULL)
        printf("  -%s=WORD\t%s (default %s)\n", o->name, o->help, word);
      else
        printf("  -%s=WORD\t%s (no default)\n", o->name, o->help);
      break;
    }
    }
  }
  printf("  -device=INT\tGPU to use (default 0)\n");
}

/* What programs call: bad input -> one line and exit 1, -help -> usage and exit 0. */
static inline void args_parse_or_exit(int argc, char **argv, const arg_spec *specs, int nspecs) {
  char msg[ARG_MSG_LEN];
  int rc = args_parse(argc, argv, specs, nspecs, msg, sizeof(msg));
  if (rc == ARGS_HELP) {
    args_usage(argv[0], specs, nspecs);
    exit(0);
  }
  if (rc == ARGS_BAD) {
    printf("RESULT: FAIL (bad input: %s)\n", msg);
    exit(1);
  }
}

/* For checks that need more than one option (for example nx*ny*nz too large): one line, exit 1.
 *   args_fail("a %dx%d block has %d threads, more than 1024", bx, by, bx * by);   (printf's format) */
static inline void args_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("RESULT: FAIL (bad input: ");
  vprintf(fmt, ap);
  printf(")\n");
  va_end(ap);
  exit(1);
}

#endif /* ARGS_H */
