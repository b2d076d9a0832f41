/*
 * laplace3d_fast.cu -- practical 3, the end of step 7 (explained in step 8): a Jacobi sweep at the
 * memory-bandwidth limit.
 *
 * Each iteration must read every point once and write it once: 8 bytes a point. GPU_laplace3d and
 * GPU_laplace3d_new read six neighbours a point and rely on the caches to keep that near 8 bytes; this
 * kernel arranges the reuse itself, and keeps many loads in flight:
 *   1. k in registers: each thread marches up a column in k, holding planes k-1, k and k+1 of its
 *      points in registers, so each value is loaded once for all three planes that need it.
 *   2. i from the neighbouring lane: a thread owns 4 consecutive points of a row (one float4); the
 *      values at i-1 and i+4 are in lanes l-1 and l+1, and a warp shuffle passes them over. Only the
 *      lanes at the ends of the warp load one extra float.
 *   3. 16-byte accesses: rows are padded to a multiple of 32 floats (128 bytes) so that every float4
 *      load and store is aligned; a warp moves 512 contiguous bytes with one instruction.
 *   4. ROWS rows a thread: a thread owns the same 4 points in ROWS consecutive rows, so j-1 and j+1 are
 *      its own registers except at the patch's two ends (2 halo rows, from cache, per ROWS rows), and
 *      ROWS independent 16-byte loads from memory are in flight per thread. Every load a step needs
 *      (plane k+2 of the patch, plane k+1 of the halo rows and edge floats) is issued one step early.
 *   5. short chunks, launched plane by plane: each block marches through only KCHUNK planes, and blocks
 *      are numbered (i, j) fastest, so the blocks on the GPU at any moment all work on the same few
 *      planes, as a copy does: memory sees one contiguous front, and the two planes a chunk re-reads
 *      were read a moment earlier by the chunk below, so they come from L2.
 *   6. __launch_bounds__(MAX_THREADS): left alone, ptxas gives ROWS=2 96 registers a thread (640
 *      threads an SM); promising blocks of up to 896 threads makes it fit in 72 (896 threads an SM),
 *      with no spills: more threads, so more loads in flight.
 *
 * The result must equal Gold_laplace3d exactly (same additions in the same order): rms error = 0.000000.
 * -sweep times FAST_BLOCK_X x FAST_BLOCK_Y x KCHUNK (also -bx= -by= -kchunk=, or make FAST_BLOCK_X=..);
 * ROWS (1, 2, 4 or 8) is compile-time, since the patch lives in registers: make ROWS=4.
 * -bench prints the BENCH line.
 *   nvcc -O3 -arch=sm_90 -I../common laplace3d_fast.cu laplace3d_gold.c -o laplace3d_fast
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "grid3d.h"
#include "sweep.h"
#include "timing.h"

#include "prac3_gold.h"

// the block: FAST_BLOCK_X threads across a row, 4 floats each, and FAST_BLOCK_Y threads up, ROWS rows each
// (named for this program: a practical-wide make BLOCK_X=16 is for laplace3d and laplace3d_new, and 16
// would not even be a whole warp here)
#ifndef FAST_BLOCK_X
#define FAST_BLOCK_X 32 // a multiple of 32: each warp covers 128 consecutive points (512 bytes) of one row
#endif
#ifndef FAST_BLOCK_Y
#define FAST_BLOCK_Y 4 // 128 threads a block, 4 x ROWS rows: small blocks pack 7 to an SM at 72 registers
#endif
#ifndef ROWS
#define ROWS 2 // rows a thread owns (trick 4): ROWS loads from memory in flight, 2 halo rows, per step
#endif
#ifndef MAX_THREADS
#define MAX_THREADS (ROWS <= 2 ? 896 : 2048 / ROWS) // trick 6: __launch_bounds__, 72 registers for ROWS=2
#endif
#ifndef KCHUNK
#define KCHUNK 4 // planes a block marches through (trick 5): short, so that resident blocks share planes
#endif

// the largest grid accepted: 2^35 points (128 GiB an array, more than any GPU holds)
#define MAX_POINTS (1LL << 35)

// one point: Dirichlet boundaries (and the padding past NX) copied, else the course's average, the
// additions in Gold_laplace3d's order (i-1, i+1, j-1, j+1, k-1, k+1) for a bit-for-bit match
__device__ __forceinline__ float jacobi_point(int i, int NX, float c, float w, float e, float s, float n, float b,
                                              float a) {
  const float sixth = 1.0f / 6.0f;
  return (i == 0 || i >= NX - 1) ? c : (w + e + s + n + b + a) * sixth;
}

__device__ __forceinline__ float4 load4(const float *__restrict__ p, size_t ind) {
  return __ldg(reinterpret_cast<const float4 *>(p + ind)); // ind is a multiple of 4: 16-byte aligned
}

// a thread owns points i0 .. i0+3 of rows j0 .. j0+ROWS-1 and marches k through one chunk
// trick 6: __launch_bounds__ promises blocks of at most MAX_THREADS threads, so ptxas keeps registers low
__global__ void __launch_bounds__(MAX_THREADS)
    GPU_laplace3d_fast(int NX, int NY, int NZ, int pitch, int kchunk, const float *__restrict__ d_u1,
                       float *__restrict__ d_u2) {
  const unsigned FULL = 0xffffffffu;
  const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  int lane = threadIdx.x % 32; // blockDim.x is a multiple of 32, so a warp never spans two rows
  int i0 = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  int j0 = ROWS * (threadIdx.y + blockIdx.y * blockDim.y);
  if (j0 >= NY) return; // j0 is the same across the warp, so every shuffle below still has all 32 lanes

  int kbeg = blockIdx.z * kchunk;
  int kend = min(kbeg + kchunk, NZ);
  int nrows = min(ROWS, NY - j0); // rows of this thread's patch inside the grid
  bool live = i0 < pitch;         // lanes past the (padded) row have nothing to load
  bool has_south = live && j0 > 0, has_north = live && j0 + ROWS < NY;
  // the one float past the warp's ends: lane 0 needs i0-1, lane 31 needs i0+4
  bool has_edge = (lane == 0 && live && i0 > 0) || (lane == 31 && i0 + 4 < pitch);
  int edge_off = lane == 0 ? -1 : 4;
  size_t JOFF = (size_t)pitch, KOFF = (size_t)pitch * NY;
  size_t ind = (size_t)i0 + (size_t)j0 * JOFF + (size_t)kbeg * KOFF;

  // trick 1: planes k-1, k, k+1 of the patch in registers; next[] receives plane k+2 a step early
  float4 below[ROWS], centre[ROWS], above[ROWS], next[ROWS];
  float edge[ROWS], edge_next[ROWS]; // trick 2's float across the warp's edge, plane k and k+1
#pragma unroll
  for (int r = 0; r < ROWS; r++) {
    size_t rind = ind + (size_t)r * JOFF;
    bool row = live && r < nrows;
    below[r] = (row && kbeg > 0) ? load4(d_u1, rind - KOFF) : zero;
    centre[r] = row ? load4(d_u1, rind) : zero;
    above[r] = (row && kbeg + 1 < NZ) ? load4(d_u1, rind + KOFF) : zero;
    edge[r] = (has_edge && r < nrows) ? d_u1[rind + edge_off] : 0.0f;
  }
  // trick 4: rows j0-1 and j0+ROWS (the halo) of plane k, loaded a step early too
  float4 south = has_south ? load4(d_u1, ind - JOFF) : zero;
  float4 north = has_north ? load4(d_u1, ind + ROWS * JOFF) : zero;

  for (int k = kbeg; k < kend; k++, ind += KOFF) {
    // every load the next step needs is issued first, so all of them are in flight while we work:
    // plane k+2 of the patch (from memory), plane k+1 of the halo and edge floats (mostly from cache)
    bool need2 = k + 2 <= kend && k + 2 < NZ, need1 = k + 1 < kend;
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      size_t rind = ind + (size_t)r * JOFF;
      next[r] = (live && r < nrows && need2) ? load4(d_u1, rind + 2 * KOFF) : zero;
      edge_next[r] = (has_edge && r < nrows && need1) ? d_u1[rind + KOFF + edge_off] : 0.0f;
    }
    float4 south_next = (has_south && need1) ? load4(d_u1, ind - JOFF + KOFF) : zero;
    float4 north_next = (has_north && need1) ? load4(d_u1, ind + ROWS * JOFF + KOFF) : zero;

    bool inner_plane = k > 0 && k < NZ - 1;
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      // trick 2: i-1 of the first point and i+1 of the last come from the neighbouring lanes
      float west = __shfl_up_sync(FULL, centre[r].w, 1);
      float east = __shfl_down_sync(FULL, centre[r].x, 1);
      if (lane == 0) west = edge[r];
      if (lane == 31) east = edge[r];
      // trick 4: j-1 and j+1 are the patch's own rows, in registers, except at its two ends
      float4 s = r == 0 ? south : centre[r - 1];
      float4 n = r == ROWS - 1 ? north : centre[r + 1];
      int j = j0 + r;
      float4 res = centre[r]; // boundary rows and planes are copied
      if (inner_plane && j > 0 && j < NY - 1) {
        res.x = jacobi_point(i0, NX, centre[r].x, west, centre[r].y, s.x, n.x, below[r].x, above[r].x);
        res.y = jacobi_point(i0 + 1, NX, centre[r].y, centre[r].x, centre[r].z, s.y, n.y, below[r].y, above[r].y);
        res.z = jacobi_point(i0 + 2, NX, centre[r].z, centre[r].y, centre[r].w, s.z, n.z, below[r].z, above[r].z);
        res.w = jacobi_point(i0 + 3, NX, centre[r].w, centre[r].z, east, s.w, n.w, below[r].w, above[r].w);
      }

      // trick 3: one 16-byte store; at the end of a row only the points inside the grid are written
      if (r < nrows) {
        size_t rind = ind + (size_t)r * JOFF;
        if (i0 + 3 < NX) {
          *reinterpret_cast<float4 *>(d_u2 + rind) = res;
        } else if (i0 < NX) {
          d_u2[rind] = res.x;
          if (i0 + 1 < NX) d_u2[rind + 1] = res.y;
          if (i0 + 2 < NX) d_u2[rind + 2] = res.z;
        }
      }
    }

#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      below[r] = centre[r];
      centre[r] = above[r];
      above[r] = next[r];
      edge[r] = edge_next[r];
    }
    south = south_next;
    north = north_next;
  }
}


// everything one launch needs, for the timing helpers
typedef struct {
  int NX, NY, NZ, pitch, kchunk, maxthreads;
  dim3 grid, block;
  const float *d_u1;
  float *d_u2;
} laplace_launch;

static void launch_laplace3d_fast(void *p) {
  laplace_launch *a = (laplace_launch *)p;
  GPU_laplace3d_fast<<<a->grid, a->block>>>(a->NX, a->NY, a->NZ, a->pitch, a->kchunk, a->d_u1, a->d_u2);
  getLastCudaError("GPU_laplace3d_fast execution failed");
}

static void set_block(laplace_launch *a, int bx, int by, int kchunk) {
  a->kchunk = kchunk;
  a->block = dim3(bx, by);
  // bx threads cover 4 * bx floats of a row, by threads ROWS * by rows, rounded up; kchunk planes in k.
  // trick 5: blocks start in order of x, then y, then z, so the chunk (z) varies slowest: the resident
  // blocks cover whole planes of one or a few chunks and move up through k together
  a->grid = dim3((a->pitch / 4 + bx - 1) / bx, (a->NY + ROWS * by - 1) / (ROWS * by), (a->NZ + kchunk - 1) / kchunk);
}

// the shapes -sweep tries: blocks the kernel can launch at its register count, chunks up to the whole column
static int sweep_block(void *p, block_shape s) {
  laplace_launch *a = (laplace_launch *)p;
  if (s.x * s.y > a->maxthreads || s.z > a->NZ) return 0;
  set_block(a, s.x, s.y, s.z);
  return 1;
}

int main(int argc, char **argv) {
  int NX = 512, NY = 512, NZ = 512, REPEAT = 10, bx = FAST_BLOCK_X, by = FAST_BLOCK_Y, kchunk = KCHUNK;
  int pinned = 0, seed = 0, bench = 0, sweep = 0, reps = 20;
  arg_spec opts[] = {
      {"nx", ARG_INT, &NX, 3, 65535, "grid points in i (boundary included)"},
      {"ny", ARG_INT, &NY, 3, 65535, "grid points in j"},
      {"nz", ARG_INT, &NZ, 3, 65535, "grid points in k"},
      {"repeat", ARG_INT, &REPEAT, 1, 100000, "Jacobi iterations"},
      {"bx", ARG_INT, &bx, 32, 1024, "threads per block along a row (FAST_BLOCK_X), a multiple of 32"},
      {"by", ARG_INT, &by, 1, 32, "rows per block (FAST_BLOCK_Y)"},
      {"kchunk", ARG_INT, &kchunk, 1, 65535, "planes each block marches through (KCHUNK)"},
      {"pinned", ARG_FLAG, &pinned, 0, 1, "host arrays in pinned memory (cudaMallocHost) instead of malloc"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "0: the course's 0 inside; N: random values inside"},
      {"bench", ARG_FLAG, &bench, 0, 1, "time one iteration and a device-to-device copy, print a BENCH line"},
      {"sweep", ARG_FLAG, &sweep, 0, 1, "time a table of block sizes and chunks, then run with the fastest"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench and -sweep (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)NX * NY * NZ > MAX_POINTS)
    args_fail("a %d x %d x %d grid has %lld points, more than 2^35", NX, NY, NZ, (long long)NX * NY * NZ);
  if (bx % 32 != 0 || bx * by > 1024)
    args_fail("a %dx%d block: -bx must be a multiple of 32 and the block at most 1024 threads", bx, by);
  int pitch = (NX + 31) / 32 * 32; // trick 3: every row starts on a 128-byte boundary

  int dev = findCudaDevice(argc, argv);
  // tricks 4 and 6: the register count decides the largest block that launches (MAX_THREADS or fewer)
  cudaFuncAttributes attr;
  checkCudaErrors(cudaFuncGetAttributes(&attr, GPU_laplace3d_fast));
  printf("GPU_laplace3d_fast: %d rows a thread, %d registers, blocks of at most %d threads\n", ROWS, attr.numRegs,
         attr.maxThreadsPerBlock);
  if (bx * by > attr.maxThreadsPerBlock)
    args_fail("a %dx%d block: at %d registers a thread the kernel launches at most %d threads a block", bx, by,
              attr.numRegs, attr.maxThreadsPerBlock);
  size_t npoints = (size_t)NX * NY * NZ;
  size_t bytes = npoints * sizeof(float);
  size_t dbytes = (size_t)pitch * NY * NZ * sizeof(float);
  int user_sized = args_given(argc, argv, "nx") || args_given(argc, argv, "ny") || args_given(argc, argv, "nz");
  device_memory_check(2 * dbytes + ((bench || sweep) ? 2 * bytes : 0),
                      (bench || sweep) ? "u1, u2 and the copy test's two buffers" : "u1 and u2", user_sized);

  printf("Grid dimensions: %d x %d x %d\n", NX, NY, NZ);
  printf("Row pitch: %d floats (%zu bytes), plane pitch: %zu floats\n", pitch, pitch * sizeof(float),
         (size_t)pitch * NY);

  // allocate memory for arrays: u1 holds the gold result at the end, u2 the GPU's, u3 is gold's scratch
  // (-pinned takes u1 and u2 from page-locked memory, which the copy engine reads directly)
  float *h_u1 = (float *)host_malloc(bytes, pinned);
  float *h_u2 = (float *)host_malloc(bytes, pinned);
  float *h_u3 = (float *)malloc(bytes);
  float *d_u1, *d_u2, *d_foo;
  if (!h_u1 || !h_u2 || !h_u3) return result_fail("out of host memory for three %zu-byte arrays", bytes);
  memset(h_u2, 0, bytes); // touch every page now, so that the copy back times the copy, not page faults
  checkCudaErrors(cudaMalloc((void **)&d_u1, dbytes));
  checkCudaErrors(cudaMalloc((void **)&d_u2, dbytes));

  // initialise u1: 1 on the boundary, 0 inside (or random inside with -seed)
  grid3d_init(h_u1, NX, NY, NZ, (unsigned int)seed);

  // copy u1 to device, row by row into the padded rows (the padding zeroed first)
  event_timer t = event_timer_start();
  checkCudaErrors(cudaMemset(d_u1, 0, dbytes));
  checkCudaErrors(cudaMemcpy2D(d_u1, pitch * sizeof(float), h_u1, NX * sizeof(float), NX * sizeof(float),
                               (size_t)NY * NZ, cudaMemcpyHostToDevice));
  float milli = event_timer_stop(&t);
  printf("Copy u1 to device: %.1f (ms), %.1f GB/s (%s host memory)\n", milli, bytes / (milli * 1e-3) / 1e9,
         pinned ? "pinned" : "pageable");

  laplace_launch a = {NX, NY, NZ, pitch, kchunk, attr.maxThreadsPerBlock, dim3(), dim3(), d_u1, d_u2};
  double moved = 8.0 * (double)npoints; // one read and one write of each point per iteration
  bench_ref ref;
  if (bench || sweep) ref = bench_reference(dev, moved, reps); // the 100 % line, measured in this run
  if (sweep) { // time every block and chunk in a table, and go on with the fastest
    static const int xs[] = {32, 64, 128, 256}, ys[] = {1, 2, 4, 8, 16};
    int ks[] = {4, 8, 12, 16, 24, 32, 48, 64, 128, NZ}; // the last: one chunk, the whole column
    block_shape best = sweep_shapes("GPU_laplace3d_fast", launch_laplace3d_fast, sweep_block, &a, xs, 4, ys, 5, ks,
                                    10, "kchunk", moved, &ref, reps);
    bx = best.x;
    by = best.y;
    kchunk = best.z;
  }

  // poison u2 with 0xff bytes (NaN): a point the kernel forgets to write cannot pass
  checkCudaErrors(cudaMemset(d_u2, 0xff, dbytes));

  // set up the execution configuration
  set_block(&a, bx, by, kchunk);
  printf("Block: %d x %d, %d planes a block, grid of blocks: %d x %d x %d\n", bx, by, kchunk, a.grid.x, a.grid.y,
         a.grid.z);

  // execute GPU kernel REPEAT times, swapping u1 and u2 after each
  t = event_timer_start();
  for (int i = 1; i <= REPEAT; ++i) {
    GPU_laplace3d_fast<<<a.grid, a.block>>>(NX, NY, NZ, pitch, kchunk, d_u1, d_u2);
    getLastCudaError("GPU_laplace3d_fast execution failed");
    d_foo = d_u1;
    d_u1 = d_u2;
    d_u2 = d_foo;
  }
  milli = event_timer_stop(&t);
  printf("%dx GPU_laplace3d_fast: %.1f (ms)\n", REPEAT, milli);

  // copy u1 (the last result) back to the host, leaving the padding behind
  t = event_timer_start();
  checkCudaErrors(cudaMemcpy2D(h_u2, NX * sizeof(float), d_u1, pitch * sizeof(float), NX * sizeof(float),
                               (size_t)NY * NZ, cudaMemcpyDeviceToHost));
  milli = event_timer_stop(&t);
  printf("Copy u2 to host: %.1f (ms), %.1f GB/s\n", milli, bytes / (milli * 1e-3) / 1e9);

  // Gold treatment
  double t0 = wall_ms();
  for (int i = 1; i <= REPEAT; ++i) {
    Gold_laplace3d(NX, NY, NZ, h_u1, h_u3);
    float *h_foo = h_u1;
    h_u1 = h_u3;
    h_u3 = h_foo;
  }
  printf("%dx Gold_laplace3d: %.1f (ms)\n", REPEAT, wall_ms() - t0);

  // error check: the same operations in the same order, so exactly equal
  gold_stats st;
  compare_float(h_u2, h_u1, npoints, 0.0, 0.0, &st);
  printf("rms error = %f\n", st.rms_err);
  gold_report("u", &st);

  // one iteration timed alone (warm-up, median), against the copy
  if ((bench || sweep) && st.nbad == 0) {
    a.d_u1 = d_u1;
    a.d_u2 = d_u2;
    char size[64], extra[64];
    snprintf(size, sizeof(size), "%dx%dx%d", NX, NY, NZ);
    snprintf(extra, sizeof(extra), "block=%dx%d kchunk=%d pitch=%d", bx, by, kchunk, pitch);
    bench_report(&ref, "3", "laplace3d_fast", size, launch_laplace3d_fast, &a, reps, moved, extra);
  }

  // release GPU and CPU memory (after an odd REPEAT the gold's swaps leave u1 and u3 exchanged)
  if (REPEAT % 2) {
    float *h_foo = h_u1;
    h_u1 = h_u3;
    h_u3 = h_foo;
  }
  checkCudaErrors(cudaFree(d_u1));
  checkCudaErrors(cudaFree(d_u2));
  host_free(h_u1, pinned);
  host_free(h_u2, pinned);
  free(h_u3);

  return gold_verdict(&st, "u");
}
