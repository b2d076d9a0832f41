/*
 * batch/b0_cusparse.cuh -- practical 7, steps 9-10: the library on the same data in the same run.
 * cuSPARSE's gtsv2StridedBatch (the strided layout) and gtsvInterleavedBatch (the interleaved one,
 * batch/layout.cuh). Both solve in place (x holds d on entry), so a timed call first restores x; the handle
 * and the workspaces are made once, before anything is timed (lib_open).
 */
#ifndef BATCH_B0_CUSPARSE_CUH
#define BATCH_B0_CUSPARSE_CUH

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper_cuda.h"
#include "helper_cusparse.h"
#include "batch/layout.cuh"

typedef struct {
  cusparseHandle_t handle;
  int n, batch, algo, restore_coeffs;
  const float *a, *b, *c, *d;    // strided originals
  const float *ai, *bi, *ci, *di; // interleaved originals
  float *x, *wa, *wb, *wc;       // x: in/out; wa, wb, wc: working copies of the interleaved coefficients
  void *buf_strided, *buf_inter; // the workspaces, allocated once
} lib_args;

static void lib_strided_reset(void *p) {
  lib_args *l = (lib_args *)p;
  checkCudaErrors(cudaMemcpyAsync(l->x, l->d, (size_t)l->n * l->batch * sizeof(float), cudaMemcpyDeviceToDevice));
}
static void lib_strided(void *p) {
  lib_args *l = (lib_args *)p;
  lib_strided_reset(p);
  checkCudaErrors(cusparseSgtsv2StridedBatch(l->handle, l->n, l->a, l->b, l->c, l->x, l->batch, l->n, l->buf_strided));
}
static void lib_inter_reset(void *p) {
  lib_args *l = (lib_args *)p;
  size_t bytes = (size_t)l->n * l->batch * sizeof(float);
  checkCudaErrors(cudaMemcpyAsync(l->x, l->di, bytes, cudaMemcpyDeviceToDevice));
  if (l->restore_coeffs) { // gtsvInterleavedBatch takes its coefficients as writable: restored when it writes them
    checkCudaErrors(cudaMemcpyAsync(l->wa, l->ai, bytes, cudaMemcpyDeviceToDevice));
    checkCudaErrors(cudaMemcpyAsync(l->wb, l->bi, bytes, cudaMemcpyDeviceToDevice));
    checkCudaErrors(cudaMemcpyAsync(l->wc, l->ci, bytes, cudaMemcpyDeviceToDevice));
  }
}
static void lib_inter(void *p) {
  lib_args *l = (lib_args *)p;
  lib_inter_reset(p);
  checkCudaErrors(
      cusparseSgtsvInterleavedBatch(l->handle, l->algo, l->n, l->wa, l->wb, l->wc, l->x, l->batch, l->buf_inter));
}

// the handle and both workspaces, made once before anything is timed (m >= 3 is the library's rule: the
// caller checks n)
static void lib_open(lib_args *l, const trid_args *t, int algo) {
  int n = t->n, batch = t->batch;
  size_t N = (size_t)n * batch, bytes = N * sizeof(float);
  size_t sz_strided = 0, sz_inter = 0;
  l->n = n;
  l->batch = batch;
  l->algo = algo;
  l->a = t->a, l->b = t->b, l->c = t->c, l->d = t->d;
  l->ai = t->ai, l->bi = t->bi, l->ci = t->ci, l->di = t->di;
  l->x = t->x;
  l->wa = t->w; // the working copies of the interleaved coefficients: w (2 N floats) and xi
  l->wb = t->w + N;
  checkCudaErrors(cudaMalloc((void **)&l->wc, bytes));
  checkCudaErrors(cusparseCreate(&l->handle));
  checkCudaErrors(
      cusparseSgtsv2StridedBatch_bufferSizeExt(l->handle, n, t->a, t->b, t->c, t->x, batch, n, &sz_strided));
  checkCudaErrors(cusparseSgtsvInterleavedBatch_bufferSizeExt(l->handle, algo, n, t->ai, t->bi, t->ci, t->x, batch,
                                                              &sz_inter));
  checkCudaErrors(cudaMalloc(&l->buf_strided, sz_strided > 0 ? sz_strided : 1));
  checkCudaErrors(cudaMalloc(&l->buf_inter, sz_inter > 0 ? sz_inter : 1));
  printf("cuSPARSE workspaces: gtsv2StridedBatch %.1f MB, gtsvInterleavedBatch (algo %d) %.1f MB\n",
         sz_strided * 1e-6, algo, sz_inter * 1e-6);
}

// did gtsvInterleavedBatch write its coefficients? (compared back in the strided layout, on the host, with
// h_a, h_b, h_c; scratch: the device array tmp)
static int lib_writes_coeffs(const lib_args *l, const float *h_a, const float *h_b, const float *h_c, float *tmp) {
  size_t bytes = (size_t)l->n * l->batch * sizeof(float);
  float *h_tmp = (float *)malloc(bytes);
  int wrote = 0;
  const float *orig[3] = {h_a, h_b, h_c};
  float *work[3] = {l->wa, l->wb, l->wc};
  for (int q = 0; q < 3 && h_tmp; q++) {
    to_layout(l->n, l->batch, work[q], tmp);
    checkCudaErrors(cudaMemcpy(h_tmp, tmp, bytes, cudaMemcpyDeviceToHost));
    wrote |= memcmp(h_tmp, orig[q], bytes) != 0;
  }
  free(h_tmp);
  return wrote;
}

static void lib_close(lib_args *l) {
  checkCudaErrors(cudaFree(l->buf_strided));
  checkCudaErrors(cudaFree(l->buf_inter));
  checkCudaErrors(cudaFree(l->wc));
  checkCudaErrors(cusparseDestroy(l->handle));
}

#endif /* BATCH_B0_CUSPARSE_CUH */
