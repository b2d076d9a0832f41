/*
 * prac2.cu -- practical 2, steps 1-4: Monte Carlo path simulation with the cuRAND host API.
 *
 * cuRAND fills one big array with 2*N*NPATH standard normals (XORWOW, seed 1234), then the kernel pathcalc
 * simulates one path of two correlated assets per thread and writes its payoff; the host averages them.
 * Where the normals of a path sit in that array is the lesson:
 *   -version=1  normal j of path p at z[j*NPATH + p]: at each step a warp reads 32 consecutive floats
 *   -version=2  the 2N normals of each path side by side, one path after another (strided_layout, below:
 *               it is the handout's step 3 exercise, so write exercises/strided_layout.cuh before reading it)
 * Try both, compare the kernel times and the effective bandwidth, and explain the ratio (handout step 4).
 * -philox takes the host API's fastest call instead of the course's: Philox4x32-10 in the ordering curand.h
 * documents as the fastest, CURAND_ORDERING_PSEUDO_DYNAMIC (the order of the numbers in the array is the one
 * that suits this GPU, so another GPU may give other numbers). It is the host-API peer that step 7's device API
 * is measured against, beside the course's XORWOW.
 *
 * Gold: the CPU copies back the normals of the paths it checks (all of them, or -goldpaths spread over the
 * whole range), recomputes those paths in double and compares path by path. A path may legitimately flip
 * only if its S ends within float rounding of an edge |S - 1| = 0.1; such flips are counted, and any other
 * disagreement fails. That checks the kernel on whatever numbers it was given; with -philox no course answer
 * pins the numbers down, so they are checked too: the average must be within 4 standard errors of an
 * independent CPU Monte Carlo, as prac2_device's are. -bench checks the output of the last timed runs again.
 *   nvcc -O3 -arch=native -I../common prac2.cu prac2_gold.c -o prac2 -lcurand -Xcompiler -fopenmp
 *
 * The exercise (make exercises): built with -DEXERCISE, version 2's layout is the learner's,
 * exercises/strided_layout.cuh, and -version=2 is the default.
 */
#define COURSE_STEPS "practical 2, workbook steps 1-4 (course steps 1-5; course step 4 is step 3's layout table)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 3) in exercises/strided_layout.cuh"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "helper_curand.h"
#include "timing.h"

#include "prac2_gold.h"

#define BLOCK_THREADS 128           // the course's block size; any multiple of 32 works
#define GOLD_CHUNK 16384            // paths per chunk of normals copied back for the gold: 13 MB at N = 100
#define COURSE_NPATH 9600000        // the course's problem: NPATH = 9 600 000 paths of N = 100 steps
#define COURSE_V2_ANSWER 0.41793859 // the course's version 2 on a V100 (its 2023/2025 run logs)

// the model's constants, set once by the host: every thread reads the same value, which constant memory
// broadcasts to a whole warp in one transaction
__constant__ int N;
__constant__ float T, r, sigma, rho, alpha, dt, con1, con2;

#ifndef EXERCISE
// version 2, strided (step 3's solution: write exercises/strided_layout.cuh first): each thread walks its own
// contiguous block of 2N floats (size_t: 2N * npath can pass 2^31)
__device__ void strided_layout(int tid, size_t *ind, size_t *inc) {
  *ind = (size_t)tid * 2 * N;
  *inc = 1;
}
#define DEFAULT_VERSION 1
#else // make exercises: the learner's (step 3), the exercise's layout by default
#include "exercises/strided_layout.cuh"
#define DEFAULT_VERSION 2
#endif

// one thread per path; version picks the layout of the normals (see the header)
__global__ void pathcalc(const float *d_z, float *d_v, int npath, int version) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid >= npath) return;

  size_t ind, inc;
  if (version == 1) {
    ind = tid; // coalesced: the 32 threads of a warp read 32 neighbouring floats
    inc = npath;
  } else {
    strided_layout(tid, &ind, &inc); // strided: each thread walks its own contiguous block of 2N floats
  }

  float s1 = 1.0f, s2 = 1.0f;
  for (int n = 0; n < N; n++) {
    float y1 = d_z[ind];
    ind += inc;
    float y2 = rho * y1 + alpha * d_z[ind];
    ind += inc;
    s1 = s1 * (con1 + con2 * y1);
    s2 = s2 * (con1 + con2 * y2);
  }

  // digital payoff: a rectangle around S1 = S2 = 1
  float payoff = 0.0f;
  if (fabsf(s1 - 1.0f) < 0.1f && fabsf(s2 - 1.0f) < 0.1f) payoff = expf(-r * T);
  d_v[tid] = payoff;
}

typedef struct {
  curandGenerator_t gen;
  float *d_z, *d_v;
  size_t nz;
  int npath, version;
} run_args;

static void run_rng(void *p) {
  run_args *a = (run_args *)p;
  checkCudaErrors(curandGenerateNormal(a->gen, a->d_z, a->nz, 0.0f, 1.0f));
}

static void run_pathcalc(void *p) {
  run_args *a = (run_args *)p;
  pathcalc<<<(a->npath + BLOCK_THREADS - 1) / BLOCK_THREADS, BLOCK_THREADS>>>(a->d_z, a->d_v, a->npath, a->version);
  getLastCudaError("pathcalc execution failed");
}

// What the gold found over the paths it recomputed (see the header)
typedef struct {
  size_t checked, nbad, nedge, nflip;
  long long first_bad;
  double avg_gpu, avg_gold, tol, ms;
} path_check;

// Gold treatment: chunks of GOLD_CHUNK paths spread evenly from the first to the last (which holds the partial
// block), their normals copied back in the kernel's layout and recomputed in double, against the payoffs h_v
static path_check check_paths(const run_args *a, const float *h_v, int h_N, long long goldpaths, float h_T, float h_r,
                              float h_sigma, float h_rho, float *h_zc, double *h_gold, unsigned char *h_edge) {
  path_check pc = {0, 0, 0, 0, -1, 0.0, 0.0, 0.0, 0.0};
  size_t npath = (size_t)a->npath, nchunks = (npath + GOLD_CHUNK - 1) / GOLD_CHUNK;
  size_t want = goldpaths > 0 ? ((size_t)goldpaths + GOLD_CHUNK - 1) / GOLD_CHUNK : nchunks;
  if (want > nchunks) want = nchunks;
  double disc = exp(-(double)h_r * h_T), sum_gpu = 0.0, sum_gold = 0.0, t0 = wall_ms();
  for (size_t k = 0, last = (size_t)-1; k < want; k++) {
    size_t c = want > 1 ? k * (nchunks - 1) / (want - 1) : 0;
    if (c == last) continue;
    last = c;
    size_t p0 = c * GOLD_CHUNK, m = npath - p0 < GOLD_CHUNK ? npath - p0 : GOLD_CHUNK;
    size_t path_stride, num_stride;
    if (a->version == 1) { // rows j = 0..2N-1 of m floats each, one row per normal: the chunk is [2N][m]
      checkCudaErrors(cudaMemcpy2D(h_zc, m * sizeof(float), a->d_z + p0, npath * sizeof(float), m * sizeof(float),
                                   2 * (size_t)h_N, cudaMemcpyDeviceToHost));
      path_stride = 1;
      num_stride = m;
    } else { // one contiguous block of m*2N floats: the chunk is [m][2N]
      checkCudaErrors(cudaMemcpy(h_zc, a->d_z + p0 * 2 * h_N, m * 2 * h_N * sizeof(float), cudaMemcpyDeviceToHost));
      path_stride = 2 * (size_t)h_N;
      num_stride = 1;
    }
    pathcalc_gold(h_zc, m, h_N, path_stride, num_stride, h_T, h_r, h_sigma, h_rho, h_gold, h_edge);
    size_t flips;
    long long bad_at;
    size_t bad = payoff_compare(h_v + p0, h_gold, h_edge, m, disc, &flips, &bad_at);
    if (bad && pc.first_bad < 0) pc.first_bad = (long long)p0 + bad_at;
    pc.nbad += bad;
    pc.nflip += flips;
    for (size_t i = 0; i < m; i++) {
      pc.nedge += h_edge[i];
      sum_gpu += h_v[p0 + i];
      sum_gold += h_gold[i];
    }
    pc.checked += m;
  }
  pc.ms = wall_ms() - t0;
  // Path by path: no disagreement away from an edge. The averages over the checked paths then differ by at
  // most (flips * exp(-rT) + 1e-6 per path for the float exp(-rT)) / checked.
  pc.avg_gpu = sum_gpu / pc.checked;
  pc.avg_gold = sum_gold / pc.checked;
  pc.tol = ((double)pc.nflip * disc + 1e-6 * pc.checked) / pc.checked;
  return pc;
}

// The verdict on one check_paths: 1 when it holds, else 0 with the reason in why
static int paths_hold(const path_check *pc, int h_N, char *why, size_t len) {
  if (pc->nbad) {
    snprintf(why, len, "payoffs: %zu of %zu paths differ from the gold away from an edge, first at path %lld", pc->nbad,
             pc->checked, pc->first_bad);
    return 0;
  }
  // A path is an edge path with probability about 2 * width * (the sum of S1's and S2's densities at 0.9 and
  // 1.1), about 19 * width here (0.06 % at N = 100); far more than that means the edge test hides errors
  double max_edge = 10.0 + 3.0 * 19.0 * pathcalc_edge_width(h_N) * pc->checked;
  if ((double)pc->nedge > max_edge) {
    snprintf(why, len, "payoffs: %zu of %zu paths are edge paths, more than the %.0f expected at most", pc->nedge,
             pc->checked, max_edge);
    return 0;
  }
  if (!(fabs(pc->avg_gpu - pc->avg_gold) <= pc->tol)) { // false for NaN
    snprintf(why, len, "average: %.8f over the checked paths differs from the gold's %.8f by more than %.2e",
             pc->avg_gpu, pc->avg_gold, pc->tol);
    return 0;
  }
  return 1;
}

// -philox: the numbers themselves, against an independent CPU Monte Carlo (prac2_device's check). The spread
// of one payoff comes from the CPU's large sample, so that a handful of GPU paths (one: no spread at all) is
// judged fairly: the payoff is 0 or exp(-rT), with probability about 0.44, so even one path lies within 1.2 of
// these standard errors: a right answer passes at every -npath. Returns z; |z| <= 4 passes.
static double philox_zscore(double avg, int npath, double cpu_avg, double cpu_err, long long cpupaths) {
  double sd_one = cpu_err * sqrt((double)cpupaths);
  double gpu_err = sd_one / sqrt((double)npath);
  double z = mc_zscore(avg, gpu_err, cpu_avg, cpu_err);
  printf("GPU - CPU = %.2e, z-score = %.2f (combined standard error %.2e; pass if |z| <= 4)\n", avg - cpu_avg, z,
         sqrt(gpu_err * gpu_err + cpu_err * cpu_err));
  return z;
}

int main(int argc, char **argv) {
  // 4 M paths by default, not the course's 9.6 M: 2 x 100 x 4 M normals are 3.0 GiB, which fits a 4 GiB GPU
  // beside its driver and context (the course's 7.2 GiB does not); -npath=9600000 is the course's problem, as
  // bench.sh runs it
  int npath = 4000000, h_N = 100, version = DEFAULT_VERSION, bench = 0, reps = 10, course = 0, philox = 0;
  long long goldpaths = 0;
  arg_spec opts[] = {
      {"npath", ARG_INT, &npath, 1, 1 << 30, "number of paths (NPATH)"},
      {"n", ARG_INT, &h_N, 1, 100000, "time steps per path (N)"},
      {"version", ARG_INT, &version, 1, 2, "layout of the normals: 1 coalesced, 2 strided"},
      {"goldpaths", ARG_LONG, &goldpaths, 0, 1 << 30, "paths the CPU recomputes (0: all of them)"},
      {"philox", ARG_FLAG, &philox, 0, 1, "the host API's fastest call: Philox4x32-10, ordering PSEUDO_DYNAMIC"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time the RNG and the kernel (median of -reps), print a BENCH line"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench"},
      {"course", ARG_FLAG, &course, 0, 1, "compare the average with the course's answer (-npath=9600000 -version=2)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  // The course published one answer that this program can reproduce: its version 2 (the same layout as ours)
  // for the course's problem, every path averaged, from the course's generator
  if (course && (npath != COURSE_NPATH || h_N != 100 || version != 2 || goldpaths != 0 || philox))
    args_fail("-course needs -npath=%d -n=100 -version=2, every path in the gold and the course's XORWOW (no "
              "-philox): the course's answer is for that problem alone",
              COURSE_NPATH);

  // 2*N*NPATH normals: more than 1 TiB is more than any GPU has, whatever it is
  size_t nz = 2 * (size_t)h_N * (size_t)npath;
  size_t zbytes = nz * sizeof(float), vbytes = (size_t)npath * sizeof(float);
  if (zbytes > ((size_t)1 << 40))
    args_fail("-npath=%d -n=%d needs %.0f GiB for the normals, more than any GPU has", npath, h_N,
              (double)zbytes / (1 << 30));

  int dev = findCudaDevice(argc, argv);
  device_memory_check(zbytes + vbytes + ((size_t)64 << 20), "the normals (2*N*NPATH floats) and the payoffs",
                      args_given(argc, argv, "npath") || args_given(argc, argv, "n"));

  // the course's parameters, in constant memory
  float h_T = 1.0f, h_r = 0.05f, h_sigma = 0.1f, h_rho = 0.5f;
  float h_alpha = (float)sqrt(1.0 - (double)h_rho * h_rho);
  float h_dt = h_T / h_N;
  float h_con1 = (float)(1.0 + (double)h_r * h_dt);
  float h_con2 = (float)(sqrt((double)h_dt) * h_sigma);
  checkCudaErrors(cudaMemcpyToSymbol(N, &h_N, sizeof(h_N)));
  checkCudaErrors(cudaMemcpyToSymbol(T, &h_T, sizeof(h_T)));
  checkCudaErrors(cudaMemcpyToSymbol(r, &h_r, sizeof(h_r)));
  checkCudaErrors(cudaMemcpyToSymbol(sigma, &h_sigma, sizeof(h_sigma)));
  checkCudaErrors(cudaMemcpyToSymbol(rho, &h_rho, sizeof(h_rho)));
  checkCudaErrors(cudaMemcpyToSymbol(alpha, &h_alpha, sizeof(h_alpha)));
  checkCudaErrors(cudaMemcpyToSymbol(dt, &h_dt, sizeof(h_dt)));
  checkCudaErrors(cudaMemcpyToSymbol(con1, &h_con1, sizeof(h_con1)));
  checkCudaErrors(cudaMemcpyToSymbol(con2, &h_con2, sizeof(h_con2)));

  // allocate memory on host and device; poison the payoffs with 0xff bytes (NaN)
  size_t chunk_floats = 2 * (size_t)h_N * GOLD_CHUNK;
  float *h_v = (float *)malloc(vbytes), *h_zc = (float *)malloc(chunk_floats * sizeof(float));
  double *h_gold = (double *)malloc(GOLD_CHUNK * sizeof(double));
  unsigned char *h_edge = (unsigned char *)malloc(GOLD_CHUNK);
  if (!h_v || !h_zc || !h_gold || !h_edge) return result_fail("out of host memory");
  float *d_z, *d_v;
  checkCudaErrors(cudaMalloc((void **)&d_z, zbytes));
  checkCudaErrors(cudaMalloc((void **)&d_v, vbytes));
  checkCudaErrors(cudaMemset(d_v, 0xff, vbytes));

  // random number generation: the course's XORWOW in its default ordering (the numbers the course's answer
  // comes from), or with -philox the host API's fastest call. The generator and its set-up are made once,
  // before anything is timed, as a user who generates many batches makes them
  run_args a = {NULL, d_z, d_v, nz, npath, version};
  checkCudaErrors(curandCreateGenerator(&a.gen, philox ? CURAND_RNG_PSEUDO_PHILOX4_32_10 : CURAND_RNG_PSEUDO_XORWOW));
  if (philox) checkCudaErrors(curandSetGeneratorOrdering(a.gen, CURAND_ORDERING_PSEUDO_DYNAMIC));
  checkCudaErrors(curandSetPseudoRandomGeneratorSeed(a.gen, 1234ULL));
  event_timer t = event_timer_start();
  run_rng(&a);
  float ms_rng = event_timer_stop(&t);
  // the course's three lines, exactly as it prints them (so that a learner can diff against its log); the
  // workbook's own lines come after them
  printf("CURAND normal RNG  execution time (ms): %f,  samples/sec: %e \n", ms_rng, nz / (0.001 * ms_rng));

  // execute kernel and time it
  t = event_timer_start();
  run_pathcalc(&a);
  float ms_kernel = event_timer_stop(&t);
  double moved = (double)zbytes + (double)vbytes; // each normal read once, each payoff written once
  printf("Monte Carlo kernel execution time (ms): %f \n", ms_kernel);

  // copy back results, compute the average and its standard error
  checkCudaErrors(cudaMemcpy(h_v, d_v, vbytes, cudaMemcpyDeviceToHost));
  double avg, err;
  mean_and_error(h_v, (size_t)npath, &avg, &err);
  printf("\nAverage value and standard deviation of error  = %13.8f %13.8f\n\n", avg, err);
  printf("NPATH = %d, N = %d, version %d (%s), kernel's effective bandwidth: %.1f GB/s\n", npath, h_N, version,
         version == 1 ? "coalesced" : "strided", moved / (0.001 * ms_kernel) / 1e9);
  if (philox) printf("host generator: Philox4x32-10, ordering CURAND_ORDERING_PSEUDO_DYNAMIC (not the course's)\n");

  // error check: path by path, then the average over the checked paths
  path_check pc = check_paths(&a, h_v, h_N, goldpaths, h_T, h_r, h_sigma, h_rho, h_zc, h_gold, h_edge);
  printf("gold: %zu of %d paths recomputed on the CPU in %.0f ms; %zu within %.1e of an edge, %zu flipped, "
         "%zu wrong\n",
         pc.checked, npath, pc.ms, pc.nedge, pathcalc_edge_width(h_N), pc.nflip, pc.nbad);
  printf("average over those paths: GPU %.8f, gold %.8f, difference %.2e (tolerance %.2e)\n", pc.avg_gpu, pc.avg_gold,
         fabs(pc.avg_gpu - pc.avg_gold), pc.tol);
  char why[256] = "";
  int ok = paths_hold(&pc, h_N, why, sizeof(why));

  // -philox: the numbers, against an independent CPU Monte Carlo of 10^6 paths (prac2_device's default)
  long long cpupaths = 1000000;
  double cpu_avg = 0.0, cpu_err = 0.0;
  if (philox) {
    double t0 = wall_ms();
    mc_cpu_estimate(cpupaths, h_N, h_T, h_r, h_sigma, h_rho, 2024, &cpu_avg, &cpu_err);
    printf("CPU Monte Carlo (SplitMix64 + Box-Muller, double): %lld paths in %.0f ms: %.8f +- %.8f\n", cpupaths,
           wall_ms() - t0, cpu_avg, cpu_err);
    double z = philox_zscore(avg, npath, cpu_avg, cpu_err, cpupaths);
    if (ok && !(fabs(z) <= 4.0)) { // false for NaN: a NaN payoff fails
      ok = 0;
      snprintf(why, sizeof(why), "GPU average %.8f is %.2f standard errors from the CPU's %.8f", avg, z, cpu_avg);
    }
  }

  // The course's answer (V100, its version 2: 0.41793859) comes from the same normals (cuRAND XORWOW, seed
  // 1234, the same order) through the same float arithmetic, compiled otherwise (the course used
  // --use_fast_math). Rounding differs only in the last bits, which changes a payoff only for a path that
  // ends within rounding of an edge: about as many as the float-against-double comparison above flipped. So
  // the same tolerance holds: nflip payoffs of exp(-rT) each, all one way, over every path. Version 1's
  // average (another assignment of normals to paths) lies 1.3e-4 away, several tolerances out.
  if (course) {
    printf("course's answer (V100, version 2): %.8f, difference %.2e (tolerance %.2e)\n", COURSE_V2_ANSWER,
           fabs(avg - COURSE_V2_ANSWER), pc.tol);
    if (ok && !(fabs(avg - COURSE_V2_ANSWER) <= pc.tol)) {
      ok = 0;
      snprintf(why, sizeof(why), "average %.8f differs from the course's %.8f by %.2e, more than %.2e", avg,
               COURSE_V2_ANSWER, fabs(avg - COURSE_V2_ANSWER), pc.tol);
    }
  }

  if (bench && ok) {
    float ms_r = time_median_ms(run_rng, &a, 2, reps);
    float ms_k = time_median_ms(run_pathcalc, &a, 2, reps);
    // the output of the last timed runs (the kernel on the last timed batch of normals: every RNG call comes
    // before every kernel call), checked as the first run was: a timed result is a checked result too
    checkCudaErrors(cudaMemcpy(h_v, d_v, vbytes, cudaMemcpyDeviceToHost));
    mean_and_error(h_v, (size_t)npath, &avg, &err);
    path_check pt = check_paths(&a, h_v, h_N, goldpaths, h_T, h_r, h_sigma, h_rho, h_zc, h_gold, h_edge);
    char twhy[200];
    ok = paths_hold(&pt, h_N, twhy, sizeof(twhy));
    if (!ok) snprintf(why, sizeof(why), "the last timed run's %s", twhy);
    if (ok && philox) {
      double z = philox_zscore(avg, npath, cpu_avg, cpu_err, cpupaths);
      if (!(fabs(z) <= 4.0)) {
        ok = 0;
        snprintf(why, sizeof(why), "the last timed run's average %.8f is %.2f standard errors from the CPU's %.8f", avg,
                 z, cpu_avg);
      }
    }
    printf("the last timed run's output: %zu paths recomputed, %zu flipped, %zu wrong, average %.8f: %s\n", pt.checked,
           pt.nflip, pt.nbad, avg, ok ? "ok" : "WRONG");
    // the 100 % line: a path reads its normals and writes one payoff (1 byte written for every 100 or so read),
    // so a read-only stream of as many bytes, not a copy, which writes as much as it reads (timing.h)
    bench_ref ref = bench_reference(dev, moved, reps);
    ref.read_only = 1;
    char size[48], extra[200];
    snprintf(size, sizeof(size), "%dx%d", npath, h_N);
    snprintf(extra, sizeof(extra), "variant=host_%s_v%d ms_rng=%.4f ms_total=%.4f rng_Gsamples_per_s=%.2f",
             philox ? "philox_dynamic" : "xorwow", version, ms_r, ms_r + ms_k, nz / (1e-3 * ms_r) / 1e9);
    printf("median of %d: RNG %.3f ms, kernel %.3f ms, total %.3f ms\n", reps, ms_r, ms_k, ms_r + ms_k);
    print_bench("2", "prac2", size, reps, ms_k, moved, &ref, extra);
  }

  // tidy up
  checkCudaErrors(curandDestroyGenerator(a.gen));
  checkCudaErrors(cudaFree(d_z));
  checkCudaErrors(cudaFree(d_v));
  free(h_v);
  free(h_zc);
  free(h_gold);
  free(h_edge);

  return result_check(ok, "%s", why);
}
