/*
 * sgemm/k8_shapes.cuh -- kernel 8: kernel 7's design in several sizes, and split-K, so that a product of any
 * shape fills the GPU. Kernel 7 has one shape of block, 128 x 256 of C: a C of 1000 x 999 (the default size)
 * makes 8 x 4 = 32 blocks of it, for 132 SMs, and the rest of the GPU waits. Kernel 8 runs a plan, one of the
 * configurations of its template with the inner length K cut into `split` slices, which sgemm/k8_plan.cuh
 * chooses from the shape and the GPU by the cost model of sgemm/k8_model.cuh.
 *
 * One template serves every configuration: a block of BM x BN outputs is a grid of warps of WM x WN each, and
 * within a warp each lane owns WM/8 x WN/4 outputs, as in kernel 7 (rows in groups of 4, 32 apart; columns in
 * groups of 4, 16 apart), so the shared-memory reads stay free of bank conflicts at every size. The copies
 * (cp.async, tiles 16 deep along K, STAGES of them in flight) are kernel 7's, spread over the block's threads;
 * B's are always 16 bytes, from B itself or, when N is not a multiple of 4, from a copy with padded rows.
 * Split-K: with few tiles of C and a long K, slice z of the grid (blockIdx.z) multiplies tiles z * tps .. of K
 * only and writes its partial product to slice z of a workspace, and a second kernel adds the slices.
 */
#define S8_BK 16 // depth of a tile along K, as kernel 7

// what each configuration's template parameters imply
template <int BM, int BN, int WM, int WN>
struct s8_shape {
  static constexpr int WARPS_N = BN / WN, THREADS = 32 * (BM / WM) * (BN / WN);
  static constexpr int RG = WM / 32, CG = WN / 16; // a lane's groups of 4 rows (32 apart) and 4 columns (16 apart)
  static constexpr int LDA = BM + 4;               // As rows padded, as kernel 7: the transposing copies hit 32 banks
  static constexpr int A_ROWS = THREADS / 8, A_PASSES = BM / A_ROWS; // A: 8 threads per row of 16
  static constexpr int B_COLS4 = BN / 4, B_ROWS = THREADS / B_COLS4, B_PASSES = S8_BK / B_ROWS; // B: 16 bytes each
  static constexpr int AS = S8_BK * LDA, BS = S8_BK * BN;                                       // floats per stage
  static_assert(WM % 32 == 0 && WN % 16 == 0 && BM % WM == 0 && BN % WN == 0, "warp tiles of 32k x 16k");
  static_assert(BM % A_ROWS == 0 && A_PASSES <= 32, "A's tile: whole passes of THREADS / 8 rows");
  static_assert(THREADS % B_COLS4 == 0 && S8_BK % B_ROWS == 0, "B's tile: whole passes of rows");
  static_assert(BM % 32 == 0, "As rows of BM + 4 floats: 4 banks apart for every BM that is a multiple of 32");
};

// C (or slice blockIdx.z of the workspace, with split-K) = the tiles t0 .. t0 + tps - 1 of K of A B
// Before sm_80 the copies pass through registers (../common/cp_async.h), and the 4-stage 128 x 128 kernel would
// spill at two blocks per SM: there it is built for one. (A Turing GPU never runs it, its 66.5 KB of shared memory
// being more than a block may have there; a newer GPU running PTX built for 7.5 does.)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define S8_MINB(bm, bn, stages, minb) ((bm) * (bn) >= 128 * 128 && (stages) > 2 ? 1 : (minb))
#else
#define S8_MINB(bm, bn, stages, minb) (minb)
#endif

template <int BM, int BN, int WM, int WN, int STAGES, int MINB>
__global__ void __launch_bounds__(s8_shape<BM, BN, WM, WN>::THREADS, S8_MINB(BM, BN, STAGES, MINB))
    sgemm_shapes(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K,
                 int ldb, int ldc, int tps, bool cvec) {
  using S = s8_shape<BM, BN, WM, WN>;
  extern __shared__ __align__(16) float smem[];
  float *As = smem, *Bs = smem + STAGES * S::AS;
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  int r = (warp / S::WARPS_N) * WM + (lane / 4) * 4;
  int c = (warp % S::WARPS_N) * WN + (lane % 4) * 4;
  int t0 = blockIdx.z * tps;
  int ntiles = min((K + S8_BK - 1) / S8_BK - t0, tps); // this slice's tiles (0 or fewer: the slice is empty)

  // A's tile, BM x 16: rows am + A_ROWS j, columns ak and ak + 8, copied 4 bytes at a time and transposed
  int am = tid / 8, ak = tid % 8;
  const float *a_src = A + (size_t)(row0 + am) * K + (size_t)t0 * S8_BK + ak; // dereferenced only where in bounds
  size_t a_step = (size_t)S::A_ROWS * K;
  unsigned a_rows_in = 0; // bit j: row am + A_ROWS j is inside A
#pragma unroll
  for (int j = 0; j < S::A_PASSES; j++) a_rows_in |= (unsigned)(row0 + am + S::A_ROWS * j < M) << j;
  // B's tile, 16 x BN: rows bk + B_ROWS e, columns bn .. bn+3
  int bk = tid / S::B_COLS4, bn = (tid % S::B_COLS4) * 4;
  const float *b_src = B + (size_t)(t0 * S8_BK + bk) * ldb + col0 + bn; // B's rows are ldb floats apart
  size_t b_step = (size_t)S::B_ROWS * ldb;
  float *a_dst = As + ak * S::LDA + am, *b_dst = Bs + bk * BN + bn;

  auto issue = [&](int t) { // tile t of this slice into stage t % STAGES, as one group (empty past the last)
    if (t < ntiles) {
      int k0 = (t0 + t) * S8_BK, stage = t % STAGES;
      const float *a = a_src + t * S8_BK;
#pragma unroll
      for (int j = 0; j < S::A_PASSES; j++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
          bool in = ((a_rows_in >> j) & 1u) && k0 + ak + 8 * h < K;
          copy4_to_shared_or_zero(&a_dst[stage * S::AS + 8 * h * S::LDA + S::A_ROWS * j],
                                  in ? a + j * a_step + 8 * h : A, in);
        }
      const float *b = b_src + (size_t)t * S8_BK * ldb;
#pragma unroll
      for (int e = 0; e < S::B_PASSES; e++) {
        bool row_in = k0 + bk + S::B_ROWS * e < K;
        float *dst = &b_dst[stage * S::BS + S::B_ROWS * e * BN];
        bool in = row_in && col0 + bn < N; // ldb % 4 == 0: the 4 columns are all in the row, or all past N
        copy16_to_shared_or_zero(dst, in ? b + e * b_step : B, in);
      }
    }
    cp_async_commit();
  };

  float acc[4 * S::RG][4 * S::CG];
#pragma unroll
  for (int i = 0; i < 4 * S::RG; i++)
#pragma unroll
    for (int j = 0; j < 4 * S::CG; j++) acc[i][j] = 0.0f;

#pragma unroll
  for (int s = 0; s < STAGES; s++) issue(s);
  cp_async_wait<STAGES - 1>();
  __syncthreads();

  float4 fa[2][S::RG], fb[2][S::CG];
  auto load_fragments = [&](int buf, const float *as, const float *bs, int k) {
#pragma unroll
    for (int i = 0; i < S::RG; i++) fa[buf][i] = *reinterpret_cast<const float4 *>(&as[k * S::LDA + r + 32 * i]);
#pragma unroll
    for (int q = 0; q < S::CG; q++) fb[buf][q] = *reinterpret_cast<const float4 *>(&bs[k * BN + c + 16 * q]);
  };
  load_fragments(0, As, Bs, 0);

  for (int t = 0; t < ntiles; t++) {
    const float *as = As + (t % STAGES) * S::AS, *bs = Bs + (t % STAGES) * S::BS;
#pragma unroll
    for (int k = 0; k < S8_BK; k++) {
      if (k < S8_BK - 1) {
        load_fragments((k + 1) & 1, as, bs, k + 1);
      } else { // kernel 7's hand-over: the stage just read takes tile t + STAGES once every thread is here
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        issue(t + STAGES);
        int s1 = (t + 1) % STAGES;
        if (t + 1 < ntiles) load_fragments((k + 1) & 1, As + s1 * S::AS, Bs + s1 * S::BS, 0);
      }
      const int cur = k & 1;
      float av[4 * S::RG], bv[4 * S::CG];
#pragma unroll
      for (int i = 0; i < 4 * S::RG; i++) av[i] = f4_at(fa[cur][i / 4], i % 4);
#pragma unroll
      for (int j = 0; j < 4 * S::CG; j++) bv[j] = f4_at(fb[cur][j / 4], j % 4);
#pragma unroll
      for (int i = 0; i < 4 * S::RG; i++)
#pragma unroll
        for (int j = 0; j < 4 * S::CG; j++) acc[i][j] += av[i] * bv[j];
    }
  }
  cp_async_wait<0>();

  // C's rows (or, with split-K, slice z of the workspace's) are ldc floats apart. cvec: 16-byte stores of
  // every column below ldc (ldc % 4 == 0: C itself, or the workspace's padded rows); else 4-byte stores below N
  float *out = C + (size_t)blockIdx.z * M * ldc;
#pragma unroll
  for (int i = 0; i < 4 * S::RG; i++) {
    int row = row0 + r + (i % 4) + (i / 4) * 32;
#pragma unroll
    for (int q = 0; q < S::CG; q++) {
      float4 v = make_float4(acc[i][4 * q], acc[i][4 * q + 1], acc[i][4 * q + 2], acc[i][4 * q + 3]);
      if (cvec)
        store4<true>(out, row, col0 + c + 16 * q, M, ldc, v);
      else
        store4<false>(out, row, col0 + c + 16 * q, M, N, v);
    }
  }
}

// split-K's second kernel: C = W[0] + W[1] + ... + W[split-1], each element added in that order, so the sum,
// like every other one here, is the same on every run (float atomics into C would add in whatever order the
// blocks finish, and differ in the last bits). The slices are M x ldw (ldw % 4 == 0: rows of 16 bytes); C is
// M x N, written 16 bytes at a time where cvec
__global__ void sgemm_split_sum(const float *__restrict__ W, float *__restrict__ C, int M, int N, int ldw, int split,
                                bool cvec) {
  size_t slice = (size_t)M * ldw;
  for (int row = blockIdx.y; row < M; row += gridDim.y)
    for (int c = 4 * (blockIdx.x * blockDim.x + threadIdx.x); c < N; c += 4 * gridDim.x * blockDim.x) {
      const float *w = W + (size_t)row * ldw + c;
      float4 s = __ldcs(reinterpret_cast<const float4 *>(w));
      for (int z = 1; z < split; z++) {
        float4 v = __ldcs(reinterpret_cast<const float4 *>(w + z * slice));
        s.x += v.x, s.y += v.y, s.z += v.z, s.w += v.w;
      }
      if (cvec)
        store4<true>(C, row, c, M, N, s);
      else
        store4<false>(C, row, c, M, N, s);
    }
}

// B (K x N) into rows of ldb >= N floats (ldb % 4 == 0), zeros after column N: rows that start on 16-byte
// boundaries. Each thread writes 16 bytes, from 4 floats read one at a time (B's rows are not aligned)
__global__ void sgemm_pad_rows(const float *__restrict__ B, float *__restrict__ P, int K, int N, int ldb) {
  for (int row = blockIdx.y; row < K; row += gridDim.y)
    for (int c = 4 * (blockIdx.x * blockDim.x + threadIdx.x); c < ldb; c += 4 * gridDim.x * blockDim.x) {
      const float *b = B + (size_t)row * N + c;
      float4 v = make_float4(b[0], c + 1 < N ? b[1] : 0.0f, c + 2 < N ? b[2] : 0.0f, c + 3 < N ? b[3] : 0.0f);
      *reinterpret_cast<float4 *>(P + (size_t)row * ldb + c) = v; // c < ldb and N > ldb - 4: b[0] is in B
    }
}

static constexpr int s8_smem_bytes(int bm, int bn, int stages) { return stages * S8_BK * (bm + 4 + bn) * 4; }

// what a plan runs: configuration `config` (s8_configs[config] in sgemm/k8_plan.cuh, case `config` of
// s8_dispatch below), `split` slices of K, and the stages of its pipeline
typedef struct {
  int config, split, stages;
} s8_plan;

// launches one instance (or, with M = 0, launches nothing and says how many blocks of it an SM holds at once:
// the runtime's occupancy, lowered to a GPU profile's by occupancy_blocks_per_sm, helper_cuda.h)
template <int BM, int BN, int WM, int WN, int STAGES, int MINB>
static int s8_launch(const float *A, const float *B, float *out, int M, int N, int K, int ldb, int ldc, int split,
                     bool cvec) {
  constexpr int smem = s8_smem_bytes(BM, BN, STAGES), threads = s8_shape<BM, BN, WM, WN>::THREADS;
  static int allowed = 0; // over 48 KB of dynamic shared memory must be allowed, once for each kernel
  if (!allowed) {
    checkCudaErrors(cudaFuncSetAttribute(sgemm_shapes<BM, BN, WM, WN, STAGES, MINB>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    allowed = 1;
  }
  if (M == 0) {
    int dev;
    checkCudaErrors(cudaGetDevice(&dev));
    return occupancy_blocks_per_sm(sgemm_shapes<BM, BN, WM, WN, STAGES, MINB>, dev, threads, smem);
  }
  int ntiles = (K + S8_BK - 1) / S8_BK, tps = (ntiles + split - 1) / split;
  dim3 grid(ceil_div(N, BN), ceil_div(M, BM), split);
  sgemm_shapes<BM, BN, WM, WN, STAGES, MINB><<<grid, threads, smem>>>(A, B, out, M, N, K, ldb, ldc, tps, cvec);
  getLastCudaError("sgemm_shapes execution failed");
  return 0;
}

// one switch from a plan to its template instance (4 stages; 128x128 on 2 where 4 do not fit: a Turing GPU)
static int s8_dispatch(const s8_plan *p, const float *A, const float *B, float *out, int M, int N, int K, int ldb,
                       int ldc, bool cvec) {
  switch (p->config) {
  case 0:
    return p->stages == 4 ? s8_launch<128, 128, 64, 32, 4, 2>(A, B, out, M, N, K, ldb, ldc, p->split, cvec)
                          : s8_launch<128, 128, 64, 32, 2, 2>(A, B, out, M, N, K, ldb, ldc, p->split, cvec);
  case 1:
    return s8_launch<128, 64, 64, 32, 4, 3>(A, B, out, M, N, K, ldb, ldc, p->split, cvec);
  case 2:
    return s8_launch<64, 128, 64, 32, 4, 3>(A, B, out, M, N, K, ldb, ldc, p->split, cvec);
  default:
    return s8_launch<64, 64, 32, 32, 4, 4>(A, B, out, M, N, K, ldb, ldc, p->split, cvec);
  }
}

// a grid of 256-thread blocks over rows x cols4 (4 floats per thread), at most 8 blocks per SM; rows beyond the
// grid are taken by a loop (gridDim.y at most 65535)
static dim3 s8_rows_grid(int cols4, int rows) {
  static int most = 0; // 8 blocks per SM of this device, asked once
  if (!most) {
    int dev;
    checkCudaErrors(cudaGetDevice(&dev));
    most = 8 * device_limits(dev)->sms;
  }
  int bx = ceil_div(cols4, 256);
  if (bx > most) bx = most;
  int by = most / bx > 0 ? most / bx : 1;
  return dim3(bx, rows < by ? rows : by);
}

// split-K's slices of C, and B with its rows padded to a multiple of 4 floats (sgemm.h: kept between calls)
static sgemm_workspace s8_work, s8_bpad;
static void s8_teardown(void) {
  workspace_free(&s8_work);
  workspace_free(&s8_bpad);
}

// runs a plan: one launch, or with split > 1 the slices into the workspace and the ordered sum into C. B's tiles
// are copied 16 bytes at a time when its rows start on 16-byte boundaries (N a multiple of 4); else B is first
// copied into rows padded to a multiple of 4 floats (sgemm_pad_rows: K N 8 bytes of traffic and a launch, far less
// than 4-byte copies of B cost the product on the H100 measured: docs/notes/prac5.md, "SGEMM kernel 8: ...")
static void s8_run_plan(const s8_plan *p, const float *A, const float *B, float *C, int M, int N, int K) {
  int ldb = N;
  if (!rows_aligned16(B, N)) {
    ldb = (N + 3) / 4 * 4;
    float *P = workspace_grow(&s8_bpad, (size_t)K * ldb * sizeof(float));
    sgemm_pad_rows<<<s8_rows_grid(ldb / 4, K), 256>>>(B, P, K, N, ldb);
    getLastCudaError("sgemm_pad_rows execution failed");
    B = P;
  }
  bool cvec = rows_aligned16(C, N);
  if (p->split == 1) {
    s8_dispatch(p, A, B, C, M, N, K, ldb, N, cvec);
    return;
  }
  // the slices' rows are ldb floats (N rounded up to a multiple of 4): 16-byte stores and loads throughout
  float *W = workspace_grow(&s8_work, (size_t)p->split * M * ldb * sizeof(float));
  s8_dispatch(p, A, B, W, M, N, K, ldb, ldb, true);
  sgemm_split_sum<<<s8_rows_grid(ceil_div(N, 4), M), 256>>>(W, C, M, N, ldb, p->split, cvec);
  getLastCudaError("sgemm_split_sum execution failed");
}

static s8_plan s8_plan_for(int M, int N, int K); // sgemm/k8_plan.cuh: -plan's plan, or the model's pick

// kernel 8: the plan for this shape (the model picks it on the first call of a shape), run
static void run_shapes(const float *A, const float *B, float *C, int M, int N, int K) {
  s8_plan plan = s8_plan_for(M, N, K);
  if (plan.config < 0) {
    fprintf(stderr, "kernel 8: no configuration fits this GPU's shared memory\n");
    exit(EXIT_FAILURE);
  }
  s8_run_plan(&plan, A, B, C, M, N, K);
}
