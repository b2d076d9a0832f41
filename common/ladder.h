/*
 * ladder.h -- what every ladder runner needs and is not the lesson: check every step, time every step, one
 * table against the peer (step 0: the library, or the copy) and one BENCH line per step. The steps themselves
 * (one header per step: kernel, launcher, compile-time parameters) and the oracle stay in the practical.
 *
 * A runner fills one `ladder` and calls
 *   int ok = ladder_bench(&L, ms, passed);   // -bench: check each step, time each, print the table and BENCH
 * or checks one step itself with L.check(L.ctx, k). The table has one row per step:
 *   bytes > 0   "  k name        ms      GB/s   % copy   x PEER"   (bandwidth: the fewest bytes a step moves;
 *               % of the read-only stream instead of the copy when ref->read_only)
 *   flops > 0   "  k name        ms   TFLOP/s   % of PEER"         (arithmetic)
 * and every BENCH line is print_bench's (timing.h), with prog= and the extra keys the runner writes.
 *
 * Compiled by nvcc only (it times with CUDA events).
 */
#ifndef COMMON_LADDER_H
#define COMMON_LADDER_H

#include <stdio.h>

#include "timing.h"

#define LADDER_MAX_STEPS 16

typedef struct ladder {
  int nsteps;                 // steps 0 .. nsteps-1; step 0 is the peer every ratio is taken against
  const char *const *names;   // names[k]: the step's name in the table
  const int *numbers;         // the number printed for step k (NULL: k itself)
  int name_width;             // the name column's width in the table
  void *ctx;                  // the runner's own state, handed to every call below
  int (*check)(void *ctx, int k);  // step k on a poisoned output, against the oracle; prints one line; 1 = PASS
  void (*run)(void *ctx, int k);   // step k once, on the default stream: what is timed
  // after step k's timed runs: the output the last of them left, copied back once and compared with the
  // oracle, without running the step again. Back-to-back launches exercise what one checked launch does not
  // (tickets, epochs, workspaces reused from the call before), so a timed result is a checked result too.
  // Prints a line when it fails; 1 = PASS. Every runner sets it (NULL fails the step: see ladder_timed_check).
  int (*recheck)(void *ctx, int k);
  int warmup, reps;           // untimed runs, then timed runs (the median is reported)
  const int *step_reps;       // optional: timed runs for step k instead of reps (a slow step), 0 = reps
  // the table
  const char *header;         // the line above the rows (the runner's own wording)
  const char *peer;           // "CUB", "cuBLAS": the name in the last column
  double bytes;               // > 0: the fewest bytes a step must move, for GB/s and % of the copy
  double flops;               // > 0: the arithmetic, for TFLOP/s and % of the peer
  const bench_ref *ref;       // the copy, measured in the same run (with bytes > 0)
  int ratio_width;            // the width of the last column (x PEER) with bytes > 0
  // the BENCH lines
  const char *prac, *size;    // prac= and n=
  // prog= and the extra keys of step k's line, written by the runner into prog and extra
  void (*bench_keys)(void *ctx, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra);
  // optional: effective[k] = 1 where step k's bytes are what it would move done one sweep at a time, not what it
  // moves (temporal blocking): its BENCH line has GBps_effective and pct_copy_effective (print_bench_effective)
  const int *effective;
} ladder;

typedef struct {
  const ladder *L;
  int k;
} ladder_call;

static inline void ladder_run_step(void *p) {
  const ladder_call *c = (const ladder_call *)p;
  c->L->run(c->L->ctx, c->k);
}

static inline int ladder_reps(const ladder *L, int k) {
  return (L->step_reps && L->step_reps[k] > 0) ? L->step_reps[k] : L->reps;
}

// The output step k's timed runs left, against the oracle (L->recheck). A runner without one cannot say its
// timed runs were right, and that is a failure, not a pass.
static inline int ladder_timed_check(const ladder *L, int k) {
  if (L->recheck) return L->recheck(L->ctx, k);
  printf("  %s: the ladder has no recheck, so its timed runs are unchecked\n", L->names[k]);
  return 0;
}

// Step by step: checks step k (passed[k]), times it (ms[k], the median) and checks what its last timed run left,
// before the next step touches the arrays the steps share. Returns 1 when every step passed both checks.
static inline int ladder_check_and_time(const ladder *L, double *ms, int *passed) {
  int ok = 1;
  for (int k = 0; k < L->nsteps; k++) {
    passed[k] = L->check(L->ctx, k);
    ladder_call c = {L, k};
    ms[k] = time_median_ms(ladder_run_step, &c, L->warmup, ladder_reps(L, k));
    if (!ladder_timed_check(L, k)) passed[k] = 0;
    ok = ok && passed[k];
  }
  return ok;
}

// The table, one row per step; a step that failed its check says so in its row.
static inline void ladder_table(const ladder *L, const double *ms, const int *passed) {
  printf("%s\n", L->header);
  for (int k = 0; k < L->nsteps; k++) {
    int num = L->numbers ? L->numbers[k] : k;
    const char *failed = passed[k] ? "" : "  (FAILED its check)";
    if (L->bytes > 0) {
      double GBps = L->bytes / (ms[k] * 1e-3) / 1e9;
      printf("  %d %-*s %9.4f %9.1f %8.1f %*.3f%s\n", num, L->name_width, L->names[k], ms[k], GBps,
             100.0 * GBps / bench_ref_GBps(L->ref), L->ratio_width, ms[0] / ms[k], failed);
    } else {
      printf("  %d %-*s %9.3f %9.2f %10.1f%s\n", num, L->name_width, L->names[k], ms[k],
             L->flops / (ms[k] * 1e-3) / 1e12, 100.0 * ms[0] / ms[k], failed);
    }
  }
}

// One BENCH line per step.
static inline void ladder_bench_lines(const ladder *L, const double *ms) {
  for (int k = 0; k < L->nsteps; k++) {
    char prog[96], extra[160];
    extra[0] = '\0';
    L->bench_keys(L->ctx, k, ms, prog, sizeof(prog), extra, sizeof(extra));
    print_bench_line(L->prac, prog, L->size, ladder_reps(L, k), ms[k], L->bytes > 0 ? L->bytes : -1.0,
                     L->bytes > 0 ? L->ref : NULL, extra, L->effective && L->effective[k]);
  }
}

// -bench: all of the above. Returns 1 when every step passed its check.
static inline int ladder_bench(const ladder *L, double *ms, int *passed) {
  int ok = ladder_check_and_time(L, ms, passed);
  ladder_table(L, ms, passed);
  ladder_bench_lines(L, ms);
  return ok;
}

#endif /* COMMON_LADDER_H */
