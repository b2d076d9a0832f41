/*
 * exercises/softmax_rows_warp.cuh -- the starting file of the row-softmax exercise (the finished kernel is
 * ../kernels/softmax_rows_warp.cuh): the row's max and sum across its LANES threads are cut out
 * (TODO(softmax_rows)), so each thread normalises by its own part of the row only, and softmax_rows ends
 * RESULT: FAIL (exercise not done: ...) for any cols above one thread's share.
 *
 * softmax_rows for short rows: a warp, or a part of one, a row.
 *
 * LANES threads (a power of two, at most 32) share a row; each holds K vectors of V floats of it (V = 4: a
 * float4, when cols is a multiple of 4 and so every row starts 16-byte aligned; else V = 1) in registers,
 * thread l taking columns (k LANES + l) V ... + V - 1: consecutive threads, consecutive addresses. The
 * row's max and sum go across its LANES threads with shuffles, __shfl_xor_sync(mask, v, d, LANES), xor
 * leaving the result in every lane of the group. The width LANES keeps each group to itself only while
 * d < LANES: past it a lane reads an earlier group's value (another row's) or gets its own back
 * (docs/concepts.md, warp shuffles). The row is read once and written once: the least traffic there is.
 * Columns past the end are -inf, which no max picks and whose exp is 0. A row that is all -inf has m = -inf
 * and s = 0, and y = exp(-inf - -inf) / 0 = NaN: softmax_rows defines it so (as PyTorch does).
 */

template <int LANES, int K, int V>
__global__ void softmax_rows_warp(const float *__restrict__ x, float *__restrict__ y, long long rows, int cols) {
  long long row = ((long long)blockIdx.x * blockDim.x + threadIdx.x) / LANES;
  int lane = threadIdx.x % LANES;
  // no early return: a group past the last row still joins its warp's shuffles, holding only -inf
  size_t base = (size_t)(row < rows ? row : 0) * cols;
  float v[K * V];
#pragma unroll
  for (int k = 0; k < K; k++) {
    int c = (k * LANES + lane) * V;
    if (V == 4) {
      float4 q = row < rows && c < cols ? *(const float4 *)(x + base + c)
                                        : make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);
      v[4 * k] = q.x, v[4 * k + 1] = q.y, v[4 * k + 2] = q.z, v[4 * k + 3] = q.w;
    } else {
      v[k] = row < rows && c < cols ? x[base + c] : -INFINITY;
    }
  }
  // the row's max, then its sum of exp(x - max): every lane of the group ends with both
  float m = -INFINITY, s = 0.0f;
#pragma unroll
  for (int j = 0; j < K * V; j++) m = fmaxf(m, v[j]);
  // TODO(softmax_rows): the max over the row's LANES threads, left in every one of them: a butterfly of
  // shuffles of width LANES, every d below LANES (header: a larger d mixes rows). How many levels is that?
  if (m != -INFINITY) {
#pragma unroll
    for (int j = 0; j < K * V; j++) s += expf(v[j] - m);
  }
  // TODO(softmax_rows): the same for the sum s, with + in place of fmaxf
  // y = exp(x - m) / s, streaming stores: the output is not read again
  if (row >= rows) return;
#pragma unroll
  for (int k = 0; k < K; k++) {
    int c = (k * LANES + lane) * V;
    if (c >= cols) continue;
    if (V == 4)
      __stcs((float4 *)(y + base + c), make_float4(expf(v[4 * k] - m) / s, expf(v[4 * k + 1] - m) / s,
                                                   expf(v[4 * k + 2] - m) / s, expf(v[4 * k + 3] - m) / s));
    else
      __stcs(y + base + c, expf(v[k] - m) / s);
  }
}
