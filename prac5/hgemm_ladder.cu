/*
 * hgemm_ladder.cu -- practical 5, step 9: the tensor cores by hand. C = A B with A and B in FP16 or BF16
 * (-type=), the products summed in FP32 and C in FP32, BLAS's names as sgemm_ladder.cu has them: C is M x N,
 * A is M x K, B is K x N, all row-major, K the inner length. One kernel per file, each against cuBLAS:
 *   -kernel=0  cublasGemmEx, FP16/BF16 in, CUBLAS_COMPUTE_32F, FP32 out  hgemm/k0_cublas.cuh
 *              or cublasLtMatmul (-lt; -bench and -shapes time both, the faster is kernel 0)  hgemm/k0_cublaslt.cuh
 *   -kernel=1  WMMA: one warp per 16 x 16 tile, A and B from global      hgemm/k1_wmma.cuh
 *   -kernel=2  shared-memory tiles by cp.async, double buffered; bank     hgemm/k2_smem.cuh
 *              conflicts with -smem=plain, none with -smem=pad (the default)
 *   -kernel=3  mma.sync and ldmatrix by inline PTX: register fragments,  hgemm/k3_mma.cuh
 *              a 64 x 64 warp tile, XOR-swizzled tiles, 3 or 4 stages (h3_stages; -stages=3 forces 3; the
 *              default kernel from 8.0 on)
 *   -kernel=4  Hopper (9.0, sm_90a code): wgmma on a warpgroup, tiles by   hgemm/k4_wgmma.cuh
 *              TMA, mbarriers, 4 stages, a producer warpgroup and two consumers; where K or N is not a multiple
 *              of 8 (rows TMA cannot read) A or B is copied to padded rows first, said in one line; host side in
 *                                                                                      hgemm/k4_host.cuh
 * The tensor cores multiply FP16 from compute capability 7.0 and BF16 from 8.0, and kernel 3's m16n8k16 needs 8.0
 * in either type: -type=bf16 and -kernel=3 SKIP, with their reason, where this binary's code for the GPU (or the
 * GPU) is older than 8.0; there the default is kernel 2, and -bench leaves kernel 3 out. -kernel=4 SKIPs, and
 * -bench leaves it out, unless the GPU is 9.0 and this binary holds sm_90a code for it.
 *
 * The oracle, for every kernel, cuBLAS included: every element of C against C64, the product in double on the
 * device (sgemm/reference.cuh: cublasDgemm on A and B widened exactly), within tau s, s = |A| |B|, where
 * tau = gamma(5 ceil(K/4), 2^-23) + 2 gamma64(K): FP32 sums of exact products, with the truncation of the tensor
 * cores' adders allowed for (derived in hgemm/hgemm_host.h). C64 is itself checked against a double gold on the
 * host (sampled rows). -fault=tile shows the check failing: one tile of C summed one term short.
 * -bench checks every kernel, then times each (median of -reps): one table of ms, TFLOP/s and % of cuBLAS, and a
 * BENCH line per kernel. -shapes does the same for kernels 3 and 4 over sgemm_ladder's shapes (hgemm/shapes.cuh).
 *   nvcc -O3 -arch=native -I. -I../common hgemm_ladder.cu prac5_gold.c -lcublas -lcublasLt -o hgemm_ladder
 * On an H100 or H200 -arch=native makes sm_90 code, without wgmma, so -kernel=4 SKIPs: -arch=sm_90a there (make
 * builds the 9.0 code so, prac5/Makefile).
 */
#define COURSE_STEPS "practical 5, workbook step 9 (kernel 1: the 2025 course's WMMA GEMM; kernels 2-4 beyond " \
                     "the course)"
// make exercises: ./exercises/hgemm_ladder, built with -DEXERCISE, runs kernel 1 from the learner's file,
// exercises/h1_wmma.cuh, and kernel 1 without -kernel; its verdict names the file (gold_check.h)
#ifdef EXERCISE
#define EXERCISE_TODO "fill in the TODO(step 9)s in exercises/h1_wmma.cuh (kernel 1)"
#define HGEMM_DEFAULT_KERNEL 1
#endif
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cp_async.h"
#include "gold_check.h"
#include "helper_cuda.h"
#include "ladder.h"
#include "timing.h"

#include "prac5_gold.h"

#include "hgemm/hgemm.h"
#include "hgemm/oracle.h"
#include "hgemm/k0_cublas.cuh"
#include "hgemm/k0_cublaslt.cuh"
#ifndef EXERCISE
#include "hgemm/k1_wmma.cuh"
#else // make exercises: kernel 1 with its fragment calls cut out
#include "exercises/h1_wmma.cuh"
#endif
#include "hgemm/k2_smem.cuh"
#include "hgemm/k3_mma.cuh"
#include "hgemm/k4_wgmma.cuh"
#include "hgemm/k4_host.cuh"

// the kernel run without -kernel: the fastest (kernel 2 where this build or GPU cannot run kernel 3); the
// starting file makes it the kernel left to write
#ifndef HGEMM_DEFAULT_KERNEL
#define HGEMM_DEFAULT_KERNEL 3
#endif

static const hgemm_step steps[] = {
    {"cublas", {run_cublas_peer<__half>, run_cublas_peer<__nv_bfloat16>}},
    {"wmma", {run_wmma<__half>, run_wmma<__nv_bfloat16>}},
    {"smem", {run_smem<__half>, run_smem<__nv_bfloat16>}},
    {"mma", {run_mma<__half>, run_mma<__nv_bfloat16>}},
    {"wgmma", {run_wgmma<__half>, run_wgmma<__nv_bfloat16>}},
};
#define NSTEPS ((int)(sizeof(steps) / sizeof(steps[0])))

// -bench and -shapes: cuBLAS's two calls on this problem, each checked and timed (median of reps; cublasLtMatmul
// first); the faster is kernel 0, the peer every other kernel is held against. Where the two run the same kernel
// their times differ by noise, and the name of the faster may change from run to run
static int hgemm_choose_peer(hgemm_problem *p, int reps, int verbose) {
  static const hgemm_step ex = {"cublas", {run_cublas<__half>, run_cublas<__nv_bfloat16>}};
  static const hgemm_step lt = {"cublaslt", {run_cublaslt<__half>, run_cublaslt<__nv_bfloat16>}};
  h0_use_lt = 0;
  if (!h0_plan_for_type(p->bf16, p->M, p->N, p->K)) {
    if (verbose) printf("cuBLAS's call: cublasGemmEx (cublasLt's heuristic offers no algorithm here)\n");
    return 1;
  }
  const hgemm_step *call[2] = {&lt, &ex};
  double ms[2];
  int ok = 1;
  for (int c = 0; c < 2; c++) { // checked, timed, and what its last timed run left checked again
    ok = hgemm_check(0, call[c], p, -1) && ok;
    p->run = call[c]->run[p->bf16];
    ms[c] = time_median_ms(hgemm_run, p, 2, reps);
    ok = hgemm_recheck(0, call[c]->name, p) && ok;
  }
  double ms_lt = ms[0], ms_ex = ms[1];
  h0_use_lt = ok && ms_lt < ms_ex;
  if (verbose)
    printf("cuBLAS's call: cublasLtMatmul (its heuristic's first algorithm, %u MiB of workspace) %.4f ms, "
           "cublasGemmEx %.4f ms: kernel 0 is %s\n", H0_LT_WORKSPACE >> 20, ms_lt, ms_ex,
           h0_use_lt ? "cublasLtMatmul" : "cublasGemmEx");
  return ok;
}
#include "gemm_shapes.h"
#include "hgemm/shapes.cuh"

// -bench, through common/ladder.h: cuBLAS (kernel 0) is checked first, as the peer of every other kernel
typedef struct {
  hgemm_problem *p;
  int base_ok;
  double flops;
} bench_ctx;

static int bench_check(void *c, int k) {
  bench_ctx *b = (bench_ctx *)c;
  return k == 0 ? b->base_ok : hgemm_check(k, &steps[k], b->p, 0);
}

// the C that step k's last timed run left (the checks leave C poisoned, so each step's timed runs start from NaN)
static int bench_recheck(void *c, int k) {
  bench_ctx *b = (bench_ctx *)c;
  return hgemm_recheck(k, steps[k].name, b->p);
}

static void bench_run(void *c, int k) {
  bench_ctx *b = (bench_ctx *)c;
  b->p->run = steps[k].run[b->p->bf16];
  hgemm_run(b->p);
}

static void bench_keys(void *c, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra) {
  bench_ctx *b = (bench_ctx *)c;
  snprintf(prog, nprog, "hgemm_k%d_%s", k, steps[k].name);
  double tflops = b->flops / (ms[k] * 1e-3) / 1e12;
  snprintf(extra, nextra, "kernel=%d type=%s smem=%s TFLOPs=%.2f pct_cublas=%.1f cublas_call=%s", k,
           b->p->bf16 ? "bf16" : "fp16", s2_layout == HGEMM_SMEM_PAD ? "pad" : "plain", tflops, 100.0 * ms[0] / ms[k],
           h0_use_lt ? "cublaslt" : "gemmex");
}

int main(int argc, char **argv) {
  int M = 2048, N = 2048, K = 2048, kernel = HGEMM_DEFAULT_KERNEL, bench = 0, seed = 1, reps = 10, shapes = 0;
  int use_lt = 0, stages = 0;
  const char *type_word = "fp16", *smem_word = "pad", *fault = NULL;
  arg_spec opts[] = {
      {"M", ARG_INT, &M, 1, 1 << 20, "rows of A and C"},
      {"N", ARG_INT, &N, 1, 1 << 20, "columns of B and C"},
      {"K", ARG_INT, &K, 1, 1 << 20, "columns of A, rows of B (the length of each dot product)"},
      {"kernel", ARG_INT, &kernel, 0, NSTEPS - 1,
       "the kernel: 0 cuBLAS, 1 WMMA, 2 shared-memory tiles, 3 mma.sync and ldmatrix (8.0 on), "
       "4 wgmma and TMA (9.0)"},
      {"type", ARG_WORD, &type_word, 0, 0, "the inputs' type: fp16 or bf16"},
      {"smem", ARG_WORD, &smem_word, 0, 0, "kernel 2's tile layout: pad (conflict-free) or plain"},
      {"stages", ARG_INT, &stages, 0, 4, "kernel 3's pipeline stages, 3 or 4 (0: 4 where two 64 KB blocks fit an "
       "SM, else 3)"},
      {"bench", ARG_FLAG, &bench, 0, 1, "check and time every kernel, print the table and BENCH lines"},
      {"shapes", ARG_FLAG, &shapes, 0, 1, "kernels 3 and 4 against cuBLAS over sgemm_ladder's shapes (gemm_shapes.h)"},
      {"lt", ARG_FLAG, &use_lt, 0, 1, "kernel 0 by cublasLtMatmul (the heuristic's first algorithm), not cublasGemmEx"},
      {"fault", ARG_WORD, &fault, 0, 0, "tile: the kernel's C with one tile summed one term short, which must FAIL"},
      {"seed", ARG_INT, &seed, 0, 2147483647, "seed for the inputs"},
      {"reps", ARG_INT, &reps, 1, 1000, "timed repetitions for -bench (the median is used)"},
  };
  args_parse_or_exit(argc, argv, opts, ARG_COUNT(opts));
  if ((long long)M * K > 2147483647LL || (long long)K * N > 2147483647LL || (long long)M * N > 2147483647LL)
    args_fail("-M=%d -N=%d -K=%d: a matrix of more than 2^31 - 1 elements", M, N, K);
  int bf16 = 0;
  if (type_word && !strcmp(type_word, "bf16")) bf16 = 1;
  else if (type_word && strcmp(type_word, "fp16")) args_fail("-type=%s: the types are fp16 and bf16", type_word);
  if (smem_word && !strcmp(smem_word, "xor"))
    args_fail("-smem=xor: load_matrix_sync reads a fragment at one row stride for the whole warp, and a swizzled "
              "tile has none (hgemm/k2_smem.cuh); kernel 3 reads its swizzled tiles with ldmatrix");
  if (!hgemm_smem_parse(smem_word, &s2_layout)) args_fail("-smem=%s: the layouts are pad and plain", smem_word);
  if (fault && strcmp(fault, "tile")) args_fail("-fault=%s: the one fault is tile", fault);
  if (fault && bench) args_fail("-fault is for one kernel's check, not -bench");
  if (shapes && (fault || bench || use_lt || args_given(argc, argv, "kernel") || args_given(argc, argv, "smem")))
    args_fail("-shapes runs kernels 0, 3 and 4 at its own sizes, kernel 0 the faster of cuBLAS's two calls: give it "
              "none of -fault, -bench, -kernel, -smem, -lt");
  if (stages == 1 || stages == 2) args_fail("-stages=%d: kernel 3 runs 3 or 4 stages", stages);
  if (stages && (fault || !(bench || shapes || kernel == 3)))
    args_fail("-stages=%d is kernel 3's: give it with -kernel=3, -bench or -shapes (and no -fault)", stages);
  int user_sized = args_given(argc, argv, "M") || args_given(argc, argv, "N") || args_given(argc, argv, "K");
  if (shapes && user_sized) args_fail("-shapes runs the sizes of gemm_shapes.h: give no -M, -N or -K");

  int dev = findCudaDevice(argc, argv);
  char why[256];
  // BF16 fragments: decided by the code this binary holds for this GPU and by the GPU (helper_cuda.h)
  if (bf16 && !kernel_can_run(hgemm_wmma<__nv_bfloat16>, dev, 80, "BF16 tensor cores", why, sizeof(why)))
    return result_skip("-type=bf16 %s", why);
  // kernel 3 (mma.sync m16n8k16, 8.0 on): asked the same way; without it the default is kernel 2
  char why3[256];
  int has_mma = kernel_can_run(hgemm_mma<__half, true, 3>, dev, 80, "mma.sync m16n8k16", why3, sizeof(why3));
  // kernel 4 (wgmma, TMA: sm_90a code on a 9.0 GPU), asked the same way, and of the binary (a probe kernel)
  char why4[320];
  int has_wgmma = hgemm_wgmma_can_run(dev, why4, sizeof(why4)), rows4 = hgemm_tma_rows_ok(N, K);
  int nsteps = !has_mma ? 3 : has_wgmma ? NSTEPS : 4;
  if (kernel == 3 && !has_mma) {
    if (args_given(argc, argv, "kernel")) return result_skip("-kernel=3 %s", why3);
    printf("kernel 3, the default, %s; kernel 2 runs instead\n", why3);
    kernel = 2;
  }
  if (kernel == 4 && !has_wgmma) return result_skip("-kernel=4 %s", why4);
  if (stages && has_mma && stages > h3_device_stages())
    return result_skip("-stages=%d: kernel 3 on this GPU has room for %d (two blocks of %d KB per SM)", stages,
                       h3_device_stages(), h3_device_stages() * H3_STAGE_BYTES / 1024);
  h3_stages_typed = stages;
  if ((kernel == 4 || bench) && has_wgmma && !rows4) {
    char what[120];
    if (K % 8 && N % 8)
      snprintf(what, sizeof(what), "A's rows are copied first into rows of %d halves, B's into rows of %d",
               hgemm_pad8(K), hgemm_pad8(N));
    else
      snprintf(what, sizeof(what), "%s rows are copied first into rows of %d halves", K % 8 ? "A's" : "B's",
               hgemm_pad8(K % 8 ? K : N));
    printf("kernel 4: TMA reads rows that start on 16 bytes (K and N multiples of 8), and K = %d, N = %d: %s, at "
           "every call (timed with the kernel)\n", K, N, what);
  }
  if (bench && !has_mma) printf("kernel 3 is left out of the table: it %s\n", why3);
  if (bench && !has_wgmma) printf("kernel 4 is left out of the table: it %s\n", why4);
  if (shapes && !has_mma) return result_skip("-shapes compares kernels 3 and 4 with cuBLAS, and kernel 3 %s", why3);
  if (shapes) {
    cublas_setup();
    cublaslt_setup();
    int ok = hgemm_shapes_table(steps, bf16, seed, reps, has_wgmma);
    cublaslt_teardown();
    cublas_teardown();
    return result_check(ok, "%s", sgemm_failure[0] ? sgemm_failure : "a check failed (see above)");
  }
  hgemm_memory_check(M, N, K, user_sized);
  if (reference_too_long(dev, M, N, K))
    return result_skip("this GPU has a display watchdog, and the FP64 reference of a %d x %d x %d product may "
                       "outlast it (docs/troubleshooting.md#windows-watchdog): up to 4096^3 runs here",
                       M, N, K);
  cublas_setup(); // the handles: once, outside every timed region
  cublaslt_setup();
  h0_use_lt = use_lt; // -lt: asked of the heuristic before the problem and its reference are made
  if (use_lt && !h0_plan_for_type(bf16, M, N, K))
    return result_skip("-lt: cublasLt's heuristic offers no algorithm for %d x %d x %d", M, N, K);
  if (use_lt && !bench) printf("kernel 0 by cublasLtMatmul (-lt)\n");
  hgemm_problem p;
  hgemm_setup(&p, M, N, K, bf16, seed, 0);
  int peer_ok = bench && !use_lt ? hgemm_choose_peer(&p, reps, 1) : 1;
  if (kernel == 2 || bench)
    printf("kernel 2's tiles: -smem=%s, rows of A's tile %d halves, of B's %d (load_matrix_sync's 8 rows a phase: "
           "%d-way and %d-way bank conflicts)\n",
           s2_layout == HGEMM_SMEM_PAD ? "pad" : "plain", hgemm_smem_ld(s2_layout, S2_BK),
           hgemm_smem_ld(s2_layout, S2_BN), hgemm_smem_ways(hgemm_smem_ld(s2_layout, S2_BK)),
           hgemm_smem_ways(hgemm_smem_ld(s2_layout, S2_BN)));
  if ((kernel == 4 || bench) && has_wgmma)
    printf("kernel 4's tiles: %d x %d of C per block, %d of K per stage, %d stages (%d KB), by TMA with the 128-byte "
           "swizzle\n", H4_BM, H4_BN, H4_BK, H4_STAGES, H4_STAGES * (H4_A_BYTES + H4_B_BYTES) / 1024);
  if ((kernel == 3 || bench) && has_mma)
    printf("kernel 3's tiles: 16-byte chunks XOR-swizzled, rows of A's tile %d chunks, of B's %d (ldmatrix's 8 rows "
           "a phase: %d-way and %d-way bank conflicts; unswizzled %d-way and %d-way); %d stages of %d KB\n",
           H3_ACPR, H3_BCPR, hgemm_ldmatrix_ways(0, 0, H3_ACPR, 1), hgemm_ldmatrix_ways(0, 0, H3_BCPR, 1),
           hgemm_ldmatrix_ways(0, 0, H3_ACPR, 0), hgemm_ldmatrix_ways(0, 0, H3_BCPR, 0), h3_stages(),
           H3_STAGE_BYTES / 1024);
  // cuBLAS first, against the reference like every other kernel
  int ok = hgemm_check(0, &steps[0], &p, !bench && kernel == 0 && !fault ? 1 : 0) && p.ref_ok && peer_ok;
  if (!bench) {
    if (kernel != 0 || fault) {
      hgemm_step st = steps[kernel];
      if (fault) {
        hgemm_fault_step = st.run[bf16];
        st.run[0] = run_faulty_tile<__half>, st.run[1] = run_faulty_tile<__nv_bfloat16>;
      }
      ok = hgemm_check(kernel, &st, &p, 1) && ok;
    }
  } else {
    bench_ctx b = {&p, ok, 2.0 * M * N * K};
    const char *names[NSTEPS];
    for (int k = 0; k < nsteps; k++) names[k] = steps[k].name;
    char header[200], size[64];
    snprintf(header, sizeof(header),
             "\n%d x %d x %d, %s in, FP32 sums and C (cuBLAS: %s, CUBLAS_COMPUTE_32F)\n"
             "  kernel       ms   TFLOP/s   %% of cuBLAS",
             M, N, K, bf16 ? "BF16" : "FP16", h0_use_lt ? "cublasLtMatmul" : "cublasGemmEx");
    snprintf(size, sizeof(size), "%dx%dx%d", M, N, K);
    ladder L = {nsteps, names, NULL, 7, &b, bench_check, bench_run, bench_recheck, 2, reps, NULL, // steps
                header, "cuBLAS", 0.0, b.flops, NULL, 0, // table: TFLOP/s, % of cuBLAS
                "5", size, bench_keys, NULL};           // BENCH lines
    double ms[NSTEPS];
    int passed[NSTEPS];
    ok = ladder_bench(&L, ms, passed) && ok;
  }
  hgemm_free(&p);
  h4_pad_free();
  cublaslt_teardown();
  cublas_teardown();
  return result_check(ok, "%s", sgemm_failure[0] ? sgemm_failure : "a check failed (see above)");
}
