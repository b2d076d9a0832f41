/*
 * elementwise/k3_half8.cuh -- kernel 3: 16 bytes of input per thread (half8: eight halves; four floats, sixteen int8),
 * as the copy moves them. Thread c owns output elements c V .. c V + V - 1, V = 16 / sizeof(T), and reads
 * each input as plan.h found its layout allows:
 *   ELT_LOAD_VEC     inner stride 1, every chunk 16-byte aligned: one 16-byte load (LDG.128)
 *   ELT_LOAD_BCAST   inner stride 0 (a [C,1,1] operand over NCHW, a scalar): one element, copied in registers
 *   ELT_LOAD_GATHER  a small inner stride (steps under a 32-byte sector: a step-2 slice), or misaligned: V loads
 *                    of one element each
 * and writes its V outputs with one store of V x sizeof(out) bytes (16, or 8 and 4 for a uint8 result). The
 * chunk's coordinates are found once (fastdiv), not once per element. Half pairs go through the half2
 * instructions (ops.cuh). Where the output is misaligned, a chunk would cross a row (the innermost merged
 * extent no multiple of V) or an input's stride puts each of a chunk's elements in a sector of its own (a
 * transposed view), the whole launch is kernel 2's, element by element; plan.h's line says which.
 * A 1-D array whose length is no multiple of V ends with one partial chunk, done element by element.
 */
#ifndef HALF8_BLOCK
#define HALF8_BLOCK 256
#endif

// one input's V elements of the chunk that starts at offset off
template <typename T, int V>
__device__ __forceinline__ void half8_load(const T *__restrict__ p, uint32_t off, int mode, uint32_t stride,
                                           elt_chunk<T, V> &v) {
  if (mode == ELT_LOAD_VEC) {
    *reinterpret_cast<uint4 *>(v.e) = *reinterpret_cast<const uint4 *>(p + off);
  } else if (mode == ELT_LOAD_BCAST) {
    T x = p[off];
#pragma unroll
    for (int j = 0; j < V; j++) v.e[j] = x;
  } else {
#pragma unroll
    for (int j = 0; j < V; j++) v.e[j] = p[off + j * stride];
  }
}

template <typename T, int OP>
__global__ void __launch_bounds__(HALF8_BLOCK)
    eltwise_half8(const T *__restrict__ a, const T *__restrict__ b, elt_out_t<OP, T> *__restrict__ out, elt_geom g) {
  constexpr int V = 16 / sizeof(T);
  typedef elt_out_t<OP, T> U;
  uint32_t i = (blockIdx.x * HALF8_BLOCK + threadIdx.x) * V; // this thread's first output element
  if (i >= g.n) return;
  uint32_t oa, ob;
  elt_offsets_fastdiv(g, i, oa, ob);
  if (i + V > g.n) { // the partial last chunk of a 1-D array
    for (uint32_t j = 0; i + j < g.n; j++) out[i + j] = elt_apply<OP>(a[oa + j * g.ia], b[ob + j * g.ib]);
    return;
  }
  elt_chunk<T, V> va, vb;
  elt_chunk<U, V> vo;
  half8_load(a, oa, g.mode_a, g.ia, va);
  half8_load(b, ob, g.mode_b, g.ib, vb);
  elt_apply_chunk<OP>(va, vb, vo);
  typedef typename elt_vec<V * sizeof(U)>::type vec; // uint4, uint2 or unsigned
  *reinterpret_cast<vec *>(out + i) = *reinterpret_cast<const vec *>(vo.e);
}

template <typename T, int OP> static void run_half8(const elt_call *c) {
  if (!c->half8.vector) { // element by element: kernel 2
    run_fastdiv<T, OP>(c);
    return;
  }
  constexpr uint32_t V = 16 / sizeof(T);
  uint32_t chunks = (c->g.n + V - 1) / V;
  eltwise_half8<T, OP><<<ceil_div(chunks, HALF8_BLOCK), HALF8_BLOCK>>>((const T *)c->a, (const T *)c->b,
                                                                       (elt_out_t<OP, T> *)c->out, c->g);
  getLastCudaError("eltwise_half8 execution failed");
}
