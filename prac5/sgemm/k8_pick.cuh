/*
 * sgemm/k8_pick.cuh -- kernel 8's choice: what each configuration gets on this GPU (stages, blocks per SM),
 * every plan (configuration, split of N) it can run, its time by the model of sgemm/k8_model.cuh, and the
 * fastest; the workspaces and s8_run_plan, which runs a plan; and run_shapes, kernel 8's solve(), which runs
 * the plan chosen for its shape (chosen once a shape, kept for the calls that follow).
 */

// the stages configuration c gets on this GPU: 4, or 2 where 4 do not fit in a block's shared memory, or 0
static int s8_stages(int c, const gpu_limits *g) {
  const s8_config *k = &s8_configs[c];
  if (s8_smem_bytes(k->bm, k->bn, 4) <= g->smem_block_optin) return 4;
  if (c == 0 && s8_smem_bytes(k->bm, k->bn, 2) <= g->smem_block_optin) return 2; // only 128x128 needs a 2
  return 0;
}

// blocks of configuration c a SM holds at once on this GPU (s8_launch with M = 0 asks the occupancy API)
static int s8_blocks_per_sm(int c, int stages) {
  s8_plan p = {c, 1, stages};
  return s8_dispatch(&p, NULL, NULL, NULL, 0, 0, 0, 0, 0, true);
}

// a grid of 256-thread blocks over rows x cols4 (4 floats per thread), at most 8 blocks per SM; rows beyond the
// grid are taken by a loop (gridDim.y at most 65535)
static dim3 s8_rows_grid(int cols4, int rows, int sms) {
  int most = 8 * sms, bx = ceil_div(cols4, 256);
  if (bx > most) bx = most;
  int by = most / bx > 0 ? most / bx : 1;
  return dim3(bx, rows < by ? rows : by);
}

static const s8_gpu *s8_gpu_get(void);

// the workspaces, kept between calls and grown when a call needs more: split-K's slices of C, and B with its
// rows padded to a multiple of 4 floats
static float *s8_work = NULL, *s8_bpad = NULL;
static size_t s8_work_bytes = 0, s8_bpad_bytes = 0;
static void s8_teardown(void) {
  if (s8_work) checkCudaErrors(cudaFree(s8_work));
  if (s8_bpad) checkCudaErrors(cudaFree(s8_bpad));
  s8_work = s8_bpad = NULL;
  s8_work_bytes = s8_bpad_bytes = 0;
}

// grows a workspace to `bytes`; the first call of a size (the check, before any timing) allocates, and poisons
// it: every kernel here writes all it reads, and one that did not would read NaN
static void s8_grow(float **p, size_t *have, size_t bytes) {
  if (bytes <= *have) return;
  if (*p) checkCudaErrors(cudaFree(*p));
  checkCudaErrors(cudaMalloc((void **)p, bytes));
  checkCudaErrors(cudaMemset(*p, 0xff, bytes)); // NaN: a slice a kernel forgot to write cannot pass
  *have = bytes;
}

// runs a plan: one launch, or with split > 1 the slices into the workspace and the ordered sum into C.
// B's tiles are copied 16 bytes at a time when its rows start on 16-byte boundaries (K a multiple of 4);
// otherwise B is first copied into rows padded to a multiple of 4 floats (sgemm_pad_rows: N K 8 bytes of
// traffic and a launch, far less than 4-byte copies of B cost the product on the H100 measured; the figures:
// docs/notes/prac5.md, "SGEMM kernel 8: how its plans were chosen")
static void s8_run_plan(const s8_plan *p, const float *A, const float *B, float *C, int M, int N, int K) {
  int ldb = K;
  if (!rows_aligned16(B, K)) {
    ldb = (K + 3) / 4 * 4;
    s8_grow(&s8_bpad, &s8_bpad_bytes, (size_t)N * ldb * sizeof(float));
    sgemm_pad_rows<<<s8_rows_grid(ldb / 4, N, s8_gpu_get()->sms), 256>>>(B, s8_bpad, N, K, ldb);
    getLastCudaError("sgemm_pad_rows execution failed");
    B = s8_bpad;
  }
  bool cvec = rows_aligned16(C, K);
  if (p->split == 1) {
    s8_dispatch(p, A, B, C, M, N, K, ldb, K, cvec);
    return;
  }
  // the slices' rows are ldb floats (K rounded up to a multiple of 4): 16-byte stores and loads throughout
  s8_grow(&s8_work, &s8_work_bytes, (size_t)p->split * M * ldb * sizeof(float));
  s8_dispatch(p, A, B, s8_work, M, N, K, ldb, ldb, true);
  sgemm_split_sum<<<s8_rows_grid(ceil_div(K, 4), M, s8_gpu_get()->sms), 256>>>(s8_work, C, M, K, ldb, p->split, cvec);
  getLastCudaError("sgemm_split_sum execution failed");
}

#ifndef S8_MODEL
#define S8_MODEL "k8_model.cuh"
#endif
#include S8_MODEL

#define S8_MAX_SPLIT 16

// whether split-K's workspace for M x K in `split` slices may be had: a slice's elements M x ldb (K rounded up
// to a multiple of 4) index in an int (sgemm.h's store4), and all the slices fit in `most` bytes
static int s8_split_fits(int M, int K, int split, size_t most) {
  size_t slice = (size_t)M * ((K + 3) / 4 * 4);
  return split == 1 || (slice <= 2147483647u && split * slice * sizeof(float) <= most);
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
  g.fill_us = 0.5;
  g.launch_us = 3.2;
  g.work_max = lim->mem_bytes / 16;
  done = 1;
  return &g;
}

// the plans this GPU can run for M x N x K, configuration by configuration, split by split; returns how many
#define S8_MAX_PLANS (S8_NCONFIGS * S8_MAX_SPLIT)
static int s8_plans(int M, int N, int K, s8_plan *out) {
  const s8_gpu *g = s8_gpu_get();
  int n = 0;
  for (int c = 0; c < S8_NCONFIGS; c++) {
    if (!g->stages[c] || !g->resident[c]) continue;
    for (int split = 1; split <= S8_MAX_SPLIT && split <= ceil_div(N, S8_BK); split++) {
      if (!s8_split_fits(M, K, split, g->work_max)) break;
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

// -plan=BMxBN/SPLIT: the plan kernel 8 runs instead of its own pick (config -1: none given)
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

// kernel 8, solve()'s signature: the plan for this shape (chosen on the first call of a shape)
static void run_shapes(const float *A, const float *B, float *C, int M, int N, int K) {
  static int pM = -1, pN = -1, pK = -1;
  static s8_plan plan;
  if (M != pM || N != pN || K != pK) {
    plan = s8_forced.config >= 0 ? s8_forced : s8_pick(M, N, K, NULL);
    pM = M, pN = N, pK = K;
  }
  if (plan.config < 0) {
    fprintf(stderr, "kernel 8: no configuration fits this GPU's shared memory\n");
    exit(EXIT_FAILURE);
  }
  s8_run_plan(&plan, A, B, C, M, N, K);
}
