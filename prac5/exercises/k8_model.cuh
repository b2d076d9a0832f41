/*
 * exercises/k8_model.cuh -- handout step 8, kernel 8's cost model, to write. (The solution is
 * ../sgemm/k8_model.cuh.) sgemm/k8_pick.cuh calls it for every plan this GPU can run -- a configuration c
 * (a block of c->bm x c->bn outputs, c->threads threads, at most resident_max blocks per SM at once) and a
 * split of the inner length N into `split` slices -- and runs the plan with the least estimated time.
 * Until the TODOs are filled in, every plan costs the same, kernel 8 takes the first (128x128, no split)
 * whatever the shape, and ./exercises/sgemm_ladder -kernel=8 ends RESULT: FAIL (exercise not done: ...)
 * with the shapes where its pick differs from the finished model's. -tune shows the measured times.
 */
static double s8_estimate_us(const s8_config *c, int resident_max, int split, int M, int N, int K, const s8_gpu *g) {
  // TODO(step 8): the blocks: (tiles of C: M / c->bm times K / c->bn, each rounded up) x split, and
  // ktiles, the 16-deep tiles of N (rounded up) that one slice multiplies (rounded up over the slices)
  // TODO(step 8): the waves: the busiest SM gets ceil(blocks / g->sms) of them and runs `resident` at once
  // (at most resident_max), so it needs rounds = ceil(per_sm / resident) turns
  // TODO(step 8): one turn: resident blocks x 2 x bm x bn x ktiles x 16 flops at the SM's rate,
  // g->flops_sm_us x c->efficiency x s8_hiding(warps resident), plus g->fill_us
  // TODO(step 8): with split > 1, add split-K's traffic, (2 split + 1) M K 4 bytes at g->bytes_us, and a
  // launch, g->launch_us
  (void)c, (void)resident_max, (void)split;
  return 2.0 * M * N * K / g->flops_sm_us; // the same for every plan: not a choice yet
}
