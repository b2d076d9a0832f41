/*
 * sgemm/k8_plan.cuh -- kernel 8's plan: which configuration of sgemm/k8_shapes.cuh runs a product, and in how
 * many slices of the inner length K. What each configuration gets on this GPU (stages, blocks per SM), every
 * plan it can run for M x N x K, each one's time by the cost model of sgemm/k8_model.cuh, and the fastest: the
 * pick, made once a shape for run_shapes. Also -plan's word; -tune, which checks and times every plan against the
 * pick (after sgemm/oracle.h, whose checks it uses); and the check of step 8's exercise.
 */

// ---- the configurations: case c of s8_dispatch (sgemm/k8_shapes.cuh) runs s8_configs[c] -------------------
typedef struct {
  const char *name;    // "128x64": BM x BN
  int bm, bn, threads; // block tile and threads
  int minb;            // __launch_bounds__' blocks per SM (so the registers per thread it may use)
  double efficiency;   // the fraction of the FP32 lanes' peak its multiply-adds reach on a full SM
} s8_config;

// The cost model's constants: each configuration's efficiency, the warps that hide latency (s8_hiding), a block's
// pipeline fill and a launch (s8_gpu_get). Fitted on an H100 (docs/notes/prac5.md, "SGEMM kernel 8: how its plans
// were chosen"); each may be set with -D (make EXTRA_NVCCFLAGS=-DS8_FILL_US=1.0), which practical 10's tuner does
// to fit them to another GPU (prac10/examples/sgemm_k8.conf)
#ifndef S8_EFF_128X128
#define S8_EFF_128X128 0.74
#endif
#ifndef S8_EFF_128X64
#define S8_EFF_128X64 0.67
#endif
#ifndef S8_EFF_64X128
#define S8_EFF_64X128 0.67
#endif
#ifndef S8_EFF_64X64
#define S8_EFF_64X64 0.54
#endif
#ifndef S8_HIDE_BASE
#define S8_HIDE_BASE 0.58
#endif
#ifndef S8_HIDE_SLOPE
#define S8_HIDE_SLOPE 0.047
#endif
#ifndef S8_FILL_US
#define S8_FILL_US 0.5
#endif
#ifndef S8_LAUNCH_US
#define S8_LAUNCH_US 3.2
#endif

#define S8_NCONFIGS 4
static const s8_config s8_configs[S8_NCONFIGS] = {
    {"128x128", 128, 128, 256, 2, S8_EFF_128X128}, // 2 x 4 warps of 64 x 32: 8 x 8 outputs per thread, 8 warps
    {"128x64", 128, 64, 128, 3, S8_EFF_128X64},    // 2 x 2 warps of 64 x 32, 8 x 8 per thread
    {"64x128", 64, 128, 128, 3, S8_EFF_64X128},    // 1 x 4 warps of 64 x 32, 8 x 8 per thread
    {"64x64", 64, 64, 128, 4, S8_EFF_64X64},       // 2 x 2 warps of 32 x 32, 4 x 8 per thread: the small one
};

// what the model needs to know of the GPU, all of it queried (or from the GPU profile in force)
typedef struct {
  int sms;
  int stages[S8_NCONFIGS];   // 4, 2, or 0: the configuration does not fit this GPU's shared memory
  int resident[S8_NCONFIGS]; // blocks of each configuration an SM holds at once
  double flops_sm_us;        // an SM's FP32 peak: 128 lanes x 2 flops x its clock (flops per microsecond)
  double bytes_us;           // memory bandwidth from its clock and bus width (bytes per microsecond)
  double fill_us, launch_us; // a block's pipeline fill (a few memory latencies); a kernel launch
  size_t work_max;           // the most workspace split-K may take (bytes)
} s8_gpu;

// the fraction of its configuration's rate an SM reaches with `warps` warps resident: too few warps cannot
// hide each other's waits (shared-memory loads, barriers); fitted to kernel 8's plans timed on an H100: 4 warps
// reach 77 %, 9 and more all of it (s8_estimate_us, sgemm/k8_model.cuh)
static double s8_hiding(double warps) { return fmin(1.0, S8_HIDE_BASE + S8_HIDE_SLOPE * warps); }

// the stages configuration c gets on this GPU: 4, or 2 where 4 do not fit in a block's shared memory, or 0
static int s8_stages(int c, const gpu_limits *g) {
  const s8_config *k = &s8_configs[c];
  if (s8_smem_bytes(k->bm, k->bn, 4) <= g->smem_block_optin) return 4;
  if (c == 0 && s8_smem_bytes(k->bm, k->bn, 2) <= g->smem_block_optin) return 2; // only 128x128 needs a 2
  return 0;
}

// blocks of configuration c an SM holds at once on this GPU (s8_launch with M = 0 asks the occupancy API)
static int s8_blocks_per_sm(int c, int stages) {
  s8_plan p = {c, 1, stages};
  return s8_dispatch(&p, NULL, NULL, NULL, 0, 0, 0, 0, 0, true);
}

static const s8_gpu *s8_gpu_get(void) {
  static s8_gpu g;
  static int done = 0;
  if (done) return &g;
  int dev, clock_khz = 0;
  checkCudaErrors(cudaGetDevice(&dev));
  const gpu_limits *lim = device_limits(dev);
  checkCudaErrors(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  g.sms = lim->sms;
  for (int c = 0; c < S8_NCONFIGS; c++) {
    g.stages[c] = s8_stages(c, lim);
    g.resident[c] = g.stages[c] ? s8_blocks_per_sm(c, g.stages[c]) : 0;
  }
  // 128 FP32 lanes per SM from Ampere's GA10x on (an A100's or a T4's 64 make their peak look twice as high:
  // every plan's arithmetic is underrated alike, so split-K's bytes, the fill and the launch weigh more than
  // they should there, and the model splits less). A driver that reports no clock: 1.5 GHz
  g.flops_sm_us = 128.0 * 2.0 * (clock_khz > 0 ? clock_khz : 1500000) * 1e-3;
  g.bytes_us = peak_bandwidth_GBps(dev) * 1e3; // GB/s = 1000 bytes per microsecond
  if (g.bytes_us <= 0.0) g.bytes_us = 1e5;     // a driver that reports no memory clock: 100 GB/s
  g.fill_us = S8_FILL_US;
  g.launch_us = S8_LAUNCH_US;
  g.work_max = lim->mem_bytes / 16;
  done = 1;
  return &g;
}

// the cost model, s8_estimate_us: sgemm/k8_model.cuh; in the starting file (make exercises) the learner's,
// exercises/k8_model.cuh, with the finished one beside it, renamed, to check the learner's picks against
#ifndef EXERCISE
#include "k8_model.cuh"
#else
#include "exercises/k8_model.cuh"
#define s8_estimate_us s8_estimate_us_answer
#include "k8_model.cuh"
#undef s8_estimate_us
#endif

#define S8_MAX_SPLIT 16

// whether split-K's workspace for an M x N C in `split` slices may be had: a slice's elements M x ldc (N rounded
// up to a multiple of 4) index in an int (sgemm.h's store4), and all the slices fit in `most` bytes
static int s8_split_fits(int M, int N, int split, size_t most) {
  size_t slice = (size_t)M * ((N + 3) / 4 * 4);
  return split == 1 || (slice <= 2147483647u && split * slice * sizeof(float) <= most);
}

// the plans this GPU can run for M x N x K, configuration by configuration, split by split; returns how many
#define S8_MAX_PLANS (S8_NCONFIGS * S8_MAX_SPLIT)
static int s8_plans(int M, int N, int K, s8_plan *out) {
  const s8_gpu *g = s8_gpu_get();
  int n = 0;
  for (int c = 0; c < S8_NCONFIGS; c++) {
    if (!g->stages[c] || !g->resident[c]) continue;
    for (int split = 1; split <= S8_MAX_SPLIT && split <= ceil_div(K, S8_BK); split++) {
      if (!s8_split_fits(M, N, split, g->work_max)) break;
      s8_plan p = {c, split, g->stages[c]};
      out[n++] = p;
    }
  }
  return n;
}

// the plan of least estimated time for M x N x K by `model`, the first of equals; *est gets its estimate (us)
typedef double (*s8_model_fn)(const s8_config *, int, int, int, int, int, const s8_gpu *);
static s8_plan s8_pick_by(s8_model_fn model, int M, int N, int K, double *est) {
  const s8_gpu *g = s8_gpu_get();
  s8_plan plans[S8_MAX_PLANS], best = {-1, 1, 0};
  double tbest = 0.0;
  int n = s8_plans(M, N, K, plans);
  for (int i = 0; i < n; i++) {
    double t = model(&s8_configs[plans[i].config], g->resident[plans[i].config], plans[i].split, M, N, K, g);
    if (best.config < 0 || t < tbest) best = plans[i], tbest = t;
  }
  if (est) *est = tbest;
  return best;
}

// kernel 8's pick: by the model of sgemm/k8_model.cuh
static s8_plan s8_pick(int M, int N, int K, double *est) { return s8_pick_by(s8_estimate_us, M, N, K, est); }

static void s8_describe(const s8_plan *p, char *s, size_t n) {
  snprintf(s, n, "%s split %d", s8_configs[p->config].name, p->split);
}

// -plan=BMxBN/SPLIT: the plan kernel 8 runs instead of its own pick (config -1: none given); -tune sets it to
// each plan in turn
static s8_plan s8_forced = {-1, 1, 0};

// parses -plan's word; 0 if it names no configuration or a split outside 1 .. S8_MAX_SPLIT
static int s8_parse_plan(const char *w, s8_plan *p) {
  const char *slash = strchr(w, '/');
  if (!slash) return 0;
  char *end;
  long split = strtol(slash + 1, &end, 10);
  if (*end || end == slash + 1 || split < 1 || split > S8_MAX_SPLIT) return 0;
  for (int c = 0; c < S8_NCONFIGS; c++)
    if (strlen(s8_configs[c].name) == (size_t)(slash - w) && !strncmp(w, s8_configs[c].name, slash - w)) {
      p->config = c, p->split = (int)split, p->stages = 0;
      return 1;
    }
  return 0;
}

// the plan run_shapes runs for M x N x K: s8_forced where one is set, else the model's pick, made on the first
// call of a shape and kept for the calls that follow
static s8_plan s8_plan_for(int M, int N, int K) {
  static int pM = -1, pN = -1, pK = -1;
  static s8_plan pick;
  if (s8_forced.config >= 0) return s8_forced;
  if (M != pM || N != pN || K != pK) pick = s8_pick(M, N, K, NULL), pM = M, pN = N, pK = K;
  return pick;
}

// -tune: every plan kernel 8 could run at this shape, each checked and timed as a kernel is (run_shapes with
// s8_forced set to it: a wrong plan must not win), against the model's estimate and its pick
static int run_tune(sgemm_problem *p, int reps) {
  const s8_gpu *g = s8_gpu_get();
  s8_plan pick = s8_pick(p->M, p->N, p->K, NULL), best = pick, plans[S8_MAX_PLANS];
  double ms_best = -1.0, ms_pick = -1.0;
  int ok = 1, nplans = s8_plans(p->M, p->N, p->K, plans);
  printf("\nkernel 8's plans at %d x %d x %d (%d SMs): time, median of %d, and the model's estimate\n", p->M, p->N,
         p->K, g->sms, reps);
  printf("  %-8s %5s %8s %9s %9s\n", "config", "split", "blocks", "ms", "model ms");
  for (int i = 0; i < nplans; i++) {
    const s8_config *c = &s8_configs[plans[i].config];
    char name[64];
    snprintf(name, sizeof(name), "plan %s/%d", c->name, plans[i].split);
    sgemm_step st = {name, run_shapes};
    s8_forced = plans[i];
    int good = check_step(8, &st, &p->call, &p->o, -1);
    double ms = time_step(p, run_shapes, reps);
    good = recheck_step(8, name, &p->call, &p->o) && good;
    ok = ok && good;
    double est = s8_estimate_us(c, g->resident[plans[i].config], plans[i].split, p->M, p->N, p->K, g) * 1e-3;
    int is_pick = plans[i].config == pick.config && plans[i].split == pick.split;
    printf("  %-8s %5d %8d %9.4f %9.4f%s%s\n", c->name, plans[i].split,
           ceil_div(p->M, c->bm) * ceil_div(p->N, c->bn) * plans[i].split, ms, est, is_pick ? "  <- picked" : "",
           good ? "" : "  (FAILED its check)");
    if (ms_best < 0 || ms < ms_best) ms_best = ms, best = plans[i];
    if (is_pick) ms_pick = ms;
  }
  s8_forced.config = -1; // kernel 8 picks its own plans again
  char a[64], b[64];
  s8_describe(&pick, a, sizeof(a));
  s8_describe(&best, b, sizeof(b));
  printf("kernel 8 picked %s (%.4f ms); the fastest was %s (%.4f ms): the pick takes %.1f %% longer\n", a, ms_pick, b,
         ms_best, 100.0 * (ms_pick / ms_best - 1.0));
  return ok;
}

#ifdef EXERCISE
// step 8's exercise: the learner's model (exercises/k8_model.cuh) need not be the finished one. At this run's
// shape and at every shape of -shapes' table, on this GPU, the finished model must rate the learner's pick within
// S8_EXERCISE_MARGIN of its own pick, the plan it rates best. Why 10 %: the finished model is itself only that
// good: its constants were fitted so that its pick is within 0 to 7 % of the fastest plan measured on the H100
// at every shape of the fit (docs/notes/prac5.md, "SGEMM kernel 8: how its plans were chosen"), so plans it
// rates under 10 % apart are plans it cannot tell apart; a pick that loses more (no split where split-K fills
// the idle SMs, a 64 x 64 tile at 4096^3) is a model that misses a wave or a cost
#define S8_EXERCISE_MARGIN 0.10
static int exercise_model_check(int M, int N, int K, const int (*shapes)[3], int nshapes) {
  const s8_gpu *g = s8_gpu_get();
  int near = 0, total = 0;
  for (int i = -1; i < nshapes; i++) {
    int m = i < 0 ? M : shapes[i][0], n = i < 0 ? N : shapes[i][1], k = i < 0 ? K : shapes[i][2];
    double best_us;
    s8_plan mine = s8_pick(m, n, k, NULL), answer = s8_pick_by(s8_estimate_us_answer, m, n, k, &best_us);
    double mine_us = s8_estimate_us_answer(&s8_configs[mine.config], g->resident[mine.config], mine.split, m, n, k, g);
    total++;
    if (mine_us <= (1.0 + S8_EXERCISE_MARGIN) * best_us) {
      near++;
    } else {
      char a[64], b[64];
      s8_describe(&mine, a, sizeof(a));
      s8_describe(&answer, b, sizeof(b));
      printf("exercise: at %d x %d x %d your model picks %s, which the finished model rates %.0f %% slower than its "
             "pick, %s\n",
             m, n, k, a, 100.0 * (mine_us / best_us - 1.0), b);
    }
  }
  printf("exercise: your model's pick is within %.0f %% of the finished model's best at %d of %d shapes\n",
         100.0 * S8_EXERCISE_MARGIN, near, total);
  return near == total;
}
#endif
