/*
 * conv1d/c1_constant.cuh -- kernel 1: direct, with the kernel in constant memory. One thread per output.
 * At every j all the threads of a warp read the same c_kernel[j]: the constant cache serves one address to
 * a whole warp in one go (a broadcast), which is exactly what it is built for. The input is read from
 * global memory; neighbouring threads read overlapping windows, which L1 serves.
 */
#define MAX_KERNEL 2047 // LeetGPU's largest kernel_size; 8 KB of the 64 KB of constant memory
#define C1_THREADS 256

__constant__ float c_kernel[MAX_KERNEL];

__global__ void conv_constant(const float *__restrict__ input, float *__restrict__ output, int nout, int kernel_size) {
  int i = blockIdx.x * C1_THREADS + threadIdx.x;
  if (i < nout) {
    float sum = 0.0f;
    for (int j = 0; j < kernel_size; j++) sum += input[i + j] * c_kernel[j];
    output[i] = sum;
  }
}

static void run_constant(const float *input, const float *kernel, float *output, int input_size, int kernel_size) {
  // the kernel is on the device already: a device-to-device copy into constant memory
  checkCudaErrors(cudaMemcpyToSymbolAsync(c_kernel, kernel, (size_t)kernel_size * sizeof(float), 0,
                                          cudaMemcpyDeviceToDevice));
  int nout = input_size - kernel_size + 1;
  conv_constant<<<ceil_div(nout, C1_THREADS), C1_THREADS>>>(input, output, nout, kernel_size);
  getLastCudaError("conv_constant execution failed");
}
