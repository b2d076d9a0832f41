/*
 * work_streaming2.cuh -- practical 12, step 2: the arithmetic of work_streaming2.cu, plain C (header only), so that
 * tests/test_prac12.c checks it with gcc and no GPU: how the array is cut into chunks of whole blocks, the flags'
 * limits, the gate, the exercise's check that the chunk loop queues its copies and returns (and when it cannot
 * tell), and the bounds the chunked time is held against: prac11's pipe_bound (../prac11/pipeline.cuh), fed from
 * whole-array measurements.
 */
#ifndef WORK_STREAMING2_CUH
#define WORK_STREAMING2_CUH

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../prac11/pipeline.cuh" /* pipe_bound: a pipeline's bounds from one chunk's stage times */

#define WS2_BLOCK 256       /* the course's threads per block; a chunk is whole blocks of them */
#define WS2_N_MAX (1 << 29) /* doubles at most, 4 GiB: the course's int indexes stay below 2^31 */
#define WS2_CHUNKS_MAX 8192 /* chunks at most: 128 KiB each at the default size, where set-up costs rule */
#define WS2_STREAMS_MAX 128 /* streams at most (the GPU has 8 hardware queues by default, up to 32) */
#define WS2_GATE_CHUNKS                                                                                   \
  16                       /* chunks the gate's loop queues at most: far below the thousand or so pending \
                              calls after which a launch waits for room, not for the GPU's work */
#define WS2_GATE_MS 5000.0 /* how long the hold waits for the loop to return before it gives up */

/* Chunk i: doubles first .. first+count-1, which the kernel's blocks block0 .. block0+nblocks-1 cover (the
 * course's launch: do_work<<<nblocks, 256>>>(..., idx = block0), each thread at 256 (idx + blockIdx.x) +
 * threadIdx.x, the last block cut short by the kernel's i < N). */
typedef struct {
  long long first, count;
  int block0, nblocks;
} ws2_chunk;

static inline int ws2_blocks(int n) { return (n - 1) / WS2_BLOCK + 1; }

/* The blocks of an array of n doubles split into chunks as evenly as they go: the first (blocks % chunks) chunks
 * have a block more. So every chunk has a block at least (chunks <= blocks: ws2_chunks_fit), the chunks differ by a
 * block at most, and the last, which also holds the array's part-empty block, is the smallest: its times, chunks
 * times over, bound the time of them all. With the course's n = 2^27 and 8 chunks: 2^16 blocks each, block0 =
 * i 2^16, as its idx = i nblocks. */
static inline ws2_chunk ws2_chunk_of(int n, int chunks, int i) {
  int nb = ws2_blocks(n), q = nb / chunks, r = nb % chunks;
  ws2_chunk c;
  c.block0 = i * q + (i < r ? i : r);
  c.nblocks = q + (i < r ? 1 : 0);
  c.first = (long long)c.block0 * WS2_BLOCK;
  long long end = (long long)(c.block0 + c.nblocks) * WS2_BLOCK;
  c.count = (end < n ? end : n) - c.first;
  return c;
}

/* 1 when n doubles can make chunks chunks of a block at least; else 0, with why the flags are bad in msg */
static inline int ws2_chunks_fit(int n, int chunks, char *msg, size_t len) {
  if (chunks <= ws2_blocks(n)) return 1;
  snprintf(msg, len,
           "-chunks=%d: more chunks than the %d block%s of %d doubles that -n=%d makes (a chunk is whole "
           "blocks): give -chunks=1 to %d",
           chunks, ws2_blocks(n), ws2_blocks(n) == 1 ? "" : "s", WS2_BLOCK, n, ws2_blocks(n));
  return 0;
}

/*
 * The gate: is the chunk loop asynchronous? Checked by what the loop waits for, not by its time. A host function,
 * the hold, goes first in the streams (cudaLaunchHostFunc) and keeps them from running anything until the host
 * opens the gate, which it does as soon as the loop has returned. A loop that only queues work returns while the
 * GPU is held: WS2_GATE_OPENED. A copy that waits for the GPU (cudaMemcpy, or cudaMemcpyAsync to or from pageable
 * memory) waits for the hold, which gives up after limit_ms: WS2_GATE_TIMED_OUT. Whichever settles the gate first
 * decides (a compare-and-swap), so the two cannot both happen.
 */
enum { WS2_GATE_SHUT, WS2_GATE_OPENED, WS2_GATE_TIMED_OUT };
typedef struct {
  int state;       /* WS2_GATE_SHUT until settled */
  double limit_ms; /* the hold gives up after this */
} ws2_gate;

/* Settles the gate as `to` unless it is settled already; returns the state it is left in */
static inline int ws2_gate_settle(ws2_gate *g, int to) {
  int shut = WS2_GATE_SHUT;
  __atomic_compare_exchange_n(&g->state, &shut, to, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  return __atomic_load_n(&g->state, __ATOMIC_ACQUIRE);
}

static inline double ws2_monotonic_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* The hold, a cudaHostFn_t (the driver runs it in the stream; it makes no CUDA call): returns once the gate is
 * settled, looking every 0.1 ms, and settles it as timed out after limit_ms */
static inline void ws2_gate_hold(void *arg) {
  ws2_gate *g = (ws2_gate *)arg;
  double t0 = ws2_monotonic_ms();
  struct timespec nap = {0, 100000};
  while (__atomic_load_n(&g->state, __ATOMIC_ACQUIRE) == WS2_GATE_SHUT) {
    if (ws2_monotonic_ms() - t0 > g->limit_ms)
      ws2_gate_settle(g, WS2_GATE_TIMED_OUT);
    else
      nanosleep(&nap, NULL);
  }
}

/* CUDA_LAUNCH_BLOCKING set (to anything but 0) makes every launch and copy wait for its work, by design: the gate
 * would wait out its limit and fail a loop that only queues. v: the variable's value (NULL: unset) */
static inline int ws2_launch_blocking(const char *v) { return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0; }

/* the index of the median of t[0 .. n-1] (n odd; the lower median for n even): the run whose time is shown, so that
 * its stop and its streams' end are that run's too. Ties go to the earliest run */
static inline int ws2_median_index(const double *t, int n) {
  for (int i = 0; i < n; i++) {
    int place = 0; // i's place in a stable sort: the times below it, and the equal ones before it
    for (int j = 0; j < n; j++) place += t[j] < t[i] || (j < i && t[j] == t[i]);
    if (place == (n - 1) / 2) return i;
  }
  return 0;
}

/*
 * The bounds (pipe_bound's: naive, link, fill and drain) from measurements of the whole array, not of one chunk. A
 * chunk's copies and kernel timed alone each carry a call's fixed cost, and a pair of copies forked into two streams
 * and joined back pays its events too: at thousands of chunks, chunks x them could exceed what the chunks cost side
 * by side, and the "bound" be beaten. So: the whole array copied in, and copied out (in_ms, out_ms); half of it in
 * and the other half out at once, in two streams (both_ms for both_each doubles each way; 0: not measured, n = 1);
 * the kernel on the whole array (k_ms). Each is scaled to the smallest chunk, the last, of count doubles, so that
 * pipe_bound's "chunks x a chunk's time" is at most the whole array's. What this assumes: the copies of one direction
 * go no faster side by side, in several streams, than one copy of the whole array (one copy reaches the link's
 * rate); in and out at once no faster than the two halves measured; and the chunks' kernels, side by side, no faster
 * than one kernel on the whole array (the same blocks, which one grid schedules as well as many).
 */
static inline pipe_bounds ws2_bound(int n, int chunks, long long count, double in_ms, double k_ms, double out_ms,
                                    double both_ms, long long both_each) {
  double f = (double)count / n; /* the chunk's share of the array */
  /* n = 1: one chunk, whose copy out cannot start before its copy in ends */
  double both = both_each > 0 ? both_ms * (double)count / (double)both_each : (in_ms + out_ms) * f;
  return pipe_bound(chunks, in_ms * f, k_ms * f, out_ms * f, both);
}

/*
 * The both-ways rate while both directions ran. Two copies, in and out, started together and timed from that start
 * to each one's end: bytes[k] in t[k] ms (k = 0 in, 1 out). The whole run's bytes over its whole time read low: once
 * the first copy ends, the other runs alone for the rest, at its rate alone. So that tail is taken off: the other
 * copy moved alone[k] GB/s (its rate measured alone) from the first's end to its own, and the rest of its bytes while
 * both ran. r[k]: each direction's rate while both ran, GB/s (0 when the tail at the rate alone would account for
 * all of its bytes: then the rate alone was measured faster than this run went)
 */
static inline void ws2_both_rates(const double bytes[2], const double t[2], const double alone[2], double r[2]) {
  int f = t[0] <= t[1] ? 0 : 1, s = 1 - f;      /* the first to end, and the other */
  double tail = alone[s] * 1e6 * (t[s] - t[f]); /* GB/s x ms x 1e6: the bytes the other moved alone */
  double rest = bytes[s] - tail;
  r[f] = bytes[f] / (t[f] * 1e6);
  r[s] = rest > 0 ? rest / (t[f] * 1e6) : 0.0;
}

/* The copy rates' table: rate[pinned][out][whole array] in GB/s, each the median of reps, one chunk (chunk_bytes)
 * or the whole array (bytes) */
static inline void ws2_print_rates(int reps, double chunk_bytes, double bytes, double rate[2][2][2]) {
  char col[2][64];
  snprintf(col[0], sizeof(col[0]), "one chunk (%.2f MiB)", chunk_bytes / 1048576.0);
  snprintf(col[1], sizeof(col[1]), "the whole array (%.2f MiB)", bytes / 1048576.0);
  printf("copy rates in GB/s (median of %d) %26s %30s\n", reps, col[0], col[1]);
  const char *row[2][2] = {{"pageable (malloc), in", "pageable (malloc), out"},
                           {"pinned (h_data), in", "pinned (h_data), out"}};
  for (int p = 0; p < 2; p++)
    for (int out = 0; out < 2; out++) printf("  %-30s %26.1f %30.1f\n", row[p][out], rate[p][out][0], rate[p][out][1]);
}

/* The bounds' lines: the whole-array measurements (pinned host memory, each the median of reps) and what they
 * bound, ws2_bound's bd */
static inline void ws2_print_bounds(int chunks, double bytes, int reps, double in_ms, double out_ms, double both_ms,
                                    double both_bytes, const double both_r[2], double first_ms, double k_ms,
                                    pipe_bounds bd, int copy_engines) {
  printf("the bounds, from the whole array in pinned host memory (median of %d; the GPU's copy engines: %d):\n", reps,
         copy_engines);
  printf("  copy in                  %9.4f ms  %6.1f GB/s\n", in_ms, bytes / (in_ms * 1e6));
  printf("  copy out                 %9.4f ms  %6.1f GB/s\n", out_ms, bytes / (out_ms * 1e6));
  if (both_bytes > 0) {
    printf("  half in, half out at once %8.4f ms  %6.1f GB/s both ways together (two streams)\n", both_ms,
           both_bytes / (both_ms * 1e6));
    printf("  while both ran (the first ended at %.4f ms; the other's tail taken off at its rate alone): in %.1f + "
           "out %.1f = %.1f GB/s\n",
           first_ms, both_r[0], both_r[1], both_r[0] + both_r[1]);
  }
  printf("  kernel                   %9.4f ms\n", k_ms);
  printf("bound: naive max(in, kernel, out) = %.3f ms; link (bytes in + out) / the rate while both ran = %.3f ms; the "
         "bound %.3f ms (%s); with the fill and drain no schedule avoids (%d chunks; at these measured rates), "
         "%.3f ms\n",
         bd.naive_ms, bd.link_ms, bd.bound_ms, bd.limit, chunks, bd.fill_ms);
}

/* The versions' table: name[0] the course's run (once), name[1] the chunked one again, name[3] pageable (reps runs
 * each, the median); % of the bound and of the fill bound for the chunked ones; a line when a run beats its bound (a
 * bound from rates measured slower than the link ran); the gain split into pinned memory and overlap */
static inline void ws2_print_versions(const char *const name[4], const double ms[4], int reps, pipe_bounds bd) {
  printf("%-58s %10s %11s %11s %11s\n", "the same work", "ms", "x pageable", "% of bound", "% of fill");
  for (int v = 0; v < 4; v++) {
    char pb[32] = "-", pf[32] = "-", label[80];
    if (v <= 1) snprintf(pb, sizeof(pb), "%.1f", 100.0 * ms[v] / bd.bound_ms);
    if (v <= 1) snprintf(pf, sizeof(pf), "%.1f", 100.0 * ms[v] / bd.fill_ms);
    snprintf(label, sizeof(label), v ? "%s, median of %d" : "%s", name[v], reps);
    printf("%-58s %10.3f %11.2f %11s %11s\n", label, ms[v], ms[3] / ms[v], pb, pf);
  }
  if (ms[0] < bd.bound_ms || ms[1] < bd.bound_ms)
    printf("below 100 %% of the bound: the chunks moved faster than the copies that measured the rates (the "
           "rates are medians of runs that vary, and the chunks' copies may overlap better than two whole halves: "
           "docs/prac12.md, the bound); the bound holds at the measured rates only\n");
  printf("the gain, x%.2f in all (work_streaming's time over the chunked one): x%.2f from pinned memory (not "
         "chunked: pageable over pinned), x%.2f from the overlap (pinned: not chunked over chunked)\n",
         ms[3] / ms[1], ms[3] / ms[2], ms[2] / ms[1]);
}

#endif /* WORK_STREAMING2_CUH */
