/*
 * hgemm/k3_mma.cuh -- kernel 3: the tensor cores without WMMA. mma.sync and ldmatrix through inline PTX, so that
 * the fragments WMMA hides are registers this file lays out. A block of 4 warps (2 x 2) computes 128 x 128 of C,
 * walking along K 32 at a time; warp w owns 64 x 64 of it, rows (w / 2) 64 and columns (w % 2) 64: 4 x 8 tiles of
 * 16 x 8, 128 FP32 accumulators per thread. Per 16 of K the warp loads 4 fragments of A (16 x 16) and 8 of B
 * (16 x 8) from shared memory and issues 32 mma.sync: each element of A read from shared memory serves 64 columns
 * of C (kernel 2's warps: 32), each of B 64 rows.
 *
 * The fragments (PTX ISA, "Warp-level matrix fragment mma.m16n8k16"). Lane l is in group g = l / 4, place
 * q = l % 4; each 32-bit register holds two halves, neighbours along a row of the tile.
 *   mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32  d, a, b, c   (.bf16.bf16 for BF16): D = A B + C
 *     a: 4 registers, A's 16 x 16 (row-major: .row): a0 row g, columns 2q, 2q + 1; a1 row g + 8; a2 and a3 the
 *        same rows, columns 8 further
 *     b: 2 registers, B's 16 x 8 (column-major: .col): b0 rows (k) 2q, 2q + 1 of column g; b1 rows 8 further
 *     c, d: 4 floats, C's 16 x 8: c0, c1 row g, columns 2q, 2q + 1; c2, c3 row g + 8
 *   ldmatrix.sync.aligned.m8n8.x4.shared.b16  {r0, r1, r2, r3}, [p]: four 8 x 8 matrices of halves, matrix j's 8
 *     rows (16 bytes each) at the addresses lanes 8j .. 8j + 7 give; lane l gets, of matrix j, row l / 4,
 *     columns 2 (l % 4) and 2 (l % 4) + 1 in rj: exactly a0 of the mma when the matrix is A's rows 0-7, columns
 *     0-7. So lane l points at row l % 16, columns 8 (l / 16) of the 16 x 16 tile of A, and the four matrices
 *     land as a0 .. a3. With .trans lane l gets column l / 4, rows 2 (l % 4) and 2 (l % 4) + 1: B's tile is
 *     row-major (K x N), and its transpose read this way is b0 of the mma. Lane l points at row (k) l % 16,
 *     columns 8 (l / 16) of a 16 x 16 slab of B: r0, r1 are b0, b1 of its first 8 columns, r2, r3 of the next 8.
 * Nothing of this is visible through WMMA: its fragments are the same registers, in an order it does not promise.
 *
 * Bank conflicts, and the XOR swizzle (hgemm_swizzle in hgemm/hgemm_host.h; tests/test_prac5.c checks it). An
 * ldmatrix.x4 is served one 8 x 8 matrix a phase: 8 rows of 16 bytes, 128 bytes, which 32 banks of 4 bytes serve
 * at once only when the 8 rows fall in the 8 different groups of 4 banks (16 bytes) of a 128-byte line. Chunk c (of
 * 16 bytes) of row r of a tile with cpr chunks per row lies in group (cpr r + c) mod 8. A phase reads 8 consecutive
 * rows r0 .. r0 + 7 (r0 a multiple of 8) at one chunk c:
 *   A's tile, 128 x 32 halves: cpr = 4 (64 bytes): groups c, c + 4, c, c + 4, ...: 4-way. Swizzled, chunk c of row
 *     r is stored at c ^ ((r / 2) mod 4): group 4 (r mod 2) + (c ^ ((r / 2) mod 4)); over the 8 rows r mod 2 and
 *     (r / 2) mod 4 take every pair of values once, so the 8 rows hit 8 groups: all 32 banks, once each.
 *   B's tile, 32 x 128 halves: cpr = 16 (256 bytes): every row starts at bank 0, group c mod 8 for all 8: 8-way.
 *     Swizzled, chunk c of row r at c ^ (r mod 8): group (c mod 8) ^ (r mod 8), 8 different values.
 * The XOR changes only a chunk's low bits, so each row keeps its own chunks (a permutation of them), 16 bytes stay
 * whole for cp.async, and no byte of shared memory is added (kernel 2's padding: 25 % of A's tile). The writes
 * are conflict-free too: cp.async's 16 bytes per lane are served 8 lanes a phase, which write 2 whole rows of A
 * (one 128-byte line, permuted within it) or 8 consecutive chunks of one row of B. The swizzle is why ldmatrix is
 * needed: each lane gives its own row's address, which load_matrix_sync (one pointer and one stride) cannot.
 *
 * The pipeline: S buffers of each tile, 16 KB a stage, filled by cp.async (common/cp_async.h) S - 1 steps ahead of
 * the step being multiplied, one barrier per step: after it, every warp has finished the step before, whose buffer
 * the next copies reuse. S is 4 (64 KB, dynamic shared memory a block opts in to) where two such blocks fit an SM,
 * as on 8.0 and 9.0, else 3 (48 KB, the most a block has without opting in); h3_stages asks the device, and
 * -stages=3 runs 3 on any GPU (make check does, so that an RTX 30 or 40's path runs where 4 is the default). Other
 * shapes tried on an H100 (docs/notes/prac5.md): a K step of 64 at 3 stages tied; 128 x 256 or 256 x 128 tiles of 8
 * warps, one block an SM, and 8 warps of 64 x 32 were slower.
 * The edges, as kernel 2: with K and N multiples of 8 a 16-byte chunk is wholly inside A or B, or wholly outside
 * and zero-filled by cp.async; otherwise (VEC false) each thread loads its 8 halves one by one, zero outside.
 * Zeros add nothing to C. C goes out from the registers: each lane writes its c0, c1 (and c2, c3) as one float2
 * where both columns are inside C and 8-byte aligned (N even), else one float at a time, each row and column
 * tested: correct at any M, N and K.
 * m16n8k16 needs compute capability 8.0 for FP16 (7.5 has only m16n8k8) as for BF16, so this kernel's body is
 * empty in code for 7.5: the runner asks what the binary holds (kernel_can_run) and SKIPs -kernel=3 there, and its
 * default there is kernel 2.
 */
#define H3_BM 128
#define H3_BN 128
#define H3_BK 32
#define H3_THREADS 128                                       // 4 warps: 2 along M x 2 along N, 64 x 64 of C each
#define H3_STAGE_BYTES ((H3_BM * H3_BK + H3_BK * H3_BN) * 2) // a stage of A's and B's tiles: 16 KB
#define H3_ACPR (H3_BK / 8)                                  // 16-byte chunks in a row of A's tile: 4
#define H3_BCPR (H3_BN / 8)                                  // ... of B's tile: 16
#define H3_COPIES (H3_BM * H3_ACPR / H3_THREADS)             // 16-byte copies of each tile per thread: 4
static_assert(H3_BM * H3_ACPR == H3_COPIES * H3_THREADS && H3_BK * H3_BCPR == H3_COPIES * H3_THREADS,
              "each thread copies H3_COPIES chunks of A's tile and of B's");
static_assert(H3_BM == 2 * 64 && H3_BN == 2 * 64 && H3_THREADS == 4 * 32 && H3_BK % 16 == 0,
              "2 x 2 warps of 64 x 64 cover the block's tile of C; K is taken 16 (one mma) at a time");

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define H3_CODE 0 // m16n8k16 in FP16 and BF16: 8.0 and later
#else
#define H3_CODE 1
#endif

#if H3_CODE
// four 8 x 8 matrices of halves from shared memory (p: this lane's row, a shared-space address), as they are, or
// transposed
static __device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], unsigned p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(p));
}
static __device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4], unsigned p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(p));
}

// c += a b on one 16 x 8 x 16 tile, FP32 accumulate
template <typename T>
static __device__ __forceinline__ void mma_16816(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  if constexpr (std::is_same<T, __half>::value)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// two neighbouring elements of C, (r, c) and (r, c + 1), c even: one 8-byte store where both are inside C and N
// is even (so that &C[r N + c] is 8-byte aligned), else each tested alone
static __device__ __forceinline__ void store_pair(float *C, int M, int N, int r, int c, float x, float y) {
  if (r >= M) return;
  if (N % 2 == 0 && c < N) {
    *(float2 *)&C[r * N + c] = make_float2(x, y);
  } else {
    if (c < N) C[r * N + c] = x;
    if (c + 1 < N) C[r * N + c + 1] = y;
  }
}
#endif

template <typename T, bool VEC, int S> // S stages (dynamic shared memory, S x 16 KB)
__global__ void __launch_bounds__(H3_THREADS)
    hgemm_mma(const T *__restrict__ A, const T *__restrict__ B, float *__restrict__ C, int M, int N, int K) {
#if H3_CODE
  // chunk c of row r of a stage's tile at chunk hgemm_swizzle(r, c, cpr) of that row
  extern __shared__ __align__(128) unsigned char h3_smem[];
  T(*As)[H3_BM * H3_BK] = (T(*)[H3_BM * H3_BK]) h3_smem;
  T(*Bs)[H3_BK * H3_BN] = (T(*)[H3_BK * H3_BN])(h3_smem + S * H3_BM * H3_BK * sizeof(T));
  int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, wm = warp / 2, wn = warp % 2;
  int row0 = blockIdx.y * H3_BM, col0 = blockIdx.x * H3_BN;

  // step t's tiles into stage s: chunk idx of A's tile is row idx / 4, chunk idx % 4; of B's, row idx / 16, chunk
  // idx % 16 (consecutive threads, consecutive 16 bytes of a row), each stored at its swizzled place
  auto load_tiles = [&](int t, int s) {
#pragma unroll
    for (int l = 0; l < H3_COPIES; l++) {
      int idx = tid + l * H3_THREADS;
      int ar = idx / H3_ACPR, ac = idx % H3_ACPR, gr = row0 + ar, gk = t * H3_BK + ac * 8;
      int br = idx / H3_BCPR, bc = idx % H3_BCPR, hk = t * H3_BK + br, gc = col0 + bc * 8;
      T *a = &As[s][(ar * H3_ACPR + hgemm_swizzle(ar, ac, H3_ACPR)) * 8];
      T *b = &Bs[s][(br * H3_BCPR + hgemm_swizzle(br, bc, H3_BCPR)) * 8];
      hgemm_load_chunks<T, VEC>(a, b, A, B, M, N, K, gr, gk, hk, gc);
    }
  };

  float acc[4][8][4]; // acc[i][j]: the warp's 16 x 8 tile (i, j), c0 .. c3 as the mma lays them out
#pragma unroll
  for (int i = 0; i < 4; i++)
#pragma unroll
    for (int j = 0; j < 8; j++)
#pragma unroll
      for (int e = 0; e < 4; e++) acc[i][j][e] = 0.0f;

  // This lane's ldmatrix addresses, in bytes from a stage's start: row lane % 16 of a 16-row slab, chunk lane / 16
  // of its two. The swizzle repeats every 8 rows, so the lane's place is the same in every slab: A's for each 16
  // of K (kk), B's for each pair of 8-column tiles (j); the slabs add whole rows (64 bytes of A, 256 of B).
  unsigned sA = (unsigned)__cvta_generic_to_shared(&As[0][0]), sB = (unsigned)__cvta_generic_to_shared(&Bs[0][0]);
  int lr = lane % 16, lc = lane / 16;
  unsigned a_lane[H3_BK / 16], b_lane[4];
#pragma unroll
  for (int kk = 0; kk < H3_BK / 16; kk++) a_lane[kk] = (lr * H3_ACPR + hgemm_swizzle(lr, kk * 2 + lc, H3_ACPR)) * 16;
#pragma unroll
  for (int j = 0; j < 4; j++) b_lane[j] = (lr * H3_BCPR + hgemm_swizzle(lr, wn * 8 + 2 * j + lc, H3_BCPR)) * 16;
  int ntiles = ceil_div(K, H3_BK);
#pragma unroll
  for (int s = 0; s < S - 1; s++) { // the first S - 1 steps in flight, one group each
    if (s < ntiles) load_tiles(s, s);
    cp_async_commit();
  }
  for (int t = 0; t < ntiles; t++) {
    cp_async_wait<S - 2>(); // this thread's copies of step t have landed ...
    __syncthreads();        // ... and every thread's; and every warp is done with step t - 1, whose stage is reused now
    int next = t + S - 1;
    if (next < ntiles) load_tiles(next, next % S);
    cp_async_commit(); // (an empty group near the end keeps the count of the wait above right)
    unsigned a_st = sA + (t % S) * (H3_BM * H3_BK * 2), b_st = sB + (t % S) * (H3_BK * H3_BN * 2);
#pragma unroll
    for (int kk = 0; kk < H3_BK / 16; kk++) {
      unsigned a[4][4], b[8][2];
#pragma unroll
      for (int i = 0; i < 4; i++) // rows wm 64 + 16 i .. + 15, columns (of K) 16 kk .. + 15
        ldmatrix_x4(a[i], a_st + (wm * 64 + i * 16) * H3_BK * 2 + a_lane[kk]);
#pragma unroll
      for (int j = 0; j < 8; j += 2) { // rows (of K) 16 kk .. + 15, columns wn 64 + 8 j .. + 15: two 16 x 8 tiles
        unsigned q[4];
        ldmatrix_x4_trans(q, b_st + kk * 16 * H3_BN * 2 + b_lane[j / 2]);
        b[j][0] = q[0], b[j][1] = q[1], b[j + 1][0] = q[2], b[j + 1][1] = q[3];
      }
#pragma unroll
      for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 8; j++) mma_16816<T>(acc[i][j], a[i], b[j][0], b[j][1]);
    }
  }

  int g = lane / 4, q = lane % 4; // the lane's group and place: rows g and g + 8, columns 2q and 2q + 1 of a tile
#pragma unroll
  for (int i = 0; i < 4; i++)
#pragma unroll
    for (int j = 0; j < 8; j++) {
      int r = row0 + wm * 64 + i * 16 + g, c = col0 + wn * 64 + j * 8 + 2 * q;
      store_pair(C, M, N, r, c, acc[i][j][0], acc[i][j][1]);
      store_pair(C, M, N, r + 8, c, acc[i][j][2], acc[i][j][3]);
    }
#endif
}

// 4 stages where a block may opt in to 64 KB and two such blocks (and the 1 KB each the runtime reserves) fit an SM;
// else 3, within the 48 KB any block has. Asked once, of the current device
static int h3_device_stages(void) {
  static int stages = 0;
  if (!stages) {
    int dev, optin, per_sm;
    checkCudaErrors(cudaGetDevice(&dev));
    checkCudaErrors(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    checkCudaErrors(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    stages = optin >= 4 * H3_STAGE_BYTES && per_sm >= 2 * (4 * H3_STAGE_BYTES + 1024) ? 4 : 3;
  }
  return stages;
}

// -stages=3 runs the 3-stage pipeline on any GPU (what an RTX 30 or 40 runs by itself), so that make check covers it
// where the device would choose 4; 0: the device's choice. The runner refuses 4 where the device's choice is 3
static int h3_stages_typed = 0;
static int h3_stages(void) { return h3_stages_typed ? h3_stages_typed : h3_device_stages(); }

template <typename T, bool VEC, int S>
static void launch_mma(dim3 grid, const void *A, const void *B, float *C, int M, int N, int K) {
  static bool opted = false; // the kernel's shared memory asked for once, not at every timed launch
  if (!opted)
    checkCudaErrors(
        cudaFuncSetAttribute(hgemm_mma<T, VEC, S>, cudaFuncAttributeMaxDynamicSharedMemorySize, S * H3_STAGE_BYTES));
  opted = true;
  hgemm_mma<T, VEC, S><<<grid, H3_THREADS, S * H3_STAGE_BYTES>>>((const T *)A, (const T *)B, C, M, N, K);
}

template <typename T>
static void run_mma(const void *A, const void *B, float *C, int M, int N, int K) {
  dim3 grid(ceil_div(N, H3_BN), ceil_div(M, H3_BM));
  int vec = K % 8 == 0 && N % 8 == 0 && (uintptr_t)A % 16 == 0 && (uintptr_t)B % 16 == 0, four = h3_stages() == 4;
  if (vec && four)
    launch_mma<T, true, 4>(grid, A, B, C, M, N, K);
  else if (vec)
    launch_mma<T, true, 3>(grid, A, B, C, M, N, K);
  else if (four)
    launch_mma<T, false, 4>(grid, A, B, C, M, N, K);
  else
    launch_mma<T, false, 3>(grid, A, B, C, M, N, K);
  getLastCudaError("hgemm_mma execution failed");
}
