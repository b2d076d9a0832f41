/*
 * test_prac11.c -- CPU tests of practical 11's gold routines (../prac11/prac11_gold.c): the course's values with
 * their overflow to +inf, the comparison (+inf equals +inf, one float ulp passes, NaN and the poison never do),
 * and the count of overlapping kernels on one timeline; step 2's intervals from %globaltimer stamps (a stamp never
 * written, an end before its start, equal stamps) and step 5's CSV, the kernels' rows and pipeline.cu's
 * stages' (../prac11/prac11_timeline.cuh, whose plain C part gcc compiles).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "../prac11/prac11_gold.h"
#include "../prac11/many_laplace.cuh"
#include "../prac11/prac11_timeline.cuh"
#include "../prac11/pipeline.cuh"

#define N 1000

TEST(gold_values_and_their_overflow) {
  static float x[N];
  prac11_gold(x, N);
  CHECK(x[0] == 1.0f);
  CHECK(x[2] == (float)PRAC11_BASE); /* sqrt(pi^2) rounds to the float of 3.14159 */
  CHECK_NEAR(x[1], sqrt(PRAC11_BASE), 1e-6);
  /* finite up to i = 155, +inf from 156 (the float overflows), and so on past 621 (pow overflows double) */
  for (int i = 0; i < 156; i++) CHECK(isfinite(x[i]) && x[i] > 0.0f);
  for (int i = 156; i < N; i++) CHECK(isinf(x[i]) && x[i] > 0.0f);
  CHECK(x[155] > 3e38f);
  CHECK(isinf(pow(PRAC11_BASE, 621.0)) && isfinite(pow(PRAC11_BASE, 620.0)));
}

TEST(compare_inf_equals_inf_nan_fails) {
  static float gold[N], x[N];
  long long first;
  prac11_gold(gold, N);
  memcpy(x, gold, sizeof(x));
  CHECK(prac11_compare(x, gold, N, &first) == 0 && first == -1); /* +inf against +inf from 156 on */
  x[700] = NAN;
  CHECK(prac11_compare(x, gold, N, &first) == 1 && first == 700);
  x[700] = -INFINITY; /* the wrong infinity */
  CHECK(prac11_compare(x, gold, N, &first) == 1 && first == 700);
  x[700] = FLT_MAX; /* finite against +inf */
  CHECK(prac11_compare(x, gold, N, &first) == 1 && first == 700);
  x[700] = gold[700];
  x[10] = NAN;
  CHECK(prac11_compare(x, gold, N, &first) == 1 && first == 10);
  x[10] = INFINITY; /* +inf against a finite gold */
  CHECK(prac11_compare(x, gold, N, &first) == 1 && first == 10);
  /* the poison: 0xff bytes, a NaN, everywhere */
  memset(x, 0xff, sizeof(x));
  CHECK(isnan(x[0]));
  CHECK(prac11_compare(x, gold, N, &first) == N && first == 0);
}

TEST(compare_one_ulp_passes_two_fail) {
  static float gold[N], x[N];
  long long first;
  prac11_gold(gold, N);
  for (int i = 0; i < 156; i++) {
    memcpy(x, gold, sizeof(x));
    x[i] = nextafterf(gold[i], INFINITY);
    if (isfinite(x[i])) CHECK(prac11_compare(x, gold, N, &first) == 0);
    x[i] = nextafterf(gold[i], 0.0f);
    CHECK(prac11_compare(x, gold, N, &first) == 0);
    x[i] = nextafterf(nextafterf(gold[i], INFINITY), INFINITY); /* two ulps above: more than FLT_EPSILON |gold| */
    CHECK(prac11_compare(x, gold, N, &first) == 1 && first == i);
  }
  /* at a power of two (x[0] = 1): the float below is half an ulp of 1 away, the one above one ulp */
  float one = 1.0f, below = nextafterf(1.0f, 0.0f), above = nextafterf(1.0f, 2.0f);
  CHECK(prac11_compare(&below, &one, 1, &first) == 0 && prac11_compare(&above, &one, 1, &first) == 0);
  float above2 = nextafterf(above, 2.0f);
  CHECK(prac11_compare(&above2, &one, 1, &first) == 1);
}

TEST(overlap_counts) {
  prac11_concurrency c;
  /* one after another, touching (as on one stream): none overlap; the sum is the span */
  double b1[] = {0, 2, 4, 6}, e1[] = {2, 4, 6, 8};
  c = prac11_overlap(b1, e1, 4);
  CHECK(c.overlapped == 0);
  CHECK_NEAR(c.sum_ms, 8.0, 1e-12);
  CHECK_NEAR(c.span_ms, 8.0, 1e-12);
  /* all at once: every one overlaps, 4 kernels' time in 2 */
  double b2[] = {0, 0.1, 0.2, 0.3}, e2[] = {2, 2.1, 2.2, 2.3};
  c = prac11_overlap(b2, e2, 4);
  CHECK(c.overlapped == 4);
  CHECK_NEAR(c.sum_ms, 8.0, 1e-12);
  CHECK_NEAR(c.span_ms, 2.3, 1e-12);
  /* two pairs, apart, in any order; one kernel inside another */
  double b3[] = {5, 0, 6, 1, 10}, e3[] = {7, 2, 8, 3, 11};
  c = prac11_overlap(b3, e3, 5);
  CHECK(c.overlapped == 4);
  CHECK_NEAR(c.span_ms, 11.0, 1e-12);
  double b4[] = {0, 1}, e4[] = {10, 2};
  CHECK(prac11_overlap(b4, e4, 2).overlapped == 2);
  /* one kernel, none */
  c = prac11_overlap(b4, e4, 1);
  CHECK(c.overlapped == 0);
  CHECK_NEAR(c.sum_ms, 10.0, 1e-12);
  CHECK_NEAR(c.span_ms, 10.0, 1e-12);
}

TEST(stamps_to_intervals) {
  prac11_stamps_t s;
  double b[4], e[4];
  /* three kernels one after another on a timer that steps in microseconds (ns since a moment long past): the
   * first start is 0 ms; the end of one and the start of the next share a stamp (touching, not overlapping) */
  unsigned long long t0 = 1700000000000000000ull;
  unsigned long long one[] = {t0 + 3000, t0 + 5000, t0 + 5000, t0 + 9000, t0 + 9000, t0 + 12000};
  s = prac11_stamp_intervals(one, 3, b, e);
  CHECK(s.missing == 0 && s.first_missing == -1);
  CHECK(b[0] == 0.0 && e[0] == 0.002 && b[1] == 0.002 && e[2] == 0.009);
  CHECK(prac11_overlap(b, e, 3).overlapped == 0);
  /* four at once, in any order, nanosecond steps */
  unsigned long long four[] = {t0 + 40, t0 + 900, t0 + 10, t0 + 800, t0 + 10, t0 + 700, t0 + 25, t0 + 1000};
  s = prac11_stamp_intervals(four, 4, b, e);
  CHECK(s.missing == 0);
  CHECK_NEAR(b[0], 30e-6, 1e-15);
  CHECK(b[1] == 0.0 && b[2] == 0.0);
  CHECK_NEAR(e[3], 990e-6, 1e-15);
  CHECK(prac11_overlap(b, e, 4).overlapped == 4);
  /* a stamp never written (0), an end before its start: missing, the first named; begin/end left alone */
  unsigned long long bad[] = {t0, t0 + 10, 0, t0 + 20, t0 + 30, t0 + 25, t0 + 40, 0};
  b[0] = -1.0;
  s = prac11_stamp_intervals(bad, 4, b, e);
  CHECK(s.missing == 3 && s.first_missing == 1 && b[0] == -1.0);
  unsigned long long none[] = {0, 0, 0, 0};
  s = prac11_stamp_intervals(none, 2, b, e);
  CHECK(s.missing == 2 && s.first_missing == 0);
  /* one kernel whose start and end are the same tick: not a whole pair (a kernel takes time; a timer read
   * once and stored twice looks like this) */
  unsigned long long same[] = {t0, t0};
  s = prac11_stamp_intervals(same, 1, b, e);
  CHECK(s.missing == 1 && s.first_missing == 0);
}

/* the whole of a small file the test wrote, as a string (the file then removed); its length, 0 if unreadable */
static size_t read_back(const char *path, char *text, size_t size) {
  size_t n = 0;
  FILE *r = fopen(path, "r");
  if (r) {
    n = fread(text, 1, size - 1, r);
    fclose(r);
  }
  text[n] = '\0';
  remove(path);
  return n;
}

TEST(timeline_csv) {
  CHECK(prac11_timeline_open(NULL) == NULL); /* no -timeline: nothing written */
  char path[] = "/tmp/test_prac11_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  FILE *f = prac11_timeline_open(path);
  CHECK(f != NULL);
  if (f == NULL) return;
  /* events in ms from the course's start event: written from the earliest kernel's start */
  int who[] = {0, 3};
  double eb[] = {5.5, 5.25}, ee[] = {7.0, 9.125}, gb[] = {0.0, 0.001}, ge[] = {1.5, 3.75};
  prac11_timeline_rows(f, 1, "stream_test", "legacy", "event", who, eb, ee, 2);
  prac11_timeline_rows(f, 0, "stream_test", "legacy", "globaltimer", who, gb, ge, 2);
  CHECK(prac11_timeline_close(f) == 0);
  char text[1024];
  CHECK(read_back(path, text, sizeof(text)) > 0);
  CHECK(strcmp(text, "program,build,kernel,stream_or_thread,source,start_ms,end_ms\n"
                     "stream_test,legacy,0,0,event,0.250000,1.750000\n"
                     "stream_test,legacy,1,3,event,0.000000,3.875000\n"
                     "stream_test,legacy,0,0,globaltimer,0.000000,1.500000\n"
                     "stream_test,legacy,1,3,globaltimer,0.001000,3.750000\n") == 0);
}

/* step 5 for pipeline.cu: a row per recorded stage of each chunk (operation 3n + stage), named "in n", "kernel n",
 * "out n", in the same CSV shape (timeline.py reads both) */
TEST(timeline_stage_rows) {
  char path[] = "/tmp/test_prac11_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f == NULL) return;
  /* two chunks in streams 1-3 (version 2's in, compute, out); chunk 1's copy-out was not recorded (-1): no row, and
   * its begin (0) is not the earliest start: that is chunk 1's copy-in (0.25 ms), not operation 0's */
  int who[] = {1, 2, 3, 1, 2, -1};
  double b[] = {0.5, 1.0, 2.0, 0.25, 2.5, 0.0}, e[] = {1.0, 2.0, 3.25, 1.0, 3.0, 0.0};
  CHECK(prac11_timeline_stage_rows(f, 1, "pipeline_streams", "legacy", who, b, e, 6) == 5);
  /* a second program after it, all on the default stream (0), no second header; times from its own first start */
  int serial[] = {0, 0, 0};
  double b0[] = {10.0, 10.5, 11.0}, e0[] = {10.5, 11.0, 11.125};
  CHECK(prac11_timeline_stage_rows(f, 0, "pipeline_serial_pinned", "legacy", serial, b0, e0, 3) == 3);
  /* nothing recorded (the run never happened): no rows, and no header even when asked */
  int none[] = {-1, -1, -1};
  CHECK(prac11_timeline_stage_rows(f, 1, "pipeline_streams", "legacy", none, b0, e0, 3) == 0);
  CHECK(prac11_timeline_close(f) == 0);
  char text[2048];
  CHECK(read_back(path, text, sizeof(text)) > 0);
  CHECK(strcmp(text, "program,build,kernel,stream_or_thread,source,start_ms,end_ms\n"
                     "pipeline_streams,legacy,in 0,1,event,0.250000,0.750000\n"
                     "pipeline_streams,legacy,kernel 0,2,event,0.750000,1.750000\n"
                     "pipeline_streams,legacy,out 0,3,event,1.750000,3.000000\n"
                     "pipeline_streams,legacy,in 1,1,event,0.000000,0.750000\n"
                     "pipeline_streams,legacy,kernel 1,2,event,2.250000,2.750000\n"
                     "pipeline_serial_pinned,legacy,in 0,0,event,0.000000,0.500000\n"
                     "pipeline_serial_pinned,legacy,kernel 0,0,event,0.500000,1.000000\n"
                     "pipeline_serial_pinned,legacy,out 0,0,event,1.000000,1.125000\n") == 0);
}

/* step 3, many_laplace: the grids' sides, their blocks, and the predicted speed-up (the SM counts and blocks per SM
 * here are round numbers for the arithmetic, not any GPU's) */
TEST(many_laplace_sides) {
  /* the defaults: 64 grids, 50 + (50 g) / 63 */
  CHECK(many_side(0, 64, 50, 100) == 50 && many_side(1, 64, 50, 100) == 50 && many_side(2, 64, 50, 100) == 51);
  CHECK(many_side(62, 64, 50, 100) == 99 && many_side(63, 64, 50, 100) == 100);
  int odd = 0, even = 0;
  for (int g = 1; g < 64; g++) {
    int a = many_side(g - 1, 64, 50, 100), b = many_side(g, 64, 50, 100);
    CHECK(b == a || b == a + 1); /* in equal steps, rounded down: never a gap */
    if (b % 2) odd++;
    else even++;
  }
  CHECK(odd > 20 && even > 20);
  /* one grid: the smallest side; equal limits: every grid alike; the limits the flags accept */
  CHECK(many_side(0, 1, 3, 128) == 3);
  for (int g = 0; g < MANY_GRIDS_MAX; g++) CHECK(many_side(g, MANY_GRIDS_MAX, 77, 77) == 77);
  CHECK(many_side(MANY_GRIDS_MAX - 1, MANY_GRIDS_MAX, 3, MANY_SIDE_MAX) == MANY_SIDE_MAX);
  /* points: 3^3 + 5^3, and the largest run, 64 grids of 128^3 */
  CHECK(many_points(2, 3, 5) == 27 + 125);
  CHECK(many_points(MANY_GRIDS_MAX, MANY_SIDE_MAX, MANY_SIDE_MAX) == (size_t)64 << 21);
}

TEST(many_laplace_blocks_and_prediction) {
  /* 32 x 4 blocks over (i, j), rounded up */
  CHECK(many_blocks(50, 32, 4) == 2 * 13);
  CHECK(many_blocks(75, 32, 4) == 3 * 19);
  CHECK(many_blocks(100, 32, 4) == 4 * 25);
  CHECK(many_blocks(64, 32, 4) == 2 * 16 && many_blocks(65, 32, 4) == 3 * 17);
  CHECK(many_blocks(3, 32, 4) == 1 && many_blocks(3, 1, 1) == 9);
  /* two grids, sides 50 and 100: 26 and 100 blocks, 63 on average; 10 SMs x 8 blocks = 80 slots */
  many_prediction p = many_predict(2, 50, 100, 32, 4, 10, 8);
  CHECK(p.min_blocks == 26 && p.max_blocks == 100);
  CHECK_NEAR(p.mean_blocks, 63.0, 1e-12);
  CHECK(p.slots == 80 && p.fit == 1);
  CHECK_NEAR(p.fill_pct, 100.0 * 63.0 / 80.0, 1e-9);
  CHECK_NEAR(p.bound, 80.0 / 63.0, 1e-12);
  /* many slots: no more than the 2 grids at once */
  p = many_predict(2, 50, 100, 32, 4, 100, 16);
  CHECK(p.fit == 25);
  CHECK_NEAR(p.bound, 2.0, 1e-12);
  /* a grid bigger than the GPU: none fits at once, and the bound is 1 (no slower than one stream), not below */
  p = many_predict(4, 100, 100, 32, 4, 1, 1);
  CHECK(p.fit == 0);
  CHECK_NEAR(p.bound, 1.0, 1e-12);
  /* one grid of side 3: one block */
  p = many_predict(1, 3, 3, 32, 4, 10, 8);
  CHECK(p.min_blocks == 1 && p.max_blocks == 1 && p.fit == 80);
  CHECK_NEAR(p.bound, 1.0, 1e-12);
  /* the defaults: the mean of 64 grids' blocks, by the sum */
  long long sum = 0;
  for (int g = 0; g < 64; g++) sum += many_blocks(many_side(g, 64, 50, 100), 32, 4);
  p = many_predict(64, 50, 100, 32, 4, 100, 16);
  CHECK_NEAR(p.mean_blocks, sum / 64.0, 1e-12);
  CHECK(p.min_blocks == 26 && p.max_blocks == 100 && p.mean_blocks > 26 && p.mean_blocks < 100);
  CHECK_NEAR(p.bound, 1600.0 / p.mean_blocks, 1e-9);
}

/* step 4 (../prac11/pipeline.cuh): the input, the filter's gold and its tolerance, the bounds, and the schedule
 * check. A schedule here is the calls issue_chunk makes: streams 0 in, 1 compute, 2 out; events in_done[b] = b,
 * comp_done[b] = PIPE_BUF_MAX + b, out_done[b] = 2 PIPE_BUF_MAX + b. */
static int pipe_add(pipe_call *c, int k, int op, int chunk, int stream, int event) {
  c[k].op = op, c[k].chunk = chunk, c[k].stream = stream, c[k].event = event;
  return k + 1;
}

/* style 0: pipeline.cu's issue_chunk; 1: all in stream 1, no events (the exercise's start); 2: three streams, no
 * events; 3: three streams, no wait for a free buffer; 4: the copies in one stream (0), the kernel in 1, events;
 * 5: as 0, but each copy-in also waits for the kernel of the chunk before */
static int pipe_schedule_of(pipe_call *c, int chunks, int nbuf, int style) {
  int k = 0;
  for (int n = 0; n < chunks; n++) {
    int b = n % nbuf, in = b, comp = PIPE_BUF_MAX + b, out = 2 * PIPE_BUF_MAX + b;
    int si = style == 1 ? 1 : 0, sk = 1, so = style == 1 ? 1 : style == 4 ? 0 : 2, ev = style != 1 && style != 2;
    if (ev && style != 3) k = pipe_add(c, k, PIPE_WAIT, -1, si, out);
    if (style == 5 && n > 0) k = pipe_add(c, k, PIPE_WAIT, -1, si, PIPE_BUF_MAX + (n - 1) % nbuf);
    k = pipe_add(c, k, PIPE_IN, n, si, 0);
    if (ev) k = pipe_add(c, k, PIPE_RECORD, -1, si, in), k = pipe_add(c, k, PIPE_WAIT, -1, sk, in);
    k = pipe_add(c, k, PIPE_KERNEL, n, sk, 0);
    if (ev) k = pipe_add(c, k, PIPE_RECORD, -1, sk, comp), k = pipe_add(c, k, PIPE_WAIT, -1, so, comp);
    k = pipe_add(c, k, PIPE_OUT, n, so, 0);
    if (ev) k = pipe_add(c, k, PIPE_RECORD, -1, so, out);
  }
  return k;
}

TEST(pipeline_input_gold_and_tolerance) {
  /* exact floats in [1, 2), halves exact, and neighbouring chunks' values differ almost everywhere */
  int same = 0;
  for (size_t i = 0; i < 100000; i++) {
    float x = pipe_input(i);
    CHECK(x >= 1.0f && x < 2.0f && (double)x == 1.0 + ldexp(floor(ldexp((double)x - 1.0, 23)), -23));
    CHECK((double)(0.5f * x) == 0.5 * (double)x);
    same += pipe_input(i) == pipe_input(i + 2097152) || pipe_input(i) == pipe_input(i + 7);
  }
  CHECK(same < 10);
  /* the filter run as the kernel runs it (one fmaf a step) against the closed form: within the tolerance at
   * every step count tried, and the bound 6.4u (u = 2^-24) holds; one step is 1.25x */
  double worst = 0.0;
  for (int i = 0; i < 2000; i++) {
    float x = pipe_input((size_t)i * 7919), y = x, c = 0.5f * x;
    for (int w = 1; w <= 300; w++) {
      y = fmaf(PIPE_A, y, c);
      double g = pipe_gold(x, pow(0.75, w)), rel = fabs((double)y - g) / g;
      if (rel > worst) worst = rel;
      if (w == 1) CHECK(y == 1.25f * x);
    }
  }
  CHECK(worst <= 6.4 * ldexp(1.0, -24) && worst <= PIPE_RTOL);
  CHECK(worst > 0.0); /* the rounding is there to see: the test looks at real errors */
}

TEST(pipeline_check_catches_poison_and_stale_chunks) {
  enum { NC = 1000 };
  static float y[NC];
  long long first;
  int work = 2000;
  double p = pow(0.75, work);
  for (int i = 0; i < NC; i++) y[i] = (float)pipe_gold(pipe_input(5000 + i), p);
  CHECK(pipe_check(y, 5000, NC, work, &first) == 0 && first == -1);
  CHECK(pipe_check(y, 5000 + NC, NC, work, &first) == NC); /* another chunk's output (a stale buffer) */
  y[17] = NAN;
  CHECK(pipe_check(y, 5000, NC, work, &first) == 1 && first == 17);
  y[17] = INFINITY;
  CHECK(pipe_check(y, 5000, NC, work, &first) == 1 && first == 17);
  y[17] = (float)pipe_gold(pipe_input(5017), p) * (1.0f + 8 * FLT_EPSILON); /* 8 ulps: outside */
  CHECK(pipe_check(y, 5000, NC, work, &first) == 1 && first == 17);
  y[17] = pipe_input(5017); /* the input itself: a kernel that never ran */
  CHECK(pipe_check(y, 5000, NC, work, &first) == 1 && first == 17);
  memset(y, 0xff, sizeof(y)); /* the poison */
  CHECK(pipe_check(y, 5000, NC, work, &first) == NC && first == 0);
}

TEST(pipeline_bounds) {
  /* the H100 rates for 8 MiB: in 53.7, out 55.0, both ways 79.5 GB/s; a kernel of 0.1 ms: the link */
  double mb = 8.0 * 1048576 / 1e9, in = mb / 53.7e-3, out = mb / 55.0e-3, both = 2 * mb / 79.5e-3;
  pipe_bounds b = pipe_bound(32, in, 0.1, out, both);
  CHECK_NEAR(b.naive_ms, 32 * in, 1e-12);
  CHECK_NEAR(b.link_ms, 32 * both, 1e-12);
  CHECK(b.bound_ms == b.link_ms && strcmp(b.key, "link") == 0);
  b = pipe_bound(32, in, 1.0, out, both); /* a long kernel: the kernel */
  CHECK(b.bound_ms == 32.0 && strcmp(b.key, "kernel") == 0 && b.link_ms < b.bound_ms);
  b = pipe_bound(4, 0.3, 0.1, 0.2, 0.25); /* in and out overlap perfectly: the slowest stage */
  CHECK_NEAR(b.bound_ms, 1.2, 1e-12);
  CHECK(strcmp(b.key, "in") == 0);
  b = pipe_bound(1, 0.1, 0.1, 0.3, 0.2);
  CHECK(b.bound_ms == 0.3 && strcmp(b.key, "out") == 0);
  CHECK_NEAR(b.fill_ms, 0.5, 1e-12); /* one chunk: in + kernel + out, nothing overlaps */
  /* the H100's one-chunk times of 2026-11-27 (in 0.1554, out 0.1539, both 0.1703, kernel 0.1579 ms), 32 chunks:
   * the link with its fill and drain, 0.1554 + 0.1539 + 31 x 0.1703 = 5.5886 ms, above the steady 5.4496 */
  b = pipe_bound(32, 0.1554, 0.1579, 0.1539, 0.1703);
  CHECK_NEAR(b.bound_ms, 32 * 0.1703, 1e-9);
  CHECK_NEAR(b.fill_ms, 0.1554 + 0.1539 + 31 * 0.1703, 1e-9);
}

TEST(pipeline_schedules) {
  static pipe_call c[9 * 64 + 64];
  char why[300];
  int k;
  /* pipeline.cu's schedule: right and pipelined, for any chunk and buffer count */
  for (int chunks = 1; chunks <= 33; chunks += 4)
    for (int nbuf = 1; nbuf <= PIPE_BUF_MAX; nbuf++) {
      k = pipe_schedule_of(c, chunks, nbuf, 0);
      CHECK(pipe_schedule(c, k, chunks, nbuf, why, sizeof(why)) == 0);
    }
  /* the exercise's start: one stream, right but serial (one chunk: nothing to overlap) */
  k = pipe_schedule_of(c, 8, 3, 1);
  CHECK(pipe_schedule(c, k, 8, 3, why, sizeof(why)) == 2);
  CHECK(strcmp(why, "the copy-in of chunk 1 waits for the kernel of chunk 0, which it need not: they cannot "
                    "overlap") == 0);
  k = pipe_schedule_of(c, 1, 3, 1);
  CHECK(pipe_schedule(c, k, 1, 3, why, sizeof(why)) == 0);
  /* one stream and one buffer: every wait is needed */
  k = pipe_schedule_of(c, 8, 1, 1);
  CHECK(pipe_schedule(c, k, 8, 1, why, sizeof(why)) == 0);
  /* three streams, no events: a race at once */
  k = pipe_schedule_of(c, 8, 3, 2);
  CHECK(pipe_schedule(c, k, 8, 3, why, sizeof(why)) == 1);
  CHECK(strcmp(why, "the kernel of chunk 0 may start before its copy-in ends") == 0);
  /* no wait for a free buffer: chunk 3's copy-in may overwrite chunk 0's output (and only from chunk nbuf on) */
  k = pipe_schedule_of(c, 8, 3, 3);
  CHECK(pipe_schedule(c, k, 8, 3, why, sizeof(why)) == 1);
  CHECK(strcmp(why, "the copy-in of chunk 3 may overwrite buffer 0 before the copy-out of chunk 0 has read it") == 0);
  k = pipe_schedule_of(c, 3, 3, 3);
  CHECK(pipe_schedule(c, k, 3, 3, why, sizeof(why)) == 0);
  /* both copies in one stream, queued a chunk at a time: chunk 0's copy-out (after its kernel) is queued before
   * chunk 1's copy-in, which so waits for kernel 0 */
  k = pipe_schedule_of(c, 8, 3, 4);
  CHECK(pipe_schedule(c, k, 8, 3, why, sizeof(why)) == 2);
  CHECK(strstr(why, "the copy-in of chunk 1 waits for the kernel of chunk 0") == why);
  /* a wait too many: each copy-in after the kernel of the chunk before */
  k = pipe_schedule_of(c, 8, 3, 5);
  CHECK(pipe_schedule(c, k, 8, 3, why, sizeof(why)) == 2);
  /* a chunk's work issued twice, or never */
  k = pipe_schedule_of(c, 4, 3, 0);
  c[k] = c[k - 2]; /* chunk 3's copy-out again */
  CHECK(pipe_schedule(c, k + 1, 4, 3, why, sizeof(why)) == 1 && strstr(why, "issued twice") != NULL);
  CHECK(pipe_schedule(c, k - 2, 4, 3, why, sizeof(why)) == 1);
  CHECK(strcmp(why, "the copy-out of chunk 3 was never issued") == 0);
  c[k - 2].chunk = 4; /* a chunk past the last */
  CHECK(pipe_schedule(c, k, 4, 3, why, sizeof(why)) == 1 && strstr(why, "chunk 4 was issued") == why);
  /* an event waited on before it is recorded is no wait: the kernel waits for nothing */
  k = 0;
  k = pipe_add(c, k, PIPE_WAIT, -1, 1, 0);
  k = pipe_add(c, k, PIPE_IN, 0, 0, 0);
  k = pipe_add(c, k, PIPE_RECORD, -1, 0, 0);
  k = pipe_add(c, k, PIPE_KERNEL, 0, 1, 0);
  k = pipe_add(c, k, PIPE_OUT, 0, 1, 0);
  CHECK(pipe_schedule(c, k, 1, 1, why, sizeof(why)) == 1);
  CHECK(strcmp(why, "the kernel of chunk 0 may start before its copy-in ends") == 0);
}

int main(void) {
  RUN(gold_values_and_their_overflow);
  RUN(compare_inf_equals_inf_nan_fails);
  RUN(compare_one_ulp_passes_two_fail);
  RUN(overlap_counts);
  RUN(stamps_to_intervals);
  RUN(timeline_csv);
  RUN(timeline_stage_rows);
  RUN(many_laplace_sides);
  RUN(many_laplace_blocks_and_prediction);
  RUN(pipeline_input_gold_and_tolerance);
  RUN(pipeline_check_catches_poison_and_stale_chunks);
  RUN(pipeline_bounds);
  RUN(pipeline_schedules);
  return test_summary();
}
