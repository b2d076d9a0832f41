/*
 * pipeline.cuh -- practical 11, step 4: the arithmetic of pipeline.cu, plain C (header only), so that
 * tests/test_prac11.c checks it with gcc and no GPU: the input and the filter's gold, the tolerance and why, the
 * bounds a pipelined loop is held against, and the check of a schedule's streams and events (no timing in it);
 * the lines that print the bounds and the schedule's verdict. Step 5's CSV and event pairs, for -timeline, are
 * prac11_timeline.cuh's, without its kernel stamps (step 2), which pipeline.cu has no use for.
 */
#ifndef PIPELINE_CUH
#define PIPELINE_CUH

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define PRAC11_TIMELINE_NO_STAMPS
#include "prac11_timeline.cuh"

#define PIPE_A 0.75f   /* the filter's feedback: y = A y + x / 2, work times, from y = x */
#define PIPE_BUF_MAX 8 /* device buffers in rotation at most (-buffers=) */
#define PIPE_STREAMS 3 /* the streams a schedule may use: copy-in, compute, copy-out */

/* Sample i of the input: 1 + k / 2^23 with k a hash of i (23 bits), so every value is an exact float in [1, 2),
 * x / 2 is exact too, and chunks hold different values (a stale buffer, a chunk copied twice, cannot pass). */
static inline float pipe_input(size_t i) {
  unsigned k = ((unsigned)i * 2654435761u) >> 9;
  return 1.0f + (float)k * (1.0f / 8388608.0f);
}

/* The filter in exact arithmetic: y_k = 2x - x 0.75^k (y_0 = x, and 0.75 (2x - x 0.75^k) + x/2 = 2x - x 0.75^(k+1)),
 * so the gold costs O(1) per sample whatever -work is; p = 0.75^work, computed once in double. */
static inline double pipe_gold(float x, double p) { return (double)x * (2.0 - p); }

/* The tolerance, relative: each FMA rounds once, by at most u |y| <= 2u x (u = 2^-24, y < 2x), and the filter
 * shrinks every earlier error by 0.75 a step, so after any number of steps the error is below 2ux (1 + 0.75 +
 * 0.75^2 + ...) = 8ux; and y >= 1.25x from the first step on: relative error < 6.4u. The gold (double) adds ~1e-16.
 * 8u = 4 FLT_EPSILON leaves room; NaN and Inf fail (every comparison with them is false). */
#define PIPE_RTOL (4.0 * FLT_EPSILON)

/* Values of y[0..count) (samples first .. first+count of the input) outside the tolerance; the first bad index
 * (relative to y) in *first_bad, -1 if none. */
static inline size_t pipe_check(const float *y, size_t first, size_t count, int work, long long *first_bad) {
  double p = pow(0.75, (double)work);
  size_t nbad = 0;
  *first_bad = -1;
  for (size_t i = 0; i < count; i++) {
    double g = pipe_gold(pipe_input(first + i), p);
    if (!(fabs((double)y[i] - g) <= PIPE_RTOL * g) && nbad++ == 0) *first_bad = (long long)i;
  }
  return nbad;
}

/* The bounds, from one chunk's times: in, kernel, out alone, and both (one chunk in and one out at once, two
 * streams). Naive: chunks x the slowest stage, as if the three overlapped perfectly. Link: in and out share the
 * PCIe link, so chunks x both: (bytes in + bytes out) / the both-ways rate. The bound is the larger: the steady
 * state's, the issue's goal. Fill and drain: the first chunk's copy-in overlaps no copy-out and the last copy-out no
 * copy-in, so the link needs in + out + (chunks - 1) x both at least; and each stage s, chunks x its time, waits
 * for the first chunk's stages before it and is followed by the last chunk's after it (in + chunks x kernel + out,
 * ...). fill_ms, the largest of these four, is a bound no schedule can beat. */
typedef struct {
  double naive_ms, link_ms, bound_ms, fill_ms;
  const char *limit, *key; /* what sets the bound ("copy in", "the kernel", "copy out", "the link, both ways"), and
                              its one word for BENCH lines: in, kernel, out, link */
} pipe_bounds;

static inline pipe_bounds pipe_bound(int chunks, double in_ms, double kernel_ms, double out_ms, double both_ms) {
  pipe_bounds b;
  double stage = in_ms;
  b.limit = "copy in", b.key = "in";
  if (kernel_ms > stage) stage = kernel_ms, b.limit = "the kernel", b.key = "kernel";
  if (out_ms > stage) stage = out_ms, b.limit = "copy out", b.key = "out";
  b.naive_ms = chunks * stage;
  b.link_ms = chunks * both_ms;
  b.bound_ms = b.naive_ms;
  if (b.link_ms > b.naive_ms) b.bound_ms = b.link_ms, b.limit = "the link, both ways", b.key = "link";
  double fd[4] = {in_ms + out_ms + (chunks - 1) * both_ms, chunks * in_ms + kernel_ms + out_ms,
                  in_ms + chunks * kernel_ms + out_ms, in_ms + kernel_ms + chunks * out_ms};
  b.fill_ms = fd[0];
  for (int i = 1; i < 4; i++)
    if (fd[i] > b.fill_ms) b.fill_ms = fd[i];
  return b;
}

/* One version's result: its median time, its values outside the tolerance, the first of them (its index in all the
 * chunks; -1: none), and whether it ran (0: left out) */
typedef struct {
  float ms;
  size_t nbad;
  long long first;
  int ran;
} pipe_result;

/* The bounds' lines: one chunk's copies (pinned host memory) and kernel, each the median of reps runs, with the
 * copies' rates, then chunks x them (pipe_bound) */
static inline void pipe_print_bounds(int chunks, size_t bytes, int reps, double in_ms, double out_ms, double both_ms,
                                     double k_ms, pipe_bounds bd, int copy_engines) {
  double GB = bytes / 1e9;
  // asyncEngineCount: 1, a copy goes one way at a time and in and out cannot overlap at all; 2, both at once
  printf("one chunk, pinned host memory (median of %d; the GPU's copy engines: %d):\n", reps, copy_engines);
  printf("  copy in             %9.4f ms  %6.1f GB/s\n", in_ms, GB / (in_ms * 1e-3));
  printf("  copy out            %9.4f ms  %6.1f GB/s\n", out_ms, GB / (out_ms * 1e-3));
  printf("  in and out at once  %9.4f ms  %6.1f GB/s both ways together (two streams)\n", both_ms,
         2 * GB / (both_ms * 1e-3));
  printf("  kernel              %9.4f ms\n", k_ms);
  printf("bound: naive %d x max(in, kernel, out) = %.3f ms; link %d x (bytes in + out) / both-ways rate = %.3f ms;"
         " the bound %.3f ms (%s); with the fill and drain no schedule avoids (at these measured rates), %.3f ms\n",
         chunks, bd.naive_ms, chunks, bd.link_ms, bd.bound_ms, bd.limit, bd.fill_ms);
}

/* A schedule, as issued: each call of the loop in order. Streams are 0..PIPE_STREAMS-1, events any small index. */
enum { PIPE_IN, PIPE_KERNEL, PIPE_OUT, PIPE_RECORD, PIPE_WAIT };
typedef struct {
  int op, chunk, stream, event; /* chunk: IN, KERNEL, OUT; event: RECORD, WAIT */
} pipe_call;
#define PIPE_EVENTS (3 * PIPE_BUF_MAX)

/* A chunk's work in chunk a of kind ka must end before that in chunk b of kind kb whatever the schedule: a chunk's
 * copy-in, kernel and copy-out in that order, and a buffer's next chunk (nbuf later) after its last. */
static inline int pipe_needed(int ka, int a, int kb, int b, int nbuf) {
  return (a == b && ka < kb) || (a < b && (b - a) % nbuf == 0);
}

/*
 * Checks a schedule by the rules of streams and events, not by timing: calls in one stream run in order; an event
 * recorded in a stream stands for everything issued to it so far; a stream that waits on it runs nothing more until
 * that is done (an event never recorded is no wait). A vector clock per stream and per event keeps, for each stream,
 * how many of its calls must end first. Returns 0 when every chunk's copy-in, kernel and copy-out run in order, no
 * copy-in overwrites a buffer before the copy-out of its chunk nbuf earlier has read it, and at each step n the
 * copy-in of chunk n+1, the kernel of chunk n and the copy-out of chunk n-1 are free to run at once (unless their
 * buffers forbid it: nbuf = 1 or 2); else 1 for a race, 2 for a wait that need not be, with the reason in why.
 */
static inline int pipe_schedule(const pipe_call *calls, int ncalls, int chunks, int nbuf, char *why, size_t len) {
  static const char *name[3] = {"copy-in", "kernel", "copy-out"};
  int(*clock)[PIPE_STREAMS] = (int(*)[PIPE_STREAMS])calloc(3 * (size_t)chunks, sizeof *clock);
  int *where = (int *)calloc(3 * (size_t)chunks, sizeof(int)), *seq = (int *)calloc(3 * (size_t)chunks, sizeof(int));
  int sc[PIPE_STREAMS][PIPE_STREAMS] = {{0}}, ec[PIPE_EVENTS][PIPE_STREAMS] = {{0}}, count[PIPE_STREAMS] = {0};
  int rc = 0;
  if (!clock || !where || !seq) {
    fprintf(stderr, "pipe_schedule: out of host memory\n");
    exit(1);
  }
  for (int c = 0; c < ncalls && rc == 0; c++) {
    const pipe_call *k = &calls[c];
    int s = k->stream, e = k->event;
    if (k->op == PIPE_RECORD)
      for (int t = 0; t < PIPE_STREAMS; t++) ec[e][t] = sc[s][t];
    else if (k->op == PIPE_WAIT)
      for (int t = 0; t < PIPE_STREAMS; t++) sc[s][t] = ec[e][t] > sc[s][t] ? ec[e][t] : sc[s][t];
    else if (k->chunk < 0 || k->chunk >= chunks)
      rc = 1, snprintf(why, len, "chunk %d was issued, of chunks 0 to %d", k->chunk, chunks - 1);
    else {
      int w = 3 * k->chunk + k->op;
      if (seq[w]) rc = 1, snprintf(why, len, "the %s of chunk %d was issued twice", name[k->op], k->chunk);
      for (int t = 0; t < PIPE_STREAMS; t++) clock[w][t] = sc[s][t]; /* what must end before it starts */
      where[w] = s, seq[w] = ++count[s], sc[s][s] = count[s];
    }
  }
  for (int w = 0; w < 3 * chunks && rc == 0; w++)
    if (!seq[w]) rc = 1, snprintf(why, len, "the %s of chunk %d was never issued", name[w % 3], w / 3);
#define PIPE_BEFORE(wa, wb) (clock[wb][where[wa]] >= seq[wa]) /* wa ends before wb starts */
  for (int n = 0; n < chunks && rc == 0; n++) {               /* the races: what must be in order and is not */
    int in = 3 * n, kernel = in + 1, out = in + 2, last = 3 * (n - nbuf) + 2;
    if (!PIPE_BEFORE(in, kernel))
      rc = 1, snprintf(why, len, "the kernel of chunk %d may start before its copy-in ends", n);
    else if (!PIPE_BEFORE(kernel, out))
      rc = 1, snprintf(why, len, "the copy-out of chunk %d may start before its kernel ends", n);
    else if (n >= nbuf && !PIPE_BEFORE(last, in))
      rc = 1, snprintf(why, len,
                       "the copy-in of chunk %d may overwrite buffer %d before the copy-out of chunk %d "
                       "has read it",
                       n, n % nbuf, n - nbuf);
  }
  for (int n = 0; n < chunks && rc == 0; n++) { /* step n: chunk n+1 in, chunk n's kernel, chunk n-1 out */
    int step[3][2] = {{PIPE_IN, n + 1}, {PIPE_KERNEL, n}, {PIPE_OUT, n - 1}};
    for (int i = 0; i < 3 && rc == 0; i++)
      for (int j = 0; j < 3 && rc == 0; j++) {
        int a = 3 * step[i][1] + step[i][0], b = 3 * step[j][1] + step[j][0];
        if (i == j || step[i][1] < 0 || step[i][1] >= chunks || step[j][1] < 0 || step[j][1] >= chunks) continue;
        if (PIPE_BEFORE(a, b) && !pipe_needed(step[i][0], step[i][1], step[j][0], step[j][1], nbuf))
          rc = 2, snprintf(why, len,
                           "the %s of chunk %d waits for the %s of chunk %d, which it need not: they "
                           "cannot overlap",
                           name[step[j][0]], step[j][1], name[step[i][0]], step[i][1]);
      }
  }
#undef PIPE_BEFORE
  free(clock), free(where), free(seq);
  return rc;
}

/* Version 2's schedule line, pipe_schedule's verdict (sched, why) on its ncalls calls; then the issue's goal line,
 * pct: its time in % of its bound */
static inline void pipe_print_schedule(int ncalls, int sched, const char *why, double pct) {
  printf("2: its schedule, checked from its %d calls by the rules of streams and events (no timing): %s\n", ncalls,
         sched ? why
               : "each chunk in, computed, out in order, no buffer reused too early, and at each step the "
                 "copy-in of chunk n+1, the kernel of chunk n and the copy-out of chunk n-1 free to run at once");
  printf("the workbook's goal: version 2 within 10 %% of its bound: %.1f %% of it (a GPU's figure, no verdict)\n", pct);
}

#endif /* PIPELINE_CUH */
