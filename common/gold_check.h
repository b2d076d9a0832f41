/*
 * gold_check.h -- compare GPU results with the CPU "gold" results, and print the one verdict line.
 *
 * Plain C (header only): tests/ compiles it with gcc and checks it without a GPU.
 *
 * An element passes when |gpu - gold| <= atol + rtol * |gold| (the rule numpy.allclose uses), so
 * atol = rtol = 0 asks for bit-for-bit equality (up to the sign of zero). A NaN or an infinity on
 * either side always fails, whatever the tolerance: a GPU that writes NaN must never pass.
 *
 *   gold_stats st;
 *   compare_float(h_gpu, h_gold, n, 0.0, 1e-6, &st);
 *   gold_report("z", &st);                      // max errors, count over tolerance, first bad index
 *   return gold_verdict(&st, "z");              // RESULT: PASS -> 0, RESULT: FAIL (...) -> 1
 */
#ifndef GOLD_CHECK_H
#define GOLD_CHECK_H

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  size_t n;            /* elements compared */
  size_t nbad;         /* elements outside tolerance, non-finite ones included */
  size_t nnonfinite;   /* elements where either side is NaN or +-Inf */
  double atol, rtol;   /* the tolerance used */
  double max_abs_err;  /* over finite pairs */
  double max_rel_err;  /* |gpu-gold| / |gold| over finite pairs with gold != 0 */
  double rms_err;      /* sqrt(mean((gpu-gold)^2)) over finite pairs: the course's "rms error" */
  long long first_bad; /* index of the first element outside tolerance, -1 if none */
  double first_bad_gpu, first_bad_gold;
} gold_stats;

/* The shared per-element step. Returns 1 when the pair is outside tolerance. */
static inline int gold_accumulate(gold_stats *s, size_t i, double g, double r, double *sumsq) {
  int bad;
  if (!isfinite(g) || !isfinite(r)) {
    s->nnonfinite++;
    bad = 1;
  } else {
    double err = fabs(g - r);
    *sumsq += err * err;
    if (err > s->max_abs_err) s->max_abs_err = err;
    if (r != 0.0 && err / fabs(r) > s->max_rel_err) s->max_rel_err = err / fabs(r);
    bad = !(err <= s->atol + s->rtol * fabs(r));
  }
  if (bad) {
    if (s->nbad == 0) {
      s->first_bad = (long long)i;
      s->first_bad_gpu = g;
      s->first_bad_gold = r;
    }
    s->nbad++;
  }
  return bad;
}

static inline void gold_begin(gold_stats *s, size_t n, double atol, double rtol) {
  s->n = n;
  s->nbad = s->nnonfinite = 0;
  s->atol = atol;
  s->rtol = rtol;
  s->max_abs_err = s->max_rel_err = s->rms_err = 0.0;
  s->first_bad = -1;
  s->first_bad_gpu = s->first_bad_gold = 0.0;
}

static inline void gold_end(gold_stats *s, double sumsq) {
  size_t nfinite = s->n - s->nnonfinite;
  s->rms_err = nfinite ? sqrt(sumsq / (double)nfinite) : 0.0;
}

/* Each compare_* returns the number of elements outside tolerance (0 means all agree). */
static inline size_t compare_float(const float *gpu, const float *gold, size_t n, double atol, double rtol,
                                   gold_stats *s) {
  double sumsq = 0.0;
  gold_begin(s, n, atol, rtol);
  for (size_t i = 0; i < n; i++) gold_accumulate(s, i, (double)gpu[i], (double)gold[i], &sumsq);
  gold_end(s, sumsq);
  return s->nbad;
}

/* GPU floats against a double-precision gold: the usual case for accumulated floating-point results. */
static inline size_t compare_float_double(const float *gpu, const double *gold, size_t n, double atol, double rtol,
                                          gold_stats *s) {
  double sumsq = 0.0;
  gold_begin(s, n, atol, rtol);
  for (size_t i = 0; i < n; i++) gold_accumulate(s, i, (double)gpu[i], gold[i], &sumsq);
  gold_end(s, sumsq);
  return s->nbad;
}

static inline size_t compare_double(const double *gpu, const double *gold, size_t n, double atol, double rtol,
                                    gold_stats *s) {
  double sumsq = 0.0;
  gold_begin(s, n, atol, rtol);
  for (size_t i = 0; i < n; i++) gold_accumulate(s, i, gpu[i], gold[i], &sumsq);
  gold_end(s, sumsq);
  return s->nbad;
}

/* Integers compare exactly. */
static inline size_t compare_int(const int *gpu, const int *gold, size_t n, gold_stats *s) {
  double sumsq = 0.0;
  gold_begin(s, n, 0.0, 0.0);
  for (size_t i = 0; i < n; i++) gold_accumulate(s, i, (double)gpu[i], (double)gold[i], &sumsq);
  gold_end(s, sumsq);
  return s->nbad;
}

/* Bytes (images) compare exactly. */
static inline size_t compare_uchar(const unsigned char *gpu, const unsigned char *gold, size_t n, gold_stats *s) {
  double sumsq = 0.0;
  gold_begin(s, n, 0.0, 0.0);
  for (size_t i = 0; i < n; i++) gold_accumulate(s, i, (double)gpu[i], (double)gold[i], &sumsq);
  gold_end(s, sumsq);
  return s->nbad;
}

/* One scalar (a Monte Carlo average, a sum), in the same terms as the arrays. */
static inline size_t compare_scalar(double gpu, double gold, double atol, double rtol, gold_stats *s) {
  double sumsq = 0.0;
  gold_begin(s, 1, atol, rtol);
  gold_accumulate(s, 0, gpu, gold, &sumsq);
  gold_end(s, sumsq);
  return s->nbad;
}

/* A summary line, and the first disagreement if there is one. */
static inline void gold_report(const char *what, const gold_stats *s) {
  printf("%s: %zu values, max abs err = %.3e, max rel err = %.3e, %zu outside tolerance (atol=%.1e, rtol=%.1e)\n", what,
         s->n, s->max_abs_err, s->max_rel_err, s->nbad, s->atol, s->rtol);
  if (s->nnonfinite) printf("%s: %zu values are NaN or Inf\n", what, s->nnonfinite);
  if (s->first_bad >= 0)
    printf("%s: first bad index %lld: gpu = %.9g, gold = %.9g\n", what, s->first_bad, s->first_bad_gpu,
           s->first_bad_gold);
}

/* The verdict lines. Each returns the exit code that goes with it: PASS 0, FAIL 1, SKIP 2. */
static inline int result_pass(void) {
  printf("RESULT: PASS\n");
  fflush(stdout);
  return 0;
}

static inline int result_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("RESULT: FAIL (");
  vprintf(fmt, ap);
  printf(")\n");
  va_end(ap);
  fflush(stdout);
  return 1;
}

/* REQUIRE_GPU=1 in the environment (make check REQUIRE_GPU=1) turns every SKIP into a FAIL, for anyone
 * who wants `make check` to prove that a GPU really ran every program. */
static inline int require_gpu_set(void) {
  const char *v = getenv("REQUIRE_GPU");
  return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

static inline int result_skip(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int fail = require_gpu_set();
  printf(fail ? "RESULT: FAIL (REQUIRE_GPU is set, and this run would have skipped: " : "RESULT: SKIP (");
  vprintf(fmt, ap);
  printf(")\n");
  va_end(ap);
  fflush(stdout);
  return fail ? 1 : 2;
}

/*
 * A program's closing verdict on its own checks: PASS when ok, else FAIL with the reason. Built as a starting
 * file (-DEXERCISE, `make exercises`), a wrong result is the exercise not yet done, and the line says so:
 *   RESULT: FAIL (exercise not done: <reason>; <EXERCISE_TODO>)
 * where the starting file names its TODOs (#define EXERCISE_TODO "fill in the TODO(step 2) in
 * exercises/k2_shared.cuh"). A bad argument or a CUDA error still ends in result_fail: they are no
 * unfinished exercise.
 */
static inline int result_check(int ok, const char *fmt, ...) {
  if (ok) return result_pass();
  va_list ap;
  va_start(ap, fmt);
#ifdef EXERCISE
  printf("RESULT: FAIL (exercise not done: ");
#else
  printf("RESULT: FAIL (");
#endif
  vprintf(fmt, ap);
#if defined(EXERCISE) && defined(EXERCISE_TODO)
  printf("; %s", EXERCISE_TODO);
#endif
  printf(")\n");
  va_end(ap);
  fflush(stdout);
  return 1;
}

/* PASS, or FAIL naming what disagreed and where first. */
static inline int gold_verdict(const gold_stats *s, const char *what) {
  if (s->nbad == 0 && s->n > 0) return result_pass();
  if (s->n == 0) return result_check(0, "%s: nothing was compared", what);
  return result_check(0, "%s: %zu of %zu values outside tolerance, first at index %lld", what, s->nbad, s->n,
                      s->first_bad);
}

#endif /* GOLD_CHECK_H */
