/*
 * hgemm/shapes.cuh -- -shapes: kernels 3 and 4 against cuBLAS over gemm_shapes.h's shapes (sgemm_ladder's -shapes
 * runs the same), with the check of a single run: each kernel run on a poisoned C and checked against the FP64
 * reference, then timed (median of reps), and the C its last timed run left checked again. Where K or N is no
 * multiple of 8 kernel 4's time includes copying A or B into rows TMA can read (hgemm/k4_host.cuh). The fast
 * column is kernel 4's time where this GPU and build run it, else kernel 3's. Kernel 0 at each shape is the faster of
 * cuBLAS's two calls, cublasGemmEx and cublasLtMatmul (hgemm_choose_peer), named in the last column. The workbook's
 * goal for kernel 4 is read at the shapes whose sides are all 1000 or more: how many reach 70 % of cuBLAS. Where
 * this GPU or build has no kernel 4 the count is kernel 3's, and the line says the goal is not measured here.
 */
static int hgemm_shapes_table(const hgemm_step *steps, int bf16, int seed, int reps, int has_wgmma) {
  int ok = 1, dev, measured = 0, big = 0, big_ok = 0, worst = -1;
  double logsum = 0.0, worst_pct = 0.0;
  checkCudaErrors(cudaGetDevice(&dev));
  printf("\nkernels 3 and 4 against cuBLAS (%s in, FP32 sums and C), median of %d; M x N x K: A is M x K, C is "
         "M x N\n",
         bf16 ? "BF16" : "FP16", reps);
  printf("  %-16s %9s %8s %8s %8s %9s  %s\n", "M x N x K", "cuBLAS ms", "TFLOP/s", "k3 %", "k4 %", "fast ms",
         "cuBLAS's call");
  for (int i = 0; i < NSHAPES; i++) {
    int M = shape_table[i][0], N = shape_table[i][1], K = shape_table[i][2];
    char size[64], k3s[16], k4s[16];
    snprintf(size, sizeof(size), "%dx%dx%d", M, N, K);
    size_t bytes = hgemm_bytes(M, N, K);
    if (!shape_fits(dev, size, bytes, M, N, K)) continue;
    hgemm_problem p;
    hgemm_setup(&p, M, N, K, bf16, seed, 1);
    int peer_ok = hgemm_choose_peer(&p, reps, 0); // kernel 0: the faster of cuBLAS's two calls
    int k4 = has_wgmma, kernels[3] = {0, 3, k4 ? 4 : -1}, good = p.ref_ok && peer_ok;
    double ms[3] = {0.0, 0.0, 0.0};
    for (int j = 0; j < 3; j++) {
      int k = kernels[j];
      if (k < 0) continue;
      good = hgemm_check(k, &steps[k], &p, -1) && good; // a line only if it fails
      p.run = steps[k].run[bf16];
      ms[j] = time_median_ms(hgemm_run, &p, 2, reps);
      good = hgemm_recheck(k, steps[k].name, &p) && good;
    }
    ok = ok && good;
    int fast = k4 ? 2 : 1;
    double flops = 2.0 * M * N * K, pct = 100.0 * ms[0] / ms[fast];
    snprintf(k3s, sizeof(k3s), "%.1f", 100.0 * ms[0] / ms[1]);
    snprintf(k4s, sizeof(k4s), k4 ? "%.1f" : "-", 100.0 * ms[0] / ms[2]);
    printf("  %-16s %9.4f %8.2f %8s %8s %9.4f  %s%s\n", size, ms[0], flops / (ms[0] * 1e-3) / 1e12, k3s, k4s,
           ms[fast], h0_use_lt ? "cublasLtMatmul" : "cublasGemmEx", good ? "" : "  (FAILED its check)");
    char extra[160];
    snprintf(extra, sizeof(extra), "kernel=%d type=%s TFLOPs=%.2f pct_cublas=%.1f pct_cublas_k3=%.1f cublas_call=%s",
             k4 ? 4 : 3, bf16 ? "bf16" : "fp16", flops / (ms[fast] * 1e-3) / 1e12, pct, 100.0 * ms[0] / ms[1],
             h0_use_lt ? "cublaslt" : "gemmex");
    print_bench("5", k4 ? "hgemm_shapes_k4" : "hgemm_shapes_k3", size, reps, ms[fast], -1.0, NULL, extra);
    logsum += log(pct / 100.0), measured++;
    if (worst < 0 || pct < worst_pct) worst = i, worst_pct = pct;
    if (M >= 1000 && N >= 1000 && K >= 1000) big++, big_ok += pct >= 70.0;
    hgemm_free(&p);
    h4_pad_free();
  }
  if (worst < 0) return ok;
  printf("the fast kernel (4, else 3): geometric mean %.1f %% of cuBLAS over the shapes; the worst %.1f %% at %d x %d "
         "x %d\n",
         100.0 * exp(logsum / measured), worst_pct, shape_table[worst][0], shape_table[worst][1],
         shape_table[worst][2]);
  if (big && has_wgmma)
    printf("at the %d shapes with every side 1000 or more, %d at 70 %% of cuBLAS or more (the goal: all of them)\n",
           big, big_ok);
  else if (big)
    printf("at the %d shapes with every side 1000 or more, kernel 3 at 70 %% of cuBLAS or more at %d (the goal, all "
           "of them, is kernel 4's, which this GPU or build cannot run: not measured here)\n",
           big, big_ok);
  return ok;
}
