/*
 * prac6c_unroll.cuh -- practical 6, step 4's experiment: my_first_kernel (prac6c.cu) with its loops unrolled.
 *
 * At size 64 the compiler unrolls my_first_kernel's first loop and the inner loop of the double loop by itself,
 * but leaves the outer loop (64 passes of 64 multiply-adds) as a loop: xl[i] is then indexed by a loop counter, which a
 * register cannot be, and the array lives in local memory (a 256-byte stack frame). `#pragma unroll` asks nvcc
 * to unroll the loop after it completely (its trip count, size, is a template constant). The one that matters
 * is on the outer loop of the double loop: with it alone every index into xl becomes a constant and ptxas keeps
 * the 64 floats in registers (no stack frame; 72 registers per thread with CUDA 13.0, for every target from
 * sm_75 to sm_120). The two other pragmas ask for what the compiler does anyway: without them it makes the
 * same PTX and the same machine code. prac6c checks the outcome from the binary (cudaFuncGetAttributes'
 * localSizeBytes) as well as the values. The exercise is this file without the pragmas:
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
