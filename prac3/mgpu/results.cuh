/*
 * mgpu/results.cuh -- practical 3, step 11: what laplace3d_mgpu does after its sweeps, around the lesson
 * (laplace3d_mgpu.cu includes this after its slabs, sweep() and say()): the gather of every slab back into
 * the grid, the comparison with the gold (under MPI each rank compares its own planes and the ranks'
 * statistics are combined), and -bench's timing of a sweep on all GPUs against one GPU alone.
 */
#ifndef MGPU_RESULTS_CUH
#define MGPU_RESULTS_CUH

#include <limits.h>
#include <math.h>
#include <stdio.h>

#include "gold_check.h"
#include "helper_cuda.h"
#include "timing.h"

// copy planes 1..nz of each slab's u1 (the last result) back into its place in the grid
static void slabs_gather(const mgpu *m, float *h_u2) {
  int NX = m->NX, NY = m->NY, pitch = m->pitch;
  for (int l = 0; l < m->nlocal; l++) {
    const slab *sl = &m->s[l];
    checkCudaErrors(cudaSetDevice(sl->dev));
    checkCudaErrors(cudaMemcpy2D(h_u2 + (size_t)sl->k0 * NX * NY, NX * sizeof(float), sl->d_u1 + m->plane,
                                 pitch * sizeof(float), NX * sizeof(float), (size_t)NY * sl->nz,
                                 cudaMemcpyDeviceToHost));
  }
}

// error check: the same operations in the same order, so exactly equal
static gold_stats gold_compare(const mgpu *m, const float *h_u2, const float *h_u1) {
  gold_stats st;
#ifdef USE_MPI
  {
    size_t off = (size_t)m->s[0].k0 * m->NX * m->NY;
    compare_float(h_u2 + off, h_u1 + off, (size_t)m->s[0].nz * m->NX * m->NY, 0.0, 0.0, &st);
    // the ranks' counts summed, their largest errors taken, rms from the summed squares
    unsigned long long c[3] = {st.n, st.nbad, st.nnonfinite};
    double e[2] = {st.max_abs_err, st.max_rel_err}, sq = st.rms_err * st.rms_err * (double)st.n;
    long long first = st.first_bad < 0 ? LLONG_MAX : st.first_bad + (long long)off;
    MPI_Allreduce(MPI_IN_PLACE, c, 3, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, e, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &sq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    st.n = c[0];
    st.nbad = c[1];
    st.nnonfinite = c[2];
    st.max_abs_err = e[0];
    st.max_rel_err = e[1];
    st.rms_err = st.n ? sqrt(sq / (double)st.n) : 0.0;
    st.first_bad = first == LLONG_MAX ? -1 : first;
  }
#else
  compare_float(h_u2, h_u1, (size_t)m->NX * m->NY * m->NZ, 0.0, 0.0, &st);
#endif
  return st;
}

// one GPU, one kernel over planes 1..nz of a slab, no exchange: laplace3d_fast's sweep (timing only)
typedef struct {
  const mgpu *m;
  slab sl;
} single_launch;

static void launch_single(void *p) {
  single_launch *a = (single_launch *)p;
  launch_planes(a->m, &a->sl, 1, a->sl.nz + 1, 0);
}

// -bench: a sweep on all GPUs (median of reps samples of 10 sweeps), against GPU 0 alone
static void bench_sweeps(mgpu *m, int ngpus, int nranks, int bx, int by, int reps) {
  int NX = m->NX, NY = m->NY, NZ = m->NZ, nslabs = m->nslabs, peer = m->peer;
  size_t npoints = (size_t)NX * NY * NZ;
  const int per = 10;
  float t[TIMING_MAX_REPS];
  if (reps > TIMING_MAX_REPS) reps = TIMING_MAX_REPS;
  for (int i = 0; i < 3; i++) sweep(m); // warm-up
  for (int r = 0; r < reps; r++) {
    sync_all(m);
#ifdef USE_MPI
    MPI_Barrier(MPI_COMM_WORLD); // every rank starts together; the slowest sets the time
#endif
    double t0 = wall_ms();
    for (int i = 0; i < per; i++) sweep(m);
    sync_all(m);
#ifdef USE_MPI
    MPI_Barrier(MPI_COMM_WORLD);
#endif
    t[r] = (float)((wall_ms() - t0) / per);
  }
  float ms = median_float(t, reps);
  double moved = 8.0 * (double)npoints; // one read and one write of each point per sweep

  // weak scaling: GPU 0 alone on its own slab, one launch over its planes, no exchange
  single_launch one = {m, m->s[0]};
  checkCudaErrors(cudaSetDevice(m->s[0].dev));
  float ms_slab = time_median_ms(launch_single, &one, 3, reps);
  // strong scaling: GPU 0 alone on the whole grid, as laplace3d_fast runs it, where it fits beside the slabs
  float ms_1gpu = -1.0f;
  size_t whole = 2 * (size_t)(NZ + 2) * m->plane * sizeof(float);
  if (nranks == 1 && whole + (whole >> 4) <= device_usable_bytes()) {
    single_launch all = {m, m->s[0]};
    all.sl.k0 = 0;
    all.sl.nz = NZ;
    checkCudaErrors(cudaMalloc((void **)&all.sl.d_u1, whole / 2));
    checkCudaErrors(cudaMalloc((void **)&all.sl.d_u2, whole / 2));
    checkCudaErrors(cudaMemset(all.sl.d_u1, 0, whole / 2));
    checkCudaErrors(cudaMemset(all.sl.d_u2, 0, whole / 2));
    ms_1gpu = time_median_ms(launch_single, &all, 3, reps);
    checkCudaErrors(cudaFree(all.sl.d_u1));
    checkCudaErrors(cudaFree(all.sl.d_u2));
  } else {
    say("(no single-GPU run of the whole grid: %s)\n", nranks > 1 ? "one GPU a rank" : "no room beside the slabs");
  }
  bench_ref ref = bench_reference(m->s[0].dev, moved, reps); // one GPU's copy: 100 % a GPU
  char size[64], extra[256];
  snprintf(size, sizeof(size), "%dx%dx%d", NX, NY, NZ);
  double GBps = moved / (ms * 1e-3) / 1e9;
  say("%d GPU%s: %.4f ms a sweep, %.1f GB/s = %.1f%% of one GPU's copy (%.1f GB/s)\n", ngpus,
      ngpus == 1 ? "" : "s", ms, GBps, 100.0 * GBps / ref.copy_GBps, ref.copy_GBps);
  say("one GPU on one slab (%d planes): %.4f ms a sweep (weak scaling: %.1f%% of the time on %d GPUs)\n",
      m->s[0].nz, ms_slab, 100.0 * ms_slab / ms, ngpus);
  if (ms_1gpu > 0)
    say("one GPU on the whole grid: %.4f ms a sweep (strong scaling: %.2fx on %d GPUs, %.1f%% efficiency)\n",
        ms_1gpu, ms_1gpu / ms, ngpus, 100.0 * ms_1gpu / ms / ngpus);
  int len = snprintf(extra, sizeof(extra), "ngpus=%d slabs=%d exchange=%s ranks=%d block=%dx%d ms_slab=%.4f "
                     "weak_eff=%.3f", ngpus, nslabs, nslabs == 1 ? "none" : (peer ? "peer" : "nccl"), nranks, bx,
                     by, ms_slab, ms_slab / ms);
  if (ms_1gpu > 0)
    snprintf(extra + len, sizeof(extra) - len, " ms_1gpu=%.4f x_1gpu=%.3f strong_eff=%.3f", ms_1gpu,
             ms_1gpu / ms, ms_1gpu / ms / ngpus);
  if (rank0) print_bench("3", "laplace3d_mgpu", size, reps, ms, moved, &ref, extra);
}

#endif
