/*
 * trid_batch.cu -- practical 7, steps 7-10: a batch of general tridiagonal systems, three ways of sharing
 * the work among threads, and NVIDIA's cuSPARSE on the same data in the same run. The runner of the ladder
 * in batch/: one header per step, each with its kernel and launcher.
 *
 * `batch` systems of n unknowns each, a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i], with random
 * coefficients made diagonally dominant (|b| >= |a| + |c| + 0.5, either sign), stored one system after another
 * (system s at s*n; batch/layout.cuh has the interleaved layout too). Three kernels, each checked against a
 * Thomas gold in double and by its residual ||A x - d||_inf / ||d||_inf computed in double:
 *   GPU_pcr_block      batch/b1_pcr_block.cuh: one system per block, one thread per row: trid_dyn's PCR with
 *                      general coefficients, normalised as they are loaded (n <= 1024)
 *   GPU_thomas_thread  batch/b2_thomas_thread.cuh: one system per thread: the Thomas algorithm, on the
 *                      interleaved layout (row i of system s at i*batch + s), so that a warp's 32 loads are
 *                      128 consecutive bytes
 *   GPU_trid_hybrid    batch/b3_hybrid.cuh: one system per warp: the hybrid Thomas-PCR of Laszlo, Giles and
 *                      Appleyard (ACM TOMS 2016): each lane reduces a chunk of about n/32 rows in registers to
 *                      two rows by a modified Thomas sweep, the warp solves the 64 reduced rows by PCR with
 *                      shuffles (batch/pcr_warp.cuh), and each lane fills in its chunk; loads and stores go
 *                      through shared memory, coalesced, and each warp copies its next system in (cp.async)
 *                      while it solves this one. -warps (systems per block) and -stages (systems per warp in
 *                      shared memory) shape it; practical 10's table for this GPU and n (common/tuned.h)
 *                      sets both where the command line does not, and with neither, -stages is 2 where the
 *                      build's code for this GPU has cp.async and 1 where it has not (compute capability < 8.0)
 * -lib adds cuSPARSE's gtsv2StridedBatch (same layout) and gtsvInterleavedBatch (interleaved layout), with
 * their residuals (batch/b0_cusparse.cuh); -bench times everything against a device-to-device copy of the
 * same 20 bytes per unknown (a, b, c, d read, x written), and against the faster cuSPARSE call at this n for a
 * caller with the strided layout (x_gtsv2, peer=strided|interleaved: gtsv2StridedBatch, or
 * gtsvInterleavedBatch with the transposes it needs), and checks the solution each solver's last timed run
 * left (batch/check.cuh; the timings of all but the hybrid are batch/bench_all.cuh). -solver=hybrid checks and
 * times GPU_trid_hybrid alone (with -bench, against the copy only), as practical 10's tuner runs it.
 *   nvcc -O3 -arch=native -I. -I../common trid_batch.cu trid_gold.c -lcusparse -Xcompiler -fopenmp -o trid_batch
 */
#define COURSE_STEPS "practical 7, workbook steps 7-10 (beyond the course)"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"
#include "tuned.h"

#include "prac7_gold.h"

#include "batch/b0_cusparse.cuh"
#include "batch/b1_pcr_block.cuh"
#include "batch/b2_thomas_thread.cuh"
#include "batch/b3_hybrid.cuh"
#include "batch/bench_all.cuh"
#include "batch/check.cuh"

#define MAX_UNKNOWNS (1LL << 28) // n * batch: 1 GiB an array

static uint32_t rng_state;
static float rng_uniform(void) { // xorshift32: [0, 1)
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return (float)(rng_state >> 8) * (1.0f / 16777216.0f);
}

int main(int argc, char **argv) {
  int n = 256, batch = 65536, seed = 1, lib = 0, bench = 0, reps = 20, algo = 0;
  int warps = HYBRID_WARPS, stages = HYBRID_STAGES;
  const char *solver = "all";
  arg_spec opts[] = {
      {"n", ARG_INT, &n, 1, 1 << 24, "unknowns a system"},
      {"batch", ARG_INT, &batch, 1, 1 << 28, "systems"},
      {"seed", ARG_INT, &seed, 1, 2147483647, "seed of the random coefficients"},
      {"warps", ARG_INT, &warps, 1, 32, "GPU_trid_hybrid: systems (warps) per block (-bench without it times 1 to 8)"},
      {"stages", ARG_INT, &stages, 1, 3, "GPU_trid_hybrid: systems per warp in shared memory (1: no copies ahead; "
                                         "the default is 1 where the build has no cp.async for this GPU)"},
      {"lib", ARG_FLAG, &lib, 0, 1, "also solve with cuSPARSE gtsv2StridedBatch and gtsvInterleavedBatch"},
      {"algo", ARG_INT, &algo, 0, 2, "gtsvInterleavedBatch's algorithm: 0 Thomas, 1 LU with pivoting, 2 QR"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time every solver (cuSPARSE too) against a device-to-device copy"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions (the median is used)"},
      {"solver", ARG_WORD, &solver, 0, 0, "all: every solver (and -lib's); hybrid: GPU_trid_hybrid alone (tuning)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if (strcmp(solver, "all") != 0 && strcmp(solver, "hybrid") != 0) args_fail("-solver=%s: all or hybrid", solver);
  int all = strcmp(solver, "all") == 0; // hybrid: no PCR, Thomas, cuSPARSE or interleaved layout, checked or timed
  if (!all && lib) args_fail("-lib adds cuSPARSE's solvers: not with -solver=hybrid");
  if ((long long)n * batch > MAX_UNKNOWNS)
    args_fail("%d systems of %d unknowns are %lld unknowns, more than 2^28", batch, n, (long long)n * batch);
  if (bench && all && n < 3) // -bench times cuSPARSE, whose gtsv routines refuse n < 3: say so before any GPU work
    args_fail("-bench compares with cuSPARSE, whose gtsv routines need n >= 3 (n = %d)", n);
  if (bench && all) lib = 1;
  int lmax = hybrid_lmax(n);

  int dev = findCudaDevice(argc, argv);
  // practical 10's table for this GPU and n (-warps, -stages), unless the user typed them (common/tuned.h); the
  // GPU's name as device_limits gives it, so that under a GPU profile (WORKBOOK_GPU_PROFILE=t4) an H100's table
  // is not taken for a T4's. An untyped -stages is 0 until the table sets it, else hybrid_default_stages does
  int warps_typed = args_given(argc, argv, "warps"), stages_typed = args_given(argc, argv, "stages");
  if (!stages_typed) stages = 0;
  int tuned = tuned_settings(device_limits(dev)->name, "trid_batch", n, argc, argv, opts, ARG_COUNT(opts));
  if (stages == 0) stages = hybrid_default_stages(dev); // 1 where this build's code for this GPU has no cp.async
  // this GPU's most shared memory per block (opt-in), before any GPU work: -warps or -stages typed beyond it is
  // bad input; the default (or the table's, tuned at another n) gets fewer warps, then stages, where it does not fit
  size_t optin = (size_t)device_limits(dev)->smem_block_optin;
  while (n >= 64 && lmax <= 32 && hybrid_smem(lmax, warps, stages) > optin) { // (n < 64 uses no shared memory)
    if (!warps_typed && warps > 1)
      warps /= 2;
    else if (!stages_typed && stages > 1)
      stages--;
    else
      device_limit_exceeded("-warps=%d at n = %d needs %zu bytes of shared memory a block (%d stage%s per warp), "
                            "this GPU gives %zu",
                            warps, n, hybrid_smem(lmax, warps, stages), stages, stages == 1 ? "" : "s", optin);
  }
  size_t N = (size_t)n * batch, bytes = N * sizeof(float);
  int user_sized = args_given(argc, argv, "n") || args_given(argc, argv, "batch");
  // 5 strided + 5 interleaved arrays (-solver=hybrid: the strided ones alone), w (2 N floats: Thomas's c', or
  // the big hybrid's chunks), a working copy for cuSPARSE, and with -bench the copy baseline's two buffers (10
  // bytes per unknown each)
  device_memory_check((all ? 15 : 7) * bytes + (bench ? 6 * bytes : 0),
                      "the systems in both layouts and the workspaces", user_sized);
  printf("%d systems of %d unknowns (%zu in all), random diagonally dominant\n", batch, n, N);
  if (!all) printf("-solver=hybrid: GPU_trid_hybrid alone, checked%s\n", bench ? " and timed against the copy" : "");

  // random diagonally dominant systems; a[0] and c[n-1] of each are 0, as cuSPARSE asks
  float *h_a = (float *)malloc(bytes), *h_b = (float *)malloc(bytes), *h_c = (float *)malloc(bytes);
  float *h_d = (float *)malloc(bytes), *h_x = (float *)malloc(bytes);
  double *h_gold = (double *)malloc(N * sizeof(double));
  if (!h_a || !h_b || !h_c || !h_d || !h_x || !h_gold) return result_fail("out of host memory for %zu unknowns", N);
  rng_state = (uint32_t)seed * 2654435761u + 1u;
  for (size_t k = 0; k < N; k++) {
    int i = (int)(k % n);
    h_a[k] = i > 0 ? 2.0f * rng_uniform() - 1.0f : 0.0f;
    h_c[k] = i < n - 1 ? 2.0f * rng_uniform() - 1.0f : 0.0f;
    float m = fabsf(h_a[k]) + fabsf(h_c[k]) + 0.5f + 0.5f * rng_uniform();
    h_b[k] = rng_uniform() < 0.5f ? -m : m;
    h_d[k] = 2.0f * rng_uniform() - 1.0f;
  }

  float *d_a, *d_b, *d_c, *d_d, *d_x, *d_ai = NULL, *d_bi = NULL, *d_ci = NULL, *d_di = NULL, *d_xi = NULL, *d_w;
  checkCudaErrors(cudaMalloc((void **)&d_a, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_b, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_c, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_d, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_x, bytes));
  if (all) { // the interleaved layout: GPU_thomas_thread's and gtsvInterleavedBatch's
    checkCudaErrors(cudaMalloc((void **)&d_ai, bytes));
    checkCudaErrors(cudaMalloc((void **)&d_bi, bytes));
    checkCudaErrors(cudaMalloc((void **)&d_ci, bytes));
    checkCudaErrors(cudaMalloc((void **)&d_di, bytes));
    checkCudaErrors(cudaMalloc((void **)&d_xi, bytes));
  }
  checkCudaErrors(cudaMalloc((void **)&d_w, 2 * bytes));
  checkCudaErrors(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_c, h_c, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_d, h_d, bytes, cudaMemcpyHostToDevice));

  trid_args t = {n, batch, warps, stages, d_a, d_b, d_c, d_d, d_ai, d_bi, d_ci, d_di, d_x, d_xi, d_w};
  if (all) to_interleaved(&t); // the interleaved copies (xi is written by the solvers before anything reads it)
  hybrid_allow_smem(warps, optin);

  // Gold treatment: Thomas in double, every system
  double t0 = wall_ms();
  Gold_thomas_batch(n, batch, h_a, h_b, h_c, h_d, h_gold);
  printf("Gold_thomas_batch: %.1f (ms)\n", wall_ms() - t0);

  // each solver: on poisoned x and xi (NaN), solve, copy back, check (check_device poisons them again)
  host_sys hs = {h_a, h_b, h_c, h_d, h_x, h_gold};
  checkCudaErrors(cudaMemset(d_x, 0xff, bytes));
  if (all) checkCudaErrors(cudaMemset(d_xi, 0xff, bytes));
  int nfail = 0;
  solver_check chk[5];
  int nchk = 0;
  double resid[4] = {-1.0, -1.0, -1.0, -1.0}; // first-check residuals: PCR, Thomas, cuSPARSE's two (bench_all)
  if (all && n <= PCR_MAX_N) {
    launch_pcr_block(&t);
    chk[nchk] = check_device("GPU_pcr_block", &t, 0, &hs);
    resid[0] = chk[nchk++].resid;
  }
  if (all) {
    launch_thomas_thread(&t);
    chk[nchk] = check_device("GPU_thomas_thread", &t, 1, &hs);
    resid[1] = chk[nchk++].resid;
  }
  int ihy = nchk; // where the hybrid's check is kept
  launch_hybrid(&t);
  chk[nchk++] = check_device("GPU_trid_hybrid", &t, 0, &hs);
  char st[40] = ""; // the stages, where they are not the default
  if (stages != HYBRID_STAGES && n >= 64 && lmax <= 32)
    snprintf(st, sizeof(st), ", %d stage%s per warp", stages, stages == 1 ? "" : "s");
  printf("(GPU_trid_hybrid: %s, %d warp%s per block%s)\n",
         n < 64 ? "short path, rows straight into PCR"
                : lmax <= 32 ? "chunks in registers" : "chunks in global memory (n > 1024)", warps,
         warps == 1 ? "" : "s", st);

  // cuSPARSE: handle and workspaces made once, before anything is timed (m >= 3 is the library's rule)
  lib_args l;
  memset(&l, 0, sizeof(l));
  if (lib && n < 3) {
    printf("cuSPARSE's gtsv routines need n >= 3: not run\n");
    lib = 0;
  }
  if (lib) {
    lib_open(&l, &t, algo);

    lib_strided(&l);
    chk[nchk] = check_device("cusparseSgtsv2StridedBatch", &t, 0, &hs);
    resid[2] = chk[nchk++].resid;

    l.restore_coeffs = 1;
    l.x = d_xi;
    lib_inter(&l);
    chk[nchk] = check_device("cusparseSgtsvInterleavedBatch", &t, 1, &hs);
    resid[3] = chk[nchk++].resid;
    l.restore_coeffs = lib_writes_coeffs(&l, h_a, h_b, h_c, d_x); // (compared back in the strided layout)
    printf("gtsvInterleavedBatch %s its coefficient arrays\n", l.restore_coeffs ? "overwrites" : "leaves alone");
  }
  for (int q = 0; q < nchk; q++) nfail += !chk[q].ok;

  // step 10: the timings, each solver against the copy of the same 20 bytes per unknown, the others and the
  // cuSPARSE peer first (batch/bench_all.cuh; -solver=hybrid: the hybrid and the copy alone)
  const char *timed_bad = NULL; // the first solver whose last timed run left a wrong solution
  if (bench && nfail == 0) {
    double moved = 20.0 * (double)N;
    bench_ref ref = bench_reference(dev, moved, reps);
    char size[64], extra[200];
    snprintf(size, sizeof(size), "%dx%d", n, batch);
    peer_times p = {0.0f, 0.0f, 0.0f, ""};
    if (all) p = bench_all(&t, &l, &hs, &ref, size, reps, moved, resid, &timed_bad);
    // the hybrid at -warps (typed, or the table's), else at 1, 2, 4, 8 warps per block and the best one reported
    float best = 0.0f;
    int best_w = t.warps;
    if (!warps_typed && !tuned)
      best_w = hybrid_best_warps(&t, lmax, optin, reps, moved, &best);
    else if (all) // its ratios to cuSPARSE go on its BENCH line (-solver=hybrid's has none: no second timing)
      best = time_median_ms(launch_hybrid, &t, 3, reps);
    t.warps = best_w;
    hybrid_allow_smem(best_w, optin);
    if (all)
      snprintf(extra, sizeof(extra), "warps=%d resid=%.2e peer=%s x_gtsv2=%.2f x_strided=%.2f x_interleaved=%.2f",
               best_w, chk[ihy].resid, p.peer, p.ms_peer / best, p.ms_strided / best, p.ms_inter / best);
    else
      snprintf(extra, sizeof(extra), "warps=%d stages=%d resid=%.2e solver=hybrid", best_w, t.stages, chk[ihy].resid);
    float ms_h = bench_report(&ref, "7", "trid_hybrid", size, launch_hybrid, &t, reps, moved, extra);
    check_timed("GPU_trid_hybrid (timed)", &t, 0, &hs, &timed_bad);
    if (all)
      printf("GPU_trid_hybrid: %.2fx the cuSPARSE peer (%s), %.2fx gtsv2StridedBatch, %.2fx gtsvInterleavedBatch "
             "without its transposes; residual %.2e against cuSPARSE's %.2e and %.2e\n", p.ms_peer / ms_h, p.peer,
             p.ms_strided / ms_h, p.ms_inter / ms_h, chk[ihy].resid, resid[2], resid[3]);
  }

  if (lib) lib_close(&l);
  float *dev_arrays[] = {d_a, d_b, d_c, d_d, d_x, d_ai, d_bi, d_ci, d_di, d_xi, d_w};
  for (int q = 0; q < 11; q++) checkCudaErrors(cudaFree(dev_arrays[q]));
  free(h_a);
  free(h_b);
  free(h_c);
  free(h_d);
  free(h_x);
  free(h_gold);

  if (nfail) {
    for (int q = 0; q < nchk; q++)
      if (!chk[q].ok)
        return result_fail("%s: %zu of %zu values outside tolerance, residual %.3e (limit %.1e)", chk[q].name,
                           chk[q].st.nbad, chk[q].st.n, chk[q].resid, RESID_MAX);
  }
  if (timed_bad) return result_fail("%s: the solution its last timed run left is wrong (see above)", timed_bad);
  return result_pass();
}
