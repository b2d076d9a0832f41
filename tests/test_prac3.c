/*
 * test_prac3.c -- CPU tests of practical 3's gold routine, Gold_laplace3d (../prac3/laplace3d_gold.c).
 *
 * The GPU programs are judged against Gold_laplace3d bit for bit, so it must be right on its own:
 * discrete harmonic fields stay put, the boundary never moves, and small sweeps match hand arithmetic.
 * Then a host model of laplace3d_tb's kernel (step 10): its tiling, chunks, buffers and barriers.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "../prac3/prac3_gold.h"

#ifdef _OPENMP
#include <omp.h>
#endif


#define IDX(i, j, k) ((size_t)(i) + (size_t)(j) * NX + (size_t)(k) * NX * NY)

static int on_boundary(int i, int j, int k, int NX, int NY, int NZ) {
  return i == 0 || i == NX - 1 || j == 0 || j == NY - 1 || k == 0 || k == NZ - 1;
}

static float *grid_alloc(int NX, int NY, int NZ) { return (float *)malloc((size_t)NX * NY * NZ * sizeof(float)); }

static unsigned int lcg_state = 12345u;
static float lcg_uniform(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return (float)(lcg_state >> 8) * (1.0f / 16777216.0f);
}

/* A field whose six neighbours sum to exactly six times its value must come back unchanged: the sum of
 * small integers is exact in float, and 6u * (1/6 rounded to float) rounds back to u. */
static int fixed_point(int NX, int NY, int NZ, float (*f)(int, int, int)) {
  float *u1 = grid_alloc(NX, NY, NZ), *u2 = grid_alloc(NX, NY, NZ);
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) u1[IDX(i, j, k)] = f(i, j, k);
  Gold_laplace3d(NX, NY, NZ, u1, u2);
  int same = memcmp(u1, u2, (size_t)NX * NY * NZ * sizeof(float)) == 0;
  free(u1);
  free(u2);
  return same;
}

static float linear(int i, int j, int k) { return (float)(3 * i - 2 * j + 5 * k + 7); }
static float saddle(int i, int j, int k) { return (float)(i * i - j * j + 2 * i * k); } /* harmonic too */
static float not_harmonic(int i, int j, int k) { return (float)(i * i + j * j + k * k); }

TEST(linear_field_is_a_fixed_point) {
  CHECK(fixed_point(9, 7, 5, linear));
  CHECK(fixed_point(3, 3, 3, linear));
  CHECK(fixed_point(33, 17, 12, linear));
}

TEST(quadratic_harmonic_field_is_a_fixed_point) { CHECK(fixed_point(11, 8, 6, saddle)); }

TEST(non_harmonic_field_moves) {
  /* i^2 + j^2 + k^2: its neighbours average to u + 1, so every interior point grows by exactly 1 */
  int NX = 6, NY = 5, NZ = 4;
  float *u1 = grid_alloc(NX, NY, NZ), *u2 = grid_alloc(NX, NY, NZ);
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) u1[IDX(i, j, k)] = not_harmonic(i, j, k);
  Gold_laplace3d(NX, NY, NZ, u1, u2);
  CHECK(!fixed_point(NX, NY, NZ, not_harmonic));
  for (int k = 1; k < NZ - 1; k++)
    for (int j = 1; j < NY - 1; j++)
      for (int i = 1; i < NX - 1; i++) CHECK_NEAR(u2[IDX(i, j, k)], u1[IDX(i, j, k)] + 1.0, 1e-5);
  free(u1);
  free(u2);
}

TEST(boundary_never_changes) {
  /* random values everywhere, 5 sweeps: every boundary value is still bit-for-bit what it was */
  int NX = 13, NY = 10, NZ = 7, bad = 0;
  size_t n = (size_t)NX * NY * NZ;
  float *u0 = grid_alloc(NX, NY, NZ), *u1 = grid_alloc(NX, NY, NZ), *u2 = grid_alloc(NX, NY, NZ);
  for (size_t p = 0; p < n; p++) u0[p] = u1[p] = lcg_uniform();
  for (int it = 0; it < 5; it++) {
    Gold_laplace3d(NX, NY, NZ, u1, u2);
    float *t = u1;
    u1 = u2;
    u2 = t;
  }
  int interior_moved = 0;
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        size_t p = IDX(i, j, k);
        if (on_boundary(i, j, k, NX, NY, NZ))
          bad += memcmp(&u0[p], &u1[p], sizeof(float)) != 0;
        else
          interior_moved += u0[p] != u1[p];
      }
  CHECK(bad == 0);
  CHECK(interior_moved > 0);
  free(u0);
  free(u1);
  free(u2);
}

TEST(hand_computed_4x4x4_course_setup) {
  /* the course's start: 1 on the boundary, 0 inside. In a 4^3 grid each of the 8 interior points has
   * 3 boundary neighbours and 3 interior ones: after one sweep 3/6 = 0.5, after two (3 + 1.5)/6 = 0.75 */
  int NX = 4, NY = 4, NZ = 4;
  float u1[64], u2[64], u3[64];
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) u1[IDX(i, j, k)] = on_boundary(i, j, k, NX, NY, NZ) ? 1.0f : 0.0f;
  Gold_laplace3d(NX, NY, NZ, u1, u2);
  Gold_laplace3d(NX, NY, NZ, u2, u3);
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        int b = on_boundary(i, j, k, NX, NY, NZ);
        CHECK(u2[IDX(i, j, k)] == (b ? 1.0f : 0.5f));
        CHECK(u3[IDX(i, j, k)] == (b ? 1.0f : 0.75f));
      }
}

TEST(hand_computed_4x4x4_single_spike) {
  /* all 0 except u(1,1,1) = 6: afterwards its three interior neighbours are 6/6 = 1, it is 0 (its own
   * neighbours were all 0), and everything else, the boundary included, stays 0 */
  int NX = 4, NY = 4, NZ = 4;
  float u1[64] = {0}, u2[64];
  u1[IDX(1, 1, 1)] = 6.0f;
  Gold_laplace3d(NX, NY, NZ, u1, u2);
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        int one = (i == 2 && j == 1 && k == 1) || (i == 1 && j == 2 && k == 1) || (i == 1 && j == 1 && k == 2);
        CHECK(u2[IDX(i, j, k)] == (one ? 1.0f : 0.0f));
      }
}

TEST(order_of_additions_is_the_documented_one) {
  /* values whose float sum depends on the order: (i-1, i+1, j-1, j+1, k-1, k+1) from left to right */
  int NX = 3, NY = 3, NZ = 3;
  float u1[27] = {0}, u2[27];
  float w = 1e8f, e = 1.0f, s = -1e8f, n = 1.0f, b = 3.0f, a = 0.5f;
  u1[IDX(0, 1, 1)] = w;
  u1[IDX(2, 1, 1)] = e;
  u1[IDX(1, 0, 1)] = s;
  u1[IDX(1, 2, 1)] = n;
  u1[IDX(1, 1, 0)] = b;
  u1[IDX(1, 1, 2)] = a;
  Gold_laplace3d(NX, NY, NZ, u1, u2);
  /* left to right: 1e8 + 1 rounds to 1e8 (the 1 is lost), - 1e8 = 0, then 1 + 3 + 0.5 = 4.5; adding
   * j-1 first (1e8 - 1e8 = 0) would keep the 1 and give 5.5 */
  CHECK(u2[IDX(1, 1, 1)] == 4.5f * (1.0f / 6.0f));
  CHECK(u2[IDX(1, 1, 1)] != 5.5f * (1.0f / 6.0f));
}

TEST(threads_do_not_change_the_result) {
#ifdef _OPENMP
  int NX = 40, NY = 30, NZ = 50;
  size_t n = (size_t)NX * NY * NZ;
  float *u1 = grid_alloc(NX, NY, NZ), *a = grid_alloc(NX, NY, NZ), *b = grid_alloc(NX, NY, NZ);
  for (size_t p = 0; p < n; p++) u1[p] = lcg_uniform();
  int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  Gold_laplace3d(NX, NY, NZ, u1, a);
  omp_set_num_threads(saved > 1 ? saved : 4);
  Gold_laplace3d(NX, NY, NZ, u1, b);
  omp_set_num_threads(saved);
  CHECK(memcmp(a, b, n * sizeof(float)) == 0);
  free(u1);
  free(a);
  free(b);
#endif
}

/*
 * A host model of laplace3d_tb's kernel (../prac3/stencil/s4_tb.cuh, step 10): the same blocks (32 x BY/4
 * threads, each a strip of 4 columns in j), the same chunks in k, the same steps, levels, registers, shuffles
 * and double-buffered shared strip ends, one block after another, each level of a step as a loop over the
 * block's threads. A shuffle reads the neighbouring lane's register as the kernel's does: every lane of a warp
 * has finished level L-1 of this step before any of them reads it for level L (lane 0 and lane 31 get their
 * own value). Shared memory (the two outer strips included) and the registers start as NaN, where the kernel
 * has zeros, so an output that used a value nobody made would show: this is what shows that the kernel needs no
 * test at a chunk's ends in k. The input comes through the same 6-deep prefetch (pf[], and a plane index that
 * stops at the chunk's last plane), and a read of a plane outside the chunk's input planes fails the model.
 * Each shared value carries the step that wrote it, and a read of a value written in the same step (a race
 * between two __syncthreads(), whatever the thread order) fails the model.
 * If the model equals T sweeps of Gold_laplace3d bit for bit on awkward sizes, the kernel's indexing (tiles,
 * strips, halo, chunks, buffers, k boundaries) is right by the same argument; racecheck covers the GPU itself.
 */
#define TB_MODEL_MAX_T 8
#define TB_BX 32
#define TB_R 4  /* the kernel's TB_ROWS */
#define TB_PF 6 /* the kernel's TB_PREFETCH */
#define TB_U 6  /* the kernel's TB_UNROLL */

static int tb_model(int NX, int NY, int NZ, int T, int BY, int kchunk, const float *u1, float *u2) {
  const float sixth = 1.0f / 6.0f;
  const int BYT = BY / TB_R, STRIP = 2 * TB_BX, BUF = (BYT + 2) * STRIP, nthreads = TB_BX * BYT;
  const size_t KOFF = (size_t)NX * NY;
  float *sh = (float *)malloc((size_t)2 * T * BUF * sizeof(float));
  int *stamp = (int *)malloc((size_t)2 * T * BUF * sizeof(int)); /* the step that wrote each value */
  float(*r)[TB_MODEL_MAX_T][3][TB_R] = malloc((size_t)nthreads * sizeof(*r));
  float(*pf)[TB_PF][TB_R] = malloc((size_t)nthreads * sizeof(*pf)); /* each thread's planes in flight */
  int *ld = malloc((size_t)nthreads * sizeof(int));                 /* ... and the next plane it loads */
  int gx = (NX + TB_BX - 2 * T - 1) / (TB_BX - 2 * T), gy = (NY + BY - 2 * T - 1) / (BY - 2 * T);
  int gz = (NZ + kchunk - 1) / kchunk, race = 0, outside = 0;
  for (int bz = 0; bz < gz; bz++)
    for (int by = 0; by < gy; by++)
      for (int bx = 0; bx < gx; bx++) {
        for (int n = 0; n < 2 * T * BUF; n++) sh[n] = NAN, stamp[n] = -1;
        int k0 = bz * kchunk, k1 = k0 + kchunk < NZ ? k0 + kchunk : NZ;
        int kin0 = k0 - T > 0 ? k0 - T : 0, kin1 = k1 + T < NZ ? k1 + T : NZ;
        for (int t = 0; t < nthreads; t++) {
          for (int L = 0; L < T; L++)
            for (int q = 0; q < TB_R; q++) r[t][L][0][q] = r[t][L][1][q] = r[t][L][2][q] = NAN;
          ld[t] = kin0;
        }
        int nsteps = k1 + T - kin0;
        nsteps += nsteps % TB_U ? TB_U - nsteps % TB_U : 0; /* the kernel's step loop is unrolled by 6 */
        for (int m = -1; m < nsteps; m++) { /* m = -1: the loads before the loop */
          int p = kin0 + m, wb = m & 1, rb = (m + 1) & 1;
          for (int L = 0; L <= T; L++) { /* level L of this step, by every thread */
            float v[TB_BX * (64 / TB_R)][TB_R];
            for (int t = 0; t < nthreads; t++) {
              int tx = t % TB_BX, ty = t / TB_BX, me = (ty + 1) * STRIP + tx;
              int i = bx * (TB_BX - 2 * T) + tx - T, j0 = by * (BY - 2 * T) + ty * TB_R - T;
              unsigned off[TB_R]; /* 32-bit, as the kernel's: a plane has fewer than 2^32 points */
              for (int q = 0; q < TB_R; q++) {
                int ic = i < 0 ? 0 : i >= NX ? NX - 1 : i, jc = j0 + q < 0 ? 0 : j0 + q >= NY ? NY - 1 : j0 + q;
                off[q] = (unsigned)ic + (unsigned)jc * (unsigned)NX;
              }
/* the kernel's load: plane ld[t] of column q (clamped into the grid: a column outside reads its nearest); a
   plane outside the chunk's input planes [kin0, kin1) fails the model, even where it is inside the grid */
#define TB_LOAD(t, q) (ld[t] >= kin0 && ld[t] < kin1 ? u1[off[q] + (size_t)ld[t] * KOFF] : (outside = 1, NAN))
              if (L == 0 && m < 0) { /* the loads before the loop */
                for (int d = 0; d < TB_PF; d++) {
                  for (int q = 0; q < TB_R; q++) pf[t][d][q] = TB_LOAD(t, q);
                  if (kin0 + d + 1 < kin1) ld[t]++;
                }
                continue;
              }
              if (L == 0) { /* level 0: input plane p, the load of plane p + TB_PF, and this strip's ends */
                for (int q = 0; q < TB_R; q++) {
                  r[t][0][0][q] = r[t][0][1][q], r[t][0][1][q] = r[t][0][2][q], r[t][0][2][q] = pf[t][m % TB_PF][q];
                  pf[t][m % TB_PF][q] = TB_LOAD(t, q);
                }
                if (p + TB_PF + 1 < kin1) ld[t]++;
                sh[wb * BUF + me] = r[t][0][2][0], stamp[wb * BUF + me] = m;
                sh[wb * BUF + me + TB_BX] = r[t][0][2][TB_R - 1], stamp[wb * BUF + me + TB_BX] = m;
                continue;
              }
#undef TB_LOAD
              if (m < 0) continue; /* before the loop there is only level 0 */
              /* level L >= 1 makes plane p - L */
              const int c = (rb + 2 * (L - 1)) * BUF + me;
              if (stamp[c - STRIP + TB_BX] == m || stamp[c + STRIP] == m) race = 1;
              float below = sh[c - STRIP + TB_BX], above = sh[c + STRIP];
              int boundary_k = (unsigned)(p - L - 1) >= (unsigned)(NZ - 2); /* the kernel's test: k = 0 or NZ - 1 */
              for (int q = 0; q < TB_R; q++) {
                int j = j0 + q, copied = i == 0 || i == NX - 1 || j == 0 || j == NY - 1;
                float mid = r[t][L - 1][1][q];
                float im = tx > 0 ? r[t - 1][L - 1][1][q] : mid, ip = tx < TB_BX - 1 ? r[t + 1][L - 1][1][q] : mid;
                float jm = q == 0 ? below : r[t][L - 1][1][q - 1], jp = q == TB_R - 1 ? above : r[t][L - 1][1][q + 1];
                float s = (im + ip + jm + jp + r[t][L - 1][0][q] + r[t][L - 1][2][q]) * sixth;
                v[t][q] = boundary_k || copied ? mid : s;
                int output = i >= 0 && i < NX && j >= 0 && j < NY && tx >= T && tx < TB_BX - T &&
                             ty * TB_R + q >= T && ty * TB_R + q < BY - T;
                if (L == T && output && p - T >= k0 && p - T < k1) u2[off[q] + (size_t)(p - T) * KOFF] = v[t][q];
              }
            }
            if (L == 0 || L == T || m < 0) continue;
            for (int t = 0; t < nthreads; t++) { /* level L's new plane, once every lane has read level L-1 */
              int me = (t / TB_BX + 1) * STRIP + t % TB_BX, w = (wb + 2 * L) * BUF + me;
              for (int q = 0; q < TB_R; q++)
                r[t][L][0][q] = r[t][L][1][q], r[t][L][1][q] = r[t][L][2][q], r[t][L][2][q] = v[t][q];
              sh[w] = v[t][0], stamp[w] = m;
              sh[w + TB_BX] = v[t][TB_R - 1], stamp[w + TB_BX] = m;
            }
          }
        }
      }
  free(sh);
  free(stamp);
  free(r);
  free(pf);
  free(ld);
  return !race && !outside;
}

/* T sweeps of the model against T sweeps of the gold, random interior, output poisoned with NaN */
static int tb_model_matches_gold(int NX, int NY, int NZ, int T, int BY, int kchunk) {
  size_t n = (size_t)NX * NY * NZ;
  float *u1 = grid_alloc(NX, NY, NZ), *a = grid_alloc(NX, NY, NZ), *b = grid_alloc(NX, NY, NZ);
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) u1[IDX(i, j, k)] = on_boundary(i, j, k, NX, NY, NZ) ? 1.0f : lcg_uniform();
  memcpy(a, u1, n * sizeof(float));
  for (int t = 0; t < T; t++) { /* gold: T sweeps, a -> b -> a ... ending in a */
    Gold_laplace3d(NX, NY, NZ, a, b);
    memcpy(a, b, n * sizeof(float));
  }
  for (size_t p = 0; p < n; p++) b[p] = NAN;
  int race_free = tb_model(NX, NY, NZ, T, BY, kchunk, u1, b);
  int same = memcmp(a, b, n * sizeof(float)) == 0;
  free(u1);
  free(a);
  free(b);
  return same && race_free;
}

TEST(tb_model_equals_gold_on_awkward_grids) {
  CHECK(tb_model_matches_gold(3, 3, 3, 1, 16, 128));
  CHECK(tb_model_matches_gold(3, 3, 3, 3, 16, 1));
  CHECK(tb_model_matches_gold(3, 3, 3, 8, 32, 2)); /* more sweeps than interior points */
  CHECK(tb_model_matches_gold(67, 35, 19, 2, 32, 128));
  CHECK(tb_model_matches_gold(67, 35, 19, 3, 48, 5));
  CHECK(tb_model_matches_gold(67, 35, 19, 3, 16, 7));  /* 26 x 10 tiles: the strips' seams at every halo */
  CHECK(tb_model_matches_gold(67, 35, 19, 4, 64, 7));
  CHECK(tb_model_matches_gold(67, 35, 19, 5, 16, 3));  /* output tiles of 22 x 6: many halo seams */
  CHECK(tb_model_matches_gold(30, 5, 40, 2, 16, 1));   /* chunks of one plane: the halo in k is 4x the output */
  CHECK(tb_model_matches_gold(33, 31, 7, 8, 32, 3));   /* T = 8: 16 x 16 tiles, NZ < T */
  CHECK(tb_model_matches_gold(4, 40, 6, 3, 16, 2));    /* a block wider than the grid */
  CHECK(tb_model_matches_gold(45, 77, 40, 6, 16, 13)); /* 20 x 4 tiles, chunks not dividing NZ */
  CHECK(tb_model_matches_gold(45, 130, 41, 7, 48, 9)); /* 18 x 34 tiles, 4 strips an edge row of blocks */
  CHECK(tb_model_matches_gold(37, 41, 29, 1, 64, 8));  /* T = 1 in 4 chunks */
  CHECK(tb_model_matches_gold(67, 35, 19, 2, 64, 5));  /* 64 columns at T = 2 */
  CHECK(tb_model_matches_gold(70, 70, 20, 3, 32, 6));  /* 32 columns at T = 3, 4 chunks */
}

int main(void) {
  RUN(linear_field_is_a_fixed_point);
  RUN(quadratic_harmonic_field_is_a_fixed_point);
  RUN(non_harmonic_field_moves);
  RUN(boundary_never_changes);
  RUN(hand_computed_4x4x4_course_setup);
  RUN(hand_computed_4x4x4_single_spike);
  RUN(order_of_additions_is_the_documented_one);
  RUN(threads_do_not_change_the_result);
  RUN(tb_model_equals_gold_on_awkward_grids);
  return test_summary();
}
