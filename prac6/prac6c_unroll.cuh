/*
 * prac6c_unroll.cuh -- practical 6, step 4's experiment: my_first_kernel (prac6c.cu) with every loop unrolled.
 *
 * At size 64, my_first_kernel's 64 x 64 double loop is left as loops, so xl[i] is indexed by a loop counter,
 * which a register cannot be, and the array lives in local memory (a 256-byte stack frame). `#pragma unroll`
 * before each loop asks nvcc to unroll it completely (its trip count, size, is a template constant): every
 * index into xl becomes a constant and ptxas keeps the 64 floats in registers (no stack frame; 72 registers a
 * thread with CUDA 13.0, for every target from sm_75 to sm_120). prac6c checks this from the binary
 * (cudaFuncGetAttributes' localSizeBytes) as well as the values. The exercise is this file without the pragmas:
 * exercises/prac6c_unroll.cuh.
 */
template <int size>
__global__ void my_unrolled_kernel(float *x, int n) {
  float xl[size];
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  if (tid >= n) return;
#pragma unroll
  for (int i = 0; i < size; i++) xl[i] = expf(-(float)XL_DECAY * (float)i * (float)tid);
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < size; i++)
#pragma unroll
    for (int j = 0; j < size; j++) sum += xl[i] * xl[j];
  x[tid] = sum;
}
