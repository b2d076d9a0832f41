/*
 * sgemm/k8_bench.h -- sgemm_ladder.cu's -shapes and -tune, and the check of step 8's exercise: kernel 8 measured
 * against cuBLAS over many shapes, and each of its plans against the one it picks. Not a lesson of its own;
 * included after sgemm/oracle.h.
 */
#ifndef SGEMM_K8_BENCH_H
#define SGEMM_K8_BENCH_H

// -shapes: kernels 7 and 8 against cuBLAS over shapes of every kind; M x N x K in LeetGPU's letters
// (A is M x N, C is M x K: N is the inner length). Squares; M, N or K small (256) with the others large; long
// inner lengths with few outputs (split-K's case); odd sizes that no tile divides; the program's default.
static const int shape_table[][3] = {
    {256, 256, 256},    {512, 512, 512},    {1000, 1001, 999},  {1024, 1024, 1024}, {1536, 1536, 1536},
    {2048, 2048, 2048}, {2500, 2500, 2500}, {4096, 4096, 4096}, {8192, 8192, 8192}, {3000, 5000, 7000},
    {4097, 4095, 4093}, {777, 3333, 1555},  {1999, 999, 2999},  {6000, 1000, 3000}, {256, 8192, 8192},
    {8192, 8192, 256},  {8192, 256, 8192},  {4096, 256, 4096},  {8192, 1024, 1024}, {1024, 1024, 8192},
    {8192, 512, 256},   {256, 8192, 256},   {512, 8192, 512},   {1024, 8192, 1024}, {2048, 8192, 2048},
    {300, 7000, 300},   {1000, 4000, 1000}, {256, 1024, 8192},
};
#define NSHAPES ((int)(sizeof(shape_table) / sizeof(shape_table[0])))

static int run_shapes_table(int seed, int reps) {
  int ok = 1, worst = -1, measured = 0, dev;
  double logsum = 0.0, worst_pct = 0.0;
  checkCudaErrors(cudaGetDevice(&dev));
  printf("\nkernels 7 and 8 against cuBLAS (FP32, CUBLAS_DEFAULT_MATH), median of %d; M x N x K: A is M x N, "
         "C is M x K\n",
         reps);
  printf("  %-16s %9s %8s %8s %8s %8s  %s\n", "M x N x K", "cuBLAS ms", "TFLOP/s", "k7 %", "k8 %", "k8 ms",
         "kernel 8's plan");
  for (int i = 0; i < NSHAPES; i++) {
    int M = shape_table[i][0], N = shape_table[i][1], K = shape_table[i][2];
    char size[64], plan[64];
    snprintf(size, sizeof(size), "%dx%dx%d", M, N, K);
    // A, B (and B padded), C, and the FP64 reference at its peak, while it is made
    size_t bytes = ((size_t)M * N + 2 * (size_t)N * K + (size_t)M * K) * sizeof(float) + reference_peak_bytes(M, N, K);
    if (bytes > device_usable_bytes()) {
      printf("  %-16s SKIP: %.0f MB of A, B, C and the FP64 reference do not fit in this GPU's free memory\n", size,
             bytes / 1e6);
      continue;
    }
    if (reference_too_long(dev, M, N, K)) {
      printf("  %-16s SKIP: this GPU has a display watchdog, which the FP64 reference of this product may outlast\n",
             size);
      continue;
    }
    sgemm_problem p;
    problem_setup(&p, M, N, K, seed, 0, 1);
    static const sgemm_step k7 = {"pipeline", run_pipeline}, k8 = {"shapes", run_shapes};
    int ok7 = check_step(7, &k7, &p.call, &p.o, -1), ok8 = check_step(8, &k8, &p.call, &p.o, -1);
    // each timed from a poisoned C (check_step and recheck_step leave it so), and what its last run left checked
    double ms0 = time_step(&p, run_cublas, reps);
    int ok0 = recheck_step(0, "cublas", &p.call, &p.o) && p.base_ok;
    double ms7 = time_step(&p, run_pipeline, reps);
    ok7 = recheck_step(7, k7.name, &p.call, &p.o) && ok7;
    double ms8 = time_step(&p, run_shapes, reps);
    ok8 = recheck_step(8, k8.name, &p.call, &p.o) && ok8;
    ok = ok && ok0 && ok7 && ok8;
    s8_plan pl = s8_pick(M, N, K, NULL);
    s8_describe(&pl, plan, sizeof(plan));
    double flops = 2.0 * M * N * K, pct8 = 100.0 * ms0 / ms8;
    printf("  %-16s %9.4f %8.2f %8.1f %8.1f %8.4f  %s%s\n", size, ms0, flops / (ms0 * 1e-3) / 1e12, 100.0 * ms0 / ms7,
           pct8, ms8, plan, (ok0 && ok7 && ok8) ? "" : "  (FAILED its check)");
    char extra[160];
    snprintf(extra, sizeof(extra), "kernel=8 TFLOPs=%.2f pct_cublas=%.1f pct_cublas_k7=%.1f plan=%s",
             flops / (ms8 * 1e-3) / 1e12, pct8, 100.0 * ms0 / ms7, plan);
    for (char *q = extra; *q; q++)
      if (*q == ' ' && q > strstr(extra, "plan=")) *q = '_';
    print_bench("5", "sgemm_shapes_k8", size, reps, ms8, -1.0, NULL, extra);
    logsum += log(pct8 / 100.0), measured++;
    if (worst < 0 || pct8 < worst_pct) worst = i, worst_pct = pct8;
    problem_free(&p);
  }
  if (worst >= 0)
    printf("kernel 8: geometric mean %.1f %% of cuBLAS over the shapes; the worst %.1f %% at %d x %d x %d\n",
           100.0 * exp(logsum / measured), worst_pct, shape_table[worst][0], shape_table[worst][1],
           shape_table[worst][2]);
  return ok;
}

typedef struct {
  const s8_plan *plan;
  sgemm_problem *p;
} s8_tune_call;

static void s8_tune_run(void *q) {
  s8_tune_call *t = (s8_tune_call *)q;
  s8_run_plan(t->plan, t->p->d_A, t->p->d_B, t->p->d_C, t->p->M, t->p->N, t->p->K);
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
static int exercise_model_check(int M, int N, int K) {
  const s8_gpu *g = s8_gpu_get();
  int near = 0, total = 0;
  for (int i = -1; i < NSHAPES; i++) {
    int m = i < 0 ? M : shape_table[i][0], n = i < 0 ? N : shape_table[i][1], k = i < 0 ? K : shape_table[i][2];
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

// -tune: every plan kernel 8 could run at this shape, timed, against the model's estimate and its pick
static int run_tune(sgemm_problem *p, int reps) {
  const s8_gpu *g = s8_gpu_get();
  double est_pick;
  s8_plan pick = s8_pick(p->M, p->N, p->K, &est_pick), best = pick;
  double ms_best = -1.0, ms_pick = -1.0;
  int ok = 1;
  printf("\nkernel 8's plans at %d x %d x %d (%d SMs): time, median of %d, and the model's estimate\n", p->M, p->N,
         p->K, g->sms, reps);
  printf("  %-8s %5s %8s %9s %9s\n", "config", "split", "blocks", "ms", "model ms");
  s8_plan plans[S8_MAX_PLANS];
  int nplans = s8_plans(p->M, p->N, p->K, plans);
  for (int i = 0; i < nplans; i++) {
    const s8_plan pl = plans[i];
    int c = pl.config, split = pl.split;
    // checked like every kernel, once on a poisoned C and once after its timed runs: a wrong plan must not win
    checkCudaErrors(cudaMemset(p->d_C, 0xff, (size_t)p->M * p->K * sizeof(float)));
    s8_run_plan(&pl, p->d_A, p->d_B, p->d_C, p->M, p->N, p->K);
    char name[64];
    snprintf(name, sizeof(name), "plan %s/%d", s8_configs[c].name, split);
    ref_stats r = judge_C(&p->o, p->d_C);
    if (r.nbad) judge_line(8, name, NULL, &p->o, &r), judge_failure(8, name, NULL, &p->o, &r);
    s8_tune_call tc = {&pl, p};
    double ms = time_median_ms(s8_tune_run, &tc, 2, reps);
    int again = recheck_step(8, name, &p->call, &p->o), good = r.nbad == 0 && again;
    ok = ok && good;
    double est = s8_estimate_us(&s8_configs[c], g->resident[c], split, p->M, p->N, p->K, g) * 1e-3;
    int is_pick = c == pick.config && split == pick.split;
    printf("  %-8s %5d %8d %9.4f %9.4f%s%s\n", s8_configs[c].name, split,
           ceil_div(p->M, s8_configs[c].bm) * ceil_div(p->K, s8_configs[c].bn) * split, ms, est,
           is_pick ? "  <- picked" : "", good ? "" : "  (FAILED its check)");
    if (ms_best < 0 || ms < ms_best) ms_best = ms, best = pl;
    if (is_pick) ms_pick = ms;
  }
  char a[64], b[64];
  s8_describe(&pick, a, sizeof(a));
  s8_describe(&best, b, sizeof(b));
  printf("kernel 8 picked %s (%.4f ms); the fastest was %s (%.4f ms): the pick takes %.1f %% longer\n", a, ms_pick, b,
         ms_best, 100.0 * (ms_pick / ms_best - 1.0));
  return ok;
}

#endif /* SGEMM_K8_BENCH_H */
