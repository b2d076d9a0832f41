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
 *   2. reduces (m, s) over the block (shuffles in each warp, then warp 0 over the warps), writes the block's
 *      pair and waits at grid.sync(); warp 0 of every block then asks for all the blocks' pairs at once (one
 *      round trip to L2), takes their max M and the sum of s exp(m - M) over them, in the same order in every
 *      block, so all get the same (m, s) bit for bit, and hands (m, 1/s) to its warps in shared memory
 *      (before: 132 threads read one pair each, then two rounds of pair merges through shared memory, slower at
 *      2^22 on the H100 measured: docs/notes/prac4.md, "Figures behind the source's choices");
 *   3. writes y = exp(x - m) / s: first the streamed part, re-read backwards (it starts on what the first
 *      pass read last, still in L2), then the on-chip part, exp(x - m_part) times exp(m_part - m) / s: no
 *      read and no exp at all.
 * An N that fits in the registers alone gets softmax_onchip<true>: no shared memory, nothing streamed.
 * Traffic: read N, write N, and re-read only N - (floats held on chip); solve_held_bytes() tells the harness
 * how much that is, and the harness prints the bound it sets. At LeetGPU's sizes everything sits in
 * registers, and one launch replaces the three of softmax_solve.cu.
 * Where on chip: registers per SM (64 K of them on every GPU since Kepler) and shared memory per SM (228 KB on
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
#define ONCHIP_THREADS 512 // one block per SM: 512 threads x (64 data + ~60 other) registers fit 64 K
#endif
#ifndef ONCHIP_REGS
#define ONCHIP_REGS 16 // float4 per thread kept in registers (64 floats: half the register file holds data)
#endif
#ifndef ONCHIP_GROUP
#define ONCHIP_GROUP 8 // float4 registers that share one max (the exps of a group start once it has arrived)
#endif
static_assert(ONCHIP_REGS % ONCHIP_GROUP == 0, "the registers come in whole groups");
#ifndef ONCHIP_STREAM
#define ONCHIP_STREAM 6 // float4 loads a thread has in flight where it streams (16 warps per SM: 48 KB in flight)
#endif

extern "C" const char solve_name[] = "softmax_onchip";

__device__ float2 g_partial[4096]; // (m, s) of each block: a grid is at most 32 blocks per SM x 128 SMs

// exp(d) for d = x - max <= 0, for the registers' values. FAST: as 2^(d log2 e), a multiply and the hardware's
// 2^x (MUFU.EX2), where expf spends extra instructions to keep its argument exact for any |x|. Here |d| is at
// most the spread of the input: the multiply's rounding and the constant's add up to 1.25 |d| u to the relative
// error (u = 2^-24), and exp2f is within 2 ulp like expf; with x - m_part's own rounding and the factor
// exp(m_part - m) later, some 2.3 spread u in all, inside the harness's 3 spread u. With the whole input in
// registers these exps lie between the loads and the barrier, and FAST made that launch faster on the H100
// measured; in the kernel that also streams the same change made it slower (the compiler places the streamed
// loads differently), so that one keeps expf (docs/notes/prac4.md, "Figures behind the source's choices").
template <bool FAST> __device__ __forceinline__ float exp_shifted(float d) {
  return FAST ? exp2f(d * 1.44269504f) : expf(d);
}

// (m, s) and (m', s') -> (the larger max, the sums scaled to it): one exp, of the smaller max minus the larger
__device__ float2 merge(float2 a, float2 b) {
  float hi = fmaxf(a.x, b.x), lo = fminf(a.x, b.x);
  if (hi == -INFINITY) return make_float2(-INFINITY, 0.0f); // both empty: never exp(-inf - -inf) = NaN
  return a.x >= b.x ? make_float2(hi, a.y + b.y * expf(lo - hi)) : make_float2(hi, b.y + a.y * expf(lo - hi));
}

// a float4 of values (some of them -inf padding) into the running pair
__device__ float2 update(float2 ms, float4 v) {
  float m = fmaxf(ms.x, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
  if (m == -INFINITY) return ms;
  return make_float2(m, ms.y * expf(ms.x - m) + ((expf(v.x - m) + expf(v.y - m)) + (expf(v.z - m) + expf(v.w - m))));
}

// a warp's pairs, one per lane, reduced: the max M over the lanes, then the sum of s exp(m - M). Each butterfly
// step (xor) is one fmaxf or one addition, and a + b = b + a bit for bit, so every lane ends with the same pair
__device__ float2 warp_reduce(float2 v) {
  float M = v.x;
  for (int d = 16; d > 0; d >>= 1) M = fmaxf(M, __shfl_xor_sync(0xffffffffu, M, d));
  float s = v.x == -INFINITY ? 0.0f : v.y * expf(v.x - M); // an empty lane adds 0 (never exp(-inf - -inf))
  for (int d = 16; d > 0; d >>= 1) s += __shfl_xor_sync(0xffffffffu, s, d);
  return make_float2(M, s);
}

#define GATHER 8 // pairs a lane of warp 0 reads at once after the barrier: one turn for up to 256 blocks

__device__ float4 softmax4(float4 v, float m, float inv) {
  return make_float4(expf(v.x - m) * inv, expf(v.y - m) * inv, expf(v.z - m) * inv, expf(v.w - m) * inv);
}

// float4 i of the input lives in: register k of thread t when i = k S + t (S the grid's threads), shared
// slot j of thread t when i = (ONCHIP_REGS + j) S + t, else it is streamed (i >= C4). Consecutive threads
// take consecutive float4s at every step, and a small N is spread over every block.
// IN_REGS: the launch for an N that fits in the grid's registers (no shared memory, nothing streamed)
template <bool IN_REGS>
__global__ void __launch_bounds__(ONCHIP_THREADS, 1)
    softmax_onchip(const float *__restrict__ x, float *__restrict__ y, int n4, int N, int slots) {
  extern __shared__ float4 tile[];
  cg::grid_group grid = cg::this_grid();
  const float4 *x4 = (const float4 *)x;
  float4 *y4 = (float4 *)y;
  const float4 pad = make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
  int T = blockDim.x, S = gridDim.x * T, t = blockIdx.x * T + threadIdx.x;
  if (IN_REGS) slots = 0;              // (so the compiler leaves out the shared-memory code)
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
  for (int i = C4 + t; !IN_REGS && i < n4; i += ONCHIP_STREAM * S) {
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
        r[k] = make_float4(exp_shifted<IN_REGS>(r[k].x - mx), exp_shifted<IN_REGS>(r[k].y - mx),
                           exp_shifted<IN_REGS>(r[k].z - mx), exp_shifted<IN_REGS>(r[k].w - mx));
        sg += (r[k].x + r[k].y) + (r[k].z + r[k].w);
      }
    } else { // all -inf (masked, or padding): outputs 0, and never -inf times the factor 0 = NaN
#pragma unroll
      for (int k = g * ONCHIP_GROUP; k < (g + 1) * ONCHIP_GROUP; k++) r[k] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
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
  for (int j = 0; j < held; j++) { // all -inf: zeros, as in the registers
    float4 v = tile[j * T + threadIdx.x];
    v = msh == -INFINITY ? make_float4(0.0f, 0.0f, 0.0f, 0.0f)
                         : make_float4(expf(v.x - msh), expf(v.y - msh), expf(v.z - msh), expf(v.w - msh));
    tile[j * T + threadIdx.x] = v;
    s += (v.x + v.y) + (v.z + v.w);
  }
  ms = merge(ms, make_float2(msh, s));

  // 2. the block's pair (each warp's, then warp 0 reduces the warps'), then every block reduces all of them
  //    in warp 0 (the same order everywhere: the same bits) and hands (m, 1/s) to its warps in shared memory
  __shared__ float2 warp_ms[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  ms = warp_reduce(ms);
  if (lane == 0) warp_ms[warp] = ms;
  __syncthreads();
  if (warp == 0) {
    ms = warp_reduce(lane < T / 32 ? warp_ms[lane] : make_float2(-INFINITY, 0.0f));
    if (lane == 0) g_partial[blockIdx.x] = ms;
  }
  grid.sync(); // orders the writes above before the reads below, across the grid
  if (warp == 0) {
    // lane j takes blocks j, j + 32, ...: all its pairs asked for at once (one round trip to L2; a grid of up
    // to 32 * GATHER blocks, more in turns), their max over the warp, then their sums scaled to it. Every lane
    // takes every turn, with or without blocks of its own (the shuffles need all 32: a grid under 32 blocks)
    float M = -INFINITY, s_lane = 0.0f;
    for (int b0 = 0; b0 < gridDim.x; b0 += 32 * GATHER) {
      float2 p[GATHER];
#pragma unroll
      for (int u = 0; u < GATHER; u++) {
        int b = b0 + 32 * u + lane;
        p[u] = b < gridDim.x ? __ldcg(&g_partial[b]) : make_float2(-INFINITY, 0.0f);
      }
      float Mc = M;
#pragma unroll
      for (int u = 0; u < GATHER; u++) Mc = fmaxf(Mc, p[u].x);
      for (int d = 16; d > 0; d >>= 1) Mc = fmaxf(Mc, __shfl_xor_sync(0xffffffffu, Mc, d));
      s_lane = M == -INFINITY ? 0.0f : s_lane * expf(M - Mc); // a later turn with a larger max rescales
#pragma unroll
      for (int u = 0; u < GATHER; u++)
        if (p[u].x != -INFINITY) s_lane += p[u].y * expf(p[u].x - Mc);
      M = Mc;
    }
    for (int d = 16; d > 0; d >>= 1) s_lane += __shfl_xor_sync(0xffffffffu, s_lane, d);
    if (lane == 0) warp_ms[0] = make_float2(M, 1.0f / s_lane); // y = exp(x - m) * (1/s): a multiply (0.5 ulp)
  }
  __syncthreads();
  m = warp_ms[0].x;
  const float inv = warp_ms[0].y;

  // 3. the streamed part backwards (the tail first), then shared memory, then registers; streaming stores
  for (int i = 4 * n4 + t; i < N; i += S) __stcs(&y[i], expf(x[i] - m) * inv);
  if (!IN_REGS && C4 + t < n4)
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
// memory slots a thread may have (the opt-in maximum per block, less the kernel's static shared memory)
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
  checkCudaErrors(cudaFuncGetAttributes(&attr, (const void *)softmax_onchip<false>));
  int room = g->smem_block_optin - (int)attr.sharedSizeBytes;
  p.slots = room / (16 * ONCHIP_THREADS);
  int per_sm = 0;
  for (; p.slots >= 0; p.slots--) {
    checkCudaErrors(cudaFuncSetAttribute(softmax_onchip<false>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         p.slots * 16 * ONCHIP_THREADS));
    per_sm = occupancy_blocks_per_sm(softmax_onchip<false>, dev, ONCHIP_THREADS, (size_t)p.slots * 16 * ONCHIP_THREADS);
    if (per_sm > 0) break;
  }
  if (per_sm == 0)
    exit(result_skip("softmax_onchip: a block of %d threads does not fit on a SM of this GPU", ONCHIP_THREADS));
  p.blocks = g->sms * per_sm;
  p.blocks_small = g->sms * occupancy_blocks_per_sm(softmax_onchip<true>, dev, ONCHIP_THREADS, 0);
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
// scalar), 5 additions in the warp and 5 across the warps, a lane's blocks (one addition each) and 5 more
extern "C" int solve_chain(int N) {
  const onchip_plan *p = plan();
  int blocks = small_n(N) ? p->blocks_small : p->blocks, S = blocks * ONCHIP_THREADS;
  return 2 + ONCHIP_REGS + (N + S - 1) / S + 10 + (blocks + 31) / 32 + 5;
}

extern "C" void solve(const float *input, float *output, int N) {
  int aligned = ((uintptr_t)input % 16 == 0) && ((uintptr_t)output % 16 == 0);
  int n4 = aligned ? N / 4 : 0;
  const onchip_plan *p = plan();
  int small = small_n(N), blocks = small ? p->blocks_small : p->blocks, slots = small ? 0 : p->slots;
  void *args[] = {(void *)&input, (void *)&output, (void *)&n4, (void *)&N, (void *)&slots};
  const void *kernel = small ? (const void *)softmax_onchip<true> : (const void *)softmax_onchip<false>;
  checkCudaErrors(cudaLaunchCooperativeKernel(kernel, dim3(blocks), dim3(ONCHIP_THREADS), args,
                                              (size_t)slots * 16 * ONCHIP_THREADS, 0));
  getLastCudaError("softmax_onchip execution failed");
}
