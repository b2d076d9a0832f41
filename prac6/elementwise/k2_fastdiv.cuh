/*
 * elementwise/k2_fastdiv.cuh -- kernel 2: kernel 1 with step 6's fastdiv. Each extent's magic numbers are made once
 * on the host (elt_call_setup); in the kernel a quotient is a multiply-high, an add and a shift, and the
 * remainder one multiply-subtract from it (fastdiv.h). elt_offsets_fastdiv is also how kernels 3 and 4 find
 * where a chunk or a tile starts.
 */
#ifndef FASTDIV_BLOCK
#define FASTDIV_BLOCK 256
#endif

// output element i's offsets in a and b
__device__ __forceinline__ void elt_offsets_fastdiv(const elt_geom &g, uint32_t i, uint32_t &oa, uint32_t &ob) {
  oa = 0, ob = 0;
#pragma unroll
  for (int d = ELT_MAX_DIMS - 1; d > 0; d--)
    if (d < g.rank) {
      uint32_t q = fastdiv_div(i, g.div[d]), x = i - q * g.extent[d];
      oa += x * g.sa[d];
      ob += x * g.sb[d];
      i = q;
    }
  oa += i * g.sa[0];
  ob += i * g.sb[0];
}

template <typename T, int OP>
__global__ void __launch_bounds__(FASTDIV_BLOCK)
    eltwise_fastdiv(const T *__restrict__ a, const T *__restrict__ b, elt_out_t<OP, T> *__restrict__ out, elt_geom g) {
  uint32_t i = blockIdx.x * FASTDIV_BLOCK + threadIdx.x;
  if (i >= g.n) return;
  uint32_t oa, ob;
  elt_offsets_fastdiv(g, i, oa, ob);
  out[i] = elt_apply<OP>(a[oa], b[ob]);
}

template <typename T, int OP> static void run_fastdiv(const elt_call *c) {
  eltwise_fastdiv<T, OP><<<ceil_div(c->g.n, FASTDIV_BLOCK), FASTDIV_BLOCK>>>(
      (const T *)c->a, (const T *)c->b, (elt_out_t<OP, T> *)c->out, c->g);
  getLastCudaError("eltwise_fastdiv execution failed");
}
