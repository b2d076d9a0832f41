/*
 * kernels/softmax_rows_cluster.cuh -- softmax_rows for rows longer than a block holds: a cluster of blocks per row.
 *
 * A thread block cluster (compute capability 9.0) is a group of blocks that run at the same time on
 * neighbouring SMs and may read each other's shared memory ("distributed shared memory"). Block `rank` of a
 * row's cluster holds columns rank * SPLIT_CHUNK ... in registers, as the block kernel does, and puts its
 * (max, sum) in its own shared memory; after cluster.sync() every block reads all the cluster's pairs,
 * in rank order (so every block gets the same bits), and writes its columns. One read and one write, where
 * the split method reads each row twice. The second cluster.sync() keeps each block's shared memory alive
 * until every block of the cluster has read it.
 * Grid (cluster size, rows), cluster dims (cluster size, 1, 1): softmax_rows.cu launches it with
 * cudaLaunchKernelEx, where the device offers cluster launch and the cluster fits (both asked, never assumed).
 */
#include <cooperative_groups.h>

template <int K, int V>
__global__ void __launch_bounds__(1024)
    softmax_rows_cluster(const float *__restrict__ x, float *__restrict__ y, int cols) {
#if __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  __shared__ float2 pair; // this block's (max, sum), read by the whole cluster
  int rank = (int)cluster.block_rank(), blocks = (int)cluster.num_blocks();
  size_t c0 = (size_t)rank * SPLIT_CHUNK(V), base = (size_t)blockIdx.y * cols + c0;
  int n = cols - (int)c0 < SPLIT_CHUNK(V) ? cols - (int)c0 : SPLIT_CHUNK(V);
  float v[K * V];
  load_part<K, V>(x + base, n, v);
  float2 ms = block_stats<K, V>(v);
  if (threadIdx.x == 0) pair = ms;
  cluster.sync(); // every block's pair written and visible to the cluster
  float m = -INFINITY, s = 0.0f;
  for (int r = 0; r < blocks; r++) m = fmaxf(m, cluster.map_shared_rank(&pair, r)->x);
  if (m != -INFINITY)
    for (int r = 0; r < blocks; r++) {
      float2 p = *cluster.map_shared_rank(&pair, r);
      s += p.y * expf(p.x - m);
    }
  cluster.sync(); // no block leaves (and frees its shared memory) while another still reads it
  store_part<K, V>(y + base, n, v, m, s);
#else
  __trap(); // the host never launches it from code below 9.0 (kernel_can_run)
#endif
}
