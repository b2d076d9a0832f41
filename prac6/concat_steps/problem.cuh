/*
 * concat_steps/problem.cuh -- what every step of concat (practical 6, step 7) is given: K inputs, row-major, equal
 * in every extent but the concat axis, and the output they make.
 *
 * Any rank from 1 to 4 is held as rank 4, with extents of 1 in front, so that one set of kernels serves every
 * rank. Whatever the axis, the output is then a matrix: `rows` rows (the extents before the axis, multiplied)
 * of dims[ax] * inner elements (inner: the extents after it, multiplied), and input k is a matrix of the same
 * rows, each a run of split[k] * inner elements that goes to column offset[k] * inner of the output's row.
 * Input k is therefore contiguous, its rows one after another; the output gets them row by row, interleaved.
 * NCHW concatenated along C: rows = N, inner = H W. NHWC along C: rows = N H W, inner = 1.
 */
#define CAT_MAX_INPUTS 64

typedef struct {
  int K;                             // inputs, 2 to CAT_MAX_INPUTS
  int elem;                          // bytes per element: 4 float, 2 half, 1 int8 (concat moves bits only)
  size_t dims[4];                    // the output's extents, rank 4 (leading 1s for a smaller rank)
  int ax;                            // the concat axis in those four
  size_t split[CAT_MAX_INPUTS];      // input k's extent on the axis
  size_t offset[CAT_MAX_INPUTS + 1]; // where input k starts on the axis; offset[K] = dims[ax]
  size_t rows, inner, total;         // rows and inner as above; total: the output's elements
  const unsigned char *in[CAT_MAX_INPUTS];
  unsigned char *out;
} cat_problem;

// a run: what input k puts in one row of the output, in bytes; a row of the output, in bytes
static inline size_t cat_run_bytes(const cat_problem *P, int k) { return P->split[k] * P->inner * P->elem; }
static inline size_t cat_row_bytes(const cat_problem *P) { return P->dims[P->ax] * P->inner * P->elem; }
static inline size_t cat_input_elems(const cat_problem *P, int k) { return P->rows * P->split[k] * P->inner; }

// the shape, from the output's extents (rank 1 to 4), the axis and each input's extent on it (their sum is
// dims[axis]: the caller checked it); the pointers are set later
static inline void cat_problem_init(cat_problem *P, int elem, int rank, const size_t *dims, int axis, int K,
                                    const size_t *split) {
  memset(P, 0, sizeof(*P));
  P->K = K;
  P->elem = elem;
  P->ax = axis + 4 - rank;
  for (int d = 0; d < 4; d++) P->dims[d] = d < 4 - rank ? 1 : dims[d - (4 - rank)];
  P->rows = P->inner = 1;
  for (int d = 0; d < 4; d++) {
    if (d < P->ax) P->rows *= P->dims[d];
    if (d > P->ax) P->inner *= P->dims[d];
  }
  P->total = P->rows * P->dims[P->ax] * P->inner;
  for (int k = 0; k < K; k++) {
    P->split[k] = split[k];
    P->offset[k + 1] = P->offset[k] + split[k];
  }
}
