/*
 * conv1d/c2_shared.cuh -- kernel 2: direct, with the kernel and the block's window of the input in shared
 * memory. A block of C2_THREADS threads makes C2_OUT outputs, C2_OUT / C2_THREADS per thread, C2_THREADS
 * apart: it first copies its window, C2_OUT + kernel_size - 1 inputs, and the kernel into shared memory
 * (dynamic: the size depends on kernel_size), synchronises, and then reads only shared memory. s_k[j] is
 * the same address for the whole warp (a broadcast), s_in[t + j] 32 consecutive floats (no conflict), and
 * each s_k[j] read serves C2_OUT / C2_THREADS outputs.
 */
#define C2_THREADS 256
#define C2_OUT 1024 // outputs per block
#define C2_PER (C2_OUT / C2_THREADS)
static_assert(C2_OUT % C2_THREADS == 0, "whole outputs a thread");

__global__ void __launch_bounds__(C2_THREADS)
    conv_shared(const float *__restrict__ input, const float *__restrict__ kernel, float *__restrict__ output,
                int input_size, int kernel_size) {
  extern __shared__ float smem[];
  float *s_k = smem, *s_in = smem + kernel_size;
  int base = blockIdx.x * C2_OUT, nout = input_size - kernel_size + 1;
  int window = C2_OUT + kernel_size - 1;
  for (int j = threadIdx.x; j < kernel_size; j += C2_THREADS) s_k[j] = kernel[j];
  for (int j = threadIdx.x; j < window; j += C2_THREADS)
    s_in[j] = base + j < input_size ? input[base + j] : 0.0f; // past the end: zeros, used by no kept output
  __syncthreads();
  float sum[C2_PER] = {0.0f};
  for (int j = 0; j < kernel_size; j++) {
    float k = s_k[j];
#pragma unroll
    for (int p = 0; p < C2_PER; p++) sum[p] += s_in[threadIdx.x + p * C2_THREADS + j] * k;
  }
#pragma unroll
  for (int p = 0; p < C2_PER; p++) {
    int i = base + threadIdx.x + p * C2_THREADS;
    if (i < nout) output[i] = sum[p];
  }
}

static size_t shared_bytes(int kernel_size) { return (size_t)(C2_OUT + 2 * kernel_size - 1) * sizeof(float); }

static void run_shared(const float *input, const float *kernel, float *output, int input_size, int kernel_size) {
  int nout = input_size - kernel_size + 1;
  conv_shared<<<ceil_div(nout, C2_OUT), C2_THREADS, shared_bytes(kernel_size)>>>(input, kernel, output, input_size,
                                                                                  kernel_size);
  getLastCudaError("conv_shared execution failed");
}
