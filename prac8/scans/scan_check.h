/*
 * scans/scan_check.h -- practical 8, steps 3 to 5: how scan_blocks checks an output. Against the gold
 * (scan_gold, in double; scan_gold_int), with the tolerances derived below, and with -random by first
 * differences as well: out[i+1] - out[i] against in[i], which a lost tile cannot pass however large N is.
 * Every method is checked the same way after its first call, after its timed runs (-bench) and after its
 * repeats (-repeat).
 */
#ifndef PRAC8_SCAN_CHECK_H
#define PRAC8_SCAN_CHECK_H

#include <math.h>
#include <stdio.h>

#include "gold_check.h"
#include "helper_cuda.h"
#include "scan_common.cuh" // (and, included before this file: num_tiles, num_lb_tiles and LB_ROUNDS)

// Tolerance. Whole numbers and ints: every sum is exact, so 0. Random floats: each output is a sum of
// non-negative floats added in some tree of depth D, so its relative error is at most D u / (1 - D u)
// (u = 2^-24). Within a 4096-element tile D <= 4 + 5 + 4 + 3 + 1; within a look-back tile of LB_TILE (R =
// LB_ROUNDS = 14 rounds per warp) an element's prefix within its warp's part has D <= 3 + 5 + R + 1 + 3, the
// warp's offset (a reduction, then a scan of 4) D <= 2 + R + 5 + 2, and two more adds join them:
// D <= R + 14 = 28.
//   The decoupled look-back adds at most 6 roundings per tile it passes on its way back to a P, and the chain
// of P's can pass through every tile: D <= 32 + 8 nb (nb tiles of 4096, more than there are of LB_TILE)
// covers CUB's look-back and the three kernels as well (D <= 32 per level), and the one-lane walk (step 4a:
// one rounding per tile it passes, and two per link of the chain of P's).
//   The fixed look-back (kernel 3) has a tree that does not grow with the chain: the A's 5, the S's 5 + 5,
// P(h) one more than P(h-1) and 10, two adds: D <= (R + 14) + 2 + 11 + nbl / 1024 (nbl tiles of LB_TILE).
// At 2^28 that is 4.6e-6 rather than the decoupled bound's 3.2e-2, tight enough that a lost tile near the
// end (a relative error of about LB_TILE / N) cannot pass.
static void scan_tolerances(size_t n, double *rtol, double *rtol_fixed) {
  double u = 1.0 / 16777216.0, D = 32.0 + 8.0 * num_tiles(n);
  double D_fixed = (LB_ROUNDS + 27.0) + (double)(num_lb_tiles(n) / 1024);
  *rtol = D * u / (1.0 - D * u);
  *rtol_fixed = D_fixed * u / (1.0 - D_fixed * u);
}

// First differences (-random). The gold check must allow for what a chained look-back can accumulate along
// the whole array (3.2e-2 of the prefix at 2^28), while a tile lost from every prefix after it is an error of
// one tile's total, about 3584 for 7168 floats in [0, 1) (2048 for a tile of 4096): below the gold's tolerance
// once the prefix passes 3584 / rtol, about 1.1e5 at 2^28. Two neighbours, though, are made of nearly the
// same sums, so their difference is far more accurate than either:
//   e_i = out[i] - S_i (S_i the exact prefix) is a sum of roundings, each at most u/2 of a partial sum, and
//   every partial sum that goes into out[i] or out[i+1] is a sum of some of in[0..i], all >= 0, so at most
//   S_{i+1}. The roundings the two share cancel in e_{i+1} - e_i; what is left is at most
//   (u/2) K S_{i+1}, K the roundings they do not share.
//   Within a tile K <= 4 at the prefix's size (the tile's prefix plus the warp's offset, then plus the
//   element's place in its part, for each), plus the roundings of the in-tile partial sums, which are of the
//   tile's total (under 7168), not of the prefix. Across a tile boundary, or a level of the three kernels'
//   recursion, the two prefixes come from look-backs that start from the same P or from P's a few tiles
//   apart: each link of the chain they do not share adds at most 6 (a warp's tree of 5 and one add).
// The tolerance is 64 u max(out[i], out[i+1]): K = 128, room for 20 unshared links, far more than two
// neighbouring tiles' look-backs take in practice (the nearest P is a few tiles back). It is not a proof for
// every schedule of a decoupled look-back, whose chains could in principle stay apart longer; it limits how
// the schedule may go, not N. And it catches a lost tile at any N this program takes: at N = 2^29 the
// prefixes reach about 2.7e8 (the inputs average 1/2), where 64 u out = 1024, half a lost tile of 4096 and
// under a third of a lost look-back tile. The differences are formed in double, whose roundings (at most
// 2^-53 of out[i+1]) are nothing beside the tolerance.
#define FD_ULPS 64.0

static size_t first_differences_check(const char *name, const float *out, const float *in, size_t n) {
  double u = 1.0 / 16777216.0, max_err = 0.0, max_err_ulps = 0.0;
  size_t nbad = 0;
  long long first_bad = -1;
  for (size_t i = 0; i + 1 < n; i++) {
    double a = out[i], b = out[i + 1];
    double err = fabs((b - a) - (double)in[i]), scale = fmax(fabs(a), fabs(b));
    int bad = !(err <= FD_ULPS * u * scale); // (NaN fails)
    if (bad && first_bad < 0) first_bad = (long long)i;
    nbad += bad;
    if (err > max_err) max_err = err;
    if (scale > 0.0 && err / (u * scale) > max_err_ulps) max_err_ulps = err / (u * scale);
  }
  printf("%s: first differences out[i+1] - out[i] against in[i]: max err = %.3e (%.1f u of out), %zu outside "
         "tolerance (%.0f u of out)\n", name, max_err, max_err_ulps, nbad, FD_ULPS);
  if (first_bad >= 0)
    printf("%s: first bad difference at index %lld: out[i+1] - out[i] = %.9g, in[i] = %.9g\n", name, first_bad,
           (double)out[first_bad + 1] - (double)out[first_bad], (double)in[first_bad]);
  return nbad;
}

// what every check of an output needs: the input, the gold, room for n values copied back, the tolerances
typedef struct {
  size_t n;
  int is_int, random;
  const void *h_in, *h_gold; // the input; the gold (ints, or doubles)
  void *h_out;
  double rtol, rtol_fixed;
  size_t nbad, nbad_fd; // every check's count outside tolerance: values, first differences
} scan_oracle;

// The output that method `name` left in d_out, copied back and compared with the gold (fixed: the fixed
// look-back's tighter tolerance), and with -random by first differences. ms_first >= 0: the first call's time,
// printed in the course's line first. Adds to o->nbad and o->nbad_fd; returns 1 when all passed.
static int scan_check_output(scan_oracle *o, const void *d_out, int fixed, const char *name, double ms_first) {
  gold_stats st;
  size_t nbad, nbad_fd = 0;
  checkCudaErrors(cudaMemcpy(o->h_out, d_out, o->n * 4, cudaMemcpyDeviceToHost));
  if (o->is_int)
    nbad = compare_int((const int *)o->h_out, (const int *)o->h_gold, o->n, &st);
  else
    nbad = compare_float_double((const float *)o->h_out, (const double *)o->h_gold, o->n, 0.0,
                                fixed ? o->rtol_fixed : o->rtol, &st);
  if (ms_first >= 0.0) printf("%s: %.3f ms (first call), rms scan error = %f\n", name, ms_first, st.rms_err);
  gold_report(name, &st);
  if (o->random) nbad_fd = first_differences_check(name, (const float *)o->h_out, (const float *)o->h_in, o->n);
  o->nbad += nbad, o->nbad_fd += nbad_fd;
  return nbad == 0 && nbad_fd == 0;
}

#endif /* PRAC8_SCAN_CHECK_H */
