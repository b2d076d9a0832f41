/*
 * exercises/k3_half8.cuh -- handout step 8, kernel 3 of eltwise, to write: the half8 fast path. (The solution is
 * ../elementwise/k3_half8.cuh.) Thread c owns the V = 16 / sizeof(T) output elements from c V on (eight halves,
 * four floats, sixteen int8) and should move them as the copy does: 16 bytes per load, one store. plan.h has
 * already chosen how each input may be read (mode: it checked the alignment) and where no chunk can be used at
 * all, the launcher below runs kernel 2 instead. Until the TODOs are filled in, the chunks stay unwritten and
 * ./exercises/eltwise ends RESULT: FAIL (exercise not done: ...). In prac6/:
 *   make exercises/eltwise && ./exercises/eltwise -shape=4,8,16
 * and with -op=all, then -op=all -type=float: a comparison's output is uint8, so its store is not 16 bytes.
 * A loop of element loads and stores passes too; that the 16-byte ones are there, the machine code shows:
 *   cuobjdump -sass exercises/eltwise | awk '/Function/{f=/half8/} f' | grep -oE '(LDG|STG)\.E\.128' | sort | uniq -c
 * prints a count of LDG.E.128 (16-byte loads) and of STG.E.128 (stores) in kernel 3 when they are, nothing if not;
 * the finished ./eltwise prints 78 and 27 (CUDA 13.0; sm_75, sm_86 and sm_90 alike). Without cuobjdump,
 * -expect_path=vv checks the path plan.h chose (16-byte loads for a and b), not the instructions issued here.
 */
#ifndef HALF8_BLOCK
#define HALF8_BLOCK 256
#endif

// one input's V elements of the chunk that starts at offset off
template <typename T, int V>
__device__ __forceinline__ void half8_load(const T *__restrict__ p, uint32_t off, int mode, uint32_t stride,
                                           elt_chunk<T, V> &v) {
  // TODO(step 8): fill v.e[0] .. v.e[V - 1] with p[off], p[off + stride], ..., as mode allows:
  //   ELT_LOAD_VEC     contiguous and 16-byte aligned: one 16-byte load (p + off read as a const uint4 *), into
  //                    v.e read as a uint4 * (elt_chunk is alignas(16), ops.cuh, so v.e may be)
  //   ELT_LOAD_BCAST   stride 0: one element, copied into every v.e[j]
  //   ELT_LOAD_GATHER  any other stride: V loads
  (void)p, (void)off, (void)mode, (void)stride;
  v = elt_chunk<T, V>();
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
  // TODO(step 8): store vo.e (V outputs, V * sizeof(U) bytes) at out + i with one store instruction of type
  // typename elt_vec<V * sizeof(U)>::type (uint4, uint2 or unsigned: ops.cuh; C++ needs `typename` as it depends on U)
  (void)vo;
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
