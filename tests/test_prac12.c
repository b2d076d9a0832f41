/*
 * test_prac12.c -- CPU tests of practical 12's gold routines (../prac12/prac12_gold.c): the course's inputs, the
 * steps of x = sqrt(|cos x|) and their fixed point, and the tolerance of prac12_gold.h held against its argument:
 * a GPU whose every step errs as far as its cos and sqrt may (more: 2.5 ulp and 1.5 ulp), the sign of each error
 * chosen to push it away from the gold, stays within the bound argued there; a value the kernel never reached, or
 * a step too few or too many at small -iters, never passes; NaN and Inf never do. And work_streaming2's arithmetic
 * (../prac12/work_streaming2.cuh): the chunks of whole blocks, which cover the array once, in order, the last the
 * smallest; the flags it rejects; the gate, settled once, by the host or by the hold's time limit, and left out under
 * CUDA_LAUNCH_BLOCKING; the bounds from whole-array times, never above what the whole array costs. And the host
 * memory check before the big runs (MemAvailable, prac12_gold.c).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../prac12/graphs.cuh"
#include "../prac12/prac12_gold.h"
#include "../prac12/work_streaming2.cuh"
#include "gold_check.h"
#include "test.h"

#define N (1 << 14)
#define EPS DBL_EPSILON

// prac12_gold.h's worst case for this test's GPU: a step adds 2.5/2 + 1.5 ulp (its cos, then its sqrt) and the
// gold's 1/2 + 1/2, and a difference shrinks by tan(1)/2 = 0.7787 (0.779 rounded up) a step at least
#define SIM_BOUND ((2.5 / 2 + 1.5 + 1) / (1 - 0.779) * EPS)

static double gold_steps(double x, int iters) {
  prac12_gold(&x, 1, iters);
  return x;
}

TEST(inputs_are_the_course_s) {
  static double x[N], y[N];
  prac12_inputs(x, N, 1.0);
  srand(0);
  for (int i = 0; i < N; i++) CHECK(x[i] == (double)rand() / (double)RAND_MAX);
  for (int i = 0; i < N; i++) CHECK(x[i] >= 0.0 && x[i] <= 1.0);
  prac12_inputs(y, N, -1.0); // kernel_overlap's: the same, negated, so the same again after a call in between
  for (int i = 0; i < N; i++) CHECK(y[i] == -x[i] && y[i] <= 0.0);
}

TEST(gold_steps_are_do_work_s) {
  static double x[N], y[N];
  prac12_inputs(x, N, 1.0);
  memcpy(y, x, sizeof(x));
  prac12_gold(y, N, 1);
  for (int i = 0; i < N; i++) CHECK(y[i] == sqrt(fabs(cos(x[i]))));
  memcpy(y, x, sizeof(x));
  prac12_gold(y, N, 0);
  CHECK(memcmp(x, y, sizeof(x)) == 0);
  // 7 steps are 3 steps then 4, and every value lands in [sqrt(cos 1), 1] = [0.735, 1]
  for (int i = 0; i < N; i += 97) CHECK(gold_steps(x[i], 7) == gold_steps(gold_steps(x[i], 3), 4));
  prac12_inputs(y, N, -1.0);
  prac12_gold(y, N, 1);
  for (int i = 0; i < N; i++) CHECK(y[i] >= sqrt(cos(1.0)) && y[i] <= 1.0);
}

TEST(fixed_point_after_200_steps) {
  long double f = 0.8L; // Newton's method on f^2 = cos f, in long double: the constant is its double
  for (int k = 0; k < 50; k++) f -= (f * f - cosl(f)) / (2 * f + sinl(f));
  CHECK((double)f == PRAC12_FIXED_POINT);
  static double x[N];
  prac12_inputs(x, N, -1.0);
  prac12_gold(x, N, 200);
  for (int i = 0; i < N; i++) CHECK(fabs(x[i] - PRAC12_FIXED_POINT) <= 4 * EPS);
  // so a step more or less cannot be seen at 200 (the tolerance's note), but can at 1 to 5 (next test)
  prac12_inputs(x, N, 1.0);
  for (int i = 0; i < N; i += 61) CHECK(fabs(gold_steps(x[i], 199) - gold_steps(x[i], 200)) <= PRAC12_RTOL);
}

// The tolerance, against its argument: this GPU's cos is the true cos rounded (cosl, then to double: half an
// ulp) and then moved 2 ulp, its sqrt rounded and then moved 1 ulp, up or down, whichever takes it farther from
// the gold's next value. Also checked: glibc's cos within 1 ulp of cosl at every value visited (the argument
// assumes it). Returns the worst relative difference seen over iters steps from each of n inputs.
static double ulps_off(double v, long double truth) {
  return (double)(fabsl((long double)v - truth) / (nextafter(v, INFINITY) - v));
}

static double adversary(const double *x0, int n, int iters, double *glibc_ulps) {
  double worst = 0.0;
  for (int i = 0; i < n; i++) {
    double y = x0[i], z = x0[i]; // the GPU's, the gold's
    for (int k = 0; k < iters; k++) {
      double z1 = gold_steps(z, 1);
      double c = (double)cosl((long double)y), best = y;
      for (int dir = -1; dir <= 1; dir += 2) {
        double cc = nextafter(nextafter(c, dir * INFINITY), dir * INFINITY);
        double s = nextafter(sqrt(cc), dir * INFINITY);
        if (dir == -1 || fabs(s - z1) > fabs(best - z1)) best = s;
      }
      double u = ulps_off(cos(z), cosl((long double)z));
      if (u > *glibc_ulps) *glibc_ulps = u;
      y = best, z = z1;
      double d = fabs(y - z) / fabs(z);
      if (d > worst) worst = d;
    }
  }
  return worst;
}

TEST(tolerance_covers_the_worst_gpu) {
  static double x[N];
  double glibc_ulps = 0.0, worst = 0.0;
  for (int sign = -1; sign <= 1; sign += 2) {
    prac12_inputs(x, N / 8, (double)sign);
    int steps[] = {1, 2, 5, 20, 200};
    for (int s = 0; s < 5; s++) {
      double w = adversary(x, N / 8, steps[s], &glibc_ulps);
      if (w > worst) worst = w;
    }
  }
  printf("    worst relative difference seen: %.2f DBL_EPSILON (bound %.1f, tolerance %.0f); glibc's cos %.2f ulp "
         "from cosl at most\n",
         worst / EPS, SIM_BOUND / EPS, PRAC12_RTOL / EPS, glibc_ulps);
  CHECK(glibc_ulps <= 1.0);
  CHECK(worst > 2 * EPS); // the adversary does push
  CHECK(worst <= SIM_BOUND);
  CHECK(SIM_BOUND < PRAC12_RTOL / 3);
  // the contraction factor: x tan(x) / 2 at most tan(1) / 2 on [-1, 1], 0.445 at the fixed point
  for (double v = -1.0; v <= 1.0; v += 1.0 / 1024) CHECK(v * tan(v) / 2 <= 0.779);
  CHECK(fabs(PRAC12_FIXED_POINT * tan(PRAC12_FIXED_POINT) / 2 - 0.4453) < 1e-4);
}

static size_t passing(const double *out, const double *gold, int n) {
  gold_stats st;
  return (size_t)n - compare_double(out, gold, (size_t)n, 0.0, PRAC12_RTOL, &st);
}

TEST(unreached_values_and_wrong_step_counts_fail) {
  static double x[N], gold[N], wrong[N];
  for (int sign = -1; sign <= 1; sign += 2) {
    prac12_inputs(x, N, (double)sign);
    int iters[] = {1, 2, 5, 20, 200};
    for (int s = 0; s < 5; s++) {
      memcpy(gold, x, sizeof(x));
      prac12_gold(gold, N, iters[s]);
      CHECK(passing(gold, gold, N) == N);
      CHECK(passing(x, gold, N) == 0); // the inputs, left as they were: a kernel or a copy that never ran
    }
    // a step too few or too many, at 1 to 5 steps
    for (int it = 1; it <= 5; it++) {
      memcpy(gold, x, sizeof(x));
      prac12_gold(gold, N, it);
      memcpy(wrong, x, sizeof(x));
      prac12_gold(wrong, N, it - 1);
      CHECK(passing(wrong, gold, N) == 0);
      prac12_gold(wrong, N, 2);
      CHECK(passing(wrong, gold, N) == 0);
    }
  }
}

TEST(compare_nan_inf_and_the_tolerance_s_edge) {
  static double x[N], gold[N], out[N];
  prac12_inputs(x, N, 1.0);
  memcpy(gold, x, sizeof(x));
  prac12_gold(gold, N, 20);
  memcpy(out, gold, sizeof(out));
  out[5] = NAN, out[6] = INFINITY, out[7] = -INFINITY;
  CHECK(passing(out, gold, N) == N - 3);
  memset(out, 0xff, sizeof(out)); // the poison work_streaming's device array starts with
  CHECK(isnan(out[0]) && passing(out, gold, N) == 0);
  for (int i = 0; i < N; i++) out[i] = gold[i] * (1 + 32 * EPS); // inside the tolerance, past the argued bound
  CHECK(passing(out, gold, N) == N);
  for (int i = 0; i < N; i++) out[i] = gold[i] * (1 + 80 * EPS);
  CHECK(passing(out, gold, N) == 0);
}

// every chunk: whole blocks from a block boundary, a block at least, the next where the last ended, the kernel's
// blocks (256 (block0 + b) + t, cut at n) exactly its doubles, their sizes differing by one block at most, the
// last the smallest
static int chunks_ok(int n, int chunks) {
  int ok = 1, nb = ws2_blocks(n);
  long long next = 0, smallest = n;
  for (int i = 0; i < chunks; i++) {
    ws2_chunk c = ws2_chunk_of(n, chunks, i);
    long long end = (long long)(c.block0 + c.nblocks) * WS2_BLOCK;
    ok &= c.first == next && c.first == (long long)c.block0 * WS2_BLOCK && c.nblocks >= 1 && c.count >= 1;
    ok &= c.count == (end < n ? end : n) - c.first && (c.nblocks == nb / chunks || c.nblocks == nb / chunks + 1);
    next = c.first + c.count;
    if (c.count < smallest) smallest = c.count;
  }
  return ok && next == n && ws2_chunk_of(n, chunks, chunks - 1).count == smallest;
}

TEST(chunks_cover_the_array_in_whole_blocks) {
  int sizes[] = {1, 255, 256, 257, 1000, 4097, 65536, 1000003, 1 << 27, WS2_N_MAX};
  int counts[] = {1, 2, 3, 7, 8, 13, 17, 64, 255, 256, 257, 1000, 3907, WS2_CHUNKS_MAX};
  int tried = 0;
  for (int a = 0; a < (int)(sizeof(sizes) / sizeof(sizes[0])); a++) {
    int n = sizes[a], nb = ws2_blocks(n);
    CHECK(nb == (n + WS2_BLOCK - 1) / WS2_BLOCK);
    for (int b = 0; b < (int)(sizeof(counts) / sizeof(counts[0])); b++)
      if (counts[b] <= nb) {
        CHECK(chunks_ok(n, counts[b]));
        tried++;
      }
    CHECK(chunks_ok(n, nb)); // a block each
  }
  CHECK(tried > 60);
  for (int n = 1; n <= 3 * WS2_BLOCK + 1; n += 13) // small sizes, every chunk count they allow
    for (int chunks = 1; chunks <= ws2_blocks(n); chunks++) CHECK(chunks_ok(n, chunks));
  // the course's: 8 chunks of 2^24 doubles, 2^16 blocks each, chunk i from block i nblocks
  for (int i = 0; i < 8; i++) {
    ws2_chunk c = ws2_chunk_of(1 << 27, 8, i);
    CHECK(c.count == 1 << 24 && c.nblocks == 1 << 16 && c.block0 == i << 16 && c.first == (long long)i << 24);
  }
  // not dividing: 1000003 doubles, 3907 blocks (the last of 67), 7 chunks of 559 or 558 blocks
  ws2_chunk c0 = ws2_chunk_of(1000003, 7, 0), c6 = ws2_chunk_of(1000003, 7, 6);
  CHECK(c0.nblocks == 559 && c6.nblocks == 558 && c6.count == 557 * WS2_BLOCK + 67);
}

TEST(chunks_that_do_not_fit_are_bad_input) {
  char msg[300];
  CHECK(ws2_chunks_fit(1, 1, msg, sizeof(msg)) && ws2_chunks_fit(1 << 27, 8, msg, sizeof(msg)));
  CHECK(ws2_chunks_fit(1000003, 3907, msg, sizeof(msg)) && ws2_chunks_fit(WS2_N_MAX, WS2_CHUNKS_MAX, msg, sizeof(msg)));
  CHECK(!ws2_chunks_fit(1000003, 3908, msg, sizeof(msg)) && strstr(msg, "give -chunks=1 to 3907") != NULL);
  CHECK(!ws2_chunks_fit(1000, 8, msg, sizeof(msg)) && strstr(msg, "-chunks=8: more chunks than the 4 blocks") != NULL);
  CHECK(!ws2_chunks_fit(1, 2, msg, sizeof(msg)) && strstr(msg, "the 1 block of") != NULL);
}

TEST(gate_is_settled_once) {
  ws2_gate g = {WS2_GATE_SHUT, 5000.0};
  // the loop returned first: the host opens the gate, and the hold, when it runs, returns at once
  CHECK(ws2_gate_settle(&g, WS2_GATE_OPENED) == WS2_GATE_OPENED);
  double t0 = ws2_monotonic_ms();
  ws2_gate_hold(&g);
  CHECK(ws2_monotonic_ms() - t0 < 1000.0 && g.state == WS2_GATE_OPENED);
  CHECK(ws2_gate_settle(&g, WS2_GATE_TIMED_OUT) == WS2_GATE_OPENED); // too late: the first settles it
  // the loop waited: nobody opens the gate, the hold gives up after its limit, and the host, later, finds that
  ws2_gate h = {WS2_GATE_SHUT, 30.0};
  t0 = ws2_monotonic_ms();
  ws2_gate_hold(&h);
  double waited = ws2_monotonic_ms() - t0;
  CHECK(waited >= 30.0 && waited < 5000.0 && h.state == WS2_GATE_TIMED_OUT);
  CHECK(ws2_gate_settle(&h, WS2_GATE_OPENED) == WS2_GATE_TIMED_OUT);
}

TEST(gate_is_left_out_under_launch_blocking) {
  CHECK(!ws2_launch_blocking(NULL) && !ws2_launch_blocking("") && !ws2_launch_blocking("0"));
  CHECK(ws2_launch_blocking("1") && ws2_launch_blocking("yes"));
}

// the bounds from whole-array times: scaled to the smallest chunk, so chunks x a stage is at most the whole array's,
// and equal to it where the chunks are equal (the course's 8 of 2^24 doubles)
TEST(bounds_from_the_whole_array) {
  double in = 40.0, k = 30.0, out = 45.0, both = 30.0; // whole-array ms; both: half in, half out at once
  int n = 1 << 27;
  pipe_bounds b = ws2_bound(n, 8, 1 << 24, in, k, out, both, n / 2);
  CHECK_NEAR(b.naive_ms, out, 1e-9);
  CHECK_NEAR(b.link_ms, 2 * both, 1e-9); // all of it in and all of it out: twice the halves' time
  CHECK(strcmp(b.key, "link") == 0 && b.bound_ms == b.link_ms);
  CHECK_NEAR(b.fill_ms, (in + out) / 8 + 7 * 2 * both / 8, 1e-9);
  b = ws2_bound(n, 8, 1 << 24, in, 400.0, out, both, n / 2); // a long kernel
  CHECK(strcmp(b.key, "kernel") == 0 && fabs(b.bound_ms - 400.0) < 1e-9);
  CHECK_NEAR(b.fill_ms, (in + out) / 8 + 400.0, 1e-9);
  // chunks that do not divide the array: every bound at most the whole array's figure, the fill too
  int sizes[] = {1, 2, 257, 1000003, 1 << 27, WS2_N_MAX}, counts[] = {1, 2, 7, 3907, WS2_CHUNKS_MAX};
  for (int a = 0; a < 6; a++)
    for (int c = 0; c < 5; c++) {
      int m = sizes[a], chunks = counts[c];
      if (chunks > ws2_blocks(m)) continue;
      long long last = ws2_chunk_of(m, chunks, chunks - 1).count, half = m / 2;
      b = ws2_bound(m, chunks, last, in, k, out, both, half);
      double link = half ? both * (double)m / half : in + out; // all of it both ways at the halves' rate
      CHECK(b.naive_ms <= out * (1 + 1e-12) && b.link_ms <= link * (1 + 1e-12));
      double fill = link + (in + out) / chunks; // the first in and the last out alone, the rest both ways
      CHECK(b.fill_ms <= (in + k + out > fill ? in + k + out : fill) * (1 + 1e-12));
      CHECK(b.bound_ms >= b.naive_ms && b.bound_ms >= b.link_ms && b.fill_ms >= b.bound_ms * (1 - 1e-12));
    }
  // n = 1: one chunk, no halves: its copies one after the other, then the fill is in + kernel + out
  b = ws2_bound(1, 1, 1, in, k, out, 0.0, 0);
  CHECK_NEAR(b.link_ms, in + out, 1e-9);
  CHECK_NEAR(b.fill_ms, in + k + out, 1e-9);
}

// the rate while both ran: the first copy's bytes over its time; the other's bytes, less its tail at its rate alone,
// over the same time
TEST(both_ways_rate_while_both_ran) {
  double bytes[2] = {4e9, 4e9}, alone[2] = {50.0, 50.0}, r[2];
  double t[2] = {100.0, 100.0}; // together to the end: 40 GB/s each
  ws2_both_rates(bytes, t, alone, r);
  CHECK_NEAR(r[0], 40.0, 1e-9);
  CHECK_NEAR(r[1], 40.0, 1e-9);
  t[0] = 80.0, t[1] = 100.0; // in ended first (50 GB/s); out then ran 20 ms alone at 50 GB/s: 1 GB, so 3 GB in 80 ms
  ws2_both_rates(bytes, t, alone, r);
  CHECK_NEAR(r[0], 50.0, 1e-9);
  CHECK_NEAR(r[1], 37.5, 1e-9);
  // the whole run's rate reads lower than the sum while both ran: 8 GB in 100 ms = 80, against 87.5
  CHECK(bytes[0] + bytes[1] < (r[0] + r[1]) * 1e6 * t[1]);
  double t2[2] = {100.0, 60.0}; // out first; in's tail 40 ms at 50 GB/s = 2 GB, so 2 GB in 60 ms
  ws2_both_rates(bytes, t2, alone, r);
  CHECK_NEAR(r[1], 4e9 / 60e6, 1e-9);
  CHECK_NEAR(r[0], 2e9 / 60e6, 1e-9);
  double t3[2] = {10.0, 200.0}; // a tail at the rate alone longer than the copy: that rate was not this run's
  ws2_both_rates(bytes, t3, alone, r);
  CHECK(r[1] == 0.0 && r[0] > 0.0);
}

TEST(host_memory_from_meminfo) {
  CHECK(prac12_meminfo_available("MemTotal:       16384 kB\nMemFree:  100 kB\nMemAvailable:    2048 kB\n") ==
        2048LL * 1024);
  CHECK(prac12_meminfo_available("MemAvailable: 7 kB") == 7 * 1024);
  CHECK(prac12_meminfo_available("MemTotal: 1 kB\nMemFree: 1 kB\n") == -1); // an old kernel's: no such line
  CHECK(prac12_meminfo_available("XMemAvailable: 5 kB\n") == -1 && prac12_meminfo_available("") == -1);
  char path[] = "/tmp/test_prac12_meminfo_XXXXXX", msg[300] = "";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs("MemTotal:       16777216 kB\nMemAvailable:    3145728 kB\n", f); // 3 GiB available
  fclose(f);
  CHECK(prac12_host_memory_ok(3ULL << 30, "x", path, msg, sizeof(msg)) && msg[0] == '\0');
  CHECK(!prac12_host_memory_ok((3ULL << 30) + 1, "the data and its gold", path, msg, sizeof(msg)));
  CHECK(strstr(msg, "host memory for the data and its gold: 3.00 GiB needed, 3.00 GiB available (MemAvailable in") !=
        NULL);
  f = fopen(path, "w");
  fputs("MemTotal:       16777216 kB\n", f); // no MemAvailable: it cannot tell, so the run goes on
  fclose(f);
  CHECK(prac12_host_memory_ok(1ULL << 62, "x", path, msg, sizeof(msg)));
  unlink(path);
  CHECK(prac12_host_memory_ok(1ULL << 62, "x", path, msg, sizeof(msg))); // no file: the same
  // this machine's own: a byte fits, 2^62 bytes do not (where it has the line)
  CHECK(prac12_host_memory_ok(1, "x", "/proc/meminfo", msg, sizeof(msg)));
  FILE *p = fopen("/proc/meminfo", "r");
  if (p != NULL) {
    char text[16384];
    text[fread(text, 1, sizeof(text) - 1, p)] = '\0';
    fclose(p);
    if (prac12_meminfo_available(text) >= 0) CHECK(!prac12_host_memory_ok(1ULL << 62, "x", "/proc/meminfo", msg, 300));
  }
}

// ---- graphs.cu's arithmetic (../prac12/graphs.cuh) ----------------------------------------------------------------

TEST(graphs_counts_are_powers_of_ten_then_the_largest) {
  int c[GR_COUNTS_MAX + 1], m = gr_counts(GR_KERNELS_MAX, c);
  CHECK(m == 5 && c[0] == 1 && c[1] == 10 && c[2] == 100 && c[3] == 1000 && c[4] == 10000);
  CHECK(gr_counts(1, c) == 1 && c[0] == 1);
  CHECK(gr_counts(10, c) == 2 && c[0] == 1 && c[1] == 10);
  CHECK(gr_counts(37, c) == 3 && c[2] == 37);
  for (int max = 1; max <= GR_KERNELS_MAX; max++) { // increasing, ending at max, never more than the array holds
    m = gr_counts(max, c);
    CHECK(m >= 1 && m <= GR_COUNTS_MAX && c[m - 1] == max);
    for (int i = 1; i < m; i++) CHECK(c[i] > c[i - 1] && c[i - 1] == (i == 1 ? 1 : 10 * c[i - 2]));
  }
}

// the kernels, run on the CPU in an order: order[j] is the j-th kernel to run, from a poisoned array
static void run_kernels(long long *x, int n, int dep, long long off, const int *order, int nrun) {
  memset(x, GR_POISON_BYTE, (size_t)n * sizeof(long long));
  for (int j = 0; j < nrun; j++) {
    int k = order ? order[j] : j;
    x[k] = (dep && k > 0 ? x[k - 1] : 0) + k + off; // GPU_add
  }
}

TEST(graphs_gold_is_the_kernels_in_order) {
  static long long x[GR_KERNELS_MAX];
  long long first, offs[] = {0, 1, 7, 1000, GR_OFFSET_MAX};
  long long p;
  memset(&p, GR_POISON_BYTE, sizeof(p));
  CHECK(p == GR_POISON && p < -9000000000000000000LL);
  for (int o = 0; o < 5; o++)
    for (int dep = 0; dep < 2; dep++) {
      run_kernels(x, GR_KERNELS_MAX, dep, offs[o], NULL, GR_KERNELS_MAX);
      CHECK(gr_check(x, GR_KERNELS_MAX, dep, offs[o], &first) == 0 && first == -1);
      for (int k = 0; k < GR_KERNELS_MAX; k++) CHECK(x[k] >= 0 && x[k] < (1LL << 36)); // exact, never negative
    }
}

TEST(graphs_poison_missing_kernels_order_and_stale_offsets_fail) {
  static long long x[GR_KERNELS_MAX];
  static int order[GR_KERNELS_MAX];
  long long first;
  int n = 1000;
  for (int dep = 0; dep < 2; dep++) {
    run_kernels(x, n, dep, 7, NULL, 0); // no kernel ran: every slot fails
    CHECK(gr_check(x, n, dep, 7, &first) == (size_t)n && first == 0);
    run_kernels(x, n, dep, 7, NULL, n - 1); // the last kernel missing
    CHECK(gr_check(x, n, dep, 7, &first) == 1 && first == n - 1);
    for (long long off = 1; off <= 3; off++) { // an update not applied: the old offset's values fail in every slot
      run_kernels(x, n, dep, off - 1, NULL, n);
      CHECK(gr_check(x, n, dep, off, &first) == (size_t)n);
    }
  }
  // the chain out of order: kernel j runs before kernel j-1, reads the poison, and slots j onward fail (j's kernel
  // read poison; the later ones read j's wrong value)
  for (int j = 1; j < n; j += 111) {
    for (int k = 0; k < n; k++) order[k] = k;
    order[j - 1] = j, order[j] = j - 1;
    run_kernels(x, n, 1, 7, order, n);
    CHECK(gr_check(x, n, 1, 7, &first) >= 1 && first == j);
    CHECK(x[j] < 0); // the poison plus k + off: still far below any right value
  }
}

TEST(graphs_edges_are_the_streams_order) {
  // brute force: kernel k in branch k % b; an edge for each kernel after an earlier one in its branch
  for (int b = 1; b <= GR_BRANCHES_MAX; b++)
    for (int n = 1; n <= 100; n++) {
      size_t edges = 0;
      for (int k = 0; k < n; k++) edges += k >= b;
      CHECK(gr_edges(n, 0, b) == edges);
      CHECK(gr_edges(n, 1, b) == (size_t)(n - 1));
    }
  CHECK(gr_edges(GR_KERNELS_MAX, 0, 4) == GR_KERNELS_MAX - 4);
}

TEST(graphs_lcg_skip_ahead_is_the_loop) {
  for (long long iters = 0; iters <= 300; iters++) {
    gr_affine s = gr_lcg_steps(iters);
    for (unsigned long long i = 0; i < 2000; i += 333) {
      unsigned long long v = i;
      for (long long k = 0; k < iters; k++) v = v * GR_LCG_A + GR_LCG_C;
      CHECK(s.a * i + s.c == v);
    }
  }
  unsigned long long v = 12345; // the priority part's defaults and most: 20000 and 10^6 steps
  for (long long k = 1; k <= 1000000; k++) {
    v = v * GR_LCG_A + GR_LCG_C;
    if (k == 20000 || k == 1000000) {
      gr_affine s = gr_lcg_steps(k);
      CHECK(s.a * 12345ULL + s.c == v);
    }
  }
}

TEST(graphs_pool_kernel_gold) {
  static long long p[600];
  for (size_t words = 1; words <= 600; words++)
    for (int i = 0; i < 1000; i += 999) { // GPU_use with its 256 threads, then thread 0's read
      for (size_t t = 0; t < 256 && t < words; t++)
        p[t] = i + (long long)t, p[words - 1 - t] = i + (long long)(words - 1 - t);
      CHECK(p[0] + p[words - 1] == gr_use_gold(i, words));
    }
}

// the median run of the workbook's versions: the middle time, whatever the order, ties and even counts included
static int median_index_is_the_middle_run(void) {
  double a[5] = {3, 1, 5, 2, 4}, b[5] = {2, 2, 2, 2, 2}, c[5] = {9, 1, 1, 9, 5}, d[4] = {4, 1, 3, 2}, e[1] = {7};
  int ok = ws2_median_index(a, 5) == 0 && ws2_median_index(b, 5) == 0 && ws2_median_index(c, 5) == 4;
  ok = ok && ws2_median_index(d, 4) == 3 && ws2_median_index(e, 1) == 0;
  double f[5] = {1, 9, 9, 9, 2}; // the median 9, first at index 1
  return ok && ws2_median_index(f, 5) == 1;
}

int main(void) {
  RUN(inputs_are_the_course_s);
  RUN(gold_steps_are_do_work_s);
  RUN(fixed_point_after_200_steps);
  RUN(tolerance_covers_the_worst_gpu);
  RUN(unreached_values_and_wrong_step_counts_fail);
  RUN(compare_nan_inf_and_the_tolerance_s_edge);
  RUN(chunks_cover_the_array_in_whole_blocks);
  RUN(chunks_that_do_not_fit_are_bad_input);
  RUN(gate_is_settled_once);
  RUN(gate_is_left_out_under_launch_blocking);
  RUN(bounds_from_the_whole_array);
  RUN(both_ways_rate_while_both_ran);
  RUN(median_index_is_the_middle_run);
  RUN(host_memory_from_meminfo);
  RUN(graphs_counts_are_powers_of_ten_then_the_largest);
  RUN(graphs_gold_is_the_kernels_in_order);
  RUN(graphs_poison_missing_kernels_order_and_stale_offsets_fail);
  RUN(graphs_edges_are_the_streams_order);
  RUN(graphs_lcg_skip_ahead_is_the_loop);
  RUN(graphs_pool_kernel_gold);
  return test_summary();
}
