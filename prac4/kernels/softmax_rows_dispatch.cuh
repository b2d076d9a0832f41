/*
 * kernels/softmax_rows_dispatch.cuh -- softmax_rows' launch of each method, from its plan
 * (kernels/softmax_rows_plan.h). run_rows is the one call the runner makes: once to check, then -reps times
 * under bench_report. The warp kernel's instance for the plan's (LANES, K, V) comes from a table, the block
 * kernel's for its (K, V) from block_instance (kernels/softmax_rows_plan.h); the cluster and split kernels take
 * float4 loads where the plan's V is 4 (cols a multiple of 4, BLOCK_ROW / 4 float4s per thread) and scalar ones
 * otherwise (BLOCK_ROW1 floats per thread). Every launch is checked.
 * Included by softmax_rows.cu after the plan.
 */
#ifndef SOFTMAX_ROWS_DISPATCH_CUH
#define SOFTMAX_ROWS_DISPATCH_CUH

// one size's arrays and its plan: what bench_report hands run_rows
typedef struct {
  const float *x;
  float *y;
  float2 *partial; // split: the (max, sum) of each chunk of each row
  long long rows;
  int cols;
  rows_plan plan;
} rows_args;

// warp: LANES threads per row, 256 threads per block
template <int LANES, int K, int V>
static void launch_warp(const rows_args *a) {
  long long threads = a->rows * LANES;
  softmax_rows_warp<LANES, K, V><<<(unsigned)((threads + 255) / 256), 256>>>(a->x, a->y, a->rows, a->cols);
  getLastCudaError("softmax_rows_warp execution failed");
}

// the warp kernel's instances: every (LANES, K, V) make_plan can pick for cols <= WARP_MAX_COLS, with or without
// -threads= and -vec=: LANES a power of two up to 32, each lane at most 32 floats (8 float4s, or 32 floats)
typedef struct {
  int lanes, k, v;
  void (*launch)(const rows_args *);
} warp_instance;

#define WARP_V4(L) {L, 1, 4, launch_warp<L, 1, 4>}, {L, 2, 4, launch_warp<L, 2, 4>}, {L, 4, 4, launch_warp<L, 4, 4>}, \
                   {L, 8, 4, launch_warp<L, 8, 4>}
#define WARP_V1(L) {L, 1, 1, launch_warp<L, 1, 1>}, {L, 2, 1, launch_warp<L, 2, 1>}, {L, 4, 1, launch_warp<L, 4, 1>}, \
                   {L, 8, 1, launch_warp<L, 8, 1>}, {L, 16, 1, launch_warp<L, 16, 1>}, {L, 32, 1, launch_warp<L, 32, 1>}
static const warp_instance warp_instances[] = {
    WARP_V4(1), WARP_V4(2), WARP_V4(4), WARP_V4(8), WARP_V4(16), WARP_V4(32), // float4s (cols a multiple of 4)
    WARP_V1(1), WARP_V1(2), WARP_V1(4), WARP_V1(8), WARP_V1(16), WARP_V1(32), // scalar floats
};
#undef WARP_V4
#undef WARP_V1

static void run_warp(const rows_args *a) {
  const rows_plan *p = &a->plan;
  for (size_t i = 0; i < sizeof(warp_instances) / sizeof(warp_instances[0]); i++) {
    const warp_instance *w = &warp_instances[i];
    if (w->lanes == p->lanes && w->k == p->k && w->v == p->v) {
      w->launch(a);
      return;
    }
  }
  exit(result_fail("no warp kernel for %d lanes x %d x %d", p->lanes, p->k, p->v));
}

// block: one block of plan.threads threads per row, the instance of the plan's K and V
static void run_block(const rows_args *a) {
  block_kernel kernel = block_instance(a->plan.k, a->plan.v);
  if (!kernel) exit(result_fail("no block kernel for %d x %d", a->plan.k, a->plan.v));
  kernel<<<(unsigned)a->rows, a->plan.threads>>>(a->x, a->y, a->cols);
  getLastCudaError("softmax_rows_block execution failed");
}

// cluster: grid (blocks per row, rows), the blocks of a row one cluster, launched with its cluster dimension
template <int K, int V>
static void launch_cluster(const rows_args *a) {
  const rows_plan *p = &a->plan;
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr = {};
  cfg.gridDim = dim3(p->chunks, (unsigned)a->rows);
  cfg.blockDim = dim3(p->threads);
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = p->chunks, attr.val.clusterDim.y = 1, attr.val.clusterDim.z = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  checkCudaErrors(cudaLaunchKernelEx(&cfg, softmax_rows_cluster<K, V>, a->x, a->y, a->cols));
  getLastCudaError("softmax_rows_cluster execution failed");
}

// split: grid (blocks per row, rows); each block's (max, sum) into partial, then each block's chunk written
template <int K, int V>
static void launch_split(const rows_args *a) {
  dim3 grid(a->plan.chunks, (unsigned)a->rows);
  softmax_rows_stats<K, V><<<grid, a->plan.threads>>>(a->x, a->partial, a->cols);
  getLastCudaError("softmax_rows_stats execution failed");
  softmax_rows_write<K, V><<<grid, a->plan.threads>>>(a->x, a->y, a->partial, a->cols);
  getLastCudaError("softmax_rows_write execution failed");
}

// one run of the plan's method on a (a rows_args *, as bench_report passes it)
static void run_rows(void *arg) {
  const rows_args *a = (const rows_args *)arg;
  int v4 = a->plan.v == 4;
  switch (a->plan.method) {
  case METHOD_WARP:
    run_warp(a);
    break;
  case METHOD_BLOCK:
    run_block(a);
    break;
  case METHOD_CLUSTER:
    if (v4)
      launch_cluster<BLOCK_ROW / 4, 4>(a);
    else
      launch_cluster<BLOCK_ROW1, 1>(a);
    break;
  default: // METHOD_SPLIT
    if (v4)
      launch_split<BLOCK_ROW / 4, 4>(a);
    else
      launch_split<BLOCK_ROW1, 1>(a);
  }
}

#endif /* SOFTMAX_ROWS_DISPATCH_CUH */
