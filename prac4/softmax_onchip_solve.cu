/*
 * softmax_onchip_solve.cu -- LeetGPU "Softmax" in ONE launch, with the input kept on chip between the
 * statistics and the output.
 *
 * A persistent kernel: exactly as many blocks as the GPU holds at once (the occupancy API), launched with
 * cudaLaunchCooperativeKernel so that grid.sync() may wait for all of them. Each thread
 *   1. loads its share of the input into ONCHIP_REGS float4 registers and `slots` float4 of the block's
 *      shared memory (cp.async: all in flight at once), streams the rest -- what does not fit on chip --
 *      with a running (m, s) as in softmax_online_solve.cu, then replaces its on-chip values by
 *      exp(x - m_part) and adds them up (m_part the max of each part: a group of registers, shared memory);
 *   2. merges (m, s) over the block, writes the block's pair, and waits at grid.sync(); every block then
 *      merges all the blocks' pairs itself, in index order, so all get the same (m, s) bit for bit;
 *   3. writes y = exp(x - m) / s: first the streamed part, re-read backwards (it starts on what the first
 *      pass read last, still in L2), then the on-chip part, exp(x - m_part) times exp(m_part - m) / s: no
 *      read and no exp at all.
 * Traffic: read N, write N, and re-read only N - (floats held on chip); solve_held_bytes() tells the harness
 * how much that is, and the harness prints the bound it sets. At LeetGPU's sizes everything sits in
 * registers, and one launch replaces the three of softmax_solve.cu.
 * Where on chip: registers a SM (64 K of them on every GPU since Kepler) and shared memory a SM (228 KB on
 * an H100, 64 KB on a T4) are queried, never assumed.
 */
#include <cooperative_groups.h>
#include <math.h>
#include <stdint.h>

#include "cp_async.h"
#include "gold_check.h"
#include "helper_cuda.h"

namespace cg = cooperative_groups;

#ifndef ONCHIP_THREADS
#define ONCHIP_THREADS 512 // one block a SM: 512 threads x (64 data + ~60 other) registers fit 64 K
#endif
#ifndef ONCHIP_REGS
#define ONCHIP_REGS 16 // float4 a thread kept in registers (64 floats: half the register file holds data)
#endif
#ifndef ONCHIP_GROUP
#define ONCHIP_GROUP 8 // float4 registers that share one max (the exps of a group start once it has arrived)
#endif
static_assert(ONCHIP_REGS % ONCHIP_GROUP == 0, "the registers come in whole groups");
#ifndef ONCHIP_STREAM
#define ONCHIP_STREAM 4 // float4 loads a thread has in flight where it streams (16 warps a SM: 32 KB in flight)
#endif

extern "C" const char solve_name[] = "softmax_onchip";

__device__ float2 g_partial[4096]; // (m, s) of each block: a grid is at most 32 blocks a SM x 128 SMs

__device__ float2 merge(float2 a, float2 b) {
  float m = fmaxf(a.x, b.x);
  if (m == -INFINITY) return make_float2(-INFINITY, 0.0f); // both empty: never exp(-inf - -inf) = NaN
  return make_float2(m, a.y * expf(a.x - m) + b.y * expf(b.x - m));
}

// a float4 of values (some of them -inf padding) into the running pair
__device__ float2 update(float2 ms, float4 v) {
  float m = fmaxf(ms.x, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
  if (m == -INFINITY) return ms;
  return make_float2(m, ms.y * expf(ms.x - m) + ((expf(v.x - m) + expf(v.y - m)) + (expf(v.z - m) + expf(v.w - m))));
}

__device__ float2 block_merge(float2 v) {
  __shared__ float2 warp_vals[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int d = 16; d > 0; d >>= 1)
    v = merge(v, make_float2(__shfl_xor_sync(0xffffffffu, v.x, d), __shfl_xor_sync(0xffffffffu, v.y, d)));
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  v = lane < blockDim.x / 32 ? warp_vals[lane] : make_float2(-INFINITY, 0.0f);
  __syncthreads();
  for (int d = 16; d > 0; d >>= 1)
    v = merge(v, make_float2(__shfl_xor_sync(0xffffffffu, v.x, d), __shfl_xor_sync(0xffffffffu, v.y, d)));
  return v;
}

__device__ float4 softmax4(float4 v, float m, float inv) {
  return make_float4(expf(v.x - m) * inv, expf(v.y - m) * inv, expf(v.z - m) * inv, expf(v.w - m) * inv);
}

// float4 i of the input lives in: register k of thread t when i = k S + t (S the grid's threads), shared
// slot j of thread t when i = (ONCHIP_REGS + j) S + t, else it is streamed (i >= C4). Consecutive threads
// take consecutive float4s at every step, and a small N is spread over every block.
__global__ void __launch_bounds__(ONCHIP_THREADS, 1)
    softmax_onchip(const float *__restrict__ x, float *__restrict__ y, int n4, int N, int slots) {
  extern __shared__ float4 tile[];
  cg::grid_group grid = cg::this_grid();
  const float4 *x4 = (const float4 *)x;
  float4 *y4 = (float4 *)y;
  const float4 pad = make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
  int T = blockDim.x, S = gridDim.x * T, t = blockIdx.x * T + threadIdx.x;
  int C4 = (ONCHIP_REGS + slots) * S; // float4s the grid holds on chip (fits an int: < 2^26 on any GPU)

  // 1. every load of the on-chip part in flight at once: registers, and shared memory through cp.async
  //    (global to shared with no register held, ../common/cp_async.h; each thread copies and later reads only
  //    its own slots, so its own wait is enough, no barrier)
  float4 r[ONCHIP_REGS];
#pragma unroll
  for (int k = 0; k < ONCHIP_REGS; k++) r[k] = k * S + t < n4 ? x4[k * S + t] : pad;
  for (int j = 0; j < slots; j++) {
    int i = (ONCHIP_REGS + j) * S + t;
    if (i < n4) copy16_to_shared(&tile[j * T + threadIdx.x], &x4[i]);
  }
  cp_async_commit();
  //    meanwhile the rest is streamed (read again in 3) with a running (m, s), then the scalar tail (every
  //    element when not 16-byte aligned)
  float2 ms = make_float2(-INFINITY, 0.0f);
  for (int i = C4 + t; i < n4; i += ONCHIP_STREAM * S) {
    float4 v[ONCHIP_STREAM];
#pragma unroll
    for (int u = 0; u < ONCHIP_STREAM; u++) v[u] = i + u * S < n4 ? x4[i + u * S] : pad;
#pragma unroll
    for (int u = 0; u < ONCHIP_STREAM; u++) ms = update(ms, v[u]);
  }
  for (int i = 4 * n4 + t; i < N; i += S) ms = merge(ms, make_float2(x[i], 1.0f));
  //    the on-chip part's max, then its values replaced by exp(x - max) and added up: the output is then
  //    these times one factor, with no exp left to do
  //    Registers a group of ONCHIP_GROUP float4s at a time, each to its own max (so the exps of a group that
  //    has arrived overlap the loads still in flight), then shared memory once its copies have landed
  float mg[ONCHIP_REGS / ONCHIP_GROUP], m = -INFINITY, s = 0.0f;
#pragma unroll
  for (int g = 0; g < ONCHIP_REGS / ONCHIP_GROUP; g++) {
    float mx = -INFINITY, sg = 0.0f;
#pragma unroll
    for (int k = g * ONCHIP_GROUP; k < (g + 1) * ONCHIP_GROUP; k++)
      mx = fmaxf(mx, fmaxf(fmaxf(r[k].x, r[k].y), fmaxf(r[k].z, r[k].w)));
    if (mx != -INFINITY) {
#pragma unroll
      for (int k = g * ONCHIP_GROUP; k < (g + 1) * ONCHIP_GROUP; k++) {
        r[k] = make_float4(expf(r[k].x - mx), expf(r[k].y - mx), expf(r[k].z - mx), expf(r[k].w - mx));
        sg += (r[k].x + r[k].y) + (r[k].z + r[k].w);
      }
    }
    mg[g] = mx;
    float2 t2 = merge(make_float2(m, s), make_float2(mx, sg));
    m = t2.x, s = t2.y;
  }
  ms = merge(ms, make_float2(m, s));
  cp_async_wait<0>();
  int held = 0; // shared slots of this thread that hold input
  while (held < slots && (ONCHIP_REGS + held) * S + t < n4) held++;
  float msh = -INFINITY;
  s = 0.0f;
  for (int j = 0; j < held; j++) {
    float4 v = tile[j * T + threadIdx.x];
    msh = fmaxf(msh, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
  }
  if (msh != -INFINITY)
    for (int j = 0; j < held; j++) {
      float4 v = tile[j * T + threadIdx.x];
      v = make_float4(expf(v.x - msh), expf(v.y - msh), expf(v.z - msh), expf(v.w - msh));
      tile[j * T + threadIdx.x] = v;
      s += (v.x + v.y) + (v.z + v.w);
    }
  ms = merge(ms, make_float2(msh, s));

  // 2. the block's pair, then every block merges all of them (same order everywhere: same bits)
  ms = block_merge(ms);
  if (threadIdx.x == 0) g_partial[blockIdx.x] = ms;
  grid.sync(); // orders the writes above before the reads below, across the grid
  float2 w = make_float2(-INFINITY, 0.0f);
  for (int b = threadIdx.x; b < gridDim.x; b += T) w = merge(w, __ldcg(&g_partial[b]));
  w = block_merge(w);
  m = w.x;
  const float inv = 1.0f / w.y; // y = exp(x - m) * inv: a multiply where a division was (0.5 ulp each)

  // 3. the streamed part backwards (the tail first), then shared memory, then registers; streaming stores
  for (int i = 4 * n4 + t; i < N; i += S) __stcs(&y[i], expf(x[i] - m) * inv);
  if (C4 + t < n4)
    for (int i = C4 + t + (n4 - 1 - C4 - t) / S * S; i >= C4; i -= ONCHIP_STREAM * S) {
      float4 v[ONCHIP_STREAM];
#pragma unroll
      for (int u = 0; u < ONCHIP_STREAM; u++) v[u] = i - u * S >= C4 ? x4[i - u * S] : pad;
#pragma unroll
      for (int u = 0; u < ONCHIP_STREAM; u++)
        if (i - u * S >= C4) __stcs(&y4[i - u * S], softmax4(v[u], m, inv));
    }
  // the on-chip part holds exp(x - m_part): times exp(m_part - m) / s (m_part = -inf: that part holds nothing)
  float f = msh == -INFINITY ? 0.0f : expf(msh - m) * inv;
  for (int j = 0; j < held; j++) {
    float4 v = tile[j * T + threadIdx.x];
    __stcs(&y4[(ONCHIP_REGS + j) * S + t], make_float4(v.x * f, v.y * f, v.z * f, v.w * f));
  }
#pragma unroll
  for (int g = 0; g < ONCHIP_REGS / ONCHIP_GROUP; g++) {
    f = mg[g] == -INFINITY ? 0.0f : expf(mg[g] - m) * inv;
#pragma unroll
    for (int k = g * ONCHIP_GROUP; k < (g + 1) * ONCHIP_GROUP; k++)
      if (k * S + t < n4) __stcs(&y4[k * S + t], make_float4(r[k].x * f, r[k].y * f, r[k].z * f, r[k].w * f));
  }
}

// the launch shape, worked out once from the device's limits: blocks (all resident at once) and the shared
// memory slots a thread may have (the opt-in maximum a block, less the kernel's static shared memory)
typedef struct {
  int blocks, slots, blocks_small; // blocks_small: the grid without shared memory (N that fits in registers)
} onchip_plan;

static const onchip_plan *plan(void) {
  static onchip_plan p = {0, 0, 0};
  if (p.blocks) return &p;
  int dev, coop = 0;
  checkCudaErrors(cudaGetDevice(&dev));
  checkCudaErrors(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  if (!coop) exit(result_skip("softmax_onchip needs cooperative launch (grid.sync), which this GPU does not offer"));
  const gpu_limits *g = device_limits(dev);
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, (const void *)softmax_onchip));
  int room = g->smem_block_optin - (int)attr.sharedSizeBytes;
  p.slots = room / (16 * ONCHIP_THREADS);
  int per_sm = 0;
  for (; p.slots >= 0; p.slots--) {
    checkCudaErrors(cudaFuncSetAttribute(softmax_onchip, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         p.slots * 16 * ONCHIP_THREADS));
    per_sm = occupancy_blocks_per_sm(softmax_onchip, dev, ONCHIP_THREADS, (size_t)p.slots * 16 * ONCHIP_THREADS);
    if (per_sm > 0) break;
  }
  if (per_sm == 0)
    exit(result_skip("softmax_onchip: a block of %d threads does not fit on a SM of this GPU", ONCHIP_THREADS));
  p.blocks = g->sms * per_sm;
  p.blocks_small = g->sms * occupancy_blocks_per_sm(softmax_onchip, dev, ONCHIP_THREADS, 0);
  if (p.blocks > 4096 || p.blocks_small > 4096) exit(result_fail("softmax_onchip: more than 4096 resident blocks"));
  return &p;
}

// N that fits in the registers of the grid gets no shared memory (a lighter launch, perhaps more blocks)
static int small_n(int N) { return N / 4 <= ONCHIP_REGS * plan()->blocks_small * ONCHIP_THREADS; }

// the bytes of the input this answer holds on chip at size N (the harness prints the bound they set)
extern "C" double solve_held_bytes(int N) {
  const onchip_plan *p = plan();
  double held = small_n(N) ? 16.0 * ONCHIP_REGS * ONCHIP_THREADS * p->blocks_small
                           : 16.0 * (ONCHIP_REGS + p->slots) * ONCHIP_THREADS * p->blocks;
  return held < 4.0 * N ? held : 4.0 * N;
}

// per thread: the registers' sum (2 + ONCHIP_REGS), one addition a shared slot or streamed float4 (or
// scalar), 10 merges in the block, the serial merges of the blocks' pairs and 10 more
extern "C" int solve_chain(int N) {
  const onchip_plan *p = plan();
  int blocks = small_n(N) ? p->blocks_small : p->blocks, S = blocks * ONCHIP_THREADS;
  return 2 + ONCHIP_REGS + (N + S - 1) / S + 10 + (blocks + ONCHIP_THREADS - 1) / ONCHIP_THREADS + 10;
}

extern "C" void solve(const float *input, float *output, int N) {
  int aligned = ((uintptr_t)input % 16 == 0) && ((uintptr_t)output % 16 == 0);
  int n4 = aligned ? N / 4 : 0;
  const onchip_plan *p = plan();
  int small = small_n(N), blocks = small ? p->blocks_small : p->blocks, slots = small ? 0 : p->slots;
  void *args[] = {(void *)&input, (void *)&output, (void *)&n4, (void *)&N, (void *)&slots};
  checkCudaErrors(cudaLaunchCooperativeKernel((const void *)softmax_onchip, dim3(blocks), dim3(ONCHIP_THREADS), args,
                                              (size_t)slots * 16 * ONCHIP_THREADS, 0));
  getLastCudaError("softmax_onchip execution failed");
}
