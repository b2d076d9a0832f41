/*
 * concat_steps/k1_divmod.cuh -- kernel 1: one launch per input, one thread per element of that input (each is one
 * element of the output), its index split into coordinates with / and %, and put together again with the
 * output's extents. Element i of input k, of extents e0 x e1 x e2 x e3 (e_ax = split[k]), is at
 *     c3 = i % e3,   c2 = (i / e3) % e2,   c1 = (i / (e3 e2)) % e1,   c0 = i / (e3 e2 e1)
 * and goes to output element
 *     c0 s0 + c1 s1 + c2 s2 + c3 + offset[k] s_ax
 * where s are the output's strides (s3 = 1, s2 = D3, s1 = D2 D3, s0 = D1 D2 D3): moving input k along the axis
 * to where it starts adds offset[k] times that axis's stride, whichever axis it is. Consecutive threads read
 * consecutive elements, and write consecutive elements within each run. Each element costs three divisions
 * by a run-time divisor, each a subroutine of about twenty instructions (step 6).
 * 32-bit indexes: the runner allows fewer than 2^32 output elements.
 */
#define CAT_SCALAR_BLOCK 256 // threads per block of kernels 1 and 2

typedef struct {
  unsigned e1, e2, e3; // the input's extents after the first (the first is implied by n)
  unsigned s0, s1, s2; // the output's strides
  unsigned base;       // offset[k] times the output's stride on the axis: where element 0 of input k goes
  unsigned n;          // the input's elements
} cat_unravel;

static cat_unravel cat_unravel_of(const cat_problem *P, int k) {
  size_t e[4] = {P->dims[0], P->dims[1], P->dims[2], P->dims[3]};
  size_t s[4] = {P->dims[1] * P->dims[2] * P->dims[3], P->dims[2] * P->dims[3], P->dims[3], 1};
  e[P->ax] = P->split[k];
  cat_unravel u = {(unsigned)e[1],
                   (unsigned)e[2],
                   (unsigned)e[3],
                   (unsigned)s[0],
                   (unsigned)s[1],
                   (unsigned)s[2],
                   (unsigned)(P->offset[k] * s[P->ax]),
                   (unsigned)cat_input_elems(P, k)};
  return u;
}

// T: an unsigned type of the element's size (concat moves bits: a half is its 16 bits)
template <typename T>
__global__ void cat_divmod(const T *__restrict__ in, T *__restrict__ out, cat_unravel u) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; // 64 bits: the last block runs past n <= 2^32 - 1
  if (i >= u.n) return;
  unsigned x = (unsigned)i;
  unsigned c3 = x % u.e3;
  x /= u.e3;
  unsigned c2 = x % u.e2;
  x /= u.e2;
  unsigned c1 = x % u.e1, c0 = x / u.e1;
  out[u.base + c0 * u.s0 + c1 * u.s1 + c2 * u.s2 + c3] = in[i];
}

template <typename T>
static void divmod_inputs(const cat_problem *P) {
  for (int k = 0; k < P->K; k++) {
    cat_unravel u = cat_unravel_of(P, k);
    unsigned blocks = (unsigned)ceil_div((size_t)u.n, CAT_SCALAR_BLOCK);
    cat_divmod<T><<<blocks, CAT_SCALAR_BLOCK>>>((const T *)P->in[k], (T *)P->out, u);
    getLastCudaError("cat_divmod execution failed");
  }
}

static void run_divmod(const cat_problem *P) {
  if (P->elem == 4)
    divmod_inputs<unsigned>(P);
  else if (P->elem == 2)
    divmod_inputs<unsigned short>(P);
  else
    divmod_inputs<unsigned char>(P);
}
