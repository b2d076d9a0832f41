/*
 * prac2_gold.c -- CPU gold for practical 2: the two-asset Monte Carlo model of prac2.cu and prac2_device.cu.
 * Compiled by gcc as C (with -fopenmp: the independent CPU Monte Carlo runs on every core).
 *
 * The model: two correlated assets, N Euler steps of size dt = T/N,
 *   S <- S * (1 + r*dt + sigma*sqrt(dt)*Y),   Y1 = Z1,  Y2 = rho*Z1 + sqrt(1 - rho^2)*Z2,
 * and the payoff exp(-r*T) when |S1 - 1| < 0.1 and |S2 - 1| < 0.1 at time T, else 0.
 *
 * Two golds:
 *  - pathcalc_gold() recomputes paths in double from the very normals the GPU used, and flags the paths
 *    whose S ends so close to an edge |S - 1| = 0.1 that float rounding on the GPU may put it on the other
 *    side (pathcalc_edge_width says how close); payoff_compare() then demands that every other path agree.
 *  - mc_cpu_estimate() is an independent Monte Carlo of the same model with its own generator (SplitMix64
 *    and Box-Muller, in double); mc_zscore() says how many combined standard errors two estimates differ by.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "prac2_gold.h"

/* ---- the model ----------------------------------------------------------------------------------- */

typedef struct {
  int N;
  double con1, con2, rho, alpha, disc;
} mc_model;

static mc_model mc_setup(int N, double T, double r, double sigma, double rho) {
  mc_model m;
  double dt = T / N;
  m.N = N;
  m.con1 = 1.0 + r * dt;
  m.con2 = sigma * sqrt(dt);
  m.rho = rho;
  m.alpha = sqrt(1.0 - rho * rho);
  m.disc = exp(-r * T);
  return m;
}

/* one Euler step of both assets from the two independent normals z1, z2 */
static inline void mc_step(const mc_model *m, double z1, double z2, double *s1, double *s2) {
  double y1 = z1, y2 = m->rho * z1 + m->alpha * z2;
  *s1 *= m->con1 + m->con2 * y1;
  *s2 *= m->con1 + m->con2 * y2;
}

static inline int mc_inside(double s1, double s2) { return fabs(s1 - 1.0) < 0.1 && fabs(s2 - 1.0) < 0.1; }

/*
 * How far from an edge |S - 1| = 0.1 the GPU's float S can land on the other side of it.
 * Per step the GPU rounds con1 to float (relative error <= u = 2^-24), rounds the fma con1 + con2*y (<= u)
 * and the product with S (<= u). Smaller roundings enter times |con2*y| < 0.05 (N >= 100, |y| < 5): con2's,
 * and for S2 alpha's, alpha*z2's and y2's, up to 0.2u together; and as the factor can be 0.95, con1's counts
 * up to 1.05u against it. So after N steps |S_float/S_double - 1| <= 3.25*N*u (to first order), and near an
 * edge S <= 1.1, which gives 3.6*N*u; the GPU's comparison with 0.1f instead of 0.1 moves the edge by
 * 1.5e-9 = 0.025u more. We take 5*N*u + u: its 1.4*N*u margin covers the second-order terms and the ~1100 of
 * 1.92e9 y's beyond |5| (at most ~0.1u more each). A bound, not an estimate (the errors are random, and
 * typical ones are ~sqrt(N)*u).
 */
double pathcalc_edge_width(int N) { return (5.0 * N + 1.0) * ldexp(1.0, -24); }

/*
 * Paths from given normals. Normal j (= 2*step + k, k = 0 for Z1 and 1 for Z2) of path p is
 * z[p*path_stride + j*num_stride]: (1, npath) is the coalesced layout, (2N, 1) the strided one.
 * payoff[p] is exp(-rT) or 0; edge[p] is 1 when either S is within pathcalc_edge_width(N) of an edge.
 */
void pathcalc_gold(const float *z, size_t npath, int N, size_t path_stride, size_t num_stride, double T, double r,
                   double sigma, double rho, double *payoff, unsigned char *edge) {
  mc_model m = mc_setup(N, T, r, sigma, rho);
  double width = pathcalc_edge_width(N);
  for (size_t p = 0; p < npath; p++) {
    const float *zp = z + p * path_stride;
    double s1 = 1.0, s2 = 1.0;
    for (int n = 0; n < N; n++)
      mc_step(&m, (double)zp[(size_t)(2 * n) * num_stride], (double)zp[(size_t)(2 * n + 1) * num_stride], &s1, &s2);
    payoff[p] = mc_inside(s1, s2) ? m.disc : 0.0;
    edge[p] = fabs(fabs(s1 - 1.0) - 0.1) <= width || fabs(fabs(s2 - 1.0) - 0.1) <= width;
  }
}

/*
 * GPU payoffs against gold payoffs, path by path. A payoff agrees when it is within 1e-6 of the gold (float
 * rounding of exp(-rT) is 6e-8). One that does not is a flip when the path is an edge path and the GPU gave
 * the other valid payoff (0 for disc, disc for 0); anything else is an error (a NaN, a wrong path, an edge
 * path with a value that is neither). Returns the number of errors; *nflip counts the flips, *first_bad is
 * the index of the first error or -1.
 */
size_t payoff_compare(const float *gpu, const double *gold, const unsigned char *edge, size_t n, double disc,
                      size_t *nflip, long long *first_bad) {
  size_t nbad = 0;
  *nflip = 0;
  *first_bad = -1;
  for (size_t p = 0; p < n; p++) {
    double g = (double)gpu[p];
    if (isfinite(g) && fabs(g - gold[p]) <= 1e-6) continue;
    double other = gold[p] == 0.0 ? disc : 0.0;
    if (isfinite(g) && edge[p] && fabs(g - other) <= 1e-6) {
      (*nflip)++;
      continue;
    }
    if (nbad == 0) *first_bad = (long long)p;
    nbad++;
  }
  return nbad;
}

/* The course's estimate: the average of v and its standard error sqrt((E[v^2] - E[v]^2) / n), in double. */
void mean_and_error(const float *v, size_t n, double *avg, double *err) {
  double sum = 0.0, sum2 = 0.0;
  for (size_t i = 0; i < n; i++) {
    sum += v[i];
    sum2 += (double)v[i] * v[i];
  }
  *avg = n ? sum / n : 0.0;
  double var = n ? sum2 / n - *avg * *avg : 0.0;
  *err = n ? sqrt((var > 0.0 ? var : 0.0) / n) : 0.0;
}

/* ---- an independent generator -------------------------------------------------------------------- */

/*
 * SplitMix64 (Steele, Lea and Flood, 2014): output k of the stream that starts at `seed` is a fixed mixing
 * function of seed + (k+1)*0x9e3779b97f4a7c15. Since output k can be had directly, each path reads its own
 * part of one stream, and the result does not depend on how the paths are shared among CPU threads.
 */
uint64_t mc_splitmix64(uint64_t seed, uint64_t k) {
  uint64_t x = seed + (k + 1) * 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* Box-Muller in double from outputs 2k and 2k+1: two independent standard normals. */
void mc_normal_pair(uint64_t seed, uint64_t k, double *z1, double *z2) {
  const double two_pi = 6.283185307179586476925;
  double u1 = ((double)(mc_splitmix64(seed, 2 * k) >> 11) + 1.0) * 0x1.0p-53; /* in (0, 1]: log(u1) is finite */
  double u2 = (double)(mc_splitmix64(seed, 2 * k + 1) >> 11) * 0x1.0p-53;     /* in [0, 1) */
  double radius = sqrt(-2.0 * log(u1));
  *z1 = radius * cos(two_pi * u2);
  *z2 = radius * sin(two_pi * u2);
}

/* The whole Monte Carlo on the CPU: npath paths, path p using normal pairs p*N .. p*N + N-1. */
void mc_cpu_estimate(long long npath, int N, double T, double r, double sigma, double rho, uint64_t seed,
                     double *avg, double *err) {
  mc_model m = mc_setup(N, T, r, sigma, rho);
  double sum = 0.0, sum2 = 0.0;
#pragma omp parallel for reduction(+ : sum, sum2) schedule(static)
  for (long long p = 0; p < npath; p++) {
    double s1 = 1.0, s2 = 1.0;
    for (int n = 0; n < N; n++) {
      double z1, z2;
      mc_normal_pair(seed, (uint64_t)p * (uint64_t)N + (uint64_t)n, &z1, &z2);
      mc_step(&m, z1, z2, &s1, &s2);
    }
    double v = mc_inside(s1, s2) ? m.disc : 0.0;
    sum += v;
    sum2 += v * v;
  }
  *avg = npath > 0 ? sum / npath : 0.0;
  double var = npath > 0 ? sum2 / npath - *avg * *avg : 0.0;
  *err = npath > 0 ? sqrt((var > 0.0 ? var : 0.0) / npath) : 0.0;
}

/* (a - b) in units of the combined standard error of two independent estimates; 0 when both are exact and
 * equal, +-infinity when they are exact and differ. */
double mc_zscore(double a, double err_a, double b, double err_b) {
  double err = sqrt(err_a * err_a + err_b * err_b);
  if (err == 0.0) return a == b ? 0.0 : (a > b ? INFINITY : -INFINITY);
  return (a - b) / err;
}
