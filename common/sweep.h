/*
 * sweep.h -- time one kernel over a table of launch shapes and keep the fastest (prac3 step 3 on).
 *
 *   static int set_shape(void *arg, block_shape s) { ...; return 0 if s cannot launch, else set grid/block, 1 }
 *   block_shape best = sweep_shapes("GPU_laplace3d", run, set_shape, &a, xs, NX_, ys, NY_, zs, NZ_, "", moved,
 *                                   &ref, reps);
 * prints "block sweep, KERNEL (one iteration, median of REPS):", a row per shape that launches (ms, GB/s and
 * % of the copy in ref) and the fastest. zname names the third number when it is not a block size (laplace3d_fast's
 * "kchunk"); "" means the third number is the block's z size, and a single z of 1 prints 2-D shapes.
 * Compiled by nvcc only (it times on the GPU).
 */
#ifndef SWEEP_H
#define SWEEP_H

#include <stdio.h>

#include "timing.h"

typedef struct {
  int x, y, z;
} block_shape;

typedef int (*shape_fn)(void *arg, block_shape s);

static inline block_shape sweep_shapes(const char *kernel, timed_fn run, shape_fn set, void *arg, const int *xs, int nx,
                                       const int *ys, int ny, const int *zs, int nz, const char *zname, double bytes,
                                       const bench_ref *ref, int reps) {
  block_shape best = {0, 0, 0};
  float best_ms = 0.0f;
  int show_z = nz > 1 || zs[0] != 1 || zname[0] != '\0';
  char label[48];
  printf("block sweep, %s (one iteration, median of %d):\n", kernel, reps);
  printf("  %-12s %7s %10s %9s %7s\n", "block", zname[0] ? zname : "", "ms", "GB/s", "%copy");
  for (int ix = 0; ix < nx; ix++)
    for (int iy = 0; iy < ny; iy++)
      for (int iz = 0; iz < nz; iz++) {
        block_shape s = {xs[ix], ys[iy], zs[iz]};
        if (!set(arg, s)) continue;
        float ms = time_median_ms(run, arg, 2, reps);
        double GBps = bytes / (ms * 1e-3) / 1e9;
        if (zname[0] || !show_z)
          snprintf(label, sizeof(label), "%dx%d", s.x, s.y);
        else
          snprintf(label, sizeof(label), "%dx%dx%d", s.x, s.y, s.z);
        char zcol[16] = "";
        if (zname[0]) snprintf(zcol, sizeof(zcol), "%d", s.z);
        printf("  %-12s %7s %10.4f %9.1f %7.1f\n", label, zcol, ms, GBps, 100.0 * GBps / ref->copy_GBps);
        if (best_ms == 0.0f || ms < best_ms) {
          best_ms = ms;
          best = s;
        }
      }
  if (zname[0])
    printf("fastest: block %dx%d, %s %d\n", best.x, best.y, zname, best.z);
  else if (show_z)
    printf("fastest block: %dx%dx%d\n", best.x, best.y, best.z);
  else
    printf("fastest block: %dx%d\n", best.x, best.y);
  return best;
}

#endif /* SWEEP_H */
