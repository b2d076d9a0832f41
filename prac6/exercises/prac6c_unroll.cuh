/*
 * exercises/prac6c_unroll.cuh -- practical 6, step 4's experiment: keep size 64's array in registers.
 *
 * my_unrolled_kernel is my_first_kernel (../prac6c.cu) again. At size 64 the compiler leaves a loop as a loop,
 * so xl[i] is indexed at run time and the array goes to local memory (ptxas: "256 bytes stack frame"). Make every
 * index into xl a compile-time constant, as the compiler does by itself at size 16 (the TODO(step 4)s). Then
 *   make exercises/prac6c && ./exercises/prac6c
 * prints the local memory of both size-64 kernels and ends RESULT: PASS once the unrolled one has none; ptxas's
 * lines for both are in .obj/exercises/prac6c/prac6c.cu.log. The finished file is ../prac6c_unroll.cuh.
 */
template <int size>
__global__ void my_unrolled_kernel(float *x, int n) {
  float xl[size];
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  if (tid >= n) return;
  // TODO(step 4): size is a template constant, so the compiler can turn a loop over i < size into size copies
  // of its body, each with a constant i (unrolling it). At size 64 it does so for some of the three loops here
  // and not for all. How can the source ask it to unroll a loop? ...
  for (int i = 0; i < size; i++) xl[i] = expf(-(float)XL_DECAY * (float)i * (float)tid);
  float sum = 0.0f;
  // TODO(step 4): ... and which loop must it be asked for, so that every index into xl is a constant? The
  // stack frame in ptxas's line for my_unrolled_kernel<64> tells you when you have it.
  for (int i = 0; i < size; i++)
    for (int j = 0; j < size; j++) sum += xl[i] * xl[j];
  x[tid] = sum;
}
