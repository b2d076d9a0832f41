/*
 * elementwise/k4_tiled.cuh -- kernel 4: kernel 3, and a transposed operand through a shared-memory tile. Adding
 * an NHWC tensor read as NCHW to a contiguous one leaves, merged, (N, C, HW) with the transposed operand's
 * strides (HWC, 1, C): contiguous along C, C elements apart along HW, the output's contiguous dimension. Kernel 3
 * reads it element by element: each 32-byte sector a warp touches serves it 2 useful bytes, and the rest of the
 * sector must come again, from the L2 if it is still there, for the threads of the next 15 channels. Here a
 * block takes a TILED_TP x TILED_TL tile of the two innermost merged dimensions (P, L): it reads the tiled
 * operand along P (TILED_TP consecutive elements, 128 bytes of half), writes it to shared memory, and then reads
 * the tile across, along L, with the output and the other operand (a warp: 32 consecutive output elements).
 * Practical 5's transpose (step 6), with an operator in the middle. A row of the tile is padded by one 4-byte
 * word so that the reads across it (32 rows, one column) fall in 32 different banks: the pitch,
 * (TILED_TP + PAD) sizeof(T) / 4 words, is odd for each type. Without a transposed operand (plan.h) it is
 * kernel 3.
 */
#ifndef TILED_TP
#define TILED_TP 64 // along P: 128 bytes of a half operand's row, two warps' loads
#endif
#define TILED_TL 64 // along L: two warps' loads and stores of the output
#define TILED_BY 8  // threads: TILED_TP x TILED_BY; each loads TILED_TL / TILED_BY elements a tiled operand
// at least 2 blocks per SM (64 registers or fewer): while one block waits at its barrier, the other loads
#define TILED_MIN_BLOCKS (1024 / (TILED_TP * TILED_BY))
static_assert(TILED_TP * TILED_BY % TILED_TL == 0 && TILED_TL % TILED_BY == 0, "whole rows in each phase");

// (division's routine needs more than 64 registers beside the loaded values: one block an SM, no spills)
template <typename T, int OP>
__global__ void __launch_bounds__(TILED_TP *TILED_BY, OP == ELT_DIV ? 1 : TILED_MIN_BLOCKS)
    eltwise_tiled(const T *__restrict__ a, const T *__restrict__ b, elt_out_t<OP, T> *__restrict__ out, elt_geom g,
                  elt_tile_geom t) {
  constexpr int PAD = 4 / sizeof(T), ROWS = TILED_TP * TILED_BY / TILED_TL; // rows of P per pass of the block
  static_assert((TILED_TP + PAD) * sizeof(T) / 4 % 2 == 1, "an odd pitch in words: no bank conflicts");
  __shared__ T ta[TILED_TL][TILED_TP + PAD], tb[TILED_TL][TILED_TP + PAD];
  const int tx = threadIdx.x, ty = threadIdx.y, lx = (ty * TILED_TP + tx) % TILED_TL,
            py = (ty * TILED_TP + tx) / TILED_TL;
  const uint32_t p0 = blockIdx.y * TILED_TP, l0 = blockIdx.x * TILED_TL;
  for (uint32_t z = blockIdx.z; z < t.outer; z += gridDim.z) { // the merged dims outside P and L (at most 2)
    uint32_t za = 0, zb = 0, q = z;
    if (g.rank == 4) {
      uint32_t u = fastdiv_div(q, g.div[1]), x = q - u * g.extent[1];
      za += x * g.sa[1], zb += x * g.sb[1], q = u;
    }
    if (g.rank >= 3) za += q * g.sa[0], zb += q * g.sb[0];
    // the tiled operands along P, into the tile: row l, column p. Each operand's loads first, into registers,
    // then its stores to the tile, so that NL loads are in flight at once. (Written with each store beside its
    // load, in one loop with the branches on tile_a and tile_b, the tile gained nothing over kernel 3; split
    // so, loads then stores, it is 2.6x faster: docs/notes/prac6.md)
    constexpr int NL = TILED_TL / TILED_BY, NS = TILED_TP / ROWS;
#pragma unroll
    for (int s = 0; s < 2; s++) {
      if (!(s ? t.tile_b : t.tile_a)) continue;
      const T *src = s ? b + zb : a + za;
      const uint32_t sL = s ? t.bL : t.aL;
      T v[NL] = {};
#pragma unroll
      for (int k = 0; k < NL; k++) {
        uint32_t p = p0 + tx, l = l0 + ty + k * TILED_BY;
        if (p < t.EP && l < t.EL) v[k] = src[p + l * sL];
      }
#pragma unroll
      for (int k = 0; k < NL; k++) (s ? tb : ta)[ty + k * TILED_BY][tx] = v[k];
    }
    __syncthreads();
    // across the tile, along L: the output and the other operand coalesced. At least one operand is in the
    // tile; the other, if any, is loaded first, NS loads in flight, then each output element is made
    T v[NS] = {};
#pragma unroll
    for (int k = 0; k < NS; k++) {
      uint32_t p = p0 + py + k * ROWS, l = l0 + lx;
      if (p < t.EP && l < t.EL) {
        if (!t.tile_a) v[k] = a[za + p * t.aP + l * t.aL];
        else if (!t.tile_b) v[k] = b[zb + p * t.bP + l * t.bL];
      }
    }
#pragma unroll
    for (int k = 0; k < NS; k++) {
      uint32_t p = p0 + py + k * ROWS, l = l0 + lx;
      if (p < t.EP && l < t.EL) {
        T x = t.tile_a ? ta[lx][py + k * ROWS] : v[k], y = t.tile_b ? tb[lx][py + k * ROWS] : v[k];
        out[(z * t.EP + p) * t.EL + l] = elt_apply<OP>(x, y);
      }
    }
    __syncthreads(); // the next z's loads overwrite the tile
  }
}

template <typename T, int OP> static void run_tiled(const elt_call *c) {
  if (!c->tiled.tiled) {
    run_half8<T, OP>(c);
    return;
  }
  const elt_tile_geom *t = &c->t;
  dim3 block(TILED_TP, TILED_BY), grid(ceil_div(t->EL, TILED_TL), ceil_div(t->EP, TILED_TP),
                                       t->outer < 65535 ? t->outer : 65535);
  eltwise_tiled<T, OP><<<grid, block>>>((const T *)c->a, (const T *)c->b, (elt_out_t<OP, T> *)c->out, c->g, *t);
  getLastCudaError("eltwise_tiled execution failed");
}
