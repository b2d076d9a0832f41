/*
 * batch/b3_hybrid.cuh -- practical 7, step 9: one system per warp, the hybrid Thomas-PCR solver of Laszlo,
 * Giles and Appleyard (ACM TOMS 2016). Each lane reduces a chunk of about n/32 rows in registers to two rows
 * by a modified Thomas sweep, the warp solves the 64 reduced rows by PCR with shuffles (batch/pcr_warp.cuh),
 * and each lane fills in its chunk; loads and stores go through shared memory, coalesced, and each warp
 * copies its next system in (cp.async) while it solves this one. LMAX, the smallest power of two (2 .. 32) with
 * 32 LMAX >= n, bounds a lane's chunk and is a template parameter, so that the chunk sits in registers; n > 1024
 * takes GPU_trid_hybrid_big.
 * STAGES (-stages=, 1 .. 3) is how many systems each warp holds in shared memory: the one it solves and STAGES - 1
 * whose copies are in flight. More stages keep more bytes in flight per warp, fewer let more warps onto a SM:
 * a trade practical 10 tunes per GPU and n, with -warps. Without cp.async (code for compute capability < 8.0) a
 * stage's copies are plain loads and stores, so a second stage has nothing in flight: hybrid_default_stages.
 */
#ifndef BATCH_B3_HYBRID_CUH
#define BATCH_B3_HYBRID_CUH

#include "cp_async.h"
#include "timing.h"
#include "batch/layout.cuh"
#include "batch/pcr_warp.cuh"

#define HYBRID_WARPS 4  // GPU_trid_hybrid: systems (warps) per block, the default of -warps
#define HYBRID_STAGES 2 // ... and systems per warp in shared memory, the default of -stages (1 .. 3)

// Stage system `base` into shared memory st: element i of each array (i = 32 j + lane: a warp reads 128
// consecutive bytes) to st[i + j], st[P + i + j], ... (the skew i/32 keeps a lane's chunk and its
// neighbours' in different banks). The copies are asynchronous (../common/cp_async.h): on sm_80 and later
// the bytes go straight to shared memory and the thread goes on at once, to wait for them with cp_async_wait.
template <int LMAX>
__device__ __forceinline__ void hybrid_stage(int n, int lane, size_t base, const float *__restrict__ a,
                                             const float *__restrict__ b, const float *__restrict__ c,
                                             const float *__restrict__ d, float *st) {
  const int P = 33 * LMAX;
  a += base + lane, b += base + lane, c += base + lane, d += base + lane, st += lane;
#pragma unroll
  for (int j = 0; j < LMAX; j++) {
    if (32 * j + lane < n) {
      copy4_to_shared(st + 33 * j, a + 32 * j);
      copy4_to_shared(st + P + 33 * j, b + 32 * j);
      copy4_to_shared(st + 2 * P + 33 * j, c + 32 * j);
      copy4_to_shared(st + 3 * P + 33 * j, d + 32 * j);
    }
  }
}

// Solve the system staged in sh (hybrid_stage) into x[base ..]; sh is reused for the solution on the way out.
template <int LMAX>
__device__ __forceinline__ void hybrid_solve(int n, int lane, size_t base, float *sh, float *__restrict__ x) {
  const int P = 33 * LMAX;
  // this lane's chunk: rows start .. start + len - 1 (hybrid_chunk in trid_gold.c: len = n/32 or n/32 + 1 >= 2)
  int q = n / 32, rem = n % 32;
  int start = lane * q + min(lane, rem), len = q + (lane < rem ? 1 : 0);

  // modified Thomas, forward: rows 0 and 1 normalised; row k >= 2 made to read A[k] x0 + x[k] + C[k] x[k+1] = D[k]
  // The last row is final after this sweep: it is kept as the reduced row L here, from the values just
  // computed (reading ra[len - 1] later would index registers by a run-time value: local memory)
  float ra[LMAX], rc[LMAX], rd[LMAX], aL = 0.0f, cL = 0.0f, dL = 0.0f;
#pragma unroll
  for (int k = 0; k < LMAX; k++) {
    if (k < len) {
      int i = start + k, p = i + i / 32;
      float ak = (i > 0) ? sh[p] : 0.0f, bk = sh[P + p], ck = (i < n - 1) ? sh[2 * P + p] : 0.0f, dk = sh[3 * P + p];
      float r = 1.0f / ((k < 2) ? bk : bk - ak * rc[k - 1]);
      rd[k] = (k < 2) ? r * dk : r * (dk - ak * rd[k - 1]);
      ra[k] = (k < 2) ? r * ak : -r * ak * ra[k - 1];
      rc[k] = r * ck;
      aL = ra[k]; // every row overwrites them, so that the last one leaves its values: a test k == len - 1
      cL = rc[k]; // here, nvcc may turn into one read of ra[len - 1] after the loop (a run-time index into
      dL = rd[k]; // registers: local memory)
    }
  }
  __syncwarp(); // all reads of sh done: it is reused for x below

  // backward: row k (1 <= k <= len-3) made to read A[k] x0 + x[k] + C[k] x[len-1] = D[k]
#pragma unroll
  for (int k = LMAX - 3; k >= 1; k--) {
    if (k <= len - 3) {
      rd[k] -= rc[k] * rd[k + 1];
      ra[k] -= rc[k] * ra[k + 1];
      rc[k] = -rc[k] * rc[k + 1];
    }
  }

  // the two reduced rows: F (x0, with the previous lane's last unknown and x[len-1]) and L (x[len-1], with
  // x0 and the next lane's first unknown)
  float aF, cF, dF;
  if (len >= 3) {
    float r = 1.0f / (1.0f - rc[0] * ra[1]);
    aF = r * ra[0];
    dF = r * (rd[0] - rc[0] * rd[1]);
    cF = -r * rc[0] * rc[1];
  } else {
    aF = ra[0];
    cF = rc[0];
    dF = rd[0];
  }

  pcr_warp64(lane, aF, cF, dF, aL, cL, dL); // now x0 = dF, x[len-1] = dL

  // back-substitution in registers, into sh, then out coalesced
#pragma unroll
  for (int k = 0; k < LMAX; k++) {
    if (k < len) {
      int i = start + k;
      float v = (k == 0) ? dF : (k == len - 1) ? dL : rd[k] - ra[k] * dF - rc[k] * dL;
      sh[i + i / 32] = v;
    }
  }
  __syncwarp();
#pragma unroll
  for (int j = 0; j < LMAX; j++) {
    int i = 32 * j + lane;
    if (i < n) x[base + i] = sh[i + j];
  }
}

// Each warp solves systems w, w + W, w + 2W, ... (W: the warps of the grid, a few waves of the GPU: the
// launcher sizes the grid to what fits at once). While it solves one system, the copies of the next STAGES - 1
// into its other stages are already in flight (cp.async), so that the warp's loads overlap its own arithmetic
// rather than only other warps'; STAGES = 1 loads, waits, then solves. LMAX: the most rows a lane's chunk may
// have (n <= 32 LMAX), so that the chunk's a, c, d sit in registers (fully unrolled loops over LMAX, each step
// guarded by k < len). Shared memory: STAGES stages per warp of four arrays of 33 LMAX floats.
template <int LMAX, int STAGES>
__global__ void GPU_trid_hybrid(int n, int batch, const float *__restrict__ a, const float *__restrict__ b,
                                const float *__restrict__ c, const float *__restrict__ d, float *__restrict__ x) {
  extern __shared__ float smem[];
  const int P = 33 * LMAX;
  int lane = threadIdx.x % 32, wib = threadIdx.x / 32, W = gridDim.x * (blockDim.x / 32);
  int sys = blockIdx.x * (blockDim.x / 32) + wib;
  if (n < 64) { // no stages: rows straight into PCR
    for (; sys < batch; sys += W) hybrid_short(n, lane, (size_t)sys * n, a, b, c, d, x);
    return;
  }
  float *mine = smem + (size_t)wib * STAGES * 4 * P, *end = mine + STAGES * 4 * P; // this warp's stages
  for (int s = 0; s < STAGES - 1; s++) { // the first STAGES - 1 systems' copies in flight, a group each
    if (sys + s * W < batch) hybrid_stage<LMAX>(n, lane, (size_t)(sys + s * W) * n, a, b, c, d, mine + s * 4 * P);
    cp_async_commit();
  }
  // stage: the system solved this time round; fill: where the copies of the one STAGES - 1 ahead go, the stage
  // solved last time round (with one stage, this one's)
  float *stage = mine, *fill = mine + (STAGES - 1) * 4 * P;
  for (; sys < batch; sys += W) { // the same trip count for every lane of the warp
    int ahead = sys + (STAGES - 1) * W;
    if (ahead < batch) hybrid_stage<LMAX>(n, lane, (size_t)ahead * n, a, b, c, d, fill);
    cp_async_commit(); // (an empty group when there is none: the wait below still means "this one")
    cp_async_wait<STAGES - 1>(); // this lane's copies of the system to solve have landed ...
    __syncwarp();                // ... and every lane's
    hybrid_solve<LMAX>(n, lane, (size_t)sys * n, stage, x);
    __syncwarp(); // every lane is done with this stage before the next iteration's copies refill it
    float *next = STAGES == 2 ? fill : stage + 4 * P == end ? mine : stage + 4 * P; // the next round's (two: a swap)
    fill = stage;
    stage = next;
  }
}

// Systems of more than 32 * 32 rows: the same algorithm with each lane's chunk in global memory (w holds the
// modified a and c, x the modified d until it is overwritten by the solution). Correct for any n, but the
// lanes' accesses are len floats apart, so this path is no fast one.
__global__ void GPU_trid_hybrid_big(int n, int batch, const float *__restrict__ a, const float *__restrict__ b,
                                    const float *__restrict__ c, const float *__restrict__ d, float *__restrict__ w,
                                    float *__restrict__ x) {
  int lane = threadIdx.x % 32;
  int sys = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (sys >= batch) return;
  size_t base = (size_t)sys * n;
  int q = n / 32, rem = n % 32;
  int start = lane * q + min(lane, rem), len = q + (lane < rem ? 1 : 0);
  size_t o = base + start;
  float *A = w + 2 * o, *C = w + 2 * o + len, *D = x + o; // this lane's len values of each (w: 2 n batch floats)
  for (int k = 0; k < len; k++) {
    size_t i = o + k;
    float ak = (start + k > 0) ? a[i] : 0.0f, bk = b[i], ck = (start + k < n - 1) ? c[i] : 0.0f, dk = d[i];
    if (k < 2) {
      float r = 1.0f / bk;
      A[k] = r * ak;
      C[k] = r * ck;
      D[k] = r * dk;
    } else {
      float r = 1.0f / (bk - ak * C[k - 1]);
      D[k] = r * (dk - ak * D[k - 1]);
      A[k] = -r * ak * A[k - 1];
      C[k] = r * ck;
    }
  }
  for (int k = len - 3; k >= 1; k--) {
    D[k] -= C[k] * D[k + 1];
    A[k] -= C[k] * A[k + 1];
    C[k] = -C[k] * C[k + 1];
  }
  float r = 1.0f / (1.0f - C[0] * A[1]); // len >= 33 here
  float aF = r * A[0], dF = r * (D[0] - C[0] * D[1]), cF = -r * C[0] * C[1];
  float aL = A[len - 1], cL = C[len - 1], dL = D[len - 1];
  pcr_warp64(lane, aF, cF, dF, aL, cL, dL);
  for (int k = 1; k < len - 1; k++) D[k] = D[k] - A[k] * dF - C[k] * dL;
  D[0] = dF;
  D[len - 1] = dL;
}

// the shared memory GPU_trid_hybrid<LMAX, STAGES> needs for `warps` warps: `stages` stages of four arrays per warp
static size_t hybrid_smem(int lmax, int warps, int stages) {
  return (size_t)warps * stages * 4 * 33 * lmax * sizeof(float);
}

// -stages' default where neither the command line nor a table sets it: HYBRID_STAGES where the code this binary
// holds for this GPU has cp.async (8.0, in the code and in the GPU or its profile: an sm_75 build on an H100 has
// none), else 1. Without it a copy is a load, then a store that waits for the load: the next system's copies end
// before this one is solved, so a second stage overlaps nothing and only halves the warps that fit on a SM.
static int hybrid_default_stages(int dev) {
  char why[256];
  return kernel_can_run(GPU_trid_hybrid<2, HYBRID_STAGES>, dev, 80, "cp.async", why, sizeof(why)) ? HYBRID_STAGES : 1;
}

// a grid of as many blocks as the GPU runs at once (each warp then loops over its systems), or fewer if the
// batch is smaller
template <int LMAX, int STAGES>
static void launch_hybrid_lmax(const trid_args *t) {
  size_t shmem = t->n < 64 ? 0 : hybrid_smem(LMAX, t->warps, STAGES);
  // blocks per SM, asked once for each (warps, shared memory) of this instance: the timed calls ask nothing
  static int known_warps = 0, sms = 0, per_sm = 0;
  static size_t known_shmem = 0;
  if (known_warps != t->warps || known_shmem != shmem) {
    int dev = 0;
    checkCudaErrors(cudaGetDevice(&dev));
    sms = device_limits(dev)->sms;
    per_sm = occupancy_blocks_per_sm(GPU_trid_hybrid<LMAX, STAGES>, dev, 32 * t->warps, shmem);
    known_warps = t->warps;
    known_shmem = shmem;
  }
  long long blocks = (t->batch + t->warps - 1) / t->warps, fit = (long long)sms * (per_sm > 0 ? per_sm : 1);
  if (blocks > fit) blocks = fit;
  GPU_trid_hybrid<LMAX, STAGES><<<(int)blocks, 32 * t->warps, shmem>>>(t->n, t->batch, t->a, t->b, t->c, t->d, t->x);
  getLastCudaError("GPU_trid_hybrid execution failed");
}

template <int LMAX>
static void launch_hybrid_stages(const trid_args *t) {
  switch (t->stages) {
  case 1: launch_hybrid_lmax<LMAX, 1>(t); break;
  case 3: launch_hybrid_lmax<LMAX, 3>(t); break;
  default: launch_hybrid_lmax<LMAX, 2>(t);
  }
}

// the smallest LMAX (rows per lane) that holds n: 2 for n <= 64 (n < 64 takes the short path), up to 32
static int hybrid_lmax(int n) {
  int lmax = 2;
  while (32 * lmax < n && lmax < 64) lmax *= 2;
  return lmax;
}

static void launch_hybrid(void *p) {
  trid_args *t = (trid_args *)p;
  switch (hybrid_lmax(t->n)) {
  case 2: launch_hybrid_stages<2>(t); break;
  case 4: launch_hybrid_stages<4>(t); break;
  case 8: launch_hybrid_stages<8>(t); break;
  case 16: launch_hybrid_stages<16>(t); break;
  case 32: launch_hybrid_stages<32>(t); break;
  default: {
    int blocks = (t->batch + t->warps - 1) / t->warps;
    GPU_trid_hybrid_big<<<blocks, 32 * t->warps>>>(t->n, t->batch, t->a, t->b, t->c, t->d, t->w, t->x);
    getLastCudaError("GPU_trid_hybrid_big execution failed");
  }
  }
}

// let every instantiation that fits use more than 48 KB of shared memory (an opt-in since sm_70)
static void hybrid_allow_smem(int warps, size_t optin) {
#define ALLOW(L, S)                                                                                          \
  if (hybrid_smem(L, warps, S) <= optin)                                                                     \
    checkCudaErrors(cudaFuncSetAttribute(GPU_trid_hybrid<L, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, \
                                         (int)hybrid_smem(L, warps, S)));
#define ALLOW_STAGES(L) ALLOW(L, 1) ALLOW(L, 2) ALLOW(L, 3)
  ALLOW_STAGES(2) ALLOW_STAGES(4) ALLOW_STAGES(8) ALLOW_STAGES(16) ALLOW_STAGES(32)
#undef ALLOW_STAGES
#undef ALLOW
}

// -bench without -warps: the hybrid at 1, 2, 4, 8 warps per block (those whose shared memory fits, at its
// stages), each timed and printed; returns the fastest number of warps and its time in *best
static int hybrid_best_warps(trid_args *t, int lmax, size_t optin, int reps, double moved, float *best) {
  int best_w = t->warps;
  *best = 1e30f;
  for (int w = 1; w <= 8; w *= 2) {
    if (lmax <= 32 && hybrid_smem(lmax, w, t->stages) > optin) continue;
    t->warps = w;
    hybrid_allow_smem(w, optin);
    float ms = time_median_ms(launch_hybrid, t, 3, reps);
    printf("GPU_trid_hybrid, %d warp%s per block: %.4f ms, %.1f GB/s\n", w, w == 1 ? "" : "s", ms,
           moved / (ms * 1e-3) / 1e9);
    if (ms < *best) {
      *best = ms;
      best_w = w;
    }
  }
  return best_w;
}

#endif /* BATCH_B3_HYBRID_CUH */
