/*
 * concat_steps/k3_vector.cuh -- kernel 3: one launch for all K inputs, 16 bytes per thread wherever possible.
 *
 * The K input pointers and where each input's run starts in an output row travel in one kernel parameter block
 * (cat_params, by value): 24 bytes per input, 1.6 KB for 64, under the 4 KB every toolkit and GPU allows (CUDA
 * 12.1 raised it to 32764 bytes on Volta and newer: not needed). Past some 160 inputs a framework splits the
 * launch or keeps the table in global memory. Three paths, chosen on the host (vector_setup says which, why):
 *  vector  a 16-byte unit per load and store, by one of two grids (cat_by_input chooses):
 *          by input  (PyTorch's shape) blockIdx.y the input, a thread per unit of it in its order, placed in the
 *                    output by a fastdiv by its run: no table, no search; when the runs are near-equal
 *          by row    a thread per output unit (four per thread, a block apart, loads first): its row and place
 *                    by fastdiv, its input by a binary search of the run starts; when they are not
 *  tiled   short rows with a run under a 128-byte line or no multiple of 16 (NHWC with many inputs): a block
 *          stages T output rows in shared memory (k3_tiles.cuh), 16 bytes per load and per store.
 *  scalar  otherwise: the vector path's kernel with A-byte units, A the widest that every run and pointer allows.
 * The alignment test: a 16-byte access (uint4) must be at an address that is a multiple of 16, or the hardware
 * faults. Chunk c of the output is at out + 16 c: aligned when out is. Its source, for row o, is
 * in_k + o run_k + (16 c - o row - start_k): aligned when in_k is and every run (so every start, a sum of runs,
 * and the row) is a multiple of 16. So ((uintptr_t)p & 15) == 0 for every pointer and run_k % 16 == 0 for every
 * k. The tiled path needs the pointers only: a tile starts at row o0, a multiple of T (itself a multiple of 16),
 * so each input's part of it, at in_k + o0 run_k, is 16-byte aligned whatever run_k is.
 */
#define CAT_BLOCK 256        // threads per block
#define CAT_UNROLL 4         // chunks (or elements) per thread: four loads in flight before the first store
#ifndef CAT_TILE_BYTES       // to try another: make concat EXTRA_NVCCFLAGS=-DCAT_TILE_BYTES=16384
#define CAT_TILE_BYTES 32768 // a tile's shared memory: under the 48 KB a block gets on any GPU without opt-in
#endif
#define CAT_SHORT_RUN 128 // a run shorter than a cache line makes straight chunks gather partial lines

typedef struct {
  const unsigned char *in[CAT_MAX_INPUTS];
  unsigned start[CAT_MAX_INPUTS + 1];   // input k's run starts at start[k] of an output row (the path's unit)
  fastdiv_t run_div[CAT_MAX_INPUTS];    // tiled: division by input k's run, in bytes
  fastdiv_t row_div;                    // vector, scalar: division by a row, in the path's unit
  unsigned K, row;                      // inputs; an output row in the path's unit (bytes when tiled)
  unsigned long long units;             // vector, scalar: the output's 16-byte chunks or elements
  unsigned rows, tile_rows, tile_shift; // tiled: the output's rows, T rows per tile, log2(T / 16)
  unsigned char *out;
} cat_params;
static_assert(sizeof(cat_params) <= 4096, "a launch's parameters: 4 KB on every toolkit and GPU");

// copied to shared memory by each block: a warp's threads look up different inputs, and the parameter
// (constant) bank would serve them one address at a time
struct cat_tables {
  unsigned start[CAT_MAX_INPUTS + 1];
  const unsigned char *in[CAT_MAX_INPUTS];
};

__device__ __forceinline__ void cat_load_tables(cat_tables &t, const cat_params &p) {
  for (unsigned k = threadIdx.x; k <= p.K; k += blockDim.x) {
    t.start[k] = p.start[k];
    if (k < p.K) t.in[k] = p.in[k];
  }
  __syncthreads();
}

// the input whose run holds place c of a row: start[k] <= c < start[k + 1], in ceil(log2 K) steps, the same
// number for every thread (no divergence)
__device__ __forceinline__ unsigned cat_find_input(const unsigned *start, unsigned K, unsigned c) {
  unsigned lo = 0, hi = K;
  while (hi - lo > 1) {
    unsigned mid = (lo + hi) >> 1;
    (start[mid] <= c ? lo : hi) = mid;
  }
  return lo;
}

// vector (U = uint4) and scalar (U = the element's unsigned type): unit i of the output is in row o, place c
template <typename U>
__global__ void __launch_bounds__(CAT_BLOCK) cat_rows(const __grid_constant__ cat_params p) {
  __shared__ cat_tables t;
  cat_load_tables(t, p);
  U v[CAT_UNROLL];
  unsigned long long first = (unsigned long long)blockIdx.x * (CAT_BLOCK * CAT_UNROLL) + threadIdx.x;
  unsigned k = 0, o_last = ~0u; // the input and row of this thread's last unit
#pragma unroll
  for (int j = 0; j < CAT_UNROLL; j++) {
    unsigned long long i = first + j * CAT_BLOCK;
    if (i < p.units) {
      unsigned o = fastdiv_div((unsigned)i, p.row_div), c = (unsigned)i - o * p.row;
      // a block apart in the same row, usually in the same input's run: search only when it is not
      if (o != o_last || c >= t.start[k + 1]) k = cat_find_input(t.start, p.K, c), o_last = o;
      unsigned run = t.start[k + 1] - t.start[k];
      v[j] = __ldg((const U *)t.in[k] + ((size_t)o * run + (c - t.start[k])));
    }
  }
#pragma unroll
  for (int j = 0; j < CAT_UNROLL; j++) {
    unsigned long long i = first + j * CAT_BLOCK;
    if (i < p.units) ((U *)p.out)[i] = v[j];
  }
}

// by input: a row of the grid per input, sized for the longest (blocks past a shorter input's end return at
// once), so a grid of K x the longest run x rows units: near the output's size when the runs are near-equal (a
// framework's usual split), up to K times it when one input is long and the rest short: then the by-row kernel.
// Against the by-row kernel at 256 MB on H100s: with long runs (NCHW) float and half at K = 8 and 64 0 to 2.5 %
// faster, int8 at K = 64 0 to 1.5 % slower, K = 2 within 0.6 %; with runs of 128 bytes (NHWC, float K = 8, int8
// K = 2) 2 to 6 % slower, so runs shorter than a warp's 32 units go by row (docs/notes/prac6.md). Four block
// shapes tried, all within about 1 % of each other: PyTorch's, 128 threads with one unit each, kept
#define CAT_Y_BLOCK 128
#define CAT_BY_INPUT_SLACK 4 // by input when K x the longest run <= (1 + 1/4) x a row: at most a fifth of the grid idle
#define CAT_BY_INPUT_RUN 32  // and the shortest run a warp's units at least: shorter, a warp's stores span rows
template <typename U>
__global__ void __launch_bounds__(CAT_Y_BLOCK) cat_inputs(const __grid_constant__ cat_params p) {
  const unsigned k = blockIdx.y, run = p.start[k + 1] - p.start[k]; // the same for the whole block
  const unsigned long long i = (unsigned long long)blockIdx.x * CAT_Y_BLOCK + threadIdx.x;
  if (i >= (unsigned long long)p.rows * run) return; // past input k's end: its rows x its run
  U v = __ldg((const U *)p.in[k] + i);
  unsigned o = fastdiv_div((unsigned)i, p.run_div[k]), c = (unsigned)i - o * run; // row o, place c in its run
  ((U *)p.out)[(size_t)o * p.row + p.start[k] + c] = v;
}

#include "k3_tiles.cuh"

typedef enum { CAT_VECTOR, CAT_TILED, CAT_SCALAR } cat_path;
static const char *const cat_path_names[] = {"vector", "tiled", "scalar"};

// the plan vector_setup makes once, outside the timed runs
static cat_params vector_params;
static cat_path vector_path;
static unsigned vector_blocks, vector_bytes; // tiled: the piece G; vector, scalar: the bytes a thread moves at once
static bool vector_by_input;                 // vector, scalar: cat_inputs (a grid row per input), else cat_rows

static cat_path vector_setup(const cat_problem *P, int sms, char *why, size_t len) {
  cat_params &p = vector_params;
  memset(&p, 0, sizeof(p));
  p.K = P->K;
  p.out = P->out;
  size_t row = cat_row_bytes(P), shortest = row;
  int odd = -1, misaligned = -2; // the first run no multiple of 16; the first pointer not 16-byte aligned (-1: out)
  unsigned G = 16, A;            // the largest power of 2 up to 16 dividing every run; A: and every pointer
  for (int k = 0; k < P->K; k++) {
    size_t run = cat_run_bytes(P, k);
    p.in[k] = P->in[k];
    if (odd < 0 && run % 16) odd = k;
    shortest = run < shortest ? run : shortest;
    while (run % G) G /= 2;
  }
  A = G;
  for (int k = -1; k < P->K; k++) { // the test: the address's low 4 bits
    uintptr_t a = (uintptr_t)(k < 0 ? P->out : P->in[k]);
    if (misaligned == -2 && (a & 15)) misaligned = k;
    while (a % A) A /= 2;
  }
  unsigned T = cat_tile_rows(row, P->rows, sms);
  if (misaligned > -2) {
    vector_path = CAT_SCALAR;
    char who[24] = "the output";
    if (misaligned >= 0) snprintf(who, sizeof(who), "input %d", misaligned);
    snprintf(why, len, "%s's address is %u mod 16: %u-byte accesses", who,
             (unsigned)((uintptr_t)(misaligned < 0 ? P->out : P->in[misaligned]) & 15), A);
  } else if (T && (shortest < CAT_SHORT_RUN || G < 16)) {
    vector_path = CAT_TILED;
    snprintf(why, len, "%u rows of %zu bytes to a tile; %zu-byte runs at the shortest%s: %u-byte pieces", T, row,
             shortest, G < 16 ? ", not all multiples of 16" : "", G);
  } else if (G == 16) {
    vector_path = CAT_VECTOR;
    snprintf(why, len, "every run a multiple of 16 bytes (the shortest %zu), every pointer 16-byte aligned", shortest);
  } else {
    vector_path = CAT_SCALAR;
    snprintf(why, len, "input %d's run of %zu bytes no multiple of 16, rows of %zu too long to tile: %u-byte accesses",
             odd, cat_run_bytes(P, odd), row, A);
  }
  if (vector_path == CAT_TILED) {
    vector_blocks = cat_tiles_plan(&p, P, T);
    vector_bytes = G;
  } else { // units of 16 bytes (vector) or of A bytes (scalar: the widest access every run and pointer allows)
    vector_bytes = vector_path == CAT_VECTOR ? 16 : A;
    for (int k = 0; k <= P->K; k++) p.start[k] = (unsigned)(P->offset[k] * P->inner * P->elem / vector_bytes);
    p.row = (unsigned)(row / vector_bytes);
    p.row_div = fastdiv_make(p.row);
    p.units = P->total * P->elem / vector_bytes;
    unsigned most = 0, least = p.row; // the longest and shortest runs, in units
    for (int k = 0; k < P->K; k++) {
      unsigned run = p.start[k + 1] - p.start[k];
      most = run > most ? run : most, least = run < least ? run : least;
    }
    vector_by_input = (unsigned long long)P->K * most * CAT_BY_INPUT_SLACK <= p.row * (CAT_BY_INPUT_SLACK + 1ull) &&
                      least >= CAT_BY_INPUT_RUN;
    if (vector_by_input) {
      for (int k = 0; k < P->K; k++) p.run_div[k] = fastdiv_make(p.start[k + 1] - p.start[k]); // runs >= 1 unit
      p.rows = (unsigned)P->rows;
      vector_blocks = (unsigned)ceil_div((unsigned long long)P->rows * most, CAT_Y_BLOCK);
    } else {
      vector_blocks = (unsigned)ceil_div(p.units, CAT_BLOCK * CAT_UNROLL);
    }
    size_t k = strlen(why);
    if (least < CAT_BY_INPUT_RUN)
      snprintf(why + k, len - k, "; by row (a run of %u units, under a warp's %d)", least, CAT_BY_INPUT_RUN);
    else
      snprintf(why + k, len - k,
               vector_by_input ? "; by input (K x the longest run %.2f x a row)"
                               : "; by row (K x the longest run %.2f x a row: too uneven for by input)",
               (double)P->K * most / p.row);
  }
  return vector_path;
}

// the instances: cat_rows for 1, 2, 4, 8 and 16 bytes per unit, cat_tiles for pieces of 1 to 16 bytes
template <typename U>
static void rows_launch() {
  if (vector_by_input)
    cat_inputs<U><<<dim3(vector_blocks, vector_params.K), CAT_Y_BLOCK>>>(vector_params);
  else
    cat_rows<U><<<vector_blocks, CAT_BLOCK>>>(vector_params);
}
template <int G>
static void tiles_launch() {
  cat_tiles<G><<<vector_blocks, CAT_BLOCK, (size_t)vector_params.tile_rows * vector_params.row>>>(vector_params);
}
static void (*const vector_launch[2][5])() = {
    {rows_launch<unsigned char>, rows_launch<unsigned short>, rows_launch<unsigned>, rows_launch<uint2>,
     rows_launch<uint4>},
    {tiles_launch<1>, tiles_launch<2>, tiles_launch<4>, tiles_launch<8>, tiles_launch<16>}};

static void run_vector(const cat_problem *) {
  int log2_bytes = 0;
  while ((1u << log2_bytes) < vector_bytes) log2_bytes++;
  vector_launch[vector_path == CAT_TILED][log2_bytes]();
  getLastCudaError("concat kernel 3 execution failed");
}
