/*
 * graphs.cu -- practical 12, step 3 (beyond the course): CUDA Graphs against stream launches, a graph's update,
 * then two more tools of the streams API. Each launch costs the host microseconds, and a kernel of one block runs
 * for about as long, so a loop of small kernels is limited by its launches. A graph is the loop captured once
 * (cudaStreamBeginCapture to cudaStreamEndCapture: the launches are recorded, not run), instantiated once
 * (cudaGraphInstantiate: checked and laid out for the GPU), then launched whole by one call. The parts (-part=):
 *   launch    1, 10, ..., -kernels= small kernels (one block of one thread; kernel k writes slot k, graphs.cuh),
 *             independent (kernel k in stream k % -branches, the streams forked from one by an event and joined
 *             back, so the graph has that many parallel branches) and dependent (a chain in one stream, kernel k
 *             reading slot k-1); each timed as stream launches and as one graph launch (events, the median of -reps
 *             runs), the capture and the instantiation timed apart (host clock); each run's slots poisoned first,
 *             the last run's checked exactly against the gold, and the graph's nodes and edges counted
 *   update    the chain's offset argument changed three ways, each timed (host clock) and checked: node by node
 *             in the instantiated graph (cudaGraphExecKernelNodeSetParams); a new capture and cudaGraphExecUpdate
 *             (the same shape, new arguments); a new capture and a new cudaGraphInstantiate
 *   priority  short kernels' latency on an idle GPU, then beside a low-priority stream of long kernels that fill
 *             every SM, from a stream of the same priority and from one of the highest (priority_pool.cuh)
 *   pool      -allocs= allocations of -bytes=, each freed at once: cudaMalloc/cudaFree against cudaMallocAsync/
 *             cudaFreeAsync from the device's default pool, us per pair, each way checked (priority_pool.cuh)
 * A part the device cannot run (no graphs, one stream priority, no memory pools) SKIPs with the reason.
 * Try -kernels=1000 with -branches=1 and 32, -part=priority with -long= and -spin=, -part=pool with -bytes=.
 *   nvcc -O3 -arch=native -I../common graphs.cu -o graphs
 * The exercise (make exercises): built with -DEXERCISE as exercises/graphs, the chain's capture is the learner's,
 * exercises/capture_chain.cuh.
 */
#define COURSE_STEPS "practical 12, workbook step 3 (beyond the course: CUDA Graphs, priorities, memory pools)"
#ifdef EXERCISE // the verdict names the file to finish (defined before gold_check.h reads it)
#define EXERCISE_TODO "fill in the TODO(step 3) in exercises/capture_chain.cuh"
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

#include "graphs.cuh" // the counts, the gold, the graph's shape, the poison (plain C, tested by tests/)

// one block of one thread: kernel k writes slot k (x_k = k + off, or x_{k-1} + k + off in the chain). The offset is
// the last argument, GR_ARG_OFF, the one the update part changes
__global__ void GPU_add(long long *x, int k, int dep, long long off) { x[k] = (dep && k > 0 ? x[k - 1] : 0) + k + off; }
#define GR_ARG_OFF 3

// every launch of GPU_add goes through here: checked by cudaGetLastError, not getLastCudaError, whose DEBUG=1
// synchronise is not allowed while a stream is being captured
static void add(long long *d_x, int k, int dep, long long off, cudaStream_t s) {
  GPU_add<<<1, 1, 0, s>>>(d_x, k, dep, off);
  checkCudaErrors(cudaGetLastError());
}

typedef struct {
  int branches;
  cudaStream_t s[GR_BRANCHES_MAX];         // s[0]: the origin, where each run and each capture begins and ends
  cudaEvent_t fork, join[GR_BRANCHES_MAX]; // the independent kernels' fork from s[0] and joins back into it
  cudaEvent_t e0, e1;                      // a timed run's pair, on s[0]
} streams_t;

// the dependent kernels: kernel k reads slot k-1, so one stream keeps them in order
static void enqueue_chain(long long *d_x, int n, long long off, cudaStream_t s) {
  for (int k = 0; k < n; k++) add(d_x, k, 1, off, s);
}

// the independent kernels: kernel k in s[k % branches]; the other streams wait for an event of s[0] before their
// first kernel (the fork) and s[0] for an event of each after their last (the join), so the work, or the graph
// captured from it, starts and ends in s[0] with the branches side by side
static void enqueue_independent(const streams_t *st, long long *d_x, int n, long long off) {
  checkCudaErrors(cudaEventRecord(st->fork, st->s[0]));
  for (int b = 1; b < st->branches; b++) checkCudaErrors(cudaStreamWaitEvent(st->s[b], st->fork, 0));
  for (int k = 0; k < n; k++) add(d_x, k, 0, off, st->s[k % st->branches]);
  for (int b = 1; b < st->branches; b++) {
    checkCudaErrors(cudaEventRecord(st->join[b], st->s[b]));
    checkCudaErrors(cudaStreamWaitEvent(st->s[0], st->join[b], 0));
  }
}

// Every capture is thread-local (cudaStreamCaptureModeThreadLocal): while s is captured, only this thread is
// barred from the calls that could synchronise it. Global mode bars every thread's, and the peak-memory sampler
// (make defaults, common/gpu_profile.h) calls cuMemGetInfo from a thread of its own
#ifndef EXERCISE
// step 3: the chain's graph. Between the two calls, s is being captured: its launches are recorded as the graph's
// nodes, each depending on the one before (the stream's order), and none runs
static cudaGraph_t capture_chain(long long *d_x, int n, long long off, cudaStream_t s) {
  cudaGraph_t graph;
  checkCudaErrors(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  enqueue_chain(d_x, n, off, s);
  checkCudaErrors(cudaStreamEndCapture(s, &graph));
  return graph;
}
#else
#include "exercises/capture_chain.cuh" // make exercises: the learner's
#endif

static char g_why[400], g_skip[200]; // the first failure and the first SKIP's reason, for the verdict
static int g_checked, g_skips;       // runs checked against the gold, parts skipped
static void fail_once(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (!g_why[0]) vsnprintf(g_why, sizeof(g_why), fmt, ap);
  va_end(ap);
}
static void skip_part(const char *part, const char *why) {
  printf("%s: SKIP (%s)\n", part, why);
  g_skips++;
  if (!g_skip[0]) snprintf(g_skip, sizeof(g_skip), "%s: %s", part, why);
}

// the slots of a finished run against the gold, exactly
static void check_slots(const long long *d_x, long long *h_x, int n, int dep, long long off, const char *what) {
  checkCudaErrors(cudaMemcpy(h_x, d_x, n * sizeof(long long), cudaMemcpyDeviceToHost));
  long long first;
  size_t bad = gr_check(h_x, n, dep, off, &first);
  g_checked++;
  if (bad)
    fail_once("%s, %d %s kernels: %zu slots wrong, the first x[%lld] = %lld, the gold's %lld", what, n,
              dep ? "dependent" : "independent", bad, first, h_x[first], gr_gold((int)first, dep, off));
}

// A captured graph, checked: n kernel nodes, and the edges of the streams' order (graphs.cuh, gr_edges). Fewer
// nodes: the launches went to the stream, not into a graph. *cap_ms (unless NULL): host ms of the capture alone,
// from its beginning to its end, the checks after it left out
static cudaGraph_t capture(streams_t *st, long long *d_x, int n, int dep, long long off, double *cap_ms) {
  cudaGraph_t g = NULL;
  double t0 = wall_ms();
  if (dep) {
    g = capture_chain(d_x, n, off, st->s[0]);
  } else {
    checkCudaErrors(cudaStreamBeginCapture(st->s[0], cudaStreamCaptureModeThreadLocal));
    enqueue_independent(st, d_x, n, off);
    checkCudaErrors(cudaStreamEndCapture(st->s[0], &g));
  }
  if (cap_ms) *cap_ms = wall_ms() - t0;
  cudaStreamCaptureStatus cs;
  checkCudaErrors(cudaStreamIsCapturing(st->s[0], &cs));
  if (cs != cudaStreamCaptureStatusNone) exit(result_check(0, "the stream is still being captured: no EndCapture"));
  size_t nodes = 0, edges = 0;
  if (g) checkCudaErrors(cudaGraphGetNodes(g, NULL, &nodes));
  if (nodes != (size_t)n)
    exit(result_check(0,
                      "no graph was captured: the %s launches of %d kernel%s gave a graph of %zu nodes (they ran in "
                      "the stream)",
                      dep ? "dependent" : "independent", n, n > 1 ? "s" : "", nodes));
  checkCudaErrors(cudaGraphGetEdges(g, NULL, NULL, NULL, &edges));
  if (edges != gr_edges(n, dep, st->branches))
    fail_once("the graph of %d %s kernels has %zu edges, not %zu", n, dep ? "dependent" : "independent", edges,
              gr_edges(n, dep, st->branches));
  return g;
}

// one timed run of n kernels between e0 and e1 on s[0]: stream launches (ge NULL) or one graph launch; the slots
// poisoned first, outside the pair. ms
static float run_once(streams_t *st, cudaGraphExec_t ge, long long *d_x, int n, int dep, long long off) {
  float ms;
  checkCudaErrors(cudaMemsetAsync(d_x, GR_POISON_BYTE, n * sizeof(long long), st->s[0]));
  checkCudaErrors(cudaEventRecord(st->e0, st->s[0]));
  if (ge)
    checkCudaErrors(cudaGraphLaunch(ge, st->s[0]));
  else if (dep)
    enqueue_chain(d_x, n, off, st->s[0]);
  else
    enqueue_independent(st, d_x, n, off);
  checkCudaErrors(cudaEventRecord(st->e1, st->s[0]));
  checkCudaErrors(cudaEventSynchronize(st->e1));
  checkCudaErrors(cudaEventElapsedTime(&ms, st->e0, st->e1));
  return ms;
}

// a warm-up run (a graph's first launch also uploads it), then the median of reps
static float median_runs(streams_t *st, cudaGraphExec_t ge, long long *d_x, int n, int dep, long long off, int reps) {
  float t[TIMING_MAX_REPS];
  run_once(st, ge, d_x, n, dep, off);
  for (int r = 0; r < reps; r++) t[r] = run_once(st, ge, d_x, n, dep, off);
  return median_float(t, reps);
}

// part launch: each count, each kind, stream launches against one graph launch
static void part_launch(streams_t *st, long long *d_x, long long *h_x, const int *counts, int m, int reps) {
  const char *kind[2] = {"independent", "dependent"};
  double goal = -1.0;
  printf("launch: kernels of one block of one thread, the median of %d runs; independent: %d stream%s forked and "
         "joined by events; dependent: a chain in one stream\n",
         reps, st->branches, st->branches > 1 ? "s" : "");
  printf("%8s %-12s %10s %10s %10s %10s %12s %11s %14s\n", "kernels", "kind", "stream ms", "us/kernel", "graph ms",
         "us/kernel", "graph/stream", "capture ms", "instantiate ms");
  for (int c = 0; c < m; c++)
    for (int dep = 0; dep < 2; dep++) {
      int n = counts[c];
      long long off = 7; // any offset: the update part changes it
      float ms_s = median_runs(st, NULL, d_x, n, dep, off, reps);
      check_slots(d_x, h_x, n, dep, off, "stream launches");
      double cap_ms;
      cudaGraph_t g = capture(st, d_x, n, dep, off, &cap_ms);
      cudaGraphExec_t ge;
      double t0 = wall_ms();
      checkCudaErrors(cudaGraphInstantiate(&ge, g, 0));
      double inst_ms = wall_ms() - t0;
      float ms_g = median_runs(st, ge, d_x, n, dep, off, reps);
      check_slots(d_x, h_x, n, dep, off, "graph launches");
      printf("%8d %-12s %10.4f %10.3f %10.4f %10.3f %12.3f %11.3f %14.3f\n", n, kind[dep], ms_s, 1e3 * ms_s / n, ms_g,
             1e3 * ms_g / n, ms_g / ms_s, cap_ms, inst_ms);
      char prog[64], size[16], extra[200];
      snprintf(size, sizeof(size), "%d", n);
      snprintf(prog, sizeof(prog), "graphs_stream_%s", kind[dep]);
      snprintf(extra, sizeof(extra), "branches=%d ms_per_kernel=%.5f", dep ? 1 : st->branches, ms_s / n);
      print_bench("12", prog, size, reps, ms_s, -1.0, NULL, extra);
      snprintf(prog, sizeof(prog), "graphs_graph_%s", kind[dep]);
      snprintf(extra, sizeof(extra), "branches=%d ms_per_kernel=%.5f ms_capture=%.3f ms_instantiate=%.3f x_stream=%.2f",
               dep ? 1 : st->branches, ms_g / n, cap_ms, inst_ms, ms_s / ms_g);
      print_bench("12", prog, size, reps, ms_g, -1.0, NULL, extra);
      if (dep && n == 1000) goal = ms_g / ms_s;
      checkCudaErrors(cudaGraphExecDestroy(ge));
      checkCudaErrors(cudaGraphDestroy(g));
    }
  if (goal >= 0)
    printf("the workbook's goal: a graph of 1000 small dependent kernels at most 1/3 of the stream launches' time: "
           "%.3f of it (a GPU's figure, no verdict)\n",
           goal);
  else
    printf("the workbook's goal (a graph of 1000 dependent kernels at most 1/3 of the stream launches' time): not "
           "measured, 1000 is not among this run's counts\n");
}

// part update: the chain's offset changed three ways, rep r's offset r + 1 (never the one before), each checked
static void part_update(streams_t *st, long long *d_x, long long *h_x, const int *counts, int m, int reps) {
  const char *way[4] = {"setparams", "capture", "execupdate", "instantiate"};
  printf("update: the chain's offset changed, host ms (median of %d): node by node in the instantiated graph (set "
         "params), or a new capture then a whole-graph update (exec update) or a new instantiation\n",
         reps);
  printf("%8s %14s %12s %15s %15s   %s\n", "kernels", "set params ms", "capture ms", "exec update ms", "instantiate ms",
         "us per node: set params, exec update, instantiate");
  for (int c = 0; c < m; c++) {
    int n = counts[c];
    cudaGraph_t g = capture(st, d_x, n, 1, 0, NULL);
    size_t nn = (size_t)n;
    cudaGraphNode_t *nodes = (cudaGraphNode_t *)malloc(nn * sizeof(*nodes));
    cudaKernelNodeParams *kp = (cudaKernelNodeParams *)malloc(nn * sizeof(*kp));
    if (!nodes || !kp) exit(result_fail("out of host memory"));
    checkCudaErrors(cudaGraphGetNodes(g, nodes, &nn));
    for (int i = 0; i < n; i++) { // each node's launch, as captured: the update keeps all but the offset
      cudaGraphNodeType type;
      checkCudaErrors(cudaGraphNodeGetType(nodes[i], &type));
      if (type != cudaGraphNodeTypeKernel) exit(result_check(0, "the chain's graph has a node that is no kernel"));
      checkCudaErrors(cudaGraphKernelNodeGetParams(nodes[i], &kp[i]));
      if (kp[i].kernelParams == NULL) // a captured <<<>>> launch has them; a node built with `extra` has none to copy
        exit(result_fail("the chain's kernel node %d holds its arguments in `extra`, not kernelParams: the update by "
                         "set params cannot change its offset",
                         i));
    }
    cudaGraphExec_t ea, eb, ec;
    checkCudaErrors(cudaGraphInstantiate(&ea, g, 0));
    checkCudaErrors(cudaGraphInstantiate(&eb, g, 0));
    float t[4][TIMING_MAX_REPS];
    for (int r = 0; r < reps; r++) {
      long long off = r + 1;
      double t0 = wall_ms();
      for (int i = 0; i < n; i++) { // the same kernel, grid and arguments, but the offset
        void *args[GR_ARG_OFF + 1];
        memcpy(args, kp[i].kernelParams, sizeof(args));
        args[GR_ARG_OFF] = &off;
        cudaKernelNodeParams p = kp[i];
        p.kernelParams = args;
        checkCudaErrors(cudaGraphExecKernelNodeSetParams(ea, nodes[i], &p));
      }
      t[0][r] = (float)(wall_ms() - t0);
      run_once(st, ea, d_x, n, 1, off);
      check_slots(d_x, h_x, n, 1, off, "update by set params");
      double cap_ms;
      cudaGraph_t g2 = capture(st, d_x, n, 1, off, &cap_ms);
      t[1][r] = (float)cap_ms;
      cudaGraphExecUpdateResultInfo info;
      t0 = wall_ms();
      cudaError_t ue = cudaGraphExecUpdate(eb, g2, &info); // fails unless g2 has g's shape
      t[2][r] = (float)(wall_ms() - t0);
      if (ue != cudaSuccess) // why, in the update's own terms (cudaGraphExecUpdateResult), before the error's name
        printf("cudaGraphExecUpdate of %d kernels: cudaGraphExecUpdateResult %d\n", n, (int)info.result);
      checkCudaErrors(ue);
      run_once(st, eb, d_x, n, 1, off);
      check_slots(d_x, h_x, n, 1, off, "update by exec update");
      t0 = wall_ms();
      checkCudaErrors(cudaGraphInstantiate(&ec, g2, 0));
      t[3][r] = (float)(wall_ms() - t0);
      run_once(st, ec, d_x, n, 1, off);
      check_slots(d_x, h_x, n, 1, off, "update by a new instantiation");
      checkCudaErrors(cudaGraphExecDestroy(ec));
      checkCudaErrors(cudaGraphDestroy(g2));
    }
    float ms[4];
    for (int w = 0; w < 4; w++) ms[w] = median_float(t[w], reps);
    printf("%8d %14.4f %12.4f %15.4f %15.4f   %.3f, %.3f, %.3f\n", n, ms[0], ms[1], ms[2], ms[3], 1e3 * ms[0] / n,
           1e3 * ms[2] / n, 1e3 * ms[3] / n);
    for (int w = 0; w < 4; w++) {
      char prog[64], size[16];
      snprintf(prog, sizeof(prog), "graphs_update_%s", way[w]);
      snprintf(size, sizeof(size), "%d", n);
      print_bench("12", prog, size, reps, ms[w], -1.0, NULL, NULL);
    }
    checkCudaErrors(cudaGraphExecDestroy(ea));
    checkCudaErrors(cudaGraphExecDestroy(eb));
    checkCudaErrors(cudaGraphDestroy(g));
    free(nodes), free(kp);
  }
}

#include "priority_pool.cuh" // parts priority and pool (they use add, check_slots, fail_once and skip_part)

int main(int argc, char **argv) {
  int kernels = GR_KERNELS_MAX, branches = 4, reps = 20, nlong = 16, spin = 20000, nshort = 20, allocs = 1000;
  long long bytes = 1 << 20;
  const char *part = "all";
  arg_spec opts[] = {
      {"part", ARG_WORD, &part, 0, 0, "all, launch, update, priority or pool"},
      {"kernels", ARG_INT, &kernels, 1, GR_KERNELS_MAX, "small kernels at most: 1, 10, 100, ... below it, and it"},
      {"branches", ARG_INT, &branches, 1, GR_BRANCHES_MAX, "streams the independent kernels are spread over"},
      {"reps", ARG_INT, &reps, 1, TIMING_MAX_REPS, "timed runs of each measurement, their median reported"},
      {"long", ARG_INT, &nlong, 1, 100, "priority: long kernels in the low-priority stream"},
      {"spin", ARG_INT, &spin, 1, 1000000, "priority: steps per thread of each long kernel (its length)"},
      {"short", ARG_INT, &nshort, 1, TIMING_MAX_REPS, "priority: short kernels timed, one at a time"},
      {"allocs", ARG_INT, &allocs, 1, 100000, "pool: allocations in a loop"},
      {"bytes", ARG_LONG, &bytes, 8, 1 << 30, "pool: bytes per allocation, a multiple of 8"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  const char *parts[4] = {"launch", "update", "priority", "pool"};
  int want[4], any = 0;
  for (int p = 0; p < 4; p++) any |= want[p] = strcmp(part, "all") == 0 || strcmp(part, parts[p]) == 0;
  if (!any) args_fail("-part=%s: all, launch, update, priority or pool", part);
  if (bytes % 8) args_fail("-bytes=%lld: a whole number of 8-byte words", bytes);
  int dev = findCudaDevice(argc, argv);
  if (want[3]) device_memory_check((size_t)bytes, "one allocation of the pool part", args_given(argc, argv, "bytes"));

  int counts[GR_COUNTS_MAX], m = gr_counts(kernels, counts);
  long long *d_x, *h_x = (long long *)malloc(GR_KERNELS_MAX * sizeof(long long));
  if (!h_x) return result_fail("out of host memory");
  checkCudaErrors(cudaMalloc((void **)&d_x, GR_KERNELS_MAX * sizeof(long long)));
  streams_t st;
  st.branches = branches;
  for (int b = 0; b < branches; b++) { // non-blocking: no default stream orders them, captured or not
    checkCudaErrors(cudaStreamCreateWithFlags(&st.s[b], cudaStreamNonBlocking));
    checkCudaErrors(cudaEventCreateWithFlags(&st.join[b], cudaEventDisableTiming));
  }
  checkCudaErrors(cudaEventCreateWithFlags(&st.fork, cudaEventDisableTiming));
  checkCudaErrors(cudaEventCreate(&st.e0));
  checkCudaErrors(cudaEventCreate(&st.e1));

  // can this device and driver capture and instantiate a graph? One kernel, captured and instantiated
  cudaGraph_t g = NULL;
  cudaGraphExec_t ge = NULL;
  cudaError_t e = cudaStreamBeginCapture(st.s[0], cudaStreamCaptureModeThreadLocal);
  if (e == cudaSuccess) add(d_x, 0, 0, 0, st.s[0]), e = cudaStreamEndCapture(st.s[0], &g);
  if (e == cudaSuccess) e = cudaGraphInstantiate(&ge, g, 0);
  if (ge) checkCudaErrors(cudaGraphExecDestroy(ge));
  if (g) checkCudaErrors(cudaGraphDestroy(g));
  (void)cudaGetLastError();
  char why[160];
  snprintf(why, sizeof(why), "no CUDA Graphs here: capturing one kernel failed with %s", cudaGetErrorName(e));

  int ran = 0;
  for (int p = 0; p < 4; p++) {
    if (!want[p]) continue;
    if (p <= 1 && e != cudaSuccess) {
      skip_part(parts[p], why);
      continue;
    }
    int before = g_skips;
    if (p == 0) part_launch(&st, d_x, h_x, counts, m, reps);
    if (p == 1) part_update(&st, d_x, h_x, counts, m, reps);
    if (p == 2) part_priority(dev, d_x, h_x, nlong, spin, nshort);
    if (p == 3) part_pool(dev, allocs, (size_t)bytes, reps, st.s[0]);
    ran += g_skips == before;
  }

  // release GPU and CPU memory
  for (int b = 0; b < branches; b++) {
    checkCudaErrors(cudaStreamDestroy(st.s[b]));
    checkCudaErrors(cudaEventDestroy(st.join[b]));
  }
  checkCudaErrors(cudaEventDestroy(st.fork));
  checkCudaErrors(cudaEventDestroy(st.e0));
  checkCudaErrors(cudaEventDestroy(st.e1));
  checkCudaErrors(cudaFree(d_x));
  free(h_x);

  // the verdict: every checked run exact, every graph of the right shape; timings have none
  if (g_why[0]) return result_check(0, "%s", g_why);
  if (!ran) return result_skip("%s", g_skip);
  printf("checked: %d runs, every slot and value equal to the gold\n", g_checked);
  return result_pass();
}
