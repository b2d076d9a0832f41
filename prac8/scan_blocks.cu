/*
 * scan_blocks.cu -- practical 8, steps 3 to 5: an exclusive scan of any number of elements with many thread
 * blocks, both ways of lecture 4, and CUB's scan beside them on the same arrays. One step a file:
 *   -kernel=0  cub::DeviceScan::ExclusiveSum; -bench times it with an int and a long long count, the faster
 *              is the peer; temporary storage allocated once                           scans/s0_cub.cuh
 *   -kernel=1  scan_three (step 3): three kernels, the tile totals scanned recursively  scans/s1_three.cuh
 *   -kernel=2  scan_lookback (step 4): one kernel, an atomic ticket, decoupled look-back scans/s2_lookback.cuh
 *              -walk=warp (the default, step 4b): warp 0 looks back 32 tiles per round;
 *              -walk=lane (step 4a, the stepping stone): lane 0 alone walks back one tile at a time
 *   -kernel=3  scan_lookback_fixed (step 4, deterministic): the same kernel with a look-back that adds the
 *              same values in the same order on every run                               scans/s3_lookback_fixed.cuh
 * Kernels 2 and 3 are one kernel (scans/scan_lookback.cuh: the tile in shared memory, step 5's prefetch into
 * L2); every step shares step 3's tile and warp scans (scans/scan_common.cuh) and the look-back's status
 * words (scans/lookback_status.cuh). Default: all four, each checked against scan_gold.
 *
 * Inputs: whole-number floats whose total stays below 2^24 (every partial sum exact: checked bit for bit),
 * -int (ints, exact), or -random (floats in [0,1): a tolerance from N, and first differences; scans/scan_check.h).
 * -repeat=K runs the look-back kernels (2 and 3, or the one chosen) K times and compares every output with the
 * first, bit for bit. -bench times all four methods against a device-to-device copy of the same bytes, in this
 * run, and checks what each one's timed runs left. -fault=lost_tile builds in a deliberate bug (kernels 2 and
 * 3: one tile's total never reaches the tiles after it) that the checks must catch: the run must FAIL.
 * Built with -DEXERCISE (make exercises: ./exercises/scan_blocks), step 4 is exercises/s2_lookback.cuh: its
 * TODO(step 4a) first, run with -kernel=2 -walk=lane until it passes, then its TODO(step 4b), without -walk.
 *   nvcc -O3 -arch=native -I../common scan_blocks.cu prac8_gold.c -o scan_blocks
 */
#define COURSE_STEPS "practical 8, workbook steps 3-5 (course step (2) is steps 3-4; step 5 is beyond the course)"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// step 4 first: with -DEXERCISE the learner's file, whose EXERCISE_TODO the verdict line quotes (so it must
// come before gold_check.h)
#ifdef EXERCISE
#include "exercises/s2_lookback.cuh"
#else
#include "scans/s2_lookback.cuh"
#endif

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "ladder.h"
#include "timing.h"

#include "prac8_gold.h"

#include "scans/scan_common.cuh"
#include "scans/s0_cub.cuh"
#include "scans/s1_three.cuh"
#include "scans/s3_lookback_fixed.cuh"
#include "scans/scan_lookback.cuh"
#include "scans/scan_check.h"

// the largest N: 2^29 elements (2 GiB an array; the gold needs 4 GiB more on the host)
#define MAX_N (1LL << 29)
static_assert(MAX_N <= 2147483647LL, "CUB's int call (scans/s0_cub.cuh) must take every N");

// (-walk=lane puts step 4a's one-lane walk, scan_lookback_lane, in kernel 2's place; 4, CUB's int call: -bench)
static const char *method_name[5] = {"cub_scan", "scan_three", "scan_lookback", "scan_lookback_fixed", "cub_scan_int"};
static timed_fn method_fn[5] = {run_cub, run_three, run_lookback, run_lookback_fixed, run_cub_int};

// has a look-back given up waiting (SPIN_LIMIT)?
static int lookback_gave_up(const scan_plan *p) {
  int err = 0;
  checkCudaErrors(cudaMemcpy(&err, p->d_error, sizeof(int), cudaMemcpyDeviceToHost));
  return err;
}

// -bench, through common/ladder.h: each method's verdict on its first call (the bench runs only once all
// passed), and what its timed runs left, checked the same way. The ladder's step k is method[k]: CUB's two
// calls first, then the faster of them stays as step 0, the peer, and the other leaves the table
typedef struct {
  scan_plan *p;
  scan_oracle *o;
  int first_ok[5];
  int method[5];
} scan_bench;
static int first_verdict(void *ctx, int k) { return ((scan_bench *)ctx)->first_ok[((scan_bench *)ctx)->method[k]]; }
// what the last timed run left, against the gold; then poisoned, so that a step whose timed runs wrote nothing
// cannot pass on the output of the step before
static int recheck_timed(void *ctx, int k) {
  scan_bench *b = (scan_bench *)ctx;
  char name[64];
  int m = b->method[k];
  snprintf(name, sizeof(name), "%s (after the timed runs)", method_name[m]);
  int ok = scan_check_output(b->o, b->p->d_out, m == 3, name, -1.0);
  checkCudaErrors(cudaMemset(b->p->d_out, 0xff, b->p->n * 4));
  return ok;
}
static void run_method(void *ctx, int k) { method_fn[((scan_bench *)ctx)->method[k]](((scan_bench *)ctx)->p); }
// prog=cub_scan is the peer (step 0) whichever count won: offset= says which
static void bench_keys(void *ctx, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra) {
  const scan_bench *b = (const scan_bench *)ctx;
  int len = snprintf(extra, nextra, "type=%s x_cub=%.3f", b->p->is_int ? "int" : "float", ms[0] / ms[k]);
  snprintf(prog, nprog, "%s", method_name[k == 0 ? 0 : b->method[k]]);
  if (k == 0) snprintf(extra + len, nextra - len, " offset=%d", b->method[0] == 4 ? 32 : 64);
}

int main(int argc, char **argv) {
  long long n = 1 << 24;
  int kernel = -1, use_int = 0, random = 0, repeat = 0, bench = 0, reps = 20, seed = 1, ahead = -1;
  const char *walk = "warp", *fault = "none";
  arg_spec opts[] = {
      {"n", ARG_LONG, &n, 1, (double)MAX_N, "number of elements"},
      {"kernel", ARG_INT, &kernel, -1, 3, "0 CUB, 1 three kernels, 2 look-back, 3 fixed look-back; -1 all four"},
      {"walk", ARG_WORD, &walk, 0, 0,
       "kernel 2's look-back (step 4): warp, 32 tiles a round (4b), or lane, one tile at a time (4a)"},
      {"int", ARG_FLAG, &use_int, 0, 1, "scan ints instead of whole-number floats"},
      {"random", ARG_FLAG, &random, 0, 1, "random floats in [0,1) (checked to a tolerance) instead"},
      {"repeat", ARG_INT, &repeat, 0, 1000, "run the look-back kernel(s) this many times more: identical output?"},
      {"bench", ARG_FLAG, &bench, 0, 1,
       "time each method (CUB with an int and a long long count, the faster the peer) and a copy; BENCH lines"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is used)"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed of the input"},
      {"ahead", ARG_INT, &ahead, -1, 1 << 20, "kernels 2, 3: tiles prefetched ahead into L2 (-1: an eighth of L2)"},
      {"fault", ARG_WORD, &fault, 0, 0, "a deliberate bug to catch: lost_tile (kernels 2, 3: a tile's total lost)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if (use_int && random) args_fail("-int and -random exclude each other");
  int lane_walk = strcmp(walk, "lane") == 0;
  if (!lane_walk && strcmp(walk, "warp") != 0) args_fail("-walk=%s: kernel 2's walks back are warp and lane", walk);
  if (args_given(argc, argv, "walk") && kernel != 2) args_fail("-walk=%s is kernel 2's look-back: add -kernel=2", walk);
  if (lane_walk) method_name[2] = "scan_lookback_lane", method_fn[2] = run_lookback_lane; // step 4a
  int lost_tile = strcmp(fault, "lost_tile") == 0;
  if (!lost_tile && strcmp(fault, "none") != 0) args_fail("-fault=%s: the deliberate bug here is lost_tile", fault);
  if (lost_tile && kernel != 2 && kernel != 3) args_fail("-fault=lost_tile is a look-back's: add -kernel=2 or 3");
  if (lost_tile && num_lb_tiles((size_t)n) < 3) // the middle tile must have tiles after it that would miss it
    args_fail("-fault=lost_tile needs 3 tiles or more: -n=%lld is %u of %d", n, num_lb_tiles((size_t)n), LB_TILE);
  int dev = findCudaDevice(argc, argv);

  size_t N = (size_t)n, bytes = N * 4;
  unsigned nb = num_tiles(N);
  device_memory_check(2 * bytes + bytes / 1000 + (bench ? 2 * bytes : 0) + (64 << 20),
                      bench ? "in, out, the copy test's buffers and the workspace" : "in, out and the workspace",
                      args_given(argc, argv, "n"));
  printf("Scan of %zu %s: %u tiles of %d (kernel 1), %u of %d (kernels 2 and 3)\n", N,
         use_int ? "ints" : random ? "random floats" : "whole-number floats", nb, SCAN_TILE, num_lb_tiles(N), LB_TILE);

  // the input, and the gold
  void *h_in = malloc(bytes), *h_out = malloc(bytes), *h_first = repeat ? malloc(bytes) : NULL;
  void *h_gold = malloc(use_int ? bytes : N * sizeof(double));
  if (!h_in || !h_out || !h_gold || (repeat && !h_first)) return result_fail("out of host memory");
  if (use_int) { // 0..k with k * N < 2^31: no partial sum overflows
    unsigned k = (unsigned)((2147483647LL / n) < 1000 ? 2147483647LL / n : 1000);
    for (size_t i = 0; i < N; i++) ((int *)h_in)[i] = (int)(prac8_hash(i, seed) % (k + 1));
  } else if (random) { // multiples of 2^-24 in [0,1)
    for (size_t i = 0; i < N; i++) ((float *)h_in)[i] = (float)(prac8_hash(i, seed) >> 8) * (1.0f / 16777216.0f);
  } else { // whole numbers with a total below 2^24: 0..k with k * N < 2^24, or 0/1 with 1 about 2^23 / N of the time
    long long k = ((1LL << 24) - 1) / n;
    // (needed only when k = 0, that is n >= 2^24, where it is below 2^32: a larger double cast to unsigned is UB)
    unsigned threshold = (k >= 1) ? 0u : (unsigned)((double)(1u << 23) / (double)n * 4294967296.0);
    double total = 0.0;
    for (size_t i = 0; i < N; i++) {
      unsigned h = prac8_hash(i, seed);
      float v = (k >= 1) ? (float)(h % ((k < 1000 ? k : 1000) + 1)) : (h < threshold ? 1.0f : 0.0f);
      ((float *)h_in)[i] = v;
      total += v;
    }
    if (total >= 16777216.0) return result_fail("the input's total %.0f is not below 2^24: try another -seed", total);
  }
  double t0 = wall_ms();
  if (use_int)
    scan_gold_int((int *)h_gold, (const int *)h_in, N);
  else
    scan_gold((double *)h_gold, (const float *)h_in, N);
  printf("scan_gold: %.1f ms\n", wall_ms() - t0);

  // the tolerances (scans/scan_check.h): 0 for whole numbers and ints; random floats, from the depth of the sums
  scan_oracle o = {N, use_int, random, h_in, h_gold, h_out, 0.0, 0.0, 0, 0};
  if (random) scan_tolerances(N, &o.rtol, &o.rtol_fixed);

  // device arrays and the workspace of each method, made once
  scan_plan p;
  memset(&p, 0, sizeof(p));
  p.n = N;
  p.is_int = use_int;
  if (ahead < 0) { // an eighth of L2 ahead (step 5: 274 tiles of 28 KB on an H200's 60 MB, 228 on an H100's 50 MB)
    ahead = (int)(l2_cache_bytes(dev) / 8 / (LB_TILE * 4));
  }
  p.ahead = (unsigned)ahead;
  p.fault_tile = lost_tile ? (int)(num_lb_tiles(N) / 2) : -1; // -fault=lost_tile: the middle tile
  checkCudaErrors(cudaMalloc(&p.d_in, bytes));
  checkCudaErrors(cudaMalloc(&p.d_out, bytes));
  checkCudaErrors(cudaMemcpy(p.d_in, h_in, bytes, cudaMemcpyHostToDevice));
  size_t m = N;
  for (int level = 0; num_tiles(m) > 1; level++) { // step 3: one array of tile totals per level
    m = num_tiles(m);
    checkCudaErrors(cudaMalloc(&p.d_sums[level], m * 4));
  }
  checkCudaErrors(cudaMalloc((void **)&p.d_ticket, sizeof(unsigned)));
  checkCudaErrors(cudaMemset(p.d_ticket, 0, sizeof(unsigned)));
  size_t nwords = status_words(num_lb_tiles(N)); // step 4's status words
  checkCudaErrors(cudaMalloc((void **)&p.d_status, sizeof(unsigned long long) * nwords));
  checkCudaErrors(cudaMemset(p.d_status, 0, sizeof(unsigned long long) * nwords)); // epoch 0: nothing published
  checkCudaErrors(cudaMalloc((void **)&p.d_error, sizeof(int)));
  checkCudaErrors(cudaMemset(p.d_error, 0, sizeof(int)));
  p.cub_temp_bytes = cub_temp_size(&p); // CUB's two calls, asked for their sizes only: the larger, allocated once
  checkCudaErrors(cudaMalloc(&p.d_cub_temp, p.cub_temp_bytes));

  // each method on poisoned output, against the gold (-bench: all four, and CUB's int call)
  int first = (kernel < 0 || bench) ? 0 : kernel, last = bench ? 4 : (kernel < 0) ? 3 : kernel;
  scan_bench b = {&p, &o, {0, 0, 0, 0, 0}, {4, 0, 1, 2, 3}}; // (the ladder's order: CUB's int call first)
  for (int k = first; k <= last; k++) {
    checkCudaErrors(cudaMemset(p.d_out, 0xff, bytes)); // poison: NaN (floats), -1 (ints)
    event_timer t = event_timer_start();
    method_fn[k](&p);
    float ms = event_timer_stop(&t);
    if (lookback_gave_up(&p))
      return result_fail("%s: a look-back waited %d times for a tile that never published", method_name[k],
                         SPIN_LIMIT);
    b.first_ok[k] = scan_check_output(&o, p.d_out, k == 3, method_name[k], ms);
  }

  // step 4: the look-back kernels again and again; whatever order their blocks run in, the output must not
  // change where the arithmetic is exact. With -random the sum a tile gets from lookback() depends on how far
  // back it had to look (which tiles were P yet), so the last bit may differ between runs: counted, not
  // failed. lookback_fixed adds the same values in the same order every time: it must never differ.
  int differ[4] = {0, 0, 0, 0};
  for (int k = 2; k <= 3 && repeat; k++) {
    if (kernel >= 0 && kernel != k) continue;
    checkCudaErrors(cudaMemset(p.d_out, 0xff, bytes));
    method_fn[k](&p);
    checkCudaErrors(cudaMemcpy(h_first, p.d_out, bytes, cudaMemcpyDeviceToHost));
    for (int r = 0; r < repeat; r++) {
      checkCudaErrors(cudaMemset(p.d_out, 0xff, bytes));
      method_fn[k](&p);
      checkCudaErrors(cudaMemcpy(h_out, p.d_out, bytes, cudaMemcpyDeviceToHost));
      if (memcmp(h_out, h_first, bytes) != 0) differ[k]++;
    }
    if (lookback_gave_up(&p))
      return result_fail("%s: a look-back waited %d times for a tile that never published", method_name[k],
                         SPIN_LIMIT);
    printf("%s repeated %d more times: %d output%s differ from the first%s\n", method_name[k], repeat, differ[k],
           differ[k] == 1 ? "" : "s", (random && k == 2) ? " (random floats: allowed, see the comment)" : "");
    char name[64];
    snprintf(name, sizeof(name), "%s (last repeat)", method_name[k]);
    scan_check_output(&o, p.d_out, k == 3, name, -1.0);
  }
  int differ_bad = (differ[2] && !random) || differ[3]; // repeats that must be identical and were not

  // step 5: each method against the copy and against CUB, on the same arrays
  if (bench && o.nbad == 0 && o.nbad_fd == 0 && !differ_bad) {
    double moved = 2.0 * (double)bytes; // read once, written once: what a copy of the array moves
    bench_ref ref = bench_reference(dev, moved, reps);
    char size[32];
    snprintf(size, sizeof(size), "%zu", N);
    const char *names[5];
    for (int k = 0; k < 5; k++) names[k] = method_name[b.method[k]];
    ladder L;
    memset(&L, 0, sizeof(L));
    L.nsteps = 5, L.names = names, L.ctx = &b, L.check = first_verdict, L.recheck = recheck_timed;
    L.run = run_method;
    L.warmup = 3, L.reps = reps, L.bytes = moved, L.ref = &ref, L.prac = "8", L.size = size;
    L.bench_keys = bench_keys;
    double ms[5];
    int passed[5];
    checkCudaErrors(cudaMemset(p.d_out, 0xff, bytes)); // (see recheck_timed)
    ladder_check_and_time(&L, ms, passed);
    int peer = ms[1] < ms[0]; // CUB's faster call becomes step 0, cub_scan in the table; the other leaves it
    printf("CUB's peer: num_items %s, the faster call (an int: %.4f ms, a long long: %.4f ms)\n",
           peer ? "a long long, 64-bit offsets" : "an int, 32-bit offsets", ms[0], ms[1]);
    b.method[0] = b.method[peer], ms[0] = ms[peer];
    for (int k = 1; k < 4; k++) b.method[k] = b.method[k + 1], ms[k] = ms[k + 1];
    L.nsteps = 4;
    for (int k = 0; k <= 3; k++) { // the table: this program's own rows
      double GBps = moved / (ms[k] * 1e-3) / 1e9;
      printf("%-20s %.4f ms, %.1f GB/s = %.1f%% of the copy (%.1f GB/s), %.2fx CUB's speed\n",
             method_name[k == 0 ? 0 : b.method[k]], ms[k], GBps, 100.0 * GBps / ref.copy_GBps, ref.copy_GBps,
             ms[0] / ms[k]);
    }
    ladder_bench_lines(&L, ms);
    if (lookback_gave_up(&p))
      return result_fail("a look-back waited %d times for a tile that never published", SPIN_LIMIT);
  }

  checkCudaErrors(cudaFree(p.d_in));
  checkCudaErrors(cudaFree(p.d_out));
  for (int level = 0; level < 8; level++)
    if (p.d_sums[level]) checkCudaErrors(cudaFree(p.d_sums[level]));
  checkCudaErrors(cudaFree(p.d_ticket));
  checkCudaErrors(cudaFree(p.d_status));
  checkCudaErrors(cudaFree(p.d_error));
  checkCudaErrors(cudaFree(p.d_cub_temp));
  free(h_in);
  free(h_out);
  free(h_gold);
  free(h_first);

  if (differ_bad)
    return result_fail("%s: %d of %d repeated outputs differ from the first", differ[3] ? method_name[3] : method_name[2],
                       differ[3] ? differ[3] : differ[2], repeat);
  if (random)
    return result_check(o.nbad == 0 && o.nbad_fd == 0, "%zu values outside tolerance, %zu first differences outside "
                        "theirs (see above)", o.nbad, o.nbad_fd);
  return result_check(o.nbad == 0, "%zu values outside tolerance (see above)", o.nbad);
}
