/*
 * do_work.cuh -- practical 12: the course's kernel, shared by kernel_overlap, work_streaming and work_streaming2
 * (the course gives each program its own copy). One thread per double: launch idx starts at block idx of the
 * array (kernel_overlap: one block per launch; work_streaming: 0, one launch for all; work_streaming2: a chunk's
 * first block), and iters dependent steps of x = cos(x); x = sqrt(fabs(x)), kept in a register (the course writes
 * data[i] back each step: the same results). prac12_gold.c computes the same steps on the CPU.
 */
#ifndef PRAC12_DO_WORK_CUH
#define PRAC12_DO_WORK_CUH

__global__ void do_work(double *data, int N, int idx, int iters) {
  int i = blockIdx.x * blockDim.x + blockDim.x * idx + threadIdx.x;
  if (i < N) {
    double x = data[i];
    for (int j = 0; j < iters; j++) {
      x = cos(x);
      x = sqrt(fabs(x));
    }
    data[i] = x;
  }
}

#endif
