/*
 * kernels/softmax_rows_plan.h -- softmax_rows' planner: who owns a row, and the shape of its launch.
 *
 * make_plan takes the method from -method=, or with auto from the row's length (warp up to WARP_MAX_COLS
 * columns, block up to a block's SPLIT_CHUNK, cluster up to CLUSTER_AUTO_MAX blocks, split past that), then
 * its shape: a warp's LANES, K and V, or the threads per block and the blocks per row. -threads= (threads per
 * row: up to 32 a warp's lanes, from 32 a block's threads) and -vec= (V) override the shape, each row then held
 * in the fewest vectors per thread that take it; plan_check says whether they can (practical 10 tunes them,
 * and its table sets them for this GPU and cols). What the GPU can do is
 * asked, never assumed: cluster_max asks the occupancy API how large a cluster runs, check_fits whether a
 * block of BLOCK_ROW floats per thread fits a SM. plan_chain gives the tolerance's d (the longest chain of
 * float additions in a row's sum), plan_describe the plan's line of output. Included by softmax_rows.cu after
 * the kernel headers, whose kernels the occupancy API is asked about; kernels/softmax_rows_dispatch.cuh
 * launches the plan.
 */
#ifndef SOFTMAX_ROWS_PLAN_H
#define SOFTMAX_ROWS_PLAN_H

enum { METHOD_AUTO, METHOD_WARP, METHOD_BLOCK, METHOD_CLUSTER, METHOD_SPLIT };
static const char *method_names[] = {"auto", "warp", "block", "cluster", "split"};

typedef struct {
  int method, lanes, k, v; // warp: LANES threads per row; every method: K vectors of V floats per thread
  int threads, chunks;     // block, cluster and split: threads per block; cluster and split: blocks per row
} rows_plan;

// the block kernel's instances: K vectors of V floats per thread, K a power of two up to 8 float4s or 16 floats
// (BLOCK_ROW's default and every smaller K that -threads= may ask for); NULL for any other
typedef void (*block_kernel)(const float *__restrict__, float *__restrict__, int);
static block_kernel block_instance(int k, int v) {
  if (v == 4) {
    switch (k) {
    case 1: return softmax_rows_block<1, 4>;
    case 2: return softmax_rows_block<2, 4>;
    case 4: return softmax_rows_block<4, 4>;
    case 8: return softmax_rows_block<8, 4>;
    }
  } else {
    switch (k) {
    case 1: return softmax_rows_block<1, 1>;
    case 2: return softmax_rows_block<2, 1>;
    case 4: return softmax_rows_block<4, 1>;
    case 8: return softmax_rows_block<8, 1>;
    case 16: return softmax_rows_block<16, 1>;
    }
  }
  return NULL;
}

// the largest cluster of full blocks (1024 threads) this device runs, 0 where it has no cluster launch or this
// build's code is older than 9.0 (why says which); asked once
static int cluster_max(int dev, char *why, size_t len) {
  static int max = -1;
  static char reason[200];
  if (max >= 0) {
    snprintf(why, len, "%s", reason);
    return max;
  }
  int can = 0;
  max = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&can, cudaDevAttrClusterLaunch, dev));
  if (!can)
    snprintf(reason, sizeof(reason), "this GPU has no thread block cluster launch");
  else if (kernel_can_run(softmax_rows_cluster<BLOCK_ROW / 4, 4>, dev, 90, "thread block clusters", reason,
                          sizeof(reason))) {
    // past 8 blocks is "non-portable": allowed here, and the occupancy API says how many fit
    checkCudaErrors(cudaFuncSetAttribute(softmax_rows_cluster<BLOCK_ROW / 4, 4>,
                                         cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    checkCudaErrors(
        cudaFuncSetAttribute(softmax_rows_cluster<BLOCK_ROW1, 1>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(16, 1);
    cfg.blockDim = dim3(1024);
    int a = 0, b = 0;
    checkCudaErrors(cudaOccupancyMaxPotentialClusterSize(&a, softmax_rows_cluster<BLOCK_ROW / 4, 4>, &cfg));
    checkCudaErrors(cudaOccupancyMaxPotentialClusterSize(&b, softmax_rows_cluster<BLOCK_ROW1, 1>, &cfg));
    max = a < b ? a : b;
    snprintf(reason, sizeof(reason), "a cluster holds at most %d blocks on this GPU", max);
  }
  snprintf(why, len, "%s", reason);
  return max;
}

static int next_pow2(int n) {
  int p = 1;
  while (p < n) p *= 2;
  return p;
}

// Can -method=, -threads= and -vec= (0: the plan's own) hold a row of cols? 0, or -1 with the reason in msg.
// A lane holds at most 32 floats (8 float4s or 32 floats, the warp kernel's instances), a block's thread
// SPLIT_CHUNK(V) / 1024 (BLOCK_ROW floats, or BLOCK_ROW1 when they are scalar).
static int plan_check(int method, int threads, int vec, int cols, char *msg, size_t len) {
  int v = vec ? vec : cols % 4 == 0 ? 4 : 1, per_thread = SPLIT_CHUNK(v) / 1024;
  if (vec != 0 && vec != 1 && vec != 4)
    return snprintf(msg, len, "-vec=%d: 1 (floats), 4 (float4s) or 0 (float4s where cols allows)", vec), -1;
  if (v == 4 && cols % 4)
    return snprintf(msg, len, "-vec=4: float4 loads need rows 16-byte aligned, cols a multiple of 4 (%d)", cols), -1;
  if (method == METHOD_WARP && cols > WARP_MAX_COLS)
    return snprintf(msg, len, "-method=warp holds each row in one warp's registers: cols = %d is more than %d", cols,
                    WARP_MAX_COLS), -1;
  if (method == METHOD_BLOCK && cols > SPLIT_CHUNK(v))
    return snprintf(msg, len, "-method=block holds each row in one block's registers: cols = %d is more than %d", cols,
                    SPLIT_CHUNK(v)), -1;
  if (!threads) return 0;
  if (method == METHOD_CLUSTER || method == METHOD_SPLIT)
    return snprintf(msg, len, "-threads= sets the warp and block methods' threads per row, not %s's",
                    method_names[method]), -1;
  if (threads <= 32 ? (threads & (threads - 1)) != 0 : threads % 32 != 0)
    return snprintf(msg, len, "-threads=%d: a warp's lanes per row (a power of two up to 32) or a block's "
                    "threads (a multiple of 32)", threads), -1;
  if (method == METHOD_WARP && threads > 32)
    return snprintf(msg, len, "-method=warp shares each row among at most 32 lanes (-threads=%d)", threads), -1;
  if (method == METHOD_BLOCK && threads % 32)
    return snprintf(msg, len, "-method=block runs whole warps: -threads=%d is no multiple of 32", threads), -1;
  int warp = method == METHOD_WARP || (method == METHOD_AUTO && threads <= 32), most = warp ? 32 : per_thread;
  if (threads * most < cols)
    return snprintf(msg, len, "-threads=%d: %d threads of at most %d floats each hold %d columns, not %d", threads,
                    threads, most, threads * most, cols), -1;
  return 0;
}

// the owner of a row from its length (and -method=), the shape from the device's limits (or from -threads= and
// -vec=, 0 for the plan's own, checked by plan_check)
static rows_plan make_plan(int method, int cols, int dev, int threads, int vec) {
  rows_plan p;
  memset(&p, 0, sizeof(p));
  char why[200];
  int v = vec ? vec : cols % 4 == 0 ? 4 : 1, chunk = SPLIT_CHUNK(v);
  int chunks = (cols + chunk - 1) / chunk, cmax = cluster_max(dev, why, sizeof(why));
  int vectors = (cols + v - 1) / v;                                         // a row's vectors of V floats
  if (method == METHOD_AUTO && threads) method = threads <= 32 ? METHOD_WARP : METHOD_BLOCK; // who, by -threads=
  if (method == METHOD_AUTO)
    method = cols <= WARP_MAX_COLS                                           ? METHOD_WARP
             : cols <= chunk                                                 ? METHOD_BLOCK
             : chunks <= (cmax < CLUSTER_AUTO_MAX ? cmax : CLUSTER_AUTO_MAX) ? METHOD_CLUSTER
                                                                             : METHOD_SPLIT;
  if (method == METHOD_CLUSTER && chunks > cmax)
    device_limit_exceeded("-method=cluster, %d blocks per row: %s", chunks, why);
  p.method = method;
  p.v = v;
  if (method == METHOD_WARP) {
    if (threads) { // -threads= lanes per row, each with the fewest vectors that take the row
      p.lanes = threads;
      p.k = next_pow2((vectors + threads - 1) / threads);
    } else if (p.v == 4) { // two float4s per thread (a second load in flight) while a row needs at most 64
      int need = cols / 4;
      p.k = need <= 1 ? 1 : need <= 64 ? 2 : next_pow2((need + 31) / 32);
      p.lanes = need <= 64 ? next_pow2((need + p.k - 1) / p.k) : 32;
    } else {
      p.lanes = 32;
      p.k = next_pow2((cols + 31) / 32);
    }
  } else {
    int per_block = method == METHOD_BLOCK ? cols : (cols < chunk ? cols : chunk), per_thread = chunk / 1024;
    p.threads = (per_block + per_thread - 1) / per_thread;
    p.threads = (p.threads + 31) / 32 * 32;
    p.k = per_thread / v; // BLOCK_ROW / 4 float4s, or BLOCK_ROW1 floats
    if (threads) {        // (block) -threads= per row, each with the fewest vectors that take the row
      p.threads = threads;
      p.k = next_pow2((vectors + threads - 1) / threads);
    }
    p.chunks = method == METHOD_BLOCK ? 1 : chunks;
  }
  return p;
}

// the block and split kernels need a block of up to 1024 threads with BLOCK_ROW floats each in registers: asked of
// the device (registers per block, threads per block) through the occupancy API, never assumed
static void check_fits(const rows_plan *p, int dev) {
  if (p->method == METHOD_WARP || p->method == METHOD_CLUSTER) return; // a cluster was sized by the occupancy API
  int per_sm = p->method == METHOD_BLOCK
                   ? occupancy_blocks_per_sm(block_instance(p->k, p->v), dev, p->threads, 0)
                   : (p->v == 4 ? occupancy_blocks_per_sm(softmax_rows_write<BLOCK_ROW / 4, 4>, dev, p->threads, 0)
                                : occupancy_blocks_per_sm(softmax_rows_write<BLOCK_ROW1, 1>, dev, p->threads, 0));
  if (per_sm == 0)
    exit(result_skip("a block of %d threads with %d floats each in registers does not fit a SM of this GPU", p->threads,
                     p->k * p->v));
}

// the longest chain of float additions in a row's sum: a thread's serial part, the tree, the chunks' merge
static int plan_chain(const rows_plan *p) {
  if (p->method == METHOD_WARP) return p->k * p->v + 5;
  return p->k * p->v + 10 +
         (p->method == METHOD_SPLIT     ? (p->chunks + p->threads - 1) / p->threads + 10
          : p->method == METHOD_CLUSTER ? p->chunks
                                        : 0);
}

// the plan in words, for the line softmax_rows prints before each size (the handout quotes it)
static void plan_describe(const rows_plan *p, char *buf, size_t len) {
  if (p->method == METHOD_WARP)
    snprintf(buf, len, "warp: %d lanes per row, %d x float%s per lane", p->lanes, p->k, p->v == 4 ? "4" : "");
  else if (p->method == METHOD_BLOCK)
    snprintf(buf, len, "block: a block of %d threads per row, %d floats per thread", p->threads, p->k * p->v);
  else
    snprintf(buf, len, "%s: %d blocks of %d threads per row, %d columns per block", method_names[p->method], p->chunks,
             p->threads, SPLIT_CHUNK(p->v));
}

#endif /* SOFTMAX_ROWS_PLAN_H */
