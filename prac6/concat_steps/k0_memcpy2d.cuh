/*
 * concat_steps/k0_memcpy2d.cuh -- kernel 0, what a framework without a concat kernel does: one cudaMemcpy2DAsync per
 * input. Input k is a matrix of `rows` rows of run_k bytes, packed (pitch run_k); in the output its rows sit
 * run_k wide at byte offset[k] * inner * elem of every output row, one output row (row_bytes) apart. That is
 * exactly a 2-D copy: width run_k, height rows, source pitch run_k, destination pitch row_bytes. K calls, each
 * a launch of the driver's own copy kernel, which handles any width and alignment.
 *
 * cudaMemcpy2D refuses a pitch above the device's cudaDevAttrMaxPitch (2^31 - 1 on current GPUs); a row that
 * long means at most a few rows (the output holds fewer than 2^32 elements), copied one cudaMemcpyAsync each.
 * A single row (concat along the first extent) is one contiguous copy per input.
 */
static int memcpy2d_max_pitch = -1;

static void run_memcpy2d(const cat_problem *P) {
  if (memcpy2d_max_pitch < 0) {
    int dev;
    checkCudaErrors(cudaGetDevice(&dev));
    checkCudaErrors(cudaDeviceGetAttribute(&memcpy2d_max_pitch, cudaDevAttrMaxPitch, dev));
  }
  size_t pitch = cat_row_bytes(P);
  for (int k = 0; k < P->K; k++) {
    size_t width = cat_run_bytes(P, k);
    unsigned char *dst = P->out + P->offset[k] * P->inner * P->elem;
    if (P->rows > 1 && pitch <= (size_t)memcpy2d_max_pitch) {
      checkCudaErrors(cudaMemcpy2DAsync(dst, pitch, P->in[k], width, width, P->rows, cudaMemcpyDeviceToDevice));
    } else {
      for (size_t r = 0; r < P->rows; r++)
        checkCudaErrors(cudaMemcpyAsync(dst + r * pitch, P->in[k] + r * width, width, cudaMemcpyDeviceToDevice));
    }
  }
}
