/*
 * stencil/steps.cuh -- the steps of laplace3d_ladder (laplace3d_ladder.cu built without LADDER_STEP), in the
 * order of its table, as common/ladder.h calls them: the copy, the course's two kernels (laplace3d_kernel.h,
 * laplace3d_kernel_new.h) at their programs' default blocks, and steps 3 and 4 (stencil/s3_fast.cuh,
 * stencil/s4_tb.cuh) at theirs. Each step's check runs REPEAT sweeps from the input into poisoned arrays and
 * compares them exactly with Gold_laplace3d's; what is timed is one sweep (step 4: one pass of T sweeps).
 * Included by the runner after every kernel header.
 */
#ifndef STENCIL_STEPS_CUH
#define STENCIL_STEPS_CUH

static const char *const names[] = {"copy", "laplace3d", "laplace3d_new", "laplace3d_fast", "laplace3d_tb"};
#define NSTEPS 5

typedef struct {
  int NX, NY, NZ, REPEAT, T;
  size_t dbytes;
  float *d_a, *d_b;            // the steps' two arrays, padded where a step pads its rows
  const float *h_u0, *h_gold;  // the input, and REPEAT sweeps of Gold_laplace3d from it
  float *h_out;
  float *h_in, *h_tmp;         // -bench: what the timed runs read, and the gold's second array
  int copy_kernel;             // -bench: step 0 is the copy kernel, which the baseline found faster than cudaMemcpy
  stencil_launch a3, a4;       // steps 3 and 4 at their defaults (stencil/)
  stencil_block b3, b4;
} lctx;

static int step_pitch(const lctx *c, int k) { return k == 3 ? row_pitch(c->NX, 1) : c->NX; }

// one sweep of step k (a pass of T sweeps for step 4) from u1 to u2: what is timed
static void sweep_once(lctx *c, int k, const float *u1, float *u2) {
  int NX = c->NX, NY = c->NY, NZ = c->NZ, pitch = step_pitch(c, k);
  if (k == 0 && c->copy_kernel) { // the copy: whichever of the two copies the baseline found faster (timing.h)
    timing_stream_args t = {(uint4 *)u2, (uint4 *)u1, (size_t)NX * NY * NZ * sizeof(float) / 16, NULL};
    timing_copy_by_kernel(&t);
    size_t tail = (size_t)NX * NY * NZ - 4 * t.n16; // the last 0-3 floats
    if (tail) checkCudaErrors(cudaMemcpyAsync(u2 + 4 * t.n16, u1 + 4 * t.n16, tail * 4, cudaMemcpyDeviceToDevice));
  } else if (k == 0) {
    checkCudaErrors(cudaMemcpyAsync(u2, u1, (size_t)NX * NY * NZ * sizeof(float), cudaMemcpyDeviceToDevice));
  } else if (k == 1) { // laplace3d's default block, 32 x 4
    GPU_laplace3d<<<dim3(ceil_div(NX, 32), ceil_div(NY, 4)), dim3(32, 4)>>>(NX, NY, NZ, pitch, u1, u2);
    getLastCudaError("GPU_laplace3d execution failed");
  } else if (k == 2) { // laplace3d_new's default block, 32 x 4 x 2
    GPU_laplace3d_new<<<dim3(ceil_div(NX, 32), ceil_div(NY, 4), ceil_div(NZ, 2)), dim3(32, 4, 2)>>>(NX, NY, NZ,
                                                                                                 pitch, u1, u2);
    getLastCudaError("GPU_laplace3d_new execution failed");
  } else {
    stencil_launch *a = k == 3 ? &c->a3 : &c->a4;
    a->d_u1 = u1;
    a->d_u2 = u2;
    if (k == 3) launch_laplace3d_fast(a);
    else launch_laplace3d_tb(a);
  }
}

static void ladder_run(void *p, int k) {
  lctx *c = (lctx *)p;
  sweep_once(c, k, c->d_a, c->d_b);
}

// step k: REPEAT sweeps (the copy: one copy) from the input, into poisoned arrays, compared exactly
static int ladder_check(void *p, int k) {
  lctx *c = (lctx *)p;
  int NX = c->NX, NY = c->NY, NZ = c->NZ, pitch = step_pitch(c, k), sweeps = k == 0 ? 1 : c->REPEAT;
  float *u1 = c->d_a, *u2 = c->d_b;
  checkCudaErrors(cudaMemset(u1, 0xff, c->dbytes)); // NaN: padding or a point never written cannot pass
  checkCudaErrors(cudaMemset(u2, 0xff, c->dbytes));
  copy_in_padded(u1, c->h_u0, NX, NY, NZ, pitch);
  if (k == 4) { // passes of T sweeps, the last one fewer; then the timed pass is T sweeps again
    tb_configure(&c->a4, &c->b4);
    tb_iterate(&c->a4, &c->b4, sweeps, &u1, &u2);
    set_pass(&c->a4, c->T, c->b4.by, c->b4.kchunk);
  } else {
    for (int i = 0; i < sweeps; i++) {
      sweep_once(c, k, u1, u2);
      float *foo = u1;
      u1 = u2;
      u2 = foo;
    }
  }
  copy_out_padded(c->h_out, u1, NX, NY, NZ, pitch);
  gold_stats st;
  size_t n = (size_t)NX * NY * NZ;
  compare_float(c->h_out, k == 0 ? c->h_u0 : c->h_gold, n, 0.0, 0.0, &st);
  printf("  %d %-14s %s: %d %s, %zu of %zu points differ\n", k, names[k], st.nbad ? "FAIL" : "PASS", sweeps,
         k == 0 ? "copy" : "sweeps", st.nbad, n);
  // d_b poisoned again (the timed runs read d_a alone and write d_b): the copy, or an odd number of sweeps,
  // leaves d_b as one more sweep of d_a already, and ladder_recheck must judge what the timed runs wrote
  checkCudaErrors(cudaMemset(c->d_b, 0xff, c->dbytes));
  return st.nbad == 0;
}

// after step k's timed runs, each one sweep (step 4: a pass of T sweeps; the copy: a copy) from d_a into d_b:
// d_b must be exactly Gold_laplace3d's sweeps of whatever d_a holds (the last of the check's sweeps)
static int ladder_recheck(void *p, int k) {
  lctx *c = (lctx *)p;
  int NX = c->NX, NY = c->NY, NZ = c->NZ, pitch = step_pitch(c, k), sweeps = k == 0 ? 0 : k == 4 ? c->T : 1;
  checkCudaErrors(cudaDeviceSynchronize());
  copy_out_padded(c->h_in, c->d_a, NX, NY, NZ, pitch);
  copy_out_padded(c->h_out, c->d_b, NX, NY, NZ, pitch);
  float *u = c->h_in, *tmp = c->h_tmp;
  for (int i = 0; i < sweeps; i++) {
    Gold_laplace3d(NX, NY, NZ, u, tmp);
    float *foo = u;
    u = tmp;
    tmp = foo;
  }
  gold_stats st;
  size_t n = (size_t)NX * NY * NZ;
  compare_float(c->h_out, u, n, 0.0, 0.0, &st);
  if (st.nbad) {
    long long f = st.first_bad;
    printf("  %d %-14s FAIL after its timed runs: %zu of %zu points differ, the first at (%lld, %lld, %lld): %g, "
           "gold %g\n", k, names[k], st.nbad, n, f % NX, f / NX % NY, f / NX / NY, st.first_bad_gpu, st.first_bad_gold);
  }
  return st.nbad == 0;
}

static void ladder_keys(void *p, int k, const double *ms, char *prog, size_t nprog, char *extra, size_t nextra) {
  const lctx *c = (const lctx *)p;
  snprintf(prog, nprog, "laplace3d_ladder_k%d", k);
  snprintf(extra, nextra, "kernel=%s x_copy=%.3f T=%d", names[k], ms[0] / ms[k], k == 4 ? c->T : 1);
}

#endif /* STENCIL_STEPS_CUH */
