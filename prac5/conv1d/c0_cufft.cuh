/*
 * conv1d/c0_cufft.cuh -- kernel 0, the library route: cuFFT. The correlation theorem: the inverse transform
 * of X . conj(H) is the circular correlation y[i] = sum_j x[(i + j) mod P] h[j]. With P >= input_size,
 * the outputs i <= input_size - kernel_size never wrap, so they are the "valid" correlation exactly.
 * Per call: copy the input and the kernel into zero-padded buffers, two R2C transforms, our own kernel for
 * X . conj(H) / P, one C2R transform, and a copy of the valid outputs. The plans, the buffers and their
 * zero tails are made once (cufft_setup), outside every timed region; the forward transforms are out of
 * place and leave their inputs (and so the zero tails) as they were.
 */
#include "helper_cufft.h"

typedef struct {
  cufftHandle fwd, inv;
  long long P;
  int nfreq;
  cufftReal *d_xp, *d_hp, *d_y; // padded input, padded kernel, the P outputs of the inverse
  cufftComplex *d_X, *d_H;
  int hp_len; // how much of d_hp a kernel has filled so far: a shorter kernel must zero the rest again
} fft_route;

static fft_route fft;

static void cufft_setup(int input_size) {
  fft.P = fft_good_size(input_size > 2 ? input_size : 2);
  fft.nfreq = (int)(fft.P / 2 + 1);
  fft.hp_len = 0;
  checkCudaErrors(cudaMalloc((void **)&fft.d_xp, (size_t)fft.P * sizeof(cufftReal)));
  checkCudaErrors(cudaMalloc((void **)&fft.d_hp, (size_t)fft.P * sizeof(cufftReal)));
  checkCudaErrors(cudaMalloc((void **)&fft.d_y, (size_t)fft.P * sizeof(cufftReal)));
  checkCudaErrors(cudaMalloc((void **)&fft.d_X, (size_t)fft.nfreq * sizeof(cufftComplex)));
  checkCudaErrors(cudaMalloc((void **)&fft.d_H, (size_t)fft.nfreq * sizeof(cufftComplex)));
  checkCudaErrors(cudaMemset(fft.d_xp, 0, (size_t)fft.P * sizeof(cufftReal))); // the zero tails
  checkCudaErrors(cudaMemset(fft.d_hp, 0, (size_t)fft.P * sizeof(cufftReal)));
  checkCudaErrors(cufftPlan1d(&fft.fwd, (int)fft.P, CUFFT_R2C, 1));
  checkCudaErrors(cufftPlan1d(&fft.inv, (int)fft.P, CUFFT_C2R, 1));
}

static void cufft_teardown(void) {
  checkCudaErrors(cufftDestroy(fft.fwd));
  checkCudaErrors(cufftDestroy(fft.inv));
  checkCudaErrors(cudaFree(fft.d_xp));
  checkCudaErrors(cudaFree(fft.d_hp));
  checkCudaErrors(cudaFree(fft.d_y));
  checkCudaErrors(cudaFree(fft.d_X));
  checkCudaErrors(cudaFree(fft.d_H));
}

// X . conj(H) / P, one thread per frequency
__global__ void mul_conj_scale(cufftComplex *X, const cufftComplex *__restrict__ H, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    cufftComplex a = X[i], b = H[i];
    X[i] = make_float2((a.x * b.x + a.y * b.y) * scale, (a.y * b.x - a.x * b.y) * scale);
  }
}

static void run_cufft(const float *input, const float *kernel, float *output, int input_size, int kernel_size) {
  checkCudaErrors(cudaMemcpyAsync(fft.d_xp, input, (size_t)input_size * sizeof(float), cudaMemcpyDeviceToDevice));
  if (kernel_size < fft.hp_len)
    checkCudaErrors(cudaMemsetAsync(fft.d_hp + kernel_size, 0, (size_t)(fft.hp_len - kernel_size) * sizeof(float)));
  fft.hp_len = kernel_size;
  checkCudaErrors(cudaMemcpyAsync(fft.d_hp, kernel, (size_t)kernel_size * sizeof(float), cudaMemcpyDeviceToDevice));
  checkCudaErrors(cufftExecR2C(fft.fwd, fft.d_xp, fft.d_X));
  checkCudaErrors(cufftExecR2C(fft.fwd, fft.d_hp, fft.d_H));
  mul_conj_scale<<<ceil_div(fft.nfreq, 256), 256>>>(fft.d_X, fft.d_H, fft.nfreq, 1.0f / (float)fft.P);
  getLastCudaError("mul_conj_scale execution failed");
  checkCudaErrors(cufftExecC2R(fft.inv, fft.d_X, fft.d_y));
  checkCudaErrors(cudaMemcpyAsync(output, fft.d_y, (size_t)(input_size - kernel_size + 1) * sizeof(float),
                                  cudaMemcpyDeviceToDevice));
}
