/*
 * elementwise/k0_copy.cuh -- kernel 0, the 100 % line: a device-to-device copy of as many bytes as the operator must
 * move (each input element it reads once, the output once), timed in the same run, by whichever of cudaMemcpy
 * and the 16-byte copy kernel the baseline found faster (common/timing.h), as prac3's ladder does. Why the copy
 * and not a library: the CUDA toolkit has no strided, broadcasting binary operator (cuBLAS's geam adds two
 * matrices of one type with no broadcast along rows or half comparisons; cuTENSOR's elementwise operations are
 * a separate download), and the peer a user would call, PyTorch, runs in its own process (torch_peer.py), its
 * figures set beside these in the handout. The copy's check: a pattern in the source, the destination poisoned,
 * every word compared on the device.
 */
typedef struct {
  uint32_t *src, *dst;
  size_t words; // 4-byte words in each buffer, a multiple of 4 (whole 16-byte lines)
  int use_kernel;
  unsigned long long *d_bad;
} elt_copy;

__device__ __forceinline__ uint32_t copy_pattern(size_t i) { return (uint32_t)i * 2654435761u ^ (uint32_t)(i >> 32); }

__global__ void copy_fill(uint32_t *src, size_t words) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words; i += (size_t)gridDim.x * blockDim.x)
    src[i] = copy_pattern(i);
}

__global__ void copy_verify(const uint32_t *dst, size_t words, unsigned long long *bad) {
  unsigned long long n = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words; i += (size_t)gridDim.x * blockDim.x)
    n += dst[i] != copy_pattern(i);
  if (n) atomicAdd(bad, n);
}

static void copy_setup(elt_copy *c, size_t bytes, int use_kernel) {
  c->words = (bytes < 16 ? 16 : bytes) / 16 * 4; // whole 16-byte words, at least one (a launch needs a block)
  c->use_kernel = use_kernel;
  checkCudaErrors(cudaMalloc((void **)&c->src, c->words * 4));
  checkCudaErrors(cudaMalloc((void **)&c->dst, c->words * 4));
  checkCudaErrors(cudaMalloc((void **)&c->d_bad, sizeof(unsigned long long)));
  copy_fill<<<1024, 256>>>(c->src, c->words);
  getLastCudaError("copy_fill execution failed");
  checkCudaErrors(cudaMemset(c->dst, 0xa5, c->words * 4));
}

static void copy_run(const elt_copy *c) {
  if (c->use_kernel) {
    timing_stream_args t = {(uint4 *)c->dst, (uint4 *)c->src, c->words / 4, NULL};
    timing_copy_by_kernel(&t);
  } else {
    checkCudaErrors(cudaMemcpyAsync(c->dst, c->src, c->words * 4, cudaMemcpyDeviceToDevice));
  }
}

// the words of dst that differ from the pattern; dst is poisoned again, so that the next runs must write it
static unsigned long long copy_wrong(const elt_copy *c) {
  unsigned long long bad = 0;
  checkCudaErrors(cudaMemset(c->d_bad, 0, sizeof(bad)));
  copy_verify<<<1024, 256>>>(c->dst, c->words, c->d_bad);
  getLastCudaError("copy_verify execution failed");
  checkCudaErrors(cudaMemcpy(&bad, c->d_bad, sizeof(bad), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaMemset(c->dst, 0xa5, c->words * 4));
  return bad;
}

static void copy_teardown(elt_copy *c) {
  checkCudaErrors(cudaFree(c->src));
  checkCudaErrors(cudaFree(c->dst));
  checkCudaErrors(cudaFree(c->d_bad));
}
