/*
 * concat.cu -- practical 6, step 7: concatenation of K tensors along any axis, the operator every framework
 * runs all the time (torch.cat). K inputs (2 to 64) of rank 1 to 4, equal in every extent but the axis, whose
 * extents on it may differ and may be 1; float, half or int8. A concat computes nothing: it is all memory
 * traffic, so its 100 % line is a device-to-device copy of the same bytes, timed in the same run.
 *   -kernel=0  one cudaMemcpy2DAsync per input                       concat_steps/k0_memcpy2d.cuh
 *   -kernel=1  a launch per input, thread per element, / and %      concat_steps/k1_divmod.cuh
 *   -kernel=2  the same with step 6's fastdiv                        concat_steps/k2_fastdiv.cuh
 *   -kernel=3  one launch for all inputs, 16 bytes per thread        concat_steps/k3_vector.cuh, k3_tiles.cuh
 * Shapes: -layout=nchw|nhwc -N -C -H -W -K (C split evenly into K inputs), or -dims=D0,..,D3 -axis=A with
 * -splits=E0,E1,.. (each input's extent on the axis, summing to D_A) or -K (D_A split evenly). -offset=B puts
 * each input B bytes past a 256-byte boundary (a misaligned view), -out_offset=B the output.
 * The check is exact (bits: a half or a float is moved as it is) against concat_gold.c, on an output poisoned
 * beforehand, with guard bytes around it that must keep their poison. -bench checks every kernel, times each
 * beside the copy (bytes read + written) and checks what its last timed run left.
 *   nvcc -O3 -arch=native -std=c++17 -I../common concat.cu concat_gold.c fastdiv_gold.c -o concat   (in prac6/)
 */
#define COURSE_STEPS "practical 6, workbook step 7 (beyond the course)"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "ladder.h"
#include "timing.h"

#include "fastdiv.h"
#include "prac6_gold.h" // the gold, and step 6's fastdiv_make (fastdiv_gold.c, linked in: Makefile)

#include "concat_steps/problem.cuh" // what every step is given, before the steps

#include "concat_steps/k0_memcpy2d.cuh"
#include "concat_steps/k1_divmod.cuh"
#include "concat_steps/k2_fastdiv.cuh"
#include "concat_steps/k3_vector.cuh"

typedef void (*concat_fn)(const cat_problem *);
static const struct {
  const char *name;
  concat_fn run;
} steps[] = {{"memcpy2d", run_memcpy2d}, {"divmod", run_divmod}, {"fastdiv", run_fastdiv}, {"vector", run_vector}};
#define NSTEPS 4
#define GUARD 256 // poisoned bytes after the output (and the -out_offset bytes before it) that no kernel may write

// -dims=, -splits=: up to max whole numbers from 1 to 2^32 - 1, comma-separated; returns how many
static int parse_list(const char *name, const char *word, size_t *v, int max) {
  int n = 0;
  for (const char *p = word;; p++) { // p: the item after each comma, so "4,,5" and "4,5," have an empty one
    char item[32];
    size_t len = strcspn(p, ",");
    long long x;
    if (n == max) args_fail("-%s=%s: more than %d values", name, word, max);
    snprintf(item, sizeof(item), "%.*s", (int)(len < 31 ? len : 31), p);
    if (len > 31 || args_parse_ll(item, &x) != 1 || x < 1 || x > 4294967295LL)
      args_fail("-%s=%s: '%s' is not a whole number from 1 to 2^32 - 1", name, word, item);
    v[n++] = (size_t)x;
    p += len;
    if (*p == '\0') return n;
  }
}

typedef struct {
  cat_problem P;
  unsigned char *d_out, *h_out; // the output's allocation: out_offset bytes, the output, GUARD bytes
  const unsigned char *gold;
  size_t out_offset, alloc;
  unsigned char poison;
  const char *type, *case_name, *path; // the BENCH lines' keys
  int axis;
} concat_run;

static void poison_output(const concat_run *c) { checkCudaErrors(cudaMemset(c->d_out, c->poison, c->alloc)); }

// what kernel k left in the output, against the gold, bit for bit, and the guard bytes around it; then poisons
// the output again, so that the next runs (the timed ones) must write all of it to pass
static int compare_step(int k, concat_run *c, int verbose, const char *what) {
  checkCudaErrors(cudaMemcpy(c->h_out, c->d_out, c->alloc, cudaMemcpyDeviceToHost));
  poison_output(c);
  size_t elem = c->P.elem, n = c->P.total, bytes = n * elem, nbad = 0, guard = 0, first = 0;
  const unsigned char *out = c->h_out + c->out_offset;
  if (memcmp(out, c->gold, bytes) != 0)
    for (size_t i = n; i-- > 0;)
      if (memcmp(out + i * elem, c->gold + i * elem, elem) != 0) nbad++, first = i;
  for (size_t i = 0; i < c->alloc; i++) {
    if (i == c->out_offset) i += bytes; // the guard bytes only
    guard += c->h_out[i] != c->poison;
  }
  if (verbose) {
    printf("kernel %d (%s): %zu of %zu elements differ from the gold (exact); %zu guard bytes overwritten\n", k,
           steps[k].name, nbad, n, guard);
    if (nbad) {
      unsigned long long got = 0, want = 0;
      memcpy(&got, out + first * elem, elem);
      memcpy(&want, c->gold + first * elem, elem);
      printf("first difference: output element %zu (row %zu, place %zu in it) is 0x%llx, the gold's 0x%llx\n", first,
             first / (c->P.dims[c->P.ax] * c->P.inner), first % (c->P.dims[c->P.ax] * c->P.inner), got, want);
    }
  } else {
    printf("  %d %-8s %s%s: %zu of %zu elements differ, %zu guard bytes overwritten\n", k, steps[k].name,
           nbad || guard ? "FAIL" : "PASS", what, nbad, n, guard);
  }
  return nbad == 0 && guard == 0;
}

static int check_step(int k, concat_run *c, int verbose) {
  poison_output(c);
  steps[k].run(&c->P);
  return compare_step(k, c, verbose, "");
}

// -bench, through common/ladder.h
static int bench_check(void *p, int k) { return check_step(k, (concat_run *)p, 0); }
static int bench_recheck(void *p, int k) { return compare_step(k, (concat_run *)p, 0, " (timed)"); }
static void bench_run(void *p, int k) { steps[k].run(&((concat_run *)p)->P); }

static void bench_keys(void *p, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra) {
  concat_run *c = (concat_run *)p;
  snprintf(prog, nprog, "concat_k%d_%s", k, steps[k].name);
  snprintf(extra, nextra, "kernel=%d%s%s type=%s axis=%d K=%d%s%s x_memcpy2d=%.3f", k, c->case_name[0] ? " case=" : "",
           c->case_name, c->type, c->axis, c->P.K, k == 3 ? " path=" : "", k == 3 ? c->path : "", ms[0] / ms[k]);
}

int main(int argc, char **argv) {
  const char *type = "half", *layout = "nhwc", *dims_word = "none", *splits_word = "none", *expect_path = "any";
  int N = 4, C = 256, H = 64, W = 64, K = 64, axis = 0, kernel = 3, offset = 0, out_offset = 0, bench = 0, seed = 1,
      reps = 20;
  arg_spec opts[] = {
      {"type", ARG_WORD, &type, 0, 0, "float, half or int8"},
      {"layout", ARG_WORD, &layout, 0, 0, "nchw or nhwc: N x C x H x W concatenated along C"},
      {"N", ARG_INT, &N, 1, 2147483647, "batch (with -layout)"},
      {"C", ARG_INT, &C, 1, 2147483647, "channels, split evenly into K inputs (with -layout)"},
      {"H", ARG_INT, &H, 1, 2147483647, "height (with -layout)"},
      {"W", ARG_INT, &W, 1, 2147483647, "width (with -layout)"},
      {"K", ARG_INT, &K, 2, CAT_MAX_INPUTS, "inputs (without -splits)"},
      {"dims", ARG_WORD, &dims_word, 0, 0, "the output's extents, D0,D1,.. (rank 1 to 4), instead of -layout"},
      {"axis", ARG_INT, &axis, 0, 3, "the concat axis (with -dims)"},
      {"splits", ARG_WORD, &splits_word, 0, 0, "each input's extent on the axis, E0,E1,.. (with -dims)"},
      {"offset", ARG_INT, &offset, 0, 255, "bytes each input starts past a 256-byte boundary"},
      {"out_offset", ARG_INT, &out_offset, 0, 255, "bytes the output starts past a 256-byte boundary"},
      {"kernel", ARG_INT, &kernel, 0, NSTEPS - 1, "0 cudaMemcpy2D, 1 / and %, 2 fastdiv, 3 one launch, 16 bytes"},
      {"expect_path", ARG_WORD, &expect_path, 0, 0, "vector, tiled, scalar, by_input or by_row: FAIL if not taken"},
      {"bench", ARG_FLAG, &bench, 0, 1, "check and time every kernel and a copy, print the table and BENCH lines"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the inputs"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  int elem = !strcmp(type, "float") ? 4 : !strcmp(type, "half") ? 2 : !strcmp(type, "int8") ? 1 : 0;
  if (!elem) args_fail("-type=%s: float, half or int8", type);
  if (offset % elem || out_offset % elem)
    args_fail("-offset=%d -out_offset=%d: a %s pointer must be a multiple of %d bytes", offset, out_offset, type, elem);
  char word[64]; // " word ": one of the five, whole
  int expect = strcmp(expect_path, "any") != 0 && snprintf(word, sizeof(word), " %s ", expect_path) > 0;
  if (expect && (strchr(expect_path, ' ') || !strstr(" vector tiled scalar by_input by_row ", word)))
    args_fail("-expect_path=%s: vector, tiled, scalar, by_input or by_row (a vector or scalar path's grid)",
              expect_path);
  if (expect && kernel != 3 && !bench) args_fail("-expect_path is kernel 3's, and this run has no kernel 3");
  size_t dims[4], split[CAT_MAX_INPUTS];
  int rank, nsplit = 0, general = strcmp(dims_word, "none") != 0;
  char case_name[32] = "";
  if (general) {
    if (args_given(argc, argv, "layout") || args_given(argc, argv, "N") || args_given(argc, argv, "C") ||
        args_given(argc, argv, "H") || args_given(argc, argv, "W"))
      args_fail("-dims and -layout/-N/-C/-H/-W are two ways to give the shape: use one");
    rank = parse_list("dims", dims_word, dims, 4);
    if (axis >= rank) args_fail("-axis=%d: a rank-%d tensor has axes 0 to %d", axis, rank, rank - 1);
    if (strcmp(splits_word, "none")) {
      nsplit = parse_list("splits", splits_word, split, CAT_MAX_INPUTS);
      if (nsplit < 2) args_fail("-splits=%s: 2 inputs at least", splits_word);
      if (args_given(argc, argv, "K") && K != nsplit) args_fail("-K=%d but -splits has %d values", K, nsplit);
      size_t sum = 0;
      for (int k = 0; k < nsplit; k++) sum += split[k];
      if (sum != dims[axis])
        args_fail("-splits=%s sums to %zu, not -dims's %zu on axis %d", splits_word, sum, dims[axis], axis);
      K = nsplit;
    }
  } else {
    if (args_given(argc, argv, "axis") || strcmp(splits_word, "none")) args_fail("-axis and -splits go with -dims");
    int nhwc = !strcmp(layout, "nhwc");
    if (!nhwc && strcmp(layout, "nchw")) args_fail("-layout=%s: nchw or nhwc", layout);
    size_t d[4] = {(size_t)N, (size_t)(nhwc ? H : C), (size_t)(nhwc ? W : H), (size_t)(nhwc ? C : W)};
    memcpy(dims, d, sizeof(d));
    rank = 4;
    axis = nhwc ? 3 : 1;
    snprintf(case_name, sizeof(case_name), "cat_%s_k%d", layout, K);
  }
  if (!nsplit) { // dims[axis] split evenly into K: the first dims[axis] % K inputs get one more
    if (dims[axis] < (size_t)K) args_fail("%zu on the axis cannot be split into %d inputs of 1 or more", dims[axis], K);
    for (int k = 0; k < K; k++) split[k] = dims[axis] / K + ((size_t)k < dims[axis] % K);
  }
  double total = 1;
  for (int d = 0; d < rank; d++) total *= (double)dims[d];
  if (total > 4294967295.0) args_fail("%.0f elements: the kernels index in 32 bits, 2^32 - 1 at most", total);
  int user_sized = general || args_given(argc, argv, "N") || args_given(argc, argv, "C") ||
                   args_given(argc, argv, "H") || args_given(argc, argv, "W") || args_given(argc, argv, "K");

  concat_run c;
  memset(&c, 0, sizeof(c));
  cat_problem_init(&c.P, elem, rank, dims, axis, K, split);
  size_t bytes = c.P.total * elem, pos[CAT_MAX_INPUTS], in_alloc = 0;
  for (int k = 0; k < K; k++) { // input k at a 256-byte boundary plus -offset
    pos[k] = ceil_div(in_alloc, (size_t)256) * 256 + offset;
    in_alloc = pos[k] + cat_input_elems(&c.P, k) * elem;
  }
  c.out_offset = out_offset;
  c.alloc = out_offset + bytes + GUARD;
  c.poison = elem == 1 ? CONCAT_POISON_INT8 : CONCAT_POISON; // bytes no input element is made of (concat_inputs)

  int dev = findCudaDevice(argc, argv);
  device_memory_check(in_alloc + c.alloc, "the inputs and the output", user_sized);

  // the inputs, back to back on the host: hashed bits (every sign, subnormals, NaNs), none the poison
  unsigned char *h_in = (unsigned char *)malloc(bytes), *gold = (unsigned char *)malloc(bytes);
  c.h_out = (unsigned char *)malloc(c.alloc);
  if (!h_in || !gold || !c.h_out) return result_fail("out of host memory");
  concat_inputs(h_in, c.P.total, (size_t)elem, (unsigned)seed);
  const void *h_ins[CAT_MAX_INPUTS];
  for (int k = 0; k < K; k++)
    h_ins[k] = k ? (const unsigned char *)h_ins[k - 1] + cat_input_elems(&c.P, k - 1) * elem : h_in;

  // Gold treatment
  double t0 = wall_ms();
  Gold_concat(h_ins, K, split, dims, rank, axis, (size_t)elem, gold);
  c.gold = gold;
  char shape[96] = "";
  for (int d = 0; d < rank; d++)
    snprintf(shape + strlen(shape), sizeof(shape) - strlen(shape), d ? "x%zu" : "%zu", dims[d]);
  printf("concat along axis %d of %d %s inputs (extents on it %zu, %zu%s) -> %s, %zu elements (%.1f MB); concat_gold "
         "%.1f ms\n%zu rows of %zu bytes, input 0's run %zu bytes; inputs %d and output %d bytes past 256-byte "
         "boundaries\n",
         axis, K, type, split[0], split[1], K > 2 ? ", ..." : "", shape, c.P.total, bytes * 1e-6, wall_ms() - t0,
         c.P.rows, cat_row_bytes(&c.P), cat_run_bytes(&c.P, 0), offset, out_offset);

  // copy the inputs to the device
  unsigned char *d_in;
  checkCudaErrors(cudaMalloc((void **)&d_in, in_alloc));
  checkCudaErrors(cudaMalloc((void **)&c.d_out, c.alloc));
  for (int k = 0; k < K; k++) {
    c.P.in[k] = d_in + pos[k];
    checkCudaErrors(cudaMemcpy(d_in + pos[k], h_ins[k], cat_input_elems(&c.P, k) * elem, cudaMemcpyHostToDevice));
  }
  c.P.out = c.d_out + out_offset;

  // kernel 3's path, from the shape and the pointers, once
  char why[256];
  cat_path path = vector_setup(&c.P, device_limits(dev)->sms, why, sizeof(why));
  int ok = 1;
  if (kernel == 3 || bench) {
    printf("kernel 3 path: %s (%s)\n", cat_path_names[path], why);
    const char *grid = path == CAT_TILED ? "" : vector_by_input ? "by_input" : "by_row";
    if (expect && strcmp(expect_path, cat_path_names[path]) && strcmp(expect_path, grid))
      return result_fail("kernel 3 took the %s path%s%s; the line expected %s", cat_path_names[path], *grid ? ", " : "",
                         grid, expect_path);
  }
  if (!bench) {
    ok = check_step(kernel, &c, 1);
  } else {
    double traffic = 2.0 * (double)bytes; // each element read once and written once
    bench_ref ref = bench_reference(dev, traffic, reps);
    c.type = type, c.case_name = case_name, c.path = cat_path_names[path], c.axis = axis;
    const char *names[NSTEPS];
    for (int k = 0; k < NSTEPS; k++) names[k] = steps[k].name;
    char header[192];
    snprintf(header, sizeof(header), "\n%s, %.1f MB moved; copy %.1f GB/s, peak %.1f GB/s\n%s", shape, traffic * 1e-6,
             ref.copy_GBps, ref.peak_GBps, "  kernel          ms      GB/s   % copy  x memcpy2D");
    ladder L;
    memset(&L, 0, sizeof(L));
    L.nsteps = NSTEPS; // the kernels, their names, and the calls
    L.names = names;
    L.name_width = 8;
    L.ctx = &c;
    L.check = bench_check;
    L.run = bench_run;
    L.recheck = bench_recheck;
    L.warmup = 3;
    L.reps = reps;
    L.header = header; // the table: GB/s, % of the copy, x memcpy2D
    L.peer = "memcpy2D";
    L.bytes = traffic;
    L.ref = &ref;
    L.ratio_width = 10;
    L.prac = "6"; // the BENCH lines
    L.size = shape;
    L.bench_keys = bench_keys;
    double ms[NSTEPS];
    int passed[NSTEPS];
    ok = ladder_bench(&L, ms, passed);
  }

  // free
  checkCudaErrors(cudaFree(d_in));
  checkCudaErrors(cudaFree(c.d_out));
  free(h_in);
  free(gold);
  free(c.h_out);
  return result_check(ok, "a kernel's output differs from the gold or wrote outside it (see above)");
}
