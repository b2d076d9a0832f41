/*
 * trid_batch.cu -- practical 7, steps 7-9: a batch of general tridiagonal systems, three ways of sharing
 * the work among threads, and NVIDIA's cuSPARSE on the same data in the same run.
 *
 * `batch` systems of n unknowns each, a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i], with random
 * coefficients made diagonally dominant (|b| >= |a| + |c| + 0.5, either sign), stored one system after another
 * (system s at s*n). Three kernels, each checked against a Thomas gold in double and by its residual
 * ||A x - d||_inf / ||d||_inf computed in double:
 *   GPU_pcr_block      one system a block, one thread a row: trid_dyn's PCR with general coefficients,
 *                      normalised as they are loaded (n <= 1024)
 *   GPU_thomas_thread  one system a thread: the Thomas algorithm, on the interleaved layout (row i of
 *                      system s at i*batch + s), so that a warp's 32 loads are 128 consecutive bytes
 *   GPU_trid_hybrid    one system a warp: the hybrid Thomas-PCR of Laszlo, Giles and Appleyard (ACM TOMS
 *                      2016): each lane reduces a chunk of about n/32 rows in registers to two rows by a
 *                      modified Thomas sweep, the warp solves the 64 reduced rows by PCR with shuffles, and
 *                      each lane fills in its chunk; loads and stores go through shared memory, coalesced,
 *                      and each warp copies its next system in (cp.async) while it solves this one
 * -lib adds cuSPARSE's gtsv2StridedBatch (same layout) and gtsvInterleavedBatch (interleaved layout), with
 * their residuals; -bench times everything against a device-to-device copy of the same 20 bytes an unknown
 * (a, b, c, d read, x written).
 *   nvcc -O3 -arch=sm_90 -I../common trid_batch.cu trid_gold.c -lcusparse -Xcompiler -fopenmp -o trid_batch
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cp_async.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "helper_cusparse.h"
#include "timing.h"

#include "prac7_gold.h"

#define MAX_UNKNOWNS (1LL << 28) // n * batch: 1 GiB an array
#define PCR_MAX_N 1024           // GPU_pcr_block: one thread a row
#define HYBRID_WARPS 4           // GPU_trid_hybrid: systems (warps) a block, the default of -warps
#define FULL_MASK 0xffffffffu

// ---- one system a block: PCR (step 7) ---------------------------------------------------------------------
// thread i owns row i, normalised as it is loaded; trid_dyn's steps otherwise
__global__ void GPU_pcr_block(int n, const float *__restrict__ a, const float *__restrict__ b,
                              const float *__restrict__ c, const float *__restrict__ d, float *__restrict__ x) {
  extern __shared__ float smem[];
  float *sa = smem, *sc = smem + n, *sd = smem + 2 * n;
  int i = threadIdx.x;
  size_t k = (size_t)blockIdx.x * n + i;
  float r = 1.0f / b[k];
  sa[i] = (i > 0) ? r * a[k] : 0.0f;
  sc[i] = (i < n - 1) ? r * c[k] : 0.0f;
  sd[i] = r * d[k];
  __syncthreads();
  for (int s = 1; s < n; s *= 2) {
    float am = 0.0f, cm = 0.0f, dm = 0.0f, ap = 0.0f, cp = 0.0f, dp = 0.0f;
    if (i - s >= 0) {
      am = sa[i - s];
      cm = sc[i - s];
      dm = sd[i - s];
    }
    if (i + s < n) {
      ap = sa[i + s];
      cp = sc[i + s];
      dp = sd[i + s];
    }
    float ai = sa[i], ci = sc[i], di = sd[i];
    __syncthreads();
    float q = 1.0f / (1.0f - ai * cm - ci * ap);
    sa[i] = -q * ai * am;
    sc[i] = -q * ci * cp;
    sd[i] = q * (di - ai * dm - ci * dp);
    __syncthreads();
  }
  x[k] = sd[i];
}

// ---- one system a thread: Thomas on the interleaved layout (step 8) ---------------------------------------
// thread s solves system s; row i of every system is one contiguous run of `batch` floats, so consecutive
// threads read consecutive addresses. The forward sweep stores c' in w and d' in x; the backward sweep
// turns x into the solution.
__global__ void GPU_thomas_thread(int n, int batch, const float *__restrict__ a, const float *__restrict__ b,
                                  const float *__restrict__ c, const float *__restrict__ d, float *__restrict__ w,
                                  float *__restrict__ x) {
  int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= batch) return;
  float cp = 0.0f, dp = 0.0f;
  for (int i = 0; i < n; i++) {
    size_t k = (size_t)i * batch + s;
    float ai = (i > 0) ? a[k] : 0.0f, ci = (i < n - 1) ? c[k] : 0.0f;
    float r = 1.0f / (b[k] - ai * cp);
    cp = r * ci;
    dp = r * (d[k] - ai * dp);
    w[k] = cp;
    x[k] = dp;
  }
  float xn = dp;
  for (int i = n - 2; i >= 0; i--) {
    size_t k = (size_t)i * batch + s;
    xn = x[k] - w[k] * xn;
    x[k] = xn;
  }
}

// the layouts: out[col * rows + row] = in[row * cols + col], through a 32 x 33 tile (the 33 keeps the tile's
// columns in different banks); blocks of 32 x 8 threads (at most 2^31 - 1 tiles in x: the
// columns of an n-long system; a grid of at most 65535 in y marches over the row tiles)
__global__ void transpose(int rows, int cols, const float *__restrict__ in, float *__restrict__ out) {
  __shared__ float tile[32][33];
  int c0 = blockIdx.x * 32;
  for (int r0 = blockIdx.y * 32; r0 < rows; r0 += gridDim.y * 32) {
    for (int j = threadIdx.y; j < 32; j += 8) {
      int r = r0 + j, c = c0 + threadIdx.x;
      if (r < rows && c < cols) tile[j][threadIdx.x] = in[(size_t)r * cols + c];
    }
    __syncthreads();
    for (int j = threadIdx.y; j < 32; j += 8) {
      int c = c0 + j, r = r0 + threadIdx.x;
      if (r < rows && c < cols) out[(size_t)c * rows + r] = tile[threadIdx.x][j];
    }
    __syncthreads(); // the tile is refilled by the next row tile
  }
}

// ---- one system a warp: the hybrid Thomas-PCR solver (step 9) ---------------------------------------------
// One PCR step on a normalised row (a, c, d), given the rows s places below (am, cm, dm) and above (ap, cp, dp).
__device__ __forceinline__ void pcr_update(float &a, float &c, float &d, float am, float cm, float dm, float ap,
                                           float cp, float dp) {
  float r = 1.0f / (1.0f - a * cm - c * ap);
  d = r * (d - a * dm - c * dp);
  a = -r * a * am;
  c = -r * c * cp;
}

// The 64 reduced rows of a warp, two a lane: slot 2t is lane t's first row (F), slot 2t+1 its last (L). PCR at
// stride 1 pairs F with the L before it and with its own L; at stride 2k, F rows pair with the F rows k lanes
// away and L rows with L rows. Six steps (s = 1 .. 32) decouple all 64 rows: then x = d.
__device__ __forceinline__ void pcr_warp64(int lane, float &aF, float &cF, float &dF, float &aL, float &cL,
                                           float &dL) {
  { // s = 1
    float am = __shfl_up_sync(FULL_MASK, aL, 1), cm = __shfl_up_sync(FULL_MASK, cL, 1);
    float dm = __shfl_up_sync(FULL_MASK, dL, 1);
    float ap = __shfl_down_sync(FULL_MASK, aF, 1), cp = __shfl_down_sync(FULL_MASK, cF, 1);
    float dp = __shfl_down_sync(FULL_MASK, dF, 1);
    if (lane == 0) am = cm = dm = 0.0f; // outside the system: x = 0
    if (lane == 31) ap = cp = dp = 0.0f;
    float a0 = aF, c0 = cF, d0 = dF; // F's new row uses L's old one, and L's uses F's old one
    pcr_update(aF, cF, dF, am, cm, dm, aL, cL, dL);
    pcr_update(aL, cL, dL, a0, c0, d0, ap, cp, dp);
  }
#pragma unroll
  for (int k = 1; k < 32; k *= 2) { // s = 2k
    float amF = __shfl_up_sync(FULL_MASK, aF, k), cmF = __shfl_up_sync(FULL_MASK, cF, k);
    float dmF = __shfl_up_sync(FULL_MASK, dF, k);
    float apF = __shfl_down_sync(FULL_MASK, aF, k), cpF = __shfl_down_sync(FULL_MASK, cF, k);
    float dpF = __shfl_down_sync(FULL_MASK, dF, k);
    float amL = __shfl_up_sync(FULL_MASK, aL, k), cmL = __shfl_up_sync(FULL_MASK, cL, k);
    float dmL = __shfl_up_sync(FULL_MASK, dL, k);
    float apL = __shfl_down_sync(FULL_MASK, aL, k), cpL = __shfl_down_sync(FULL_MASK, cL, k);
    float dpL = __shfl_down_sync(FULL_MASK, dL, k);
    if (lane < k) amF = cmF = dmF = amL = cmL = dmL = 0.0f;
    if (lane + k >= 32) apF = cpF = dpF = apL = cpL = dpL = 0.0f;
    pcr_update(aF, cF, dF, amF, cmF, dmF, apF, cpF, dpF);
    pcr_update(aL, cL, dL, amL, cmL, dmL, apL, cpL, dpL);
  }
}

// Systems of fewer than 64 rows skip the chunks: row 2t and 2t+1 go straight into lane t's two slots
// (slots past the last row are the identity), PCR solves them, and x is written from the slots.
__device__ __forceinline__ void hybrid_short(int n, int lane, size_t base, const float *__restrict__ a,
                                             const float *__restrict__ b, const float *__restrict__ c,
                                             const float *__restrict__ d, float *__restrict__ x) {
  float aF = 0.0f, cF = 0.0f, dF = 0.0f, aL = 0.0f, cL = 0.0f, dL = 0.0f;
  int i = 2 * lane;
  if (i < n) {
    float r = 1.0f / b[base + i];
    aF = (i > 0) ? r * a[base + i] : 0.0f;
    cF = (i < n - 1) ? r * c[base + i] : 0.0f;
    dF = r * d[base + i];
  }
  if (i + 1 < n) {
    float r = 1.0f / b[base + i + 1];
    aL = r * a[base + i + 1];
    cL = (i + 1 < n - 1) ? r * c[base + i + 1] : 0.0f;
    dL = r * d[base + i + 1];
  }
  pcr_warp64(lane, aF, cF, dF, aL, cL, dL);
  if (i < n) x[base + i] = dF;
  if (i + 1 < n) x[base + i + 1] = dL;
}

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
// launcher sizes the grid to what fits at once). While it solves one system, the next one's copies into its
// other stage are already in flight (cp.async), so that the warp's loads overlap its own arithmetic rather
// than only other warps'. LMAX: the most rows a lane's chunk may have (n <= 32 LMAX), so that the chunk's a,
// c, d sit in registers (fully unrolled loops over LMAX, each step guarded by k < len). Shared memory: two
// stages a warp of four arrays of 33 LMAX floats.
template <int LMAX>
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
  float *stage = smem + (size_t)wib * 8 * P, *other = stage + 4 * P; // this system's stage, the next one's
  if (sys < batch) hybrid_stage<LMAX>(n, lane, (size_t)sys * n, a, b, c, d, stage);
  cp_async_commit();
  for (; sys < batch; sys += W) { // the same trip count for every lane of the warp
    if (sys + W < batch) hybrid_stage<LMAX>(n, lane, (size_t)(sys + W) * n, a, b, c, d, other);
    cp_async_commit(); // (an empty group when there is no next system: the wait below still means "this one")
    cp_async_wait<1>(); // this lane's copies of the system to solve have landed ...
    __syncwarp();       // ... and every lane's
    hybrid_solve<LMAX>(n, lane, (size_t)sys * n, stage, x);
    __syncwarp(); // every lane is done with this stage before the next iteration's copies refill it
    float *t = stage;
    stage = other;
    other = t;
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

// ---- launchers, for the checks and the timing helpers -----------------------------------------------------
typedef struct {
  int n, batch, warps;
  const float *a, *b, *c, *d;  // the strided layout
  const float *ai, *bi, *ci, *di; // the interleaved layout
  float *x, *xi, *w;
} trid_args;

static void launch_pcr_block(void *p) {
  trid_args *t = (trid_args *)p;
  GPU_pcr_block<<<t->batch, t->n, 3 * t->n * sizeof(float)>>>(t->n, t->a, t->b, t->c, t->d, t->x);
  getLastCudaError("GPU_pcr_block execution failed");
}

static void launch_thomas_thread(void *p) {
  trid_args *t = (trid_args *)p;
  GPU_thomas_thread<<<(t->batch + 127) / 128, 128>>>(t->n, t->batch, t->ai, t->bi, t->ci, t->di, t->w, t->xi);
  getLastCudaError("GPU_thomas_thread execution failed");
}

// the shared memory GPU_trid_hybrid<LMAX> needs for `warps` warps: two stages of four arrays a warp
static size_t hybrid_smem(int lmax, int warps) { return (size_t)warps * 2 * 4 * 33 * lmax * sizeof(float); }

// a grid of as many blocks as the GPU runs at once (each warp then loops over its systems), or fewer if the
// batch is smaller
template <int LMAX> static void launch_hybrid_lmax(const trid_args *t) {
  size_t shmem = t->n < 64 ? 0 : hybrid_smem(LMAX, t->warps);
  // blocks an SM, asked once for each (warps, shared memory) of this LMAX: the timed calls ask nothing
  static int known_warps = 0, sms = 0, per_sm = 0;
  static size_t known_shmem = 0;
  if (known_warps != t->warps || known_shmem != shmem) {
    int dev = 0;
    checkCudaErrors(cudaGetDevice(&dev));
    sms = device_limits(dev)->sms;
    per_sm = occupancy_blocks_per_sm(GPU_trid_hybrid<LMAX>, dev, 32 * t->warps, shmem);
    known_warps = t->warps;
    known_shmem = shmem;
  }
  long long blocks = (t->batch + t->warps - 1) / t->warps, fit = (long long)sms * (per_sm > 0 ? per_sm : 1);
  if (blocks > fit) blocks = fit;
  GPU_trid_hybrid<LMAX><<<(int)blocks, 32 * t->warps, shmem>>>(t->n, t->batch, t->a, t->b, t->c, t->d, t->x);
  getLastCudaError("GPU_trid_hybrid execution failed");
}

// the smallest LMAX (rows a lane) that holds n: 2 for n <= 64 (n < 64 takes the short path), up to 32
static int hybrid_lmax(int n) {
  int lmax = 2;
  while (32 * lmax < n && lmax < 64) lmax *= 2;
  return lmax;
}

static void launch_hybrid(void *p) {
  trid_args *t = (trid_args *)p;
  switch (hybrid_lmax(t->n)) {
  case 2: launch_hybrid_lmax<2>(t); break;
  case 4: launch_hybrid_lmax<4>(t); break;
  case 8: launch_hybrid_lmax<8>(t); break;
  case 16: launch_hybrid_lmax<16>(t); break;
  case 32: launch_hybrid_lmax<32>(t); break;
  default: {
    int blocks = (t->batch + t->warps - 1) / t->warps;
    GPU_trid_hybrid_big<<<blocks, 32 * t->warps>>>(t->n, t->batch, t->a, t->b, t->c, t->d, t->w, t->x);
    getLastCudaError("GPU_trid_hybrid_big execution failed");
  }
  }
}

// let every instantiation that fits use more than 48 KB of shared memory (an opt-in since sm_70)
static void hybrid_allow_smem(int warps, size_t optin) {
#define ALLOW(L)                                                                                                  \
  if (hybrid_smem(L, warps) <= optin)                                                                             \
    checkCudaErrors(cudaFuncSetAttribute(GPU_trid_hybrid<L>, cudaFuncAttributeMaxDynamicSharedMemorySize,         \
                                         (int)hybrid_smem(L, warps)));
  ALLOW(2) ALLOW(4) ALLOW(8) ALLOW(16) ALLOW(32)
#undef ALLOW
}

// rows x cols strided -> interleaved (or back, with rows and cols exchanged)
static void to_layout(int rows, int cols, const float *in, float *out) {
  int ytiles = (rows + 31) / 32;
  dim3 grid((cols + 31) / 32, ytiles < 65535 ? ytiles : 65535);
  transpose<<<grid, dim3(32, 8)>>>(rows, cols, in, out);
  getLastCudaError("transpose execution failed");
}

static void to_interleaved(const trid_args *t) { // the four coefficient arrays, strided -> interleaved
  to_layout(t->batch, t->n, t->a, (float *)t->ai);
  to_layout(t->batch, t->n, t->b, (float *)t->bi);
  to_layout(t->batch, t->n, t->c, (float *)t->ci);
  to_layout(t->batch, t->n, t->d, (float *)t->di);
}
static void launch_transposes(void *p) { // what the interleaved layout costs a strided caller: 4 in, 1 out
  trid_args *t = (trid_args *)p;
  to_interleaved(t);
  to_layout(t->n, t->batch, t->xi, t->x);
}

// ---- cuSPARSE (steps 9-10): solves in place (x holds d on entry), so a timed call first restores x ---------
typedef struct {
  cusparseHandle_t handle;
  int n, batch, algo, restore_coeffs;
  const float *a, *b, *c, *d;    // strided originals
  const float *ai, *bi, *ci, *di; // interleaved originals
  float *x, *wa, *wb, *wc;       // x: in/out; wa, wb, wc: working copies of the interleaved coefficients
  void *buf_strided, *buf_inter; // the workspaces, allocated once
} lib_args;

static void lib_strided_reset(void *p) {
  lib_args *l = (lib_args *)p;
  checkCudaErrors(cudaMemcpyAsync(l->x, l->d, (size_t)l->n * l->batch * sizeof(float), cudaMemcpyDeviceToDevice));
}
static void lib_strided(void *p) {
  lib_args *l = (lib_args *)p;
  lib_strided_reset(p);
  checkCudaErrors(cusparseSgtsv2StridedBatch(l->handle, l->n, l->a, l->b, l->c, l->x, l->batch, l->n, l->buf_strided));
}
static void lib_inter_reset(void *p) {
  lib_args *l = (lib_args *)p;
  size_t bytes = (size_t)l->n * l->batch * sizeof(float);
  checkCudaErrors(cudaMemcpyAsync(l->x, l->di, bytes, cudaMemcpyDeviceToDevice));
  if (l->restore_coeffs) { // gtsvInterleavedBatch takes its coefficients as writable: restored when it writes them
    checkCudaErrors(cudaMemcpyAsync(l->wa, l->ai, bytes, cudaMemcpyDeviceToDevice));
    checkCudaErrors(cudaMemcpyAsync(l->wb, l->bi, bytes, cudaMemcpyDeviceToDevice));
    checkCudaErrors(cudaMemcpyAsync(l->wc, l->ci, bytes, cudaMemcpyDeviceToDevice));
  }
}
static void lib_inter(void *p) {
  lib_args *l = (lib_args *)p;
  lib_inter_reset(p);
  checkCudaErrors(
      cusparseSgtsvInterleavedBatch(l->handle, l->algo, l->n, l->wa, l->wb, l->wc, l->x, l->batch, l->buf_inter));
}

// ---- the checks -------------------------------------------------------------------------------------------
// Float against the double Thomas gold. A CPU float model of PCR and of the hybrid on these systems (off-
// diagonals at most 0.8 of the diagonal, so errors are damped; |x| < 2) stays under 6e-7 at n = 3 .. 1024:
// 4e-6 leaves a margin of 6. The residual ||Ax - d|| / ||d|| of a float solve is a few float epsilons.
#define X_ATOL 4e-6
#define RESID_MAX 4e-6

typedef struct {
  const char *name;
  gold_stats st;
  double resid;
  int ok;
} solver_check;

static solver_check check_solution(const char *name, int n, int batch, const float *h_a, const float *h_b,
                                   const float *h_c, const float *h_d, const float *h_x, const double *h_gold) {
  solver_check r;
  r.name = name;
  compare_float_double(h_x, h_gold, (size_t)n * batch, X_ATOL, 0.0, &r.st);
  r.resid = Gold_residual_batch(n, batch, h_a, h_b, h_c, h_d, h_x);
  r.ok = r.st.nbad == 0 && r.resid <= RESID_MAX;
  printf("%-28s max |x - gold| = %.3e, rms = %.3e, residual = %.3e  %s\n", name, r.st.max_abs_err, r.st.rms_err,
         r.resid, r.ok ? "ok" : "WRONG");
  if (!r.ok) gold_report(name, &r.st);
  return r;
}

static uint32_t rng_state;
static float rng_uniform(void) { // xorshift32: [0, 1)
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return (float)(rng_state >> 8) * (1.0f / 16777216.0f);
}

int main(int argc, char **argv) {
  int n = 256, batch = 65536, seed = 1, lib = 0, bench = 0, reps = 20, warps = HYBRID_WARPS, algo = 0;
  arg_spec opts[] = {
      {"n", ARG_INT, &n, 1, 1 << 24, "unknowns a system"},
      {"batch", ARG_INT, &batch, 1, 1 << 28, "systems"},
      {"seed", ARG_INT, &seed, 1, 2147483647, "seed of the random coefficients"},
      {"warps", ARG_INT, &warps, 1, 32, "GPU_trid_hybrid: systems (warps) a block"},
      {"lib", ARG_FLAG, &lib, 0, 1, "also solve with cuSPARSE gtsv2StridedBatch and gtsvInterleavedBatch"},
      {"algo", ARG_INT, &algo, 0, 2, "gtsvInterleavedBatch's algorithm: 0 Thomas, 1 LU with pivoting, 2 QR"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time every solver (cuSPARSE too) against a device-to-device copy"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)n * batch > MAX_UNKNOWNS)
    args_fail("%d systems of %d unknowns are %lld unknowns, more than 2^28", batch, n, (long long)n * batch);
  if (bench && n < 3) // -bench times cuSPARSE, whose gtsv routines refuse n < 3: say so before any GPU work
    args_fail("-bench compares with cuSPARSE, whose gtsv routines need n >= 3 (n = %d)", n);
  if (bench) lib = 1;
  int lmax = hybrid_lmax(n);
  if (lmax <= 32 && hybrid_smem(lmax, warps) > 227 * 1024) // the most any GPU gives a block (sm_90)
    args_fail("-warps=%d at n = %d needs %zu bytes of shared memory a block, more than 227 KB", warps, n,
              hybrid_smem(lmax, warps));

  int dev = findCudaDevice(argc, argv);
  size_t N = (size_t)n * batch, bytes = N * sizeof(float);
  int user_sized = args_given(argc, argv, "n") || args_given(argc, argv, "batch");
  // 5 strided + 5 interleaved arrays, w (2 N floats: Thomas's c', or the big hybrid's chunks), a working copy
  // for cuSPARSE, and with -bench the copy baseline's two buffers (10 bytes an unknown each)
  device_memory_check(15 * bytes + (bench ? 6 * bytes : 0), "the systems in both layouts and the workspaces",
                      user_sized);
  printf("%d systems of %d unknowns (%zu in all), random diagonally dominant\n", batch, n, N);

  // random diagonally dominant systems; a[0] and c[n-1] of each are 0, as cuSPARSE asks
  float *h_a = (float *)malloc(bytes), *h_b = (float *)malloc(bytes), *h_c = (float *)malloc(bytes);
  float *h_d = (float *)malloc(bytes), *h_x = (float *)malloc(bytes);
  double *h_gold = (double *)malloc(N * sizeof(double));
  if (!h_a || !h_b || !h_c || !h_d || !h_x || !h_gold) return result_fail("out of host memory for %zu unknowns", N);
  rng_state = (uint32_t)seed * 2654435761u + 1u;
  for (size_t k = 0; k < N; k++) {
    int i = (int)(k % n);
    h_a[k] = i > 0 ? 2.0f * rng_uniform() - 1.0f : 0.0f;
    h_c[k] = i < n - 1 ? 2.0f * rng_uniform() - 1.0f : 0.0f;
    float m = fabsf(h_a[k]) + fabsf(h_c[k]) + 0.5f + 0.5f * rng_uniform();
    h_b[k] = rng_uniform() < 0.5f ? -m : m;
    h_d[k] = 2.0f * rng_uniform() - 1.0f;
  }

  float *d_a, *d_b, *d_c, *d_d, *d_x, *d_ai, *d_bi, *d_ci, *d_di, *d_xi, *d_w;
  checkCudaErrors(cudaMalloc((void **)&d_a, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_b, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_c, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_d, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_x, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_ai, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_bi, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_ci, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_di, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_xi, bytes));
  checkCudaErrors(cudaMalloc((void **)&d_w, 2 * bytes));
  checkCudaErrors(cudaMemcpy(d_a, h_a, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_b, h_b, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_c, h_c, bytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_d, h_d, bytes, cudaMemcpyHostToDevice));

  trid_args t = {n, batch, warps, d_a, d_b, d_c, d_d, d_ai, d_bi, d_ci, d_di, d_x, d_xi, d_w};
  to_interleaved(&t); // the interleaved copies (xi is written by the solvers before anything reads it)
  // this GPU's most shared memory a block (opt-in): fewer warps a block where the default does not fit
  size_t optin = (size_t)device_limits(dev)->smem_block_optin;
  while (n >= 64 && lmax <= 32 && hybrid_smem(lmax, warps) > optin) { // (n < 64 uses no shared memory)
    if (args_given(argc, argv, "warps") || warps == 1)
      device_limit_exceeded("-warps=%d at n = %d needs %zu bytes of shared memory a block, this GPU gives %zu",
                            warps, n, hybrid_smem(lmax, warps), optin);
    warps /= 2;
  }
  t.warps = warps;
  hybrid_allow_smem(warps, optin);

  // Gold treatment: Thomas in double, every system
  double t0 = wall_ms();
  Gold_thomas_batch(n, batch, h_a, h_b, h_c, h_d, h_gold);
  printf("Gold_thomas_batch: %.1f (ms)\n", wall_ms() - t0);

  // each solver: poison x (NaN), solve, copy back, check
  int nfail = 0;
  solver_check chk[5];
  int nchk = 0;
  if (n <= PCR_MAX_N) {
    checkCudaErrors(cudaMemset(d_x, 0xff, bytes));
    launch_pcr_block(&t);
    checkCudaErrors(cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost));
    chk[nchk++] = check_solution("GPU_pcr_block", n, batch, h_a, h_b, h_c, h_d, h_x, h_gold);
  }
  checkCudaErrors(cudaMemset(d_xi, 0xff, bytes));
  checkCudaErrors(cudaMemset(d_x, 0xff, bytes));
  launch_thomas_thread(&t);
  to_layout(n, batch, d_xi, d_x);
  checkCudaErrors(cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost));
  int ith = nchk, ihy = nchk + 1; // where the Thomas and hybrid checks are kept
  chk[nchk++] = check_solution("GPU_thomas_thread", n, batch, h_a, h_b, h_c, h_d, h_x, h_gold);

  checkCudaErrors(cudaMemset(d_x, 0xff, bytes));
  launch_hybrid(&t);
  checkCudaErrors(cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost));
  chk[nchk++] = check_solution("GPU_trid_hybrid", n, batch, h_a, h_b, h_c, h_d, h_x, h_gold);
  printf("(GPU_trid_hybrid: %s, %d warps a block)\n",
         n < 64 ? "short path, rows straight into PCR"
                : lmax <= 32 ? "chunks in registers" : "chunks in global memory (n > 1024)", warps);

  // cuSPARSE: handle and workspaces made once, before anything is timed (m >= 3 is the library's rule)
  lib_args l;
  memset(&l, 0, sizeof(l));
  double lib_resid[2] = {-1.0, -1.0};
  if (lib && n < 3) {
    printf("cuSPARSE's gtsv routines need n >= 3: not run\n");
    lib = 0;
  }
  if (lib) {
    size_t sz_strided = 0, sz_inter = 0;
    l.n = n;
    l.batch = batch;
    l.algo = algo;
    l.a = d_a, l.b = d_b, l.c = d_c, l.d = d_d;
    l.ai = d_ai, l.bi = d_bi, l.ci = d_ci, l.di = d_di;
    l.x = d_x;
    l.wa = d_w;                 // the working copies of the interleaved coefficients: w (2 N floats) and xi
    l.wb = d_w + N;
    checkCudaErrors(cudaMalloc((void **)&l.wc, bytes));
    checkCudaErrors(cusparseCreate(&l.handle));
    checkCudaErrors(cusparseSgtsv2StridedBatch_bufferSizeExt(l.handle, n, d_a, d_b, d_c, d_x, batch, n, &sz_strided));
    checkCudaErrors(cusparseSgtsvInterleavedBatch_bufferSizeExt(l.handle, algo, n, d_ai, d_bi, d_ci, d_x, batch,
                                                                &sz_inter));
    checkCudaErrors(cudaMalloc(&l.buf_strided, sz_strided > 0 ? sz_strided : 1));
    checkCudaErrors(cudaMalloc(&l.buf_inter, sz_inter > 0 ? sz_inter : 1));
    printf("cuSPARSE workspaces: gtsv2StridedBatch %.1f MB, gtsvInterleavedBatch (algo %d) %.1f MB\n",
           sz_strided * 1e-6, algo, sz_inter * 1e-6);

    checkCudaErrors(cudaMemset(d_x, 0xff, bytes));
    lib_strided(&l);
    checkCudaErrors(cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost));
    chk[nchk] = check_solution("cusparseSgtsv2StridedBatch", n, batch, h_a, h_b, h_c, h_d, h_x, h_gold);
    lib_resid[0] = chk[nchk++].resid;

    l.restore_coeffs = 1;
    l.x = d_xi;
    lib_inter(&l);
    to_layout(n, batch, d_xi, d_x);
    checkCudaErrors(cudaMemcpy(h_x, d_x, bytes, cudaMemcpyDeviceToHost));
    chk[nchk] = check_solution("cusparseSgtsvInterleavedBatch", n, batch, h_a, h_b, h_c, h_d, h_x, h_gold);
    lib_resid[1] = chk[nchk++].resid;
    // did it write its coefficients? (compared back in the strided layout, on the host)
    float *h_tmp = (float *)malloc(bytes);
    int wrote = 0;
    const float *orig[3] = {h_a, h_b, h_c};
    float *work[3] = {l.wa, l.wb, l.wc};
    for (int q = 0; q < 3 && h_tmp; q++) {
      to_layout(n, batch, work[q], d_x);
      checkCudaErrors(cudaMemcpy(h_tmp, d_x, bytes, cudaMemcpyDeviceToHost));
      wrote |= memcmp(h_tmp, orig[q], bytes) != 0;
    }
    free(h_tmp);
    l.restore_coeffs = wrote;
    printf("gtsvInterleavedBatch %s its coefficient arrays\n", wrote ? "overwrites" : "leaves alone");
  }
  for (int q = 0; q < nchk; q++) nfail += !chk[q].ok;

  // step 10: the timings, each solver against the copy of the same 20 bytes an unknown
  if (bench && nfail == 0) {
    double moved = 20.0 * (double)N;
    bench_ref ref = bench_reference(dev, moved, reps);
    char size[64], extra[160];
    snprintf(size, sizeof(size), "%dx%d", n, batch);
    l.x = d_x;
    float ms_reset = time_median_ms(lib_strided_reset, &l, 3, reps);
    float ms_strided = time_median_ms(lib_strided, &l, 3, reps) - ms_reset;
    printf("cusparseSgtsv2StridedBatch: %.4f ms with the copy of d into x, %.4f ms for that copy alone\n",
           ms_strided + ms_reset, ms_reset);
    l.x = d_xi;
    float ms_ireset = time_median_ms(lib_inter_reset, &l, 3, reps);
    float ms_inter = time_median_ms(lib_inter, &l, 3, reps) - ms_ireset;
    printf("cusparseSgtsvInterleavedBatch: %.4f ms with its restores, %.4f ms for the restores alone\n",
           ms_inter + ms_ireset, ms_ireset);
    float ms_trans = time_median_ms(launch_transposes, &t, 3, reps);

    snprintf(extra, sizeof(extra), "resid=%.2e", lib_resid[0]);
    print_bench("7", "cusparse_gtsv2StridedBatch", size, reps, ms_strided, moved, &ref, extra);
    snprintf(extra, sizeof(extra), "algo=%d resid=%.2e x_gtsv2=%.2f", algo, lib_resid[1], ms_strided / ms_inter);
    print_bench("7", "cusparse_gtsvInterleavedBatch", size, reps, ms_inter, moved, &ref, extra);
    if (n <= PCR_MAX_N) {
      float ms = time_median_ms(launch_pcr_block, &t, 3, reps);
      snprintf(extra, sizeof(extra), "resid=%.2e x_gtsv2=%.2f", chk[0].resid, ms_strided / ms);
      print_bench("7", "trid_pcr_block", size, reps, ms, moved, &ref, extra);
    }
    float ms_tt = time_median_ms(launch_thomas_thread, &t, 3, reps);
    snprintf(extra, sizeof(extra), "layout=interleaved resid=%.2e x_gtsv2=%.2f x_interleaved=%.2f",
             chk[ith].resid, ms_strided / ms_tt, ms_inter / ms_tt);
    print_bench("7", "trid_thomas_thread", size, reps, ms_tt, moved, &ref, extra);
    printf("the interleaved layout's transposes (a, b, c, d in, x out): %.4f ms, which a caller with the "
           "strided layout adds to each interleaved solver\n", ms_trans);
    // the hybrid at 1, 2, 4, 8 warps a block, then the best one reported
    int best_w = warps;
    float best = 1e30f;
    for (int w = 1; w <= 8; w *= 2) {
      if (lmax <= 32 && hybrid_smem(lmax, w) > optin) continue;
      t.warps = w;
      hybrid_allow_smem(w, optin);
      float ms = time_median_ms(launch_hybrid, &t, 3, reps);
      printf("GPU_trid_hybrid, %d warps a block: %.4f ms, %.1f GB/s\n", w, ms, moved / (ms * 1e-3) / 1e9);
      if (ms < best) {
        best = ms;
        best_w = w;
      }
    }
    t.warps = best_w;
    hybrid_allow_smem(best_w, optin);
    snprintf(extra, sizeof(extra), "warps=%d resid=%.2e x_gtsv2=%.2f x_interleaved=%.2f", best_w,
             chk[ihy].resid, ms_strided / best, ms_inter / best);
    float ms_h = bench_report(&ref, "7", "trid_hybrid", size, launch_hybrid, &t, reps, moved, extra);
    printf("GPU_trid_hybrid: %.2fx gtsv2StridedBatch, %.2fx gtsvInterleavedBatch; residual %.2e against "
           "cuSPARSE's %.2e and %.2e\n", ms_strided / ms_h, ms_inter / ms_h, chk[ihy].resid, lib_resid[0],
           lib_resid[1]);
  }

  if (lib) {
    checkCudaErrors(cudaFree(l.buf_strided));
    checkCudaErrors(cudaFree(l.buf_inter));
    checkCudaErrors(cudaFree(l.wc));
    checkCudaErrors(cusparseDestroy(l.handle));
  }
  float *dev_arrays[] = {d_a, d_b, d_c, d_d, d_x, d_ai, d_bi, d_ci, d_di, d_xi, d_w};
  for (int q = 0; q < 11; q++) checkCudaErrors(cudaFree(dev_arrays[q]));
  free(h_a);
  free(h_b);
  free(h_c);
  free(h_d);
  free(h_x);
  free(h_gold);

  if (nfail) {
    for (int q = 0; q < nchk; q++)
      if (!chk[q].ok)
        return result_fail("%s: %zu of %zu values outside tolerance, residual %.3e (limit %.1e)", chk[q].name,
                           chk[q].st.nbad, chk[q].st.n, chk[q].resid, RESID_MAX);
  }
  return result_pass();
}
