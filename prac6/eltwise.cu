/*
 * eltwise.cu -- practical 6, step 8: binary element-wise operators with NumPy broadcasting over any strides, on
 * half, float and int8: what a framework runs all the time (PyTorch's TensorIterator), out = a OP b with
 *   OP  add sub mul div max min | and or xor (int8; uint8 0/1 out) | lt le eq ne gt ge (uint8 0/1 out).
 * The output is contiguous; a and b are views (elementwise/views.h): contiguous, broadcast ([C,1,1] over NCHW,
 * [1,1,1,C] over NHWC, a scalar), transposed, a slice with a step, any strides, from any offset. Before
 * launching, adjacent dimensions contiguous in every operand are merged (elementwise/plan.h).
 *   -kernel=0  the copy of as many bytes: the 100 % line                       elementwise/k0_copy.cuh
 *   -kernel=1  one thread per element, coordinates by / and %                  elementwise/k1_divmod.cuh
 *   -kernel=2  the same by fastdiv (step 6)                                    elementwise/k2_fastdiv.cuh
 *   -kernel=3  16 bytes per thread (half8) wherever each operand allows it       elementwise/k3_half8.cuh
 *   -kernel=4  kernel 3, a transposed operand through a shared-memory tile     elementwise/k4_tiled.cuh
 * Each kernel's output is compared with Gold_eltwise (eltwise_gold.c) exactly, NaN equal to any NaN (why exact
 * is right for half: eltwise_gold.c), after runs into two different poisons. Without -kernel, kernels 1 to 4 are
 * checked; -op=all checks every operator the type takes; -bench checks and times 0 to 4 (common/ladder.h).
 *   ./eltwise -op=mul -type=half -shape=64,256,128,128 -b=shape:256,1,1
 *   ./eltwise -op=add -type=half -case=add_contig -bench
 *   nvcc -O3 -arch=native -std=c++17 -I. -I../common eltwise.cu eltwise_gold.c fastdiv_gold.c -o eltwise   (in prac6/)
 */
#define COURSE_STEPS "practical 6, workbook step 8 (beyond the course)"
// make exercises: ./exercises/eltwise, built with -DEXERCISE, runs kernel 3 from the learner's file,
// exercises/k3_half8.cuh, without -kernel; its verdict names the file (before gold_check.h)
#ifdef EXERCISE
#define EXERCISE_TODO "fill in the TODO(step 8)s in exercises/k3_half8.cuh"
#define ELT_DEFAULT_KERNEL 3
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "ladder.h"
#include "timing.h"

#include "prac6_gold.h" // the gold, and step 6's fastdiv_make (fastdiv_gold.c, linked in: Makefile)
#include "elementwise/geom.cuh"
#include "elementwise/ops.cuh"
#include "elementwise/table.h"
#include "elementwise/k0_copy.cuh"
#include "elementwise/k1_divmod.cuh"
#include "elementwise/k2_fastdiv.cuh"
#ifndef EXERCISE
#include "elementwise/k3_half8.cuh"
#else // make exercises: kernel 3 with the lesson cut out
#include "exercises/k3_half8.cuh"
#endif
#include "elementwise/k4_tiled.cuh"
#include "elementwise/steps.cuh"

#ifndef ELT_DEFAULT_KERNEL
#define ELT_DEFAULT_KERNEL -1 // each of kernels 1 to 4
#endif

// two poisons, neither a NaN in half or float: an element no run writes keeps one, and cannot equal the gold
// under both
static const unsigned char poisons[2] = {0xa5, 0x5a};

typedef struct {
  elt_call call;
  elt_dims d;                  // the views as given: the gold's, and the coordinates in messages
  long long ooff;              // the output's first element, elements into its allocation
  void *d_out;                 // the output's allocation
  size_t out_bytes, os;        // its bytes; an output element's
  unsigned char *h_out, *h_gold;
  const char *case_name;
  elt_copy copy;
} elt_ctx;

static int out_is_nan(const unsigned char *p, size_t os) {
  uint32_t u = 0;
  memcpy(&u, p, os);
  return os == 2 ? (u & 0x7fffu) > 0x7c00u : os == 4 ? (u & 0x7fffffffu) > 0x7f800000u : 0;
}

static void print_value(const unsigned char *p, const elt_call *c) {
  uint16_t h;
  float f;
  if (!elt_is_arith(c->op)) printf("%u", *p);
  else if (c->type == ELT_HALF) memcpy(&h, p, 2), printf("%.9g (0x%04x)", half_to_float(h), h);
  else if (c->type == ELT_FLOAT) memcpy(&f, p, 4), printf("%.9g", f);
  else printf("%d", (int)(int8_t)*p);
}

// the output's allocation, copied back: its elements that differ from the gold (bit for bit, or both NaN), and
// the bytes before its first element and in the guard after its last that lost the poison (a store out of
// bounds); *first: the first element that differs
#define ELT_GUARD 256 // bytes of poison after the output
static size_t out_wrong(elt_ctx *x, unsigned char poison, long long *first) {
  checkCudaErrors(cudaMemcpy(x->h_out, x->d_out, x->out_bytes, cudaMemcpyDeviceToHost));
  size_t os = x->os, guard = (size_t)x->ooff * os, n = (size_t)elt_count(&x->d), bad = 0;
  *first = -1;
  for (size_t j = 0; j < guard; j++) bad += x->h_out[j] != poison;
  for (size_t j = guard + n * os; j < x->out_bytes; j++) bad += x->h_out[j] != poison; // the guard after it
  for (size_t i = 0; i < n; i++) {
    const unsigned char *p = x->h_out + guard + i * os, *q = x->h_gold + i * os;
    if (memcmp(p, q, os) && !(out_is_nan(p, os) && out_is_nan(q, os))) {
      if (*first < 0) *first = (long long)i;
      bad++;
    }
  }
  return bad;
}

static void report(elt_ctx *x, int k, size_t bad, long long first, const char *what) {
  printf("  %-4s %d %-8s %s%s: %zu of %lld elements differ from the gold", elt_op_names[x->call.op], k,
         elt_step_names[k], bad ? "FAIL" : "PASS", what, bad, elt_count(&x->d));
  if (first >= 0) {
    long long c[ELT_MAX_DIMS], f = first;
    for (int j = x->d.rank - 1; j >= 0; j--) c[j] = f % x->d.extent[j], f /= x->d.extent[j];
    printf(", the first at (");
    for (int j = 0; j < x->d.rank; j++) printf("%s%lld", j ? ", " : "", c[j]);
    printf("): ");
    print_value(x->h_out + (size_t)x->ooff * x->os + (size_t)first * x->os, &x->call);
    printf(", gold ");
    print_value(x->h_gold + (size_t)first * x->os, &x->call);
  } else if (bad) {
    printf(" (the bytes before the output's first element were written)");
  }
  printf("\n");
}

// kernel k into each poison in turn, compared with the gold; the output is left poisoned, so that what runs
// next (the timed runs) must write every element again to pass the recheck
static int check_step(void *p, int k) {
  elt_ctx *x = (elt_ctx *)p;
  size_t bad = 0;
  long long first = -1;
  for (int r = 0; r < 2 && !bad; r++) {
    if (k == 0) {
      copy_run(&x->copy);
      bad = (size_t)copy_wrong(&x->copy);
      continue;
    }
    checkCudaErrors(cudaMemset(x->d_out, poisons[r], x->out_bytes));
    elt_run(k, &x->call);
    bad = out_wrong(x, poisons[r], &first);
  }
  checkCudaErrors(cudaMemset(x->d_out, poisons[0], x->out_bytes));
  if (k == 0) printf("       0 copy     %s: %zu of %zu words differ from the source\n", bad ? "FAIL" : "PASS", bad,
                     x->copy.words);
  else report(x, k, bad, first, "");
  return bad == 0;
}

// after step k's timed runs: what the last one left, against the gold (nothing run again); a line if it differs
static int recheck_step(void *p, int k) {
  elt_ctx *x = (elt_ctx *)p;
  long long first = -1;
  size_t bad = k == 0 ? (size_t)copy_wrong(&x->copy) : out_wrong(x, poisons[0], &first);
  checkCudaErrors(cudaMemset(x->d_out, poisons[0], x->out_bytes));
  if (bad && k == 0) printf("       0 copy     FAIL after its timed runs: %zu words differ from the source\n", bad);
  else if (bad) report(x, k, bad, first, " after its timed runs");
  return bad == 0;
}

static void run_step(void *p, int k) {
  elt_ctx *x = (elt_ctx *)p;
  if (k == 0) copy_run(&x->copy);
  else elt_run(k, &x->call);
}

static void bench_keys(void *p, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra) {
  const elt_ctx *x = (const elt_ctx *)p;
  const char *path = k < 3 ? elt_step_names[k] : k == 4 && x->call.tiled.tiled ? "tiled"
                     : x->call.half8.vector ? "vec" : "element";
  snprintf(prog, nprog, "eltwise_k%d_%s", k, elt_step_names[k]);
  snprintf(extra, nextra, "case=%s type=%s op=%s kernel=%d path=%s x_copy=%.3f", x->case_name,
           elt_type_names[x->call.type], elt_op_names[x->call.op], k, path, ms[0] / ms[k]);
}

int main(int argc, char **argv) {
  const char *op_w = "add", *type_w = "half", *case_w = "none", *shape_w = "64,256,64,64", *a_w = "contig",
             *b_w = "contig", *data_w = "mixed", *expect_w = "any";
  long long aoff = 0, boff = 0, ooff = 0;
  int kernel = ELT_DEFAULT_KERNEL, bench = 0, seed = 1, reps = 20;
  arg_spec opts[] = {
      {"op", ARG_WORD, &op_w, 0, 0, "add sub mul div max min, and or xor (int8), lt le eq ne gt ge; all: each"},
      {"type", ARG_WORD, &type_w, 0, 0, "half, float or int8"},
      {"case", ARG_WORD, &case_w, 0, 0, "a benched case (sets -op, -shape, -a, -b): add_contig lt_contig "
                                         "mul_bcast_c add_transposed add_slice2"},
      {"shape", ARG_WORD, &shape_w, 0, 0, "the output's extents, outer to inner: 1 to 4 of them"},
      {"a", ARG_WORD, &a_w, 0, 0, "a's view: contig, scalar, shape:E,.., strides:S,.., transposed, step:K"},
      {"b", ARG_WORD, &b_w, 0, 0, "b's view (as -a)"},
      {"aoffset", ARG_LONG, &aoff, 0, ELT_INDEX_MAX, "a's first element, elements into its allocation"},
      {"boffset", ARG_LONG, &boff, 0, ELT_INDEX_MAX, "b's first element, elements into its allocation"},
      {"ooffset", ARG_LONG, &ooff, 0, ELT_INDEX_MAX, "the output's first element, elements into its allocation"},
      {"data", ARG_WORD, &data_w, 0, 0, "mixed (random, NaN, Inf, -0, half's largest) or mask (int8 0/1)"},
      {"kernel", ARG_INT, &kernel, -1, ELT_NSTEPS - 1, "0 the copy, 1 to 4 the ladder; -1: each of 1 to 4"},
      {"bench", ARG_FLAG, &bench, 0, 1, "check and time kernels 0 to 4, print the table and BENCH lines"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the inputs"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is used)"},
      {"expect_path", ARG_WORD, &expect_w, 0, 0, "element, or a's and b's loads (v, b, e: vv, vb, ...): FAIL if not"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  int type = elt_lookup(type_w, elt_type_names, ELT_NTYPES), op = elt_lookup(op_w, elt_op_names, ELT_NOPS);
  int all = strcmp(op_w, "all") == 0, mask = strcmp(data_w, "mask") == 0;
  const elt_case *cs = NULL;
  for (int i = 0; i < ELT_NCASES; i++)
    if (strcmp(case_w, elt_cases[i].name) == 0) cs = &elt_cases[i];
  if (type < 0) args_fail("-type=%s: half, float or int8", type_w);
  if (op < 0 && !all) args_fail("-op=%s: add sub mul div max min and or xor lt le eq ne gt ge, or all", op_w);
  if (!cs && strcmp(case_w, "none"))
    args_fail("-case=%s: add_contig lt_contig mul_bcast_c add_transposed add_slice2", case_w);
  if (cs && (args_given(argc, argv, "shape") || args_given(argc, argv, "a") || args_given(argc, argv, "b")))
    args_fail("-case=%s sets -shape, -a and -b itself", case_w);
  if (cs && args_given(argc, argv, "op") && op != cs->op) args_fail("-case=%s is -op=%s", case_w, elt_op_names[cs->op]);
  if (cs) op = cs->op, all = 0, shape_w = elt_case_shape(type), a_w = cs->a, b_w = cs->b;
  if (all && bench) args_fail("-op=all checks every operator; -bench times one");
  if (!all && !elt_op_takes(op, type)) args_fail("-op=%s: the logical operators take int8", op_w);
  if (!elt_path_code_valid(expect_w)) args_fail("-expect_path=%s: element, or two of v, b, e (a's, b's loads)", expect_w);
  if ((!mask && strcmp(data_w, "mixed")) || (mask && type != ELT_INT8))
    args_fail("-data=%s: mixed, or mask (0/1 bytes) with -type=int8", data_w);
  elt_ctx x = elt_ctx(); // every field zero
  char msg[ARG_MSG_LEN];
  if (elt_parse_shape(shape_w, &x.d, msg, sizeof(msg)) || elt_parse_view(a_w, aoff, &x.d, 1, msg, sizeof(msg)) ||
      elt_parse_view(b_w, boff, &x.d, 2, msg, sizeof(msg)))
    args_fail("%s", msg);
  long long n = elt_count(&x.d);
  if (ooff + n > ELT_INDEX_MAX) args_fail("-ooffset=%lld: the output would reach past element 2^31 - 1", ooff);
  x.ooff = ooff, x.case_name = cs ? cs->name : "custom";
  int dev = findCudaDevice(argc, argv);
  size_t es = elt_size(type), os_max = all ? es : elt_out_size(op, type);
  size_t abytes = (size_t)(aoff + x.d.span[1]) * es, bbytes = (size_t)(boff + x.d.span[2]) * es;
  size_t obytes = (size_t)(ooff + n) * os_max + ELT_GUARD, traffic = (size_t)elt_traffic(&x.d, es, os_max);
  int with_copy = bench || kernel == 0;
  device_memory_check(abytes + bbytes + obytes + (with_copy ? traffic : 0),
                      with_copy ? "a, b, the output and the copy's two buffers" : "a, b and the output",
                      args_given(argc, argv, "shape"));
  unsigned char *h_a = (unsigned char *)malloc(abytes), *h_b = (unsigned char *)malloc(bbytes);
  x.h_out = (unsigned char *)malloc(obytes), x.h_gold = (unsigned char *)malloc((size_t)n * os_max);
  if (!h_a || !h_b || !x.h_out || !x.h_gold) return result_fail("out of host memory");
  eltwise_inputs(h_a, abytes / es, type, mask, 0, (unsigned)seed);
  eltwise_inputs(h_b, bbytes / es, type, mask, 1, (unsigned)seed);
  char *d_a, *d_b;
  checkCudaErrors(cudaMalloc((void **)&d_a, abytes));
  checkCudaErrors(cudaMalloc((void **)&d_b, bbytes));
  checkCudaErrors(cudaMalloc((void **)&x.d_out, obytes));
  checkCudaErrors(cudaMemcpy(d_a, h_a, abytes, cudaMemcpyHostToDevice));
  checkCudaErrors(cudaMemcpy(d_b, h_b, bbytes, cudaMemcpyHostToDevice));
  x.call.type = type, x.call.a = d_a + aoff * es, x.call.b = d_b + boff * es;
  elt_dims m = elt_merge(&x.d);
  printf("%s %s: out %s, a %s, b %s (offsets %lld %lld %lld)\n", all ? "all" : elt_op_names[op], type_w, shape_w, a_w,
         b_w, aoff, boff, ooff);
  elt_print_merge(&x.d, &m);
  bench_ref ref = bench ? bench_reference(dev, (double)traffic, reps) : bench_ref();
  if (with_copy) copy_setup(&x.copy, traffic / 2, bench && ref.kernel_copy_GBps > ref.memcpy_GBps);

  int ok = 1;
  for (int o = all ? 0 : op; o <= (all ? ELT_NOPS - 1 : op); o++) {
    if (!elt_op_takes(o, type)) continue;
    x.call.op = o, x.os = elt_out_size(o, type), x.out_bytes = (size_t)(ooff + n) * x.os + ELT_GUARD;
    x.call.out = (char *)x.d_out + ooff * x.os;
    unsigned long long addr[3] = {(uintptr_t)x.call.out, (uintptr_t)x.call.a, (uintptr_t)x.call.b};
    size_t esize[3] = {x.os, es, es};
    elt_call_setup(&x.call, &m, addr, esize, TILED_TP);
    if (strcmp(expect_w, "any") && strcmp(expect_w, elt_path_code(&x.call.half8)))
      return result_fail("kernel 3 took the %s path (%s); the line expected %s", elt_path_code(&x.call.half8),
                         x.call.half8.why, expect_w);
    long long ext[4], as[4], bs[4];
    elt_pad4(&x.d, 1, ext, as);
    elt_pad4(&x.d, 2, ext, bs);
    double t0 = wall_ms(); // Gold treatment
    Gold_eltwise(o, type, ext, h_a + aoff * es, as, h_b + boff * es, bs, x.h_gold);
    printf("%s: Gold_eltwise %.1f ms\n  kernel 3: %s\n  kernel 4: %s\n", elt_op_names[o], wall_ms() - t0,
           x.call.half8.why, x.call.tiled.why);
    if (!bench) {
      for (int k = 0; k < ELT_NSTEPS; k++)
        if (kernel < 0 ? k > 0 : k == kernel) ok = check_step(&x, k) && ok;
      continue;
    }
    char header[256], size[64];
    snprintf(header, sizeof(header), "\n%s %s, %s, %.1f MB moved; copy %.1f GB/s, peak %.1f GB/s\n"
             "  kernel            ms      GB/s   %% copy   x copy", elt_op_names[o], type_w, x.case_name,
             (double)traffic * 1e-6, ref.copy_GBps, ref.peak_GBps);
    elt_size_string(&x.d, size, sizeof(size));
    ladder L;
    memset(&L, 0, sizeof(L));
    L.nsteps = ELT_NSTEPS, L.names = elt_step_names, L.name_width = 8, L.ctx = &x; // the steps and the calls
    L.check = check_step, L.run = run_step, L.recheck = recheck_step, L.warmup = 3, L.reps = reps;
    L.header = header, L.peer = "copy", L.bytes = (double)traffic, L.ref = &ref, L.ratio_width = 8; // the table
    L.prac = "6", L.size = size, L.bench_keys = bench_keys; // the BENCH lines
    double ms[ELT_NSTEPS];
    int passed[ELT_NSTEPS];
    ok = ladder_bench(&L, ms, passed) && ok;
  }

  if (with_copy) copy_teardown(&x.copy);
  checkCudaErrors(cudaFree(d_a));
  checkCudaErrors(cudaFree(d_b));
  checkCudaErrors(cudaFree(x.d_out));
  free(h_a);
  free(h_b);
  free(x.h_out);
  free(x.h_gold);
  return result_check(ok, "a kernel's output differs from the gold (see above)");
}
