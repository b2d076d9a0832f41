/*
 * scans/s1_three.cuh -- practical 8, step 3 (-kernel=1): a scan of any length with three kernels.
 * scan_tiles scans each tile of SCAN_TILE elements and writes its total to sums[]; sums[] is scanned by the
 * same code (recursively: 2^28 elements give 65536 sums, then 16, then 1); add_tile_offsets adds sums[tile]
 * to every element of the tile. The data cross the memory bus four times.
 */
#include "scan_common.cuh"

// ---- step 3: three kernels ----------------------------------------------------------------------

// each block scans its own tile (blockIdx.x is fine here: nobody waits for anybody) and writes its total
template <typename T> __global__ void scan_tiles(const T *in, T *out, size_t n, T *sums) {
  __shared__ T s_warp_offset[SCAN_WARPS];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  size_t tile_base = (size_t)blockIdx.x * SCAN_TILE;
  T x[SCAN_ITEMS];
  load_tile(in, n, tile_base, warp, lane, x);
  T agg = block_scan_tile(x, s_warp_offset, warp, lane);
  if (threadIdx.x == 0 && sums) sums[blockIdx.x] = agg;
  __syncthreads();
  T base = s_warp_offset[warp];
#pragma unroll
  for (int k = 0; k < SCAN_ITEMS; k++) x[k] = base + x[k];
  store_tile(out, n, tile_base, warp, lane, x);
}

// add the scanned total of the tiles before this one to every element of the tile
template <typename T> __global__ void add_tile_offsets(T *out, size_t n, const T *sums) {
  typedef typename vec4_of<T>::type V;
  T base = sums[blockIdx.x];
  size_t tile_base = (size_t)blockIdx.x * SCAN_TILE;
#pragma unroll
  for (int r = 0; r < SCAN_ITEMS / 4; r++) {
    size_t i = tile_base + 4 * ((size_t)r * SCAN_THREADS + threadIdx.x);
    if (i + 3 < n) {
      V v = *(V *)(out + i);
      v.x += base, v.y += base, v.z += base, v.w += base;
      *(V *)(out + i) = v;
    } else {
      for (int j = 0; j < 4; j++)
        if (i + j < n) out[i + j] += base;
    }
  }
}

static unsigned num_tiles(size_t n) { return (unsigned)((n + SCAN_TILE - 1) / SCAN_TILE); }

// step 3: scan tiles, scan their totals (the same three kernels, one level down), add them back
template <typename T> static void scan_three(const T *d_in, T *d_out, size_t n, void *const *d_sums, int level) {
  unsigned nb = num_tiles(n);
  T *sums = (nb > 1) ? (T *)d_sums[level] : NULL;
  scan_tiles<T><<<nb, SCAN_THREADS>>>(d_in, d_out, n, sums);
  getLastCudaError("scan_tiles execution failed");
  if (nb > 1) {
    scan_three<T>(sums, sums, nb, d_sums, level + 1); // in place: each thread reads its elements first
    add_tile_offsets<T><<<nb, SCAN_THREADS>>>(d_out, n, sums);
    getLastCudaError("add_tile_offsets execution failed");
  }
}

static void run_three(void *arg) {
  scan_plan *p = (scan_plan *)arg;
  if (p->is_int)
    scan_three<int>((const int *)p->d_in, (int *)p->d_out, p->n, p->d_sums, 0);
  else
    scan_three<float>((const float *)p->d_in, (float *)p->d_out, p->n, p->d_sums, 0);
}
