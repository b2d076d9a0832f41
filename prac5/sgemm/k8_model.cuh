/*
 * sgemm/k8_model.cuh -- kernel 8's cost model: how long a plan (configuration, split) should take, from the
 * shape and the GPU. sgemm/k8_plan.cuh runs it on every plan and keeps the fastest. The lesson of step 8:
 *  - waves: the blocks go round the SMs; an SM that gets one block more than the others finishes last, so the
 *    time is that of the busiest SM: ceil(blocks / SMs) blocks, `resident` of them at a time;
 *  - a block's work is BM x BN x (its slice of K) multiply-adds, done at the rate of its configuration: a
 *    bigger tile loads fewer bytes of shared memory a multiply-add (higher arithmetic intensity) and is faster
 *    per SM, as long as enough warps are resident to hide each other's latency;
 *  - every block first fills its pipeline (a memory latency) before the first multiply-add;
 *  - split-K writes split partial products and reads them back: (2 split + 1) M N 4 bytes more, and a launch.
 */
static double s8_estimate_us(const s8_config *c, int resident_max, int split, int M, int N, int K, const s8_gpu *g) {
  double blocks = (double)ceil_div(M, c->bm) * ceil_div(N, c->bn) * split;
  double ktiles = ceil_div(ceil_div(K, S8_BK), split); // 16-deep tiles of K a block multiplies
  double per_sm = ceil(blocks / g->sms);               // the busiest SM's blocks
  double resident = fmin(per_sm, resident_max), rounds = ceil(per_sm / resident);
  double rate = g->flops_sm_us * c->efficiency * s8_hiding(resident * c->threads / 32.0); // flops per microsecond
  double t = rounds * (resident * 2.0 * c->bm * c->bn * ktiles * S8_BK / rate + g->fill_us);
  if (split > 1) t += (2.0 * split + 1.0) * M * N * 4.0 / g->bytes_us + g->launch_us;
  return t;
}
