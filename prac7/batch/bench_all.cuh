/*
 * batch/bench_all.cuh -- practical 7, step 10: trid_batch's timings of everything but the hybrid (its own
 * runner's code, not a step of the ladder): cuSPARSE's two calls, the peer chosen from them, GPU_pcr_block and
 * GPU_thomas_thread, each against the copy in the same run and each timed solution checked again. -bench runs
 * it at -solver=all (the default); -solver=hybrid, which practical 10's tuner asks for, leaves it out.
 */
#ifndef BATCH_BENCH_ALL_CUH
#define BATCH_BENCH_ALL_CUH

#include <stdio.h>

#include "batch/b0_cusparse.cuh"
#include "batch/b1_pcr_block.cuh"
#include "batch/b2_thomas_thread.cuh"
#include "batch/check.cuh"
#include "timing.h"

// what the hybrid's BENCH line is compared with: cuSPARSE's two times and the peer, the faster cuSPARSE call
// for a caller with the strided layout
typedef struct {
  float ms_strided, ms_inter, ms_peer; // gtsvInterleavedBatch without its transposes (ms_peer counts them)
  const char *peer;                    // strided or interleaved
} peer_times;

// The peer is the faster cuSPARSE call for a caller with the strided layout: gtsv2StridedBatch, or
// gtsvInterleavedBatch plus the transposes it needs (a, b, c, d in, x out); x_gtsv2 is the peer's time over a
// solver's, both for that caller. resid: the first checks' residuals of GPU_pcr_block, GPU_thomas_thread,
// gtsv2StridedBatch and gtsvInterleavedBatch
static peer_times bench_all(trid_args *t, lib_args *l, const host_sys *hs, const bench_ref *ref, const char *size,
                            int reps, double moved, const double resid[4], const char **timed_bad) {
  peer_times p;
  char extra[200];
  int n = t->n;
  l->x = t->x;
  float ms_reset = time_median_ms(lib_strided_reset, l, 3, reps);
  p.ms_strided = time_median_ms(lib_strided, l, 3, reps) - ms_reset;
  check_timed("cusparseSgtsv2StridedBatch (timed)", t, 0, hs, timed_bad);
  printf("cusparseSgtsv2StridedBatch: %.4f ms with the copy of d into x, %.4f ms for that copy alone\n",
         p.ms_strided + ms_reset, ms_reset);
  l->x = t->xi;
  float ms_ireset = time_median_ms(lib_inter_reset, l, 3, reps);
  p.ms_inter = time_median_ms(lib_inter, l, 3, reps) - ms_ireset;
  check_timed("cusparseSgtsvInterleavedBatch (timed)", t, 1, hs, timed_bad);
  printf("cusparseSgtsvInterleavedBatch: %.4f ms with its restores, %.4f ms for the restores alone\n",
         p.ms_inter + ms_ireset, ms_ireset);
  float ms_trans = time_median_ms(launch_transposes, t, 3, reps);
  printf("the interleaved layout's transposes (a, b, c, d in, x out): %.4f ms, which a caller with the "
         "strided layout adds to each interleaved solver\n", ms_trans);
  int inter_peer = p.ms_inter + ms_trans < p.ms_strided;
  p.ms_peer = inter_peer ? p.ms_inter + ms_trans : p.ms_strided;
  p.peer = inter_peer ? "interleaved" : "strided";
  printf("the cuSPARSE peer at n = %d: %s, %.4f ms (gtsv2StridedBatch %.4f, gtsvInterleavedBatch + transposes "
         "%.4f)\n", n, inter_peer ? "gtsvInterleavedBatch + transposes" : "gtsv2StridedBatch", p.ms_peer,
         p.ms_strided, p.ms_inter + ms_trans);

  snprintf(extra, sizeof(extra), "resid=%.2e", resid[2]);
  print_bench("7", "cusparse_gtsv2StridedBatch", size, reps, p.ms_strided, moved, ref, extra);
  snprintf(extra, sizeof(extra), "algo=%d resid=%.2e ms_with_transposes=%.4f peer=%s x_gtsv2=%.2f", l->algo, resid[3],
           p.ms_inter + ms_trans, p.peer, p.ms_peer / (p.ms_inter + ms_trans));
  print_bench("7", "cusparse_gtsvInterleavedBatch", size, reps, p.ms_inter, moved, ref, extra);
  if (n <= PCR_MAX_N) {
    float ms = time_median_ms(launch_pcr_block, t, 3, reps);
    check_timed("GPU_pcr_block (timed)", t, 0, hs, timed_bad);
    snprintf(extra, sizeof(extra), "resid=%.2e peer=%s x_gtsv2=%.2f", resid[0], p.peer, p.ms_peer / ms);
    print_bench("7", "trid_pcr_block", size, reps, ms, moved, ref, extra);
  }
  float ms_tt = time_median_ms(launch_thomas_thread, t, 3, reps);
  check_timed("GPU_thomas_thread (timed)", t, 1, hs, timed_bad);
  // its own layout is the interleaved one: against the peer, with the transposes a strided caller adds
  snprintf(extra, sizeof(extra),
           "layout=interleaved resid=%.2e ms_with_transposes=%.4f peer=%s x_gtsv2=%.2f x_interleaved=%.2f", resid[1],
           ms_tt + ms_trans, p.peer, p.ms_peer / (ms_tt + ms_trans), p.ms_inter / ms_tt);
  print_bench("7", "trid_thomas_thread", size, reps, ms_tt, moved, ref, extra);
  return p;
}

#endif /* BATCH_BENCH_ALL_CUH */
