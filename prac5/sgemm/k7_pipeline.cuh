/*
 * sgemm/k7_pipeline.cuh -- kernel 7: bigger thread tiles, one block per SM, and a copy pipeline.
 * Kernels 5 and 6 are held back by what a thread does besides multiply-adding: under ncu a share of their
 * instructions are not FFMAs, which caps the FMA pipe, and the pipe is busy well below that cap (the profile:
 * docs/notes/prac5.md, "SGEMM kernel 7 under the profiler"). Four changes, each named where it is made:
 *  (a) 8 x 16 outputs per thread (a warp owns 64 x 64 of C, the block 128 x 256): 128 multiply-adds for every
 *      six 16-byte shared loads, where kernels 5-6 have 64 for four. 128 accumulators need most of the 255
 *      registers a thread may have, so one block of 256 threads runs on an SM: 8 warps, 2 per scheduler, each
 *      with 128 independent multiply-adds per k-step (one index of the inner length, K) to hide the others' latency.
 *  (b) the tiles are copied by cp.async (sm_80 on; ../common/cp_async.h): global memory goes into shared
 *      memory while the threads compute, without passing through registers, and what lies outside the
 *      matrices is filled with zeros. S7_STAGES = 4 stages of shared memory: the tile being multiplied and 3
 *      more in flight. A thread waits only for the oldest (cp.async.wait_group), then a __syncthreads makes
 *      everyone's copies visible to everyone.
 *  (c) fragments double-buffered in registers: the shared loads of k-step k + 1 are issued before the
 *      multiply-adds of k-step k, so they land while those run.
 *  (d) the load addresses are worked out once per thread (a pointer, bounds, a shared-memory offset) and only
 *      advanced per tile, not recomputed for every copy.
 * Tiles 16 deep along K; with 4 stages the block uses 97 KB of shared memory, which needs cudaFuncSetAttribute
 * (over 48 KB); a GPU that cannot give that much (Turing: 64 KB) gets 2 stages. Before sm_80 the copies are
 * ordinary loads and stores: still correct, no longer asynchronous.
 */
#define S7_BM 128 // rows of C per block
#define S7_BN 256 // columns of C per block
#define S7_BK 16  // depth of a tile along K
#define S7_PAD 4  // As rows padded: (128 + 4) * 4 bytes = 33 x 16, so its transposing copies hit 32 banks
#define S7_LDA (S7_BM + S7_PAD)
#define S7_THREADS 256
#ifndef S7_STAGES
#define S7_STAGES 4 // prac5's Makefile also builds sgemm_ladder_s2 with 2, the stages a Turing GPU gets
#endif
static_assert(S7_BM == 128 && S7_BN == 256 && S7_BK == 16 && S7_THREADS == 256,
              "the thread layout and the copy layout below are written for this shape");
static_assert(S7_STAGES >= 2, "the pipeline waits for all but STAGES - 2 groups: at least 2 stages");
// a block's dynamic shared memory: each stage holds a tile of A (transposed, padded rows) and a tile of B
static constexpr int s7_shared_bytes(int stages) { return stages * S7_BK * (S7_LDA + S7_BN) * (int)sizeof(float); }

template <int STAGES, bool VEC>
__global__ void __launch_bounds__(S7_THREADS, 1)
    sgemm_pipeline(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N,
                   int K) {
  constexpr int AS = S7_BK * S7_LDA, BS = S7_BK * S7_BN; // floats per stage: As[k][m] (transposed), Bs[k][n]
  extern __shared__ __align__(16) float smem[];
  float *As = smem, *Bs = smem + STAGES * AS;
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int row0 = blockIdx.y * S7_BM, col0 = blockIdx.x * S7_BN;
  // (a) warp (wr, wc) of a 2 x 4 grid owns rows wr*64 .. +63 and columns wc*64 .. +63; lane (lr, lc) of an 8 x 4
  // grid owns rows r .. r+3 and r+32 .. r+35, and columns c + 16q .. +3 for q = 0..3. Lanes that share a row
  // are neighbours, so a warp's reads of As cost the fewest shared-memory cycles.
  int r = (warp / 4) * 64 + (lane / 4) * 4;
  int c = (warp % 4) * 64 + (lane % 4) * 4;
  int ntiles = (K + S7_BK - 1) / S7_BK;

  // (d) A's tile, 128 x 16, is 8 copies of 4 bytes per thread: rows am + 32j (j = 0..3), columns ak + 8h (h = 0..1);
  // a warp reads 4 rows of 8 consecutive floats and writes them transposed, As[k][m], to 32 distinct banks.
  int am = 4 * warp + lane / 8, ak = lane % 8;
  const float *a_src = A + (size_t)(row0 + am) * K + ak; // dereferenced only where in bounds
  size_t a_step = (size_t)32 * K;
  unsigned a_rows_in = 0; // bit j: row am + 32j is inside A
#pragma unroll
  for (int j = 0; j < 4; j++) a_rows_in |= (unsigned)(row0 + am + 32 * j < M) << j;
  // B's tile, 16 x 256, is 4 copies of 16 bytes per thread: rows bk + 4e (e = 0..3), columns bn .. bn+3.
  int bk = tid / 64, bn = (tid % 64) * 4;
  const float *b_src = B + (size_t)bk * N + col0 + bn;
  size_t b_step = (size_t)4 * N;
  float *a_dst = As + ak * S7_LDA + am, *b_dst = Bs + bk * S7_BN + bn;

  // issue the copies of tile t into stage t % STAGES, as one group (an empty group past the last tile keeps
  // the count of groups in flight the same every iteration)
  auto issue = [&](int t) {
    if (t < ntiles) {
      int k0 = t * S7_BK;
      int stage = t % STAGES;
      const float *a = a_src + k0;
#pragma unroll
      for (int j = 0; j < 4; j++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
          bool in = ((a_rows_in >> j) & 1u) && k0 + ak + 8 * h < K;
          copy4_to_shared_or_zero(&a_dst[stage * AS + 8 * h * S7_LDA + 32 * j], in ? a + j * a_step + 8 * h : A, in);
        }
      const float *b = b_src + (size_t)k0 * N;
#pragma unroll
      for (int e = 0; e < 4; e++) {
        bool row_in = k0 + bk + 4 * e < K;
        float *dst = &b_dst[stage * BS + 4 * e * S7_BN];
        if (VEC) {
          bool in = row_in && col0 + bn < N; // N % 4 == 0: the 4 columns are all in or all out
          copy16_to_shared_or_zero(dst, in ? b + e * b_step : B, in);
        } else {
#pragma unroll
          for (int i = 0; i < 4; i++) {
            bool in = row_in && col0 + bn + i < N;
            copy4_to_shared_or_zero(dst + i, in ? b + e * b_step + i : B, in);
          }
        }
      }
    }
    cp_async_commit();
  };

  float acc[8][16];
#pragma unroll
  for (int i = 0; i < 8; i++)
#pragma unroll
    for (int j = 0; j < 16; j++) acc[i][j] = 0.0f;

  // (b) fill the pipeline: tiles 0 .. STAGES-1 in flight, then wait for tile 0
#pragma unroll
  for (int s = 0; s < STAGES; s++) issue(s);
  cp_async_wait<STAGES - 1>();
  __syncthreads();

  // (c) the fragments of one k-step: 8 rows of As and 16 columns of Bs, in two register buffers
  float4 fa[2][2], fb[2][4];
  auto load_fragments = [&](int buf, const float *as, const float *bs, int k) {
    fa[buf][0] = *reinterpret_cast<const float4 *>(&as[k * S7_LDA + r]);
    fa[buf][1] = *reinterpret_cast<const float4 *>(&as[k * S7_LDA + r + 32]);
#pragma unroll
    for (int q = 0; q < 4; q++) fb[buf][q] = *reinterpret_cast<const float4 *>(&bs[k * S7_BN + c + 16 * q]);
  };
  load_fragments(0, As, Bs, 0);

  for (int t = 0; t < ntiles; t++) {
    const float *as = As + (t % STAGES) * AS, *bs = Bs + (t % STAGES) * BS;
#pragma unroll
    for (int k = 0; k < S7_BK; k++) {
      if (k < S7_BK - 1) {
        load_fragments((k + 1) & 1, as, bs, k + 1);
      } else {
        // the last k-step: this tile's fragments are all in registers. Once every thread is here, its stage
        // can take tile t + STAGES; tile t + 1 must have landed (at most STAGES - 2 newer groups in flight).
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        issue(t + STAGES);
        int s1 = (t + 1) % STAGES;
        if (t + 1 < ntiles) load_fragments((k + 1) & 1, As + s1 * AS, Bs + s1 * BS, 0);
      }
      const int cur = k & 1;
      float av[8] = {fa[cur][0].x, fa[cur][0].y, fa[cur][0].z, fa[cur][0].w,
                     fa[cur][1].x, fa[cur][1].y, fa[cur][1].z, fa[cur][1].w};
      float bv[16];
#pragma unroll
      for (int q = 0; q < 4; q++) {
        bv[4 * q + 0] = fb[cur][q].x;
        bv[4 * q + 1] = fb[cur][q].y;
        bv[4 * q + 2] = fb[cur][q].z;
        bv[4 * q + 3] = fb[cur][q].w;
      }
#pragma unroll
      for (int i = 0; i < 8; i++)
#pragma unroll
        for (int j = 0; j < 16; j++) acc[i][j] += av[i] * bv[j];
    }
  }
  cp_async_wait<0>(); // only empty groups are left by now; waiting for them costs nothing and leaves no doubt

#pragma unroll
  for (int i = 0; i < 8; i++) {
    int row = row0 + r + (i % 4) + (i / 4) * 32;
#pragma unroll
    for (int q = 0; q < 4; q++)
      store4<VEC>(C, row, col0 + c + 16 * q, M, N,
                  make_float4(acc[i][4 * q], acc[i][4 * q + 1], acc[i][4 * q + 2], acc[i][4 * q + 3]));
  }
}

template <int STAGES> static void launch_pipeline(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 grid(ceil_div(N, S7_BN), ceil_div(M, S7_BM));
  constexpr int smem = s7_shared_bytes(STAGES);
  static int allowed = 0; // over 48 KB of dynamic shared memory must be allowed, once for each kernel
  if (!allowed) {
    checkCudaErrors(cudaFuncSetAttribute(sgemm_pipeline<STAGES, true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         smem));
    checkCudaErrors(cudaFuncSetAttribute(sgemm_pipeline<STAGES, false>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    allowed = 1;
  }
  if (rows_aligned16(B, N) && rows_aligned16(C, N))
    sgemm_pipeline<STAGES, true><<<grid, S7_THREADS, smem>>>(A, B, C, M, N, K);
  else
    sgemm_pipeline<STAGES, false><<<grid, S7_THREADS, smem>>>(A, B, C, M, N, K);
  getLastCudaError("sgemm_pipeline execution failed");
}

static void run_pipeline(const float *A, const float *B, float *C, int M, int N, int K) {
  static int optin = -1; // the most shared memory a block may have on this device, asked once
  if (optin < 0) {
    int dev;
    checkCudaErrors(cudaGetDevice(&dev));
    optin = device_limits(dev)->smem_block_optin;
  }
  if (optin >= s7_shared_bytes(S7_STAGES))
    launch_pipeline<S7_STAGES>(A, B, C, M, N, K);
  else
    launch_pipeline<2>(A, B, C, M, N, K);
}
