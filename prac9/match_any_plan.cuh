/*
 * match_any_plan.cuh -- practical 9, step 3: the host side of match_any's kernels (match_any_kernel.cuh): the
 * block's shape and shared memory, chosen from the device's limits, and a run as time_median_ms calls it.
 */
// a run, as time_median_ms calls it: the walks, then the sum
typedef struct {
  ma_args a;
  int all_shared, record, nblocks, nthreads;
  size_t smem; // dynamic shared memory per block
  unsigned long long *d_counts;
} ma_plan;

template <bool ALL_SHARED, bool RECORD>
static void ma_launch(const ma_plan *m) {
  match_any_pfac<ALL_SHARED, RECORD><<<m->nblocks, m->nthreads, m->smem>>>(m->a);
  getLastCudaError("match_any_pfac execution failed");
}

static void match_any_run(void *p) {
  const ma_plan *m = (const ma_plan *)p;
  if (m->record)
    m->all_shared ? ma_launch<true, true>(m) : ma_launch<false, true>(m);
  else
    m->all_shared ? ma_launch<true, false>(m) : ma_launch<false, false>(m);
  match_any_sum<<<ceil_div(m->a.nacc, 256), 256>>>(m->a.rows, m->nblocks, m->a.nacc, m->d_counts);
  getLastCudaError("match_any_sum execution failed");
}

// The block's shape: 1024 threads, halved while the table does not fit whole beside their text columns and those
// take over half of what a block may have (limit: the opt-in maximum the device reports); then the whole table in
// shared memory where it fits (and -shared_kb allows), else its first slots, as many as fit at 8 bytes a slot (its
// word and its count) beside the columns and a count for each accepting state. 0 where not even 128 threads fit.
static int match_any_shape(ma_plan *m, int nslots, int nacc, size_t limit, int shared_kb) {
  const size_t table = 8 * (size_t)nslots, deep = 4 * (size_t)nacc;
  int t = 1024;
  while (t > 128 && (size_t)t * MA_COL + table > limit && (size_t)t * MA_COL > limit / 2) t /= 2;
  const size_t text = (size_t)t * MA_COL;
  if (limit < text + deep) return 0;
  size_t room = (limit - text - deep) / 8;
  if (shared_kb >= 0 && (size_t)shared_kb * 128 < room) room = (size_t)shared_kb * 128;
  m->nthreads = t;
  m->all_shared = text + table <= limit && (shared_kb < 0 || (size_t)shared_kb * 1024 >= table);
  m->a.nshared = m->all_shared ? nslots : room < (size_t)nslots ? (int)room : nslots;
  m->smem = 8 * (size_t)m->a.nshared + (m->all_shared ? 0 : deep) + text;
  return 1;
}

// each kernel may take smem bytes of dynamic shared memory (past 48 KB only when asked); their resident blocks
// per SM with it, the fewest of the four
static int match_any_prepare(int dev, int nthreads, size_t smem) {
  void (*k[4])(const ma_args) = {match_any_pfac<true, false>, match_any_pfac<false, false>, match_any_pfac<true, true>,
                                 match_any_pfac<false, true>};
  int per_sm = 1 << 30;
  for (int i = 0; i < 4; i++) {
    checkCudaErrors(cudaFuncSetAttribute(k[i], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    const int b = occupancy_blocks_per_sm(k[i], dev, nthreads, smem);
    if (b < per_sm) per_sm = b;
  }
  return per_sm;
}
