/*
 * exercises/k8_model.cuh -- handout step 8, kernel 8's cost model, to write. (The solution is
 * ../sgemm/k8_model.cuh.) sgemm/k8_plan.cuh calls it for every plan this GPU can run -- a configuration c
 * (a block of c->bm x c->bn outputs, c->threads threads, at most resident_max blocks per SM at once) and a
 * split of the inner length K into `split` slices -- and runs the plan with the least estimate: only the
 * order of your estimates matters. Your model need not be the finished one: the check
 * passes when, at every shape of -shapes and the run's own, the finished model rates your pick within 10 % of
 * its own best (sgemm/k8_plan.cuh says why 10 %). Until then ./exercises/sgemm_ladder -kernel=8 lists the
 * shapes where your pick falls short and ends RESULT: FAIL (exercise not done: ...). -tune times every plan.
 */
static double s8_estimate_us(const s8_config *c, int resident_max, int split, int M, int N, int K, const s8_gpu *g) {
  // TODO(step 8): estimate the plan's time in microseconds. Work out question 9 by hand first (C 256 x 256,
  // an inner length of 8192, 132 SMs: 128x128 without a split against 64x64 split 16); then, for any plan:
  //  - waves: how many blocks does the plan launch (tiles of C, times the slices)? How many of them does the
  //    busiest of the g->sms SMs get, and in how many waves does it run them, at most resident_max at once?
  //  - a wave: how many multiply-adds does a block do (mind that the inner length is walked in whole tiles,
  //    S8_BK = 16 deep)? How fast does an SM do them? s8_gpu, s8_config and s8_hiding() in sgemm/k8_plan.cuh
  //    say in their comments what they hold: a peak, the share of it a tile reaches, and what is lost when too
  //    few warps are resident (s8_hiding takes warps: blocks at once x c->threads / 32). What does a wave
  //    cost before its first multiply-add (g->fill_us)?
  //  - split-K: what does a split > 1 cost that no split does? The slices are written to a workspace and
  //    read back and added by a second kernel (bytes at g->bytes_us per microsecond), and that is a launch,
  //    g->launch_us.
  (void)c, (void)resident_max, (void)split;
  return 2.0 * M * N * K / g->flops_sm_us; // the same for every plan: not a choice yet
}
