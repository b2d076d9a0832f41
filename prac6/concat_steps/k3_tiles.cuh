/*
 * concat_steps/k3_tiles.cuh -- kernel 3's tiled path (k3_vector.cuh chooses it): 16 bytes per load and per store
 * however short the runs, through a tile of T output rows in shared memory, one tile per block of 256 threads.
 *
 * NHWC concatenated along C with 64 inputs of 4 half channels: a run is 8 bytes, a row 512. Thread per 16-byte
 * output chunk, a warp would read 8 bytes from each of 64 inputs, 64 partial lines for 512 bytes. But the
 * T rows o0 .. o0 + T - 1 of a tile take from input k its runs for those rows, which lie one after another:
 * bytes [o0 run_k, (o0 + T) run_k) of input k, one contiguous stretch. So
 *  phase 1  the tile's reads, input after input, are one list of 16-byte chunks: chunk v belongs to the input k
 *           with T start[k] <= 16 v < T start[k + 1] (T is a power of 2 and a multiple of 16, so that is
 *           start[k] <= v >> log2(T / 16), and no chunk straddles two inputs). Each thread loads its chunk
 *           with one 16-byte load, then stores it into the tile in output order, in 16 / G pieces of G bytes
 *           (G: the largest of 16, 8, 4, 2, 1 dividing every run), each piece's row and column in the tile
 *           from one fastdiv by run_k and then stepping;
 *  phase 2  the tile is T rows of the output, bytes [o0 row, (o0 + T) row): written 16 bytes per thread.
 * The last tile, with fewer than T rows, goes byte by byte (one block of the grid; T is kept small where the
 * rows are few, so that this block is short and the grid still fills the GPU).
 *
 * Shared-memory banks: in phase 1 the 32 lanes of a warp store pieces of one input down a column of the tile,
 * 16 / run_k rows apart, so at addresses a multiple of 16 row bytes apart: the same few banks. The tile's
 * 16-byte chunks are therefore swizzled: chunk v is kept at chunk v XOR h(v), h a 3-bit mix of v's higher
 * bits (cat_swizzle), which spreads a column over the 8 four-bank groups; phase 2 reads whole chunks, 32
 * consecutive ones per warp, which the swizzle keeps in 8 different groups per quarter-warp, so it stays
 * conflict-free. Only whole groups of 8 chunks are swizzled, so it is a permutation of the tile.
 */
// rows in a tile: a power of 2, at least 16, T row <= CAT_TILE_BYTES; 0 when 16 rows do not fit. A tile is a
// block, so T is also kept small enough for 4 blocks an SM where the rows allow (T >= 16 always): a 1023-row
// output of 48-byte rows in 512-row tiles is 2 blocks, one of them byte by byte, 4x slower than kernel 0
static unsigned cat_tile_rows(size_t row, size_t rows, int sms) {
  if (16 * row > CAT_TILE_BYTES) return 0;
  unsigned T = 16;
  while (2 * (size_t)T * row <= CAT_TILE_BYTES && 2 * (size_t)T * 4 * (size_t)sms <= rows) T *= 2;
  return T;
}

// the tiled path's parameters (in bytes); returns the blocks, one per tile
static unsigned cat_tiles_plan(cat_params *p, const cat_problem *P, unsigned T) {
  for (int k = 0; k <= P->K; k++) p->start[k] = (unsigned)(P->offset[k] * P->inner * P->elem);
  for (int k = 0; k < P->K; k++) p->run_div[k] = fastdiv_make((unsigned)cat_run_bytes(P, k));
  p->row = (unsigned)cat_row_bytes(P);
  p->rows = (unsigned)P->rows;
  p->tile_rows = T;
  while ((16u << p->tile_shift) < T) p->tile_shift++;
  return (unsigned)ceil_div(P->rows, T);
}

__device__ __forceinline__ unsigned cat_swizzle(unsigned v, unsigned full) {
  return v < full ? v ^ (((v >> 3) ^ (v >> 6) ^ (v >> 9)) & 7u) : v;
}

// where byte a of the tile lives in shared memory
__device__ __forceinline__ unsigned cat_tile_byte(unsigned a, unsigned full) {
  return cat_swizzle(a >> 4, full) << 4 | (a & 15u);
}

// a G-byte piece of a 16-byte chunk
template <int G>
struct cat_piece;
template <>
struct cat_piece<1> {
  typedef unsigned char T;
};
template <>
struct cat_piece<2> {
  typedef unsigned short T;
};
template <>
struct cat_piece<4> {
  typedef unsigned T;
};
template <>
struct cat_piece<8> {
  typedef uint2 T;
};
template <>
struct cat_piece<16> {
  typedef uint4 T;
};

template <int G>
__global__ void __launch_bounds__(CAT_BLOCK) cat_tiles(const __grid_constant__ cat_params p) {
  typedef typename cat_piece<G>::T piece;
  extern __shared__ uint4 tile[]; // T rows of the output, its chunks swizzled
  __shared__ cat_tables t;
  __shared__ fastdiv_t run_div[CAT_MAX_INPUTS];
  for (unsigned k = threadIdx.x; k < p.K; k += blockDim.x) run_div[k] = p.run_div[k];
  cat_load_tables(t, p);
  unsigned char *s = (unsigned char *)tile;
  const unsigned T = p.tile_rows, row = p.row, nvec = T * row / 16, full = nvec & ~7u;
  const unsigned o0 = blockIdx.x * T, R = min(T, p.rows - o0);
  unsigned char *out = p.out + (size_t)o0 * row;
  if (R == T) {
    // phase 1: CAT_UNROLL chunks per thread loaded, then scattered into the tile
    for (unsigned v0 = threadIdx.x; v0 < nvec; v0 += CAT_BLOCK * CAT_UNROLL) {
      uint4 x[CAT_UNROLL];
      unsigned kk[CAT_UNROLL], b[CAT_UNROLL]; // the chunk's input, and its byte in that input's part of the tile
#pragma unroll
      for (int j = 0; j < CAT_UNROLL; j++) {
        unsigned v = v0 + j * CAT_BLOCK;
        if (v < nvec) {
          unsigned k = cat_find_input(t.start, p.K, v >> p.tile_shift), run = t.start[k + 1] - t.start[k];
          kk[j] = k;
          b[j] = 16 * v - T * t.start[k];
          x[j] = __ldg((const uint4 *)(t.in[k] + ((size_t)o0 * run + b[j])));
        }
      }
#pragma unroll
      for (int j = 0; j < CAT_UNROLL; j++) {
        if (v0 + j * CAT_BLOCK < nvec) {
          unsigned k = kk[j], run = t.start[k + 1] - t.start[k];
          unsigned r = fastdiv_div(b[j], run_div[k]), col = b[j] - r * run; // its row in the tile, column in the run
          union {
            uint4 v;
            piece g[16 / G];
          } u;
          u.v = x[j];
#pragma unroll
          for (int i = 0; i < 16 / G; i++) {
            *(piece *)(s + cat_tile_byte(r * row + t.start[k] + col, full)) = u.g[i];
            col += G;
            if (col == run) { // a run is a multiple of G: the next piece starts the next row
              col = 0;
              r++;
            }
          }
        }
      }
    }
    __syncthreads();
    // phase 2: the tile is a contiguous stretch of the output
    for (unsigned v = threadIdx.x; v < nvec; v += CAT_BLOCK) ((uint4 *)out)[v] = tile[cat_swizzle(v, full)];
  } else {
    // the last tile, R < T rows: the same two phases, byte by byte
    const unsigned n = R * row;
    for (unsigned q = threadIdx.x; q < n; q += CAT_BLOCK) {
      unsigned k = cat_find_input(t.start, p.K, q / R), run = t.start[k + 1] - t.start[k];
      unsigned b = q - R * t.start[k], r = fastdiv_div(b, run_div[k]);
      s[cat_tile_byte(r * row + t.start[k] + (b - r * run), full)] = t.in[k][(size_t)o0 * run + b];
    }
    __syncthreads();
    for (unsigned q = threadIdx.x; q < n; q += CAT_BLOCK) out[q] = s[cat_tile_byte(q, full)];
  }
}
