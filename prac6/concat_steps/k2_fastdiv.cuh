/*
 * concat_steps/k2_fastdiv.cuh -- kernel 2: kernel 1 with its three divisions done by fastdiv (fastdiv.h, step 6).
 * The divisors (input k's last three extents) are fixed for a launch, so the host makes their magic numbers
 * once per launch and each thread divides with a multiply-high, an add and a shift; the remainder is the
 * dividend less quotient times divisor (one multiply-subtract):
 *     t = i / e3, c3 = i - t e3;   u = t / e2, c2 = t - u e2;   c0 = u / e1, c1 = u - c0 e1.
 * Exact for every 32-bit dividend (step 6's proof), so the output must equal kernel 1's bit for bit.
 */
typedef struct {
  fastdiv_t e1, e2, e3;         // the input's extents after the first, with their magic numbers
  unsigned s0, s1, s2, base, n; // as kernel 1's cat_unravel
} cat_unravel_fast;

template <typename T>
__global__ void cat_fastdiv(const T *__restrict__ in, T *__restrict__ out, cat_unravel_fast u) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= u.n) return;
  unsigned x = (unsigned)i;
  unsigned t = fastdiv_div(x, u.e3), c3 = x - t * u.e3.d;
  unsigned v = fastdiv_div(t, u.e2), c2 = t - v * u.e2.d;
  unsigned c0 = fastdiv_div(v, u.e1), c1 = v - c0 * u.e1.d;
  out[u.base + c0 * u.s0 + c1 * u.s1 + c2 * u.s2 + c3] = in[i];
}

template <typename T>
static void fastdiv_inputs(const cat_problem *P) {
  for (int k = 0; k < P->K; k++) {
    cat_unravel a = cat_unravel_of(P, k);
    cat_unravel_fast u = {fastdiv_make(a.e1), fastdiv_make(a.e2), fastdiv_make(a.e3), a.s0, a.s1, a.s2, a.base, a.n};
    unsigned blocks = (unsigned)ceil_div((size_t)u.n, CAT_SCALAR_BLOCK);
    cat_fastdiv<T><<<blocks, CAT_SCALAR_BLOCK>>>((const T *)P->in[k], (T *)P->out, u);
    getLastCudaError("cat_fastdiv execution failed");
  }
}

static void run_fastdiv(const cat_problem *P) {
  if (P->elem == 4)
    fastdiv_inputs<unsigned>(P);
  else if (P->elem == 2)
    fastdiv_inputs<unsigned short>(P);
  else
    fastdiv_inputs<unsigned char>(P);
}
