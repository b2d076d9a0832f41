/*
 * elementwise/k1_divmod.cuh -- kernel 1: one thread per output element. Its index i is split into coordinates of
 * the merged dimensions, innermost first (x = i % E, i = i / E), and each coordinate times each input's stride
 * is that input's offset; the output is contiguous, so it is written at i. The GPU has no integer divider: each
 * / and % by a run-time extent is a subroutine of about twenty instructions (step 6), up to three of each an
 * element. The loop over dimensions is unrolled and its test uniform (the rank is the launch's), so no thread
 * diverges on it.
 */
#ifndef DIVMOD_BLOCK
#define DIVMOD_BLOCK 256
#endif

template <typename T, int OP>
__global__ void __launch_bounds__(DIVMOD_BLOCK)
    eltwise_divmod(const T *__restrict__ a, const T *__restrict__ b, elt_out_t<OP, T> *__restrict__ out, elt_geom g) {
  uint32_t i = blockIdx.x * DIVMOD_BLOCK + threadIdx.x;
  if (i >= g.n) return;
  uint32_t t = i, oa = 0, ob = 0;
#pragma unroll
  for (int d = ELT_MAX_DIMS - 1; d > 0; d--)
    if (d < g.rank) {
      uint32_t x = t % g.extent[d];
      t = t / g.extent[d];
      oa += x * g.sa[d];
      ob += x * g.sb[d];
    }
  oa += t * g.sa[0];
  ob += t * g.sb[0];
  out[i] = elt_apply<OP>(a[oa], b[ob]);
}

template <typename T, int OP> static void run_divmod(const elt_call *c) {
  eltwise_divmod<T, OP><<<ceil_div(c->g.n, DIVMOD_BLOCK), DIVMOD_BLOCK>>>(
      (const T *)c->a, (const T *)c->b, (elt_out_t<OP, T> *)c->out, c->g);
  getLastCudaError("eltwise_divmod execution failed");
}
