/*
 * hgemm/k4_host.cuh -- kernel 4's host side (the kernel: hgemm/k4_wgmma.cuh): whether this GPU and binary can run
 * it (a probe kernel asks the binary), the tensor maps TMA copies by (made once for a problem, not at every timed
 * launch), and the launch. Where TMA cannot read A or B in place (a row that does not start on 16 bytes: K or N no
 * multiple of 8, or a pointer off 16 bytes) that operand is first copied into a buffer whose rows do, its row pitch
 * rounded up to 8 halves (cudaMemcpy2DAsync, in the same stream, inside the timed work: a caller pays it too).
 */
// 1 where this build's code for the GPU holds kernel 4 (sm_90a code: H4_CODE), asked of the GPU itself
__global__ void hgemm_wgmma_probe(int *has) { *has = H4_CODE; }

// can kernel 4 run here? The GPU (or its profile) must be 9.0 with room for the stages, and this binary's code for
// it must be sm_90a; else 0 with the reason in why
static int hgemm_wgmma_can_run(int dev, char *why, size_t len) {
  if (!kernel_can_run(hgemm_wgmma<__half>, dev, 90, "wgmma and TMA", why, len)) return 0;
  const gpu_limits *g = device_limits(dev);
  int has = 0, *d_has;
  checkCudaErrors(cudaMalloc((void **)&d_has, sizeof(int)));
  hgemm_wgmma_probe<<<1, 1>>>(d_has);
  getLastCudaError("hgemm_wgmma_probe execution failed");
  checkCudaErrors(cudaMemcpy(&has, d_has, sizeof(int), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(d_has));
  if (!has)
    snprintf(why, len,
             "needs wgmma and setmaxnreg, which only sm_90a code holds (compute capability 9.0 alone): "
             "this build's code for this GPU (%d.%d) is without them; an ARCH=sm_90 or SMS=\"... 90\" build "
             "makes it for a 9.0 GPU",
             g->cc / 10, g->cc % 10);
  else if (g->smem_block_optin < H4_SMEM)
    snprintf(why, len, "needs %d KB of shared memory per block: this GPU allows %d KB", H4_SMEM / 1024,
             g->smem_block_optin / 1024);
  return has && g->smem_block_optin >= H4_SMEM;
}

// a 2-D tensor map of a row-major rows x cols matrix of halves at p, rows ld halves apart (ld a multiple of 8),
// boxes of box_rows x box_cols, stored with the 128-byte swizzle, zeros outside the matrix. cuTensorMapEncodeTiled
// is the driver's: its address is asked of the runtime (cudaGetDriverEntryPointByVersion), so the program needs no
// -lcuda
static void h4_tensor_map(CUtensorMap *map, CUtensorMapDataType type, const void *p, int rows, int cols, int ld,
                          int box_rows, int box_cols) {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = NULL;
  if (!encode) {
    cudaDriverEntryPointQueryResult found;
    checkCudaErrors(
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&encode, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || !encode) exit(result_fail("the driver has no cuTensorMapEncodeTiled"));
  }
  cuuint64_t dim[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, pitch[1] = {(cuuint64_t)ld * 2};
  cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows}, step[2] = {1, 1};
  CUresult r =
      encode(map, type, 2, (void *)p, dim, pitch, box, step, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    exit(result_fail("cuTensorMapEncodeTiled failed (error %d) for a %d x %d matrix", (int)r, rows, cols));
}

// the padded copies: buffer w (0 for A, 1 for B), kept from one call to the next and grown when too small (at a
// problem's first call, which is always its untimed check); h4_pad_free releases them
static void *h4_pad[2] = {NULL, NULL};
static size_t h4_pad_bytes[2] = {0, 0};
static const void *h4_padded(int w, const void *src, int rows, int cols, int ld) {
  size_t bytes = (size_t)rows * ld * 2;
  if (bytes > h4_pad_bytes[w]) {
    if (h4_pad[w]) checkCudaErrors(cudaFree(h4_pad[w]));
    checkCudaErrors(cudaMalloc(&h4_pad[w], bytes));
    h4_pad_bytes[w] = bytes;
  }
  checkCudaErrors(cudaMemcpy2DAsync(h4_pad[w], (size_t)ld * 2, src, (size_t)cols * 2, (size_t)cols * 2, rows,
                                    cudaMemcpyDeviceToDevice));
  return h4_pad[w];
}
static void h4_pad_free(void) {
  for (int w = 0; w < 2; w++) {
    if (h4_pad[w]) checkCudaErrors(cudaFree(h4_pad[w]));
    h4_pad[w] = NULL, h4_pad_bytes[w] = 0;
  }
}

// kernel 4: A and B read by TMA in place where their rows start on 16 bytes, else from a padded copy (above)
template <typename T>
static void run_wgmma(const void *A, const void *B, float *C, int M, int N, int K) {
  int lda = K, ldb = N;
  if (K % 8 || (uintptr_t)A % 16) lda = hgemm_pad8(K), A = h4_padded(0, A, M, K, lda);
  if (N % 8 || (uintptr_t)B % 16) ldb = hgemm_pad8(N), B = h4_padded(1, B, K, N, ldb);
  CUtensorMapDataType type =
      std::is_same<T, __half>::value ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  // the maps, made once for a problem (a plan: -bench times the kernel, not the driver's encoding)
  static const void *mA = NULL, *mB = NULL;
  static int mM, mN, mK, mlda, mldb, split;
  static CUtensorMap ma, mb;
  if (mA != A || mB != B || mM != M || mN != N || mK != K || mlda != lda || mldb != ldb) {
    h4_tensor_map(&ma, type, A, M, K, lda, H4_BM, H4_BK); // A: M x K, boxes 128 x 64
    h4_tensor_map(&mb, type, B, K, N, ldb, H4_BK, 64);    // B: K x N, boxes 64 x 64
    mA = A, mB = B, mM = M, mN = N, mK = K, mlda = lda, mldb = ldb;
    // split-K where the tiles fill half the SMs or fewer and K is 32 steps or more (K > 1984): as many shares of K as
    // fill the SMs, none empty (the kernel gives each the same whole number of steps, 4 or more, and the last what is
    // left, which may be fewer: 1 tile at K = 2561 splits into shares of 5 steps and a last of 1). Under 32 steps the
    // zeroing of C, the atomics and the pipeline's fill in each share cost more than the idle SMs do: measured on an
    // H100 (docs/notes/prac5.md), 1024 x 1024 x 1024 went from 74 % of cuBLAS to 43 % split 4 ways, while
    // 1024 x 1024 x 8192 went from 31 % to 61 %
    int dev, tiles = ceil_div(N, H4_BN) * ceil_div(M, H4_BM), steps = ceil_div(K, H4_BK), sms;
    checkCudaErrors(cudaGetDevice(&dev));
    sms = device_limits(dev)->sms;
    split = 2 * tiles <= sms && steps >= 32 ? max(1, min(sms / tiles, steps / 4)) : 1;
    split = ceil_div(steps, ceil_div(steps, split));
  }
  static int opted_in = 0;
  if (!opted_in) {
    checkCudaErrors(cudaFuncSetAttribute(hgemm_wgmma<__half>, cudaFuncAttributeMaxDynamicSharedMemorySize, H4_SMEM));
    checkCudaErrors(
        cudaFuncSetAttribute(hgemm_wgmma<__nv_bfloat16>, cudaFuncAttributeMaxDynamicSharedMemorySize, H4_SMEM));
    opted_in = 1;
  }
  dim3 grid(ceil_div(N, H4_BN), ceil_div(M, H4_BM), split);
  // split-K adds into C, so C starts at zero; this erases the runner's NaN poison, so when K is split, a tile that
  // no block wrote is caught only where its true value is not 0 (random inputs: all but never, not by construction)
  if (split > 1) checkCudaErrors(cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float)));
  hgemm_wgmma<T><<<grid, H4_THREADS, H4_SMEM>>>(ma, mb, C, M, N, K);
  getLastCudaError("hgemm_wgmma execution failed");
}
