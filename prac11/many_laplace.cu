/*
 * many_laplace.cu -- practical 11, step 3 (the course's step 5): many small problems at once. prac3's Laplace
 * kernel (GPU_laplace3d, ../prac3/laplace3d_kernel.h: one Jacobi sweep, one thread per (i, j) column, marching in
 * k) on 64 independent grids of 50^3 to 100^3 points, each with its own u1, u2 and boundary, ITER sweeps each,
 * done three ways:
 *   serial   one grid after another, all in the default stream: each sweep has the GPU to itself
 *   streams  a stream per grid, the sweeps enqueued a round at a time across the grids (enqueue_streams), so each
 *            grid's sweeps wait only for its own earlier ones and different grids' sweeps can run side by side
 *   threads  one OpenMP host thread per grid (-threads= fewer), each enqueuing its grid's sweeps in its stream
 * A grid of side 75 is 3 x 19 = 57 blocks of 32 x 4 threads, a few per cent of the blocks a GPU holds at once:
 * one after another leaves most SMs idle. The program predicts the speed-up from the blocks per grid, the SM
 * count and the kernel's blocks per SM (the occupancy API), then times each way (events, a warm-up, the median)
 * and checks every grid's final u against prac3's CPU gold (Gold_laplace3d: the same additions in the same order,
 * so exactly equal) in a u2 poisoned with NaN. Try -grids=, -smin= -smax=, -iter=, -bx= -by=, and
 * CUDA_DEVICE_MAX_CONNECTIONS=1 ./many_laplace (one hardware queue for all the streams).
 *   nvcc -O3 -arch=native -I../common -I../prac3 -Xcompiler -fopenmp many_laplace.cu ../prac3/laplace3d_gold.c \
 *        -o many_laplace            (without -fopenmp the threads way is left out)
 * The exercise (make exercises): built with -DEXERCISE as exercises/many_laplace, the streams way's loop is the
 * learner's, exercises/enqueue_streams.cuh.
 */
#define COURSE_STEPS "practical 11, workbook step 3 (course step 5)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 3) in exercises/enqueue_streams.cuh"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "grid3d.h"
#include "helper_cuda.h"
#include "timing.h"

#include "laplace3d_kernel.h" // prac3's kernel, unchanged (-I../prac3)
#include "many_laplace.cuh"   // the sides, blocks per grid and the prediction (plain C, tested by tests/)
#include "prac3_gold.h"       // prac3's gold, Gold_laplace3d (../prac3/laplace3d_gold.c)

// prac3's block: a warp along i, 128 threads (-bx= -by= change it, and with it the blocks per grid)
#ifndef MANY_BLOCK_X
#define MANY_BLOCK_X 32
#endif
#ifndef MANY_BLOCK_Y
#define MANY_BLOCK_Y 4
#endif

// one grid: its size, its arrays and its launch, and which streams its sweeps went to in this run
typedef struct {
  int n;               // side: n x n x n points, the boundary included
  size_t off;          // its first point in the packed arrays (every grid's points, one grid after another)
  dim3 grid, block;    // its sweep's launch: a 2-D grid of blocks over (i, j)
  float *d_u1, *d_u2;  // u1 in, u2 out; swapped after each sweep, so that u1 holds the latest
  cudaStream_t stream; // the stream of its first sweep in this run
  int sweeps, mixed;   // sweeps launched in this run; 1 once they went to more than one stream
} lap_grid;

// One sweep of grid g in stream s, then its u1 and u2 swapped. Every way launches through here, and it notes
// the stream, so that the program can tell which streams the grids' sweeps went to.
static void sweep(lap_grid *g, cudaStream_t s) {
  GPU_laplace3d<<<g->grid, g->block, 0, s>>>(g->n, g->n, g->n, g->n, g->d_u1, g->d_u2);
  getLastCudaError("GPU_laplace3d execution failed");
  float *t = g->d_u1;
  g->d_u1 = g->d_u2;
  g->d_u2 = t;
  if (g->sweeps++ == 0)
    g->stream = s;
  else if (s != g->stream)
    g->mixed = 1; // two streams: this grid's sweeps may run out of order
}

#ifndef EXERCISE
// streams: grid g's sweeps in streams[g], so that they stay in order while different grids' run side by side.
// The sweeps outside, the grids inside: every stream has its first sweep queued after ngrids launches, not after
// g * iter of them, so the GPU fills up while the host is still launching (each launch costs it microseconds).
static void enqueue_streams(lap_grid *grids, int ngrids, int iter, const cudaStream_t *streams) {
  for (int it = 0; it < iter; it++)
    for (int g = 0; g < ngrids; g++) sweep(&grids[g], streams[g]);
}
#else
#include "exercises/enqueue_streams.cuh" // make exercises: the learner's
#endif

enum { SERIAL, STREAMS, THREADS, NMODES };
static const char *mode_name[NMODES] = {"serial", "streams", "threads"};

typedef CUresult (*ctx_set_t)(CUcontext);
typedef struct {
  lap_grid *gs;
  int G, iter, nthreads;
  size_t P;                       // points in all grids
  float *d_u0, *d_a, *d_b;        // the starting u of every grid (kept), and the two arrays the sweeps use
  cudaStream_t *streams;          // one per grid
  cudaEvent_t start, stop, *done; // done[g]: recorded in streams[g] after its last sweep
  CUcontext ctx;                  // the main thread's context, for the threads way's host threads
  ctx_set_t set_ctx;              // the driver's cuCtxSetCurrent
} many_run;

// Every grid's sweeps, the way `mode` says. serial: grid after grid in the default stream; streams: the
// exercise's loop; threads: a host thread per grid (r->nthreads of them), each sweeping its grid in its stream.
static void enqueue(int mode, many_run *r) {
  if (mode == SERIAL) {
    for (int g = 0; g < r->G; g++)
      for (int it = 0; it < r->iter; it++) sweep(&r->gs[g], 0);
  } else if (mode == STREAMS) {
    enqueue_streams(r->gs, r->G, r->iter, r->streams);
  } else {
#ifdef _OPENMP
    // A new host thread has no context current, and the runtime would give it device 0's primary context, which
    // need not be the main thread's (-device=N, or a GPU profile's green context: findCudaDevice). So each makes
    // the main thread's current first, the context the streams belong to; then each launches into its own grid's
    // stream, all at once.
#pragma omp parallel num_threads(r->nthreads)
    {
      if (r->set_ctx(r->ctx) != CUDA_SUCCESS) exit(result_fail("cuCtxSetCurrent failed in a host thread"));
#pragma omp for schedule(static, 1)
      for (int g = 0; g < r->G; g++)
        for (int it = 0; it < r->iter; it++) sweep(&r->gs[g], r->streams[g]);
    }
#endif
  }
}

// One timed run of `mode` from the starting values: u1 = u0 and u2 poisoned (0xff bytes: NaN), untimed; then
// the start event, every sweep, and the stop event after the default stream has waited for every grid's stream,
// so that it follows the last sweep whichever stream it is in. Returns the GPU's ms; *host_ms: the host's time
// to queue the launches.
static float run_once(many_run *r, int mode, double *host_ms) {
  size_t bytes = r->P * sizeof(float);
  checkCudaErrors(cudaMemcpy(r->d_a, r->d_u0, bytes, cudaMemcpyDeviceToDevice));
  checkCudaErrors(cudaMemset(r->d_b, 0xff, bytes));
  for (int g = 0; g < r->G; g++) {
    lap_grid *q = &r->gs[g];
    q->d_u1 = r->d_a + q->off;
    q->d_u2 = r->d_b + q->off;
    q->sweeps = q->mixed = 0;
    q->stream = 0;
  }
  checkCudaErrors(cudaDeviceSynchronize()); // the GPU idle: the start event is not held up by the reset
  checkCudaErrors(cudaEventRecord(r->start, 0));
  for (int g = 0; g < r->G; g++) // the fork: every stream after the start, blocking streams or not
    checkCudaErrors(cudaStreamWaitEvent(r->streams[g], r->start, 0));
  double t0 = wall_ms();
  enqueue(mode, r);
  *host_ms = wall_ms() - t0;
  for (int g = 0; g < r->G; g++) { // the join: the same calls in every way, so that each pays for them alike
    checkCudaErrors(cudaEventRecord(r->done[g], r->streams[g]));
    checkCudaErrors(cudaStreamWaitEvent(0, r->done[g], 0));
  }
  checkCudaErrors(cudaEventRecord(r->stop, 0));
  checkCudaErrors(cudaEventSynchronize(r->stop));
  float ms = 0.0f;
  checkCudaErrors(cudaEventElapsedTime(&ms, r->start, r->stop));
  return ms;
}

int main(int argc, char **argv) {
  int G = MANY_GRIDS_MAX, smin = 50, smax = 100, iter = 20, reps = 5, nthreads = 0;
  int bx = MANY_BLOCK_X, by = MANY_BLOCK_Y;
  const char *mode = "all";
  arg_spec opts[] = {
      {"grids", ARG_INT, &G, 1, MANY_GRIDS_MAX, "independent grids, a stream each"},
      {"smin", ARG_INT, &smin, 3, MANY_SIDE_MAX, "the smallest grid's side (points, boundary included)"},
      {"smax", ARG_INT, &smax, 3, MANY_SIDE_MAX, "the largest grid's side; the others in equal steps between"},
      {"iter", ARG_INT, &iter, 1, 200, "Jacobi sweeps of each grid"},
      {"reps", ARG_INT, &reps, 1, 20, "timed runs of each way after a warm-up (the median is printed)"},
      {"threads", ARG_INT, &nthreads, 0, MANY_GRIDS_MAX, "host threads of the threads way (0: one per grid)"},
      {"bx", ARG_INT, &bx, 1, 1024, "threads per block in i"},
      {"by", ARG_INT, &by, 1, 1024, "threads per block in j"},
      {"mode", ARG_WORD, &mode, 0, 0, "serial, streams, threads or all"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if (smin > smax) args_fail("-smin=%d is larger than -smax=%d", smin, smax);
  if (bx * by > 1024) args_fail("a %dx%d block has %d threads, more than 1024", bx, by, bx * by);
  int run[NMODES], any = 0;
  for (int m = 0; m < NMODES; m++) any += run[m] = !strcmp(mode, "all") || !strcmp(mode, mode_name[m]);
  if (!any) args_fail("-mode=%s: serial, streams, threads or all", mode);
#ifndef _OPENMP
  if (run[THREADS] && strcmp(mode, "all") != 0)
    return result_skip("-mode=threads: this build has no OpenMP (the host compiler had no -fopenmp)");
  run[THREADS] = 0;
#endif
  if (nthreads == 0 || nthreads > G) nthreads = G;

  // The GPU takes work from the streams through a few hardware queues (connections): 8 unless the environment's
  // CUDA_DEVICE_MAX_CONNECTIONS says otherwise (1 to 32, read when the context is made); streams beyond that share
  // queues, and a sweep waiting at a queue's head holds back the grid behind it. More queues did not make every way
  // faster: what they did to each way's host and GPU times is in docs/notes/prac11.md (step 3). The driver's
  // default is kept; try CUDA_DEVICE_MAX_CONNECTIONS=1, 4 and 32.
  const char *env_connections = getenv("CUDA_DEVICE_MAX_CONNECTIONS"), *connections = env_connections;
  if (!connections) connections = "8";
  int dev = findCudaDevice(argc, argv);

  size_t P = many_points(G, smin, smax), bytes = P * sizeof(float);
  int user_sized = args_given(argc, argv, "grids") || args_given(argc, argv, "smin") || args_given(argc, argv, "smax");
  device_memory_check(3 * bytes, "u0, u1 and u2 of every grid", user_sized);

  // the grids, packed one after another; the starting values: 1 on the boundary, random inside (grid g's seed
  // g + 1, so that no two grids start alike and a grid swapped with another cannot pass)
  lap_grid gs[MANY_GRIDS_MAX];
  float *h_u0 = (float *)malloc(bytes), *h_gold = (float *)malloc(bytes), *h_u = (float *)malloc(bytes);
  if (!h_u0 || !h_gold || !h_u) return result_fail("out of host memory for three %zu-byte arrays", bytes);
  size_t off = 0;
  for (int g = 0; g < G; g++) {
    lap_grid *q = &gs[g];
    q->n = many_side(g, G, smin, smax);
    q->off = off;
    q->block = dim3(bx, by);
    q->grid = dim3((q->n + bx - 1) / bx, (q->n + by - 1) / by); // rounded up: the kernel guards i, j
    grid3d_init(h_u0 + off, q->n, q->n, q->n, (unsigned)g + 1);
    off += (size_t)q->n * q->n * q->n;
  }
  printf("%d grids of sides %d to %d (n x n x n points each), %d Jacobi sweeps each: %d launches of GPU_laplace3d "
         "in %dx%d blocks\n", G, smin, smax, iter, G * iter, bx, by);
  printf("CUDA_DEVICE_MAX_CONNECTIONS = %s: the hardware queues the streams share (%s)\n",
         connections, env_connections ? "set in the environment" : "unset: the driver's default");

  // the prediction: how much of the GPU one grid's sweep fills, and so how many can run at once
  int per_sm = occupancy_blocks_per_sm(GPU_laplace3d, dev, bx * by, 0), sms = device_limits(dev)->sms;
  if (per_sm < 1) return result_fail("GPU_laplace3d cannot run in %dx%d blocks on this GPU", bx, by);
  many_prediction pr = many_predict(G, smin, smax, bx, by, sms, per_sm);
  printf("blocks per grid: %lld (side %d) to %lld (side %d), %.1f on average\n", pr.min_blocks, smin, pr.max_blocks,
         many_side(G - 1, G, smin, smax), pr.mean_blocks);
  printf("the GPU holds %d SMs x %d blocks of GPU_laplace3d each (cudaOccupancyMaxActiveBlocksPerMultiprocessor) = "
         "%lld blocks at once\n", sms, per_sm, pr.slots);
  printf("one grid fills %.1f %% of the GPU's block slots; up to %d grids fit at once\n", pr.fill_pct, pr.fit);
  // a prediction, not a bound: launch overhead (the host queues one sweep at a time) and the hardware queues lower
  // it; one after another also idles between launches, which streams hide, so small grids can beat it a little
  printf("predicted speed-up of streams over one after another, from the block slots alone: min(%d, %lld / %.1f) = "
         "%.1f (the launches' cost on the host and the %s hardware queues lower it; the gaps between launches one "
         "after another, which streams hide, can lift it a little past this)\n", G, pr.slots, pr.mean_blocks,
         pr.bound, connections);

  // Gold treatment: every grid's ITER sweeps on the CPU (the grids shared among the cores where OpenMP is)
  double t0 = wall_ms();
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic)
#endif
  for (int g = 0; g < G; g++) {
    int n = gs[g].n;
    float *a = h_gold + gs[g].off, *b = h_u + gs[g].off;
    memcpy(a, h_u0 + gs[g].off, (size_t)n * n * n * sizeof(float));
    for (int it = 0; it < iter; it++) {
      Gold_laplace3d(n, n, n, a, b);
      float *t = a;
      a = b;
      b = t;
    }
    if (a != h_gold + gs[g].off) memcpy(h_gold + gs[g].off, a, (size_t)n * n * n * sizeof(float));
  }
  printf("%dx%d Gold_laplace3d: %.1f (ms)\n", G, iter, wall_ms() - t0);

  // copy u0 to the device once; every run starts from it
  many_run r = {gs, G, iter, nthreads, P, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  cudaStream_t streams[MANY_GRIDS_MAX];
  cudaEvent_t done[MANY_GRIDS_MAX];
  checkCudaErrors(cudaMalloc((void **)&r.d_u0, bytes));
  checkCudaErrors(cudaMalloc((void **)&r.d_a, bytes));
  checkCudaErrors(cudaMalloc((void **)&r.d_b, bytes));
  checkCudaErrors(cudaMemcpy(r.d_u0, h_u0, bytes, cudaMemcpyHostToDevice));
  for (int g = 0; g < G; g++) {
    checkCudaErrors(cudaStreamCreate(&streams[g]));
    checkCudaErrors(cudaEventCreateWithFlags(&done[g], cudaEventDisableTiming)); // an ordering point, no clock
  }
  r.streams = streams;
  r.done = done;
  checkCudaErrors(cudaEventCreate(&r.start));
  checkCudaErrors(cudaEventCreate(&r.stop));
  typedef CUresult (*ctx_get_t)(CUcontext *); // the driver API through the runtime (gpu_driver: no -lcuda)
  ctx_get_t get_ctx = (ctx_get_t)gpu_driver("cuCtxGetCurrent");
  r.set_ctx = (ctx_set_t)gpu_driver("cuCtxSetCurrent");
  if (run[THREADS] && gpu_green_context()) { // a GPU profile's green context: current to one thread at a time
    if (strcmp(mode, "all") != 0)
      return result_skip("-mode=threads: a GPU profile's green context can be current to one host thread at a time");
    run[THREADS] = 0;
    printf("threads: left out (a GPU profile's green context can be current to one host thread at a time)\n");
  }
  if (run[THREADS] && (!get_ctx || !r.set_ctx || get_ctx(&r.ctx) != CUDA_SUCCESS))
    return result_fail("the driver's cuCtxGetCurrent and cuCtxSetCurrent, which the threads way needs, failed");

  // each way: a warm-up, then reps timed runs; the last run's u of every grid against the gold
  float ms[NMODES] = {0}, host[NMODES] = {0};
  int used[NMODES] = {0}, bad_mode = -1, mixed_grid = -1;
  gold_stats st, bad_st; // bad_st: the first way that disagreed with the gold
  memset(&bad_st, 0, sizeof(bad_st));
  for (int m = 0; m < NMODES; m++) {
    if (!run[m]) continue;
    float t[100], h[100];
    double hms;
    run_once(&r, m, &hms);
    for (int i = 0; i < reps; i++) {
      t[i] = run_once(&r, m, &hms);
      h[i] = (float)hms;
    }
    ms[m] = median_float(t, reps), host[m] = median_float(h, reps);
    for (int g = 0; g < G; g++) {
      size_t n3 = (size_t)gs[g].n * gs[g].n * gs[g].n;
      checkCudaErrors(cudaMemcpy(h_u + gs[g].off, gs[g].d_u1, n3 * sizeof(float), cudaMemcpyDeviceToHost));
      if (gs[g].mixed && mixed_grid < 0) mixed_grid = g;
      int seen = 0; // the distinct streams the grids' sweeps went to
      for (int e = 0; e < g; e++) seen |= gs[e].stream == gs[g].stream;
      used[m] += !seen;
    }
    // error check: the same operations in the same order as the gold, so exactly equal
    compare_float(h_u, h_gold, P, 0.0, 0.0, &st);
    char what[64];
    snprintf(what, sizeof(what), "u (%s)", mode_name[m]);
    gold_report(what, &st);
    if (st.nbad && bad_mode < 0) bad_mode = m, bad_st = st;
  }

  // the explanation: each way's time, its speed-up over one after another (against the prediction), the streams
  // its sweeps went to and the host's time to queue them (near the GPU's time: the launches are the limit)
  char size[64], extra[256];
  snprintf(size, sizeof(size), "%dx%d-%d", G, smin, smax);
  for (int m = 0; m < NMODES; m++) {
    if (!run[m]) continue;
    printf("%-8s %9.3f ms (median of %d)", mode_name[m], ms[m], reps);
    if (run[SERIAL]) printf(", %.2fx the speed of one after another", ms[SERIAL] / ms[m]);
    printf(": %d grids' sweeps in %d stream%s", G, used[m], used[m] == 1 ? "" : "s");
    if (m == THREADS) printf(" from %d host threads", nthreads);
    printf(", the host queued them in %.3f ms\n", host[m]);
    int k = snprintf(extra, sizeof(extra), "grids=%d iter=%d block=%dx%d connections=%s blocks_per_sm=%d sms=%d "
                     "host_ms=%.3f bound=%.1f", G, iter, bx, by, connections, per_sm, sms, host[m], pr.bound);
    if (run[SERIAL]) k += snprintf(extra + k, sizeof(extra) - k, " x_serial=%.2f", ms[SERIAL] / ms[m]);
    if (m == THREADS) snprintf(extra + k, sizeof(extra) - k, " threads=%d", nthreads);
    char prog[64];
    snprintf(prog, sizeof(prog), "many_laplace_%s", mode_name[m]);
    print_bench("11", prog, size, reps, ms[m], -1.0, NULL, extra);
  }
#ifndef _OPENMP
  if (strcmp(mode, "all") == 0) printf("threads: left out (this build has no OpenMP)\n");
#endif
  // the prediction above, and the host's ceiling, a true bound: the streams way cannot end before its last launch,
  // so one after another's time over the streams way's queueing time bounds it
  if (run[SERIAL] && run[STREAMS])
    printf("streams against one after another: %.2fx (%.1fx predicted by the GPU's block slots; at most %.1fx by the "
           "host's launches: %.3f / %.3f ms)\n", ms[SERIAL] / ms[STREAMS], pr.bound, ms[SERIAL] / host[STREAMS],
           ms[SERIAL], host[STREAMS]);

  // release GPU and CPU memory
  for (int g = 0; g < G; g++) {
    checkCudaErrors(cudaStreamDestroy(streams[g]));
    checkCudaErrors(cudaEventDestroy(done[g]));
  }
  checkCudaErrors(cudaEventDestroy(r.start));
  checkCudaErrors(cudaEventDestroy(r.stop));
  checkCudaErrors(cudaFree(r.d_u0));
  checkCudaErrors(cudaFree(r.d_a));
  checkCudaErrors(cudaFree(r.d_b));
  free(h_u0), free(h_gold), free(h_u);

  if (bad_mode >= 0) {
    long long b = bad_st.first_bad;
    int g = 0;
    while (g + 1 < G && (long long)gs[g + 1].off <= b) g++;
    return result_check(0, "the %s way: %zu of %zu values outside tolerance, the first in grid %d (side %d)",
                        mode_name[bad_mode], bad_st.nbad, bad_st.n, g, gs[g].n);
  }
  if (mixed_grid >= 0)
    return result_check(0, "grid %d's sweeps went to more than one stream, where they may run out of order",
                        mixed_grid);
  if (run[STREAMS] && used[STREAMS] < G)
    return result_check(0, "the streams way put the %d grids' sweeps in %d stream%s, not a stream each", G,
                        used[STREAMS], used[STREAMS] == 1 ? "" : "s");
  return result_pass();
}
